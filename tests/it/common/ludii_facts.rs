//! Ludii's library read by zogkit and by the Ludii oracle, compared: shared by `tests/it/ludii_facts.rs` and `cargo xtask ludii` (included there by path).
//!
//! The library's `.lud` files are extracted from Ludii's resource jar into `target/ludii-lib`
//! (never into the repository), the oracle's `facts` JSON is cached per file under
//! `target/ludii-facts`, and each game is read with zogkit's library reader, given the same
//! jar as its defines. Compared per file: board site count, player count, piece kinds and the
//! initial placements (site index, piece kind, owner).

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use zogkit::format::{self, Format, ReadOptions};
use zogkit::ludii::{Library, jar};
use zogkit::spec::Document;

/// Where the oracle and the jar are, and where results are cached.
pub struct Setup {
    /// `../shared/tools/ludii/ludii` (the oracle's launcher).
    pub oracle: PathBuf,
    /// Ludii's resource jar (defines and library).
    pub jar: PathBuf,
    /// `target/` of the repository.
    pub target: PathBuf,
}

impl Setup {
    /// The default setup next to the repository at `root`, with `jar` instead of the shared
    /// one when given.
    pub fn new(root: &Path, jar: Option<PathBuf>) -> Setup {
        let tools = root.join("../shared/tools/ludii");
        Setup {
            oracle: tools.join("ludii"),
            jar: jar.unwrap_or_else(|| tools.join("ludii-res.jar")),
            target: root.join("target"),
        }
    }

    /// Why the check cannot run here, if it cannot (no jar, no oracle, no `java`).
    pub fn missing(&self) -> Option<String> {
        if !self.jar.is_file() {
            return Some(format!("Ludii's jar is missing at {}", self.jar.display()));
        }
        if !self.oracle.is_file() {
            return Some(format!(
                "the Ludii oracle is missing at {}",
                self.oracle.display()
            ));
        }
        let java = Command::new("java")
            .arg("-version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        if !java.is_ok_and(|s| s.success()) {
            return Some("`java` (17) is not on PATH".into());
        }
        None
    }

    /// The folder the library's board games are extracted to.
    pub fn library_root(&self) -> PathBuf {
        self.target.join("ludii-lib")
    }
}

/// A library game's category: its first folder, and the second when there is one
/// (`hunt`, `race/escape`, …).
pub fn category(rel: &str) -> String {
    let parts: Vec<&str> = rel.split('/').collect();
    match parts.len() {
        0..=2 => parts[0].to_string(),
        _ => format!("{}/{}", parts[0], parts[1]),
    }
}

/// Extracts `lud/board/**.lud` from the jar below [`Setup::library_root`] (files already
/// there with the same size are kept) and returns the relative paths, sorted.
pub fn extract_library(setup: &Setup) -> Result<Vec<String>, String> {
    let bytes = std::fs::read(&setup.jar).map_err(|e| format!("{}: {e}", setup.jar.display()))?;
    let root = setup.library_root();
    let mut out = Vec::new();
    for e in jar::entries(&bytes)? {
        let Some(rel) = e.name.strip_prefix("lud/board/") else {
            continue;
        };
        if !rel.ends_with(".lud") || rel.split('/').any(|c| c == ".." || c.is_empty()) {
            continue;
        }
        let dest = root.join(rel);
        if std::fs::metadata(&dest).ok().map(|m| m.len() as usize) != Some(e.size) {
            let data = jar::read(&bytes, &e)?;
            std::fs::create_dir_all(dest.parent().unwrap()).map_err(|e| e.to_string())?;
            std::fs::write(&dest, data).map_err(|e| e.to_string())?;
        }
        out.push(rel.to_string());
    }
    out.sort();
    Ok(out)
}

/// The sample of the test: every fifth game of each category (sorted paths), so every
/// category has at least one.
pub fn sample(all: &[String]) -> Vec<String> {
    let mut by_cat: BTreeMap<String, Vec<&String>> = BTreeMap::new();
    for f in all {
        by_cat.entry(category(f)).or_default().push(f);
    }
    by_cat
        .values()
        .flat_map(|v| v.iter().step_by(5).map(|s| s.to_string()))
        .collect()
}

