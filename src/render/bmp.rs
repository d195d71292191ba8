//! Windows BMP: a 24-bit BI_RGB writer with a 40-byte BITMAPINFOHEADER (what ZoG loads), and a
//! reader of every flavour ZoG packages use (paletted, run-length, 16/24/32-bit), for the
//! authors' own pictures, validation and golden tests (rendering.md §3.5).

use std::fmt;
use tiny_skia::Pixmap;

/// Size of BITMAPFILEHEADER.
pub const FILE_HEADER: usize = 14;
/// Size of BITMAPINFOHEADER.
pub const INFO_HEADER: usize = 40;
/// Resolution written into both resolution fields (72 dpi), so output is deterministic.
pub const PIXELS_PER_METRE: i32 = 2835;

/// Bytes per stored row of a 24-bit image `width` pixels wide (padded to a multiple of 4).
pub fn row_stride(width: u32) -> usize {
    (width as usize * 3).div_ceil(4) * 4
}

/// Encodes a pixmap as an uncompressed 24-bit bottom-up BMP. Alpha is dropped; pixels that are
/// not opaque are un-premultiplied first (the renderer only produces opaque images).
pub fn encode_bmp(p: &Pixmap) -> Vec<u8> {
    let (w, h) = (p.width(), p.height());
    let stride = row_stride(w);
    let image_size = stride * h as usize;
    let offset = FILE_HEADER + INFO_HEADER;
    let mut out = Vec::with_capacity(offset + image_size);
    out.extend_from_slice(b"BM");
    out.extend_from_slice(&((offset + image_size) as u32).to_le_bytes());
    out.extend_from_slice(&[0; 4]); // reserved
    out.extend_from_slice(&(offset as u32).to_le_bytes());
    out.extend_from_slice(&(INFO_HEADER as u32).to_le_bytes());
    out.extend_from_slice(&(w as i32).to_le_bytes());
    out.extend_from_slice(&(h as i32).to_le_bytes()); // positive: bottom-up
    out.extend_from_slice(&1u16.to_le_bytes()); // planes
    out.extend_from_slice(&24u16.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes()); // BI_RGB
    out.extend_from_slice(&(image_size as u32).to_le_bytes());
    out.extend_from_slice(&PIXELS_PER_METRE.to_le_bytes());
    out.extend_from_slice(&PIXELS_PER_METRE.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes()); // colours used
    out.extend_from_slice(&0u32.to_le_bytes()); // important colours
    let data = p.data();
    let pad = stride - w as usize * 3;
    for y in (0..h as usize).rev() {
        let row = &data[y * w as usize * 4..(y + 1) * w as usize * 4];
        for px in row.chunks_exact(4) {
            let (r, g, b) = unpremultiply(px);
            out.extend_from_slice(&[b, g, r]);
        }
        out.extend(std::iter::repeat_n(0u8, pad));
    }
    out
}

fn unpremultiply(px: &[u8]) -> (u8, u8, u8) {
    let a = px[3] as u32;
    match a {
        255 => (px[0], px[1], px[2]),
        0 => (0, 0, 0),
        _ => {
            let f = |c: u8| ((c as u32 * 255 + a / 2) / a).min(255) as u8;
            (f(px[0]), f(px[1]), f(px[2]))
        }
    }
}

/// The header fields of a BMP file, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BmpInfo {
    /// bfSize (offset 2).
    pub file_size: u32,
    /// bfOffBits (offset 10).
    pub data_offset: u32,
    /// biSize (offset 14): 40 for BITMAPINFOHEADER, 108 (V4), 124 (V5).
    pub header_size: u32,
    /// biWidth (offset 18).
    pub width: i32,
    /// biHeight (offset 22): positive = bottom-up rows.
    pub height: i32,
    /// biPlanes (offset 26).
    pub planes: u16,
    /// biBitCount (offset 28).
    pub bits_per_pixel: u16,
    /// biCompression (offset 30): 0 = BI_RGB.
    pub compression: u32,
    /// biSizeImage (offset 34).
    pub image_size: u32,
    /// biClrUsed (offset 46).
    pub colours_used: u32,
}

