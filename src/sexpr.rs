//! S-expressions: a lossless token layer and a span-carrying tree, shared by the Lisp-like formats.
//!
//! Lexical rules (ZRF, `notes/zrf-language.md` §1): `;` comments to end of line; `"` strings
//! that end at the next `"` with no escapes (backslashes and line breaks kept verbatim);
//! parentheses; every other maximal run of non-delimiter characters is an atom, kept as written
//! (`01`, `$1Dragon`, `empty?`, `'$1'`). Unicode spaces such as NBSP count as whitespace.
//!
//! [`tokenize`] covers every byte of the input exactly once, so [`Token`]s re-emit the original
//! text byte for byte. [`parse`] builds [`Node`]s with byte spans, never fails and never recurses
//! on input depth: unbalanced input is recovered and reported, and nesting deeper than
//! [`Limits::max_depth`] is an error instead of a stack overflow.

use crate::diag::{Diagnostic, FileId, Span};
use nom::branch::alt;
use nom::bytes::complete::{take_till, take_while1};
use nom::character::complete::char;
use nom::combinator::{opt, recognize, value};
use nom::sequence::pair;
use nom::{IResult, Parser};
use std::sync::Arc;

/// The kind of a lexical token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// Spaces, tabs, line breaks and Unicode spaces.
    Whitespace,
    /// `;` up to (not including) the line break.
    Comment,
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// `"…"` including both quotes (or to end of input when unterminated).
    Str,
    /// Any other run of characters.
    Atom,
}

/// One token: a kind and a byte range of the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub kind: TokenKind,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Token {
    /// The token's text.
    pub fn text<'a>(&self, src: &'a str) -> &'a str {
        &src[self.start as usize..self.end as usize]
    }
}

fn is_delim(c: char) -> bool {
    c.is_whitespace() || matches!(c, '(' | ')' | ';' | '"')
}

fn one_token(i: &str) -> IResult<&str, TokenKind> {
    alt((
        value(TokenKind::Whitespace, take_while1(char::is_whitespace)),
        value(
            TokenKind::Comment,
            recognize(pair(char(';'), take_till(|c| c == '\n' || c == '\r'))),
        ),
        value(TokenKind::Open, char('(')),
        value(TokenKind::Close, char(')')),
        value(
            TokenKind::Str,
            recognize((char('"'), take_till(|c| c == '"'), opt(char('"')))),
        ),
        value(TokenKind::Atom, take_while1(|c| !is_delim(c))),
    ))
    .parse(i)
}

/// Splits `text` into tokens covering every byte exactly once.
pub fn tokenize(text: &str) -> Vec<Token> {
    let mut out = Vec::with_capacity(text.len() / 4);
    let mut rest = text;
    while !rest.is_empty() {
        let start = text.len() - rest.len();
        match one_token(rest) {
            Ok((r, kind)) => {
                rest = r;
                out.push(Token {
                    kind,
                    start: start as u32,
                    end: (text.len() - rest.len()) as u32,
                });
            }
            Err(_) => {
                // Unreachable by construction (every character starts some token); stay total.
                let n = rest.chars().next().map(char::len_utf8).unwrap_or(1);
                out.push(Token {
                    kind: TokenKind::Atom,
                    start: start as u32,
                    end: (start + n) as u32,
                });
                rest = &rest[n..];
            }
        }
    }
    out
}

/// Re-emits the text of a token stream (the identity on [`tokenize`]'s output).
pub fn untokenize(text: &str, tokens: &[Token]) -> String {
    tokens.iter().map(|t| t.text(text)).collect()
}

/// A node of the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeKind {
    /// An atom, exactly as written.
    Atom(Arc<str>),
    /// A string's contents, without the quotes.
    Str(Arc<str>),
    /// A parenthesised list. Shared, so that expansion and variant resolution copy pointers,
    /// not trees.
    List(Arc<[Node]>),
}

/// A tree node with its location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// What it is.
    pub kind: NodeKind,
    /// Where it is written. For macro-expanded nodes this is the span of the text the node was
    /// copied from (in the macro body), and [`Node::site`] says which call produced it.
    pub span: Span,
    /// The expansion site that produced this node, or 0 to inherit the site of the enclosing
    /// node (0 at the top of a tree means "written directly in the input"). Expanded trees
    /// share unchanged subtrees of macro bodies, so a node's effective site is found while
    /// walking down from the root. See `zrf::expand::Sites`.
    pub site: u32,
}

