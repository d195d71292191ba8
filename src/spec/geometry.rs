//! Board geometry: computes the explicit positions, links and opposites from a compact [`Layout`].
//!
//! A layout is either ZRF-style grids and position lists (below) or a construction by board
//! functions, built by [`build`] over the tilings and graphs of [`tiling`].
//!
//! The rules (ZRF's, `notes/zrf-language.md` §7, with z2j's enumeration order):
//! - a grid's positions are the cartesian product of its dimension labels, named by
//!   concatenating the labels, enumerated with the **last dimension outermost**; the rectangle of
//!   label indexes `(i0, i1, …)` is the start rectangle moved by `Σ ik·offsetk`;
//! - a grid direction links index tuple `c` to `c + delta` when that tuple exists in the same
//!   grid (missing delta components are 0); the same direction name may link in several grids;
//! - then explicit positions, then dummy positions, in order;
//! - `links` then set a position's link in a direction (replacing a grid link) and `unlink`
//!   removes links, in the order the source gave them (a group of links carries how many
//!   removals came before it), and `kill-positions` marks positions as killed and removes every link to or
//!   from them (the positions stay listed, flagged, as z2j keeps them and zones name them).

use super::types::{Construction, Layout, Link, Opposite, Position};

pub mod build;
pub mod frame;
mod infer;
pub mod tiling;
pub use infer::{UNIT, grid_of, rects_from_centres};

/// A problem found while computing geometry (the caller attaches a location).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeometryIssue {
    /// Stable code, e.g. `spec::duplicate-position`.
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
}

/// The explicit board computed from a layout.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Computed {
    /// Direction names in order of first definition.
    pub directions: Vec<String>,
    /// Positions with their links.
    pub positions: Vec<Position>,
}

/// Largest number of positions a layout may produce: a 200×200 grid, 64 times Tai Shogi (the
/// largest board in the shared corpus); a million positions took 10 s and 1 GB to convert.
pub const MAX_POSITIONS: usize = 40_000;

/// Issue code: the layout would have more positions than the limit.
pub const CODE_BOARD_TOO_LARGE: &str = "spec::board-too-large";

/// Issue code: a layout's construction builds no board, or comes with grids or positions too.
pub const CODE_BAD_CONSTRUCTION: &str = "spec::bad-construction";

/// The board a construction builds (a layout with a construction has nothing else).
fn constructed(layout: &Layout, c: &Construction) -> (Computed, Vec<GeometryIssue>) {
    let alone = Layout {
        construction: Some(c.clone()),
        ..Layout::default()
    };
    let mut issues = Vec::new();
    if *layout != alone {
        issues.push(GeometryIssue {
            code: CODE_BAD_CONSTRUCTION,
            message: "a layout with a construction has no grids, positions, links or removals"
                .into(),
        });
    }
    match build::build(c) {
        Ok(geo) => {
            let b = geo.spec_board(c.clone());
            let computed = Computed {
                directions: b.directions,
                positions: b.positions,
            };
            (computed, issues)
        }
        Err(e) => {
            let message = match e {
                build::BuildError::BadSize(why) => format!("the construction's board {why}"),
                build::BuildError::Unsupported(f) => {
                    format!("the board function `{f}` (or its arguments) is not built")
                }
            };
            issues.push(GeometryIssue {
                code: CODE_BAD_CONSTRUCTION,
                message,
            });
            (Computed::default(), issues)
        }
    }
}

/// Computes directions, positions and links with the [`MAX_POSITIONS`] limit; problems are
/// returned, never fatal.
pub fn compute(layout: &Layout) -> (Computed, Vec<GeometryIssue>) {
    compute_limited(layout, MAX_POSITIONS)
}

