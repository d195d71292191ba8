//! The portable game spec's data types: a document of fully resolved games, explicit boards and typed move programs.
//!
//! Invariants, stated as absences (see `docs/spec.md` for every field):
//! - no macros, no includes, no variant inheritance: every game is complete;
//! - no implicit geometry: every position lists its links by direction name;
//! - no numbers standing in for names: every name is a string, kept exactly as written;
//! - no dropped content: what has no typed form yet travels in `extensions`.
//!
//! Empty lists, `false` flags and absent options are omitted when written and read back as
//! empty/false/absent, so the written form stays short.

use crate::text::{self, Encoding, LineEndings};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The version written into every document. Bump the minor part for additive changes, the
/// major part when a reader of the old version would misread the new one.
pub const SPEC_VERSION: &str = "0.3";

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// One input file, normalised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Document {
    /// Spec version, [`SPEC_VERSION`] for documents written by this build.
    pub spec_version: String,
    /// Where the document came from.
    pub source: Source,
    /// Every game, variant and menu separator of the input, in menu order.
    pub games: Vec<Game>,
    /// Instruction sequences shared by several move programs (or hoisted out of very deep
    /// ones), referenced by [`Instr::Call`] with their index. A call means exactly "these
    /// instructions here": there are no parameters and no scoping, so a consumer may inline
    /// every call. They keep documents of macro-heavy games small.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub procedures: Vec<Vec<Instr>>,
}

/// Facts about the input file.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// `zrf`, `lud`, `ludii-english`, `chessembly`, `fsf` or `yaml`.
    pub format: String,
    /// File name as given (the last path component).
    pub file: String,
    /// Text encoding: `utf-8`, `shift_jis`, `windows-1251` or `windows-1252` (read also as
    /// `cp932`, `sjis`, `cp1251`, `cp1252`, `latin1`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<Encoding>,
    /// Line endings: `lf`, `crlf`, `cr`, `mixed` or `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_endings: Option<LineEndings>,
    /// Lower-case hex SHA-256 of the input bytes.
    pub sha256: String,
    /// The format's own version statement (ZRF `(version "…")`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The language variant the source was read in, when it is not the format's standard one:
    /// `ms` for a Chessembly script in the chessembly-bot dialect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialect: Option<String>,
}

impl Source {
    /// The facts of one input file, built once from its bytes and how they were decoded: the
    /// SHA-256 of the bytes (not of the decoded text), the encoding actually used and the line
    /// endings. `format` is the reader's format name; `name` is the file name as given (its last
    /// path component is kept). `version` and `dialect` are the reader's to fill.
    pub fn of(format: &str, name: &str, bytes: &[u8], decoded: &text::Decoded) -> Source {
        Source::facts(format, name, bytes, decoded.encoding, decoded.line_endings)
    }

    /// [`Source::of`] for a reader given text rather than bytes (a reader called directly, not
    /// through `format::read`): the text's UTF-8 bytes.
    pub fn of_text(format: &str, name: &str, text: &str) -> Source {
        let ends = LineEndings::detect(text);
        Source::facts(format, name, text.as_bytes(), Encoding::Utf8, ends)
    }

    fn facts(format: &str, name: &str, bytes: &[u8], enc: Encoding, ends: LineEndings) -> Source {
        use sha2::Digest;
        let hash = sha2::Sha256::digest(bytes);
        Source {
            format: format.to_string(),
            file: name.rsplit(['/', '\\']).next().unwrap_or(name).to_string(),
            encoding: Some(enc),
            line_endings: Some(ends),
            sha256: hash.iter().map(|b| format!("{b:02x}")).collect(),
            version: None,
            dialect: None,
        }
    }
}

/// What a menu entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EntryKind {
    /// A game of its own.
    Game,
    /// A variant, resolved completely; `variant_of` names its game.
    Variant,
    /// A menu separator (ZRF `(variant (title "-"))`); it has no other content.
    Separator,
}

