//! The `.lud` writer against real Ludii (`../shared/tools/ludii`): shared-corpus ZRF games
//! written as `.lud` compile and start with the engine's legal moves (as sets of site pairs) and
//! have the engine's perft(2) in Ludii's own perft, and the project's own `.lud` files written
//! back start with the moves Ludii gives the originals. Skipped with a note when java or the
//! oracle is missing, unless `CI` is set.

use crate::common;

#[path = "../oracle/lud_oracle.rs"]
mod lud_oracle;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use zogkit::diag::{FileId, Severity};
use zogkit::format::{self, Format};
use zogkit::ludii::{read_lud, write_lud};

/// Games whose written `.lud` must compile and start with exactly the engine's moves.
const SAME_START: &[&str] = &[
    "dagaz/chess/chess.zrf",
    "dagaz/xiangqi/xiangqi.zrf",
    "dagaz/shogi-family/shogi.zrf",
    "dagaz/checkers/english-checkers.zrf",
    "dagaz/chess/makruk.zrf",
    "dagaz/chess/shatranj.zrf",
    "dagaz/chess/courier-chess.zrf",
    "dagaz/chess/chaturanga.zrf",
    "dagaz/chess/mini-chess.zrf",
    "dagaz/chess/pawn-wars.zrf",
    "dagaz/shogi-family/mini-shogi.zrf",
    "dagaz/shogi-family/kyoto-shogi.zrf",
    "dagaz/shogi-family/chu-shogi.zrf",
    "dagaz/checkers/international-checkers.zrf",
    "dagaz/checkers/russian-checkers.zrf",
    "dagaz/checkers/turkish-dama.zrf",
    "dagaz/breakthrough/breakthrough.zrf",
    "dagaz/breakthrough/jungle.zrf",
    "dagaz/go-family/go.zrf",
    "dagaz/other-games/reversi.zrf",
    "dagaz/renju-family/renju.zrf",
    "dagaz/stalemate/amazons.zrf",
    "dagaz/arrange/connect-four.zrf",
    "dagaz/xiangqi/dark-chinese-chess.zrf",
];

/// Games of [`SAME_START`] whose Ludii perft(2) is not yet the engine's, and why. Every other
/// one must equal it; an entry must go when its game does.
const PERFT2_DIFFERS: &[(&str, &str)] = &[
    (
        "dagaz/go-family/go.zrf",
        "ZoG's Go may pass at any turn, which the engine counts; the written file passes only when forced",
    ),
    (
        "dagaz/stalemate/amazons.zrf",
        "the arrow shot, a partial move, is not written",
    ),
];

/// Janggi starts with a setup phase (players drop horses and elephants) that the writer
/// cannot express: the file must compile and say so at its top, and its moves differ.
const PARTIAL: &[(&str, &str)] = &[("dagaz/xiangqi/janggi.zrf", "drops of piece `Horse`")];

/// Own `.lud` files whose Ludii start cannot survive the round trip yet, and why. The written
/// file must still start in Ludii; the entry must go when the pair starts alike.
const KNOWN: &[(&str, &str)] = &[(
    "draughts.lud",
    "the original does not compile in Ludii: `(result Loss)` lacks its role",
)];

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The oracle, or `None` with a note (a failure under CI).
fn oracle(work: &Path) -> Option<lud_oracle::Oracle> {
    match lud_oracle::find(repo(), work) {
        Ok(o) => Some(o),
        Err(e) if std::env::var_os("CI").is_some() => panic!("Ludii oracle unusable: {e}"),
        Err(e) => {
            eprintln!("SKIPPED: {e} (set CI=1 to make this a failure)");
            None
        }
    }
}

fn read_zrf(path: &Path) -> zogkit::spec::Document {
    let bytes = std::fs::read(path).unwrap();
    let name = path.file_name().unwrap().to_str().unwrap();
    let r = format::read(
        Format::Zrf,
        name,
        &bytes,
        &Default::default(),
        &mut zogkit::zrf::NoIncludes,
    );
    r.document
        .unwrap_or_else(|| panic!("{}: does not read", path.display()))
}

