//! The `zogkit` command-line tool: `check`, and more subcommands as the readers and writers land.

mod cli;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Read, check, convert and render Zillions of Games (ZRF), Ludii and Chessembly game rules.
#[derive(Debug, Parser)]
#[command(name = "zogkit", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Read ZRF files or directories and report located diagnostics (exit 1 on errors).
    Check(cli::check::CheckArgs),
    /// Print a ZRF file's games and variants after includes, macros and variant resolution.
    Expand(cli::expand::ExpandArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() {
                cli::EXIT_USAGE
            } else {
                cli::EXIT_OK
            });
        }
    };
    // Deeply nested inputs and macro chains recurse; give worker threads room.
    let _ = rayon::ThreadPoolBuilder::new()
        .stack_size(64 << 20)
        .build_global();
    let code = match cli.command {
        Command::Check(a) => cli::check::run(a),
        Command::Expand(a) => cli::expand::run(a),
    };
    ExitCode::from(code)
}
