//! Guards: the first board tests that every run of a block passes, found when the block is
//! compiled, so the interpreter can skip a block that cannot move before running its set-up.
//!
//! KoShogi's step moves (`step-1` … `step-5`) open with `(check-pass)` and `(common-start)`:
//! a `verify` of a named position and a few `if`s that set flags, all before the first step
//! `$1 (verify not-friend?)`. In a crowded start most of those first steps land on a friend, so
//! most runs set flags only to stop at the first `verify`. What ends a run there depends only
//! on the board: the set-up before the step neither moves nor adds, and every path through it
//! reaches the step (it jumps only forward, and not past the step). So the step and the
//! board-only `verify`s right after it are a guard: when it fails, the block's run cannot add a
//! move, and the interpreter skips it. A block with no set-up keeps as a guard its first step
//! (a piece on an edge, a slider toward it) and the steps and tests right after it that read
//! only whether a position is empty, a friend's or an enemy's (a knight's jump onto a friend):
//! those are tested without the interpreter ([`Check::Occupied`]), so testing them twice
//! when they hold costs little.

use super::rules::{C, Loc, Op, TestKind};

/// One test of a guard: a step from the current position, or a board-only condition there.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Check {
    Step(u32),
    Holds(C),
    /// A condition that reads only whether the current position is empty (bit 1), holds a
    /// piece of the mover (bit 2) or of another player (bit 4): the bits where it holds.
    Occupied(u8),
}

/// The bits of [`Check::Occupied`] for `c`, when it reads only whether the current position is
/// empty, the mover's or another player's.
fn occupancy(c: &C) -> Option<u8> {
    Some(match c {
        C::Const(b) => 7 * u8::from(*b),
        C::Test(t, Loc::Cur) => match t {
            TestKind::Empty => 1,
            TestKind::Friend => 2,
            TestKind::Enemy => 4,
            TestKind::Neutral => 0,
            _ => return None,
        },
        C::Not(c) => !occupancy(c)? & 7,
        C::And(v) => v.iter().try_fold(7, |m, c| Some(m & occupancy(c)?))?,
        C::Or(v) => v.iter().try_fold(0, |m, c| Some(m | occupancy(c)?))?,
        _ => return None,
    })
}

/// The guard of a block: the tests every run passes before it can add a move.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Guard {
    /// The operations before the first step, as written before fusing (charged as steps when
    /// the guard fails).
    pub setup: u32,
    /// The direction of the first step.
    pub first: u32,
    /// The tests after the first step. Without a set-up only [`Check::Occupied`] ones (and
    /// the steps between): the run itself makes the others as soon, and testing them twice
    /// costs more than it saves.
    pub rest: Vec<Check>,
    /// The steps of the set-up and all the tests (a guard is used when they fit the step
    /// limit).
    pub checks: u32,
}

/// Whether a condition reads only the board and the position it names: no flag, mark, state or
/// attack test, so it gives the same answer before the block's set-up as after it.
fn board_only(c: &C) -> bool {
    match c {
        C::Const(_)
        | C::Piece(..)
        | C::AnyPiece(..)
        | C::Owned(..)
        | C::InZone(..)
        | C::OnBoard(_)
        | C::Position(_)
        | C::Attr(..) => true,
        C::Test(t, _) => matches!(
            t,
            TestKind::Empty | TestKind::Friend | TestKind::Enemy | TestKind::Neutral
        ),
        C::Not(c) => board_only(c),
        C::And(v) | C::Or(v) => v.iter().all(board_only),
        C::Flag(_) | C::PosFlag(..) | C::State(..) => false,
    }
}

/// Whether `op` at index `i` may stand in the set-up before the first step `k`: it stays on
/// the start position, adds nothing, and jumps only forward to `k` at most.
fn setup_op(op: &Op, i: usize, k: usize) -> bool {
    match op {
        Op::Verify(_)
        | Op::SetFlag(..)
        | Op::FlagIf { .. }
        | Op::SetPosFlag(..)
        | Op::Mark
        | Op::SetState(..)
        | Op::ClearState
        | Op::Fail => true,
        Op::IfNot(_, t) | Op::Goto(t) => *t > i && *t <= k,
        // Walks to a neighbour may end the block.
        Op::Flags(sets) => sets.iter().all(|s| s.near.is_none()),
        _ => false,
    }
}

/// The guard of a block's ops, when its first step is reached by every run.
pub(crate) fn find(ops: &[Op]) -> Option<Guard> {
    let k = ops.iter().position(|op| matches!(op, Op::Step(_)))?;
    if !ops[..k]
        .iter()
        .enumerate()
        .all(|(i, op)| setup_op(op, i, k))
    {
        return None;
    }
    // The tests run in a straight line from the step (a later jump into them does not change
    // the first pass, which every run makes).
    let Op::Step(first) = ops[k] else {
        return None;
    };
    let mut rest = Vec::new();
    for op in &ops[k + 1..] {
        match op {
            Op::Step(d) => rest.push(Check::Step(*d)),
            Op::Verify(c) => match occupancy(c) {
                Some(bits) => rest.push(Check::Occupied(bits)),
                // Without a set-up, only the tests made without the interpreter pay.
                None if k > 0 && board_only(c) => rest.push(Check::Holds(c.clone())),
                None => break,
            },
            _ => break,
        }
    }
    // Steps after the last test decide nothing the run would not find as soon.
    while matches!(rest.last(), Some(Check::Step(_))) {
        rest.pop();
    }
    let setup: u32 = ops[..k].iter().map(super::fuse::stands_for).sum();
    Some(Guard {
        setup,
        first,
        checks: setup + 1 + rest.len() as u32,
        rest,
    })
}

