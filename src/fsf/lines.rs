//! Pieces that move along a zone's lines (janggi's palace diagonals): Fairy-Stockfish states
//! them only through its built-in janggi pieces and `diagonalLines`, and its wazir-moving king
//! only by inheriting from its `xiangqi` template, whose other rules are then switched off.

use super::betza::{Atom, Modality, Travel, Vector};
use super::pieces::Classified;
use std::collections::{BTreeMap, BTreeSet};

/// A built-in piece type whose moves along `diagonalLines` Fairy-Stockfish generates itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LinePiece {
    /// The royal wazir (the xiangqi template's king): `W`, and `F` along the lines.
    King,
    /// `wazir`: `W`, and `F` along the lines.
    Wazir,
    /// `rook`: `R`, and `B` along the lines.
    Rook,
    /// `janggiCannon`: the janggi cannon orthogonally and along the lines.
    JanggiCannon,
    /// `soldier` (sideways from the first rank): `fsW`, and `fF` along the lines.
    Soldier,
}

impl LinePiece {
    /// The `variants.ini` key of the built-in type.
    pub fn key(self) -> &'static str {
        match self {
            LinePiece::King => "king",
            LinePiece::Wazir => "wazir",
            LinePiece::Rook => "rook",
            LinePiece::JanggiCannon => "janggiCannon",
            LinePiece::Soldier => "soldier",
        }
    }
}

/// The name Fairy-Stockfish gives its template pieces, and their keys, for the `xiangqi`
/// template: each is removed (`= -`) unless the section uses that type.
pub const XIANGQI_TEMPLATE_PIECES: [&str; 6] =
    ["rook", "horse", "elephant", "fers", "cannon", "soldier"];

/// Rules the `xiangqi` template sets that a standalone section does not have, with the
/// standalone value (written when the section inherits and does not set them itself).
pub const XIANGQI_TEMPLATE_RULES: [(&str, &str); 5] = [
    ("flyingGeneral", "false"),
    ("perpetualCheckIllegal", "false"),
    ("chasingRule", "none"),
    ("stalemateValue", "draw"),
    ("soldierPromotionRank", "1"),
];

fn set(travel: Travel, vs: &[Vector]) -> BTreeSet<Atom> {
    let mut out = BTreeSet::new();
    for &v in vs {
        for modality in [Modality::Move, Modality::Capture] {
            out.insert(Atom {
                travel,
                initial: false,
                modality,
                v,
            });
        }
    }
    out
}

const ORTH: [Vector; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [Vector; 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Which built-in type has exactly the piece's moves off the lines and along them (each set
/// in the mover's frame), and the zone whose lines it follows; `None` when none has.
pub fn line_piece(c: &Classified, royal: bool) -> Option<(LinePiece, String)> {
    let zones: BTreeSet<&String> = c.moves.iter().filter_map(|m| m.lines.as_ref()).collect();
    let [zone] = zones.into_iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    let off: BTreeSet<Atom> = c
        .moves
        .iter()
        .filter(|m| m.lines.is_none())
        .map(|m| m.atom)
        .collect();
    let on: BTreeSet<Atom> = c
        .moves
        .iter()
        .filter(|m| m.lines.is_some())
        .map(|m| m.atom)
        .collect();
    // Only the wazir's and the king's steps may stop at a mobility region; nothing else may
    // test a zone or promote.
    let off_zones: BTreeSet<Option<&String>> = c
        .moves
        .iter()
        .filter(|m| m.lines.is_none())
        .map(|m| m.zone.as_ref())
        .collect();
    if !c.promotions.is_empty() || c.initial.is_some() || c.castling > 0 || off_zones.len() > 1 {
        return None;
    }
    let zoned = off_zones.iter().any(|z| z.is_some());
    let kinds = [
        (
            LinePiece::Wazir,
            set(Travel::Leap, &ORTH),
            set(Travel::Leap, &DIAG),
        ),
        (
            LinePiece::Rook,
            set(Travel::Ride(0), &ORTH),
            set(Travel::Ride(0), &DIAG),
        ),
        (
            LinePiece::JanggiCannon,
            set(Travel::JanggiHop, &ORTH),
            set(Travel::JanggiHop, &DIAG),
        ),
        (
            LinePiece::Soldier,
            set(Travel::Leap, &[(0, 1), (1, 0), (-1, 0)]),
            set(Travel::Leap, &[(1, 1), (-1, 1)]),
        ),
    ];
    let (kind, _, _) = kinds.into_iter().find(|(_, a, b)| *a == off && *b == on)?;
    if zoned && kind != LinePiece::Wazir {
        return None;
    }
    let kind = if royal && kind == LinePiece::Wazir {
        LinePiece::King
    } else if royal {
        return None;
    } else {
        kind
    };
    Some((kind, zone.clone()))
}

/// The longest run of zone squares along any diagonal ray from a square of the zone, when on
/// every such ray the zone's squares come first, with no gap; `None` when some ray has a gap.
fn diagonal_runs(squares: &BTreeSet<(i32, i32)>) -> Option<usize> {
    let mut longest = 0;
    for &(f, r) in squares {
        for &(dx, dy) in &DIAG {
            let ray: Vec<bool> = (1..=16)
                .map(|k| squares.contains(&(f + dx * k, r + dy * k)))
                .collect();
            let run = ray.iter().take_while(|&&b| b).count();
            if ray[run..].iter().any(|&b| b) {
                return None;
            }
            longest = longest.max(run);
        }
    }
    Some(longest)
}

/// Whether a move confined to the lines `squares` (every square it passes and reaches is one)
/// is Fairy-Stockfish's reading of `diagonalLines` (a diagonal move from a line square to a
/// line square, over empty squares that need not be on the lines): along every diagonal ray
/// from a square of the zone, the zone's squares come first, with no gap.
pub fn lines_without_gaps(squares: &BTreeSet<(i32, i32)>) -> bool {
    diagonal_runs(squares).is_some()
}

/// Whether Fairy-Stockfish's reading of `diagonalLines` = `squares` is the source's (every
/// square reached is in the zone): the lines have no gap ([`lines_without_gaps`]) and at most
/// two of their squares follow a square of them on a diagonal (the cannon's screen and
/// landing, which the source's palace hop names one by one).
pub fn lines_agree(squares: &BTreeSet<(i32, i32)>) -> bool {
    diagonal_runs(squares).is_some_and(|n| n <= 2)
}

/// The keys an inheriting section writes so that the `xiangqi` template adds nothing the
/// source does not have: template pieces it does not use, removed, and the template's rules
/// reset, unless `keys` already sets them.
pub fn template_overrides(used: &BTreeSet<&str>, keys: &BTreeMap<String, String>) -> Vec<String> {
    let mut out: Vec<String> = XIANGQI_TEMPLATE_PIECES
        .iter()
        .filter(|k| !used.contains(**k))
        .map(|k| format!("{k} = -"))
        .collect();
    for (k, v) in XIANGQI_TEMPLATE_RULES {
        if !keys.contains_key(k) {
            out.push(format!("{k} = {v}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_janggi_palace_lines_agree_and_a_longer_diagonal_does_not() {
        let palace: BTreeSet<(i32, i32)> = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)].into();
        assert!(lines_agree(&palace));
        let mut gap = palace.clone();
        gap.insert((7, 4)); // on the ray d1-e2-f3, after a square off the zone
        assert!(!lines_agree(&gap));
        assert!(!lines_without_gaps(&gap));
        let long: BTreeSet<(i32, i32)> = (0..4).map(|k| (k, k)).collect();
        assert!(!lines_agree(&long));
        assert!(lines_without_gaps(&long));
    }
}
