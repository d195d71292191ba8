//! Game state and moves: the board, pieces in hand, whose turn it is, and making and unmaking moves.

use super::rules::{NONE, Rules};

/// A piece on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Owner (player index).
    pub owner: u32,
    /// Piece type (kind index).
    pub kind: u32,
    /// Attribute bits.
    pub attrs: u32,
}

/// One elementary change of a move, applied in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// The piece at `from` goes to `to` (replacing whatever stands there), optionally changing type.
    Move {
        /// Origin.
        from: u32,
        /// Destination.
        to: u32,
        /// New type.
        promote: Option<u32>,
    },
    /// The piece at `from` is copied to `to` (ZRF `add-copy`).
    Copy {
        /// Origin.
        from: u32,
        /// Destination.
        to: u32,
        /// Type of the copy.
        promote: Option<u32>,
    },
    /// The piece at `at` is removed.
    Capture {
        /// Where.
        at: u32,
    },
    /// A piece is placed (a drop or `create`); `from_hand` takes it from the owner's hand.
    Place {
        /// Where.
        at: u32,
        /// Owner.
        owner: u32,
        /// Type.
        kind: u32,
        /// Taken from the owner's pieces off the board.
        from_hand: bool,
    },
    /// The piece at `at` changes type.
    ChangeType {
        /// Where.
        at: u32,
        /// New type.
        kind: u32,
    },
    /// The piece at `at` changes owner.
    ChangeOwner {
        /// Where.
        at: u32,
        /// New owner.
        owner: u32,
    },
    /// The piece at `at` (once the move's pieces have landed) passes to the next player in
    /// player order (ZRF `flip`).
    Flip {
        /// Where.
        at: u32,
    },
    /// An attribute of the piece at `at` is set.
    SetAttr {
        /// Where.
        at: u32,
        /// Attribute index.
        attr: u32,
        /// Value.
        value: bool,
    },
    /// A state register of the mover is set (Chessembly).
    SetState {
        /// Register index.
        key: u32,
        /// Value.
        value: i64,
    },
}

/// A move: what the player chose, as ZoG lists it, and its elementary changes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Move {
    /// Who moves.
    pub player: u32,
    /// The moving (or dropped) piece type.
    pub kind: u32,
    /// Origin (`None` for drops and passes).
    pub from: Option<u32>,
    /// Destination (`None` for passes).
    pub to: Option<u32>,
    /// The changes, in order.
    pub actions: Vec<Action>,
    /// Move type of the block that made it.
    pub move_type: Option<u32>,
    /// A partial move: the same piece may continue, restricted to this move type when given.
    pub partial: Option<Option<u32>>,
}

impl Move {
    /// A pass.
    pub fn pass(player: u32) -> Move {
        Move {
            player,
            kind: NONE,
            from: None,
            to: None,
            actions: Vec::new(),
            move_type: None,
            partial: None,
        }
    }

    /// Whether this move is a pass.
    pub fn is_pass(&self) -> bool {
        self.to.is_none() && self.actions.is_empty()
    }

    /// Whether the move removes or replaces a piece at `pos` (an attack on it).
    pub fn hits(&self, pos: u32) -> bool {
        self.actions.iter().any(|a| match *a {
            Action::Move { from, to, .. } => to == pos && from != pos,
            Action::Capture { at } => at == pos,
            _ => false,
        })
    }
}

