//! A whole image set from a [`RenderPlan`]: the board, its checkered twin and one tile per piece
//! face and side, encoded (BMP or PNG) and run through every validator, plus the manifest and
//! ZRF fragment that describe them. Pure: returns bytes for the caller to write.

use super::bmp::{decode_bmp, encode_bmp};
use super::board::BoardColours;
use super::board::{BoardGeometry, BoardStyle, Zone, render_board};
use super::compose::{Placement, compose_position};
use super::fonts::FontSet;
use super::game::PiecePlan;
use super::game::{ImageFormat, RenderPlan};
use super::images::{ImageManifest, zrf_fragment};
pub use super::own::OwnImages;
use super::sheet::{Sheet, draw_sheet, validate_sheet};
use super::tile::{TileStyle, render_tile_pair};
use super::token::{self, PieceStyle, render_token};
use super::validate::{
    Location, ValidationError, validate_bmp, validate_board, validate_pair, validate_tile,
    validate_tile_fits, validate_token,
};
use super::{AxisLabels, RenderError, RenderWarning, Rgb, Side};
use rayon::prelude::*;
use std::collections::BTreeMap;
use tiny_skia::Pixmap;

/// Options of [`render_set`].
#[derive(Debug, Clone)]
pub struct SetOptions {
    /// BMP (ZoG) or PNG.
    pub format: ImageFormat,
    /// List the checkered board first in `(image …)`, making it the default board.
    pub checkered_first: bool,
    /// Draw the grid's labels in a margin around the board.
    pub labels: bool,
    /// Shade the cells of the board's zones.
    pub zones: bool,
    /// Colour of shaded zone cells.
    pub zone_colour: Rgb,
    /// Draw for a preview (the catalogue): no checkered twin, no encoded bytes
    /// ([`OutputFile::bytes`] stay empty), and the validators run on the drawn pictures rather
    /// than on decoded files.
    pub preview: bool,
}

impl Default for SetOptions {
    fn default() -> Self {
        SetOptions {
            format: ImageFormat::Bmp,
            checkered_first: false,
            labels: false,
            zones: false,
            zone_colour: Rgb(0xEB, 0xCF, 0x98),
            preview: false,
        }
    }
}

/// What a written file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A board image.
    Board,
    /// A piece tile.
    Tile,
}

/// One file to write.
#[derive(Debug, Clone)]
pub struct OutputFile {
    /// Path relative to the output directory, `/`-separated.
    pub path: String,
    /// Encoded image.
    pub bytes: Vec<u8>,
    /// Board or tile.
    pub kind: FileKind,
}

/// A rendered, encoded and validated image set.
#[derive(Debug, Clone)]
pub struct RenderedSet {
    /// Files in a stable order: board, checkered board, then each piece's tiles.
    pub files: Vec<OutputFile>,
    /// Rendering warnings (missing glyphs name the character and the piece).
    pub warnings: Vec<RenderWarning>,
    /// Validator failures on the encoded files; empty when everything passed.
    pub errors: Vec<ValidationError>,
    /// The board's cells as drawn (label margin included).
    pub sheet: Sheet,
    /// Plain and checkered board pictures.
    pub boards: [Pixmap; 2],
    /// Per piece of the plan: its tiles per player (same order as the plan's tiles).
    pub tiles: Vec<Vec<Pixmap>>,
    /// The manifest of the files.
    pub manifest: ImageManifest,
    /// The ZRF fragment declaring them.
    pub fragment: String,
}

impl RenderedSet {
    /// Number of board and tile files.
    pub fn count(&self, kind: FileKind) -> usize {
        self.files.iter().filter(|f| f.kind == kind).count()
    }
}

/// The board style of a grid zogkit lays out (unit, labels, zones); `None` when the plan
/// draws the positions at their own rectangles.
pub fn board_style(plan: &RenderPlan, opts: &SetOptions) -> Option<BoardStyle> {
    let b = &plan.board;
    let grid = b.grid.as_ref()?;
    let mut style = BoardStyle::new(grid.files, grid.ranks);
    style.unit = grid.unit;
    if opts.labels {
        style.labels = Some(AxisLabels {
            files: grid.x.labels.clone(),
            ranks: grid.y.labels.clone(),
        });
    }
    if opts.zones {
        for z in b.zones.iter().filter(|z| !z.cells.is_empty()) {
            style.zones.push(Zone {
                cells: z
                    .cells
                    .iter()
                    .map(|&i| ((i as u32) % grid.files, (i as u32) / grid.files))
                    .collect(),
                colour: opts.zone_colour,
            });
        }
    }
    Some(style)
}

