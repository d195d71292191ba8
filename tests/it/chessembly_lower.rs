//! Lowering Chessembly to the portable spec and back.
//!
//! For every corpus script without errors and the six standard chess pieces:
//! - the lowered spec document's YAML reads back as the same document (the corpus harness,
//!   `corpus.rs`, compares it with `golden/chessembly/<name>.yaml`);
//! - the piece is written back as Chessembly (`emit`), and lowering that script gives the same
//!   game (compared as spec YAML, with a unified diff on failure);
//! - the emitted script generates exactly the moves of the original, for both colours, from every
//!   square of several boards (empty, with friends and enemies as blockers, other sizes), with
//!   each state value and piece kind the script tests.
//!
//! A perft run with all six emitted standard pieces checks the same thing on real games.

use std::collections::BTreeSet;
use std::path::Path;
use zogkit::chessembly::board::{Color, Piece};
use zogkit::chessembly::emit::emit;
use zogkit::chessembly::lower::{CODE_UNLOWERED, LowerOptions, lower};
use zogkit::chessembly::perft::{self, Engine};
use zogkit::chessembly::query::move_text;
use zogkit::chessembly::{Board, Rules, Square, State};
use zogkit::diag::{FileId, SourceMap};
use zogkit::engine;
use zogkit::spec::{self, Cond, Instr, RawFormat, Test, yaml};

