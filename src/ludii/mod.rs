//! Ludii: read `.lud` game descriptions and Ludii's generated English rules into the portable spec, and write `.lud` back.
//!
//! - [`read_lud`]: [`syntax`] (tokens, tree) → [`expand`] (options, defines, ranges) →
//!   [`lower`] (board, pieces and moves, regions, setup, ends).
//! - [`read_english`]: the sectioned English description ([`english`]) into a partial spec;
//!   every phrase it cannot map is kept in `extensions` (as `ludii` items) and reported.
//! - [`write_lud`]: spec → readable `.lud` for the supported subset ([`mod@write`]).
//!
//! `docs/ludii.md` documents site indexing, direction names and what maps to what.

/// The board builders live in the spec's geometry (the writer and `spec::check` build boards too).
pub use crate::spec::geometry::tiling as board;
pub mod english;
pub mod expand;
pub mod jar;
pub mod lower;
mod sites;
pub mod subgame;
pub mod syntax;
mod track;
pub mod write;

use crate::diag::{Diagnostic, FileId};
use crate::spec::origin::{GameOrigin, PieceOrigin};
use crate::spec::{Document, Origins, SPEC_VERSION, Source};

pub use english::read_english;
pub use expand::{Choices, Library};
pub use write::{write_lud, write_lud_at};

/// Reads a `.lud` file: options take their default items, defines and the built-in macros are
/// expanded, and the game is lowered into a spec document. Returns `None` only when no game
/// could be found; diagnostics say what was not understood.
pub fn read_lud(name: &str, text: &str, file: FileId) -> (Option<Document>, Vec<Diagnostic>) {
    read_lud_with(name, text, file, &Choices::default())
}

/// [`read_lud`] with option items and a ruleset chosen instead of the defaults.
pub fn read_lud_with(
    name: &str,
    text: &str,
    file: FileId,
    choices: &Choices,
) -> (Option<Document>, Vec<Diagnostic>) {
    let opts = Options {
        choices: choices.clone(),
        ..Options::default()
    };
    read_lud_opts(name, text, file, &opts)
}

/// How to read `.lud` files: option choices and Ludii's library of defines.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Option items and ruleset (`--option`, `--ruleset`).
    pub choices: Choices,
    /// Ludii's defines, read by the CLI from `--ludii` / `LUDII_HOME`.
    pub library: Option<std::sync::Arc<Library>>,
    /// A stop request (Ctrl-C): polled while expanding and before each subgame, which refuses
    /// the file once raised.
    pub interrupt: crate::diag::Interrupt,
}

/// [`read_lud`] with every reading option.
pub fn read_lud_opts(
    name: &str,
    text: &str,
    file: FileId,
    opts: &Options,
) -> (Option<Document>, Vec<Diagnostic>) {
    let (doc, diags, _) = read_lud_located(name, text, file, opts);
    (doc, diags)
}

/// [`read_lud_opts`], with where the game and its `(piece "Name" …)` forms stand in the file
/// (spans in `file`), so that writers can locate what they lose.
pub fn read_lud_located(
    name: &str,
    text: &str,
    file: FileId,
    opts: &Options,
) -> (Option<Document>, Vec<Diagnostic>, Origins) {
    let r = read_located(name, text, file, opts, Budget::File);
    (r.doc, r.diags, r.origins)
}

/// The game of a `.lud` text after its defines and options are expanded (as the reader lowers
/// it), laid out over lines; `None` when the text holds no game.
pub fn expand_lud(text: &str, file: FileId, opts: &Options) -> (Option<String>, Vec<Diagnostic>) {
    let (nodes, mut diags) = syntax::parse(text, file);
    let ex = expand::expand_full(nodes, &mut diags, &opts.choices, opts.library.as_deref());
    match ex.game.as_ref() {
        Some(g) => (Some(syntax::pretty(g, 0, 100)), diags),
        None => {
            diags.push(lower::no_game(ex.other.first().map(|n| n.span())));
            (None, diags)
        }
    }
}

