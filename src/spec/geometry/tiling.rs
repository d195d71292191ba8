//! Built boards: the sites of tilings and board functions (`square`, `hex`, `tri`, graphs, `merge`, …) in Ludii's index order, with labels and compass links.
//!
//! Sites are sorted bottom to top, then left to right (`notes/ludii.md` §3), so index 0 is the
//! bottom-left site and on rectangles `index = row × cols + col`. Labels are a column letter
//! (`A`…`Z`, `AA`…) and a 1-based row. Links are named by the compass direction nearest to the
//! vector between site centres: `N NE E SE S SW W NW`.

use crate::spec::{Board, Construction, Layout, Link, Opposite, Placement, Position};

mod shapes;
pub use shapes::{hex_rectangle, hex_star, pyramid, square_diamond, tri_hexagon_cells};

/// Column letters of a 0-based column: `A` … `Z`, `AA` …
pub fn col_letters(mut col: usize) -> String {
    let mut s = Vec::new();
    loop {
        s.push((b'A' + (col % 26) as u8) as char);
        if col < 26 {
            break;
        }
        col = col / 26 - 1;
    }
    s.iter().rev().collect()
}

/// The eight compass directions, clockwise from north.
pub const COMPASS: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

/// Index of a compass name in [`COMPASS`].
pub fn compass_index(d: &str) -> Option<usize> {
    COMPASS.iter().position(|c| *c == d)
}

/// The sixteen compass directions Ludii names (`AbsoluteDirection`), clockwise from north: the
/// eight of [`COMPASS`] at even indexes and the half-way directions (`NNE`, …) between them.
pub const COMPASS16: [&str; 16] = [
    "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW",
    "NNW",
];

/// Rank of a direction name in [`COMPASS16`] (the order links are listed in).
pub fn compass16_index(d: &str) -> Option<usize> {
    COMPASS16.iter().position(|c| *c == d)
}

/// The thirty-two points of the mariner's compass, clockwise from north: [`COMPASS16`]'s
/// sixteen at even indexes and the "by" points (`NbE`, …) between them. Links use the "by"
/// points only to tell apart neighbours that share a name of sixteen (Ludii lists them all
/// under that one direction).
pub const COMPASS32: [&str; 32] = [
    "N", "NbE", "NNE", "NEbN", "NE", "NEbE", "ENE", "EbN", "E", "EbS", "ESE", "SEbE", "SE", "SEbS",
    "SSE", "SbE", "S", "SbW", "SSW", "SWbS", "SW", "SWbW", "WSW", "WbS", "W", "WbN", "WNW", "NWbW",
    "NW", "NWbN", "NNW", "NbW",
];

/// Rank of a direction name in [`COMPASS32`] (the order links are listed in).
pub fn compass32_index(d: &str) -> Option<usize> {
    COMPASS32.iter().position(|c| *c == d)
}

/// Rotates a compass direction (of [`COMPASS32`]) clockwise by `eighths` eighths of a turn.
pub fn rotate(d: &str, eighths: i32) -> Option<&'static str> {
    let i = compass32_index(d)? as i32;
    Some(COMPASS32[(i + 4 * eighths).rem_euclid(32) as usize])
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

fn compass16_of(dx: f64, dy: f64) -> &'static str {
    let a = dx.atan2(dy).to_degrees(); // clockwise from north
    let k = (a / 22.5).round() as i32;
    COMPASS16[k.rem_euclid(16) as usize]
}

