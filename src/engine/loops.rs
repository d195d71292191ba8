//! Pure loops: the `while` loops of a block that only walk and test the board and set flags,
//! found when the block is compiled, so the interpreter can run each once per position.
//!
//! A loop such as KoShogi's `check-drum` (`mark a0 (while (on-board? next) next (if … (set-flag
//! drum-exists? true))) back`) walks every position of the board; every pawn's every block runs
//! it, from the same position, on the same board. What such a loop does depends only on where it
//! starts, the flags it touches, the mark (when it reads it) and the board, which is the same
//! for every block run of one generation. So the interpreter keeps each outcome for the
//! generation ([`super::generate`]) and replays it, counting the steps the loop would have run
//! (step limits and work budgets see the same counts as without it). Loops with the same code
//! share their outcomes, whichever block runs them.

use super::rules::{C, Op, TestKind};

/// A pure loop of a block: ops `start..=end` (the `while` test at `start`, its jump back at
/// `end`). Its test is kept here; `ops[start]` is [`Op::Loop`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Region {
    /// The loop's first operation (its `while` test), which `Op::Loop` stands in for.
    pub head: Op,
    pub start: usize,
    pub end: usize,
    /// The flags the loop reads or sets.
    pub flags: u64,
    /// Whether it reads or sets the mark (`mark`, `back`, `marked?`).
    pub reads_mark: bool,
    /// Loops with the same code (in any block of the game) have the same id, and share their
    /// outcomes in one generation.
    pub id: u32,
    /// When the loop is a scan, its parts.
    pub scan: Option<Scan>,
}

/// A scan: `(while (on-board? d) d (if c (set-flag f v)))`, the walk along a direction that
/// sets a flag where a test holds (KoShogi's `check-drum` and `check-tp` over all 361 points).
/// The interpreter runs its passes without a dispatch per operation, counting their steps.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Scan {
    pub dir: u32,
    /// Where the `while` test goes when there is no link.
    pub exit: usize,
    pub flag: u32,
    pub cond: C,
    pub then: bool,
}

/// The [`Scan`] of the loop `start..=end` of `ops` (its head still in place), when it is one.
fn scan(ops: &[Op], start: usize, end: usize) -> Option<Scan> {
    match &ops[start..=end] {
        [
            Op::IfNot(C::OnBoard(Some(d)), exit),
            Op::Step(s),
            Op::FlagIf {
                flag,
                cond,
                then,
                else_: None,
            },
            Op::Goto(g),
        ] if s == d && *g == start => Some(Scan {
            dir: *d,
            exit: *exit,
            flag: *flag,
            cond: cond.clone(),
            then: *then,
        }),
        _ => None,
    }
}

/// Whether a condition reads only the board, the current position, flags and the mark (no
/// attack test, which runs other programs, and no position flag, which lives in the run).
fn pure_cond(c: &C, flags: &mut u64, mark: &mut bool) -> bool {
    match c {
        C::Test(TestKind::Attacked(_) | TestKind::Defended(_), _) | C::PosFlag(..) => false,
        C::Test(TestKind::Marked, _) => {
            *mark = true;
            true
        }
        C::Flag(f) => {
            *flags |= 1u64 << (f % 64);
            true
        }
        C::Not(c) => pure_cond(c, flags, mark),
        C::And(v) | C::Or(v) => v.iter().all(|c| pure_cond(c, flags, mark)),
        _ => true,
    }
}

/// Whether `op` is pure: it only walks and tests the board and sets flags. Adds what it reads
/// to `flags` and `mark`.
fn pure_op(op: &Op, flags: &mut u64, mark: &mut bool) -> bool {
    match op {
        Op::Step(_) | Op::Jump(_) | Op::Goto(_) | Op::Fail => true,
        Op::Mark | Op::Back | Op::Near { .. } => {
            *mark = true;
            true
        }
        Op::Verify(c) | Op::IfNot(c, _) => pure_cond(c, flags, mark),
        Op::SetFlag(f, c)
        | Op::FlagIf {
            flag: f, cond: c, ..
        } => {
            *flags |= 1u64 << (f % 64);
            pure_cond(c, flags, mark)
        }
        Op::Flags(sets) => sets.iter().all(|s| {
            *mark |= s.near.is_some();
            *flags |= 1u64 << (s.flag % 64);
            pure_cond(&s.cond, flags, mark)
        }),
        _ => false,
    }
}

