//! Consistency checks of a spec document: the explicit board agrees with its layout, and every name used exists.

use super::geometry;
use super::types::{Board, Document, Game};
use std::collections::BTreeSet;

/// One inconsistency, located by game index and a path such as `boards[0].positions[3]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// Index of the game in `games`.
    pub game: usize,
    /// Stable code, e.g. `spec::layout-mismatch`.
    pub code: &'static str,
    /// What disagrees.
    pub message: String,
}

impl Issue {
    /// Whether the document contradicts itself (an error) rather than naming something that
    /// does not exist (a warning: such references also occur in real source files, and are
    /// carried as written).
    pub fn is_error(&self) -> bool {
        matches!(
            self.code,
            "spec::layout-mismatch" | "spec::bad-reference" | "spec::bad-construction"
        )
    }
}

/// Checks every game of a document.
pub fn check(doc: &Document) -> Vec<Issue> {
    let mut out = Vec::new();
    for (i, g) in doc.games.iter().enumerate() {
        check_game(i, g, doc, &mut out);
    }
    out
}

fn check_game(gi: usize, g: &Game, doc: &Document, out: &mut Vec<Issue>) {
    let mut push = |code, message: String| {
        out.push(Issue {
            game: gi,
            code,
            message,
        })
    };
    if let Some(of) = g.variant_of
        && of >= doc.games.len()
    {
        push(
            "spec::bad-reference",
            format!("variant_of {of} is not a game index"),
        );
    }
    let mut positions = BTreeSet::new();
    for (bi, b) in g.boards.iter().enumerate() {
        check_board(bi, b, &mut push);
        positions.extend(b.positions.iter().map(|p| p.name.as_str()));
    }
    let pieces: BTreeSet<&str> = g.pieces.iter().map(|p| p.name.as_str()).collect();
    let players: BTreeSet<&str> = g.players.iter().map(String::as_str).collect();
    for s in &g.setup {
        if !pieces.contains(s.piece.as_str()) {
            push(
                "spec::unknown-piece",
                format!(
                    "setup places `{}`, which is not a piece of the game",
                    s.piece
                ),
            );
        }
        if !players.is_empty() && !players.contains(s.player.as_str()) {
            push(
                "spec::unknown-player",
                format!("setup names player `{}`, who is not in players", s.player),
            );
        }
        for p in &s.positions {
            if !g.boards.is_empty() && !positions.contains(p.as_str()) {
                push(
                    "spec::unknown-position",
                    format!(
                        "setup places `{}` on `{p}`, which the board does not have",
                        s.piece
                    ),
                );
            }
        }
    }
}

/// Diagnostic code: a link, symmetry or opposite names a direction the board does not define.
pub const CODE_UNKNOWN_DIRECTION: &str = "spec::unknown-direction";

