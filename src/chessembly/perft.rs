//! A small chess engine whose six pieces are Chessembly scripts, for perft and benchmarks.
//!
//! The scripts generate pseudo-legal moves, including the pawn's double step and promotion
//! (written in Chessembly). The engine adds what the language leaves to the game: legality
//! (the mover's king must not be attacked afterwards, tested with the opponent's own scripts) and
//! en passant (after a pawn's two-rank `move`, the skipped square can be taken by a pawn).
//! Castling is not implemented: it first occurs at depth 6 from the start position, so
//! perft(1..=5) from there is exact without it.

use super::board::{Board, Color, Piece, Square};
use super::interp::{Move, Rules, Scratch, State};
use super::program::Sym;
use super::syntax::MoveKind;
use crate::diag::{Diagnostic, FileId};

/// King: one step in each of the eight directions (no castling).
pub const KING: &str = "\
take-move(1, 0);
take-move(-1, 0);
take-move(0, 1);
take-move(0, -1);
take-move(1, 1);
take-move(1, -1);
take-move(-1, 1);
take-move(-1, -1);
";

/// Queen: slides in eight directions.
pub const QUEEN: &str = "\
take-move(1, 0) repeat(1);
take-move(-1, 0) repeat(1);
take-move(0, 1) repeat(1);
take-move(0, -1) repeat(1);
take-move(1, 1) repeat(1);
take-move(1, -1) repeat(1);
take-move(-1, 1) repeat(1);
take-move(-1, -1) repeat(1);
";

/// Rook: the seed's rook.
pub const ROOK: &str = "\
take-move(1, 0) repeat(1);
take-move(-1, 0) repeat(1);
take-move(0, 1) repeat(1);
take-move(0, -1) repeat(1);
";

/// Bishop: the seed's bishop.
pub const BISHOP: &str = "\
take-move(1, 1) repeat(1);
take-move(1, -1) repeat(1);
take-move(-1, 1) repeat(1);
take-move(-1, -1) repeat(1);
";

/// Knight: eight leaps.
pub const KNIGHT: &str = "\
take-move(1, 2);
take-move(2, 1);
take-move(2, -1);
take-move(1, -2);
take-move(-1, -2);
take-move(-2, -1);
take-move(-2, 1);
take-move(-1, 2);
";

/// Pawn: step, double step from its second rank, diagonal captures, promotion on the last rank.
pub const PAWN: &str = "\
# one step forward unless it reaches the last rank (two ahead is off the board);
bound(0, 2) not move(0, 1);
# double step: one rank behind is on the board but two behind is not, so this is the second rank;
bound(0, -1) not bound(0, -2) peek(0, 1) move(0, 1);
# diagonal captures unless they reach the last rank;
bound(0, 2) not take(1, 1);
bound(0, 2) not take(-1, 1);
# promotion: reaching the last rank turns the pawn into a queen, rook, bishop or knight;
bound(0, 2) { transition(queen) move(0, 1) } { transition(rook) move(0, 1) } { transition(bishop) move(0, 1) } { transition(knight) move(0, 1) };
bound(0, 2) { transition(queen) take(1, 1) } { transition(rook) take(1, 1) } { transition(bishop) take(1, 1) } { transition(knight) take(1, 1) };
bound(0, 2) { transition(queen) take(-1, 1) } { transition(rook) take(-1, 1) } { transition(bishop) take(-1, 1) } { transition(knight) take(-1, 1) };
";

/// The six standard pieces: (kind name, script).
pub const STANDARD: [(&str, &str); 6] = [
    ("king", KING),
    ("queen", QUEEN),
    ("rook", ROOK),
    ("bishop", BISHOP),
    ("knight", KNIGHT),
    ("pawn", PAWN),
];

/// The standard start position's placement field.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

/// Rules with the six standard pieces compiled and assigned.
pub fn standard_rules() -> Result<Rules, Vec<Diagnostic>> {
    let mut rules = Rules::new();
    for (i, (name, script)) in STANDARD.iter().enumerate() {
        let id = rules.compile(script, FileId(i as u32))?;
        rules.assign(name, id);
    }
    Ok(rules)
}

struct Undo {
    mv: Move,
    piece: Piece,
    captured: Option<(Square, Piece)>,
    ep: Option<(Square, Square)>,
    kings: [Option<Square>; 2],
    state: Vec<(Sym, i32)>,
}

/// A chess position played by Chessembly rules.
pub struct Engine {
    /// The rules (programs per kind).
    pub rules: Rules,
    /// The board.
    pub board: Board,
    /// State registers.
    pub state: State,
    /// Side to move.
    pub side: Color,
    /// En passant: (square a pawn may move to, square of the pawn it captures).
    pub ep: Option<(Square, Square)>,
    pawn: Sym,
    kings: [Option<Square>; 2],
    scratch: Scratch,
    buffers: Vec<Vec<Move>>,
}

impl Engine {
    /// The standard start position, white to move.
    pub fn start() -> Result<Engine, String> {
        Engine::from_fen(START_FEN, Color::White)
    }

