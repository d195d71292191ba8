//! Spec → `.lud`: readable, indented Ludii text for the supported subset, with diagnostics for the rest.
//!
//! Move blocks are printed from their typed movements (`spec::movement`: step, slide, slide with
//! an exact distance, hop, cannon hop, leap, two-step, path) and consecutive blocks that differ only in their
//! direction are written as one ludeme with a direction set. A move ludeme used by several
//! pieces is written once as a `(define …)`. `read_lud(write_lud(spec)) == spec` holds for
//! every spec `read_lud` produces.

use super::board::{self, COMPASS, Geo};
use super::lower::relative_name;
use super::syntax::{self, Node};
use crate::diag::{Diagnostic, FileId, Severity, Span};
use crate::spec::geometry::build::build;
use crate::spec::movement::{self, Land, Movement, Travel};
use crate::spec::moves::{Inliner, first_move_only, inline, is_add, is_empty_test};
use crate::spec::origin::GameOrigin;
use crate::spec::{BoardArg, BoardFn, Construction, SiteKind};
use crate::spec::{
    Cond, Document, Game, GoalCond, GoalKind, Instr, MoveBlock, Origins, RawFormat, Test,
};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;

/// Diagnostic code: part of the spec has no `.lud` form in the supported subset.
pub const CODE_NOT_EXPRESSIBLE: &str = "ludii::not-expressible";

/// Width the writer wraps ludemes at.
const WIDTH: usize = 100;

/// Re-lays compact ludeme text over several lines when it is long.
fn lay(text: &str, indent: usize) -> String {
    let (nodes, d) = syntax::parse(text, FileId(u32::MAX));
    match (d.is_empty(), nodes.as_slice()) {
        (true, [n]) => syntax::pretty(n, indent, WIDTH),
        _ => text.to_string(),
    }
}

/// What a writer run found it could not express: the diagnostics and one line per loss for
/// the comment that marks a written file as partial.
#[derive(Default)]
struct Report {
    diags: Vec<Diagnostic>,
    lost: Vec<String>,
    /// The messages in `lost` (a linear search made thousands of losses quadratic).
    lost_set: HashSet<String>, // lookup only
    /// Where the game's parts stand in the file read in this run (empty when unknown).
    origin: GameOrigin,
    /// Where what is being written stands (a piece's form), else the game's form.
    at: Option<Span>,
}

impl Report {
    /// Part of the game's rules or pieces is left out: a warning, and the file is partial.
    fn lose(&mut self, msg: String) {
        let at = self.at.or(self.origin.at);
        self.lose_at(msg, at);
    }
    /// [`Report::lose`], located at `at` (a move block) when known.
    fn lose_at(&mut self, msg: String, at: Option<Span>) {
        if self.lost_set.insert(msg.clone()) {
            self.lost.push(msg.clone());
        }
        let at = at.or(self.at).or(self.origin.at);
        self.diags.push(Diagnostic::new(
            Severity::Warning,
            CODE_NOT_EXPRESSIBLE,
            msg,
            at,
        ));
    }
    /// The output cannot be played at all (no board): an error.
    fn fail(&mut self, msg: String) {
        self.lost_set.insert(msg.clone());
        self.lost.push(msg.clone());
        self.diags.push(Diagnostic::new(
            Severity::Error,
            CODE_NOT_EXPRESSIBLE,
            msg,
            self.origin.at,
        ));
    }
    /// Presentation only (names, texts): a note; the rules are complete without it.
    fn note(&mut self, msg: String) {
        self.diags.push(Diagnostic::new(
            Severity::Note,
            CODE_NOT_EXPRESSIBLE,
            msg,
            None,
        ));
    }
}

/// Writes the first game of `doc` as a `.lud` file. Diagnostics list everything that could not
/// be expressed (it is left out of the text, and a comment at the top of the text lists it):
/// warnings for lost rules, an error when no board could be written (the text cannot be played).
/// The spec carries no source spans, so these diagnostics name the game, piece and block; see
/// [`write_lud_at`] to locate them in the source as well.
pub fn write_lud(doc: &Document) -> (String, Vec<Diagnostic>) {
    write_lud_at(doc, &Origins::default())
}

/// [`write_lud`], with each warning located where what it loses stands in the source file
/// (`origins`, from the reader in this run): a move block, else its piece, else the game.
pub fn write_lud_at(doc: &Document, origins: &Origins) -> (String, Vec<Diagnostic>) {
    let mut rep = Report {
        origin: origins.game(0).clone(),
        ..Report::default()
    };
    let Some(game) = doc.games.first() else {
        rep.fail("the document has no game".into());
        return (String::new(), rep.diags);
    };
    if doc.games.len() > 1 {
        rep.note(format!(
            "a .lud file holds one game; {} further games and variants are not written",
            doc.games.len() - 1
        ));
    }
    let text = write_game(doc, game, &mut rep);
    if rep.lost.is_empty() {
        return (text, rep.diags);
    }
    let mut head =
        String::from("// zogkit: partial translation; these parts of the game are not written:\n");
    for l in &rep.lost {
        let _ = writeln!(head, "//   - {}", l.replace('\n', " "));
    }
    head.push('\n');
    (head + &text, rep.diags)
}

/// The Ludii site of every position [`write_lud`] places on the board of the first game, by
/// position name (empty when no board is written). Ludii numbers sites as `facts` reports them.
pub fn lud_sites(doc: &Document) -> Vec<(String, usize)> {
    let Some(b) = doc.games.first().and_then(|g| g.boards.first()) else {
        return vec![];
    };
    match map_board(b) {
        Ok(m) => m.site.into_iter().collect(),
        Err(_) => vec![],
    }
}

/// How the spec's board lands on a Ludii board.
struct Map {
    /// The `(board …)` ludeme.
    text: String,
    geo: Geo,
    /// Ludii site of each position on the board, by name.
    site: BTreeMap<String, usize>,
    /// Compass index (into [`COMPASS`]) of each board direction that is one compass step
    /// everywhere on the Ludii board.
    dir: BTreeMap<String, usize>,
}

struct Ctx<'a> {
    map: Option<Map>,
    /// Compass index each player faces (0 = N).
    facing: Vec<usize>,
    /// Each player's direction renaming (ZRF symmetries), identity where absent.
    sym: Vec<BTreeMap<String, String>>,
    /// Ludii piece name of each spec piece name.
    pname: BTreeMap<String, String>,
    procs: &'a [Vec<Instr>],
    /// Inlined procedure bodies and the budget left, for the whole document.
    inliner: std::cell::RefCell<Inliner>,
    /// Zones written without an owner (every player has them): `(sites "z")`, not `(sites Mover "z")`.
    shared: Vec<String>,
    /// The spec was read from Ludii (`.lud` or its English): its slides and leaps already
    /// follow the Ludii readers' conventions (see [`leap_ludemes`]).
    from_lud: bool,
    rep: &'a mut Report,
}

impl Ctx<'_> {
    /// Compass index of spec direction `d` for player `i`.
    fn compass(&self, i: usize, d: &str) -> Option<usize> {
        let m = self.map.as_ref()?;
        let d = self
            .sym
            .get(i)
            .and_then(|s| s.get(d))
            .map_or(d, |s| s.as_str());
        m.dir.get(d).copied()
    }
    fn players(&self) -> usize {
        self.facing.len().max(1)
    }
    fn piece(&self, name: &str) -> String {
        let mut q = String::new();
        syntax::quote_into(self.pname.get(name).map_or(name, |s| s.as_str()), &mut q);
        q
    }
}

/// A Ludii piece name: letters only, capitalised (Ludii appends the owner's number).
fn ludii_piece_names(g: &Game) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut used: Vec<String> = Vec::new();
    for p in &g.pieces {
        // Ludii reads digits in a component name as an owner number: spell them as letters.
        let mut n: String = p
            .name
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| match c.to_digit(10) {
                Some(d) => (b'a' + d as u8) as char,
                None => c,
            })
            .collect();
        if n.is_empty() {
            n.push_str("Piece");
        }
        // Ludii capitalises component names.
        if let Some(f) = n.get(..1) {
            n = f.to_ascii_uppercase() + &n[1..];
        }
        let base = n.clone();
        let mut k = 0;
        while used.iter().any(|u| u.eq_ignore_ascii_case(&n)) {
            k += 1;
            let mut suffix = String::new();
            let mut v = k;
            while v > 0 {
                suffix.push((b'a' + (v % 26) as u8) as char);
                v /= 26;
            }
            n = format!("{base}{suffix}");
        }
        used.push(n.clone());
        out.insert(p.name.clone(), n);
    }
    out
}

/// Extensions of a game, by the section of the `.lud` they belong to.
#[derive(Default)]
struct Ext {
    equipment: Vec<String>,
    start: Vec<String>,
    end: Vec<String>,
    meta: Vec<String>,
    rules: Vec<String>,
    play: Option<String>,
    phases: Option<String>,
    game: Vec<String>,
    metadata: Option<String>,
    comments: Vec<String>,
}

fn game_extensions(g: &Game, rep: &mut Report) -> Ext {
    let mut x = Ext::default();
    for e in g.extensions.texts(RawFormat::Ludii) {
        if is_comment(e) {
            x.comments.push(e.clone());
            continue;
        }
        let (nodes, d) = syntax::parse(e, FileId(u32::MAX));
        if !d.is_empty() || nodes.len() != 1 {
            rep.lose(format!("extension `{e}` is not a ludeme"));
            continue;
        }
        let n = &nodes[0];
        let inner = |n: &Node| -> Vec<String> {
            n.args()
                .iter()
                .flat_map(|a| match a {
                    Node::Array(items, _) => items.iter().map(syntax::print).collect::<Vec<_>>(),
                    other => vec![syntax::print(other)],
                })
                .collect()
        };
        match n.head() {
            Some("equipment") => x.equipment.extend(inner(n)),
            Some("start") => x.start.extend(inner(n)),
            Some("end") => x.end.extend(inner(n)),
            Some("rules") => {
                for i in n.args() {
                    let t = syntax::print(i);
                    match (i.head(), i) {
                        (Some("play"), _) => x.play = Some(t),
                        (Some("meta"), _) => x.meta.push(t),
                        (_, Node::Named(name, ..)) if name == "phases" => x.phases = Some(t),
                        _ => x.rules.push(t),
                    }
                }
            }
            Some("metadata") => x.metadata = Some(e.clone()),
            _ => x.game.push(e.clone()),
        }
    }
    x
}

