//! Lowering a Chessembly script to the portable spec: one game with a rectangular grid board and
//! one piece whose move blocks are the script's execution paths.
//!
//! The mapping is documented in `docs/chessembly.md` ("Lowering to the portable spec"). In short:
//! every chain is explored symbolically; each way through it (each branch of a brace block, each
//! outcome of a condition that a jump or `not`/`while` depends on) becomes one linear
//! [`MoveBlock`] of `Step`/`Verify`/`If`/`While`/`Add`/`Capture` instructions in the piece's frame.
//! Brace blocks are *forked* (one block enters the braces and stops at `}`, another skips them),
//! so no anchor has to be restored. Redundant blocks (a block whose program is a prefix of another
//! block's) are dropped; the spec's move list is a set, as Chessembly's is (duplicates removed).
//! A way that is a plain movement is written as the movement table's program of it
//! ([`super::canon`]).
//!
//! A chain that uses something the spec cannot express exactly (loops other than slides and
//! single-expression `do … while`, `check`, `danger`, backward jumps, a `take`/`catch` slide, a
//! move after a possible capture, …) is not lowered: its source text goes to
//! `extensions` (as `chessembly` items) of the piece and a `chessembly::unlowered` warning names the construct.
//!
//! The shared vocabulary ([`direction_name`], the canonical condition builders) is public so that
//! [`super::emit()`] recognises exactly what this module writes.

use super::program::{Op, Program, Symbols, compile_with};
use super::syntax::{Delta, Dialect, MoveKind, Side};
use crate::diag::{Diagnostic, FileId, Severity, Span};
use crate::spec::geometry::frame;
use crate::spec::origin::{GameOrigin, Origins, PieceOrigin};
use crate::spec::{
    Board, Cond, Document, EntryKind, Extensions, Game, Instr, MoveBlock, Piece, RawFormat,
    SPEC_VERSION, Source, Test, Texts, TurnOrder,
};
use std::collections::HashSet;

/// Diagnostic code for a Chessembly construct the spec cannot express exactly.
pub const CODE_UNLOWERED: &str = "chessembly::unlowered";

/// Pixel size of one square in the generated grid (the spec records rectangles).
pub const CELL: i64 = 50;

/// Most execution paths one chain may lower to before it is carried as an extension instead.
pub const MAX_PATHS: usize = 256;

/// Most work one chain's exploration may do (items visited plus instructions copied at forks,
/// over all its ways) before the chain is carried as an extension instead (keeps megabyte
/// chains with many forks bounded).
pub const MAX_WORK: usize = 1 << 20;

/// The two players of a lowered game: the first moves in the script's frame, the second with
/// every delta rotated 180° (a [`Symmetry`](crate::spec::Symmetry)).
pub const PLAYERS: [&str; 2] = ["White", "Black"];

/// Settings for [`lower`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LowerOptions {
    /// Board width (files a..), at least 1.
    pub files: usize,
    /// Board height (ranks 1..), at least 1.
    pub ranks: usize,
    /// Name of the piece the script moves; `None`: the file name without its extension.
    pub piece_name: Option<String>,
    /// The language to read: `None` reads the seed's and switches to MS, with a note, at the
    /// first MS-only word.
    pub dialect: Option<Dialect>,
}

impl Default for LowerOptions {
    fn default() -> Self {
        LowerOptions {
            files: 8,
            ranks: 8,
            piece_name: None,
            dialect: None,
        }
    }
}

/// The direction name of a step vector in the piece's frame: `d`, then `dx` and `dy` with their
/// signs (`(1, 2)` is `d+1+2`, `(0, -1)` is `d+0-1`).
pub fn direction_name(d: Delta) -> String {
    frame::vector_name(d.dx.into(), d.dy.into())
}

/// `Not`, folding constants and double negations (so `bound(d) not` is `on-board`).
pub fn negate(c: Cond) -> Cond {
    match c {
        Cond::Not(inner) => *inner,
        Cond::Const(b) => Cond::Const(!b),
        other => Cond::Not(Box::new(other)),
    }
}

/// A position test at a delta (`at` is absent for `(0, 0)`: the current position).
pub fn test_at(test: Test, d: Delta) -> Cond {
    Cond::Test {
        test,
        at: at(d),
        move_type: None,
    }
}

fn at(d: Delta) -> Option<String> {
    (d != Delta::default()).then(|| direction_name(d))
}

fn on_board(d: Delta) -> Cond {
    Cond::OnBoard {
        direction: Some(direction_name(d)),
    }
}

/// `bound(d)`: the target is off the board.
pub fn bound_cond(d: Delta) -> Cond {
    if d == Delta::default() {
        Cond::Const(false)
    } else {
        negate(on_board(d))
    }
}

/// Is the target off the board across the x axis (`None`: never, `dx == 0`)?
fn x_off(d: Delta) -> Option<Cond> {
    (d.dx != 0).then(|| negate(on_board(Delta::new(d.dx, 0))))
}

fn y_off(d: Delta) -> Option<Cond> {
    (d.dy != 0).then(|| negate(on_board(Delta::new(0, d.dy))))
}

/// `edge(d)`: off the board across exactly one axis (tested with the axis directions `(dx, 0)`
/// and `(0, dy)`; the anchor is always on the board, so this is exact on a rectangle).
pub fn edge_cond(d: Delta) -> Cond {
    match (x_off(d), y_off(d)) {
        (None, None) => Cond::Const(false),
        (Some(x), None) => x,
        (None, Some(y)) => y,
        (Some(x), Some(y)) => Cond::Or(vec![
            Cond::And(vec![x.clone(), negate(y.clone())]),
            Cond::And(vec![negate(x), y]),
        ]),
    }
}

