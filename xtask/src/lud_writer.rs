//! `cargo xtask lud-writer`: converts every shared-corpus ZRF file to `.lud` with the CLI, runs
//! the Ludii oracle over the written files in one JVM, compares Ludii's start moves with the
//! engine's and Ludii's perft(2) of the written file with the engine's of the source, and writes
//! the summary, per folder and per file, to `golden/lud-writer-report.md`.

#[path = "../../tests/oracle/lud_oracle.rs"]
mod lud_oracle;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One corpus file's result.
struct Row {
    rel: String,
    accepted: bool,
    partial: bool,
    compile: Option<bool>,
    error: Option<String>,
    /// `Some(true)`: Ludii's start moves equal the engine's; `None`: not compared (and why).
    same: Result<bool, String>,
    counts: (usize, usize),
    /// Up to three moves only the engine has, and up to three only Ludii has (site indexes).
    diff: String,
    /// The engine's perft of the source (depth 1, 2), or why it has none.
    ours: Result<Vec<u64>, String>,
    /// Ludii's perft of the written file (depths it finished).
    theirs: Vec<u64>,
}

impl Row {
    /// Both counted `depth` plies and agree there and at every depth before.
    fn perft_equal(&self, depth: usize) -> bool {
        let Ok(ours) = &self.ours else { return false };
        ours.len() >= depth && self.theirs.len() >= depth && ours[..depth] == self.theirs[..depth]
    }

    /// Both counted `depth` plies.
    fn perft_compared(&self, depth: usize) -> bool {
        self.ours.as_ref().is_ok_and(|o| o.len() >= depth) && self.theirs.len() >= depth
    }
}

/// Depth of the perft comparison, and Ludii's time budget per file (seconds).
const PERFT_DEPTH: u32 = 2;
const PERFT_TIMEOUT: u32 = 10;

/// Runs the measurement with the CLI at `zogkit` (built in release mode when `None`).
pub fn run(root: &Path, zogkit: Option<PathBuf>) -> Result<(), String> {
    let bin = match zogkit {
        Some(b) => b,
        None => {
            let ok = Command::new(super::cargo())
                .args(["build", "--release", "--quiet", "--bin", "zogkit"])
                .current_dir(root)
                .status()
                .is_ok_and(|s| s.success());
            if !ok {
                return Err("cargo build --release failed".into());
            }
            super::release_bin(root)
        }
    };
    let corpus = super::shared_corpus(root)
        .canonicalize()
        .map_err(|e| format!("shared corpus: {e}"))?;
    let work = root.join("target/lud-writer");
    let _ = std::fs::remove_dir_all(work.join("lud"));
    let _ = std::fs::remove_dir_all(work.join("yaml"));
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    let report = work.join("report.json");
    for (to, dir) in [("lud", "lud"), ("yaml", "yaml")] {
        let mut cmd = Command::new(&bin);
        cmd.args(["convert", "--to", to, "-q", "-o"])
            .arg(work.join(dir));
        if to == "lud" {
            cmd.arg("--force").arg("--report").arg(&report);
        }
        // The exit status says whether some file failed, which the report shows.
        cmd.arg(&corpus).output().map_err(|e| e.to_string())?;
    }
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(&report).map_err(|e| format!("{}: {e}", report.display()))?,
    )
    .map_err(|e| e.to_string())?;
    let empty = Vec::new();
    let files = json["files"].as_array().unwrap_or(&empty);
    let mut luds = Vec::new();
    let mut rows = Vec::new();
    for f in files {
        let input = PathBuf::from(f["input"].as_str().unwrap_or_default());
        let rel = input
            .strip_prefix(&corpus)
            .unwrap_or(&input)
            .display()
            .to_string();
        let lud = work.join("lud").join(&rel).with_extension("lud");
        let text = std::fs::read_to_string(&lud).unwrap_or_default();
        let accepted = !f["failed"].as_bool().unwrap_or(true) && !text.is_empty();
        if accepted {
            luds.push(lud.clone());
        }
        rows.push(Row {
            rel,
            accepted,
            partial: text.starts_with("// zogkit: partial"),
            compile: None,
            error: None,
            same: Err("not run".into()),
            counts: (0, 0),
            diff: String::new(),
            ours: Err("not run".into()),
            theirs: Vec::new(),
        });
    }
    let oracle = lud_oracle::find(root, &work.join("java"))?;
    eprintln!("lud-writer: running Ludii over {} files", luds.len());
    let verdicts = oracle.run(&luds, 20.0)?;
    for r in rows.iter_mut().filter(|r| r.accepted) {
        let lud = work.join("lud").join(&r.rel).with_extension("lud");
        let Some(v) = verdicts.get(&lud) else {
            r.error = Some("no verdict".into());
            continue;
        };
        r.compile = v.compile;
        r.error = v.error.clone();
        let yaml = work.join("yaml").join(&r.rel).with_extension("yaml");
        r.same = compare(&yaml, v, &mut r.counts, &mut r.diff);
        r.ours = read_yaml(&yaml).and_then(|d| lud_oracle::engine_perft(&d, PERFT_DEPTH));
    }
    eprintln!(
        "lud-writer: Ludii's perft({PERFT_DEPTH}) of {} files",
        luds.len()
    );
    let lud_root = work.join("lud");
    let theirs = lud_oracle::batch_perft(
        root,
        &lud_root,
        &luds,
        PERFT_DEPTH,
        PERFT_TIMEOUT,
        &work.join("perft"),
    )?;
    for r in rows.iter_mut().filter(|r| r.accepted) {
        let lud = lud_root.join(&r.rel).with_extension("lud");
        r.theirs = theirs.get(&lud).cloned().unwrap_or_default();
    }
    let md = markdown(&rows);
    std::fs::write(root.join("golden/lud-writer-report.md"), &md).map_err(|e| e.to_string())?;
    print!("{}", md.lines().take(14).collect::<Vec<_>>().join("\n"));
    println!();
    Ok(())
}

