//! Move programs and goals as text for messages: instructions, conditions and goal conditions
//! shown as ZRF-like S-expressions (`(while empty? (add) e)`), never as the spec's JSON.
//!
//! This is a display for people, not a writer: names are printed as they are (quoted when they
//! would not read as one atom), Chessembly's state instructions keep their own names, and raw
//! content is shown as its source wrote it. `zrf::emit` writes programs that ZRF reads back.

use super::types::{Cond, GoalCond, Instr, Test};
use std::fmt;

fn name(s: &str) -> String {
    let atom = !s.is_empty()
        && !s
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '(' | ')' | ';' | '"'));
    if atom {
        s.to_string()
    } else {
        format!("{s:?}")
    }
}

fn opt(at: &Option<String>) -> String {
    at.as_deref()
        .map(|a| format!(" {}", name(a)))
        .unwrap_or_default()
}

/// `head` alone, or `(head at)`.
fn with_at(head: &str, at: &Option<String>) -> String {
    match at {
        None => head.to_string(),
        Some(a) => format!("({head} {})", name(a)),
    }
}

/// The ZRF name of a position test (`empty?`).
pub fn test_name(t: Test) -> &'static str {
    match t {
        Test::Empty => "empty?",
        Test::Friend => "friend?",
        Test::Enemy => "enemy?",
        Test::Neutral => "neutral?",
        Test::LastFrom => "last-from?",
        Test::LastTo => "last-to?",
        Test::Marked => "marked?",
        Test::Attacked => "attacked?",
        Test::Defended => "defended?",
        Test::GoalPosition => "goal-position?",
        Test::AdjacentToEnemy => "adjacent-to-enemy?",
    }
}

impl fmt::Display for Test {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(test_name(*self))
    }
}

fn list<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    for x in items {
        write!(f, " {x}")?;
    }
    Ok(())
}

impl fmt::Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cond::Const(b) => write!(f, "{b}"),
            Cond::Test {
                test,
                at: None,
                move_type: None,
            } => write!(f, "{test}"),
            Cond::Test {
                test,
                at,
                move_type,
            } => write!(f, "({test}{}{})", opt(at), opt(move_type)),
            Cond::Piece { piece, at } => write!(f, "(piece? {}{})", name(piece), opt(at)),
            Cond::InZone { zone, at } => write!(f, "(in-zone? {}{})", name(zone), opt(at)),
            Cond::OnBoard { direction: None } => f.write_str("on-board?"),
            Cond::OnBoard { direction: Some(d) } => write!(f, "(on-board? {})", name(d)),
            Cond::Position { position } => write!(f, "(position? {})", name(position)),
            Cond::Flag { flag } => write!(f, "(flag? {})", name(flag)),
            Cond::PositionFlag { flag, at } => {
                write!(f, "(position-flag? {}{})", name(flag), opt(at))
            }
            Cond::Attribute { name: n, at: None } => f.write_str(&name(n)),
            Cond::Attribute { name: n, at } => write!(f, "({}{})", name(n), opt(at)),
            Cond::Not(x) => write!(f, "(not {x})"),
            Cond::And(v) => {
                f.write_str("(and")?;
                list(f, v)?;
                f.write_str(")")
            }
            Cond::Or(v) => {
                f.write_str("(or")?;
                list(f, v)?;
                f.write_str(")")
            }
            Cond::State { key, value } => write!(f, "(if-state {} {value})", name(key)),
            Cond::Raw { text, .. } => f.write_str(text),
        }
    }
}

/// Names as one list: a lone name bare, several in parentheses.
fn names(v: &[String]) -> String {
    match v {
        [one] => name(one),
        v => format!(
            "({})",
            v.iter().map(|x| name(x)).collect::<Vec<_>>().join(" ")
        ),
    }
}

impl fmt::Display for GoalCond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counted = |word: &str, count: &str, piece: &Option<String>| match piece {
            Some(p) => format!("({word} {} {})", name(count), name(p)),
            None => format!("({word} {})", name(count)),
        };
        match self {
            GoalCond::Stalemated => f.write_str("stalemated"),
            GoalCond::Repetition => f.write_str("repetition"),
            GoalCond::Checkmated { pieces } => write!(f, "(checkmated {})", names(pieces)),
            GoalCond::Captured { pieces } => write!(f, "(captured {})", names(pieces)),
            GoalCond::PiecesRemaining { count, piece } => {
                f.write_str(&counted("pieces-remaining", count, piece))
            }
            GoalCond::TotalPieceCount { count, piece } => {
                f.write_str(&counted("total-piece-count", count, piece))
            }
            GoalCond::AbsoluteConfig {
                pieces,
                positions,
                opponent,
                negated,
                ..
            } => {
                let mut who = names(pieces);
                if *opponent {
                    who = format!("(opponent {who})");
                }
                if *negated {
                    who = format!("(not {who})");
                }
                write!(f, "(absolute-config {who} {})", names(positions))
            }
            GoalCond::RelativeConfig { args } => write!(f, "(relative-config {})", args.join(" ")),
            GoalCond::Line { length, directions } if directions.is_empty() => {
                write!(f, "(line {length})")
            }
            GoalCond::Line { length, directions } => {
                write!(f, "(line {length} {})", names(directions))
            }
            GoalCond::Connected { zones, directions } => {
                let z: String = zones.iter().map(|x| format!(" {}", name(x))).collect();
                if directions.is_empty() {
                    write!(f, "(connected{z})")
                } else {
                    let d: Vec<String> = directions.iter().map(|x| name(x)).collect();
                    write!(f, "(connected{z} (directions {}))", d.join(" "))
                }
            }
            GoalCond::And(v) => {
                f.write_str("(and")?;
                list(f, v)?;
                f.write_str(")")
            }
            GoalCond::Or(v) => {
                f.write_str("(or")?;
                list(f, v)?;
                f.write_str(")")
            }
            GoalCond::Not(x) => write!(f, "(not {x})"),
            GoalCond::Raw { text, .. } => f.write_str(text),
        }
    }
}

