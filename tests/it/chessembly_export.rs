//! Exporting a game to Chessembly keeps each written piece's moves: for the ten shared-corpus
//! chess-family games (the list of `tests/it/engine_formats.rs`), `convert --to chessembly` writes
//! every expressible piece under its `piece(NAME)` guard; on random positions the engine's moves
//! of each written piece in the original game equal the Chessembly interpreter's moves of the
//! re-read script, for both colours. The figures (positions, pieces, moves compared) are printed.

use crate::common;
use std::collections::BTreeSet;
use std::path::Path;
use zogkit::chessembly::board::{Board, Color, Piece, Square};
use zogkit::chessembly::{Rules as Script, State as Regs};
use zogkit::diag::{FileId, Severity};
use zogkit::engine::{self, Rules, State};
use zogkit::format::{self, Format};

/// A small deterministic generator (no wall clock, no external crate).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// A move as `DEST [xCAP…] [=KIND]`, from either side.
fn fmt(dest: String, mut caps: Vec<String>, promote: Option<String>) -> String {
    caps.sort();
    let mut s = dest;
    for c in caps {
        s += &format!(" x{c}");
    }
    if let Some(p) = promote {
        s += &format!(" ={p}");
    }
    s
}

/// Board size from the engine's position names (`a1`-style), or `None` when they are not
/// algebraic.
fn board_size(rules: &Rules) -> Option<(usize, usize)> {
    let (mut w, mut h) = (0usize, 0usize);
    for name in &rules.positions {
        let file: String = name
            .chars()
            .take_while(|c| c.is_ascii_lowercase())
            .collect();
        let rank: usize = name[file.len()..].parse().ok()?;
        if file.len() != 1 {
            return None;
        }
        w = w.max((file.as_bytes()[0] - b'a') as usize + 1);
        h = h.max(rank);
    }
    Some((w, h))
}

#[derive(Default)]
struct Figures {
    positions: usize,
    comparisons: usize,
    moves: usize,
    mismatches: Vec<String>,
}

/// Compares one game; returns the written pieces and adds to the figures.
fn compare_game(file: &str, title: &str, nth: usize, base: &Path, f: &mut Figures) -> Vec<String> {
    let bytes = std::fs::read(base.join(file)).unwrap();
    let r = format::read(
        Format::Zrf,
        file,
        &bytes,
        &Default::default(),
        &mut zogkit::zrf::NoIncludes,
    );
    let doc = r.document.expect("a document");
    let index = (0..doc.games.len())
        .filter(|&i| doc.games[i].title == title)
        .nth(nth)
        .unwrap_or_else(|| panic!("no entry {title:?}"));
    // The exporter writes the first game that has pieces: export that entry alone.
    let mut one = doc.clone();
    one.games = vec![doc.games[index].clone()];
    // Pieces left out are named by the writer; the ones written are compared, however few.
    let allow = format::WriteOptions {
        allow_partial: true,
    };
    let (script, diags) = match format::write_with(
        Format::Chessembly,
        &one,
        &zogkit::spec::Origins::default(),
        &allow,
    ) {
        Ok(x) => x,
        Err(d) => {
            // Every piece refused (each with a named construct): nothing to compare.
            eprintln!("{title}: nothing written: {}", d.message);
            return Vec::new();
        }
    };
    assert!(diags.iter().all(|d| d.severity != Severity::Error));
    let text = String::from_utf8(script).unwrap();
    let rules = Rules::compile(&one, 0).unwrap_or_else(|e| panic!("{title}: {e}"));
    let names: Vec<String> = rules.kinds.iter().map(|k| k.name.clone()).collect();
    let written: Vec<String> = names
        .iter()
        .filter(|n| text.contains(&format!("piece({n})")))
        .cloned()
        .collect();
    let Some((w, h)) = board_size(&rules) else {
        f.mismatches.push(format!(
            "{title}: position names are not algebraic; not compared"
        ));
        return written;
    };
    let mut sr = Script::new();
    let prog = sr
        .compile(&text, FileId(0))
        .unwrap_or_else(|d| panic!("{title}: the written script does not compile: {d:?}"));
    sr.set_default(prog);
    let mut rng = Lcg(0x5eed ^ (w * 31 + h) as u64);
    for _ in 0..60 {
        f.positions += 1;
        let mut placed: Vec<(Square, usize, bool)> = Vec::new();
        for y in 0..h {
            for x in 0..w {
                if rng.next(5) == 0 {
                    placed.push((
                        Square::new(x as u16, y as u16),
                        rng.next(names.len()),
                        rng.next(2) == 1,
                    ));
                }
            }
        }
        for (wi, kind) in written.iter().enumerate() {
            let at = Square::new(rng.next(w) as u16, rng.next(h) as u16);
            for black in [false, true] {
                let mut board = Board::new(w, h);
                let mut st = State::start(&rules);
                for pos in 0..st.board.len() as u32 {
                    st.set_square(pos, None);
                }
                let mut put = |sq: Square, k: &str, black: bool| {
                    let sym = sr.symbols.intern(k);
                    let color = if black { Color::Black } else { Color::White };
                    board.set(sq, Some(Piece { color, kind: sym }));
                    let pos = rules
                        .position(&zogkit::chessembly::square_name(sq))
                        .unwrap();
                    st.set_square(
                        pos,
                        Some(engine::Piece {
                            owner: black as u32,
                            kind: rules.kind(k).unwrap(),
                            attrs: 0,
                        }),
                    );
                };
                for &(sq, k, b) in &placed {
                    if sq != at {
                        put(sq, &names[k], b);
                    }
                }
                put(at, kind, black);
                let pos = rules
                    .position(&zogkit::chessembly::square_name(at))
                    .unwrap();
                let name = |p: u32| rules.positions[p as usize].clone();
                let found = engine::piece_moves(&rules, &st, pos);
                let want: BTreeSet<String> = found
                    .moves
                    .iter()
                    .map(|m| {
                        let (mut dest, mut caps, mut promote) = (name(pos), Vec::new(), None);
                        for a in &m.actions {
                            match *a {
                                engine::Action::Capture { at } => caps.push(name(at)),
                                engine::Action::Move { to, promote: p, .. } => {
                                    if st.board[to as usize].is_some() && to != pos {
                                        caps.push(name(to));
                                    }
                                    dest = name(to);
                                    promote = p.map(|k| rules.kinds[k as usize].name.clone());
                                }
                                _ => {}
                            }
                        }
                        caps.dedup();
                        fmt(dest, caps, promote)
                    })
                    .collect();
                let (ms, _) = sr.moves(&board, &Regs::new(), at);
                let got: BTreeSet<String> = ms
                    .iter()
                    .map(|m| {
                        fmt(
                            zogkit::chessembly::square_name(m.to),
                            m.take
                                .map(zogkit::chessembly::square_name)
                                .into_iter()
                                .collect(),
                            m.transition.map(|t| sr.symbols.name(t).to_string()),
                        )
                    })
                    .collect();
                f.comparisons += 1;
                f.moves += want.len();
                if want != got && f.mismatches.len() < 40 {
                    f.mismatches.push(format!(
                        "{title} {kind} ({}) on {} [piece {wi}]: engine {want:?}, chessembly {got:?}",
                        if black { "black" } else { "white" },
                        zogkit::chessembly::square_name(at)
                    ));
                }
            }
        }
    }
    written
}

