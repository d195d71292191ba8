//! Unit tests: each expression's truth value and anchor effect, control flow, and robustness.
//!
//! Most tests use a probe: the expression under test followed by `move(0, 1)` (or another
//! movement). A move appears only if the expression left the value true, and its square shows
//! where the anchor was.

use super::board::{Board, Color, Piece, Square, square_name};
use super::interp::{Rules, State};
use super::perft::standard_rules;
use super::program::Reach;
use crate::diag::FileId;

/// Runs `script` for a `test` piece of `color` on `at`, with the standard pieces' scripts for
/// the others; returns the moves as `kind:to` with `x` before captured squares, plus
/// transitions and state changes.
fn run_with(script: &str, fen: &str, at: &str, color: Color, state: &[(&str, i32)]) -> Vec<String> {
    let mut rules = standard_rules().unwrap();
    let id = rules.compile(script, FileId(0)).unwrap_or_else(|d| {
        panic!(
            "{script}: {:?}",
            d.iter().map(|d| &d.message).collect::<Vec<_>>()
        )
    });
    rules.assign("test", id);
    rules.set_default(id);
    let mut board = Board::from_fen(fen, &mut rules.symbols).unwrap();
    let at = board.parse_square(at).unwrap();
    let kind = rules.symbols.intern("test");
    board.set(at, Some(Piece { color, kind }));
    let mut st = State::new();
    for &(k, v) in state {
        let k = rules.symbols.intern(k);
        st.set(color, k, v);
    }
    let (moves, diags) = rules.moves(&board, &st, at);
    assert!(diags.is_empty(), "unexpected step limit in {script}");
    moves
        .iter()
        .map(|m| {
            let mut s = format!(
                "{}:{}{}",
                m.kind.name(),
                if m.take.is_some() { "x" } else { "" },
                square_name(m.target)
            );
            if let Some(t) = m.transition {
                s += &format!("={}", rules.symbols.name(t));
            }
            for &(k, v) in &m.state_change {
                s += &format!(" {}={v}", rules.symbols.name(k));
            }
            s
        })
        .collect()
}

fn run(script: &str, fen: &str, at: &str) -> Vec<String> {
    run_with(script, fen, at, Color::White, &[])
}

const EMPTY: &str = "8/8/8/8/8/8/8/8";

// ---- movement expressions ---------------------------------------------------------------

#[test]
fn take_move_on_empty_square_emits_moves_anchor_and_stays_true() {
    assert_eq!(
        run("take-move(1, 0) take-move(1, 0);", EMPTY, "d4"),
        ["take-move:e4", "take-move:f4"]
    );
}

#[test]
fn take_move_capture_emits_then_is_false() {
    // Black pawn on e4: captured, and the following move(0, 1) does not run.
    assert_eq!(
        run("take-move(1, 0) move(0, 1);", "8/8/8/8/4p3/8/8/8", "d4"),
        ["take-move:xe4"]
    );
}

#[test]
fn take_move_refused_by_friend_or_wall_leaves_anchor() {
    // Friend on e4: false; `not` makes it true and move(0, 1) starts from d4 again.
    assert_eq!(
        run("take-move(1, 0) not move(0, 1);", "8/8/8/8/4P3/8/8/8", "d4"),
        ["move:d5"]
    );
    // Off the board from h4.
    assert_eq!(
        run("take-move(1, 0) not move(0, 1);", EMPTY, "h4"),
        ["move:h5"]
    );
}

#[test]
fn move_needs_an_empty_square() {
    assert_eq!(
        run("move(0, 1) move(0, 1);", EMPTY, "d4"),
        ["move:d5", "move:d6"]
    );
    assert_eq!(
        run("move(0, 1);", "8/8/8/3p4/8/8/8/8", "d4"),
        Vec::<String>::new()
    );
    assert_eq!(
        run("move(0, 1) not move(1, 0);", "8/8/8/3p4/8/8/8/8", "d4"),
        ["move:e4"]
    );
}

#[test]
fn take_passes_empty_squares_and_captures_enemies_staying_true() {
    // Empty e4: nothing emitted, anchor e4, value true → move to e5.
    assert_eq!(run("take(1, 0) move(0, 1);", EMPTY, "d4"), ["move:e5"]);
    // Enemy on e4: take emitted, anchor on e4, still true.
    assert_eq!(
        run("take(1, 0) move(0, 1);", "8/8/8/8/4p3/8/8/8", "d4"),
        ["take:xe4", "move:e5"]
    );
    // Friend: false.
    assert_eq!(
        run("take(1, 0) move(0, 1);", "8/8/8/8/4P3/8/8/8", "d4"),
        Vec::<String>::new()
    );
}