impl fmt::Display for Instr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Instr::Step(d) | Instr::Jump(d) => f.write_str(&name(d)),
            Instr::StepOpposite(d) => write!(f, "(opposite {})", name(d)),
            Instr::Mark => f.write_str("mark"),
            Instr::Back => f.write_str("back"),
            Instr::From { go: false } => f.write_str("from"),
            Instr::From { go: true } => f.write_str("(go from)"),
            Instr::To { go: false } => f.write_str("to"),
            Instr::To { go: true } => f.write_str("(go to)"),
            Instr::Verify(c) => write!(f, "(verify {c})"),
            Instr::If { cond, then_, else_ } => {
                write!(f, "(if {cond}")?;
                list(f, then_)?;
                if !else_.is_empty() {
                    f.write_str(" else")?;
                    list(f, else_)?;
                }
                f.write_str(")")
            }
            Instr::While { cond, body } => {
                write!(f, "(while {cond}")?;
                list(f, body)?;
                f.write_str(")")
            }
            Instr::Add {
                pieces,
                partial,
                copy,
                move_type,
            } => {
                let head = match (copy, partial) {
                    (false, false) => "add",
                    (false, true) => "add-partial",
                    (true, false) => "add-copy",
                    (true, true) => "add-copy-partial",
                };
                let mut args: Vec<String> = pieces.iter().map(|p| name(p)).collect();
                args.extend(move_type.iter().map(|m| name(m)));
                if args.is_empty() {
                    f.write_str(head)
                } else {
                    write!(f, "({head} {})", args.join(" "))
                }
            }
            Instr::Capture { at } => f.write_str(&with_at("capture", at)),
            Instr::Cascade => f.write_str("cascade"),
            Instr::Flip { at } => f.write_str(&with_at("flip", at)),
            Instr::ChangeOwner { at } => f.write_str(&with_at("change-owner", at)),
            Instr::ChangeType { piece, at } => {
                write!(f, "(change-type {}{})", name(piece), opt(at))
            }
            Instr::Create { player, piece, at } => {
                write!(f, "(create{}{}{})", opt(player), opt(piece), opt(at))
            }
            Instr::SetFlag { flag, value } => write!(f, "(set-flag {} {value})", name(flag)),
            Instr::SetPositionFlag { flag, value, at } => {
                write!(f, "(set-position-flag {} {value}{})", name(flag), opt(at))
            }
            Instr::SetAttribute { name: n, value, at } => {
                write!(f, "(set-attribute {} {value}{})", name(n), opt(at))
            }
            Instr::Call(n) => write!(f, "(proc-{n})"),
            Instr::SetState { key, value } => write!(f, "(set-state {} {value})", name(key)),
            Instr::ClearState => f.write_str("set-state"),
            Instr::Raw { text, .. } => f.write_str(text),
        }
    }
}

/// A program as one line of S-expressions, separated by spaces.
pub fn program(p: &[Instr]) -> String {
    p.iter().map(Instr::to_string).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goals_read_as_zrf_not_debug() {
        let g = GoalCond::And(vec![
            GoalCond::AbsoluteConfig {
                pieces: vec!["King".into()],
                grouped: false,
                positions: vec!["d4".into(), "e5".into()],
                opponent: true,
                negated: false,
            },
            GoalCond::Not(Box::new(GoalCond::Repetition)),
            GoalCond::PiecesRemaining {
                count: "0".into(),
                piece: Some("Pawn Man".into()),
            },
        ]);
        assert_eq!(
            g.to_string(),
            r#"(and (absolute-config (opponent King) (d4 e5)) (not repetition) (pieces-remaining 0 "Pawn Man"))"#
        );
    }

    #[test]
    fn a_slide_reads_as_zrf_not_json() {
        let slide = vec![
            Instr::Step("n".into()),
            Instr::While {
                cond: Cond::Test {
                    test: Test::Empty,
                    at: None,
                    move_type: None,
                },
                body: vec![Instr::plain_add(), Instr::Step("n".into())],
            },
            Instr::Verify(Cond::Not(Box::new(Cond::Test {
                test: Test::Friend,
                at: None,
                move_type: None,
            }))),
            Instr::Add {
                pieces: vec!["Queen".into(), "Red Rook".into()],
                partial: false,
                copy: false,
                move_type: None,
            },
        ];
        assert_eq!(
            program(&slide),
            r#"n (while empty? add n) (verify (not friend?)) (add Queen "Red Rook")"#
        );
        let c = Cond::And(vec![
            Cond::InZone {
                zone: "palace".into(),
                at: Some("n".into()),
            },
            Cond::Piece {
                piece: "Pawn".into(),
                at: None,
            },
        ]);
        assert_eq!(c.to_string(), "(and (in-zone? palace n) (piece? Pawn))");
    }
}
