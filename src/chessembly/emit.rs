//! Writing a spec piece as a Chessembly script: the inverse of [`super::lower()`].
//!
//! Each move block becomes one chain. A block the movement table types is printed from its
//! [`Movement`](crate::spec::movement::Movement) (`typed`); any other must be a sequence of
//! the fragments [`super::lower::lower`] writes (a leap, step or slide of each movement kind,
//! `peek`, a single-expression `do … while`, a verified condition, a state change), so that
//! lowering the emitted script gives the same blocks back. A few common forms written by other
//! readers (the ZRF leap `Step, Verify(not friend), Add` and slide `Step, While(empty)[Add,
//! Step], Verify(not friend), Add`) are emitted with the same moves but lower back to the
//! canonical fragments.
//! Chains kept verbatim in `extensions` (as `chessembly` items) are appended as they are. Anything else is an
//! error naming the construct (`chessembly::unemittable`), and no script is returned.
//!
//! Directions are read from the board's first grid: the dimension whose pixel offset is
//! horizontal gives `dx` (sign of the offset), the vertical one gives `dy` (up is positive). The
//! second player is assumed to move with every delta rotated 180°, as Chessembly does; a
//! different symmetry on the board is reported as a `chessembly::orientation` warning.

use super::lower::{corner_cond, corner_side_cond, edge_cond, edge_side_cond, hop_capture};
use super::program::Op;
use super::syntax::{Delta, MoveKind, Side};
use crate::diag::{Diagnostic, Severity};
use crate::spec::geometry::frame::{self, NoAxes};
use crate::spec::movement;
use crate::spec::moves::Inliner;
use crate::spec::origin::GameOrigin;
use crate::spec::{Board, Cond, Document, Instr, Origins, RawFormat, Test};
use std::collections::HashMap;

mod typed;

/// Diagnostic code for a spec construct with no Chessembly form.
pub const CODE_UNEMITTABLE: &str = "chessembly::unemittable";
/// Diagnostic code for a board whose second-player symmetry is not Chessembly's 180° rotation.
pub const CODE_ORIENTATION: &str = "chessembly::orientation";

fn diag(sev: Severity, code: &'static str, msg: String) -> Diagnostic {
    Diagnostic::new(sev, code, msg, None)
}

/// The step vector of every grid direction of `board`, in the piece frame of the first player
/// (`+dx` along the horizontal pixel offset, `+dy` upwards): the board's checked frame
/// ([`frame::frame`]).
pub fn direction_deltas(board: &Board) -> Result<HashMap<String, Delta>, String> {
    let vectors = frame::frame(board).map_err(|e| match frame::axes(board) {
        Err(NoAxes::NoGrid) => "the board has no grid, so its directions have no vectors".into(),
        Err(NoAxes::NotTwoDimensions) => {
            "the board's grid does not have exactly two dimensions".into()
        }
        Err(NoAxes::NotRowsAndColumns) => {
            "the board's grid is not a rectangle with one horizontal and one vertical dimension"
                .into()
        }
        Ok(_) => e,
    })?;
    let mut out = HashMap::new();
    for (name, (dx, dy)) in vectors {
        let (Ok(dx), Ok(dy)) = (i16::try_from(dx), i16::try_from(dy)) else {
            return Err(format!("direction `{name}` is too long"));
        };
        out.insert(name, Delta::new(dx, dy));
    }
    Ok(out)
}

struct Writer<'a> {
    dirs: &'a HashMap<String, Delta>,
    items: Vec<String>,
    transition: Option<String>,
    at_origin: bool,
    /// For a block whose moves offer a choice of promotions: the choices and the one written.
    choice: Option<(&'a [String], usize)>,
}

fn fmt_delta(d: Delta) -> String {
    format!("{}, {}", d.dx, d.dy)
}

fn is_test(c: &Cond, t: Test, at: &Option<String>) -> bool {
    matches!(c, Cond::Test { test, at: a, move_type: None } if *test == t && a == at)
}

fn here(c: &Cond, t: Test) -> bool {
    is_test(c, t, &None)
}

fn not_friend_here(c: &Cond) -> bool {
    matches!(c, Cond::Not(x) if here(x, Test::Friend))
}

