//! `zogkit convert`: read files or whole collections and write them in another format, atomically.

use super::outcome::{self, Deny, Policy};
use super::output::{self, Existing, Plan};
use super::output_dir::OutputDir;
use super::{
    EXIT_ERRORS, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, InputFile, display_path, interrupted,
    progress, read_input, remove_stale_temps,
};
use clap::Args;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use zogkit::diag::{Diagnostic, Severity};
use zogkit::format::{self, Format};
use zogkit::text::Encoding;
use zogkit::verify::Verdict;

/// Arguments of `zogkit convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// Input files or directories (directories are searched recursively); `-` is standard input.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Output format (default: the one the extension of `-o FILE` names).
    #[arg(long, value_parser = writable_format())]
    pub to: Option<Format>,
    /// Input format (default: from each file's extension; directories are then searched for
    /// every readable format's files, except .yaml/.yml when writing YAML).
    #[arg(long, value_parser = readable_format())]
    pub from: Option<Format>,
    /// Output: a file (single input), a directory (mirrors the input tree), or `-` for standard
    /// output. Default: standard output for one input file.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Overwrite existing output files (and an existing report).
    #[arg(long)]
    pub force: bool,
    /// Skip inputs whose output exists and is newer than the input; older outputs are
    /// replaced. Resumes an interrupted run.
    #[arg(long, conflicts_with = "force")]
    pub update: bool,
    /// Decode inputs with this encoding instead of detecting one.
    #[arg(long, value_parser = super::check::parse_encoding)]
    pub encoding: Option<Encoding>,
    /// `--dialect` for `.csm` inputs.
    #[command(flatten)]
    pub dialect: super::moves::DialectOpt,
    /// Also show notes.
    #[arg(short, long)]
    pub verbose: bool,
    /// Print nothing but errors: the diagnostics of files that fail, no summary.
    #[arg(short, long)]
    pub quiet: bool,
    /// Also write a JSON report (per input: status, diagnostics by code, forms kept verbatim,
    /// games, sizes) to this file (`-`: standard output), for CI systems and `cargo xtask
    /// corpus`. An existing file is refused unless `--force` (or `--update`, which resumes a
    /// run and so replaces its report).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Use the images `zogkit render -o DIR` wrote (its `images.json`): board and piece image
    /// paths and the grid's pixel geometry are rewritten to them before writing. Paths stay
    /// relative to DIR, so put the written rule file there.
    #[arg(long, value_name = "DIR")]
    pub with_images: Option<PathBuf>,
    /// Fail on these too (`--deny warnings`: a file with a warning fails and is not written;
    /// `--deny partial`, with `--verify`: a file with a `partial` verdict fails).
    #[arg(long, value_enum, value_name = "WHAT")]
    pub deny: Vec<Deny>,
    /// Prove the port: read the written output back, play it and the source, and give a verdict
    /// per game (equal, partial, failed, unverified). A failed game fails the file and nothing
    /// is written; a partial or unverified one is a warning. Verdicts go into `--report`.
    #[arg(long)]
    pub verify: bool,
    /// Positions compared per game by `--verify` (seeded random playouts).
    #[arg(long, value_name = "N", default_value_t = 200, requires = "verify")]
    pub verify_positions: usize,
    /// Write (and with `--verify`, judge `partial`) a port that keeps fewer than half of the
    /// game: with `--to chessembly`, a script that leaves out more than half of the game's
    /// pieces, which otherwise fails the file (`chessembly::partial`) and nothing is written.
    #[arg(long)]
    pub allow_partial: bool,
    /// With `--to chessembly`: write only this piece (without a `piece(…)` guard). Default:
    /// every piece of the game, each under its `piece(NAME)` guard.
    #[arg(long, value_name = "NAME")]
    pub piece: Option<String>,
}

/// The clap parser of `--from`: the readable formats, listed in `--help`.
pub fn readable_format() -> impl clap::builder::TypedValueParser<Value = Format> {
    format_parser(Format::readable)
}

/// The clap parser of `--to`: only the writable formats, listed in `--help`.
pub fn writable_format() -> impl clap::builder::TypedValueParser<Value = Format> {
    format_parser(Format::writable)
}

