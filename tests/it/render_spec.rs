//! Rendering from the spec: Tai Shogi read from its ZRF (colour classes against the facts of
//! `data/tai_shogi.json`, the complete validated set, the composed start position kept as
//! `assets/images/tai_shogi_start.png`), and `images::apply`.
//!
//! `UPDATE_GOLDEN=1` rewrites `assets/images/tai_shogi_start.png` and
//! `golden/render/minishogi_start_from_spec.png` from the spec.

use std::collections::BTreeMap;
use std::path::Path;
use tiny_skia::Pixmap;
use zogkit::format::{self, Format};
use zogkit::render::bmp::row_stride;
use zogkit::render::game::PlanOptions;
use zogkit::render::images::apply;
use zogkit::render::set::{FileKind, SetOptions, compose_start, render_set};
use zogkit::render::{ColourClass, FontSet, Side, from_spec};
use zogkit::spec::Document;
use zogkit::zrf::NoIncludes;

fn read(rel: &str) -> Document {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    let bytes = std::fs::read(&path).unwrap();
    let r = format::read(
        Format::Zrf,
        rel,
        &bytes,
        &format::ReadOptions::default(),
        &mut NoIncludes,
    );
    assert_eq!(r.errors(), 0, "{rel}: {:?}", r.diagnostics);
    r.document.unwrap()
}

fn bmp_size(w: u32, h: u32) -> usize {
    54 + row_stride(w) * h as usize
}

#[test]
fn tai_shogi_classes_names_and_files_follow_the_spec() {
    let doc = read("corpus/zrf/tai_shogi.zrf");
    // Laid out anew, the grid keeps its labels and unit.
    let redraw = PlanOptions {
        redraw: true,
        ..Default::default()
    };
    let grid = from_spec(&doc, 0, &redraw).unwrap().board.grid.unwrap();
    assert_eq!((grid.files, grid.ranks, grid.unit), (25, 25, 31));
    assert_eq!(grid.x.labels[0], "25");
    assert_eq!(grid.y.labels[24], "xxv");
    // By default every position is drawn at its own rectangle: 625 cells of 31 px.
    let plan = from_spec(&doc, 0, &PlanOptions::default()).unwrap();
    assert!(plan.board.grid.is_none());
    assert_eq!(plan.board.sheet.cells.len(), 625);
    assert_eq!(plan.board.sheet.cells[0].rect, [1, 1, 31, 31]);
    assert_eq!(plan.board.sheet.tile, 30);
    assert_eq!(plan.board.file, "images/TaiShogi/board.bmp");
    assert_eq!(plan.board.checkered_file, "images/TaiShogi/board_check.bmp");
    assert_eq!(plan.pieces.len(), 130);
    assert_eq!(plan.setup.len(), 354);
    assert_eq!(plan.players, ["Sente", "Gote"]);
    let by: BTreeMap<&str, _> = plan.pieces.iter().map(|p| (p.piece.as_str(), p)).collect();

    // The JSON's categories: unpromoted 88, non-promoting 3, non-promoting royal 2 (kinds);
    // promoted 36 and promoted royal 1 (promoted faces).
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for p in &plan.pieces {
        *counts.entry(p.class.slug()).or_default() += 1;
    }
    let expected: BTreeMap<&str, usize> = [
        ("unpromoted", 88),
        ("never", 3),
        ("royal", 2),
        ("promoted", 36),
        ("promoted-royal", 1),
    ]
    .into();
    assert_eq!(counts, expected);
    for (name, class) in [
        ("竜馬", ColourClass::NeverPromoting),
        ("竜王", ColourClass::NeverPromoting),
        ("奔王", ColourClass::NeverPromoting),
        ("自在天王", ColourClass::RoyalNeverPromoting),
        ("太子", ColourClass::RoyalNeverPromoting),
        ("成太子", ColourClass::PromotedRoyal),
        ("醉象", ColourClass::Unpromoted),
        ("無明", ColourClass::Unpromoted),
        ("提婆", ColourClass::Unpromoted),
        ("法性", ColourClass::Promoted),
        ("教王", ColourClass::Promoted),
        ("成金将", ColourClass::Promoted),
        ("金将", ColourClass::Unpromoted),
    ] {
        assert_eq!(by[name].class, class, "{name}");
    }
    // Promoted faces named 成X show X; other names are drawn as written.
    assert_eq!(by["成金将"].text, "金将");
    assert_eq!(by["成太子"].text, "太子");
    assert_eq!(by["自在天王"].text, "自在天王");
    assert_eq!(by["キ犬"].text, "キ犬");
    // Files come from the spec's own image names.
    let files: Vec<&str> = by["香車"].tiles.iter().map(|t| t.file.as_str()).collect();
    assert_eq!(
        files,
        ["images/TaiShogi/ab_S.bmp", "images/TaiShogi/ab_G.bmp"]
    );
    assert_eq!(by["香車"].tiles[1].side, Side::Second);
    assert_eq!(by["成金将"].tiles[0].file, "images/TaiShogi/p01_S.bmp");

    // With the JSON at hand, every kind and promoted face has the JSON's class.
    let json = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/tai_shogi.json");
    let Ok(text) = std::fs::read_to_string(&json) else {
        eprintln!(
            "SKIPPED the per-piece JSON check: {} is missing",
            json.display()
        );
        return;
    };
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut checked = 0;
    for k in v["kinds"].as_array().unwrap() {
        let kanji = k["kanji"].as_str().unwrap();
        let want = match k["category"].as_str().unwrap() {
            "non_promoting" => ColourClass::NeverPromoting,
            "non_promoting_royal" => ColourClass::RoyalNeverPromoting,
            _ => ColourClass::Unpromoted,
        };
        let name = match kanji {
            "𠵇犬" => "キ犬",
            "摩𩹄" => "摩羯",
            k => k,
        };
        assert_eq!(by[name].class, want, "kind {kanji}");
        checked += 1;
    }
    for p in v["promoted_kinds"].as_array().unwrap() {
        let kanji = p["kanji"].as_str().unwrap();
        let name = if p["same_kanji_as_initial_kind"].as_bool() == Some(true) {
            format!("成{kanji}")
        } else {
            kanji.to_string()
        };
        let want = match p["category"].as_str().unwrap() {
            "promoted_royal" => ColourClass::PromotedRoyal,
            _ => ColourClass::Promoted,
        };
        assert_eq!(by[name.as_str()].class, want, "promoted face {name}");
        assert_eq!(by[name.as_str()].text, kanji);
        checked += 1;
    }
    assert_eq!(checked, 130);
}

