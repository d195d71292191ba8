//! A move query: compile a script, set up a FEN position and format the moves (used by `zogkit moves`).

use super::board::{Board, Color, Piece, Square, square_name};
use super::interp::{DEFAULT_STEP_LIMIT, Move, Rules, State};
use super::perft::STANDARD;
use super::program::Symbols;
use super::syntax::Dialect;
use crate::diag::Diagnostic;
use crate::diag::{FileId, SourceMap};

/// Which moves to list: a position and the moving piece.
#[derive(Debug, Clone)]
pub struct Query {
    /// FEN placement field (top rank first, any size); KQRBNP are standard pieces, other
    /// letters are pieces of that name; upper case is white.
    pub board: String,
    /// The square of the moving piece (e.g. `d4`).
    pub at: String,
    /// The moving piece's colour (default: the colour of the piece on the square, else white).
    pub color: Option<Color>,
    /// The moving piece's kind (default: the kind on the square, else `test`).
    pub piece: Option<String>,
    /// State registers of the moving side, `KEY=N`.
    pub state: Vec<String>,
    /// Items a chain may run before it is stopped with a warning.
    pub step_limit: u32,
    /// The dialect (`None`: the seed, or MS when the script uses an MS word, with a note).
    pub dialect: Option<Dialect>,
}

impl Query {
    /// A query for the piece at `at` on `board`, with defaults for the rest.
    pub fn new(board: &str, at: &str) -> Query {
        Query {
            board: board.to_string(),
            at: at.to_string(),
            color: None,
            piece: None,
            state: Vec::new(),
            step_limit: DEFAULT_STEP_LIMIT,
            dialect: None,
        }
    }
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
    pub at: Square,
    /// The source map holding the script (file 0), for rendering diagnostics.
    pub sources: SourceMap,
    /// Notes from compiling the script (which word selected the MS dialect).
    pub notes: Vec<Diagnostic>,
}

/// Compiles the script and builds the position described by the query.
pub fn prepare(args: &Query, name: &str, text: &str) -> Result<Prepared, Failure> {
    let mut sources = SourceMap::new();
    let file = sources.add(name, text);
    let mut rules = Rules::new();
    rules.step_limit = args.step_limit;
    rules.dialect = args.dialect;
    let user = rules.compile(text, file).map_err(|diags| Failure {
        code: 1,
        message: diags.iter().map(|d| d.render(&sources, name)).collect(),
    })?;
    let notes = rules.program(user).notes.clone();
    // The built-in scripts are seed Chessembly.
    rules.dialect = Some(Dialect::Seed);
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
        (Some(c), _) => c,
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
        notes,
    })
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
    /// `move`, `take-move`, `catch`, `take`, and in the MS dialect `take-jump`, `shift`,
    /// `composite`.
    pub kind: &'static str,
    /// The moving piece's square.
    pub from: String,
    /// Where the moving piece ends (for `catch`, the same as `from`).
    pub to: String,
    /// The square the expression aimed at: `to`, except for `catch` (the captured square).
    pub target: String,
    /// The captured piece's square (for `take-jump`, the square jumped over).
    pub take: Option<String>,
    /// The kind the piece turns into.
    pub transition: Option<String>,
    /// State registers set when the move is played, in order.
    pub state_change: Vec<StateChangeJson>,
    /// For `composite`, the moves it is made of, in order (absent otherwise).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<MoveJson>,
}

/// A move as the JSON object `{kind, from, to, target, take, transition, state_change[, parts]}`.
pub fn move_json(m: &Move, symbols: &Symbols) -> MoveJson {
    MoveJson {
        kind: m.kind.name(),
        from: square_name(m.from),
        to: square_name(m.to),
        target: square_name(m.target),
        parts: m.parts.iter().map(|p| move_json(p, symbols)).collect(),
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
    if !m.parts.is_empty() {
        let parts: Vec<String> = m.parts.iter().map(|p| move_text(p, symbols)).collect();
        s += &format!(" [{}]", parts.join("; "));
    }
    s
}
