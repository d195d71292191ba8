//! The index: one table row per game, pre-rendered once per sort order (`index.html` by title,
//! `index-by-<key>.html` for the others), so sorting needs no script.

use super::html::{self, escape, lang_of};
use super::{RoundTrip, SiteFile};
use std::cmp::Ordering;
use std::fmt::Write as _;

/// One row of the index: a game (with its variants), or a file without a game.
#[derive(Debug, Clone)]
pub struct Row {
    /// The game's title (empty for a file without a game).
    pub title: String,
    /// Its page, relative to the site's root.
    pub href: String,
    /// The input file as shown.
    pub file: String,
    /// The thumbnail (path, width, height), when the start position was drawn.
    pub thumb: Option<(String, u32, u32)>,
    /// Player names.
    pub players: Vec<String>,
    /// Piece types (not counting dummies).
    pub pieces: usize,
    /// Variants of this game: title and page.
    pub variants: Vec<(String, String)>,
    /// The file's errors and warnings.
    pub diagnostics: usize,
    /// The file's round-trip decision.
    pub roundtrip: RoundTrip,
}

/// A column the index can be sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    /// Title, A–Z (the main `index.html`).
    Title,
    /// File, A–Z.
    File,
    /// Number of players, most first.
    Players,
    /// Number of piece types, most first.
    Pieces,
    /// Number of variants, most first.
    Variants,
    /// Number of diagnostics, most first.
    Diagnostics,
    /// Round trip: failed, not run, passed.
    RoundTrip,
}

impl SortKey {
    /// Every key, in column order.
    pub const ALL: [SortKey; 7] = [
        SortKey::Title,
        SortKey::File,
        SortKey::Players,
        SortKey::Pieces,
        SortKey::Variants,
        SortKey::Diagnostics,
        SortKey::RoundTrip,
    ];

    /// The page sorted by this key.
    pub fn page(self) -> &'static str {
        match self {
            SortKey::Title => "index.html",
            SortKey::File => "index-by-file.html",
            SortKey::Players => "index-by-players.html",
            SortKey::Pieces => "index-by-pieces.html",
            SortKey::Variants => "index-by-variants.html",
            SortKey::Diagnostics => "index-by-diagnostics.html",
            SortKey::RoundTrip => "index-by-roundtrip.html",
        }
    }

    fn header(self) -> &'static str {
        match self {
            SortKey::Title => "Title",
            SortKey::File => "File",
            SortKey::Players => "Players",
            SortKey::Pieces => "Pieces",
            SortKey::Variants => "Variants",
            SortKey::Diagnostics => "Diagnostics",
            SortKey::RoundTrip => "Round trip",
        }
    }

    /// Text columns ascend; counts descend (the largest first); ties fall back to title, then file.
    fn compare(self, a: &Row, b: &Row) -> Ordering {
        let text = |x: &Row| {
            if x.title.is_empty() {
                x.file.to_lowercase()
            } else {
                x.title.to_lowercase()
            }
        };
        let rt = |x: &Row| match x.roundtrip {
            RoundTrip::Failed(_) => 0,
            RoundTrip::NotRun(_) => 1,
            RoundTrip::Passed => 2,
        };
        let first = match self {
            SortKey::Title => Ordering::Equal,
            SortKey::File => a.file.cmp(&b.file),
            SortKey::Players => b.players.len().cmp(&a.players.len()),
            SortKey::Pieces => b.pieces.cmp(&a.pieces),
            SortKey::Variants => b.variants.len().cmp(&a.variants.len()),
            SortKey::Diagnostics => b.diagnostics.cmp(&a.diagnostics),
            SortKey::RoundTrip => rt(a).cmp(&rt(b)),
        };
        first
            .then_with(|| text(a).cmp(&text(b)))
            .then_with(|| a.file.cmp(&b.file))
            .then_with(|| a.href.cmp(&b.href))
    }
}

/// Figures shown above the table.
#[derive(Debug, Clone, Default)]
pub struct Totals {
    /// Input files.
    pub files: usize,
    /// Games and variants with a page.
    pub pages: usize,
    /// Start positions drawn.
    pub pictures: usize,
    /// Entries shown with a placeholder.
    pub placeholders: usize,
    /// Files whose round trip passed, failed, was not run.
    pub roundtrip: [usize; 3],
}

