//! Zillions of Games saved games (`.zsg`): a pure parser from text to header, hand-placed setup
//! lines and move records, each with its line and byte span, and errors located by line and column.
//!
//! The grammar (see `docs/engine.md`, "Replay of ZoG saved games"):
//! ```text
//! Zillions Save Game File Version 0.02 <H|C per player>
//! RulesFile=<file>
//! VariantName=<title>
//! (x pos)                       set-up: empty a position, before any move
//! (Player Piece pos)            set-up: put a piece there (replacing what stands there)
//! NUM. [partial K] segment …    one line per move part
//! NUM. Pass
//! ```
//! Segments are kept as tokens: which token is a player, a piece or a position depends on the
//! rules, so the replay classifies them.

/// A place in the saved game's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub col: usize,
    /// Byte offset of the start in the text.
    pub start: usize,
    /// Byte offset of the end in the text.
    pub end: usize,
}

/// One whitespace-separated word of a record, with where it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// The word.
    pub text: String,
    /// Where it stands.
    pub span: Span,
}

/// A set-up line, which ZoG writes for a position edited by hand: `(x pos)` empties `pos`,
/// `(Player Piece pos)` puts a piece there. Set-up lines come before the first move and are
/// applied in order to the game's start position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// The owner and the piece type; `None` for `(x pos)`, which empties the position.
    pub piece: Option<(Token, Token)>,
    /// The position.
    pub pos: Token,
    /// The whole line.
    pub span: Span,
}

/// What a move record says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// `Pass`: the player passes, or ends a partial move.
    Pass,
    /// A move part: `partial K` when made with `add-partial`, then its segments as tokens.
    Move {
        /// `K` of `partial K` (ZoG's move-type number; not needed to replay).
        partial: Option<u32>,
        /// The segments' words.
        tokens: Vec<Token>,
    },
}

/// One line `NUM. …` of a saved game: one move part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The turn number (shared by every part and every player of one round).
    pub number: u32,
    /// What the record says.
    pub body: Body,
    /// The text after `NUM. `.
    pub span: Span,
    /// The whole line, without its line break.
    pub text: String,
}

/// A parsed saved game.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SavedGame {
    /// One letter per player from the first line (`H` human, `C` computer).
    pub player_kinds: String,
    /// `RulesFile=` (as written, e.g. `.\Chess.zrf`).
    pub rules_file: Option<String>,
    /// `VariantName=`: the title of the game played.
    pub variant: Option<String>,
    /// Set-up lines, in order, applied to the start position before move 1.
    pub setup: Vec<Placement>,
    /// The move records, in order.
    pub records: Vec<Record>,
}

/// A located parse error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZsgError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What was found and what was expected.
    pub message: String,
}

impl std::fmt::Display for ZsgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

const MAGIC: &str = "Zillions Save Game File";

/// A line of the text with its number and byte offset.
struct Line<'a> {
    no: usize,
    start: usize,
    text: &'a str,
}

impl Line<'_> {
    fn span(&self, from: usize, to: usize) -> Span {
        Span {
            line: self.no,
            col: self.text[..from].chars().count() + 1,
            start: self.start + from,
            end: self.start + to,
        }
    }

    fn error(&self, at: usize, message: impl Into<String>) -> ZsgError {
        ZsgError {
            line: self.no,
            col: self.text[..at.min(self.text.len())].chars().count() + 1,
            message: message.into(),
        }
    }

    /// The words of `self.text[from..]` with their spans, at most [`MAX_RECORD_WORDS`] + 1 of
    /// them. Linear in the line's length: columns are counted as the words are found (a 1 MB
    /// record took 9 s when each word counted the characters before it).
    fn tokens(&self, from: usize) -> Vec<Token> {
        let mut out = Vec::new();
        // (byte, column) of the word being read.
        let mut start: Option<(usize, usize)> = None;
        let first = self.text[..from].chars().count() + 1;
        for (col, (i, c)) in (first..).zip(self.text[from..].char_indices()) {
            let i = i + from;
            match (c.is_whitespace(), start) {
                (true, Some(s)) => {
                    out.push(self.token(s, i));
                    start = None;
                    if out.len() > MAX_RECORD_WORDS {
                        return out;
                    }
                }
                (false, None) => start = Some((i, col)),
                _ => {}
            }
        }
        if let Some(s) = start {
            out.push(self.token(s, self.text.len()));
        }
        out
    }

    fn token(&self, (s, col): (usize, usize), e: usize) -> Token {
        Token {
            text: self.text[s..e].to_string(),
            span: Span {
                line: self.no,
                col,
                start: self.start + s,
                end: self.start + e,
            },
        }
    }
}

