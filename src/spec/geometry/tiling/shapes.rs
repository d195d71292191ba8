//! More tilings in Ludii's site order: concentric rings of cells, and the hex shapes (`Star`, `Rectangle`, rows given by sizes).

use super::{CellGraph, VertexGraph};

/// A ring angle as Ludii's `ConcentricCircle` computes it for step `j` of `n` (from the top,
/// clockwise), brought into `[−π, π]` the same way, so equal steps give equal floats.
fn ring_angle(j: usize, n: usize) -> f64 {
    use std::f64::consts::{FRAC_PI_2, PI};
    let mut t = FRAC_PI_2 + 0.0 - 2.0 * PI * j as f64 / n as f64;
    while t < -PI {
        t += 2.0 * PI;
    }
    while t > PI {
        t -= 2.0 * PI;
    }
    t
}

/// Angles sorted ascending, values closer than a ten-thousandth dropped.
fn sorted_angles(mut a: Vec<f64>) -> Vec<f64> {
    a.sort_by(f64::total_cmp);
    a.dedup_by(|x, y| (*x - *y).abs() < 1e-9);
    a
}

impl CellGraph {
    /// Ludii's `(concentric {n₀ n₁ …})` seen on its cells: ring `i` holds `|nᵢ|` cells between
    /// radii `i − ½` and `i + ½`, cut at the angles `90° − 360° j / nᵢ`; every face of that
    /// graph is a cell, the hole inside the first ring too. Cells are numbered as Ludii finds the
    /// faces, walking the vertices ring by ring from the angle −180°: per ring, the cell that
    /// starts at the first vertex, then the one around it that ends there, then the others by
    /// angle; the hole comes second, after the first cell of the first ring. `None` when the
    /// first ring holds cells (cells meeting at the centre) or a later ring fewer than two.
    pub fn concentric(rings: &[i64]) -> Option<CellGraph> {
        let counts: Vec<usize> = rings.iter().map(|n| n.unsigned_abs() as usize).collect();
        let first = counts.iter().position(|&n| n >= 2)?;
        if first == 0 || counts[first..].iter().any(|&n| !(2..=1000).contains(&n)) {
            return None;
        }
        let last = counts.len() - 1;
        // Circle `k` (radius `k − ½`) bounds ring `k` inside and ring `k − 1` outside.
        let ring_angles: Vec<Vec<f64>> = counts
            .iter()
            .map(|&n| sorted_angles((0..n).map(|j| ring_angle(j, n)).collect()))
            .collect();
        let mut g = VertexGraph::default();
        g.v.push((0.0, 0.0)); // Ludii's pivot: a vertex of no cell
        let mut circles: Vec<Vec<(f64, usize)>> = vec![Vec::new(); counts.len() + 1];
        for (k, circle) in circles.iter_mut().enumerate().skip(first) {
            let mut a = Vec::new();
            if k <= last {
                a.extend(&ring_angles[k]);
            }
            if k > first {
                a.extend(&ring_angles[k - 1]);
            }
            let r = k as f64 - 0.5;
            for t in sorted_angles(a) {
                let v = g.vertex((r * t.cos(), r * t.sin()));
                circle.push((t, v));
            }
        }
        let within = |t: f64, a: f64, b: f64| {
            let t = if t < a - 1e-9 {
                t + std::f64::consts::TAU
            } else {
                t
            };
            t >= a - 1e-9 && t <= b + 1e-9
        };
        let mut cells = Vec::new();
        for k in first..=last {
            let t = &ring_angles[k];
            let n = t.len();
            // Interval `j` runs from `t[j]` to the next angle (the last wraps round).
            let span = |j: usize| {
                let b = if j + 1 < n {
                    t[j + 1]
                } else {
                    t[0] + std::f64::consts::TAU
                };
                (t[j], b)
            };
            let corners = |j: usize| -> Vec<usize> {
                let (a, b) = span(j);
                let on = |c: &Vec<(f64, usize)>| -> Vec<usize> {
                    let mut on: Vec<(f64, usize)> = c
                        .iter()
                        .filter(|(u, _)| within(*u, a, b))
                        .map(|&(u, v)| {
                            (
                                if u < a - 1e-9 {
                                    u + std::f64::consts::TAU
                                } else {
                                    u
                                },
                                v,
                            )
                        })
                        .collect();
                    on.sort_by(|x, y| x.0.total_cmp(&y.0));
                    on.into_iter().map(|x| x.1).collect()
                };
                let mut c = on(&circles[k]);
                c.extend(on(&circles[k + 1]).into_iter().rev());
                c
            };
            let m = circles[k].first()?.0;
            let order: Vec<usize> = if (m - t[0]).abs() < 1e-9 {
                [0, n - 1].into_iter().chain(1..n - 1).collect()
            } else {
                [n - 1].into_iter().chain(0..n - 1).collect()
            };
            for (i, j) in order.into_iter().enumerate() {
                cells.push(corners(j));
                if k == first && i == 0 {
                    cells.push(circles[k].iter().map(|x| x.1).collect());
                }
            }
        }
        for c in &cells {
            for w in 0..c.len() {
                g.edge(c[w], c[(w + 1) % c.len()]);
            }
        }
        Some(CellGraph { g, cells })
    }
}

