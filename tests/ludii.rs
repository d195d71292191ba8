//! Ludii reader and writer: corpus goldens (spec YAML and diagnostics), the `.lud` round trip,
//! the English reader on the seed and on the project's own English file, malformed input.

mod common;

use std::path::{Path, PathBuf};
use zogkit::diag::{Diagnostic, FileId, Severity, SourceMap};
use zogkit::ludii::{read_english, read_lud, write_lud};
use zogkit::spec::{self, Document};

fn corpus(ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/ludii");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    v
}

fn render(name: &str, text: &str, diags: &[Diagnostic]) -> String {
    let mut sm = SourceMap::new();
    sm.add(format!("corpus/ludii/{name}"), text);
    diags.iter().map(|d| d.render(&sm, name)).collect()
}

fn read(path: &Path) -> (String, String, Option<Document>, Vec<Diagnostic>) {
    let name = path.file_name().unwrap().to_str().unwrap().to_string();
    let text = std::fs::read_to_string(path).unwrap();
    let (doc, diags) = if name.ends_with(".lud") {
        read_lud(&name, &text, FileId(0))
    } else {
        read_english(&name, &text, FileId(0))
    };
    (name, text, doc, diags)
}

#[test]
fn corpus_matches_goldens() {
    let mut failures = Vec::new();
    let files: Vec<PathBuf> = corpus("lud").into_iter().chain(corpus("txt")).collect();
    assert!(files.len() >= 12, "{files:?}");
    for p in &files {
        let (name, text, doc, diags) = read(p);
        let stem = name.rsplit_once('.').unwrap().0.to_string();
        let mut out = render(&name, &text, &diags);
        if out.is_empty() {
            out = "(no diagnostics)\n".into();
        }
        if let Err(e) = common::check_golden(&format!("ludii/{stem}.diag"), &out) {
            failures.push(e);
        }
        if name.contains("_err_") {
            assert!(
                diags.iter().any(|d| d.severity == Severity::Error && d.span.is_some()),
                "{name}: an _err_ case needs a located error"
            );
            continue;
        }
        let doc = doc.unwrap_or_else(|| panic!("{name}: no document"));
        let yaml = spec::yaml::to_string(&doc).unwrap();
        if let Err(e) = common::check_golden(&format!("ludii/{stem}.yaml"), &yaml) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
