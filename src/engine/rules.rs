//! A game of the spec compiled for play: names resolved to indexes, programs flattened to bytecode.
//!
//! Compiling refuses what the engine cannot run (a `Raw` construct, an unknown piece, an
//! unreadable count) with a [`RulesError`] that names the construct in ZRF terms; it never
//! leaves a construct out quietly.

use crate::spec::{self, Cond, EntryKind, Game, GoalCond, GoalKind, Instr, Test};
use rustc_hash::FxHashMap;

/// No position, direction or piece (in the compact tables).
pub const NONE: u32 = u32::MAX;

/// Why a game cannot be run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesError {
    /// What the engine cannot run, in ZRF terms.
    pub message: String,
    /// The refusal is for content the spec keeps verbatim (no typed form), which the reader
    /// reported with its location.
    pub untyped: bool,
}

impl std::fmt::Display for RulesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

fn refuse<T>(message: impl Into<String>) -> Result<T, RulesError> {
    Err(RulesError {
        message: message.into(),
        untyped: false,
    })
}

/// A refusal for content kept verbatim.
fn refuse_untyped<T>(message: String) -> Result<T, RulesError> {
    Err(RulesError {
        message,
        untyped: true,
    })
}

/// Where an instruction or test looks: the current position, one link away, or a named position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Loc {
    Cur,
    Dir(u32),
    Pos(u32),
}

/// A position test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum TestKind {
    Empty,
    Friend,
    Enemy,
    Neutral,
    LastFrom,
    LastTo,
    Marked,
    Attacked(Option<u32>),
    Defended(Option<u32>),
    AdjacentToEnemy,
}

/// A compiled condition.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum C {
    Const(bool),
    Test(TestKind, Loc),
    Piece(u32, Loc),
    /// A piece of any of these types (an `or` of `piece?` tests of one position).
    AnyPiece(Box<[u32]>, Loc),
    /// A piece of another player (`true`) or of the mover (`false`) of any of these types: an
    /// `and` of `enemy?` (or `friend?`) and `piece?` tests of one position, read once.
    Owned(bool, Box<[u32]>, Loc),
    InZone(u32, Loc),
    OnBoard(Option<u32>),
    Position(u32),
    Flag(u32),
    PosFlag(u32, Loc),
    Attr(u32, Loc),
    State(u32, i64),
    Not(Box<C>),
    And(Vec<C>),
    Or(Vec<C>),
}

/// One bytecode operation. `IfNot` and `Goto` jump to an operation index of the same block.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Op {
    Step(u32),
    Jump(u32),
    Mark,
    Back,
    From,
    To,
    GoFrom,
    GoTo,
    Verify(C),
    IfNot(C, usize),
    Goto(usize),
    Add {
        promote: Vec<u32>,
        partial: bool,
        copy: bool,
        move_type: Option<u32>,
    },
    Capture(Loc),
    Cascade,
    Create {
        owner: Option<u32>,
        kind: Option<u32>,
        at: Loc,
    },
    Flip(Loc),
    ChangeOwner(Loc),
    ChangeType(u32, Loc),
    SetFlag(u32, C),
    SetPosFlag(u32, C, Loc),
    SetAttr(u32, C, Loc),
    SetState(u32, i64),
    ClearState,
    /// A step into a direction the board does not define: the block ends here.
    Fail,
    /// The head of a pure loop: `regions[i]` of the block (see [`super::loops`]).
    Loop(u32),
    /// `(if c (set-flag f then))`, or with `else_` `(if c (set-flag f then) else (set-flag f
    /// else_))`, as one operation that counts the steps of those it stands for (see
    /// [`super::fuse`]).
    FlagIf {
        flag: u32,
        cond: C,
        then: bool,
        else_: Option<bool>,
    },
    /// `mark dir BODY back` as `mark` and a BODY that reads one link away in `dir` (see
    /// [`super::fuse`]): marks the current position, and ends the block when there is no link.
    /// With `skip`, also the `(if (on-board? dir) …)` around it: no link jumps to `skip`.
    Near {
        dir: u32,
        skip: Option<u32>,
    },
    /// A straight run of flag settings, each an [`Op::FlagIf`] or an [`Op::Near`] whose whole
    /// body is one (KoShogi's `check-flame`: a test of the target, then eight `(if (on-board?
    /// d) mark d (if (piece? PF) (set-flag is-burned? true)) back)`), as one operation.
    Flags(Box<[FlagSet]>),
    /// A `goto` to an `IfNot` fused with it: to `then` when `cond` holds, else to `else_`.
    Branch {
        cond: C,
        then: u32,
        else_: u32,
    },
}

/// One flag setting of [`Op::Flags`]: `(if cond (set-flag flag then))`, or with `else_` `(if
/// cond (set-flag flag then) else (set-flag flag else_))`; with `near` `(d, skip)`, tested one
/// link away in `d` as [`Op::Near`] (marking the current position; no link ends the block, or
/// with `skip` passes over the setting), `cond` then reading that neighbour as the current
/// position.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct FlagSet {
    pub near: Option<(u32, bool)>,
    pub flag: u32,
    pub cond: C,
    pub then: bool,
    pub else_: Option<bool>,
}

/// A compiled move or drop block.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Block {
    pub move_type: Option<u32>,
    pub ops: Vec<Op>,
    /// The block's pure loops, whose heads are [`Op::Loop`].
    pub regions: Vec<super::loops::Region>,
    /// The tests every run passes before it can add a move (see [`super::guard`]).
    pub guard: Option<super::guard::Guard>,
}

/// A compiled piece type.
#[derive(Debug, Clone, PartialEq)]
pub struct Kind {
    /// Name.
    pub name: String,
    /// Notation letter(s), when the game gives them.
    pub notation: Option<String>,
    pub(crate) moves: Vec<Block>,
    pub(crate) drops: Vec<Block>,
    /// Initial attribute bits.
    pub(crate) attrs: u32,
    /// The attributes the piece declares, in declaration order.
    pub(crate) declared: Vec<u32>,
    /// The players who may drop it (`None`: every player).
    pub(crate) owners: Option<Vec<u32>>,
    /// The first checks of its move blocks' guards (see [`super::guard::Firsts`]).
    pub(crate) firsts: Option<super::guard::Firsts>,
}