/// Ludii's `(hex Rectangle rows cols)`: `rows` rows of pointed-top hexagonal cells from the
/// bottom, `cols` cells in the even rows and `cols − 1`, shifted half a cell east, in the odd
/// ones; labelled by axial coordinate as [`super::hexagon`].
pub fn hex_rectangle(rows: usize, cols: usize) -> super::Geo {
    let s3 = 3f64.sqrt();
    let mut v = Vec::new();
    for r in 0..rows as i64 {
        let odd = r % 2;
        for k in 0..cols as i64 - odd {
            let x = s3 * (k as f64 + odd as f64 / 2.0);
            v.push((k + (r + odd) / 2, r, x, 1.5 * r as f64));
        }
    }
    super::build(super::Shape::Hexagon, v, &super::HEX, &[])
}

impl super::Geo {
    /// The same sites in `order` (old indexes, new order), links carried along and listed in
    /// compass order.
    pub fn permuted(&self, order: &[usize]) -> super::Geo {
        let mut g = self.selected(order);
        for l in &mut g.links {
            l.sort_by_key(|(d, j)| (super::compass16_index(d), *j));
        }
        g
    }

    /// Labels a board of hexagonal cells as Ludii labels one after `remove` or `rotate`: by
    /// axial coordinate from the centres, shifted so the least column and row are `A` and `1`.
    /// With pointed tops (a neighbour due east) the axes point east and north-east; with flat
    /// tops they point north-east and north-west (`x = 1.5 (c − r)`, `y = 0.866 (c + r)`).
    pub fn hex_relabelled(mut self) -> super::Geo {
        let Some(&(x0, y0)) = self.xy.first() else {
            return self;
        };
        let pitch = self.pitch();
        let s3 = 3f64.sqrt();
        let flat = self.dirs.contains(&"N");
        let axial: Vec<(i64, i64)> = self
            .xy
            .iter()
            .map(|&(x, y)| {
                let (x, y) = ((x - x0) * s3 / pitch, (y - y0) * s3 / pitch);
                let (c, r) = if flat {
                    (
                        (x / 1.5 + 2.0 * y / s3) / 2.0,
                        (2.0 * y / s3 - x / 1.5) / 2.0,
                    )
                } else {
                    (x / s3 + y / 3.0, y / 1.5)
                };
                (c.round() as i64, r.round() as i64)
            })
            .collect();
        let min_c = axial.iter().map(|a| a.0).min().unwrap_or(0);
        let min_r = axial.iter().map(|a| a.1).min().unwrap_or(0);
        self.label_rc = axial
            .iter()
            .map(|&(c, r)| ((c - min_c) as usize, (r - min_r) as usize))
            .collect();
        self.names = self
            .label_rc
            .iter()
            .map(|&(c, r)| format!("{}{}", super::col_letters(c), r + 1))
            .collect();
        self
    }

    /// The sites sorted as Ludii's `Graph.reorder` sorts them (`(renumber …)`): by `100 y + x`,
    /// a stable sort.
    pub fn reordered(&self) -> super::Geo {
        let score = |i: usize| self.xy[i].1 * 100.0 + self.xy[i].0;
        let mut order: Vec<usize> = (0..self.len()).collect();
        order.sort_by(|&a, &b| score(a).total_cmp(&score(b)));
        self.permuted(&order)
    }
}