/// A complete game (or a fully resolved variant, or a menu separator).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Game {
    /// Game, variant or separator.
    pub kind: EntryKind,
    /// Title as shown in the menu.
    pub title: String,
    /// For variants: the index (0-based, in `games`) of the game it varies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant_of: Option<usize>,
    /// Whether this entry opens by default.
    #[serde(default, skip_serializing_if = "is_false")]
    pub default: bool,
    /// Description, history, strategy and other texts, with real line breaks.
    #[serde(default, skip_serializing_if = "Texts::is_empty")]
    pub texts: Texts,
    /// Player names, in turn-numbering order. Random players keep their `?` prefix.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<String>,
    /// The order of turns.
    #[serde(default, skip_serializing_if = "TurnOrder::is_empty")]
    pub turn_order: TurnOrder,
    /// Game options, in source order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<GameOption>,
    /// Sound files by event.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sounds: Vec<Sound>,
    /// Boards (ZRF games have one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub boards: Vec<Board>,
    /// Piece types.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pieces: Vec<Piece>,
    /// Starting placement.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub setup: Vec<Placement>,
    /// Win, loss, draw and count conditions, in source order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub goals: Vec<Goal>,
    /// Move types from highest to lowest priority.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub move_priorities: Vec<String>,
    /// An external move-generation engine the game needs (ZRF `(engine "file.dll")`, e.g. Axiom).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// Content with no typed form yet, per source format, never dropped.
    #[serde(default, skip_serializing_if = "Extensions::is_empty")]
    pub extensions: Extensions,
}

/// Free texts of a game or piece. Line breaks are real newlines (ZRF `\` is converted).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Texts {
    /// What the game is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Where it comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history: Option<String>,
    /// How to play it well.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy: Option<String>,
    /// Help text (pieces).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// ZRF `solution` (puzzles), verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
    /// The exact source strings, by field name, for texts whose display form above does not
    /// reproduce them (ZRF source line wrapping). Writers use a source string only while its
    /// display form still equals the field, so an edited text always wins.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub source: BTreeMap<String, String>,
}

impl Document {
    /// How many entries are games and how many are variants (menu separators are neither).
    pub fn games_and_variants(&self) -> (usize, usize) {
        let count = |k: EntryKind| self.games.iter().filter(|g| g.kind == k).count();
        (count(EntryKind::Game), count(EntryKind::Variant))
    }
}

impl Texts {
    /// True when no text is set.
    pub fn is_empty(&self) -> bool {
        *self == Texts::default()
    }
}

/// The order of turns: `turns` are played in order; when they run out, play continues from
/// `repeat_from` (ZRF `repeat`), or from the first turn when it is absent.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnOrder {
    /// The turns.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<Turn>,
    /// Index of the first turn of the repeating part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeat_from: Option<usize>,
}

impl TurnOrder {
    /// True when no turn is listed.
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty() && self.repeat_from.is_none()
    }

    /// The players taking turns in the given order, each with any move type.
    pub fn alternating(players: &[&str]) -> TurnOrder {
        TurnOrder {
            turns: players
                .iter()
                .map(|p| Turn {
                    player: (*p).to_string(),
                    with_player: None,
                    move_type: None,
                })
                .collect(),
            repeat_from: None,
        }
    }
}

/// One turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    /// Who moves.
    pub player: String,
    /// ZRF `(P Q mode)` or `(P Q)`: the turn is played by `player` with this player's pieces, as
    /// this player (decided from ZoG's saved games and Stavropol Checkers; see `docs/engine.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with_player: Option<String>,
    /// Only moves of this move type are allowed in this turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_type: Option<String>,
}

/// A game option (ZRF `(option "name" value)` or a legacy option keyword).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameOption {
    /// Option name, e.g. `animate captures`.
    pub name: String,
    /// Value as written (`true`, `false`, `forced`, `2`, …).
    pub value: String,
    /// Written as a legacy ZoG 1.x keyword form such as `(pass-turn true)`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub legacy: bool,
}

