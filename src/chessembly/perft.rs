//! A small chess engine whose six pieces are Chessembly scripts, for perft and benchmarks.
//!
//! The scripts generate pseudo-legal moves, including the pawn's double step and promotion
//! (written in Chessembly). The engine adds what the language leaves to the game: legality
//! (the mover's king must not be attacked afterwards, tested with the opponent's own scripts),
//! en passant (after a pawn's two-rank `move`, the skipped square can be taken by a pawn) and
//! castling (8-file boards, king on the e-file, rook in the corner, with FEN castling rights).

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

/// The standard start position (placement, side to move, castling rights, en passant).
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

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
    castling: [bool; 4],
    castle_rook: Option<(Square, Square)>,
}

/// Castling rights, indexed `[white king side, white queen side, black king side, black queen side]`.
const WK: usize = 0;
const WQ: usize = 1;
const BK: usize = 2;
const BQ: usize = 3;

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
    /// Castling rights: white king side, white queen side, black king side, black queen side.
    pub castling: [bool; 4],
    pawn: Sym,
    rook: Sym,
    kings: [Option<Square>; 2],
    scratch: Scratch,
    buffers: Vec<Vec<Move>>,
}

impl Engine {
    /// The standard start position, white to move.
    pub fn start() -> Result<Engine, String> {
        Engine::from_fen(START_FEN)
    }

