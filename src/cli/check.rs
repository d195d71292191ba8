//! `zogkit check`: read rule files (ZRF, YAML spec, Ludii, Chessembly) and directories of ZRF files, print located diagnostics and a summary.

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, InputFile, collect_inputs, read_input};
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::PathBuf;
use zogkit::diag::{Diagnostic, Severity, SourceMap};
use zogkit::format;
use zogkit::text::Encoding;
use zogkit::zrf;

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
    /// directories are searched recursively for .zrf files (for the --from format's files
    /// with --from).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Read every input in this format instead of choosing by extension.
    #[arg(long, value_parser = super::convert::parse_format)]
    pub from: Option<format::Format>,
    /// Decode every input with this encoding (utf-8, shift_jis, windows-1251, windows-1252).
    #[arg(long, value_parser = parse_encoding)]
    pub encoding: Option<Encoding>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also show notes (macro arity remarks, encoding choices).
    #[arg(short, long)]
    pub verbose: bool,
    /// Print only the list of files with errors and the summary line.
    #[arg(short, long)]
    pub quiet: bool,
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
    io_error: bool,
}

/// What a report must hold: rendered text, a JSON entry, or only counts.
#[derive(Debug, Clone, Copy)]
struct Output {
    text: bool,
    json: bool,
    verbose: bool,
}

impl Output {
    /// Renders the diagnostics shown as text.
    fn render(&self, diags: &[Diagnostic], sources: &SourceMap, file: &str) -> String {
        let mut text = String::new();
        if !self.text {
            return text;
        }
        for d in diags {
            if d.severity == Severity::Note && !self.verbose {
                continue;
            }
            text.push_str(&d.render(sources, file));
            text.push('\n');
        }
        text
    }
}

fn diagnostics_json(diags: &[Diagnostic], sources: &SourceMap, file: &str) -> serde_json::Value {
    diags.iter().map(|d| d.to_json(sources, file)).collect()
}

fn count(diags: &[Diagnostic], s: Severity) -> usize {
    diags.iter().filter(|d| d.severity == s).count()
}

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
                io_error: true,
            };
        }
    };
    if from != format::Format::Zrf {
        return check_spec(input, from, &bytes, opts, out);
    }
    let zopts = zrf::ReadOptions {
        encoding: opts.encoding,
        ..opts.zrf
    };
    let f = zrf::read(&input.display, &bytes, &zopts, &mut *super::loader(input));
    let text = out.render(&f.diagnostics, &f.sources, &input.display);
    let games = f
        .expanded
        .entries
        .iter()
        .filter(|e| e.kind == zrf::EntryKind::Game)
        .count();
    let variants = f
        .expanded
        .entries
        .iter()
        .filter(|e| matches!(e.kind, zrf::EntryKind::Variant { .. }))
        .count();
    let json = out.json.then(|| {
        serde_json::json!({
            "file": input.display,
            "format": from.name(),
            "encoding": f.decoded.encoding.name(),
            "encoding_confidence": f.decoded.confidence,
            "encoding_reason": f.decoded.reason,
            "line_endings": f.decoded.line_endings,
            "games": games,
            "variants": variants,
            "expanded_nodes": f.expanded.nodes,
            "diagnostics": diagnostics_json(&f.diagnostics, &f.sources, &input.display),
        })
    });
    FileReport {
        text,
        json,
        games,
        variants,
        errors: f.errors(),
        warnings: f.warnings(),
        io_error: false,
    }
}

/// Checks a file in a format other than ZRF: reads it into a spec document with
/// [`format::read`] and counts the document's games and variants.
fn check_spec(
    input: &InputFile,
    from: format::Format,
    bytes: &[u8],
    opts: &format::ReadOptions,
    out: Output,
) -> FileReport {
    let r = format::read(
        from,
        &input.display,
        bytes,
        opts,
        &mut *super::loader(input),
    );
    let text = out.render(&r.diagnostics, &r.sources, &input.display);
    // Counted as for ZRF: by entry kind, so menu separators are neither.
    let (games, variants) = r
        .document
        .as_ref()
        .map_or((0, 0), |d| d.games_and_variants());
    let json = out.json.then(|| {
        serde_json::json!({
            "file": input.display,
            "format": from.name(),
            "games": games,
            "variants": variants,
            "diagnostics": diagnostics_json(&r.diagnostics, &r.sources, &input.display),
        })
    });
    FileReport {
        text,
        json,
        games,
        variants,
        errors: count(&r.diagnostics, Severity::Error),
        warnings: count(&r.diagnostics, Severity::Warning),
        io_error: false,
    }
}

/// Runs `zogkit check`.
pub fn run(args: CheckArgs) -> u8 {
    let ext = args.from.map_or("zrf", |f| f.extension());
    let inputs = match collect_inputs(&args.paths, &[ext]) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let opts = super::read_options(args.encoding);
    let out = Output {
        text: args.format == Format::Text && !args.quiet,
        json: args.format == Format::Json,
        verbose: args.verbose,
    };
    let pb = super::progress(inputs.len(), args.quiet || args.format == Format::Json);
    let reports: Vec<FileReport> = super::par_map_largest_first(&inputs, |_, i| {
        // A named file with an extension zogkit does not know (`.ZRF` is known) is read as ZRF,
        // as it always was.
        let from = args
            .from
            .or_else(|| format::Format::of_path(&i.display))
            .unwrap_or(format::Format::Zrf);
        let r = check_one(i, from, &opts, out);
        pb.inc(1);
        r
    });
    pb.finish_and_clear();

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
    let io_errors = reports.iter().filter(|r| r.io_error).count();
    let summary = format!(
        "checked {files} file{}: {games} game{}, {variants} variant{}, {errors} error{}, {warnings} warning{}",
        plural(files),
        plural(games),
        plural(variants),
        plural(errors),
        plural(warnings)
    );
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let res = match args.format {
        Format::Json => {
            let doc = serde_json::json!({
                "files": reports.iter().filter_map(|r| r.json.as_ref()).collect::<Vec<_>>(),
                "summary": {"files": files, "games": games, "variants": variants, "errors": errors, "warnings": warnings, "failed": failed},
            });
            writeln!(out, "{doc:#}")
        }
        Format::Text => (|| {
            if !args.quiet {
                for r in &reports {
                    out.write_all(r.text.as_bytes())?;
                }
            }
            if !failed.is_empty() {
                writeln!(out, "files with errors:")?;
                for f in &failed {
                    writeln!(out, "  {f}")?;
                }
            }
            writeln!(out, "{summary}")
        })(),
    };
    if res.is_err() {
        return EXIT_USAGE; // broken pipe or similar
    }
    if io_errors > 0 && io_errors == files {
        EXIT_USAGE
    } else if errors > 0 {
        EXIT_ERRORS
    } else {
        EXIT_OK
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
