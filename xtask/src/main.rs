//! Project chores: `cargo xtask bench | build-times | corpus | dist | lud-writer | truncate | docs | fuzz | ludii | golden | fonts` (std-only apart from zogkit itself).

mod build_times;
mod docs;
mod engine_bench;
mod fonts;
mod fuzz;
mod fuzz_files;
mod fuzz_surfaces;
mod lud_writer;
mod ludii;
mod ludii_play;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

const USAGE: &str = "usage: cargo xtask <task>

tasks:
  bench [--runs N] [--engine [--zogkit BIN]]
                             time the release CLI on the shared corpus (check = decode+parse+expand),
                             then the engine: perft paired run by run with native Fairy-Stockfish
                             (../shared/tools/fsf), ratios of compute time, and slow real games
                             (--engine: the engine part alone, of BIN when given)
  build-times                issue 18's figures from a fresh copy of HEAD in target/build-times:
                             cold test build, test run, README main job, one-file edit + test, cold release build
  corpus [--check]           convert the shared corpus with a JSON report and write the summary
                             golden/corpus-report.md (--check: fail if it would change)
  lud-writer [--zogkit BIN]  convert the shared corpus to .lud, run the Ludii oracle over it (compile,
                             start moves) and compare with the engine; writes
                             golden/lud-writer-report.md (default BIN: the release CLI, built first)
  truncate [--offsets N]     cut every shared corpus file at N evenly spaced offsets and convert
                             each cut (read, lower, write every format, render): reports panics
                             and cuts over 1 s (default 50)
  dist                       build the release CLI and write it with shell completions and man
                             pages (generated from the CLI definition) into TARGET/dist/
                             (TARGET: cargo's target directory, CARGO_TARGET_DIR if set)
  docs [--check]             write docs/spec.md from the spec types (--check: fail if stale)
  fuzz [--secs N] [--seed S] [--target zrf|yaml|csm|lud|english|includes|cli|jar|zsg|ini|catalogue]
                             seeded mutation fuzzing (N seconds per target, default 20);
                             findings are minimised into target/fuzz-findings/
  fuzz --replay FILE...      time each stage (read, every writer, render) on saved inputs
  ludii --play [--depth D] [--zogkit BIN] [--ludii JAR] [--check]
                             play every game of Ludii's library with the engine (perft to depth D,
                             default 2) against real Ludii's perft; write golden/ludii-play-report.md
  ludii [--ludii JAR] [--check] [--why]
                             read Ludii's whole board-game library (from the jar, default
                             ../shared/tools/ludii/ludii-res.jar), compare with the Ludii oracle's
                             facts (cached in target/ludii-facts), do the same with the English
                             Ludii generates for each game (cached in target/ludii-english) and
                             write golden/ludii-library-report.md (--check: fail if it would change;
                             --why: list the files whose boards or placements differ, grouped
                             by cause)
  golden                     rewrite golden files and images (UPDATE_GOLDEN=1 cargo test) for review
  fonts [--tai PATH] [--only chess]
                             regenerate the font subsets in assets/fonts/ (needs Debian's
                             fonts-noto-cjk, fonts-hanazono and fonts-noto-core, and pip's
                             fonttools; `--only chess`: the chess-glyph subset alone)
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let flag = |name: &str, default: usize| -> usize {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let ok = match args.first().map(String::as_str) {
        Some("bench") if args.iter().any(|a| a == "--engine") => {
            let bin = args
                .iter()
                .position(|a| a == "--zogkit")
                .and_then(|i| args.get(i + 1))
                .map(PathBuf::from);
            match bin {
                Some(bin) => engine_bench::run(&root, &bin, flag("--runs", 5)),
                None => {
                    build_release(&root)
                        && engine_bench::run(
                            &root,
                            &root.join("target/release/zogkit"),
                            flag("--runs", 5),
                        )
                }
            }
        }
        Some("bench") => bench(&root, flag("--runs", 10)),
        Some("build-times") => build_times::build_times(&root),
        Some("lud-writer") => {
            let bin = args
                .iter()
                .position(|a| a == "--zogkit")
                .and_then(|i| args.get(i + 1))
                .map(PathBuf::from);
            match lud_writer::run(&root, bin) {
                Ok(()) => true,
                Err(e) => {
                    eprintln!("error: {e}");
                    false
                }
            }
        }
        Some("truncate") => truncate(&root, flag("--offsets", 50)),
        Some("corpus") => corpus(&root, args.iter().any(|a| a == "--check")),
        Some("dist") => dist(&root),
        Some("fuzz") if args.get(1).map(String::as_str) == Some("--replay") => {
            fuzz::replay(&args[2..].iter().map(PathBuf::from).collect::<Vec<_>>())
        }
        Some("fuzz") => {
            let targets: Vec<String> = match value("--target") {
                Some(t) => vec![t],
                None => [
                    "zrf",
                    "yaml",
                    "csm",
                    "lud",
                    "english",
                    "includes",
                    "cli",
                    "jar",
                    "zsg",
                    "ini",
                    "catalogue",
                ]
                .map(String::from)
                .to_vec(),
            };
            fuzz::fuzz(
                &root,
                flag("--secs", 20) as u64,
                flag("--seed", 1) as u64,
                &targets,
            )
        }
        Some("docs") => {
            run(Command::new(cargo())
                .args(["build", "--release", "--quiet", "--bin", "zogkit"])
                .current_dir(&root))
                && match docs::docs(&root, args.iter().any(|a| a == "--check")) {
                    Ok(()) => true,
                    Err(e) => {
                        eprintln!("error: {e}");
                        false
                    }
                }
        }
        Some("fonts") => match fonts::fonts(&args[1..]) {
            Ok(()) => true,
            Err(e) => {
                eprintln!("error: {e}");
                false
            }
        },
        Some("ludii") if args.iter().any(|a| a == "--play") => {
            let bin = match value("--zogkit") {
                Some(b) => PathBuf::from(b),
                None => {
                    if !run(Command::new(cargo())
                        .args(["build", "--release", "--quiet", "--bin", "zogkit"])
                        .current_dir(&root))
                    {
                        return ExitCode::FAILURE;
                    }
                    release_bin(&root)
                }
            };
            ludii_play::play(
                &root,
                value("--ludii").map(PathBuf::from),
                &bin,
                flag("--depth", 2) as u32,
                args.iter().any(|a| a == "--check"),
            )
        }
        Some("ludii") => ludii::ludii(
            &root,
            args.iter()
                .position(|a| a == "--ludii")
                .and_then(|i| args.get(i + 1))
                .map(PathBuf::from),
            args.iter().any(|a| a == "--check"),
            args.iter().any(|a| a == "--why"),
        ),
        Some("golden") | Some("bless") => run(Command::new(cargo())
            .args(["test", "--workspace"])
            .env("UPDATE_GOLDEN", "1")
            .current_dir(&root)),
        _ => {
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Cargo's target directory for this workspace: `target_directory` of `cargo metadata` (which
/// follows `CARGO_TARGET_DIR` and `build.target-dir`), else `CARGO_TARGET_DIR` (relative to
/// the workspace root), else `ROOT/target`.
pub(crate) fn target_dir(root: &Path) -> PathBuf {
    let from_metadata = Command::new(cargo())
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root)
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| serde_json::from_slice::<serde_json::Value>(&o.stdout).ok())
        .and_then(|v| v["target_directory"].as_str().map(PathBuf::from));
    from_metadata
        .or_else(|| {
            std::env::var_os("CARGO_TARGET_DIR")
                .filter(|d| !d.is_empty())
                .map(|d| root.join(d))
        })
        .unwrap_or_else(|| root.join("target"))
}

/// The release binary of zogkit in [`target_dir`].
pub(crate) fn release_bin(root: &Path) -> PathBuf {
    target_dir(root)
        .join("release")
        .join(format!("zogkit{}", std::env::consts::EXE_SUFFIX))
}

/// `cargo xtask dist`: the release binary, shell completions and man pages in `TARGET/dist/`
/// (`TARGET` is [`target_dir`]); every failure is reported with its cause.
fn dist(root: &Path) -> bool {
    match dist_steps(root) {
        Ok(dist) => {
            println!(
                "dist: {} holds bin/, completions/ and man/ (see the README to install them)",
                dist.display()
            );
            true
        }
        Err(e) => {
            eprintln!("dist: {e}");
            false
        }
    }
}

fn dist_steps(root: &Path) -> Result<PathBuf, String> {
    let status = Command::new(cargo())
        .args(["build", "--release", "--quiet", "--bin", "zogkit"])
        .current_dir(root)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("cargo build --release failed ({status})"));
    }
    let bin = release_bin(root);
    if !bin.is_file() {
        return Err(format!(
            "the release binary is not at {} after the build",
            bin.display()
        ));
    }
    let dist = target_dir(root).join("dist");
    if dist.exists() {
        std::fs::remove_dir_all(&dist)
            .map_err(|e| format!("cannot remove the old {}: {e}", dist.display()))?;
    }
    let out = Command::new(&bin)
        .arg("dist-assets")
        .arg(&dist)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} dist-assets failed ({}): {}",
            bin.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let name = bin.file_name().unwrap_or_default();
    std::fs::create_dir_all(dist.join("bin"))
        .and_then(|()| std::fs::copy(&bin, dist.join("bin").join(name)))
        .map_err(|e| format!("cannot copy the binary into {}: {e}", dist.display()))?;
    Ok(dist)
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

