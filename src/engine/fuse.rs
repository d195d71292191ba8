//! Fused operations: common sequences of a block's operations rewritten, when it is compiled, as one operation that stands for them, so the interpreter dispatches fewer (steps are counted as before).
//!
//! KoShogi's `check-flame` runs at every move's target and spends most of the game's
//! operations: eight times `(if (on-board? d) mark d (if (piece? PF) (set-flag is-burned?
//! true)) back)`, five or six operations each. Three rewrites, none tied to a game:
//! - `(if c (set-flag f v))` and `(if c (set-flag f v) else (set-flag f w))` become one
//!   [`Op::FlagIf`];
//! - `mark d BODY back`, where BODY only tests and sets flags, becomes [`Op::Near`] and BODY
//!   reading its tests one link away in `d` (the walk there and back is not made); an `(if
//!   (on-board? d) …)` around it is taken in;
//! - a straight run of such flag settings (a [`Op::FlagIf`], or a [`Op::Near`] whose body is
//!   one) becomes one [`Op::Flags`], which sets them in turn without a dispatch each;
//! - a `goto` to an `IfNot` (a `while` loop's jump back) becomes [`Op::Branch`].
//!
//! Each fused operation counts the steps of the operations it stands for, as the interpreter
//! would have run them, except that [`Op::Near`] counts the final `back` even when BODY ends
//! the block first (an upper bound, as guards charge).

use super::loops::Region;
use super::rules::{C, FlagSet, Loc, Op, TestKind};

/// The jump targets of `op`.
pub(crate) fn targets(op: &Op) -> [Option<usize>; 2] {
    match op {
        Op::IfNot(_, t) | Op::Goto(t) => [Some(*t), None],
        Op::Near { skip, .. } => [skip.map(|s| s as usize), None],
        Op::Branch { then, else_, .. } => [Some(*then as usize), Some(*else_ as usize)],
        _ => [None, None],
    }
}

/// How many operations of the code before fusing `op` stands for (at least the steps one run
/// of it counts).
pub(crate) fn stands_for(op: &Op) -> u32 {
    match op {
        Op::FlagIf { else_, .. } => 2 + 2 * u32::from(else_.is_some()),
        Op::Near { skip, .. } => 3 + u32::from(skip.is_some()),
        Op::Flags(sets) => sets
            .iter()
            .map(|s| {
                let near = s.near.map_or(0, |(_, skip)| 3 + u32::from(skip));
                near + 2 + 2 * u32::from(s.else_.is_some())
            })
            .sum(),
        Op::Branch { .. } => 2,
        _ => 1,
    }
}

/// The jumps of the live operations, as (target, source), sorted.
fn edges(ops: &[Op], dead: &[bool]) -> Vec<(usize, usize)> {
    let mut e: Vec<(usize, usize)> = ops
        .iter()
        .enumerate()
        .filter(|&(i, _)| !dead[i])
        .flat_map(|(i, op)| targets(op).into_iter().flatten().map(move |t| (t, i)))
        .collect();
    e.sort_unstable();
    e
}

/// Whether a jump from outside `sources` lands in `lo..=hi`.
fn entered(
    edges: &[(usize, usize)],
    lo: usize,
    hi: usize,
    sources: std::ops::Range<usize>,
) -> bool {
    let first = edges.partition_point(|&(t, _)| t < lo);
    edges[first..]
        .iter()
        .take_while(|&&(t, _)| t <= hi)
        .any(|(_, s)| !sources.contains(s))
}

/// Fuses the flag settings and the walks to a neighbour and back of a block's ops (before its
/// pure loops and guard are found).
pub(crate) fn fuse(ops: &mut Vec<Op>) {
    let mut dead = vec![false; ops.len()];
    flag_ifs(ops, &mut dead);
    nears(ops, &mut dead);
    compact(ops, &dead);
    let mut dead = vec![false; ops.len()];
    flag_runs(ops, &mut dead);
    compact(ops, &dead);
}

