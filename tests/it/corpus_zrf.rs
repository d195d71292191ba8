//! The ZRF reader over the whole shared corpus: no errors, exact re-emission, right text, no panics.

use crate::common;

use zogkit::diag::FileId;
use zogkit::sexpr;
use zogkit::text;
use zogkit::zrf::{self, NoIncludes, ReadOptions};

#[test]
fn check_reads_every_shared_file_without_errors() {
    let Some(dir) = common::shared_zrf() else {
        return;
    };
    let out = common::zogkit(&["check", "--format", "json", dir.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let s = &doc["summary"];
    assert_eq!(s["files"], 434);
    assert_eq!(s["errors"], 0, "failed: {}", s["failed"]);
    assert_eq!(s["games"], 435);
    assert_eq!(s["variants"], 674); // plus 56 `(title "-")` separators = the 730 variant forms
    // The authors' own mistakes (the README's 40 warnings: a misspelt `verify`, undefined
    // names, positions and symmetry directions) are warnings at the right places, and nothing else warns. `check`
    // lowers as `convert` does, so it reports all of them.
    let mut warnings = Vec::new();
    for f in doc["files"].as_array().unwrap() {
        for d in f["diagnostics"].as_array().unwrap() {
            if d["severity"] == "warning" {
                let file = d["location"]["file"].as_str().unwrap();
                let short = file.rsplit('/').next().unwrap().to_string();
                warnings.push(format!(
                    "{short}:{}:{} {}",
                    d["location"]["line"],
                    d["location"]["column"],
                    d["code"].as_str().unwrap()
                ));
            }
        }
    }
    warnings.sort();
    assert_eq!(
        warnings,
        [
            "CheckersCollection.zrf:567:1 zrf::macro-redefined",
            "cubic-chess.zrf:1258:134 spec::unknown-direction",
            "cubic-chess.zrf:1258:142 spec::unknown-direction",
            "evoluchess.zrf:135:10 zrf::unknown-instruction",
            "evoluchess.zrf:135:21 zrf::unknown-instruction",
            "evoluchess.zrf:135:32 zrf::unknown-instruction",
            "evoluchess.zrf:135:43 zrf::unknown-instruction",
            "evoluchess.zrf:150:10 zrf::unknown-instruction",
            "evoluchess.zrf:150:21 zrf::unknown-instruction",
            "evoluchess.zrf:150:32 zrf::unknown-instruction",
            "evoluchess.zrf:150:43 zrf::unknown-instruction",
            "ikusa-shogi.zrf:263:20 zrf::unknown-position",
            "ikusa-shogi.zrf:264:20 zrf::unknown-position",
            "ikusa-shogi.zrf:265:20 zrf::unknown-position",
            "ikusa-shogi.zrf:266:20 zrf::unknown-position",
            "ikusa-shogi.zrf:273:20 zrf::unknown-position",
            "ikusa-shogi.zrf:274:20 zrf::unknown-position",
            "ikusa-shogi.zrf:275:20 zrf::unknown-position",
            "ikusa-shogi.zrf:276:20 zrf::unknown-position",
            "kalah.zrf:85:36 zrf::unknown-position",
            "kalah.zrf:86:36 zrf::unknown-position",
            "ohojichi.zrf:2:21 zrf::unbound-param",
            "sovereign-chess.zrf:152:10 zrf::unknown-name",
            "sovereign-chess.zrf:152:31 zrf::unknown-name",
            "sovereign-chess.zrf:153:10 zrf::unknown-name",
            "sovereign-chess.zrf:153:31 zrf::unknown-name",
            "swap-chess.zrf:48:10 zrf::unknown-name",
            "swap-chess.zrf:48:21 zrf::unknown-name",
            "swap-chess.zrf:48:32 zrf::unknown-name",
            "swap-chess.zrf:48:43 zrf::unknown-name",
            "terrace.zrf:46:3 spec::unknown-position",
            "traverse.zrf:78:47 spec::unknown-direction",
            "traverse.zrf:78:55 spec::unknown-direction",
            "traverse.zrf:78:55 spec::unknown-direction",
            "traverse.zrf:81:47 spec::unknown-direction",
            "traverse.zrf:81:55 spec::unknown-direction",
            "traverse.zrf:81:55 spec::unknown-direction",
            "traverse.zrf:84:47 spec::unknown-direction",
            "traverse.zrf:84:55 spec::unknown-direction",
            "traverse.zrf:84:55 spec::unknown-direction",
        ]
    );
}

#[test]
fn tokens_reemit_every_shared_file_byte_for_byte() {
    let Some(dir) = common::shared_zrf() else {
        return;
    };
    let files = common::zrf_files(&dir);
    assert_eq!(files.len(), 434);
    for p in files {
        let bytes = std::fs::read(&p).unwrap();
        let (d, _) = text::decode(&bytes, None, FileId(0));
        let toks = sexpr::tokenize(&d.text);
        let back = text::encode(&sexpr::untokenize(&d.text, &toks), d.encoding).unwrap();
        let mut full = if d.bom {
            b"\xEF\xBB\xBF".to_vec()
        } else {
            Vec::new()
        };
        full.extend(back);
        assert!(full == bytes, "{} does not re-emit exactly", p.display());
    }
}

#[test]
fn legacy_encodings_decode_to_the_right_text() {
    let Some(dir) = common::shared_zrf() else {
        return;
    };
    let cases = [
        (
            "dagaz/shogi-family/makadaidaishogi.zrf",
            "windows-1251",
            "доска",
        ),
        ("dagaz/chess/troitzky-chess.zrf", "windows-1252", "Byway’s"),
        (
            "dagazproject/ChuShogi/Chu_Shogi_Original_v1.3.zrf",
            "windows-1252",
            "11°",
        ),
        (
            "dagazproject/Luzhanqi/Luzhanqi.zrf",
            "windows-1252",
            "\u{A0}Landmines",
        ),
    ];
    for (file, enc, needle) in cases {
        let bytes = std::fs::read(dir.join(file)).unwrap();
        let (d, diags) = text::decode(&bytes, None, FileId(0));
        assert_eq!(d.encoding.name(), enc, "{file}");
        assert!(
            diags.iter().all(|d| d.code == "text::encoding"),
            "{file}: {diags:?}"
        );
        assert!(d.text.contains(needle), "{file} lacks {needle:?}");
    }
    // Every non-UTF-8 file of the corpus decodes with confidence, without a warning.
    let mut legacy = 0;
    for p in common::zrf_files(&dir) {
        let bytes = std::fs::read(&p).unwrap();
        let (d, diags) = text::decode(&bytes, None, FileId(0));
        assert!(
            diags
                .iter()
                .all(|d| d.severity == zogkit::diag::Severity::Note),
            "{}: {diags:?}",
            p.display()
        );
        if d.encoding != text::Encoding::Utf8 {
            legacy += 1;
        }
    }
    assert_eq!(legacy, 23); // 22 Windows-1252 + 1 Windows-1251 (notes/zrf-language.md §1.3)
}

#[test]
fn truncated_shared_files_give_diagnostics_not_panics() {
    let Some(dir) = common::shared_zrf() else {
        return;
    };
    // A sample: every 9th file, cut at 12 evenly spaced offsets (the full sweep is
    // `cargo xtask truncate`). Cutting inside a multi-byte character is part of the test.
    let files = common::zrf_files(&dir);
    let mut cuts = 0;
    for p in files.iter().step_by(9) {
        let bytes = std::fs::read(p).unwrap();
        for k in 1..=12 {
            let at = bytes.len() * k / 13;
            let f = zrf::read(
                "cut.zrf",
                &bytes[..at],
                &ReadOptions::default(),
                &mut NoIncludes,
            );
            // A cut inside a form leaves it unclosed: an error must say so, with a location.
            let opens = f
                .parsed
                .tokens
                .iter()
                .filter(|t| t.kind == sexpr::TokenKind::Open)
                .count();
            let closes = f
                .parsed
                .tokens
                .iter()
                .filter(|t| t.kind == sexpr::TokenKind::Close)
                .count();
            if opens > closes {
                assert!(
                    f.diagnostics
                        .iter()
                        .any(|d| d.code == "zrf::unclosed-paren" && d.span.is_some()),
                    "{} cut at {at}: no located unclosed-paren error",
                    p.display()
                );
            }
            cuts += 1;
        }
    }
    assert!(cuts >= 500, "{cuts}");
}

#[test]
fn sharing_call_results_changes_no_expansion_in_the_shared_corpus() {
    let Some(dir) = common::shared_zrf() else {
        return;
    };
    // Files without includes (NoIncludes would make the include-based ones differ from the CLI,
    // but equally in both runs, so they still take part).
    for p in common::zrf_files(&dir) {
        let bytes = std::fs::read(&p).unwrap();
        let dump = |share: bool| {
            let mut opts = ReadOptions::default();
            opts.expand.share_calls = share;
            let f = zrf::read("x.zrf", &bytes, &opts, &mut NoIncludes);
            let forms: Vec<String> = f
                .expanded
                .entries
                .iter()
                .map(|e| e.form.as_ref().map(|n| n.to_compact()).unwrap_or_default())
                .collect();
            (forms, f.diagnostics.len(), f.expanded.nodes)
        };
        assert!(dump(true) == dump(false), "{}", p.display());
    }
}