/// [`compute`] with another position limit. The count is computed from the layout before
/// anything is allocated, so a 100000×100000 grid costs nothing.
pub fn compute_limited(layout: &Layout, max_positions: usize) -> (Computed, Vec<GeometryIssue>) {
    if let Some(c) = &layout.construction {
        return constructed(layout, c);
    }
    let mut issues = Vec::new();
    let directions = layout_directions(layout);
    let dir_index: rustc_hash::FxHashMap<&str, usize> = directions // lookup only
        .iter()
        .enumerate()
        .map(|(i, d)| (d.as_str(), i))
        .collect();

    // Positions.
    let total = position_count(layout);
    if total > max_positions {
        issues.push(GeometryIssue {
            code: CODE_BOARD_TOO_LARGE,
            message: format!(
                "the board would have {total} positions, more than the limit of {max_positions}"
            ),
        });
        return (
            Computed {
                directions,
                positions: Vec::new(),
            },
            issues,
        );
    }
    let Placed {
        mut positions,
        index,
        grid_slots,
    } = Placed::of(layout, total, &mut issues);

    // Links: per position, per direction index → target position index.
    let nd = directions.len();
    let mut links = grid_links(
        layout,
        &grid_slots,
        &dir_index,
        positions.len(),
        &mut issues,
    );
    let edits = Edits {
        nd,
        index: &index,
        dir_index: &dir_index,
    };
    edits.apply(layout, &mut links, &mut issues);
    let mut killed = vec![false; positions.len()];
    for k in &layout.kill_positions {
        match index.get(k) {
            Some(&x) => killed[x] = true,
            None => issues.push(GeometryIssue {
                code: "spec::unknown-position",
                message: format!("kill-positions names `{k}`, which the board does not have"),
            }),
        }
    }
    let names: Vec<String> = positions.iter().map(|p| p.name.clone()).collect();
    for (i, p) in positions.iter_mut().enumerate() {
        p.killed = killed[i];
        if p.killed {
            continue;
        }
        p.links = links[i * nd..(i + 1) * nd]
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t != NO_LINK && !killed[t])
            .map(|(d, &t)| Link {
                direction: directions[d].clone(),
                to: names[t].clone(),
            })
            .collect();
    }
    (
        Computed {
            directions,
            positions,
        },
        issues,
    )
}

/// The layout's direction names: grid directions in order, then directions defined only by
/// `links`.
fn layout_directions(layout: &Layout) -> Vec<String> {
    let mut directions: Vec<String> = Vec::new();
    let mut seen: rustc_hash::FxHashSet<&str> = Default::default(); // lookup only
    let grid_dirs = layout
        .grids
        .iter()
        .flat_map(|g| g.directions.iter().map(|d| &d.name));
    for n in grid_dirs.chain(layout.links.iter().map(|l| &l.direction)) {
        if seen.insert(n.as_str()) {
            directions.push(n.clone());
        }
    }
    directions
}

/// How many positions the layout defines (saturating), duplicates included.
fn position_count(layout: &Layout) -> usize {
    layout
        .grids
        .iter()
        .map(|g| {
            g.dimensions
                .iter()
                .map(|d| d.labels.len())
                .try_fold(1usize, |a, b| a.checked_mul(b))
                .unwrap_or(usize::MAX)
        })
        .fold(0usize, |a, b| a.saturating_add(b))
        .saturating_add(layout.positions.len() + layout.dummy.len())
}

/// The layout's positions without links: the grids', then the explicit ones, then the dummies.
struct Placed {
    positions: Vec<Position>,
    /// Position name → index.
    index: rustc_hash::FxHashMap<String, usize>, // lookup only
    /// Per grid: flat index → position index (None when the name collided).
    grid_slots: Vec<Vec<Option<usize>>>,
}