fn format_parser(keep: fn(Format) -> bool) -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::TypedValueParser as _;
    let names: Vec<&'static str> = Format::ALL
        .into_iter()
        .filter(|f| keep(*f))
        .map(Format::name)
        .collect();
    clap::builder::PossibleValuesParser::new(names)
        .try_map(|s| Format::from_name(&s).ok_or("unknown format"))
}

/// Where one input's output goes.
#[derive(Debug, Clone)]
enum Target {
    Stdout,
    File(PathBuf),
}

#[derive(Default)]
struct Outcome {
    text: String,
    failed: bool,
    /// Not converted because the run was interrupted (Ctrl-C, SIGTERM) before its output was
    /// started: never started, or abandoned while it was read or converted.
    skipped: bool,
    /// Not converted: `--update` found its output newer than the input.
    up_to_date: bool,
    errors: usize,
    warnings: usize,
    unmodelled: BTreeMap<String, usize>,
    /// Diagnostics by code.
    codes: BTreeMap<&'static str, usize>,
    games: usize,
    variants: usize,
    /// `--verify`: one verdict per game.
    verdicts: Vec<zogkit::verify::GameVerdict>,
    bytes_in: usize,
    bytes_out: usize,
}

impl Outcome {
    /// A file the interrupt stopped before its output was started: nothing of it is reported
    /// (its diagnostics may come from a read cut short) and nothing is written.
    fn interrupted() -> Outcome {
        Outcome {
            skipped: true,
            ..Default::default()
        }
    }

    /// This file's figures so far, marked failed, with its report text and unmodelled forms.
    fn failed(self, text: String, unmodelled: BTreeMap<String, usize>) -> Outcome {
        Outcome {
            text,
            failed: true,
            unmodelled,
            ..self
        }
    }
}

/// Runs `zogkit convert`.
pub fn run(args: ConvertArgs) -> u8 {
    let to = match output_format(&args) {
        Ok(f) => f,
        Err(e) => {
            super::error_line!("{e}");
            return EXIT_USAGE;
        }
    };
    if args.deny.contains(&Deny::Partial) && !args.verify {
        super::error_line!("--deny partial fails files on `--verify` verdicts; give --verify");
        return EXIT_USAGE;
    }
    if args.piece.is_some() && to != Format::Chessembly {
        super::error_line!("--piece selects a piece for `--to chessembly` only");
        return EXIT_USAGE;
    }
    // YAML files beside a YAML output folder are outputs, not inputs; any other format is read.
    let exts = outcome::extensions(args.from, Some(to));
    let inputs = match outcome::inputs(&args.inputs, &exts, args.quiet) {
        Ok(v) => v,
        Err(code) => return code,
    };
    let single = inputs.len() == 1 && args.inputs.iter().all(|p| !p.is_dir());
    let (targets, held) = match plan_targets(&args, to, &inputs, single) {
        Ok(t) => t,
        Err(e) => {
            super::error_line!("{e}");
            return EXIT_USAGE;
        }
    };
    let opts = args.dialect.apply(super::read_options(args.encoding));
    remove_stale_temps(targets.iter().filter_map(|t| match t {
        Target::File(p) => Some(p.as_path()),
        Target::Stdout => None,
    }));
    super::catch_interrupts();
    let pb = progress(inputs.len(), args.quiet);
    // Each file's diagnostics are printed (in input order) as soon as the files before it are
    // done, then dropped: memory does not grow with the warnings of finished files.
    let printer = super::InOrder::new(&pb, false);
    let outcomes: Vec<Outcome> = super::par_map_largest_first(&inputs, |i, input| {
        if interrupted() {
            printer.done(i, String::new());
            return Outcome::interrupted();
        }
        let target = (&targets[i], held.as_ref());
        let mut o = convert_one(&args, to, input, target, &opts);
        let text = std::mem::take(&mut o.text);
        printer.done(
            i,
            if !args.quiet || o.failed {
                super::color::stderr(&text).into_owned()
            } else {
                String::new()
            },
        );
        pb.inc(1);
        o
    });
    pb.finish_and_clear();
    let failed = summarise(&args, to, &inputs, &outcomes);
    if let Some(path) = &args.report {
        let text = report(to, &inputs, &targets, &outcomes);
        let replace = (args.force || args.update) && !output::is_stdout(path) && path.exists();
        if let Err(e) = output::write(path, text.as_bytes(), replace) {
            super::error_line!("cannot write the report: {e}");
            return EXIT_USAGE;
        }
    }
    let skipped = outcomes.iter().filter(|o| o.skipped).count();
    if skipped > 0 || interrupted() {
        eprintln!(
            "interrupted: {skipped} file{} not converted (no output was started for them); \
             run the same command with --update to convert only what is missing",
            plural(skipped)
        );
        return EXIT_INTERRUPTED;
    }
    if failed == 0 { EXIT_OK } else { EXIT_ERRORS }
}

