//! Honest outcomes, with the real binary: `check` is `convert` without the writing (same
//! diagnostics, same failures, same exit status on every input of `corpus/` and the shared
//! corpus); an error-severity diagnostic fails a file in every subcommand and report format;
//! `--deny warnings` fails warnings too; `roundtrip` fails inputs it could not read.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const REPO: &str = env!("CARGO_MANIFEST_DIR");

fn run_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zogkit"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .expect("run zogkit")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Per file: errors, warnings, diagnostics by code, failed.
type Facts = BTreeMap<String, (u64, u64, BTreeMap<String, u64>, bool)>;

/// `check --format json` over `inputs`: its exit status and per-file facts.
fn check_facts(cwd: &Path, inputs: &[&str], extra: &[&str]) -> (i32, Facts) {
    let mut args = vec!["check", "--format", "json"];
    args.extend(extra);
    args.extend(inputs);
    let o = run_in(cwd, &args);
    let code = o.status.code().unwrap_or(-1);
    let mut facts = Facts::new();
    if o.stdout.is_empty() {
        return (code, facts); // refused before reading: no report
    }
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("check json");
    let failed: Vec<&str> = doc["summary"]["failed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    for f in doc["files"].as_array().unwrap() {
        let name = f["file"].as_str().unwrap().to_string();
        let (mut e, mut w) = (0, 0);
        let mut codes = BTreeMap::new();
        if f.get("io_error").is_some() {
            e = 1;
        }
        for d in f["diagnostics"].as_array().into_iter().flatten() {
            *codes
                .entry(d["code"].as_str().unwrap().to_string())
                .or_default() += 1;
            match d["severity"].as_str().unwrap() {
                "error" => e += 1,
                "warning" => w += 1,
                _ => {}
            }
        }
        let fail = failed.contains(&name.as_str());
        facts.insert(name, (e, w, codes, fail));
    }
    (code, facts)
}

