//! A whole image set from a [`RenderPlan`]: the board, its checkered twin and one tile per piece
//! face and side, encoded (BMP or PNG) and run through every validator, plus the manifest and
//! ZRF fragment that describe them. Pure: returns bytes for the caller to write.

use super::bmp::{decode_bmp, encode_bmp};
use super::board::{BoardGeometry, BoardStyle, Zone, render_board};
use super::compose::{Placement, compose_position};
use super::fonts::FontSet;
use super::game::{ImageFormat, RenderPlan};
use super::images::{ImageManifest, zrf_fragment};
use super::tile::{TileStyle, render_tile_pair};
use super::token::{self, PieceStyle, render_token_pair};
use super::validate::{
    Location, ValidationError, validate_bmp, validate_board, validate_pair, validate_tile,
    validate_tile_fits, validate_token,
};
use super::{AxisLabels, RenderError, RenderWarning, Rgb, Side};
use rayon::prelude::*;
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
}

impl Default for SetOptions {
    fn default() -> Self {
        SetOptions {
            format: ImageFormat::Bmp,
            checkered_first: false,
            labels: false,
            zones: false,
            zone_colour: Rgb(0xEB, 0xCF, 0x98),
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
    /// Board pixel geometry.
    pub geometry: BoardGeometry,
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

/// The board style of a plan (unit, labels, zones).
pub fn board_style(plan: &RenderPlan, opts: &SetOptions) -> BoardStyle {
    let b = &plan.board;
    let mut style = BoardStyle::new(b.files, b.ranks);
    style.unit = b.unit;
    if opts.labels {
        style.labels = Some(AxisLabels {
            files: b.x.labels.clone(),
            ranks: b.y.labels.clone(),
        });
    }
    if opts.zones {
        for z in b.zones.iter().filter(|z| !z.cells.is_empty()) {
            style.zones.push(Zone {
                cells: z.cells.clone(),
                colour: opts.zone_colour,
            });
        }
    }
    style
}

/// Renders, encodes and validates every image of `plan`. Validation failures are returned in
/// [`RenderedSet::errors`], not as an `Err`: the caller decides (the CLI refuses to write).
pub fn render_set(
    plan: &RenderPlan,
    opts: &SetOptions,
    fonts: &FontSet,
) -> Result<RenderedSet, RenderError> {
    let style = board_style(plan, opts);
    let geometry = BoardGeometry::of(&style);
    if plan.board.unit < 13 {
        return Err(RenderError::Size(format!(
            "a {}-px unit leaves {}-px tiles; pieces need at least 12 px (use --unit)",
            plan.board.unit,
            plan.board.unit.saturating_sub(1)
        )));
    }
    let tile_style = TileStyle::with_size(plan.board.unit - 1);
    let palette = token::player_palette(&plan.players);
    let colours = [palette[0], palette.get(1).copied().unwrap_or(1)];
    let mut checkered = style.clone();
    checkered.checkered = true;
    let (boards, tiles) = rayon::join(
        || -> Result<_, RenderError> {
            let a = render_board(&style, fonts)?;
            let b = render_board(&checkered, fonts)?;
            Ok([a, b])
        },
        || {
            plan.pieces
                .par_iter()
                .map(|p| match p.style {
                    PieceStyle::Pentagon => render_tile_pair(&p.text, p.class, &tile_style, fonts),
                    style => render_token_pair(&p.text, style, colours, tile_style.size, fonts),
                })
                .collect::<Result<Vec<_>, _>>()
        },
    );
    let [plain, check] = boards?;
    let tiles = tiles?;
    let mut warnings: Vec<RenderWarning> = plain.warnings;
    let encode = |p: &Pixmap| -> Result<Vec<u8>, RenderError> {
        match opts.format {
            ImageFormat::Bmp => Ok(encode_bmp(p)),
            ImageFormat::Png => p
                .encode_png()
                .map_err(|e| RenderError::Size(format!("PNG encoding failed: {e}"))),
        }
    };
    let b = &plan.board;
    let mut files = vec![
        OutputFile {
            path: b.file.clone(),
            bytes: encode(&plain.pixmap)?,
            kind: FileKind::Board,
        },
        OutputFile {
            path: b.checkered_file.clone(),
            bytes: encode(&check.pixmap)?,
            kind: FileKind::Board,
        },
    ];
    let mut piece_tiles = Vec::with_capacity(tiles.len());
    for (p, (first, second)) in plan.pieces.iter().zip(tiles) {
        for mut w in first.warnings {
            w.subject = format!("piece {}", p.piece);
            if p.text != p.piece {
                w.subject.push_str(&format!(" (drawn as {})", p.text));
            }
            warnings.push(w);
        }
        let mut mine = Vec::new();
        for t in &p.tiles {
            let pix = match t.side {
                Side::First => first.pixmap.clone(),
                Side::Second => second.clone(),
            };
            files.push(OutputFile {
                path: t.file.clone(),
                bytes: encode(&pix)?,
                kind: FileKind::Tile,
            });
            mine.push(pix);
        }
        piece_tiles.push(mine);
    }

    // Validate what will be written: decode the encoded bytes and check them.
    let mut errors = validate_tile_fits(tile_style.size, b.unit, "tiles");
    let decoded: Vec<(usize, Result<Pixmap, ValidationError>, Vec<ValidationError>)> = files
        .par_iter()
        .enumerate()
        .map(|(i, f)| {
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
            (i, pix, errs)
        })
        .collect();
    let mut pixmaps: Vec<Option<Pixmap>> = Vec::with_capacity(files.len());
    for (_, pix, errs) in decoded {
        errors.extend(errs);
        match pix {
            Ok(p) => pixmaps.push(Some(p)),
            Err(e) => {
                errors.push(e);
                pixmaps.push(None);
            }
        }
    }
    for (i, colours) in [(0, &style.colours), (1, &checkered.colours)] {
        if let Some(p) = &pixmaps[i] {
            errors.extend(validate_board(p, &geometry, colours, &files[i].path));
        }
    }
    let mut k = 2;
    for p in &plan.pieces {
        let first_idx = k;
        for t in &p.tiles {
            if let Some(pix) = &pixmaps[k] {
                errors.extend(match p.style {
                    PieceStyle::Pentagon => validate_tile(pix, &tile_style, t.side, &files[k].path),
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
    let manifest = ImageManifest::of(plan, &geometry, opts.checkered_first);
    let fragment = zrf_fragment(plan, &manifest);
    Ok(RenderedSet {
        files,
        warnings,
        errors,
        geometry,
        boards: [plain.pixmap, check.pixmap],
        tiles: piece_tiles,
        manifest,
        fragment,
    })
}

fn decode(bytes: &[u8], format: ImageFormat) -> Result<Pixmap, String> {
    match format {
        ImageFormat::Bmp => decode_bmp(bytes).map_err(|e| e.to_string()),
        ImageFormat::Png => Pixmap::decode_png(bytes).map_err(|e| e.to_string()),
    }
}

/// The start position of `plan`: the plain board with every setup piece placed (first player's
/// tiles pointing up, second player's down).
pub fn compose_start(plan: &RenderPlan, set: &RenderedSet) -> Result<Pixmap, RenderError> {
    let placements: Vec<Placement<'_>> = plan
        .setup
        .iter()
        .filter_map(|c| {
            let tiles = set.tiles.get(c.piece)?;
            let i = plan.pieces[c.piece]
                .tiles
                .iter()
                .position(|t| t.side == c.side)?;
            Some(Placement {
                col: c.col,
                row: c.row,
                tile: &tiles[i],
            })
        })
        .collect();
    compose_position(&set.boards[0], &set.geometry, &placements)
}
