//! Command-line plumbing shared by the subcommands: inputs, includes, output, exit codes, progress.
//!
//! This is the only part of zogkit that touches the file system.

/// Prints `error: MESSAGE` to standard error, coloured as rendered diagnostics are (bold red
/// `error:`, bold message) when standard error is coloured.
macro_rules! error_line {
    ($($arg:tt)*) => {
        eprint!("{}", $crate::cli::color::stderr(&format!("error: {}\n", format_args!($($arg)*))))
    };
}
pub(crate) use error_line;

/// Prints `warning: MESSAGE` to standard error, coloured as [`error_line!`] is.
macro_rules! warning_line {
    ($($arg:tt)*) => {
        eprint!("{}", $crate::cli::color::stderr(&format!("warning: {}\n", format_args!($($arg)*))))
    };
}
pub(crate) use warning_line;

pub mod author_images;
pub mod catalogue;
pub mod check;
pub mod color;
pub mod convert;
pub mod dist;
pub mod expand;
pub mod find_rules;
pub mod fmt;
pub mod inspect;
pub mod ludii_home;
pub mod moves;
pub mod outcome;
pub mod output;
pub mod output_dir;
pub mod perft;
pub mod play;
pub mod play_server;
pub mod position;
pub mod render;
pub mod replay;
pub mod roundtrip;
pub mod site_server;

use indicatif::{ProgressBar, ProgressStyle};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{IsTerminal, Read as _, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use zogkit::format;
use zogkit::text::Encoding;
use zogkit::zrf::expand::CODE_INCLUDE_OUTSIDE;
use zogkit::zrf::{self, IncludeError, IncludeLoader, NoIncludes};

/// Settings every subcommand shares (the global `--limit` and `--allow-include-outside`).
#[derive(Debug, Clone, Default)]
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
    SETTINGS.get().cloned().unwrap_or_default()
}

/// Reader options: the global limits plus an encoding override.
pub fn read_options(encoding: Option<Encoding>) -> format::ReadOptions {
    format::ReadOptions {
        encoding,
        // The readers stop on Ctrl-C or SIGTERM once a command catches them.
        interrupt: zogkit::diag::Interrupt::new(interrupt_flag()),
        ..settings().read.clone()
    }
}

/// ZRF reader options: the global limits plus an encoding override.
pub fn zrf_options(encoding: Option<Encoding>) -> zrf::ReadOptions {
    zrf::ReadOptions {
        encoding,
        interrupt: zogkit::diag::Interrupt::new(interrupt_flag()),
        ..settings().read.zrf.clone()
    }
}

/// The include loader for one input: none for standard input; otherwise [`FsIncludes`],
/// confined to the input's directory tree unless `--allow-include-outside` was given.
pub fn loader(input: &InputFile) -> Box<dyn IncludeLoader> {
    match (&input.path, &input.root) {
        (None, _) => Box::new(NoIncludes),
        (Some(_), _) if settings().allow_include_outside => Box::new(FsIncludes {
            root: None,
            cache: BTreeMap::new(),
        }),
        (Some(p), root) => {
            let shown = root.clone().unwrap_or_else(|| parent_dir(p));
            // A root that cannot be resolved lets nothing in, rather than everything.
            let real = std::fs::canonicalize(&shown).unwrap_or_else(|_| shown.clone());
            Box::new(FsIncludes {
                root: Some((real, shown.display().to_string())),
                cache: BTreeMap::new(),
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
/// Exit code: stopped by Ctrl-C or SIGTERM (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: u8 = 130;

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
            display: display_path(path),
            path: Some(path.to_path_buf()),
            root: None,
        }
    }
}

/// Prints the texts of a batch in input order as soon as every earlier file is done, so a
/// finished file's diagnostics are printed and dropped instead of kept until the end (memory
/// stays flat however many warnings a batch has). Printing pauses the progress bar.
pub struct InOrder<'a> {
    pb: &'a ProgressBar,
    to_stdout: bool,
    /// The next index to print and the finished texts waiting for it.
    state: std::sync::Mutex<(usize, BTreeMap<usize, String>)>,
    write_failed: AtomicBool,
}

impl<'a> InOrder<'a> {
    /// Prints to standard output (`to_stdout`) or standard error, around `pb`.
    pub fn new(pb: &'a ProgressBar, to_stdout: bool) -> Self {
        InOrder {
            pb,
            to_stdout,
            state: std::sync::Mutex::new((0, BTreeMap::new())),
            write_failed: AtomicBool::new(false),
        }
    }

    /// Input `i` is finished with this text (possibly empty); prints every text that is now
    /// next in order.
    pub fn done(&self, i: usize, text: String) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.1.insert(i, text);
        let mut ready = String::new();
        loop {
            let next = st.0;
            let Some(t) = st.1.remove(&next) else { break };
            ready.push_str(&t);
            st.0 += 1;
        }
        if ready.is_empty() || self.write_failed.load(Ordering::Relaxed) {
            return;
        }
        self.pb.suspend(|| self.write(&ready));
    }

    /// Prints `text` at once, before any file's text (a header).
    pub fn done_header(&self, text: &str) {
        self.write(text);
    }

    /// Standard output goes through [`print_stdout`] (a closed pipe is quiet, a failed write
    /// is reported once); a failed write stops the printing.
    fn write(&self, text: &str) {
        let ok = if self.to_stdout {
            print_stdout(text).is_ok()
        } else {
            std::io::stderr().lock().write_all(text.as_bytes()).is_ok()
        };
        if !ok {
            self.write_failed.store(true, Ordering::Relaxed);
        }
    }

    /// Whether a write failed (the rest was not printed).
    pub fn failed(&self) -> bool {
        self.write_failed.load(Ordering::Relaxed)
    }
}