#[test]
fn catch_captures_without_moving_the_piece() {
    let mut rules = Rules::new();
    let id = rules.compile("catch(0, 2);", FileId(0)).unwrap();
    rules.set_default(id);
    let board = Board::from_fen("8/8/3p4/8/3T4/8/8/8", &mut rules.symbols).unwrap();
    let (moves, _) = rules.moves(&board, &State::new(), Square::new(3, 3));
    assert_eq!(moves.len(), 1);
    assert_eq!(
        square_name(moves[0].to),
        "d4",
        "`to` is where the piece ends"
    );
    assert_eq!(
        square_name(moves[0].target),
        "d6",
        "`target` is the caught square"
    );
    assert_eq!(moves[0].take, Some(Square::new(3, 5)));
    assert_eq!(
        moves[0].destination(),
        Square::new(3, 3),
        "the catching piece stays on d4"
    );
    // Empty squares: nothing, anchor moves, true (so the catch can shoot through them).
    assert_eq!(
        run(
            "catch(0, 1) catch(0, 1) move(1, 0);",
            "8/8/3p4/8/8/8/8/8",
            "d4"
        ),
        ["catch:xd6", "move:e6"]
    );
}

// ---- conditions ---------------------------------------------------------------------------

#[test]
fn peek_moves_the_anchor_only_when_true() {
    assert_eq!(run("peek(1, 0) move(0, 1);", EMPTY, "d4"), ["move:e5"]);
    assert_eq!(
        run("peek(1, 0) not move(0, 1);", "8/8/8/8/4p3/8/8/8", "d4"),
        ["move:d5"]
    );
    assert_eq!(
        run("peek(1, 0) not move(0, 1);", EMPTY, "h4"),
        ["move:h5"],
        "off board is false"
    );
}

#[test]
fn observe_tests_like_peek_but_never_moves_the_anchor() {
    assert_eq!(run("observe(1, 0) move(0, 1);", EMPTY, "d4"), ["move:d5"]);
    assert_eq!(
        run("observe(1, 0) move(0, 1);", "8/8/8/8/4P3/8/8/8", "d4"),
        Vec::<String>::new()
    );
}

#[test]
fn bound_edge_and_corner_partition_off_board_targets() {
    let t = |cond: &str, at: &str| !run(&format!("{cond} move(-1, -1);"), EMPTY, at).is_empty();
    assert!(t("bound(0, 5)", "d4") && !t("bound(0, 4)", "d4"));
    // From h8: (1, 0) crosses one side, (1, 1) two.
    assert!(t("edge(1, 0)", "h8") && !t("corner(1, 0)", "h8"));
    assert!(t("corner(1, 1)", "h8") && !t("edge(1, 1)", "h8"));
    assert!(t("bound(1, 1)", "h8") && !t("bound(0, -1)", "h8"));
}

#[test]
fn named_edges_and_corners_are_in_the_pieces_frame() {
    // One of the two probe chains always has an empty square to move to.
    let probe = |cond: &str, at: &str, c: Color| {
        !run_with(
            &format!("{cond} move(0, 1); {cond} move(0, -1);"),
            EMPTY,
            at,
            c,
            &[],
        )
        .is_empty()
    };
    // White on d8: (0, 1) leaves by the top.
    assert!(probe("edge-top(0, 1)", "d8", Color::White));
    assert!(!probe("edge-bottom(0, 1)", "d8", Color::White));
    // Black on d1: its (0, 1) is rank 0 → it leaves by black's top (white's bottom).
    assert!(probe("edge-top(0, 1)", "d1", Color::Black));
    assert!(!probe("edge-bottom(0, 1)", "d1", Color::Black));
    // White on h4: right; black on a4: (1, 0) goes to the a-file side, black's right.
    assert!(probe("edge-right(1, 0)", "h4", Color::White));
    assert!(probe("edge-right(1, 0)", "a4", Color::Black));
    assert!(!probe("edge-left(1, 0)", "a4", Color::Black));
    // A corner is not an edge: from h8 (1, 1) is corner-top-right only.
    assert!(probe("corner-top-right(1, 1)", "h8", Color::White));
    assert!(!probe("edge-right(1, 1)", "h8", Color::White));
    assert!(!probe("edge-top(1, 1)", "h8", Color::White));
    assert!(!probe("corner-top-left(1, 1)", "h8", Color::White));
    // Black on a1: (1, 1) rotated goes off below and left of a1: black's top-right.
    assert!(probe("corner-top-right(1, 1)", "a1", Color::Black));
    assert!(probe("corner-bottom-left(-1, -1)", "a1", Color::White));
    assert!(!probe("corner-bottom-right(-1, -1)", "a1", Color::White));
}