#[test]
fn tai_shogi_renders_two_boards_and_260_valid_tiles_and_its_start_position() {
    let doc = read("corpus/zrf/tai_shogi.zrf");
    let plan = from_spec(&doc, 0, &PlanOptions::default()).unwrap();
    let fonts = FontSet::bundled();
    let set = render_set(&plan, &SetOptions::default(), &fonts).unwrap();
    assert!(
        set.errors.is_empty(),
        "{}",
        set.errors
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(set.warnings.is_empty(), "{:?}", set.warnings);
    assert_eq!(set.count(FileKind::Board), 2);
    assert_eq!(set.count(FileKind::Tile), 260);
    assert_eq!((set.boards[0].width(), set.boards[0].height()), (776, 776));
    for f in &set.files {
        let want = match f.kind {
            FileKind::Board => 1_806_582,
            FileKind::Tile => 2_814,
        };
        assert_eq!(f.bytes.len(), want, "{}", f.path);
    }
    let mut paths: Vec<String> = set.files.iter().map(|f| f.path.to_lowercase()).collect();
    paths.sort();
    paths.dedup();
    assert_eq!(paths.len(), 262, "file names are unique");
    assert_eq!(
        set.manifest.board,
        [
            "images/TaiShogi/board.bmp",
            "images/TaiShogi/board_check.bmp"
        ]
    );
    // The positions keep the rule file's rectangles: the fragment declares only images.
    assert!(
        set.fragment.contains(
            "(board (image \"images/TaiShogi/board.bmp\" \"images/TaiShogi/board_check.bmp\"))"
        ),
        "{}",
        set.fragment
    );
    assert!(!set.fragment.contains("start-rectangle"));
    assert!(set.fragment.contains(
        "(piece (name 成金将) (image Sente \"images/TaiShogi/p01_S.bmp\" Gote \"images/TaiShogi/p01_G.bmp\"))"
    ));

    let start = compose_start(&plan, &set);
    // Sente's 自在天王 stands on 13xxv: column 12, row 24; its tile's apex row is outline.
    let cell = set.sheet.index();
    assert_eq!(set.sheet.cells[cell["13xxv"]].rect, [373, 745, 403, 775]);
    let (x0, y0) = set.sheet.tile_origin(cell["13xxv"], 30, 30);
    assert_eq!((x0, y0), (373, 745));
    let apex = start.pixel(x0 as u32 + 14, y0 as u32).unwrap();
    assert_eq!((apex.red(), apex.green(), apex.blue()), (0x3C, 0x28, 0x14));
    // Gote's pieces point down: the apex of 13i's tile is on its bottom row.
    let (x0, y0) = set.sheet.tile_origin(cell["13i"], 30, 30);
    let apex = start.pixel(x0 as u32 + 15, y0 as u32 + 29).unwrap();
    assert_eq!((apex.red(), apex.green(), apex.blue()), (0x3C, 0x28, 0x14));
    // The middle rows are empty board.
    let empty = start.pixel(12 * 31 + 15, 12 * 31 + 15).unwrap();
    assert_eq!(
        (empty.red(), empty.green(), empty.blue()),
        (0xDE, 0xB8, 0x78)
    );
    check_asset("assets/images/tai_shogi_start.png", &start);
}

/// Compares with a committed picture (tolerance 1 per channel); `UPDATE_GOLDEN=1` rewrites it.
fn check_asset(rel: &str, actual: &Pixmap) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v != "0") {
        actual.save_png(&path).unwrap();
        eprintln!("wrote {}", path.display());
        return;
    }
    let expected = Pixmap::load_png(&path).unwrap();
    assert_eq!(
        (expected.width(), expected.height()),
        (actual.width(), actual.height()),
        "{rel}: size (UPDATE_GOLDEN=1 to regenerate)"
    );
    let bad = expected
        .data()
        .iter()
        .zip(actual.data())
        .filter(|(a, b)| a.abs_diff(**b) > 1)
        .count();
    assert_eq!(bad, 0, "{rel} differs (UPDATE_GOLDEN=1 to regenerate)");
}

