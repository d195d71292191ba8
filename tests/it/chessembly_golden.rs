//! Golden tests for Chessembly: every `corpus/chessembly/*.csm` is compiled; scripts with errors
//! are compared with `golden/chessembly/<name>.diag` (rendered diagnostics), others with
//! `golden/chessembly/<name>.txt` (chain shapes, then each case of `<name>.cases` as a board
//! diagram plus the move list). Each case's hand-checked `expect` line is asserted as well.
//! An `err-` script that compiles is lowered to the spec instead (what `check` and `convert` do)
//! and its lowering diagnostics, which must include an error, are its `.diag` golden.
//!
//! `UPDATE_GOLDEN=1` rewrites goldens. A missing golden is written on first run, unless `CI` is
//! set, in which case it is a failure.
//!
//! Case file format (one directive a line, `#` comments):
//! `case TITLE`, `board FEN`, `at SQ`, `color white|black`, `piece NAME`, `state KEY=N`,
//! `expect SQ xSQ ...` (target squares: where the piece lands, or for `catch` the captured
//! square; `x` marks a capture; order-insensitive),
//! `expect-state KEY=N` and `expect-transition NAME` (every move carries exactly that).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use zogkit::chessembly::board::Color;
use zogkit::chessembly::board::{piece_letter, square_name};
use zogkit::chessembly::program::{ChainShape, Reach};
use zogkit::chessembly::query::{Query, move_text, prepare};
use zogkit::chessembly::{Rules, Square};
use zogkit::diag::{Severity, SourceMap};

#[derive(Default, Debug)]
struct Case {
    title: String,
    board: String,
    at: String,
    color: Option<Color>,
    piece: Option<String>,
    state: Vec<String>,
    expect: Option<Vec<String>>,
    expect_state: Option<String>,
    expect_transition: Option<String>,
}

fn parse_cases(text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim().to_string();
        if word == "case" {
            cases.push(Case {
                title: rest,
                ..Case::default()
            });
            continue;
        }
        let c = cases
            .last_mut()
            .unwrap_or_else(|| panic!("line {}: directive before `case`", n + 1));
        match word {
            "board" => c.board = rest,
            "at" => c.at = rest,
            "color" => {
                c.color = Some(match rest.as_str() {
                    "white" => Color::White,
                    "black" => Color::Black,
                    other => panic!("line {}: bad colour {other}", n + 1),
                })
            }
            "piece" => c.piece = Some(rest),
            "state" => c.state.push(rest),
            "expect" => c.expect = Some(rest.split_whitespace().map(str::to_string).collect()),
            "expect-state" => c.expect_state = Some(rest),
            "expect-transition" => c.expect_transition = Some(rest),
            other => panic!("line {}: unknown directive {other}", n + 1),
        }
    }
    cases
}