fn write_game(doc: &Document, g: &Game, rep: &mut Report) -> String {
    // Ludii's `(then (promote …))` on the whole play, as the reader lowers it.
    let unwrapped;
    let (g, arrival) = match arrival_promotion(g, &doc.procedures) {
        Some((plain, p)) => {
            unwrapped = plain;
            (&unwrapped, Some(p))
        }
        None => (g, None),
    };
    let board = g.boards.first();
    if g.boards.len() > 1 {
        rep.lose(format!("{} boards after the first", g.boards.len() - 1));
    }
    let mut cx = context(doc, g, board, rep);
    let mut x = game_extensions(g, cx.rep);
    // ZoG's implicit rules (a player without moves loses) hold for games from ZRF only.
    let from_zrf = doc.source.format == "zrf";

    let mut out = String::new();
    // Move ludemes per piece, then defines for those used by several pieces.
    let mut piece_moves: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    for p in &g.pieces {
        piece_moves.push(piece_ludemes(p, &mut cx));
    }
    // A move ludeme that two or more pieces share becomes a define, in first-use order. Counted
    // with hash maps: comparing every pair of pieces' lists was quadratic (a fuzzed file spent
    // 3 s here).
    let (defines, define_of) = shared_moves(&piece_moves);
    for (name, body) in &defines {
        let _ = writeln!(out, "(define \"{name}\"");
        let _ = writeln!(out, "    {}", lay(body, 4));
        let _ = writeln!(out, ")\n");
    }
    let call = |m: &String| -> String {
        define_of
            .get(m.as_str())
            .map(|&i| format!("\"{}\"", defines[i].0))
            .unwrap_or_else(|| m.clone())
    };

    for c in &x.comments {
        let _ = writeln!(out, "{}", c.replace('\n', " "));
    }
    let _ = write!(out, "(game ");
    syntax::quote_into(&g.title, &mut out);
    out.push('\n');
    write_players(g, &cx, &mut out);
    // Equipment.
    let _ = writeln!(out, "    (equipment {{");
    if let Some(m) = &cx.map {
        let _ = writeln!(out, "        {}", m.text);
    }
    for (p, (moves, after)) in g.pieces.iter().zip(&piece_moves) {
        let notes: Vec<&String> = p
            .extensions
            .texts(RawFormat::Ludii)
            .filter(|e| is_comment(e))
            .collect();
        let name = cx.piece(&p.name);
        for o in piece_owners(g, p) {
            write_piece(&name, &o, (moves, after), &notes, &call, &mut out);
        }
    }
    write_regions(g, board, &mut cx, &mut out);
    let hands = hand_size(g);
    if hands > 0 {
        let _ = writeln!(out, "        (hand Each size:{hands})");
    }
    for e in &x.equipment {
        let _ = writeln!(out, "        {}", lay(e, 8));
    }
    let _ = writeln!(out, "    }})");
    write_rules(
        g,
        &mut x,
        hands > 0,
        arrival.as_ref(),
        from_zrf,
        &mut cx,
        &mut out,
    );
    for e in &x.game {
        let _ = writeln!(out, "    {}", lay(e, 4));
    }
    let _ = writeln!(out, ")");
    match &x.metadata {
        Some(m) => {
            let _ = writeln!(out, "\n{}", lay(m, 0));
        }
        None => {
            if let Some(d) = &g.texts.description {
                let mut q = String::new();
                syntax::quote_into(d, &mut q);
                let _ = writeln!(out, "\n(metadata (info {{(description {q})}}))");
            }
        }
    }
    other_sections(g, &mut cx);
    out
}

/// The writing context of game `g` of `doc`: how its board maps, its players' sides, its
/// pieces' Ludii names and its shared zones.
fn context<'a>(
    doc: &'a Document,
    g: &Game,
    board: Option<&crate::spec::Board>,
    rep: &'a mut Report,
) -> Ctx<'a> {
    let map = board_map(board, rep);
    let (facing, sym) = player_sides(g, board, map.as_ref());
    Ctx {
        map,
        facing,
        sym,
        pname: ludii_piece_names(g),
        procs: &doc.procedures,
        inliner: std::cell::RefCell::new(Inliner::new(doc.procedures.len())),
        shared: board.map_or(vec![], |b| {
            b.zones
                .iter()
                .filter(|z| every_player(g, &z.players))
                .map(|z| z.name.clone())
                .collect()
        }),
        from_lud: matches!(doc.source.format.as_str(), "lud" | "ludii-english"),
        rep,
    }
}

/// How the game's board lands on a Ludii board; none (a failure) without a board or when it
/// cannot be mapped.
fn board_map(board: Option<&crate::spec::Board>, rep: &mut Report) -> Option<Map> {
    match board {
        Some(b) => match map_board(b) {
            Ok(m) => Some(m),
            Err(why) => {
                rep.fail(format!(
                    "the board ({why}); no playable .lud can be written"
                ));
                None
            }
        },
        None => {
            rep.fail("the game has no board".into());
            None
        }
    }
}

/// A piece's move ludemes and its `(then …)` ludemes, from its moves and its Ludii
/// extensions; what the `.lud` cannot carry of the piece is reported.
fn piece_ludemes(p: &crate::spec::Piece, cx: &mut Ctx) -> (Vec<String>, Vec<String>) {
    cx.rep.at = cx.rep.origin.piece(&p.name);
    let mut v = moves_ludemes(&p.name, &p.moves, cx);
    let mut after = Vec::new();
    for e in p.extensions.texts(RawFormat::Ludii) {
        let (nodes, d) = syntax::parse(e, FileId(u32::MAX));
        if is_comment(e) {
            continue;
        }
        if d.is_empty() && nodes.len() == 1 {
            if nodes[0].head() == Some("then") {
                after.push(syntax::print(&nodes[0]));
            } else {
                v.push(syntax::print(&nodes[0]));
            }
        } else {
            cx.rep.lose(format!(
                "extension `{e}` of piece `{}` is not a ludeme",
                p.name
            ));
        }
    }
    if !p.drops.is_empty() && !is_simple_drop(&p.drops) {
        cx.rep.lose(format!("drops of piece `{}`", p.name));
    }
    for t in [&p.texts.help, &p.texts.description] {
        if t.is_some() {
            cx.rep
                .note(format!("texts of piece `{}` are not written", p.name));
        }
    }
    if !p.attributes.is_empty() {
        cx.rep.lose(format!("attributes of piece `{}`", p.name));
    }
    cx.rep.at = None;
    (v, after)
}

/// The move ludemes two or more pieces share, named `MoveN` in first-use order, with the
/// index of each in that list.
#[allow(clippy::type_complexity)]
fn shared_moves(
    piece_moves: &[(Vec<String>, Vec<String>)],
) -> (Vec<(String, String)>, HashMap<&str, usize>) {
    let mut pieces_using: HashMap<&str, usize> = HashMap::new(); // lookup only
    for (v, _) in piece_moves {
        let distinct: HashSet<&str> = v.iter().map(String::as_str).collect(); // lookup only
        for m in distinct {
            *pieces_using.entry(m).or_default() += 1;
        }
    }
    let mut defines: Vec<(String, String)> = Vec::new();
    let mut define_of: HashMap<&str, usize> = HashMap::new(); // lookup only
    for (v, _) in piece_moves {
        for m in v {
            if pieces_using[m.as_str()] >= 2 && !define_of.contains_key(m.as_str()) {
                define_of.insert(m, defines.len());
                defines.push((format!("Move{}", defines.len() + 1), m.clone()));
            }
        }
    }
    (defines, define_of)
}

/// The `(rules …)` section: meta, start, play or phases, end.
fn write_rules(
    g: &Game,
    x: &mut Ext,
    hands: bool,
    arrival: Option<&(String, String)>,
    from_zrf: bool,
    cx: &mut Ctx,
    out: &mut String,
) {
    // Rules, in the order Ludii's grammar has them: meta, start, play or phases, end.
    let _ = writeln!(out, "    (rules");
    if g.options
        .iter()
        .any(|o| o.name == crate::spec::SWAP_OPTION && o.value == "true")
    {
        let _ = writeln!(out, "        (meta (swap))");
    }
    for e in &x.meta {
        let _ = writeln!(out, "        {}", lay(e, 8));
    }
    write_start(g, &x.start, cx, out);
    if let Some(ph) = &x.phases {
        let _ = writeln!(out, "        {}", lay(ph, 8));
    } else {
        let play = match &x.play {
            Some(p) => p.clone(),
            None => generated_play(g, hands, arrival, cx),
        };
        let _ = writeln!(out, "        {}", lay(&play, 8));
    }
    write_end(g, std::mem::take(&mut x.end), from_zrf, cx, out);
    for e in &x.rules {
        cx.rep.lose(format!(
            "rules item `{e}` has no place in Ludii's (rules …)"
        ));
    }
    let _ = writeln!(out, "    )");
}

/// Sections of the spec the `.lud` does not carry.
fn other_sections(g: &Game, cx: &mut Ctx) {
    let alternating = g.turn_order.repeat_from.unwrap_or(0) == 0
        && g.turn_order.turns.len() == g.players.len()
        && g.turn_order
            .turns
            .iter()
            .zip(&g.players)
            .all(|(t, p)| t.player == *p && t.move_type.is_none() && t.with_player.is_none());
    if !g.turn_order.is_empty() && !alternating {
        cx.rep.lose("the turn order".into());
    }
    // Display settings (ZoG's, its 1.x keywords' hyphenated spellings, Dagaz's hints) change
    // nothing in play; every other option may, and is reported when not written.
    let plays = |o: &crate::spec::GameOption| {
        !matches!(
            o.name.replace('-', " ").as_str(),
            "animate captures"
                | "animate drops"
                | "show moves list"
                | "prevent flipping"
                | "allow flipping"
                | "highlight goals"
                | "smart moves"
                | "progressive levels"
                | "show hints"
                | "show captures"
                | "show blink"
                | "recycle captures"
        )
    };
    let lost: Vec<&str> = g
        .options
        .iter()
        .filter(|o| plays(o) && o.name != crate::spec::SWAP_OPTION)
        .map(|o| o.name.as_str())
        .collect();
    if !lost.is_empty() {
        cx.rep.lose(format!("options {lost:?}"));
    }
    if !g.move_priorities.is_empty() {
        cx.rep.lose("move priorities".into());
    }
    let zrf = g.extensions.count(RawFormat::Zrf);
    if zrf > 0 {
        cx.rep.lose(format!("{zrf} untyped ZRF forms"));
    }
    if g.extensions.count(RawFormat::Chessembly) > 0 {
        cx.rep.lose("Chessembly extensions".into());
    }
    if !g.sounds.is_empty() {
        cx.rep.note("sounds are not written".into());
    }
}

