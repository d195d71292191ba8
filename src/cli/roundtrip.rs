//! `zogkit roundtrip`: read → spec → write ZRF → read → spec for every file, and prove nothing was
//! lost: the two specs must be equal (semantically, see [`comparable`]), the emitted ZRF must
//! re-read with no errors and no new warnings, and the spec's YAML must be byte-stable
//! (YAML → spec → YAML).

use super::outcome::{Deny, Policy};
use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, InputFile, progress, read_input};
use clap::{Args, ValueEnum};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;
use zogkit::diag::{Diagnostic, FileId, Severity, SourceMap};
use zogkit::format::{self, Format};
use zogkit::spec::{self, Document};
use zogkit::zrf::NoIncludes;

/// Report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// Human-readable: failures with diffs, then a summary.
    Text,
    /// One JSON document.
    Json,
    /// JUnit XML: one test case per game or variant, one test suite per file.
    Junit,
}

/// Arguments of `zogkit roundtrip`.
#[derive(Debug, Args)]
pub struct RoundtripArgs {
    /// ZRF files or directories (searched recursively for `.zrf`).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Print nothing but failures (no summary).
    #[arg(short, long)]
    pub quiet: bool,
    /// Skip the YAML → spec → YAML byte-stability check (it costs more than the ZRF round trip).
    #[arg(long)]
    pub no_yaml: bool,
    /// Fail on these too (`--deny warnings`: a file whose reading or writing warns fails;
    /// `--deny partial`: a file whose round trip passed while the ZRF writer reported losses).
    #[arg(long, value_enum, value_name = "WHAT")]
    pub deny: Vec<Deny>,
}

/// The outcome for one game or variant.
#[derive(Debug, Clone, serde::Serialize)]
pub struct EntryResult {
    index: usize,
    kind: &'static str,
    title: String,
    /// Whether this entry's spec survived the round trip.
    pub passed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    diff: Option<String>,
}

/// The outcome for one file.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FileResult {
    file: String,
    /// Whether the file passed (every entry, no problem).
    pub passed: bool,
    /// Emitted ZRF bytes / original bytes (root file only).
    size_ratio: f64,
    original_bytes: usize,
    emitted_bytes: usize,
    /// Per game or variant, in document order.
    pub entries: Vec<EntryResult>,
    /// Problems that are not per entry: read errors, new warnings, YAML instability, a different
    /// number of entries (as text).
    #[serde(skip)]
    pub problems: Vec<String>,
    /// The same problems as structured diagnostics, as `check --format json` gives them
    /// (`severity`, `code`, `message`, `location`, `notes`) plus `stage`: `input` (the input's
    /// own), `reread` (new on reading the written ZRF), `writer`, `yaml`, `compare`. A problem
    /// that is no diagnostic has a `null` code and the file as its location.
    #[serde(rename = "problems")]
    problems_json: Vec<serde_json::Value>,
    /// Diagnostics of the writer (what ZRF cannot express).
    emit_diagnostics: Vec<String>,
}

