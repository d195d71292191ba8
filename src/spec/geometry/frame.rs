//! One direction frame for grid boards (direction names as vectors, checked against the links), the `d+dx+dy` vector names, and the one rectangular board builder.

use crate::spec::{Board, Dimension, Grid, GridDirection, Layout, Symmetry};
use std::collections::BTreeMap;

/// A cell's side in the boards [`rectangle`] builds.
pub const CELL: i64 = 50;

/// The name of the direction along vector (`dx`, `dy`): `d+1+2`, `d+0-1`, `d-12+0`.
pub fn vector_name(dx: i64, dy: i64) -> String {
    format!("d{dx:+}{dy:+}")
}

/// The vector a [`vector_name`] names (`None`: not such a name).
pub fn parse_vector_name(name: &str) -> Option<(i64, i64)> {
    let rest = name.strip_prefix('d')?;
    let split = rest.get(1..)?.find(['+', '-'])? + 1;
    let (a, b) = rest.split_at(split);
    let num = |s: &str| -> Option<i64> {
        let digits = s.strip_prefix(['+', '-'])?;
        (!digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    Some((num(a)?, num(b)?))
}

/// The label of file `x` (0-based): `a` … `z`, then `aa`, `ab`, … .
pub fn file_label(x: usize) -> String {
    let mut file = String::new();
    let mut n = x + 1;
    while n > 0 {
        n -= 1;
        file.insert(0, (b'a' + (n % 26) as u8) as char);
        n /= 26;
    }
    file
}

/// The rectangular board of `files` × `ranks` squares (files `a`…, ranks `1`… upwards), with
/// one direction per vector (`+dx` to the right, `+dy` up), named by [`vector_name`], and the
/// symmetry of player `second`: each vector to `mirror(vector)`.
pub fn rectangle(
    files: usize,
    ranks: usize,
    vectors: &[(i64, i64)],
    second: &str,
    mirror: impl Fn((i64, i64)) -> (i64, i64),
) -> Board {
    let h = ranks as i64;
    let layout = Layout {
        grids: vec![Grid {
            start_rectangle: [0, (h - 1) * CELL, CELL, h * CELL],
            dimensions: vec![
                Dimension {
                    labels: (0..files).map(file_label).collect(),
                    offset: [CELL, 0],
                },
                Dimension {
                    labels: (1..=ranks).map(|r| r.to_string()).collect(),
                    offset: [0, -CELL],
                },
            ],
            directions: vectors
                .iter()
                .map(|&(dx, dy)| GridDirection {
                    name: vector_name(dx, dy),
                    delta: vec![dx, dy],
                })
                .collect(),
        }],
        ..Layout::default()
    };
    let (computed, _) = super::compute(&layout);
    let name = |(dx, dy): (i64, i64)| vector_name(dx, dy);
    Board {
        opposites: super::opposites(&computed.directions, &computed.positions),
        directions: computed.directions,
        positions: computed.positions,
        symmetries: vec![Symmetry {
            player: second.to_string(),
            map: vectors
                .iter()
                .map(|&v| [name(v), name(mirror(v))])
                .collect(),
        }],
        layout,
        ..Board::default()
    }
}

/// Why a board has no [`Axes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoAxes {
    /// The board has no grid.
    NoGrid,
    /// Its first grid does not have exactly two dimensions.
    NotTwoDimensions,
    /// Its dimensions are not one horizontal and one vertical.
    NotRowsAndColumns,
}

/// The first grid's two axes: the dimension that runs across the picture and the one that
/// runs up it, with the sign that makes each grow rightwards and upwards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Axes {
    /// The horizontal dimension.
    pub across: usize,
    /// The vertical dimension.
    pub up: usize,
    /// +1 when the horizontal dimension's labels run rightwards, −1 otherwise.
    pub sx: i64,
    /// +1 when the vertical dimension's labels run upwards, −1 otherwise.
    pub sy: i64,
}

