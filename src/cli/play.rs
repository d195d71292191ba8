//! `zogkit moves FILE`: a game's legal moves in ZoG notation, after the moves `--after` names.

use super::moves::{MovesArgs, OutputFormat};
use zogkit::engine::{self, Action, Move, Rules, State};

/// Runs `zogkit moves` for a game; returns the exit code.
pub fn moves(args: &MovesArgs) -> u8 {
    super::catch_interrupts();
    let path = std::path::Path::new(&args.script);
    let (rules, _) = match super::load_rules(path, args.from, args.game.as_deref()) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let mut st = State::start(&rules);
    for (i, text) in args.after.iter().enumerate() {
        let found = engine::legal_moves(&rules, &mut st);
        if let Some(cut) = found.cut {
            return report_cut(
                &rules,
                cut,
                &args.script,
                &format!("the position after {i} moves"),
            );
        }
        match find_move(&rules, &st, &found.moves, text) {
            Ok(m) => engine::play(&rules, &mut st, &m),
            Err(why) => {
                super::error_line!("--after move {} `{text}`: {why}", i + 1);
                return super::EXIT_USAGE;
            }
        }
    }
    let found = engine::legal_moves(&rules, &mut st);
    if super::interrupted() {
        // An attack test stopped by the interrupt may have answered wrongly: list nothing.
        eprintln!("interrupted");
        return super::EXIT_INTERRUPTED;
    }
    if let Some(cut) = found.cut {
        let at = format!("the position after {} moves", args.after.len());
        return report_cut(&rules, cut, &args.script, &at);
    }
    if let Some(o) = &found.overrun {
        warn_overrun(&rules, o, "the list may be incomplete");
    }
    // Written in chunks as they are formatted (JSON too), never held whole.
    let mut chunk = String::new();
    let json = args.format == OutputFormat::Json;
    if json {
        chunk.push_str(if found.moves.is_empty() {
            "[]\n"
        } else {
            "[\n"
        });
    }
    for (i, m) in found.moves.iter().enumerate() {
        if json {
            // As `{:#}` prints the whole list: each object indented by two spaces.
            let one = format!("{:#}", move_json(&rules, &st, m));
            for (k, line) in one.lines().enumerate() {
                if k > 0 {
                    chunk.push('\n');
                }
                chunk.push_str("  ");
                chunk.push_str(line);
            }
            chunk.push_str(if i + 1 < found.moves.len() {
                ",\n"
            } else {
                "\n]\n"
            });
        } else {
            chunk.push_str(&engine::notation(&rules, &st, m));
            chunk.push('\n');
        }
        if chunk.len() >= 1 << 16 {
            if let Err(code) = super::print_stdout(&std::mem::take(&mut chunk)) {
                return code;
            }
            if super::interrupted() {
                return super::EXIT_INTERRUPTED;
            }
        }
    }
    match super::print_stdout(&chunk) {
        Ok(()) if found.overrun.is_some() => super::EXIT_ERRORS,
        Ok(()) => super::EXIT_OK,
        Err(code) => code,
    }
}

/// Prints the located error for a position whose generation a budget stopped, and returns the
/// exit code (1; 130 for an interrupt). `at` names the position.
pub fn report_cut(rules: &Rules, cut: engine::Cut, file: &str, at: &str) -> u8 {
    let game = &rules.title;
    let (code, what, limit, value) = match cut {
        engine::Cut::Interrupted => {
            eprintln!("interrupted");
            return super::EXIT_INTERRUPTED;
        }
        engine::Cut::BlockRuns => (
            "engine::block-run-limit",
            "made more move and drop block runs than",
            "engine-block-runs",
            rules.block_run_limit,
        ),
        engine::Cut::Moves => (
            "engine::move-limit",
            "has more moves than",
            "engine-moves",
            rules.move_limit as u64,
        ),
        engine::Cut::Work => (
            "engine::work-limit",
            "took the engine's steps in this command past",
            "engine-work",
            rules.work_limit,
        ),
    };
    eprint!(
        "{}",
        super::color::stderr(&format!(
            "error[{code}]: {file}: game `{game}`, {at}: its move generation {what} {value} \
             (--limit {limit}=N) and was stopped; nothing is reported for it\n"
        ))
    );
    super::EXIT_ERRORS
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
