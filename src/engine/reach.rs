//! The attack index: for a piece of a type and owner standing on a position, the positions its
//! move blocks could ever hit and which blocks, found by running its programs abstractly the
//! first time an attack test meets such a piece (so only origins that occur are explored).
//!
//! An attack test then runs only those blocks of the pieces that may hit the position, instead
//! of every enemy program. The index over-approximates: conditions that depend only on
//! positions (`in-zone?`, `on-board?`, `position?`, constants) are decided, and so are tests of
//! the origin itself (the attacker stands there); every other condition is taken both ways. A
//! hit on the current position (or the `to` position) after the path has verified it `empty?`
//! is left out, since an attack test always probes an occupied position. The exact answer
//! still comes from running the blocks; the index never misses an attacker.

use super::rules::{Block, C, Loc, NONE, Op, Rules, TestKind};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::OnceLock;

/// Most abstract states one block may visit from one origin before it is assumed to reach
/// everywhere.
const MAX_STATES: usize = 20_000;

/// The bit of block `i` in a mask of blocks (blocks from 63 on share the last bit).
#[inline]
pub(crate) fn block_bit(i: usize) -> u64 {
    1u64 << i.min(63)
}

/// What the blocks of one piece on one position may hit.
#[derive(Debug, Clone, Default)]
struct Reach {
    /// (target, blocks), sorted by target.
    hits: Vec<(u32, u64)>,
    /// The targets of `hits` as a set of bits (most attack tests ask about a position the
    /// piece cannot hit, and this answers them without a search).
    targets: Box<[u64]>,
    /// Blocks that visit too many states to tell: they may hit anywhere.
    everywhere: u64,
}

/// The blocks of each origin that may hit each position, filled in as origins are met.
#[derive(Debug, Default)]
pub struct ReachIndex {
    npos: usize,
    /// `by_type[owner * kinds + kind]`: one entry per position, allocated on first use.
    by_type: Vec<OnceLock<Box<[OnceLock<Reach>]>>>,
}

impl Clone for ReachIndex {
    fn clone(&self) -> ReachIndex {
        ReachIndex::new_sized(self.npos, self.by_type.len())
    }
}

impl ReachIndex {
    /// An empty index for `rules`.
    pub(crate) fn new(rules: &Rules) -> ReachIndex {
        ReachIndex::new_sized(rules.npos(), rules.players.len() * rules.kinds.len())
    }