/// Whose budget a text spends: its own file's, from nothing (a `(match …)` may then name
/// subgames), or, for a subgame of a match, the file's, of which `nodes` are spent already
/// (Ludii's matches do not nest).
#[derive(Debug, Clone, Copy)]
enum Budget {
    File,
    Subgame { nodes: usize },
}

/// A text read: the document, its diagnostics, where its forms stand, and the expansion nodes
/// spent (its file's before it included).
struct Read {
    doc: Option<Document>,
    diags: Vec<Diagnostic>,
    origins: Origins,
    nodes: usize,
}

/// [`read_lud_located`] spending `budget`.
fn read_located(name: &str, text: &str, file: FileId, opts: &Options, budget: Budget) -> Read {
    let (nodes, mut diags) = syntax::parse(text, file);
    let counted = match budget {
        Budget::File => 0,
        Budget::Subgame { nodes } => nodes,
    };
    let library = opts.library.as_deref();
    let how = (&opts.choices, library, &opts.interrupt);
    let ex = expand::expand_counted(nodes, &mut diags, how, counted);
    // Interrupted: nothing of the file is kept (the error says so), and nothing more is done.
    if ex.interrupted {
        return Read {
            doc: None,
            diags,
            origins: Origins::default(),
            nodes: ex.nodes,
        };
    }
    let Some(g) = ex.game.as_ref() else {
        diags.push(lower::no_game(ex.other.first().map(|n| n.span())));
        return Read {
            doc: None,
            diags,
            origins: Origins::default(),
            nodes: ex.nodes,
        };
    };
    let games = match (g.head(), budget) {
        (Some("match"), Budget::File) => subgame::read_match(g, opts, &mut diags, ex.nodes),
        _ => None,
    };
    let games =
        games.or_else(|| lower::lower_game(g, ex.metadata.as_ref(), &mut diags).map(|g| vec![g]));
    let mut src = Source::of_text("lud", name, text);
    if let Some(m) = &ex.metadata {
        src.version = find_version(m);
    }
    let doc = games.map(|games| Document {
        spec_version: SPEC_VERSION.to_string(),
        source: src,
        games,
        procedures: vec![],
    });
    let origins = doc
        .as_ref()
        .map(|d| origins(g, d, file))
        .unwrap_or_default();
    Read {
        doc,
        diags,
        origins,
        nodes: ex.nodes,
    }
}

/// Where the game form and the first `(piece "Name" …)` form of each of the document's pieces
/// stand, among the game's forms down to the equipment's items; only spans in `file` (a form a
/// define of Ludii's library wrote stands nowhere in it).
fn origins(g: &syntax::Node, doc: &Document, file: FileId) -> Origins {
    let in_file = |n: &syntax::Node| Some(n.span()).filter(|s| s.file == file);
    let mut pieces: Vec<PieceOrigin> = Vec::new();
    // Sets, so that a game of many pieces is read in linear time (20,000 pieces: 0.7 s before).
    let known: std::collections::BTreeSet<&str> = doc.games[0]
        .pieces
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    let mut seen: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    let mut stack = vec![(g, 0)];
    while let Some((n, depth)) = stack.pop() {
        if n.head() == Some("piece") {
            if let Some(syntax::Node::Str(name, _)) = n.positional().next()
                && known.contains(name.as_str())
                && seen.insert(name.clone())
            {
                pieces.push(PieceOrigin {
                    name: name.clone(),
                    at: in_file(n),
                    ..Default::default()
                });
            }
            continue;
        }
        if depth < 4 {
            stack.extend(n.args().iter().rev().map(|a| (a, depth + 1)));
        }
    }
    Origins {
        games: vec![GameOrigin {
            at: in_file(g),
            pieces,
        }],
    }
}

