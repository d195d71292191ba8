//! What was drawn, as data: the [`ImageManifest`] of a rendered set (board files, grid geometry,
//! one image per piece and player), the ZRF fragment declaring it, and [`apply`], which rewrites
//! a spec document's image paths and grid geometry to the rendered files so that any writer
//! (ZRF included) emits them. Pure: the CLI reads and writes the files.

use super::board::BoardGeometry;
use super::game::RenderPlan;
use crate::spec::{Document, EntryKind, PieceImage};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The file name `zogkit render` gives the manifest in its output directory.
pub const MANIFEST_FILE: &str = "images.json";
/// The file name of the ZRF fragment.
pub const FRAGMENT_FILE: &str = "images.zrf";

/// The images of one piece type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestPiece {
    /// Piece name in the spec.
    pub piece: String,
    /// One image per player, first player first.
    pub images: Vec<PieceImage>,
}

/// A rendered image set: paths are relative to the output directory, `/`-separated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageManifest {
    /// Title of the game drawn.
    pub game: String,
    /// Board images in `(image …)` order (the default first).
    pub board: Vec<String>,
    /// The first grid position's rectangle `[x1, y1, x2, y2]` when zogkit laid the grid out;
    /// absent when every position keeps the rule file's own rectangle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_rectangle: Option<[i64; 4]>,
    /// Pixel offset `[dx, dy]` per grid dimension, in the spec's dimension order (with
    /// `start_rectangle`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub offsets: Vec<[i64; 2]>,
    /// Piece images, in spec order.
    pub pieces: Vec<ManifestPiece>,
}

