//! One game as a `variants.ini` section: board size, pieces in Betza notation, promotion,
//! double steps and en passant, castling, the start FEN and the end conditions.

use super::betza::{self, Atom, Modality, Travel, Vector};
use super::board::{self, Geometry, square_name};
use super::lines::{self, LinePiece};
use super::pieces::{self, Classified, Movement};
use super::setup::{self, Placed};
use super::{CODE_APPROXIMATED, CODE_NOT_EXPRESSIBLE, CODE_REFUSED, builtin};
use crate::diag::{Diagnostic, Severity, Span};
use crate::spec::origin::GameOrigin;
use crate::spec::{Document, Game, GoalCond, GoalKind, Instr, Piece, moves};
use std::collections::{BTreeMap, BTreeSet};

/// How completely a game was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Every rule the spec states is in the section.
    Full,
    /// Written, but some rules are missing or approximated (the section's comment lists them).
    Partial,
    /// Nothing sensible could be written.
    Refused,
}

/// One game's section.
#[derive(Debug, Clone)]
pub struct Section {
    /// The variant name (`[name]`).
    pub name: String,
    /// The section text, empty when refused.
    pub text: String,
    /// Position name → Fairy-Stockfish square (`e4`).
    pub squares: BTreeMap<String, String>,
    /// Piece name → letter.
    pub letters: BTreeMap<String, char>,
    /// How complete it is.
    pub status: Status,
    /// What could not be written or was approximated.
    pub diagnostics: Vec<Diagnostic>,
    /// The pieces the section's start position has that the source places in its opening
    /// turns (a placement phase played out; empty when there is none).
    pub placed: Vec<Placed>,
}

struct Cx<'a> {
    game: &'a Game,
    title: &'a str,
    diags: Vec<Diagnostic>,
    gaps: Vec<String>,
    /// Where the game's parts stand in the file read in this run (empty when unknown).
    origin: &'a GameOrigin,
    /// Where what is being written stands (a piece's form), else the game's form.
    at: Option<Span>,
    /// The zone whose lines the built-in janggi pieces follow, and the types used.
    lines: LineState,
    /// The pieces a played-out placement phase put on the board (see [`setup`]).
    placed: Vec<Placed>,
}

/// What the pieces written as built-in line pieces need (see [`lines`]).
#[derive(Default)]
struct LineState {
    zone: Option<String>,
    squares: BTreeSet<(i32, i32)>,
    used: BTreeSet<LinePiece>,
}

impl Cx<'_> {
    fn gap(&mut self, code: &'static str, what: String) {
        self.gap_at(code, what, None);
    }
    /// [`Cx::gap`], located at `at` (a move block) when known, else at the piece being written,
    /// else at the game.
    fn gap_at(&mut self, code: &'static str, what: String, at: Option<Span>) {
        self.diags.push(Diagnostic::new(
            Severity::Warning,
            code,
            format!("{}: {what}", self.title),
            at.or(self.at).or(self.origin.at),
        ));
        self.gaps.push(what);
    }
    fn not_expressible(&mut self, what: String) {
        self.gap(CODE_NOT_EXPRESSIBLE, what);
    }
}

/// A variant name from a title: lower-case letters, digits and `-`.
pub fn variant_name(title: &str) -> String {
    let mut s = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    let s = s.trim_end_matches('-').to_string();
    if s.is_empty() { "game".into() } else { s }
}

/// Where a document comes from, as the prefix of a section name: its reader's format (`zrf`,
/// `lud`, `ludii` for Ludii's English, `chessembly`, `fsf`, `yaml`), `zogkit` when unknown.
fn source_tag(doc: &Document) -> &str {
    match doc.source.format.as_str() {
        "" => "zogkit",
        "ludii-english" => "ludii",
        f => f,
    }
}

/// The section name for a game titled `title` of `doc`: [`variant_name`], or, when that is a
/// Fairy-Stockfish built-in variant (which a section may not redefine: Fairy-Stockfish would
/// keep its own rules), the same name after the source's format (`XiangQi` from a ZRF file →
/// `zrf-xiangqi`), so that it says what the game is and where it comes from.
pub fn section_name(doc: &Document, title: &str) -> String {
    fresh_name(doc, &variant_name(title))
}

/// `name`, or `SOURCE-name` when `name` is a built-in variant.
fn fresh_name(doc: &Document, name: &str) -> String {
    if builtin::is_built_in(name) {
        format!("{}-{name}", source_tag(doc))
    } else {
        name.to_string()
    }
}

/// The built-in variant a section inherits (`[name:PARENT]`): the `xiangqi` template, the one
/// parent the reader reads, when the section needs its royal wazir (`template_king`) or the
/// game is named after it (the section then states its full definition over the template).
fn parent_of(game: &Game, template_king: bool) -> Option<&'static str> {
    (template_king || variant_name(&game.title) == super::template::PARENT)
        .then_some(super::template::PARENT)
}

