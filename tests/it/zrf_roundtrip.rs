//! The ZRF writer: golden ZRF for hand-written YAML specs, YAML → ZRF → spec fidelity, the
//! `roundtrip` command on the shared corpus (every game and variant, size ratio, report
//! formats) and `fmt` (idempotent, spec-preserving).

use crate::common;

use std::path::Path;
use zogkit::diag::FileId;
use zogkit::format::{self, Format, ReadOptions};
use zogkit::spec::{Document, RawFormat};
use zogkit::zrf::NoIncludes;

fn read(format: Format, name: &str, bytes: &[u8]) -> format::ReadResult {
    format::read(
        format,
        name,
        bytes,
        &ReadOptions::default(),
        &mut NoIncludes,
    )
}

/// Every `corpus/yaml/*.yaml` spec is written as ZRF without a diagnostic (the text is the golden
/// `golden/yaml/*.zrf` of the corpus harness, `corpus.rs`), already formatted, and that ZRF reads
/// back, with no errors or warnings, to the same games.
#[test]
fn yaml_specs_write_zrf_that_reads_back_to_the_same_games() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/yaml");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        // `_err_` files are hostile inputs, checked by tests/it/limits.rs.
        .filter(|p| !p.to_string_lossy().contains("_err_"))
        .collect();
    names.sort();
    assert!(names.len() >= 2, "corpus/yaml has the writer's specs");
    for p in names {
        let stem = p.file_stem().unwrap().to_str().unwrap().to_string();
        let bytes = std::fs::read(&p).unwrap();
        let r = read(Format::Yaml, &stem, &bytes);
        assert_eq!(r.errors(), 0, "{stem}: {:?}", r.diagnostics);
        let doc = r.document.unwrap();
        let (zrf, diags) = format::write(Format::Zrf, &doc).unwrap();
        assert!(diags.is_empty(), "{stem}: writer diagnostics {diags:?}");
        let text = String::from_utf8(zrf.clone()).unwrap();
        assert_eq!(
            zogkit::zrf::fmt::format(&text),
            text,
            "{stem}: written ZRF is already formatted"
        );
        let back = read(Format::Zrf, &format!("{stem}.zrf"), &zrf);
        assert!(
            back.diagnostics.is_empty(),
            "{stem}: the written ZRF reads with diagnostics {:?}",
            back.diagnostics
        );
        let back = back.document.unwrap();
        assert_eq!(back.games.len(), doc.games.len(), "{stem}");
        // Procedures written the same are written once, so programs are compared inlined.
        for (a, b) in doc.games_inlined().iter().zip(&back.games_inlined()) {
            assert_eq!(a, b, "{stem}: game `{}` reads back differently", a.title);
        }
        assert!(
            back.procedures.len() <= doc.procedures.len(),
            "{stem}: procedures"
        );
        assert_eq!(back.source.version, doc.source.version, "{stem}: version");
    }
}

#[test]
fn display_texts_get_backslashes_and_quotes_are_reported() {
    let y = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/yaml/mini_chess_texts.yaml"),
    )
    .unwrap();
    let mut doc: Document =
        zogkit::spec::yaml::from_str(std::str::from_utf8(&y).unwrap(), FileId(0)).unwrap();
    doc.games[0].texts.description = Some("say \"hi\"\nnow".into());
    let (text, diags) = zogkit::zrf::emit::emit(&doc);
    assert!(text.contains("(description \"say `hi`\\now\")"), "{text}");
    assert!(
        diags.iter().any(|d| d.code == "zrf::emit-quote"),
        "{diags:?}"
    );
    // Chessembly-only instructions are named, not silently written.
    doc.games[0].pieces[0].moves[0]
        .program
        .insert(0, zogkit::spec::Instr::ClearState);
    let (_, diags) = zogkit::zrf::emit::emit(&doc);
    assert!(
        diags.iter().any(|d| d.message.contains("set-state")),
        "{diags:?}"
    );
}

