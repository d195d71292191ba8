//! Board pictures from explicit geometry: every drawn position is a pixel rectangle, and the picture keeps those coordinates.
//!
//! A [`Sheet`] is what a board looks like on paper: the cells (one per position that is not
//! dummy or killed, at the position's own rectangle), the links between them, the rectangles of
//! killed positions (left out of the picture) and a [`SheetStyle`]. It comes either from a
//! spec board's positions ([`Sheet::of_board`]: the author's coordinates, so that the picture
//! can sit beside the unchanged rule file) or from a grid zogkit lays out itself
//! ([`Sheet::of_grid`]). [`draw_sheet`] paints it; [`validate_sheet`] checks, from the pixels,
//! that every position's rectangle lies on its drawn cell.
//!
//! ## Pixel convention
//! ZoG authors write rectangles two ways: the seed's `1 1 31 31` (the first interior pixel to
//! the next line, so neighbours start one pixel after the previous rectangle ends) and shared
//! edges (`0 0 50 50`, then `50 0 100 50`). [`Sheet::inset`] is 1 for the first and 0 for the
//! second; a cell's outline is drawn at `x1 − inset` and `x2` (and likewise in y), its interior
//! fills the pixels between, so that neighbouring cells share one line in both conventions.
//!
//! ## Style, chosen per board ([`SheetStyle::detect`], then `lines::detect`)
//! - **lines**: a line board by one of `lines.rs`'s rules (a palace, as xiangqi and janggi
//!   have; an orthogonal grid of a placement game, as go): lines between linked points, pieces
//!   centred on the points, no cells;
//! - **points**: the rectangles are clearly smaller than the distance between linked
//!   neighbours (median side < 0.75 × median nearest-link distance): the author drew points or
//!   holes, so zogkit draws a dot per position and a line along every link of a geometric
//!   direction (alquerque, Chinese checkers, mancala pits); also when a link crosses a killed
//!   position (morris);
//! - **hex**: otherwise, when at least a quarter of the linked positions have five or more
//!   links of (nearly) their shortest length: hexagonal cells inscribed in the rectangles;
//! - **checkered**: otherwise, rectangular cells, as many shapes and sizes as the rectangles have.

use super::board::BoardColours;
use super::lines::{self, GameFacts, NamedLink};
use super::validate::{Location, ValidationError};
use super::{RenderError, Rgb, filled, px};
use crate::spec::Board;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Stroke, Transform};

/// The largest picture side zogkit draws, in pixels.
pub const MAX_SIDE: u32 = 16_384;
/// The most pixels a board picture may have (64 MB per picture at 4 bytes a pixel).
pub const MAX_PIXELS: u64 = 16 << 20;
/// The most cell pixels painted for one picture (overlapping cells count each time).
pub const MAX_PAINTED: u64 = 256 << 20;
/// Pairs of cells compared when looking for overlaps or neighbours, beyond which cells are
/// treated conservatively (overlapping, no further neighbours).
const MAX_PAIRS: usize = 4 << 20;

/// How the cells of a board are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SheetStyle {
    /// Rectangular cells with outlines; the checkered twin alternates two fills.
    Checkered,
    /// A dot per position and a line along every link.
    Points,
    /// Hexagonal cells inscribed in the rectangles; the checkered twin uses three fills.
    Hex,
    /// Lines between linked points, pieces on the points, no dots (xiangqi, go).
    Lines,
}

impl SheetStyle {
    /// Every style, in documentation order.
    pub const ALL: [SheetStyle; 4] = [
        SheetStyle::Checkered,
        SheetStyle::Points,
        SheetStyle::Hex,
        SheetStyle::Lines,
    ];

    /// The name used by `--style` and reports.
    pub fn slug(self) -> &'static str {
        match self {
            SheetStyle::Checkered => "checkered",
            SheetStyle::Points => "points",
            SheetStyle::Hex => "hex",
            SheetStyle::Lines => "lines",
        }
    }

    /// Whether a checkered twin differs from the plain board (not for points and lines).
    pub fn has_twin(self) -> bool {
        matches!(self, SheetStyle::Checkered | SheetStyle::Hex)
    }
}

/// One drawn position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetCell {
    /// Position name.
    pub name: String,
    /// The position's rectangle `[x1, y1, x2, y2]` in picture pixels.
    pub rect: [i64; 4],
    /// Fill class of the checkered twin (0 or 1; 0–2 for hex).
    pub shade: u8,
    /// Another cell's rectangle overlaps this one (stacked levels): its pixels may be hidden.
    pub covered: bool,
}

impl SheetCell {
    /// The rectangle's centre pixel.
    pub fn centre(&self) -> (i64, i64) {
        let [x1, y1, x2, y2] = self.rect;
        ((x1 + x2) / 2, (y1 + y2) / 2)
    }

    fn size(&self) -> (i64, i64) {
        let [x1, y1, x2, y2] = self.rect;
        (x2 - x1, y2 - y1)
    }
}

