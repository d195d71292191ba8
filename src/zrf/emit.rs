//! Spec → ZRF: writes a [`crate::spec::Document`] as a ZRF file that ZoG's grammar accepts and that
//! [`super::lower`] reads back to the same spec.
//!
//! The writer is the inverse of lowering, form by form:
//! - boards are written from their compact `layout` (grids, `positions`, `links`, `unlink`,
//!   `kill-positions`, `dummy`); a board without a layout gets one from its explicit positions:
//!   one `(grid …)` when they are a grid (`spec::geometry::grid_of`), else `(positions …)` and
//!   `(links …)` (docs/zrf-writer.md);
//! - a game with pieces and no piece image gets one `zrf::emit-no-images` warning;
//! - each game is one `(game …)`; each variant is a `(variant …)` carrying only the sections that
//!   differ from its game under ZoG's variant resolution (checked by simulating it);
//! - `procedures` become `(define proc-N …)` macros called as `(proc-N)` (procedures written
//!   the same are written once);
//! - display texts get their `\` line breaks back (or their exact source string while it still
//!   displays as the spec text); ZRF items of `extensions` and ZRF `raw` forms are written verbatim, at the
//!   place among their siblings that their `at` records (raw items of other formats are lost,
//!   with a warning);
//! - lists that repeat, exactly or with other atoms (directions, piece names) in the same places,
//!   become `(define share-N …)` macros with `$k` parameters (`emit::compact`).
//!
//! Chessembly-only instructions have no ZRF form; they are left out and named in a diagnostic.

use super::strings;
use crate::diag::{Diagnostic, Severity, Span};
use crate::spec::{
    Board, Cond, Document, EntryKind, Extensions, Game, Goal, GoalCond, GoalKind, Instr, Layout,
    LayoutLinks, LayoutPosition, MoveBlock, Origins, Piece, RawFormat, Texts,
};
use crate::text::{self, Encoding, LineEndings};
use std::collections::BTreeSet;
use std::fmt::Write as _;

mod compact;

/// Writes `doc` as ZRF text with `\n` line endings.
pub fn emit(doc: &Document) -> (String, Vec<Diagnostic>) {
    emit_at(doc, &Origins::default())
}

/// [`emit`], with each warning located where what it is about stands in the source file
/// (`origins`, from the reader in this run): a move block, else its piece, else the game.
pub fn emit_at(doc: &Document, origins: &Origins) -> (String, Vec<Diagnostic>) {
    let mut w = Writer::new(doc, origins);
    let text = w.document();
    let mut diags = w.diags;
    diags.extend(missing_images(doc, origins));
    (text, diags)
}

/// Diagnostic code: a game none of whose pieces has an image, so ZoG cannot show its pieces.
pub const CODE_NO_IMAGES: &str = "zrf::emit-no-images";

/// One warning per game (variants share their game's pieces) that has pieces and no piece
/// image at all, with the commands that make them: the ZRF is written without `(image …)`.
fn missing_images(doc: &Document, origins: &Origins) -> Vec<Diagnostic> {
    doc.games
        .iter()
        .enumerate()
        .filter(|(_, g)| g.kind == EntryKind::Game)
        .filter(|(_, g)| {
            let mut real = g.pieces.iter().filter(|p| !p.dummy).peekable();
            real.peek().is_some() && real.all(|p| p.images.is_empty())
        })
        .map(|(gi, g)| {
            Diagnostic::new(
                Severity::Warning,
                CODE_NO_IMAGES,
                format!(
                    "game {:?}: no piece has an image; ZoG needs one per piece and player to load the game",
                    g.title
                ),
                origins.game(gi).at,
            )
            .with_note(
                None,
                "draw them with `zogkit render INPUT -o DIR`, then write the ZRF with `zogkit convert INPUT --to zrf --with-images DIR`",
            )
        })
        .collect()
}

/// Writes `doc` as ZRF bytes in the document's source encoding (UTF-8 when it has none) and
/// line endings (`lf`, `crlf` or `cr`; LF for `mixed`, `none` or unknown). A character the
/// encoding cannot represent makes the whole file UTF-8, with an error diagnostic.
pub fn emit_bytes(doc: &Document) -> (Vec<u8>, Vec<Diagnostic>) {
    emit_bytes_at(doc, &Origins::default())
}

/// [`emit_bytes`], with warnings located as [`emit_at`] locates them.
pub fn emit_bytes_at(doc: &Document, origins: &Origins) -> (Vec<u8>, Vec<Diagnostic>) {
    let (text, mut diags) = emit_at(doc, origins);
    // Exact source strings may carry the source's own line breaks.
    let text = match doc.source.line_endings {
        Some(LineEndings::Crlf) => text.replace("\r\n", "\n").replace('\n', "\r\n"),
        Some(LineEndings::Cr) => text.replace("\r\n", "\n").replace('\n', "\r"),
        _ => text,
    };
    let enc = doc.source.encoding.unwrap_or(Encoding::Utf8);
    match text::encode(&text, enc) {
        Ok(b) => (b, diags),
        Err(e) => {
            diags.push(Diagnostic::new(
                Severity::Error,
                "zrf::emit-encoding",
                format!("{e}; the file is written as UTF-8 instead"),
                None,
            ));
            (text.into_bytes(), diags)
        }
    }
}

/// Goal sections: a variant that has one replaces all of them.
const GOALS: [&str; 4] = [
    "win-condition",
    "loss-condition",
    "draw-condition",
    "count-condition",
];

/// One top-level section of a game form: its key under variant resolution and its text.
#[derive(Debug, Clone, PartialEq)]
struct Section {
    head: String,
    name: String,
    text: String,
}