impl Node {
    /// An atom node.
    pub fn atom(text: &str, span: Span) -> Node {
        Node {
            kind: NodeKind::Atom(text.into()),
            span,
            site: 0,
        }
    }
    /// The atom's text, if this is an atom.
    pub fn as_atom(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Atom(a) => Some(a),
            _ => None,
        }
    }
    /// The string's contents, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Str(s) => Some(s),
            _ => None,
        }
    }
    /// The items, if this is a list.
    pub fn as_list(&self) -> Option<&[Node]> {
        match &self.kind {
            NodeKind::List(v) => Some(v),
            _ => None,
        }
    }
    /// The head atom of a list (`game` in `(game …)`).
    pub fn head(&self) -> Option<&str> {
        self.as_list()?.first()?.as_atom()
    }
    /// The items after the head of a list (empty for non-lists).
    pub fn args(&self) -> &[Node] {
        match self.as_list() {
            Some([_, rest @ ..]) => rest,
            _ => &[],
        }
    }
    /// Number of nodes in this subtree (itself included).
    pub fn count(&self) -> usize {
        match &self.kind {
            NodeKind::List(v) => 1 + v.iter().map(Node::count).sum::<usize>(),
            _ => 1,
        }
    }
    /// Writes the node compactly (`(a "b" (c))`): single spaces, strings verbatim.
    pub fn write_compact(&self, out: &mut String) {
        match &self.kind {
            NodeKind::Atom(a) => out.push_str(a),
            NodeKind::Str(s) => {
                out.push('"');
                out.push_str(s);
                out.push('"');
            }
            NodeKind::List(v) => {
                out.push('(');
                for (i, n) in v.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    n.write_compact(out);
                }
                out.push(')');
            }
        }
    }
    /// Writes the node indented: a list that fits in `width` columns stays on one line,
    /// otherwise its head stays on the opening line and each further item gets its own line,
    /// indented by two spaces. Strings are written verbatim.
    pub fn write_pretty(&self, out: &mut String, indent: usize, width: usize) {
        let compact = self.to_compact();
        let items = match &self.kind {
            NodeKind::List(v) if indent + compact.len() > width && v.len() > 1 => v,
            _ => {
                out.push_str(&compact);
                return;
            }
        };
        out.push('(');
        items[0].write_pretty(out, indent + 1, width);
        for n in &items[1..] {
            out.push('\n');
            out.extend(std::iter::repeat_n(' ', indent + 2));
            n.write_pretty(out, indent + 2, width);
        }
        out.push(')');
    }
    /// [`Node::write_compact`] into a new string.
    pub fn to_compact(&self) -> String {
        let mut s = String::new();
        self.write_compact(&mut s);
        s
    }
}

/// Parser limits.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Deepest list nesting accepted.
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_depth: 256 }
    }
}

/// The parse of one file: top-level nodes, the lossless token stream and diagnostics.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// Top-level forms, in order.
    pub nodes: Vec<Node>,
    /// Tokens covering the whole text.
    pub tokens: Vec<Token>,
    /// Problems found (errors are recovered from).
    pub diagnostics: Vec<Diagnostic>,
}

/// Unclosed lists at the end of the input that get an error each (innermost first); the outermost
/// one's error counts the rest.
const MAX_UNCLOSED_REPORTED: usize = 8;

