//! `zogkit moves`: run a Chessembly script for one piece on a FEN board and list its moves.
//!
//! Exit codes: 0 success (step-limit warnings may be printed), 1 the script has errors (rendered
//! diagnostics on stderr), 2 usage or I/O problems.

use crate::chessembly::board::{Board, Color, Piece, square_name};
use crate::chessembly::interp::{Move, Rules, State};
use crate::chessembly::perft::STANDARD;
use crate::chessembly::program::Symbols;
use crate::diag::{FileId, SourceMap};
use std::io::Read as _;

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
    /// A JSON list of `{kind, from, to, take, transition, state_change}`.
    Json,
    /// One move per line.
    Text,
}

/// Arguments of `zogkit moves`.
#[derive(Debug, Clone, clap::Args)]
pub struct MovesArgs {
    /// The Chessembly script (`-` reads standard input).
    pub script: String,
    /// FEN placement field (top rank first, any size); KQRBNP are standard pieces, other letters
    /// are pieces of that name; upper case is white.
    #[arg(long)]
    pub board: String,
    /// The square of the moving piece (e.g. `d4`).
    #[arg(long)]
    pub at: String,
    /// The moving piece's colour (default: the colour of the piece on the square, else white).
    #[arg(long, value_enum)]
    pub color: Option<ColorArg>,
    /// The moving piece's kind (default: the kind on the square, else `test`). The script moves
    /// this kind; other kinds use the built-in standard scripts or, if not standard, this script.
    #[arg(long)]
    pub piece: Option<String>,
    /// A state register of the moving side, `KEY=N` (repeatable).
    #[arg(long = "state", value_name = "KEY=N")]
    pub state: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: OutputFormat,
    /// Items a chain may run before it is stopped with a warning.
    #[arg(long, default_value_t = crate::chessembly::interp::DEFAULT_STEP_LIMIT)]
    pub step_limit: u32,
}

/// A usage or I/O problem (exit 2) or a script error (exit 1), already rendered.
#[derive(Debug)]
pub struct Failure {
    /// Process exit code.
    pub code: i32,
    /// Text for standard error.
    pub message: String,
}

fn usage(message: String) -> Failure {
    Failure {
        code: 2,
        message: format!("error: {message}\n"),
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

/// Everything `zogkit moves` needs to generate: rules, board, state and the moving square.
#[derive(Debug)]
pub struct Prepared {
    /// The user's script (moving kind, and every non-standard kind) plus the standard scripts.
    pub rules: Rules,
    /// The board with the moving piece placed on `at`.
    pub board: Board,
    /// State registers of the moving side.
    pub state: State,
    /// The moving piece's square.
    pub at: crate::chessembly::board::Square,
    /// The source map holding the script (file 0), for rendering diagnostics.
    pub sources: SourceMap,
}

/// Compiles the script and builds the position described by `args`.
pub fn prepare(args: &MovesArgs, name: &str, text: &str) -> Result<Prepared, Failure> {
    let mut sources = SourceMap::new();
    let file = sources.add(name, text);
    let mut rules = Rules::new();
    rules.step_limit = args.step_limit;
    let user = rules.compile(text, file).map_err(|diags| Failure {
        code: 1,
        message: diags.iter().map(|d| d.render(&sources, name)).collect(),
    })?;
    for (i, (kind, script)) in STANDARD.iter().enumerate() {
        let id = rules
            .compile(script, FileId(1000 + i as u32))
            .map_err(|_| usage(format!("built-in {kind} script does not compile")))?;
        rules.assign(kind, id);
    }
    rules.set_default(user);
    let mut board = Board::from_fen(&args.board, &mut rules.symbols).map_err(usage)?;
    let at = board.parse_square(&args.at).map_err(usage)?;
    let on_square = board.get(at);
    let kind_name = match (&args.piece, on_square) {
        (Some(p), _) => p.clone(),
        (None, Some(p)) => rules.symbols.name(p.kind).to_string(),
        (None, None) => "test".to_string(),
    };
    rules.assign(&kind_name, user);
    let color = match (args.color, on_square) {
        (Some(ColorArg::White), _) => Color::White,
        (Some(ColorArg::Black), _) => Color::Black,
        (None, Some(p)) => p.color,
        (None, None) => Color::White,
    };
    let kind = rules.symbols.intern(&kind_name);
    board.set(at, Some(Piece { color, kind }));
    let mut state = State::new();
    for kv in &args.state {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| usage(format!("--state expects KEY=N, found `{kv}`")))?;
        let v: i32 = v
            .trim()
            .parse()
            .map_err(|_| usage(format!("--state {kv}: `{v}` is not an integer")))?;
        let key = rules.symbols.intern(k.trim());
        state.set(color, key, v);
    }
    Ok(Prepared {
        rules,
        board,
        state,
        at,
        sources,
    })
}

/// Runs `zogkit moves` on a script text already read; `name` is shown in diagnostics.
pub fn moves(args: &MovesArgs, name: &str, text: &str) -> Result<Output, Failure> {
    let Prepared {
        rules,
        board,
        state,
        at,
        sources,
    } = prepare(args, name, text)?;
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
        stderr: warnings.iter().map(|d| d.render(&sources, name)).collect(),
    })
}