/// `convert --to yaml --report` over `inputs` into a scratch directory: exit status and facts.
fn convert_facts(cwd: &Path, inputs: &[&str], extra: &[&str], scratch: &Path) -> (i32, Facts) {
    let _ = std::fs::remove_dir_all(scratch);
    std::fs::create_dir_all(scratch).unwrap();
    let out = scratch.join("out");
    let report = scratch.join("report.json");
    let single = inputs.len() == 1 && !cwd.join(inputs[0]).is_dir();
    let out_arg = if single {
        scratch.join("out.yaml")
    } else {
        out.clone()
    };
    let (out_s, report_s) = (out_arg.to_str().unwrap(), report.to_str().unwrap());
    let mut args = vec![
        "convert", "-q", "--to", "yaml", "-o", out_s, "--report", report_s,
    ];
    args.extend(extra);
    args.extend(inputs);
    let o = run_in(cwd, &args);
    let code = o.status.code().unwrap_or(-1);
    let mut facts = Facts::new();
    let Ok(bytes) = std::fs::read(&report) else {
        return (code, facts); // refused before reading: no report
    };
    let doc: serde_json::Value = serde_json::from_slice(&bytes).expect("report json");
    for f in doc["files"].as_array().unwrap() {
        let codes = f["diagnostics"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
            .collect();
        facts.insert(
            f["input"].as_str().unwrap().to_string(),
            (
                f["errors"].as_u64().unwrap(),
                f["warnings"].as_u64().unwrap(),
                codes,
                f["failed"].as_bool().unwrap(),
            ),
        );
    }
    (code, facts)
}

/// Runs both on the same inputs and asserts they agree; returns check's facts. In a directory,
/// `convert --to yaml` skips the YAML files (its outputs may sit there) which `check` reads: they
/// are left out of the comparison (`check` reading them is asserted by `batch.rs`).
fn agree(cwd: &Path, inputs: &[&str], extra: &[&str], scratch: &Path) -> (i32, Facts) {
    let (cc, mut cf) = check_facts(cwd, inputs, extra);
    let (vc, vf) = convert_facts(cwd, inputs, extra, scratch);
    let skipped: Vec<String> = cf
        .keys()
        .filter(|f| (f.ends_with(".yaml") || f.ends_with(".yml")) && !inputs.contains(&f.as_str()))
        .cloned()
        .collect();
    for f in &skipped {
        cf.remove(f);
    }
    assert_eq!(
        cc, vc,
        "exit status of check and convert differ on {inputs:?}"
    );
    for (file, c) in &cf {
        assert_eq!(Some(c), vf.get(file), "check and convert differ on {file}");
    }
    assert_eq!(
        cf.keys().collect::<Vec<_>>(),
        vf.keys().collect::<Vec<_>>(),
        "{inputs:?}"
    );
    (cc, cf)
}

fn totals(f: &Facts) -> (u64, u64, usize) {
    (
        f.values().map(|v| v.0).sum(),
        f.values().map(|v| v.1).sum(),
        f.values().filter(|v| v.3).count(),
    )
}

#[test]
fn check_and_convert_agree_on_every_file_of_the_corpus() {
    let root = Path::new(REPO);
    let scratch = common::scratch_dir("agree-corpus");
    // Each directory as a batch …
    for dir in ["corpus/zrf", "corpus/ludii", "corpus/chessembly", "corpus"] {
        let (code, facts) = agree(root, &[dir], &[], &scratch);
        assert_eq!(code, 1, "{dir} holds `_err_` cases");
        assert!(!facts.is_empty(), "{dir}");
    }
    // … and every file on its own, whatever its extension (YAML, English text, `.cases`).
    let files = common::walk(&root.join("corpus"));
    assert!(files.len() > 60, "{}", files.len());
    for f in &files {
        let rel = f.strip_prefix(root).unwrap().to_str().unwrap();
        let (code, facts) = agree(root, &[rel], &[], &scratch);
        let (errors, warnings, failed) = totals(&facts);
        assert_eq!(code, if failed > 0 { 1 } else { 0 }, "{rel}");
        assert_eq!(failed > 0, errors > 0, "{rel}");
        // Strict mode fails warnings as well, in both.
        let (code, _) = agree(root, &[rel], &["--deny", "warnings"], &scratch);
        assert_eq!(code, i32::from(errors + warnings > 0), "{rel}");
    }
}

#[test]
fn check_and_convert_agree_on_the_shared_corpus() {
    let Some(dir) = common::shared_zrf() else {
        return;
    };
    let scratch = common::scratch_dir("agree-shared");
    let (code, facts) = agree(Path::new(REPO), &[dir.to_str().unwrap()], &[], &scratch);
    assert_eq!(code, 0);
    let (errors, warnings, failed) = totals(&facts);
    assert_eq!((facts.len(), errors, failed), (434, 0, 0));
    // The README's figure: the authors' own mistakes, `varify` among them.
    assert_eq!(warnings, 40);
    let evoluchess = facts
        .iter()
        .find(|(f, _)| f.ends_with("dagaz/chess/evoluchess.zrf"))
        .expect("evoluchess.zrf");
    assert!(
        evoluchess.1.2.contains_key("zrf::unknown-instruction"),
        "{evoluchess:?}"
    );
}

/// A scratch directory with the inputs every subcommand used to pass without reading.
fn unreadable_inputs(name: &str) -> PathBuf {
    let dir = common::scratch_dir(name);
    std::fs::write(dir.join("empty.zrf"), "").unwrap();
    std::fs::write(dir.join("blank.zrf"), "  \n\n").unwrap();
    let binary: Vec<u8> = (0..16384u32).map(|i| (i * 7919 % 251) as u8).collect();
    std::fs::write(dir.join("binary.zrf"), binary).unwrap();
    let mut utf16 = vec![0xFF, 0xFE];
    for u in "(game (title \"x\"))\r\n".encode_utf16() {
        utf16.extend(u.to_le_bytes());
    }
    std::fs::write(dir.join("utf16.zrf"), &utf16).unwrap();
    std::fs::write(dir.join("utf16-nobom.zrf"), &utf16[2..]).unwrap();
    let full = std::fs::read(Path::new(REPO).join("corpus/zrf/variant_001.zrf")).unwrap();
    std::fs::write(dir.join("truncated.zrf"), &full[..full.len() / 2]).unwrap();
    std::fs::copy(
        Path::new(REPO).join("corpus/zrf/board_err_too_large.zrf"),
        dir.join("huge.zrf"),
    )
    .unwrap();
    dir
}

const UNREADABLE: [(&str, &str); 7] = [
    ("binary.zrf", "error[text::binary]"),
    ("blank.zrf", "error[text::empty]"),
    ("empty.zrf", "error[text::empty]"),
    ("huge.zrf", "error[spec::board-too-large]"),
    ("truncated.zrf", "error[zrf::"),
    ("utf16-nobom.zrf", "error[text::utf-16]"),
    ("utf16.zrf", "error[text::utf-16]"),
];

#[test]
fn unreadable_inputs_fail_check_and_convert_alike() {
    let dir = unreadable_inputs("unreadable-cc");
    let scratch = dir.join("scratch");
    for (file, code) in UNREADABLE {
        let (status, facts) = agree(&dir, &[file], &[], &scratch);
        assert_eq!(status, 1, "{file}");
        assert_eq!(totals(&facts).2, 1, "{file}");
        let o = run_in(&dir, &["check", file]);
        let out = text(&o);
        let at = out.find(code).unwrap_or_else(|| panic!("{file}: {out}"));
        // Located: the line after the message names file:line:col.
        let arrow = out[at..].lines().nth(1).unwrap_or_default();
        assert!(
            arrow.trim_start().starts_with(&format!("--> {file}:")),
            "{file}: {out}"
        );
    }
    // The byte that makes a file binary is where the arrow points.
    let out = text(&run_in(&dir, &["check", "binary.zrf"]));
    assert!(
        out.contains("byte 0 is the control character 0x00: binary data, not a rule file; it is not read\n --> binary.zrf:1:1"),
        "{out}"
    );
}

#[test]
fn directories_without_inputs_are_refused_by_check_and_convert() {
    let dir = common::scratch_dir("no-inputs");
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    std::fs::create_dir_all(dir.join("ludii")).unwrap();
    std::fs::copy(
        Path::new(REPO).join("corpus/ludii/chess.lud"),
        dir.join("ludii/chess.lud"),
    )
    .unwrap();
    let scratch = dir.join("scratch");
    let (code, facts) = agree(&dir, &["empty"], &[], &scratch);
    assert_eq!((code, facts.len()), (2, 0));
    let out = text(&run_in(&dir, &["check", "empty"]));
    assert!(out.contains("error: no input files found"), "{out}");
    // A directory of Ludii files is searched for them by both.
    let (code, facts) = agree(&dir, &["ludii"], &[], &scratch);
    assert_eq!((code, facts.len()), (0, 1), "{facts:?}");
}

#[test]
fn a_missing_path_still_gives_a_json_report() {
    let dir = common::scratch_dir("rt-missing");
    let o = run_in(&dir, &["roundtrip", "--format", "json", "missing.zrf"]);
    assert_eq!(o.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        v["error"].as_str().unwrap().starts_with("missing.zrf: "),
        "{v}"
    );
    assert_eq!(v["files"], serde_json::json!([]));
    assert_eq!(v["summary"]["files"], 0);
}

#[test]
fn roundtrip_fails_inputs_it_could_not_read_in_every_report_format() {
    let dir = unreadable_inputs("unreadable-rt");
    for (file, code) in UNREADABLE {
        let o = run_in(&dir, &["roundtrip", file]);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(1), "{file}: {out}");
        assert!(out.contains(&format!("FAIL {file}")), "{file}: {out}");
        assert!(!out.contains("ok ("), "{file}: {out}");
        // The input's own errors are reported, located.
        let code = &code["error[".len()..code.len() - 1];
        assert!(
            out.contains(&format!("{file}:")) && out.contains(code),
            "{file}: {out}"
        );
        let o = run_in(&dir, &["roundtrip", "--format", "json", file]);
        assert_eq!(o.status.code(), Some(1), "{file}");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["files"][0]["passed"], false, "{file}");
        assert_eq!(v["summary"]["failed_files"], 1, "{file}");
        // Its problems are structured diagnostics, as `check --format json` gives them.
        let p = &v["files"][0]["problems"][0];
        assert!(
            p["code"].as_str().is_some_and(|c| c.starts_with(code)),
            "{file}: {p}"
        );
        assert_eq!(p["severity"], "error", "{file}: {p}");
        assert_eq!(p["stage"], "input", "{file}: {p}");
        assert_eq!(p["location"]["file"], *file, "{file}: {p}");
        assert!(p["location"]["line"].as_u64().is_some(), "{file}: {p}");
        let o = run_in(&dir, &["roundtrip", "--format", "junit", file]);
        assert_eq!(o.status.code(), Some(1), "{file}");
        let xml = String::from_utf8_lossy(&o.stdout);
        assert!(
            xml.contains("<failure message=\"the input does not read cleanly"),
            "{file}: {xml}"
        );
    }
    // The truncated file's syntax errors are named with their lines.
    let out = text(&run_in(&dir, &["roundtrip", "truncated.zrf"]));
    assert!(
        out.contains("truncated.zrf:") && out.contains("error[zrf::"),
        "{out}"
    );
}

