//! Moves written as Zillions of Games writes them in saved games (`.zsg`): `Pawn e2 - e4`,
//! `Rook c1 x c3 Rook c3 - x3`, `Checker g4 - g6 x g5`, `White Man d3`, `= Queen`, `Pass`.

use super::rules::Rules;
use super::state::{Action, Move, State};

/// The move as ZoG writes it, read against the position it is played from. Movements come
/// first (`Piece from - to`, `x` when the destination is occupied), then the other changes in
/// order: `x pos` captures, `Player Piece pos` drops and creations, `= Piece [on pos]` type
/// changes, `= Player on pos` owner changes, `@ pos attribute value` attributes.
pub fn notation(rules: &Rules, st: &State, m: &Move) -> String {
    if m.is_pass() {
        return "Pass".to_string();
    }
    let pos = |p: u32| rules.positions[p as usize].as_str();
    let mut parts: Vec<String> = Vec::new();
    let mut last_to = None;
    for a in &m.actions {
        match *a {
            Action::Move { from, to, promote } | Action::Copy { from, to, promote } => {
                let Some(p) = st.board[from as usize] else {
                    continue;
                };
                let sep = if st.board[to as usize].is_some() && from != to {
                    "x"
                } else {
                    "-"
                };
                let kind = &rules.kinds[p.kind as usize].name;
                parts.push(format!("{kind} {} {sep} {}", pos(from), pos(to)));
                if let Some(k) = promote {
                    parts.push(format!("= {}", rules.kinds[k as usize].name));
                }
                last_to = Some(to);
            }
            Action::Place {
                at,
                owner,
                kind,
                from_hand: true,
            } => {
                parts.push(format!(
                    "{} {} {}",
                    rules.players[owner as usize],
                    rules.kinds[kind as usize].name,
                    pos(at)
                ));
                last_to = Some(at);
            }
            _ => {}
        }
    }
    for a in &m.actions {
        let on = |at: u32| {
            if Some(at) == last_to {
                String::new()
            } else {
                format!(" on {}", pos(at))
            }
        };
        match *a {
            Action::Capture { at } => parts.push(format!("x {}", pos(at))),
            Action::Place {
                at,
                owner,
                kind,
                from_hand: false,
            } => parts.push(format!(
                "{} {} {}",
                rules.players[owner as usize],
                rules.kinds[kind as usize].name,
                pos(at)
            )),
            Action::ChangeType { at, kind } => {
                parts.push(format!("= {}{}", rules.kinds[kind as usize].name, on(at)))
            }
            Action::ChangeOwner { at, owner } => {
                parts.push(format!("= {}{}", rules.players[owner as usize], on(at)))
            }
            Action::SetAttr { at, attr, value } => {
                parts.push(format!("@ {} {attr} {}", pos(at), value as u8))
            }
            _ => {}
        }
    }
    parts.join(" ")
}
