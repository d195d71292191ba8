//! The catalogue of a collection (`zogkit catalogue`): a static HTML site, pure — pages, pictures
//! and converted files come back as bytes with their relative paths; the CLI writes them.
//!
//! ```text
//! per input file: file_pages(FileInput) → FilePages { files, rows, pictures, placeholders }
//!   games/<slug>/<n>.html         one page per game and variant (n: 1-based menu index)
//!   img/<hash>.png                start positions (render::from_spec → render_set →
//!                                 compose_start_with, the author's pictures where named),
//!                                 thumbnails and piece tiles, each image once
//!   games/<slug>/<stem>.yaml|zrf|lud   the file converted by format::write
//!   games/<slug>/file.html        files without a game (unreadable, definitions only)
//!   play/<slug>/<n>/index.html    behind the Play link of a game the engine runs: how to play
//!                                 it (a served site answers this address with the game)
//! at the end: index_pages(rows) → index.html (by title), index-by-<key>.html, style.css
//! ```
//!
//! Reading needs no JavaScript: every sort order of the index is its own page, linked from the
//! column headers.

pub mod html;
mod index;
mod page;
mod picture;

pub use index::{Row, SortKey, Totals, index_pages};
pub use picture::ImageStore;

use crate::diag::{Diagnostic, Severity, SourceMap};
use crate::format::{self, Format, ReadOptions};
use crate::render::FontSet;
use crate::render::own::AuthorFiles;
use crate::spec::{Document, EntryKind};
use std::collections::BTreeSet;

/// One file of the site: a `/`-separated relative path and its bytes.
#[derive(Debug, Clone)]
pub struct SiteFile {
    /// Path relative to the site's root.
    pub path: String,
    /// Content.
    pub bytes: Vec<u8>,
}

/// What `zogkit roundtrip` decided for a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoundTrip {
    /// Every entry survived read → spec → ZRF → spec (and YAML is byte-stable).
    Passed,
    /// It failed; the first problem, or the entries that differ.
    Failed(String),
    /// Not run, and why (round trips are defined for ZRF input only).
    NotRun(String),
}

impl RoundTrip {
    /// The word shown in the index.
    pub fn label(&self) -> &'static str {
        match self {
            RoundTrip::Passed => "passed",
            RoundTrip::Failed(_) => "failed",
            RoundTrip::NotRun(_) => "not run",
        }
    }
}

/// One input file, read.
pub struct FileInput<'a> {
    /// The file as diagnostics show it.
    pub display: &'a str,
    /// The file as the index and the pages name it: its path relative to the folder walked.
    pub name: &'a str,
    /// Its folder under `games/` (from [`slugs`]: plain, unique ignoring letter case).
    pub slug: &'a str,
    /// The stem of the converted files' names (ASCII, see [`stem`]).
    pub stem: &'a str,
    /// The format it was read in.
    pub format: Format,
    /// Why the file could not be read at all (an I/O error), if so.
    pub read_error: Option<&'a str>,
    /// The document read, if any.
    pub document: Option<&'a Document>,
    /// The reader's diagnostics.
    pub diagnostics: &'a [Diagnostic],
    /// Sources of the diagnostics' locations.
    pub sources: &'a SourceMap,
    /// The round-trip decision.
    pub roundtrip: RoundTrip,
    /// The reader options (the converted files obey the same output limits as `convert`).
    pub options: &'a ReadOptions,
    /// Fonts for the pictures.
    pub fonts: &'a FontSet,
    /// The site's images so far (shared by the files catalogued in parallel).
    pub images: &'a ImageStore,
    /// The author's own picture files the document names, as the caller read them.
    pub author: &'a AuthorFiles,
    /// The entries the engine runs (indexes into the document's games): their pages get a
    /// Play link to `play/<slug>/<n>/`, which `zogkit catalogue --serve` answers.
    pub playable: &'a [usize],
}

/// Everything one input file contributes to the site.
#[derive(Debug, Default)]
pub struct FilePages {
    /// Pages, pictures and converted files.
    pub files: Vec<SiteFile>,
    /// Index rows: one per game (its variants are counted in it), or one for a file without
    /// a game.
    pub rows: Vec<Row>,
    /// Start pictures drawn.
    pub pictures: usize,
    /// Entries shown with a placeholder instead, with the reason.
    pub placeholders: Vec<String>,
    /// Validator failures of drawn pictures (shown on their pages).
    pub validator_failures: usize,
}

/// A converted file, or why it was not written.
pub(crate) struct Converted {
    pub(crate) format: Format,
    /// The file name in the game's folder, when written.
    pub(crate) name: Option<String>,
    /// Why nothing was written.
    pub(crate) refused: Option<String>,
    /// The writer's diagnostics, rendered.
    pub(crate) diagnostics: Vec<String>,
}

/// Outputs written already for the same document, so they are not written twice (the round
/// trip writes ZRF and YAML): what `format::write` gave for ZRF, the YAML text.
#[derive(Debug, Default)]
pub struct Prewritten {
    /// `format::write(Format::Zrf, doc)`'s bytes and diagnostics.
    pub zrf: Option<(Vec<u8>, Vec<Diagnostic>)>,
    /// `format::write(Format::Yaml, doc)`'s text.
    pub yaml: Option<String>,
}

