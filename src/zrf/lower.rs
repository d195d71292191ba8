//! ZRF → spec: turns expanded games and variants into portable [`spec::Document`]s.
//!
//! Every form of the game grammar has a typed place in the spec; a form that has none yet is
//! kept verbatim (compact ZRF text) under `extensions` (as `zrf` items) and reported once per keyword and
//! file (`zrf::unmodelled`). Names in move programs are resolved against the game: an atom is a
//! direction, a position or an instruction; one that is none of these is kept as `raw` and
//! reported (`zrf::unknown-name`). Every diagnostic points at the call in the input that
//! produced the offending node.

use super::ZrfFile;
use super::expand::{EntryKind, Sites};
use super::strings;
use crate::diag::{Diagnostic, Severity, Span};
use crate::sexpr::{Node, NodeKind};
use crate::spec::{self, geometry};
use crate::spec::{
    Attribute, Board, Cond, Dimension, Document, Extensions, Game, GameOption, Goal, GoalCond,
    GoalKind, Grid, GridDirection, Instr, Layout, LayoutLinks, LayoutPosition, MoveBlock, Piece,
    PieceImage, Placement, RawFormat, Sound, Source, Symmetry, Test, Texts, Turn, TurnOrder,
    Unlink, Zone,
};
use std::collections::{BTreeMap, BTreeSet};

/// What lowering produced besides the document.
#[derive(Debug, Clone, Default)]
pub struct Lowered {
    /// The document.
    pub document: Document,
    /// Problems and remarks.
    pub diagnostics: Vec<Diagnostic>,
    /// Forms kept verbatim because the spec has no typed form for them, by keyword.
    pub unmodelled: BTreeMap<String, usize>,
}

impl Default for Document {
    fn default() -> Self {
        Document {
            spec_version: spec::SPEC_VERSION.to_string(),
            source: Source::default(),
            games: Vec::new(),
            procedures: Vec::new(),
        }
    }
}

/// Where each game form, piece form and move or drop block of `file` stands, for the games of
/// `doc` that [`lower_with`] made from it (pieces matched by name, blocks in order, as lowered;
/// `move-type` items are not blocks). Spans are call sites, as diagnostics show them.
pub fn origins(file: &ZrfFile, doc: &Document) -> spec::Origins {
    let sites = &file.expanded.sites;
    let span = |at: At<'_>| sites.call_site(at.outer, at.node);
    let blocks = |part: At<'_>| -> Vec<Span> {
        part.args()
            .filter(|b| b.head() != Some("move-type"))
            .map(span)
            .collect()
    };
    let mut games = Vec::with_capacity(doc.games.len());
    for (e, g) in file.expanded.entries.iter().zip(&doc.games) {
        let Some(form) = &e.form else {
            games.push(spec::origin::GameOrigin::default());
            continue;
        };
        let root = At::root(form);
        let mut pieces: Vec<spec::origin::PieceOrigin> = Vec::new();
        for c in root.args().filter(|c| c.head() == Some("piece")) {
            let mut p = spec::origin::PieceOrigin {
                at: Some(span(c)),
                ..Default::default()
            };
            for part in c.args() {
                match part.head() {
                    Some("name") => {
                        p.name = part.args().next().and_then(At::text).unwrap_or("").into()
                    }
                    Some("moves") => p.moves = blocks(part),
                    Some("drops") => p.drops = blocks(part),
                    _ => {}
                }
            }
            if g.pieces.iter().any(|q| q.name == p.name) {
                pieces.push(p);
            }
        }
        games.push(spec::origin::GameOrigin {
            at: Some(span(root)),
            pieces,
        });
    }
    spec::Origins { games }
}

/// Diagnostic code: a game defines or places more pieces than [`Limits::max_pieces`].
pub const CODE_TOO_MANY_PIECES: &str = "zrf::too-many-pieces";

/// Diagnostic code: a game's pieces have more move and drop blocks than
/// [`Limits::max_move_blocks`].
pub const CODE_TOO_MANY_MOVE_BLOCKS: &str = "zrf::too-many-move-blocks";

/// Diagnostic code: a game's move programs hold more forms kept as written than
/// [`Limits::max_unknown_forms`].
pub const CODE_TOO_MANY_UNKNOWN_FORMS: &str = "zrf::too-many-unknown-forms";

/// Lowering limits (configurable; the defaults are far above anything real games need).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most positions one board may have (see [`geometry::MAX_POSITIONS`]).
    pub max_positions: usize,
    /// Most piece types one game may define, and most pieces its `board-setup` may place (the
    /// largest real games have under 400). Beyond it, further pieces are dropped with
    /// [`CODE_TOO_MANY_PIECES`].
    pub max_pieces: usize,
    /// Most move and drop blocks all pieces of one game may have together (the largest real
    /// games have under 10,000, shared macro bodies included). Beyond it, further blocks are
    /// dropped with [`CODE_TOO_MANY_MOVE_BLOCKS`]: a macro body repeated into every piece can
    /// otherwise make a small file lower into hundreds of megabytes.
    pub max_move_blocks: usize,
    /// Most forms one game's move programs may keep as written (not ZRF instructions, nor names
    /// of the game; the shared corpus has at most 8 in a game). Beyond it, further ones are
    /// dropped with [`CODE_TOO_MANY_UNKNOWN_FORMS`]: a macro of garbage repeated into every
    /// block otherwise lowers a small file into programs of tens of thousands of instructions.
    pub max_unknown_forms: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_positions: geometry::MAX_POSITIONS,
            max_pieces: 100_000,
            max_move_blocks: 100_000,
            max_unknown_forms: 1_000,
        }
    }
}

/// Lowers every entry of a read ZRF file with the default [`Limits`]. `source` describes the
/// input ([`Source::of`]).
pub fn lower(file: &ZrfFile, source: Source) -> Lowered {
    lower_with(file, source, Limits::default())
}

/// [`lower`] with explicit limits.
pub fn lower_with(file: &ZrfFile, source: Source, limits: Limits) -> Lowered {
    let mut cx = Cx {
        limits,
        over_pieces: false,
        move_blocks: 0,
        unknown_forms: 0,
        sites: &file.expanded.sites,
        diags: Vec::new(),
        seen: BTreeSet::new(),
        unmodelled: BTreeMap::new(),
        reported_heads: BTreeSet::new(),
        uses: count_uses(&file.expanded.entries),
        procedures: Vec::new(),
        proc_of: rustc_hash::FxHashMap::default(),
        depth: 0,
        boards_done: rustc_hash::FxHashMap::default(),
        pieces_done: rustc_hash::FxHashMap::default(),
        pieces_names: Names::default(),
        recording: None,
        move_types_done: rustc_hash::FxHashMap::default(),
    };
    let mut games = Vec::with_capacity(file.expanded.entries.len());
    for e in &file.expanded.entries {
        // Ctrl-C while lowering: nothing of the file is kept.
        if file.interrupt.raised() {
            cx.diags.push(crate::diag::Interrupt::error(e.span));
            games.clear();
            break;
        }
        let kind = match e.kind {
            EntryKind::Game => spec::EntryKind::Game,
            EntryKind::Variant { .. } => spec::EntryKind::Variant,
            EntryKind::Separator => spec::EntryKind::Separator,
        };
        let mut g = Game {
            kind,
            title: e.title.clone().unwrap_or_default(),
            variant_of: match e.kind {
                EntryKind::Variant { of } if of < file.expanded.entries.len() => Some(of),
                _ => None,
            },
            default: e.default,
            texts: Texts::default(),
            players: Vec::new(),
            turn_order: TurnOrder::default(),
            options: Vec::new(),
            sounds: Vec::new(),
            boards: Vec::new(),
            pieces: Vec::new(),
            setup: Vec::new(),
            goals: Vec::new(),
            move_priorities: Vec::new(),
            extensions: Extensions::default(),
            engine: None,
        };
        if let (Some(form), spec::EntryKind::Game | spec::EntryKind::Variant) = (&e.form, kind) {
            cx.game(form, &mut g, &games);
        }
        games.push(g);
    }
    let version = file.expanded.version.clone();
    let document = Document {
        spec_version: spec::SPEC_VERSION.to_string(),
        source: Source { version, ..source },
        games,
        procedures: cx.procedures,
    };
    Lowered {
        document,
        diagnostics: cx.diags,
        unmodelled: cx.unmodelled,
    }
}