/// Piece letters: the notation when it is one letter, else a letter of the name (the royal
/// piece first, so that it gets `k` when it can; a knight gets `n`).
fn letters(pieces: &[&Piece], royal: Option<&str>) -> BTreeMap<String, char> {
    let mut used = BTreeSet::new();
    let mut out = BTreeMap::new();
    let mut order: Vec<&&Piece> = pieces
        .iter()
        .filter(|p| Some(p.name.as_str()) == royal)
        .collect();
    order.extend(pieces.iter().filter(|p| Some(p.name.as_str()) != royal));
    for p in order {
        let mut cands: Vec<char> = Vec::new();
        if Some(p.name.as_str()) == royal {
            cands.push('k');
        }
        if p.name.eq_ignore_ascii_case("knight") {
            cands.push('n');
        }
        if let Some(n) = &p.notation
            && n.chars().count() == 1
        {
            cands.extend(n.chars());
        }
        cands.extend(p.name.chars());
        cands.extend('a'..='z');
        let c = cands
            .into_iter()
            .filter(|c| c.is_ascii_alphabetic())
            .map(|c| c.to_ascii_lowercase())
            .find(|c| !used.contains(c));
        if let Some(c) = c {
            used.insert(c);
            out.insert(p.name.clone(), c);
        }
    }
    out
}

/// The directions named by `Step`s of every piece's moves.
fn step_directions(doc: &Document, game: &Game) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for p in &game.pieces {
        for b in &p.moves {
            // A block that jumps to a named position moves off the grid's geometry.
            let mut steps = BTreeSet::new();
            let mut jumps = false;
            let mut budget = 100_000;
            moves::visit(
                &b.program,
                &doc.procedures,
                &mut budget,
                &mut |i, _| match i {
                    Instr::Step(d) | Instr::StepOpposite(d) => {
                        steps.insert(d.clone());
                    }
                    Instr::Jump(_) => jumps = true,
                    _ => {}
                },
            );
            if !jumps {
                out.extend(steps);
            }
        }
    }
    let sym: Vec<String> = game
        .boards
        .iter()
        .flat_map(|b| &b.symmetries)
        .flat_map(|s| &s.map)
        .filter(|m| out.contains(&m[0]))
        .map(|m| m[1].clone())
        .collect();
    out.extend(sym);
    out
}

/// The squares of zone `name` for `player`, as Fairy-Stockfish names them.
fn zone_squares(
    game: &Game,
    geo: &Geometry,
    name: &str,
    player: &str,
) -> Option<BTreeSet<(i32, i32)>> {
    let z = game
        .boards
        .first()?
        .zones
        .iter()
        .find(|z| z.name == name && z.players.iter().any(|p| p == player))?;
    Some(
        z.positions
            .iter()
            .filter_map(|p| geo.square.get(p).copied())
            .collect(),
    )
}