/// Ludii's `(hex Star n)`: a six-pointed star of pointed-top hexagonal cells, the union of two
/// triangles of `3n + 1` cells a side, one pointing up and one down, around a hexagon of
/// `n + 1` cells a side (121 cells for `n = 4`, the Chinese Checkers board); labelled by
/// axial coordinate as [`super::hexagon`].
pub fn hex_star(n: usize) -> super::Geo {
    let n = n as i64;
    let s3 = 3f64.sqrt();
    let mut v = Vec::new();
    for b in -2 * n..=2 * n {
        for a in -2 * n..=2 * n {
            let up = a >= -n && b <= n && b - a >= -n;
            let down = a <= n && b >= -n && b - a <= n;
            if up || down {
                v.push((a, b, s3 * (a as f64 - b as f64 / 2.0), 1.5 * b as f64));
            }
        }
    }
    super::build(super::Shape::Hexagon, v, &super::HEX, &[])
}

/// Ludii's `(square Diamond n)` on cells: the squares of a `(2n − 1)`-square grid within
/// `n − 1` steps (orthogonal) of its middle square, rows of 1, 3, …, 2n − 1, …, 1 cells;
/// labelled by their column and row in that grid, linked orthogonally and diagonally.
pub fn square_diamond(n: usize) -> super::Geo {
    let k = n as i64 - 1;
    let mut v = Vec::new();
    for r in 0..=2 * k {
        for c in 0..=2 * k {
            if (c - k).abs() + (r - k).abs() <= k {
                v.push((c, r, c as f64 + 0.5, r as f64 + 0.5));
            }
        }
    }
    super::build(super::Shape::Grid, v, &super::SQ_ORTH, &super::SQ_DIAG)
}

/// Ludii's `(tri Hexagon n)` on cells: the `6n²` unit triangles of a hexagon of side `n`
/// (its bottom-left corner at the origin), sorted as Ludii's `Graph.reorder` sorts them (by
/// `100 y + x` of their centres), each linked to every triangle it shares a corner with.
pub fn tri_hexagon_cells(n: usize) -> CellGraph {
    let n = n as i64;
    let h = 3f64.sqrt() / 2.0;
    // Lattice point (a, b) is at a·(1, 0) + b·(½, √3/2) from the hexagon's centre; the
    // bottom-left corner is put at the origin, as Ludii has it.
    let inside = |a: i64, b: i64| a.abs() <= n && b.abs() <= n && (a + b).abs() <= n;
    let at = |a: i64, b: i64| ((2 * a + b + n) as f64 / 2.0, (b + n) as f64 * h);
    let mut g = VertexGraph::default();
    let mut cells: Vec<Vec<usize>> = Vec::new();
    for b in -n..=n {
        for a in -n..=n {
            let up = [(a, b), (a + 1, b), (a, b + 1)];
            let down = [(a, b), (a + 1, b - 1), (a + 1, b)];
            for tri in [up, down] {
                if tri.iter().all(|&(a, b)| inside(a, b)) {
                    cells.push(tri.iter().map(|&(a, b)| g.vertex(at(a, b))).collect());
                }
            }
        }
    }
    let mut cg = CellGraph { g, cells };
    let score = |c: &Vec<usize>| {
        let (x, y) = c.iter().fold((0.0, 0.0), |(x, y), &v| {
            (x + cg.g.v[v].0 / 3.0, y + cg.g.v[v].1 / 3.0)
        });
        y * 100.0 + x
    };
    let mut keyed: Vec<(f64, Vec<usize>)> =
        cg.cells.iter().map(|c| (score(c), c.clone())).collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    cg.cells = keyed.into_iter().map(|x| x.1).collect();
    for c in &cg.cells.clone() {
        for w in 0..3 {
            cg.g.edge(c[w], c[(w + 1) % 3]);
        }
    }
    cg
}

