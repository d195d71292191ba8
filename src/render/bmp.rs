//! Windows BMP: a 24-bit BI_RGB writer with a 40-byte BITMAPINFOHEADER (what ZoG loads) and a
//! small reader for validation and golden tests (rendering.md §3.5).

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

/// Decodes an uncompressed 24- or 32-bit BMP (either row order) into an opaque pixmap.
pub fn decode_bmp(bytes: &[u8]) -> Result<Pixmap, BmpError> {
    let info = read_info(bytes)?;
    let bpp = info.bits_per_pixel as usize;
    if bpp != 24 && bpp != 32 {
        return Err(BmpError::Unsupported {
            offset: 28,
            field: "biBitCount",
            message: format!("{bpp} bits per pixel; the reader handles 24 and 32"),
        });
    }
    if info.compression != 0 && !(info.compression == 3 && bpp == 32) {
        return Err(BmpError::Unsupported {
            offset: 30,
            field: "biCompression",
            message: format!(
                "compression {}; the reader handles BI_RGB (0)",
                info.compression
            ),
        });
    }
    if info.width <= 0 || info.height == 0 || info.width > 1 << 15 || info.height.abs() > 1 << 15 {
        return Err(BmpError::Unsupported {
            offset: 18,
            field: "biWidth/biHeight",
            message: format!("size {}×{}", info.width, info.height),
        });
    }
    let (w, h) = (info.width as usize, info.height.unsigned_abs() as usize);
    let stride = (w * bpp / 8).div_ceil(4) * 4;
    let start = info.data_offset as usize;
    let needed = start + stride * h;
    if bytes.len() < needed {
        return Err(BmpError::Truncated {
            needed,
            got: bytes.len(),
        });
    }
    let mut p = Pixmap::new(w as u32, h as u32).ok_or(BmpError::Unsupported {
        offset: 18,
        field: "biWidth/biHeight",
        message: "cannot allocate".into(),
    })?;
    let data = p.data_mut();
    for y in 0..h {
        let stored = if info.height > 0 { h - 1 - y } else { y };
        let row = &bytes[start + stored * stride..];
        for x in 0..w {
            let s = &row[x * bpp / 8..];
            let d = (y * w + x) * 4;
            data[d..d + 4].copy_from_slice(&[s[2], s[1], s[0], 255]);
        }
    }
    Ok(p)
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
        b[28] = 8;
        let e = decode_bmp(&b).unwrap_err();
        assert!(e.to_string().contains("byte 28 (biBitCount)"), "{e}");
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
}