#[test]
fn minishogi_plan_classes_zones_and_fallback_names() {
    let doc = read("corpus/zrf/render_minishogi.zrf");
    let plan = from_spec(&doc, 0, &PlanOptions::default()).unwrap();
    assert_eq!(plan.board.sheet.cells.len(), 25);
    assert_eq!(plan.board.sheet.tile, 39);
    let class: BTreeMap<&str, ColourClass> = plan
        .pieces
        .iter()
        .map(|p| (p.piece.as_str(), p.class))
        .collect();
    assert_eq!(class["玉将"], ColourClass::RoyalNeverPromoting);
    assert_eq!(class["金将"], ColourClass::NeverPromoting);
    assert_eq!(class["銀将"], ColourClass::Unpromoted);
    assert_eq!(class["歩兵"], ColourClass::Unpromoted);
    for p in ["成銀", "と金", "竜馬", "竜王"] {
        assert_eq!(class[p], ColourClass::Promoted, "{p}");
    }
    // 成銀's rest (銀) is no piece of the game, so the name is drawn whole.
    assert_eq!(plan.pieces[6].text, "成銀");
    assert_eq!(
        plan.pieces[1].tiles[0].file,
        "images/Minishogi/piece002_S.bmp"
    );
    assert_eq!(plan.board.zones.len(), 2);
    assert_eq!(plan.board.zones[0].cells.len(), 5);
    let top = plan.board.sheet.cells[plan.board.zones[0].cells[0]].rect[1];
    assert!(
        plan.board.zones[0]
            .cells
            .iter()
            .all(|&c| plan.board.sheet.cells[c].rect[1] == top)
    );
    assert_eq!(plan.setup.len(), 12);

    // Overrides win; a unit override scales everything.
    let mut opts = PlanOptions {
        unit: Some(31),
        redraw: true,
        ..Default::default()
    };
    opts.classes.insert("金将".into(), ColourClass::Unpromoted);
    opts.names.insert("と金".into(), "と".into());
    let plan = from_spec(&doc, 0, &opts).unwrap();
    assert_eq!(plan.board.grid.as_ref().unwrap().unit, 31);
    assert_eq!(plan.pieces[1].class, ColourClass::Unpromoted);
    assert!(plan.pieces[1].class_overridden);
    assert_eq!(plan.pieces[7].text, "と");
    let set = render_set(&plan, &SetOptions::default(), &FontSet::bundled()).unwrap();
    assert!(set.errors.is_empty(), "{:?}", set.errors);
    assert_eq!(set.files[0].bytes.len(), bmp_size(156, 156));
    assert_eq!(set.files[2].bytes.len(), bmp_size(30, 30));

    // The start position at the file's own 40-px unit, shaded zones, as a golden image.
    let plan = from_spec(&doc, 0, &PlanOptions::default()).unwrap();
    let so = SetOptions {
        zones: true,
        ..Default::default()
    };
    let set = render_set(&plan, &so, &FontSet::bundled()).unwrap();
    assert!(set.errors.is_empty(), "{:?}", set.errors);
    let start = compose_start(&plan, &set);
    assert_eq!((start.width(), start.height()), (201, 201));
    check_asset("golden/render/minishogi_start_from_spec.png", &start);
}

