//! A placement phase played out for Fairy-Stockfish, which alternates turns from a full
//! board: pieces held off the board that each player drops onto its own zone in its first
//! turns (janggi's horses and elephants) are put on the zone's squares, and the section starts
//! after the phase. Which placement the source's players would choose is theirs: the writer
//! puts equal pieces on mirror squares, outermost first, in the order the setup lists them,
//! and says so.

use super::board::Geometry;
use crate::spec::moves::{self, is_add, is_empty_test};
use crate::spec::{Cond, Document, Game, Instr};
use std::collections::{BTreeMap, BTreeSet};

/// One piece placed by the played-out phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// Its owner.
    pub player: String,
    /// The piece type.
    pub piece: String,
    /// The position it stands on.
    pub position: String,
}

/// The zone a piece's drops go to, when every drop block is `(verify (in-zone? z))
/// (verify empty?) add` with the same `z` and the same move type.
fn drop_zone(doc: &Document, game: &Game, piece: &str) -> Option<(String, Option<String>)> {
    let p = game.pieces.iter().find(|p| p.name == piece)?;
    let mut inl = moves::Inliner::new(doc.procedures.len());
    let mut out: Option<(String, Option<String>)> = None;
    for b in &p.drops {
        let prog = moves::inline(&b.program, &doc.procedures, &mut inl);
        let [
            Instr::Verify(Cond::InZone { zone, at: None }),
            Instr::Verify(e),
            a,
        ] = prog.as_slice()
        else {
            return None;
        };
        if !is_empty_test(e) || !is_add(a) {
            return None;
        }
        let this = (zone.clone(), b.move_type.clone());
        if out.as_ref().is_some_and(|o| *o != this) {
            return None;
        }
        out = Some(this);
    }
    out
}

/// The pieces the placement phase puts on the board, or why the game has none that can be
/// played out: the turns before the repeating part are each player's drops of all its held
/// pieces (drops first by the move priorities), onto a zone of exactly that many empty squares,
/// and the repeating part is the two players alternating, the first player first.
pub fn play_out(doc: &Document, game: &Game, geo: &Geometry) -> Result<Vec<Placed>, String> {
    let t = &game.turn_order;
    let k = t.repeat_from.ok_or("its turn order has no opening part")?;
    let plain = |i: usize, p: &str| {
        t.turns
            .get(i)
            .is_some_and(|x| x.player == p && x.move_type.is_none() && x.with_player.is_none())
    };
    if t.turns.len() != k + 2 || !plain(k, &game.players[0]) || !plain(k + 1, &game.players[1]) {
        return Err("after its opening turns, the players do not simply alternate".into());
    }
    let mut held: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for s in &game.setup {
        for _ in 0..s.off.unwrap_or(0) {
            held.entry(s.player.as_str()).or_default().push(&s.piece);
        }
    }
    let occupied: BTreeSet<&str> = game
        .setup
        .iter()
        .flat_map(|s| s.positions.iter().map(String::as_str))
        .collect();
    let mut out = Vec::new();
    for pl in &game.players {
        let pieces = held.get(pl.as_str()).cloned().unwrap_or_default();
        let turns = (0..k).filter(|&i| plain(i, pl)).count();
        if turns != pieces.len() {
            return Err(format!(
                "{pl} has {} opening turn(s) and {} piece(s) to place",
                turns,
                pieces.len()
            ));
        }
        let kinds: BTreeSet<&str> = pieces.iter().copied().collect();
        let zones: BTreeSet<Option<(String, Option<String>)>> =
            kinds.iter().map(|p| drop_zone(doc, game, p)).collect();
        let Some(Some((zone, mt))) = zones.iter().next().filter(|_| zones.len() == 1) else {
            return Err(format!("{pl}'s held pieces do not all drop onto one zone"));
        };
        if !pieces.is_empty() && game.move_priorities.first() != mt.as_ref() {
            return Err("its drops are not the first of its move priorities".into());
        }
        let squares = zone_positions(game, geo, zone, pl);
        if squares.len() != pieces.len() || squares.iter().any(|s| occupied.contains(s.as_str())) {
            return Err(format!(
                "{pl}'s zone `{zone}` does not have exactly one empty square per held piece"
            ));
        }
        for (piece, position) in mirror_fill(&pieces, &squares, geo) {
            out.push(Placed {
                player: pl.clone(),
                piece: piece.to_string(),
                position,
            });
        }
    }
    Ok(out)
}

fn zone_positions(game: &Game, geo: &Geometry, zone: &str, player: &str) -> Vec<String> {
    let Some(b) = game.boards.first() else {
        return Vec::new();
    };
    b.zones
        .iter()
        .filter(|z| z.name == zone && z.players.iter().any(|p| p == player))
        .flat_map(|z| z.positions.iter())
        .filter(|p| geo.square.contains_key(*p))
        .cloned()
        .collect()
}

/// Pieces onto squares: squares paired with their mirror image across the board's middle
/// file, the pairs outermost first; each pair takes the next two pieces (left, right).
fn mirror_fill<'a>(
    pieces: &[&'a str],
    squares: &[String],
    geo: &Geometry,
) -> Vec<(&'a str, String)> {
    let at = |s: &String| geo.square[s];
    let mut left: Vec<&String> = squares.iter().collect();
    left.sort_by_key(|s| {
        let (f, r) = at(s);
        (std::cmp::Reverse((2 * f - (geo.files - 1)).abs()), r, f)
    });
    let mut order: Vec<String> = Vec::new();
    let mut taken = BTreeSet::new();
    for s in left {
        if taken.contains(s) {
            continue;
        }
        let (f, r) = at(s);
        let mirror = squares
            .iter()
            .find(|m| !taken.contains(*m) && *m != s && at(m) == (geo.files - 1 - f, r));
        taken.insert(s.clone());
        match mirror {
            Some(m) => {
                taken.insert(m.clone());
                let (a, b) = if f <= at(m).0 { (s, m) } else { (m, s) };
                order.push(a.clone());
                order.push(b.clone());
            }
            None => order.push(s.clone()),
        }
    }
    pieces.iter().copied().zip(order).collect()
}