/// A YAML spec whose source encoding cannot hold one of its titles.
fn unencodable_spec(dir: &Path) -> PathBuf {
    let o = run_in(
        Path::new(REPO),
        &["convert", "corpus/zrf/variant_001.zrf", "--to", "yaml"],
    );
    assert!(o.status.success());
    let yaml = String::from_utf8(o.stdout).unwrap();
    assert!(yaml.contains("encoding: utf-8"), "{yaml}");
    let yaml = yaml
        .replacen("encoding: utf-8", "encoding: windows-1252", 1)
        .replacen("title: ", "title: 将棋 ", 1);
    let p = dir.join("spec.yaml");
    std::fs::write(&p, yaml).unwrap();
    p
}

#[test]
fn a_writer_error_fails_convert_in_its_status_summary_and_report() {
    let dir = common::scratch_dir("emit-error");
    unencodable_spec(&dir);
    let o = run_in(
        &dir,
        &[
            "convert",
            "spec.yaml",
            "--to",
            "zrf",
            "-o",
            "out.zrf",
            "--report",
            "r.json",
        ],
    );
    let err = text(&o);
    assert!(err.contains("error[zrf::emit-encoding]"), "{err}");
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("0 of 1 file to zrf, 1 failed"), "{err}");
    assert!(
        !dir.join("out.zrf").exists(),
        "a failed file is not written"
    );
    let r: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("r.json")).unwrap()).unwrap();
    assert_eq!(r["files"][0]["failed"], true);
    assert_eq!(r["files"][0]["errors"], 1);
    assert_eq!(r["summary"]["failed"], 1);
}

