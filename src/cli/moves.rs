//! `zogkit moves`: the legal moves of a game's position (after `--after` moves), or of one
//! Chessembly-scripted piece on a FEN board (`--board`, `--at`).
//!
//! Exit codes: 0 success (step-limit warnings may be printed), 1 the script has errors (rendered
//! diagnostics on stderr), 2 usage or I/O problems.

use std::io::Read as _;
use zogkit::chessembly::board::Color;
use zogkit::chessembly::query::{
    Failure, MoveJson, Prepared, Query, move_json, move_text, prepare,
};
use zogkit::chessembly::syntax::Dialect;

/// Which colour the moving piece has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorArg {
    /// The first player (moves up the board).
    White,
    /// The second player (deltas rotated 180°).
    Black,
}

/// Output format of the move list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// One move per line (a game's moves in ZoG notation).
    Text,
    /// A JSON list: a game's moves as `{notation, player, piece, from, to, captures,
    /// move_type, partial}`, a Chessembly piece's as `{kind, from, to, take, transition,
    /// state_change}`.
    Json,
}

/// Arguments of `zogkit moves`.
#[derive(Debug, Clone, clap::Args)]
pub struct MovesArgs {
    /// The game's rules (ZRF, YAML, `.lud`, Chessembly), or with `--board` and `--at` a
    /// Chessembly script (`-` reads standard input).
    pub script: String,
    /// Which game: its 1-based menu index or its title (default: the first game).
    #[arg(long)]
    pub game: Option<String>,
    /// Input format of the rules (default: from the extension).
    #[arg(long, value_parser = super::convert::readable_format())]
    pub from: Option<zogkit::format::Format>,
    /// Moves played from the start first (repeatable), in ZoG notation (`Pawn e2 - e4`) or as
    /// `FROM-TO` / `FROMTO` (`e2-e4`, `e2e4`), which must name one legal move.
    #[arg(long, value_name = "MOVE")]
    pub after: Vec<String>,
    /// Chessembly: FEN placement field (top rank first, any size); KQRBNP are standard pieces,
    /// other letters are pieces of that name; upper case is white.
    #[arg(long)]
    pub board: Option<String>,
    /// Chessembly: the square of the moving piece (e.g. `d4`).
    #[arg(long)]
    pub at: Option<String>,
    /// The moving piece's side, white or black (default: the side of the piece on the square,
    /// else white). (`--color` is the global choice of coloured output.)
    #[arg(long, value_enum)]
    pub side: Option<ColorArg>,
    /// The moving piece's kind (default: the kind on the square, else `test`). The script moves
    /// this kind; other kinds use the built-in standard scripts or, if not standard, this script.
    #[arg(long)]
    pub piece: Option<String>,
    /// A state register of the moving side, `KEY=N` (repeatable).
    #[arg(long = "state", value_name = "KEY=N")]
    pub state: Vec<String>,
    /// Output format (text by default, as every subcommand).
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
    /// Items a chain may run before it is stopped with a warning (default: the global
    /// `--limit chessembly-steps`, itself 1000 by default).
    #[arg(long)]
    pub step_limit: Option<u32>,
    /// `--dialect`.
    #[command(flatten)]
    pub dialect: DialectOpt,
}

/// `--dialect`, shared by `moves`, `convert` and `check`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct DialectOpt {
    /// Chessembly dialect: `seed` (the seed's words only) or `ms` (plus the chessembly-bot
    /// words `jump`, `shift`, `anchor`, registers, `+ { }` …). Default: the seed, switching to
    /// `ms` with a note when the script uses an MS word.
    #[arg(long, value_enum)]
    pub dialect: Option<DialectArg>,
}

impl DialectOpt {
    /// The chosen dialect (`None`: detect).
    pub fn get(&self) -> Option<Dialect> {
        self.dialect.map(DialectArg::dialect)
    }

