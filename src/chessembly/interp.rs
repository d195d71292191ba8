//! The Chessembly interpreter: runs compiled programs against a board to generate moves and
//! attack sets, for either colour, on boards of any size, with a per-chain step limit.

use super::board::{Board, Color, Piece, Square};
use super::program::{ChainInfo, Op, Program, Sym, Symbols, compile};
use super::syntax::{Delta, MoveKind, Side};
use crate::diag::{Diagnostic, FileId, Span};

/// Default number of dispatched items after which a chain is stopped.
pub const DEFAULT_STEP_LIMIT: u32 = 1000;

/// One generated move.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Move {
    /// Which movement expression produced it.
    pub kind: MoveKind,
    /// The moving piece's square.
    pub from: Square,
    /// The target square of the expression. For [`MoveKind::Catch`] the piece does not move:
    /// `to` is the square whose piece is removed.
    pub to: Square,
    /// The square of the captured piece, if the move captures.
    pub take: Option<Square>,
    /// The kind the moving piece turns into when the move is played.
    pub transition: Option<Sym>,
    /// State registers of the moving side set when the move is played, in order.
    pub state_change: Vec<(Sym, i32)>,
}

impl Move {
    /// Where the moving piece stands after the move.
    pub fn destination(&self) -> Square {
        match self.kind {
            MoveKind::Catch => self.from,
            _ => self.to,
        }
    }
}

/// Per-side integer state registers (`set-state` / `if-state`); unset keys read as 0.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct State {
    regs: [Vec<(Sym, i32)>; 2],
}

impl State {
    /// All registers 0.
    pub fn new() -> State {
        State::default()
    }
    /// The value of `key` for `side`.
    #[inline]
    pub fn get(&self, side: Color, key: Sym) -> i32 {
        self.regs[side as usize]
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(0, |&(_, v)| v)
    }
    /// Sets `key` for `side`; returns the previous value.
    pub fn set(&mut self, side: Color, key: Sym, value: i32) -> i32 {
        let regs = &mut self.regs[side as usize];
        match regs.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => std::mem::replace(&mut slot.1, value),
            None => {
                regs.push((key, value));
                0
            }
        }
    }
    /// The registers of one side that were ever set, in the order first set.
    pub fn entries(&self, side: Color) -> &[(Sym, i32)] {
        &self.regs[side as usize]
    }
}

/// Reusable working memory for the interpreter (keeps the hot loop allocation-free).
#[derive(Debug, Default)]
pub struct Scratch {
    blocks: Vec<(i32, i32, u32)>,
    pending: Vec<(Sym, i32)>,
    /// Spans of chains stopped by the step limit during the last generation.
    pub limited: Vec<Span>,
}

/// Programs for piece kinds plus the game settings the language needs.
#[derive(Debug, Clone)]
pub struct Rules {
    /// Names of piece kinds and state keys.
    pub symbols: Symbols,
    programs: Vec<Program>,
    by_kind: Vec<Option<u32>>,
    default_program: Option<u32>,
    royals: Vec<Sym>,
    /// Items a chain may dispatch before it is stopped.
    pub step_limit: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules::new()
    }
}

/// Identifies a program inside [`Rules`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProgramId(pub u32);

impl Rules {
    /// No programs; royal kind `king`; the default step limit.
    pub fn new() -> Rules {
        let mut symbols = Symbols::new();
        let king = symbols.intern("king");
        Rules {
            symbols,
            programs: Vec::new(),
            by_kind: Vec::new(),
            default_program: None,
            royals: vec![king],
            step_limit: DEFAULT_STEP_LIMIT,
        }
    }

    /// Compiles a script and stores it; the id can then be assigned to kinds.
    pub fn compile(&mut self, text: &str, file: FileId) -> Result<ProgramId, Vec<Diagnostic>> {
        let p = compile(text, file, &mut self.symbols)?;
        self.programs.push(p);
        Ok(ProgramId(self.programs.len() as u32 - 1))
    }

    /// A compiled program.
    pub fn program(&self, id: ProgramId) -> &Program {
        &self.programs[id.0 as usize]
    }

    /// Pieces of kind `kind` move by program `id`.
    pub fn assign(&mut self, kind: &str, id: ProgramId) {
        let k = self.symbols.intern(kind).0 as usize;
        if self.by_kind.len() <= k {
            self.by_kind.resize(k + 1, None);
        }
        self.by_kind[k] = Some(id.0);
    }