/// The game option of the pie rule (Ludii's `(meta (swap))`, no ZoG keyword): on the game's
/// second turn its player may take over the first player's side instead of moving. The players
/// swap sides, not the position or the turn order, so in play the swap is a pass.
pub const SWAP_OPTION: &str = "swap";

/// A sound for an event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sound {
    /// Event: `move`, `capture`, `drop`, `release`, `change`, `click`, `draw`, `win`, `loss`, `opening`, …
    pub event: String,
    /// File name as written (may be empty: no sound).
    pub file: String,
}

/// A board: explicit positions and links, plus the compact layout they were computed from.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Board {
    /// Alternative board images (the first is the default).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<String>,
    /// Direction names, in order of first definition.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub directions: Vec<String>,
    /// Every position, in order: grid positions (grid by grid, last dimension outermost), then
    /// explicit positions, then dummy (off-board) positions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<Position>,
    /// Zones: named position sets per player.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<Zone>,
    /// Per-player direction renaming (every direction listed, identity included).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub symmetries: Vec<Symmetry>,
    /// Opposite direction of each direction that has one (by link reversal).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opposites: Vec<Opposite>,
    /// The compact source layout the explicit graph is computed from.
    #[serde(default, skip_serializing_if = "Layout::is_empty")]
    pub layout: Layout,
    /// Board content with no typed form yet.
    #[serde(default, skip_serializing_if = "Extensions::is_empty")]
    pub extensions: Extensions,
}

/// One position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// Name, unique on the board (case-sensitive).
    pub name: String,
    /// Pixel rectangle `[x1, y1, x2, y2]` in the board image, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rect: Option<[i64; 4]>,
    /// Grid index and label indexes, for positions made by a grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<GridCoord>,
    /// An off-board (dummy) position without a rectangle.
    #[serde(default, skip_serializing_if = "is_false")]
    pub dummy: bool,
    /// Removed from play (ZRF `kill-positions`): no piece may stand here and no link leads to
    /// or from it. Kept so that zones and images that name it stay meaningful.
    #[serde(default, skip_serializing_if = "is_false")]
    pub killed: bool,
    /// Links from this position, in direction order; written as a map from direction name
    /// to target position (`{"n": "a2", "e": "b1"}`).
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "links_as_map")]
    #[schemars(with = "BTreeMap<String, String>")]
    pub links: Vec<Link>,
}

/// (De)serializes a position's links as an ordered map `direction: target`.
mod links_as_map {
    use super::Link;
    use serde::de::{MapAccess, Visitor};
    use serde::ser::SerializeMap;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(links: &[Link], s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(links.len()))?;
        for l in links {
            m.serialize_entry(&l.direction, &l.to)?;
        }
        m.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Link>, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Vec<Link>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map from direction name to position name")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Vec<Link>, A::Error> {
                let mut v = Vec::new();
                while let Some((direction, to)) = a.next_entry::<String, String>()? {
                    if v.iter().any(|l: &Link| l.direction == direction) {
                        return Err(serde::de::Error::custom(format!(
                            "direction `{direction}` is linked twice"
                        )));
                    }
                    v.push(Link { direction, to });
                }
                Ok(v)
            }
        }
        d.deserialize_map(V)
    }
}

/// Where a grid position sits in its grid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GridCoord {
    /// Index of the grid in `layout.grids`.
    pub grid: usize,
    /// Label index per dimension.
    pub coords: Vec<usize>,
}

/// A directed link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Link {
    /// Direction name.
    pub direction: String,
    /// Target position.
    pub to: String,
}

/// A zone for some players.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Zone {
    /// Zone name (several zones may share a name for different players).
    pub name: String,
    /// Players it applies to.
    pub players: Vec<String>,
    /// Its positions.
    pub positions: Vec<String>,
    /// Image drawn on the zone's positions (ZRF `glyph`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub glyph: Option<String>,
    /// Help text shown for the zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

/// A player's direction renaming.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Symmetry {
    /// The player.
    pub player: String,
    /// `[from, to]` for every direction of the board.
    pub map: Vec<[String; 2]>,
}

