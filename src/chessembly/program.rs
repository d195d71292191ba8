//! Compiled Chessembly programs: flat instruction arrays with resolved jumps, plus static shapes.
//!
//! A [`Program`] is built once from a [`Script`] and run many times by the interpreter. Each chain
//! is a contiguous range of [`Op`]s; op `i` of a chain is item `i` of the source chain, so
//! `repeat(n)` simply jumps to `i - n`. Jumps (`repeat`, `while`, `jmp`, `jne`) and brace pairs
//! are resolved to absolute op indices at compile time. Names (piece kinds, state keys) are
//! interned in a shared [`Symbols`] table so the interpreter compares integers.
//!
//! For lowering to the portable spec, every chain also carries a [`ChainShape`] (a single leap, a
//! slide, or something else) and a [`Reach`] (an over-approximation of where it can capture),
//! computed here from the ops alone.

use super::syntax::{
    Chain, Composite, Delta, Dialect, Expr, Item, MoveKind, RegOp, Script, Side, parse_with,
    push_capped,
};
use crate::diag::{Diagnostic, FileId, Span};
use std::collections::HashMap;

/// An interned name (piece kind or state key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u16);

/// Interns names; shared by every program of one rule set and by its boards.
#[derive(Debug, Clone, Default)]
pub struct Symbols {
    names: Vec<String>,
    index: HashMap<String, Sym>,
}

impl Symbols {
    /// An empty table.
    pub fn new() -> Symbols {
        Symbols::default()
    }
    /// The symbol for `name`, adding it when new.
    pub fn intern(&mut self, name: &str) -> Sym {
        if let Some(&s) = self.index.get(name) {
            return s;
        }
        let s = Sym(self.names.len() as u16);
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), s);
        s
    }
    /// The symbol for `name` if it was interned.
    pub fn get(&self, name: &str) -> Option<Sym> {
        self.index.get(name).copied()
    }
    /// The name behind a symbol.
    pub fn name(&self, s: Sym) -> &str {
        self.names
            .get(s.0 as usize)
            .map(String::as_str)
            .unwrap_or("?")
    }
    /// Number of interned names.
    pub fn len(&self) -> usize {
        self.names.len()
    }
    /// True when nothing was interned.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// One compiled instruction. Jump targets are absolute op indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// A movement expression.
    Step(MoveKind, Delta),
    /// `peek`.
    Peek(Delta),
    /// `observe`.
    Observe(Delta),
    /// `bound`.
    Bound(Delta),
    /// `edge`.
    Edge(Delta),
    /// `corner`.
    Corner(Delta),
    /// `edge-<side>`.
    EdgeSide(Side, Delta),
    /// `corner-<vertical>-<horizontal>`.
    CornerSide(Side, Side, Delta),
    /// `check`.
    Check,
    /// `danger`.
    Danger(Delta),
    /// `piece-on`.
    PieceOn(Sym, Delta),
    /// `enemy`.
    Enemy(Delta),
    /// `friendly`.
    Friendly(Delta),
    /// `piece`.
    Piece(Sym),
    /// `set-state(key, n)`.
    SetState(Sym, i32),
    /// bare `set-state`.
    ClearState,
    /// `if-state`.
    IfState(Sym, i32),
    /// `transition(p)`.
    Transition(Sym),
    /// bare `transition`.
    ClearTransition,
    /// `repeat(n)`, resolved to the op it jumps back to.
    Repeat(u32),
    /// `do`.
    Do,
    /// `while`, with the index of its `do`.
    While(u32),
    /// `label(n)`.
    Label,
    /// `jmp(n)`, resolved to its label's index.
    Jmp(u32),
    /// `jne(n)`, resolved to its label's index.
    Jne(u32),
    /// `not`.
    Not,
    /// `{`, with the index of its `}`.
    Open(u32),
    /// `}`.
    Close,
    /// MS `jump(d)`.
    Jump(Delta),
    /// MS `anchor(d)`.
    Anchor(Delta),
    /// MS `end`.
    End,
    /// MS `true` / `false`.
    Const(bool),
    /// MS `color` (`true` = white).
    Color(bool),
    /// MS `color-on`.
    ColorOn(bool, Delta),
    /// MS `absolute`, `absolute-x`, `absolute-y` (piece-frame coordinates; `None` keeps that one).
    Absolute(Option<i32>, Option<i32>),
    /// MS `read*` / `write`.
    Reg(RegOp, i32),
    /// MS `read-anchor`.
    ReadAnchor(i32),
    /// MS `write-anchor`.
    WriteAnchor(i32),
    /// MS `+` / `|` (the next op is its `{`).
    Composite(Composite),
}