#[test]
fn apply_rewrites_images_and_geometry_consistently() {
    let mut doc = read("corpus/zrf/render_minishogi.zrf");
    let opts = PlanOptions {
        unit: Some(31),
        redraw: true,
        ..Default::default()
    };
    let plan = from_spec(&doc, 0, &opts).unwrap();
    let so = SetOptions {
        labels: true,
        checkered_first: true,
        ..Default::default()
    };
    let set = render_set(&plan, &so, &FontSet::bundled()).unwrap();
    assert!(set.errors.is_empty(), "{:?}", set.errors);
    // Labels add a margin: the first cell moves in by it.
    let m = set.sheet.cells[0].rect[0] - 1;
    assert!(m > 0);
    assert_eq!(
        set.manifest.start_rectangle,
        Some([m + 1, m + 1, m + 31, m + 31])
    );
    let applied = apply(&mut doc, &set.manifest).unwrap();
    assert_eq!(applied.games, [0]);
    assert_eq!(applied.pieces, 10);
    assert!(applied.notes.is_empty(), "{:?}", applied.notes);
    let g = &doc.games[0];
    assert_eq!(
        g.boards[0].images,
        [
            "images/Minishogi/board_check.bmp",
            "images/Minishogi/board.bmp"
        ]
    );
    assert_eq!(
        g.pieces[1].images[0].file,
        "images/Minishogi/piece002_S.bmp"
    );
    assert_eq!(g.pieces[1].images[1].player, "Gote");
    let pos = |n: &str| g.boards[0].positions.iter().find(|p| p.name == n).unwrap();
    assert_eq!(pos("5a").rect, Some([m + 1, m + 1, m + 31, m + 31]));
    assert_eq!(
        pos("1e").rect,
        Some([m + 125, m + 125, m + 155, m + 155]),
        "4 cells of 31 px on"
    );
    // The rewritten document is still consistent with its layout.
    let issues = zogkit::spec::check::check(&doc);
    assert!(issues.iter().all(|i| !i.is_error()), "{issues:?}");

    // A manifest for another game is refused.
    let mut other = read("corpus/zrf/tai_shogi.zrf");
    assert!(apply(&mut other, &set.manifest).is_err());
}

