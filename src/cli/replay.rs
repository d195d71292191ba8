//! `zogkit replay`: replay a Zillions of Games saved game (`.zsg`) against the engine, finding
//! its rules by `RulesFile=` (`cli::find_rules`) and its game by `VariantName=`.

use std::path::PathBuf;
use zogkit::diag::FileId;
use zogkit::engine::{self, ReplayError, zsg};

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReplayFormat {
    /// `replayed N moves of FILE`, or a located error.
    Text,
    /// One JSON object.
    Json,
}

/// Arguments of `zogkit replay`.
#[derive(Debug, Clone, clap::Args)]
pub struct ReplayArgs {
    /// The saved game (`.zsg`).
    pub file: PathBuf,
    /// The rules file (default: the `RulesFile=` of the saved game, looked up beside it, then
    /// by its name in the rules folders). Read wherever it is.
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// A folder to find the `RulesFile=` name in, case-insensitively and recursively, when it
    /// is not beside the save (repeatable, searched in order; default: the folders of the
    /// environment variable ZOGKIT_RULES_PATH, a path list).
    #[arg(long, value_name = "DIR")]
    pub rules_dir: Vec<PathBuf>,
    /// Which game of the rules file: its 1-based menu index or its title (default: the
    /// saved game's `VariantName=`).
    #[arg(long)]
    pub game: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReplayFormat::Text)]
    pub format: ReplayFormat,
    /// Print the position at the end (after `--at N` records with `--at`) as a text board; on
    /// an error, the position before the record that could not be played.
    #[arg(long, alias = "show-position")]
    pub show: bool,
    /// Replay only the first N records (a record is a move part or a pass).
    #[arg(long, value_name = "N")]
    pub at: Option<usize>,
}

/// Runs `zogkit replay`; returns the exit code.
pub fn run(args: &ReplayArgs) -> u8 {
    let shown = super::display_path(&args.file);
    let bytes = match super::read_bounded(&args.file, super::MAX_AUX_BYTES) {
        Ok(b) => b,
        Err(e) => {
            super::error_line!("cannot read {e}");
            return super::EXIT_USAGE;
        }
    };
    let (decoded, _) = zogkit::text::decode(&bytes, None, FileId(0));
    drop(bytes);
    // Two passes over the text, neither keeping its records: the whole save is checked first
    // (its errors come before any replay, as before), then replayed line by line.
    let summary = match zsg::summary(&decoded.text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{shown}:{}:{}: error: {}", e.line, e.col, e.message);
            return super::EXIT_ERRORS;
        }
    };
    let game = &summary.game;
    let rules_path = match args.rules.clone() {
        Some(p) => p,
        None => {
            let dirs = super::find_rules::rules_dirs(&args.rules_dir);
            match super::find_rules::find(&args.file, game.rules_file.as_deref(), &dirs) {
                Ok(p) => p,
                Err(msg) => {
                    super::error_line!(
                        "{shown}: {msg}; give the rules with --rules FILE.zrf or a folder to \
                         search with --rules-dir DIR"
                    );
                    return super::EXIT_USAGE;
                }
            }
        }
    };
    let records = match args.at {
        Some(n) if n > summary.records => {
            super::error_line!("--at {n}: {shown} has {} records", summary.records);
            return super::EXIT_USAGE;
        }
        Some(n) => n,
        None => summary.records,
    };
    let title = args.game.as_deref().or(game.variant.as_deref());
    let (rules, doc) = match super::load_rules(&rules_path, None, title) {
        Ok(r) => r,
        Err(code) => return code,
    };
    // The spec's board (for a grid diagram): the game `load_rules` compiled.
    let board = super::pick_game(&doc, title)
        .ok()
        .and_then(|i| doc.games[i].boards.first());
    let mut replayer = engine::Replayer::new(&rules);
    let result = replay_items(&mut replayer, &decoded.text, records);
    let out = match args.format {
        ReplayFormat::Text => match &result {
            Ok(()) if args.show => format!(
                "replayed {} of {shown}\n{}",
                moves(replayer.played()),
                super::position::text(&rules, board, replayer.state(), &after(replayer.played()))
            ),
            Ok(()) => format!("replayed {} of {shown}\n", moves(replayer.played())),
            Err(e) => {
                eprint!("{}", text_error(&shown, e));
                if args.show && e.record.is_some() {
                    // The position before the record that could not be played.
                    let label = format!("  {}", after(e.played));
                    let text = super::position::text(&rules, board, replayer.state(), &label);
                    eprint!("{text}");
                }
                String::new()
            }
        },
        ReplayFormat::Json => {
            let mut j = serde_json::json!({
                "file": shown,
                "rules": super::display_path(&rules_path),
                "game": rules.title,
                "records": records,
            });
            match &result {
                Ok(()) => {
                    j["ok"] = true.into();
                    j["replayed"] = replayer.played().into();
                    if args.show {
                        j["position"] = position_json(&rules, replayer.state());
                    }
                }
                Err(e) => {
                    j["ok"] = false.into();
                    j["replayed"] = e.played.into();
                    j["error"] = serde_json::json!({
                        "line": e.line,
                        "column": e.col,
                        "message": e.message,
                        "record": e.record,
                        "legal": e.alternatives,
                    });
                }
            }
            format!("{j:#}\n")
        }
    };
    match super::print_stdout(&out) {
        Ok(()) if result.is_ok() => super::EXIT_OK,
        Ok(()) => super::EXIT_ERRORS,
        Err(code) => code,
    }
}

