//! Ludii's generated English rule descriptions ("Game Rules:", "Regions:", "Setup:" …) read into a partial spec.
//!
//! The English is a lossy projection of the ludeme tree (`notes/ludii.md` §4.4): landing and
//! stop conditions, capture rules of slides and hops, distance limits and leap walks are not
//! printed. The reader maps what a phrase determines and keeps every phrase it cannot map in
//! `extensions` (as `ludii` items) as a `.lud` comment `// unresolved (<section>): <text>` (on the piece when
//! it is a piece rule), reported with `ludii::unresolved-phrase`. Wording differences between
//! Ludii versions (indentation, trailing spaces, `..`, `vertexs`, region descriptions printed in
//! place of region names, the optional `Game Rules:` line) are tolerated.

mod condition;
mod setup;

use super::board::{self, COMPASS, Geo};
use super::lower::relative_offsets;
use crate::diag::{Diagnostic, FileId, Severity, Span};
use crate::spec::movement::{self, Land, Movement, Travel};
use crate::spec::{
    Board, Cond, Document, EntryKind, Extensions, Game, Goal, GoalCond, GoalKind, MoveBlock, Piece,
    Placement, RawFormat, SPEC_VERSION, Symmetry, Test, Texts, Zone,
};
use setup::{BoardPhrase, SetupCx, SetupLine, Sites};

/// Diagnostic code: a phrase the reader cannot map; it is kept as text on the spec.
pub const CODE_UNRESOLVED: &str = "ludii::unresolved-phrase";
/// Diagnostic code: a choice the reader made that the text does not state.
pub const CODE_ASSUMPTION: &str = "ludii::assumption";
/// Diagnostic code: a region or `Setup:` line names something the text does not define (a
/// `track …`, a region built on one, Ludii's `null`): the zones or placements are partial.
pub const CODE_UNSTATED: &str = "ludii::english-unstated";
/// Diagnostic code: the text is not a Ludii English description.
pub const CODE_NOT_ENGLISH: &str = "ludii::not-english";

/// The section headers of Ludii's generated English, in the order Ludii writes them.
pub const HEADERS: [&str; 10] = [
    "Game Rules:",
    "Regions:",
    "Rules for Pieces:",
    "Setup:",
    "Rules:",
    "Aim:",
    "Game Heuristics:",
    "Board Setup:",
    "Game Endings:",
    "Moves:",
];

struct Line<'a> {
    text: &'a str,
    span: Span,
}

struct Reader<'a> {
    diags: Vec<Diagnostic>,
    geo: Option<Geo>,
    players: Vec<String>,
    unresolved: Vec<String>,
    relative_used: bool,
    file: FileId,
    _p: std::marker::PhantomData<&'a ()>,
}

fn number_word(w: &str) -> Option<usize> {
    let words = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    words
        .iter()
        .position(|x| x.eq_ignore_ascii_case(w))
        .map(|i| i + 1)
        .or_else(|| w.parse().ok())
}

fn test(t: Test) -> Cond {
    Cond::Test {
        test: t,
        at: None,
        move_type: None,
    }
}

fn strip_end(s: &str) -> &str {
    s.trim().trim_end_matches('.').trim()
}

/// Splits `a, b and c` / `a, b or c` into items.
fn list_items(s: &str) -> Vec<String> {
    let s = strip_end(s);
    let mut out = Vec::new();
    for part in s.split(", ") {
        for p in part.split(" and ") {
            for q in p.split(" or ") {
                let q = q.trim();
                if !q.is_empty() {
                    out.push(q.to_string());
                }
            }
        }
    }
    out
}