fn run(cmd: &mut Command) -> bool {
    cmd.status().map(|s| s.success()).unwrap_or(false)
}

fn shared_corpus(root: &Path) -> PathBuf {
    root.join("../shared/corpus/zrf")
}

/// Times whole CLI runs: min / median / max wall time and the largest peak memory.
fn bench(root: &Path, runs: usize) -> bool {
    if !build_release(root) {
        return false;
    }
    let exe = release_bin(root);
    let corpus = shared_corpus(root);
    let yaml_out = root.join("target/bench-yaml");
    let site_out = root.join("target/bench-catalogue");
    let cases: Vec<(&str, Vec<String>)> = vec![
        (
            "check shared corpus (decode + parse + expand, 434 files)",
            vec!["check".into(), "-q".into(), corpus.display().to_string()],
        ),
        (
            "convert shared corpus to YAML into an empty directory (read + lower + write, 434 files)",
            vec![
                "convert".into(),
                corpus.display().to_string(),
                "--to".into(),
                "yaml".into(),
                "-q".into(),
                "-o".into(),
                yaml_out.display().to_string(),
            ],
        ),
        (
            "roundtrip shared corpus (read → spec → ZRF → read → spec, compare; 434 files)",
            vec![
                "roundtrip".into(),
                "-q".into(),
                "--no-yaml".into(),
                corpus.display().to_string(),
            ],
        ),
        (
            "roundtrip shared corpus plus YAML byte stability (default run)",
            vec![
                "roundtrip".into(),
                "-q".into(),
                corpus.display().to_string(),
            ],
        ),
        (
            "catalogue of the shared corpus into an empty directory (read, roundtrip, convert to 3 formats, draw, HTML; 434 files; target < 10 s, < 300 MB)",
            vec![
                "catalogue".into(),
                "-q".into(),
                "-o".into(),
                site_out.display().to_string(),
                corpus.display().to_string(),
            ],
        ),
        (
            "perft(4) with six Chessembly-scripted chess pieces",
            vec!["perft".into(), "--depth".into(), "4".into()],
        ),
        (
            "perft(5) with six Chessembly-scripted chess pieces",
            vec!["perft".into(), "--depth".into(), "5".into()],
        ),
        (
            "engine perft(5) of chess from dagaz/chess/chess.zrf (4,865,609; target < 5 s)",
            vec![
                "perft".into(),
                corpus.join("dagaz/chess/chess.zrf").display().to_string(),
                "--depth".into(),
                "5".into(),
            ],
        ),
        (
            "engine perft(4) of shogi from dagaz/shogi-family/shogi.zrf (718,566; target < 5 s)",
            vec![
                "perft".into(),
                corpus
                    .join("dagaz/shogi-family/shogi.zrf")
                    .display()
                    .to_string(),
                "--depth".into(),
                "4".into(),
            ],
        ),
        (
            "engine perft(2) of Tai Shogi from corpus/zrf/tai_shogi.zrf (25x25; target < 1 s)",
            vec![
                "perft".into(),
                root.join("corpus/zrf/tai_shogi.zrf").display().to_string(),
                "--depth".into(),
                "2".into(),
            ],
        ),
        (
            "convert --verify of dagaz/chess/chess.zrf to ZRF (5 games, 200 positions each)",
            vec![
                "convert".into(),
                corpus.join("dagaz/chess/chess.zrf").display().to_string(),
                "--to".into(),
                "zrf".into(),
                "--verify".into(),
                "--force".into(),
                "-q".into(),
                "-o".into(),
                root.join("target/bench-verify.zrf").display().to_string(),
            ],
        ),
    ];
    let mut cases = cases;
    // Ludii's library, extracted from the oracle's jar by the facts test (tests/it/ludii_facts.rs).
    let jar = root.join("../shared/tools/ludii/ludii-res.jar");
    let library = root.join("target/ludii-lib");
    if jar.exists() && library.exists() {
        cases.push((
            "check Ludii's whole board-game library with its defines (--ludii JAR; target < 2 s)",
            vec![
                "--ludii".into(),
                jar.display().to_string(),
                "check".into(),
                "-q".into(),
                library.display().to_string(),
            ],
        ));
    }
    for (name, args) in cases {
        let runs = if name.contains("perft(5)") || name.contains("perft(4) of shogi") {
            runs.clamp(1, 3)
        } else {
            runs
        };
        let mut times = Vec::new();
        let mut peak = 0u64;
        for _ in 0..runs.max(1) {
            // Each conversion writes a fresh tree, as a user's first run does (replacing
            // files with `--force` also syncs each one before the rename).
            for fresh in [&yaml_out, &site_out] {
                if args.iter().any(|a| Path::new(a) == *fresh) {
                    let _ = std::fs::remove_dir_all(fresh);
                }
            }
            let t = Instant::now();
            let out = Command::new(&exe)
                .args(&args)
                .arg("--stats")
                .output()
                .expect("run zogkit");
            times.push(t.elapsed());
            let err = String::from_utf8_lossy(&out.stderr);
            if let Some(kb) = err
                .lines()
                .find_map(|l| l.strip_prefix("stats: "))
                .and_then(|l| l.split("peak ").nth(1))
                .and_then(|l| l.split_whitespace().next())
                .and_then(|k| k.parse::<u64>().ok())
            {
                peak = peak.max(kb);
            }
        }
        times.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "{name}: min {:.0} ms, median {:.0} ms, max {:.0} ms over {} runs; peak memory {:.1} MB",
            ms(times[0]),
            ms(times[times.len() / 2]),
            ms(times[times.len() - 1]),
            times.len(),
            peak as f64 / 1024.0
        );
    }
    bench_replays(root, &exe, runs);
    engine_bench::run(root, &exe, runs.clamp(1, 5))
}