impl Placed {
    /// Enumerates the `total` positions of `layout`.
    fn of(layout: &Layout, total: usize, issues: &mut Vec<GeometryIssue>) -> Placed {
        let mut placed = Placed {
            positions: Vec::with_capacity(total),
            index: Default::default(),
            grid_slots: Vec::new(),
        };
        for (gi, g) in layout.grids.iter().enumerate() {
            let dims: Vec<usize> = g.dimensions.iter().map(|d| d.labels.len()).collect();
            let count: usize = dims.iter().product();
            let mut slots = Vec::with_capacity(count);
            let [x1, y1, x2, y2] = g.start_rectangle;
            for flat in 0..count {
                let coords = unflatten(flat, &dims);
                let mut name = String::new();
                let (mut x, mut y) = (x1, y1);
                for (k, &c) in coords.iter().enumerate() {
                    name.push_str(&g.dimensions[k].labels[c]);
                    x += c as i64 * g.dimensions[k].offset[0];
                    y += c as i64 * g.dimensions[k].offset[1];
                }
                let p = Position {
                    name,
                    rect: Some([x, y, x + (x2 - x1), y + (y2 - y1)]),
                    grid: Some(super::types::GridCoord { grid: gi, coords }),
                    dummy: false,
                    killed: false,
                    links: Vec::new(),
                };
                slots.push(placed.push(p, issues));
            }
            placed.grid_slots.push(slots);
        }
        for lp in &layout.positions {
            let p = Position {
                name: lp.name.clone(),
                rect: Some(lp.rect),
                grid: None,
                dummy: false,
                killed: false,
                links: Vec::new(),
            };
            placed.push(p, issues);
        }
        for d in &layout.dummy {
            let p = Position {
                name: d.clone(),
                rect: None,
                grid: None,
                dummy: true,
                killed: false,
                links: Vec::new(),
            };
            placed.push(p, issues);
        }
        placed
    }

    /// Adds `p` and returns its index, unless its name is taken (reported; the first is kept).
    fn push(&mut self, p: Position, issues: &mut Vec<GeometryIssue>) -> Option<usize> {
        if self.index.contains_key(&p.name) {
            issues.push(GeometryIssue {
                code: "spec::duplicate-position",
                message: format!(
                    "position `{}` is defined more than once; the first definition is kept",
                    p.name
                ),
            });
            return None;
        }
        self.index.insert(p.name.clone(), self.positions.len());
        self.positions.push(p);
        Some(self.positions.len() - 1)
    }
}

/// The grids' links as a dense table: per position and direction index, the target position
/// (or [`NO_LINK`]), read in direction order.
fn grid_links(
    layout: &Layout,
    grid_slots: &[Vec<Option<usize>>],
    dir_index: &rustc_hash::FxHashMap<&str, usize>, // lookup only
    n_positions: usize,
    issues: &mut Vec<GeometryIssue>,
) -> Vec<usize> {
    let nd = dir_index.len();
    let mut links: Vec<usize> = vec![NO_LINK; n_positions * nd];
    for (gi, g) in layout.grids.iter().enumerate() {
        let dims: Vec<usize> = g.dimensions.iter().map(|d| d.labels.len()).collect();
        for d in &g.directions {
            let di = dir_index[d.name.as_str()];
            if d.delta.len() > dims.len() {
                issues.push(GeometryIssue {
                    code: "spec::bad-direction",
                    message: format!(
                        "direction `{}` has {} components but the grid has {} dimensions; the extra ones are ignored",
                        d.name,
                        d.delta.len(),
                        dims.len()
                    ),
                });
            }
            for (flat, slot) in grid_slots[gi].iter().enumerate() {
                let Some(from) = slot else { continue };
                let coords = unflatten(flat, &dims);
                let mut target = Vec::with_capacity(dims.len());
                let mut inside = true;
                for (k, &c) in coords.iter().enumerate() {
                    let t = c as i64 + d.delta.get(k).copied().unwrap_or(0);
                    if t < 0 || t >= dims[k] as i64 {
                        inside = false;
                        break;
                    }
                    target.push(t as usize);
                }
                if !inside {
                    continue;
                }
                if let Some(to) = grid_slots[gi][flatten(&target, &dims)] {
                    links[*from * nd + di] = to;
                }
            }
        }
    }
    links
}

fn unflatten(mut flat: usize, dims: &[usize]) -> Vec<usize> {
    // First dimension innermost.
    let mut c = Vec::with_capacity(dims.len());
    for &d in dims {
        c.push(flat % d.max(1));
        flat /= d.max(1);
    }
    c
}