/// How a procedure is written: as one list (only ever a whole move block) or spliced.
#[derive(Clone, Copy, PartialEq)]
enum ProcUse {
    Unused,
    Block,
    Spliced,
}

struct Writer<'d> {
    doc: &'d Document,
    /// Where the document's parts stand in the file read in this run (empty when unknown).
    origins: &'d Origins,
    /// The game being written (its index), for [`Origins`].
    game: usize,
    /// Where what is being written stands: a move block, its piece or its game.
    at: Option<Span>,
    diags: Vec<Diagnostic>,
    procs: Vec<ProcUse>,
    reported: BTreeSet<String>,
    /// The procedure each procedure is written as: the first one with the same text.
    canon: Vec<usize>,
}

fn is_atom(s: &str) -> bool {
    !s.is_empty()
        && !s
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '(' | ')' | ';' | '"'))
}

impl<'d> Writer<'d> {
    fn new(doc: &'d Document, origins: &'d Origins) -> Self {
        let mut procs = vec![ProcUse::Unused; doc.procedures.len()];
        let mut called = Vec::new();
        let mut mark = |v: &[Instr], procs: &mut [ProcUse]| {
            called.clear();
            crate::spec::moves::calls(v, &mut called);
            for n in &called {
                if let Some(p) = procs.get_mut(*n) {
                    *p = ProcUse::Spliced;
                }
            }
        };
        for p in &doc.procedures {
            mark(p, &mut procs);
        }
        for g in &doc.games {
            for pc in &g.pieces {
                for b in pc.moves.iter().chain(&pc.drops) {
                    match b.program.as_slice() {
                        [Instr::Call(n)] => {
                            if let Some(p) = procs.get_mut(*n)
                                && *p == ProcUse::Unused
                            {
                                *p = ProcUse::Block;
                            }
                        }
                        v => mark(v, &mut procs),
                    }
                }
            }
        }
        Writer {
            doc,
            origins,
            game: 0,
            at: None,
            diags: Vec::new(),
            procs,
            reported: BTreeSet::new(),
            canon: (0..doc.procedures.len()).collect(),
        }
        .with_canonical_procedures()
    }

    /// Procedures that are written the same (calling the same canonical procedures) are
    /// written once: repeated until no more merge (bounded; merging is only compaction).
    fn with_canonical_procedures(mut self) -> Self {
        for _ in 0..64 {
            let mut first: rustc_hash::FxHashMap<String, usize> = Default::default();
            let mut canon = Vec::with_capacity(self.canon.len());
            for (n, body) in self.doc.procedures.iter().enumerate() {
                let items: Vec<String> = body.iter().map(|i| self.instr(i)).collect();
                let key = format!("{}{}", self.procs[n] as u8, items.join(" "));
                canon.push(*first.entry(key).or_insert(n));
            }
            if canon == self.canon {
                break;
            }
            self.canon = canon;
        }
        self
    }

    /// A `raw` item's text when it is ZRF; any other format's text is lost, with a warning
    /// (the caller writes its placeholder).
    fn raw(&mut self, format: RawFormat, text: &str) -> Option<String> {
        if format == RawFormat::Zrf {
            return Some(text.to_string());
        }
        let shown: String = text.chars().take(60).collect();
        self.warn(
            "zrf::emit-unsupported",
            format!(
                "a raw {} item `{shown}` has no ZRF form; it is left out",
                format_name(format)
            ),
        );
        None
    }

    /// Warns once per format about the items of `ext` in another format than ZRF, which
    /// `place_extensions` leaves out (`whose`: the game or piece they belong to). A board's are
    /// not: its positions and links are written from the typed board.
    fn foreign_extensions(&mut self, ext: &Extensions, whose: &str) {
        for f in [RawFormat::Ludii, RawFormat::Chessembly] {
            let n = ext.count(f);
            if n > 0 {
                self.warn(
                    "zrf::emit-unsupported",
                    format!(
                        "{whose}: {n} {} item(s) of `extensions` have no ZRF form; they are left out",
                        format_name(f)
                    ),
                );
            }
        }
    }

    fn warn(&mut self, code: &'static str, msg: String) {
        if self.reported.insert(format!("{code}{msg}")) {
            self.diags
                .push(Diagnostic::new(Severity::Warning, code, msg, self.at));
        }
    }

    /// A name: an atom when it can be one, else a string.
    fn name(&mut self, s: &str) -> String {
        if is_atom(s) {
            s.to_string()
        } else {
            self.string(s)
        }
    }

    /// A ZRF string literal; `"` cannot be written and becomes a backquote.
    fn string(&mut self, s: &str) -> String {
        if s.contains('"') {
            self.warn(
                "zrf::emit-quote",
                format!("ZRF strings cannot hold `\"`; written as a backquote in {s:?}"),
            );
            format!("\"{}\"", s.replace('"', "`"))
        } else {
            format!("\"{s}\"")
        }
    }

    /// One `(unlink …)` form.
    fn unlink(&mut self, removals: &[crate::spec::Unlink]) -> String {
        let v: Vec<String> = removals
            .iter()
            .map(|u| match u {
                crate::spec::Unlink::Link([x, y]) => format!("({} {})", self.name(x), self.name(y)),
                crate::spec::Unlink::From(p) => self.name(p),
            })
            .collect();
        format!("(unlink {})", v.join(" "))
    }