impl Writer<'_> {
    fn delta(&self, dir: &str) -> Result<Delta, String> {
        self.dirs
            .get(dir)
            .copied()
            .ok_or_else(|| format!("`{dir}`, which is not a direction of the board's grid"))
    }

    fn at(&self, at: &Option<String>) -> Result<Delta, String> {
        match at {
            None => Ok(Delta::default()),
            Some(a) => self.delta(a),
        }
    }

    /// Sets the pending transition for an `Add` about to be written.
    fn add(&mut self, add: &Instr) -> Result<(), String> {
        let Instr::Add {
            pieces,
            partial,
            copy,
            move_type,
        } = add
        else {
            return Err("a move fragment without its `add`".into());
        };
        if *partial {
            return Err("a partial move (`add-partial`)".into());
        }
        if *copy {
            return Err("a move that leaves a copy (`add-copy`)".into());
        }
        if move_type.is_some() {
            return Err("a partial move restricted to a move type".into());
        }
        let want = match (pieces.len(), self.choice) {
            (0 | 1, _) => pieces.first().cloned(),
            (_, Some((list, i))) if list == &pieces[..] => Some(list[i].clone()),
            _ => {
                return Err("moves with different choices of promotion in one block".into());
            }
        };
        if want != self.transition {
            self.items.push(match &want {
                Some(k) => format!("transition({k})"),
                None => "transition".into(),
            });
            self.transition = want;
        }
        Ok(())
    }

    fn mv(&mut self, add: &Instr, word: &str, d: Delta, tail: &str) -> Result<(), String> {
        self.add(add)?;
        self.items.push(format!("{word}({}){tail}", fmt_delta(d)));
        self.at_origin = false;
        Ok(())
    }

    /// One condition op (or a few, for a conjunction), as items.
    fn cond(&self, c: &Cond) -> Result<Vec<String>, String> {
        let one = |s: String| Ok(vec![s]);
        match c {
            Cond::Const(false) => one("bound(0, 0)".into()),
            Cond::Const(true) => Ok(vec!["bound(0, 0)".into(), "not".into()]),
            Cond::Test {
                test,
                at,
                move_type: None,
            } => {
                let d = self.at(at)?;
                let word = match test {
                    Test::Empty if at.is_none() => return one("peek(0, 0)".into()),
                    Test::Empty => "observe",
                    Test::Friend => "friendly",
                    Test::Enemy => "enemy",
                    other => return Err(format!("the position test {}", spec_text(other))),
                };
                one(format!("{word}({})", fmt_delta(d)))
            }
            Cond::Piece { piece, at } => {
                if at.is_none() && self.at_origin {
                    one(format!("piece({piece})"))
                } else {
                    one(format!("piece-on({piece}, {})", fmt_delta(self.at(at)?)))
                }
            }
            Cond::OnBoard { direction: None } => Err("on-board? without a direction".into()),
            Cond::OnBoard {
                direction: Some(direction),
            } => Ok(vec![
                format!("bound({})", fmt_delta(self.delta(direction)?)),
                "not".into(),
            ]),
            Cond::State { key, value } => {
                let v = i32::try_from(*value).map_err(|_| {
                    format!("the state value {value} (Chessembly values are 32-bit)")
                })?;
                one(format!("if-state({key}, {v})"))
            }
            Cond::Not(x) if matches!(**x, Cond::OnBoard { direction: Some(_) }) => {
                let Cond::OnBoard {
                    direction: Some(direction),
                } = &**x
                else {
                    return Err("a negated on-board test".into());
                };
                one(format!("bound({})", fmt_delta(self.delta(direction)?)))
            }
            Cond::Not(x) => {
                let mut v = self.cond(x)?;
                if v.len() != 1 && !(v.len() == 2 && v[1] == "not") {
                    return Err("the negation of a compound condition".into());
                }
                if v.len() == 2 {
                    v.pop();
                } else {
                    v.push("not".into());
                }
                Ok(v)
            }
            Cond::And(_) | Cond::Or(_) => {
                if let Some(s) = self.board_cond(c) {
                    return one(s);
                }
                match c {
                    Cond::And(list) => {
                        let mut v = Vec::new();
                        for x in list {
                            v.extend(self.cond(x)?);
                        }
                        Ok(v)
                    }
                    _ => Err("a disjunction (`or`) of conditions".into()),
                }
            }
            other => Err(format!("the condition {}", spec_text(other))),
        }
    }

    /// `edge`, `corner` and their named forms, recognised by rebuilding them.
    fn board_cond(&self, c: &Cond) -> Option<String> {
        fn dirs(c: &Cond, out: &mut Vec<String>) {
            match c {
                Cond::OnBoard { direction } => out.extend(direction.clone()),
                Cond::Not(x) => dirs(x, out),
                Cond::And(v) | Cond::Or(v) => v.iter().for_each(|x| dirs(x, out)),
                _ => {}
            }
        }
        let mut names = Vec::new();
        dirs(c, &mut names);
        let mut d = Delta::default();
        for n in names {
            let v = *self.dirs.get(&n)?;
            if v.dx != 0 && v.dy == 0 {
                d.dx = v.dx;
            } else if v.dy != 0 && v.dx == 0 {
                d.dy = v.dy;
            } else {
                return None;
            }
        }
        let dn = fmt_delta(d);
        let mut cands: Vec<(String, Cond)> = vec![
            (format!("edge({dn})"), edge_cond(d)),
            (format!("corner({dn})"), corner_cond(d)),
        ];
        for (s, name) in [
            (Side::Top, "top"),
            (Side::Bottom, "bottom"),
            (Side::Left, "left"),
            (Side::Right, "right"),
        ] {
            cands.push((format!("edge-{name}({dn})"), edge_side_cond(s, d)));
        }
        for (v, vn) in [(Side::Top, "top"), (Side::Bottom, "bottom")] {
            for (h, hn) in [(Side::Left, "left"), (Side::Right, "right")] {
                cands.push((format!("corner-{vn}-{hn}({dn})"), corner_side_cond(v, h, d)));
            }
        }
        cands.into_iter().find(|(_, k)| k == c).map(|(s, _)| s)
    }

    /// The MS hop captures that `lower` writes (`take(d) jump(e)` and the jumping cannon), back
    /// as their chains; false when `prog` is not one of them.
    fn hop(&mut self, prog: &[Instr]) -> bool {
        let dir = |i: &Instr| match i {
            Instr::Verify(Cond::Test { at: Some(a), .. }) | Instr::Step(a) => {
                self.dirs.get(a).copied()
            }
            Instr::While {
                cond: Cond::Test { at: Some(a), .. },
                ..
            } => self.dirs.get(a).copied(),
            _ => None,
        };
        let (d, e) = match prog {
            [v, _, _, s, ..] if prog.len() == 6 => (dir(v), dir(s)),
            [w1, _, _, _, w2] => (dir(w1), dir(w2)),
            _ => return false,
        };
        let (Some(d), Some(e)) = (d, e) else {
            return false;
        };
        let jump = [Op::Step(MoveKind::Take, d), Op::Jump(e)];
        let cannon = [
            Op::Do,
            Op::Step(MoveKind::Take, d),
            Op::Enemy(Delta::default()),
            Op::Not,
            Op::While(0),
            Op::Jump(e),
            Op::Repeat(5),
        ];
        let (d, e) = (fmt_delta(d), fmt_delta(e));
        let items: Vec<String> = if hop_capture(&jump, 0).as_deref() == Some(prog) {
            vec![format!("take({d})"), format!("jump({e})")]
        } else if hop_capture(&cannon, 0).as_deref() == Some(prog) {
            let mut v: Vec<String> = ["do", &format!("take({d})"), "enemy(0, 0)", "not", "while"]
                .iter()
                .map(|s| s.to_string())
                .collect();
            v.push(format!("jump({e})"));
            v.push("repeat(1)".into());
            v
        } else {
            return false;
        };
        self.items.extend(items);
        self.at_origin = false;
        true
    }

    /// The MS `shift` blocks that `lower` writes (mark the origin, the way to the target, swap
    /// with the piece there), back as their chains: the way as usual,
    /// then `shift`. False when `prog` is not one.
    fn swap(&mut self, prog: &[Instr]) -> Result<bool, String> {
        let [
            Instr::Mark,
            way @ ..,
            Instr::Step(s),
            Instr::Verify(Cond::Not(occupied)),
            Instr::Cascade,
            Instr::Back,
            add @ Instr::Add { .. },
        ] = prog
        else {
            return Ok(false);
        };
        if !here(occupied, Test::Empty)
            || way
                .iter()
                .any(|i| matches!(i, Instr::Mark | Instr::Back | Instr::Cascade))
        {
            return Ok(false);
        }
        self.block(way)?;
        let d = self.delta(s)?;
        self.mv(add, "shift", d, "")?;
        Ok(true)
    }

    /// Writes an untyped block fragment by fragment; returns an explanation naming the first
    /// construct with no form.
    fn block(&mut self, prog: &[Instr]) -> Result<(), String> {
        if self.hop(prog) || self.swap(prog)? {
            return Ok(());
        }
        let mut i = 0;
        while i < prog.len() {
            i += self.fragment(&prog[i..])?;
        }
        Ok(())
    }

    /// Writes the fragment at the head of `rest`; returns how many instructions it took.
    fn fragment(&mut self, rest: &[Instr]) -> Result<usize, String> {
        match rest {
            [
                Instr::While {
                    cond:
                        Cond::Test {
                            test: Test::Empty,
                            at: Some(dn),
                            move_type: None,
                        },
                    body,
                },
                after @ ..,
            ] => self.lowered_loop(dn, body, after),
            [Instr::Step(_), ..] => self.step_fragment(rest),
            [
                Instr::Verify(Cond::Test {
                    test: Test::Empty,
                    at: Some(a),
                    move_type: None,
                }),
                Instr::Step(s),
                ..,
            ] if a == s => {
                self.peek(s)?;
                Ok(2)
            }
            [Instr::Verify(c), ..] => {
                let v = self.cond(c)?;
                self.items.extend(v);
                Ok(1)
            }
            [Instr::SetState { key, value }, ..] => {
                let v = i32::try_from(*value).map_err(|_| {
                    format!("the state value {value} (Chessembly values are 32-bit)")
                })?;
                self.items.push(format!("set-state({key}, {v})"));
                Ok(1)
            }
            [Instr::ClearState, ..] => {
                self.items.push("set-state".into());
                Ok(1)
            }
            [Instr::Add { .. }, ..] => {
                Err("a move with no test of the square it lands on (a move onto any square)".into())
            }
            [other, ..] => Err(format!("the instruction {}", describe(other))),
            [] => unreachable!("called on a non-empty rest"),
        }
    }

    fn peek(&mut self, s: &str) -> Result<(), String> {
        let d = self.delta(s)?;
        self.items.push(format!("peek({})", fmt_delta(d)));
        self.at_origin = false;
        Ok(())
    }

    /// The loops `lower` writes, `while (empty? d) (…)` and what follows them: a slide of each
    /// kind, `do … while`, `do peek(d) while`. Returns how many instructions it took.
    fn lowered_loop(&mut self, dn: &str, body: &[Instr], after: &[Instr]) -> Result<usize, String> {
        let d = self.delta(dn)?;
        let add = match body {
            [Instr::Step(s), add @ Instr::Add { .. }] if s == dn => add,
            [Instr::Step(s)] if s == dn => {
                self.items.push(format!("do peek({}) while", fmt_delta(d)));
                self.at_origin = false;
                return Ok(1);
            }
            _ => return Err("a `while` loop other than a slide".into()),
        };
        let enemy_at = |c: &Cond| is_test(c, Test::Enemy, &Some(dn.to_string()));
        let ends_take = |s2: &String, add2: &Instr| s2 == dn && add2 == add;
        match after {
            [Instr::Verify(c), Instr::Step(s2), add2] if enemy_at(c) && ends_take(s2, add2) => {
                self.mv(add, "take-move", d, " repeat(1)")?;
                Ok(4)
            }
            // Spec 0.1 documents wrote a `capture` before the `add`.
            [
                Instr::Verify(c),
                Instr::Step(s2),
                Instr::Capture { at: None },
                add2,
            ] if enemy_at(c) && ends_take(s2, add2) => {
                self.mv(add, "take-move", d, " repeat(1)")?;
                Ok(5)
            }
            [Instr::If { cond, then_, else_ }, ..]
                if enemy_at(cond)
                    && else_.is_empty()
                    && matches!(
                        &then_[..],
                        [Instr::Step(s2), Instr::Capture { at: None }, a2]
                            | [Instr::Step(s2), a2] if ends_take(s2, a2)
                    ) =>
            {
                self.add(add)?;
                self.items
                    .push(format!("do take-move({}) while", fmt_delta(d)));
                self.at_origin = false;
                Ok(2)
            }
            [] => {
                self.mv(add, "move", d, " repeat(1)")?;
                Ok(1)
            }
            _ => {
                self.add(add)?;
                self.items.push(format!("do move({}) while", fmt_delta(d)));
                self.at_origin = false;
                Ok(1)
            }
        }
    }

    /// The fragments that start with a step: a move of each kind, `peek`, MS `anchor`, and the
    /// ZRF slide and leap. Returns how many instructions it took.
    fn step_fragment(&mut self, rest: &[Instr]) -> Result<usize, String> {
        let Some(Instr::Step(s)) = rest.first() else {
            unreachable!("called on a step")
        };
        let d = self.delta(s)?;
        match rest {
            // ZRF slide: Step, While(empty)[Add, Step], Verify(not friend), Add.
            [
                _,
                Instr::While { cond, body },
                Instr::Verify(nf),
                add2 @ Instr::Add { .. },
            ] if here(cond, Test::Empty)
                && not_friend_here(nf)
                && matches!(&body[..], [a, Instr::Step(s2)] if s2 == s && a == add2) =>
            {
                self.mv(add2, "take-move", d, " repeat(1)")?;
                Ok(4)
            }
            [
                _,
                Instr::Verify(nf),
                Instr::If { cond, then_, else_ },
                add @ Instr::Add { .. },
                ..,
            ] if not_friend_here(nf)
                && here(cond, Test::Enemy)
                && else_.is_empty()
                && then_[..] == [Instr::Capture { at: None }] =>
            {
                self.mv(add, "take-move", d, "")?;
                ends_after_capture(&rest[4..]).map(|n| 4 + n)
            }
            [_, Instr::Verify(e), add @ Instr::Add { .. }, ..] if here(e, Test::Empty) => {
                self.mv(add, "move", d, "")?;
                Ok(3)
            }
            [_, Instr::Verify(nf), Instr::If { cond, then_, else_ }, ..]
                if not_friend_here(nf) && here(cond, Test::Enemy) && else_.is_empty() =>
            {
                match &then_[..] {
                    [add @ Instr::Add { .. }]
                    | [Instr::Capture { at: None }, add @ Instr::Add { .. }] => {
                        self.mv(add, "take", d, "")?
                    }
                    [
                        Instr::Capture { at: None },
                        Instr::Mark,
                        // `(go from)`; documents of spec 0.1 wrote a bare `from` here.
                        Instr::From { .. },
                        add @ Instr::Add { .. },
                        Instr::Back,
                    ] => self.mv(add, "catch", d, "")?,
                    _ => return Err("a conditional capture other than `take`/`catch`".into()),
                }
                Ok(3)
            }
            // ZRF leap: Step, Verify(not friend), Add (the add captures an enemy there).
            [_, Instr::Verify(nf), add @ Instr::Add { .. }, ..] if not_friend_here(nf) => {
                self.mv(add, "take-move", d, "")?;
                ends_after_capture(&rest[3..]).map(|n| 3 + n)
            }
            // ZRF capture-only step at the end of a block: Step, Verify(enemy), Add.
            [_, Instr::Verify(e), add @ Instr::Add { .. }] if here(e, Test::Enemy) => {
                self.mv(add, "take", d, "")?;
                Ok(3)
            }
            [_, Instr::Verify(e), ..] if here(e, Test::Empty) => {
                self.peek(s)?;
                Ok(2)
            }
            // A step onto any square: MS `anchor` (false off the board, as the step).
            _ => {
                self.items.push(format!("anchor({})", fmt_delta(d)));
                self.at_origin = false;
                Ok(1)
            }
        }
    }
}

