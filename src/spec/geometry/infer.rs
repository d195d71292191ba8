//! Geometry inferred from explicit boards: pixel rectangles from site centres, and the one 2-D grid layout that reproduces a board's positions, rectangles and links.

use super::compute;
use crate::spec::types::{Dimension, Grid, GridDirection, Layout, Position};
use std::collections::BTreeSet;

/// Pixel pitch of neighbouring sites in rectangles computed from centres (the same as
/// Chessembly's squares, `chessembly::lower::CELL`).
pub const UNIT: i64 = 50;

/// Largest pixel coordinate [`rects_from_centres`] gives.
const MAX_COORD: i64 = 1 << 40;

/// One rectangle `[x1, y1, x2, y2]` per centre, for a board whose sites are given by their
/// centres (`y` growing upwards, as in Ludii): the centres are scaled so that `pitch` (the
/// distance of neighbouring sites in the centres' units) becomes [`UNIT`] pixels, flipped so
/// that `y` grows downwards, and moved so that the picture starts at `(0, 0)`. Every rectangle
/// is the same square, as large as it can be without two of them overlapping (at most
/// [`UNIT`]): neighbours on a square grid share an edge (`0 0 50 50`, `50 0 100 50`), hex cells
/// get smaller squares. Centres that coincide get overlapping rectangles (there is no room).
pub fn rects_from_centres(centres: &[(f64, f64)], pitch: f64) -> Vec<[i64; 4]> {
    if centres.is_empty() {
        return Vec::new();
    }
    let pitch = if pitch.is_finite() && pitch > 1e-9 {
        pitch
    } else {
        1.0
    };
    let scale = UNIT as f64 / pitch;
    let min_x = centres.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
    let max_y = centres
        .iter()
        .map(|c| c.1)
        .fold(f64::NEG_INFINITY, f64::max);
    // Coordinates stay far from overflow whatever the input's board functions did (a board
    // that large is refused by the renderer's own budgets).
    let coord = |v: f64| (v * scale).round().clamp(0.0, MAX_COORD as f64) as i64;
    let px: Vec<(i64, i64)> = centres
        .iter()
        .map(|&(x, y)| (coord(x - min_x), coord(max_y - y)))
        .collect();
    let side = min_chebyshev(&px, UNIT).max(1);
    // Squares of side `side` whose top-left corners are the centres: moving every square by
    // half a side changes nothing but the picture's margin.
    px.iter()
        .map(|&(x, y)| [x, y, x + side, y + side])
        .collect()
}

/// The smallest Chebyshev distance between two points, or `cap` when none is closer.
fn min_chebyshev(px: &[(i64, i64)], cap: i64) -> i64 {
    // Buckets of `cap` pixels: two points closer than `cap` lie in neighbouring buckets.
    let mut buckets: rustc_hash::FxHashMap<(i64, i64), Vec<usize>> = Default::default(); // lookup only
    for (i, &(x, y)) in px.iter().enumerate() {
        buckets
            .entry((x.div_euclid(cap), y.div_euclid(cap)))
            .or_default()
            .push(i);
    }
    let mut best = cap;
    for (i, &(x, y)) in px.iter().enumerate() {
        let (bx, by) = (x.div_euclid(cap), y.div_euclid(cap));
        for (dx, dy) in (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (dx, dy))) {
            for &j in buckets.get(&(bx + dx, by + dy)).into_iter().flatten() {
                if j > i {
                    let d = (px[j].0 - x).abs().max((px[j].1 - y).abs());
                    best = best.min(d);
                }
            }
        }
    }
    best
}