#[test]
#[ignore = "oracle check (pyffish, PyYAML, Ludii, Chromium or the whole corpus): .ci/run runs it; locally `cargo test -- --ignored`"]
fn written_lud_compiles_and_starts_like_the_engine() {
    let Some(corpus) = common::shared_zrf() else {
        return;
    };
    let work = common::scratch_dir("ludii-writer");
    let Some(oracle) = oracle(&repo().join("target/lud-oracle-java")) else {
        return;
    };
    let mut jobs: Vec<(PathBuf, String, Option<zogkit::spec::Document>)> = Vec::new();
    let mut engine = BTreeMap::new();
    for rel in SAME_START.iter().chain(PARTIAL.iter().map(|(r, _)| r)) {
        let doc = read_zrf(&corpus.join(rel));
        let (text, diags) = write_lud(&doc);
        let errors: Vec<&String> = diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| &d.message)
            .collect();
        assert!(errors.is_empty(), "{rel}: writer errors {errors:?}");
        let out = work.join(rel.replace('/', "__")).with_extension("lud");
        std::fs::write(&out, &text).unwrap();
        if SAME_START.contains(rel) {
            engine.insert(out.clone(), lud_oracle::engine_moves(&doc).unwrap());
        }
        jobs.push((out, rel.to_string(), None));
    }
    // The project's own .lud files, read and written back, beside their originals.
    let own: Vec<PathBuf> = common::files_with_ext(&repo().join("corpus/ludii"), "lud")
        .into_iter()
        // Error cases, and the board zogkit cannot read (not a game Ludii compiles either).
        .filter(|p| {
            let name = p.to_str().unwrap();
            !name.contains("_err_") && !name.contains("unsupported")
        })
        .collect();
    assert!(own.len() >= 6);
    let mut pairs = Vec::new();
    for p in &own {
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        let (doc, _) = read_lud(&name, &std::fs::read_to_string(p).unwrap(), FileId(0));
        let (text, _) = write_lud(&doc.unwrap());
        let out = work.join(format!("own__{name}"));
        std::fs::write(&out, &text).unwrap();
        pairs.push((p.clone(), out));
    }
    let mut files: Vec<PathBuf> = jobs.iter().map(|j| j.0.clone()).collect();
    for (a, b) in &pairs {
        files.push(a.clone());
        files.push(b.clone());
    }
    let verdicts = oracle.run(&files, 30.0).expect("the oracle runs");
    let same_start: Vec<PathBuf> = jobs
        .iter()
        .filter(|j| SAME_START.contains(&j.1.as_str()))
        .map(|j| j.0.clone())
        .collect();
    let ludii_perft =
        lud_oracle::batch_perft(repo(), &work, &same_start, 2, 30, &work.join("perft"))
            .expect("the oracle's perft runs");
    let mut failures = Vec::new();
    let started = |p: &Path| -> Result<&lud_oracle::Verdict, String> {
        let v = verdicts.get(p).ok_or("no verdict")?;
        if v.compile != Some(true) {
            return Err(format!("Ludii does not compile it: {:?}", v.error));
        }
        match (&v.error, &v.moves) {
            (None, Some(_)) => Ok(v),
            (e, _) => Err(format!("Ludii: {e:?}")),
        }
    };
    for (out, rel, _) in &jobs {
        let v = match started(out) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{rel}: {e}"));
                continue;
            }
        };
        if SAME_START.contains(&rel.as_str()) {
            let doc = read_zrf(&corpus.join(rel));
            let ours = lud_oracle::engine_perft(&doc, 2).unwrap();
            let theirs = ludii_perft.get(out).cloned().unwrap_or_default();
            let known = PERFT2_DIFFERS.iter().any(|(r, _)| r == rel);
            if known && ours == theirs {
                failures.push(format!(
                    "{rel}: perft(2) now equal: remove it from PERFT2_DIFFERS"
                ));
            } else if !known && ours != theirs {
                failures.push(format!(
                    "{rel}: perft 1, 2: engine {ours:?}, Ludii on the written file {theirs:?}"
                ));
            }
        }
        if let Some((want, sites)) = engine.get(out) {
            let got = lud_oracle::normalise(v.moves.as_ref().unwrap(), *sites);
            if got != *want {
                failures.push(format!(
                    "{rel}: start moves differ: engine only {:?}, Ludii only {:?}",
                    want.difference(&got).collect::<Vec<_>>(),
                    got.difference(want).collect::<Vec<_>>()
                ));
            }
        }
        if let Some((_, lost)) = PARTIAL.iter().find(|(r, _)| r == rel) {
            let text = std::fs::read_to_string(out).unwrap();
            let head: String = text.lines().take_while(|l| l.starts_with("//")).collect();
            if !head.contains("partial translation") || !head.contains(lost) {
                failures.push(format!("{rel}: not marked partial for {lost}"));
            }
        }
    }
    for (orig, written) in &pairs {
        let name = orig.file_name().unwrap().to_str().unwrap();
        if KNOWN.iter().any(|(k, _)| *k == name) {
            let same =
                matches!((started(orig), started(written)), (Ok(a), Ok(b)) if a.moves == b.moves);
            assert!(
                !same,
                "{name} now round-trips in Ludii: remove it from KNOWN"
            );
            if let Err(e) = started(written) {
                failures.push(format!("{name}: written back, {e}"));
            }
            continue;
        }
        match (started(orig), started(written)) {
            (Ok(a), Ok(b)) if a.moves == b.moves => {}
            (Ok(a), Ok(b)) => failures.push(format!(
                "{}: written back, Ludii's start moves change from {:?} to {:?}",
                orig.display(),
                a.moves,
                b.moves
            )),
            (a, b) => failures.push(format!(
                "{}: original {:?}, written back {:?}",
                orig.display(),
                a.err(),
                b.err()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every `(end …)` form the writer emits reads back typed: for each goal kind and condition the
/// writer can express, write a game with only that goal, read the `.lud` back with zogkit's own
/// reader and compare the goals. `captured` is written as "no piece of that type remains" (one
/// `(= (count Pieces Next "P") 0)` per type, `(or {…})` for several), and reads back as that.
#[test]
fn every_end_form_the_writer_emits_reads_back_typed() {
    use zogkit::spec::{Goal, GoalCond, GoalKind};
    let zrf = r#"(game (title "Ends") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
    (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0)))
    (zone (name goal) (players White Black) (positions a3 c1)))
  (piece (name King) (moves (n add) (s add)))
  (piece (name Pawn) (moves (e add) (w add)))
  (board-setup (White (King a1) (Pawn b1)) (Black (King c3) (Pawn b3))))"#;
    let r = format::read(
        Format::Zrf,
        "ends.zrf",
        zrf.as_bytes(),
        &Default::default(),
        &mut zogkit::zrf::NoIncludes,
    );
    let mut base = r.document.expect("reads");
    base.source.format = "yaml".into(); // no implicit "cannot move loses" goal from ZoG
    let pr = |count: &str, piece: Option<&str>| GoalCond::PiecesRemaining {
        count: count.into(),
        piece: piece.map(String::from),
    };
    let conds: Vec<(GoalCond, GoalCond)> = vec![
        (GoalCond::Stalemated, GoalCond::Stalemated),
        (pr("0", None), pr("0", None)),
        // Counts that do not hold in the start position (two pieces each, one king): a count
        // goal that does is not read (Ludii tests the end only after a move).
        (pr("1", None), pr("1", None)),
        (pr("0", Some("Pawn")), pr("0", Some("Pawn"))),
        (pr("2", Some("King")), pr("2", Some("King"))),
        (
            GoalCond::Captured {
                pieces: vec!["King".into()],
            },
            pr("0", Some("King")),
        ),
        (
            GoalCond::Captured {
                pieces: vec!["King".into(), "Pawn".into()],
            },
            GoalCond::Or(vec![pr("0", Some("King")), pr("0", Some("Pawn"))]),
        ),
        (
            GoalCond::Checkmated {
                pieces: vec!["King".into()],
            },
            GoalCond::Checkmated {
                pieces: vec!["King".into()],
            },
        ),
        (
            GoalCond::Line {
                length: 3,
                directions: vec![],
            },
            GoalCond::Line {
                length: 3,
                directions: vec![],
            },
        ),
        (
            GoalCond::Line {
                length: 2,
                directions: vec!["N".into()],
            },
            GoalCond::Line {
                length: 2,
                directions: vec!["N".into()],
            },
        ),
        (
            GoalCond::Connected {
                zones: vec!["goal".into()],
                directions: vec![],
            },
            GoalCond::Connected {
                zones: vec!["goal".into()],
                directions: vec![],
            },
        ),
        (
            GoalCond::Connected {
                zones: vec!["goal".into()],
                directions: vec!["N".into(), "S".into()],
            },
            GoalCond::Connected {
                zones: vec!["goal".into()],
                directions: vec!["N".into(), "S".into()],
            },
        ),
    ];
    let mut checked = 0;
    for kind in [
        GoalKind::Win,
        GoalKind::Loss,
        GoalKind::Draw,
        GoalKind::Count,
    ] {
        for (cond, back) in &conds {
            let mut doc = base.clone();
            let players = doc.games[0].players.clone();
            let goal = |condition: GoalCond| Goal {
                kind,
                players: players.clone(),
                condition,
            };
            doc.games[0].goals = vec![goal(cond.clone())];
            let (text, wdiags) = write_lud(&doc);
            assert!(
                wdiags.iter().all(|d| d.severity < Severity::Warning),
                "{kind:?} {cond:?}: the writer reported {wdiags:?}"
            );
            assert!(text.contains("(end "), "{kind:?} {cond:?}:\n{text}");
            let (read, rdiags) = read_lud("ends.lud", &text, FileId(0));
            let read = read.unwrap_or_else(|| panic!("{kind:?} {cond:?}: {rdiags:?}\n{text}"));
            let g = &read.games[0];
            // Ludii names the players P1, P2: every goal is for all of them.
            let expected = Goal {
                kind,
                players: g.players.clone(),
                condition: back.clone(),
            };
            assert_eq!(
                g.goals,
                vec![expected],
                "{kind:?} {cond:?} read back from\n{text}\n{rdiags:?}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 4 * conds.len());
}

/// A two-piece game for the play-wide promotion tests: the Pawn promotes on the last rank;
/// `rook` and `queen` are those pieces' moves and `drops` the Pawn's drops (the macro `rook-n`, used twice, is
/// shared into a procedure that the Rook's block calls).
fn promotion_game(rook: &str, queen: &str, drops: &str) -> zogkit::spec::Document {
    let zrf = format!(
        r#"(define rook-n (n (verify empty?) n (verify empty?) add))
(game (title "Promo") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 30 30) (dimensions ("a/b/c" (30 0)) ("3/2/1" (0 30)))
    (directions (n 0 -1) (s 0 1))))
  (board-setup (White (Pawn a1) (Rook c1)) (Black (Pawn a3) (Rook c3)))
  (zone (name last) (players White) (positions a3 b3 c3))
  (zone (name last) (players Black) (positions a1 b1 c1))
  (piece (name Pawn) (moves (n (verify empty?) (if (in-zone? last) (add Queen) else add))){drops})
  (piece (name Rook) (moves {rook}))
  (piece (name Queen) (moves {queen}))
  (win-condition (White Black) stalemated))"#
    );
    let r = format::read(
        Format::Zrf,
        "promo.zrf",
        zrf.as_bytes(),
        &Default::default(),
        &mut zogkit::zrf::NoIncludes,
    );
    assert_eq!(r.errors(), 0);
    r.document.expect("the game reads")
}