impl Op {
    /// Control items run even when the current value is false (`while`, `label`, `jmp`, `jne`,
    /// `not`); every other item ends the innermost block or the chain on a false value.
    #[inline]
    pub fn is_control(self) -> bool {
        matches!(
            self,
            Op::While(_)
                | Op::Label
                | Op::Jmp(_)
                | Op::Jne(_)
                | Op::Not
                | Op::Const(_)
                | Op::Reg(..)
                | Op::Composite(_)
        )
    }
}

/// The static shape of a chain, for lowering to step/slide/leap vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainShape {
    /// Exactly one movement expression: a leap (or step) by `delta`.
    Leap(MoveKind, Delta),
    /// A movement expression followed by `repeat(1)`: a slide along `delta`.
    Slide(MoveKind, Delta),
    /// Anything else (conditions, blocks, loops, state).
    Other,
}

/// Where a chain can possibly capture, relative to the piece's square, in its own frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reach {
    /// It has no capturing expression.
    Never,
    /// Only on one of these offsets (loop-free chains).
    Offsets(Vec<Delta>),
    /// Only on positive multiples of the delta (slides).
    Ray(Delta),
    /// Anywhere.
    Any,
}

/// One compiled chain: an op range and its static facts.
#[derive(Debug, Clone)]
pub struct ChainInfo {
    /// First op.
    pub start: u32,
    /// One past the last op.
    pub end: u32,
    /// Source span of the chain.
    pub span: Span,
    /// Static shape.
    pub shape: ChainShape,
    /// Capture reach.
    pub reach: Reach,
    /// The chain uses `jump`, which withdraws an emitted `take`.
    pub jumps: bool,
}

/// A compiled script.
#[derive(Debug, Clone)]
pub struct Program {
    /// All ops of all chains.
    pub ops: Vec<Op>,
    /// Source span of each op (parallel to `ops`).
    pub spans: Vec<Span>,
    /// Chains in source order.
    pub chains: Vec<ChainInfo>,
    /// True when any op needs the attack sets (`check`, `danger`).
    pub uses_attacks: bool,
    /// For each offset in a window around the piece, the chains whose [`Reach`] includes it.
    attack_index: AttackIndex,
    /// The dialect the script was read as.
    pub dialect: Dialect,
    /// Notes and warnings from compiling (the `chessembly::dialect` note).
    pub notes: Vec<Diagnostic>,
}

/// Half-width of the [`AttackIndex`] window (covers boards up to 17×17 exactly).
const INDEX_RADIUS: i32 = 16;

/// A table from relative offset to the chains that may capture there, so an attack test costs
/// one lookup per piece. Chains with [`Reach::Any`] are kept once, in `any`; offsets outside the
/// window fall back to every capturing chain. Its size is linear in the number of chains.
#[derive(Debug, Clone, Default)]
struct AttackIndex {
    /// `(start, len)` into `chains` for each cell of the (2R+1)² window.
    cells: Vec<(u32, u32)>,
    /// Chains with offset or ray reach, grouped by cell.
    chains: Vec<u32>,
    /// Chains that may capture anywhere.
    any: Vec<u32>,
    /// Every chain that can capture at all.
    capturing: Vec<u32>,
}

impl AttackIndex {
    fn build(chains: &[ChainInfo]) -> AttackIndex {
        let side = 2 * INDEX_RADIUS + 1;
        let cell = |dx: i32, dy: i32| {
            (dx.abs() <= INDEX_RADIUS && dy.abs() <= INDEX_RADIUS)
                .then(|| ((dy + INDEX_RADIUS) * side + dx + INDEX_RADIUS) as usize)
        };
        let mut per_cell: Vec<Vec<u32>> = vec![Vec::new(); (side * side) as usize];
        let mut idx = AttackIndex::default();
        for (i, c) in chains.iter().enumerate() {
            let i = i as u32;
            match &c.reach {
                Reach::Never => continue,
                Reach::Any => idx.any.push(i),
                Reach::Offsets(offs) => {
                    for d in offs {
                        if let Some(k) = cell(d.dx as i32, d.dy as i32) {
                            per_cell[k].push(i);
                        }
                    }
                }
                Reach::Ray(d) => {
                    let (mut x, mut y) = (d.dx as i32, d.dy as i32);
                    while let Some(k) = cell(x, y) {
                        per_cell[k].push(i);
                        if d.dx == 0 && d.dy == 0 {
                            break;
                        }
                        x += d.dx as i32;
                        y += d.dy as i32;
                    }
                }
            }
            idx.capturing.push(i);
        }
        for list in per_cell {
            let start = idx.chains.len() as u32;
            idx.chains.extend(list);
            idx.cells.push((start, idx.chains.len() as u32 - start));
        }
        idx
    }
}