#[derive(Debug, Clone)]
enum Undo {
    Square(u32, Option<Piece>),
    Hand(usize, u32),
    Reg(usize, i64),
    Meta(Meta),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Meta {
    turn: u32,
    turns: u32,
    last_from: u32,
    last_to: u32,
    partial: Option<(u32, Option<u32>)>,
    captured: u128,
}

/// A position of the game: pieces, hands, turn and what the last move did.
#[derive(Debug, Clone)]
pub struct State {
    /// The piece on each position (to read: write it through [`State::set_square`],
    /// [`State::put`] or [`State::remove`], which keep the royal pieces' positions).
    pub board: Vec<Option<Piece>>,
    /// Pieces off the board: `hand[player * kinds + kind]`.
    pub hand: Vec<u32>,
    /// Index into the turn order.
    pub(crate) turn: u32,
    /// The turns completed since the start (a partial move's turn when it ends).
    turns: u32,
    pub(crate) last_from: u32,
    pub(crate) last_to: u32,
    /// A partial move in progress: the piece's position and the move type it is restricted to.
    pub(crate) partial: Option<(u32, Option<u32>)>,
    /// Pieces captured by the last move, as bit `owner * kinds + kind` (the first 128).
    pub(crate) captured: u128,
    pub(crate) regs: Vec<i64>,
    nkinds: usize,
    /// Whether a piece is royal for its owner (a `checkmated` goal names its type):
    /// `royal_kind[owner * kinds + kind]`; empty when the game has no royal pieces.
    royal_kind: Box<[bool]>,
    /// The positions of each player's royal pieces, in no particular order: kept by every
    /// write to the board ([`State::make`], [`State::unmake`], [`State::put`],
    /// [`State::remove`], [`State::set_square`]), so the legality filter never scans for them.
    royals: Vec<Vec<u32>>,
    undo: Vec<Undo>,
    frames: Vec<usize>,
    /// Scratch for [`State::make`]: the pieces of a move that are in the air.
    landing: Vec<(u32, Piece, Option<u32>)>,
}

/// [`State::royal_kind`] of `rules`: empty when no player has royal pieces.
fn royal_kinds(rules: &Rules) -> Box<[bool]> {
    if rules.royal.iter().all(Vec::is_empty) {
        return Box::new([]);
    }
    let nk = rules.kinds.len();
    let mut r = vec![false; rules.players.len() * nk];
    for (owner, kinds) in rules.royal.iter().enumerate() {
        for &k in kinds {
            r[owner * nk + k as usize] = true;
        }
    }
    r.into_boxed_slice()
}

impl State {
    /// The start position of `rules`.
    pub fn start(rules: &Rules) -> State {
        let nk = rules.kinds.len();
        let mut s = State {
            board: vec![None; rules.npos()],
            hand: vec![0; rules.players.len() * nk],
            turn: 0,
            turns: 0,
            last_from: NONE,
            last_to: NONE,
            partial: None,
            captured: 0,
            regs: vec![0; rules.players.len() * rules.state_keys.len()],
            nkinds: nk,
            royal_kind: royal_kinds(rules),
            royals: vec![Vec::new(); rules.players.len()],
            undo: Vec::new(),
            frames: Vec::new(),
            landing: Vec::new(),
        };
        for &(pos, owner, kind) in &rules.setup {
            s.put(rules, pos, owner, kind);
        }
        for &(owner, kind, n) in &rules.setup_off {
            s.hand[owner as usize * nk + kind as usize] += n;
        }
        s
    }

    /// Puts a new piece of `owner` and `kind` on `pos` before play (a hand-placed setup piece of
    /// a saved game), replacing what stands there; it cannot be unmade.
    pub fn put(&mut self, rules: &Rules, pos: u32, owner: u32, kind: u32) {
        let attrs = rules.kinds[kind as usize].attrs;
        self.write(pos, Some(Piece { owner, kind, attrs }));
    }

    /// Empties `pos` before play (a saved game's set-up line `(x pos)`); it cannot be unmade.
    pub fn remove(&mut self, pos: u32) {
        self.write(pos, None);
    }

    /// Puts `piece` (or nothing) on `pos` before play, as it is (attributes included); it
    /// cannot be unmade. [`State::board`] is public to read: writes go through this,
    /// [`State::put`] or [`State::remove`], which keep the royal pieces' positions.
    pub fn set_square(&mut self, pos: u32, piece: Option<Piece>) {
        self.write(pos, piece);
    }

    /// The positions of `player`'s royal pieces (of a type its `checkmated` goal names), in
    /// no particular order.
    pub(crate) fn royal_squares(&self, player: u32) -> &[u32] {
        self.royals.get(player as usize).map_or(&[], Vec::as_slice)
    }

    /// The positions of `player`'s royal pieces, found by looking at every position (in
    /// order): what [`State::royal_squares`] keeps, sorted.
    pub(crate) fn royal_squares_scanned(&self, player: u32) -> Vec<u32> {
        (0..self.board.len() as u32)
            .filter(|&pos| {
                self.board[pos as usize].is_some_and(|p| p.owner == player && self.is_royal(p))
            })
            .collect()
    }