    /// A position from a FEN placement field with the standard script pieces.
    pub fn from_fen(fen: &str, side: Color) -> Result<Engine, String> {
        let mut rules = standard_rules().map_err(|d| {
            d.into_iter()
                .map(|d| d.message)
                .collect::<Vec<_>>()
                .join("; ")
        })?;
        let board = Board::from_fen(fen, &mut rules.symbols)?;
        let pawn = rules.symbols.intern("pawn");
        let mut e = Engine {
            rules,
            board,
            state: State::new(),
            side,
            ep: None,
            pawn,
            kings: [None, None],
            scratch: Scratch::default(),
            buffers: Vec::new(),
        };
        e.kings = [e.find_king(Color::White), e.find_king(Color::Black)];
        Ok(e)
    }

    fn find_king(&self, side: Color) -> Option<Square> {
        self.board
            .pieces()
            .find(|(_, p)| p.color == side && self.rules.is_royal(p.kind))
            .map(|(sq, _)| sq)
    }

    /// Appends the side to move's pseudo-legal moves (scripts plus en passant) to `out`.
    pub fn pseudo_moves(&mut self, out: &mut Vec<Move>) {
        let side = self.side;
        let s = side.sign();
        for y in 0..self.board.height() {
            for x in 0..self.board.width() {
                let Some(p) = self.board.at(x, y) else {
                    continue;
                };
                if p.color != side {
                    continue;
                }
                let from = Square::new(x as u16, y as u16);
                self.rules
                    .generate(&self.board, &self.state, from, &mut self.scratch, out);
                if let Some((to, victim)) = self.ep
                    && p.kind == self.pawn
                    && (to.y as i32 - y) * s == 1
                    && (to.x as i32 - x).abs() == 1
                {
                    out.push(Move {
                        kind: MoveKind::Take,
                        from,
                        to,
                        take: Some(victim),
                        transition: None,
                        state_change: Vec::new(),
                    });
                }
            }
        }
    }

    fn make(&mut self, mv: Move) -> Undo {
        let piece = self.board.get(mv.from).expect("a move starts on a piece");
        let captured = mv.take.and_then(|sq| self.board.get(sq).map(|p| (sq, p)));
        if let Some(sq) = mv.take {
            self.board.set(sq, None);
        }
        let moved = Piece {
            kind: mv.transition.unwrap_or(piece.kind),
            ..piece
        };
        let dest = mv.destination();
        self.board.set(mv.from, None);
        self.board.set(dest, Some(moved));
        let mut prev_state = Vec::new();
        for &(k, v) in &mv.state_change {
            prev_state.push((k, self.state.set(piece.color, k, v)));
        }
        let undo_kings = self.kings;
        if self.rules.is_royal(piece.kind) || self.rules.is_royal(moved.kind) {
            self.kings[piece.color as usize] = self.find_king(piece.color);
        }
        if let Some((_, c)) = captured
            && self.rules.is_royal(c.kind)
        {
            self.kings[c.color as usize] = self.find_king(c.color);
        }
        let old_ep = self.ep;
        self.ep = None;
        if piece.kind == self.pawn
            && mv.kind == MoveKind::Move
            && mv.from.x == mv.to.x
            && (mv.to.y as i32 - mv.from.y as i32).abs() == 2
        {
            let mid = Square::new(mv.from.x, (mv.from.y + mv.to.y) / 2);
            self.ep = Some((mid, mv.to));
        }
        self.side = self.side.opponent();
        Undo {
            mv,
            piece,
            captured,
            ep: old_ep,
            kings: undo_kings,
            state: prev_state,
        }
    }

    fn unmake(&mut self, u: Undo) -> Move {
        self.side = self.side.opponent();
        self.board.set(u.mv.destination(), None);
        self.board.set(u.mv.from, Some(u.piece));
        if let Some((sq, p)) = u.captured {
            self.board.set(sq, Some(p));
        }
        for &(k, v) in u.state.iter().rev() {
            self.state.set(u.piece.color, k, v);
        }
        self.ep = u.ep;
        self.kings = u.kings;
        u.mv
    }

    /// True when the king of `side` is attacked.
    pub fn king_attacked(&mut self, side: Color) -> bool {
        match self.kings[side as usize] {
            Some(k) => self.rules.is_attacked(
                &self.board,
                &self.state,
                k,
                side.opponent(),
                &mut self.scratch,
            ),
            None => false,
        }
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&mut self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.pseudo_moves(&mut moves);
        let side = self.side;
        let mut legal = Vec::new();
        for mv in moves {
            let u = self.make(mv);
            let ok = !self.king_attacked(side);
            let mv = self.unmake(u);
            if ok {
                legal.push(mv);
            }
        }
        legal
    }

    /// Number of legal move sequences of length `depth`.
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let ply = depth as usize;
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        self.pseudo_moves(&mut moves);
        let side = self.side;
        let mut n = 0;
        for mv in moves.drain(..) {
            let u = self.make(mv);
            if !self.king_attacked(side) {
                n += if depth == 1 { 1 } else { self.perft(depth - 1) };
            }
            self.unmake(u);
        }
        self.buffers[ply] = moves;
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chessembly::board::square_name;

