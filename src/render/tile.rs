//! Piece tiles: a crisp pentagon on the `#00FF00` key with the name drawn inside (rendering.md §3).
//!
//! The pentagon is rasterised here pixel by pixel (centre-inside test, no antialiasing), so the
//! mask is exact, left–right symmetric and shared with the validators. Only the text is
//! antialiased, and it is composited onto interior pixels alone, so it can never blend with the
//! key. The second player's tile is the first player's pixel buffer rotated by 180°.

use super::fonts::FontSet;
use super::text::{self, FourKanjiOrder, NameLayout, ThreeKanji};
use super::{ColourClass, RenderError, RenderWarning, Rendered, Rgb, Side, filled, put};
use std::sync::Mutex;
use tiny_skia::Pixmap;

/// Most characters of a name set vertically (kanji) drawn on a tile (a 30-px tile shows four
/// or five legibly).
pub const MAX_TILE_CHARS: usize = 12;
/// Most characters of a Latin name drawn on a tile, in up to three lines (Chu Shogi's
/// `Copper-General`, `Soaring-Eagle_part-move`).
pub const MAX_LATIN_TILE_CHARS: usize = 24;

/// What to draw on one tile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileSpec {
    /// The name as written on the piece (kanji, kana or Latin).
    pub name: String,
    /// The colour class of the name.
    pub class: ColourClass,
    /// The player the tile is for.
    pub side: Side,
}

impl TileSpec {
    /// A tile spec.
    pub fn new(name: impl Into<String>, class: ColourClass, side: Side) -> TileSpec {
        TileSpec {
            name: name.into(),
            class,
            side,
        }
    }
}

/// Appearance shared by all tiles of a set.
#[derive(Debug, Clone, PartialEq)]
pub struct TileStyle {
    /// Tile edge in pixels (30 for the seed's 31-pixel unit). At least 12.
    pub size: u32,
    /// Pentagon fill, `#FFE2AA`.
    pub fill: Rgb,
    /// Pentagon outline (1 px), `#3C2814`.
    pub outline: Rgb,
    /// Draw every name in black instead of its class colour.
    pub all_black: bool,
    /// Vertical or horizontal text.
    pub layout: NameLayout,
    /// Reading order of four-character names.
    pub four_kanji: FourKanjiOrder,
    /// Layout of three-character names.
    pub three_kanji: ThreeKanji,
}

impl Default for TileStyle {
    fn default() -> Self {
        TileStyle {
            size: 30,
            fill: Rgb(0xFF, 0xE2, 0xAA),
            outline: Rgb(0x3C, 0x28, 0x14),
            all_black: false,
            layout: NameLayout::Auto,
            four_kanji: FourKanjiOrder::Rows,
            three_kanji: ThreeKanji::Small,
        }
    }
}

impl TileStyle {
    /// The default style at another tile size.
    pub fn with_size(size: u32) -> TileStyle {
        TileStyle {
            size,
            ..TileStyle::default()
        }
    }
}

/// Where a tile pixel lies relative to the pentagon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// Outside: exactly the key colour.
    Outside,
    /// The 1-pixel outline.
    Outline,
    /// Inside the outline: fill and text.
    Interior,
}

/// The pentagon of a tile size, as vertices and as a per-pixel mask (first player's orientation).
#[derive(Debug, Clone, PartialEq)]
pub struct TileGeometry {
    /// Edge in pixels.
    pub size: u32,
    /// Apex, right shoulder, right base, left base, left shoulder, in pixel-centre coordinates.
    pub vertices: [(f64, f64); 5],
    mask: Vec<Cell>,
}