/// `corner(d)`: off the board across both axes.
pub fn corner_cond(d: Delta) -> Cond {
    match (x_off(d), y_off(d)) {
        (Some(x), Some(y)) => Cond::And(vec![x, y]),
        _ => Cond::Const(false),
    }
}

/// Off across one named side (piece frame: top is +dy).
fn side_off(side: Side, d: Delta) -> Option<Cond> {
    match side {
        Side::Top if d.dy > 0 => y_off(d),
        Side::Bottom if d.dy < 0 => y_off(d),
        Side::Right if d.dx > 0 => x_off(d),
        Side::Left if d.dx < 0 => x_off(d),
        _ => None,
    }
}

/// `edge-<side>(d)`: off across that side, the other axis on the board.
pub fn edge_side_cond(side: Side, d: Delta) -> Cond {
    let Some(off) = side_off(side, d) else {
        return Cond::Const(false);
    };
    let other = match side {
        Side::Top | Side::Bottom => x_off(d),
        Side::Left | Side::Right => y_off(d),
    };
    match other {
        None => off,
        Some(o) => Cond::And(vec![off, negate(o)]),
    }
}

/// `corner-<v>-<h>(d)`: off across both named sides.
pub fn corner_side_cond(v: Side, h: Side, d: Delta) -> Cond {
    match (side_off(v, d), side_off(h, d)) {
        (Some(a), Some(b)) => Cond::And(vec![a, b]),
        _ => Cond::Const(false),
    }
}

/// Every direction a condition or instruction refers to, so the board can define it.
fn cond_dirs(c: &Cond, out: &mut Vec<String>) {
    match c {
        Cond::Test { at: Some(a), .. } | Cond::Piece { at: Some(a), .. } => out.push(a.clone()),
        Cond::OnBoard { direction } => out.extend(direction.clone()),
        Cond::Not(x) => cond_dirs(x, out),
        Cond::And(v) | Cond::Or(v) => v.iter().for_each(|x| cond_dirs(x, out)),
        _ => {}
    }
}

fn instr_dirs(i: &Instr, out: &mut Vec<String>) {
    match i {
        Instr::Step(d) => out.push(d.clone()),
        Instr::Verify(c) => cond_dirs(c, out),
        Instr::If { cond, then_, else_ } => {
            cond_dirs(cond, out);
            then_.iter().chain(else_).for_each(|x| instr_dirs(x, out));
        }
        Instr::While { cond, body } => {
            cond_dirs(cond, out);
            body.iter().for_each(|x| instr_dirs(x, out));
        }
        _ => {}
    }
}

/// Parses a name written by [`direction_name`].
pub fn parse_direction_name(name: &str) -> Option<Delta> {
    let (dx, dy) = frame::parse_vector_name(name)?;
    Some(Delta::new(dx.try_into().ok()?, dy.try_into().ok()?))
}

/// Why a chain could not be lowered: a message naming the construct, and where.
struct Unlowered {
    message: String,
    span: Span,
}

/// The pending transition of a path: known statically, or not (a skipped block may have set it).
#[derive(Debug, Clone, PartialEq)]
enum Reg {
    Known(Option<String>),
    Unknown,
}

/// The current value of a path.
#[derive(Debug, Clone)]
enum Val {
    True,
    False,
    /// Depends on the board: `base` (evaluated before `step`), inverted when `neg`; when `base`
    /// holds the anchor moves by `step` (`peek`); when it fails and `capture_if_false`, the
    /// preceding `take-move` captured.
    Cond {
        base: Cond,
        neg: bool,
        step: Option<Delta>,
        capture_if_false: bool,
    },
}

/// A possible capture earlier on the path: later moves would carry it (captures accumulate until
/// the block ends), so they are not exact unless `Verify(empty)` at the same position rules the
/// capture out.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Taint {
    Clean,
    /// A capture may have happened on the current position (`stepped`: the anchor moved since).
    Maybe {
        stepped: bool,
    },
}

#[derive(Debug, Clone)]
struct Path {
    pc: u32,
    val: Val,
    instrs: Vec<Instr>,
    moved: bool,
    transition: Reg,
    state_known: bool,
    taint: Taint,
}

struct Lowerer<'a> {
    program: &'a Program,
    symbols: &'a Symbols,
    /// Innermost enclosing `{` op of every op (`u32::MAX` at top level).
    block_of: Vec<u32>,
}

