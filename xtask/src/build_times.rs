//! `cargo xtask build-times`: issue 18's build figures on this machine, from a fresh copy of HEAD.
//!
//! The copy (`git archive HEAD`) lives in `target/build-times/repo`, with `../shared` linked
//! beside it so the tests see the shared corpus as they do in the repository, and its own empty
//! target folder. Four timed steps: a cold `cargo test --workspace --no-run`, the test run, a
//! one-line edit of `src/fsf/read.rs` followed by `cargo test --workspace` (rebuild and run), and
//! a cold `cargo build --release`. Each prints wall time and the CPU time of its processes;
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
    let cargo = super::cargo();
    let steps: [(&str, &[&str], bool); 4] = [
        (
            "cold test build",
            &["test", "--workspace", "--no-run", "--quiet"],
            false,
        ),
        ("test run", &["test", "--workspace", "--quiet"], false),
        (
            "edit one file + test",
            &["test", "--workspace", "--quiet"],
            true,
        ),
        (
            "cold release build",
            &["build", "--release", "--quiet"],
            false,
        ),
    ];
    println!("| step | wall | CPU (user + system) |\n| --- | ---: | ---: |");
    for (name, args, edit) in steps {
        if edit && let Err(e) = edit_one_file(&repo) {
            eprintln!("build-times: {e}");
            return false;
        }
        let before = children_cpu();
        let start = Instant::now();
        let ok = Command::new(&cargo)
            .args(args)
            .current_dir(&repo)
            .env_remove("CARGO_TARGET_DIR")
            .status()
            .is_ok_and(|s| s.success());
        let wall = start.elapsed().as_secs_f64();
        let cpu = children_cpu() - before;
        println!("| {name} | {wall:.0} s | {cpu:.0} s |");
        if !ok {
            eprintln!("build-times: `cargo {}` failed", args.join(" "));
            return false;
        }
    }
    true
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

/// A real change to one library file (a string of a diagnostic), as a developer makes.
fn edit_one_file(repo: &Path) -> Result<(), String> {
    let path = repo.join("src/fsf/read.rs");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let edited = text.replacen(
        "only the standalone sections",
        "only standalone sections",
        1,
    );
    if edited == text {
        return Err(format!("{}: the edited text is not there", path.display()));
    }
    std::fs::write(&path, edited).map_err(|e| format!("{}: {e}", path.display()))
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
