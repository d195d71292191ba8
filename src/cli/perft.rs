//! `zogkit perft`: count the positions a game reaches in D moves (perft), with `--divide` per
//! move; without a file, the native Chessembly chess engine (the benchmark it is compared with).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;
use zogkit::chessembly::perft::{Engine, START_FEN};
use zogkit::engine::{self, Control, State};
use zogkit::format::Format;

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PerftFormat {
    /// One line per depth (and per move with `--divide`).
    Text,
    /// One JSON object.
    Json,
}

/// Arguments of `zogkit perft`.
#[derive(Debug, Clone, clap::Args)]
pub struct PerftArgs {
    /// The game's rules (ZRF, YAML spec, `.lud`, Chessembly; `-` with --from). Without it, the
    /// native Chessembly chess engine counts from `--fen`.
    pub file: Option<PathBuf>,
    /// Input format (default: from the extension).
    #[arg(long, value_parser = super::convert::readable_format())]
    pub from: Option<Format>,
    /// Which game: its 1-based menu index or its title (default: the first game).
    #[arg(long)]
    pub game: Option<String>,
    /// Deepest depth; every depth from 1 is counted and timed (with --divide: only this one).
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
    /// Count each legal move of the start position separately.
    #[arg(long)]
    pub divide: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = PerftFormat::Text)]
    pub format: PerftFormat,
    /// FEN for the native engine (no file): placement, then optionally side to move, castling
    /// rights and en passant square.
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
}

/// Runs `zogkit perft`; returns the exit code.
pub fn run(args: &PerftArgs) -> u8 {
    let Some(file) = &args.file else {
        return native(args);
    };
    super::catch_interrupts();
    let (rules, _) = match super::load_rules(file, args.from, args.game.as_deref()) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let ctl = Control {
        stop: super::interrupt_flag(),
        ..Control::default()
    };
    let mut st = State::start(&rules);
    let mut out = String::new();
    let mut json = serde_json::json!({
        "file": super::display_path(file),
        "game": rules.title,
    });
    if args.divide {
        let t = Instant::now();
        let found = engine::legal_moves(&rules, &mut st);
        if let Some(c) = found.cut {
            let _ = ctl.cut.set(c);
            return stopped(&rules, &ctl, file, args.depth);
        }
        let mut rows = Vec::new();
        let mut total = 0;
        for m in &found.moves {
            let name = engine::notation(&rules, &st, m);
            engine::play(&rules, &mut st, m);
            let n = engine::perft(&rules, &mut st, args.depth.saturating_sub(1), &ctl);
            st.unmake();
            let Some(n) = n else {
                return stopped(&rules, &ctl, file, args.depth);
            };
            total += n;
            let _ = writeln!(out, "{name}: {n}");
            rows.push(serde_json::json!({"move": name, "nodes": n}));
        }
        let _ = writeln!(
            out,
            "perft({}) = {total} ({} moves) in {:.3} s",
            args.depth,
            found.moves.len(),
            t.elapsed().as_secs_f64()
        );
        json["depth"] = args.depth.into();
        json["nodes"] = total.into();
        json["divide"] = rows.into();
    } else {
        let mut rows = Vec::new();
        for d in 1..=args.depth {
            let t = Instant::now();
            let Some(n) = engine::perft(&rules, &mut st, d, &ctl) else {
                return stopped(&rules, &ctl, file, d);
            };
            let secs = t.elapsed().as_secs_f64();
            let _ = writeln!(out, "perft({d}) = {n} in {secs:.3} s");
            rows.push(serde_json::json!({"depth": d, "nodes": n, "seconds": secs}));
        }
        json["perft"] = rows.into();
    }
    let overrun = ctl.overrun.get().is_some();
    json["complete"] = (!overrun).into();
    if let Some(o) = ctl.overrun.get() {
        super::play::warn_overrun(&rules, o, "the counts may be too low");
    }
    let text = match args.format {
        PerftFormat::Text => out,
        PerftFormat::Json => format!("{json:#}\n"),
    };
    match super::print_stdout(&text) {
        Ok(()) if overrun => super::EXIT_ERRORS,
        Ok(()) => super::EXIT_OK,
        Err(code) => code,
    }
}

/// A count that stopped: interrupted (130), or a budget's located error (1).
fn stopped(rules: &engine::Rules, ctl: &Control, file: &std::path::Path, depth: u32) -> u8 {
    match ctl.cut.get() {
        Some(&cut) if !matches!(cut, engine::Cut::Interrupted) => {
            let at = format!("a position of perft({depth})");
            super::play::report_cut(rules, cut, &super::display_path(file), &at)
        }
        _ => {
            eprintln!("perft interrupted");
            super::EXIT_INTERRUPTED
        }
    }
}

fn native(args: &PerftArgs) -> u8 {
    let mut engine = match Engine::from_fen(&args.fen) {
        Ok(e) => e,
        Err(e) => {
            super::error_line!("{e}");
            return super::EXIT_USAGE;
        }
    };
    let mut out = String::new();
    for d in 1..=args.depth {
        let t = Instant::now();
        let n = engine.perft(d);
        let _ = writeln!(
            out,
            "perft({d}) = {n} in {:.3} s",
            t.elapsed().as_secs_f64()
        );
    }
    match super::print_stdout(&out) {
        Ok(()) => super::EXIT_OK,
        Err(code) => code,
    }
}
