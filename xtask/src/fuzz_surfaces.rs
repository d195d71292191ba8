//! The `jar`, `zsg`, `ini` and `catalogue` fuzz targets (issue 35): Ludii jars, ZoG saved games, `variants.ini` files and catalogue pages.
//!
//! * `jar`: small zips built from entries of `../shared/tools/ludii/ludii-res.jar` (defines
//!   under `def/`, a few games renamed `lud/fz/G1.lud` … `G4.lud`), stored or deflated; read
//!   with `Library::from_zip`, then each game `G1` … `G4` of it and a `(match …)` of them are
//!   read with the library. Besides the generic mutations, a field of a zip record (a size, an
//!   offset, a count, a method) is set to an extreme value.
//! * `zsg`: the shared corpus's saved games, parsed and replayed against the rules their
//!   `RulesFile=` names (found by file name in `../shared/corpus/zrf`, read and lowered once;
//!   compiled for every input, so no budget is shared between inputs) with small engine budgets.
//! * `ini`: the `variants.ini` files of `corpus/` and `golden/` through the generic pipeline.
//! * `catalogue`: YAML and ZRF files (with the hostile spec of `tests/it/common/html.rs`) read
//!   and catalogued in memory (`file_pages`, `index_pages`) under a file name that carries
//!   markup; an element or attribute the catalogue does not write is a finding. A mutation
//!   inserts markup payloads into the texts.

use crate::fuzz::Rng;
use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use zogkit::diag::FileId;
use zogkit::format::{self, Format};
use zogkit::ludii::{self, Library};
use zogkit::spec::Document;
use zogkit::zrf::NoIncludes;

/// The catalogue's HTML scanner and the hostile spec: the tests' own, shared by path.
#[path = "../../tests/it/common/html.rs"]
#[allow(dead_code)]
mod html;

/// Inputs that reached the deepest stage of their target (a library read from the jar, a save
/// replayed, a document catalogued): reported, so a campaign shows it got past the parsers.
pub static REACHED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn reached() {
    REACHED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// The targets of this module.
pub const TARGETS: [&str; 4] = ["jar", "zsg", "ini", "catalogue"];

/// Runs one input of `target` (one of [`TARGETS`]); `Err` describes a panic or a finding.
pub fn exercise(target: &str, bytes: &[u8]) -> Result<(), String> {
    let run = std::panic::catch_unwind(|| match target {
        "jar" => {
            exercise_jar(bytes);
            Ok(())
        }
        "zsg" => {
            exercise_zsg(bytes);
            Ok(())
        }
        "ini" => crate::fuzz::exercise(Format::Fsf, bytes),
        _ => exercise_catalogue(bytes),
    });
    run.map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "panic".into())
    })?
}

/// The seeds of `target` (one of [`TARGETS`]).
pub fn seeds(root: &Path, target: &str) -> Vec<Vec<u8>> {
    match target {
        "jar" => jar_seeds(root),
        "zsg" => files(&[root.join("../shared/corpus/zsg")], "zsg"),
        "ini" => files(&[root.join("corpus"), root.join("golden")], "ini"),
        _ => {
            let mut s = vec![html::hostile_spec().into_bytes()];
            s.extend(files(&[root.join("corpus/yaml")], "yaml"));
            s.extend(files(&[root.join("corpus/zrf")], "zrf"));
            s
        }
    }
}