impl TileGeometry {
    /// The pentagon for a tile of `size` pixels: apex ((S−1)/2, 0); shoulders at
    /// y = round(0.22·S), inset round(0.14·S); base on y = S−1 from x = 0 to S−1.
    pub fn new(size: u32) -> TileGeometry {
        let s = size as f64;
        let last = s - 1.0;
        let sh = (0.22 * s).round();
        let inset = (0.14 * s).round();
        let vertices = [
            (last / 2.0, 0.0),
            (last - inset, sh),
            (last, last),
            (0.0, last),
            (inset, sh),
        ];
        let inside = |x: f64, y: f64| {
            (0..5).all(|i| {
                let (px, py) = vertices[i];
                let (qx, qy) = vertices[(i + 1) % 5];
                // Inside, or less than half a pixel outside along the edge's minor axis: the
                // pixels a 1-px line through the vertex centres would set (as Bresenham does).
                let slack = 0.5 * (qx - px).abs().max((qy - py).abs());
                (qx - px) * (y - py) - (qy - py) * (x - px) >= -slack
            })
        };
        let n = size as usize;
        let mut filled = vec![false; n * n];
        for y in 0..n {
            for x in 0..n {
                filled[y * n + x] = inside(x as f64, y as f64);
            }
        }
        let at = |x: i64, y: i64| {
            x >= 0 && y >= 0 && x < n as i64 && y < n as i64 && filled[y as usize * n + x as usize]
        };
        let mut mask = vec![Cell::Outside; n * n];
        for y in 0..n as i64 {
            for x in 0..n as i64 {
                if at(x, y) {
                    let edge = !(at(x - 1, y) && at(x + 1, y) && at(x, y - 1) && at(x, y + 1));
                    mask[y as usize * n + x as usize] =
                        if edge { Cell::Outline } else { Cell::Interior };
                }
            }
        }
        TileGeometry {
            size,
            vertices,
            mask,
        }
    }

    /// The cell of pixel (x, y) for a tile of `side` (the second side's mask is rotated 180°).
    pub fn cell(&self, x: u32, y: u32, side: Side) -> Cell {
        let (x, y) = match side {
            Side::First => (x, y),
            Side::Second => (self.size - 1 - x, self.size - 1 - y),
        };
        self.mask[(y * self.size + x) as usize]
    }

    /// Whether the mask is left–right symmetric (x ↔ S−1−x), as rendering.md §3.1 requires.
    pub fn is_symmetric(&self) -> bool {
        let n = self.size;
        (0..n).all(|y| {
            (0..n).all(|x| self.cell(x, y, Side::First) == self.cell(n - 1 - x, y, Side::First))
        })
    }
}

/// Renders one tile. The result is opaque: outside pixels are exactly `#00FF00`.
pub fn render_tile(
    spec: &TileSpec,
    style: &TileStyle,
    fonts: &FontSet,
) -> Result<Rendered, RenderError> {
    let geometry = TileGeometry::new(check_size(style.size)?);
    let first = render_first(spec, style, &geometry, fonts)?;
    Ok(match spec.side {
        Side::First => first,
        Side::Second => Rendered {
            pixmap: rotate180(&first.pixmap),
            warnings: first.warnings,
        },
    })
}

/// Renders both sides of a name at once: (first player's tile, second player's tile = its rot180).
pub fn render_tile_pair(
    name: &str,
    class: ColourClass,
    style: &TileStyle,
    fonts: &FontSet,
) -> Result<(Rendered, Pixmap), RenderError> {
    let spec = TileSpec::new(name, class, Side::First);
    let geometry = TileGeometry::new(check_size(style.size)?);
    let first = render_first(&spec, style, &geometry, fonts)?;
    let second = rotate180(&first.pixmap);
    Ok((first, second))
}

fn check_size(size: u32) -> Result<u32, RenderError> {
    if (12..=512).contains(&size) {
        Ok(size)
    } else {
        Err(RenderError::Size(format!(
            "tile size {size} px is outside 12…512"
        )))
    }
}