impl Reader<'_> {
    fn unresolved(&mut self, section: &str, text: &str, span: Span, why: &str) {
        self.diags.push(Diagnostic::warning(
            CODE_UNRESOLVED,
            format!("{section}: {why}: \"{text}\""),
            span,
        ));
        self.unresolved
            .push(format!("// unresolved ({section}): {text}"));
    }

    /// A line that names `what`, which the text does not define: a located
    /// `ludii::english-unstated` warning, and the line kept as unresolved text on the spec.
    fn unstated(&mut self, section: &str, text: &str, span: Span, what: &str, effect: &str) {
        self.diags.push(Diagnostic::warning(
            CODE_UNSTATED,
            format!(
                "{section}: names {what}, which the text does not define ({effect}, so the game is partial): \"{text}\""
            ),
            span,
        ));
        self.unresolved
            .push(format!("// unresolved ({section}): {text}"));
    }

    /// The board sentence (`10x9 rectangle board with square tiling`, `2 x 6 Mancala board
    /// with 2 outer stores`, …), built with Ludii's site indexing (`spec::geometry::build`).
    fn board(&mut self, phrase: &str, vertex: bool, span: Span) -> Option<Board> {
        let (geo, construction) = match setup::board_phrase(phrase, vertex) {
            BoardPhrase::Built(geo, c) => (*geo, c),
            BoardPhrase::Unstated => {
                self.diags.push(Diagnostic::warning(
                    CODE_UNRESOLVED,
                    format!(
                        "the text does not describe the board (\"{phrase}\"): no board, and sites named in the text cannot be located"
                    ),
                    span,
                ));
                return None;
            }
            BoardPhrase::Unsupported(why) => {
                self.unresolved(
                    "Game Rules",
                    phrase,
                    span,
                    &format!("board not built: {why}"),
                );
                return None;
            }
        };
        if vertex {
            self.diags.push(Diagnostic::new(
                Severity::Note,
                CODE_ASSUMPTION,
                "the text mentions vertices, so pieces stand on the points (`use:Vertex`)",
                Some(span),
            ));
        }
        let b = geo.spec_board(construction);
        self.geo = Some(geo);
        Some(b)
    }

    /// A site-set description: `the bottom sites of the board expanded by 4 steps`,
    /// `sites [1, 2]`, `the union of …`.
    fn region(&self, s: &str) -> Option<Vec<usize>> {
        Sites::new(self.geo.as_ref()?).eval(s)
    }

    /// Direction words → offsets from forward/north.
    fn dirs(&mut self, s: &str) -> Option<Vec<&'static str>> {
        let geo = self.geo.as_ref()?;
        let mut offs: Vec<i32> = Vec::new();
        for item in list_items(s) {
            let item = item.trim_start_matches("the ").to_lowercase();
            let v: Vec<i32> = match item.as_str() {
                "orthogonal" => geo
                    .orth
                    .iter()
                    .filter_map(|d| board::compass_index(d).map(|i| i as i32))
                    .collect(),
                "diagonal" => geo
                    .diag
                    .iter()
                    .filter_map(|d| board::compass_index(d).map(|i| i as i32))
                    .collect(),
                "adjacent" | "all" => geo
                    .dirs
                    .iter()
                    .filter_map(|d| board::compass_index(d).map(|i| i as i32))
                    .collect(),
                "north" => vec![0],
                "northeast" | "north-east" => vec![1],
                "east" => vec![2],
                "southeast" | "south-east" => vec![3],
                "south" => vec![4],
                "southwest" | "south-west" => vec![5],
                "west" => vec![6],
                "northwest" | "north-west" => vec![7],
                w => {
                    let name = match w {
                        "forward" => "Forward",
                        "backward" => "Backward",
                        "rightward" => "Rightward",
                        "leftward" => "Leftward",
                        "forward-right" | "forward right" => "FR",
                        "forward-left" | "forward left" => "FL",
                        "backward-right" | "backward right" => "BR",
                        "backward-left" | "backward left" => "BL",
                        "forwards" => "Forwards",
                        "backwards" => "Backwards",
                        "rightwards" => "Rightwards",
                        "leftwards" => "Leftwards",
                        _ => return None,
                    };
                    self.relative_used = true;
                    relative_offsets(name)?
                }
            };
            for o in v {
                if !offs.contains(&o) {
                    offs.push(o);
                }
            }
        }
        let geo = self.geo.as_ref()?;
        Some(
            offs.iter()
                .map(|&o| COMPASS[o.rem_euclid(8) as usize])
                .filter(|d| geo.dirs.contains(d))
                .collect(),
        )
    }

    /// A condition phrase.
    fn cond(&self, s: &str) -> Option<Cond> {
        let mut s = s.trim();
        let mut negations = 0usize;
        while let Some(r) = s.strip_prefix("not ") {
            negations += 1;
            s = r.trim_start();
        }
        if negations > 0 {
            let c = self.cond(s)?;
            return Some(if negations % 2 == 1 {
                Cond::Not(Box::new(c))
            } else {
                c
            });
        }
        Some(match s {
            "is a friend" | "a friend" => test(Test::Friend),
            "is an enemy" | "an enemy" => test(Test::Enemy),
            "empty"
            | "is empty"
            | "the set of empty cells"
            | "the set of empty vertexs"
            | "the set of empty vertices" => test(Test::Empty),
            _ if s.starts_with("there is an enemy") => test(Test::Enemy),
            _ => {
                if let Some(r) = s
                    .strip_prefix("between is in ")
                    .or_else(|| s.strip_prefix("[between] is in "))
                    .or_else(|| s.strip_prefix("the location of the piece is in "))
                    .or_else(|| s.strip_prefix("is in "))
                {
                    // `<Region> and empty`
                    if let Some((reg, rest)) = r.rsplit_once(" and ") {
                        let z = region_ref(reg)?;
                        return Some(Cond::And(vec![
                            Cond::InZone { zone: z, at: None },
                            self.cond(rest)?,
                        ]));
                    }
                    if r.starts_with("the set of empty") {
                        return Some(test(Test::Empty));
                    }
                    return Some(Cond::InZone {
                        zone: region_ref(r)?,
                        at: None,
                    });
                }
                return None;
            }
        })
    }

    /// One alternative of a piece rule. `Err(why)` leaves it unresolved.
    fn piece_alt(
        &mut self,
        s: &str,
    ) -> Result<(Vec<MoveBlock>, Option<&'static str>), &'static str> {
        let s = strip_end(s);
        // Capture by replacement prefix.
        let (capture, s) = match s.strip_prefix("remove pieces at to then ") {
            Some(r) => (true, r),
            None => (false, s),
        };
        let land = if capture {
            Cond::Not(Box::new(test(Test::Friend)))
        } else {
            test(Test::Empty)
        };
        if let Some(r) = s.strip_prefix("step ") {
            if let Some(body) = r.strip_prefix("if ") {
                let (c, rest) = body.split_once(" then ").ok_or("no `then`")?;
                let (a, b) = rest.split_once(" else ").ok_or("no `else`")?;
                let c = self.cond(c).ok_or("condition not understood")?;
                let da = self.dirs(a).ok_or("directions not understood")?;
                let db = self.dirs(b).ok_or("directions not understood")?;
                let mut v = Vec::new();
                for (cc, ds) in [(c.clone(), da), (Cond::Not(Box::new(c)), db)] {
                    for d in ds {
                        v.push(typed(Travel::Step(d.to_string()), Some(&cc), &land)?);
                    }
                }
                return Ok((v, None));
            }
            let ds = self.dirs(r).ok_or("directions not understood")?;
            let steps = ds
                .iter()
                .map(|d| typed(Travel::Step(d.to_string()), None, &land));
            return Ok((steps.collect::<Result<_, _>>()?, None));
        }
        if let Some(r) = s.strip_prefix("slide ") {
            if capture {
                return Err("a capture before a slide is not a known template");
            }
            let r = r
                .strip_prefix("from the location of the piece ")
                .unwrap_or(r);
            let r = r.strip_prefix("in the ").ok_or("no `in the … direction`")?;
            let (ds, rest) = r.split_once(" direction").ok_or("no `direction`")?;
            let ds = self.dirs(ds).ok_or("directions not understood")?;
            let go = match rest.trim().strip_prefix("through ") {
                Some(b) => self
                    .cond(b)
                    .ok_or("the `through` condition is not understood")?,
                None if rest.trim().is_empty() => test(Test::Empty),
                None => return Err("text after the direction is not understood"),
            };
            let run = movement::run_parts(&go).ok_or("a slide's run that may be occupied")?;
            let slides = ds.iter().map(|d| {
                let mut m = Movement::new(
                    Travel::Slide {
                        dir: d.to_string(),
                        max: None,
                        quiet: true,
                    },
                    Land::Empty,
                );
                m.run = run.clone();
                movement::program(&m)
            });
            return Ok((
                slides.collect(),
                Some("the slide's stop (capture) rule and any distance limit are not printed"),
            ));
        }
        if s.starts_with("hop ") {
            return Err("a hop's hurdle, landing and capture rules are not printed");
        }
        if s.starts_with("leap ") {
            return Err("a leap's walk is not printed");
        }
        // Two-step: `if <c2>, from … , for all sites … from <t> to in the direction <R>, for all
        // sites … from <t> the location of the piece in the direction <D1>`.
        if let Some(body) = s.strip_prefix("if ") {
            let parts: Vec<&str> = body
                .split(", for all sites that can be reached from ")
                .collect();
            if parts.len() == 3 {
                let c2 = parts[0].split(", ").next().unwrap_or("");
                let c2 = self.cond(c2).ok_or("condition not understood")?;
                let rel = parts[1]
                    .split_once("in the direction ")
                    .ok_or("no direction")?
                    .1;
                let d1 = parts[2]
                    .split_once("in the direction ")
                    .ok_or("no direction")?
                    .1;
                let firsts = self.dirs(d1).ok_or("directions not understood")?;
                let mut offs = Vec::new();
                for item in list_items(rel) {
                    let name = match item.as_str() {
                        "forward-right" => "FR",
                        "forward-left" => "FL",
                        "forward" => "Forward",
                        "rightward" => "Rightward",
                        "leftward" => "Leftward",
                        _ => return Err("relative directions not understood"),
                    };
                    offs.extend(relative_offsets(name).unwrap_or_default());
                }
                let geo = self.geo.as_ref().ok_or("no board")?;
                let mut v = Vec::new();
                for d in &firsts {
                    for &o in &offs {
                        let Some(d2) = board::rotate(d, o) else {
                            continue;
                        };
                        if !geo.dirs.contains(&d2) {
                            continue;
                        }
                        let path = vec![d.to_string(), d2.to_string()];
                        v.push(typed(Travel::Leap(path), None, &c2)?);
                    }
                }
                return Ok((
                    v,
                    Some(
                        "the condition on the intermediate site (the horse's block) is not printed",
                    ),
                ));
            }
        }
        Err("no known move template")
    }
}