/// Why a BMP could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BmpError {
    /// The file ends before `needed` bytes.
    Truncated {
        /// Bytes required.
        needed: usize,
        /// Bytes present.
        got: usize,
    },
    /// The pixel data contradicts the headers.
    Malformed {
        /// Byte offset of the data.
        offset: usize,
        /// What is wrong, e.g. `pixel data`.
        field: &'static str,
        /// What was found and what was expected.
        message: String,
    },
    /// A header field has a value the reader cannot handle.
    Unsupported {
        /// Byte offset of the field.
        offset: usize,
        /// Field name, e.g. `biBitCount`.
        field: &'static str,
        /// What was found and what the reader supports.
        message: String,
    },
}

impl fmt::Display for BmpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BmpError::Truncated { needed, got } => {
                write!(f, "truncated BMP: needs {needed} bytes, has {got}")
            }
            BmpError::Unsupported {
                offset,
                field,
                message,
            }
            | BmpError::Malformed {
                offset,
                field,
                message,
            } => write!(f, "byte {offset} ({field}): {message}"),
        }
    }
}

impl std::error::Error for BmpError {}

fn u16_at(b: &[u8], o: usize) -> u16 {
    u16::from_le_bytes([b[o], b[o + 1]])
}
fn u32_at(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]])
}

/// Reads the file and info headers (at least the 40 bytes every BITMAPINFOHEADER variant has).
pub fn read_info(bytes: &[u8]) -> Result<BmpInfo, BmpError> {
    let needed = FILE_HEADER + INFO_HEADER;
    if bytes.len() < needed {
        return Err(BmpError::Truncated {
            needed,
            got: bytes.len(),
        });
    }
    if &bytes[0..2] != b"BM" {
        return Err(BmpError::Unsupported {
            offset: 0,
            field: "signature",
            message: format!("expected \"BM\", found {:02X} {:02X}", bytes[0], bytes[1]),
        });
    }
    Ok(BmpInfo {
        file_size: u32_at(bytes, 2),
        data_offset: u32_at(bytes, 10),
        header_size: u32_at(bytes, 14),
        width: u32_at(bytes, 18) as i32,
        height: u32_at(bytes, 22) as i32,
        planes: u16_at(bytes, 26),
        bits_per_pixel: u16_at(bytes, 28),
        compression: u32_at(bytes, 30),
        image_size: u32_at(bytes, 34),
        colours_used: u32_at(bytes, 46),
    })
}

/// Most pixels (width × height) a BMP may have to be decoded: 16 M, 64 MiB as RGBA. Checked
/// from the header before anything is allocated; a run-length file cannot ask for more either.
pub const MAX_PIXELS: u64 = 1 << 24;

/// Longest side a BMP may have to be decoded.
const MAX_SIDE: i64 = 1 << 15;

/// How the pixels of a BMP are stored, read from its headers.
struct Layout {
    width: usize,
    height: usize,
    /// Rows stored top row first (a negative `biHeight`).
    top_down: bool,
    bpp: u16,
    compression: u32,
    /// The colour table (RGB), for 1-, 4- and 8-bit files.
    palette: Vec<[u8; 3]>,
    /// Red, green and blue masks of 16- and 32-bit files.
    masks: [u32; 3],
    /// Where the pixel data starts.
    data: usize,
}

fn unsupported(offset: usize, field: &'static str, message: String) -> BmpError {
    BmpError::Unsupported {
        offset,
        field,
        message,
    }
}

