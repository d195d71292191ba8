//! A Ludii `(match …)`: its subgames, read from Ludii's library (`--ludii`), become the document's games in the match's order.
//!
//! Ludii finds a subgame by file name (`(subgame "Portes")` is `Portes.lud` anywhere in its
//! library), reads it with its default options, and describes a match by its first subgame.
//! The match's own rules (which subgame follows which, the results carried over, `matchScore`)
//! are not modelled: they stay verbatim, with a warning.

use super::lower::CODE_UNMAPPED;
use super::syntax::{Node, print};
use super::{Budget, Options, read_located};
use crate::diag::{Diagnostic, FileId};
use crate::spec::{Game, RawFormat};

/// The file id of a subgame's text (its diagnostics are moved onto the `(subgame …)` form).
const SUBGAME_FILE: FileId = FileId(u32::MAX - 2);

/// Most subgames read for one match (Ludii's library has at most 5).
pub const MAX_SUBGAMES: usize = 32;

/// Bytes of library text the subgames of one match may read together: one input file's size
/// limit ([`crate::text::MAX_INPUT_BYTES`]).
pub const MAX_SUBGAME_BYTES: usize = crate::text::MAX_INPUT_BYTES;

/// What the subgames of one match have spent of their file's budget: one input file's, as
/// ZRF's includes and variants share theirs. The expansion nodes are the file's own
/// ([`super::expand::MAX_NODES`], the match's text included); the subgames' text, at most
/// [`MAX_SUBGAME_BYTES`]; their boards' positions, at most
/// [`crate::spec::geometry::MAX_POSITIONS`] together.
#[derive(Debug, Default)]
struct Spent {
    nodes: usize,
    bytes: usize,
    positions: usize,
}

impl Spent {
    /// What reading a subgame of `bytes` more would exceed, if anything (positions are
    /// checked once a subgame is read).
    fn exceeded(&self, bytes: usize) -> Option<String> {
        if self.nodes >= super::expand::MAX_NODES {
            Some(format!("{} expanded nodes", super::expand::MAX_NODES))
        } else if self.bytes.saturating_add(bytes) > MAX_SUBGAME_BYTES {
            Some(format!("{MAX_SUBGAME_BYTES} bytes of subgame text"))
        } else {
            None
        }
    }
}

/// The subgames of `m` read from the library, in order, within one file's budget (`nodes`: the
/// expansion nodes the match's file spent); `None` when the library has none of them (or no
/// library was given), so the caller keeps the match verbatim.
pub(super) fn read_match(
    m: &Node,
    opts: &Options,
    diags: &mut Vec<Diagnostic>,
    nodes: usize,
) -> Option<Vec<Game>> {
    let library = opts.library.as_deref()?;
    let games = m
        .positional()
        .find(|n| n.head() == Some("games"))?
        .args()
        .iter()
        .flat_map(|a| match a {
            Node::Array(items, _) => items.iter().collect::<Vec<_>>(),
            other => vec![other],
        })
        .filter(|n| n.head() == Some("subgame"));
    let mut out = Vec::new();
    let mut spent = Spent {
        nodes,
        ..Spent::default()
    };
    for (i, sub) in games.enumerate() {
        if i == MAX_SUBGAMES {
            diags.push(Diagnostic::warning(
                super::expand::CODE_MACRO_LIMIT,
                format!("more than {MAX_SUBGAMES} subgames: the rest are left out"),
                sub.span(),
            ));
            break;
        }
        let Some(name) = sub.positional().next().and_then(|n| n.str()) else {
            continue;
        };
        let Some(text) = library.game(name) else {
            diags.push(Diagnostic::warning(
                CODE_UNMAPPED,
                format!(
                    "subgame `{name}` is not in Ludii's library ({}); it is left out",
                    library.origin
                ),
                sub.span(),
            ));
            continue;
        };
        let mut games = match read_subgame(name, text, sub, opts, &mut spent, diags) {
            Ok(games) => games,
            Err(()) => break,
        };
        out.append(&mut games);
    }
    let first = out.first_mut()?;
    first.extensions.push(RawFormat::Ludii, print(m));
    diags.push(Diagnostic::warning(
        CODE_UNMAPPED,
        format!(
            "a match's own rules (the order of its {} subgames, the results carried over, the \
             match's end) are not modelled: each subgame is a game of the document, the first \
             being the one Ludii describes; the match is kept verbatim in the first game's \
             `extensions`",
            out.len()
        ),
        m.span(),
    ));
    Some(out)
}