impl Lowerer<'_> {
    fn name(&self, s: super::program::Sym) -> String {
        self.symbols.name(s).to_string()
    }

    fn err(&self, pc: u32, message: impl Into<String>) -> Unlowered {
        Unlowered {
            message: message.into(),
            span: self.program.spans[pc as usize],
        }
    }

    fn add(&self, p: &Path, pc: u32) -> Result<Instr, Unlowered> {
        if p.taint != Taint::Clean {
            return Err(self.err(
                pc,
                "a move after a possible capture on the same path (the spec's captures last until the block ends)",
            ));
        }
        let pieces = match &p.transition {
            Reg::Known(t) => t.iter().cloned().collect(),
            Reg::Unknown => {
                return Err(self.err(
                    pc,
                    "a move whose transition depends on how far a skipped `{ … }` block ran",
                ));
            }
        };
        if !p.state_known {
            return Err(self.err(
                pc,
                "a move whose state changes depend on how far a skipped `{ … }` block ran",
            ));
        }
        Ok(Instr::Add {
            pieces,
            partial: false,
            copy: false,
            move_type: None,
        })
    }

    /// Resolves a board-dependent value to `branch`, writing the verification.
    fn resolve(&self, p: &mut Path, branch: bool) {
        if let Val::Cond {
            base,
            neg,
            step,
            capture_if_false,
        } = std::mem::replace(&mut p.val, Val::True)
        {
            let truth = branch != neg;
            let empty_here = base == test_at(Test::Empty, Delta::default());
            p.instrs
                .push(Instr::Verify(if truth { base } else { negate(base) }));
            if truth {
                if empty_here && p.taint == (Taint::Maybe { stepped: false }) {
                    p.taint = Taint::Clean;
                }
                if let Some(d) = step {
                    p.instrs.push(Instr::Step(direction_name(d)));
                    p.moved = true;
                    if let Taint::Maybe { .. } = p.taint {
                        p.taint = Taint::Maybe { stepped: true };
                    }
                }
            } else if capture_if_false {
                p.taint = Taint::Maybe { stepped: false };
            }
        }
        p.val = if branch { Val::True } else { Val::False };
    }

    /// The move block of a `shift` whose target is the current position of `p`: when a piece
    /// stands there, the two pieces swap. The way there is `p`'s program without its moves (each
    /// is a block of its own); the origin is marked first, the piece there `cascade`s to the
    /// target, and the target's piece is added back at the mark. The anchor then goes on along
    /// `p` whether or not a piece stood there, as the interpreter's does.
    fn swap_block(&self, p: &Path, pc: u32) -> Result<Vec<Instr>, Unlowered> {
        let add = self.add(p, pc)?;
        if matches!(&add, Instr::Add { pieces, .. } if !pieces.is_empty()) {
            return Err(self.err(pc, "a `shift` with a `transition`"));
        }
        let mut block = vec![Instr::Mark];
        // The interpreter refuses a shift onto the piece's own square; the spec has no test for
        // it, so the way must be straight steps that do not come back.
        let mut offset = (0i32, 0i32);
        for i in &p.instrs {
            match i {
                Instr::Add { .. } => {}
                Instr::Step(dir) => {
                    let d = parse_direction_name(dir).unwrap_or_default();
                    offset = (offset.0 + i32::from(d.dx), offset.1 + i32::from(d.dy));
                    block.push(i.clone());
                }
                // Loops, branches (`take`, `catch` and slides write them) and marks.
                Instr::While { .. } | Instr::If { .. } | Instr::Mark | Instr::Back => {
                    return Err(self.err(
                        pc,
                        "a `shift` after a loop or a branch (a slide, `take`, `catch`) on the same way",
                    ));
                }
                other => block.push(other.clone()),
            }
        }
        if offset == (0, 0) {
            return Err(self.err(pc, "a `shift` that may target the piece's own square"));
        }
        block.extend([
            Instr::Verify(negate(test_at(Test::Empty, Delta::default()))),
            Instr::Cascade,
            Instr::Back,
            add,
        ]);
        Ok(block)
    }

    fn step(&self, p: &mut Path, d: Delta) {
        p.instrs.push(Instr::Step(direction_name(d)));
        p.moved = true;
        if let Taint::Maybe { .. } = p.taint {
            p.taint = Taint::Maybe { stepped: true };
        }
    }

    /// Lowers one chain to its move blocks: every path is run item by item ([`Self::item`]);
    /// a condition some jump or block depends on forks it.
    fn chain(&self, ci: usize) -> Result<Vec<Vec<Instr>>, Unlowered> {
        let chain = &self.program.chains[ci];
        let ops = &self.program.ops;
        if let Some(block) =
            hop_capture(&ops[chain.start as usize..chain.end as usize], chain.start)
        {
            return Ok(vec![block]);
        }
        let mut ex = Explore {
            stack: vec![Path {
                pc: chain.start,
                val: Val::True,
                instrs: Vec::new(),
                moved: false,
                transition: Reg::Known(None),
                state_known: true,
                taint: Taint::Clean,
            }],
            out: Vec::new(),
            paths: 1,
            work: 0,
            end: chain.end,
        };
        while let Some(mut p) = ex.stack.pop() {
            while p.pc < chain.end {
                if let Flow::Stop = self.item(&mut p, &mut ex)? {
                    break;
                }
            }
            if let Some(block) = finish(p.instrs) {
                ex.out.push(block);
            }
        }
        Ok(ex.out)
    }

    /// Runs the item at `p.pc` on the path `p`, first resolving the pending value when the item
    /// is no control item (a false value ends the path).
    fn item(&self, p: &mut Path, ex: &mut Explore) -> Result<Flow, Unlowered> {
        let ops = &self.program.ops;
        let pc = p.pc;
        ex.work += 1;
        if ex.work > MAX_WORK {
            return Err(self.err(
                pc,
                "a chain too large to explore (more than 2^20 items visited or copied over all its ways)",
            ));
        }
        let op = ops[pc as usize];
        if !op.is_control() {
            match p.val {
                Val::False => return Ok(Flow::Stop),
                Val::Cond { .. } => self.resolve(p, true),
                Val::True => {}
            }
        }
        let next = ops
            .get(pc as usize + 1)
            .copied()
            .filter(|_| pc + 1 < ex.end);
        p.pc += 1;
        match op {
            Op::Step(MoveKind::Shift, d)
                if d != Delta::default() && next != Some(Op::Repeat(pc)) =>
            {
                self.step(p, d);
                ex.out.push(self.swap_block(p, pc)?);
            }
            Op::Anchor(d) => {
                if d != Delta::default() {
                    self.step(p, d);
                }
            }
            Op::Step(kind, d) => return self.movement(p, kind, d, next, ex.end),
            Op::SetState(k, n) => p.instrs.push(Instr::SetState {
                key: self.name(k),
                value: n as i64,
            }),
            Op::ClearState => {
                p.instrs.push(Instr::ClearState);
                p.state_known = true;
            }
            Op::Transition(k) => p.transition = Reg::Known(Some(self.name(k))),
            Op::ClearTransition => p.transition = Reg::Known(None),
            Op::Repeat(_) => {
                return Err(self.err(
                    pc,
                    "a `repeat` loop other than a one-expression slide `take-move(…) repeat(1)` / `move(…) repeat(1)`",
                ));
            }
            Op::Do => self.do_while(p, pc, ex.end)?,
            Op::While(_) => return Err(self.err(pc, "a `do … while` loop")),
            Op::Label => {}
            Op::Jmp(t) | Op::Jne(t) => self.jump(p, matches!(op, Op::Jmp(_)), t, pc, ex)?,
            Op::Not => {
                p.val = match std::mem::replace(&mut p.val, Val::True) {
                    Val::True => Val::False,
                    Val::False => Val::True,
                    Val::Cond {
                        base,
                        neg,
                        step,
                        capture_if_false,
                    } => Val::Cond {
                        base,
                        neg: !neg,
                        step,
                        capture_if_false,
                    },
                }
            }
            Op::Open(close) => self.open(p, close, pc, ex)?,
            Op::Close => return Ok(Flow::Stop),
            other => p.val = self.test(p, other, pc)?,
        }
        Ok(Flow::Next)
    }

    /// The value of a test item (`peek`, `observe`, `bound`, `enemy`, `piece`, `if-state`, …).
    fn test(&self, p: &Path, op: Op, pc: u32) -> Result<Val, Unlowered> {
        Ok(match op {
            Op::Peek(d) => Val::Cond {
                base: test_at(Test::Empty, d),
                neg: false,
                step: (d != Delta::default()).then_some(d),
                capture_if_false: false,
            },
            Op::Observe(d) => cond_val(test_at(Test::Empty, d)),
            Op::Bound(d) => cond_val(bound_cond(d)),
            Op::Edge(d) => cond_val(edge_cond(d)),
            Op::Corner(d) => cond_val(corner_cond(d)),
            Op::EdgeSide(s, d) => cond_val(edge_side_cond(s, d)),
            Op::CornerSide(v, h, d) => cond_val(corner_side_cond(v, h, d)),
            Op::Check => {
                return Err(self.err(
                    pc,
                    "`check` (the spec has no test for the mover's royal piece being attacked)",
                ));
            }
            Op::Danger(_) => {
                return Err(self.err(
                    pc,
                    "`danger` (the spec's `attacked` does not play the move first)",
                ));
            }
            Op::PieceOn(k, d) => cond_val(Cond::Piece {
                piece: self.name(k),
                at: at(d),
            }),
            Op::Enemy(d) => cond_val(test_at(Test::Enemy, d)),
            Op::Friendly(d) => cond_val(test_at(Test::Friend, d)),
            Op::Piece(k) => {
                if p.moved {
                    return Err(self.err(
                        pc,
                        "`piece(…)` after the anchor has left the piece's square",
                    ));
                }
                cond_val(Cond::Piece {
                    piece: self.name(k),
                    at: None,
                })
            }
            Op::IfState(k, n) => cond_val(Cond::State {
                key: self.name(k),
                value: n as i64,
            }),
            other => return Err(self.err(pc, ms_construct(other))),
        })
    }

    /// A movement expression (`move`, `take-move`, `take`, `catch`) at `p.pc - 1`, or the slide
    /// it makes with a following `repeat(1)` (which ends the path).
    fn movement(
        &self,
        p: &mut Path,
        kind: MoveKind,
        d: Delta,
        next: Option<Op>,
        end: u32,
    ) -> Result<Flow, Unlowered> {
        let pc = p.pc - 1;
        let op = Op::Step(kind, d);
        if !matches!(
            kind,
            MoveKind::Move | MoveKind::TakeMove | MoveKind::Take | MoveKind::Catch
        ) {
            return Err(self.err(pc, ms_construct(op)));
        }
        if d == Delta::default() {
            return Err(self.err(pc, "a movement expression by (0, 0)"));
        }
        if next == Some(Op::Repeat(pc)) {
            // A slide: it only ends on a false value, which ends the path.
            self.slide(p, kind, d, pc)?;
            return Ok(Flow::Stop);
        }
        let after = self.program.ops[pc as usize + 1..end as usize]
            .iter()
            .find(|o| **o != Op::Label);
        if after.is_some_and(|o| o.is_control()) {
            return Err(self.err(
                pc,
                "a movement expression followed by a control item (`not`, `jmp`, `jne`, `while`, `label`)",
            ));
        }
        self.step(p, d);
        let here = Delta::default();
        let a = self.add(p, pc)?;
        match kind {
            MoveKind::Move => {
                p.instrs.push(Instr::Verify(test_at(Test::Empty, here)));
                p.instrs.push(a);
            }
            MoveKind::TakeMove => {
                p.instrs
                    .push(Instr::Verify(negate(test_at(Test::Friend, here))));
                // `add` replaces an enemy there (no `capture`: in ZoG it would remove the
                // landing piece itself).
                p.instrs.push(a);
                p.val = Val::Cond {
                    base: test_at(Test::Empty, here),
                    neg: false,
                    step: None,
                    capture_if_false: true,
                };
            }
            _ => {
                p.instrs
                    .push(Instr::Verify(negate(test_at(Test::Friend, here))));
                let then_ = if kind == MoveKind::Take {
                    vec![a]
                } else {
                    vec![
                        Instr::Capture { at: None },
                        Instr::Mark,
                        Instr::From { go: true },
                        a,
                        Instr::Back,
                    ]
                };
                p.instrs.push(Instr::If {
                    cond: test_at(Test::Enemy, here),
                    then_,
                    else_: vec![],
                });
                p.taint = Taint::Maybe { stepped: false };
            }
        }
        Ok(Flow::Next)
    }

    /// `move(d) repeat(1)` and `take-move(d) repeat(1)`.
    fn slide(&self, p: &mut Path, kind: MoveKind, d: Delta, pc: u32) -> Result<(), Unlowered> {
        let dir = direction_name(d);
        let mut body = vec![Instr::Step(dir.clone())];
        match kind {
            MoveKind::TakeMove | MoveKind::Move => {
                body.push(self.add(p, pc)?);
                p.instrs.push(Instr::While {
                    cond: test_at(Test::Empty, d),
                    body,
                });
                if kind == MoveKind::TakeMove {
                    p.instrs.push(Instr::Verify(test_at(Test::Enemy, d)));
                    p.instrs.push(Instr::Step(dir));
                    // `add` replaces the enemy there: in ZoG a `capture` where the piece
                    // lands would remove the piece itself.
                    p.instrs.push(self.add(p, pc)?);
                }
                Ok(())
            }
            _ => Err(self.err(
                pc,
                format!(
                    "`{}(…) repeat(1)` (one move per captured piece along a line)",
                    kind.name()
                ),
            )),
        }
    }

    /// A one-expression `do … while` loop at `pc` (`do take-move(d) while`, `do move(d)
    /// while`, `do peek(d) while`): a `while` of the spec.
    fn do_while(&self, p: &mut Path, pc: u32, end: u32) -> Result<(), Unlowered> {
        let ops = &self.program.ops;
        let body = ops.get(pc as usize + 1).copied();
        let close = ops.get(pc as usize + 2).copied();
        let other = || {
            self.err(
                pc,
                "a `do … while` loop other than `do take-move(…) while`, `do move(…) while` or `do peek(…) while`",
            )
        };
        if pc + 2 >= end || close != Some(Op::While(pc)) {
            return Err(other());
        }
        let (kind, d) = match body {
            Some(Op::Step(k, d)) if matches!(k, MoveKind::Move | MoveKind::TakeMove) => {
                (Some(k), d)
            }
            Some(Op::Peek(d)) => (None, d),
            _ => return Err(other()),
        };
        if d == Delta::default() {
            return Err(self.err(pc, "a `do … while` loop by (0, 0)"));
        }
        let dir = direction_name(d);
        let mut body = vec![Instr::Step(dir.clone())];
        if kind.is_some() {
            body.push(self.add(p, pc)?);
        }
        p.instrs.push(Instr::While {
            cond: test_at(Test::Empty, d),
            body,
        });
        if kind == Some(MoveKind::TakeMove) {
            let a = self.add(p, pc)?;
            p.instrs.push(Instr::If {
                cond: test_at(Test::Enemy, d),
                then_: vec![Instr::Step(dir), a],
                else_: vec![],
            });
            p.taint = Taint::Maybe { stepped: false };
        }
        p.moved = true;
        p.pc = pc + 3;
        p.val = Val::True;
        Ok(())
    }

    /// Counts one more path of the chain (bounded by [`MAX_PATHS`]), which copies `len`
    /// instructions.
    fn fork(&self, ex: &mut Explore, len: usize, pc: u32) -> Result<(), Unlowered> {
        ex.paths += 1;
        ex.work += len;
        if ex.paths > MAX_PATHS {
            return Err(self.err(pc, "too many paths through one chain"));
        }
        Ok(())
    }

    /// `jmp(t)` (`jump_when` true) or `jne(t)` at `pc`: a value known statically jumps or not;
    /// a board-dependent one forks the path (the other way is pushed on the stack).
    fn jump(
        &self,
        p: &mut Path,
        jump_when: bool,
        t: u32,
        pc: u32,
        ex: &mut Explore,
    ) -> Result<(), Unlowered> {
        if t <= pc {
            return Err(self.err(pc, "a backward jump (a loop)"));
        }
        if self.block_of[t as usize] != self.block_of[pc as usize] {
            return Err(self.err(pc, "a jump into or out of a `{ … }` block"));
        }
        match std::mem::replace(&mut p.val, Val::True) {
            Val::True => {
                if jump_when {
                    p.pc = t;
                }
            }
            Val::False => {
                if !jump_when {
                    p.pc = t;
                }
            }
            v @ Val::Cond { .. } => {
                self.fork(ex, p.instrs.len(), pc)?;
                let mut other = p.clone();
                other.val = v.clone();
                self.resolve(&mut other, !jump_when);
                other.val = Val::True;
                p.val = v;
                self.resolve(p, jump_when);
                p.pc = t;
                ex.stack.push(other);
            }
        }
        p.val = Val::True;
        Ok(())
    }

    /// `{` at `pc`, closed at `close`: the path enters the block; a copy that skips it is
    /// pushed (its transition and state unknown when the block may have set them).
    fn open(&self, p: &Path, close: u32, pc: u32, ex: &mut Explore) -> Result<(), Unlowered> {
        self.fork(ex, p.instrs.len(), pc)?;
        let mut skip = p.clone();
        skip.pc = close + 1;
        let inner = &self.program.ops[pc as usize + 1..close as usize];
        if inner
            .iter()
            .any(|o| matches!(o, Op::Transition(_) | Op::ClearTransition))
        {
            skip.transition = Reg::Unknown;
        }
        if inner
            .iter()
            .any(|o| matches!(o, Op::SetState(..) | Op::ClearState))
        {
            skip.state_known = false;
        }
        ex.stack.push(skip);
        Ok(())
    }
}