/// Runs `zogkit roundtrip`.
pub fn run(args: RoundtripArgs) -> u8 {
    let exts = super::outcome::extensions(Some(Format::Zrf), None);
    let inputs = match super::outcome::inputs_or_message(&args.inputs, &exts, args.quiet) {
        Ok(v) => v,
        Err(e) => {
            super::error_line!("{e}");
            // A JSON report is printed all the same, with the error, for the tools reading it.
            if args.format == ReportFormat::Json {
                let v = serde_json::json!({
                    "files": [],
                    "summary": summary_json(&[]),
                    "error": e,
                });
                let _ = super::print_stdout(
                    &(serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"),
                );
            }
            return EXIT_USAGE;
        }
    };
    let pb = progress(
        inputs.len(),
        args.quiet || args.format != ReportFormat::Text,
    );
    let results: Vec<FileResult> = super::par_map_largest_first(&inputs, |_, i| {
        let r = one(i, !args.no_yaml, Policy::new(&args.deny));
        pb.inc(1);
        r
    });
    pb.finish_and_clear();
    let failed_files = results.iter().filter(|r| !r.passed).count();
    let report = match args.format {
        ReportFormat::Text => text_report(&results, args.quiet),
        ReportFormat::Json => {
            let v = serde_json::json!({
                "files": results,
                "summary": summary_json(&results),
            });
            serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
        }
        ReportFormat::Junit => junit(&results),
    };
    if let Err(code) = super::print_stdout(&report) {
        return code;
    }
    if failed_files == 0 {
        EXIT_OK
    } else {
        EXIT_ERRORS
    }
}

fn fail(file: &str, problem: String) -> FileResult {
    FileResult {
        file: file.to_string(),
        passed: false,
        size_ratio: 0.0,
        original_bytes: 0,
        emitted_bytes: 0,
        entries: Vec::new(),
        problems_json: vec![plain_json(file, "input", &problem)],
        problems: vec![problem],
        emit_diagnostics: Vec::new(),
    }
}

/// A problem that is no diagnostic, as JSON.
fn plain_json(file: &str, stage: &str, message: &str) -> serde_json::Value {
    serde_json::json!({
        "severity": "error",
        "code": null,
        "message": message,
        "location": {"file": file},
        "notes": [],
        "stage": stage,
    })
}

/// A diagnostic as JSON, with the stage of the round trip that reported it.
fn diag_json(d: &Diagnostic, sources: &SourceMap, file: &str, stage: &str) -> serde_json::Value {
    let mut j = d.to_json(sources, file);
    j["stage"] = stage.into();
    j
}

fn diag_keys(ds: &[zogkit::diag::Diagnostic], sev: Severity) -> BTreeSet<(String, String)> {
    ds.iter()
        .filter(|d| d.severity == sev)
        .map(|d| (d.code.to_string(), d.message.clone()))
        .collect()
}

/// `file:line:col: severity[code]: message` (the file alone when there is no location).
fn located(d: &Diagnostic, sources: &SourceMap, file: &str) -> String {
    let at = match d.location(sources) {
        Some((f, l, c)) => format!("{f}:{l}:{c}"),
        None => file.to_string(),
    };
    format!("{at}: {}[{}]: {}", d.severity.as_str(), d.code, d.message)
}

fn one(input: &InputFile, check_yaml: bool, policy: Policy) -> FileResult {
    let name = input.display.as_str();
    let bytes = match read_input(input) {
        Ok(b) => b,
        Err(e) => return fail(name, format!("cannot read: {e}")),
    };
    let opts = super::read_options(None);
    let mut first = format::read(Format::Zrf, name, &bytes, &opts, &mut *super::loader(input));
    judge(name, bytes.len(), &mut first, check_yaml, policy, None)
}

/// What the round trip wrote on the way, kept for a caller that writes them too (`zogkit
/// catalogue`): the ZRF bytes with the writer's diagnostics (capped, as `format::write` gives
/// them) and the YAML text (when the YAML check ran and could write it).
#[derive(Debug, Default)]
pub struct Written {
    /// `format::write(Format::Zrf, doc)`'s result.
    pub zrf: Option<(Vec<u8>, Vec<Diagnostic>)>,
    /// `format::write(Format::Yaml, doc)`'s text.
    pub yaml: Option<String>,
}

/// The round-trip decision for one ZRF file already read (`first`, from `original_len` bytes):
/// what `zogkit roundtrip` reports for it. The document is taken out of `first` while it is
/// compared and put back, unchanged, before returning (`zogkit catalogue` shows it next).
pub fn judge(
    name: &str,
    original_len: usize,
    first: &mut format::ReadResult,
    check_yaml: bool,
    policy: Policy,
    keep: Option<&mut Written>,
) -> FileResult {
    // A file that does not read cleanly proves nothing: it fails with its own errors (and its
    // warnings, when they are denied).
    let own: Vec<&Diagnostic> = first
        .diagnostics
        .iter()
        .filter(|d| {
            d.severity == Severity::Error
                || (policy.deny_warnings && d.severity == Severity::Warning)
        })
        .collect();
    if !own.is_empty() {
        let mut r = fail(
            name,
            format!(
                "the input does not read cleanly ({} problem{}):",
                own.len(),
                if own.len() == 1 { "" } else { "s" }
            ),
        );
        // The JSON holds the diagnostics themselves, not the heading.
        r.problems_json.clear();
        for d in own {
            r.problems.push(located(d, &first.sources, name));
            r.problems_json
                .push(diag_json(d, &first.sources, name, "input"));
        }
        return r;
    }
    let Some(mut doc1) = first.document.take() else {
        return fail(name, "the file could not be read".into());
    };
    let r = compare(
        name,
        original_len,
        first,
        &mut doc1,
        (check_yaml, policy),
        keep,
    );
    first.document = Some(doc1);
    r
}

/// Writes `doc1` as ZRF, reads it back and compares (see [`judge`]); `doc1` is left as it was.
/// Errors and warnings of the re-read that the original did not have (once each), as
/// problems and their JSON.
fn new_on_reread(
    name: &str,
    first: &format::ReadResult,
    second: &format::ReadResult,
    no_games: bool,
    (problems, problems_json): (&mut Vec<String>, &mut Vec<serde_json::Value>),
) {
    for sev in [Severity::Error, Severity::Warning] {
        let before = diag_keys(&first.diagnostics, sev);
        let mut seen = BTreeSet::new();
        for d in second.diagnostics.iter().filter(|d| d.severity == sev) {
            let key = (d.code.to_string(), d.message.clone());
            // A file of only definitions holds no game, so nothing is written for it.
            let expected = d.code == format::CODE_EMPTY && no_games;
            if !expected && !before.contains(&key) && seen.insert(key) {
                problems.push(format!(
                    "the emitted ZRF reads with a new {}: {}: {}",
                    sev.as_str(),
                    d.code,
                    d.message
                ));
                problems_json.push(diag_json(d, &second.sources, name, "reread"));
            }
        }
    }
}

fn compare(
    name: &str,
    original_len: usize,
    first: &format::ReadResult,
    doc1: &mut Document,
    (check_yaml, policy): (bool, Policy),
    mut keep: Option<&mut Written>,
) -> FileResult {
    let opts = super::read_options(None);
    // First, so that the document read back is gone before the emitted ZRF is read.
    let yaml_problem = if check_yaml {
        let (problem, yaml) = yaml_stability(doc1);
        if let Some(k) = keep.as_deref_mut() {
            k.yaml = yaml;
        }
        problem
    } else {
        None
    };
    let (emitted, mut ediags) = zogkit::zrf::emit::emit_bytes(doc1);
    zogkit::diag::cap_repeats(&mut ediags, zogkit::diag::MAX_PER_CODE);
    let no_games = doc1.games.is_empty();
    let second = format::read(Format::Zrf, name, &emitted, &opts, &mut NoIncludes);
    let mut problems = Vec::new();
    let mut problems_json = Vec::new();
    new_on_reread(
        name,
        first,
        &second,
        no_games,
        (&mut problems, &mut problems_json),
    );
    let Some(doc2) = second.document else {
        return fail(name, "the emitted ZRF could not be read back".into());
    };
    if let Some(p) = yaml_problem {
        problems_json.push(plain_json(name, "yaml", &p));
        problems.push(p);
    }
    // What the writer reports as an error (or a denied warning) fails the file too.
    for d in &ediags {
        if d.severity == Severity::Error
            || (policy.deny_warnings && d.severity == Severity::Warning)
        {
            problems.push(format!(
                "the ZRF writer reported: {}",
                located(d, &first.sources, name)
            ));
            problems_json.push(diag_json(d, &first.sources, name, "writer"));
        }
    }
    // Procedures are compared inlined only when the two documents factor them differently.
    let mut doc2 = doc2;
    let pa = std::mem::take(&mut doc1.procedures);
    let pb = std::mem::take(&mut doc2.procedures);
    let mut eq = spec::moves::Equality::new(&pa, &pb);
    let same: Vec<bool> = (0..doc1.games.len())
        .map(|i| match doc2.games.get_mut(i) {
            Some(g2) => eq.games(&mut doc1.games[i], g2),
            None => false,
        })
        .collect();
    doc1.procedures = pa;
    doc2.procedures = pb;
    let all_same = same.iter().all(|x| *x) && doc1.games.len() == doc2.games.len();
    // Only a difference needs the inlined documents (for the diff).
    let (a, mut b) = if all_same {
        (shallow_source(doc1), shallow_source(&doc2))
    } else {
        (comparable(doc1), comparable(&doc2))
    };
    if a.source.line_endings.is_none() {
        b.source.line_endings = None;
    }
    // Comments are not part of the spec; when they held the only non-ASCII text, the emitted
    // file is ASCII and reads as UTF-8: its encoding cannot be told and is not compared.
    if emitted.is_ascii() {
        b.source.encoding = a.source.encoding;
    }
    let mut entries = Vec::new();
    if a.games.len() != b.games.len() {
        problems.push(format!(
            "{} entries before, {} after",
            a.games.len(),
            b.games.len()
        ));
    }
    if a.source != b.source {
        problems.push(format!(
            "source facts differ:\n{}",
            unified(&yaml(&a.source), &yaml(&b.source))
        ));
    }
    for p in &problems[problems_json.len()..] {
        problems_json.push(plain_json(name, "compare", p));
    }
    for (i, g) in (if all_same { &*doc1 } else { &a })
        .games
        .iter()
        .enumerate()
    {
        let other = b.games.get(i);
        let passed = same.get(i).copied().unwrap_or(false);
        let diff = (!passed).then(|| unified(&yaml(g), &other.map(yaml).unwrap_or_default()));
        entries.push(EntryResult {
            index: i,
            kind: match g.kind {
                spec::EntryKind::Game => "game",
                spec::EntryKind::Variant => "variant",
                spec::EntryKind::Separator => "separator",
            },
            title: g.title.clone(),
            passed,
            diff,
        });
    }
    // `--deny partial`: what the writer reported losing fails the file too.
    if policy.deny_partial && !policy.deny_warnings {
        for d in ediags.iter().filter(|d| d.severity == Severity::Warning) {
            problems.push(format!(
                "the ZRF writer reported a loss (--deny partial): {}",
                located(d, &first.sources, name)
            ));
            problems_json.push(diag_json(d, &first.sources, name, "writer"));
        }
    }
    let passed = problems.is_empty() && entries.iter().all(|e| e.passed);
    let (original_bytes, emitted_bytes) = (original_len, emitted.len());
    let emit_diagnostics = ediags
        .iter()
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect();
    if let Some(k) = keep {
        k.zrf = Some((emitted, ediags));
    }
    FileResult {
        file: name.to_string(),
        passed,
        size_ratio: emitted_bytes as f64 / original_bytes.max(1) as f64,
        original_bytes,
        emitted_bytes,
        entries,
        problems,
        problems_json,
        emit_diagnostics,
    }
}

/// Checks YAML → spec → YAML byte stability: what is wrong, if anything, and the YAML written.
fn yaml_stability(doc: &Document) -> (Option<String>, Option<String>) {
    let y1 = match spec::yaml::write_document(doc) {
        Ok(y1) => y1,
        Err(e) => return (Some(format!("cannot write YAML: {}", e.message())), None),
    };
    let problem = stability_of(doc, &y1);
    (problem, Some(y1))
}

/// What is wrong with `y1`, `doc` written as YAML, when read back and written again.
fn stability_of(doc: &Document, y1: &str) -> Option<String> {
    match spec::yaml::from_str::<Document>(y1, FileId(0)) {
        // The writer is a function of the document, so reading back the same document means
        // writing it again gives the same bytes; only a difference is written out.
        Ok(back) if back == *doc => None,
        Ok(back) => match spec::yaml::write_document(&back) {
            Ok(y2) if y2 == y1 => None,
            Ok(y2) => Some(format!(
                "YAML → spec → YAML is not byte-stable:\n{}",
                unified(y1, &y2)
            )),
            Err(e) => Some(format!("cannot write YAML again: {}", e.message())),
        },
        Err(d) => Some(format!(
            "the written YAML does not read back: {}",
            d.message
        )),
    }
}

/// What is compared: the document with every procedure call inlined (how move programs are
/// factored into procedures depends on how the ZRF text shares its macro results, not on what
/// the programs mean; a call means exactly "these instructions here") and without the SHA-256 of
/// the input bytes (the emitted file is different bytes by design). Everything else — titles,
/// texts and their exact source strings, boards with their layouts, every instruction — must be
/// equal.
fn comparable(doc: &Document) -> Document {
    let mut d = shallow_source(doc);
    d.games = doc.games_inlined();
    d
}

/// The document's comparable source facts, without games and procedures. A source with mixed
/// line endings (or none) is written with LF: ZRF output cannot keep a mix, so `line_endings`
/// is compared only when it was one kind.
fn shallow_source(doc: &Document) -> Document {
    let mut d = Document {
        spec_version: doc.spec_version.clone(),
        source: doc.source.clone(),
        games: Vec::new(),
        procedures: Vec::new(),
    };
    d.source.sha256.clear();
    if matches!(
        d.source.line_endings,
        Some(zogkit::text::LineEndings::Mixed | zogkit::text::LineEndings::None)
    ) {
        d.source.line_endings = None;
    }
    d
}

fn yaml<T: serde::Serialize>(v: &T) -> String {
    spec::yaml::to_string(v).unwrap_or_else(|e| format!("<cannot write YAML: {}>", e.message()))
}

fn unified(a: &str, b: &str) -> String {
    similar::TextDiff::from_lines(a, b)
        .unified_diff()
        .context_radius(3)
        .header("original spec", "spec of the emitted ZRF")
        .to_string()
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let k = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[k.min(sorted.len() - 1)]
}

struct Summary {
    files: usize,
    failed_files: usize,
    entries: usize,
    failed_entries: usize,
    ratios: Vec<f64>,
}

fn summarize(results: &[FileResult]) -> Summary {
    let mut ratios: Vec<f64> = results
        .iter()
        .filter(|r| r.original_bytes > 0)
        .map(|r| r.size_ratio)
        .collect();
    ratios.sort_by(f64::total_cmp);
    let counted = |e: &&EntryResult| e.kind != "separator";
    Summary {
        files: results.len(),
        failed_files: results.iter().filter(|r| !r.passed).count(),
        entries: results
            .iter()
            .flat_map(|r| r.entries.iter().filter(counted))
            .count(),
        failed_entries: results
            .iter()
            .flat_map(|r| r.entries.iter().filter(counted))
            .filter(|e| !e.passed)
            .count(),
        ratios,
    }
}

fn summary_json(results: &[FileResult]) -> serde_json::Value {
    let s = summarize(results);
    let within3 = s.ratios.iter().filter(|r| **r <= 3.0).count();
    serde_json::json!({
        "files": s.files,
        "failed_files": s.failed_files,
        "games_and_variants": s.entries,
        "failed_games_and_variants": s.failed_entries,
        "size_ratio": {
            "min": s.ratios.first().copied().unwrap_or(0.0),
            "p50": percentile(&s.ratios, 0.5),
            "p90": percentile(&s.ratios, 0.9),
            "p95": percentile(&s.ratios, 0.95),
            "max": s.ratios.last().copied().unwrap_or(0.0),
            "within_3x": within3,
        },
    })
}

fn text_report(results: &[FileResult], quiet: bool) -> String {
    let mut out = String::new();
    for r in results {
        if r.passed {
            if !quiet {
                let _ = writeln!(out, "ok {} ({:.2}×)", r.file, r.size_ratio);
            }
            continue;
        }
        let _ = writeln!(out, "FAIL {}", r.file);
        for p in &r.problems {
            let _ = writeln!(out, "  {p}");
        }
        for e in r.entries.iter().filter(|e| !e.passed) {
            let _ = writeln!(out, "  {} {} `{}` differs:", e.kind, e.index, e.title);
            if let Some(d) = &e.diff {
                for l in d.lines() {
                    let _ = writeln!(out, "    {l}");
                }
            }
        }
        for d in &r.emit_diagnostics {
            let _ = writeln!(out, "  writer: {d}");
        }
    }
    if quiet {
        return out;
    }
    let s = summarize(results);
    let within3 = s.ratios.iter().filter(|r| **r <= 3.0).count();
    let _ = writeln!(
        out,
        "roundtrip {} file{}: {} failed; {} games and variants, {} failed; size ratio emitted/original: min {:.2}, median {:.2}, p90 {:.2}, p95 {:.2}, max {:.2}, {} of {} file{} within 3×",
        s.files,
        if s.files == 1 { "" } else { "s" },
        s.failed_files,
        s.entries,
        s.failed_entries,
        s.ratios.first().copied().unwrap_or(0.0),
        percentile(&s.ratios, 0.5),
        percentile(&s.ratios, 0.9),
        percentile(&s.ratios, 0.95),
        s.ratios.last().copied().unwrap_or(0.0),
        within3,
        s.ratios.len(),
        if s.ratios.len() == 1 { "" } else { "s" }
    );
    out
}

fn junit(results: &[FileResult]) -> String {
    let s = summarize(results);
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let tests: usize = results.iter().map(|r| r.entries.len() + 1).sum();
    let failures: usize = results
        .iter()
        .map(|r| {
            r.entries.iter().filter(|e| !e.passed).count() + usize::from(!r.problems.is_empty())
        })
        .sum();
    let _ = writeln!(
        out,
        "<testsuites name=\"zogkit roundtrip\" tests=\"{tests}\" failures=\"{failures}\">"
    );
    let _ = s;
    for r in results {
        let f =
            r.entries.iter().filter(|e| !e.passed).count() + usize::from(!r.problems.is_empty());
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{f}\">",
            zogkit::text::xml_escape(&r.file),
            r.entries.len() + 1
        );
        let _ = write!(
            out,
            "    <testcase classname=\"{}\" name=\"file: rereads cleanly, YAML stable\"",
            zogkit::text::xml_escape(&r.file)
        );
        if r.problems.is_empty() {
            out.push_str("/>\n");
        } else {
            let _ = writeln!(
                out,
                "><failure message=\"{}\">{}</failure></testcase>",
                zogkit::text::xml_escape(r.problems[0].lines().next().unwrap_or("")),
                zogkit::text::xml_escape(&r.problems.join("\n"))
            );
        }
        for e in &r.entries {
            let _ = write!(
                out,
                "    <testcase classname=\"{}\" name=\"{} {}: {}\"",
                zogkit::text::xml_escape(&r.file),
                e.kind,
                e.index,
                zogkit::text::xml_escape(&e.title)
            );
            match &e.diff {
                None => out.push_str("/>\n"),
                Some(d) => {
                    let _ = writeln!(
                        out,
                        "><failure message=\"spec differs after ZRF round trip\">{}</failure></testcase>",
                        zogkit::text::xml_escape(d)
                    );
                }
            }
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}