/// The `(play …)` part of a written game.
fn play_of(text: &str) -> String {
    // `(play` followed by a space or a line break (not `(players`).
    let at = text
        .match_indices("(play")
        .find(|(i, _)| text[i + 5..].starts_with(char::is_whitespace))
        .map_or(text.len(), |(i, _)| i);
    let play = &text[at..];
    let play = play.split_once("(end").map_or(play, |(p, _)| p);
    play.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A play-wide `(then (promote …))` promotes every piece: it may stand for the source only when
/// every block of every piece promotes alike. A Rook whose plain move sits in a shared
/// procedure (a block that is one `call`) never promotes, so the promotion stays on the Pawn.
#[test]
fn a_plain_move_inside_a_procedure_keeps_the_promotion_off_the_whole_play() {
    let doc = promotion_game("(rook-n)", "(rook-n)", "");
    assert!(
        !doc.procedures.is_empty(),
        "the shared macro became a procedure"
    );
    let rook = &doc.games[0].pieces[1];
    assert!(matches!(
        rook.moves[0].program.as_slice(),
        [zogkit::spec::Instr::Call(_)]
    ));
    let (text, _) = write_lud(&doc);
    assert!(
        !play_of(&text).contains("(promote (last To)"),
        "no play-wide promotion:\n{text}"
    );
    assert!(
        text.contains("(promote (last To)"),
        "the Pawn's own move promotes:\n{text}"
    );
}

/// Drops into the zone would be promoted by a play-wide promotion too; without them, a game
/// whose every block promotes alike gets the play-wide promotion.
#[test]
fn a_drop_keeps_the_promotion_off_the_whole_play() {
    let all_promote = "(n (verify empty?) (if (in-zone? last) (add Queen) else add))";
    let play_wide = "(promote (last To)";
    let (text, _) = write_lud(&promotion_game(all_promote, "", ""));
    assert!(
        play_of(&text).contains(play_wide),
        "a play-wide promotion:\n{text}"
    );
    let with_drop = promotion_game(all_promote, "", " (drops ((verify empty?) add))");
    let (text, _) = write_lud(&with_drop);
    assert!(
        !play_of(&text).contains(play_wide),
        "no play-wide promotion with drops:\n{text}"
    );
}

/// The `.lud` the writer prints for a ZRF game reads back to the same moves, block for block
/// (calls inlined): the writer prints from the movement table and the reader generates
/// through it. Each piece is one form the writer used to lose or that read back untyped: a
/// step onto anything, a promotion in a slide's run with a choice (ZoG's optional promotion),
/// a step that promotes, the pawn's double step whose first step must reach a zone, a
/// two-link leap, and a hop that captures and promotes.
#[test]
fn zrf_moves_read_back_from_the_written_lud_unchanged() {
    let zrf = r#"(game (title "Back") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 30 30) (dimensions ("a/b/c/d/e" (30 0)) ("5/4/3/2/1" (0 30)))
    (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1)))
    (symmetry Black (n s) (s n) (ne se) (se ne) (nw sw) (sw nw))
    (zone (name last) (players White) (positions a5 b5 c5 d5 e5))
    (zone (name last) (players Black) (positions a1 b1 c1 d1 e1))
    (zone (name third) (players White) (positions a2 b2 c2 d2 e2))
    (zone (name third) (players Black) (positions a4 b4 c4 d4 e4)))
  (board-setup (White (Man a1) (Rook b1) (Pawn c1) (Knight d1) (Jumper e1))
               (Black (Man a5) (Rook b5) (Pawn c5) (Knight d5) (Jumper e5)))
  (piece (name Man) (moves (n add) (e add)))
  (piece (name Rook) (moves
    (n (while empty? (if (in-zone? last) (add Rook Queen) else add) n)
       (verify enemy?) (if (in-zone? last) (add Rook Queen) else add))))
  (piece (name Pawn) (moves
    (n (verify empty?) (if (in-zone? last) (add Queen) else add))
    (n (verify empty?) (verify (in-zone? third)) n (verify empty?) add)))
  (piece (name Knight) (moves (n ne (verify not-friend?) add) (n nw (verify not-friend?) add)))
  (piece (name Jumper) (moves (n (verify enemy?) capture n (verify empty?)
    (if (in-zone? last) (add Queen) else add))))
  (piece (name Queen) (moves (n (while empty? add n) (verify not-friend?) add)))
  (win-condition (White Black) stalemated))"#;
    let r = format::read(
        Format::Zrf,
        "back.zrf",
        zrf.as_bytes(),
        &Default::default(),
        &mut zogkit::zrf::NoIncludes,
    );
    assert_eq!(r.errors(), 0);
    let doc = r.document.expect("the game reads");
    let (text, warnings) = write_lud(&doc);
    let lost: Vec<&String> = warnings
        .iter()
        .map(|w| &w.message)
        .filter(|m| m.contains("move block"))
        .collect();
    assert!(lost.is_empty(), "every block is written: {lost:?}\n{text}");
    // Ludii's `ahead` turns no relative direction for Black: the double step is written once
    // per player in absolute directions, and must read back as one move.
    assert!(
        text.contains("(is Mover P2)") && text.contains("(ahead (from) S)"),
        "per-player paths:\n{text}"
    );
    let (back, diags) = read_lud("back.lud", &text, FileId(0));
    assert!(
        diags.iter().all(|d| !d.message.contains("no typed form")),
        "{diags:?}\n{text}"
    );
    let back = back.expect("the written game reads");
    let (g, b) = (&doc.games[0], &back.games[0]);
    let mut inl = zogkit::spec::moves::Inliner::new(doc.procedures.len());
    for p in &g.pieces {
        let q = b
            .pieces
            .iter()
            .find(|q| q.name == p.name)
            .expect("the piece is written");
        let inlined: Vec<_> = p
            .moves
            .iter()
            .map(|m| zogkit::spec::moves::inline(&m.program, &doc.procedures, &mut inl))
            .collect();
        // Ludii names the grid's directions in capitals (`n` is `N`).
        let mut want: Vec<String> = inlined
            .iter()
            .map(|p| format!("{p:?}").to_uppercase())
            .collect();
        let mut got: Vec<String> = q
            .moves
            .iter()
            .map(|m| format!("{:?}", m.program).to_uppercase())
            .collect();
        want.sort();
        got.sort();
        assert_eq!(want, got, "piece {}:\n{text}", p.name);
    }
}

