//! zogkit's reading of Ludii's own library checked against the Ludii oracle on a fixed sample (every fifth game of each category): measured rates must not fall below the floors below (a ratchet: raise them when the reader improves).
//!
//! Needs `java` (17) and `../shared/tools/ludii`; skipped with a note when they are missing,
//! except under CI. The oracle runs once, in batch mode, for the files not cached in
//! `target/ludii-facts`. `cargo xtask ludii` does the same over the whole library.

use crate::common::ludii_facts::*;

/// Floors on the sample (218 games): counts that must be reached.
const FLOOR_READ: usize = 218;
const FLOOR_SITES: usize = 214;
const FLOOR_ADJACENCY: usize = 213;
const FLOOR_PLAYERS: usize = 218;
const FLOOR_KINDS: usize = 217;
const FLOOR_PLACEMENTS: usize = 212;

#[test]
#[ignore = "oracle check (pyffish, PyYAML, Ludii, Chromium or the whole corpus): .ci/run runs it; locally `cargo test -- --ignored`"]
fn library_sample_matches_the_oracle() {
    let Some((setup, files, facts, boards)) = oracle_sample_boards() else {
        return;
    };
    let opts = read_options(&setup).expect("defines read from the jar");
    let results: Vec<(String, Outcome)> = files
        .iter()
        .map(|f| (f.clone(), compare(&setup, &opts, f, &facts[f], &boards[f])))
        .collect();
    let t = tally(&results);
    println!("{}", table(&t));
    let all = t.last().unwrap().1;
    assert!(
        all.oracle_ok * 10 >= all.files * 9,
        "the oracle failed on too many files: {all:?}"
    );
    for (what, got, floor) in [
        ("read without error", all.read, FLOOR_READ),
        ("sites equal", all.sites, FLOOR_SITES),
        ("sites and adjacency equal", all.adjacency, FLOOR_ADJACENCY),
        ("players equal", all.players, FLOOR_PLAYERS),
        ("piece kinds equal", all.kinds, FLOOR_KINDS),
        ("placements equal", all.placements, FLOOR_PLACEMENTS),
    ] {
        assert!(
            got >= floor,
            "{what}: {got} of {} games, below the floor {floor}",
            all.files
        );
    }
}