fn build_release(root: &Path) -> bool {
    run(Command::new(cargo())
        .args(["build", "--release", "--quiet", "--bin", "zogkit"])
        .current_dir(root))
}

/// Times `zogkit replay` of every ZoG saved game of the shared corpus (one process each, with
/// the rules file of the same folder), in total per run.
fn bench_replays(root: &Path, exe: &Path, runs: usize) {
    let saves = root.join("../shared/corpus/zsg/dagazproject");
    let mut jobs = Vec::new();
    fuzz::collect(&saves, "zsg", &mut jobs);
    jobs.sort();
    let jobs: Vec<(PathBuf, PathBuf)> = jobs
        .into_iter()
        .filter_map(|zsg| {
            let rel = zsg.parent()?.strip_prefix(&saves).ok()?.to_path_buf();
            let text = std::fs::read(&zsg).ok()?;
            let text = String::from_utf8_lossy(&text);
            let name = text.lines().find_map(|l| l.strip_prefix("RulesFile="))?;
            let name = name.trim().trim_start_matches(".\\").to_string();
            let rules = root
                .join("../shared/corpus/zrf/dagazproject")
                .join(rel)
                .join(name);
            Some((zsg, rules))
        })
        .collect();
    if jobs.is_empty() {
        return;
    }
    let mut times = Vec::new();
    let mut replayed = 0;
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        replayed = 0;
        for (zsg, rules) in &jobs {
            let ok = Command::new(exe)
                .arg("replay")
                .arg(zsg)
                .arg("--rules")
                .arg(rules)
                .output()
                .is_ok_and(|o| o.status.success());
            replayed += usize::from(ok);
        }
        times.push(t.elapsed());
    }
    times.sort();
    println!(
        "replay of the {} shared-corpus ZoG saved games, one process each ({replayed} replay completely; target < 2 s): min {:.0} ms, median {:.0} ms, max {:.0} ms over {} runs",
        jobs.len(),
        times[0].as_secs_f64() * 1000.0,
        times[times.len() / 2].as_secs_f64() * 1000.0,
        times[times.len() - 1].as_secs_f64() * 1000.0,
        times.len()
    );
}

