//! A game plays the same whatever format it was read from: perft(3) of ten shared-corpus games
//! read from their ZRF, from their YAML conversion, and from the ZRF that `convert --to zrf`
//! writes.

use std::path::Path;
use zogkit::engine::{self, Control, Rules, State};
use zogkit::format::{self, Format};
use zogkit::spec::Document;

fn read(format: Format, name: &str, bytes: &[u8]) -> Document {
    let r = format::read(
        format,
        name,
        bytes,
        &Default::default(),
        &mut zogkit::zrf::NoIncludes,
    );
    assert_eq!(r.errors(), 0, "{name} ({format:?}) reads without errors");
    r.document.expect("a document")
}

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
        eprintln!("note: ../shared is absent; skipped");
        return;
    }
    let games = [
        ("chess/chess.zrf", "Chess", 0),
        ("xiangqi/xiangqi.zrf", "XiangQi", 0),
        ("shogi-family/shogi.zrf", "Shogi", 0),
        ("shogi-family/mini-shogi.zrf", "Mini Shogi", 0),
        ("shogi-family/kyoto-shogi.zrf", "Kyoto Shogi", 0),
        ("chess/makruk.zrf", "Makruk", 0),
        ("chess/shatranj.zrf", "Shatranj", 0),
        ("chess/courier-chess.zrf", "Courier Chess", 1),
        ("chess/sittuyin.zrf", "Sittuyin", 0),
        ("xiangqi/janggi.zrf", "Janggi", 0),
    ];
    for (file, title, nth) in games {
        let bytes = std::fs::read(base.join(file)).unwrap();
        let zrf = read(Format::Zrf, file, &bytes);
        let (yaml, _) = format::write(Format::Yaml, &zrf).unwrap();
        let from_yaml = read(Format::Yaml, "x.yaml", &yaml);
        let (written, diags) = format::write(Format::Zrf, &zrf).unwrap();
        assert!(
            diags
                .iter()
                .all(|d| d.severity != zogkit::diag::Severity::Error),
            "{file}: the ZRF writer reports errors"
        );
        let from_written = read(Format::Zrf, "x.zrf", &written);
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