fn write_players(g: &Game, cx: &Ctx, out: &mut String) {
    if cx.facing.iter().any(|f| *f != 0) {
        let ps: Vec<String> = cx
            .facing
            .iter()
            .map(|f| format!("(player {})", COMPASS[*f]))
            .collect();
        let _ = writeln!(out, "    (players {{{}}})", ps.join(" "));
    } else {
        let _ = writeln!(out, "    (players {})", g.players.len().max(1));
    }
}

/// Ludii's owners of a piece: `Each` (`P1` in a game of one player), or each of its owners.
fn piece_owners(g: &Game, p: &crate::spec::Piece) -> Vec<String> {
    let index = |o: &String| g.players.iter().position(|x| x == o);
    match p.owners.iter().map(index).collect::<Option<Vec<usize>>>() {
        Some(v) if !v.is_empty() => v.iter().map(|i| format!("P{}", i + 1)).collect(),
        _ if g.players.len() == 1 => vec!["P1".into()],
        _ => vec!["Each".into()],
    }
}

fn write_piece(
    name: &str,
    owner: &str,
    (moves, after): (&[String], &[String]),
    notes: &[&String],
    call: &dyn Fn(&String) -> String,
    out: &mut String,
) {
    let then = |out: &mut String, ind: &str| {
        for t in after {
            let _ = writeln!(out, "{ind}{}", lay(t, ind.len()));
        }
    };
    if moves.len() == 1 && after.is_empty() && notes.is_empty() {
        let one = format!("        (piece {name} {owner} {})", call(&moves[0]));
        if one.len() <= WIDTH {
            let _ = writeln!(out, "{one}");
        } else {
            let _ = writeln!(out, "        (piece {name} {owner}");
            let _ = writeln!(out, "            {}", lay(&call(&moves[0]), 12));
            let _ = writeln!(out, "        )");
        }
        return;
    }
    if moves.is_empty() && after.is_empty() && notes.is_empty() {
        let _ = writeln!(out, "        (piece {name} {owner})");
        return;
    }
    let _ = writeln!(out, "        (piece {name} {owner}");
    if moves.len() == 1 && after.is_empty() {
        let _ = writeln!(out, "            {}", lay(&call(&moves[0]), 12));
    } else if !moves.is_empty() {
        let _ = writeln!(out, "            (or {{");
        for m in moves {
            let _ = writeln!(out, "                {}", lay(&call(m), 16));
        }
        if after.is_empty() {
            let _ = writeln!(out, "            }})");
        } else {
            let _ = writeln!(out, "            }}");
            then(out, "                ");
            let _ = writeln!(out, "            )");
        }
    }
    for c in notes {
        let _ = writeln!(out, "            {}", c.replace('\n', " "));
    }
    let _ = writeln!(out, "        )");
}

/// Whether `players` are all the game's players.
fn every_player(g: &Game, players: &[String]) -> bool {
    let mut a = players.to_vec();
    a.sort();
    let mut b = g.players.clone();
    b.sort();
    a == b
}

/// Ludii's name of a player: `P1`, `P2`, … by turn-numbering order.
fn role(g: &Game, player: &str) -> Option<String> {
    g.players
        .iter()
        .position(|p| p == player)
        .map(|i| format!("P{}", i + 1))
}

fn write_regions(g: &Game, board: Option<&crate::spec::Board>, cx: &mut Ctx, out: &mut String) {
    let Some(b) = board else { return };
    for z in &b.zones {
        let owners: Vec<String> = if every_player(g, &z.players) {
            vec![String::new()]
        } else {
            let r: Option<Vec<String>> = z.players.iter().map(|p| role(g, p)).collect();
            match r {
                Some(r) => r.into_iter().map(|r| format!(" {r}")).collect(),
                None => {
                    cx.rep
                        .lose(format!("zone `{}` of an unknown player", z.name));
                    continue;
                }
            }
        };
        let on: Vec<String> = z
            .positions
            .iter()
            .filter(|p| cx.map.as_ref().is_some_and(|m| m.site.contains_key(*p)))
            .cloned()
            .collect();
        if on.len() < z.positions.len() {
            cx.rep.note(format!(
                "zone `{}`: {} positions off the Ludii board are left out",
                z.name,
                z.positions.len() - on.len()
            ));
        }
        let Some(sites) = site_list(&on, cx) else {
            continue;
        };
        let mut name = String::new();
        syntax::quote_into(&z.name, &mut name);
        for owner in owners {
            let _ = writeln!(out, "        (regions {name}{owner} {sites})");
        }
    }
}

fn write_start(g: &Game, ext: &[String], cx: &mut Ctx, out: &mut String) {
    let placed: Vec<&crate::spec::Placement> = g
        .setup
        .iter()
        .filter(|s| !s.positions.is_empty() || s.off.is_some_and(|n| n > 0))
        .collect();
    if placed.is_empty() && ext.is_empty() {
        return;
    }
    let _ = writeln!(out, "        (start {{");
    // Hand sites are numbered per player by the order the pieces are first held.
    let mut held: Vec<Vec<String>> = vec![Vec::new(); g.players.len()];
    for s in placed {
        let Some(k) = g.players.iter().position(|p| *p == s.player) else {
            cx.rep
                .lose(format!("setup for unknown player `{}`", s.player));
            continue;
        };
        let mut item = String::new();
        let lname = cx
            .pname
            .get(&s.piece)
            .cloned()
            .unwrap_or_else(|| s.piece.clone());
        // Ludii numbers pieces by owner only when there are several players.
        let item_name = if g.players.len() == 1 {
            lname
        } else {
            format!("{lname}{}", k + 1)
        };
        syntax::quote_into(&item_name, &mut item);
        if let Some(n) = s.off.filter(|n| *n > 0) {
            if !held[k].contains(&s.piece) {
                held[k].push(s.piece.clone());
            }
            let slot = held[k].iter().position(|p| *p == s.piece).unwrap_or(0);
            let _ = writeln!(
                out,
                "            (place {item} (handSite P{} {slot}) count:{n})",
                k + 1
            );
        }
        if s.positions.is_empty() {
            continue;
        }
        let labels: Option<Vec<String>> = s
            .positions
            .iter()
            .map(|p| {
                let m = cx.map.as_ref()?;
                let site = *m.site.get(p)?;
                let mut q = String::new();
                syntax::quote_into(&m.geo.names[site], &mut q);
                Some(q)
            })
            .collect();
        let Some(coords) = labels else {
            cx.rep.lose(format!(
                "the setup of {} for {} (positions off the board)",
                s.piece, s.player
            ));
            continue;
        };
        if coords.len() == 1 {
            let _ = writeln!(out, "            (place {item} coord:{})", coords[0]);
        } else {
            let _ = writeln!(out, "            (place {item} {{{}}})", coords.join(" "));
        }
    }
    for e in ext {
        let _ = writeln!(out, "            {}", lay(e, 12));
    }
    let _ = writeln!(out, "        }})");
}

/// The most piece types one player holds off the board at the start (0: no hands).
fn hand_size(g: &Game) -> usize {
    g.players
        .iter()
        .map(|p| {
            let mut kinds: Vec<&str> = g
                .setup
                .iter()
                .filter(|s| &s.player == p && s.off.is_some())
                .map(|s| s.piece.as_str())
                .collect();
            kinds.sort();
            kinds.dedup();
            kinds.len()
        })
        .max()
        .unwrap_or(0)
}

/// `(play …)` for a game whose spec has none written in Ludii: every piece's moves and drops,
/// filtered by ZoG's `checkmated` rule (no move may leave a royal piece attacked).
fn generated_play(g: &Game, hands: bool, arrival: Option<&(String, String)>, cx: &Ctx) -> String {
    let drops = g.pieces.iter().any(|p| is_simple_drop(&p.drops));
    let moves = g.pieces.iter().any(|p| !p.moves.is_empty()) || !drops;
    let add = if hands {
        "(move (from (sites Hand Mover)) (to (sites Empty)))"
    } else {
        "(move Add (to (sites Empty)))"
    };
    let base = match (moves, drops) {
        (true, true) => format!("(or (forEach Piece) {add})"),
        (false, true) => add.to_string(),
        _ => "(forEach Piece)".to_string(),
    };
    let mut royal: Vec<String> = Vec::new();
    for goal in &g.goals {
        if let GoalCond::Checkmated { pieces } = &goal.condition {
            for p in pieces {
                let q = cx.piece(p);
                if !royal.contains(&q) {
                    royal.push(q);
                }
            }
        }
    }
    // ZoG's `checkmated` also forbids moves that leave the royal piece attacked; a spec read
    // from Ludii carries its own legality in its `(play …)`.
    let then = arrival.map_or(String::new(), |(zone, piece)| {
        let mut z = String::new();
        syntax::quote_into(zone, &mut z);
        let q = cx.piece(piece);
        format!(
            " (then (if (is In (last To) (sites Mover {z})) (promote (last To) (piece {q}) Mover)))"
        )
    });
    if royal.is_empty() {
        // The consequence goes on the moves ludeme itself: Ludii's `(do M (then …))` without
        // `ifAfterwards:` offers no move at all (only the forced pass; checked with the oracle).
        return match base.strip_suffix(')') {
            Some(open) if !then.is_empty() => format!("(play {open}{then}))"),
            _ => format!("(play {base})"),
        };
    }
    let safe: Vec<String> = royal
        .iter()
        .map(|k| format!("(not (is Threatened (id {k} Mover)))"))
        .collect();
    let cond = if safe.len() == 1 {
        safe[0].clone()
    } else {
        format!("(and {{{}}})", safe.join(" "))
    };
    format!("(play (do {base} ifAfterwards:{cond}{then}))")
}

