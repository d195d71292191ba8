//! The parts of Ludii's English that locate things: the board sentence, site sets (`the union of the bottom sites of the board and …`), piece lists and `Setup:` lines.
//!
//! Boards are built by `spec::geometry::build` (Ludii's site indexing, the one the `.lud` reader uses);
//! site sets are evaluated on that board with the same `Geo` queries as `(sites …)` forms.

use super::super::board::{self, Geo};
use super::super::lower::split_item;
use crate::spec::geometry::build::build;
use crate::spec::{BoardArg, BoardFn, Construction, Piece, Placement, SiteKind};

/// What a board sentence describes.
pub(super) enum BoardPhrase {
    /// A board zogkit builds: its geometry and its construction.
    Built(Box<Geo>, Construction),
    /// The sentence gives no dimensions (`noshape board with nobasis tiling`, `hexagonal
    /// hexagon board`): the text does not say which sites there are.
    Unstated,
    /// The sentence gives dimensions of a board zogkit does not build.
    Unsupported(&'static str),
}

/// `10x9 rectangle board with square tiling`, `2 x 6 Mancala board with 2 outer stores`,
/// `11x11 diamond board with hexagonal tiling`, `8x8 triangle board with triangular tiling`.
/// `vertex`: the text places pieces on vertices (`use:Vertex`).
pub(super) fn board_phrase(phrase: &str, vertex: bool) -> BoardPhrase {
    let words: Vec<&str> = phrase.split_whitespace().collect();
    let num = |w: &str| w.parse::<usize>().ok().filter(|k| (1..=200).contains(k));
    let Some(first) = words.first() else {
        return BoardPhrase::Unstated;
    };
    if !first.starts_with(|c: char| c.is_ascii_digit()) {
        return BoardPhrase::Unstated;
    }
    let int = |k: usize| BoardArg::Int(k as i64);
    let sites = if vertex {
        SiteKind::Vertex
    } else {
        SiteKind::Cell
    };
    // `2 x 6 Mancala board with 2 none|outer stores`.
    let graph = if let [r, "x", c, "Mancala", "board", rest @ ..] = words.as_slice() {
        let (Some(r), Some(c)) = (num(r), num(c)) else {
            return BoardPhrase::Unsupported("board dimensions outside 1..200");
        };
        let mut f = BoardFn::new("mancalaBoard", vec![int(r), int(c)]);
        match rest {
            [] | ["with", _, "none", "stores"] => {
                f.named
                    .insert("store".into(), BoardArg::Word("None".into()));
            }
            ["with", _, "outer", "stores"] => {}
            _ => return BoardPhrase::Unsupported("a mancala board with these stores"),
        };
        return built(f, SiteKind::Vertex);
    } else {
        let dims: Vec<Option<usize>> = first.split('x').map(num).collect();
        let shape = words.get(1).copied().unwrap_or("");
        let tiling = phrase
            .split_once(" with ")
            .map(|(_, t)| t.trim_end_matches(" tiling"))
            .unwrap_or("");
        match (dims.as_slice(), shape, tiling) {
            ([Some(r), Some(c)], "rectangle" | "square", "square") if r == c => {
                BoardFn::new("square", vec![int(*r)])
            }
            ([Some(r), Some(c)], "rectangle" | "square", "square") => {
                BoardFn::new("rectangle", vec![int(*r), int(*c)])
            }
            ([Some(n), Some(m)], "diamond" | "rhombus", "hexagonal") if n == m && !vertex => {
                BoardFn::new("hex", vec![BoardArg::Word("Diamond".into()), int(*n)])
            }
            ([Some(n), Some(m)], "triangle", "triangular") if n == m => {
                BoardFn::new("tri", vec![int(*n)])
            }
            _ if dims.iter().any(Option::is_none) => {
                return BoardPhrase::Unsupported("board dimensions outside 1..200");
            }
            _ => return BoardPhrase::Unsupported("this board shape and tiling"),
        }
    };
    built(graph, sites)
}

/// The board `graph` builds, with `sites`.
fn built(graph: BoardFn, sites: SiteKind) -> BoardPhrase {
    let c = Construction { sites, graph };
    match build(&c) {
        Ok(geo) => BoardPhrase::Built(Box::new(geo), c),
        Err(_) => BoardPhrase::Unsupported("this board shape and tiling"),
    }
}

/// Splits a line into sentences at `. ` followed by a capital letter (outside brackets).
pub(super) fn sentences(line: &str) -> Vec<&str> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for i in 0..b.len() {
        match b[i] {
            b'[' | b'(' => depth += 1,
            b']' | b')' => depth -= 1,
            b'.' if depth <= 0
                && b.get(i + 1) == Some(&b' ')
                && b.get(i + 2).is_some_and(u8::is_ascii_uppercase) =>
            {
                out.push(line[start..=i].trim());
                start = i + 2;
            }
            _ => {}
        }
    }
    if start < line.len() && !line[start..].trim().is_empty() {
        out.push(line[start..].trim());
    }
    out
}