/// The output format: `--to`, else the one `-o FILE`'s extension names; writable either way.
fn output_format(args: &ConvertArgs) -> Result<Format, String> {
    if let Some(f) = args.from
        && !f.readable()
    {
        return Err(format!(
            "reading {} is not available (it is written only)",
            f.name()
        ));
    }
    let to = match (args.to, &args.output) {
        (Some(f), _) => f,
        (None, Some(o)) if !output::is_stdout(o) && !o.is_dir() => {
            Format::of_path(&display_path(o)).ok_or_else(|| {
                format!(
                    "cannot tell the output format from {}; give --to FORMAT",
                    display_path(o)
                )
            })?
        }
        _ => return Err("give the output format with --to FORMAT (or -o FILE.EXT)".into()),
    };
    if !to.writable() {
        return Err(format!("writing {} is not available", to.name()));
    }
    Ok(to)
}

/// Prints the failed files and the summary
/// line to standard error (nothing under `-q`) (each file's diagnostics were printed as it finished); returns the
/// number of failed files.
fn summarise(args: &ConvertArgs, to: Format, inputs: &[InputFile], outcomes: &[Outcome]) -> usize {
    let mut err = std::io::stderr().lock();
    let failed: Vec<&str> = outcomes
        .iter()
        .zip(inputs)
        .filter(|(o, _)| o.failed)
        .map(|(_, i)| i.display.as_str())
        .collect();
    // `-q`: the failed files' errors were printed; nothing else is.
    if args.quiet {
        return failed.len();
    }
    let warnings: usize = outcomes.iter().map(|o| o.warnings).sum();
    let unmodelled = unmodelled_total(outcomes);
    if !failed.is_empty() {
        let _ = writeln!(err, "failed:");
        for f in &failed {
            let _ = writeln!(err, "  {f}");
        }
    }
    if !unmodelled.is_empty() {
        let list: Vec<String> = unmodelled
            .iter()
            .map(|(k, v)| format!("{k} ×{v}"))
            .collect();
        let _ = writeln!(
            err,
            "kept verbatim (no typed form yet): {}",
            list.join(", ")
        );
    }
    let current = outcomes.iter().filter(|o| o.up_to_date).count();
    let _ = writeln!(
        err,
        "converted {} of {} file{} to {}, {} failed, {} warning{}{}",
        outcomes
            .iter()
            .filter(|o| !o.failed && !o.skipped && !o.up_to_date)
            .count(),
        inputs.len(),
        plural(inputs.len()),
        to.name(),
        failed.len(),
        warnings,
        plural(warnings),
        if current > 0 {
            format!(", {current} up to date")
        } else {
            String::new()
        }
    );
    if args.verify {
        let counts: Vec<String> = verdict_counts(outcomes)
            .iter()
            .map(|(k, v)| format!("{v} {k}"))
            .collect();
        let _ = writeln!(err, "verdicts: {}", counts.join(", "));
    }
    failed.len()
}

fn unmodelled_total(outcomes: &[Outcome]) -> BTreeMap<&str, usize> {
    let mut unmodelled: BTreeMap<&str, usize> = BTreeMap::new();
    for o in outcomes {
        for (k, v) in &o.unmodelled {
            *unmodelled.entry(k).or_default() += v;
        }
    }
    unmodelled
}

/// The state of one file in the report: converted, failed, up-to-date (`--update` left it) or
/// skipped (interrupted before its output was started).
fn status(o: &Outcome) -> &'static str {
    if o.skipped {
        "skipped"
    } else if o.failed {
        "failed"
    } else if o.up_to_date {
        "up-to-date"
    } else {
        "converted"
    }
}

