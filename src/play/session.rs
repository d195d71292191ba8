//! One game being played: the rules, the position, the moves played and taken back, the legal
//! moves of the position, how the game ended, and the JSON shapes of the API.

use super::pictures::Pictures;
use crate::engine::{self, End, Move, Rules, State};
use crate::render::own::AuthorFiles;
use crate::spec::{Document, GoalCond, GoalKind};
use serde_json::{Value, json};

/// A move played: what it was, as ZoG wrote it, and its turn number.
#[derive(Debug, Clone)]
struct Played {
    mv: Move,
    notation: String,
    number: u32,
}

/// A game in play (see the module docs of [`super`]).
#[derive(Debug)]
pub struct Session {
    rules: Rules,
    /// The rule file's name, for `RulesFile=` of a saved game.
    file_name: String,
    /// The spec's goals, described, and their conditions alone.
    goals: Vec<String>,
    conditions: Vec<String>,
    pub(super) pictures: Pictures,
    state: State,
    history: Vec<Played>,
    redo: Vec<Played>,
    /// The legal moves of the position and their notations.
    moves: Vec<Move>,
    notations: Vec<String>,
    /// Why the moves of this position are not known (a budget stopped their generation).
    stopped: Option<String>,
    /// A block stopped by the step limit: the list may be incomplete.
    overrun: Option<String>,
    end: Option<End>,
    /// Engine steps one request may run.
    budget: u64,
    /// The player of the first turn (the turn number grows when that player moves again).
    first: u32,
    /// The set-up lines of a loaded saved game (`(x pos)`, `(Player Piece pos)`), written back
    /// into saves: the history starts from the position they make.
    setup: Vec<String>,
    /// The path the page is served under (`/`, or `/play/<game>/` in a catalogue), which the
    /// pictures' addresses start with.
    base: String,
    /// Which session this is, for a server that keeps several and may drop one (`state.session`:
    /// the page sees that its game was dropped and started again). 0 unless set.
    id: u64,
}

/// The engine steps one request may run unless told otherwise.
pub const DEFAULT_BUDGET: u64 = engine::DEFAULT_WORK_LIMIT;

impl Session {
    /// A session of game `index` of `doc`, compiled as `rules` (its limits and interrupt flag
    /// set by the caller), read from a file named `file_name`. Each request may run `budget`
    /// engine steps.
    pub fn new(
        doc: &Document,
        index: usize,
        rules: Rules,
        file_name: &str,
        budget: u64,
    ) -> Session {
        Session::with_images(doc, index, rules, file_name, budget, &AuthorFiles::new())
    }

    /// [`Session::new`] with the author's own pictures, read by the caller from the files the
    /// rule file names (`render::own`), used where they decode.
    pub fn with_images(
        doc: &Document,
        index: usize,
        rules: Rules,
        file_name: &str,
        budget: u64,
        own: &AuthorFiles,
    ) -> Session {
        let pictures = Pictures::draw(doc, index, &rules, own);
        let goals = doc.games[index].goals.iter().map(describe_goal).collect();
        let conditions = doc.games[index]
            .goals
            .iter()
            .map(|g| describe(&g.condition))
            .collect();
        let state = State::start(&rules);
        let first = state.to_move(&rules);
        let mut s = Session {
            rules,
            file_name: file_name.to_string(),
            goals,
            conditions,
            pictures,
            state,
            history: Vec::new(),
            redo: Vec::new(),
            moves: Vec::new(),
            notations: Vec::new(),
            stopped: None,
            overrun: None,
            end: None,
            budget,
            first,
            setup: Vec::new(),
            base: "/".into(),
            id: 0,
        };
        s.refresh();
        s
    }

    /// Serves the page under `base` (a path ending in `/`): the pictures' addresses in
    /// `GET /api/game` start with it. The caller strips it from the requests it hands over.
    pub fn set_base(&mut self, base: &str) {
        self.base = base.to_string();
    }

    /// Numbers this session (`state.session`), so that a page can tell it from the one it
    /// started with.
    pub fn set_id(&mut self, id: u64) {
        self.id = id;
    }

    /// The author's pictures named but not used, and why.
    pub fn picture_notes(&self) -> &[String] {
        &self.pictures.own_notes
    }

    /// The compiled rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The legal moves of the position, in ZoG notation (empty when the game is over or the
    /// generation was stopped).
    pub fn notations(&self) -> &[String] {
        &self.notations
    }

    /// The moves played so far, in ZoG notation.
    pub fn history(&self) -> Vec<&str> {
        self.history.iter().map(|p| p.notation.as_str()).collect()
    }

