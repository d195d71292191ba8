//! The page of one game or variant (start picture, texts, pieces, variants, diagnostics,
//! converted files), and the page of a file without a game.

use super::html::{self, escape, lang_of, paragraphs, span};
use super::picture::{Drawn, Pictures};
use super::{Converted, FileInput, FilePages, MAX_LISTED, RoundTrip, Row, SiteFile};
use crate::diag::{Diagnostic, Severity, SourceMap};
use crate::spec::{Document, EntryKind, Game, Texts};
use std::fmt::Write as _;

/// The file's reader diagnostics, located and rendered once for all its pages.
pub(crate) struct DiagList {
    /// `(severity, "file:line:col: severity[code]: message")`, at most [`MAX_LISTED`].
    items: Vec<(Severity, String)>,
    errors: usize,
    warnings: usize,
    notes: usize,
}

impl DiagList {
    pub(crate) fn new(diags: &[Diagnostic], sources: &SourceMap, file: &str) -> DiagList {
        let count = |s| diags.iter().filter(|d| d.severity == s).count();
        let items = diags
            .iter()
            .take(MAX_LISTED)
            .map(|d| {
                let at = match d.location(sources) {
                    Some((f, l, c)) => format!("{f}:{l}:{c}"),
                    None => file.to_string(),
                };
                let mut s = format!("{at}: {}[{}]: {}", d.severity.as_str(), d.code, d.message);
                for (_, n) in &d.notes {
                    let _ = write!(s, "\n  = note: {n}");
                }
                (d.severity, s)
            })
            .collect();
        DiagList {
            items,
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
            notes: count(Severity::Note),
        }
    }

    /// Errors and warnings (the index's count; notes are listed but not counted).
    pub(crate) fn counted(&self) -> usize {
        self.errors + self.warnings
    }

    fn section(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "<h2 id=\"diagnostics\">Diagnostics</h2>\n<p>{} error{}, {} warning{}, {} note{}.</p>",
            self.errors,
            plural(self.errors),
            self.warnings,
            plural(self.warnings),
            self.notes,
            plural(self.notes)
        );
        if self.items.is_empty() {
            return;
        }
        out.push_str("<ul class=\"diag\" lang=\"en\">\n");
        for (sev, s) in &self.items {
            let _ = writeln!(out, "<li class=\"{}\">{}</li>", sev.as_str(), escape(s));
        }
        out.push_str("</ul>\n");
        let total = self.errors + self.warnings + self.notes;
        if total > self.items.len() {
            let _ = writeln!(
                out,
                "<p class=\"small\">{} more not listed.</p>",
                total - self.items.len()
            );
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// What every page of one file shares.
pub(crate) struct Context<'a> {
    pub(crate) input: &'a FileInput<'a>,
    pub(crate) doc: &'a Document,
    pub(crate) diags: &'a DiagList,
    pub(crate) converted: &'a [Converted],
}

impl Context<'_> {
    fn folder(&self) -> String {
        format!("games/{}", self.input.slug)
    }

    /// The page of entry `i`, with its pictures, and (for a game) its index row.
    pub(crate) fn game_page(&self, i: usize, pictures: &mut Pictures, out: &mut FilePages) {
        let g = &self.doc.games[i];
        let n = i + 1;
        let lang = lang_of(g.texts.description.as_deref().unwrap_or(&g.title));
        let drawn = match pictures.draw(self.doc, i, self.input.fonts, &mut out.files) {
            Ok(d) => {
                out.pictures += 1;
                out.validator_failures += d.validator.len();
                Ok(d)
            }
            Err(reason) => {
                out.placeholders.push(reason.clone());
                Err(reason)
            }
        };
        let mut p = html::head(
            lang,
            &format!("{} — zogkit catalogue", g.title),
            "../../style.css",
        );
        let _ = writeln!(
            p,
            "<nav><a href=\"../../index.html\">Catalogue</a> › {}</nav>\n<h1>{}</h1>",
            escape(self.input.name),
            span(&g.title, lang)
        );
        self.facts(&mut p, i, lang);
        p.push_str("<h2 id=\"start\">Start position</h2>\n");
        match &drawn {
            Ok(d) => {
                let _ = writeln!(
                    p,
                    "<p class=\"start\"><img src=\"{}\" width=\"{}\" height=\"{}\" alt=\"start position of {}\"></p>",
                    escape(&format!("../../{}", d.start)),
                    d.width,
                    d.height,
                    escape(&g.title)
                );
                for v in &d.validator {
                    let _ = writeln!(p, "<p class=\"small error\">validator: {}</p>", escape(v));
                }
                own_pictures(&mut p, d);
            }
            Err(reason) => {
                let _ = writeln!(
                    p,
                    "<p class=\"placeholder\">no picture: {}</p>",
                    escape(reason)
                );
            }
        }
        if self.input.playable.contains(&i) {
            self.play_link(&mut p, n, &g.title, lang, &mut out.files);
        }
        texts(&mut p, &g.texts);
        self.pieces(&mut p, g, drawn.as_ref().ok(), lang);
        self.variants(&mut p, i, lang);
        self.diags.section(&mut p);
        converted_section(&mut p, self.converted, &self.input.roundtrip);
        p.push_str(html::TAIL);
        out.files.push(SiteFile {
            path: format!("{}/{n}.html", self.folder()),
            bytes: p.into_bytes(),
        });
        if g.kind == EntryKind::Game {
            let thumb = drawn.ok().map(|d| (d.thumb, d.thumb_size));
            out.rows.push(self.row(i, thumb));
        }
    }

