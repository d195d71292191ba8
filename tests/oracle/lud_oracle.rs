//! The Ludii oracle for written `.lud` files, shared by `tests/it/ludii_writer.rs` and `cargo xtask
//! lud-writer`: compiles `tests/oracle/LudMoves.java` against the shared oracle's jars (nothing of
//! Ludii is copied), runs it once over many files, and compares Ludii's start moves with the
//! engine's, squares mapped through the writer's own site numbering (`ludii::write::lud_sites`).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use zogkit::spec::Document;

/// A move as a pair of Ludii sites; a drop is `(to, to)`.
pub type Key = (i64, i64);

/// The oracle's verdict on one file.
#[derive(Debug, Clone, Default)]
pub struct Verdict {
    /// Ludii compiled the file (`None`: it timed out).
    pub compile: Option<bool>,
    /// Ludii's first error (compiling, or starting the game).
    pub error: Option<String>,
    /// The legal moves of the start position, when the game started.
    pub moves: Option<BTreeSet<Key>>,
}

/// The oracle's jars and our compiled driver.
pub struct Oracle {
    classpath: String,
}

/// Finds the oracle at `../shared/tools/ludii` from `repo`, and compiles the driver into
/// `work` (kept between runs while the source is unchanged).
pub fn find(repo: &Path, work: &Path) -> Result<Oracle, String> {
    let dir = repo.join("../shared/tools/ludii");
    if !dir.join("ludii-core.jar").is_file() {
        return Err(format!("no Ludii oracle at {}", dir.display()));
    }
    for tool in ["java", "javac"] {
        let ok = Command::new(tool)
            .arg("-version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            return Err(format!("`{tool}` is not on PATH"));
        }
    }
    let jars = [
        "harness.jar",
        "ludii-core.jar",
        "ludii-res.jar",
        "lib/json-20180813.jar",
        "lib/Trove4j_ApacheCommonsRNG.jar",
        "lib/jfreesvg-3.4.jar",
    ];
    let cp: Vec<String> = jars
        .iter()
        .map(|j| dir.join(j).display().to_string())
        .collect();
    let cp = cp.join(":");
    let src = repo.join("tests/oracle/LudMoves.java");
    let class = work.join("LudMoves.class");
    let stale = match (std::fs::metadata(&src), std::fs::metadata(&class)) {
        (Ok(s), Ok(c)) => s.modified().ok() > c.modified().ok(),
        _ => true,
    };
    if stale {
        std::fs::create_dir_all(work).map_err(|e| e.to_string())?;
        let out = Command::new("javac")
            .args(["-nowarn", "-d"])
            .arg(work)
            .arg("-cp")
            .arg(&cp)
            .arg(&src)
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!(
                "javac LudMoves.java failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    Ok(Oracle {
        classpath: format!("{}:{cp}", work.display()),
    })
}

impl Oracle {
    /// Runs Ludii once over `files`: a verdict per file, by path.
    pub fn run(
        &self,
        files: &[PathBuf],
        timeout_s: f64,
    ) -> Result<BTreeMap<PathBuf, Verdict>, String> {
        let mut child = Command::new("java")
            .args(["-Xss8m", "-Xmx2g", "-Djava.awt.headless=true", "-cp"])
            .arg(&self.classpath)
            .arg("LudMoves")
            .arg(timeout_s.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| e.to_string())?;
        let mut list = String::new();
        for f in files {
            list.push_str(&f.display().to_string());
            list.push('\n');
        }
        let mut stdin = child.stdin.take().ok_or("no stdin")?;
        let writer = std::thread::spawn(move || stdin.write_all(list.as_bytes()));
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        let _ = writer.join();
        let mut verdicts = BTreeMap::new();
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            if !line.starts_with("{\"file\":") {
                continue; // Ludii's own messages
            }
            let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let moves = v["moves"].as_array().map(|a| {
                a.iter()
                    .filter_map(|m| Some((m[0].as_i64()?, m[1].as_i64()?)))
                    .collect::<BTreeSet<Key>>()
            });
            verdicts.insert(
                PathBuf::from(v["file"].as_str().unwrap_or_default()),
                Verdict {
                    compile: v["compile"].as_bool(),
                    error: v["error"].as_str().map(str::to_string),
                    moves,
                },
            );
        }
        Ok(verdicts)
    }
}