fn render_first(
    spec: &TileSpec,
    style: &TileStyle,
    geometry: &TileGeometry,
    fonts: &FontSet,
) -> Result<Rendered, RenderError> {
    let s = style.size;
    let mut tile = filled(s, s, Rgb::KEY)?;
    for y in 0..s {
        for x in 0..s {
            match geometry.cell(x, y, Side::First) {
                Cell::Outside => {}
                Cell::Outline => put(&mut tile, x, y, style.outline),
                Cell::Interior => put(&mut tile, x, y, style.fill),
            }
        }
    }
    let subject = format!("piece {}", crate::text::shorten(&spec.name, 40));
    let mut warnings = Vec::new();
    // A 30-px tile shows a few characters at most; laying out thousands would only cost time.
    let cap = if text::is_vertical(&spec.name, style.layout) {
        MAX_TILE_CHARS
    } else {
        MAX_LATIN_TILE_CHARS
    };
    let cut = crate::text::shorten(&spec.name, cap);
    let name = if cut.len() == spec.name.len() {
        spec.name.as_str()
    } else {
        warnings.push(RenderWarning {
            code: "render::long-name",
            subject: subject.clone(),
            message: format!(
                "the name has {} characters; only the first {cap} are drawn (use --name to choose the text)",
                spec.name.chars().count()
            ),
        });
        cut.trim_end_matches('…')
    };
    let colour = if style.all_black {
        Rgb::BLACK
    } else {
        spec.class.colour()
    };
    let chars: Vec<char> = name.chars().filter(|c| !c.is_whitespace()).collect();
    let (items, note) = if text::is_vertical(name, style.layout) {
        text::vertical(&chars, s, style.four_kanji, style.three_kanji)
    } else {
        text::horizontal(name, s, fonts)
    };
    if let Some(message) = note {
        warnings.push(RenderWarning {
            code: "render::long-name",
            subject: subject.clone(),
            message,
        });
    }
    if items.is_empty() {
        warnings.push(RenderWarning {
            code: "render::empty-name",
            subject: subject.clone(),
            message: "the name is empty; the tile is drawn blank".into(),
        });
        return Ok(Rendered {
            pixmap: tile,
            warnings,
        });
    }

    let mut svg = format!(r#"<svg xmlns="http://www.w3.org/2000/svg" width="{s}" height="{s}">"#);
    for i in &items {
        svg.push_str(&fonts.text_element_scaled(
            i.x,
            i.baseline,
            i.size,
            (i.x_scale, i.y_scale),
            colour,
            "middle",
            &i.text,
        ));
    }
    svg.push_str("</svg>");
    let mut layer = Pixmap::new(s, s).ok_or_else(|| RenderError::Size("tile".into()))?;
    let missing = Mutex::new(Vec::new());
    fonts.draw(&svg, &mut layer.as_mut(), &missing)?;
    warnings.extend(missing_glyphs(missing, &subject));

    // Composite the text over interior pixels only; count coverage that falls elsewhere.
    let clipped = composite_inside(&mut tile, &layer, |x, y| {
        geometry.cell(x, y, Side::First) == Cell::Interior
    });
    if clipped > 0 {
        warnings.push(RenderWarning {
            code: "render::text-clipped",
            subject,
            message: format!(
                "{clipped} text pixel(s) fell on the outline or outside the piece and were not drawn"
            ),
        });
    }
    Ok(Rendered {
        pixmap: tile,
        warnings,
    })
}

/// One `render::missing-glyph` warning per character no font of the set could draw.
pub(crate) fn missing_glyphs(missing: Mutex<Vec<char>>, subject: &str) -> Vec<RenderWarning> {
    missing
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .map(|c| RenderWarning {
            code: "render::missing-glyph",
            subject: subject.to_string(),
            message: format!(
                "no bundled or supplied font has '{c}' (U+{:04X}); it is left out",
                c as u32
            ),
        })
        .collect()
}

/// Composites an antialiased (premultiplied) `layer` over the opaque `tile`, on the pixels
/// where `inside(x, y)` holds only, so nothing blends into the key or an outline. Returns the
/// number of covered pixels left out because they lie elsewhere.
pub(crate) fn composite_inside(
    tile: &mut Pixmap,
    layer: &Pixmap,
    inside: impl Fn(u32, u32) -> bool,
) -> usize {
    let mut clipped = 0usize;
    let w = tile.width();
    let src = layer.data();
    let out = tile.data_mut();
    for (k, px) in src.chunks_exact(4).enumerate() {
        let a = px[3];
        if a == 0 {
            continue;
        }
        let (x, y) = (k as u32 % w, k as u32 / w);
        if !inside(x, y) {
            clipped += 1;
            continue;
        }
        let inv = 255 - a as u32;
        let i = k * 4;
        for c in 0..3 {
            let v = px[c] as u32 + (out[i + c] as u32 * inv + 127) / 255;
            out[i + c] = v.min(255) as u8;
        }
    }
    clipped
}

/// Rotates a pixmap by 180° by reordering pixels (flip vertically, then horizontally; seed ⑤).
pub fn rotate180(p: &Pixmap) -> Pixmap {
    let mut out = p.clone();
    let src = p.data();
    let dst = out.data_mut();
    let count = src.len() / 4;
    for i in 0..count {
        let j = count - 1 - i;
        dst[j * 4..j * 4 + 4].copy_from_slice(&src[i * 4..i * 4 + 4]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::px;

    #[test]
    fn pentagon_touches_top_bottom_and_base_corners() {
        let g = TileGeometry::new(30);
        assert_eq!(g.vertices[1], (25.0, 7.0));
        assert_eq!(g.vertices[4], (4.0, 7.0));
        assert_eq!(g.cell(14, 0, Side::First), Cell::Outline);
        assert_eq!(g.cell(15, 0, Side::First), Cell::Outline);
        assert_eq!(g.cell(13, 0, Side::First), Cell::Outside);
        assert_eq!(g.cell(0, 29, Side::First), Cell::Outline);
        assert_eq!(g.cell(29, 29, Side::First), Cell::Outline);
        assert_eq!(g.cell(0, 27, Side::First), Cell::Outline);
        assert_eq!(g.cell(0, 26, Side::First), Cell::Outside);
        assert_eq!(g.cell(4, 7, Side::First), Cell::Outline);
        assert_eq!(g.cell(4, 6, Side::First), Cell::Outside);
        assert_eq!(g.cell(3, 10, Side::First), Cell::Outline);
        assert_eq!(g.cell(3, 9, Side::First), Cell::Outside);
        assert_eq!(g.cell(15, 15, Side::First), Cell::Interior);
        assert_eq!(g.cell(0, 0, Side::Second), Cell::Outline);
        for s in [12, 20, 30, 31, 36, 49, 80] {
            assert!(TileGeometry::new(s).is_symmetric(), "size {s}");
        }
    }

    #[test]
    fn outline_is_one_pixel_thin() {
        // Every interior pixel is 4-adjacent only to interior or outline pixels, never to outside.
        let g = TileGeometry::new(30);
        for y in 1..29u32 {
            for x in 1..29u32 {
                if g.cell(x, y, Side::First) == Cell::Interior {
                    for (dx, dy) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
                        let c = g.cell((x as i32 + dx) as u32, (y as i32 + dy) as u32, Side::First);
                        assert_ne!(c, Cell::Outside, "({x},{y})");
                    }
                }
            }
        }
        // Each row's outline is at most the run where the edge moves, e.g. row 15 has two pixels.
        let row15 = (0..30)
            .filter(|&x| g.cell(x, 15, Side::First) == Cell::Outline)
            .count();
        assert_eq!(row15, 2);
    }

    #[test]
    fn a_huge_name_draws_its_first_characters_quickly_with_a_warning() {
        // Found by `cargo xtask fuzz`: a 60,000-character name took seconds to lay out.
        let fonts = FontSet::bundled();
        let name = format!("Queen{}", "{".repeat(60_000));
        let (long, cpu) = crate::tests::cpu_time(|| {
            render_tile(
                &TileSpec::new(&name, ColourClass::Unpromoted, Side::First),
                &TileStyle::default(),
                &fonts,
            )
        });
        let long = long.unwrap();
        assert!(cpu.as_secs_f64() < 0.5, "{cpu:?} of CPU time");
        let w: Vec<_> = long
            .warnings
            .iter()
            .filter(|w| w.code == "render::long-name")
            .collect();
        assert!(w[0].message.contains("60005 characters"), "{:?}", w);
        assert!(w[0].subject.chars().count() < 60, "{}", w[0].subject);
        // The drawn text is exactly the first MAX_LATIN_TILE_CHARS characters.
        let cut: String = name.chars().take(MAX_LATIN_TILE_CHARS).collect();
        let short = render_tile(
            &TileSpec::new(&cut, ColourClass::Unpromoted, Side::First),
            &TileStyle::default(),
            &fonts,
        )
        .unwrap();
        assert_eq!(long.pixmap.data(), short.pixmap.data());
    }

    #[test]
    fn tile_has_no_near_green_and_exact_key_outside() {
        let fonts = FontSet::bundled();
        for class in ColourClass::ALL {
            let r = render_tile(
                &TileSpec::new("醉象", class, Side::First),
                &TileStyle::default(),
                &fonts,
            )
            .unwrap();
            assert!(r.warnings.is_empty(), "{:?}", r.warnings);
            let g = TileGeometry::new(30);
            let mut text_pixels = 0;
            for y in 0..30 {
                for x in 0..30 {
                    let (c, a) = px(&r.pixmap, x, y);
                    assert_eq!(a, 255);
                    match g.cell(x, y, Side::First) {
                        Cell::Outside => assert_eq!(c, Rgb::KEY, "({x},{y})"),
                        Cell::Outline => assert_eq!(c, TileStyle::default().outline),
                        Cell::Interior => {
                            assert!(!c.is_near_green(), "({x},{y}) {c}");
                            if c != TileStyle::default().fill {
                                text_pixels += 1;
                            }
                        }
                    }
                }
            }
            // Two bold kanji at 11 px cover a good part of the interior.
            assert!(
                text_pixels > 120,
                "{class:?}: only {text_pixels} text pixels"
            );
        }
    }

    #[test]
    fn second_side_is_exact_rotation() {
        let fonts = FontSet::bundled();
        let style = TileStyle::default();
        let a = render_tile(
            &TileSpec::new("金将", ColourClass::Promoted, Side::First),
            &style,
            &fonts,
        )
        .unwrap()
        .pixmap;
        let b = render_tile(
            &TileSpec::new("金将", ColourClass::Promoted, Side::Second),
            &style,
            &fonts,
        )
        .unwrap()
        .pixmap;
        assert_ne!(a.data(), b.data());
        assert_eq!(rotate180(&a).data(), b.data());
        assert_eq!(rotate180(&b).data(), a.data());
        // Apex at the bottom for the second player: its base is the top row.
        assert_eq!(px(&b, 0, 0).0, style.outline);
        assert_eq!(px(&b, 0, 29).0, Rgb::KEY);
        assert_eq!(px(&b, 13, 29).0, Rgb::KEY);
        assert_eq!(px(&b, 14, 29).0, style.outline);
        let (first, second) =
            render_tile_pair("金将", ColourClass::Promoted, &style, &fonts).unwrap();
        assert_eq!(first.pixmap.data(), a.data());
        assert_eq!(second.data(), b.data());
    }

    #[test]
    fn rendering_is_deterministic_and_colour_follows_class() {
        let fonts = FontSet::bundled();
        let style = TileStyle::default();
        let r1 = render_tile(
            &TileSpec::new("竜王", ColourClass::NeverPromoting, Side::First),
            &style,
            &fonts,
        )
        .unwrap();
        let r2 = render_tile(
            &TileSpec::new("竜王", ColourClass::NeverPromoting, Side::First),
            &style,
            &fonts,
        )
        .unwrap();
        assert_eq!(r1.pixmap.data(), r2.pixmap.data());
        // The darkest interior pixel is (close to) the class colour.
        let g = TileGeometry::new(30);
        let darkest = (0..30 * 30)
            .filter(|i| g.cell(i % 30, i / 30, Side::First) == Cell::Interior)
            .map(|i| px(&r1.pixmap, i % 30, i / 30).0)
            .min_by_key(|c| c.0 as u32 + c.1 as u32 + c.2 as u32)
            .unwrap();
        assert!(
            darkest.0 < 40 && darkest.1 < 40 && darkest.2 > 150,
            "{darkest}"
        );
        let black = TileStyle {
            all_black: true,
            ..TileStyle::default()
        };
        let r3 = render_tile(
            &TileSpec::new("竜王", ColourClass::NeverPromoting, Side::First),
            &black,
            &fonts,
        )
        .unwrap();
        assert_ne!(r3.pixmap.data(), r1.pixmap.data());
    }

    #[test]
    fn missing_glyph_is_a_warning_naming_the_character() {
        let fonts = FontSet::bundled();
        let r = render_tile(
            &TileSpec::new("≒王", ColourClass::Unpromoted, Side::First),
            &TileStyle::default(),
            &fonts,
        )
        .unwrap();
        let w: Vec<_> = r
            .warnings
            .iter()
            .filter(|w| w.code == "render::missing-glyph")
            .collect();
        assert_eq!(w.len(), 1, "{:?}", r.warnings);
        assert!(w[0].message.contains('≒') && w[0].message.contains("U+2252"));
        assert_eq!(w[0].subject, "piece ≒王");
    }

    #[test]
    fn bad_sizes_are_errors() {
        let fonts = FontSet::bundled();
        let spec = TileSpec::new("金", ColourClass::Unpromoted, Side::First);
        assert!(render_tile(&spec, &TileStyle::with_size(4), &fonts).is_err());
        assert!(render_tile(&spec, &TileStyle::with_size(36), &fonts).is_ok());
    }
}