/// The two board pictures (plain, checkered) with what validates them.
struct Boards {
    plain: Pixmap,
    checkered: Pixmap,
    warnings: Vec<RenderWarning>,
    /// The grid's geometry when zogkit laid it out.
    geometry: Option<BoardGeometry>,
    /// The sheet as drawn (label margin included).
    sheet: Sheet,
    zones: BTreeMap<usize, Rgb>,
}

fn draw_boards(
    plan: &RenderPlan,
    opts: &SetOptions,
    fonts: &FontSet,
) -> Result<Boards, RenderError> {
    if let Some(style) = board_style(plan, opts) {
        let geometry = BoardGeometry::of(&style);
        let mut checkered = style.clone();
        checkered.checkered = true;
        let a = render_board(&style, fonts)?;
        let b = render_board(&checkered, fonts)?;
        let mut sheet = Sheet::of_grid(
            geometry.files,
            geometry.ranks,
            geometry.unit,
            geometry.margin,
        );
        sheet.style = plan.board.sheet.style;
        return Ok(Boards {
            plain: a.pixmap,
            checkered: b.pixmap,
            warnings: a.warnings,
            geometry: Some(geometry),
            sheet,
            zones: BTreeMap::new(),
        });
    }
    let sheet = plan.board.sheet.clone();
    let mut zones = BTreeMap::new();
    if opts.zones {
        for z in &plan.board.zones {
            zones.extend(z.cells.iter().map(|&c| (c, opts.zone_colour)));
        }
    }
    let colours = BoardColours::default();
    let plain = draw_sheet(&sheet, &colours, false, &zones)?;
    let checkered = match opts.preview {
        true => plain.clone(),
        false => draw_sheet(&sheet, &colours, true, &zones)?,
    };
    Ok(Boards {
        plain,
        checkered,
        warnings: Vec::new(),
        geometry: None,
        sheet,
        zones,
    })
}

/// Renders, encodes and validates every image of `plan`. Validation failures are returned in
/// [`RenderedSet::errors`], not as an `Err`: the caller decides (the CLI refuses to write).
pub fn render_set(
    plan: &RenderPlan,
    opts: &SetOptions,
    fonts: &FontSet,
) -> Result<RenderedSet, RenderError> {
    let tile = match &plan.board.grid {
        Some(g) => g.unit.saturating_sub(1),
        None => plan.board.sheet.tile,
    };
    if tile < 12 {
        return Err(RenderError::Size(format!(
            "cells leave {tile}-px tiles; pieces need at least 12 px (use --unit)"
        )));
    }
    let tile_style = TileStyle::with_size(tile);
    let palette = token::player_palette(&plan.players);
    let (boards, tiles) = rayon::join(
        || draw_boards(plan, opts, fonts),
        || {
            plan.pieces
                .par_iter()
                .map(|p| piece_tiles_of(p, &palette, &tile_style, fonts))
                .collect::<Result<Vec<_>, _>>()
        },
    );
    let boards = boards?;
    let tiles = tiles?;
    let mut warnings: Vec<RenderWarning> = boards.warnings.clone();
    let encode = |p: &Pixmap| -> Result<Vec<u8>, RenderError> {
        if opts.preview {
            return Ok(Vec::new());
        }
        match opts.format {
            ImageFormat::Bmp => Ok(encode_bmp(p)),
            ImageFormat::Png => p
                .encode_png()
                .map_err(|e| RenderError::Size(format!("PNG encoding failed: {e}"))),
        }
    };
    let b = &plan.board;
    // A points or lines board has no checkered twin: both pictures would be the same.
    let twin = boards.sheet.style.has_twin() && !opts.preview;
    let mut files = vec![OutputFile {
        path: b.file.clone(),
        bytes: encode(&boards.plain)?,
        kind: FileKind::Board,
    }];
    if twin {
        files.push(OutputFile {
            path: b.checkered_file.clone(),
            bytes: encode(&boards.checkered)?,
            kind: FileKind::Board,
        });
    }
    let n_boards = files.len();
    let mut piece_tiles = Vec::with_capacity(tiles.len());
    for (p, (warned, pixmaps)) in plan.pieces.iter().zip(tiles) {
        for mut w in warned {
            w.subject = format!("piece {}", p.piece);
            if p.text != p.piece {
                w.subject.push_str(&format!(" (drawn as {})", p.text));
            }
            warnings.push(w);
        }
        for (t, pix) in p.tiles.iter().zip(&pixmaps) {
            files.push(OutputFile {
                path: t.file.clone(),
                bytes: encode(pix)?,
                kind: FileKind::Tile,
            });
        }
        piece_tiles.push(pixmaps);
    }
    let mut errors = match &boards.geometry {
        Some(g) => validate_tile_fits(tile_style.size, g.unit, "tiles"),
        None => Vec::new(),
    };
    let drawn: Vec<&Pixmap> = [&boards.plain, &boards.checkered][..n_boards]
        .iter()
        .copied()
        .chain(piece_tiles.iter().flatten())
        .collect();
    errors.extend(validate_files(
        plan,
        opts,
        &files,
        &drawn,
        n_boards,
        &boards,
        &tile_style,
    ));
    let board_files = files[..n_boards].iter().map(|f| f.path.clone());
    let board_files: Vec<String> = if opts.checkered_first {
        board_files.rev().collect()
    } else {
        board_files.collect()
    };
    let manifest = ImageManifest::of(plan, boards.geometry.as_ref(), board_files);
    let fragment = zrf_fragment(plan, &manifest);
    Ok(RenderedSet {
        files,
        warnings,
        errors,
        sheet: boards.sheet,
        boards: [boards.plain, boards.checkered],
        tiles: piece_tiles,
        manifest,
        fragment,
    })
}