fn compare(
    yaml: &Path,
    v: &lud_oracle::Verdict,
    counts: &mut (usize, usize),
    diff: &mut String,
) -> Result<bool, String> {
    let ludii = v.moves.as_ref().ok_or("Ludii did not start the game")?;
    let doc = read_yaml(yaml)?;
    let (engine, sites) = lud_oracle::engine_moves(&doc)?;
    let ludii = lud_oracle::normalise(ludii, sites);
    *counts = (engine.len(), ludii.len());
    let show = |a: &std::collections::BTreeSet<lud_oracle::Key>,
                b: &std::collections::BTreeSet<lud_oracle::Key>| {
        a.difference(b)
            .take(3)
            .map(|(f, t)| format!("{f}-{t}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    *diff = format!(
        "engine only: {}; Ludii only: {}",
        show(&engine, &ludii),
        show(&ludii, &engine)
    );
    Ok(engine == ludii)
}

/// The source's spec, as `convert --to yaml` wrote it.
fn read_yaml(yaml: &Path) -> Result<zogkit::spec::Document, String> {
    let text = std::fs::read_to_string(yaml).map_err(|e| e.to_string())?;
    zogkit::spec::yaml::from_str(&text, zogkit::diag::FileId(0))
        .map_err(|d| format!("the YAML spec does not read: {}", d.message))
}

fn pct(a: usize, b: usize) -> String {
    if b == 0 {
        "–".into()
    } else {
        format!("{:.1} %", 100.0 * a as f64 / b as f64)
    }
}

/// The report's folder of a corpus file: `dagaz/<family>`, else its top folder.
fn folder(rel: &str) -> String {
    let parts: Vec<&str> = rel.split('/').collect();
    let n = if parts[0] == "dagaz" { 2 } else { 1 };
    parts[..n.min(parts.len().saturating_sub(1)).max(1)].join("/")
}

/// Per folder: files, written, written in full, compiled, perft(1) and perft(2) equal.
fn per_folder(rows: &[Row]) -> String {
    let mut by: BTreeMap<String, [usize; 6]> = BTreeMap::new();
    for r in rows {
        let c = by.entry(folder(&r.rel)).or_default();
        let compiled = r.accepted && r.compile == Some(true) && r.error.is_none();
        let flags = [
            true,
            r.accepted,
            r.accepted && !r.partial,
            compiled,
            r.accepted && r.perft_equal(1),
            r.accepted && r.perft_equal(2),
        ];
        for (n, f) in c.iter_mut().zip(flags) {
            *n += usize::from(f);
        }
    }
    let mut md = String::from(
        "\n## Per folder\n\n| folder | files | written | in full | compile | perft(1) equal | perft(2) equal |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for (f, c) in &by {
        let _ = writeln!(
            md,
            "| {f} | {} | {} | {} | {} | {} | {} |",
            c[0], c[1], c[2], c[3], c[4], c[5]
        );
    }
    md
}

/// A file's perft cell: `equal (20, 400)`, or both sides' counts.
fn perft_cell(r: &Row) -> String {
    let show = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    match &r.ours {
        _ if !r.accepted => "–".into(),
        Ok(o) if r.perft_equal(PERFT_DEPTH as usize) => format!("equal ({})", show(o)),
        Ok(o) => format!("{} / {}", show(o), show(&r.theirs)),
        Err(e) => format!("– / {} ({})", show(&r.theirs), error_kind(e)),
    }
}

/// The first words of an error, for grouping.
fn error_kind(e: &str) -> String {
    let e = match e.split_once(" / cause: ") {
        Some((_, cause)) => cause,
        None => e,
    };
    let e = e.split(" in '").next().unwrap_or(e);
    let short: String = e.chars().take(70).collect();
    short
}

fn markdown(rows: &[Row]) -> String {
    let all = rows.len();
    let acc: Vec<&Row> = rows.iter().filter(|r| r.accepted).collect();
    let partial = acc.iter().filter(|r| r.partial).count();
    let compiled: Vec<&&Row> = acc
        .iter()
        .filter(|r| r.compile == Some(true) && r.error.is_none())
        .collect();
    let compared: Vec<&&Row> = acc.iter().filter(|r| r.same.is_ok()).collect();
    let same = compared.iter().filter(|r| r.same == Ok(true)).count();
    let clean_same = acc
        .iter()
        .filter(|r| !r.partial && r.same == Ok(true))
        .count();
    let mut md = String::new();
    let _ = writeln!(md, "# `.lud` writer against the Ludii oracle\n");
    let _ = writeln!(
        md,
        "Written by `cargo xtask lud-writer` (every shared-corpus ZRF file converted with `zogkit convert --to lud`, the first game of each compiled and started by Ludii 1.3.12, its start moves compared as a set of (from, to) site pairs with the engine's, and its perft to depth 2 from `ludii batch perft` with the engine's perft of the source; Ludii gets 10 s per file). Do not edit.\n"
    );
    let _ = writeln!(md, "| measure | value |\n| --- | --- |");
    let _ = writeln!(md, "| corpus files | {all} |");
    let _ = writeln!(
        md,
        "| accepted (written without error) | {} ({}) |",
        acc.len(),
        pct(acc.len(), all)
    );
    let _ = writeln!(
        md,
        "| of these partial (a comment lists what is lost) | {partial} |"
    );
    let _ = writeln!(
        md,
        "| accepted that Ludii compiles and starts | {} ({}) |",
        compiled.len(),
        pct(compiled.len(), acc.len())
    );
    let _ = writeln!(
        md,
        "| start moves compared (engine and Ludii both ran) | {} |",
        compared.len()
    );
    let _ = writeln!(
        md,
        "| start moves equal | {same} ({} of compared, {} of accepted) |",
        pct(same, compared.len()),
        pct(same, acc.len())
    );
    let _ = writeln!(md, "| not partial and start moves equal | {clean_same} |");
    for depth in 1..=PERFT_DEPTH as usize {
        let compared = acc.iter().filter(|r| r.perft_compared(depth)).count();
        let equal = acc.iter().filter(|r| r.perft_equal(depth)).count();
        let _ = writeln!(
            md,
            "| perft({depth}) compared (engine on the source, Ludii on the written file) | {compared} |\n\
             | perft({depth}) equal | {equal} ({} of compared, {} of accepted) |",
            pct(equal, compared),
            pct(equal, acc.len())
        );
    }
    md.push_str(&per_folder(rows));
    let mut errors: BTreeMap<String, usize> = BTreeMap::new();
    for r in &acc {
        if let Some(e) = &r.error {
            *errors.entry(error_kind(e)).or_default() += 1;
        }
    }
    let mut errors: Vec<(String, usize)> = errors.into_iter().collect();
    errors.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let _ = writeln!(
        md,
        "\n## Top first errors of accepted files\n\n| files | Ludii's error |\n| --- | --- |"
    );
    for (e, n) in errors.iter().take(15) {
        let _ = writeln!(
            md,
            "| {n} | `{}` |",
            e.replace('|', "\\|").replace('`', "'")
        );
    }
    let mut why: BTreeMap<String, usize> = BTreeMap::new();
    for r in &acc {
        if let Err(e) = &r.same {
            *why.entry(error_kind(e)).or_default() += 1;
        }
    }
    let _ = writeln!(
        md,
        "\n## Why start moves were not compared\n\n| files | reason |\n| --- | --- |"
    );
    let mut why: Vec<(String, usize)> = why.into_iter().collect();
    why.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for (e, n) in why.iter().take(10) {
        let _ = writeln!(md, "| {n} | {} |", e.replace('|', "\\|"));
    }
    let _ = writeln!(
        md,
        "\n## Per file\n\n| file | accepted | partial | compiles | start moves (engine / Ludii) | perft 1, 2 (engine / Ludii) |\n| --- | --- | --- | --- | --- | --- |"
    );
    for r in rows {
        let yes = |b: bool| if b { "yes" } else { "no" };
        let moves = match &r.same {
            Ok(true) => format!("equal ({})", r.counts.0),
            Ok(false) => format!("differ ({} / {}; {})", r.counts.0, r.counts.1, r.diff),
            Err(e) if r.accepted => format!("– ({})", error_kind(e)),
            Err(_) => "–".into(),
        };
        let compiles = match (r.accepted, r.compile, &r.error) {
            (false, ..) => "–",
            (_, Some(true), None) => "yes",
            (_, None, _) => "timeout",
            _ => "no",
        };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {compiles} | {} | {} |",
            r.rel,
            yes(r.accepted),
            yes(r.partial),
            moves.replace('|', "\\|"),
            perft_cell(r).replace('|', "\\|")
        );
    }
    md
}
