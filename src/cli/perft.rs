//! `zogkit perft` (hidden): perft of the Chessembly-scripted chess engine, with timings.

use std::time::Instant;
use zogkit::chessembly::perft::{Engine, START_FEN};

/// Arguments of `zogkit perft`.
#[derive(Debug, Clone, clap::Args)]
pub struct PerftArgs {
    /// Deepest depth; every depth from 1 is counted and timed.
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
    /// FEN of the position: placement, then optionally side to move, castling rights and en
    /// passant square (default: the start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
}

/// Prints `depth nodes seconds` lines; returns the exit code.
pub fn run(args: &PerftArgs) -> i32 {
    let mut engine = match Engine::from_fen(&args.fen) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    for d in 1..=args.depth {
        let t = Instant::now();
        let n = engine.perft(d);
        println!("perft({d}) = {n} in {:.3} s", t.elapsed().as_secs_f64());
    }
    0
}
