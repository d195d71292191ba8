//! From the portable game spec to what the renderer draws: [`from_spec`] turns one game of a
//! [`Document`] into a [`RenderPlan`] (board size and unit, zones, one tile per piece face and
//! side, file names, setup cells). Pure: no I/O, no drawing.
//!
//! ## Board
//! Every position is drawn at its own rectangle ([`Sheet::of_board`]): any board the spec
//! describes, at the author's coordinates. Only when the grid is laid out anew
//! ([`PlanOptions::redraw`]: `--unit`, `--labels`, or positions without rectangles) must the
//! board be one rectangular grid: `boards[0].layout.grids[0]` with exactly two dimensions, one
//! moving only along x and one only along y, by the same number of pixels (the unit); other
//! boards are then refused with a [`PlanError`] that says why. A negative offset flips that
//! axis (column or row 0 is then the label drawn at the left or top). Zones become shading
//! candidates (cells per zone).
//!
//! ## Colour classes (rendering.md §3.2), derived from the promotion data
//! - **Promotion edges.** Piece P promotes to T when one of P's move or drop programs (procedures
//!   followed through `call`) completes a move with `add` listing T, or changes type to T, and
//!   T ≠ P. An `add` inside the *then* branch of an `if` whose condition tests which piece stands
//!   somewhere (`piece?`) is a capture-dependent special rule (Tai Shogi's 無明/提婆 rule), not
//!   P's own promotion: it makes T a promoted face but does not make P "promoting". The `else`
//!   branch is the default and counts.
//! - **Promoted face**: a piece that is the target of some edge (special rules included) and is
//!   not placed in the setup. (So chess's queen, which a pawn promotes to but which also starts
//!   on the board, is not a promoted face.)
//! - **Royal**: a piece named by a `checkmated`, `captured` or `pieces-remaining 0` condition of
//!   a win or loss goal (inside `and`/`or`, not under `not`).
//! - The class is then [`ColourClass::derive`]`(promoted face, has an own edge, royal)`;
//!   [`PlanOptions::classes`] overrides it per piece.
//!
//! ## Names on the tiles
//! The piece name as written (kanji as they are, Latin names for western pieces), except that
//! a promoted face named `成X`, where `X` is another piece of the game, shows `X` (the way
//! Tai Shogi names promoted faces that share kanji with a starting piece; the colour tells them
//! apart). [`PlanOptions::names`] overrides the text per piece.
//!
//! ## File names
//! A piece's image for a player is the spec's own (`images/TaiShogi/ab_S.bmp`) when it has one
//! that is a safe relative path not used by another tile; otherwise `<name>_S` / `<name>_G`
//! in the board image's folder, with `<name>` the ASCII-sanitised piece name, or `pieceNNN`
//! (1-based index in the game's piece list) for names that are not ASCII. Board images likewise: the spec's first two, or `board` / `board_check`.
//! The extension is always the output format's.

use super::ColourClass;
use super::Side;
use super::lines::GameFacts;
use super::sheet::{Sheet, SheetStyle};
use super::token::{self, PieceStyle};
use crate::spec::{Cond, Document, Game, GoalCond, GoalKind, Instr, moves};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Image file format of the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ImageFormat {
    /// 24-bit BMP, what ZoG loads.
    #[default]
    Bmp,
    /// PNG (for other programs and previews).
    Png,
}

impl ImageFormat {
    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            ImageFormat::Bmp => "bmp",
            ImageFormat::Png => "png",
        }
    }
}

/// Options of [`from_spec`].
#[derive(Debug, Clone, Default)]
pub struct PlanOptions {
    /// Cell pitch in pixels instead of the grid's own offset.
    pub unit: Option<u32>,
    /// Output format (decides file extensions).
    pub format: ImageFormat,
    /// Colour class per piece name, overriding the derived one.
    pub classes: BTreeMap<String, ColourClass>,
    /// Text drawn on the tile per piece name, overriding the derived one.
    pub names: BTreeMap<String, String>,
    /// Lay the grid out anew (zogkit's own coordinates: `--unit`, `--labels`) instead of
    /// drawing the positions at their rectangles.
    pub redraw: bool,
    /// Draw the cells in this style instead of the detected one.
    pub style: Option<SheetStyle>,
}

