//! Chessembly surface syntax: a flat, span-carrying tokenizer and parser that never panics.
//!
//! The parser is iterative (no recursion), so deeply nested braces and megabyte scripts only cost
//! linear time. Every problem becomes a located [`Diagnostic`]; the erroneous item is dropped and
//! parsing continues, so one run reports as many independent errors as possible (capped at
//! [`MAX_ERRORS`]).

use crate::diag::{Diagnostic, FileId, Severity, Span};

/// Parsing stops collecting errors after this many (a final note says so).
pub const MAX_ERRORS: usize = 100;

/// The four movement expressions of the seed (행마식).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveKind {
    /// `move(dx, dy)`: only onto an empty square.
    Move,
    /// `take-move(dx, dy)`: onto an empty square, or capture an enemy there (then the chain stops).
    TakeMove,
    /// `catch(dx, dy)`: remove an enemy on the target; the piece stays where it is.
    Catch,
    /// `take(dx, dy)`: capture-only displacement onto an enemy.
    Take,
    /// MS dialect: a `take` replaced by `jump(dx, dy)`: the piece captures the taken square and
    /// lands on the empty square beyond it.
    TakeJump,
    /// MS dialect: `shift(dx, dy)`: the piece swaps places with the piece on the target.
    Shift,
    /// MS dialect: `place-move(dx, dy)`: a move onto an empty target; the anchor stays. Its
    /// moves are recorded as [`MoveKind::Move`].
    PlaceMove,
    /// MS dialect: the moves made inside a `+ { }` or `| { }` block, as one move.
    Composite,
}

impl MoveKind {
    /// The keyword, as written in scripts and printed in move lists.
    pub fn name(self) -> &'static str {
        match self {
            MoveKind::Move => "move",
            MoveKind::TakeMove => "take-move",
            MoveKind::Catch => "catch",
            MoveKind::Take => "take",
            MoveKind::TakeJump => "take-jump",
            MoveKind::Shift => "shift",
            MoveKind::PlaceMove => "place-move",
            MoveKind::Composite => "composite",
        }
    }
}

/// Which language a script is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// The seed's vocabulary only.
    #[default]
    Seed,
    /// The seed plus the chessembly-bot (MS) extensions: `jump`, `shift`, `anchor`, `end`,
    /// `true`, `false`, `color`, `color-on`, `place-move`, `absolute`, `absolute-x`,
    /// `absolute-y`, `read`, `read-and`, `read-or`, `read-xor`, `write`, `read-anchor`,
    /// `write-anchor`, and the composite blocks `+ { }` and `| { }`.
    Ms,
}

impl Dialect {
    /// The name used by `--dialect`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Seed => "seed",
            Dialect::Ms => "ms",
        }
    }
}

/// How the moves collected inside a composite block become one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Composite {
    /// `+ { … }`: one move made of every move inside, only when the block runs to its `}`.
    All,
    /// `| { … }`: one move made of the moves inside, however far the block ran.
    Any,
}

/// Bit operations on the chain's one-bit registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RegOp {
    /// `read(n)`: the value becomes register n.
    Read,
    /// `read-and(n)`.
    And,
    /// `read-or(n)`.
    Or,
    /// `read-xor(n)`.
    Xor,
    /// `write(n)`: register n becomes the value; the value becomes true.
    Write,
}

/// A side of the board, in the moving piece's frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// Towards the opponent.
    Top,
    /// Towards the owner.
    Bottom,
    /// The owner's left.
    Left,
    /// The owner's right.
    Right,
}

/// A relative displacement `(dx, dy)` in the moving piece's frame (+dy forward, +dx right).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Delta {
    /// Files to the right.
    pub dx: i16,
    /// Ranks forward.
    pub dy: i16,
}

impl Delta {
    /// A delta.
    pub const fn new(dx: i16, dy: i16) -> Delta {
        Delta { dx, dy }
    }
}