/// The state of one chain's exploration: the paths left, the blocks written, and the bounds.
struct Explore {
    stack: Vec<Path>,
    out: Vec<Vec<Instr>>,
    paths: usize,
    work: usize,
    /// One past the chain's last op.
    end: u32,
}

/// Whether a path goes on after an item.
enum Flow {
    Next,
    Stop,
}

fn cond_val(c: Cond) -> Val {
    Val::Cond {
        base: c,
        neg: false,
        step: None,
        capture_if_false: false,
    }
}

fn has_add(i: &Instr) -> bool {
    match i {
        Instr::Add { .. } => true,
        Instr::If { then_, else_, .. } => then_.iter().chain(else_).any(has_add),
        Instr::While { body, .. } => body.iter().any(has_add),
        _ => false,
    }
}

/// A path's program without its trailing instructions that cannot add a move; `None` when it
/// adds none.
fn finish(mut instrs: Vec<Instr>) -> Option<Vec<Instr>> {
    let last = instrs.iter().rposition(has_add)?;
    instrs.truncate(last + 1);
    Some(instrs)
}

/// Drops duplicate blocks and blocks whose program is a prefix of another's (every move the
/// shorter one adds, the longer one adds too, on every board). Quadratic: used per chain.
pub fn prune(blocks: &mut Vec<Vec<Instr>>) {
    let mut keep: Vec<Vec<Instr>> = Vec::new();
    for (i, b) in blocks.iter().enumerate() {
        let covered = blocks.iter().enumerate().any(|(j, o)| {
            j != i && o.len() >= b.len() && o[..b.len()] == b[..] && (o.len() > b.len() || j < i)
        });
        if !covered {
            keep.push(b.clone());
        }
    }
    *blocks = keep;
}