/// Why a game cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanError(pub String);

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PlanError {}

/// One axis of the grid as drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Axis {
    /// Index of the spec dimension drawn along this axis.
    pub dimension: usize,
    /// Labels in the order drawn (left to right, or top to bottom).
    pub labels: Vec<String>,
    /// The spec's labels run against the drawing direction (negative offset).
    pub reversed: bool,
}

/// A zone as cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanZone {
    /// Zone name.
    pub name: String,
    /// Players it belongs to.
    pub players: Vec<String>,
    /// Cells, as indexes into [`BoardPlan::sheet`]'s cells.
    pub cells: Vec<usize>,
}

/// The board to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardPlan {
    /// The cells as drawn: at the positions' own rectangles, or (with [`BoardPlan::grid`]) a
    /// grid zogkit lays out, cell `row · files + col`, without label margin.
    pub sheet: Sheet,
    /// The grid zogkit lays out, when the positions are not drawn at their own rectangles.
    pub grid: Option<GridPlan>,
    /// Zones of the board.
    pub zones: Vec<PlanZone>,
    /// Plain board file (relative, `/`-separated).
    pub file: String,
    /// Checkered twin file.
    pub checkered_file: String,
}

/// A rectangular grid zogkit lays out itself (module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct GridPlan {
    /// Columns.
    pub files: u32,
    /// Rows.
    pub ranks: u32,
    /// Cell pitch in pixels.
    pub unit: u32,
    /// Horizontal axis.
    pub x: Axis,
    /// Vertical axis.
    pub y: Axis,
    /// The grid's directions as label deltas per spec dimension (for the ZRF fragment).
    pub directions: Vec<(String, Vec<i64>)>,
}

/// One face of a piece for one side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TilePlan {
    /// Player name.
    pub player: String,
    /// The player's index in [`RenderPlan::players`].
    pub index: usize,
    /// Orientation of a pentagon (players after the first are [`Side::Second`]).
    pub side: Side,
    /// File (relative, `/`-separated).
    pub file: String,
}

/// One piece type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PiecePlan {
    /// Piece name in the spec.
    pub piece: String,
    /// Text drawn on the tile.
    pub text: String,
    /// Name colour class.
    pub class: ColourClass,
    /// Whether the class came from [`PlanOptions::classes`].
    pub class_overridden: bool,
    /// Pentagon, token or chess glyph ([`super::token::piece_styles`]).
    pub style: PieceStyle,
    /// One tile per player drawn, in player order.
    pub tiles: Vec<TilePlan>,
}

/// A piece on a cell at the start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupCell {
    /// Index into [`BoardPlan::sheet`]'s cells.
    pub cell: usize,
    /// Index into [`RenderPlan::pieces`].
    pub piece: usize,
    /// Orientation of its owner.
    pub side: Side,
    /// Its owner's index in [`RenderPlan::players`].
    pub player: usize,
}

/// Everything to draw for one game.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderPlan {
    /// Game title.
    pub title: String,
    /// Index of the game in the document.
    pub game: usize,
    /// The players drawn: the first two of a game with pentagon pieces, up to eight otherwise.
    pub players: Vec<String>,
    /// The board.
    pub board: BoardPlan,
    /// The pieces, in spec order (dummy pieces left out).
    pub pieces: Vec<PiecePlan>,
    /// The start position.
    pub setup: Vec<SetupCell>,
    /// Non-fatal notes (renamed files, skipped players, setup off the grid).
    pub notes: Vec<String>,
}