    fn document(&mut self) -> String {
        let (procs, body) = self.document_body();
        let split = procs.len();
        let (defs, procs, body) = compact::compact(&(procs + &body), split);
        let mut out = String::new();
        if let Some(v) = &self.doc.source.version {
            let v = self.string(v);
            let _ = writeln!(out, "(version {v})\n");
        }
        // Procedure macros, shared macros and the games, separated by blank lines.
        for part in [procs.trim(), defs.trim()] {
            if !part.is_empty() {
                out.push_str(part);
                out.push_str("\n\n");
            }
        }
        out.push_str(body.trim_start());
        if out.is_empty() {
            out.push('\n');
        }
        // Macro bodies are cut from deeper places: one indentation pass makes every line
        // consistent (and `zogkit fmt` a no-op on written files).
        super::fmt::format(&out)
    }

    /// The procedure macros and the games.
    fn document_body(&mut self) -> (String, String) {
        let mut out = String::new();
        for (n, body) in self.doc.procedures.iter().enumerate() {
            if self.canon[n] != n {
                continue;
            }
            let use_ = self.procs[n];
            let items: Vec<String> = body.iter().map(|i| self.instr(i)).collect();
            let body = items.join(" ");
            let _ = match use_ {
                ProcUse::Block => writeln!(out, "(define proc-{n} ({body}))"),
                _ => writeln!(out, "(define proc-{n} {body})"),
            };
        }
        if !self.doc.procedures.is_empty() {
            out.push('\n');
        }
        let procs = std::mem::take(&mut out);
        // ZoG resolves every variant against the first game of the file.
        let first_game: Option<(usize, Vec<Section>)> = self
            .doc
            .games
            .iter()
            .position(|g| g.kind == EntryKind::Game)
            .map(|i| {
                self.enter_game(i);
                (i, self.sections(&self.doc.games[i]))
            });
        for (gi, g) in self.doc.games.iter().enumerate() {
            self.enter_game(gi);
            match g.kind {
                EntryKind::Separator => {
                    let t = self.string(&g.title);
                    let _ = writeln!(out, "(variant (title {t}))\n");
                }
                EntryKind::Game => {
                    let secs = match &first_game {
                        Some((fi, secs)) if *fi == gi => secs.clone(),
                        _ => self.sections(g),
                    };
                    write_form(&mut out, "game", &secs);
                }
                EntryKind::Variant => {
                    let secs = self.sections(g);
                    let base = match (&first_game, g.variant_of) {
                        (Some((li, base)), Some(of)) if *li == of => Some(base),
                        _ => None,
                    };
                    match base.cloned() {
                        Some(base) => {
                            let delta = self.delta(&base, &secs, &g.title);
                            write_form(&mut out, "variant", &delta);
                        }
                        None => {
                            self.warn(
                                "zrf::emit-variant",
                                format!(
                                    "variant `{}` does not vary the first game of the file; it is written as a game of its own",
                                    g.title
                                ),
                            );
                            write_form(&mut out, "game", &secs);
                        }
                    }
                }
            }
        }
        self.at = None;
        (procs, out)
    }

    /// Warnings from here on are about game `gi` (located at its form when known).
    fn enter_game(&mut self, gi: usize) {
        self.game = gi;
        self.at = self.origins.game(gi).at;
    }

    /// The sections a variant must carry so that resolving it against `base` gives `full`.
    fn delta(&mut self, base: &[Section], full: &[Section], title: &str) -> Vec<Section> {
        let mut delta = Vec::new();
        let heads_base = |h: &str| -> Vec<&Section> {
            base.iter()
                .filter(|s| s.head == h && s.head != "default")
                .collect()
        };
        let goals_of = |v: &[Section]| -> Vec<String> {
            v.iter()
                .filter(|s| GOALS.contains(&s.head.as_str()))
                .map(|s| s.text.clone())
                .collect()
        };
        let goals_differ = goals_of(base) != goals_of(full);
        let mut heads_done = BTreeSet::new();
        for s in full {
            match s.head.as_str() {
                "title" | "default" => delta.push(s.clone()),
                "piece" | "option" => {
                    let same = base
                        .iter()
                        .any(|b| b.head == s.head && b.name == s.name && b.text == s.text);
                    if !same {
                        delta.push(s.clone());
                    }
                }
                h if GOALS.contains(&h) => {
                    if goals_differ {
                        delta.push(s.clone());
                    }
                }
                h => {
                    if heads_done.contains(h) {
                        continue;
                    }
                    heads_done.insert(h.to_string());
                    let mine: Vec<&Section> = full.iter().filter(|x| x.head == h).collect();
                    let theirs = heads_base(h);
                    if mine
                        .iter()
                        .map(|x| &x.text)
                        .ne(theirs.iter().map(|x| &x.text))
                    {
                        delta.extend(mine.into_iter().cloned());
                    }
                }
            }
        }
        // Sections of the game the variant does not have cannot be removed by a variant, except
        // goals (one group) and pieces/options that the spec lists by name.
        let resolved = resolve(base, &delta);
        if canonical(&resolved) != canonical(full) {
            self.warn(
                "zrf::emit-variant",
                format!(
                    "variant `{title}` removes sections of its game that ZRF variants cannot remove; it reads back differently"
                ),
            );
        }
        delta
    }