    /// Pieces of kinds without their own program move by program `id`.
    pub fn set_default(&mut self, id: ProgramId) {
        self.default_program = Some(id.0);
    }

    /// Replaces the royal kinds (used by `check`).
    pub fn set_royals(&mut self, kinds: &[&str]) {
        self.royals = kinds.iter().map(|k| self.symbols.intern(k)).collect();
    }

    /// True when `kind` is royal.
    #[inline]
    pub fn is_royal(&self, kind: Sym) -> bool {
        self.royals.contains(&kind)
    }

    /// The program that moves pieces of `kind`.
    #[inline]
    pub fn program_for(&self, kind: Sym) -> Option<&Program> {
        let id = self
            .by_kind
            .get(kind.0 as usize)
            .copied()
            .flatten()
            .or(self.default_program)?;
        Some(&self.programs[id as usize])
    }

    /// Generates the pseudo-legal moves of the piece on `from` and appends them to `out`
    /// (exact duplicates removed). Chains stopped by the step limit are listed in
    /// `scratch.limited`.
    pub fn generate(
        &self,
        board: &Board,
        state: &State,
        from: Square,
        scratch: &mut Scratch,
        out: &mut Vec<Move>,
    ) {
        scratch.limited.clear();
        let Some(piece) = board.get(from) else { return };
        let Some(program) = self.program_for(piece.kind) else {
            return;
        };
        let env = Env {
            rules: self,
            board,
            state,
            nested: false,
        };
        let mut sink = Collect {
            from,
            first: out.len(),
            out,
        };
        for chain in &program.chains {
            let end = env.run(program, chain, from, piece, scratch, &mut sink);
            if end == End::Limit {
                scratch.limited.push(chain.span);
            }
        }
    }

    /// Convenience: the moves of the piece on `from`, plus step-limit warnings.
    pub fn moves(
        &self,
        board: &Board,
        state: &State,
        from: Square,
    ) -> (Vec<Move>, Vec<Diagnostic>) {
        let mut scratch = Scratch::default();
        let mut out = Vec::new();
        self.generate(board, state, from, &mut scratch, &mut out);
        let diags = scratch
            .limited
            .iter()
            .map(|&span| {
                Diagnostic::warning(
                    "chessembly::step-limit",
                    format!(
                        "this chain ran {} steps without ending; it was stopped and the moves found so far are kept",
                        self.step_limit
                    ),
                    span,
                )
            })
            .collect();
        (out, diags)
    }

    /// True when a piece of `by` can capture on `target` (the union of the capture squares of
    /// every take, take-move and catch the side's pieces generate). `check` and `danger` inside
    /// these scripts are false.
    pub fn is_attacked(
        &self,
        board: &Board,
        state: &State,
        target: Square,
        by: Color,
        scratch: &mut Scratch,
    ) -> bool {
        let env = Env {
            rules: self,
            board,
            state,
            nested: true,
        };
        let (tx, ty) = (target.x as i32, target.y as i32);
        for (sq, piece) in board.pieces() {
            if piece.color != by {
                continue;
            }
            let Some(program) = self.program_for(piece.kind) else {
                continue;
            };
            let s = by.sign();
            let (rx, ry) = ((tx - sq.x as i32) * s, (ty - sq.y as i32) * s);
            let (bounded, any) = program.chains_reaching(rx, ry);
            for &ci in bounded.iter().chain(any) {
                let chain = &program.chains[ci as usize];
                if !chain.reach.may_capture_at(rx, ry) {
                    continue;
                }
                let mut sink = Detect {
                    target,
                    found: false,
                };
                env.run(program, chain, sq, piece, scratch, &mut sink);
                if sink.found {
                    return true;
                }
            }
        }
        false
    }

    /// True when a royal piece of `side` is attacked by the other side.
    pub fn in_check(
        &self,
        board: &Board,
        state: &State,
        side: Color,
        scratch: &mut Scratch,
    ) -> bool {
        board
            .pieces()
            .filter(|(_, p)| p.color == side && self.is_royal(p.kind))
            .collect::<Vec<_>>()
            .into_iter()
            .any(|(sq, _)| self.is_attacked(board, state, sq, side.opponent(), scratch))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Done,
    Stopped,
    Limit,
}

/// Receives moves as a chain emits them; returns true to stop the run.
trait Sink {
    fn emit(
        &mut self,
        kind: MoveKind,
        to: Square,
        take: bool,
        transition: Option<Sym>,
        pending: &[(Sym, i32)],
    ) -> bool;
}

struct Collect<'o> {
    from: Square,
    first: usize,
    out: &'o mut Vec<Move>,
}

