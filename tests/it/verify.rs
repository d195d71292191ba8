//! Fidelity verification (`convert --verify`, `zogkit::verify`): a faithful port is `equal`, a
//! port that plays differently (a playout or perft) is `failed` (and fails the file), a declared
//! loss is `partial`, output zogkit cannot read back is `unverified`.

use crate::common;

use std::path::Path;
use std::process::Command;
use zogkit::diag::{Diagnostic, Severity};
use zogkit::engine::{self, Rules, State};
use zogkit::format::{self, Format};
use zogkit::spec::Document;
use zogkit::verify::{self, Verdict};

const REPO: &str = env!("CARGO_MANIFEST_DIR");
/// A small game with drops and promotion (mini-shogi).
const GAME: &str = "corpus/zrf/render_minishogi.zrf";

fn read(format: Format, rel: &str) -> Document {
    let bytes = std::fs::read(Path::new(REPO).join(rel)).unwrap();
    let r = format::read(
        format,
        rel,
        &bytes,
        &Default::default(),
        &mut zogkit::zrf::NoIncludes,
    );
    assert_eq!(r.errors(), 0, "{rel} reads");
    r.document.unwrap()
}

fn yaml(doc: &Document) -> Vec<u8> {
    format::write(Format::Yaml, doc).unwrap().0
}

fn opts() -> verify::Options {
    verify::Options {
        positions: 150,
        ..Default::default()
    }
}

#[test]
fn a_faithful_port_is_equal_on_every_position() {
    let doc = read(Format::Zrf, GAME);
    for to in [Format::Yaml, Format::Zrf] {
        let (bytes, diags) = format::write(to, &doc).unwrap();
        let (verdicts, vdiags) = verify::verify(&doc, to, &bytes, &diags, &opts());
        assert_eq!(verdicts.len(), doc.games.len());
        assert_eq!(verdicts[0].verdict, Verdict::Equal, "{to:?}: {verdicts:?}");
        assert_eq!(verdicts[0].positions, 150);
        assert!(vdiags.is_empty());
        // Perft of both, to depth 3 (mini-shogi is cheap), equal to the engine's own count.
        let rules = Rules::compile(&doc, 0).unwrap();
        let depths: Vec<u32> = verdicts[0].perft.iter().map(|p| p.depth).collect();
        assert_eq!(depths, [1, 2, 3], "{to:?}");
        for p in &verdicts[0].perft {
            let want = engine::perft(
                &rules,
                &mut State::start(&rules),
                p.depth,
                &Default::default(),
            );
            assert_eq!((Some(p.source), Some(p.port)), (want, want), "{p:?}");
        }
    }
}

/// The test game, and a port of it that lost the first move block of a piece that has several.
fn game_and_port_without_a_move() -> (Document, Document) {
    let doc = read(Format::Zrf, GAME);
    let mut broken = doc.clone();
    let piece = broken.games[0]
        .pieces
        .iter_mut()
        .find(|p| p.moves.len() > 1)
        .unwrap();
    piece.moves.remove(0);
    (doc, broken)
}

/// With no playout to compare, perft alone finds a port that lost a move block.
#[test]
fn a_port_whose_perft_differs_fails_with_both_counts() {
    let (doc, broken) = game_and_port_without_a_move();
    let no_playouts = verify::Options {
        positions: 0,
        ..Default::default()
    };
    let (verdicts, _) = verify::verify(&doc, Format::Yaml, &yaml(&broken), &[], &no_playouts);
    let v = &verdicts[0];
    assert_eq!(v.verdict, Verdict::Failed, "{v:?}");
    let detail = v.detail.as_deref().unwrap();
    assert!(detail.starts_with("perft("), "{detail}");
    assert!(detail.contains("differs"), "{detail}");
}

