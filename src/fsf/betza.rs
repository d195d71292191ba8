//! Betza notation as Fairy-Stockfish reads it: movement atoms, the direction modifiers that
//! select vectors of an atom, lame-leaper paths, and the writing of a set of movements.
//!
//! The selection table is Fairy-Stockfish's own (`piece.cpp`, `from_betza`): a modifier pair
//! such as `ff`, `fs` or `rf` selects some of the eight vectors of an atom `(a, b)`; one
//! letter `f` is the pair `ff`. Writing a set of vectors searches the smallest set of pairs
//! whose selections are exactly that set, so the text is read back as written.

use std::collections::BTreeSet;

/// A board vector in the mover's frame: `dx` to the right, `dy` forward.
pub type Vector = (i32, i32);

/// What a movement may do at its destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Modality {
    /// Only to an empty square (`m`).
    Move,
    /// Only capturing (`c`).
    Capture,
    /// Capturing en passant as well as capturing (`ce`).
    CaptureEp,
}

/// How a movement travels along its vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Travel {
    /// One jump of the vector.
    Leap,
    /// One jump whose intermediate squares (Fairy-Stockfish's lame path) must be empty (`n`).
    Lame,
    /// Repeated steps of the vector, up to `0` = unlimited or this many.
    Ride(u8),
    /// A rider that jumps exactly one piece on its way (`p`, the cannon's capture).
    Hop,
    /// The janggi cannon: a hopper whose screen may not be of its own kind and which may not
    /// take its own kind. No Betza form: Fairy-Stockfish's built-in `janggiCannon`.
    JanggiHop,
}

/// One movement: a vector, how it travels, what it may do, and whether it is an initial
/// (double-step) move (`i`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Atom {
    /// Travel kind.
    pub travel: Travel,
    /// Allowed only from the double-step region (`i`).
    pub initial: bool,
    /// Destination modality.
    pub modality: Modality,
    /// The vector.
    pub v: Vector,
}

/// The base letter of a leap `(a, b)` (`a ≥ b ≥ 0`), when Fairy-Stockfish has one.
fn letter(a: i32, b: i32) -> Option<char> {
    Some(match (a, b) {
        (1, 0) => 'W',
        (1, 1) => 'F',
        (2, 0) => 'D',
        (2, 1) => 'N',
        (2, 2) => 'A',
        (3, 0) => 'H',
        (3, 1) => 'C',
        (3, 2) => 'Z',
        (3, 3) => 'G',
        _ => return None,
    })
}

/// The atom `(a, b)` of a vector (`a ≥ b ≥ 0`).
pub fn base(v: Vector) -> (i32, i32) {
    let (x, y) = (v.0.abs(), v.1.abs());
    (x.max(y), x.min(y))
}

/// The vectors `pair` selects on atom `(a, b)` (Fairy-Stockfish's table, `dx`, `dy`).
fn selects(pair: &str, a: i32, b: i32) -> BTreeSet<Vector> {
    // An orthogonal atom reads a mixed pair as its two letters (`fs` is `ff` + `ss`).
    let p: Vec<char> = pair.chars().collect();
    if b == 0 && p[0] != p[1] {
        let mut s = selects(&format!("{0}{0}", p[0]), a, b);
        s.extend(selects(&format!("{0}{0}", p[1]), a, b));
        return s;
    }
    let table: [(Vector, &[&str]); 8] = [
        ((b, a), &["ff", "vv", "rf", "rv"]),
        ((-b, -a), &["bb", "vv", "lb", "lv"]),
        ((a, -b), &["rr", "ss", "br", "bs"]),
        ((-a, b), &["ll", "ss", "fl", "fs"]),
        ((a, b), &["rr", "ss", "fr", "fs"]),
        ((-a, -b), &["ll", "ss", "bl", "bs"]),
        ((b, -a), &["bb", "vv", "rb", "rv"]),
        ((-b, a), &["ff", "vv", "lf", "lv"]),
    ];
    table
        .iter()
        .filter(|(_, names)| names.contains(&pair))
        .map(|(v, _)| *v)
        .collect()
}

/// Every vector of atom `(a, b)`.
fn all(a: i32, b: i32) -> BTreeSet<Vector> {
    let mut s = BTreeSet::new();
    for (x, y) in [(a, b), (b, a)] {
        for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            s.insert((x * sx, y * sy));
        }
    }
    s
}