/// A compiled goal condition.
/// A goal's `check-occupant`: a piece of the player (or of an opponent, or of anyone) whose
/// type is one of `kinds` (or, `negated`, is none of them).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Occupant {
    pub(crate) kinds: Vec<u32>,
    pub(crate) owner: OwnerClass,
    pub(crate) negated: bool,
}

/// Whose piece a [`Occupant`] asks for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum OwnerClass {
    Own,
    Opponent,
    Any,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum G {
    Stalemated,
    Repetition,
    Checkmated(Vec<u32>),
    Captured(Vec<u32>),
    PiecesRemaining(i64, Option<u32>),
    TotalPieceCount(i64, Option<u32>),
    AbsoluteConfig {
        kinds: Vec<u32>,
        positions: Vec<u32>,
        opponent: bool,
        negated: bool,
    },
    /// `relative-config`: occupants, and between two of them the steps from one to the next.
    RelativeConfig(Vec<(Occupant, Vec<u32>)>),
    Line(u32, Vec<u32>),
    /// `connected`: one group of the player's pieces, joined along the directions (every
    /// direction when empty), touches every zone (the player's zones with positions when
    /// empty).
    Connected {
        zones: Vec<u32>,
        dirs: Vec<u32>,
    },
    And(Vec<G>),
    Or(Vec<G>),
    Not(Box<G>),
}

/// A compiled goal.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Goal {
    pub kind: GoalKind,
    pub players: Vec<u32>,
    pub cond: G,
}

/// One turn of the turn order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TurnIr {
    pub player: u32,
    pub move_type: Option<u32>,
}

/// ZoG options that change which moves are legal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Options {
    /// `pass turn`: 0 false, 1 true, 2 forced.
    pub pass_turn: u8,
    /// `pass partial`: a partial move may be ended by passing.
    pub pass_partial: bool,
    /// `maximal captures`: 0 false, 1 true, 2 (kings count double).
    pub maximal_captures: u8,
    /// `recycle captures`: captured pieces go back to their owner's pieces off the board.
    pub recycle_captures: bool,
    /// `include off-pieces`: goals count pieces off the board too.
    pub include_off_pieces: bool,
    /// `swap`, the pie rule: on the second turn of the game its player may pass, taking over
    /// the first player's side (the position and turn order stay).
    pub swap: bool,
}

/// A game compiled for play.
#[derive(Debug, Clone)]
pub struct Rules {
    /// The game's title.
    pub title: String,
    /// Player names.
    pub players: Vec<String>,
    /// Position names, by index.
    pub positions: Vec<String>,
    /// Direction names, by index.
    pub directions: Vec<String>,
    /// Piece types, by index.
    pub kinds: Vec<Kind>,
    /// Move type names, by index.
    pub move_types: Vec<String>,
    /// Position flags by index (names).
    pub(crate) pos_flags: Vec<String>,
    pub(crate) flags: Vec<String>,
    pub(crate) attributes: Vec<String>,
    pub(crate) state_keys: Vec<String>,
    /// `links[(player * npos + pos) * ndirs + dir]`: the position linked from `pos` in the
    /// direction `player`'s programs mean by `dir` (through the player's symmetry), or [`NONE`].
    pub(crate) links: Vec<u32>,
    /// `opposite[dir]`: the opposite direction or [`NONE`].
    pub(crate) opposite: Vec<u32>,
    /// `zones[zone][player]`: membership per position.
    pub(crate) zones: Vec<Vec<Vec<bool>>>,
    /// `zones` flattened, at `(zone * players + player) * positions + pos` (one lookup).
    pub(crate) zone_flat: Vec<bool>,
    pub(crate) zone_names: Vec<String>,
    /// Positions that hold no piece (killed).
    pub(crate) killed: Vec<bool>,
    /// Off-board (dummy) positions.
    pub(crate) dummy: Vec<bool>,
    pub(crate) turns: Vec<TurnIr>,
    pub(crate) repeat_from: usize,
    pub(crate) priorities: Vec<u32>,
    pub(crate) goals: Vec<Goal>,
    pub(crate) options: Options,
    /// Start placement: (position, player, kind) and off-board counts (player, kind, n).
    pub(crate) setup: Vec<(u32, u32, u32)>,
    pub(crate) setup_off: Vec<(u32, u32, u32)>,
    /// `hand_limited[player * kinds + kind]`: drops of this type use up an `off` count. In a
    /// game whose setup gives no `off` count at all (Go) types are dropped without limit.
    pub(crate) hand_limited: Vec<bool>,
    /// Royal piece types per player (from `checkmated` goals), for the legality filter.
    pub(crate) royal: Vec<Vec<u32>>,
    /// Steps one block may run before it is stopped.
    pub step_limit: u32,
    /// Block runs the generation of one position's moves may make (`--limit engine-block-runs`).
    pub block_run_limit: u64,
    /// Moves one position may have (`--limit engine-moves`).
    pub move_limit: usize,
    /// Steps all blocks may run over the life of these rules (one command: `--limit
    /// engine-work`); unbounded unless the caller sets it.
    pub work_limit: u64,
    /// Steps run so far with these rules (shared by clones).
    pub(crate) work: std::sync::Arc<std::sync::atomic::AtomicU64>,
    /// Raised from outside (Ctrl-C, SIGTERM) to stop generating at once.
    pub interrupt: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Which blocks of a piece on a position may attack each position: filled in by attack
    /// tests as they meet pieces, so a game that never tests attacks never pays for it.
    pub(crate) reach: std::sync::OnceLock<super::reach::ReachIndex>,
}

/// Most bytecode operations one game may compile to (after inlining procedure calls).
const MAX_OPS: usize = 4_000_000;

