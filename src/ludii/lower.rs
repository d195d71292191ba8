//! Lowering an expanded `.lud` game into the portable spec: board, players, pieces and moves, regions, setup, ends.
//!
//! What has no typed form travels verbatim (compact `.lud` text) in `extensions` (as `ludii` items) with a
//! `ludii::unmapped` warning. Entries are wrapped in the section they came from, e.g.
//! `(equipment {(hand Each)})`, `(rules (play …))`, `(end {(if …)})`, `(metadata …)`, so the
//! writer can put them back; a piece's unmapped moves are kept in the piece's extensions as
//! plain move ludemes.

use super::board::{self, COMPASS, Geo};

mod moves;
use super::syntax::{Node, print};
use crate::diag::{Diagnostic, Severity, Span};
use crate::spec::geometry::build::{BuildError, build as tiling_build};
use crate::spec::movement::{self, Land, Movement, Promotion, Travel};
use crate::spec::{
    Board, BoardArg, BoardFn, Cond, Construction, EntryKind, Extensions, Game, GameOption, Goal,
    GoalCond, GoalKind, MoveBlock, Piece, Placement, RawFormat, SiteKind, Symmetry, Test, Texts,
    Zone,
};

/// Diagnostic code: a ludeme with no typed form, kept verbatim in `extensions` (as `ludii` items).
pub const CODE_UNMAPPED: &str = "ludii::unmapped";
/// Diagnostic code: a board that cannot be built.
pub const CODE_BAD_BOARD: &str = "ludii::bad-board";
/// Diagnostic code: a site label or index that is not on the board.
pub const CODE_BAD_SITE: &str = "ludii::bad-site";
/// Diagnostic code: the file has no `(game …)`.
pub const CODE_NO_GAME: &str = "ludii::no-game";
/// Diagnostic code: an absolute direction set that a mirrored player would read differently.
pub const CODE_ABSOLUTE_DIRECTION: &str = "ludii::absolute-direction";

/// Offsets (in eighths of a turn, clockwise) of the relative direction names.
pub fn relative_offsets(name: &str) -> Option<Vec<i32>> {
    Some(match name {
        "Forward" => vec![0],
        "FR" => vec![1],
        "Rightward" => vec![2],
        "BR" => vec![3],
        "Backward" => vec![4],
        "BL" => vec![5],
        "Leftward" => vec![6],
        "FL" => vec![7],
        "Forwards" => vec![7, 0, 1],
        "Rightwards" => vec![1, 2, 3],
        "Backwards" => vec![3, 4, 5],
        "Leftwards" => vec![5, 6, 7],
        _ => return None,
    })
}

/// Relative direction name of an offset (inverse of [`relative_offsets`] for single names).
pub fn relative_name(off: i32) -> &'static str {
    [
        "Forward",
        "FR",
        "Rightward",
        "BR",
        "Backward",
        "BL",
        "Leftward",
        "FL",
    ][off.rem_euclid(8) as usize]
}

pub(crate) struct Lower<'a> {
    pub diags: &'a mut Vec<Diagnostic>,
    pub geo: Option<Geo>,
    pub players: Vec<String>,
    /// Facing per player when `(players {(player N) …})` is used.
    pub facings: Vec<Option<String>>,
    pub ext: Vec<String>,
    pub zone_names: Vec<String>,
    /// The board's `(track …)` forms.
    pub tracks: Vec<super::track::Track>,
    /// The sites of every `(regions …)`, named or not.
    pub region_sites: Vec<super::track::RegionSites>,
    /// Players whose unnamed region is several (`(regions P1 {(sites Side NE) (sites Side
    /// SW)})`), with the count: each part is also the zone `Own-k` of that player, as Ludii's
    /// `(is Connected Mover)` connects each part.
    pub own_parts: Vec<(String, usize)>,
    /// Mancala stores (no track step enters them).
    pub stores: Vec<usize>,
    /// Pieces owned by `Shared` or `Neutral`, with that owner.
    pub piece_owners: Vec<(String, String)>,
    /// The play rule lets a piece that goes on capturing stop (`(move Pass)`): ZRF's
    /// `pass-partial`.
    pub pass_partial: bool,
    /// `(meta (swap))` in a two-player game: the pie rule.
    pub swap: bool,
    /// The board is the points of a plain square grid (`(square n) use:Vertex`, no
    /// `diagonals:`), where Ludii's `Adjacent` relation (the default, and that of relative
    /// directions without `of:`) has no diagonal neighbours: the oracle's moves of Xarajlt and
    /// Challis Ghutia have none, Roll-Ing to Four's `Forwards of:All` has them.
    pub orthogonal_moves: bool,
    /// The direction the piece whose moves are being lowered faces, in eighths of a turn
    /// from north (`(piece "Toad" P1 E …)`): its relative directions turn with it.
    pub facing: i32,
}

impl<'a> Lower<'a> {
    /// A lowering with nothing read yet.
    pub fn new(diags: &'a mut Vec<Diagnostic>) -> Self {
        Lower {
            diags,
            geo: None,
            players: Vec::new(),
            facings: Vec::new(),
            ext: Vec::new(),
            zone_names: Vec::new(),
            tracks: Vec::new(),
            region_sites: Vec::new(),
            own_parts: Vec::new(),
            stores: Vec::new(),
            piece_owners: Vec::new(),
            pass_partial: false,
            swap: false,
            orthogonal_moves: false,
            facing: 0,
        }
    }
}

fn cond_test(t: Test) -> Cond {
    Cond::Test {
        test: t,
        at: None,
        move_type: None,
    }
}

fn not(c: Cond) -> Cond {
    match c {
        Cond::Not(inner) => *inner,
        c => Cond::Not(Box::new(c)),
    }
}

fn int(n: &Node) -> Option<i64> {
    n.atom()?.parse().ok()
}

