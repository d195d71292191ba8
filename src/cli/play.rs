//! `zogkit moves FILE`: a game's legal moves in ZoG notation, after the moves `--after` names.

use super::moves::{MovesArgs, OutputFormat};
use zogkit::engine::{self, Action, Move, Rules, State};

/// Runs `zogkit moves` for a game; returns the exit code.
pub fn moves(args: &MovesArgs) -> u8 {
    let path = std::path::Path::new(&args.script);
    let (rules, _) = match super::load_rules(path, args.from, args.game.as_deref()) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let mut st = State::start(&rules);
    for (i, text) in args.after.iter().enumerate() {
        let found = engine::legal_moves(&rules, &mut st);
        match find_move(&rules, &st, &found.moves, text) {
            Ok(m) => engine::play(&rules, &mut st, &m),
            Err(why) => {
                super::error_line!("--after move {} `{text}`: {why}", i + 1);
                return super::EXIT_USAGE;
            }
        }
    }
    let found = engine::legal_moves(&rules, &mut st);
    if let Some(o) = &found.overrun {
        warn_overrun(&rules, o, "the list may be incomplete");
    }
    let text = match args.format {
        OutputFormat::Text => found
            .moves
            .iter()
            .map(|m| engine::notation(&rules, &st, m) + "\n")
            .collect::<String>(),
        OutputFormat::Json => {
            let list: Vec<serde_json::Value> = found
                .moves
                .iter()
                .map(|m| move_json(&rules, &st, m))
                .collect();
            format!("{:#}\n", serde_json::Value::from(list))
        }
    };
    match super::print_stdout(&text) {
        Ok(()) if found.overrun.is_some() => super::EXIT_ERRORS,
        Ok(()) => super::EXIT_OK,
        Err(code) => code,
    }
}

/// Prints the `engine::step-limit` warning for a block stopped by the step limit.
pub fn warn_overrun(rules: &Rules, o: &engine::Overrun, consequence: &str) {
    eprintln!(
        "warning[engine::step-limit]: {} of `{}` ran more than {} steps and was stopped \
         (--limit engine-steps=N); {consequence}",
        o.describe(rules),
        rules.title,
        rules.step_limit
    );
}

/// The legal move `text` names: ZoG notation, or `FROM-TO` / `FROMTO` naming exactly one move.
pub fn find_move(rules: &Rules, st: &State, moves: &[Move], text: &str) -> Result<Move, String> {
    let want = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some(m) = moves
        .iter()
        .find(|m| engine::notation(rules, st, m) == want)
    {
        return Ok(m.clone());
    }
    let compact = want.replace(['-', ' '], "");
    let hits: Vec<&Move> = moves
        .iter()
        .filter(|m| {
            let name = |p: Option<u32>| p.map_or("", |p| rules.positions[p as usize].as_str());
            format!("{}{}", name(m.from), name(m.to)) == compact
        })
        .collect();
    match hits.as_slice() {
        [m] => Ok((*m).clone()),
        [] => Err(format!(
            "not a legal move; the legal moves are: {}",
            moves
                .iter()
                .map(|m| engine::notation(rules, st, m))
                .collect::<Vec<_>>()
                .join(", ")
        )),
        many => Err(format!(
            "names {} moves; write one in full: {}",
            many.len(),
            many.iter()
                .map(|m| engine::notation(rules, st, m))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// A move as JSON: its notation, player, piece, origin, destination (where the moving piece
/// ends), captured positions and move type.
fn move_json(rules: &Rules, st: &State, m: &Move) -> serde_json::Value {
    let pos = |p: u32| rules.positions[p as usize].clone();
    let captures: Vec<String> = m
        .actions
        .iter()
        .filter_map(|a| match *a {
            Action::Capture { at } => Some(pos(at)),
            Action::Move { from, to, .. } if from != to && st.board[to as usize].is_some() => {
                Some(pos(to))
            }
            _ => None,
        })
        .collect();
    serde_json::json!({
        "notation": engine::notation(rules, st, m),
        "player": rules.players[m.player as usize],
        "piece": rules.kinds.get(m.kind as usize).map(|k| k.name.clone()),
        "from": m.from.map(pos),
        "to": m.to.map(pos),
        "captures": captures,
        "move_type": m.move_type.map(|t| rules.move_types[t as usize].clone()),
        "partial": m.partial.is_some(),
    })
}
