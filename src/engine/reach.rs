//! The attack index: for every position, the origins (position, piece type, owner) and the
//! move blocks of that piece whose programs could ever hit it, found once by running every
//! program abstractly.
//!
//! An attack test then runs only those blocks of pieces that stand on such an origin, instead
//! of every enemy program. The index over-approximates: conditions that depend only on
//! positions (`in-zone?`, `on-board?`, `position?`, constants) are decided, and so are tests of
//! the origin itself (the attacker stands there); every other condition is taken both ways. A
//! hit on a position the path has verified `empty?` is left out, since an attack test always
//! probes an occupied position. The exact answer still comes from running the blocks; the index
//! never misses an attacker.

use super::rules::{Block, C, Loc, NONE, Op, Rules, TestKind};
use rustc_hash::{FxHashMap, FxHashSet};

/// Most abstract states one block may visit from one origin before it is assumed to reach
/// everywhere.
const MAX_STATES: usize = 20_000;
/// Most index entries in all; a larger game runs attack tests without the index.
const MAX_ENTRIES: usize = 8_000_000;

/// A piece that may attack a position: where it stands, its type and owner, and which of its
/// move blocks may hit (bit `min(i, 63)` for block `i`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Origin {
    pub pos: u32,
    pub kind: u32,
    pub owner: u32,
    pub blocks: u64,
}

/// The bit of block `i` in [`Origin::blocks`].
#[inline]
pub(crate) fn block_bit(i: usize) -> u64 {
    1u64 << i.min(63)
}

/// Origins that may hit each position.
#[derive(Debug, Clone, Default)]
pub struct ReachIndex {
    by_target: Vec<Vec<Origin>>,
    anywhere: Vec<Origin>,
}

impl ReachIndex {
    /// Builds the index, or `None` when it would be larger than [`MAX_ENTRIES`].
    pub(crate) fn build(rules: &Rules) -> Option<ReachIndex> {
        let np = rules.npos();
        let mut idx = ReachIndex {
            by_target: vec![Vec::new(); np],
            anywhere: Vec::new(),
        };
        let mut entries = 0usize;
        let mut hits: FxHashMap<u32, u64> = FxHashMap::default();
        let mut block_hits = FxHashSet::default();
        let mut scratch = Scratch::default();
        for owner in 0..rules.players.len() as u32 {
            for (k, kind) in rules.kinds.iter().enumerate() {
                if kind.moves.is_empty() {
                    continue;
                }
                for s in 0..np as u32 {
                    if rules.killed[s as usize] {
                        continue;
                    }
                    hits.clear();
                    let mut everywhere = 0u64;
                    for (i, b) in kind.moves.iter().enumerate() {
                        block_hits.clear();
                        let origin = (s, k as u32, owner);
                        if !abstract_hits(rules, origin, b, &mut block_hits, &mut scratch) {
                            everywhere |= block_bit(i);
                            continue;
                        }
                        for &t in &block_hits {
                            *hits.entry(t).or_default() |= block_bit(i);
                        }
                    }
                    let e = |blocks| Origin {
                        pos: s,
                        kind: k as u32,
                        owner,
                        blocks,
                    };
                    if everywhere != 0 {
                        idx.anywhere.push(e(everywhere));
                    }
                    entries += hits.len();
                    if entries > MAX_ENTRIES {
                        return None;
                    }
                    for (&t, &blocks) in &hits {
                        idx.by_target[t as usize].push(e(blocks));
                    }
                }
            }
        }
        // Origins in position order, so attack tests read the board in a steady order.
        for v in &mut idx.by_target {
            v.sort_unstable_by_key(|o| (o.pos, o.kind, o.owner));
        }
        Some(idx)
    }

    /// The origins that may hit `pos`.
    pub(crate) fn origins(&self, pos: u32) -> impl Iterator<Item = &Origin> {
        self.by_target[pos as usize].iter().chain(&self.anywhere)
    }
}

/// An abstract state: (pc, cur, mark, to, from, a position known to be empty).
type AState = (usize, u32, u32, u32, u32, u32);

/// Sets reused from one block to the next, so their tables are grown once, not per block.
#[derive(Default)]
struct Scratch {
    seen: FxHashSet<AState>,
    work: Vec<AState>,
}

/// What is known of a condition from positions alone: `Some(value)`, or `None` when it depends
/// on the board.
fn decide(rules: &Rules, (s, kind, owner): (u32, u32, u32), c: &C, cur: u32) -> Option<bool> {
    let loc = |l: &Loc| match *l {
        Loc::Cur => cur,
        Loc::Dir(d) => rules.link(owner, cur, d),
        Loc::Pos(p) => p,
    };
    match c {
        C::Const(b) => Some(*b),
        C::InZone(z, l) => {
            let pos = loc(l);
            Some(pos != NONE && rules.zones[*z as usize][owner as usize][pos as usize])
        }
        C::OnBoard(None) => Some(cur != NONE && !rules.dummy[cur as usize]),
        C::OnBoard(Some(d)) => Some(rules.link(owner, cur, *d) != NONE),
        C::Position(p) => Some(cur == *p),
        // The attacker stands on its origin: the board never changes while a move is made.
        C::Test(t, l) if loc(l) == s => match t {
            TestKind::Empty | TestKind::Enemy | TestKind::Neutral => Some(false),
            TestKind::Friend => Some(true),
            _ => None,
        },
        C::Test(_, l) | C::Piece(_, l) | C::Attr(_, l) if loc(l) == NONE => Some(false),
        C::Piece(k, l) if loc(l) == s => Some(*k == kind),
        C::Not(c) => decide(rules, (s, kind, owner), c, cur).map(|b| !b),
        C::And(v) => {
            let mut all = Some(true);
            for c in v {
                match decide(rules, (s, kind, owner), c, cur) {
                    Some(false) => return Some(false),
                    Some(true) => {}
                    None => all = None,
                }
            }
            all
        }
        C::Or(v) => {
            let mut any = Some(false);
            for c in v {
                match decide(rules, (s, kind, owner), c, cur) {
                    Some(true) => return Some(true),
                    Some(false) => {}
                    None => any = None,
                }
            }
            any
        }
        _ => None,
    }
}

