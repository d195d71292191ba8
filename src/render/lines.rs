//! Line boards: which boards put their pieces on the points where lines cross (xiangqi, janggi, morris, go), found by rule from the spec's board, and which lines they draw.
//!
//! The rules look at the board (and, for go, at how pieces enter), never at the game's name.
//! [`detect`] tries them in order; the first that applies decides the style and the lines:
//!
//! 1. **Palace** ([`SheetStyle::Lines`]): one whole rectangular grid (no killed position) of an
//!    odd number of files (at least 5) and at least 6 ranks, with a zone of exactly the 3×3
//!    positions around the middle file at the first or last rank that confines a piece's moves
//!    (a typed move block must start or end in it: xiangqi's and janggi's palace; a goal area
//!    of the same shape, as Pyon-Pyon Shogi's, is no palace). Lines join orthogonal
//!    neighbours that are linked; inside each palace, the diagonal links through its centre are
//!    drawn (the palace's cross). With an even number of ranks and a zone that is exactly one
//!    half of the board (all files, the ranks on one side of the middle), the board has a
//!    river: no vertical line crosses between the two middle ranks except on the edge files.
//! 2. **Small rectangles** ([`SheetStyle::Points`], the sheet's own rule, `Sheet`'s module
//!    docs): the author drew points or holes.
//! 3. **Links over left-out positions** ([`SheetStyle::Points`]): a link of a geometric
//!    direction (below) runs straight across the centre of a killed position (morris: `a1`–`d1`
//!    passes over the killed `b1` and `c1`). Cells never link across a hole; lines do.
//! 4. **Placement on an orthogonal grid** ([`SheetStyle::Lines`]): one rectangular grid whose
//!    every link is an orthogonal step, in a game where every piece enters by a drop and none
//!    moves (go and its family).
//!
//! Points boards draw a dot per position and a line along each link of a *geometric*
//! direction, one whose links all point the same way (a morris file's `x` links, which walk
//! the board in play order, are not lines of the picture). Lines boards draw no dots.

use super::sheet::{SheetCell, SheetStyle};
use crate::spec::geometry::frame;
use crate::spec::movement::recognise_in;
use crate::spec::moves::Inliner;
use crate::spec::{Board, Game, Instr};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// What the game says about its board beyond the board itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameFacts {
    /// Every piece enters by a drop and none moves (go, gomoku, placement games).
    pub drops_only: bool,
    /// Zones that confine a piece's moves: a typed move block (`spec::movement`) must start
    /// or end in them (xiangqi's general in its palace).
    pub confining: BTreeSet<String>,
}

impl GameFacts {
    /// The facts of game `g`, whose document's procedures are `procedures`.
    pub fn of(g: &Game, procedures: &[Vec<Instr>]) -> GameFacts {
        let placed: Vec<&crate::spec::Piece> = g.pieces.iter().filter(|p| !p.dummy).collect();
        let drops_only = !placed.is_empty()
            && placed
                .iter()
                .all(|p| p.moves.is_empty() && !p.drops.is_empty());
        let mut inl = Inliner::new(procedures.len());
        let mut confining = BTreeSet::new();
        for b in placed.iter().flat_map(|p| &p.moves) {
            if let Ok(m) = recognise_in(b, procedures, &mut inl) {
                confining.extend(m.zone.into_iter().chain(m.from_zone));
            }
        }
        GameFacts {
            drops_only,
            confining,
        }
    }
}

/// A link between two drawn cells: indexes into the cells, and the direction's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedLink<'a> {
    /// From.
    pub a: usize,
    /// To.
    pub b: usize,
    /// The direction.
    pub dir: &'a str,
}

/// A line board: its style and the lines drawn, as pairs of cells (smaller index first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineBoard {
    /// [`SheetStyle::Points`] or [`SheetStyle::Lines`].
    pub style: SheetStyle,
    /// The lines, each pair once.
    pub segments: Vec<(usize, usize)>,
}

/// Most link × killed-position pairs compared by rule 3; beyond it the rule does not apply.
const MAX_PAIRS: usize = 4 << 20;

