//! Ludii board geometry: sites of `square`, `rectangle`, `hex` and `tri` boards in Ludii's index order, with labels and compass links.
//!
//! Sites are sorted bottom to top, then left to right (`notes/ludii.md` §3), so index 0 is the
//! bottom-left site and on rectangles `index = row × cols + col`. Labels are a column letter
//! (`A`…`Z`, `AA`…) and a 1-based row. Links are named by the compass direction nearest to the
//! vector between site centres: `N NE E SE S SW W NW`.

use super::expand::col_letters;
use crate::spec::{Board, Extensions, Link, Opposite, Placement, Position, RawFormat};

/// The eight compass directions, clockwise from north.
pub const COMPASS: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

/// Index of a compass name in [`COMPASS`].
pub fn compass_index(d: &str) -> Option<usize> {
    COMPASS.iter().position(|c| *c == d)
}

/// Rotates a compass direction clockwise by `eighths` eighths of a turn.
pub fn rotate(d: &str, eighths: i32) -> Option<&'static str> {
    let i = compass_index(d)? as i32;
    Some(COMPASS[(i + eighths).rem_euclid(8) as usize])
}

/// The kind of a board's graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `(square n)` / `(rectangle r c)`.
    Grid,
    /// `(hex n)`: a regular hexagon of cells.
    Hexagon,
    /// `(hex Diamond n)` / `(hex Rhombus n)`: a rhombus of hexagonal cells.
    Diamond,
    /// `(tri n)` with `use:Vertex`: a triangle of points.
    TriVertex,
    /// `(tri n)` with cells: a triangle of triangles.
    TriCell,
    /// `(mancalaBoard rows cols …)`: rows of holes, with or without two stores.
    Mancala,
    /// A graph of vertices built by board functions (`merge`, `shift`, `add`, …).
    Graph,
}

/// A computed board.
#[derive(Debug, Clone)]
pub struct Geo {
    /// Graph kind.
    pub shape: Shape,
    /// Site labels, by index.
    pub names: Vec<String>,
    /// Label column (0-based) and row (0-based) per site.
    pub label_rc: Vec<(usize, usize)>,
    /// Centre coordinates per site.
    pub xy: Vec<(f64, f64)>,
    /// Links per site: (direction, target index), in [`COMPASS`] order.
    pub links: Vec<Vec<(&'static str, usize)>>,
    /// Directions that occur on the board, in [`COMPASS`] order.
    pub dirs: Vec<&'static str>,
    /// The directions Ludii calls orthogonal on this board.
    pub orth: Vec<&'static str>,
    /// The directions Ludii calls diagonal on this board.
    pub diag: Vec<&'static str>,
}

fn compass_of(dx: f64, dy: f64) -> &'static str {
    let a = dx.atan2(dy).to_degrees(); // clockwise from north
    let k = (a / 45.0).round() as i32;
    COMPASS[k.rem_euclid(8) as usize]
}