/// A direction and its opposite.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Opposite {
    /// The direction.
    pub direction: String,
    /// Its opposite.
    pub opposite: String,
}

/// The compact board description as the source wrote it (ZRF grids, position lists, link
/// edits); `spec::check` verifies that it produces exactly the explicit positions and links.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Layout {
    /// Grids, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grids: Vec<Grid>,
    /// Explicitly listed positions with rectangles (ZRF `positions`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<LayoutPosition>,
    /// Explicit links (ZRF `links`), applied after grid links, each group at its place among
    /// the `unlink` removals.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<LayoutLinks>,
    /// Removed links (ZRF `unlink`), in order; each applies to the links made before it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unlink: Vec<Unlink>,
    /// Removed positions (ZRF `kill-positions`), with every link to or from them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kill_positions: Vec<String>,
    /// Off-board positions (ZRF `dummy`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dummy: Vec<String>,
    /// A board built by board functions (tilings, graphs and operations on them, as Ludii
    /// states boards), instead of grids and listed positions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub construction: Option<Construction>,
}

/// A board built by board functions: a graph made by tilings (`square`, `hex`, `tri`,
/// `concentric`, `mancalaBoard`, …) and operations on graphs (`merge`, `shift`, `rotate`,
/// `add`, `remove`, …), with arithmetic already evaluated, and the kind of graph element that
/// is a site. `spec::geometry::tiling::build` makes its positions; `docs/spec.md` lists the
/// functions it builds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Construction {
    /// The graph's elements that are the positions.
    #[serde(default, skip_serializing_if = "SiteKind::is_cell")]
    pub sites: SiteKind,
    /// The graph.
    pub graph: BoardFn,
}

/// The graph elements that are a built board's positions.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum SiteKind {
    /// The cells (faces); the default.
    #[default]
    Cell,
    /// The vertices (points where lines meet).
    Vertex,
    /// The edges (lines between vertices).
    Edge,
}

impl SiteKind {
    /// True for the default, cells.
    pub fn is_cell(&self) -> bool {
        *self == SiteKind::Cell
    }
}

/// One board function applied to its arguments: `{fn: square, args: [5], named: {diagonals:
/// Alternating}}` is Ludii's `(square 5 diagonals:Alternating)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardFn {
    /// The function's name.
    #[serde(rename = "fn")]
    pub name: String,
    /// Positional arguments, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<BoardArg>,
    /// Named arguments (`diagonals`, `rings`, `vertices`, `edges`, `cells`, …).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub named: BTreeMap<String, BoardArg>,
}

/// An argument of a board function.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum BoardArg {
    /// A whole number.
    Int(i64),
    /// A number with a fraction.
    Real(f64),
    /// A word (`Alternating`, `Square`, `True`, …).
    Word(String),
    /// Another board function (a graph, a polygon).
    Fn(Box<BoardFn>),
    /// A list (`{…}` in Ludii): of numbers, of points, of graphs.
    List(Vec<BoardArg>),
}

impl Layout {
    /// True when nothing is recorded.
    pub fn is_empty(&self) -> bool {
        *self == Layout::default()
    }
}

/// A rectangular (n-dimensional) grid of positions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Grid {
    /// Rectangle of the first position `[x1, y1, x2, y2]`.
    pub start_rectangle: [i64; 4],
    /// Dimensions, first (innermost in position order) first.
    pub dimensions: Vec<Dimension>,
    /// Directions as label-index deltas, one component per dimension.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub directions: Vec<GridDirection>,
}

/// One grid dimension.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Dimension {
    /// Labels; a position's name is the concatenation of its labels.
    pub labels: Vec<String>,
    /// Pixel offset `[dx, dy]` between neighbouring labels.
    pub offset: [i64; 2],
}

/// A grid direction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GridDirection {
    /// Name.
    pub name: String,
    /// Delta per dimension (missing components are 0).
    pub delta: Vec<i64>,
}

/// An explicitly placed position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LayoutPosition {
    /// Name.
    pub name: String,
    /// Rectangle `[x1, y1, x2, y2]`.
    pub rect: [i64; 4],
}

