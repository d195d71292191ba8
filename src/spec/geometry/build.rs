//! Building a board from its [`Construction`]: the board functions evaluated over the tilings and graphs of [`super::tiling`].
//!
//! A board is built the first way that applies:
//! 1. a tiling whose sites [`super::tiling`] indexes as Ludii does (`square`, `rectangle`,
//!    `hex`, `tri`, `mancalaBoard`, `boardless`, a one-wide `rectangle` on its edges);
//! 2. with vertex sites, a graph of points made by the graph functions ([`vertex_graph`]);
//! 3. with cell sites, a graph of square cells ([`cell_graph`]), a turned board, or a `hex` or
//!    `tri` board with cells removed.

use super::tiling::{self, CellGraph, Diagonals, Geo, VertexGraph};
use crate::spec::types::{BoardArg, BoardFn, Construction, SiteKind};

/// Why a construction builds no board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildError {
    /// A size is missing or outside 1..200 (the message says which function).
    BadSize(String),
    /// A function (named) or a combination of arguments that is not built.
    Unsupported(String),
}

impl BoardArg {
    /// The number, when this is one.
    pub fn num(&self) -> Option<f64> {
        match self {
            BoardArg::Int(k) => Some(*k as f64),
            BoardArg::Real(x) => Some(*x),
            _ => None,
        }
    }

    /// The word, when this is one.
    pub fn word(&self) -> Option<&str> {
        match self {
            BoardArg::Word(w) => Some(w),
            _ => None,
        }
    }

    /// The function, when this is one.
    pub fn func(&self) -> Option<&BoardFn> {
        match self {
            BoardArg::Fn(f) => Some(f),
            _ => None,
        }
    }

    /// The items, when this is a list.
    pub fn list(&self) -> Option<&[BoardArg]> {
        match self {
            BoardArg::List(v) => Some(v),
            _ => None,
        }
    }

    /// A whole number from 0 up, when this is one.
    fn index(&self) -> Option<usize> {
        match self {
            BoardArg::Int(k) => usize::try_from(*k).ok(),
            _ => None,
        }
    }

    /// `{a b}`: a list of indexes.
    fn indices(&self) -> Option<Vec<usize>> {
        self.list()?.iter().map(BoardArg::index).collect()
    }

    /// `{x y}`: a point.
    fn point(&self) -> Option<(f64, f64)> {
        match self.list()? {
            [x, y, ..] => Some((x.num()?, y.num()?)),
            _ => None,
        }
    }
}

impl BoardFn {
    /// A function applied to positional arguments only.
    pub fn new(name: &str, args: Vec<BoardArg>) -> BoardFn {
        BoardFn {
            name: name.to_string(),
            args,
            named: Default::default(),
        }
    }

    /// The named argument `k`.
    pub fn named(&self, k: &str) -> Option<&BoardArg> {
        self.named.get(k)
    }

    /// The named argument `k`, when it is a word.
    fn word(&self, k: &str) -> Option<&str> {
        self.named(k).and_then(BoardArg::word)
    }

    /// True when every named argument is one of `keys`.
    fn named_only(&self, keys: &[&str]) -> bool {
        self.named.keys().all(|k| keys.contains(&k.as_str()))
    }

    /// The `{…}` list of the named argument `k` as indexes (`vertices:{3 4}`).
    fn index_list(&self, k: &str) -> Option<Option<Vec<usize>>> {
        self.named(k).map(|a| {
            a.list()
                .and_then(|v| v.iter().map(BoardArg::index).collect())
        })
    }
}

/// A side or count of a board function's graph: a whole number from 1 to 200.
fn size(a: &BoardArg) -> Option<usize> {
    a.num()
        .filter(|k| k.fract() == 0.0 && (1.0..=200.0).contains(k))
        .map(|k| k as usize)
}

