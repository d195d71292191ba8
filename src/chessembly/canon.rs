//! Lowered blocks that are plain movements, rewritten to the movement table's program of them.
//!
//! The symbolic executor of [`mod@super::lower`] writes each way through a chain as a linear block
//! in Chessembly's own order: tests at a delta before the step (`peek(d)` is
//! `verify (empty? d), step d`), a slide as `while (empty? d) (step d, add)`, a `take` as a
//! conditional `add`. [`typed`] rewrites such a block by exact equivalences (each one generates
//! the same moves on every board, see [`normalise`]) and asks the table
//! ([`movement::recognise`]) what it means; when the rewritten block is a [`Movement`] the block
//! becomes [`movement::program`] of it, the one form every reader writes and every writer
//! prints. A block that is no movement keeps its lowered form.

use crate::spec::movement::{self, Land, Movement, Travel};
use crate::spec::{Cond, Instr, MoveBlock, Test};

/// The typed form of a lowered block: one block, or a few when the block adds moves along the
/// way that are each a movement (`move(d) take-move(e)`); `None` when it is no movement (it
/// stays as lowered).
pub fn typed(block: &[Instr]) -> Option<Vec<Vec<Instr>>> {
    if let Some(m) = movement_of(block) {
        return Some(vec![movement::program(&m).program]);
    }
    if let Some(m) = ranged(block) {
        return Some(vec![movement::program(&m).program]);
    }
    split(block)
}

/// The movement a block means after [`normalise`], if any: a plain one, whose destination
/// is tested only by its landing (other tests there stay as lowered, where a script says them
/// before the move), and which is not a general path.
pub fn movement_of(block: &[Instr]) -> Option<Movement> {
    let program = normalise(block.to_vec());
    movement::recognise(&MoveBlock {
        move_type: None,
        program,
    })
    .ok()
    .filter(|m| {
        // A general path is no plainer than the lowered block, and Chessembly's writer prints
        // it from the block: it stays as lowered.
        let path = matches!(m.travel, Travel::Path { .. });
        m.arrive.is_empty() && m.run.is_empty() && !path
    })
}

fn here(t: Test) -> Cond {
    Cond::Test {
        test: t,
        at: None,
        move_type: None,
    }
}

fn not_friend() -> Cond {
    Cond::Not(Box::new(here(Test::Friend)))
}

/// An `add` that completes the move (a `transition` may name its promotion).
fn simple_add(i: &Instr) -> bool {
    matches!(
        i,
        Instr::Add {
            partial: false,
            copy: false,
            move_type: None,
            ..
        }
    )
}

/// A test of the position `d` away, as the same test of the current position (`None`: it tests
/// something else).
fn rebased(c: &Cond, d: &str) -> Option<Cond> {
    match c {
        Cond::Test {
            test,
            at: Some(a),
            move_type,
        } if a == d => Some(Cond::Test {
            test: *test,
            at: None,
            move_type: move_type.clone(),
        }),
        Cond::Piece { piece, at: Some(a) } if a == d => Some(Cond::Piece {
            piece: piece.clone(),
            at: None,
        }),
        Cond::Not(x) => rebased(x, d).map(|x| Cond::Not(Box::new(x))),
        _ => None,
    }
}

/// Two tests of the current position that say one thing: `not friend?` with `enemy?` or
/// `empty?` (either order) is the latter, `not empty?` with `not friend?` is `enemy?` (every
/// piece is a friend or an enemy).
fn implied(a: &Cond, b: &Cond) -> Option<Cond> {
    let nf = not_friend();
    let occupied = Cond::Not(Box::new(here(Test::Empty)));
    let strong = |c: &Cond| *c == here(Test::Enemy) || *c == here(Test::Empty);
    if (*a == nf && *b == occupied) || (*a == occupied && *b == nf) {
        return Some(here(Test::Enemy));
    }
    match (a, b) {
        (a, b) if *a == nf && strong(b) => Some(b.clone()),
        (a, b) if *b == nf && strong(a) => Some(a.clone()),
        _ => None,
    }
}