    /// Every section of a game, in a fixed order.
    fn sections(&mut self, g: &Game) -> Vec<Section> {
        let mut v = Vec::new();
        let mut push = |head: &str, name: &str, text: String| {
            v.push(Section {
                head: head.to_string(),
                name: name.to_string(),
                text,
            })
        };
        let t = self.string(&g.title);
        push("title", "", format!("(title {t})"));
        if g.default {
            push("default", "", "(default)".into());
        }
        let whose = format!("game {:?}", g.title);
        for (field, text) in self.texts(&g.texts, true, &whose) {
            push(field, "", text);
        }
        if !g.players.is_empty() {
            let p: Vec<String> = g.players.iter().map(|p| self.name(p)).collect();
            push("players", "", format!("(players {})", p.join(" ")));
        }
        if !g.turn_order.is_empty() {
            let t = self.turn_order(g);
            push("turn-order", "", t);
        }
        for o in &g.options {
            if o.name == crate::spec::SWAP_OPTION {
                self.warn(
                    "zrf::emit-unsupported",
                    format!(
                        "{whose}: the pie rule (option `swap`) has no ZRF form; it is left out"
                    ),
                );
                continue;
            }
            let value = self.name(&o.value);
            if o.legacy {
                push(&o.name, "", format!("({} {value})", o.name));
            } else {
                let n = self.string(&o.name);
                push("option", &o.name, format!("(option {n} {value})"));
            }
        }
        for s in &g.sounds {
            let f = self.string(&s.file);
            let h = format!("{}-sound", s.event);
            push(&h, "", format!("({h} {f})"));
        }
        for b in &g.boards {
            let t = self.board(b);
            push("board", "", t);
        }
        for p in &g.pieces {
            let t = self.piece(p);
            push("piece", &p.name, t);
        }
        if !g.setup.is_empty() {
            let t = self.setup(g);
            push("board-setup", "", t);
        }
        let goals = self.goals(&g.goals);
        for (h, t) in goals {
            push(h, "", t);
        }
        if let Some(e) = &g.engine {
            let e = self.string(e);
            push("engine", "", format!("(engine {e})"));
        }
        if !g.move_priorities.is_empty() {
            let p: Vec<String> = g.move_priorities.iter().map(|p| self.name(p)).collect();
            push(
                "move-priorities",
                "",
                format!("(move-priorities {})", p.join(" ")),
            );
        }
        self.foreign_extensions(&g.extensions, &whose);
        place_extensions(&mut v, &g.extensions, |e| {
            let head = e
                .strip_prefix('(')
                .map(|r| {
                    r.split(|c: char| c.is_whitespace() || c == '(' || c == ')')
                        .next()
                })
                .unwrap_or_default()
                .unwrap_or_default();
            Section {
                head: head.to_string(),
                name: String::new(),
                text: e.clone(),
            }
        });
        v
    }

    /// The text sections of a game or piece (`whose` names it in warnings).
    fn texts(&mut self, t: &Texts, game: bool, whose: &str) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        let fields: [(&'static str, &Option<String>); 5] = [
            ("description", &t.description),
            ("history", &t.history),
            ("strategy", &t.strategy),
            ("help", &t.help),
            ("solution", &t.solution),
        ];
        // An exact source string that names no text of these is not written anywhere.
        for field in t.source.keys() {
            let known = fields.iter().any(|(f, v)| f == field && v.is_some());
            if !known {
                self.warn(
                    "zrf::emit-lost-source",
                    format!("{whose}: texts.source holds a `{field}` string but there is no {field} text to write it for; it is left out"),
                );
            }
        }
        for (field, value) in fields {
            let Some(value) = value else { continue };
            if field == "solution" && !game {
                self.warn(
                    "zrf::emit-unsupported",
                    "a piece `solution` has no ZRF form; it is left out".into(),
                );
                continue;
            }
            let raw = match t.source.get(field) {
                Some(src) if strings::display(src) == *value => src.clone(),
                other => {
                    if other.is_some() {
                        self.warn(
                            "zrf::emit-lost-source",
                            format!("{whose}: the {field} text differs from its exact source string (texts.source), so the text is written and the source's own line wrapping is lost"),
                        );
                    }
                    if value.contains('"') {
                        self.warn(
                            "zrf::emit-quote",
                            format!("ZRF strings cannot hold `\"`; written as a backquote in the {field} text"),
                        );
                    }
                    strings::to_zrf(value)
                }
            };
            let s = self.string(&raw);
            out.push((field, format!("({field} {s})")));
        }
        out
    }

    fn turn_order(&mut self, g: &Game) -> String {
        let mut parts = Vec::new();
        let t = &g.turn_order;
        for (i, turn) in t.turns.iter().enumerate() {
            if t.repeat_from == Some(i) {
                parts.push("repeat".to_string());
            }
            let p = self.name(&turn.player);
            parts.push(match (&turn.with_player, &turn.move_type) {
                (None, None) => p,
                (None, Some(m)) => format!("({p} {})", self.name(m)),
                (Some(q), Some(m)) => format!("({p} {} {})", self.name(q), self.name(m)),
                (Some(q), None) => format!("({p} {})", self.name(q)),
            });
        }
        if t.repeat_from.is_some_and(|r| r >= t.turns.len()) {
            parts.push("repeat".into());
        }
        format!("(turn-order {})", parts.join(" "))
    }