/// Builds the render plan of `doc.games[game]` (see the module docs for every rule).
pub fn from_spec(doc: &Document, game: usize, opts: &PlanOptions) -> Result<RenderPlan, PlanError> {
    let g = doc
        .games
        .get(game)
        .ok_or_else(|| PlanError(format!("the document has no game {}", game + 1)))?;
    let board = board_plan(g, &doc.procedures, opts)?;
    let mut notes = board.sheet.notes.clone();
    // Pentagons tell two players apart by rotation; tokens and chess men by colour, so a
    // game without pentagons draws every player.
    let styles = token::piece_styles(g, &doc.procedures);
    let pentagons = styles.contains(&PieceStyle::Pentagon);
    let drawn = if pentagons { 2 } else { token::PALETTE.len() };
    let players: Vec<String> = g.players.iter().take(drawn).cloned().collect();
    if g.players.len() > drawn {
        notes.push(format!(
            "only the first {drawn} players are drawn (the game has {}: {})",
            g.players.len(),
            g.players.join(", ")
        ));
    }
    if players.is_empty() {
        return Err(PlanError(format!("game {:?} has no players", g.title)));
    }
    let facts = PromotionFacts::of(doc, g);
    let ext = opts.format.extension();
    let mut used: BTreeSet<String> = BTreeSet::new();
    used.insert(board.file.to_ascii_lowercase());
    used.insert(board.checkered_file.to_ascii_lowercase());
    // Pieces without usable images of their own go next to the board image.
    let folder = match board.file.rfind('/') {
        Some(i) => board.file[..=i].to_string(),
        None => String::new(),
    };
    let piece_names: BTreeSet<&str> = g.pieces.iter().map(|p| p.name.as_str()).collect();
    let labels = token::token_labels(g);
    let mut pieces = Vec::new();
    for (pi, p) in g.pieces.iter().enumerate() {
        if p.dummy {
            continue;
        }
        let derived = facts.class(&p.name);
        let (class, class_overridden) = match opts.classes.get(&p.name) {
            Some(c) => (*c, true),
            None => (derived, false),
        };
        let style = styles[pi];
        let text = opts.names.get(&p.name).cloned().unwrap_or_else(|| {
            match (style, p.name.strip_prefix('成')) {
                (PieceStyle::Xiangqi { man, janggi }, _) => {
                    man.characters(janggi, true)[0].to_string()
                }
                (s, _) if s != PieceStyle::Pentagon => labels[pi].clone(),
                (_, Some(rest))
                    if facts.promoted_faces.contains(p.name.as_str())
                        && piece_names.contains(rest) =>
                {
                    rest.to_string()
                }
                _ => p.name.clone(),
            }
        });
        let stem = format!("{folder}{}", sanitise(&p.name, pi));
        let mut tiles = Vec::new();
        for (i, player) in players.iter().enumerate() {
            let side = if i == 0 { Side::First } else { Side::Second };
            let own = p
                .images
                .iter()
                .find(|im| im.player == *player)
                .and_then(|im| safe_relative(&im.file))
                .map(|f| with_extension(&f, ext));
            let suffix = match i {
                0 | 1 => side.suffix().to_string(),
                _ => format!("P{}", i + 1),
            };
            let fallback = format!("{stem}_{suffix}.{ext}");
            let file = match own {
                Some(f) if !used.contains(&f.to_ascii_lowercase()) => f,
                Some(f) => {
                    notes.push(format!(
                        "piece {}: image {f} is used by another tile; writing {} instead",
                        p.name,
                        unique(&fallback, &used)
                    ));
                    unique(&fallback, &used)
                }
                None => unique(&fallback, &used),
            };
            used.insert(file.to_ascii_lowercase());
            tiles.push(TilePlan {
                player: player.clone(),
                index: i,
                side,
                file,
            });
        }
        pieces.push(PiecePlan {
            piece: p.name.clone(),
            text,
            class,
            class_overridden,
            style,
            tiles,
        });
    }
    let setup = setup_cells(g, &board, &players, &pieces, &mut notes);
    Ok(RenderPlan {
        title: g.title.clone(),
        game,
        players,
        board,
        pieces,
        setup,
        notes,
    })
}