/// The sites of a built board, in Ludii's index order.
pub fn build(c: &Construction) -> Result<Geo, BuildError> {
    let g = &c.graph;
    match g.name.as_str() {
        "mancalaBoard" => return mancala(g),
        "boardless" => return boardless(g),
        _ => {}
    }
    if c.sites == SiteKind::Vertex
        && g.name == "square"
        && g.word("pyramidal") == Some("True")
        && g.named.len() == 1
    {
        let n = g.args.first().and_then(size);
        return n
            .and_then(tiling::pyramid)
            .ok_or_else(|| BuildError::BadSize("a pyramid needs a size, 1..48".into()));
    }
    if let Some(geo) = tiled(g, c.sites) {
        return Ok(geo);
    }
    let geo = match c.sites {
        SiteKind::Vertex => vertex_graph(g, 0)
            .map(|v| v.geo())
            .or_else(|| removed_points(g)),
        SiteKind::Cell => cell_graph(g, 0)
            .map(|v| v.geo())
            .or_else(|| rotated(g))
            .or_else(|| removed(g))
            .or_else(|| renumbered(g)),
        SiteKind::Edge => vertex_graph(g, 0).map(|v| v.edge_geo()),
    };
    geo.ok_or_else(|| {
        let nums: Vec<f64> = g.args.iter().filter_map(BoardArg::num).collect();
        let sized = matches!(g.name.as_str(), "square" | "rectangle" | "hex" | "tri");
        let whole_too_big = nums
            .iter()
            .any(|k| k.fract() == 0.0 && !(1.0..=200.0).contains(k));
        if whole_too_big || (sized && g.args.is_empty()) {
            BuildError::BadSize("sizes must be given, 1..200".into())
        } else {
            BuildError::Unsupported(g.name.clone())
        }
    })
}

/// The plain tilings, indexed as Ludii indexes them.
fn tiled(g: &BoardFn, sites: SiteKind) -> Option<Geo> {
    let vertex = sites == SiteKind::Vertex;
    let nums: Vec<usize> = g
        .args
        .iter()
        .filter(|a| a.num().is_some_and(|k| k.fract() == 0.0))
        .map(size)
        .collect::<Option<_>>()?;
    let shape = g.args.iter().find_map(BoardArg::word);
    // `diagonals:Solid` and `pyramidal:True` add sites; `diagonals:Alternating` adds links
    // between vertices, which the graph functions build (cells keep their neighbours).
    let alternating = g.word("diagonals") == Some("Alternating");
    let only_alternating = alternating && g.named.len() == 1;
    if !(g.named.is_empty() || only_alternating) || alternating && vertex {
        return None;
    }
    if let [BoardArg::List(sides)] = g.args.as_slice() {
        return custom_sides(&g.name, sides, vertex);
    }
    Some(match (g.name.as_str(), nums.as_slice(), shape) {
        // A rectangle one site wide is a line of vertices to Ludii; on its edges, the
        // `n − 1` segments between them.
        ("rectangle", [1, k] | [k, 1], None) if sites == SiteKind::Edge => tiling::edge_line(*k),
        _ if sites == SiteKind::Edge => return None,
        ("square", [k], None) => tiling::grid(*k, *k),
        ("rectangle", [r, c], None) => tiling::grid(*r, *c),
        ("hex", [k], None | Some("Hexagon")) if !vertex => tiling::hexagon(*k),
        // `(hex Limping n m)` is drawn as `(hex Limping n)` in the library.
        ("hex", [k] | [k, _], Some("Limping")) if !vertex => tiling::hex_limping(*k),
        // `(hex a b)`: sides of `a` and `b` cells in turn, `b` in the bottom row.
        ("hex", [a, b], None) if !vertex => tiling::hex_sides(*b, *a),
        ("hex", [k], Some("Triangle")) if !vertex => tiling::hex_triangle(*k),
        ("hex", [r, c], Some("Rectangle")) if !vertex => tiling::hex_rectangle(*r, *c),
        ("hex", [k], Some("Star")) if !vertex => tiling::hex_star(*k),
        ("square", [k], Some("Diamond")) if !vertex => tiling::square_diamond(*k),
        ("tri", [k], Some("Hexagon")) if !vertex => tiling::tri_hexagon_cells(*k).geo(),
        ("hex", [k], Some("Diamond" | "Rhombus")) if !vertex => tiling::diamond(*k),
        // The points of these triangular tilings index as the cells of the hex boards.
        ("tri", [k], Some("Hexagon")) if vertex => tiling::hexagon(*k).tri_points(),
        ("tri", [k] | [k, _], Some("Limping")) if vertex => tiling::hex_limping(*k).tri_points(),
        ("tri", [k], None) if vertex => tiling::tri_vertex(*k),
        ("tri", [k], None) => tiling::tri_cell(*k),
        _ => return None,
    })
}