impl Lower<'_> {
    fn unmapped(&mut self, what: &str, n: &Node) {
        // One diagnostic per kind and file.
        let message = format!(
            "{what} has no typed form in the spec; kept verbatim in `extensions` (a `ludii` item)"
        );
        if self
            .diags
            .iter()
            .any(|d| d.code == CODE_UNMAPPED && d.message == message)
        {
            return;
        }
        self.diags
            .push(Diagnostic::warning(CODE_UNMAPPED, message, n.span()));
    }

    fn keep(&mut self, wrapper: &str, n: &Node, array: bool) {
        self.unmapped(&format!("`({} …)`", n.head().unwrap_or("…")), n);
        let t = print(n);
        self.ext.push(if wrapper.is_empty() {
            t
        } else if array {
            format!("({wrapper} {{{t}}})")
        } else {
            format!("({wrapper} {t})")
        });
    }

    // ---------------------------------------------------------------- players and board

    pub fn players(&mut self, n: &Node) {
        let args: Vec<&Node> = n.positional().collect();
        match args.first() {
            Some(Node::Array(items, _)) => {
                for (i, p) in items.iter().enumerate() {
                    self.players.push(format!("P{}", i + 1));
                    let f = p.args().first().and_then(|a| a.atom()).map(str::to_string);
                    self.facings.push(f);
                }
            }
            Some(a) => {
                let k = int(a).unwrap_or(2).clamp(1, 16);
                for i in 0..k {
                    self.players.push(format!("P{}", i + 1));
                    self.facings.push(None);
                }
            }
            None => {
                self.players = vec!["P1".into(), "P2".into()];
                self.facings = vec![None, None];
            }
        }
    }

    /// `(board <graph> [use:Cell|Vertex|Edge])` → a board built through `spec::geometry`, or a
    /// diagnostic.
    pub fn board(&mut self, n: &Node) -> Option<Board> {
        n.args().iter().for_each(|a| self.collect_tracks(a));
        let graph = n.positional().next()?;
        self.built(n, graph, site_kind(n))
    }

    /// The board built from `graph` (a board function) with `sites` (none: an unknown site
    /// type); `whole` is the equipment item, kept verbatim when the board is not built.
    fn built(&mut self, whole: &Node, graph: &Node, sites: Option<SiteKind>) -> Option<Board> {
        let construction = sites
            .zip(board_fn(graph, 0))
            .map(|(sites, graph)| Construction { sites, graph });
        let built = match &construction {
            Some(c) => tiling_build(c),
            None => Err(BuildError::Unsupported(String::new())),
        };
        match (built, construction) {
            (Ok(geo), Some(c)) => {
                self.orthogonal_moves = c.sites == SiteKind::Vertex
                    && matches!(c.graph.name.as_str(), "square" | "rectangle")
                    && c.graph.named.is_empty();
                if c.graph.name == "mancalaBoard"
                    && c.graph.named("store").and_then(|s| s.word()) != Some("None")
                {
                    self.stores = vec![0, geo.len() - 1];
                }
                Some(self.board_of(geo, c))
            }
            (Err(BuildError::BadSize(why)), _) => {
                self.diags.push(Diagnostic::error(
                    CODE_BAD_BOARD,
                    format!("board `{}`: {why}", print(graph)),
                    graph.span(),
                ));
                None
            }
            _ => {
                // A board function not mapped yet: a warning, the board kept verbatim.
                self.unmapped(
                    &format!("the board function `({} …)`", graph.head().unwrap_or("…")),
                    graph,
                );
                self.ext.push(format!("(equipment {{{}}})", print(whole)));
                None
            }
        }
    }

    /// `(mancalaBoard rows cols [store:None|Outer] …)`.
    pub fn mancala_board(&mut self, n: &Node) -> Option<Board> {
        n.args().iter().for_each(|a| self.collect_tracks(a));
        self.built(n, n, Some(SiteKind::Vertex))
    }

    /// `(surakartaBoard <graph> [loops:k] …)`: the graph's points, where Ludii plays; the
    /// loops a capture runs along have no spec form and are left out, with a warning.
    pub fn surakarta_board(&mut self, n: &Node) -> Option<Board> {
        self.diags.push(Diagnostic::warning(
            CODE_UNMAPPED,
            "the loops of `(surakartaBoard …)` have no typed form in the spec: the board is its \
             graph's points, and the loops (the circuits captures run along) are left out",
            n.span(),
        ));
        let graph = n.positional().next()?;
        self.built(n, graph, Some(SiteKind::Vertex))
    }

    /// `(boardless Square|Hexagonal)`.
    pub fn boardless(&mut self, n: &Node) -> Option<Board> {
        self.built(n, n, Some(SiteKind::Cell))
    }

    /// The spec board of a built Ludii board.
    fn board_of(&mut self, geo: board::Geo, construction: Construction) -> Board {
        let mut b = geo.spec_board(construction);
        if self.facings.iter().any(|f| f.is_some()) {
            for (p, f) in self.players.iter().zip(&self.facings) {
                let rot = f.as_deref().and_then(board::compass_index).unwrap_or(0) as i32;
                b.symmetries.push(Symmetry {
                    player: p.clone(),
                    map: geo
                        .dirs
                        .iter()
                        .map(|d| {
                            let to = board::rotate(d, rot).unwrap_or(d);
                            [d.to_string(), to.to_string()]
                        })
                        .collect(),
                });
            }
        }
        self.geo = Some(geo);
        b
    }

    // ---------------------------------------------------------------- regions

    /// Evaluates a site expression to site indexes.
    pub fn sites(&mut self, n: &Node) -> Option<Vec<usize>> {
        let geo = self.geo.as_ref()?;
        let site = |x: &Node| -> Option<usize> {
            match x {
                Node::Str(l, _) => geo.index_of(l),
                Node::Atom(a, _) => a.parse::<usize>().ok().filter(|&i| i < geo.len()),
                _ => None,
            }
        };
        match n {
            Node::Array(items, _) => {
                if items
                    .iter()
                    .all(|i| matches!(i, Node::Str(..) | Node::Atom(..)))
                {
                    let mut v = Vec::new();
                    for i in items {
                        match site(i) {
                            Some(s) => v.push(s),
                            None => {
                                let d = self.not_a_site(i);
                                self.diags.push(d);
                                return None;
                            }
                        }
                    }
                    Some(v)
                } else {
                    let mut v = Vec::new();
                    for i in items {
                        v.extend(self.sites(i)?);
                    }
                    Some(v)
                }
            }
            Node::Str(..) | Node::Atom(..) => match site(n) {
                Some(s) => Some(vec![s]),
                None => {
                    let d = self.not_a_site(n);
                    self.diags.push(d);
                    None
                }
            },
            Node::List(..) => {
                let args: Vec<&Node> = n.positional().collect();
                match (n.head()?, args.as_slice()) {
                    ("sites", [a]) if matches!(a, Node::Array(..)) => self.sites(a),
                    ("sites", [Node::Atom(k, _)]) => match k.as_str() {
                        "Bottom" => Some(geo.bottom()),
                        "Top" => Some(geo.top()),
                        "Left" => Some(geo.left()),
                        "Right" => Some(geo.right()),
                        "Board" => Some((0..geo.len()).collect()),
                        "Centre" | "Center" => Some(geo.centre()),
                        "Track" => self.track_sites(None),
                        p if self.players.iter().any(|x| x == p) => self
                            .region_sites(Some(p), None)
                            .or_else(|| self.owned_sites(p)),
                        _ => self.sites_more(n),
                    },
                    ("sites", [Node::Str(name, _)]) => self.region_sites(None, Some(name)),
                    ("sites", [Node::Atom(k, _), x]) => match (k.as_str(), x) {
                        ("Side", Node::Atom(d, _)) => Some(geo.side(d)),
                        ("Track", Node::Str(name, _)) => self.track_sites(Some(name)),
                        (p, Node::Str(name, _)) if self.players.iter().any(|x| x == p) => {
                            self.region_sites(Some(p), Some(name))
                        }
                        _ => self.sites_more(n),
                    },
                    ("centrePoint", []) => geo.centre().first().map(|&c| vec![c]),
                    ("+" | "-" | "*" | "/", [_, _]) => {
                        let k = float(n).filter(|k| k.fract() == 0.0 && *k >= 0.0)? as usize;
                        Some(vec![k]).filter(|_| k < geo.len())
                    }
                    ("union", parts) | ("intersection", parts) | ("difference", parts) => {
                        let parts: Vec<&Node> = if parts.len() == 1 {
                            parts[0].args().iter().collect()
                        } else {
                            parts.to_vec()
                        };
                        let mut sets = Vec::new();
                        for p in parts {
                            sets.push(self.sites(p)?);
                        }
                        let mut it = sets.into_iter();
                        let mut acc = it.next()?;
                        for s in it {
                            match n.head() {
                                Some("union") => {
                                    acc.extend(s);
                                }
                                Some("intersection") => acc.retain(|x| s.contains(x)),
                                _ => acc.retain(|x| !s.contains(x)),
                            }
                        }
                        acc.sort_unstable();
                        acc.dedup();
                        Some(acc)
                    }
                    _ => self.sites_more(n),
                }
            }
            _ => None,
        }
    }

    /// A site that is not on the board: an error for a label of a board whose sites are
    /// Ludii's exactly; a warning for other forms (`"Hand"`, `Orthogonal`, indexes of hand
    /// sites), which are not understood rather than wrong.
    fn not_a_site(&self, n: &Node) -> Diagnostic {
        let exact = self
            .geo
            .as_ref()
            .is_some_and(|g| !matches!(g.shape, board::Shape::Mancala | board::Shape::Graph));
        let label = match n {
            // `"C5"`, not `"Hand1"` (a container's name).
            Node::Str(l, _) => {
                super::expand::split_label(l).is_some()
                    && l.chars().take_while(|c| c.is_ascii_alphabetic()).count() <= 2
            }
            // Indexes past the board are the sites of hands and other containers.
            _ => false,
        };
        let message = format!("`{}` is not a site of this board", print(n));
        if exact && label {
            Diagnostic::error(CODE_BAD_SITE, message, n.span())
        } else {
            Diagnostic::warning(CODE_BAD_SITE, message + " (not understood)", n.span())
        }
    }

    /// `(regions ["Name"] [owner] sites)` → zones.
    pub fn regions(&mut self, n: &Node) -> Option<Vec<Zone>> {
        let args: Vec<&Node> = n.positional().collect();
        let (name, rest) = match args.first() {
            Some(Node::Str(s, _)) => (Some(s.clone()), &args[1..]),
            _ => (None, &args[..]),
        };
        let (owners, expr) = match rest {
            [Node::Atom(o, _), e] => (Some(o.as_str()), *e),
            [e] => (None, *e),
            _ => return None,
        };
        let players: Vec<String> = match owners {
            None | Some("Shared") | Some("Each") | Some("All") => self.players.clone(),
            Some(p) if self.players.iter().any(|x| x == p) => vec![p.to_string()],
            Some(_) => return None,
        };
        if owners == Some("Each") {
            // A region per player, each computed for that player: only static site lists keep
            // their meaning for every owner.
            if !matches!(expr, Node::Array(..)) {
                return None;
            }
        }
        let sites = self.sites(expr)?;
        self.region_sites.push(super::track::RegionSites {
            name: name.clone(),
            owner: owners.filter(|o| o.starts_with('P')).map(String::from),
            sites: sites.clone(),
        });
        // An unnamed region of one player is the zone `Own` of that player (what `(sites Mover)`
        // means); others are only looked up (`(sites P1)`) and stay verbatim.
        let name = match (name, owners) {
            (Some(n), _) => n,
            (None, Some(o)) if self.players.iter().any(|p| p == o) => OWN_ZONE.to_string(),
            _ => return None,
        };
        let parts = self.own_zone_parts(&name, &players, expr)?;
        let geo = self.geo.as_ref()?;
        if !self.zone_names.contains(&name) {
            self.zone_names.push(name.clone());
        }
        let zone = |name: String, sites: &[usize]| Zone {
            name,
            players: players.clone(),
            positions: sites.iter().map(|&i| geo.names[i].clone()).collect(),
            glyph: None,
            help: None,
        };
        let mut zones = vec![zone(name, &sites)];
        for (k, part) in parts.iter().enumerate() {
            zones.push(zone(format!("{OWN_ZONE}-{}", k + 1), part));
        }
        Some(zones)
    }

    /// The parts of a player's unnamed region given as several regions (`{(sites Side NE)
    /// (sites Side SW)}`): their sites, each to be the zone `Own-k` too (recorded in
    /// [`Lower::own_parts`]). None for any other region.
    fn own_zone_parts(
        &mut self,
        name: &str,
        players: &[String],
        expr: &Node,
    ) -> Option<Vec<Vec<usize>>> {
        let items = match expr {
            Node::Array(items, _)
                if items.len() > 1 && items.iter().all(|i| i.head().is_some()) =>
            {
                items
            }
            _ => return Some(Vec::new()),
        };
        let [player] = players else {
            return Some(Vec::new());
        };
        if name != OWN_ZONE {
            return Some(Vec::new());
        }
        let parts: Vec<Vec<usize>> = items.iter().map(|i| self.sites(i)).collect::<Option<_>>()?;
        for k in 1..=parts.len() {
            let z = format!("{OWN_ZONE}-{k}");
            if !self.zone_names.contains(&z) {
                self.zone_names.push(z);
            }
        }
        self.own_parts.push((player.clone(), parts.len()));
        Some(parts)
    }

    /// `(is Connected [directions] Mover | {regions})`: Ludii's connection goal (`Some(None)`
    /// when its form is not typed); `None` when `c` is another condition. `Mover` connects
    /// each region the player owns ([`Lower::owned_regions`]).
    fn connected(&mut self, c: &Node) -> Option<Option<GoalCond>> {
        let args: Vec<&Node> = c.positional().collect();
        let (Some("is"), [Node::Atom(k, _), rest @ ..]) = (c.head(), args.as_slice()) else {
            return None;
        };
        if k != "Connected" {
            return None;
        }
        Some(self.connected_parts(c, rest))
    }

    /// The zones `(is Connected Mover)` connects, as Ludii does each region function of the
    /// regions the mover owns: the parts of the players' unnamed regions (`Own-1` …, or `Own`
    /// whole), when they own no named region; or, when the players own named regions only and
    /// every region has one owner, every zone the player owns (the empty list). `None` for a
    /// mix, or regions of several owners (which Ludii would not connect but the spec's empty
    /// list would).
    fn owned_regions(&self) -> Option<Vec<String>> {
        let r = &self.region_sites;
        let unnamed = r.iter().any(|r| r.name.is_none() && r.owner.is_some());
        let named = r.iter().any(|r| r.name.is_some() && r.owner.is_some());
        let shared = r.iter().any(|r| r.owner.is_none());
        if !unnamed {
            return (named && !shared).then(Vec::new);
        }
        if named {
            return None;
        }
        let parts: Vec<usize> = self
            .players
            .iter()
            .map(|p| {
                self.own_parts
                    .iter()
                    .find(|(q, _)| q == p)
                    .map_or(1, |x| x.1)
            })
            .collect();
        if parts.windows(2).any(|w| w[0] != w[1]) {
            return None;
        }
        Some(match parts.first() {
            Some(&k) if k > 1 => (1..=k).map(|i| format!("{OWN_ZONE}-{i}")).collect(),
            _ => vec![OWN_ZONE.to_string()],
        })
    }

    fn connected_parts(&mut self, c: &Node, rest: &[&Node]) -> Option<GoalCond> {
        if c.args().iter().any(|a| matches!(a, Node::Named(..))) {
            return None;
        }
        let (dir, what) = match rest {
            [w] => (None, *w),
            [d, w] => (Some(*d), *w),
            _ => return None,
        };
        let zones = match what {
            Node::Atom(w, _) if w == "Mover" => self.owned_regions()?,
            Node::Array(items, _) => items.iter().map(region_name).collect::<Option<_>>()?,
            _ => return None,
        };
        if !zones.iter().all(|z| self.zone_names.contains(z)) {
            return None;
        }
        let all = self.dirs(None)?;
        let dirs = self.dirs(dir)?;
        let directions = if dirs == all && self.geo.as_ref()?.dirs.len() == all.len() {
            Vec::new()
        } else {
            dirs.iter().map(|d| d.to_string()).collect()
        };
        Some(GoalCond::Connected { zones, directions })
    }

    // ---------------------------------------------------------------- conditions

    /// A boolean ludeme about the site under consideration.
    pub fn cond(&self, n: &Node) -> Option<Cond> {
        if let Some(a) = n.atom() {
            return match a {
                "True" | "true" => Some(Cond::Const(true)),
                "False" | "false" => Some(Cond::Const(false)),
                _ => None,
            };
        }
        let args: Vec<&Node> = n.positional().collect();
        match (n.head()?, args.as_slice()) {
            ("not", [c]) => Some(not(self.cond(c)?)),
            ("and", parts) | ("or", parts) => {
                if n.head() == Some("or")
                    && let Some(piece) = self.piece_of_every_player(parts)
                {
                    return Some(Cond::Piece { piece, at: None });
                }
                let mut v = Vec::new();
                for p in items_or_args(parts) {
                    v.push(self.cond(p)?);
                }
                Some(if n.head() == Some("and") {
                    Cond::And(v)
                } else {
                    Cond::Or(v)
                })
            }
            ("is", [Node::Atom(k, _), rest @ ..]) => match (k.as_str(), rest) {
                ("Empty", [loc]) if is_loc(loc) => Some(cond_test(Test::Empty)),
                ("Occupied", [loc]) if is_loc(loc) => Some(not(cond_test(Test::Empty))),
                ("Friend", [w]) if who_at(w) => Some(cond_test(Test::Friend)),
                ("Enemy", [w]) if who_at(w) => Some(cond_test(Test::Enemy)),
                ("In", [loc, region]) if is_loc(loc) => {
                    let zone = region_name(region).filter(|z| self.zone_names.contains(z))?;
                    Some(Cond::InZone { zone, at: None })
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// `(or {(= (what at:(to)) (id "P" P1)) … })` naming piece `P` of every player: ZoG's
    /// `piece?`, which tests the type whoever owns it (what the `.lud` writer writes for it).
    fn piece_of_every_player(&self, parts: &[&Node]) -> Option<String> {
        let mut name: Option<&str> = None;
        let mut roles = Vec::new();
        for p in items_or_args(parts) {
            let [what, id] = p.positional().collect::<Vec<_>>()[..] else {
                return None;
            };
            let at = what.named("at").filter(|l| is_loc(l));
            let ok = p.head() == Some("=") && what.head() == Some("what") && at.is_some();
            let [piece, role] = id.positional().collect::<Vec<_>>()[..] else {
                return None;
            };
            if !ok || id.head() != Some("id") || name.is_some_and(|n| Some(n) != piece.str()) {
                return None;
            }
            name = piece.str();
            roles.push(role.atom()?.to_string());
        }
        roles.sort();
        let all: Vec<String> = (1..=self.players.len()).map(|k| format!("P{k}")).collect();
        (roles == all).then(|| name.map(str::to_string)).flatten()
    }

    // ---------------------------------------------------------------- directions

    /// Direction offsets from north (P1's forward), in eighths of a turn.
    fn offsets(&self, n: &Node, relative_only: bool) -> Option<Vec<i32>> {
        let geo = self.geo.as_ref()?;
        match n {
            Node::Atom(a, _) => {
                if let Some(v) = relative_offsets(a) {
                    let v = v.into_iter().map(|o| o + self.facing).collect();
                    return Some(v);
                }
                if relative_only {
                    return None;
                }
                let set: Vec<&str> = match a.as_str() {
                    "Orthogonal" => geo.orth.clone(),
                    "Diagonal" => geo.diag.clone(),
                    "Adjacent" | "All" => geo.dirs.clone(),
                    d => vec![COMPASS.iter().copied().find(|c| *c == d)?],
                };
                Some(
                    set.iter()
                        .filter_map(|d| board::compass_index(d).map(|i| i as i32))
                        .collect(),
                )
            }
            Node::Array(items, _) => {
                let mut v = Vec::new();
                for i in items {
                    for o in self.offsets(i, relative_only)? {
                        if !v.contains(&o) {
                            v.push(o);
                        }
                    }
                }
                Some(v)
            }
            Node::List(..) if n.head() == Some("directions") => {
                let first = n.positional().next()?;
                self.offsets(first, relative_only)
            }
            _ => None,
        }
    }

    /// Absolute board directions (for P1 facing north) of a direction argument.
    fn dirs(&mut self, n: Option<&Node>) -> Option<Vec<&'static str>> {
        // Relative directions and the default read the `Adjacent` relation unless `of:` names
        // another; `All`, `Diagonal` and compass names reach the diagonal neighbours too.
        let wide = n.is_some_and(|n| {
            let t = print(n);
            t.contains("of:") || t.contains("All") || t.contains("Diagonal") || contains_absolute(n)
        });
        let movable = |geo: &Geo, d: &&str| !self.orthogonal_moves || wide || geo.orth.contains(d);
        let Some(n) = n else {
            let geo = self.geo.as_ref()?;
            return Some(
                geo.dirs
                    .iter()
                    .copied()
                    .filter(|d| movable(geo, d))
                    .collect(),
            );
        };
        let offs = self.offsets(n, false)?;
        let geo = self.geo.as_ref()?;
        let dirs: Vec<&'static str> = offs
            .iter()
            .map(|&o| COMPASS[o.rem_euclid(8) as usize])
            .filter(|d| geo.dirs.contains(d) && movable(geo, d))
            .collect();
        // Absolute sets a mirrored player would read through its symmetry.
        let mirrored = self
            .facings
            .iter()
            .any(|f| f.as_deref().is_some_and(|f| f != "N"));
        let has_absolute = contains_absolute(n);
        if mirrored && has_absolute {
            let closed = dirs
                .iter()
                .all(|d| board::rotate(d, 4).is_some_and(|o| dirs.contains(&o)));
            if !closed {
                self.diags.push(Diagnostic::warning(
                    CODE_ABSOLUTE_DIRECTION,
                    "absolute directions that are not symmetric: the spec applies the players' symmetries, so mirrored players move the other way",
                    n.span(),
                ));
            }
        }
        Some(dirs)
    }

    // ---------------------------------------------------------------- moves

    /// `(play (if (is Prev Mover) (or (move Hop (from (last To)) …) (move Pass)) (forEach
    /// Piece)))`: pieces move; a piece that captured goes on capturing with the same hop (the
    /// [`CAPTURE`] moves of every piece that has them, as `capture_again` made them) or stops.
    fn capture_sequence_play(&mut self, r: &Node, pieces: &[Piece]) -> Option<Play> {
        let [inner] = r.positional().collect::<Vec<_>>()[..] else {
            return None;
        };
        let a: Vec<&Node> = inner.positional().collect();
        let (Some("if"), [c, then, other]) = (inner.head(), a.as_slice()) else {
            return None;
        };
        if print(c) != "(is Prev Mover)" || print(other) != "(forEach Piece)" {
            return None;
        }
        let alts = match then.positional().collect::<Vec<_>>().as_slice() {
            [Node::Array(items, _)] => items.iter().collect(),
            v => v.to_vec(),
        };
        let (Some("or"), [x, y]) = (then.head(), alts.as_slice()) else {
            return None;
        };
        let hop = match (print(x).as_str(), print(y).as_str()) {
            (_, "(move Pass)") => *x,
            ("(move Pass)", _) => *y,
            _ => return None,
        };
        let Node::List(items, span) = hop else {
            return None;
        };
        let n = items.len();
        let items: Vec<Node> = items
            .iter()
            .filter(|i| print(i) != "(from (last To))")
            .cloned()
            .collect();
        if items.len() + 1 != n {
            return None;
        }
        let again = self.moves(&Node::List(items, *span))?;
        let captures = |p: &Piece| -> Vec<MoveBlock> {
            let capture = |b: &&MoveBlock| b.move_type.as_deref() == Some(CAPTURE);
            p.moves.iter().filter(capture).cloned().collect()
        };
        let with: Vec<Vec<MoveBlock>> = pieces
            .iter()
            .map(captures)
            .filter(|c| !c.is_empty())
            .collect();
        if with.is_empty() || with.iter().any(|c| *c != again) {
            return None;
        }
        self.pass_partial = true;
        Some(Play {
            pieces: true,
            ..Play::default()
        })
    }

    // ---------------------------------------------------------------- setup and ends

    /// `(place ["Stack"] "Item<n>" sites [count:k | counts:{k…}])` or `(place Stack items:{…} site)` →
    /// placements, a position listed once per piece; `None` when not understood. `state:`
    /// and `value:` are dropped with a warning (the spec has no piece states).
    pub fn place(&mut self, n: &Node, pieces: &[Piece]) -> Option<Vec<Placement>> {
        let mut args: Vec<&Node> = n.positional().collect();
        let stack = args.first().and_then(|a| a.atom()) == Some("Stack");
        if stack {
            args.remove(0);
        }
        let known = [
            "coord", "count", "counts", "state", "value", "items", "rotation",
        ];
        if n.args()
            .iter()
            .any(|a| matches!(a, Node::Named(k, _, _) if !known.contains(&k.as_str())))
        {
            return None;
        }
        let items: Vec<&str> = match (args.first(), n.named("items")) {
            (Some(Node::Str(item, _)), None) => {
                args.remove(0);
                vec![item.as_str()]
            }
            (_, Some(Node::Array(list, _))) if stack => {
                list.iter().map(|i| i.str()).collect::<Option<Vec<_>>>()?
            }
            _ => return None,
        };
        let count = match n.named("count") {
            None => 1,
            Some(c) => int(c).filter(|k| (0..=1000).contains(k))? as usize,
        };
        // `(place "Dog2" (handSite P2) count:15)`: pieces in the owner's hand.
        if let ([h], [item]) = (args.as_slice(), items.as_slice())
            && let Some(p) = self.hand_placement(h, item, count, pieces)
        {
            return Some(vec![p]);
        }
        // `(place "Marker" "Hand" count:3)`: a piece of every player, in each player's hand.
        if let ([Node::Str(h, _)], [item]) = (args.as_slice(), items.as_slice())
            && h == "Hand"
            && pieces.iter().any(|p| p.name == *item)
        {
            let each = self.players.iter().map(|player| Placement {
                player: player.clone(),
                piece: item.to_string(),
                positions: Vec::new(),
                off: Some(count as u32),
            });
            return Some(each.collect());
        }
        let sites = match (args.as_slice(), n.named("coord")) {
            ([], Some(c)) => self.sites(c)?,
            ([w], None) => self.sites(w)?,
            _ => return None,
        };
        // `counts:{k…}`: one count per site, or one for every site.
        let counts: Vec<usize> = match n.named("counts") {
            None => vec![count; sites.len()],
            Some(Node::Array(ks, _)) if ks.len() == 1 || ks.len() == sites.len() => {
                let ks: Vec<usize> = ks
                    .iter()
                    .map(|k| {
                        int(k)
                            .filter(|k| (0..=1000).contains(k))
                            .map(|k| k as usize)
                    })
                    .collect::<Option<_>>()?;
                (0..sites.len()).map(|i| ks[i.min(ks.len() - 1)]).collect()
            }
            Some(_) => return None,
        };
        if ["state", "value", "rotation"]
            .iter()
            .any(|k| n.named(k).is_some())
        {
            self.unmapped(
                "piece states, values and rotations of `(place …)` (`state:`, `value:`, `rotation:`)",
                n,
            );
            self.ext.push(format!("(start {{{}}})", print(n)));
        }
        let mut out = Vec::new();
        for item in items {
            let owned = self.piece_owners.iter().find(|(p, _)| p == item).cloned();
            let (piece, player) = owned.or_else(|| split_item(item, pieces, &self.players))?;
            let geo = self.geo.as_ref()?;
            out.push(geo.placement(
                player,
                piece,
                sites.iter().copied().zip(counts.iter().copied()),
            ));
        }
        Some(out)
    }

    /// `(forEach NonMover if:c r)` of a two-player game, as `(if c r)` with the atom `Player`
    /// (the player iterated) read as `Next`.
    fn non_mover_goal(&self, n: &Node) -> Option<Node> {
        if self.players.len() != 2 {
            return None;
        }
        for_each_as_if(n, "NonMover", "Next")
    }

    /// A line's direction as the board's directions: a category (`Orthogonal`, `Diagonal`,
    /// `All`) or a compass name; none is Ludii's `Adjacent`, which on the points of a plain
    /// square grid has no diagonal neighbours. `None` when it names none of the board's.
    fn line_directions(&mut self, cond: GoalCond, at: &Node) -> Option<GoalCond> {
        let GoalCond::Line { length, directions } = cond else {
            return Some(cond);
        };
        let dirs = match directions.as_slice() {
            [] if !self.orthogonal_moves => return Some(GoalCond::Line { length, directions }),
            [] => self.dirs(None)?,
            [d] => self.dirs(Some(&Node::Atom(d.clone(), at.span())))?,
            _ => return None,
        };
        if dirs.is_empty() {
            return None;
        }
        Some(GoalCond::Line {
            length,
            directions: dirs.iter().map(|d| d.to_string()).collect(),
        })
    }

    /// `(if <cond> (result …))` → a goal. In a game of two, `(forEach NonMover if:<cond>
    /// <result>)` is the same goal about `Next` (the one player who is not the mover), its
    /// `Player` read as `Next`.
    pub fn goal(&mut self, n: &Node, pieces: &[Piece]) -> Option<Goal> {
        if let Some(g) = self.non_mover_goal(n) {
            return self.goal(&g, pieces);
        }
        if let Some(g) = every_player_goal(n) {
            // The goal is each player's (the engine tests a goal for every player it names);
            // a condition about moves is tested only for the player to move, so not read.
            return self
                .goal(&g, pieces)
                .filter(|g| g.kind != GoalKind::Count && is_static(&g.condition));
        }
        let args: Vec<&Node> = n.positional().collect();
        let (c, r) = match (n.head()?, args.as_slice()) {
            ("if", [c, r]) => (*c, *r),
            _ => return None,
        };
        let (subject, cond) = match self.connected(c) {
            Some(found) => ("Mover".to_string(), found?),
            None => goal_cond(c, pieces)?,
        };
        let cond = self.line_directions(cond, c)?;
        if let GoalCond::AbsoluteConfig { positions, .. } = &cond
            && !positions.iter().all(|z| self.zone_names.contains(z))
        {
            return None;
        }
        let rargs: Vec<&Node> = r.positional().collect();
        let kind = match (r.head()?, rargs.as_slice()) {
            ("result", [Node::Atom(who, _), Node::Atom(res, _)]) => {
                let k = match res.as_str() {
                    "Win" => GoalKind::Win,
                    "Loss" => GoalKind::Loss,
                    "Draw" => GoalKind::Draw,
                    _ => return None,
                };
                let relative = |w: &str| matches!(w, "Mover" | "Next");
                let known = |w: &str| self.players.iter().any(|p| p == w);
                // About one player (`(no Moves P1)`): the goal is that player's; the other
                // player's result is the opposite in a game of two.
                let fixed = known(&subject) && (who == &subject || known(who));
                if !(relative(&subject) && relative(who) || fixed) {
                    return None;
                }
                if fixed && who != &subject && self.players.len() != 2 {
                    return None;
                }
                if k == GoalKind::Draw || *who == subject {
                    k
                } else if k == GoalKind::Win {
                    GoalKind::Loss
                } else {
                    GoalKind::Win
                }
            }
            ("byScore", []) if !is_player_name(&subject) => GoalKind::Count,
            _ => return None,
        };
        let players = if is_player_name(&subject) {
            vec![subject]
        } else {
            self.players.clone()
        };
        Some(Goal {
            kind,
            players,
            condition: cond,
        })
    }
}

/// `(forEach Player if:c r)`: `(if c r)` about the player iterated, its `Player` read as
/// `Mover` (the player a goal is tested for).
fn every_player_goal(n: &Node) -> Option<Node> {
    if n.args().len() != 3 {
        return None;
    }
    for_each_as_if(n, "Player", "Mover")
}

/// `(forEach Who if:c r)` as `(if c r)` with the atom `Player` (the player iterated) read as
/// `role`.
fn for_each_as_if(n: &Node, who: &str, role: &str) -> Option<Node> {
    let args: Vec<&Node> = n.positional().collect();
    let (Some("forEach"), [Node::Atom(w, _), r]) = (n.head(), args.as_slice()) else {
        return None;
    };
    if w != who {
        return None;
    }
    let c = n.named("if")?;
    let head = Node::Atom("if".into(), n.span());
    let parts = vec![head, renamed(c, "Player", role), renamed(r, "Player", role)];
    Some(Node::List(parts, n.span()))
}

/// Whether a goal about piece counts holds for `player` in the start position `setup` (pieces
/// in hand count); `None` for any other condition.
fn holds_at_start(c: &GoalCond, player: &str, setup: &[Placement]) -> Option<bool> {
    match c {
        GoalCond::PiecesRemaining { count, piece } => {
            let n: usize = setup
                .iter()
                .filter(|p| p.player == player && piece.as_ref().is_none_or(|k| *k == p.piece))
                .map(|p| p.positions.len() + p.off.unwrap_or(0) as usize)
                .sum();
            Some(count.parse::<usize>().ok()? == n)
        }
        GoalCond::Or(v) => {
            let all: Vec<bool> = v
                .iter()
                .map(|c| holds_at_start(c, player, setup))
                .collect::<Option<_>>()?;
            Some(all.into_iter().any(|b| b))
        }
        GoalCond::And(v) => {
            let all: Vec<bool> = v
                .iter()
                .map(|c| holds_at_start(c, player, setup))
                .collect::<Option<_>>()?;
            Some(all.into_iter().all(|b| b))
        }
        GoalCond::Not(c) => holds_at_start(c, player, setup).map(|b| !b),
        _ => None,
    }
}

/// Whether a goal condition is decided by the position alone (not by the moves a player has).
fn is_static(c: &GoalCond) -> bool {
    match c {
        GoalCond::Stalemated | GoalCond::Checkmated { .. } | GoalCond::Repetition => false,
        GoalCond::And(v) | GoalCond::Or(v) => v.iter().all(is_static),
        GoalCond::Not(c) => is_static(c),
        _ => true,
    }
}

/// A number, or `(+ a b)`, `(- a b)`, `(* a b)`, `(/ a b)`, `(^ a b)` of numbers (bounded nesting).
fn float(n: &Node) -> Option<f64> {
    fn eval(n: &Node, depth: usize) -> Option<f64> {
        if let Some(a) = n.atom() {
            return a.parse::<f64>().ok();
        }
        let args: Vec<&Node> = n.positional().collect();
        let (a, b) = match args.as_slice() {
            [a, b] if depth < 16 => (eval(a, depth + 1)?, eval(b, depth + 1)?),
            _ => return None,
        };
        match n.head()? {
            "+" => Some(a + b),
            "-" => Some(a - b),
            "*" => Some(a * b),
            "/" if b != 0.0 => Some(a / b),
            "^" if b.abs() <= 16.0 => Some(a.powf(b)),
            _ => None,
        }
    }
    eval(n, 0).filter(|x| x.is_finite() && x.abs() < 1e4)
}

/// The sites of `(board … [use:Cell|Vertex|Edge])`; `None` for another `use:`.
fn site_kind(board: &Node) -> Option<SiteKind> {
    match board.named("use").and_then(|u| u.atom()) {
        None | Some("Cell") => Some(SiteKind::Cell),
        Some("Vertex") => Some(SiteKind::Vertex),
        Some("Edge") => Some(SiteKind::Edge),
        Some(_) => None,
    }
}

/// The construction of a board ludeme's text (`(board (square 3) use:Vertex)`,
/// `(mancalaBoard 2 6)`, `(boardless Square)`), when it builds a board.
pub fn construction_of_text(text: &str) -> Option<Construction> {
    let (nodes, diags) = super::syntax::parse(text, crate::diag::FileId(u32::MAX));
    let [n] = nodes.as_slice() else { return None };
    if !diags.is_empty() {
        return None;
    }
    let (graph, sites) = match n.head()? {
        "board" => (n.positional().next()?, site_kind(n)?),
        "mancalaBoard" => (n, SiteKind::Vertex),
        "boardless" => (n, SiteKind::Cell),
        _ => return None,
    };
    let c = Construction {
        sites,
        graph: board_fn(graph, 0)?,
    };
    tiling_build(&c).is_ok().then_some(c)
}

/// The board function tree of a graph expression, its arithmetic evaluated; `None` when an
/// argument is none of a number, a word, a `{…}` list or a function. `(track …)` items (the
/// board's tracks, read apart) are left out.
fn board_fn(n: &Node, depth: usize) -> Option<BoardFn> {
    if depth > 64 {
        return None;
    }
    let mut f = BoardFn::new(n.head()?, Vec::new());
    for a in n.args() {
        if is_track(a) {
            continue;
        }
        match a {
            Node::Named(k, v, _) => {
                f.named.insert(k.clone(), board_arg(v, depth + 1)?);
            }
            _ => f.args.push(board_arg(a, depth + 1)?),
        }
    }
    Some(f)
}

/// A `(track …)` or a `{…}` of them.
fn is_track(n: &Node) -> bool {
    match n {
        Node::Array(items, _) => !items.is_empty() && items.iter().all(is_track),
        _ => n.head() == Some("track"),
    }
}

/// One argument of a board function (see [`board_fn`]).
fn board_arg(n: &Node, depth: usize) -> Option<BoardArg> {
    if let Some(k) = int(n) {
        return Some(BoardArg::Int(k));
    }
    if let Some(x) = float(n).or_else(|| n.atom()?.parse::<f64>().ok().filter(|x| x.is_finite())) {
        return Some(if x.fract() == 0.0 && x.abs() < 1e15 {
            BoardArg::Int(x as i64)
        } else {
            BoardArg::Real(x)
        });
    }
    match n {
        Node::Atom(w, _) => Some(BoardArg::Word(w.clone())),
        Node::Array(items, _) if depth < 64 => items
            .iter()
            .map(|i| board_arg(i, depth + 1))
            .collect::<Option<_>>()
            .map(BoardArg::List),
        Node::List(..) => board_fn(n, depth).map(|f| BoardArg::Fn(Box::new(f))),
        _ => None,
    }
}

/// The condition of an end rule and the player it is about (`Mover` or `Next`).
/// `P1`, `P2`, …: a player's name in Ludii.
fn is_player_name(w: &str) -> bool {
    w.strip_prefix('P')
        .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
}

fn goal_cond(c: &Node, pieces: &[Piece]) -> Option<(String, GoalCond)> {
    let args: Vec<&Node> = c.positional().collect();
    let who = |n: Option<&&Node>| -> Option<String> {
        match n {
            None => Some("Mover".to_string()),
            Some(Node::Atom(w, _)) if w == "Mover" || w == "Next" || is_player_name(w) => {
                Some(w.clone())
            }
            _ => None,
        }
    };
    match (c.head()?, args.as_slice()) {
        ("no", [Node::Atom(k, _), rest @ ..]) if rest.len() <= 1 => {
            let w = who(rest.first())?;
            match k.as_str() {
                "Moves" => Some((w, GoalCond::Stalemated)),
                "Pieces" => Some((
                    w,
                    GoalCond::PiecesRemaining {
                        count: "0".into(),
                        piece: None,
                    },
                )),
                _ => None,
            }
        }
        ("is", [Node::Atom(k, _), rest @ ..]) => match (k.as_str(), rest) {
            // `(is Line n [dir] [Pk])`: a line of the mover's pieces, or of player k's.
            ("Line", [len, more @ ..]) if more.len() <= 2 => {
                let length = int(len)?.clamp(1, 1000) as u32;
                let (dirs, whose) = match more {
                    [Node::Atom(p, _)] | [_, Node::Atom(p, _)] if is_player_name(p) => {
                        (&more[..more.len() - 1], p.clone())
                    }
                    _ => (more, "Mover".to_string()),
                };
                let directions = match dirs {
                    [] => Vec::new(),
                    [Node::Atom(d, _)] if !is_player_name(d) => vec![d.clone()],
                    _ => return None,
                };
                if c.args().iter().any(|a| matches!(a, Node::Named(..))) {
                    return None;
                }
                Some((whose, GoalCond::Line { length, directions }))
            }
            // A piece of the mover's arrives in a region: one of its pieces stands there (the
            // same while no piece stands in its goal region without having won).
            ("In", [last, region]) if print(last) == "(last To)" => {
                let zone = region_name(region)?;
                Some((
                    "Mover".into(),
                    GoalCond::AbsoluteConfig {
                        pieces: pieces.iter().map(|p| p.name.clone()).collect(),
                        grouped: true,
                        positions: vec![zone],
                        opponent: false,
                        negated: false,
                    },
                ))
            }
            _ => None,
        },
        (op @ ("=" | "<=" | "<" | ">=" | ">"), [a, b])
            if !c.args().iter().any(|a| matches!(a, Node::Named(..))) =>
        {
            pieces_compared(op, a, b, pieces)
        }
        ("or", [Node::Array(items, _)]) if !items.is_empty() => {
            // Any of these, all about the same player (the writer's several captured pieces).
            let conds: Vec<(String, GoalCond)> = items
                .iter()
                .map(|i| goal_cond(i, pieces))
                .collect::<Option<_>>()?;
            let w = conds[0].0.clone();
            if conds.iter().any(|(x, _)| *x != w) {
                return None;
            }
            Some((w, GoalCond::Or(conds.into_iter().map(|(_, c)| c).collect())))
        }
        ("and", [a, b]) => {
            // (and (is Threatened (id "K" Next)) (no Moves Next)) = checkmate of Next's K.
            let targs: Vec<&Node> = a.positional().collect();
            let (k, w) = match (a.head()?, targs.as_slice()) {
                ("is", [Node::Atom(t, _), id]) if t == "Threatened" && id.head() == Some("id") => {
                    let ia: Vec<&Node> = id.positional().collect();
                    match ia.as_slice() {
                        [Node::Str(k, _), Node::Atom(w, _)] => (k.clone(), w.clone()),
                        _ => return None,
                    }
                }
                _ => return None,
            };
            let (w2, c2) = goal_cond(b, pieces)?;
            if c2 != GoalCond::Stalemated || w2 != w || !pieces.iter().any(|p| p.name == k) {
                return None;
            }
            Some((w, GoalCond::Checkmated { pieces: vec![k] }))
        }
        _ => None,
    }
}

/// The most pieces a bounded count compares with (`(<= (count Pieces P2) 6)` is the goal "0,
/// 1, … or 6 pieces remain"): more is not read.
const MAX_COUNT_BOUND: i64 = 64;

/// `(op (count Pieces Who ["P"]) k)` or `(op k (count Pieces Who ["P"]))` with `op` one of `=`,
/// `<=`, `<`, `>=`, `>`: the count equal to `k`, or at most a bound, as "exactly n remain" for
/// each n the comparison allows (a count is never negative). A count bounded only from below
/// is not read.
fn pieces_compared(op: &str, a: &Node, b: &Node, pieces: &[Piece]) -> Option<(String, GoalCond)> {
    // Written with the count first: `count op k`.
    let (count, k, op) = match (count_pieces(a, pieces), count_pieces(b, pieces)) {
        (Some(c), None) => (c, int(b)?, op),
        (None, Some(c)) => {
            let flipped = match op {
                "<=" => ">=",
                "<" => ">",
                ">=" => "<=",
                ">" => "<",
                o => o,
            };
            (c, int(a)?, flipped)
        }
        _ => return None,
    };
    let (lo, hi) = match op {
        "=" => (k, k),
        "<=" => (0, k),
        "<" => (0, k - 1),
        _ => return None,
    };
    if lo < 0 || hi < lo || hi > MAX_COUNT_BOUND {
        return None;
    }
    let (w, piece) = count;
    let exactly = |n: i64| GoalCond::PiecesRemaining {
        count: n.to_string(),
        piece: piece.clone(),
    };
    let cond = if lo == hi {
        exactly(lo)
    } else {
        GoalCond::Or((lo..=hi).map(exactly).collect())
    };
    Some((w, cond))
}

/// `(count Pieces Who ["P"])` → the player (`Mover`, `Next` or a named player) and the piece
/// type, if named (and defined).
fn count_pieces(n: &Node, pieces: &[Piece]) -> Option<(String, Option<String>)> {
    let args: Vec<&Node> = n.positional().collect();
    if n.head()? != "count" || n.args().iter().any(|a| matches!(a, Node::Named(..))) {
        return None;
    }
    match args.as_slice() {
        [Node::Atom(k, _), Node::Atom(w, _), rest @ ..]
            if k == "Pieces"
                && (w == "Mover" || w == "Next" || is_player_name(w))
                && rest.len() <= 1 =>
        {
            let piece = match rest.first() {
                None => None,
                Some(Node::Str(p, _)) if pieces.iter().any(|q| q.name == *p) => Some(p.clone()),
                Some(_) => return None,
            };
            Some((w.clone(), piece))
        }
        _ => None,
    }
}

/// Splits an item name such as `Jiang1` into the piece and its owner (`Disc0`: `Neutral`).
pub fn split_item(item: &str, pieces: &[Piece], players: &[String]) -> Option<(String, String)> {
    let digits = item.len() - item.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (name, num) = item.split_at(item.len() - digits);
    if !pieces.iter().any(|p| p.name == name) {
        return None;
    }
    let num: usize = num.parse().ok()?;
    // `Disc0`: a piece of nobody's.
    let player = match num {
        0 => super::board::NEUTRAL.to_string(),
        k => players.get(k - 1)?.clone(),
    };
    Some((name.to_string(), player))
}

/// The zone that players' unnamed regions (`(regions P1 (sites Bottom))`) make: `(sites Mover)`.
pub const OWN_ZONE: &str = "Own";
/// The zone of each player that is the next player's `Own` zone: `(sites Next)`.
pub const NEXT_OWN_ZONE: &str = "NextOwn";

fn region_name(n: &Node) -> Option<String> {
    if n.head() != Some("sites") {
        return None;
    }
    let args: Vec<&Node> = n.positional().collect();
    match args.as_slice() {
        [Node::Str(s, _)] => Some(s.clone()),
        [Node::Atom(w, _), Node::Str(s, _)] if w == "Mover" => Some(s.clone()),
        [Node::Atom(w, _)] if w == "Mover" => Some(OWN_ZONE.into()),
        [Node::Atom(w, _)] if w == "Next" => Some(NEXT_OWN_ZONE.into()),
        _ => None,
    }
}

/// The move type of captures that a piece goes on making in the same turn (ZRF's partial
/// moves).
pub const CAPTURE: &str = "capture";

/// A ludeme's positional arguments, or the items of its one array argument (`(or {a b})` and
/// `(or a b)` alike).
fn items_or_args<'a>(parts: &[&'a Node]) -> Vec<&'a Node> {
    match parts {
        [Node::Array(items, _)] => items.iter().collect(),
        _ => parts.to_vec(),
    }
}

