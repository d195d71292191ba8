//! The rules every path the user names for writing follows (`-o`, `--report`, `render -o`):
//! `-` is standard output, an existing file is refused unless `--force` (or skipped when it is
//! up to date under `--update`), anything that is not a regular file is never replaced, writes
//! are atomic and, without `--force`, the final name is claimed exclusively, so two runs into
//! one folder never overwrite each other.

use super::{EXIT_USAGE, display_path};
use std::io::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// What to do with an output that exists already.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Existing {
    /// Refuse it (the default).
    #[default]
    Refuse,
    /// Replace it (`--force`).
    Replace,
    /// Skip it when it is newer than its input, else replace it (`--update`).
    Update,
}

impl Existing {
    /// The policy of a command line's `--force` and `--update`.
    pub fn new(force: bool, update: bool) -> Existing {
        match (force, update) {
            (true, _) => Existing::Replace,
            (false, true) => Existing::Update,
            (false, false) => Existing::Refuse,
        }
    }
}

/// Whether `p` names standard output.
pub fn is_stdout(p: &Path) -> bool {
    p.as_os_str() == "-"
}

/// What writing `path` would do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// Write it (it is absent, or may be replaced).
    Write,
    /// Leave it: it is newer than its input (`--update`).
    UpToDate,
}

/// Decides whether `path` may be written under `existing` (`input`: the file it is made from,
/// for `--update`), or why not: something that is not a regular file (a directory, device,
/// FIFO, socket or symbolic link) is never replaced, and a regular file only with `--force`
/// or, when older than its input, `--update`.
pub fn plan(path: &Path, existing: Existing, input: Option<&Path>) -> Result<Plan, String> {
    if is_stdout(path) {
        return Ok(Plan::Write);
    }
    plan_meta(path, std::fs::symlink_metadata(path).ok(), existing, input)
}

/// [`plan`] for `path` given what is there (`meta`, not following a link; `None`: nothing),
/// as an output folder held open sees it ([`super::output_dir::OutputDir::metadata`]).
pub fn plan_meta(
    path: &Path,
    meta: Option<std::fs::Metadata>,
    existing: Existing,
    input: Option<&Path>,
) -> Result<Plan, String> {
    let Some(meta) = meta else {
        return Ok(Plan::Write);
    };
    let shown = display_path(path);
    if !meta.file_type().is_file() {
        let what = if meta.is_dir() {
            "a directory"
        } else if meta.file_type().is_symlink() {
            "a symbolic link"
        } else {
            "not a regular file (a device, FIFO or socket)"
        };
        return Err(format!(
            "{shown} exists and is {what}; refusing to replace it"
        ));
    }
    match existing {
        Existing::Replace => Ok(Plan::Write),
        Existing::Update => {
            let newer = input
                .and_then(|i| std::fs::metadata(i).ok()?.modified().ok())
                .zip(meta.modified().ok())
                .is_some_and(|(i, o)| o >= i);
            Ok(if newer { Plan::UpToDate } else { Plan::Write })
        }
        Existing::Refuse => Err(format!("{shown} exists (use --force to overwrite)")),
    }
}

/// Writes `bytes` to `path` (standard output for `-`) after [`plan`] allowed it: replacing
/// atomically when `replace`, otherwise claiming the final name exclusively (see
/// [`super::write_new`]), so a file another run created meanwhile is not overwritten.
pub fn write(path: &Path, bytes: &[u8], replace: bool) -> Result<(), String> {
    if is_stdout(path) {
        return stdout_bytes(bytes).map_err(|_| "cannot write to standard output".to_string());
    }
    let r = if replace {
        super::write_atomic(path, bytes)
    } else {
        super::write_new(path, bytes)
    };
    r.map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => format!(
            "{} was created by someone else meanwhile (another run?); left as it is",
            display_path(path)
        ),
        _ => format!("cannot write {}: {e}", display_path(path)),
    })
}

/// Checks once, before a batch starts, that the folder `dir` can take outputs: it is created
/// if missing, and must be writable (asked of the system, so nothing in it changes, not even
/// its modification time). The error names the folder, so an unusable `-o` gives one message
/// rather than one per input.
pub fn usable_dir(dir: &Path) -> Result<(), String> {
    let shown = display_path(dir);
    if let Ok(m) = std::fs::metadata(dir)
        && !m.is_dir()
    {
        return Err(format!("output folder {shown} is not a directory"));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create the output folder {shown}: {e}"))?;
    writable(dir).map_err(|e| format!("cannot write into the output folder {shown}: {e}"))
}

#[cfg(unix)]
fn writable(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes())?;
    // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
    if unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(unix))]
fn writable(dir: &Path) -> std::io::Result<()> {
    if std::fs::metadata(dir)?.permissions().readonly() {
        Err(std::io::ErrorKind::PermissionDenied.into())
    } else {
        Ok(())
    }
}

/// Set when writing to standard output failed (other than a closed pipe): `main` then exits
/// with status 2 whatever the subcommand returned.
static STDOUT_FAILED: AtomicBool = AtomicBool::new(false);
/// Set once standard output was closed by its reader (`| head`): later output is dropped.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Whether a write to standard output failed during this run.
pub fn stdout_failed() -> bool {
    STDOUT_FAILED.load(Ordering::Relaxed)
}

/// Writes `bytes` to standard output and flushes. A closed pipe (`| head`) is not an error:
/// the rest is dropped quietly, as ripgrep does. Any other write error (a full disk,
/// `>/dev/full`) is reported once and makes the run exit with status 2.
pub fn stdout_bytes(bytes: &[u8]) -> Result<(), u8> {
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return Ok(());
    }
    if STDOUT_FAILED.load(Ordering::Relaxed) {
        return Err(EXIT_USAGE);
    }
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            STDOUT_CLOSED.store(true, Ordering::Relaxed);
            Ok(())
        }
        Err(e) => {
            if !STDOUT_FAILED.swap(true, Ordering::Relaxed) {
                super::error_line!("cannot write to standard output: {e}");
            }
            Err(EXIT_USAGE)
        }
    }
}
