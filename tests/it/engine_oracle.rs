//! The engine against Fairy-Stockfish (pyffish): for ten shared-corpus games, zogkit's legal
//! moves equal Fairy-Stockfish's at every position two moves deep, and perft(3) is equal.
//!
//! Where a ZRF's own rules differ from Fairy-Stockfish's built-in variant, the comparison uses
//! a variant of `tests/oracle/zrf_variants.ini` that states the ZRF's rules (each difference and
//! the ZRF line behind it is in `docs/engine.md`). Needs `python3` with `pyffish` (installed by
//! `.ci/run`); outside CI the test is skipped with a note when pyffish is missing.

use crate::common;

use std::path::{Path, PathBuf};
use zogkit::engine::{self, Rules, State};

fn shared(rel: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/zrf")
        .join(rel);
    p.exists().then_some(p)
}

/// One comparison: a game of a shared-corpus file against a Fairy-Stockfish variant.
struct Case {
    file: &'static str,
    title: &'static str,
    /// Which of the entries with this title (0 = first).
    nth: usize,
    variant: &'static str,
    ini: bool,
    fen: Option<&'static str>,
    stop_at_end: bool,
    /// Moves played before comparing (setup phases Fairy-Stockfish does not have).
    before: &'static [&'static str],
}

fn rules(case: &Case) -> Rules {
    let (doc, index) = common::shared_game(case.file, case.title, case.nth);
    Rules::compile(&doc, index).unwrap_or_else(|e| panic!("{}: {e}", case.file))
}

fn uci(rules: &Rules, m: &engine::Move) -> String {
    let name = |p: Option<u32>| p.map_or(String::new(), |p| rules.positions[p as usize].clone());
    match m.from {
        Some(_) => format!("{}{}", name(m.from), name(m.to)),
        None => format!("@{}", name(m.to)),
    }
}

/// Root, depth-1 and depth-2 nodes with zogkit's moves; and zogkit's perft(3).
fn nodes(rules: &Rules, st: &mut State) -> (Vec<serde_json::Value>, u64) {
    let mut out = Vec::new();
    let mut leaves = 0;
    let walk =
        |path: &[String], st: &mut State, depth: usize, out: &mut Vec<_>| -> Vec<engine::Move> {
            let moves = engine::legal_moves(rules, st).moves;
            let list: Vec<String> = moves.iter().map(|m| uci(rules, m)).collect();
            out.push(serde_json::json!({"path": path, "moves": list}));
            let _ = depth;
            moves
        };
    let root = walk(&[], st, 0, &mut out);
    for m1 in &root {
        engine::play(rules, st, m1);
        let p1 = vec![uci(rules, m1)];
        let level1 = walk(&p1, st, 1, &mut out);
        for m2 in &level1 {
            engine::play(rules, st, m2);
            let p2 = vec![p1[0].clone(), uci(rules, m2)];
            leaves += walk(&p2, st, 2, &mut out).len() as u64;
            st.unmake();
        }
        st.unmake();
    }
    (out, leaves)
}