    /// How the game ended, if it did.
    pub fn end(&self) -> Option<&End> {
        self.end.as_ref()
    }

    /// Why the legal moves of this position are unknown, if a budget stopped them.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// Recomputes the legal moves and the end of the position, within one request's budget.
    fn refresh(&mut self) {
        self.rules.work_limit = self.rules.work_done().saturating_add(self.budget);
        let found = engine::legal_moves(&self.rules, &mut self.state);
        self.overrun = found.overrun.map(|o| {
            format!(
                "{} ran more than {} steps and was stopped: the list may be incomplete",
                o.describe(&self.rules),
                self.rules.step_limit
            )
        });
        self.stopped = found.cut.map(|c| {
            let what = match c {
                engine::Cut::Interrupted => "was interrupted",
                engine::Cut::BlockRuns => "made more block runs than engine-block-runs allows",
                engine::Cut::Moves => "has more moves than engine-moves allows",
                engine::Cut::Work => "ran more engine steps than one request may (engine-work)",
            };
            format!("the move generation of this position {what}; no move can be played")
        });
        if self.stopped.is_some() {
            self.moves.clear();
            self.notations.clear();
            self.end = None;
            return;
        }
        self.notations = found
            .moves
            .iter()
            .map(|m| engine::notation(&self.rules, &self.state, m))
            .collect();
        self.moves = found.moves;
        self.end = engine::end(&self.rules, &self.state, self.moves.is_empty());
    }

    /// Plays legal move `i` of the position.
    fn play_index(&mut self, i: usize) {
        let mv = self.moves[i].clone();
        let notation = self.notations[i].clone();
        let number = match self.history.last() {
            None => 1,
            Some(p) if mv.player == self.first && p.mv.player != self.first => p.number + 1,
            Some(p) => p.number,
        };
        engine::play(&self.rules, &mut self.state, &mv);
        self.history.push(Played {
            mv,
            notation,
            number,
        });
        self.redo.clear();
        self.refresh();
    }

    /// Plays the legal move a request names: `{"index": N}`, or `{"notation": "…"}` in ZoG
    /// notation (spaces normalised) or as `FROM-TO` / `FROMTO` naming exactly one move.
    pub fn play(&mut self, request: &Value) -> Result<String, (u16, String)> {
        if let Some(why) = &self.stopped {
            return Err((409, why.clone()));
        }
        if self.moves.is_empty() {
            return Err((409, "the game is over: there is no legal move".into()));
        }
        let i = if let Some(i) = request.get("index") {
            let n = i
                .as_u64()
                .ok_or((422, "`index` must be a number".to_string()))?;
            usize::try_from(n)
                .ok()
                .filter(|&n| n < self.moves.len())
                .ok_or_else(|| {
                    (
                        422,
                        format!(
                            "no legal move {n}: the position has {} (0 to {})",
                            self.moves.len(),
                            self.moves.len() - 1
                        ),
                    )
                })?
        } else if let Some(text) = request.get("notation") {
            let text = text
                .as_str()
                .ok_or((422, "`notation` must be a string".to_string()))?;
            self.find(text).map_err(|m| (422, m))?
        } else {
            return Err((
                422,
                "give the move as {\"notation\": \"Pawn e2 - e4\"} or {\"index\": N}".into(),
            ));
        };
        self.play_index(i);
        Ok(self
            .history
            .last()
            .map(|p| p.notation.clone())
            .unwrap_or_default())
    }