fn bitboard(squares: &BTreeSet<(i32, i32)>) -> String {
    if squares.is_empty() {
        return "-".into();
    }
    let mut v: Vec<(i32, i32)> = squares.iter().copied().collect();
    v.sort_by_key(|&(f, r)| (r, f));
    v.iter()
        .map(|&(f, r)| square_name(f, r))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes game `gi` of `doc` as a section named `name` (prefixed with the source's format when
/// it is a built-in variant's name, see [`section_name`]).
pub fn write_game(doc: &Document, gi: usize, name: &str) -> Section {
    write_game_at(doc, gi, name, &GameOrigin::default())
}

/// [`write_game`], its diagnostics located through `origin` (where the game's parts stand in
/// the source, when known): a lost move block at the block, a piece's loss at its form.
pub fn write_game_at(doc: &Document, gi: usize, name: &str, origin: &GameOrigin) -> Section {
    let game = &doc.games[gi];
    let name = &fresh_name(doc, name);
    let mut cx = Cx {
        game,
        title: &game.title,
        diags: Vec::new(),
        gaps: Vec::new(),
        origin,
        at: None,
        lines: LineState::default(),
        placed: Vec::new(),
    };
    let refused = |cx: Cx, why: String| Section {
        name: name.to_string(),
        text: String::new(),
        squares: BTreeMap::new(),
        letters: BTreeMap::new(),
        placed: Vec::new(),
        status: Status::Refused,
        diagnostics: {
            let mut d = cx.diags;
            d.push(Diagnostic::new(
                Severity::Warning,
                CODE_REFUSED,
                format!("{}: not written: {why}", cx.title),
                None,
            ));
            d
        },
    };
    if game.players.len() != 2 {
        return refused(
            cx,
            format!(
                "it has {} players; Fairy-Stockfish games have two",
                game.players.len()
            ),
        );
    }
    let dirs = step_directions(doc, game);
    let geo = match board::geometry(game, &dirs) {
        Ok(g) => g,
        Err(e) => return refused(cx, e),
    };
    let pieces: Vec<&Piece> = game.pieces.iter().filter(|p| !p.dummy).collect();
    let royal = game.goals.iter().find_map(|g| match &g.condition {
        GoalCond::Checkmated { pieces } if pieces.len() == 1 => Some(pieces[0].as_str()),
        _ => None,
    });
    let letters = letters(&pieces, royal);
    if letters.len() < pieces.len() {
        return refused(cx, "it has more piece types than letters".into());
    }
    if game.setup.iter().any(|s| s.off.unwrap_or(0) > 0)
        && let Ok(placed) = setup::play_out(doc, game, &geo)
    {
        cx.placed = placed;
    }
    let mut keys: Vec<(String, String)> = Vec::new();
    let mut ok = Ok(());
    let lines = piece_lines(doc, &mut cx, &geo, &pieces, &letters, &mut keys, &mut ok);
    if let Err(why) = ok {
        return refused(cx, why);
    }
    // A piece of the start position needs its key, or the start FEN names an unknown letter.
    let template_king = cx.lines.used.contains(&LinePiece::King);
    let defined = |l: char| {
        (template_king && l == 'k')
            || lines
                .iter()
                .any(|x| x.split_once(" = ").is_some_and(|(_, v)| v.starts_with(l)))
    };
    if let Some(p) = game
        .setup
        .iter()
        .find(|s| s.off.is_none() && letters.get(&s.piece).is_some_and(|&l| !defined(l)))
    {
        let why = format!(
            "piece `{}` of the start position cannot be written",
            p.piece
        );
        return refused(cx, why);
    }
    turn_order(&mut cx);
    let fen = start_fen(&mut cx, &geo, &letters, &keys);
    let mut text = String::new();
    text.push_str(&format!(
        "# {} (written by zogkit from {})\n",
        game.title, doc.source.file
    ));
    let status = if cx.gaps.is_empty() {
        Status::Full
    } else {
        text.push_str("# PARTIAL: these rules of the source are missing or differ here:\n");
        for g in &cx.gaps {
            text.push_str(&format!("#   - {g}\n"));
        }
        Status::Partial
    };
    // Names Fairy-Stockfish has no key for, as comments our reader restores.
    text.push_str(&format!("# zogkit: title = {}\n", one_line(&game.title)));
    for (piece, l) in &letters {
        text.push_str(&format!("# zogkit: piece {l} = {}\n", one_line(piece)));
    }
    // A royal wazir with line moves is the `xiangqi` template's king: inherit it, and take
    // off what else the template has; so does a game named after the template.
    let parent = parent_of(game, template_king);
    text.push_str(&section_keys(
        name,
        parent,
        template_king,
        &geo,
        lines,
        &keys,
    ));
    text.push_str(&format!("startFen = {fen}\n"));
    Section {
        name: name.to_string(),
        text,
        squares: geo
            .square
            .iter()
            .map(|(p, &(f, r))| (p.clone(), square_name(f, r)))
            .collect(),
        letters,
        status,
        diagnostics: cx.diags,
        placed: cx.placed,
    }
}

/// The section from its header on, up to the start FEN: `[name]` or `[name:parent]`, the board
/// size, the piece lines and the keys; an inheriting section takes off what the template adds
/// and the section does not use (`template_king`: the template's king is the royal piece).
fn section_keys(
    name: &str,
    parent: Option<&str>,
    template_king: bool,
    geo: &Geometry,
    mut lines: Vec<String>,
    keys: &[(String, String)],
) -> String {
    let mut text = match parent {
        Some(p) => format!("[{name}:{p}]\n"),
        None => format!("[{name}]\n"),
    };
    text.push_str(&format!(
        "maxFile = {}\nmaxRank = {}\n",
        geo.files, geo.ranks
    ));
    if parent.is_some() {
        let used: BTreeSet<&str> = lines.iter().filter_map(|l| l.split(" = ").next()).collect();
        let set: BTreeMap<String, String> = keys.iter().cloned().collect();
        let extra = lines::template_overrides(&used, &set);
        // The template's king stays only when it is the game's royal wazir.
        let no_king = !template_king && !used.contains("king");
        lines.extend(extra);
        if no_king {
            lines.push("king = -".into());
        } else if !set.contains_key("mobilityRegionWhiteKing") {
            // The template's palace would hold a king that moves everywhere.
            let all: BTreeSet<(i32, i32)> = geo.square.values().copied().collect();
            for side in ["White", "Black"] {
                lines.push(format!("mobilityRegion{side}King = {}", bitboard(&all)));
            }
        }
    }
    for l in lines {
        text.push_str(&l);
        text.push('\n');
    }
    for (k, v) in keys {
        text.push_str(&format!("{k} = {v}\n"));
    }
    text
}

fn turn_order(cx: &mut Cx) {
    if cx
        .game
        .options
        .iter()
        .any(|o| o.name == crate::spec::SWAP_OPTION)
    {
        cx.gap(
            CODE_NOT_EXPRESSIBLE,
            "the pie rule (option `swap`) has no variants.ini form; it is left out".into(),
        );
    }
    let t = &cx.game.turn_order;
    if !cx.placed.is_empty() {
        let mut by: BTreeMap<(&str, &str), Vec<&str>> = BTreeMap::new();
        for p in &cx.placed {
            by.entry((&p.player, &p.piece))
                .or_default()
                .push(&p.position);
        }
        let list: Vec<String> = by
            .iter()
            .map(|((pl, pc), at)| format!("{pl}'s {pc} on {}", at.join(" ")))
            .collect();
        let what = format!(
            "its placement phase (the first {} turns, in which each player drops its held pieces) has no variants.ini form: the section starts after it, with one placement the source allows ({}); edit startFen for another",
            t.repeat_from.unwrap_or(0),
            list.join(", ")
        );
        cx.gap(CODE_APPROXIMATED, what);
        return;
    }
    let plain = t.repeat_from.unwrap_or(0) == 0
        && (t.turns.is_empty()
            || (t.turns.len() == 2
                && t.turns.iter().zip(&cx.game.players).all(|(t, p)| {
                    &t.player == p && t.move_type.is_none() && t.with_player.is_none()
                })));
    if !plain {
        cx.not_expressible(
            "its turn order is not the two players alternating (Fairy-Stockfish alternates)".into(),
        );
    }
}

/// What the pieces need beside their Betza lines.
#[derive(Default)]
struct Specials {
    promo_pawns: Vec<char>,
    promo: Option<(String, Vec<String>)>,
    initial: Option<(String, Vector)>,
    ep: Vec<char>,
    castling: Option<(char, String)>,
}

#[allow(clippy::too_many_arguments)]
fn piece_lines(
    doc: &Document,
    cx: &mut Cx,
    geo: &Geometry,
    pieces: &[&Piece],
    letters: &BTreeMap<String, char>,
    keys: &mut Vec<(String, String)>,
    ok: &mut Result<(), String>,
) -> Vec<String> {
    let (royal, ends) = goals(cx, letters);
    let classified = classify_pieces(doc, cx.game, geo, pieces);
    let mut w = PieceWriter {
        doc,
        geo,
        royal,
        keys,
        lines: Vec::new(),
        sp: Specials::default(),
        custom: 0,
        written: 0,
        lost: 0,
    };
    for (p, (c1, c2)) in pieces.iter().zip(classified) {
        cx.at = cx.origin.piece(&p.name);
        w.piece(cx, p, letters[&p.name], c1, c2);
    }
    let total: usize = pieces.iter().map(|p| p.moves.len()).sum();
    let PieceWriter {
        royal,
        keys,
        mut lines,
        sp,
        written,
        lost,
        ..
    } = w;
    cx.at = None;
    if royal.is_none() {
        lines.push("king = -".into());
    }
    if cx.lines.zone.is_some() {
        keys.push(("diagonalLines".into(), bitboard(&cx.lines.squares)));
    }
    *ok = if written == 0 {
        Err("no move of any piece could be written".into())
    } else if lost * 2 > total {
        Err(format!(
            "only {} of its {total} move blocks have a variants.ini form",
            total - lost
        ))
    } else {
        Ok(())
    };
    specials(cx, geo, letters, sp, keys);
    keys.extend(ends);
    lines
}

/// Each piece's moves classified for the first player and for the second (mirrored front to
/// back by the second player's symmetry).
fn classify_pieces(
    doc: &Document,
    game: &Game,
    geo: &Geometry,
    pieces: &[&Piece],
) -> Vec<(Classified, Classified)> {
    // Move types decide nothing among the moves when every move block has the same one and no
    // turn names one (janggi: normal moves below the placement drops, which are reported).
    let types: BTreeSet<Option<&String>> = pieces
        .iter()
        .flat_map(|p| p.moves.iter().map(|b| b.move_type.as_ref()))
        .collect();
    let ignore_mt = types.len() <= 1 && game.turn_order.turns.iter().all(|t| t.move_type.is_none());
    let second = &game.players[1];
    let sym: BTreeMap<&str, &str> = game
        .boards
        .iter()
        .flat_map(|b| &b.symmetries)
        .filter(|s| &s.player == second)
        .flat_map(|s| &s.map)
        .map(|m| (m[0].as_str(), m[1].as_str()))
        .collect(); // lookup only
    let v1 = |d: &str| geo.vectors.get(d).copied();
    let v2 = |d: &str| {
        let d = sym.get(d).copied().unwrap_or(d);
        geo.vectors.get(d).map(|v| (v.0, -v.1))
    };
    let area: BTreeSet<(i32, i32)> = geo.square.values().copied().collect();
    let holds = |c: &crate::spec::Cond| -> Option<bool> {
        use crate::spec::Cond;
        let (zone, want) = match c {
            Cond::InZone { zone, at: None } => (zone, true),
            Cond::Not(inner) => match &**inner {
                Cond::InZone { zone, at: None } => (zone, false),
                _ => return None,
            },
            _ => return None,
        };
        let all = game
            .players
            .iter()
            .all(|pl| zone_squares(game, geo, zone, pl).is_some_and(|z| z.is_superset(&area)));
        all.then_some(want)
    };
    pieces
        .iter()
        .map(|p| {
            let c1 = pieces::classify(&p.name, &p.moves, &doc.procedures, ignore_mt, &v1, &holds);
            let c2 = pieces::classify(&p.name, &p.moves, &doc.procedures, ignore_mt, &v2, &holds);
            (c1, c2)
        })
        .collect()
}

/// The piece lines and keys of a section as [`piece_lines`] writes them, piece by piece, with
/// how many pieces were written and how many move blocks were left out.
struct PieceWriter<'a> {
    doc: &'a Document,
    geo: &'a Geometry,
    /// The royal piece, written as the `king`.
    royal: Option<String>,
    keys: &'a mut Vec<(String, String)>,
    lines: Vec<String>,
    sp: Specials,
    /// Custom pieces written so far (Fairy-Stockfish has 25).
    custom: usize,
    written: usize,
    lost: usize,
}

impl PieceWriter<'_> {
    /// Writes piece `p` of letter `l`, classified for the first player (`c1`) and the second.
    fn piece(&mut self, cx: &mut Cx, p: &Piece, l: char, c1: Classified, c2: Classified) {
        if c1 != c2 {
            cx.not_expressible(format!(
                "piece `{}`: the second player's moves are not the first player's mirrored front to back (Fairy-Stockfish mirrors them); write it in Chessembly",
                p.name
            ));
            self.lost += p.moves.len();
            return;
        }
        self.lost += c1
            .unexpressible
            .iter()
            .map(|u| u.0)
            .collect::<BTreeSet<_>>()
            .len();
        for (b, why) in &c1.unexpressible {
            let at = cx.origin.block(&p.name, false, b.saturating_sub(1));
            cx.gap_at(CODE_NOT_EXPRESSIBLE, format!(
                "piece `{}`, move block {b}: {why}; this block is left out (Chessembly can state it: `--to chessembly`)",
                p.name
            ), at);
        }
        if !p.drops.is_empty() && !cx.placed.iter().any(|x| x.piece == p.name) {
            cx.not_expressible(format!(
                "piece `{}`: its {} drop block(s) are left out (drops here are not Fairy-Stockfish's drops from the hand)",
                p.name,
                p.drops.len()
            ));
        }
        let mut c1 = c1;
        if (!c1.line_blocks.is_empty()
            || c1.moves.iter().any(|m| m.atom.travel == Travel::JanggiHop))
            && self.line_piece(cx, p, l, &mut c1)
        {
            return;
        }
        let zoned = c1.moves.iter().any(|m| m.zone.is_some());
        if zoned && c1.moves.iter().any(|m| m.zone.is_none()) {
            self.soldier(cx, p, l, &c1);
            return;
        }
        self.betza_piece(cx, p, l, &c1);
    }

    /// A piece that moves along a zone's lines or hops as a janggi cannon: written as a
    /// built-in line piece when it is one; else its line blocks are left out (and it is done
    /// with, returning true, when it still hops as a cannon).
    fn line_piece(&mut self, cx: &mut Cx, p: &Piece, l: char, c1: &mut Classified) -> bool {
        let is_royal = self.royal.as_deref() == Some(p.name.as_str());
        if line_builtin(cx, self.geo, p, l, c1, is_royal, &mut self.lines, self.keys).is_some() {
            self.written += 1;
            return true;
        }
        self.lost += c1.line_blocks.len();
        for b in &c1.line_blocks {
            let at = cx.origin.block(&p.name, false, b.saturating_sub(1));
            cx.gap_at(CODE_NOT_EXPRESSIBLE, format!(
                "piece `{}`, move block {b}: it moves only along the lines of a zone (it tests its starting square first), which Fairy-Stockfish states only for its janggi pieces; this block is left out (Chessembly can state it: `--to chessembly`)",
                p.name
            ), at);
        }
        c1.moves.retain(|m| m.lines.is_none());
        if c1.moves.iter().any(|m| m.atom.travel == Travel::JanggiHop) {
            cx.not_expressible(format!(
                "piece `{}`: a cannon whose screen and target may not be of its own kind is Fairy-Stockfish's `janggiCannon` only with the rook's line moves; write it in Chessembly",
                p.name
            ));
            self.lost += p.moves.len();
            return true;
        }
        false
    }

    /// A piece some of whose moves hold only in a zone: Fairy-Stockfish's one soldier type.
    fn soldier(&mut self, cx: &mut Cx, p: &Piece, l: char, c1: &Classified) {
        if self
            .lines
            .iter()
            .any(|x: &String| x.starts_with("soldier = "))
        {
            cx.not_expressible(format!(
                "piece `{}`: a second soldier (Fairy-Stockfish has one soldier type); write it in Chessembly",
                p.name
            ));
            self.lost += p.moves.len();
            return;
        }
        match soldier(cx, self.geo, p, l, c1) {
            Some(k) => {
                self.lines.push(format!("soldier = {l}"));
                self.keys.extend(k);
                self.written += 1;
            }
            None => self.lost += p.moves.len(),
        }
    }

    /// A piece written by its Betza moves: the `king`, or a custom piece.
    fn betza_piece(&mut self, cx: &mut Cx, p: &Piece, l: char, c1: &Classified) {
        let Some(atoms) = piece_atoms(cx, p, l, c1, &mut self.sp) else {
            return;
        };
        let text = match betza::write(&atoms) {
            Ok(t) => t,
            Err(a) => {
                cx.not_expressible(format!(
                    "piece `{}`: the {:?} movement by ({}, {}) has no Betza form in Fairy-Stockfish; write it in Chessembly",
                    p.name, a.travel, a.v.0, a.v.1
                ));
                self.lost += p.moves.len();
                return;
            }
        };
        if !atoms.is_empty() {
            self.written += 1;
        }
        if self.royal.as_deref() == Some(p.name.as_str()) {
            self.lines.push(format!("king = {l}:{text}"));
            if let Some(k) = zone_key(cx, self.geo, p, c1, "King") {
                self.keys.extend(k);
            }
            if c1.castling > 0 {
                self.sp.castling = Some((l, castling_rook(self.doc, p)));
            }
        } else {
            if c1.castling > 0 {
                cx.not_expressible(format!(
                    "piece `{}`: castles but is not the royal piece",
                    p.name
                ));
            }
            self.custom += 1;
            if self.custom > 25 {
                cx.not_expressible(format!("piece `{}`: more than 25 custom pieces", p.name));
                return;
            }
            self.lines.push(format!(
                "customPiece{custom} = {l}:{text}",
                custom = self.custom
            ));
            let key = format!("CustomPiece{}", self.custom);
            if let Some(k) = zone_key(cx, self.geo, p, c1, &key) {
                self.keys.extend(k);
            }
        }
    }
}

