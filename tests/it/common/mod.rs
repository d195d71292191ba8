//! Helpers shared by the integration tests: locating the shared corpus and running the CLI.

#![allow(dead_code)]

pub mod cpu;
pub mod html;
pub mod ludii_facts;
pub mod png;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `../shared/corpus/zrf` next to the repository, or `None` (with a message) when absent.
/// Under CI (`CI` set) a missing corpus is a failure, never a silent skip.
pub fn shared_zrf() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/zrf");
    if p.is_dir() {
        return Some(p);
    }
    if std::env::var_os("CI").is_some() {
        panic!("the shared corpus is missing at {}", p.display());
    }
    eprintln!(
        "SKIPPED: shared corpus not found at {} (set CI=1 to make this a failure)",
        p.display()
    );
    None
}

/// Every `.zrf` file under `dir`, sorted.
pub fn zrf_files(dir: &Path) -> Vec<PathBuf> {
    files_with_ext(dir, "zrf")
}

/// Every file under `dir` whose extension is `ext` (any letter case), sorted.
#[allow(dead_code)]
pub fn files_with_ext(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = walk(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext)))
        .collect();
    v.sort();
    v
}

/// Every file under `dir`, in no particular order.
#[allow(dead_code)]
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// Runs the `zogkit` binary built for this test run, from the repository root.
pub fn zogkit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zogkit"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run zogkit")
}

/// The failure message of a golden file that differs: a unified diff of the two texts.
fn golden_differs(rel: &str, expected: &str, actual: &str) -> String {
    let diff = similar::TextDiff::from_lines(expected, actual)
        .unified_diff()
        .context_radius(3)
        .header("expected", "actual")
        .to_string();
    format!("golden/{rel} differs (UPDATE_GOLDEN=1 to accept):\n{diff}")
}

/// Compares `actual` with the golden file `golden/<rel>`, byte for byte: `check_golden` for output
/// that need not be UTF-8 (a writer keeps the source's encoding). A difference is shown as text.
pub fn check_golden_bytes(rel: &str, actual: &[u8]) -> Result<(), String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("golden")
        .join(rel);
    match std::fs::read(&path) {
        Ok(expected) if expected == actual => Ok(()),
        Ok(expected) if std::env::var_os("UPDATE_GOLDEN").is_none_or(|v| v == "0") => {
            let (e, a) = (
                String::from_utf8_lossy(&expected),
                String::from_utf8_lossy(actual),
            );
            Err(golden_differs(rel, &e, &a))
        }
        _ => match std::str::from_utf8(actual) {
            Ok(text) => check_golden(rel, text),
            Err(_) => {
                let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v != "0");
                if !update && std::env::var_os("CI").is_some() {
                    return Err(format!("golden/{rel} is missing"));
                }
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, actual).unwrap();
                if update {
                    Ok(())
                } else {
                    Err(format!(
                        "golden/{rel} was missing and has been written: review it and rerun"
                    ))
                }
            }
        },
    }
}

/// Compares `actual` with the golden file `golden/<rel>`. With `UPDATE_GOLDEN=1` the file is
/// (re)written instead. A missing golden is written on a developer machine (and the test fails
/// so the new file gets reviewed) and is a plain failure under CI.
pub fn check_golden(rel: &str, actual: &str) -> Result<(), String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("golden")
        .join(rel);
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v != "0");
    match std::fs::read_to_string(&path) {
        Ok(expected) if expected == actual => Ok(()),
        Ok(_) | Err(_) if update => {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, actual).unwrap();
            Ok(())
        }
        Ok(expected) => Err(golden_differs(rel, &expected, actual)),
        Err(_) if std::env::var_os("CI").is_some() => Err(format!(
            "golden/{rel} is missing (run UPDATE_GOLDEN=1 cargo test locally)"
        )),
        Err(_) => {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, actual).unwrap();
            Err(format!(
                "golden/{rel} was missing and has been written: review it and rerun"
            ))
        }
    }
}