/// A game whose every move block, of every piece, promotes to one piece on arrival in one zone
/// (forced), and in which nothing is dropped, promotes as Ludii's play-wide
/// `(then (promote …))` does: the game with those promotions taken off, and `(Z, Q)`. Blocks are
/// read through [`movement::recognise_in`], so procedures are seen through; a block without a
/// typed form, or a drop (which the play-wide promotion would promote too), keeps the
/// promotions on the blocks.
fn arrival_promotion(g: &Game, procs: &[Vec<Instr>]) -> Option<(Game, (String, String))> {
    if g.pieces.iter().any(|p| !p.drops.is_empty()) {
        return None;
    }
    let mut inl = Inliner::new(procs.len());
    let mut found: Option<(String, String)> = None;
    let mut plain = g.clone();
    for b in plain.pieces.iter_mut().flat_map(|p| p.moves.iter_mut()) {
        let mut m = movement::recognise_in(b, procs, &mut inl).ok()?;
        let p = m.promotion.take()?;
        let (Some(zone), true, [q]) = (p.zone, p.forced, p.pieces.as_slice()) else {
            return None;
        };
        let this = (zone, q.clone());
        if *found.get_or_insert_with(|| this.clone()) != this {
            return None;
        }
        *b = movement::program(&m);
    }
    found.map(|f| (plain, f))
}

fn write_end(g: &Game, ext: Vec<String>, from_zrf: bool, cx: &mut Ctx, out: &mut String) {
    let mut ends = Vec::new();
    let mut stalemate = false;
    for goal in &g.goals {
        let mut a = goal.players.clone();
        a.sort();
        let mut b = g.players.clone();
        b.sort();
        if a != b {
            cx.rep
                .lose(format!("goal {} for only some players", goal.condition));
            continue;
        }
        stalemate |= goal.condition == GoalCond::Stalemated;
        if let GoalCond::Captured { pieces } = &goal.condition
            && let Err(why) = captured_is_last(g, cx.procs, pieces)
        {
            cx.rep.lose(format!(
                "goal {:?}: ZoG's `captured` is met when the first such piece is lost, and Ludii \
                 can only count the pieces left, which is the same rule only when each player \
                 has exactly one and cannot get another ({why})",
                goal.condition
            ));
            continue;
        }
        match goal_ludeme(goal.kind, &goal.condition, cx) {
            Some(t) => ends.push(t),
            None => cx.rep.lose(format!("goal {}", goal.condition)),
        }
    }
    ends.extend(ext);
    // ZoG's rule: a player who cannot move loses, unless a goal says otherwise.
    if from_zrf && !stalemate {
        ends.push("(if (no Moves Next) (result Mover Win))".into());
    }
    match ends.len() {
        0 => {}
        1 => {
            let _ = writeln!(out, "        (end {})", lay(&ends[0], 13));
        }
        _ => {
            let _ = writeln!(out, "        (end {{");
            for e in &ends {
                let _ = writeln!(out, "            {}", lay(e, 12));
            }
            let _ = writeln!(out, "        }})");
        }
    }
}

/// Each player's facing and direction renaming, from the board's symmetries: a player faces
/// where its renaming sends the direction that points north on the Ludii board.
fn player_sides(
    g: &Game,
    board: Option<&crate::spec::Board>,
    map: Option<&Map>,
) -> (Vec<usize>, Vec<BTreeMap<String, String>>) {
    let mut facing = Vec::new();
    let mut sym = Vec::new();
    for p in &g.players {
        let m: BTreeMap<String, String> = board
            .and_then(|b| b.symmetries.iter().find(|s| &s.player == p))
            .map(|s| s.map.iter().map(|[a, b]| (a.clone(), b.clone())).collect())
            .unwrap_or_default();
        let f = map.map_or(0, |mp| facing_of(mp, &m));
        facing.push(f);
        sym.push(m);
    }
    (facing, sym)
}

/// Where a renaming sends north: the images of the board's directions weighted by how far
/// north each points (works on boards without a north direction, such as diagonal-only ones).
fn facing_of(mp: &Map, m: &BTreeMap<String, String>) -> usize {
    let (mut x, mut y) = (0i64, 0i64);
    for (d, c) in &mp.dir {
        let Some(c2) = mp.dir.get(m.get(d).unwrap_or(d)) else {
            continue;
        };
        let w = delta(*c).1;
        let (x2, y2) = delta(*c2);
        x += w * x2;
        y += w * y2;
    }
    compass_of_delta(x.signum(), y.signum()).unwrap_or(0)
}

/// Whether every board position is one Ludii site: a board built by board functions (its
/// layout's construction, as the `.lud` and English readers record it), or a full rectangle of
/// positions (by their centres) whose directions are compass steps.
fn map_board(b: &crate::spec::Board) -> Result<Map, String> {
    let Some(c) = &b.layout.construction else {
        return rectangle(b);
    };
    let geo = build(c).map_err(|e| format!("the board's construction builds no board: {e:?}"))?;
    let site = b
        .positions
        .iter()
        .filter_map(|p| Some((p.name.clone(), geo.index_of(&p.name)?)))
        .collect();
    let mut dir = BTreeMap::new();
    for d in b
        .directions
        .iter()
        .cloned()
        .chain(COMPASS.iter().map(|c| c.to_string()))
    {
        if let Some(i) = compass_ci(&d) {
            dir.insert(d, i);
        }
    }
    Ok(Map {
        text: board_item(c),
        geo,
        site,
        dir,
    })
}

/// The equipment item of a construction: `(board <graph> [use:Vertex|Edge])`, or the
/// `(mancalaBoard …)` and `(boardless …)` items, which are boards of their own.
fn board_item(c: &Construction) -> String {
    let mut out = String::new();
    let bare = matches!(c.graph.name.as_str(), "mancalaBoard" | "boardless");
    if !bare {
        out.push_str("(board ");
    }
    board_fn_into(&c.graph, &mut out);
    if !bare {
        out.push_str(match c.sites {
            SiteKind::Cell => ")",
            SiteKind::Vertex => " use:Vertex)",
            SiteKind::Edge => " use:Edge)",
        });
    }
    out
}

/// `(name args… key:value…)`.
fn board_fn_into(f: &BoardFn, out: &mut String) {
    out.push('(');
    out.push_str(&f.name);
    for a in &f.args {
        out.push(' ');
        board_arg_into(a, out);
    }
    for (k, a) in &f.named {
        let _ = write!(out, " {k}:");
        board_arg_into(a, out);
    }
    out.push(')');
}

fn board_arg_into(a: &BoardArg, out: &mut String) {
    match a {
        BoardArg::Int(k) => {
            let _ = write!(out, "{k}");
        }
        BoardArg::Real(x) => {
            let _ = write!(out, "{x}");
        }
        BoardArg::Word(w) => out.push_str(w),
        BoardArg::Fn(f) => board_fn_into(f, out),
        BoardArg::List(items) => {
            out.push('{');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                board_arg_into(x, out);
            }
            out.push('}');
        }
    }
}

/// The centre of a position: its rectangle, or its grid place.
fn centre(b: &crate::spec::Board, p: &crate::spec::Position) -> Option<(i64, i64)> {
    if let Some([x1, y1, x2, y2]) = p.rect {
        return Some((x1 + x2, y1 + y2));
    }
    let gc = p.grid.as_ref()?;
    let grid = b.layout.grids.get(gc.grid)?;
    let (mut x, mut y) = (0i64, 0i64);
    for (k, c) in gc.coords.iter().enumerate() {
        let off = grid.dimensions.get(k)?.offset;
        x += off[0] * *c as i64;
        y += off[1] * *c as i64;
    }
    Some((2 * x, 2 * y))
}

/// The board as a Ludii rectangle: every live position, or else (when that leaves directions
/// that are not compass steps, as hand areas beside a board do) the largest group of positions
/// linked by neighbouring links; positions left out are off the board.
fn rectangle(b: &crate::spec::Board) -> Result<Map, String> {
    // Removed (killed) positions hold no piece and have no links: they are left off the board.
    let live: Vec<&crate::spec::Position> = b
        .positions
        .iter()
        .filter(|p| !p.dummy && !p.killed)
        .collect();
    if live.is_empty() {
        return Err("it has no positions".into());
    }
    let whole = rect_of(b, &live);
    if whole
        .as_ref()
        .is_ok_and(|m| m.dir.len() == b.directions.len())
    {
        return whole;
    }
    let part = main_group(b, &live);
    if part.len() == live.len() || part.len() < 4 {
        return whole;
    }
    match (whole, rect_of(b, &part)) {
        (Ok(w), Ok(p)) if p.dir.len() > w.dir.len() => Ok(p),
        (Ok(w), _) => Ok(w),
        (Err(_), Ok(p)) => Ok(p),
        (Err(e), Err(_)) => Err(e),
    }
}

/// The largest set of positions connected by links between neighbouring centres.
fn main_group<'a>(
    b: &crate::spec::Board,
    live: &[&'a crate::spec::Position],
) -> Vec<&'a crate::spec::Position> {
    let cs: Vec<Option<(i64, i64)>> = live.iter().map(|p| centre(b, p)).collect();
    let gap = |k: fn(&(i64, i64)) -> i64| {
        let mut v: Vec<i64> = cs.iter().flatten().map(k).collect();
        v.sort();
        v.dedup();
        v.windows(2).map(|w| w[1] - w[0]).min().unwrap_or(0)
    };
    let (gx, gy) = (gap(|c| c.0), gap(|c| c.1));
    let index: BTreeMap<&str, usize> = live
        .iter()
        .enumerate()
        .map(|(i, p)| (p.name.as_str(), i))
        .collect();
    let mut parent: Vec<usize> = (0..live.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for (i, p) in live.iter().enumerate() {
        for l in &p.links {
            let Some(&j) = index.get(l.to.as_str()) else {
                continue;
            };
            let (Some(a), Some(c)) = (cs[i], cs[j]) else {
                continue;
            };
            if (c.0 - a.0).abs() <= gx && (c.1 - a.1).abs() <= gy {
                let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
                parent[ri] = rj;
            }
        }
    }
    let mut size = vec![0usize; live.len()];
    for i in 0..live.len() {
        let r = root(&mut parent, i);
        size[r] += 1;
    }
    let best = (0..live.len())
        .max_by_key(|i| (size[*i], usize::MAX - i))
        .unwrap_or(0);
    (0..live.len())
        .filter(|i| root(&mut parent, *i) == best)
        .map(|i| live[i])
        .collect()
}

