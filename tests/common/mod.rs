//! Helpers shared by the integration tests: locating the shared corpus and running the CLI.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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
    let mut v: Vec<PathBuf> = walk(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("zrf")))
        .collect();
    v.sort();
    v
}

fn walk(dir: &Path) -> Vec<PathBuf> {
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
        Ok(expected) => {
            let diff = similar::TextDiff::from_lines(expected.as_str(), actual)
                .unified_diff()
                .context_radius(3)
                .header("expected", "actual")
                .to_string();
            Err(format!(
                "golden/{rel} differs (UPDATE_GOLDEN=1 to accept):\n{diff}"
            ))
        }
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