#[test]
fn enemy_friendly_and_piece_on_test_the_target() {
    let fen = "8/8/8/4p3/4P3/8/8/8"; // white P e4, black p e5
    assert_eq!(run("enemy(1, 1) move(0, 1);", fen, "d4"), ["move:d5"]);
    assert!(run("enemy(1, 0) move(0, 1);", fen, "d4").is_empty());
    assert_eq!(run("friendly(1, 0) move(0, 1);", fen, "d4"), ["move:d5"]);
    assert!(
        run("friendly(9, 0) move(0, 1);", fen, "d4").is_empty(),
        "off board is false"
    );
    // piece-on ignores colour.
    assert_eq!(
        run(
            "piece-on(pawn, 1, 1) piece-on(pawn, 1, 0) move(0, 1);",
            fen,
            "d4"
        ),
        ["move:d5"]
    );
    assert!(run("piece-on(rook, 1, 0) move(0, 1);", fen, "d4").is_empty());
    // None of them moves the anchor.
    assert_eq!(
        run("enemy(1, 1) friendly(1, 0) move(0, 1);", fen, "d4"),
        ["move:d5"]
    );
}

#[test]
fn check_is_true_when_the_own_king_is_attacked() {
    // White K e1, black rook e8: the white test piece on a1 sees check.
    assert_eq!(
        run("check move(0, 1);", "4r3/8/8/8/8/8/8/4K3", "a1"),
        ["move:a2"]
    );
    assert!(run("check move(0, 1);", "3r4/8/8/8/8/8/8/4K3", "a1").is_empty());
    // `not check`: only when safe.
    assert_eq!(
        run("check not move(0, 1);", "3r4/8/8/8/8/8/8/4K3", "a1"),
        ["move:a2"]
    );
}

#[test]
fn danger_plays_the_move_and_tests_the_opponents_captures() {
    // Black rook h5 attacks d5 but not e4.
    let fen = "8/8/8/7r/8/8/8/8";
    assert_eq!(run("danger(0, 1) move(0, 1);", fen, "d4"), ["move:d5"]);
    assert!(run("danger(1, 0) move(1, 0);", fen, "d4").is_empty());
    // Black rook d8 is blocked by the piece itself on d4; after moving to d3 the file opens.
    assert_eq!(
        run("danger(0, -1) move(0, -1);", "3r4/8/8/8/8/8/8/8", "d4"),
        ["move:d3"]
    );
    // A pawn attacks only diagonally: a black pawn on e6 makes d5 dangerous, not e5.
    assert_eq!(
        run("danger(0, 1) move(0, 1);", "8/8/4p3/8/8/8/8/8", "d4"),
        ["move:d5"]
    );
    assert!(run("danger(1, 1) move(1, 1);", "8/8/4p3/8/8/8/8/8", "d4").is_empty());
    // Off the board: false.
    assert!(run("danger(0, 9) move(0, 1);", EMPTY, "d4").is_empty());
}

#[test]
fn check_and_danger_in_the_opponents_scripts_do_not_recurse() {
    // Every non-standard piece uses a script that asks `check` and `danger`; generating moves
    // for one of them computes attack sets of the others, where both are false.
    // The black `t` on d4 runs the same script: its third chain (`check not`, true while
    // computing attack sets) captures backwards, i.e. on d5, where the white king stands.
    let script = "check take-move(1, 0); danger(0, 1) take-move(0, 1); check not take-move(0, -1);";
    let moves = run(script, "k7/8/8/3K4/3t4/8/8/8", "d3");
    // check: true (king d5 attacked by t) → e3; danger(0, 1) on d4: after taking t nothing
    // attacks d4 → no move; `not check` is false → nothing.
    assert_eq!(moves, ["take-move:e3"]);
}

// ---- state expressions ----------------------------------------------------------------------

#[test]
fn piece_compares_the_moving_kind() {
    assert_eq!(run("piece(test) move(0, 1);", EMPTY, "d4"), ["move:d5"]);
    assert!(run("piece(rook) move(0, 1);", EMPTY, "d4").is_empty());
}

#[test]
fn set_state_attaches_to_later_moves_and_bare_set_state_clears() {
    assert_eq!(
        run(
            "move(0, 1) set-state(a, 1) move(0, 1) set-state(b, 2) move(0, 1) set-state move(0, 1);",
            EMPTY,
            "d2"
        ),
        ["move:d3", "move:d4 a=1", "move:d5 a=1 b=2", "move:d6"]
    );
}