fn board_plan(
    g: &Game,
    procedures: &[Vec<Instr>],
    opts: &PlanOptions,
) -> Result<BoardPlan, PlanError> {
    let title = &g.title;
    let b = g
        .boards
        .first()
        .ok_or_else(|| PlanError(format!("game {title:?} has no board")))?;
    let drawable = b
        .positions
        .iter()
        .all(|p| p.dummy || p.killed || p.rect.is_some());
    let (sheet, grid) = if drawable && !opts.redraw {
        let facts = GameFacts::of(g, procedures);
        let sheet = Sheet::of_board(b, opts.style, &facts)
            .map_err(|e| PlanError(format!("game {title:?}: {e}")))?;
        (sheet, None)
    } else {
        let grid = grid_plan(g, b, opts)?;
        let mut sheet = Sheet::of_grid(grid.files, grid.ranks, grid.unit, 0);
        if let Some(style) = opts.style {
            sheet.style = style;
        }
        (sheet, Some(grid))
    };
    let cells = cell_map(g, &sheet, grid.as_ref());
    let zones = b
        .zones
        .iter()
        .map(|z| PlanZone {
            name: z.name.clone(),
            players: z.players.clone(),
            cells: z
                .positions
                .iter()
                .filter_map(|p| cells.get(p.as_str()).copied())
                .collect(),
        })
        .collect();
    let file = b
        .images
        .first()
        .and_then(|f| safe_relative(f))
        .unwrap_or_else(|| "board".into());
    let checkered = b
        .images
        .get(1)
        .and_then(|f| safe_relative(f))
        .filter(|c| !c.eq_ignore_ascii_case(&file))
        .unwrap_or_else(|| format!("{}_check", strip_extension(&file)));
    let ext = opts.format.extension();
    Ok(BoardPlan {
        sheet,
        grid,
        zones,
        file: with_extension(&file, ext),
        checkered_file: with_extension(&checkered, ext),
    })
}

/// The grid zogkit lays out: one rectangular grid of two axis-parallel dimensions.
fn grid_plan(g: &Game, b: &crate::spec::Board, opts: &PlanOptions) -> Result<GridPlan, PlanError> {
    let title = &g.title;
    let layout = &b.layout;
    let grid = match layout.grids.as_slice() {
        [] => {
            return Err(PlanError(format!(
                "game {title:?}: the board is not a grid ({} positions listed one by one); only rectangular grids can be drawn",
                layout.positions.len()
            )));
        }
        [g] => g,
        gs => {
            return Err(PlanError(format!(
                "game {title:?}: the board is made of {} grids; only one rectangular grid can be drawn",
                gs.len()
            )));
        }
    };
    if !layout.positions.is_empty() {
        return Err(PlanError(format!(
            "game {title:?}: the board adds {} listed positions to its grid; only a plain rectangular grid can be drawn",
            layout.positions.len()
        )));
    }
    if grid.dimensions.len() != 2 {
        return Err(PlanError(format!(
            "game {title:?}: the grid has {} dimensions; a rectangular board needs exactly 2",
            grid.dimensions.len()
        )));
    }
    let mut x = None;
    let mut y = None;
    let mut pitch = Vec::new();
    for (i, d) in grid.dimensions.iter().enumerate() {
        let [dx, dy] = d.offset;
        let axis = |delta: i64| Axis {
            dimension: i,
            labels: if delta < 0 {
                d.labels.iter().rev().cloned().collect()
            } else {
                d.labels.clone()
            },
            reversed: delta < 0,
        };
        match (dx, dy) {
            (dx, 0) if dx != 0 && x.is_none() => {
                x = Some(axis(dx));
                pitch.push(dx.unsigned_abs());
            }
            (0, dy) if dy != 0 && y.is_none() => {
                y = Some(axis(dy));
                pitch.push(dy.unsigned_abs());
            }
            _ => {
                return Err(PlanError(format!(
                    "game {title:?}: dimension {} has offset ({dx} {dy}); a rectangular board needs one horizontal and one vertical dimension",
                    i + 1
                )));
            }
        }
    }
    let (Some(x), Some(y)) = (x, y) else {
        return Err(PlanError(format!(
            "game {title:?}: the grid needs one horizontal and one vertical dimension"
        )));
    };
    if pitch[0] != pitch[1] && opts.unit.is_none() {
        return Err(PlanError(format!(
            "game {title:?}: cells are {}×{} px; only square cells can be drawn (use --unit to choose one)",
            pitch[0], pitch[1]
        )));
    }
    let unit = match opts.unit {
        Some(u) => u,
        None => u32::try_from(pitch[0])
            .map_err(|_| PlanError(format!("game {title:?}: cell pitch {} px", pitch[0])))?,
    };
    if !(4..=512).contains(&unit) {
        return Err(PlanError(format!(
            "game {title:?}: a {unit}-px unit is outside 4…512 (use --unit)"
        )));
    }
    let (files, ranks) = (x.labels.len() as u32, y.labels.len() as u32);
    if files == 0 || ranks == 0 || files > 256 || ranks > 256 {
        return Err(PlanError(format!(
            "game {title:?}: a {files}×{ranks} grid; files and ranks must be 1…256"
        )));
    }
    let directions: Vec<(String, Vec<i64>)> = grid
        .directions
        .iter()
        .map(|d| (d.name.clone(), d.delta.clone()))
        .collect();
    Ok(GridPlan {
        files,
        ranks,
        unit,
        x,
        y,
        directions,
    })
}