/// The vectors direction-modifier pairs select on atom `(a, b)` (none: all of them).
pub fn atom_vectors(a: i32, b: i32, pairs: &[String]) -> BTreeSet<Vector> {
    if pairs.is_empty() {
        return all(a, b);
    }
    pairs.iter().flat_map(|p| selects(p, a, b)).collect()
}

const PAIRS: [&str; 18] = [
    "ff", "bb", "rr", "ll", "vv", "ss", "fr", "fl", "br", "bl", "rf", "lf", "rb", "lb", "fs", "bs",
    "rv", "lv",
];

/// The fewest modifier pairs whose selections on atom `(a, b)` make exactly `want`
/// (empty: the whole atom), or `None`.
fn cover(a: i32, b: i32, want: &BTreeSet<Vector>) -> Option<Vec<&'static str>> {
    if *want == all(a, b) {
        return Some(Vec::new());
    }
    let useful: Vec<(&str, BTreeSet<Vector>)> = PAIRS
        .iter()
        .map(|p| (*p, selects(p, a, b)))
        .filter(|(_, s)| !s.is_empty() && s.is_subset(want))
        .collect();
    // Breadth-first over combinations of up to four pairs (18 candidates at most).
    let n = useful.len();
    for k in 1..=4.min(n) {
        let mut idx: Vec<usize> = (0..k).collect();
        loop {
            let mut u = BTreeSet::new();
            for &i in &idx {
                u.extend(useful[i].1.iter().copied());
            }
            if u == *want {
                return Some(idx.iter().map(|&i| useful[i].0).collect());
            }
            // Next combination.
            let mut i = k;
            while i > 0 && idx[i - 1] == n - k + i - 1 {
                i -= 1;
            }
            if i == 0 {
                break;
            }
            idx[i - 1] += 1;
            for j in i..k {
                idx[j] = idx[j - 1] + 1;
            }
        }
    }
    None
}

/// Writes pairs so that Fairy-Stockfish reads them back as the same pairs.
fn pairs_text(pairs: &[&str]) -> String {
    let mut s = String::new();
    for (i, p) in pairs.iter().enumerate() {
        let b = p.as_bytes();
        if b[0] == b[1] && i + 1 == pairs.len() {
            s.push(b[0] as char);
        } else {
            s.push_str(p);
        }
    }
    s
}

/// Fairy-Stockfish's lame path of a vector: the squares that must be empty.
pub fn lame_path(v: Vector) -> Vec<Vector> {
    let (mut x, mut y) = (0, 0);
    let mut out = Vec::new();
    while (x, y) != v {
        let diff = (v.0 - x).abs() - (v.1 - y).abs();
        let (sx, sy) = (v.0.signum(), v.1.signum());
        match diff.cmp(&0) {
            std::cmp::Ordering::Greater => x += sx,
            std::cmp::Ordering::Less => y += sy,
            std::cmp::Ordering::Equal => {
                x += sx;
                y += sy;
            }
        }
        if (x, y) != v {
            out.push((x, y));
        }
    }
    out
}

/// Atoms that differ only in their vector's direction: base, travel, initial, modality, vectors.
type Group = ((i32, i32), Travel, bool, Modality, BTreeSet<Vector>);