fn flatten(coords: &[usize], dims: &[usize]) -> usize {
    let mut flat = 0;
    for k in (0..dims.len()).rev() {
        flat = flat * dims[k] + coords[k];
    }
    flat
}

/// Opposite directions by link reversal: `d2` is the opposite of `d` when every link
/// `a -d-> b` has `b -d2-> a` and every `d2` link reverses a `d` link. The first such direction
/// in direction order is taken.
pub fn opposites<'p>(directions: &[String], positions: &'p [Position]) -> Vec<Opposite> {
    // Links as (from, to) pairs of interned position names, sorted and deduplicated per
    // direction: comparing sets of such pairs is comparing sets of name pairs.
    let mut names: rustc_hash::FxHashMap<&'p str, u32> = Default::default(); // lookup only
    let mut id = |s: &'p str| -> u32 {
        let next = names.len() as u32;
        *names.entry(s).or_insert(next)
    };
    let di: rustc_hash::FxHashMap<&str, usize> = directions // lookup only
        .iter()
        .enumerate()
        .map(|(i, d)| (d.as_str(), i))
        .collect();
    let mut by_dir: Vec<Vec<(u32, u32)>> = vec![Vec::new(); directions.len()];
    for p in positions {
        let from = id(&p.name);
        for l in &p.links {
            if let Some(&i) = di.get(l.direction.as_str()) {
                by_dir[i].push((from, id(&l.to)));
            }
        }
    }
    for pairs in &mut by_dir {
        pairs.sort_unstable();
        pairs.dedup();
    }
    let mut out = Vec::new();
    for (i, d) in directions.iter().enumerate() {
        if by_dir[i].is_empty() {
            continue;
        }
        let mut reversed: Vec<(u32, u32)> = by_dir[i].iter().map(|&(a, b)| (b, a)).collect();
        reversed.sort_unstable();
        if let Some(j) = (0..directions.len()).find(|&j| by_dir[j] == reversed) {
            out.push(Opposite {
                direction: d.clone(),
                opposite: directions[j].clone(),
            });
        }
    }
    out
}

/// Marks a missing link target in the dense link table.
const NO_LINK: usize = usize::MAX;

/// Applies `links` groups and `unlink` removals to the dense link table (per position, per
/// direction index, the target position or [`NO_LINK`]).
struct Edits<'a> {
    nd: usize,
    index: &'a rustc_hash::FxHashMap<String, usize>, // lookup only
    dir_index: &'a rustc_hash::FxHashMap<&'a str, usize>, // lookup only
}