/// Lowering context: where diagnostics go and how to locate nodes.
struct Cx<'a> {
    limits: Limits,
    /// The current game went over [`Limits::max_pieces`] (reported once per game).
    over_pieces: bool,
    /// Move and drop blocks of the current game so far (see [`Limits::max_move_blocks`]).
    move_blocks: usize,
    /// Instructions kept as written in the current game so far (see
    /// [`Limits::max_unknown_forms`]).
    unknown_forms: usize,
    sites: &'a Sites,
    diags: Vec<Diagnostic>,
    /// Diagnostics already reported (variants share forms with their game).
    seen: BTreeSet<(&'static str, u32, u32, String)>,
    unmodelled: BTreeMap<String, usize>,
    reported_heads: BTreeSet<String>,
    /// How often each list (by the address of its shared items) occurs in move programs, and
    /// its node count.
    uses: rustc_hash::FxHashMap<usize, (u32, u32)>,
    procedures: Vec<Vec<Instr>>,
    /// Lists already lowered into a procedure.
    proc_of: rustc_hash::FxHashMap<usize, usize>,
    /// Nesting depth of the instruction being lowered (deep programs are split into procedures
    /// so that every YAML reader can read them).
    depth: usize,
    /// Boards already lowered, by their form's address and macro site: variants share most
    /// forms with their game, and lowering a form again gives the same value (its diagnostics
    /// were reported the first time).
    boards_done: rustc_hash::FxHashMap<(usize, u32), Lowered1>,
    /// Pieces already lowered, likewise, with the names in [`Cx::pieces_names`].
    pieces_done: rustc_hash::FxHashMap<(usize, u32), Lowered1>,
    pieces_names: Names,
    /// The `unmodelled` keywords met while lowering the form being memoized.
    recording: Option<Vec<String>>,
    /// The `(move-type T)` names in each game section, by the section's address.
    move_types_done: rustc_hash::FxHashMap<usize, Vec<String>>,
}

/// Counts the forms kept verbatim in a copied board or piece again.
fn count_again(unmodelled: &mut BTreeMap<String, usize>, met: &[String]) {
    for what in met {
        *unmodelled.entry(what.clone()).or_default() += 1;
    }
}

/// Where a board or piece was lowered (entry, index in its boards or pieces), with what
/// lowering it counted.
struct Lowered1 {
    entry: usize,
    index: usize,
    /// Forms kept verbatim (counted again at each use).
    unmodelled: Vec<String>,
    /// Move and drop blocks (counted against [`Limits::max_move_blocks`] at each use).
    move_blocks: usize,
}

/// The directions the boards of `done` (the entries lowered before) define and `own` lacks.
fn other_directions(done: &[Game], own: &BTreeSet<String>) -> BTreeSet<String> {
    done.iter()
        .flat_map(|d| d.boards.iter().flat_map(|b| b.directions.iter()))
        .filter(|d| !own.contains(*d))
        .cloned()
        .collect()
}

/// Lists smaller than this are never shared (a call would not be shorter).
const SHARE_MIN_NODES: u32 = 8;
/// Instruction nesting beyond this is moved into a procedure.
const MAX_INLINE_DEPTH: usize = 12;

fn list_key(n: &Node) -> Option<usize> {
    n.as_list()
        .filter(|v| !v.is_empty())
        .map(|v| v.as_ptr() as usize)
}

/// Counts the uses of every list under `moves` and `drops`, visiting each shared list once.
fn count_uses(entries: &[super::expand::Entry]) -> rustc_hash::FxHashMap<usize, (u32, u32)> {
    fn visit(n: &Node, uses: &mut rustc_hash::FxHashMap<usize, (u32, u32)>) -> u32 {
        let Some(k) = list_key(n) else { return 1 };
        if let Some(e) = uses.get_mut(&k) {
            e.0 += 1;
            return e.1;
        }
        uses.insert(k, (1, 0));
        let size = 1 + n
            .as_list()
            .unwrap_or(&[])
            .iter()
            .map(|c| visit(c, uses))
            .fold(0u32, u32::saturating_add);
        if let Some(e) = uses.get_mut(&k) {
            e.1 = size;
        }
        size
    }
    let mut uses = rustc_hash::FxHashMap::default();
    for e in entries {
        let Some(form) = &e.form else { continue };
        for section in form.args().iter().filter(|s| s.head() == Some("piece")) {
            for part in section.args() {
                if matches!(part.head(), Some("moves" | "drops")) {
                    for b in part.args() {
                        visit(b, &mut uses);
                    }
                }
            }
        }
    }
    uses
}

/// A node and the outermost expansion site above it.
#[derive(Clone, Copy)]
struct At<'n> {
    node: &'n Node,
    outer: u32,
}

impl<'n> At<'n> {
    fn root(node: &'n Node) -> At<'n> {
        At {
            node,
            outer: Sites::outer(0, node),
        }
    }
    fn items(self) -> impl Iterator<Item = At<'n>> {
        self.node.as_list().unwrap_or(&[]).iter().map(move |c| At {
            node: c,
            outer: Sites::outer(self.outer, c),
        })
    }
    fn args(self) -> impl Iterator<Item = At<'n>> {
        self.items().skip(1)
    }
    fn head(self) -> Option<&'n str> {
        self.node.head()
    }
    fn atom(self) -> Option<&'n str> {
        self.node.as_atom()
    }
    /// Atom or string text.
    fn text(self) -> Option<&'n str> {
        self.node.as_atom().or(self.node.as_str())
    }
    /// `(x y)`: a pair of atoms.
    fn pair(self) -> Option<[String; 2]> {
        match self
            .items()
            .filter_map(At::atom)
            .collect::<Vec<_>>()
            .as_slice()
        {
            [x, y] => Some([x.to_string(), y.to_string()]),
            _ => None,
        }
    }
}

/// Names a game defines, for classifying atoms in move programs.
#[derive(Default, Clone, PartialEq)]
struct Names {
    directions: BTreeSet<String>,
    /// Directions only the boards of other entries of the file define: a step along one fails
    /// on this board (swap-chess.zrf's Swap Knights keeps the Bishop's `nw` slides).
    other_directions: BTreeSet<String>,
    positions: BTreeSet<String>,
    pieces: BTreeSet<String>,
    players: BTreeSet<String>,
    attributes: BTreeSet<String>,
    move_types: BTreeSet<String>,
}

impl<'a> Cx<'a> {
    fn span(&self, at: At<'_>) -> Span {
        self.sites.call_site(at.outer, at.node)
    }

    fn report(&mut self, sev: Severity, code: &'static str, msg: String, at: At<'_>) {
        let span = self.span(at);
        if self
            .seen
            .insert((code, span.file.0, span.start, msg.clone()))
        {
            let mut d = Diagnostic::new(sev, code, msg, Some(span));
            if at.outer != 0 && span != at.node.span {
                d = d.with_note(Some(at.node.span), "produced by this macro text");
            }
            self.diags.push(d);
        }
    }

    fn warn(&mut self, code: &'static str, msg: String, at: At<'_>) {
        self.report(Severity::Warning, code, msg, at);
    }

    /// Records a form that is not part of the ZRF grammar as zogkit knows it (an author's
    /// mistake, an undefined macro, or a keyword of a ZoG version we have not seen); it is kept
    /// verbatim and reported.
    fn unknown_section(&mut self, what: &str, at: At<'_>) -> String {
        self.warn(
            "zrf::unknown-section",
            format!("`{what}` is not a ZRF section here; it is kept verbatim in `extensions` (a `zrf` item)"),
            at,
        );
        at.node.to_compact()
    }