/// `(hex {a b a b a})` and `(tri {a b a b a})` (Ludii's `CustomOnHex`, `CustomOnTri`: sides
/// of `a` and `b` cells or points in turn from the top, clockwise) as the boards of
/// `(hex a b)`. Other side lists (whose polygon the sides do not close) are not built.
fn custom_sides(name: &str, sides: &[BoardArg], vertex: bool) -> Option<Geo> {
    let sides: Vec<usize> = sides.iter().map(size).collect::<Option<_>>()?;
    let (a, b) = match sides.as_slice() {
        [a, b] => (*a, *b),
        [a, b, a2, b2, a3] if a2 == a && a3 == a && b2 == b => (*a, *b),
        _ => return None,
    };
    match (name, vertex) {
        ("hex", false) => Some(tiling::hex_sides(b, a)),
        ("tri", true) => Some(tiling::hex_sides(b, a).tri_points()),
        _ => None,
    }
}

/// `(mancalaBoard rows cols [store:None|Outer] …)`.
fn mancala(g: &BoardFn) -> Result<Geo, BuildError> {
    let stores = g.word("store") != Some("None");
    match g.args.as_slice() {
        [r, c, ..] => match (size(r), size(c)) {
            (Some(r), Some(c)) => Ok(tiling::mancala(r, c, stores)),
            _ => Err(BuildError::BadSize(
                "rows and columns must be 1..200".into(),
            )),
        },
        _ => Err(BuildError::BadSize("rows and columns must be given".into())),
    }
}

/// `(boardless Square|Hexagonal)`: Ludii plays these on a fixed board of 41 × 41 squares or
/// a hexagon of 21 cells a side, started in its middle.
fn boardless(g: &BoardFn) -> Result<Geo, BuildError> {
    match g.args.first().and_then(BoardArg::word) {
        Some("Square") => Ok(tiling::grid(41, 41)),
        Some("Hexagonal") => Ok(tiling::hexagon(21)),
        _ => Err(BuildError::Unsupported("boardless".into())),
    }
}

/// The board of a graph on cells (`(rotate 90 (hex 5))`'s inner board).
fn cells(g: &BoardFn) -> Option<Geo> {
    build(&Construction {
        sites: SiteKind::Cell,
        graph: g.clone(),
    })
    .ok()
}

/// `(rotate deg <board>)` of a board built without graph functions (`(rotate 90 (hex 5))`):
/// the same sites in the same order, turned.
fn rotated(g: &BoardFn) -> Option<Geo> {
    let [deg, inner] = g.args.as_slice() else {
        return None;
    };
    if g.name != "rotate" || !g.named.is_empty() {
        return None;
    }
    Some(relabelled(cells(inner.func()?)?.rotated(deg.num()?)))
}

/// `(remove <board> cells:{…})` of a `hex` or `tri` board built without graph functions, or
/// of one turned (`(hex 6)`, `(tri 13)`, `(rotate 90 (hex 6))`): the other cells in their
/// order; hexagonal cells relabelled as Ludii does ([`Geo::hex_relabelled`]).
fn removed(g: &BoardFn) -> Option<Geo> {
    let [inner] = g.args.as_slice() else {
        return None;
    };
    let inner = inner.func()?;
    if g.name != "remove"
        || !g.named_only(&["cells"])
        || !matches!(inner.name.as_str(), "hex" | "tri" | "rotate")
    {
        return None;
    }
    let gone = g.index_list("cells")??;
    let geo = cells(inner)?;
    if gone.iter().any(|&i| i >= geo.len()) {
        return None;
    }
    Some(relabelled(geo.without(&gone)))
}

/// A board changed by `rotate` or `remove`, labelled as Ludii labels it then: hexagonal cells
/// by their axial coordinates ([`Geo::hex_relabelled`]), other boards as they were.
fn relabelled(geo: Geo) -> Geo {
    match geo.shape {
        tiling::Shape::Hexagon => geo.hex_relabelled(),
        _ => geo,
    }
}

/// `(renumber [Cell] <board>)` on cells: the same board, its sites sorted again bottom to top,
/// then left to right, as Ludii's `Graph.reorder` scores them (`100 y + x`).
fn renumbered(g: &BoardFn) -> Option<Geo> {
    let inner = match g.args.as_slice() {
        [inner] => inner,
        [BoardArg::Word(w), inner] if w == "Cell" => inner,
        _ => return None,
    };
    (g.name == "renumber" && g.named.is_empty()).then_some(())?;
    Some(cells(inner.func()?)?.reordered())
}