#[test]
fn deny_warnings_fails_check_convert_and_roundtrip() {
    // macro_001.zrf reads with warnings and no error.
    let root = Path::new(REPO);
    let file = "corpus/zrf/macro_001.zrf";
    let o = run_in(root, &["check", file]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = run_in(root, &["check", "--deny", "warnings", file]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains(
            "files with warnings (denied by --deny warnings):\n  corpus/zrf/macro_001.zrf"
        ),
        "{out}"
    );
    let dir = common::scratch_dir("deny");
    let out_file = dir.join("m.yaml");
    let o = run_in(
        root,
        &[
            "convert",
            file,
            "--to",
            "yaml",
            "--deny",
            "warnings",
            "-o",
            out_file.to_str().unwrap(),
        ],
    );
    let err = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("(--deny warnings); nothing written"), "{err}");
    assert!(!out_file.exists());
    let o = run_in(root, &["roundtrip", file]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = run_in(root, &["roundtrip", "--deny", "warnings", file]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("warning[zrf::unknown-instruction]"), "{out}");
}

#[test]
fn expand_and_fmt_refuse_what_is_not_text() {
    let dir = unreadable_inputs("unreadable-other");
    for (file, code) in [
        ("binary.zrf", "error[text::binary]"),
        ("utf16.zrf", "error[text::utf-16]"),
        ("utf16-nobom.zrf", "error[text::utf-16]"),
        ("empty.zrf", "error[text::empty]"),
    ] {
        let o = run_in(&dir, &["expand", file]);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(1), "expand {file}: {out}");
        assert!(out.contains(code), "expand {file}: {out}");
        assert!(
            out.contains(&format!("--> {file}:1:")),
            "expand {file}: {out}"
        );
        if file != "empty.zrf" {
            // An empty file is already formatted; data that is not text is an error.
            let o = run_in(&dir, &["fmt", "--check", file]);
            let out = text(&o);
            assert_eq!(o.status.code(), Some(1), "fmt {file}: {out}");
            assert!(out.contains(code), "fmt {file}: {out}");
        }
    }
}

#[test]
fn a_second_text_form_is_reported_where_it_replaces_the_first() {
    let dir = common::scratch_dir("duplicate-text");
    std::fs::write(
        dir.join("hist.zrf"),
        "(game (title \"G\") (players A B) (turn-order A B)\n  (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"2/1\" (0 10))) (directions (n 0 -1))))\n  (piece (name P) (moves (n add))) (board-setup (A (P a1))))\n(variant (title \"V\")\n  (history \"one\")\n  (history \"two\"))\n",
    )
    .unwrap();
    for args in [
        &["check", "hist.zrf"][..],
        &["convert", "hist.zrf", "--to", "zrf"],
    ] {
        let out = text(&run_in(&dir, args));
        assert!(
            out.contains("warning[zrf::duplicate-text]: a second `(history …)` in the same form: the spec holds one history, so this one is kept and the earlier \"one\" is dropped\n --> hist.zrf:6:3"),
            "{args:?}: {out}"
        );
    }
}

