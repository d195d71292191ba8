//! Validators for written bitmaps (rendering.md §6): BMP header, sizes, key exactness, text
//! containment, orientation and board lines. Each failure says where and why.

use super::bmp::{self, BmpInfo};
use super::board::{BoardColours, BoardGeometry};
use super::tile::{Cell, TileGeometry, TileStyle, rotate180};
use super::token;
use super::{Rgb, Side, px};
use std::fmt;
use tiny_skia::Pixmap;

/// At most this many pixel errors are listed per check; the rest are summarised.
pub const MAX_LISTED: usize = 8;

/// Where a validation error is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    /// The image as a whole.
    Image,
    /// A byte offset in the file.
    Byte(usize),
    /// A pixel (x, y) from the top left.
    Pixel(u32, u32),
}

/// One failed check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    /// Which check failed, e.g. `bmp-header`, `key`, `orientation`.
    pub check: &'static str,
    /// What was checked, e.g. `tile 金将 (S)` or a file name.
    pub subject: String,
    /// Where.
    pub location: Location,
    /// What is wrong and what was expected.
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}]", self.subject, self.check)?;
        match self.location {
            Location::Image => {}
            Location::Byte(o) => write!(f, " at byte {o}")?,
            Location::Pixel(x, y) => write!(f, " at pixel ({x},{y})")?,
        }
        write!(f, ": {}", self.message)
    }
}

struct Collector<'a> {
    check: &'static str,
    subject: &'a str,
    errors: Vec<ValidationError>,
    more: usize,
}

impl<'a> Collector<'a> {
    fn new(check: &'static str, subject: &'a str) -> Self {
        Collector {
            check,
            subject,
            errors: Vec::new(),
            more: 0,
        }
    }
    fn push(&mut self, location: Location, message: String) {
        if self.errors.len() < MAX_LISTED {
            self.errors.push(ValidationError {
                check: self.check,
                subject: self.subject.to_string(),
                location,
                message,
            });
        } else {
            self.more += 1;
        }
    }
    fn finish(mut self, out: &mut Vec<ValidationError>) {
        if self.more > 0 {
            let check = self.check;
            self.errors.push(ValidationError {
                check,
                subject: self.subject.to_string(),
                location: Location::Image,
                message: format!("… and {} more pixel(s) failing the same check", self.more),
            });
        }
        out.append(&mut self.errors);
    }
}

/// Checks a BMP file against what zogkit writes and ZoG reads: `BM`, 40-byte BITMAPINFOHEADER,
/// 24 bpp, BI_RGB, one plane, positive (bottom-up) height, consistent file size and data offset.
/// Returns the header when every check passes.
pub fn validate_bmp(bytes: &[u8], subject: &str) -> Result<BmpInfo, Vec<ValidationError>> {
    let mut c = Collector::new("bmp-header", subject);
    let info = match bmp::read_info(bytes) {
        Ok(i) => i,
        Err(e) => {
            let loc = match &e {
                bmp::BmpError::Unsupported { offset, .. }
                | bmp::BmpError::Malformed { offset, .. } => Location::Byte(*offset),
                bmp::BmpError::Truncated { got, .. } => Location::Byte(*got),
            };
            c.push(loc, e.to_string());
            let mut v = Vec::new();
            c.finish(&mut v);
            return Err(v);
        }
    };
    let mut field = |ok: bool, offset: usize, msg: String| {
        if !ok {
            c.push(Location::Byte(offset), msg);
        }
    };
    field(
        info.header_size == 40,
        14,
        format!(
            "biSize is {}; ZoG-safe output uses the 40-byte BITMAPINFOHEADER (not V4/V5)",
            info.header_size
        ),
    );
    field(
        info.planes == 1,
        26,
        format!("biPlanes is {}, expected 1", info.planes),
    );
    field(
        info.bits_per_pixel == 24,
        28,
        format!("biBitCount is {}, expected 24", info.bits_per_pixel),
    );
    field(
        info.compression == 0,
        30,
        format!("biCompression is {}, expected 0 (BI_RGB)", info.compression),
    );
    field(info.width > 0, 18, format!("biWidth is {}", info.width));
    field(
        info.height > 0,
        22,
        format!(
            "biHeight is {}; expected positive (bottom-up rows)",
            info.height
        ),
    );
    field(
        info.data_offset == 54,
        10,
        format!(
            "bfOffBits is {}, expected 54 (14 + 40, no palette)",
            info.data_offset
        ),
    );
    field(
        info.colours_used == 0,
        46,
        format!("biClrUsed is {}, expected 0", info.colours_used),
    );
    if info.width > 0 && info.height > 0 {
        let expected = 54 + bmp::row_stride(info.width as u32) * info.height as usize;
        field(
            info.file_size as usize == bytes.len(),
            2,
            format!(
                "bfSize is {} but the file has {} bytes",
                info.file_size,
                bytes.len()
            ),
        );
        field(
            bytes.len() == expected,
            bytes.len().min(expected),
            format!(
                "file has {} bytes; {}×{} at 24 bpp with 4-byte row padding needs {expected}",
                bytes.len(),
                info.width,
                info.height
            ),
        );
    }
    let mut v = Vec::new();
    c.finish(&mut v);
    if v.is_empty() { Ok(info) } else { Err(v) }
}

