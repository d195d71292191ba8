//! Piece styles other than the shogi pentagon: round tokens in the player's colour carrying a
//! short label, and chess glyphs (bundled `ZogkitChess`) for recognisable chess men.
//!
//! ## Which style a game gets ([`piece_styles`])
//! - **Pentagon** for every piece of a *shogi-like* game ([`is_shogi_like`]): its title names
//!   shogi (`shogi`, any case, or 将棋), or more than half of its (non-dummy) piece names hold a
//!   CJK ideograph or kana, or it has one of shogi's own men, which chess lacks: a piece named
//!   Gold, Silver (General), Lance or Tokin.
//! - Otherwise **Chess** for each piece that moves as a chess man ([`chess_man_by_movement`]:
//!   its move blocks typed by `spec::movement`, on a grid's direction frame), when its name
//!   names the same man or no other piece of the game moves that way; else for each piece
//!   that [`chess_man`] recognises by name (its name, ignoring case, spaces, `-`, `_` and a
//!   `White`/`Black` prefix, or its first word, is King, Queen, Rook, Bishop, Knight or Pawn;
//!   or its notation is K, Q, R, B, N or P); provided the game is a chess game: it has at
//!   least two different men among queen, rook, bishop, knight and pawn (so draughts' Man/King
//!   and Breakthrough's lone pawn get tokens).
//! - **Xiangqi** first, for a game whose board has a palace (`lines.rs`) and whose pieces name
//!   at least four of xiangqi's seven men ([`XiangqiMan::of_name`]): each man's own character
//!   (帥/將 仕/士 相/象 傌/馬 俥/車 炮/砲 兵/卒, the red side's first; janggi's 漢/楚, 包 and 士
//!   when the board has no river), the first form the fonts have, in red for the first player
//!   or a player named Red, black (janggi: blue) for the other, on a light ringed disc.
//! - **Token** for the rest.
//!
//! ## Tiles
//! Same contract as pentagons: square, `size` px, exact `#00FF00` key outside the shape, no
//! antialiasing into the key. The shape is rasterised crisply; its boundary pixels are exactly
//! [`OUTLINE`]; antialiased ink is composited on interior pixels only. Tokens and chess men are
//! upright for every player: players differ by colour ([`PALETTE`]), not by rotation.

use super::fonts::{CHESS_FAMILY, FontSet, ink_box};
use super::lines;
use super::tile::{Cell, composite_inside, missing_glyphs};
use super::{RenderError, RenderWarning, Rendered, Rgb, filled, put};
use crate::spec::geometry::frame;
use crate::spec::movement::{Land, Travel, recognise_in};
use crate::spec::moves::Inliner;
use crate::spec::{Game, Instr, Piece};
use std::collections::{BTreeMap, BTreeSet};
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
    /// A xiangqi or janggi man: a light disc with the man's character in the side's colour.
    Xiangqi {
        /// Which man.
        man: XiangqiMan,
        /// Janggi's characters (漢/楚 generals, 包 cannons) instead of xiangqi's.
        janggi: bool,
    },
}

/// The seven men of xiangqi and janggi.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum XiangqiMan {
    /// 帥 / 將 (janggi 漢 / 楚).
    General,
    /// 仕 / 士 (janggi 士 for both).
    Advisor,
    /// 相 / 象.
    Elephant,
    /// 傌 / 馬.
    Horse,
    /// 俥 / 車.
    Chariot,
    /// 炮 / 砲 (janggi 包).
    Cannon,
    /// 兵 / 卒.
    Soldier,
}

impl XiangqiMan {
    /// Every man.
    pub const ALL: [XiangqiMan; 7] = [
        XiangqiMan::General,
        XiangqiMan::Advisor,
        XiangqiMan::Elephant,
        XiangqiMan::Horse,
        XiangqiMan::Chariot,
        XiangqiMan::Cannon,
        XiangqiMan::Soldier,
    ];