#[test]
fn if_state_reads_the_moving_sides_register_default_zero() {
    assert_eq!(
        run("if-state(mode, 0) move(0, 1);", EMPTY, "d4"),
        ["move:d5"]
    );
    assert!(run("if-state(mode, 1) move(0, 1);", EMPTY, "d4").is_empty());
    assert_eq!(
        run_with(
            "if-state(mode, 1) move(0, 1);",
            EMPTY,
            "d4",
            Color::White,
            &[("mode", 1)]
        ),
        ["move:d5"]
    );
    // Registers are per side: the same registers set for black do not affect white.
    let mut rules = Rules::new();
    let id = rules
        .compile("if-state(mode, 1) move(0, 1);", FileId(0))
        .unwrap();
    rules.set_default(id);
    let board = Board::from_fen("8/8/8/8/3T4/8/8/8", &mut rules.symbols).unwrap();
    let mut st = State::new();
    let mode = rules.symbols.intern("mode");
    st.set(Color::Black, mode, 1);
    assert!(rules.moves(&board, &st, Square::new(3, 3)).0.is_empty());
    st.set(Color::White, mode, 1);
    assert_eq!(rules.moves(&board, &st, Square::new(3, 3)).0.len(), 1);
}

#[test]
fn transition_applies_to_later_moves_and_bare_transition_clears() {
    assert_eq!(
        run(
            "move(0, 1) transition(queen) move(0, 1) { transition(rook) } move(0, 1) transition move(0, 1);",
            EMPTY,
            "d2"
        ),
        ["move:d3", "move:d4=queen", "move:d5=rook", "move:d6"],
        "a transition set inside a block still applies after it"
    );
}

// ---- control expressions ----------------------------------------------------------------------

#[test]
fn repeat_jumps_back_n_items_counting_braces() {
    // Items: move, {, take-move, }, repeat(4) → back to `move`: a ladder up the a/b files.
    let moves = run("move(0, 1) { take-move(1, 0) } repeat(4);", EMPTY, "a6");
    assert_eq!(
        moves,
        ["move:a7", "take-move:b7", "move:a8", "take-move:b8"]
    );
    // A false value before repeat ends the chain.
    assert_eq!(
        run("take-move(0, 1) repeat(1);", "8/8/8/8/8/3p4/8/8", "d1"),
        ["take-move:d2", "take-move:xd3"]
    );
}

#[test]
fn do_while_loops_while_true_and_exits_true_without_restoring_the_anchor() {
    // Slide up to d8, then `while` sees false, the value becomes true, move(1, 0) runs from d8.
    assert_eq!(
        run("do take-move(0, 1) while move(1, 0);", EMPTY, "d6"),
        ["take-move:d7", "take-move:d8", "move:e8"]
    );
    // Empty loop falls through.
    assert_eq!(run("do while move(0, 1);", EMPTY, "d6"), ["move:d7"]);
}

#[test]
fn jmp_jumps_when_true_and_is_always_true() {
    assert_eq!(
        run(
            "observe(0, 1) jmp(0) move(1, 0) label(0) move(0, 1);",
            EMPTY,
            "d4"
        ),
        ["move:d5"]
    );
    // Value false: no jump, but jmp's value is true, so move(1, 0) runs.
    assert_eq!(
        run(
            "friendly(0, 1) jmp(0) move(1, 0) label(0) move(0, 1);",
            EMPTY,
            "d4"
        ),
        ["move:e4", "move:e5"]
    );
}

#[test]
fn jne_jumps_when_false_and_is_always_true() {
    // The seed: jne's value is always true (MS keeps it false), so move(0, 1) runs after the jump.
    assert_eq!(
        run(
            "friendly(1, 0) jne(0) move(1, 1) label(0) move(0, 1);",
            EMPTY,
            "d4"
        ),
        ["move:d5"]
    );
    assert_eq!(
        run(
            "friendly(1, 0) jne(0) move(1, 1) label(0) move(0, 1);",
            "8/8/8/8/4P3/8/8/8",
            "d4"
        ),
        ["move:e5", "move:e6"]
    );
}

#[test]
fn label_passes_the_value_through_and_not_inverts_it() {
    assert!(run("friendly(1, 0) label(3) move(0, 1);", EMPTY, "d4").is_empty());
    assert_eq!(
        run("friendly(1, 0) label(3) not move(0, 1);", EMPTY, "d4"),
        ["move:d5"]
    );
    assert!(run("not not friendly(1, 0) move(0, 1);", EMPTY, "d4").is_empty());
}