fn is_loc(n: &Node) -> bool {
    matches!(n.head(), Some("to" | "from" | "between")) && n.args().is_empty()
}

fn who_at(n: &Node) -> bool {
    n.head() == Some("who") && n.named("at").is_some_and(is_loc) && n.args().len() == 1
}

fn contains_absolute(n: &Node) -> bool {
    match n {
        Node::Atom(a, _) => COMPASS.contains(&a.as_str()),
        Node::Array(items, _) => items.iter().any(contains_absolute),
        Node::List(..) => n.positional().next().is_some_and(contains_absolute),
        _ => false,
    }
}

/// When every player has an `Own` zone, each player's `NextOwn` zone: the next player's
/// `Own` positions, in turn order; whether it made them.
fn next_own_zones(zones: &mut Vec<Zone>, players: &[String]) -> bool {
    let own = |p: &String| {
        zones
            .iter()
            .find(|z| z.name == OWN_ZONE && z.players == [p.clone()])
    };
    let Some(owns) = players.iter().map(own).collect::<Option<Vec<&Zone>>>() else {
        return false;
    };
    if zones.iter().any(|z| z.name == NEXT_OWN_ZONE) {
        return false;
    }
    let next: Vec<Zone> = (0..players.len())
        .map(|i| Zone {
            name: NEXT_OWN_ZONE.into(),
            players: vec![players[i].clone()],
            positions: owns[(i + 1) % players.len()].positions.clone(),
            glyph: None,
            help: None,
        })
        .collect();
    zones.extend(next);
    true
}