/// Converts the shared corpus with `--report` and summarises it as markdown.
fn corpus(root: &Path, check: bool) -> bool {
    if !run(Command::new(cargo())
        .args(["build", "--release", "--quiet", "--bin", "zogkit"])
        .current_dir(root))
    {
        return false;
    }
    let out = root.join("target/corpus-yaml");
    let report = root.join("target/corpus-report.json");
    let _ = std::fs::remove_dir_all(&out);
    let status = Command::new(release_bin(root))
        .args(["convert", "--to", "yaml", "-q", "--force", "-o"])
        .arg(&out)
        .arg("--report")
        .arg(&report)
        .arg(shared_corpus(root))
        .status();
    if !status.map(|s| s.success()).unwrap_or(false) {
        eprintln!("corpus: conversion failed");
        return false;
    }
    let Ok(text) = std::fs::read_to_string(&report) else {
        return false;
    };
    // The round trip (ZRF → spec → ZRF → spec) per file; it exits non-zero when a file fails,
    // which the report shows rather than stopping.
    let rt = Command::new(release_bin(root))
        .args(["roundtrip", "--no-yaml", "--format", "json"])
        .arg(shared_corpus(root))
        .output();
    let Ok(rt) = rt else {
        eprintln!("corpus: cannot run zogkit roundtrip");
        return false;
    };
    let mut md = corpus_markdown(&text);
    md.push_str(&roundtrip_markdown(&String::from_utf8_lossy(&rt.stdout)));
    let path = root.join("golden/corpus-report.md");
    if check {
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        if old != md {
            eprintln!(
                "corpus: golden/corpus-report.md is out of date (run cargo xtask corpus and review the diff)"
            );
            return false;
        }
        println!("corpus: golden/corpus-report.md is up to date");
        return true;
    }
    std::fs::write(&path, md).is_ok()
}

