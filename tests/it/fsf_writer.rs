//! The Fairy-Stockfish writer (`--to fsf`) against Fairy-Stockfish itself: for shared-corpus
//! chess-family games, the section the writer produces is loaded into pyffish
//! (`load_variant_config`), and at 1,000 positions of seeded random playouts pyffish's legal
//! moves equal the engine's (`zogkit::engine`) as multisets, square names mapped through the
//! writer's own square map. The written section states the ZRF's rules (no promotion in the
//! ZRF shogi, king capture in mini-shogi, …), so this compares with the written variant, not
//! with Fairy-Stockfish's built-in one.
//!
//! One rule is written as an approximation and reported so (`fsf::approximated`): chess
//! castling, which the ZRF allows whenever the squares are free and Fairy-Stockfish allows only
//! with castling rights and not through check. Castling moves are left out of both lists and
//! never played. Needs `python3` with `pyffish`; outside CI the test is skipped with a note
//! when pyffish is missing.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use zogkit::engine::{self, Rules, State};
use zogkit::fsf::{Section, Status};

/// Positions compared per game.
const POSITIONS: usize = 1000;
/// Plies of one random game before a new one starts.
const MAX_PLIES: usize = 80;

struct Case {
    file: &'static str,
    title: &'static str,
    nth: usize,
    /// What the writer must say about the game.
    status: Status,
    /// Leave castling out: moves that move two pieces from the engine's lists, and moves of
    /// this piece that change its file by two or more from Fairy-Stockfish's.
    castling: Option<&'static str>,
    /// The game ends by extinction: ask Fairy-Stockfish whether a game has ended.
    stop_at_end: bool,
}

/// Special moves among the engine's lists (to show the comparison reached them).
#[derive(Default)]
struct Seen {
    promotions: usize,
    en_passant: usize,
}

/// splitmix64: a seeded, platform-independent sequence.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn uci(rules: &Rules, squares: &BTreeMap<String, String>, m: &engine::Move) -> String {
    let name = |p: Option<u32>| {
        p.map_or(String::new(), |p| {
            let pos = &rules.positions[p as usize];
            squares
                .get(pos)
                .cloned()
                .unwrap_or_else(|| format!("?{pos}"))
        })
    };
    match m.from {
        Some(_) => format!("{}{}", name(m.from), name(m.to)),
        None => format!("@{}", name(m.to)),
    }
}

/// A castling move: one that moves two pieces (ZRF `cascade`).
fn is_castling(m: &engine::Move) -> bool {
    m.actions
        .iter()
        .filter(|a| matches!(a, engine::Action::Move { .. }))
        .count()
        >= 2
}

/// Compares the written section with Fairy-Stockfish twice: the engine playing the ZRF game,
/// then the engine playing the section as the FSF reader reads it back (`a1`-style squares).
fn compare(case: &Case) {
    let (doc, gi) = common::shared_game(case.file, case.title, case.nth);
    let name = zogkit::fsf::section_name(&doc, case.title);
    let sec = zogkit::fsf::write_game(&doc, gi, &name);
    let said: Vec<String> = sec.diagnostics.iter().map(|d| d.message.clone()).collect();
    assert_eq!(
        sec.status, case.status,
        "{}: {said:#?}\n{}",
        case.file, sec.text
    );
    let rules = Rules::compile(&doc, gi).unwrap_or_else(|e| panic!("{}: {e}", case.file));
    against_fsf(case, &sec, &rules, &sec.squares, &sec.placed, "the ZRF");
    let (back, diags) = zogkit::fsf::read("x.ini", &sec.text, zogkit::diag::FileId(0));
    let errors: Vec<_> = diags
        .iter()
        .filter(|d| d.severity == zogkit::diag::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{}: read back: {errors:?}", case.file);
    let back = back.expect("a document");
    let rules = Rules::compile(&back, 0).unwrap_or_else(|e| panic!("{} read back: {e}", case.file));
    let same: BTreeMap<String, String> = rules
        .positions
        .iter()
        .map(|p| (p.clone(), p.clone()))
        .collect();
    against_fsf(case, &sec, &rules, &same, &[], "the section read back");
}

/// The start position after the placement phase the section played out: each turn drops the
/// mover's next piece of `placed`, by ZoG's notation (`Red Horse b1`).
fn played_out(rules: &Rules, placed: &[zogkit::fsf::Placed]) -> State {
    let mut st = State::start(rules);
    let mut left: Vec<&zogkit::fsf::Placed> = placed.iter().collect();
    while !left.is_empty() {
        let moves = engine::legal_moves(rules, &mut st).moves;
        let (i, m) = left
            .iter()
            .enumerate()
            .find_map(|(i, p)| {
                let text = format!("{} {} {}", p.player, p.piece, p.position);
                moves
                    .iter()
                    .find(|m| engine::notation(rules, &st, m) == text)
                    .map(|m| (i, m.clone()))
            })
            .unwrap_or_else(|| panic!("no placement of {left:?} is legal here"));
        engine::play(rules, &mut st, &m);
        left.remove(i);
    }
    st
}

/// How one comparison runs: the game's title (it seeds the playouts), the castling piece to
/// leave out, whether to stop where Fairy-Stockfish says the game ended, and how many positions.
struct Run<'a> {
    title: &'a str,
    castling: Option<&'a str>,
    stop_at_end: bool,
    positions: usize,
}