/// A `(match …)` kept whole, with a warning.
fn whole_match(g: &Node, diags: &mut Vec<Diagnostic>) -> Game {
    diags.push(Diagnostic::warning(
        CODE_UNMAPPED,
        "`(match …)` is not supported; the whole match is kept verbatim in `extensions` (a `ludii` item)",
        g.span(),
    ));
    Game {
        kind: EntryKind::Game,
        engine: None,
        title: g.args().first().and_then(|s| s.str()).unwrap_or("").into(),
        variant_of: None,
        default: false,
        texts: Texts::default(),
        players: vec![],
        turn_order: Default::default(),
        options: vec![],
        sounds: vec![],
        boards: vec![],
        pieces: vec![],
        setup: vec![],
        goals: vec![],
        move_priorities: vec![],
        extensions: Extensions::of(RawFormat::Ludii, [print(g)]),
    }
}

/// The game's board: the first `(board …)`, `(mancalaBoard …)`, `(surakartaBoard …)` or
/// `(boardless …)` of the equipment (a warning when there is none).
fn equipment_board(l: &mut Lower, equipment: &[&Node], g: &Node) -> Option<Board> {
    if let Some(b) = equipment.iter().find(|e| e.head() == Some("board")) {
        if let Some(b) = l.board(b) {
            return Some(b);
        }
    } else if let Some(b) = equipment.iter().find(|e| e.head() == Some("mancalaBoard")) {
        if let Some(b) = l.mancala_board(b) {
            return Some(b);
        }
    } else if let Some(b) = equipment
        .iter()
        .find(|e| e.head() == Some("surakartaBoard"))
    {
        if let Some(b) = l.surakarta_board(b) {
            return Some(b);
        }
    } else if let Some(b) = equipment.iter().find(|e| e.head() == Some("boardless")) {
        if let Some(b) = l.boardless(b) {
            return Some(b);
        }
    } else {
        l.diags.push(Diagnostic::warning(
            CODE_BAD_BOARD,
            "the game has no `(board …)` in its equipment",
            g.span(),
        ));
    }
    None
}