/// After a move that may capture: nothing, or the `verify empty?` that goes on from an empty
/// square only (how many instructions that is); a move that goes on otherwise has no form.
fn ends_after_capture(after: &[Instr]) -> Result<usize, String> {
    match after.first() {
        None => Ok(0),
        Some(Instr::Verify(c)) if here(c, Test::Empty) => Ok(1),
        Some(_) => Err("a move that continues after a capture (`take-move` ends there)".into()),
    }
}

/// The piece lists of `Add`s offering more than one promotion, distinct, in order.
fn promotion_lists<'a>(i: &'a Instr, out: &mut Vec<&'a [String]>) {
    match i {
        Instr::Add { pieces, .. } if pieces.len() > 1 && !out.contains(&&pieces[..]) => {
            out.push(pieces)
        }
        Instr::If { then_, else_, .. } => then_
            .iter()
            .chain(else_)
            .for_each(|x| promotion_lists(x, out)),
        Instr::While { body, .. } => body.iter().for_each(|x| promotion_lists(x, out)),
        _ => {}
    }
}

fn describe(i: &Instr) -> String {
    spec_text(i)
}

/// A spec construct as ZRF-like text (`spec::display`: `(verify (in-zone? promotion))`),
/// shortened, for messages.
fn spec_text<T: std::fmt::Display>(x: &T) -> String {
    let s = x.to_string();
    match s.char_indices().nth(100) {
        Some((i, _)) => format!("`{}…`", &s[..i]),
        None => format!("`{s}`"),
    }
}

