//! perft's shortcut against plain legal moves: the last ply is counted without listing the moves when nothing filters them, and must count exactly what `legal_moves` lists.

use crate::common;
use zogkit::engine::{self, Control, Rules, State};

/// Perft that lists every legal move and plays it, down to depth 0 (no shortcut).
fn listed(rules: &Rules, st: &mut State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = engine::legal_moves(rules, st).moves;
    let mut n = 0;
    for m in &moves {
        engine::play(rules, st, m);
        n += listed(rules, st, depth - 1);
        st.unmake();
    }
    n
}

/// Games without royal pieces, priorities or maximal captures (the shortcut's case), with a
/// setup phase (Seega), custodian captures (Hasami Shogi) and long moves (Gate).
#[test]
fn the_counted_last_ply_equals_the_listed_moves() {
    let Some(base) = common::shared_zrf() else {
        return;
    };
    for (file, want) in [
        ("dagaz/breakthrough/breakthrough.zrf", 11_132),
        ("dagaz/breakthrough/gate.zrf", 7_096),
        ("dagaz/custodian/hasami-shogi.zrf", 7_974),
        ("dagaz/custodian/seega.zrf", 6_840),
    ] {
        let bytes = std::fs::read(base.join(file)).unwrap();
        let doc = common::read_doc(zogkit::format::Format::Zrf, file, &bytes);
        let rules = Rules::compile(&doc, 0).unwrap_or_else(|e| panic!("{file}: {e}"));
        let mut st = State::start(&rules);
        let counted = engine::perft(&rules, &mut st, 3, &Control::default()).unwrap();
        assert_eq!(counted, listed(&rules, &mut st, 3), "{file}");
        assert_eq!(counted, want, "{file}");
    }
}