    /// The Play section of entry `n` (1-based), and the page its link opens in a site read
    /// from files: a served site (`zogkit serve SITE`, `zogkit catalogue --serve`) answers that address with the
    /// game itself.
    fn play_link(
        &self,
        p: &mut String,
        n: usize,
        title: &str,
        lang: &str,
        files: &mut Vec<SiteFile>,
    ) {
        let dir = format!("play/{}/{n}", self.input.slug);
        let _ = writeln!(
            p,
            "<h2 id=\"play\">Play</h2>\n<p><a href=\"../../{dir}/index.html\">Play {}</a> \
             in the browser, each side a person, a random player or the computer. The link needs \
             the site served by <strong>zogkit serve SITE</strong> (or <strong>zogkit catalogue \
             … --serve</strong>); opened as a file, it says how.</p>",
            span(title, lang)
        );
        let mut e = html::head(
            lang,
            &format!("Play {title} — zogkit catalogue"),
            "../../../style.css",
        );
        let _ = writeln!(
            e,
            "<nav><a href=\"../../../index.html\">Catalogue</a> › <a href=\"../../../games/{}/{n}.html\">{}</a></nav>\n\
             <h1>Play {}</h1>\n<p lang=\"en\">This game is played in the browser through \
             zogkit's server, and this copy of the catalogue is read from files. Serve it with \
             <strong>zogkit serve SITE</strong> (SITE: the folder of this catalogue), or play the \
             file alone with <strong>zogkit play {}</strong>, and follow the Play link on the \
             page the server shows.</p>",
            self.input.slug,
            span(title, lang),
            span(title, lang),
            escape(self.input.name)
        );
        e.push_str(html::TAIL);
        files.push(SiteFile {
            path: format!("{dir}/index.html"),
            bytes: e.into_bytes(),
        });
    }

    fn row(&self, i: usize, thumb: Option<(String, (u32, u32))>) -> Row {
        let g = &self.doc.games[i];
        let n = i + 1;
        let folder = self.folder();
        let variants: Vec<(String, String)> = self
            .doc
            .games
            .iter()
            .enumerate()
            .filter(|(_, v)| v.kind == EntryKind::Variant && v.variant_of == Some(i))
            .map(|(k, v)| (v.title.clone(), format!("{folder}/{}.html", k + 1)))
            .collect();
        Row {
            title: g.title.clone(),
            href: format!("{folder}/{n}.html"),
            file: self.input.name.to_string(),
            thumb: thumb.map(|(src, (w, h))| (src, w, h)),
            players: g.players.clone(),
            pieces: g.pieces.iter().filter(|p| !p.dummy).count(),
            variants,
            diagnostics: self.diags.counted(),
            roundtrip: self.input.roundtrip.clone(),
        }
    }