/// At most this many diagnostics are listed on a page (all are counted).
pub const MAX_LISTED: usize = 200;

/// The pages, pictures and converted files of one input (`prewritten`: outputs already written
/// for its document, used instead of writing them again).
pub fn file_pages(input: &FileInput<'_>, mut prewritten: Prewritten) -> FilePages {
    let mut out = FilePages::default();
    let reader_errors = input
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let converted = match input.document {
        Some(doc) if reader_errors == 0 => [Format::Yaml, Format::Zrf, Format::Lud]
            .into_iter()
            .map(|f| {
                let done = match f {
                    Format::Zrf => prewritten.zrf.take().map(Ok),
                    Format::Yaml => prewritten
                        .yaml
                        .take()
                        .map(|y| Ok((y.into_bytes(), Vec::new()))),
                    _ => None,
                };
                let written = done.unwrap_or_else(|| format::write(f, doc));
                convert(written, f, input, &mut out.files)
            })
            .collect(),
        // A file with errors is not converted, as `convert` refuses it.
        _ => Vec::new(),
    };
    let diags = page::DiagList::new(input.diagnostics, input.sources, input.display);
    let entries: Vec<usize> = input.document.map_or(Vec::new(), |d| {
        (0..d.games.len())
            .filter(|&i| d.games[i].kind != EntryKind::Separator)
            .collect()
    });
    let (Some(doc), false) = (input.document, entries.is_empty()) else {
        let row = page::file_page(input, &diags, &converted, &mut out.files);
        out.rows.push(row);
        return out;
    };
    let ctx = page::Context {
        input,
        doc,
        diags: &diags,
        converted: &converted,
    };
    let mut pictures = picture::Pictures::new(input.images, input.author);
    for &i in &entries {
        ctx.game_page(i, &mut pictures, &mut out);
    }
    out
}

/// `written`, `format::write`'s result for `format`, as `convert` would write it (refused on a
/// writer error or over the output limit), adding the file to `files`.
fn convert(
    written: Result<(Vec<u8>, Vec<Diagnostic>), Diagnostic>,
    format: Format,
    input: &FileInput<'_>,
    files: &mut Vec<SiteFile>,
) -> Converted {
    let render = |d: &Diagnostic| {
        let at = match d.location(input.sources) {
            Some((f, l, c)) => format!("{f}:{l}:{c}"),
            None => input.display.to_string(),
        };
        format!("{at}: {}[{}]: {}", d.severity.as_str(), d.code, d.message)
    };
    let mut c = Converted {
        format,
        name: None,
        refused: None,
        diagnostics: Vec::new(),
    };
    match written {
        Err(d) => c.refused = Some(render(&d)),
        Ok((bytes, diags)) => {
            c.diagnostics = diags.iter().map(render).collect();
            let error = diags.iter().find(|d| d.severity == Severity::Error);
            if let Some(d) = error {
                c.refused = Some(render(d));
            } else if let Some(d) = format::output_too_large(format, bytes.len(), input.options) {
                c.refused = Some(render(&d));
            } else {
                let name = format!("{}.{}", input.stem, format.extension());
                files.push(SiteFile {
                    path: format!("games/{}/{name}", input.slug),
                    bytes,
                });
                c.name = Some(name);
            }
        }
    }
    c
}

/// Longest slug or stem kept whole.
const MAX_SLUG: usize = 80;

/// A plain ASCII name from `s`: letters, digits, `-` and `_` kept, runs of anything else as
/// one `-`, trimmed and cut to a length; `fallback` when nothing is left.
fn plain(s: &str, fallback: &str) -> String {
    let mut o = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            o.push(c);
        } else if !o.ends_with('-') {
            o.push('-');
        }
    }
    let o = o.trim_matches('-');
    let o: String = o.chars().take(MAX_SLUG).collect();
    if o.is_empty() {
        fallback.to_string()
    } else {
        o
    }
}

/// The folder names of inputs under `games/`, from their paths relative to the folder walked
/// (`a/b/c.zrf` → `a-b-c-zrf`): plain ASCII components only, and unique ignoring letter case
/// (a later clash gets `-2`, `-3`, …).
pub fn slugs(names: &[&str]) -> Vec<String> {
    let mut used = BTreeSet::new();
    names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let base = plain(n, &format!("file-{}", i + 1));
            let mut s = base.clone();
            let mut k = 2;
            while !used.insert(s.to_ascii_lowercase()) {
                s = format!("{base}-{k}");
                k += 1;
            }
            s
        })
        .collect()
}

/// The stem of converted files: the input's file name without its extension, plain ASCII
/// (`game` when nothing is left).
pub fn stem(file_name: &str) -> String {
    let name = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    let base = match name.rfind('.') {
        Some(i) if i > 0 => &name[..i],
        _ => name,
    };
    plain(base, "game")
}