    /// The characters of the man for the red side (`red`) or the other, best first: the
    /// traditional one, then the forms a font is likelier to have (車 for 俥, 将 for 將).
    pub fn characters(self, janggi: bool, red: bool) -> &'static [char] {
        use XiangqiMan::*;
        match (self, janggi, red) {
            (General, false, true) => &['帥', '帅'],
            (General, false, false) => &['將', '将'],
            (General, true, true) => &['漢', '汉'],
            (General, true, false) => &['楚'],
            (Advisor, false, true) => &['仕', '士'],
            (Advisor, _, _) => &['士'],
            (Elephant, false, true) => &['相', '象'],
            (Elephant, _, _) => &['象'],
            (Horse, false, true) => &['傌', '馬', '马'],
            (Horse, _, _) => &['馬', '马'],
            (Chariot, false, true) => &['俥', '車', '车'],
            (Chariot, _, _) => &['車', '车'],
            (Cannon, false, true) => &['炮', '砲'],
            (Cannon, false, false) => &['砲', '炮'],
            (Cannon, true, _) => &['包', '砲'],
            (Soldier, _, true) => &['兵'],
            (Soldier, _, false) => &['卒'],
        }
    }

    /// The man a piece's name names: its first word in English (General, King, Advisor,
    /// Mandarin, Guard, Elephant, Minister, Bishop, Horse, Knight, Chariot, Rook, Car, Cannon,
    /// Catapult, Soldier, Pawn, …) or a character of the man in it (車, 馬, 象, …).
    pub fn of_name(name: &str) -> Option<XiangqiMan> {
        use XiangqiMan::*;
        let words = name_words(name);
        let first = words.first().map(|w| w.to_lowercase()).unwrap_or_default();
        let by_word = match first.as_str() {
            "general" | "king" | "marshal" | "governor" => Some(General),
            "advisor" | "adviser" | "mandarin" | "guard" | "assistant" | "counsellor"
            | "counselor" | "official" | "scholar" => Some(Advisor),
            "elephant" | "minister" | "bishop" => Some(Elephant),
            "horse" | "knight" => Some(Horse),
            "chariot" | "rook" | "car" | "cart" => Some(Chariot),
            "cannon" | "catapult" | "gun" => Some(Cannon),
            "soldier" | "pawn" | "private" => Some(Soldier),
            _ => None,
        };
        by_word.or_else(|| {
            XiangqiMan::ALL.into_iter().find(|m| {
                [false, true].iter().any(|&j| {
                    [false, true]
                        .iter()
                        .any(|&r| m.characters(j, r).iter().any(|c| name.contains(*c)))
                })
            })
        })
    }
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

/// The chess man a piece is recognisable as by name or notation (module docs): its name
/// (ignoring case, spaces, `-`, `_` and a `White`/`Black` prefix), else the first word of its
/// name (Circe's `Rook-a1`), else its notation.
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
    let first = p
        .name
        .split([' ', '-', '_'])
        .next()
        .unwrap_or_default()
        .to_lowercase();
    ChessMan::from_word(bare)
        .or_else(|| ChessMan::from_word(&first))
        .or_else(|| p.notation.as_deref().and_then(ChessMan::from_notation))
}

/// How one typed move block travels, as vectors (`+x` right, `+y` up the board).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Way {
    /// One step, and what it may land on.
    Step((i64, i64), Land),
    /// An unlimited slide.
    Slide((i64, i64)),
    /// A leap to this offset.
    Leap((i64, i64)),
    /// A lame path of one direction repeated (the pawn's double step).
    Run((i64, i64)),
    /// En passant.
    EnPassant,
    /// Anything else.
    Other,
}