/// `Home: the bottom sites … for P1 or Home: …`, `Home or Home`, `Home` → `Home`.
fn region_ref(s: &str) -> Option<String> {
    let s = s.trim();
    let first = s.split(" or ").next()?.trim();
    let name = first.split(':').next()?.trim();
    if name.is_empty() || name.contains(' ') {
        return None;
    }
    Some(name.to_string())
}

/// Splits a piece-rule body at ` or ` where the next words start a new move.
fn split_alternatives(body: &str) -> Vec<&str> {
    let verbs = [
        "slide ", "hop ", "step ", "leap ", "remove ", "from ", "if ", "move ",
    ];
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while let Some(p) = body[i..].find(" or ") {
        let at = i + p;
        let next = &body[at + 4..];
        if verbs.iter().any(|v| next.starts_with(v)) && !body[start..at].starts_with("if ") {
            out.push(&body[start..at]);
            start = at + 4;
        }
        i = at + 4;
    }
    out.push(&body[start..]);
    out
}

/// Reads a Ludii English description into a partial spec.
pub fn read_english(name: &str, text: &str, file: FileId) -> (Option<Document>, Vec<Diagnostic>) {
    let mut r = Reader {
        diags: Vec::new(),
        geo: None,
        players: Vec::new(),
        unresolved: Vec::new(),
        relative_used: false,
        file,
        _p: std::marker::PhantomData,
    };
    let lines = section_lines(text, r.file);
    // Ludii describes no match: `Sorry! Matches are not yet supported.`
    if let Some((_, l)) = lines.iter().find(|(_, l)| l.text == MATCH_TEXT) {
        r.diags.push(Diagnostic::new(
            Severity::Warning,
            CODE_UNRESOLVED,
            "Ludii generates no rules for a match (`Sorry! Matches are not yet supported.`): a game with no board, pieces or rules, titled after the file",
            Some(l.span),
        ));
        return (Some(match_document(name, text, &lines)), r.diags);
    }
    // Opening sentence.
    let Some(open_idx) = lines
        .iter()
        .position(|(_, l)| l.text.starts_with("The game \""))
    else {
        r.diags.push(Diagnostic::new(
            Severity::Error,
            CODE_NOT_ENGLISH,
            "no opening sentence `The game \"…\" is played by … players on a … board.`",
            None,
        ));
        return (None, r.diags);
    };
    let open_span = lines[open_idx].1.span;
    let (title, mut boards) = r.opening(&lines[open_idx].1, text);
    // Regions the text does not define by sites (built on a track it never prints).
    let undefined = setup::undefined_regions(
        lines
            .iter()
            .filter(|(s, _)| s == "Regions:")
            .map(|(_, l)| l.text),
    );
    // Piece lists first (piece rules and setup lines need the names).
    let (mut pieces, plurals, shared) = read_pieces(&mut r, &lines);
    let read = r.sections(&lines, open_idx, &undefined, &mut pieces, &plurals, &shared);
    if !read.manual.is_empty() {
        r.diags.push(Diagnostic::new(
            Severity::Note,
            CODE_ASSUMPTION,
            format!(
                "{} lines of manual-page sections (heuristics, endings, move lists) are not rules and are ignored",
                read.manual.len()
            ),
            None,
        ));
    }
    if let Some(b) = boards.first_mut() {
        b.zones = read.zones;
        r.relative_symmetries(b, open_span);
    }
    let game = Game {
        kind: EntryKind::Game,
        engine: None,
        title,
        variant_of: None,
        default: false,
        texts: Texts::default(),
        players: r.players.clone(),
        turn_order: Default::default(),
        options: vec![],
        sounds: vec![],
        boards,
        pieces,
        setup: read.setup,
        goals: read.goals,
        move_priorities: vec![],
        extensions: Extensions::of(RawFormat::Ludii, r.unresolved.clone()),
    };
    let doc = Document {
        spec_version: SPEC_VERSION.to_string(),
        source: crate::spec::Source::of_text("ludii-english", name, text),
        games: vec![game],
        procedures: vec![],
    };
    (Some(doc), r.diags)
}