impl Reach {
    /// Can a chain with this reach capture at offset `(dx, dy)` (in the piece's frame)?
    #[inline]
    pub fn may_capture_at(&self, dx: i32, dy: i32) -> bool {
        match self {
            Reach::Never => false,
            Reach::Any => true,
            Reach::Offsets(offs) => offs.iter().any(|d| d.dx as i32 == dx && d.dy as i32 == dy),
            Reach::Ray(d) => {
                let (rx, ry) = (d.dx as i32, d.dy as i32);
                let k = if rx != 0 {
                    dx / rx
                } else if ry != 0 {
                    dy / ry
                } else {
                    return false;
                };
                k >= 1 && k * rx == dx && k * ry == dy
            }
        }
    }
}

impl Program {
    /// Indices of the chains that may capture at offset `(dx, dy)` from the piece, in its frame,
    /// as two lists (chains with a bounded reach, then chains that may capture anywhere). Outside
    /// a window of ±16 the first list is every capturing chain, so callers re-check with
    /// [`Reach::may_capture_at`].
    #[inline]
    pub fn chains_reaching(&self, dx: i32, dy: i32) -> (&[u32], &[u32]) {
        let idx = &self.attack_index;
        if dx.abs() > INDEX_RADIUS || dy.abs() > INDEX_RADIUS || idx.cells.is_empty() {
            return (&idx.capturing, &[]);
        }
        let side = 2 * INDEX_RADIUS + 1;
        let (start, len) = idx.cells[((dy + INDEX_RADIUS) * side + dx + INDEX_RADIUS) as usize];
        (
            &idx.chains[start as usize..(start + len) as usize],
            &idx.any,
        )
    }
}

/// Parses and compiles `text`; on any error returns every diagnostic instead.
pub fn compile(
    text: &str,
    file: FileId,
    symbols: &mut Symbols,
) -> Result<Program, Vec<Diagnostic>> {
    compile_with(text, file, symbols, None)
}

/// [`compile`] in a chosen dialect (`None`: detect MS words, with a note).
pub fn compile_with(
    text: &str,
    file: FileId,
    symbols: &mut Symbols,
    dialect: Option<Dialect>,
) -> Result<Program, Vec<Diagnostic>> {
    let (script, mut diags) = parse_with(text, file, dialect);
    // Static checks run even after syntax errors, so one pass reports everything it can.
    let mut program = lower_script(&script, symbols, &mut diags);
    if !diags
        .iter()
        .any(|d| d.severity == crate::diag::Severity::Error)
    {
        program.notes = diags;
        Ok(program)
    } else {
        // In source order; the too-many-errors note (no span) stays last.
        diags.sort_by_key(|d| d.span.map_or(u32::MAX, |s| s.start));
        Err(diags)
    }
}

/// Compiles a parsed script, resolving jumps and braces; static errors go to `diags`.
pub fn lower_script(
    script: &Script,
    symbols: &mut Symbols,
    diags: &mut Vec<Diagnostic>,
) -> Program {
    let mut p = Program {
        ops: Vec::new(),
        spans: Vec::new(),
        chains: Vec::new(),
        uses_attacks: false,
        attack_index: AttackIndex::default(),
        dialect: script.dialect,
        notes: Vec::new(),
    };
    for chain in &script.chains {
        lower_chain(&mut p, chain, symbols, diags);
    }
    p.attack_index = AttackIndex::build(&p.chains);
    p
}

