//! The portable spec over the whole shared corpus: every game lowers, the YAML reads back
//! identically here and in PyYAML, validates against `zogkit schema` (python-jsonschema), and is
//! deterministic.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use zogkit::diag::FileId;
use zogkit::spec::{self, Document};

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    common::files_with_ext(dir, "yaml")
}

fn convert_corpus(shared: &Path, name: &str) -> PathBuf {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&out);
    let r = common::zogkit(&[
        "convert",
        shared.to_str().unwrap(),
        "--to",
        "yaml",
        "-o",
        out.to_str().unwrap(),
        "-q",
    ]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(0), "{err}");
    // `-q`: nothing but errors, and there are none.
    assert!(err.is_empty(), "{err}");
    assert_eq!(
        walkdir::WalkDir::new(&out)
            .into_iter()
            .filter(|e| e.as_ref().is_ok_and(|e| e.file_type().is_file()))
            .count(),
        434
    );
    out
}

/// Reads every file with PyYAML (libyaml's loader when present, two processes) and prints
/// each document as one JSON line, in argument order.
/// Reads each YAML file with PyYAML and checks it against the schema in `argv[1]` with the
/// reference JSON Schema validator (`python-jsonschema`); prints `[data, first error or null]`.
const PY_LOAD: &str = r#"
import json, sys, yaml
from multiprocessing import Pool
from jsonschema import validators
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
with open(sys.argv[1], encoding="utf-8") as f:
    SCHEMA = json.load(f)
CHECK = validators.validator_for(SCHEMA)
CHECK.check_schema(SCHEMA)
CHECK = CHECK(SCHEMA)
def load(path):
    with open(path, encoding="utf-8") as f:
        data = yaml.load(f, Loader=Loader)
    error = next(iter(CHECK.iter_errors(data)), None)
    if error is not None:
        error = "%s at /%s" % (error.message, "/".join(map(str, error.absolute_path)))
    return json.dumps([data, error], sort_keys=True, ensure_ascii=False)
if __name__ == "__main__":
    with Pool(2) as pool:
        for line in pool.imap(load, sys.argv[2:], chunksize=4):
            print(line)
"#;

