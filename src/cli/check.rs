//! `zogkit check`: read ZRF files and directories, print located diagnostics and a summary.

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, InputFile, collect_inputs, read_input};
use clap::{Args, ValueEnum};
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;
use zogkit::diag::Severity;
use zogkit::text::Encoding;
use zogkit::zrf::{self, EntryKind, ReadOptions};

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
    /// Files or directories (searched recursively for .zrf files); `-` reads standard input.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Decode every input with this encoding (utf-8, shift_jis, windows-1251, windows-1252).
    #[arg(long, value_parser = parse_encoding)]
    pub encoding: Option<Encoding>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also show notes (macro arity remarks, encoding choices).
    #[arg(short, long)]
    pub verbose: bool,
    /// Print only the summary line (and nothing at all for a clean run with --format text... no: the summary is always printed).
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
    text: String,
    json: serde_json::Value,
    games: usize,
    variants: usize,
    errors: usize,
    warnings: usize,
    io_error: bool,
}

fn check_one(input: &InputFile, opts: &ReadOptions, verbose: bool) -> FileReport {
    let bytes = match read_input(input) {
        Ok(b) => b,
        Err(e) => {
            let msg = format!("error[io]: cannot read {}: {e}\n", input.display);
            return FileReport {
                json: serde_json::json!({"file": input.display, "io_error": e.to_string()}),
                text: msg,
                games: 0,
                variants: 0,
                errors: 1,
                warnings: 0,
                io_error: true,
            };
        }
    };
    let f = zrf::read(&input.display, &bytes, opts, &mut *super::loader(input));
    let mut text = String::new();
    for d in &f.diagnostics {
        if d.severity == Severity::Note && !verbose {
            continue;
        }
        text.push_str(&d.render(&f.sources, &input.display));
        text.push('\n');
    }
    let games = f
        .expanded
        .entries
        .iter()
        .filter(|e| e.kind == EntryKind::Game)
        .count();
    let variants = f
        .expanded
        .entries
        .iter()
        .filter(|e| matches!(e.kind, EntryKind::Variant { .. }))
        .count();
    let json = serde_json::json!({
        "file": input.display,
        "encoding": f.decoded.encoding.name(),
        "encoding_confidence": f.decoded.confidence,
        "encoding_reason": f.decoded.reason,
        "line_endings": f.decoded.line_endings,
        "games": games,
        "variants": variants,
        "expanded_nodes": f.expanded.nodes,
        "diagnostics": f.diagnostics.iter().map(|d| d.to_json(&f.sources, &input.display)).collect::<Vec<_>>(),
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

/// Runs `zogkit check`.
pub fn run(args: CheckArgs) -> u8 {
    let inputs = match collect_inputs(&args.paths, &["zrf"]) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let opts = super::zrf_options(args.encoding);
    let pb = super::progress(inputs.len(), args.quiet || args.format == Format::Json);
    let reports: Vec<FileReport> = inputs
        .par_iter()
        .map(|i| {
            let r = check_one(i, &opts, args.verbose);
            pb.inc(1);
            r
        })
        .collect();
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
                "files": reports.iter().map(|r| &r.json).collect::<Vec<_>>(),
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
