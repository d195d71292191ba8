//! The move answer of `zogkit play` (`cargo bench --bench play`): for a few games, a seeded
//! random game played through the session's API as the page plays it — `POST /api/move` (the
//! move, the next position's legal moves, its end, the state as JSON) then `GET /api/moves` —
//! timed per move; prints the median, 90th percentile and worst time. The HTTP layer on
//! loopback adds its own (small) cost, not measured here. Figures only: nothing is asserted
//! about time. `PLAY_PLIES` (default 60) changes the length of each game.

use std::path::Path;
use std::time::Instant;
use zogkit::engine::Rules;
use zogkit::play::{DEFAULT_BUDGET, Session};

fn main() {
    // `cargo test --benches` runs benches without `--bench`: keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let plies: usize = if quick {
        4
    } else {
        std::env::var("PLAY_PLIES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(60)
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/corpus/zrf/dagaz");
    let games: &[(&Path, &str)] = &[
        (&shared.join("chess/chess.zrf"), "Chess"),
        (&shared.join("shogi-family/shogi.zrf"), "Shogi"),
        (&shared.join("xiangqi/xiangqi.zrf"), "XiangQi"),
        (&root.join("corpus/zrf/tai_shogi.zrf"), "Tai Shogi"),
    ];
    for (path, title) in games.iter().take(if quick { 1 } else { games.len() }) {
        let Ok(bytes) = std::fs::read(path) else {
            println!("{title}: {} not found, skipped", path.display());
            continue;
        };
        let read = zogkit::format::read(
            zogkit::format::Format::Zrf,
            &path.display().to_string(),
            &bytes,
            &Default::default(),
            &mut zogkit::zrf::NoIncludes,
        );
        let doc = read.document.expect("the file reads");
        let index = (0..doc.games.len())
            .find(|&i| doc.games[i].title == *title)
            .expect("the game is in the file");
        let rules = Rules::compile(&doc, index).expect("the engine runs it");
        let t = Instant::now();
        let mut s = Session::new(&doc, index, rules, "bench.zrf", DEFAULT_BUDGET);
        let load = t.elapsed().as_secs_f64() * 1e3;
        // The computer's choice at the start within one second: how deep it gets.
        let t = Instant::now();
        let r = s.handle("POST", "/api/think", br#"{"ms": 1000}"#);
        let thought: serde_json::Value = serde_json::from_slice(&r.body).unwrap_or_default();
        println!(
            "{title:<10} computer, 1 s at the start: {} in {:.0} ms, depth {}, {} positions",
            thought["notation"],
            t.elapsed().as_secs_f64() * 1e3,
            thought["depth"],
            thought["nodes"]
        );
        let mut times = Vec::new();
        let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..plies {
            let n = s.notations().len();
            if n == 0 {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let body = format!("{{\"index\": {}}}", seed % n as u64);
            let t = Instant::now();
            let r = s.handle("POST", "/api/move", body.as_bytes());
            let m = s.handle("GET", "/api/moves", b"");
            times.push(t.elapsed().as_secs_f64() * 1e3);
            assert_eq!((r.status, m.status), (200, 200));
        }
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        println!(
            "{title:<10} load {load:>7.1} ms; move answer over {} moves: median {:.2} ms, p90 {:.2} ms, worst {:.2} ms",
            times.len(),
            at(0.5),
            at(0.9),
            at(1.0)
        );
    }
}