    /// Records a form kept verbatim; reported once per keyword and file.
    fn unmodelled(&mut self, what: &str, at: At<'_>) -> String {
        *self.unmodelled.entry(what.to_string()).or_default() += 1;
        if let Some(r) = &mut self.recording {
            r.push(what.to_string());
        }
        if self.reported_heads.insert(what.to_string()) {
            self.report(
                Severity::Warning,
                "zrf::unmodelled",
                format!("`{what}` has no typed form in the spec yet; it is kept verbatim in `extensions` (a `zrf` item)"),
                at,
            );
        }
        at.node.to_compact()
    }

    /// Lowers one game or variant into `g`; `done` are the entries before it.
    fn game(&mut self, form: &Node, g: &mut Game, done: &[Game]) {
        self.over_pieces = false;
        self.move_blocks = 0;
        self.unknown_forms = 0;
        let root = At::root(form);
        // Names first: boards, pieces and players are needed to read move programs.
        let mut names = self.names(root, form);
        for c in root.args() {
            if c.head() == Some("board") {
                let b = self.board_once(c, done, &g.boards);
                names.directions.extend(b.directions.iter().cloned());
                names
                    .positions
                    .extend(b.positions.iter().map(|p| p.name.clone()));
                g.boards.push(b);
            }
        }
        names.other_directions = other_directions(done, &names.directions);
        for (at, c) in root.args().enumerate() {
            let Some(head) = c.head() else {
                let t = self.unknown_section("(a bare item in a game)", c);
                g.extensions.push_zrf(t, Some(at));
                continue;
            };
            match head {
                "title" => {
                    if let Some(t) = c.args().next().and_then(At::text) {
                        g.title = t.to_string();
                    }
                }
                "description" | "history" | "strategy" | "solution" | "help" => {
                    self.text(head, c, &mut g.texts)
                }
                "players" => g.players = c.args().filter_map(At::atom).map(String::from).collect(),
                "turn-order" => g.turn_order = self.turn_order(c, &names),
                "option" => {
                    let mut a = c.args();
                    match (a.next().and_then(At::text), a.next().and_then(At::text)) {
                        (Some(n), Some(v)) => g.options.push(GameOption {
                            name: n.into(),
                            value: v.into(),
                            legacy: false,
                        }),
                        _ => {
                            let t = self.unmodelled("option (malformed)", c);
                            g.extensions.push_zrf(t, Some(at))
                        }
                    }
                }
                "animate-captures" | "pass-turn" | "allow-flipping" | "recycle-captures"
                | "animate-drops" | "maximal-captures" | "pass-partial" | "smart-moves"
                | "prevent-flipping" | "highlight-goals" | "show-moves-list" => {
                    let value = c.args().next().and_then(At::text).unwrap_or("").to_string();
                    g.options.push(GameOption {
                        name: head.to_string(),
                        value,
                        legacy: true,
                    });
                }
                h if h.ends_with("-sound") => g.sounds.push(Sound {
                    event: h.trim_end_matches("-sound").to_string(),
                    file: c.args().next().and_then(At::text).unwrap_or("").to_string(),
                }),
                "board" => {} // done above
                "piece" => {
                    if g.pieces.len() >= self.limits.max_pieces {
                        self.too_many_pieces(c, "defines more than", "piece types");
                        continue;
                    }
                    let p = self.piece_once(c, &names, done, &g.pieces);
                    g.pieces.push(p);
                }
                "board-setup" => self.setup(c, &mut g.setup, &names),
                "win-condition" | "loss-condition" | "draw-condition" | "count-condition" => {
                    g.goals.push(self.goal(head, c))
                }
                "move-priorities" => {
                    g.move_priorities = c.args().filter_map(At::atom).map(String::from).collect()
                }
                "default" => {}
                "engine" => match c.args().next().and_then(At::text) {
                    Some(e) if c.args().count() == 1 => g.engine = Some(e.to_string()),
                    _ => {
                        let t = self.unmodelled("engine (malformed)", c);
                        g.extensions.push_zrf(t, Some(at))
                    }
                },
                _ => {
                    let t = self.unknown_section(head, c);
                    g.extensions.push_zrf(t, Some(at));
                }
            }
        }
    }

    /// The players, pieces, attributes and move types a game names (its boards' names are
    /// added as the boards are lowered).
    fn names(&mut self, root: At<'_>, form: &Node) -> Names {
        let mut names = Names::default();
        for c in root.args() {
            match c.head() {
                Some("players") => names
                    .players
                    .extend(c.args().filter_map(At::atom).map(String::from)),
                Some("piece") => {
                    for pc in c.args() {
                        match pc.head() {
                            Some("name") => names
                                .pieces
                                .extend(pc.args().filter_map(At::text).map(String::from)),
                            Some("attribute") => names
                                .attributes
                                .extend(pc.args().next().and_then(At::atom).map(String::from)),
                            _ => {}
                        }
                    }
                }
                Some("move-priorities") => names
                    .move_types
                    .extend(c.args().filter_map(At::atom).map(String::from)),
                _ => {}
            }
        }
        // Per section, once: variants share most sections with their game.
        for c in form.as_list().unwrap_or(&[]) {
            if let Some(v) = c.as_list() {
                let types = self
                    .move_types_done
                    .entry(v.as_ptr() as usize)
                    .or_insert_with(|| {
                        let mut types = BTreeSet::new();
                        collect_move_types(c, &mut types);
                        types.into_iter().collect()
                    });
                names.move_types.extend(types.iter().cloned());
            }
        }
        names
    }

    /// `(win-condition players condition …)` and the loss, draw and count conditions.
    fn goal(&mut self, head: &str, c: At<'_>) -> Goal {
        let kind = match head {
            "win-condition" => GoalKind::Win,
            "loss-condition" => GoalKind::Loss,
            "draw-condition" => GoalKind::Draw,
            _ => GoalKind::Count,
        };
        let mut a = c.args();
        let players = a
            .next()
            .map(|p| match p.node.as_list() {
                Some(_) => p.items().filter_map(At::text).map(String::from).collect(),
                None => p.text().map(String::from).into_iter().collect(),
            })
            .unwrap_or_default();
        let rest: Vec<At> = a.collect();
        let condition = match rest.as_slice() {
            [one] => self.goal_cond(*one),
            [] => GoalCond::Raw {
                format: RawFormat::Zrf,
                text: String::new(),
            },
            more => GoalCond::And(more.iter().map(|x| self.goal_cond(*x)).collect()),
        };
        Goal {
            kind,
            players,
            condition,
        }
    }

    /// [`Cx::board`], or a copy of the board this form lowered to before. `boards` are the
    /// current entry's (number `done.len()`) so far.
    fn board_once(&mut self, c: At<'_>, done: &[Game], boards: &[Board]) -> Board {
        let Some(v) = c.node.as_list() else {
            return self.board(c);
        };
        let key = (v.as_ptr() as usize, c.outer);
        if let Some(d) = self.boards_done.get(&key) {
            let earlier = done.get(d.entry).map_or(boards, |g| &g.boards);
            if let Some(b) = earlier.get(d.index) {
                count_again(&mut self.unmodelled, &d.unmodelled);
                return b.clone();
            }
        }
        let (value, unmodelled, _) = self.recorded(|cx| cx.board(c));
        let (entry, index) = (done.len(), boards.len());
        let d = Lowered1 {
            entry,
            index,
            unmodelled,
            move_blocks: 0,
        };
        self.boards_done.insert(key, d);
        value
    }

    /// [`Cx::piece`], or a copy of the piece this form lowered to before with the same names.
    /// `pieces` are the current entry's (number `done.len()`) so far.
    fn piece_once(&mut self, c: At<'_>, names: &Names, done: &[Game], pieces: &[Piece]) -> Piece {
        let Some(v) = c.node.as_list() else {
            return self.piece(c, names);
        };
        let key = (v.as_ptr() as usize, c.outer);
        if *names != self.pieces_names {
            self.pieces_done.clear();
            self.pieces_names = names.clone();
        }
        if let Some(d) = self.pieces_done.get(&key) {
            let earlier = done.get(d.entry).map_or(pieces, |g| &g.pieces);
            // Over the limit, lowering again reports it where it happens.
            let fits = self.move_blocks + d.move_blocks < self.limits.max_move_blocks;
            if let (Some(p), true) = (earlier.get(d.index), fits) {
                self.move_blocks += d.move_blocks;
                count_again(&mut self.unmodelled, &d.unmodelled);
                return p.clone();
            }
        }
        let (value, unmodelled, move_blocks) = self.recorded(|cx| cx.piece(c, names));
        let d = Lowered1 {
            entry: done.len(),
            index: pieces.len(),
            unmodelled,
            move_blocks,
        };
        self.pieces_done.insert(key, d);
        value
    }

