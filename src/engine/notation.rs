//! Moves written as Zillions of Games writes them in saved games (`.zsg`): `Pawn e2 - e4`,
//! `Rook c1 x c3 Rook c3 - x3`, `Checker g4 - g6 x g5`, `White Man d3`, `= Queen`, `Pass`.
//!
//! [`segments`] gives a move's parts as structured [`Segment`]s (what the replay of saved games
//! compares); [`write`] and [`notation`] turn them into ZoG's text.

use super::rules::Rules;
use super::state::{Action, Move, State};

/// One part of a move as ZoG writes it. Positions are always resolved: `= Queen` (no `on`)
/// stands for a [`Segment::Type`] at the position of the preceding segment's piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Segment {
    /// `Piece from - to`, or `Piece from x to` when `to` is occupied before the move.
    Move {
        /// The moving piece's type (as it stands on `from` before the move).
        kind: u32,
        /// Origin.
        from: u32,
        /// Destination.
        to: u32,
        /// The destination is occupied (written `x`).
        capture: bool,
    },
    /// `Player Piece pos`: a drop, a `create` or a hand placement.
    Place {
        /// Owner.
        owner: u32,
        /// Type.
        kind: u32,
        /// Where.
        at: u32,
    },
    /// `x pos`: a piece is removed.
    Capture {
        /// Where.
        at: u32,
    },
    /// `= Piece [on pos]`: a type change.
    Type {
        /// New type.
        kind: u32,
        /// Where.
        at: u32,
    },
    /// `= Player [on pos]`: an owner change.
    Owner {
        /// New owner.
        owner: u32,
        /// Where.
        at: u32,
    },
    /// `flip pos`.
    Flip {
        /// Where.
        at: u32,
    },
    /// `@ pos index value`: an attribute set (index as ZoG numbers the piece's attributes).
    Attr {
        /// Where.
        at: u32,
        /// ZoG's attribute index.
        index: u32,
        /// Value.
        value: bool,
    },
}

impl Segment {
    /// Whether this is a piece movement (these come first, in program order).
    pub fn is_movement(&self) -> bool {
        matches!(self, Segment::Move { .. })
    }

    /// The position a following `= …` without `on` refers to: where this segment's piece lands.
    pub fn lands(&self) -> Option<u32> {
        match *self {
            Segment::Move { to, .. } => Some(to),
            Segment::Place { at, .. } => Some(at),
            _ => None,
        }
    }
}

/// ZoG's index of attribute `attr` in `@ pos index value`. ZoG numbers attribute names from the
/// last declaration `(attribute NAME INITIAL)` of the game backwards: the name declared last is
/// 0, the name whose last declaration comes before it is 1, and so on (pieces in order, each
/// piece's declarations in order), whichever piece carries it. YoninShogi's pieces all declare
/// South West North East (saved as 3 2 1 0); KoShogi's last declarations are `enemy-pass?` (EC),
/// `is-bow?` (EC), `from-enemy?` (CA), `igui?` (UU), `step-mover?` (V), and it saves
/// `enemy-pass?` as 4. Attributes no piece declares follow the declared ones, in the order the
/// rules first name them (*decided*: no save sets one).
pub fn attr_index(rules: &Rules, attr: u32) -> u32 {
    let mut order: Vec<u32> = Vec::new();
    for k in rules.kinds.iter().rev() {
        for &a in k.declared.iter().rev() {
            if !order.contains(&a) {
                order.push(a);
            }
        }
    }
    for a in 0..rules.attributes.len() as u32 {
        if !order.contains(&a) {
            order.push(a);
        }
    }
    order.iter().position(|&a| a == attr).unwrap_or(0) as u32
}

/// The segments of `m` read against `st`, the position it is played from: movements first, in
/// program order (a promotion right after its movement), then the other changes in the order
/// the program made them. Captures of positions where no piece stands or lands are left out,
/// as ZoG records none.
pub fn segments(rules: &Rules, st: &State, m: &Move) -> Vec<Segment> {
    let mut out = Vec::new();
    for a in &m.actions {
        match *a {
            Action::Move { from, to, promote } | Action::Copy { from, to, promote } => {
                let Some(p) = st.board[from as usize] else {
                    continue;
                };
                // A piece that stays where it is only changes: ZoG writes `= Type on pos`.
                if from != to {
                    out.push(Segment::Move {
                        kind: p.kind,
                        from,
                        to,
                        capture: st.board[to as usize].is_some(),
                    });
                }
                if let Some(kind) = promote {
                    out.push(Segment::Type { kind, at: to });
                }
            }
            Action::Place {
                at,
                owner,
                kind,
                from_hand: true,
            } => {
                out.push(Segment::Place { owner, kind, at });
            }
            _ => {}
        }
    }
    let landed: Vec<u32> = out.iter().filter_map(Segment::lands).collect();
    for a in &m.actions {
        match *a {
            Action::Capture { at } if st.board[at as usize].is_some() || landed.contains(&at) => {
                out.push(Segment::Capture { at })
            }
            Action::Place {
                at,
                owner,
                kind,
                from_hand: false,
            } => out.push(Segment::Place { owner, kind, at }),
            Action::ChangeType { at, kind } => out.push(Segment::Type { kind, at }),
            Action::ChangeOwner { at, owner } => out.push(Segment::Owner { owner, at }),
            Action::Flip { at } => out.push(Segment::Flip { at }),
            Action::SetAttr { at, attr, value } => out.push(Segment::Attr {
                at,
                index: attr_index(rules, attr),
                value,
            }),
            _ => {}
        }
    }
    out
}

/// Writes segments as ZoG does: `on pos` is left out when the change is at the position the
/// preceding segment's piece landed on.
pub fn write(rules: &Rules, segs: &[Segment]) -> String {
    let pos = |p: u32| rules.positions[p as usize].as_str();
    let kind = |k: u32| rules.kinds[k as usize].name.as_str();
    let player = |p: u32| rules.players[p as usize].as_str();
    let mut parts: Vec<String> = Vec::with_capacity(segs.len());
    let mut prev: Option<u32> = None;
    for s in segs {
        let on = |at: u32| {
            if prev == Some(at) {
                String::new()
            } else {
                format!(" on {}", pos(at))
            }
        };
        parts.push(match *s {
            Segment::Move {
                kind: k,
                from,
                to,
                capture,
            } => {
                let sep = if capture { "x" } else { "-" };
                format!("{} {} {sep} {}", kind(k), pos(from), pos(to))
            }
            Segment::Place { owner, kind: k, at } => {
                format!("{} {} {}", player(owner), kind(k), pos(at))
            }
            Segment::Capture { at } => format!("x {}", pos(at)),
            Segment::Type { kind: k, at } => format!("= {}{}", kind(k), on(at)),
            Segment::Owner { owner, at } => format!("= {}{}", player(owner), on(at)),
            Segment::Flip { at } => format!("flip {}", pos(at)),
            Segment::Attr { at, index, value } => {
                format!("@ {} {index} {}", pos(at), value as u8)
            }
        });
        prev = s.lands();
    }
    parts.join(" ")
}

/// The move as ZoG writes it, read against the position it is played from (see [`segments`]).
pub fn notation(rules: &Rules, st: &State, m: &Move) -> String {
    if m.is_pass() {
        return "Pass".to_string();
    }
    write(rules, &segments(rules, st, m))
}