/// Links added in one direction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LayoutLinks {
    /// Direction name.
    pub direction: String,
    /// `[from, to]` pairs.
    pub links: Vec<[String; 2]>,
    /// How many of the layout's `unlink` removals come before these links. ZRF applies a
    /// board's statements in order, so an `unlink` leaves the links declared after it (Chessence
    /// unlinks its reserve squares, then links them with `to-reserve`); 0: every removal comes
    /// after.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub after_unlinks: usize,
}

/// A link removal: one directed link, or every link leaving a position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Unlink {
    /// Remove the links `from → to` in every direction; when the second name is a direction
    /// rather than a position (ZRF `(unlink (a2 dn))`), remove `from`'s link in that direction.
    Link([String; 2]),
    /// Remove every link leaving this position (z2j's reading of a bare position).
    From(String),
}

/// A piece type.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Piece {
    /// Name, unique in the game.
    pub name: String,
    /// Help, description and other texts.
    #[serde(default, skip_serializing_if = "Texts::is_empty")]
    pub texts: Texts,
    /// Image file per player.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<PieceImage>,
    /// Small images per player used in lists and menus (ZRF `glyph`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub glyphs: Vec<PieceImage>,
    /// Notation letter(s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notation: Option<String>,
    /// Attributes with their initial values (`true`/`false`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attributes: Vec<Attribute>,
    /// A dummy piece type (ZRF `(dummy)` in a piece).
    #[serde(default, skip_serializing_if = "is_false")]
    pub dummy: bool,
    /// Move blocks, in generation order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<MoveBlock>,
    /// Drop blocks, in generation order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drops: Vec<MoveBlock>,
    /// The players who have this piece type (Ludii's `(piece "Disc" P1)`); empty: every
    /// player (ZRF's piece types, Ludii's `Each`). Only its owners may drop it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub owners: Vec<String>,
    /// Content of this piece with no typed form yet.
    #[serde(default, skip_serializing_if = "Extensions::is_empty")]
    pub extensions: Extensions,
}

/// A piece image for a player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PieceImage {
    /// Player.
    pub player: String,
    /// File as written.
    pub file: String,
}

/// A piece attribute.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Attribute {
    /// Name.
    pub name: String,
    /// Initial value as written.
    pub value: String,
}

/// Where a player's pieces start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    /// Owner.
    pub player: String,
    /// Piece type.
    pub piece: String,
    /// Positions, in source order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<String>,
    /// Pieces held off the board (ZRF `off N`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub off: Option<u32>,
}

/// The kind of a goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum GoalKind {
    /// The listed players win when the condition holds.
    Win,
    /// The listed players lose.
    Loss,
    /// The game is drawn.
    Draw,
    /// ZRF `count-condition`: the game ends and is decided by counting.
    Count,
}

/// A win, loss, draw or count condition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Goal {
    /// Kind.
    pub kind: GoalKind,
    /// Players it applies to.
    pub players: Vec<String>,
    /// The condition.
    pub condition: GoalCond,
}