/// Checks a piece tile: its size; exact key outside the pentagon; exact outline colour on the
/// outline (so no text touches it); no key or near-green colour inside; full opacity; and a
/// left–right symmetric mask. `side` selects the mask orientation.
pub fn validate_tile(
    tile: &Pixmap,
    style: &TileStyle,
    side: Side,
    subject: &str,
) -> Vec<ValidationError> {
    let mut out = Vec::new();
    let s = style.size;
    if (tile.width(), tile.height()) != (s, s) {
        out.push(ValidationError {
            check: "tile-size",
            subject: subject.to_string(),
            location: Location::Image,
            message: format!(
                "tile is {}×{}, declared {s}×{s}",
                tile.width(),
                tile.height()
            ),
        });
        return out;
    }
    let g = TileGeometry::new(s);
    if !g.is_symmetric() {
        out.push(ValidationError {
            check: "mask-symmetry",
            subject: subject.to_string(),
            location: Location::Image,
            message: format!("the {s}-px pentagon mask is not left–right symmetric"),
        });
    }
    let mut key = Collector::new("key", subject);
    let mut text = Collector::new("text-containment", subject);
    let mut alpha = Collector::new("opacity", subject);
    for y in 0..s {
        for x in 0..s {
            let (c, a) = px(tile, x, y);
            if a != 255 {
                alpha.push(
                    Location::Pixel(x, y),
                    format!("alpha {a}; output must be opaque"),
                );
                continue;
            }
            match g.cell(x, y, side) {
                Cell::Outside if c != Rgb::KEY => key.push(
                    Location::Pixel(x, y),
                    format!("{c} outside the pentagon; expected exactly {}", Rgb::KEY),
                ),
                Cell::Outline if c != style.outline => text.push(
                    Location::Pixel(x, y),
                    format!(
                        "{c} on the outline; expected {} (text or fringe touching it)",
                        style.outline
                    ),
                ),
                Cell::Interior if c == Rgb::KEY => key.push(
                    Location::Pixel(x, y),
                    format!(
                        "the key colour {} inside the piece would show as a hole",
                        Rgb::KEY
                    ),
                ),
                Cell::Interior if c.is_near_green() => key.push(
                    Location::Pixel(x, y),
                    format!("{c} inside the piece is near the key (G > 200, R and B < 80)"),
                ),
                _ => {}
            }
        }
    }
    alpha.finish(&mut out);
    key.finish(&mut out);
    text.finish(&mut out);
    out
}