fn corpus() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/chessembly");
    let mut v: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "csm"))
        .filter(|p| !p.file_stem().unwrap().to_string_lossy().starts_with("err-"))
        .map(|p| {
            (
                p.file_stem().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

fn standard() -> Vec<(String, String)> {
    perft::STANDARD
        .iter()
        .map(|(n, s)| (n.to_string(), s.to_string()))
        .collect()
}

fn lower_ok(name: &str, text: &str) -> (spec::Document, Vec<String>) {
    let (doc, diags) = lower(
        &format!("{name}.csm"),
        text,
        FileId(0),
        &LowerOptions {
            piece_name: Some(name.to_string()),
            ..LowerOptions::default()
        },
    );
    let doc = doc.unwrap_or_else(|| panic!("{name}: does not lower: {diags:?}"));
    let mut sm = SourceMap::new();
    sm.add(format!("{name}.csm"), text);
    // The note that an MS word selected the dialect comes only with the MS scripts.
    let (notes, diags): (Vec<_>, Vec<_>) =
        diags.iter().partition(|d| d.code == "chessembly::dialect");
    assert_eq!(
        !notes.is_empty(),
        name.starts_with("ms-"),
        "{name}: {notes:?}"
    );
    let rendered = diags
        .into_iter()
        .map(|d| {
            assert_eq!(d.code, CODE_UNLOWERED, "{name}: {d:?}");
            d.render(&sm, name)
        })
        .collect();
    (doc, rendered)
}

fn games_yaml(doc: &spec::Document) -> String {
    yaml::to_string(&doc.games).unwrap()
}

fn diff(a: &str, b: &str) -> String {
    similar::TextDiff::from_lines(a, b)
        .unified_diff()
        .context_radius(3)
        .header("lowered", "lowered(emit(lowered))")
        .to_string()
}

/// The moves of the piece on `at`, as sorted text lines.
fn moves(
    script: &str,
    fen: &str,
    at: Square,
    color: Color,
    kind: &str,
    state: &[(&str, i32)],
) -> BTreeSet<String> {
    let mut rules = Rules::new();
    let id = rules
        .compile(script, FileId(0))
        .unwrap_or_else(|d| panic!("does not compile: {d:?}\n{script}"));
    rules.set_default(id);
    let mut board = Board::from_fen(fen, &mut rules.symbols).unwrap();
    let k = rules.symbols.intern(kind);
    board.set(at, Some(Piece { color, kind: k }));
    let mut st = State::new();
    for (key, v) in state {
        let s = rules.symbols.intern(key);
        st.set(color, s, *v);
    }
    let (ms, _) = rules.moves(&board, &st, at);
    ms.iter().map(|m| move_text(m, &rules.symbols)).collect()
}

const BOARDS: &[&str] = &[
    "8/8/8/8/8/8/8/8",
    "8/8/5p2/8/2P5/8/1P6/8",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "8/1p3P2/8/3p4/8/1P3p2/6P1/8",
    "5/5/5",
    "10/10/10/4p5/10/10/2P7/10/10/10",
];

/// Asserts that `emitted` generates the same moves as `original` everywhere.
fn same_behaviour(name: &str, original: &str, emitted: &str) -> usize {
    let kinds: Vec<&str> = match name {
        "windmill-transition" => vec!["test", "windmill-bishop", "windmill-rook"],
        "lowering" => vec!["lowering", "test"],
        _ => vec![name],
    };
    let states: Vec<Vec<(&str, i32)>> = match name {
        "windmill-state" | "set-state-example" | "lowering" => {
            vec![vec![], vec![("mode", 1), ("a", 1)]]
        }
        _ => vec![vec![]],
    };
    let mut compared = 0;
    for fen in BOARDS {
        let mut symbols = zogkit::chessembly::Symbols::new();
        let b = Board::from_fen(fen, &mut symbols).unwrap();
        for y in 0..b.height() {
            for x in 0..b.width() {
                let at = Square::new(x as u16, y as u16);
                for color in [Color::White, Color::Black] {
                    for kind in &kinds {
                        for st in &states {
                            let a = moves(original, fen, at, color, kind, st);
                            let e = moves(emitted, fen, at, color, kind, st);
                            assert_eq!(
                                a, e,
                                "{name}: moves differ on {fen} at {x},{y} ({color:?}, {kind}, {st:?})\nemitted:\n{emitted}"
                            );
                            compared += a.len();
                        }
                    }
                }
            }
        }
    }
    compared
}

fn fmt_move(dest: Square, caps: Vec<Square>, t: Option<&str>, st: Vec<String>) -> String {
    let mut s = zogkit::chessembly::square_name(dest);
    for c in caps {
        s += &format!(" x{}", zogkit::chessembly::square_name(c));
    }
    if let Some(t) = t {
        s += &format!(" ={t}");
    }
    for x in st {
        s += &format!(" {x}");
    }
    s
}

/// `n` random 8×8 placements (fixed seed) with standard pieces of both colours, about a
/// quarter of the squares occupied.
fn random_boards(n: usize) -> Vec<String> {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    (0..n)
        .map(|_| {
            let rows: Vec<String> = (0..8)
                .map(|_| {
                    let mut row = String::new();
                    let mut empty = 0;
                    for _ in 0..8 {
                        let r = next();
                        if r % 4 == 0 {
                            if empty > 0 {
                                row += &empty.to_string();
                                empty = 0;
                            }
                            row.push(b"KQRBNPkqrbnp"[(r >> 8) as usize % 12] as char);
                        } else {
                            empty += 1;
                        }
                    }
                    if empty > 0 {
                        row += &empty.to_string();
                    }
                    row
                })
                .collect();
            rows.join("/")
        })
        .collect()
}

/// The lowered document with a piece type for every name the board holds or the programs
/// name, so the engine can run it on the same position as the Chessembly interpreter; the
/// `scripted` kinds move as the script's piece does (the interpreter's default script).
fn playable(
    mut doc: spec::Document,
    names: &BTreeSet<String>,
    scripted: &[&str],
) -> spec::Document {
    let mut wanted = names.clone();
    let mut budget = 1_000_000;
    for p in &doc.games[0].pieces {
        for b in &p.moves {
            spec::moves::visit(&b.program, &doc.procedures, &mut budget, &mut |i, _| {
                if let Instr::Add { pieces, .. } = i {
                    wanted.extend(pieces.iter().cloned());
                }
            });
        }
    }
    let g = &mut doc.games[0];
    g.pieces[0].extensions = Default::default();
    let moves = g.pieces[0].moves.clone();
    for n in wanted {
        if !g.pieces.iter().any(|p| p.name == n) {
            let scripted = scripted.contains(&n.as_str());
            g.pieces.push(spec::Piece {
                moves: if scripted { moves.clone() } else { Vec::new() },
                name: n,
                ..Default::default()
            });
        }
    }
    doc
}

/// The moves the engine gives the piece on `at`, formatted as the interpreter's are.
fn engine_moves(
    rules: &engine::Rules,
    board: &Board,
    symbols: &zogkit::chessembly::Symbols,
    at: Square,
    state: &[(&str, i32)],
) -> BTreeSet<String> {
    let mut st = engine::State::start(rules);
    let pos_of = |sq: Square| {
        rules
            .position(&zogkit::chessembly::square_name(sq))
            .unwrap()
    };
    let sq_of = |p: u32| board.parse_square(&rules.positions[p as usize]).unwrap();
    for y in 0..board.height() {
        for x in 0..board.width() {
            let sq = Square::new(x as u16, y as u16);
            if let Some(p) = board.get(sq) {
                st.set_square(
                    pos_of(sq),
                    Some(engine::Piece {
                        owner: (p.color == Color::Black) as u32,
                        kind: rules.kind(symbols.name(p.kind)).unwrap(),
                        attrs: 0,
                    }),
                );
            }
        }
    }
    let mover = board.get(at).unwrap().color == Color::Black;
    for (k, v) in state {
        st.set_register(rules, mover as u32, k, i64::from(*v));
    }
    let found = engine::piece_moves(rules, &st, pos_of(at));
    assert!(found.overrun.is_none(), "the engine ran out of steps");
    found
        .moves
        .iter()
        .map(|m| {
            let mut caps = Vec::new();
            let mut promote = None;
            let mut states = Vec::new();
            // A swap (`shift`): the piece cascades to the target and the target's piece comes
            // back to the origin; the interpreter records it as a move to the target.
            let origin = pos_of(at);
            let swapped_to = m.actions.iter().find_map(|a| match *a {
                engine::Action::Move { from, to, .. } if from == origin && to != origin => Some(to),
                _ => None,
            });
            if let Some(target) = swapped_to.filter(|_| m.to == Some(origin)) {
                return fmt_move(sq_of(target), Vec::new(), None, states);
            }
            for a in &m.actions {
                match *a {
                    engine::Action::Capture { at } => caps.push(sq_of(at)),
                    engine::Action::Move {
                        from,
                        to,
                        promote: p,
                    } => {
                        if from != to
                            && st.board[to as usize].is_some()
                            && !caps.contains(&sq_of(to))
                        {
                            caps.push(sq_of(to));
                        }
                        promote = p;
                    }
                    engine::Action::SetState { key, value } => {
                        states.push(format!("{}={value}", rules.state_key(key)))
                    }
                    _ => {}
                }
            }
            fmt_move(
                sq_of(m.to.unwrap()),
                caps,
                promote.map(|k| rules.kinds[k as usize].name.as_str()),
                states,
            )
        })
        .collect()
}

/// The engine running the lowered spec gives the script's moves, on every square of the test
/// boards and of 30 random placements, for both colours, every kind and state the scripts test
/// (the Chessembly interpreter against the engine; unlowered chains keep running as Chessembly).
#[test]
fn lowered_programs_mean_what_the_script_means() {
    let mut compared = 0usize;
    let mut positions = 0usize;
    let randoms = random_boards(30);
    let boards: Vec<&str> = BOARDS
        .iter()
        .copied()
        .chain(randoms.iter().map(String::as_str))
        .collect();
    for (name, text) in corpus().into_iter().chain(standard()) {
        let kinds: Vec<&str> = match name.as_str() {
            "windmill-transition" => vec!["test", "windmill-bishop", "windmill-rook"],
            "lowering" => vec!["lowering", "test"],
            _ => vec![name.as_str()],
        };
        let states: Vec<Vec<(&str, i32)>> = vec![vec![], vec![("mode", 1), ("a", 1)]];
        for fen in &boards {
            let mut rules = Rules::new();
            let id = rules.compile(&text, FileId(0)).unwrap();
            rules.set_default(id);
            let mut board = Board::from_fen(fen, &mut rules.symbols).unwrap();
            let (w, h) = (board.width() as usize, board.height() as usize);
            let (doc, _) = lower(
                &format!("{name}.csm"),
                &text,
                FileId(0),
                &LowerOptions {
                    files: w,
                    ranks: h,
                    piece_name: Some(name.clone()),
                    dialect: None,
                },
            );
            let doc = doc.unwrap();
            // Unlowered chains keep running as Chessembly.
            let mut ext_rules = Rules::new();
            let ext_text = doc.games[0].pieces[0]
                .extensions
                .texts(RawFormat::Chessembly)
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join("\n");
            let ext_id = ext_rules.compile(&ext_text, FileId(1)).unwrap();
            ext_rules.set_default(ext_id);
            let mut names: BTreeSet<String> = kinds.iter().map(|k| k.to_string()).collect();
            for y in 0..h {
                for x in 0..w {
                    if let Some(p) = board.get(Square::new(x as u16, y as u16)) {
                        names.insert(rules.symbols.name(p.kind).to_string());
                    }
                }
            }
            let doc = playable(doc, &names, &kinds);
            let engine_rules = engine::Rules::compile(&doc, 0)
                .unwrap_or_else(|e| panic!("{name}: the engine refuses the lowered piece: {e}"));
            for y in 0..h {
                for x in 0..w {
                    let at = Square::new(x as u16, y as u16);
                    let saved = board.get(at);
                    for color in [Color::White, Color::Black] {
                        for kind in &kinds {
                            for st in &states {
                                let k = rules.symbols.intern(kind);
                                board.set(at, Some(Piece { color, kind: k }));
                                let mut regs = State::new();
                                for (key, v) in st {
                                    let s = rules.symbols.intern(key);
                                    regs.set(color, s, *v);
                                }
                                let fmt = |m: &zogkit::chessembly::Move,
                                           sy: &zogkit::chessembly::Symbols| {
                                    fmt_move(
                                        m.destination(),
                                        m.take.into_iter().collect(),
                                        m.transition.map(|t| sy.name(t)),
                                        m.state_change
                                            .iter()
                                            .map(|(k, v)| format!("{}={v}", sy.name(*k)))
                                            .collect(),
                                    )
                                };
                                let (ms, _) = rules.moves(&board, &regs, at);
                                let expected: BTreeSet<String> =
                                    ms.iter().map(|m| fmt(m, &rules.symbols)).collect();
                                let mut got =
                                    engine_moves(&engine_rules, &board, &rules.symbols, at, st);
                                // The extension chains, on a board with the same pieces.
                                let mut eb = Board::from_fen(fen, &mut ext_rules.symbols).unwrap();
                                let ek = ext_rules.symbols.intern(kind);
                                eb.set(at, Some(Piece { color, kind: ek }));
                                let mut eregs = State::new();
                                for (key, v) in st {
                                    let s = ext_rules.symbols.intern(key);
                                    eregs.set(color, s, *v);
                                }
                                let (ems, _) = ext_rules.moves(&eb, &eregs, at);
                                got.extend(ems.iter().map(|m| fmt(m, &ext_rules.symbols)));
                                assert_eq!(
                                    expected,
                                    got,
                                    "{name} on {fen} at {} ({color:?}, {kind}, {st:?})",
                                    zogkit::chessembly::square_name(at)
                                );
                                compared += expected.len();
                                positions += 1;
                            }
                        }
                    }
                    board.set(at, saved);
                }
            }
        }
    }
    eprintln!("{positions} positions, {compared} moves compared");
    assert!(compared > 100_000, "only {compared} moves compared");
}

/// Every corpus script and standard piece: YAML read back, round trip, same moves.
#[test]
fn lower_emit_round_trip_and_behaviour() {
    let mut failures = Vec::new();
    let mut round_trips = 0;
    let cases: Vec<(String, String, bool)> = corpus()
        .into_iter()
        .map(|(n, t)| (n, t, true))
        .chain(standard().into_iter().map(|(n, t)| (n, t, false)))
        .collect();
    for (name, text, corpus) in &cases {
        let (doc, _) = lower_ok(name, text);
        if *corpus {
            // The YAML (the golden `golden/chessembly/<name>.yaml` of `corpus.rs`) reads back as
            // the same document.
            let g = yaml::write_document(&doc).unwrap();
            let back: spec::Document = yaml::from_str(&g, FileId(0)).unwrap();
            assert_eq!(back, doc, "{name}: YAML does not read back");
        }
        let (script, ed) = emit(&doc, 0, name);
        let script = script.unwrap_or_else(|| panic!("{name}: emit failed: {ed:?}"));
        let (doc2, _) = lower_ok(name, &script);
        let (a, b) = (games_yaml(&doc), games_yaml(&doc2));
        if a != b {
            failures.push(format!(
                "{name}: lower(emit(spec)) != spec\n{}\nemitted:\n{script}",
                diff(&a, &b)
            ));
            continue;
        }
        round_trips += 1;
        let compared = same_behaviour(name, text, &script);
        assert!(compared > 0, "{name}: no move compared");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert_eq!(round_trips, cases.len());
}

/// perft with all six standard pieces replaced by their emitted scripts.
#[test]
fn perft_with_emitted_standard_pieces() {
    let mut e = Engine::start().unwrap();
    for (name, text) in standard() {
        let (doc, diags) = lower_ok(&name, &text);
        assert!(diags.is_empty(), "{name}: {diags:?}");
        let (script, d) = emit(&doc, 0, &name);
        let script = script.unwrap_or_else(|| panic!("{name}: {d:?}"));
        let id = e.rules.compile(&script, FileId(9)).unwrap();
        e.rules.assign(&name, id);
    }
    assert_eq!(e.perft(1), 20);
    assert_eq!(e.perft(2), 400);
    assert_eq!(e.perft(3), 8_902);
}

fn piece_of(doc: &spec::Document) -> &spec::Piece {
    &doc.games[0].pieces[0]
}

/// A leap: step, refuse a friend, add (which replaces an enemy there; an explicit `capture`
/// where the piece lands would, in ZoG, remove the landing piece itself).
#[test]
fn take_move_leap_shape() {
    let (doc, d) = lower_ok("alfil", "take-move(2, 2);");
    assert!(d.is_empty());
    let p = piece_of(&doc);
    assert_eq!(p.moves.len(), 1);
    let here = |t| Cond::Test {
        test: t,
        at: None,
        move_type: None,
    };
    assert_eq!(
        p.moves[0].program,
        vec![
            Instr::Step("d+2+2".into()),
            Instr::Verify(Cond::Not(Box::new(here(Test::Friend)))),
            Instr::Add {
                pieces: vec![],
                partial: false,
                copy: false,
                move_type: None,
            },
        ]
    );
    let board = &doc.games[0].boards[0];
    // The direction and its opposite (for the second player's symmetry).
    assert_eq!(board.directions, vec!["d+2+2", "d-2-2"]);
    assert_eq!(board.positions.len(), 64);
    let a1 = &board.positions[0];
    assert_eq!(a1.name, "a1");
    assert_eq!(a1.links.len(), 1);
    assert_eq!(a1.links[0].to, "c3");
    assert_eq!(board.positions[63].name, "h8");
    assert_eq!(
        board.symmetries[0].map,
        vec![
            ["d+2+2".to_string(), "d-2-2".to_string()],
            ["d-2-2".to_string(), "d+2+2".to_string()]
        ]
    );
}

/// Board size options: a 10×4 board named a1..j4.
#[test]
fn board_size_option() {
    let (doc, _) = lower(
        "r.csm",
        "take-move(1, 0) repeat(1);",
        FileId(0),
        &LowerOptions {
            files: 10,
            ranks: 4,
            piece_name: None,
            dialect: None,
        },
    );
    let doc = doc.unwrap();
    let b = &doc.games[0].boards[0];
    assert_eq!(b.positions.len(), 40);
    assert_eq!(b.positions.last().unwrap().name, "j4");
    assert_eq!(doc.games[0].pieces[0].name, "r");
    assert_eq!(b.layout.grids[0].dimensions[0].labels.len(), 10);
}

/// Constructs with no exact spec form are carried as text with a diagnostic naming them, and
/// emitted back verbatim.
#[test]
fn unlowered_chains_travel_in_extensions() {
    let text = "check not take-move(1, 0);\ntake-move(0, 1);\nmove(0, 1) do observe(0, 1) while;\n";
    let (doc, diags) = lower("x.csm", text, FileId(0), &LowerOptions::default());
    let doc = doc.unwrap();
    assert_eq!(diags.len(), 2, "{diags:?}");
    assert!(diags[0].message.contains("`check`"), "{}", diags[0].message);
    assert!(
        diags[1].message.contains("do … while"),
        "{}",
        diags[1].message
    );
    let p = piece_of(&doc);
    assert_eq!(
        p.extensions
            .texts(RawFormat::Chessembly)
            .collect::<Vec<_>>(),
        vec![
            "check not take-move(1, 0);",
            "move(0, 1) do observe(0, 1) while;"
        ]
    );
    assert_eq!(p.moves.len(), 1);
    let (script, d) = emit(&doc, 0, "x");
    assert!(d.is_empty(), "{d:?}");
    let script = script.unwrap();
    assert!(script.contains("check not take-move(1, 0);\n"));
    let (doc2, _) = lower("x.csm", &script, FileId(0), &LowerOptions::default());
    assert_eq!(games_yaml(&doc), games_yaml(&doc2.unwrap()));
}

/// A script with errors does not lower.
#[test]
fn errors_do_not_lower() {
    let (doc, diags) = lower(
        "e.csm",
        "take-move(1);",
        FileId(0),
        &LowerOptions::default(),
    );
    assert!(doc.is_none());
    assert_eq!(diags[0].code, "chessembly::arity");
}

/// Spec forms written by other readers (the ZRF leap and slide) are emitted with their moves,
/// and constructs without a Chessembly form are named.
#[test]
fn emit_zrf_idioms_and_refusals() {
    let (mut doc, _) = lower_ok("k", "take-move(1, 0);");
    let add = Instr::Add {
        pieces: vec![],
        partial: false,
        copy: false,
        move_type: None,
    };
    let here = |t| Cond::Test {
        test: t,
        at: None,
        move_type: None,
    };
    let not_friend = Instr::Verify(Cond::Not(Box::new(here(Test::Friend))));
    let step = Instr::Step("d+1+0".into());
    let p = &mut doc.games[0].pieces[0];
    p.moves[0].program = vec![step.clone(), not_friend.clone(), add.clone()];
    p.moves.push(spec::MoveBlock {
        move_type: None,
        program: vec![
            step.clone(),
            Instr::While {
                cond: here(Test::Empty),
                body: vec![add.clone(), step.clone()],
            },
            not_friend,
            add.clone(),
        ],
    });
    let (script, d) = emit(&doc, 0, "k");
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(
        script.unwrap(),
        "# k;\ntake-move(1, 0);\ntake-move(1, 0) repeat(1);\n"
    );
    // A flip has no Chessembly form.
    doc.games[0].pieces[0].moves[0]
        .program
        .insert(0, Instr::Flip { at: None });
    let (script, d) = emit(&doc, 0, "k");
    assert!(script.is_none());
    assert_eq!(d[0].code, "chessembly::unemittable");
    assert!(
        d[0].message.contains("the instruction `flip`"),
        "{}",
        d[0].message
    );
}

/// A 1 MB script lowers in one pass (no quadratic work across chains).
#[test]
fn large_script_lowers() {
    let chain = "take-move(1, 2) { take-move(0, 1) repeat(1) } { move(1, 0) };\n";
    let text = chain.repeat(1_000_000 / chain.len() + 1);
    let t = std::time::Instant::now();
    let (doc, diags) = lower("big.csm", &text, FileId(0), &LowerOptions::default());
    let doc = doc.unwrap();
    assert!(diags.is_empty());
    // Every chain is the same: its two paths, once each.
    assert_eq!(doc.games[0].pieces[0].moves.len(), 2);
    assert!(t.elapsed().as_secs() < 60, "{:?}", t.elapsed());
}

/// A ZRF-style board: ranks listed top-down with a downward pixel offset, compass names, and a
/// mirror symmetry for the second player (reported, since Chessembly rotates by 180°).
#[test]
fn emit_from_zrf_style_board() {
    use zogkit::spec::{Board, Dimension, Grid, GridDirection, Layout, MoveBlock, Symmetry};
    let dir = |n: &str, d: [i64; 2]| GridDirection {
        name: n.into(),
        delta: d.to_vec(),
    };
    let board = Board {
        layout: Layout {
            grids: vec![Grid {
                start_rectangle: [0, 0, 50, 50],
                dimensions: vec![
                    Dimension {
                        labels: vec!["a".into(), "b".into(), "c".into()],
                        offset: [50, 0],
                    },
                    Dimension {
                        labels: vec!["3".into(), "2".into(), "1".into()],
                        offset: [0, 50],
                    },
                ],
                directions: vec![
                    dir("n", [0, -1]),
                    dir("s", [0, 1]),
                    dir("e", [1, 0]),
                    dir("w", [-1, 0]),
                    dir("ne", [1, -1]),
                ],
            }],
            ..Layout::default()
        },
        symmetries: vec![Symmetry {
            player: "Black".into(),
            map: vec![
                ["n".into(), "s".into()],
                ["s".into(), "n".into()],
                ["e".into(), "e".into()],
                ["w".into(), "w".into()],
            ],
        }],
        ..Board::default()
    };
    let deltas = zogkit::chessembly::emit::direction_deltas(&board).unwrap();
    assert_eq!(deltas["n"], zogkit::chessembly::Delta::new(0, 1));
    assert_eq!(deltas["w"], zogkit::chessembly::Delta::new(-1, 0));
    assert_eq!(deltas["ne"], zogkit::chessembly::Delta::new(1, 1));
    let (mut doc, _) = lower_ok("p", "move(0, 1);");
    let g = &mut doc.games[0];
    g.boards = vec![board];
    let add = Instr::Add {
        pieces: vec![],
        partial: false,
        copy: false,
        move_type: None,
    };
    let here = |t| Cond::Test {
        test: t,
        at: None,
        move_type: None,
    };
    g.pieces[0].moves = vec![MoveBlock {
        move_type: None,
        program: vec![
            Instr::Step("ne".into()),
            Instr::Verify(Cond::Not(Box::new(here(Test::Friend)))),
            add.clone(),
        ],
    }];
    let (script, d) = emit(&doc, 0, "p");
    assert_eq!(script.unwrap(), "# p;\ntake-move(1, 1);\n");
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code, "chessembly::orientation");

    // Refusals name the construct.
    let refuse = |program: Vec<Instr>, words: &str| {
        let mut doc = doc.clone();
        doc.games[0].pieces[0].moves = vec![MoveBlock {
            move_type: None,
            program,
        }];
        let (script, d) = emit(&doc, 0, "p");
        assert!(script.is_none(), "{words}");
        let m = &d
            .iter()
            .find(|d| d.code == "chessembly::unemittable")
            .unwrap()
            .message;
        assert!(m.contains(words), "{m}");
    };
    let step = Instr::Step("n".into());
    let empty = Instr::Verify(here(Test::Empty));
    refuse(
        vec![
            step.clone(),
            empty.clone(),
            Instr::Add {
                pieces: vec![],
                partial: true,
                copy: false,
                move_type: None,
            },
        ],
        "partial move",
    );
    let promote = |p: &[&str]| Instr::Add {
        pieces: p.iter().map(|s| s.to_string()).collect(),
        partial: false,
        copy: false,
        move_type: None,
    };
    refuse(
        vec![
            step.clone(),
            empty.clone(),
            promote(&["queen", "rook"]),
            step.clone(),
            empty.clone(),
            promote(&["rook", "queen"]),
        ],
        "different choices of promotion",
    );
    // One choice of promotions is one chain per choice; a ZRF capture-only step is `take`.
    let mut promo = doc.clone();
    promo.games[0].pieces[0].moves = vec![
        MoveBlock {
            move_type: None,
            program: vec![step.clone(), empty.clone(), promote(&["queen", "knight"])],
        },
        MoveBlock {
            move_type: None,
            program: vec![
                Instr::Step("ne".into()),
                Instr::Verify(here(Test::Enemy)),
                add.clone(),
            ],
        },
    ];
    let (script, _) = emit(&promo, 0, "p");
    assert_eq!(
        script.unwrap(),
        "# p;\ntransition(queen) move(0, 1);\ntransition(knight) move(0, 1);\ntake(1, 1);\n"
    );
    refuse(
        vec![
            Instr::Verify(Cond::Or(vec![here(Test::Enemy), here(Test::Friend)])),
            step.clone(),
            empty.clone(),
            add.clone(),
        ],
        "disjunction",
    );
    refuse(
        vec![Instr::Jump("a1".into()), add.clone()],
        "the instruction `a1`",
    );
    refuse(
        vec![Instr::Step("x".into()), empty.clone(), add.clone()],
        "`x`, which is not a direction",
    );
    refuse(vec![step, add], "no test of the square it lands on");
}

/// Each construct without an exact spec form is named, and only its chain is kept as text.
#[test]
fn each_unlowered_construct_is_named() {
    let cases = [
        ("check take-move(1, 0);", "`check`"),
        ("danger(1, 0) not take-move(1, 0);", "`danger`"),
        (
            "take-move(1, 0) take-move(1, 0) repeat(2);",
            "a `repeat` loop",
        ),
        ("take(1, 0) repeat(1);", "`take(…) repeat(1)`"),
        ("take(1, 0) move(0, 1);", "a move after a possible capture"),
        (
            "take-move(1, 0) not move(0, 1);",
            "followed by a control item",
        ),
        (
            "{ enemy(1, 0) jmp(0) move(1, 0) } label(0) move(0, 1);",
            "into or out of",
        ),
        ("label(0) peek(0, 1) jmp(0);", "backward jump"),
        ("move(0, 0);", "(0, 0)"),
        (
            "move(0, 1) piece(test) move(0, 1);",
            "`piece(…)` after the anchor",
        ),
        (
            "{ peek(0, 1) transition(q) } move(0, 1);",
            "transition depends",
        ),
        (
            "{ peek(0, 1) set-state(a, 1) } move(0, 1);",
            "state changes depend",
        ),
        (
            "do move(0, 1) move(1, 0) while;",
            "`do … while` loop other than",
        ),
        (
            "enemy(1, 0) jne(1) label(1) enemy(1, 1) jne(2) label(2) enemy(0, 1) jne(3) label(3) enemy(1, 2) jne(4) label(4) enemy(2, 1) jne(5) label(5) enemy(2, 2) jne(6) label(6) enemy(-1, 1) jne(7) label(7) enemy(-1, 0) jne(8) label(8) enemy(0, -1) jne(9) label(9) move(0, 1);",
            "too many paths",
        ),
    ];
    for (text, words) in cases {
        let full = format!("move(1, 1);\n{text}\n");
        let (doc, diags) = lower("u.csm", &full, FileId(0), &LowerOptions::default());
        let doc = doc.unwrap_or_else(|| panic!("{text}: {diags:?}"));
        assert_eq!(diags.len(), 1, "{text}: {diags:?}");
        assert_eq!(diags[0].code, CODE_UNLOWERED);
        assert!(
            diags[0].message.contains(words),
            "{text}: {}",
            diags[0].message
        );
        let p = piece_of(&doc);
        let kept: Vec<&String> = p.extensions.texts(RawFormat::Chessembly).collect();
        assert_eq!(kept, vec![text], "{text}");
        assert_eq!(p.moves.len(), 1, "{text}: the other chain is lowered");
    }
}

/// One megabyte-long chain: a single way lowers; with many forks it is carried as text.
#[test]
fn long_chains_are_bounded() {
    let linear = format!("{}move(0, 1);", "peek(0, 1) ".repeat(90_000));
    let (doc, diags) = lower("l.csm", &linear, FileId(0), &LowerOptions::default());
    assert!(diags.is_empty());
    assert_eq!(piece_of(&doc.unwrap()).moves[0].program.len(), 180_003);
    let forked = format!(
        "{}{}move(0, 1);",
        "peek(0, 1) ".repeat(90_000),
        "{ move(1, 0) } ".repeat(10)
    );
    let (doc, diags) = lower("f.csm", &forked, FileId(0), &LowerOptions::default());
    assert_eq!(diags.len(), 1);
    assert!(
        diags[0].message.contains("too large"),
        "{}",
        diags[0].message
    );
    assert_eq!(
        piece_of(&doc.unwrap())
            .extensions
            .count(RawFormat::Chessembly),
        1
    );
}

/// Played by the engine, a lowered capture leaves the capturing piece on the captured square
/// (ZoG applies captures after pieces land, so the lowering uses `add`'s own replacement).
#[test]
fn a_lowered_capture_keeps_the_capturing_piece() {
    for (name, text) in standard().into_iter().filter(|(n, _)| n == "rook") {
        let (doc, _) = lower_ok(&name, &text);
        let rules = engine::Rules::compile(&doc, 0).unwrap();
        let mut st = engine::State::start(&rules);
        let at = |n: &str| rules.position(n).unwrap() as usize;
        let rook = engine::Piece {
            owner: 0,
            kind: 0,
            attrs: 0,
        };
        st.set_square(at("d4") as u32, Some(rook));
        st.set_square(at("d6") as u32, Some(engine::Piece { owner: 1, ..rook }));
        let moves = engine::piece_moves(&rules, &st, at("d4") as u32).moves;
        let take = moves
            .iter()
            .find(|m| m.to == Some(at("d6") as u32))
            .expect("the rook captures on d6");
        engine::play(&rules, &mut st, take);
        assert_eq!(
            st.board[at("d6")],
            Some(rook),
            "{name}: the rook stands on d6"
        );
        assert_eq!(st.board[at("d4")], None);
    }
}

/// A lowered `shift` swaps the two pieces, and the piece it swaps with is not attacked: Black's
/// royal `k` beside White's swapper is not in check, so Black keeps its move (in the
/// interpreter a shift is no capture, so it never attacks either).
#[test]
fn a_lowered_shift_swaps_and_does_not_attack() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/chessembly/ms-shift.csm"),
    )
    .unwrap();
    let (doc, _) = lower_ok("ms-shift", &text);
    let names: BTreeSet<String> = ["ms-shift", "k"].iter().map(|s| s.to_string()).collect();
    let mut doc = playable(doc, &names, &["ms-shift"]);
    doc.games[0].goals.push(spec::Goal {
        kind: spec::GoalKind::Loss,
        players: vec!["Black".into()],
        condition: spec::GoalCond::Checkmated {
            pieces: vec!["k".into()],
        },
    });
    let rules = engine::Rules::compile(&doc, 0).unwrap();
    let mut st = engine::State::start(&rules);
    let put = |st: &mut engine::State, at: &str, owner: u32, kind: &str| {
        st.set_square(
            rules.position(at).unwrap(),
            Some(engine::Piece {
                owner,
                kind: rules.kind(kind).unwrap(),
                attrs: 0,
            }),
        );
    };
    for (at, owner, kind) in [
        ("d4", 0, "ms-shift"),
        ("d5", 1, "k"),
        ("a1", 0, "ms-shift"),
        ("a2", 0, "ms-shift"),
        ("h7", 0, "ms-shift"),
        ("h8", 1, "ms-shift"),
    ] {
        put(&mut st, at, owner, kind);
    }
    let pos = |n: &str| rules.position(n).unwrap();
    let white = engine::legal_moves(&rules, &mut st);
    let swap = white
        .moves
        .iter()
        .find(|m| {
            m.actions.contains(&engine::Action::Move {
                from: pos("a1"),
                to: pos("a2"),
                promote: None,
            })
        })
        .expect("White's a1 swapper swaps with a2")
        .clone();
    engine::play(&rules, &mut st, &swap);
    let kind_at =
        |st: &engine::State, n: &str| st.board[pos(n) as usize].map(|p| (p.owner, p.kind));
    assert_eq!(
        kind_at(&st, "a1"),
        kind_at(&st, "a2"),
        "both a1 and a2 hold White swappers"
    );
    assert!(kind_at(&st, "a1").is_some());
    let black = engine::legal_moves(&rules, &mut st);
    assert!(
        !black.moves.is_empty(),
        "Black's king beside a swapper counted as attacked: no legal move left"
    );
    let b = black
        .moves
        .iter()
        .find(|m| {
            m.actions.contains(&engine::Action::Move {
                from: pos("h8"),
                to: pos("h7"),
                promote: None,
            })
        })
        .expect("Black's h8 swapper swaps with h7")
        .clone();
    engine::play(&rules, &mut st, &b);
    assert_eq!(st.board[pos("h7") as usize].map(|p| p.owner), Some(1));
    assert_eq!(st.board[pos("h8") as usize].map(|p| p.owner), Some(0));
}

/// A chain that is a plain movement lowers to the movement table's program of it (so
/// `movement::recognise` types it), and `emit` prints it back as the same chain.
#[test]
fn plain_movements_lower_through_the_movement_table() {
    use spec::movement::{Hurdle, Land, Movement, Travel};
    let dir = |s: &str| s.to_string();
    let slide = |d: &str, max, quiet| Travel::Slide {
        dir: dir(d),
        max,
        quiet,
    };
    let cases = [
        (
            "take-move(1, 1) repeat(1)",
            Movement::new(slide("d+1+1", None, true), Land::Enemy),
        ),
        (
            "move(0, 1) repeat(1)",
            Movement::new(slide("d+0+1", None, true), Land::Empty),
        ),
        (
            "do peek(1, 0) while take(1, 0)",
            Movement::new(slide("d+1+0", None, false), Land::Enemy),
        ),
        (
            "move(0, 1) move(0, 1)",
            Movement::new(slide("d+0+1", Some(2), true), Land::Empty),
        ),
        (
            "take(1, 0)",
            Movement::new(Travel::Step(dir("d+1+0")), Land::Enemy),
        ),
        (
            "take-move(1, 2)",
            Movement::new(Travel::Step(dir("d+1+2")), Land::NotFriend),
        ),
        (
            "anchor(0, 1) take-move(1, 1)",
            Movement::new(
                Travel::Leap(vec![dir("d+0+1"), dir("d+1+1")]),
                Land::NotFriend,
            ),
        ),
        (
            "peek(0, 1) take-move(1, 1)",
            Movement::new(
                Travel::Lame(vec![dir("d+0+1"), dir("d+1+1")]),
                Land::NotFriend,
            ),
        ),
        (
            "take(0, 1) jump(0, 1)",
            Movement::new(
                Travel::Hop {
                    dir: dir("d+0+1"),
                    over: Hurdle::Enemy,
                    capture: true,
                },
                Land::Empty,
            ),
        ),
        (
            "observe(0, 1) not anchor(0, 1) move(0, 1)",
            Movement::new(
                Travel::Hop {
                    dir: dir("d+0+1"),
                    over: Hurdle::Occupied,
                    capture: false,
                },
                Land::Empty,
            ),
        ),
        (
            "do peek(0, 1) while anchor(0, 1) do peek(0, 1) while take(0, 1)",
            Movement::new(
                Travel::Cannon {
                    dir: dir("d+0+1"),
                    quiet: false,
                    beyond: false,
                    screen: Vec::new(),
                },
                Land::Enemy,
            ),
        ),
        (
            "do move(0, 1) while anchor(0, 1) do peek(0, 1) while take-move(0, 1)",
            Movement::new(
                Travel::Cannon {
                    dir: dir("d+0+1"),
                    quiet: true,
                    beyond: false,
                    screen: Vec::new(),
                },
                Land::NotFriend,
            ),
        ),
    ];
    for (chain, want) in cases {
        // `anchor` and `jump` are MS words (`lower_ok` expects the dialect note for `ms-`).
        let name = if chain.contains("anchor") || chain.contains("jump") {
            "ms-p"
        } else {
            "p"
        };
        let (doc, _) = lower_ok(name, &format!("{chain};"));
        let moves = &piece_of(&doc).moves;
        assert_eq!(moves.len(), 1, "{chain}: {moves:?}");
        assert_eq!(
            spec::movement::recognise(&moves[0]),
            Ok(want.clone()),
            "{chain}"
        );
        assert_eq!(moves[0], spec::movement::program(&want), "{chain}");
        let (script, d) = emit(&doc, 0, name);
        assert_eq!(script, Some(format!("# {name};\n{chain};\n")), "{d:?}");
    }
}

/// The `.lud` writer writes the moves of lowered slides and steps (it reported each slide as
/// "a block that does not start with a step" while the lowering wrote its own loop).
#[test]
fn lowered_slides_are_written_to_ludii() {
    let (doc, _) = lower_ok(
        "rook",
        "take-move(1, 0) repeat(1); take-move(-1, 0) repeat(1); move(0, 1) repeat(1); take(0, -1);",
    );
    let (text, diags) = zogkit::ludii::write_lud(&doc);
    assert!(
        diags.iter().all(|d| d.code != "ludii::not-expressible"),
        "{diags:?}\n{text}"
    );
    assert!(text.contains("(move Slide"), "{text}");
    assert!(text.contains("(move Step"), "{text}");
}
