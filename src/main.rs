//! The `zogkit` command-line tool.

use clap::{Parser, Subcommand};
use zogkit::cli;

#[derive(Parser)]
#[command(
    name = "zogkit",
    version,
    about = "Read, normalise and write ZRF, Ludii and Chessembly game rules"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the moves a Chessembly script gives one piece on a board.
    Moves(cli::moves::MovesArgs),
    /// Perft of the Chessembly-scripted chess engine (benchmark).
    #[command(hide = true)]
    Perft(cli::perft::PerftArgs),
}

fn main() {
    let code = match Cli::parse().command {
        Command::Moves(a) => cli::moves::run(&a),
        Command::Perft(a) => cli::perft::run(&a),
    };
    std::process::exit(code);
}
