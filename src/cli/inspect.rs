//! `zogkit info`, `zogkit board` and `zogkit schema`: look inside a converted game.

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
use clap::{Args, ValueEnum};
use std::fmt::Write as _;
use std::path::PathBuf;
use zogkit::format::Format;
use zogkit::spec::{Document, EntryKind, Game, GoalCond};

/// Arguments shared by `info` and `board`.
#[derive(Debug, Args)]
pub struct FileArgs {
    /// The input file (ZRF or spec YAML; `-` for standard input with --from).
    pub file: PathBuf,
    /// Input format (default: from the extension).
    #[arg(long, value_parser = super::convert::readable_format())]
    pub from: Option<Format>,
}

/// Output format of `board`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BoardFormat {
    /// One line per position.
    Text,
    /// The board as JSON (the spec's `Board`).
    Json,
}

/// Arguments of `zogkit board`.
#[derive(Debug, Args)]
pub struct BoardArgs {
    #[command(flatten)]
    file: FileArgs,
    /// Which game: its 1-based menu index or its title (default: the first game).
    #[arg(long)]
    game: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = BoardFormat::Text)]
    format: BoardFormat,
}

/// Reads a file into a document, printing diagnostics; `Err` is the exit code.
fn load(args: &FileArgs) -> Result<Document, u8> {
    super::load_document(&args.file, args.from)
        .map(|(doc, _)| doc)
        .map_err(|(code, msg)| {
            // Read errors were printed as diagnostics already.
            if code != EXIT_ERRORS {
                super::error_line!("{msg}");
            }
            code
        })
}

/// Runs `zogkit info`: a human summary of every game.
pub fn info(args: FileArgs) -> u8 {
    let doc = match load(&args) {
        Ok(d) => d,
        Err(c) => return c,
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} ({}, {}), spec {}",
        doc.source.file,
        doc.source.format,
        doc.source
            .encoding
            .map_or("?", zogkit::text::Encoding::name),
        doc.spec_version
    );
    for (i, g) in doc.games.iter().enumerate() {
        summarise(&mut s, i, g, &doc);
    }
    print_out(&s)
}

fn summarise(s: &mut String, i: usize, g: &Game, doc: &Document) {
    let kind = match (g.kind, g.variant_of) {
        (EntryKind::Separator, _) => {
            let _ = writeln!(s, "\n{}. ----", i + 1);
            return;
        }
        (EntryKind::Variant, Some(of)) => format!("variant of {}", of + 1),
        (EntryKind::Variant, None) => "variant".into(),
        (EntryKind::Game, _) => "game".into(),
    };
    let default = if g.default { ", default" } else { "" };
    let _ = writeln!(s, "\n{}. {} ({kind}{default})", i + 1, g.title);
    let _ = writeln!(s, "   players: {}", g.players.join(", "));
    for b in &g.boards {
        let grids: Vec<String> = b
            .layout
            .grids
            .iter()
            .map(|gr| {
                gr.dimensions
                    .iter()
                    .map(|d| d.labels.len().to_string())
                    .collect::<Vec<_>>()
                    .join("×")
            })
            .collect();
        let links: usize = b.positions.iter().map(|p| p.links.len()).sum();
        let _ = writeln!(
            s,
            "   board: {} positions{}, {} directions, {} links, {} zones",
            b.positions.len(),
            if grids.is_empty() {
                String::new()
            } else {
                format!(" (grid {})", grids.join(" + "))
            },
            b.directions.len(),
            links,
            b.zones.len()
        );
    }
    let names: Vec<&str> = g.pieces.iter().map(|p| p.name.as_str()).collect();
    let blocks: usize = g.pieces.iter().map(|p| p.moves.len() + p.drops.len()).sum();
    let _ = writeln!(
        s,
        "   pieces: {} ({}), {blocks} move blocks",
        names.len(),
        zogkit::text::shorten(&names.join(", "), 100)
    );
    let mut per_player: Vec<(String, usize, u32)> = Vec::new();
    for p in &g.setup {
        let e = match per_player.iter_mut().find(|(n, _, _)| *n == p.player) {
            Some(e) => e,
            None => {
                per_player.push((p.player.clone(), 0, 0));
                per_player.last_mut().expect("just pushed")
            }
        };
        e.1 += p.positions.len();
        e.2 += p.off.unwrap_or(0);
    }
    let setup: Vec<String> = per_player
        .iter()
        .map(|(n, on, off)| {
            if *off > 0 {
                format!("{n} {on} on board + {off} off")
            } else {
                format!("{n} {on}")
            }
        })
        .collect();
    let _ = writeln!(
        s,
        "   setup: {}",
        if setup.is_empty() {
            "none".into()
        } else {
            setup.join(", ")
        }
    );
    for goal in &g.goals {
        let _ = writeln!(
            s,
            "   {:?} for {}: {}",
            goal.kind,
            goal.players.join(", "),
            goal_text(&goal.condition)
        );
    }
    let _ = doc;
}