/// The chess man a piece moves as, from its move blocks typed by `spec::movement` on a grid
/// whose directions are `frame`: unlimited slides along exactly the four orthogonals (rook),
/// the four diagonals (bishop) or all eight (queen); leaps to exactly the eight knight offsets
/// (knight); steps to all eight neighbours (king); a quiet orthogonal step with captures on
/// both diagonals beside it, and at most a double step and en passant besides (pawn). Blocks
/// the vocabulary does not type (castling, Circe's rebirths) are left out; `None` when no
/// block is typed or the ways match no man.
pub fn chess_man_by_movement(
    p: &Piece,
    procedures: &[Vec<Instr>],
    frame: &BTreeMap<String, (i64, i64)>,
) -> Option<ChessMan> {
    let mut inl = Inliner::new(procedures.len());
    let vector = |d: &str| frame.get(d).copied();
    let mut ways = BTreeSet::new();
    for b in &p.moves {
        let Ok(m) = recognise_in(b, procedures, &mut inl) else {
            continue;
        };
        let path =
            |ds: &[String]| -> Option<Vec<(i64, i64)>> { ds.iter().map(|d| vector(d)).collect() };
        let way =
            match &m.travel {
                Travel::Step(d) => vector(d).map(|v| Way::Step(v, m.land)),
                Travel::Slide { dir, max: None, .. } => vector(dir).map(Way::Slide),
                Travel::Leap(ds) => path(ds)
                    .map(|v| Way::Leap(v.iter().fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1)))),
                Travel::Lame(ds) => path(ds)
                    .and_then(|v| v.windows(2).all(|w| w[0] == w[1]).then(|| Way::Run(v[0]))),
                Travel::EnPassant { .. } => Some(Way::EnPassant),
                _ => None,
            };
        ways.insert(way.unwrap_or(Way::Other));
    }
    man_of_ways(&ways)
}