/// One piece's tiles, one per tile of the plan (pentagons: the first player's and its 180°
/// rotation; tokens and chess men: each player's palette colour), with the first tile's
/// warnings.
fn piece_tiles_of(
    p: &PiecePlan,
    palette: &[usize],
    tile_style: &TileStyle,
    fonts: &FontSet,
) -> Result<(Vec<RenderWarning>, Vec<Pixmap>), RenderError> {
    if p.style == PieceStyle::Pentagon {
        let (first, second) = render_tile_pair(&p.text, p.class, tile_style, fonts)?;
        let tiles = p
            .tiles
            .iter()
            .map(|t| match t.side {
                Side::First => first.pixmap.clone(),
                Side::Second => second.clone(),
            })
            .collect();
        return Ok((first.warnings, tiles));
    }
    let mut warnings = None;
    let mut tiles = Vec::with_capacity(p.tiles.len());
    for t in &p.tiles {
        let colour = palette.get(t.index).copied().unwrap_or(t.index);
        let r = render_token(&p.text, p.style, colour, tile_style.size, fonts)?;
        warnings.get_or_insert(r.warnings);
        tiles.push(r.pixmap);
    }
    Ok((warnings.unwrap_or_default(), tiles))
}

/// Decodes the encoded files and runs every validator on what will be written.
fn validate_files(
    plan: &RenderPlan,
    opts: &SetOptions,
    files: &[OutputFile],
    drawn: &[&Pixmap],
    n_boards: usize,
    boards: &Boards,
    tile_style: &TileStyle,
) -> Vec<ValidationError> {
    let mut errors = Vec::new();
    let decoded: Vec<Option<Pixmap>> = if opts.preview {
        Vec::new()
    } else {
        decode_files(opts, files, &mut errors)
    };
    let pixmaps: Vec<Option<&Pixmap>> = match opts.preview {
        true => drawn.iter().map(|&p| Some(p)).collect(),
        false => decoded.iter().map(Option::as_ref).collect(),
    };
    validate_pictures(
        plan,
        files,
        &pixmaps,
        n_boards,
        boards,
        tile_style,
        &mut errors,
    );
    errors
}

/// The written files decoded again (BMP headers checked), `None` where decoding failed.
fn decode_files(
    opts: &SetOptions,
    files: &[OutputFile],
    errors: &mut Vec<ValidationError>,
) -> Vec<Option<Pixmap>> {
    let decoded: Vec<(Result<Pixmap, ValidationError>, Vec<ValidationError>)> = files
        .par_iter()
        .map(|f| {
            let mut errs = Vec::new();
            if opts.format == ImageFormat::Bmp
                && let Err(e) = validate_bmp(&f.bytes, &f.path)
            {
                errs.extend(e);
            }
            let pix = decode(&f.bytes, opts.format).map_err(|m| ValidationError {
                check: "decode",
                subject: f.path.clone(),
                location: Location::Image,
                message: m,
            });
            (pix, errs)
        })
        .collect();
    let mut pixmaps: Vec<Option<Pixmap>> = Vec::with_capacity(files.len());
    for (pix, errs) in decoded {
        errors.extend(errs);
        match pix {
            Ok(p) => pixmaps.push(Some(p)),
            Err(e) => {
                errors.push(e);
                pixmaps.push(None);
            }
        }
    }
    pixmaps
}