/// Writes piece `piece` of game `game` as a Chessembly script (one chain per move block, then the
/// chains kept in `extensions` (as `chessembly` items)). Returns `None` with `chessembly::unemittable` errors
/// naming each construct that has no Chessembly form.
pub fn emit(doc: &Document, game: usize, piece: &str) -> (Option<String>, Vec<Diagnostic>) {
    emit_at(doc, game, piece, &GameOrigin::default())
}

/// [`emit`], each diagnostic located where it stands in the source file (`origin`, the game's
/// from the reader in this run): a move block, else the piece, else the game.
pub fn emit_at(
    doc: &Document,
    game: usize,
    piece: &str,
    origin: &GameOrigin,
) -> (Option<String>, Vec<Diagnostic>) {
    let (text, mut diags) = emit_piece(doc, game, piece, origin);
    for d in diags.iter_mut().filter(|d| d.span.is_none()) {
        d.span = origin.piece(piece);
    }
    (text, diags)
}

fn emit_piece(
    doc: &Document,
    game: usize,
    piece: &str,
    origin: &GameOrigin,
) -> (Option<String>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let err = |m: String| diag(Severity::Error, CODE_UNEMITTABLE, m);
    let Some(g) = doc.games.get(game) else {
        return (None, vec![err(format!("there is no game {game}"))]);
    };
    let Some(p) = g.pieces.iter().find(|p| p.name == piece) else {
        return (
            None,
            vec![err(format!("game `{}` has no piece `{piece}`", g.title))],
        );
    };
    let Some(board) = g.boards.first() else {
        return (None, vec![err(format!("game `{}` has no board", g.title))]);
    };
    let mut dirs = match direction_deltas(board) {
        Ok(d) => d,
        Err(m) => return (None, vec![err(m)]),
    };
    let programs: Vec<Vec<Instr>> = p
        .moves
        .iter()
        .map(|b| merge_steps(&b.program, &mut dirs))
        .collect();
    if let Some(second) = g.players.get(1) {
        let rotated = board
            .symmetries
            .iter()
            .find(|s| &s.player == second)
            .is_some_and(|s| {
                s.map.iter().all(|[a, b]| match (dirs.get(a), dirs.get(b)) {
                    (Some(x), Some(y)) => x.dx == -y.dx && x.dy == -y.dy,
                    _ => false,
                })
            });
        if !rotated {
            let mut d = diag(
                Severity::Warning,
                CODE_ORIENTATION,
                format!(
                    "the board's symmetry for `{second}` is not a 180° rotation; Chessembly rotates the second player's moves by 180°, so its moves may differ"
                ),
            );
            d.span = origin.at;
            diags.push(d);
        }
    }
    if !p.drops.is_empty() {
        diags.push(err(format!(
            "piece `{piece}` has drops, which Chessembly cannot express"
        )));
    }
    if p.extensions
        .0
        .iter()
        .any(|e| e.format != RawFormat::Chessembly)
    {
        diags.push(err(format!(
            "piece `{piece}` carries unmodelled ZRF or Ludii content in its extensions"
        )));
    }
    let mut out = format!("# {};\n", piece.replace([';', '\n', '\r'], " "));
    let mut inliner = Inliner::new(doc.procedures.len());
    for (bi, block) in p.moves.iter().enumerate() {
        // A choice of promotions (ZRF `(add Queen Rook)`) is one chain per choice.
        let mut lists: Vec<&[String]> = Vec::new();
        block
            .program
            .iter()
            .for_each(|i| promotion_lists(i, &mut lists));
        let choices = lists.first().map_or(1, |l| l.len());
        let typed = movement::recognise_in(block, &doc.procedures, &mut inliner).ok();
        for c in 0..choices {
            let writer = || Writer {
                dirs: &dirs,
                items: Vec::new(),
                transition: None,
                at_origin: true,
                choice: lists.first().map(|l| (*l, c)),
            };
            // A typed block from its movement; else (or when a chain cannot say all of it) the
            // block as it is, else with its runs of steps read as leaps.
            let mut w = writer();
            let mut written = match &typed {
                Some(m) => w.movement(m),
                None => Err(String::new()),
            };
            if written.is_err() {
                w = writer();
                written = w.block(&block.program);
            }
            if written.is_err() && programs[bi] != block.program {
                let mut merged = writer();
                if merged.block(&programs[bi]).is_ok() {
                    (w, written) = (merged, Ok(()));
                }
            }
            match written {
                Ok(()) if w.items.is_empty() => {}
                Ok(()) => {
                    out.push_str(&w.items.join(" "));
                    out.push_str(";\n");
                }
                Err(m) => {
                    let mut d = err(format!(
                        "move block {} of piece `{piece}` has no Chessembly form: {m}",
                        bi + 1
                    ));
                    d.span = origin.block(piece, false, bi);
                    diags.push(d);
                    break;
                }
            }
        }
        if block.move_type.is_some() {
            let mut d = diag(
                Severity::Warning,
                CODE_UNEMITTABLE,
                format!(
                    "move block {} of piece `{piece}` has a move type, which Chessembly does not have; it is dropped",
                    bi + 1
                ),
            );
            d.span = origin.block(piece, false, bi);
            diags.push(d);
        }
    }
    for chain in p.extensions.texts(RawFormat::Chessembly) {
        out.push_str(chain.trim());
        if !chain.trim_end().ends_with(';') {
            out.push(';');
        }
        out.push('\n');
    }
    let failed = diags.iter().any(|d| d.severity == Severity::Error);
    (if failed { None } else { Some(out) }, diags)
}

