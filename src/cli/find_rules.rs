//! Where `replay` finds a saved game's rules: beside the save (confined to its folder), else by
//! the `RulesFile=` name in the rules folders (`--rules-dir`, `ZOGKIT_RULES_PATH`).

use super::display_path;
use std::path::{Path, PathBuf};

/// The environment variable listing rules folders (a path list, as `PATH`) used when no
/// `--rules-dir` is given.
pub const RULES_PATH_VAR: &str = "ZOGKIT_RULES_PATH";

/// The rules folders of a run: `--rules-dir` values if any, else the folders of
/// [`RULES_PATH_VAR`] (empty entries ignored); each named with where it came from.
pub fn rules_dirs(given: &[PathBuf]) -> Vec<(PathBuf, &'static str)> {
    if !given.is_empty() {
        return given.iter().map(|d| (d.clone(), "--rules-dir")).collect();
    }
    std::env::var_os(RULES_PATH_VAR)
        .map(|v| {
            std::env::split_paths(&v)
                .filter(|p| !p.as_os_str().is_empty())
                .map(|p| (p, RULES_PATH_VAR))
                .collect()
        })
        .unwrap_or_default()
}

/// The rules file of the save `zsg`, which names `named` (`RulesFile=`):
///
/// 1. `named` relative to the save's folder, each component matched exactly or else
///    case-insensitively (`\` and `/` both separate), as ZoG resolves it; a name that is
///    absolute or leads out of the save's folder (`..`, a symbolic link) is not read there;
/// 2. else its file name, case-insensitively, anywhere below each of `dirs` in turn (searched
///    recursively); the first folder holding it decides. Of several files there, the one whose
///    folders repeat most of the save's own folders (from the innermost out: a collection of
///    saves that mirrors the collection of rules) is taken, then the one whose name has the
///    same case; a tie that remains is an error naming the files.
pub fn find(zsg: &Path, named: Option<&str>, dirs: &[(PathBuf, &str)]) -> Result<PathBuf, String> {
    let Some(named) = named.map(str::trim).filter(|n| !n.is_empty()) else {
        return Err("the saved game names no rules file (`RulesFile=`)".into());
    };
    let dir = match zsg.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut notes = Vec::new();
    match beside(&dir, named) {
        Ok(Some(p)) => return Ok(p),
        Ok(None) => notes.push(format!("not beside the save in {}", display_path(&dir))),
        Err(why) => notes.push(why),
    }
    let file = named
        .rsplit(['/', '\\'])
        .find(|c| !c.is_empty() && *c != "." && *c != "..")
        .unwrap_or(named);
    let home = std::fs::canonicalize(&dir).unwrap_or(dir);
    for (d, from) in dirs {
        let found = match candidates(d, file) {
            Ok(f) => f,
            // A folder of the path list that is missing is passed over, as `PATH` does.
            Err(e) if *from == RULES_PATH_VAR => {
                notes.push(e);
                continue;
            }
            Err(e) => return Err(e),
        };
        if found.is_empty() {
            notes.push(format!("not in {} ({from})", display_path(d)));
            continue;
        }
        return pick(d, &home, file, found);
    }
    if dirs.is_empty() {
        notes.push(format!(
            "no rules folder given (--rules-dir DIR or {RULES_PATH_VAR})"
        ));
    }
    Err(format!(
        "the rules file `{named}` was not found: {}",
        notes.join("; ")
    ))
}

/// `named` below the save's folder `dir`: `Ok(None)` when it is not there, `Err` when the name
/// leads outside the folder (nothing outside is opened).
fn beside(dir: &Path, named: &str) -> Result<Option<PathBuf>, String> {
    let outside = || {
        format!(
            "`{named}` leads outside {}, the save's folder, and was not read there (give it with --rules to read it)",
            display_path(dir)
        )
    };
    let absolute = named.starts_with(['/', '\\'])
        || named.as_bytes().get(1) == Some(&b':')
        || Path::new(named).is_absolute();
    let mut depth = 0usize;
    for c in named.split(['/', '\\']) {
        match c {
            "" | "." => {}
            ".." if depth == 0 => return Err(outside()),
            ".." => depth -= 1,
            _ => depth += 1,
        }
    }
    if absolute {
        return Err(outside());
    }
    let Some(p) = super::find_case_insensitive(dir, named) else {
        return Ok(None);
    };
    // A symbolic link may still lead out; compare the resolved paths.
    let root = std::fs::canonicalize(dir).map_err(|e| format!("{}: {e}", display_path(dir)))?;
    match std::fs::canonicalize(&p) {
        Ok(real) if real.starts_with(&root) => Ok(Some(p)),
        Ok(_) => Err(outside()),
        Err(_) => Ok(None),
    }
}

/// The files named `file` (case-insensitively) below `dir`, sorted.
fn candidates(dir: &Path, file: &str) -> Result<Vec<PathBuf>, String> {
    let meta = std::fs::metadata(dir).map_err(|e| format!("{}: {e}", display_path(dir)))?;
    if !meta.is_dir() {
        return Err(format!("{} is not a folder", display_path(dir)));
    }
    Ok(walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_type().is_file()
                && e.file_name()
                    .to_str()
                    .is_some_and(|n| n.eq_ignore_ascii_case(file))
        })
        .map(|e| e.into_path())
        .collect())
}

/// The one file of `found` (below `dir`) for a save in the folder `home` (canonical).
fn pick(dir: &Path, home: &Path, file: &str, found: Vec<PathBuf>) -> Result<PathBuf, String> {
    let score = |p: &Path| {
        let rel = p.strip_prefix(dir).unwrap_or(p);
        let theirs = rel.parent().into_iter().flat_map(|q| q.iter().rev());
        theirs
            .zip(home.iter().rev())
            .take_while(|(a, b)| a.eq_ignore_ascii_case(b))
            .count()
    };
    let best = found.iter().map(|p| score(p)).max().unwrap_or(0);
    let mut tied: Vec<PathBuf> = found.into_iter().filter(|p| score(p) == best).collect();
    if tied.len() > 1 {
        let exact: Vec<PathBuf> = tied
            .iter()
            .filter(|p| p.file_name().is_some_and(|n| n == file))
            .cloned()
            .collect();
        if exact.len() == 1 {
            tied = exact;
        }
    }
    match tied.as_slice() {
        [one] => Ok(one.clone()),
        many => Err(format!(
            "the rules file `{file}` is ambiguous in {}: {} (give the one meant with --rules)",
            display_path(dir),
            many.iter()
                .map(|p| display_path(p))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}