impl Sink for Collect<'_> {
    #[inline]
    fn emit(
        &mut self,
        kind: MoveKind,
        to: Square,
        take: bool,
        transition: Option<Sym>,
        pending: &[(Sym, i32)],
    ) -> bool {
        let take = take.then_some(to);
        let dup = self.out[self.first..].iter().any(|m| {
            m.to == to
                && m.kind == kind
                && m.take == take
                && m.transition == transition
                && m.state_change == pending
        });
        if !dup {
            self.out.push(Move {
                kind,
                from: self.from,
                to,
                take,
                transition,
                state_change: pending.to_vec(),
            });
        }
        false
    }
}

struct Detect {
    target: Square,
    found: bool,
}

impl Sink for Detect {
    #[inline]
    fn emit(
        &mut self,
        _: MoveKind,
        to: Square,
        take: bool,
        _: Option<Sym>,
        _: &[(Sym, i32)],
    ) -> bool {
        if take && to == self.target {
            self.found = true;
        }
        self.found
    }
}

struct Env<'a> {
    rules: &'a Rules,
    board: &'a Board,
    state: &'a State,
    /// Inside an attack-set computation: `check` and `danger` are false.
    nested: bool,
}

impl Env<'_> {
    /// Runs one chain of `program` for `piece` standing on `from`.
    fn run<S: Sink>(
        &self,
        program: &Program,
        chain: &ChainInfo,
        from: Square,
        piece: Piece,
        scratch: &mut Scratch,
        sink: &mut S,
    ) -> End {
        let board = self.board;
        let s = piece.color.sign();
        let (w, h) = (board.width(), board.height());
        let (mut ax, mut ay) = (from.x as i32, from.y as i32);
        let mut value = true;
        let mut transition: Option<Sym> = None;
        scratch.blocks.clear();
        scratch.pending.clear();
        let ops = &program.ops;
        let mut pc = chain.start;
        let mut steps = 0u32;
        let limit = self.rules.step_limit;
        while pc < chain.end {
            steps += 1;
            if steps > limit {
                return End::Limit;
            }
            let op = ops[pc as usize];
            if !value && !op.is_control() {
                match scratch.blocks.pop() {
                    Some((x, y, close)) => {
                        ax = x;
                        ay = y;
                        value = true;
                        pc = close + 1;
                        continue;
                    }
                    None => return End::Done,
                }
            }
            pc += 1;
            let target = |d: Delta| (ax + s * d.dx as i32, ay + s * d.dy as i32);
            match op {
                Op::Step(kind, d) => {
                    let (tx, ty) = target(d);
                    if !board.contains(tx, ty) {
                        value = false;
                        continue;
                    }
                    let to = Square::new(tx as u16, ty as u16);
                    match board.at(tx, ty) {
                        None => {
                            if matches!(kind, MoveKind::Move | MoveKind::TakeMove)
                                && sink.emit(kind, to, false, transition, &scratch.pending)
                            {
                                return End::Stopped;
                            }
                            ax = tx;
                            ay = ty;
                            value = true;
                        }
                        Some(p) if p.color == piece.color || kind == MoveKind::Move => {
                            value = false;
                        }
                        Some(_) => {
                            if sink.emit(kind, to, true, transition, &scratch.pending) {
                                return End::Stopped;
                            }
                            ax = tx;
                            ay = ty;
                            value = kind != MoveKind::TakeMove;
                        }
                    }
                }
                Op::Peek(d) => {
                    let (tx, ty) = target(d);
                    value = board.contains(tx, ty) && board.at(tx, ty).is_none();
                    if value {
                        ax = tx;
                        ay = ty;
                    }
                }
                Op::Observe(d) => {
                    let (tx, ty) = target(d);
                    value = board.contains(tx, ty) && board.at(tx, ty).is_none();
                }
                Op::Bound(d) => {
                    let (tx, ty) = target(d);
                    value = !board.contains(tx, ty);
                }
                Op::Edge(d) | Op::Corner(d) => {
                    let (tx, ty) = target(d);
                    let x_off = !(0..w).contains(&tx);
                    let y_off = !(0..h).contains(&ty);
                    value = if matches!(op, Op::Edge(_)) {
                        x_off != y_off
                    } else {
                        x_off && y_off
                    };
                }
                Op::EdgeSide(side, d) => {
                    let (tx, ty) = target(d);
                    let off = Offs::new(tx, ty, w, h, piece.color);
                    value = match side {
                        Side::Top | Side::Bottom => off.side(side) && off.x_in(),
                        Side::Left | Side::Right => off.side(side) && off.y_in(),
                    };
                }
                Op::CornerSide(v, hs, d) => {
                    let (tx, ty) = target(d);
                    let off = Offs::new(tx, ty, w, h, piece.color);
                    value = off.side(v) && off.side(hs);
                }
                Op::Check => {
                    value = !self.nested && {
                        let mut inner = Scratch::default();
                        self.rules
                            .in_check(board, self.state, piece.color, &mut inner)
                    };
                }
                Op::Danger(d) => {
                    let (tx, ty) = target(d);
                    value = !self.nested && board.contains(tx, ty) && {
                        let mut hyp = board.clone();
                        let to = Square::new(tx as u16, ty as u16);
                        hyp.set(from, None);
                        hyp.set(to, Some(piece));
                        let mut inner = Scratch::default();
                        self.rules.is_attacked(
                            &hyp,
                            self.state,
                            to,
                            piece.color.opponent(),
                            &mut inner,
                        )
                    };
                }
                Op::PieceOn(kind, d) => {
                    let (tx, ty) = target(d);
                    value = board.at(tx, ty).is_some_and(|p| p.kind == kind);
                }
                Op::Enemy(d) => {
                    let (tx, ty) = target(d);
                    value = board.at(tx, ty).is_some_and(|p| p.color != piece.color);
                }
                Op::Friendly(d) => {
                    let (tx, ty) = target(d);
                    value = board.at(tx, ty).is_some_and(|p| p.color == piece.color);
                }
                Op::Piece(kind) => value = piece.kind == kind,
                Op::SetState(key, n) => scratch.pending.push((key, n)),
                Op::ClearState => scratch.pending.clear(),
                Op::IfState(key, n) => value = self.state.get(piece.color, key) == n,
                Op::Transition(kind) => transition = Some(kind),
                Op::ClearTransition => transition = None,
                Op::Repeat(t) => pc = t,
                Op::Do | Op::Label => {}
                Op::While(t) => {
                    if value {
                        pc = t;
                    } else {
                        value = true;
                    }
                }
                Op::Jmp(t) => {
                    if value {
                        pc = t;
                    }
                    value = true;
                }
                Op::Jne(t) => {
                    if !value {
                        pc = t;
                    }
                    value = true;
                }
                Op::Not => value = !value,
                Op::Open(close) => scratch.blocks.push((ax, ay, close)),
                Op::Close => {
                    if let Some((x, y, _)) = scratch.blocks.pop() {
                        ax = x;
                        ay = y;
                    }
                    value = true;
                }
            }
        }
        End::Done
    }
}

/// Which sides of the board a target lies beyond, in the moving piece's frame.
struct Offs {
    top: bool,
    bottom: bool,
    left: bool,
    right: bool,
}

impl Offs {
    fn new(tx: i32, ty: i32, w: i32, h: i32, color: Color) -> Offs {
        let (top, bottom, left, right) = (ty >= h, ty < 0, tx < 0, tx >= w);
        match color {
            Color::White => Offs {
                top,
                bottom,
                left,
                right,
            },
            // Rotated 180°: the black player's top is rank 1 and its right is the a-file.
            Color::Black => Offs {
                top: bottom,
                bottom: top,
                left: right,
                right: left,
            },
        }
    }
    fn side(&self, s: Side) -> bool {
        match s {
            Side::Top => self.top,
            Side::Bottom => self.bottom,
            Side::Left => self.left,
            Side::Right => self.right,
        }
    }
    fn x_in(&self) -> bool {
        !self.left && !self.right
    }
    fn y_in(&self) -> bool {
        !self.top && !self.bottom
    }
}