impl Rules {
    /// Compiles entry `index` of `doc`. A menu separator, a game without a board, or any
    /// construct the engine cannot run is refused with a message naming it.
    pub fn compile(doc: &spec::Document, index: usize) -> Result<Rules, RulesError> {
        let Some(game) = doc.games.get(index) else {
            return refuse(format!("the document has no game number {}", index + 1));
        };
        if game.kind == EntryKind::Separator {
            return refuse(format!(
                "entry {} is a menu separator, not a game",
                index + 1
            ));
        }
        let mut b = Builder::new(doc, game)?;
        b.pieces()?;
        b.rest()?;
        b.rules.flatten_zones();
        Ok(b.rules)
    }

    /// Fills [`Rules::zone_flat`] from the zones (once they are all known: a zone a program
    /// names but no board defines is added empty while compiling).
    fn flatten_zones(&mut self) {
        let (np, npl) = (self.npos(), self.players.len());
        self.zone_flat = self
            .zones
            .iter()
            .flat_map(|z| (0..npl).flat_map(move |p| (0..np).map(move |q| z[p][q])))
            .collect();
    }

    /// [`Rules::compile`] without fusing operations (see [`super::fuse`]), to compare.
    #[cfg(test)]
    pub(crate) fn compile_unfused(doc: &spec::Document, index: usize) -> Rules {
        let mut b = Builder::new(doc, &doc.games[index]).unwrap();
        b.fuse = false;
        b.pieces().unwrap();
        b.rest().unwrap();
        b.rules.flatten_zones();
        b.rules
    }

    /// Number of positions.
    pub fn npos(&self) -> usize {
        self.positions.len()
    }

    pub(crate) fn ndirs(&self) -> usize {
        self.directions.len()
    }

    /// The attack index, created on first use.
    pub(crate) fn reach(&self) -> &super::reach::ReachIndex {
        self.reach
            .get_or_init(|| super::reach::ReachIndex::new(self))
    }

    /// The position linked from `pos` in `dir` as `player` reads directions.
    #[inline]
    pub(crate) fn link(&self, player: u32, pos: u32, dir: u32) -> u32 {
        self.player_links(player)[pos as usize * self.ndirs() + dir as usize]
    }

    /// The links as `player` reads directions: `[pos * ndirs + dir]`.
    #[inline]
    pub(crate) fn player_links(&self, player: u32) -> &[u32] {
        let n = self.npos() * self.ndirs();
        &self.links[player as usize * n..(player as usize + 1) * n]
    }

    /// The index of a position by name.
    pub fn position(&self, name: &str) -> Option<u32> {
        self.positions
            .iter()
            .position(|p| p == name)
            .map(|i| i as u32)
    }

    /// The index of a piece type by name.
    pub fn kind(&self, name: &str) -> Option<u32> {
        self.kinds
            .iter()
            .position(|k| k.name == name)
            .map(|i| i as u32)
    }

    /// The name of state register `key` (Chessembly `set-state`).
    pub fn state_key(&self, key: u32) -> &str {
        self.state_keys.get(key as usize).map_or("", String::as_str)
    }

    /// The index of a player by name.
    pub fn player(&self, name: &str) -> Option<u32> {
        self.players
            .iter()
            .position(|p| p == name)
            .map(|i| i as u32)
    }
}

struct Builder<'a> {
    doc: &'a spec::Document,
    game: &'a Game,
    rules: Rules,
    pos_ix: FxHashMap<&'a str, u32>, // lookup only
    dir_ix: FxHashMap<&'a str, u32>, // lookup only
    kind_ix: FxHashMap<String, u32>, // lookup only
    ops: usize,
    /// The pure loops' code (see [`super::loops::code`]) met so far, and their ids.
    region_ids: FxHashMap<Vec<Op>, u32>,
    /// Whether operations are fused (see [`super::fuse`]).
    fuse: bool,
}

fn intern(names: &mut Vec<String>, name: &str) -> u32 {
    match names.iter().position(|n| n == name) {
        Some(i) => i as u32,
        None => {
            names.push(name.to_string());
            (names.len() - 1) as u32
        }
    }
}