/// Plays seeded random games with the engine on `rules` and compares every position's legal
/// moves with pyffish's on the written section: fsf_check.py's report.
fn fsf_report(
    run: &Run,
    sec: &Section,
    rules: &Rules,
    squares: &BTreeMap<String, String>,
    placed: &[zogkit::fsf::Placed],
) -> (serde_json::Value, Seen) {
    let name = &sec.name;
    let mut rng = Rng(0x5EED_F00D ^ run.title.len() as u64);
    let mut nodes = Vec::new();
    let mut seen = Seen::default();
    let start = played_out(rules, placed);
    let mut stuck = 0;
    while nodes.len() < run.positions && stuck < 3 {
        let before = nodes.len();
        let mut st = start.clone();
        let mut path: Vec<String> = Vec::new();
        for _ in 0..MAX_PLIES {
            if engine::outcome(rules, &st).is_some() || nodes.len() >= run.positions {
                break;
            }
            let moves: Vec<engine::Move> = engine::legal_moves(rules, &mut st)
                .moves
                .into_iter()
                .filter(|m| run.castling.is_none() || !is_castling(m))
                .collect();
            if moves.is_empty() {
                break;
            }
            let list: Vec<String> = moves.iter().map(|m| uci(rules, squares, m)).collect();
            for m in &moves {
                for a in &m.actions {
                    match a {
                        engine::Action::Move {
                            promote: Some(_), ..
                        } => seen.promotions += 1,
                        engine::Action::Capture { at } if Some(*at) != m.to => seen.en_passant += 1,
                        _ => {}
                    }
                }
            }
            nodes.push(serde_json::json!({"path": path.clone(), "moves": list}));
            let m = &moves[rng.below(moves.len())];
            path.push(uci(rules, squares, m));
            engine::play(rules, &mut st, m);
        }
        // A game with no move at its start gives no positions: stop rather than loop.
        stuck = if nodes.len() == before { stuck + 1 } else { 0 };
    }
    let job = serde_json::json!({
        "variant": name,
        "ini_text": sec.text,
        "stop_at_end": run.stop_at_end,
        "castling_piece": run.castling.map(|p| sec.letters[p].to_string()),
        "nodes": nodes,
    });
    let out = common::run_fsf_check(&job);
    assert!(
        out.status.success(),
        "fsf_check.py failed for {}:\n{}",
        run.title,
        sec.text
    );
    (serde_json::from_slice(&out.stdout).unwrap(), seen)
}

/// [`fsf_report`] at [`POSITIONS`] positions, which must all agree.
fn against_fsf(
    case: &Case,
    sec: &Section,
    rules: &Rules,
    squares: &BTreeMap<String, String>,
    placed: &[zogkit::fsf::Placed],
    what: &str,
) {
    let run = Run {
        title: case.title,
        castling: case.castling,
        stop_at_end: case.stop_at_end,
        positions: POSITIONS,
    };
    let (report, seen) = fsf_report(&run, sec, rules, squares, placed);
    eprintln!(
        "{} ({}, engine on {what}): {} positions compared, {} mismatches; legal moves compared include {} promotions and {} en passant captures",
        case.file,
        case.title,
        report["nodes"],
        report["mismatch_count"],
        seen.promotions,
        seen.en_passant
    );
    assert_eq!(report["nodes"], POSITIONS);
    assert_eq!(
        report["mismatch_count"], 0,
        "{} (engine on {what}): moves differ from Fairy-Stockfish's with the written section:\n{}\n{:#}",
        case.file, sec.text, report["mismatches"]
    );
}