#[test]
fn the_zrf_writer_warns_when_a_source_string_is_left_out() {
    let dir = common::scratch_dir("lost-source");
    let yaml =
        std::fs::read_to_string(Path::new(REPO).join("golden/zrf/lineendings_crlf_001.yaml"))
            .unwrap();
    let edited = yaml.replacen(
        "description: \"line one\\nline two",
        "description: \"line 1\\nline two",
        1,
    );
    assert_ne!(edited, yaml);
    std::fs::write(dir.join("edited.yaml"), edited).unwrap();
    let o = run_in(&dir, &["convert", "edited.yaml", "--to", "zrf"]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("warning[zrf::emit-lost-source]: game \"CRLF\": the description text differs from its exact source string (texts.source)"),
        "{out}"
    );
    // Unchanged, the source string is written as it was: no warning.
    std::fs::write(dir.join("same.yaml"), yaml).unwrap();
    let out = text(&run_in(&dir, &["convert", "same.yaml", "--to", "zrf"]));
    assert!(!out.contains("emit-lost-source"), "{out}");
    assert!(out.contains("0 failed, 0 warnings"), "{out}");
}

#[test]
fn writer_diagnostics_are_capped_like_reader_diagnostics() {
    let o = common::zogkit(&["convert", "corpus/zrf/tai_shogi.zrf", "--to", "lud"]);
    let err = String::from_utf8_lossy(&o.stderr);
    let listed = err.matches("warning[ludii::not-expressible]").count();
    assert_eq!(listed, 101, "100 listed and one that counts the rest");
    assert!(
        err.contains(
            "more warnings with code `ludii::not-expressible` from here on are not listed"
        ),
        "{err}"
    );
}

