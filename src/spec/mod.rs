//! The portable game spec: the one document every reader lowers into and every writer reads from.
//!
//! [`types`] holds the data model ([`Document`] → [`Game`] → [`Board`], [`Piece`], [`MoveBlock`]
//! …); `docs/spec.md` documents every field.
//! [`yaml`] is the YAML layer every spec document goes through: a deterministic emitter that quotes
//! every string, and a reader with located, limited errors.

pub mod check;
pub mod display;
pub mod geometry;
pub mod movement;
pub mod moves;
pub mod origin;
pub mod types;
pub mod yaml;

pub use origin::Origins;
pub use types::*;

/// The JSON Schema of [`Document`] (what `zogkit schema` prints).
pub fn json_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(Document)).unwrap_or_default()
}

impl Document {
    /// The parts that repeat an earlier part of the document (a variant's unchanged boards,
    /// pieces and move programs, pieces that move alike), checked with `==`: the YAML writer
    /// aliases them without writing them out first ([`yaml::Shared`]).
    pub fn repeated_parts(&self) -> yaml::Shared<'_> {
        let mut shared = yaml::Shared::new();
        let games = &self.games;
        share_repeats(&mut shared, games.iter().map(|g| &g.texts), |_| 0);
        share_repeats(&mut shared, games.iter().map(|g| &g.boards), Vec::len);
        share_repeats(&mut shared, games.iter().map(|g| &g.pieces), Vec::len);
        share_repeats(&mut shared, games.iter().map(|g| &g.setup), Vec::len);
        share_repeats(&mut shared, games.iter().map(|g| &g.goals), Vec::len);
        let boards = || games.iter().flat_map(|g| &g.boards);
        share_repeats(&mut shared, boards().map(|b| &b.positions), Vec::len);
        share_repeats(&mut shared, boards().map(|b| &b.zones), Vec::len);
        let pieces = || games.iter().flat_map(|g| &g.pieces);
        share_repeats(&mut shared, pieces().map(|p| &p.moves), Vec::len);
        share_repeats(&mut shared, pieces().map(|p| &p.drops), Vec::len);
        share_repeats(&mut shared, pieces().map(|p| &p.texts), |_| 0);
        shared
    }

    /// The games with every procedure `call` replaced by the procedure's instructions (calls
    /// nested deeper than 256, or past [`moves::MAX_INLINED`] instructions for the whole document,
    /// are kept): what a program means, whatever its factoring.
    pub fn games_inlined(&self) -> Vec<Game> {
        let mut inl = moves::Inliner::new(self.procedures.len());
        (0..self.games.len())
            .map(|gi| self.game_inlined_with(gi, &mut inl))
            .collect()
    }

    /// Game `gi` with every call in its move programs inlined (as [`Document::games_inlined`],
    /// without copying the other games).
    pub fn game_inlined(&self, gi: usize) -> Game {
        self.game_inlined_with(gi, &mut moves::Inliner::new(self.procedures.len()))
    }

    fn game_inlined_with(&self, gi: usize, inl: &mut moves::Inliner) -> Game {
        let mut g = self.games[gi].clone();
        for p in &mut g.pieces {
            for b in p.moves.iter_mut().chain(p.drops.iter_mut()) {
                b.program = moves::inline(&b.program, &self.procedures, inl);
            }
        }
        g
    }
}

/// Shares each of `items` (in document order) with the first earlier equal one. Compares with
/// at most 64 distinct earlier values of the same `size`, so hostile documents
/// stay linear; a repeat missed that way is still anchored from its text.
fn share_repeats<'a, T: PartialEq + 'a>(
    shared: &mut yaml::Shared<'a>,
    items: impl Iterator<Item = &'a T>,
    size: impl Fn(&T) -> usize,
) {
    const MAX_DISTINCT: usize = 64;
    let mut distinct = rustc_hash::FxHashMap::<usize, Vec<&'a T>>::default(); // lookup only
    for v in items {
        let same_size = distinct.entry(size(v)).or_default();
        if !same_size.iter().any(|d| shared.share(v, *d)) && same_size.len() < MAX_DISTINCT {
            same_size.push(v);
        }
    }
}