/// Most words one move record may have (the longest in the shared corpus has 273); a longer
/// record is refused where its words pass the limit, so replaying it stays linear.
pub const MAX_RECORD_WORDS: usize = 4_096;

/// One line of a saved game, read (blank lines are skipped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// `RulesFile=…`, as written.
    RulesFile(String),
    /// `VariantName=…`: the title of the game played.
    Variant(String),
    /// A set-up line (they come before the first move).
    Setup(Placement),
    /// A move record.
    Record(Record),
    /// Another header line (`Key=value`): nothing a replay needs.
    Header,
}

/// The lines of a saved game's text after its first, read one at a time and checked as
/// [`parse`] checks them: memory does not grow with the number of records. The first error
/// ends the iteration.
pub struct Items<'t> {
    text: &'t str,
    /// Byte offset of the next line, and its number.
    at: usize,
    no: usize,
    moved: bool,
    set_up: bool,
    failed: bool,
}

/// Reads a saved game's first line (`Zillions Save Game File Version … HC`): the player kinds,
/// and the rest of its lines as [`Items`].
pub fn items(text: &str) -> Result<(String, Items<'_>), ZsgError> {
    let mut it = Items {
        text,
        at: 0,
        no: 0,
        moved: false,
        set_up: false,
        failed: false,
    };
    let Some(first) = it.next_line() else {
        return Err(ZsgError {
            line: 1,
            col: 1,
            message: format!("empty file: expected `{MAGIC} Version …`"),
        });
    };
    let Some(rest) = first.text.trim_start().strip_prefix(MAGIC) else {
        return Err(first.error(0, format!("expected `{MAGIC} Version …`")));
    };
    let kinds = rest
        .split_whitespace()
        .last()
        .filter(|w| w.chars().all(|c| c.is_ascii_uppercase() || c == '?'))
        .unwrap_or_default()
        .to_string();
    Ok((kinds, it))
}

impl<'t> Items<'t> {
    /// The next line that is not blank.
    fn next_line(&mut self) -> Option<Line<'t>> {
        while self.at < self.text.len() {
            let rest = &self.text[self.at..];
            let len = rest.find('\n').map_or(rest.len(), |i| i + 1);
            let line = Line {
                no: self.no + 1,
                start: self.at,
                text: rest[..len].trim_end_matches(['\n', '\r']),
            };
            self.at += len;
            self.no += 1;
            if !line.text.trim().is_empty() {
                return Some(line);
            }
        }
        None
    }

    fn item(&mut self, line: &Line) -> Result<Item, ZsgError> {
        let t = line.text.trim_start();
        let indent = line.text.len() - t.len();
        if let Some(v) = t.strip_prefix("RulesFile=") {
            Ok(Item::RulesFile(v.trim().to_string()))
        } else if let Some(v) = t.strip_prefix("VariantName=") {
            Ok(Item::Variant(v.trim().to_string()))
        } else if t.starts_with('(') {
            if self.moved {
                return Err(line.error(
                    indent,
                    "a set-up line `(Player Piece pos)` or `(x pos)` after a move",
                ));
            }
            self.set_up = true;
            placement(line, indent).map(Item::Setup)
        } else if t.starts_with(|c: char| c.is_ascii_digit()) {
            self.moved = true;
            record(line, indent).map(Item::Record)
        } else if t.contains('=') && !self.moved && !self.set_up {
            Ok(Item::Header)
        } else {
            Err(line.error(
                indent,
                "expected a move record `NUM. …`, a set-up line `(Player Piece pos)` or `(x pos)`, or a header `Key=value`",
            ))
        }
    }
}

impl Iterator for Items<'_> {
    type Item = Result<Item, ZsgError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let line = self.next_line()?;
        let item = self.item(&line);
        self.failed = item.is_err();
        Some(item)
    }
}

/// Parses a saved game's text. Blank lines are skipped; anything else that is not a header
/// line, a setup line before the first move, or a move record is an error.
pub fn parse(text: &str) -> Result<SavedGame, ZsgError> {
    let (player_kinds, items) = items(text)?;
    let mut game = SavedGame {
        player_kinds,
        ..SavedGame::default()
    };
    for item in items {
        match item? {
            Item::RulesFile(v) => game.rules_file = Some(v),
            Item::Variant(v) => game.variant = Some(v),
            Item::Setup(p) => game.setup.push(p),
            Item::Record(r) => game.records.push(r),
            Item::Header => {}
        }
    }
    Ok(game)
}