/// Copies `p` moved by (dx, dy), filling the uncovered strip with the first pixel's colour.
fn shifted(p: &Pixmap, dx: u32, dy: u32) -> Pixmap {
    let mut out = p.clone();
    let first = p.pixel(0, 0).unwrap();
    for y in 0..p.height() {
        for x in 0..p.width() {
            let v = if x >= dx && y >= dy {
                p.pixel(x - dx, y - dy).unwrap()
            } else {
                first
            };
            let i = ((y * p.width() + x) * 4) as usize;
            out.data_mut()[i..i + 4].copy_from_slice(&[v.red(), v.green(), v.blue(), v.alpha()]);
        }
    }
    out
}

/// One golden start position per board style (hex, points and lines, several grids, a 3-D grid
/// laid out side by side, non-square cells with a killed position), each drawn at the file's
/// own rectangles, validated, and caught by the validator when moved by 4 px.
#[test]
fn board_styles_draw_at_the_files_rectangles_and_match_their_goldens() {
    use zogkit::render::board::BoardColours;
    use zogkit::render::sheet::{SheetStyle, validate_sheet};
    let cases = [
        (
            "board_hex_001",
            "golden/render/style_board_hex_001.png",
            SheetStyle::Hex,
            19,
        ),
        (
            "board_points_001",
            "golden/render/style_board_points_001.png",
            SheetStyle::Points,
            9,
        ),
        (
            "board_multigrid_001",
            "golden/render/style_board_multigrid_001.png",
            SheetStyle::Checkered,
            11,
        ),
        (
            "board_3d_001",
            "golden/render/style_board_3d_001.png",
            SheetStyle::Checkered,
            18,
        ),
        (
            "board_nonsquare_001",
            "golden/render/style_board_nonsquare_001.png",
            SheetStyle::Checkered,
            19,
        ),
    ];
    let fonts = FontSet::bundled();
    for (name, golden, style, cells) in cases {
        let doc = read(&format!("corpus/zrf/{name}.zrf"));
        let plan = from_spec(&doc, 0, &PlanOptions::default()).unwrap();
        let sheet = &plan.board.sheet;
        assert_eq!((sheet.style, sheet.cells.len()), (style, cells), "{name}");
        // Every cell is the position's own rectangle.
        let positions = &doc.games[0].boards[0].positions;
        for c in &sheet.cells {
            let p = positions.iter().find(|p| p.name == c.name).unwrap();
            assert_eq!(Some(c.rect), p.rect, "{name} {}", c.name);
        }
        let set = render_set(&plan, &SetOptions::default(), &fonts).unwrap();
        assert!(set.errors.is_empty(), "{name}: {:?}", set.errors);
        let colours = BoardColours::default();
        let none = BTreeMap::new();
        let moved = shifted(&set.boards[0], 4, 4);
        assert!(
            !validate_sheet(&moved, &set.sheet, &colours, false, &none, name).is_empty(),
            "{name}: a board moved by 4 px passes"
        );
        check_asset(golden, &compose_start(&plan, &set));
    }
    // The points board has no checkered twin; the others have one.
    let doc = read("corpus/zrf/board_points_001.zrf");
    let plan = from_spec(&doc, 0, &PlanOptions::default()).unwrap();
    let set = render_set(&plan, &SetOptions::default(), &fonts).unwrap();
    assert_eq!(set.count(FileKind::Board), 1);
    // The killed position of the non-square board is left out.
    let doc = read("corpus/zrf/board_nonsquare_001.zrf");
    let plan = from_spec(&doc, 0, &PlanOptions::default()).unwrap();
    assert_eq!(plan.board.sheet.killed, [[85, 35, 125, 65]]);
}