/// Splits `a, b and c` (or `or`) into items, ignoring separators inside brackets.
pub(super) fn items(s: &str) -> Vec<&str> {
    let s = s.trim().trim_end_matches('.').trim();
    let b = s.as_bytes();
    let mut out = Vec::new();
    let (mut depth, mut start, mut i) = (0i32, 0usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'[' => depth += 1,
            b']' => depth -= 1,
            _ if depth <= 0 => {
                let sep = [", ", " and ", " or "]
                    .iter()
                    .find(|p| b[i..].starts_with(p.as_bytes()))
                    .map(|p| p.len());
                if let Some(k) = sep {
                    out.push(s[start..i].trim());
                    i += k;
                    start = i;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out.push(s[start..].trim());
    out.retain(|x| !x.is_empty());
    out
}

/// Who a piece-list sentence gives pieces to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Owner {
    /// `All players play with …`.
    Each,
    /// `Player two plays with …` (1-based).
    Player(usize),
    /// `The following pieces are shared by all players: …`.
    Shared,
    /// `The following pieces are neutral: …`.
    Neutral,
    /// `Shared plays with …` and the like: a repetition of a list above.
    Repeat,
}

/// A piece-list sentence: the owner and the plural names (dice and `null` left out), and the
/// number of dice named.
pub(super) fn piece_list(s: &str) -> Option<(Owner, Vec<String>, usize)> {
    let s = s.trim().trim_end_matches('.');
    let (owner, list) = if let Some(l) = s.strip_prefix("All players play with ") {
        (Owner::Each, l)
    } else if let Some(l) = s.strip_prefix("The following pieces are shared by all players: ") {
        (Owner::Shared, l)
    } else if let Some(l) = s.strip_prefix("The following pieces are neutral: ") {
        (Owner::Neutral, l)
    } else if let Some((who, l)) = s.split_once(" plays with ") {
        match who.strip_prefix("Player ").and_then(super::number_word) {
            Some(k) => (Owner::Player(k), l),
            None => (Owner::Repeat, l),
        }
    } else {
        return None;
    };
    let mut names = Vec::new();
    let mut dice = 0;
    for it in items(list) {
        if it.starts_with("Dies with ") || it.starts_with("Die with ") {
            dice += 1;
        } else if it != "null" && !it.contains(' ') && !names.iter().any(|n| n == it) {
            names.push(it.to_string());
        }
    }
    Some((owner, names, dice))
}

/// The singular of a plural piece name as Ludii writes it (`Foxes`, `Geeses`, `Dogs`), taken
/// from `known` singular names (setup lines) when one fits.
pub(super) fn singular(plural: &str, known: &[String]) -> String {
    if let Some(k) = known
        .iter()
        .find(|s| format!("{s}s") == plural || format!("{s}es") == plural)
    {
        return k.clone();
    }
    match plural.strip_suffix("es") {
        Some(stem)
            if ["s", "x", "z", "ch", "sh"]
                .iter()
                .any(|e| stem.ends_with(e)) =>
        {
            stem.to_string()
        }
        _ => plural.strip_suffix('s').unwrap_or(plural).to_string(),
    }
}

/// Deepest nesting of site-set phrases read.
const MAX_DEPTH: usize = 16;

/// Longest test read before a site set (`row of current site of cell is even and …`): real
/// ones are under 200 bytes; the bound keeps trying its split points linear in the phrase.
const MAX_TEST_BYTES: usize = 1024;

/// Limits the work of one site-set evaluation (ambiguous `and`s are tried by backtracking).
const BUDGET: usize = 20_000;

/// Evaluates site-set phrases on a board.
pub(super) struct Sites<'a> {
    pub geo: &'a Geo,
    budget: std::cell::Cell<usize>,
}

impl<'a> Sites<'a> {
    pub fn new(geo: &'a Geo) -> Self {
        Sites {
            geo,
            budget: std::cell::Cell::new(BUDGET),
        }
    }

    /// The sites a phrase names, in the phrase's order; `None` when not understood.
    pub fn eval(&self, s: &str) -> Option<Vec<usize>> {
        self.budget.set(BUDGET);
        self.set(s.trim().trim_end_matches('.').trim(), 0)
    }

    fn set(&self, s: &str, depth: usize) -> Option<Vec<usize>> {
        let left = self.budget.get().checked_sub(1)?;
        self.budget.set(left);
        if depth > MAX_DEPTH {
            return None;
        }
        let s = s.trim();
        for kind in ["vertex ", "cell ", "site ", "edge "] {
            if let Some(r) = s.strip_prefix(kind) {
                return self.set(r, depth + 1);
            }
        }
        // Ludii's English of a union of a single set (`(union {R})`) is `the union o and R`.
        if let Some(r) = s.strip_prefix("the union o and ") {
            return self.set(r, depth + 1);
        }
        if let Some(r) = s.strip_prefix("the union of ") {
            let parts = self.parts(r, depth)?;
            let mut v: Vec<usize> = parts.into_iter().flatten().collect();
            v.sort_unstable();
            v.dedup();
            return Some(v);
        }
        if let Some(r) = s.strip_prefix("the intersection of ") {
            let mut parts = self.parts(r, depth)?.into_iter();
            let mut acc = parts.next()?;
            for p in parts {
                acc.retain(|x| p.contains(x));
            }
            acc.sort_unstable();
            return Some(acc);
        }
        // `the difference between A and B` has exactly two operands: a split is kept only
        // when both sides read whole, so a following `and …` belongs to an enclosing list.
        if let Some(r) = s.strip_prefix("the difference between ") {
            for (at, len) in separators(r) {
                if len != 5 {
                    continue;
                }
                let (Some(mut a), Some(b)) = (
                    self.set(&r[..at], depth + 1),
                    self.set(&r[at + len..], depth + 1),
                ) else {
                    continue;
                };
                a.retain(|x| !b.contains(x));
                a.sort_unstable();
                return Some(a);
            }
            return None;
        }
        // `R expanded by a steps expanded by b steps …`, peeled without recursion.
        let mut grow = Vec::new();
        let mut base = s;
        while let Some((b, n)) = base.rsplit_once(" expanded by ") {
            // Not a count: the phrase goes on after the expansion (`… expanded by 1 steps and
            // the right sites of the board` inside a test's set).
            let Some(k) = n
                .strip_suffix(" steps")
                .or(n.strip_suffix(" step"))
                .and_then(|n| self.number(n))
            else {
                break;
            };
            grow.push(k);
            base = b.trim();
        }
        if !grow.is_empty() {
            let mut v = self.set(base, depth + 1)?;
            // Ludii's default direction: `Adjacent` (every link of a graph board).
            let graph = self.geo.shape == board::Shape::Graph;
            let adjacent = |d: &str| graph || self.geo.orth.contains(&d);
            for steps in grow.into_iter().rev() {
                v = self.geo.expand_by(&v, steps.min(1000), &adjacent);
            }
            return Some(v);
        }
        // `<test> <set>`: the sites of the set that pass the test (`(forEach R if:C)`).
        if let Some(v) = self.filtered(s, depth) {
            return Some(v);
        }
        self.atom(s)
    }

    /// Splits `A, B and C` into at least two site sets, trying the separators left to right
    /// (the phrases nest without brackets, so a split is kept when every part reads).
    fn parts(&self, s: &str, depth: usize) -> Option<Vec<Vec<usize>>> {
        let seps: Vec<(usize, usize)> = separators(s);
        for &(at, len) in &seps {
            let Some(first) = self.set(&s[..at], depth + 1) else {
                continue;
            };
            let rest = &s[at + len..];
            if let Some(one) = self.set(rest, depth + 1) {
                return Some(vec![first, one]);
            }
            if let Some(mut more) = self.parts(rest, depth + 1) {
                more.insert(0, first);
                return Some(more);
            }
            if self.budget.get() == 0 {
                return None;
            }
        }
        None
    }

    /// `<test> <set>` (`current site is even the top sites of the board`, `row of current site
    /// of cell is odd and … the sites of the board`): the sites of the set that pass the test,
    /// split at the first word boundary where both sides read.
    fn filtered(&self, s: &str, depth: usize) -> Option<Vec<usize>> {
        if !super::condition::starts_a_test(s) {
            return None;
        }
        let splits = s
            .match_indices(' ')
            .take_while(|(at, _)| *at <= MAX_TEST_BYTES);
        for (at, _) in splits {
            let Some(test) = super::condition::condition(&s[..at]) else {
                continue;
            };
            if let Some(v) = self.set(&s[at + 1..], depth + 1) {
                return test.keep(self.geo, v);
            }
        }
        None
    }

    /// A site set without operators.
    fn atom(&self, s: &str) -> Option<Vec<usize>> {
        let geo = self.geo;
        if let Some(list) = s
            .strip_prefix("the vertexes with coordinates [")
            .or_else(|| s.strip_prefix("the cells with coordinates ["))
            .or_else(|| s.strip_prefix("the sites with coordinates ["))
            .and_then(|x| x.strip_suffix(']'))
        {
            return list.split(',').map(|l| geo.index_of(l.trim())).collect();
        }
        if let Some(list) = s
            .strip_prefix("sites [")
            .or_else(|| s.strip_prefix("the sites ["))
            .or_else(|| s.strip_prefix("all sites within ["))
            .or_else(|| s.strip_prefix('['))
            .and_then(|x| x.strip_suffix(']'))
        {
            // Items may be expressions Ludii spells out: `multiply all the values in [4,8]
            // minus 1`, `add the following values: [1,8]`.
            return depth0(list, b',')
                .into_iter()
                .map(|x| self.number(x).filter(|&i| i < geo.len()))
                .collect();
        }
        if let Ok(i) = s.parse::<usize>() {
            return (i < geo.len()).then(|| vec![i]);
        }
        if let Some(i) = geo.index_of(s) {
            return Some(vec![i]);
        }
        Some(match s {
            "the bottom sites of the board" => geo.bottom(),
            "the top sites of the board" => geo.top(),
            "the left sites of the board" => geo.left(),
            "the right sites of the board" => geo.right(),
            "the sites of the board" | "all sites" | "the board" => (0..geo.len()).collect(),
            "the centre sites of the board" | "the center sites of the board" => geo.centre(),
            // A mancala board's own track: its holes (the stores are not on it).
            "track of board" if geo.shape == board::Shape::Mancala => geo.holes(),
            "the centre point of the board" | "the center point of the board" => {
                let c = geo.centre();
                if c.len() != 1 {
                    return None;
                }
                c
            }
            "the outer sites of the board" | "the perimeter sites of the board" => geo.outer(),
            "the corner sites of the board" => geo.corners(),
            _ => {
                // `each vertex of the 4 row`, `each cell of the 0 column` (0-based).
                let w: Vec<&str> = s.split_whitespace().collect();
                match w.as_slice() {
                    ["each", _, "of", "the", n, "row"] => geo.row(n.parse().ok()?),
                    ["each", _, "of", "the", n, "column"] => geo.column(n.parse().ok()?),
                    // `each cell of the the number of Cell rows divided by 2 row`.
                    [
                        "each",
                        _,
                        "of",
                        "the",
                        "the",
                        "number",
                        "of",
                        _,
                        what,
                        "divided",
                        "by",
                        k,
                        line,
                    ] if what == &format!("{line}s") => {
                        let k: usize = k.parse().ok().filter(|&k| k > 0)?;
                        let lines = |f: fn(&(usize, usize)) -> usize| {
                            geo.label_rc.iter().map(f).max().map_or(0, |m| m + 1)
                        };
                        match *line {
                            "row" => geo.row(lines(|p| p.1) / k),
                            "column" => geo.column(lines(|p| p.0) / k),
                            _ => return None,
                        }
                    }
                    _ => return self.computed_line(s),
                }
            }
        })
    }

    /// `each cell of the <count> row|column`, the count computed (`the column within which
    /// site Cell the centre point of the board lies`): that row or column of the board.
    fn computed_line(&self, s: &str) -> Option<Vec<usize>> {
        let (_, r) = s.strip_prefix("each ")?.split_once(" of the ")?;
        if let Some(e) = r.strip_suffix(" row") {
            return Some(self.geo.row(self.number(e)?));
        }
        Some(self.geo.column(self.number(r.strip_suffix(" column")?)?))
    }
}

impl Sites<'_> {
    /// A count read left to right as Ludii prints it: `8 divided by 2 minus 2`, `the number of
    /// Vertex rows divided by 2 minus 1` (the board's rows or columns), `3 plus 1`.
    fn number(&self, s: &str) -> Option<usize> {
        const OPS: [&str; 5] = [
            " plus ",
            " minus ",
            " divided by ",
            " times ",
            " multiplied by ",
        ];
        let lines = |f: fn(&(usize, usize)) -> usize| {
            self.geo.label_rc.iter().map(f).max().map_or(0, |m| m + 1)
        };
        let term = |t: &str| -> Option<usize> {
            let w: Vec<&str> = t.split_whitespace().collect();
            match w.as_slice() {
                ["the", "number", "of", _, "rows"] | ["the", "number", "of", "rows"] => {
                    Some(lines(|p| p.1))
                }
                ["the", "number", "of", _, "columns"] | ["the", "number", "of", "columns"] => {
                    Some(lines(|p| p.0))
                }
                // `the column within which site Cell the centre point of the board lies`.
                [
                    "the",
                    line @ ("row" | "column"),
                    "within",
                    "which",
                    "site",
                    _,
                    ..,
                    "lies",
                ] => {
                    let site = t.trim().splitn(7, ' ').nth(6)?.strip_suffix(" lies")?;
                    // The site is a label or the centre point, never a set phrase of its own
                    // (so counts and sets cannot nest without end).
                    let one = match site {
                        "the centre point of the board" | "the center point of the board" => {
                            match self.geo.centre().as_slice() {
                                [c] => *c,
                                _ => return None,
                            }
                        }
                        label => self.geo.index_of(label)?,
                    };
                    let &(c, r) = self.geo.label_rc.get(one)?;
                    Some(if *line == "row" { r } else { c })
                }
                _ => number(t),
            }
        };
        // `multiply all the values in [a,b]`, `add the following values: [a,b]`: a product or
        // sum of the list's items, each itself a count.
        let folded = |t: &str| -> Option<usize> {
            let (list, mul) = match t.strip_prefix("multiply all the values in [") {
                Some(l) => (l, true),
                None => (t.strip_prefix("add the following values: [")?, false),
            };
            let items = depth0(list.strip_suffix(']')?, b',');
            items.iter().try_fold(usize::from(mul), |acc, x| {
                let v = self.number(x)?;
                if mul {
                    acc.checked_mul(v)
                } else {
                    acc.checked_add(v)
                }
            })
        };
        let term = |t: &str| folded(t.trim()).or_else(|| term(t));
        let mut rest = s.trim();
        let mut acc: Option<usize> = None;
        let mut op = "";
        loop {
            // Operators outside brackets only (`[2,6 minus 1]` is one list item).
            let next = OPS
                .iter()
                .filter_map(|o| {
                    rest.match_indices(o)
                        .find(|(at, _)| bracket_depth(&rest[..*at]) == 0)
                        .map(|(at, _)| (at, *o))
                })
                .min();
            let (t, after) = match next {
                Some((at, o)) => (&rest[..at], Some((o, &rest[at + o.len()..]))),
                None => (rest, None),
            };
            let v = term(t)?;
            acc = Some(match (acc, op) {
                (None, _) => v,
                (Some(a), " plus ") => a.checked_add(v)?,
                (Some(a), " minus ") => a.checked_sub(v)?,
                (Some(a), " divided by ") => a.checked_div(v)?,
                (Some(a), _) => a.checked_mul(v)?,
            });
            match after {
                Some((o, r)) => {
                    op = o;
                    rest = r;
                }
                None => return acc,
            }
        }
    }
}