/// One expression of the seed's vocabulary, with its arguments resolved to typed values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    /// `take-move`, `move`, `catch`, `take`.
    Step(MoveKind, Delta),
    /// `peek(dx, dy)`: empty target; moves the anchor when true.
    Peek(Delta),
    /// `observe(dx, dy)`: empty target; never moves the anchor.
    Observe(Delta),
    /// `bound(dx, dy)`: target off the board.
    Bound(Delta),
    /// `edge(dx, dy)`: target off the board across exactly one side.
    Edge(Delta),
    /// `corner(dx, dy)`: target off the board across two sides.
    Corner(Delta),
    /// `edge-top/bottom/left/right(dx, dy)`.
    EdgeSide(Side, Delta),
    /// `corner-(top|bottom)-(left|right)(dx, dy)`: vertical side, horizontal side.
    CornerSide(Side, Side, Delta),
    /// bare `check`: the own royal piece is attacked.
    Check,
    /// `danger(dx, dy)`: the piece could be captured after moving to the target.
    Danger(Delta),
    /// `piece-on(name, dx, dy)`: a piece of that kind (either colour) is on the target.
    PieceOn(String, Delta),
    /// `enemy(dx, dy)`.
    Enemy(Delta),
    /// `friendly(dx, dy)`.
    Friendly(Delta),
    /// `piece(name)`: the moving piece is of that kind.
    Piece(String),
    /// `set-state(key, n)`, or bare `set-state` (`None`: later moves change nothing).
    SetState(Option<(String, i32)>),
    /// `if-state(key, n)`.
    IfState(String, i32),
    /// `transition(name)`, or bare `transition` (`None`: clears the pending transition).
    Transition(Option<String>),
    /// `repeat(n)`: go back n items.
    Repeat(i32),
    /// `do`.
    Do,
    /// `while`.
    While,
    /// `label(n)`.
    Label(i32),
    /// `jmp(n)`.
    Jmp(i32),
    /// `jne(n)`.
    Jne(i32),
    /// `not`.
    Not,
    /// `{`.
    Open,
    /// `}`.
    Close,
    /// MS: `jump(dx, dy)` after a `take` that captured.
    Jump(Delta),
    /// MS: `anchor(dx, dy)`: moves the anchor whatever stands on the target.
    Anchor(Delta),
    /// MS: `end`: ends the chain.
    End,
    /// MS: `true` / `false` (control): set the value.
    Const(bool),
    /// MS: `color(white|black)`: the moving piece's colour (`true` = white).
    Color(bool),
    /// MS: `color-on(white|black, dx, dy)`: a piece of that colour is on the target.
    ColorOn(bool, Delta),
    /// MS: `absolute(x, y)`, `absolute-x(x)`, `absolute-y(y)`: put the anchor on a square
    /// counted from the owner's bottom-left corner (`None`: that coordinate is kept).
    Absolute(Option<i32>, Option<i32>),
    /// MS: `read(n)`, `read-and(n)`, `read-or(n)`, `read-xor(n)`, `write(n)`.
    Reg(RegOp, i32),
    /// MS: `read-anchor(n)`: the anchor goes to the square saved in slot n.
    ReadAnchor(i32),
    /// MS: `write-anchor(n)`: saves the anchor in slot n.
    WriteAnchor(i32),
    /// MS: `+` or `|` in front of a `{`.
    Composite(Composite),
    /// An expression that could not be read (a diagnostic was reported); it keeps its place so
    /// item counts, such as `repeat`'s, stay right.
    Invalid,
}

/// An expression and where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// What it is.
    pub expr: Expr,
    /// The whole call, including its argument list.
    pub span: Span,
}

/// A `;`-separated chain (the seed's 동작).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Chain {
    /// Its items in source order (comments removed).
    pub items: Vec<Item>,
    /// From the first to the last item (empty span at the chain's end when it has none).
    pub span: Span,
}

/// A parsed script: chains that contain at least one item.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Script {
    /// Non-empty chains in source order.
    pub chains: Vec<Chain>,
    /// The language it was read as (chosen, or [`Dialect::Ms`] when it uses an MS word).
    pub dialect: Dialect,
}

/// A raw argument before typing.
#[derive(Debug, Clone)]
enum Arg {
    Int(i64),
    Name(String),
}

/// What parameters a word takes.
#[derive(Clone, Copy)]
enum Sig {
    /// No argument list allowed (`do`, `while`, `not`, `check`).
    Bare,
    /// (dx, dy)
    Delta,
    /// (n)
    Int,
    /// (x, y), not a delta
    IntInt,
    /// (name)
    Name,
    /// (name, n)
    NameInt,
    /// (name, dx, dy)
    NameDelta,
    /// bare, or (name)
    OptName,
    /// bare, or (name, n)
    OptNameInt,
}