/// Writes a piece whose moves are one of Fairy-Stockfish's built-in line pieces (janggi's):
/// its key, its mobility region, the soldier's rank. `None` when it is none of them, its lines
/// are not the zone the others follow, or Fairy-Stockfish would read the zone's lines
/// differently.
#[allow(clippy::too_many_arguments)]
fn line_builtin(
    cx: &mut Cx,
    geo: &Geometry,
    p: &Piece,
    l: char,
    c: &Classified,
    royal: bool,
    lines: &mut Vec<String>,
    keys: &mut Vec<(String, String)>,
) -> Option<LinePiece> {
    let (kind, zone) = lines::line_piece(c, royal)?;
    if cx.lines.used.contains(&kind) || (kind == LinePiece::King && l != 'k') {
        return None;
    }
    if kind == LinePiece::Soldier && lines.iter().any(|x| x.starts_with("soldier = ")) {
        return None;
    }
    match &cx.lines.zone {
        Some(z) if *z != zone => return None,
        Some(_) => {}
        None => {
            let game = cx.game;
            let squares: BTreeSet<(i32, i32)> = game
                .players
                .iter()
                .filter_map(|pl| zone_squares(game, geo, &zone, pl))
                .flatten()
                .collect();
            if squares.is_empty() || !lines::lines_agree(&squares) {
                return None;
            }
            cx.lines.zone = Some(zone);
            cx.lines.squares = squares;
        }
    }
    cx.lines.used.insert(kind);
    let off = Classified {
        moves: c
            .moves
            .iter()
            .filter(|m| m.lines.is_none())
            .cloned()
            .collect(),
        ..Classified::default()
    };
    match kind {
        LinePiece::King | LinePiece::Wazir => {
            let key = if kind == LinePiece::King {
                "King"
            } else {
                "Wazir"
            };
            if kind == LinePiece::Wazir {
                lines.push(format!("wazir = {l}"));
            }
            let region = zone_key(cx, geo, p, &off, key).unwrap_or_else(|| {
                let all: BTreeSet<(i32, i32)> = geo.square.values().copied().collect();
                vec![
                    (format!("mobilityRegionWhite{key}"), bitboard(&all)),
                    (format!("mobilityRegionBlack{key}"), bitboard(&all)),
                ]
            });
            keys.extend(region);
        }
        LinePiece::Soldier => {
            lines.push(format!("soldier = {l}"));
            keys.push(("soldierPromotionRank".into(), "1".into()));
        }
        LinePiece::Rook | LinePiece::JanggiCannon => {
            lines.push(format!("{} = {l}", kind.key()));
        }
    }
    Some(kind)
}