/// The line board `b` is, if any (module docs); `points` says whether the sheet's own rule
/// (small rectangles) already found points.
pub fn detect(
    b: &Board,
    cells: &[SheetCell],
    links: &[NamedLink<'_>],
    killed: &[[i64; 4]],
    points: bool,
    facts: &GameFacts,
) -> Option<LineBoard> {
    let names: Vec<&str> = cells.iter().map(|c| c.name.as_str()).collect();
    let grid = GridCells::of(b, &names);
    if let Some(g) = &grid
        && let Some(palace) = g.palace(b, facts)
    {
        return Some(LineBoard {
            style: SheetStyle::Lines,
            segments: g.palace_lines(&palace, links),
        });
    }
    if points || crosses_killed(cells, links, killed) {
        return Some(LineBoard {
            style: SheetStyle::Points,
            segments: geometric_segments(cells, links),
        });
    }
    let g = grid?;
    let orthogonal = !links.is_empty() && links.iter().all(|l| g.step(l.a, l.b) == Some(1));
    if orthogonal && facts.drops_only {
        return Some(LineBoard {
            style: SheetStyle::Lines,
            segments: pairs(links.iter().map(|l| (l.a, l.b))),
        });
    }
    None
}

/// A board's palaces (rule 1): xiangqi's and janggi's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Palace {
    /// The centre of each palace as (column, row) on the grid, row 0 at the top.
    pub centres: BTreeSet<(usize, usize)>,
    /// The board has a river between its two middle ranks (xiangqi's; janggi has none).
    pub river: bool,
}

/// The palaces of `b`, when it has any (rule 1 of the module docs), in a game of `facts`.
pub fn palace(b: &Board, facts: &GameFacts) -> Option<Palace> {
    let names: Vec<&str> = b
        .positions
        .iter()
        .filter(|p| !p.dummy && !p.killed)
        .map(|p| p.name.as_str())
        .collect();
    GridCells::of(b, &names)?.palace(b, facts)
}

/// The lines of a board drawn in `style` whatever the rules say (`--style`): every link of a
/// geometric direction.
pub fn forced(cells: &[SheetCell], links: &[NamedLink<'_>]) -> Vec<(usize, usize)> {
    geometric_segments(cells, links)
}

fn pairs(it: impl Iterator<Item = (usize, usize)>) -> Vec<(usize, usize)> {
    let set: BTreeSet<(usize, usize)> = it
        .filter(|(a, b)| a != b)
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    set.into_iter().collect()
}

/// The links of directions whose links all point the same way (within 2°).
fn geometric_segments(cells: &[SheetCell], links: &[NamedLink<'_>]) -> Vec<(usize, usize)> {
    let dirs = geometric_directions(cells, links);
    pairs(
        links
            .iter()
            .filter(|l| dirs.contains(l.dir))
            .map(|l| (l.a, l.b)),
    )
}

/// The directions whose links all point the same way (within 2°): lines of the picture, not
/// links that walk the board in an order of the rules' own (shogi files' `nx`, `sr`).
fn geometric_directions<'a>(cells: &[SheetCell], links: &[NamedLink<'a>]) -> BTreeSet<&'a str> {
    // Per direction: its first link's bearing, and whether every other link agrees.
    let mut bearings: BTreeMap<&str, (f64, bool)> = BTreeMap::new();
    for l in links {
        let Some(angle) = bearing(&cells[l.a], &cells[l.b]) else {
            continue;
        };
        let e = bearings.entry(l.dir).or_insert((angle, true));
        if angle_between(e.0, angle) > 2.0 {
            e.1 = false;
        }
    }
    bearings
        .into_iter()
        .filter(|(_, (_, same))| *same)
        .map(|(d, _)| d)
        .collect()
}

/// The direction from `a`'s centre to `b`'s in degrees, `None` when they coincide.
fn bearing(a: &SheetCell, b: &SheetCell) -> Option<f64> {
    let ((ax, ay), (bx, by)) = (centre(a), centre(b));
    let (dx, dy) = (bx - ax, by - ay);
    (dx != 0.0 || dy != 0.0).then(|| dy.atan2(dx).to_degrees())
}

/// A cell's centre in floating point (rectangles come from input: no integer overflow).
fn centre(c: &SheetCell) -> (f64, f64) {
    let [x1, y1, x2, y2] = c.rect.map(|v| v as f64);
    ((x1 + x2) / 2.0, (y1 + y2) / 2.0)
}

fn angle_between(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(360.0);
    d.min(360.0 - d)
}