impl<'a> Builder<'a> {
    fn new(doc: &'a spec::Document, game: &'a Game) -> Result<Builder<'a>, RulesError> {
        let Some(board) = game.boards.first() else {
            return refuse(format!("`{}` has no board", game.title));
        };
        if game.boards.len() > 1 {
            return refuse(format!(
                "`{}` has {} boards; the engine plays one",
                game.title,
                game.boards.len()
            ));
        }
        if let Some(e) = &game.engine {
            return refuse(format!(
                "`{}` needs the external engine `{e}`, whose moves are not in the rules",
                game.title
            ));
        }
        let players: Vec<String> = game.players.clone();
        if players.is_empty() {
            return refuse(format!("`{}` has no players", game.title));
        }
        let mut pos_ix = FxHashMap::default();
        for (i, p) in board.positions.iter().enumerate() {
            pos_ix.insert(p.name.as_str(), i as u32);
        }
        let mut dir_ix = FxHashMap::default();
        for (i, d) in board.directions.iter().enumerate() {
            dir_ix.insert(d.as_str(), i as u32);
        }
        let (np, nd) = (board.positions.len(), board.directions.len());
        let mut links = vec![NONE; np * nd];
        for (i, p) in board.positions.iter().enumerate() {
            for l in &p.links {
                if let (Some(&d), Some(&t)) =
                    (dir_ix.get(l.direction.as_str()), pos_ix.get(l.to.as_str()))
                {
                    links[i * nd + d as usize] = t;
                }
            }
        }
        let mut sym: Vec<u32> = Vec::with_capacity(players.len() * nd);
        for pl in &players {
            let map = board.symmetries.iter().find(|s| &s.player == pl);
            for d in &board.directions {
                let to = map
                    .and_then(|m| m.map.iter().find(|[f, _]| f == d))
                    .and_then(|[_, t]| dir_ix.get(t.as_str()).copied());
                sym.push(to.unwrap_or(dir_ix[d.as_str()]));
            }
        }
        // Each player's links, read through the player's symmetry.
        let links: Vec<u32> = (0..players.len())
            .flat_map(|pl| (0..np).map(move |pos| (pl, pos)))
            .flat_map(|(pl, pos)| (0..nd).map(move |d| (pl, pos, d)))
            .map(|(pl, pos, d)| links[pos * nd + sym[pl * nd + d] as usize])
            .collect();
        let mut opposite = vec![NONE; nd];
        for o in &board.opposites {
            if let (Some(&a), Some(&b)) = (
                dir_ix.get(o.direction.as_str()),
                dir_ix.get(o.opposite.as_str()),
            ) {
                opposite[a as usize] = b;
            }
        }
        let rules = Rules {
            title: game.title.clone(),
            players,
            positions: board.positions.iter().map(|p| p.name.clone()).collect(),
            directions: board.directions.clone(),
            kinds: Vec::new(),
            move_types: Vec::new(),
            pos_flags: Vec::new(),
            flags: Vec::new(),
            attributes: Vec::new(),
            state_keys: Vec::new(),
            links,
            opposite,
            zones: Vec::new(),
            zone_flat: Vec::new(),
            zone_names: Vec::new(),
            killed: board.positions.iter().map(|p| p.killed).collect(),
            dummy: board.positions.iter().map(|p| p.dummy).collect(),
            turns: Vec::new(),
            repeat_from: 0,
            priorities: Vec::new(),
            goals: Vec::new(),
            options: Options::default(),
            setup: Vec::new(),
            setup_off: Vec::new(),
            hand_limited: Vec::new(),
            royal: Vec::new(),
            step_limit: DEFAULT_STEP_LIMIT,
            block_run_limit: DEFAULT_BLOCK_RUN_LIMIT,
            move_limit: DEFAULT_MOVE_LIMIT,
            work_limit: u64::MAX,
            work: Default::default(),
            interrupt: None,
            reach: std::sync::OnceLock::new(),
        };
        let mut b = Builder {
            doc,
            game,
            rules,
            pos_ix,
            dir_ix,
            kind_ix: FxHashMap::default(),
            ops: 0,
            region_ids: FxHashMap::default(),
            fuse: true,
        };
        b.zones(board);
        Ok(b)
    }

    fn zones(&mut self, board: &spec::Board) {
        let np = self.rules.npos();
        for z in &board.zones {
            let zi = intern(&mut self.rules.zone_names, &z.name) as usize;
            if zi == self.rules.zones.len() {
                self.rules
                    .zones
                    .push(vec![vec![false; np]; self.rules.players.len()]);
            }
            for pl in &z.players {
                let Some(p) = self.rules.player(pl) else {
                    continue;
                };
                for pos in &z.positions {
                    if let Some(&i) = self.pos_ix.get(pos.as_str()) {
                        self.rules.zones[zi][p as usize][i as usize] = true;
                    }
                }
            }
        }
    }

    fn pieces(&mut self) -> Result<(), RulesError> {
        for (i, p) in self.game.pieces.iter().enumerate() {
            self.kind_ix.insert(p.name.clone(), i as u32);
        }
        for p in &self.game.pieces {
            let mut attrs = 0u32;
            let mut declared = Vec::new();
            for a in &p.attributes {
                let ai = intern(&mut self.rules.attributes, &a.name);
                if ai >= 32 {
                    return refuse("more than 32 piece attributes");
                }
                declared.push(ai);
                if a.value == "true" {
                    attrs |= 1 << ai;
                }
            }
            if let Some(x) = first_extension(&p.extensions) {
                return refuse_untyped(format!(
                    "piece `{}` has content the spec does not type: {x}",
                    p.name
                ));
            }
            let moves = self.blocks(&p.name, &p.moves)?;
            let drops = self.blocks(&p.name, &p.drops)?;
            let owners = self.owners(p)?;
            let firsts = super::guard::firsts(moves.iter().map(|b| b.guard.clone()));
            self.rules.kinds.push(Kind {
                name: p.name.clone(),
                notation: p.notation.clone(),
                moves,
                drops,
                attrs,
                declared,
                owners,
                firsts,
            });
        }
        Ok(())
    }

    /// The players who have piece type `p` (`None`: every player).
    fn owners(&self, p: &spec::Piece) -> Result<Option<Vec<u32>>, RulesError> {
        if p.owners.is_empty() {
            return Ok(None);
        }
        let mut v = Vec::new();
        for o in &p.owners {
            match self.rules.player(o) {
                Some(i) => v.push(i),
                None => {
                    return refuse(format!(
                        "piece `{}` belongs to `{o}`, who is not a player",
                        p.name
                    ));
                }
            }
        }
        Ok(Some(v))
    }

    fn blocks(
        &mut self,
        piece: &str,
        blocks: &[spec::MoveBlock],
    ) -> Result<Vec<Block>, RulesError> {
        let mut out = Vec::with_capacity(blocks.len());
        for b in blocks {
            let move_type = b
                .move_type
                .as_deref()
                .map(|t| intern(&mut self.rules.move_types, t));
            let mut ops = Vec::new();
            self.code(piece, &b.program, &mut ops, 0)?;
            self.ops += ops.len();
            if self.ops > MAX_OPS {
                return refuse(format!(
                    "the move programs compile to more than {MAX_OPS} operations"
                ));
            }
            if self.fuse {
                super::fuse::fuse(&mut ops);
            }
            let guard = super::guard::find(&ops);
            let mut regions = super::loops::find(&mut ops);
            for r in &mut regions {
                // Regions with the same code (in any block) share their outcomes.
                let next = self.region_ids.len() as u32;
                r.id = *self
                    .region_ids
                    .entry(super::loops::code(&ops, r))
                    .or_insert(next);
            }
            if self.fuse {
                super::fuse::branches(&mut ops, &regions);
            }
            out.push(Block {
                move_type,
                ops,
                regions,
                guard,
            });
        }
        Ok(out)
    }

    fn code(
        &mut self,
        piece: &str,
        prog: &[Instr],
        ops: &mut Vec<Op>,
        depth: usize,
    ) -> Result<(), RulesError> {
        if depth > 256 {
            return refuse(format!(
                "the moves of `{piece}` nest procedures deeper than 256"
            ));
        }
        for i in prog {
            self.instr(piece, i, ops, depth)?;
        }
        Ok(())
    }

    fn instr(
        &mut self,
        piece: &str,
        i: &Instr,
        ops: &mut Vec<Op>,
        depth: usize,
    ) -> Result<(), RulesError> {
        let op = match i {
            Instr::Step(d) => match self.dir_ix.get(d.as_str()) {
                Some(&d) => Op::Step(d),
                None => Op::Fail,
            },
            Instr::StepOpposite(d) => match self.dir_ix.get(d.as_str()) {
                Some(&d) if self.rules.opposite[d as usize] != NONE => {
                    Op::Step(self.rules.opposite[d as usize])
                }
                _ => Op::Fail,
            },
            Instr::Jump(p) => match self.pos_ix.get(p.as_str()) {
                Some(&p) => Op::Jump(p),
                None => return refuse(format!("`{piece}` jumps to unknown position `{p}`")),
            },
            Instr::Mark => Op::Mark,
            Instr::Back => Op::Back,
            Instr::From { go } => [Op::From, Op::GoFrom][*go as usize].clone(),
            Instr::To { go } => [Op::To, Op::GoTo][*go as usize].clone(),
            Instr::Verify(c) => Op::Verify(self.cond(piece, c)?),
            Instr::If { cond, then_, else_ } => {
                let c = self.cond(piece, cond)?;
                let at = ops.len();
                ops.push(Op::IfNot(c, 0));
                self.code(piece, then_, ops, depth + 1)?;
                if else_.is_empty() {
                    let end = ops.len();
                    ops[at] = patch(&ops[at], end);
                } else {
                    let goto = ops.len();
                    ops.push(Op::Goto(0));
                    let start_else = ops.len();
                    ops[at] = patch(&ops[at], start_else);
                    self.code(piece, else_, ops, depth + 1)?;
                    ops[goto] = Op::Goto(ops.len());
                }
                return Ok(());
            }
            Instr::While { cond, body } => {
                let c = self.cond(piece, cond)?;
                let top = ops.len();
                ops.push(Op::IfNot(c, 0));
                self.code(piece, body, ops, depth + 1)?;
                ops.push(Op::Goto(top));
                let end = ops.len();
                ops[top] = patch(&ops[top], end);
                return Ok(());
            }
            Instr::Add {
                pieces,
                partial,
                copy,
                move_type,
            } => Op::Add {
                promote: pieces
                    .iter()
                    .map(|p| self.kind_of(piece, p))
                    .collect::<Result<_, _>>()?,
                partial: *partial,
                copy: *copy,
                move_type: move_type
                    .as_deref()
                    .map(|t| intern(&mut self.rules.move_types, t)),
            },
            Instr::Capture { at } => Op::Capture(self.loc(piece, at.as_deref())?),
            Instr::Cascade => Op::Cascade,
            Instr::Create {
                player,
                piece: p,
                at,
            } => Op::Create {
                owner: match player {
                    Some(pl) => Some(self.player_of(piece, pl)?),
                    None => None,
                },
                kind: match p {
                    Some(p) => Some(self.kind_of(piece, p)?),
                    None => None,
                },
                at: self.loc(piece, at.as_deref())?,
            },
            Instr::Flip { at } => Op::Flip(self.loc(piece, at.as_deref())?),
            Instr::ChangeOwner { at } => Op::ChangeOwner(self.loc(piece, at.as_deref())?),
            Instr::ChangeType { piece: p, at } => {
                Op::ChangeType(self.kind_of(piece, p)?, self.loc(piece, at.as_deref())?)
            }
            Instr::SetFlag { flag, value } => Op::SetFlag(
                intern(&mut self.rules.flags, flag),
                self.cond(piece, value)?,
            ),
            Instr::SetPositionFlag { flag, value, at } => Op::SetPosFlag(
                intern(&mut self.rules.pos_flags, flag),
                self.cond(piece, value)?,
                self.loc(piece, at.as_deref())?,
            ),
            Instr::SetAttribute { name, value, at } => {
                let a = intern(&mut self.rules.attributes, name);
                if a >= 32 {
                    return refuse("more than 32 piece attributes");
                }
                Op::SetAttr(a, self.cond(piece, value)?, self.loc(piece, at.as_deref())?)
            }
            Instr::Call(n) => {
                let Some(body) = self.doc.procedures.get(*n) else {
                    return refuse(format!(
                        "`{piece}` calls procedure {n}, which does not exist"
                    ));
                };
                return self.code(piece, body, ops, depth + 1);
            }
            Instr::SetState { key, value } => {
                Op::SetState(intern(&mut self.rules.state_keys, key), *value)
            }
            Instr::ClearState => Op::ClearState,
            Instr::Raw { text, .. } => {
                return refuse(format!(
                    "the moves of `{piece}` hold `{text}`, which the spec does not type and the engine cannot run"
                ));
            }
        };
        ops.push(op);
        Ok(())
    }

    fn kind_of(&self, piece: &str, name: &str) -> Result<u32, RulesError> {
        match self.kind_ix.get(name) {
            Some(&k) => Ok(k),
            None => refuse(format!(
                "the moves of `{piece}` name unknown piece `{name}`"
            )),
        }
    }

    fn player_of(&self, piece: &str, name: &str) -> Result<u32, RulesError> {
        match self.rules.player(name) {
            Some(p) => Ok(p),
            None => refuse(format!(
                "the moves of `{piece}` name unknown player `{name}`"
            )),
        }
    }

    fn loc(&self, piece: &str, at: Option<&str>) -> Result<Loc, RulesError> {
        Ok(match at {
            None => Loc::Cur,
            Some(a) => match (self.dir_ix.get(a), self.pos_ix.get(a)) {
                (Some(&d), _) => Loc::Dir(d),
                (None, Some(&p)) => Loc::Pos(p),
                (None, None) => {
                    return refuse(format!(
                        "the moves of `{piece}` name `{a}`, which is neither a direction nor a position"
                    ));
                }
            },
        })
    }

    fn cond(&mut self, piece: &str, c: &Cond) -> Result<C, RulesError> {
        Ok(match c {
            Cond::Const(b) => C::Const(*b),
            Cond::Test {
                test,
                at,
                move_type,
            } => {
                let mt = move_type
                    .as_deref()
                    .map(|t| intern(&mut self.rules.move_types, t));
                let t = match test {
                    Test::Empty => TestKind::Empty,
                    Test::Friend => TestKind::Friend,
                    Test::Enemy => TestKind::Enemy,
                    Test::Neutral => TestKind::Neutral,
                    Test::LastFrom => TestKind::LastFrom,
                    Test::LastTo => TestKind::LastTo,
                    Test::Marked => TestKind::Marked,
                    Test::Attacked => TestKind::Attacked(mt),
                    Test::Defended => TestKind::Defended(mt),
                    Test::AdjacentToEnemy => TestKind::AdjacentToEnemy,
                    Test::GoalPosition => {
                        return refuse(format!(
                            "the moves of `{piece}` test `goal-position?`, which the engine does not run"
                        ));
                    }
                };
                C::Test(t, self.loc(piece, at.as_deref())?)
            }
            Cond::Piece { piece: p, at } => match self.kind_ix.get(p.as_str()) {
                // A type the game does not define never stands anywhere.
                None => C::Const(false),
                Some(&k) => C::Piece(k, self.loc(piece, at.as_deref())?),
            },
            Cond::InZone { zone, at } => {
                let z = intern(&mut self.rules.zone_names, zone);
                if z as usize == self.rules.zones.len() {
                    // A zone the board does not define holds no position.
                    let (np, npl) = (self.rules.npos(), self.rules.players.len());
                    self.rules.zones.push(vec![vec![false; np]; npl]);
                }
                C::InZone(z, self.loc(piece, at.as_deref())?)
            }
            Cond::OnBoard { direction } => C::OnBoard(match direction {
                Some(d) => match self.dir_ix.get(d.as_str()) {
                    Some(&d) => Some(d),
                    None => return Ok(C::Const(false)),
                },
                None => None,
            }),
            Cond::Position { position } => match self.pos_ix.get(position.as_str()) {
                Some(&p) => C::Position(p),
                None => C::Const(false),
            },
            Cond::Flag { flag } => C::Flag(intern(&mut self.rules.flags, flag)),
            Cond::PositionFlag { flag, at } => C::PosFlag(
                intern(&mut self.rules.pos_flags, flag),
                self.loc(piece, at.as_deref())?,
            ),
            Cond::Attribute { name, at } => {
                let a = intern(&mut self.rules.attributes, name);
                if a >= 32 {
                    return refuse("more than 32 piece attributes");
                }
                C::Attr(a, self.loc(piece, at.as_deref())?)
            }
            Cond::Not(c) => C::Not(Box::new(self.cond(piece, c)?)),
            Cond::And(v) => owned(
                v.iter()
                    .map(|c| self.cond(piece, c))
                    .collect::<Result<_, _>>()?,
            ),
            Cond::Or(v) => any_piece(
                v.iter()
                    .map(|c| self.cond(piece, c))
                    .collect::<Result<_, _>>()?,
            ),
            Cond::State { key, value } => C::State(intern(&mut self.rules.state_keys, key), *value),
            Cond::Raw { text, .. } => {
                return refuse(format!(
                    "the moves of `{piece}` test `{text}`, which the spec does not type and the engine cannot run"
                ));
            }
        })
    }

    /// Turn order, options, priorities, goals and setup.
    fn rest(&mut self) -> Result<(), RulesError> {
        let g = self.game;
        for t in &g.turn_order.turns {
            // `(P Q mode)`: P (in the corpus always a random player) moves Q's pieces, as Q.
            let moving = t.with_player.as_deref().unwrap_or(&t.player);
            let Some(player) = self.rules.player(moving) else {
                return refuse(format!(
                    "the turn order names `{moving}`, who is not a player"
                ));
            };
            let move_type = t
                .move_type
                .as_deref()
                .map(|m| intern(&mut self.rules.move_types, m));
            self.rules.turns.push(TurnIr { player, move_type });
        }
        if self.rules.turns.is_empty() {
            self.rules.turns = (0..self.rules.players.len() as u32)
                .map(|player| TurnIr {
                    player,
                    move_type: None,
                })
                .collect();
        }
        self.rules.repeat_from = g.turn_order.repeat_from.unwrap_or(0);
        if self.rules.repeat_from >= self.rules.turns.len() {
            self.rules.repeat_from = 0;
        }
        self.rules.priorities = g
            .move_priorities
            .iter()
            .map(|m| intern(&mut self.rules.move_types, m))
            .collect();
        self.options()?;
        self.rules.royal = vec![Vec::new(); self.rules.players.len()];
        for goal in &g.goals {
            let cond = self.goal(&goal.condition)?;
            let players: Vec<u32> = goal
                .players
                .iter()
                .filter_map(|p| self.rules.player(p))
                .collect();
            if let G::Checkmated(kinds) = &cond {
                for &p in &players {
                    self.rules.royal[p as usize].extend(kinds.iter().copied());
                }
            }
            self.rules.goals.push(Goal {
                kind: goal.kind,
                players,
                cond,
            });
        }
        if let Some(x) = first_extension(&g.extensions) {
            return refuse_untyped(format!(
                "`{}` has content the spec does not type: {x}",
                g.title
            ));
        }
        self.setup()
    }

    fn options(&mut self) -> Result<(), RulesError> {
        for o in &self.game.options {
            let name = o.name.replace('-', " ");
            let v = o.value.as_str();
            let flag = |v: &str| matches!(v, "true" | "forced" | "2");
            match name.as_str() {
                "pass turn" => {
                    self.rules.options.pass_turn = match v {
                        "forced" => 2,
                        v if flag(v) => 1,
                        _ => 0,
                    }
                }
                "pass partial" => self.rules.options.pass_partial = flag(v),
                "maximal captures" => {
                    self.rules.options.maximal_captures = match v {
                        "2" => 2,
                        v if flag(v) => 1,
                        _ => 0,
                    }
                }
                "recycle captures" => self.rules.options.recycle_captures = flag(v),
                "include off pieces" => self.rules.options.include_off_pieces = flag(v),
                "swap" => self.rules.options.swap = flag(v) && self.rules.players.len() == 2,
                _ => {}
            }
        }
        Ok(())
    }

    fn goal(&mut self, c: &GoalCond) -> Result<G, RulesError> {
        let kinds = |b: &Self, v: &[String]| -> Result<Vec<u32>, RulesError> {
            v.iter().map(|p| b.kind_of("goals", p)).collect()
        };
        let count = |s: &str| -> Result<i64, RulesError> {
            s.parse::<i64>()
                .or_else(|_| refuse(format!("a goal counts `{s}` pieces, which is not a number")))
        };
        Ok(match c {
            GoalCond::Stalemated => G::Stalemated,
            GoalCond::Repetition => G::Repetition,
            GoalCond::Checkmated { pieces } => G::Checkmated(kinds(self, pieces)?),
            GoalCond::Captured { pieces } => G::Captured(kinds(self, pieces)?),
            GoalCond::PiecesRemaining { count: n, piece } => G::PiecesRemaining(
                count(n)?,
                match piece {
                    Some(p) => Some(self.kind_of("goals", p)?),
                    None => None,
                },
            ),
            GoalCond::TotalPieceCount { count: n, piece } => G::TotalPieceCount(
                count(n)?,
                match piece {
                    Some(p) => Some(self.kind_of("goals", p)?),
                    None => None,
                },
            ),
            GoalCond::AbsoluteConfig {
                pieces,
                positions,
                opponent,
                negated,
                ..
            } => {
                let mut ps = Vec::new();
                for p in positions {
                    if let Some(&i) = self.pos_ix.get(p.as_str()) {
                        ps.push(i);
                    } else if let Some(z) = self.rules.zone_names.iter().position(|z| z == p) {
                        // A zone: every position it holds for any player (refined per player
                        // when evaluated).
                        ps.push(NONE - 1 - z as u32);
                    } else {
                        return refuse(format!(
                            "`absolute-config` names `{p}`, which is neither a position nor a zone"
                        ));
                    }
                }
                G::AbsoluteConfig {
                    kinds: kinds(self, pieces)?,
                    positions: ps,
                    opponent: *opponent,
                    negated: *negated,
                }
            }
            GoalCond::Line { length, directions } => G::Line(
                *length,
                directions
                    .iter()
                    .map(|d| {
                        self.dir_ix.get(d.as_str()).copied().map_or_else(
                            || refuse(format!("the goal `line` names no direction `{d}`")),
                            Ok,
                        )
                    })
                    .collect::<Result<_, _>>()?,
            ),
            GoalCond::And(v) => G::And(v.iter().map(|c| self.goal(c)).collect::<Result<_, _>>()?),
            GoalCond::Or(v) => G::Or(v.iter().map(|c| self.goal(c)).collect::<Result<_, _>>()?),
            GoalCond::Not(c) => G::Not(Box::new(self.goal(c)?)),
            GoalCond::RelativeConfig { args } => self.relative_config(args)?,
            GoalCond::Connected { zones, directions } => G::Connected {
                zones: zones
                    .iter()
                    .map(|z| {
                        self.rules
                            .zone_names
                            .iter()
                            .position(|n| n == z)
                            .map(|i| i as u32)
                            .map_or_else(
                                || refuse(format!("the goal `connected` names no zone `{z}`")),
                                Ok,
                            )
                    })
                    .collect::<Result<_, _>>()?,
                dirs: directions
                    .iter()
                    .map(|d| {
                        self.dir_ix.get(d.as_str()).copied().map_or_else(
                            || refuse(format!("the goal `connected` names no direction `{d}`")),
                            Ok,
                        )
                    })
                    .collect::<Result<_, _>>()?,
            },
            GoalCond::Raw { text, .. } => {
                return refuse(format!(
                    "the goal `{text}` is not typed by the spec, so the engine cannot run it"
                ));
            }
        })
    }

    /// `(relative-config occupant dir… occupant …)`, its arguments as compact ZRF text: an
    /// atom is a direction of the board or a piece type; a list is `(opponent P…)`,
    /// `(any-owner P…)`, `(not occupant)` or a list of piece types.
    fn relative_config(&self, args: &[String]) -> Result<G, RulesError> {
        let whole = || format!("(relative-config {})", args.join(" "));
        let mut out: Vec<(Occupant, Vec<u32>)> = Vec::new();
        let mut steps: Vec<u32> = Vec::new();
        for a in args {
            if let Some(&d) = self.dir_ix.get(a.as_str()) {
                if out.is_empty() {
                    return refuse(format!("the goal `{}` starts with a direction", whole()));
                }
                steps.push(d);
                continue;
            }
            let Some(occ) = self.occupant(a) else {
                return refuse(format!(
                    "the goal `{}` names `{a}`, which is neither a direction of the board nor \
                     a piece",
                    whole()
                ));
            };
            if !out.is_empty() && steps.is_empty() {
                return refuse(format!(
                    "the goal `{}` has two occupants with no direction between them",
                    whole()
                ));
            }
            if let Some(last) = out.last_mut() {
                last.1 = std::mem::take(&mut steps);
            }
            out.push((occ, Vec::new()));
        }
        if out.is_empty() || !steps.is_empty() {
            return refuse(format!(
                "the goal `{}` does not end with an occupant",
                whole()
            ));
        }
        Ok(G::RelativeConfig(out))
    }

    /// One `check-occupant` written as compact ZRF text.
    fn occupant(&self, text: &str) -> Option<Occupant> {
        let text = text.trim();
        let Some(inner) = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) else {
            return Some(Occupant {
                kinds: vec![*self.kind_ix.get(text)?],
                owner: OwnerClass::Own,
                negated: false,
            });
        };
        let inner = inner.trim();
        if let Some(rest) = inner.strip_prefix("not ").or(inner.strip_prefix("not(")) {
            let rest = if inner.starts_with("not(") {
                format!("({rest}")
            } else {
                rest.to_string()
            };
            let o = self.occupant(&rest)?;
            return (!o.negated).then_some(Occupant { negated: true, ..o });
        }
        let (owner, names) = if let Some(r) = inner.strip_prefix("opponent ") {
            (OwnerClass::Opponent, r)
        } else if let Some(r) = inner.strip_prefix("any-owner ") {
            (OwnerClass::Any, r)
        } else {
            (OwnerClass::Own, inner)
        };
        let kinds = names
            .split_whitespace()
            .map(|n| self.kind_ix.get(n).copied())
            .collect::<Option<Vec<u32>>>()?;
        (!kinds.is_empty()).then_some(Occupant {
            kinds,
            owner,
            negated: false,
        })
    }

    fn setup(&mut self) -> Result<(), RulesError> {
        for pl in &self.game.setup {
            let Some(player) = self.rules.player(&pl.player) else {
                return refuse(format!(
                    "the setup places pieces for `{}`, who is not a player",
                    pl.player
                ));
            };
            let kind = self.kind_of("setup", &pl.piece)?;
            for pos in &pl.positions {
                // A position the board lacks places nothing (the ZRF reader warns,
                // `zrf::unknown-position`): Kalah's `g1`, Ikusa Shogi's `y1` (*decided*).
                if let Some(&p) = self.pos_ix.get(pos.as_str()) {
                    self.rules.setup.push((p, player, kind));
                }
            }
            if let Some(n) = pl.off {
                self.rules.setup_off.push((player, kind, n));
            }
        }
        // A game that counts pieces off the board lets no type be dropped without a count
        // (ZoG's Luzhanqi save never drops the uncounted LandmineFlag, whose drops outrank the
        // move it made); a game that counts none (Go) drops without limit.
        let limited = self.rules.options.recycle_captures || !self.rules.setup_off.is_empty();
        self.rules.hand_limited = vec![limited; self.rules.players.len() * self.rules.kinds.len()];
        Ok(())
    }
}