/// The markdown summary of a `zogkit convert --report` JSON document.
fn corpus_markdown(json: &str) -> String {
    use std::collections::BTreeMap;
    let doc: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
    let empty = Vec::new();
    let files = doc["files"].as_array().unwrap_or(&empty);
    let sum = |k: &str| {
        files
            .iter()
            .map(|f| f[k].as_u64().unwrap_or(0))
            .sum::<u64>()
    };
    let short = |f: &serde_json::Value| {
        let s = f["input"].as_str().unwrap_or("");
        s.split("corpus/zrf/").last().unwrap_or(s).to_string()
    };
    let mut codes: BTreeMap<String, u64> = BTreeMap::new();
    let mut unmodelled: BTreeMap<String, u64> = BTreeMap::new();
    let mut warned = Vec::new();
    let mut failed = Vec::new();
    for f in files {
        if f["failed"].as_bool() == Some(true) {
            failed.push(short(f));
        }
        let mut mine = Vec::new();
        if let Some(m) = f["diagnostics"].as_object() {
            for (k, v) in m {
                let v = v.as_u64().unwrap_or(0);
                *codes.entry(k.clone()).or_default() += v;
                if !matches!(
                    k.as_str(),
                    "text::encoding" | "zrf::macro-arity" | "zrf::no-game"
                ) {
                    mine.push(format!("`{k}` ×{v}"));
                }
            }
        }
        if let Some(m) = f["unmodelled"].as_object() {
            for (k, v) in m {
                *unmodelled.entry(k.clone()).or_default() += v.as_u64().unwrap_or(0);
            }
        }
        if !mine.is_empty() {
            warned.push((short(f), mine.join(", ")));
        }
    }
    let mut md = String::new();
    md.push_str("# Shared corpus report\n\n");
    md.push_str("Generated by `cargo xtask corpus` from `zogkit convert ../shared/corpus/zrf --to yaml --report` and `zogkit roundtrip --format json`.\n");
    md.push_str("CI runs `cargo xtask corpus --check`, so any change in these figures shows up in review.\n\n");
    md.push_str("| measure | value |\n| --- | ---: |\n");
    md.push_str(&format!(
        "| files | {} |\n| failed | {} |\n| games | {} |\n| variants | {} |\n",
        files.len(),
        failed.len(),
        sum("games"),
        sum("variants")
    ));
    md.push_str(&format!(
        "| ZRF bytes read | {} |\n| YAML bytes written | {} |\n\n",
        sum("bytes_in"),
        sum("bytes_out")
    ));
    md.push_str("## Diagnostics by code\n\n| code | count |\n| --- | ---: |\n");
    for (k, v) in &codes {
        md.push_str(&format!("| `{k}` | {v} |\n"));
    }
    md.push_str("\n## Forms kept verbatim (no typed form in the spec)\n\n");
    if unmodelled.is_empty() {
        md.push_str("None.\n");
    } else {
        md.push_str("| form | count |\n| --- | ---: |\n");
        for (k, v) in &unmodelled {
            md.push_str(&format!("| `{k}` | {v} |\n"));
        }
    }
    md.push_str("\n## Files with warnings (author mistakes, kept as written)\n\n| file | diagnostics |\n| --- | --- |\n");
    for (f, d) in &warned {
        md.push_str(&format!("| {f} | {d} |\n"));
    }
    if !failed.is_empty() {
        md.push_str("\n## Failed files\n\n");
        for f in &failed {
            md.push_str(&format!("- {f}\n"));
        }
    }
    md
}

