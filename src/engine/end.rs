//! How a game ended: the goal that decided it, or ZoG's rule for a player who cannot move.

use super::generate::attacked;
use super::play::static_goal;
use super::rules::{G, Rules};
use super::state::State;
use crate::spec::GoalKind;

/// The end of a game and what decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct End {
    /// Win, loss, draw or count, for `players`.
    pub kind: GoalKind,
    /// The players the goal names (the kind is theirs: `Loss` for `[1]` means player 1 lost).
    pub players: Vec<u32>,
    /// The index of the game's goal that decided it (in the spec's order, which is the
    /// compiled order); `None` for ZoG's implicit rule: a player who cannot move loses.
    pub goal: Option<usize>,
}

/// How the game stands in `st`: ended by a goal of the last move (as [`super::outcome`]
/// decides), or — when the player to move has no legal move (`no_moves`) — by its `checkmated`
/// goal (a royal piece attacked), its `stalemated` goal, or else ZoG's implicit loss for the
/// player who cannot move. `None` while the game goes on. `repetition` is not tracked.
pub fn end(rules: &Rules, st: &State, no_moves: bool) -> Option<End> {
    for (i, g) in rules.goals.iter().enumerate() {
        for &p in &g.players {
            if static_goal(rules, st, &g.cond, p) {
                return Some(End {
                    kind: g.kind,
                    players: vec![p],
                    goal: Some(i),
                });
            }
        }
    }
    if !no_moves {
        return None;
    }
    let p = st.to_move(rules);
    let found = |want: &dyn Fn(&G) -> bool| {
        rules
            .goals
            .iter()
            .enumerate()
            .find(|(_, g)| g.players.contains(&p) && want(&g.cond))
            .map(|(i, g)| End {
                kind: g.kind,
                players: vec![p],
                goal: Some(i),
            })
    };
    let in_check = |kinds: &[u32]| {
        st.board.iter().enumerate().any(|(pos, q)| {
            q.is_some_and(|q| q.owner == p && kinds.contains(&q.kind))
                && attacked(rules, st, pos as u32, p, |o| o != p, None, 1)
        })
    };
    found(&|c| matches!(c, G::Checkmated(k) if in_check(k)))
        .or_else(|| found(&|c| matches!(c, G::Stalemated)))
        .or(Some(End {
            kind: GoalKind::Loss,
            players: vec![p],
            goal: None,
        }))
}