/// A goal condition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum GoalCond {
    /// The player has no legal move.
    Stalemated,
    /// The same position occurred three times.
    Repetition,
    /// A royal piece (of one of these types) is checkmated.
    Checkmated {
        /// The piece types.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pieces: Vec<String>,
    },
    /// A piece of one of these types was captured.
    Captured {
        /// The piece types.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pieces: Vec<String>,
    },
    /// Exactly `count` of the player's pieces (of `piece`, when given) remain.
    PiecesRemaining {
        /// Count as written.
        count: String,
        /// Piece type.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        piece: Option<String>,
    },
    /// Exactly `count` pieces (of `piece`, when given) of all players stand on the board.
    TotalPieceCount {
        /// Count as written.
        count: String,
        /// Piece type.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        piece: Option<String>,
    },
    /// Pieces stand on the given positions or zones (ZRF `absolute-config`).
    AbsoluteConfig {
        /// Piece types (written as separate arguments or as one list, see `grouped`).
        pieces: Vec<String>,
        /// The pieces were written as one list `(A B)` rather than as separate arguments.
        #[serde(default, skip_serializing_if = "is_false")]
        grouped: bool,
        /// Positions or zone names.
        positions: Vec<String>,
        /// Pieces of the opponent (ZRF `(opponent P)`).
        #[serde(default, skip_serializing_if = "is_false")]
        opponent: bool,
        /// Pieces of any type but those listed (ZRF `(not P)`, `(not (opponent P))`).
        #[serde(default, skip_serializing_if = "is_false")]
        negated: bool,
    },
    /// Pieces in a configuration relative to each other (ZRF `relative-config`), as written.
    RelativeConfig {
        /// The arguments, compact ZRF text each.
        args: Vec<String>,
    },
    /// The player has `length` pieces in a row along one board direction (Ludii `(is Line n)`).
    Line {
        /// Number of pieces in the row.
        length: u32,
        /// Directions the row may follow; empty means every board direction.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        directions: Vec<String>,
    },
    /// The player's pieces form one connected group touching every listed zone of that player
    /// (Ludii `(is Connected …)`); an empty list means every zone the player owns. Two pieces
    /// are joined along the listed directions; none listed means every board direction.
    Connected {
        /// Zone names.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        zones: Vec<String>,
        /// The directions that join two pieces of the group; empty means every board direction.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        directions: Vec<String>,
    },
    /// Both.
    And(Vec<GoalCond>),
    /// Either.
    Or(Vec<GoalCond>),
    /// Not.
    Not(Box<GoalCond>),
    /// Not modelled yet: the source text, tagged with its format; a diagnostic says so. An
    /// empty `text` is ZRF's empty condition.
    Raw {
        /// The format of `text`.
        format: RawFormat,
        /// The text as the source wrote it (compact).
        text: String,
    },
}

/// A block of a move program with its move type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveBlock {
    /// Move type (ZRF `(move-type T)` before the block).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_type: Option<String>,
    /// The instructions.
    pub program: Vec<Instr>,
}

