//! The `zogkit` command-line tool: `check`, and more subcommands as the readers and writers land.

mod cli;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;

/// Read, check, convert and render Zillions of Games (ZRF), Ludii and Chessembly game rules.
#[derive(Debug, Parser)]
#[command(name = "zogkit", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Print wall time and peak memory to standard error at exit (used by `cargo xtask bench`).
    #[arg(long, global = true, hide = true)]
    stats: bool,
    /// Change a resource limit (repeatable), e.g. `--limit macro-depth=3`; `zogkit help limits`
    /// lists them with their defaults.
    #[arg(long = "limit", global = true, value_name = "NAME=VALUE")]
    limits: Vec<String>,
    /// Colour diagnostics: auto (on a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces
    /// it), always or never.
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = cli::color::ColorChoice::Auto)]
    color: cli::color::ColorChoice,
    /// Let ZRF includes read files outside the input's directory tree (the directory of a file
    /// named on the command line, or the directory given to be searched).
    #[arg(long, global = true)]
    allow_include_outside: bool,
    /// Ludii's defines for `.lud` files: a Ludii jar or a folder of `.def` files (default: the
    /// environment variable LUDII_HOME).
    #[arg(long, global = true, value_name = "PATH")]
    ludii: Option<std::path::PathBuf>,
    /// A Ludii option item for `.lud` files, as "Category/Item" (`--option "Board Size/7x7"`;
    /// repeatable).
    #[arg(long = "option", global = true, value_name = "CATEGORY/ITEM")]
    options: Vec<String>,
    /// A Ludii ruleset for `.lud` files, by its full name ("Ruleset/Small (Suggested)") or its
    /// short one ("Small").
    #[arg(long, global = true, value_name = "NAME")]
    ruleset: Option<String>,
}