fn rect_of(b: &crate::spec::Board, live: &[&crate::spec::Position]) -> Result<Map, String> {
    let cs: Option<Vec<(i64, i64)>> = live.iter().map(|p| centre(b, p)).collect();
    let cs = cs.ok_or("a position has neither a rectangle nor a grid place")?;
    let mut xs: Vec<i64> = cs.iter().map(|c| c.0).collect();
    let mut ys: Vec<i64> = cs.iter().map(|c| c.1).collect();
    xs.sort();
    xs.dedup();
    ys.sort();
    ys.dedup();
    let (cols, rows) = (xs.len(), ys.len());
    if cols * rows != live.len() || rows > 200 || cols > 200 {
        return Err(format!(
            "its {} positions are not a full rectangle of rows and columns",
            live.len()
        ));
    }
    let mut site = BTreeMap::new();
    let mut rc = BTreeMap::new(); // lookup only
    for (p, c) in live.iter().zip(&cs) {
        let col = xs.binary_search(&c.0).unwrap_or(0);
        let row = rows - 1 - ys.binary_search(&c.1).unwrap_or(0);
        if site.insert(p.name.clone(), row * cols + col).is_some() {
            return Err(format!("position `{}` is named twice", p.name));
        }
        rc.insert(p.name.clone(), (col as i64, row as i64));
    }
    let mut taken: Vec<usize> = site.values().copied().collect();
    taken.sort();
    taken.dedup();
    if taken.len() != live.len() {
        return Err("two positions share a place".into());
    }
    let geo = board::grid(rows, cols);
    // A direction maps to a compass step when it links exactly the sites that step links.
    let mut dir = BTreeMap::new();
    for d in &b.directions {
        let mut comp: Option<Option<usize>> = None;
        let mut n = 0;
        for p in live {
            let Some(l) = p.links.iter().find(|l| &l.direction == d) else {
                continue;
            };
            n += 1;
            let (Some(a), Some(t)) = (rc.get(&p.name), rc.get(&l.to)) else {
                comp = Some(None);
                break;
            };
            let c = compass_of_delta(t.0 - a.0, t.1 - a.1);
            match comp {
                None => comp = Some(c),
                Some(prev) if prev != c => {
                    comp = Some(None);
                    break;
                }
                _ => {}
            }
        }
        if let Some(Some(c)) = comp {
            let expected = (0..geo.len())
                .filter(|s| geo.step(*s, COMPASS[c]).is_some())
                .count();
            if expected == n {
                dir.insert(d.clone(), c);
            }
        }
    }
    let text = if rows == cols {
        format!("(board (square {rows}))")
    } else {
        format!("(board (rectangle {rows} {cols}))")
    };
    Ok(Map {
        text,
        geo,
        site,
        dir,
    })
}

fn compass_of_delta(dx: i64, dy: i64) -> Option<usize> {
    match (dx, dy) {
        (0, 1) => Some(0),
        (1, 1) => Some(1),
        (1, 0) => Some(2),
        (1, -1) => Some(3),
        (0, -1) => Some(4),
        (-1, -1) => Some(5),
        (-1, 0) => Some(6),
        (-1, 1) => Some(7),
        _ => None,
    }
}

/// A `.lud` comment kept on the spec (the English reader's unresolved phrases).
fn is_comment(e: &str) -> bool {
    e.starts_with("//")
}

fn is_simple_drop(drops: &[MoveBlock]) -> bool {
    drops.len() == 1
        && drops[0].move_type.is_none()
        && matches!(drops[0].program.as_slice(),
            [Instr::Verify(Cond::Test { test: Test::Empty, at: None, move_type: None }), a] if is_add(a))
}

fn site_list(positions: &[String], cx: &Ctx) -> Option<String> {
    let m = cx.map.as_ref()?;
    let idx: Option<Vec<usize>> = positions.iter().map(|p| m.site.get(p).copied()).collect();
    let idx = idx?;
    let mut parts = Vec::new();
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && idx[j + 1] == idx[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(format!("{}..{}", idx[i], idx[j]));
        } else {
            for k in &idx[i..=j] {
                parts.push(k.to_string());
            }
        }
        i = j + 1;
    }
    Some(format!("{{{}}}", parts.join(" ")))
}

// ---------------------------------------------------------------- conditions

fn cond_lud(c: &Cond, loc: &str, cx: &Ctx) -> Option<String> {
    Some(match c {
        Cond::Const(true) => "True".into(),
        Cond::Const(false) => "False".into(),
        Cond::Test {
            test,
            at: None,
            move_type: None,
        } => match test {
            Test::Empty => format!("(is Empty ({loc}))"),
            Test::Friend => format!("(is Friend (who at:({loc})))"),
            Test::Enemy => format!("(is Enemy (who at:({loc})))"),
            _ => return None,
        },
        Cond::InZone { zone, at: None } => {
            let mut q = String::new();
            syntax::quote_into(zone, &mut q);
            let owner = if cx.shared.contains(zone) {
                ""
            } else {
                "Mover "
            };
            format!("(is In ({loc}) (sites {owner}{q}))")
        }
        // ZoG's `piece?` names a type whoever owns it; Ludii's ids are per player. The
        // moving piece is the mover's.
        Cond::Piece { piece, at: None } if loc == "from" => {
            format!("(= (what at:({loc})) (id {} Mover))", cx.piece(piece))
        }
        Cond::Piece { piece, at: None } => {
            let each: Vec<String> = (1..=cx.players())
                .map(|k| format!("(= (what at:({loc})) (id {} P{k}))", cx.piece(piece)))
                .collect();
            match each.as_slice() {
                [one] => one.clone(),
                _ => format!("(or {{{}}})", each.join(" ")),
            }
        }
        Cond::Not(x) => format!("(not {})", cond_lud(x, loc, cx)?),
        Cond::And(v) | Cond::Or(v) => {
            let parts: Option<Vec<String>> = v.iter().map(|x| cond_lud(x, loc, cx)).collect();
            let head = if matches!(c, Cond::And(_)) {
                "and"
            } else {
                "or"
            };
            format!("({head} {{{}}})", parts?.join(" "))
        }
        _ => return None,
    })
}

// ---------------------------------------------------------------- moves

/// Compass index of a direction name in any case (ZRF writes `n`, `ne`, …).
fn compass_ci(d: &str) -> Option<usize> {
    COMPASS.iter().position(|c| c.eq_ignore_ascii_case(d))
}

/// The compass index of each direction, for each player.
fn per_player(dirs: &[String], cx: &Ctx) -> Option<Vec<Vec<usize>>> {
    (0..cx.players())
        .map(|i| dirs.iter().map(|d| cx.compass(i, d)).collect())
        .collect()
}

fn sorted(v: &[usize]) -> Vec<usize> {
    let mut v = v.to_vec();
    v.sort();
    v.dedup();
    v
}

/// How directions are named in Ludii for every player at once: absolute when every player
/// moves the same way, relative to the facing when each player's set is the first player's
/// turned by the facing; `None` otherwise.
fn dir_names(dirs: &[String], cx: &Ctx) -> Option<(Vec<String>, bool)> {
    let per = per_player(dirs, cx)?;
    let p0 = &per[0];
    if per.iter().all(|v| sorted(v) == sorted(p0)) {
        return Some((p0.iter().map(|c| COMPASS[*c].to_string()).collect(), false));
    }
    let f0 = cx.facing.first().copied().unwrap_or(0);
    let turned = |i: usize| -> Vec<usize> {
        let f = cx.facing.get(i).copied().unwrap_or(0);
        sorted(&p0.iter().map(|c| (c + 8 + f - f0) % 8).collect::<Vec<_>>())
    };
    if per.iter().enumerate().all(|(i, v)| sorted(v) == turned(i)) {
        return Some((
            p0.iter()
                .map(|c| relative_name(*c as i32 - f0 as i32).to_string())
                .collect(),
            true,
        ));
    }
    None
}

fn dirs_lud(dirs: &[String], cx: &Ctx) -> Option<String> {
    let geo = &cx.map.as_ref()?.geo;
    let (names, relative) = dir_names(dirs, cx)?;
    if !relative {
        let eq = |set: &[&str]| {
            let mut a: Vec<&str> = set.to_vec();
            let mut b: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
            let same_order = a == b;
            a.sort();
            b.sort();
            b.dedup();
            same_order || (cx_is_zrf(cx) && a == b)
        };
        if !geo.orth.is_empty() && eq(&geo.orth) {
            return Some("Orthogonal".into());
        }
        if !geo.diag.is_empty() && eq(&geo.diag) {
            return Some("Diagonal".into());
        }
        if eq(&geo.dirs) {
            return Some("Adjacent".into());
        }
    }
    Some(format!("(directions {{{}}})", names.join(" ")))
}

/// Direction sets may be written by their Ludii names in any order (the round trip of a
/// `.lud` keeps the written order, so only specs from elsewhere use this).
fn cx_is_zrf(cx: &Ctx) -> bool {
    cx.map.as_ref().is_some_and(|m| {
        !m.text.contains('<')
            && m.dir
                .keys()
                .any(|d| d.chars().any(|c| c.is_ascii_lowercase()))
    })
}

fn from_lud(from: &Option<Cond>, cx: &Ctx) -> Option<String> {
    match from {
        None => Some(String::new()),
        Some(c) => Some(format!(" (from if:{})", cond_lud(c, "from", cx)?)),
    }
}

fn to_lud(to: &Cond, then: &str, cx: &Ctx) -> Option<String> {
    let c = cond_lud(to, "to", cx)?;
    Some(if is_empty_test(to) {
        format!("(to if:{c}){then}")
    } else {
        format!("(to if:{c} (apply (remove (to)))){then}")
    })
}