/// Position name → sheet cell: by name on a sheet of rectangles; by grid coordinates
/// (`row · files + col`) on a grid zogkit lays out.
fn cell_map<'g>(g: &'g Game, sheet: &Sheet, grid: Option<&GridPlan>) -> BTreeMap<&'g str, usize> {
    let mut m = BTreeMap::new();
    let Some(b) = g.boards.first() else {
        return m;
    };
    let Some(grid) = grid else {
        let index = sheet.index();
        for p in &b.positions {
            if let Some(&i) = index.get(p.name.as_str()) {
                m.insert(p.name.as_str(), i);
            }
        }
        return m;
    };
    let (x, y) = (&grid.x, &grid.y);
    let (nx, ny) = (x.labels.len(), y.labels.len());
    for p in &b.positions {
        let Some(gc) = p.grid.as_ref().filter(|gc| gc.grid == 0) else {
            continue;
        };
        let (Some(&cx), Some(&cy)) = (gc.coords.get(x.dimension), gc.coords.get(y.dimension))
        else {
            continue;
        };
        if cx >= nx || cy >= ny || p.killed {
            continue;
        }
        let col = if x.reversed { nx - 1 - cx } else { cx };
        let row = if y.reversed { ny - 1 - cy } else { cy };
        m.insert(p.name.as_str(), row * nx + col);
    }
    m
}

fn setup_cells(
    g: &Game,
    board: &BoardPlan,
    players: &[String],
    pieces: &[PiecePlan],
    notes: &mut Vec<String>,
) -> Vec<SetupCell> {
    let cells = cell_map(g, &board.sheet, board.grid.as_ref());
    let index: BTreeMap<&str, usize> = pieces
        .iter()
        .enumerate()
        .map(|(i, p)| (p.piece.as_str(), i))
        .collect();
    let mut out = Vec::new();
    for pl in &g.setup {
        let Some(player) = players.iter().position(|p| *p == pl.player) else {
            continue;
        };
        let side = if player == 0 {
            Side::First
        } else {
            Side::Second
        };
        let Some(&piece) = index.get(pl.piece.as_str()) else {
            continue;
        };
        for pos in &pl.positions {
            match cells.get(pos.as_str()) {
                Some(&cell) => out.push(SetupCell {
                    cell,
                    piece,
                    side,
                    player,
                }),
                None => notes.push(format!(
                    "setup: {} {} on {pos}, which is not a drawn cell, is not drawn",
                    pl.player, pl.piece
                )),
            }
        }
    }
    out
}

/// Promotion and royalty facts of a game (module docs).
#[derive(Debug, Default)]
struct PromotionFacts<'a> {
    /// Pieces with an own (not capture-dependent) promotion edge.
    promoting: BTreeSet<&'a str>,
    /// Targets of any edge that are not placed in the setup.
    promoted_faces: BTreeSet<&'a str>,
    royals: BTreeSet<&'a str>,
}