/// `(remove <board> vertices:{…})` on the vertices of a tiling built without graph functions
/// (`(tri Limping 5 6)`): the other vertices in their order, labels kept.
fn removed_points(g: &BoardFn) -> Option<Geo> {
    let [inner] = g.args.as_slice() else {
        return None;
    };
    if g.name != "remove" || !g.named_only(&["vertices"]) {
        return None;
    }
    let gone = g.index_list("vertices")??;
    let geo = tiled(inner.func()?, SiteKind::Vertex)?;
    gone.iter()
        .all(|&i| i < geo.len())
        .then(|| geo.without(&gone))
}

/// The graph a function builds from the graph of its one graph argument `g`, moved by `f`.
fn moved<G>(
    g: &BoardArg,
    depth: usize,
    sub: fn(&BoardFn, usize) -> Option<G>,
    f: impl FnOnce(&mut G),
) -> Option<G> {
    let mut g = sub(g.func()?, depth + 1)?;
    f(&mut g);
    Some(g)
}

/// The parts of `merge {a b …}` or `merge a b`.
fn parts(args: &[BoardArg]) -> Vec<&BoardArg> {
    match args {
        [BoardArg::List(items)] => items.iter().collect(),
        _ => args.iter().collect(),
    }
}

/// A graph of vertices built by Ludii's board functions, as `use:Vertex` sees them:
/// `(square n)` and `(rectangle r c)` are grids of `n × n` and `r × c` vertices.
pub fn vertex_graph(n: &BoardFn, depth: usize) -> Option<VertexGraph> {
    if depth > 32 {
        return None;
    }
    let args = n.args.as_slice();
    let diagonals = Diagonals::from_name(n.word("diagonals"))?;
    let keys = [
        "diagonals",
        "vertices",
        "edges",
        "cells",
        "rings",
        "joinCorners",
        "joinMidpoints",
        "midpoints",
        "turns",
        "sites",
        "clockwise",
    ];
    if !n.named_only(&keys) {
        return None;
    }
    let xy = |dx: &BoardArg, dy: &BoardArg| Some((dx.num()?, dy.num()?));
    match (n.name.as_str(), args) {
        ("spiral", []) => {
            let turns = size(n.named("turns")?)?;
            let sites = n.named("sites").map_or(Some(0), size)?;
            let clockwise = n.word("clockwise") != Some("False");
            VertexGraph::spiral(turns, sites, clockwise)
        }
        ("concentric", [BoardArg::List(rings)]) => {
            let rings = ring_sizes(rings)?;
            Some(VertexGraph::concentric(&rings))
        }
        ("concentric", [BoardArg::Word(shape)]) => {
            let sides = match shape.as_str() {
                "Triangle" => 3,
                "Square" => 4,
                "Hexagon" => 6,
                _ => return None,
            };
            let rings = n
                .named("rings")
                .and_then(BoardArg::index)
                .filter(|k| (1..=50).contains(k))?;
            let flag = |k: &str, default: bool| match n.word(k) {
                None if n.named(k).is_none() => Some(default),
                Some("True") => Some(true),
                Some("False") => Some(false),
                _ => None,
            };
            Some(VertexGraph::concentric_regular(
                sides,
                rings,
                flag("midpoints", true)?,
                flag("joinMidpoints", true)?,
                flag("joinCorners", false)?,
            ))
        }
        ("square" | "rectangle", [k]) => Some(VertexGraph::grid(size(k)?, size(k)?, diagonals)),
        ("rectangle", [r, c]) => Some(VertexGraph::grid(size(r)?, size(c)?, diagonals)),
        ("regular", [BoardArg::Word(w), k]) if w == "Star" => {
            size(k).filter(|&k| k >= 5).map(VertexGraph::star)
        }
        ("splitCrossings", [g]) => moved(g, depth, vertex_graph, VertexGraph::split_crossings),
        ("wedge", [k]) => Some(VertexGraph::wedge(size(k)?, 3)),
        ("wedge", [k, c]) => Some(VertexGraph::wedge(size(k)?, size(c)?.max(2))),
        ("shift", [dx, dy, g]) => {
            let (dx, dy) = xy(dx, dy)?;
            moved(g, depth, vertex_graph, |g| g.map(|(x, y)| (x + dx, y + dy)))
        }
        ("scale", [k, g]) => {
            let k = k.num()?;
            moved(g, depth, vertex_graph, |g| g.map(|(x, y)| (x * k, y * k)))
        }
        ("scale", [kx, ky, g]) => {
            let (kx, ky) = xy(kx, ky)?;
            moved(g, depth, vertex_graph, |g| g.map(|(x, y)| (x * kx, y * ky)))
        }
        ("rotate", [deg, g]) => {
            let deg = deg.num()?;
            moved(g, depth, vertex_graph, |g| g.rotate(deg))
        }
        // Ludii's `Graph.skew`: each point moved right by `amount` times its height.
        ("skew", [k, g]) => {
            let k = k.num()?;
            moved(g, depth, vertex_graph, |g| g.map(|(x, y)| (x + k * y, y)))
        }
        ("merge", parts_) => {
            let mut g = VertexGraph::default();
            for p in parts(parts_) {
                g.merge(&vertex_graph(p.func()?, depth + 1)?);
            }
            Some(g)
        }
        ("union", parts_) => {
            let mut g = VertexGraph::default();
            for p in parts(parts_) {
                g.union(&vertex_graph(p.func()?, depth + 1)?);
            }
            Some(g)
        }
        ("add" | "graph", rest) if rest.len() <= usize::from(n.name == "add") => {
            let mut g = match rest.first() {
                Some(x) => vertex_graph(x.func()?, depth + 1)?,
                None => VertexGraph::default(),
            };
            if let Some(vs) = n.named("vertices") {
                for v in vs.list()? {
                    g.vertex(v.point()?);
                }
            }
            if let Some(es) = n.named("edges") {
                for e in es.list()? {
                    match e.indices()?.as_slice() {
                        [a, b] if *a < g.v.len() && *b < g.v.len() => g.edge(*a, *b),
                        _ => return None,
                    }
                }
            }
            n.named("cells").is_none().then_some(g)
        }
        ("remove", [g]) => removed_vertices(n, g.func()?, depth),
        _ => None,
    }
}