/// `3`, `3 minus 1`, `2 plus 1`.
fn number(s: &str) -> Option<usize> {
    if let Some((a, b)) = s.split_once(" minus ") {
        return number(a)?.checked_sub(number(b)?);
    }
    if let Some((a, b)) = s.split_once(" plus ") {
        return number(a)?.checked_add(number(b)?);
    }
    s.trim().parse().ok()
}

/// How many brackets are open at the end of `s`.
fn bracket_depth(s: &str) -> i32 {
    s.bytes().fold(0, |d, c| match c {
        b'[' => d + 1,
        b']' => d - 1,
        _ => d,
    })
}

/// `s` split at each `sep` outside brackets, items trimmed.
fn depth0(s: &str, sep: u8) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in s.bytes().enumerate() {
        match c {
            b'[' => depth += 1,
            b']' => depth -= 1,
            _ if c == sep && depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(s[start..].trim());
    out
}

/// Byte offsets and lengths of `, ` and ` and ` outside brackets.
fn separators(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0i32;
    for i in 0..b.len() {
        match b[i] {
            b'[' => depth += 1,
            b']' => depth -= 1,
            _ if depth <= 0 => {
                if b[i..].starts_with(b", ") {
                    out.push((i, 2));
                } else if b[i..].starts_with(b" and ") {
                    out.push((i, 5));
                }
            }
            _ => {}
        }
    }
    out
}

/// What a `Setup:` line gives.
pub(super) enum SetupLine {
    /// Placements on the board.
    Placed(Vec<Placement>),
    /// Pieces put in a player's hand (not on the board).
    Hand(String),
    /// A line that is not about placing pieces (`Set Team 1 as …`).
    Other,
}

/// The context of a `Setup:` line.
pub(super) struct SetupCx<'a> {
    pub pieces: &'a [Piece],
    /// The pieces shared by all players: a placement without a player is theirs.
    pub shared: &'a [String],
    pub players: &'a [String],
    pub geo: Option<&'a Geo>,
}