/// Parses `text` (registered as `file`) into nodes. Never panics; recovers from stray `)`,
/// unclosed `(`, unterminated strings and excessive nesting, reporting each.
pub fn parse(text: &str, file: FileId, limits: Limits) -> Parsed {
    let tokens = tokenize(text);
    let mut diagnostics = Vec::new();
    let mut stack: Vec<(u32, Vec<Node>)> = Vec::new();
    let mut top: Vec<Node> = Vec::new();
    // Nesting beyond the limit: count how deep we are in skipped lists.
    let mut skipped_depth = 0usize;
    let mut reported_depth = false;
    let mut reported_space = false;
    for t in &tokens {
        let span = Span {
            file,
            start: t.start,
            end: t.end,
        };
        if skipped_depth > 0 {
            match t.kind {
                TokenKind::Open => skipped_depth += 1,
                TokenKind::Close => skipped_depth -= 1,
                _ => {}
            }
            continue;
        }
        let node = match t.kind {
            TokenKind::Whitespace => {
                if !reported_space && !t.text(text).is_ascii() {
                    reported_space = true;
                    diagnostics.push(unicode_space(t, text, file));
                }
                continue;
            }
            TokenKind::Comment => continue,
            TokenKind::Open => {
                if stack.len() >= limits.max_depth {
                    if !reported_depth {
                        reported_depth = true;
                        diagnostics.push(Diagnostic::error(
                            "zrf::too-deep",
                            format!(
                                "lists nested deeper than {} levels; the deeper part is skipped",
                                limits.max_depth
                            ),
                            span,
                        ));
                    }
                    skipped_depth = 1;
                    continue;
                }
                stack.push((t.start, Vec::new()));
                continue;
            }
            TokenKind::Close => match stack.pop() {
                Some((start, items)) => Node {
                    kind: NodeKind::List(items.into()),
                    span: Span {
                        file,
                        start,
                        end: t.end,
                    },
                    site: 0,
                },
                None => {
                    diagnostics.push(Diagnostic::error(
                        "zrf::unbalanced-paren",
                        "this `)` closes nothing; it is ignored",
                        span,
                    ));
                    continue;
                }
            },
            TokenKind::Str => string_node(t, text, span, &mut diagnostics),
            TokenKind::Atom => Node::atom(t.text(text), span),
        };
        match stack.last_mut() {
            Some((_, items)) => items.push(node),
            None => top.push(node),
        }
    }
    close_unclosed(stack, &mut top, text, file, &mut diagnostics);
    Parsed {
        nodes: top,
        tokens,
        diagnostics,
    }
}

/// The warning for the first non-ASCII character of whitespace token `t`: Zillions may not
/// read it as a space.
fn unicode_space(t: &Token, text: &str, file: FileId) -> Diagnostic {
    let off = t.text(text).find(|c: char| !c.is_ascii()).unwrap_or(0) as u32;
    let ch = t.text(text)[off as usize..].chars().next().unwrap_or(' ');
    Diagnostic::warning(
        "zrf::unicode-space",
        format!(
            "U+{:04X} outside a string is read as a space (Zillions may not)",
            ch as u32
        ),
        Span {
            file,
            start: t.start + off,
            end: t.start + off + ch.len_utf8() as u32,
        },
    )
}

/// The string of token `t` without its quotes (an unterminated one is reported).
fn string_node(t: &Token, text: &str, span: Span, diagnostics: &mut Vec<Diagnostic>) -> Node {
    let s = t.text(text);
    let terminated = s.len() >= 2 && s.ends_with('"');
    if !terminated {
        diagnostics.push(Diagnostic::error(
            "zrf::unterminated-string",
            "string is never closed: expected `\"` before the end of the file",
            Span {
                file: span.file,
                start: t.start,
                end: t.start + 1,
            },
        ));
    }
    let inner = if terminated {
        &s[1..s.len() - 1]
    } else {
        &s[1..]
    };
    Node {
        kind: NodeKind::Str(inner.into()),
        span,
        site: 0,
    }
}