/// `(remove g [cells:{…}] [edges:{…}] [vertices:{…}])` on vertices. Edges are given by their
/// ends' indexes (`{0 1}`) or positions (`{{1 1} {0 0}}`). Removing cells (of a plain
/// `square` or `rectangle` grid only, whose cells Ludii numbers row by row) removes their
/// sides that border no cell left, and keeps every vertex, as Ludii does.
fn removed_vertices(n: &BoardFn, inner: &BoardFn, depth: usize) -> Option<VertexGraph> {
    let mut g = vertex_graph(inner, depth + 1)?;
    if let Some(cells) = n.index_list("cells") {
        let cells = cells?;
        let grid = match (inner.name.as_str(), inner.args.as_slice()) {
            _ if !inner.named.is_empty() => return None,
            ("square" | "rectangle", [k]) => CellGraph::grid(size(k)? - 1, size(k)? - 1),
            ("rectangle", [r, c]) => CellGraph::grid(size(r)? - 1, size(c)? - 1),
            _ => return None,
        };
        let side = |c: &[usize], e: (usize, usize)| {
            (0..c.len()).any(|w| {
                let (a, b) = (c[w], c[(w + 1) % c.len()]);
                (a.min(b), a.max(b)) == e
            })
        };
        let (gone, kept): (Vec<_>, Vec<_>) = (0..grid.cells.len())
            .map(|i| (i, &grid.cells[i]))
            .partition(|(i, _)| cells.contains(i));
        g.e.retain(|&e| {
            !gone.iter().any(|(_, c)| side(c, e)) || kept.iter().any(|(_, c)| side(c, e))
        });
    }
    if let Some(es) = n.named("edges") {
        for e in es.list()? {
            let ends = match e.list()? {
                [a, b] if a.list().is_some() => {
                    let at = |p: &BoardArg| g.near(p.point()?);
                    (at(a)?, at(b)?)
                }
                _ => match e.indices()?.as_slice() {
                    [a, b] => (*a, *b),
                    _ => return None,
                },
            };
            g.e.retain(|&k| k != (ends.0.min(ends.1), ends.0.max(ends.1)));
        }
    }
    if let Some(idx) = n.index_list("vertices") {
        g.remove(&idx?);
    }
    Some(g)
}

/// The points of a `(poly {{x y} …})` argument.
fn poly_points(poly: &BoardArg) -> Option<Vec<(f64, f64)>> {
    let poly = poly.func().filter(|p| p.name == "poly")?;
    poly.args
        .first()?
        .list()?
        .iter()
        .map(BoardArg::point)
        .collect()
}