    /// Writes `v` on `pos`, keeping the royal pieces' positions.
    #[inline]
    fn write(&mut self, pos: u32, v: Option<Piece>) {
        let old = std::mem::replace(&mut self.board[pos as usize], v);
        if self.royal_kind.is_empty() {
            return;
        }
        if let Some(p) = old
            && self.is_royal(p)
        {
            let list = &mut self.royals[p.owner as usize];
            if let Some(i) = list.iter().position(|&q| q == pos) {
                list.swap_remove(i);
            }
        }
        if let Some(p) = v
            && self.is_royal(p)
        {
            self.royals[p.owner as usize].push(pos);
        }
    }

    #[inline]
    fn is_royal(&self, p: Piece) -> bool {
        self.royal_kind
            .get(p.owner as usize * self.nkinds + p.kind as usize)
            .is_some_and(|&r| r)
    }

    /// The player whose turn it is.
    pub fn to_move(&self, rules: &Rules) -> u32 {
        rules.turns[self.turn as usize].player
    }

    /// The move type the current turn is restricted to.
    pub(crate) fn turn_type(&self, rules: &Rules) -> Option<u32> {
        rules.turns[self.turn as usize].move_type
    }

    /// Pieces of `player` of `kind` off the board.
    pub fn in_hand(&self, player: u32, kind: u32) -> u32 {
        self.hand[player as usize * self.nkinds + kind as usize]
    }

    /// Sets `player`'s state register `key` (Chessembly `set-state`); false when no program of
    /// the game uses that register.
    pub fn set_register(&mut self, rules: &Rules, player: u32, key: &str, value: i64) -> bool {
        let Some(k) = rules.state_keys.iter().position(|s| s == key) else {
            return false;
        };
        self.regs[player as usize * rules.state_keys.len() + k] = value;
        true
    }

    /// Whether `player` may drop a `kind` (has one off the board, or the type is unlimited).
    pub(crate) fn can_drop(&self, rules: &Rules, player: u32, kind: u32) -> bool {
        let i = player as usize * self.nkinds + kind as usize;
        let owned = rules.kinds[kind as usize]
            .owners
            .as_ref()
            .is_none_or(|o| o.contains(&player));
        owned && (!rules.hand_limited[i] || self.hand[i] > 0)
    }

    /// Plays `m`; [`State::unmake`] takes it back.
    pub fn make(&mut self, rules: &Rules, m: &Move) {
        self.frames.push(self.undo.len());
        self.undo.push(Undo::Meta(self.meta()));
        self.captured = 0;
        self.apply_all(rules, m.player, &m.actions);
        if !m.is_pass() {
            self.last_from = m.from.unwrap_or(NONE);
            self.last_to = m.to.unwrap_or(NONE);
        }
        match (m.partial, m.to) {
            (Some(mt), Some(to)) => self.partial = Some((to, mt)),
            _ => {
                self.partial = None;
                self.advance(rules);
            }
        }
    }

    /// Ends a partial move without continuing: the turn passes.
    pub(crate) fn end_partial(&mut self, rules: &Rules) {
        self.frames.push(self.undo.len());
        self.undo.push(Undo::Meta(self.meta()));
        self.partial = None;
        self.advance(rules);
    }

    /// Ends the partial move just made (its piece cannot continue), in the same undo frame.
    pub(crate) fn finish_partial(&mut self, rules: &Rules) {
        self.undo.push(Undo::Meta(self.meta()));
        self.partial = None;
        self.advance(rules);
    }

    /// Whether the last move captured a piece of `player` of `kind`.
    pub(crate) fn captured_piece(&self, rules: &Rules, player: u32, kind: u32) -> bool {
        let bit = player as usize * rules.kinds.len() + kind as usize;
        bit < 128 && self.captured & (1 << bit) != 0
    }

    /// The turns completed since the start.
    pub(crate) fn turns(&self) -> u32 {
        self.turns
    }

    fn advance(&mut self, rules: &Rules) {
        self.turns = self.turns.saturating_add(1);
        let next = self.turn as usize + 1;
        self.turn = if next < rules.turns.len() {
            next as u32
        } else {
            rules.repeat_from as u32
        };
    }

    /// Forgets how to take back the moves made so far ([`State::unmake`] then takes nothing
    /// back): a replay never goes back, and its memory must not grow with the game.
    pub fn forget_history(&mut self) {
        self.undo.clear();
        self.frames.clear();
    }

