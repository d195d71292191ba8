//! The move engine: runs the spec's move programs with Zillions of Games' semantics.
//!
//! [`Rules::compile`] turns one game of a [`crate::spec::Document`] into resolved tables and
//! bytecode (refusing, with a message, anything it cannot run); [`State`] holds a position;
//! [`legal_moves`], [`play`] and [`perft`] run the game. The engine depends only on `spec`.
//!
//! Invariants, stated as absences:
//! - no quietly wrong count: a construct the engine cannot run refuses the whole game;
//! - no unbounded program: every block stops after [`Rules::step_limit`] steps and says so;
//!   one position's generation stops after [`Rules::block_run_limit`] block runs or
//!   [`Rules::move_limit`] moves, and all of a command's after [`Rules::work_limit`] steps
//!   ([`Cut`]: the answer is then an error, never a count);
//! - no board mutation during generation: every test sees the position before the move.

mod end;
mod fidelity;
mod fuse;
mod generate;
mod guard;
mod loops;
mod notation;
mod play;
mod reach;
mod replay;
mod rules;
mod state;
pub mod zsg;

pub use end::{End, end};
pub use fidelity::{Difference, Fidelity, compare};
pub use generate::{Cut, Overrun};
pub use notation::{Segment, attr_index, notation, segments, write};
pub use play::{
    Control, Moves, Outcome, divide, legal_moves, outcome, perft, piece_moves, play, start_perft,
};
pub use reach::ReachIndex;
pub use replay::{ReplayError, Replayed, Replayer, match_record, read_segments, replay, set_up};
pub use rules::{
    DEFAULT_BLOCK_RUN_LIMIT, DEFAULT_MOVE_LIMIT, DEFAULT_STEP_LIMIT, DEFAULT_WORK_LIMIT, Kind,
    Rules, RulesError,
};
pub use state::{Action, Move, Piece, State};
