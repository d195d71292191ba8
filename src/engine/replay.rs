//! Replays a ZoG saved game against the engine: each record must match one legal move.
//!
//! A record's words are read as [`Segment`]s against the rules (players first, then pieces,
//! else positions and keywords). A legal move matches when its movements are the record's, in
//! order, and its other segments are the record's as a multiset: ZoG's order of captures,
//! creations and changes is not fixed. The `partial K` number is ignored; a partial record is
//! matched preferably by a partial move, and the same player then continues.

use super::notation::{Segment, segments};
use super::play::{legal_moves, outcome, play};
use super::rules::Rules;
use super::state::{Move, State};
use super::zsg::{Body, Placement, Record, SavedGame, Token};

/// A replayed game: how many records were played and the position reached.
#[derive(Debug, Clone)]
pub struct Replayed {
    /// Records played (move parts and passes).
    pub moves: usize,
    /// The position after the last record.
    pub state: State,
}

/// Why a saved game does not replay, located in its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What is wrong.
    pub message: String,
    /// The record (whole line) that could not be played, when the error is about one.
    pub record: Option<String>,
    /// The legal moves at that point, in ZoG notation.
    pub alternatives: Vec<String>,
    /// How many records were played before it.
    pub played: usize,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

fn located(tok: &Token, message: impl Into<String>) -> ReplayError {
    ReplayError {
        line: tok.span.line,
        col: tok.span.col,
        message: message.into(),
        record: None,
        alternatives: Vec::new(),
        played: 0,
    }
}

/// Replays `game` from the start position of `rules`: its set-up lines first (`(x pos)`
/// empties a position, `(Player Piece pos)` puts a piece there), then every record. Stops at
/// the first record no legal move matches.
pub fn replay(rules: &Rules, game: &SavedGame) -> Result<Replayed, ReplayError> {
    let mut r = Replayer::new(rules);
    for p in &game.setup {
        r.set_up(p)?;
    }
    for rec in &game.records {
        r.play(rec)?;
    }
    Ok(r.done())
}

/// The position a saved game starts from: the start position of `rules` with the game's
/// set-up lines applied in order.
pub fn set_up(rules: &Rules, game: &SavedGame) -> Result<State, ReplayError> {
    let mut r = Replayer::new(rules);
    for p in &game.setup {
        r.set_up(p)?;
    }
    Ok(r.done().state)
}

/// A replay in progress, fed one set-up line or record at a time (so a saved game can be
/// replayed as it is read, [`super::zsg::items`], in memory that does not grow with it).
#[derive(Debug, Clone)]
pub struct Replayer<'r> {
    rules: &'r Rules,
    state: State,
    played: usize,
}