fn goal_text(c: &GoalCond) -> String {
    match c {
        GoalCond::Stalemated => "stalemated".into(),
        GoalCond::Repetition => "repetition".into(),
        GoalCond::Checkmated { pieces } => format!("checkmated {}", pieces.join("/")),
        GoalCond::Captured { pieces } => format!("captured {}", pieces.join("/")),
        GoalCond::PiecesRemaining { count, piece } => {
            format!("{count} {} remaining", piece.as_deref().unwrap_or("pieces"))
        }
        GoalCond::TotalPieceCount { count, piece } => {
            format!("total count {count} {}", piece.as_deref().unwrap_or(""))
        }
        GoalCond::AbsoluteConfig {
            pieces,
            positions,
            opponent,
            negated,
            ..
        } => format!(
            "{}{}{} on {}",
            if *opponent { "opponent's " } else { "" },
            if *negated { "not " } else { "" },
            pieces.join("/"),
            zogkit::text::shorten(&positions.join(" "), 60)
        ),
        GoalCond::RelativeConfig { args } => format!("relative config {}", args.join(" ")),
        GoalCond::Line { length, directions } => {
            format!("line of {length} {}", directions.join("/"))
        }
        GoalCond::Connected { zones, .. } => format!("connected {}", zones.join(" ")),
        GoalCond::And(v) => v.iter().map(goal_text).collect::<Vec<_>>().join(" and "),
        GoalCond::Or(v) => v.iter().map(goal_text).collect::<Vec<_>>().join(" or "),
        GoalCond::Not(c) => format!("not ({})", goal_text(c)),
        GoalCond::Raw { text, .. } => text.clone(),
    }
}

fn print_out(s: &str) -> u8 {
    match super::print_stdout(s) {
        Ok(()) => EXIT_OK,
        Err(c) => c,
    }
}

/// Runs `zogkit board`: the computed board graph of one game.
pub fn board(args: BoardArgs) -> u8 {
    let doc = match load(&args.file) {
        Ok(d) => d,
        Err(c) => return c,
    };
    let games: Vec<(usize, &Game)> = doc
        .games
        .iter()
        .enumerate()
        .filter(|(_, g)| g.kind != EntryKind::Separator)
        .collect();
    let pick = match &args.game {
        None => games.first().copied(),
        Some(sel) => match sel.parse::<usize>() {
            Ok(n) => doc.games.get(n.wrapping_sub(1)).map(|g| (n - 1, g)),
            Err(_) => games.iter().copied().find(|(_, g)| g.title == *sel),
        },
    };
    let Some((_, g)) = pick else {
        eprintln!(
            "error: no such game; the file has: {}",
            games
                .iter()
                .map(|(i, g)| format!("{} {:?}", i + 1, g.title))
                .collect::<Vec<_>>()
                .join(", ")
        );
        return EXIT_USAGE;
    };
    let Some(b) = g.boards.first() else {
        super::error_line!("game {:?} has no board", g.title);
        return EXIT_ERRORS;
    };
    let text = match args.format {
        BoardFormat::Json => {
            let mut t = serde_json::to_string_pretty(b).unwrap_or_default();
            t.push('\n');
            t
        }
        BoardFormat::Text => {
            let mut s = String::new();
            let _ = writeln!(s, "directions: {}", b.directions.join(" "));
            for p in &b.positions {
                let rect = p
                    .rect
                    .map(|r| format!("{r:?}"))
                    .unwrap_or_else(|| "off-board".into());
                let links: Vec<String> = p
                    .links
                    .iter()
                    .map(|l| format!("{}→{}", l.direction, l.to))
                    .collect();
                let _ = writeln!(s, "{:<8} {:<22} {}", p.name, rect, links.join(" "));
            }
            for z in &b.zones {
                let _ = writeln!(
                    s,
                    "zone {} for {}: {}",
                    z.name,
                    z.players.join(", "),
                    z.positions.join(" ")
                );
            }
            for sym in &b.symmetries {
                let changed: Vec<String> = sym
                    .map
                    .iter()
                    .filter(|[a, b]| a != b)
                    .map(|[a, b]| format!("{a}→{b}"))
                    .collect();
                let _ = writeln!(s, "symmetry for {}: {}", sym.player, changed.join(" "));
            }
            for o in &b.opposites {
                let _ = write!(s, "{}↔{} ", o.direction, o.opposite);
            }
            if !b.opposites.is_empty() {
                s.push('\n');
            }
            s
        }
    };
    print_out(&text)
}

/// Runs `zogkit schema`: the JSON Schema of spec documents.
pub fn schema() -> u8 {
    let mut s = serde_json::to_string_pretty(&zogkit::spec::json_schema()).unwrap_or_default();
    s.push('\n');
    print_out(&s)
}