    /// Runs `lower` (a board or a piece: they do not nest), returning its value, the
    /// `unmodelled` keywords it met and the move blocks it counted.
    fn recorded<T>(&mut self, lower: impl FnOnce(&mut Self) -> T) -> (T, Vec<String>, usize) {
        self.recording = Some(Vec::new());
        let blocks = self.move_blocks;
        let value = lower(self);
        let met = self.recording.take().unwrap_or_default();
        (value, met, self.move_blocks - blocks)
    }

    fn text(&mut self, field: &str, c: At<'_>, texts: &mut Texts) {
        let raw = c.args().next().and_then(At::text).unwrap_or("");
        let shown = strings::display(raw);
        if strings::to_zrf(&shown) != raw {
            texts.source.insert(field.to_string(), raw.to_string());
        }
        let slot = match field {
            "description" => &mut texts.description,
            "history" => &mut texts.history,
            "strategy" => &mut texts.strategy,
            "solution" => &mut texts.solution,
            _ => &mut texts.help,
        };
        // The spec holds one text per field: a second form replaces the first, never silently.
        if let Some(earlier) = slot.replace(shown) {
            self.warn(
                "zrf::duplicate-text",
                format!(
                    "a second `({field} …)` in the same form: the spec holds one {field}, so this one is kept and the earlier {:?} is dropped",
                    crate::text::shorten(&earlier, 40)
                ),
                c,
            );
        }
    }

    /// An instruction atom that names nothing of this game: a step along a direction only
    /// another entry's board defines (it fails on this board), or kept as written; warned.
    fn unknown_atom(&mut self, a: &str, i: At<'_>, names: &Names) -> Instr {
        if names.other_directions.contains(a) {
            self.warn(
                "zrf::unknown-name",
                format!("`{a}` is a direction of another entry's board, not of this one; a step along it fails"),
                i,
            );
            return Instr::Step(a.to_string());
        }
        if !self.keep_unknown(i) {
            return dropped();
        }
        self.warn(
            "zrf::unknown-name",
            format!("`{a}` is not a direction, position or instruction of this game; it is kept as written"),
            i,
        );
        Instr::Raw {
            format: RawFormat::Zrf,
            text: a.to_string(),
        }
    }

    fn turn_order(&mut self, c: At<'_>, names: &Names) -> TurnOrder {
        let mut t = TurnOrder::default();
        for item in c.args() {
            match (item.atom(), item.node.as_list()) {
                (Some("repeat"), _) => t.repeat_from = Some(t.turns.len()),
                (Some(p), _) => t.turns.push(Turn {
                    player: p.to_string(),
                    with_player: None,
                    move_type: None,
                }),
                (None, Some(v)) => {
                    let texts: Vec<&str> = v.iter().filter_map(|n| n.as_atom()).collect();
                    match texts.as_slice() {
                        // `(P Q)` naming a player and no move type: P moves Q's pieces
                        // (Stavropol Checkers: `(Red Neurtal)`, every piece is Neurtal's).
                        [p, q]
                            if names.players.contains(*q) && !names.move_types.contains(*q) =>
                        {
                            t.turns.push(Turn {
                                player: p.to_string(),
                                with_player: Some(q.to_string()),
                                move_type: None,
                            })
                        }
                        [p, m] => t.turns.push(Turn {
                            player: p.to_string(),
                            with_player: None,
                            move_type: Some(m.to_string()),
                        }),
                        [p, q, m] => t.turns.push(Turn {
                            player: p.to_string(),
                            with_player: Some(q.to_string()),
                            move_type: Some(m.to_string()),
                        }),
                        [p] => t.turns.push(Turn {
                            player: p.to_string(),
                            with_player: None,
                            move_type: None,
                        }),
                        _ => self.warn(
                            "zrf::bad-turn",
                            "expected `Player`, `(Player move-type)` or `(Player Player move-type)` in turn-order".into(),
                            item,
                        ),
                    }
                }
                _ => self.warn(
                    "zrf::bad-turn",
                    "expected a player name in turn-order".into(),
                    item,
                ),
            }
        }
        t
    }