/// The pieces an equipment declares, one per name, with their owners and their moves' ludemes
/// (lowered once every region is known); lookups by name, so many pieces read in linear time.
#[derive(Default)]
struct Declared<'n> {
    pieces: Vec<Piece>,
    by_name: std::collections::BTreeMap<String, usize>,
    /// Pieces whose moves were declared (a second declaration's are kept verbatim).
    with_moves: std::collections::BTreeSet<usize>,
    /// Pieces some declaration gives every player (`Each`, no owner, `Shared`, `Neutral`).
    for_everyone: std::collections::BTreeSet<usize>,
    /// (piece, moves, facing).
    piece_moves: Vec<(usize, &'n Node, Option<i32>)>,
}

impl<'n> Declared<'n> {
    /// `(piece "Name" [owner] [facing] [moves])`.
    fn piece(&mut self, l: &mut Lower, e: &'n Node) {
        let args: Vec<&Node> = e.positional().collect();
        let Some(Node::Str(name, _)) = args.first() else {
            l.keep("equipment", e, true);
            return;
        };
        // The owner: every player (also when left out: `(piece "Pawn" moves)`), one
        // (`P2`), nobody or all (`Neutral`, `Shared`).
        let owner = args.get(1).copied().filter(|o| o.atom().is_some());
        let owner_ok = owner.and_then(|o| o.atom()).is_none_or(|o| {
            matches!(o, "Each" | "Neutral" | "Shared" | "All")
                || o.strip_prefix('P').is_some_and(|k| k.parse::<u8>().is_ok())
        });
        // The rest: `[N] [moves]` (`(piece "Hen" P2 N moves)`: the direction the
        // piece faces).
        let mut rest: Vec<&Node> = args[1 + owner.is_some() as usize..].to_vec();
        // The direction the piece faces: its moves' relative directions turn with it.
        let mut facing = None;
        if let Some(d) = rest.first().and_then(|d| d.atom())
            && let Some(i) = board::compass_index(d).filter(|_| COMPASS.contains(&d))
        {
            facing = Some(i as i32);
            // The way its owner faces (`(piece "Counter" P2 S)` in a game whose second player
            // faces south) turns nothing more.
            let owners = owner
                .and_then(|o| o.atom())
                .and_then(|o| l.players.iter().position(|p| p == o));
            let as_owner =
                owners.is_some_and(|k| l.facings.get(k).and_then(|f| f.as_deref()) == Some(d));
            if rest.len() == 1 && i != 0 && !as_owner {
                // No moves to turn: what faces that way is not typed.
                l.keep("equipment", e, true);
                return;
            }
            rest.remove(0);
        }
        if !owner_ok || rest.len() > 1 {
            l.keep("equipment", e, true);
            return;
        }
        if e.args().iter().any(|a| matches!(a, Node::Named(..))) {
            l.unmapped("`(piece …)` with attributes (`maxState:`, …)", e);
            l.ext.push(format!("(equipment {{{}}})", print(e)));
        }
        if let Some(o @ ("Shared" | "Neutral")) = owner.and_then(|o| o.atom()) {
            l.piece_owners.push((name.clone(), o.to_string()));
        }
        // One kind per name: `(piece "Disc" P1) (piece "Disc" P2)` is one piece.
        let at = *self.by_name.entry(name.clone()).or_insert_with(|| {
            self.pieces.push(Piece {
                name: name.clone(),
                ..Piece::default()
            });
            self.pieces.len() - 1
        });
        match owner.and_then(|o| o.atom()) {
            Some(o) if l.players.iter().any(|p| p == o) => {
                if !self.pieces[at].owners.iter().any(|x| x == o) {
                    self.pieces[at].owners.push(o.to_string());
                }
            }
            _ => {
                self.for_everyone.insert(at);
            }
        }
        if let Some(m) = rest.first().copied() {
            if !self.with_moves.insert(at) {
                l.unmapped("moves of a piece declared again for another owner", m);
                l.ext.push(format!("(equipment {{{}}})", print(e)));
            } else {
                self.piece_moves.push((at, m, facing));
            }
        }
    }
}

