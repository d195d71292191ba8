//! The attack index: for every position, the (origin, piece type, owner) triples whose programs
//! could ever hit it, found once by running every program with all conditions both ways.
//!
//! An attack test then runs only the programs of pieces that stand on such an origin, instead
//! of every enemy program. The index over-approximates (conditions are ignored), so the exact
//! answer still comes from running those programs; it never misses an attacker.

use super::rules::{Block, Loc, NONE, Op, Rules};
use rustc_hash::FxHashSet;

/// Most abstract states one block may visit from one origin before it is assumed to reach
/// everywhere.
const MAX_STATES: usize = 20_000;
/// Most index entries in all; a larger game runs attack tests without the index.
const MAX_ENTRIES: usize = 8_000_000;

/// Origins that may hit each position.
#[derive(Debug, Clone, Default)]
pub struct ReachIndex {
    by_target: Vec<Vec<(u32, u32, u32)>>,
    anywhere: Vec<(u32, u32, u32)>,
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
        let mut hits = FxHashSet::default();
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
                    let mut everywhere = false;
                    for b in &kind.moves {
                        everywhere |= !abstract_hits(rules, owner, b, s, &mut hits, &mut scratch);
                    }
                    let e = (s, k as u32, owner);
                    if everywhere {
                        idx.anywhere.push(e);
                        continue;
                    }
                    entries += hits.len();
                    if entries > MAX_ENTRIES {
                        return None;
                    }
                    for &t in &hits {
                        idx.by_target[t as usize].push(e);
                    }
                }
            }
        }
        Some(idx)
    }

    /// The (origin, kind, owner) triples that may hit `pos`.
    pub(crate) fn origins(&self, pos: u32) -> impl Iterator<Item = &(u32, u32, u32)> {
        self.by_target[pos as usize].iter().chain(&self.anywhere)
    }
}

/// An abstract state: (pc, cur, mark, to, from).
type AState = (usize, u32, u32, u32, u32);

/// Sets reused from one block to the next, so their tables are grown once, not per block.
#[derive(Default)]
struct Scratch {
    seen: FxHashSet<AState>,
    work: Vec<AState>,
}

/// Adds to `hits` every position the block could capture at or move a piece onto, starting at
/// `s`; false when the block visits too many states to tell.
fn abstract_hits(
    rules: &Rules,
    owner: u32,
    b: &Block,
    s: u32,
    hits: &mut FxHashSet<u32>,
    scratch: &mut Scratch,
) -> bool {
    let Scratch { seen, work } = scratch;
    seen.clear();
    work.clear();
    work.push((0usize, s, NONE, NONE, s));
    while let Some(st) = work.pop() {
        if !seen.insert(st) {
            continue;
        }
        if seen.len() > MAX_STATES {
            return false;
        }
        let (pc, cur, mark, to, from) = st;
        let Some(op) = b.ops.get(pc) else {
            continue;
        };
        let loc = |l: &Loc| match *l {
            Loc::Cur => cur,
            Loc::Dir(d) => rules.link(owner, cur, d),
            Loc::Pos(p) => p,
        };
        let mut go = |pc: usize, cur: u32, mark: u32, to: u32, from: u32| {
            if cur != NONE {
                work.push((pc, cur, mark, to, from));
            }
        };
        match op {
            Op::Step(d) => go(pc + 1, rules.link(owner, cur, *d), mark, to, from),
            Op::Jump(p) => go(pc + 1, *p, mark, to, from),
            Op::Mark => go(pc + 1, cur, cur, to, from),
            Op::Back => go(pc + 1, mark, mark, to, from),
            Op::From => go(pc + 1, cur, mark, to, cur),
            Op::To => go(pc + 1, cur, mark, cur, from),
            Op::GoFrom => go(pc + 1, from, mark, to, from),
            Op::GoTo => go(pc + 1, to, mark, to, from),
            Op::IfNot(_, t) => {
                go(pc + 1, cur, mark, to, from);
                go(*t, cur, mark, to, from);
            }
            Op::Goto(t) => go(*t, cur, mark, to, from),
            Op::Add { .. } => {
                hits.insert(if to != NONE { to } else { cur });
                go(pc + 1, cur, mark, to, from);
            }
            Op::Capture(l) => {
                let at = loc(l);
                if at != NONE {
                    hits.insert(at);
                }
                go(pc + 1, cur, mark, to, from);
            }
            Op::Cascade => {
                hits.insert(if to != NONE { to } else { cur });
                go(pc + 1, cur, mark, NONE, cur);
            }
            Op::Fail => {}
            _ => go(pc + 1, cur, mark, to, from),
        }
    }
    true
}