/// A board as drawn: cells at pixel rectangles, links, left-out positions and a style.
#[derive(Debug, Clone, PartialEq)]
pub struct Sheet {
    /// Picture width.
    pub width: u32,
    /// Picture height.
    pub height: u32,
    /// How cells are drawn.
    pub style: SheetStyle,
    /// The drawn positions, in the board's position order.
    pub cells: Vec<SheetCell>,
    /// Links between drawn cells, each pair once (indexes into `cells`, smaller first).
    pub links: Vec<(usize, usize)>,
    /// The lines drawn (points and lines styles), pairs of cells as in `links`.
    pub segments: Vec<(usize, usize)>,
    /// Cells marked with a star point on a lines board (go's hoshi).
    pub stars: Vec<usize>,
    /// Rectangles of killed positions: not drawn.
    pub killed: Vec<[i64; 4]>,
    /// 1 when a rectangle's left/top edge is its first interior pixel (`1 1 31 31`), 0 when
    /// neighbouring rectangles share edges (module docs).
    pub inset: i64,
    /// Edge of a piece tile on this board, in pixels.
    pub tile: u32,
    /// What the picture cannot show as the rule file says (rectangles off the picture).
    pub notes: Vec<String>,
}

impl Sheet {
    /// The index of the cell of position `name`.
    pub fn index(&self) -> HashMap<&str, usize> {
        self.cells
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name.as_str(), i))
            .collect()
    }

    /// The sheet of a spec board at its own coordinates, in `style` or the detected one
    /// (`facts`: what the game says beyond its board, for `lines::detect`).
    /// Errors name the position whose rectangle cannot be drawn.
    pub fn of_board(
        b: &Board,
        style: Option<SheetStyle>,
        facts: &GameFacts,
    ) -> Result<Sheet, String> {
        let mut cells = Vec::new();
        let mut killed = Vec::new();
        let mut grid_parity = Vec::new();
        let mut off = Vec::new();
        for p in b.positions.iter().filter(|p| !p.dummy) {
            let Some(rect) = p.rect else {
                if p.killed {
                    continue;
                }
                return Err(format!("position {} has no rectangle", p.name));
            };
            let [x1, y1, x2, y2] = rect;
            if x2 <= x1 || y2 <= y1 {
                return Err(format!(
                    "position {} has the empty rectangle ({x1} {y1} {x2} {y2})",
                    p.name
                ));
            }
            if (x1 < 0 || y1 < 0) && !p.killed {
                off.push(p.name.as_str());
            }
            if p.killed {
                killed.push(rect);
                continue;
            }
            grid_parity.push(
                p.grid
                    .as_ref()
                    .map(|g| (g.coords.iter().take(2).sum::<usize>() % 2) as u8),
            );
            cells.push(SheetCell {
                name: p.name.clone(),
                rect,
                shade: 0,
                covered: false,
            });
        }
        if cells.is_empty() {
            return Err("the board has no position to draw".into());
        }
        let index: HashMap<&str, usize> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name.as_str(), i))
            .collect();
        let mut links = BTreeSet::new();
        let mut named = Vec::new();
        for p in &b.positions {
            let Some(&a) = index.get(p.name.as_str()) else {
                continue;
            };
            for l in &p.links {
                if let Some(&t) = index.get(l.to.as_str())
                    && t != a
                {
                    links.insert((a.min(t), a.max(t)));
                    named.push(NamedLink {
                        a,
                        b: t,
                        dir: l.direction.as_str(),
                    });
                }
            }
        }
        let links: Vec<(usize, usize)> = links.into_iter().collect();
        let hex_grid = b
            .layout
            .grids
            .iter()
            .any(|g| match g.dimensions.as_slice() {
                [a, c, ..] => hex_angle(a.offset, c.offset),
                _ => false,
            });
        let (style, segments, stars) = match style {
            Some(s @ (SheetStyle::Points | SheetStyle::Lines)) => {
                (s, lines::forced(&cells, &named), Vec::new())
            }
            Some(s) => (s, Vec::new(), Vec::new()),
            None => {
                let base = SheetStyle::detect(&cells, &links, hex_grid);
                let points = base == SheetStyle::Points;
                match lines::detect(b, &cells, &named, &killed, points, facts) {
                    Some(l) => (l.style, l.segments, l.stars),
                    None => (base, Vec::new(), Vec::new()),
                }
            }
        };
        let mut notes = Vec::new();
        if let Some(first) = off.first() {
            notes.push(format!(
                "{} position(s) ({first}{}) have rectangles reaching left of or above the picture; they are drawn clipped, as ZoG shows them",
                off.len(),
                if off.len() > 1 { ", …" } else { "" }
            ));
        }
        let mut sheet = Sheet {
            width: 0,
            height: 0,
            style,
            cells,
            links,
            segments,
            stars,
            killed,
            inset: 1,
            tile: 0,
            notes,
        };
        sheet.finish(&grid_parity)?;
        Ok(sheet)
    }

    /// A rectangular grid laid out by zogkit: `files`×`ranks` cells of `unit` pixels whose top
    /// left cell interior starts at `(origin, origin)`; cells are named `c,r`.
    pub fn of_grid(files: u32, ranks: u32, unit: u32, margin: u32) -> Sheet {
        let (u, m) = (unit as i64, margin as i64);
        let mut cells = Vec::with_capacity((files * ranks) as usize);
        for row in 0..ranks as i64 {
            for col in 0..files as i64 {
                let (x, y) = (m + u * col + 1, m + u * row + 1);
                cells.push(SheetCell {
                    name: format!("{col},{row}"),
                    rect: [x, y, x + u - 1, y + u - 1],
                    shade: ((row + col) % 2) as u8,
                    covered: false,
                });
            }
        }
        Sheet {
            width: unit * files + 1 + 2 * margin,
            height: unit * ranks + 1 + 2 * margin,
            style: SheetStyle::Checkered,
            cells,
            links: Vec::new(),
            segments: Vec::new(),
            stars: Vec::new(),
            killed: Vec::new(),
            inset: 1,
            tile: unit - 1,
            notes: Vec::new(),
        }
    }

    /// Inset, picture size, shades, covered cells and tile size of a sheet built from rectangles.
    fn finish(&mut self, grid_parity: &[Option<u8>]) -> Result<(), String> {
        let lefts: HashSet<i64> = self.cells.iter().map(|c| c.rect[0]).collect();
        let tops: HashSet<i64> = self.cells.iter().map(|c| c.rect[1]).collect();
        let shares = self
            .cells
            .iter()
            .any(|c| lefts.contains(&c.rect[2]) || tops.contains(&c.rect[3]));
        self.inset = if shares { 0 } else { 1 };
        let all = self
            .cells
            .iter()
            .map(|c| c.rect)
            .chain(self.killed.iter().copied());
        let (mut x1, mut y1, mut x2, mut y2) = (i64::MAX, i64::MAX, 0, 0);
        for r in all {
            (x1, y1) = (x1.min(r[0]), y1.min(r[1]));
            (x2, y2) = (x2.max(r[2]), y2.max(r[3]));
        }
        // The right and bottom margins mirror the left and top ones.
        let (ml, mt) = ((x1 - self.inset).max(0), (y1 - self.inset).max(0));
        let (w, h) = (x2 + 1 + ml, y2 + 1 + mt);
        if w > MAX_SIDE as i64 || h > MAX_SIDE as i64 || (w * h) as u64 > MAX_PIXELS {
            return Err(format!(
                "the board's rectangles need a {w}×{h} picture; zogkit draws at most {MAX_SIDE} px a side and {MAX_PIXELS} pixels"
            ));
        }
        let painted: u64 = self
            .cells
            .iter()
            .map(|c| {
                let (cw, ch) = c.size();
                (cw.min(w) * ch.min(h)) as u64
            })
            .sum();
        if painted > MAX_PAINTED {
            return Err(format!(
                "the board's {} cells cover {painted} pixels between them; zogkit paints at most {MAX_PAINTED}",
                self.cells.len()
            ));
        }
        (self.width, self.height) = (w as u32, h as u32);
        self.mark_covered();
        self.shade(grid_parity);
        self.tile = self.tile_size()?;
        Ok(())
    }

    /// Marks rectangular cells whose drawn area (rectangle and outline) overlaps another's
    /// (levels drawn over each other, tracks laid over a grid).
    fn mark_covered(&mut self) {
        // Hexagons and dots are drawn at the lattice's pitch, never over each other.
        if self.style != SheetStyle::Checkered {
            return;
        }
        let e = self.inset;
        let mut order: Vec<usize> = (0..self.cells.len()).collect();
        order.sort_by_key(|&i| self.cells[i].rect[0]);
        let mut covered = vec![false; self.cells.len()];
        let mut pairs = 0;
        for (k, &i) in order.iter().enumerate() {
            let a = self.cells[i].rect;
            for &j in &order[k + 1..] {
                pairs += 1;
                if pairs > MAX_PAIRS {
                    // Pathologically many overlaps: validate no cell's pixels exactly.
                    covered.iter_mut().for_each(|c| *c = true);
                    break;
                }
                let b = self.cells[j].rect;
                if b[0] - e >= a[2] {
                    break;
                }
                if b[1] - e < a[3] && a[1] - e < b[3] {
                    covered[i] = true;
                    covered[j] = true;
                }
            }
        }
        for (c, v) in self.cells.iter_mut().zip(covered) {
            c.covered = v;
        }
    }

    /// Fill classes of the checkered twin: grid parity where known, else the rectangle's place
    /// in units of its own size; hex cells take three classes, greedily around each cell.
    fn shade(&mut self, grid_parity: &[Option<u8>]) {
        if self.style == SheetStyle::Hex {
            let (near, _) = self.near_cells();
            let mut shades: Vec<Option<u8>> = vec![None; self.cells.len()];
            for i in 0..self.cells.len() {
                let used: BTreeSet<u8> = near[i].iter().filter_map(|&j| shades[j]).collect();
                shades[i] = Some((0..3).find(|s| !used.contains(s)).unwrap_or(0));
            }
            for (c, s) in self.cells.iter_mut().zip(shades) {
                c.shade = s.unwrap_or(0);
            }
            return;
        }
        for (c, parity) in self.cells.iter_mut().zip(grid_parity) {
            c.shade = parity.unwrap_or_else(|| {
                let (w, h) = c.size();
                let (cx, cy) = c.centre();
                ((cx.div_euclid(w.max(1)) + cy.div_euclid(h.max(1))) % 2) as u8
            });
        }
    }

    /// Per cell, the cells whose centres lie at (nearly) the shortest distance to any other
    /// centre: a hexagonal lattice's six neighbours, whatever the links say. Centres are
    /// hashed into buckets of the median cell side, so this is linear in the cells.
    fn near_cells(&self) -> (Vec<Vec<usize>>, Vec<f64>) {
        let side = median_side(&self.cells).max(1.0);
        let key = |c: &SheetCell| {
            let (x, y) = c.centre();
            (
                (x as f64 / side).floor() as i64,
                (y as f64 / side).floor() as i64,
            )
        };
        let mut buckets: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
        for (i, c) in self.cells.iter().enumerate() {
            buckets.entry(key(c)).or_default().push(i);
        }
        let mut found = vec![Vec::new(); self.cells.len()];
        let mut best = vec![f64::INFINITY; self.cells.len()];
        for (i, c) in self.cells.iter().enumerate() {
            let (bx, by) = key(c);
            for dx in -2..=2 {
                for dy in -2..=2 {
                    for &j in buckets
                        .get(&(bx + dx, by + dy))
                        .map_or(&[][..], Vec::as_slice)
                    {
                        let d = dist(c, &self.cells[j]);
                        if j != i && d > 0.0 {
                            found[i].push((j, d));
                            best[i] = best[i].min(d);
                        }
                    }
                }
            }
        }
        let near = found
            .into_iter()
            .zip(&best)
            .map(|(f, &b)| {
                f.into_iter()
                    .filter(|&(_, d)| d <= b * 1.15)
                    .map(|(j, _)| j)
                    .collect()
            })
            .collect();
        (near, best)
    }

    /// Per cell, the length of its shortest link (infinite without links).
    fn nearest(&self) -> Vec<f64> {
        let mut nearest = vec![f64::INFINITY; self.cells.len()];
        for &(a, b) in &self.links {
            let d = dist(&self.cells[a], &self.cells[b]);
            if d > 0.0 {
                nearest[a] = nearest[a].min(d);
                nearest[b] = nearest[b].min(d);
            }
        }
        nearest
    }

    /// The tile edge: the typical cell interior (points: most of the distance between linked
    /// points); at least 12 px, which pieces need.
    fn tile_size(&mut self) -> Result<u32, String> {
        let side = median_side(&self.cells);
        let interior = side - (1 - self.inset) as f64;
        let d = self.pitch();
        let tile = match (self.style, d) {
            (SheetStyle::Checkered, _) | (_, None) => interior,
            // The hexagon's inscribed circle has the pitch as diameter.
            (SheetStyle::Hex, Some(d)) => (d * 0.85).floor(),
            (SheetStyle::Points | SheetStyle::Lines, Some(d)) => {
                interior.max((d * 0.6).floor()).min(d - 2.0)
            }
        };
        let tile = tile.clamp(0.0, 512.0) as u32;
        if tile < 12 {
            self.notes.push(format!(
                "cells of {side} px are smaller than the smallest legible piece; pieces are drawn at 12 px and overlap their neighbours (--unit redraws the grid larger)"
            ));
        }
        Ok(tile.max(12))
    }

    /// Radius of a point's dot (points style).
    pub fn dot_radius(&self) -> f32 {
        let d = self.pitch().map_or(self.tile as f32, |d| d as f32);
        (d * 0.12).clamp(2.0, 8.0)
    }

    /// The typical distance between neighbours: for hex cells between centres, otherwise
    /// between linked cells (the median of each cell's shortest).
    pub fn pitch(&self) -> Option<f64> {
        if self.style == SheetStyle::Hex {
            let d = median(
                self.near_cells()
                    .1
                    .into_iter()
                    .filter(|d| d.is_finite())
                    .collect(),
            );
            return d.is_finite().then_some(d);
        }
        let d = median(
            self.nearest()
                .into_iter()
                .filter(|d| d.is_finite())
                .collect(),
        );
        (d.is_finite() && d > 0.0).then_some(d)
    }

    /// Whether hexagons stand on a point (some neighbour lies level with its cell) or on a side.
    fn pointy(&self) -> bool {
        self.near_cells().0.iter().enumerate().any(|(a, n)| {
            n.iter()
                .any(|&b| self.cells[a].centre().1 == self.cells[b].centre().1)
        })
    }

    /// Where a `w`×`h` tile goes on the cell: centred on its interior, as ZoG centres pieces.
    pub fn tile_origin(&self, cell: usize, w: u32, h: u32) -> (i64, i64) {
        let [x1, y1, x2, y2] = self.cells[cell].rect;
        let e = 1 - self.inset;
        let (ix, iy) = (x1 + e, y1 + e);
        let (iw, ih) = (x2 - ix, y2 - iy);
        (
            ix + (iw - w as i64).div_euclid(2),
            iy + (ih - h as i64).div_euclid(2),
        )
    }
}