#[test]
#[ignore = "oracle check (pyffish, PyYAML, Ludii, Chromium or the whole corpus): .ci/run runs it; locally `cargo test -- --ignored`"]
fn shared_corpus_yaml_reads_back_here_and_in_pyyaml_and_validates() {
    let Some(shared) = common::shared_zrf() else {
        return;
    };
    let out = convert_corpus(&shared, "spec-corpus");
    let files = yaml_files(&out);
    assert_eq!(files.len(), 434);
    let mut docs = Vec::new();
    let mut dangling = Vec::new();
    let mut aliased_boards = 0;
    for p in &files {
        let text = std::fs::read_to_string(p).unwrap();
        let doc: Document = spec::yaml::from_str(&text, FileId(0))
            .unwrap_or_else(|d| panic!("{}: {}", p.display(), d.message));
        // The reader's fast path takes every document the emitter writes, and reads what
        // yaml_serde (the general path) reads.
        let limits = spec::yaml::ReadLimits::default();
        let fast: Option<Document> = spec::yaml::from_str_fast(&text, &limits);
        assert!(fast.is_some(), "{}: the fast path gave up", p.display());
        let general: Document = spec::yaml::from_str_general(&text, FileId(0), &limits)
            .unwrap_or_else(|d| panic!("{}: {}", p.display(), d.message));
        assert!(
            fast.as_ref() == Some(&general) && general == doc,
            "{}: the fast path and yaml_serde read different documents",
            p.display()
        );
        // YAML → spec → YAML is byte-stable.
        assert!(
            spec::yaml::write_document(&doc).unwrap() == text,
            "{} is not byte-stable",
            p.display()
        );
        // Boards equal to an earlier entry's are written as aliases (unless the earlier text is
        // too short to anchor); nothing else is.
        let repeats = doc
            .games
            .iter()
            .enumerate()
            .filter(|(i, g)| {
                !g.boards.is_empty() && doc.games[..*i].iter().any(|e| e.boards == g.boards)
            })
            .count();
        let aliases = text.matches("boards: *a").count();
        assert!(
            aliases <= repeats,
            "{}: {aliases} boards aliases for {repeats} repeated boards",
            p.display()
        );
        aliased_boards += aliases;
        // The explicit boards agree with their layouts; names that do not exist are the
        // authors' own (kept as written and reported when converting).
        for issue in spec::check::check(&doc) {
            assert!(!issue.is_error(), "{}: {issue:?}", p.display());
            dangling.push(format!(
                "{} {}",
                p.file_name().unwrap().to_string_lossy(),
                issue.message
            ));
        }
        assert!(
            !doc.games.is_empty() || p.ends_with("common.yaml"),
            "{}",
            p.display()
        );
        docs.push(doc);
    }
    // Variants' unchanged boards are aliases (`Document::repeated_parts`): 392 on the shared
    // corpus, where anchoring repeated text alone finds 196 (an inner alias changes the text).
    assert!(aliased_boards >= 392, "{aliased_boards} aliased boards");
    assert_eq!(
        dangling,
        [
            // Symmetries naming directions the boards do not define (`sn` for `s`, …).
            "cubic-chess.yaml boards[0]: the symmetry for Black names `sn`, which is not a direction of the board",
            "kalah.yaml setup places `Seed` on `g1`, which the board does not have",
            "kalah.yaml setup places `Seed` on `g2`, which the board does not have",
            "traverse.yaml boards[0]: the symmetry for North names `nx`, which is not a direction of the board",
            "traverse.yaml boards[0]: the symmetry for North names `sr`, which is not a direction of the board",
            "traverse.yaml boards[0]: the symmetry for North names `nr`, which is not a direction of the board",
            "traverse.yaml boards[0]: the symmetry for West names `nx`, which is not a direction of the board",
            "traverse.yaml boards[0]: the symmetry for West names `sr`, which is not a direction of the board",
            "traverse.yaml boards[0]: the symmetry for West names `wr`, which is not a direction of the board",
            "traverse.yaml boards[0]: the symmetry for East names `nx`, which is not a direction of the board",
            "traverse.yaml boards[0]: the symmetry for East names `sr`, which is not a direction of the board",
            "traverse.yaml boards[0]: the symmetry for East names `er`, which is not a direction of the board",
            // ikusa-shogi labels its off-board files `X/Y/…/Z/T` but places pieces on `y1`…
            "ikusa-shogi.yaml setup places `Lance` on `y1`, which the board does not have",
            "ikusa-shogi.yaml setup places `Knight` on `z1`, which the board does not have",
            "ikusa-shogi.yaml setup places `Bishop` on `y2`, which the board does not have",
            "ikusa-shogi.yaml setup places `Rook` on `z2`, which the board does not have",
            "ikusa-shogi.yaml setup places `Lance` on `n7`, which the board does not have",
            "ikusa-shogi.yaml setup places `Knight` on `m7`, which the board does not have",
            "ikusa-shogi.yaml setup places `Bishop` on `n6`, which the board does not have",
            "ikusa-shogi.yaml setup places `Rook` on `m6`, which the board does not have",
        ]
    );
    // PyYAML (a YAML 1.1 reader) sees the same data, and that data validates against
    // `zogkit schema` in the reference validator (python-jsonschema).
    if std::env::var_os("ZOGKIT_SKIP_PYYAML").is_some() {
        eprintln!("SKIPPED: PyYAML comparison and schema validation (ZOGKIT_SKIP_PYYAML is set)");
        return;
    }
    let schema = out.join("schema.json");
    std::fs::write(&schema, spec::json_schema().to_string()).unwrap();
    let py = Command::new("python3")
        .arg("-c")
        .arg(PY_LOAD)
        .arg(&schema)
        .args(&files)
        .output()
        .expect("python3 with PyYAML and jsonschema (pip install pyyaml jsonschema)");
    assert!(
        py.status.success(),
        "{}",
        String::from_utf8_lossy(&py.stderr)
    );
    let stdout = String::from_utf8(py.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), files.len());
    for ((line, doc), p) in lines.iter().zip(&docs).zip(&files) {
        let (theirs, invalid): (serde_json::Value, Option<String>) =
            serde_json::from_str(line).unwrap();
        let ours = serde_json::to_value(doc).unwrap();
        assert!(
            theirs == ours,
            "{}: PyYAML reads different data",
            p.display()
        );
        assert!(
            invalid.is_none(),
            "{} does not validate against `zogkit schema`: {}",
            p.display(),
            invalid.unwrap_or_default()
        );
    }
}

#[test]
fn converting_the_shared_corpus_twice_gives_identical_bytes() {
    let Some(shared) = common::shared_zrf() else {
        return;
    };
    let a = convert_corpus(&shared, "spec-det-a");
    let b = convert_corpus(&shared, "spec-det-b");
    let fa = yaml_files(&a);
    let fb = yaml_files(&b);
    assert_eq!(fa.len(), fb.len());
    for (x, y) in fa.iter().zip(&fb) {
        assert!(
            std::fs::read(x).unwrap() == std::fs::read(y).unwrap(),
            "{}",
            x.display()
        );
    }
}