/// Closes the lists still open at the end of `text` (`stack`, outermost first), each into its
/// parent or `top`.
fn close_unclosed(
    mut stack: Vec<(u32, Vec<Node>)>,
    top: &mut Vec<Node>,
    text: &str,
    file: FileId,
    diagnostics: &mut Vec<Diagnostic>,
) {
    // Close what is still open at end of input, innermost first.
    // Each of the first few gets its own error; the rest are counted in one, at the outermost.
    let unclosed = stack.len();
    while let Some((start, items)) = stack.pop() {
        let reported = unclosed - stack.len();
        if reported <= MAX_UNCLOSED_REPORTED || stack.is_empty() {
            let message = if reported <= MAX_UNCLOSED_REPORTED {
                "this `(` is never closed: expected `)` before the end of the file".to_string()
            } else {
                format!(
                    "this `(` and {} more after it are never closed: expected `)` before the end of the file",
                    unclosed - MAX_UNCLOSED_REPORTED - 1
                )
            };
            diagnostics.push(Diagnostic::error(
                "zrf::unclosed-paren",
                message,
                Span {
                    file,
                    start,
                    end: start + 1,
                },
            ));
        }
        let node = Node {
            kind: NodeKind::List(items.into()),
            span: Span {
                file,
                start,
                end: text.len() as u32,
            },
            site: 0,
        };
        match stack.last_mut() {
            Some((_, parent)) => parent.push(node),
            None => top.push(node),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Parsed {
        parse(s, FileId(0), Limits::default())
    }

    #[test]
    fn tokens_reemit_the_exact_text() {
        let src = "; c\r\n(game (title \"a\\b\r\n c;(\")\t01 $1Dragon 'x' empty?) ; tail\n\u{A0}";
        let toks = tokenize(src);
        assert_eq!(untokenize(src, &toks), src);
        let kinds: Vec<_> = toks.iter().map(|t| t.kind).collect();
        assert_eq!(kinds[0], TokenKind::Comment);
        assert!(toks.iter().any(|t| t.text(src) == "\"a\\b\r\n c;(\""));
        assert!(toks.iter().any(|t| t.text(src) == "01"));
        assert!(toks.iter().any(|t| t.text(src) == "'x'"));
    }

    #[test]
    fn tree_keeps_atoms_strings_and_spans() {
        let r = p("(piece (name N$1) (help \"x\\y\"))");
        assert!(r.diagnostics.is_empty());
        let piece = &r.nodes[0];
        assert_eq!(piece.head(), Some("piece"));
        assert_eq!(piece.args()[0].args()[0].as_atom(), Some("N$1"));
        assert_eq!(piece.args()[1].args()[0].as_str(), Some("x\\y"));
        assert_eq!(piece.args()[0].span.start, 7);
        assert_eq!(piece.span.end as usize, 31);
        assert_eq!(piece.to_compact(), "(piece (name N$1) (help \"x\\y\"))");
    }

    #[test]
    fn stray_close_and_unclosed_open_are_recovered_and_reported() {
        let r = p("(a (b)) ) (c (d (e)");
        let codes: Vec<_> = r.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(
            codes,
            [
                "zrf::unbalanced-paren",
                "zrf::unclosed-paren",
                "zrf::unclosed-paren"
            ]
        );
        assert_eq!(r.nodes.len(), 2);
        assert_eq!(r.nodes[1].to_compact(), "(c (d (e)))");
        assert_eq!(r.diagnostics[0].span.unwrap().start, 8);
        assert_eq!(r.diagnostics[1].span.unwrap().start, 13);
        assert_eq!(r.diagnostics[2].span.unwrap().start, 10);
    }

    #[test]
    fn unterminated_string_points_at_its_quote() {
        let r = p("(title \"abc\n(x)");
        assert_eq!(r.diagnostics[0].code, "zrf::unterminated-string");
        assert_eq!(r.diagnostics[0].span.unwrap().start, 7);
    }

    #[test]
    fn a_million_open_parens_do_not_overflow() {
        let src = "(".repeat(1_000_000);
        let r = p(&src);
        assert!(r.diagnostics.iter().any(|d| d.code == "zrf::too-deep"));
        assert!(
            r.diagnostics
                .iter()
                .any(|d| d.code == "zrf::unclosed-paren")
        );
        assert_eq!(untokenize(&src, &r.tokens), src);
    }

    #[test]
    fn nbsp_outside_strings_is_whitespace_with_a_warning() {
        let r = p("(a\u{A0}b)");
        assert_eq!(r.nodes[0].as_list().unwrap().len(), 2);
        assert_eq!(r.diagnostics[0].code, "zrf::unicode-space");
    }

    #[test]
    fn a_million_unclosed_lists_give_a_bounded_number_of_errors() {
        let r = p(&"(".repeat(1_000_000));
        let unclosed: Vec<_> = r
            .diagnostics
            .iter()
            .filter(|d| d.code == "zrf::unclosed-paren")
            .collect();
        assert_eq!(unclosed.len(), MAX_UNCLOSED_REPORTED + 1);
        let last = unclosed.last().unwrap();
        assert_eq!(last.span.unwrap().start, 0, "the outermost list");
        assert!(last.message.contains("and 247 more"), "{}", last.message);
        assert_eq!(
            r.diagnostics
                .iter()
                .filter(|d| d.code == "zrf::too-deep")
                .count(),
            1
        );
    }
}
