//! Every game of the shared corpus renders: its board drawn at the rule file's own position
//! rectangles, every validator passing (each position's rectangle on its drawn cell, killed
//! positions left out, no key colour), with the count per board style.

use crate::common;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;
use zogkit::diag::FileId;
use zogkit::render::game::PlanOptions;
use zogkit::render::set::{SetOptions, render_set};
use zogkit::render::{FontSet, from_spec};
use zogkit::spec::{self, Document, EntryKind};

/// What happened to one file: its board style, or why it has no picture.
fn render_file(path: &Path, fonts: &FontSet) -> Result<&'static str, String> {
    let text = std::fs::read_to_string(path).unwrap();
    let doc: Document = spec::yaml::from_str(&text, FileId(0)).map_err(|e| e.message)?;
    let Some(game) = doc
        .games
        .iter()
        .position(|g| g.kind != EntryKind::Separator)
    else {
        return Err("no game".into());
    };
    let plan = from_spec(&doc, game, &PlanOptions::default()).map_err(|e| e.to_string())?;
    if plan.board.grid.is_some() {
        return Err("not drawn at the rule file's rectangles".into());
    }
    let set = render_set(&plan, &SetOptions::default(), fonts).map_err(|e| e.to_string())?;
    if let Some(e) = set.errors.first() {
        return Err(format!(
            "{} validator failure(s), first: {e}",
            set.errors.len()
        ));
    }
    Ok(set.sheet.style.slug())
}

#[test]
#[ignore = "oracle check (pyffish, PyYAML, Ludii, Chromium or the whole corpus): .ci/run runs it; locally `cargo test -- --ignored`"]
fn every_shared_game_renders_at_its_own_rectangles_and_validates() {
    let Some(shared) = common::shared_zrf() else {
        return;
    };
    let out = common::scratch_dir("render-corpus");
    let r = common::zogkit(&[
        "convert",
        shared.to_str().unwrap(),
        "--to",
        "yaml",
        "-o",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let files = common::files_with_ext(&out, "yaml");
    assert_eq!(files.len(), 434);
    let fonts = FontSet::bundled();
    let results: Vec<(String, Result<&str, String>)> = files
        .par_iter()
        .map(|p| {
            let rel = p.strip_prefix(&out).unwrap().display().to_string();
            (rel, render_file(p, &fonts))
        })
        .collect();
    let mut styles: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for (rel, r) in &results {
        match r {
            Ok(style) => *styles.entry(style).or_default() += 1,
            Err(e) if e == "no game" => eprintln!("{rel}: defines no game (an include file)"),
            Err(e) => failures.push(format!("{rel}: {e}")),
        }
    }
    eprintln!("board styles over the shared corpus: {styles:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // 434 files: one is an include file with no game; every other one renders.
    assert_eq!(styles.values().sum::<usize>(), 433, "{styles:?}");
    for style in ["checkered", "points", "hex"] {
        assert!(styles.get(style).copied().unwrap_or(0) >= 10, "{styles:?}");
    }
    // Go's family and the xiangqi boards (8 when written).
    assert!(styles.get("lines").copied().unwrap_or(0) >= 6, "{styles:?}");
}
