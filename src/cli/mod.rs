//! Command-line subcommands; the only code that reads files and chooses exit codes.

pub mod moves;
pub mod perft;