impl<'a> PromotionFacts<'a> {
    fn of(doc: &'a Document, g: &'a Game) -> PromotionFacts<'a> {
        let mut f = PromotionFacts::default();
        let mut targets: BTreeSet<&str> = BTreeSet::new();
        for p in &g.pieces {
            let mut own = BTreeSet::new();
            let mut special = BTreeSet::new();
            // Instructions visited per piece (procedures may be shared widely).
            let mut budget = 1_000_000;
            for block in p.moves.iter().chain(&p.drops) {
                moves::visit(
                    &block.program,
                    &doc.procedures,
                    &mut budget,
                    &mut |ins, around| {
                        let guarded = around
                            .iter()
                            .any(|b| matches!(b, moves::Branch::Then(c) if tests_piece(c)));
                        let set = if guarded { &mut special } else { &mut own };
                        match ins {
                            Instr::Add { pieces, .. } => {
                                set.extend(pieces.iter().map(String::as_str))
                            }
                            Instr::ChangeType { piece, at: None } => {
                                set.insert(piece.as_str());
                            }
                            _ => {}
                        }
                    },
                );
            }
            own.remove(p.name.as_str());
            special.remove(p.name.as_str());
            if !own.is_empty() {
                f.promoting.insert(p.name.as_str());
            }
            targets.extend(own);
            targets.extend(special);
        }
        let placed: BTreeSet<&str> = g
            .setup
            .iter()
            .filter(|s| !s.positions.is_empty() || s.off.unwrap_or(0) > 0)
            .map(|s| s.piece.as_str())
            .collect();
        f.promoted_faces = targets.difference(&placed).copied().collect();
        for goal in &g.goals {
            if matches!(goal.kind, GoalKind::Win | GoalKind::Loss) {
                royals_in(&goal.condition, &mut f.royals);
            }
        }
        f
    }

    fn class(&self, piece: &str) -> ColourClass {
        ColourClass::derive(
            self.promoted_faces.contains(piece),
            self.promoting.contains(piece),
            self.royals.contains(piece),
        )
    }
}

fn tests_piece(c: &Cond) -> bool {
    match c {
        Cond::Piece { .. } => true,
        Cond::Not(c) => tests_piece(c),
        Cond::And(cs) | Cond::Or(cs) => cs.iter().any(tests_piece),
        _ => false,
    }
}

fn royals_in<'a>(c: &'a GoalCond, out: &mut BTreeSet<&'a str>) {
    match c {
        GoalCond::Checkmated { pieces } | GoalCond::Captured { pieces } => {
            out.extend(pieces.iter().map(String::as_str));
        }
        GoalCond::PiecesRemaining {
            count,
            piece: Some(p),
        } if count.trim() == "0" => {
            out.insert(p);
        }
        GoalCond::And(cs) | GoalCond::Or(cs) => {
            for c in cs {
                royals_in(c, out);
            }
        }
        _ => {}
    }
}

/// Longest piece name used as a file stem; longer names get `pieceNNN` (file systems limit a
/// name to 255 bytes, and ZoG's image lists are not the place for essays).
pub const MAX_STEM: usize = 64;

