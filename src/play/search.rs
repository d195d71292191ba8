//! The computer opponent: iterative-deepening alpha-beta on the engine (two players), scoring a position by material and mobility, within a time limit per move.
//!
//! The evaluation is deliberately simple and game-blind: every piece counts 100 (on the board
//! and in hand), plus one per legal move of the player to move; a game's end scores as a win,
//! loss or draw from the goals (`engine::end`). A partial move's continuation is searched as
//! the same player's. Games of more than two players are not searched.

use crate::engine::{self, Move, Rules, State};
use crate::spec::GoalKind;
use std::time::Instant;

/// A won position's score (less the plies to reach it, so faster wins score higher).
const WIN: i64 = 1_000_000;

/// What [`think`] chose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thought {
    /// The index of the chosen move in the legal moves given.
    pub index: usize,
    /// The deepest search completed (plies).
    pub depth: u32,
    /// Its score for the player to move (`±1_000_000` less plies: a forced win or loss).
    pub score: i64,
    /// Positions visited.
    pub nodes: u64,
}

struct Search<'a> {
    rules: &'a Rules,
    deadline: Instant,
    nodes: u64,
    /// The deadline passed: the iteration is abandoned.
    out: bool,
}

/// The best of `moves` (the legal moves of `st`) for the player to move, searching deeper
/// until `deadline` or `max_depth` plies; the first ply is always searched whole. `None` when
/// there is no move or the game has more than two players.
pub fn think(
    rules: &Rules,
    st: &State,
    moves: &[Move],
    deadline: Instant,
    max_depth: u32,
) -> Option<Thought> {
    if moves.is_empty() || rules.players.len() != 2 {
        return None;
    }
    let mut s = Search {
        rules,
        deadline,
        nodes: 0,
        out: false,
    };
    let mut st = st.clone();
    let me = st.to_move(rules);
    let mut best: Option<Thought> = None;
    let mut order: Vec<usize> = (0..moves.len()).collect();
    for depth in 1..=max_depth.max(1) {
        let (mut alpha, beta) = (-2 * WIN, 2 * WIN);
        let mut scored: Vec<(usize, i64)> = Vec::with_capacity(moves.len());
        for &i in &order {
            engine::play(rules, &mut st, &moves[i]);
            let v = s.child(&mut st, me, depth - 1, alpha, beta, 1);
            st.unmake();
            if s.out && depth > 1 {
                break;
            }
            scored.push((i, v));
            alpha = alpha.max(v);
        }
        if s.out && depth > 1 {
            break;
        }
        // Best first (stable: the earlier move wins a tie), and the next depth searches the
        // moves in this order.
        scored.sort_by_key(|&(_, v)| -v);
        order = scored.iter().map(|&(i, _)| i).collect();
        let (index, score) = scored[0];
        best = Some(Thought {
            index,
            depth,
            score,
            nodes: s.nodes,
        });
        if score.abs() >= WIN - 1000 || Instant::now() >= deadline {
            break;
        }
    }
    best.map(|mut b| {
        b.nodes = s.nodes;
        b
    })
}

impl Search<'_> {
    /// The value for `parent` of the position `st` reached by its move: the same player's
    /// continuation is searched with the same window, the opponent's negated.
    fn child(
        &mut self,
        st: &mut State,
        parent: u32,
        depth: u32,
        alpha: i64,
        beta: i64,
        ply: i64,
    ) -> i64 {
        if st.to_move(self.rules) == parent {
            self.value(st, depth, alpha, beta, ply)
        } else {
            -self.value(st, depth, -beta, -alpha, ply)
        }
    }

    /// Negamax with alpha-beta: the value of `st` for the player to move.
    fn value(&mut self, st: &mut State, depth: u32, mut alpha: i64, beta: i64, ply: i64) -> i64 {
        self.nodes += 1;
        if Instant::now() >= self.deadline {
            self.out = true;
        }
        let rules = self.rules;
        let me = st.to_move(rules);
        let found = engine::legal_moves(rules, st);
        if found.cut.is_none()
            && let Some(end) = engine::end(rules, st, found.moves.is_empty())
        {
            let mine = end.players.contains(&me);
            return match end.kind {
                GoalKind::Win if mine => WIN - ply,
                GoalKind::Win => ply - WIN,
                GoalKind::Loss if mine => ply - WIN,
                GoalKind::Loss => WIN - ply,
                GoalKind::Draw | GoalKind::Count => 0,
            };
        }
        if depth == 0 || self.out || found.cut.is_some() || found.moves.is_empty() {
            return material(rules, st, me) + found.moves.len() as i64;
        }
        let mut best = -2 * WIN;
        for m in &found.moves {
            engine::play(rules, st, m);
            let v = self.child(st, me, depth - 1, alpha, beta, ply + 1);
            st.unmake();
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta || self.out {
                break;
            }
        }
        best
    }
}

/// 100 per piece of `me` (board and hand) less 100 per piece of the others.
fn material(rules: &Rules, st: &State, me: u32) -> i64 {
    let mut v = 0;
    for p in st.board.iter().flatten() {
        v += if p.owner == me { 100 } else { -100 };
    }
    for owner in 0..rules.players.len() as u32 {
        for k in 0..rules.kinds.len() as u32 {
            let n = st.in_hand(owner, k) as i64 * 100;
            v += if owner == me { n } else { -n };
        }
    }
    v
}