/// `n` with every atom `from` made `to` (spans kept).
fn renamed(n: &Node, from: &str, to: &str) -> Node {
    let all = |v: &[Node]| v.iter().map(|x| renamed(x, from, to)).collect();
    match n {
        Node::Atom(a, sp) if a == from => Node::Atom(to.into(), *sp),
        Node::List(v, sp) => Node::List(all(v), *sp),
        Node::Array(v, sp) => Node::Array(all(v), *sp),
        Node::Angle(v, sp) => Node::Angle(all(v), *sp),
        Node::Named(k, v, sp) => Node::Named(k.clone(), Box::new(renamed(v, from, to)), *sp),
        other => other.clone(),
    }
}

/// Lowers an expanded `(game …)`.
pub(crate) fn lower_game(
    g: &Node,
    metadata: Option<&Node>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Game> {
    if g.head() == Some("match") {
        return Some(whole_match(g, diags));
    }
    let mut l = Lower::new(diags);
    let title = g
        .args()
        .first()
        .and_then(|s| s.str())
        .unwrap_or("")
        .to_string();
    let parts: Vec<&Node> = g.positional().skip(1).collect();
    let find = |h: &str| parts.iter().copied().find(|p| p.head() == Some(h));
    match find("players") {
        Some(p) => l.players(p),
        None => {
            l.players = vec!["P1".into(), "P2".into()];
            l.facings = vec![None, None];
        }
    }
    let equipment = equipment_items(find("equipment"));
    let mut boards: Vec<Board> = equipment_board(&mut l, &equipment, g).into_iter().collect();
    for e in equipment.iter().filter(|e| e.head() == Some("track")) {
        l.collect_tracks(e);
    }
    let (zones, mut pieces) = l.equipment(&equipment);
    if let Some(b) = boards.first_mut() {
        b.zones = zones;
    }
    let rules = match find("rules") {
        Some(rules) => l.rules(rules, &equipment, &mut pieces),
        None => Rules::default(),
    };
    for p in &parts {
        if !matches!(p.head(), Some("players" | "equipment" | "rules")) {
            l.keep("", p, false);
        }
    }
    let mut texts = Texts::default();
    if let Some(m) = metadata {
        texts.description = find_description(m);
        l.ext.push(print(m));
    }
    let players = l.players.clone();
    let ext = std::mem::take(&mut l.ext);
    let options = l.options(&rules.setup);
    Some(Game {
        kind: EntryKind::Game,
        engine: None,
        title,
        variant_of: None,
        default: false,
        texts,
        players,
        turn_order: Default::default(),
        options,
        sounds: vec![],
        boards,
        pieces,
        setup: rules.setup,
        goals: rules.goals,
        move_priorities: rules.move_priorities,
        extensions: Extensions::of(RawFormat::Ludii, ext),
    })
}

/// The items of `(equipment {…})`, arrays flattened (none without an equipment).
fn equipment_items(equipment: Option<&Node>) -> Vec<&Node> {
    equipment
        .map(|e| {
            e.args()
                .iter()
                .flat_map(|a| match a {
                    Node::Array(items, _) => items.iter().collect::<Vec<_>>(),
                    other => vec![other],
                })
                .collect()
        })
        .unwrap_or_default()
}

/// What a game's `(rules …)` lower to.
#[derive(Default)]
struct Rules {
    setup: Vec<Placement>,
    goals: Vec<Goal>,
    move_priorities: Vec<String>,
}

impl Lower<'_> {
    /// The equipment's zones and pieces, the pieces' moves lowered once every region is known;
    /// items not mapped are kept.
    fn equipment(&mut self, equipment: &[&Node]) -> (Vec<Zone>, Vec<Piece>) {
        let mut zones = Vec::new();
        let mut declared = Declared::default();
        for e in equipment {
            match e.head() {
                Some("board" | "mancalaBoard" | "surakartaBoard" | "boardless") => {}
                Some("piece" | "tile") => declared.piece(self, e),
                Some("regions") if self.geo.is_some() => match self.regions(e) {
                    Some(z) => zones.extend(z),
                    None => self.keep("equipment", e, true),
                },
                // Hands are kept only when the play rule does not drop from them (below).
                Some("hand") => {}
                _ => self.keep("equipment", e, true),
            }
        }
        if next_own_zones(&mut zones, &self.players) {
            self.zone_names.push(NEXT_OWN_ZONE.into());
        }
        let Declared {
            mut pieces,
            for_everyone,
            piece_moves,
            ..
        } = declared;
        for (i, p) in pieces.iter_mut().enumerate() {
            if for_everyone.contains(&i) || p.owners.len() == self.players.len() {
                p.owners.clear();
            }
        }
        for (i, m, facing) in piece_moves {
            let mut p = std::mem::take(&mut pieces[i]);
            self.facing = facing.unwrap_or(0);
            self.piece_moves(m, &mut p);
            self.facing = 0;
            pieces[i] = p;
        }
        (zones, pieces)
    }

    /// Lowers `(rules (start …) (play …) (end …) [(meta …)] [phases:…])`; what is not mapped
    /// is kept.
    fn rules(&mut self, rules: &Node, equipment: &[&Node], pieces: &mut [Piece]) -> Rules {
        let mut out = Rules::default();
        let mut play = None;
        let mut full: Vec<&Node> = Vec::new();
        let mut ends: Vec<(Goal, &Node)> = Vec::new();
        for r in rules.positional() {
            match r.head() {
                Some("start") => self.start(r, pieces, &mut out.setup),
                Some("play") => play = Some(r),
                Some("end") => {
                    for item in flatten(r) {
                        match self.goal(item, pieces) {
                            Some(goal) => ends.push((goal, item)),
                            None if is_full_draw(item) => full.push(item),
                            None => self.keep("end", item, true),
                        }
                    }
                }
                Some("meta") if print(r) == "(meta (swap))" && self.players.len() == 2 => {
                    self.swap = true;
                }
                _ => self.keep("rules", r, false),
            }
        }
        // Ludii tests the end only after a move; the engine tests goals in the start position
        // too. A count goal that already holds there would end the game at once: not read.
        for (goal, item) in ends {
            if goal
                .players
                .iter()
                .any(|p| holds_at_start(&goal.condition, p, &out.setup) == Some(true))
            {
                self.keep("end", item, true);
            } else {
                out.goals.push(goal);
            }
        }
        let drops_only = match play {
            Some(r) => self.play(r, equipment, pieces, &mut out),
            None => false,
        };
        // `(is Full)` ends the game exactly when the next player has no move if every move
        // fills an empty site: ZoG's stalemate.
        for item in full {
            if drops_only {
                out.goals.push(Goal {
                    kind: GoalKind::Draw,
                    players: self.players.clone(),
                    condition: GoalCond::Stalemated,
                });
            } else {
                self.keep("end", item, true);
            }
        }
        for a in rules.args() {
            if let Node::Named(name, v, _) = a {
                let hand = equipment.iter().any(|e| e.head() == Some("hand"));
                match placement_phases(v, &out.setup, &self.players) {
                    Some(p)
                        if name == "phases"
                            && play.is_none()
                            && hand
                            && apply_play(&p, pieces, &mut out.setup, &self.players) =>
                    {
                        out.move_priorities.push(PLACEMENT.to_string());
                    }
                    _ => self.keep("rules", a, false),
                }
            }
        }
        out
    }

    /// `(start …)`: its placements added to `setup`, the items not understood kept.
    fn start(&mut self, r: &Node, pieces: &[Piece], setup: &mut Vec<Placement>) {
        for item in flatten(r) {
            let placed = match item.head() {
                Some("set") => self.set_count(item, pieces),
                _ => self.place(item, pieces),
            };
            match placed {
                Some(mut p) => {
                    super::sites::skip_filled(item, &mut p, setup);
                    setup.extend(p)
                }
                None => self.keep("start", item, true),
            }
        }
    }

    /// `(play …)` applied to the pieces and setup when it is a common shape whose promotion,
    /// if any, has a typed form (kept otherwise, as is a hand it does not drop from); whether
    /// every move is a drop on an empty site.
    fn play(
        &mut self,
        r: &Node,
        equipment: &[&Node],
        pieces: &mut [Piece],
        out: &mut Rules,
    ) -> bool {
        let hand = equipment.iter().find(|e| e.head() == Some("hand"));
        let read = play_rule(r, &out.goals).or_else(|| self.capture_sequence_play(r, pieces));
        match read {
            Some(p)
                if (!p.hand_drops || hand.is_some())
                    && apply_play(&p, pieces, &mut out.setup, &self.players) =>
            {
                if let Some(h) = hand.filter(|_| !p.hand_drops) {
                    self.keep("equipment", h, true);
                }
                p.drops && !p.hand_drops && !p.pieces
            }
            _ => {
                self.keep("rules", r, false);
                if let Some(h) = hand {
                    self.keep("equipment", h, true);
                }
                false
            }
        }
    }

    /// The game's options: ZRF's `pass-partial`, the pie rule, and pieces in hand counted as
    /// the player's pieces.
    fn options(&self, setup: &[Placement]) -> Vec<GameOption> {
        // Ludii counts the pieces in hand as the player's pieces (`(no Pieces P2)` is false while
        // P2 still has pieces to place).
        let mut options = vec![];
        if self.pass_partial {
            options.push(GameOption {
                name: "pass-partial".into(),
                value: "true".into(),
                legacy: false,
            });
        }
        if self.swap {
            options.push(GameOption {
                name: crate::spec::SWAP_OPTION.into(),
                value: "true".into(),
                legacy: false,
            });
        }
        if setup.iter().any(|p| p.off.is_some_and(|n| n > 0)) {
            options.push(GameOption {
                name: "include off-pieces".into(),
                value: "true".into(),
                legacy: false,
            });
        }
        options
    }
}

