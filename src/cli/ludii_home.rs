//! Finds and reads the user's Ludii defines (`--ludii PATH`, `LUDII_HOME`): a Ludii jar (zip) or a folder of `.def` files.

use std::path::Path;
use zogkit::ludii::Library;

/// Largest jar read (Ludii's own jar is about 60 MB).
const MAX_JAR_BYTES: u64 = 1 << 30;

/// Reads the defines at `path`: a zip archive (`def/…/*.def` entries), or a folder searched
/// for `.def` files (and, when it holds none, for the `.jar` files directly in it).
pub fn load(path: &Path) -> Result<Library, String> {
    let shown = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| format!("{shown}: {e}"))?;
    if meta.is_file() {
        if meta.len() > MAX_JAR_BYTES {
            return Err(format!("{shown}: larger than {MAX_JAR_BYTES} bytes"));
        }
        // Read from its end through the open file, never loaded whole.
        let file = super::open_regular(path).map_err(|e| format!("{shown}: {e}"))?;
        let (lib, problems) = Library::from_zip(&shown, std::io::BufReader::new(file))
            .map_err(|e| format!("{shown}: {e}"))?;
        report(&problems);
        return Ok(lib);
    }
    let mut lib = Library::new(&shown);
    let mut problems = Vec::new();
    let mut total = 0usize;
    let mut files: Vec<_> = walkdir::WalkDir::new(path)
        .follow_links(true)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "def"))
        .map(|e| e.into_path())
        .collect();
    files.sort();
    for f in &files {
        let left = zogkit::ludii::expand::MAX_LIBRARY_BYTES.saturating_sub(total) as u64;
        let bytes = super::read_bounded(f, left)
            .map_err(|e| format!("{e} (the .def files exceed the size budget)"))?;
        let text = String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8", f.display()))?;
        total = total.saturating_add(text.len());
        if total > zogkit::ludii::expand::MAX_LIBRARY_BYTES {
            return Err(format!("{shown}: the .def files exceed the size budget"));
        }
        problems.extend(lib.add(&f.display().to_string(), &text));
    }
    if lib.is_empty() {
        // A Ludii installation folder: the defines are inside its jar.
        let mut jars: Vec<_> = std::fs::read_dir(path)
            .map_err(|e| format!("{shown}: {e}"))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "jar"))
            .collect();
        jars.sort();
        for j in jars {
            if let Ok(l) = load(&j) {
                return Ok(l);
            }
        }
        return Err(format!(
            "{shown}: no .def files (nor a jar holding them) found"
        ));
    }
    report(&problems);
    Ok(lib)
}

fn report(problems: &[String]) {
    for p in problems.iter().take(10) {
        super::warning_line!("Ludii define skipped: {p}");
    }
    if problems.len() > 10 {
        eprintln!(
            "warning: … and {} more Ludii defines skipped",
            problems.len() - 10
        );
    }
}