/// Consecutive steps whose path stays inside the box from start to end (a ZRF knight's `n ne`)
/// are one leap: on a rectangular board the squares passed exist whenever the last one does.
/// Each such run becomes one step in a direction named after its parts, added to `dirs`.
fn merge_steps(program: &[Instr], dirs: &mut HashMap<String, Delta>) -> Vec<Instr> {
    let mut out: Vec<Instr> = Vec::with_capacity(program.len());
    let mut i = 0;
    while i < program.len() {
        let mut j = i;
        while matches!(program.get(j), Some(Instr::Step(d)) if dirs.contains_key(d)) {
            j += 1;
        }
        if j - i < 2 {
            out.push(program[i].clone());
            i += 1;
            continue;
        }
        let names: Vec<&str> = program[i..j]
            .iter()
            .filter_map(|x| match x {
                Instr::Step(d) => Some(d.as_str()),
                _ => None,
            })
            .collect();
        let parts: Vec<Delta> = names.iter().map(|n| dirs[*n]).collect();
        let total = parts.iter().fold((0i32, 0i32), |(x, y), d| {
            (x + i32::from(d.dx), y + i32::from(d.dy))
        });
        let inside = |v: i32, end: i32| v >= end.min(0) && v <= end.max(0);
        let mut at = (0i32, 0i32);
        let monotone = parts.iter().all(|d| {
            at = (at.0 + i32::from(d.dx), at.1 + i32::from(d.dy));
            inside(at.0, total.0) && inside(at.1, total.1)
        });
        let (Ok(dx), Ok(dy)) = (i16::try_from(total.0), i16::try_from(total.1)) else {
            out.extend(program[i..j].iter().cloned());
            i = j;
            continue;
        };
        if !monotone {
            out.extend(program[i..j].iter().cloned());
        } else {
            let name = format!("\u{1}{}", names.join("\u{1}"));
            dirs.insert(name.clone(), Delta::new(dx, dy));
            out.push(Instr::Step(name));
        }
        i = j;
    }
    out
}

