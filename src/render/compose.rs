//! Composed position pictures: a board with piece tiles placed on it, key pixels left out.

use super::board::BoardGeometry;
use super::{RenderError, Rgb, put, px};
use tiny_skia::Pixmap;

/// One piece on the board.
#[derive(Debug, Clone, Copy)]
pub struct Placement<'a> {
    /// Column, 0-based from the left of the picture.
    pub col: u32,
    /// Row, 0-based from the top of the picture.
    pub row: u32,
    /// The tile (already oriented for its side).
    pub tile: &'a Pixmap,
}

/// Places tiles on a copy of `board`, each centred on its cell as ZoG does (rendering.md §1.3);
/// `#00FF00` pixels of a tile are transparent. Errors name the first placement that is off the
/// board or does not fit the picture.
pub fn compose_position(
    board: &Pixmap,
    geometry: &BoardGeometry,
    placements: &[Placement<'_>],
) -> Result<Pixmap, RenderError> {
    let mut out = board.clone();
    for (i, p) in placements.iter().enumerate() {
        if p.col >= geometry.files || p.row >= geometry.ranks {
            return Err(RenderError::Size(format!(
                "placement {i} at ({}, {}) is off the {}×{} board",
                p.col, p.row, geometry.files, geometry.ranks
            )));
        }
        let (w, h) = (p.tile.width(), p.tile.height());
        let (x0, y0) = geometry.tile_origin(p.col, p.row, w.max(h));
        if x0 < 0
            || y0 < 0
            || x0 + w as i64 > out.width() as i64
            || y0 + h as i64 > out.height() as i64
        {
            return Err(RenderError::Size(format!(
                "placement {i}: a {w}×{h} tile at ({}, {}) does not fit the picture",
                p.col, p.row
            )));
        }
        for y in 0..h {
            for x in 0..w {
                let (c, a) = px(p.tile, x, y);
                if a == 255 && c != Rgb::KEY {
                    put(&mut out, x0 as u32 + x, y0 as u32 + y, c);
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::board::{BoardStyle, render_board};
    use crate::render::fonts::FontSet;
    use crate::render::tile::{TileSpec, TileStyle, render_tile};
    use crate::render::{ColourClass, Side};

    #[test]
    fn tiles_land_in_cell_interiors_without_key() {
        let fonts = FontSet::bundled();
        let style = BoardStyle::new(3, 3);
        let g = BoardGeometry::of(&style);
        let board = render_board(&style, &fonts).unwrap().pixmap;
        let t = render_tile(
            &TileSpec::new("王", ColourClass::RoyalNeverPromoting, Side::First),
            &TileStyle::default(),
            &fonts,
        )
        .unwrap()
        .pixmap;
        let out = compose_position(
            &board,
            &g,
            &[Placement {
                col: 1,
                row: 2,
                tile: &t,
            }],
        )
        .unwrap();
        // The apex pixel (14,0) of the tile lands at cell (1,2)'s interior origin (32,63) + (14,0).
        assert_eq!(px(&out, 32 + 14, 63).0, TileStyle::default().outline);
        // A key pixel of the tile leaves the board colour.
        assert_eq!(px(&out, 32, 63).0, style.colours.fill);
        // Grid lines are untouched and no key colour anywhere.
        assert_eq!(px(&out, 31, 70).0, Rgb::BLACK);
        assert_eq!(px(&out, 62, 70).0, Rgb::BLACK);
        for y in 0..out.height() {
            for x in 0..out.width() {
                assert_ne!(px(&out, x, y).0, Rgb::KEY);
            }
        }
        assert!(
            compose_position(
                &board,
                &g,
                &[Placement {
                    col: 3,
                    row: 0,
                    tile: &t
                }]
            )
            .is_err()
        );
    }
}