/// What a `(play …)` rule asks for, when it is one of the common shapes.
#[derive(Debug, Default)]
struct Play {
    /// `(forEach Piece)`: every piece moves by its own moves.
    pieces: bool,
    /// `(move Add (to (sites Empty)))` or a move from the hand: pieces are dropped on empty sites.
    drops: bool,
    /// The drops come from the players' hands (`container:"Hand"`).
    hand_drops: bool,
    /// `(then (if (is In (last To) (sites Mover "R")) (promote (last To) (piece "Q") Mover)))`:
    /// a piece whose move ends in region R becomes a Q.
    promote: Option<(String, String)>,
    /// A placement phase first: the drops are of the move type [`PLACEMENT`], which the game's
    /// priorities put first, so a player places while its hand holds pieces.
    placement: bool,
}

/// The move type of the drops of a placement phase.
pub const PLACEMENT: &str = "placement";

/// `phases:{(phase "A" [P] (play (move (from (handSite Mover)) (to (sites Empty))))
/// (nextPhase … "B")) (phase "B" (play (forEach Piece)))}`: pieces are placed from the hand
/// until it is empty, then move. The phase must end exactly when the placing player's hand is
/// empty: `(nextPhase Mover <Mover's hand is empty> "B")`, or for a phase of one player P,
/// `(nextPhase [P] <P's hand is empty> "B")` or, when P holds one piece, `(nextPhase "B")`;
/// players the phase leaves out hold nothing in hand.
fn placement_phases(v: &Node, setup: &[Placement], players: &[String]) -> Option<Play> {
    let Node::Array(items, _) = v else {
        return None;
    };
    let [first, second] = items.as_slice() else {
        return None;
    };
    let hand = |p: &str| -> u32 {
        setup
            .iter()
            .filter(|x| x.player == p)
            .filter_map(|x| x.off)
            .sum()
    };
    let a: Vec<&Node> = first.positional().collect();
    if first.head() != Some("phase") || first.args().len() != a.len() {
        return None;
    }
    let (owner, rest) = match a.as_slice() {
        [Node::Str(..), Node::Atom(p, _), rest @ ..] if players.contains(p) => {
            (Some(p.as_str()), rest)
        }
        [Node::Str(..), rest @ ..] => (None, rest),
        _ => return None,
    };
    let [play, next] = rest else {
        return None;
    };
    if players
        .iter()
        .any(|p| owner.is_some_and(|o| o != p) && hand(p) > 0)
    {
        return None;
    }
    let who_ok = |w: &str| w == "Mover" || owner == Some(w);
    let drop = print(play);
    let placed = drop
        .strip_prefix("(play (move (from (handSite ")
        .and_then(|r| r.strip_suffix(")) (to (sites Empty))))"));
    if !placed.is_some_and(who_ok) {
        return None;
    }
    let target = next_phase(next, owner, players, &hand)?;
    let b: Vec<&Node> = second.positional().collect();
    match b.as_slice() {
        [Node::Str(name, _), p] if *name == target && print(p) == "(play (forEach Piece))" => {}
        _ => return None,
    }
    Some(Play {
        pieces: true,
        drops: true,
        hand_drops: true,
        placement: true,
        ..Play::default()
    })
}

/// The phase a placement phase's `(nextPhase …)` goes to, when it goes there exactly when the
/// placing player's hand is empty (see [`placement_phases`]).
fn next_phase(
    next: &Node,
    owner: Option<&str>,
    players: &[String],
    hand: &dyn Fn(&str) -> u32,
) -> Option<String> {
    let n: Vec<&Node> = next.positional().collect();
    if next.head() != Some("nextPhase") || next.args().len() != n.len() {
        return None;
    }
    let empty = |c: &Node, w: &str| print(c) == hand_empty(w);
    match n.as_slice() {
        [Node::Atom(w, _), c, Node::Str(t, _)] if w == "Mover" && empty(c, "Mover") => {
            Some(t.clone())
        }
        [Node::Atom(w, _), c, Node::Str(t, _)] if owner == Some(w) && empty(c, w) => {
            Some(t.clone())
        }
        [c, Node::Str(t, _)] if owner.is_some_and(|o| empty(c, o)) => Some(t.clone()),
        [Node::Str(t, _)] if owner.is_some_and(|o| hand(o) == 1) => Some(t.clone()),
        // Two players with equal hands, P1 first: the phase ends for both when the last to
        // place, P2, has emptied its hand (or both have).
        [c, Node::Str(t, _)] if owner.is_none() && equal_hands(players, hand) => {
            let both = format!(
                "(and {} {})",
                hand_empty(&players[0]),
                hand_empty(&players[1])
            );
            (print(c) == hand_empty(&players[1]) || print(c) == both).then(|| t.clone())
        }
        _ => None,
    }
}

/// `(all Sites (sites Hand W) if:(= 0 (count Cell at:(site))))`: W's hand is empty.
fn hand_empty(w: &str) -> String {
    format!("(all Sites (sites Hand {w}) if:(= 0 (count Cell at:(site))))")
}

/// Two players whose hands hold as many pieces.
fn equal_hands(players: &[String], hand: &dyn Fn(&str) -> u32) -> bool {
    matches!(players, [a, b] if hand(a) == hand(b))
}

/// Reads `(play …)`: `(forEach Piece)`, drops on empty sites (from the hand or unlimited), an
/// `(or …)` of those, and `(do … ifAfterwards:(not (is Threatened (id "K" Mover))))` when the
/// end rules make K's checkmate a goal (the spec's checkmate goal forbids leaving K attacked).
fn play_rule(r: &Node, goals: &[Goal]) -> Option<Play> {
    let mut out = Play::default();
    let mut stack: Vec<&Node> = r.positional().collect();
    if stack.len() != 1 {
        return None;
    }
    while let Some(n) = stack.pop() {
        match print(n).as_str() {
            "(forEach Piece)" => out.pieces = true,
            "(move Add (to (sites Empty)))" => out.drops = true,
            "(move (from (sites Occupied by:Mover container:\"Hand\")) (to (sites Empty)))"
            | "(move (from (sites Hand Mover)) (to (sites Empty)))" => {
                out.drops = true;
                out.hand_drops = true;
            }
            _ => match n.head() {
                Some("or") => {
                    let args: Vec<&Node> = n.positional().collect();
                    match args.as_slice() {
                        [Node::Array(items, _)] => stack.extend(items.iter()),
                        _ if n.args().iter().all(|a| !matches!(a, Node::Named(..))) => {
                            stack.extend(args)
                        }
                        _ => return None,
                    }
                }
                Some("do") => {
                    let args: Vec<&Node> = n.positional().collect();
                    let (inner, then) = match args.as_slice() {
                        [inner] => (*inner, None),
                        [inner, then] if out.promote.is_none() => (*inner, Some(*then)),
                        _ => return None,
                    };
                    if let Some(t) = then {
                        out.promote = Some(promotion(t)?);
                    }
                    let guard = n.named("ifAfterwards");
                    if let Some(c) = guard {
                        let guarded = threatened_piece(c)?;
                        let covered = goals.iter().any(|g| {
                            matches!(&g.condition, GoalCond::Checkmated { pieces } if pieces.contains(&guarded))
                        });
                        if !covered {
                            return None;
                        }
                    } else if then.is_none() {
                        return None;
                    }
                    if n.args().len() != args.len() + usize::from(guard.is_some()) {
                        return None;
                    }
                    stack.push(inner);
                }
                _ => return None,
            },
        }
    }
    Some(out)
}

/// `(then (if (is In (last To) (sites Mover "R")) (promote (last To) (piece "Q") Mover)))` →
/// `(R, Q)`.
fn promotion(t: &Node) -> Option<(String, String)> {
    let text = print(t);
    let rest = text.strip_prefix("(then (if (is In (last To) (sites Mover \"")?;
    let (region, rest) = rest.split_once('"')?;
    let rest = rest.strip_prefix(")) (promote (last To) (piece \"")?;
    let (piece, rest) = rest.split_once('"')?;
    (rest == ") Mover)))").then(|| (region.to_string(), piece.to_string()))
}

/// The moves of every piece when a move ending in `zone` makes the piece a `piece` (a
/// play-wide `(then (promote …))`): each block's movement gains that promotion, through the
/// movement table. `None` when a block has no typed form, or promotes or continues already.
fn promoted(pieces: &[Piece], zone: &str, piece: &str) -> Option<Vec<Vec<MoveBlock>>> {
    let promote = |b: &MoveBlock| {
        let mut m = movement::recognise(b).ok()?;
        if m.promotion.is_some() || m.continues.is_some() {
            return None;
        }
        m.promotion = Some(Promotion {
            zone: Some(zone.to_string()),
            pieces: vec![piece.to_string()],
            forced: true,
        });
        m.is_normal().then(|| movement::program(&m))
    };
    pieces
        .iter()
        .map(|p| p.moves.iter().map(promote).collect())
        .collect()
}

/// `(not (is Threatened (id "K" Mover)))` → `K`.
fn threatened_piece(n: &Node) -> Option<String> {
    let text = print(n);
    let rest = text.strip_prefix("(not (is Threatened (id \"")?;
    let (name, tail) = rest.split_once('"')?;
    (tail == " Mover)))").then(|| name.to_string())
}

/// Gives every piece its drops, and every player an empty hand of each piece when the drops
/// come from the hand (so the engine counts them).
/// `false` (and nothing changed) when the play's promotion has no typed form in a piece's moves.
fn apply_play(
    p: &Play,
    pieces: &mut [Piece],
    setup: &mut Vec<Placement>,
    players: &[String],
) -> bool {
    if let Some((zone, piece)) = &p.promote {
        let Some(moves) = promoted(pieces, zone, piece) else {
            return false;
        };
        for (piece, moves) in pieces.iter_mut().zip(moves) {
            piece.moves = moves;
        }
    }
    if !p.drops {
        return true;
    }
    for piece in pieces.iter_mut() {
        let mut drop = Movement::new(Travel::Drop, Land::Empty);
        drop.move_type = p.placement.then(|| PLACEMENT.to_string());
        piece.drops.push(movement::program(&drop));
    }
    if p.hand_drops {
        for player in players {
            for piece in pieces.iter() {
                setup.push(Placement {
                    player: player.clone(),
                    piece: piece.name.clone(),
                    positions: Vec::new(),
                    off: Some(0),
                });
            }
        }
    }
    true
}

