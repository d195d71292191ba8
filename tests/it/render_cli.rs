//! `zogkit render` end to end on `corpus/zrf/render_minishogi.zrf` (5×5, 40-px grid): the files
//! written and their sizes, every validator on the bytes read back, the ZRF fragment read as
//! ZRF, `convert --with-images`, PNG output, warnings and exit codes.

use crate::common;

use std::path::{Path, PathBuf};
use zogkit::format::{self, Format};
use zogkit::render::Side;
use zogkit::render::bmp::{decode_bmp, row_stride};
use zogkit::render::board::{BoardColours, BoardGeometry, BoardStyle};
use zogkit::render::images::ImageManifest;
use zogkit::render::tile::TileStyle;
use zogkit::render::validate::{
    validate_bmp, validate_board, validate_pair, validate_tile, validate_tile_fits,
};
use zogkit::zrf::NoIncludes;

const MINI: &str = "corpus/zrf/render_minishogi.zrf";

fn out_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn run(args: &[&str]) -> (i32, String, String) {
    let o = common::zogkit(args);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn files_under(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = common::walk(dir)
        .iter()
        .map(|p| {
            p.strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    out.sort();
    out
}

#[test]
fn renders_minishogi_files_sizes_validators_and_fragment() {
    let dir = out_dir("render_mini_bmp");
    let d = dir.to_str().unwrap();
    let (code, _, err) = run(&["render", MINI, "-o", d, "--zones"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(
            "2 checkered boards (201×201, at the rule file's own rectangles), 20 tiles (39×39)"
        ),
        "{err}"
    );
    assert!(!err.contains("warning"), "{err}");

    // Exactly the board, its twin, 10 pieces × 2 sides, the fragment and the manifest; no
    // temporary files left behind.
    let files = files_under(&dir);
    assert_eq!(files.len(), 2 + 20 + 2, "{files:?}");
    assert!(files.iter().all(|f| !f.contains(".tmp")), "{files:?}");
    let manifest: ImageManifest =
        serde_json::from_slice(&std::fs::read(dir.join("images.json")).unwrap()).unwrap();
    assert_eq!(manifest.game, "Minishogi");
    assert_eq!(
        manifest.board,
        [
            "images/Minishogi/board.bmp",
            "images/Minishogi/board_check.bmp"
        ]
    );
    // Drawn at the rule file's own rectangles: the manifest declares no new grid geometry.
    assert_eq!(manifest.start_rectangle, None);
    assert!(manifest.offsets.is_empty());
    assert_eq!(manifest.pieces.len(), 10);
    assert_eq!(
        manifest.pieces[0].images[0].file, "images/Minishogi/king_S.bmp",
        "the spec's own name"
    );
    assert_eq!(
        manifest.pieces[1].images[1].file, "images/Minishogi/piece002_G.bmp",
        "a sanitised name next to the board"
    );

    // Every file passes every validator when read back from disk.
    let mut style = BoardStyle::new(5, 5);
    style.unit = 40;
    let g = BoardGeometry::of(&style);
    assert!(validate_tile_fits(39, 40, "tiles").is_empty());
    let tile_style = TileStyle::with_size(39);
    let mut errors = Vec::new();
    for (i, b) in manifest.board.iter().enumerate() {
        let bytes = std::fs::read(dir.join(b)).unwrap();
        assert_eq!(bytes.len(), 54 + row_stride(201) * 201, "{b}");
        let info = validate_bmp(&bytes, b).unwrap();
        assert_eq!(
            (info.width, info.height, info.bits_per_pixel),
            (201, 201, 24)
        );
        let p = decode_bmp(&bytes).unwrap();
        let colours = BoardColours::default();
        errors.extend(validate_board(&p, &g, &colours, b));
        // Zone shading: Gote's promotion row (a) is shaded, the middle is not.
        let shaded = p.pixel(20, 20).unwrap();
        assert_eq!(
            (shaded.red(), shaded.green(), shaded.blue()),
            (0xEB, 0xCF, 0x98)
        );
        let mid = p.pixel(2 * 40 + 20, 2 * 40 + 20).unwrap();
        let f = colours.fill;
        assert_eq!((mid.red(), mid.green(), mid.blue()), (f.0, f.1, f.2));
        if i == 1 {
            let alt = p.pixel(40 + 20, 2 * 40 + 20).unwrap();
            let a = colours.alternate;
            assert_eq!((alt.red(), alt.green(), alt.blue()), (a.0, a.1, a.2));
        }
    }
    for piece in &manifest.pieces {
        let mut pair = Vec::new();
        for (im, side) in piece.images.iter().zip([Side::First, Side::Second]) {
            let bytes = std::fs::read(dir.join(&im.file)).unwrap();
            assert_eq!(bytes.len(), 54 + row_stride(39) * 39, "{}", im.file);
            if let Err(e) = validate_bmp(&bytes, &im.file) {
                errors.extend(e);
            }
            let p = decode_bmp(&bytes).unwrap();
            errors.extend(validate_tile(&p, &tile_style, side, &im.file));
            pair.push(p);
        }
        errors.extend(validate_pair(&pair[0], &pair[1], &piece.piece));
    }
    assert!(errors.is_empty(), "{errors:?}");

    // The fragment is ZRF: inside a game it reads back to the same images. The board was drawn
    // at the rule file's own rectangles, so it declares no geometry of its own.
    let fragment = std::fs::read_to_string(dir.join("images.zrf")).unwrap();
    assert!(!fragment.contains("start-rectangle"), "{fragment}");
    let zrf = format!("(game (title \"t\") (players Sente Gote)\n{fragment})\n");
    let r = format::read(
        Format::Zrf,
        "fragment.zrf",
        zrf.as_bytes(),
        &format::ReadOptions::default(),
        &mut NoIncludes,
    );
    assert_eq!(r.errors(), 0, "{:?}", r.diagnostics);
    let doc = r.document.unwrap();
    let game = &doc.games[0];
    let board = &game.boards[0];
    assert_eq!(board.images, manifest.board);
    assert!(board.positions.is_empty());
    assert_eq!(game.pieces.len(), 10);
    for (p, m) in game.pieces.iter().zip(&manifest.pieces) {
        assert_eq!(p.name, m.piece);
        assert_eq!(p.images, m.images);
        for im in &p.images {
            assert!(dir.join(&im.file).is_file(), "{} is not written", im.file);
        }
    }

    // convert --with-images wires the rendered files into the converted spec.
    let yaml = dir.join("mini.yaml");
    let (code, _, err) = run(&[
        "convert",
        "--to",
        "yaml",
        MINI,
        "--with-images",
        d,
        "-o",
        yaml.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&yaml).unwrap();
    assert!(text.contains("images/Minishogi/piece002_S.bmp"), "{text}");
    assert!(text.contains("images/Minishogi/piece010_G.bmp"));
}

#[test]
fn png_output_labels_checkered_first_and_unit() {
    let dir = out_dir("render_mini_png");
    let d = dir.to_str().unwrap();
    let (code, _, err) = run(&[
        "render",
        MINI,
        "-o",
        d,
        "--format",
        "png",
        "--unit",
        "31",
        "--labels",
        "--checkered",
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "quiet: {err}");
    let board = tiny_skia::Pixmap::load_png(dir.join("images/Minishogi/board.png")).unwrap();
    let margin = (31 * 3u32).div_ceil(5);
    assert_eq!(board.width(), 31 * 5 + 1 + 2 * margin);
    let tile = tiny_skia::Pixmap::load_png(dir.join("images/Minishogi/king_G.png")).unwrap();
    assert_eq!((tile.width(), tile.height()), (30, 30));
    assert!(validate_tile(&tile, &TileStyle::default(), Side::Second, "king_G").is_empty());
    let fragment = std::fs::read_to_string(dir.join("images.zrf")).unwrap();
    assert!(
        fragment.contains(
            "(image \"images/Minishogi/board_check.png\" \"images/Minishogi/board.png\")"
        )
    );
    let m = margin;
    assert!(
        fragment.contains(&format!(
            "(start-rectangle {} {} {} {})",
            m + 1,
            m + 1,
            m + 31,
            m + 31
        )),
        "{fragment}"
    );
}

#[test]
fn tai_shogi_from_the_zrf_writes_the_whole_set() {
    let dir = out_dir("render_tai");
    let (code, _, err) = run(&[
        "render",
        "corpus/zrf/tai_shogi.zrf",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(
            "2 checkered boards (776×776, at the rule file's own rectangles), 260 tiles (30×30)"
        ),
        "{err}"
    );
    let files = files_under(&dir);
    let bmps: Vec<&String> = files.iter().filter(|f| f.ends_with(".bmp")).collect();
    assert_eq!(bmps.len(), 262);
    assert!(files.contains(&"images/TaiShogi/ix_G.bmp".to_string()));
    assert!(files.contains(&"images/TaiShogi/p37_S.bmp".to_string()));
    // The fragment keeps the rule file's Shift_JIS.
    let bytes = std::fs::read(dir.join("images.zrf")).unwrap();
    assert!(std::str::from_utf8(&bytes).is_err());
    let (text, _, bad) = encoding_rs::SHIFT_JIS.decode(&bytes);
    assert!(!bad);
    assert!(text.contains("(piece (name 自在天王) (image Sente \"images/TaiShogi/ix_S.bmp\""));
}

#[test]
fn warnings_refusals_and_exit_codes() {
    // --help succeeds and documents the options.
    let (code, out, _) = run(&["render", "--help"]);
    assert_eq!(code, 0);
    for opt in [
        "--game",
        "--output",
        "--format",
        "--checkered",
        "--unit",
        "--font",
        "--labels",
    ] {
        assert!(out.contains(opt), "--help lacks {opt}");
    }
    // Usage errors: no output directory, unknown format, missing file.
    assert_eq!(run(&["render", MINI]).0, 2);
    assert_eq!(run(&["render", MINI, "-o", "x", "--format", "gif"]).0, 2);
    assert_eq!(run(&["render", "no/such.zrf", "-o", "x"]).0, 2);
    assert_eq!(run(&["render", MINI, "-o", "x", "--game", "7"]).0, 2);
    assert_eq!(
        run(&["render", MINI, "-o", "x", "--class", "玉将=purple"]).0,
        2
    );

    // A missing glyph is a warning naming the character and the piece; the set is written.
    let dir = out_dir("render_glyph");
    let (code, _, err) = run(&[
        "render",
        MINI,
        "-o",
        dir.to_str().unwrap(),
        "--name",
        "玉将=王\u{1D11E}",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning[render::missing-glyph]: piece 玉将"),
        "{err}"
    );
    assert!(err.contains("U+1D11E"), "{err}");

    // --font: a real font file is used (bundled fonts stay as fallbacks); other files are
    // usage errors.
    let dir = out_dir("render_font");
    let d = dir.to_str().unwrap();
    let font = "assets/fonts/ZogkitRare-Regular.ttf";
    let (code, _, err) = run(&["render", MINI, "-o", d, "--font", font, "-q"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    let (code, _, err) = run(&["render", MINI, "-o", d, "--font", "Cargo.toml"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("Cargo.toml"), "{err}");

    // Tiles too small for text are refused (exit 1), and nothing is written.
    let dir = out_dir("render_small");
    let (code, _, err) = run(&["render", MINI, "-o", dir.to_str().unwrap(), "--unit", "12"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("at least 12 px"), "{err}");
    assert!(!dir.exists());

    // A board of listed positions is drawn at its rectangles (10-px cells: 12-px pieces, with a
    // note); laying it out anew (--labels, --unit) needs a rectangular grid: a clear error, exit 1.
    let dir = out_dir("render_positions");
    std::fs::create_dir_all(&dir).unwrap();
    let zrf = dir.join("positions.zrf");
    std::fs::write(
        &zrf,
        "(game (title \"p\") (players A B) (board (positions (a 0 0 10 10) (b 10 0 20 10)))\n\
         (piece (name X) (moves ((n) add))))\n",
    )
    .unwrap();
    let out = dir.join("set");
    let (code, _, err) = run(&["render", zrf.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("pieces are drawn at 12 px"), "{err}");
    let (code, _, err) = run(&[
        "render",
        zrf.to_str().unwrap(),
        "-o",
        dir.join("labelled").to_str().unwrap(),
        "--labels",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not a grid"), "{err}");
    assert!(err.contains("rectangular"), "{err}");

    // convert --with-images without a rendered set fails for that input (exit 1).
    let (code, _, err) = run(&[
        "convert",
        "--to",
        "yaml",
        MINI,
        "--with-images",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("images.json"), "{err}");
}

/// `render --start` composes the start position from the author's own piece images where they
/// sit beside the rule file (ZoG's `#00FF00` key transparent), and from drawn tiles elsewhere.
#[test]
fn start_position_uses_the_authors_piece_images_beside_the_rule_file() {
    let dir = out_dir("render_own_images");
    std::fs::create_dir_all(dir.join("images")).unwrap();
    std::fs::write(
        dir.join("own.zrf"),
        "(game (title \"own\") (players White Black) (turn-order White Black)
           (board (image \"images/board.bmp\")
             (grid (start-rectangle 0 0 40 40) (dimensions (\"a/b\" (40 0)) (\"2/1\" (0 40)))
                   (directions (n 0 -1) (e 1 0))))
           (piece (name Man) (image White \"images/w.bmp\" Black \"images/b.bmp\") (moves (n add)))
           (board-setup (White (Man a1)) (Black (Man b2))))\n",
    )
    .unwrap();
    // The author's white man: a 20×20 red square with a key border; no black image exists.
    let mut man = tiny_skia::Pixmap::new(20, 20).unwrap();
    man.fill(tiny_skia::Color::from_rgba8(0, 255, 0, 255));
    let mut red = tiny_skia::Paint::default();
    red.set_color_rgba8(200, 10, 10, 255);
    man.fill_rect(
        tiny_skia::Rect::from_xywh(2.0, 2.0, 16.0, 16.0).unwrap(),
        &red,
        tiny_skia::Transform::identity(),
        None,
    );
    std::fs::write(
        dir.join("images/w.bmp"),
        zogkit::render::bmp::encode_bmp(&man),
    )
    .unwrap();
    let out = dir.join("set");
    let (code, _, err) = run(&[
        "render",
        dir.join("own.zrf").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--start",
        "--format",
        "png",
    ]);
    assert_eq!(code, 0, "{err}");
    let start = tiny_skia::Pixmap::load_png(out.join("start.png")).unwrap();
    let at = |x, y| {
        let p = start.pixel(x, y).unwrap();
        (p.red(), p.green(), p.blue())
    };
    // a1's rectangle is (0 40 40 80): its centre shows the author's red, the key around it
    // shows the board; b2 (40 0 80 40) holds a drawn token, not red and not the board fill.
    assert_eq!(at(20, 60), (200, 10, 10));
    assert_ne!(at(20 - 9, 60), (0, 255, 0));
    assert_ne!(at(60, 20), (200, 10, 10));
    assert_ne!(at(60, 20), (0xDE, 0xB8, 0x78));
}