#[test]
fn a_port_that_loses_a_move_fails_and_names_the_missing_moves() {
    let (doc, broken) = game_and_port_without_a_move();
    let (verdicts, diags) = verify::verify(&doc, Format::Yaml, &yaml(&broken), &[], &opts());
    let v = &verdicts[0];
    assert_eq!(v.verdict, Verdict::Failed, "{v:?}");
    let detail = v.detail.as_deref().unwrap();
    assert!(detail.contains("only the original"), "{detail}");
    assert!(!detail.contains("only the port"), "{detail}");
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].severity, Severity::Error);
    assert_eq!(diags[0].code, verify::CODE_FAILED);
}

#[test]
fn a_different_start_position_fails_before_any_move() {
    let doc = read(Format::Zrf, GAME);
    let mut broken = doc.clone();
    let p = broken.games[0]
        .setup
        .iter_mut()
        .find(|p| !p.positions.is_empty())
        .unwrap();
    p.positions.pop();
    let (verdicts, _) = verify::verify(&doc, Format::Yaml, &yaml(&broken), &[], &opts());
    assert_eq!(verdicts[0].verdict, Verdict::Failed);
    assert_eq!(verdicts[0].positions, 0);
    assert!(
        verdicts[0]
            .detail
            .as_deref()
            .unwrap()
            .contains("start positions differ")
    );
}

#[test]
fn a_declared_loss_makes_the_port_partial_and_lists_it() {
    let (doc, broken) = game_and_port_without_a_move();
    let lost = Diagnostic::new(
        Severity::Warning,
        "test::not-expressible",
        "a move block".to_string(),
        None,
    );
    let (verdicts, diags) = verify::verify(&doc, Format::Yaml, &yaml(&broken), &[lost], &opts());
    assert_eq!(verdicts[0].verdict, Verdict::Partial);
    assert_eq!(verdicts[0].lost, ["test::not-expressible: a move block"]);
    assert_eq!(diags[0].code, verify::CODE_PARTIAL);
    assert_eq!(diags[0].severity, Severity::Warning);
}

/// zogkit not reading its own output back is a writer bug, which proves nothing about the port.
#[test]
fn output_that_does_not_read_back_is_unverified_as_a_writer_bug() {
    let doc = read(Format::Zrf, GAME);
    let (verdicts, diags) = verify::verify(&doc, Format::Yaml, b"games: [", &[], &opts());
    assert_eq!(verdicts[0].verdict, Verdict::Unverified);
    let detail = verdicts[0].detail.as_deref().unwrap();
    assert!(detail.contains("cannot read back"), "{detail}");
    assert!(detail.contains("writer bug"), "{detail}");
    assert_eq!(diags[0].severity, Severity::Warning);
    assert_eq!(diags[0].code, verify::CODE_UNVERIFIED);
}

#[test]
fn convert_verify_reports_verdicts_and_gates_on_them() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("verify-cli");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (out, report) = (dir.join("game.yaml"), dir.join("report.json"));
    let o = Command::new(env!("CARGO_BIN_EXE_zogkit"))
        .current_dir(REPO)
        .args(["convert", GAME, "--to", "yaml", "--verify"])
        .args(["--verify-positions", "50", "-o"])
        .arg(&out)
        .arg("--report")
        .arg(&report)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("plays the same on 50 positions"),
        "{stderr}"
    );
    assert!(out.exists());
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert_eq!(json["files"][0]["verdicts"][0]["verdict"], "equal");
    assert_eq!(json["summary"]["verdicts"]["equal"], 1);
    // A source the engine cannot run is unverified: a warning, which --deny warnings fails.
    let o = Command::new(env!("CARGO_BIN_EXE_zogkit"))
        .current_dir(REPO)
        .args([
            "convert",
            "corpus/ludii/draughts.lud",
            "--to",
            "yaml",
            "--verify",
        ])
        .args(["--deny", "warnings", "-o"])
        .arg(dir.join("draughts.yaml"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("verify::unverified"), "{stderr}");
    assert!(!dir.join("draughts.yaml").exists());
}

