//! `zogkit check`: read rule files (ZRF, YAML spec, Ludii, Chessembly) and directories of them, print located diagnostics and a summary.

use super::outcome::{self, Deny, Policy, count};
use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, InputFile, read_input};
use clap::{Args, ValueEnum};
use std::fmt::Write as _;
use std::path::PathBuf;
use zogkit::diag::{Diagnostic, Severity, SourceMap};
use zogkit::format;
use zogkit::text::Encoding;

/// Output format of diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Human-readable, like rustc.
    Text,
    /// One JSON document with every file's diagnostics and the summary.
    Json,
}

/// Arguments of `zogkit check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Files or directories; `-` reads standard input. A file is read in the format its
    /// extension names (.zrf, .yaml/.yml, .lud, .csm; any other extension is read as ZRF);
    /// directories are searched recursively for .zrf, .yaml/.yml, .csm and .lud files (for the
    /// --from format's files with --from).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Read every input in this format instead of choosing by extension.
    #[arg(long, value_parser = super::convert::readable_format())]
    pub from: Option<format::Format>,
    /// Decode every input with this encoding (utf-8, shift_jis, windows-1251, windows-1252).
    #[arg(long, value_parser = parse_encoding)]
    pub encoding: Option<Encoding>,
    /// `--dialect` for `.csm` inputs.
    #[command(flatten)]
    pub dialect: super::moves::DialectOpt,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also show notes (macro arity remarks, encoding choices).
    #[arg(short, long)]
    pub verbose: bool,
    /// Print nothing but errors: their diagnostics, no warnings, notes or summary line.
    #[arg(short, long)]
    pub quiet: bool,
    /// Fail on these too (`--deny warnings`: a file with a warning fails, for CI).
    #[arg(long, value_enum, value_name = "WHAT")]
    pub deny: Vec<Deny>,
}

/// Parses an encoding name for clap.
pub fn parse_encoding(s: &str) -> Result<Encoding, String> {
    Encoding::from_name(s).ok_or_else(|| {
        format!("unknown encoding {s:?}; expected utf-8, shift_jis, windows-1251 or windows-1252")
    })
}

struct FileReport {
    /// The rendered diagnostics (only when text output shows them).
    text: String,
    /// The file's JSON entry (only for `--format json`).
    json: Option<serde_json::Value>,
    games: usize,
    variants: usize,
    errors: usize,
    warnings: usize,
}

/// What a report must hold: rendered text, a JSON entry, or only counts.
#[derive(Debug, Clone, Copy)]
struct Output {
    text: bool,
    json: bool,
    verbose: bool,
    /// `-q`: only error diagnostics are rendered.
    quiet: bool,
}

impl Output {
    /// Renders the diagnostics shown as text.
    fn render(&self, diags: &[Diagnostic], sources: &SourceMap, file: &str) -> String {
        let mut text = String::new();
        if !self.text {
            return text;
        }
        for d in diags {
            if (d.severity == Severity::Note && !self.verbose)
                || (self.quiet && d.severity != Severity::Error)
            {
                continue;
            }
            text.push_str(&d.render(sources, file));
            text.push('\n');
        }
        text
    }
}

/// Located diagnostics one file's entry in `check --format json` holds at most; the rest are
/// counted in its `diagnostics_omitted` (its `errors` and `warnings` count them all), so a batch
/// with many warnings per file does not hold them all in memory.
pub const MAX_JSON_DIAGNOSTICS: usize = 128;

fn diagnostics_json(diags: &[Diagnostic], sources: &SourceMap, file: &str) -> serde_json::Value {
    diags
        .iter()
        .take(MAX_JSON_DIAGNOSTICS)
        .map(|d| d.to_json(sources, file))
        .collect()
}

/// Checks one input exactly as `convert` reads it, without writing: [`format::read`] in the
/// format [`outcome::format_of`] chooses, so both report the same diagnostics (decoding,
/// parsing, expansion, lowering and [`zogkit::spec::check`]) and fail on the same files.
fn check_one(
    input: &InputFile,
    from: format::Format,
    opts: &format::ReadOptions,
    out: Output,
) -> FileReport {
    let bytes = match read_input(input) {
        Ok(b) => b,
        Err(e) => {
            let msg = format!("error[io]: cannot read {}: {e}\n", input.display);
            return FileReport {
                json: out
                    .json
                    .then(|| serde_json::json!({"file": input.display, "io_error": e.to_string()})),
                text: msg,
                games: 0,
                variants: 0,
                errors: 1,
                warnings: 0,
            };
        }
    };
    let r = super::read_as(from, input, &bytes, opts);
    let text = out.render(&r.diagnostics, &r.sources, &input.display);
    // Counted by entry kind, so menu separators are neither.
    let (games, variants) = r
        .document
        .as_ref()
        .map_or((0, 0), |d| d.games_and_variants());
    let json = out.json.then(|| {
        let mut j = serde_json::json!({
            "file": input.display,
            "format": from.name(),
        });
        if let Some(f) = &r.facts {
            j["encoding"] = f.encoding.name().into();
            j["encoding_confidence"] = serde_json::json!(f.confidence);
            j["encoding_reason"] = f.reason.clone().into();
            j["line_endings"] = serde_json::json!(f.line_endings);
            if let Some(n) = f.expanded_nodes {
                j["expanded_nodes"] = n.into();
            }
        }
        j["games"] = games.into();
        j["variants"] = variants.into();
        j["errors"] = count(&r.diagnostics, Severity::Error).into();
        j["warnings"] = count(&r.diagnostics, Severity::Warning).into();
        j["diagnostics"] = diagnostics_json(&r.diagnostics, &r.sources, &input.display);
        let omitted = r.diagnostics.len().saturating_sub(MAX_JSON_DIAGNOSTICS);
        if omitted > 0 {
            j["diagnostics_omitted"] = omitted.into();
        }
        j
    });
    FileReport {
        text,
        json,
        games,
        variants,
        errors: count(&r.diagnostics, Severity::Error),
        warnings: count(&r.diagnostics, Severity::Warning),
    }
}

