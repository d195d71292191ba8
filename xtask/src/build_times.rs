//! `cargo xtask build-times`: issue 18's build figures on this machine, from a fresh copy of HEAD.
//!
//! The copy (`git archive HEAD`) lives in `target/build-times/repo`, with `../shared` linked
//! beside it so the tests see the shared corpus as they do in the repository, and its own empty
//! target folder. Five timed steps: a cold `cargo test --workspace --no-run`, the test run, the
//! README's main job right after (its `cargo run …` line: it shares the tests' build), a
//! one-line edit of `src/fsf/read.rs` followed by `cargo test --workspace` (rebuild and run), and
//! a cold `cargo build --release` (what `cargo install` builds). Each prints wall time and the CPU time of its processes;
//! figures only, never a verdict (load changes wall time).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// Runs the four steps and prints a table. False when a step fails to run or its command fails.
pub fn build_times(root: &Path) -> bool {
    let work = root.join("target/build-times");
    let _ = std::fs::remove_dir_all(&work);
    let repo = work.join("repo");
    if let Err(e) = copy_head(root, &repo) {
        eprintln!("build-times: {e}");
        return false;
    }
    let shared = root.join("../shared");
    #[cfg(unix)]
    if shared.is_dir() {
        let _ = std::os::unix::fs::symlink(shared.canonicalize().unwrap(), work.join("shared"));
    }
    let Some(main_job) = readme_main_job(&repo) else {
        eprintln!("build-times: README.md has no `cargo run …` line (the main job)");
        return false;
    };
    let main_job: Vec<&str> = main_job.iter().map(String::as_str).collect();
    let steps: [(&str, &[&str], Step); 5] = [
        (
            "cold test build",
            &["test", "--workspace", "--no-run", "--quiet"],
            Step::Plain,
        ),
        ("test run", &["test", "--workspace", "--quiet"], Step::Plain),
        ("README main job after the tests", &main_job, Step::MainJob),
        (
            "edit one file + test",
            &["test", "--workspace", "--quiet"],
            Step::Edit,
        ),
        (
            "cold release build",
            &["build", "--release", "--quiet"],
            Step::Plain,
        ),
    ];
    println!("| step | wall | CPU (user + system) |\n| --- | ---: | ---: |");
    steps
        .iter()
        .all(|(name, args, step)| timed(&repo, name, args, *step))
}

/// How a step runs: as is, after a one-line edit, or as the README's main job (which exits 1 by
/// design: the bundled examples include files with deliberate errors).
#[derive(Clone, Copy, PartialEq)]
enum Step {
    Plain,
    Edit,
    MainJob,
}

/// Runs one `cargo` step in the copy and prints its table row. False when it fails.
fn timed(repo: &Path, name: &str, args: &[&str], step: Step) -> bool {
    if step == Step::Edit
        && let Err(e) = edit_one_file(repo)
    {
        eprintln!("build-times: {e}");
        return false;
    }
    let before = children_cpu();
    let start = Instant::now();
    let mut cmd = Command::new(super::cargo());
    cmd.args(args)
        .current_dir(repo)
        .env_remove("CARGO_TARGET_DIR");
    if step == Step::MainJob {
        // Its report of the bundled examples (warnings and the deliberate errors), not ours.
        cmd.stderr(std::process::Stdio::null());
    }
    let status = cmd.status();
    let wall = start.elapsed().as_secs_f64();
    let cpu = children_cpu() - before;
    println!("| {name} | {wall:.0} s | {cpu:.0} s |");
    let ok = match (&status, step) {
        (Ok(s), Step::MainJob) => matches!(s.code(), Some(0 | 1)),
        (Ok(s), _) => s.success(),
        (Err(_), _) => false,
    };
    if !ok {
        eprintln!(
            "build-times: `cargo {}` failed ({status:?})",
            args.join(" ")
        );
    }
    ok
}

/// The README's main job: the words after `cargo` on its first `cargo run` line.
fn readme_main_job(repo: &Path) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(repo.join("README.md")).ok()?;
    let line = text.lines().find(|l| l.starts_with("cargo run "))?;
    Some(line.split_whitespace().skip(1).map(String::from).collect())
}

/// Extracts HEAD's tracked files into `dest` (build outputs and local changes left out).
fn copy_head(root: &Path, dest: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dest).map_err(|e| format!("{}: {e}", dest.display()))?;
    let archive = Command::new("git")
        .args(["archive", "--format=tar", "HEAD"])
        .current_dir(root)
        .output()
        .map_err(|e| format!("git archive: {e}"))?;
    if !archive.status.success() {
        return Err("git archive HEAD failed".into());
    }
    let mut tar = Command::new("tar")
        .args(["-x", "-C"])
        .arg(dest)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("tar: {e}"))?;
    use std::io::Write;
    tar.stdin
        .take()
        .unwrap()
        .write_all(&archive.stdout)
        .map_err(|e| format!("tar: {e}"))?;
    match tar.wait() {
        Ok(s) if s.success() => Ok(()),
        _ => Err("tar -x failed".into()),
    }
}

/// A real change to one library file, as a developer makes: a comment line appended to
/// `src/fsf/read.rs` (nothing above it moves, so the change is the same on every HEAD).
fn edit_one_file(repo: &Path) -> Result<(), String> {
    let path = repo.join("src/fsf/read.rs");
    let mut text =
        std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.push_str("// edited by `cargo xtask build-times`\n");
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// CPU seconds (user + system) of this process's waited-for children, from `/proc/self/stat`
/// (0 where that file does not exist).
fn children_cpu() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which may hold spaces) start at field 3; cutime and
    // cstime are fields 16 and 17, in clock ticks (100 per second on Linux).
    let rest = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<f64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    (f.get(13).copied().unwrap_or(0.0) + f.get(14).copied().unwrap_or(0.0)) / 100.0
}