/// Writes every piece of the first game that has pieces as one Chessembly script. A game of one
/// piece is written as that piece's chains; with several, each piece's chains are guarded by
/// `piece(NAME)` (the seed's Windmill idiom), so one script moves them all. Procedure calls are
/// inlined first. A piece that cannot be written is left out with a warning naming the
/// construct; only when no piece can be written is the result an error.
pub fn emit_game(doc: &Document) -> Result<(Vec<u8>, Vec<Diagnostic>), Diagnostic> {
    emit_game_at(doc, &Origins::default())
}

/// [`emit_game`], each diagnostic located where what it is about stands in the source file
/// (`origins`, from the reader in this run): a move block, else its piece, else the game.
pub fn emit_game_at(
    doc: &Document,
    origins: &Origins,
) -> Result<(Vec<u8>, Vec<Diagnostic>), Diagnostic> {
    emit_game_with(doc, origins, false)
}

/// [`emit_game_at`]; `allow_partial`: a script that keeps fewer than half of the game's pieces
/// is a `chessembly::partial` warning, not an error (`convert --allow-partial`).
pub fn emit_game_with(
    doc: &Document,
    origins: &Origins,
    allow_partial: bool,
) -> Result<(Vec<u8>, Vec<Diagnostic>), Diagnostic> {
    let gi = doc
        .games
        .iter()
        .position(|g| g.pieces.iter().any(|p| !p.dummy));
    let origin = gi.map(|gi| origins.game(gi).clone()).unwrap_or_default();
    let locate = |mut d: Diagnostic| {
        if d.span.is_none() {
            d.span = origin.at;
        }
        d
    };
    match emit_game_located(doc, &origin, allow_partial) {
        Ok((bytes, diags)) => Ok((bytes, diags.into_iter().map(locate).collect())),
        Err(d) => Err(locate(d)),
    }
}