/// What [`summary`] finds: the saved game without its set-up lines and records, and how many
/// of each it has.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Summary {
    /// The header (`setup` and `records` are left empty).
    pub game: SavedGame,
    /// Set-up lines.
    pub setup: usize,
    /// Move records.
    pub records: usize,
}

/// Checks a saved game's text as [`parse`] does, keeping only its header and counts, so a long
/// save costs no memory beyond its text; [`items`] then replays it line by line.
pub fn summary(text: &str) -> Result<Summary, ZsgError> {
    let (player_kinds, items) = items(text)?;
    let mut s = Summary {
        game: SavedGame {
            player_kinds,
            ..SavedGame::default()
        },
        ..Summary::default()
    };
    for item in items {
        match item? {
            Item::RulesFile(v) => s.game.rules_file = Some(v),
            Item::Variant(v) => s.game.variant = Some(v),
            Item::Setup(_) => s.setup += 1,
            Item::Record(_) => s.records += 1,
            Item::Header => {}
        }
    }
    Ok(s)
}

fn placement(line: &Line, at: usize) -> Result<Placement, ZsgError> {
    let t = line.text.trim_end();
    let Some(close) = t.rfind(')').filter(|&c| c == t.len() - 1) else {
        return Err(line.error(t.len(), "expected `)` closing the setup line"));
    };
    let inner: Vec<Token> = line
        .tokens(at + 1)
        .into_iter()
        .filter_map(|mut tok| {
            if tok.span.start - line.start >= close {
                return None;
            }
            if let Some(s) = tok.text.strip_suffix(')') {
                tok.text = s.to_string();
                tok.span.end -= 1;
            }
            (!tok.text.is_empty()).then_some(tok)
        })
        .collect();
    let span = line.span(at, t.len());
    if let [x, pos] = inner.as_slice()
        && x.text == "x"
    {
        return Ok(Placement {
            piece: None,
            pos: pos.clone(),
            span,
        });
    }
    match <[Token; 3]>::try_from(inner) {
        Ok([player, piece, pos]) => Ok(Placement {
            piece: Some((player, piece)),
            pos,
            span,
        }),
        Err(v) => Err(line.error(
            v.get(3).map_or(close, |t| t.span.start - line.start),
            match v.len() {
                n if n > MAX_RECORD_WORDS => format!(
                    "expected `(Player Piece pos)` or `(x pos)`, found more than {MAX_RECORD_WORDS} words"
                ),
                n => format!("expected `(Player Piece pos)` or `(x pos)`, found {n} words"),
            },
        )),
    }
}