/// The rook a castling block moves (its `verify (piece? R)`).
fn castling_rook(doc: &Document, p: &Piece) -> String {
    let mut rook = String::new();
    for b in &p.moves {
        let mut budget = 10_000;
        moves::visit(&b.program, &doc.procedures, &mut budget, &mut |i, _| {
            if let Instr::Verify(crate::spec::Cond::Piece { piece, .. }) = i
                && rook.is_empty()
            {
                rook = piece.clone();
            }
        });
    }
    rook
}

/// A piece's atoms, with its promotion, double step and en passant noted in `sp`; `None`
/// when its zone-restricted moves cannot be stated.
fn piece_atoms(
    cx: &mut Cx,
    p: &Piece,
    l: char,
    c: &Classified,
    sp: &mut Specials,
) -> Option<BTreeSet<Atom>> {
    let zones: BTreeSet<Option<&String>> = c.moves.iter().map(|m| m.zone.as_ref()).collect();
    let atoms: BTreeSet<Atom> = c.moves.iter().map(|m| m.atom).collect();
    if zones.len() > 1 {
        return None; // the soldier or nothing, decided by the caller
    }
    if !c.promotions.is_empty() {
        let first = c.promotions[0].clone();
        if c.promotions.iter().any(|x| *x != first)
            || sp.promo.as_ref().is_some_and(|x| *x != first)
        {
            cx.not_expressible(format!(
                "piece `{}`: promotes in different zones or to different pieces (Fairy-Stockfish has one promotion rule per side)",
                p.name
            ));
        } else {
            sp.promo = Some(first);
            sp.promo_pawns.push(l);
        }
    }
    if let Some(i) = &c.initial {
        if sp.initial.as_ref().is_some_and(|x| x != i) {
            cx.not_expressible(format!("piece `{}`: a second double-step region", p.name));
        }
        sp.initial = Some(i.clone());
    }
    if atoms.iter().any(|a| a.modality == Modality::CaptureEp) {
        sp.ep.push(l);
    }
    Some(atoms)
}