/// The board and tile validators on the pictures as written (decoded) or drawn (previews).
fn validate_pictures(
    plan: &RenderPlan,
    files: &[OutputFile],
    pixmaps: &[Option<&Pixmap>],
    n_boards: usize,
    boards: &Boards,
    tile_style: &TileStyle,
    errors: &mut Vec<ValidationError>,
) {
    let colours = BoardColours::default();
    for (i, checkered) in [false, true].into_iter().enumerate().take(n_boards) {
        let Some(p) = &pixmaps[i] else { continue };
        match &boards.geometry {
            Some(g) => errors.extend(validate_board(p, g, &colours, &files[i].path)),
            None => errors.extend(validate_sheet(
                p,
                &boards.sheet,
                &colours,
                checkered,
                &boards.zones,
                &files[i].path,
            )),
        }
    }
    let mut k = n_boards;
    for p in &plan.pieces {
        let first_idx = k;
        for t in &p.tiles {
            if let Some(pix) = &pixmaps[k] {
                errors.extend(match p.style {
                    PieceStyle::Pentagon => validate_tile(pix, tile_style, t.side, &files[k].path),
                    _ => validate_token(pix, tile_style.size, &files[k].path),
                });
            }
            k += 1;
        }
        if p.style == PieceStyle::Pentagon
            && p.tiles.len() == 2
            && let (Some(a), Some(b)) = (&pixmaps[first_idx], &pixmaps[first_idx + 1])
        {
            errors.extend(validate_pair(
                a,
                b,
                &format!("{} / {}", files[first_idx].path, files[first_idx + 1].path),
            ));
        }
    }
}

fn decode(bytes: &[u8], format: ImageFormat) -> Result<Pixmap, String> {
    match format {
        ImageFormat::Bmp => decode_bmp(bytes).map_err(|e| e.to_string()),
        ImageFormat::Png => Pixmap::decode_png(bytes).map_err(|e| e.to_string()),
    }
}

/// The start position of `plan`: the plain board with every setup piece placed, each centred on
/// its cell (pentagons of the first player point up, the second player's down; tokens and
/// chess men stand upright in their player's colour).
pub fn compose_start(plan: &RenderPlan, set: &RenderedSet) -> Pixmap {
    compose_start_with(plan, set, &OwnImages::default())
}

/// [`compose_start`] with the author's own pictures where they exist: their board as the
/// background (over the drawn one where it is smaller) and their piece images in place of the
/// drawn tiles.
pub fn compose_start_with(plan: &RenderPlan, set: &RenderedSet, own: &OwnImages) -> Pixmap {
    let placements: Vec<Placement<'_>> = plan
        .setup
        .iter()
        .filter_map(|c| {
            let tiles = set.tiles.get(c.piece)?;
            let i = plan.pieces[c.piece]
                .tiles
                .iter()
                .position(|t| t.index == c.player)?;
            let mine = own.tiles.get(c.piece).and_then(|t| t.get(i)?.as_ref());
            let tile = mine.unwrap_or(&tiles[i]);
            let (x, y) = set.sheet.tile_origin(c.cell, tile.width(), tile.height());
            Some(Placement { x, y, tile })
        })
        .collect();
    match &own.board {
        Some(b) => compose_position(&overlay(&set.boards[0], b), &placements),
        None => compose_position(&set.boards[0], &placements),
    }
}

/// `top` drawn over `drawn` from the top left corner, on a picture as large as either.
pub fn overlay(drawn: &Pixmap, top: &Pixmap) -> Pixmap {
    if top.width() >= drawn.width() && top.height() >= drawn.height() {
        return top.clone();
    }
    let (w, h) = (
        drawn.width().max(top.width()),
        drawn.height().max(top.height()),
    );
    let Some(mut out) = Pixmap::new(w, h) else {
        return drawn.clone();
    };
    let paint = tiny_skia::PixmapPaint::default();
    let id = tiny_skia::Transform::identity();
    out.draw_pixmap(0, 0, drawn.as_ref(), &paint, id, None);
    out.draw_pixmap(0, 0, top.as_ref(), &paint, id, None);
    out
}
