//! Tracks, player regions and counters in `.lud` lowering: `(track …)`, `(sites Track …)`, `(sites P1 "Home")` and `(set Count n to:…)` as Ludii's mancala games use them.

use super::board::COMPASS;
use super::lower::Lower;
use super::syntax::Node;
use crate::spec::{Piece, Placement};

/// A `(track "Name" steps [loop:True] [owner])` of the board (the owner is not kept), kept until its sites are asked for.
#[derive(Debug, Clone)]
pub(crate) struct Track {
    /// The track's name.
    pub name: String,
    /// `"1,E,N,W"` or `{0 2 4 …}`.
    pub steps: Node,
}

/// The sites of a `(regions …)` by name and owner, unnamed regions included, for
/// `(sites P1 "Home")` and `(sites P1)`.
#[derive(Debug, Clone)]
pub(crate) struct RegionSites {
    /// The region's name (`None`: `(regions P1 (sites Bottom))`).
    pub name: Option<String>,
    /// Its owner (`None`: every player).
    pub owner: Option<String>,
    /// Site indexes.
    pub sites: Vec<usize>,
}

impl Lower<'_> {
    /// Collects the `(track …)` forms in `n` (a board's argument, an array of them, or an
    /// equipment item).
    pub fn collect_tracks(&mut self, n: &Node) {
        match n {
            Node::Array(items, _) => items.iter().for_each(|i| self.collect_tracks(i)),
            Node::List(..) if n.head() == Some("track") => {
                let args: Vec<&Node> = n.positional().collect();
                if let [Node::Str(name, _), steps, ..] = args.as_slice() {
                    self.tracks.push(Track {
                        name: name.clone(),
                        steps: (*steps).clone(),
                    });
                }
            }
            _ => {}
        }
    }

    /// The sites of a track (the first one, the one named `name`, or failing that the first
    /// whose name starts with `name`), in track order, each once. A direction step (`E`, `N1`)
    /// walks the board's links, never into a mancala store; a number is a site index.
    pub fn track_sites(&self, name: Option<&str>) -> Option<Vec<usize>> {
        let t = self
            .tracks
            .iter()
            .find(|t| name.is_none_or(|n| t.name == n))
            .or_else(|| name.and_then(|n| self.tracks.iter().find(|t| t.name.starts_with(n))))?;
        let geo = self.geo.as_ref()?;
        let mut out: Vec<usize> = Vec::new();
        match &t.steps {
            Node::Array(items, _) => {
                for i in items {
                    let k = i.atom()?.parse::<usize>().ok().filter(|&k| k < geo.len())?;
                    out.push(k);
                }
            }
            Node::Str(s, _) => {
                let mut at: Option<usize> = None;
                for item in s.split(',').map(str::trim) {
                    if let Ok(k) = item.parse::<usize>() {
                        out.push(Some(k).filter(|&k| k < geo.len())?);
                        at = Some(k);
                        continue;
                    }
                    if item == "End" {
                        break;
                    }
                    let digits = item
                        .find(|c: char| c.is_ascii_digit())
                        .unwrap_or(item.len());
                    let (dir, count) = item.split_at(digits);
                    if !COMPASS.contains(&dir) {
                        return None;
                    }
                    let count = match count {
                        "" => geo.len(),
                        c => c.parse::<usize>().ok()?.min(geo.len()),
                    };
                    let mut cur = at?;
                    for _ in 0..count {
                        let next = geo.links[cur]
                            .iter()
                            .find(|(d, j)| *d == dir && !self.stores.contains(j));
                        let Some(&(_, next)) = next else { break };
                        cur = next;
                        out.push(cur);
                    }
                    at = Some(cur);
                }
            }
            _ => return None,
        }
        let mut seen = vec![false; geo.len()];
        out.retain(|&s| !std::mem::replace(&mut seen[s], true));
        Some(out)
    }

    /// The sites of the regions owned by `owner` (any owner when `None`) named `name` (the
    /// unnamed ones when `None`), sorted; `None` when there is no such region.
    pub fn region_sites(&self, owner: Option<&str>, name: Option<&str>) -> Option<Vec<usize>> {
        let hits: Vec<&RegionSites> = self
            .region_sites
            .iter()
            .filter(|r| owner.is_none_or(|o| r.owner.as_deref() == Some(o)))
            .filter(|r| r.name.as_deref() == name)
            .collect();
        if hits.is_empty() {
            return None;
        }
        let mut v: Vec<usize> = hits.iter().flat_map(|r| r.sites.iter().copied()).collect();
        v.sort_unstable();
        v.dedup();
        Some(v)
    }

    /// `(set Count n to:sites)` / `(set Count n at:site)`: `n` pieces of the first kind on each
    /// site, owned by nobody (`Neutral`), as Ludii fills mancala holes; a position is listed
    /// once per piece. `None` when not understood.
    pub fn set_count(&mut self, n: &Node, pieces: &[Piece]) -> Option<Vec<Placement>> {
        let args: Vec<&Node> = n.positional().collect();
        let [Node::Atom(what, _), count, rest @ ..] = args.as_slice() else {
            return None;
        };
        if what != "Count" {
            return None;
        }
        let count = count.atom()?.parse::<usize>().ok().filter(|k| *k <= 1000)?;
        let target = match (rest, n.named("to").or_else(|| n.named("at"))) {
            ([], Some(t)) => t,
            ([t], None) => *t,
            _ => return None,
        };
        let mut sites = self.sites(target)?;
        if count == 0 {
            return Some(Vec::new());
        }
        let mut seen = Vec::new();
        sites.retain(|s| {
            let new = !seen.contains(s);
            seen.push(*s);
            new
        });
        let piece = pieces.first()?;
        let geo = self.geo.as_ref()?;
        Some(vec![geo.placement(
            super::board::NEUTRAL.into(),
            piece.name.clone(),
            sites.iter().map(|&i| (i, count)),
        )])
    }
}