/// The ring sizes of `(concentric {…})`: whole numbers within ±1,000.
fn ring_sizes(rings: &[BoardArg]) -> Option<Vec<i64>> {
    rings
        .iter()
        .map(|r| match r {
            BoardArg::Int(k) if (-1000..=1000).contains(k) => Some(*k),
            _ => None,
        })
        .collect()
}

/// A graph of square cells built by Ludii's board functions (`merge`, `shift`, `scale`,
/// `rotate`, `hole`, `add cells:…`, `remove cells:…`) on `square` and `rectangle` boards.
pub fn cell_graph(n: &BoardFn, depth: usize) -> Option<CellGraph> {
    if depth > 32 || !n.named_only(&["cells"]) {
        return None;
    }
    let xy = |dx: &BoardArg, dy: &BoardArg| Some((dx.num()?, dy.num()?));
    match (n.name.as_str(), n.args.as_slice()) {
        ("square", [k]) => Some(CellGraph::grid(size(k)?, size(k)?)),
        ("rectangle", [r, c]) => Some(CellGraph::grid(size(r)?, size(c)?)),
        ("concentric", [BoardArg::List(rings)]) => {
            let rings = ring_sizes(rings)?;
            CellGraph::concentric(&rings)
        }
        ("shift", [dx, dy, g]) => {
            let (dx, dy) = xy(dx, dy)?;
            moved(g, depth, cell_graph, |g| g.g.map(|(x, y)| (x + dx, y + dy)))
        }
        ("scale", [k, g]) => {
            let k = k.num()?;
            moved(g, depth, cell_graph, |g| g.g.map(|(x, y)| (x * k, y * k)))
        }
        ("scale", [kx, ky, g]) => {
            let (kx, ky) = xy(kx, ky)?;
            moved(g, depth, cell_graph, |g| g.g.map(|(x, y)| (x * kx, y * ky)))
        }
        ("rotate", [deg, g]) => {
            let deg = deg.num()?;
            moved(g, depth, cell_graph, |g| g.g.rotate(deg))
        }
        ("skew", [k, g]) => {
            let k = k.num()?;
            moved(g, depth, cell_graph, |g| g.g.map(|(x, y)| (x + k * y, y)))
        }
        ("merge", parts_) => {
            let mut g = CellGraph::default();
            for p in parts(parts_) {
                g.merge(&cell_graph(p.func()?, depth + 1)?);
            }
            Some(g)
        }
        ("union", parts_) => {
            let mut g = CellGraph::default();
            for p in parts(parts_) {
                g.union(&cell_graph(p.func()?, depth + 1)?);
            }
            Some(g)
        }
        // `(keep g (poly …))`: the cells whose corners all lie inside the polygon, grown as
        // Ludii grows it (Go with the Floe, Camelot).
        ("keep", [g, poly]) => {
            let poly = tiling::ludii_inflated(&poly_points(poly)?, 0.1);
            let mut g = cell_graph(g.func()?, depth + 1)?;
            let inside = |v: &usize| g.g.v.get(*v).is_some_and(|&p| tiling::inside(p, &poly));
            let keep: Vec<bool> = g.cells.iter().map(|c| c.iter().all(inside)).collect();
            let mut k = keep.iter();
            g.cells.retain(|_| *k.next().unwrap_or(&true));
            Some(g)
        }
        ("hole", [g, poly]) => {
            let poly = poly_points(poly)?;
            let mut g = cell_graph(g.func()?, depth + 1)?;
            let keep: Vec<bool> = (0..g.cells.len())
                .map(|c| !tiling::inside(g.centre(c), &poly))
                .collect();
            let mut k = keep.iter();
            g.cells.retain(|_| *k.next().unwrap_or(&true));
            Some(g)
        }
        ("add", [g]) => {
            let mut g = cell_graph(g.func()?, depth + 1)?;
            for c in n.named("cells")?.list()? {
                let corners = c.indices()?;
                if corners.len() < 3 || corners.iter().any(|&v| v >= g.g.v.len()) {
                    return None;
                }
                for w in 0..corners.len() {
                    g.g.edge(corners[w], corners[(w + 1) % corners.len()]);
                }
                g.cells.push(corners);
            }
            Some(g)
        }
        ("remove", [g]) => {
            let mut g = cell_graph(g.func()?, depth + 1)?;
            let idx = n.index_list("cells")??;
            let mut i = 0;
            g.cells.retain(|_| {
                i += 1;
                !idx.contains(&(i - 1))
            });
            Some(g)
        }
        _ => None,
    }
}