    fn board(&mut self, b: &Board) -> String {
        let mut parts: Vec<String> = Vec::new();
        if !b.images.is_empty() {
            let v: Vec<String> = b.images.iter().map(|i| self.string(i)).collect();
            parts.push(format!("(image {})", v.join(" ")));
        }
        // A construction (a board built by board functions) has no ZRF form: its positions
        // are written as a grid or listed, as for a board without a layout.
        let own = crate::spec::Layout {
            construction: None,
            ..b.layout.clone()
        };
        let layout = if own.is_empty() && !b.positions.is_empty() {
            crate::spec::geometry::grid_of(&b.directions, &b.positions)
                .unwrap_or_else(|| layout_of(b))
        } else {
            own
        };
        for g in &layout.grids {
            let [a, bb, c, d] = g.start_rectangle;
            let mut s =
                format!("(grid\n      (start-rectangle {a} {bb} {c} {d})\n      (dimensions");
            for dim in &g.dimensions {
                let l = self.string(&dim.labels.join("/"));
                let _ = write!(s, "\n        ({l} ({} {}))", dim.offset[0], dim.offset[1]);
            }
            s.push(')');
            if !g.directions.is_empty() {
                s.push_str("\n      (directions");
                for d in &g.directions {
                    let n = self.name(&d.name);
                    let delta: Vec<String> = d.delta.iter().map(|x| x.to_string()).collect();
                    let _ = write!(s, " ({n} {})", delta.join(" "));
                }
                s.push(')');
            }
            s.push(')');
            parts.push(s);
        }
        if !layout.positions.is_empty() {
            let mut s = String::from("(positions");
            for p in &layout.positions {
                let [a, bb, c, d] = p.rect;
                let n = self.name(&p.name);
                let _ = write!(s, "\n      ({n} {a} {bb} {c} {d})");
            }
            s.push(')');
            parts.push(s);
        }
        // `links` and `unlink` in their order: each group after the removals before it.
        let mut groups: Vec<&LayoutLinks> = layout.links.iter().collect();
        groups.sort_by_key(|l| l.after_unlinks);
        let mut removed = 0;
        for l in groups {
            let upto = l.after_unlinks.clamp(removed, layout.unlink.len());
            if upto > removed {
                parts.push(self.unlink(&layout.unlink[removed..upto]));
                removed = upto;
            }
            let d = self.name(&l.direction);
            let pairs: Vec<String> = l
                .links
                .iter()
                .map(|[x, y]| format!("({} {})", self.name(x), self.name(y)))
                .collect();
            parts.push(format!("(links {d} {})", pairs.join(" ")));
        }
        if removed < layout.unlink.len() {
            parts.push(self.unlink(&layout.unlink[removed..]));
        }
        if !layout.kill_positions.is_empty() {
            let v: Vec<String> = layout.kill_positions.iter().map(|p| self.name(p)).collect();
            parts.push(format!("(kill-positions {})", v.join(" ")));
        }
        if !layout.dummy.is_empty() {
            let v: Vec<String> = layout.dummy.iter().map(|p| self.name(p)).collect();
            parts.push(format!("(dummy {})", v.join(" ")));
        }
        for z in &b.zones {
            let n = self.name(&z.name);
            let pl: Vec<String> = z.players.iter().map(|p| self.name(p)).collect();
            let ps: Vec<String> = z.positions.iter().map(|p| self.name(p)).collect();
            let glyph = z
                .glyph
                .as_ref()
                .map(|g| format!(" (glyph {})", self.string(g)))
                .unwrap_or_default();
            let help = z
                .help
                .as_ref()
                .map(|h| format!(" (help {})", self.string(h)))
                .unwrap_or_default();
            parts.push(format!(
                "(zone (name {n}){glyph}{help} (players {}) (positions {}))",
                pl.join(" "),
                ps.join(" ")
            ));
        }
        for s in &b.symmetries {
            let p = self.name(&s.player);
            let pairs: Vec<String> = s
                .map
                .iter()
                .enumerate()
                .filter(|(i, [f, t])| {
                    f != t || !b.directions.contains(f) || *i >= b.directions.len()
                })
                .map(|(_, [f, t])| format!("({} {})", self.name(f), self.name(t)))
                .collect();
            if pairs.is_empty() {
                parts.push(format!("(symmetry {p})"));
            } else {
                parts.push(format!("(symmetry {p} {})", pairs.join(" ")));
            }
        }
        place_extensions(&mut parts, &b.extensions, String::clone);
        format!("(board\n    {})", parts.join("\n    "))
    }

    fn piece(&mut self, p: &Piece) -> String {
        let game_at = self.at;
        self.at = self.origins.game(self.game).piece(&p.name).or(game_at);
        let text = self.piece_form(p);
        self.at = game_at;
        text
    }

    fn piece_form(&mut self, p: &Piece) -> String {
        let mut parts = Vec::new();
        let n = self.name(&p.name);
        parts.push(format!("(name {n})"));
        let whose = format!("piece {:?}", p.name);
        if !p.owners.is_empty() && !p.drops.is_empty() {
            self.warn(
                "zrf::emit-unsupported",
                format!(
                    "{whose} belongs to {} alone, which ZRF cannot say: every player may drop it",
                    p.owners.join(", ")
                ),
            );
        }
        for (_, t) in self.texts(&p.texts, false, &whose) {
            parts.push(t);
        }
        for (head, list) in [("image", &p.images), ("glyph", &p.glyphs)] {
            if !list.is_empty() {
                let v: Vec<String> = list
                    .iter()
                    .map(|i| {
                        let f = self.string(&i.file);
                        if i.player.is_empty() {
                            f
                        } else {
                            format!("{} {f}", self.name(&i.player))
                        }
                    })
                    .collect();
                parts.push(format!("({head} {})", v.join(" ")));
            }
        }
        if let Some(nt) = &p.notation {
            let s = self.string(nt);
            parts.push(format!("(notation {s})"));
        }
        for a in &p.attributes {
            parts.push(format!(
                "(attribute {} {})",
                self.name(&a.name),
                self.name(&a.value)
            ));
        }
        if p.dummy {
            parts.push("(dummy)".into());
        }
        if !p.moves.is_empty() {
            let t = self.blocks(&p.name, false, &p.moves);
            parts.push(t);
        }
        if !p.drops.is_empty() {
            let t = self.blocks(&p.name, true, &p.drops);
            parts.push(t);
        }
        self.foreign_extensions(&p.extensions, &whose);
        place_extensions(&mut parts, &p.extensions, String::clone);
        format!("(piece\n    {})", parts.join("\n    "))
    }

