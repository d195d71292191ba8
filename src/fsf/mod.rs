//! Fairy-Stockfish `variants.ini`: every game of a spec as one standalone section, pieces in
//! Betza notation; and a reader for a subset of the format (`read`), checked by round trips.
//!
//! Move programs are read through `spec::moves` (`inline`, `visit`, `shape`); a block that none
//! of the shapes (nor en passant, castling or a long lame path) describes is reported as
//! `fsf::not-expressible` and left out, and the section says at its top that it is partial.
//! A game with nothing sensible to write (not two players, a board that is not a rectangle of
//! at most 12×10, no writable piece) is left out with `fsf::refused`. See `docs/fsf.md`.

mod betza;
mod board;
pub mod builtin;
mod lines;
mod pieces;
mod read;
mod setup;
mod template;
mod write;

pub use read::read;
pub use setup::Placed;
pub use write::{Section, Status, section_name, variant_name, write_game, write_game_at};

use crate::diag::{Diagnostic, Severity};
use crate::spec::{Document, EntryKind, Origins};

/// Diagnostic code: a rule of the game has no `variants.ini` form (it is left out).
pub const CODE_NOT_EXPRESSIBLE: &str = "fsf::not-expressible";
/// Diagnostic code: a rule is written as Fairy-Stockfish's nearest rule, which differs.
pub const CODE_APPROXIMATED: &str = "fsf::approximated";
/// Diagnostic code: a game is not written at all.
pub const CODE_REFUSED: &str = "fsf::refused";

/// The sections of every game of `doc` (menu separators skipped), with unique names.
pub fn sections(doc: &Document) -> Vec<Section> {
    sections_at(doc, &Origins::default())
}

/// [`sections`], each game's diagnostics located through `origins` (the reader's, this run).
pub fn sections_at(doc: &Document, origins: &Origins) -> Vec<Section> {
    let mut used: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for (gi, g) in doc.games.iter().enumerate() {
        if g.kind == EntryKind::Separator {
            continue;
        }
        let base = section_name(doc, &g.title);
        let mut name = base.clone();
        let mut n = 2;
        while used.contains(&name) || builtin::is_built_in(&name) {
            name = format!("{base}-{n}");
            n += 1;
        }
        used.push(name.clone());
        out.push(write_game_at(doc, gi, &name, origins.game(gi)));
    }
    out
}

/// The whole `variants.ini` text and its diagnostics; `Err` when no game could be written.
pub fn write(doc: &Document) -> Result<(String, Vec<Diagnostic>), Diagnostic> {
    write_at(doc, &Origins::default())
}

/// [`write()`], its diagnostics located where what they lose stands in the source (`origins`).
pub fn write_at(
    doc: &Document,
    origins: &Origins,
) -> Result<(String, Vec<Diagnostic>), Diagnostic> {
    let secs = sections_at(doc, origins);
    let mut text = String::new();
    let mut diags = Vec::new();
    let mut written = 0;
    for s in secs {
        diags.extend(s.diagnostics);
        if s.status != Status::Refused {
            if written > 0 {
                text.push('\n');
            }
            text.push_str(&s.text);
            written += 1;
        }
    }
    if written == 0 {
        let why: Vec<String> = diags.iter().map(|d| d.message.clone()).collect();
        return Err(Diagnostic::new(
            Severity::Error,
            CODE_REFUSED,
            format!(
                "no game of the document can be written as a Fairy-Stockfish variant: {}",
                if why.is_empty() {
                    "it has no game".to_string()
                } else {
                    why.join("; ")
                }
            ),
            None,
        ));
    }
    Ok((text, diags))
}