/// Rewrites a block by equivalences that keep the moves it generates on every board:
/// - a trailing `if c (then) else ()` is `verify c, then` (the block ends either way);
/// - `verify (t? d), step d` is `step d, verify t?` (off the board the step ends the block as
///   the failed test does);
/// - two tests of the current position that say one thing are that one (`implied`);
/// - `while (empty? d) (step d, X)` followed by `step d` or by nothing, where `X` only adds, is
///   `step d, while empty? (X, step d)` (followed by nothing): both visit the same empty run and
///   end on its first occupied position, or fail off the board;
/// - after `while empty? (…, step d)`, a `step` is preceded by `verify (not empty?)`, which
///   holds there (the loop ends only on an occupied position): the cannon's screen.
pub fn normalise(mut p: Vec<Instr>) -> Vec<Instr> {
    // Each rewrite shortens the block or moves a test later, so this ends; the bound is a guard.
    for _ in 0..=4 * p.len() + 4 {
        if !rewrite_once(&mut p) {
            break;
        }
    }
    p
}

/// Applies the first rewrite of [`normalise`] that fits; false when none does.
fn rewrite_once(p: &mut Vec<Instr>) -> bool {
    if let Some(Instr::If { else_, .. }) = p.last()
        && else_.is_empty()
    {
        let Some(Instr::If { cond, then_, .. }) = p.pop() else {
            unreachable!("checked")
        };
        p.push(Instr::Verify(cond));
        p.extend(then_);
        return true;
    }
    for i in 0..p.len() {
        if let (Instr::Verify(c), Some(Instr::Step(d))) = (&p[i], p.get(i + 1))
            && let Some(r) = rebased(c, d)
        {
            p[i] = Instr::Step(d.clone());
            p[i + 1] = Instr::Verify(r);
            return true;
        }
        if let (Instr::Verify(a), Some(Instr::Verify(b))) = (&p[i], p.get(i + 1))
            && let Some(c) = implied(a, b)
        {
            p[i] = Instr::Verify(c);
            p.remove(i + 1);
            return true;
        }
        if let (Instr::While { cond, body }, Some(Instr::Step(_))) = (&p[i], p.get(i + 1))
            && *cond == here(Test::Empty)
            && matches!(body.last(), Some(Instr::Step(_)))
        {
            p.insert(i + 1, Instr::Verify(Cond::Not(Box::new(here(Test::Empty)))));
            return true;
        }
        if let Some(rest) = slide_at(p, i) {
            p.splice(i..i + rest, slide_head(&p[i]));
            return true;
        }
    }
    false
}

/// When `p[i]` is a lowered slide `while (empty? d) (step d, X)` followed by `step d` or by
/// nothing: how many instructions the rewrite replaces (1 or 2).
fn slide_at(p: &[Instr], i: usize) -> Option<usize> {
    let Instr::While {
        cond:
            Cond::Test {
                test: Test::Empty,
                at: Some(d),
                move_type: None,
            },
        body,
    } = &p[i]
    else {
        return None;
    };
    let [Instr::Step(s), adds @ ..] = body.as_slice() else {
        return None;
    };
    if s != d || !adds.iter().all(|a| matches!(a, Instr::Add { .. })) {
        return None;
    }
    match p.get(i + 1) {
        None => Some(1),
        Some(Instr::Step(s2)) if s2 == d => Some(2),
        _ => None,
    }
}

/// The canonical head of the lowered slide `w` ([`slide_at`]): `step d, while empty? (X, step d)`.
fn slide_head(w: &Instr) -> Vec<Instr> {
    let Instr::While {
        cond: Cond::Test { at: Some(d), .. },
        body,
    } = w
    else {
        unreachable!("checked by slide_at")
    };
    let mut b = body[1..].to_vec();
    b.push(Instr::Step(d.clone()));
    vec![
        Instr::Step(d.clone()),
        Instr::While {
            cond: here(Test::Empty),
            body: b,
        },
    ]
}

/// `move(d) move(d) …` and `take-move(d) take-move(d) …` (a slide of at most `n` squares), as
/// the lowering writes them: `n` times `step d, verify empty?, add`, or `step d, verify (not
/// friend?), add` joined by `verify empty?` (a `take-move` goes on only from an empty square).
fn ranged(block: &[Instr]) -> Option<Movement> {
    let Some(Instr::Step(d)) = block.first() else {
        return None;
    };
    let step = Instr::Step(d.clone());
    let empty = Instr::Verify(here(Test::Empty));
    let nf = Instr::Verify(not_friend());
    let add = block.get(2).filter(|a| simple_add(a))?;
    let (land, unit) = match block.get(1)? {
        v if *v == empty => (Land::Empty, vec![step, empty.clone(), add.clone()]),
        v if *v == nf => (Land::NotFriend, vec![empty.clone(), step, nf, add.clone()]),
        _ => return None,
    };
    // The first unit has no joining `verify empty?`.
    let rest = &block[3..];
    let u = unit.len();
    if rest.is_empty()
        || !rest.len().is_multiple_of(u)
        || !rest.chunks(u).all(|c| c == unit.as_slice())
    {
        return None;
    }
    let n = 1 + rest.len() / u;
    let slide = Travel::Slide {
        dir: d.clone(),
        max: Some(n),
        quiet: true,
    };
    Some(Movement::new(slide, land))
}