/// An ASCII file stem for a piece: its name with characters other than letters, digits, `-`
/// and `_` replaced by `_`; `pieceNNN` (1-based spec index) when the name is not ASCII or is
/// longer than [`MAX_STEM`].
pub fn sanitise(name: &str, index: usize) -> String {
    if !name.is_ascii() || name.trim().is_empty() || name.len() > MAX_STEM {
        return format!("piece{:03}", index + 1);
    }
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// A spec image path as a safe relative path with `/` separators, or `None` when it is
/// absolute, climbs out (`..`), names a drive, holds a quote or a control character, or is empty.
pub fn safe_relative(path: &str) -> Option<String> {
    let parts: Vec<&str> = path
        .split(['/', '\\'])
        .filter(|c| !c.is_empty() && *c != ".")
        .collect();
    let bad = path.starts_with(['/', '\\'])
        || parts.is_empty()
        || parts
            .iter()
            .any(|c| *c == ".." || c.contains([':', '"']) || c.chars().any(|ch| ch.is_control()));
    (!bad).then(|| parts.join("/"))
}

fn strip_extension(path: &str) -> &str {
    let name_start = path.rfind('/').map_or(0, |i| i + 1);
    match path[name_start..].rfind('.') {
        Some(dot) if dot > 0 => &path[..name_start + dot],
        _ => path,
    }
}

fn with_extension(path: &str, ext: &str) -> String {
    format!("{}.{ext}", strip_extension(path))
}

fn unique(file: &str, used: &BTreeSet<String>) -> String {
    if !used.contains(&file.to_ascii_lowercase()) {
        return file.to_string();
    }
    let stem = strip_extension(file);
    let ext = &file[stem.len()..];
    (2..)
        .map(|n| format!("{stem}-{n}{ext}"))
        .find(|f| !used.contains(&f.to_ascii_lowercase()))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(zrf: &str) -> Document {
        crate::tests::zrf_doc(zrf)
    }

    fn game(board: &str, rest: &str) -> String {
        format!("(game (title \"t\") (players White Black) (board {board}) {rest})")
    }

    const CHESSLIKE: &str = "(piece (name Pawn) (moves ((n) (verify empty?) (if (in-zone? last) (add Queen Rook) else add))))
        (piece (name Queen) (moves ((n) add)))
        (piece (name Rook) (moves ((e) add)))
        (piece (name King) (moves ((s) add)))
        (board-setup (White (Pawn a1) (Queen b1) (King c1)) (Black (King c3)))
        (loss-condition (White Black) (checkmated King))";

    #[test]
    fn reversed_axis_and_chess_like_classes() {
        let d = doc(&game(
            "(grid (start-rectangle 0 100 50 150) (dimensions (\"a/b/c\" (50 0)) (\"1/2/3\" (0 -50)))
               (directions (n 0 1) (e 1 0) (s 0 -1)))
             (zone (name last) (players White) (positions a3 b3 c3))",
            CHESSLIKE,
        ));
        let opts = PlanOptions {
            redraw: true,
            ..Default::default()
        };
        let plan = from_spec(&d, 0, &opts).unwrap();
        let b = plan.board.grid.as_ref().unwrap();
        assert_eq!((b.files, b.ranks, b.unit), (3, 3, 50));
        assert!(b.y.reversed && !b.x.reversed);
        assert_eq!(b.y.labels, ["3", "2", "1"], "drawn top to bottom");
        // a1 is the bottom-left cell (row 2, cell 6); the zone is the top row.
        let pawn = plan.setup.iter().find(|c| c.piece == 0).unwrap();
        assert_eq!((pawn.cell, pawn.side), (6, Side::First));
        let black_king = plan.setup.iter().find(|c| c.side == Side::Second).unwrap();
        assert_eq!(black_king.cell, 2);
        assert_eq!(plan.board.zones[0].cells, [0, 1, 2]);
        // At its own rectangles, a1 is the cell at (0 100 50 150).
        let own = from_spec(&d, 0, &PlanOptions::default()).unwrap();
        let a1 = own.setup.iter().find(|c| c.piece == 0).unwrap().cell;
        assert_eq!(own.board.sheet.cells[a1].rect, [0, 100, 50, 150]);
        // The queen is a promotion target but starts on the board: not a promoted face. The
        // rook is a target that is never placed: promoted.
        let class: Vec<ColourClass> = plan.pieces.iter().map(|p| p.class).collect();
        assert_eq!(
            class,
            [
                ColourClass::Unpromoted,
                ColourClass::NeverPromoting,
                ColourClass::Promoted,
                ColourClass::RoyalNeverPromoting
            ]
        );
        assert_eq!(plan.pieces[0].tiles[1].file, "Pawn_G.bmp");
        // Pawn, queen and rook make a chess game: chess glyphs, labelled by short names.
        use crate::render::token::ChessMan;
        assert_eq!(plan.pieces[0].style, PieceStyle::Chess(ChessMan::Pawn));
        assert_eq!(plan.pieces[3].style, PieceStyle::Chess(ChessMan::King));
        assert_eq!(plan.pieces[0].text, "P");
        assert_eq!(plan.board.file, "board.bmp");
        assert_eq!(plan.board.checkered_file, "board_check.bmp");
        // The manifest keeps the spec's axis directions: row 0 is label 3.
        let style = crate::render::BoardStyle {
            unit: 50,
            ..crate::render::BoardStyle::new(3, 3)
        };
        let g = crate::render::BoardGeometry::of(&style);
        let m = crate::render::images::ImageManifest::of(&plan, Some(&g), vec!["board.bmp".into()]);
        assert_eq!(m.start_rectangle, Some([1, 101, 50, 150]));
        assert_eq!(m.offsets, [[50, 0], [0, -50]]);
        let frag = crate::render::images::zrf_fragment(&plan, &m);
        assert!(
            frag.contains("(dimensions (\"a/b/c\" (50 0)) (\"1/2/3\" (0 -50)))"),
            "{frag}"
        );
        assert!(
            frag.contains("(directions (n 0 1) (e 1 0) (s 0 -1))"),
            "{frag}"
        );
    }

    #[test]
    fn every_board_draws_at_its_rectangles_and_only_redrawing_needs_a_grid() {
        let redraw = PlanOptions {
            redraw: true,
            ..Default::default()
        };
        let plan = |board: &str, opts: &PlanOptions| {
            from_spec(&doc(&game(board, "(piece (name P))")), 0, opts).map_err(|e| e.to_string())
        };
        let cases = [
            ("(positions (a 0 0 12 12) (b 12 0 24 12))", 2, "not a grid"),
            (
                "(grid (start-rectangle 0 0 12 12) (dimensions (\"a/b\" (12 0)) (\"1/2\" (0 12))))
                 (grid (start-rectangle 50 0 62 12) (dimensions (\"c/d\" (12 0)) (\"3/4\" (0 12))))",
                8,
                "2 grids",
            ),
            (
                "(grid (start-rectangle 0 0 12 12) (dimensions (\"a/b\" (12 6)) (\"1/2\" (0 12))))",
                4,
                "offset (12 6)",
            ),
            (
                "(grid (start-rectangle 0 0 12 12) (dimensions (\"a/b/c\" (12 0))))",
                3,
                "1 dimensions",
            ),
        ];
        for (board, cells, refusal) in cases {
            let p = plan(board, &PlanOptions::default()).unwrap();
            assert!(p.board.grid.is_none(), "{board}");
            assert_eq!(p.board.sheet.cells.len(), cells, "{board}");
            assert_eq!(p.board.sheet.cells[0].rect, [0, 0, 12, 12], "{board}");
            let e = plan(board, &redraw).unwrap_err();
            assert!(e.contains(refusal), "{e}");
        }
        let oblong =
            "(grid (start-rectangle 0 0 12 24) (dimensions (\"a/b\" (12 0)) (\"1/2\" (0 24))))";
        let p = plan(oblong, &PlanOptions::default()).unwrap();
        assert_eq!(p.board.sheet.cells[3].rect, [12, 24, 24, 48]);
        let e = plan(oblong, &redraw).unwrap_err();
        assert!(e.contains("12×24") && e.contains("--unit"), "{e}");
        let opts = PlanOptions {
            unit: Some(31),
            redraw: true,
            ..Default::default()
        };
        assert_eq!(plan(oblong, &opts).unwrap().board.grid.unwrap().unit, 31);
    }

    #[test]
    fn paths_are_made_safe() {
        assert_eq!(
            safe_relative("images\\TaiShogi\\ab_S.bmp").as_deref(),
            Some("images/TaiShogi/ab_S.bmp")
        );
        assert_eq!(safe_relative("../x.bmp"), None);
        assert_eq!(safe_relative("/etc/x.bmp"), None);
        assert_eq!(safe_relative("C:\\x.bmp"), None);
        assert_eq!(with_extension("a/b.c/board.bmp", "png"), "a/b.c/board.png");
        assert_eq!(with_extension("a/b.c/board", "bmp"), "a/b.c/board.bmp");
        assert_eq!(sanitise("Silver General", 3), "Silver_General");
        assert_eq!(sanitise("金将", 3), "piece004");
        assert_eq!(sanitise(&"Q".repeat(MAX_STEM), 0).len(), MAX_STEM);
        assert_eq!(sanitise(&"Q".repeat(MAX_STEM + 1), 0), "piece001");
        let used: BTreeSet<String> = ["k_s.bmp".to_string()].into();
        assert_eq!(unique("K_S.bmp", &used), "K_S-2.bmp");
    }
}