    /// The index of the legal move `text` names (see [`Session::play`]).
    fn find(&self, text: &str) -> Result<usize, String> {
        let want = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if let Some(i) = self.notations.iter().position(|n| *n == want) {
            return Ok(i);
        }
        let compact = want.replace(['-', ' '], "");
        let name = |p: Option<u32>| p.map_or("", |p| self.rules.positions[p as usize].as_str());
        let hits: Vec<usize> = (0..self.moves.len())
            .filter(|&i| {
                let m = &self.moves[i];
                !compact.is_empty() && format!("{}{}", name(m.from), name(m.to)) == compact
            })
            .collect();
        let shown = crate::text::shorten(&want, 80);
        match hits.as_slice() {
            [i] => Ok(*i),
            [] => Err(format!(
                "`{shown}` is not a legal move; the legal moves are: {}",
                crate::text::shorten(&self.notations.join(", "), 2000)
            )),
            many => Err(format!(
                "`{shown}` names {} moves; write one in full: {}",
                many.len(),
                many.iter()
                    .map(|&i| self.notations[i].as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// The computer's choice among the legal moves: alpha-beta within `ms` milliseconds
    /// (at least one ply, at most `max_depth`), not played. `409` when there is no move to
    /// choose or the game has more than two players.
    pub fn think(&mut self, ms: u64, max_depth: u32) -> Result<Value, (u16, String)> {
        if self.moves.is_empty() {
            return Err((409, "there is no legal move to choose".into()));
        }
        self.rules.work_limit = self.rules.work_done().saturating_add(self.budget);
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(ms);
        let t = super::search::think(&self.rules, &self.state, &self.moves, deadline, max_depth)
            .ok_or((
                409,
                "the computer plays only games of two players".to_string(),
            ))?;
        Ok(json!({
            "index": t.index,
            "notation": self.notations[t.index],
            "depth": t.depth,
            "score": t.score,
            "nodes": t.nodes,
        }))
    }

    /// Takes the last move back (it can be redone).
    pub fn undo(&mut self) -> Result<(), (u16, String)> {
        let p = self
            .history
            .pop()
            .ok_or((409, "no move to take back".to_string()))?;
        self.state.unmake();
        self.redo.push(p);
        self.refresh();
        Ok(())
    }

    /// Plays again the last move taken back.
    pub fn redo(&mut self) -> Result<(), (u16, String)> {
        let p = self
            .redo
            .pop()
            .ok_or((409, "no move to redo".to_string()))?;
        engine::play(&self.rules, &mut self.state, &p.mv);
        self.history.push(p);
        self.refresh();
        Ok(())
    }

    /// Starts the game again from its start position (nothing to redo).
    pub fn new_game(&mut self) {
        self.state = State::start(&self.rules);
        self.history.clear();
        self.redo.clear();
        self.setup.clear();
        self.refresh();
    }

    /// Takes back every move (`undo`) or plays again every move taken back.
    pub fn step_all(&mut self, back: bool) {
        if back {
            while let Some(p) = self.history.pop() {
                self.state.unmake();
                self.redo.push(p);
            }
        } else {
            while let Some(p) = self.redo.pop() {
                engine::play(&self.rules, &mut self.state, &p.mv);
                self.history.push(p);
            }
        }
        self.refresh();
    }

    /// Loads a ZoG saved game of this game: its set-up lines make the position the history
    /// starts from, and its records, each matched to a legal move as `replay` matches them, are
    /// ready to be stepped through with redo (none is played yet). On an error (another game,
    /// a record no legal move matches) the session is left as it was. Returns the number of
    /// records.
    pub fn load_zsg(&mut self, text: &str) -> Result<usize, (u16, String)> {
        let saved =
            engine::zsg::parse(text).map_err(|e| (422, format!("not a saved game: {e}")))?;
        if let Some(v) = saved.variant.as_deref().filter(|v| *v != self.rules.title) {
            return Err((
                422,
                format!(
                    "the save is of {:?}; this server plays {:?}",
                    crate::text::shorten(v, 80),
                    self.rules.title
                ),
            ));
        }
        self.rules.work_limit = self.rules.work_done().saturating_add(self.budget);
        let start = engine::set_up(&self.rules, &saved).map_err(|e| (422, e.to_string()))?;
        let mut st = start.clone();
        let mut played: Vec<Played> = Vec::with_capacity(saved.records.len());
        for (i, rec) in saved.records.iter().enumerate() {
            let mv = engine::match_record(&self.rules, &mut st, rec).map_err(|e| {
                (
                    422,
                    format!(
                        "{e} (record {}: {}; after {i} records the legal moves are: {})",
                        i + 1,
                        crate::text::shorten(&rec.text, 120),
                        crate::text::shorten(&e.alternatives.join(", "), 1000)
                    ),
                )
            })?;
            let notation = engine::notation(&self.rules, &st, &mv);
            let number = match played.last() {
                None => 1,
                Some(p) if mv.player == self.first && p.mv.player != self.first => p.number + 1,
                Some(p) => p.number,
            };
            engine::play(&self.rules, &mut st, &mv);
            played.push(Played {
                mv,
                notation,
                number,
            });
        }
        self.setup = saved
            .setup
            .iter()
            .map(|p| match &p.piece {
                None => format!("(x {})", p.pos.text),
                Some((player, piece)) => {
                    format!("({} {} {})", player.text, piece.text, p.pos.text)
                }
            })
            .collect();
        let n = played.len();
        self.state = start;
        self.history.clear();
        played.reverse();
        self.redo = played;
        self.refresh();
        Ok(n)
    }

    /// The game so far as a ZoG saved game (`.zsg`): the header, then one record per move part,
    /// `NUM. [partial K] segments` (`Pass` for a pass). `kinds` gives `H` or `C` per player.
    pub fn zsg(&self, kinds: &str) -> String {
        let mut out = format!(
            "Zillions Save Game File Version 0.02 {kinds}\r\nRulesFile={}\r\nVariantName={}\r\n",
            self.file_name, self.rules.title
        );
        for line in &self.setup {
            out.push_str(line);
            out.push_str("\r\n");
        }
        for p in &self.history {
            let partial = match p.mv.partial {
                // *decided*: ZoG's number K is not understood; the move type's 1-based index
                // (or 1) is written, and the replay ignores it.
                Some(_) => format!("partial {} ", p.mv.move_type.map_or(1, |t| t + 1)),
                None => String::new(),
            };
            out.push_str(&format!("{}. {partial}{}\r\n", p.number, p.notation));
        }
        out
    }

    /// The players' names.
    fn player(&self, p: u32) -> &str {
        self.rules
            .players
            .get(p as usize)
            .map_or("?", String::as_str)
    }

    /// `GET /api/game`: the board as drawn, the pieces and their pictures, the players, the
    /// goals, and the state ([`Session::state_json`]).
    pub fn game_json(&self) -> Value {
        let pic = &self.pictures;
        let positions: Vec<Value> = pic
            .cells
            .iter()
            .map(|c| json!({"name": c.name, "rect": c.rect}))
            .collect();
        let pieces: Vec<Value> = self
            .rules
            .kinds
            .iter()
            .enumerate()
            .map(|(k, kind)| {
                let images: Vec<Value> = pic.tiles[k]
                    .iter()
                    .map(|t| {
                        t.as_ref()
                            .map_or(Value::Null, |f| json!(format!("{}img/{f}", self.base)))
                    })
                    .collect();
                json!({"name": kind.name, "notation": kind.notation, "images": images})
            })
            .collect();
        json!({
            "title": self.rules.title,
            "file": self.file_name,
            "players": self.rules.players,
            "board": {
                "width": pic.width,
                "height": pic.height,
                "image": pic
                    .files
                    .contains_key("board.png")
                    .then(|| format!("{}img/board.png", self.base)),
                "note": pic.note,
                "pictures": pic.own_notes,
            },
            "positions": positions,
            "pieces": pieces,
            "goals": self.goals,
            "state": self.state_json(),
        })
    }

    /// The position, the moves played, whether undo and redo can act, the number of legal
    /// moves, and the end of the game.
    pub fn state_json(&self) -> Value {
        let board: Vec<Value> = self
            .state
            .board
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let p = p.as_ref()?;
                Some(json!({
                    "at": self.rules.positions[i],
                    "player": self.player(p.owner),
                    "piece": self.rules.kinds.get(p.kind as usize).map(|k| &k.name),
                }))
            })
            .collect();
        let mut hand = Vec::new();
        for p in 0..self.rules.players.len() as u32 {
            for (k, kind) in self.rules.kinds.iter().enumerate() {
                let n = self.state.in_hand(p, k as u32);
                if n > 0 {
                    hand.push(json!({"player": self.player(p), "piece": kind.name, "count": n}));
                }
            }
        }
        let history: Vec<Value> = self
            .history
            .iter()
            .map(|p| {
                json!({"number": p.number, "player": self.player(p.mv.player), "notation": p.notation})
            })
            .collect();
        let pos = |p: Option<u32>| p.map(|p| self.rules.positions[p as usize].clone());
        let last = self
            .history
            .last()
            .map(|p| json!({"from": pos(p.mv.from), "to": pos(p.mv.to)}));
        json!({
            "to_move": self.player(self.state.to_move(&self.rules)),
            "board": board,
            "hand": hand,
            "history": history,
            "last": last,
            "undo": self.history.len(),
            "redo": self.redo.len(),
            "upcoming": self.redo.iter().rev().map(|p| p.notation.as_str()).collect::<Vec<_>>(),
            "moves": self.moves.len(),
            "end": self.end.as_ref().map(|e| self.end_json(e)),
            "stopped": self.stopped,
            "warning": self.overrun,
            "session": self.id,
        })
    }

    /// The end named from its goal: `{kind, players, winners, goal, text}`.
    fn end_json(&self, e: &End) -> Value {
        let names: Vec<&str> = e.players.iter().map(|&p| self.player(p)).collect();
        let others: Vec<&str> = (0..self.rules.players.len() as u32)
            .filter(|p| !e.players.contains(p))
            .map(|p| self.player(p))
            .collect();
        let (kind, winners) = match e.kind {
            GoalKind::Win => ("win", names.clone()),
            GoalKind::Loss => ("loss", others),
            GoalKind::Draw => ("draw", Vec::new()),
            GoalKind::Count => ("count", Vec::new()),
        };
        let (goal, why) = match e.goal {
            Some(i) => (
                self.goals.get(i).cloned().unwrap_or_default(),
                self.conditions.get(i).cloned().unwrap_or_default(),
            ),
            None => (
                "a player who cannot move loses (ZoG's rule)".to_string(),
                "cannot move".to_string(),
            ),
        };
        let who = names.join(" and ");
        let s = |n: usize| if n == 1 { "s" } else { "" };
        let text = match e.kind {
            GoalKind::Win => format!("{who} win{}: {why}", s(names.len())),
            GoalKind::Loss if winners.is_empty() => {
                format!("{who} lose{}: {why}", s(names.len()))
            }
            GoalKind::Loss => format!(
                "{} win{}: {who} {why}",
                winners.join(" and "),
                s(winners.len())
            ),
            GoalKind::Draw => format!("Draw: {why}"),
            GoalKind::Count => format!("The game ends, decided by count: {why}"),
        };
        json!({"kind": kind, "players": names, "winners": winners, "goal": goal, "text": text})
    }

    /// `GET /api/moves`: the legal moves with their index, notation, player, piece, origin and
    /// destination (`null` for drops and passes), and whether they are partial or a pass.
    pub fn moves_json(&self) -> Value {
        let pos = |p: Option<u32>| p.map(|p| self.rules.positions[p as usize].clone());
        let list: Vec<Value> = self
            .moves
            .iter()
            .zip(&self.notations)
            .enumerate()
            .map(|(i, (m, n))| {
                json!({
                    "index": i,
                    "notation": n,
                    "player": self.player(m.player),
                    "piece": self.rules.kinds.get(m.kind as usize).map(|k| &k.name),
                    "from": pos(m.from),
                    "to": pos(m.to),
                    "partial": m.partial.is_some(),
                    "pass": m.is_pass(),
                })
            })
            .collect();
        json!({"moves": list, "stopped": self.stopped, "warning": self.overrun})
    }
}

/// A goal in words: `loss for White, Black: checkmated King`.
fn describe_goal(g: &crate::spec::Goal) -> String {
    let kind = match g.kind {
        GoalKind::Win => "win",
        GoalKind::Loss => "loss",
        GoalKind::Draw => "draw",
        GoalKind::Count => "count",
    };
    format!(
        "{kind} for {}: {}",
        g.players.join(", "),
        describe(&g.condition)
    )
}

fn describe(c: &GoalCond) -> String {
    let pieces = |p: &[String]| {
        if p.is_empty() {
            "any piece".to_string()
        } else {
            p.join(" or ")
        }
    };
    match c {
        GoalCond::Stalemated => "no legal move (stalemated)".into(),
        GoalCond::Repetition => "repetition".into(),
        GoalCond::Checkmated { pieces: p } => format!("is checkmated ({})", pieces(p)),
        GoalCond::Captured { pieces: p } => format!("had a {} captured", pieces(p)),
        GoalCond::PiecesRemaining { count, piece } => {
            format!("{count} {} remaining", piece.as_deref().unwrap_or("pieces"))
        }
        GoalCond::TotalPieceCount { count, piece } => format!(
            "{count} {} on the board in all",
            piece.as_deref().unwrap_or("pieces")
        ),
        GoalCond::AbsoluteConfig {
            pieces: p,
            positions,
            opponent,
            negated,
            ..
        } => format!(
            "{}{}{} on {}",
            if *opponent { "the opponent's " } else { "" },
            if *negated { "no " } else { "" },
            pieces(p),
            positions.join(", ")
        ),
        GoalCond::RelativeConfig { args } => format!("pieces in the pattern {}", args.join(" ")),
        GoalCond::Line { length, .. } => format!("{length} in a row"),
        GoalCond::Connected { zones, .. } if zones.is_empty() => "connected its zones".into(),
        GoalCond::Connected { zones, .. } => format!("connected {}", zones.join(", ")),
        GoalCond::And(v) => v.iter().map(describe).collect::<Vec<_>>().join(" and "),
        GoalCond::Or(v) => v.iter().map(describe).collect::<Vec<_>>().join(" or "),
        GoalCond::Not(c) => format!("not ({})", describe(c)),
        GoalCond::Raw { text, .. } => crate::text::shorten(text, 80),
    }
}