    /// Piece `piece`'s moves (or drops when `drop`), each block's warnings located at it.
    fn blocks(&mut self, piece: &str, drop: bool, blocks: &[MoveBlock]) -> String {
        let head = if drop { "drops" } else { "moves" };
        let piece_at = self.at;
        let mut s = format!("({head}");
        let mut current: Option<&str> = None;
        for (bi, b) in blocks.iter().enumerate() {
            self.at = self
                .origins
                .game(self.game)
                .block(piece, drop, bi)
                .or(piece_at);
            if b.move_type.as_deref() != current {
                match &b.move_type {
                    Some(t) => {
                        let _ = write!(s, "\n      (move-type {})", self.name(t));
                    }
                    None => self.warn(
                        "zrf::emit-unsupported",
                        "a block without a move type follows one with a move type; ZRF cannot reset it, so it keeps the previous one".into(),
                    ),
                }
                current = b.move_type.as_deref();
            }
            let text = match b.program.as_slice() {
                [Instr::Call(n)] if self.procs.get(*n) == Some(&ProcUse::Block) => {
                    format!("(proc-{})", self.canon[*n])
                }
                v => {
                    let items: Vec<String> = v.iter().map(|i| self.instr(i)).collect();
                    format!("({})", items.join(" "))
                }
            };
            let _ = write!(s, "\n      {text}");
        }
        self.at = piece_at;
        s.push(')');
        s
    }

    fn opt(&mut self, a: &Option<String>) -> String {
        match a {
            Some(x) => format!(" {}", self.name(x)),
            None => String::new(),
        }
    }

    fn instr(&mut self, i: &Instr) -> String {
        match i {
            Instr::Step(d) => self.name(d),
            Instr::StepOpposite(d) => format!("(opposite {})", self.name(d)),
            Instr::Jump(p) => self.name(p),
            Instr::Mark => "mark".into(),
            Instr::Back => "back".into(),
            Instr::From { go: false } => "from".into(),
            Instr::From { go: true } => "(go from)".into(),
            Instr::To { go: false } => "to".into(),
            Instr::To { go: true } => "(go to)".into(),
            Instr::Verify(c) => format!("(verify {})", self.cond(c)),
            Instr::If { cond, then_, else_ } => {
                let mut s = format!("(if {}", self.cond(cond));
                for x in then_ {
                    let t = self.instr(x);
                    let _ = write!(s, " {t}");
                }
                if !else_.is_empty() {
                    s.push_str(" else");
                    for x in else_ {
                        let t = self.instr(x);
                        let _ = write!(s, " {t}");
                    }
                }
                s.push(')');
                s
            }
            Instr::While { cond, body } => {
                let mut s = format!("(while {}", self.cond(cond));
                for x in body {
                    let t = self.instr(x);
                    let _ = write!(s, " {t}");
                }
                s.push(')');
                s
            }
            Instr::Add {
                pieces,
                partial,
                copy,
                move_type,
            } => {
                let head = match (copy, partial) {
                    (false, false) => "add",
                    (false, true) => "add-partial",
                    (true, false) => "add-copy",
                    (true, true) => "add-copy-partial",
                };
                if move_type.is_some() && !partial {
                    self.warn(
                        "zrf::emit-unsupported",
                        "a move type on a complete (not partial) add has no ZRF form; it is left out".into(),
                    );
                }
                let mut args: Vec<String> = pieces.iter().map(|p| self.name(p)).collect();
                if *partial && let Some(m) = move_type {
                    args.push(self.name(m));
                }
                if args.is_empty() {
                    head.to_string()
                } else {
                    format!("({head} {})", args.join(" "))
                }
            }
            Instr::Capture { at } => self.with_at("capture", at),
            Instr::Cascade => "cascade".into(),
            Instr::Flip { at } => self.with_at("flip", at),
            Instr::ChangeOwner { at } => self.with_at("change-owner", at),
            Instr::ChangeType { piece, at } => {
                format!("(change-type {}{})", self.name(piece), self.opt(at))
            }
            Instr::Create { player, piece, at } => {
                let a = self.opt(player);
                let b = self.opt(piece);
                let c = self.opt(at);
                format!("(create{a}{b}{c})")
            }
            Instr::SetFlag { flag, value } => {
                format!("(set-flag {} {})", self.name(flag), self.cond(value))
            }
            Instr::SetPositionFlag { flag, value, at } => format!(
                "(set-position-flag {} {}{})",
                self.name(flag),
                self.cond(value),
                self.opt(at)
            ),
            Instr::SetAttribute { name, value, at } => format!(
                "(set-attribute {} {}{})",
                self.name(name),
                self.cond(value),
                self.opt(at)
            ),
            Instr::Call(n) => {
                if *n >= self.doc.procedures.len() {
                    self.warn(
                        "zrf::emit-bad-call",
                        format!("a call names procedure {n}, which does not exist; it is left out"),
                    );
                    return String::new();
                }
                format!("(proc-{})", self.canon[*n])
            }
            Instr::SetState { .. } | Instr::ClearState => {
                self.warn(
                    "zrf::emit-unsupported",
                    "Chessembly `set-state` has no ZRF form; it is left out".into(),
                );
                String::new()
            }
            Instr::Raw { format, text } => self.raw(*format, text).unwrap_or_default(),
        }
    }

