//! `zogkit fmt`: re-indent ZRF files, keeping comments, strings, encoding and line endings.

use super::{
    EXIT_ERRORS, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, catch_interrupts, collect_inputs,
    interrupted, write_atomic,
};
use clap::Args;
use std::path::PathBuf;
use zogkit::diag::FileId;
use zogkit::text;

/// Arguments of `zogkit fmt`.
#[derive(Debug, Args)]
pub struct FmtArgs {
    /// ZRF files or directories (searched recursively for `.zrf`).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Rewrite the files in place (atomically) instead of printing them.
    #[arg(long)]
    pub write: bool,
    /// Print a unified diff of what would change (as `rustfmt --check` does) and exit 1 when
    /// any file would; write nothing.
    #[arg(long, conflicts_with = "write")]
    pub check: bool,
}

/// Formats one file's bytes: `Ok(None)` when nothing changes.
fn format_bytes(bytes: &[u8]) -> Result<Option<Vec<u8>>, String> {
    let (decoded, _) = text::decode(bytes, None, FileId(0));
    // Only files that re-encode to exactly their bytes are touched.
    let mut again = if decoded.bom {
        b"\xEF\xBB\xBF".to_vec()
    } else {
        Vec::new()
    };
    again.extend(text::encode(&decoded.text, decoded.encoding).map_err(|e| e.to_string())?);
    if again != bytes {
        return Err("its bytes do not survive decoding and re-encoding; left as it is".into());
    }
    let formatted = zogkit::zrf::fmt::format(&decoded.text);
    if formatted == decoded.text {
        return Ok(None);
    }
    let mut out = if decoded.bom {
        b"\xEF\xBB\xBF".to_vec()
    } else {
        Vec::new()
    };
    out.extend(text::encode(&formatted, decoded.encoding).map_err(|e| e.to_string())?);
    Ok(Some(out))
}

/// The unified diff (3 lines of context) from `old` to `new`, both the same file's bytes,
/// shown as text (the file's encoding is decoded for display).
fn unified_diff(name: &str, old: &[u8], new: &[u8]) -> String {
    let (a, _) = text::decode(old, None, FileId(0));
    let (b, _) = text::decode(new, None, FileId(0));
    let diff = similar::TextDiff::from_lines(a.text.as_str(), b.text.as_str());
    let mut out = format!("Diff in {name}:\n");
    out.push_str(
        &diff
            .unified_diff()
            .context_radius(3)
            .header(name, name)
            .missing_newline_hint(false)
            .to_string(),
    );
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// Writes `bytes` over the file `path` names, atomically. A symbolic link is followed: the
/// file it leads to is replaced (beside itself, keeping its permissions) and the link stays a
/// link, as editors and `rustfmt` treat links.
fn write_through_links(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if is_link {
        write_atomic(&std::fs::canonicalize(path)?, bytes)
    } else {
        write_atomic(path, bytes)
    }
}

/// Runs `zogkit fmt`.
pub fn run(args: FmtArgs) -> u8 {
    let inputs = match collect_inputs(&args.inputs, &["zrf"], false) {
        Ok(v) => v,
        Err(e) => {
            super::error_line!("{e}");
            return EXIT_USAGE;
        }
    };
    let mut code = EXIT_OK;
    let mut changed = 0usize;
    if args.write {
        catch_interrupts();
    }
    for (done, input) in inputs.iter().enumerate() {
        if interrupted() {
            match inputs.len() {
                1 => eprintln!("interrupted: 1 file not looked at"),
                n => eprintln!("interrupted: {} of {n} files not looked at", n - done),
            }
            return EXIT_INTERRUPTED;
        }
        let Some(path) = &input.path else {
            super::error_line!("fmt needs files, not standard input");
            return EXIT_USAGE;
        };
        let max = super::settings().read.zrf.max_input_bytes;
        let bytes = match super::read_regular(path, (max as u64).saturating_add(1)) {
            Ok(b) => b,
            Err(e) => {
                super::error_line!("{}: {e}", input.display);
                code = EXIT_USAGE;
                continue;
            }
        };
        // A file over `input-bytes` (read up to one byte more), binary data and UTF-16 text
        // are refused with an error, as in every other subcommand.
        let refused = match text::too_large(bytes.len(), max, FileId(0)) {
            Some(d) => Some((d, String::new())),
            None => text::not_text(&bytes, FileId(0)),
        };
        if let Some((d, shown)) = refused {
            let mut sources = zogkit::diag::SourceMap::new();
            sources.add(input.display.as_str(), shown);
            eprint!(
                "{}",
                super::color::stderr(&d.render(&sources, &input.display))
            );
            code = code.max(EXIT_ERRORS);
            continue;
        }
        let result = match format_bytes(&bytes) {
            Ok(r) => r,
            Err(e) => {
                super::warning_line!("{}: {e}", input.display);
                continue;
            }
        };
        if result.is_some() {
            changed += 1;
        }
        if args.check {
            if let Some(new) = &result {
                if let Err(c) = super::print_stdout(&unified_diff(&input.display, &bytes, new)) {
                    return c;
                }
                code = code.max(EXIT_ERRORS);
            }
        } else if args.write {
            if let Some(b) = result
                && let Err(e) = write_through_links(path, &b)
            {
                super::error_line!("{}: {e}", input.display);
                code = EXIT_USAGE;
            }
        } else {
            let b = result.unwrap_or(bytes);
            if let Err(c) = super::output::stdout_bytes(&b) {
                return c;
            }
        }
    }
    if args.check || args.write {
        eprintln!("{}", summary(args.check, changed, inputs.len()));
    }
    code
}

/// The closing line of `fmt --check` (`check`) or `--write`: `reformatted 2 of 5 files`, and for
/// one file `reformatted 1 file` or `1 file already formatted` (as `check` says `checked 1 file`).
fn summary(check: bool, changed: usize, files: usize) -> String {
    let verb = if check {
        "would reformat"
    } else {
        "reformatted"
    };
    match (files, changed) {
        (1, 0) => "1 file already formatted".to_string(),
        (1, _) => format!("{verb} 1 file"),
        _ => format!("{verb} {changed} of {files} files"),
    }
}