impl Sig {
    fn describe(self) -> &'static str {
        match self {
            Sig::Bare => "no arguments",
            Sig::Delta => "2 arguments (dx, dy)",
            Sig::Int => "1 integer argument",
            Sig::IntInt => "2 integer arguments (x, y)",
            Sig::Name => "1 name argument",
            Sig::NameInt => "2 arguments (name, n)",
            Sig::NameDelta => "3 arguments (name, dx, dy)",
            Sig::OptName => "no arguments or 1 name argument",
            Sig::OptNameInt => "no arguments or 2 arguments (key, n)",
        }
    }
}

/// Every word of the seed, with its signature.
fn signature(name: &str) -> Option<Sig> {
    Some(match name {
        "take-move"
        | "move"
        | "catch"
        | "take"
        | "peek"
        | "observe"
        | "bound"
        | "edge"
        | "corner"
        | "edge-top"
        | "edge-bottom"
        | "edge-left"
        | "edge-right"
        | "corner-top-left"
        | "corner-top-right"
        | "corner-bottom-left"
        | "corner-bottom-right"
        | "danger"
        | "enemy"
        | "friendly" => Sig::Delta,
        "check" | "do" | "while" | "not" => Sig::Bare,
        "repeat" | "label" | "jmp" | "jne" => Sig::Int,
        "piece-on" => Sig::NameDelta,
        "piece" => Sig::Name,
        "set-state" => Sig::OptNameInt,
        "if-state" => Sig::NameInt,
        "transition" => Sig::OptName,
        _ => return ms_signature(name),
    })
}

/// The chessembly-bot (MS) extensions, with their signatures.
fn ms_signature(name: &str) -> Option<Sig> {
    Some(match name {
        "jump" | "shift" | "anchor" | "place-move" => Sig::Delta,
        "end" | "true" | "false" => Sig::Bare,
        "color" => Sig::Name,
        "color-on" => Sig::NameDelta,
        "absolute" => Sig::IntInt,
        "absolute-x" | "absolute-y" | "read" | "read-and" | "read-or" | "read-xor" | "write"
        | "read-anchor" | "write-anchor" => Sig::Int,
        _ => return None,
    })
}

/// True when `name` is a word of the MS dialect only.
pub fn is_ms_word(name: &str) -> bool {
    ms_signature(name).is_some()
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    file: FileId,
    diags: Vec<Diagnostic>,
    errors: usize,
    /// The dialect asked for (`None`: the seed, switching to MS at the first MS word).
    dialect: Option<Dialect>,
    /// The dialect in effect so far.
    current: Dialect,
}

/// Parses a script in the seed dialect, switching to MS at the first MS-only word (with a
/// `chessembly::dialect` note). Returns the chains that parsed plus every diagnostic; never
/// panics.
pub fn parse(text: &str, file: FileId) -> (Script, Vec<Diagnostic>) {
    parse_with(text, file, None)
}

/// Parses a script as `dialect` (`None`: detect, as [`parse`] does). With
/// `Some(Dialect::Seed)` the MS words are unknown words.
pub fn parse_with(text: &str, file: FileId, dialect: Option<Dialect>) -> (Script, Vec<Diagnostic>) {
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        file,
        diags: Vec::new(),
        errors: 0,
        dialect,
        current: dialect.unwrap_or_default(),
    };
    let mut script = p.script();
    script.dialect = p.current;
    (script, p.diags)
}

/// Adds `d` unless [`MAX_ERRORS`] errors are already listed; the first error over the cap adds a
/// `chessembly::too-many-errors` note instead.
pub(crate) fn push_capped(diags: &mut Vec<Diagnostic>, d: Diagnostic) {
    let errors = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    if errors < MAX_ERRORS {
        diags.push(d);
    } else if !diags
        .iter()
        .any(|d| d.code == "chessembly::too-many-errors")
    {
        diags.push(Diagnostic::new(
            Severity::Note,
            "chessembly::too-many-errors",
            format!("only the first {MAX_ERRORS} errors are reported"),
            None,
        ));
    }
}

fn is_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic()
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

