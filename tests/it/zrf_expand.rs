//! Macro, include and variant semantics of the ZRF reader, one behaviour per test.

use crate::common::cpu::cpu_time;
use std::collections::HashMap;
use std::sync::Arc;
use zogkit::diag::Severity;
use zogkit::zrf::{self, EntryKind, IncludeError, IncludeLoader, ReadOptions, ZrfFile};

/// Includes served from memory, names matched case-insensitively like the CLI's loader.
struct Mem(HashMap<String, String>);

impl IncludeLoader for Mem {
    fn load(&mut self, _from: &str, name: &str) -> Result<(String, Arc<[u8]>), IncludeError> {
        self.0
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(k, v)| (k.clone(), v.as_bytes().into()))
            .ok_or_else(|| format!("{name} not found").into())
    }
}

fn read_with(src: &str, files: &[(&str, &str)]) -> ZrfFile {
    let mut mem = Mem(files
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect());
    zrf::read(
        "main.zrf",
        src.as_bytes(),
        &ReadOptions::default(),
        &mut mem,
    )
}

fn read(src: &str) -> ZrfFile {
    read_with(src, &[])
}

/// The compact text of entry `i`'s resolved form.
fn game(f: &ZrfFile, i: usize) -> String {
    f.expanded.entries[i]
        .form
        .as_ref()
        .expect("entry expanded")
        .to_compact()
}

fn codes(f: &ZrfFile) -> Vec<&'static str> {
    f.diagnostics.iter().map(|d| d.code).collect()
}

#[test]
fn multi_form_body_is_spliced_into_the_enclosing_list() {
    let f = read(
        "(define two-players (players White Black) (turn-order White Black))\n\
         (game (title \"t\") (two-players) (board))",
    );
    assert_eq!(
        game(&f, 0),
        "(game (title \"t\") (players White Black) (turn-order White Black) (board))"
    );
    assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
}

#[test]
fn dollar_k_is_textual_inside_atoms_and_strings_with_greedy_digits() {
    let f = read(
        "(define pc (piece (name $1$2) (image $1 \"images/$1/$2.bmp\") (x $10 N$1)))\n\
         (game (pc White King a b c d e f g h))",
    );
    assert_eq!(
        game(&f, 0),
        "(game (piece (name WhiteKing) (image White \"images/White/King.bmp\") (x h NWhite)))"
    );
}

#[test]
fn macros_may_be_used_before_they_are_defined() {
    let f = read("(game (title \"x\") (later))\n(define later (board))");
    assert_eq!(game(&f, 0), "(game (title \"x\") (board))");
}

#[test]
fn arguments_pass_through_nested_calls_in_the_callers_scope() {
    // rule 4: (b X) → (a X x) → (got X x)
    let f = read("(define a (got $1 $2))(define b (a $1 x))(game (b X))");
    assert_eq!(game(&f, 0), "(game (got X x))");
}

#[test]
fn unbound_parameters_are_found_in_enclosing_calls_dynamic_scope() {
    // The corpus idiom: a zero-argument helper uses the arguments of the macro that calls it.
    let f = read(
        "(define common-slide ($2 (while empty? add $2) $4))\n\
         (define slide (moves (common-slide)))\n\
         (game (piece (slide a n b e)))",
    );
    assert_eq!(
        game(&f, 0),
        "(game (piece (moves (n (while empty? add n) e))))"
    );
    assert!(!codes(&f).contains(&"zrf::unbound-param"));
}

#[test]
fn a_parameter_no_call_binds_stays_literal_with_a_located_warning() {
    let src = "(define step ((verify (in-zone? $2)) $1 add))\n(game (moves (step nx)))";
    let f = read(src);
    assert_eq!(
        game(&f, 0),
        "(game (moves ((verify (in-zone? $2)) nx add)))"
    );
    let d = f
        .diagnostics
        .iter()
        .find(|d| d.code == "zrf::unbound-param")
        .expect("warning");
    assert_eq!(d.severity, Severity::Warning);
    let (file, line, col) = d.location(&f.sources).unwrap();
    assert_eq!((file.as_str(), line, col), ("main.zrf", 1, 33));
    // The note points at the call in the game.
    let call = d.notes[0].0.unwrap();
    assert_eq!(
        f.sources.get(call.file).unwrap().line_col(call.start),
        (2, 14)
    );
}

