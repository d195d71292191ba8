#!/usr/bin/env python3
"""Writes the BMP fixtures of a ZoG package laid out as real ones are (rule file in `Rules/`,
bitmaps in `Images/Flavours/`), one piece bitmap per BMP flavour real packages use, by hand
(no imaging library), then reads every file back with Pillow (`pip install pillow`), when it
is installed, as an independent reader: each must show exactly the pixels meant.

Run from anywhere: `python3 tests/data/package/make.py`. Every piece picture is 16×16: ZoG's
key green (#00FF00) around a Γ of the flavour's own colour (rows 2–8 of columns 2–13, and
columns 2–6 of rows 9–13), so a picture flipped either way or a key left opaque is seen.
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
IMAGES = os.path.join(HERE, "Images", "Flavours")
KEY = (0, 255, 0)
BG, LINE = (90, 140, 200), (0, 0, 0)

# file name on disk -> (flavour, colour of its Γ); the rule file names them in other cases.
PIECES = {
    "One-Bit.bmp": ("1-bit", (200, 30, 30)),
    "Four-Bit.bmp": ("4-bit", (30, 30, 200)),
    "Eight-Bit.bmp": ("8-bit", (250, 200, 10)),
    "Rle8.bmp": ("rle8", (120, 20, 160)),
    "Rle4.bmp": ("rle4", (20, 160, 140)),
    "True24.bmp": ("24-bit", (240, 120, 200)),
    "True32.bmp": ("32-bit", (100, 60, 20)),
    "High16.bmp": ("16-bit", (255, 0, 255)),
}


def gamma(c):
    """The 16×16 piece picture, rows top first."""
    return [[c if (2 <= x < 14 and 2 <= y < 9) or (2 <= x < 7 and 9 <= y < 14) else KEY
             for x in range(16)] for y in range(16)]


def board():
    """81×61: three ranks of four 20-px cells, black lines on blue."""
    return [[LINE if x % 20 == 0 or y % 20 == 0 else BG for x in range(81)] for y in range(61)]


def write(name, w, h, bpp, compression, data, palette=(), masks=(), colours_used=0):
    pal = b"".join(bytes((b, g, r, 0)) for (r, g, b) in palette)
    extra = b"".join(struct.pack("<I", m) for m in masks)
    offset = 14 + 40 + len(extra) + len(pal)
    head = b"BM" + struct.pack("<IHHI", offset + len(data), 0, 0, offset)
    info = struct.pack("<IiiHHIIiiII", 40, w, h, 1, bpp, compression, len(data), 2835, 2835,
                       colours_used, 0)
    with open(os.path.join(IMAGES, name), "wb") as f:
        f.write(head + info + extra + pal + data)


def pad(row):
    return row + b"\0" * (-len(row) % 4)


def paletted(rows, palette, bpp):
    """Uncompressed paletted rows, bottom row first."""
    out = b""
    for row in reversed(rows):
        idx = [palette.index(c) for c in row]
        packed = bytearray()
        per = 8 // bpp
        for k in range(0, len(idx), per):
            chunk = idx[k:k + per] + [0] * (per - len(idx[k:k + per]))
            v = 0
            for i in chunk:
                v = (v << bpp) | i
            packed.append(v)
        out += pad(bytes(packed))
    return out


def runs(idx):
    """(count, index) runs of a row, at most 255 long."""
    out = []
    for i in idx:
        if out and out[-1][1] == i and out[-1][0] < 255:
            out[-1][0] += 1
        else:
            out.append([1, i])
    return out


def rle8(rows, palette):
    """BI_RLE8, bottom row first: the bottom row as one absolute run, the next one starting with
    an odd absolute run (padded), every other row as runs; end of line, end of bitmap."""
    out = bytearray()
    for n, row in enumerate(reversed(rows)):
        idx = [palette.index(c) for c in row]
        if n == 0:
            out += bytes((0, len(idx))) + bytes(idx) + b"\0" * (len(idx) % 2)
        elif n == 1:
            out += bytes((0, 5)) + bytes(idx[:5]) + b"\0"
            for c, i in runs(idx[5:]):
                out += bytes((c, i))
        else:
            for c, i in runs(idx):
                out += bytes((c, i))
        out += b"\0\0"
    return bytes(out + b"\0\1")


def rle4(rows, palette):
    """BI_RLE4, bottom row first: the bottom row as one absolute run, the next one starting with
    an odd absolute run of 5 pixels (3 bytes, padded to 4), every other row as runs."""
    out = bytearray()

    def nibbles(idx):
        idx = idx + [0] * (len(idx) % 2)
        return bytes((idx[k] << 4) | idx[k + 1] for k in range(0, len(idx), 2))

    for n, row in enumerate(reversed(rows)):
        idx = [palette.index(c) for c in row]
        if n == 0:
            b = nibbles(idx)
            out += bytes((0, len(idx))) + b + b"\0" * (len(b) % 2)
        elif n == 1:
            b = nibbles(idx[:5])
            out += bytes((0, 5)) + b + b"\0" * (len(b) % 2)
            for c, i in runs(idx[5:]):
                out += bytes((c, (i << 4) | i))
        else:
            for c, i in runs(idx):
                out += bytes((c, (i << 4) | i))
        out += b"\0\0"
    return bytes(out + b"\0\1")


def palette_with(n, at):
    """`n` distinct greys, with the colours of `at` (index -> colour) in their places."""
    pal = [(k, k, k) for k in range(n)]
    for i, c in at.items():
        pal[i] = c
    return pal


def make():
    os.makedirs(IMAGES, exist_ok=True)
    for name, (flavour, c) in PIECES.items():
        rows = gamma(c)
        if flavour == "1-bit":
            pal = [c, KEY]
            write(name, 16, 16, 1, 0, paletted(rows, pal, 1), pal)
        elif flavour == "4-bit":
            pal = palette_with(16, {5: KEY, 11: c})
            write(name, 16, 16, 4, 0, paletted(rows, pal, 4), pal)
        elif flavour == "8-bit":
            pal = palette_with(256, {200: KEY, 77: c})
            write(name, 16, 16, 8, 0, paletted(rows, pal, 8), pal)
        elif flavour == "rle8":
            pal = palette_with(12, {3: KEY, 9: c})
            write(name, 16, 16, 8, 1, rle8(rows, pal), pal, colours_used=12)
        elif flavour == "rle4":
            pal = palette_with(16, {2: KEY, 13: c})
            write(name, 16, 16, 4, 2, rle4(rows, pal), pal)
        elif flavour == "24-bit":
            data = b"".join(pad(b"".join(bytes((b, g, r)) for (r, g, b) in row))
                            for row in reversed(rows))
            write(name, 16, 16, 24, 0, data)
        elif flavour == "32-bit":
            # The fourth byte left 0, as many writers leave it: not transparency.
            data = b"".join(b"".join(bytes((b, g, r, 0)) for (r, g, b) in row)
                            for row in reversed(rows))
            write(name, 16, 16, 32, 0, data)
        else:
            def rgb565(p):
                r, g, b = p
                return struct.pack("<H", (r >> 3) << 11 | (g >> 2) << 5 | b >> 3)
            data = b"".join(pad(b"".join(rgb565(p) for p in row)) for row in reversed(rows))
            write(name, 16, 16, 16, 3, data, masks=(0xF800, 0x07E0, 0x001F))
    rows = board()
    pal = [BG, LINE, (250, 250, 250)]
    write("Board.bmp", 81, 61, 8, 1, rle8(rows, pal), pal, colours_used=3)


def check():
    """Every file read back by Pillow shows exactly the pixels meant."""
    try:
        from PIL import Image
    except ImportError:
        print("Pillow is not installed: the files were not read back")
        return
    wanted = {name: gamma(c) for name, (_, c) in PIECES.items()}
    wanted["Board.bmp"] = board()
    for name, rows in wanted.items():
        with Image.open(os.path.join(IMAGES, name)) as im:
            got = [[im.convert("RGB").getpixel((x, y)) for x in range(im.width)]
                   for y in range(im.height)]
        if got != [list(r) for r in rows]:
            sys.exit(f"{name}: Pillow reads other pixels than the ones meant")
    print(f"{len(wanted)} files written and read back by Pillow")


if __name__ == "__main__":
    make()
    check()