/// Appends one chain's ops, and its [`ChainInfo`], to `p`.
fn lower_chain(p: &mut Program, chain: &Chain, symbols: &mut Symbols, diags: &mut Vec<Diagnostic>) {
    let base = p.ops.len() as u32;
    let items = &chain.items;
    // First label of each id.
    let mut labels: HashMap<i32, u32> = HashMap::new();
    for (i, it) in items.iter().enumerate() {
        if let Expr::Label(n) = it.expr {
            labels.entry(n).or_insert(base + i as u32);
        }
    }
    let mut cx = ChainCx {
        base,
        labels,
        opens: Vec::new(),
        dos: Vec::new(),
    };
    for (i, it) in items.iter().enumerate() {
        let op = cx.op(p, i, it, symbols, diags);
        p.ops.push(op);
        p.spans.push(it.span);
    }
    // Defensive: an unmatched `{` (only possible from a hand-built Script) closes at the end.
    for o in cx.opens {
        p.ops[o] = Op::Open(p.ops.len() as u32 - 1);
    }
    let end = p.ops.len() as u32;
    let ops = &p.ops[base as usize..end as usize];
    p.chains.push(ChainInfo {
        start: base,
        end,
        span: chain.span,
        shape: shape(ops),
        reach: reach(ops),
        jumps: ops.iter().any(|op| matches!(op, Op::Jump(_))),
    });
}

/// A chain being lowered: its first op, the first op of each label, and the `{` and `do` not
/// closed yet.
struct ChainCx {
    base: u32,
    labels: HashMap<i32, u32>,
    /// Indexes of the ops of the open `{`.
    opens: Vec<usize>,
    /// The ops of the `do` not matched by a `while` yet.
    dos: Vec<u32>,
}

impl ChainCx {
    /// The op of item `i` of the chain.
    fn op(
        &mut self,
        p: &mut Program,
        i: usize,
        it: &Item,
        symbols: &mut Symbols,
        diags: &mut Vec<Diagnostic>,
    ) -> Op {
        let here = self.base + i as u32;
        match &it.expr {
            Expr::Step(k, d) => Op::Step(*k, *d),
            Expr::Peek(d) => Op::Peek(*d),
            Expr::Observe(d) => Op::Observe(*d),
            Expr::Bound(d) => Op::Bound(*d),
            Expr::Edge(d) => Op::Edge(*d),
            Expr::Corner(d) => Op::Corner(*d),
            Expr::EdgeSide(s, d) => Op::EdgeSide(*s, *d),
            Expr::CornerSide(v, h, d) => Op::CornerSide(*v, *h, *d),
            Expr::Check => {
                p.uses_attacks = true;
                Op::Check
            }
            Expr::Danger(d) => {
                p.uses_attacks = true;
                Op::Danger(*d)
            }
            Expr::PieceOn(name, d) => Op::PieceOn(symbols.intern(name), *d),
            Expr::Enemy(d) => Op::Enemy(*d),
            Expr::Friendly(d) => Op::Friendly(*d),
            Expr::Piece(name) => Op::Piece(symbols.intern(name)),
            Expr::SetState(Some((k, n))) => Op::SetState(symbols.intern(k), *n),
            Expr::SetState(None) => Op::ClearState,
            Expr::IfState(k, n) => Op::IfState(symbols.intern(k), *n),
            Expr::Transition(Some(name)) => Op::Transition(symbols.intern(name)),
            Expr::Transition(None) => Op::ClearTransition,
            Expr::Repeat(n) => repeat(*n, i, here, it.span, diags),
            Expr::Do => {
                self.dos.push(here);
                Op::Do
            }
            Expr::While => self.while_op(here, it.span, diags),
            // Only present when parsing reported an error; never run.
            Expr::Label(_) | Expr::Invalid => Op::Label,
            Expr::Jmp(n) | Expr::Jne(n) => {
                let target = self.jump_target(*n, here, it.span, diags);
                if matches!(it.expr, Expr::Jmp(_)) {
                    Op::Jmp(target)
                } else {
                    Op::Jne(target)
                }
            }
            Expr::Not => Op::Not,
            Expr::Open => {
                self.opens.push(p.ops.len());
                Op::Open(u32::MAX)
            }
            Expr::Close => {
                // The parser guarantees balance; be defensive anyway.
                if let Some(o) = self.opens.pop() {
                    p.ops[o] = Op::Open(here);
                }
                Op::Close
            }
            Expr::Jump(d) => Op::Jump(*d),
            Expr::Anchor(d) => Op::Anchor(*d),
            Expr::End => Op::End,
            Expr::Const(b) => Op::Const(*b),
            Expr::Color(w) => Op::Color(*w),
            Expr::ColorOn(w, d) => Op::ColorOn(*w, *d),
            Expr::Absolute(x, y) => Op::Absolute(*x, *y),
            Expr::Reg(op, n) => Op::Reg(*op, *n),
            Expr::ReadAnchor(n) => Op::ReadAnchor(*n),
            Expr::WriteAnchor(n) => Op::WriteAnchor(*n),
            Expr::Composite(c) => Op::Composite(*c),
        }
    }