    fn with_at(&mut self, head: &str, at: &Option<String>) -> String {
        match at {
            None => head.to_string(),
            Some(a) => format!("({head} {})", self.name(a)),
        }
    }

    fn cond(&mut self, c: &Cond) -> String {
        match c {
            Cond::Const(b) => b.to_string(),
            Cond::Test {
                test,
                at,
                move_type,
            } => {
                let t = crate::spec::display::test_name(*test);
                if at.is_none() && move_type.is_none() {
                    t.to_string()
                } else {
                    format!("({t}{}{})", self.opt(at), self.opt(move_type))
                }
            }
            Cond::Piece { piece, at } => format!("(piece? {}{})", self.name(piece), self.opt(at)),
            Cond::InZone { zone, at } => {
                format!("(in-zone? {}{})", self.name(zone), self.opt(at))
            }
            Cond::OnBoard { direction: None } => "on-board?".into(),
            Cond::OnBoard {
                direction: Some(direction),
            } => format!("(on-board? {})", self.name(direction)),
            Cond::Position { position } => format!("(position? {})", self.name(position)),
            Cond::Flag { flag } => format!("(flag? {})", self.name(flag)),
            Cond::PositionFlag { flag, at } => {
                format!("(position-flag? {}{})", self.name(flag), self.opt(at))
            }
            Cond::Attribute { name, at: None } => self.name(name),
            Cond::Attribute { name, at } => format!("({}{})", self.name(name), self.opt(at)),
            Cond::Not(x) => format!("(not {})", self.cond(x)),
            Cond::And(v) => {
                let v: Vec<String> = v.iter().map(|x| self.cond(x)).collect();
                format!("(and {})", v.join(" "))
            }
            Cond::Or(v) => {
                let v: Vec<String> = v.iter().map(|x| self.cond(x)).collect();
                format!("(or {})", v.join(" "))
            }
            Cond::State { key, value } => {
                self.warn(
                    "zrf::emit-unsupported",
                    format!("Chessembly `if-state({key}, {value})` has no ZRF form; it is written as `false`"),
                );
                "false".into()
            }
            Cond::Raw { format, text } => match self.raw(*format, text) {
                Some(t) => t,
                None => "false".into(),
            },
        }
    }

    fn setup(&mut self, g: &Game) -> String {
        let mut s = String::from("(board-setup");
        let mut i = 0;
        while i < g.setup.len() {
            let player = &g.setup[i].player;
            let _ = write!(s, "\n    ({}", self.name(player));
            while i < g.setup.len() && g.setup[i].player == *player {
                let p = &g.setup[i];
                let _ = write!(s, " ({}", self.name(&p.piece));
                for pos in &p.positions {
                    let _ = write!(s, " {}", self.name(pos));
                }
                if let Some(n) = p.off {
                    let _ = write!(s, " off {n}");
                }
                s.push(')');
                i += 1;
            }
            s.push(')');
        }
        s.push(')');
        s
    }

    fn goals(&mut self, goals: &[Goal]) -> Vec<(&'static str, String)> {
        goals
            .iter()
            .map(|g| {
                let head = match g.kind {
                    GoalKind::Win => "win-condition",
                    GoalKind::Loss => "loss-condition",
                    GoalKind::Draw => "draw-condition",
                    GoalKind::Count => "count-condition",
                };
                let players: Vec<String> = g.players.iter().map(|p| self.name(p)).collect();
                let cond = match &g.condition {
                    GoalCond::And(v) if v.len() > 1 => {
                        let v: Vec<String> = v.iter().map(|c| self.goal_cond(c)).collect();
                        v.join(" ")
                    }
                    GoalCond::Raw {
                        format: RawFormat::Zrf,
                        text,
                    } if text.is_empty() => String::new(),
                    c => self.goal_cond(c),
                };
                let sep = if cond.is_empty() { "" } else { " " };
                (head, format!("({head} ({}){sep}{cond})", players.join(" ")))
            })
            .collect()
    }

    fn goal_cond(&mut self, c: &GoalCond) -> String {
        match c {
            GoalCond::Stalemated => "stalemated".into(),
            GoalCond::Repetition => "repetition".into(),
            GoalCond::Checkmated { pieces } => {
                let ps: String = pieces
                    .iter()
                    .map(|p| format!(" {}", self.name(p)))
                    .collect();
                format!("(checkmated{ps})")
            }
            GoalCond::Captured { pieces } => {
                let ps: String = pieces
                    .iter()
                    .map(|p| format!(" {}", self.name(p)))
                    .collect();
                format!("(captured{ps})")
            }
            GoalCond::PiecesRemaining { count, piece } => {
                format!("(pieces-remaining {}{})", self.name(count), self.opt(piece))
            }
            GoalCond::TotalPieceCount { count, piece } => {
                format!(
                    "(total-piece-count {}{})",
                    self.name(count),
                    self.opt(piece)
                )
            }
            GoalCond::AbsoluteConfig {
                pieces,
                positions,
                opponent,
                grouped,
                negated,
            } => {
                let ps: Vec<String> = pieces.iter().map(|p| self.name(p)).collect();
                let mut pieces = if *opponent {
                    format!("(opponent {})", ps.join(" "))
                } else if *grouped {
                    format!("({})", ps.join(" "))
                } else {
                    ps.join(" ")
                };
                if *negated {
                    pieces = format!("(not {pieces})");
                }
                let pos: Vec<String> = positions.iter().map(|p| self.name(p)).collect();
                let positions = if pos.len() == 1 {
                    pos[0].clone()
                } else {
                    format!("({})", pos.join(" "))
                };
                format!("(absolute-config {pieces} {positions})")
            }
            GoalCond::RelativeConfig { args } => {
                format!("(relative-config {})", args.join(" "))
            }
            GoalCond::And(v) => {
                let v: Vec<String> = v.iter().map(|c| self.goal_cond(c)).collect();
                format!("(and {})", v.join(" "))
            }
            GoalCond::Or(v) => {
                let v: Vec<String> = v.iter().map(|c| self.goal_cond(c)).collect();
                format!("(or {})", v.join(" "))
            }
            GoalCond::Not(x) => format!("(not {})", self.goal_cond(x)),
            GoalCond::Raw { format, text } => match self.raw(*format, text) {
                Some(t) => t,
                None => "(line-or-connection)".into(),
            },
            GoalCond::Line { .. } | GoalCond::Connected { .. } => {
                self.warn(
                    "zrf::inexpressible",
                    "a line or connection goal (from Ludii) has no ZRF form; it is written as a comment-free placeholder `(line-or-connection)` that ZoG will reject".into(),
                );
                "(line-or-connection)".into()
            }
        }
    }
}