#[test]
fn blocks_end_on_false_restore_the_anchor_and_leave_the_value_true() {
    // The first block fails at once (friend on e4); the second runs from d4.
    assert_eq!(
        run(
            "{ take-move(1, 0) move(0, 1) } { take-move(-1, 0) } move(0, 1);",
            "8/8/8/8/4P3/8/8/8",
            "d4"
        ),
        ["take-move:c4", "move:d5"]
    );
    // A false value just before `{` ends the chain (the block does not run).
    assert!(run("friendly(1, 0) { move(0, 1) };", EMPTY, "d4").is_empty());
}

#[test]
fn exact_duplicates_are_removed_but_different_transitions_are_kept() {
    assert_eq!(run("move(0, 1); move(0, 1);", EMPTY, "d4"), ["move:d5"]);
    assert_eq!(
        run("move(0, 1); transition(queen) move(0, 1);", EMPTY, "d4"),
        ["move:d5", "move:d5=queen"]
    );
}

#[test]
fn black_deltas_are_rotated_180_degrees() {
    assert_eq!(
        run_with("move(1, 2);", EMPTY, "d4", Color::Black, &[]),
        ["move:c2"]
    );
    assert_eq!(
        run_with("move(1, 2);", EMPTY, "d4", Color::White, &[]),
        ["move:e6"]
    );
}

#[test]
fn comments_run_to_the_next_semicolon() {
    // `# ...` swallows `move(1, 0)` up to the `;`; the move before it still runs.
    assert_eq!(
        run("move(0, 1) # comment move(1, 0); move(-1, 0);", EMPTY, "d4"),
        ["move:d5", "move:c4"]
    );
}

#[test]
fn spacing_does_not_matter() {
    assert_eq!(
        run(
            "take-move(1,1)repeat(1);take-move( -1 , -1 ){take-move(1,0)}",
            EMPTY,
            "c3"
        ),
        run(
            "take-move(1, 1) repeat(1); take-move(-1, -1) { take-move(1, 0) };",
            EMPTY,
            "c3"
        )
    );
}

// ---- static shapes (for lowering) -----------------------------------------------------------

#[test]
fn reach_over_approximates_captures() {
    let mut rules = Rules::new();
    let id = rules
        .compile("take-move(1, 2); move(0, 1) take(1, 1); peek(0, 1) { take-move(1, 0) } take-move(-1, 0); do take-move(0, 1) while;", FileId(0))
        .unwrap();
    let p = rules.program(id);
    use super::syntax::Delta;
    assert_eq!(p.chains[0].reach, Reach::Offsets(vec![Delta::new(1, 2)]));
    assert_eq!(
        p.chains[1].reach,
        Reach::Offsets(vec![Delta::new(1, 1), Delta::new(1, 2)])
    );
    assert_eq!(
        p.chains[2].reach,
        Reach::Offsets(vec![
            Delta::new(-1, 0),
            Delta::new(-1, 1),
            Delta::new(1, 0),
            Delta::new(1, 1)
        ])
    );
    assert_eq!(p.chains[3].reach, Reach::Any);
}

#[test]
fn attack_index_lists_exactly_the_chains_that_may_capture() {
    let mut rules = Rules::new();
    let id = rules
        .compile(
            "take-move(1, 2); move(0, 1); take-move(0, 1) repeat(1); catch(-2, 0) repeat(1); do take(1, 1) while; peek(1, 0) take(0, 1);",
            FileId(0),
        )
        .unwrap();
    let p = rules.program(id);
    for dy in -20..=20 {
        for dx in -20..=20 {
            let mut got: Vec<u32> = {
                let (a, b) = p.chains_reaching(dx, dy);
                a.iter()
                    .chain(b)
                    .copied()
                    .filter(|&i| p.chains[i as usize].reach.may_capture_at(dx, dy))
                    .collect()
            };
            got.sort();
            let want: Vec<u32> = (0..p.chains.len() as u32)
                .filter(|&i| p.chains[i as usize].reach.may_capture_at(dx, dy))
                .collect();
            assert_eq!(got, want, "offset ({dx}, {dy})");
        }
    }
    let (a, b) = p.chains_reaching(0, 3);
    assert_eq!(
        (a, b),
        (&[2u32][..], &[4u32][..]),
        "the file slide, plus the do-while chain"
    );
}

// ---- robustness -----------------------------------------------------------------------------

#[test]
fn hundred_thousand_open_braces_give_one_diagnostic_quickly() {
    let text = "{".repeat(100_000);
    let (err, cpu) =
        crate::tests::cpu_time(|| super::compile(&text, FileId(0), &mut Default::default()));
    let err = err.unwrap_err();
    assert!(cpu.as_secs_f64() < 2.0, "{cpu:?} of CPU time");
    assert_eq!(err.len(), 1);
    assert_eq!(err[0].code, "chessembly::unbalanced-brace");
    assert!(err[0].message.contains("100000"), "{}", err[0].message);
}