/// ZoG's `piece?` tests a type whoever owns it, and Ludii's piece ids are per player: a hop that
/// captures the Pawn it jumps (a typed path) tests the jumped site for either player's Pawn,
/// not only the mover's.
#[test]
fn a_piece_test_of_a_jumped_site_names_every_players_piece() {
    let doc = promotion_game(
        "(n (verify (piece? Pawn)) (capture) n (verify empty?) add)",
        "(n (verify empty?) add)",
        "",
    );
    let (text, _) = write_lud(&doc);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("(move Hop"), "the hop is written:\n{text}");
    for p in ["P1", "P2"] {
        let test = format!("(= (what at:(between)) (id \"Pawn\" {p}))");
        assert!(flat.contains(&test), "{test} missing:\n{text}");
    }
    assert!(
        !flat.contains("(what at:(between)) (id \"Pawn\" Mover))"),
        "the jumped piece is not the mover's:\n{text}"
    );
}

/// A crafted game of janggi cannons (`janggi.zrf`'s `shoot`: over a screen that is not a
/// cannon, to the empty sites after it or onto the first piece after it if that is neither
/// friendly nor a cannon), with soldiers as screens.
const JANGGI_CANNONS: &str = r#"
(define shoot (
  $1 (while empty? $1)
  (verify (not-piece? Cannon)) $1
  (while empty? add $1)
  (verify not-friend?)
  (verify (not-piece? Cannon))
  add
))
(define step1 ($1 (verify not-friend?) add))
(game
  (title "Janggi cannons")
  (players Red Blue)
  (turn-order Red Blue)
  (board
    (grid
      (start-rectangle 0 0 30 30)
      (dimensions ("a/b/c/d/e/f/g" (30 0)) ("7/6/5/4/3/2/1" (0 30)))
      (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))
    )
  )
  (board-setup
    (Red (Cannon a1 d1 d3) (Soldier c2 d2 g4))
    (Blue (Cannon a7 d7 g5) (Soldier c6 d5 b4))
  )
  (piece (name Cannon) (moves (shoot n) (shoot e) (shoot s) (shoot w)))
  (piece (name Soldier) (moves (step1 n) (step1 e) (step1 w)))
  (win-condition (Red Blue) (pieces-remaining 0))
)
"#;