impl<'r> Replayer<'r> {
    /// A replay from the start position of `rules`.
    pub fn new(rules: &'r Rules) -> Replayer<'r> {
        Replayer {
            rules,
            state: State::start(rules),
            played: 0,
        }
    }

    /// Applies a set-up line: `(x pos)` empties `pos`, `(Player Piece pos)` puts a piece there.
    pub fn set_up(&mut self, p: &Placement) -> Result<(), ReplayError> {
        let rules = self.rules;
        let pos = rules
            .position(&p.pos.text)
            .ok_or_else(|| located(&p.pos, format!("unknown position `{}`", shown(&p.pos.text))))?;
        let Some((player, piece)) = &p.piece else {
            self.state.remove(pos);
            return Ok(());
        };
        let owner = rules
            .player(&player.text)
            .ok_or_else(|| located(player, unknown("player", &player.text, rules)))?;
        let kind = rules
            .kind(&piece.text)
            .ok_or_else(|| located(piece, format!("unknown piece `{}`", shown(&piece.text))))?;
        self.state.put(rules, pos, owner, kind);
        Ok(())
    }

    /// Plays the legal move `rec` stands for, or says why none matches (the position stays the
    /// one before `rec`).
    pub fn play(&mut self, rec: &Record) -> Result<(), ReplayError> {
        let m = match_record(self.rules, &mut self.state, rec).map_err(|mut e| {
            e.played = self.played;
            e
        })?;
        play(self.rules, &mut self.state, &m);
        // A replay never takes a move back: memory stays flat however long the game.
        self.state.forget_history();
        self.played += 1;
        Ok(())
    }

    /// The position reached.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Records played so far.
    pub fn played(&self) -> usize {
        self.played
    }

    /// The replay so far.
    pub fn done(self) -> Replayed {
        Replayed {
            moves: self.played,
            state: self.state,
        }
    }
}

/// A word of the saved game as messages show it: at most 40 characters (a record may hold
/// megabytes in one word).
fn shown(w: &str) -> String {
    crate::text::shorten(w, 40)
}

fn unknown(what: &str, name: &str, rules: &Rules) -> String {
    format!(
        "unknown {what} `{}` (the players are {})",
        shown(name),
        rules.players.join(", ")
    )
}

/// The legal move `rec` stands for in `st`, or an error listing the alternatives (`played` is
/// left 0 for the caller to fill).
pub fn match_record(rules: &Rules, st: &mut State, rec: &Record) -> Result<Move, ReplayError> {
    let want = match &rec.body {
        Body::Pass => None,
        Body::Move { tokens, .. } => Some(canonical(read_segments(rules, tokens)?)),
    };
    let legal = legal_moves(rules, st);
    let mut found: Option<&Move> = None;
    for m in &legal.moves {
        let ok = match &want {
            None => m.is_pass(),
            Some(w) => !m.is_pass() && canonical(segments(rules, st, m)) == *w,
        };
        if !ok {
            continue;
        }
        let partial_agrees = |m: &Move| {
            matches!(
                rec.body,
                Body::Move {
                    partial: Some(_),
                    ..
                }
            ) == m.partial.is_some()
        };
        if found.is_none_or(|f| !partial_agrees(f) && partial_agrees(m)) {
            found = Some(m);
        }
    }
    if let Some(m) = found {
        return Ok(m.clone());
    }
    let mut alternatives: Vec<String> = legal
        .moves
        .iter()
        .map(|m| super::notation(rules, st, m))
        .collect();
    alternatives.sort();
    alternatives.dedup();
    let why = if legal.moves.is_empty() {
        match outcome(rules, st) {
            Some(o) => format!("the game is over ({:?})", o.kind).to_lowercase(),
            None => "the player to move has no legal move".to_string(),
        }
    } else {
        format!("{} legal moves", legal.moves.len())
    };
    Err(ReplayError {
        line: rec.span.line,
        col: rec.span.col,
        message: format!(
            "no legal move of {} matches this record ({why}{})",
            rules.players[st.to_move(rules) as usize],
            if legal.cut.is_some() {
                "; a budget (engine-block-runs, engine-moves or engine-work) stopped the move generation"
            } else if legal.overrun.is_some() {
                "; a move program ran out of steps"
            } else {
                ""
            }
        ),
        record: Some(rec.text.clone()),
        alternatives,
        played: 0,
    })
}

/// Movements in order, then the other segments sorted (compared as a multiset).
fn canonical(mut segs: Vec<Segment>) -> (Vec<Segment>, Vec<Segment>) {
    segs.sort_by_key(|s| !s.is_movement());
    let split = segs.iter().take_while(|s| s.is_movement()).count();
    let mut rest = segs.split_off(split);
    rest.sort();
    (segs, rest)
}

/// Reads a record's words as segments. A word that is a keyword and also a name is tried as
/// the keyword first, then as the name.
pub fn read_segments(rules: &Rules, tokens: &[Token]) -> Result<Vec<Segment>, ReplayError> {
    let mut r = Reader {
        rules,
        tokens,
        furthest: (0, String::new()),
        failed: Default::default(),
    };
    let mut out = Vec::new();
    if r.read(0, None, &mut out) {
        return Ok(out);
    }
    let (at, msg) = r.furthest;
    let tok = tokens.get(at).or(tokens.last());
    match tok {
        Some(t) if at < tokens.len() => Err(located(t, msg)),
        Some(t) => {
            let mut e = located(t, msg);
            e.col += t.text.chars().count();
            Err(e)
        }
        None => Err(ReplayError {
            line: 0,
            col: 0,
            message: msg,
            record: None,
            alternatives: Vec::new(),
            played: 0,
        }),
    }
}

struct Reader<'a> {
    rules: &'a Rules,
    tokens: &'a [Token],
    /// The furthest word a reading failed at, and why.
    furthest: (usize, String),
    /// Readings from (word, where the last piece landed) known to fail: each is tried once, so
    /// words that are both a keyword and a name cannot make the backtracking exponential.
    failed: rustc_hash::FxHashSet<(usize, Option<u32>)>,
}

impl<'a> Reader<'a> {
    fn fail(&mut self, at: usize, msg: impl FnOnce() -> String) -> bool {
        if at >= self.furthest.0 || self.furthest.1.is_empty() {
            self.furthest = (at, msg());
        }
        false
    }

