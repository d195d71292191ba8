//! Renderer core: ZoG-compatible board and piece bitmaps as `tiny_skia::Pixmap`s (pure, no I/O).
//!
//! The layout and colours follow `notes/rendering.md` (Tai Shogi seed geometry: 31-pixel unit,
//! 30×30 pentagon tiles on a `#00FF00` key, 180°-rotated opponent tiles, 24-bit BMP output).
//!
//! The input types here are deliberately small and plain ([`BoardStyle`], [`TileSpec`],
//! [`ColourClass`]); [`from_spec`] is the adapter from the portable game spec that fills them,
//! and [`set::render_set`] draws, encodes and validates a whole set.
//!
//! ```text
//! FontSet::bundled() ─┐
//! BoardStyle ─────────┼─ render_board ─→ Pixmap ─┬─ bmp::encode_bmp ─→ Vec<u8> (ZoG)
//! TileSpec ───────────┴─ render_tile ──→ Pixmap ─┤  validate::*      ─→ located errors
//!                                                └─ compose_position ─→ Pixmap (README picture)
//!
//! spec::Document ─ from_spec ─→ RenderPlan ─ set::render_set ─→ RenderedSet (files, manifest,
//!                                                               ZRF fragment, validator errors)
//! images::apply(Document, ImageManifest): rewrite a spec's image paths to the rendered files
//! own::OwnImages::of(Document, RenderPlan, AuthorFiles): the author's own bitmaps (any BMP
//!   flavour, bmp::decode_bmp), matched to the plan → set::compose_start_with
//! ```

pub mod bmp;
pub mod board;
pub mod compose;
pub mod fonts;
pub mod game;
pub mod images;
pub mod lines;
pub mod own;
pub mod set;
pub mod sheet;
pub mod text;
pub mod tile;
pub mod token;
pub mod validate;

pub use board::{AxisLabels, BoardColours, BoardGeometry, BoardStyle, Zone, render_board};
pub use compose::{Placement, compose_position};
pub use fonts::FontSet;
pub use game::{ImageFormat, PlanOptions, RenderPlan, from_spec};
pub use text::{FourKanjiOrder, NameLayout, ThreeKanji};
pub use tile::{TileGeometry, TileSpec, TileStyle, render_tile, render_tile_pair, rotate180};
pub use token::{ChessMan, PieceStyle, piece_styles, render_token, render_token_pair};

use std::fmt;
use tiny_skia::Pixmap;

/// An opaque 8-bit RGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// The ZoG transparency key, pure green `#00FF00`; only ever used outside a piece.
    pub const KEY: Rgb = Rgb(0, 255, 0);
    /// Black `#000000`.
    pub const BLACK: Rgb = Rgb(0, 0, 0);

    /// Parses `#RRGGBB` (the `#` is optional).
    pub fn from_hex(s: &str) -> Option<Rgb> {
        let s = s.strip_prefix('#').unwrap_or(s);
        if s.len() != 6 || !s.is_ascii() {
            return None;
        }
        let p = |i: usize| u8::from_str_radix(&s[i..i + 2], 16).ok();
        Some(Rgb(p(0)?, p(2)?, p(4)?))
    }

    /// `#RRGGBB`, upper-case.
    pub fn to_hex(self) -> String {
        format!("#{:02X}{:02X}{:02X}", self.0, self.1, self.2)
    }

    /// True for colours a viewer would take for the key: G > 200 with R and B below 80
    /// (rendering.md §6.3). The key itself is near-green too.
    pub fn is_near_green(self) -> bool {
        self.1 > 200 && self.0 < 80 && self.2 < 80
    }

    /// The opaque tiny-skia colour.
    pub fn to_color(self) -> tiny_skia::Color {
        tiny_skia::Color::from_rgba8(self.0, self.1, self.2, 255)
    }
}

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

/// Which player a tile is drawn for. The second player's tile is the first's rotated by 180°.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The player at the bottom of the board (Sente, White): pieces point up.
    First,
    /// The player at the top (Gote, Black): pieces point down.
    Second,
}

impl Side {
    /// The file-name suffix used by rendering.md §3.4: `S` (Sente) or `G` (Gote).
    pub fn suffix(self) -> &'static str {
        match self {
            Side::First => "S",
            Side::Second => "G",
        }
    }
}

/// The seed's name-colour classes (rendering.md §3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColourClass {
    /// An unpromoted piece that can promote: black.
    Unpromoted,
    /// A promoted face: red.
    Promoted,
    /// A piece that never promotes: blue.
    NeverPromoting,
    /// A royal that never promotes: dark green (never near the key).
    RoyalNeverPromoting,
    /// A promoted royal (Tai Shogi's 太子 from 醉象): orange.
    PromotedRoyal,
}

impl ColourClass {
    /// Every class, in table order.
    pub const ALL: [ColourClass; 5] = [
        ColourClass::Unpromoted,
        ColourClass::Promoted,
        ColourClass::NeverPromoting,
        ColourClass::RoyalNeverPromoting,
        ColourClass::PromotedRoyal,
    ];