#[test]
fn encoding_and_line_endings_are_kept() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/zrf/encoding_sjis_001.zrf");
    let bytes = std::fs::read(&src).unwrap();
    let doc = read(Format::Zrf, "encoding_sjis_001.zrf", &bytes)
        .document
        .unwrap();
    assert_eq!(doc.source.encoding, Some(zogkit::text::Encoding::ShiftJis));
    let (out, diags) = zogkit::zrf::emit::emit_bytes(&doc);
    assert!(diags.is_empty(), "{diags:?}");
    assert!(
        std::str::from_utf8(&out).is_err(),
        "Shift_JIS stays Shift_JIS"
    );
    let back = read(Format::Zrf, "encoding_sjis_001.zrf", &out)
        .document
        .unwrap();
    assert_eq!(back.source.encoding, doc.source.encoding);
    assert_eq!(back.source.line_endings, doc.source.line_endings);
    assert_eq!(back.games, doc.games);

    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/zrf/lineendings_crlf_001.zrf");
    let bytes = std::fs::read(&src).unwrap();
    let doc = read(Format::Zrf, "lineendings_crlf_001.zrf", &bytes)
        .document
        .unwrap();
    let (out, _) = zogkit::zrf::emit::emit_bytes(&doc);
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("\r\n") && !text.replace("\r\n", "").contains('\n'));
}

