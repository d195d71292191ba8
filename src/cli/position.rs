//! A position of the engine as text (`replay --show`): a diagram for a board made by one 2-D
//! grid, else one line per occupied position as `board` prints positions; then pieces in hand.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use zogkit::engine::{Rules, State};
use zogkit::spec::Board;

/// The position `st` of `rules`, whose first board is `board` (the spec's, for its grid and
/// rectangles), with a heading line.
pub fn text(rules: &Rules, board: Option<&Board>, st: &State, heading: &str) -> String {
    // Pieces present, on the board or in hand: only they need codes that tell them apart.
    let mut present = vec![false; rules.kinds.len()];
    for p in st.board.iter().flatten() {
        present[p.kind as usize] = true;
    }
    for (k, seen) in present.iter_mut().enumerate() {
        *seen |= (0..rules.players.len()).any(|p| st.in_hand(p as u32, k as u32) > 0);
    }
    let codes = piece_codes(rules, &present);
    let mut s = format!(
        "{heading} ({} to move):\n",
        rules.players[st.to_move(rules) as usize]
    );
    let cell = |i: usize| {
        st.board[i].map(|p| {
            let code = &codes[p.kind as usize];
            match p.owner {
                0 => code.to_uppercase(),
                1 => code.to_lowercase(),
                n => format!("{}{}", n + 1, code.to_uppercase()),
            }
        })
    };
    match board.and_then(|b| grid(rules, b)) {
        Some(g) => {
            let w = (0..rules.positions.len())
                .filter_map(cell)
                .map(|c| c.chars().count())
                .chain(g.cols.iter().map(|(l, _)| l.chars().count()))
                .max()
                .unwrap_or(1)
                + 1;
            let lw = g
                .rows
                .iter()
                .map(|(l, _)| l.chars().count())
                .max()
                .unwrap_or(1);
            let _ = write!(s, "{:lw$}", "");
            for (l, _) in &g.cols {
                let _ = write!(s, "{l:>w$}");
            }
            s.push('\n');
            for (label, r) in &g.rows {
                let _ = write!(s, "{label:>lw$}");
                for (_, c) in &g.cols {
                    let t = match g.at.get(&(*r, *c)) {
                        Some(&i) => cell(i).unwrap_or_else(|| ".".into()),
                        None => " ".into(),
                    };
                    let _ = write!(s, "{t:>w$}");
                }
                s.push('\n');
            }
            for (i, name) in rules.positions.iter().enumerate() {
                if !g.at.values().any(|&j| j == i)
                    && let Some(c) = cell(i)
                {
                    let _ = writeln!(s, "{name:<8} {c}");
                }
            }
        }
        None => {
            for (i, name) in rules.positions.iter().enumerate() {
                if let Some(c) = cell(i) {
                    let _ = writeln!(s, "{name:<8} {c}");
                }
            }
        }
    }
    for (p, player) in rules.players.iter().enumerate() {
        let held: Vec<String> = (0..rules.kinds.len())
            .filter_map(|k| {
                let n = st.in_hand(p as u32, k as u32);
                (n > 0).then(|| format!("{n} {}", rules.kinds[k].name))
            })
            .collect();
        if !held.is_empty() {
            let _ = writeln!(s, "in hand: {player} {}", held.join(", "));
        }
    }
    let legend: Vec<String> = rules
        .kinds
        .iter()
        .zip(&codes)
        .zip(&present)
        .filter(|(_, here)| **here)
        .map(|((k, c), _)| format!("{} {}", c.to_uppercase(), k.name))
        .collect();
    let _ = writeln!(s, "pieces: {}", legend.join(", "));
    let owners = match rules.players.as_slice() {
        [a] => format!("{a} upper case"),
        [a, b] => format!("{a} upper case, {b} lower case"),
        [a, b, ..] => format!("{a} upper case, {b} lower case, player N as N and upper case"),
        [] => String::new(),
    };
    if !owners.is_empty() {
        let _ = writeln!(s, "players: {owners}");
    }
    s
}

/// A grid board's diagram plan: rows and columns (label, index) in screen order, and the
/// engine's position at each (row, column).
struct Grid {
    rows: Vec<(String, usize)>,
    cols: Vec<(String, usize)>,
    at: BTreeMap<(usize, usize), usize>,
}

/// The plan when every position with grid coordinates comes from one 2-D grid (others, such as
/// dummies, are listed below it); `None` otherwise.
fn grid(rules: &Rules, b: &Board) -> Option<Grid> {
    let index: BTreeMap<&str, usize> = rules
        .positions
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect(); // lookup only
    let mut at = BTreeMap::new();
    let mut grid_no = None;
    // The smallest screen coordinate seen per row and column, to order them as drawn.
    let (mut row_y, mut col_x) = (BTreeMap::new(), BTreeMap::new());
    for p in &b.positions {
        let Some(g) = &p.grid else { continue };
        if *grid_no.get_or_insert(g.grid) != g.grid || g.coords.len() != 2 {
            return None;
        }
        let (c, r) = (g.coords[0], g.coords[1]);
        let i = *index.get(p.name.as_str())?;
        at.insert((r, c), i);
        let (x, y) = p.rect.map_or((c as i64, r as i64), |q| (q[0], q[1]));
        let e = row_y.entry(r).or_insert(y);
        *e = (*e).min(y);
        let e = col_x.entry(c).or_insert(x);
        *e = (*e).min(x);
    }
    let dims = &b.layout.grids.get(grid_no?)?.dimensions;
    let label = |d: usize, k: usize| {
        dims.get(d)
            .and_then(|d| d.labels.get(k))
            .cloned()
            .unwrap_or_else(|| k.to_string())
    };
    let mut rows: Vec<(i64, usize)> = row_y.into_iter().map(|(r, y)| (y, r)).collect();
    rows.sort();
    let mut cols: Vec<(i64, usize)> = col_x.into_iter().map(|(c, x)| (x, c)).collect();
    cols.sort();
    Some(Grid {
        rows: rows.into_iter().map(|(_, r)| (label(1, r), r)).collect(),
        cols: cols.into_iter().map(|(_, c)| (label(0, c), c)).collect(),
        at,
    })
}

/// A code per piece kind: the shortest prefix of its name (without spaces) that no other
/// `present` kind's name starts with, ignoring case; kinds whose names are the same but for
/// case are told apart by their number.
fn piece_codes(rules: &Rules, present: &[bool]) -> Vec<String> {
    let names: Vec<Vec<char>> = rules
        .kinds
        .iter()
        .map(|k| {
            let v: Vec<char> = k
                .name
                .chars()
                .filter(|c| !c.is_whitespace())
                .flat_map(char::to_lowercase)
                .collect();
            if v.is_empty() { vec!['?'] } else { v }
        })
        .collect();
    let others = |i: usize| {
        names
            .iter()
            .enumerate()
            .filter(move |&(j, _)| j != i && present.get(j).copied().unwrap_or(false))
            .map(|(_, m)| m)
    };
    names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let len = (1..=n.len())
                .find(|&l| others(i).all(|m| m.len() < l || m[..l] != n[..l]))
                .unwrap_or(n.len());
            let code: String = n[..len].iter().collect();
            if others(i).any(|m| m == n) {
                format!("{code}{}", i + 1)
            } else {
                code
            }
        })
        .collect()
}
