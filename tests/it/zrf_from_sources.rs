//! ZRF that ZoG could load, written from Ludii and Chessembly sources: the written file reads
//! back without errors, every position has a rectangle of its own (non-degenerate, overlapping
//! no other), square boards are written as a `(grid …)`, the read-back game plays as the source
//! (perft 3), its board renders with every validator passing, and the missing piece images are
//! named by one `zrf::emit-no-images` warning that `render` + `convert --with-images` answers.

use crate::common;
use std::path::Path;
use zogkit::format::{self, Format};
use zogkit::render::game::PlanOptions;
use zogkit::render::set::{SetOptions, render_set};
use zogkit::render::{FontSet, from_spec};
use zogkit::spec::Placement;

/// Interiors meet: the rectangles share more than an edge.
fn overlap(a: [i64; 4], b: [i64; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

/// What one source gave: whether its board was written as a grid, and perft(3) of the source
/// and of the written ZRF read back (or why the engine refuses each).
struct Written {
    grid: bool,
    source: Result<u64, String>,
    back: Result<u64, String>,
}

fn check(format: Format, rel: &str) -> Written {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut src = common::read_doc(format, rel, &std::fs::read(repo.join(rel)).unwrap());
    if format == Format::Chessembly {
        // A script is one piece and no setup: one piece each, facing each other, so that
        // perft counts moves and captures.
        let g = &mut src.games[0];
        assert!(g.setup.is_empty(), "{rel}");
        for (player, at) in g.players.clone().into_iter().zip(["d4", "e6"]) {
            g.setup.push(Placement {
                player,
                piece: g.pieces[0].name.clone(),
                positions: vec![at.to_string()],
                off: None,
            });
        }
    }
    let (zrf, diags) = format::write(Format::Zrf, &src).unwrap();
    let no_images = diags
        .iter()
        .filter(|d| d.code == "zrf::emit-no-images")
        .count();
    assert_eq!(
        no_images, 1,
        "{rel}: one warning for the game's missing images"
    );
    let text = String::from_utf8(zrf).unwrap();
    let back = common::read_doc(Format::Zrf, "written.zrf", text.as_bytes());
    let board = &back.games[0].boards[0];
    assert_eq!(
        board.positions.len(),
        src.games[0].boards[0].positions.len(),
        "{rel}"
    );
    let rects: Vec<[i64; 4]> = board
        .positions
        .iter()
        .map(|p| {
            p.rect
                .unwrap_or_else(|| panic!("{rel}: {} has no rectangle", p.name))
        })
        .collect();
    for (i, a) in rects.iter().enumerate() {
        assert!(a[2] > a[0] && a[3] > a[1], "{rel}: degenerate {a:?}");
        for b in &rects[i + 1..] {
            assert!(!overlap(*a, *b), "{rel}: {a:?} overlaps {b:?}");
        }
    }
    let plan = from_spec(&back, 0, &PlanOptions::default()).unwrap();
    let set = render_set(&plan, &SetOptions::default(), &FontSet::bundled()).unwrap();
    assert!(set.errors.is_empty(), "{rel}: {:?}", set.errors);
    Written {
        grid: text.contains("(grid"),
        source: common::perft3_first(&src),
        back: common::perft3_first(&back),
    }
}

/// The Ludii games: every one written with rectangles and rendered; where the engine runs the
/// source and the written file, the same perft(3). The others are listed with the engine's
/// reason, so that a change on either side shows here.
#[test]
fn ludii_games_write_zrf_with_rectangles_that_plays_the_same() {
    for (file, grid) in [
        ("chess.lud", true),
        ("xiangqi.lud", true),
        ("shogi.lud", true),
        ("draughts.lud", true),
        ("tictactoe.lud", true),
        ("hex.lud", false),
    ] {
        let w = check(Format::Lud, &format!("corpus/ludii/{file}"));
        assert_eq!(w.grid, grid, "{file}: written as a grid");
        eprintln!(
            "{file}: perft(3) source {:?}, written {:?}",
            w.source, w.back
        );
        match file {
            // The King's capture has no typed form: the engine refuses the source (and the
            // ZRF writer leaves the untyped move out).
            "draughts.lud" => assert!(
                w.source.as_ref().is_err_and(|e| e.contains("`King`")),
                "{file}: {:?}",
                w.source
            ),
            // `(is Line 3)` and `(is Connected …)` have no ZRF form: the written goal is a
            // placeholder the engine refuses.
            "tictactoe.lud" | "hex.lud" => {
                assert!(
                    w.back
                        .as_ref()
                        .is_err_and(|e| e.contains("line-or-connection")),
                    "{file}: {:?}",
                    w.back
                );
                if file == "tictactoe.lud" {
                    assert_eq!(w.source, Ok(9 * 8 * 7), "{file}");
                }
            }
            _ => {
                assert!(w.source.is_ok(), "{file}: {:?}", w.source);
                assert_eq!(w.back, w.source, "{file}: the written ZRF plays the same");
            }
        }
    }
}

#[test]
fn chessembly_scripts_write_zrf_with_rectangles_that_plays_the_same() {
    for file in ["rook.csm", "alfil.csm", "bouncing-bishop.csm", "wasp.csm"] {
        let w = check(Format::Chessembly, &format!("corpus/chessembly/{file}"));
        assert!(w.grid, "{file}: written as a grid");
        eprintln!(
            "{file}: perft(3) source {:?}, written {:?}",
            w.source, w.back
        );
        assert!(
            w.source.as_ref().is_ok_and(|n| *n > 0),
            "{file}: {:?}",
            w.source
        );
        assert_eq!(w.back, w.source, "{file}: the written ZRF plays the same");
    }
}

/// The warning's remedy: `render` draws the set, `convert --with-images` writes a ZRF that
/// names every piece's images and warns no more.
#[test]
fn rendered_images_answer_the_warning() {
    let dir = common::scratch_dir("zrf-from-sources");
    let d = dir.to_str().unwrap();
    let out = common::zogkit(&["render", "corpus/ludii/chess.lud", "-o", d]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let zrf = dir.join("chess.zrf");
    let out = common::zogkit(&[
        "convert",
        "corpus/ludii/chess.lud",
        "--to",
        "zrf",
        "--with-images",
        d,
        "-o",
        zrf.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("emit-no-images"), "{stderr}");
    let back = common::read_doc(Format::Zrf, "chess.zrf", &std::fs::read(&zrf).unwrap());
    let g = &back.games[0];
    assert_eq!(g.boards[0].images, ["board.bmp", "board_check.bmp"]);
    for p in &g.pieces {
        assert_eq!(p.images.len(), 2, "{}: one image per player", p.name);
        for i in &p.images {
            assert!(dir.join(&i.file).is_file(), "{} was drawn", i.file);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Nothing is dropped silently: a piece move the Ludii reader kept verbatim (draughts' King) has
/// no ZRF form, and the ZRF writer says so for that piece; a board's Ludii text is not reported,
/// since its positions are written from the typed board.
#[test]
fn foreign_extensions_left_out_are_named() {
    let out = common::zogkit(&[
        "convert",
        "corpus/ludii/draughts.lud",
        "--to",
        "zrf",
        "-o",
        "-",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let e = String::from_utf8_lossy(&out.stderr);
    let lost: Vec<&str> = e
        .lines()
        .filter(|l| l.starts_with("warning[zrf::emit-unsupported]"))
        .collect();
    assert_eq!(
        lost,
        [
            "warning[zrf::emit-unsupported]: piece \"King\": 1 Ludii item(s) of `extensions` have no ZRF form; they are left out"
        ],
        "{e}"
    );
}