    fn board(&mut self, c: At<'_>) -> Board {
        let mut b = Board::default();
        let mut layout = Layout::default();
        let mut zones = Vec::new();
        let mut symmetries: Vec<(String, Vec<[String; 2]>)> = Vec::new();
        // Where each symmetry pair was written, to locate names the board does not define.
        let mut symmetry_pairs: Vec<(At<'_>, String, [String; 2])> = Vec::new();
        for (at, item) in c.args().enumerate() {
            match item.head() {
                Some("image") => b
                    .images
                    .extend(item.args().filter_map(At::text).map(String::from)),
                Some("grid") => {
                    if let Some(g) = self.grid(item) {
                        layout.grids.push(g)
                    }
                }
                Some("positions") => self.positions(item, &mut layout),
                Some("links") => self.links(item, &mut layout),
                Some("unlink") => self.unlink(item, &mut layout),
                Some("kill-positions") => layout
                    .kill_positions
                    .extend(item.args().filter_map(At::atom).map(String::from)),
                Some("dummy") => layout
                    .dummy
                    .extend(item.args().filter_map(At::atom).map(String::from)),
                Some("zone") => zones.push(self.zone(item, &mut b)),
                Some("symmetry") => symmetries.push(symmetry(item, &mut symmetry_pairs)),
                Some(h) => {
                    let t = self.unknown_section(h, item);
                    b.extensions.push_zrf(t, Some(at))
                }
                None => {
                    let t = self.unknown_section("(a bare item in a board)", item);
                    b.extensions.push_zrf(t, Some(at))
                }
            }
        }
        let (computed, issues) = geometry::compute_limited(&layout, self.limits.max_positions);
        for i in issues {
            // A board too large to build is an error: the game has no usable board.
            let severity = if i.code == geometry::CODE_BOARD_TOO_LARGE {
                Severity::Error
            } else {
                Severity::Warning
            };
            self.report(severity, i.code, i.message, c);
        }
        b.directions = computed.directions;
        b.positions = computed.positions;
        b.opposites = geometry::opposites(&b.directions, &b.positions);
        // A symmetry is kept as written, but a name the board does not define is a mistake
        // (`(symmetry Black (n sn) (sn n))`): reported where the pair is, as `spec::check`
        // reports it in a YAML document.
        for (at, player, pair) in &symmetry_pairs {
            for d in pair.iter().filter(|d| !b.directions.contains(d)) {
                self.warn(
                    crate::spec::check::CODE_UNKNOWN_DIRECTION,
                    format!(
                        "the symmetry for {player} names `{d}`, which is not a direction of the board"
                    ),
                    *at,
                );
            }
        }
        b.zones = zones;
        b.symmetries = symmetries
            .into_iter()
            .map(|(player, pairs)| symmetry_map(&b.directions, player, pairs))
            .collect();
        b.layout = layout;
        b
    }

    /// `(positions (name x1 y1 x2 y2) …)`.
    fn positions(&mut self, item: At<'_>, layout: &mut Layout) {
        for p in item.args() {
            let v: Vec<&str> = p.items().filter_map(At::text).collect();
            let nums: Option<Vec<i64>> = v.iter().skip(1).map(|x| x.parse().ok()).collect();
            match (v.first(), nums.as_deref()) {
                (Some(n), Some(&[x1, y1, x2, y2])) => layout.positions.push(LayoutPosition {
                    name: n.to_string(),
                    rect: [x1, y1, x2, y2],
                }),
                _ => self.warn(
                    "zrf::bad-position",
                    "expected `(name x1 y1 x2 y2)` in positions".into(),
                    p,
                ),
            }
        }
    }

    /// `(links dir (from to) …)`.
    fn links(&mut self, item: At<'_>, layout: &mut Layout) {
        let mut a = item.args();
        let Some(dir) = a.next().and_then(At::atom) else {
            self.warn(
                "zrf::bad-links",
                "expected a direction name after `links`".into(),
                item,
            );
            return;
        };
        let mut links = Vec::new();
        for pair in a {
            match pair.pair() {
                Some(link) => links.push(link),
                None => self.warn(
                    "zrf::bad-links",
                    "expected `(from to)` in links".into(),
                    pair,
                ),
            }
        }
        // ZoG applies board statements in order: an earlier `unlink` does not
        // remove these links (Chessence.zsg line 49 steps `x9 → x8` along
        // `black-reserve`, declared after `(unlink x1 … x9)`).
        layout.links.push(LayoutLinks {
            direction: dir.to_string(),
            links,
            after_unlinks: layout.unlink.len(),
        });
    }

    /// `(unlink position (from to) …)`.
    fn unlink(&mut self, item: At<'_>, layout: &mut Layout) {
        for u in item.args() {
            match (u.atom(), u.node.as_list()) {
                (Some(p), _) => layout.unlink.push(Unlink::From(p.to_string())),
                (None, Some(_)) => match u.pair() {
                    Some(link) => layout.unlink.push(Unlink::Link(link)),
                    None => self.warn(
                        "zrf::bad-links",
                        "expected `(from to)` or a position in unlink".into(),
                        u,
                    ),
                },
                _ => {}
            }
        }
    }

    /// `(zone (name …) (players …) (positions …) …)`; unknown parts are kept on the board.
    fn zone(&mut self, item: At<'_>, b: &mut Board) -> Zone {
        let mut z = Zone {
            name: String::new(),
            players: Vec::new(),
            positions: Vec::new(),
            glyph: None,
            help: None,
        };
        for part in item.args() {
            match part.head() {
                Some("name") => z.name = part.args().next().and_then(At::text).unwrap_or("").into(),
                Some("players") => z
                    .players
                    .extend(part.args().filter_map(At::atom).map(String::from)),
                Some("positions") => z
                    .positions
                    .extend(part.args().filter_map(At::atom).map(String::from)),
                Some("glyph") => z.glyph = part.args().next().and_then(At::text).map(String::from),
                Some("help") => z.help = part.args().next().and_then(At::text).map(String::from),
                _ => {
                    let t = self.unknown_section("zone part", part);
                    b.extensions.push_zrf(t, None)
                }
            }
        }
        z
    }

    fn grid(&mut self, c: At<'_>) -> Option<Grid> {
        let mut start = None;
        let mut dims = Vec::new();
        let mut dirs = Vec::new();
        for part in c.args() {
            match part.head() {
                Some("start-rectangle") => {
                    let v: Option<Vec<i64>> = part
                        .args()
                        .map(|a| a.atom().and_then(|x| x.parse().ok()))
                        .collect();
                    match v.as_deref() {
                        Some(&[a, b, c2, d]) => start = Some([a, b, c2, d]),
                        _ => self.warn(
                            "zrf::bad-grid",
                            "expected four integers in start-rectangle".into(),
                            part,
                        ),
                    }
                }
                Some("dimensions") => {
                    for d in part.args() {
                        let mut it = d.items();
                        let labels = it.next().and_then(At::text);
                        let off: Option<Vec<i64>> = it.next().map(|o| {
                            o.items()
                                .map(|a| a.atom().and_then(|x| x.parse().ok()))
                                .collect::<Option<Vec<i64>>>()
                        })?;
                        match (labels, off.as_deref()) {
                            (Some(l), Some(&[dx, dy])) => dims.push(Dimension {
                                labels: l.split('/').map(String::from).collect(),
                                offset: [dx, dy],
                            }),
                            _ => self.warn(
                                "zrf::bad-grid",
                                "expected `(\"labels\" (dx dy))` in dimensions".into(),
                                d,
                            ),
                        }
                    }
                }
                Some("directions") => {
                    for d in part.args() {
                        let mut it = d.items();
                        let name = it.next().and_then(At::atom);
                        let delta: Option<Vec<i64>> =
                            it.map(|a| a.atom().and_then(|x| x.parse().ok())).collect();
                        match (name, delta) {
                            (Some(n), Some(delta)) => dirs.push(GridDirection {
                                name: n.to_string(),
                                delta,
                            }),
                            _ => self.warn(
                                "zrf::bad-grid",
                                "expected `(name dx dy …)` in directions".into(),
                                d,
                            ),
                        }
                    }
                }
                _ => {
                    self.warn(
                        "zrf::bad-grid",
                        "expected start-rectangle, dimensions or directions in a grid".into(),
                        part,
                    );
                }
            }
        }
        let Some(start_rectangle) = start else {
            self.warn(
                "zrf::bad-grid",
                "grid without start-rectangle; it is ignored".into(),
                c,
            );
            return None;
        };
        Some(Grid {
            start_rectangle,
            dimensions: dims,
            directions: dirs,
        })
    }

    fn piece(&mut self, c: At<'_>, names: &Names) -> Piece {
        let mut p = Piece::default();
        for (at, part) in c.args().enumerate() {
            match part.head() {
                Some("name") => p.name = part.args().next().and_then(At::text).unwrap_or("").into(),
                Some(h @ ("help" | "description" | "history" | "strategy")) => {
                    self.text(h, part, &mut p.texts)
                }
                Some(h @ ("image" | "glyph")) => {
                    let v: Vec<&str> = part.args().filter_map(At::text).collect();
                    let list = if h == "image" {
                        &mut p.images
                    } else {
                        &mut p.glyphs
                    };
                    for pair in v.chunks(2) {
                        match pair {
                            [pl, f] => list.push(PieceImage {
                                player: pl.to_string(),
                                file: f.to_string(),
                            }),
                            [f] => list.push(PieceImage {
                                player: String::new(),
                                file: f.to_string(),
                            }),
                            _ => {}
                        }
                    }
                }
                Some("notation") => {
                    p.notation = part.args().next().and_then(At::text).map(String::from)
                }
                Some("attribute") => {
                    let v: Vec<&str> = part.args().filter_map(At::text).collect();
                    match v.as_slice() {
                        [n, val] => p.attributes.push(Attribute {
                            name: n.to_string(),
                            value: val.to_string(),
                        }),
                        _ => {
                            let t = self.unmodelled("attribute (malformed)", part);
                            p.extensions.push_zrf(t, Some(at))
                        }
                    }
                }
                Some("dummy") => p.dummy = true,
                Some("moves") => p.moves = self.blocks(part, names),
                Some("drops") => p.drops = self.blocks(part, names),
                Some(h) => {
                    let t = self.unknown_section(h, part);
                    p.extensions.push_zrf(t, Some(at))
                }
                None => {
                    let t = self.unknown_section("(a bare item in a piece)", part);
                    p.extensions.push_zrf(t, Some(at))
                }
            }
        }
        p
    }

    fn blocks(&mut self, c: At<'_>, names: &Names) -> Vec<MoveBlock> {
        let mut out = Vec::new();
        let mut move_type: Option<String> = None;
        for b in c.args() {
            if b.head() == Some("move-type") {
                move_type = b.args().next().and_then(At::atom).map(String::from);
                continue;
            }
            if self.move_blocks >= self.limits.max_move_blocks {
                // Reported once per game, at the first block over the limit.
                if self.move_blocks == self.limits.max_move_blocks {
                    let limit = self.limits.max_move_blocks;
                    self.report(
                        Severity::Error,
                        CODE_TOO_MANY_MOVE_BLOCKS,
                        format!(
                            "this game's pieces have more than {limit} move and drop blocks (the limit; `--limit move-blocks=N` changes it); the rest are dropped"
                        ),
                        b,
                    );
                    self.move_blocks += 1;
                }
                break;
            }
            self.move_blocks += 1;
            let program = match b.node.as_list() {
                Some(_) => match self.shared(b) {
                    Some(id) => self.procedure(id, b, names, true),
                    None => self.program(b.items(), names),
                },
                None => vec![self.instr(b, names)],
            };
            out.push(MoveBlock {
                move_type: move_type.clone(),
                program,
            });
        }
        out
    }

    fn program<'n>(&mut self, items: impl Iterator<Item = At<'n>>, names: &Names) -> Vec<Instr> {
        items
            .map(|i| self.instr(i, names))
            .filter(|i| !is_dropped(i))
            .collect()
    }