/// The `--report` JSON document.
fn report(to: Format, inputs: &[InputFile], targets: &[Target], outcomes: &[Outcome]) -> String {
    let files: Vec<serde_json::Value> = outcomes
        .iter()
        .zip(inputs)
        .zip(targets)
        .map(|((o, i), t)| {
            serde_json::json!({
                "input": i.display,
                "output": match t {
                    Target::Stdout => "-".to_string(),
                    Target::File(p) => display_path(p),
                },
                "status": status(o),
                "failed": o.failed,
                "errors": o.errors,
                "warnings": o.warnings,
                "diagnostics": o.codes,
                "unmodelled": o.unmodelled,
                "games": o.games,
                "variants": o.variants,
                "verdicts": o.verdicts,
                "bytes_in": o.bytes_in,
                "bytes_out": o.bytes_out,
            })
        })
        .collect();
    let count = |s: &str| outcomes.iter().filter(|o| status(o) == s).count();
    let doc = serde_json::json!({
        "to": to.name(),
        "files": files,
        "summary": {
            "files": inputs.len(),
            "converted": count("converted"),
            "failed": count("failed"),
            "skipped": count("skipped"),
            "up_to_date": count("up-to-date"),
            "errors": outcomes.iter().map(|o| o.errors).sum::<usize>(),
            "warnings": outcomes.iter().map(|o| o.warnings).sum::<usize>(),
            "unmodelled": unmodelled_total(outcomes),
            "verdicts": verdict_counts(outcomes),
        },
    });
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    text
}

/// Decides every input's output path; refuses outputs that would overwrite an input or each
/// other (also when names differ only in letter case, as on case-insensitive file systems), an
/// output folder that cannot be written, and an existing report without `--force`.
fn plan_targets(
    args: &ConvertArgs,
    to: Format,
    inputs: &[InputFile],
    single: bool,
) -> Result<(Vec<Target>, Option<OutputDir>), String> {
    let targets = if single {
        vec![match args.output.as_deref() {
            None => Target::Stdout,
            Some(p) if p.as_os_str() == "-" => Target::Stdout,
            Some(p) if p.is_dir() => Target::File(p.join(output_name(&inputs[0], to))),
            Some(p) => Target::File(p.to_path_buf()),
        }]
    } else {
        mirrored_targets(args, to, inputs)?
    };
    refuse_overwriting_inputs(inputs, &targets, args.report.as_deref())?;
    if let Some(report) = &args.report {
        if output::is_stdout(report) && matches!(targets[0], Target::Stdout) {
            return Err("the output goes to standard output; give --report a file".into());
        }
        // The report describes this run: `--update` (a resumed run) replaces it too.
        output::plan(
            report,
            Existing::new(args.force || args.update, false),
            None,
        )
        .map_err(|e| format!("--report: {e}"))?;
    }
    // One error for an output folder that cannot take files, not one per input.
    let folder = match (&targets[0], args.output.as_deref()) {
        (Target::File(_), Some(dir)) if !single => Some(dir.to_path_buf()),
        (Target::File(p), _) => Some(super::parent_dir(p)),
        (Target::Stdout, _) => None,
    };
    // The folder is held open for the run: every output below it is written through it.
    let held = match folder {
        Some(dir) => {
            output::usable_dir(&dir)?;
            Some(OutputDir::open(&dir)?)
        }
        None => None,
    };
    Ok((targets, held))
}

/// The outputs of a batch: below `-o DIR`, mirroring the tree below each input folder.
fn mirrored_targets(
    args: &ConvertArgs,
    to: Format,
    inputs: &[InputFile],
) -> Result<Vec<Target>, String> {
    let out = args.output.as_deref();
    let Some(dir) = out.filter(|p| p.as_os_str() != "-") else {
        return Err("several inputs need an output directory: -o DIR".into());
    };
    let mut targets = Vec::with_capacity(inputs.len());
    for input in inputs {
        let Some(path) = &input.path else {
            return Err("standard input can only be converted on its own".into());
        };
        // Mirror the tree below whichever input root this file came from.
        let root = args
            .inputs
            .iter()
            .filter(|r| path.starts_with(r))
            .max_by_key(|r| r.as_os_str().len());
        let rel = match root {
            Some(r) if r.is_dir() => path.strip_prefix(r).unwrap_or(path).to_path_buf(),
            _ => PathBuf::from(path.file_name().unwrap_or_default()),
        };
        // Only plain names below OUT: nothing in an input path (`..`, a root) leads out of it.
        if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(format!(
                "{}: cannot place its output below {}",
                input.display,
                display_path(dir)
            ));
        }
        targets.push(dir.join(rel).with_extension(to.extension()));
    }
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (i, p) in targets.iter().enumerate() {
        let key = display_path(p).to_lowercase();
        if let Some(j) = seen.insert(key, i) {
            let (a, b) = (display_path(&targets[j]), display_path(p));
            return Err(if a == b {
                format!(
                    "{} and {} would both be written to {a}; convert them into separate folders",
                    inputs[j].display, inputs[i].display
                )
            } else {
                format!(
                    "{} and {} would be written to {a} and {b}, names that differ only in letter case and collide on case-insensitive file systems (Windows, macOS)",
                    inputs[j].display, inputs[i].display
                )
            });
        }
    }
    Ok(targets.into_iter().map(Target::File).collect())
}

