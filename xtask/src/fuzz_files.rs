//! The `includes` and `cli` fuzz targets: several files per input (issue 15).
//!
//! An input is a set of files separated by byte `0x01`: the first is `main.zrf`, the `k`-th
//! is `fK.inc`. Seeds join corpus files with `(include "fK.inc")` forms, so mutations
//! (splices, duplicates, truncations) build include cycles, diamonds, missing and repeated
//! includes.
//!
//! * `includes` reads the set in process through [`zrf::read`] with an include loader that
//!   serves the other files from memory (reading each distinct one once, as the CLI does).
//! * `cli` writes the set into a scratch directory, adds hostile neighbours (a FIFO and a
//!   directory with include-like names, a symbolic link loop, a sparse 1 GiB `big.inc`), and
//!   runs the real binary (`check`, `convert`, `fmt --check`, `expand`): a panic (exit 101), a
//!   signal or a run still going after 20 s is a finding.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use zogkit::zrf::{self, IncludeError, IncludeLoader};

/// Separates the files of one input.
pub const SEP: u8 = 0x01;

/// Splits an input into (name, bytes) files: `main.zrf`, then `f1.inc`, `f2.inc`, …
pub fn split(input: &[u8]) -> Vec<(String, &[u8])> {
    input
        .split(|b| *b == SEP)
        .enumerate()
        .map(|(k, b)| {
            let name = if k == 0 {
                "main.zrf".to_string()
            } else {
                format!("f{k}.inc")
            };
            (name, b)
        })
        .collect()
}

/// Seeds: each corpus seed as `main.zrf`, including two files that include each other's
/// neighbours twice (a small diamond) and a missing one.
pub fn seeds(zrf: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let n = zrf.len().max(1);
    (0..zrf.len())
        .map(|i| {
            let mut s = b"(include \"f1.inc\")\n(include \"f1.inc\")\n".to_vec();
            s.extend_from_slice(&zrf[i]);
            s.push(SEP);
            s.extend_from_slice(
                b"(include \"f2.inc\")\n(include \"f2.inc\")\n(include \"f9.inc\")\n",
            );
            s.extend_from_slice(&zrf[(i + 1) % n][..zrf[(i + 1) % n].len().min(2048)]);
            s.push(SEP);
            s.extend_from_slice(b"(define shared (x y z))\n(include \"f1.inc\")\n");
            s
        })
        .collect()
}

/// Includes served from memory; a name is looked up case-insensitively.
struct Mem(HashMap<String, Arc<[u8]>>);

impl IncludeLoader for Mem {
    fn load(&mut self, _from: &str, name: &str) -> Result<(String, Arc<[u8]>), IncludeError> {
        self.0
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(k, v)| (k.clone(), v.clone()))
            .ok_or_else(|| format!("{name} not found").into())
    }
}

/// The `includes` target: the set read through `zrf::read` and lowered, in process.
pub fn exercise_includes(input: &[u8]) {
    let files = split(input);
    let mem = Mem(files[1..]
        .iter()
        .map(|(n, b)| (n.clone(), Arc::from(*b)))
        .collect());
    let mut mem = mem;
    let r = zrf::read("main.zrf", files[0].1, &Default::default(), &mut mem);
    let source = zogkit::spec::Source::of("zrf", "main.zrf", files[0].1, &r.decoded);
    let _ = zrf::lower::lower_with(&r, source, Default::default());
}

/// The `cli` target: the set in a scratch directory with hostile neighbours, through the real
/// binary. `Err` describes a finding.
pub fn exercise_cli(bin: &Path, scratch: &Path, input: &[u8]) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(scratch);
    std::fs::create_dir_all(scratch.join("sub")).map_err(|e| e.to_string())?;
    for (name, bytes) in split(input) {
        let _ = std::fs::write(scratch.join(&name), bytes);
    }
    // Hostile neighbours under names the mutated includes may reach.
    let _ = Command::new("mkfifo").arg(scratch.join("f7.inc")).status();
    let _ = std::fs::create_dir_all(scratch.join("f8.inc"));
    if let Ok(f) = std::fs::File::create(scratch.join("f6.inc")) {
        let _ = f.set_len(1 << 30);
    }
    #[cfg(unix)]
    {
        let _ = std::os::unix::fs::symlink("loop", scratch.join("sub/loop"));
        let _ = std::os::unix::fs::symlink("../f1.inc", scratch.join("sub/up.inc"));
    }
    let out = scratch.join("out");
    let runs: [&[&str]; 4] = [
        &["check", "."],
        &[
            "convert",
            "main.zrf",
            "--to",
            "yaml",
            "-o",
            "out/main.yaml",
            "--force",
        ],
        &["fmt", "--check", "main.zrf"],
        &["expand", "main.zrf"],
    ];
    let _ = out;
    for args in runs {
        run_guarded(bin, scratch, args)?;
    }
    Ok(())
}

/// One run of the binary: a panic, a signal or a hang is an error.
fn run_guarded(bin: &Path, dir: &Path, args: &[&str]) -> Result<(), String> {
    let mut child = Command::new(bin)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            return match status.code() {
                Some(101) => Err(format!("{args:?}: panic (exit 101)")),
                Some(_) => Ok(()),
                None => Err(format!("{args:?}: killed by a signal ({status})")),
            };
        }
        // A guard against a real hang only (the inputs are small): load cannot trip it.
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("{args:?}: still running after 120 s"));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The binary the `cli` target runs: `target/debug/zogkit`, built first.
pub fn binary(root: &Path) -> Option<PathBuf> {
    let ok = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--quiet", "--bin", "zogkit"])
        .current_dir(root)
        .status()
        .is_ok_and(|s| s.success());
    let bin = root.join("target/debug/zogkit");
    (ok && bin.exists()).then_some(bin)
}