    fn new_sized(npos: usize, types: usize) -> ReachIndex {
        ReachIndex {
            npos,
            by_type: (0..types).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The move blocks (as a mask of [`block_bit`]s) of a piece of `kind` and `owner` on `s`
    /// that may hit `target`.
    pub(crate) fn blocks(
        &self,
        rules: &Rules,
        (s, kind, owner): (u32, u32, u32),
        target: u32,
    ) -> u64 {
        let t = owner as usize * rules.kinds.len() + kind as usize;
        let row = self.by_type[t].get_or_init(|| (0..self.npos).map(|_| OnceLock::new()).collect());
        let r = row[s as usize].get_or_init(|| Reach::build(rules, (s, kind, owner)));
        let t = target as usize;
        if r.targets
            .get(t / 64)
            .is_none_or(|w| w & (1 << (t % 64)) == 0)
        {
            return r.everywhere;
        }
        let hit = r
            .hits
            .binary_search_by_key(&target, |h| h.0)
            .map_or(0, |i| r.hits[i].1);
        r.everywhere | hit
    }
}

impl Reach {
    fn build(rules: &Rules, origin: (u32, u32, u32)) -> Reach {
        let mut hits: FxHashMap<u32, u64> = FxHashMap::default();
        let mut block_hits = FxHashSet::default();
        let mut scratch = Scratch::default();
        let mut everywhere = 0u64;
        for (i, b) in rules.kinds[origin.1 as usize].moves.iter().enumerate() {
            block_hits.clear();
            if !abstract_hits(rules, origin, b, &mut block_hits, &mut scratch) {
                everywhere |= block_bit(i);
                continue;
            }
            for &t in &block_hits {
                *hits.entry(t).or_default() |= block_bit(i);
            }
        }
        let mut hits: Vec<(u32, u64)> = hits.into_iter().collect();
        hits.sort_unstable();
        let mut targets = vec![0u64; rules.npos().div_ceil(64)].into_boxed_slice();
        for &(t, _) in &hits {
            targets[t as usize / 64] |= 1 << (t % 64);
        }
        Reach {
            hits,
            targets,
            everywhere,
        }
    }
}

/// An abstract state: (pc, cur, mark, to, from, whether cur (bit 0) and to (bit 1) are known
/// to be empty).
type AState = (usize, u32, u32, u32, u32, u8);

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
        C::Test(_, l) | C::Piece(_, l) | C::AnyPiece(_, l) | C::Owned(_, _, l) | C::Attr(_, l)
            if loc(l) == NONE =>
        {
            Some(false)
        }
        C::Piece(k, l) if loc(l) == s => Some(*k == kind),
        C::AnyPiece(ks, l) if loc(l) == s => Some(ks.contains(&kind)),
        // The attacker is the mover's piece.
        C::Owned(enemy, ks, l) if loc(l) == s => Some(!enemy && ks.contains(&kind)),
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
    work.push((0usize, s, NONE, NONE, s, 0));
    while let Some(st) = work.pop() {
        if !seen.insert(st) {
            continue;
        }
        if seen.len() > MAX_STATES {
            return false;
        }
        let (pc, cur, mark, to, from, empty) = st;
        let op = match b.ops.get(pc) {
            Some(Op::Loop(i)) => &b.regions[*i as usize].head,
            Some(op) => op,
            None => continue,
        };
        let loc = |l: &Loc| match *l {
            Loc::Cur => cur,
            Loc::Dir(d) => rules.link(owner, cur, d),
            Loc::Pos(p) => p,
        };
        // Whether `at` is known to be empty: then no attack test can be hit there.
        let vacant = |at: u32| (at == cur && empty & 1 != 0) || (at == to && empty & 2 != 0);
        let mut hit = |at: u32| {
            if at != NONE && !vacant(at) {
                hits.insert(at);
            }
        };
        let mut go = |pc: usize, cur: u32, mark: u32, to: u32, from: u32, empty: u8| {
            if cur != NONE {
                work.push((pc, cur, mark, to, from, empty));
            }
        };
        // What `c` having `value` adds to what is known empty.
        let learn = |c: &C, value: bool| {
            let p = proves_empty(rules, owner, c, value, cur);
            empty | u8::from(p != NONE && p == cur) | (u8::from(p != NONE && p == to) << 1)
        };
        match op {
            Op::Step(d) => go(
                pc + 1,
                rules.link(owner, cur, *d),
                mark,
                to,
                from,
                empty & 2,
            ),
            Op::Jump(p) => go(pc + 1, *p, mark, to, from, empty & 2),
            Op::Mark => go(pc + 1, cur, cur, to, from, empty),
            Op::Back => go(pc + 1, mark, mark, to, from, empty & 2),
            Op::From => go(pc + 1, cur, mark, to, cur, empty),
            Op::To => go(pc + 1, cur, mark, cur, from, (empty & 1) * 3),
            Op::GoFrom => go(pc + 1, from, mark, to, from, empty & 2),
            Op::GoTo => go(pc + 1, to, mark, to, from, (empty >> 1) * 3),
            Op::Verify(c) => {
                if decide(rules, origin, c, cur) != Some(false) {
                    go(pc + 1, cur, mark, to, from, learn(c, true));
                }
            }
            Op::IfNot(c, t) => {
                let d = decide(rules, origin, c, cur);
                if d != Some(false) {
                    go(pc + 1, cur, mark, to, from, learn(c, true));
                }
                if d != Some(true) {
                    go(*t, cur, mark, to, from, learn(c, false));
                }
            }
            Op::Goto(t) => go(*t, cur, mark, to, from, empty),
            Op::Branch { cond, then, else_ } => {
                let d = decide(rules, origin, cond, cur);
                if d != Some(false) {
                    go(*then as usize, cur, mark, to, from, learn(cond, true));
                }
                if d != Some(true) {
                    go(*else_ as usize, cur, mark, to, from, learn(cond, false));
                }
            }
            Op::Near { dir, skip } => {
                if rules.link(owner, cur, *dir) != NONE {
                    go(pc + 1, cur, cur, to, from, empty);
                } else if let Some(t) = skip {
                    go(*t as usize, cur, mark, to, from, empty);
                }
            }
            Op::Flags(sets) => {
                // Each walk to a neighbour marks the position, or ends the block without a
                // link unless it passes over.
                let mut marked = mark;
                let ends = sets.iter().any(|s| match s.near {
                    Some((dir, _)) if rules.link(owner, cur, dir) != NONE => {
                        marked = cur;
                        false
                    }
                    Some((_, skip)) => !skip,
                    None => false,
                });
                if !ends {
                    go(pc + 1, cur, marked, to, from, empty);
                }
            }
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
                go(pc + 1, cur, mark, NONE, cur, empty & 1);
            }
            Op::Fail => {}
            _ => go(pc + 1, cur, mark, to, from, empty),
        }
    }
    true
}