/// Replays the set-up lines and the first `records` records of the (checked) saved game `text`
/// into `replayer`, reading it line by line.
fn replay_items(
    replayer: &mut engine::Replayer,
    text: &str,
    records: usize,
) -> Result<(), ReplayError> {
    let Ok((_, items)) = zsg::items(text) else {
        return Ok(());
    };
    for item in items {
        match item {
            Ok(zsg::Item::Setup(p)) => replayer.set_up(&p)?,
            Ok(zsg::Item::Record(_)) if replayer.played() == records => break,
            Ok(zsg::Item::Record(r)) => replayer.play(&r)?,
            // `zsg::summary` read the same text without an error.
            Ok(_) | Err(_) => {}
        }
    }
    Ok(())
}

/// `N moves` (`1 move`).
fn moves(n: usize) -> String {
    format!("{n} move{}", if n == 1 { "" } else { "s" })
}

/// `position after N records`.
fn after(n: usize) -> String {
    format!("position after {n} record{}", if n == 1 { "" } else { "s" })
}

/// A position as JSON: the player to move, the pieces on the board and in hand.
fn position_json(rules: &engine::Rules, st: &engine::State) -> serde_json::Value {
    let board: Vec<serde_json::Value> = st
        .board
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            p.map(|p| {
                serde_json::json!({
                    "at": rules.positions[i],
                    "player": rules.players[p.owner as usize],
                    "piece": rules.kinds[p.kind as usize].name,
                })
            })
        })
        .collect();
    let mut hand = Vec::new();
    for (p, player) in rules.players.iter().enumerate() {
        for (k, kind) in rules.kinds.iter().enumerate() {
            let n = st.in_hand(p as u32, k as u32);
            if n > 0 {
                hand.push(serde_json::json!({"player": player, "piece": kind.name, "count": n}));
            }
        }
    }
    serde_json::json!({
        "to_move": rules.players[st.to_move(rules) as usize],
        "board": board,
        "hand": hand,
    })
}

fn text_error(shown: &str, e: &ReplayError) -> String {
    let mut s = format!("{shown}:{}:{}: error: {}\n", e.line, e.col, e.message);
    if let Some(r) = &e.record {
        // A record may be megabytes long: its start is enough to find it (the error is located).
        s.push_str(&format!("  record: {}\n", zogkit::text::shorten(r, 200)));
    }
    if e.record.is_some() {
        s.push_str(&format!(
            "  after {} records; legal moves ({}):\n",
            e.played,
            e.alternatives.len()
        ));
        for a in &e.alternatives {
            s.push_str(&format!("    {a}\n"));
        }
    }
    s
}