/// Steps of one, two and three squares as in Mana: a step of two continues with a step of one,
/// a step of three with a step of two, so the first step of either changes the same squares and
/// continues; only the move type it continues with differs.
const MODES: &str = r#"
(define step-1 ($1 (verify empty?) add))
(define step-2 ($1 (verify empty?) (add-partial step-1-mode)))
(define step-3 ($1 (verify empty?) (add-partial step-2-mode)))
(define steps
  (move-type step-1-mode) (step-1 n) (step-1 e) (step-1 s) (step-1 w)
  (move-type step-2-mode) (step-2 n) (step-2 e) (step-2 s) (step-2 w)
  (move-type step-3-mode) (step-3 n) (step-3 e) (step-3 s) (step-3 w)
)
(game
  (title "Modes")
  (players White Black)
  (turn-order White Black)
  (board
    (grid
      (start-rectangle 0 0 10 10)
      (dimensions ("a/b/c/d/e" (10 0)) ("4/3/2/1" (0 10)))
      (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))))
  (piece (name Man) (image White "w.bmp" Black "b.bmp") (moves (steps)))
  (board-setup (White (Man a1 c1)) (Black (Man e4 c4)))
  (draw-condition (White Black) stalemated)
)
"#;

/// Moves that change the same squares but continue with different move types are different
/// moves: the playout must play the same one in both games (it played the first with the same
/// effect in the port, which walked a game compared with itself into two positions).
#[test]
fn moves_alike_but_for_their_continuation_are_played_alike() {
    let r = format::read(
        Format::Zrf,
        "modes.zrf",
        MODES.as_bytes(),
        &Default::default(),
        &mut zogkit::zrf::NoIncludes,
    );
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let doc = r.document.unwrap();
    let rules = Rules::compile(&doc, 0).unwrap();
    // The premise: at the start, a1-a2 is offered twice, continuing with two move types.
    let mut st = State::start(&rules);
    let moves = engine::legal_moves(&rules, &mut st).moves;
    let a2: Vec<_> = moves
        .iter()
        .filter(|m| m.to.map(|t| rules.positions[t as usize].as_str()) == Some("a2"))
        .map(|m| m.partial)
        .collect();
    assert_eq!(a2.len(), 3, "{a2:?}");
    assert_eq!(a2.iter().filter(|p| p.is_some()).count(), 2, "{a2:?}");
    assert_ne!(a2[1], a2[2], "{a2:?}");
    let f = engine::compare(&rules, &rules, 100, 1);
    assert_eq!(f.difference, None);
    assert!(f.positions > 20, "{f:?}");
    let (bytes, diags) = format::write(Format::Zrf, &doc).unwrap();
    let (verdicts, vdiags) = verify::verify(&doc, Format::Zrf, &bytes, &diags, &opts());
    assert_eq!(verdicts[0].verdict, Verdict::Equal, "{verdicts:?}");
    assert!(vdiags.is_empty(), "{vdiags:?}");
}

/// The shared-corpus files whose ZRF ports `--verify` once reported as failed, all for the
/// reason above (Mana's steps, backgammon dice, Suzumu's Fire Demon): every game plays the same.
#[test]
fn shared_ports_with_moves_alike_but_for_their_continuation_are_equal() {
    let Some(dir) = common::shared_zrf() else {
        return;
    };
    for rel in [
        "dagaz/elimination/mana.zrf",
        "dagaz/races/russian-backgammon.zrf",
        "dagaz/races/tavola.zrf",
        "dagaz/shogi-family/suzumu-shogi.zrf",
    ] {
        let bytes = std::fs::read(dir.join(rel)).unwrap();
        let r = format::read(
            Format::Zrf,
            rel,
            &bytes,
            &Default::default(),
            &mut zogkit::zrf::NoIncludes,
        );
        assert_eq!(r.errors(), 0, "{rel} reads");
        let doc = r.document.unwrap();
        let (out, diags) = format::write(Format::Zrf, &doc).unwrap();
        let (verdicts, _) = verify::verify(&doc, Format::Zrf, &out, &diags, &opts());
        assert!(!verdicts.is_empty(), "{rel}");
        for v in &verdicts {
            assert_eq!(v.verdict, Verdict::Equal, "{rel}: {v:?}");
        }
    }
}