/// The layout of one two-dimensional grid that makes exactly these positions — the same names,
/// rectangles and links (compared as sets per position) — in `directions`, or `None`. The
/// positions must all have rectangles of one size on an evenly spaced lattice of at least 2 × 2
/// cells, be neither dummy nor killed, and be named `column label + row label` (labels of ASCII
/// letters and digits); every direction must link some position, always by the same step.
/// The grid's first dimension runs left to right, its second top to bottom.
pub fn grid_of(directions: &[String], positions: &[Position]) -> Option<Layout> {
    if positions.iter().any(|p| p.dummy || p.killed) {
        return None;
    }
    let rects: Vec<[i64; 4]> = positions.iter().map(|p| p.rect).collect::<Option<_>>()?;
    let first = rects.first()?;
    let (w, h) = (first[2] - first[0], first[3] - first[1]);
    if w <= 0 || h <= 0 || rects.iter().any(|r| r[2] - r[0] != w || r[3] - r[1] != h) {
        return None;
    }
    let axis = |k: usize| -> Option<(Vec<i64>, i64)> {
        let v: Vec<i64> = rects
            .iter()
            .map(|r| r[k])
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let step = v.get(1)? - v[0];
        v.windows(2)
            .all(|p| p[1] - p[0] == step)
            .then_some((v, step))
    };
    let ((xs, sx), (ys, sy)) = (axis(0)?, axis(1)?);
    let (nx, ny) = (xs.len(), ys.len());
    if nx.checked_mul(ny)? != positions.len() {
        return None;
    }
    // Each position's cell: column from x, row from y; every cell taken once.
    let cell = |r: &[i64; 4]| {
        (
            ((r[0] - xs[0]) / sx) as usize,
            ((r[1] - ys[0]) / sy) as usize,
        )
    };
    let mut at = vec![usize::MAX; nx * ny];
    for (k, r) in rects.iter().enumerate() {
        let (i, j) = cell(r);
        if std::mem::replace(&mut at[j * nx + i], k) != usize::MAX {
            return None;
        }
    }
    let (cols, rows) = labels(positions, &at, nx, ny)?;
    let grid_dirs = directions
        .iter()
        .map(|d| grid_direction(d, positions, &rects, &cell))
        .collect::<Option<Vec<_>>>()?;
    let layout = Layout {
        grids: vec![Grid {
            start_rectangle: [xs[0], ys[0], xs[0] + w, ys[0] + h],
            dimensions: vec![
                Dimension {
                    labels: cols,
                    offset: [sx, 0],
                },
                Dimension {
                    labels: rows,
                    offset: [0, sy],
                },
            ],
            directions: grid_dirs,
        }],
        ..Layout::default()
    };
    same_board(&layout, directions, positions).then_some(layout)
}

/// Column and row labels: a row's label is the suffix its names share, a column's the rest of
/// its name in the first row; every name must be its column's label and its row's.
fn labels(
    positions: &[Position],
    at: &[usize],
    nx: usize,
    ny: usize,
) -> Option<(Vec<String>, Vec<String>)> {
    if positions.iter().any(|p| !p.name.is_ascii()) {
        return None;
    }
    let name = |i: usize, j: usize| positions[at[j * nx + i]].name.as_str();
    let plain = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric());
    let mut rows = Vec::with_capacity(ny);
    for j in 0..ny {
        let mut suffix = name(0, j);
        for i in 1..nx {
            let n = name(i, j);
            let common = suffix
                .bytes()
                .rev()
                .zip(n.bytes().rev())
                .take_while(|(a, b)| a == b)
                .count();
            suffix = &suffix[suffix.len() - common..];
        }
        rows.push(suffix.to_string());
    }
    let cols: Vec<String> = (0..nx)
        .map(|i| {
            name(i, 0)
                .strip_suffix(rows[0].as_str())
                .map(str::to_string)
        })
        .collect::<Option<_>>()?;
    let ok = (0..nx).all(|i| (0..ny).all(|j| name(i, j) == format!("{}{}", cols[i], rows[j])));
    let all: Vec<&String> = cols.iter().chain(&rows).collect();
    (ok && all.iter().all(|l| plain(l))).then_some((cols, rows))
}