#[test]
fn extra_arguments_are_ignored_and_noted_once_per_macro() {
    let f = read("(define m (x $1))(game (m a b) (m c d))");
    assert_eq!(game(&f, 0), "(game (x a) (x c))");
    let arity: Vec<_> = f
        .diagnostics
        .iter()
        .filter(|d| d.code == "zrf::macro-arity")
        .collect();
    assert_eq!(arity.len(), 1);
    assert_eq!(arity[0].severity, Severity::Note);
}

#[test]
fn head_is_matched_after_substitution() {
    let f = read("(define go-n (n))(define call ($1))(game (call go-n))");
    assert_eq!(game(&f, 0), "(game (n))");
}

#[test]
fn later_definition_wins_and_redefinition_is_reported_with_both_places() {
    let f = read("(define k (a))\n(define k (b))\n(game (k))");
    assert_eq!(game(&f, 0), "(game (b))");
    let d = &f.diagnostics[0];
    assert_eq!(d.code, "zrf::macro-redefined");
    assert_eq!(d.location(&f.sources).unwrap().1, 2);
    assert_eq!(d.notes[0].0.unwrap().start, 0);
}

#[test]
fn every_expanded_node_leads_back_to_its_call_site() {
    let src = "(define blk (verify empty?) add)\n(game\n  (moves (blk)))";
    let f = read(src);
    let g = f.expanded.entries[0].form.as_ref().unwrap();
    let moves = &g.args()[0];
    let verify = &moves.args()[0];
    assert_eq!(verify.head(), Some("verify"));
    use zogkit::zrf::expand::Sites;
    let (g_outer, m_outer) = (Sites::outer(0, g), Sites::outer(0, moves));
    assert_eq!((g_outer, m_outer), (0, 0)); // written in the game
    let site = Sites::outer(m_outer, verify);
    assert_ne!(site, 0);
    let call = f.expanded.sites.call_site(site, verify);
    assert_eq!(&src[call.start as usize..call.end as usize], "(blk)");
    // `empty?` inside the shared (verify empty?) subtree inherits the site.
    let inner = &verify.args()[0];
    assert_eq!(Sites::outer(site, inner), site);
    assert_eq!(f.expanded.sites.call_site(site, inner), call);
    assert_eq!(f.expanded.sites.chain(site).len(), 1);
}

#[test]
fn nested_calls_keep_the_whole_chain_and_memoised_calls_get_their_own_site() {
    use zogkit::zrf::expand::Sites;
    let src = "(define inner (x $1))\n(define outer (inner $1))\n(game (outer a)\n (outer a))";
    let f = read(src);
    let g = f.expanded.entries[0].form.as_ref().unwrap();
    assert_eq!(g.to_compact(), "(game (x a) (x a))");
    let (a, b) = (&g.args()[0], &g.args()[1]);
    let (sa, sb) = (Sites::outer(0, a), Sites::outer(0, b));
    assert_ne!(sa, sb);
    let names: Vec<String> = f
        .expanded
        .sites
        .chain(sa)
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(names, ["outer", "inner"]);
    let line = |s| {
        f.sources
            .get(zogkit::diag::FileId(0))
            .unwrap()
            .line_col(f.expanded.sites.call_site(s, a).start)
            .0
    };
    assert_eq!((line(sa), line(sb)), (3, 4));
}

#[test]
fn include_is_spliced_relative_and_case_insensitive() {
    let f = read_with(
        "(include \"COMMON.zrf\")\n(game (title \"x\") (shared))",
        &[("common.zrf", "(define shared (board (grid)))")],
    );
    assert_eq!(game(&f, 0), "(game (title \"x\") (board (grid)))");
    assert_eq!(f.sources.len(), 2);
}

#[test]
fn include_cycle_and_missing_include_are_errors() {
    let f = read_with(
        "(include \"a.inc\")(game (title \"x\"))",
        &[
            ("a.inc", "(include \"b.inc\")"),
            ("b.inc", "(include \"A.INC\")"),
        ],
    );
    assert!(codes(&f).contains(&"zrf::include-cycle"), "{:?}", codes(&f));
    let f = read("(include \"nope.zrf\")(game (title \"x\"))");
    assert_eq!(codes(&f), ["zrf::include-not-found"]);
}

