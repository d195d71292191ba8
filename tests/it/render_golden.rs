//! Golden-image tests for the renderer: boards, tiles of every layout, colour class and side, a
//! western set and a composed position, each also run through every validator.
//!
//! References live in `golden/render/*.png`, compared by `common::png` (the comparison the corpus
//! harness uses for `corpus/render/` too): pixels after decoding, with a tolerance of 1 per
//! channel and no pixel over it. `UPDATE_GOLDEN=1` rewrites the references.

use crate::common;
use crate::common::png::compare;
use tiny_skia::{Pixmap, PixmapPaint, Transform};
use zogkit::render::bmp::{decode_bmp, encode_bmp};
use zogkit::render::validate::{
    validate_bmp, validate_board, validate_pair, validate_tile, validate_tile_fits,
};
use zogkit::render::*;

/// Compares `actual` with `golden/render/<name>.png` (see the module docs).
fn check_golden(name: &str, actual: &Pixmap) {
    if let Err(e) = common::png::check_png(&format!("{name}.png"), actual) {
        panic!("{e}");
    }
}

/// Lays tiles out in rows on a grey background with 2-pixel gaps.
fn sheet(rows: &[Vec<Pixmap>]) -> Pixmap {
    let cell_w = rows.iter().flatten().map(|p| p.width()).max().unwrap() + 2;
    let cell_h = rows.iter().flatten().map(|p| p.height()).max().unwrap() + 2;
    let cols = rows.iter().map(Vec::len).max().unwrap() as u32;
    let mut out = Pixmap::new(cols * cell_w + 2, rows.len() as u32 * cell_h + 2).unwrap();
    out.fill(tiny_skia::Color::from_rgba8(128, 128, 128, 255));
    for (r, row) in rows.iter().enumerate() {
        for (c, p) in row.iter().enumerate() {
            out.draw_pixmap(
                (2 + c as u32 * cell_w) as i32,
                (2 + r as u32 * cell_h) as i32,
                p.as_ref(),
                &PixmapPaint::default(),
                Transform::identity(),
                None,
            );
        }
    }
    out
}

fn crop(p: &Pixmap, x: u32, y: u32, w: u32, h: u32) -> Pixmap {
    let r = tiny_skia::IntRect::from_xywh(x as i32, y as i32, w, h).unwrap();
    p.clone_rect(r).unwrap()
}

fn assert_no_errors(what: &str, errors: Vec<validate::ValidationError>) {
    assert!(
        errors.is_empty(),
        "{what}:\n{}",
        errors
            .iter()
            .map(|e| format!("  {e}\n"))
            .collect::<String>()
    );
}

/// BMP round trip plus header validation; returns the decoded image.
fn bmp_round_trip(p: &Pixmap, subject: &str) -> Pixmap {
    let bytes = encode_bmp(p);
    let info = validate_bmp(&bytes, subject).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(
        (info.width as u32, info.height as u32),
        (p.width(), p.height())
    );
    let back = decode_bmp(&bytes).unwrap();
    assert_eq!(
        back.data(),
        p.data(),
        "{subject}: BMP round trip changed pixels"
    );
    back
}

/// Renders both sides of a name, validates them (tile, pair, BMP) and returns [first, second].
fn pair(name: &str, class: ColourClass, style: &TileStyle, fonts: &FontSet) -> [Pixmap; 2] {
    let (first, second) = render_tile_pair(name, class, style, fonts).unwrap();
    assert!(
        first.warnings.is_empty(),
        "{name}: unexpected warnings {:?}",
        first.warnings
    );
    let direct = render_tile(&TileSpec::new(name, class, Side::Second), style, fonts).unwrap();
    assert_eq!(
        direct.pixmap.data(),
        second.data(),
        "{name}: pair vs direct"
    );
    let subject = format!("{name} ({class:?})");
    assert_no_errors(
        &subject,
        validate_tile(&first.pixmap, style, Side::First, &subject),
    );
    assert_no_errors(
        &subject,
        validate_tile(&second, style, Side::Second, &subject),
    );
    assert_no_errors(&subject, validate_pair(&first.pixmap, &second, &subject));
    bmp_round_trip(&first.pixmap, &subject);
    bmp_round_trip(&second, &subject);
    [first.pixmap, second]
}

fn board(style: &BoardStyle, fonts: &FontSet) -> Pixmap {
    let r = render_board(style, fonts).unwrap();
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    let g = BoardGeometry::of(style);
    assert_no_errors(
        "board",
        validate_board(&r.pixmap, &g, &style.colours, "board"),
    );
    bmp_round_trip(&r.pixmap, "board");
    r.pixmap
}