impl ImageManifest {
    /// The manifest of `plan` with its board files in `(image …)` order; `geometry` is the
    /// picture geometry of a grid zogkit laid out (none when positions keep their rectangles).
    pub fn of(
        plan: &RenderPlan,
        geometry: Option<&BoardGeometry>,
        board: Vec<String>,
    ) -> ImageManifest {
        let (mut start_rectangle, mut offsets) = (None, Vec::new());
        if let (Some(grid), Some(geometry)) = (&plan.board.grid, geometry) {
            let unit = geometry.unit as i64;
            let col0 = if grid.x.reversed { grid.files - 1 } else { 0 } as i64;
            let row0 = if grid.y.reversed { grid.ranks - 1 } else { 0 } as i64;
            let m = geometry.margin as i64;
            start_rectangle = Some([
                m + unit * col0 + 1,
                m + unit * row0 + 1,
                m + unit * (col0 + 1),
                m + unit * (row0 + 1),
            ]);
            offsets = vec![[0, 0]; 2];
            offsets[grid.x.dimension] = [if grid.x.reversed { -unit } else { unit }, 0];
            offsets[grid.y.dimension] = [0, if grid.y.reversed { -unit } else { unit }];
        }
        ImageManifest {
            game: plan.title.clone(),
            board,
            start_rectangle,
            offsets,
            pieces: plan
                .pieces
                .iter()
                .map(|p| ManifestPiece {
                    piece: p.piece.clone(),
                    images: p
                        .tiles
                        .iter()
                        .map(|t| PieceImage {
                            player: t.player.clone(),
                            file: t.file.clone(),
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}

/// The ZRF declarations of a rendered set: `(board (image …) …)` and one
/// `(piece (name P) (image Player "file" …))` per piece, to paste into a rule file (or to
/// compare with one). A grid zogkit laid out comes with its `(grid (start-rectangle …)
/// (dimensions …) (directions …))`; boards drawn at the positions' own rectangles need only
/// the images.
pub fn zrf_fragment(plan: &RenderPlan, manifest: &ImageManifest) -> String {
    let mut s = String::new();
    let quoted: Vec<String> = manifest.board.iter().map(|f| format!("\"{f}\"")).collect();
    match (&plan.board.grid, manifest.start_rectangle) {
        (Some(grid), Some([l, t, r, bt])) => {
            let _ = writeln!(
                s,
                "; Images for \"{}\", written by zogkit render: board {}x{}, unit {} px.",
                plan.title,
                grid.files,
                grid.ranks,
                manifest.offsets[grid.x.dimension][0].unsigned_abs()
            );
            let _ = writeln!(
                s,
                "; Paths are relative to this file's folder; put the rule file there or copy the images."
            );
            let _ = writeln!(s, "(board\n  (image {})", quoted.join(" "));
            let _ = writeln!(s, "  (grid\n    (start-rectangle {l} {t} {r} {bt})");
            let mut dims = Vec::new();
            for (i, off) in manifest.offsets.iter().enumerate() {
                let axis = if grid.x.dimension == i {
                    &grid.x
                } else {
                    &grid.y
                };
                let labels: Vec<&str> = if axis.reversed {
                    axis.labels.iter().rev().map(String::as_str).collect()
                } else {
                    axis.labels.iter().map(String::as_str).collect()
                };
                dims.push(format!(
                    "(\"{}\" ({} {}))",
                    labels.join("/"),
                    off[0],
                    off[1]
                ));
            }
            let _ = writeln!(s, "    (dimensions {})", dims.join(" "));
            let dirs: Vec<String> = grid
                .directions
                .iter()
                .map(|(n, d)| {
                    let parts: Vec<String> = (0..manifest.offsets.len())
                        .map(|i| d.get(i).copied().unwrap_or(0).to_string())
                        .collect();
                    format!("({n} {})", parts.join(" "))
                })
                .collect();
            let _ = writeln!(s, "    (directions {})))", dirs.join(" "));
        }
        _ => {
            let _ = writeln!(
                s,
                "; Images for \"{}\", written by zogkit render: {} board, {}x{} px, drawn at the rule file's own position rectangles.",
                plan.title,
                plan.board.sheet.style.slug(),
                plan.board.sheet.width,
                plan.board.sheet.height
            );
            let _ = writeln!(
                s,
                "; Replace the board's (image ...) with this one; its positions stay as they are."
            );
            let _ = writeln!(s, "(board (image {}))", quoted.join(" "));
        }
    }
    for p in &manifest.pieces {
        let imgs: Vec<String> = p
            .images
            .iter()
            .map(|i| format!("{} \"{}\"", i.player, i.file))
            .collect();
        let _ = writeln!(s, "(piece (name {}) (image {}))", p.piece, imgs.join(" "));
    }
    s
}

/// What [`apply`] changed and what it could not match.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Applied {
    /// Indexes of the games rewritten.
    pub games: Vec<usize>,
    /// Pieces given new images (counted once per game).
    pub pieces: usize,
    /// Problems worth a warning (pieces without images, manifest pieces not in a game).
    pub notes: Vec<String>,
}

/// Rewrites `doc` to use the images of `manifest`: the game titled `manifest.game` and its
/// variants get the manifest's board images, grid start rectangle and offsets (with every grid
/// position's rectangle recomputed, so the board stays consistent with its layout), and each
/// piece named in the manifest gets its images. Errors when no game matches the manifest or its
/// grid has a different number of dimensions.
pub fn apply(doc: &mut Document, manifest: &ImageManifest) -> Result<Applied, String> {
    let Some(main) = doc
        .games
        .iter()
        .position(|g| g.kind != EntryKind::Separator && g.title == manifest.game)
    else {
        let titles: Vec<&str> = doc.games.iter().map(|g| g.title.as_str()).collect();
        return Err(format!(
            "the images were drawn for {:?}; the document has {}",
            manifest.game,
            titles.join(", ")
        ));
    };
    let mut out = Applied::default();
    for gi in 0..doc.games.len() {
        let g = &mut doc.games[gi];
        if gi != main && g.variant_of != Some(main) {
            continue;
        }
        let Some(board) = g.boards.first_mut() else {
            continue;
        };
        let Some(start) = manifest.start_rectangle else {
            board.images = manifest.board.clone();
            out.pieces += set_images(g, manifest, &mut out.notes);
            out.games.push(gi);
            continue;
        };
        let Some(grid) = board.layout.grids.first_mut() else {
            continue;
        };
        if grid.dimensions.len() != manifest.offsets.len() {
            if gi == main {
                return Err(format!(
                    "{:?}: the grid has {} dimensions, the images {}",
                    g.title,
                    grid.dimensions.len(),
                    manifest.offsets.len()
                ));
            }
            out.notes.push(format!(
                "variant {:?} has a different grid; its images are left as they are",
                g.title
            ));
            continue;
        }
        board.images = manifest.board.clone();
        grid.start_rectangle = start;
        for (d, off) in grid.dimensions.iter_mut().zip(&manifest.offsets) {
            d.offset = *off;
        }
        let (start, offsets) = (grid.start_rectangle, manifest.offsets.clone());
        for p in &mut board.positions {
            let Some(gc) = p.grid.as_ref().filter(|gc| gc.grid == 0) else {
                continue;
            };
            let (mut dx, mut dy) = (0i64, 0i64);
            for (c, off) in gc.coords.iter().zip(&offsets) {
                dx += *c as i64 * off[0];
                dy += *c as i64 * off[1];
            }
            p.rect = Some([start[0] + dx, start[1] + dy, start[2] + dx, start[3] + dy]);
        }
        out.pieces += set_images(g, manifest, &mut out.notes);
        out.games.push(gi);
    }
    Ok(out)
}

/// Gives the game's pieces the manifest's images; returns how many got them.
fn set_images(
    g: &mut crate::spec::Game,
    manifest: &ImageManifest,
    notes: &mut Vec<String>,
) -> usize {
    let mut n = 0;
    for mp in &manifest.pieces {
        match g.pieces.iter_mut().find(|p| p.name == mp.piece) {
            Some(p) => {
                p.images = mp.images.clone();
                n += 1;
            }
            None => notes.push(format!(
                "{:?} has no piece {} (drawn for {:?})",
                g.title, mp.piece, manifest.game
            )),
        }
    }
    for p in g.pieces.iter().filter(|p| !p.dummy) {
        if !manifest.pieces.iter().any(|m| m.piece == p.name) {
            notes.push(format!(
                "{:?}: piece {} has no rendered image",
                g.title, p.name
            ));
        }
    }
    n
}
