//! The Chessembly interpreter: runs compiled programs against a board to generate moves and
//! attack sets, for either colour, on boards of any size, with a per-chain step limit.

use super::board::{Board, Color, Piece, Square};
use super::program::{ChainInfo, Op, Program, Sym, Symbols, compile_with};
use super::syntax::{Composite, Delta, Dialect, MoveKind, RegOp, Side};
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
    /// Where the moving piece stands after the move (for [`MoveKind::Catch`], `from`).
    pub to: Square,
    /// The square the expression aimed at: `to`, except for `catch` (the captured square).
    pub target: Square,
    /// The square of the captured piece, if the move captures (for a take-jump, the square
    /// jumped over; `to` is where the piece lands).
    pub take: Option<Square>,
    /// The kind the moving piece turns into when the move is played.
    pub transition: Option<Sym>,
    /// State registers of the moving side set when the move is played, in order.
    pub state_change: Vec<(Sym, i32)>,
    /// For [`MoveKind::Composite`], the moves it is made of, in the order they were made.
    pub parts: Vec<Move>,
}

impl Move {
    /// Where the moving piece stands after the move (the same as `to`).
    pub fn destination(&self) -> Square {
        self.to
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
    blocks: Vec<Frame>,
    pending: Vec<(Sym, i32)>,
    /// Moves made inside open composite blocks.
    parts: Vec<Move>,
    /// How many composite blocks are open.
    composites: usize,
    /// Spans of chains stopped by the step limit during the last generation.
    pub limited: Vec<Span>,
}

/// An open `{ … }` block: the anchor at `{`, the index of its `}`, and for a composite block
/// its kind and where its moves start in [`Scratch::parts`].
#[derive(Debug, Clone, Copy)]
struct Frame {
    x: i32,
    y: i32,
    close: u32,
    composite: Option<(Composite, usize)>,
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
    /// The dialect scripts are read as (`None`: detect MS words, with a note).
    pub dialect: Option<Dialect>,
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
            dialect: None,
        }
    }

    /// Compiles a script and stores it; the id can then be assigned to kinds.
    pub fn compile(&mut self, text: &str, file: FileId) -> Result<ProgramId, Vec<Diagnostic>> {
        let p = compile_with(text, file, &mut self.symbols, self.dialect)?;
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
            chain_first: out.len(),
            out,
        };
        for chain in &program.chains {
            sink.chain_first = sink.out.len();
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
                    jumps: chain.jumps,
                    pending: false,
                };
                env.run(program, chain, sq, piece, scratch, &mut sink);
                if sink.found || sink.pending {
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
        target: Square,
        take: Option<Square>,
        transition: Option<Sym>,
        pending: &[(Sym, i32)],
    ) -> bool;
    /// Withdraws the `take` move of the current chain that captured on `sq` (MS `jump`).
    fn retract(&mut self, sq: Square);
    /// One composite move made of `parts` (MS `+ { }`, `| { }`); true stops the run.
    fn composite(&mut self, parts: Vec<Move>) -> bool;
}

struct Collect<'o> {
    from: Square,
    first: usize,
    /// Where the current chain's moves start in `out`.
    chain_first: usize,
    out: &'o mut Vec<Move>,
}

impl Collect<'_> {
    fn push(&mut self, m: Move) {
        if !self.out[self.first..].contains(&m) {
            self.out.push(m);
        }
    }
}

