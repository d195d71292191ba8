//! Piece styles other than the shogi pentagon: round tokens in the player's colour carrying a
//! short label, and chess glyphs (bundled `ZogkitChess`) for recognisable chess men.
//!
//! ## Which style a game gets ([`piece_styles`])
//! - **Pentagon** for every piece of a *shogi-like* game ([`is_shogi_like`]): its title names
//!   shogi (`shogi`, any case, or 将棋), or more than half of its (non-dummy) piece names hold a
//!   CJK ideograph or kana, or it has one of shogi's own men, which chess lacks: a piece named
//!   Gold, Silver (General), Lance or Tokin.
//! - Otherwise **Chess** for each piece that [`chess_man`] recognises (its name, ignoring case,
//!   spaces, `-`, `_` and a `White`/`Black` prefix, is King, Queen, Rook, Bishop, Knight or
//!   Pawn; or its notation is K, Q, R, B, N or P), provided the game is a chess game: it has at
//!   least two different men among queen, rook, bishop, knight and pawn (so draughts' Man/King
//!   and Breakthrough's lone pawn get tokens).
//! - **Token** for the rest.
//!
//! ## Tiles
//! Same contract as pentagons: square, `size` px, exact `#00FF00` key outside the shape, no
//! antialiasing into the key. The shape is rasterised crisply; its boundary pixels are exactly
//! [`OUTLINE`]; antialiased ink is composited on interior pixels only. Tokens and chess men are
//! upright for every player: players differ by colour ([`PALETTE`]), not by rotation.

use super::fonts::{CHESS_FAMILY, FontSet, ink_box};
use super::tile::{Cell, composite_inside, missing_glyphs};
use super::{RenderError, RenderWarning, Rendered, Rgb, filled, put};
use crate::spec::{Game, Piece};
use std::sync::Mutex;
use tiny_skia::Pixmap;

/// How a piece is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PieceStyle {
    /// The shogi pentagon with the name (tile.rs); the second player's tile is rotated.
    Pentagon,
    /// A disc in the player's colour with a short label.
    Token,
    /// A chess glyph filled with the player's colour.
    Chess(ChessMan),
}

/// The six chess men with a Unicode symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChessMan {
    /// ♔ / ♚
    King,
    /// ♕ / ♛
    Queen,
    /// ♖ / ♜
    Rook,
    /// ♗ / ♝
    Bishop,
    /// ♘ / ♞
    Knight,
    /// ♙ / ♟
    Pawn,
}

impl ChessMan {
    /// Every man, in Unicode order.
    pub const ALL: [ChessMan; 6] = [
        ChessMan::King,
        ChessMan::Queen,
        ChessMan::Rook,
        ChessMan::Bishop,
        ChessMan::Knight,
        ChessMan::Pawn,
    ];

    fn index(self) -> u32 {
        self as u32
    }

    /// The outline ("white") symbol, U+2654…U+2659.
    pub fn outline_glyph(self) -> char {
        char::from_u32(0x2654 + self.index()).unwrap_or('?')
    }

    /// The solid ("black") symbol, U+265A…U+265F.
    pub fn solid_glyph(self) -> char {
        char::from_u32(0x265A + self.index()).unwrap_or('?')
    }

    fn from_word(w: &str) -> Option<ChessMan> {
        Some(match w {
            "king" => ChessMan::King,
            "queen" => ChessMan::Queen,
            "rook" => ChessMan::Rook,
            "bishop" => ChessMan::Bishop,
            "knight" => ChessMan::Knight,
            "pawn" => ChessMan::Pawn,
            _ => return None,
        })
    }

    fn from_notation(n: &str) -> Option<ChessMan> {
        Some(match n.trim().to_ascii_uppercase().as_str() {
            "K" => ChessMan::King,
            "Q" => ChessMan::Queen,
            "R" => ChessMan::Rook,
            "B" => ChessMan::Bishop,
            "N" => ChessMan::Knight,
            "P" => ChessMan::Pawn,
            _ => return None,
        })
    }
}