    /// `opts` reading Chessembly in the chosen dialect.
    pub fn apply(&self, opts: zogkit::format::ReadOptions) -> zogkit::format::ReadOptions {
        zogkit::format::ReadOptions {
            chessembly_dialect: self.get(),
            ..opts
        }
    }
}

/// `--dialect` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DialectArg {
    /// The seed's vocabulary only.
    Seed,
    /// The seed plus the chessembly-bot (MS) extensions.
    Ms,
}

impl DialectArg {
    /// The library's dialect.
    pub fn dialect(self) -> Dialect {
        match self {
            DialectArg::Seed => Dialect::Seed,
            DialectArg::Ms => Dialect::Ms,
        }
    }
}

impl MovesArgs {
    /// The library query these arguments describe.
    pub fn query(&self) -> Query {
        Query {
            board: self.board.clone().unwrap_or_default(),
            at: self.at.clone().unwrap_or_default(),
            color: self.side.map(|c| match c {
                ColorArg::White => Color::White,
                ColorArg::Black => Color::Black,
            }),
            piece: self.piece.clone(),
            state: self.state.clone(),
            step_limit: self
                .step_limit
                .unwrap_or(super::settings().read.chessembly_steps),
            dialect: self.dialect.get(),
        }
    }
}

/// The result of a successful run: the move list text and any warnings (rendered).
#[derive(Debug)]
pub struct Output {
    /// The move list, in the requested format, ending with a newline.
    pub stdout: String,
    /// Rendered warnings (e.g. step limit).
    pub stderr: String,
}

/// Runs `zogkit moves` on a script text already read; `name` is shown in diagnostics.
pub fn moves(args: &MovesArgs, name: &str, text: &str) -> Result<Output, Failure> {
    let Prepared {
        rules,
        board,
        state,
        at,
        sources,
        notes,
    } = prepare(&args.query(), name, text)?;
    let (moves, warnings) = rules.moves(&board, &state, at);
    let stdout = match args.format {
        OutputFormat::Json => {
            let list: Vec<MoveJson> = moves.iter().map(|m| move_json(m, &rules.symbols)).collect();
            let mut s = serde_json::to_string_pretty(&list).unwrap_or_default();
            s.push('\n');
            s
        }
        OutputFormat::Text => moves
            .iter()
            .map(|m| move_text(m, &rules.symbols) + "\n")
            .collect(),
    };
    Ok(Output {
        stdout,
        stderr: notes
            .iter()
            .chain(&warnings)
            .map(|d| d.render(&sources, name))
            .collect(),
    })
}

/// Entry point: reads the script (or stdin), prints results, returns the exit code.
pub fn run(args: &MovesArgs) -> i32 {
    match (&args.board, &args.at) {
        (None, None) => return i32::from(super::play::moves(args)),
        (Some(_), Some(_)) => {}
        _ => {
            super::error_line!("a Chessembly piece needs both --board and --at");
            return 2;
        }
    }
    let (name, text) = if args.script == "-" {
        let mut s = String::new();
        match std::io::stdin().read_to_string(&mut s) {
            Ok(_) => ("<stdin>".to_string(), s),
            Err(e) => {
                super::error_line!("cannot read standard input: {e}");
                return 2;
            }
        }
    } else {
        match super::read_bounded(std::path::Path::new(&args.script), super::MAX_AUX_BYTES) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(s) => (args.script.clone(), s),
                Err(_) => {
                    super::error_line!("{} is not UTF-8 text", args.script);
                    return 2;
                }
            },
            Err(e) => {
                super::error_line!("cannot read {e}");
                return 2;
            }
        }
    };
    match moves(args, &name, &text) {
        Ok(out) => {
            eprint!("{}", super::color::stderr(&out.stderr));
            match super::print_stdout(&out.stdout) {
                Ok(()) => 0,
                Err(c) => c.into(),
            }
        }
        Err(f) => {
            eprint!("{}", super::color::stderr(&f.message));
            f.code
        }
    }
}
