//! ZoG's rules where real files disagreed with the engine (issue 33): `total-piece-count` is
//! exact, `(P Q)` turns, `relative-config` and `(not P)` occupants, set-ups on positions the
//! board lacks, steps along another entry's direction, and the Tai Shogi Emperor's walk. Each
//! has a crafted game and, where one exists, the shared-corpus file that showed it.

use crate::common;
use std::path::{Path, PathBuf};
use zogkit::engine::{self, Control, Rules, State};
use zogkit::format::Format;
use zogkit::spec::{Document, GoalKind};

/// The game `title` (or the first) of a ZRF text.
fn rules_of(zrf: &str, title: Option<&str>) -> Rules {
    let doc = common::read_doc(Format::Zrf, "t.zrf", zrf.as_bytes());
    compile(&doc, title)
}

fn compile(doc: &Document, title: Option<&str>) -> Rules {
    let index = match title {
        Some(t) => (0..doc.games.len())
            .find(|&i| doc.games[i].title == t)
            .unwrap_or_else(|| panic!("no entry {t:?}")),
        None => 0,
    };
    Rules::compile(doc, index).unwrap_or_else(|e| panic!("{title:?}: {e}"))
}

fn perft(rules: &Rules, depth: u32) -> u64 {
    let mut st = State::start(rules);
    engine::perft(rules, &mut st, depth, &Control::default()).unwrap()
}

/// Plays the legal move written `text` (ZoG notation).
fn play(rules: &Rules, st: &mut State, text: &str) {
    let moves = engine::legal_moves(rules, st).moves;
    let m = moves
        .iter()
        .find(|m| engine::notation(rules, st, m) == text)
        .unwrap_or_else(|| {
            let all: Vec<String> = moves
                .iter()
                .map(|m| engine::notation(rules, st, m))
                .collect();
            panic!("no legal move `{text}` among {all:?}")
        })
        .clone();
    engine::play(rules, st, &m);
}

/// The shared corpus's ZRF folder, or `None` (with a note) when `../shared` is absent.
fn shared() -> Option<PathBuf> {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/zrf");
    if base.exists() {
        return Some(base);
    }
    assert!(std::env::var_os("CI").is_none(), "CI needs ../shared");
    eprintln!("note: ../shared is absent; skipped");
    None
}

fn shared_rules(base: &Path, file: &str, title: Option<&str>) -> Rules {
    let bytes = std::fs::read(base.join(file)).unwrap();
    let doc = common::read_doc(Format::Zrf, file, &bytes);
    compile(&doc, title)
}

/// A 3×3 board with men moving one step north or east onto an empty square.
fn board_game(goals: &str, setup: &str) -> String {
    format!(
        r#"(game (title "T") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10)
    (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
    (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0)))
    (zone (name top) (players White Black) (positions a3 b3 c3)))
  (piece (name Man) (moves (n (verify empty?) add) (e (verify empty?) add)
                           (n (verify enemy?) add)))
  (piece (name King) (moves (n (verify empty?) add)))
  (board-setup {setup})
  {goals})
"#
    )
}

/// `(total-piece-count N P)` holds when exactly N pieces of type P stand on the board (the ZRF
/// reference: "the total number of pieces … is N"); read as "at least N", a loss at 0 was
/// decided before the first move.
#[test]
fn total_piece_count_is_an_exact_count() {
    let zrf = board_game(
        "(loss-condition (Black) (total-piece-count 0 King))",
        "(White (Man a1)) (Black (King a2))",
    );
    let rules = rules_of(&zrf, None);
    assert_eq!(perft(&rules, 1), 2, "White has two moves at the start");
    let mut st = State::start(&rules);
    play(&rules, &mut st, "Man a1 x a2");
    let o = engine::outcome(&rules, &st).expect("no King is left: Black has lost");
    assert_eq!((o.kind, o.players), (GoalKind::Loss, vec![1]));
}