/// A comparison the engine's step limit cut short proves nothing: `--limit engine-steps=1`
/// stops the first move block, so the verdict is `unverified` (never `equal`), with a warning
/// that names the limit, in the text and in the `--report` JSON; a warning, so the file is
/// written (exit 0) unless `--deny warnings`.
#[test]
fn a_comparison_stopped_by_the_step_limit_is_unverified() {
    let doc = read(Format::Zrf, GAME);
    let (bytes, diags) = format::write(Format::Yaml, &doc).unwrap();
    let tight = verify::Options {
        engine_steps: 1,
        ..opts()
    };
    let (verdicts, vdiags) = verify::verify(&doc, Format::Yaml, &bytes, &diags, &tight);
    assert_eq!(verdicts[0].verdict, Verdict::Unverified, "{verdicts:?}");
    assert_eq!(vdiags.len(), 1, "{vdiags:?}");
    assert_eq!(vdiags[0].code, verify::CODE_UNVERIFIED);
    assert!(vdiags[0].message.contains("engine-steps=1"), "{vdiags:?}");

    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("verify-step-limit");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (out, report) = (dir.join("game.yaml"), dir.join("report.json"));
    let run = |deny: bool| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_zogkit"));
        c.current_dir(REPO)
            .args(["convert", GAME, "--to", "yaml", "--verify"])
            .args(["--limit", "engine-steps=1", "--force", "-o"])
            .arg(&out)
            .arg("--report")
            .arg(&report);
        if deny {
            c.args(["--deny", "warnings"]);
        }
        c.output().unwrap()
    };
    let o = run(false);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("plays the same"), "{stderr}");
    assert!(
        stderr.contains("warning[verify::unverified]") && stderr.contains("engine-steps=1"),
        "{stderr}"
    );
    // Located at the block the limit stopped first: the first pawn's (`step-p n 歩兵 …`).
    let at = common::line_col_of(Path::new(REPO).join(GAME), "(step-p n 歩兵");
    assert!(
        stderr.contains(&format!("--> {GAME}:{at}\n")),
        "not located at {at}: {stderr}"
    );
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let file = &json["files"][0];
    assert_eq!(file["verdicts"][0]["verdict"], "unverified", "{json}");
    let detail = file["verdicts"][0]["detail"].as_str().unwrap();
    assert!(detail.contains("engine-steps=1"), "{detail}");
    assert_eq!(file["diagnostics"]["verify::unverified"], 1, "{json}");
    assert_eq!(
        json["summary"]["verdicts"]["equal"],
        serde_json::Value::Null,
        "{json}"
    );
    assert_eq!(json["summary"]["verdicts"]["unverified"], 1, "{json}");
    let o = run(true);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A port that plays the same but lost what the writer reported is `partial`, and the verdict