/// Checks a token or chess tile ([`super::token`]), whose shape is not known in advance: its
/// size; full opacity; every pixel either exactly the key or part of the shape; no near-green
/// in the shape; every shape pixel that touches the key or the tile's edge is exactly
/// [`token::OUTLINE`] (so nothing is antialiased into the key); and a shape is present.
pub fn validate_token(tile: &Pixmap, size: u32, subject: &str) -> Vec<ValidationError> {
    let mut out = Vec::new();
    if (tile.width(), tile.height()) != (size, size) {
        out.push(ValidationError {
            check: "tile-size",
            subject: subject.to_string(),
            location: Location::Image,
            message: format!(
                "tile is {}×{}, declared {size}×{size}",
                tile.width(),
                tile.height()
            ),
        });
        return out;
    }
    let key_at = |x: i64, y: i64| {
        x < 0
            || y < 0
            || x >= size as i64
            || y >= size as i64
            || px(tile, x as u32, y as u32).0 == Rgb::KEY
    };
    let mut key = Collector::new("key", subject);
    let mut edge = Collector::new("text-containment", subject);
    let mut alpha = Collector::new("opacity", subject);
    let mut shape = 0usize;
    for y in 0..size {
        for x in 0..size {
            let (c, a) = px(tile, x, y);
            if a != 255 {
                alpha.push(
                    Location::Pixel(x, y),
                    format!("alpha {a}; output must be opaque"),
                );
                continue;
            }
            if c == Rgb::KEY {
                continue;
            }
            shape += 1;
            if c.is_near_green() {
                key.push(
                    Location::Pixel(x, y),
                    format!("{c} in the piece is near the key (G > 200, R and B < 80)"),
                );
            }
            let (xi, yi) = (x as i64, y as i64);
            let boundary = [(-1, 0), (1, 0), (0, -1), (0, 1)]
                .iter()
                .any(|(dx, dy)| key_at(xi + dx, yi + dy));
            if boundary && c != token::OUTLINE {
                edge.push(
                    Location::Pixel(x, y),
                    format!(
                        "{c} on the piece's boundary; expected exactly {} (antialiasing into the key)",
                        token::OUTLINE
                    ),
                );
            }
        }
    }
    if shape == 0 {
        key.push(
            Location::Image,
            "the tile holds no piece, only the key".into(),
        );
    }
    alpha.finish(&mut out);
    key.finish(&mut out);
    edge.finish(&mut out);
    out
}

/// Checks a tile BMP file end to end: header ([`validate_bmp`]), then the decoded pixels
/// ([`validate_tile`]). Returns the decoded image when it could be read.
pub fn validate_tile_file(
    bytes: &[u8],
    style: &TileStyle,
    side: Side,
    subject: &str,
) -> (Option<Pixmap>, Vec<ValidationError>) {
    validate_file(bytes, subject, |p| validate_tile(p, style, side, subject))
}

/// Checks a board BMP file end to end: header ([`validate_bmp`]), then the decoded pixels
/// ([`validate_board`]). Returns the decoded image when it could be read.
pub fn validate_board_file(
    bytes: &[u8],
    geometry: &BoardGeometry,
    colours: &BoardColours,
    subject: &str,
) -> (Option<Pixmap>, Vec<ValidationError>) {
    validate_file(bytes, subject, |p| {
        validate_board(p, geometry, colours, subject)
    })
}

/// The BMP header checks, then `pixels` on the decoded image when it can be decoded.
fn validate_file(
    bytes: &[u8],
    subject: &str,
    pixels: impl FnOnce(&Pixmap) -> Vec<ValidationError>,
) -> (Option<Pixmap>, Vec<ValidationError>) {
    let mut errors = validate_bmp(bytes, subject).err().unwrap_or_default();
    match bmp::decode_bmp(bytes) {
        Ok(p) => {
            errors.extend(pixels(&p));
            (Some(p), errors)
        }
        Err(e) => {
            if errors.is_empty() {
                errors.push(ValidationError {
                    check: "bmp-header",
                    subject: subject.to_string(),
                    location: Location::Image,
                    message: e.to_string(),
                });
            }
            (None, errors)
        }
    }
}

/// Checks that the second player's tile is exactly the first player's rotated by 180°.
pub fn validate_pair(first: &Pixmap, second: &Pixmap, subject: &str) -> Vec<ValidationError> {
    let mut out = Vec::new();
    if (first.width(), first.height()) != (second.width(), second.height()) {
        out.push(ValidationError {
            check: "orientation",
            subject: subject.to_string(),
            location: Location::Image,
            message: format!(
                "sizes differ: {}×{} vs {}×{}",
                first.width(),
                first.height(),
                second.width(),
                second.height()
            ),
        });
        return out;
    }
    let rotated = rotate180(first);
    let mut c = Collector::new("orientation", subject);
    for y in 0..second.height() {
        for x in 0..second.width() {
            let (want, wa) = px(&rotated, x, y);
            let (got, ga) = px(second, x, y);
            if (want, wa) != (got, ga) {
                c.push(
                    Location::Pixel(x, y),
                    format!("second tile has {got}, rot180(first) has {want}"),
                );
            }
        }
    }
    c.finish(&mut out);
    out
}