fn find_version(m: &syntax::Node) -> Option<String> {
    let info = m.positional().find(|a| a.head() == Some("info"))?;
    info.positional()
        .flat_map(|a| a.args().iter())
        .find(|i| i.head() == Some("version"))
        .and_then(|v| v.positional().next())
        .and_then(|s| s.str())
        .map(str::to_string)
}

/// Diagnostic code: a `.lud` and its English description disagree.
pub const CODE_CROSS_CHECK: &str = "ludii::cross-check";

/// Compares a spec read from a `.lud` file with one read from its English description: board
/// size, piece names, region names and setup coordinates must agree (`notes/ludii.md` §4.7).
/// Returns one warning per difference; none means they agree on everything compared.
pub fn cross_check(lud: &Document, english: &Document) -> Vec<Diagnostic> {
    use std::collections::BTreeSet;
    let mut out = Vec::new();
    let mut say = |m: String| {
        out.push(Diagnostic::new(
            crate::diag::Severity::Warning,
            CODE_CROSS_CHECK,
            m,
            None,
        ))
    };
    let (Some(a), Some(b)) = (lud.games.first(), english.games.first()) else {
        say("one of the documents has no game".into());
        return out;
    };
    let npos = |g: &crate::spec::Game| g.boards.first().map_or(0, |b| b.positions.len());
    if npos(a) != npos(b) {
        say(format!(
            "board: {} sites in the .lud, {} in the English",
            npos(a),
            npos(b)
        ));
    }
    let mut compare = |what: &str, x: BTreeSet<String>, y: BTreeSet<String>| {
        for only in x.difference(&y) {
            say(format!("{what} `{only}` is only in the .lud"));
        }
        for only in y.difference(&x) {
            say(format!("{what} `{only}` is only in the English"));
        }
    };
    let pieces = |g: &crate::spec::Game| g.pieces.iter().map(|p| p.name.clone()).collect();
    compare("piece", pieces(a), pieces(b));
    let zones = |g: &crate::spec::Game| {
        g.boards
            .iter()
            .flat_map(|b| b.zones.iter().map(|z| z.name.clone()))
            .collect()
    };
    compare("region", zones(a), zones(b));
    let setup = |g: &crate::spec::Game| {
        g.setup
            .iter()
            .flat_map(|p| {
                p.positions
                    .iter()
                    .map(move |s| format!("{} {} on {s}", p.player, p.piece))
            })
            .collect()
    };
    compare("placement", setup(a), setup(b));
    out
}

/// Turns the board ludemes that documents of spec 0.2 and older kept in a board's `extensions`
/// (`(board (square 3))`, `(mancalaBoard 2 6)`) into the board's layout construction, as this
/// build's readers record it, when it builds the positions and links the document lists (their
/// rectangles, which older documents may lack, are then the construction's); any other ludeme
/// stays where it is.
pub fn upgrade_board_ludemes(doc: &mut Document) {
    use crate::spec::geometry::build::build;
    for b in doc.games.iter_mut().flat_map(|g| g.boards.iter_mut()) {
        if !b.layout.is_empty() {
            continue;
        }
        let found = b.extensions.0.iter().enumerate().find_map(|(i, e)| {
            if e.format != crate::spec::RawFormat::Ludii {
                return None;
            }
            let c = lower::construction_of_text(&e.text)?;
            let built = build(&c).ok()?.spec_board(c.clone());
            let same = built.positions.len() == b.positions.len()
                && built.positions.iter().zip(&b.positions).all(|(x, y)| {
                    x.name == y.name && x.links == y.links && (y.rect.is_none() || y.rect == x.rect)
                });
            same.then_some((i, c, built))
        });
        if let Some((i, c, built)) = found {
            b.extensions.0.remove(i);
            for (p, q) in b.positions.iter_mut().zip(built.positions) {
                p.rect = p.rect.or(q.rect);
            }
            b.layout.construction = Some(c);
        }
    }
}
