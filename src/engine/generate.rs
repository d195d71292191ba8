//! The move-program interpreter: runs compiled blocks with ZoG's semantics and collects the moves.
//!
//! Semantics (see `docs/engine.md`): the board seen by every test is the board before the move;
//! `add` completes a move (origin → `to` if set, else the current position) and execution goes
//! on without the captures and changes made so far (they went with that move); `cascade` completes the current piece's part and continues with the piece at the
//! current position; captures, creations and changes are recorded in order and applied when the
//! move is made. Directions are read through the mover's symmetry, zones are the mover's.

use super::guard::{Check, Guard};
use super::loops::Region;
use super::reach::block_bit;
use super::rules::{Block, C, Kind, Loc, NONE, Op, Rules, TestKind};
use super::state::{Action, Move, Piece, State};
use rustc_hash::FxHashMap;

/// A move block stopped by the step limit: the piece type and the block's index among its
/// moves (or drops).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overrun {
    /// Piece type.
    pub kind: u32,
    /// Index of the block (0-based).
    pub block: usize,
    /// A drop block rather than a move block.
    pub drop: bool,
}

impl Overrun {
    /// `piece `X`, move block 2` (1-based), for messages.
    pub fn describe(&self, rules: &Rules) -> String {
        format!(
            "piece `{}`, {} block {}",
            rules.kinds[self.kind as usize].name,
            if self.drop { "drop" } else { "move" },
            self.block + 1
        )
    }
}

/// Why the generation of one position's moves was cut short by a budget (the list is then
/// incomplete, and the engine's answer for that position is an error, not a count).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// More block runs than [`Rules::block_run_limit`].
    BlockRuns,
    /// More moves than [`Rules::move_limit`].
    Moves,
    /// More steps in the command than [`Rules::work_limit`].
    Work,
    /// [`Rules::interrupt`] was raised (Ctrl-C, SIGTERM).
    Interrupted,
}

/// Where generated moves go: collected, counted, or only checked for a hit on one position.
pub(crate) enum Sink {
    Collect(Vec<Move>),
    /// The number of moves and, when kept, the number per move type (`[0]`: moves of no type,
    /// `[t + 1]`: of type `t`), for `move-priorities`.
    Count(u64, Option<Vec<u64>>),
    Hit {
        pos: u32,
        found: bool,
    },
}

/// Runs the programs of one side's pieces on a state.
pub(crate) struct Gen<'a> {
    pub rules: &'a Rules,
    pub st: &'a State,
    pub player: u32,
    /// The links as `player` reads directions ([`Rules::player_links`]).
    links: &'a [u32],
    /// Directions per position.
    nd: usize,
    /// Positions.
    npos: usize,
    /// Nesting of attack tests (attack tests inside attack tests are false).
    pub depth: u8,
    pub sink: Sink,
    /// The first block that ran out of steps (its moves so far are kept).
    pub overrun: Option<Overrun>,
    /// Only blocks of this move type run.
    pub only_type: Option<u32>,
    /// A piece that stands in for an empty position's occupant (the probe of an attack test
    /// on an empty position), seen by every test instead of the board there.
    probe: Option<(u32, Piece)>,
    /// The positions the programs have read, when recorded.
    reads: Option<Reads>,
    /// Whether `probe` or `reads` is set (board reads then go through [`Gen::at_watched`]).
    watched: bool,
    /// Emptied lists of a finished run's changes and position flags, for the next run (a run
    /// that captures or marks a position does not allocate).
    spare: (Vec<Action>, Vec<(u32, u32, bool)>),
    /// Block runs and steps so far, and the steps this generation may still run.
    pub runs: u64,
    pub steps: u64,
    pub work_left: u64,
    /// The budget that stopped this generation.
    pub cut: Option<Cut>,
    /// Moves this accepts (given their changes before the last, and the last) are only
    /// counted in `passed`, not collected (perft's last ply: the moves the legality filter
    /// passes without making them).
    pub pass: Option<&'a Passes<'a>>,
    pub passed: u64,
    /// The moves generated so far: collected, counted or passed (never a hit).
    made: usize,
    /// What each pure region did, by where it was entered: (region id, position, mark, flags).
    memo: FxHashMap<(u32, u32, u32, u64), Walked>,
}

/// Which moves a generation only counts, given their changes before the last, and the last.
pub(crate) type Passes<'a> = dyn Fn(&[Action], &Action) -> bool + 'a;

/// What a pure region did from one entry: the steps it ran, and where it left the region (the
/// next operation, counted from the region's start, the position, the mark and the flags), or
/// `None` when it ended the block (or ran past the step limit).
#[derive(Debug, Clone, Copy)]
struct Walked {
    steps: u32,
    exit: Option<(usize, u32, u32, u64)>,
}

/// What the programs of an attack test looked at: the positions whose contents they read, and
/// whether they read anything else a move changes (the last move, state registers) or ran out
/// of steps, in which case nothing can be concluded from the positions alone.
#[derive(Debug, Clone, Default)]
pub(crate) struct Reads {
    bits: Vec<u64>,
    pub opaque: bool,
}

impl Reads {
    /// No position read yet, on a board of `npos` positions.
    pub fn new(npos: usize) -> Reads {
        Reads {
            bits: vec![0; npos.div_ceil(64)],
            opaque: false,
        }
    }