/// Refuses a plan that would write an output (or the report) onto one of the inputs: same file
/// by its canonical path, however the paths were spelled (`-o .`, `./a.zrf`, links).
fn refuse_overwriting_inputs(
    inputs: &[InputFile],
    targets: &[Target],
    report: Option<&Path>,
) -> Result<(), String> {
    let canonical: BTreeMap<PathBuf, &str> = inputs
        .iter()
        .filter_map(|i| {
            let p = i.path.as_ref()?;
            Some((std::fs::canonicalize(p).ok()?, i.display.as_str()))
        })
        .collect();
    let outputs = targets
        .iter()
        .filter_map(|t| match t {
            Target::File(p) => Some(p.as_path()),
            Target::Stdout => None,
        })
        .chain(report);
    for out in outputs {
        if let Some(input) = std::fs::canonicalize(out)
            .ok()
            .and_then(|c| canonical.get(&c))
        {
            return Err(format!(
                "refusing to write {} over the input {input} (choose another output)",
                display_path(out)
            ));
        }
    }
    Ok(())
}

fn output_name(input: &InputFile, to: Format) -> PathBuf {
    let name = input
        .path
        .as_ref()
        .and_then(|p| p.file_name())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("stdin"));
    name.with_extension(to.extension())
}

/// Whether `target` may be written for `input`: `Plan::Write`, `Plan::UpToDate`, or the error
/// line that fails the file.
fn plan_output(
    existing: Existing,
    input: &InputFile,
    (target, held): (&Target, Option<&OutputDir>),
) -> Result<Plan, String> {
    let Target::File(p) = target else {
        return Ok(Plan::Write);
    };
    if input.path.as_deref() == Some(p.as_path()) {
        return Err(format!(
            "error: {}: refusing to write over the input\n",
            input.display
        ));
    }
    // As the output folder held open for the run sees it.
    let meta = match held {
        Some(dir) => dir.metadata(p),
        None => std::fs::symlink_metadata(p).ok(),
    };
    output::plan_meta(p, meta, existing, input.path.as_deref()).map_err(|e| {
        let hint = if e.ends_with("(use --force to overwrite)") {
            "; --update skips outputs newer than their input"
        } else {
            ""
        };
        format!("error: {}: output {e}{hint}\n", input.display)
    })
}

/// Why a converted file fails (an error, the writer's too; a denied warning; a denied partial
/// verdict), or `None` when it is written.
fn why_failed(base: &Outcome, policy: &Policy) -> Option<String> {
    let partial = base
        .verdicts
        .iter()
        .filter(|v| v.verdict == Verdict::Partial)
        .count();
    if !(policy.fails(base.errors, base.warnings) || (policy.deny_partial && partial > 0)) {
        return None;
    }
    Some(if base.errors > 0 {
        format!("{} error{}", base.errors, plural(base.errors))
    } else if !policy.fails(0, base.warnings) {
        format!(
            "{partial} partial verdict{} (--deny partial)",
            plural(partial)
        )
    } else {
        format!(
            "{} warning{} (--deny warnings)",
            base.warnings,
            plural(base.warnings)
        )
    })
}