impl Sink for Collect<'_> {
    #[inline]
    fn emit(
        &mut self,
        kind: MoveKind,
        target: Square,
        take: Option<Square>,
        transition: Option<Sym>,
        pending: &[(Sym, i32)],
    ) -> bool {
        let to = if kind == MoveKind::Catch {
            self.from
        } else {
            target
        };
        let dup = self.out[self.first..].iter().any(|m| {
            m.target == target
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
                target,
                take,
                transition,
                state_change: pending.to_vec(),
                parts: Vec::new(),
            });
        }
        false
    }

    fn retract(&mut self, sq: Square) {
        let mine = &self.out[self.chain_first..];
        if let Some(i) = mine
            .iter()
            .rposition(|m| m.kind == MoveKind::Take && m.take == Some(sq))
        {
            self.out.remove(self.chain_first + i);
        }
    }

    fn composite(&mut self, parts: Vec<Move>) -> bool {
        let Some(last) = parts.last() else {
            return false;
        };
        let m = Move {
            kind: MoveKind::Composite,
            from: self.from,
            to: last.to,
            target: last.to,
            take: None,
            transition: last.transition,
            state_change: last.state_change.clone(),
            parts,
        };
        self.push(m);
        false
    }
}

/// Looks for one capture on `target`. A `take` in a chain that uses `jump` only counts if no
/// `jump` withdraws it before the chain ends (`pending`).
struct Detect {
    target: Square,
    found: bool,
    jumps: bool,
    pending: bool,
}

impl Sink for Detect {
    #[inline]
    fn emit(
        &mut self,
        kind: MoveKind,
        _: Square,
        take: Option<Square>,
        _: Option<Sym>,
        _: &[(Sym, i32)],
    ) -> bool {
        if take == Some(self.target) {
            if kind == MoveKind::Take && self.jumps {
                self.pending = true;
            } else {
                self.found = true;
            }
        }
        self.found
    }

    fn retract(&mut self, sq: Square) {
        if sq == self.target {
            self.pending = false;
        }
    }