/// Runs `f` on every input (with its index) on all cores, largest files first so that a big file
/// does not run alone at the end of a batch; returns the results in input order.
pub fn par_map_largest_first<T, F>(inputs: &[InputFile], f: F) -> Vec<T>
where
    T: Send,
    F: Fn(usize, &InputFile) -> T + Sync,
{
    use rayon::prelude::*;
    let size = |i: &InputFile| {
        i.path
            .as_deref()
            .and_then(|p| std::fs::metadata(p).ok())
            .map_or(0, |m| m.len())
    };
    let mut order: Vec<(u64, usize)> = inputs.iter().map(size).zip(0..).collect();
    order.sort_by_key(|&(bytes, i)| (std::cmp::Reverse(bytes), i));
    // One queue in that order, taken from by every worker (rather than rayon splitting the
    // list in halves): files of equal size finish roughly in input order, so `InOrder` can
    // print and drop their diagnostics early.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = rayon::current_num_threads().clamp(1, order.len().max(1));
    let mut done: Vec<(usize, T)> = (0..workers)
        .into_par_iter()
        .flat_map_iter(|_| {
            let mut mine = Vec::new();
            loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(_, i)) = order.get(k) else { break };
                mine.push((i, f(i, &inputs[i])));
            }
            mine
        })
        .collect();
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, t)| t).collect()
}

