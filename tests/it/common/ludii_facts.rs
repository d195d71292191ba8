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
    let file =
        std::fs::File::open(&setup.jar).map_err(|e| format!("{}: {e}", setup.jar.display()))?;
    let mut zip = jar::Archive::open(std::io::BufReader::new(file))?;
    let root = setup.library_root();
    let mut out = Vec::new();
    for e in zip.entries().to_vec() {
        let Some(rel) = e.name.strip_prefix("lud/board/") else {
            continue;
        };
        if !rel.ends_with(".lud") || rel.split('/').any(|c| c == ".." || c.is_empty()) {
            continue;
        }
        let dest = root.join(rel);
        if std::fs::metadata(&dest).ok().map(|m| m.len() as usize) != Some(e.size) {
            let data = zip.read(&e, usize::MAX)?;
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

/// The oracle's output in `mode` (`facts`, `english`) for each file: read from the cache
/// `target/<dir>` (one `<rel without .lud>.<ext>` per file), after one batch run for the files
/// not cached yet (`timeout` seconds per file). `None` where the oracle wrote nothing.
pub fn oracle_batch(
    setup: &Setup,
    mode: &str,
    dir: &str,
    ext: &str,
    extra: &[&str],
    files: &[String],
    timeout: u32,
) -> Result<BTreeMap<String, Option<String>>, String> {
    let cache = setup.target.join(dir);
    let cached = |f: &str| cache.join(format!("{}.{ext}", f.strip_suffix(".lud").unwrap_or(f)));
    // A file the oracle could not handle leaves a note in the cache so it is not retried.
    let failed = |f: &str| cache.join(format!("{}.failed", f.strip_suffix(".lud").unwrap_or(f)));
    let todo: Vec<&String> = files
        .iter()
        .filter(|f| !cached(f).is_file() && !failed(f).is_file())
        .collect();
    if !todo.is_empty() {
        let list: String = todo
            .iter()
            .map(|f| format!("{}\n", setup.library_root().join(f).display()))
            .collect();
        let mut child = Command::new(&setup.oracle)
            .arg("batch")
            .arg(mode)
            .arg(setup.library_root())
            .arg(&cache)
            .args(["--timeout", &timeout.to_string()])
            .args(extra)
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
        for f in todo {
            if !cached(f).is_file() {
                let _ = std::fs::write(failed(f), "");
            }
        }
    }
    Ok(files
        .iter()
        .map(|f| (f.clone(), std::fs::read_to_string(cached(f)).ok()))
        .collect())
}

/// The fixed library sample and the oracle's facts for it, as the sample tests use them; `None`
/// (with a note) when Java or the oracle is missing, which fails under CI.
pub fn oracle_sample() -> Option<(Setup, Vec<String>, Answers)> {
    let setup = Setup::new(Path::new(env!("CARGO_MANIFEST_DIR")), None);
    if let Some(why) = setup.missing() {
        if std::env::var_os("CI").is_some() {
            panic!("{why}: CI needs Java 17 and ../shared/tools/ludii");
        }
        eprintln!("SKIPPED: {why} (set CI=1 to make this a failure)");
        return None;
    }
    let all = extract_library(&setup).expect("library extracted from the jar");
    let files = sample(&all);
    assert!(files.len() >= 200, "sample of {} games", files.len());
    let facts = oracle_facts(&setup, &files, 60).expect("oracle facts");
    Some((setup, files, facts))
}

/// The oracle's answer (facts, boards) for each file.
pub type Answers = BTreeMap<String, serde_json::Value>;

/// [`oracle_sample`] with the oracle's boards ([`oracle_boards`]) too.
pub fn oracle_sample_boards() -> Option<(Setup, Vec<String>, Answers, Answers)> {
    let (setup, files, facts) = oracle_sample()?;
    let boards = oracle_boards(&setup, &files, 60).expect("oracle boards");
    Some((setup, files, facts, boards))
}

/// The oracle's `facts` for each file (cached in `target/ludii-facts`).
pub fn oracle_facts(
    setup: &Setup,
    files: &[String],
    timeout: u32,
) -> Result<BTreeMap<String, serde_json::Value>, String> {
    Ok(
        oracle_batch(setup, "facts", "ludii-facts", "json", &[], files, timeout)?
            .into_iter()
            .map(|(f, t)| {
                let v = t
                    .and_then(|t| serde_json::from_str(&t).ok())
                    .unwrap_or(serde_json::Value::Null);
                (f, v)
            })
            .collect(),
    )
}

/// The oracle's boards (`tests/oracle/LudBoard.java`, compiled against the oracle's jars into
/// `target/ludii-board-driver`): per file, the default site type and every site's label, centre
/// and `Orthogonal` and `Adjacent` neighbours, cached per file in `target/ludii-board`
/// (`Null` where the driver gave nothing). One JVM runs for the files not cached yet.
pub fn oracle_boards(
    setup: &Setup,
    files: &[String],
    timeout: u32,
) -> Result<BTreeMap<String, serde_json::Value>, String> {
    let cache = setup.target.join("ludii-board");
    let stem = |f: &str| f.strip_suffix(".lud").unwrap_or(f).to_string();
    let cached = |f: &str| cache.join(format!("{}.json", stem(f)));
    let failed = |f: &str| cache.join(format!("{}.failed", stem(f)));
    let todo: Vec<&String> = files
        .iter()
        .filter(|f| !cached(f).is_file() && !failed(f).is_file())
        .collect();
    if !todo.is_empty() {
        run_board_driver(setup, &todo, timeout, &cached)?;
        for f in todo {
            if !cached(f).is_file() {
                let p = failed(f);
                std::fs::create_dir_all(p.parent().unwrap()).map_err(|e| e.to_string())?;
                let _ = std::fs::write(p, "");
            }
        }
    }
    Ok(files
        .iter()
        .map(|f| {
            let v = std::fs::read_to_string(cached(f))
                .ok()
                .and_then(|t| serde_json::from_str(&t).ok())
                .unwrap_or(serde_json::Value::Null);
            (f.clone(), v)
        })
        .collect())
}

/// Compiles the board driver when its source is newer than its class and runs it once over
/// `todo`, writing each answer where `cached` says.
fn run_board_driver(
    setup: &Setup,
    todo: &[&String],
    timeout: u32,
    cached: &dyn Fn(&str) -> PathBuf,
) -> Result<(), String> {
    use std::io::Write;
    let dir = setup.oracle.parent().ok_or("no oracle folder")?;
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
    // The repository's root is `target/`'s parent: `CARGO_MANIFEST_DIR` would be `xtask/` when
    // this file is compiled into the xtask.
    let root = setup.target.parent().ok_or("no repository folder")?;
    let src = root.join("tests/oracle/LudBoard.java");
    let work = setup.target.join("ludii-board-driver");
    let class = work.join("LudBoard.class");
    let stale = match (std::fs::metadata(&src), std::fs::metadata(&class)) {
        (Ok(s), Ok(c)) => s.modified().ok() > c.modified().ok(),
        _ => true,
    };
    if stale {
        std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
        let out = Command::new("javac")
            .args(["-nowarn", "-d"])
            .arg(&work)
            .arg("-cp")
            .arg(&cp)
            .arg(&src)
            .output()
            .map_err(|e| format!("javac: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "javac LudBoard.java failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    let root = setup.library_root();
    let list: String = todo
        .iter()
        .map(|f| format!("{}\n", root.join(f).display()))
        .collect();
    let mut child = Command::new("java")
        .args(["-Xss8m", "-Xmx2g", "-Djava.awt.headless=true", "-cp"])
        .arg(format!("{}:{cp}", work.display()))
        .arg("LudBoard")
        .arg(timeout.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run java: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let writer = std::thread::spawn(move || stdin.write_all(list.as_bytes()));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let _ = writer.join();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue; // Ludii's own messages
        };
        let file = v["file"].as_str().unwrap_or_default();
        let Ok(rel) = Path::new(file).strip_prefix(&root) else {
            continue;
        };
        if v["ok"].as_bool() == Some(true) {
            let p = cached(&rel.display().to_string());
            std::fs::create_dir_all(p.parent().unwrap()).map_err(|e| e.to_string())?;
            std::fs::write(p, line).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// The English rules the oracle generates for each file (cached in `target/ludii-english`;
/// Ludii's text, so never copied into the repository). `--trials 0`: no random playouts, which
/// only feed the manual-page sections (`Game Endings:`, `Moves:`) that the reader ignores; the
/// rules sections are deterministic and the same, and generation is about three times faster.
pub fn oracle_english(
    setup: &Setup,
    files: &[String],
    timeout: u32,
) -> Result<BTreeMap<String, Option<String>>, String> {
    oracle_batch(
        setup,
        "english",
        "ludii-english",
        "txt",
        &["--trials", "0"],
        files,
        timeout,
    )
}

/// zogkit's reading options with the jar's defines.
pub fn read_options(setup: &Setup) -> Result<ReadOptions, String> {
    let bytes = std::fs::read(&setup.jar).map_err(|e| format!("{}: {e}", setup.jar.display()))?;
    let (lib, _) = Library::from_zip(
        &setup.jar.display().to_string(),
        std::io::Cursor::new(&bytes),
    )?;
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
    /// Same sites with the same neighbours ([`adjacency_difference`]), from the oracle's
    /// board driver.
    pub adjacency: bool,
    /// Where the adjacency first differs, when it does.
    pub adjacency_note: Option<String>,
    /// Same number of players.
    pub players: bool,
    /// Same set of piece kinds.
    pub kinds: bool,
    /// Same initial placements (site, kind, owner), as a multiset.
    pub placements: bool,
    /// The first error zogkit reported, for the lists.
    pub first_error: Option<String>,
    /// Our site count and the oracle's (`None`: no board / no facts).
    pub site_counts: (Option<usize>, Option<u64>),
    /// The board ludeme as read (the board's `ludii` extension), or the game's first `ludii`
    /// extension that mentions a board when none was built.
    pub board_text: String,
    /// Why the placements differ, when they do (`cargo xtask ludii --why`).
    pub why: Option<Why>,
}

impl Outcome {
    /// The board is Ludii's: same sites, same adjacency.
    pub fn board_equal(&self) -> bool {
        self.sites && self.adjacency
    }
}

/// Reads `rel` with zogkit and compares it with the oracle's facts and its board (the board
/// driver's output, `Null` when it has none).
pub fn compare(
    setup: &Setup,
    opts: &ReadOptions,
    rel: &str,
    facts: &serde_json::Value,
    board: &serde_json::Value,
) -> Outcome {
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
    if let Some(b) = doc.games.first().and_then(|g| g.boards.first()) {
        o.adjacency_note = adjacency_difference(b, board);
        o.adjacency = o.sites && o.adjacency_note.is_none();
    }
    o
}

/// Where `board`'s links differ from the oracle board driver's neighbours (the first site whose
/// links differ, sets by index), `None` when every site agrees with Ludii. A site agrees when
/// it is linked to every site of its `Orthogonal` and `Adjacent` relations (Ludii's default
/// step) and to nothing outside its `Orthogonal`, `Diagonal` and `Adjacent` relations: a
/// board may leave out Ludii's diagonals (the hex boards' second ring, which only
/// `(step Diagonal)` reaches) but not add a neighbour Ludii does not have. A board the driver
/// could not give differs.
pub fn adjacency_difference(
    board: &zogkit::spec::Board,
    oracle: &serde_json::Value,
) -> Option<String> {
    let Some(sites) = oracle["sites"].as_array() else {
        return Some("no board from the oracle".into());
    };
    if sites.len() != board.positions.len() {
        return Some(format!(
            "{} sites, Ludii {}",
            board.positions.len(),
            sites.len()
        ));
    }
    let index: BTreeMap<&str, usize> = board
        .positions
        .iter()
        .enumerate()
        .map(|(i, p)| (p.name.as_str(), i))
        .collect();
    for (i, (p, s)) in board.positions.iter().zip(sites).enumerate() {
        let mut ours: Vec<usize> = p
            .links
            .iter()
            .filter_map(|l| index.get(l.to.as_str()).copied())
            .filter(|&j| j != i)
            .collect();
        ours.sort_unstable();
        ours.dedup();
        let relation = |keys: &[&str]| -> Vec<usize> {
            let mut v: Vec<usize> = keys
                .iter()
                .filter_map(|k| s[*k].as_array())
                .flatten()
                .filter_map(|x| x.as_u64().map(|x| x as usize))
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let must = relation(&["orth", "adj"]);
        let may = relation(&["orth", "diag", "adj"]);
        let missing: Vec<usize> = must.iter().copied().filter(|j| !ours.contains(j)).collect();
        let extra: Vec<usize> = ours.iter().copied().filter(|j| !may.contains(j)).collect();
        if !missing.is_empty() || !extra.is_empty() {
            return Some(format!(
                "site {i} ({}): ours {ours:?}, Ludii orthogonal/adjacent {must:?}, \
                 with diagonal {may:?}",
                s["label"].as_str().unwrap_or("?")
            ));
        }
    }
    None
}

fn compare_doc(doc: &Document, facts: &serde_json::Value, o: &mut Outcome) {
    let g = doc.games.first();
    let board = g.and_then(|g| g.boards.first());
    o.site_counts = (
        board.map(|b| b.positions.len()),
        facts["board"]["sites"].as_u64(),
    );
    let ludii = zogkit::spec::RawFormat::Ludii;
    o.board_text = board
        .and_then(|b| b.extensions.texts(ludii).next().cloned())
        .or_else(|| {
            g.and_then(|g| {
                g.extensions
                    .texts(ludii)
                    .find(|t| t.contains("board") || t.contains("Board"))
                    .cloned()
            })
        })
        .unwrap_or_default();
    let d = diff_doc(doc, facts);
    o.sites = d.sites;
    o.players = d.players;
    o.kinds = d.kinds;
    o.placements = d.placements;
    if !d.placements {
        o.why = Some(why(doc, facts, &d));
    }
}

/// Why a game's placements differ from the oracle's: a cause, to group files by, and the
/// details of one file.
#[derive(Debug, Clone, Default)]
pub struct Why {
    /// `board differs` (the site count is not Ludii's: a board problem), `not read: <form>`
    /// (a `(start …)` item kept verbatim), `stack heights`, `owners`, `kinds`, `sites`.
    pub cause: String,
    /// The placements missing and extra (site label, kind, owner), the first few of each.
    pub detail: String,
}

/// The shape of a kept `(start …)` item: its first two words, strings and numbers elided
/// (`(place Stack "…"` → `place Stack`, `(place "…" (forEach` → `place "…" (forEach`).
fn form_of(item: &str) -> String {
    let inner = item
        .strip_prefix("(start {")
        .or_else(|| item.strip_prefix("(start "))
        .unwrap_or(item)
        .trim_start_matches('(');
    let mut out = Vec::new();
    for w in inner.split_whitespace().take(3) {
        out.push(if w.starts_with('"') {
            "\"…\"".to_string()
        } else if w.starts_with('(') {
            w.split(|c: char| c.is_whitespace() || c == ')')
                .next()
                .unwrap_or(w)
                .to_string()
        } else {
            w.trim_end_matches([')', '}']).to_string()
        });
    }
    out.join(" ")
}

fn why(doc: &Document, facts: &serde_json::Value, d: &Diff) -> Why {
    let (mine, oracle) = doc
        .games
        .first()
        .map(|g| placement_lists(g, facts))
        .unwrap_or_default();
    let (missing, extra) = multiset_diff(&mine, &oracle);
    let label = |i: i64| -> String {
        facts["placements"]
            .as_array()
            .and_then(|a| a.iter().find(|p| p["site"].as_i64() == Some(i)))
            .and_then(|p| p["label"].as_str())
            .map_or(i.to_string(), |l| format!("{i}/{l}"))
    };
    let show = |v: &[(i64, String, i64)]| -> String {
        let mut s: Vec<String> = v
            .iter()
            .take(4)
            .map(|(i, k, o)| format!("{}:{k}:P{o}", label(*i)))
            .collect();
        if v.len() > 4 {
            s.push(format!("… ({} in all)", v.len()));
        }
        s.join(" ")
    };
    let detail = format!("missing [{}] extra [{}]", show(&missing), show(&extra));
    let kept: Vec<String> = doc
        .games
        .first()
        .map(|g| {
            g.extensions
                .0
                .iter()
                .filter(|e| e.text.starts_with("(start "))
                .map(|e| form_of(&e.text))
                .collect()
        })
        .unwrap_or_default();
    let same = |f: &dyn Fn(&(i64, String, i64)) -> String| {
        let mut a: Vec<String> = missing.iter().map(f).collect();
        let mut b: Vec<String> = extra.iter().map(f).collect();
        a.sort();
        b.sort();
        a == b
    };
    let first_kept = doc.games.first().and_then(|g| {
        g.extensions
            .0
            .iter()
            .find(|e| e.text.starts_with("(start "))
            .map(|e| e.text.chars().take(110).collect::<String>())
    });
    let detail = match first_kept {
        Some(k) => format!("{detail} kept {k}"),
        None => detail,
    };
    // A board whose sites are Ludii's in number but not in order or labels.
    let labels_differ = doc
        .games
        .first()
        .and_then(|g| g.boards.first())
        .is_some_and(|b| {
            facts["placements"].as_array().is_some_and(|a| {
                a.iter().any(|p| {
                    let (Some(i), Some(l)) = (p["site"].as_u64(), p["label"].as_str()) else {
                        return false;
                    };
                    p["type"].as_str() == facts["board"]["siteType"].as_str()
                        && b.positions.get(i as usize).is_some_and(|x| x.name != l)
                })
            })
        });
    let cause = if !d.sites {
        "board differs".to_string()
    } else if labels_differ {
        "board differs (site order or labels)".to_string()
    } else if let Some(k) = kept.first() {
        format!("not read: {k}")
    } else if d.placement_sites {
        "stack heights".into()
    } else if same(&|(i, k, _)| format!("{i} {k}")) {
        "owners".into()
    } else if same(&|(i, _, o)| format!("{i} {o}")) {
        "kinds".into()
    } else if missing.is_empty() {
        "extra placements".into()
    } else if extra.is_empty() {
        "missing placements".into()
    } else {
        "sites".into()
    };
    Why { cause, detail }
}

/// What `a` has beyond `b` and what `b` has beyond `a`, as multisets (both sorted): (the
/// oracle's missing from ours, ours not in the oracle's) for `(mine, oracle)`.
fn multiset_diff<T: Ord + Clone>(mine: &[T], oracle: &[T]) -> (Vec<T>, Vec<T>) {
    let (mut i, mut j) = (0, 0);
    let (mut missing, mut extra) = (Vec::new(), Vec::new());
    while i < mine.len() || j < oracle.len() {
        match (mine.get(i), oracle.get(j)) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a < b => {
                extra.push(a.clone());
                i += 1;
            }
            (Some(a), None) => {
                extra.push(a.clone());
                i += 1;
            }
            (_, Some(b)) => {
                missing.push(b.clone());
                j += 1;
            }
            (None, None) => break,
        }
    }
    (missing, extra)
}

/// A spec's first game compared with the oracle's facts.
#[derive(Debug, Clone, Copy, Default)]
pub struct Diff {
    /// Same number of board sites.
    pub sites: bool,
    /// Same number of players.
    pub players: bool,
    /// Same set of piece kinds.
    pub kinds: bool,
    /// Same multiset of placements (site index, kind, owner).
    pub placements: bool,
    /// Same set of placements: how many pieces stand on a site ignored.
    pub placement_sites: bool,
    /// The oracle's placements found among ours (multiset intersection).
    pub found: usize,
    /// The oracle's placements.
    pub total: usize,
}

/// Compares the first game of `doc` with `facts`.
pub fn diff_doc(doc: &Document, facts: &serde_json::Value) -> Diff {
    let Some(g) = doc.games.first() else {
        return Diff {
            total: oracle_placements(facts).len(),
            ..Diff::default()
        };
    };
    let sites = g.boards.first().map_or(0, |b| b.positions.len()) as u64;
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
    let (mine, oracle) = placement_lists(g, facts);
    let found = oracle.len() - multiset_diff(&mine, &oracle).0.len();
    let set = |v: &[(i64, String, i64)]| {
        let mut v = v.to_vec();
        v.dedup();
        v
    };
    Diff {
        placement_sites: set(&mine) == set(&oracle),
        sites: facts["board"]["sites"].as_u64() == Some(sites),
        players: facts["players"].as_u64() == Some(g.players.len() as u64),
        kinds: theirs == ours,
        placements: mine == oracle,
        found,
        total: oracle.len(),
    }
}

/// A game's placements and the oracle's as (site index, kind, owner), one per piece, sorted.
type Placed = Vec<(i64, String, i64)>;

fn placement_lists(g: &zogkit::spec::Game, facts: &serde_json::Value) -> (Placed, Placed) {
    let board = g.boards.first();
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
    let mut mine: Placed = g
        .setup
        .iter()
        .flat_map(|p| {
            p.positions
                .iter()
                .map(move |s| (index(s), p.piece.clone(), player_no(&p.player)))
        })
        .collect();
    let mut oracle = oracle_placements(facts);
    mine.sort();
    oracle.sort();
    (mine, oracle)
}

/// The oracle's board placements as (site index, kind, owner), one per piece (a placement of
/// `count` pieces is `count` placements).
fn oracle_placements(facts: &serde_json::Value) -> Vec<(i64, String, i64)> {
    facts["placements"]
        .as_array()
        .map(|a| {
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
        .unwrap_or_default()
}

/// Counts per category: files, oracle ok, read, sites, players, kinds, placements.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub files: usize,
    pub oracle_ok: usize,
    pub read: usize,
    pub sites: usize,
    pub adjacency: usize,
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
        self.adjacency += o.board_equal() as usize;
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
        "| category | files | Ludii compiles | read without error | sites equal | sites and adjacency equal | players equal | piece kinds equal | placements equal |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for (c, t) in t {
        let c = if c == "all" {
            "**all**".to_string()
        } else {
            format!("`{c}`")
        };
        s.push_str(&format!(
            "| {c} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            t.files, t.oracle_ok, t.read, t.sites, t.adjacency, t.players, t.kinds, t.placements
        ));
    }
    s
}

// ------------------------------------------------------------------ the generated English

/// One generated English text read by zogkit (`--from ludii-english`) and compared with the
/// oracle's facts for the same game. "Stated" is decided from the text alone: the board when its
/// sentence gives dimensions (`10x9 rectangle board`, `2 x 6 Mancala board`), the piece kinds
/// when a `… play(s) with …` or `The following pieces …` sentence lists them, the placements
/// when the board is stated and the `Setup:` section has a `Place …` or `Set the count of …`
/// line. Ludii's English never prints a stack's height (`(place Stack "Disc1" 0 count:5)` is
/// `Place stack of [Disc1] at vertex 0`), so placements are also compared as sets, heights
/// ignored.
#[derive(Debug, Clone, Default)]
pub struct EnglishOutcome {
    /// The oracle compiled the game and generated a text.
    pub text: bool,
    /// zogkit read the text without an error.
    pub read: bool,
    /// zogkit built a board.
    pub board: bool,
    /// The text gives the board's dimensions.
    pub board_stated: bool,
    /// The text lists the piece kinds.
    pub kinds_stated: bool,
    /// The text states the placements (the old, loose notion: a board with dimensions and a
    /// `Place …` / `Set the count of …` line).
    pub setup_stated: bool,
    /// The text states the placements exactly ([`english_setup_unstated`] finds nothing).
    pub setup_exact: bool,
    /// Why a text that states its placements by the old notion does not by the exact one.
    pub unstated: Option<String>,
    /// The comparison with the facts.
    pub diff: Diff,
    /// The first error zogkit reported.
    pub first_error: Option<String>,
    /// Why the placements differ (heights ignored) in a text that states them.
    pub why: Option<Why>,
}

/// What the English text states (see [`EnglishOutcome`]): (board, kinds, placements).
pub fn english_states(text: &str) -> (bool, bool, bool) {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let board = lines
        .iter()
        .find_map(|l| l.strip_prefix("The game \""))
        .and_then(|l| l.split_once(" on a ").or_else(|| l.split_once(" on an ")))
        .is_some_and(|(_, b)| b.starts_with(|c: char| c.is_ascii_digit()));
    let kinds = lines.iter().any(|l| {
        l.starts_with("All players play with ")
            || (l.starts_with("Player ") && l.contains(" plays with "))
            || l.starts_with("The following pieces ")
    });
    let mut in_setup = false;
    let mut place = false;
    for l in &lines {
        match *l {
            "Setup:" => in_setup = true,
            "Rules:" | "Aim:" | "Game Heuristics:" | "Board Setup:" | "Game Endings:"
            | "Moves:" => in_setup = false,
            _ if in_setup && (l.starts_with("Place ") || l.starts_with("Set the count of ")) => {
                place = true
            }
            _ => {}
        }
    }
    (board, kinds, board && place)
}

/// Why a text whose placements are stated by the loose notion of [`english_states`] still does
/// not state them exactly, from the text and the oracle's facts alone (never from zogkit's
/// reading): `None` when it does. A placement is unstated when
/// - a piece kind the oracle places is named in no `Setup:` line (a `Set the count of …` line
///   names the one kind it fills when only one kind is left unnamed), or
/// - a `Setup:` line names what the text does not define: a `track X` (the English never prints
///   a track's sites; `track of board`, a mancala board's own track, is stated), a region whose
///   `Regions:` definition names such a track or such a region, or Ludii's `null`, or
/// - a `Setup:` line chooses at random (`randomly select`): the facts are one draw.
pub fn english_setup_unstated(text: &str, facts: &serde_json::Value) -> Option<String> {
    let (mut setup, mut regions) = (Vec::new(), Vec::new());
    let mut section = "";
    for l in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if zogkit::ludii::english::HEADERS.contains(&l) {
            section = l;
            continue;
        }
        match section {
            "Setup:" => setup.push(l),
            "Regions:" => regions.push(l),
            _ => {}
        }
    }
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    // A phrase's undefined reference, given the regions known to be undefined.
    let undefined = |s: &str, bad: &[String]| -> Option<String> {
        let w = words(s);
        for (i, x) in w.iter().enumerate() {
            if x == "track" && w.get(i + 1).is_some_and(|n| n != "of") {
                return Some(format!("track {}", w[i + 1]));
            }
            if x == "null" {
                return Some("null".into());
            }
            if bad.contains(x) {
                return Some(format!("region {x} (defined by a track)"));
            }
        }
        None
    };
    let mut bad: Vec<String> = Vec::new();
    loop {
        let n = bad.len();
        for r in &regions {
            if let Some((name, desc)) = r.split_once(": ") {
                let name = name.trim().to_string();
                if !bad.contains(&name) && undefined(desc, &bad).is_some() {
                    bad.push(name);
                }
            }
        }
        if bad.len() == n {
            break;
        }
    }
    for l in &setup {
        if l.contains("randomly select") {
            return Some("random placement".into());
        }
        if let Some(what) = undefined(l, &bad) {
            return Some(format!("names {what}"));
        }
    }
    let all = setup.join(" ");
    let named = |k: &str| {
        all.match_indices(k).any(|(at, _)| {
            let before = all[..at].chars().next_back();
            let after = all[at + k.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_lowercase)
        })
    };
    let mut unnamed: Vec<String> = Vec::new();
    for p in facts["placements"].as_array().into_iter().flatten() {
        let kind = p["piece"].as_str().unwrap_or("");
        let comp = p["component"].as_str().unwrap_or(kind);
        if !named(kind) && !named(comp) && !unnamed.iter().any(|u| u == kind) {
            unnamed.push(kind.to_string());
        }
    }
    let counts = setup.iter().any(|l| l.starts_with("Set the count of "));
    match unnamed.as_slice() {
        [] => None,
        [_] if counts => None,
        _ => Some(format!(
            "piece kind {} placed by no Setup line",
            unnamed.join(", ")
        )),
    }
}

/// Reads one generated text with zogkit and compares it with the facts.
pub fn compare_english(rel: &str, text: Option<&str>, facts: &serde_json::Value) -> EnglishOutcome {
    let Some(text) = text.filter(|_| facts["ok"].as_bool() == Some(true)) else {
        return EnglishOutcome::default();
    };
    let name = format!("{}.txt", rel.strip_suffix(".lud").unwrap_or(rel));
    let r = format::read(
        Format::LudiiEnglish,
        &name,
        text.as_bytes(),
        &ReadOptions::default(),
        &mut zogkit::zrf::NoIncludes,
    );
    let first_error = r
        .diagnostics
        .iter()
        .find(|d| d.severity == zogkit::diag::Severity::Error)
        .map(|d| format!("{}: {}", d.code, d.message));
    let (board_stated, kinds_stated, setup_stated) = english_states(text);
    let mut o = EnglishOutcome {
        text: true,
        read: first_error.is_none() && r.document.is_some(),
        first_error,
        board_stated,
        kinds_stated,
        setup_stated,
        ..EnglishOutcome::default()
    };
    if setup_stated {
        o.unstated = english_setup_unstated(text, facts);
        o.setup_exact = o.unstated.is_none();
    }
    match r.document.as_ref() {
        Some(doc) => {
            o.board = doc.games.first().is_some_and(|g| !g.boards.is_empty());
            o.diff = diff_doc(doc, facts);
            if o.setup_stated && !o.diff.placement_sites {
                o.why = Some(why(doc, facts, &o.diff));
            }
        }
        None => o.diff.total = oracle_placements(facts).len(),
    }
    o
}

/// Counts of [`EnglishOutcome`]s (each "equal" count among the games that state it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EnglishTally {
    pub files: usize,
    pub texts: usize,
    pub read: usize,
    pub no_board: usize,
    pub board_stated: usize,
    pub sites: usize,
    pub kinds_stated: usize,
    pub kinds: usize,
    pub setup_stated: usize,
    pub placements: usize,
    pub placement_sites: usize,
    /// The same three counts with the exact notion of stated ([`english_setup_unstated`]).
    pub setup_exact: usize,
    pub placements_exact: usize,
    pub placement_sites_exact: usize,
    /// Placements found / the oracle's placements, over every text.
    pub found: usize,
    pub total: usize,
    /// The same over the texts that state their placements.
    pub found_stated: usize,
    pub total_stated: usize,
}

impl EnglishTally {
    fn add(&mut self, o: &EnglishOutcome) {
        self.files += 1;
        if !o.text {
            return;
        }
        let d = &o.diff;
        self.texts += 1;
        self.read += o.read as usize;
        self.no_board += !o.board as usize;
        self.board_stated += o.board_stated as usize;
        self.sites += (o.board_stated && d.sites) as usize;
        self.kinds_stated += o.kinds_stated as usize;
        self.kinds += (o.kinds_stated && d.kinds) as usize;
        self.setup_stated += o.setup_stated as usize;
        self.placements += (o.setup_stated && d.placements) as usize;
        self.placement_sites += (o.setup_stated && d.placement_sites) as usize;
        self.setup_exact += o.setup_exact as usize;
        self.placements_exact += (o.setup_exact && d.placements) as usize;
        self.placement_sites_exact += (o.setup_exact && d.placement_sites) as usize;
        self.found += d.found;
        self.total += d.total;
        if o.setup_stated {
            self.found_stated += d.found;
            self.total_stated += d.total;
        }
    }
}

/// Per-category tallies of the English and the total (last, named `all`).
pub fn english_tally(results: &[(String, EnglishOutcome)]) -> Vec<(String, EnglishTally)> {
    let mut by: BTreeMap<String, EnglishTally> = BTreeMap::new();
    let mut all = EnglishTally::default();
    for (f, o) in results {
        by.entry(category(f)).or_default().add(o);
        all.add(o);
    }
    let mut v: Vec<(String, EnglishTally)> = by.into_iter().collect();
    v.push(("all".into(), all));
    v
}

fn pct(a: usize, b: usize) -> String {
    if b == 0 {
        "–".into()
    } else {
        format!("{:.1} %", 100.0 * a as f64 / b as f64)
    }
}

/// The markdown table of [`english_tally`].
pub fn english_table(t: &[(String, EnglishTally)]) -> String {
    let mut s = String::from(
        "| category | files | texts | read without error | no board | board size stated / equal | piece kinds stated / equal | placements stated / equal / equal but for stack heights | placements exactly stated / equal / equal but for stack heights | placements found (stated) | placements found (all) |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for (c, t) in t {
        let c = if c == "all" {
            "**all**".to_string()
        } else {
            format!("`{c}`")
        };
        s.push_str(&format!(
            "| {c} | {} | {} | {} | {} | {} / {} | {} / {} | {} / {} / {} | {} / {} / {} | {} | {} |\n",
            t.files,
            t.texts,
            t.read,
            t.no_board,
            t.board_stated,
            t.sites,
            t.kinds_stated,
            t.kinds,
            t.setup_stated,
            t.placements,
            t.placement_sites,
            t.setup_exact,
            t.placements_exact,
            t.placement_sites_exact,
            pct(t.found_stated, t.total_stated),
            pct(t.found, t.total),
        ));
    }
    s
}

/// Ludii's own perft (`ludii perft --depth D`) for each file, cached in
/// `target/ludii-perft-d<D>`: the counts for depths 1..=D that finished within `timeout` seconds
/// per file (`None`: the oracle gave no count, e.g. it could not compile the file).
pub fn oracle_perft(
    setup: &Setup,
    files: &[String],
    depth: u32,
    timeout: u32,
) -> Result<BTreeMap<String, Option<Vec<u64>>>, String> {
    let d = depth.to_string();
    let dir = format!("ludii-perft-d{depth}");
    let extra = ["--depth", d.as_str()];
    Ok(
        oracle_batch(setup, "perft", &dir, "perft.json", &extra, files, timeout)?
            .into_iter()
            .map(|(f, t)| {
                let v: Option<serde_json::Value> = t.and_then(|t| serde_json::from_str(&t).ok());
                let counts = v.and_then(|v| {
                    v["perft"]
                        .as_array()
                        .map(|a| a.iter().filter_map(|n| n.as_u64()).collect::<Vec<u64>>())
                });
                (f, counts.filter(|c| !c.is_empty()))
            })
            .collect(),
    )
}

/// What zogkit's engine made of a library game.
#[derive(Debug, Clone, PartialEq)]
pub enum Played {
    /// perft for depths 1..=D.
    Counts(Vec<u64>),
    /// The engine refused the game: the reason's group (the first ludeme it cannot run, or the
    /// engine's own reason) and the whole message.
    Refused(String, String),
    /// Anything else (a read error, a budget, a crash): the message.
    Failed(String),
}

/// Runs `zogkit --ludii JAR perft FILE --depth D --format json` with the binary `bin`.
pub fn zogkit_perft(bin: &Path, setup: &Setup, rel: &str, depth: u32) -> Played {
    let out = Command::new(bin)
        .arg("--ludii")
        .arg(&setup.jar)
        .arg("perft")
        .arg(setup.library_root().join(rel))
        .args(["--depth", &depth.to_string(), "--format", "json"])
        .env("NO_COLOR", "1")
        .output();
    let out = match out {
        Ok(o) => o,
        Err(e) => return Played::Failed(format!("cannot run {}: {e}", bin.display())),
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.success() {
        let v: serde_json::Value = match serde_json::from_slice(&out.stdout) {
            Ok(v) => v,
            Err(e) => return Played::Failed(format!("bad JSON from perft: {e}")),
        };
        if v["complete"] != serde_json::Value::Bool(true) {
            return Played::Failed("perft was cut by a budget".into());
        }
        let counts: Vec<u64> = v["perft"]
            .as_array()
            .map(|a| a.iter().filter_map(|r| r["nodes"].as_u64()).collect())
            .unwrap_or_default();
        return Played::Counts(counts);
    }
    let first = stderr
        .lines()
        .find(|l| l.starts_with("error"))
        .unwrap_or("")
        .to_string();
    match first.split_once("cannot be played: ") {
        Some((_, why)) => Played::Refused(refusal_group(why), why.to_string()),
        None => Played::Failed(if first.is_empty() {
            format!("exit {}: {}", out.status, stderr.trim())
        } else {
            first
        }),
    }
}

/// A refusal's group: the head of the first ludeme kept verbatim (`(move Step`, `(end`,
/// `(equipment (regions`), or the engine's reason with names left out.
pub fn refusal_group(why: &str) -> String {
    if let Some((whose, text)) = why.split_once("has content the spec does not type: ") {
        let words: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == '{' || c == '}')
            .filter(|w| !w.is_empty())
            .take(3)
            .collect();
        let mut head = Vec::new();
        for w in words {
            if !w.starts_with('(') || head.len() == 2 {
                if head.len() == 1 && !w.starts_with('"') && !w.starts_with('(') {
                    head.push(w.trim_end_matches(')').to_string());
                }
                break;
            }
            head.push(w.to_string());
        }
        let part = if whose.starts_with("piece") {
            "a piece's "
        } else {
            ""
        };
        return format!("{part}`{}`", head.join(" "));
    }
    let mut out = String::new();
    let mut inside = false;
    for c in why.chars() {
        match (c, inside) {
            ('`', false) => {
                inside = true;
                out.push_str("`…`");
            }
            ('`', true) => inside = false,
            (_, false) => out.push(c),
            _ => {}
        }
    }
    out
}
