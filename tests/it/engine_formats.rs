//! A game plays the same whatever format it was read from: perft(3) of ten shared-corpus games
//! read from their ZRF, from their YAML conversion, and from the ZRF that `convert --to zrf`
//! writes.

use crate::common;
use std::path::Path;
use zogkit::engine::{self, Control, Rules, State};
use zogkit::format::{self, Format};
use zogkit::spec::Document;

fn perft3(doc: &Document, title: &str, nth: usize) -> u64 {
    let index = (0..doc.games.len())
        .filter(|&i| doc.games[i].title == title)
        .nth(nth)
        .unwrap_or_else(|| panic!("no entry {title:?}"));
    let rules = Rules::compile(doc, index).unwrap_or_else(|e| panic!("{title}: {e}"));
    let mut st = State::start(&rules);
    engine::perft(&rules, &mut st, 3, &Control::default()).unwrap()
}

#[test]
fn ten_games_count_alike_from_zrf_yaml_and_written_zrf() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/zrf/dagaz");
    if !base.exists() {
        assert!(std::env::var_os("CI").is_none(), "CI needs ../shared");
        eprintln!("note: ../shared is absent; skipped");
        return;
    }
    let games = common::TEN_GAMES;
    for (file, title, nth) in games {
        let bytes = std::fs::read(base.join(file)).unwrap();
        let zrf = common::read_doc(Format::Zrf, file, &bytes);
        let (yaml, _) = format::write(Format::Yaml, &zrf).unwrap();
        let from_yaml = common::read_doc(Format::Yaml, "x.yaml", &yaml);
        let (written, diags) = format::write(Format::Zrf, &zrf).unwrap();
        assert!(
            diags
                .iter()
                .all(|d| d.severity != zogkit::diag::Severity::Error),
            "{file}: the ZRF writer reports errors"
        );
        let from_written = common::read_doc(Format::Zrf, "x.zrf", &written);
        let counts = [
            perft3(&zrf, title, nth),
            perft3(&from_yaml, title, nth),
            perft3(&from_written, title, nth),
        ];
        eprintln!("{file} {title}: perft(3) from ZRF, YAML, written ZRF = {counts:?}");
        assert!(counts[0] > 0, "{file}: the game has moves");
        assert_eq!(
            counts[0], counts[1],
            "{file}: YAML conversion plays differently"
        );
        assert_eq!(
            counts[0], counts[2],
            "{file}: the written ZRF plays differently"
        );
    }
}

/// The three seed families agree across source formats at perft(3): xiangqi, chess and shogi
/// from the shared-corpus ZRF, from our own `.lud` files, and from the `variants.ini` the FSF
/// writer produces (read back); where a format cannot state a rule the tool names it (xiangqi
/// from the seed's English).
#[test]
fn seed_families_agree_across_formats() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lud = |name: &str| {
        let bytes = std::fs::read(repo.join("corpus/ludii").join(name)).unwrap();
        common::read_doc(Format::Lud, name, &bytes)
    };
    // Counts of the ZRF games (equal to Fairy-Stockfish's, tests/it/engine_oracle.rs).
    for (file, zrf_count) in [
        ("xiangqi.lud", 79_666),
        ("chess.lud", 8_902),
        ("shogi.lud", 25_440),
    ] {
        assert_eq!(common::perft3_first(&lud(file)), Ok(zrf_count), "{file}");
    }
    let base = repo.join("../shared/corpus/zrf/dagaz");
    if !base.exists() {
        assert!(std::env::var_os("CI").is_none(), "CI needs ../shared");
        eprintln!("note: ../shared is absent; the ZRF and FSF legs are skipped");
        return;
    }
    for (file, count) in [
        ("xiangqi/xiangqi.zrf", 79_666),
        ("chess/chess.zrf", 8_902),
        ("shogi-family/shogi.zrf", 25_440),
    ] {
        let zrf = common::read_doc(Format::Zrf, file, &std::fs::read(base.join(file)).unwrap());
        assert_eq!(common::perft3_first(&zrf), Ok(count), "{file}");
        // Through variants.ini: written, read back by the FSF reader (custom pieces, the pawn's
        // double step, en passant and promotion, the soldier) and played: the same count.
        let (ini, _) = format::write(Format::Fsf, &zrf).unwrap();
        let r = format::read(
            Format::Fsf,
            "x.ini",
            &ini,
            &Default::default(),
            &mut zogkit::zrf::NoIncludes,
        );
        assert_eq!(
            r.errors(),
            0,
            "{file} through variants.ini: {:?}",
            r.diagnostics
        );
        let doc = r.document.expect("a document");
        assert_eq!(
            common::perft3_first(&doc),
            Ok(count),
            "{file} through variants.ini"
        );
    }
    english_xiangqi_names_what_it_cannot_state(&repo.join("../shared/seeds"));
}

/// Xiangqi from the seed's English (the rules Ludii generates) cannot agree: the text does not
/// state a slide's capture at its end, the cannon's screen, the horse's block, nor the palace.
/// The reader names each lost rule (located warnings), and the engine refuses the game naming
/// what it cannot run, rather than counting a different game.
fn english_xiangqi_names_what_it_cannot_state(seeds: &Path) {
    let Some(path) = std::fs::read_dir(seeds).ok().and_then(|d| {
        d.flatten()
            .map(|e| e.path())
            .find(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains("The game \"Xiangqi\"")))
    }) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs the seed English"
        );
        return;
    };
    let bytes = std::fs::read(&path).unwrap();
    let r = format::read(
        Format::LudiiEnglish,
        "xiangqi.txt",
        &bytes,
        &Default::default(),
        &mut zogkit::zrf::NoIncludes,
    );
    assert_eq!(r.errors(), 0, "{:?}", r.diagnostics);
    let lost: Vec<&str> = r
        .diagnostics
        .iter()
        .filter(|d| d.code == "ludii::unresolved-phrase")
        .map(|d| d.message.as_str())
        .collect();
    for (piece, what) in [
        ("Ju", "stop (capture) rule"),
        ("Pao", "hurdle"),
        ("Ma", "horse's block"),
    ] {
        assert!(
            lost.iter()
                .any(|m| m.starts_with(piece) && m.contains(what)),
            "{piece}: {what} is named: {lost:?}"
        );
    }
    let doc = r.document.expect("a document");
    let refused = common::perft3_first(&doc).expect_err("the engine refuses the English xiangqi");
    assert!(refused.contains("does not type"), "{refused}");
}