/// Expands the command line's paths: files as given, directories walked recursively (sorted)
/// for files with one of `exts`; `-` is standard input.
///
/// Symlinks are followed, to files and to directories, also out of the directory given (the
/// user put them there); a link back to an ancestor (`loop -> .`, `up -> ..`) is reported as a
/// warning naming the link and skipped, so every real file is visited once and the walk ends.
/// An entry that cannot be inspected (a dangling link) is kept when its name has one of `exts`,
/// so reading it fails and the batch lists it; other unreadable entries are warned about.
/// `quiet` (`-q`) leaves these warnings out.
pub fn collect_inputs(
    paths: &[PathBuf],
    exts: &[&str],
    quiet: bool,
) -> Result<Vec<InputFile>, String> {
    let warn = |message: std::fmt::Arguments<'_>| {
        if !quiet {
            warning_line!("{message}");
        }
    };
    let mut out = Vec::new();
    let has_ext = |p: &Path| {
        p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| exts.iter().any(|x| e.eq_ignore_ascii_case(x)))
    };
    for p in paths {
        if p.as_os_str() == "-" {
            out.push(InputFile::named(p));
            continue;
        }
        let meta = std::fs::metadata(p).map_err(|e| format!("{}: {e}", display_path(p)))?;
        if !meta.is_dir() {
            out.push(InputFile {
                display: display_path(p),
                path: Some(p.clone()),
                root: None,
            });
            continue;
        }
        // walkdir catches links back into the walk; a link to a directory above the root (or to
        // the root itself) would walk the whole tree again from outside, so it is a loop too.
        let root = std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
        let walk = walkdir::WalkDir::new(p)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| {
                if e.depth() == 0 || !e.path_is_symlink() || !e.file_type().is_dir() {
                    return true;
                }
                match std::fs::canonicalize(e.path()) {
                    Ok(target) if root.starts_with(&target) => {
                        warn(format_args!(
                            "{}: symbolic link loop (it leads back to {}); skipped",
                            display_path(e.path()),
                            display_path(&target)
                        ));
                        false
                    }
                    _ => true,
                }
            });
        for entry in walk {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    let at = e
                        .path()
                        .map(display_path)
                        .unwrap_or_else(|| display_path(p));
                    if let Some(ancestor) = e.loop_ancestor() {
                        warn(format_args!(
                            "{at}: symbolic link loop (it leads back to {}); skipped",
                            display_path(ancestor)
                        ));
                    } else if let Some(path) = e.path().filter(|q| has_ext(q)) {
                        out.push(InputFile {
                            display: display_path(path),
                            path: Some(path.to_path_buf()),
                            root: Some(p.clone()),
                        });
                    } else {
                        let reason = e
                            .io_error()
                            .map_or_else(|| e.to_string(), |io| io.to_string());
                        warn(format_args!("{at}: {reason}; skipped"));
                    }
                    continue;
                }
            };
            if entry.file_type().is_file() && has_ext(entry.path()) {
                out.push(InputFile {
                    display: display_path(entry.path()),
                    path: Some(entry.path().to_path_buf()),
                    root: Some(p.clone()),
                });
            }
        }
    }
    Ok(out)
}

/// A path for messages: as it is when it is UTF-8, otherwise with each byte that is not part of
/// valid UTF-8 written as `\xNN`, so two different names never display alike (on Unix; other
/// platforms use `Path::display`).
pub fn display_path(p: &Path) -> String {
    if let Some(s) = p.to_str() {
        return s.to_string();
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let mut out = String::new();
        for chunk in p.as_os_str().as_bytes().utf8_chunks() {
            out.push_str(chunk.valid());
            for b in chunk.invalid() {
                out.push_str(&format!("\\x{b:02X}"));
            }
        }
        out
    }
    #[cfg(not(unix))]
    {
        p.display().to_string()
    }
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename, so a
/// reader never sees a partial file, even if the process is killed: a file with the final name
/// is either absent, the old one or complete. The temporary file is `.NAME.PID.tmp` (never the
/// final name); a kill can leave it behind, and [`remove_stale_temps`] removes it on the next
/// run. A file being replaced keeps its permissions, and the new bytes are synced before the
/// rename so a power loss cannot leave neither version; new files are not synced (durability of
/// fresh outputs is left to the file system, as most converters do).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_via_temp(path, bytes, true)
}

/// As [`write_atomic`], but the final name is claimed exclusively: a hard link from the
/// complete temporary file fails when the name exists, so of two runs writing one name, one
/// wins and the other gets `AlreadyExists` (never a mix, never an overwrite). On a file system
/// without hard links it checks and renames.
pub fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_via_temp(path, bytes, false)
}