#[test]
fn an_unclosed_brace_does_not_shift_repeat_targets() {
    // Without a placeholder for the unclosed `{`, repeat(2) would seem to reach before the chain.
    let err = super::compile(
        "{ take-move(1, 0) repeat(2);",
        FileId(0),
        &mut Default::default(),
    )
    .unwrap_err();
    let codes: Vec<&str> = err.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["chessembly::unbalanced-brace"]);
}

#[test]
fn hundred_thousand_close_braces_are_capped() {
    let text = "}".repeat(100_000);
    let err = super::compile(&text, FileId(0), &mut Default::default()).unwrap_err();
    assert_eq!(err.len(), super::syntax::MAX_ERRORS + 1);
    assert_eq!(err.last().unwrap().code, "chessembly::too-many-errors");
}

#[test]
fn deeply_nested_balanced_braces_run_without_recursion() {
    let n = 100_000;
    let text = format!("{}move(0, 1){};", "{".repeat(n), "}".repeat(n));
    let mut rules = Rules::new();
    let id = rules.compile(&text, FileId(0)).unwrap();
    rules.set_default(id);
    let board = Board::from_fen("8/8/8/8/3T4/8/8/8", &mut rules.symbols).unwrap();
    let (moves, diags) = rules.moves(&board, &State::new(), Square::new(3, 3));
    // The step limit stops the chain inside the braces, before reaching move(0, 1).
    assert!(moves.is_empty());
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].code, "chessembly::step-limit");
}

#[test]
fn a_one_megabyte_script_compiles_and_runs_quickly() {
    let chain = "take-move(1, 1) { take-move(1, 0) repeat(1) } { take-move(0, 1) repeat(1) };\n";
    let text = chain.repeat(1_048_576 / chain.len() + 1);
    assert!(text.len() > 1_000_000);
    let (moves, cpu) = crate::tests::cpu_time(|| {
        let mut rules = Rules::new();
        let id = rules.compile(&text, FileId(0)).unwrap();
        rules.set_default(id);
        let board = Board::from_fen("8/8/8/8/3T4/8/8/8", &mut rules.symbols).unwrap();
        rules.moves(&board, &State::new(), Square::new(3, 3)).0
    });
    assert_eq!(
        moves.len(),
        7,
        "duplicates of e5 f5 g5 h5 e6 e7 e8 are removed"
    );
    assert!(cpu.as_secs_f64() < 10.0, "{cpu:?} of CPU time");
}

#[test]
fn a_one_megabyte_script_of_errors_gives_capped_diagnostics_quickly() {
    let text = "fly(1, 1) take-move(1) }{ ( → ".repeat(40_000);
    assert!(text.len() > 1_000_000);
    let (err, cpu) =
        crate::tests::cpu_time(|| super::compile(&text, FileId(0), &mut Default::default()));
    let err = err.unwrap_err();
    assert!(cpu.as_secs_f64() < 5.0, "{cpu:?} of CPU time");
    assert_eq!(err.len(), super::syntax::MAX_ERRORS + 1);
    assert_eq!(err[0].code, "chessembly::unknown-word");
}

#[test]
fn static_errors_are_capped_too() {
    let text = "jmp(1);".repeat(150_000);
    let err = super::compile(&text, FileId(0), &mut Default::default()).unwrap_err();
    assert_eq!(err.len(), super::syntax::MAX_ERRORS + 1);
    assert_eq!(err[0].code, "chessembly::undefined-label");
    assert_eq!(err.last().unwrap().code, "chessembly::too-many-errors");
}

#[test]
fn endless_loops_end_with_a_step_limit_warning() {
    for script in [
        "do label(0) while;",
        "label(0) jmp(0);",
        "{ move(0, 1) } repeat(3);",
        "do observe(0, 1) while;",
    ] {
        let mut rules = Rules::new();
        rules.step_limit = 500;
        let id = rules.compile(script, FileId(0)).unwrap();
        rules.set_default(id);
        let board = Board::from_fen("8/8/8/8/3T4/8/8/8", &mut rules.symbols).unwrap();
        let (_, diags) = rules.moves(&board, &State::new(), Square::new(3, 3));
        assert_eq!(diags.len(), 1, "{script}");
        assert_eq!(diags[0].code, "chessembly::step-limit");
        assert_eq!(diags[0].severity, crate::diag::Severity::Warning);
    }
}