impl Parser<'_> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    fn error(&mut self, code: &'static str, message: String, span: Span) {
        self.report(Diagnostic::error(code, message, span));
    }

    /// An MS-only word or symbol at `span`: accepted in the MS dialect; in detection mode the
    /// first one switches to MS with a note; with `--dialect seed` it is an error (false).
    fn ms_word(&mut self, word: &str, span: Span) -> bool {
        match (self.dialect, self.current) {
            (_, Dialect::Ms) => true,
            (Some(Dialect::Seed), _) => {
                self.report(
                    Diagnostic::error(
                        "chessembly::unknown-word",
                        format!("unknown expression `{word}` in the seed dialect"),
                        span,
                    )
                    .with_note(
                        None,
                        "it is a chessembly-bot (MS) word: read the script with `--dialect ms`",
                    ),
                );
                false
            }
            (_, Dialect::Seed) => {
                self.current = Dialect::Ms;
                self.diags.push(Diagnostic::new(
                    Severity::Note,
                    "chessembly::dialect",
                    format!("`{word}` is a chessembly-bot (MS) word: the script is read in the MS dialect"),
                    Some(span),
                ));
                true
            }
        }
    }

    fn report(&mut self, d: Diagnostic) {
        // Counting here keeps `push_capped` from rescanning a full list on every error.
        if self.errors <= MAX_ERRORS {
            push_capped(&mut self.diags, d);
        }
        self.errors += 1;
    }

    /// Skips whitespace (ASCII and Unicode); returns false at end of input.
    fn skip_ws(&mut self) {
        while self.pos < self.bytes.len() {
            let b = self.bytes[self.pos];
            if b.is_ascii_whitespace() {
                self.pos += 1;
            } else if b >= 0x80 {
                match self.text[self.pos..].chars().next() {
                    Some(c) if c.is_whitespace() => self.pos += c.len_utf8(),
                    _ => return,
                }
            } else {
                return;
            }
        }
    }

    fn script(&mut self) -> Script {
        let mut script = Script::default();
        let mut chain = Chain::default();
        // Open braces of the current chain: (item index, span of `{`).
        let mut open: Vec<Span> = Vec::new();
        loop {
            self.skip_ws();
            let Some(&b) = self.bytes.get(self.pos) else {
                self.finish_chain(&mut script, &mut chain, &mut open);
                return script;
            };
            let start = self.pos;
            match b {
                b';' => {
                    self.pos += 1;
                    self.finish_chain(&mut script, &mut chain, &mut open);
                }
                b'#' => {
                    // A comment runs up to (not including) the next `;`.
                    match self.bytes[self.pos..].iter().position(|&c| c == b';') {
                        Some(n) => self.pos += n,
                        None => self.pos = self.bytes.len(),
                    }
                }
                b'{' => {
                    self.pos += 1;
                    let span = self.span(start, self.pos);
                    open.push(span);
                    chain.items.push(Item {
                        expr: Expr::Open,
                        span,
                    });
                }
                b'}' => {
                    self.pos += 1;
                    let span = self.span(start, self.pos);
                    if open.pop().is_some() {
                        chain.items.push(Item {
                            expr: Expr::Close,
                            span,
                        });
                    } else {
                        self.error(
                            "chessembly::unbalanced-brace",
                            "`}` has no matching `{` in this chain".into(),
                            span,
                        );
                    }
                }
                b'+' | b'|' => {
                    self.pos += 1;
                    let span = self.span(start, self.pos);
                    let word = if b == b'+' { "+ {" } else { "| {" };
                    self.skip_ws();
                    if self.bytes.get(self.pos) != Some(&b'{') {
                        self.error(
                            "chessembly::unexpected-char",
                            format!(
                                "`{}` must be followed by `{{` (a composite block)",
                                b as char
                            ),
                            span,
                        );
                        chain.items.push(Item {
                            expr: Expr::Invalid,
                            span,
                        });
                    } else if self.ms_word(word, span) {
                        let kind = if b == b'+' {
                            Composite::All
                        } else {
                            Composite::Any
                        };
                        chain.items.push(Item {
                            expr: Expr::Composite(kind),
                            span,
                        });
                    } else {
                        chain.items.push(Item {
                            expr: Expr::Invalid,
                            span,
                        });
                    }
                }
                b if is_name_start(b) => {
                    let item = self.call().unwrap_or_else(|| Item {
                        expr: Expr::Invalid,
                        span: self.span(start, self.pos),
                    });
                    chain.items.push(item);
                }
                _ => {
                    let c = self.text[start..].chars().next().unwrap_or('?');
                    self.pos += c.len_utf8();
                    let msg = if c.is_ascii() {
                        format!("unexpected `{c}`; expected an expression, `{{`, `}}`, `;` or `#`")
                    } else {
                        format!(
                            "unexpected non-ASCII character `{c}`; only comments may contain non-ASCII text"
                        )
                    };
                    self.error(
                        "chessembly::unexpected-char",
                        msg,
                        self.span(start, self.pos),
                    );
                }
            }
        }
    }

    fn finish_chain(&mut self, script: &mut Script, chain: &mut Chain, open: &mut Vec<Span>) {
        if let Some(&first) = open.first() {
            let n = open.len();
            let msg = if n == 1 {
                "`{` is not closed before the end of its chain".to_string()
            } else {
                format!("{n} `{{` are not closed before the end of their chain (the first is here)")
            };
            self.error("chessembly::unbalanced-brace", msg, first);
            // Unclosed braces become `Invalid` placeholders: later passes see a balanced chain and
            // item positions (for `repeat`) do not move.
            let mut depth_to_drop = n;
            let mut kept = Vec::with_capacity(chain.items.len());
            // Walk backwards: an `Open` not matched by a later `Close` is unclosed.
            let mut closes = 0usize;
            for item in chain.items.drain(..).rev() {
                match item.expr {
                    Expr::Close => {
                        closes += 1;
                        kept.push(item);
                    }
                    Expr::Open if closes == 0 && depth_to_drop > 0 => {
                        depth_to_drop -= 1;
                        kept.push(Item {
                            expr: Expr::Invalid,
                            span: item.span,
                        });
                    }
                    Expr::Open => {
                        closes -= 1;
                        kept.push(item);
                    }
                    _ => kept.push(item),
                }
            }
            kept.reverse();
            chain.items = kept;
            open.clear();
        }
        if !chain.items.is_empty() {
            let first = chain.items[0].span;
            let last = chain.items[chain.items.len() - 1].span;
            chain.span = first.to(last);
            script.chains.push(std::mem::take(chain));
        }
    }

    /// A name, optionally followed by an argument list. Consumes what it reads even on error.
    fn call(&mut self) -> Option<Item> {
        let start = self.pos;
        while self.pos < self.bytes.len() && is_name_byte(self.bytes[self.pos]) {
            self.pos += 1;
        }
        let name = &self.text[start..self.pos];
        let name_span = self.span(start, self.pos);
        let after_name = self.pos;
        self.skip_ws();
        let args = if self.bytes.get(self.pos) == Some(&b'(') {
            Some(self.args(start)?)
        } else {
            self.pos = after_name;
            None
        };
        let span = self.span(start, self.pos);
        let Some(sig) = signature(name) else {
            self.error(
                "chessembly::unknown-word",
                format!("unknown expression `{name}`"),
                name_span,
            );
            return None;
        };
        if is_ms_word(name) && !self.ms_word(name, name_span) {
            return None;
        }
        let bad_arity = |p: &mut Self, found: usize| {
            p.error(
                "chessembly::arity",
                format!("`{name}` takes {}, found {found}", sig.describe()),
                span,
            );
        };
        let args: Vec<(Arg, Span)> = match (sig, args) {
            (Sig::Bare | Sig::OptName | Sig::OptNameInt, None) => Vec::new(),
            (Sig::Bare, Some(a)) => {
                bad_arity(self, a.len());
                return None;
            }
            (_, None) => {
                bad_arity(self, 0);
                return None;
            }
            (_, Some(a)) => a,
        };
        let want: &[bool] = match sig {
            // true = integer, false = name
            Sig::Bare => &[],
            Sig::Delta => &[true, true],
            Sig::Int => &[true],
            Sig::IntInt => &[true, true],
            Sig::Name => &[false],
            Sig::NameInt => &[false, true],
            Sig::NameDelta => &[false, true, true],
            Sig::OptName if args.is_empty() => &[],
            Sig::OptName => &[false],
            Sig::OptNameInt if args.is_empty() => &[],
            Sig::OptNameInt => &[false, true],
        };
        if want.len() != args.len() {
            bad_arity(self, args.len());
            return None;
        }
        let mut ints: Vec<i64> = Vec::new();
        let mut int_spans: Vec<Span> = Vec::new();
        let mut names: Vec<String> = Vec::new();
        for ((arg, aspan), &int) in args.into_iter().zip(want) {
            match (arg, int) {
                (Arg::Int(v), true) => {
                    ints.push(v);
                    int_spans.push(aspan);
                }
                (Arg::Name(s), false) => names.push(s),
                (Arg::Name(s), true) => {
                    self.error(
                        "chessembly::bad-argument",
                        format!("`{name}` expects an integer here, found `{s}`"),
                        aspan,
                    );
                    return None;
                }
                (Arg::Int(v), false) => {
                    self.error(
                        "chessembly::bad-argument",
                        format!("`{name}` expects a name here, found the number `{v}`"),
                        aspan,
                    );
                    return None;
                }
            }
        }
        // Range checks: deltas fit i16 (boards are far smaller); other integers fit i32.
        let delta_range = i16::MIN as i64..=i16::MAX as i64;
        let is_delta = matches!(sig, Sig::Delta | Sig::NameDelta | Sig::IntInt);
        for (&v, &vspan) in ints.iter().zip(&int_spans) {
            let ok = if is_delta {
                delta_range.contains(&v)
            } else {
                i32::try_from(v).is_ok()
            };
            if !ok {
                self.error(
                    "chessembly::bad-argument",
                    format!("`{name}`: the number {v} is out of range"),
                    vspan,
                );
                return None;
            }
        }
        let expr = self.expr(name, &ints, names, span)?;
        Some(Item { expr, span })
    }

    /// The expression `name` with its type-checked arguments.
    fn expr(
        &mut self,
        name: &str,
        ints: &[i64],
        mut names: Vec<String>,
        span: Span,
    ) -> Option<Expr> {
        let d = || Delta::new(ints[0] as i16, ints[1] as i16);
        let n = || ints[0] as i32;
        let color = |p: &mut Self, names: &mut Vec<String>| -> Option<bool> {
            let c = names.pop().unwrap_or_default();
            match c.as_str() {
                "white" => Some(true),
                "black" => Some(false),
                _ => {
                    p.error(
                        "chessembly::bad-argument",
                        format!("`{name}` expects `white` or `black`, found `{c}`"),
                        span,
                    );
                    None
                }
            }
        };
        let expr = match name {
            "take-move" => Expr::Step(MoveKind::TakeMove, d()),
            "move" => Expr::Step(MoveKind::Move, d()),
            "catch" => Expr::Step(MoveKind::Catch, d()),
            "take" => Expr::Step(MoveKind::Take, d()),
            "peek" => Expr::Peek(d()),
            "observe" => Expr::Observe(d()),
            "bound" => Expr::Bound(d()),
            "edge" => Expr::Edge(d()),
            "corner" => Expr::Corner(d()),
            "edge-top" => Expr::EdgeSide(Side::Top, d()),
            "edge-bottom" => Expr::EdgeSide(Side::Bottom, d()),
            "edge-left" => Expr::EdgeSide(Side::Left, d()),
            "edge-right" => Expr::EdgeSide(Side::Right, d()),
            "corner-top-left" => Expr::CornerSide(Side::Top, Side::Left, d()),
            "corner-top-right" => Expr::CornerSide(Side::Top, Side::Right, d()),
            "corner-bottom-left" => Expr::CornerSide(Side::Bottom, Side::Left, d()),
            "corner-bottom-right" => Expr::CornerSide(Side::Bottom, Side::Right, d()),
            "danger" => Expr::Danger(d()),
            "enemy" => Expr::Enemy(d()),
            "friendly" => Expr::Friendly(d()),
            "check" => Expr::Check,
            "do" => Expr::Do,
            "while" => Expr::While,
            "not" => Expr::Not,
            "piece-on" => Expr::PieceOn(
                names.pop().unwrap_or_default(),
                Delta::new(ints[0] as i16, ints[1] as i16),
            ),
            "piece" => Expr::Piece(names.pop().unwrap_or_default()),
            "set-state" => Expr::SetState(names.pop().map(|k| (k, n()))),
            "if-state" => Expr::IfState(names.pop().unwrap_or_default(), n()),
            "transition" => Expr::Transition(names.pop()),
            "repeat" => Expr::Repeat(n()),
            "label" => Expr::Label(n()),
            "jmp" => Expr::Jmp(n()),
            "jne" => Expr::Jne(n()),
            "jump" => Expr::Jump(d()),
            "shift" => Expr::Step(MoveKind::Shift, d()),
            "place-move" => Expr::Step(MoveKind::PlaceMove, d()),
            "anchor" => Expr::Anchor(d()),
            "end" => Expr::End,
            "true" => Expr::Const(true),
            "false" => Expr::Const(false),
            "color" => Expr::Color(color(self, &mut names)?),
            "color-on" => Expr::ColorOn(color(self, &mut names)?, d()),
            "absolute" => Expr::Absolute(Some(n()), Some(ints[1] as i32)),
            "absolute-x" => Expr::Absolute(Some(n()), None),
            "absolute-y" => Expr::Absolute(None, Some(n())),
            "read" => Expr::Reg(RegOp::Read, n()),
            "read-and" => Expr::Reg(RegOp::And, n()),
            "read-or" => Expr::Reg(RegOp::Or, n()),
            "read-xor" => Expr::Reg(RegOp::Xor, n()),
            "write" => Expr::Reg(RegOp::Write, n()),
            "read-anchor" => Expr::ReadAnchor(n()),
            "write-anchor" => Expr::WriteAnchor(n()),
            _ => return None, // unreachable: `signature` knows exactly these names
        };
        Some(expr)
    }

    /// Reads `( arg, ... )` starting at `(`. On a syntax error reports it, skips to `)` or the
    /// chain's end, and returns `None`.
    fn args(&mut self, call_start: usize) -> Option<Vec<(Arg, Span)>> {
        let open = self.pos;
        self.pos += 1;
        let mut args = Vec::new();
        loop {
            self.skip_ws();
            let start = self.pos;
            match self.bytes.get(self.pos) {
                Some(b')') if args.is_empty() => {
                    self.pos += 1;
                    return Some(args);
                }
                Some(&b) if b == b'-' || b == b'+' || b.is_ascii_digit() => {
                    self.pos += 1;
                    while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_digit() {
                        self.pos += 1;
                    }
                    let text = &self.text[start..self.pos];
                    let span = self.span(start, self.pos);
                    let digits = text.trim_start_matches(['+', '-']);
                    if digits.is_empty() {
                        return self.bad_args(call_start, open, "expected a number after the sign");
                    }
                    // Saturate absurdly long numbers; the range check reports them.
                    let v = text.trim_start_matches('+').parse::<i64>().unwrap_or(
                        if text.starts_with('-') {
                            i64::MIN
                        } else {
                            i64::MAX
                        },
                    );
                    args.push((Arg::Int(v), span));
                }
                Some(&b) if is_name_start(b) => {
                    while self.pos < self.bytes.len() && is_name_byte(self.bytes[self.pos]) {
                        self.pos += 1;
                    }
                    let span = self.span(start, self.pos);
                    args.push((Arg::Name(self.text[start..self.pos].to_string()), span));
                }
                _ => {
                    return self.bad_args(
                        call_start,
                        open,
                        "expected an argument (a number or a name)",
                    );
                }
            }
            self.skip_ws();
            match self.bytes.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b')') => {
                    self.pos += 1;
                    return Some(args);
                }
                _ => {
                    return self.bad_args(
                        call_start,
                        open,
                        "expected `,` or `)` in the argument list",
                    );
                }
            }
        }
    }

    fn bad_args(&mut self, call_start: usize, open: usize, what: &str) -> Option<Vec<(Arg, Span)>> {
        let here = self.pos;
        // Skip to the closing paren, but never past the chain's end.
        let rest = &self.bytes[self.pos..];
        let stop = rest.iter().position(|&c| c == b')' || c == b';');
        let (code, msg, span) = match stop.map(|n| (n, rest[n])) {
            Some((n, b')')) => {
                self.pos += n + 1;
                (
                    "chessembly::bad-argument",
                    what.to_string(),
                    self.span(here, (here + 1).min(self.bytes.len()).max(here)),
                )
            }
            other => {
                self.pos = match other {
                    Some((n, _)) => here + n,
                    None => self.bytes.len(),
                };
                (
                    "chessembly::unbalanced-paren",
                    "`(` is not closed".to_string(),
                    self.span(open, open + 1),
                )
            }
        };
        let d = Diagnostic::error(code, msg, span).with_note(
            Some(self.span(call_start, open)),
            "in the arguments of this expression",
        );
        self.report(d);
        None
    }
}