/// The xiangqi soldier: forward everywhere, sideways from a rank on (Fairy-Stockfish's
/// `soldier` with `soldierPromotionRank`).
fn soldier(
    cx: &mut Cx,
    geo: &Geometry,
    p: &Piece,
    l: char,
    c: &Classified,
) -> Option<Vec<(String, String)>> {
    let leap = |v: Vector, modality| Atom {
        travel: Travel::Leap,
        initial: false,
        modality,
        v,
    };
    let mut zone = None;
    let mut want = BTreeSet::new();
    for m in [Modality::Move, Modality::Capture] {
        want.insert(Movement {
            atom: leap((0, 1), m),
            zone: None,
            lines: None,
        });
    }
    for m in &c.moves {
        if let Some(z) = &m.zone {
            zone = Some(z.clone());
        }
    }
    let zone = zone?;
    for m in [Modality::Move, Modality::Capture] {
        for v in [(1, 0), (-1, 0)] {
            want.insert(Movement {
                atom: leap(v, m),
                zone: Some(zone.clone()),
                lines: None,
            });
        }
    }
    let game = cx.game;
    let z1 = zone_squares(game, geo, &zone, &game.players[0]).unwrap_or_default();
    let z2 = zone_squares(game, geo, &zone, &game.players[1]).unwrap_or_default();
    let from = z1.iter().map(|s| s.1).min().unwrap_or(0);
    let rows = |lo: i32, hi: i32| -> BTreeSet<(i32, i32)> {
        (lo..=hi)
            .flat_map(|r| (0..geo.files).map(move |f| (f, r)))
            .collect()
    };
    let mirrored = rows(0, geo.ranks - 1 - from);
    if c.moves != want || z1 != rows(from, geo.ranks - 1) || z2 != mirrored {
        cx.not_expressible(format!(
            "piece `{}`: some of its moves are restricted to zones in a way Fairy-Stockfish cannot state; write it in Chessembly",
            p.name
        ));
        return None;
    }
    let _ = l;
    Some(vec![(
        "soldierPromotionRank".into(),
        (from + 1).to_string(),
    )])
}