/// The chess man a piece is recognisable as, by name or notation (module docs).
pub fn chess_man(p: &Piece) -> Option<ChessMan> {
    let n: String = p
        .name
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .flat_map(char::to_lowercase)
        .collect();
    let bare = ["white", "black"]
        .iter()
        .find_map(|c| n.strip_prefix(c))
        .unwrap_or(&n);
    ChessMan::from_word(bare).or_else(|| p.notation.as_deref().and_then(ChessMan::from_notation))
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3FFFF)
}

/// Whether a game is drawn with shogi pentagons (module docs).
pub fn is_shogi_like(g: &Game) -> bool {
    let title = g.title.to_lowercase();
    if title.contains("shogi") || title.contains("将棋") {
        return true;
    }
    let pieces: Vec<&Piece> = g.pieces.iter().filter(|p| !p.dummy).collect();
    let cjk = pieces.iter().filter(|p| p.name.chars().any(is_cjk)).count();
    if 2 * cjk > pieces.len() {
        return true;
    }
    pieces.iter().any(|p| {
        let n: String = p
            .name
            .chars()
            .filter(char::is_ascii_alphabetic)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        matches!(
            n.as_str(),
            "gold" | "goldgeneral" | "silver" | "silvergeneral" | "lance" | "tokin"
        )
    })
}

/// The style of each piece of `g`, in `g.pieces` order (module docs).
pub fn piece_styles(g: &Game) -> Vec<PieceStyle> {
    if is_shogi_like(g) {
        return vec![PieceStyle::Pentagon; g.pieces.len()];
    }
    let men: Vec<Option<ChessMan>> = g.pieces.iter().map(chess_man).collect();
    let mut army: Vec<ChessMan> = men
        .iter()
        .zip(&g.pieces)
        .filter(|(m, p)| !p.dummy && m.is_some_and(|m| m != ChessMan::King))
        .filter_map(|(m, _)| *m)
        .collect();
    army.sort_by_key(|m| m.index());
    army.dedup();
    let chess_game = army.len() >= 2;
    men.into_iter()
        .map(|m| match m {
            Some(m) if chess_game => PieceStyle::Chess(m),
            _ => PieceStyle::Token,
        })
        .collect()
}

/// Most characters of a token label made from a name; a notation may have one more.
pub const MAX_LABEL: usize = 3;