/// The flag setting at `i` (an [`Op::FlagIf`], or an [`Op::Near`] whose body is one, its
/// `skip` landing right after it) and the number of operations it takes.
fn flag_set(ops: &[Op], i: usize) -> Option<(FlagSet, usize)> {
    let set = |near, op: &Op| match op {
        Op::FlagIf {
            flag,
            cond,
            then,
            else_,
        } => Some(FlagSet {
            near,
            flag: *flag,
            cond: cond.clone(),
            then: *then,
            else_: *else_,
        }),
        _ => None,
    };
    match &ops[i] {
        Op::Near { dir, skip } if skip.is_none_or(|t| t as usize == i + 2) => {
            let mut s = set(Some((*dir, skip.is_some())), ops.get(i + 1)?)?;
            // Read at the neighbour, which the run makes the current position.
            s.cond = at_neighbour(&s.cond, *dir);
            Some((s, 2))
        }
        op => Some((set(None, op)?, 1)),
    }
}

/// Straight runs of flag settings as [`Op::Flags`]: two or more, or one walking to a
/// neighbour, when no jump from outside the run lands inside it.
fn flag_runs(ops: &mut [Op], dead: &mut [bool]) {
    let e = edges(ops, dead);
    let mut i = 0;
    while i < ops.len() {
        let (mut sets, mut j) = (Vec::new(), i);
        while j < ops.len() {
            let Some((set, n)) = flag_set(ops, j) else {
                break;
            };
            if (n == 2 && entered(&e, j + 1, j + 1, 0..0)) || (j > i && entered(&e, j, j, i..j)) {
                break;
            }
            sets.push(set);
            j += n;
        }
        if sets.len() >= 2 || sets.first().is_some_and(|s| s.near.is_some()) {
            ops[i] = Op::Flags(sets.into());
            dead[i + 1..j].fill(true);
            i = j;
        } else {
            i += 1;
        }
    }
}

/// `(if c (set-flag f v))` and `(if c (set-flag f v) else (set-flag f w))` as [`Op::FlagIf`].
fn flag_ifs(ops: &mut [Op], dead: &mut [bool]) {
    let e = edges(ops, dead);
    let set = |op: Option<&Op>, f: u32| match op {
        Some(Op::SetFlag(g, C::Const(v))) if *g == f => Some(*v),
        _ => None,
    };
    let mut i = 0;
    while i + 1 < ops.len() {
        let (Op::IfNot(c, t), Op::SetFlag(flag, C::Const(then))) = (&ops[i], &ops[i + 1]) else {
            i += 1;
            continue;
        };
        let (flag, then, t) = (*flag, *then, *t);
        let fused = if t == i + 2 && !entered(&e, i + 1, i + 1, 0..0) {
            Some((None, 1))
        } else if t == i + 3
            && matches!(ops.get(i + 2), Some(Op::Goto(g)) if *g == i + 4)
            && !entered(&e, i + 1, i + 3, i..i + 1)
        {
            set(ops.get(i + 3), flag).map(|w| (Some(w), 3))
        } else {
            None
        };
        let Some((else_, n)) = fused else {
            i += 1;
            continue;
        };
        ops[i] = Op::FlagIf {
            flag,
            cond: c.clone(),
            then,
            else_,
        };
        dead[i + 1..=i + n].fill(true);
        i += n + 1;
    }
}