    /// The name colour of this class.
    pub fn colour(self) -> Rgb {
        match self {
            ColourClass::Unpromoted => Rgb(0x00, 0x00, 0x00),
            ColourClass::Promoted => Rgb(0xC8, 0x00, 0x00),
            ColourClass::NeverPromoting => Rgb(0x00, 0x00, 0xC8),
            ColourClass::RoyalNeverPromoting => Rgb(0x00, 0x78, 0x00),
            ColourClass::PromotedRoyal => Rgb(0xE6, 0x6E, 0x00),
        }
    }

    /// Derives the class from promotion data: is this face a promoted one, can it promote
    /// further, is it royal. (Overridable: callers may simply pick a class.)
    pub fn derive(promoted_face: bool, can_promote: bool, royal: bool) -> ColourClass {
        match (promoted_face, royal) {
            (true, true) => ColourClass::PromotedRoyal,
            (true, false) => ColourClass::Promoted,
            (false, _) if can_promote => ColourClass::Unpromoted,
            (false, true) => ColourClass::RoyalNeverPromoting,
            (false, false) => ColourClass::NeverPromoting,
        }
    }

    /// A short ASCII name (for file names and golden images).
    pub fn slug(self) -> &'static str {
        match self {
            ColourClass::Unpromoted => "unpromoted",
            ColourClass::Promoted => "promoted",
            ColourClass::NeverPromoting => "never",
            ColourClass::RoyalNeverPromoting => "royal",
            ColourClass::PromotedRoyal => "promoted-royal",
        }
    }
}

/// A non-fatal problem found while rendering (never printed; returned to the caller).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderWarning {
    /// Stable machine-readable code, e.g. `render::missing-glyph`.
    pub code: &'static str,
    /// What was being drawn, e.g. `piece 摩𩹄` or `board labels`.
    pub subject: String,
    /// Human-readable explanation.
    pub message: String,
}

impl fmt::Display for RenderWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "warning[{}]: {}: {}",
            self.code, self.subject, self.message
        )
    }
}

/// A fatal rendering error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RenderError {
    /// Font bytes could not be loaded or hold no usable face.
    Font(String),
    /// Sizes out of range (zero or huge boards, tiny tiles, placements off the board).
    Size(String),
    /// The internal SVG for text could not be built (a bug, reported rather than panicking).
    Svg(String),
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::Font(m) => write!(f, "font error: {m}"),
            RenderError::Size(m) => write!(f, "size error: {m}"),
            RenderError::Svg(m) => write!(f, "internal SVG error: {m}"),
        }
    }
}

impl std::error::Error for RenderError {}

/// A rendered image together with the warnings produced while drawing it.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The image; fully opaque.
    pub pixmap: Pixmap,
    /// Warnings (missing glyphs, clipped text, long names).
    pub warnings: Vec<RenderWarning>,
}

/// Reads pixel (x, y) of an opaque pixmap as RGB (premultiplied = straight when alpha is 255).
pub(crate) fn px(p: &Pixmap, x: u32, y: u32) -> (Rgb, u8) {
    let i = ((y * p.width() + x) * 4) as usize;
    let d = p.data();
    (Rgb(d[i], d[i + 1], d[i + 2]), d[i + 3])
}

/// Writes an opaque RGB pixel.
pub(crate) fn put(p: &mut Pixmap, x: u32, y: u32, c: Rgb) {
    let i = ((y * p.width() + x) * 4) as usize;
    let w = p.width();
    debug_assert!(x < w);
    p.data_mut()[i..i + 4].copy_from_slice(&[c.0, c.1, c.2, 255]);
}

/// A new pixmap filled with one opaque colour.
pub(crate) fn filled(width: u32, height: u32, c: Rgb) -> Result<Pixmap, RenderError> {
    let mut p = Pixmap::new(width, height)
        .ok_or_else(|| RenderError::Size(format!("cannot allocate a {width}×{height} image")))?;
    p.fill(c.to_color());
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trip_and_near_green() {
        assert_eq!(Rgb::from_hex("#DEB878"), Some(Rgb(222, 184, 120)));
        assert_eq!(Rgb(0xC8, 0, 0).to_hex(), "#C80000");
        assert_eq!(Rgb::from_hex("#12345"), None);
        assert!(Rgb::KEY.is_near_green());
        assert!(Rgb(10, 230, 30).is_near_green());
        for c in ColourClass::ALL {
            assert!(!c.colour().is_near_green(), "{c:?}");
        }
    }

    #[test]
    fn colour_class_derivation() {
        use ColourClass::*;
        assert_eq!(ColourClass::derive(false, true, false), Unpromoted);
        assert_eq!(ColourClass::derive(false, true, true), Unpromoted);
        assert_eq!(ColourClass::derive(true, false, false), Promoted);
        assert_eq!(ColourClass::derive(false, false, false), NeverPromoting);
        assert_eq!(ColourClass::derive(false, false, true), RoyalNeverPromoting);
        assert_eq!(ColourClass::derive(true, false, true), PromotedRoyal);
        assert_eq!(RoyalNeverPromoting.colour(), Rgb(0, 0x78, 0));
    }
}
