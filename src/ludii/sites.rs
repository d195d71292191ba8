//! Site sets of `.lud` lowering beyond the plain ones: `(sites Phase k)`, `Corners`, `Outer`, `Inner`, `Perimeter`, rows and columns given by expressions, `(expand …)` with `origin:`, computed `steps:` and a direction, `(forEach sites if:…)` over `(site)`, `(row of:…)`, `(column of:…)` and `(centrePoint)`, `(coord "A1")`, `(ahead site dir)`; and the adjacency and phases of a board as Ludii measures them.

use super::board::{Geo, Shape};
use super::lower::Lower;
use super::syntax::Node;
use crate::spec::Placement;

impl Geo {
    /// The sites that share an edge with `i` (Ludii's `Adjacent`): every link of a graph
    /// board, the orthogonal links of a tiling.
    pub fn adjacent(&self, i: usize) -> Vec<usize> {
        self.links[i]
            .iter()
            .filter(|(d, _)| self.shape == Shape::Graph || self.orth.contains(d))
            .map(|(_, j)| *j)
            .collect()
    }

    /// Ludii's phase of every site (`measurePhase`): a greedy colouring spread from the
    /// first uncoloured site, each site taking the smallest phase none of its neighbours
    /// has; neighbours whose own neighbours already show more than one phase are visited
    /// first.
    pub fn phases(&self) -> Vec<u8> {
        const NONE: u8 = u8::MAX;
        let n = self.len();
        let adj: Vec<Vec<usize>> = (0..n)
            .map(|i| {
                let mut a = self.adjacent(i);
                a.sort_unstable();
                a
            })
            .collect();
        let mut phase = vec![NONE; n];
        let seen = |phase: &[u8], of: &[usize]| -> u8 {
            of.iter()
                .filter(|&&j| phase[j] != NONE)
                .fold(0u8, |m, &j| m | (1 << phase[j].min(7)))
        };
        while let Some(start) = phase.iter().position(|&p| p == NONE) {
            let mut visited = vec![false; n];
            let mut queue = std::collections::VecDeque::from([start]);
            phase[start] = 0;
            while let Some(i) = queue.pop_front() {
                if visited[i] {
                    continue;
                }
                let used = seen(&phase, &adj[i]);
                phase[i] = (0..4u8).find(|p| used & (1 << p) == 0).unwrap_or(4);
                visited[i] = true;
                for &j in &adj[i] {
                    if visited[j] {
                        continue;
                    }
                    if seen(&phase, &adj[j]).count_ones() > 1 {
                        queue.push_front(j);
                    } else {
                        queue.push_back(j);
                    }
                }
            }
        }
        phase
    }

    /// The corners of the board: the sites at the strict corners of its convex hull.
    pub fn corners(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self.hull(false);
        v.sort_unstable();
        v
    }

    /// The outer sites: on a tiling, those missing a neighbour that inner sites have; on a
    /// graph board, those on its convex hull.
    pub fn outer(&self) -> Vec<usize> {
        let full = match self.shape {
            Shape::Grid => 4,
            Shape::Hexagon | Shape::Diamond | Shape::TriVertex => 6,
            Shape::TriCell => 3,
            Shape::Mancala => return (0..self.len()).collect(),
            Shape::Graph => {
                let mut v = self.hull(true);
                v.sort_unstable();
                return v;
            }
        };
        (0..self.len())
            .filter(|&i| self.adjacent(i).len() < full)
            .collect()
    }