#[test]
fn ten_games_export_to_chessembly_with_the_same_moves() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/zrf/dagaz");
    if !base.exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "../shared is required in CI"
        );
        eprintln!("note: ../shared is absent; skipped");
        return;
    }
    let games = common::TEN_GAMES;
    let mut f = Figures::default();
    let mut pieces = 0;
    for (file, title, nth) in games {
        let written = compare_game(file, title, nth, &base, &mut f);
        eprintln!("{title}: written {}: {}", written.len(), written.join(", "));
        pieces += written.len();
    }
    eprintln!(
        "figures: {} positions, {pieces} pieces written, {} piece/colour comparisons, {} engine moves, {} mismatches",
        f.positions,
        f.comparisons,
        f.moves,
        f.mismatches.len()
    );
    for m in &f.mismatches {
        eprintln!("  {m}");
    }
    assert!(pieces > 0, "no piece was written");
    assert!(f.mismatches.is_empty(), "{} mismatches", f.mismatches.len());
}

/// When no piece of a game can be written, the error says why for each piece (the per-piece
/// reasons are not lost with the warnings of a file that fails).
#[test]
fn a_game_with_no_writable_piece_says_why() {
    let zrf = r#"(game (title "Zoned") (players White Black) (turn-order White Black)
      (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
        (directions (n 0 -1) (s 0 1))) (symmetry Black (n s) (s n))
        (zone (name home) (players White Black) (positions a1 b1)))
      (piece (name Walker) (moves ((verify (in-zone? home)) n add)))
      (piece (name Runner) (moves ((verify (in-zone? home)) s add))))"#;
    let r = zogkit::format::read(
        zogkit::format::Format::Zrf,
        "zoned.zrf",
        zrf.as_bytes(),
        &Default::default(),
        &mut zogkit::zrf::NoIncludes,
    );
    let doc = r.document.expect("read");
    let err = zogkit::format::write(zogkit::format::Format::Chessembly, &doc).unwrap_err();
    assert_eq!(err.code, "chessembly::unemittable");
    assert!(
        err.message.contains("no piece of `Zoned`")
            && err.message.contains("piece `Walker`")
            && err.message.contains("piece `Runner`"),
        "{}",
        err.message
    );
}