/// `mark d BODY back` (in `(if (on-board? d) …)` or not) as [`Op::Near`] and BODY read one
/// link away in `d`, when BODY only tests and sets flags, and no jump from outside it lands
/// past the `mark`.
fn nears(ops: &mut [Op], dead: &mut [bool]) {
    let e = edges(ops, dead);
    let live = |dead: &[bool], mut i: usize| {
        while dead.get(i) == Some(&true) {
            i += 1;
        }
        i
    };
    let mut i = 0;
    while i < ops.len() {
        if dead[i] {
            i += 1;
            continue;
        }
        // An `(if (on-board? d)` before the mark, and its target.
        let guarded = match &ops[i] {
            Op::IfNot(C::OnBoard(Some(d)), t) => Some((*d, *t)),
            _ => None,
        };
        let m = if guarded.is_some() {
            live(dead, i + 1)
        } else {
            i
        };
        let s = live(dead, m + 1);
        let (Some(Op::Mark), Some(&Op::Step(d))) = (ops.get(m), ops.get(s)) else {
            i += 1;
            continue;
        };
        if guarded.is_some_and(|(g, _)| g != d) {
            i += 1;
            continue;
        }
        let Some((back, body)) = near_body(ops, dead, s + 1, d) else {
            i += 1;
            continue;
        };
        let skip = guarded.map(|(_, t)| t);
        if skip.is_some_and(|t| live(dead, back + 1) != live(dead, t))
            || entered(&e, i + 1, back, s + 1..back)
        {
            i += 1;
            continue;
        }
        for (j, op) in body {
            ops[j] = op;
        }
        ops[i] = Op::Near {
            dir: d,
            skip: skip.map(|t| t as u32),
        };
        for j in [m, s, back] {
            dead[j] = j != i;
        }
        i = back + 1;
    }
}

/// The `back` ending the body that starts at `from`, and the body's live ops read one link
/// away in `d`, when every op of the body tests or sets flags and jumps only within it.
fn near_body(ops: &[Op], dead: &[bool], from: usize, d: u32) -> Option<(usize, Vec<(usize, Op)>)> {
    let back = (from..ops.len()).find(|&k| !dead[k] && matches!(ops[k], Op::Back))?;
    let inside = |t: &usize| (from..=back).contains(t);
    let mut body = Vec::new();
    for (j, op) in ops.iter().enumerate().take(back).skip(from) {
        if dead[j] {
            continue;
        }
        let near = match op {
            Op::IfNot(c, t) if inside(t) => Op::IfNot(near_cond(c, d)?, *t),
            Op::Goto(t) if inside(t) => Op::Goto(*t),
            Op::SetFlag(f, c) => Op::SetFlag(*f, near_cond(c, d)?),
            Op::Verify(c) => Op::Verify(near_cond(c, d)?),
            Op::FlagIf {
                flag,
                cond,
                then,
                else_,
            } => Op::FlagIf {
                flag: *flag,
                cond: near_cond(cond, d)?,
                then: *then,
                else_: *else_,
            },
            _ => return None,
        };
        body.push((j, near));
    }
    Some((back, body))
}

/// `c` tested one link away in `d` from where it was tested, when it can be: it reads only
/// the current position (or named ones), flags and the board.
fn near_cond(c: &C, d: u32) -> Option<C> {
    let at = |l: &Loc| match l {
        Loc::Cur => Some(Loc::Dir(d)),
        Loc::Pos(p) => Some(Loc::Pos(*p)),
        Loc::Dir(_) => None,
    };
    Some(match c {
        C::Const(_) | C::Flag(_) | C::State(..) => c.clone(),
        C::Test(TestKind::Marked, _) | C::OnBoard(_) | C::Position(_) => return None,
        C::Test(t, l) => C::Test(*t, at(l)?),
        C::Piece(k, l) => C::Piece(*k, at(l)?),
        C::AnyPiece(ks, l) => C::AnyPiece(ks.clone(), at(l)?),
        C::Owned(e, ks, l) => C::Owned(*e, ks.clone(), at(l)?),
        C::InZone(z, l) => C::InZone(*z, at(l)?),
        C::PosFlag(f, l) => C::PosFlag(*f, at(l)?),
        C::Attr(a, l) => C::Attr(*a, at(l)?),
        C::Not(c) => C::Not(Box::new(near_cond(c, d)?)),
        C::And(v) => C::And(v.iter().map(|c| near_cond(c, d)).collect::<Option<_>>()?),
        C::Or(v) => C::Or(v.iter().map(|c| near_cond(c, d)).collect::<Option<_>>()?),
    })
}