fn walk(seq: &[usize]) -> Option<String> {
    let mut facing = 0usize;
    let mut out = Vec::new();
    for &t in seq {
        if t % 2 == 1 {
            return None;
        }
        match (t + 8 - facing) % 8 {
            0 => {}
            2 => out.push("R"),
            6 => out.push("L"),
            _ => out.extend(["R", "R"]),
        }
        out.push("F");
        facing = t;
    }
    Some(format!("{{{}}}", out.join(" ")))
}

/// A walk (from facing north) that ends `dx` columns east and `dy` rows north.
fn walk_to(dx: i64, dy: i64) -> String {
    let f = |n: i64| vec!["F"; n.unsigned_abs() as usize];
    let mut out: Vec<&str> = Vec::new();
    if dy >= 0 {
        out.extend(f(dy));
        if dx != 0 {
            out.push(if dx > 0 { "R" } else { "L" });
            out.extend(f(dx));
        }
    } else {
        out.extend(["R", "R"]);
        out.extend(f(dy));
        if dx != 0 {
            out.push(if dx > 0 { "L" } else { "R" });
            out.extend(f(dx));
        }
    }
    format!("{{{}}}", out.join(" "))
}

fn delta(c: usize) -> (i64, i64) {
    [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ][c]
}

/// Leaps as Ludii plays them: walks with rotations off go the same way for every player
/// (checked with the oracle), so a leap that differs per player is one `(if (is Mover Pk) …)`
/// per player. A spec read from a `.lud` keeps the first player's walks: the `.lud` reader
/// reads such walks relative to the facing, and `read_lud(write_lud(spec)) == spec` holds.
fn leap_ludemes(from: &str, group: &[Vec<String>], to: &str, cx: &Ctx) -> Option<Vec<String>> {
    let one = |walks: Vec<String>| {
        format!(
            "(move Leap{from} {{{}}} rotations:False {to})",
            walks.join(" ")
        )
    };
    if let Some(w) = leap_walks(group, cx, None) {
        return Some(vec![one(w)]);
    }
    if cx.from_lud {
        return Some(vec![one(leap_walks(group, cx, Some(0))?)]);
    }
    (0..cx.players())
        .map(|k| {
            let w = leap_walks(group, cx, Some(k))?;
            Some(format!("(if (is Mover P{}) {})", k + 1, one(w)))
        })
        .collect()
}

/// The walks of `player`'s leaps; with `None`, of the first player when every player leaps
/// the same way (else `None`).
fn leap_walks(group: &[Vec<String>], cx: &Ctx, player: Option<usize>) -> Option<Vec<String>> {
    let k = player.unwrap_or(0);
    let walks: Option<Vec<String>> = group
        .iter()
        .map(|g| {
            let seq: Option<Vec<usize>> = g.iter().map(|s| cx.compass(k, s)).collect();
            let seq = seq?;
            Some(walk(&seq).unwrap_or_else(|| {
                let d = seq.iter().fold((0, 0), |a, c| {
                    let c = delta(*c);
                    (a.0 + c.0, a.1 + c.1)
                });
                walk_to(d.0, d.1)
            }))
        })
        .collect();
    if player.is_some() {
        return walks;
    }
    let mut sets: Vec<Vec<(i64, i64)>> = Vec::new();
    for i in 0..cx.players() {
        let mut v: Vec<(i64, i64)> = Vec::new();
        for g in group {
            let mut d = (0, 0);
            for s in g {
                let c = delta(cx.compass(i, s)?);
                d = (d.0 + c.0, d.1 + c.1);
            }
            v.push(d);
        }
        v.sort();
        v.dedup();
        sets.push(v);
    }
    if sets.iter().any(|s| *s != sets[0]) {
        return None;
    }
    walks
}

/// A step of a path for every player: an absolute or facing-relative Ludii direction.
fn one_dir(d: &str, cx: &Ctx) -> Option<String> {
    let (n, _) = dir_names(std::slice::from_ref(&d.to_string()), cx)?;
    n.into_iter().next()
}

/// A path of steps with tests on the way, as `(if (and {…}) (move (from) (to (ahead …))))`.
/// Ludii's `ahead` takes a relative direction (`Forward`) as the first player's, whoever
/// moves (checked with the oracle: chess's double step then fails for Black), so a path whose
/// directions differ per player is one `(if (is Mover Pk) …)` per player, in absolute
/// directions; the `.lud` reader reads those back as one path.
fn path_ludemes(
    from: &Option<Cond>,
    conds: &[Vec<Cond>],
    dirs: &[String],
    then: &str,
    cx: &Ctx,
) -> Option<Vec<String>> {
    let (_, relative) = dir_names(dirs, cx)?;
    if !relative {
        return Some(vec![path_ludeme(from, conds, dirs, then, None, cx)?]);
    }
    (0..cx.players())
        .map(|k| {
            let one = path_ludeme(from, conds, dirs, then, Some(k), cx)?;
            Some(format!("(if (is Mover P{}) {one})", k + 1))
        })
        .collect()
}

fn path_ludeme(
    from: &Option<Cond>,
    conds: &[Vec<Cond>],
    dirs: &[String],
    then: &str,
    player: Option<usize>,
    cx: &Ctx,
) -> Option<String> {
    let mut tests = Vec::new();
    if let Some(c) = from {
        tests.push(cond_lud(c, "from", cx)?);
    }
    let mut at = "from".to_string();
    for (d, cs) in dirs.iter().zip(conds) {
        let dir = match player {
            Some(k) => COMPASS[cx.compass(k, d)?].to_string(),
            None => one_dir(d, cx)?,
        };
        at = format!("ahead ({at}) {dir}");
        // The step must exist: Ludii's `ahead` stays in place at the edge.
        tests.push(format!("(!= ({at}) (from))"));
        for c in cs {
            tests.push(cond_lud(c, &at, cx)?);
        }
    }
    let cond = match tests.len() {
        1 => tests.remove(0),
        _ => format!("(and {{{}}})", tests.join(" ")),
    };
    Some(format!("(if {cond} (move (from) (to ({at})){then}))"))
}

fn promotion_then(p: &Option<Promotion>, cx: &Ctx) -> String {
    let Some(p) = p else { return String::new() };
    let pieces: Vec<String> = p.pieces.iter().map(|q| cx.piece(q)).collect();
    let what = if pieces.len() == 1 {
        pieces[0].clone()
    } else {
        format!("{{{}}}", pieces.join(" "))
    };
    let promote = format!("(promote (last To) (piece {what}) Mover)");
    match &p.zone {
        None => format!(" (then {promote})"),
        Some(z) => {
            let mut q = String::new();
            syntax::quote_into(z, &mut q);
            let owner = if cx.shared.contains(z) { "" } else { "Mover " };
            format!(" (then (if (is In (last To) (sites {owner}{q})) {promote}))")
        }
    }
}

fn ludeme(
    s: &Shape,
    group: &[Vec<String>],
    promo: &Option<Promotion>,
    cx: &Ctx,
) -> Option<Vec<String>> {
    let singles = || -> Vec<String> { group.iter().map(|d| d[0].clone()).collect() };
    let then = promotion_then(promo, cx);
    Some(vec![match s {
        Shape::Step { from, to } => format!(
            "(move Step{} {} {})",
            from_lud(from, cx)?,
            dirs_lud(&singles(), cx)?,
            to_lud(to, &then, cx)?
        ),
        Shape::Slide { from, go, stop } => {
            let mut t = format!(
                "(move Slide{} {}",
                from_lud(from, cx)?,
                dirs_lud(&singles(), cx)?
            );
            if !is_empty_test(go) {
                let _ = write!(t, " (between if:{})", cond_lud(go, "between", cx)?);
            }
            match stop {
                Some(st) => {
                    // Ludii stops a slide at the first site its `to` condition accepts, so
                    // the condition must hold only where ZoG's run ends (`go` fails there).
                    // (Specs read from Ludii already mean Ludii's rule.)
                    let st = if needs_piece(st) || cx.from_lud {
                        st.clone()
                    } else {
                        Cond::And(vec![Cond::Not(Box::new(go.clone())), st.clone()])
                    };
                    let _ = write!(t, " {}", to_lud(&st, &then, cx)?);
                }
                None => t.push_str(&then),
            }
            t.push(')');
            t
        }
        Shape::SlideExact { from, go, land, n } => format!(
            "(move Slide{} {} (between (exact {n}) if:{}) {})",
            from_lud(from, cx)?,
            dirs_lud(&singles(), cx)?,
            cond_lud(go, "between", cx)?,
            to_lud(land, &then, cx)?
        ),
        Shape::Hop {
            from,
            hurdle,
            capture,
            land,
        } => format!(
            "(move Hop{} {} (between if:{}{}) (to if:{}){then})",
            from_lud(from, cx)?,
            dirs_lud(&singles(), cx)?,
            cond_lud(hurdle, "between", cx)?,
            if *capture {
                " (apply (remove (between)))"
            } else {
                ""
            },
            cond_lud(land, "to", cx)?
        ),
        Shape::Cannon { .. } => return cannon_ludemes(s, &singles(), &then, cx),
        Shape::Leap { from, to, .. } => {
            return leap_ludemes(&from_lud(from, cx)?, group, &to_lud(to, &then, cx)?, cx);
        }
        Shape::Two { c1, c2 } => match two_ludeme(group, c1, c2, cx) {
            Some(t) if promo.is_none() => t,
            // A two-link leap Ludii's two-step form cannot say (turns that are not relative
            // to every first link, a promotion) is a leap of walks.
            _ if *c1 == Cond::Const(true) => {
                return leap_ludemes(&from_lud(&None, cx)?, group, &to_lud(c2, &then, cx)?, cx);
            }
            _ => return None,
        },
        Shape::Path { from, conds } => {
            let mut all = Vec::new();
            for d in group {
                all.extend(path_ludemes(from, conds, d, &then, cx)?);
            }
            return Some(all);
        }
    }])
}

