//! Command-line plumbing shared by the subcommands: inputs, includes, output, exit codes, progress.
//!
//! This is the only part of zogkit that touches the file system.

pub mod check;
pub mod convert;
pub mod expand;
pub mod fmt;
pub mod inspect;
pub mod moves;
pub mod perft;
pub mod render;
pub mod roundtrip;

use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Read as _};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use zogkit::format;
use zogkit::text::Encoding;
use zogkit::zrf::expand::CODE_INCLUDE_OUTSIDE;
use zogkit::zrf::{self, IncludeError, IncludeLoader, NoIncludes};

/// Settings every subcommand shares (the global `--limit` and `--allow-include-outside`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Settings {
    /// Reader limits (the encoding is set per subcommand).
    pub read: format::ReadOptions,
    /// Let includes leave the input's directory tree.
    pub allow_include_outside: bool,
}

static SETTINGS: OnceLock<Settings> = OnceLock::new();

/// Records the global settings; called once by `main` before any subcommand runs.
pub fn init(settings: Settings) {
    let _ = SETTINGS.set(settings);
}

/// The global settings (the defaults if [`init`] was not called).
pub fn settings() -> Settings {
    SETTINGS.get().copied().unwrap_or_default()
}

/// Reader options: the global limits plus an encoding override.
pub fn read_options(encoding: Option<Encoding>) -> format::ReadOptions {
    format::ReadOptions {
        encoding,
        ..settings().read
    }
}

/// ZRF reader options: the global limits plus an encoding override.
pub fn zrf_options(encoding: Option<Encoding>) -> zrf::ReadOptions {
    zrf::ReadOptions {
        encoding,
        ..settings().read.zrf
    }
}

/// The include loader for one input: none for standard input; otherwise [`FsIncludes`],
/// confined to the input's directory tree unless `--allow-include-outside` was given.
pub fn loader(input: &InputFile) -> Box<dyn IncludeLoader> {
    match (&input.path, &input.root) {
        (None, _) => Box::new(NoIncludes),
        (Some(_), _) if settings().allow_include_outside => Box::new(FsIncludes { root: None }),
        (Some(p), root) => {
            let shown = root.clone().unwrap_or_else(|| parent_dir(p));
            // A root that cannot be resolved lets nothing in, rather than everything.
            let real = std::fs::canonicalize(&shown).unwrap_or_else(|_| shown.clone());
            Box::new(FsIncludes {
                root: Some((real, shown.display().to_string())),
            })
        }
    }
}

fn parent_dir(p: &Path) -> PathBuf {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Exit code: success.
pub const EXIT_OK: u8 = 0;
/// Exit code: the inputs have errors (or a batch had failures).
pub const EXIT_ERRORS: u8 = 1;
/// Exit code: usage or I/O problem.
pub const EXIT_USAGE: u8 = 2;

/// One input file: how to show it and where it is (`None` for standard input).
#[derive(Debug, Clone)]
pub struct InputFile {
    /// Name shown in diagnostics.
    pub display: String,
    /// Path on disk, or `None` for `-`.
    pub path: Option<PathBuf>,
    /// The directory tree includes must stay in: the directory walked to find the file, or
    /// `None` for the file's own directory.
    pub root: Option<PathBuf>,
}

impl InputFile {
    /// The input named by one command-line path (`-` is standard input).
    pub fn named(path: &Path) -> InputFile {
        if path.as_os_str() == "-" {
            return InputFile {
                display: "<stdin>".into(),
                path: None,
                root: None,
            };
        }
        InputFile {
            display: path.display().to_string(),
            path: Some(path.to_path_buf()),
            root: None,
        }
    }
}

/// Expands the command line's paths: files as given, directories walked recursively (sorted,
/// following no symlink loops) for files with one of `exts`; `-` is standard input.
pub fn collect_inputs(paths: &[PathBuf], exts: &[&str]) -> Result<Vec<InputFile>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" {
            out.push(InputFile::named(p));
            continue;
        }
        let meta = std::fs::metadata(p).map_err(|e| format!("{}: {e}", p.display()))?;
        if meta.is_dir() {
            let mut found = Vec::new();
            for entry in walkdir::WalkDir::new(p)
                .follow_links(true)
                .sort_by_file_name()
            {
                let entry = entry.map_err(|e| format!("{}: {e}", p.display()))?;
                if !entry.file_type().is_file() {
                    continue;
                }
                let ext_ok = entry
                    .path()
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| exts.iter().any(|x| e.eq_ignore_ascii_case(x)));
                if ext_ok {
                    found.push(InputFile {
                        display: entry.path().display().to_string(),
                        path: Some(entry.path().to_path_buf()),
                        root: Some(p.clone()),
                    });
                }
            }
            out.extend(found);
        } else {
            out.push(InputFile::named(p));
        }
    }
    Ok(out)
}