/// `c`, read one link away in `d` by [`near_cond`], as read from that neighbour (the inverse:
/// `near_cond` leaves no other `Loc::Dir`).
fn at_neighbour(c: &C, d: u32) -> C {
    let at = |l: &Loc| match l {
        Loc::Dir(e) if *e == d => Loc::Cur,
        l => *l,
    };
    match c {
        C::Test(t, l) => C::Test(*t, at(l)),
        C::Piece(k, l) => C::Piece(*k, at(l)),
        C::AnyPiece(ks, l) => C::AnyPiece(ks.clone(), at(l)),
        C::Owned(e, ks, l) => C::Owned(*e, ks.clone(), at(l)),
        C::InZone(z, l) => C::InZone(*z, at(l)),
        C::PosFlag(f, l) => C::PosFlag(*f, at(l)),
        C::Attr(a, l) => C::Attr(*a, at(l)),
        C::Not(c) => C::Not(Box::new(at_neighbour(c, d))),
        C::And(v) => C::And(v.iter().map(|c| at_neighbour(c, d)).collect()),
        C::Or(v) => C::Or(v.iter().map(|c| at_neighbour(c, d)).collect()),
        c => c.clone(),
    }
}

/// Drops the dead ops, moving every jump to the op it now lands on (a jump to a dead op lands
/// on the next live one).
fn compact(ops: &mut Vec<Op>, dead: &[bool]) {
    if !dead.contains(&true) {
        return;
    }
    let mut new = Vec::with_capacity(ops.len() + 1);
    let mut n = 0usize;
    for &d in dead {
        new.push(n);
        n += usize::from(!d);
    }
    new.push(n);
    let old = std::mem::take(ops);
    for (op, _) in old.into_iter().zip(dead).filter(|(_, d)| !**d) {
        ops.push(match op {
            Op::IfNot(c, t) => Op::IfNot(c, new[t]),
            Op::Goto(t) => Op::Goto(new[t]),
            Op::Near { dir, skip } => Op::Near {
                dir,
                skip: skip.map(|t| new[t as usize] as u32),
            },
            op => op,
        });
    }
}

/// Turns each `goto` to an `IfNot` outside the block's pure loops (which are run as they
/// stand) into an [`Op::Branch`] (after the pure loops and the guard are found).
pub(crate) fn branches(ops: &mut [Op], regions: &[Region]) {
    for i in 0..ops.len() {
        if regions.iter().any(|r| (r.start..=r.end).contains(&i)) {
            continue;
        }
        if let Op::Goto(t) = ops[i]
            && let Some(Op::IfNot(c, e)) = ops.get(t)
        {
            ops[i] = Op::Branch {
                cond: c.clone(),
                then: t as u32 + 1,
                else_: *e as u32,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::rules::{FlagSet, Op, Rules};
    use crate::engine::{State, legal_moves, play};

    /// Burners test the neighbours of their target for a Pyre (`(if (on-board? d) mark d …
    /// back)`) and look east for an enemy (`mark e … back`, which ends the block on the east
    /// edge); Pyres slide (`(while empty? add d)`) and become Burners when they capture with a
    /// Burner of either side to the north (a scan, `loops::Scan`).
    const FUSE: &str = r#"
(define flame (if (on-board? $1) mark $1 (if (piece? Pyre) (set-flag burned? true)) back))
(define probe mark $1 (if enemy? (set-flag seen? true) else (set-flag seen? false)) back)
(define look mark $1 (if enemy? (set-flag seen? true) (set-flag burned? false)) back)
(define scan (if (on-board? $1) mark $1 (if enemy? (set-flag seen? true)) (if (piece? Pyre) (set-flag seen? false)) back))
(define burner ($1 (verify not-friend?)
  (if (piece? Pyre) (set-flag burned? true) else (set-flag burned? false))
  (flame n) (flame s) (flame e) (flame w) (flame ne) (flame nw)
  (scan sw) (look w) (probe e)
  (if (flag? burned?) (if (flag? seen?) (add Pyre) else capture add) else add)))
(define slide ((set-flag north? false) mark (while (on-board? n) n (if (piece? Burner) (set-flag north? true))) back
  $1 (while empty? add $1) (if (piece? Burner) (set-flag seen? true)) (verify enemy?) (if (flag? north?) (add Burner) else add)))
(game (title "Fuse") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 30 30)
    (dimensions ("a/b/c/d/e" (30 0)) ("5/4/3/2/1" (0 30)))
    (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1))))
  (piece (name Burner) (moves (burner n) (burner e) (burner nw) (burner s)))
  (piece (name Pyre) (moves (slide ne) (slide w) (slide s)))
  (board-setup (White (Burner a1 c3 e5 b4) (Pyre b2 d4)) (Black (Burner a5 c1 e3) (Pyre b3 d2 e1)))
  (loss-condition (White Black) (pieces-remaining 0)))