/// The first checks of a piece type's guarded move blocks, by the direction of their first
/// step: a piece tests its few neighbours once, and every block whose guard fails there (its
/// first step leaves the board, or lands where its first occupancy test fails) is passed over
/// without reading the board again. KoShogi's shooters have forty blocks in eight directions,
/// most of them stopped by a friend one step away.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Firsts {
    /// The first directions, each with the blocks (bits, [`super::reach::block_bit`]) whose
    /// guard fails when the neighbour there is off the board, empty, the mover's or another
    /// player's (in that order), and whether any but the first depends on the neighbour.
    pub dirs: Box<[(u32, [u64; 4], bool)]>,
    /// The largest [`Guard::checks`] of those blocks (the table is used when it fits the step
    /// limit).
    pub checks: u32,
}

/// The [`Firsts`] of a piece type's move blocks (the first 63 only: bit 63 stands for the rest),
/// when some have a guard.
pub(crate) fn firsts(guards: impl Iterator<Item = Option<Guard>>) -> Option<Firsts> {
    let mut dirs: Vec<(u32, [u64; 4], bool)> = Vec::new();
    let mut checks = 0;
    for (i, g) in guards.take(63).enumerate() {
        let Some(g) = g else { continue };
        let j = match dirs.iter().position(|d| d.0 == g.first) {
            Some(j) => j,
            None => {
                dirs.push((g.first, [0; 4], false));
                dirs.len() - 1
            }
        };
        let (_, fails, reads) = &mut dirs[j];
        fails[0] |= 1 << i;
        if let Some(Check::Occupied(bits)) = g.rest.first() {
            for (c, bit) in [1u8, 2, 4].into_iter().enumerate() {
                if bits & bit == 0 {
                    fails[c + 1] |= 1 << i;
                    *reads = true;
                }
            }
        }
        checks = checks.max(g.checks);
    }
    (!dirs.is_empty()).then(|| Firsts {
        dirs: dirs.into(),
        checks,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn friend() -> C {
        C::Not(Box::new(C::Test(TestKind::Friend, Loc::Cur)))
    }

    #[test]
    fn a_flag_setting_setup_before_the_first_step_is_skipped_over() {
        // (verify (not-enemy? 7)) (if (in-zone? 0) (set-flag 0 true) else (set-flag 0 false))
        // n (verify not-friend?) n (verify (flag? 0)) add
        let ops = vec![
            Op::Verify(C::Not(Box::new(C::Test(TestKind::Enemy, Loc::Pos(7))))),
            Op::IfNot(C::InZone(0, Loc::Cur), 4),
            Op::SetFlag(0, C::Const(true)),
            Op::Goto(5),
            Op::SetFlag(0, C::Const(false)),
            Op::Step(2),
            Op::Verify(friend()),
            Op::Step(2),
            Op::Verify(C::Flag(0)),
        ];
        let g = find(&ops).expect("a guard");
        assert_eq!((g.setup, g.first), (5, 2));
        // The flag test ends the guard: it depends on the set-up (and the step before it
        // decides nothing alone).
        assert_eq!(g.rest, vec![Check::Occupied(1 | 4)]);
        let zone = vec![Op::Step(2), Op::Verify(C::InZone(0, Loc::Cur)), Op::Step(2)];
        let setup = [vec![Op::Mark], zone].concat();
        let g = find(&setup).expect("a guard");
        assert_eq!(g.rest, vec![Check::Holds(C::InZone(0, Loc::Cur))]);
    }

    #[test]
    fn without_a_setup_the_guard_is_the_first_step_and_occupancy_tests() {
        let ops = vec![Op::Step(1), Op::Verify(friend()), Op::Step(1)];
        let g = find(&ops).expect("a guard");
        assert_eq!((g.setup, g.first), (0, 1));
        assert_eq!(g.rest, vec![Check::Occupied(1 | 4)]);
        let zone = vec![Op::Step(1), Op::Verify(C::InZone(0, Loc::Cur))];
        assert_eq!(find(&zone).expect("a guard").rest, vec![]);
    }

    #[test]
    fn a_setup_that_moves_jumps_back_or_past_the_step_has_no_guard() {
        let moves = vec![Op::Mark, Op::Jump(3), Op::Step(0)];
        assert_eq!(find(&moves), None);
        let back = vec![Op::SetFlag(0, C::Const(true)), Op::Goto(0), Op::Step(0)];
        assert_eq!(find(&back), None);
        let past = vec![
            Op::IfNot(C::Const(false), 3),
            Op::Step(0),
            Op::Verify(friend()),
        ];
        assert_eq!(find(&past), None);
    }

    #[test]
    fn an_adding_setup_has_no_guard() {
        let add = Op::Add {
            promote: Vec::new(),
            partial: false,
            copy: false,
            move_type: None,
        };
        assert_eq!(find(&[add, Op::Step(0)]), None);
    }
}