/// Checks that a piece of `tile` pixels fits the grid pitch (interior = unit − 1).
pub fn validate_tile_fits(tile: u32, unit: u32, subject: &str) -> Vec<ValidationError> {
    if tile < unit {
        Vec::new()
    } else {
        vec![ValidationError {
            check: "tile-size",
            subject: subject.to_string(),
            location: Location::Image,
            message: format!(
                "a {tile}-px piece is larger than the {}-px cell interior",
                unit - 1
            ),
        }]
    }
}

/// Checks a board: size = unit·N + 1 (+ margins) per side; no `#00FF00` or near-green anywhere;
/// full opacity; lines exactly at margin + unit·k across the grid and nowhere else inside it.
pub fn validate_board(
    board: &Pixmap,
    g: &BoardGeometry,
    colours: &BoardColours,
    subject: &str,
) -> Vec<ValidationError> {
    let mut out = Vec::new();
    if (board.width(), board.height()) != (g.width(), g.height()) {
        out.push(ValidationError {
            check: "board-size",
            subject: subject.to_string(),
            location: Location::Image,
            message: format!(
                "board is {}×{}; {}×{} cells at {} px need {}×{} (unit·N + 1{})",
                board.width(),
                board.height(),
                g.files,
                g.ranks,
                g.unit,
                g.width(),
                g.height(),
                if g.margin > 0 { " + 2·margin" } else { "" }
            ),
        });
        return out;
    }
    let mut key = Collector::new("key", subject);
    let mut lines = Collector::new("board-lines", subject);
    let on_line = |v: u32, n: u32| {
        v >= g.margin && (v - g.margin).is_multiple_of(g.unit) && (v - g.margin) / g.unit <= n
    };
    let grid_x = g.margin..=g.line(g.files);
    let grid_y = g.margin..=g.line(g.ranks);
    for y in 0..board.height() {
        for x in 0..board.width() {
            let (c, a) = px(board, x, y);
            if a != 255 {
                key.push(
                    Location::Pixel(x, y),
                    format!("alpha {a}; boards are opaque"),
                );
            } else if c.is_near_green() {
                key.push(
                    Location::Pixel(x, y),
                    format!("{c} is (near) the transparency key; boards never use it"),
                );
            }
            if grid_x.contains(&x) && grid_y.contains(&y) {
                let line = on_line(x, g.files) || on_line(y, g.ranks);
                if line && c != colours.lines {
                    lines.push(
                        Location::Pixel(x, y),
                        format!("{c} on a grid line; expected {}", colours.lines),
                    );
                } else if !line && c == colours.lines {
                    lines.push(
                        Location::Pixel(x, y),
                        format!(
                            "line colour {} inside a cell; lines belong only at {} + {}·k",
                            colours.lines, g.margin, g.unit
                        ),
                    );
                }
            }
        }
    }
    key.finish(&mut out);
    lines.finish(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::board::{BoardStyle, render_board};
    use crate::render::fonts::FontSet;
    use crate::render::tile::{TileSpec, render_tile};
    use crate::render::{ColourClass, bmp::encode_bmp, put};

    #[test]
    fn bmp_validator_accepts_own_output_and_locates_problems() {
        let p = crate::render::filled(30, 30, Rgb::KEY).unwrap();
        let mut b = encode_bmp(&p);
        let info = validate_bmp(&b, "t.bmp").unwrap();
        assert_eq!((info.width, info.height), (30, 30));
        b[14] = 124; // a V5 header size
        b[28] = 32;
        let errs = validate_bmp(&b, "t.bmp").unwrap_err();
        let locs: Vec<_> = errs.iter().map(|e| e.location).collect();
        assert!(
            locs.contains(&Location::Byte(14)) && locs.contains(&Location::Byte(28)),
            "{errs:?}"
        );
        assert!(
            errs[0]
                .to_string()
                .starts_with("t.bmp [bmp-header] at byte 14")
        );
        let e = validate_bmp(&b[..20], "short.bmp").unwrap_err();
        assert!(e[0].message.contains("truncated"));
        let mut c = encode_bmp(&p);
        c.push(0);
        assert!(validate_bmp(&c, "long.bmp").is_err());
    }

    #[test]
    fn tile_validator_catches_fringe_holes_and_text_on_outline() {
        let fonts = FontSet::bundled();
        let style = TileStyle::default();
        let tile = render_tile(
            &TileSpec::new("金将", ColourClass::Unpromoted, Side::First),
            &style,
            &fonts,
        )
        .unwrap()
        .pixmap;
        assert_eq!(validate_tile(&tile, &style, Side::First, "t"), vec![]);
        // The same tile checked against the other side's mask fails.
        assert!(!validate_tile(&tile, &style, Side::Second, "t").is_empty());

        let mut fringe = tile.clone();
        put(&mut fringe, 13, 0, Rgb(40, 250, 30)); // an antialiased edge pixel next to the apex
        let e = validate_tile(&fringe, &style, Side::First, "t");
        assert_eq!(e.len(), 1);
        assert_eq!((e[0].check, e[0].location), ("key", Location::Pixel(13, 0)));

        let mut hole = tile.clone();
        put(&mut hole, 15, 15, Rgb::KEY);
        put(&mut hole, 16, 16, Rgb(20, 230, 20));
        let e = validate_tile(&hole, &style, Side::First, "t");
        assert_eq!(e.len(), 2, "{e:?}");
        assert!(e[0].message.contains("hole") && e[1].message.contains("near the key"));

        let mut touching = tile.clone();
        put(&mut touching, 15, 29, Rgb::BLACK);
        let e = validate_tile(&touching, &style, Side::First, "t");
        assert_eq!(e[0].check, "text-containment");

        let e = validate_tile(
            &crate::render::filled(31, 31, Rgb::KEY).unwrap(),
            &style,
            Side::First,
            "t",
        );
        assert_eq!(e[0].check, "tile-size");
    }

    #[test]
    fn file_validators_combine_header_and_pixels() {
        let fonts = FontSet::bundled();
        let style = TileStyle::default();
        let tile = render_tile(
            &TileSpec::new("銀将", ColourClass::Unpromoted, Side::Second),
            &style,
            &fonts,
        )
        .unwrap()
        .pixmap;
        let bytes = encode_bmp(&tile);
        let (p, e) = validate_tile_file(&bytes, &style, Side::Second, "gi_G.bmp");
        assert_eq!(e, vec![]);
        assert_eq!(p.unwrap().data(), tile.data());
        // Wrong side: pixel errors, header fine.
        let (_, e) = validate_tile_file(&bytes, &style, Side::First, "gi_G.bmp");
        assert!(!e.is_empty() && e.iter().all(|e| e.check != "bmp-header"));
        // A truncated file fails the header check.
        let (_, e) = validate_tile_file(&bytes[..100], &style, Side::Second, "cut.bmp");
        assert_eq!(e[0].check, "bmp-header");

        let bstyle = BoardStyle::new(3, 2);
        let g = BoardGeometry::of(&bstyle);
        let board = render_board(&bstyle, &fonts).unwrap().pixmap;
        let (p, e) = validate_board_file(&encode_bmp(&board), &g, &bstyle.colours, "b.bmp");
        assert_eq!(e, vec![]);
        assert_eq!((p.unwrap().width(), 63), (94, 2 * 31 + 1));
    }

    #[test]
    fn pair_validator_finds_the_first_differing_pixel() {
        let fonts = FontSet::bundled();
        let style = TileStyle::default();
        let a = render_tile(
            &TileSpec::new("太子", ColourClass::RoyalNeverPromoting, Side::First),
            &style,
            &fonts,
        )
        .unwrap()
        .pixmap;
        let mut b = rotate180(&a);
        assert_eq!(validate_pair(&a, &b, "太子"), vec![]);
        put(&mut b, 3, 20, Rgb(1, 2, 3));
        let e = validate_pair(&a, &b, "太子");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].location, Location::Pixel(3, 20));
        // A re-render upside down is not accepted: an unrotated copy fails at many pixels.
        assert!(validate_pair(&a, &a, "太子").len() > 1);
    }

    #[test]
    fn board_validator() {
        let fonts = FontSet::bundled();
        let style = BoardStyle::new(5, 5);
        let g = BoardGeometry::of(&style);
        let mut b = render_board(&style, &fonts).unwrap().pixmap;
        assert_eq!(validate_board(&b, &g, &style.colours, "b"), vec![]);
        put(&mut b, 31, 40, Rgb(200, 0, 0)); // break a line
        put(&mut b, 40, 40, Rgb::BLACK); // a stray line pixel
        put(&mut b, 50, 50, Rgb::KEY);
        let e = validate_board(&b, &g, &style.colours, "b");
        let checks: Vec<_> = e.iter().map(|e| (e.check, e.location)).collect();
        assert!(
            checks.contains(&("board-lines", Location::Pixel(31, 40))),
            "{e:?}"
        );
        assert!(checks.contains(&("board-lines", Location::Pixel(40, 40))));
        assert!(checks.contains(&("key", Location::Pixel(50, 50))));
        let small = crate::render::filled(150, 156, Rgb::BLACK).unwrap();
        assert_eq!(
            validate_board(&small, &g, &style.colours, "b")[0].check,
            "board-size"
        );
        assert!(validate_tile_fits(30, 31, "p").is_empty());
        assert_eq!(validate_tile_fits(31, 31, "p").len(), 1);
    }

    /// Drawing the pentagon the usual way, with antialiasing, blends the outline into the key and
    /// leaves near-green pixels: exactly what the renderer avoids and the validator must catch.
    #[test]
    fn antialiased_pentagon_is_rejected() {
        let style = TileStyle::default();
        let g = TileGeometry::new(30);
        let mut p = crate::render::filled(30, 30, Rgb::KEY).unwrap();
        let mut pb = tiny_skia::PathBuilder::new();
        for (i, &(x, y)) in g.vertices.iter().enumerate() {
            let (x, y) = (x as f32 + 0.5, y as f32 + 0.5);
            if i == 0 {
                pb.move_to(x, y)
            } else {
                pb.line_to(x, y)
            }
        }
        pb.close();
        let path = pb.finish().unwrap();
        let mut paint = tiny_skia::Paint {
            anti_alias: true,
            ..Default::default()
        };
        paint.set_color(style.fill.to_color());
        p.fill_path(
            &path,
            &paint,
            tiny_skia::FillRule::Winding,
            tiny_skia::Transform::identity(),
            None,
        );
        paint.set_color(style.outline.to_color());
        let stroke = tiny_skia::Stroke {
            width: 1.0,
            ..Default::default()
        };
        p.stroke_path(
            &path,
            &paint,
            &stroke,
            tiny_skia::Transform::identity(),
            None,
        );
        let errors = validate_tile(&p, &style, Side::First, "aa");
        assert!(errors.iter().any(|e| e.check == "key"), "{errors:?}");
        // Some blended edge pixel is neither the key nor a tile colour but still greenish.
        let fringe = (0..30 * 30)
            .map(|i| px(&p, i % 30, i / 30).0)
            .filter(|&c| {
                c != Rgb::KEY && c.1 as u32 > c.0 as u32 + 40 && c.1 as u32 > c.2 as u32 + 40
            })
            .count();
        assert!(fringe > 10, "{fringe}");
    }

    #[test]
    fn a_flip_is_not_a_rotation() {
        let fonts = FontSet::bundled();
        let style = TileStyle::default();
        let a = render_tile(
            &TileSpec::new("飛車", ColourClass::Unpromoted, Side::First),
            &style,
            &fonts,
        )
        .unwrap()
        .pixmap;
        // Vertical flip only: same outline as the rotation (the mask is symmetric), mirrored text.
        let mut flipped = a.clone();
        for y in 0..30 {
            for x in 0..30 {
                put(&mut flipped, x, y, px(&a, x, 29 - y).0);
            }
        }
        assert_eq!(
            validate_tile(&flipped, &style, Side::Second, "flip"),
            vec![]
        );
        let e = validate_pair(&a, &flipped, "flip");
        assert!(!e.is_empty() && e[0].check == "orientation");
    }
}
