//! Board bitmaps for rectangular grids: crisp 1-px lines every `unit` pixels, optional
//! checkering, zone shading and coordinate labels in a margin (rendering.md §2).

use super::fonts::FontSet;
use super::sheet::{Sheet, draw_sheet};
use super::{RenderError, RenderWarning, Rendered, Rgb};
use std::collections::BTreeMap;
use std::sync::Mutex;
use tiny_skia::Pixmap;

/// Board colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardColours {
    /// Cell fill (and margin), wood `#DEB878`.
    pub fill: Rgb,
    /// Second colour of the checkered variant, `#C8A064`.
    pub alternate: Rgb,
    /// Grid lines, black.
    pub lines: Rgb,
    /// Label text, black.
    pub labels: Rgb,
    /// Around and between the cells of a board drawn at its author's coordinates (killed
    /// positions, margins), a light `#F4EFE4`; grids zogkit lays out use `fill` there.
    pub surround: Rgb,
}

impl Default for BoardColours {
    fn default() -> Self {
        BoardColours {
            fill: Rgb(0xDE, 0xB8, 0x78),
            alternate: Rgb(0xC8, 0xA0, 0x64),
            lines: Rgb::BLACK,
            labels: Rgb::BLACK,
            surround: Rgb(0xF4, 0xEF, 0xE4),
        }
    }
}

/// A set of cells painted in one colour (promotion zones, camps, rivers).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Zone {
    /// Cells as (column, row), 0-based from the top left of the picture.
    pub cells: Vec<(u32, u32)>,
    /// Opaque colour of the cell interiors; must differ from the line colour.
    pub colour: Rgb,
}

/// Coordinate labels drawn in a margin around the grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AxisLabels {
    /// One label per column, left to right (drawn above and below the grid).
    pub files: Vec<String>,
    /// One label per row, top to bottom (drawn left and right of the grid).
    pub ranks: Vec<String>,
}

impl AxisLabels {
    /// The seed's Japanese labels: files N…1 from left to right, ranks i, ii, … from the top.
    pub fn japanese(files: u32, ranks: u32) -> AxisLabels {
        AxisLabels {
            files: (1..=files).rev().map(|f| f.to_string()).collect(),
            ranks: (1..=ranks).map(roman).collect(),
        }
    }

    /// Western labels: files a, b, … from the left, ranks N…1 from the top.
    pub fn western(files: u32, ranks: u32) -> AxisLabels {
        AxisLabels {
            files: (0..files).map(letters).collect(),
            ranks: (1..=ranks).rev().map(|r| r.to_string()).collect(),
        }
    }
}

/// Lower-case Roman numeral (1 → i, 25 → xxv).
pub fn roman(mut n: u32) -> String {
    const T: [(u32, &str); 13] = [
        (1000, "m"),
        (900, "cm"),
        (500, "d"),
        (400, "cd"),
        (100, "c"),
        (90, "xc"),
        (50, "l"),
        (40, "xl"),
        (10, "x"),
        (9, "ix"),
        (5, "v"),
        (4, "iv"),
        (1, "i"),
    ];
    let mut s = String::new();
    for (v, r) in T {
        while n >= v {
            s.push_str(r);
            n -= v;
        }
    }
    s
}

/// Spreadsheet-style column letters (0 → a, 25 → z, 26 → aa).
fn letters(mut n: u32) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'a' + (n % 26) as u8);
        if n < 26 {
            break;
        }
        n = n / 26 - 1;
    }
    s.reverse();
    String::from_utf8(s).unwrap_or_default()
}

/// What board to draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardStyle {
    /// Columns.
    pub files: u32,
    /// Rows.
    pub ranks: u32,
    /// Cell pitch: interior plus one line (31 for the seed).
    pub unit: u32,
    /// Alternate the two fills like a chequerboard, to make diagonals visible.
    pub checkered: bool,
    /// Shaded cells, painted in order over the fill.
    pub zones: Vec<Zone>,
    /// Coordinate labels; when present a margin is added around the grid.
    pub labels: Option<AxisLabels>,
    /// Colours.
    pub colours: BoardColours,
}

impl BoardStyle {
    /// A plain board with the seed's 31-pixel unit.
    pub fn new(files: u32, ranks: u32) -> BoardStyle {
        BoardStyle {
            files,
            ranks,
            unit: 31,
            checkered: false,
            zones: Vec::new(),
            labels: None,
            colours: BoardColours::default(),
        }
    }
}

/// Pixel geometry of a board picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardGeometry {
    /// Columns.
    pub files: u32,
    /// Rows.
    pub ranks: u32,
    /// Cell pitch.
    pub unit: u32,
    /// Margin on every side (0 without labels).
    pub margin: u32,
}

impl BoardGeometry {
    /// The geometry a style produces.
    pub fn of(style: &BoardStyle) -> BoardGeometry {
        BoardGeometry {
            files: style.files,
            ranks: style.ranks,
            unit: style.unit,
            margin: if style.labels.is_some() {
                (style.unit * 3).div_ceil(5)
            } else {
                0
            },
        }
    }