#[test]
fn variants_resolve_against_the_first_game_even_when_they_come_first() {
    let src = "\
(variant (title \"V\") (piece (name Man) (moves (m2))))
(game (title \"G\") (players A B) (option \"animate captures\" false) (option \"smart moves\" true)
      (piece (name Man) (moves (m1))) (piece (name King) (moves (k)))
      (board-setup (A (Man a1) (King b1)))
      (loss-condition (A B) stalemated) (win-condition (A B) (pieces-remaining 0)))
(variant (title \"W\") (default) (option \"smart moves\" false)
      (piece (name Queen)) (win-condition (A B) stalemated))
(variant (title \"-\"))
(game (title \"Second\") (players C))";
    let f = read(src);
    let kinds: Vec<_> = f.expanded.entries.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            EntryKind::Variant { of: 1 },
            EntryKind::Game,
            EntryKind::Variant { of: 1 },
            EntryKind::Separator,
            EntryKind::Game
        ]
    );
    // Pieces override by name in place; the rest is inherited.
    assert_eq!(
        game(&f, 0),
        "(game (title \"V\") (players A B) (option \"animate captures\" false) (option \"smart moves\" true) \
(piece (name Man) (moves (m2))) (piece (name King) (moves (k))) (board-setup (A (Man a1) (King b1))) \
(loss-condition (A B) stalemated) (win-condition (A B) (pieces-remaining 0)))"
    );
    // Options override per name; goal conditions are replaced as a group; (default) is the variant's.
    assert_eq!(
        game(&f, 2),
        "(game (title \"W\") (players A B) (option \"animate captures\" false) (option \"smart moves\" false) \
(piece (name Man) (moves (m1))) (piece (name King) (moves (k))) (board-setup (A (Man a1) (King b1))) \
(win-condition (A B) stalemated) (piece (name Queen)))"
    );
    assert!(f.expanded.entries[2].default);
    assert!(!f.expanded.entries[1].default);
    assert!(f.expanded.entries[3].form.is_none());
}

#[test]
fn macro_bomb_is_refused_quickly_without_expanding() {
    // 2^40 nodes if expanded.
    let mut src = String::from("(define m0 (x))\n");
    for i in 1..=40 {
        src.push_str(&format!("(define m{i} (m{}) (m{}))\n", i - 1, i - 1));
    }
    src.push_str("(game (title \"bomb\") (m40))");
    let (f, cpu) = cpu_time(|| read(&src));
    assert!(cpu.as_secs_f64() < 1.0, "{cpu:?} of CPU time");
    assert!(
        codes(&f).contains(&"zrf::expansion-too-large"),
        "{:?}",
        codes(&f)
    );
    let d = f
        .diagnostics
        .iter()
        .find(|d| d.code == "zrf::expansion-too-large")
        .unwrap();
    assert_eq!(d.location(&f.sources).unwrap().1, 42);
    assert!(f.expanded.entries[0].form.is_none());
    assert!(f.expanded.nodes < 1000);
}

#[test]
fn recursive_macros_are_refused_at_the_first_call() {
    // Direct and mutual recursion: ZRF macros expand unconditionally, so both never end.
    for src in [
        "(define r (r) (r))\n(game (title \"x\") (r))",
        "(define a (b) (b))\n(define b (x) (a) (a))\n(game (title \"x\") (b))",
    ] {
        let (f, cpu) = cpu_time(|| read(src));
        assert!(cpu.as_secs_f64() < 0.5, "{cpu:?} of CPU time");
        let d = f
            .diagnostics
            .iter()
            .find(|d| d.code == "zrf::macro-recursive")
            .expect("recursion error");
        assert_eq!(d.severity, Severity::Error);
        assert!(f.expanded.nodes < 10, "{}", f.expanded.nodes);
    }
}

#[test]
fn dynamic_macro_heads_are_bounded_at_run_time_too() {
    // The predictor cannot see through `($1)` heads; the node counter still stops the bomb.
    let mut src = String::from("(define m0 (x x x x x x x x))\n");
    for i in 1..=12 {
        src.push_str(&format!(
            "(define m{i} ($1 m{p}) ($1 m{p}) ($1 m{p}) ($1 m{p}) ($1 m{p}) ($1 m{p}))\n(define c{i} ($1))\n",
            p = i - 1
        ));
    }
    // m_i calls `($1 m_{i-1})` where $1 = c: `(c m…)` → `(m…)` resolved only after substitution.
    src = src.replace("($1 m", "(c0 m");
    src.push_str("(define c0 ($1))\n(game (title \"x\") (m12))");
    let (f, cpu) = cpu_time(|| read(&src));
    assert!(cpu.as_secs_f64() < 2.0, "{cpu:?} of CPU time");
    assert!(
        codes(&f).iter().any(|c| matches!(
            *c,
            "zrf::expansion-too-large"
                | "zrf::macro-depth"
                | "zrf::macro-calls"
                | "zrf::list-too-long"
        )),
        "{:?}",
        codes(&f)
    );
}