/// The size, format, colour table and masks of a BMP, checked against what the decoder reads
/// and against [`MAX_PIXELS`].
fn layout(bytes: &[u8]) -> Result<Layout, BmpError> {
    if bytes.len() < FILE_HEADER + 4 {
        return Err(BmpError::Truncated {
            needed: FILE_HEADER + 4,
            got: bytes.len(),
        });
    }
    if &bytes[0..2] != b"BM" {
        return Err(unsupported(
            0,
            "signature",
            format!("expected \"BM\", found {:02X} {:02X}", bytes[0], bytes[1]),
        ));
    }
    let header = u32_at(bytes, 14) as usize;
    // OS/2 1.x files have the 12-byte BITMAPCOREHEADER: 16-bit sizes, 3-byte palette entries.
    let core = header == 12;
    if !core && header < INFO_HEADER {
        return Err(unsupported(
            14,
            "biSize",
            format!("a {header}-byte info header; the reader handles 12, and 40 or more"),
        ));
    }
    let (width, height, bpp, compression, colours_used, data_offset) = if core {
        let needed = FILE_HEADER + 12;
        if bytes.len() < needed {
            return Err(BmpError::Truncated {
                needed,
                got: bytes.len(),
            });
        }
        let bpp = u16_at(bytes, 24);
        (
            i64::from(u16_at(bytes, 18)),
            i64::from(u16_at(bytes, 20)),
            bpp,
            0,
            0,
            u32_at(bytes, 10),
        )
    } else {
        let i = read_info(bytes)?;
        let (w, h) = (i64::from(i.width), i64::from(i.height));
        (
            w,
            h,
            i.bits_per_pixel,
            i.compression,
            i.colours_used,
            i.data_offset,
        )
    };
    if width <= 0 || height == 0 || width > MAX_SIDE || height.abs() > MAX_SIDE {
        return Err(unsupported(
            18,
            "biWidth/biHeight",
            format!("size {width}×{height}; the reader handles 1 to {MAX_SIDE} pixels a side"),
        ));
    }
    let pixels = width as u64 * height.unsigned_abs();
    if pixels > MAX_PIXELS {
        return Err(unsupported(
            18,
            "biWidth/biHeight",
            format!(
                "{width}×{} is {pixels} pixels; the reader's budget is {MAX_PIXELS}",
                height.abs()
            ),
        ));
    }
    let rle = matches!((bpp, compression), (8, 1) | (4, 2));
    let fields = compression == 3 || compression == 6;
    check_format(bpp, compression, core)?;
    if rle && height < 0 {
        return Err(unsupported(
            22,
            "biHeight",
            "a top-down (negative height) run-length file, which BMP does not allow".into(),
        ));
    }
    let mut table = FILE_HEADER + header;
    let masks = if fields {
        // A 40-byte header is followed by the masks; larger headers hold them.
        let at = FILE_HEADER + INFO_HEADER;
        if bytes.len() < at + 12 {
            return Err(BmpError::Truncated {
                needed: at + 12,
                got: bytes.len(),
            });
        }
        if header == INFO_HEADER {
            table += if compression == 6 { 16 } else { 12 };
        }
        [
            u32_at(bytes, at),
            u32_at(bytes, at + 4),
            u32_at(bytes, at + 8),
        ]
    } else if bpp == 16 {
        [0x7C00, 0x03E0, 0x001F]
    } else {
        [0x00FF_0000, 0x0000_FF00, 0x0000_00FF]
    };
    let palette = match bpp {
        1 | 4 | 8 => palette(bytes, table, bpp, colours_used, core)?,
        _ => Vec::new(),
    };
    let entry = if core { 3 } else { 4 };
    // A writer that leaves bfOffBits at 0 means "right after the colour table".
    let data = match data_offset as usize {
        0 => table + palette.len() * entry,
        n => n,
    };
    if data > bytes.len() {
        return Err(BmpError::Truncated {
            needed: data,
            got: bytes.len(),
        });
    }
    Ok(Layout {
        width: width as usize,
        height: height.unsigned_abs() as usize,
        top_down: height < 0,
        bpp,
        compression,
        palette,
        masks,
        data,
    })
}

/// Refuses a bit depth and compression the decoder does not read, naming the field at fault.
fn check_format(bpp: u16, compression: u32, core: bool) -> Result<(), BmpError> {
    let known = matches!(
        (bpp, compression),
        (1 | 4 | 8 | 24, 0) | (16 | 32, 0 | 3) | (32, 6) | (8, 1) | (4, 2)
    );
    if known {
        return Ok(());
    }
    Err(match bpp {
        1 | 4 | 8 | 16 | 24 | 32 => unsupported(
            30,
            "biCompression",
            format!(
                "compression {compression} with {bpp} bits per pixel; the reader handles \
                 BI_RGB (0), BI_RLE8 (1) with 8 bits, BI_RLE4 (2) with 4 bits and \
                 BI_BITFIELDS (3) with 16 or 32 bits"
            ),
        ),
        _ => unsupported(
            if core { 24 } else { 28 },
            "biBitCount",
            format!("{bpp} bits per pixel; the reader handles 1, 4, 8, 16, 24 and 32"),
        ),
    })
}