fn janggi_cannons() -> (zogkit::spec::Document, String) {
    let r = format::read(
        Format::Zrf,
        "janggi-cannons.zrf",
        JANGGI_CANNONS.as_bytes(),
        &Default::default(),
        &mut zogkit::zrf::NoIncludes,
    );
    let doc = r.document.expect("the crafted game reads");
    let (text, _) = write_lud(&doc);
    (doc, text)
}

/// The janggi cannon (a typed cannon whose screen is not a cannon, moving beyond it) is
/// written as Ludii's two hops, as Ludii's own Janggi says it: one to the empty sites beyond
/// the screen, one that captures the first piece after it; nothing of the file is partial,
/// and zogkit reads the hops back typed: the file plays as the source, to perft(3).
#[test]
fn a_janggi_cannon_is_written_as_two_hops() {
    let (doc, text) = janggi_cannons();
    let (back, diags) = read_lud("janggi-cannons.lud", &text, FileId(0));
    let back = back.unwrap_or_else(|| panic!("{diags:?}"));
    let ours = lud_oracle::engine_perft(&doc, 3).unwrap();
    assert_eq!(ours.len(), 3);
    assert_eq!(lud_oracle::engine_perft(&back, 3), Ok(ours), "{text}");
    assert!(!text.contains("partial translation"), "{text}");
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(flat.matches("(move Hop").count(), 2, "{text}");
    assert!(flat.contains("(to if:(is Empty (to)))"), "{text}");
    assert!(flat.contains("(remove (to))"), "{text}");
    assert!(
        flat.contains("(= (what at:(between)) (id \"Cannon\" P2))"),
        "{text}"
    );
}

/// And real Ludii counts the written cannons as the engine counts the source, to depth 3.
#[test]
#[ignore = "oracle check (pyffish, PyYAML, Ludii, Chromium or the whole corpus): .ci/run runs it; locally `cargo test -- --ignored`"]
fn a_janggi_cannon_written_as_lud_counts_the_same_in_ludii() {
    let work = common::scratch_dir("ludii-writer-janggi");
    if oracle(&repo().join("target/lud-oracle-java")).is_none() {
        return;
    }
    let (doc, text) = janggi_cannons();
    let out = work.join("janggi-cannons.lud");
    std::fs::write(&out, &text).unwrap();
    let theirs = lud_oracle::batch_perft(
        repo(),
        &work,
        std::slice::from_ref(&out),
        3,
        60,
        &work.join("perft"),
    )
    .expect("the oracle's perft runs");
    let ours = lud_oracle::engine_perft(&doc, 3).unwrap();
    assert_eq!(ours.len(), 3);
    assert_eq!(theirs.get(&out), Some(&ours), "{text}");
}