/// The spec board of a lowered script: a `files`×`ranks` grid named like algebraic squares, with
/// the given directions (their negations added) and the second player's 180° symmetry.
pub fn grid_board(files: usize, ranks: usize, used: &[Delta]) -> Board {
    let mut deltas: Vec<(i64, i64)> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for d in used {
        let v = (i64::from(d.dx), i64::from(d.dy));
        if v != (0, 0) && seen.insert(v) {
            deltas.push(v);
        }
    }
    for (dx, dy) in deltas.clone() {
        if seen.insert((-dx, -dy)) {
            deltas.push((-dx, -dy));
        }
    }
    frame::rectangle(files, ranks, &deltas, PLAYERS[1], |(dx, dy)| (-dx, -dy))
}

/// Every direction named by these blocks, as deltas, in order of first use.
pub fn used_deltas(blocks: &[MoveBlock]) -> Vec<Delta> {
    let mut names = Vec::new();
    for b in blocks {
        b.program.iter().for_each(|i| instr_dirs(i, &mut names));
    }
    let mut out: Vec<Delta> = Vec::new();
    let mut seen: HashSet<Delta> = HashSet::new(); // lookup only
    for n in names {
        if let Some(d) = parse_direction_name(&n)
            && seen.insert(d)
        {
            out.push(d);
        }
    }
    out
}