/// Reads subgame `name` (`text`, named by the form `sub`) within what is left of the file's
/// budget, adding what it spends to `spent`. `Err` (reported) when the budget is spent: the
/// subgame is left out, and the rest of the match too.
fn read_subgame(
    name: &str,
    text: &str,
    sub: &Node,
    opts: &Options,
    spent: &mut Spent,
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<Game>, ()> {
    let over = |what: String, diags: &mut Vec<Diagnostic>| {
        diags.push(Diagnostic::error(
            super::expand::CODE_MACRO_LIMIT,
            format!(
                "the subgames of this match exceed one file's budget ({what} together); subgame \
                 `{name}` and the rest are left out"
            ),
            sub.span(),
        ));
    };
    if let Some(what) = spent.exceeded(text.len()) {
        over(what, diags);
        return Err(());
    }
    if opts.interrupt.raised() {
        diags.push(crate::diag::Interrupt::error(sub.span()));
        return Err(());
    }
    let sub_opts = Options {
        choices: Default::default(),
        library: opts.library.clone(),
        interrupt: opts.interrupt.clone(),
    };
    let budget = Budget::Subgame { nodes: spent.nodes };
    let read = read_located(name, text, SUBGAME_FILE, &sub_opts, budget);
    spent.nodes = read.nodes;
    spent.bytes += text.len();
    diags.extend(read.diags.into_iter().map(|mut d| {
        d.message = format!("in subgame `{name}` (Ludii's library): {}", d.message);
        d.span = Some(sub.span());
        d.notes
            .retain(|(s, _)| s.is_none_or(|s| s.file != SUBGAME_FILE));
        d
    }));
    let games = read.doc.map(|d| d.games).unwrap_or_default();
    spent.positions += games
        .iter()
        .flat_map(|g| &g.boards)
        .map(|b| b.positions.len())
        .sum::<usize>();
    // The document never holds more positions than one file may: the subgame that goes over
    // is left out too (its reading was within one game's budget).
    let most = crate::spec::geometry::MAX_POSITIONS;
    if spent.positions > most {
        over(format!("{most} board positions"), diags);
        return Err(());
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::super::{Options, expand::Library, read_lud_opts};
    use crate::diag::FileId;
    use std::sync::Arc;

    const MINI: &str = r#"(game "Mini" (players 2)
        (equipment {(board (square 3)) (piece "Disc" Each)})
        (rules (start (place "Disc1" coord:"A1"))
            (play (move Add (to (sites Empty))))
            (end (if (is Line 3) (result Mover Win)))))"#;
    const MATCH: &str = r#"(match "Twice" (players 2)
        (games {(subgame "Mini" next:1) (subgame "Gone" next:0)})
        (end (if (>= (matchScore P1) 2) (result P1 Win))))"#;

    #[test]
    fn a_match_reads_its_subgames_from_the_library() {
        let mut lib = Library::new("test library");
        lib.add_game("Mini", MINI.to_string());
        let opts = Options {
            library: Some(Arc::new(lib)),
            ..Options::default()
        };
        let (doc, diags) = read_lud_opts("twice.lud", MATCH, FileId(0), &opts);
        let doc = doc.expect("a document");
        assert_eq!(doc.games.len(), 1);
        assert_eq!(doc.games[0].title, "Mini");
        assert_eq!(doc.games[0].boards[0].positions.len(), 9);
        assert_eq!(doc.games[0].setup[0].positions, ["A1"]);
        let said = |s: &str| diags.iter().any(|d| d.message.contains(s));
        assert!(
            said("subgame `Gone` is not in Ludii's library"),
            "{diags:#?}"
        );
        assert!(said("a match's own rules"), "{diags:#?}");
        // Every diagnostic stands in the match's file.
        assert!(
            diags
                .iter()
                .all(|d| d.span.is_none_or(|s| s.file == FileId(0)))
        );

        // A match naming thousands of subgames reads only the first MAX_SUBGAMES.
        let many = format!(
            r#"(match "Many" (players 2) (games {{{}}}))"#,
            r#"(subgame "Mini") "#.repeat(1000)
        );
        let (doc, diags) = read_lud_opts("many.lud", &many, FileId(0), &opts);
        assert_eq!(doc.expect("a document").games.len(), super::MAX_SUBGAMES);
        assert!(
            diags
                .iter()
                .any(|d| d.message.contains("the rest are left out"))
        );

        // Without the library the match is kept verbatim, as before.
        let (doc, _) = read_lud_opts("twice.lud", MATCH, FileId(0), &Options::default());
        assert!(doc.expect("a document").games[0].boards.is_empty());
    }
}