/// Entry point: reads the script (or stdin), prints results, returns the exit code.
pub fn run(args: &MovesArgs) -> i32 {
    let (name, text) = if args.script == "-" {
        let mut s = String::new();
        match std::io::stdin().read_to_string(&mut s) {
            Ok(_) => ("<stdin>".to_string(), s),
            Err(e) => {
                eprintln!("error: cannot read standard input: {e}");
                return 2;
            }
        }
    } else {
        match std::fs::read(&args.script) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(s) => (args.script.clone(), s),
                Err(_) => {
                    eprintln!("error: {} is not UTF-8 text", args.script);
                    return 2;
                }
            },
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", args.script);
                return 2;
            }
        }
    };
    match moves(args, &name, &text) {
        Ok(out) => {
            eprint!("{}", out.stderr);
            print!("{}", out.stdout);
            0
        }
        Err(f) => {
            eprint!("{}", f.message);
            f.code
        }
    }
}

/// One state register change in a move's JSON form.
#[derive(Debug, Clone, serde::Serialize)]
pub struct StateChangeJson {
    /// Register name.
    pub key: String,
    /// New value.
    pub value: i32,
}

/// A move in its JSON form; fields serialize in this order.
#[derive(Debug, Clone, serde::Serialize)]
pub struct MoveJson {
    /// `move`, `take-move`, `catch` or `take`.
    pub kind: &'static str,
    /// The moving piece's square.
    pub from: String,
    /// The expression's target square (for `catch`, the piece stays on `from`).
    pub to: String,
    /// The captured piece's square.
    pub take: Option<String>,
    /// The kind the piece turns into.
    pub transition: Option<String>,
    /// State registers set when the move is played, in order.
    pub state_change: Vec<StateChangeJson>,
}

/// A move as the JSON object `{kind, from, to, take, transition, state_change}`.
pub fn move_json(m: &Move, symbols: &Symbols) -> MoveJson {
    MoveJson {
        kind: m.kind.name(),
        from: square_name(m.from),
        to: square_name(m.to),
        take: m.take.map(square_name),
        transition: m.transition.map(|t| symbols.name(t).to_string()),
        state_change: m
            .state_change
            .iter()
            .map(|&(k, v)| StateChangeJson {
                key: symbols.name(k).to_string(),
                value: v,
            })
            .collect(),
    }
}

/// A move as one line: `kind from-to [xTAKE] [=TRANSITION] [KEY=N ...]`.
pub fn move_text(m: &Move, symbols: &Symbols) -> String {
    let mut s = format!(
        "{} {}-{}",
        m.kind.name(),
        square_name(m.from),
        square_name(m.to)
    );
    if let Some(t) = m.take {
        s += &format!(" x{}", square_name(t));
    }
    if let Some(t) = m.transition {
        s += &format!(" ={}", symbols.name(t));
    }
    for &(k, v) in &m.state_change {
        s += &format!(" {}={v}", symbols.name(k));
    }
    s
}