    fn composite(&mut self, parts: Vec<Move>) -> bool {
        if parts.iter().any(|m| m.take == Some(self.target)) {
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

/// The state of one chain's run.
struct Cur {
    from: Square,
    piece: Piece,
    ax: i32,
    ay: i32,
    value: bool,
    transition: Option<Sym>,
    /// MS: the one-bit registers of `read`/`write`.
    bits: u16,
    /// MS: the anchor slots of `read-anchor`/`write-anchor` (unwritten: `None`).
    anchors: [Option<(i32, i32)>; 16],
    /// MS: the square of the last `take` that captured, for `jump`.
    last_take: Option<Square>,
}

impl Cur {
    /// The square `d` away from the anchor, in the piece's frame.
    #[inline]
    fn target(&self, d: Delta) -> (i32, i32) {
        let s = self.piece.color.sign();
        (self.ax + s * d.dx as i32, self.ay + s * d.dy as i32)
    }
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
        scratch.blocks.clear();
        scratch.pending.clear();
        scratch.parts.clear();
        let mut cur = Cur {
            from,
            piece,
            ax: from.x as i32,
            ay: from.y as i32,
            value: true,
            transition: None,
            bits: 0,
            anchors: [None; 16],
            last_take: None,
        };
        let end = self.exec(program, chain, &mut cur, scratch, sink);
        if end == End::Stopped {
            return end;
        }
        // Blocks still open (`end`, the step limit, a jump out of a block) end unfinished.
        while let Some(f) = scratch.blocks.pop() {
            if close_frame(f, false, scratch, sink) {
                return End::Stopped;
            }
        }
        end
    }

    /// The dispatch loop of [`Env::run`].
    fn exec<S: Sink>(
        &self,
        program: &Program,
        chain: &ChainInfo,
        cur: &mut Cur,
        scratch: &mut Scratch,
        sink: &mut S,
    ) -> End {
        let board = self.board;
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
            if !cur.value && !op.is_control() {
                match scratch.blocks.pop() {
                    Some(f) => {
                        cur.ax = f.x;
                        cur.ay = f.y;
                        cur.value = true;
                        pc = f.close + 1;
                        if close_frame(f, false, scratch, sink) {
                            return End::Stopped;
                        }
                        continue;
                    }
                    None => return End::Done,
                }
            }
            pc += 1;
            match op {
                Op::Step(kind, d) => {
                    if self.step(kind, d, cur, scratch, sink) {
                        return End::Stopped;
                    }
                }
                Op::Repeat(t) => pc = t,
                Op::Do | Op::Label | Op::Composite(_) => {}
                Op::While(t) => {
                    if cur.value {
                        pc = t;
                    } else {
                        cur.value = true;
                    }
                }
                Op::Jmp(t) => {
                    if cur.value {
                        pc = t;
                    }
                    cur.value = true;
                }
                Op::Jne(t) => {
                    if !cur.value {
                        pc = t;
                    }
                    cur.value = true;
                }
                Op::Open(close) => {
                    let here = pc as usize - 1;
                    let composite = match here.checked_sub(1).map(|i| ops[i]) {
                        Some(Op::Composite(k)) if here > chain.start as usize => {
                            scratch.composites += 1;
                            Some((k, scratch.parts.len()))
                        }
                        _ => None,
                    };
                    scratch.blocks.push(Frame {
                        x: cur.ax,
                        y: cur.ay,
                        close,
                        composite,
                    });
                }
                Op::Close => {
                    cur.value = true;
                    if let Some(f) = scratch.blocks.pop() {
                        cur.ax = f.x;
                        cur.ay = f.y;
                        if close_frame(f, true, scratch, sink) {
                            return End::Stopped;
                        }
                    }
                }
                Op::End => return End::Done,
                Op::Jump(d) => {
                    if self.jump(d, cur, scratch, sink) {
                        return End::Stopped;
                    }
                }
                _ => self.test(op, cur, scratch, board),
            }
        }
        End::Done
    }

    /// Runs a movement expression; true when the sink asks to stop.
    fn step<S: Sink>(
        &self,
        kind: MoveKind,
        d: Delta,
        cur: &mut Cur,
        scratch: &mut Scratch,
        sink: &mut S,
    ) -> bool {
        let board = self.board;
        let (tx, ty) = cur.target(d);
        if !board.contains(tx, ty) {
            cur.value = false;
            return false;
        }
        let to = Square::new(tx as u16, ty as u16);
        let occupant = board.at(tx, ty);
        let (emit, take, moves, value) = match (kind, occupant) {
            // MS `shift`: swap with any other piece; an empty square is passed through.
            (MoveKind::Shift, Some(_)) if to == cur.from => (None, None, false, false),
            (MoveKind::Shift, Some(_)) => (Some(MoveKind::Shift), None, true, true),
            (MoveKind::Shift, None) => (None, None, true, true),
            // MS `place-move`: a move onto an empty square; the anchor stays.
            (MoveKind::PlaceMove, None) => (Some(MoveKind::Move), None, false, true),
            (MoveKind::PlaceMove, Some(_)) => (None, None, false, false),
            (MoveKind::Move | MoveKind::TakeMove, None) => (Some(kind), None, true, true),
            (_, None) => (None, None, true, true),
            (_, Some(p)) if p.color == cur.piece.color || kind == MoveKind::Move => {
                (None, None, false, false)
            }
            (_, Some(_)) => (Some(kind), Some(to), true, kind != MoveKind::TakeMove),
        };
        if kind == MoveKind::Take && take.is_some() {
            cur.last_take = Some(to);
        }
        if let Some(k) = emit
            && put(k, to, take, cur, scratch, sink)
        {
            return true;
        }
        if moves {
            cur.ax = tx;
            cur.ay = ty;
        }
        cur.value = value;
        false
    }

    /// MS `jump(d)`: withdraws the last capturing `take` and lands beyond it; true to stop.
    fn jump<S: Sink>(&self, d: Delta, cur: &mut Cur, scratch: &mut Scratch, sink: &mut S) -> bool {
        let Some(taken) = cur.last_take else {
            cur.value = false;
            return false;
        };
        retract(taken, scratch, sink);
        let (tx, ty) = cur.target(d);
        if (d.dx == 0 && d.dy == 0)
            || !self.board.contains(tx, ty)
            || self.board.at(tx, ty).is_some()
        {
            cur.value = false;
            return false;
        }
        let to = Square::new(tx as u16, ty as u16);
        if put(MoveKind::TakeJump, to, Some(taken), cur, scratch, sink) {
            return true;
        }
        cur.ax = tx;
        cur.ay = ty;
        cur.value = true;
        false
    }

    /// Conditions, state and the MS register and anchor words (nothing is emitted).
    fn test(&self, op: Op, cur: &mut Cur, scratch: &mut Scratch, board: &Board) {
        let (w, h) = (board.width(), board.height());
        let piece = cur.piece;
        match op {
            Op::Peek(d) => {
                let (tx, ty) = cur.target(d);
                cur.value = board.contains(tx, ty) && board.at(tx, ty).is_none();
                if cur.value {
                    cur.ax = tx;
                    cur.ay = ty;
                }
            }
            Op::Observe(d) => {
                let (tx, ty) = cur.target(d);
                cur.value = board.contains(tx, ty) && board.at(tx, ty).is_none();
            }
            Op::Bound(d) => {
                let (tx, ty) = cur.target(d);
                cur.value = !board.contains(tx, ty);
            }
            Op::Edge(d) | Op::Corner(d) => {
                let (tx, ty) = cur.target(d);
                let x_off = !(0..w).contains(&tx);
                let y_off = !(0..h).contains(&ty);
                cur.value = if matches!(op, Op::Edge(_)) {
                    x_off != y_off
                } else {
                    x_off && y_off
                };
            }
            Op::EdgeSide(side, d) => {
                let (tx, ty) = cur.target(d);
                let off = Offs::new(tx, ty, w, h, piece.color);
                cur.value = match side {
                    Side::Top | Side::Bottom => off.side(side) && off.x_in(),
                    Side::Left | Side::Right => off.side(side) && off.y_in(),
                };
            }
            Op::CornerSide(v, hs, d) => {
                let (tx, ty) = cur.target(d);
                let off = Offs::new(tx, ty, w, h, piece.color);
                cur.value = off.side(v) && off.side(hs);
            }
            Op::Check => {
                cur.value = !self.nested && {
                    let mut inner = Scratch::default();
                    self.rules
                        .in_check(board, self.state, piece.color, &mut inner)
                };
            }
            Op::Danger(d) => {
                let (tx, ty) = cur.target(d);
                cur.value = !self.nested && board.contains(tx, ty) && {
                    let mut hyp = board.clone();
                    let to = Square::new(tx as u16, ty as u16);
                    hyp.set(cur.from, None);
                    hyp.set(to, Some(piece));
                    let mut inner = Scratch::default();
                    self.rules
                        .is_attacked(&hyp, self.state, to, piece.color.opponent(), &mut inner)
                };
            }
            Op::PieceOn(kind, d) => {
                let (tx, ty) = cur.target(d);
                cur.value = board.at(tx, ty).is_some_and(|p| p.kind == kind);
            }
            Op::Enemy(d) => {
                let (tx, ty) = cur.target(d);
                cur.value = board.at(tx, ty).is_some_and(|p| p.color != piece.color);
            }
            Op::Friendly(d) => {
                let (tx, ty) = cur.target(d);
                cur.value = board.at(tx, ty).is_some_and(|p| p.color == piece.color);
            }
            Op::Piece(kind) => cur.value = piece.kind == kind,
            Op::SetState(key, n) => scratch.pending.push((key, n)),
            Op::ClearState => scratch.pending.clear(),
            Op::IfState(key, n) => cur.value = self.state.get(piece.color, key) == n,
            Op::Transition(kind) => cur.transition = Some(kind),
            Op::ClearTransition => cur.transition = None,
            Op::Not => cur.value = !cur.value,
            _ => ms_test(op, cur, board),
        }
    }
}

/// The MS words that only read the board or move the anchor.
fn ms_test(op: Op, cur: &mut Cur, board: &Board) {
    let (w, h) = (board.width(), board.height());
    let white = cur.piece.color == Color::White;
    match op {
        Op::Const(b) => cur.value = b,
        Op::Color(w) => cur.value = white == w,
        Op::ColorOn(want, d) => {
            let (tx, ty) = cur.target(d);
            cur.value = board
                .at(tx, ty)
                .is_some_and(|p| (p.color == Color::White) == want);
        }
        Op::Anchor(d) => {
            let (tx, ty) = cur.target(d);
            if board.contains(tx, ty) {
                cur.ax = tx;
                cur.ay = ty;
            } else {
                cur.value = false;
            }
        }
        Op::Absolute(x, y) => {
            // Counted from the owner's bottom-left corner: rotated 180° for black.
            let nx = x.map_or(cur.ax, |x| if white { x } else { w - 1 - x });
            let ny = y.map_or(cur.ay, |y| if white { y } else { h - 1 - y });
            if board.contains(nx, ny) {
                cur.ax = nx;
                cur.ay = ny;
            } else {
                cur.value = false;
            }
        }
        Op::Reg(reg, n) => {
            if !(0..16).contains(&n) {
                cur.value = false;
                return;
            }
            let bit = cur.bits >> n & 1 == 1;
            match reg {
                RegOp::Read => cur.value = bit,
                RegOp::And => cur.value &= bit,
                RegOp::Or => cur.value |= bit,
                RegOp::Xor => cur.value ^= bit,
                RegOp::Write => {
                    if cur.value {
                        cur.bits |= 1 << n;
                    } else {
                        cur.bits &= !(1 << n);
                    }
                    cur.value = true;
                }
            }
        }
        Op::ReadAnchor(n) => match usize::try_from(n).ok().and_then(|i| cur.anchors.get(i)) {
            Some(&Some((x, y))) => {
                cur.ax = x;
                cur.ay = y;
            }
            _ => cur.value = false,
        },
        Op::WriteAnchor(n) => match usize::try_from(n).ok().and_then(|i| cur.anchors.get_mut(i)) {
            Some(slot) => *slot = Some((cur.ax, cur.ay)),
            None => cur.value = false,
        },
        // Handled by `exec` (moves, jumps, blocks).
        _ => {}
    }
}

/// Emits a move, or keeps it for the open composite block; true when the sink asks to stop.
fn put<S: Sink>(
    kind: MoveKind,
    target: Square,
    take: Option<Square>,
    cur: &Cur,
    scratch: &mut Scratch,
    sink: &mut S,
) -> bool {
    if scratch.composites == 0 {
        return sink.emit(kind, target, take, cur.transition, &scratch.pending);
    }
    let to = if kind == MoveKind::Catch {
        cur.from
    } else {
        target
    };
    scratch.parts.push(Move {
        kind,
        from: cur.from,
        to,
        target,
        take,
        transition: cur.transition,
        state_change: scratch.pending.clone(),
        parts: Vec::new(),
    });
    false
}

/// Withdraws the last `take` that captured on `sq`, from the open composite blocks or the sink.
fn retract<S: Sink>(sq: Square, scratch: &mut Scratch, sink: &mut S) {
    if let Some(i) = scratch
        .parts
        .iter()
        .rposition(|m| m.kind == MoveKind::Take && m.take == Some(sq))
    {
        scratch.parts.remove(i);
    } else {
        sink.retract(sq);
    }
}

/// Leaves a block; a composite block hands its moves on as one move (`+`: only when
/// `completed`, `|`: always), to the enclosing composite block or to the sink.
fn close_frame<S: Sink>(f: Frame, completed: bool, scratch: &mut Scratch, sink: &mut S) -> bool {
    let Some((kind, start)) = f.composite else {
        return false;
    };
    scratch.composites -= 1;
    let parts = scratch.parts.split_off(start.min(scratch.parts.len()));
    if parts.is_empty() || (kind == Composite::All && !completed) {
        return false;
    }
    if scratch.composites > 0 {
        scratch.parts.extend(parts);
        false
    } else {
        sink.composite(parts)
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