impl Edits<'_> {
    /// `links` and `unlink` in the order the source gave them: a group of links comes after
    /// the first `after_unlinks` removals (ZRF applies board statements in order).
    fn apply(&self, layout: &Layout, links: &mut [usize], issues: &mut Vec<GeometryIssue>) {
        let mut groups: Vec<&super::types::LayoutLinks> = layout.links.iter().collect();
        groups.sort_by_key(|l| l.after_unlinks);
        let mut removed = 0;
        for l in groups {
            let upto = l.after_unlinks.clamp(removed, layout.unlink.len());
            for u in &layout.unlink[removed..upto] {
                self.unlink(u, links, issues);
            }
            removed = upto;
            self.link(l, links, issues);
        }
        for u in &layout.unlink[removed..] {
            self.unlink(u, links, issues);
        }
    }

    /// Sets each link of the group (replacing a grid link).
    fn link(
        &self,
        l: &super::types::LayoutLinks,
        links: &mut [usize],
        issues: &mut Vec<GeometryIssue>,
    ) {
        let di = self.dir_index[l.direction.as_str()];
        for [a, b] in &l.links {
            match (self.index.get(a), self.index.get(b)) {
                (Some(&x), Some(&y)) => links[x * self.nd + di] = y,
                _ => issues.push(GeometryIssue {
                    code: "spec::unknown-position",
                    message: format!(
                        "link `{}` ({a} → {b}) names a position the board does not have",
                        l.direction
                    ),
                }),
            }
        }
    }

    /// Removes the links one `unlink` entry names.
    fn unlink(
        &self,
        u: &super::types::Unlink,
        links: &mut [usize],
        issues: &mut Vec<GeometryIssue>,
    ) {
        let nd = self.nd;
        match u {
            super::types::Unlink::Link([a, b]) => match (self.index.get(a), self.index.get(b)) {
                (Some(&x), Some(&y)) => {
                    for t in &mut links[x * nd..(x + 1) * nd] {
                        if *t == y {
                            *t = NO_LINK;
                        }
                    }
                }
                (Some(&x), None) if self.dir_index.contains_key(b.as_str()) => {
                    links[x * nd + self.dir_index[b.as_str()]] = NO_LINK;
                }
                _ => issues.push(GeometryIssue {
                    code: "spec::unknown-position",
                    message: format!("unlink ({a} {b}) names a position the board does not have"),
                }),
            },
            super::types::Unlink::From(a) => match self.index.get(a) {
                Some(&x) => links[x * nd..(x + 1) * nd].fill(NO_LINK),
                None => issues.push(GeometryIssue {
                    code: "spec::unknown-position",
                    message: format!("unlink {a} names a position the board does not have"),
                }),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::types::{Dimension, Grid, GridDirection, LayoutLinks, Unlink};

    fn grid(files: &str, ranks: &str, dirs: &[(&str, &[i64])]) -> Grid {
        Grid {
            start_rectangle: [0, 0, 10, 10],
            dimensions: vec![
                Dimension {
                    labels: files.split('/').map(String::from).collect(),
                    offset: [10, 0],
                },
                Dimension {
                    labels: ranks.split('/').map(String::from).collect(),
                    offset: [0, 10],
                },
            ],
            directions: dirs
                .iter()
                .map(|(n, d)| GridDirection {
                    name: n.to_string(),
                    delta: d.to_vec(),
                })
                .collect(),
        }
    }

    fn link(c: &Computed, from: &str, dir: &str) -> Option<String> {
        c.positions
            .iter()
            .find(|p| p.name == from)?
            .links
            .iter()
            .find(|l| l.direction == dir)
            .map(|l| l.to.clone())
    }

    #[test]
    fn grid_names_order_rectangles_and_links() {
        let layout = Layout {
            grids: vec![grid("a/b/c", "3/2/1", &[("n", &[0, -1]), ("e", &[1, 0])])],
            ..Default::default()
        };
        let (c, issues) = compute(&layout);
        assert!(issues.is_empty());
        let names: Vec<&str> = c.positions.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"]
        );
        assert_eq!(c.positions[4].rect, Some([10, 10, 20, 20]));
        assert_eq!(link(&c, "b1", "n").as_deref(), Some("b2"));
        assert_eq!(link(&c, "b3", "n"), None);
        assert_eq!(link(&c, "c2", "e"), None);
        let opp = opposites(&c.directions, &c.positions);
        assert!(
            opp.is_empty(),
            "n and e have no reverse directions here: {opp:?}"
        );
    }

    #[test]
    fn hex_like_negative_offsets_and_missing_components() {
        let mut g = grid("a/b", "1/2", &[("ne", &[1]), ("sw", &[-1])]);
        g.dimensions[0].offset = [-52, 90];
        let (c, _) = compute(&Layout {
            grids: vec![g],
            ..Default::default()
        });
        assert_eq!(c.positions[1].rect, Some([-52, 90, -42, 100]));
        assert_eq!(link(&c, "a1", "ne").as_deref(), Some("b1"));
        let opp = opposites(&c.directions, &c.positions);
        assert_eq!(opp[0].opposite, "sw");
    }

    #[test]
    fn multiple_grids_keep_links_inside_each_grid_and_share_names() {
        let layout = Layout {
            grids: vec![
                grid("a/b", "1", &[("nx", &[1, 0])]),
                grid("x/y", "9", &[("nx", &[-1, 0])]),
            ],
            ..Default::default()
        };
        let (c, _) = compute(&layout);
        assert_eq!(c.directions, ["nx"]);
        assert_eq!(link(&c, "a1", "nx").as_deref(), Some("b1"));
        assert_eq!(link(&c, "y9", "nx").as_deref(), Some("x9"));
        assert_eq!(link(&c, "b1", "nx"), None);
    }

    #[test]
    fn links_unlink_and_kill_positions_apply_in_order() {
        let layout = Layout {
            grids: vec![grid("a/b/c", "1", &[("e", &[1, 0]), ("w", &[-1, 0])])],
            links: vec![LayoutLinks {
                direction: "wrap".into(),
                links: vec![["c1".into(), "a1".into()]],
                after_unlinks: 0,
            }],
            unlink: vec![
                Unlink::Link(["a1".into(), "b1".into()]),
                Unlink::Link(["b1".into(), "wrap".into()]),
            ],
            kill_positions: vec!["c1".into()],
            ..Default::default()
        };
        let (c, issues) = compute(&layout);
        assert!(issues.is_empty());
        assert_eq!(c.positions.len(), 3);
        assert!(c.positions[2].killed && c.positions[2].links.is_empty());
        assert_eq!(link(&c, "a1", "e"), None); // unlinked
        assert_eq!(link(&c, "b1", "e"), None); // c1 killed
        assert_eq!(link(&c, "b1", "w").as_deref(), Some("a1"));
        assert_eq!(c.directions, ["e", "w", "wrap"]);
    }

    #[test]
    fn an_unlink_leaves_the_links_declared_after_it() {
        // Chessence's board: `(unlink x1 x2 x3)` then `(links res (b1 x1) (x1 x2) (x2 x3))`.
        let group = |after_unlinks| LayoutLinks {
            direction: "res".into(),
            links: vec![["x1".into(), "x2".into()], ["x2".into(), "x3".into()]],
            after_unlinks,
        };
        let unlink: Vec<Unlink> = ["x1", "x2"].map(|p| Unlink::From(p.into())).into();
        let layout = |groups| Layout {
            grids: vec![grid("x/a", "1/2/3", &[("e", &[1, 0])])],
            links: groups,
            unlink: unlink.clone(),
            ..Default::default()
        };
        let (c, issues) = compute(&layout(vec![group(2)]));
        assert!(issues.is_empty());
        assert_eq!(link(&c, "x1", "res").as_deref(), Some("x2"));
        assert_eq!(link(&c, "x2", "res").as_deref(), Some("x3"));
        assert_eq!(link(&c, "x1", "e"), None); // the grid link was made before the unlink
        assert_eq!(link(&c, "x3", "e").as_deref(), Some("a3"));
        // Declared between the two removals: only the first removal comes before it.
        let (c, _) = compute(&layout(vec![group(1)]));
        assert_eq!(link(&c, "x1", "res").as_deref(), Some("x2"));
        assert_eq!(link(&c, "x2", "res"), None);
        // Declared before both (the default): both remove it.
        let (c, _) = compute(&layout(vec![group(0)]));
        assert_eq!(link(&c, "x1", "res"), None);
    }

    #[test]
    fn duplicate_names_and_huge_boards_are_reported() {
        let many: Vec<String> = (0..100_000).map(|i| i.to_string()).collect();
        let mut g = grid("a", "1", &[]);
        g.dimensions[0].labels = many.clone();
        g.dimensions[1].labels = many;
        let (c, issues) = compute(&Layout {
            grids: vec![g],
            ..Default::default()
        });
        assert!(c.positions.is_empty());
        assert_eq!(issues[0].code, "spec::board-too-large");
        let (_, issues) = compute(&Layout {
            grids: vec![grid("a/a", "1", &[])],
            ..Default::default()
        });
        assert_eq!(issues[0].code, "spec::duplicate-position");
    }
}