macro_rules! fsf_case {
    ($name:ident, $file:expr, $title:expr, $nth:expr, $status:expr, $castling:expr, $stop:expr) => {
        #[test]
        #[ignore = "oracle check (pyffish, PyYAML, Ludii, Chromium or the whole corpus): .ci/run runs it; locally `cargo test -- --ignored`"]
        fn $name() {
            if common::shared_zrf().is_none() || !common::pyffish_available() {
                return;
            }
            compare(&Case {
                file: $file,
                title: $title,
                nth: $nth,
                status: $status,
                castling: $castling,
                stop_at_end: $stop,
            });
        }
    };
}

fsf_case!(
    chess,
    "dagaz/chess/chess.zrf",
    "Chess",
    0,
    Status::Partial,
    Some("King"),
    false
);
fsf_case!(
    shatranj,
    "dagaz/chess/shatranj.zrf",
    "Shatranj",
    0,
    Status::Partial,
    None,
    false
);
fsf_case!(
    makruk,
    "dagaz/chess/makruk.zrf",
    "Makruk",
    0,
    Status::Partial,
    None,
    false
);
fsf_case!(
    courier,
    "dagaz/chess/courier-chess.zrf",
    "Courier Chess",
    1,
    Status::Full,
    None,
    false
);
fsf_case!(
    shogi,
    "dagaz/shogi-family/shogi.zrf",
    "Shogi",
    0,
    Status::Partial,
    None,
    false
);
fsf_case!(
    mini_shogi,
    "dagaz/shogi-family/mini-shogi.zrf",
    "Mini Shogi",
    0,
    Status::Partial,
    None,
    true
);
fsf_case!(
    xiangqi,
    "dagaz/xiangqi/xiangqi.zrf",
    "XiangQi",
    0,
    Status::Partial,
    None,
    false
);

fsf_case!(
    janggi,
    "dagaz/xiangqi/janggi.zrf",
    "Janggi",
    0,
    Status::Partial,
    None,
    false
);

/// Janggi's section names what differs: its placement phase is played out (with the placement
/// it chose), and the palace diagonals and the cannon are Fairy-Stockfish's built-in janggi
/// pieces, through the `xiangqi` template's king, not left out.
#[test]
fn janggi_plays_out_its_placement_and_keeps_its_palace_lines() {
    let Some(dir) = common::shared_zrf() else {
        return;
    };
    let doc = zrf_doc(&dir.join("dagaz/xiangqi/janggi.zrf")).expect("janggi reads");
    let sec = zogkit::fsf::write_game(&doc, 0, "janggi");
    assert_eq!(sec.status, Status::Partial);
    assert_eq!(sec.name, "zrf-janggi", "a built-in's name is never written");
    let said: Vec<&str> = sec.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert!(
        said.iter()
            .any(|m| m.contains("placement phase") && m.contains("Red's Horse on b1 h1")),
        "{said:#?}"
    );
    for gone in ["move block", "held off the board", "turn order is not"] {
        assert!(
            !said.iter().any(|m| m.contains(gone)),
            "{gone:?} in {said:#?}"
        );
    }
    for key in [
        "[zrf-janggi:xiangqi]",
        "janggiCannon = a",
        "rook = c",
        "wazir = m",
        "diagonalLines = d1 f1 e2 d3 f3 d8 f8 e9 d10 f10",
        "flyingGeneral = false",
        "startFen = chem1mehc/4k4/",
    ] {
        assert!(sec.text.contains(key), "no {key:?} in\n{}", sec.text);
    }
    assert_eq!(sec.placed.len(), 8);
}

fn write_zrf(
    text: &str,
) -> Result<(Vec<u8>, Vec<zogkit::diag::Diagnostic>), zogkit::diag::Diagnostic> {
    let r = zogkit::format::read(
        zogkit::format::Format::Zrf,
        "t.zrf",
        text.as_bytes(),
        &Default::default(),
        &mut zogkit::zrf::NoIncludes,
    );
    zogkit::format::write(zogkit::format::Format::Fsf, &r.document.unwrap())
}

const BOARD: &str = r#"(board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d" (10 0)) ("4/3/2/1" (0 10)))
  (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1))))"#;

