//! The playing area of a spec board as Fairy-Stockfish files and ranks: the grid squares the
//! setup's pieces can reach through the directions the pieces move in, which must fill a
//! rectangle of at most 12 files and 10 ranks; and the vector of every such direction.

use super::betza::Vector;
use crate::spec::geometry::frame::{self, NoAxes};
use crate::spec::{Board, Game};
use std::collections::{BTreeMap, BTreeSet};

/// Fairy-Stockfish's largest board (files × ranks).
pub const MAX_FILES: i32 = 12;
/// See [`MAX_FILES`].
pub const MAX_RANKS: i32 = 10;

/// Squares and direction vectors of a board in Fairy-Stockfish's frame: file 0 = `a`, rank
/// 0 = rank 1, the first player's side.
#[derive(Debug, Clone)]
pub struct Geometry {
    /// Number of files.
    pub files: i32,
    /// Number of ranks.
    pub ranks: i32,
    /// Position name → (file, rank).
    pub square: BTreeMap<String, (i32, i32)>,
    /// Direction name → vector (`+rank` is the first player's forward).
    pub vectors: BTreeMap<String, Vector>,
}

/// `a1`, `b10`, …
pub fn square_name(f: i32, r: i32) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

/// Screen coordinates (column, row from the top) of the grid positions of `board`, along the
/// axes of the board's one frame ([`frame::axes`]).
fn screen(board: &Board) -> Result<BTreeMap<String, (i64, i64)>, String> {
    let ax = frame::axes(board).map_err(|e| match e {
        NoAxes::NoGrid => "the board has no grid (Fairy-Stockfish boards are rectangles)",
        NoAxes::NotTwoDimensions => "the board's grid is not two-dimensional",
        NoAxes::NotRowsAndColumns => "the board's grid is not laid out in rows and columns",
    })?;
    let mut out = BTreeMap::new();
    for p in &board.positions {
        if p.killed || p.dummy {
            continue;
        }
        if let Some(g) = &p.grid
            && g.grid == 0
            && g.coords.len() == 2
        {
            let c = |i: usize| g.coords[i] as i64;
            out.insert(p.name.clone(), (c(ax.across) * ax.sx, -c(ax.up) * ax.sy));
        }
    }
    Ok(out)
}

/// The geometry of `game`'s board for pieces moving along `dirs`.
pub fn geometry(game: &Game, dirs: &BTreeSet<String>) -> Result<Geometry, String> {
    let [board] = game.boards.as_slice() else {
        return Err("the game does not have exactly one board".into());
    };
    let xy = screen(board)?;
    let links: BTreeMap<&str, &crate::spec::Position> = board
        .positions
        .iter()
        .map(|p| (p.name.as_str(), p))
        .collect(); // lookup only
    // The area: setup squares and what the moving directions reach from them.
    let mut area: BTreeSet<String> = BTreeSet::new();
    let mut todo: Vec<String> = game
        .setup
        .iter()
        .flat_map(|pl| pl.positions.iter().cloned())
        .collect();
    while let Some(p) = todo.pop() {
        if !xy.contains_key(&p) {
            return Err(format!(
                "position `{p}` is not a square of the board's grid"
            ));
        }
        if !area.insert(p.clone()) {
            continue;
        }
        if let Some(pos) = links.get(p.as_str()) {
            for l in &pos.links {
                if dirs.contains(&l.direction) && !area.contains(&l.to) {
                    todo.push(l.to.clone());
                }
            }
        }
    }
    if area.is_empty() {
        return Err("the setup places no piece on the board".into());
    }
    let cols: Vec<i64> = area.iter().map(|p| xy[p].0).collect();
    let rows: Vec<i64> = area.iter().map(|p| xy[p].1).collect();
    let (c0, c1) = (
        *cols.iter().min().unwrap_or(&0),
        *cols.iter().max().unwrap_or(&0),
    );
    let (r0, r1) = (
        *rows.iter().min().unwrap_or(&0),
        *rows.iter().max().unwrap_or(&0),
    );
    let (files, ranks) = ((c1 - c0 + 1) as i32, (r1 - r0 + 1) as i32);
    if files > MAX_FILES || ranks > MAX_RANKS {
        return Err(format!(
            "the playing area is {files}×{ranks}; Fairy-Stockfish boards have at most {MAX_FILES} files and {MAX_RANKS} ranks"
        ));
    }
    if area.len() as i32 != files * ranks {
        return Err(format!(
            "the playing area ({} squares) does not fill its {files}×{ranks} rectangle",
            area.len()
        ));
    }
    // Whose side is at the bottom of the picture: the first player's pieces' mean row.
    let mean = |player: &str| -> f64 {
        let rows: Vec<i64> = game
            .setup
            .iter()
            .filter(|pl| pl.player == player)
            .flat_map(|pl| pl.positions.iter().map(|p| xy[p].1))
            .collect();
        rows.iter().sum::<i64>() as f64 / rows.len().max(1) as f64
    };
    let first_at_bottom = match game.players.as_slice() {
        [a, b, ..] => mean(a) >= mean(b),
        _ => true,
    };
    let mut square = BTreeMap::new();
    for p in &area {
        let (c, r) = xy[p];
        let s = if first_at_bottom {
            ((c - c0) as i32, (r1 - r) as i32)
        } else {
            ((c1 - c) as i32, (r - r0) as i32)
        };
        square.insert(p.clone(), s);
    }
    let vectors = vectors(board, &square, dirs, files, ranks)?;
    Ok(Geometry {
        files,
        ranks,
        square,
        vectors,
    })
}

/// The vector of every direction in `dirs`, checked on every square: a link must exist exactly
/// where the vector stays on the board, and lead where the vector says.
fn vectors(
    board: &Board,
    square: &BTreeMap<String, (i32, i32)>,
    dirs: &BTreeSet<String>,
    files: i32,
    ranks: i32,
) -> Result<BTreeMap<String, Vector>, String> {
    let mut out: BTreeMap<String, Vector> = BTreeMap::new();
    for p in &board.positions {
        let Some(&(f, r)) = square.get(&p.name) else {
            continue;
        };
        for l in p.links.iter().filter(|l| dirs.contains(&l.direction)) {
            let Some(&(tf, tr)) = square.get(&l.to) else {
                return Err(format!(
                    "direction `{}` leads from `{}` off the playing area to `{}`",
                    l.direction, p.name, l.to
                ));
            };
            let v = (tf - f, tr - r);
            match out.get(&l.direction) {
                Some(&w) if w != v => {
                    return Err(format!(
                        "direction `{}` is not one vector on this board (it wraps or bends)",
                        l.direction
                    ));
                }
                _ => {
                    out.insert(l.direction.clone(), v);
                }
            }
        }
    }
    for p in &board.positions {
        let Some(&(f, r)) = square.get(&p.name) else {
            continue;
        };
        for (d, v) in &out {
            let (tf, tr) = (f + v.0, r + v.1);
            let on = (0..files).contains(&tf) && (0..ranks).contains(&tr);
            let linked = p.links.iter().any(|l| &l.direction == d);
            if on != linked {
                return Err(format!(
                    "direction `{d}` from `{}` is {} although the board {} there",
                    p.name,
                    if linked { "linked" } else { "not linked" },
                    if on { "continues" } else { "ends" }
                ));
            }
        }
    }
    Ok(out)
}