/// One instruction of a move program. The current position starts at the moving piece (or,
/// for drops, is set by the first jump); a failed navigation or verification ends the block
/// without a move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Instr {
    /// Move one link in a direction (fails when there is none).
    Step(String),
    /// Move one link against a direction (ZRF `(opposite d)`).
    StepOpposite(String),
    /// Go to a named position.
    Jump(String),
    /// Remember the current position.
    Mark,
    /// Return to the remembered position.
    Back,
    /// ZRF `from` (`go: false`): the piece at the current position becomes the moving piece,
    /// its position the origin. ZRF `(go from)` (`go: true`): go to the origin.
    From {
        /// Written `(go from)`: move the current position, not the origin.
        #[serde(default, skip_serializing_if = "is_false")]
        go: bool,
    },
    /// ZRF `to` (`go: false`): the current position becomes the destination of the moving
    /// piece, whatever later navigation does. ZRF `(go to)` (`go: true`): go to the destination.
    To {
        /// Written `(go to)`: move the current position, not the destination.
        #[serde(default, skip_serializing_if = "is_false")]
        go: bool,
    },
    /// End the block unless the condition holds.
    Verify(Cond),
    /// Conditional.
    If {
        /// Condition.
        cond: Cond,
        /// Instructions when it holds.
        #[serde(rename = "then")]
        then_: Vec<Instr>,
        /// Instructions otherwise.
        #[serde(default, rename = "else", skip_serializing_if = "Vec::is_empty")]
        else_: Vec<Instr>,
    },
    /// Loop while the condition holds.
    While {
        /// Condition.
        cond: Cond,
        /// Body.
        body: Vec<Instr>,
    },
    /// Complete a move here (ZRF `add`, `add-partial`, `add-copy`, `add-copy-partial`).
    Add {
        /// Promotion choices (the moving piece becomes one of them).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pieces: Vec<String>,
        /// The same piece may continue (a partial move).
        #[serde(default, skip_serializing_if = "is_false")]
        partial: bool,
        /// Leave a copy at the origin.
        #[serde(default, skip_serializing_if = "is_false")]
        copy: bool,
        /// For partial moves: the move type the continuation is restricted to.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        move_type: Option<String>,
    },
    /// Capture at the current position, or at `at`.
    Capture {
        /// Position or direction.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    /// Continue by moving another piece (castling).
    Cascade,
    /// Create a piece.
    Create {
        /// Owner (default: the mover).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
        /// Piece type (default: the moving piece's type).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        piece: Option<String>,
        /// Where (default: the current position).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    /// Turn a piece over to the opponent.
    Flip {
        /// Position or direction.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    /// Give a piece to another owner.
    ChangeOwner {
        /// Position or direction.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    /// Change a piece's type.
    ChangeType {
        /// New type.
        piece: String,
        /// Position or direction.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    /// Set a move-local flag.
    SetFlag {
        /// Flag.
        flag: String,
        /// Value.
        value: Cond,
    },
    /// Set a flag on a position.
    SetPositionFlag {
        /// Flag.
        flag: String,
        /// Value.
        value: Cond,
        /// Position (default: current).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    /// Set a piece attribute.
    SetAttribute {
        /// Attribute.
        name: String,
        /// Value.
        value: Cond,
        /// Position (default: current).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    /// Run the instructions of `procedures[n]` here.
    Call(usize),
    /// Chessembly `set-state(key, value)`: every move completed after this instruction in this
    /// block also sets the mover's integer state register `key` to `value` (changes accumulate
    /// in order).
    SetState {
        /// Register name.
        key: String,
        /// New value.
        value: i64,
    },
    /// Chessembly bare `set-state`: moves completed after this instruction carry no state
    /// changes (the pending changes are dropped).
    ClearState,
    /// Not modelled: the source text, tagged with its format (a diagnostic names it).
    Raw {
        /// The format of `text`.
        format: RawFormat,
        /// The text as the source wrote it (compact).
        text: String,
    },
}

impl Instr {
    /// A plain `add`: the piece lands as it is and the move ends.
    pub fn plain_add() -> Instr {
        Instr::Add {
            pieces: Vec::new(),
            partial: false,
            copy: false,
            move_type: None,
        }
    }
}

/// A condition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Cond {
    /// A constant.
    Const(bool),
    /// A test of a position (current, or `at`: a position or direction).
    Test {
        /// What is tested.
        test: Test,
        /// Position or direction (default: current).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
        /// For attack tests: only attacks of this move type count.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        move_type: Option<String>,
    },
    /// A piece of this type stands there.
    Piece {
        /// Piece type.
        piece: String,
        /// Position or direction (default: current).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    /// The position is in the zone (for the mover).
    InZone {
        /// Zone.
        zone: String,
        /// Position (default: current).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    /// There is a link in this direction (without one: the current position is on the board).
    OnBoard {
        /// Direction.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        direction: Option<String>,
    },
    /// The current position is this one.
    Position {
        /// Position.
        position: String,
    },
    /// A move-local flag is set.
    Flag {
        /// Flag.
        flag: String,
    },
    /// A position flag is set.
    PositionFlag {
        /// Flag.
        flag: String,
        /// Position (default: current).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    /// A piece attribute is true.
    Attribute {
        /// Attribute.
        name: String,
        /// Position (default: current).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    /// Negation.
    Not(Box<Cond>),
    /// Conjunction.
    And(Vec<Cond>),
    /// Disjunction.
    Or(Vec<Cond>),
    /// Chessembly `if-state(key, value)`: the mover's integer state register `key` (0 when never
    /// set) equals `value`.
    State {
        /// Register name.
        key: String,
        /// Compared value.
        value: i64,
    },
    /// Not modelled: the source text, tagged with its format (a diagnostic names it).
    Raw {
        /// The format of `text`.
        format: RawFormat,
        /// The text as the source wrote it (compact).
        text: String,
    },
}

/// Position tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Test {
    /// No piece.
    Empty,
    /// A piece of the mover.
    Friend,
    /// A piece of an opponent.
    Enemy,
    /// A piece of nobody.
    Neutral,
    /// The position the last move started from.
    LastFrom,
    /// The position the last move ended on.
    LastTo,
    /// The marked position.
    Marked,
    /// Attacked by the opponent.
    Attacked,
    /// Defended by the mover.
    Defended,
    /// A goal position (highlighted goals).
    GoalPosition,
    /// Adjacent to an enemy piece.
    AdjacentToEnemy,
}

/// The format of content kept verbatim (`raw` items and `extensions`), as pandoc tags its raw
/// blocks: the language the text is written in, so a writer of that format can put it back and
/// every other writer knows it cannot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RawFormat {
    /// A ZRF form, compact text.
    Zrf,
    /// A Ludii ludeme, as `.lud` text (or a `.lud` `//` comment: the phrases the Ludii English
    /// reader could not map).
    Ludii,
    /// A Chessembly chain.
    Chessembly,
}

/// One piece of content kept verbatim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Extension {
    /// The format of `text`.
    pub format: RawFormat,
    /// The content, as text.
    pub text: String,
    /// ZRF: where the form stood, as its index among the items of the enclosing form (game,
    /// board or piece; 0 = the first item after the head). The ZRF writer puts the forms back
    /// there when every ZRF item of the list has a place, and after the typed forms otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<usize>,
}

/// Unmodelled content of a game, board or piece: a list of `Extension` items, in source order,
/// each tagged with its format.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct Extensions(pub Vec<Extension>);

impl Extensions {
    /// True when nothing is carried.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Extensions holding `texts`, all of `format`, with no places.
    pub fn of(format: RawFormat, texts: impl IntoIterator<Item = String>) -> Extensions {
        let mut x = Extensions::default();
        for text in texts {
            x.push(format, text);
        }
        x
    }

    /// Adds an item of `format` with no place.
    pub fn push(&mut self, format: RawFormat, text: String) {
        self.0.push(Extension {
            format,
            text,
            at: None,
        });
    }

    /// The texts of `format`, in order.
    pub fn texts(&self, format: RawFormat) -> impl Iterator<Item = &String> {
        self.0
            .iter()
            .filter(move |e| e.format == format)
            .map(|e| &e.text)
    }

    /// How many items of `format` are carried.
    pub fn count(&self, format: RawFormat) -> usize {
        self.texts(format).count()
    }

    /// Removes every item of `format`.
    pub fn remove(&mut self, format: RawFormat) {
        self.0.retain(|e| e.format != format);
    }

    /// Adds a ZRF form that stood at item `at` of its enclosing form (`None`: not a direct
    /// item, so places are not known for this list's ZRF items any more). Places are given for
    /// every ZRF item of the list or for none.
    ///
    /// Constant time per item (a list of 65,536 unknown sections took 2 s when every push looked
    /// at every earlier item): this function keeps the places all given or all unknown, so the
    /// last ZRF item tells which, and they are forgotten once, when the first unplaced one comes.
    pub fn push_zrf(&mut self, text: String, at: Option<usize>) {
        let last = self.0.iter().rev().find(|e| e.format == RawFormat::Zrf);
        let known = last.is_none_or(|e| e.at.is_some());
        let at = at.filter(|_| known);
        if at.is_none() && known && last.is_some() {
            for e in self.0.iter_mut().filter(|e| e.format == RawFormat::Zrf) {
                e.at = None;
            }
        }
        self.0.push(Extension {
            format: RawFormat::Zrf,
            text,
            at,
        });
    }

    /// The ZRF forms with their places, when every one is known.
    pub fn zrf_placed(&self) -> Option<impl Iterator<Item = (&String, usize)>> {
        let zrf = || self.0.iter().filter(|e| e.format == RawFormat::Zrf);
        zrf()
            .all(|e| e.at.is_some())
            .then(|| zrf().filter_map(|e| Some((&e.text, e.at?))))
    }
}