fn two_ludeme(group: &[Vec<String>], c1: &Cond, c2: &Cond, cx: &Ctx) -> Option<String> {
    let mut firsts: Vec<String> = Vec::new();
    for g in group {
        if !firsts.contains(&g[0]) {
            firsts.push(g[0].clone());
        }
    }
    let comp = |d: &str| cx.compass(0, d);
    let turn = |a: &str, b: &str| -> Option<i32> {
        Some((comp(b)? as i32 - comp(a)? as i32).rem_euclid(8))
    };
    let rel: Option<Vec<i32>> = group
        .iter()
        .filter(|g| g[0] == firsts[0])
        .map(|g| turn(&g[0], &g[1]))
        .collect();
    let rel = rel?;
    let mut product = Vec::new();
    for f in &firsts {
        for r in &rel {
            product.push((comp(f)?, (comp(f)? as i32 + r).rem_euclid(8) as usize));
        }
    }
    let actual: Option<Vec<(usize, usize)>> = group
        .iter()
        .map(|g| Some((comp(&g[0])?, comp(&g[1])?)))
        .collect();
    // The same moves in any order (the reader lists them first direction by first direction).
    let mut actual = actual?;
    product.sort_unstable();
    actual.sort_unstable();
    if product != actual {
        return None;
    }
    let rel_names: Vec<&str> = rel.iter().map(|r| relative_name(*r)).collect();
    Some(format!(
        "(forEach Direction {} (to if:{} (apply (forEach Direction (from (to)) (directions {{{}}}) (if {} (move (from) (to (to))))))))",
        dirs_lud(&firsts, cx)?,
        cond_lud(c1, "to", cx)?,
        rel_names.join(" "),
        cond_lud(c2, "to", cx)?
    ))
}

/// The ludeme form of a movement ([`shape_of`]): the conditions it tests, as Ludii's move
/// ludemes hold them. Every condition is the spec's own; `from` is tested at the origin.
#[derive(Debug, Clone, PartialEq)]
enum Shape {
    Step {
        from: Option<Cond>,
        to: Cond,
    },
    Slide {
        from: Option<Cond>,
        go: Cond,
        stop: Option<Cond>,
    },
    SlideExact {
        from: Option<Cond>,
        go: Cond,
        land: Cond,
        n: usize,
    },
    Hop {
        from: Option<Cond>,
        hurdle: Cond,
        capture: bool,
        land: Cond,
    },
    Cannon {
        from: Option<Cond>,
        hurdle: Cond,
        go: Cond,
        /// The landing's test, `None`: it lands on nothing (only `beyond` moves).
        stop: Option<Cond>,
        /// The empty run before the hurdle also ends moves (xiangqi's cannon).
        slide: bool,
        /// The empty run after the hurdle also ends moves (janggi's cannon).
        beyond: bool,
    },
    Leap {
        from: Option<Cond>,
        to: Cond,
        len: usize,
    },
    Two {
        c1: Cond,
        c2: Cond,
    },
    /// Any chain of steps with the conditions verified after each step (`conds[k]` after
    /// step `k`), ending with a plain `add`: the general form the shapes above specialise.
    Path {
        from: Option<Cond>,
        conds: Vec<Vec<Cond>>,
    },
}

/// A promotion at the end of a block: the moving piece becomes one of `pieces`, always or
/// when it arrives in `zone`.
#[derive(Debug, Clone, PartialEq)]
struct Promotion {
    /// The zone (for the mover) that promotes; `None`: every move of the block promotes.
    zone: Option<String>,
    /// The choices.
    pieces: Vec<String>,
}

/// What [`classify`] found: the shape, its directions, the promotion split off, and whether
/// a continuation (partial move) was dropped.
type Classified = (Shape, Vec<String>, Option<Promotion>, bool);

/// Whether a condition can only hold on an occupied site.
fn needs_piece(c: &Cond) -> bool {
    match c {
        Cond::Test {
            test: Test::Enemy | Test::Friend | Test::Neutral,
            at: None,
            ..
        }
        | Cond::Piece { at: None, .. } => true,
        Cond::And(v) => v.iter().any(needs_piece),
        Cond::Or(v) => !v.is_empty() && v.iter().all(needs_piece),
        _ => false,
    }
}

/// A block's ludeme shape with its promotion split off, calls inlined first, from its movement
/// ([`movement::recognise`]); a block with partial completions that the table does not type
/// whole is classified by its first move (the caller reports the loss).
fn classify(b: &MoveBlock, cx: &Ctx) -> Option<Classified> {
    let inlined = MoveBlock {
        move_type: b.move_type.clone(),
        program: inline(&b.program, cx.procs, &mut cx.inliner.borrow_mut()),
    };
    if let Some(c) = movement::recognise(&inlined)
        .ok()
        .and_then(|m| shape_of(&m))
    {
        return Some(c);
    }
    let (block, cut) = match first_move_only(&inlined) {
        Some(f) => {
            let partial = f.program != inlined.program;
            (f, partial)
        }
        None => (inlined, false),
    };
    if !cut {
        return None;
    }
    let (s, d, p, _) = movement::recognise(&block)
        .ok()
        .and_then(|m| shape_of(&m))?;
    Some((s, d, p, true))
}

/// Why [`classify`] found no ludeme for a block: the movement table's reason, or that its
/// movement has none.
fn untyped_why(b: &MoveBlock, cx: &Ctx) -> String {
    let inlined = MoveBlock {
        move_type: b.move_type.clone(),
        program: inline(&b.program, cx.procs, &mut cx.inliner.borrow_mut()),
    };
    match movement::recognise(&inlined) {
        Err(why) => why.to_string(),
        Ok(_) => "its movement has no Ludii ludeme in the writer".into(),
    }
}

/// The ludeme shape of a movement: the conditions it tests at the origin and destination as
/// the shapes hold them, its promotion (forced ones: the only kind a `(then …)` writes), and
/// whether a continuation is cut.
fn shape_of(m: &Movement) -> Option<Classified> {
    let all = |v: Vec<Cond>| match v.len() {
        0 => None,
        1 => v.into_iter().next(),
        _ => Some(Cond::And(v)),
    };
    let zone = |z: &Option<String>| -> Vec<Cond> {
        z.iter()
            .map(|z| Cond::InZone {
                zone: z.clone(),
                at: None,
            })
            .collect()
    };
    let from = all(zone(&m.from_zone)
        .into_iter()
        .chain(m.guard.iter().cloned())
        .collect());
    let to_parts = movement::land_cond(m.land)
        .into_iter()
        .chain(m.arrive.iter().cloned());
    let to_list: Vec<Cond> = to_parts.chain(zone(&m.zone)).collect();
    let to = all(to_list.clone()).unwrap_or(Cond::Const(true));
    let empty = Cond::Test {
        test: Test::Empty,
        at: None,
        move_type: None,
    };
    let (shape, dirs) = match &m.travel {
        Travel::Step(d) => (Shape::Step { from, to }, vec![d.clone()]),
        Travel::Slide {
            dir,
            max: None,
            quiet: true,
        } => {
            // A slide through occupied positions tests only its run's condition.
            // A destination zone confines the run: leaving it ends the slide.
            let go = (!m.through)
                .then_some(empty)
                .into_iter()
                .chain(m.run.iter().cloned())
                .chain(zone(&m.zone))
                .collect();
            let stop = (m.land != Land::Empty || !m.arrive.is_empty()).then_some(to);
            let go = all(go)?;
            (Shape::Slide { from, go, stop }, vec![dir.clone()])
        }
        // Two different links: the intermediate site must exist (Ludii's two-step form).
        Travel::Leap(p) if p.len() == 2 && p[0] != p[1] && from.is_none() => (
            Shape::Two {
                c1: Cond::Const(true),
                c2: to,
            },
            p.clone(),
        ),
        Travel::Leap(p) => (
            Shape::Leap {
                from,
                to,
                len: p.len(),
            },
            p.clone(),
        ),
        Travel::Lame(p) if m.first_in.is_none() && p.iter().all(|d| *d == p[0]) => {
            let exact = Shape::SlideExact {
                from,
                go: empty,
                land: to,
                n: p.len(),
            };
            (exact, vec![p[0].clone()])
        }
        Travel::Lame(p) if m.first_in.is_none() && p.len() == 2 && from.is_none() => {
            (Shape::Two { c1: empty, c2: to }, p.clone())
        }
        // Any other lame path (the pawn's double step through its zone): the tests after
        // each step.
        Travel::Lame(p) => {
            let mut conds = vec![vec![empty]; p.len()];
            conds[0].extend(zone(&m.first_in));
            *conds.last_mut().expect("a path has steps") = to_list;
            (Shape::Path { from, conds }, p.clone())
        }
        Travel::Hop { dir, over, capture } => {
            let hurdle = movement::hurdle_cond(*over).unwrap_or(Cond::Const(true));
            let hop = Shape::Hop {
                from,
                hurdle,
                capture: *capture,
                land: to,
            };
            (hop, vec![dir.clone()])
        }
        Travel::Path { via, last } => path_shape(via, last, from, to, to_list)?,
        // A run confined to a zone has no Hop form here.
        Travel::Cannon { .. } if m.travel.has_runs() && m.zone.is_some() => return None,
        Travel::Cannon {
            dir,
            quiet,
            beyond,
            screen,
        } => {
            let occupied = Cond::Not(Box::new(empty.clone()));
            let hurdle = match screen.as_slice() {
                [] => occupied,
                s => Cond::And(std::iter::once(occupied).chain(s.iter().cloned()).collect()),
            };
            let cannon = Shape::Cannon {
                from,
                hurdle,
                go: empty,
                stop: (m.land != Land::Empty).then_some(to),
                slide: *quiet,
                beyond: *beyond,
            };
            (cannon, vec![dir.clone()])
        }
        _ => return None,
    };
    let promotion = match &m.promotion {
        None => None,
        Some(p) if p.forced => Some(Promotion {
            zone: p.zone.clone(),
            pieces: p.pieces.clone(),
        }),
        Some(_) => return None,
    };
    Some((shape, dirs, promotion, m.continues.is_some()))
}