/// The links of a site at `from` to each of its neighbours `to` (index, centre), named by the
/// compass direction of the vector between the centres: one of [`COMPASS`]'s eight, or of
/// [`COMPASS16`]'s sixteen for neighbours that would share a name of eight (a cell bordering
/// several cells along one side, as Ludii's `AbsoluteDirection` tells them apart). Neighbours
/// that share a name of sixteen (a wedge's apex over its rows, a long thin rectangle's
/// diagonal) are told apart by [`sixteenth_split`]; links are in [`COMPASS32`] order.
fn named_links(from: (f64, f64), to: &[(usize, (f64, f64))]) -> Vec<(&'static str, usize)> {
    let delta = |p: (f64, f64)| (p.0 - from.0, p.1 - from.1);
    let eight: Vec<&'static str> = to
        .iter()
        .map(|&(_, p)| {
            let (dx, dy) = delta(p);
            compass_of(dx, dy)
        })
        .collect();
    let mut l: Vec<(&'static str, usize, f64)> = to
        .iter()
        .zip(&eight)
        .map(|(&(j, p), &d)| {
            let (dx, dy) = delta(p);
            let bearing = dx.atan2(dy).to_degrees();
            if eight.iter().filter(|e| **e == d).count() > 1 {
                (compass16_of(dx, dy), j, bearing)
            } else {
                (d, j, bearing)
            }
        })
        .collect();
    sixteenth_split(&mut l);
    let mut l: Vec<(&'static str, usize)> = l.into_iter().map(|(d, j, _)| (d, j)).collect();
    l.sort_by_key(|(d, j)| (compass32_index(d), *j));
    l.dedup_by_key(|x| x.0);
    l
}

/// Renames links (name, site, bearing in degrees clockwise from north) that share a name of
/// sixteen, nearest to the name's bearing first (then by site): each takes the point of
/// [`COMPASS32`] nearest its bearing that no other link of the site has taken (`SbE` and
/// `SbW` under a wedge's apex; a second neighbour straight north, further along an edge that
/// passes over the first, takes a "by" point beside `N`).
fn sixteenth_split(l: &mut [(&'static str, usize, f64)]) {
    let shared =
        |l: &[(&'static str, usize, f64)], i: usize| l.iter().filter(|x| x.0 == l[i].0).count() > 1;
    let mut group: Vec<usize> = (0..l.len()).filter(|&i| shared(l, i)).collect();
    if group.is_empty() {
        return;
    }
    let gap = |bearing: f64, k: usize| {
        ((bearing - k as f64 * 11.25 + 540.0).rem_euclid(360.0) - 180.0).abs()
    };
    let home = |x: &(&'static str, usize, f64)| compass32_index(x.0).map_or(0.0, |k| gap(x.2, k));
    group.sort_by(|&a, &b| {
        home(&l[a])
            .total_cmp(&home(&l[b]))
            .then(l[a].1.cmp(&l[b].1))
    });
    let mut taken: Vec<usize> = (0..l.len())
        .filter(|i| !group.contains(i))
        .filter_map(|i| compass32_index(l[i].0))
        .collect();
    for i in group {
        let free = (0..32)
            .filter(|k| !taken.contains(k))
            .min_by(|&a, &b| gap(l[i].2, a).total_cmp(&gap(l[i].2, b)));
        if let Some(k) = free {
            taken.push(k);
            l[i].0 = COMPASS32[k];
        }
    }
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
    let mut at = std::collections::HashMap::new(); // lookup only
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

/// The owner of Ludii's `Shared` pieces (owned by every player at once; Ludii numbers that
/// owner one past the last player).
pub const SHARED: &str = "Shared";

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
    /// labels, linked by compass direction; `construction` (how it was built) is its layout.
    pub fn spec_board(&self, construction: Construction) -> Board {
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
            layout: Layout {
                construction: Some(construction),
                ..Layout::default()
            },
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
        self.selected(&keep)
    }

    /// The sites `order` (old indexes, in their new order) with their labels, centres and the
    /// links among them, reindexed; links to sites left out go.
    pub fn selected(&self, order: &[usize]) -> Geo {
        let mut new = vec![usize::MAX; self.len()];
        for (k, &i) in order.iter().enumerate() {
            new[i] = k;
        }
        let links = order
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
            names: order.iter().map(|&i| self.names[i].clone()).collect(),
            label_rc: order.iter().map(|&i| self.label_rc[i]).collect(),
            xy: order.iter().map(|&i| self.xy[i]).collect(),
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
    /// Sites with no neighbour in direction `d` (a side of the board). When no site has a
    /// neighbour that way (`S` on a board of triangles' vertices, whose links run E, W, NE, …),
    /// the sites furthest that way: Ludii's `(sites Side S)` of a hexagon of triangles is its
    /// bottom row, not the whole board.
    pub fn side(&self, d: &str) -> Vec<usize> {
        let none: Vec<usize> = (0..self.len())
            .filter(|&i| self.step(i, d).is_none())
            .collect();
        match COMPASS.iter().position(|c| *c == d) {
            Some(k) if none.len() == self.len() && self.len() > 1 => {
                let a = k as f64 * std::f64::consts::FRAC_PI_4;
                let (dx, dy) = (a.sin(), a.cos());
                self.extreme(|p| p.0 * dx + p.1 * dy, true)
            }
            _ => none,
        }
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
    use std::f64::consts::{FRAC_1_SQRT_2, SQRT_2};

    #[test]
    fn a_cell_bordering_several_cells_on_a_side_links_them_all() {
        // `(add (hole (square 5) (poly {{1 1} {1 4} {4 4} {4 1}})) cells:{{7 8 9 10 16 22 28
        // 27 26 25 19 13}})`: a ring of 16 cells and the added 3 × 3 cell 16 (C3) in its middle.
        // The oracle: 16 is adjacent to every cell of the ring, B1 (1) to {0, 2, 5, 16}.
        let mut g = CellGraph::grid(5, 5);
        let poly = [(1.0, 1.0), (1.0, 4.0), (4.0, 4.0), (4.0, 1.0)];
        let centres: Vec<(f64, f64)> = (0..g.cells.len()).map(|c| g.centre(c)).collect();
        let mut k = centres.iter();
        g.cells
            .retain(|_| !k.next().is_some_and(|&p| inside(p, &poly)));
        g.cells
            .push(vec![7, 8, 9, 10, 16, 22, 28, 27, 26, 25, 19, 13]);
        let geo = g.geo();
        assert_eq!(geo.len(), 17);
        assert_eq!(geo.names[16], "C3");
        let near = |s: usize| {
            let mut n: Vec<usize> = geo.links[s].iter().map(|l| l.1).collect();
            n.sort_unstable();
            n
        };
        assert_eq!(near(16), (0..16).collect::<Vec<_>>());
        assert_eq!(near(1), vec![0, 2, 5, 16]);
        assert_eq!(near(10), vec![8, 14, 15, 16]);
        // Three cells below the big one: south-south-west, south, south-south-east.
        let below: Vec<&str> = geo.links[16]
            .iter()
            .filter(|l| [1, 2, 3].contains(&l.1))
            .map(|l| l.0)
            .collect();
        assert_eq!(below, vec!["SSE", "S", "SSW"]);
        // `(scale 10 2 (rectangle 8 2))` (cells ten wide, two high): A1's neighbours are
        // {1, 2, 3} (the oracle), B2 north-east of it by less than the east link's angle.
        let mut g = CellGraph::grid(8, 2);
        g.g.map(|(x, y)| (x * 10.0, y * 2.0));
        let geo = g.geo();
        let mut n: Vec<usize> = geo.links[0].iter().map(|l| l.1).collect();
        n.sort_unstable();
        assert_eq!(n, vec![1, 2, 3]);
    }

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

    /// Each vertex's neighbours along edges, sorted (the oracle's `adj` lists).
    fn neighbours(g: &VertexGraph) -> Vec<Vec<usize>> {
        let mut n = vec![Vec::new(); g.v.len()];
        for &(a, b) in &g.e {
            n[a].push(b);
            n[b].push(a);
        }
        n.iter_mut().for_each(|l| l.sort_unstable());
        n
    }

    #[test]
    fn spirals_place_their_vertices_like_ludii() {
        // `(spiral turns:4 sites:30)`: the oracle's path of 30 vertices from the centre, with
        // vertex 1 and the last vertex where its driver puts them.
        let g = VertexGraph::spiral(4, 30, true).expect("a spiral");
        assert_eq!(g.v.len(), 30);
        assert_eq!(neighbours(&g)[0], [1]);
        assert_eq!(neighbours(&g)[12], [11, 13]);
        assert_eq!(neighbours(&g)[29], [28]);
        let near =
            |i: usize, x: f64, y: f64| (g.v[i].0 - x).abs() < 1e-3 && (g.v[i].1 - y).abs() < 1e-3;
        assert!(near(0, 0.0, 0.0));
        assert!(near(1, 0.0, -4.7124), "{:?}", g.v[1]);
        assert!(near(29, -25.0534, -1.2313), "{:?}", g.v[29]);
    }

    #[test]
    fn edges_as_sites_index_and_link_like_ludii() {
        // `(add (remove (concentric {12}) vertices:{0 5}) edges:{{1 2} {6 7}})` with
        // `use:Edge`: the ring's edges by their midpoints (Ludii's `reorder`), those left after
        // the removal, then the two added ones; edges sharing a vertex are adjacent (the
        // oracle's neighbours below).
        let mut g = VertexGraph::concentric(&[12]);
        g.remove(&[0, 5]);
        g.edge(1, 2);
        g.edge(6, 7);
        let geo = g.edge_geo();
        assert_eq!(geo.len(), 10);
        assert_eq!(geo.names[9], "9");
        let near = |s: usize| {
            let mut n: Vec<usize> = geo.links[s].iter().map(|l| l.1).collect();
            n.sort_unstable();
            n
        };
        let expected: [&[usize]; 10] = [
            &[8],
            &[2, 8],
            &[1, 3],
            &[2, 5, 9],
            &[6, 9],
            &[3, 7, 9],
            &[4, 7, 9],
            &[5, 6],
            &[0, 1],
            &[3, 4, 5, 6],
        ];
        for (s, e) in expected.iter().enumerate() {
            assert_eq!(near(s), *e, "edge {s}");
        }
        let (x, y) = geo.xy[0];
        assert!((x + 1.3045).abs() < 1e-3 && (y + 1.3045).abs() < 1e-3);
        let (x, y) = geo.xy[8];
        assert!((x + 0.3495).abs() < 1e-3 && (y + 1.3045).abs() < 1e-3);
    }

    #[test]
    fn concentric_circles_index_like_ludii() {
        // `(concentric {1 0 8 8})` (the oracle's Toono without its added edges): the centre
        // alone, then two rings of eight from 135° anticlockwise, joined by spokes.
        let g = VertexGraph::concentric(&[1, 0, 8, 8]);
        let n = neighbours(&g);
        assert_eq!(n.len(), 17);
        assert!(n[0].is_empty());
        assert_eq!(n[1], [2, 8, 9]);
        assert_eq!(n[2], [1, 3, 10]);
        assert_eq!(n[16], [8, 9, 15]);
        assert!((g.v[1].0 + SQRT_2).abs() < 1e-4 && (g.v[1].1 - SQRT_2).abs() < 1e-4);
        // `(concentric {1 -4 -4 20})` (Nyout): negative rings are no cycles.
        let n = neighbours(&VertexGraph::concentric(&[1, -4, -4, 20]));
        assert_eq!(n.len(), 29);
        assert_eq!(
            &n[..6],
            [
                &[1, 2, 3, 4][..],
                &[0, 5],
                &[0, 6],
                &[0, 7],
                &[0, 8],
                &[1, 13]
            ]
        );
        assert_eq!(n[9], [10, 28]);
        assert_eq!(n[28], [8, 9, 27]);
        // `(concentric {1 4 12})`: spokes where the rings line up.
        let n = neighbours(&VertexGraph::concentric(&[1, 4, 12]));
        assert_eq!(n[1], [0, 2, 4, 7]);
        assert_eq!(n[5], [6, 16]);
    }

    #[test]
    fn concentric_regular_boards_index_like_ludii() {
        // `(concentric Square rings:2)`: the oracle's order and adjacency.
        let g = VertexGraph::concentric_regular(4, 2, true, true, false);
        let want: [&[usize]; 16] = [
            &[1, 6],
            &[0, 2, 4],
            &[1, 9],
            &[4, 7],
            &[1, 3, 5],
            &[4, 8],
            &[0, 7, 13],
            &[3, 6, 10],
            &[5, 9, 12],
            &[2, 8, 15],
            &[7, 11],
            &[10, 12, 14],
            &[8, 11],
            &[6, 14],
            &[11, 13, 15],
            &[9, 14],
        ];
        assert_eq!(neighbours(&g), want);
        assert!((g.v[3].0 + FRAC_1_SQRT_2).abs() < 1e-4 && (g.v[3].1 + FRAC_1_SQRT_2).abs() < 1e-4);
        // `(concentric Triangle rings:3 joinMidpoints:False joinCorners:True)`.
        let g = VertexGraph::concentric_regular(3, 3, true, false, true);
        let n = neighbours(&g);
        assert_eq!(n.len(), 18);
        assert_eq!(n[0], [1, 3, 14]);
        assert_eq!(n[1], [0, 2]);
        assert_eq!(n[3], [0, 4, 6, 11]);
        assert_eq!(n[13], [9, 10, 16]);
        assert_eq!(n[16], [11, 12, 13, 17]);
        assert!((g.v[0].0 + 4.3301).abs() < 1e-4 && (g.v[0].1 + 2.5).abs() < 1e-4);
        // With the midpoints joined too (`joinCorners:True` alone).
        let n = neighbours(&VertexGraph::concentric_regular(3, 3, true, true, true));
        assert_eq!(n[1], [0, 2, 4]);
        assert_eq!(n[11], [3, 9, 14, 16]);
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

/// Ludii's tolerance for merging vertices (`Merge.mergeVertices`).
const MERGE_SAME: f64 = 0.01;

/// The `diagonals:` of Ludii's square and rectangle generators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Diagonals {
    /// No diagonals.
    None,
    /// One diagonal per square, by the parity of its corner (Alquerque).
    Alternating,
    /// Both diagonals, split at a vertex at the square's centre.
    Solid,
    /// Both diagonals, crossing without a vertex.
    SolidNoSplit,
    /// One diagonal per square, by the quadrant it is in.
    Concentric,
    /// The diagonal rays from the middle vertex.
    Radiating,
}

impl Diagonals {
    /// The value of `diagonals:` (absent: `None`); `None` for a name Ludii doesn't have.
    pub fn from_name(name: Option<&str>) -> Option<Diagonals> {
        Some(match name {
            None => Diagonals::None,
            Some("Alternating") => Diagonals::Alternating,
            Some("Solid") => Diagonals::Solid,
            Some("SolidNoSplit") => Diagonals::SolidNoSplit,
            Some("Concentric") => Diagonals::Concentric,
            Some("Radiating") => Diagonals::Radiating,
            Some(_) => return None,
        })
    }
}

impl VertexGraph {
    fn find(&self, p: (f64, f64)) -> Option<usize> {
        self.v
            .iter()
            .position(|q| (q.0 - p.0).abs() < SAME && (q.1 - p.1).abs() < SAME)
    }

    /// The first vertex within Ludii's merging distance of `p`, if any.
    pub fn near(&self, p: (f64, f64)) -> Option<usize> {
        self.v
            .iter()
            .position(|q| (q.0 - p.0).abs() + (q.1 - p.1).abs() < MERGE_SAME)
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

    /// Ludii's `(rectangle rows cols diagonals:…)` (and `square`) on vertices: a `rows × cols`
    /// grid, row by row from the bottom, with orthogonal edges and the `diagonals`, then
    /// renumbered by position as Ludii's generator does ([`VertexGraph::reorder`]: the
    /// `Solid` cell centres fall between the rows).
    pub fn grid(rows: usize, cols: usize, diagonals: Diagonals) -> VertexGraph {
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
            }
        }
        g.diagonals(rows, cols, diagonals);
        g.reorder();
        g
    }

    /// The diagonals of Ludii's `Square.handleDiagonals` over a grid of `rows × cols`
    /// vertices at integer points: per unit square (all four corners present), `Alternating`
    /// one diagonal by the parity of its corner, `Solid` a centre vertex linked to the corners,
    /// `SolidNoSplit` both diagonals, `Concentric` one diagonal by quadrant; `Radiating` the
    /// four diagonal rays from the point (rows / 2, cols / 2) (x from the rows, as Ludii has it).
    fn diagonals(&mut self, rows: usize, cols: usize, kind: Diagonals) {
        let at = |g: &VertexGraph, x: i64, y: i64| g.find((x as f64, y as f64));
        let (mid_r, mid_c) = ((rows / 2) as i64, (cols / 2) as i64);
        if kind == Diagonals::Radiating {
            for i in 0..mid_r.max(mid_c) + 1 {
                for (dx, dy) in [(1, 1), (1, -1), (-1, -1), (-1, 1)] {
                    let a = at(self, mid_r + i * dx, mid_c + i * dy);
                    let b = at(self, mid_r + (i + 1) * dx, mid_c + (i + 1) * dy);
                    if let (Some(a), Some(b)) = (a, b) {
                        self.edge(a, b);
                    }
                }
            }
            return;
        }
        for r in 0..=rows as i64 {
            for c in 0..=cols as i64 {
                let corners = [(c, r), (c, r + 1), (c + 1, r + 1), (c + 1, r)];
                let found: Option<Vec<usize>> =
                    corners.iter().map(|&(x, y)| at(self, x, y)).collect();
                let Some(k) = found else { continue };
                let up = (k[0], k[2]); // (c, r)–(c + 1, r + 1)
                let down = (k[1], k[3]); // (c, r + 1)–(c + 1, r)
                let pick = |first: bool| if first { up } else { down };
                match kind {
                    Diagonals::Alternating => {
                        let (a, b) = pick((r + c) % 2 == 0);
                        self.edge(a, b);
                    }
                    Diagonals::Concentric => {
                        let (a, b) = pick((r < mid_r) != (c < mid_c));
                        self.edge(a, b);
                    }
                    Diagonals::SolidNoSplit => {
                        self.edge(up.0, up.1);
                        self.edge(down.0, down.1);
                    }
                    Diagonals::Solid => {
                        let m = self.vertex((c as f64 + 0.5, r as f64 + 0.5));
                        k.iter().for_each(|&x| self.edge(x, m));
                    }
                    Diagonals::None | Diagonals::Radiating => {}
                }
            }
        }
    }

    /// Ludii's `(spiral turns:t sites:n [clockwise:…])` (`shape.Spiral`): a path of `n`
    /// vertices from the centre outwards along the spiral `r = θ`, θ spread over `t + 1`
    /// turns (the first two turns double the points per turn) and smoothed as Ludii smooths
    /// it; `None` when Ludii finds no base number of points per turn (or `n` is over 1000).
    pub fn spiral(turns: usize, sites: usize, clockwise: bool) -> Option<VertexGraph> {
        use std::f64::consts::TAU;
        if sites > 1000 {
            return None;
        }
        let base = (1..sites).find_map(|b| {
            let (mut steps, mut total) = (b, 1);
            for ring in 1..turns {
                total += steps;
                if total > sites {
                    return Some(b - 1);
                }
                if ring <= 2 {
                    steps *= 2;
                }
            }
            None
        })?;
        let mut theta = vec![0.0; 4 * sites];
        let (mut idx, mut steps) = (1, base);
        for ring in 1..=turns + 1 {
            let d = TAU / steps as f64;
            let mut t = TAU * ring as f64;
            if ring <= 2 || ring % 2 == 1 {
                t -= d / 2.0;
            }
            for _ in 0..steps {
                *theta.get_mut(idx)? = t;
                idx += 1;
                t += d;
            }
            if ring <= 2 {
                steps *= 2;
            }
        }
        for _ in 0..2 {
            for i in 2..sites {
                theta[i] = (theta[i - 1] + theta[i + 1]) / 2.0;
            }
        }
        if sites > 2 {
            theta[1] -= 0.5 * (theta[2] - theta[1]);
        }
        let sign = if clockwise { -1.0 } else { 1.0 };
        let mut g = VertexGraph::default();
        g.v.push((0.0, 0.0));
        for &t in &theta[1..sites] {
            g.v.push((sign * t * t.cos(), t * t.sin()));
        }
        for i in 1..g.v.len() {
            g.edge(i - 1, i);
        }
        Some(g)
    }

    /// Ludii's `Graph.reorder` of vertices and edges: a stable sort by `y · 100 + x` (exact,
    /// no tolerance) of the vertices, and of the edges by their midpoints, which Ludii's
    /// square, hex, tri and concentric generators apply to what they build; operators
    /// (`merge`, `shift`, `rotate`, `wedge`, …) keep their order.
    pub fn reorder(&mut self) {
        let mut order: Vec<usize> = (0..self.v.len()).collect();
        let score = |p: (f64, f64)| p.1 * 100.0 + p.0;
        order.sort_by(|&a, &b| score(self.v[a]).total_cmp(&score(self.v[b])));
        self.renumber(&order);
        let mid = |g: &VertexGraph, (a, b): (usize, usize)| {
            score(((g.v[a].0 + g.v[b].0) / 2.0, (g.v[a].1 + g.v[b].1) / 2.0))
        };
        let mut e = self.e.clone();
        e.sort_by(|&x, &y| mid(self, x).total_cmp(&mid(self, y)));
        self.e = e;
    }

    /// The graph's edges seen as sites (`use:Edge`): one site per edge in edge order, at its
    /// midpoint, named by its index, linked to every edge sharing a vertex with it (Ludii's
    /// `Topology` adjacency of edges).
    pub fn edge_geo(&self) -> Geo {
        let mut g = VertexGraph {
            v: self
                .e
                .iter()
                .map(|&(a, b)| {
                    (
                        (self.v[a].0 + self.v[b].0) / 2.0,
                        (self.v[a].1 + self.v[b].1) / 2.0,
                    )
                })
                .collect(),
            e: Vec::new(),
        };
        for (i, x) in self.e.iter().enumerate() {
            for (j, y) in self.e.iter().enumerate().skip(i + 1) {
                if x.0 == y.0 || x.0 == y.1 || x.1 == y.0 || x.1 == y.1 {
                    g.e.push((i, j));
                }
            }
        }
        let mut geo = g.geo();
        geo.names = (0..geo.names.len()).map(|i| i.to_string()).collect();
        geo
    }

    /// Puts the vertices in `order` (old indexes, new order), carrying the edges along.
    fn renumber(&mut self, order: &[usize]) {
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

    /// Ludii's `(wedge rows [lines])`: the apex first, then `rows − 1` rows of `lines` vertices
    /// (3 by default: left side, middle, right side) from the top down, each row wider by one
    /// on each side; the apex is linked to every vertex of the row below it, each row is a
    /// path, and each vertex is linked to the one at its place in the next row.
    pub fn wedge(n: usize, lines: usize) -> VertexGraph {
        let mut g = VertexGraph::default();
        let top = n.saturating_sub(1) as f64;
        let lerp = |t: f64, a: f64, b: f64| a + t * (b - a);
        for r in 0..n {
            if r == 0 {
                g.v.push((top, top));
                continue;
            }
            let (r, w) = (r as f64, lines.saturating_sub(1).max(1) as f64);
            for j in 0..lines {
                g.v.push((lerp(j as f64 / w, top - r, top + r), top - r));
            }
        }
        for r in 0..n {
            if r == 0 {
                (0..lines).for_each(|j| g.edge(0, j + 1));
                continue;
            }
            let base = r * lines - lines + 1;
            for j in 0..lines.saturating_sub(1) {
                g.edge(base + j, base + j + 1);
            }
            if r + 1 < n {
                (0..lines).for_each(|j| g.edge(base + j, base + lines + j));
            }
        }
        g
    }

    /// Ludii's `(concentric {n1 n2 …})` (`ConcentricCircle`, vertices). One ring is a regular
    /// polygon of unit sides (a corner at 45° for four, else at the top), reordered
    /// ([`Self::reorder`]). Otherwise ring `i` (a centre ring of 0 put first when `n1` is
    /// more than 1) has radius `i` and `|ni|` vertices, from the one after the top going
    /// anticlockwise round to the top; a ring of `ni ≥ 2` is a cycle; the centre (ring 0) is
    /// joined to every vertex of ring 1, and each other vertex to the vertex of the next ring
    /// straight out from it, if any. Vertices are numbered ring by ring.
    pub fn concentric(rings: &[i64]) -> VertexGraph {
        use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, TAU};
        let mut g = VertexGraph::default();
        if let [n] = rings {
            let (k, n) = (n.max(&0).unsigned_abs() as usize, *n as f64);
            let start = if k == 4 { FRAC_PI_4 } else { FRAC_PI_2 };
            for j in 0..k {
                let a = start + j as f64 / n * TAU;
                g.v.push((n / TAU * a.cos(), n / TAU * a.sin()));
            }
            for j in 0..k {
                g.edge(j, (j + 1) % k);
            }
            g.reorder();
            return g;
        }
        let mut counts = rings.to_vec();
        if rings.first().is_some_and(|n| n.abs() > 1) {
            counts.insert(0, 0);
        }
        let samples = Self::ring_samples(&counts);
        samples.iter().flatten().for_each(|&p| {
            g.vertex(p);
        });
        let find = |g: &VertexGraph, (x, y): (f64, f64)| {
            g.v.iter().position(|q| (q.0 - x).hypot(q.1 - y) < 0.001)
        };
        for (ring, &n) in samples.iter().zip(&counts).skip(1) {
            if n < 2 || ring.len() < 2 {
                continue;
            }
            for j in 0..ring.len() {
                let a = find(&g, ring[j]);
                let b = find(&g, ring[(j + 1) % ring.len()]);
                if let (Some(a), Some(b)) = (a, b) {
                    g.edge(a, b);
                }
            }
        }
        for i in 0..samples.len() - 1 {
            for &p in &samples[i] {
                let Some(a) = find(&g, p) else { continue };
                let out: Vec<(f64, f64)> = if i == 0 {
                    samples[1].clone()
                } else {
                    let k = (i + 1) as f64 / i as f64;
                    vec![(p.0 * k, p.1 * k)]
                };
                for q in out {
                    if let Some(b) = find(&g, q) {
                        g.edge(a, b);
                    }
                }
            }
        }
        g
    }

    /// The points of each ring of [`Self::concentric`]: ring `i` of radius `i`, sorted by angle
    /// (from just after the top, anticlockwise), a point less than 0.1 from the one before it
    /// dropped.
    fn ring_samples(counts: &[i64]) -> Vec<Vec<(f64, f64)>> {
        use std::f64::consts::{FRAC_PI_2, TAU};
        counts
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                let (r, n) = (i as f64, n.unsigned_abs() as usize);
                // Angles fall as `j` grows, so sorting by angle reverses the ring.
                let mut ring: Vec<(f64, f64)> = (0..n)
                    .rev()
                    .map(|j| {
                        let a = FRAC_PI_2 - TAU * j as f64 / n as f64;
                        (r * a.cos(), r * a.sin())
                    })
                    .collect();
                if i > 0 {
                    let mut j = ring.len().saturating_sub(1);
                    while j > 0 {
                        let (p, q) = (ring[j], ring[j - 1]);
                        if (p.0 - q.0).hypot(p.1 - q.1) < 0.1 {
                            ring.remove(j);
                        }
                        j -= 1;
                    }
                }
                ring
            })
            .collect()
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
        self.renumber(&order);
    }

    /// Ludii's `(concentric Square|Triangle|Hexagon|<sides> rings:k [midpoints:]
    /// [joinMidpoints:] [joinCorners:])` (`ConcentricRegular`): `k` nested regular polygons of
    /// radius `1 + i` (`1 + 2i` for triangles), a corner up (a flat top for even sides), each
    /// ring its corners (and edge midpoints) anticlockwise joined in a cycle; corners and
    /// midpoints of consecutive rings joined as asked; then reordered ([`Self::reorder`]).
    pub fn concentric_regular(
        sides: usize,
        rings: usize,
        midpoints: bool,
        join_midpoints: bool,
        join_corners: bool,
    ) -> VertexGraph {
        use std::f64::consts::{FRAC_PI_2, TAU};
        let mut g = VertexGraph::default();
        let step = TAU / sides as f64;
        let offset = FRAC_PI_2
            + if sides.is_multiple_of(2) {
                step / 2.0
            } else {
                0.0
            };
        let mut start = 0;
        for i in 0..rings {
            let r = (1 + i * if sides == 3 { 2 } else { 1 }) as f64;
            for s in 0..sides {
                let (a, b) = (offset + step * s as f64, offset + step * (s + 1) as f64);
                let (x0, y0) = (r * a.cos(), r * a.sin());
                let (x1, y1) = (r * b.cos(), r * b.sin());
                g.vertex((x0, y0));
                if midpoints {
                    g.vertex(((x0 + x1) / 2.0, (y0 + y1) / 2.0));
                }
            }
            let n = g.v.len();
            for v in start..n {
                g.edge(v, if v + 1 < n { v + 1 } else { start });
            }
            start = n;
        }
        if (midpoints && join_midpoints) || join_corners {
            let per = if midpoints { 2 } else { 1 };
            let ring = sides * per;
            for i in 0..rings.saturating_sub(1) {
                for s in 0..sides {
                    let v = i * ring + s * per;
                    if join_corners {
                        g.edge(v, v + ring);
                    }
                    // Ludii joins `v + 1` even without midpoints (then a neighbouring corner).
                    if join_midpoints && v + 1 + ring < g.v.len() {
                        g.edge(v + 1, v + 1 + ring);
                    }
                }
            }
        }
        g.reorder();
        g
    }

    /// Appends `other`, merging coinciding vertices as Ludii's `merge` does: a vertex is
    /// dropped for the first one (in this order) less than 0.01 from it, measured as
    /// `|dx| + |dy|` (`Vertex.coincident`; turned parts often meet a grid a few thousandths
    /// off).
    pub fn merge(&mut self, other: &VertexGraph) {
        let map: Vec<usize> = other
            .v
            .iter()
            .map(|&p| {
                let near = |q: &(f64, f64)| (q.0 - p.0).abs() + (q.1 - p.1).abs() < MERGE_SAME;
                self.v.iter().position(near).unwrap_or_else(|| {
                    self.v.push(p);
                    self.v.len() - 1
                })
            })
            .collect();
        for &(a, b) in &other.e {
            self.edge(map[a], map[b]);
        }
    }

    /// Ludii's `(regular Star n)`: `n` points on a circle of radius `n / 2π`, the first at the
    /// top, each joined to the second point after it round the circle, reordered
    /// ([`Self::reorder`]).
    pub fn star(n: usize) -> VertexGraph {
        use std::f64::consts::{FRAC_PI_2, TAU};
        let r = n as f64 / TAU;
        let mut g = VertexGraph::default();
        for k in 0..n {
            let a = FRAC_PI_2 + TAU * k as f64 / n as f64;
            g.v.push((r * a.cos(), r * a.sin()));
        }
        for k in 0..n {
            g.edge(k, (k + 2) % n);
        }
        g.reorder();
        g
    }

    /// Ludii's `splitCrossings`: while two edges cross (inside both, sharing no end), the
    /// first such pair in edge order is replaced by the four pieces meeting at a new vertex
    /// at the crossing (appended, as are the pieces).
    pub fn split_crossings(&mut self) {
        let cross = |p: (f64, f64), q: (f64, f64), r: (f64, f64), s: (f64, f64)| {
            let d = (q.0 - p.0) * (s.1 - r.1) - (q.1 - p.1) * (s.0 - r.0);
            if d.abs() < 1e-12 {
                return None;
            }
            let t = ((r.0 - p.0) * (s.1 - r.1) - (r.1 - p.1) * (s.0 - r.0)) / d;
            let u = ((r.0 - p.0) * (q.1 - p.1) - (r.1 - p.1) * (q.0 - p.0)) / d;
            let inner = |x: f64| x > 1e-6 && x < 1.0 - 1e-6;
            (inner(t) && inner(u)).then_some((p.0 + t * (q.0 - p.0), p.1 + t * (q.1 - p.1)))
        };
        for _ in 0..10_000 {
            let found = (0..self.e.len()).find_map(|i| {
                (i + 1..self.e.len()).find_map(|j| {
                    let ((a, b), (c, d)) = (self.e[i], self.e[j]);
                    if a == c || a == d || b == c || b == d {
                        return None;
                    }
                    cross(self.v[a], self.v[b], self.v[c], self.v[d]).map(|p| (i, j, p))
                })
            });
            let Some((i, j, p)) = found else { return };
            let ((a, b), (c, d)) = (self.e[i], self.e[j]);
            self.e.remove(j);
            self.e.remove(i);
            let m = self.near(p).unwrap_or_else(|| {
                self.v.push(p);
                self.v.len() - 1
            });
            for (x, y) in [(a, m), (m, b), (c, m), (m, d)] {
                self.edge(x, y);
            }
        }
    }

    /// Appends `other` as Ludii's `union` does: its vertices and edges after these, none
    /// merged (coinciding vertices stay apart, unlinked).
    pub fn union(&mut self, other: &VertexGraph) {
        let base = self.v.len();
        self.v.extend_from_slice(&other.v);
        self.e
            .extend(other.e.iter().map(|&(a, b)| (a + base, b + base)));
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
        let mut near: Vec<Vec<(usize, (f64, f64))>> = vec![Vec::new(); self.v.len()];
        for &(a, b) in &self.e {
            near[a].push((b, self.v[b]));
            near[b].push((a, self.v[a]));
        }
        // Neighbours on one bearing of eight keep their links under names of sixteen.
        let links: Vec<Vec<(&'static str, usize)>> = near
            .iter_mut()
            .enumerate()
            .map(|(a, to)| {
                to.sort_by_key(|x| x.0);
                named_links(self.v[a], to)
            })
            .collect();
        let mut dirs: Vec<&'static str> = Vec::new();
        for &(d, _) in links.iter().flatten() {
            if !dirs.contains(&d) {
                dirs.push(d);
            }
        }
        dirs.sort_by_key(|d| compass32_index(d));
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
        let g = VertexGraph::grid(rows + 1, cols + 1, Diagonals::None);
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

    /// Appends `other` as Ludii's `union` does: its vertices, edges and cells after these,
    /// in their order, nothing merged (cells of the two parts are never neighbours).
    pub fn union(&mut self, other: &CellGraph) {
        let base = self.g.v.len();
        self.g.union(&other.g);
        self.cells.extend(
            other
                .cells
                .iter()
                .map(|c| c.iter().map(|&v| v + base).collect::<Vec<_>>()),
        );
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
            let to: Vec<(usize, (f64, f64))> = near.iter().map(|&b| (b, centres[b])).collect();
            links[a] = named_links(centres[a], &to);
            for &(d, b) in &links[a] {
                let shared = corners.iter().filter(|v| self.cells[b].contains(v)).count();
                let kind = if shared >= 2 { &mut orth } else { &mut diag };
                if !kind.contains(&d) {
                    kind.push(d);
                }
            }
        }
        let mut g = VertexGraph {
            v: centres,
            e: Vec::new(),
        };
        let mut geo = std::mem::take(&mut g).geo();
        orth.sort_by_key(|d| compass32_index(d));
        diag.retain(|d| !orth.contains(d));
        diag.sort_by_key(|d| compass32_index(d));
        let mut dirs: Vec<&'static str> = orth.iter().chain(&diag).copied().collect();
        dirs.sort_by_key(|d| compass32_index(d));
        geo.links = links;
        geo.dirs = dirs;
        geo.orth = orth;
        geo.diag = diag;
        geo
    }
}

/// A polygon grown as Ludii grows a `(keep …)` region before testing points against it: each
/// corner moves by the mean of its two unit side vectors times `amount`, pointing away from its
/// neighbours where the corner turns clockwise (or goes straight) and towards them otherwise.
/// So a clockwise polygon grows, and a counter-clockwise one shrinks a little, which decides
/// the points that lie exactly on its sides.
pub fn ludii_inflated(poly: &[(f64, f64)], amount: f64) -> Vec<(f64, f64)> {
    let n = poly.len();
    let unit = |v: (f64, f64)| {
        let l = v.0.hypot(v.1);
        if l > 0.0 {
            (v.0 / l, v.1 / l)
        } else {
            (0.0, 0.0)
        }
    };
    (0..n)
        .map(|i| {
            let (a, b, c) = (poly[(i + n - 1) % n], poly[i], poly[(i + 1) % n]);
            let turn = (b.0 - a.0) * (c.1 - a.1) - (c.0 - a.0) * (b.1 - a.1);
            let sign = if turn < 1e-7 { 1.0 } else { -1.0 };
            let vin = unit((sign * (b.0 - a.0), sign * (b.1 - a.1)));
            let vout = unit((sign * (b.0 - c.0), sign * (b.1 - c.1)));
            (
                b.0 + (vin.0 + vout.0) * amount * 0.5,
                b.1 + (vin.1 + vout.1) * amount * 0.5,
            )
        })
        .collect()
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