#[test]
fn random_input_never_panics() {
    // A tiny LCG: random mixes of the language's pieces, punctuation and non-ASCII.
    let atoms = [
        "take-move",
        "move",
        "(",
        ")",
        ",",
        "1",
        "-2",
        "{",
        "}",
        ";",
        "#",
        "repeat",
        "do",
        "while",
        "jne",
        "label",
        "→",
        "駒",
        " ",
        "\n",
        "set-state",
        "transition",
        "piece-on",
        "peek",
        "99999999999999999999",
        "+",
        "-",
    ];
    let mut x: u64 = 0x2545F4914F6CDD1D;
    for _ in 0..3000 {
        let mut s = String::new();
        for _ in 0..(x % 40) {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s.push_str(atoms[(x >> 33) as usize % atoms.len()]);
        }
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        let mut rules = Rules::new();
        if let Ok(id) = rules.compile(&s, FileId(0)) {
            rules.set_default(id);
            let board = Board::from_fen("8/8/8/8/3T4/8/8/8", &mut rules.symbols).unwrap();
            let _ = rules.moves(&board, &State::new(), Square::new(3, 3));
        }
    }
}

#[test]
fn random_valid_programs_run_on_random_boards_without_panicking() {
    let mut x: u64 = 0x9E3779B97F4A7C15;
    let mut next = |n: u64| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) % n
    };
    let words = [
        "take-move",
        "move",
        "catch",
        "take",
        "peek",
        "observe",
        "bound",
        "edge",
        "corner",
        "edge-top",
        "edge-left",
        "corner-bottom-right",
        "danger",
        "enemy",
        "friendly",
    ];
    let mut compiled = 0;
    for round in 0..1500 {
        let mut text = String::new();
        for _ in 0..1 + next(3) {
            let mut depth = 0;
            let n = 1 + next(12);
            for i in 0..n {
                let d = |v: u64| v as i64 - 2;
                let item = match next(16) {
                    0..=5 => format!(
                        "{}({}, {})",
                        words[next(words.len() as u64) as usize],
                        d(next(5)),
                        d(next(5))
                    ),
                    6 => format!("repeat({})", 1 + next(i.max(1))),
                    7 => "do".into(),
                    8 => "while".into(),
                    9 => "not".into(),
                    10 => format!("label({})", next(3)),
                    11 => format!("jne({})", next(3)),
                    12 => "check".into(),
                    13 if depth < 3 => {
                        depth += 1;
                        "{".into()
                    }
                    14 if depth > 0 => {
                        depth -= 1;
                        "}".into()
                    }
                    _ => format!(
                        "set-state(k, {}) transition(q) piece-on(pawn, 0, 1)",
                        next(3)
                    ),
                };
                text += &item;
                text.push(' ');
            }
            text += &"} ".repeat(depth);
            text += ";\n";
        }
        let mut rules = standard_rules().unwrap();
        rules.step_limit = 300;
        let Ok(id) = rules.compile(&text, FileId(0)) else {
            continue;
        };
        compiled += 1;
        rules.set_default(id);
        let (w, h) = (1 + next(9) as usize, 1 + next(9) as usize);
        let mut board = Board::new(w, h);
        let kinds = ["king", "pawn", "rook", "x"].map(|k| rules.symbols.intern(k));
        for y in 0..h {
            for xx in 0..w {
                if next(3) == 0 {
                    let color = if next(2) == 0 {
                        Color::White
                    } else {
                        Color::Black
                    };
                    let kind = kinds[next(4) as usize];
                    board.set(
                        Square::new(xx as u16, y as u16),
                        Some(Piece { color, kind }),
                    );
                }
            }
        }
        let sq = Square::new(next(w as u64) as u16, next(h as u64) as u16);
        let color = if round % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        board.set(
            sq,
            Some(Piece {
                color,
                kind: kinds[3],
            }),
        );
        let (moves, _) = rules.moves(&board, &State::new(), sq);
        for m in moves {
            assert!(board.contains(m.to.x as i32, m.to.y as i32));
            assert_eq!(m.from, sq);
        }
    }
    // About 30% of the random texts compile (the rest have unknown labels, lone `while` …).
    assert!(compiled > 300, "only {compiled} random programs compiled");
}

#[test]
fn fen_reads_any_size_and_names_squares() {
    let mut sy = Default::default();
    let b = Board::from_fen("12/12/5K6", &mut sy).unwrap();
    assert_eq!((b.width(), b.height()), (12, 3));
    assert_eq!(b.parse_square("f1").unwrap(), Square::new(5, 0));
    assert_eq!(square_name(Square::new(27, 9)), "ab10");
    assert!(Board::from_fen("8/7", &mut sy).is_err());
    assert!(b.parse_square("m1").is_err());
    assert_eq!(b.to_fen(&sy), "12/12/5K6");
}