/// A direction as a label step: the one cell step of every link in that direction.
fn grid_direction(
    d: &str,
    positions: &[Position],
    rects: &[[i64; 4]],
    cell: &impl Fn(&[i64; 4]) -> (usize, usize),
) -> Option<GridDirection> {
    let index: rustc_hash::FxHashMap<&str, usize> = positions // lookup only
        .iter()
        .enumerate()
        .map(|(k, p)| (p.name.as_str(), k))
        .collect();
    let mut delta: Option<(i64, i64)> = None;
    for (k, p) in positions.iter().enumerate() {
        for l in p.links.iter().filter(|l| l.direction == d) {
            let (a, b) = (cell(&rects[k]), cell(&rects[*index.get(l.to.as_str())?]));
            let step = (b.0 as i64 - a.0 as i64, b.1 as i64 - a.1 as i64);
            if *delta.get_or_insert(step) != step {
                return None;
            }
        }
    }
    let (dx, dy) = delta?;
    Some(GridDirection {
        name: d.to_string(),
        delta: vec![dx, dy],
    })
}

/// Whether `layout` makes exactly `directions` and `positions` (names, rectangles, link sets).
fn same_board(layout: &Layout, directions: &[String], positions: &[Position]) -> bool {
    let (computed, issues) = compute(layout);
    type Key<'a> = (&'a str, Option<[i64; 4]>, BTreeSet<(&'a str, &'a str)>);
    fn key(p: &Position) -> Key<'_> {
        let links: BTreeSet<(&str, &str)> = p
            .links
            .iter()
            .map(|l| (l.direction.as_str(), l.to.as_str()))
            .collect();
        (p.name.as_str(), p.rect, links)
    }
    let a: BTreeSet<_> = positions.iter().map(key).collect();
    let b: BTreeSet<_> = computed.positions.iter().map(key).collect();
    issues.is_empty()
        && computed.directions == directions
        && computed.positions.len() == positions.len()
        && a == b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::types::Link;

    fn pos(name: &str, rect: [i64; 4], links: &[(&str, &str)]) -> Position {
        Position {
            name: name.into(),
            rect: Some(rect),
            grid: None,
            dummy: false,
            killed: false,
            links: links
                .iter()
                .map(|(d, t)| Link {
                    direction: d.to_string(),
                    to: t.to_string(),
                })
                .collect(),
        }
    }

    #[test]
    fn square_centres_share_edges_and_hex_centres_get_smaller_squares() {
        let sq = rects_from_centres(&[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)], 1.0);
        assert_eq!(
            sq,
            vec![
                [0, 50, 50, 100],
                [50, 50, 100, 100],
                [0, 0, 50, 50],
                [50, 0, 100, 50]
            ]
        );
        let h = 0.75f64.sqrt();
        let hex = rects_from_centres(&[(0.0, 0.0), (1.0, 0.0), (0.5, h)], 1.0);
        // The row above is 43 px up: squares of 43 px touch it without overlapping.
        assert_eq!(
            hex,
            vec![[0, 43, 43, 86], [50, 43, 93, 86], [25, 0, 68, 43]]
        );
    }

    #[test]
    fn a_lattice_named_by_column_and_row_is_a_grid_and_anything_else_is_not() {
        // a2 b2 / a1 b1, linked east and north.
        let board = vec![
            pos("a1", [0, 50, 50, 100], &[("n", "a2"), ("e", "b1")]),
            pos("b1", [50, 50, 100, 100], &[("n", "b2")]),
            pos("a2", [0, 0, 50, 50], &[("e", "b2")]),
            pos("b2", [50, 0, 100, 50], &[]),
        ];
        let dirs = vec!["n".to_string(), "e".to_string()];
        let l = grid_of(&dirs, &board).expect("a grid");
        let g = &l.grids[0];
        assert_eq!(g.start_rectangle, [0, 0, 50, 50]);
        assert_eq!(g.dimensions[0].labels, ["a", "b"]);
        assert_eq!(g.dimensions[1].labels, ["2", "1"]);
        assert_eq!(g.directions[0].delta, [0, -1]);
        // A link the grid would not make (b1 → a2 called `n`) is refused.
        let mut odd = board.clone();
        odd[1].links[0].to = "a2".into();
        assert_eq!(grid_of(&dirs, &odd), None);
        // Names that are not column + row are refused.
        let mut names = board.clone();
        names[3].name = "zz".into();
        names[1].links[0].to = "zz".into();
        names[2].links[0].to = "zz".into();
        assert_eq!(grid_of(&dirs, &names), None);
        // A missing corner is not a lattice.
        assert_eq!(grid_of(&dirs, &board[..3]), None);
    }
}