fn write_via_temp(path: &Path, bytes: &[u8], replace: bool) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(path.file_name().unwrap_or_default());
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = dir.join(tmp_name);
    let old = std::fs::metadata(path).ok().filter(|_| replace);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        if let Some(m) = &old {
            f.set_permissions(m.permissions())?;
            f.sync_all()?;
        }
        drop(f);
        if replace {
            return std::fs::rename(&tmp, path);
        }
        match std::fs::hard_link(&tmp, path) {
            Ok(()) => std::fs::remove_file(&tmp),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(e),
            Err(_) if std::fs::symlink_metadata(path).is_ok() => {
                Err(std::io::ErrorKind::AlreadyExists.into())
            }
            Err(_) => std::fs::rename(&tmp, path),
        }
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Whether process `pid` (decimal digits) may still be running: asked of the system with
/// `kill(pid, 0)` on Unix; elsewhere, or when in doubt, assumed running, so nothing of a live
/// run is ever removed.
pub(crate) fn process_alive(pid: &[u8]) -> bool {
    let Some(pid) = std::str::from_utf8(pid)
        .ok()
        .and_then(|p| p.parse::<i32>().ok())
        .filter(|&p| p > 0)
    else {
        return true;
    };
    #[cfg(unix)]
    {
        // SAFETY: signal 0 only checks that the process exists; nothing is sent.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// Removes temporary files that a killed run of [`write_atomic`] left next to `targets`
/// (`.NAME.PID.tmp` for a target `NAME`, from a process that is gone: a live run's files are
/// left alone); one listing per directory.
pub fn remove_stale_temps<'a>(targets: impl IntoIterator<Item = &'a Path>) {
    let mut by_dir: BTreeMap<&Path, Vec<&std::ffi::OsStr>> = BTreeMap::new();
    for t in targets {
        let dir = t
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        if let Some(name) = t.file_name() {
            by_dir.entry(dir).or_default().push(name);
        }
    }
    let own = format!(".{}.tmp", std::process::id());
    for (dir, names) in by_dir {
        let names: BTreeSet<&[u8]> = names.iter().map(|n| n.as_encoded_bytes()).collect();
        let Ok(rd) = std::fs::read_dir(dir) else {
            continue;
        };
        for e in rd.flatten() {
            let file = e.file_name();
            let bytes = file.as_encoded_bytes();
            let Some(inner) = bytes
                .strip_prefix(b".")
                .and_then(|b| b.strip_suffix(b".tmp"))
            else {
                continue;
            };
            let Some(dot) = inner.iter().rposition(|&b| b == b'.') else {
                continue;
            };
            let pid = &inner[dot + 1..];
            let stale = !pid.is_empty()
                && pid.iter().all(u8::is_ascii_digit)
                && !bytes.ends_with(own.as_bytes())
                && names.contains(&inner[..dot])
                && !process_alive(pid);
            if stale {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
}

/// Set by Ctrl-C (SIGINT) or SIGTERM once [`catch_interrupts`] ran; batches stop starting files.
static INTERRUPTED: std::sync::LazyLock<Arc<AtomicBool>> =
    std::sync::LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// Makes the first Ctrl-C (or SIGTERM) a request to stop: the one flag the readers (through
/// [`read_options`]) and the engine (through [`load_rules`]) poll. Files being written are
/// finished (so no temporary file is left), nothing new is started or written, and the command
/// reports what it did not do (exit 130). A second Ctrl-C ends the process at once (exit 130).
pub fn catch_interrupts() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGINT, SIGTERM};
        for sig in [SIGINT, SIGTERM] {
            let _ = signal_hook::flag::register_conditional_shutdown(
                sig,
                EXIT_INTERRUPTED.into(),
                Arc::clone(&INTERRUPTED),
            );
            let _ = signal_hook::flag::register(sig, Arc::clone(&INTERRUPTED));
        }
    }
}

/// The flag [`catch_interrupts`] raises, for long computations that poll it.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    Arc::clone(&INTERRUPTED)
}

/// Whether the user asked to stop (see [`catch_interrupts`]).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Reads an input's `bytes` as `from`, its includes through its [`loader`].
pub fn read_as(
    from: format::Format,
    input: &InputFile,
    bytes: &[u8],
    opts: &format::ReadOptions,
) -> format::ReadResult {
    format::read(from, &input.display, bytes, opts, &mut *loader(input))
}

/// Reads an input's bytes (standard input for `-`), at most one byte more than the largest
/// input limit (`input-bytes`, `yaml-bytes`), so a huge file costs no memory: the reader then
/// refuses it by its size. Only regular files are read ([`read_regular`]).
pub fn read_input(input: &InputFile) -> std::io::Result<Vec<u8>> {
    let read = settings().read;
    let cap = (read.zrf.max_input_bytes.max(read.yaml.max_bytes) as u64).saturating_add(1);
    match &input.path {
        Some(p) => read_regular(p, cap),
        None => {
            let mut v = Vec::new();
            std::io::stdin().take(cap).read_to_end(&mut v)?;
            Ok(v)
        }
    }
}

/// Largest file read besides the inputs themselves: a `render --font` font, a `convert
/// --with-images` manifest, a `replay` record or a `moves --script` (64 MiB).
pub const MAX_AUX_BYTES: u64 = 64 << 20;

