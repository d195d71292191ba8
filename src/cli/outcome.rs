//! What `check`, `convert`, `catalogue` and `roundtrip` share about outcomes: which inputs a run reads, in which format, and when a file fails (every error; warnings too under `--deny warnings`).

use super::{EXIT_USAGE, InputFile, collect_inputs};
use clap::ValueEnum;
use std::path::PathBuf;
use zogkit::diag::{Diagnostic, Severity};
use zogkit::format::Format;

/// What `--deny` can turn into failures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Deny {
    /// A file with a warning fails, as one with an error does (strict mode for CI).
    Warnings,
    /// A file with a partial port fails: a `partial` verdict of `convert --verify`, or a
    /// `roundtrip` that passed while the ZRF writer reported losses; other warnings do not.
    Partial,
}

/// When a file fails: always on an error-severity diagnostic; on a warning too when denied.
#[derive(Debug, Clone, Copy, Default)]
pub struct Policy {
    /// `--deny warnings` was given.
    pub deny_warnings: bool,
    /// `--deny partial` was given.
    pub deny_partial: bool,
}

impl Policy {
    /// The policy of a command line's `--deny` values.
    pub fn new(deny: &[Deny]) -> Policy {
        Policy {
            deny_warnings: deny.contains(&Deny::Warnings),
            deny_partial: deny.contains(&Deny::Partial),
        }
    }
    /// Whether a file with these counts fails.
    pub fn fails(self, errors: usize, warnings: usize) -> bool {
        errors > 0 || (self.deny_warnings && warnings > 0)
    }
}

/// Number of diagnostics of severity `s`.
pub fn count(diags: &[Diagnostic], s: Severity) -> usize {
    diags.iter().filter(|d| d.severity == s).count()
}

/// The extensions a directory is searched for, for every subcommand that takes directories:
/// those of `from` when given, else every readable format's except Ludii's English (plain
/// `.txt`) and `variants.ini` (`.ini`), whose extensions other files share. YAML files count by
/// both their extensions and are skipped when the run `writes` YAML (its outputs often sit
/// beside its inputs). `fmt` and `roundtrip`, which read ZRF alone, pass `Some(Format::Zrf)`.
pub fn extensions(from: Option<Format>, writes: Option<Format>) -> Vec<&'static str> {
    let exts = |f: Format| match f {
        Format::Yaml => vec!["yaml", "yml"],
        f => vec![f.extension()],
    };
    let skip = writes.filter(|&w| w == Format::Yaml);
    match from {
        Some(f) => exts(f),
        None => Format::ALL
            .into_iter()
            .filter(|&f| {
                f.readable() && Some(f) != skip && !matches!(f, Format::LudiiEnglish | Format::Fsf)
            })
            .flat_map(exts)
            .collect(),
    }
}

/// The inputs of a run, or the exit status after the error is printed: a path that does not
/// exist, or no input file at all (an empty directory, one without files of `exts`). `quiet`
/// (`-q`) leaves out the warnings about the walk ([`collect_inputs`]).
pub fn inputs(paths: &[PathBuf], exts: &[&str], quiet: bool) -> Result<Vec<InputFile>, u8> {
    inputs_or_message(paths, exts, quiet).map_err(|e| {
        super::error_line!("{e}");
        EXIT_USAGE
    })
}

/// [`inputs`], with the error as a message (not printed), for a report that must hold it.
pub fn inputs_or_message(
    paths: &[PathBuf],
    exts: &[&str],
    quiet: bool,
) -> Result<Vec<InputFile>, String> {
    match collect_inputs(paths, exts, quiet) {
        Ok(v) if !v.is_empty() => Ok(v),
        Ok(_) => Err(format!(
            "no input files found (directories are searched for .{} files)",
            exts.join(", .")
        )),
        Err(e) => Err(e),
    }
}

/// The format an input is read in: `from`, else the one its extension names, else ZRF.
pub fn format_of(from: Option<Format>, input: &InputFile) -> Format {
    from.or_else(|| Format::of_path(&input.display))
        .unwrap_or(Format::Zrf)
}