    /// Picture width: unit·files + 1 + 2·margin.
    pub fn width(&self) -> u32 {
        self.unit * self.files + 1 + 2 * self.margin
    }

    /// Picture height: unit·ranks + 1 + 2·margin.
    pub fn height(&self) -> u32 {
        self.unit * self.ranks + 1 + 2 * self.margin
    }

    /// Pixel position of grid line k (the same for x and y): margin + unit·k.
    pub fn line(&self, k: u32) -> u32 {
        self.margin + self.unit * k
    }

    /// First interior pixel (x, y) of cell (col, row).
    pub fn cell_origin(&self, col: u32, row: u32) -> (u32, u32) {
        (self.line(col) + 1, self.line(row) + 1)
    }

    /// Top-left pixel at which a `tile`-pixel piece is centred on cell (col, row)'s interior.
    /// May be left of or above the cell when the tile is larger than the interior.
    pub fn tile_origin(&self, col: u32, row: u32, tile: u32) -> (i64, i64) {
        let (x, y) = self.cell_origin(col, row);
        let off = (self.unit as i64 - 1 - tile as i64).div_euclid(2);
        (x as i64 + off, y as i64 + off)
    }

    /// ZRF `(start-rectangle L T R B)` for the first position, counting pixels as the seed does
    /// (`1 1 31 31` without margin).
    pub fn start_rectangle(&self) -> [u32; 4] {
        let m = self.margin;
        [m + 1, m + 1, m + self.unit, m + self.unit]
    }
}

/// Draws a board. Without labels it needs no fonts, but takes them for a uniform API.
pub fn render_board(style: &BoardStyle, fonts: &FontSet) -> Result<Rendered, RenderError> {
    if style.files == 0 || style.ranks == 0 || style.files > 256 || style.ranks > 256 {
        return Err(RenderError::Size(format!(
            "{}×{} board: files and ranks must be 1…256",
            style.files, style.ranks
        )));
    }
    if !(4..=512).contains(&style.unit) {
        return Err(RenderError::Size(format!(
            "unit {} px is outside 4…512",
            style.unit
        )));
    }
    let g = BoardGeometry::of(style);
    let c = &style.colours;
    let mut warnings = Vec::new();
    let sheet = Sheet::of_grid(g.files, g.ranks, g.unit, g.margin);
    let mut zones = BTreeMap::new();
    for (zi, zone) in style.zones.iter().enumerate() {
        for &(col, row) in &zone.cells {
            if col < g.files && row < g.ranks {
                zones.insert((row * g.files + col) as usize, zone.colour);
            } else {
                warnings.push(RenderWarning {
                    code: "render::zone-off-board",
                    subject: format!("zone {zi}"),
                    message: format!(
                        "cell ({col},{row}) is off the {}×{} board",
                        g.files, g.ranks
                    ),
                });
            }
        }
    }
    let colours = BoardColours {
        surround: c.fill,
        ..*c
    };
    let mut img = draw_sheet(&sheet, &colours, style.checkered, &zones)?;
    if let Some(labels) = &style.labels {
        draw_labels(&mut img, &g, labels, c.labels, fonts, &mut warnings)?;
    }
    Ok(Rendered {
        pixmap: img,
        warnings,
    })
}