    /// Takes back the last [`State::make`] (or the end of a partial move).
    pub fn unmake(&mut self) {
        let Some(start) = self.frames.pop() else {
            return;
        };
        while self.undo.len() > start {
            match self.undo.pop() {
                Some(Undo::Square(p, v)) => self.write(p, v),
                Some(Undo::Hand(i, v)) => self.hand[i] = v,
                Some(Undo::Reg(i, v)) => self.regs[i] = v,
                Some(Undo::Meta(m)) => {
                    self.turn = m.turn;
                    self.turns = m.turns;
                    self.last_from = m.last_from;
                    self.last_to = m.last_to;
                    self.partial = m.partial;
                    self.captured = m.captured;
                }
                None => break,
            }
        }
    }

    fn meta(&self) -> Meta {
        Meta {
            turn: self.turn,
            turns: self.turns,
            last_from: self.last_from,
            last_to: self.last_to,
            partial: self.partial,
            captured: self.captured,
        }
    }

    fn set(&mut self, pos: u32, v: Option<Piece>) {
        self.undo.push(Undo::Square(pos, self.board[pos as usize]));
        self.write(pos, v);
    }

    fn add_hand(&mut self, owner: u32, kind: u32, delta: i64) {
        let i = owner as usize * self.nkinds + kind as usize;
        self.undo.push(Undo::Hand(i, self.hand[i]));
        self.hand[i] = (self.hand[i] as i64 + delta).max(0) as u32;
    }

    fn lose(&mut self, rules: &Rules, p: Piece) {
        let bit = p.owner as usize * self.nkinds + p.kind as usize;
        if bit < 128 {
            self.captured |= 1 << bit;
        }
        if rules.options.recycle_captures {
            self.add_hand(p.owner, p.kind, 1);
        }
    }

    /// Applies a move's changes as ZoG does: every moving piece is lifted from the position it
    /// stood on before the move, then the pieces land (replacing what stands there) and
    /// dropped pieces are placed, then captures are made (a capture where a piece landed removes
    /// it: Bolotoudou's `White Lock 2d x 2d`, Luzhanqi's `South Start c5 x c5`), then creations
    /// and changes act on whatever stands on their positions.
    fn apply_all(&mut self, rules: &Rules, mover: u32, actions: &[Action]) {
        let mut landing = std::mem::take(&mut self.landing);
        landing.clear();
        for a in actions {
            match *a {
                Action::Move { from, to, promote } => {
                    if let Some(p) = self.board[from as usize] {
                        self.set(from, None);
                        landing.push((to, p, promote));
                    }
                }
                Action::Copy { from, to, promote } => {
                    if let Some(p) = self.board[from as usize] {
                        landing.push((to, p, promote));
                    }
                }
                _ => {}
            }
        }
        for &(to, mut p, promote) in &landing {
            if let Some(old) = self.board[to as usize] {
                self.lose(rules, old);
            }
            if let Some(k) = promote {
                p.kind = k;
            }
            self.set(to, Some(p));
        }
        self.landing = landing;
        for a in actions {
            if let Action::Place {
                at,
                owner,
                kind,
                from_hand: true,
            } = *a
            {
                self.place(rules, at, owner, kind, true);
            }
        }
        for a in actions {
            if let Action::Capture { at } = *a
                && let Some(old) = self.board[at as usize]
            {
                self.lose(rules, old);
                self.set(at, None);
            }
        }
        for a in actions {
            self.change(rules, mover, a);
        }
    }

    fn place(&mut self, rules: &Rules, at: u32, owner: u32, kind: u32, from_hand: bool) {
        if let Some(old) = self.board[at as usize] {
            self.lose(rules, old);
        }
        if from_hand && rules.hand_limited[owner as usize * self.nkinds + kind as usize] {
            self.add_hand(owner, kind, -1);
        }
        let attrs = rules.kinds[kind as usize].attrs;
        self.set(at, Some(Piece { owner, kind, attrs }));
    }

    fn change(&mut self, rules: &Rules, mover: u32, a: &Action) {
        match *a {
            Action::Move { .. } | Action::Copy { .. } | Action::Capture { .. } => {}
            Action::Place {
                at,
                owner,
                kind,
                from_hand: false,
            } => self.place(rules, at, owner, kind, false),
            Action::Place { .. } => {}
            Action::ChangeType { at, kind } => {
                if let Some(mut p) = self.board[at as usize] {
                    p.kind = kind;
                    self.set(at, Some(p));
                }
            }
            Action::ChangeOwner { at, owner } => {
                if let Some(mut p) = self.board[at as usize] {
                    p.owner = owner;
                    self.set(at, Some(p));
                }
            }
            Action::Flip { at } => {
                if let Some(mut p) = self.board[at as usize] {
                    p.owner = (p.owner + 1) % rules.players.len() as u32;
                    self.set(at, Some(p));
                }
            }
            Action::SetAttr { at, attr, value } => {
                if let Some(mut p) = self.board[at as usize] {
                    p.attrs = (p.attrs & !(1 << attr)) | ((value as u32) << attr);
                    self.set(at, Some(p));
                }
            }
            Action::SetState { key, value } => {
                let i = mover as usize * rules.state_keys.len() + key as usize;
                self.undo.push(Undo::Reg(i, self.regs[i]));
                self.regs[i] = value;
            }
        }
    }