    #[inline]
    fn mark(&mut self, pos: u32) {
        self.bits[pos as usize / 64] |= 1 << (pos % 64);
    }

    /// Whether the contents of `pos` were read.
    #[inline]
    pub fn read(&self, pos: u32) -> bool {
        self.bits[pos as usize / 64] & (1 << (pos % 64)) != 0
    }
}

/// The registers of one block run.
#[derive(Clone)]
struct Run {
    cur: u32,
    from: u32,
    to: u32,
    mark: u32,
    kind: u32,
    flags: u64,
    pos_flags: Vec<(u32, u32, bool)>,
    actions: Vec<Action>,
    states: Vec<(u32, i64)>,
}

impl Run {
    /// A run at `start`, with origin `from` and piece type `kind`, before its first operation.
    fn new(start: u32, from: u32, kind: u32) -> Run {
        Run {
            cur: start,
            from,
            to: NONE,
            mark: NONE,
            kind,
            flags: 0,
            pos_flags: Vec::new(),
            actions: Vec::new(),
            states: Vec::new(),
        }
    }
}

impl<'a> Gen<'a> {
    pub fn new(rules: &'a Rules, st: &'a State, player: u32, sink: Sink) -> Gen<'a> {
        Gen {
            rules,
            st,
            player,
            links: rules.player_links(player),
            nd: rules.ndirs(),
            npos: rules.npos(),
            depth: 0,
            sink,
            overrun: None,
            only_type: None,
            probe: None,
            reads: None,
            watched: false,
            spare: (Vec::new(), Vec::new()),
            runs: 0,
            steps: 0,
            work_left: rules.work_limit.saturating_sub(rules.work_done()),
            cut: None,
            pass: None,
            passed: 0,
            made: 0,
            memo: FxHashMap::default(),
        }
    }

    /// The position linked from `pos` in `dir`, as the player reads directions.
    #[inline(always)]
    fn link(&self, pos: u32, dir: u32) -> u32 {
        self.links[pos as usize * self.nd + dir as usize]
    }

    /// Counts `extra` more steps of a run, for an operation that stands for several (see
    /// [`super::fuse`]); false (the block ends) past the step limit, reported as `at`, or
    /// when interrupted.
    fn charge(&mut self, steps: &mut u32, extra: u32, at: Overrun) -> bool {
        let before = *steps;
        *steps = steps.saturating_add(extra);
        if *steps > self.rules.step_limit {
            // The operations run one by one would have stopped at the limit.
            *steps = self.rules.step_limit.saturating_add(1);
            self.overrun.get_or_insert(at);
            return false;
        }
        if before >> 16 != *steps >> 16 && self.rules.interrupted() {
            self.cut = Some(Cut::Interrupted);
            return false;
        }
        true
    }

    /// The piece on `pos` as the programs see it (recorded when reads are watched).
    #[inline(always)]
    fn at(&mut self, pos: u32) -> Option<Piece> {
        if self.watched {
            return self.at_watched(pos);
        }
        self.st.board[pos as usize]
    }

    /// [`Gen::at`] with a probe or recorded reads.
    #[cold]
    #[inline(never)]
    fn at_watched(&mut self, pos: u32) -> Option<Piece> {
        if let Some(r) = &mut self.reads {
            r.mark(pos);
        }
        match self.probe {
            Some((q, p)) if q == pos => Some(p),
            _ => self.st.board[pos as usize],
        }
    }

    /// Whether a budget allows one more block run (see [`Cut`]); records the one that does not.
    #[inline]
    fn within_budget(&mut self) -> bool {
        if self.cut.is_some() {
            return false;
        }
        self.runs += 1;
        let collected = self.made;
        self.cut = if self.runs > self.rules.block_run_limit {
            Some(Cut::BlockRuns)
        } else if collected > self.rules.move_limit {
            Some(Cut::Moves)
        } else if self.steps > self.work_left {
            Some(Cut::Work)
        } else if self.rules.interrupted() {
            Some(Cut::Interrupted)
        } else {
            None
        };
        self.cut.is_none()
    }

    fn done(&self) -> bool {
        matches!(self.sink, Sink::Hit { found: true, .. })
    }

    /// Runs the move blocks of the piece at `pos` (restricted to `mtype` when given).
    pub fn piece_moves(&mut self, pos: u32, mtype: Option<u32>) {
        self.piece_blocks(pos, mtype, u64::MAX);
    }

    /// Runs the move blocks of the piece at `pos` whose bit ([`block_bit`]) is in `blocks`.
    fn piece_blocks(&mut self, pos: u32, mtype: Option<u32>, blocks: u64) {
        let Some(p) = self.at(pos) else {
            return;
        };
        let rules = self.rules;
        let kind = &rules.kinds[p.kind as usize];
        let (fails, off) = self.first_fails(kind, pos);
        for (i, b) in kind.moves.iter().enumerate() {
            if self.done() {
                return;
            }
            if blocks & block_bit(i) == 0 || !self.type_ok(b, mtype) {
                continue;
            }
            if fails & block_bit(i) != 0 {
                // What `run` does when the guard fails, its first checks already made.
                if self.within_budget()
                    && let Some(g) = &b.guard
                {
                    let first = if off & block_bit(i) != 0 { 1 } else { 2 };
                    self.steps += u64::from(g.setup + first);
                }
                continue;
            }
            self.run(b, pos, pos, p.kind, (i, false));
        }
    }

    /// The move blocks of `kind` at `pos` whose guard fails at its first step or the
    /// occupancy test right after it ([`super::guard::Firsts`]), and those among them whose
    /// first step leaves the board. None when reads are watched (the neighbours would be
    /// recorded as read whether or not a block reads them).
    #[inline]
    fn first_fails(&mut self, kind: &Kind, pos: u32) -> (u64, u64) {
        let Some(f) = &kind.firsts else {
            return (0, 0);
        };
        if self.watched || f.checks > self.rules.step_limit {
            return (0, 0);
        }
        let (mut fails, mut off) = (0, 0);
        for &(d, masks, reads) in f.dirs.iter() {
            let to = self.link(pos, d);
            let class = if to == NONE {
                off |= masks[0];
                0
            } else if !reads {
                continue;
            } else {
                match self.st.board[to as usize] {
                    None => 1,
                    Some(q) if q.owner == self.player => 2,
                    Some(_) => 3,
                }
            };
            fails |= masks[class];
        }
        (fails, off)
    }

    /// Runs the drop blocks of `kind` from every position.
    pub fn drops(&mut self, kind: u32, mtype: Option<u32>) {
        let k = &self.rules.kinds[kind as usize];
        for (i, b) in k.drops.iter().enumerate() {
            if !self.type_ok(b, mtype) {
                continue;
            }
            for pos in 0..self.rules.npos() as u32 {
                if self.rules.killed[pos as usize] {
                    continue;
                }
                self.run(b, pos, NONE, kind, (i, true));
            }
        }
    }

    fn type_ok(&self, b: &Block, mtype: Option<u32>) -> bool {
        (mtype.is_none() || b.move_type == mtype)
            && (self.only_type.is_none() || b.move_type == self.only_type)
    }

    #[inline]
    fn run(&mut self, b: &Block, start: u32, from: u32, kind: u32, at: (usize, bool)) {
        if !self.within_budget() {
            return;
        }
        // A block whose guard fails cannot add a move: its set-up is not run (a piece on an
        // edge, a slider toward it, a step onto a friend).
        if let Some(g) = &b.guard
            && g.checks <= self.rules.step_limit
        {
            let to = self.link(start, g.first);
            let failed = if to == NONE {
                Some(g.setup + 1)
            } else if g.rest.is_empty() {
                None
            } else {
                self.guard_fails(g, to, from, kind)
            };
            if let Some(charged) = failed {
                self.steps += u64::from(charged);
                return;
            }
        }
        // The steps are counted in the run and added to the generation's when it ends.
        let mut steps = 0u32;
        self.exec(b, (start, from, kind), at, &mut steps);
        self.steps += u64::from(steps);
    }

    /// The steps to charge when the tests of guard `g` after its first step (to `to`) fail:
    /// the set-up and the tests up to the failing one. `None` when they hold.
    fn guard_fails(&mut self, g: &Guard, to: u32, from: u32, kind: u32) -> Option<u32> {
        let mut cur = to;
        for (i, c) in g.rest.iter().enumerate() {
            let holds = match c {
                Check::Step(d) => {
                    cur = self.link(cur, *d);
                    cur != NONE
                }
                Check::Occupied(bits) => {
                    let at = match self.at(cur) {
                        None => 1,
                        Some(p) if p.owner == self.player => 2,
                        Some(_) => 4,
                    };
                    bits & at != 0
                }
                Check::Holds(c) => self.eval(c, &Run::new(cur, from, kind)),
            };
            if !holds {
                return Some(g.setup + i as u32 + 2);
            }
        }
        None
    }

    /// Runs block `b` from `start` (origin `from`, piece type `kind`), counting its steps.
    fn exec(
        &mut self,
        b: &Block,
        (start, from, kind): (u32, u32, u32),
        at: (usize, bool),
        steps: &mut u32,
    ) {
        let mut r = Run::new(start, from, kind);
        (r.actions, r.pos_flags) = std::mem::take(&mut self.spare);
        self.exec_run(b, &mut r, at, steps);
        r.actions.clear();
        r.pos_flags.clear();
        self.spare = (r.actions, r.pos_flags);
    }

    /// Runs block `b` on `r`, counting its steps.
    fn exec_run(&mut self, b: &Block, r: &mut Run, (block, drop): (usize, bool), steps: &mut u32) {
        let kind = r.kind;
        let ops = &b.ops;
        let limit = self.rules.step_limit;
        let mut pc = 0usize;
        while pc < ops.len() {
            *steps += 1;
            if *steps > limit {
                self.overrun.get_or_insert(Overrun { kind, block, drop });
                return;
            }
            if *steps & 0xFFFF == 0 && self.rules.interrupted() {
                self.cut = Some(Cut::Interrupted);
                return;
            }
            let mut next = pc + 1;
            match &ops[pc] {
                Op::Step(d) => {
                    let n = self.link(r.cur, *d);
                    if n == NONE {
                        return;
                    }
                    r.cur = n;
                }
                Op::Jump(p) => r.cur = *p,
                Op::Mark => r.mark = r.cur,
                Op::Back => {
                    if r.mark == NONE {
                        return;
                    }
                    r.cur = r.mark;
                }
                Op::From => {
                    r.from = r.cur;
                    if let Some(p) = self.at(r.cur) {
                        r.kind = p.kind;
                    }
                }
                Op::To => r.to = r.cur,
                Op::GoFrom => {
                    if r.from == NONE {
                        return;
                    }
                    r.cur = r.from;
                }
                Op::GoTo => {
                    if r.to == NONE {
                        return;
                    }
                    r.cur = r.to;
                }
                Op::Verify(c) => {
                    if !self.eval(c, r) {
                        return;
                    }
                }
                Op::IfNot(c, t) => {
                    if !self.eval(c, r) {
                        next = *t;
                    }
                }
                Op::Goto(t) => next = *t,
                Op::Add {
                    promote,
                    partial,
                    copy,
                    move_type,
                } => {
                    self.emit(
                        r,
                        b.move_type,
                        promote,
                        *copy,
                        partial.then_some(*move_type),
                    );
                    if self.done() {
                        return;
                    }
                    // The program goes on from the board as it was, but the captures,
                    // creations and changes made before this `add` belong to the move it
                    // completed: later moves start without them (Shafran's Checkers
                    // `King a1 - a4 @ a2 0 1`, Focus `White w z7` once, Mana `= Ronin on c2`
                    // once). Piece movements (`cascade`) stay.
                    r.actions.retain(|a| matches!(a, Action::Move { .. }));
                }
                Op::Capture(_)
                | Op::Cascade
                | Op::Create { .. }
                | Op::Flip(_)
                | Op::ChangeOwner(_)
                | Op::ChangeType(..)
                | Op::SetAttr(..) => {
                    if !self.change(&ops[pc], r) {
                        return;
                    }
                }
                Op::Loop(i) => match self.pure_loop(b, *i, r, steps, (kind, block, drop)) {
                    Some(exit) => next = exit,
                    None => return,
                },
                Op::SetFlag(f, c) => {
                    let v = self.eval(c, r);
                    r.flags = (r.flags & !(1u64 << (f % 64))) | ((v as u64) << (f % 64));
                }
                Op::SetPosFlag(f, c, l) => {
                    let v = self.eval(c, r);
                    let at = self.loc(*l, r);
                    if at == NONE {
                        // Off the board: nothing to mark, and the move goes on (Bolotoudou's
                        // `check-side` marks both neighbours of an edge square).
                        pc = next;
                        continue;
                    }
                    r.pos_flags.retain(|&(p, g, _)| (p, g) != (at, *f));
                    r.pos_flags.push((at, *f, v));
                }
                Op::SetState(k, v) => r.states.push((*k, *v)),
                Op::ClearState => r.states.clear(),
                Op::Fail => return,
                Op::FlagIf { .. } | Op::Near { .. } | Op::Flags(_) | Op::Branch { .. } => {
                    match self.fused(&ops[pc], r, steps, Overrun { kind, block, drop }) {
                        Some(jump) => next = jump.unwrap_or(next),
                        None => return,
                    }
                }
            }
            pc = next;
        }
    }

    /// Runs a fused operation (see [`super::fuse`]) and counts the steps it stands for: the
    /// operation it jumps to (`None`: the next), or `None` when the block ends (past the step
    /// limit, reported as `at`).
    #[inline(always)]
    fn fused(
        &mut self,
        op: &Op,
        r: &mut Run,
        steps: &mut u32,
        at: Overrun,
    ) -> Option<Option<usize>> {
        match self.run_fused(op, r) {
            Fused::End(extra) => {
                self.charge(steps, extra, at);
                None
            }
            Fused::Go(jump, extra) => (extra == 0 || self.charge(steps, extra, at)).then_some(jump),
        }
    }

    /// Runs a fused operation on `r`: where the block goes on, and the steps of the operations
    /// it stands for beyond its own.
    #[inline(always)]
    fn run_fused(&mut self, op: &Op, r: &mut Run) -> Fused {
        match op {
            Op::FlagIf {
                flag,
                cond,
                then,
                else_,
            } => {
                let v = self.eval(cond, r);
                set_flag_if(&mut r.flags, *flag, v, *then, *else_);
                Fused::Go(None, u32::from(else_.is_some()) + u32::from(v))
            }
            Op::Near { dir, skip } => match (self.link(r.cur, *dir), skip) {
                (NONE, Some(t)) => Fused::Go(Some(*t as usize), 0),
                (NONE, None) => Fused::End(1),
                (_, skip) => {
                    r.mark = r.cur;
                    Fused::Go(None, 2 + u32::from(skip.is_some()))
                }
            },
            Op::Flags(sets) => {
                // The steps of the operations the settings stand for, as they would run.
                let mut n = 0u32;
                for s in sets.iter() {
                    let v = if let Some((dir, skip)) = s.near {
                        let near = self.link(r.cur, dir);
                        if near == NONE {
                            if skip {
                                n += 1;
                                continue;
                            }
                            return Fused::End(n + 1);
                        }
                        r.mark = r.cur;
                        n += 3 + u32::from(skip);
                        // The condition reads the neighbour as the current position.
                        let cur = std::mem::replace(&mut r.cur, near);
                        let v = self.eval(&s.cond, r);
                        r.cur = cur;
                        v
                    } else {
                        self.eval(&s.cond, r)
                    };
                    set_flag_if(&mut r.flags, s.flag, v, s.then, s.else_);
                    n += 1 + u32::from(s.else_.is_some()) + u32::from(v);
                }
                Fused::Go(None, n - 1)
            }
            Op::Branch { cond, then, else_ } => {
                let t = if self.eval(cond, r) { *then } else { *else_ };
                Fused::Go(Some(t as usize), 1)
            }
            _ => Fused::Go(None, 0),
        }
    }

    /// Runs the pure loop `i` of block `b` entered with `r` (its head already counted in
    /// `steps`), from what an earlier entry in the same state did when there is one (not while
    /// reads are recorded). The steps are counted as if the loop ran. Returns the operation
    /// after the loop, or `None` when the block ends there (the step limit is reported).
    fn pure_loop(
        &mut self,
        b: &Block,
        i: u32,
        r: &mut Run,
        steps: &mut u32,
        (kind, block, drop): (u32, usize, bool),
    ) -> Option<usize> {
        let reg = &b.regions[i as usize];
        let key = (
            reg.id,
            r.cur,
            if reg.reads_mark { r.mark } else { NONE },
            r.flags & reg.flags,
        );
        let known = self.reads.is_none().then(|| self.memo.get(&key).copied());
        let walked = match known.flatten() {
            Some(w) => w,
            None => {
                let w = self.walk(reg, &b.ops, r)?;
                if self.reads.is_none() {
                    self.memo.insert(key, w);
                }
                w
            }
        };
        // The steps before the loop's head, and the limit.
        let (before, limit) = (*steps - 1, self.rules.step_limit);
        if u64::from(before) + u64::from(walked.steps) > u64::from(limit) {
            *steps = limit + 1;
            self.overrun.get_or_insert(Overrun { kind, block, drop });
            return None;
        }
        *steps = before + walked.steps;
        let (next, cur, mark, flags) = walked.exit?;
        let next = reg.start.wrapping_add(next);
        r.cur = cur;
        if reg.reads_mark {
            r.mark = mark;
        }
        r.flags = (r.flags & !reg.flags) | (flags & reg.flags);
        Some(next)
    }

    /// Runs a pure loop on `r` until it leaves the loop, ends the block, or runs more steps
    /// than a block may; `None` when interrupted.
    fn walk(&mut self, reg: &Region, ops: &[Op], r: &mut Run) -> Option<Walked> {
        let mut pc = reg.start;
        let mut n = 0u32;
        let limit = self.rules.step_limit;
        let stop = |n: u32| {
            Some(Walked {
                steps: n,
                exit: None,
            })
        };
        while (reg.start..=reg.end).contains(&pc) {
            n += 1;
            if n > limit {
                return stop(n);
            }
            if n & 0xFFFF == 0 && self.rules.interrupted() {
                self.cut = Some(Cut::Interrupted);
                return None;
            }
            if pc == reg.start
                && let Some(s) = &reg.scan
                && n + 4 <= limit
                && (n + 4) & 0xFFFF >= 4
            {
                // One pass of a scan, counted as its operations (the head, counted above, the
                // step, the flag setting, the jump back); near the step limit or an
                // interruption check, the operations run one by one instead.
                let next = self.link(r.cur, s.dir);
                if next == NONE {
                    pc = s.exit;
                    continue;
                }
                r.cur = next;
                let v = self.eval(&s.cond, r);
                set_flag_if(&mut r.flags, s.flag, v, s.then, None);
                n += 3 + u32::from(v);
                continue;
            }
            let op = if pc == reg.start { &reg.head } else { &ops[pc] };
            pc += 1;
            match op {
                Op::Step(d) => {
                    r.cur = self.link(r.cur, *d);
                    if r.cur == NONE {
                        return stop(n);
                    }
                }
                Op::Jump(p) => r.cur = *p,
                Op::Mark => r.mark = r.cur,
                Op::Back if r.mark == NONE => return stop(n),
                Op::Back => r.cur = r.mark,
                Op::Verify(c) if !self.eval(c, r) => return stop(n),
                Op::IfNot(c, t) if !self.eval(c, r) => pc = *t,
                Op::Goto(t) => pc = *t,
                Op::SetFlag(f, c) => {
                    let v = self.eval(c, r);
                    r.flags = (r.flags & !(1u64 << (f % 64))) | ((v as u64) << (f % 64));
                }
                Op::Fail => return stop(n),
                Op::FlagIf { .. } | Op::Near { .. } | Op::Flags(_) | Op::Branch { .. } => {
                    match self.run_fused(op, r) {
                        Fused::End(k) => return stop(n + k),
                        Fused::Go(jump, k) => {
                            n += k;
                            if let Some(t) = jump {
                                pc = t;
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        Some(Walked {
            steps: n,
            exit: Some((pc.wrapping_sub(reg.start), r.cur, r.mark, r.flags)),
        })
    }

    /// Records a capture, a `cascade`, a creation or a change of a piece (`create`, `flip`,
    /// `change-owner`, `change-type`, `set-attribute`); false when the position of a creation
    /// or change is off the board, which ends the block.
    fn change(&mut self, op: &Op, r: &mut Run) -> bool {
        match op {
            Op::Capture(l) => {
                let at = self.loc(*l, r);
                // Off the board: nothing to capture, and the move goes on (Bifrost's Surtr
                // burns all eight neighbours of d1, three of them off the board; ZoG writes
                // `SurtrR c3 - d1 Dark Mount c3 x e2 = SurtrA on d1`). Capturing a position
                // twice captures once (a flying king's loop repeats its capture; ZoG
                // records `x pos` once).
                if at != NONE && !r.actions.contains(&Action::Capture { at }) {
                    r.actions.push(Action::Capture { at });
                }
            }
            Op::Cascade => {
                let to = if r.to != NONE { r.to } else { r.cur };
                if r.from != NONE {
                    r.actions.push(Action::Move {
                        from: r.from,
                        to,
                        promote: None,
                    });
                }
                r.from = r.cur;
                r.to = NONE;
                if let Some(p) = self.at(r.cur) {
                    r.kind = p.kind;
                }
            }
            Op::Create { owner, kind, at } => {
                let at = self.loc(*at, r);
                if at == NONE {
                    return false;
                }
                // Creating on a position twice creates once, the later piece (Helheim's
                // `create-hel` runs for every frozen enemy; ZoG writes `Dark HelR f4` once).
                r.actions.retain(
                    |a| !matches!(a, Action::Place { at: p, from_hand: false, .. } if *p == at),
                );
                r.actions.push(Action::Place {
                    at,
                    owner: owner.unwrap_or(self.player),
                    kind: kind.unwrap_or(r.kind),
                    from_hand: false,
                });
            }
            Op::Flip(l) => {
                let at = self.loc(*l, r);
                if at == NONE {
                    return false;
                }
                r.actions.push(Action::Flip { at });
            }
            Op::ChangeOwner(l) => {
                let at = self.loc(*l, r);
                if at == NONE {
                    return false;
                }
                // A position changed twice in one move is changed once (see `ChangeType`).
                r.actions
                    .retain(|a| !matches!(a, Action::ChangeOwner { at: p, .. } if *p == at));
                r.actions.push(Action::ChangeOwner {
                    at,
                    owner: self.player,
                });
            }
            Op::ChangeType(k, l) => {
                let at = self.loc(*l, r);
                if at == NONE {
                    return false;
                }
                // A position changed twice in one move is changed once, by the later change
                // (Northern Kings: a flying king's loop repeats `change-type` at the jumped
                // square; ZoG writes `= Checker on e5 @ e5 0 1` once).
                r.actions
                    .retain(|a| !matches!(a, Action::ChangeType { at: p, .. } if *p == at));
                r.actions.push(Action::ChangeType { at, kind: *k });
            }
            Op::SetAttr(a, c, l) => {
                let v = self.eval(c, r);
                let at = self.loc(*l, r);
                if at == NONE {
                    return false;
                }
                // Every write is kept, in order: ZoG writes `@ h7 2 0` twice when a move
                // sets the attribute twice (the last write decides the value).
                r.actions.push(Action::SetAttr {
                    at,
                    attr: *a,
                    value: v,
                });
            }
            _ => {}
        }
        true
    }

    fn emit(
        &mut self,
        r: &Run,
        block_type: Option<u32>,
        promote: &[u32],
        copy: bool,
        partial: Option<Option<u32>>,
    ) {
        let dest = if r.to != NONE { r.to } else { r.cur };
        if let Sink::Hit { pos, found } = &mut self.sink {
            let hit = |a: &Action| matches!(*a, Action::Capture { at } if at == *pos);
            // A piece that this move lifts away is not taken where another lands (a swap:
            // `cascade` onto it, then the move carries it off).
            let lifted = r.from == *pos
                || r.actions
                    .iter()
                    .any(|a| matches!(*a, Action::Move { from, .. } if from == *pos));
            if r.actions.iter().any(hit)
                || (dest == *pos && r.from != dest)
                || (!lifted
                    && r.actions.iter().any(
                        |a| matches!(*a, Action::Move { from, to, .. } if to == *pos && from != to),
                    ))
            {
                *found = true;
            }
            return;
        }
        if let Sink::Count(n, typed) = &mut self.sink {
            let k = promote.len().max(1) as u64;
            *n += k;
            self.made = self.made.saturating_add(k as usize);
            if let Some(typed) = typed {
                typed[block_type.map_or(0, |t| t as usize + 1)] += k;
            }
            return;
        }
        let plain = promote.is_empty().then_some(None);
        for promote in plain.into_iter().chain(promote.iter().map(|&k| Some(k))) {
            let last = if r.from == NONE {
                Action::Place {
                    at: dest,
                    owner: self.player,
                    kind: promote.unwrap_or(r.kind),
                    from_hand: true,
                }
            } else if copy {
                Action::Copy {
                    from: r.from,
                    to: dest,
                    promote,
                }
            } else {
                Action::Move {
                    from: r.from,
                    to: dest,
                    promote,
                }
            };
            if self.pass.is_some_and(|pass| pass(&r.actions, &last)) {
                self.passed += 1;
                self.made = self.made.saturating_add(1);
                continue;
            }
            let mut actions = spare_actions();
            actions.extend_from_slice(&r.actions);
            actions.push(last);
            for &(key, value) in &r.states {
                actions.push(Action::SetState { key, value });
            }
            let m = Move {
                player: self.player,
                kind: r.kind,
                from: (r.from != NONE).then_some(r.from),
                to: Some(dest),
                actions,
                move_type: block_type,
                partial,
            };
            if let Sink::Collect(v) = &mut self.sink {
                v.push(m);
                self.made = self.made.saturating_add(1);
            }
        }
    }

    #[inline]
    fn loc(&self, l: Loc, r: &Run) -> u32 {
        match l {
            Loc::Cur => r.cur,
            Loc::Dir(d) => self.link(r.cur, d),
            Loc::Pos(p) => p,
        }
    }

    /// Whether `c` holds: the commonest tests where the interpreter asks (inlined, so each
    /// place has its own branch history), the others in [`Gen::eval_any`].
    #[inline(always)]
    fn eval(&mut self, c: &C, r: &Run) -> bool {
        match c {
            C::Not(c) => !self.eval_leaf(c, r),
            c => self.eval_leaf(c, r),
        }
    }

    /// [`Gen::eval`] but for a `not`.
    #[inline(always)]
    fn eval_leaf(&mut self, c: &C, r: &Run) -> bool {
        match c {
            C::Test(t @ (TestKind::Empty | TestKind::Friend | TestKind::Enemy), l) => {
                let pos = self.loc(*l, r);
                pos != NONE
                    && match (self.at(pos), t) {
                        (None, TestKind::Empty) => true,
                        (None, _) | (Some(_), TestKind::Empty) => false,
                        (Some(p), TestKind::Friend) => p.owner == self.player,
                        (Some(p), _) => p.owner != self.player,
                    }
            }
            C::Piece(k, l) => {
                let pos = self.loc(*l, r);
                pos != NONE && self.at(pos).is_some_and(|p| p.kind == *k)
            }
            C::AnyPiece(ks, l) => {
                let pos = self.loc(*l, r);
                pos != NONE && self.at(pos).is_some_and(|p| ks.contains(&p.kind))
            }
            C::Owned(enemy, ks, l) => self.owned(*enemy, ks, *l, r),
            C::InZone(z, l) => {
                let pos = self.loc(*l, r);
                pos != NONE && self.in_zone(*z, pos)
            }
            C::Attr(a, l) => {
                let pos = self.loc(*l, r);
                pos != NONE && self.at(pos).is_some_and(|p| p.attrs & (1 << a) != 0)
            }
            C::OnBoard(Some(d)) => self.link(r.cur, *d) != NONE,
            C::Flag(f) => r.flags & (1u64 << (f % 64)) != 0,
            _ => self.eval_any(c, r),
        }
    }

    /// Whether [`C::Owned`] holds.
    #[inline(always)]
    fn owned(&mut self, enemy: bool, ks: &[u32], l: Loc, r: &Run) -> bool {
        let pos = self.loc(l, r);
        pos != NONE
            && self
                .at(pos)
                .is_some_and(|p| (p.owner != self.player) == enemy && ks.contains(&p.kind))
    }

    /// Whether `pos` is in zone `z` as the player owns it.
    #[inline(always)]
    fn in_zone(&self, z: u32, pos: u32) -> bool {
        let players = self.rules.players.len();
        self.rules.zone_flat
            [(z as usize * players + self.player as usize) * self.npos + pos as usize]
    }

    /// [`Gen::eval`] of any condition.
    #[inline(never)]
    fn eval_any(&mut self, c: &C, r: &Run) -> bool {
        match c {
            C::Const(b) => *b,
            C::Test(t, l) => {
                let pos = self.loc(*l, r);
                pos != NONE && self.test(*t, pos, r)
            }
            C::AnyPiece(ks, l) => {
                let pos = self.loc(*l, r);
                pos != NONE && self.at(pos).is_some_and(|p| ks.contains(&p.kind))
            }
            C::Piece(k, l) => {
                let pos = self.loc(*l, r);
                pos != NONE && self.at(pos).is_some_and(|p| p.kind == *k)
            }
            C::InZone(z, l) => {
                let pos = self.loc(*l, r);
                pos != NONE && self.in_zone(*z, pos)
            }
            C::Owned(enemy, ks, l) => self.owned(*enemy, ks, *l, r),
            C::OnBoard(None) => r.cur != NONE && !self.rules.dummy[r.cur as usize],
            C::OnBoard(Some(d)) => self.link(r.cur, *d) != NONE,
            C::Position(p) => r.cur == *p,
            C::Flag(f) => r.flags & (1u64 << (f % 64)) != 0,
            C::PosFlag(f, l) => {
                let pos = self.loc(*l, r);
                r.pos_flags
                    .iter()
                    .any(|&(p, g, v)| p == pos && g == *f && v)
            }
            C::Attr(a, l) => {
                let pos = self.loc(*l, r);
                pos != NONE && self.at(pos).is_some_and(|p| p.attrs & (1 << a) != 0)
            }
            C::State(k, v) => {
                if let Some(r) = &mut self.reads {
                    r.opaque = true;
                }
                let i = self.player as usize * self.rules.state_keys.len() + *k as usize;
                self.st.regs.get(i).copied().unwrap_or(0) == *v
            }
            C::Not(c) => !self.eval(c, r),
            C::And(v) => v.iter().all(|c| self.eval(c, r)),
            C::Or(v) => v.iter().any(|c| self.eval(c, r)),
        }
    }

    fn test(&mut self, t: TestKind, pos: u32, r: &Run) -> bool {
        match t {
            TestKind::Empty => self.at(pos).is_none(),
            TestKind::Friend => self.at(pos).is_some_and(|p| p.owner == self.player),
            TestKind::Enemy => self.at(pos).is_some_and(|p| p.owner != self.player),
            TestKind::Neutral => false,
            TestKind::LastFrom | TestKind::LastTo => {
                if let Some(r) = &mut self.reads {
                    r.opaque = true;
                }
                let last = if t == TestKind::LastFrom {
                    self.st.last_from
                } else {
                    self.st.last_to
                };
                pos == last
            }
            TestKind::Marked => pos == r.mark,
            TestKind::Attacked(mt) => {
                let me = self.player;
                self.depth == 0 && attacked(self.rules, self.st, pos, me, |o| o != me, mt, 1)
            }
            TestKind::Defended(mt) => {
                let me = self.player;
                self.depth == 0 && attacked(self.rules, self.st, pos, me, |o| o == me, mt, 1)
            }
            TestKind::AdjacentToEnemy => (0..self.rules.ndirs() as u32).any(|d| {
                let n = self.link(pos, d);
                n != NONE && self.at(n).is_some_and(|p| p.owner != self.player)
            }),
        }
    }
}

thread_local! {
    /// Lists of changes of moves no longer needed, cleared, for the next moves generated on
    /// this thread (perft makes and drops millions of moves: they reuse a few hundred lists).
    static SPARE: std::cell::RefCell<Vec<Vec<Action>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Most spare lists kept.
const MAX_SPARE: usize = 4096;

/// An empty list of changes, reused when one is spare.
fn spare_actions() -> Vec<Action> {
    SPARE.with_borrow_mut(|s| s.pop()).unwrap_or_default()
}

/// Keeps the lists of changes of moves no longer needed for the next moves generated.
pub(crate) fn recycle(moves: impl IntoIterator<Item = Move>) {
    SPARE.with_borrow_mut(|s| {
        for m in moves {
            if s.len() >= MAX_SPARE {
                break;
            }
            let mut a = m.actions;
            if a.capacity() > 0 {
                a.clear();
                s.push(a);
            }
        }
    });
}

/// What a fused operation did ([`Gen::run_fused`]).
enum Fused {
    /// The block goes on (at this operation, or the next), after these extra steps.
    Go(Option<usize>, u32),
    /// The block ends, after these extra steps.
    End(u32),
}

/// Sets `flag` in `flags` as [`Op::FlagIf`] does, given its condition's value `v`.
#[inline]
fn set_flag_if(flags: &mut u64, flag: u32, v: bool, then: bool, else_: Option<bool>) {
    let value = if v { Some(then) } else { else_ };
    if let Some(value) = value {
        let bit = 1u64 << (flag % 64);
        *flags = (*flags & !bit) | (u64::from(value) * bit);
    }
}

/// Whether a piece owned by a player that `by` accepts has a move (of type `mtype`, when
/// given) that captures at `pos` or moves onto it, with `pos` occupied by a piece of `owner`:
/// an empty position is probed with a stand-in piece on it, as Dagaz reads ZoG's `attacked?`,
/// so moves that need an empty destination do not count.
pub(crate) fn attacked(
    rules: &Rules,
    st: &State,
    pos: u32,
    owner: u32,
    by: impl Fn(u32) -> bool,
    mtype: Option<u32>,
    depth: u8,
) -> bool {
    attacked_reading(rules, st, (pos, owner), by, mtype, depth, &mut None)
}

/// [`attacked`], recording in `reads` (when given) what the attackers' programs read. The
/// positions of possible attackers are looked at without being recorded: only a move that
/// brings an attacker there (the opponent's piece moved, created or changed) can change them.
pub(crate) fn attacked_reading(
    rules: &Rules,
    st: &State,
    (pos, owner): (u32, u32),
    by: impl Fn(u32) -> bool,
    mtype: Option<u32>,
    depth: u8,
    reads: &mut Option<Reads>,
) -> bool {
    let probe = st.board[pos as usize].is_none().then_some((
        pos,
        Piece {
            owner,
            kind: 0,
            attrs: 0,
        },
    ));
    let board = |s: u32| match probe {
        Some((q, p)) if q == s => Some(p),
        _ => st.board[s as usize],
    };
    let mut run = |s: u32, owner: u32, blocks: u64| {
        let mut g = Gen::new(rules, st, owner, Sink::Hit { pos, found: false });
        g.depth = depth;
        g.only_type = mtype;
        g.probe = probe;
        g.reads = reads.take();
        g.watched = g.probe.is_some() || g.reads.is_some();
        g.piece_blocks(s, None, blocks);
        *reads = g.reads.take();
        if g.overrun.is_some()
            && let Some(r) = reads
        {
            r.opaque = true;
        }
        matches!(g.sink, Sink::Hit { found: true, .. })
    };
    let index = rules.reach();
    for s in 0..st.board.len() as u32 {
        if let Some(p) = board(s)
            && by(p.owner)
        {
            let blocks = index.blocks(rules, (s, p.kind, p.owner), pos);
            if blocks != 0 && run(s, p.owner, blocks) {
                return true;
            }
        }
    }
    false
}
