//! The author's own pictures of a rule file, found as ZoG finds them — relative to the rule file's folder, `\` or `/`, any letter case, `..` allowed — but only inside the collection the user named; the one resolver of `render --start`, `catalogue` and `play`.

use super::{MAX_AUX_BYTES, display_path, read_regular};
use std::path::{Path, PathBuf};
use zogkit::render::own::{AuthorFiles, image_names};
use zogkit::spec::Document;

/// The most bytes the author's pictures of one rule file may have in all.
pub const MAX_PICTURE_BYTES: u64 = 256 << 20;

/// The folder the author's pictures must be in: the collection the user named (a folder
/// walked, or `--collection`), else the rule file's own folder. Nothing outside it is read,
/// listed or opened, whatever `..` or a symbolic link says.
#[derive(Debug, Clone)]
pub struct Collection {
    /// Canonical (links and `..` resolved).
    real: PathBuf,
    /// As the user named it.
    shown: String,
}

impl Collection {
    /// The collection at `dir`, which must exist.
    pub fn new(dir: &Path) -> Result<Collection, String> {
        let real = std::fs::canonicalize(dir)
            .map_err(|e| format!("collection {}: {e}", display_path(dir)))?;
        if !real.is_dir() {
            return Err(format!("collection {}: not a folder", display_path(dir)));
        }
        Ok(Collection {
            real,
            shown: display_path(dir),
        })
    }

    /// The collection of a rule file: `root` when given (the folder walked or named), which
    /// must hold the file, else the file's own folder.
    pub fn of(file: &Path, root: Option<&Path>) -> Result<Collection, String> {
        let folder = folder_of(file);
        let Some(root) = root else {
            return Collection::new(&folder);
        };
        let c = Collection::new(root)?;
        let inside = std::fs::canonicalize(&folder).is_ok_and(|f| f.starts_with(&c.real));
        if !inside {
            return Err(format!(
                "{} is not inside the collection {}",
                display_path(file),
                c.shown
            ));
        }
        Ok(c)
    }

    /// `name`, as a rule file in `folder` gives it, resolved as ZoG resolves it: relative to
    /// `folder`, components separated by `\` or `/`, each matched exactly or else ignoring
    /// letter case, `..` going up — never out of the collection (checked at every step, links
    /// resolved, so no folder outside is even listed). `Ok(None)` when there is no such file.
    pub fn resolve(&self, folder: &Path, name: &str) -> Result<Option<PathBuf>, String> {
        let outside = || {
            format!(
                "leads out of {}, the collection the pictures must be in (name a larger one \
                 with --collection, or catalogue the folder above)",
                self.shown
            )
        };
        if name.is_empty() {
            return Err("an empty path".into());
        }
        let drive = name.as_bytes().get(1) == Some(&b':');
        if name.starts_with(['/', '\\']) || drive {
            return Err("an absolute path; ZoG's image paths are relative to the rule file".into());
        }
        let mut cur = std::fs::canonicalize(folder)
            .map_err(|e| format!("the rule file's folder {}: {e}", display_path(folder)))?;
        if !cur.starts_with(&self.real) {
            return Err(format!(
                "the rule file is outside {}, the collection",
                self.shown
            ));
        }
        for comp in name
            .split(['/', '\\'])
            .filter(|c| !c.is_empty() && *c != ".")
        {
            if comp == ".." {
                if cur == self.real {
                    return Err(outside());
                }
                cur.pop();
                continue;
            }
            let Some(next) = entry(&cur, comp) else {
                return Ok(None);
            };
            // A link may point anywhere: follow it, then check where it leads (a dangling
            // link is no file).
            let Ok(real) = std::fs::canonicalize(&next) else {
                return Ok(None);
            };
            cur = real;
            if !cur.starts_with(&self.real) {
                return Err(outside());
            }
        }
        Ok(Some(cur))
    }

    /// Reads every picture that the games `games` of `doc` (read from `file`) name, each name
    /// once: resolved by [`Collection::resolve`], regular files only, at most
    /// [`MAX_AUX_BYTES`] each and [`MAX_PICTURE_BYTES`] in all. What cannot be read is kept
    /// as the reason; the names of files that are not there are listed apart (most
    /// collections ship without their bitmaps, so these are one note, not one each).
    pub fn read(
        &self,
        file: &Path,
        doc: &Document,
        games: impl IntoIterator<Item = usize>,
    ) -> (AuthorFiles, Vec<String>) {
        let folder = folder_of(file);
        let mut files = AuthorFiles::new();
        let mut missing: Vec<String> = Vec::new();
        let mut left = MAX_PICTURE_BYTES;
        for g in games {
            for name in image_names(doc, g) {
                if files.contains_key(name) || missing.iter().any(|m| m == name) {
                    continue;
                }
                let read = match left {
                    0 => Err(format!(
                        "not read: the pictures named before it fill the {MAX_PICTURE_BYTES} \
                         bytes the pictures of one rule file may have"
                    )),
                    _ => match self.resolve(&folder, name) {
                        Ok(None) => {
                            missing.push(name.to_string());
                            continue;
                        }
                        Ok(Some(p)) => read_at_most(&p, MAX_AUX_BYTES.min(left)),
                        Err(e) => Err(e),
                    },
                };
                if let Ok(b) = &read {
                    left -= b.len() as u64;
                }
                files.insert(name.to_string(), read);
            }
        }
        (files, missing)
    }

    /// One note for the pictures named but not found in the collection (`None` when all were).
    pub fn missing_note(&self, missing: &[String]) -> Option<String> {
        if missing.is_empty() {
            return None;
        }
        let shown: Vec<&str> = missing.iter().take(5).map(String::as_str).collect();
        Some(format!(
            "{} of the author's picture{} the rule file names {} not in {} ({}{}); drawn instead",
            missing.len(),
            if missing.len() == 1 { "" } else { "s" },
            if missing.len() == 1 { "is" } else { "are" },
            self.shown,
            shown.join(", "),
            if missing.len() > 5 { ", …" } else { "" }
        ))
    }
}

/// At most `cap` bytes of the regular file `path`; a larger file is an error naming the cap
/// (the caller names the file).
fn read_at_most(path: &Path, cap: u64) -> Result<Vec<u8>, String> {
    let bytes = read_regular(path, cap.saturating_add(1)).map_err(|e| e.to_string())?;
    if bytes.len() as u64 > cap {
        return Err(format!("larger than {cap} bytes"));
    }
    Ok(bytes)
}

/// The folder of `file` (`.` for a bare file name).
fn folder_of(file: &Path) -> PathBuf {
    match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The entry `comp` of folder `dir`: the exact name when it exists, else the first (by name)
/// that matches ignoring letter case, as Windows finds it.
fn entry(dir: &Path, comp: &str) -> Option<PathBuf> {
    let exact = dir.join(comp);
    if std::fs::symlink_metadata(&exact).is_ok() {
        return Some(exact);
    }
    let want = comp.to_lowercase();
    let mut found: Vec<std::ffi::OsString> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| n.to_str().is_some_and(|n| n.to_lowercase() == want))
        .collect();
    found.sort();
    found.first().map(|n| dir.join(n))
}