    /// A hash of everything that decides the legal moves (for repetition and tests).
    pub fn key(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        self.board.hash(&mut h);
        self.hand.hash(&mut h);
        self.turn.hash(&mut h);
        self.partial.hash(&mut h);
        self.regs.hash(&mut h);
        h.finish()
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{Move, Rules, State, legal_moves, piece_moves};

    /// Kings are royal for both players (`checkmated`); they are captured (the moves before the
    /// legality filter are played too), made by promotion, dropped from the hand, and taken
    /// over by a Turncoat's `change-owner`.
    const ROYALS: &str = r#"
(define step ($1 (verify not-friend?) add))
(game (title "Royals") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 30 30)
    (dimensions ("a/b/c/d/e" (30 0)) ("5/4/3/2/1" (0 30)))
    (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1))))
  (piece (name King) (moves (step n) (step s) (step e) (step w) (step ne) (step sw))
    (drops ((verify empty?) add)))
  (piece (name Pawn) (moves (n (verify empty?) (if (on-board? n) add else (add King)))
    (ne (verify enemy?) add) (nw (verify enemy?) add) (s (verify not-friend?) add)))
  (piece (name Turncoat) (moves (e (verify enemy?) change-owner (go from) n (verify empty?) add)
    (w (verify enemy?) change-owner (go from) s (verify empty?) add) (step n) (step s) (step w)))
  (board-setup
    (White (King c1) (Pawn a2 b2 d2) (Turncoat e1) (King off 1))
    (Black (King c5) (Pawn a4 b4 d4) (Turncoat e5) (King off 1)))
  (loss-condition (White Black) (checkmated King)))
"#;

    /// A small deterministic generator (xorshift).
    fn next(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    fn kept_equal_scanned(rules: &Rules, st: &State) {
        for p in 0..rules.players.len() as u32 {
            let mut kept = st.royal_squares(p).to_vec();
            kept.sort_unstable();
            assert_eq!(kept, st.royal_squares_scanned(p), "player {p}");
        }
    }

    #[test]
    fn the_royal_squares_kept_are_those_on_the_board_after_make_and_unmake() {
        let doc = crate::tests::zrf_doc(ROYALS);
        let rules = Rules::compile(&doc, 0).unwrap();
        let (mut made, mut royal_changes) = (0, 0);
        for mut seed in 1..=40u64 {
            let mut st = State::start(&rules);
            kept_equal_scanned(&rules, &st);
            let mut depth = 0;
            for _ in 0..120 {
                let player = st.to_move(&rules);
                let mut moves: Vec<Move> = legal_moves(&rules, &mut st).moves;
                kept_equal_scanned(&rules, &st);
                for pos in 0..rules.npos() as u32 {
                    if st.board[pos as usize].is_some_and(|p| p.owner == player) {
                        moves.extend(piece_moves(&rules, &st, pos).moves);
                    }
                }
                if moves.is_empty() || (depth > 0 && next(&mut seed).is_multiple_of(4)) {
                    st.unmake();
                    depth -= 1;
                } else {
                    let before = (st.royal_squares(0).len(), st.royal_squares(1).len());
                    let m = &moves[next(&mut seed) as usize % moves.len()];
                    st.make(&rules, m);
                    depth += 1;
                    made += 1;
                    royal_changes += usize::from(
                        before != (st.royal_squares(0).len(), st.royal_squares(1).len()),
                    );
                }
                kept_equal_scanned(&rules, &st);
                if depth == 0 && moves.is_empty() {
                    break;
                }
            }
            while depth > 0 {
                st.unmake();
                depth -= 1;
                kept_equal_scanned(&rules, &st);
            }
            assert_eq!(st.key(), State::start(&rules).key());
        }
        assert!(made > 1000 && royal_changes > 50, "{made} {royal_changes}");
    }
}