#[test]
fn golden_board_5x5() {
    let fonts = FontSet::bundled();
    let b = board(&BoardStyle::new(5, 5), &fonts);
    assert_eq!((b.width(), b.height()), (156, 156));
    check_golden("board_5x5", &b);

    let mut checkered = BoardStyle::new(5, 5);
    checkered.checkered = true;
    check_golden("board_5x5_checkered", &board(&checkered, &fonts));
}

#[test]
fn golden_board_labels_and_zones() {
    let fonts = FontSet::bundled();
    let mut style = BoardStyle::new(9, 5);
    style.labels = Some(AxisLabels::japanese(9, 5));
    style.zones.push(Zone {
        cells: (0..9).map(|c| (c, 0)).collect(),
        colour: Rgb(0xE8, 0xC8, 0x96),
    });
    let b = board(&style, &fonts);
    assert_eq!(b.width(), 31 * 9 + 1 + 2 * 19);
    check_golden("board_9x5_labels_zone", &b);
}

#[test]
fn golden_board_25x25_crops() {
    let fonts = FontSet::bundled();
    let plain = board(&BoardStyle::new(25, 25), &fonts);
    assert_eq!((plain.width(), plain.height()), (776, 776));
    assert_eq!(encode_bmp(&plain).len(), 1_806_582);
    check_golden("board_25x25_topleft", &crop(&plain, 0, 0, 94, 94));
    check_golden(
        "board_25x25_bottomright",
        &crop(&plain, 776 - 94, 776 - 94, 94, 94),
    );

    let mut style = BoardStyle::new(25, 25);
    style.checkered = true;
    let checkered = board(&style, &fonts);
    assert_eq!((checkered.width(), checkered.height()), (776, 776));
    check_golden(
        "board_25x25_checkered_centre",
        &crop(&checkered, 341, 341, 94, 94),
    );
}

/// 1-, 2-, 3- and 4-character names in every colour class; first side above, second below.
#[test]
fn golden_tiles_every_length_class_and_side() {
    let fonts = FontSet::bundled();
    let style = TileStyle::default();
    assert!(validate_tile_fits(style.size, 31, "tile").is_empty());
    for (golden, name) in [
        ("tiles_1_kanji", "龍"),
        ("tiles_2_kanji", "金将"),
        ("tiles_3_kanji", "大納言"),
        ("tiles_4_kanji", "自在天王"),
    ] {
        let (mut top, mut bottom) = (Vec::new(), Vec::new());
        for class in ColourClass::ALL {
            let [a, b] = pair(name, class, &style, &fonts);
            top.push(a);
            bottom.push(b);
        }
        // Each class gives a different picture.
        for i in 0..top.len() {
            for j in i + 1..top.len() {
                assert_ne!(top[i].data(), top[j].data(), "{name}: classes {i} and {j}");
            }
        }
        check_golden(golden, &sheet(&[top, bottom]));
    }
}

/// Tai Shogi names that exercise the fallback font and dense glyphs, plus style options.
#[test]
fn golden_tiles_variants() {
    let fonts = FontSet::bundled();
    let style = TileStyle::default();
    let mut row = Vec::new();
    for (name, class) in [
        ("太子", ColourClass::PromotedRoyal),
        ("醉象", ColourClass::Unpromoted),
        ("𠵇犬", ColourClass::Unpromoted),
        ("摩𩹄", ColourClass::Unpromoted),
        ("奔王", ColourClass::NeverPromoting),
    ] {
        row.push(pair(name, class, &style, &fonts)[0].clone());
    }
    let columns = TileStyle {
        four_kanji: FourKanjiOrder::Columns,
        ..TileStyle::default()
    };
    row.push(
        pair(
            "自在天王",
            ColourClass::RoyalNeverPromoting,
            &columns,
            &fonts,
        )[0]
        .clone(),
    );
    let black = TileStyle {
        all_black: true,
        ..TileStyle::default()
    };
    row.push(pair("金将", ColourClass::Promoted, &black, &fonts)[0].clone());
    let squashed = TileStyle {
        three_kanji: ThreeKanji::Squashed,
        ..TileStyle::default()
    };
    row.push(pair("大納言", ColourClass::Unpromoted, &squashed, &fonts)[0].clone());
    let big = TileStyle::with_size(36);
    assert!(validate_tile_fits(36, 37, "36").is_empty());
    row.push(pair("獅子", ColourClass::Unpromoted, &big, &fonts)[0].clone());
    check_golden("tiles_variants", &sheet(&[row]));
}

#[test]
fn golden_western_chess_set() {
    let fonts = FontSet::bundled();
    let style = TileStyle::default();
    let (mut top, mut bottom) = (Vec::new(), Vec::new());
    for name in ["King", "Queen", "Rook", "Bishop", "Knight", "Pawn"] {
        let [a, b] = pair(name, ColourClass::Unpromoted, &style, &fonts);
        top.push(a);
        bottom.push(b);
    }
    check_golden("tiles_chess", &sheet(&[top, bottom]));
}