#[test]
fn an_ms_word_selects_the_ms_dialect_with_a_note() {
    let mut rules = Rules::new();
    let id = rules
        .compile("move(0, 1);\nshift(0, 1);", FileId(0))
        .unwrap();
    let notes = &rules.program(id).notes;
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].code, "chessembly::dialect");
    assert!(notes[0].message.contains("`shift`"), "{}", notes[0].message);
    assert_eq!(rules.program(id).dialect, super::syntax::Dialect::Ms);
    // Seed scripts get no note.
    let id = rules.compile("move(0, 1);", FileId(0)).unwrap();
    assert!(rules.program(id).notes.is_empty());
    // `--dialect seed` refuses the word.
    rules.dialect = Some(super::syntax::Dialect::Seed);
    let errs = rules.compile("shift(0, 1);", FileId(0)).unwrap_err();
    assert_eq!(errs[0].code, "chessembly::unknown-word");
    let errs = rules.compile("+ { move(0, 1) };", FileId(0)).unwrap_err();
    assert_eq!(errs[0].code, "chessembly::unknown-word");
}

#[test]
fn a_failed_jump_still_withdraws_its_take() {
    // d5 enemy, d6 friend: the jump cannot land, and the take is withdrawn anyway.
    assert_eq!(
        run("take(0, 1) jump(0, 1);", "8/8/3P4/3p4/8/8/8/8", "d4"),
        Vec::<String>::new()
    );
    // d6 empty: one take-jump that ends on d6 and captures d5.
    assert_eq!(
        run("take(0, 1) jump(0, 1);", "8/8/8/3p4/8/8/8/8", "d4"),
        vec!["take-jump:xd6"]
    );
    // The take of another chain is not withdrawn (chains are independent).
    assert_eq!(
        run(
            "take(0, 1);\ntake(0, 1) jump(0, 1);",
            "8/8/3P4/3p4/8/8/8/8",
            "d4"
        ),
        vec!["take:xd5"]
    );
}

#[test]
fn a_withdrawn_take_is_no_attack() {
    let mut rules = Rules::new();
    let id = rules.compile("take(0, 1) jump(0, 1);", FileId(0)).unwrap();
    rules.set_default(id);
    let mut scratch = super::interp::Scratch::default();
    for (fen, attacked) in [
        ("8/8/8/8/8/3p4/3p4/3T4", false),
        ("8/8/8/8/8/8/3p4/3T4", true),
    ] {
        let board = Board::from_fen(fen, &mut rules.symbols).unwrap();
        let d2 = board.parse_square("d2").unwrap();
        assert_eq!(
            rules.is_attacked(&board, &State::new(), d2, Color::White, &mut scratch),
            attacked,
            "{fen}"
        );
    }
}

#[test]
fn composite_blocks_nest() {
    let script = "+ { move(0, 1) | { move(1, 0) move(1, 0) } move(0, 1) };";
    let mut rules = Rules::new();
    let id = rules.compile(script, FileId(0)).unwrap();
    rules.set_default(id);
    for (fen, parts, to) in [
        ("8/8/8/8/8/8/8/8", 4, "d6"),
        // f5 blocks the inner block's second step: the `|` block keeps e5.
        ("8/8/8/5p2/8/8/8/8", 3, "d6"),
    ] {
        let mut board = Board::from_fen(fen, &mut rules.symbols).unwrap();
        let d4 = board.parse_square("d4").unwrap();
        let kind = rules.symbols.intern("test");
        board.set(
            d4,
            Some(Piece {
                color: Color::White,
                kind,
            }),
        );
        let (moves, _) = rules.moves(&board, &State::new(), d4);
        assert_eq!(moves.len(), 1, "{fen}");
        assert_eq!(moves[0].kind, super::syntax::MoveKind::Composite);
        assert_eq!(moves[0].parts.len(), parts, "{fen}");
        assert_eq!(square_name(moves[0].to), to);
    }
    // d6 occupied: the `+` block does not reach its `}`: no move at all.
    let mut board = Board::from_fen("8/8/3p4/8/8/8/8/8", &mut rules.symbols).unwrap();
    let d4 = board.parse_square("d4").unwrap();
    let kind = rules.symbols.intern("test");
    board.set(
        d4,
        Some(Piece {
            color: Color::White,
            kind,
        }),
    );
    assert!(rules.moves(&board, &State::new(), d4).0.is_empty());
}
