//! Reading what a section inherits and Fairy-Stockfish's janggi pieces: the `xiangqi` template
//! (the one parent a section may name, `[name:xiangqi]`) as the keys of a standalone section,
//! and the moves the built-in line pieces make along `diagonalLines`, as Betza atoms.

use super::betza::{Atom, Modality, Travel, Vector};

/// The parent a section may inherit from.
pub const PARENT: &str = "xiangqi";

/// Fairy-Stockfish's `xiangqi` variant (its `variant.cpp`) as the keys of a standalone
/// section. Its king is the royal wazir, which alone among kings moves along `diagonalLines`
/// (see [`line_atoms`]); a standalone `king = k:W` is a custom king that does not.
pub const XIANGQI: &str = "maxFile = 9
maxRank = 10
rook = r
horse = n
elephant = b
fers = a
cannon = c
soldier = p
king = k:W
mobilityRegionWhiteKing = d1 e1 f1 d2 e2 f2 d3 e3 f3
mobilityRegionBlackKing = d8 e8 f8 d9 e9 f9 d10 e10 f10
mobilityRegionWhiteFers = d1 e1 f1 d2 e2 f2 d3 e3 f3
mobilityRegionBlackFers = d8 e8 f8 d9 e9 f9 d10 e10 f10
mobilityRegionWhiteElephant = a1 b1 c1 d1 e1 f1 g1 h1 i1 a2 b2 c2 d2 e2 f2 g2 h2 i2 a3 b3 c3 d3 e3 f3 g3 h3 i3 a4 b4 c4 d4 e4 f4 g4 h4 i4 a5 b5 c5 d5 e5 f5 g5 h5 i5
mobilityRegionBlackElephant = a6 b6 c6 d6 e6 f6 g6 h6 i6 a7 b7 c7 d7 e7 f7 g7 h7 i7 a8 b8 c8 d8 e8 f8 g8 h8 i8 a9 b9 c9 d9 e9 f9 g9 h9 i9 a10 b10 c10 d10 e10 f10 g10 h10 i10
soldierPromotionRank = 6
promotionPawnTypes = -
promotionPieceTypes = -
doubleStep = false
castling = false
stalemateValue = loss
flyingGeneral = true
perpetualCheckIllegal = true
chasingRule = axf
startFen = rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// The template's keys that the section does not set, then the section's own keys: the merged
/// keys of an inheriting section (`at`: where the template's keys are reported).
pub fn merge<'t>(own: &[(&'t str, &'t str, usize)], at: usize) -> Vec<(&'t str, &'t str, usize)> {
    let mut out: Vec<(&'t str, &'t str, usize)> = XIANGQI
        .lines()
        .filter_map(|l| l.split_once(" = "))
        .filter(|(k, _)| !own.iter().any(|o| o.0 == *k))
        .map(|(k, v)| (k, v, at))
        .collect();
    out.extend_from_slice(own);
    out
}

/// The zone `diagonalLines` is read into.
pub const LINES_ZONE: &str = "diagonal-lines";

/// The built-in types that move along `diagonalLines`, by key (`king`: the template's royal
/// wazir): their moves there, in the mover's frame.
pub fn line_atoms(key: &str) -> Vec<Atom> {
    let diag: &[Vector] = &[(1, 1), (-1, 1), (1, -1), (-1, -1)];
    let (travel, vs): (Travel, &[Vector]) = match key {
        "king" | "wazir" => (Travel::Leap, diag),
        "soldier" => (Travel::Leap, &diag[..2]),
        "rook" => (Travel::Ride(0), diag),
        "janggiCannon" => (Travel::JanggiHop, diag),
        _ => return Vec::new(),
    };
    vs.iter()
        .flat_map(|&v| {
            [Modality::Move, Modality::Capture].map(|modality| Atom {
                travel,
                initial: false,
                modality,
                v,
            })
        })
        .collect()
}