/// Reads an input's bytes (standard input for `-`), at most one byte more than the largest
/// input limit (`input-bytes`, `yaml-bytes`), so a huge file costs no memory: the reader then
/// refuses it by its size.
pub fn read_input(input: &InputFile) -> std::io::Result<Vec<u8>> {
    let read = settings().read;
    let cap = read.zrf.max_input_bytes.max(read.yaml.max_bytes) as u64 + 1;
    let mut v = Vec::new();
    match &input.path {
        Some(p) => std::io::Read::read_to_end(&mut std::fs::File::open(p)?.take(cap), &mut v)?,
        None => std::io::Read::read_to_end(&mut std::io::stdin().take(cap), &mut v)?,
    };
    Ok(v)
}

/// Resolves `(include "name")` relative to the including file, as Windows would: `\` and `/`
/// both separate folders and every component matches case-insensitively when no exact match
/// exists.
///
/// With a `root`, a file whose canonical path (symlinks and `..` resolved) is outside that
/// directory is refused with `zrf::include-outside`; includes of includes stay confined to
/// the same root.
pub struct FsIncludes {
    /// The directory includes must stay in, canonical and as shown to the user; `None` allows
    /// any file.
    pub root: Option<(PathBuf, String)>,
}

impl IncludeLoader for FsIncludes {
    fn load(&mut self, from: &str, name: &str) -> Result<(String, Vec<u8>), IncludeError> {
        let base = Path::new(from).parent().unwrap_or(Path::new("."));
        let path = find_case_insensitive(base, name).ok_or_else(|| {
            format!(
                "included file {name:?} not found next to {from} (looked in {})",
                base.display()
            )
        })?;
        if let Some((root, shown)) = &self.root {
            let real =
                std::fs::canonicalize(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            if !real.starts_with(root) {
                return Err(IncludeError {
                    code: CODE_INCLUDE_OUTSIDE,
                    message: format!(
                        "refusing to include {name:?}: {} is outside {shown}, the input's directory tree (with `..` and symbolic links resolved); pass --allow-include-outside to allow it",
                        path.display(),
                    ),
                });
            }
        }
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok((path.display().to_string(), bytes))
    }
    fn identity(&mut self, name: &str) -> String {
        std::fs::canonicalize(name)
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| name.to_string())
    }
}

fn find_case_insensitive(base: &Path, name: &str) -> Option<PathBuf> {
    let mut cur = base.to_path_buf();
    for comp in name
        .split(['/', '\\'])
        .filter(|c| !c.is_empty() && *c != ".")
    {
        if comp == ".." {
            cur.push("..");
            continue;
        }
        let exact = cur.join(comp);
        if exact.exists() {
            cur = exact;
            continue;
        }
        let dir = if cur.as_os_str().is_empty() {
            Path::new(".")
        } else {
            cur.as_path()
        };
        let found = std::fs::read_dir(dir).ok()?.flatten().find(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.eq_ignore_ascii_case(comp))
        })?;
        cur.push(found.file_name());
    }
    cur.is_file().then_some(cur)
}

/// A progress bar on standard error, shown only when it is a terminal and the batch is long.
pub fn progress(len: usize, quiet: bool) -> ProgressBar {
    if quiet || len < 2 || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len as u64);
    pb.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {wide_msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    pb
}