/// The piece-style decision over the shared ZRF corpus: how many games get pentagons (shogi-like),
/// chess glyphs (at least one recognised chess man) or tokens only, printed; well-known games
/// are checked by name.
#[test]
fn piece_styles_over_the_shared_corpus() {
    use zogkit::render::token::{PieceStyle, is_shogi_like, piece_styles};
    let Some(shared) = crate::common::shared_zrf() else {
        return;
    };
    let files = crate::common::zrf_files(&shared);
    assert_eq!(files.len(), 434);
    let mut games: BTreeMap<&str, usize> = BTreeMap::new();
    let mut pieces: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_title: BTreeMap<(String, String), &str> = BTreeMap::new();
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let rel = f
            .strip_prefix(&shared)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let r = format::read(
            Format::Zrf,
            &rel,
            &bytes,
            &format::ReadOptions::default(),
            &mut NoIncludes,
        );
        let Some(doc) = r.document else { continue };
        for g in doc.games.iter().filter(|g| !g.pieces.is_empty()) {
            let styles = piece_styles(g, &doc.procedures);
            let kind = if is_shogi_like(g) {
                "pentagon"
            } else if styles.iter().any(|s| matches!(s, PieceStyle::Chess(_))) {
                "chess"
            } else if styles
                .iter()
                .any(|s| matches!(s, PieceStyle::Xiangqi { .. }))
            {
                "xiangqi"
            } else {
                "token"
            };
            *games.entry(kind).or_default() += 1;
            for (s, _) in styles.iter().zip(&g.pieces).filter(|(_, p)| !p.dummy) {
                let k = match s {
                    PieceStyle::Pentagon => "pentagon",
                    PieceStyle::Chess(_) => "chess",
                    PieceStyle::Xiangqi { .. } => "xiangqi",
                    PieceStyle::Token => "token",
                };
                *pieces.entry(k).or_default() += 1;
            }
            by_title.insert((rel.clone(), g.title.clone()), kind);
        }
    }
    eprintln!("games per style: {games:?}; pieces per style: {pieces:?}");
    for (file, title, want) in [
        ("dagaz/chess/chess.zrf", "Chess", "chess"),
        ("dagaz/shogi-family/shogi.zrf", "Shogi", "pentagon"),
        ("dagaz/shogi-family/kantorai.zrf", "Kantorai", "pentagon"),
        (
            "dagaz/checkers/english-checkers.zrf",
            "English Checkers",
            "token",
        ),
        (
            "dagaz/breakthrough/breakthrough.zrf",
            "Breakthrough (8x8)",
            "token",
        ),
        // Its rook, knight, pawn and king move as chess's do (the ferz and alfil get tokens).
        ("dagaz/chess/shatranj.zrf", "Shatranj", "chess"),
        (
            "dagazproject/CirceAndAndernach/CirceAndAndernach.zrf",
            "Circe (variant)",
            "chess",
        ),
        ("dagaz/xiangqi/xiangqi.zrf", "XiangQi", "xiangqi"),
        ("dagaz/xiangqi/janggi.zrf", "Janggi", "xiangqi"),
    ] {
        assert_eq!(
            by_title
                .get(&(file.to_string(), title.to_string()))
                .copied(),
            Some(want),
            "{file} {title}"
        );
    }
    assert!(
        games.values().all(|&n| n > 0) && games.len() == 4,
        "{games:?}"
    );
}