/// What the lines after the opening sentence add to the game.
#[derive(Default)]
struct Sections {
    zones: Vec<Zone>,
    setup: Vec<Placement>,
    goals: Vec<Goal>,
    /// Lines of manual-page sections, which are not rules.
    manual: Vec<String>,
}

/// The text's non-blank lines, trimmed and located, each with the section header above it
/// (`Game Rules:` before the first header); header lines themselves are dropped.
fn section_lines(text: &str, file: FileId) -> Vec<(String, Line<'_>)> {
    let mut lines: Vec<(String, Line)> = Vec::new();
    let mut section = String::from("Game Rules:");
    let mut off = 0usize;
    for raw in text.split_inclusive('\n') {
        let start = off;
        off += raw.len();
        let t = raw.trim_end_matches(['\n', '\r']);
        let lead = t.len() - t.trim_start().len();
        let trimmed = t.trim();
        if trimmed.is_empty() {
            continue;
        }
        let span = Span::new(file, start + lead, start + lead + trimmed.len());
        if let Some(h) = HEADERS
            .iter()
            .find(|h| trimmed == **h || trimmed.starts_with(**h) && trimmed.len() == h.len())
        {
            section = h.to_string();
            continue;
        }
        lines.push((
            section.clone(),
            Line {
                text: trimmed,
                span,
            },
        ));
    }
    lines
}