/// Ludii's `(square n pyramidal:True)` on vertices: layers of `n × n`, `(n − 1) × (n − 1)`, …,
/// `1` points, each layer's points above the middles of the squares of the one below (layer
/// `k` at `(k/2 + i, k/2 + j)`). Sorted as Ludii's `Graph.reorder` sorts them (by `100 y + x`,
/// lower layers first where points coincide); labelled `<column><row>/<layer>` with columns and
/// rows counted in half units (`A1/0`, `B2/1`). Points link to their orthogonal and diagonal
/// neighbours in the layer and to the four points they touch in the layers above and below
/// (Ludii's orthogonal relation), named `UNE` … `DNW` as Ludii names those directions. `None`
/// past [`super::MAX_SITES`] sites.
pub fn pyramid(n: usize) -> Option<super::Geo> {
    let total: usize = (1..=n).map(|k| k * k).sum();
    if total > super::MAX_SITES {
        return None;
    }
    // Doubled coordinates: layer k, X = k + 2i, Y = k + 2j.
    let mut sites: Vec<(i64, i64, i64)> = Vec::with_capacity(total);
    for k in 0..n as i64 {
        for j in 0..n as i64 - k {
            for i in 0..n as i64 - k {
                sites.push((k, k + 2 * i, k + 2 * j));
            }
        }
    }
    let score = |s: &(i64, i64, i64)| s.2 as f64 * 50.0 + s.1 as f64 / 2.0;
    sites.sort_by(|a, b| score(a).total_cmp(&score(b)));
    let at: std::collections::HashMap<(i64, i64, i64), usize> = // lookup only
        sites.iter().enumerate().map(|(i, s)| (*s, i)).collect();
    const SAME: [(i64, i64, &str); 8] = [
        (0, 2, "N"),
        (2, 2, "NE"),
        (2, 0, "E"),
        (2, -2, "SE"),
        (0, -2, "S"),
        (-2, -2, "SW"),
        (-2, 0, "W"),
        (-2, 2, "NW"),
    ];
    const UP: [(i64, i64, &str); 4] = [
        (1, 1, "UNE"),
        (1, -1, "USE"),
        (-1, -1, "USW"),
        (-1, 1, "UNW"),
    ];
    const DOWN: [(i64, i64, &str); 4] = [
        (1, 1, "DNE"),
        (1, -1, "DSE"),
        (-1, -1, "DSW"),
        (-1, 1, "DNW"),
    ];
    let links: Vec<Vec<(&'static str, usize)>> = sites
        .iter()
        .map(|&(k, x, y)| {
            let same = SAME.iter().map(|&(dx, dy, d)| (k, dx, dy, d));
            let up = UP.iter().map(|&(dx, dy, d)| (k + 1, dx, dy, d));
            let down = DOWN.iter().map(|&(dx, dy, d)| (k - 1, dx, dy, d));
            same.chain(up)
                .chain(down)
                .filter_map(|(k, dx, dy, d)| at.get(&(k, x + dx, y + dy)).map(|&j| (d, j)))
                .collect()
        })
        .collect();
    let mut dirs: Vec<&'static str> = Vec::new();
    for (d, _) in links.iter().flatten() {
        if !dirs.contains(d) {
            dirs.push(d);
        }
    }
    let order = |d: &&str| SAME.iter().chain(&UP).chain(&DOWN).position(|x| x.2 == *d);
    dirs.sort_by_key(order);
    let orth: Vec<&'static str> = dirs
        .iter()
        .copied()
        .filter(|d| !matches!(*d, "NE" | "SE" | "SW" | "NW"))
        .collect();
    let diag: Vec<&'static str> = dirs.iter().copied().filter(|d| !orth.contains(d)).collect();
    let label_rc: Vec<(usize, usize)> =
        sites.iter().map(|s| (s.1 as usize, s.2 as usize)).collect();
    Some(super::Geo {
        shape: super::Shape::Graph,
        names: sites
            .iter()
            .map(|&(k, x, y)| format!("{}{}/{k}", super::col_letters(x as usize), y + 1))
            .collect(),
        label_rc,
        xy: sites
            .iter()
            .map(|s| (s.1 as f64 / 2.0, s.2 as f64 / 2.0))
            .collect(),
        links,
        dirs,
        orth,
        diag,
    })
}

#[cfg(test)]
mod tests {
    //! Facts from the Ludii oracle on small boards (`ludii facts` and the board driver on probe
    //! `.lud` files): counts, index order, centres and neighbours.
    use super::*;
    use std::collections::BTreeSet;

    fn linked(g: &super::super::Geo, i: usize) -> BTreeSet<usize> {
        g.links[i].iter().map(|l| l.1).collect()
    }

    fn set(v: &[usize]) -> BTreeSet<usize> {
        v.iter().copied().collect()
    }

    fn near(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 1e-3 && (a.1 - b.1).abs() < 1e-3
    }

    #[test]
    fn concentric_cells_number_rings_from_the_west_with_the_hole_second() {
        // (concentric {0 4 8}): 13 cells, the hole (the centre) is cell 1.
        let g = CellGraph::concentric(&[0, 4, 8]).unwrap().geo();
        assert_eq!(g.len(), 13);
        assert!(near(g.xy[0], (-0.6121, -0.6121)));
        assert!(near(g.xy[1], (0.0, 0.0)));
        assert!(near(g.xy[2], (-0.6121, 0.6121)));
        let r = std::f64::consts::FRAC_1_SQRT_2;
        assert!(near(g.xy[5], (-1.0 - r, -r)));
        assert!(near(g.xy[6], (-1.0 - r, r)));
        assert_eq!(linked(&g, 0), set(&[1, 2, 3, 5, 6, 7, 8]));
        assert_eq!(linked(&g, 1), set(&[0, 2, 3, 4]));
        // Six cells a ring: the first vertex is at −150°, not on the west.
        let g = CellGraph::concentric(&[0, 0, 6, 6]).unwrap().geo();
        assert_eq!(g.len(), 13);
        assert!(near(g.xy[0], (-0.866, -1.5)));
        assert!(near(g.xy[2], (-1.7321, 0.0)));
        assert!(near(g.xy[7], (-1.299, -2.25)));
        assert_eq!(linked(&g, 1), set(&[0, 2, 3, 4, 5, 6]));
        // A centre cell is the hole.
        let g = CellGraph::concentric(&[1, 6]).unwrap().geo();
        assert_eq!(g.len(), 7);
        assert!(near(g.xy[1], (0.0, 0.0)));
        assert!(CellGraph::concentric(&[4, 8]).is_none());
    }

    #[test]
    fn hex_rectangles_and_stars_index_and_label_like_ludii() {
        let g = hex_rectangle(3, 4);
        assert_eq!(g.len(), 11);
        assert_eq!(&g.names[..5], ["A1", "B1", "C1", "D1", "B2"]);
        assert_eq!(g.names[7], "B3");
        assert_eq!(linked(&g, 4), set(&[0, 1, 5, 7, 8]));
        let g = hex_star(1);
        assert_eq!(g.len(), 13);
        assert_eq!(&g.names[..3], ["B1", "A2", "B2"]);
        assert_eq!(g.names[12], "D5");
        assert_eq!(linked(&g, 6), set(&[2, 3, 5, 7, 9, 10]));
        assert_eq!(hex_star(4).len(), 121);
    }

    #[test]
    fn turned_and_cut_hex_boards_are_relabelled_by_axial_coordinate() {
        // (remove (rotate 90 (hex 3)) cells:{0}): flat tops, labels from the axes NE and NW.
        let g = super::super::hexagon(3)
            .rotated(90.0)
            .without(&[0])
            .hex_relabelled();
        assert_eq!(g.len(), 18);
        assert_eq!(&g.names[..3], ["D2", "E3", "B1"]);
        // Pointed tops: the axial labels shifted to start at A and 1.
        let g = hex_rectangle(3, 4).without(&[0]).hex_relabelled();
        assert_eq!(&g.names[..3], ["A1", "B1", "C1"]);
    }

    #[test]
    fn diamonds_of_squares_and_hexagons_of_triangles_index_like_ludii() {
        let g = square_diamond(3);
        assert_eq!(g.len(), 13);
        assert_eq!(&g.names[..4], ["C1", "B2", "C2", "D2"]);
        assert_eq!(linked(&g, 0), set(&[1, 2, 3]));
        assert_eq!(linked(&g, 1), set(&[0, 2, 4, 5, 6]));
        let g = tri_hexagon_cells(2).geo();
        assert_eq!(g.len(), 24);
        assert!(near(g.xy[2], (0.0, 0.5774)));
        assert_eq!(linked(&g, 0), set(&[1, 2, 3, 5, 6, 9]));
        assert_eq!(linked(&g, 1), set(&[0, 3, 4, 6, 7, 10]));
    }

    #[test]
    fn pyramids_stack_layers_in_ludii_order() {
        let g = pyramid(3).unwrap();
        assert_eq!(g.len(), 14);
        assert_eq!(
            &g.names[..8],
            [
                "A1/0", "C1/0", "E1/0", "B2/1", "D2/1", "A3/0", "C3/0", "C3/2"
            ]
        );
        let orth = set(&[9, 6, 7, 4, 1, 0, 5]);
        assert!(linked(&g, 3).is_superset(&orth));
        assert!(linked(&g, 3).is_subset(&set(&[9, 6, 7, 4, 1, 0, 5, 10])));
        assert_eq!(linked(&g, 7), set(&[3, 4, 9, 10]));
        assert!(pyramid(60).is_none());
    }
}