impl SetupCx<'_> {
    /// The owner of a piece placed without a player: `Shared` when the text lists it among
    /// the pieces shared by all players, else `Neutral`.
    fn unowned(&self, piece: &str) -> String {
        if self.shared.iter().any(|s| s == piece) {
            crate::ludii::board::SHARED.into()
        } else {
            crate::ludii::board::NEUTRAL.into()
        }
    }
}

/// One `Setup:` line: `Place a Jiang for player one on site E1.`, `… on sites: D1 and F1`,
/// `Place a Dog for player two at <site set>`, `Place stack of [Goat2] at vertex 6`,
/// `Set the count of the vertexes in <site set> to 3`. `Err` says why the line is not read.
pub(super) fn setup_line(t: &str, cx: &SetupCx) -> Result<SetupLine, String> {
    let t = t.trim().trim_end_matches('.').trim();
    if let Some(rest) = t.strip_prefix("Place stack of [") {
        let (list, rest) = rest.split_once("] at ").ok_or("no `] at`")?;
        if rest.contains("'s hand site") {
            return Ok(SetupLine::Hand(list.to_string()));
        }
        let sites = locate(rest, cx)?;
        let mut out = Vec::new();
        for item in list.split(',').map(str::trim) {
            let (piece, player) = item_owner(item, cx)
                .ok_or_else(|| format!("`{item}` is not a piece of the piece lists"))?;
            out.push(placement(player, piece, &sites, 1, cx));
        }
        return Ok(SetupLine::Placed(out));
    }
    if let Some(rest) = t
        .strip_prefix("Place a ")
        .or_else(|| t.strip_prefix("Place an "))
    {
        let (head, sites) = split_place(rest).ok_or("no `on site(s)` or `at`")?;
        let (piece, player) = match head.split_once(" for player ") {
            Some((p, w)) => {
                let k = super::number_word(w.trim()).or((w.trim() == "zero").then_some(0));
                let player = match k {
                    Some(0) => crate::ludii::board::NEUTRAL.to_string(),
                    Some(k) => cx
                        .players
                        .get(k - 1)
                        .cloned()
                        .ok_or_else(|| format!("there is no player {w}"))?,
                    None => return Err(format!("player `{w}` not understood")),
                };
                (p.trim(), player)
            }
            None => (head.trim(), cx.unowned(head.trim())),
        };
        if !cx.pieces.iter().any(|p| p.name == piece) {
            return Err(format!("`{piece}` is not a piece of the piece lists"));
        }
        let sites = locate(sites, cx)?;
        return Ok(SetupLine::Placed(vec![placement(
            player,
            piece.to_string(),
            &sites,
            1,
            cx,
        )]));
    }
    if let Some(rest) = t.strip_prefix("Set the count of ") {
        let (what, n) = rest.rsplit_once(" to ").ok_or("no `to`")?;
        let n: usize = n
            .trim()
            .parse()
            .ok()
            .filter(|k| *k <= 1000)
            .ok_or("the count is not a number up to 1000")?;
        let what = ["the vertexes in ", "the cells in ", "the sites in "]
            .iter()
            .find_map(|p| what.strip_prefix(p))
            .ok_or("no `the vertexes in`")?;
        let [piece] = cx.pieces else {
            return Err("the text does not say which piece is counted".into());
        };
        let sites = locate(what, cx)?;
        return Ok(SetupLine::Placed(vec![placement(
            crate::ludii::board::NEUTRAL.into(),
            piece.name.clone(),
            &sites,
            n,
            cx,
        )]));
    }
    if t.starts_with("Place ") {
        return Err("not a known `Place` form".into());
    }
    Ok(SetupLine::Other)
}