impl SheetStyle {
    /// The style a board's cells suggest (module docs).
    /// `hex_grid`: the board has a grid whose first two dimensions meet at 60° or 120°.
    pub fn detect(cells: &[SheetCell], links: &[(usize, usize)], hex_grid: bool) -> SheetStyle {
        let probe = Sheet {
            width: 0,
            height: 0,
            style: SheetStyle::Checkered,
            cells: cells.to_vec(),
            links: links.to_vec(),
            segments: Vec::new(),
            stars: Vec::new(),
            killed: Vec::new(),
            inset: 1,
            tile: 0,
            notes: Vec::new(),
        };
        // Points: linked neighbours' rectangles stand apart (a gap of over a quarter of a
        // side between them), where cells would touch, at an edge or a corner.
        let mut gap = vec![f64::INFINITY; cells.len()];
        for &(a, b) in links {
            let ((ax, ay), (bx, by)) = (cells[a].centre(), cells[b].centre());
            let ((aw, ah), (bw, bh)) = (cells[a].size(), cells[b].size());
            let gx = ((ax - bx).abs() as f64 - (aw + bw) as f64 / 2.0).max(0.0);
            let gy = ((ay - by).abs() as f64 - (ah + bh) as f64 / 2.0).max(0.0);
            let g = gx.max(gy);
            gap[a] = gap[a].min(g);
            gap[b] = gap[b].min(g);
        }
        let gap = median(gap.into_iter().filter(|g| g.is_finite()).collect());
        let side = median_side(cells);
        if gap.is_finite() && gap > 0.25 * side {
            return SheetStyle::Points;
        }
        // Hex: a quarter of the cells have five or six neighbours (distinct centres) at their
        // shortest distance, as on a hexagonal lattice.
        let (near, _) = probe.near_cells();
        let six = near
            .iter()
            .filter(|n| {
                let centres: BTreeSet<(i64, i64)> = n.iter().map(|&j| cells[j].centre()).collect();
                centres.len() >= 5
            })
            .count();
        if hex_grid || (!cells.is_empty() && six * 4 >= cells.len()) {
            SheetStyle::Hex
        } else {
            SheetStyle::Checkered
        }
    }
}