/// The first piece of content kept verbatim (any format), shortened for a message. Ludii's
/// `(metadata …)` is not part of the rules by Ludii's own definition (information, graphics,
/// AI hints), so it never stops a game from being played.
fn first_extension(x: &spec::Extensions) -> Option<String> {
    use spec::RawFormat;
    let mut ludii = x.texts(RawFormat::Ludii);
    let ludii = ludii.find(|t| !t.starts_with("(metadata"));
    let text = (x.texts(RawFormat::Zrf).next())
        .or(ludii)
        .or(x.texts(RawFormat::Chessembly).next())?;
    Some(match text.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.clone(),
    })
}

/// `(or (piece? A) (piece? B) …)` of one position as one test of the piece there (read once).
fn any_piece(v: Vec<C>) -> C {
    let at = match v.first() {
        Some(C::Piece(_, l)) => *l,
        _ => return C::Or(v),
    };
    let kinds: Option<Box<[u32]>> = v
        .iter()
        .map(|c| match c {
            C::Piece(k, l) if *l == at => Some(*k),
            _ => None,
        })
        .collect();
    match kinds {
        Some(kinds) if kinds.len() > 1 => C::AnyPiece(kinds, at),
        _ => C::Or(v),
    }
}

/// `(and enemy? (piece? A))` (or `friend?`, or `piece?` tests of several types) of one
/// position as one test of the piece there (read once).
fn owned(v: Vec<C>) -> C {
    let owner = |c: &C| match c {
        C::Test(TestKind::Enemy, l) => Some((true, *l)),
        C::Test(TestKind::Friend, l) => Some((false, *l)),
        _ => None,
    };
    let kinds = |c: &C| match c {
        C::Piece(k, l) => Some((Box::from([*k]), *l)),
        C::AnyPiece(ks, l) => Some((ks.clone(), *l)),
        _ => None,
    };
    // Both read the one position only, so their order does not matter.
    let found = match v.as_slice() {
        [a, b] => owner(a).zip(kinds(b)).or(owner(b).zip(kinds(a))),
        _ => None,
    };
    match found {
        Some(((enemy, l), (ks, m))) if l == m => C::Owned(enemy, ks, l),
        _ => C::And(v),
    }
}