/// Every index page and the style sheet.
pub fn index_pages(rows: &mut [Row], totals: &Totals) -> Vec<SiteFile> {
    let mut out = vec![SiteFile {
        path: "style.css".into(),
        bytes: html::CSS.as_bytes().to_vec(),
    }];
    for key in SortKey::ALL {
        rows.sort_by(|a, b| key.compare(a, b));
        out.push(SiteFile {
            path: key.page().into(),
            bytes: page(rows, key, totals).into_bytes(),
        });
    }
    out
}

fn page(rows: &[Row], key: SortKey, t: &Totals) -> String {
    let mut p = html::head("en", "zogkit catalogue", "style.css");
    let _ = writeln!(
        p,
        "<h1>Game catalogue</h1>\n<p class=\"summary\">{} files, {} games ({} pages with \
         variants); {} start positions drawn, {} without a picture; round trip: {} passed, {} \
         failed, {} not run. Sorted by {}; click a column header to sort by it.</p>",
        t.files,
        rows.iter().filter(|r| !r.title.is_empty()).count(),
        t.pages,
        t.pictures,
        t.placeholders,
        t.roundtrip[0],
        t.roundtrip[1],
        t.roundtrip[2],
        key.header().to_lowercase()
    );
    p.push_str("<table class=\"index\">\n<thead><tr>");
    for (i, k) in SortKey::ALL.into_iter().enumerate() {
        if i == 2 {
            p.push_str("<th>Board</th>");
        }
        let sort = if k == key {
            let dir = if matches!(k, SortKey::Title | SortKey::File | SortKey::RoundTrip) {
                "ascending"
            } else {
                "descending"
            };
            format!(" aria-sort=\"{dir}\"")
        } else {
            String::new()
        };
        let _ = write!(
            p,
            "<th{sort}><a href=\"{}\">{}</a></th>",
            k.page(),
            k.header()
        );
    }
    p.push_str("</tr></thead>\n<tbody>\n");
    for r in rows {
        row(&mut p, r);
    }
    p.push_str("</tbody>\n</table>\n");
    p.push_str(html::TAIL);
    p
}

fn row(p: &mut String, r: &Row) {
    let title = if r.title.is_empty() {
        "<em>(no game)</em>".to_string()
    } else {
        format!(
            "<span lang=\"{}\">{}</span>",
            lang_of(&r.title),
            escape(&r.title)
        )
    };
    let thumb = match &r.thumb {
        Some((src, w, h)) => format!(
            "<img src=\"{}\" width=\"{w}\" height=\"{h}\" alt=\"\" loading=\"lazy\">",
            escape(src)
        ),
        None => "<span class=\"placeholder\">no picture</span>".to_string(),
    };
    let players = r.players.join(", ");
    let variants: Vec<String> = r
        .variants
        .iter()
        .map(|(t, h)| {
            format!(
                "<a href=\"{}\" lang=\"{}\">{}</a>",
                escape(h),
                lang_of(t),
                escape(t)
            )
        })
        .collect();
    let variants = if variants.is_empty() {
        String::new()
    } else {
        format!("<div class=\"small\">{}</div>", variants.join(" · "))
    };
    let rt_class = match r.roundtrip {
        RoundTrip::Passed => "ok",
        RoundTrip::Failed(_) => "fail",
        RoundTrip::NotRun(_) => "na",
    };
    let _ = writeln!(
        p,
        "<tr><td><a href=\"{}\">{title}</a>{variants}</td><td class=\"small\">{}</td>\
         <td class=\"thumb\">{thumb}</td><td lang=\"{}\">{}</td><td class=\"n\">{}</td>\
         <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"{rt_class}\">{}</td></tr>",
        escape(&r.href),
        escape(&r.file),
        lang_of(&players),
        escape(&players),
        r.pieces,
        r.variants.len(),
        r.diagnostics,
        r.roundtrip.label()
    );
}