    /// A position from a FEN string with the standard script pieces. Only the placement field is
    /// required; the side to move (`w`/`b`), castling rights (`KQkq`/`-`) and en passant square
    /// default to white, none and none.
    pub fn from_fen(fen: &str) -> Result<Engine, String> {
        let mut rules = standard_rules().map_err(|d| {
            d.into_iter()
                .map(|d| d.message)
                .collect::<Vec<_>>()
                .join("; ")
        })?;
        let mut fields = fen.split_whitespace();
        let board = Board::from_fen(fields.next().unwrap_or(""), &mut rules.symbols)?;
        let side = match fields.next() {
            None | Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(f) => return Err(format!("side to move must be `w` or `b`, found `{f}`")),
        };
        let mut castling = [false; 4];
        for c in fields.next().unwrap_or("-").chars() {
            match c {
                'K' => castling[WK] = true,
                'Q' => castling[WQ] = true,
                'k' => castling[BK] = true,
                'q' => castling[BQ] = true,
                '-' => {}
                _ => return Err(format!("bad castling field character `{c}`")),
            }
        }
        let ep = match fields.next() {
            None | Some("-") => None,
            Some(sq) => {
                let t = board.parse_square(sq)?;
                let victim_y = t.y as i32 - side.sign();
                if !(0..board.height()).contains(&victim_y) {
                    return Err(format!(
                        "en passant square `{sq}` has no pawn square behind it"
                    ));
                }
                Some((t, Square::new(t.x, victim_y as u16)))
            }
        };
        let pawn = rules.symbols.intern("pawn");
        let rook = rules.symbols.intern("rook");
        let mut e = Engine {
            rules,
            board,
            state: State::new(),
            side,
            ep,
            castling,
            pawn,
            rook,
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
                if self.rules.is_royal(p.kind) {
                    self.castles(from, out);
                }
                if let Some((to, victim)) = self.ep
                    && p.kind == self.pawn
                    && (to.y as i32 - y) * s == 1
                    && (to.x as i32 - x).abs() == 1
                {
                    out.push(Move {
                        kind: MoveKind::Take,
                        from,
                        to,
                        target: to,
                        parts: Vec::new(),
                        take: Some(victim),
                        transition: None,
                        state_change: Vec::new(),
                    });
                }
            }
        }
    }

    /// Castling moves of the king on `from` (8-file boards; king on the e-file of its first
    /// rank, rook in the corner, squares between empty, king not in check and not passing
    /// through an attacked square; the destination is checked by the legality test).
    fn castles(&mut self, from: Square, out: &mut Vec<Move>) {
        let side = self.side;
        let home = if side == Color::White {
            0
        } else {
            self.board.height() as u16 - 1
        };
        if self.board.width() != 8 || from != Square::new(4, home) {
            return;
        }
        let (king_side, queen_side) = match side {
            Color::White => (self.castling[WK], self.castling[WQ]),
            Color::Black => (self.castling[BK], self.castling[BQ]),
        };
        let own_rook = |e: &Engine, x: u16| {
            e.board.get(Square::new(x, home))
                == Some(Piece {
                    color: side,
                    kind: e.rook,
                })
        };
        let empty = |e: &Engine, xs: &[u16]| {
            xs.iter()
                .all(|&x| e.board.get(Square::new(x, home)).is_none())
        };
        // Attack sets are capture squares, so test the king standing on each square in turn.
        let king = self.board.get(from);
        let safe = |e: &mut Engine, x: u16| {
            let sq = Square::new(x, home);
            e.board.set(from, None);
            e.board.set(sq, king);
            let attacked =
                e.rules
                    .is_attacked(&e.board, &e.state, sq, side.opponent(), &mut e.scratch);
            e.board.set(sq, None);
            e.board.set(from, king);
            !attacked
        };
        if king_side && own_rook(self, 7) && empty(self, &[5, 6]) && safe(self, 4) && safe(self, 5)
        {
            out.push(Move {
                kind: MoveKind::Move,
                from,
                to: Square::new(6, home),
                target: Square::new(6, home),
                parts: Vec::new(),
                take: None,
                transition: None,
                state_change: Vec::new(),
            });
        }
        if queen_side
            && own_rook(self, 0)
            && empty(self, &[1, 2, 3])
            && safe(self, 4)
            && safe(self, 3)
        {
            out.push(Move {
                kind: MoveKind::Move,
                from,
                to: Square::new(2, home),
                target: Square::new(2, home),
                parts: Vec::new(),
                take: None,
                transition: None,
                state_change: Vec::new(),
            });
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
        // Castling: a royal piece moving two files along its rank brings the corner rook over.
        let mut castle_rook = None;
        if self.rules.is_royal(piece.kind)
            && mv.from.y == mv.to.y
            && (mv.to.x as i32 - mv.from.x as i32).abs() == 2
        {
            let (rx, tx) = if mv.to.x > mv.from.x { (7, 5) } else { (0, 3) };
            let (rf, rt) = (Square::new(rx, mv.from.y), Square::new(tx, mv.from.y));
            let r = self.board.get(rf);
            self.board.set(rf, None);
            self.board.set(rt, r);
            castle_rook = Some((rf, rt));
        }
        let old_castling = self.castling;
        let top = self.board.height() as u16 - 1;
        for sq in [mv.from, mv.to] {
            match (sq.x, sq.y) {
                (4, 0) => (self.castling[WK], self.castling[WQ]) = (false, false),
                (7, 0) => self.castling[WK] = false,
                (0, 0) => self.castling[WQ] = false,
                (4, y) if y == top => (self.castling[BK], self.castling[BQ]) = (false, false),
                (7, y) if y == top => self.castling[BK] = false,
                (0, y) if y == top => self.castling[BQ] = false,
                _ => {}
            }
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
            castling: old_castling,
            castle_rook,
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
        if let Some((rf, rt)) = u.castle_rook {
            let r = self.board.get(rt);
            self.board.set(rt, None);
            self.board.set(rf, r);
        }
        self.ep = u.ep;
        self.kings = u.kings;
        self.castling = u.castling;
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
        assert_eq!(
            e.board.to_fen(&e.rules.symbols),
            START_FEN.split(' ').next().unwrap()
        );
    }

    #[test]
    fn perft_start_depth_4() {
        let mut e = Engine::start().unwrap();
        assert_eq!(e.perft(4), 197_281);
    }

    #[test]
    fn en_passant_is_offered_after_a_double_step_only() {
        // White pawn e5, black pawn d7 and f7 (black to move), kings far away.
        let mut e = Engine::from_fen("4k3/3p1p2/8/4P3/8/8/8/4K3 b").unwrap();
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
    fn kiwipete_perft_with_castling_en_passant_and_promotion() {
        // Chess programming wiki, position 2 ("Kiwipete"): 48, 2039, 97862.
        let mut e =
            Engine::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -")
                .unwrap();
        assert_eq!(e.perft(1), 48);
        assert_eq!(e.perft(2), 2039);
        assert_eq!(e.perft(3), 97862);
    }

    #[test]
    fn position_5_perft_with_promotion_by_transition() {
        // Chess programming wiki, position 5: 44, 1486, 62379.
        let mut e =
            Engine::from_fen("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8").unwrap();
        assert_eq!(e.perft(1), 44);
        assert_eq!(e.perft(2), 1486);
        assert_eq!(e.perft(3), 62379);
    }

    #[test]
    fn castling_moves_the_rook_and_is_undone() {
        let mut e = Engine::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq -").unwrap();
        let castles: Vec<Move> = e
            .legal_moves()
            .into_iter()
            .filter(|m| m.from == Square::new(4, 0) && (m.to.x == 6 || m.to.x == 2))
            .collect();
        assert_eq!(castles.len(), 2);
        let u = e.make(castles[0].clone());
        assert_eq!(e.board.to_fen(&e.rules.symbols), "r3k2r/8/8/8/8/8/8/R4RK1");
        assert_eq!(e.castling, [false, false, true, true]);
        e.unmake(u);
        assert_eq!(e.board.to_fen(&e.rules.symbols), "r3k2r/8/8/8/8/8/8/R3K2R");
        assert_eq!(e.castling, [true; 4]);
        // A rook on f8 attacks f1: no king-side castling through check.
        let mut e = Engine::from_fen("5r1k/8/8/8/8/8/8/R3K2R w KQ -").unwrap();
        let to: Vec<String> = e
            .legal_moves()
            .into_iter()
            .filter(|m| m.from == Square::new(4, 0))
            .map(|m| square_name(m.to))
            .collect();
        assert!(
            to.contains(&"c1".to_string()) && !to.contains(&"g1".to_string()),
            "{to:?}"
        );
    }

    #[test]
    fn promotion_offers_four_pieces_by_transition() {
        let mut e = Engine::from_fen("4k3/1P6/8/8/8/8/8/4K3 w").unwrap();
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
        let mut e = Engine::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -").unwrap();
        assert_eq!(e.perft(1), 14);
        assert_eq!(e.perft(2), 191);
        assert_eq!(e.perft(3), 2812);
        assert_eq!(e.perft(4), 43238);
    }
}
