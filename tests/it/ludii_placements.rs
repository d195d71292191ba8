//! Placements of hand-written `.lud` and Ludii-English inputs, with the sites the Ludii oracle gives for the same forms (`ludii facts`): site sets by phase, corners, `forEach … if:`, `expand` with computed steps, owner-less pieces, regions owned by a player, pieces in hand, and English texts of matches.

use zogkit::diag::{FileId, Severity};
use zogkit::ludii::{read_english, read_lud};
use zogkit::spec::Document;

/// Reads a `.lud` text that must read without errors.
fn lud(text: &str) -> Document {
    let (doc, diags) = read_lud("t.lud", text, FileId(0));
    let errors: Vec<_> = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    doc.expect("a document")
}

/// A game on `board` whose start rule is `start`, with pieces Disc and Pawn for each player.
fn game(board: &str, start: &str) -> String {
    format!(
        "(game \"T\" (players 2) (equipment {{ {board} (piece \"Disc\" Each) (piece \"Pawn\" (move Step Forward (to if:(is Empty (to))))) (regions \"Home\" P1 (sites {{\"A1\" \"B1\"}})) (regions \"Home\" P2 (sites {{\"C3\"}})) (hand Each) }})\n (rules (start {{ {start} }}) (play (forEach Piece)) (end (if (no Moves Next) (result Mover Win)))))"
    )
}

/// Site indexes of the placements of `piece` for `player` (board order), one per piece.
fn sites(doc: &Document, piece: &str, player: &str) -> Vec<usize> {
    let g = &doc.games[0];
    let b = &g.boards[0];
    let mut v: Vec<usize> = g
        .setup
        .iter()
        .filter(|p| p.piece == piece && p.player == player)
        .flat_map(|p| p.positions.iter())
        .map(|s| b.positions.iter().position(|x| &x.name == s).unwrap())
        .collect();
    v.sort_unstable();
    v
}

/// `(sites Phase k)`, `(sites Corners)`, `(sites Outer)`: the sites Ludii gives on these boards.
#[test]
fn phases_corners_and_outer_sites_are_ludiis() {
    let d = lud(&game(
        "(board (rectangle 3 4))",
        "(place \"Disc1\" (sites Phase 0)) (place \"Pawn2\" (sites Corners))",
    ));
    assert_eq!(sites(&d, "Disc", "P1"), [0, 2, 5, 7, 8, 10]);
    // Corners 0 and 8 are taken: Ludii places no second piece there.
    assert_eq!(sites(&d, "Pawn", "P2"), [3, 11]);
    // A site listed twice holds one piece.
    let d = lud(&game(
        "(board (square 3))",
        "(place \"Disc1\" {\"A1\" \"B2\" \"A1\"})",
    ));
    assert_eq!(sites(&d, "Disc", "P1"), [0, 4]);
    let d = lud(&game(
        "(board (square 5))",
        "(place \"Disc1\" (difference (sites Outer) (sites Phase 1)))",
    ));
    assert_eq!(sites(&d, "Disc", "P1"), [0, 2, 4, 10, 14, 20, 22, 24]);
}

/// `forEach` with a condition on the site, `expand` with computed steps and a direction.
#[test]
fn computed_site_sets_are_read() {
    let d = lud(&game(
        "(board (square 4))",
        "(place \"Disc1\" (forEach (sites Board) if:(and (is Even (row of:(site))) (< (site) (centrePoint))))) \
         (place \"Disc2\" (expand (sites Top) steps:(- 3 2))) \
         (place \"Pawn1\" (expand origin:(coord \"A2\") steps:2 E))",
    ));
    // Ludii's centre of a 4x4 board is its four middle cells, the first being 5 (B2).
    assert_eq!(sites(&d, "Disc", "P1"), [0, 1, 2, 3]);
    assert_eq!(sites(&d, "Disc", "P2"), [8, 9, 10, 11, 12, 13, 14, 15]);
    assert_eq!(sites(&d, "Pawn", "P1"), [4, 5, 6]);
}

/// `(piece "Pawn" moves)` belongs to every player; `(sites P1)` is every region P1 owns;
/// `(place "Disc2" (handSite P2) count:3)` is three pieces in P2's hand.
#[test]
fn owners_regions_and_hands() {
    let d = lud(&game(
        "(board (square 3))",
        "(place \"Pawn1\" (sites P1)) (place \"Pawn2\" (sites P2)) (place \"Disc2\" (handSite P2) count:3)",
    ));
    assert_eq!(sites(&d, "Pawn", "P1"), [0, 1]);
    assert_eq!(sites(&d, "Pawn", "P2"), [8]);
    let hand: Vec<_> = d.games[0]
        .setup
        .iter()
        .filter(|p| p.piece == "Disc")
        .map(|p| (p.player.as_str(), p.positions.len(), p.off))
        .collect();
    assert_eq!(hand, [("P2", 0, Some(3))]);
}

/// Ludii writes no rules for a match; its text reads with a located warning, not an error.
#[test]
fn english_of_a_match_reads_with_a_warning() {
    let text =
        "Game Rules:\nSorry! Matches are not yet supported.\nBoard Setup:\nGame Endings:\nMoves:\n";
    let (doc, diags) = read_english("Tourney.txt", text, FileId(0));
    assert!(
        diags.iter().all(|d| d.severity != Severity::Error),
        "{diags:?}"
    );
    let w = diags
        .iter()
        .find(|d| d.code == "ludii::unresolved-phrase")
        .expect("a warning");
    assert!(w.span.is_some(), "located");
    let doc = doc.expect("a document");
    assert_eq!(doc.games[0].title, "Tourney");
    assert!(doc.games[0].boards.is_empty());
}

/// English counts of steps as Ludii prints computed ones, read left to right, and the
/// board's number of rows.
#[test]
fn english_steps_are_computed() {
    let text = "Game Rules:\nThe game \"E\" is played by two players on a 6x6 rectangle board with square tiling.\nAll players play with Stones.\nSetup:\nPlace a Stone for player one at the bottom sites of the board expanded by 8 divided by 2 minus 3 steps.\nPlace a Stone for player two at the top sites of the board expanded by the number of Cell rows divided by 2 minus 2 steps.\n";
    let (doc, diags) = read_english("e.txt", text, FileId(0));
    assert!(
        diags.iter().all(|d| d.severity != Severity::Error),
        "{diags:?}"
    );
    let doc = doc.expect("a document");
    assert_eq!(sites(&doc, "Stone", "P1"), (0..12).collect::<Vec<_>>());
    assert_eq!(sites(&doc, "Stone", "P2"), (24..36).collect::<Vec<_>>());
}