/// The bytes of every file with extension `ext` below `dirs`, sorted by path.
fn files(dirs: &[PathBuf], ext: &str) -> Vec<Vec<u8>> {
    let mut paths = Vec::new();
    for d in dirs {
        crate::fuzz::collect(d, ext, &mut paths);
    }
    paths.sort();
    paths.iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

/// Target-specific mutations, applied after the generic ones now and then.
pub fn mutate_extra(target: &str, rng: &mut Rng, mut v: Vec<u8>) -> Vec<u8> {
    match target {
        "jar" => zip_field(rng, &mut v),
        "catalogue" => {
            // Markup where a text may be: inside a quoted string, or anywhere.
            const PAYLOADS: [&[u8]; 4] = [
                b"\\\"><img src=x onerror=alert(1)>",
                b"</title><script>alert(1)</script>",
                b"' onmouseover='x",
                b"<!--<svg onload=x>",
            ];
            let quotes: Vec<usize> = (0..v.len()).filter(|&i| v[i] == b'"').collect();
            let at = match quotes.len() {
                0 => rng.below(v.len() + 1),
                n => quotes[rng.below(n)] + 1,
            };
            let p = PAYLOADS[rng.below(PAYLOADS.len())];
            v.splice(at..at, p.iter().copied());
        }
        _ => {}
    }
    v
}

// ---- jar ----

/// The names the exercised `.lud` texts ask the library for.
const GAMES: [&str; 4] = ["G1", "G2", "G3", "G4"];

/// Seed jars: a few of Ludii's own defines and small games, in stored and deflated entries.
fn jar_seeds(root: &Path) -> Vec<Vec<u8>> {
    let path = root.join("../shared/tools/ludii/ludii-res.jar");
    let Ok(file) = std::fs::File::open(&path) else {
        return Vec::new();
    };
    let Ok(mut zip) = ludii::jar::Archive::open(std::io::BufReader::new(file)) else {
        return Vec::new();
    };
    let entries = zip.entries().to_vec();
    let mut defs: Vec<_> = entries
        .iter()
        .filter(|e| e.name.starts_with("def/") && e.name.ends_with(".def") && e.size < 2048)
        .collect();
    defs.sort_by_key(|e| e.name.clone());
    let mut games: Vec<_> = entries
        .iter()
        .filter(|e| e.name.starts_with("lud/") && e.name.ends_with(".lud") && e.size < 3000)
        .collect();
    games.sort_by_key(|e| e.name.clone());
    let mut out = Vec::new();
    for k in 0..8 {
        let mut items: Vec<(String, Vec<u8>)> = Vec::new();
        for e in defs.iter().skip(k * 7).step_by(5).take(8) {
            if let Ok(b) = zip.read(e, usize::MAX) {
                items.push((e.name.clone(), b));
            }
        }
        for (i, e) in games.iter().skip(k * 13).step_by(17).take(4).enumerate() {
            if let Ok(b) = zip.read(e, usize::MAX) {
                let dir = if i % 2 == 0 { "board/fz" } else { "subgame/fz" };
                items.push((format!("lud/{dir}/{}.lud", GAMES[i]), b));
            }
        }
        out.push(write_zip(&items, k % 2 == 0));
    }
    out
}

/// A zip of `items`; entries alternate stored and deflated (`deflate_first`: which comes first).
fn write_zip(items: &[(String, Vec<u8>)], deflate_first: bool) -> Vec<u8> {
    let mut z = Vec::new();
    let mut central = Vec::new();
    for (i, (name, data)) in items.iter().enumerate() {
        let deflated = (i % 2 == 0) == deflate_first;
        let body = if deflated {
            let mut e =
                flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
            let _ = e.write_all(data);
            e.finish().unwrap_or_default()
        } else {
            data.clone()
        };
        let method: u16 = if deflated { 8 } else { 0 };
        let at = z.len() as u32;
        z.extend(0x0403_4b50u32.to_le_bytes());
        z.extend([20, 0, 0, 0]);
        z.extend(method.to_le_bytes());
        z.extend([0; 8]);
        z.extend((body.len() as u32).to_le_bytes());
        z.extend((data.len() as u32).to_le_bytes());
        z.extend((name.len() as u16).to_le_bytes());
        z.extend([0, 0]);
        z.extend(name.as_bytes());
        z.extend(&body);
        central.extend(0x0201_4b50u32.to_le_bytes());
        central.extend([20, 0, 20, 0, 0, 0]);
        central.extend(method.to_le_bytes());
        central.extend([0; 8]);
        central.extend((body.len() as u32).to_le_bytes());
        central.extend((data.len() as u32).to_le_bytes());
        central.extend((name.len() as u16).to_le_bytes());
        central.extend([0; 12]);
        central.extend(at.to_le_bytes());
        central.extend(name.as_bytes());
    }
    let cd = z.len() as u32;
    z.extend(&central);
    z.extend(0x0605_4b50u32.to_le_bytes());
    z.extend([0, 0, 0, 0]);
    z.extend((items.len() as u16).to_le_bytes());
    z.extend((items.len() as u16).to_le_bytes());
    z.extend((central.len() as u32).to_le_bytes());
    z.extend(cd.to_le_bytes());
    z.extend([0, 0]);
    z
}

/// Sets one field of a zip record (found by its signature) to an extreme value.
fn zip_field(rng: &mut Rng, v: &mut [u8]) {
    // (signature, offsets of its 2-byte fields, offsets of its 4-byte fields)
    const RECORDS: [(u32, &[usize], &[usize]); 3] = [
        (0x0403_4b50, &[8, 26, 28], &[18, 22]),
        (0x0201_4b50, &[10, 28, 30, 32], &[20, 24, 42]),
        (0x0605_4b50, &[8, 10], &[12, 16]),
    ];
    let (sig, short, long) = RECORDS[rng.below(RECORDS.len())];
    let at: Vec<usize> = v
        .windows(4)
        .enumerate()
        .filter(|(_, w)| *w == sig.to_le_bytes())
        .map(|(i, _)| i)
        .collect();
    if at.is_empty() {
        return;
    }
    let base = at[rng.below(at.len())];
    let len = v.len() as u64;
    let values = [
        0,
        1,
        7,
        0xFF,
        0xFFFF,
        0x7FFF_FFFF,
        0xFFFF_FFFF,
        len,
        len / 2,
    ];
    let value = values[rng.below(values.len())];
    let (off, width) = if rng.below(2) == 0 {
        (short[rng.below(short.len())], 2)
    } else {
        (long[rng.below(long.len())], 4)
    };
    let bytes = value.to_le_bytes();
    if let Some(dst) = v.get_mut(base + off..base + off + width) {
        dst.copy_from_slice(&bytes[..width]);
    }
}

/// The `jar` target: the library of the zip, then its games and a match of them.
fn exercise_jar(bytes: &[u8]) {
    let Ok((lib, _)) = Library::from_zip("fuzz.jar", std::io::Cursor::new(bytes)) else {
        return;
    };
    reached();
    let opts = ludii::Options {
        library: Some(Arc::new(lib)),
        ..Default::default()
    };
    let lib = opts.library.as_deref().expect("set above");
    for g in GAMES {
        if let Some(text) = lib.game(g) {
            let _ = ludii::read_lud_opts(g, text, FileId(0), &opts);
        }
    }
    let subgames: String = GAMES
        .iter()
        .map(|g| format!("(subgame \"{g}\" next:1) "))
        .collect();
    let text = format!(
        "(match \"Fz\" (players 2) (games {{{subgames}}}) (end (if (>= (matchScore P1) 2) (result P1 Win))))"
    );
    let _ = ludii::read_lud_opts("fuzz.lud", &text, FileId(0), &opts);
}

// ---- zsg ----

thread_local! {
    /// Lowered rules documents by `RulesFile=` name (lower case), `None` when unreadable.
    static RULES: std::cell::RefCell<HashMap<String, Option<Arc<Document>>>> = Default::default();
    /// Every shared-corpus ZRF file by its lower-case file name (the first in path order).
    static ZRF_FILES: HashMap<String, PathBuf> = zrf_index();
}

fn zrf_index() -> HashMap<String, PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/zrf");
    let mut paths = Vec::new();
    crate::fuzz::collect(&root, "zrf", &mut paths);
    paths.sort();
    let mut out = HashMap::new();
    for p in paths.into_iter().rev() {
        if let Some(n) = p.file_name().and_then(|n| n.to_str()) {
            out.insert(n.to_lowercase(), p);
        }
    }
    out
}