/// A cannon's ludemes: a slide up to the hurdle (`slide`), a hop over it to the empty sites
/// after it (`beyond`), and a hop over it onto the first piece after it, which is captured
/// (Ludii's `(to if:… (apply if:… (remove (to))))`, as its own Xiangqi and Janggi say them).
fn cannon_ludemes(s: &Shape, dirs: &[String], then: &str, cx: &Ctx) -> Option<Vec<String>> {
    let Shape::Cannon {
        from,
        hurdle,
        go,
        stop,
        slide,
        beyond,
    } = s
    else {
        return None;
    };
    let (from, dirs) = (from_lud(from, cx)?, dirs_lud(dirs, cx)?);
    let hop = format!(
        "(move Hop{from} {dirs} (between before:(count Rows) after:(count Rows) if:{})",
        cond_lud(hurdle, "between", cx)?
    );
    let go = cond_lud(go, "to", cx)?;
    let mut v = Vec::new();
    if *slide {
        v.push(format!("(move Slide{from} {dirs}{then})"));
    }
    if *beyond {
        v.push(format!("{hop} (to if:{go}){then})"));
    }
    if let Some(stop) = stop {
        let stop = cond_lud(stop, "to", cx)?;
        v.push(format!(
            "{hop} (to if:{go} (apply if:{stop} (remove (to)))){then})"
        ));
    }
    Some(v)
}

/// The ludeme shape of a general path: a hop over what one test allows, an exact slide whose
/// passed positions meet one test, a two-step leap, or the chain of its tests.
fn path_shape(
    via: &[movement::Via],
    last: &str,
    from: Option<Cond>,
    to: Cond,
    to_list: Vec<Cond>,
) -> Option<(Shape, Vec<String>)> {
    let dirs: Vec<String> = via
        .iter()
        .map(|v| v.dir.clone())
        .chain([last.to_string()])
        .collect();
    let one = |v: &movement::Via| match v.tests.as_slice() {
        [c] => Some(c.clone()),
        _ => None,
    };
    let straight = via.iter().all(|v| v.dir == last);
    let shape = match via {
        [v] if v.capture && straight => Shape::Hop {
            from,
            hurdle: match v.tests.as_slice() {
                [] => Cond::Const(true),
                [c] => c.clone(),
                tests => Cond::And(tests.to_vec()),
            },
            capture: true,
            land: to,
        },
        _ if via.iter().any(|v| v.capture) => return None,
        [v] if one(v).is_some() && !straight && from.is_none() => Shape::Two {
            c1: one(v)?,
            c2: to,
        },
        [v, ..] if straight && one(v).is_some() && via.iter().all(|w| one(w) == one(v)) => {
            Shape::SlideExact {
                from,
                go: one(v)?,
                land: to,
                n: via.len() + 1,
            }
        }
        _ => {
            let mut conds: Vec<Vec<Cond>> = via.iter().map(|v| v.tests.clone()).collect();
            conds.push(to_list);
            Shape::Path { from, conds }
        }
    };
    let dirs = match shape {
        Shape::Hop { .. } | Shape::SlideExact { .. } => vec![last.to_string()],
        _ => dirs,
    };
    Some((shape, dirs))
}

fn moves_ludemes(piece: &str, blocks: &[MoveBlock], cx: &mut Ctx) -> Vec<String> {
    let mut out = Vec::new();
    let shapes: Vec<_> = blocks.iter().map(|b| classify(b, cx)).collect();
    let mut i = 0;
    while i < blocks.len() {
        let at = |cx: &Ctx, i: usize| cx.rep.origin.block(piece, false, i);
        let Some((s, d, p, cut)) = shapes[i].clone() else {
            let at = at(cx, i);
            let why = untyped_why(&blocks[i], cx);
            cx.rep.lose_at(
                format!(
                    "move block {} of piece `{piece}` (no Ludii form here: {why})",
                    i + 1
                ),
                at,
            );
            i += 1;
            continue;
        };
        if cut {
            let at = at(cx, i);
            cx.rep.lose_at(
                format!(
                    "the continuation (partial moves) of move block {} of piece `{piece}`",
                    i + 1
                ),
                at,
            );
        }
        let mut group = vec![d];
        let mut j = i + 1;
        while j < blocks.len() {
            match &shapes[j] {
                Some((s2, d2, p2, c2))
                    if *s2 == s && *p2 == p && *c2 == cut && !group.contains(d2) =>
                {
                    group.push(d2.clone());
                    j += 1;
                }
                _ => break,
            }
        }
        // Try the whole group; fall back to one ludeme per block.
        match ludeme(&s, &group, &p, cx) {
            Some(t) => out.extend(t),
            None => {
                for (k, g) in group.iter().enumerate() {
                    match ludeme(&s, std::slice::from_ref(g), &p, cx) {
                        Some(t) => out.extend(t),
                        None => {
                            let at = at(cx, i + k);
                            cx.rep.lose_at(format!(
                                "move block {} of piece `{piece}` (its directions or conditions have no Ludii form here)",
                                i + k + 1
                            ), at)
                        }
                    }
                }
            }
        }
        i = j;
    }
    out
}

// ---------------------------------------------------------------- goals

/// Whether ZoG's `captured` goal on `pieces` (met when a player has lost one of them) is the
/// rule the writer can write, no piece of them left (`(= (count Pieces Next P) 0)`): only when
/// every player starts with exactly one of each and no move, drop, promotion or creation can
/// give one another. `Err` says why not.
fn captured_is_last(g: &Game, procs: &[Vec<Instr>], pieces: &[String]) -> Result<(), String> {
    for p in pieces {
        for player in &g.players {
            let n: usize = g
                .setup
                .iter()
                .filter(|s| s.piece == *p && s.player == *player)
                .map(|s| s.positions.len() + s.off.unwrap_or(0) as usize)
                .sum();
            if n != 1 {
                return Err(format!("{player} starts with {n} `{p}`"));
            }
        }
    }
    let mut gained = None;
    let mut budget = crate::spec::moves::MAX_INLINED;
    for piece in &g.pieces {
        if !piece.drops.is_empty() && pieces.contains(&piece.name) {
            return Err(format!("`{}` can be dropped", piece.name));
        }
        for b in piece.moves.iter().chain(&piece.drops) {
            crate::spec::moves::visit(&b.program, procs, &mut budget, &mut |i, _| {
                let made = match i {
                    Instr::Add { pieces: to, .. } => to.iter().find(|t| pieces.contains(t)),
                    Instr::ChangeType { piece: to, .. } => pieces.iter().find(|p| *p == to),
                    Instr::Create { piece: to, .. } => {
                        let to = to.as_ref().unwrap_or(&piece.name);
                        pieces.iter().find(|p| *p == to)
                    }
                    _ => None,
                };
                if let Some(t) = made {
                    gained
                        .get_or_insert_with(|| format!("a move of `{}` makes a `{t}`", piece.name));
                }
            });
        }
    }
    match gained {
        Some(why) => Err(why),
        None if budget == 0 => Err("the move programs are too large to inspect".into()),
        None => Ok(()),
    }
}

fn goal_ludeme(kind: GoalKind, c: &GoalCond, cx: &Ctx) -> Option<String> {
    let count = |piece: &Option<String>| match piece {
        Some(p) => format!("(count Pieces Next {})", cx.piece(p)),
        None => "(count Pieces Next)".to_string(),
    };
    let (subject, cond) = match c {
        GoalCond::Stalemated => ("Next", "(no Moves Next)".to_string()),
        GoalCond::PiecesRemaining {
            count: n,
            piece: None,
        } if n == "0" => ("Next", "(no Pieces Next)".to_string()),
        GoalCond::PiecesRemaining { count: n, piece } if n.parse::<u32>().is_ok() => {
            ("Next", format!("(= {} {n})", count(piece)))
        }
        GoalCond::Captured { pieces } if !pieces.is_empty() => {
            let v: Vec<String> = pieces
                .iter()
                .map(|p| format!("(= {} 0)", count(&Some(p.clone()))))
                .collect();
            let c = if v.len() == 1 {
                v[0].clone()
            } else {
                format!("(or {{{}}})", v.join(" "))
            };
            ("Next", c)
        }
        GoalCond::Checkmated { pieces } if pieces.len() == 1 => {
            let k = cx.piece(&pieces[0]);
            (
                "Next",
                format!("(and (is Threatened (id {k} Next)) (no Moves Next))"),
            )
        }
        GoalCond::Line { length, directions } => match directions.as_slice() {
            [] => ("Mover", format!("(is Line {length})")),
            [d] => ("Mover", format!("(is Line {length} {d})")),
            ds => (
                "Mover",
                format!("(is Line {length} {})", line_category(ds)?),
            ),
        },
        GoalCond::Connected { zones, directions } => {
            let dirs = if directions.is_empty() {
                String::new()
            } else {
                format!("(directions {{{}}}) ", directions.join(" "))
            };
            if zones.is_empty() {
                // Ludii connects the regions the mover owns; the spec's every zone the player
                // owns includes shared ones.
                if !cx.shared.is_empty() {
                    return None;
                }
                ("Mover", format!("(is Connected {dirs}Mover)"))
            } else {
                let z: Vec<String> = zones
                    .iter()
                    .map(|z| {
                        let mut q = String::new();
                        syntax::quote_into(z, &mut q);
                        if cx.shared.contains(z) {
                            format!("(sites {q})")
                        } else {
                            format!("(sites Mover {q})")
                        }
                    })
                    .collect();
                ("Mover", format!("(is Connected {dirs}{{{}}})", z.join(" ")))
            }
        }
        _ => return None,
    };
    let result = match kind {
        GoalKind::Count => "(byScore)".to_string(),
        GoalKind::Draw => "(result Mover Draw)".to_string(),
        GoalKind::Win | GoalKind::Loss => {
            let win = (kind == GoalKind::Win) == (subject == "Mover");
            format!("(result Mover {})", if win { "Win" } else { "Loss" })
        }
    };
    Some(format!("(if {cond} {result})"))
}

/// Ludii's name of a line's set of directions: `Orthogonal` or `Diagonal` on a square board.
fn line_category(dirs: &[String]) -> Option<&'static str> {
    let mut v: Vec<&str> = dirs.iter().map(String::as_str).collect();
    v.sort_unstable();
    match v.as_slice() {
        ["E", "N", "S", "W"] => Some("Orthogonal"),
        ["NE", "NW", "SE", "SW"] => Some("Diagonal"),
        _ => None,
    }
}