/// A mobility region when every move of the piece ends in one zone.
fn zone_key(
    cx: &mut Cx,
    geo: &Geometry,
    p: &Piece,
    c: &Classified,
    key: &str,
) -> Option<Vec<(String, String)>> {
    let z = c.moves.iter().next()?.zone.clone()?;
    if c.moves.iter().any(|m| m.zone.as_ref() != Some(&z)) {
        return None;
    }
    let game = cx.game;
    let (Some(w), Some(b)) = (
        zone_squares(game, geo, &z, &game.players[0]),
        zone_squares(game, geo, &z, &game.players[1]),
    ) else {
        cx.not_expressible(format!(
            "piece `{}`: zone `{z}` is not defined for both players",
            p.name
        ));
        return None;
    };
    Some(vec![
        (format!("mobilityRegionWhite{key}"), bitboard(&w)),
        (format!("mobilityRegionBlack{key}"), bitboard(&b)),
    ])
}

fn value(kind: GoalKind) -> Option<&'static str> {
    match kind {
        GoalKind::Win => Some("win"),
        GoalKind::Loss => Some("loss"),
        GoalKind::Draw => Some("draw"),
        GoalKind::Count => None,
    }
}

/// The royal piece and the end-condition keys.
fn goals(cx: &mut Cx, letters: &BTreeMap<String, char>) -> (Option<String>, Vec<(String, String)>) {
    let mut royal: Option<String> = None;
    let mut keys: Vec<(String, String)> = vec![("nMoveRule".into(), "0".into())];
    let mut extinction: Option<(String, String, &str)> = None;
    for g in &cx.game.goals.clone() {
        let both = cx.game.players.iter().all(|p| g.players.contains(p));
        let what = format!(
            "{} goal {}",
            format!("{:?}", g.kind).to_lowercase(),
            g.condition
        );
        let Some(v) = value(g.kind).filter(|_| both) else {
            cx.not_expressible(format!(
                "the {what} (only goals that hold for both players, and no counting)"
            ));
            continue;
        };
        let mut ext = |cx: &mut Cx, types: String, count: &'static str| {
            if extinction.is_some() {
                cx.not_expressible(format!("the {what}: a second extinction rule"));
            } else {
                extinction = Some((v.to_string(), types, count));
            }
        };
        match &g.condition {
            GoalCond::Checkmated { pieces } if g.kind == GoalKind::Loss && pieces.len() == 1 && royal.is_none() => {
                royal = Some(pieces[0].clone());
            }
            GoalCond::Stalemated => keys.push(("stalemateValue".into(), v.into())),
            GoalCond::PiecesRemaining { count, piece: Some(pc) } if count == "0" => match letters.get(pc) {
                Some(l) => ext(cx, l.to_string(), "0"),
                None => cx.not_expressible(format!("the {what}: no such piece")),
            },
            GoalCond::PiecesRemaining { count, piece: None } if count == "1" => {
                ext(cx, "*".into(), "1");
            }
            GoalCond::Repetition if g.kind == GoalKind::Draw => {
                keys.push(("nFoldValue".into(), "draw".into()));
            }
            GoalCond::Repetition => cx.gap(
                CODE_APPROXIMATED,
                format!("the {what}: ZoG decides a repetition for the player who repeats; Fairy-Stockfish's default (a draw) is kept"),
            ),
            _ => cx.not_expressible(format!("the {what} has no variants.ini form")),
        }
    }
    if let Some((v, types, count)) = extinction {
        keys.push(("extinctionValue".into(), v));
        keys.push(("extinctionPieceTypes".into(), types));
        keys.push(("extinctionPieceCount".into(), count.into()));
    }
    (royal, keys)
}

fn letters_of(cx: &mut Cx, letters: &BTreeMap<String, char>, names: &[String]) -> String {
    let mut s = String::new();
    for n in names {
        match letters.get(n) {
            Some(l) => s.push(*l),
            None => cx.not_expressible(format!(
                "promotion to `{n}`, which is not a piece of the game"
            )),
        }
    }
    if s.is_empty() { "-".into() } else { s }
}