/// The lowered rules a save names (`RulesFile=`, by its last component), read once.
fn rules_document(rules_file: &str) -> Option<Arc<Document>> {
    let name = rules_file
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(rules_file)
        .to_lowercase();
    if let Some(d) = RULES.with(|r| r.borrow().get(&name).cloned()) {
        return d;
    }
    let doc = ZRF_FILES
        .with(|f| f.get(&name).cloned())
        .and_then(|p| std::fs::read(p).ok())
        .and_then(|bytes| {
            let r = format::read(
                Format::Zrf,
                &name,
                &bytes,
                &Default::default(),
                &mut NoIncludes,
            );
            r.document.map(Arc::new)
        });
    RULES.with(|r| r.borrow_mut().insert(name, doc.clone()));
    doc
}

/// The `zsg` target, as `zogkit replay` reads a save: checked whole (`zsg::summary`), then
/// replayed line by line (`zsg::items` into an `engine::Replayer`) against the named rules
/// under small engine budgets; `zsg::parse` too.
fn exercise_zsg(bytes: &[u8]) {
    use zogkit::engine::{Replayer, Rules, zsg};
    let (decoded, _) = zogkit::text::decode(bytes, None, FileId(0));
    let parsed = zsg::parse(&decoded.text);
    let Ok(summary) = zsg::summary(&decoded.text) else {
        assert!(parsed.is_err(), "zsg::summary refused what zsg::parse read");
        return;
    };
    let records = parsed.map(|g| g.records.len()).ok();
    assert_eq!(
        records,
        Some(summary.records),
        "zsg::parse and zsg::summary disagree"
    );
    let game = &summary.game;
    let Some(doc) = game.rules_file.as_deref().and_then(rules_document) else {
        return;
    };
    let index = doc
        .games
        .iter()
        .position(|g| Some(g.title.as_str()) == game.variant.as_deref())
        .unwrap_or(0);
    let Ok(mut rules) = Rules::compile(&doc, index) else {
        return;
    };
    rules.step_limit = 10_000;
    rules.block_run_limit = 100_000;
    rules.move_limit = 20_000;
    rules.work_limit = 20_000_000;
    reached();
    let mut replayer = Replayer::new(&rules);
    let Ok((_, items)) = zsg::items(&decoded.text) else {
        panic!("zsg::items refused what zsg::summary read");
    };
    for item in items {
        let done = match item.expect("zsg::items failed where zsg::summary did not") {
            zsg::Item::Setup(p) => replayer.set_up(&p),
            zsg::Item::Record(r) => replayer.play(&r),
            _ => Ok(()),
        };
        if done.is_err() {
            break;
        }
    }
}

