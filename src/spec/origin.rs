//! Where a document's games, pieces and move blocks stand in the file read in this run (spans into the reader's `SourceMap`), so writers can locate what they lose; never serialised.

use crate::diag::Span;

/// The source locations of a document's parts, by game index; empty when the reader records
/// none (every reader but ZRF's, and documents not read in this run).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origins {
    /// One entry per game of the document, in order (fewer when unknown).
    pub games: Vec<GameOrigin>,
}

/// Where one game's parts stand.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameOrigin {
    /// The game (or variant) form.
    pub at: Option<Span>,
    /// Its pieces, in the document's order.
    pub pieces: Vec<PieceOrigin>,
}

/// Where one piece and its blocks stand.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PieceOrigin {
    /// The piece's name, as in the document.
    pub name: String,
    /// The piece form.
    pub at: Option<Span>,
    /// Each move block, in order.
    pub moves: Vec<Span>,
    /// Each drop block, in order.
    pub drops: Vec<Span>,
}

impl Origins {
    /// Game `g`'s origins (empty when unknown).
    pub fn game(&self, g: usize) -> &GameOrigin {
        static NONE: GameOrigin = GameOrigin {
            at: None,
            pieces: Vec::new(),
        };
        self.games.get(g).unwrap_or(&NONE)
    }
}

impl GameOrigin {
    /// The form of piece `name`, else the game's.
    pub fn piece(&self, name: &str) -> Option<Span> {
        self.pieces
            .iter()
            .find(|p| p.name == name)
            .and_then(|p| p.at)
            .or(self.at)
    }

    /// Block `i` (0-based) of piece `name`'s moves (or drops), else the piece's form, else the
    /// game's.
    pub fn block(&self, name: &str, drop: bool, i: usize) -> Option<Span> {
        let p = self.pieces.iter().find(|p| p.name == name);
        p.and_then(|p| if drop { &p.drops } else { &p.moves }.get(i).copied())
            .or_else(|| self.piece(name))
    }
}
