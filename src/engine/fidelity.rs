//! Whether two compiled games play alike: legal moves compared by their effect on random playouts.
//!
//! A port is faithful when, from the same position, both games offer the same moves. Positions
//! and piece types are matched by name (ignoring letter case, as Ludii labels `A1` what ZRF
//! calls `a1`) and players by their order, so games read from different formats compare. A move
//! is compared by what it does, not by how a format writes it: the squares and hands it
//! changes, whether the turn continues, and the game result it reaches.

use super::generate::Overrun;
use super::play::{legal_moves, outcome, play};
use super::rules::Rules;
use super::state::{Move, State};
use std::collections::BTreeSet;

/// How a comparison went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fidelity {
    /// Distinct positions whose legal moves were compared and found equal (fewer than asked
    /// when the game has fewer: playouts stop after `8 × positions` plies in all).
    pub positions: usize,
    /// The first position where the games differ.
    pub difference: Option<Difference>,
    /// The move block the step limit stopped (with `true` when it is the second game's), where
    /// the comparison stopped: a move list that may be incomplete proves nothing, so
    /// `positions` counts only the positions compared before it.
    pub overrun: Option<(bool, Overrun)>,
}

/// Where two games part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The moves played from the start to reach the position, in the first game's notation.
    pub line: Vec<String>,
    /// What differs, in words.
    pub what: String,
    /// Moves only the first game has (its notation) and only the second has (its own).
    pub only_first: Vec<String>,
    /// See `only_first`.
    pub only_second: Vec<String>,
}

/// Most plies in one playout before it starts again from the start position.
const MAX_PLIES: usize = 120;
/// Moves listed per side in a difference.
const SHOWN: usize = 8;

/// Compares `a` and `b` on up to `positions` distinct positions reached by seeded random
/// playouts from the start (the same `seed` gives the same positions). Stops at the first
/// difference, or at the first move block the step limit stops in either game.
pub fn compare(a: &Rules, b: &Rules, positions: usize, seed: u64) -> Fidelity {
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let (mut sa, mut sb) = (State::start(a), State::start(b));
    let mut line: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new(); // lookup only
    let mut visits = 0;
    if let Some(what) = start_difference(a, &sa, b, &sb) {
        return differ(0, line, what, Vec::new(), Vec::new());
    }
    while seen.len() < positions && visits < positions.saturating_mul(8) {
        visits += 1;
        let fresh = seen.insert(sa.key());
        let compared = seen.len() - usize::from(fresh);
        let (ma, mb) = (legal_moves(a, &mut sa), legal_moves(b, &mut sb));
        let overrun = (ma.overrun.map(|o| (false, o))).or(mb.overrun.map(|o| (true, o)));
        if overrun.is_some() {
            return Fidelity {
                positions: compared,
                difference: None,
                overrun,
            };
        }
        let ka = keyed(a, &sa, &ma.moves);
        let kb = keyed(b, &sb, &mb.moves);
        let (set_a, set_b): (BTreeSet<&str>, BTreeSet<&str>) = (
            ka.iter().map(|k| k.key.as_str()).collect(),
            kb.iter().map(|k| k.key.as_str()).collect(),
        );
        if set_a != set_b {
            let only = |k: &[Keyed], other: &BTreeSet<&str>| -> Vec<String> {
                let mut v: Vec<String> = k
                    .iter()
                    .filter(|k| !other.contains(k.key.as_str()))
                    .map(|k| k.shown.clone())
                    .collect();
                v.sort();
                v.dedup();
                v
            };
            let (mut oa, mut ob) = (only(&ka, &set_b), only(&kb, &set_a));
            if oa == ob {
                // Written alike but acting differently: show what each does.
                let effect = |k: &[Keyed], other: &BTreeSet<&str>| -> Vec<String> {
                    k.iter()
                        .filter(|k| !other.contains(k.key.as_str()))
                        .map(|k| format!("{} {{{}}}", k.shown, k.key))
                        .collect()
                };
                (oa, ob) = (effect(&ka, &set_b), effect(&kb, &set_a));
            }
            let what = format!(
                "{} legal moves against {} ({} only in the original, {} only in the port)",
                set_a.len(),
                set_b.len(),
                oa.len(),
                ob.len()
            );
            return differ(compared, line, what, oa, ob);
        }
        if ka.is_empty() || line.len() >= MAX_PLIES {
            (sa, sb) = (State::start(a), State::start(b));
            line.clear();
            continue;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let i = (rng % ka.len() as u64) as usize;
        let j = counterpart(&ka, i, &kb);
        line.push(ka[i].shown.clone());
        play(a, &mut sa, &ma.moves[i]);
        play(b, &mut sb, &mb.moves[j]);
    }
    Fidelity {
        positions: seen.len(),
        difference: None,
        overrun: None,
    }
}

fn differ(
    positions: usize,
    line: Vec<String>,
    what: String,
    mut only_first: Vec<String>,
    mut only_second: Vec<String>,
) -> Fidelity {
    only_first.truncate(SHOWN);
    only_second.truncate(SHOWN);
    Fidelity {
        positions,
        difference: Some(Difference {
            line,
            what,
            only_first,
            only_second,
        }),
        overrun: None,
    }
}

/// The contents of every square and hand, by name: what two start positions must share.
fn snapshot(r: &Rules, st: &State) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (pos, p) in st.board.iter().enumerate() {
        if let Some(p) = p {
            out.insert(format!(
                "{}={}",
                r.positions[pos].to_lowercase(),
                piece(r, p)
            ));
        }
    }
    for player in 0..r.players.len() as u32 {
        for kind in 0..r.kinds.len() as u32 {
            let n = st.in_hand(player, kind);
            if n > 0 {
                out.insert(format!("hand {player} {}={n}", kind_name(r, kind)));
            }
        }
    }
    out
}