/// Most distinct directions (move vectors) one script may use: every direction becomes a
/// board direction with a link from every square, so 50,000 of them cost seconds and hundreds
/// of megabytes. Real scripts use a few dozen.
pub const MAX_DIRECTIONS: usize = 1_024;

/// Error code: a script uses more than [`MAX_DIRECTIONS`] distinct directions.
pub const CODE_TOO_MANY_DIRECTIONS: &str = "chessembly::too-many-directions";

/// The file name without directories and extension.
fn stem(name: &str) -> &str {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    match base.rfind('.') {
        Some(i) if i > 0 => &base[..i],
        _ => base,
    }
}

/// Lowers a Chessembly script (one piece) to a spec document with one game: a grid board of
/// `opts.files`×`opts.ranks` squares and one piece. Returns `None` and the errors when the
/// script does not compile; otherwise the document plus a `chessembly::unlowered` warning for
/// every chain carried verbatim in `extensions` (as `chessembly` items).
pub fn lower(
    name: &str,
    text: &str,
    file: FileId,
    opts: &LowerOptions,
) -> (Option<Document>, Vec<Diagnostic>) {
    let (doc, diags, _) = lower_located(name, text, file, opts);
    (doc, diags)
}

/// [`lower`], with where the piece and each of its move blocks stand in `text` (the chain a
/// block comes from), so that writers locate what they lose at the script.
pub fn lower_located(
    name: &str,
    text: &str,
    file: FileId,
    opts: &LowerOptions,
) -> (Option<Document>, Vec<Diagnostic>, Origins) {
    let (doc, diags, spans) = lower_spans(name, text, file, opts);
    let origins = match &doc {
        Some(d) => {
            // The script is the game and the piece: they stand at its start.
            let first = Some(Span::new(file, 0, 0));
            Origins {
                games: vec![GameOrigin {
                    at: first,
                    pieces: vec![PieceOrigin {
                        name: d.games[0].pieces[0].name.clone(),
                        at: first,
                        moves: spans,
                        drops: Vec::new(),
                    }],
                }],
            }
        }
        None => Origins::default(),
    };
    (doc, diags, origins)
}

