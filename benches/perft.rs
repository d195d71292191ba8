//! Perft benchmark of the Chessembly-scripted chess engine (`cargo bench --bench perft`).
//!
//! A `harness = false` bench with no dependencies: it checks the node counts and prints the best
//! of a few runs for each depth. `zogkit perft --depth 5` gives the same numbers from the CLI.
//! Set `PERFT_DEPTH` (default 5) and `PERFT_RUNS` (default 3) to change the work.

use std::time::Instant;
use zogkit::chessembly::perft::Engine;

const EXPECTED: [u64; 6] = [1, 20, 400, 8_902, 197_281, 4_865_609];

fn main() {
    // `cargo test --benches` runs benches with `--bench` absent: keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let env = |k: &str, d: u32| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let depth = if quick {
        3
    } else {
        env("PERFT_DEPTH", 5).min(5)
    };
    let runs = if quick {
        1
    } else {
        env("PERFT_RUNS", 3).max(1)
    };
    let mut engine = Engine::start().expect("standard scripts compile");
    for d in 1..=depth {
        let mut best = f64::INFINITY;
        for _ in 0..runs {
            let t = Instant::now();
            let n = engine.perft(d);
            best = best.min(t.elapsed().as_secs_f64());
            assert_eq!(n, EXPECTED[d as usize], "perft({d})");
        }
        println!(
            "perft({d}) = {:>9} nodes  best of {runs}: {:>8.4} s  ({:.2} Mnodes/s)",
            EXPECTED[d as usize],
            best,
            EXPECTED[d as usize] as f64 / best / 1e6
        );
    }
}