/// The position that `c` having `value` proves empty, if any.
fn proves_empty(rules: &Rules, owner: u32, c: &C, value: bool, cur: u32) -> u32 {
    let loc = |l: &Loc| match *l {
        Loc::Cur => cur,
        Loc::Dir(d) => rules.link(owner, cur, d),
        Loc::Pos(p) => p,
    };
    match (c, value) {
        (C::Test(TestKind::Empty, l), true) => loc(l),
        (C::Not(c), v) => proves_empty(rules, owner, c, !v, cur),
        (C::And(v), true) => v
            .iter()
            .map(|c| proves_empty(rules, owner, c, true, cur))
            .find(|&p| p != NONE)
            .unwrap_or(NONE),
        (C::Or(v), false) => v
            .iter()
            .map(|c| proves_empty(rules, owner, c, false, cur))
            .find(|&p| p != NONE)
            .unwrap_or(NONE),
        _ => NONE,
    }
}

/// Adds to `hits` every position the block could capture at or move a piece onto, for a piece
/// of `kind` and `owner` standing on `s`; false when the block visits too many states to tell.
fn abstract_hits(
    rules: &Rules,
    origin: (u32, u32, u32),
    b: &Block,
    hits: &mut FxHashSet<u32>,
    scratch: &mut Scratch,
) -> bool {
    let (s, _, owner) = origin;
    let Scratch { seen, work } = scratch;
    seen.clear();
    work.clear();
    work.push((0usize, s, NONE, NONE, s, NONE));
    while let Some(st) = work.pop() {
        if !seen.insert(st) {
            continue;
        }
        if seen.len() > MAX_STATES {
            return false;
        }
        let (pc, cur, mark, to, from, empty) = st;
        let Some(op) = b.ops.get(pc) else {
            continue;
        };
        let loc = |l: &Loc| match *l {
            Loc::Cur => cur,
            Loc::Dir(d) => rules.link(owner, cur, d),
            Loc::Pos(p) => p,
        };
        let mut hit = |at: u32| {
            if at != NONE && at != empty {
                hits.insert(at);
            }
        };
        let mut go = |pc: usize, cur: u32, mark: u32, to: u32, from: u32, empty: u32| {
            if cur != NONE {
                work.push((pc, cur, mark, to, from, empty));
            }
        };
        // A new fact of emptiness replaces the old one (both stay true; one is kept).
        let known = |p: u32| if p != NONE { p } else { empty };
        match op {
            Op::Step(d) => go(pc + 1, rules.link(owner, cur, *d), mark, to, from, empty),
            Op::Jump(p) => go(pc + 1, *p, mark, to, from, empty),
            Op::Mark => go(pc + 1, cur, cur, to, from, empty),
            Op::Back => go(pc + 1, mark, mark, to, from, empty),
            Op::From => go(pc + 1, cur, mark, to, cur, empty),
            Op::To => go(pc + 1, cur, mark, cur, from, empty),
            Op::GoFrom => go(pc + 1, from, mark, to, from, empty),
            Op::GoTo => go(pc + 1, to, mark, to, from, empty),
            Op::Verify(c) => {
                if decide(rules, origin, c, cur) != Some(false) {
                    let e = known(proves_empty(rules, owner, c, true, cur));
                    go(pc + 1, cur, mark, to, from, e);
                }
            }
            Op::IfNot(c, t) => {
                let d = decide(rules, origin, c, cur);
                if d != Some(false) {
                    let e = known(proves_empty(rules, owner, c, true, cur));
                    go(pc + 1, cur, mark, to, from, e);
                }
                if d != Some(true) {
                    let e = known(proves_empty(rules, owner, c, false, cur));
                    go(*t, cur, mark, to, from, e);
                }
            }
            Op::Goto(t) => go(*t, cur, mark, to, from, empty),
            Op::Add { .. } => {
                hit(if to != NONE { to } else { cur });
                go(pc + 1, cur, mark, to, from, empty);
            }
            Op::Capture(l) => {
                hit(loc(l));
                go(pc + 1, cur, mark, to, from, empty);
            }
            Op::Cascade => {
                hit(if to != NONE { to } else { cur });
                go(pc + 1, cur, mark, NONE, cur, empty);
            }
            Op::Fail => {}
            _ => go(pc + 1, cur, mark, to, from, empty),
        }
    }
    true
}