/// `X for player one on sites: A1 and B2` / `… on site E1` / `… at <site set>`.
fn split_place(rest: &str) -> Option<(&str, &str)> {
    for sep in [
        " on sites: ",
        " on sites ",
        " on site: ",
        " on site ",
        " at ",
    ] {
        if let Some(x) = rest.split_once(sep) {
            return Some(x);
        }
    }
    None
}

/// The sites of a setup line, or why they cannot be located.
fn locate(s: &str, cx: &SetupCx) -> Result<Vec<usize>, String> {
    let geo = cx
        .geo
        .ok_or("the text does not describe the board, so its sites cannot be located")?;
    let sites = Sites::new(geo);
    // Ludii prints `on site  and E5` for some coordinate lists.
    let s = s.trim_start().strip_prefix("and ").unwrap_or(s);
    if let Some(v) = sites.eval(s) {
        return Ok(v);
    }
    // `H5, G4 and I4`.
    let list = items(s);
    if list.len() > 1
        && let Some(v) = list.iter().map(|x| geo.index_of(x)).collect()
    {
        return Ok(v);
    }
    Err(format!("site set `{s}` not understood"))
}

/// `Goat2` → (`Goat`, `P2`); `Seed` (no number) → a neutral piece.
fn item_owner(item: &str, cx: &SetupCx) -> Option<(String, String)> {
    if let Some(x) = split_item(item, cx.pieces, cx.players) {
        return Some((x.0, x.1));
    }
    let stem = item.trim_end_matches(|c: char| c.is_ascii_digit());
    let k = &item[stem.len()..];
    if cx.pieces.iter().any(|p| p.name == stem) && (k.is_empty() || k == "0") {
        let owner = match k {
            "0" => crate::ludii::board::NEUTRAL.into(),
            _ => cx.unowned(stem),
        };
        return Some((stem.to_string(), owner));
    }
    None
}

