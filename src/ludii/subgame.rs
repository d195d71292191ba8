//! A Ludii `(match …)`: its subgames, read from Ludii's library (`--ludii`), become the document's games in the match's order.
//!
//! Ludii finds a subgame by file name (`(subgame "Portes")` is `Portes.lud` anywhere in its
//! library), reads it with its default options, and describes a match by its first subgame.
//! The match's own rules (which subgame follows which, the results carried over, `matchScore`)
//! are not modelled: they stay verbatim, with a warning.

use super::lower::CODE_UNMAPPED;
use super::syntax::{Node, print};
use super::{Options, read_located};
use crate::diag::{Diagnostic, FileId};
use crate::spec::{Game, RawFormat};

/// The file id of a subgame's text (its diagnostics are moved onto the `(subgame …)` form).
const SUBGAME_FILE: FileId = FileId(u32::MAX - 2);

/// Most subgames read for one match (Ludii's library has at most 5; each costs a whole game's
/// reading budget, so a file naming thousands cannot multiply the work).
pub const MAX_SUBGAMES: usize = 32;

/// The subgames of `m` read from the library, in order; `None` when the library has none of
/// them (or no library was given), so the caller keeps the match verbatim.
pub(super) fn read_match(
    m: &Node,
    opts: &Options,
    diags: &mut Vec<Diagnostic>,
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
        let sub_opts = Options {
            choices: Default::default(),
            library: opts.library.clone(),
        };
        let (doc, sub_diags, _) = read_located(name, text, SUBGAME_FILE, &sub_opts, false);
        diags.extend(sub_diags.into_iter().map(|mut d| {
            d.message = format!("in subgame `{name}` (Ludii's library): {}", d.message);
            d.span = Some(sub.span());
            d.notes
                .retain(|(s, _)| s.is_none_or(|s| s.file != SUBGAME_FILE));
            d
        }));
        if let Some(doc) = doc {
            out.extend(doc.games);
        }
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
