//! The engine's subcommands on the real binary: `perft` and `moves` on games, the step limit,
//! refusals that name the construct, usage errors, Ctrl-C and closed pipes.

use crate::common;

use common::{scratch_dir, zogkit};
use std::io::Read as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A one-piece game on a 3×3 board; `moves` is the piece's `(moves …)` body.
fn game(dir: &Path, name: &str, moves: &str) -> String {
    let text = format!(
        r#"(game (title "T") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10)
    (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
    (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))))
  (piece (name Man) (moves {moves}))
  (board-setup (White (Man a1)) (Black (Man c1))))
"#
    );
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn perft_and_moves_run_a_game_and_json_says_complete() {
    let dir = scratch_dir("engine-cli-basic");
    let f = game(
        &dir,
        "step.zrf",
        "(n (verify empty?) add) (e (verify empty?) add)",
    );
    let out = zogkit(&["perft", &f, "--depth", "2", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["perft"][0]["nodes"], 2);
    assert_eq!(v["perft"][1]["nodes"], 2, "Black's man can only go north");
    assert_eq!(v["complete"], true);
    let out = zogkit(&["moves", &f, "--after", "a1-a2", "--format", "text"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Man c1 - c2\n");
    let out = zogkit(&["perft", &f, "--depth", "2", "--divide"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Man a1 - a2: 1") && text.contains("perft(2) = 2"),
        "{text}"
    );
}

/// `(capture dir)` aimed off the board captures nothing and the move goes on, as ZoG's Bifrost
/// save shows (docs/engine.md, "Semantics the saves decided"); a step off the board still ends
/// the block.
#[test]
fn a_capture_off_the_board_does_nothing_and_a_step_off_the_board_ends_the_block() {
    let dir = scratch_dir("engine-cli-off-board");
    let f = game(
        &dir,
        "off.zrf",
        "(n (capture w) add) (e (capture e) add) (n w add)",
    );
    // Text is the default format.
    let out = zogkit(&["moves", &f]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Man a1 - a2\nMan a1 - b1 x c1\n"
    );
}

#[test]
fn a_program_that_never_ends_stops_at_the_step_limit_with_a_warning_naming_it() {
    let dir = scratch_dir("engine-cli-loop");
    let f = game(
        &dir,
        "loop.zrf",
        "((while true mark back) add) (n (verify empty?) add)",
    );
    let start = Instant::now();
    let out = zogkit(&[
        "--limit",
        "engine-steps=1000",
        "perft",
        &f,
        "--depth",
        "1",
        "--format",
        "json",
    ]);
    assert!(start.elapsed() < Duration::from_secs(60), "a real hang");
    assert_eq!(
        out.status.code(),
        Some(1),
        "an incomplete count is not a success"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning[engine::step-limit]") && err.contains("piece `Man`, move block 1"),
        "{err}"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["complete"], false);
    assert_eq!(
        v["perft"][0]["nodes"], 1,
        "the other block's move is still counted"
    );
}

#[test]
fn a_game_the_engine_cannot_run_is_refused_naming_the_construct() {
    let dir = scratch_dir("engine-cli-raw");
    let f = game(&dir, "raw.zrf", "((frobnicate 3) add)");
    let out = zogkit(&["perft", &f, "--depth", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("error[engine::unsupported]") && err.contains("frobnicate"),
        "{err}"
    );
    assert!(
        out.stdout.is_empty(),
        "no count is printed for a game that cannot be run"
    );
}

#[test]
fn usage_errors_exit_2_and_list_what_is_possible() {
    let dir = scratch_dir("engine-cli-usage");
    let f = game(&dir, "step.zrf", "(n (verify empty?) add)");
    let out = zogkit(&["moves", &f, "--after", "a1-c3"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not a legal move") && err.contains("Man a1 - a2"),
        "{err}"
    );
    let out = zogkit(&["perft", &f, "--game", "Nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 \"T\""));
    let out = zogkit(&["moves", &f, "--at", "a1"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "--at without --board is a usage error"
    );
}

#[test]
fn ctrl_c_stops_a_long_perft_cleanly() {
    let Some(corpus) = common::shared_zrf() else {
        return;
    };
    let chess = corpus.join("dagaz/chess/chess.zrf");
    let mut child = Command::new(env!("CARGO_BIN_EXE_zogkit"))
        .args(["perft", chess.to_str().unwrap(), "--depth", "9"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Long enough for the process to start and install its handler even on a loaded machine;
    // depth 9 runs for hours, so the count cannot finish first.
    std::thread::sleep(Duration::from_secs(2));
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "perft did not stop"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(err.contains("interrupted"), "{err}");
}

#[test]
fn a_closed_pipe_ends_moves_quietly() {
    let Some(corpus) = common::shared_zrf() else {
        return;
    };
    let chess = corpus.join("dagaz/chess/chess.zrf");
    let mut child = Command::new(env!("CARGO_BIN_EXE_zogkit"))
        .args(["moves", chess.to_str().unwrap(), "--format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(
        matches!(out.status.code(), Some(0) | Some(141)) || out.status.code().is_none(),
        "{out:?}"
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

/// Runs zogkit with standard output on `/dev/full` (every write fails with ENOSPC).
fn to_dev_full(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_zogkit"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap()
}

/// Runs zogkit with a standard output whose reader has gone (a closed pipe).
fn to_closed_pipe(args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zogkit"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

#[test]
fn failing_standard_output_is_an_error_and_a_closed_pipe_is_quiet() {
    if !Path::new("/dev/full").exists() {
        eprintln!("note: no /dev/full here; skipped");
        return;
    }
    let dir = scratch_dir("engine-cli-stdout");
    let f = game(
        &dir,
        "step.zrf",
        "(n (verify empty?) add) (e (verify empty?) add)",
    );
    let ugly = dir.join("ugly.zrf");
    std::fs::write(
        &ugly,
        "(game (title \"x\")\n(board (grid (dimensions \"a\" \"1\"))))\n",
    )
    .unwrap();
    let ugly = ugly.to_str().unwrap();
    let mini = "corpus/zrf/macro_001.zrf";
    let commands: Vec<Vec<&str>> = vec![
        vec!["moves", &f],
        vec!["perft", &f, "--depth", "2"],
        vec!["roundtrip", mini],
        vec!["fmt", ugly],
        vec!["fmt", "--check", ugly],
        vec!["check", mini],
        vec!["expand", mini],
        vec!["info", mini],
        vec!["board", mini],
        vec!["schema"],
        vec!["limits"],
        vec!["convert", mini, "--to", "yaml"],
        vec!["convert", "corpus/zrf", "--to", "yaml", "-o", "-"],
        vec!["--help"],
        vec!["render", "--help"],
        vec!["--version"],
    ];
    for args in &commands {
        let o = to_dev_full(args);
        let err = String::from_utf8_lossy(&o.stderr);
        if args.last() == Some(&"-") {
            // Several inputs cannot go to standard output: refused before writing.
            assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
            continue;
        }
        assert_eq!(o.status.code(), Some(2), "{args:?} into /dev/full: {err}");
        assert!(
            err.contains("cannot write to standard output"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        let o = to_closed_pipe(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            matches!(o.status.code(), Some(0 | 1 | 141)),
            "{args:?} into a closed pipe: {o:?}"
        );
        assert!(
            !err.contains("panicked") && !err.contains("cannot write"),
            "{args:?}: {err}"
        );
    }
}