impl Reader<'_> {
    /// The lines after the opening sentence, section by section (the piece lists are read
    /// already); what is not understood is reported and kept as unresolved text.
    fn sections(
        &mut self,
        lines: &[(String, Line)],
        open_idx: usize,
        undefined: &[String],
        pieces: &mut [Piece],
        plurals: &[String],
        shared: &[String],
    ) -> Sections {
        let mut read = Sections::default();
        for (i, (section, l)) in lines.iter().enumerate() {
            if i == open_idx {
                continue;
            }
            let t = l.text;
            let sec = section.trim_end_matches(':');
            match section.as_str() {
                "Game Rules:" | "Regions:" | "Rules for Pieces:" if is_piece_list(t) => {}
                "Regions:" => self.region_line(sec, l, undefined, &mut read.zones),
                "Rules for Pieces:" => self.piece_rule_line(sec, l, plurals, pieces),
                "Game Rules:" => {
                    if t.starts_with("Players take turns moving") {
                        continue;
                    }
                    self.unresolved(sec, t, l.span, "sentence not understood");
                }
                "Setup:" => {
                    let placed = self.setup_line(sec, l, undefined, pieces, shared);
                    read.setup.extend(placed);
                }
                "Rules:" => {
                    if strip_end(t) == "Move one of your pieces" {
                        continue;
                    }
                    self.unresolved(sec, t, l.span, "play rule not understood");
                }
                "Aim:" => {
                    for clause in aims(t) {
                        match aim(&clause, pieces, &self.players) {
                            Some(g) => read.goals.push(g),
                            None => self.unresolved(
                                sec,
                                &clause,
                                l.span,
                                "end condition not understood",
                            ),
                        }
                    }
                }
                _ => read.manual.push(format!("{section} {t}")),
            }
        }
        read
    }

    /// The opening sentence `The game "…" is played by … players on a … board.`: sets the
    /// players and returns the title and the board (none when the phrase is not understood).
    fn opening(&mut self, opening: &Line, text: &str) -> (String, Vec<Board>) {
        let rest = &opening.text["The game \"".len()..];
        let (title, rest) = rest.split_once('"').unwrap_or((rest, ""));
        let title = title.to_string();
        let players_word = rest
            .trim()
            .strip_prefix("is played by ")
            .and_then(|x| x.split_whitespace().next())
            .unwrap_or("two");
        let n_players = number_word(players_word).unwrap_or(2).clamp(1, 16);
        self.players = (1..=n_players).map(|i| format!("P{i}")).collect();
        let board_phrase = rest
            .split_once(" on a ")
            .or_else(|| rest.split_once(" on an "))
            .map(|(_, b)| strip_end(b).to_string())
            .unwrap_or_default();
        let lower_text = text.to_lowercase();
        let vertex = lower_text.contains("vertex") || lower_text.contains("vertices");
        let mut boards = Vec::new();
        if let Some(b) = self.board(&board_phrase, vertex, opening.span) {
            boards.push(b);
        }
        (title, boards)
    }

    /// A `Regions:` line `Name: description [for Pn]`, read into a zone.
    fn region_line(&mut self, sec: &str, l: &Line, undefined: &[String], zones: &mut Vec<Zone>) {
        let t = l.text;
        let Some((name, desc)) = t.split_once(": ") else {
            self.unresolved(sec, t, l.span, "not a region line");
            return;
        };
        let (desc, players) = match desc.rsplit_once(" for ") {
            Some((d, p)) if self.players.iter().any(|x| x == p.trim()) => {
                (d, vec![p.trim().to_string()])
            }
            _ => (desc, self.players.clone()),
        };
        if let Some(what) = setup::undefined_ref(desc, undefined) {
            self.unstated(sec, t, l.span, &what, "the region is left out");
            return;
        }
        let sites = match desc.strip_prefix("contains the sites [") {
            Some(list) => self.region(&format!("[{list}")),
            None => self.region(desc),
        };
        match (sites, self.geo.as_ref()) {
            (Some(s), Some(geo)) => zones.push(Zone {
                name: name.trim().to_string(),
                players,
                positions: s.iter().map(|&k| geo.names[k].clone()).collect(),
                glyph: None,
                help: None,
            }),
            _ => self.unresolved(sec, t, l.span, "region not understood"),
        }
    }

    /// A `Rules for Pieces:` line `<plural> <move> or <move> …`: each alternative it can read
    /// becomes moves of that piece; the rest is kept on the piece as unresolved.
    fn piece_rule_line(&mut self, sec: &str, l: &Line, plurals: &[String], pieces: &mut [Piece]) {
        let t = l.text;
        if t.starts_with("Players take turns moving") {
            return;
        }
        let Some(pi) = plurals.iter().position(|p| t.starts_with(&format!("{p} "))) else {
            self.unresolved(
                sec,
                t,
                l.span,
                "no piece of the piece list starts this line",
            );
            return;
        };
        let body = &t[plurals[pi].len() + 1..];
        let body = strip_end(body);
        for alt in split_alternatives(body) {
            let (blocks, open) = match self.piece_alt(alt) {
                Ok((blocks, open)) => (blocks, open),
                Err(why) => (Vec::new(), Some(why)),
            };
            pieces[pi].moves.extend(blocks);
            if let Some(why) = open {
                self.diags.push(Diagnostic::warning(
                    CODE_UNRESOLVED,
                    format!("{}: {why}: \"{alt}\"", pieces[pi].name),
                    l.span,
                ));
                pieces[pi].extensions.push(
                    RawFormat::Ludii,
                    format!("// unresolved (Rules for Pieces): {why}: {alt}"),
                );
            }
        }
    }

    /// A `Setup:` line's placements (none when it is not read, which is reported).
    fn setup_line(
        &mut self,
        sec: &str,
        l: &Line,
        undefined: &[String],
        pieces: &[Piece],
        shared: &[String],
    ) -> Vec<Placement> {
        let t = l.text;
        if let Some(what) = setup::undefined_ref(t, undefined) {
            self.unstated(sec, t, l.span, &what, "its placements are left out");
            return Vec::new();
        }
        let cx = SetupCx {
            pieces,
            shared,
            players: &self.players,
            geo: self.geo.as_ref(),
        };
        match setup::setup_line(t, &cx) {
            Ok(SetupLine::Placed(p)) => return p,
            Ok(SetupLine::Hand(items)) => self.unresolved(
                sec,
                t,
                l.span,
                &format!("pieces put in a hand ([{items}]) are not placements on the board"),
            ),
            Ok(SetupLine::Other) => self.unresolved(sec, t, l.span, "not a placement"),
            Err(why) => self.unresolved(sec, t, l.span, &why),
        }
        Vec::new()
    }

    /// When relative directions are used in a two-player game: player one faces north and
    /// player two south, as the board's symmetries (noted as an assumption).
    fn relative_symmetries(&mut self, b: &mut Board, open_span: Span) {
        if !(self.relative_used && self.players.len() == 2) {
            return;
        }
        self.diags.push(Diagnostic::new(
            Severity::Note,
            CODE_ASSUMPTION,
            "relative directions are used: player one is taken to face north and player two south",
            Some(open_span),
        ));
        for (p, rot) in [("P1", 0), ("P2", 4)] {
            b.symmetries.push(Symmetry {
                player: p.into(),
                map: b
                    .directions
                    .iter()
                    .map(|d| [d.clone(), board::rotate(d, rot).unwrap_or("N").to_string()])
                    .collect(),
            });
        }
    }
}