/// The label of each piece of `g` on a token: its notation when it has one of at most
/// `MAX_LABEL + 1` characters, else a short name: initials of a name of several words (split at
/// spaces, `-`, `_` and lower→upper case changes), else its first letter, lengthened to two and
/// three letters where two pieces would otherwise share a label (King → Ki, Knight → Kn).
pub fn token_labels(g: &Game) -> Vec<String> {
    let words: Vec<Vec<String>> = g.pieces.iter().map(|p| name_words(&p.name)).collect();
    let mut level = vec![0usize; g.pieces.len()];
    let label = |i: usize, level: usize| -> String {
        if let Some(n) = g.pieces[i].notation.as_deref().map(str::trim)
            && !n.is_empty()
            && n.chars().count() <= MAX_LABEL + 1
        {
            return n.to_string();
        }
        short_name(&words[i], level)
    };
    for _ in 0..MAX_LABEL {
        let labels: Vec<String> = (0..level.len()).map(|i| label(i, level[i])).collect();
        let mut changed = false;
        for i in 0..labels.len() {
            let shared = (0..labels.len()).any(|j| j != i && labels[j] == labels[i]);
            if shared && level[i] + 1 < MAX_LABEL {
                level[i] += 1;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    (0..level.len()).map(|i| label(i, level[i])).collect()
}

fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars().filter(|c| !matches!(c, '\'' | '’')) {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase();
        cur.push(c);
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// Level 0: initials (several words) or the first letter; each level adds a letter of the
/// first word. At most [`MAX_LABEL`] characters; the first is upper case, the others as written.
fn short_name(words: &[String], level: usize) -> String {
    let Some(first) = words.first() else {
        return String::new();
    };
    let head: String = first.chars().take(1 + level).collect();
    let rest = words[1..].iter().filter_map(|w| w.chars().next());
    let mut out: String = head.chars().chain(rest).take(MAX_LABEL).collect();
    if let Some(c) = out.chars().next() {
        out = c.to_uppercase().chain(out.chars().skip(1)).collect();
    }
    out
}

/// A player's token colours: `fill` for the shape, `ink` for the label and details.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayerColours {
    /// Shape fill.
    pub fill: Rgb,
    /// Label and detail colour (contrasting with `fill`).
    pub ink: Rgb,
}

/// Player colours in player order: ivory, charcoal, red, blue, amber, purple, teal, brown.
/// None is near the key; players beyond the palette reuse it from the start.
pub const PALETTE: [PlayerColours; 8] = [
    PlayerColours {
        fill: Rgb(0xF4, 0xF0, 0xE6),
        ink: Rgb(0x1A, 0x1A, 0x1A),
    },
    PlayerColours {
        fill: Rgb(0x33, 0x33, 0x33),
        ink: Rgb(0xF4, 0xF0, 0xE6),
    },
    PlayerColours {
        fill: Rgb(0xC6, 0x28, 0x28),
        ink: Rgb(0xFF, 0xFF, 0xFF),
    },
    PlayerColours {
        fill: Rgb(0x1E, 0x5A, 0xA8),
        ink: Rgb(0xFF, 0xFF, 0xFF),
    },
    PlayerColours {
        fill: Rgb(0xE8, 0xA8, 0x00),
        ink: Rgb(0x1A, 0x1A, 0x1A),
    },
    PlayerColours {
        fill: Rgb(0x7B, 0x3F, 0xA0),
        ink: Rgb(0xFF, 0xFF, 0xFF),
    },
    PlayerColours {
        fill: Rgb(0x00, 0x7A, 0x70),
        ink: Rgb(0xFF, 0xFF, 0xFF),
    },
    PlayerColours {
        fill: Rgb(0x8D, 0x5A, 0x3C),
        ink: Rgb(0xFF, 0xFF, 0xFF),
    },
];

/// The boundary colour of every token and chess man.
pub const OUTLINE: Rgb = Rgb(0x10, 0x10, 0x10);

/// Palette entries of colour-named players: White, Black, Red, Blue, Yellow, Purple, Green, Brown.
const NAMED: [&str; 8] = [
    "white", "black", "red", "blue", "yellow", "purple", "green", "brown",
];

/// The palette index of each player: a player named after a palette colour (White, Black, Red,
/// Blue, Yellow, Purple, Green, Brown; any case) takes that colour, so English Checkers' Black
/// (who moves first) is dark; the others take the unused entries in player order.
pub fn player_palette(players: &[String]) -> Vec<usize> {
    let named: Vec<Option<usize>> = players
        .iter()
        .map(|p| NAMED.iter().position(|n| p.trim().eq_ignore_ascii_case(n)))
        .collect();
    let mut free = (0..PALETTE.len()).filter(|i| !named.contains(&Some(*i)));
    named
        .iter()
        .enumerate()
        .map(|(i, n)| n.or_else(|| free.next()).unwrap_or(i % PALETTE.len()))
        .collect()
}

/// The colours of player `index` (0-based).
pub fn player_colours(index: usize) -> PlayerColours {
    PALETTE[index % PALETTE.len()]
}

fn light(c: Rgb) -> bool {
    299 * c.0 as u32 + 587 * c.1 as u32 + 114 * c.2 as u32 > 128_000
}

/// The disc of a token tile: centre ((S−1)/2, (S−1)/2), radius (S−1)/2 + ½ (pixel centres
/// inside); the outline is the disc's pixels with a 4-neighbour outside it.
pub fn disc_cell(size: u32, x: u32, y: u32) -> Cell {
    let inside = |x: i64, y: i64| {
        let c = (size as f64 - 1.0) / 2.0;
        let r = c + 0.5;
        let (dx, dy) = (x as f64 - c, y as f64 - c);
        x >= 0 && y >= 0 && dx * dx + dy * dy <= r * r - 0.25
    };
    let (x, y) = (x as i64, y as i64);
    if !inside(x, y) {
        Cell::Outside
    } else if [(-1, 0), (1, 0), (0, -1), (0, 1)]
        .iter()
        .all(|(dx, dy)| inside(x + dx, y + dy))
    {
        Cell::Interior
    } else {
        Cell::Outline
    }
}

/// Renders the tile of a non-pentagon piece in palette colour `player` (0-based): a token with
/// `label`, or a chess man (drawn as a token with a `render::missing-glyph` warning when the
/// fonts lack its symbols). A [`PieceStyle::Pentagon`] is drawn as a token too; callers draw
/// pentagons with `tile::render_tile`.
pub fn render_token(
    label: &str,
    style: PieceStyle,
    player: usize,
    size: u32,
    fonts: &FontSet,
) -> Result<Rendered, RenderError> {
    if !(12..=512).contains(&size) {
        return Err(RenderError::Size(format!(
            "tile size {size} px is outside 12…512"
        )));
    }
    let colours = player_colours(player);
    let subject = format!("piece {}", crate::text::shorten(label, 40));
    if let PieceStyle::Chess(man) = style {
        let glyphs = format!("{}{}", man.solid_glyph(), man.outline_glyph());
        let missing = fonts.missing_chars(&glyphs);
        if missing.is_empty() {
            return chess_tile(man, colours, size, fonts, &subject);
        }
        let mut r = token_tile(label, colours, size, fonts, &subject)?;
        r.warnings
            .extend(missing_glyphs(Mutex::new(missing), &subject));
        return Ok(r);
    }
    token_tile(label, colours, size, fonts, &subject)
}

/// Both players' tiles of a piece (first, second) in palette colours `colours` (see
/// [`player_palette`]), the same call shape as `tile::render_tile_pair`; the warnings are the
/// first tile's.
pub fn render_token_pair(
    label: &str,
    style: PieceStyle,
    colours: [usize; 2],
    size: u32,
    fonts: &FontSet,
) -> Result<(Rendered, Pixmap), RenderError> {
    let first = render_token(label, style, colours[0], size, fonts)?;
    let second = render_token(label, style, colours[1], size, fonts)?;
    Ok((first, second.pixmap))
}

/// Where text is set (x, baseline) at 100 px to measure its ink on `ink_box`'s canvas.
const MEASURE: (f32, f32) = (100.0, 300.0);

fn token_tile(
    label: &str,
    colours: PlayerColours,
    size: u32,
    fonts: &FontSet,
    subject: &str,
) -> Result<Rendered, RenderError> {
    let mut tile = filled(size, size, Rgb::KEY)?;
    for y in 0..size {
        for x in 0..size {
            match disc_cell(size, x, y) {
                Cell::Outside => {}
                Cell::Outline => put(&mut tile, x, y, OUTLINE),
                Cell::Interior => put(&mut tile, x, y, colours.fill),
            }
        }
    }
    let mut warnings = Vec::new();
    let label: String = label.trim().chars().take(MAX_LABEL + 1).collect();
    if label.is_empty() {
        warnings.push(RenderWarning {
            code: "render::empty-name",
            subject: subject.to_string(),
            message: "the label is empty; the token is drawn blank".into(),
        });
        return Ok(Rendered {
            pixmap: tile,
            warnings,
        });
    }
    let s = size as f32;
    let element = |x: f32, baseline: f32, px: f32| {
        fonts.text_element(x, baseline, px, colours.ink, "start", &label)
    };
    // Measure at 100 px, then fit the ink box inside the disc (corners on a circle 2 px inside
    // the outline; at most 55 % of the tile high) and centre it.
    // Measured in black: the ink box does not depend on the colour, so one measure serves
    // every player.
    let measured = fonts.text_element(MEASURE.0, MEASURE.1, 100.0, Rgb::BLACK, "start", &label);
    let layer = match ink_box(fonts, &measured) {
        Some((bx, by, bw, bh)) => {
            let (bx, by) = (bx - MEASURE.0, by - MEASURE.1 + 500.0);
            let r = s / 2.0 - 2.0;
            let k = (2.0 * r / (bw * bw + bh * bh).sqrt()).min(0.55 * s / bh);
            let x = (s - k * bw) / 2.0 - k * bx;
            let baseline = (s - k * bh) / 2.0 - k * (by - 500.0);
            Some(element(x, baseline, 100.0 * k))
        }
        None => None,
    };
    let missing = Mutex::new(Vec::new());
    if let Some(el) = layer {
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}">{el}</svg>"#
        );
        let mut ink = Pixmap::new(size, size).ok_or_else(|| RenderError::Size("tile".into()))?;
        fonts.draw(&svg, &mut ink.as_mut(), &missing)?;
        composite_inside(&mut tile, &ink, |x, y| {
            disc_cell(size, x, y) == Cell::Interior
        });
    } else {
        fonts.missing_chars(&label).into_iter().for_each(|c| {
            missing.lock().unwrap_or_else(|e| e.into_inner()).push(c);
        });
    }
    warnings.extend(missing_glyphs(missing, subject));
    Ok(Rendered {
        pixmap: tile,
        warnings,
    })
}

/// Draws `man`'s `glyph` (solid or outline) in `fill` on a transparent layer, placed by the
/// solid glyph's ink box fitted into the tile with a 1-px margin, so both glyphs coincide.
fn glyph_layer(
    man: ChessMan,
    glyph: char,
    fill: Rgb,
    size: u32,
    fonts: &FontSet,
) -> Result<Pixmap, RenderError> {
    let element = |c: char, x: f32, baseline: f32, px: f32| {
        let text = c.to_string();
        fonts.element(
            CHESS_FAMILY,
            400,
            (x, baseline),
            px,
            (1.0, 1.0),
            fill,
            "start",
            &text,
        )
    };
    let mut layer = Pixmap::new(size, size).ok_or_else(|| RenderError::Size("tile".into()))?;
    let Some((bx, by, bw, bh)) = ink_box(
        fonts,
        &element(man.solid_glyph(), MEASURE.0, MEASURE.1, 100.0),
    ) else {
        return Ok(layer);
    };
    let (bx, by) = (bx - MEASURE.0, by - MEASURE.1 + 500.0);
    let s = size as f32;
    let k = (s - 2.0) / bw.max(bh);
    let x = (s - k * bw) / 2.0 - k * bx;
    let baseline = (s - k * bh) / 2.0 - k * (by - 500.0);
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}">{}</svg>"#,
        element(glyph, x, baseline, 100.0 * k)
    );
    fonts.draw(&svg, &mut layer.as_mut(), &Mutex::new(Vec::new()))?;
    Ok(layer)
}