    /// Counts one instruction kept as written at `i`: `true` while the game is within
    /// [`Limits::max_unknown_forms`]; past it, reports once and the form is dropped.
    fn keep_unknown(&mut self, i: At<'_>) -> bool {
        self.unknown_forms += 1;
        let limit = self.limits.max_unknown_forms;
        if self.unknown_forms == limit.saturating_add(1) {
            self.report(
                Severity::Error,
                CODE_TOO_MANY_UNKNOWN_FORMS,
                format!(
                    "this game's move programs keep more than {limit} forms as written (the limit; `--limit unknown-forms=N` changes it); the rest are dropped"
                ),
                i,
            );
        }
        self.unknown_forms <= limit
    }

    /// Whether list `i` should become (or already is) a procedure: it occurs more than once and
    /// is big enough, or the program is nested too deeply to inline it.
    fn shared(&self, i: At<'_>) -> Option<usize> {
        let k = list_key(i.node)?;
        let (count, size) = self.uses.get(&k).copied().unwrap_or((1, 0));
        ((count > 1 && size >= SHARE_MIN_NODES) || (self.depth >= MAX_INLINE_DEPTH && size > 1))
            .then_some(k)
    }

    /// Lowers list `i` once into a procedure and returns the call to it. `block` says whether
    /// the list is a whole block (its items are the instructions) or one instruction.
    fn procedure(&mut self, key: usize, i: At<'_>, names: &Names, block: bool) -> Vec<Instr> {
        if let Some(&id) = self.proc_of.get(&key) {
            return vec![Instr::Call(id)];
        }
        let id = self.procedures.len();
        self.proc_of.insert(key, id);
        self.procedures.push(Vec::new()); // reserve the index; filled below
        let saved = std::mem::replace(&mut self.depth, 0);
        let body = if block {
            self.program(i.items(), names)
        } else {
            vec![self.instr_inline(i, names)]
        };
        self.depth = saved;
        self.procedures[id] = body;
        vec![Instr::Call(id)]
    }

    fn instr(&mut self, i: At<'_>, names: &Names) -> Instr {
        if i.node.as_list().is_some()
            && let Some(k) = self.shared(i)
        {
            return self.procedure(k, i, names, false).remove(0);
        }
        self.depth += 1;
        let r = self.instr_inline(i, names);
        self.depth -= 1;
        r
    }

    fn instr_inline(&mut self, i: At<'_>, names: &Names) -> Instr {
        if let Some(a) = i.atom() {
            return self.atom_instr(a, i, names);
        }
        let Some(head) = i.head() else {
            return self.raw_instr(i, "a list not headed by a keyword");
        };
        let args: Vec<At> = i.args().collect();
        let at = |n: usize| args.get(n).and_then(|a| a.text()).map(String::from);
        match head {
            "verify" => match args.first() {
                Some(c) => Instr::Verify(self.cond(*c, names)),
                None => self.raw_instr(i, "verify without a condition"),
            },
            "if" => self.if_instr(i, &args, names),
            "while" => {
                let Some(c) = args.first() else {
                    return self.raw_instr(i, "while without a condition");
                };
                Instr::While {
                    cond: self.cond(*c, names),
                    body: self.program(args[1..].iter().copied(), names),
                }
            }
            "add" | "add-partial" | "add-copy" | "add-copy-partial" => {
                add_instr(head, &args, names)
            }
            "capture" => Instr::Capture { at: at(0) },
            "flip" => Instr::Flip { at: at(0) },
            "change-owner" => Instr::ChangeOwner { at: at(0) },
            "change-type" => match at(0) {
                Some(piece) => Instr::ChangeType { piece, at: at(1) },
                None => self.raw_instr(i, "change-type without a piece"),
            },
            "create" => self.create_instr(i, &args, names),
            "set-flag" => match (at(0), args.get(1)) {
                (Some(flag), Some(v)) => Instr::SetFlag {
                    flag,
                    value: self.cond(*v, names),
                },
                _ => self.raw_instr(i, "set-flag needs a flag and a value"),
            },
            "set-position-flag" => match (at(0), args.get(1)) {
                (Some(flag), Some(v)) => Instr::SetPositionFlag {
                    flag,
                    value: self.cond(*v, names),
                    at: at(2),
                },
                _ => self.raw_instr(i, "set-position-flag needs a flag and a value"),
            },
            "set-attribute" => match (at(0), args.get(1)) {
                (Some(name), Some(v)) => Instr::SetAttribute {
                    name,
                    value: self.cond(*v, names),
                    at: at(2),
                },
                _ => self.raw_instr(i, "set-attribute needs a name and a value"),
            },
            "opposite" => match at(0) {
                Some(d) => Instr::StepOpposite(d),
                None => self.raw_instr(i, "opposite without a direction"),
            },
            "go" => match at(0).as_deref() {
                Some("from") => Instr::From { go: true },
                Some("to") => Instr::To { go: true },
                _ => self.raw_instr(i, "go takes `from` or `to`"),
            },
            _ => {
                // Not a keyword at all (a misspelling or an undefined macro): the author's
                // mistake, reported, but not a gap in the spec.
                if !self.keep_unknown(i) {
                    return dropped();
                }
                self.warn(
                    "zrf::unknown-instruction",
                    format!(
                        "`{head}` is not a ZRF instruction or macro; the form is kept as written"
                    ),
                    i,
                );
                Instr::Raw {
                    format: RawFormat::Zrf,
                    text: i.node.to_compact(),
                }
            }
        }
    }

    /// A bare atom as an instruction: a keyword, a direction (a step) or a position (a jump).
    fn atom_instr(&mut self, a: &str, i: At<'_>, names: &Names) -> Instr {
        match a {
            "add" => Instr::Add {
                pieces: vec![],
                partial: false,
                copy: false,
                move_type: None,
            },
            "back" => Instr::Back,
            "mark" => Instr::Mark,
            "from" => Instr::From { go: false },
            "to" => Instr::To { go: false },
            "cascade" => Instr::Cascade,
            "capture" => Instr::Capture { at: None },
            "flip" => Instr::Flip { at: None },
            "change-owner" => Instr::ChangeOwner { at: None },
            "add-partial" | "add-copy" | "add-copy-partial" => Instr::Add {
                pieces: vec![],
                partial: a.ends_with("partial"),
                copy: a.starts_with("add-copy"),
                move_type: None,
            },
            _ if names.directions.contains(a) => Instr::Step(a.to_string()),
            _ if names.positions.contains(a) => Instr::Jump(a.to_string()),
            _ => self.unknown_atom(a, i, names),
        }
    }