/// The name of a raw format in messages.
fn format_name(f: RawFormat) -> &'static str {
    match f {
        RawFormat::Zrf => "ZRF",
        RawFormat::Ludii => "Ludii",
        RawFormat::Chessembly => "Chessembly",
    }
}

/// A layout for a board that has explicit positions only and is not one grid
/// (`spec::geometry::grid_of`): every position listed with its
/// rectangle (or an empty one), every link written per direction, off-board positions as dummies.
fn layout_of(b: &Board) -> Layout {
    let mut l = Layout::default();
    for p in &b.positions {
        if p.dummy && p.rect.is_none() {
            l.dummy.push(p.name.clone());
        } else {
            l.positions.push(LayoutPosition {
                name: p.name.clone(),
                rect: p.rect.unwrap_or([0, 0, 0, 0]),
            });
        }
    }
    for d in &b.directions {
        let links: Vec<[String; 2]> = b
            .positions
            .iter()
            .flat_map(|p| {
                p.links
                    .iter()
                    .filter(|k| k.direction == *d)
                    .map(|k| [p.name.clone(), k.to.clone()])
            })
            .collect();
        if !links.is_empty() {
            l.links.push(LayoutLinks {
                direction: d.clone(),
                links,
                after_unlinks: 0,
            });
        }
    }
    l
}

/// Puts the `extensions` (as `zrf` items) forms among `items` (the items of one form after its head) at the
/// places they had in the source, or after the typed items when the places are not known.
fn place_extensions<T>(items: &mut Vec<T>, ext: &Extensions, mut make: impl FnMut(&String) -> T) {
    match ext.zrf_placed() {
        Some(placed) => {
            let mut placed: Vec<(&String, usize)> = placed.collect();
            placed.sort_by_key(|&(_, at)| at);
            for (e, at) in placed {
                let at = at.min(items.len());
                items.insert(at, make(e));
            }
        }
        None => items.extend(ext.texts(RawFormat::Zrf).map(make)),
    }
}

/// Writes `(head sections…)` with one section per line.
fn write_form(out: &mut String, head: &str, secs: &[Section]) {
    let _ = write!(out, "({head}");
    for s in secs {
        let _ = write!(out, "\n  {}", s.text);
    }
    out.push_str(")\n\n");
}

/// ZoG's variant resolution (`zrf::expand::resolve_variant`) on sections.
fn resolve(game: &[Section], delta: &[Section]) -> Vec<Section> {
    let has_goal = delta.iter().any(|d| GOALS.contains(&d.head.as_str()));
    let key_eq = |a: &Section, b: &Section| -> bool {
        match a.head.as_str() {
            "piece" | "option" => a.head == b.head && a.name == b.name,
            h if GOALS.contains(&h) => GOALS.contains(&b.head.as_str()),
            _ => a.head == b.head,
        }
    };
    let overrides = |g: &Section| -> bool {
        match g.head.as_str() {
            h if GOALS.contains(&h) => has_goal,
            _ => delta.iter().any(|d| key_eq(g, d)),
        }
    };
    let mut out = Vec::new();
    let mut used = vec![false; delta.len()];
    for g in game {
        if g.head == "default" {
            continue;
        }
        if !overrides(g) {
            out.push(g.clone());
            continue;
        }
        for (i, d) in delta.iter().enumerate() {
            if !used[i] && key_eq(g, d) {
                used[i] = true;
                out.push(d.clone());
            }
        }
    }
    for (i, d) in delta.iter().enumerate() {
        if !used[i] && d.head != "default" {
            out.push(d.clone());
        }
    }
    out
}

/// Sections in an order-insensitive-where-lowering-is form: grouped by head (stable), so that
/// only the order of sections with the same head counts.
fn canonical(v: &[Section]) -> Vec<(String, String)> {
    let mut heads: Vec<&str> = Vec::new();
    for s in v {
        let h = if GOALS.contains(&s.head.as_str()) {
            "goal"
        } else {
            s.head.as_str()
        };
        if h != "default" && !heads.contains(&h) {
            heads.push(h);
        }
    }
    heads.sort_unstable();
    let mut out = Vec::new();
    for h in heads {
        for s in v {
            let sh = if GOALS.contains(&s.head.as_str()) {
                "goal"
            } else {
                s.head.as_str()
            };
            if sh == h {
                out.push((s.head.clone(), s.text.clone()));
            }
        }
    }
    out
}