fn draw_labels(
    img: &mut Pixmap,
    g: &BoardGeometry,
    labels: &AxisLabels,
    colour: Rgb,
    fonts: &FontSet,
    warnings: &mut Vec<RenderWarning>,
) -> Result<(), RenderError> {
    if labels.files.len() != g.files as usize || labels.ranks.len() != g.ranks as usize {
        warnings.push(RenderWarning {
            code: "render::label-count",
            subject: "board labels".into(),
            message: format!(
                "{} file and {} rank labels for a {}×{} board; extra labels are ignored",
                labels.files.len(),
                labels.ranks.len(),
                g.files,
                g.ranks
            ),
        });
    }
    let m = g.margin as f32;
    let unit = g.unit as f32;
    let nominal = (0.3 * unit).max(6.0);
    // One size for all labels: the largest that lets the widest label fit the margin.
    let widest = labels
        .files
        .iter()
        .chain(&labels.ranks)
        .map(|l| fonts.text_width(l, nominal))
        .fold(0.0f32, f32::max);
    let size = if widest > m - 3.0 {
        nominal * (m - 3.0) / widest
    } else {
        nominal
    };
    let cap = 0.733 * size;
    let centre = |k: u32| g.line(k) as f32 + unit / 2.0 + 0.5;
    let far = (g.width() as f32, g.height() as f32);
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}">"#,
        g.width(),
        g.height()
    );
    for (i, l) in labels.files.iter().take(g.files as usize).enumerate() {
        let x = centre(i as u32);
        for y in [m / 2.0 + cap / 2.0, far.1 - m / 2.0 + cap / 2.0] {
            svg.push_str(&fonts.text_element(x, y, size, colour, "middle", l));
        }
    }
    for (i, l) in labels.ranks.iter().take(g.ranks as usize).enumerate() {
        let y = centre(i as u32) + cap / 2.0;
        for x in [m / 2.0, far.0 - m / 2.0] {
            svg.push_str(&fonts.text_element(x, y, size, colour, "middle", l));
        }
    }
    svg.push_str("</svg>");
    let missing = Mutex::new(Vec::new());
    fonts.draw(&svg, &mut img.as_mut(), &missing)?;
    for ch in missing.into_inner().unwrap_or_default() {
        warnings.push(RenderWarning {
            code: "render::missing-glyph",
            subject: "board labels".into(),
            message: format!("no font has '{ch}' (U+{:04X}); it is left out", ch as u32),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::px;

    #[test]
    fn seed_geometry_25x25() {
        let fonts = FontSet::bundled();
        let style = BoardStyle::new(25, 25);
        let r = render_board(&style, &fonts).unwrap();
        assert_eq!((r.pixmap.width(), r.pixmap.height()), (776, 776));
        let g = BoardGeometry::of(&style);
        assert_eq!(g.start_rectangle(), [1, 1, 31, 31]);
        assert_eq!(g.cell_origin(0, 0), (1, 1));
        assert_eq!(g.cell_origin(24, 24), (745, 745));
        assert_eq!(g.tile_origin(0, 0, 30), (1, 1));
        for k in 0..=25 {
            assert_eq!(px(&r.pixmap, 31 * k, 5).0, Rgb::BLACK);
            assert_eq!(px(&r.pixmap, 5, 31 * k).0, Rgb::BLACK);
        }
        assert_eq!(px(&r.pixmap, 1, 1).0, Rgb(0xDE, 0xB8, 0x78));
        assert_eq!(px(&r.pixmap, 30, 30).0, Rgb(0xDE, 0xB8, 0x78));
    }

    #[test]
    fn rectangular_checkered_with_zone() {
        let fonts = FontSet::bundled();
        let mut style = BoardStyle::new(9, 5);
        style.checkered = true;
        style.zones.push(Zone {
            cells: vec![(0, 4), (20, 20)],
            colour: Rgb(0xB4, 0xC8, 0xE6),
        });
        let r = render_board(&style, &fonts).unwrap();
        assert_eq!(
            (r.pixmap.width(), r.pixmap.height()),
            (31 * 9 + 1, 31 * 5 + 1)
        );
        assert_eq!(px(&r.pixmap, 1, 1).0, style.colours.fill);
        assert_eq!(px(&r.pixmap, 32, 1).0, style.colours.alternate);
        assert_eq!(px(&r.pixmap, 32, 32).0, style.colours.fill);
        assert_eq!(px(&r.pixmap, 10, 4 * 31 + 10).0, Rgb(0xB4, 0xC8, 0xE6));
        assert_eq!(r.warnings.len(), 1);
        assert_eq!(r.warnings[0].code, "render::zone-off-board");
    }

    #[test]
    fn labels_add_a_margin_and_ink() {
        let fonts = FontSet::bundled();
        let mut style = BoardStyle::new(25, 25);
        style.labels = Some(AxisLabels::japanese(25, 25));
        let r = render_board(&style, &fonts).unwrap();
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        let g = BoardGeometry::of(&style);
        assert_eq!(g.margin, 19);
        assert_eq!(r.pixmap.width(), 776 + 38);
        assert_eq!(g.start_rectangle(), [20, 20, 50, 50]);
        // Some label ink in the top margin above the first column, none in the corner.
        let ink = |x0: u32, x1: u32, y0: u32, y1: u32| {
            (y0..y1)
                .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                .filter(|&(x, y)| px(&r.pixmap, x, y).0 != style.colours.fill)
                .count()
        };
        assert!(ink(20, 50, 0, 19) > 10);
        assert_eq!(ink(0, 19, 0, 19), 0);
        assert!(ink(0, 19, 20, 50) > 5, "rank label i");
    }

    #[test]
    fn label_helpers() {
        assert_eq!(roman(25), "xxv");
        assert_eq!(roman(19), "xix");
        assert_eq!(letters(0), "a");
        assert_eq!(letters(26), "aa");
        let w = AxisLabels::western(8, 8);
        assert_eq!(w.files[7], "h");
        assert_eq!(w.ranks[0], "8");
        let j = AxisLabels::japanese(25, 25);
        assert_eq!(j.files[0], "25");
        assert_eq!(j.ranks[24], "xxv");
    }

    #[test]
    fn sizes_are_checked() {
        let fonts = FontSet::bundled();
        assert!(render_board(&BoardStyle::new(0, 5), &fonts).is_err());
        let mut s = BoardStyle::new(5, 5);
        s.unit = 2;
        assert!(render_board(&s, &fonts).is_err());
        s.unit = 40;
        assert_eq!(render_board(&s, &fonts).unwrap().pixmap.width(), 201);
    }
}