/// A chess tile: the solid glyph's silhouette (holes filled) with an exact [`OUTLINE`] boundary
/// and the player's fill; on a light fill the outline glyph's lines are drawn in ink over it,
/// on a dark fill the solid glyph's own details show in ink.
fn chess_tile(
    man: ChessMan,
    colours: PlayerColours,
    size: u32,
    fonts: &FontSet,
    subject: &str,
) -> Result<Rendered, RenderError> {
    let solid = glyph_layer(man, man.solid_glyph(), Rgb::BLACK, size, fonts)?;
    let n = size as usize;
    let raw: Vec<bool> = solid.data().chunks_exact(4).map(|p| p[3] >= 128).collect();
    let shape = fill_holes(&raw, n);
    if !shape.iter().any(|&b| b) {
        return Err(RenderError::Font(format!(
            "{subject}: the chess glyph {} drew nothing",
            man.solid_glyph()
        )));
    }
    let at = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && (x as usize) < n
            && (y as usize) < n
            && shape[y as usize * n + x as usize]
    };
    let interior = |x: u32, y: u32| {
        let (x, y) = (x as i64, y as i64);
        at(x, y) && at(x - 1, y) && at(x + 1, y) && at(x, y - 1) && at(x, y + 1)
    };
    let mut tile = filled(size, size, Rgb::KEY)?;
    let dark = !light(colours.fill);
    for y in 0..size {
        for x in 0..size {
            let i = y as usize * n + x as usize;
            if !shape[i] {
                continue;
            }
            if !interior(x, y) {
                put(&mut tile, x, y, OUTLINE);
            } else if dark {
                // The solid glyph's coverage: full = fill, holes (its details) = ink.
                let a = solid.data()[i * 4 + 3] as u32;
                let mix = |f: u8, k: u8| ((f as u32 * a + k as u32 * (255 - a) + 127) / 255) as u8;
                let (f, k) = (colours.fill, colours.ink);
                put(
                    &mut tile,
                    x,
                    y,
                    Rgb(mix(f.0, k.0), mix(f.1, k.1), mix(f.2, k.2)),
                );
            } else {
                put(&mut tile, x, y, colours.fill);
            }
        }
    }
    if !dark {
        let lines = glyph_layer(man, man.outline_glyph(), colours.ink, size, fonts)?;
        composite_inside(&mut tile, &lines, interior);
    }
    Ok(Rendered {
        pixmap: tile,
        warnings: Vec::new(),
    })
}