#[test]
fn roundtrip_reports_json_and_junit_per_game_and_variant() {
    let out = common::zogkit(&[
        "roundtrip",
        "--format",
        "junit",
        "corpus/zrf/variant_001.zrf",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let xml = String::from_utf8(out.stdout).unwrap();
    assert!(xml.starts_with("<?xml"));
    assert!(xml.contains("name=\"game 1: Base\""), "{xml}");
    assert!(xml.contains("name=\"variant 0: Early\""), "{xml}");
    assert!(!xml.contains("<failure"), "{xml}");
    let out = common::zogkit(&[
        "roundtrip",
        "--format",
        "json",
        "corpus/zrf/variant_001.zrf",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["summary"]["failed_games_and_variants"], 0);
    assert!(v["summary"]["games_and_variants"].as_u64().unwrap() >= 2);
}

/// The whole shared corpus: every game and variant survives spec → ZRF → spec; emitted ZRF
/// reads with no errors and no new warnings (one known exception, below); sizes stay close.
#[test]
fn shared_corpus_roundtrips() {
    let Some(dir) = common::shared_zrf() else {
        return;
    };
    let dir = dir.to_str().unwrap().to_string();
    let out = common::zogkit(&["roundtrip", "--format", "json", &dir]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json report");
    let s = &v["summary"];
    eprintln!("{s}");
    assert_eq!(s["files"], 434);
    assert_eq!(s["failed_games_and_variants"], 0, "{s}");
    let failed: Vec<(String, Vec<String>)> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["passed"] == false)
        .map(|f| {
            (
                f["file"].as_str().unwrap().to_string(),
                f["problems"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p["message"].as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect();
    // Every file round-trips (zone glyphs and help, once kept only as extensions, are typed).
    assert!(failed.is_empty(), "{failed:?}");
    // Size (issue 4): at least 95 % of the files are written within 3× of their original size,
    // counted here from the per-file byte counts (and agreeing with the summary).
    let files = v["files"].as_array().unwrap();
    let within = files
        .iter()
        .filter(|f| {
            let (o, e) = (
                f["original_bytes"].as_u64().unwrap(),
                f["emitted_bytes"].as_u64().unwrap(),
            );
            e <= 3 * o
        })
        .count();
    eprintln!("{within} of {} files within 3×", files.len());
    assert!(
        within * 100 >= files.len() * 95,
        "{within} of {}: {s}",
        files.len()
    );
    assert_eq!(
        s["size_ratio"]["within_3x"].as_u64(),
        Some(within as u64),
        "{s}"
    );
    assert!(s["size_ratio"]["p50"].as_f64().unwrap() < 1.5, "{s}");
}

/// Emitted ZRF of one spec: the writer's text with no diagnostics.
fn emit_zrf(doc: &Document) -> String {
    let (zrf, diags) = format::write(Format::Zrf, doc).unwrap();
    assert!(diags.is_empty(), "writer diagnostics {diags:?}");
    String::from_utf8(zrf).unwrap()
}

/// Programs that differ only by their direction become one macro with a `$1` parameter, called
/// once per direction; the ZRF reads back to the same moves.
#[test]
fn programs_differing_by_direction_become_one_parameterised_macro() {
    let y = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/yaml/macro_directions.yaml"),
    )
    .unwrap();
    let doc = read(Format::Yaml, "macro_directions.yaml", &y)
        .document
        .unwrap();
    let text = emit_zrf(&doc);
    // One definition holds the slide with `$1` where the direction goes …
    let defs: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("(define ") && l.contains("(while empty? add $1)"))
        .collect();
    assert_eq!(defs.len(), 1, "{text}");
    // … no program is written out with a literal direction any more …
    for d in ["n", "e", "s", "w", "ne", "nw", "se", "sw"] {
        assert!(
            !text.contains(&format!("(while empty? add {d})")),
            "`{d}` slide written in full:\n{text}"
        );
    }
    // … and the output is byte-identical when written again.
    assert_eq!(emit_zrf(&doc), text);
    let back = read(Format::Zrf, "macro_directions.zrf", text.as_bytes());
    assert!(back.diagnostics.is_empty(), "{:?}", back.diagnostics);
    assert_eq!(back.document.unwrap().games, doc.games);
}

/// A form the spec has no typed section for (`extensions` (as `zrf` items)) is written back where it
/// stood: between the same known sections of the game, board and piece.
#[test]
fn unknown_sections_are_written_back_in_place() {
    let src = r#"(game
  (title "Places")
  (players White Black)
  (mystery-section 1 2 3)
  (turn-order White Black)
  (board
    (grid
      (start-rectangle 0 0 10 10)
      (dimensions ("a/b" (10 0)) ("2/1" (0 10)))
      (directions (n 0 -1) (s 0 1)))
    (board-oddity x)
    (zone (name top) (players White Black) (positions a2 b2)))
  (piece
    (name Man)
    (image White "wm.bmp" Black "bm.bmp")
    (piece-oddity y)
    (moves (n add)))
  (board-setup (White (Man a1)) (Black (Man b2)))
  (win-condition (White Black) (pieces-remaining 0)))
"#;
    let r = read(Format::Zrf, "places.zrf", src.as_bytes());
    let doc = r.document.unwrap();
    let g = &doc.games[0];
    let zrf_at = |x: &zogkit::spec::Extensions| -> Vec<(RawFormat, Option<usize>)> {
        x.0.iter().map(|e| (e.format, e.at)).collect()
    };
    let texts: Vec<&String> = g.extensions.texts(RawFormat::Zrf).collect();
    assert_eq!(texts, ["(mystery-section 1 2 3)"]);
    let zrf = RawFormat::Zrf;
    assert_eq!(
        zrf_at(&g.extensions),
        [(zrf, Some(2))],
        "index among the game's items"
    );
    assert_eq!(zrf_at(&g.boards[0].extensions), [(zrf, Some(1))]);
    assert_eq!(zrf_at(&g.pieces[0].extensions), [(zrf, Some(2))]);
    let text = emit_zrf(&doc);
    let at = |s: &str| {
        text.find(s)
            .unwrap_or_else(|| panic!("no `{s}` in\n{text}"))
    };
    assert!(
        at("(players") < at("(mystery-section") && at("(mystery-section") < at("(turn-order"),
        "{text}"
    );
    assert!(
        at("(grid") < at("(board-oddity") && at("(board-oddity") < at("(zone"),
        "{text}"
    );
    assert!(
        at("(image White \"wm.bmp\"") < at("(piece-oddity") && at("(piece-oddity") < at("(moves"),
        "{text}"
    );
    let back = read(Format::Zrf, "places2.zrf", text.as_bytes())
        .document
        .unwrap();
    assert_eq!(back.games, doc.games, "the places read back the same");
}

/// `fmt --check` on a formatted copy of the shared corpus changes nothing, and formatting
/// never changes a file's spec.
#[test]
fn fmt_is_idempotent_and_spec_preserving_on_the_shared_corpus() {
    let Some(dir) = common::shared_zrf() else {
        return;
    };
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fmt-corpus");
    let _ = std::fs::remove_dir_all(&tmp);
    let files = common::zrf_files(&dir);
    for f in &files {
        let rel = f.strip_prefix(&dir).unwrap();
        let to = tmp.join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(f, &to).unwrap();
    }
    // Includes (non-.zrf files) are not needed: specs are compared without includes.
    let t = tmp.to_str().unwrap();
    let out = common::zogkit(&["fmt", "--write", t]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = common::zogkit(&["fmt", "--check", t]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "formatting twice changes: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    let mut changed = 0;
    for f in &files {
        let rel = f.strip_prefix(&dir).unwrap();
        let before = std::fs::read(f).unwrap();
        let after = std::fs::read(tmp.join(rel)).unwrap();
        if before != after {
            changed += 1;
        }
        let name = rel.to_str().unwrap();
        let a = read(Format::Zrf, name, &before).document.unwrap();
        let b = read(Format::Zrf, name, &after).document.unwrap();
        assert_eq!(a.games, b.games, "{name}: fmt changed the spec");
        assert_eq!(a.procedures, b.procedures, "{name}");
        assert_eq!(a.source.encoding, b.source.encoding, "{name}");
        assert_eq!(a.source.line_endings, b.source.line_endings, "{name}");
    }
    assert!(
        changed > 0,
        "fmt changed nothing; the test would prove nothing"
    );
}

#[test]
fn variants_lower_like_their_games_with_each_entry_counted() {
    // Lowering reuses a board or piece form a variant shares with its game; what it lowers to,
    // and what it counts, must be as if each entry were lowered on its own.
    let src = r#"
(game
  (title "Base")
  (players White Black)
  (turn-order White Black)
  (board (grid (dimensions "a_c" "3_1") (directions (n 0 -1) (s 0 1))))
  (piece (name Man) (attribute lonely) (image White "m.bmp" Black "m.bmp")
    (moves ((verify empty?) n add)))
  (board-setup (White (Man a1)) (Black (Man c3)))
  (win-condition (White Black) (pieces-remaining 0))
)
(variant (title "Same"))
(variant (title "Renamed players") (players Red Blue) (turn-order Red Blue))
(variant (title "Own piece")
  (piece (name Man) (attribute lonely) (image White "m.bmp" Black "m.bmp")
    (moves (s add))))
"#;
    let r = read(Format::Zrf, "variants.zrf", src.as_bytes());
    assert_eq!(r.errors(), 0, "{:?}", r.diagnostics);
    let doc = r.document.unwrap();
    let g = &doc.games;
    assert_eq!(g.len(), 4);
    assert_eq!(g[1].pieces, g[0].pieces);
    assert_eq!(g[1].boards, g[0].boards);
    assert_eq!(g[2].pieces, g[0].pieces);
    assert_ne!(g[3].pieces[0].moves, g[0].pieces[0].moves);
    assert_eq!(g[3].boards, g[0].boards);
    // The malformed attribute is kept in every entry, and counted in every entry.
    assert_eq!(r.unmodelled.get("attribute (malformed)"), Some(&4));
    for e in g {
        assert_eq!(
            e.pieces[0].extensions, g[0].pieces[0].extensions,
            "{}",
            e.title
        );
    }
}

#[test]
fn fmt_check_prints_a_unified_diff() {
    let dir = common::scratch_dir("fmt-diff");
    let f = dir.join("ugly.zrf");
    let text = "(game (title \"x\")\n(board (grid (dimensions \"a\" \"1\"))))\n";
    std::fs::write(&f, text).unwrap();
    let name = f.to_str().unwrap();
    let out = common::zogkit(&["fmt", "--check", name]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "would reformat 1 file\n"
    );
    let diff = String::from_utf8_lossy(&out.stdout);
    let want = format!(
        "Diff in {name}:\n--- {name}\n+++ {name}\n@@ -1,2 +1,2 @@\n (game (title \"x\")\n-(board (grid (dimensions \"a\" \"1\"))))\n+  (board (grid (dimensions \"a\" \"1\"))))\n"
    );
    assert_eq!(diff, want);
    assert_eq!(
        std::fs::read_to_string(&f).unwrap(),
        text,
        "--check writes nothing"
    );
    // A second, tidy file: the summary counts both.
    std::fs::write(dir.join("tidy.zrf"), "(game (title \"y\"))\n").unwrap();
    let out = common::zogkit(&["fmt", "--check", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "would reformat 1 of 2 files\n"
    );
    let out = common::zogkit(&["fmt", "--write", name]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "reformatted 1 file\n");
    let out = common::zogkit(&["fmt", "--check", name]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "1 file already formatted\n"
    );
    let out = common::zogkit(&["fmt", "--write", dir.to_str().unwrap()]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "reformatted 0 of 2 files\n"
    );
}