    fn word(&self, i: usize) -> Option<&'a str> {
        self.tokens.get(i).map(|t| t.text.as_str())
    }

    fn pos(&mut self, i: usize) -> Option<u32> {
        let Some(w) = self.word(i) else {
            self.fail(i, || {
                "expected a position, found the end of the record".into()
            });
            return None;
        };
        let p = self.rules.position(w);
        if p.is_none() {
            let w = w.to_string();
            self.fail(i, || format!("unknown position `{}`", shown(&w)));
        }
        p
    }

    /// Reads segments from word `i` to the end; `prev` is where the last piece landed. Each
    /// (word, landing) is read at most once; the depth is bounded by the record's words
    /// ([`super::zsg::MAX_RECORD_WORDS`]).
    fn read(&mut self, i: usize, prev: Option<u32>, out: &mut Vec<Segment>) -> bool {
        if self.failed.contains(&(i, prev)) {
            return false;
        }
        let ok = self.read_from(i, prev, out);
        if !ok {
            self.failed.insert((i, prev));
        }
        ok
    }

    fn read_from(&mut self, i: usize, prev: Option<u32>, out: &mut Vec<Segment>) -> bool {
        let Some(w) = self.word(i) else {
            return true;
        };
        let len = out.len();
        let keyword = match w {
            "x" => self.capture(i, out),
            "=" => self.change(i, prev, out),
            "flip" => self.pos(i + 1).map(|at| {
                out.push(Segment::Flip { at });
                i + 2
            }),
            "@" => self.attr(i, out),
            _ => None,
        };
        if let Some(next) = keyword {
            let land = out.last().and_then(Segment::lands);
            if self.read(next, land, out) {
                return true;
            }
            out.truncate(len);
        }
        if let Some(owner) = self.rules.player(w) {
            if let (Some(kind), Some(at)) = (self.kind(i + 1), self.pos(i + 2)) {
                out.push(Segment::Place { owner, kind, at });
                if self.read(i + 3, Some(at), out) {
                    return true;
                }
                out.truncate(len);
            }
        } else if let Some(kind) = self.rules.kind(w) {
            if let Some(seg) = self.movement(i, kind) {
                out.push(seg);
                if self.read(i + 4, seg.lands(), out) {
                    return true;
                }
                out.truncate(len);
            }
        } else if keyword.is_none() {
            let w = w.to_string();
            return self.fail(i, || {
                format!(
                    "expected a piece, a player, `x`, `=`, `flip` or `@`; `{}` is none of these",
                    shown(&w)
                )
            });
        }
        false
    }

    fn kind(&mut self, i: usize) -> Option<u32> {
        let w = self.word(i).unwrap_or_default().to_string();
        let k = self.rules.kind(&w);
        if k.is_none() {
            self.fail(i, || format!("expected a piece, found `{}`", shown(&w)));
        }
        k
    }

    fn movement(&mut self, i: usize, kind: u32) -> Option<Segment> {
        let from = self.pos(i + 1)?;
        let capture = match self.word(i + 2) {
            Some("-") => false,
            Some("x") => true,
            other => {
                let o = other.unwrap_or("the end of the record").to_string();
                self.fail(i + 2, || {
                    format!("expected `-` or `x` in a movement, found `{}`", shown(&o))
                });
                return None;
            }
        };
        let to = self.pos(i + 3)?;
        Some(Segment::Move {
            kind,
            from,
            to,
            capture,
        })
    }

    fn capture(&mut self, i: usize, out: &mut Vec<Segment>) -> Option<usize> {
        let at = self.pos(i + 1)?;
        out.push(Segment::Capture { at });
        Some(i + 2)
    }

    fn change(&mut self, i: usize, prev: Option<u32>, out: &mut Vec<Segment>) -> Option<usize> {
        let name = self.word(i + 1).unwrap_or_default().to_string();
        let (at, next) = if self.word(i + 2) == Some("on") {
            (self.pos(i + 3)?, i + 4)
        } else {
            let Some(p) = prev else {
                self.fail(i, || {
                    format!("`= {name}` without `on pos` follows no piece that moved")
                });
                return None;
            };
            (p, i + 2)
        };
        let first = if let Some(owner) = self.rules.player(&name) {
            Segment::Owner { owner, at }
        } else if let Some(kind) = self.rules.kind(&name) {
            Segment::Type { kind, at }
        } else {
            self.fail(i + 1, || {
                format!(
                    "expected a piece or a player after `=`, found `{}`",
                    shown(&name)
                )
            });
            return None;
        };
        let change = |at| match first {
            Segment::Owner { owner, .. } => Segment::Owner { owner, at },
            Segment::Type { kind, .. } => Segment::Type { kind, at },
            s => s,
        };
        out.push(first);
        let mut next = next;
        // `= X on p q …`: ZoG lists every position changed to the same X (KoShogi
        // `= EV on 1F 19J`); a word that names a piece or a player ends the list.
        if next == i + 4 {
            while let Some(at) = self.word(next).and_then(|w| self.listed_position(w)) {
                out.push(change(at));
                next += 1;
            }
        }
        Some(next)
    }

    /// A word that continues `= X on p …`: a position that names no piece and no player.
    fn listed_position(&self, w: &str) -> Option<u32> {
        if self.rules.player(w).is_some() || self.rules.kind(w).is_some() {
            return None;
        }
        self.rules.position(w)
    }

    fn attr(&mut self, i: usize, out: &mut Vec<Segment>) -> Option<usize> {
        let at = self.pos(i + 1)?;
        let index = self.word(i + 2).and_then(|w| w.parse::<u32>().ok());
        let value = match self.word(i + 3) {
            Some("0") => Some(false),
            Some("1") => Some(true),
            _ => None,
        };
        let (Some(index), Some(value)) = (index, value) else {
            self.fail(i + 2, || "expected `@ pos index 0|1`".into());
            return None;
        };
        out.push(Segment::Attr { at, index, value });
        Some(i + 4)
    }
}
