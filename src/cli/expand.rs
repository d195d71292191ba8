//! `zogkit expand`: print the games and variants of a ZRF file after includes, macros and variant resolution, or a `.lud` game after its defines and options.

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, InputFile, read_input};
use clap::Args;
use std::path::PathBuf;
use zogkit::diag::{Diagnostic, FileId, Severity, SourceMap, Span};
use zogkit::text::Encoding;
use zogkit::zrf::{self, EntryKind};

/// Arguments of `zogkit expand`.
#[derive(Debug, Args)]
pub struct ExpandArgs {
    /// The ZRF or `.lud` file (`-` for standard input, read as ZRF).
    pub file: PathBuf,
    /// Print only this entry (1-based, in menu order: games, variants and separators).
    #[arg(long)]
    pub game: Option<usize>,
    /// Decode with this encoding instead of detecting one.
    #[arg(long, value_parser = super::check::parse_encoding)]
    pub encoding: Option<Encoding>,
}

/// Runs `zogkit expand`.
pub fn run(args: ExpandArgs) -> u8 {
    let input = InputFile::named(&args.file);
    let bytes = match read_input(&input) {
        Ok(b) => b,
        Err(e) => {
            super::error_line!("cannot read {}: {e}", input.display);
            return EXIT_USAGE;
        }
    };
    // Binary data, UTF-16 text and empty files are refused as `check` refuses them.
    let refused = zogkit::text::not_text(&bytes, FileId(0)).or_else(|| {
        bytes.iter().all(u8::is_ascii_whitespace).then(|| {
            let d = Diagnostic::error(
                zogkit::format::CODE_EMPTY,
                "the file is empty: it holds no game",
                Span::new(FileId(0), 0, 0),
            );
            (d, String::new())
        })
    });
    if let Some((d, shown)) = refused {
        let mut sources = SourceMap::new();
        sources.add(input.display.as_str(), shown);
        eprint!(
            "{}",
            super::color::stderr(&d.render(&sources, &input.display))
        );
        return EXIT_ERRORS;
    }
    if zogkit::format::Format::of_path(&input.display) == Some(zogkit::format::Format::Lud) {
        return lud(&input.display, &bytes);
    }
    let opts = super::zrf_options(args.encoding);
    let f = zrf::read(&input.display, &bytes, &opts, &mut *super::loader(&input));
    for d in f.diagnostics.iter().filter(|d| d.severity > Severity::Note) {
        eprint!(
            "{}",
            super::color::stderr(&d.render(&f.sources, &input.display))
        );
    }
    if let Some(n) = args.game
        && (n == 0 || n > f.expanded.entries.len())
    {
        eprintln!(
            "error: --game {n} is out of range: the file has {} entries",
            f.expanded.entries.len()
        );
        return EXIT_USAGE;
    }
    let mut out = String::new();
    for (i, e) in f.expanded.entries.iter().enumerate() {
        if args.game.is_some_and(|n| n != i + 1) {
            continue;
        }
        let title = e.title.as_deref().unwrap_or("");
        let default = if e.default { " (default)" } else { "" };
        match e.kind {
            EntryKind::Game => out.push_str(&format!(";; {}: game {title:?}{default}\n", i + 1)),
            EntryKind::Variant { of } => out.push_str(&format!(
                ";; {}: variant {title:?} of {}{default}\n",
                i + 1,
                of.checked_add(1)
                    .filter(|&g| g <= f.expanded.entries.len())
                    .map_or("no game".to_string(), |g| g.to_string())
            )),
            EntryKind::Separator => out.push_str(&format!(";; {}: separator\n", i + 1)),
        }
        if let Some(form) = &e.form {
            form.write_pretty(&mut out, 0, 100);
            out.push('\n');
        } else if e.kind != EntryKind::Separator {
            out.push_str(";; (not expanded: see the errors above)\n");
        }
    }
    if let Err(code) = super::print_stdout(&out) {
        return code;
    }
    if f.errors() > 0 { EXIT_ERRORS } else { EXIT_OK }
}

/// A `.lud` game after its defines (Ludii's, with `--ludii`) and options.
fn lud(display: &str, bytes: &[u8]) -> u8 {
    let text = String::from_utf8_lossy(bytes);
    let opts = super::read_options(None).ludii;
    let (game, diags) = zogkit::ludii::expand_lud(&text, FileId(0), &opts);
    let mut sources = SourceMap::new();
    sources.add(display, text.to_string());
    for d in diags.iter().filter(|d| d.severity > Severity::Note) {
        eprint!("{}", super::color::stderr(&d.render(&sources, display)));
    }
    match game {
        Some(g) => {
            println!("{g}");
            if diags.iter().any(|d| d.severity == Severity::Error) {
                EXIT_ERRORS
            } else {
                EXIT_OK
            }
        }
        None => EXIT_ERRORS,
    }
}