/// The round-trip section of the corpus report from `zogkit roundtrip --format json`: a summary
/// and one row per file (pass/fail and the emitted/original ZRF size ratio). No timings.
fn roundtrip_markdown(json: &str) -> String {
    let doc: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
    let empty = Vec::new();
    let files = doc["files"].as_array().unwrap_or(&empty);
    let sum = &doc["summary"];
    let num = |v: &serde_json::Value| v.as_u64().unwrap_or(0);
    let ratio = |v: &serde_json::Value| match v.as_f64() {
        Some(r) => format!("{r:.2}"),
        None => "–".to_string(),
    };
    let n = num(&sum["files"]);
    let within = num(&sum["size_ratio"]["within_3x"]);
    let mut md = String::new();
    md.push_str("\n## ZRF round trip\n\n");
    md.push_str("`zogkit roundtrip --format json`: each file is read, written back as ZRF by `zrf::emit` and read again; the specs must be equal with no new warnings. The size ratio is emitted ZRF bytes / original bytes.\n\n");
    md.push_str("| measure | value |\n| --- | ---: |\n");
    md.push_str(&format!(
        "| files passing | {} of {n} |\n| games and variants passing | {} of {} |\n",
        n - num(&sum["failed_files"]).min(n),
        num(&sum["games_and_variants"]).saturating_sub(num(&sum["failed_games_and_variants"])),
        num(&sum["games_and_variants"]),
    ));
    let share = if n == 0 {
        0.0
    } else {
        100.0 * within as f64 / n as f64
    };
    md.push_str(&format!(
        "| files within 3× of the original size | {within} of {n} ({share:.1} %) |\n| size ratio median | {} |\n| size ratio p95 | {} |\n| size ratio max | {} |\n",
        ratio(&sum["size_ratio"]["p50"]),
        ratio(&sum["size_ratio"]["p95"]),
        ratio(&sum["size_ratio"]["max"]),
    ));
    let mut rows: Vec<(String, bool, String)> = files
        .iter()
        .map(|f| {
            let s = f["file"].as_str().unwrap_or("");
            (
                s.split("corpus/zrf/").last().unwrap_or(s).to_string(),
                f["passed"].as_bool() == Some(true),
                ratio(&f["size_ratio"]),
            )
        })
        .collect();
    rows.sort();
    md.push_str("\n### Per file\n\n| file | round trip | size ratio |\n| --- | --- | ---: |\n");
    for (f, ok, r) in rows {
        let status = if ok { "pass" } else { "FAIL" };
        md.push_str(&format!("| {} | {status} | {r} |\n", f.replace('|', "\\|")));
    }
    md
}