/// Whether two grid offsets meet at 60° or 120° (within 5°), as the axes of a hexagonal grid.
fn hex_angle(a: [i64; 2], b: [i64; 2]) -> bool {
    let (ax, ay, bx, by) = (a[0] as f64, a[1] as f64, b[0] as f64, b[1] as f64);
    let (na, nb) = (ax.hypot(ay), bx.hypot(by));
    if na == 0.0 || nb == 0.0 {
        return false;
    }
    let angle = ((ax * bx + ay * by) / (na * nb))
        .clamp(-1.0, 1.0)
        .acos()
        .to_degrees();
    (angle - 60.0).abs() < 5.0 || (angle - 120.0).abs() < 5.0
}

/// Whether hexagons around `a` and `b` meet along a side: the direction between them is one
/// of the six a hexagon of this orientation faces (within 5°).
fn edge_to_edge(a: &SheetCell, b: &SheetCell, pointy: bool) -> bool {
    let ((ax, ay), (bx, by)) = (a.centre(), b.centre());
    let angle = ((by - ay) as f64)
        .atan2((bx - ax) as f64)
        .to_degrees()
        .rem_euclid(60.0);
    let want = if pointy { 0.0 } else { 30.0 };
    let off = (angle - want).abs();
    off.min(60.0 - off) < 5.0
}