/// stands at the game in the source (a `.lud` read in this run).
#[test]
fn a_partial_verdict_with_no_differing_move_stands_at_the_game() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("verify-located");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_zogkit"))
        .current_dir(REPO)
        .args([
            "convert",
            "corpus/ludii/xiangqi.lud",
            "--to",
            "zrf",
            "--verify",
        ])
        .args(["--verify-positions", "20", "-o"])
        .arg(dir.join("x.zrf"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    let at = common::line_col_of(
        Path::new(REPO).join("corpus/ludii/xiangqi.lud"),
        "(game \"Xiangqi\"",
    );
    let i = stderr
        .find("warning[verify::partial]")
        .unwrap_or_else(|| panic!("{stderr}"));
    let located = stderr[i..].lines().nth(1).unwrap_or("").trim();
    assert_eq!(
        located,
        format!("--> corpus/ludii/xiangqi.lud:{at}"),
        "{stderr}"
    );
    // A partial verdict is a warning; `--deny partial` fails the file on it alone, and nothing
    // is written.
    assert!(o.status.success(), "{stderr}");
    let gated = |deny: &[&str], out: &str| {
        Command::new(env!("CARGO_BIN_EXE_zogkit"))
            .current_dir(REPO)
            .args(["convert", "corpus/ludii/xiangqi.lud", "--to", "zrf"])
            .args(deny)
            .arg("-o")
            .arg(dir.join(out))
            .output()
            .unwrap()
    };
    let o = gated(
        &["--verify", "--verify-positions", "20", "--deny", "partial"],
        "y.zrf",
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("failed with 1 partial verdict (--deny partial); nothing written"),
        "{stderr}"
    );
    assert!(!dir.join("y.zrf").exists());
    // Without --verify there is no verdict to gate on: a usage error.
    let o = gated(&["--deny", "partial"], "z.zrf");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("give --verify"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// XiangQi to Chessembly keeps 3 of its 7 pieces (the others test zones; the cannon is written
/// from its typed movement): `convert`
/// fails the file with `chessembly::partial` naming the pieces, `--verify` agrees (`failed`),
/// and `--allow-partial` writes the script with a `partial` verdict that names them; the
/// warnings show the lost moves as ZRF-like text, never the spec's JSON.
#[test]
fn a_chessembly_port_of_xiangqi_keeping_3_of_7_pieces_fails_unless_allowed() {
    let Some(dir) = common::shared_zrf() else {
        return;
    };
    let src = dir.join("dagaz/xiangqi/xiangqi.zrf");
    let out = common::scratch_dir("xiangqi-csm");
    let run = |extra: &[&str]| {
        let report = out.join("report.json");
        let _ = std::fs::remove_file(&report);
        let _ = std::fs::remove_file(out.join("x.csm"));
        let mut c = Command::new(env!("CARGO_BIN_EXE_zogkit"));
        c.arg("convert")
            .arg(&src)
            .args(["--to", "chessembly", "-o"])
            .arg(out.join("x.csm"))
            .arg("--report")
            .arg(&report)
            .args(extra);
        let o = c.output().unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
        let json: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
        (o.status.code(), stderr, json, out.join("x.csm").exists())
    };
    let pieces = "keeps 3 of 7 pieces (Horse, Chariot, Cannon); left out: Soldier, Elephant, Mandarin, General";
    for extra in [&[][..], &["--verify"][..]] {
        let (code, stderr, json, written) = run(extra);
        assert_eq!(code, Some(1), "{extra:?}: {stderr}");
        assert!(!written, "{extra:?}");
        assert!(
            stderr.contains("error[chessembly::partial]") && stderr.contains(pieces),
            "{extra:?}: {stderr}"
        );
        assert!(
            stderr.contains("the condition `(in-zone? fortress)`"),
            "{stderr}"
        );
        assert!(!stderr.contains("{\""), "JSON in a message: {stderr}");
        if !extra.is_empty() {
            let v = &json["files"][0]["verdicts"][0];
            assert_eq!(v["game"], "XiangQi", "{json:#}");
            assert_eq!(v["verdict"], "failed", "{v:#}");
            assert!(v["detail"].as_str().unwrap().contains(pieces), "{v:#}");
        }
    }
    let (code, stderr, json, written) = run(&["--verify", "--allow-partial"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(written);
    assert!(stderr.contains("warning[chessembly::partial]"), "{stderr}");
    let v = &json["files"][0]["verdicts"][0];
    assert_eq!(v["verdict"], "partial", "{v:#}");
    assert!(v["detail"].as_str().unwrap().contains(pieces), "{v:#}");
    let script = std::fs::read_to_string(out.join("x.csm")).unwrap();
    assert!(script.contains("piece(Horse)") && script.contains("piece(Chariot)"));
    // The cannon's screen move, from its movement.
    assert!(
        script.contains(
            "piece(Cannon) do move(0, 1) while anchor(0, 1) do peek(0, 1) while take-move(0, 1);"
        ),
        "{script}"
    );
}