// ---- catalogue ----

/// The `catalogue` target: a YAML or ZRF text catalogued in memory; `Err` names injected markup.
fn exercise_catalogue(bytes: &[u8]) -> Result<(), String> {
    use zogkit::catalogue::{self, FileInput, ImageStore, Prewritten, RoundTrip, Totals};
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    let fmt = match first {
        Some(b'(' | b';') => Format::Zrf,
        _ => Format::Yaml,
    };
    let name = format!("g{}.{}", html::PAYLOADS[bytes.len() % 2], fmt.extension());
    let opts = format::ReadOptions::default();
    let r = format::read(fmt, &name, bytes, &opts, &mut NoIncludes);
    if r.document.as_ref().is_some_and(|d| !d.games.is_empty()) {
        reached();
    }
    let slug = catalogue::slugs(&[name.as_str()]).remove(0);
    let stem = catalogue::stem(&name);
    thread_local!(static FONTS: zogkit::render::FontSet = zogkit::render::FontSet::bundled());
    let images = ImageStore::default();
    let author = zogkit::render::own::AuthorFiles::new();
    // Every entry with a Play link, so the link and the page behind it carry the markup too.
    let playable: Vec<usize> = (0..r.document.as_ref().map_or(0, |d| d.games.len())).collect();
    let pages = FONTS.with(|fonts| {
        let fi = FileInput {
            display: &name,
            name: &name,
            slug: &slug,
            stem: &stem,
            format: fmt,
            read_error: None,
            document: r.document.as_ref(),
            diagnostics: &r.diagnostics,
            sources: &r.sources,
            roundtrip: RoundTrip::Failed("fuzz \"<b>\"".into()),
            options: &opts,
            fonts,
            images: &images,
            author: &author,
            playable: &playable,
        };
        catalogue::file_pages(&fi, Prewritten::default())
    });
    let totals = Totals {
        files: 1,
        ..Default::default()
    };
    let mut rows = pages.rows;
    let index = catalogue::index_pages(&mut rows, &totals);
    for f in pages.files.iter().chain(&index) {
        if !f.path.ends_with(".html") {
            continue;
        }
        let text = String::from_utf8_lossy(&f.bytes);
        if let Some(what) = html::foreign(&text) {
            return Err(format!("{}: {what}", f.path));
        }
    }
    Ok(())
}