/// What Ludii's English generator prints instead of the rules of a match.
const MATCH_TEXT: &str = "Sorry! Matches are not yet supported.";

/// The document of a text that describes a match: one game, titled after the file's stem,
/// that keeps the text's lines verbatim.
fn match_document(name: &str, text: &str, lines: &[(String, Line)]) -> Document {
    let stem = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let title = stem.rsplit_once('.').map_or(stem, |(s, _)| s).to_string();
    let game = Game {
        kind: EntryKind::Game,
        engine: None,
        title,
        variant_of: None,
        default: false,
        texts: Texts::default(),
        players: vec![],
        turn_order: Default::default(),
        options: vec![],
        sounds: vec![],
        boards: vec![],
        pieces: vec![],
        setup: vec![],
        goals: vec![],
        move_priorities: vec![],
        extensions: Extensions::of(
            RawFormat::Ludii,
            lines.iter().map(|(_, l)| l.text.to_string()),
        ),
    };
    Document {
        spec_version: SPEC_VERSION.to_string(),
        source: crate::spec::Source::of_text("ludii-english", name, text),
        games: vec![game],
        procedures: vec![],
    }
}

/// A line made of piece-list sentences (`Player one plays with Jaguars. Player two plays with
/// Dogs.`).
fn is_piece_list(t: &str) -> bool {
    piece_sentences(t)
        .first()
        .is_some_and(|s| setup::piece_list(s).is_some())
}