fn record(line: &Line, at: usize) -> Result<Record, ZsgError> {
    let t = line.text;
    let digits = t[at..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(t.len(), |i| at + i);
    let number: u32 = t[at..digits]
        .parse()
        .map_err(|_| line.error(at, "the move number is too large"))?;
    if !t[digits..].starts_with('.') {
        return Err(line.error(digits, "expected `.` after the move number"));
    }
    let body_at = digits + 1;
    let mut tokens = line.tokens(body_at);
    if let Some(over) = tokens.get(MAX_RECORD_WORDS) {
        return Err(line.error(
            over.span.start - line.start,
            format!("a move record of more than {MAX_RECORD_WORDS} words"),
        ));
    }
    let text = t.trim_end().to_string();
    let span_start = tokens
        .first()
        .map_or(t.len(), |k| k.span.start - line.start);
    let span = line.span(span_start, t.trim_end().len());
    if tokens.is_empty() {
        return Err(line.error(t.len(), "expected a move or `Pass` after the move number"));
    }
    if tokens.len() == 1 && tokens[0].text == "Pass" {
        return Ok(Record {
            number,
            body: Body::Pass,
            span,
            text,
        });
    }
    let mut partial = None;
    if tokens[0].text == "partial" {
        let Some(k) = tokens.get(1) else {
            return Err(line.error(t.len(), "expected a number after `partial`"));
        };
        let n = k.text.parse::<u32>().map_err(|_| {
            line.error(
                k.span.start - line.start,
                format!(
                    "expected a number after `partial`, found `{}`",
                    crate::text::shorten(&k.text, 40)
                ),
            )
        })?;
        partial = Some(n);
        tokens.drain(..2);
        if tokens.is_empty() {
            return Err(line.error(t.len(), "expected the move after `partial K`"));
        }
    }
    Ok(Record {
        number,
        body: Body::Move { partial, tokens },
        span,
        text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "Zillions Save Game File Version 0.02 HC\r\nRulesFile=.\\Chess.zrf\r\n\
        VariantName=Chess\r\n(White King e1)\r\n1. Pawn e2 - e4\r\n1. partial 3 Pawn e7 - e5\r\n2. Pass\r\n";

    #[test]
    fn header_setup_and_records() {
        let g = parse(GAME).unwrap();
        assert_eq!(g.player_kinds, "HC");
        assert_eq!(g.rules_file.as_deref(), Some(".\\Chess.zrf"));
        assert_eq!(g.variant.as_deref(), Some("Chess"));
        assert_eq!(g.setup.len(), 1);
        assert_eq!(g.setup[0].piece.as_ref().unwrap().1.text, "King");
        assert_eq!(g.setup[0].pos.text, "e1");
        assert_eq!(g.setup[0].pos.span.col, 13);
        assert_eq!(g.records.len(), 3);
        let r = &g.records[1];
        assert_eq!((r.number, r.span.line, r.span.col), (1, 6, 4));
        assert_eq!(&GAME[r.span.start..r.span.end], "partial 3 Pawn e7 - e5");
        match &r.body {
            Body::Move { partial, tokens } => {
                assert_eq!(*partial, Some(3));
                let words: Vec<&str> = tokens.iter().map(|t| t.text.as_str()).collect();
                assert_eq!(words, ["Pawn", "e7", "-", "e5"]);
                assert_eq!(tokens[1].span.col, 19);
            }
            Body::Pass => panic!("expected a move"),
        }
        assert_eq!(g.records[2].body, Body::Pass);
    }

    /// ZoG's set-up lines for a position edited by hand (a Shashki save):
    /// `(x b6)` empties b6, `(White Checker b6)` puts a piece there.
    #[test]
    fn set_up_lines_empty_and_place() {
        let g = parse(
            "Zillions Save Game File Version 0.02 HC\nRulesFile=Checker Games.zrf\n\
             VariantName=Shashki (Russian Draughts)\n(x b6)\n(x a7)\n(White Checker b6)\n\
             (Black Checker c5)\n",
        )
        .unwrap();
        let lines: Vec<(Option<&str>, &str, usize)> = g
            .setup
            .iter()
            .map(|p| {
                let piece = p.piece.as_ref().map(|(_, k)| k.text.as_str());
                (piece, p.pos.text.as_str(), p.pos.span.col)
            })
            .collect();
        assert_eq!(
            lines,
            [
                (None, "b6", 4),
                (None, "a7", 4),
                (Some("Checker"), "b6", 16),
                (Some("Checker"), "c5", 16)
            ]
        );
        assert!(g.records.is_empty());
    }

    #[test]
    fn located_errors() {
        let e = parse("").unwrap_err();
        assert_eq!((e.line, e.col), (1, 1));
        let e = parse("Hello\n").unwrap_err();
        assert!(e.message.contains(MAGIC), "{e}");
        let e = parse("Zillions Save Game File Version 0.02 C\n1 Pawn e2 - e4\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 2));
        let e = parse("Zillions Save Game File Version 0.02 C\n1. partial x Pawn\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 12));
        let e = parse("Zillions Save Game File Version 0.02 C\n(White King)\n").unwrap_err();
        assert!(e.message.contains("found 2 words"), "{e}");
        let e = parse("Zillions Save Game File Version 0.02 C\n(White b6)\n").unwrap_err();
        assert!(e.message.contains("`(x pos)`"), "{e}");
        let e = parse("Zillions Save Game File Version 0.02 C\n(White King e1\n").unwrap_err();
        assert!(e.message.contains("`)`"), "{e}");
        let e = parse("Zillions Save Game File Version 0.02 C\n1.\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 3));
        let e = parse("Zillions Save Game File Version 0.02 C\n1. Pass\n(White King e1)\n")
            .unwrap_err();
        assert_eq!(e.line, 3);
        let e = parse("Zillions Save Game File Version 0.02 C\n99999999999. Pass\n").unwrap_err();
        assert!(e.message.contains("too large"), "{e}");
    }
}