/// The `source` map of `convert FILE --to yaml`, as `key: value` lines in the written order.
fn source_block(dir: &Path, file: &str) -> String {
    let o = run_in(dir, &["convert", file, "--to", "yaml"]);
    assert!(o.status.success(), "{}", text(&o));
    let yaml = String::from_utf8(o.stdout).unwrap();
    let doc: serde_yaml::Value = serde_yaml::from_str(&yaml).unwrap();
    doc["source"]
        .as_mapping()
        .unwrap()
        .iter()
        .map(|(k, v)| format!("{}: {}", k.as_str().unwrap(), v.as_str().unwrap()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn ludii_and_chessembly_sources_record_the_bytes_read() {
    let dir = common::scratch_dir("source-facts");
    // A Windows-1252 `.lud` file with classic Mac (CR) line endings and a comment.
    let lud = std::fs::read_to_string(Path::new(REPO).join("corpus/ludii/tictactoe.lud"))
        .unwrap()
        .replace("\r\n", "\n")
        .replace('\n', "\r");
    let mut bytes = b"// Morpion, caf\xE9 et th\xE9\r".to_vec();
    bytes.extend(lud.as_bytes());
    std::fs::write(dir.join("w1252.lud"), &bytes).unwrap();
    assert_eq!(
        source_block(&dir, "w1252.lud"),
        format!(
            "format: lud\nfile: w1252.lud\nencoding: windows-1252\nline_endings: cr\nsha256: {}",
            sha256_hex(&bytes)
        )
    );
    // A Chessembly script with a UTF-8 byte-order mark and CRLF line endings.
    let csm = std::fs::read_to_string(Path::new(REPO).join("corpus/chessembly/rook.csm"))
        .unwrap()
        .replace("\r\n", "\n")
        .replace('\n', "\r\n");
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend(csm.as_bytes());
    std::fs::write(dir.join("rook.csm"), &bytes).unwrap();
    assert_eq!(
        source_block(&dir, "rook.csm"),
        format!(
            "format: chessembly\nfile: rook.csm\nencoding: utf-8\nline_endings: crlf\nsha256: {}",
            sha256_hex(&bytes)
        )
    );
}

/// What a writer cannot place is located in the source file read in this run: `convert --to
/// lud` and `--to fsf` point each lost move block at the block's text (here a macro call, shown
/// at its call site), not only at the file.
#[test]
fn writer_warnings_point_at_the_lost_block_in_the_source() {
    // Minishogi's promoting slides are said by both writers since they print from the
    // movement table; a macro-heavy file still loses blocks in `.lud`, and a draughts jump in
    // `variants.ini`.
    const MACROS: &str = "corpus/zrf/macro_001.zrf";
    const JUMP: &str = "corpus/zrf/fsf_err_jump.zrf";
    let root = Path::new(REPO);
    let scratch = common::scratch_dir("writer-located");
    let block = |game: &str, needle: &str| common::line_col_of(root.join(game), needle);
    let cases = [
        (
            MACROS,
            "lud",
            "warning[ludii::not-expressible]: move block 1 of piece `King`",
            block(MACROS, "(slide n e)"),
        ),
        (
            JUMP,
            "fsf",
            "warning[fsf::not-expressible]: Jumpers: piece `Man`, move block 4:",
            block(JUMP, "(jump ne)"),
        ),
        (
            MACROS,
            "lud",
            "warning[ludii::not-expressible]: move block 1 of piece `WhiteRook`",
            block(MACROS, "(chess-piece White Rook)"),
        ),
    ];
    for (game, to, head, at) in cases {
        let out = scratch.join(format!("out.{to}"));
        let o = run_in(
            root,
            &[
                "convert",
                game,
                "--to",
                to,
                "--force",
                "-o",
                out.to_str().unwrap(),
            ],
        );
        let all = text(&o);
        let i = all
            .find(head)
            .unwrap_or_else(|| panic!("no {head:?} in:\n{all}"));
        let located = all[i..].lines().nth(1).unwrap_or("");
        assert_eq!(
            located.trim(),
            format!("--> {game}:{at}"),
            "{to}: {head}\n{all}"
        );
    }
}

/// The ZRF and Chessembly writers locate their warnings as the `.lud` and Fairy-Stockfish ones
/// do (`format::write_at`): at the move block, else the piece, else the game, in a ZRF source
/// and in a `.lud` source (whose reader records where its game and pieces stand).
#[test]
fn zrf_and_chessembly_writer_warnings_are_located_in_the_source() {
    let root = Path::new(REPO);
    let scratch = common::scratch_dir("writer-located-zrf-csm");
    // A piece with a move type: Chessembly has none, so the block's type is dropped.
    let zrf = scratch.join("typed.zrf");
    std::fs::write(
        &zrf,
        "(game (title \"Typed\") (players White Black) (turn-order White Black)\n\
         (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"2/1\" (0 10)))\n\
           (directions (n 0 -1) (s 0 1))) (symmetry Black (n s) (s n)))\n\
         (piece (name Rook) (image White \"w.bmp\" Black \"b.bmp\")\n\
           (moves\n\
             (move-type slide)\n\
             (n (verify empty?) add)))\n\
         (board-setup (White (Rook a1)) (Black (Rook b2))))\n",
    )
    .unwrap();
    let lud = "corpus/ludii/chess.lud";
    let cases = [
        (
            zrf.to_str().unwrap(),
            "chessembly",
            "warning[chessembly::unemittable]: move block 1 of piece `Rook` has a move type",
            common::line_col_of(&zrf, "(n (verify"),
        ),
        (
            lud,
            "zrf",
            "warning[zrf::emit-no-images]: game \"Chess\"",
            common::line_col_of(root.join(lud), "(game \"Chess\""),
        ),
        (
            lud,
            "zrf",
            "warning[zrf::emit-unsupported]: game \"Chess\": 1 Ludii item(s)",
            common::line_col_of(root.join(lud), "(game \"Chess\""),
        ),
        // A Chessembly source: a lost block at the chain it comes from.
        (
            "corpus/chessembly/alfil.csm",
            "lud",
            "warning[ludii::not-expressible]: move block 2 of piece `alfil`",
            common::line_col_of(root.join("corpus/chessembly/alfil.csm"), "take-move(2, -2)"),
        ),
    ];
    for (input, to, head, at) in cases {
        let o = run_in(root, &["convert", input, "--to", to]);
        let all = text(&o);
        let i = all
            .find(head)
            .unwrap_or_else(|| panic!("no {head:?} in:\n{all}"));
        let located = all[i..].lines().nth(1).unwrap_or("");
        assert_eq!(
            located.trim(),
            format!("--> {input}:{at}"),
            "{to}: {head}\n{all}"
        );
    }
}