fn man_of_ways(ways: &BTreeSet<Way>) -> Option<ChessMan> {
    const ORTHO: [(i64, i64); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    const DIAG: [(i64, i64); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
    let knight: BTreeSet<(i64, i64)> = [(1, 2), (2, 1)]
        .into_iter()
        .flat_map(|(a, b)| [(a, b), (-a, b), (a, -b), (-a, -b)])
        .collect();
    let set = |f: fn(&Way) -> Option<(i64, i64)>| -> BTreeSet<(i64, i64)> {
        ways.iter().filter_map(f).collect()
    };
    let slides = set(|w| match w {
        Way::Slide(v) => Some(*v),
        _ => None,
    });
    let leaps = set(|w| match w {
        Way::Leap(v) => Some(*v),
        _ => None,
    });
    let steps = set(|w| match w {
        Way::Step(v, _) => Some(*v),
        _ => None,
    });
    let only = |f: fn(&Way) -> bool| ways.iter().all(f);
    let ortho: BTreeSet<_> = ORTHO.into_iter().collect();
    let diag: BTreeSet<_> = DIAG.into_iter().collect();
    let all: BTreeSet<_> = ORTHO.into_iter().chain(DIAG).collect();
    if only(|w| matches!(w, Way::Slide(_))) && !slides.is_empty() {
        return [
            (&ortho, ChessMan::Rook),
            (&diag, ChessMan::Bishop),
            (&all, ChessMan::Queen),
        ]
        .into_iter()
        .find(|(s, _)| **s == slides)
        .map(|(_, m)| m);
    }
    if only(|w| matches!(w, Way::Leap(_))) && leaps == knight {
        return Some(ChessMan::Knight);
    }
    if only(|w| matches!(w, Way::Step(..))) && steps == all {
        return Some(ChessMan::King);
    }
    // The pawn: one quiet orthogonal step forward, captures on the two diagonals beside it.
    let quiet: Vec<(i64, i64)> = ways
        .iter()
        .filter_map(|w| match w {
            Way::Step(v, Land::Empty) if ortho.contains(v) => Some(*v),
            _ => None,
        })
        .collect();
    if let [f] = quiet.as_slice() {
        let beside: BTreeSet<(i64, i64)> = if f.0 == 0 {
            [(1, f.1), (-1, f.1)].into()
        } else {
            [(f.0, 1), (f.0, -1)].into()
        };
        let captures = set(|w| match w {
            Way::Step(v, Land::Enemy) => Some(*v),
            _ => None,
        });
        let rest_ok = ways.iter().all(|w| match w {
            Way::Step(v, Land::Empty) => v == f,
            Way::Step(v, Land::Enemy) => beside.contains(v),
            Way::Run(v) => v == f,
            Way::EnPassant => true,
            _ => false,
        });
        if captures == beside && rest_ok {
            return Some(ChessMan::Pawn);
        }
    }
    None
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

/// The style of each piece of `g`, in `g.pieces` order (module docs); `procedures` are its
/// document's (move blocks call them).
pub fn piece_styles(g: &Game, procedures: &[Vec<Instr>]) -> Vec<PieceStyle> {
    if let Some(styles) = xiangqi_styles(g, procedures) {
        return styles;
    }
    if is_shogi_like(g) {
        return vec![PieceStyle::Pentagon; g.pieces.len()];
    }
    let frame = g.boards.first().and_then(|b| frame::frame(b).ok());
    let moving: Vec<Option<ChessMan>> = g
        .pieces
        .iter()
        .map(|p| {
            let f = frame.as_ref().filter(|_| !p.dummy)?;
            chess_man_by_movement(p, procedures, f)
        })
        .collect();
    let named: Vec<Option<ChessMan>> = g.pieces.iter().map(chess_man).collect();
    // A man by movement counts when the name agrees or no other piece moves the same way
    // (Ultima's pieces all move as queens: none of them is one).
    let men: Vec<Option<ChessMan>> = moving
        .iter()
        .zip(&named)
        .map(|(m, n)| match m {
            Some(m) if *n == Some(*m) || moving.iter().filter(|o| **o == Some(*m)).count() == 1 => {
                Some(*m)
            }
            _ => *n,
        })
        .collect();
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

/// Xiangqi and janggi men ([`PieceStyle::Xiangqi`]) when the game's first board has a palace
/// (`lines::palace`) and its pieces' names name at least four different men; janggi's
/// characters when the board has no river. Pieces that name no man get tokens.
fn xiangqi_styles(g: &Game, procedures: &[Vec<Instr>]) -> Option<Vec<PieceStyle>> {
    let men: Vec<Option<XiangqiMan>> = g
        .pieces
        .iter()
        .map(|p| XiangqiMan::of_name(&p.name).filter(|_| !p.dummy))
        .collect();
    let mut distinct: Vec<XiangqiMan> = Vec::new();
    for m in men.iter().flatten() {
        if !distinct.contains(m) {
            distinct.push(*m);
        }
    }
    if distinct.len() < 4 {
        return None;
    }
    let board = g.boards.first()?;
    let palace = lines::palace(board, &lines::GameFacts::of(g, procedures))?;
    Some({
        men.into_iter()
            .map(|m| match m {
                Some(man) => PieceStyle::Xiangqi {
                    man,
                    janggi: !palace.river,
                },
                None => PieceStyle::Token,
            })
            .collect()
    })
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
        let mut r = token_tile(label, colours, size, fonts, &subject, false)?;
        r.warnings
            .extend(missing_glyphs(Mutex::new(missing), &subject));
        return Ok(r);
    }
    if let PieceStyle::Xiangqi { man, janggi } = style {
        return xiangqi_tile(man, janggi, label, player, size, fonts, &subject);
    }
    token_tile(label, colours, size, fonts, &subject, false)
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

/// A xiangqi man's disc: light, with a ring and the character in the side's ink.
const XIANGQI_DISC: Rgb = Rgb(0xF2, 0xE2, 0xB8);
/// The red side's ink.
const XIANGQI_RED: Rgb = Rgb(0xC0, 0x18, 0x18);
/// The black side's ink (xiangqi).
const XIANGQI_BLACK: Rgb = Rgb(0x1A, 0x1A, 0x1A);
/// The other side's ink in janggi (楚, traditionally blue or green).
const JANGGI_BLUE: Rgb = Rgb(0x12, 0x4C, 0xA0);

/// Whether palette colour `player` plays the red side of xiangqi: the first player (ivory by
/// default) or a player named Red.
fn red_side(player: usize) -> bool {
    matches!(player % PALETTE.len(), 0 | 2)
}

/// A xiangqi or janggi man's tile for palette colour `player` (module docs): the first of the
/// man's characters for that side the fonts have (or `label`, when it is not one of the man's
/// characters: a `--name` override), on a light disc with a ring, both in the side's ink.
fn xiangqi_tile(
    man: XiangqiMan,
    janggi: bool,
    label: &str,
    player: usize,
    size: u32,
    fonts: &FontSet,
    subject: &str,
) -> Result<Rendered, RenderError> {
    let red = red_side(player);
    let chars = man.characters(janggi, red);
    let own = [false, true]
        .iter()
        .flat_map(|&r| man.characters(janggi, r))
        .any(|c| label.trim() == c.to_string());
    let text = match chars
        .iter()
        .find(|c| fonts.missing_chars(&c.to_string()).is_empty())
    {
        _ if !own && !label.trim().is_empty() => label.to_string(),
        Some(c) => c.to_string(),
        None => chars[0].to_string(),
    };
    let ink = match (red, janggi) {
        (true, _) => XIANGQI_RED,
        (false, false) => XIANGQI_BLACK,
        (false, true) => JANGGI_BLUE,
    };
    let colours = PlayerColours {
        fill: XIANGQI_DISC,
        ink,
    };
    token_tile(&text, colours, size, fonts, subject, true)
}

/// The circle a token's label fits in, as a share of the disc's radius: a margin that keeps
/// wide labels (a sliding puzzle's `B00`) clear of the rim.
const LABEL_RADIUS: f64 = 0.8;

/// How far inside the outline a ring is drawn, and its width, in pixels.
const RING: (f64, f64) = (2.0, 1.0);

fn token_tile(
    label: &str,
    colours: PlayerColours,
    size: u32,
    fonts: &FontSet,
    subject: &str,
    ring: bool,
) -> Result<Rendered, RenderError> {
    let mut tile = filled(size, size, Rgb::KEY)?;
    let c = (size as f64 - 1.0) / 2.0;
    let outer = c + 0.5 - 1.0 - RING.0;
    let on_ring = |x: u32, y: u32| {
        let d = ((x as f64 - c).powi(2) + (y as f64 - c).powi(2)).sqrt();
        ring && d <= outer && d > outer - RING.1
    };
    for y in 0..size {
        for x in 0..size {
            match disc_cell(size, x, y) {
                Cell::Outside => {}
                Cell::Outline => put(&mut tile, x, y, OUTLINE),
                Cell::Interior if on_ring(x, y) => put(&mut tile, x, y, colours.ink),
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
    // The label's ink box has its corners on a circle of `LABEL_RADIUS` of the disc's radius
    // (inside the ring, if any); no pixel it inks lies over a pixel further out, nor on the rim
    // (the pixel and its four neighbours are inside the outline).
    let r = ((c + 0.5) * LABEL_RADIUS).min(if ring {
        outer - RING.1 - 1.0
    } else {
        f64::INFINITY
    });
    let inside = |x: u32, y: u32| {
        let interior = |x: i64, y: i64| {
            x >= 0 && y >= 0 && disc_cell(size, x as u32, y as u32) == Cell::Interior
        };
        let (xi, yi) = (x as i64, y as i64);
        [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)]
            .iter()
            .all(|(dx, dy)| interior(xi + dx, yi + dy))
            && ((x as f64 - c).powi(2) + (y as f64 - c).powi(2)).sqrt() <= r + 1.0
    };
    let missing = Mutex::new(Vec::new());
    match label_layer(
        &label,
        colours.ink,
        size,
        r as f32,
        fonts,
        &missing,
        &inside,
    )? {
        Some(ink) => {
            composite_inside(&mut tile, &ink, inside);
        }
        None => fonts.missing_chars(&label).into_iter().for_each(|c| {
            missing.lock().unwrap_or_else(|e| e.into_inner()).push(c);
        }),
    }
    warnings.extend(missing_glyphs(missing, subject));
    Ok(Rendered {
        pixmap: tile,
        warnings,
    })
}

/// Attempts at shrinking a label that does not fit, each 8 % smaller.
const FIT_TRIES: usize = 12;

/// `label` in `ink` on a transparent tile-sized layer, centred, as large as fits: its ink box's
/// corners on a circle of radius `r` around the centre and at most 55 % of the tile high, then
/// shrunk until every pixel it inks lies `inside` (the measured box and the drawn ink can
/// differ by a pixel or two, which a disc's rim would clip). `None` when nothing is drawn.
fn label_layer(
    label: &str,
    ink: Rgb,
    size: u32,
    r: f32,
    fonts: &FontSet,
    missing: &Mutex<Vec<char>>,
    inside: &dyn Fn(u32, u32) -> bool,
) -> Result<Option<Pixmap>, RenderError> {
    let s = size as f32;
    // Measured in black at 100 px: the ink box does not depend on the colour, so one measure
    // serves every player.
    let measured = fonts.text_element(MEASURE.0, MEASURE.1, 100.0, Rgb::BLACK, "start", label);
    let Some((bx, by, bw, bh)) = ink_box(fonts, &measured) else {
        return Ok(None);
    };
    let (bx, by) = (bx - MEASURE.0, by - MEASURE.1 + 500.0);
    let mut k = (2.0 * r.max(1.0) / (bw * bw + bh * bh).sqrt()).min(0.55 * s / bh);
    let mut layer = Pixmap::new(size, size).ok_or_else(|| RenderError::Size("tile".into()))?;
    for attempt in 0..FIT_TRIES {
        let x = (s - k * bw) / 2.0 - k * bx;
        let baseline = (s - k * bh) / 2.0 - k * (by - 500.0);
        let el = fonts.text_element(x, baseline, 100.0 * k, ink, "start", label);
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}">{el}</svg>"#
        );
        layer.fill(tiny_skia::Color::TRANSPARENT);
        let scratch = Mutex::new(Vec::new());
        let sink = if attempt == 0 { missing } else { &scratch };
        fonts.draw(&svg, &mut layer.as_mut(), sink)?;
        let fits = layer
            .data()
            .chunks_exact(4)
            .enumerate()
            .all(|(i, p)| p[3] == 0 || inside(i as u32 % size, i as u32 / size));
        if fits {
            break;
        }
        k *= 0.92;
    }
    Ok(Some(layer))
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
    use crate::render::px;
    use crate::render::tile::rotate180;
    use crate::render::validate::validate_token;

    fn game(title: &str, pieces: &str) -> Game {
        let zrf = format!(
            "(game (title \"{title}\") (players White Black)
               (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"1/2\" (0 10)))))
               {pieces})"
        );
        crate::tests::zrf_doc(&zrf).games.remove(0)
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
        assert_eq!(piece_styles(&g, &[]), vec![PieceStyle::Pentagon; 4]);
        // By a man chess lacks.
        let g = game("Kantorai", &pieces(&["King", "Gold", "Rook", "Pawn"]));
        assert_eq!(piece_styles(&g, &[])[0], PieceStyle::Pentagon);
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
            piece_styles(&g, &[]),
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
                piece_styles(&g, &[])
                    .iter()
                    .all(|s| *s == PieceStyle::Token),
                "{names:?}"
            );
        }
        // Two different men besides the king make a chess game (Pawn Wars).
        let g = game("Pawn Wars", &pieces(&["Pawn", "Queen"]));
        assert_eq!(
            piece_styles(&g, &[]),
            [PieceStyle::Chess(Pawn), PieceStyle::Chess(Queen)]
        );
    }

    /// A document of one game on an 8×8 grid with all eight directions and `pieces`.
    fn chess_doc(pieces: &str) -> crate::spec::Document {
        let zrf = format!(
            "(define slide ($1 (while empty? add $1) (verify not-friend?) add))
             (define step ($1 (verify not-friend?) add))
             (define leap ($1 $2 (verify not-friend?) add))
             (game (title \"G\") (players White Black)
               (board (grid (start-rectangle 0 0 10 10)
                 (dimensions (\"a/b/c/d/e/f/g/h\" (10 0)) (\"8/7/6/5/4/3/2/1\" (0 10)))
                 (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0)
                             (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1))))
               {pieces})"
        );
        crate::tests::zrf_doc(&zrf)
    }

    const ROOK: &str = "(slide n) (slide e) (slide s) (slide w)";
    const BISHOP: &str = "(slide ne) (slide nw) (slide se) (slide sw)";
    const KNIGHT: &str = "(leap n ne) (leap n nw) (leap s se) (leap s sw)
        (leap e ne) (leap e se) (leap w nw) (leap w sw)";
    const KING: &str =
        "(step n) (step e) (step s) (step w) (step ne) (step nw) (step se) (step sw)";
    const PAWN: &str = "(n (verify empty?) add) (ne (verify enemy?) add) (nw (verify enemy?) add)";

    #[test]
    fn chess_men_are_chosen_by_how_they_move() {
        use ChessMan::*;
        let doc = chess_doc(&format!(
            "(piece (name Tower) (moves {ROOK})) (piece (name Runner) (moves {BISHOP}))
             (piece (name Jumper) (moves {KNIGHT})) (piece (name Sovereign) (moves {KING}))
             (piece (name Footman) (moves {PAWN}))
             (piece (name Amazon) (moves {ROOK} {BISHOP} {KNIGHT}))
             (piece (name Knight) (moves {ROOK} {BISHOP}))"
        ));
        let g = &doc.games[0];
        let frame = frame::frame(&g.boards[0]).unwrap();
        let by_moves: Vec<Option<ChessMan>> = g
            .pieces
            .iter()
            .map(|p| chess_man_by_movement(p, &doc.procedures, &frame))
            .collect();
        assert_eq!(
            by_moves,
            [
                Some(Rook),
                Some(Bishop),
                Some(Knight),
                Some(King),
                Some(Pawn),
                None,
                Some(Queen)
            ]
        );
        // The movement wins over the name: this "Knight" moves as a queen.
        assert_eq!(
            piece_styles(g, &doc.procedures),
            [
                PieceStyle::Chess(Rook),
                PieceStyle::Chess(Bishop),
                PieceStyle::Chess(Knight),
                PieceStyle::Chess(King),
                PieceStyle::Chess(Pawn),
                PieceStyle::Token,
                PieceStyle::Chess(Queen),
            ]
        );
        // Pieces that all move as queens (Ultima's) are none of them a queen; a rook-mover
        // with a rook's name still is one.
        let doc = chess_doc(&format!(
            "(piece (name Withdrawer) (moves {ROOK} {BISHOP}))
             (piece (name Coordinator) (moves {ROOK} {BISHOP}))
             (piece (name Pincer) (moves {ROOK})) (piece (name Bishop) (moves {BISHOP}))"
        ));
        assert_eq!(
            piece_styles(&doc.games[0], &doc.procedures),
            [
                PieceStyle::Token,
                PieceStyle::Token,
                PieceStyle::Chess(Rook),
                PieceStyle::Chess(Bishop),
            ]
        );
        // Circe's pieces named after their squares, whose moves are not typed: by the name's
        // first word.
        let doc = chess_doc("(piece (name Rook-a1)) (piece (name Knight-b1)) (piece (name King))");
        assert_eq!(
            piece_styles(&doc.games[0], &doc.procedures),
            [
                PieceStyle::Chess(Rook),
                PieceStyle::Chess(Knight),
                PieceStyle::Chess(King),
            ]
        );
    }

    #[test]
    fn token_labels_keep_clear_of_the_rim_of_their_disc() {
        let fonts = FontSet::bundled();
        for size in [24, 30, 42, 60, 99] {
            for label in ["B00", "R10", "WWW", "MMMM", "Kn", "10", "W"] {
                let r = render_token(label, PieceStyle::Token, 0, size, &fonts).unwrap();
                let fill = player_colours(0).fill;
                let mut ink = 0;
                for y in 0..size {
                    for x in 0..size {
                        if disc_cell(size, x, y) != Cell::Interior {
                            continue;
                        }
                        let rim =
                            [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)]
                                .iter()
                                .any(|(dx, dy)| {
                                    let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                                    nx < 0
                                        || ny < 0
                                        || disc_cell(size, nx as u32, ny as u32) != Cell::Interior
                                });
                        let inked = px(&r.pixmap, x, y).0 != fill;
                        assert!(
                            !(rim && inked),
                            "{label} at {size} px: ink on the rim at ({x},{y})"
                        );
                        // Within four fifths of the radius (and a pixel and a half).
                        let c = (size as f64 - 1.0) / 2.0;
                        let d = ((x as f64 - c).powi(2) + (y as f64 - c).powi(2)).sqrt();
                        let most = (c + 0.5) * LABEL_RADIUS + 1.5;
                        assert!(
                            !inked || d <= most,
                            "{label} at {size} px: ink {d:.1} px out"
                        );
                        ink += inked as usize;
                    }
                }
                // Still legible: a fair share of the disc is ink.
                assert!(
                    ink * 25 > (size * size) as usize,
                    "{label} at {size} px: {ink}"
                );
            }
        }
    }

    #[test]
    fn xiangqi_men_get_their_characters_in_the_sides_colours() {
        let fonts = FontSet::bundled();
        use XiangqiMan::*;
        assert_eq!(XiangqiMan::of_name("Chariot"), Some(Chariot));
        assert_eq!(XiangqiMan::of_name("Mandarin"), Some(Advisor));
        assert_eq!(XiangqiMan::of_name("black-horse"), None);
        assert_eq!(XiangqiMan::of_name("車"), Some(Chariot));
        assert_eq!(XiangqiMan::of_name("Cannon-2"), Some(Cannon));
        assert_eq!(General.characters(false, true)[0], '帥');
        assert_eq!(General.characters(false, false)[0], '將');
        assert_eq!(General.characters(true, false)[0], '楚');
        assert_eq!(Cannon.characters(true, true)[0], '包');
        assert_eq!(Advisor.characters(true, true)[0], '士');
        // The bundled fonts have every man's own character (`cargo xtask fonts` lists them).
        for man in XiangqiMan::ALL {
            for (janggi, red) in [(false, false), (false, true), (true, false), (true, true)] {
                let c = man.characters(janggi, red)[0];
                assert!(fonts.missing_chars(&c.to_string()).is_empty(), "{c}");
            }
        }
        for man in XiangqiMan::ALL {
            for janggi in [false, true] {
                // Red (palette 2, a player named Red) and black (palette 1).
                let style = PieceStyle::Xiangqi { man, janggi };
                let red = render_token("", style, 2, 42, &fonts).unwrap();
                let black = render_token("", style, 1, 42, &fonts).unwrap();
                assert!(red.warnings.is_empty(), "{man:?}: {:?}", red.warnings);
                assert!(black.warnings.is_empty(), "{man:?}: {:?}", black.warnings);
                for (r, ink) in [
                    (&red.pixmap, XIANGQI_RED),
                    (
                        &black.pixmap,
                        if janggi { JANGGI_BLUE } else { XIANGQI_BLACK },
                    ),
                ] {
                    assert!(validate_token(r, 42, "t").is_empty(), "{man:?}");
                    let n = (0..42 * 42)
                        .filter(|i| px(r, i % 42, i / 42).0 == ink)
                        .count();
                    // The ring and a character's strokes.
                    assert!(n > 120, "{man:?} {janggi}: {n} ink pixels");
                    assert_eq!(px(r, 21, 1).0, XIANGQI_DISC, "{man:?}: the disc");
                }
                assert_ne!(red.pixmap.data(), black.pixmap.data());
            }
        }
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