"#;

    fn flag_sets(op: &Op) -> impl Iterator<Item = &FlagSet> {
        match op {
            Op::Flags(sets) => &sets[..],
            _ => &[],
        }
        .iter()
    }

    fn ops(rules: &Rules) -> impl Iterator<Item = &Op> {
        rules
            .kinds
            .iter()
            .flat_map(|k| &k.moves)
            .flat_map(|b| &b.ops)
    }

    #[test]
    fn fused_blocks_make_the_same_moves_in_the_same_steps() {
        let doc = crate::tests::zrf_doc(FUSE);
        let fused = Rules::compile(&doc, 0).unwrap();
        let plain = Rules::compile_unfused(&doc, 0);
        // Every rewrite applies: the test is about them.
        let has = |r: &Rules, f: fn(&Op) -> bool| ops(r).any(f);
        let kinds: [fn(&Op) -> bool; 7] = [
            |op| matches!(op, Op::FlagIf { .. }),
            |op| flag_sets(op).any(|s| s.near.is_none() && s.else_.is_none()),
            |op| flag_sets(op).any(|s| s.else_.is_some()),
            |op| matches!(op, Op::Near { skip: Some(_), .. }),
            |op| matches!(op, Op::Near { skip: None, .. }),
            |op| flag_sets(op).any(|s| s.near.is_some_and(|(_, skip)| skip)),
            |op| flag_sets(op).any(|s| s.near.is_some_and(|(_, skip)| !skip)),
        ];
        for (i, k) in kinds.into_iter().enumerate() {
            assert!(has(&fused, k) && !has(&plain, k), "rewrite {i}");
        }
        assert!(has(&fused, |op| matches!(op, Op::Branch { .. })));
        let scans = |r: &Rules| {
            let blocks = r.kinds.iter().flat_map(|k| &k.moves);
            blocks.flat_map(|b| &b.regions).any(|g| g.scan.is_some())
        };
        assert!(scans(&fused) && !scans(&plain));
        assert!(ops(&fused).count() < ops(&plain).count());
        // The start, every position one move on, and every position two moves on.
        let (mut a, mut b) = (State::start(&fused), State::start(&plain));
        let mut compared = 0;
        let mut compare = |a: &mut State, b: &mut State| {
            let (ma, mb) = (legal_moves(&fused, a).moves, legal_moves(&plain, b).moves);
            assert_eq!(ma, mb);
            assert_eq!(fused.work_done(), plain.work_done());
            compared += 1;
            ma
        };
        for m in compare(&mut a, &mut b) {
            play(&fused, &mut a, &m);
            play(&plain, &mut b, &m);
            for m in compare(&mut a, &mut b) {
                play(&fused, &mut a, &m);
                play(&plain, &mut b, &m);
                compare(&mut a, &mut b);
                a.unmake();
                b.unmake();
            }
            a.unmake();
            b.unmake();
        }
        assert!(compared > 100, "{compared}");
    }
}