/// A crooked move (north, east, south) is left out with `fsf::not-expressible`, and the
/// section says it is partial; the piece's other moves are written.
#[test]
fn a_crooked_move_is_left_out_and_reported() {
    let zrf = format!(
        r#"(game (title "Crook") (players White Black) (turn-order White Black) {BOARD}
  (piece (name King) (moves (n (verify not-friend?) add) (s (verify not-friend?) add)))
  (piece (name Crook) (moves (n e s (verify not-friend?) add) (e (verify empty?) add)))
  (board-setup (White (King a1) (Crook b1)) (Black (King d4)))
  (loss-condition (White Black) (checkmated King)))"#
    );
    let (bytes, diags) = write_zrf(&zrf).expect("written");
    let text = String::from_utf8(bytes).unwrap();
    assert!(
        diags.iter().any(|d| d.code == "fsf::not-expressible"
            && d.message.contains("piece `Crook`, move block 1")
            && d.message.contains("crooked")),
        "{diags:#?}"
    );
    assert!(text.contains("# PARTIAL:"), "{text}");
    assert!(
        text.contains(":mrW"),
        "the eastward step is written: {text}"
    );
    assert!(text.contains("king = k:vW"), "{text}");
}

/// A game of three players is refused (`fsf::refused`), and a document with nothing writable
/// is an error.
#[test]
fn a_three_player_game_is_refused() {
    let zrf = format!(
        r#"(game (title "Three") (players A B C) (turn-order A B C) {BOARD}
  (piece (name Man) (moves (n add)))
  (board-setup (A (Man a1)) (B (Man b1)) (C (Man c1))))"#
    );
    let err = write_zrf(&zrf).expect_err("nothing to write");
    assert_eq!(err.code, "fsf::refused");
    assert!(err.message.contains("3 players"), "{}", err.message);
}

/// Chess castling is written as Fairy-Stockfish's castling and reported as approximated.
#[test]
fn castling_is_reported_as_approximated() {
    let Some(dir) = common::shared_zrf() else {
        return;
    };
    let bytes = std::fs::read(dir.join("dagaz/chess/chess.zrf")).unwrap();
    let r = zogkit::format::read(
        zogkit::format::Format::Zrf,
        "chess.zrf",
        &bytes,
        &Default::default(),
        &mut zogkit::zrf::NoIncludes,
    );
    let sec = zogkit::fsf::write_game(&r.document.unwrap(), 0, "chess");
    assert!(
        sec.diagnostics
            .iter()
            .any(|d| d.code == "fsf::approximated" && d.message.contains("castling"))
    );
    assert!(sec.text.contains("castling = true") && sec.text.contains(" w KQkq - 0 1"));
}