/// Betza text for a set of atoms, or the first atom that has none.
pub fn write(atoms: &BTreeSet<Atom>) -> Result<String, Atom> {
    // Group by everything but the vector's direction: same base, travel, modality, initial.
    let mut groups: Vec<Group> = Vec::new();
    for a in atoms {
        let key = (base(a.v), a.travel, a.initial, a.modality);
        match groups.iter_mut().find(|g| (g.0, g.1, g.2, g.3) == key) {
            Some(g) => {
                g.4.insert(a.v);
            }
            None => groups.push((key.0, key.1, key.2, key.3, BTreeSet::from([a.v]))),
        }
    }
    // En passant captures include the plain captures along the same vectors.
    let eps: Vec<_> = groups
        .iter()
        .filter(|g| g.3 == Modality::CaptureEp)
        .map(|g| (g.0, g.1, g.2, g.4.clone()))
        .collect();
    groups.retain(|g| g.3 != Modality::Capture || !eps.contains(&(g.0, g.1, g.2, g.4.clone())));
    // Merge move + capture groups with equal vectors into one unqualified group.
    let mut out = String::new();
    let mut done = vec![false; groups.len()];
    for i in 0..groups.len() {
        if done[i] {
            continue;
        }
        let (ab, travel, initial, modality, ref vs) = groups[i];
        let mut prefix = match modality {
            Modality::Move => "m",
            Modality::Capture => "c",
            Modality::CaptureEp => "ce",
        };
        if modality == Modality::Move
            && let Some(j) = (i + 1..groups.len()).find(|&j| {
                !done[j]
                    && groups[j].0 == ab
                    && groups[j].1 == travel
                    && groups[j].2 == initial
                    && groups[j].3 == Modality::Capture
                    && groups[j].4 == *vs
            })
        {
            done[j] = true;
            prefix = "";
        }
        done[i] = true;
        let atom = |v: Vector| Atom {
            travel,
            initial,
            modality,
            v,
        };
        let first = *vs.iter().next().expect("a group has a vector");
        let Some(l) = letter(ab.0, ab.1) else {
            return Err(atom(first));
        };
        let Some(pairs) = cover(ab.0, ab.1, vs) else {
            return Err(atom(first));
        };
        if initial {
            out.push('i');
        }
        out.push_str(prefix);
        match travel {
            Travel::Lame => out.push('n'),
            Travel::Hop => out.push('p'),
            _ => {}
        }
        out.push_str(&pairs_text(&pairs));
        let rider = match ab {
            (1, 0) => Some("R"),
            (1, 1) => Some("B"),
            (2, 1) => Some("NN"),
            _ => None,
        };
        let slider = ab == (1, 0) || ab == (1, 1);
        match (travel, rider) {
            (Travel::Leap | Travel::Lame, _) => out.push(l),
            (Travel::Ride(0), Some(r)) => out.push_str(r),
            (Travel::Ride(n), Some(_)) if slider => {
                out.push(l);
                out.push_str(&n.to_string());
            }
            (Travel::Hop, Some(r)) if slider => out.push_str(r),
            _ => return Err(atom(first)),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(v: &[Vector]) -> BTreeSet<Vector> {
        v.iter().copied().collect()
    }

    #[test]
    fn pairs_select_fairy_stockfish_vectors() {
        // Shogi knight: `fN` is the two narrow forward jumps.
        assert_eq!(selects("ff", 2, 1), set(&[(1, 2), (-1, 2)]));
        // `fs` on a wazir is forward plus both sides (the soldier's `fsW`).
        assert_eq!(selects("fs", 1, 0), set(&[(0, 1), (1, 0), (-1, 0)]));
        assert_eq!(selects("fr", 1, 1), set(&[(1, 1)]));
        assert_eq!(
            cover(1, 0, &set(&[(0, 1)])).map(|p| pairs_text(&p)),
            Some("f".into())
        );
        assert_eq!(
            cover(1, 1, &set(&[(1, 1), (-1, 1)])).map(|p| pairs_text(&p)),
            Some("f".into())
        );
        assert_eq!(cover(2, 1, &all(2, 1)), Some(vec![]));
    }

    #[test]
    fn lame_paths_are_fairy_stockfish_ones() {
        assert_eq!(lame_path((1, 2)), [(0, 1)]);
        assert_eq!(lame_path((2, 2)), [(1, 1)]);
        assert_eq!(lame_path((2, 3)), [(0, 1), (1, 2)]);
        assert_eq!(lame_path((0, 2)), [(0, 1)]);
    }

    #[test]
    fn a_pawn_and_a_gold_are_written() {
        let a = |travel, initial, modality, v| Atom {
            travel,
            initial,
            modality,
            v,
        };
        let pawn: BTreeSet<Atom> = [
            a(Travel::Leap, false, Modality::Move, (0, 1)),
            a(Travel::Leap, false, Modality::CaptureEp, (1, 1)),
            a(Travel::Leap, false, Modality::CaptureEp, (-1, 1)),
            a(Travel::Lame, true, Modality::Move, (0, 2)),
        ]
        .into();
        assert_eq!(write(&pawn).unwrap(), "mfWcefFimnfD");
        let mut gold = BTreeSet::new();
        for v in [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1)] {
            gold.insert(a(Travel::Leap, false, Modality::Move, v));
            gold.insert(a(Travel::Leap, false, Modality::Capture, v));
        }
        assert_eq!(write(&gold).unwrap(), "WfF");
    }
}