/// Reads at most `cap` bytes of `path`, which must be a regular file: a FIFO, a device, a
/// socket or a directory is refused with an error naming what it is, before anything is read
/// (a FIFO is opened without blocking and checked on the open handle, so it cannot hang).
/// A file longer than `cap` yields its first `cap` bytes; callers pass one byte more than their
/// limit to see that the file is too large.
pub fn read_regular(path: &Path, cap: u64) -> std::io::Result<Vec<u8>> {
    let file = open_regular(path)?;
    let meta = file.metadata()?;
    let mut v = Vec::with_capacity(meta.len().min(cap).min(1 << 24) as usize);
    file.take(cap).read_to_end(&mut v)?;
    Ok(v)
}

/// Opens `path` for reading, refusing anything that is not a regular file (see
/// [`read_regular`]) before a byte is read.
pub fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // O_NONBLOCK: opening a FIFO must not wait for a writer.
        opts.custom_flags(0o4000);
    }
    let file = opts.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "{} is not a regular file; only regular files (and `-` for standard input) are read",
                kind_of(&meta.file_type())
            ),
        ));
    }
    Ok(file)
}

/// [`read_regular`] for a file that must not exceed `max` bytes: a larger one is an error
/// naming the limit, found from its size before anything is read.
pub fn read_bounded(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    let shown = display_path(path);
    let bytes = read_regular(path, max.saturating_add(1)).map_err(|e| format!("{shown}: {e}"))?;
    if bytes.len() as u64 > max {
        return Err(format!("{shown}: larger than {max} bytes"));
    }
    Ok(bytes)
}

/// What a file that is not a regular file is, for an error message.
fn kind_of(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "this path"
    }
}

/// Reads one command-line file (or `-`) into a spec document, in the format `from` or the one
/// its extension names; its errors are printed. Returns the document and the format read.
pub fn load_document(
    file: &Path,
    from: Option<format::Format>,
) -> Result<(zogkit::spec::Document, format::Format), (u8, String)> {
    read_document(file, from).map(|(doc, fmt, _)| (doc, fmt))
}

/// [`load_document`], with the whole read result (its warnings and the texts they point into).
fn read_document(
    file: &Path,
    from: Option<format::Format>,
) -> Result<(zogkit::spec::Document, format::Format, format::ReadResult), (u8, String)> {
    let input = InputFile::named(file);
    let fmt = from
        .or_else(|| format::Format::of_path(&input.display))
        .ok_or_else(|| {
            (
                EXIT_USAGE,
                format!("{}: unknown format (use --from)", input.display),
            )
        })?;
    let bytes = read_input(&input)
        .map_err(|e| (EXIT_USAGE, format!("cannot read {}: {e}", input.display)))?;
    let r = format::read(
        fmt,
        &input.display,
        &bytes,
        &read_options(None),
        &mut *loader(&input),
    );
    for d in r
        .diagnostics
        .iter()
        .filter(|d| d.severity == zogkit::diag::Severity::Error)
    {
        eprint!("{}", color::stderr(&d.render(&r.sources, &input.display)));
    }
    let mut r = r;
    match r.document.take() {
        Some(doc) if r.errors() == 0 => Ok((doc, fmt, r)),
        _ => Err((
            EXIT_ERRORS,
            format!("{}: cannot be read (see above)", input.display),
        )),
    }
}

/// The codes of the readers' warnings about content kept verbatim (no typed form).
const UNTYPED_CODES: [&str; 2] = ["ludii::unmapped", "zrf::unmodelled"];

/// The first content of the read file (in source order) that has no typed form, rendered with
/// its location: where a game the engine refuses for untyped content first needs one.
fn first_untyped(r: &format::ReadResult, display: &str) -> Option<String> {
    let d = r
        .diagnostics
        .iter()
        .filter(|d| UNTYPED_CODES.contains(&d.code))
        .min_by_key(|d| d.span.map(|s| (s.file, s.start)))?;
    Some(d.render(&r.sources, display))
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
    /// Files read so far for this input, by canonical path: each distinct file is read once.
    pub cache: BTreeMap<PathBuf, Arc<[u8]>>,
}

