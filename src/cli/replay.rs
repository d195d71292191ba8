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
    let mut game = match zsg::parse(&decoded.text) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{shown}:{}:{}: error: {}", e.line, e.col, e.message);
            return super::EXIT_ERRORS;
        }
    };
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
    if let Some(n) = args.at {
        if n > game.records.len() {
            super::error_line!("--at {n}: {shown} has {} records", game.records.len());
            return super::EXIT_USAGE;
        }
        game.records.truncate(n);
    }
    let title = args.game.as_deref().or(game.variant.as_deref());
    let (rules, doc) = match super::load_rules(&rules_path, None, title) {
        Ok(r) => r,
        Err(code) => return code,
    };
    // The spec's board (for a grid diagram): the game `load_rules` compiled.
    let board = super::pick_game(&doc, title)
        .ok()
        .and_then(|i| doc.games[i].boards.first());
    let result = engine::replay(&rules, &game);
    let out = match args.format {
        ReplayFormat::Text => match &result {
            Ok(r) if args.show => format!(
                "replayed {} of {shown}\n{}",
                moves(r.moves),
                super::position::text(&rules, board, &r.state, &after(r.moves))
            ),
            Ok(r) => format!("replayed {} of {shown}\n", moves(r.moves)),
            Err(e) => {
                eprint!("{}", text_error(&shown, e));
                if args.show {
                    eprint!("{}", position_before(&rules, board, &game, e.played));
                }
                String::new()
            }
        },
        ReplayFormat::Json => {
            let mut j = serde_json::json!({
                "file": shown,
                "rules": super::display_path(&rules_path),
                "game": rules.title,
                "records": game.records.len(),
            });
            match &result {
                Ok(r) => {
                    j["ok"] = true.into();
                    j["replayed"] = r.moves.into();
                    if args.show {
                        j["position"] = position_json(&rules, &r.state);
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

/// The position after the first `played` records, as [`super::position::text`] shows it.
fn position_before(
    rules: &engine::Rules,
    board: Option<&zogkit::spec::Board>,
    game: &zsg::SavedGame,
    played: usize,
) -> String {
    let mut head = game.clone();
    head.records.truncate(played);
    let Ok(r) = engine::replay(rules, &head) else {
        return String::new();
    };
    super::position::text(rules, board, &r.state, &format!("  {}", after(played)))
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
        s.push_str(&format!("  record: {r}\n"));
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