/// Rule 3: some link of a geometric direction passes straight over the centre of a killed
/// position.
fn crosses_killed(cells: &[SheetCell], links: &[NamedLink<'_>], killed: &[[i64; 4]]) -> bool {
    if killed.is_empty() || links.len().saturating_mul(killed.len()) > MAX_PAIRS {
        return false;
    }
    let dirs = geometric_directions(cells, links);
    links.iter().filter(|l| dirs.contains(l.dir)).any(|l| {
        let ((ax, ay), (bx, by)) = (centre(&cells[l.a]), centre(&cells[l.b]));
        let (dx, dy) = (bx - ax, by - ay);
        let len2 = dx * dx + dy * dy;
        killed.iter().any(|r| {
            let [x1, y1, x2, y2] = r.map(|v| v as f64);
            let (kx, ky) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
            // Within a pixel of the line, strictly between its ends.
            let off = (dx * (ky - ay) - dy * (kx - ax)).abs() / len2.sqrt().max(1.0);
            let along = (kx - ax) * dx + (ky - ay) * dy;
            off <= 1.0 && along > 0.0 && along < len2
        })
    })
}

/// The drawn cells of a board's one rectangular grid as (column, row), row 0 at the top.
struct GridCells<'n> {
    files: usize,
    ranks: usize,
    /// Per cell, its place on the grid (`None`: not a grid position).
    at: Vec<Option<(usize, usize)>>,
    /// Cell by position name.
    by_name: HashMap<&'n str, usize>,
}

