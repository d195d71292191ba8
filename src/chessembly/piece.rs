//! Which piece a Chessembly script is: the piece named by a script read alone, and the one piece chosen to write (`--piece`).
//!
//! A Chessembly script describes one piece's movement and carries no name of its own, so the
//! reader names the piece after the file (its name without the extension), and a writer asked
//! for one piece of a game of several marks the others dummy.

use super::emit::CODE_UNEMITTABLE;
use crate::diag::{Diagnostic, Severity};
use crate::spec::Document;

/// Diagnostic code: `--piece NAME` names no piece of the game written.
pub const CODE_NO_SUCH_PIECE: &str = "chessembly::no-such-piece";

/// The name of the piece a script file describes: the file name (last path component) without
/// its extension.
pub fn name_of_file(name: &str) -> String {
    let file = name.rsplit(['/', '\\']).next().unwrap_or(name);
    file.rsplit_once('.').map_or(file, |(s, _)| s).to_string()
}

fn diag(code: &'static str, msg: String) -> Diagnostic {
    Diagnostic::new(Severity::Error, code, msg, None)
}

/// The document with only piece `name` of its first game left to write (`convert --to
/// chessembly --piece NAME`): the game's other pieces are marked dummy, so [`super::emit::emit_game`] writes
/// the one piece without a `piece(…)` guard. An error names the pieces there are.
pub fn select(doc: &Document, name: &str) -> Result<Document, Diagnostic> {
    let mut out = doc.clone();
    let game = out
        .games
        .iter_mut()
        .find(|g| g.pieces.iter().any(|p| !p.dummy))
        .ok_or_else(|| {
            diag(
                CODE_UNEMITTABLE,
                "the document has no piece to write as a Chessembly script".into(),
            )
        })?;
    let names: Vec<String> = game
        .pieces
        .iter()
        .filter(|p| !p.dummy)
        .map(|p| p.name.clone())
        .collect();
    if !names.iter().any(|n| n == name) {
        return Err(diag(
            CODE_NO_SUCH_PIECE,
            format!(
                "--piece {name}: game `{}` has no piece of that name; its pieces are {}",
                game.title,
                names.join(", ")
            ),
        ));
    }
    for p in &mut game.pieces {
        if p.name != name {
            p.dummy = true;
        }
    }
    Ok(out)
}