/// Round trip through the reader: the written section, read back (`--from fsf`), is a game the
/// engine runs with the same perft counts as the ZRF it was written from.
fn round_trip(file: &str, title: &str, nth: usize, depth: u32) {
    let Some(dir) = common::shared_zrf() else {
        return;
    };
    let bytes = std::fs::read(dir.join(file)).unwrap();
    let read = |format, name: &str, bytes: &[u8]| {
        zogkit::format::read(
            format,
            name,
            bytes,
            &Default::default(),
            &mut zogkit::zrf::NoIncludes,
        )
    };
    let doc = read(zogkit::format::Format::Zrf, file, &bytes)
        .document
        .unwrap();
    let gi = (0..doc.games.len())
        .filter(|&i| doc.games[i].title == title)
        .nth(nth)
        .unwrap();
    let sec = zogkit::fsf::write_game(&doc, gi, "rt");
    let back = read(zogkit::format::Format::Fsf, "rt.ini", sec.text.as_bytes());
    let errors: Vec<_> = back
        .diagnostics
        .iter()
        .filter(|d| d.severity == zogkit::diag::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{}", sec.text);
    let doc2 = back.document.unwrap();
    let ctl = engine::Control::default();
    let perft = |doc: &zogkit::spec::Document, gi: usize| -> Vec<u64> {
        let rules = Rules::compile(doc, gi).unwrap_or_else(|e| panic!("{e}"));
        let mut st = State::start(&rules);
        (1..=depth)
            .map(|d| engine::perft(&rules, &mut st, d, &ctl).unwrap())
            .collect()
    };
    let (a, b) = (perft(&doc, gi), perft(&doc2, 0));
    eprintln!("{file} ({title}): perft 1..={depth} ZRF {a:?}, written and read back {b:?}");
    assert_eq!(a, b, "{}", sec.text);
}

#[test]
fn courier_round_trips_through_the_reader() {
    round_trip("dagaz/chess/courier-chess.zrf", "Courier Chess", 1, 3);
}

#[test]
fn shogi_round_trips_through_the_reader() {
    round_trip("dagaz/shogi-family/shogi.zrf", "Shogi", 0, 3);
}

#[test]
fn mini_shogi_round_trips_through_the_reader() {
    round_trip("dagaz/shogi-family/mini-shogi.zrf", "Mini Shogi", 0, 3);
}

#[test]
fn shatranj_round_trips_through_the_reader() {
    round_trip("dagaz/chess/shatranj.zrf", "Shatranj", 0, 3);
}

/// A ZRF file of the shared corpus read as `convert` reads it (without its includes).
fn zrf_doc(path: &std::path::Path) -> Option<zogkit::spec::Document> {
    let bytes = std::fs::read(path).unwrap();
    zogkit::format::read(
        zogkit::format::Format::Zrf,
        "x.zrf",
        &bytes,
        &Default::default(),
        &mut zogkit::zrf::NoIncludes,
    )
    .document
}

/// Every section the writer writes for the shared corpus reads back without an error, so no
/// written file names a piece letter it does not define (a piece of the start position that
/// cannot be written refuses its game instead; Mini XiangQi's soldier is one), and none is
/// named after a Fairy-Stockfish built-in (`Chess` is `[zrf-chess]`, `XiangQi` inherits its
/// template as `[zrf-xiangqi:xiangqi]`).
#[test]
fn every_written_section_reads_back() {
    let Some(dir) = common::shared_zrf() else {
        return;
    };
    let (mut sections, mut refused_for_setup, mut renamed) = (0, 0, 0);
    for path in common::zrf_files(&dir) {
        let Some(doc) = zrf_doc(&path) else { continue };
        for sec in zogkit::fsf::sections(&doc) {
            assert!(
                !zogkit::fsf::builtin::is_built_in(&sec.name),
                "{}: section [{}]",
                path.display(),
                sec.name
            );
            renamed += usize::from(sec.name.starts_with("zrf-"));
            refused_for_setup += sec
                .diagnostics
                .iter()
                .filter(|d| {
                    d.message
                        .contains("of the start position cannot be written")
                })
                .count();
            if sec.status == Status::Refused {
                continue;
            }
            sections += 1;
            let (back, diags) = zogkit::fsf::read("x.ini", &sec.text, zogkit::diag::FileId(0));
            let errors: Vec<&str> = diags
                .iter()
                .filter(|d| d.severity == zogkit::diag::Severity::Error)
                .map(|d| d.message.as_str())
                .collect();
            assert!(
                errors.is_empty() && back.is_some(),
                "{} section {}: {errors:?}\n{}",
                path.display(),
                sec.name,
                sec.text
            );
            let head = sec.text.lines().find(|l| l.starts_with('['));
            assert!(
                head.is_some_and(|h| h.starts_with(&format!("[{}]", sec.name))
                    || h.starts_with(&format!("[{}:", sec.name))),
                "{head:?} is not section {}",
                sec.name
            );
        }
    }
    eprintln!(
        "{sections} written sections read back ({renamed} named after the source, as their titles are built-in variants); {refused_for_setup} games refused for a start-position piece"
    );
    assert!(sections >= 100, "{sections}");
    assert!(refused_for_setup >= 1);
    assert!(renamed >= 5, "{renamed}");
}

/// Moves of the piece on `from` in `fen`, as the engine plays a section read back.
fn moves_from(ini: &str, from: &str) -> Vec<String> {
    let (doc, diags) = zogkit::fsf::read("t.ini", ini, zogkit::diag::FileId(0));
    let errors: Vec<_> = diags
        .iter()
        .filter(|d| d.severity == zogkit::diag::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let doc = doc.expect("a document");
    let rules = Rules::compile(&doc, 0).expect("compiles");
    let mut st = State::start(&rules);
    let mut out: Vec<String> = engine::legal_moves(&rules, &mut st)
        .moves
        .iter()
        .filter(|m| m.from.map(|f| rules.positions[f as usize].as_str()) == Some(from))
        .map(|m| rules.positions[m.to.expect("a move") as usize].clone())
        .collect();
    out.sort();
    out
}

/// A section inheriting from `xiangqi` reads as Fairy-Stockfish plays it (hand-written; the
/// expected moves are pyffish 0.0.90's for the same section): the template's king is a wazir that also moves along
/// `diagonalLines`, a janggi cannon may not jump a cannon, and a mobility region of the
/// template's elephant (removed) does not restrict a custom piece named Elephant.
#[test]
fn a_section_inheriting_from_xiangqi_reads_as_fairy_stockfish_plays_it() {
    let ini = |fen: &str| {
        format!(
            "# zogkit: piece e = Elephant\n[t:xiangqi]\nelephant = -\ncannon = -\nhorse = -\nfers = -\n\
             janggiCannon = c\ncustomPiece1 = e:W\ndiagonalLines = d1 f1 e2 d3 f3 d8 f8 e9 d10 f10\n\
             flyingGeneral = false\nperpetualCheckIllegal = false\nchasingRule = none\nstartFen = {fen}\n"
        )
    };
    // The king on e2 steps to all eight neighbours; on d2, only orthogonally.
    let centre = moves_from(&ini("4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1"), "e2");
    assert_eq!(centre, ["d1", "d2", "d3", "e1", "e3", "f1", "f2", "f3"]);
    let side = moves_from(&ini("4k4/9/9/9/9/9/9/9/3K5/9 w - - 0 1"), "d2");
    assert_eq!(side, ["d1", "d3", "e2"]);
    // The cannon on a1 jumps the pawn on a4 (to a5 … a10), but not the cannon on i1.
    let cannon = moves_from(&ini("4k4/9/9/9/9/9/P8/9/4K4/C7C w - - 0 1"), "a1");
    assert_eq!(cannon, ["a10", "a5", "a6", "a7", "a8", "a9"]);
    // The custom Elephant steps anywhere (the template's elephant region is not its own).
    let elephant = moves_from(&ini("4k4/9/9/9/9/9/9/9/4K4/E8 w - - 0 1"), "a1");
    assert_eq!(elephant, ["a2", "b1"]);
}

/// Every game of the shared corpus the writer accepts, compared with pyffish on its written
/// section at 200 positions: the games written fully must agree everywhere; a partial game's
/// mismatches are the rules its section names as lost, so they are counted, not failed.
#[test]
#[ignore = "oracle check (pyffish, PyYAML, Ludii, Chromium or the whole corpus): .ci/run runs it; locally `cargo test -- --ignored`"]
fn every_accepted_corpus_game_is_compared_with_pyffish() {
    let Some(dir) = common::shared_zrf() else {
        return;
    };
    if !common::pyffish_available() {
        return;
    }
    let mut rows = Vec::new();
    for path in common::zrf_files(&dir) {
        let Some(doc) = zrf_doc(&path) else { continue };
        for gi in 0..doc.games.len() {
            let name = format!("zk-corpus-{}", rows.len());
            let sec = zogkit::fsf::write_game(&doc, gi, &name);
            if sec.status == Status::Refused {
                continue;
            }
            let Ok(rules) = Rules::compile(&doc, gi) else {
                continue;
            };
            let key = |k: &str| {
                sec.text
                    .lines()
                    .find_map(|l| l.strip_prefix(&format!("{k} = ")).map(str::to_string))
            };
            let castling = (key("castling").as_deref() == Some("true"))
                .then(|| key("castlingKingPiece"))
                .flatten()
                .and_then(|k| {
                    sec.letters
                        .iter()
                        .find(|(_, l)| l.to_string() == k)
                        .map(|(p, _)| p.clone())
                });
            let run = Run {
                title: &doc.games[gi].title,
                castling: castling.as_deref(),
                stop_at_end: sec.text.contains("extinction"),
                positions: 200,
            };
            let (report, _) = fsf_report(&run, &sec, &rules, &sec.squares, &sec.placed);
            let file = path.strip_prefix(&dir).unwrap().display().to_string();
            rows.push((file, doc.games[gi].title.clone(), sec.status, report));
        }
    }
    let mut bad = Vec::new();
    let (mut full, mut partial_equal, mut partial) = (0, 0, 0);
    for (file, title, status, report) in &rows {
        let mism = report["mismatch_count"].as_u64().unwrap_or(u64::MAX);
        eprintln!(
            "{file} {title:?} {status:?}: {} positions, {mism} mismatches",
            report["nodes"]
        );
        match status {
            Status::Full => {
                full += 1;
                if mism != 0 {
                    bad.push(format!("{file} {title:?}: {mism} mismatches"));
                }
            }
            _ => {
                partial += 1;
                partial_equal += usize::from(mism == 0);
            }
        }
    }
    eprintln!(
        "{} accepted games: {full} written fully (all equal to pyffish), {partial} partially ({partial_equal} of them equal at every position)",
        rows.len()
    );
    // Measured: 100 accepted, 15 full, 85 partial of which 61 agree everywhere (2026-11-25).
    assert!(rows.len() >= 100, "{}", rows.len());
    assert!(
        partial_equal >= 61,
        "{partial_equal} partial games agree everywhere"
    );
    assert!(
        bad.is_empty(),
        "fully written games that differ:\n{}",
        bad.join("\n")
    );
}

/// A `diagonalLines` name that is no square of the board is left out with a located warning,
/// not read as a line square nobody can reach.
#[test]
fn diagonal_lines_off_the_board_are_named() {
    let ini = "[t:xiangqi]\ndiagonalLines = d1 zz99 *1\nflyingGeneral = false\n";
    let (doc, diags) = zogkit::fsf::read("t.ini", ini, zogkit::diag::FileId(0));
    assert!(doc.is_some());
    let d = diags
        .iter()
        .find(|d| d.message.contains("diagonalLines"))
        .unwrap_or_else(|| panic!("{diags:?}"));
    assert!(d.message.contains("zz99, *1"), "{}", d.message);
    assert_eq!(d.span.map(|s| s.start as usize), ini.find("diagonalLines"));
}

/// Lines with a gap along a diagonal are named: their moves are read as staying on the lines,
/// where Fairy-Stockfish's riders may pass squares off them.
#[test]
fn diagonal_lines_with_a_gap_are_named() {
    let ini = "[t:xiangqi]\ndiagonalLines = d1 e2 g4\nflyingGeneral = false\n";
    let (doc, diags) = zogkit::fsf::read("t.ini", ini, zogkit::diag::FileId(0));
    assert!(doc.is_some());
    let d = diags
        .iter()
        .find(|d| {
            d.message
                .contains("a diagonal passes a square off the lines")
        })
        .unwrap_or_else(|| panic!("{diags:?}"));
    assert_eq!(d.span.map(|s| s.start as usize), ini.find("diagonalLines"));
    let palace =
        "[t:xiangqi]\ndiagonalLines = d1 f1 e2 d3 f3 d8 f8 e9 d10 f10\nflyingGeneral = false\n";
    let (_, diags) = zogkit::fsf::read("t.ini", palace, zogkit::diag::FileId(0));
    assert!(
        !diags.iter().any(|d| d.message.contains("off the lines")),
        "{diags:?}"
    );
}

/// Every move block the reader builds for janggi's pieces (the cannon's hop, the moves along
/// the palace lines, with and without a mobility region) is a typed movement of the table.
#[test]
fn janggi_pieces_read_as_typed_movements() {
    let ini = "[t:xiangqi]\nelephant = -\ncannon = -\nhorse = -\nfers = -\nrook = r\nwazir = w\n\
               janggiCannon = c\nsoldier = p\ndiagonalLines = d1 f1 e2 d3 f3 d8 f8 e9 d10 f10\n\
               mobilityRegionWhiteWazir = d1 e1 f1 d2 e2 f2 d3 e3 f3\n\
               mobilityRegionBlackWazir = d8 e8 f8 d9 e9 f9 d10 e10 f10\n\
               flyingGeneral = false\nstartFen = 3wkw3/9/9/9/9/9/9/9/9/RC1WKW1CP w - - 0 1\n";
    let (doc, diags) = zogkit::fsf::read("t.ini", ini, zogkit::diag::FileId(0));
    let doc = doc.unwrap_or_else(|| panic!("{diags:?}"));
    let mut lines = 0;
    for piece in &doc.games[0].pieces {
        assert!(!piece.moves.is_empty(), "{}", piece.name);
        for b in &piece.moves {
            let m = zogkit::spec::movement::recognise(b)
                .unwrap_or_else(|why| panic!("{}: {why}: {:?}", piece.name, b.program));
            lines += usize::from(m.from_zone.as_deref() == Some("diagonal-lines"));
        }
    }
    // The king, wazir, rook, cannon (moves and captures) and soldier along the lines.
    assert!(lines >= 4 * 5 + 2 * 2, "{lines} moves along the lines");
}

/// The writer's list of Fairy-Stockfish's built-in variants (`fsf::builtin::BUILT_IN`, which no
/// written section may be named after) covers the installed pyffish's `variants()`.
#[test]
#[ignore = "oracle check (pyffish, PyYAML, Ludii, Chromium or the whole corpus): .ci/run runs it; locally `cargo test -- --ignored`"]
fn the_built_in_list_covers_pyffish() {
    if !common::pyffish_available() {
        return;
    }
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import json, pyffish; print(json.dumps(sorted(pyffish.variants())))",
        ])
        .output()
        .expect("python3 runs");
    assert!(out.status.success());
    let theirs: Vec<String> = serde_json::from_slice(&out.stdout).unwrap();
    let ours = zogkit::fsf::builtin::BUILT_IN;
    let missing: Vec<&String> = theirs
        .iter()
        .filter(|n| !ours.contains(&n.as_str()))
        .collect();
    let extra: Vec<&&str> = ours
        .iter()
        .filter(|n| !theirs.iter().any(|t| t == *n))
        .collect();
    eprintln!(
        "pyffish has {} built-in variants; the list has {}, {} not in this pyffish",
        theirs.len(),
        ours.len(),
        extra.len()
    );
    assert!(theirs.len() >= 100, "{theirs:?}");
    assert!(
        missing.is_empty(),
        "built-in variants missing from fsf::builtin::BUILT_IN: {missing:?}"
    );
}