fn lower_spans(
    name: &str,
    text: &str,
    file: FileId,
    opts: &LowerOptions,
) -> (Option<Document>, Vec<Diagnostic>, Vec<Span>) {
    let mut symbols = Symbols::new();
    let program = match compile_with(text, file, &mut symbols, opts.dialect) {
        Ok(p) => p,
        Err(d) => return (None, d, Vec::new()),
    };
    let mut diags = program.notes.clone();
    if opts.files == 0
        || opts.ranks == 0
        || opts.files > super::board::MAX_SIDE
        || opts.ranks > super::board::MAX_SIDE
    {
        diags.push(Diagnostic::new(
            Severity::Error,
            "chessembly::bad-board",
            format!(
                "a board of {}×{} squares cannot be built (1 to {} per side)",
                opts.files,
                opts.ranks,
                super::board::MAX_SIDE
            ),
            None,
        ));
        return (None, diags, Vec::new());
    }
    let mut block_of = vec![u32::MAX; program.ops.len()];
    for c in &program.chains {
        let mut open: Vec<u32> = Vec::new();
        for i in c.start..c.end {
            if program.ops[i as usize] == Op::Close {
                open.pop();
            }
            block_of[i as usize] = open.last().copied().unwrap_or(u32::MAX);
            if let Op::Open(_) = program.ops[i as usize] {
                open.push(i);
            }
        }
    }
    let lw = Lowerer {
        program: &program,
        symbols: &symbols,
        block_of,
    };
    let mut blocks: Vec<Vec<Instr>> = Vec::new();
    let mut spans: Vec<Span> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut ext = Vec::new();
    for (ci, chain) in program.chains.iter().enumerate() {
        match lw.chain(ci) {
            Ok(mut b) => {
                // Paths of one chain share prefixes; across chains only exact duplicates are
                // dropped (keeps this linear in the script's size).
                prune(&mut b);
                // A way that is a plain movement is the table's program of it (a part of a
                // way that adds along it may now be a prefix of another way).
                let mut typed: Vec<Vec<Instr>> = b
                    .into_iter()
                    .flat_map(|x| super::canon::typed(&x).unwrap_or_else(|| vec![x]))
                    .collect();
                prune(&mut typed);
                for x in typed {
                    if seen.insert(format!("{x:?}")) {
                        blocks.push(x);
                        spans.push(chain.span);
                    }
                }
            }
            Err(u) => {
                let src = text
                    .get(chain.span.start as usize..chain.span.end as usize)
                    .unwrap_or("")
                    .trim();
                ext.push(format!("{src};"));
                diags.push(
                    Diagnostic::new(
                        Severity::Warning,
                        CODE_UNLOWERED,
                        format!(
                            "this chain is kept as Chessembly text in the spec's extensions: the spec cannot express {}",
                            u.message
                        ),
                        Some(u.span),
                    )
                    .with_note(Some(chain.span), "the chain"),
                );
            }
        }
    }
    let moves: Vec<MoveBlock> = blocks
        .into_iter()
        .map(|program| MoveBlock {
            move_type: None,
            program,
        })
        .collect();
    let title = stem(name).to_string();
    let piece = Piece {
        name: opts.piece_name.clone().unwrap_or_else(|| title.clone()),
        moves,
        extensions: Extensions::of(RawFormat::Chessembly, ext),
        ..Piece::default()
    };
    let used = used_deltas(&piece.moves);
    if used.len() > MAX_DIRECTIONS {
        diags.push(Diagnostic::error(
            CODE_TOO_MANY_DIRECTIONS,
            format!(
                "the script moves in {} distinct directions, more than the limit of {MAX_DIRECTIONS}; it is not read",
                used.len()
            ),
            Span::new(file, 0, 0),
        ));
        return (None, diags, Vec::new());
    }
    let board = grid_board(opts.files, opts.ranks, &used);
    let doc = Document {
        procedures: Vec::new(),
        spec_version: SPEC_VERSION.to_string(),
        source: Source {
            dialect: (program.dialect != Dialect::Seed).then(|| program.dialect.name().to_string()),
            ..Source::of_text("chessembly", name, text)
        },
        games: vec![Game {
            engine: None,
            kind: EntryKind::Game,
            title,
            variant_of: None,
            default: false,
            texts: Texts::default(),
            players: PLAYERS.iter().map(|p| p.to_string()).collect(),
            turn_order: TurnOrder::alternating(&PLAYERS),
            options: Vec::new(),
            sounds: Vec::new(),
            boards: vec![board],
            pieces: vec![piece],
            setup: Vec::new(),
            goals: Vec::new(),
            move_priorities: Vec::new(),
            extensions: Extensions::default(),
        }],
    };
    (Some(doc), diags, spans)
}

