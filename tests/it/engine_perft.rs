//! perft's shortcuts against plain legal moves: the last ply is counted without listing the moves when nothing but `move-priorities` filters them (and, with royal pieces, without building the moves the legality filter passes), and must count exactly what `legal_moves` lists; pure loops reused within a generation count as before.

use crate::common;
use zogkit::engine::{self, Control, Rules, State};

/// Perft that lists every legal move and plays it, down to depth 0 (no shortcut).
fn listed(rules: &Rules, st: &mut State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = engine::legal_moves(rules, st).moves;
    let mut n = 0;
    for m in &moves {
        engine::play(rules, st, m);
        n += listed(rules, st, depth - 1);
        st.unmake();
    }
    n
}

/// Games without royal pieces, priorities or maximal captures (the shortcut's case), with a
/// setup phase (Seega), custodian captures (Hasami Shogi) and long moves (Gate).
#[test]
fn the_counted_last_ply_equals_the_listed_moves() {
    counted_equals_listed(&[
        ("dagaz/breakthrough/breakthrough.zrf", 11_132),
        ("dagaz/breakthrough/gate.zrf", 7_096),
        ("dagaz/custodian/hasami-shogi.zrf", 7_974),
        ("dagaz/custodian/seega.zrf", 6_840),
    ]);
}

/// A game with `move-priorities` (jumps before steps) and no royal pieces: the last ply counts
/// the moves per move type and keeps the highest listed type that has one, as `legal_moves`
/// keeps; English draughts' published perft(3) has forced jumps at the third ply.
#[test]
fn the_counted_last_ply_with_priorities_equals_the_listed_moves() {
    counted_equals_listed(&[("dagaz/checkers/english-checkers.zrf", 302)]);
}

/// Games with royal pieces: the last ply counts, as they are generated, the moves the legality
/// filter passes without making them, and must count what `legal_moves` lists.
#[test]
fn the_counted_last_ply_with_royal_pieces_equals_the_listed_moves() {
    counted_equals_listed(&[
        ("dagaz/chess/chess.zrf", 8_902),
        ("dagaz/chess/shatranj.zrf", 4_176),
        ("dagaz/shogi-family/mini-shogi.zrf", 2_881),
    ]);
}

/// perft(3) of each shared file, counted at the last ply, equals the moves listed there and
/// the expected count.
fn counted_equals_listed(files: &[(&str, usize)]) {
    let Some(base) = common::shared_zrf() else {
        return;
    };
    for &(file, want) in files {
        let bytes = std::fs::read(base.join(file)).unwrap();
        let doc = common::read_doc(zogkit::format::Format::Zrf, file, &bytes);
        let rules = Rules::compile(&doc, 0).unwrap_or_else(|e| panic!("{file}: {e}"));
        let mut st = State::start(&rules);
        let counted = engine::perft(&rules, &mut st, 3, &Control::default()).unwrap();
        assert_eq!(counted, listed(&rules, &mut st, 3), "{file}");
        assert_eq!(counted, want as u64, "{file}");
    }
}

/// A pure loop (a walk that only tests and sets flags) runs once per generation and entry; the
/// runs that reuse it go on from their own mark. Each Man walks rank 1 east of a1 from a1 and
/// steps north only if it met an enemy there, then comes `back` to its own square: with the
/// first Man's mark reused, the others would move from a2.
#[test]
fn a_pure_loop_is_run_once_and_every_piece_goes_on_from_its_own_square() {
    let game = |setup: &str| {
        format!(
            r#"(game (title "T") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10)
    (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
    (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))))
  (piece (name Man) (moves
    ((set-flag met false) mark a1
     (while (on-board? e) e (if enemy? (set-flag met true)))
     back (verify (flag? met)) n (verify empty?) add)))
  (board-setup {setup}))
"#
        )
    };
    let moves = |setup: &str| {
        let doc = common::read_doc(zogkit::format::Format::Zrf, "t.zrf", game(setup).as_bytes());
        let rules = Rules::compile(&doc, 0).unwrap();
        let mut st = State::start(&rules);
        let list = engine::legal_moves(&rules, &mut st).moves;
        let mut v: Vec<String> = list
            .iter()
            .map(|m| engine::notation(&rules, &st, m))
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        moves("(White (Man a2 b2 c2)) (Black (Man c1))"),
        ["Man a2 - a3", "Man b2 - b3", "Man c2 - c3"]
    );
    // An enemy on a1 is not on the walk (it starts by stepping east).
    assert!(moves("(White (Man a2 b2 c2)) (Black (Man a1))").is_empty());
}

/// KoShogi's pieces walk the whole board in several blocks (`check-drum`, `check-tp`): the
/// count is the one before pure loops were reused.
#[test]
fn koshogi_counts_as_before_pure_loops_were_reused() {
    let Some(base) = common::shared_zrf() else {
        return;
    };
    let file = "dagazproject/KoShogi/KoShogi.zrf";
    let bytes = std::fs::read(base.join(file)).unwrap();
    let doc = common::read_doc(zogkit::format::Format::Zrf, file, &bytes);
    let rules = Rules::compile(&doc, 0).unwrap();
    let mut st = State::start(&rules);
    let counted = engine::perft(&rules, &mut st, 2, &Control::default()).unwrap();
    assert_eq!(counted, 49_144);
    assert_eq!(listed(&rules, &mut st, 2), 49_144);
}