/// The limits table of `zogkit limits` and `zogkit help limits`: every limit with its default.
fn limits_table() -> String {
    let defaults = zogkit::format::ReadOptions::default();
    let mut s = String::from(
        "Change a limit with `--limit NAME=VALUE` (repeatable, on any subcommand), e.g. \
         `--limit macro-depth=3`. Inputs over a limit are refused with a located error; see \
         docs/limits.md. Limits and defaults:\n",
    );
    for l in zogkit::limits::LIMITS {
        let d = defaults.limit(l.name).unwrap_or_default();
        s.push_str(&format!("\n  {}={d}  ({}; {})", l.name, l.what, l.code));
    }
    s
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Read rule files (ZRF, YAML spec, Ludii, Chessembly; by extension) or directories of ZRF
    /// files and report located diagnostics (exit 1 on errors).
    Check(cli::check::CheckArgs),
    /// Convert files or whole collections to another format (zrf → yaml, …), atomically.
    Convert(cli::convert::ConvertArgs),
    /// Print a ZRF file's games and variants after includes, macros and variant resolution.
    Expand(cli::expand::ExpandArgs),
    /// Summarise a file: games, variants, players, board, pieces, setup and goals.
    Info(cli::inspect::FileArgs),
    /// Print one game's computed board: positions, rectangles, links, zones, symmetries.
    Board(cli::inspect::BoardArgs),
    /// Re-indent ZRF files, keeping comments, strings, encoding and line endings (`--check` for CI).
    Fmt(cli::fmt::FmtArgs),
    /// Prove the ZRF writer loses nothing: read → spec → ZRF → spec for every file, compared.
    Roundtrip(cli::roundtrip::RoundtripArgs),
    /// Print the JSON Schema of spec documents.
    Schema,
    /// Write a static HTML catalogue of a collection: an index and a page per game and variant,
    /// with start positions, texts, pieces, diagnostics and the converted files.
    Catalogue(cli::catalogue::CatalogueArgs),
    /// Draw a game's board and piece bitmaps for ZoG (BMP or PNG), validated, with a ZRF fragment.
    Render(cli::render::RenderArgs),
    /// List the legal moves of a game (any readable format) from its start or after `--after`
    /// moves, or the moves a Chessembly script gives one piece on a FEN board (`--board`, `--at`).
    Moves(cli::moves::MovesArgs),
    /// Count the positions a game reaches in D moves (perft), per move with --divide.
    Perft(cli::perft::PerftArgs),
    /// Replay a ZoG saved game (.zsg) against the engine: every record must be a legal move.
    Replay(cli::replay::ReplayArgs),
    /// Play a game in the browser: serve it on 127.0.0.1 (a board to click, moves in ZoG
    /// notation, undo and redo, a random player, saved games) and open the page.
    Play(cli::play_server::PlayArgs),
    /// Serve a catalogue site built earlier (`catalogue … -o SITE`) on 127.0.0.1, each game the
    /// engine runs playable behind its page's Play link, as `catalogue --serve` serves it.
    Serve(cli::site_server::ServeArgs),
    /// Print the resource limits and their defaults (also `zogkit help limits`).
    #[command(after_help = limits_table())]
    Limits,
    /// Print the shell completion script for bash, zsh, fish, powershell or elvish.
    Completions(cli::dist::CompletionsArgs),
    /// Print zogkit's man page (or a subcommand's), or write every page with `-o DIR`.
    Man(cli::dist::ManArgs),
    /// Write shell completions and man pages into DIR (run by `cargo xtask dist`).
    #[command(hide = true)]
    DistAssets {
        /// The folder to write `completions/` and `man/` into.
        dir: std::path::PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use std::io::Write as _;
            if e.use_stderr() {
                let _ = e.print();
                return ExitCode::from(cli::EXIT_USAGE);
            }
            // Help and version go to standard output, which follows the rule of every other
            // output: a closed pipe ends quietly, any other failure (a full disk) exits 2.
            return match e.print().and_then(|_| std::io::stdout().flush()) {
                Err(err) if err.kind() != std::io::ErrorKind::BrokenPipe => {
                    cli::error_line!("cannot write to standard output: {err}");
                    ExitCode::from(cli::EXIT_USAGE)
                }
                _ => ExitCode::from(cli::EXIT_OK),
            };
        }
    };
    // Keep freed memory instead of returning it to the OS after 10 ms: a batch allocates and
    // frees similar amounts per file, and re-faulting (zeroed, often 2 MiB) pages cost a fifth
    // of `roundtrip`'s time. `mi_option_purge_delay` is 15 in mimalloc 3's `mi_option_e`.
    // SAFETY: called before any other thread exists; the option is a plain integer.
    unsafe { libmimalloc_sys::mi_option_set(15, -1) };
    let start = std::time::Instant::now();
    let mut read = zogkit::format::ReadOptions::default();
    for setting in &cli.limits {
        if let Err(e) = read.apply_limit(setting) {
            cli::error_line!("{e}");
            return ExitCode::from(cli::EXIT_USAGE);
        }
    }
    read.ludii.choices = zogkit::ludii::Choices {
        options: cli.options.clone(),
        ruleset: cli.ruleset.clone(),
    };
    let home = std::env::var_os("LUDII_HOME").filter(|h| !h.is_empty());
    match (&cli.ludii, home) {
        (Some(p), _) => match cli::ludii_home::load(p) {
            Ok(lib) => read.ludii.library = Some(std::sync::Arc::new(lib)),
            Err(e) => {
                cli::error_line!("--ludii {e}");
                if cli.stats {
                    print_stats(start);
                }
                return ExitCode::from(cli::EXIT_USAGE);
            }
        },
        (None, Some(h)) => match cli::ludii_home::load(std::path::Path::new(&h)) {
            Ok(lib) => read.ludii.library = Some(std::sync::Arc::new(lib)),
            Err(e) => cli::warning_line!("LUDII_HOME ignored: {e}"),
        },
        (None, None) => {}
    }
    cli::color::init(cli.color);
    cli::init(cli::Settings {
        read,
        allow_include_outside: cli.allow_include_outside,
    });
    // Deeply nested inputs and macro chains recurse; give worker threads room.
    let _ = rayon::ThreadPoolBuilder::new()
        .stack_size(64 << 20)
        .build_global();
    let stats = cli.stats;
    let code = match cli.command {
        Command::Check(a) => cli::check::run(a),
        Command::Convert(a) => cli::convert::run(a),
        Command::Expand(a) => cli::expand::run(a),
        Command::Info(a) => cli::inspect::info(a),
        Command::Board(a) => cli::inspect::board(a),
        Command::Fmt(a) => cli::fmt::run(a),
        Command::Roundtrip(a) => cli::roundtrip::run(a),
        Command::Schema => cli::inspect::schema(),
        Command::Render(a) => cli::render::run(a),
        Command::Catalogue(a) => cli::catalogue::run(a),
        Command::Moves(a) => exit_code(cli::moves::run(&a)),
        Command::Perft(a) => cli::perft::run(&a),
        Command::Replay(a) => cli::replay::run(&a),
        Command::Play(a) => cli::play_server::run(&a),
        Command::Serve(a) => cli::site_server::run_serve(&a),
        Command::Limits => match cli::print_stdout(&(limits_table() + "\n")) {
            Ok(()) => cli::EXIT_OK,
            Err(c) => c,
        },
        Command::Completions(a) => cli::dist::completions(Cli::command(), &a),
        Command::Man(a) => cli::dist::man(Cli::command(), &a),
        Command::DistAssets { dir } => cli::dist::run(Cli::command(), &dir),
    };
    // A write to standard output that failed (a full disk, not a closed pipe) is an I/O error,
    // whatever the subcommand concluded.
    let code = if cli::output::stdout_failed() {
        code.max(cli::EXIT_USAGE)
    } else {
        code
    };
    if stats {
        print_stats(start);
    }
    ExitCode::from(code)
}

/// The hidden `--stats` line: wall and CPU time, peak memory.
fn print_stats(start: std::time::Instant) {
    eprintln!(
        "stats: wall {:.4} s, cpu {} s, peak {} KB",
        start.elapsed().as_secs_f64(),
        cpu_seconds().map_or("?".into(), |c| format!("{c:.4}")),
        peak_rss_kb().map_or("?".into(), |k| k.to_string())
    );
}

/// Converts an `i32` status from subcommands that return one.
fn exit_code(code: i32) -> u8 {
    u8::try_from(code).unwrap_or(cli::EXIT_USAGE)
}

/// User plus system CPU time of this process so far (Linux `/proc/self/stat`, all threads), in
/// seconds: tests budget CPU time, which a loaded machine does not inflate as it does wall time.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start at the state, field 3;
    // utime and stime are fields 14 and 15, in clock ticks of 1/100 s on Linux.
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// Peak resident memory of this process (Linux `VmHWM`), if the platform reports it.
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