    /// `(if cond instr … [else instr …])`.
    fn if_instr(&mut self, i: At<'_>, args: &[At<'_>], names: &Names) -> Instr {
        let Some(c) = args.first() else {
            return self.raw_instr(i, "if without a condition");
        };
        let cond = self.cond(*c, names);
        let mut then_ = Vec::new();
        let mut else_ = Vec::new();
        let mut in_else = false;
        for x in &args[1..] {
            if x.atom() == Some("else") && !in_else {
                in_else = true;
                continue;
            }
            let ins = self.instr(*x, names);
            if is_dropped(&ins) {
                continue;
            }
            if in_else {
                else_.push(ins)
            } else {
                then_.push(ins)
            }
        }
        Instr::If { cond, then_, else_ }
    }

    /// `(create [player] [piece] [position])`, told apart by the names.
    fn create_instr(&mut self, i: At<'_>, args: &[At<'_>], names: &Names) -> Instr {
        let texts: Vec<String> = args
            .iter()
            .filter_map(|a| a.text())
            .map(String::from)
            .collect();
        let (mut player, mut piece, mut pos) = (None, None, None);
        for t in texts {
            if player.is_none() && piece.is_none() && names.players.contains(&t) {
                player = Some(t);
            } else if piece.is_none() && names.pieces.contains(&t) {
                piece = Some(t);
            } else if pos.is_none() {
                pos = Some(t);
            } else {
                return self.raw_instr(
                    i,
                    "create with more arguments than player, piece and position",
                );
            }
        }
        Instr::Create {
            player,
            piece,
            at: pos,
        }
    }

    fn raw_instr(&mut self, i: At<'_>, why: &str) -> Instr {
        if !self.keep_unknown(i) {
            return dropped();
        }
        self.warn(
            "zrf::unknown-instruction",
            format!("{why}; the form is kept as written"),
            i,
        );
        *self
            .unmodelled
            .entry(format!("instruction {}", i.head().unwrap_or("(list)")))
            .or_default() += 1;
        Instr::Raw {
            format: RawFormat::Zrf,
            text: i.node.to_compact(),
        }
    }

    fn cond(&mut self, c: At<'_>, names: &Names) -> Cond {
        if let Some(a) = c.atom() {
            if a == "true" || a == "false" {
                return Cond::Const(a == "true");
            }
            if let Some(t) = test_of(a) {
                return Cond::Test {
                    test: t,
                    at: None,
                    move_type: None,
                };
            }
            if let Some(t) = a.strip_prefix("not-").and_then(test_of) {
                return Cond::Not(Box::new(Cond::Test {
                    test: t,
                    at: None,
                    move_type: None,
                }));
            }
            if a == "on-board?" || a == "not-on-board?" {
                let c = Cond::OnBoard { direction: None };
                return if a == "on-board?" {
                    c
                } else {
                    Cond::Not(Box::new(c))
                };
            }
            if names.attributes.contains(a) {
                return Cond::Attribute {
                    name: a.to_string(),
                    at: None,
                };
            }
            if let Some(n) = a.strip_prefix("not-")
                && names.attributes.contains(n)
            {
                return Cond::Not(Box::new(Cond::Attribute {
                    name: n.to_string(),
                    at: None,
                }));
            }
            self.warn(
                "zrf::unknown-name",
                format!("`{a}` is not a condition of this game; it is kept as written"),
                c,
            );
            return Cond::Raw {
                format: RawFormat::Zrf,
                text: a.to_string(),
            };
        }
        let Some(head) = c.head() else {
            return self.raw_cond(c, "a list not headed by a keyword");
        };
        let args: Vec<At> = c.args().collect();
        let text = |n: usize| args.get(n).and_then(|a| a.text()).map(String::from);
        let (negated, base) = match head.strip_prefix("not-") {
            Some(b) if !b.is_empty() && head != "not" => (true, b),
            _ => (false, head),
        };
        let wrap = |c: Cond| if negated { Cond::Not(Box::new(c)) } else { c };
        match base {
            "not" if !negated => match args.first() {
                Some(x) => Cond::Not(Box::new(self.cond(*x, names))),
                None => self.raw_cond(c, "not without a condition"),
            },
            "and" if !negated => Cond::And(args.iter().map(|x| self.cond(*x, names)).collect()),
            "or" if !negated => Cond::Or(args.iter().map(|x| self.cond(*x, names)).collect()),
            "piece?" => match text(0) {
                Some(piece) => wrap(Cond::Piece { piece, at: text(1) }),
                None => self.raw_cond(c, "piece? without a piece"),
            },
            "in-zone?" => match text(0) {
                Some(zone) => wrap(Cond::InZone { zone, at: text(1) }),
                None => self.raw_cond(c, "in-zone? without a zone"),
            },
            "on-board?" => wrap(Cond::OnBoard { direction: text(0) }),
            "position?" => match text(0) {
                Some(position) => wrap(Cond::Position { position }),
                None => self.raw_cond(c, "position? without a position"),
            },
            "flag?" => match text(0) {
                Some(flag) => wrap(Cond::Flag { flag }),
                None => self.raw_cond(c, "flag? without a flag"),
            },
            "position-flag?" => match text(0) {
                Some(flag) => wrap(Cond::PositionFlag { flag, at: text(1) }),
                None => self.raw_cond(c, "position-flag? without a flag"),
            },
            b if test_of(b).is_some() => {
                let test = test_of(b).unwrap_or(Test::Empty);
                let mut at = None;
                let mut move_type = None;
                for a in &args {
                    let Some(t) = a.text() else { continue };
                    if matches!(test, Test::Attacked | Test::Defended)
                        && names.move_types.contains(t)
                        && !names.directions.contains(t)
                        && !names.positions.contains(t)
                    {
                        move_type = Some(t.to_string());
                    } else {
                        at = Some(t.to_string());
                    }
                }
                wrap(Cond::Test {
                    test,
                    at,
                    move_type,
                })
            }
            b if names.attributes.contains(b) => wrap(Cond::Attribute {
                name: b.to_string(),
                at: text(0),
            }),
            _ => {
                self.warn(
                    "zrf::unknown-condition",
                    format!(
                        "`{head}` is not a ZRF condition or macro; the form is kept as written"
                    ),
                    c,
                );
                Cond::Raw {
                    format: RawFormat::Zrf,
                    text: c.node.to_compact(),
                }
            }
        }
    }

    fn raw_cond(&mut self, c: At<'_>, why: &str) -> Cond {
        self.warn(
            "zrf::unknown-condition",
            format!("{why}; the form is kept as written"),
            c,
        );
        *self
            .unmodelled
            .entry(format!("condition {}", c.head().unwrap_or("(list)")))
            .or_default() += 1;
        Cond::Raw {
            format: RawFormat::Zrf,
            text: c.node.to_compact(),
        }
    }

    /// Reports that a game went over [`Limits::max_pieces`] at `at` (once per game).
    fn too_many_pieces(&mut self, at: At<'_>, verb: &str, what: &str) {
        if std::mem::replace(&mut self.over_pieces, true) {
            return;
        }
        let limit = self.limits.max_pieces;
        self.report(
            Severity::Error,
            CODE_TOO_MANY_PIECES,
            format!(
                "this game {verb} {limit} {what} (the limit; `--limit pieces=N` changes it); the rest are dropped"
            ),
            at,
        );
    }

    fn setup(&mut self, c: At<'_>, out: &mut Vec<Placement>, names: &Names) {
        let mut placed: usize = out.iter().map(|p| p.positions.len()).sum();
        if placed >= self.limits.max_pieces {
            return self.too_many_pieces(c, "places more than", "pieces");
        }
        for side in c.args() {
            let mut it = side.items();
            let Some(player) = it.next().and_then(At::atom) else {
                self.warn(
                    "zrf::bad-setup",
                    "expected `(Player (Piece position …) …)` in board-setup".into(),
                    side,
                );
                continue;
            };
            for pl in it {
                let mut v = pl.items();
                let Some(piece) = v.next().and_then(At::text) else {
                    self.warn("zrf::bad-setup", "expected `(Piece position …)`".into(), pl);
                    continue;
                };
                let rest_at: Vec<At> = v.collect();
                for p in &rest_at {
                    if let Some(t) = p.text()
                        && t != "off"
                        && t.parse::<u32>().is_err()
                        && !names.positions.is_empty()
                        && !names.positions.contains(t)
                    {
                        self.warn(
                            "zrf::unknown-position",
                            format!("board-setup places `{piece}` on `{t}`, which the board does not have; it is kept as written"),
                            *p,
                        );
                    }
                }
                let rest: Vec<&str> = rest_at.iter().filter_map(|a| a.text()).collect();
                let mut placement = Placement {
                    player: player.to_string(),
                    piece: piece.to_string(),
                    positions: Vec::new(),
                    off: None,
                };
                let mut k = 0;
                while k < rest.len() {
                    if rest[k] == "off" {
                        match rest.get(k + 1).and_then(|n| n.parse::<u32>().ok()) {
                            Some(n) => {
                                placement.off = Some(placement.off.unwrap_or(0) + n);
                                k += 2;
                                continue;
                            }
                            None => self.warn(
                                "zrf::bad-setup",
                                "expected a count after `off`".into(),
                                pl,
                            ),
                        }
                    }
                    if placed >= self.limits.max_pieces {
                        out.push(placement);
                        return self.too_many_pieces(pl, "places more than", "pieces");
                    }
                    placement.positions.push(rest[k].to_string());
                    placed += 1;
                    k += 1;
                }
                out.push(placement);
            }
        }
    }

    fn goal_cond(&mut self, c: At<'_>) -> GoalCond {
        if let Some(a) = c.atom() {
            return match a {
                "stalemated" => GoalCond::Stalemated,
                "repetition" => GoalCond::Repetition,
                _ => self.raw_goal(c, &format!("`{a}` is not a goal condition")),
            };
        }
        let Some(head) = c.head() else {
            return self.raw_goal(c, "a list not headed by a keyword");
        };
        let args: Vec<At> = c.args().collect();
        let text = |n: usize| args.get(n).and_then(|a| a.text()).map(String::from);
        match head {
            "checkmated" | "captured" if args.iter().all(|a| a.atom().is_some()) => {
                let pieces = args
                    .iter()
                    .filter_map(|a| a.text())
                    .map(String::from)
                    .collect();
                if head == "checkmated" {
                    GoalCond::Checkmated { pieces }
                } else {
                    GoalCond::Captured { pieces }
                }
            }
            "pieces-remaining" | "total-piece-count" if (1..=2).contains(&args.len()) => {
                let count = text(0).unwrap_or_default();
                let piece = text(1);
                if head == "pieces-remaining" {
                    GoalCond::PiecesRemaining { count, piece }
                } else {
                    GoalCond::TotalPieceCount { count, piece }
                }
            }
            "absolute-config" if args.len() >= 2 => {
                let (mut pieces, mut opponent, mut grouped) = (Vec::new(), false, false);
                let (mut piece_args, last) = args.split_at(args.len() - 1);
                // `(not P)` / `(not (opponent P))`: a piece of any other type.
                let inner: Vec<At> = match piece_args {
                    [one] if one.head() == Some("not") => one.args().collect(),
                    _ => Vec::new(),
                };
                let negated = inner.len() == 1;
                if negated {
                    piece_args = &inner;
                }
                for first in piece_args {
                    match (first.atom(), first.head()) {
                        (Some(p), _) => pieces.push(p.to_string()),
                        (None, Some("opponent")) if piece_args.len() == 1 => {
                            opponent = true;
                            pieces.extend(first.args().filter_map(At::text).map(String::from));
                        }
                        (None, Some(_))
                            if piece_args.len() == 1
                                && first.items().all(|x| x.atom().is_some()) =>
                        {
                            grouped = true;
                            pieces.extend(first.items().filter_map(At::text).map(String::from))
                        }
                        _ => return self.raw_goal(c, "absolute-config with an unusual piece list"),
                    }
                }
                let second = last[0];
                let positions: Vec<String> = match second.atom() {
                    Some(p) => vec![p.to_string()],
                    None if second.items().all(|x| x.atom().is_some()) => second
                        .items()
                        .filter_map(At::text)
                        .map(String::from)
                        .collect(),
                    None => {
                        return self.raw_goal(c, "absolute-config with an unusual position list");
                    }
                };
                GoalCond::AbsoluteConfig {
                    pieces,
                    grouped,
                    positions,
                    opponent,
                    negated,
                }
            }
            "relative-config" => GoalCond::RelativeConfig {
                args: args.iter().map(|a| a.node.to_compact()).collect(),
            },
            "and" => GoalCond::And(args.iter().map(|a| self.goal_cond(*a)).collect()),
            "or" => GoalCond::Or(args.iter().map(|a| self.goal_cond(*a)).collect()),
            "not" if args.len() == 1 => GoalCond::Not(Box::new(self.goal_cond(args[0]))),
            _ => self.raw_goal(c, &format!("`{head}` is not a goal condition of this form")),
        }
    }

    fn raw_goal(&mut self, c: At<'_>, why: &str) -> GoalCond {
        self.warn(
            "zrf::unknown-condition",
            format!("{why}; it is kept as written"),
            c,
        );
        *self.unmodelled.entry("goal condition".into()).or_default() += 1;
        GoalCond::Raw {
            format: RawFormat::Zrf,
            text: c.node.to_compact(),
        }
    }
}

