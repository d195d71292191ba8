//! Chessembly's hand-checked cases for the corpus harness: for a `corpus/chessembly/*.csm` script
//! that compiles, the shapes of its chains, then each case of `<name>.cases` as a board diagram
//! plus the move list (the golden `golden/chessembly/<name>.txt`); each case's hand-checked
//! `expect` lines are asserted as well.
//!
//! Case file format (one directive a line, `#` comments):
//! `case TITLE`, `board FEN`, `at SQ`, `color white|black`, `piece NAME`, `state KEY=N`,
//! `expect SQ xSQ ...` (target squares: where the piece lands, or for `catch` the captured
//! square; `x` marks a capture; order-insensitive),
//! `expect-state KEY=N` and `expect-transition NAME` (every move carries exactly that).

use std::fmt::Write as _;
use zogkit::chessembly::board::Color;
use zogkit::chessembly::board::{piece_letter, square_name};
use zogkit::chessembly::program::{ChainShape, Reach};
use zogkit::chessembly::query::{Query, move_text, prepare};
use zogkit::chessembly::{Rules, Square};
use zogkit::diag::SourceMap;

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

/// The `.txt` golden of a script that compiles (`None` when it does not), the failed hand-checked
/// expectations and the number of cases run. `cases` is the text of its `.cases` file, if any.
pub fn transcript(
    name: &str,
    text: &str,
    cases: Option<&str>,
) -> Option<(String, Vec<String>, usize)> {
    let mut sm = SourceMap::new();
    let file = sm.add(name.to_string(), text.to_string());
    let rules = Rules::new();
    rules.clone().compile(text, file).ok()?;
    let mut out = shapes(&rules, text, name);
    let mut failures = Vec::new();
    let mut run = 0;
    if let Some(cases) = cases {
        let cases = parse_cases(cases);
        if cases.is_empty() {
            failures.push(format!("{name}: its .cases file has no case"));
        }
        for case in &cases {
            let (text_out, mut f) = run_case(case, name, text);
            out += &text_out;
            failures.append(&mut f);
            run += 1;
        }
    }
    Some((out, failures, run))
}
