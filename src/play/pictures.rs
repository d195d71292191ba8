//! The pictures `play` serves: the board drawn by the renderer (positions at their own
//! rectangles, or a grid laid out anew when those cannot be drawn) and one tile per piece type
//! and player, as PNG — the author's own board and piece pictures where the rule file names
//! them and the caller read them —; the cells' rectangles on that picture for the page to
//! click.

use crate::engine::Rules;
use crate::render::game::PlanOptions;
use crate::render::own::{AuthorFiles, OwnImages, key_transparent};
use crate::render::set::{SetOptions, overlay, render_set};
use crate::render::sheet::draw_sheet;
use crate::render::{BoardColours, FontSet, ImageFormat, from_spec};
use crate::spec::Document;
use std::collections::BTreeMap;

/// Cell size in pixels when a board's own rectangles cannot be drawn (the catalogue's too).
const FALLBACK_UNIT: u32 = 36;

/// A cell of the drawn board: a position and its rectangle `[x1, y1, x2, y2]` in the picture
/// (the interior, where a piece's tile is centred).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Cell {
    pub name: String,
    pub rect: [i64; 4],
}

/// What the page draws with.
#[derive(Debug, Clone, Default)]
pub(super) struct Pictures {
    /// Picture size.
    pub width: u32,
    pub height: u32,
    /// The drawn board's cells; for a board that could not be drawn, the spec's rectangles.
    pub cells: Vec<Cell>,
    /// The files served under `/img/`, by name (`board.png`, `tile-K-P.png`).
    pub files: BTreeMap<String, Vec<u8>>,
    /// Per engine piece type, per player: the tile's file name, when drawn.
    pub tiles: Vec<Vec<Option<String>>>,
    /// Why the board is not drawn, when it is not.
    pub note: Option<String>,
    /// The author's pictures named but not used, and why.
    pub own_notes: Vec<String>,
}

impl Pictures {
    /// The pictures of game `index` of `doc`, whose compiled rules are `rules`, with the
    /// author's pictures in `own` where they are.
    pub(super) fn draw(doc: &Document, index: usize, rules: &Rules, own: &AuthorFiles) -> Pictures {
        let fonts = FontSet::bundled();
        let game = (doc, index, own);
        match attempt(game, rules, None, &fonts) {
            Ok(p) => p,
            Err(first) => attempt(game, rules, Some(FALLBACK_UNIT), &fonts)
                .unwrap_or_else(|_| plain(doc, index, rules, first)),
        }
    }
}

fn attempt(
    (doc, index, author): (&Document, usize, &AuthorFiles),
    rules: &Rules,
    unit: Option<u32>,
    fonts: &FontSet,
) -> Result<Pictures, String> {
    let opts = PlanOptions {
        format: ImageFormat::Bmp,
        unit,
        redraw: unit.is_some(),
        ..Default::default()
    };
    let plan = from_spec(doc, index, &opts).map_err(|e| e.to_string())?;
    let set_opts = SetOptions {
        preview: true,
        ..Default::default()
    };
    let set = render_set(&plan, &set_opts, fonts).map_err(|e| e.to_string())?;
    let (own, own_notes) = OwnImages::of(doc, index, &plan, author);
    let sheet = &set.sheet;
    let mut files = BTreeMap::new();
    let png = |p: &tiny_skia::Pixmap| p.encode_png().map_err(|e| format!("PNG: {e}"));
    // The checkered twin (a preview set draws none), as ZoG players see boards.
    let drawn = match sheet.style.has_twin() {
        false => set.boards[0].clone(),
        true => draw_sheet(sheet, &BoardColours::default(), true, &BTreeMap::new())
            .unwrap_or_else(|_| set.boards[0].clone()),
    };
    let board = match &own.board {
        Some(b) => overlay(&drawn, b),
        None => drawn,
    };
    files.insert("board.png".to_string(), png(&board)?);
    let e = 1 - sheet.inset;
    let cells = sheet
        .cells
        .iter()
        .map(|c| {
            let [x1, y1, x2, y2] = c.rect;
            Cell {
                name: c.name.clone(),
                rect: [x1 + e, y1 + e, x2, y2],
            }
        })
        .collect();
    let mut tiles = vec![vec![None; rules.players.len()]; rules.kinds.len()];
    for (k, kind) in rules.kinds.iter().enumerate() {
        let Some(pi) = plan.pieces.iter().position(|p| p.piece == kind.name) else {
            continue;
        };
        for (ti, t) in plan.pieces[pi].tiles.iter().enumerate() {
            let (Some(pix), Some(slot)) = (
                set.tiles.get(pi).and_then(|v| v.get(ti)),
                tiles[k].get_mut(t.index),
            ) else {
                continue;
            };
            let mine = own.tiles.get(pi).and_then(|v| v.get(ti)?.as_ref());
            let tile = match mine {
                Some(p) => p.clone(),
                None => {
                    let mut p = pix.clone();
                    key_transparent(&mut p);
                    p
                }
            };
            let name = format!("tile-{k}-{}.png", t.index);
            files.insert(name.clone(), png(&tile)?);
            *slot = Some(name);
        }
    }
    Ok(Pictures {
        width: board.width(),
        height: board.height(),
        cells,
        files,
        tiles,
        note: None,
        own_notes,
    })
}

/// No picture: the spec's own rectangles (or a row of cells for positions without one), for
/// the page to draw as plain cells.
fn plain(doc: &Document, index: usize, rules: &Rules, why: String) -> Pictures {
    let mut cells = Vec::new();
    let positions = doc.games[index]
        .boards
        .first()
        .map(|b| b.positions.as_slice())
        .unwrap_or_default();
    for (i, p) in positions
        .iter()
        .filter(|p| !p.dummy && !p.killed)
        .enumerate()
    {
        let i = i as i64;
        let rect = p.rect.unwrap_or([
            (i % 16) * 40,
            (i / 16) * 40,
            (i % 16) * 40 + 38,
            (i / 16) * 40 + 38,
        ]);
        cells.push(Cell {
            name: p.name.clone(),
            rect,
        });
    }
    let width = cells
        .iter()
        .map(|c| c.rect[2])
        .max()
        .unwrap_or(0)
        .clamp(0, 4096) as u32
        + 1;
    let height = cells
        .iter()
        .map(|c| c.rect[3])
        .max()
        .unwrap_or(0)
        .clamp(0, 4096) as u32
        + 1;
    Pictures {
        width,
        height,
        cells,
        files: BTreeMap::new(),
        tiles: vec![vec![None; rules.players.len()]; rules.kinds.len()],
        note: Some(format!("the board could not be drawn: {why}")),
        own_notes: Vec::new(),
    }
}