/// Stavropol Checkers, in its own file and as CheckersCollection's entry: every piece belongs
/// to `Neurtal`, the turns are `(Red Neurtal) (Black Neurtal)`, and the loss is "no Checker and
/// no King of your colour left" (`total-piece-count 0 …`). Before, neither played a move.
#[test]
fn stavropol_checkers_plays_in_both_files() {
    let Some(base) = shared() else { return };
    for (file, title) in [
        ("dagazproject/StavropolCheckers/StavropolCheckers.zrf", None),
        (
            "dagazproject/CheckersCollection/CheckersCollection.zrf",
            Some("Stavropol Checkers"),
        ),
    ] {
        let rules = shared_rules(&base, file, title);
        let counts: Vec<u64> = (1..=3).map(|d| perft(&rules, d)).collect();
        assert_eq!(counts, [14, 210, 2528], "{file}");
    }
}

/// `(P Q)` with Q a player and no move type: P moves Q's pieces.
#[test]
fn a_turn_naming_two_players_moves_the_second_players_pieces() {
    let zrf = r#"(game (title "T") (players Red Black Neutral)
  (turn-order (Red Neutral) (Black Neutral))
  (board (grid (start-rectangle 0 0 10 10)
    (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
    (directions (n 0 -1) (e 1 0))))
  (piece (name Man) (moves (n (verify empty?) add)))
  (board-setup (Neutral (Man a1 c1))))
"#;
    let rules = rules_of(zrf, None);
    assert_eq!(perft(&rules, 2), 4, "both players move both neutral men");
}

/// Who has won at the start position of a 3×3 game with these goals and set-up.
fn winner_at_start(goals: &str, setup: &str) -> Option<(GoalKind, Vec<u32>)> {
    let rules = rules_of(&board_game(goals, setup), None);
    engine::outcome(&rules, &State::start(&rules)).map(|o| (o.kind, o.players))
}

/// `relative-config`: the player's pieces in a pattern anywhere on the board (Shisima's three
/// in a row); `(not King)` is a piece of the player's of another type (*decided*, after the
/// ZRF reference's example of a King flanked by `(not King)`).
#[test]
fn relative_config_finds_the_pattern_anywhere() {
    let row = "(win-condition (White) (relative-config Man e Man e (not King)))";
    let won = Some((GoalKind::Win, vec![0]));
    assert_eq!(winner_at_start(row, "(White (Man b2 c2 a3))"), None);
    assert_eq!(winner_at_start(row, "(White (Man a2 b2 c2))"), won);
    assert_eq!(winner_at_start(row, "(White (Man a2 b2) (King c2))"), None);
    assert_eq!(
        winner_at_start(row, "(White (Man a2 b2)) (Black (Man c2))"),
        None
    );
    assert_eq!(
        winner_at_start(row, "(White (Man a2 b2))"),
        None,
        "c2 is empty"
    );
    let column = "(win-condition (White) (relative-config Man n n (any-owner King)))";
    assert_eq!(
        winner_at_start(column, "(White (Man b1)) (Black (King b3))"),
        won
    );
    assert_eq!(
        winner_at_start(column, "(White (Man b1)) (Black (King b2))"),
        None
    );
    let rules = rules_of(
        &board_game(row, "(White (Man a1 b1 c2)) (Black (Man a3))"),
        None,
    );
    let mut st = State::start(&rules);
    play(&rules, &mut st, "Man c2 - c3");
    assert!(engine::outcome(&rules, &st).is_none());
    let mut st = State::start(&rules);
    play(&rules, &mut st, "Man b1 - b2");
    assert!(engine::outcome(&rules, &st).is_none());
}

/// Shisima (both copies in the shared corpus) wins by `relative-config`; the engine refused it.
#[test]
fn shisima_plays() {
    let Some(base) = shared() else { return };
    for file in [
        "dagaz/arrange/shisima.zrf",
        "dagazproject/Shisima/shisima.zrf",
    ] {
        let rules = shared_rules(&base, file, None);
        let counts: Vec<u64> = (1..=3).map(|d| perft(&rules, d)).collect();
        assert_eq!(counts, [5, 14, 60], "{file}");
    }
}