fn placement(
    player: String,
    piece: String,
    sites: &[usize],
    count: usize,
    cx: &SetupCx,
) -> Placement {
    let geo = cx.geo.expect("located sites have a board");
    geo.placement(player, piece, sites.iter().map(|&i| (i, count)))
}

/// The regions of a text's `Regions:` lines (`Name: <definition> [for P1]`) that the text does
/// not define by sites: a definition that names a `track …` (Ludii's English never prints a
/// track's sites) or another such region. Closed under reference, in the lines' order and
/// then until nothing changes.
pub(super) fn undefined_regions<'a>(regions: impl Iterator<Item = &'a str> + Clone) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    loop {
        let before = out.len();
        for l in regions.clone() {
            let Some((name, desc)) = l.split_once(": ") else {
                continue;
            };
            let name = name.trim();
            if !out.iter().any(|n| n == name) && undefined_ref(desc, &out).is_some() {
                out.push(name.to_string());
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

/// What a phrase names that the text does not define, if anything: a `track X` (the English
/// never prints a track's sites), a region of `undefined` (see [`undefined_regions`]), or
/// Ludii's `null` (printed for a thing it cannot describe, `cell null of 1`).
pub(super) fn undefined_ref(phrase: &str, undefined: &[String]) -> Option<String> {
    let words: Vec<&str> = phrase
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    // `track of board` is a mancala board's own track (its holes): the board states it.
    let track = (0..words.len()).find(|&i| words[i] == "track" && words.get(i + 1) != Some(&"of"));
    if let Some(i) = track {
        let name = words.get(i + 1).copied().unwrap_or("");
        return Some(format!("track {name}").trim_end().to_string());
    }
    if words.contains(&"null") {
        return Some("null".into());
    }
    words
        .iter()
        .find(|w| undefined.iter().any(|u| u == *w))
        .map(|w| format!("region {w}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn site_lists_spell_out_arithmetic() {
        // A 4 x 6 grid (24 sites): items are counts Ludii prints as words.
        let g = board::grid(4, 6);
        let s = Sites::new(&g);
        assert_eq!(
            s.eval("sites [0,multiply all the values in [4,6] minus 1]"),
            Some(vec![0, 23])
        );
        assert_eq!(
            s.eval("the difference between the sites of the board and sites [6,add the following values: [1,6],multiply all the values in [6,3] minus 2]"),
            Some((0..24).filter(|i| ![6, 7, 16].contains(i)).collect())
        );
        assert_eq!(
            s.eval("sites [multiply all the values in [2,6 minus 1]]"),
            Some(vec![10])
        );
    }

    #[test]
    fn regions_built_on_tracks_are_undefined() {
        let regions = [
            "Far: the top sites of the board for P2",
            "Near: the difference between track LoopA and the top sites of the board for P1",
            "Both: the union of Far and Near for P1",
            "Start: track LoopB for P2",
        ];
        let u = undefined_regions(regions.iter().copied());
        assert_eq!(u, ["Near", "Both", "Start"]);
        assert_eq!(
            undefined_ref(
                "Set the count of the vertexes in the union of Start or Start to 2",
                &u
            ),
            Some("region Start".into())
        );
        assert_eq!(
            undefined_ref("Set the count of the vertexes in track LoopC to 4", &u),
            Some("track LoopC".into())
        );
        assert_eq!(
            undefined_ref("Place stack of [Ring1] at cell null of 1", &u),
            Some("null".into())
        );
        assert_eq!(
            undefined_ref("Place a Disc for player one at Far", &u),
            None
        );
        assert_eq!(
            undefined_ref("Set the count of the vertexes in track of board to 3", &u),
            None
        );
    }

    #[test]
    fn tests_filter_sets_and_lines_are_computed() {
        // A 5 x 5 grid: `(forEach R if:C)` prints as the test, then the set.
        let g = board::grid(5, 5);
        let s = Sites::new(&g);
        // Cannon: an expansion inside a difference inside a test.
        assert_eq!(
            s.eval("the column within which site Vertex current site lies is even the difference between each vertex of the 1 row expanded by 1 steps and the right sites of the board"),
            Some(vec![0, 2, 5, 7, 10, 12])
        );
        // Quoridor: a line number computed from a site.
        assert_eq!(
            s.eval("the intersection of the bottom sites of the board and each cell of the the column within which site Cell the centre point of the board lies column"),
            Some(vec![2])
        );
        assert_eq!(
            s.eval("row of current site of cell is odd and 2 is greater than current site modulo 5 the sites of the board"),
            Some(vec![5, 6, 15, 16])
        );
        assert_eq!(
            s.eval("current site is purple the sites of the board"),
            None
        );
        // Fanorona: `(union {(union …)})`.
        assert_eq!(
            s.eval("the union o and the union of the bottom sites of the board and the vertexes with coordinates [A2]"),
            Some(vec![0, 1, 2, 3, 4, 5])
        );
    }

    /// Tests and computed lines nested many times over cost little: tests are tried only where
    /// a test can begin, over their first KiB, and a count's site is never a phrase of its own
    /// (these took 6 s, and 6 s with 2.4 GB, when every split was tried and counts recursed).
    #[test]
    fn nested_tests_and_counts_are_read_in_bounded_work() {
        let g = board::grid(5, 5);
        let s = Sites::new(&g);
        let tests = "current site is even ".repeat(3000) + "the sites of the board";
        let counts = "each cell of the the column within which site Cell ".repeat(3000)
            + "A1"
            + &" lies column".repeat(3000);
        for phrase in [tests, counts] {
            let (v, cpu) = crate::tests::cpu_time(|| s.eval(&phrase));
            assert_eq!(v, None);
            assert!(cpu.as_secs_f64() < 1.0, "{cpu:?} of CPU time");
        }
    }

    #[test]
    fn shared_pieces_placed_without_a_player_are_shared() {
        let g = board::grid(2, 2);
        let pieces = [Piece {
            name: "Ball".into(),
            ..Piece::default()
        }];
        let players = ["P1".to_string(), "P2".to_string()];
        let line = "Place a Ball at the sites of the board.";
        for (shared, owner) in [(vec!["Ball".to_string()], "Shared"), (vec![], "Neutral")] {
            let cx = SetupCx {
                pieces: &pieces,
                shared: &shared,
                players: &players,
                geo: Some(&g),
            };
            let Ok(SetupLine::Placed(p)) = setup_line(line, &cx) else {
                panic!("not read: {line}");
            };
            assert_eq!(p[0].player, owner);
        }
    }

    #[test]
    fn site_sets_nest_without_brackets() {
        let g = board::grid(5, 5);
        let s = Sites::new(&g);
        assert_eq!(
            s.eval("the union of the bottom sites of the board expanded by 1 steps and the vertexes with coordinates [A3, E3]"),
            Some(vec![0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 14])
        );
        assert_eq!(
            s.eval("the difference between the top sites of the board expanded by 2 steps and the vertexes with coordinates [C5]"),
            Some((10..25).filter(|&i| i != 22).collect())
        );
        assert_eq!(
            s.eval("the intersection of the union of each vertex of the 4 column and each vertex of the 2 column and the bottom sites of the board"),
            Some(vec![2, 4])
        );
        assert_eq!(s.eval("vertex sites [0,1,2]"), Some(vec![0, 1, 2]));
        assert_eq!(s.eval("[0,6,10]"), Some(vec![0, 6, 10]));
        assert_eq!(
            s.eval("the corner sites of the board"),
            Some(vec![0, 4, 20, 24])
        );
        assert_eq!(s.eval("the vertexes with coordinates [Z9]"), None);
    }

    #[test]
    fn piece_lists_split_into_sentences() {
        let l = "Player one plays with Jaguars. Player two plays with Dogs.";
        let s = sentences(l);
        assert_eq!(
            s,
            vec![
                "Player one plays with Jaguars.",
                "Player two plays with Dogs."
            ]
        );
        assert_eq!(
            piece_list(s[1]),
            Some((Owner::Player(2), vec!["Dogs".to_string()], 0))
        );
        let d = "The following pieces are shared by all players: Dies with 2 faces valued [0, 1] and Dies with 2 faces valued [0, 1].";
        assert_eq!(piece_list(d), Some((Owner::Shared, vec![], 2)));
        assert_eq!(singular("Foxes", &[]), "Fox");
        assert_eq!(singular("Geeses", &["Geese".to_string()]), "Geese");
        assert_eq!(singular("Dogs", &[]), "Dog");
    }

    #[test]
    fn lists_split_around_multibyte_characters() {
        // Regression for fuzz findings: the separators were sought at byte offsets
        // inside a character and the slice panicked.
        assert_eq!(items("A5, Â6 and C6"), vec!["A5", "Â6", "C6"]);
        assert_eq!(
            items("Cannoîs and 《Soldiers"),
            vec!["Cannoîs", "《Soldiers"]
        );
        assert_eq!(separators("a→b, c and d"), vec![(5, 2), (8, 5)]);
    }
}