fn dist(a: &SheetCell, b: &SheetCell) -> f64 {
    let ((ax, ay), (bx, by)) = (a.centre(), b.centre());
    (((ax - bx).pow(2) + (ay - by).pow(2)) as f64).sqrt()
}

/// The median of the cells' shorter sides.
fn median_side(cells: &[SheetCell]) -> f64 {
    median(
        cells
            .iter()
            .map(|c| {
                let (w, h) = c.size();
                w.min(h) as f64
            })
            .collect(),
    )
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::INFINITY;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Third fill of checkered hex boards.
const HEX_THIRD: Rgb = Rgb(0xB0, 0x88, 0x50);

/// What a cell is filled with: zone colour, checkered shade or the plain fill.
pub fn cell_fill(
    sheet: &Sheet,
    cell: usize,
    colours: &BoardColours,
    checkered: bool,
    zones: &BTreeMap<usize, Rgb>,
) -> Rgb {
    if let Some(&z) = zones.get(&cell) {
        return z;
    }
    match (checkered, sheet.cells[cell].shade) {
        (false, _) | (true, 0) => colours.fill,
        (true, 1) => colours.alternate,
        _ => HEX_THIRD,
    }
}

/// Paints a sheet: the surround, then every cell (zones given as cell → colour) and, for
/// points, the links. Killed positions are left as surround.
pub fn draw_sheet(
    sheet: &Sheet,
    colours: &BoardColours,
    checkered: bool,
    zones: &BTreeMap<usize, Rgb>,
) -> Result<Pixmap, RenderError> {
    let mut img = filled(sheet.width, sheet.height, colours.surround)?;
    match sheet.style {
        SheetStyle::Checkered => draw_rects(&mut img, sheet, colours, checkered, zones),
        SheetStyle::Hex => draw_hexes(&mut img, sheet, colours, checkered, zones),
        SheetStyle::Points => draw_points(&mut img, sheet, colours, zones, true),
        SheetStyle::Lines => draw_points(&mut img, sheet, colours, zones, false),
    }
    Ok(img)
}

/// Fills the pixels `x0..=x1` × `y0..=y1`, clipped to the picture.
fn fill(img: &mut Pixmap, x0: i64, y0: i64, x1: i64, y1: i64, c: Rgb) {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let (x0, x1) = (x0.max(0), x1.min(w - 1));
    if x0 > x1 {
        return;
    }
    let data = img.data_mut();
    for y in y0.max(0)..=y1.min(h - 1) {
        let row = ((y * w + x0) * 4) as usize;
        for p in data[row..row + ((x1 - x0 + 1) * 4) as usize].chunks_exact_mut(4) {
            p.copy_from_slice(&[c.0, c.1, c.2, 255]);
        }
    }
}

fn draw_rects(
    img: &mut Pixmap,
    sheet: &Sheet,
    colours: &BoardColours,
    checkered: bool,
    zones: &BTreeMap<usize, Rgb>,
) {
    let e = sheet.inset;
    for (i, c) in sheet.cells.iter().enumerate() {
        let [x1, y1, x2, y2] = c.rect;
        let (l, t) = (x1 - e, y1 - e);
        fill(img, l, t, x2, y2, colours.lines);
        let f = cell_fill(sheet, i, colours, checkered, zones);
        fill(img, l + 1, t + 1, x2 - 1, y2 - 1, f);
    }
}

fn paint(c: Rgb, aa: bool) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(c.to_color());
    p.anti_alias = aa;
    p
}