    #[test]
    fn standard_scripts_compile_and_have_leap_and_slide_shapes() {
        let rules = standard_rules().expect("standard scripts compile");
        let king = rules.symbols.get("king").unwrap();
        let rook = rules.symbols.get("rook").unwrap();
        use crate::chessembly::program::{ChainShape, Reach};
        use crate::chessembly::syntax::Delta;
        let kp = rules.program_for(king).unwrap();
        assert_eq!(kp.chains.len(), 8);
        assert_eq!(
            kp.chains[0].shape,
            ChainShape::Leap(MoveKind::TakeMove, Delta::new(1, 0))
        );
        let rp = rules.program_for(rook).unwrap();
        assert_eq!(
            rp.chains[2].shape,
            ChainShape::Slide(MoveKind::TakeMove, Delta::new(0, 1))
        );
        assert_eq!(rp.chains[2].reach, Reach::Ray(Delta::new(0, 1)));
        let pawn = rules
            .program_for(rules.symbols.get("pawn").unwrap())
            .unwrap();
        // Step chains never capture; capture chains capture only diagonally forward.
        assert_eq!(pawn.chains[0].reach, Reach::Never);
        assert_eq!(pawn.chains[1].reach, Reach::Never);
        assert_eq!(pawn.chains[2].reach, Reach::Offsets(vec![Delta::new(1, 1)]));
        assert_eq!(
            pawn.chains[6].reach,
            Reach::Offsets(vec![Delta::new(-1, 1)])
        );
    }

    #[test]
    fn start_position_has_twenty_moves_including_pawn_double_steps() {
        let mut e = Engine::start().unwrap();
        let moves = e.legal_moves();
        assert_eq!(moves.len(), 20);
        let names: Vec<String> = moves
            .iter()
            .map(|m| format!("{}{}", square_name(m.from), square_name(m.to)))
            .collect();
        for m in ["e2e4", "e2e3", "a2a4", "g1f3", "b1c3"] {
            assert!(names.contains(&m.to_string()), "{m} missing from {names:?}");
        }
    }

    #[test]
    fn perft_start_depth_1_to_3() {
        let mut e = Engine::start().unwrap();
        assert_eq!(e.perft(1), 20);
        assert_eq!(e.perft(2), 400);
        assert_eq!(e.perft(3), 8902);
        // The position is unchanged afterwards.
        assert_eq!(e.board.to_fen(&e.rules.symbols), START_FEN);
    }

    #[test]
    fn perft_start_depth_4() {
        let mut e = Engine::start().unwrap();
        assert_eq!(e.perft(4), 197_281);
    }

    #[test]
    fn en_passant_is_offered_after_a_double_step_only() {
        // White pawn e5, black pawn d7 and f7 (black to move), kings far away.
        let mut e = Engine::from_fen("4k3/3p1p2/8/4P3/8/8/8/4K3", Color::Black).unwrap();
        let d5 = e
            .legal_moves()
            .into_iter()
            .find(|m| square_name(m.to) == "d5")
            .expect("d7-d5 double step");
        let u = e.make(d5);
        assert_eq!(
            e.ep.map(|(t, v)| (square_name(t), square_name(v))),
            Some(("d6".into(), "d5".into()))
        );
        let ep: Vec<Move> = e
            .legal_moves()
            .into_iter()
            .filter(|m| m.take.is_some_and(|t| t != m.to))
            .collect();
        assert_eq!(ep.len(), 1);
        assert_eq!(square_name(ep[0].to), "d6");
        let u2 = e.make(ep[0].clone());
        assert_eq!(e.board.to_fen(&e.rules.symbols), "4k3/5p2/3P4/8/8/8/8/4K3");
        e.unmake(u2);
        e.unmake(u);
        assert_eq!(
            e.board.to_fen(&e.rules.symbols),
            "4k3/3p1p2/8/4P3/8/8/8/4K3"
        );
    }

    #[test]
    fn promotion_offers_four_pieces_by_transition() {
        let mut e = Engine::from_fen("4k3/1P6/8/8/8/8/8/4K3", Color::White).unwrap();
        let promos: Vec<String> = e
            .legal_moves()
            .into_iter()
            .filter(|m| m.from == Square::new(1, 6))
            .map(|m| e.rules.symbols.name(m.transition.unwrap()).to_string())
            .collect();
        assert_eq!(promos, ["queen", "rook", "bishop", "knight"]);
    }

    #[test]
    fn kiwipete_like_position_perft_matches_reference_without_castling() {
        // "Position 3" of the chess programming wiki perft suite: no castling rights, has en
        // passant and checks. Reference: 14, 191, 2812, 43238.
        let mut e = Engine::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8", Color::White).unwrap();
        assert_eq!(e.perft(1), 14);
        assert_eq!(e.perft(2), 191);
        assert_eq!(e.perft(3), 2812);
        assert_eq!(e.perft(4), 43238);
    }
}