/// The sentences of a line; Ludii prints `All players play with null The following pieces …`
/// without a period, so a list is also split before `The following pieces`.
fn piece_sentences(t: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for s in setup::sentences(t) {
        let mut rest = s;
        while let Some(at) = rest.find(" The following pieces ") {
            out.push(rest[..at].trim());
            rest = &rest[at + 1..];
        }
        out.push(rest);
    }
    out
}

/// The pieces of the piece-list sentences, singular names taken from setup lines when they
/// fit. Dice (`Dies with 6 faces valued […]`) are not pieces of the spec: one warning says so.
/// The pieces the piece lists name, their plural names, and the names of those the text says
/// are shared by all players (a placement without a player is theirs, as Ludii places them).
fn read_pieces(r: &mut Reader, lines: &[(String, Line)]) -> (Vec<Piece>, Vec<String>, Vec<String>) {
    let mut plurals: Vec<String> = Vec::new();
    let mut shared_plurals: Vec<String> = Vec::new();
    for (_, l) in lines {
        for s in piece_sentences(l.text) {
            let Some((owner, names, dice)) = setup::piece_list(s) else {
                continue;
            };
            if matches!(owner, setup::Owner::Shared) {
                shared_plurals.extend(names.iter().cloned());
            }
            if dice > 0 {
                r.diags.push(Diagnostic::warning(
                    CODE_UNRESOLVED,
                    format!("dice are not pieces of the spec; {dice} dice left out: \"{s}\""),
                    l.span,
                ));
            }
            let list = s.split_once(" with ").map_or(s, |x| x.1);
            let list = list.split_once(": ").map_or(list, |x| x.1);
            for it in setup::items(list) {
                let it = it.trim_end_matches('.');
                if it.contains(' ') && !it.starts_with("Die") {
                    r.unresolved("Game Rules", it, l.span, "not a piece name");
                }
            }
            for n in names {
                if !plurals.contains(&n) {
                    plurals.push(n);
                }
            }
        }
    }
    // Singular names the setup lines use: `Place a Dog …`, `Place stack of [Goat2] …`.
    let mut known: Vec<String> = Vec::new();
    for (sec, l) in lines {
        if sec != "Setup:" {
            continue;
        }
        let t = l.text;
        if let Some(x) = t
            .strip_prefix("Place a ")
            .or_else(|| t.strip_prefix("Place an "))
            .and_then(|x| x.split_whitespace().next())
        {
            known.push(x.to_string());
        }
        if let Some((list, _)) = t
            .strip_prefix("Place stack of [")
            .and_then(|x| x.split_once(']'))
        {
            for item in list.split(',') {
                known.push(
                    item.trim()
                        .trim_end_matches(|c: char| c.is_ascii_digit())
                        .to_string(),
                );
            }
        }
    }
    let pieces = plurals
        .iter()
        .map(|p| Piece {
            name: setup::singular(p, &known),
            ..Piece::default()
        })
        .collect();
    let shared = shared_plurals
        .iter()
        .map(|p| setup::singular(p, &known))
        .collect();
    (pieces, plurals, shared)
}