fn emit_game_located(
    doc: &Document,
    origin: &GameOrigin,
    allow_partial: bool,
) -> Result<(Vec<u8>, Vec<Diagnostic>), Diagnostic> {
    let err = |m: String| diag(Severity::Error, CODE_UNEMITTABLE, m);
    let Some(gi) = doc
        .games
        .iter()
        .position(|g| g.pieces.iter().any(|p| !p.dummy))
    else {
        return Err(err(
            "the document has no piece to write as a Chessembly script".into(),
        ));
    };
    let inlined = Document {
        spec_version: doc.spec_version.clone(),
        source: doc.source.clone(),
        games: vec![doc.game_inlined(gi)],
        procedures: Vec::new(),
    };
    let game = &inlined.games[0];
    let pieces: Vec<&str> = game
        .pieces
        .iter()
        .filter(|p| !p.dummy)
        .map(|p| p.name.as_str())
        .collect();
    let mut diags = Vec::new();
    if doc.games.len() > 1 {
        diags.push(diag(
            Severity::Warning,
            "chessembly::one-game",
            format!(
                "a Chessembly script holds the pieces of one game: wrote `{}`, not the {} other games and variants",
                game.title,
                doc.games.len() - 1
            ),
        ));
    }
    if let [only] = pieces.as_slice() {
        let (script, d) = emit_at(&inlined, 0, only, origin);
        diags.extend(d);
        return match script {
            Some(s) => Ok((s.into_bytes(), diags)),
            None => Err(diags
                .into_iter()
                .find(|d| d.severity == Severity::Error)
                .unwrap_or_else(|| err("the piece cannot be written as Chessembly".into()))),
        };
    }
    let mut out = format!(
        "# {}: {};\n",
        game.title.replace([';', '\n', '\r'], " "),
        pieces.join(", ")
    );
    let mut written = 0;
    let mut lost: Vec<&str> = Vec::new();
    for &name in &pieces {
        if !name.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            let mut d = diag(
                Severity::Warning,
                CODE_UNEMITTABLE,
                format!(
                    "piece `{name}` is left out: its name is not a Chessembly name, so no `piece(…)` guard can select it"
                ),
            );
            d.span = origin.piece(name);
            diags.push(d);
            lost.push(name);
            continue;
        }
        let (script, d) = emit_at(&inlined, 0, name, origin);
        let failed = script.is_none();
        // A piece that cannot be written is skipped, never the whole file.
        diags.extend(d.into_iter().map(|mut d| {
            if failed && d.severity == Severity::Error {
                d.severity = Severity::Warning;
                d.message = format!("{}; piece `{name}` is left out", d.message);
            }
            d
        }));
        let Some(script) = script else {
            lost.push(name);
            continue;
        };
        written += 1;
        for line in script.lines() {
            if line.starts_with('#') || line.trim().is_empty() {
                out.push_str(line);
            } else {
                out.push_str(&format!("piece({name}) {line}"));
            }
            out.push('\n');
        }
    }
    // The board's orientation warning is the same for every piece: say it once.
    let mut seen = std::collections::HashSet::new(); // lookup only
    diags.retain(|d| d.code != CODE_ORIENTATION || seen.insert(d.message.clone()));
    if written == 0 {
        // The error carries each piece's reason, which would otherwise be lost with the warnings.
        let reasons: Vec<&str> = diags
            .iter()
            .filter(|d| d.severity == Severity::Warning && d.code != CODE_ORIENTATION)
            .map(|d| d.message.as_str())
            .collect();
        let mut why = reasons
            .iter()
            .take(6)
            .copied()
            .collect::<Vec<_>>()
            .join("\n  - ");
        if reasons.len() > 6 {
            why.push_str(&format!("\n  - and {} more", reasons.len() - 6));
        }
        return Err(err(format!(
            "no piece of `{}` can be written as Chessembly:\n  - {why}",
            game.title
        )));
    }
    if !lost.is_empty() {
        diags.push(pieces_lost(&game.title, &pieces, &lost, allow_partial));
    }
    Ok((out.into_bytes(), diags))
}

/// Diagnostic code: whole pieces of the game are left out of the script (named); an error when
/// fewer than half of them are kept, unless partial ports are allowed.
pub const CODE_PARTIAL: &str = "chessembly::partial";

/// The `chessembly::partial` diagnostic of a script that left out the pieces `lost` of `all`.
fn pieces_lost(title: &str, all: &[&str], lost: &[&str], allow_partial: bool) -> Diagnostic {
    let kept: Vec<&str> = all.iter().copied().filter(|p| !lost.contains(p)).collect();
    let mut msg = format!(
        "the script of `{title}` is partial: it keeps {} of {} pieces ({}); left out: {}",
        kept.len(),
        all.len(),
        kept.join(", "),
        lost.join(", ")
    );
    let few = kept.len() * 2 < all.len();
    let severity = if few && !allow_partial {
        msg.push_str(
            "; fewer than half of the pieces are kept, so the file fails (`--allow-partial` writes it)",
        );
        Severity::Error
    } else {
        Severity::Warning
    };
    diag(severity, CODE_PARTIAL, msg)
}