fn start_difference(a: &Rules, sa: &State, b: &Rules, sb: &State) -> Option<String> {
    if a.players.len() != b.players.len() {
        return Some(format!(
            "{} players against {}",
            a.players.len(),
            b.players.len()
        ));
    }
    let (pa, pb) = (snapshot(a, sa), snapshot(b, sb));
    if pa == pb {
        return None;
    }
    let first = |x: &BTreeSet<String>, y: &BTreeSet<String>| {
        x.difference(y)
            .take(SHOWN)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ")
    };
    Some(format!(
        "the start positions differ: only in the original {{{}}}, only in the port {{{}}}",
        first(&pa, &pb),
        first(&pb, &pa)
    ))
}

fn kind_name(r: &Rules, kind: u32) -> String {
    r.kinds[kind as usize].name.to_lowercase()
}

fn piece(r: &Rules, p: &super::state::Piece) -> String {
    let mut s = format!("{}.{}", p.owner, kind_name(r, p.kind));
    for (i, name) in r.attributes.iter().enumerate() {
        if i < 32 && p.attrs & (1 << i) != 0 {
            s.push('+');
            s.push_str(&name.to_lowercase());
        }
    }
    s
}

/// The move of `kb` that plays `ka[i]`: one with the same effect key and the same hidden state
/// (see [`hidden`]), the same one among equals by order. Moves can share a key yet differ in
/// what follows (a partial move continued with another move type): taking the first with the
/// key would walk the two games into different positions although both offer the same moves.
fn counterpart(ka: &[Keyed], i: usize, kb: &[Keyed]) -> usize {
    let same = |k: &Keyed, full: bool| k.key == ka[i].key && (!full || k.hidden == ka[i].hidden);
    for full in [true, false] {
        let nth = ka[..i].iter().filter(|k| same(k, full)).count();
        let mut matches = (0..kb.len()).filter(|&j| same(&kb[j], full));
        if let Some(j) = matches.clone().nth(nth).or_else(|| matches.next()) {
            return j;
        }
    }
    0
}

/// A legal move as compared: its effect key (the squares and hands it changes, by name, who
/// moves next, whether the same piece continues, and the result it reaches), what it leaves
/// behind that the key does not show, and its notation.
struct Keyed {
    key: String,
    /// The move type a partial move continues with and the state registers the move sets, by
    /// name. It decides which of the moves sharing a key is played, not whether two games offer
    /// the same moves (formats name move types differently; what a continuation allows is
    /// compared at the next position).
    hidden: String,
    shown: String,
}

fn keyed(r: &Rules, st: &State, moves: &[Move]) -> Vec<Keyed> {
    moves
        .iter()
        .map(|m| {
            let shown = super::notation::notation(r, st, m);
            let mut after = st.clone();
            play(r, &mut after, m);
            let mut key: Vec<String> = Vec::new();
            for (pos, (x, y)) in st.board.iter().zip(&after.board).enumerate() {
                if x != y {
                    let name = r.positions[pos].to_lowercase();
                    key.push(match y {
                        Some(p) => format!("{name}={}", piece(r, p)),
                        None => format!("{name}=empty"),
                    });
                }
            }
            let nk = r.kinds.len().max(1);
            for (i, (x, y)) in st.hand.iter().zip(&after.hand).enumerate() {
                if x != y {
                    let kind = kind_name(r, (i % nk) as u32);
                    key.push(format!("hand {} {kind}={y}", i / nk));
                }
            }
            key.sort();
            key.push(format!("next {}", after.to_move(r)));
            if after.partial.is_some() {
                key.push("continues".into());
            }
            if let Some(o) = outcome(r, &after) {
                key.push(format!("{:?} {:?}", o.kind, o.players));
            }
            let mut hidden = match after.partial {
                Some((_, Some(t))) => r.move_types[t as usize].to_lowercase(),
                _ => String::new(),
            };
            let ns = r.state_keys.len().max(1);
            for (i, (x, y)) in st.regs.iter().zip(&after.regs).enumerate() {
                if x != y {
                    hidden.push_str(&format!(" {} {}={y}", i / ns, r.state_keys[i % ns]));
                }
            }
            Keyed {
                key: key.join(" "),
                hidden,
                shown,
            }
        })
        .collect()
}