/// The oracle's `facts` for each file, from the cache or from one batch run for the files
/// not cached yet (`timeout` seconds per file).
pub fn oracle_facts(
    setup: &Setup,
    files: &[String],
    timeout: u32,
) -> Result<BTreeMap<String, serde_json::Value>, String> {
    let cache = setup.target.join("ludii-facts");
    let cached = |f: &str| cache.join(format!("{}.json", f.strip_suffix(".lud").unwrap_or(f)));
    let todo: Vec<&String> = files.iter().filter(|f| !cached(f).is_file()).collect();
    if !todo.is_empty() {
        let list: String = todo
            .iter()
            .map(|f| format!("{}\n", setup.library_root().join(f).display()))
            .collect();
        let mut child = Command::new(&setup.oracle)
            .arg("batch")
            .arg("facts")
            .arg(setup.library_root())
            .arg(&cache)
            .args(["--timeout", &timeout.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run the oracle: {e}"))?;
        use std::io::Write;
        child
            .stdin
            .take()
            .ok_or("no stdin")?
            .write_all(list.as_bytes())
            .map_err(|e| e.to_string())?;
        child.wait().map_err(|e| e.to_string())?;
    }
    let mut out = BTreeMap::new();
    for f in files {
        let v = std::fs::read_to_string(cached(f))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or(serde_json::Value::Null);
        out.insert(f.clone(), v);
    }
    Ok(out)
}

/// zogkit's reading options with the jar's defines.
pub fn read_options(setup: &Setup) -> Result<ReadOptions, String> {
    let bytes = std::fs::read(&setup.jar).map_err(|e| format!("{}: {e}", setup.jar.display()))?;
    let (lib, _) = Library::from_zip(&setup.jar.display().to_string(), &bytes)?;
    let mut o = ReadOptions::default();
    o.ludii.library = Some(Arc::new(lib));
    Ok(o)
}

/// One file compared.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// The oracle compiled the game.
    pub oracle_ok: bool,
    /// zogkit read it without an error.
    pub read: bool,
    /// Same number of board sites.
    pub sites: bool,
    /// Same number of players.
    pub players: bool,
    /// Same set of piece kinds.
    pub kinds: bool,
    /// Same initial placements (site, kind, owner), as a multiset.
    pub placements: bool,
    /// The first error zogkit reported, for the lists.
    pub first_error: Option<String>,
}

/// Reads `rel` with zogkit and compares it with the oracle's facts.
pub fn compare(setup: &Setup, opts: &ReadOptions, rel: &str, facts: &serde_json::Value) -> Outcome {
    let path = setup.library_root().join(rel);
    let bytes = std::fs::read(&path).unwrap_or_default();
    let r = format::read(Format::Lud, rel, &bytes, opts, &mut zogkit::zrf::NoIncludes);
    let first_error = r
        .diagnostics
        .iter()
        .find(|d| d.severity == zogkit::diag::Severity::Error)
        .map(|d| format!("{}: {}", d.code, d.message));
    let mut o = Outcome {
        oracle_ok: facts["ok"].as_bool() == Some(true),
        read: first_error.is_none() && r.document.is_some(),
        first_error,
        ..Outcome::default()
    };
    let Some(doc) = r.document.as_ref() else {
        return o;
    };
    if !o.oracle_ok {
        return o;
    }
    compare_doc(doc, facts, &mut o);
    o
}

fn compare_doc(doc: &Document, facts: &serde_json::Value, o: &mut Outcome) {
    let Some(g) = doc.games.first() else {
        return;
    };
    let board = g.boards.first();
    let sites = board.map_or(0, |b| b.positions.len()) as u64;
    o.sites = facts["board"]["sites"].as_u64() == Some(sites);
    o.players = facts["players"].as_u64() == Some(g.players.len() as u64);
    let mut theirs: Vec<String> = facts["kinds"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|k| k.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    theirs.sort();
    theirs.dedup();
    let mut ours: Vec<String> = g.pieces.iter().map(|p| p.name.clone()).collect();
    ours.sort();
    ours.dedup();
    o.kinds = theirs == ours;
    let player_no = |p: &str| -> i64 {
        match g.players.iter().position(|x| x == p) {
            Some(i) => i as i64 + 1,
            None if p == "Neutral" => 0,
            None if p == "Shared" => g.players.len() as i64 + 1,
            None => -1,
        }
    };
    let index = |name: &str| -> i64 {
        board
            .and_then(|b| b.positions.iter().position(|p| p.name == name))
            .map_or(-1, |i| i as i64)
    };
    let mut mine: Vec<(i64, String, i64)> = g
        .setup
        .iter()
        .flat_map(|p| {
            p.positions
                .iter()
                .map(move |s| (index(s), p.piece.clone(), player_no(&p.player)))
        })
        .collect();
    let mut oracle: Vec<(i64, String, i64)> = facts["placements"]
        .as_array()
        .map(|a| {
            // A placement of `count` pieces is `count` placements (one per piece).
            a.iter()
                .flat_map(|p| {
                    let one = (
                        p["site"].as_i64().unwrap_or(-2),
                        p["piece"].as_str().unwrap_or("").to_string(),
                        p["player"].as_i64().unwrap_or(-2),
                    );
                    std::iter::repeat_n(one, p["count"].as_u64().unwrap_or(1).min(1000) as usize)
                })
                .collect()
        })
        .unwrap_or_default();
    mine.sort();
    oracle.sort();
    o.placements = mine == oracle;
}

/// Counts per category: files, oracle ok, read, sites, players, kinds, placements.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub files: usize,
    pub oracle_ok: usize,
    pub read: usize,
    pub sites: usize,
    pub players: usize,
    pub kinds: usize,
    pub placements: usize,
}

impl Tally {
    fn add(&mut self, o: &Outcome) {
        self.files += 1;
        self.oracle_ok += o.oracle_ok as usize;
        self.read += o.read as usize;
        self.sites += o.sites as usize;
        self.players += o.players as usize;
        self.kinds += o.kinds as usize;
        self.placements += o.placements as usize;
    }
}

/// Per-category tallies and the total (last, named `all`).
pub fn tally(results: &[(String, Outcome)]) -> Vec<(String, Tally)> {
    let mut by: BTreeMap<String, Tally> = BTreeMap::new();
    let mut all = Tally::default();
    for (f, o) in results {
        by.entry(category(f)).or_default().add(o);
        all.add(o);
    }
    let mut v: Vec<(String, Tally)> = by.into_iter().collect();
    v.push(("all".into(), all));
    v
}

/// The markdown table of [`tally`].
pub fn table(t: &[(String, Tally)]) -> String {
    let mut s = String::from(
        "| category | files | Ludii compiles | read without error | sites equal | players equal | piece kinds equal | placements equal |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for (c, t) in t {
        let c = if c == "all" {
            "**all**".to_string()
        } else {
            format!("`{c}`")
        };
        s.push_str(&format!(
            "| {c} | {} | {} | {} | {} | {} | {} | {} |\n",
            t.files, t.oracle_ok, t.read, t.sites, t.players, t.kinds, t.placements
        ));
    }
    s
}