/// A filled, anti-aliased disc of radius `r` centred on `(x, y)`.
fn fill_disc(img: &mut Pixmap, (x, y): (f32, f32), r: f32, c: Rgb) {
    if let Some(dot) = PathBuilder::from_circle(x, y, r) {
        img.fill_path(
            &dot,
            &paint(c, true),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
}

/// A regular hexagon around `(cx, cy)` whose opposite sides are `pitch` apart; standing on a
/// point (`pointy`) or on a side.
fn hexagon(cx: f32, cy: f32, pitch: f32, pointy: bool) -> Option<tiny_skia::Path> {
    let r = pitch / 3f32.sqrt();
    let turn = if pointy {
        std::f32::consts::FRAC_PI_6
    } else {
        0.0
    };
    let mut pb = PathBuilder::new();
    for k in 0..6 {
        let a = std::f32::consts::FRAC_PI_3 * k as f32 + turn;
        let (x, y) = (cx + a.cos() * r, cy + a.sin() * r);
        if k == 0 {
            pb.move_to(x, y);
        } else {
            pb.line_to(x, y);
        }
    }
    pb.close();
    pb.finish()
}

fn draw_hexes(
    img: &mut Pixmap,
    sheet: &Sheet,
    colours: &BoardColours,
    checkered: bool,
    zones: &BTreeMap<usize, Rgb>,
) {
    let stroke = Stroke {
        width: 1.0,
        ..Stroke::default()
    };
    let pointy = sheet.pointy();
    // Each hexagon reaches half way to its nearest neighbour, so lattices of different
    // pitches (a board and its reserves) each close up.
    let (_, nearest) = sheet.near_cells();
    for (i, c) in sheet.cells.iter().enumerate() {
        let pitch = if nearest[i].is_finite() {
            nearest[i]
        } else {
            let (w, h) = c.size();
            w.min(h) as f64
        } as f32;
        let (cx, cy) = c.centre();
        let Some(path) = hexagon(cx as f32 + 0.5, cy as f32 + 0.5, pitch, pointy) else {
            continue;
        };
        let f = cell_fill(sheet, i, colours, checkered, zones);
        let t = Transform::identity();
        img.fill_path(&path, &paint(f, false), FillRule::Winding, t, None);
        img.stroke_path(&path, &paint(colours.lines, true), &stroke, t, None);
    }
}

/// Points and lines boards: the fill, zone shading, a line along every segment and, for
/// points (`dots`), a dot per position. Lines boards shade a zone's cells as squares under the
/// lines and draw crisp odd-width lines whose square caps cover the end points' centres.
fn draw_points(
    img: &mut Pixmap,
    sheet: &Sheet,
    colours: &BoardColours,
    zones: &BTreeMap<usize, Rgb>,
    dots: bool,
) {
    fill(
        img,
        0,
        0,
        img.width() as i64,
        img.height() as i64,
        colours.fill,
    );
    let d = sheet.pitch().map_or(sheet.tile as f32, |d| d as f32);
    let stroke = if dots {
        Stroke {
            width: (d / 24.0).clamp(1.0, 3.0),
            ..Stroke::default()
        }
    } else {
        Stroke {
            width: if d >= 60.0 { 3.0 } else { 1.0 },
            line_cap: tiny_skia::LineCap::Square,
            ..Stroke::default()
        }
    };
    if !dots {
        let e = 1 - sheet.inset;
        for (&i, &z) in zones {
            if let Some(c) = sheet.cells.get(i) {
                let [x1, y1, x2, y2] = c.rect;
                fill(img, x1 + e, y1 + e, x2 - 1, y2 - 1, z);
            }
        }
    }
    let mut pb = PathBuilder::new();
    for &(a, b) in &sheet.segments {
        let ((ax, ay), (bx, by)) = (sheet.cells[a].centre(), sheet.cells[b].centre());
        pb.move_to(ax as f32 + 0.5, ay as f32 + 0.5);
        pb.line_to(bx as f32 + 0.5, by as f32 + 0.5);
    }
    if let Some(path) = pb.finish() {
        img.stroke_path(
            &path,
            &paint(colours.lines, true),
            &stroke,
            Transform::identity(),
            None,
        );
    }
    if !dots {
        // Star points: a dot a little wider than the lines.
        let r = (d * 0.12).clamp(2.5, 6.0);
        for &i in &sheet.stars {
            let Some(c) = sheet.cells.get(i) else {
                continue;
            };
            let (cx, cy) = c.centre();
            fill_disc(img, (cx as f32 + 0.5, cy as f32 + 0.5), r, colours.lines);
        }
        return;
    }
    let r = sheet.dot_radius();
    for (i, c) in sheet.cells.iter().enumerate() {
        let (cx, cy) = c.centre();
        let (x, y) = (cx as f32 + 0.5, cy as f32 + 0.5);
        if let Some(z) = zones.get(&i) {
            fill_disc(img, (x, y), r * 2.0, *z);
        }
        fill_disc(img, (x, y), r, colours.lines);
    }
}

/// Lines boards: the middle pixel of every horizontal or vertical line is in the line colour
/// (so a line joins each pair of linked points it should).
fn validate_lines(img: &Pixmap, sheet: &Sheet, lines: Rgb, subject: &str) -> Vec<ValidationError> {
    let mut out = Vec::new();
    for &(a, b) in &sheet.segments {
        let ((ax, ay), (bx, by)) = (sheet.cells[a].centre(), sheet.cells[b].centre());
        let (mx, my) = ((ax + bx).div_euclid(2), (ay + by).div_euclid(2));
        let straight = ax == bx || ay == by;
        if !straight || mx < 0 || my < 0 || mx >= img.width() as i64 || my >= img.height() as i64 {
            continue;
        }
        let got = px(img, mx as u32, my as u32).0;
        if got != lines {
            out.push(ValidationError {
                check: "position-on-cell",
                subject: subject.to_string(),
                location: Location::Pixel(mx as u32, my as u32),
                message: format!(
                    "no line between {} and {}: {got} where the line is {lines}",
                    sheet.cells[a].name, sheet.cells[b].name
                ),
            });
            break;
        }
    }
    out
}

/// Checks a drawn sheet from its pixels: its size; opaque and free of the transparency key;
/// every uncovered position's rectangle on its cell (the interior's centre and corners in the
/// cell's fill, or the dot of a point); killed positions left out (their centre in the surround
/// colour unless a drawn cell lies there).
pub fn validate_sheet(
    img: &Pixmap,
    sheet: &Sheet,
    colours: &BoardColours,
    checkered: bool,
    zones: &BTreeMap<usize, Rgb>,
    subject: &str,
) -> Vec<ValidationError> {
    let err = |check: &'static str, location: Location, message: String| ValidationError {
        check,
        subject: subject.to_string(),
        location,
        message,
    };
    if (img.width(), img.height()) != (sheet.width, sheet.height) {
        return vec![err(
            "board-size",
            Location::Image,
            format!(
                "board is {}×{}; its positions' rectangles need {}×{}",
                img.width(),
                img.height(),
                sheet.width,
                sheet.height
            ),
        )];
    }
    let mut out = Vec::new();
    'key: for y in 0..img.height() {
        for x in 0..img.width() {
            let (c, a) = px(img, x, y);
            if a != 255 || c.is_near_green() {
                out.push(err(
                    "key",
                    Location::Pixel(x, y),
                    format!("{c} with alpha {a}; boards are opaque and never use the key"),
                ));
                break 'key;
            }
        }
    }
    let (w, h) = (img.width() as i64, img.height() as i64);
    let inside = |x: i64, y: i64| (0..w).contains(&x) && (0..h).contains(&y);
    let at = |x: i64, y: i64| px(img, x as u32, y as u32).0;
    let near = match sheet.style {
        SheetStyle::Hex => sheet.near_cells(),
        _ => (Vec::new(), Vec::new()),
    };
    let r = sheet.dot_radius() as i64 - 1;
    let pointy = sheet.style == SheetStyle::Hex && sheet.pointy();
    let mut on_line = vec![false; sheet.cells.len()];
    for &(a, b) in &sheet.segments {
        on_line[a] = true;
        on_line[b] = true;
    }
    if sheet.style == SheetStyle::Lines {
        out.extend(validate_lines(img, sheet, colours.lines, subject));
    }
    for (i, c) in sheet.cells.iter().enumerate() {
        let (cx, cy) = c.centre();
        let want = match sheet.style {
            SheetStyle::Points => colours.lines,
            SheetStyle::Lines if on_line[i] => colours.lines,
            // A point no line reaches shows the fill or its zone: nothing to probe.
            SheetStyle::Lines => continue,
            _ => cell_fill(sheet, i, colours, checkered, zones),
        };
        let [x1, y1, x2, y2] = c.rect;
        let e = 1 - sheet.inset;
        // A rectangle too small to have an interior is all outline: nothing to probe.
        if sheet.style == SheetStyle::Checkered && (x2 - 1 < x1 + e || y2 - 1 < y1 + e) {
            continue;
        }
        let mut probes = vec![(cx, cy)];
        match sheet.style {
            SheetStyle::Checkered => probes.extend([
                (x1 + e, y1 + e),
                (x2 - 1, y2 - 1),
                (x1 + e, y2 - 1),
                (x2 - 1, y1 + e),
            ]),
            SheetStyle::Points if r > 0 => {
                probes.extend([(cx - r, cy), (cx + r, cy), (cx, cy - r), (cx, cy + r)])
            }
            _ => {}
        }
        // Hex: the edge shared with the nearest neighbour carries the outline.
        // (Between hexagons of one size that face each other with a side.)
        if let Some(&j) = near.0.get(i).and_then(|n| n.first())
            && (near.1[i] - near.1[j]).abs() <= 0.05 * near.1[i]
            && edge_to_edge(c, &sheet.cells[j], pointy)
        {
            let (nx, ny) = sheet.cells[j].centre();
            let (mx, my) = ((cx + nx) / 2, (cy + ny) / 2);
            if inside(mx, my) && at(mx, my) == want {
                out.push(err(
                    "position-on-cell",
                    Location::Pixel(mx as u32, my as u32),
                    format!(
                        "position {} ({x1} {y1} {x2} {y2}): no outline between it and {}",
                        c.name, sheet.cells[j].name
                    ),
                ));
            }
        }
        for (x, y) in probes {
            if c.covered || !inside(x, y) {
                continue;
            }
            let got = at(x, y);
            if got != want {
                out.push(err(
                    "position-on-cell",
                    Location::Pixel(x as u32, y as u32),
                    format!(
                        "position {} ({x1} {y1} {x2} {y2}): {got} where its cell is {want}",
                        c.name
                    ),
                ));
                break;
            }
        }
    }
    for r in &sheet.killed {
        let (cx, cy) = ((r[0] + r[2]) / 2, (r[1] + r[3]) / 2);
        let covers = |c: &SheetCell| {
            let [x1, y1, x2, y2] = c.rect;
            (x1 - 1..=x2).contains(&cx) && (y1 - 1..=y2).contains(&cy)
        };
        let surround = match sheet.style {
            SheetStyle::Points | SheetStyle::Lines => continue,
            _ => colours.surround,
        };
        if inside(cx, cy) && !sheet.cells.iter().any(covers) && at(cx, cy) != surround {
            out.push(err(
                "killed-drawn",
                Location::Pixel(cx as u32, cy as u32),
                format!(
                    "a killed position's centre is {}, not the surround {surround}",
                    at(cx, cy)
                ),
            ));
        }
    }
    out
}