/// The colour table at `at`: `colours_used` entries, or all `2^bpp` when it is 0.
fn palette(
    bytes: &[u8],
    at: usize,
    bpp: u16,
    colours_used: u32,
    core: bool,
) -> Result<Vec<[u8; 3]>, BmpError> {
    let full = 1usize << bpp;
    let n = match colours_used as usize {
        0 => full,
        n if n <= full => n,
        n => {
            return Err(unsupported(
                46,
                "biClrUsed",
                format!("{n} colours for {bpp} bits per pixel; at most {full}"),
            ));
        }
    };
    let entry = if core { 3 } else { 4 };
    let needed = at + n * entry;
    if bytes.len() < needed {
        return Err(BmpError::Truncated {
            needed,
            got: bytes.len(),
        });
    }
    Ok((0..n)
        .map(|k| {
            let e = &bytes[at + k * entry..];
            [e[2], e[1], e[0]]
        })
        .collect())
}

/// The width and height of a BMP, read from its headers (checked as [`decode_bmp`] checks them)
/// without decoding its pixels.
pub fn size(bytes: &[u8]) -> Result<(u32, u32), BmpError> {
    let l = layout(bytes)?;
    Ok((l.width as u32, l.height as u32))
}

/// Decodes a BMP as Windows stores them — 1-, 4- and 8-bit paletted, 8-bit RLE, 4-bit RLE,
/// 16-, 24- and 32-bit (BI_RGB or BI_BITFIELDS), either row order, the 40-byte info header or
/// its larger versions, and OS/2's 12-byte one — into an opaque pixmap (a 32-bit file's fourth
/// byte is ignored, as ZoG ignores it). Within [`MAX_PIXELS`]; a malformed file is an error
/// naming the byte and field, never a panic.
pub fn decode_bmp(bytes: &[u8]) -> Result<Pixmap, BmpError> {
    let l = layout(bytes)?;
    let mut p = Pixmap::new(l.width as u32, l.height as u32)
        .ok_or_else(|| unsupported(18, "biWidth/biHeight", "cannot allocate".into()))?;
    match l.compression {
        1 | 2 => decode_rle(bytes, &l, p.data_mut())?,
        _ => decode_rows(bytes, &l, p.data_mut())?,
    }
    Ok(p)
}

/// The palette entry `index`, or an error naming the pixel.
fn colour(l: &Layout, index: u8, (x, y): (usize, usize)) -> Result<[u8; 3], BmpError> {
    l.palette
        .get(index as usize)
        .copied()
        .ok_or_else(|| BmpError::Malformed {
            offset: l.data,
            field: "pixel data",
            message: format!(
                "pixel ({x}, {y}) is colour {index}, but the colour table has {} entries",
                l.palette.len()
            ),
        })
}

/// A channel of a 16- or 32-bit pixel under `mask`, scaled to 8 bits.
fn channel(v: u32, mask: u32) -> u8 {
    if mask == 0 {
        return 0;
    }
    let bits = (mask >> mask.trailing_zeros()).count_ones().min(16);
    let max = (1u64 << bits) - 1;
    let c = u64::from((v & mask) >> mask.trailing_zeros()) & max;
    ((c * 255 + max / 2) / max) as u8
}

/// Pixel `i` of an RGBA picture set to the opaque colour `c`.
fn set(out: &mut [u8], i: usize, c: [u8; 3]) {
    out[i * 4..i * 4 + 4].copy_from_slice(&[c[0], c[1], c[2], 255]);
}

/// Uncompressed rows, each padded to 4 bytes (the last row's padding may be missing), into
/// the RGBA picture `out`.
fn decode_rows(bytes: &[u8], l: &Layout, out: &mut [u8]) -> Result<(), BmpError> {
    let bpp = l.bpp as usize;
    let row_bytes = (l.width * bpp).div_ceil(8);
    let stride = row_bytes.div_ceil(4) * 4;
    let needed = l.data + stride * (l.height - 1) + row_bytes;
    if bytes.len() < needed {
        return Err(BmpError::Truncated {
            needed,
            got: bytes.len(),
        });
    }
    for y in 0..l.height {
        let stored = if l.top_down { y } else { l.height - 1 - y };
        let row = &bytes[l.data + stored * stride..][..row_bytes];
        for x in 0..l.width {
            let c = match bpp {
                1 => colour(l, (row[x / 8] >> (7 - x % 8)) & 1, (x, y))?,
                4 => colour(l, (row[x / 2] >> (4 * (1 - x % 2))) & 15, (x, y))?,
                8 => colour(l, row[x], (x, y))?,
                16 => {
                    let v = u32::from(u16_at(row, x * 2));
                    l.masks.map(|m| channel(v, m))
                }
                24 => [row[x * 3 + 2], row[x * 3 + 1], row[x * 3]],
                _ => {
                    let v = u32_at(row, x * 4);
                    l.masks.map(|m| channel(v, m))
                }
            };
            set(out, y * l.width + x, c);
        }
    }
    Ok(())
}