/// The MS hop captures as whole chains: `take(d) jump(e)` (capture the enemy `d` away and land
/// `e` beyond it on an empty square) and the jumping cannon
/// `do take(d) enemy(0, 0) not while jump(e) repeat(1)` (slide over empty squares to the first
/// piece, which must be an enemy, capture it and land on any empty square along `e` beyond it).
/// The spec's `add` completes a move and drops its captures, so each landing of the cannon sets
/// the destination (`to`), captures at the marked square and returns (`go to`).
pub fn hop_capture(ops: &[Op], start: u32) -> Option<Vec<Instr>> {
    let zero = Delta::default();
    match *ops {
        [Op::Step(MoveKind::Take, d), Op::Jump(e)] if d != zero && e != zero => Some(vec![
            Instr::Verify(test_at(Test::Enemy, d)),
            Instr::Step(direction_name(d)),
            Instr::Capture { at: None },
            Instr::Step(direction_name(e)),
            Instr::Verify(test_at(Test::Empty, zero)),
            Instr::plain_add(),
        ]),
        [
            Op::Do,
            Op::Step(MoveKind::Take, d),
            Op::Enemy(z),
            Op::Not,
            Op::While(w),
            Op::Jump(e),
            Op::Repeat(r),
        ] if d != zero && e != zero && z == zero && w == start && r == start + 5 => Some(vec![
            Instr::While {
                cond: test_at(Test::Empty, d),
                body: vec![Instr::Step(direction_name(d))],
            },
            Instr::Verify(test_at(Test::Enemy, d)),
            Instr::Step(direction_name(d)),
            Instr::Mark,
            Instr::While {
                cond: test_at(Test::Empty, e),
                body: vec![
                    Instr::Step(direction_name(e)),
                    Instr::To { go: false },
                    Instr::Back,
                    Instr::Capture { at: None },
                    Instr::plain_add(),
                    Instr::To { go: true },
                ],
            },
        ]),
        _ => None,
    }
}

/// Names an MS-dialect construct the lowering keeps verbatim.
fn ms_construct(op: Op) -> String {
    let what = match op {
        Op::Step(MoveKind::Shift, _) => {
            "`shift(…) repeat(1)` (a swap with every piece along a line)"
        }
        Op::Step(MoveKind::PlaceMove, _) => "`place-move`",
        Op::Jump(_) => "`jump` (a `take … jump` hop capture in a loop or after other items)",
        Op::End => "`end`",
        Op::Const(_) => "`true` / `false`",
        Op::Color(_) | Op::ColorOn(..) => "`color` / `color-on`",
        Op::Absolute(..) => "`absolute` / `absolute-x` / `absolute-y`",
        Op::Reg(..) => "the one-bit registers (`read`, `read-and`, `read-or`, `read-xor`, `write`)",
        Op::ReadAnchor(_) | Op::WriteAnchor(_) => {
            "the anchor slots (`read-anchor`, `write-anchor`)"
        }
        Op::Composite(_) => "a composite block `+ { }` / `| { }`",
        _ => "an MS-dialect expression",
    };
    format!("{what}, an MS-dialect construct the spec cannot express")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direction_names_round_trip() {
        for (dx, dy, name) in [(1, 2, "d+1+2"), (0, -1, "d+0-1"), (-12, 0, "d-12+0")] {
            let d = Delta::new(dx, dy);
            assert_eq!(direction_name(d), name);
            assert_eq!(parse_direction_name(name), Some(d));
        }
        assert_eq!(parse_direction_name("n"), None);
        assert_eq!(parse_direction_name("d1+2"), None);
    }

    #[test]
    fn negation_folds_constants_and_double_negation() {
        let ob = on_board(Delta::new(1, 0));
        assert_eq!(negate(negate(ob.clone())), ob);
        assert_eq!(negate(Cond::Const(false)), Cond::Const(true));
        assert_eq!(bound_cond(Delta::default()), Cond::Const(false));
    }

    #[test]
    fn edge_and_corner_conditions_use_axis_directions() {
        // A vertical step can only leave across the top or bottom.
        assert_eq!(edge_cond(Delta::new(0, 2)), bound_cond(Delta::new(0, 2)));
        assert_eq!(corner_cond(Delta::new(0, 2)), Cond::Const(false));
        assert_eq!(
            edge_side_cond(Side::Top, Delta::new(0, -1)),
            Cond::Const(false)
        );
        assert_eq!(
            corner_side_cond(Side::Top, Side::Right, Delta::new(1, 1)),
            Cond::And(vec![
                negate(on_board(Delta::new(0, 1))),
                negate(on_board(Delta::new(1, 0)))
            ])
        );
    }

    #[test]
    fn prune_drops_prefixes_and_duplicates() {
        let s = |d: &str| Instr::Step(d.into());
        let mut b = vec![
            vec![s("a")],
            vec![s("a"), s("b")],
            vec![s("c")],
            vec![s("c")],
        ];
        prune(&mut b);
        assert_eq!(b, vec![vec![s("a"), s("b")], vec![s("c")]]);
    }
}