/// A game without pentagons draws every player, each in its own colour; the setup pieces land
/// on their cells in their owner's colour.
#[test]
fn every_player_of_a_token_game_gets_its_own_colour() {
    let zrf = "(game (title \"three\") (players Red Green Blue) (turn-order Red Green Blue)
        (board (grid (start-rectangle 0 0 40 40) (dimensions (\"a/b/c\" (40 0)) (\"1\" (0 40)))
               (directions (e 1 0))))
        (piece (name Stone) (moves (e add)))
        (board-setup (Red (Stone a1)) (Green (Stone b1)) (Blue (Stone c1))))";
    let r = format::read(
        Format::Zrf,
        "three.zrf",
        zrf.as_bytes(),
        &format::ReadOptions::default(),
        &mut NoIncludes,
    );
    let doc = r.document.unwrap();
    let plan = from_spec(&doc, 0, &PlanOptions::default()).unwrap();
    assert_eq!(plan.players, ["Red", "Green", "Blue"]);
    assert!(plan.notes.iter().all(|n| !n.contains("players are drawn")));
    let files: Vec<&str> = plan.pieces[0]
        .tiles
        .iter()
        .map(|t| t.file.as_str())
        .collect();
    assert_eq!(files, ["Stone_S.bmp", "Stone_G.bmp", "Stone_P3.bmp"]);
    let set = render_set(&plan, &SetOptions::default(), &FontSet::bundled()).unwrap();
    assert!(set.errors.is_empty(), "{:?}", set.errors);
    let start = compose_start(&plan, &set);
    // Each cell's centre carries a different disc colour.
    let centre = |x| {
        let p = start.pixel(x, 6).unwrap();
        (p.red(), p.green(), p.blue())
    };
    let (a, b, c) = (centre(20), centre(60), centre(100));
    assert!(a != b && b != c && a != c, "{a:?} {b:?} {c:?}");
}

/// A xiangqi board as Dagaz writes it (a 9×10 grid of 42-px rectangles 45 px apart, all eight
/// directions everywhere, a 3×3 fortress per player and a home half per player), with
/// `zones` instead of the home halves when given.
fn palace_zrf(home: bool) -> String {
    let half = |player: &str, ranks: std::ops::RangeInclusive<u32>| {
        let cells: Vec<String> = ranks
            .flat_map(|r| "abcdefghi".chars().map(move |f| format!("{f}{r}")))
            .collect();
        format!(
            "(zone (name home) (players {player}) (positions {}))",
            cells.join(" ")
        )
    };
    let homes = if home {
        half("Red", 1..=5) + &half("Black", 6..=10)
    } else {
        String::new()
    };
    format!(
        "(define step ($1 (verify not-friend?) add))
         (define step-in ($1 (verify not-friend?) (verify (in-zone? fortress)) add))
         (game (title \"Palace\") (players Red Black) (turn-order Red Black)
           (board (image \"images/palace.bmp\")
             (grid (start-rectangle 4 5 46 47)
               (dimensions (\"a/b/c/d/e/f/g/h/i\" (45 0)) (\"10/9/8/7/6/5/4/3/2/1\" (0 45)))
               (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0)
                           (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1)))
             (symmetry Black (n s) (s n) (w e) (e w) (nw se) (se nw) (ne sw) (sw ne))
             (zone (name fortress) (players Red) (positions d1 e1 f1 d2 e2 f2 d3 e3 f3))
             (zone (name fortress) (players Black) (positions d10 e10 f10 d9 e9 f9 d8 e8 f8))
             {homes})
           (piece (name Soldier) (moves (step n)))
           (piece (name Horse) (moves (step n)))
           (piece (name Elephant) (moves (step ne)))
           (piece (name Chariot) (moves (step n)))
           (piece (name Cannon) (moves (step n)))
           (piece (name Mandarin) (moves (step ne)))
           (piece (name General) (moves (step-in n) (step-in s) (step-in e) (step-in w)))
           (board-setup
             (Red (Soldier a4 c4 e4 g4 i4) (Horse b1 h1) (Elephant c1 g1) (Chariot a1 i1)
                  (Cannon b3 h3) (Mandarin d1 f1) (General e1))
             (Black (Soldier a7 c7 e7 g7 i7) (Horse b10 h10) (Elephant c10 g10)
                    (Chariot a10 i10) (Cannon b8 h8) (Mandarin d10 f10) (General e10))))"
    )
}

/// Xiangqi drawn as lines: the pieces' centres on the points where the lines cross, a line
/// between linked points, none across the river but on the edge files, the palace's cross;
/// the men as their characters in red and black. Janggi's board (no home halves) has no river.
#[test]
fn palace_boards_draw_lines_a_river_and_the_palace_cross_with_pieces_on_the_points() {
    use zogkit::render::sheet::SheetStyle;
    use zogkit::render::token::{PieceStyle, XiangqiMan};
    let fonts = FontSet::bundled();
    let parse = |zrf: &str| {
        let r = format::read(
            Format::Zrf,
            "palace.zrf",
            zrf.as_bytes(),
            &format::ReadOptions::default(),
            &mut NoIncludes,
        );
        assert_eq!(r.errors(), 0, "{:?}", r.diagnostics);
        r.document.unwrap()
    };
    let doc = parse(&palace_zrf(true));
    let plan = from_spec(&doc, 0, &PlanOptions::default()).unwrap();
    assert_eq!(plan.board.sheet.style, SheetStyle::Lines);
    let set = render_set(&plan, &SetOptions::default(), &fonts).unwrap();
    assert!(set.errors.is_empty(), "{:?}", set.errors);
    assert_eq!(set.count(FileKind::Board), 1, "no checkered twin");
    let board = &set.boards[0];
    let (black, fill) = (
        zogkit::render::Rgb::BLACK,
        zogkit::render::BoardColours::default().fill,
    );
    let at = |x: u32, y: u32| board.pixel(x, y).map(|p| (p.red(), p.green(), p.blue()));
    let rgb = |c: zogkit::render::Rgb| Some((c.0, c.1, c.2));
    // Point (file f, rank r) is the centre of its rectangle: x = 25 + 45 f, y = 26 + 45 (10 − r).
    let point = |f: u32, r: u32| (25 + 45 * f, 26 + 45 * (10 - r));
    let mid = |a: (u32, u32), b: (u32, u32)| ((a.0 + b.0) / 2, (a.1 + b.1) / 2);
    // a10–b10 and e1–e2 are joined; e5–e6 is not (the river), a5–a6 and i5–i6 are.
    for (a, b, want) in [
        (point(0, 10), point(1, 10), black),
        (point(4, 1), point(4, 2), black),
        (point(4, 5), point(4, 6), fill),
        (point(2, 5), point(2, 6), fill),
        (point(0, 5), point(0, 6), black),
        (point(8, 5), point(8, 6), black),
    ] {
        let (x, y) = mid(a, b);
        assert_eq!(at(x, y), rgb(want), "({x},{y})");
    }
    // The palace's cross (d1–e2) is drawn; the diagonal d3–e4 outside it is not.
    let dark_near = |(x, y): (u32, u32)| {
        (x - 1..=x + 1)
            .flat_map(|x| (y - 1..=y + 1).map(move |y| (x, y)))
            .any(|(x, y)| at(x, y).is_some_and(|(r, g, b)| (r as u32 + g as u32 + b as u32) < 300))
    };
    assert!(dark_near(mid(point(3, 1), point(4, 2))));
    assert!(dark_near(mid(point(5, 10), point(4, 9))));
    assert!(!dark_near(mid(point(3, 3), point(4, 4))));
    // Every piece is centred on its point.
    for c in &plan.setup {
        let t = &set.tiles[c.piece][0];
        let (x, y) = set.sheet.tile_origin(c.cell, t.width(), t.height());
        let (cx, cy) = set.sheet.cells[c.cell].centre();
        assert!((x + t.width() as i64 / 2 - cx).abs() <= 1, "{:?}", c);
        assert!((y + t.height() as i64 / 2 - cy).abs() <= 1, "{:?}", c);
    }
    // The men are xiangqi's, drawn with their characters.
    let general = plan.pieces.iter().find(|p| p.piece == "General").unwrap();
    assert_eq!(
        general.style,
        PieceStyle::Xiangqi {
            man: XiangqiMan::General,
            janggi: false
        }
    );
    assert_eq!(general.text, "帥");
    check_asset(
        "golden/render/style_board_lines_xiangqi.png",
        &compose_start(&plan, &set),
    );
    // Janggi: no home halves, so no river and janggi's characters.
    let doc = parse(&palace_zrf(false));
    let plan = from_spec(&doc, 0, &PlanOptions::default()).unwrap();
    let set = render_set(&plan, &SetOptions::default(), &fonts).unwrap();
    assert!(set.errors.is_empty(), "{:?}", set.errors);
    let (x, y) = mid(point(4, 5), point(4, 6));
    let p = set.boards[0].pixel(x, y).unwrap();
    assert_eq!((p.red(), p.green(), p.blue()), (0, 0, 0), "no river");
    let general = plan.pieces.iter().find(|p| p.piece == "General").unwrap();
    assert_eq!(general.text, "漢");
}