/// `(if (is Full) (result Mover Draw))` (or `Next`).
fn is_full_draw(n: &Node) -> bool {
    matches!(
        print(n).as_str(),
        "(if (is Full) (result Mover Draw))" | "(if (is Full) (result Next Draw))"
    )
}

fn flatten(n: &Node) -> Vec<&Node> {
    n.positional()
        .flat_map(|a| match a {
            Node::Array(items, _) => items.iter().collect::<Vec<_>>(),
            other => vec![other],
        })
        .collect()
}

fn find_description(m: &Node) -> Option<String> {
    let info = m.positional().find(|a| a.head() == Some("info"))?;
    let items = flatten(info);
    items
        .iter()
        .find(|i| i.head() == Some("description"))
        .and_then(|d| d.positional().next())
        .and_then(|s| s.str())
        .map(str::to_string)
}

/// A note for a file that only has metadata.
pub(crate) fn no_game(span: Option<Span>) -> Diagnostic {
    Diagnostic::new(
        Severity::Error,
        CODE_NO_GAME,
        "no `(game …)` or `(match …)` found",
        span,
    )
}

#[cfg(test)]
mod board_tests {
    //! Vertex boards read from .lud text, against the oracle's order and adjacency.
    use super::*;
    use crate::spec::geometry::tiling::Geo;

    /// The board Ludii's `(board <graph> use:Vertex)` lowers to, for `graph` in .lud text.
    fn vertex_board(graph: &str) -> Geo {
        let c = construction_of_text(&format!("(board {graph} use:Vertex)"))
            .unwrap_or_else(|| panic!("{graph}: no board"));
        tiling_build(&c).expect("a board")
    }

    /// The neighbours of `site`, sorted.
    fn around(g: &Geo, site: usize) -> Vec<usize> {
        let mut n: Vec<usize> = g.links[site].iter().map(|l| l.1).collect();
        n.sort_unstable();
        n
    }

    #[test]
    fn solid_diagonals_number_cell_centres_between_the_rows_like_ludii() {
        // The oracle's `(square 3 diagonals:Solid)`: the centres (0.5, 0.5) and (1.5, 0.5)
        // are sites 3 and 4, between the bottom row and the second.
        let g = vertex_board("(square 3 diagonals:Solid)");
        assert_eq!(g.len(), 13);
        assert_eq!(g.xy[3], (0.5, 0.5));
        assert_eq!(g.xy[5], (0.0, 1.0));
        assert_eq!(around(&g, 0), vec![1, 3, 5]);
        assert_eq!(around(&g, 6), vec![1, 3, 4, 5, 7, 8, 9, 11]);
        assert_eq!(around(&g, 12), vec![7, 9, 11]);
        // `diagonals:Radiating`: rays out of the middle vertex only (the oracle's 5 × 5).
        let g = vertex_board("(rectangle 5 5 diagonals:Radiating)");
        assert_eq!(around(&g, 0), vec![1, 5, 6]);
        assert_eq!(around(&g, 1), vec![0, 2, 6]);
        assert_eq!(around(&g, 8), vec![3, 4, 7, 9, 12, 13]);
        assert_eq!(around(&g, 12), vec![6, 7, 8, 11, 13, 16, 17, 18]);
    }

    #[test]
    fn wedges_number_from_the_apex_like_ludii() {
        // The oracle's `(scale 1 2 (wedge 3))`: the apex is site 0, linked to the whole row
        // below it (1, 2, 3), then the bottom row 4, 5, 6.
        let g = vertex_board("(scale 1 2 (wedge 3))");
        assert_eq!(g.len(), 7);
        assert_eq!(g.xy[0], (2.0, 4.0));
        assert_eq!(g.xy[4], (0.0, 0.0));
        assert_eq!(around(&g, 0), vec![1, 2, 3]);
        assert_eq!(around(&g, 2), vec![0, 1, 3, 5]);
        assert_eq!(around(&g, 4), vec![1, 5]);
        // Merged with a turned copy (the second apex coincides with the first): 19 sites,
        // the second wedge's rows from index 10, as the oracle numbers them.
        let g = vertex_board("(merge (wedge 4) (shift 0 3 (rotate 180 (wedge 4))))");
        assert_eq!(g.len(), 19);
        assert_eq!(around(&g, 0), vec![1, 2, 3, 10, 11, 12]);
        assert_eq!(g.xy[10], (4.0, 4.0));
        assert_eq!(around(&g, 5), vec![2, 4, 6, 8]);
    }

    #[test]
    fn merge_joins_vertices_a_hundredth_apart_like_ludii() {
        // The oracle on this board: the turned square's bottom corner (1, 1.993) is 0.007 from
        // the grid's (1, 2), so they are one site (site 0, at the first one's place): 13 sites.
        let g = vertex_board(
            "(merge (rotate 45 (shift 0.5 2.2 (square 2 diagonals:Solid))) (square 3))",
        );
        assert_eq!(g.len(), 13);
        assert!((g.xy[0].1 - 1.993).abs() < 1e-3, "{:?}", g.xy[0]);
        assert_eq!(around(&g, 0), vec![1, 2, 3, 9, 11, 12]);
        assert_eq!(around(&g, 5), vec![6, 8]);
        // `(rectangle 3)` is a square.
        assert_eq!(vertex_board("(rectangle 3 diagonals:Alternating)").len(), 9);
    }

    #[test]
    fn neighbours_on_one_bearing_are_all_linked_like_ludii() {
        // The oracle's `(scale 1 2 (wedge 5 4))`: the apex (0) over a row of four, two of
        // them within a sixteenth of a turn of south, is linked to all four.
        let g = vertex_board("(scale 1 2 (wedge 5 4))");
        assert_eq!(g.len(), 17);
        assert_eq!(around(&g, 0), vec![1, 2, 3, 4]);
        assert_eq!(around(&g, 2), vec![0, 1, 3, 6]);
        // A long thin rectangle's added diagonal runs almost due east, beside the side.
        let g = vertex_board("(add (scale 15 1 (rectangle 2 2)) edges:{{0 3}})");
        assert_eq!(around(&g, 0), vec![1, 2, 3]);
        assert_eq!(around(&g, 3), vec![0, 1, 2]);
        // An edge passing over a vertex: both ends straight north of site 0 are its neighbours.
        let g =
            vertex_board("(merge (rectangle 3 1) (graph vertices:{{0 0} {0 2}} edges:{{0 1}}))");
        assert_eq!(g.len(), 3);
        assert_eq!(around(&g, 0), vec![1, 2]);
    }

    #[test]
    fn split_crossings_add_a_vertex_at_each_crossing_like_ludii() {
        // The oracle's `(splitCrossings (regular Star 5))`: the five points, then the five
        // crossings in the order the pieces of the split edges meet them.
        let g = vertex_board("(splitCrossings (regular Star 5))");
        assert_eq!(g.len(), 10);
        assert!(g.xy[5].0.abs() < 1e-3 && (g.xy[5].1 + 0.304).abs() < 1e-3);
        assert!((g.xy[6].0 + 0.1787).abs() < 1e-3 && (g.xy[6].1 - 0.2459).abs() < 1e-3);
        assert_eq!(around(&g, 0), vec![5, 8]);
        assert_eq!(around(&g, 5), vec![0, 1, 7, 8]);
        assert_eq!(around(&g, 6), vec![2, 4, 8, 9]);
        assert_eq!(around(&g, 9), vec![3, 4, 6, 7]);
        // Two crossing diagonals of a square: a fifth vertex in the middle.
        let g = vertex_board(
            "(splitCrossings (graph vertices:{{0 0} {2 0} {2 2} {0 2}} edges:{{0 2} {1 3} {0 1}}))",
        );
        assert_eq!(g.len(), 5);
        assert_eq!(g.xy[4], (1.0, 1.0));
        assert_eq!(around(&g, 4), vec![0, 1, 2, 3]);
        assert_eq!(around(&g, 2), vec![4]);
    }

    #[test]
    fn a_surakarta_board_is_its_points_and_its_loops_are_reported() {
        let text = r#"(game "Loops" (players 2)
            (equipment {(surakartaBoard (square 3)) (piece "Marker" Each)})
            (rules (start (place "Marker1" (sites Bottom))) (play (forEach Piece))
                (end (if (no Moves Next) (result Mover Win)))))"#;
        let (doc, diags) = crate::ludii::read_lud("loops.lud", text, crate::diag::FileId(0));
        let g = &doc.expect("a document").games[0];
        assert_eq!(g.boards[0].positions.len(), 9);
        assert_eq!(g.setup[0].positions.len(), 3);
        assert!(
            diags
                .iter()
                .any(|d| d.message.contains("loops of `(surakartaBoard …)`")),
            "{diags:#?}"
        );
    }

    #[test]
    fn keep_tests_corners_against_the_polygon_grown_as_ludii_grows_it() {
        // The oracle: `(keep (square 4) (poly …))` has 16 cells with the square's corners
        // listed clockwise (the polygon grows) and 4 with them anticlockwise (it shrinks, so
        // the border's vertices fall outside).
        let cells = |poly: &str| {
            let c = construction_of_text(&format!("(board (keep (square 4) (poly {poly})))"))
                .expect("a board");
            tiling_build(&c).expect("a board").len()
        };
        assert_eq!(cells("{{0 0} {0 4} {4 4} {4 0}}"), 16);
        assert_eq!(cells("{{0 0} {4 0} {4 4} {0 4}}"), 4);
    }

    #[test]
    fn skew_union_and_removals_build_like_ludii() {
        // The oracle's `(skew .5 (scale 1 .5 (square 2)))` on vertices: x moved by y / 2.
        let g = vertex_board("(skew .5 (scale 1 .5 (square 2)))");
        assert_eq!(g.len(), 4);
        assert_eq!(g.xy[2], (0.25, 0.5));
        assert_eq!(around(&g, 0), vec![1, 2]);
        // `remove cells:` on vertices keeps every vertex, and the removed cells' sides that
        // border no other cell go (the oracle's `(remove (rectangle 4 3) cells:{1 2})`).
        let g = vertex_board("(remove (rectangle 4 3) cells:{1 2})");
        assert_eq!(g.len(), 12);
        assert_eq!(around(&g, 2), Vec::<usize>::new());
        assert_eq!(around(&g, 3), vec![0, 4]);
        assert_eq!(around(&g, 4), vec![1, 3, 5, 7]);
        assert_eq!(around(&g, 6), vec![7, 9]);
        // Edges removed by their ends' positions.
        let g = vertex_board("(remove (square 3) edges:{{{1 1} {0 1}}})");
        assert_eq!(around(&g, 3), vec![0, 6]);
        assert_eq!(around(&g, 4), vec![1, 5, 7]);
        // Vertices removed from a tiling's points, the others in their order.
        let g = vertex_board("(remove (tri Limping 2) vertices:{0 3})");
        assert_eq!(g.len(), 10);
        assert_eq!(around(&g, 3), vec![0, 1, 2, 4, 6, 7]);
        assert_eq!(around(&g, 8), vec![5, 6, 9]);
        // `union` appends without merging: the oracle's `(union (square 2) (shift 0 2 (scale 2
        // (square 1))))` on cells has the big cell last, with no neighbour.
        let c = construction_of_text("(board (union (square 2) (shift 0 2 (scale 2 (square 1)))))")
            .expect("a board");
        let g = tiling_build(&c).expect("a board");
        assert_eq!(g.len(), 5);
        assert_eq!(g.xy[4], (1.0, 3.0));
        assert_eq!(around(&g, 4), Vec::<usize>::new());
        assert_eq!(around(&g, 0), vec![1, 2, 3]);
    }
}