/// Splits the aim paragraph into `If …, … wins` clauses (Ludii prints no period between them).
fn aims(t: &str) -> Vec<String> {
    let t = strip_end(t);
    let mut out = Vec::new();
    let mut rest = t;
    loop {
        let skip = rest.chars().next().map_or(0, char::len_utf8);
        let Some(p) = rest[skip..].find("If ") else {
            break;
        };
        let at = p + skip;
        out.push(strip_end(&rest[..at]).to_string());
        rest = &rest[at..];
    }
    if !rest.trim().is_empty() {
        out.push(strip_end(rest).to_string());
    }
    out
}

/// One `If <cond>, <role> wins|loses` clause.
fn aim(clause: &str, pieces: &[Piece], players: &[String]) -> Option<Goal> {
    let body = clause.strip_prefix("If ")?;
    let (cond, result) = body.rsplit_once(", ")?;
    let (who, kind) = match result.trim() {
        "the moving player wins" => ("Mover", GoalKind::Win),
        "the moving player loses" => ("Mover", GoalKind::Loss),
        "the next player wins" => ("Next", GoalKind::Win),
        "the next player loses" => ("Next", GoalKind::Loss),
        "it's a draw" | "the game is a draw" => ("Mover", GoalKind::Draw),
        _ => return None,
    };
    let cond = cond.trim();
    let (subject, gc) = if cond == "the next player cannot move" {
        ("Next", GoalCond::Stalemated)
    } else if cond == "the moving player cannot move" {
        ("Mover", GoalCond::Stalemated)
    } else if let Some((k, rest)) = cond.split_once(" of the next player is threatened and ") {
        if !(rest.starts_with("not can move") || rest == "the next player cannot move")
            || !pieces.iter().any(|p| p.name == k)
        {
            return None;
        }
        (
            "Next",
            GoalCond::Checkmated {
                pieces: vec![k.to_string()],
            },
        )
    } else if let Some(rest) = cond.strip_prefix("a player places ") {
        let n: u32 = rest.split_whitespace().next()?.parse().ok()?;
        (
            "Mover",
            GoalCond::Line {
                length: n,
                directions: vec![],
            },
        )
    } else {
        return None;
    };
    let kind = if kind == GoalKind::Draw || who == subject {
        kind
    } else if kind == GoalKind::Win {
        GoalKind::Loss
    } else {
        GoalKind::Win
    };
    Some(Goal {
        kind,
        players: players.to_vec(),
        condition: gc,
    })
}

/// The move block of a movement with these origin and destination conditions (through the
/// movement table).
fn typed(travel: Travel, from: Option<&Cond>, to: &Cond) -> Result<MoveBlock, &'static str> {
    Movement::from_conditions(travel, from, Some(to))
        .map(|m| movement::program(&m))
        .ok_or("the conditions have no typed form")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alternatives_split_only_before_moves() {
        assert_eq!(
            split_alternatives("slide in the orthogonal direction through x or hop orthogonal"),
            vec![
                "slide in the orthogonal direction through x",
                "hop orthogonal"
            ]
        );
        assert_eq!(
            split_alternatives("step forward-right or forward-left").len(),
            1
        );
        assert_eq!(
            aims("If a, the moving player wins If b, the moving player wins."),
            vec![
                "If a, the moving player wins",
                "If b, the moving player wins"
            ]
        );
    }
}