/// CPU time of this thread: the tests' one implementation, shared by path.
#[path = "../../tests/it/common/cpu.rs"]
mod cpu;
pub use cpu::cpu_time;

/// Reads every shared corpus file cut at `offsets` evenly spaced points; any panic is a finding,
/// and so is a cut read that costs more than `1 s + 3 ×` the CPU time of reading the whole file.
/// The budget is relative and counts CPU time, not wall time: a cut file should cost no more
/// than the whole one, and a loaded machine slows both alike, so load cannot trip it.
fn truncate(root: &Path, offsets: usize) -> bool {
    let mut files = Vec::new();
    collect(&shared_corpus(root), &mut files);
    files.sort();
    let start = Instant::now();
    let (mut reads, mut findings) = (0usize, Vec::new());
    std::panic::set_hook(Box::new(|_| {}));
    for p in &files {
        let Ok(bytes) = std::fs::read(p) else {
            continue;
        };
        let (_, whole) = cpu_time(|| fuzz::exercise(zogkit::format::Format::Zrf, &bytes));
        let budget = Duration::from_secs(1) + whole * 3;
        for k in 0..offsets {
            let at = bytes.len() * k / offsets.max(1);
            let (r, took) = cpu_time(|| fuzz::exercise(zogkit::format::Format::Zrf, &bytes[..at]));
            reads += 1;
            if let Err(msg) = r {
                findings.push(format!("PANIC {} cut at {at}: {msg}", p.display()));
            } else if took > budget {
                findings.push(format!(
                    "SLOW {took:?} (budget {budget:?}) {} cut at {at}",
                    p.display()
                ));
            }
        }
    }
    let _ = std::panic::take_hook();
    println!(
        "truncate: {} files x {offsets} offsets = {reads} conversions in {:.1} s, {} findings",
        files.len(),
        start.elapsed().as_secs_f64(),
        findings.len()
    );
    for f in &findings {
        println!("  {f}");
    }
    findings.is_empty()
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("zrf")) {
            out.push(p);
        }
    }
}