/// One measured run of the `zogkit` binary.
#[derive(Debug)]
pub struct Measured {
    /// Exit code (-1 when killed by a signal).
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard output as written (a writer's output may be in another encoding than UTF-8).
    pub stdout_bytes: Vec<u8>,
    /// Standard error.
    pub stderr: String,
    /// Wall time from spawn to exit.
    pub wall: Duration,
    /// The child's CPU time (user + system, all threads), as it reports it through `--stats`;
    /// the wall time when it does not. Budgets use this: load on the machine does not inflate it.
    pub cpu: Duration,
    /// The child's peak resident memory (`VmHWM`, reported by the child itself through the
    /// hidden `--stats` option), in KiB.
    pub peak_kib: u64,
}

impl Measured {
    /// Standard output and standard error together (`check` prints diagnostics on stdout, the
    /// other commands on stderr).
    pub fn output(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

/// Runs the `zogkit` binary built for this test run in `dir`, measuring wall time and the
/// child's peak RSS. The peak is the child's own `VmHWM` (from `/proc/self/status`, printed by
/// the hidden global `--stats`): `wait4`'s `ru_maxrss` is unusable here, because the child
/// inherits the test process's high-water mark when it is spawned. The `stats:` line is removed
/// from `stderr`.
pub fn zogkit_measured(dir: &Path, args: &[&str]) -> Measured {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_zogkit"))
        .arg("--stats")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run zogkit");
    let wall = start.elapsed();
    let mut stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let mut peak_kib = u64::MAX;
    let mut cpu = wall;
    if let Some(at) = stderr.rfind("stats: wall ") {
        let line = stderr[at..].lines().next().unwrap_or("").to_string();
        if let Some(c) = line
            .split("cpu ")
            .nth(1)
            .and_then(|c| c.split(" s").next())
            .and_then(|c| c.parse::<f64>().ok())
        {
            cpu = Duration::from_secs_f64(c);
        }
        peak_kib = line
            .split("peak ")
            .nth(1)
            .and_then(|p| p.trim_end_matches(" KB").parse().ok())
            .unwrap_or(u64::MAX);
        stderr.replace_range(at..at + line.len() + 1, "");
    }
    Measured {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stdout_bytes: out.stdout,
        stderr,
        wall,
        cpu,
        peak_kib,
    }
}

/// A fresh, empty directory for one test's files (under the target directory's temp area).
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Whether `python3` can import `pyffish` (Fairy-Stockfish). Under CI (`CI` set) a missing
/// pyffish is a failure; otherwise a note says the comparison is skipped.
pub fn pyffish_available() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import pyffish"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install pyffish (pip install pyffish)"
        );
        eprintln!("note: pyffish is not installed; oracle comparison skipped");
    }
    ok
}

/// Runs `tests/oracle/fsf_check.py` (pyffish) on one JSON job given on its standard input and
/// returns its output (the caller checks the status and reads the JSON it prints).
pub fn run_fsf_check(job: &serde_json::Value) -> Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/fsf_check.py");
    run_python(&script, job)
}

/// Runs the Python `script` on one JSON job given on its standard input and returns its output.
pub fn run_python(script: &Path, job: &serde_json::Value) -> Output {
    use std::io::Write as _;
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("python3 runs");
    child
        .stdin
        .take()
        .expect("a piped stdin")
        .write_all(job.to_string().as_bytes())
        .expect("the job is written");
    child.wait_with_output().expect("python3 ends")
}

/// Reads a shared-corpus ZRF file (path relative to `../shared/corpus/zrf`) and finds entry
/// `nth` (0 = first) titled `title`: the document and the entry's index.
pub fn shared_game(file: &str, title: &str, nth: usize) -> (zogkit::spec::Document, usize) {
    let path = shared_zrf().expect("shared corpus").join(file);
    let bytes = std::fs::read(&path).unwrap();
    let r = zogkit::format::read(
        zogkit::format::Format::Zrf,
        file,
        &bytes,
        &Default::default(),
        &mut zogkit::zrf::NoIncludes,
    );
    let doc = r.document.expect("the file reads");
    let index = (0..doc.games.len())
        .filter(|&i| doc.games[i].title == title)
        .nth(nth)
        .unwrap_or_else(|| panic!("{file} has no entry {title:?}"));
    (doc, index)
}

