//! Chessembly: parse, compile and run fairy-chess piece scripts (see `docs/chessembly.md`).
//!
//! Pipeline: [`syntax::parse`] (text → [`syntax::Script`] with spans and diagnostics) →
//! [`program::compile`] (→ flat [`program::Program`] with resolved jumps and static chain shapes)
//! → [`interp::Rules`] (programs per piece kind; move generation, attack sets, `check`/`danger`).
//! [`lower()`] turns a script into a portable spec document and [`emit()`] writes a spec piece back
//! as a script.
//! [`perft`] is a small chess engine whose six pieces are all Chessembly scripts.

pub mod board;
pub mod canon;
pub mod emit;
pub mod interp;
pub mod lower;
pub mod perft;
pub mod piece;
pub mod program;
pub mod query;
pub mod syntax;

pub use board::{Board, Color, Piece, Square, square_name};
pub use emit::emit;
pub use interp::{Move, Rules, Scratch, State};
pub use lower::{LowerOptions, lower, lower_located};
pub use program::{ChainShape, Program, Reach, Sym, Symbols, compile};
pub use syntax::{Delta, MoveKind};

#[cfg(test)]
mod tests;