impl<'n> GridCells<'n> {
    /// The grid places of the cells named `names` (in cell order).
    fn of(b: &Board, names: &[&'n str]) -> Option<GridCells<'n>> {
        if b.layout.grids.len() != 1 {
            return None;
        }
        let axes = frame::axes(b).ok()?;
        let dims = &b.layout.grids[0].dimensions;
        let (files, ranks) = (dims[axes.across].labels.len(), dims[axes.up].labels.len());
        let by_name: HashMap<&str, usize> =
            names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        let mut at = vec![None; names.len()];
        for p in &b.positions {
            let (Some(&i), Some(g)) = (by_name.get(p.name.as_str()), p.grid.as_ref()) else {
                continue;
            };
            let (Some(&x), Some(&y)) = (g.coords.get(axes.across), g.coords.get(axes.up)) else {
                continue;
            };
            if g.grid != 0 || x >= files || y >= ranks {
                continue;
            }
            // Column 0 at the left, row 0 at the top of the picture.
            let col = if axes.sx > 0 { x } else { files - 1 - x };
            let row = if axes.sy < 0 { y } else { ranks - 1 - y };
            at[i] = Some((col, row));
        }
        Some(GridCells {
            files,
            ranks,
            at,
            by_name,
        })
    }

    /// `Some(1)` for orthogonal neighbours on the grid, `Some(2)` for diagonal ones.
    fn step(&self, a: usize, b: usize) -> Option<u8> {
        let ((ac, ar), (bc, br)) = (self.at[a]?, self.at[b]?);
        match (ac.abs_diff(bc), ar.abs_diff(br)) {
            (1, 0) | (0, 1) => Some(1),
            (1, 1) => Some(2),
            _ => None,
        }
    }

    /// The places of a zone's drawn grid positions.
    fn places(&self, positions: &[String]) -> BTreeSet<(usize, usize)> {
        positions
            .iter()
            .filter_map(|n| self.at[*self.by_name.get(n.as_str())?])
            .collect()
    }

    /// Rule 1: the board's palaces, or `None` when it has none.
    fn palace(&self, b: &Board, facts: &GameFacts) -> Option<Palace> {
        let (files, ranks) = (self.files, self.ranks);
        let whole = !b.positions.iter().any(|p| p.killed);
        if files % 2 == 0 || files < 5 || ranks < 6 || !whole {
            return None;
        }
        let mid = files / 2;
        let palace_at = |top: usize| -> BTreeSet<(usize, usize)> {
            (top..top + 3)
                .flat_map(|r| (mid - 1..=mid + 1).map(move |c| (c, r)))
                .collect()
        };
        let shapes = [palace_at(0), palace_at(ranks - 3)];
        let zones: Vec<BTreeSet<(usize, usize)>> =
            b.zones.iter().map(|z| self.places(&z.positions)).collect();
        // Each palace once, by its centre: a zone of its shape that confines a piece's moves.
        let centres: BTreeSet<(usize, usize)> = shapes
            .iter()
            .filter(|s| {
                zones
                    .iter()
                    .zip(&b.zones)
                    .any(|(z, zone)| z == *s && facts.confining.contains(&zone.name))
            })
            .map(|s| (mid, s.iter().map(|p| p.1).min().unwrap_or(0) + 1))
            .collect();
        if centres.is_empty() {
            return None;
        }
        let half = ranks / 2;
        let river = ranks % 2 == 0
            && zones.iter().any(|z| {
                let side = |low: bool| {
                    (0..ranks)
                        .filter(|&r| (r < half) == low)
                        .flat_map(|r| (0..files).map(move |c| (c, r)))
                        .collect::<BTreeSet<_>>()
                };
                *z == side(true) || *z == side(false)
            });
        Some(Palace { centres, river })
    }

    /// The lines of a palace board: orthogonal links but those across the river off the
    /// edge files, and the diagonal links through each palace's centre.
    fn palace_lines(&self, palace: &Palace, links: &[NamedLink<'_>]) -> Vec<(usize, usize)> {
        let (files, half) = (self.files, self.ranks / 2);
        let (centres, river) = (&palace.centres, palace.river);
        let kept = links.iter().filter(|l| {
            let (Some((ac, ar)), Some((bc, br))) = (self.at[l.a], self.at[l.b]) else {
                return false;
            };
            match self.step(l.a, l.b) {
                Some(1) => {
                    let crosses = ar.min(br) + 1 == half && ac == bc && ar != br;
                    !(river && crosses && ac != 0 && ac != files - 1)
                }
                Some(2) => centres.iter().any(|&(cc, cr)| {
                    let ends = [(ac, ar), (bc, br)];
                    ends.contains(&(cc, cr))
                        && ends
                            .iter()
                            .all(|&(c, r)| c.abs_diff(cc) <= 1 && r.abs_diff(cr) <= 1)
                }),
                _ => false,
            }
        });
        pairs(kept.map(|l| (l.a, l.b)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::game::{PlanOptions, from_spec};
    use crate::render::sheet::Sheet;

    fn doc(zrf: &str) -> crate::spec::Document {
        crate::tests::zrf_doc(zrf)
    }

    fn sheet(zrf: &str) -> Sheet {
        from_spec(&doc(zrf), 0, &PlanOptions::default())
            .unwrap()
            .board
            .sheet
    }

    /// The segments as pairs of position names, sorted.
    fn named(s: &Sheet) -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = s
            .segments
            .iter()
            .map(|&(a, b)| {
                let (a, b) = (s.cells[a].name.clone(), s.cells[b].name.clone());
                (a.clone().min(b.clone()), a.max(b))
            })
            .collect();
        v.sort();
        v
    }

    fn pair(a: &str, b: &str) -> (String, String) {
        (a.min(b).to_string(), a.max(b).to_string())
    }

    /// A 5-file, 6-rank board with all eight directions, a 3×3 zone at the bottom middle
    /// and `more` zones.
    fn palace_game(more: &str) -> String {
        format!(
            "(game (title \"t\") (players Red Black)
               (board (grid (start-rectangle 0 0 38 38)
                 (dimensions (\"a/b/c/d/e\" (40 0)) (\"6/5/4/3/2/1\" (0 40)))
                 (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0)
                             (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1)))
                 (zone (name palace) (players Red) (positions b1 c1 d1 b2 c2 d2 b3 c3 d3))
                 {more})
               (piece (name Man) (moves (n add)))
               (piece (name Guard)
                 (moves (n (verify not-friend?) (verify (in-zone? palace)) add))))"
        )
    }

    #[test]
    fn a_palace_makes_a_line_board_with_its_cross_and_a_river_when_halved() {
        let half = "(zone (name home) (players Red) (positions a1 b1 c1 d1 e1 a2 b2 c2 d2 e2 a3 b3 c3 d3 e3))";
        let s = sheet(&palace_game(half));
        assert_eq!(s.style, SheetStyle::Lines);
        let lines = named(&s);
        // Orthogonal neighbours, the palace's cross through c2, nothing across the river
        // between ranks 3 and 4 but on the edge files.
        assert!(lines.contains(&pair("a1", "b1")));
        assert!(lines.contains(&pair("c1", "c2")));
        assert!(lines.contains(&pair("b1", "c2")) && lines.contains(&pair("c2", "d3")));
        assert!(
            !lines.contains(&pair("b2", "c3")),
            "not the palace's diamond"
        );
        assert!(
            !lines.contains(&pair("a4", "b5")),
            "no diagonal outside the palace"
        );
        assert!(lines.contains(&pair("a3", "a4")) && lines.contains(&pair("e3", "e4")));
        for f in ["b", "c", "d"] {
            assert!(
                !lines.contains(&pair(&format!("{f}3"), &format!("{f}4"))),
                "{f}"
            );
        }
        // 5×6 grid: 4·6 horizontal + 5·5 vertical − 3 across the river + 4 diagonals.
        assert_eq!(lines.len(), 24 + 25 - 3 + 4);
        // Without the half zone there is no river (janggi).
        let s = sheet(&palace_game(""));
        assert_eq!(s.style, SheetStyle::Lines);
        assert!(named(&s).contains(&pair("c3", "c4")));
        let d = doc(&palace_game(""));
        let (g, b) = (&d.games[0], &d.games[0].boards[0]);
        let p = palace(b, &GameFacts::of(g, &d.procedures)).unwrap();
        assert!(!p.river);
        assert_eq!(p.centres.iter().copied().collect::<Vec<_>>(), [(2, 4)]);
        // A 3×3 zone off the middle file is no palace.
        let off =
            palace_game("").replace("b1 c1 d1 b2 c2 d2 b3 c3 d3", "a1 b1 c1 a2 b2 c2 a3 b3 c3");
        assert_eq!(sheet(&off).style, SheetStyle::Checkered);
        // A zone of the palace's shape that confines no piece (a goal area) is no palace.
        let goal = palace_game("").replace("(verify (in-zone? palace))", "");
        assert_eq!(sheet(&goal).style, SheetStyle::Checkered);
    }

    #[test]
    fn links_over_killed_positions_make_points_and_only_geometric_directions_are_lines() {
        // A ring of eight points around a killed centre: `across` runs over the hole (as
        // morris's lines do), `x` walks the board in an order of its own.
        let s = sheet(
            "(game (title \"t\") (players White Black)
               (board (grid (start-rectangle 0 0 40 40)
                 (dimensions (\"a/b/c\" (40 0)) (\"3/2/1\" (0 40)))
                 (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0)))
                 (kill-positions b2)
                 (links across (a2 c2))
                 (links x (a1 c3) (c3 a1)))
               (piece (name Man) (moves (n add))))",
        );
        assert_eq!(s.style, SheetStyle::Points);
        let ring = [
            ("a1", "b1"),
            ("b1", "c1"),
            ("c1", "c2"),
            ("c2", "c3"),
            ("b3", "c3"),
            ("a3", "b3"),
            ("a2", "a3"),
            ("a1", "a2"),
            ("a2", "c2"),
        ];
        let mut want: Vec<_> = ring.iter().map(|(a, b)| pair(a, b)).collect();
        want.sort();
        assert_eq!(named(&s), want, "no line a1–c3");
        // Without the line over the hole, the same board is cells, even with `x` links over it
        // (they walk the board, as shogi files' links to the hands do).
        let s = sheet(
            "(game (title \"t\") (players White Black)
               (board (grid (start-rectangle 0 0 40 40)
                 (dimensions (\"a/b/c\" (40 0)) (\"3/2/1\" (0 40)))
                 (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0)))
                 (kill-positions b2)
                 (links x (a1 c3) (c3 a1)))
               (piece (name Man) (moves (n add))))",
        );
        assert_eq!(s.style, SheetStyle::Checkered);
    }

    #[test]
    fn an_orthogonal_grid_of_a_placement_game_is_a_line_board() {
        let go = |piece: &str| {
            format!(
                "(game (title \"t\") (players Black White)
                   (board (grid (start-rectangle 0 0 30 30)
                     (dimensions (\"a/b/c/d/e\" (30 0)) (\"5/4/3/2/1\" (0 30)))
                     (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))))
                   {piece})"
            )
        };
        let s = sheet(&go("(piece (name Stone) (drops ((verify empty?) add)))"));
        assert_eq!(s.style, SheetStyle::Lines);
        assert_eq!(s.segments.len(), 2 * 5 * 4);
        // Pieces that move (a tafl board) stand in squares.
        let s = sheet(&go("(piece (name Stone) (moves (n add)))"));
        assert_eq!(s.style, SheetStyle::Checkered);
        assert!(s.segments.is_empty());
    }
}