    fn facts(&self, p: &mut String, i: usize, lang: &str) {
        let g = &self.doc.games[i];
        p.push_str("<table class=\"facts\">\n");
        let kind = match g.kind {
            EntryKind::Variant => match g
                .variant_of
                .and_then(|k| self.doc.games.get(k).map(|v| (k, v)))
            {
                Some((k, v)) => format!(
                    "variant of <a href=\"{}.html\">{}</a>",
                    k + 1,
                    span(&v.title, lang)
                ),
                None => "variant".to_string(),
            },
            _ => "game".to_string(),
        };
        let players: Vec<String> = g.players.iter().map(|x| span(x, lang)).collect();
        let positions: usize = g.boards.iter().map(|b| b.positions.len()).sum();
        let rows = [
            ("File", escape(self.input.display)),
            ("Format", escape(self.input.format.name())),
            ("Entry", format!("{} ({kind})", i + 1)),
            ("Players", players.join(", ")),
            ("Board", format!("{positions} positions")),
            (
                "Pieces",
                g.pieces.iter().filter(|p| !p.dummy).count().to_string(),
            ),
            ("Goals", g.goals.len().to_string()),
        ];
        for (k, v) in rows {
            let _ = writeln!(p, "<tr><th scope=\"row\">{k}</th><td>{v}</td></tr>");
        }
        p.push_str("</table>\n");
    }

    fn pieces(&self, p: &mut String, g: &Game, drawn: Option<&Drawn>, lang: &str) {
        let shown: Vec<(usize, &crate::spec::Piece)> = g
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, x)| !x.dummy)
            .collect();
        let _ = writeln!(p, "<h2 id=\"pieces\">Pieces ({})</h2>", shown.len());
        if shown.is_empty() {
            return;
        }
        p.push_str(
            "<table class=\"pieces\">\n<tr><th>Image</th><th>Piece</th><th>Help</th></tr>\n",
        );
        for (j, (_, piece)) in shown.into_iter().enumerate() {
            let tiles = drawn
                .and_then(|d| d.tiles.get(j))
                .map(Vec::as_slice)
                .unwrap_or_default();
            let imgs: Vec<String> = tiles
                .iter()
                .enumerate()
                .map(|(s, f)| {
                    format!(
                        "<img src=\"../../{}\" alt=\"{} ({})\">",
                        escape(f),
                        escape(&piece.name),
                        escape(g.players.get(s).map_or("", String::as_str))
                    )
                })
                .collect();
            let _ = write!(
                p,
                "<tr><td>{}</td><td>{}",
                imgs.join(""),
                span(&piece.name, lang)
            );
            if let Some(n) = &piece.notation {
                let _ = write!(p, " <span class=\"small\">({})</span>", escape(n));
            }
            let files: Vec<&str> = piece.images.iter().map(|im| im.file.as_str()).collect();
            if !files.is_empty() {
                let _ = write!(
                    p,
                    "<br><span class=\"small\">ZoG images: {}</span>",
                    escape(&files.join(", "))
                );
            }
            p.push_str("</td><td>");
            for t in [&piece.texts.help, &piece.texts.description]
                .into_iter()
                .flatten()
            {
                paragraphs(p, "text", t);
            }
            p.push_str("</td></tr>\n");
        }
        p.push_str("</table>\n");
    }

    fn variants(&self, p: &mut String, i: usize, lang: &str) {
        let g = &self.doc.games[i];
        let game = if g.kind == EntryKind::Variant {
            g.variant_of
        } else {
            Some(i)
        };
        // A YAML spec may name a game that is not there (`spec::check` reports it).
        let Some(game) = game.filter(|&k| k < self.doc.games.len()) else {
            return;
        };
        let list: Vec<usize> = (0..self.doc.games.len())
            .filter(|&k| {
                self.doc.games[k].kind == EntryKind::Variant
                    && self.doc.games[k].variant_of == Some(game)
            })
            .collect();
        let _ = writeln!(p, "<h2 id=\"variants\">Variants ({})</h2>", list.len());
        if list.is_empty() {
            return;
        }
        p.push_str("<ul class=\"variants\">\n");
        for k in std::iter::once(game).chain(list) {
            let t = &self.doc.games[k].title;
            if k == i {
                let _ = writeln!(p, "<li><strong>{}</strong></li>", span(t, lang));
            } else {
                let _ = writeln!(
                    p,
                    "<li><a href=\"{}.html\">{}</a></li>",
                    k + 1,
                    span(t, lang)
                );
            }
        }
        p.push_str("</ul>\n");
    }
}