fn patch(op: &Op, target: usize) -> Op {
    match op {
        Op::IfNot(c, _) => Op::IfNot(c.clone(), target),
        other => other.clone(),
    }
}

/// Steps one block may run by default before it is stopped (`--limit engine-steps`).
pub const DEFAULT_STEP_LIMIT: u32 = 100_000;
/// Block runs one position's move generation may make by default (`--limit engine-block-runs`):
/// every piece's move blocks from its position and every drop block from every empty position.
pub const DEFAULT_BLOCK_RUN_LIMIT: u64 = 1_000_000;
/// Moves one position may have by default (`--limit engine-moves`).
pub const DEFAULT_MOVE_LIMIT: usize = 200_000;
/// Steps all blocks may run in one command of the CLI by default (`--limit engine-work`): enough
/// for KoShogi's perft(3) (about 1.6·10⁹ steps, 6 s; a pure loop reused counts the steps it
/// would have run); the library's [`Rules`] are unbounded
/// until [`Rules::work_limit`] is set.
pub const DEFAULT_WORK_LIMIT: u64 = 2_000_000_000;

impl Rules {
    /// Steps run so far with these rules.
    pub fn work_done(&self) -> u64 {
        self.work.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Whether [`Rules::interrupt`] was raised.
    pub(crate) fn interrupted(&self) -> bool {
        self.interrupt
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
    }
}