/// Runs `zogkit check`: what `convert` does without writing, with the same exit status.
pub fn run(args: CheckArgs) -> u8 {
    let exts = outcome::extensions(args.from, None);
    let inputs = match outcome::inputs(&args.paths, &exts, args.quiet) {
        Ok(v) => v,
        Err(code) => return code,
    };
    let policy = Policy::new(&args.deny);
    if policy.deny_partial {
        super::error_line!(
            "--deny partial is for verdicts (`convert --verify`, `roundtrip`); `check` gives none"
        );
        return EXIT_USAGE;
    }
    let opts = args.dialect.apply(super::read_options(args.encoding));
    let out = Output {
        text: args.format == Format::Text,
        json: args.format == Format::Json,
        verbose: args.verbose,
        quiet: args.quiet,
    };
    let pb = super::progress(inputs.len(), args.quiet || args.format == Format::Json);
    // Each file's text or JSON entry is printed as soon as the files before it are done, then
    // dropped: memory does not grow with the diagnostics of finished files.
    let printer = super::InOrder::new(&pb, true);
    if args.format == Format::Json {
        printer.done_header("{\n  \"files\": [\n");
    }
    let reports: Vec<FileReport> = super::par_map_largest_first(&inputs, |n, i| {
        // A named file with an extension zogkit does not know (`.ZRF` is known) is read as ZRF.
        let mut r = check_one(i, outcome::format_of(args.from, i), &opts, out);
        let text = match r.json.take() {
            Some(j) => {
                let entry = serde_json::to_string_pretty(&j).unwrap_or_default();
                format!("{}{entry}", if n == 0 { "" } else { ",\n" })
            }
            None => super::color::stdout(&std::mem::take(&mut r.text)).into_owned(),
        };
        printer.done(n, text);
        pb.inc(1);
        r
    });
    pb.finish_and_clear();
    let printed_ok = !printer.failed();

    let files = reports.len();
    let games: usize = reports.iter().map(|r| r.games).sum();
    let variants: usize = reports.iter().map(|r| r.variants).sum();
    let errors: usize = reports.iter().map(|r| r.errors).sum();
    let warnings: usize = reports.iter().map(|r| r.warnings).sum();
    let failed: Vec<&str> = reports
        .iter()
        .zip(&inputs)
        .filter(|(r, _)| r.errors > 0)
        .map(|(_, i)| i.display.as_str())
        .collect();
    // Files that fail only because their warnings are denied.
    let denied: Vec<&str> = reports
        .iter()
        .zip(&inputs)
        .filter(|(r, _)| r.errors == 0 && policy.fails(0, r.warnings))
        .map(|(_, i)| i.display.as_str())
        .collect();
    let summary = format!(
        "checked {files} file{}: {games} game{}, {variants} variant{}, {errors} error{}, {warnings} warning{}",
        plural(files),
        plural(games),
        plural(variants),
        plural(errors),
        plural(warnings)
    );
    let mut out = String::new();
    match args.format {
        Format::Json => {
            let summary = serde_json::json!({"files": files, "games": games, "variants": variants, "errors": errors, "warnings": warnings, "failed": failed.iter().chain(&denied).collect::<Vec<_>>()});
            let _ = writeln!(out, "\n  ],\n  \"summary\": {summary:#}\n}}");
        }
        // `-q`: the errors were printed; nothing else is.
        Format::Text if args.quiet => {}
        Format::Text => {
            if !failed.is_empty() {
                out.push_str("files with errors:\n");
                for f in &failed {
                    let _ = writeln!(out, "  {f}");
                }
            }
            if !denied.is_empty() {
                out.push_str("files with warnings (denied by --deny warnings):\n");
                for f in &denied {
                    let _ = writeln!(out, "  {f}");
                }
            }
            let _ = writeln!(out, "{summary}");
        }
    }
    if !printed_ok {
        return EXIT_USAGE;
    }
    if let Err(code) = super::print_stdout(&out) {
        return code;
    }
    if failed.is_empty() && denied.is_empty() {
        EXIT_OK
    } else {
        EXIT_ERRORS
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
