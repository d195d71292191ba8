//! End-to-end tests of `zogkit moves` and the hidden `zogkit perft`: output formats, standard
//! input, diagnostics with file:line:col and exit codes.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

fn zogkit(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zogkit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("zogkit runs");
    if let Some(s) = stdin {
        // A process that stops on a usage error may close stdin before we write: ignore that.
        let _ = child.stdin.take().unwrap().write_all(s.as_bytes());
    }
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

fn corpus(name: &str) -> String {
    format!("{}/corpus/chessembly/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn json_lists_moves_with_all_fields_in_order() {
    let out = zogkit(
        &[
            "moves",
            &corpus("windmill-state.csm"),
            "--board",
            "8/8/3P4/8/5p2/8/8/8",
            "--at",
            "d4",
            "--side",
            "black",
            "--state",
            "mode=1",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let list = v.as_array().unwrap();
    assert_eq!(list.len(), 9);
    // Field order as documented.
    let first = text.find("\"kind\"").unwrap();
    let order: Vec<usize> = [
        "\"from\"",
        "\"to\"",
        "\"take\"",
        "\"transition\"",
        "\"state_change\"",
    ]
    .iter()
    .map(|k| text[first..].find(k).unwrap())
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    let capture = list.iter().find(|m| m["to"] == "d6").unwrap();
    assert_eq!(capture["kind"], "take-move");
    assert_eq!(capture["from"], "d4");
    assert_eq!(capture["take"], "d6");
    assert_eq!(capture["transition"], serde_json::Value::Null);
    assert_eq!(
        capture["state_change"],
        serde_json::json!([{"key": "mode", "value": 0}])
    );
}

#[test]
fn script_from_stdin_with_text_format_and_piece_name() {
    let out = zogkit(
        &[
            "moves",
            "-",
            "--board",
            "8/8/8/8/8/8/8/8",
            "--at",
            "d4",
            "--piece",
            "test",
            "--format",
            "text",
        ],
        Some("piece(test) transition(windmill-bishop) move(0, 1);"),
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "move d4-d5 =windmill-bishop\n"
    );
}

#[test]
fn piece_on_the_square_gives_kind_and_colour() {
    // A black `x` on d4 (lower case): black, so (0, 1) goes down.
    let out = zogkit(
        &[
            "moves",
            "-",
            "--board",
            "8/8/8/8/3x4/8/8/8",
            "--at",
            "d4",
            "--format",
            "text",
        ],
        Some("piece(x) move(0, 1);"),
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "move d4-d3\n");
}

#[test]
fn script_errors_are_rendered_with_location_and_exit_1() {
    let out = zogkit(
        &[
            "moves",
            &corpus("err-undefined-label.csm"),
            "--board",
            "8/8/8/8/8/8/8/8",
            "--at",
            "d4",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("error[chessembly::undefined-label]"), "{err}");
    assert!(err.contains("err-undefined-label.csm:2:18"), "{err}");
    assert!(out.stdout.is_empty());
    let out = zogkit(
        &["moves", "-", "--board", "8/8/8/8/8/8/8/8", "--at", "d4"],
        Some("take-move(1, 1)\n  { take-move(1, 0);"),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("<stdin>:2:3")
    );
}

#[test]
fn step_limit_is_a_warning_and_moves_are_still_printed() {
    let out = zogkit(
        &[
            "moves",
            &corpus("step-limit.csm"),
            "--board",
            "8/8/8/8/8/8/8/8",
            "--at",
            "d4",
            "--format",
            "text",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "move d4-d5\ntake-move d4-e4\n"
    );
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("warning[chessembly::step-limit]")
    );
}

#[test]
fn usage_and_io_problems_exit_2() {
    let bad = [
        vec![
            "moves",
            "/nonexistent/x.csm",
            "--board",
            "8/8/8/8/8/8/8/8",
            "--at",
            "d4",
        ],
        vec!["moves", "-", "--board", "8/8/8/8/8/8/8/7", "--at", "d4"],
        vec!["moves", "-", "--board", "8/8/8/8/8/8/8/8", "--at", "z9"],
        vec![
            "moves",
            "-",
            "--board",
            "8/8/8/8/8/8/8/8",
            "--at",
            "d4",
            "--state",
            "mode",
        ],
        vec!["moves", "-", "--at", "d4"],
        vec![
            "moves",
            "-",
            "--board",
            "8/8/8/8/8/8/8/8",
            "--at",
            "d4",
            "--side",
            "green",
        ],
    ];
    for args in bad {
        let out = zogkit(&args, Some("move(0, 1);"));
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn native_perft_counts_the_start_position() {
    let out = zogkit(&["perft", "--depth", "3"], None);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("perft(1) = 20 "), "{text}");
    assert!(text.contains("perft(3) = 8902 "), "{text}");
}

/// Move records say where the piece ends: `catch` keeps it on `from` (`target` is the caught
/// square); a take-jump ends on its landing square and records the jumped one in `take`.
#[test]
fn json_to_is_where_the_piece_ends() {
    let moves = |script: &str, board: &str, extra: &[&str]| {
        let mut args = vec![
            "moves", "-", "--board", board, "--at", "d4", "--format", "json",
        ];
        args.extend_from_slice(extra);
        let out = zogkit(&args, Some(script));
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (v.as_array().unwrap().clone(), stderr)
    };
    let (list, stderr) = moves("catch(0, 2);", "8/8/3p4/8/8/8/8/8", &[]);
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["kind"], "catch");
    assert_eq!(list[0]["from"], "d4");
    assert_eq!(list[0]["to"], "d4");
    assert_eq!(list[0]["target"], "d6");
    assert_eq!(list[0]["take"], "d6");
    // The MS word selects the dialect, with a note naming it.
    let (list, stderr) = moves("take(0, 1) jump(0, 1);", "8/8/8/3p4/8/8/8/8", &[]);
    assert!(stderr.contains("note[chessembly::dialect]"), "{stderr}");
    assert!(stderr.contains("`jump`"), "{stderr}");
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["kind"], "take-jump");
    assert_eq!(list[0]["to"], "d6");
    assert_eq!(list[0]["take"], "d5");
    // `--dialect ms` needs no note; `--dialect seed` refuses the word (exit 1).
    let (_, stderr) = moves("shift(0, 1);", "8/8/8/3p4/8/8/8/8", &["--dialect", "ms"]);
    assert!(stderr.is_empty(), "{stderr}");
    let out = zogkit(
        &[
            "moves",
            "-",
            "--board",
            "8/8/8/8/8/8/8/8",
            "--at",
            "d4",
            "--dialect",
            "seed",
        ],
        Some("shift(0, 1);"),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("chessembly::unknown-word"));
}

/// `convert` and `check` take `--dialect` too (`check` is `convert`'s dry run), and the spec
/// records a script read in the MS dialect as `source.dialect: ms`.
#[test]
fn convert_and_check_take_the_dialect_and_the_spec_records_it() {
    let script = corpus("ms-shift.csm");
    let run = |args: &[&str]| {
        let out = zogkit(args, None);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, yaml, stderr) = run(&["convert", &script, "--to", "yaml", "-o", "-", "-v"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("note[chessembly::dialect]"), "{stderr}");
    let doc: serde_json::Value = serde_yaml::from_str(&yaml).unwrap();
    assert_eq!(doc["source"]["dialect"], "ms", "{yaml}");
    let (code, yaml_ms, stderr) = run(&[
        "convert",
        &script,
        "--to",
        "yaml",
        "-o",
        "-",
        "-v",
        "--dialect",
        "ms",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("note[chessembly::dialect]"), "{stderr}");
    assert_eq!(yaml_ms, yaml);
    for cmd in [
        &[
            "convert",
            &script,
            "--to",
            "yaml",
            "-o",
            "-",
            "--dialect",
            "seed",
        ][..],
        &["check", &script, "--dialect", "seed"][..],
    ] {
        let (code, stdout, stderr) = run(cmd);
        let all = stdout + &stderr;
        assert_eq!(code, Some(1), "{cmd:?}: {all}");
        assert!(all.contains("chessembly::unknown-word"), "{all}");
    }
    let (code, _, stderr) = run(&["check", &script, "--dialect", "ms"]);
    assert_eq!(code, Some(0), "{stderr}");
    // A seed script records no dialect.
    let (_, yaml, _) = run(&["convert", &corpus("bishop.csm"), "--to", "yaml", "-o", "-"]);
    let doc: serde_json::Value = serde_yaml::from_str(&yaml).unwrap();
    assert!(doc["source"].get("dialect").is_none(), "{yaml}");
}