/// `(add …)` and its variants: the pieces to choose from, and for a partial add the move type
/// (an argument that is not a piece).
fn add_instr(head: &str, args: &[At<'_>], names: &Names) -> Instr {
    let partial = head.ends_with("partial");
    let mut pieces = Vec::new();
    let mut move_type = None;
    for a in args {
        let Some(t) = a.text() else { continue };
        if partial && !names.pieces.contains(t) {
            move_type = Some(t.to_string());
        } else {
            pieces.push(t.to_string());
        }
    }
    Instr::Add {
        pieces,
        partial,
        copy: head.starts_with("add-copy"),
        move_type,
    }
}

/// `(symmetry player (from to) …)`: the player and its pairs, each pair also noted in `at`
/// with where it was written.
fn symmetry<'n>(
    item: At<'n>,
    at: &mut Vec<(At<'n>, String, [String; 2])>,
) -> (String, Vec<[String; 2]>) {
    let mut a = item.args();
    let player = a.next().and_then(At::atom).unwrap_or("").to_string();
    let pairs: Vec<[String; 2]> = a
        .filter_map(|p| {
            let pair = p.pair()?;
            at.push((p, player.clone(), pair.clone()));
            Some(pair)
        })
        .collect();
    (player, pairs)
}

/// A player's symmetry over the board's `directions`: each direction mapped as a pair says
/// (to itself otherwise), then the pairs naming directions the board does not have.
fn symmetry_map(directions: &[String], player: String, pairs: Vec<[String; 2]>) -> Symmetry {
    let mut map: Vec<[String; 2]> = directions
        .iter()
        .map(|d| {
            let to = pairs
                .iter()
                .find(|[f, _]| f == d)
                .map(|[_, t]| t.clone())
                .unwrap_or_else(|| d.clone());
            [d.clone(), to]
        })
        .collect();
    // Pairs naming directions the board does not have are kept too.
    for [f, t] in &pairs {
        if !directions.contains(f) {
            map.push([f.clone(), t.clone()]);
        }
    }
    Symmetry { player, map }
}

fn test_of(a: &str) -> Option<Test> {
    Some(match a {
        "empty?" => Test::Empty,
        "friend?" => Test::Friend,
        "enemy?" => Test::Enemy,
        "neutral?" => Test::Neutral,
        "last-from?" => Test::LastFrom,
        "last-to?" => Test::LastTo,
        "marked?" => Test::Marked,
        "attacked?" => Test::Attacked,
        "defended?" => Test::Defended,
        "goal-position?" => Test::GoalPosition,
        "adjacent-to-enemy?" => Test::AdjacentToEnemy,
        _ => return None,
    })
}

/// Every `(move-type T)` name in a subtree. Expanded trees share lists (`Arc`), so each shared
/// list is walked once.
fn collect_move_types(n: &Node, out: &mut BTreeSet<String>) {
    let mut seen: rustc_hash::FxHashSet<*const Node> = Default::default();
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        if let NodeKind::List(v) = &n.kind {
            if !seen.insert(v.as_ptr()) {
                continue;
            }
            if n.head() == Some("move-type")
                && let Some(t) = v.get(1).and_then(Node::as_atom)
            {
                out.insert(t.to_string());
            }
            stack.extend(v.iter().filter(|c| matches!(c.kind, NodeKind::List(_))));
        }
    }
}

/// The stand-in for a form dropped past [`Limits::max_unknown_forms`], which program builders
/// leave out: a ZRF raw instruction with no text, which no kept form has.
fn dropped() -> Instr {
    Instr::Raw {
        format: RawFormat::Zrf,
        text: String::new(),
    }
}

fn is_dropped(i: &Instr) -> bool {
    matches!(i, Instr::Raw { format: RawFormat::Zrf, text } if text.is_empty())
}