/// The region `start..=end` when every operation in it is pure and no jump from outside lands
/// inside it after its head.
fn region(ops: &[Op], start: usize, end: usize) -> Option<Region> {
    let (mut flags, mut reads_mark) = (0u64, false);
    if !ops[start..=end]
        .iter()
        .all(|op| pure_op(op, &mut flags, &mut reads_mark))
    {
        return None;
    }
    let inside = |t: usize| t > start && t <= end;
    let entered = ops.iter().enumerate().any(|(i, op)| {
        (i < start || i > end) && super::fuse::targets(op).into_iter().flatten().any(inside)
    });
    (!entered).then(|| Region {
        head: ops[start].clone(),
        start,
        end,
        flags,
        reads_mark,
        id: 0,
        scan: scan(ops, start, end),
    })
}

/// The code of region `r` of `ops` (its head first, jumps relative to its start): two regions
/// with the same code do the same from the same entry.
pub(crate) fn code(ops: &[Op], r: &Region) -> Vec<Op> {
    let rel = |t: usize| t.wrapping_sub(r.start);
    std::iter::once(&r.head)
        .chain(&ops[r.start + 1..=r.end])
        .map(|op| match op {
            Op::IfNot(c, t) => Op::IfNot(c.clone(), rel(*t)),
            Op::Goto(t) => Op::Goto(rel(*t)),
            Op::Near { dir, skip } => Op::Near {
                dir: *dir,
                skip: skip.map(|t| rel(t as usize) as u32),
            },
            op => op.clone(),
        })
        .collect()
}

/// Finds the outermost pure loops of a block's ops (a jump back from `end` to `start`), puts
/// [`Op::Loop`] at each loop's head and returns them.
pub(crate) fn find(ops: &mut [Op]) -> Vec<Region> {
    let mut found: Vec<Region> = Vec::new();
    // Loops by size, largest first, so an inner loop of a pure loop is not taken on its own.
    let mut loops: Vec<(usize, usize)> = ops
        .iter()
        .enumerate()
        .filter_map(|(end, op)| match op {
            Op::Goto(start) if *start <= end => Some((*start, end)),
            _ => None,
        })
        .collect();
    loops.sort_by_key(|&(s, e)| std::cmp::Reverse(e - s));
    for (start, end) in loops {
        if found.iter().any(|r| r.start <= start && end <= r.end) {
            continue;
        }
        if let Some(r) = region(ops, start, end) {
            found.push(r);
        }
    }
    found.sort_by_key(|r| r.start);
    for (i, r) in found.iter().enumerate() {
        ops[r.start] = Op::Loop(i as u32);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Loc;

    #[test]
    fn a_board_walk_is_pure_and_an_adding_loop_is_not() {
        // mark a0 (while (on-board? 0) 0 (if friend? (set-flag 1 true))) back
        let mut ops = vec![
            Op::Mark,
            Op::Jump(0),
            Op::IfNot(C::OnBoard(Some(0)), 7),
            Op::Step(0),
            Op::IfNot(C::Test(TestKind::Friend, Loc::Cur), 6),
            Op::SetFlag(1, C::Const(true)),
            Op::Goto(2),
            Op::Back,
        ];
        let r = find(&mut ops);
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].start, r[0].end, r[0].flags), (2, 6, 2));
        assert!(!r[0].reads_mark);
        assert_eq!(ops[2], Op::Loop(0));
        // (while empty? add 0)
        let mut ops = vec![
            Op::IfNot(C::Test(TestKind::Empty, Loc::Cur), 4),
            Op::Add {
                promote: Vec::new(),
                partial: false,
                copy: false,
                move_type: None,
            },
            Op::Step(0),
            Op::Goto(0),
        ];
        assert!(find(&mut ops).is_empty());
    }
}