/// Ludii's moves with drops (from off the board, or in place) as `(to, to)`.
pub fn normalise(moves: &BTreeSet<Key>, board_sites: usize) -> BTreeSet<Key> {
    moves
        .iter()
        .map(|&(f, t)| {
            if f < 0 || f as usize >= board_sites {
                (t, t)
            } else {
                (f, t)
            }
        })
        .collect()
}

/// The engine's legal moves at the start of the first game of `doc`, as Ludii site pairs of
/// the written `.lud` (passes left out); `Err` when the engine refuses the game or a move
/// touches a position the writer did not place.
pub fn engine_moves(doc: &Document) -> Result<(BTreeSet<Key>, usize), String> {
    use zogkit::engine;
    let sites: BTreeMap<String, usize> = zogkit::ludii::write::lud_sites(doc).into_iter().collect();
    let rules = engine::Rules::compile(doc, 0).map_err(|e| format!("engine: {e}"))?;
    let mut st = engine::State::start(&rules);
    let moves = engine::legal_moves(&rules, &mut st);
    if moves.overrun.is_some() {
        return Err("engine: step limit".into());
    }
    let site = |p: u32| -> Result<i64, String> {
        let name = &rules.positions[p as usize];
        sites
            .get(name)
            .map(|s| *s as i64)
            .ok_or_else(|| format!("position {name} has no Ludii site"))
    };
    let mut out = BTreeSet::new();
    for m in &moves.moves {
        let Some(to) = m.to else { continue };
        let to = site(to)?;
        let from = match m.from {
            Some(f) => site(f)?,
            None => to,
        };
        out.insert((from, to));
    }
    Ok((out, sites.len()))
}

/// Ludii's own perft of `files` (all under `root`) to `depth`, through the shared oracle's
/// `ludii batch perft` in one JVM, its JSON files written under `out`: per file, the counts
/// Ludii finished within `timeout_s` seconds (depth 1 first; depths cut by the timeout are left
/// out, and a file Ludii could not run has none).
pub fn batch_perft(
    repo: &Path,
    root: &Path,
    files: &[PathBuf],
    depth: u32,
    timeout_s: u32,
    out: &Path,
) -> Result<BTreeMap<PathBuf, Vec<u64>>, String> {
    let script = repo.join("../shared/tools/ludii/ludii");
    let _ = std::fs::remove_dir_all(out);
    let mut child = Command::new(&script)
        .args(["batch", "perft"])
        .arg(root)
        .arg(out)
        .args([
            "--depth",
            &depth.to_string(),
            "--timeout",
            &timeout_s.to_string(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", script.display()))?;
    let list: String = files.iter().map(|f| format!("{}\n", f.display())).collect();
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let writer = std::thread::spawn(move || stdin.write_all(list.as_bytes()));
    child.wait().map_err(|e| e.to_string())?;
    let _ = writer.join();
    let mut counts = BTreeMap::new();
    for f in files {
        let Ok(rel) = f.strip_prefix(root) else {
            continue;
        };
        let json = out.join(rel).with_extension("perft.json");
        let Ok(text) = std::fs::read_to_string(&json) else {
            continue;
        };
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        let n: Vec<u64> = v["perft"]
            .as_array()
            .map(|a| a.iter().filter_map(|x| x.as_u64()).collect())
            .unwrap_or_default();
        counts.insert(f.clone(), n);
    }
    Ok(counts)
}

/// The engine's perft of the first game of `doc` for depths 1 to `depth` (the step limit or a
/// budget stopping a count ends the list there).
pub fn engine_perft(doc: &Document, depth: u32) -> Result<Vec<u64>, String> {
    use zogkit::engine;
    let rules = engine::Rules::compile(doc, 0).map_err(|e| format!("engine: {e}"))?;
    let mut counts = Vec::new();
    for d in 1..=depth {
        match engine::start_perft(&rules, d, None) {
            Some(n) => counts.push(n),
            None => break,
        }
    }
    Ok(counts)
}