    /// The sites on the convex hull of the centres: its corners only, or (`edges`) every
    /// site on its boundary.
    fn hull(&self, edges: bool) -> Vec<usize> {
        const EPS: f64 = 1e-6;
        let n = self.len();
        if n < 3 {
            return (0..n).collect();
        }
        let cross = |o: (f64, f64), a: (f64, f64), b: (f64, f64)| {
            (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
        };
        let mut idx: Vec<usize> = (0..n).collect();
        idx.sort_by(|&a, &b| {
            let (p, q) = (self.xy[a], self.xy[b]);
            p.0.total_cmp(&q.0).then(p.1.total_cmp(&q.1))
        });
        // Andrew's monotone chain, strict corners only.
        let mut hull: Vec<usize> = Vec::new();
        for pass in 0..2 {
            let start = hull.len();
            let order: Vec<usize> = if pass == 0 {
                idx.clone()
            } else {
                idx.iter().rev().copied().collect()
            };
            for i in order {
                while hull.len() >= start + 2
                    && cross(
                        self.xy[hull[hull.len() - 2]],
                        self.xy[hull[hull.len() - 1]],
                        self.xy[i],
                    ) <= EPS
                {
                    hull.pop();
                }
                hull.push(i);
            }
            hull.pop();
        }
        if !edges {
            hull.dedup();
            return hull;
        }
        let k = hull.len();
        (0..n)
            .filter(|&i| {
                (0..k).any(|h| {
                    let (a, b) = (self.xy[hull[h]], self.xy[hull[(h + 1) % k]]);
                    let p = self.xy[i];
                    let len = (b.0 - a.0).hypot(b.1 - a.1).max(EPS);
                    let within = (p.0 - a.0) * (b.0 - a.0) + (p.1 - a.1) * (b.1 - a.1);
                    cross(a, b, p).abs() / len < 1e-3 && within >= -EPS && within <= len * len + EPS
                })
            })
            .collect()
    }

    /// `sites` grown by `steps` steps along the links whose direction `follow` accepts, sorted.
    pub fn expand_by(
        &self,
        sites: &[usize],
        steps: usize,
        follow: &dyn Fn(&str) -> bool,
    ) -> Vec<usize> {
        let mut inside = vec![false; self.len()];
        let mut frontier: Vec<usize> = Vec::new();
        for &s in sites {
            if s < inside.len() && !inside[s] {
                inside[s] = true;
                frontier.push(s);
            }
        }
        for _ in 0..steps {
            let mut next = Vec::new();
            for &s in &frontier {
                for &(d, j) in &self.links[s] {
                    if follow(d) && !inside[j] {
                        inside[j] = true;
                        next.push(j);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            frontier = next;
        }
        (0..self.len()).filter(|&i| inside[i]).collect()
    }
}

/// A `(place …)` that is not a stack puts no piece on a site an earlier one filled (Ludii
/// keeps the first piece), nor, without `count:`, a second piece on a site it lists twice:
/// drops those sites from `new`.
pub(super) fn skip_filled(item: &Node, new: &mut [Placement], earlier: &[Placement]) {
    let stack = item.positional().next().and_then(|a| a.atom()) == Some("Stack");
    if item.head() != Some("place") || stack {
        return;
    }
    // Without `count:`, a site listed twice still holds one piece.
    let one = item.named("count").is_none() && item.named("counts").is_none();
    for p in new {
        let mut seen: Vec<String> = Vec::new();
        p.positions.retain(|s| {
            let taken =
                earlier.iter().any(|q| q.positions.contains(s)) || (one && seen.contains(s));
            let fresh = !taken;
            seen.push(s.clone());
            fresh
        });
    }
}

/// The deepest expression [`Lower::int_at`] evaluates.
const MAX_DEPTH: usize = 32;

impl Lower<'_> {
    /// Site sets that [`Lower::sites`] does not read itself; `None` when not understood.
    pub(super) fn sites_more(&mut self, n: &Node) -> Option<Vec<usize>> {
        let args: Vec<&Node> = n.positional().collect();
        match (n.head()?, args.as_slice()) {
            ("sites", [Node::Atom(k, _)]) => {
                let geo = self.geo.as_ref()?;
                match k.as_str() {
                    "Corners" => Some(geo.corners()),
                    "Outer" | "Perimeter" => Some(geo.outer()),
                    "Inner" => {
                        let outer = geo.outer();
                        Some((0..geo.len()).filter(|i| !outer.contains(i)).collect())
                    }
                    _ => None,
                }
            }
            ("sites", [Node::Atom(k, _), x]) => {
                let v = self.int_at(x, None, 0)?;
                let geo = self.geo.as_ref()?;
                match k.as_str() {
                    "Phase" => {
                        let p = geo.phases();
                        Some((0..geo.len()).filter(|&i| p[i] as i64 == v).collect())
                    }
                    "Row" if v >= 0 => Some(geo.row(v as usize)),
                    "Column" if v >= 0 => Some(geo.column(v as usize)),
                    _ => None,
                }
            }
            ("expand", _) => self.expand(n),
            ("forEach", [r]) => {
                let sites = self.sites(r)?;
                let cond = n.named("if")?;
                let mut out = Vec::new();
                for s in sites {
                    if self.bool_at(cond, s, 0)? {
                        out.push(s);
                    }
                }
                Some(out)
            }
            ("coord", [Node::Str(..)]) => self.sites(args[0]),
            ("coord", []) => Some(vec![usize::try_from(self.int_at(n, None, 0)?).ok()?]),
            ("ahead", [from, Node::Atom(d, _)]) => {
                let from = self.sites(from)?;
                let geo = self.geo.as_ref()?;
                let [f] = from.as_slice() else {
                    return None;
                };
                Some(geo.step(*f, d).into_iter().collect())
            }
            _ => None,
        }
    }

    /// `(place "Dog2" (handSite P2) count:k)`: `k` pieces held off the board by their owner,
    /// when the hand is the owner's.
    pub(super) fn hand_placement(
        &self,
        h: &Node,
        item: &str,
        count: usize,
        pieces: &[crate::spec::Piece],
    ) -> Option<Placement> {
        let args: Vec<&Node> = h.positional().collect();
        let (Some("handSite"), [Node::Atom(who, _), ..]) = (h.head(), args.as_slice()) else {
            return None;
        };
        let owned = self.piece_owners.iter().find(|(p, _)| p == item).cloned();
        let (piece, player) =
            owned.or_else(|| super::lower::split_item(item, pieces, &self.players))?;
        (&player == who).then(|| Placement {
            player,
            piece,
            positions: Vec::new(),
            off: Some(count as u32),
        })
    }

    /// `(sites P1)` without an unnamed region of P1: every region P1 owns.
    pub(super) fn owned_sites(&self, player: &str) -> Option<Vec<usize>> {
        let mut v: Vec<usize> = self
            .region_sites
            .iter()
            .filter(|r| r.owner.as_deref() == Some(player))
            .flat_map(|r| r.sites.iter().copied())
            .collect();
        v.sort_unstable();
        v.dedup();
        Some(v).filter(|v| !v.is_empty())
    }

    /// `(expand region [steps:k] [dir])` and `(expand origin:site …)`: the region grown by
    /// `k` steps (1 by default) along Ludii's `Adjacent` links, or those of the direction.
    fn expand(&mut self, n: &Node) -> Option<Vec<usize>> {
        let args: Vec<&Node> = n.positional().collect();
        let (base, dir) = match (args.as_slice(), n.named("origin")) {
            ([r], None) => (self.sites(r)?, None),
            ([r, Node::Atom(d, _)], None) => (self.sites(r)?, Some(d.as_str())),
            ([], Some(o)) => (self.sites(o)?, None),
            ([Node::Atom(d, _)], Some(o)) => (self.sites(o)?, Some(d.as_str())),
            _ => return None,
        };
        let steps = match n.named("steps") {
            None => 1,
            Some(s) => self.int_at(s, None, 0).filter(|k| (0..=1000).contains(k))? as usize,
        };
        let geo = self.geo.as_ref()?;
        let graph = geo.shape == Shape::Graph;
        let follow: Box<dyn Fn(&str) -> bool> = match dir {
            None | Some("Adjacent") => Box::new(move |d| graph || geo.orth.contains(&d)),
            Some("Orthogonal") => Box::new(|d| geo.orth.contains(&d)),
            Some("Diagonal") => Box::new(|d| geo.diag.contains(&d)),
            Some("All") => Box::new(|_| true),
            Some(d) if super::board::compass_index(d).is_some() => {
                let d = d.to_string();
                Box::new(move |x| x == d)
            }
            Some(_) => return None,
        };
        Some(geo.expand_by(&base, steps, &*follow))
    }

    /// An integer expression, with `(site)` bound to `site` when given.
    fn int_at(&mut self, n: &Node, site: Option<usize>, depth: usize) -> Option<i64> {
        if depth > MAX_DEPTH {
            return None;
        }
        if let Some(a) = n.atom() {
            return a.parse().ok();
        }
        let args: Vec<&Node> = n.positional().collect();
        let of = |l: &mut Self| -> Option<usize> {
            match n.named("of") {
                Some(x) => l.int_at(x, site, depth + 1).map(|v| v as usize),
                None => site,
            }
        };
        match (n.head()?, args.as_slice()) {
            ("site", []) => site.map(|s| s as i64),
            ("centrePoint", []) => self.geo.as_ref()?.centre().first().map(|&c| c as i64),
            ("row", []) => {
                let s = of(self)?;
                Some(self.geo.as_ref()?.label_rc.get(s)?.1 as i64)
            }
            ("column", []) => {
                let s = of(self)?;
                Some(self.geo.as_ref()?.label_rc.get(s)?.0 as i64)
            }
            ("coord", [Node::Str(l, _)]) => self.geo.as_ref()?.index_of(l).map(|i| i as i64),
            // `(coord row:r column:c)`: the site in that row and column of the board's labels.
            ("coord", []) => {
                let row = self.int_at(n.named("row")?, site, depth + 1)?;
                let col = self.int_at(n.named("column")?, site, depth + 1)?;
                let geo = self.geo.as_ref()?;
                let at = geo
                    .label_rc
                    .iter()
                    .position(|&(c, r)| c as i64 == col && r as i64 == row)?;
                Some(at as i64)
            }
            (op @ ("+" | "-" | "*" | "/" | "%"), [a, b]) => {
                let a = self.int_at(a, site, depth + 1)?;
                let b = self.int_at(b, site, depth + 1)?;
                match op {
                    "+" => a.checked_add(b),
                    "-" => a.checked_sub(b),
                    "*" => a.checked_mul(b),
                    "/" => a.checked_div(b),
                    _ => a.checked_rem(b),
                }
            }
            _ => None,
        }
    }

    /// A boolean expression about `site` (`(site)`).
    fn bool_at(&mut self, n: &Node, site: usize, depth: usize) -> Option<bool> {
        if depth > MAX_DEPTH {
            return None;
        }
        let args: Vec<&Node> = n.positional().collect();
        // `(and {a b c})` or `(and a b)`.
        let list = |args: &[&'_ Node]| -> Vec<Node> {
            match args {
                [Node::Array(items, _)] => items.to_vec(),
                _ => args.iter().map(|a| (*a).clone()).collect(),
            }
        };
        let int = |l: &mut Self, x: &Node| l.int_at(x, Some(site), depth + 1);
        match (n.head()?, args.as_slice()) {
            ("and", a) => {
                let mut all = true;
                for x in list(a) {
                    all &= self.bool_at(&x, site, depth + 1)?;
                }
                Some(all)
            }
            ("or", a) => {
                let mut any = false;
                for x in list(a) {
                    any |= self.bool_at(&x, site, depth + 1)?;
                }
                Some(any)
            }
            ("not", [a]) => Some(!self.bool_at(a, site, depth + 1)?),
            ("is", [Node::Atom(k, _), x]) if k == "Even" || k == "Odd" => {
                let v = int(self, x)?;
                Some((v.rem_euclid(2) == 0) == (k == "Even"))
            }
            (op @ ("<" | ">" | "<=" | ">=" | "=" | "!="), [a, b]) => {
                let (a, b) = (int(self, a)?, int(self, b)?);
                Some(match op {
                    "<" => a < b,
                    ">" => a > b,
                    "<=" => a <= b,
                    ">=" => a >= b,
                    "=" => a == b,
                    _ => a != b,
                })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::board;

    /// `(coord row:r column:c)` names the site by its row and column (Chinese Checkers' homes).
    #[test]
    fn coordinates_by_row_and_column() {
        let text = r#"(game "Homes" (players 2)
            (equipment {(board (square 3)) (piece "Disc" Each)
                (regions "Home" P1 (expand origin:(coord row:0 column:(+ 0 1)) steps:1))})
            (rules (start (place "Disc1" (sites P1))) (play (forEach Piece))
                (end (if (no Moves Next) (result Mover Win)))))"#;
        let (doc, _) = crate::ludii::read_lud("homes.lud", text, crate::diag::FileId(0));
        let g = &doc.expect("a document").games[0];
        let mut at = g.setup[0].positions.clone();
        at.sort();
        assert_eq!(at, ["A1", "B1", "B2", "C1"]);
    }

    /// Phases, corners and outer sites of small boards, as the Ludii oracle gives them for
    /// `(sites Phase 0)`, `(sites Corners)` and `(sites Outer)`.
    #[test]
    fn phases_corners_and_outer_sites_are_ludiis() {
        let of = |p: &[u8], k: u8| -> Vec<usize> { (0..p.len()).filter(|&i| p[i] == k).collect() };
        let g = board::grid(3, 4);
        assert_eq!(of(&g.phases(), 0), [0, 2, 5, 7, 8, 10]);
        // Ludii's `(hex 3)`: rows of 3, 4, 5, 4 and 3 cells, bottom to top.
        let mut v = board::VertexGraph::default();
        for (r, k) in [3usize, 4, 5, 4, 3].into_iter().enumerate() {
            for c in 0..k {
                let x = c as f64 * 3f64.sqrt() - (k as f64 - 1.0) * 3f64.sqrt() / 2.0;
                v.vertex((x, r as f64 * 1.5));
            }
        }
        for a in 0..v.v.len() {
            for b in a + 1..v.v.len() {
                let (p, q) = (v.v[a], v.v[b]);
                if ((p.0 - q.0).hypot(p.1 - q.1) - 3f64.sqrt()).abs() < 1e-6 {
                    v.edge(a, b);
                }
            }
        }
        let h = v.geo();
        assert_eq!(of(&h.phases(), 0), [0, 5, 8, 11, 14, 16]);
        assert_eq!(of(&h.phases(), 1), [1, 3, 6, 9, 12, 15, 17]);
        assert_eq!(h.corners(), [0, 2, 7, 11, 16, 18]);
        assert_eq!(h.outer(), [0, 1, 2, 3, 6, 7, 11, 12, 15, 16, 17, 18]);
        let t = board::tri_cell(4);
        assert_eq!(of(&t.phases(), 0), [0, 1, 2, 3, 7, 8, 9, 12, 13, 15]);
        let t = board::tri_vertex(4);
        assert_eq!(of(&t.phases(), 0), [0, 3, 5, 9]);
        let s = board::grid(5, 5);
        assert_eq!(s.corners(), [0, 4, 20, 24]);
        assert_eq!(
            s.outer(),
            [0, 1, 2, 3, 4, 5, 9, 10, 14, 15, 19, 20, 21, 22, 23, 24]
        );
    }
}