/// `doc` with the pictures of `--with-images` (`None` without it), the notes counted as
/// warnings and shown; or the error line that fails the file.
fn with_images(
    doc: &zogkit::spec::Document,
    args: &ConvertArgs,
    input: &InputFile,
    base: &mut Outcome,
    text: &mut String,
) -> Result<Option<zogkit::spec::Document>, String> {
    let Some(dir) = &args.with_images else {
        return Ok(None);
    };
    let mut imaged = doc.clone();
    let notes = super::render::with_images(&mut imaged, dir)
        .map_err(|e| format!("error: {}: {e}\n", input.display))?;
    base.warnings += notes.len();
    for n in notes {
        text.push_str(&format!("warning: {}: {n}\n", input.display));
    }
    Ok(Some(imaged))
}

/// Writes the converted bytes: to standard output, or to the file through the output folder
/// held open for the run, replacing only what the plan allowed to replace (a new output is
/// claimed exclusively).
fn write_output(
    (target, held): (&Target, Option<&OutputDir>),
    out: &[u8],
    existing: Existing,
) -> Result<(), String> {
    match target {
        Target::Stdout => {
            output::stdout_bytes(out).map_err(|_| "cannot write to standard output".to_string())
        }
        Target::File(p) => match held {
            Some(dir) => {
                let replace = existing != Existing::Refuse && dir.metadata(p).is_some();
                dir.write(p, out, replace)
            }
            None => {
                let replace = existing != Existing::Refuse && std::fs::symlink_metadata(p).is_ok();
                output::write(p, out, replace)
            }
        },
    }
}

fn convert_one(
    args: &ConvertArgs,
    to: Format,
    input: &InputFile,
    (target, held): (&Target, Option<&OutputDir>),
    opts: &format::ReadOptions,
) -> Outcome {
    let existing = Existing::new(args.force, args.update);
    let (bytes, r) = match read_planned(args, input, (target, held), opts, existing) {
        Ok(read) => read,
        Err(outcome) => return *outcome,
    };
    let policy = Policy::new(&args.deny);
    let mut t = Tally {
        text: String::new(),
        base: Outcome {
            bytes_in: bytes.len(),
            ..Default::default()
        },
        sources: &r.sources,
        display: &input.display,
        verbose: args.verbose,
    };
    for d in &r.diagnostics {
        t.record(d);
    }
    (t.base.games, t.base.variants) = r
        .document
        .as_ref()
        .map_or((0, 0), |d| d.games_and_variants());
    let Some(doc) = r.document.as_ref().filter(|_| t.base.errors == 0) else {
        return t.failed(r.unmodelled);
    };
    let imaged = match with_images(doc, args, input, &mut t.base, &mut t.text) {
        Ok(d) => d,
        Err(e) => return fail(t.text, e),
    };
    let doc = imaged.as_ref().unwrap_or(doc);
    let selected;
    let doc = match &args.piece {
        None => doc,
        Some(name) => match zogkit::chessembly::piece::select(doc, name) {
            Ok(d) => {
                selected = d;
                &selected
            }
            Err(d) => {
                t.record(&d);
                return t.failed(r.unmodelled);
            }
        },
    };
    let wopts = format::WriteOptions {
        allow_partial: args.allow_partial,
    };
    let (out, wdiags) = match format::write_with(to, doc, &r.origins, &wopts) {
        Ok(x) => x,
        Err(d) => {
            t.record(&d);
            return t.failed(r.unmodelled);
        }
    };
    for d in &wdiags {
        t.record(d);
    }
    if let Some(d) = format::output_too_large(to, out.len(), opts) {
        t.record(&d);
        return t.failed(r.unmodelled);
    }
    if args.verify {
        t.verify(args, opts, (doc, &r.origins), (to, &out, &wdiags));
    }
    // An error (the writer's too), a denied warning or a denied partial verdict fails the
    // file: nothing is written.
    if let Some(why) = why_failed(&t.base, &policy) {
        t.text.push_str(&format!(
            "error: {}: failed with {why}; nothing written\n",
            input.display
        ));
        return t.failed(r.unmodelled);
    }
    // After an interrupt nothing new is written.
    if interrupted() {
        return Outcome::interrupted();
    }
    if let Err(e) = write_output((target, held), &out, existing) {
        t.text.push_str(&format!("error: {}: {e}\n", input.display));
        return t.failed(r.unmodelled);
    }
    Outcome {
        text: t.text,
        failed: false,
        unmodelled: r.unmodelled,
        bytes_out: out.len(),
        ..t.base
    }
}