/// Promotion, double step, en passant and castling keys.
fn specials(
    cx: &mut Cx,
    geo: &Geometry,
    letters: &BTreeMap<String, char>,
    sp: Specials,
    keys: &mut Vec<(String, String)>,
) {
    let game = cx.game;
    let (p1, p2) = (game.players[0].clone(), game.players[1].clone());
    let mut push = |k: &str, v: String| keys.push((k.to_string(), v));
    match &sp.promo {
        Some((zone, to)) => {
            let w = zone_squares(game, geo, zone, &p1).unwrap_or_default();
            let b = zone_squares(game, geo, zone, &p2).unwrap_or_default();
            let to = letters_of(cx, letters, to);
            push("promotionPawnTypes", sp.promo_pawns.iter().collect());
            push("promotionPieceTypes", to);
            push("promotionRegionWhite", bitboard(&w));
            push("promotionRegionBlack", bitboard(&b));
            push("mandatoryPawnPromotion", "true".into());
        }
        None => {
            push("promotionPawnTypes", "-".into());
            push("promotionPieceTypes", "-".into());
        }
    }
    match &sp.initial {
        Some((zone, v)) => {
            let origins = |player: &str, v: Vector| -> BTreeSet<(i32, i32)> {
                let z = zone_squares(game, geo, zone, player).unwrap_or_default();
                geo.square
                    .values()
                    .filter(|s| z.contains(&(s.0 + v.0, s.1 + v.1)))
                    .copied()
                    .collect()
            };
            push("doubleStep", "true".into());
            push("doubleStepRegionWhite", bitboard(&origins(&p1, *v)));
            push(
                "doubleStepRegionBlack",
                bitboard(&origins(&p2, (v.0, -v.1))),
            );
        }
        None => push("doubleStep", "false".into()),
    }
    let mut pawns: BTreeSet<char> = sp.promo_pawns.iter().copied().collect();
    pawns.extend(sp.ep.iter().copied());
    let set = |s: &BTreeSet<char>| {
        if s.is_empty() {
            "-".to_string()
        } else {
            s.iter().collect()
        }
    };
    push("pawnTypes", set(&pawns));
    push("enPassantTypes", set(&sp.ep.iter().copied().collect()));
    match &sp.castling {
        Some((k, rook)) => match letters.get(rook) {
            Some(r) => {
                push("castling", "true".into());
                push("castlingKingPiece", k.to_string());
                push("castlingRookPieces", r.to_string());
                cx.gap(
                    CODE_APPROXIMATED,
                    "castling follows Fairy-Stockfish's rules (castling rights, no castling out of or through check); the source's castling tests only the squares".into(),
                );
            }
            None => {
                push("castling", "false".into());
                cx.not_expressible("castling with no rook piece found".into());
            }
        },
        None => push("castling", "false".into()),
    }
}

/// The start position as a FEN.
fn start_fen(
    cx: &mut Cx,
    geo: &Geometry,
    letters: &BTreeMap<String, char>,
    keys: &[(String, String)],
) -> String {
    let game = cx.game;
    let mut grid: BTreeMap<(i32, i32), char> = BTreeMap::new();
    let mut hand = String::new();
    for pl in &game.setup {
        let Some(&l) = letters.get(&pl.piece) else {
            cx.not_expressible(format!(
                "setup of `{}`, which is not a written piece",
                pl.piece
            ));
            continue;
        };
        let l = if pl.player == game.players[0] {
            l.to_ascii_uppercase()
        } else {
            l
        };
        for p in &pl.positions {
            if let Some(s) = geo.square.get(p) {
                grid.insert(*s, l);
            }
        }
        if !cx
            .placed
            .iter()
            .any(|x| x.player == pl.player && x.piece == pl.piece)
        {
            for _ in 0..pl.off.unwrap_or(0) {
                hand.push(l);
            }
        }
    }
    for p in &cx.placed {
        let (Some(&l), Some(s)) = (letters.get(&p.piece), geo.square.get(&p.position)) else {
            continue;
        };
        let up = p.player == game.players[0];
        grid.insert(*s, if up { l.to_ascii_uppercase() } else { l });
    }
    let mut fen = String::new();
    for r in (0..geo.ranks).rev() {
        let mut empty = 0;
        for f in 0..geo.files {
            match grid.get(&(f, r)) {
                Some(c) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(*c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if r > 0 {
            fen.push('/');
        }
    }
    if !hand.is_empty() {
        cx.not_expressible(format!(
            "pieces held off the board at the start ({hand}) are left out"
        ));
    }
    let key = |k: &str| keys.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    let mut rights = String::new();
    if key("castling") == Some("true") {
        let (k, r) = (key("castlingKingPiece"), key("castlingRookPieces"));
        if let (Some(k), Some(r)) = (
            k.and_then(|s| s.chars().next()),
            r.and_then(|s| s.chars().next()),
        ) {
            for (rank, up) in [(0, true), (geo.ranks - 1, false)] {
                let c = |x: char| if up { x.to_ascii_uppercase() } else { x };
                if grid.values().filter(|&&x| x == c(k)).count() == 1
                    && grid.iter().any(|(s, &x)| x == c(k) && s.1 == rank)
                {
                    if grid.get(&(geo.files - 1, rank)) == Some(&c(r)) {
                        rights.push(c('k'));
                    }
                    if grid.get(&(0, rank)) == Some(&c(r)) {
                        rights.push(c('q'));
                    }
                }
            }
        }
    }
    if rights.is_empty() {
        rights.push('-');
    }
    format!("{fen} w {rights} - 0 1")
}

/// `s` on one line (comments end at the line end).
fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}