#[test]
fn golden_composed_position() {
    let fonts = FontSet::bundled();
    let style = BoardStyle::new(5, 5);
    let g = BoardGeometry::of(&style);
    let b = board(&style, &fonts);
    let ts = TileStyle::default();
    let [king_s, king_g] = pair("玉将", ColourClass::RoyalNeverPromoting, &ts, &fonts);
    let [gold_s, gold_g] = pair("金将", ColourClass::NeverPromoting, &ts, &fonts);
    let [pawn_s, _] = pair("歩兵", ColourClass::Unpromoted, &ts, &fonts);
    let [tokin_s, _] = pair("と金", ColourClass::Promoted, &ts, &fonts);
    fn at<'a>(g: &BoardGeometry, col: u32, row: u32, tile: &'a Pixmap) -> Placement<'a> {
        let (x, y) = g.tile_origin(col, row, tile.width());
        Placement { x, y, tile }
    }
    let placements = [
        at(&g, 2, 4, &king_s),
        at(&g, 1, 4, &gold_s),
        at(&g, 2, 3, &pawn_s),
        at(&g, 3, 2, &tokin_s),
        at(&g, 2, 0, &king_g),
        at(&g, 3, 0, &gold_g),
    ];
    let pos = compose_position(&b, &placements);
    // No key colour survives composition, and the board is unchanged off the pieces.
    assert!(
        pos.pixels()
            .iter()
            .all(|p| (p.red(), p.green(), p.blue()) != (0, 255, 0))
    );
    assert_eq!(pos.pixel(100, 100), b.pixel(100, 100));
    check_golden("position_5x5", &pos);
}

/// The harness itself: a one-level difference passes, a two-level one is caught.
#[test]
fn compare_tolerance() {
    let mut a = Pixmap::new(4, 4).unwrap();
    a.fill(tiny_skia::Color::from_rgba8(100, 100, 100, 255));
    let mut b = a.clone();
    b.data_mut()[0] = 101;
    assert_eq!(compare(&a, &b).0, 0);
    b.data_mut()[0] = 102;
    b.data_mut()[6] = 98;
    let (bad, panel) = compare(&a, &b);
    assert_eq!(bad, 2);
    assert_eq!(panel.width(), 3 * 4 + 4);
    let c = Pixmap::new(4, 5).unwrap();
    assert_eq!(compare(&a, &c).0, 20);
}

/// Chess glyph tiles (both players) and token tiles (four palette players), each validated,
/// and the same pieces placed on a checkered board.
#[test]
fn golden_tokens_and_chess_glyphs() {
    let fonts = FontSet::bundled();
    let size = 30;
    let check = |p: &Pixmap, what: &str| {
        assert_no_errors(what, validate::validate_token(p, size, what));
        bmp_round_trip(p, what);
    };
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for man in ChessMan::ALL {
        let (a, b) = render_token_pair("", PieceStyle::Chess(man), [0, 1], size, &fonts).unwrap();
        assert!(a.warnings.is_empty(), "{man:?}: {:?}", a.warnings);
        check(&a.pixmap, &format!("{man:?} (first)"));
        check(&b, &format!("{man:?} (second)"));
        white.push(a.pixmap);
        black.push(b);
    }
    let mut tokens = Vec::new();
    for (player, label) in ["K", "Kn", "DK", "Wiz", "M", "LL"].iter().enumerate() {
        let r = render_token(label, PieceStyle::Token, player, size, &fonts).unwrap();
        assert!(r.warnings.is_empty(), "{label}: {:?}", r.warnings);
        check(&r.pixmap, label);
        tokens.push(r.pixmap);
    }
    check_golden(
        "tiles_tokens_chess",
        &sheet(&[white.clone(), black.clone(), tokens.clone()]),
    );

    let mut style = BoardStyle::new(6, 3);
    style.checkered = true;
    let g = BoardGeometry::of(&style);
    let b = board(&style, &fonts);
    let mut placements = Vec::new();
    for (row, tiles) in [&black, &tokens, &white].into_iter().enumerate() {
        for (col, tile) in tiles.iter().enumerate() {
            let (x, y) = g.tile_origin(col as u32, row as u32, tile.width());
            placements.push(Placement { x, y, tile });
        }
    }
    let pos = compose_position(&b, &placements);
    assert!(
        pos.pixels()
            .iter()
            .all(|p| (p.red(), p.green(), p.blue()) != (0, 255, 0))
    );
    check_golden("position_tokens_chess", &pos);
}