fn check_board(bi: usize, b: &Board, push: &mut impl FnMut(&'static str, String)) {
    let names: BTreeSet<&str> = b.positions.iter().map(|p| p.name.as_str()).collect();
    let dirs: BTreeSet<&str> = b.directions.iter().map(String::as_str).collect();
    for p in &b.positions {
        for l in &p.links {
            if !names.contains(l.to.as_str()) {
                push(
                    "spec::unknown-position",
                    format!(
                        "boards[{bi}]: `{}` links `{}` to `{}`, which the board does not have",
                        p.name, l.direction, l.to
                    ),
                );
            }
            if !dirs.contains(l.direction.as_str()) {
                push(
                    CODE_UNKNOWN_DIRECTION,
                    format!(
                        "boards[{bi}]: `{}` uses direction `{}`, which is not in directions",
                        p.name, l.direction
                    ),
                );
            }
        }
    }
    // Symmetries and opposites rename directions: every name they use must be one.
    for s in &b.symmetries {
        let mut reported = BTreeSet::new();
        for d in s.map.iter().flatten() {
            if !dirs.contains(d.as_str()) && reported.insert(d.as_str()) {
                push(
                    CODE_UNKNOWN_DIRECTION,
                    format!(
                        "boards[{bi}]: the symmetry for {} names `{d}`, which is not a direction of the board",
                        s.player
                    ),
                );
            }
        }
    }
    for o in &b.opposites {
        for d in [&o.direction, &o.opposite] {
            if !dirs.contains(d.as_str()) {
                push(
                    CODE_UNKNOWN_DIRECTION,
                    format!(
                        "boards[{bi}]: opposites name `{d}`, which is not a direction of the board"
                    ),
                );
            }
        }
    }
    for z in &b.zones {
        for p in &z.positions {
            if !names.contains(p.as_str()) {
                push(
                    "spec::unknown-position",
                    format!(
                        "boards[{bi}]: zone `{}` names `{p}`, which the board does not have",
                        z.name
                    ),
                );
            }
        }
    }
    if b.layout.is_empty() {
        return;
    }
    let (computed, issues) = geometry::compute(&b.layout);
    let unbuilt: Vec<_> = issues
        .iter()
        .filter(|i| i.code == geometry::CODE_BAD_CONSTRUCTION)
        .collect();
    for i in &unbuilt {
        push(i.code, format!("boards[{bi}]: {}", i.message));
    }
    if !unbuilt.is_empty() {
        return; // nothing to compare the listed positions with
    }
    if computed.directions != b.directions {
        push(
            "spec::layout-mismatch",
            format!(
                "boards[{bi}]: directions {:?} differ from the {:?} the layout defines",
                b.directions, computed.directions
            ),
        );
    }
    if computed.positions.len() != b.positions.len() {
        push(
            "spec::layout-mismatch",
            format!(
                "boards[{bi}]: {} positions listed, the layout makes {}",
                b.positions.len(),
                computed.positions.len()
            ),
        );
    }
    for (a, c) in b.positions.iter().zip(&computed.positions) {
        if a != c {
            push(
                "spec::layout-mismatch",
                format!(
                    "boards[{bi}]: position `{}` differs from what the layout makes (`{}` with rect {:?} and {} links)",
                    a.name,
                    c.name,
                    c.rect,
                    c.links.len()
                ),
            );
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::types::*;

    fn doc_with(board: Board) -> Document {
        Document {
            spec_version: crate::spec::SPEC_VERSION.into(),
            source: Source::default(),
            procedures: vec![],
            games: vec![Game {
                kind: EntryKind::Game,
                title: "t".into(),
                variant_of: None,
                default: false,
                texts: Texts::default(),
                players: vec!["A".into()],
                turn_order: TurnOrder::default(),
                options: vec![],
                sounds: vec![],
                boards: vec![board],
                pieces: vec![Piece {
                    name: "P".into(),
                    ..Default::default()
                }],
                setup: vec![Placement {
                    player: "A".into(),
                    piece: "P".into(),
                    positions: vec!["a1".into()],
                    off: None,
                }],
                goals: vec![],
                move_priorities: vec![],
                extensions: Extensions::default(),
                engine: None,
            }],
        }
    }

    fn layout_board() -> Board {
        let layout = Layout {
            grids: vec![Grid {
                start_rectangle: [0, 0, 10, 10],
                dimensions: vec![
                    Dimension {
                        labels: vec!["a".into(), "b".into()],
                        offset: [10, 0],
                    },
                    Dimension {
                        labels: vec!["1".into()],
                        offset: [0, 10],
                    },
                ],
                directions: vec![GridDirection {
                    name: "e".into(),
                    delta: vec![1, 0],
                }],
            }],
            ..Default::default()
        };
        let (c, _) = geometry::compute(&layout);
        Board {
            directions: c.directions,
            positions: c.positions,
            layout,
            ..Default::default()
        }
    }

    #[test]
    fn a_consistent_document_has_no_issues() {
        assert_eq!(check(&doc_with(layout_board())), vec![]);
    }

    #[test]
    fn an_edited_link_disagrees_with_the_layout() {
        let mut b = layout_board();
        b.positions[0].links[0].to = "a1".into();
        let issues = check(&doc_with(b));
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].code, "spec::layout-mismatch");
        assert!(issues[0].message.contains("`a1`"), "{}", issues[0].message);
    }

    #[test]
    fn symmetries_and_opposites_name_only_directions_of_the_board() {
        let mut b = layout_board();
        b.symmetries = vec![Symmetry {
            player: "A".into(),
            map: vec![["e".into(), "e".into()], ["n".into(), "sn".into()]],
        }];
        b.opposites = vec![Opposite {
            direction: "e".into(),
            opposite: "w".into(),
        }];
        let messages: Vec<_> = check(&doc_with(b))
            .into_iter()
            .map(|i| format!("{} {}", i.code, i.message))
            .collect();
        assert_eq!(
            messages,
            [
                "spec::unknown-direction boards[0]: the symmetry for A names `n`, which is not a direction of the board",
                "spec::unknown-direction boards[0]: the symmetry for A names `sn`, which is not a direction of the board",
                "spec::unknown-direction boards[0]: opposites name `w`, which is not a direction of the board",
            ]
        );
    }

    #[test]
    fn unknown_names_are_reported() {
        let mut d = doc_with(layout_board());
        d.games[0].setup[0].positions = vec!["z9".into()];
        d.games[0].setup[0].piece = "Q".into();
        let codes: Vec<_> = check(&d).iter().map(|i| i.code).collect();
        assert_eq!(codes, ["spec::unknown-piece", "spec::unknown-position"]);
    }
}