/// Builds a board from label coordinates, centres and neighbour offsets in label space.
fn build(
    shape: Shape,
    cells: Vec<(i64, i64, f64, f64)>,
    offsets: &[(i64, i64)],
    diag_offsets: &[(i64, i64)],
) -> Geo {
    let mut cells = cells;
    cells.sort_by(|a, b| {
        let ya = (a.3 * 1e6).round() as i64;
        let yb = (b.3 * 1e6).round() as i64;
        ya.cmp(&yb).then(a.2.total_cmp(&b.2))
    });
    let min_c = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let min_r = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let mut at = std::collections::HashMap::new();
    for (i, c) in cells.iter().enumerate() {
        at.insert((c.0, c.1), i);
    }
    let mut orth = Vec::new();
    let mut diag = Vec::new();
    let mut links = Vec::with_capacity(cells.len());
    for c in &cells {
        let mut l: Vec<(&'static str, usize)> = Vec::new();
        for (k, &(dc, dr)) in offsets.iter().chain(diag_offsets).enumerate() {
            if let Some(&j) = at.get(&(c.0 + dc, c.1 + dr)) {
                let d = compass_of(cells[j].2 - c.2, cells[j].3 - c.3);
                if k < offsets.len() {
                    if !orth.contains(&d) {
                        orth.push(d);
                    }
                } else if !diag.contains(&d) {
                    diag.push(d);
                }
                l.push((d, j));
            }
        }
        l.sort_by_key(|(d, _)| compass_index(d));
        links.push(l);
    }
    orth.sort_by_key(|d| compass_index(d));
    diag.sort_by_key(|d| compass_index(d));
    let mut dirs: Vec<&'static str> = orth.iter().chain(diag.iter()).copied().collect();
    dirs.sort_by_key(|d| compass_index(d));
    dirs.dedup();
    let label_rc: Vec<(usize, usize)> = cells
        .iter()
        .map(|c| ((c.0 - min_c) as usize, (c.1 - min_r) as usize))
        .collect();
    Geo {
        shape,
        names: label_rc
            .iter()
            .map(|(c, r)| format!("{}{}", col_letters(*c), r + 1))
            .collect(),
        label_rc,
        xy: cells.iter().map(|c| (c.2, c.3)).collect(),
        links,
        dirs,
        orth,
        diag,
    }
}

const SQ_ORTH: [(i64, i64); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const SQ_DIAG: [(i64, i64); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
const HEX: [(i64, i64); 6] = [(1, 0), (0, 1), (1, 1), (-1, 0), (0, -1), (-1, -1)];
const H: f64 = 0.866_025_403_784_438_6;

/// Largest number of sites a board may have.
pub const MAX_SITES: usize = 40_000;

/// `rows × cols` grid (cells or vertices: both index the same way).
pub fn grid(rows: usize, cols: usize) -> Geo {
    let mut v = Vec::with_capacity(rows * cols);
    for r in 0..rows as i64 {
        for c in 0..cols as i64 {
            v.push((c, r, c as f64, r as f64));
        }
    }
    build(Shape::Grid, v, &SQ_ORTH, &SQ_DIAG)
}

/// A rhombus of `n × n` hexagonal cells (the Hex board): A1 at the bottom.
pub fn diamond(n: usize) -> Geo {
    let mut v = Vec::new();
    for r in 0..n as i64 {
        for c in 0..n as i64 {
            v.push((c, r, 1.5 * (c - r) as f64, H * (c + r) as f64));
        }
    }
    build(Shape::Diamond, v, &HEX, &[])
}

/// A regular hexagon of hexagonal cells with `n` cells per side, as Ludii's `(hex n)` makes it:
/// pointed tops, rows of cells running east–west (`n` in the bottom row, `2n − 1` in the
/// middle). Label (column, row) is the axial coordinate: moving north-east adds one to both,
/// north-west only to the row, so the rows above the middle start at B, C, …
pub fn hexagon(n: usize) -> Geo {
    let n = n as i64;
    let s3 = 3f64.sqrt();
    let mut v = Vec::new();
    for r in 0..2 * n - 1 {
        for c in 0..2 * n - 1 {
            if (c - r).abs() < n {
                v.push((c, r, s3 * (c as f64 - r as f64 / 2.0), 1.5 * r as f64));
            }
        }
    }
    build(Shape::Hexagon, v, &HEX, &[])
}

/// A triangle of hexagonal cells with `n` cells per side (`(hex Triangle n)`): `n` cells in
/// the bottom row, one fewer in each row above, labelled by axial coordinate as [`hexagon`].
pub fn hex_triangle(n: usize) -> Geo {
    let n = n as i64;
    let s3 = 3f64.sqrt();
    let mut v = Vec::new();
    for r in 0..n {
        for c in r..n {
            v.push((c, r, s3 * (c as f64 - r as f64 / 2.0), 1.5 * r as f64));
        }
    }
    build(Shape::Hexagon, v, &HEX, &[])
}

/// A "limping" hexagon of hexagonal cells (`(hex Limping n)`): sides of `n` and `n + 1`
/// cells in turn, `n + 1` cells in the bottom row, `2n` in the widest, `n` at the top.
pub fn hex_limping(n: usize) -> Geo {
    hex_sides(n + 1, n)
}

/// A hexagon of hexagonal cells whose sides have `bottom` and `other` cells in turn
/// (`(hex other bottom)`): `bottom` cells in the bottom row, `other` at the top, labelled by
/// axial coordinate as [`hexagon`].
pub fn hex_sides(bottom: usize, other: usize) -> Geo {
    let (a, b) = (bottom as i64, other as i64);
    let s3 = 3f64.sqrt();
    let mut v = Vec::new();
    for r in 0..a + b - 1 {
        for c in 0..a + b - 1 {
            if (-(b - 1)..=a - 1).contains(&(c - r)) {
                v.push((c, r, s3 * (c as f64 - r as f64 / 2.0), 1.5 * r as f64));
            }
        }
    }
    build(Shape::Hexagon, v, &HEX, &[])
}

/// A line of `n` vertices seen on its edges (`(rectangle 1 n)` with `use:Edge`): `n − 1`
/// sites, west to east, labelled by their index as Ludii labels edges.
pub fn edge_line(n: usize) -> Geo {
    let k = n.saturating_sub(1);
    let mut links = vec![Vec::new(); k];
    for (i, l) in links.iter_mut().enumerate() {
        if i > 0 {
            l.push(("W", i - 1));
        }
        if i + 1 < k {
            l.push(("E", i + 1));
        }
        l.sort_by_key(|(d, _)| compass_index(d));
    }
    let dirs = if k > 1 { vec!["E", "W"] } else { Vec::new() };
    Geo {
        shape: Shape::Graph,
        names: (0..k).map(|i| i.to_string()).collect(),
        label_rc: (0..k).map(|i| (i, 0)).collect(),
        xy: (0..k).map(|i| (i as f64 + 0.5, 0.0)).collect(),
        links,
        orth: dirs.clone(),
        diag: Vec::new(),
        dirs,
    }
}

/// A triangle of points with `n` points per side.
pub fn tri_vertex(n: usize) -> Geo {
    let mut v = Vec::new();
    for r in 0..n as i64 {
        for c in 0..(n as i64 - r) {
            v.push((c, r, c as f64 + r as f64 / 2.0, r as f64 * H));
        }
    }
    let off = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];
    build(Shape::TriVertex, v, &off, &[])
}

/// A triangle of `n²` triangular cells with `n` cells per side.
pub fn tri_cell(n: usize) -> Geo {
    // Label (k, r): row r from the bottom, k-th triangle in the row; up triangles at even k.
    let mut v = Vec::new();
    for r in 0..n as i64 {
        for k in 0..(2 * (n as i64 - r) - 1) {
            let j = k / 2;
            let rf = r as f64;
            let (x, y) = if k % 2 == 0 {
                (j as f64 + 0.5 + rf / 2.0, rf * H + H / 3.0)
            } else {
                (j as f64 + 1.0 + rf / 2.0, rf * H + 2.0 * H / 3.0)
            };
            v.push((k, r, x, y));
        }
    }
    // Neighbours depend on orientation; compute them by centre distance instead of offsets.
    let mut geo = build(Shape::TriCell, v, &[], &[]);
    let side = 1.0 / 3f64.sqrt() + 1e-6;
    let n_sites = geo.xy.len();
    // Sites bucketed by a grid of cells one neighbour distance wide: neighbours are in the
    // 3×3 cells around a site, so this is linear (all pairs took 6 s for `(tri 200)`).
    let cell = |(x, y): (f64, f64)| ((x / side).floor() as i64, (y / side).floor() as i64);
    let mut buckets: rustc_hash::FxHashMap<(i64, i64), Vec<usize>> = Default::default(); // lookup only
    for (j, &p) in geo.xy.iter().enumerate() {
        buckets.entry(cell(p)).or_default().push(j);
    }
    let mut orth = Vec::new();
    for i in 0..n_sites {
        let mut l = Vec::new();
        let (cx, cy) = cell(geo.xy[i]);
        let mut near: Vec<usize> = (-1..=1)
            .flat_map(|ox| (-1..=1).map(move |oy| (cx + ox, cy + oy)))
            .filter_map(|c| buckets.get(&c))
            .flatten()
            .copied()
            .collect();
        near.sort_unstable();
        for j in near {
            let (dx, dy) = (geo.xy[j].0 - geo.xy[i].0, geo.xy[j].1 - geo.xy[i].1);
            if i != j && (dx * dx + dy * dy).sqrt() <= side {
                let d = compass_of(dx, dy);
                if !orth.contains(&d) {
                    orth.push(d);
                }
                l.push((d, j));
            }
        }
        l.sort_by_key(|(d, _)| compass_index(d));
        geo.links[i] = l;
    }
    orth.sort_by_key(|d| compass_index(d));
    geo.dirs = orth.clone();
    geo.orth = orth;
    geo
}

/// A mancala board of `rows × cols` holes. Without stores the holes index as a grid; with
/// them (Ludii's default, `store:Outer`) the left store is site 0, the holes follow row by row
/// from the bottom, and the right store is last.
pub fn mancala(rows: usize, cols: usize, stores: bool) -> Geo {
    let mut g = grid(rows, cols);
    g.shape = Shape::Mancala;
    if !stores {
        return g;
    }
    let mid = (rows as f64 - 1.0) / 2.0;
    let shift = |l: &mut Vec<(&'static str, usize)>| l.iter_mut().for_each(|x| x.1 += 1);
    let mut links: Vec<Vec<(&'static str, usize)>> = vec![Vec::new()];
    for mut l in g.links {
        shift(&mut l);
        links.push(l);
    }
    links.push(Vec::new());
    let n = rows * cols;
    // The stores link to the ends of the rows (as Ludii's edges do), each link named by the
    // compass direction of its vector, so a store reaches the end of every row.
    let (left, right) = ((-1.0, mid), (cols as f64, mid));
    for r in 0..rows {
        let (first, last) = (1 + r * cols, r * cols + cols);
        let (fx, fy) = (0.0, r as f64);
        let (lx, ly) = ((cols - 1) as f64, r as f64);
        links[0].push((compass_of(fx - left.0, fy - left.1), first));
        links[first].push((compass_of(left.0 - fx, left.1 - fy), 0));
        links[n + 1].push((compass_of(lx - right.0, ly - right.1), last));
        links[last].push((compass_of(right.0 - lx, right.1 - ly), n + 1));
    }
    for l in &mut links {
        l.sort_by_key(|(d, j)| (compass_index(d), *j));
        l.dedup_by_key(|x| x.0);
    }
    let mut names = vec!["A1".to_string()];
    let mut label_rc = vec![(0, 0)];
    let mut xy = vec![left];
    for (i, &(c, r)) in g.label_rc.iter().enumerate() {
        names.push(format!("{}{}", col_letters(c + 1), r + 1));
        label_rc.push((c + 1, r));
        xy.push(g.xy[i]);
    }
    names.push(format!("{}1", col_letters(cols + 1)));
    label_rc.push((cols + 1, 0));
    xy.push(right);
    let mut dirs = g.dirs;
    for l in &links {
        for (d, _) in l {
            if !dirs.contains(d) {
                dirs.push(d);
            }
        }
    }
    dirs.sort_by_key(|d| compass_index(d));
    Geo {
        shape: Shape::Mancala,
        names,
        label_rc,
        xy,
        links,
        dirs,
        orth: g.orth,
        diag: g.diag,
    }
}

/// The owner of Ludii's pieces that belong to no player (owner 0: `Neutral`, `Shared`, the
/// counters of sowing games), one convention for the `.lud` and the English readers.
pub const NEUTRAL: &str = "Neutral";

impl Geo {
    /// A placement of `piece` for `player`: on each site (index), its count of pieces (a
    /// position is listed once per piece).
    pub fn placement(
        &self,
        player: String,
        piece: String,
        sites: impl IntoIterator<Item = (usize, usize)>,
    ) -> Placement {
        Placement {
            player,
            piece,
            positions: sites
                .into_iter()
                .flat_map(|(i, k)| std::iter::repeat_n(self.names[i].clone(), k))
                .collect(),
            off: None,
        }
    }

    /// The spec board of this geometry: positions in Ludii's index order, named by their
    /// labels, linked by compass direction; `text` (the board's ludeme) is kept in
    /// `extensions` (as `ludii` items) for the writer.
    pub fn spec_board(&self, text: String) -> Board {
        let rects = crate::spec::geometry::rects_from_centres(&self.xy, self.pitch());
        let positions = (0..self.len())
            .map(|i| Position {
                name: self.names[i].clone(),
                rect: rects.get(i).copied(),
                grid: None,
                dummy: false,
                killed: false,
                links: self.links[i]
                    .iter()
                    .map(|(d, j)| Link {
                        direction: d.to_string(),
                        to: self.names[*j].clone(),
                    })
                    .collect(),
            })
            .collect();
        Board {
            directions: self.dirs.iter().map(|d| d.to_string()).collect(),
            positions,
            opposites: self
                .dirs
                .iter()
                .filter_map(|d| {
                    let o = rotate(d, 4)?;
                    self.dirs.contains(&o).then(|| Opposite {
                        direction: d.to_string(),
                        opposite: o.to_string(),
                    })
                })
                .collect(),
            extensions: Extensions::of(RawFormat::Ludii, [text]),
            ..Board::default()
        }
    }

    /// The points of a triangular tiling in the shape of this board of hexagonal cells
    /// (`(tri Hexagon n)`, `(tri Limping n)` with `use:Vertex`): Ludii indexes, labels and
    /// links them as the cells' centres, one unit apart.
    pub fn tri_points(mut self) -> Geo {
        let k = 1.0 / 3f64.sqrt();
        self.xy.iter_mut().for_each(|p| *p = (p.0 * k, p.1 * k));
        self.shape = Shape::TriVertex;
        self
    }

    /// This board without the sites `gone` (`(remove … cells:{…})`): the others keep their
    /// order, labels and links among themselves, reindexed.
    pub fn without(&self, gone: &[usize]) -> Geo {
        let keep: Vec<usize> = (0..self.len()).filter(|i| !gone.contains(i)).collect();
        let mut new = vec![usize::MAX; self.len()];
        for (k, &i) in keep.iter().enumerate() {
            new[i] = k;
        }
        let links = keep
            .iter()
            .map(|&i| {
                self.links[i]
                    .iter()
                    .filter(|(_, j)| new[*j] != usize::MAX)
                    .map(|&(d, j)| (d, new[j]))
                    .collect()
            })
            .collect();
        Geo {
            shape: self.shape,
            names: keep.iter().map(|&i| self.names[i].clone()).collect(),
            label_rc: keep.iter().map(|&i| self.label_rc[i]).collect(),
            xy: keep.iter().map(|&i| self.xy[i]).collect(),
            links,
            dirs: self.dirs.clone(),
            orth: self.orth.clone(),
            diag: self.diag.clone(),
        }
    }

    /// The distance of linked sites' centres (the shortest link; 1 without links): one cell of
    /// the picture.
    pub fn pitch(&self) -> f64 {
        let dist = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).hypot(a.1 - b.1);
        self.links
            .iter()
            .enumerate()
            .flat_map(|(i, l)| l.iter().map(move |(_, j)| (i, *j)))
            .map(|(i, j)| dist(self.xy[i], self.xy[j]))
            .filter(|d| *d > 1e-9)
            .fold(None, |m: Option<f64>, d| Some(m.map_or(d, |m| m.min(d))))
            .unwrap_or(1.0)
    }

    /// The holes of a mancala board: every site but the two stores (left of the first hole
    /// and right of the last), which [`mancala`] puts first and last.
    pub fn holes(&self) -> Vec<usize> {
        let stores = self.shape == Shape::Mancala && self.xy.first().is_some_and(|p| p.0 < 0.0);
        if stores && self.len() >= 2 {
            (1..self.len() - 1).collect()
        } else {
            (0..self.len()).collect()
        }
    }

    /// Number of sites.
    pub fn len(&self) -> usize {
        self.names.len()
    }
    /// True for a board without sites.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
    /// The site a label names.
    pub fn index_of(&self, label: &str) -> Option<usize> {
        self.names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(label))
    }
    /// The neighbour of `site` in direction `d`.
    pub fn step(&self, site: usize, d: &str) -> Option<usize> {
        self.links[site]
            .iter()
            .find(|(x, _)| *x == d)
            .map(|(_, j)| *j)
    }
    fn extreme(&self, key: impl Fn(&(f64, f64)) -> f64, max: bool) -> Vec<usize> {
        let vals: Vec<f64> = self.xy.iter().map(key).collect();
        let best = vals
            .iter()
            .copied()
            .fold(if max { f64::MIN } else { f64::MAX }, |a, b| {
                if max { a.max(b) } else { a.min(b) }
            });
        (0..self.len())
            .filter(|&i| (vals[i] - best).abs() < 1e-6)
            .collect()
    }
    /// Sites with the lowest centre.
    pub fn bottom(&self) -> Vec<usize> {
        self.extreme(|p| p.1, false)
    }
    /// Sites with the highest centre.
    pub fn top(&self) -> Vec<usize> {
        self.extreme(|p| p.1, true)
    }
    /// Sites furthest left.
    pub fn left(&self) -> Vec<usize> {
        self.extreme(|p| p.0, false)
    }
    /// Sites furthest right.
    pub fn right(&self) -> Vec<usize> {
        self.extreme(|p| p.0, true)
    }
    /// Sites with no neighbour in direction `d` (a side of the board).
    pub fn side(&self, d: &str) -> Vec<usize> {
        (0..self.len())
            .filter(|&i| self.step(i, d).is_none())
            .collect()
    }
    /// Sites whose label row is `r` (0-based).
    pub fn row(&self, r: usize) -> Vec<usize> {
        (0..self.len())
            .filter(|&i| self.label_rc[i].1 == r)
            .collect()
    }
    /// Sites whose label column is `c` (0-based).
    pub fn column(&self, c: usize) -> Vec<usize> {
        (0..self.len())
            .filter(|&i| self.label_rc[i].0 == c)
            .collect()
    }
    /// Sites nearest the centroid.
    pub fn centre(&self) -> Vec<usize> {
        let n = self.len().max(1) as f64;
        let cx = self.xy.iter().map(|p| p.0).sum::<f64>() / n;
        let cy = self.xy.iter().map(|p| p.1).sum::<f64>() / n;
        self.extreme(|p| -((p.0 - cx).powi(2) + (p.1 - cy).powi(2)), true)
    }
    /// `sites` grown by `steps` orthogonal steps, sorted.
    pub fn expand(&self, sites: &[usize], steps: usize) -> Vec<usize> {
        self.expand_by(sites, steps, &|d| self.orth.contains(&d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xiangqi_points_index_like_ludii() {
        let g = grid(10, 9);
        assert_eq!(g.len(), 90);
        assert_eq!(g.names[4], "E1");
        assert_eq!(g.names[85], "E10");
        assert_eq!(g.index_of("D8"), Some(66));
        assert_eq!(g.step(4, "N"), Some(13));
        assert_eq!(g.step(4, "NE"), Some(14));
        assert_eq!(g.step(4, "S"), None);
        assert_eq!(g.expand(&g.bottom(), 4), (0..45).collect::<Vec<_>>());
        assert_eq!(g.orth, vec!["N", "E", "S", "W"]);
    }

    #[test]
    fn hex_diamond_order_matches_ludii() {
        let g = diamond(11);
        assert_eq!(&g.names[..3], &["A1", "A2", "B1"]);
        assert_eq!(g.dirs, vec!["N", "NE", "SE", "S", "SW", "NW"]);
        assert_eq!(g.links[0].len(), 3);
        let h = hexagon(3);
        assert_eq!(h.len(), 19);
        assert!(h.links.iter().any(|l| l.len() == 6));
        let t = tri_vertex(4);
        assert_eq!(t.len(), 10);
        let t = tri_cell(3);
        assert_eq!(t.len(), 9);
        assert!(t.links.iter().all(|l| (1..=3).contains(&l.len())));
    }

    #[test]
    fn hex_rows_and_merged_cells_index_like_ludii() {
        // `(hex 5)`: five cells in the bottom row, then A2 left of A1 (Ludii's facts).
        let h = hexagon(5);
        assert_eq!(h.len(), 61);
        assert_eq!(&h.names[..6], &["A1", "B1", "C1", "D1", "E1", "A2"]);
        assert_eq!(h.names[35], "B6");
        let mut n: Vec<usize> = h.links[0].iter().map(|l| l.1).collect();
        n.sort_unstable();
        assert_eq!(n, vec![1, 5, 6]);
        assert_eq!(hex_limping(5).len(), 75);
        // `(hex 2 4)` (Goats Wintering): four cells at the bottom, then rows of 5, 4, 3, 2;
        // the oracle's adjacency of A1 is {1, 4, 5}, of C3 {5, 6, 9, 11, 13, 14}.
        let h = hex_sides(4, 2);
        assert_eq!(h.len(), 18);
        assert_eq!(&h.names[3..5], &["D1", "A2"]);
        assert_eq!(&h.names[9..14], &["B3", "C3", "D3", "E3", "C4"]);
        for (site, want) in [(0, vec![1, 4, 5]), (10, vec![5, 6, 9, 11, 13, 14])] {
            let mut n: Vec<usize> = h.links[site].iter().map(|l| l.1).collect();
            n.sort_unstable();
            assert_eq!(n, want);
        }
        // `(tri Hexagon 5)` with `use:Vertex` (Hermit): A1 at (0, 0), B1 one unit east.
        let t = hexagon(5).tri_points();
        assert_eq!(t.len(), 61);
        assert!((t.xy[1].0 - t.xy[0].0 - 1.0).abs() < 1e-9);
        assert_eq!(t.names[5], "A2");
        assert_eq!(hex_triangle(11).len(), 66);
        // `(merge (rectangle 3 4) (shift 0 1 (rectangle 1 12)))` (20 Squares): the cell right
        // of the rectangle's middle row comes after that row, before the top row.
        let mut g = CellGraph::grid(3, 4);
        let mut bar = CellGraph::grid(1, 12);
        bar.g.map(|(x, y)| (x, y + 1.0));
        g.merge(&bar);
        let geo = g.geo();
        assert_eq!(geo.len(), 20);
        assert_eq!(geo.xy[8], (4.5, 1.5));
        assert_eq!(geo.xy[9], (0.5, 2.5));
        assert_eq!(geo.xy[13], (5.5, 1.5));
        // A line of 20 vertices used on its edges has 19 sites.
        assert_eq!(edge_line(20).len(), 19);
    }

    #[test]
    fn tri_cell_neighbours_match_comparing_every_pair() {
        for n in 1..=9 {
            let g = tri_cell(n);
            let side = 1.0 / 3f64.sqrt() + 1e-6;
            for i in 0..g.xy.len() {
                let mut all: Vec<(&str, usize)> = (0..g.xy.len())
                    .filter(|&j| {
                        let (dx, dy) = (g.xy[j].0 - g.xy[i].0, g.xy[j].1 - g.xy[i].1);
                        i != j && (dx * dx + dy * dy).sqrt() <= side
                    })
                    .map(|j| {
                        let (dx, dy) = (g.xy[j].0 - g.xy[i].0, g.xy[j].1 - g.xy[i].1);
                        (compass_of(dx, dy), j)
                    })
                    .collect();
                all.sort_by_key(|(d, _)| compass_index(d));
                assert_eq!(g.links[i], all, "tri {n}, site {i}");
            }
        }
    }
}

/// A Ludii graph of vertices as board functions build it with `use:Vertex`: vertices in
/// creation order (Ludii keeps it: `merge` appends, dropping vertices that coincide) and edges.
#[derive(Debug, Clone, Default)]
pub struct VertexGraph {
    /// Coordinates.
    pub v: Vec<(f64, f64)>,
    /// Edges between vertex indexes.
    pub e: Vec<(usize, usize)>,
}

const SAME: f64 = 1e-4;

impl VertexGraph {
    fn find(&self, p: (f64, f64)) -> Option<usize> {
        self.v
            .iter()
            .position(|q| (q.0 - p.0).abs() < SAME && (q.1 - p.1).abs() < SAME)
    }

    /// Adds a vertex unless one is there already; returns its index.
    pub fn vertex(&mut self, p: (f64, f64)) -> usize {
        self.find(p).unwrap_or_else(|| {
            self.v.push(p);
            self.v.len() - 1
        })
    }

    /// Adds an edge (once).
    pub fn edge(&mut self, a: usize, b: usize) {
        let k = (a.min(b), a.max(b));
        if a != b && !self.e.contains(&k) {
            self.e.push(k);
        }
    }

    /// A `rows × cols` grid of vertices, row by row from the bottom, with orthogonal edges and
    /// the diagonals Ludii's `diagonals:Alternating` (`alternating`) or `Solid` (`solid`:
    /// a vertex at each cell's centre) adds.
    pub fn grid(rows: usize, cols: usize, alternating: bool, solid: bool) -> VertexGraph {
        let mut g = VertexGraph::default();
        for r in 0..rows {
            for c in 0..cols {
                g.v.push((c as f64, r as f64));
            }
        }
        let at = |r: usize, c: usize| r * cols + c;
        for r in 0..rows {
            for c in 0..cols {
                if c + 1 < cols {
                    g.edge(at(r, c), at(r, c + 1));
                }
                if r + 1 < rows {
                    g.edge(at(r, c), at(r + 1, c));
                }
                if r + 1 < rows && c + 1 < cols && alternating {
                    if (r + c) % 2 == 0 {
                        g.edge(at(r, c), at(r + 1, c + 1));
                    } else {
                        g.edge(at(r, c + 1), at(r + 1, c));
                    }
                }
            }
        }
        if solid {
            for r in 0..rows.saturating_sub(1) {
                for c in 0..cols.saturating_sub(1) {
                    let m = g.vertex((c as f64 + 0.5, r as f64 + 0.5));
                    for k in [at(r, c), at(r, c + 1), at(r + 1, c), at(r + 1, c + 1)] {
                        g.edge(m, k);
                    }
                }
            }
        }
        g
    }

    /// Ludii's `(wedge rows [lines])`: a triangle of `rows` rows with its apex at the top and
    /// `lines` vertices a row below it (3 by default: left side, middle, right side).
    pub fn wedge(n: usize, lines: usize) -> VertexGraph {
        let mut g = VertexGraph::default();
        let top = n.saturating_sub(1) as f64;
        let mut prev: Option<Vec<usize>> = None;
        for r in 0..n.saturating_sub(1) {
            let y = r as f64;
            let row: Vec<usize> = (0..lines)
                .map(|j| {
                    let x = y + 2.0 * (top - y) * j as f64 / (lines - 1) as f64;
                    g.vertex((x, y))
                })
                .collect();
            for w in row.windows(2) {
                g.edge(w[0], w[1]);
            }
            if let Some(p) = &prev {
                for (a, b) in p.iter().zip(&row) {
                    g.edge(*a, *b);
                }
            }
            prev = Some(row);
        }
        let apex = g.vertex((top, top));
        for k in prev.unwrap_or_default() {
            g.edge(k, apex);
        }
        g
    }

    /// Ludii's `(concentric {n1 n2 …})`: rings of `nk` vertices (a ring of one is the centre),
    /// inner first, each ring a cycle, with spokes between rings of equal size. A ring's radius
    /// is one more than the previous ring's, or larger when its vertices need it (unit spacing
    /// along the circle); its first vertex is due west and the ring turns anticlockwise. A
    /// board of one ring is numbered bottom to top, left to right, as Ludii numbers it.
    pub fn concentric(rings: &[usize]) -> VertexGraph {
        let mut g = VertexGraph::default();
        let mut prev: Vec<usize> = Vec::new();
        let mut radius = 0.0f64;
        for (i, &k) in rings.iter().enumerate() {
            let mut ring = Vec::with_capacity(k);
            if k > 1 || i > 0 {
                radius = (radius + 1.0).max(k as f64 / std::f64::consts::TAU);
            }
            for j in 0..k {
                let p = if k == 1 && i == 0 {
                    (0.0, 0.0)
                } else {
                    let a = std::f64::consts::PI + std::f64::consts::TAU * j as f64 / k as f64;
                    (radius * a.cos(), radius * a.sin())
                };
                ring.push(g.vertex(p));
            }
            for j in 0..ring.len() {
                if ring.len() > 2 {
                    g.edge(ring[j], ring[(j + 1) % ring.len()]);
                }
            }
            if prev.len() == 1 {
                ring.iter().for_each(|&r| g.edge(prev[0], r));
            } else if prev.len() == ring.len() {
                prev.iter().zip(&ring).for_each(|(&a, &b)| g.edge(a, b));
            }
            if !ring.is_empty() {
                prev = ring;
            }
        }
        if rings.len() == 1 {
            g.sort_rows();
        }
        g
    }

    /// Renumbers the vertices bottom to top, then left to right (Ludii's order for sites it
    /// sorts).
    pub fn sort_rows(&mut self) {
        let mut order: Vec<usize> = (0..self.v.len()).collect();
        let key = |p: (f64, f64)| ((p.1 / SAME).round() as i64, p.0);
        order.sort_by(|&a, &b| {
            let (ka, kb) = (key(self.v[a]), key(self.v[b]));
            ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
        });
        let mut new_index = vec![0; self.v.len()];
        for (new, &old) in order.iter().enumerate() {
            new_index[old] = new;
        }
        self.v = order.iter().map(|&i| self.v[i]).collect();
        for e in &mut self.e {
            let (a, b) = (new_index[e.0], new_index[e.1]);
            *e = (a.min(b), a.max(b));
        }
    }

    /// Ludii's `(concentric Square rings:k)`: `k` nested squares of eight vertices (corners
    /// and midpoints), inner first, joined at their midpoints (a Morris board).
    pub fn concentric_square(k: usize) -> VertexGraph {
        let mut g = VertexGraph::default();
        let mut prev: Vec<usize> = Vec::new();
        for i in 1..=k {
            let r = i as f64;
            let pts = [
                (-r, -r),
                (0.0, -r),
                (r, -r),
                (r, 0.0),
                (r, r),
                (0.0, r),
                (-r, r),
                (-r, 0.0),
            ];
            let ring: Vec<usize> = pts.iter().map(|&p| g.vertex(p)).collect();
            for j in 0..8 {
                g.edge(ring[j], ring[(j + 1) % 8]);
            }
            if !prev.is_empty() {
                for j in [1, 3, 5, 7] {
                    g.edge(prev[j], ring[j]);
                }
            }
            prev = ring;
        }
        g
    }

    /// Appends `other`, merging coinciding vertices.
    pub fn merge(&mut self, other: &VertexGraph) {
        let map: Vec<usize> = other.v.iter().map(|&p| self.vertex(p)).collect();
        for &(a, b) in &other.e {
            self.edge(map[a], map[b]);
        }
    }

    /// Moves every vertex by `p ↦ f(p)`.
    pub fn map(&mut self, f: impl Fn((f64, f64)) -> (f64, f64)) {
        for p in &mut self.v {
            *p = f(*p);
        }
    }

    /// Rotates by `deg` degrees anticlockwise about the centre of the bounding box.
    pub fn rotate(&mut self, deg: f64) {
        let (x0, x1, y0, y1) = self.v.iter().fold(
            (f64::MAX, f64::MIN, f64::MAX, f64::MIN),
            |(a, b, c, d), p| (a.min(p.0), b.max(p.0), c.min(p.1), d.max(p.1)),
        );
        let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        let (s, c) = deg.to_radians().sin_cos();
        self.map(|(x, y)| {
            let (dx, dy) = (x - cx, y - cy);
            (cx + dx * c - dy * s, cy + dx * s + dy * c)
        });
    }

    /// Removes the vertices at `idx` (and their edges), keeping the others' order.
    pub fn remove(&mut self, idx: &[usize]) {
        let mut new_index = vec![None; self.v.len()];
        let mut v = Vec::new();
        for (i, p) in self.v.iter().enumerate() {
            if !idx.contains(&i) {
                new_index[i] = Some(v.len());
                v.push(*p);
            }
        }
        self.e = self
            .e
            .iter()
            .filter_map(|&(a, b)| Some((new_index[a]?, new_index[b]?)))
            .collect();
        self.v = v;
    }

    /// The board: sites in vertex order, labelled by the rank of their column (distinct x)
    /// and row (distinct y), linked along edges by compass direction.
    pub fn geo(&self) -> Geo {
        let ranks = |key: fn(&(f64, f64)) -> f64| -> Vec<usize> {
            let mut vals: Vec<f64> = self.v.iter().map(key).collect();
            vals.sort_by(f64::total_cmp);
            vals.dedup_by(|a, b| (*a - *b).abs() < SAME);
            self.v
                .iter()
                .map(|p| {
                    vals.iter()
                        .position(|x| (x - key(p)).abs() < SAME)
                        .unwrap_or(0)
                })
                .collect()
        };
        let cols = ranks(|p| p.0);
        let rows = ranks(|p| p.1);
        let label_rc: Vec<(usize, usize)> = cols.into_iter().zip(rows).collect();
        let mut links: Vec<Vec<(&'static str, usize)>> = vec![Vec::new(); self.v.len()];
        let mut dirs: Vec<&'static str> = Vec::new();
        for &(a, b) in &self.e {
            let (pa, pb) = (self.v[a], self.v[b]);
            let d = compass_of(pb.0 - pa.0, pb.1 - pa.1);
            let o = rotate(d, 4).unwrap_or(d);
            links[a].push((d, b));
            links[b].push((o, a));
            for x in [d, o] {
                if !dirs.contains(&x) {
                    dirs.push(x);
                }
            }
        }
        for l in &mut links {
            l.sort_by_key(|(d, j)| (compass_index(d), *j));
            // One link per direction (the first, by index).
            l.dedup_by_key(|x| x.0);
        }
        dirs.sort_by_key(|d| compass_index(d));
        let orth: Vec<&'static str> = dirs
            .iter()
            .copied()
            .filter(|d| ["N", "E", "S", "W"].contains(d))
            .collect();
        let diag: Vec<&'static str> = dirs.iter().copied().filter(|d| !orth.contains(d)).collect();
        // Labels must be unique: a second vertex on the same row and column gets none.
        let mut names: Vec<String> = Vec::with_capacity(self.v.len());
        let mut seen = std::collections::HashSet::new(); // lookup only
        for (i, (c, r)) in label_rc.iter().enumerate() {
            let l = format!("{}{}", col_letters(*c), r + 1);
            let l = if seen.contains(&l) {
                format!("{l}_{i}")
            } else {
                l
            };
            seen.insert(l.clone());
            names.push(l);
        }
        Geo {
            shape: Shape::Graph,
            names,
            label_rc,
            xy: self.v.clone(),
            links,
            dirs,
            orth,
            diag,
        }
    }
}

/// A Ludii graph seen on its cells, as board functions on square cells build it: the vertex
/// graph and each cell's corners (vertex indexes, in order around it). Ludii numbers the cells
/// of a merged graph by their lowest corners (the cell whose corners, sorted, come first is
/// first), and appends cells given with `add cells:…`.
#[derive(Debug, Clone, Default)]
pub struct CellGraph {
    /// The vertices and edges.
    pub g: VertexGraph,
    /// Corners per cell, in Ludii's order.
    pub cells: Vec<Vec<usize>>,
}

impl CellGraph {
    /// `rows × cols` unit squares.
    pub fn grid(rows: usize, cols: usize) -> CellGraph {
        let g = VertexGraph::grid(rows + 1, cols + 1, false, false);
        let at = |r: usize, c: usize| r * (cols + 1) + c;
        let mut cells = Vec::with_capacity(rows * cols);
        for r in 0..rows {
            for c in 0..cols {
                cells.push(vec![at(r, c), at(r, c + 1), at(r + 1, c + 1), at(r + 1, c)]);
            }
        }
        CellGraph { g, cells }
    }

    /// Sorts the cells by their lowest corners, and cells that share it anticlockwise around
    /// it from due south (Ludii's order after merging: faces found walking the vertices).
    pub fn sort(&mut self) {
        let key = |c: &Vec<usize>| {
            let (x, y) = self.corners_centre(c);
            let low = c.iter().copied().min().unwrap_or(0);
            let (vx, vy) = self.g.v.get(low).copied().unwrap_or((x, y));
            let turn = ((y - vy).atan2(x - vx) + std::f64::consts::FRAC_PI_2)
                .rem_euclid(std::f64::consts::TAU);
            (low, (turn / SAME).round() as i64)
        };
        let mut keyed: Vec<_> = self.cells.iter().map(|c| (key(c), c.clone())).collect();
        keyed.sort_by_key(|a| a.0);
        self.cells = keyed.into_iter().map(|(_, c)| c).collect();
    }

    fn corners_centre(&self, c: &[usize]) -> (f64, f64) {
        let k = c.len().max(1) as f64;
        let (x, y) = c.iter().fold((0.0, 0.0), |(x, y), &v| {
            (x + self.g.v[v].0, y + self.g.v[v].1)
        });
        (x / k, y / k)
    }

    /// Appends `other`, merging coinciding vertices and cells, then renumbers the cells.
    pub fn merge(&mut self, other: &CellGraph) {
        let map: Vec<usize> = other.g.v.iter().map(|&p| self.g.vertex(p)).collect();
        for &(a, b) in &other.g.e {
            self.g.edge(map[a], map[b]);
        }
        let mut seen: Vec<Vec<usize>> = self
            .cells
            .iter()
            .map(|c| {
                let mut k = c.clone();
                k.sort_unstable();
                k
            })
            .collect();
        for c in &other.cells {
            let cell: Vec<usize> = c.iter().map(|&v| map[v]).collect();
            let mut k = cell.clone();
            k.sort_unstable();
            if !seen.contains(&k) {
                seen.push(k);
                self.cells.push(cell);
            }
        }
        self.sort();
    }

    /// A cell's centre (the mean of its corners).
    pub fn centre(&self, c: usize) -> (f64, f64) {
        self.corners_centre(&self.cells[c])
    }

    /// The board: sites in cell order, labelled by the ranks of their centres' columns and
    /// rows, linked to the cells they share a corner with, by compass direction.
    pub fn geo(&self) -> Geo {
        let centres: Vec<(f64, f64)> = (0..self.cells.len()).map(|c| self.centre(c)).collect();
        let mut links: Vec<Vec<(&'static str, usize)>> = vec![Vec::new(); centres.len()];
        let mut at_vertex: Vec<Vec<usize>> = vec![Vec::new(); self.g.v.len()];
        for (c, corners) in self.cells.iter().enumerate() {
            for &v in corners {
                at_vertex[v].push(c);
            }
        }
        let mut orth: Vec<&'static str> = Vec::new();
        let mut diag: Vec<&'static str> = Vec::new();
        for (a, corners) in self.cells.iter().enumerate() {
            let mut near: Vec<usize> = corners
                .iter()
                .flat_map(|&v| at_vertex[v].iter().copied())
                .filter(|&b| b != a)
                .collect();
            near.sort_unstable();
            near.dedup();
            for b in near {
                let shared = corners.iter().filter(|v| self.cells[b].contains(v)).count();
                let (pa, pb) = (centres[a], centres[b]);
                let d = compass_of(pb.0 - pa.0, pb.1 - pa.1);
                let kind = if shared >= 2 { &mut orth } else { &mut diag };
                if !kind.contains(&d) {
                    kind.push(d);
                }
                links[a].push((d, b));
            }
        }
        for l in &mut links {
            l.sort_by_key(|(d, j)| (compass_index(d), *j));
            l.dedup_by_key(|x| x.0);
        }
        let mut g = VertexGraph {
            v: centres,
            e: Vec::new(),
        };
        let mut geo = std::mem::take(&mut g).geo();
        orth.sort_by_key(|d| compass_index(d));
        diag.retain(|d| !orth.contains(d));
        diag.sort_by_key(|d| compass_index(d));
        let mut dirs: Vec<&'static str> = orth.iter().chain(&diag).copied().collect();
        dirs.sort_by_key(|d| compass_index(d));
        geo.links = links;
        geo.dirs = dirs;
        geo.orth = orth;
        geo.diag = diag;
        geo
    }
}

/// A point inside a polygon (even–odd rule).
pub fn inside(p: (f64, f64), poly: &[(f64, f64)]) -> bool {
    let mut inside = false;
    let n = poly.len();
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        if (a.1 > p.1) != (b.1 > p.1) && p.0 < a.0 + (p.1 - a.1) * (b.0 - a.0) / (b.1 - a.1) {
            inside = !inside;
        }
    }
    inside
}

impl Geo {
    /// The same board turned `deg` degrees anticlockwise: same sites in the same order and the
    /// same neighbours, links renamed by their new compass directions. Labels stay.
    pub fn rotated(mut self, deg: f64) -> Geo {
        let (s, c) = deg.to_radians().sin_cos();
        for p in &mut self.xy {
            *p = (p.0 * c - p.1 * s, p.0 * s + p.1 * c);
        }
        let mut dirs: Vec<&'static str> = Vec::new();
        let mut orth: Vec<&'static str> = Vec::new();
        for i in 0..self.links.len() {
            let old = std::mem::take(&mut self.links[i]);
            let mut l: Vec<(&'static str, usize)> = old
                .iter()
                .map(|&(d, j)| {
                    let (a, b) = (self.xy[i], self.xy[j]);
                    let nd = compass_of(b.0 - a.0, b.1 - a.1);
                    if self.orth.contains(&d) && !orth.contains(&nd) {
                        orth.push(nd);
                    }
                    if !dirs.contains(&nd) {
                        dirs.push(nd);
                    }
                    (nd, j)
                })
                .collect();
            l.sort_by_key(|(d, j)| (compass_index(d), *j));
            l.dedup_by_key(|x| x.0);
            self.links[i] = l;
        }
        dirs.sort_by_key(|d| compass_index(d));
        orth.sort_by_key(|d| compass_index(d));
        self.diag = dirs.iter().copied().filter(|d| !orth.contains(d)).collect();
        self.dirs = dirs;
        self.orth = orth;
        self
    }
}