/// `(absolute-config (not King) (zone))`: a piece of the player's that is not a King on some
/// position of the zone; "unknown piece `not`" before.
#[test]
fn absolute_config_with_not_asks_for_another_type() {
    let goal = "(win-condition (White) (absolute-config (not King) (top)))";
    let won = Some((GoalKind::Win, vec![0]));
    assert_eq!(winner_at_start(goal, "(White (King a3) (Man b2))"), None);
    assert_eq!(winner_at_start(goal, "(White (Man b3))"), won);
    assert_eq!(
        winner_at_start(goal, "(White (Man b2)) (Black (Man b3))"),
        None
    );
    let rules = rules_of(&board_game(goal, "(White (Man b2) (King a2))"), None);
    let mut st = State::start(&rules);
    play(&rules, &mut st, "King a2 - a3");
    assert!(
        engine::outcome(&rules, &st).is_none(),
        "a King does not count"
    );
    let mut st = State::start(&rules);
    play(&rules, &mut st, "Man b2 - b3");
    assert_eq!(
        engine::outcome(&rules, &st).map(|o| (o.kind, o.players)),
        won
    );
}

/// A set-up on a position the board lacks places nothing (the reader warns,
/// `zrf::unknown-position`); Kalah (`g1`, `g2`) and Ikusa Shogi (`y1` …) were refused.
#[test]
fn a_setup_on_a_missing_position_places_nothing() {
    let zrf = board_game("", "(White (Man a1 z9)) (Black (Man c3))");
    let rules = rules_of(&zrf, None);
    assert_eq!(perft(&rules, 1), 2);
    let Some(base) = shared() else { return };
    let kalah = shared_rules(&base, "dagaz/mancala/kalah.zrf", None);
    assert_eq!((perft(&kalah, 1), perft(&kalah, 2)), (6, 36));
    let ikusa = shared_rules(&base, "dagaz/shogi-family/ikusa-shogi.zrf", None);
    assert_eq!((perft(&ikusa, 1), perft(&ikusa, 2)), (7, 49));
}

/// A variant whose board lacks a direction the inherited pieces step along (swap-chess.zrf's
/// Swap Knights keeps the Bishop's `nw` slides): the step fails, as any step off the board.
#[test]
fn a_step_along_another_boards_direction_fails() {
    let zrf = r#"(game (title "A") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10)
    (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
    (directions (n 0 -1) (ne 1 -1))))
  (piece (name Man) (moves (ne (verify empty?) add) (n (verify empty?) add)))
  (board-setup (White (Man a1)) (Black (Man c1))))
(variant (title "B")
  (board (grid (start-rectangle 0 0 10 10)
    (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
    (directions (n 0 -1)))))
"#;
    assert_eq!(perft(&rules_of(zrf, Some("A")), 1), 2);
    assert_eq!(
        perft(&rules_of(zrf, Some("B")), 1),
        1,
        "`ne` fails on B's board"
    );
    let Some(base) = shared() else { return };
    let swap = shared_rules(&base, "dagaz/chess/swap-chess.zrf", Some("Swap Knights"));
    assert_eq!((perft(&swap, 1), perft(&swap, 2)), (10, 90));
}

/// The project's Tai Shogi: Sente's and Gote's pieces have as many moves from the (symmetric)
/// start position. The 自在天王 walked each rank `e` from file 25, which Gote's symmetry turns
/// into `w`: Gote's Emperor reached file 25 only (perft(2) 25,296; now 231,865).
#[test]
fn tai_shogi_sente_and_gote_move_alike() {
    let bytes =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/zrf/tai_shogi.zrf"))
            .unwrap();
    let doc = common::read_doc(Format::Zrf, "tai_shogi.zrf", &bytes);
    let rules = compile(&doc, None);
    let st = State::start(&rules);
    let mut per_side = [0usize; 2];
    let mut emperor = [0usize; 2];
    for pos in 0..rules.npos() as u32 {
        let Some(p) = st.board[pos as usize] else {
            continue;
        };
        let n = engine::piece_moves(&rules, &st, pos).moves.len();
        per_side[p.owner as usize] += n;
        if rules.kinds[p.kind as usize].name == "自在天王" {
            emperor[p.owner as usize] += n;
        }
    }
    assert_eq!(
        emperor,
        [448, 448],
        "the Emperor reaches every square but its own side's"
    );
    assert_eq!(per_side[0], per_side[1]);
    assert_eq!(perft(&rules, 1), 481);
    assert_eq!(perft(&rules, 2), 231_865);
}