/// A file that fails with the one error line `msg` after `text`.
fn fail(mut text: String, msg: String) -> Outcome {
    text.push_str(&msg);
    Outcome {
        text,
        failed: true,
        errors: 1,
        ..Default::default()
    }
}

/// Reads the input when its output is to be written: its bytes and what the reader made of
/// them, or the outcome of a file that is up to date, cannot be read, or was interrupted.
fn read_planned(
    args: &ConvertArgs,
    input: &InputFile,
    (target, held): (&Target, Option<&OutputDir>),
    opts: &format::ReadOptions,
    existing: Existing,
) -> Result<(Vec<u8>, format::ReadResult), Box<Outcome>> {
    // As `check` reads it: by extension, any other one as ZRF.
    let from = outcome::format_of(args.from, input);
    match plan_output(existing, input, (target, held)) {
        Ok(Plan::Write) => {}
        Ok(Plan::UpToDate) => {
            return Err(Box::new(Outcome {
                up_to_date: true,
                ..Default::default()
            }));
        }
        Err(e) => return Err(Box::new(fail(String::new(), e))),
    }
    let bytes = match read_input(input) {
        Ok(b) => b,
        Err(e) => {
            return Err(Box::new(fail(
                String::new(),
                format!("error: cannot read {}: {e}\n", input.display),
            )));
        }
    };
    let r = super::read_as(from, input, &bytes, opts);
    // Ctrl-C during the read (which then stops at once): the file is not converted.
    if interrupted() {
        return Err(Box::new(Outcome::interrupted()));
    }
    Ok((bytes, r))
}

/// One file's report text and figures, as its diagnostics come.
struct Tally<'a> {
    text: String,
    base: Outcome,
    /// The texts the diagnostics point into.
    sources: &'a zogkit::diag::SourceMap,
    /// The file's name as shown.
    display: &'a str,
    /// Notes are shown too (`-v`).
    verbose: bool,
}

impl Tally<'_> {
    /// Counts a diagnostic, read or write alike, and shows it (a note with -v only).
    fn record(&mut self, d: &Diagnostic) {
        *self.base.codes.entry(d.code).or_default() += 1;
        match d.severity {
            Severity::Error => self.base.errors += 1,
            Severity::Warning => self.base.warnings += 1,
            Severity::Note => {}
        }
        if d.severity > Severity::Note || self.verbose {
            self.text.push_str(&d.render(self.sources, self.display));
            self.text.push('\n');
        }
    }

    /// The file failed: its figures so far, with its report text and unmodelled forms.
    fn failed(self, unmodelled: BTreeMap<String, usize>) -> Outcome {
        self.base.failed(self.text, unmodelled)
    }

    /// `--verify`: the written output checked against the document (with its origins); each
    /// equal game is shown unless `--quiet`.
    fn verify(
        &mut self,
        args: &ConvertArgs,
        opts: &format::ReadOptions,
        (doc, origins): (&zogkit::spec::Document, &zogkit::spec::Origins),
        (to, out, wdiags): (Format, &[u8], &[Diagnostic]),
    ) {
        let vopts = zogkit::verify::Options {
            positions: args.verify_positions,
            engine_steps: opts.engine_steps,
            interrupt: Some(super::interrupt_flag()),
            ..Default::default()
        };
        let (verdicts, vdiags) = zogkit::verify::verify_at(doc, origins, to, out, wdiags, &vopts);
        for d in &vdiags {
            self.record(d);
        }
        for v in verdicts.iter().filter(|v| v.verdict == Verdict::Equal) {
            if !args.quiet {
                self.text.push_str(&format!(
                    "verified: {}: {:?} {}\n",
                    self.display,
                    v.game,
                    v.same()
                ));
            }
        }
        self.base.verdicts = verdicts;
    }
}

/// How many games got each `--verify` verdict (empty without `--verify`).
fn verdict_counts(outcomes: &[Outcome]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for v in outcomes.iter().flat_map(|o| &o.verdicts) {
        let name = serde_json::to_value(v.verdict)
            .ok()
            .and_then(|j| j.as_str().map(str::to_string))
            .unwrap_or_default();
        *counts.entry(name).or_default() += 1;
    }
    counts
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
