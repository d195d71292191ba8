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
//! 4. **A cross of steps and jumps** ([`SheetStyle::Points`]): one rectangular grid less four
//!    equal rectangles at its corners, every other grid position drawn (a cross: Asalto, Fox
//!    and Geese, peg solitaire), in a game whose pieces only step, leap or jump (every move
//!    block typed by `spec::movement` as such: no slide, no cannon, nothing untyped). A cross
//!    of sliding pieces (four-handed chess) keeps its squares.
//! 5. **Placement on an orthogonal grid** ([`SheetStyle::Lines`]): one rectangular grid whose
//!    every link is an orthogonal step, in a game where every piece enters by a drop and none
//!    moves (go and its family). A square grid of go's sizes gets go's star points (hoshi):
//!    19×19 on the fourth lines and the middle (nine), 13×13 on the fourth lines and the
//!    centre (five), 9×9 on the third lines and the centre (five).
//!
//! Points boards draw a dot per position and a line along each link of a *geometric*
//! direction, one whose links all point the same way (a morris file's `x` links, which walk
//! the board in play order, are not lines of the picture). Lines boards draw no dots.

use super::sheet::{SheetCell, SheetStyle};
use crate::spec::geometry::frame;
use crate::spec::movement::{Travel, recognise_in};
use crate::spec::moves::Inliner;
use crate::spec::{Board, Game, Instr};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// What the game says about its board beyond the board itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameFacts {
    /// Every piece enters by a drop and none moves (go, gomoku, placement games).
    pub drops_only: bool,
    /// Some piece moves, and every move block is typed (`spec::movement`) as a step, a leap
    /// (plain or lame) or a jump over a neighbour: nothing slides (Asalto, peg solitaire).
    pub steps_only: bool,
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
        let mut steps_only = placed.iter().any(|p| !p.moves.is_empty());
        for b in placed.iter().flat_map(|p| &p.moves) {
            match recognise_in(b, procedures, &mut inl) {
                Ok(m) => {
                    steps_only &= matches!(
                        m.travel,
                        Travel::Step(_) | Travel::Leap(_) | Travel::Lame(_) | Travel::Hop { .. }
                    );
                    confining.extend(m.zone.into_iter().chain(m.from_zone));
                }
                Err(_) => steps_only = false,
            }
        }
        GameFacts {
            drops_only,
            steps_only,
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
    /// The cells marked with a star point (go's hoshi).
    pub stars: Vec<usize>,
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
            stars: Vec::new(),
        });
    }
    if points || crosses_killed(cells, links, killed) {
        return Some(LineBoard {
            style: SheetStyle::Points,
            segments: geometric_segments(cells, links),
            stars: Vec::new(),
        });
    }
    let g = grid?;
    if facts.steps_only && g.cross(b) {
        return Some(LineBoard {
            style: SheetStyle::Points,
            segments: geometric_segments(cells, links),
            stars: Vec::new(),
        });
    }
    let orthogonal = !links.is_empty() && links.iter().all(|l| g.step(l.a, l.b) == Some(1));
    if orthogonal && facts.drops_only {
        return Some(LineBoard {
            style: SheetStyle::Lines,
            segments: pairs(links.iter().map(|l| (l.a, l.b))),
            stars: g.stars(),
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

    /// Go's star points on a square grid of 9, 13 or 19 lines (rule 5), as cells; none on
    /// another size or when a star's place is not drawn.
    fn stars(&self) -> Vec<usize> {
        let (lines, centre): (&[usize], usize) = match (self.files, self.ranks) {
            (19, 19) => (&[3, 9, 15], 9),
            (13, 13) => (&[3, 9], 6),
            (9, 9) => (&[2, 6], 4),
            _ => return Vec::new(),
        };
        let mut places: BTreeSet<(usize, usize)> = lines
            .iter()
            .flat_map(|&c| lines.iter().map(move |&r| (c, r)))
            .collect();
        places.insert((centre, centre));
        let found: Vec<usize> = (0..self.at.len())
            .filter(|&i| self.at[i].is_some_and(|p| places.contains(&p)))
            .collect();
        if found.len() == places.len() {
            found
        } else {
            Vec::new()
        }
    }

    /// Rule 4's board: the grid less four equal rectangles at its corners (at least one place
    /// each, less than half of each side), every other place drawn. A cross is symmetric, so
    /// the places are taken as the layout numbers them.
    fn cross(&self, b: &Board) -> bool {
        let Ok(axes) = frame::axes(b) else {
            return false;
        };
        let (files, ranks) = (self.files, self.ranks);
        let mut killed = BTreeSet::new();
        for p in b.positions.iter().filter(|p| p.killed && !p.dummy) {
            let Some(g) = &p.grid else {
                return false;
            };
            match (g.coords.get(axes.across), g.coords.get(axes.up)) {
                (Some(&x), Some(&y)) if g.grid == 0 && x < files && y < ranks => {
                    killed.insert((x, y));
                }
                _ => return false,
            }
        }
        let kw = (0..files).take_while(|&x| killed.contains(&(x, 0))).count();
        let kh = (0..ranks).take_while(|&y| killed.contains(&(0, y))).count();
        if kw == 0 || kh == 0 || 2 * kw >= files || 2 * kh >= ranks {
            return false;
        }
        let corner =
            |&(x, y): &(usize, usize)| (x < kw || x >= files - kw) && (y < kh || y >= ranks - kh);
        let want: BTreeSet<(usize, usize)> = (0..files)
            .flat_map(|x| (0..ranks).map(move |y| (x, y)))
            .filter(corner)
            .collect();
        let drawn = self.at.iter().flatten().collect::<BTreeSet<_>>().len();
        killed == want && drawn == self.at.len() && drawn == files * ranks - want.len()
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

    /// A square placement game of `n` lines.
    fn go_of(n: usize) -> String {
        let files: Vec<String> = (0..n).map(|i| format!("f{i}")).collect();
        let ranks: Vec<String> = (0..n).rev().map(|i| format!("r{i}")).collect();
        format!(
            "(game (title \"t\") (players Black White)
               (board (grid (start-rectangle 0 0 20 20)
                 (dimensions (\"{}\" (20 0)) (\"{}\" (0 20)))
                 (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))))
               (piece (name Stone) (drops ((verify empty?) add))))",
            files.join("/"),
            ranks.join("/")
        )
    }

    #[test]
    fn go_boards_of_9_13_and_19_lines_get_their_star_points() {
        // (size, the star points as (file, rank) numbered from 0, rank 0 at the top)
        let stars = |n: usize| -> Vec<(usize, usize)> {
            let s = sheet(&go_of(n));
            assert_eq!(s.style, SheetStyle::Lines, "{n}");
            let mut at: Vec<(usize, usize)> = s
                .stars
                .iter()
                .map(|&i| {
                    let [x1, y1, ..] = s.cells[i].rect;
                    ((x1 / 20) as usize, (y1 / 20) as usize)
                })
                .collect();
            at.sort();
            at
        };
        let grid = |lines: &[usize], centre: usize| {
            let mut v: Vec<(usize, usize)> = lines
                .iter()
                .flat_map(|&c| lines.iter().map(move |&r| (c, r)))
                .collect();
            if !v.contains(&(centre, centre)) {
                v.push((centre, centre));
            }
            v.sort();
            v
        };
        assert_eq!(stars(19), grid(&[3, 9, 15], 9));
        assert_eq!(stars(13), grid(&[3, 9], 6));
        assert_eq!(stars(9), grid(&[2, 6], 4));
        // Other sizes have none; neither has a board of the same size whose pieces move.
        for n in [7, 11, 15] {
            assert!(stars(n).is_empty(), "{n}");
        }
        let moving = go_of(19).replace("(drops ((verify empty?) add))", "(moves (n add))");
        assert!(sheet(&moving).stars.is_empty());
        // The stars are drawn: the pixel beside a star's centre is in the line colour, and
        // beside a crossing without a star it is not.
        let s = sheet(&go_of(9));
        let colours = crate::render::board::BoardColours::default();
        let img = crate::render::sheet::draw_sheet(&s, &colours, false, &BTreeMap::new()).unwrap();
        let dark = |cell: usize| {
            let (cx, cy) = s.cells[cell].centre();
            let p = img.pixel((cx + 1) as u32, (cy + 1) as u32).unwrap();
            (p.red(), p.green(), p.blue()) == (colours.lines.0, colours.lines.1, colours.lines.2)
        };
        let star = s.stars[0];
        assert!(dark(star));
        let plain = (0..s.cells.len()).find(|i| !s.stars.contains(i)).unwrap();
        assert!(!dark(plain));
    }

    /// A cross: a 7×7 grid less its 2×2 corners, linked in eight directions, with `piece`.
    fn cross(piece: &str) -> String {
        format!(
            "(game (title \"t\") (players White Black)
               (board (grid (start-rectangle 0 0 40 40)
                 (dimensions (\"a/b/c/d/e/f/g\" (40 0)) (\"7/6/5/4/3/2/1\" (0 40)))
                 (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0)
                             (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1)))
                 (kill-positions a1 a2 b1 b2 f1 f2 g1 g2 a6 a7 b6 b7 f6 f7 g6 g7))
               {piece})"
        )
    }

    #[test]
    fn a_cross_of_stepping_and_jumping_pieces_is_a_points_board() {
        // Asalto's pieces: a step, and a jump that captures and may continue.
        let asalto = "(piece (name Man) (moves (n (verify empty?) add) (ne (verify empty?) add)
                         (n (verify enemy?) capture n (verify empty?) (add-partial))))";
        let s = sheet(&cross(asalto));
        assert_eq!(s.style, SheetStyle::Points);
        let lines = named(&s);
        // Orthogonal and diagonal lines between live points, none into a killed corner.
        assert!(lines.contains(&pair("c1", "d1")) && lines.contains(&pair("c1", "d2")));
        assert!(lines.contains(&pair("a3", "b4")));
        assert!(!lines.iter().any(|(a, b)| a == "b2" || b == "b2"));
        // 33 points: 26 horizontal and 26 vertical neighbour pairs, two diagonals in each of
        // the 20 squares whose four corners are live, and one across each inner corner (b3–c2).
        assert_eq!(lines.len(), 26 + 26 + 2 * 20 + 4);
        assert!(lines.contains(&pair("b3", "c2")));
        // A sliding piece on the same cross (four-handed chess) keeps its squares; so does a
        // cross with unequal corners.
        let rook = "(piece (name Rook) (moves (n (while empty? add n) (verify enemy?) add)))";
        assert_eq!(sheet(&cross(rook)).style, SheetStyle::Checkered);
        let uneven = cross(asalto).replace(" g6 g7", "");
        assert_eq!(sheet(&uneven).style, SheetStyle::Checkered);
    }
}