fn shapes(rules: &Rules, text: &str, name: &str) -> String {
    let mut sm = SourceMap::new();
    let file = sm.add(name, text);
    let mut r = rules.clone();
    let id = r.compile(text, file).expect("compiles");
    let p = r.program(id);
    let mut out = String::from("chains:\n");
    for (i, c) in p.chains.iter().enumerate() {
        let shape = match c.shape {
            ChainShape::Leap(k, d) => format!("leap {} ({}, {})", k.name(), d.dx, d.dy),
            ChainShape::Slide(k, d) => format!("slide {} ({}, {})", k.name(), d.dx, d.dy),
            ChainShape::Other => "other".to_string(),
        };
        let reach = match &c.reach {
            Reach::Never => "never captures".to_string(),
            Reach::Any => "may capture anywhere".to_string(),
            Reach::Ray(d) => format!("captures along ({}, {})", d.dx, d.dy),
            Reach::Offsets(v) => format!(
                "captures only at {}",
                v.iter()
                    .map(|d| format!("({}, {})", d.dx, d.dy))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        };
        let _ = writeln!(
            out,
            "  {}: {} ops, {shape}; {reach}",
            i + 1,
            c.end - c.start
        );
    }
    out
}

/// Runs one case; returns its golden text and any failed hand-checked expectation.
fn run_case(case: &Case, name: &str, text: &str) -> (String, Vec<String>) {
    let args = Query {
        board: case.board.clone(),
        at: case.at.clone(),
        color: case.color,
        piece: case.piece.clone(),
        state: case.state.clone(),
        step_limit: zogkit::chessembly::interp::DEFAULT_STEP_LIMIT,
        dialect: None,
    };
    let p = prepare(&args, name, text).unwrap_or_else(|f| panic!("{name}: {}", f.message));
    let (moves, warnings) = p.rules.moves(&p.board, &p.state, p.at);
    let mover = p.board.get(p.at).unwrap();
    let mut out = String::new();
    let _ = writeln!(out, "\n== {}", case.title);
    let _ = writeln!(
        out,
        "board {} at {} {} {}{}",
        case.board,
        case.at,
        mover.color.name(),
        p.rules.symbols.name(mover.kind),
        case.state
            .iter()
            .map(|s| format!(" {s}"))
            .collect::<String>()
    );
    let (w, h) = (p.board.width(), p.board.height());
    for y in (0..h).rev() {
        let _ = write!(out, "{:>3} ", y + 1);
        for x in 0..w {
            let sq = Square::new(x as u16, y as u16);
            let here: Vec<_> = moves.iter().filter(|m| m.target == sq).collect();
            let c = if sq == p.at {
                '@'
            } else if here.iter().any(|m| m.take.is_some()) {
                'x'
            } else if !here.is_empty() {
                '*'
            } else {
                p.board
                    .get(sq)
                    .map_or('.', |pc| piece_letter(pc, &p.rules.symbols))
            };
            let _ = write!(out, " {c}");
        }
        out.push('\n');
    }
    let files: String = (0..w)
        .map(|x| {
            format!(
                " {}",
                square_name(Square::new(x as u16, 0)).trim_end_matches('1')
            )
        })
        .collect();
    let _ = writeln!(out, "    {files}");
    let _ = writeln!(out, "moves ({}):", moves.len());
    for m in &moves {
        let _ = writeln!(out, "  {}", move_text(m, &p.rules.symbols));
    }
    for d in &warnings {
        out += &d.render(&p.sources, name);
    }
    let mut failures = Vec::new();
    if let Some(expect) = &case.expect {
        let mut want: Vec<String> = expect.clone();
        want.sort();
        let mut got: Vec<String> = moves
            .iter()
            .map(|m| match m.take {
                Some(_) => format!("x{}", square_name(m.target)),
                None => square_name(m.target),
            })
            .collect();
        got.sort();
        got.dedup();
        if want != got {
            failures.push(format!(
                "{name} / {}: expected {want:?}, generated {got:?}",
                case.title
            ));
        }
    }
    if let Some(es) = &case.expect_state {
        for m in &moves {
            let s: Vec<String> = m
                .state_change
                .iter()
                .map(|&(k, v)| format!("{}={v}", p.rules.symbols.name(k)))
                .collect();
            if s != [es.clone()] {
                failures.push(format!(
                    "{name} / {}: move {} carries {s:?}, expected [{es}]",
                    case.title,
                    move_text(m, &p.rules.symbols)
                ));
            }
        }
    }
    if let Some(et) = &case.expect_transition {
        for m in &moves {
            let t = m.transition.map(|t| p.rules.symbols.name(t).to_string());
            if t.as_deref() != Some(et.as_str()) {
                failures.push(format!(
                    "{name} / {}: move {} has transition {t:?}, expected {et}",
                    case.title,
                    move_text(m, &p.rules.symbols)
                ));
            }
        }
    }
    (out, failures)
}

fn check_golden(path: &Path, actual: &str, failures: &mut Vec<String>) {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    match std::fs::read_to_string(path) {
        Ok(expected) if expected == actual => {}
        Ok(_) if update => std::fs::write(path, actual).unwrap(),
        Ok(expected) => failures.push(format!(
            "{} differs (UPDATE_GOLDEN=1 rewrites it)\n--- expected\n{expected}\n--- actual\n{actual}",
            path.display()
        )),
        Err(_) if std::env::var_os("CI").is_some() && !update => {
            failures.push(format!("{} is missing (CI is set)", path.display()))
        }
        Err(_) => {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, actual).unwrap();
        }
    }
}

#[test]
fn chessembly_corpus_matches_goldens_and_hand_checks() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let corpus = root.join("corpus/chessembly");
    let golden = root.join("golden/chessembly");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "csm"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "the seed's examples are in the corpus");
    let mut failures = Vec::new();
    let mut cases_run = 0;
    for path in &files {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let name = format!("corpus/chessembly/{stem}.csm");
        let text = std::fs::read_to_string(path).unwrap();
        let mut sm = SourceMap::new();
        let file = sm.add(name.clone(), text.clone());
        let rules = Rules::new();
        let mut probe = rules.clone();
        match probe.compile(&text, file) {
            Err(diags) => {
                let out: String = diags.iter().map(|d| d.render(&sm, &name)).collect();
                check_golden(&golden.join(format!("{stem}.diag")), &out, &mut failures);
            }
            Ok(_) if stem.starts_with("err-") => {
                let opts = zogkit::chessembly::LowerOptions::default();
                let (_, diags) = zogkit::chessembly::lower(&name, &text, file, &opts);
                assert!(
                    diags.iter().any(|d| d.severity == Severity::Error),
                    "{name}: an err- script must fail to compile or to lower"
                );
                let out: String = diags.iter().map(|d| d.render(&sm, &name)).collect();
                check_golden(&golden.join(format!("{stem}.diag")), &out, &mut failures);
            }
            Ok(_) => {
                let mut out = shapes(&rules, &text, &name);
                let cases_path = corpus.join(format!("{stem}.cases"));
                if let Ok(cases) = std::fs::read_to_string(&cases_path) {
                    let cases = parse_cases(&cases);
                    assert!(!cases.is_empty(), "{} has no case", cases_path.display());
                    for case in &cases {
                        let (text_out, mut f) = run_case(case, &name, &text);
                        out += &text_out;
                        failures.append(&mut f);
                        cases_run += 1;
                    }
                }
                check_golden(&golden.join(format!("{stem}.txt")), &out, &mut failures);
            }
        }
    }
    assert!(cases_run >= 30, "only {cases_run} cases ran");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