/// How many of the author's own pictures the start position uses, and those named but not used
/// (folded: a collection without its bitmaps names many).
fn own_pictures(p: &mut String, d: &Drawn) {
    if d.own_used > 0 {
        let _ = writeln!(
            p,
            "<p class=\"small\">Drawn with {} of the author's own pictures.</p>",
            d.own_used
        );
    }
    if d.own_notes.is_empty() {
        return;
    }
    let _ = write!(
        p,
        "<details><summary>{} of the author's pictures not used (drawn instead)</summary><ul class=\"diag\" lang=\"en\">",
        d.own_notes.len()
    );
    for n in d.own_notes.iter().take(MAX_LISTED) {
        let _ = write!(p, "<li>{}</li>", escape(n));
    }
    p.push_str("</ul></details>\n");
}

/// The game's texts, each a section of paragraphs.
fn texts(p: &mut String, t: &Texts) {
    let all = [
        ("Description", &t.description),
        ("History", &t.history),
        ("Strategy", &t.strategy),
        ("Help", &t.help),
        ("Solution", &t.solution),
    ];
    for (name, text) in all {
        if let Some(text) = text.as_deref().filter(|s| !s.trim().is_empty()) {
            let _ = writeln!(p, "<h2>{name}</h2>");
            paragraphs(p, "text", text);
        }
    }
}

/// Links to the converted files (or why each is missing) and the round-trip status.
fn converted_section(p: &mut String, converted: &[Converted], rt: &RoundTrip) {
    p.push_str("<h2 id=\"files\">Converted files</h2>\n");
    if converted.is_empty() {
        p.push_str("<p>None: the file does not read without errors.</p>\n");
    } else {
        p.push_str("<ul class=\"files\">\n");
        for c in converted {
            let f = c.format.name();
            match (&c.name, &c.refused) {
                (Some(name), _) => {
                    let _ = write!(p, "<li><a href=\"{}\">{f}</a>", escape(name));
                }
                (None, why) => {
                    let _ = write!(
                        p,
                        "<li>{f}: not written — {}",
                        escape(why.as_deref().unwrap_or("no output"))
                    );
                }
            }
            if !c.diagnostics.is_empty() {
                let _ = write!(
                    p,
                    "<details><summary>{} writer diagnostic{}</summary><ul class=\"diag\" lang=\"en\">",
                    c.diagnostics.len(),
                    plural(c.diagnostics.len())
                );
                for d in c.diagnostics.iter().take(MAX_LISTED) {
                    let _ = write!(p, "<li>{}</li>", escape(d));
                }
                p.push_str("</ul></details>");
            }
            p.push_str("</li>\n");
        }
        p.push_str("</ul>\n");
    }
    let (class, text) = match rt {
        RoundTrip::Passed => (
            "ok",
            "passed (read → spec → ZRF → spec is the same; YAML is byte-stable)".to_string(),
        ),
        RoundTrip::Failed(why) => ("fail", format!("failed: {why}")),
        RoundTrip::NotRun(why) => ("na", format!("not run: {why}")),
    };
    let _ = writeln!(
        p,
        "<h2 id=\"roundtrip\">Round trip</h2>\n<p class=\"{class}\">{}</p>",
        escape(&text)
    );
}

/// The page of a file that has no game to show (it did not read, or holds only definitions),
/// and its index row.
pub(crate) fn file_page(
    input: &FileInput<'_>,
    diags: &DiagList,
    converted: &[Converted],
    files: &mut Vec<SiteFile>,
) -> Row {
    let mut p = html::head(
        "en",
        &format!("{} — zogkit catalogue", input.name),
        "../../style.css",
    );
    let _ = writeln!(
        p,
        "<nav><a href=\"../../index.html\">Catalogue</a> › {0}</nav>\n<h1>{0}</h1>\n<p>{1}</p>",
        escape(input.name),
        match (input.read_error, input.document.is_some()) {
            (Some(e), _) => format!("The file could not be read: {}", escape(e)),
            (None, true) => "The file holds no game.".to_string(),
            (None, false) => "The file could not be read.".to_string(),
        }
    );
    diags.section(&mut p);
    converted_section(&mut p, converted, &input.roundtrip);
    p.push_str(html::TAIL);
    let href = format!("games/{}/file.html", input.slug);
    files.push(SiteFile {
        path: href.clone(),
        bytes: p.into_bytes(),
    });
    Row {
        title: String::new(),
        href,
        file: input.name.to_string(),
        thumb: None,
        players: Vec::new(),
        pieces: 0,
        variants: Vec::new(),
        diagnostics: diags.counted() + usize::from(input.read_error.is_some()),
        roundtrip: input.roundtrip.clone(),
    }
}
