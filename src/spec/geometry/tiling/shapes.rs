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
    /// The same sites in `order` (old indexes, new order), links carried along.
    pub fn permuted(&self, order: &[usize]) -> super::Geo {
        let mut new = vec![0; order.len()];
        for (k, &i) in order.iter().enumerate() {
            new[i] = k;
        }
        let links = order
            .iter()
            .map(|&i| {
                let mut l: Vec<(&'static str, usize)> =
                    self.links[i].iter().map(|&(d, j)| (d, new[j])).collect();
                l.sort_by_key(|(d, j)| (super::compass16_index(d), *j));
                l
            })
            .collect();
        super::Geo {
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
    // Lattice point (a, b) is at a·(1, 0) + b·(½, √3/2) from the hexagon's centre.
    let inside = |a: i64, b: i64| a.abs() <= n && b.abs() <= n && (a + b).abs() <= n;
    let at = |a: i64, b: i64| ((a + n) as f64 + b as f64 / 2.0, (b + n) as f64 * h);
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