/// `mask` with every hole (a region of unset pixels not 4-connected to the border) set.
fn fill_holes(mask: &[bool], n: usize) -> Vec<bool> {
    let mut outside = vec![false; n * n];
    let mut stack: Vec<usize> = (0..n * n)
        .filter(|&i| {
            let (x, y) = (i % n, i / n);
            (x == 0 || y == 0 || x == n - 1 || y == n - 1) && !mask[i]
        })
        .collect();
    while let Some(i) = stack.pop() {
        if outside[i] || mask[i] {
            continue;
        }
        outside[i] = true;
        let (x, y) = (i % n, i / n);
        if x > 0 {
            stack.push(i - 1);
        }
        if x + 1 < n {
            stack.push(i + 1);
        }
        if y > 0 {
            stack.push(i - n);
        }
        if y + 1 < n {
            stack.push(i + n);
        }
    }
    outside.iter().map(|o| !o).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{self, Format};
    use crate::render::px;
    use crate::render::tile::rotate180;
    use crate::render::validate::validate_token;
    use crate::zrf::NoIncludes;

    fn game(title: &str, pieces: &str) -> Game {
        let zrf = format!(
            "(game (title \"{title}\") (players White Black)
               (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"1/2\" (0 10)))))
               {pieces})"
        );
        let r = format::read(
            Format::Zrf,
            "t.zrf",
            zrf.as_bytes(),
            &format::ReadOptions::default(),
            &mut NoIncludes,
        );
        assert_eq!(r.errors(), 0, "{:?}", r.diagnostics);
        r.document.unwrap().games.remove(0)
    }

    fn pieces(names: &[&str]) -> String {
        names
            .iter()
            .map(|n| format!("(piece (name {n}))"))
            .collect()
    }

    #[test]
    fn shogi_like_games_get_pentagons() {
        let chessish = pieces(&["King", "Rook", "Bishop", "Pawn"]);
        // By title, whatever the names (shogi's men have chess names in English).
        let g = game("Mini Shogi", &chessish);
        assert!(is_shogi_like(&g));
        assert_eq!(piece_styles(&g), vec![PieceStyle::Pentagon; 4]);
        // By a man chess lacks.
        let g = game("Kantorai", &pieces(&["King", "Gold", "Rook", "Pawn"]));
        assert_eq!(piece_styles(&g)[0], PieceStyle::Pentagon);
        // By CJK names (most of them).
        let g = game("X", &pieces(&["玉将", "金将", "Pawn"]));
        assert!(is_shogi_like(&g));
        let g = game("X", &pieces(&["玉将", "Man", "Pawn"]));
        assert!(!is_shogi_like(&g));
        assert!(!is_shogi_like(&game("Chess", &chessish)));
    }

    #[test]
    fn chess_men_are_recognised_in_chess_games_only() {
        let g = game(
            "Omega",
            &(pieces(&["White-King", "Queen", "Champion", "blackpawn"])
                + "(piece (name Raja) (notation \"K\")) (piece (name Elephant) (notation \"X\"))"),
        );
        use ChessMan::*;
        assert_eq!(
            piece_styles(&g),
            [
                PieceStyle::Chess(King),
                PieceStyle::Chess(Queen),
                PieceStyle::Token,
                PieceStyle::Chess(Pawn),
                PieceStyle::Chess(King),
                PieceStyle::Token,
            ]
        );
        // Draughts: Man and King; Breakthrough: a lone pawn; Ultima: King and Pawn.
        for names in [
            &["Man", "King"][..],
            &["Pawn"],
            &["King", "Pawn", "Withdrawer"],
        ] {
            let g = game("G", &pieces(names));
            assert!(
                piece_styles(&g).iter().all(|s| *s == PieceStyle::Token),
                "{names:?}"
            );
        }
        // Two different men besides the king make a chess game (Pawn Wars).
        let g = game("Pawn Wars", &pieces(&["Pawn", "Queen"]));
        assert_eq!(
            piece_styles(&g),
            [PieceStyle::Chess(Pawn), PieceStyle::Chess(Queen)]
        );
    }

    #[test]
    fn labels_are_notations_or_short_unique_names() {
        let g = game(
            "G",
            &(pieces(&["King", "Knight", "Man", "Dragon-King", "LongLeaper", "Kite"])
                + "(piece (name Cannon) (notation \"Pa\"))"),
        );
        assert_eq!(
            token_labels(&g),
            ["Kin", "Kn", "M", "DK", "LL", "Kit", "Pa"]
        );
        assert_eq!(
            token_labels(&game("G", &pieces(&["Man", "King"]))),
            ["M", "K"]
        );
        assert_eq!(name_words("Heaven's vengeance"), ["Heavens", "vengeance"]);
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(player_palette(&names(&["Black", "White"])), [1, 0]);
        assert_eq!(player_palette(&names(&["South", "North"])), [0, 1]);
        assert_eq!(
            player_palette(&names(&["North", "Black", "red", "East"])),
            [0, 1, 2, 3]
        );
        assert_eq!(player_palette(&names(&["Blue", "East"])), [3, 0]);
        assert_eq!(short_name(&name_words("wizard"), 0), "W");
    }

    fn non_key(p: &Pixmap) -> usize {
        (0..p.height())
            .flat_map(|y| (0..p.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| px(p, x, y).0 != Rgb::KEY)
            .count()
    }

    #[test]
    fn token_pixels_key_disc_colours_and_label() {
        let fonts = FontSet::bundled();
        let size = 30;
        let mut tiles = Vec::new();
        for player in 0..4 {
            let r = render_token("Kn", PieceStyle::Token, player, size, &fonts).unwrap();
            assert!(r.warnings.is_empty(), "{:?}", r.warnings);
            let c = player_colours(player);
            assert!(!c.fill.is_near_green() && !c.ink.is_near_green());
            let (mut fill, mut label) = (0, 0);
            for y in 0..size {
                for x in 0..size {
                    let (p, a) = px(&r.pixmap, x, y);
                    assert_eq!(a, 255);
                    match disc_cell(size, x, y) {
                        Cell::Outside => assert_eq!(p, Rgb::KEY, "({x},{y})"),
                        Cell::Outline => assert_eq!(p, OUTLINE, "({x},{y})"),
                        Cell::Interior if p == c.fill => fill += 1,
                        Cell::Interior => label += 1,
                    }
                }
            }
            assert!(label > 40 && fill > 300, "player {player}: {label} {fill}");
            assert!(validate_token(&r.pixmap, size, "t").is_empty());
            tiles.push(r.pixmap);
        }
        // Upright for every player: the second is not the first rotated, and colours differ.
        assert_ne!(rotate180(&tiles[0]).data(), tiles[1].data());
        for i in 0..4 {
            for j in i + 1..4 {
                assert_ne!(px(&tiles[i], 15, 3), px(&tiles[j], 15, 3), "{i} {j}");
            }
        }
        // The disc touches the four edges' middles and leaves the corners to the key.
        assert_eq!(disc_cell(30, 15, 0), Cell::Outline);
        assert_eq!(disc_cell(30, 0, 0), Cell::Outside);
        let (pair0, pair1) =
            render_token_pair("Kn", PieceStyle::Token, [0, 1], size, &fonts).unwrap();
        assert_eq!(pair0.pixmap.data(), tiles[0].data());
        assert_eq!(pair1.data(), tiles[1].data());
    }

    #[test]
    fn chess_tiles_are_glyphs_in_the_players_colours() {
        let fonts = FontSet::bundled();
        for man in ChessMan::ALL {
            let style = PieceStyle::Chess(man);
            let (a, b) = render_token_pair("X", style, [0, 1], 30, &fonts).unwrap();
            assert!(a.warnings.is_empty(), "{:?}", a.warnings);
            for (p, c) in [(&a.pixmap, player_colours(0)), (&b, player_colours(1))] {
                assert!(validate_token(p, 30, "t").is_empty(), "{man:?}");
                let n = non_key(p);
                // A glyph, not a disc: between a tenth and three quarters of the tile.
                assert!(n > 90 && n < 675, "{man:?}: {n}");
                let count =
                    |want: Rgb| (0..900).filter(|i| px(p, i % 30, i / 30).0 == want).count();
                assert!(count(c.fill) > 30, "{man:?}: fill");
                // Details in ink (or blended towards it) inside the shape.
                let details = n - count(c.fill) - count(OUTLINE);
                assert!(details > 10, "{man:?}: {details}");
            }
            assert_ne!(a.pixmap.data(), b.data(), "{man:?}");
        }
    }

    #[test]
    fn chess_without_the_glyph_font_is_a_token_with_a_warning() {
        let fonts = FontSet::user_font(crate::render::fonts::BUNDLED_MAIN.to_vec(), false).unwrap();
        let r = render_token("K", PieceStyle::Chess(ChessMan::King), 0, 30, &fonts).unwrap();
        let w: Vec<_> = r
            .warnings
            .iter()
            .filter(|w| w.code == "render::missing-glyph")
            .collect();
        assert_eq!(w.len(), 2, "{:?}", r.warnings);
        assert!(w[0].message.contains("U+265A"), "{}", w[0].message);
        assert!(validate_token(&r.pixmap, 30, "t").is_empty());
        assert_eq!(px(&r.pixmap, 15, 0).0, OUTLINE, "drawn as a disc");
    }

    #[test]
    fn validate_token_catches_fringes_holes_and_green() {
        let fonts = FontSet::bundled();
        let good = render_token("P", PieceStyle::Token, 1, 30, &fonts)
            .unwrap()
            .pixmap;
        assert!(validate_token(&good, 30, "t").is_empty());
        // An antialiased pixel at the boundary.
        let mut fringe = good.clone();
        put(&mut fringe, 15, 0, Rgb(0x80, 0xC0, 0x80));
        let e = validate_token(&fringe, 30, "t");
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].check, "text-containment");
        // Near-green inside.
        let mut green = good.clone();
        put(&mut green, 15, 15, Rgb(10, 230, 10));
        assert_eq!(validate_token(&green, 30, "t")[0].check, "key");
        // Only key; wrong size.
        let empty = filled(30, 30, Rgb::KEY).unwrap();
        assert_eq!(validate_token(&empty, 30, "t")[0].check, "key");
        assert_eq!(validate_token(&good, 31, "t")[0].check, "tile-size");
        assert!(render_token("P", PieceStyle::Token, 0, 8, &fonts).is_err());
    }
}