/// BI_RLE8 and BI_RLE4 data (bottom-up): runs, absolute runs, end of line, delta and end of
/// bitmap. Pixels no code sets keep colour 0 of the table, and pixels past a row's end are
/// dropped; the work is bounded by the file's bytes and the picture's pixels.
fn decode_rle(bytes: &[u8], l: &Layout, out: &mut [u8]) -> Result<(), BmpError> {
    let four = l.compression == 2;
    let background = colour(l, 0, (0, 0))?;
    for i in 0..l.width * l.height {
        set(out, i, background);
    }
    let (w, h) = (l.width, l.height);
    let (mut x, mut y) = (0usize, 0usize);
    let mut i = l.data;
    let truncated = |needed: usize| BmpError::Truncated {
        needed,
        got: bytes.len(),
    };
    let mut put = |x: usize, y: usize, index: u8| -> Result<(), BmpError> {
        if x < w && y < h {
            set(out, (h - 1 - y) * w + x, colour(l, index, (x, h - 1 - y))?);
        }
        Ok(())
    };
    while y < h {
        // A file that ends without its end-of-bitmap mark keeps what it has.
        let (Some(&count), Some(&value)) = (bytes.get(i), bytes.get(i + 1)) else {
            break;
        };
        i += 2;
        if count > 0 {
            let n = usize::from(count).min(w.saturating_sub(x));
            for k in 0..n {
                let index = match four {
                    true if k % 2 == 0 => value >> 4,
                    true => value & 15,
                    false => value,
                };
                put(x + k, y, index)?;
            }
            x += usize::from(count);
            continue;
        }
        match value {
            0 => (x, y) = (0, y + 1),
            1 => break,
            2 => {
                let d = bytes.get(i..i + 2).ok_or_else(|| truncated(i + 2))?;
                x += usize::from(d[0]);
                y += usize::from(d[1]);
                i += 2;
            }
            n => {
                let n = usize::from(n);
                let len = if four { n.div_ceil(2) } else { n };
                let run = bytes.get(i..i + len).ok_or_else(|| truncated(i + len))?;
                for k in 0..n.min(w.saturating_sub(x)) {
                    let index = match four {
                        true if k % 2 == 0 => run[k / 2] >> 4,
                        true => run[k / 2] & 15,
                        false => run[k],
                    };
                    put(x + k, y, index)?;
                }
                x += n;
                // Absolute runs are padded to a 16-bit boundary.
                i += len + len % 2;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{Rgb, filled, put};

    #[test]
    fn sizes_match_the_notes() {
        let tile = filled(30, 30, Rgb::KEY).unwrap();
        let b = encode_bmp(&tile);
        assert_eq!(b.len(), 2814);
        assert_eq!(row_stride(30), 92);
        let board = filled(776, 776, Rgb(1, 2, 3)).unwrap();
        assert_eq!(encode_bmp(&board).len(), 1_806_582);
        assert_eq!(row_stride(776), 2328);
    }

    #[test]
    fn header_fields_and_bottom_up_bgr() {
        let mut p = filled(3, 2, Rgb(10, 20, 30)).unwrap();
        put(&mut p, 0, 0, Rgb(1, 2, 3)); // top-left
        put(&mut p, 2, 1, Rgb(4, 5, 6)); // bottom-right
        let b = encode_bmp(&p);
        let info = read_info(&b).unwrap();
        assert_eq!(info.header_size, 40);
        assert_eq!(info.data_offset, 54);
        assert_eq!(info.file_size as usize, b.len());
        assert_eq!((info.width, info.height, info.planes), (3, 2, 1));
        assert_eq!(
            (info.bits_per_pixel, info.compression, info.image_size),
            (24, 0, 24)
        );
        assert_eq!(u32_at(&b, 38), 2835);
        // First stored row is the bottom row: (10,20,30) (10,20,30) (4,5,6) as BGR, then 3 pad bytes.
        assert_eq!(&b[54..66], &[30, 20, 10, 30, 20, 10, 6, 5, 4, 0, 0, 0]);
        assert_eq!(&b[66..69], &[3, 2, 1]);
        let back = decode_bmp(&b).unwrap();
        assert_eq!(back.data(), p.data());
    }

    #[test]
    fn reader_rejects_bad_files_with_locations() {
        assert!(matches!(read_info(b"BM"), Err(BmpError::Truncated { .. })));
        let mut b = encode_bmp(&filled(4, 4, Rgb::BLACK).unwrap());
        b[0] = b'X';
        assert!(matches!(
            read_info(&b),
            Err(BmpError::Unsupported { offset: 0, .. })
        ));
        b[0] = b'B';
        b[28] = 2;
        let e = decode_bmp(&b).unwrap_err();
        assert!(e.to_string().contains("byte 28 (biBitCount)"), "{e}");
        b[28] = 24;
        b[30] = 1;
        let e = decode_bmp(&b).unwrap_err();
        assert!(e.to_string().contains("byte 30 (biCompression)"), "{e}");
        b[30] = 0;
        b[28] = 24;
        assert!(matches!(
            decode_bmp(&b[..60]),
            Err(BmpError::Truncated { .. })
        ));
    }

    #[test]
    fn top_down_and_32_bit_are_read() {
        // Hand-build a 2×1 top-down 32-bit file.
        let mut b = Vec::new();
        b.extend_from_slice(b"BM");
        b.extend_from_slice(&(54u32 + 8).to_le_bytes());
        b.extend_from_slice(&[0; 4]);
        b.extend_from_slice(&54u32.to_le_bytes());
        b.extend_from_slice(&40u32.to_le_bytes());
        b.extend_from_slice(&2i32.to_le_bytes());
        b.extend_from_slice(&(-1i32).to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&32u16.to_le_bytes());
        b.extend_from_slice(&[0; 24]);
        b.extend_from_slice(&[3, 2, 1, 255, 6, 5, 4, 255]);
        let p = decode_bmp(&b).unwrap();
        assert_eq!(p.data(), &[1, 2, 3, 255, 4, 5, 6, 255]);
    }

    #[test]
    fn translucent_pixels_are_unpremultiplied() {
        let mut p = Pixmap::new(1, 1).unwrap();
        p.data_mut().copy_from_slice(&[64, 0, 0, 128]);
        let b = encode_bmp(&p);
        assert_eq!(&b[54..57], &[0, 0, 128]);
    }

    /// The package fixture's pictures (`tests/data/package/make.py`): one per flavour, each a
    /// 16×16 Γ of its colour on ZoG's key green.
    /// A flavour's name, its file, and the colour of its Γ.
    type Flavour = (&'static str, &'static [u8], (u8, u8, u8));

    const FLAVOURS: [Flavour; 8] = [
        (
            "1-bit",
            include_bytes!("../../tests/data/package/Images/Flavours/One-Bit.bmp"),
            (200, 30, 30),
        ),
        (
            "4-bit",
            include_bytes!("../../tests/data/package/Images/Flavours/Four-Bit.bmp"),
            (30, 30, 200),
        ),
        (
            "8-bit",
            include_bytes!("../../tests/data/package/Images/Flavours/Eight-Bit.bmp"),
            (250, 200, 10),
        ),
        (
            "RLE8",
            include_bytes!("../../tests/data/package/Images/Flavours/Rle8.bmp"),
            (120, 20, 160),
        ),
        (
            "RLE4",
            include_bytes!("../../tests/data/package/Images/Flavours/Rle4.bmp"),
            (20, 160, 140),
        ),
        (
            "24-bit",
            include_bytes!("../../tests/data/package/Images/Flavours/True24.bmp"),
            (240, 120, 200),
        ),
        (
            "32-bit",
            include_bytes!("../../tests/data/package/Images/Flavours/True32.bmp"),
            (100, 60, 20),
        ),
        (
            "16-bit",
            include_bytes!("../../tests/data/package/Images/Flavours/High16.bmp"),
            (255, 0, 255),
        ),
    ];

    #[test]
    fn every_flavour_of_the_package_decodes_to_its_picture() {
        for (name, bytes, colour) in FLAVOURS {
            let p = decode_bmp(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!((p.width(), p.height()), (16, 16), "{name}");
            for y in 0..16 {
                for x in 0..16 {
                    let gamma = (2..14).contains(&x) && (2..9).contains(&y)
                        || (2..7).contains(&x) && (9..14).contains(&y);
                    let want = if gamma {
                        Rgb(colour.0, colour.1, colour.2)
                    } else {
                        Rgb::KEY
                    };
                    let (got, alpha) = crate::render::px(&p, x, y);
                    assert_eq!((got, alpha), (want, 255), "{name} ({x}, {y})");
                }
            }
        }
    }

    #[test]
    fn no_cut_or_corrupted_file_panics() {
        for (name, bytes, _) in FLAVOURS {
            for n in 0..bytes.len() {
                let _ = decode_bmp(&bytes[..n]);
            }
            let mut b = bytes.to_vec();
            for i in 0..b.len().min(200) {
                let keep = b[i];
                for v in [0, 1, 0x7F, 0x80, 0xFF] {
                    b[i] = v;
                    if let Err(e) = decode_bmp(&b) {
                        assert!(!e.to_string().is_empty(), "{name}");
                    }
                }
                b[i] = keep;
            }
        }
    }

    /// A 4×2 8-bit BI_RLE8 file of the given codes with a four-colour table.
    fn rle8(codes: &[u8]) -> Vec<u8> {
        let mut b = Vec::new();
        let offset = 54u32 + 16;
        b.extend_from_slice(b"BM");
        b.extend_from_slice(&(offset + codes.len() as u32).to_le_bytes());
        b.extend_from_slice(&[0; 4]);
        b.extend_from_slice(&offset.to_le_bytes());
        b.extend_from_slice(&40u32.to_le_bytes());
        b.extend_from_slice(&4i32.to_le_bytes());
        b.extend_from_slice(&2i32.to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&8u16.to_le_bytes());
        b.extend_from_slice(&1u32.to_le_bytes());
        b.extend_from_slice(&[0; 12]);
        b.extend_from_slice(&4u32.to_le_bytes());
        b.extend_from_slice(&[0; 4]);
        for c in [[0, 0, 0, 0], [0, 0, 255, 0], [0, 255, 0, 0], [255, 0, 0, 0]] {
            b.extend_from_slice(&c);
        }
        b.extend_from_slice(codes);
        b
    }

    #[test]
    fn run_length_codes_runs_deltas_and_errors() {
        // Bottom row: one red, then an absolute run green, blue, green (padded); end of line;
        // a delta of (1, 0) and two blues on the top row, whose other pixels keep colour 0.
        let codes = [1, 1, 0, 3, 2, 3, 2, 0, 0, 0, 0, 2, 1, 0, 2, 3, 0, 1];
        let p = decode_bmp(&rle8(&codes)).unwrap();
        let colours: Vec<u8> = (0..2)
            .flat_map(|y| (0..4).map(move |x| (x, y)))
            .map(|(x, y)| {
                let (c, _) = crate::render::px(&p, x, y);
                match (c.0, c.1, c.2) {
                    (0, 0, 0) => 0,
                    (255, 0, 0) => 1,
                    (0, 255, 0) => 2,
                    _ => 3,
                }
            })
            .collect();
        assert_eq!(colours, [0, 3, 3, 0, 1, 2, 3, 2]);
        // A run past the row, a file without its end mark and a missing delta do not panic.
        assert!(decode_bmp(&rle8(&[255, 1])).is_ok());
        assert!(matches!(
            decode_bmp(&rle8(&[0, 2, 1])),
            Err(BmpError::Truncated { .. })
        ));
        // A colour the table does not have is named.
        let e = decode_bmp(&rle8(&[1, 9])).unwrap_err();
        assert!(e.to_string().contains("colour 9"), "{e}");
        // A top-down run-length file is refused; so is a picture over the budget.
        let mut top_down = rle8(&[0, 1]);
        top_down[22..26].copy_from_slice(&(-2i32).to_le_bytes());
        assert!(
            decode_bmp(&top_down)
                .unwrap_err()
                .to_string()
                .contains("top-down")
        );
        let mut huge = rle8(&[0, 1]);
        huge[18..22].copy_from_slice(&20_000i32.to_le_bytes());
        huge[22..26].copy_from_slice(&20_000i32.to_le_bytes());
        let e = decode_bmp(&huge).unwrap_err();
        assert!(e.to_string().contains("budget"), "{e}");
    }
}