/// The axes of `board`'s first grid.
pub fn axes(board: &Board) -> Result<Axes, NoAxes> {
    let grid = board.layout.grids.first().ok_or(NoAxes::NoGrid)?;
    if grid.dimensions.len() != 2 {
        return Err(NoAxes::NotTwoDimensions);
    }
    let find = |f: fn(&[i64; 2]) -> bool| grid.dimensions.iter().position(|d| f(&d.offset));
    let across = find(|o| o[0] != 0 && o[1] == 0);
    let up = find(|o| o[0] == 0 && o[1] != 0);
    let (Some(across), Some(up)) = (across, up) else {
        return Err(NoAxes::NotRowsAndColumns);
    };
    Ok(Axes {
        across,
        up,
        sx: grid.dimensions[across].offset[0].signum(),
        sy: -grid.dimensions[up].offset[1].signum(),
    })
}

/// Every direction of `board`'s first grid as a vector (`+x` rightwards, `+y` up the
/// picture), checked against the links: a link of a grid position along a direction leads to
/// the grid position the vector names (links the grid never made, to other places, are an
/// error; a missing link is not, as killed positions have none).
pub fn frame(board: &Board) -> Result<BTreeMap<String, (i64, i64)>, String> {
    let ax = axes(board).map_err(|e| format!("{e:?}"))?;
    let grid = &board.layout.grids[0];
    let mut out = BTreeMap::new();
    for gd in &grid.directions {
        let comp = |i: usize| gd.delta.get(i).copied().unwrap_or(0);
        out.insert(
            gd.name.clone(),
            (comp(ax.across) * ax.sx, comp(ax.up) * ax.sy),
        );
    }
    let at: BTreeMap<&str, (i64, i64)> = board
        .positions
        .iter()
        .filter_map(|p| {
            let g = p
                .grid
                .as_ref()
                .filter(|g| g.grid == 0 && g.coords.len() == 2)?;
            let c = |i: usize| g.coords[i] as i64;
            Some((p.name.as_str(), (c(ax.across) * ax.sx, c(ax.up) * ax.sy)))
        })
        .collect(); // lookup only
    for p in &board.positions {
        let Some(&(x, y)) = at.get(p.name.as_str()) else {
            continue;
        };
        for l in &p.links {
            if let (Some(&(dx, dy)), Some(&to)) = (out.get(&l.direction), at.get(l.to.as_str()))
                && to != (x + dx, y + dy)
            {
                return Err(format!(
                    "direction `{}` is not one vector on this board (from `{}` it leads to `{}`)",
                    l.direction, p.name, l.to
                ));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_names_round_trip() {
        for (dx, dy, name) in [(1, 2, "d+1+2"), (0, -1, "d+0-1"), (-12, 0, "d-12+0")] {
            assert_eq!(vector_name(dx, dy), name);
            assert_eq!(parse_vector_name(name), Some((dx, dy)));
        }
        for bad in ["n", "d", "dé+1", "d1+2", "d+1", "d++1+2", "d+1+"] {
            assert_eq!(parse_vector_name(bad), None, "{bad}");
        }
        assert_eq!(file_label(0), "a");
        assert_eq!(file_label(25), "z");
        assert_eq!(file_label(26), "aa");
    }

    #[test]
    fn a_rectangle_has_its_frame_and_a_bent_link_is_caught() {
        let mut b = rectangle(3, 2, &[(1, 0), (0, 1), (1, 1)], "Black", |(x, y)| (-x, -y));
        assert_eq!(b.positions.len(), 6);
        let f = frame(&b).unwrap();
        assert_eq!(f["d+1+0"], (1, 0));
        assert_eq!(f["d+1+1"], (1, 1));
        assert_eq!(
            b.symmetries[0].map[0],
            ["d+1+0".to_string(), "d-1+0".to_string()]
        );
        // Bend one link: the frame no longer holds.
        let a1 = b.positions.iter_mut().find(|p| p.name == "a1").unwrap();
        let l = a1
            .links
            .iter_mut()
            .find(|l| l.direction == "d+1+0")
            .unwrap();
        l.to = "c2".into();
        assert!(frame(&b).unwrap_err().contains("not one vector"));
        assert_eq!(axes(&Board::default()), Err(NoAxes::NoGrid));
    }
}