impl IncludeLoader for FsIncludes {
    fn load(&mut self, from: &str, name: &str) -> Result<(String, Arc<[u8]>), IncludeError> {
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
        let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        let bytes = match self.cache.get(&key) {
            Some(b) => b.clone(),
            None => {
                // At most one byte more than the size limit: the reader refuses a larger file
                // by its size without this reading it.
                let cap = (settings().read.zrf.max_input_bytes as u64).saturating_add(1);
                let b: Arc<[u8]> = read_regular(&path, cap)
                    .map_err(|e| format!("{}: {e}", path.display()))?
                    .into();
                self.cache.insert(key, b.clone());
                b
            }
        };
        Ok((path.display().to_string(), bytes))
    }
    fn identity(&mut self, name: &str) -> String {
        std::fs::canonicalize(name)
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| name.to_string())
    }
}

/// `name` (components separated by `\` or `/`) below `base`, each component matched exactly
/// or else case-insensitively, as Windows resolves it; `None` unless it is a file.
pub fn find_case_insensitive(base: &Path, name: &str) -> Option<PathBuf> {
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
    // Anything that exists is returned: the reader refuses what is not a regular file with a
    // message saying so (a FIFO is not "not found").
    cur.exists().then_some(cur)
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

/// Writes `s` to standard output (see [`output::stdout_bytes`]: a closed pipe is quiet, any
/// other write error is reported and gives exit status 2).
pub fn print_stdout(s: &str) -> Result<(), u8> {
    output::stdout_bytes(s.as_bytes())
}

/// The entry `sel` names (its 1-based menu index or its title; default: the first game), or
/// a message listing the games.
pub fn pick_game(doc: &zogkit::spec::Document, sel: Option<&str>) -> Result<usize, String> {
    use zogkit::spec::EntryKind;
    let games: Vec<usize> = (0..doc.games.len())
        .filter(|&i| doc.games[i].kind != EntryKind::Separator)
        .collect();
    let pick = match sel {
        None => games.first().copied(),
        Some(s) => match s.parse::<usize>() {
            Ok(n) => games.iter().copied().find(|&i| i + 1 == n),
            Err(_) => games.iter().copied().find(|&i| doc.games[i].title == s),
        },
    };
    pick.ok_or_else(|| {
        if games.is_empty() {
            return "the file defines no game (an include file holds only definitions)".into();
        }
        let list: Vec<String> = games
            .iter()
            .map(|&i| format!("{} {:?}", i + 1, doc.games[i].title))
            .collect();
        format!("no such game; the file has: {}", list.join(", "))
    })
}

/// Gives compiled rules the command's engine limits (`--limit engine-*`) and the interrupt
/// flag: generation stops at once on Ctrl-C or SIGTERM (when the command catches them).
pub fn engine_settings(r: &mut zogkit::engine::Rules) {
    let read = &settings().read;
    r.step_limit = read.engine_steps;
    r.block_run_limit = read.engine_block_runs;
    r.move_limit = usize::try_from(read.engine_moves).unwrap_or(usize::MAX);
    r.work_limit = read.engine_work;
    r.interrupt = Some(interrupt_flag());
}

/// Reads a rules file and compiles one of its games for the engine; errors are printed and
/// returned as the exit code (1 for rules the engine cannot run, 2 for usage).
pub fn load_rules(
    file: &Path,
    from: Option<format::Format>,
    game: Option<&str>,
) -> Result<(zogkit::engine::Rules, zogkit::spec::Document), u8> {
    let (doc, _, read) = read_document(file, from).map_err(|(code, msg)| {
        if code != EXIT_ERRORS {
            error_line!("{msg}");
        }
        code
    })?;
    let index = pick_game(&doc, game).map_err(|m| {
        error_line!("{m}");
        EXIT_USAGE
    })?;
    match zogkit::engine::Rules::compile(&doc, index) {
        Ok(mut r) => {
            engine_settings(&mut r);
            Ok((r, doc))
        }
        Err(e) => {
            eprintln!(
                "error[engine::unsupported]: {}: game {:?} cannot be played: {e}",
                display_path(file),
                doc.games[index].title
            );
            if e.untyped
                && let Some(at) = first_untyped(&read, &display_path(file))
            {
                eprint!(
                    "note: the first part of the file with no typed form:\n{}",
                    color::stderr(&at)
                );
            }
            Err(EXIT_ERRORS)
        }
    }
}