/// Every `variants.ini` the writer writes for a file of the shared corpus (as `convert --to fsf`
/// writes it) loads into a fresh pyffish: every written section becomes a variant of its own
/// (none was a built-in before), and its `start_fen` is the `startFen` the section states, so
/// Fairy-Stockfish plays the written rules, not its own.
#[test]
#[ignore = "oracle check (pyffish, PyYAML, Ludii, Chromium or the whole corpus): .ci/run runs it; locally `cargo test -- --ignored`"]
fn every_written_section_loads_into_pyffish_with_its_start_position() {
    let Some(dir) = common::shared_zrf() else {
        return;
    };
    if !common::pyffish_available() {
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/fsf_load.py");
    let (mut files, mut sections, mut inheriting) = (0, 0, 0);
    let mut bad = Vec::new();
    for path in common::zrf_files(&dir) {
        let Some(doc) = zrf_doc(&path) else { continue };
        let Ok((text, _)) = zogkit::fsf::write(&doc) else {
            continue;
        };
        let want: Vec<serde_json::Value> = zogkit::fsf::sections(&doc)
            .into_iter()
            .filter(|s| s.status != Status::Refused)
            .map(|s| {
                let fen = s
                    .text
                    .lines()
                    .find_map(|l| l.strip_prefix("startFen = "))
                    .expect("a start FEN")
                    .to_string();
                inheriting += usize::from(s.text.contains(&format!("[{}:", s.name)));
                serde_json::json!({"name": s.name, "fen": fen})
            })
            .collect();
        files += 1;
        sections += want.len();
        let job = serde_json::json!({"ini_text": text, "sections": want});
        let out = common::run_python(&script, &job);
        assert!(
            out.status.success(),
            "fsf_load.py failed on {}",
            path.display()
        );
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        for problem in report["problems"].as_array().unwrap() {
            bad.push(format!("{}: {}", path.display(), problem.as_str().unwrap()));
        }
    }
    eprintln!(
        "{files} files, {sections} written sections ({inheriting} inheriting) loaded into pyffish; {} problems",
        bad.len()
    );
    assert!(sections >= 100, "{sections}");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The reader generates Betza pieces through the movement table: every block of leapers,
/// riders (move-only and capture-only), limited riders, lame leapers, cannons (capturing and
/// moving beyond the screen) and of the promoting pawn with its double step and en passant
/// is typed, and the pawn's blocks carry the promotion.
#[test]
fn betza_pieces_are_read_through_the_movement_table() {
    let ini = "[t]\nking = k\npawn = p\npromotionPieceTypes = ac\ncustomPiece1 = a:mRcB\ncustomPiece2 = c:mpRcpR\ncustomPiece3 = d:nNR3\n\
               customPiece4 = e:cRmF\nstartFen = 4k3/8/8/8/8/8/PPPP4/ACDE1K2 w - - 0 1\n";
    let (doc, diags) = zogkit::fsf::read("t.ini", ini, zogkit::diag::FileId(0));
    let doc = doc.unwrap_or_else(|| panic!("{diags:?}"));
    let g = &doc.games[0];
    let mut seen = 0;
    for p in &g.pieces {
        for (i, b) in p.moves.iter().enumerate() {
            let m = zogkit::spec::movement::recognise(b)
                .unwrap_or_else(|why| panic!("{} block {}: {why}: {:?}", p.name, i + 1, b));
            if p.name == "Pawn" {
                assert!(m.promotion.is_some(), "the pawn's block {} promotes", i + 1);
            }
            seen += 1;
        }
    }
    let pawn = g.pieces.iter().find(|p| p.name == "Pawn").expect("a pawn");
    let travels: Vec<_> = pawn
        .moves
        .iter()
        .map(|b| zogkit::spec::movement::recognise(b).expect("typed").travel)
        .collect();
    assert!(
        travels
            .iter()
            .any(|t| matches!(t, zogkit::spec::movement::Travel::Lame(p) if p.len() == 2))
    );
    assert!(
        travels
            .iter()
            .any(|t| matches!(t, zogkit::spec::movement::Travel::EnPassant { .. }))
    );
    assert!(seen > 40, "{seen} blocks");
}