/// A block that adds moves along the way (`add` at its top level before the end) and does
/// nothing else but step and test: each `add` is the move of the block up to it without the
/// earlier `add`s (an `add` keeps the position, and there is nothing else it could drop). The
/// parts, when each is a movement.
fn split(block: &[Instr]) -> Option<Vec<Vec<Instr>>> {
    let pure = |i: &Instr| matches!(i, Instr::Step(_) | Instr::Verify(_) | Instr::Add { .. });
    let adds: Vec<usize> = (0..block.len())
        .filter(|&k| simple_add(&block[k]))
        .collect();
    let all_adds = block
        .iter()
        .filter(|i| matches!(i, Instr::Add { .. }))
        .count();
    if adds.len() < 2 || adds.len() != all_adds || !block.iter().all(pure) {
        return None;
    }
    adds.iter()
        .map(|&k| {
            let part: Vec<Instr> = block[..=k]
                .iter()
                .enumerate()
                .filter(|(j, i)| *j == k || !matches!(i, Instr::Add { .. }))
                .map(|(_, i)| i.clone())
                .collect();
            movement_of(&part).map(|m| movement::program(&m).program)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(t: Test, d: &str) -> Cond {
        Cond::Test {
            test: t,
            at: Some(d.into()),
            move_type: None,
        }
    }

    fn step(d: &str) -> Instr {
        Instr::Step(d.into())
    }

    #[test]
    fn a_lowered_take_move_slide_is_the_tables_slide() {
        // take-move(1, 1) repeat(1)
        let lowered = vec![
            Instr::While {
                cond: at(Test::Empty, "d+1+1"),
                body: vec![step("d+1+1"), Instr::plain_add()],
            },
            Instr::Verify(at(Test::Enemy, "d+1+1")),
            step("d+1+1"),
            Instr::plain_add(),
        ];
        let m = movement_of(&lowered).unwrap();
        let slide = Travel::Slide {
            dir: "d+1+1".into(),
            max: None,
            quiet: true,
        };
        assert_eq!(m, Movement::new(slide, Land::Enemy));
    }

    #[test]
    fn a_take_is_a_capture_only_step_and_peek_a_lame_leap() {
        // take(1, 0)
        let take = vec![
            step("d+1+0"),
            Instr::Verify(not_friend()),
            Instr::If {
                cond: here(Test::Enemy),
                then_: vec![Instr::plain_add()],
                else_: vec![],
            },
        ];
        let m = movement_of(&take).unwrap();
        assert_eq!(m, Movement::new(Travel::Step("d+1+0".into()), Land::Enemy));
        // peek(0, 1) take-move(1, 1)
        let lame = vec![
            Instr::Verify(at(Test::Empty, "d+0+1")),
            step("d+0+1"),
            step("d+1+1"),
            Instr::Verify(not_friend()),
            Instr::plain_add(),
        ];
        let m = movement_of(&lame).unwrap();
        let path = vec!["d+0+1".to_string(), "d+1+1".to_string()];
        assert_eq!(m, Movement::new(Travel::Lame(path), Land::NotFriend));
    }

    #[test]
    fn repeated_moves_are_a_ranged_slide() {
        let unit = [
            step("d+0+1"),
            Instr::Verify(here(Test::Empty)),
            Instr::plain_add(),
        ];
        let two: Vec<Instr> = unit.iter().chain(&unit).cloned().collect();
        let slide = Travel::Slide {
            dir: "d+0+1".into(),
            max: Some(2),
            quiet: true,
        };
        let want = movement::program(&Movement::new(slide, Land::Empty)).program;
        assert_eq!(typed(&two), Some(vec![want]));
    }

    #[test]
    fn a_block_of_state_changes_stays_untyped() {
        let b = vec![
            Instr::SetState {
                key: "a".into(),
                value: 1,
            },
            step("d+0+1"),
            Instr::Verify(here(Test::Empty)),
            Instr::plain_add(),
        ];
        assert_eq!(typed(&b), None);
    }
}