fn compare(case: &Case) {
    let rules = rules(case);
    let mut st = State::start(&rules);
    for text in case.before {
        let moves = engine::legal_moves(&rules, &mut st).moves;
        let m = moves
            .iter()
            .find(|m| engine::notation(&rules, &st, m) == *text)
            .unwrap_or_else(|| panic!("{}: setup move {text} is not legal", case.file))
            .clone();
        engine::play(&rules, &mut st, &m);
    }
    let (nodes, perft3) = nodes(&rules, &mut st);
    let ini = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/zrf_variants.ini");
    let job = serde_json::json!({
        "variant": case.variant,
        "ini": case.ini.then(|| ini.display().to_string()),
        "fen": case.fen,
        "stop_at_end": case.stop_at_end,
        "nodes": nodes,
    });
    let out = common::run_fsf_check(&job);
    assert!(
        out.status.success(),
        "fsf_check.py failed for {}",
        case.file
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    eprintln!(
        "{} ({}): {} positions compared, perft(3) zogkit {perft3}, Fairy-Stockfish {}",
        case.file, case.variant, report["nodes"], report["fsf_leaves"]
    );
    assert_eq!(
        report["mismatch_count"], 0,
        "{}: moves differ from Fairy-Stockfish's {}: {:#}",
        case.file, case.variant, report["mismatches"]
    );
    assert_eq!(report["fsf_leaves"], perft3, "{}: perft(3)", case.file);
}

const CASES: &[Case] = &[
    Case {
        file: "dagaz/chess/chess.zrf",
        title: "Chess",
        nth: 0,
        variant: "chess-zrf",
        ini: true,
        fen: None,
        stop_at_end: false,
        before: &[],
    },
    Case {
        file: "dagaz/xiangqi/xiangqi.zrf",
        title: "XiangQi",
        nth: 0,
        variant: "xiangqi-nofly",
        ini: true,
        fen: None,
        stop_at_end: false,
        before: &[],
    },
    Case {
        file: "dagaz/shogi-family/shogi.zrf",
        title: "Shogi",
        nth: 0,
        variant: "shogi-zrf",
        ini: true,
        fen: None,
        stop_at_end: false,
        before: &[],
    },
    Case {
        file: "dagaz/shogi-family/mini-shogi.zrf",
        title: "Mini Shogi",
        nth: 0,
        variant: "minishogi-zrf",
        ini: true,
        fen: None,
        stop_at_end: true,
        before: &[],
    },
    Case {
        file: "dagaz/shogi-family/kyoto-shogi.zrf",
        title: "Kyoto Shogi",
        nth: 0,
        variant: "kyotoshogi-zrf",
        ini: true,
        fen: Some("+lsk+np/5/5/5/P+NKS+L[-] w 0 1"),
        stop_at_end: true,
        before: &[],
    },
    Case {
        file: "dagaz/chess/makruk.zrf",
        title: "Makruk",
        nth: 0,
        variant: "makruk",
        ini: false,
        fen: None,
        stop_at_end: false,
        before: &[],
    },
    Case {
        file: "dagaz/chess/shatranj.zrf",
        title: "Shatranj",
        nth: 0,
        variant: "shatranj",
        ini: false,
        fen: None,
        stop_at_end: false,
        before: &[],
    },
    Case {
        file: "dagaz/chess/courier-chess.zrf",
        title: "Courier Chess",
        nth: 1,
        variant: "courier",
        ini: false,
        fen: None,
        stop_at_end: false,
        before: &[],
    },
    Case {
        file: "dagaz/xiangqi/janggi.zrf",
        title: "Janggi",
        nth: 0,
        variant: "janggi-nopass",
        ini: true,
        fen: None,
        stop_at_end: false,
        before: &[
            "Red Horse b1",
            "Red Horse h1",
            "Red Elephant c1",
            "Red Elephant g1",
            "Black Horse b10",
            "Black Horse h10",
            "Black Elephant c10",
            "Black Elephant g10",
        ],
    },
];

macro_rules! oracle_case {
    ($name:ident, $i:expr) => {
        #[test]
        #[ignore = "oracle check (pyffish, PyYAML, Ludii, Chromium or the whole corpus): .ci/run runs it; locally `cargo test -- --ignored`"]
        fn $name() {
            if shared(CASES[$i].file).is_none() || !common::pyffish_available() {
                eprintln!("note: shared corpus or pyffish missing; skipped");
                return;
            }
            compare(&CASES[$i]);
        }
    };
}

oracle_case!(chess_equals_fairy_stockfish, 0);
oracle_case!(xiangqi_equals_fairy_stockfish, 1);
oracle_case!(shogi_equals_fairy_stockfish, 2);
oracle_case!(mini_shogi_equals_fairy_stockfish, 3);
oracle_case!(kyoto_shogi_equals_fairy_stockfish, 4);
oracle_case!(makruk_equals_fairy_stockfish, 5);
oracle_case!(shatranj_equals_fairy_stockfish, 6);
oracle_case!(courier_equals_fairy_stockfish, 7);
oracle_case!(janggi_equals_fairy_stockfish, 8);

/// Chess from the shared corpus reaches the published perft counts (depth 5 is in the
/// benchmark: `cargo xtask bench`).
#[test]
fn chess_perft_matches_the_published_counts() {
    let Some(_) = shared("dagaz/chess/chess.zrf") else {
        return;
    };
    let rules = rules(&CASES[0]);
    let mut st = State::start(&rules);
    let ctl = engine::Control::default();
    let counts: Vec<u64> = (1..=4)
        .map(|d| engine::perft(&rules, &mut st, d, &ctl).unwrap())
        .collect();
    assert_eq!(counts, [20, 400, 8902, 197_281]);
}