    /// `while`: back to its `do` (reported when there is none).
    fn while_op(&mut self, here: u32, span: Span, diags: &mut Vec<Diagnostic>) -> Op {
        match self.dos.pop() {
            // The empty loop `do while` falls through (notes §3.4).
            Some(d) if d + 1 == here => Op::Label,
            Some(d) => Op::While(d),
            None => {
                push_capped(
                    diags,
                    Diagnostic::error(
                        "chessembly::unmatched-while",
                        "`while` has no matching `do` before it in this chain",
                        span,
                    ),
                );
                Op::While(here)
            }
        }
    }

    /// The target of a jump to label `n` from op `here` (`here` itself, reported, when the
    /// chain has no such label).
    fn jump_target(&self, n: i32, here: u32, span: Span, diags: &mut Vec<Diagnostic>) -> u32 {
        match self.labels.get(&n) {
            Some(&t) => t,
            None => {
                push_capped(
                    diags,
                    Diagnostic::error(
                        "chessembly::undefined-label",
                        format!("no `label({n})` in this chain"),
                        span,
                    )
                    .with_note(None, "labels are local to their `;`-separated chain"),
                );
                here
            }
        }
    }
}

/// `repeat(n)` as item `i` (op `here`): back `n` items.
fn repeat(n: i32, i: usize, here: u32, span: Span, diags: &mut Vec<Diagnostic>) -> Op {
    if n <= 0 || n as i64 > i as i64 {
        let msg = if i == 0 {
            format!("`repeat({n})` has no item before it in this chain to go back to")
        } else {
            format!(
                "`repeat({n})` must go back between 1 and {i} items (the items before it in this chain)"
            )
        };
        push_capped(
            diags,
            Diagnostic::error("chessembly::bad-repeat", msg, span),
        );
        Op::Repeat(here)
    } else {
        Op::Repeat(here - n as u32)
    }
}

fn shape(ops: &[Op]) -> ChainShape {
    match *ops {
        [Op::Step(k, d)] => ChainShape::Leap(k, d),
        [Op::Step(k, d), Op::Repeat(_)] => ChainShape::Slide(k, d),
        _ => ChainShape::Other,
    }
}

fn captures(k: MoveKind) -> bool {
    matches!(
        k,
        MoveKind::TakeMove | MoveKind::Take | MoveKind::Catch | MoveKind::TakeJump
    )
}

/// Over-approximates where a chain can capture (see [`Reach`]).
fn reach(ops: &[Op]) -> Reach {
    if !ops
        .iter()
        .any(|op| matches!(op, Op::Step(k, _) if captures(*k)))
    {
        return Reach::Never;
    }
    if let ChainShape::Slide(_, d) = shape(ops) {
        return Reach::Ray(d);
    }
    const CAP: usize = 32;
    // Loop-free chains: track every anchor offset a run may have reached.
    let mut anchors: Vec<Delta> = vec![Delta::default()];
    let mut saved: Vec<Vec<Delta>> = Vec::new();
    let mut targets: Vec<Delta> = Vec::new();
    let add = |set: &mut Vec<Delta>, d: Delta| {
        if !set.contains(&d) {
            set.push(d);
        }
    };
    for &op in ops {
        match op {
            Op::Repeat(_)
            | Op::While(_)
            | Op::Jmp(_)
            | Op::Jne(_)
            | Op::Jump(_)
            | Op::Anchor(_)
            | Op::Absolute(..)
            | Op::ReadAnchor(_) => return Reach::Any,
            Op::Peek(d) => {
                let moved: Vec<Delta> = anchors.iter().map(|a| offset(*a, d)).collect();
                for m in moved {
                    add(&mut anchors, m);
                }
            }
            Op::Step(k, d) => {
                let moved: Vec<Delta> = anchors.iter().map(|a| offset(*a, d)).collect();
                for m in moved {
                    if captures(k) {
                        add(&mut targets, m);
                    }
                    add(&mut anchors, m);
                }
            }
            Op::Open(_) => saved.push(anchors.clone()),
            Op::Close => {
                if let Some(s) = saved.pop() {
                    anchors = s;
                }
            }
            _ => {}
        }
        if anchors.len() > CAP || targets.len() > CAP {
            return Reach::Any;
        }
    }
    targets.sort();
    Reach::Offsets(targets)
}

fn offset(a: Delta, d: Delta) -> Delta {
    Delta::new(a.dx.saturating_add(d.dx), a.dy.saturating_add(d.dy))
}
