//! `zogkit replay`: replay a Zillions of Games saved game (`.zsg`) against the engine, finding
//! its rules next to it by `RulesFile=` and its game by `VariantName=`.

use std::path::{Path, PathBuf};
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
    /// The rules file (default: the `RulesFile=` of the saved game, next to it).
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Which game of the rules file: its 1-based menu index or its title (default: the
    /// saved game's `VariantName=`).
    #[arg(long)]
    pub game: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReplayFormat::Text)]
    pub format: ReplayFormat,
    /// Also print the position reached (for a save of a set-up position alone, the position
    /// it sets up), or on an error the position before the record that could not be played.
    #[arg(long)]
    pub show_position: bool,
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
    let game = match zsg::parse(&decoded.text) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{shown}:{}:{}: error: {}", e.line, e.col, e.message);
            return super::EXIT_ERRORS;
        }
    };
    let rules_path = match args.rules.clone() {
        Some(p) => p,
        None => match find_rules(&args.file, game.rules_file.as_deref()) {
            Ok(p) => p,
            Err(msg) => {
                super::error_line!("{shown}: {msg}; give the rules with --rules FILE.zrf");
                return super::EXIT_USAGE;
            }
        },
    };
    let title = args.game.as_deref().or(game.variant.as_deref());
    let (rules, _) = match super::load_rules(&rules_path, None, title) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let result = engine::replay(&rules, &game);
    let out = match args.format {
        ReplayFormat::Text => match &result {
            Ok(r) if args.show_position => format!(
                "replayed {} moves of {shown}\n{}",
                r.moves,
                position_text(&rules, &r.state)
            ),
            Ok(r) => format!("replayed {} moves of {shown}\n", r.moves),
            Err(e) => {
                eprint!("{}", text_error(&shown, e));
                if args.show_position {
                    eprint!("{}", position_before(&rules, &game, e.played));
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

/// The pieces on the board after the first `played` records.
fn position_before(rules: &engine::Rules, game: &zsg::SavedGame, played: usize) -> String {
    let mut head = game.clone();
    head.records.truncate(played);
    match engine::replay(rules, &head) {
        Ok(r) => position_text(rules, &r.state),
        Err(_) => String::new(),
    }
}

/// The player to move and every piece on the board, one per line.
fn position_text(rules: &engine::Rules, state: &engine::State) -> String {
    let mut s = format!(
        "  position ({} to move):\n",
        rules.players[state.to_move(rules) as usize]
    );
    for (i, p) in state.board.iter().enumerate() {
        if let Some(p) = p {
            s.push_str(&format!(
                "    {} {} {} attrs={:b}\n",
                rules.positions[i],
                rules.players[p.owner as usize],
                rules.kinds[p.kind as usize].name,
                p.attrs
            ));
        }
    }
    s
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

/// The file `RulesFile=` names, looked up from the saved game's directory with each component
/// matched case-insensitively (`\` and `/` both separate components).
fn find_rules(zsg: &Path, named: Option<&str>) -> Result<PathBuf, String> {
    let Some(named) = named.filter(|n| !n.trim().is_empty()) else {
        return Err("the saved game names no rules file (`RulesFile=`)".into());
    };
    let dir = zsg.parent().unwrap_or(Path::new(""));
    super::find_case_insensitive(dir, named).ok_or_else(|| {
        format!(
            "the rules file `{named}` is not in {}",
            super::display_path(if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            })
        )
    })
}
