//! Composed position pictures: a board with piece tiles placed on it, key pixels left out.

use super::{Rgb, put, px};
use tiny_skia::Pixmap;

/// One piece on the board.
#[derive(Debug, Clone, Copy)]
pub struct Placement<'a> {
    /// Left edge of the tile in the picture (may be negative: the tile is clipped).
    pub x: i64,
    /// Top edge of the tile in the picture.
    pub y: i64,
    /// The tile (already oriented for its side).
    pub tile: &'a Pixmap,
}

/// Places tiles on a copy of `board` at their origins (ZoG centres each on its position's
/// rectangle; see `Sheet::tile_origin`); `#00FF00` pixels of a tile are transparent and
/// pixels outside the picture are clipped.
pub fn compose_position(board: &Pixmap, placements: &[Placement<'_>]) -> Pixmap {
    let mut out = board.clone();
    let (bw, bh) = (out.width() as i64, out.height() as i64);
    for p in placements {
        for y in 0..p.tile.height() {
            for x in 0..p.tile.width() {
                let (ox, oy) = (p.x + x as i64, p.y + y as i64);
                if ox < 0 || oy < 0 || ox >= bw || oy >= bh {
                    continue;
                }
                let (c, a) = px(p.tile, x, y);
                if a == 255 && c != Rgb::KEY {
                    put(&mut out, ox as u32, oy as u32, c);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::board::{BoardGeometry, BoardStyle, render_board};
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
        let (x, y) = g.tile_origin(1, 2, t.width());
        let out = compose_position(&board, &[Placement { x, y, tile: &t }]);
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
        // A tile half off the picture is clipped, not refused.
        let edge = compose_position(
            &board,
            &[Placement {
                x: -15,
                y: -15,
                tile: &t,
            }],
        );
        assert_eq!(px(&edge, 0, 0).0, px(&t, 15, 15).0, "the tile's middle");
        assert_eq!(
            (edge.width(), edge.height()),
            (board.width(), board.height())
        );
    }
}