/// The ten chess-family games of the shared corpus (under `dagaz/`) that the engine, the
/// format round trips and the Chessembly export are checked on: file, title, and which of the
/// games with that title.
pub const TEN_GAMES: [(&str, &str, usize); 10] = [
    ("chess/chess.zrf", "Chess", 0),
    ("xiangqi/xiangqi.zrf", "XiangQi", 0),
    ("shogi-family/shogi.zrf", "Shogi", 0),
    ("shogi-family/mini-shogi.zrf", "Mini Shogi", 0),
    ("shogi-family/kyoto-shogi.zrf", "Kyoto Shogi", 0),
    ("chess/makruk.zrf", "Makruk", 0),
    ("chess/shatranj.zrf", "Shatranj", 0),
    ("chess/courier-chess.zrf", "Courier Chess", 1),
    ("chess/sittuyin.zrf", "Sittuyin", 0),
    ("xiangqi/janggi.zrf", "Janggi", 0),
];

/// `LINE:COL` (1-based, columns in characters) of the first occurrence of `needle` in the file,
/// as diagnostics show a location.
pub fn line_col_of(path: impl AsRef<Path>, needle: &str) -> String {
    let text = std::fs::read_to_string(path.as_ref()).unwrap();
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in {}", path.as_ref().display()));
    let line = text[..at].matches('\n').count() + 1;
    let col = text[..at].rsplit('\n').next().unwrap_or("").chars().count() + 1;
    format!("{line}:{col}")
}

/// Reads `bytes` (shown as `name`) as `format`; the read must give a document without errors.
pub fn read_doc(
    format: zogkit::format::Format,
    name: &str,
    bytes: &[u8],
) -> zogkit::spec::Document {
    let r = zogkit::format::read(
        format,
        name,
        bytes,
        &Default::default(),
        &mut zogkit::zrf::NoIncludes,
    );
    assert_eq!(r.errors(), 0, "{name} ({format:?}) reads without errors");
    r.document.expect("a document")
}

/// perft(3) of a document's first game, or why the engine refuses it.
pub fn perft3_first(doc: &zogkit::spec::Document) -> Result<u64, String> {
    use zogkit::engine::{self, Control, Rules, State};
    let rules = Rules::compile(doc, 0).map_err(|e| e.to_string())?;
    let mut st = State::start(&rules);
    Ok(engine::perft(&rules, &mut st, 3, &Control::default()).unwrap())
}

/// A child process the test started (a server, a browser): killed and waited for when
/// dropped, so a failing test leaves nothing running.
pub struct Spawned(pub std::process::Child);

impl Spawned {
    /// Stops it with SIGINT (Ctrl-C) and waits; its exit code. `what` names it in the
    /// assertion that catches a hang (a minute, far beyond any stop under load).
    #[cfg(unix)]
    pub fn interrupt(&mut self, what: &str) -> Option<i32> {
        let pid = libc::pid_t::try_from(self.0.id()).unwrap();
        // SAFETY: a signal to the child this test started and has not waited for.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
        let start = Instant::now();
        loop {
            if let Some(s) = self.0.try_wait().unwrap() {
                return s.code();
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "{what} did not stop"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the real binary serving on loopback (`play`, `catalogue --serve`: `args`, then
/// `--no-browser`): the process, its port, and the line it printed (`… at URL …`).
pub fn serve(args: &[&std::ffi::OsStr]) -> (Spawned, u16, String) {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_zogkit"))
        .args(args)
        .arg("--no-browser")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start zogkit");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no URL in {line:?}"));
    (Spawned(child), port, line)
}
