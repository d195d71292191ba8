//! Golden tests for the hand-written ZRF corpus: for every `corpus/zrf/*.zrf`, the output of
//! `zogkit check -v`, `zogkit expand` (and `zogkit board` for `board_*` files) in
//! `golden/zrf/<name>.txt`, and the spec YAML of `zogkit convert --to yaml` in
//! `golden/zrf/<name>.yaml` for every file that converts. A file whose first line is
//! `; zogkit-args: ARGS` runs every command with ARGS (global options such as `--limit`), so a
//! limit's case stays small.

use crate::common;

use std::path::Path;

/// Expansion listings longer than this are summarised by size in the golden (Tai Shogi).
const MAX_LISTING: usize = 20_000;

/// The extra arguments a corpus file asks for on its first line (`; zogkit-args: ARGS`).
fn extra_args(rel: &str) -> Vec<String> {
    let bytes = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap();
    let first = String::from_utf8_lossy(bytes.split(|&b| b == b'\n').next().unwrap_or(&[]));
    first
        .trim_end()
        .strip_prefix("; zogkit-args:")
        .map(|a| a.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// Runs `zogkit CMD ARGS… REL` and returns the output and the command line shown.
fn run(cmd: &[&str], extra: &[String], rel: &str) -> (std::process::Output, String) {
    let mut args: Vec<&str> = cmd.to_vec();
    args.extend(extra.iter().map(String::as_str));
    args.push(rel);
    (
        common::zogkit(&args),
        format!("$ zogkit {}\n", args.join(" ")),
    )
}

fn transcript(rel: &str) -> String {
    let mut t = String::new();
    let extra = extra_args(rel);
    let (out, line) = run(&["check", "-v"], &extra, rel);
    t.push_str(&line);
    t.push_str(&String::from_utf8_lossy(&out.stdout));
    t.push_str(&format!("exit: {}\n", out.status.code().unwrap_or(-1)));
    let (out, line) = run(&["expand"], &extra, rel);
    t.push('\n');
    t.push_str(&line);
    let listing = String::from_utf8_lossy(&out.stdout);
    if listing.len() > MAX_LISTING {
        let headers: Vec<&str> = listing.lines().filter(|l| l.starts_with(";; ")).collect();
        t.push_str(&format!(
            "({} bytes, {} lines; entry headers follow)\n{}\n",
            listing.len(),
            listing.lines().count(),
            headers.join("\n")
        ));
    } else {
        t.push_str(&listing);
        if !listing.ends_with('\n') {
            t.push('\n');
        }
    }
    t.push_str(&format!("exit: {}\n", out.status.code().unwrap_or(-1)));
    if rel.contains("/board_") {
        let (out, line) = run(&["board"], &extra, rel);
        t.push('\n');
        t.push_str(&line);
        t.push_str(&String::from_utf8_lossy(&out.stdout));
        // `board` prints its lowering diagnostics on standard error.
        t.push_str(&String::from_utf8_lossy(&out.stderr));
        t.push_str(&format!("exit: {}\n", out.status.code().unwrap_or(-1)));
    }
    t
}

/// The spec YAML of a file that converts (`None` when conversion fails, as `_err_` cases do,
/// or when the document is too large to be a useful golden).
fn spec_yaml(rel: &str) -> Option<String> {
    let (out, _) = run(&["convert", "--to", "yaml"], &extra_args(rel), rel);
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && text.len() <= 200_000).then_some(text)
}

#[test]
fn zrf_corpus_matches_goldens() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(root.join("corpus/zrf"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "zrf"))
        .collect();
    files.sort();
    assert!(files.len() >= 20);
    let mut failures = Vec::new();
    for p in &files {
        let name = p.file_name().unwrap().to_str().unwrap();
        let rel = format!("corpus/zrf/{name}");
        let golden = format!("zrf/{}.txt", name.trim_end_matches(".zrf"));
        let t = transcript(&rel);
        // 101 is Rust's exit status for a panic: no input may ever cause one.
        assert!(!t.contains("exit: 101"), "{rel} makes zogkit panic:\n{t}");
        if let Err(e) = common::check_golden(&golden, &t) {
            failures.push(e);
        }
        if let Some(yaml) = spec_yaml(&rel) {
            let golden = format!("zrf/{}.yaml", name.trim_end_matches(".zrf"));
            if let Err(e) = common::check_golden(&golden, &yaml) {
                failures.push(e);
            }
        } else {
            assert!(
                name.contains("_err_") || name == "tai_shogi.zrf",
                "{rel} should convert to a golden spec"
            );
        }
        // Every `_err_` case must produce at least one diagnostic.
        if name.contains("_err_") {
            let text = &t;
            assert!(
                text.contains("warning[") || text.contains("error[") || text.contains("note["),
                "{rel} is an _err_ case but reports nothing"
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_diagnostic_code_has_an_err_case() {
    // Codes the ZRF reader can emit; each must be demonstrated by a corpus case.
    let codes = [
        "zrf::unbalanced-paren",
        "zrf::unclosed-paren",
        "zrf::unterminated-string",
        "zrf::too-deep",
        "zrf::unicode-space",
        "zrf::unknown-top-level",
        "zrf::bad-define",
        "zrf::bad-include",
        "zrf::include-not-found",
        "zrf::include-cycle",
        "zrf::macro-redefined",
        "zrf::macro-arity",
        "zrf::unbound-param",
        "zrf::macro-recursive",
        "zrf::expansion-too-large",
        "zrf::variant-without-game",
        "text::weak-encoding-guess",
        "text::not-reencodable",
        "text::utf-16",
        "text::empty",
        "spec::unknown-direction",
        "spec::board-too-large",
        "zrf::duplicate-text",
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/zrf");
    let all: String = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains("_err_"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    for c in codes {
        assert!(all.contains(&format!("[{c}]")), "no _err_ golden shows {c}");
    }
}
