//! `.lud` syntax: a tokenizer and an iterative, depth-limited parser into a span-carrying tree.
//!
//! Lexical rules (`notes/ludii.md` §2.1): `//` comments to end of line; `( … )` classes,
//! `{ … }` arrays; `"…"` strings with `\"` escapes; `name:value` named arguments (a lower-case
//! name immediately followed by `:`); option references `<Tag>` / `<Tag:arg>`; option values
//! `<…>` inside `(item …)`; every other run of characters is an atom (enum constants, integers,
//! floats, booleans, `#1`, `~`, `**`, `3..5`, `..`). After `(`, a run of `<>=!` characters is
//! an operator atom (`(<= a b)`).

use crate::diag::{Diagnostic, FileId, Span};
use std::fmt::Write as _;

/// Diagnostic code: a parenthesis, brace or angle bracket without its partner.
pub const CODE_UNBALANCED: &str = "ludii::unbalanced";
/// Diagnostic code: nesting deeper than [`MAX_DEPTH`].
pub const CODE_TOO_DEEP: &str = "ludii::too-deep";
/// Diagnostic code: a string without its closing quote.
pub const CODE_UNTERMINATED: &str = "ludii::unterminated-string";
/// Diagnostic code: a `name:` with nothing after it.
pub const CODE_BAD_NAMED: &str = "ludii::bad-named-argument";

/// Deepest nesting of classes, arrays and angle groups the parser accepts.
pub const MAX_DEPTH: usize = 200;

/// One node of a `.lud` tree.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// `(head args…)`: the first item is the head (an atom, or a string for macro calls).
    List(Vec<Node>, Span),
    /// `{ items… }`.
    Array(Vec<Node>, Span),
    /// `< items… >`: an option value inside `(item …)`.
    Angle(Vec<Node>, Span),
    /// `<Tag>` or `<Tag:arg>`: a use of an option value.
    OptRef(String, Option<String>, Span),
    /// A bare word: enum constant, number, boolean, `#1`, `~`, `..`.
    Atom(String, Span),
    /// A string, unescaped.
    Str(String, Span),
    /// `name:value`.
    Named(String, Box<Node>, Span),
}

impl Node {
    /// How many nodes this one holds, itself included.
    pub fn size(&self) -> usize {
        match self {
            Node::List(v, _) | Node::Array(v, _) | Node::Angle(v, _) => {
                1 + v.iter().map(Node::size).sum::<usize>()
            }
            Node::Named(_, v, _) => 1 + v.size(),
            _ => 1,
        }
    }
    /// Where the node is.
    pub fn span(&self) -> Span {
        match self {
            Node::List(_, s)
            | Node::Array(_, s)
            | Node::Angle(_, s)
            | Node::OptRef(_, _, s)
            | Node::Atom(_, s)
            | Node::Str(_, s)
            | Node::Named(_, _, s) => *s,
        }
    }
    /// The head atom of a class (`move` in `(move Step …)`).
    pub fn head(&self) -> Option<&str> {
        match self {
            Node::List(items, _) => match items.first() {
                Some(Node::Atom(a, _)) => Some(a),
                _ => None,
            },
            _ => None,
        }
    }
    /// The items of a class after its head, or of an array.
    pub fn args(&self) -> &[Node] {
        match self {
            Node::List(items, _) if !items.is_empty() => &items[1..],
            Node::Array(items, _) => items,
            _ => &[],
        }
    }
    /// The text of an atom.
    pub fn atom(&self) -> Option<&str> {
        match self {
            Node::Atom(a, _) => Some(a),
            _ => None,
        }
    }
    /// The text of a string.
    pub fn str(&self) -> Option<&str> {
        match self {
            Node::Str(a, _) => Some(a),
            _ => None,
        }
    }
    /// The value of the named argument `name` among this class's arguments.
    pub fn named(&self, name: &str) -> Option<&Node> {
        self.args().iter().find_map(|a| match a {
            Node::Named(n, v, _) if n == name => Some(&**v),
            _ => None,
        })
    }
    /// Arguments that are not named.
    pub fn positional(&self) -> impl Iterator<Item = &Node> {
        self.args().iter().filter(|a| !matches!(a, Node::Named(..)))
    }
}

/// Prints a node compactly in `.lud` syntax (one line, single spaces).
pub fn print(node: &Node) -> String {
    let mut out = String::new();
    print_into(node, &mut out);
    out
}

fn print_seq(items: &[Node], out: &mut String) {
    for (i, n) in items.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        print_into(n, out);
    }
}

fn print_into(node: &Node, out: &mut String) {
    // Iterative printing is not needed: trees are depth-limited by the parser and expander.
    match node {
        Node::List(items, _) => {
            out.push('(');
            print_seq(items, out);
            out.push(')');
        }
        Node::Array(items, _) => {
            out.push('{');
            print_seq(items, out);
            out.push('}');
        }
        Node::Angle(items, _) => {
            out.push('<');
            print_seq(items, out);
            out.push('>');
        }
        Node::OptRef(t, a, _) => {
            let _ = match a {
                Some(a) => write!(out, "<{t}:{a}>"),
                None => write!(out, "<{t}>"),
            };
        }
        Node::Atom(a, _) => out.push_str(a),
        Node::Str(s, _) => quote_into(s, out),
        Node::Named(n, v, _) => {
            out.push_str(n);
            out.push(':');
            print_into(v, out);
        }
    }
}

/// Prints a node in `.lud` syntax over several lines: a form that fits in `width` columns after
/// `indent` stays on one line; otherwise its head and leading simple arguments stay on the first
/// line and every further argument gets its own line, indented four more spaces.
pub fn pretty(node: &Node, indent: usize, width: usize) -> String {
    let mut out = String::new();
    pretty_into(node, indent, width, &mut out);
    out
}

fn simple(n: &Node) -> bool {
    match n {
        Node::Atom(..) | Node::Str(..) | Node::OptRef(..) => true,
        Node::Named(_, v, _) => simple(v),
        _ => false,
    }
}

fn pretty_into(node: &Node, indent: usize, width: usize, out: &mut String) {
    let flat = print(node);
    if indent + flat.len() <= width {
        out.push_str(&flat);
        return;
    }
    let pad = " ".repeat(indent + 4);
    match node {
        Node::List(items, _) | Node::Array(items, _) => {
            let (open, close) = if matches!(node, Node::List(..)) {
                ('(', ')')
            } else {
                ('{', '}')
            };
            out.push(open);
            let mut i = 0;
            if open == '(' {
                while i < items.len() && simple(&items[i]) {
                    if i > 0 {
                        out.push(' ');
                    }
                    print_into(&items[i], out);
                    i += 1;
                }
            }
            for n in &items[i..] {
                out.push('\n');
                out.push_str(&pad);
                pretty_into(n, indent + 4, width, out);
            }
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            out.push(close);
        }
        Node::Named(name, v, _) => {
            out.push_str(name);
            out.push(':');
            pretty_into(v, indent, width, out);
        }
        other => print_into(other, out),
    }
}

/// Writes `s` as a `.lud` string literal.
pub fn quote_into(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        if c == '"' {
            out.push_str("\\\"");
        } else {
            out.push(c);
        }
    }
    out.push('"');
}

/// Nesting depth of a node (1 for a leaf).
pub fn depth(node: &Node) -> usize {
    let mut max = 0;
    let mut stack = vec![(node, 1usize)];
    while let Some((n, d)) = stack.pop() {
        max = max.max(d);
        match n {
            Node::List(items, _) | Node::Array(items, _) | Node::Angle(items, _) => {
                stack.extend(items.iter().map(|c| (c, d + 1)))
            }
            Node::Named(_, v, _) => stack.push((v, d + 1)),
            _ => {}
        }
    }
    max
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    List,
    Array,
    Angle,
}

struct Frame {
    kind: Kind,
    start: usize,
    items: Vec<Node>,
    /// A `name:` waiting for its value: name and start offset.
    named: Option<(String, usize)>,
}

impl Frame {
    fn push(&mut self, node: Node, file: FileId) {
        match self.named.take() {
            Some((name, start)) => {
                let end = node.span().end as usize;
                self.items.push(Node::Named(
                    name,
                    Box::new(node),
                    Span::new(file, start, end),
                ));
            }
            None => self.items.push(node),
        }
    }
}

fn is_delim(c: u8) -> bool {
    c.is_ascii_whitespace() || matches!(c, b'(' | b')' | b'{' | b'}' | b'"')
}

/// Parses `.lud` text into top-level nodes. Never fails and never recurses: problems are
/// reported and recovered from.
pub fn parse(text: &str, file: FileId) -> (Vec<Node>, Vec<Diagnostic>) {
    let mut p = Parser {
        text,
        b: text.as_bytes(),
        file,
        diags: Vec::new(),
        stack: vec![Frame {
            kind: Kind::Array,
            start: 0,
            items: Vec::new(),
            named: None,
        }],
        skipping: 0,
        i: 0,
    };
    while p.i < p.b.len() {
        let c = p.b[p.i];
        if p.skip_blank(c) {
            continue;
        }
        let top_kind = p.stack.last().map(|f| f.kind).unwrap_or(Kind::Array);
        let opener = match c {
            b'(' => Some(Kind::List),
            b'{' => Some(Kind::Array),
            _ => None,
        };
        // Option reference `<Tag>` / `<Tag:arg>`.
        if c == b'<' && p.opt_ref_or_operator() {
            continue;
        }
        let opener = opener.or(if c == b'<' { Some(Kind::Angle) } else { None });
        if let Some(kind) = opener {
            p.open(kind);
            continue;
        }
        let closer = match c {
            b')' => Some(Kind::List),
            b'}' => Some(Kind::Array),
            b'>' if top_kind == Kind::Angle && p.stack.len() > 1 => Some(Kind::Angle),
            _ => None,
        };
        if let Some(kind) = closer {
            p.close(kind, c);
        } else if c == b'"' {
            p.string();
        } else {
            p.word(top_kind);
        }
    }
    p.finish()
}

/// The state of [`parse`]: the text, the position, the open groups and what was reported.
struct Parser<'t> {
    text: &'t str,
    b: &'t [u8],
    file: FileId,
    diags: Vec<Diagnostic>,
    /// The open groups, the outermost (the top level) first.
    stack: Vec<Frame>,
    /// Depth of ignored nesting after a too-deep report.
    skipping: usize,
    i: usize,
}

impl Kind {
    /// The character that opens a group of this kind.
    fn opener(self) -> char {
        match self {
            Kind::List => '(',
            Kind::Array => '{',
            Kind::Angle => '<',
        }
    }
}

impl Frame {
    /// The closed group as a node over `span`.
    fn node(self, span: Span) -> Node {
        match self.kind {
            Kind::List => Node::List(self.items, span),
            Kind::Array => Node::Array(self.items, span),
            Kind::Angle => Node::Angle(self.items, span),
        }
    }
}

impl Parser<'_> {
    fn sp(&self, s: usize, e: usize) -> Span {
        Span::new(self.file, s, e)
    }

    /// `node` into the innermost open group, unless inside an ignored too-deep part.
    fn emit(&mut self, node: Node) {
        if self.skipping == 0 {
            self.stack.last_mut().unwrap().push(node, self.file);
        }
    }

    /// Skips whitespace (Unicode too) or a `//` comment at `c`; whether it did.
    fn skip_blank(&mut self, c: u8) -> bool {
        let b = self.b;
        if c.is_ascii_whitespace() {
            self.i += 1;
            return true;
        }
        if c == b'/' && b.get(self.i + 1) == Some(&b'/') {
            while self.i < b.len() && !matches!(b[self.i], b'\n' | b'\r') {
                self.i += 1;
            }
            return true;
        }
        if !c.is_ascii() {
            // Unicode whitespace counts as whitespace; other characters start atoms.
            let ch = self.text[self.i..].chars().next().unwrap_or(' ');
            if ch.is_whitespace() {
                self.i += ch.len_utf8();
                return true;
            }
        }
        false
    }

    /// At `<`: an option reference `<Tag>` / `<Tag:arg>`, or a comparison operator (`<`, `<=`
    /// …) right after `(`; whether it was one (then it is read).
    fn opt_ref_or_operator(&mut self) -> bool {
        let (b, i) = (self.b, self.i);
        // `(<Tag:arg> …)` is an option use in head position, not the operator `<`.
        if let Some(len) = opt_ref_len(&b[i..]) {
            let inner = &self.text[i + 1..i + len - 1];
            let (tag, arg) = match inner.split_once(':') {
                Some((t, a)) => (t.to_string(), Some(a.to_string())),
                None => (inner.to_string(), None),
            };
            self.emit(Node::OptRef(tag, arg, self.sp(i, i + len)));
            self.i += len;
            return true;
        }
        let after_open = self
            .stack
            .last()
            .is_some_and(|f| f.kind == Kind::List && f.items.is_empty() && f.named.is_none());
        if !after_open {
            return false;
        }
        while self.i < b.len() && matches!(b[self.i], b'<' | b'>' | b'=' | b'!') {
            self.i += 1;
        }
        self.emit(Node::Atom(
            self.text[i..self.i].to_string(),
            self.sp(i, self.i),
        ));
        true
    }

    /// Opens a group of `kind` (or, too deep, reports it once and ignores it).
    fn open(&mut self, kind: Kind) {
        let i = self.i;
        if self.skipping > 0 || self.stack.len() > MAX_DEPTH {
            if self.skipping == 0 {
                self.diags.push(Diagnostic::error(
                    CODE_TOO_DEEP,
                    format!("nesting deeper than {MAX_DEPTH} levels; the inner part is ignored"),
                    self.sp(i, i + 1),
                ));
            }
            self.skipping += 1;
        } else {
            self.stack.push(Frame {
                kind,
                start: i,
                items: Vec::new(),
                named: None,
            });
        }
        self.i += 1;
    }

    /// Closes the innermost group with `c`, which closes a group of `kind`.
    fn close(&mut self, kind: Kind, c: u8) {
        let i = self.i;
        self.i += 1;
        if self.skipping > 0 {
            self.skipping -= 1;
            return;
        }
        if self.stack.len() == 1 {
            self.diags.push(Diagnostic::error(
                CODE_UNBALANCED,
                format!("unexpected `{}` with nothing open", c as char),
                self.sp(i, i + 1),
            ));
            return;
        }
        let f = self.stack.pop().unwrap();
        if f.kind != kind {
            self.diags.push(
                Diagnostic::error(
                    CODE_UNBALANCED,
                    format!("`{}` closes `{}`", c as char, f.kind.opener()),
                    self.sp(i, i + 1),
                )
                .with_note(Some(self.sp(f.start, f.start + 1)), "opened here"),
            );
        }
        if let Some((n, s)) = &f.named {
            self.diags.push(Diagnostic::error(
                CODE_BAD_NAMED,
                format!("`{n}:` has no value"),
                self.sp(*s, s + n.len() + 1),
            ));
        }
        let span = self.sp(f.start, i + 1);
        self.stack.last_mut().unwrap().push(f.node(span), self.file);
    }

    /// A `"…"` string (`\"` escapes a quote).
    fn string(&mut self) {
        let (b, text) = (self.b, self.text);
        let s = self.i;
        let mut i = s + 1;
        let mut val = String::new();
        let mut closed = false;
        while i < b.len() {
            match b[i] {
                b'\\' if b.get(i + 1) == Some(&b'"') => {
                    val.push('"');
                    i += 2;
                }
                b'"' => {
                    i += 1;
                    closed = true;
                    break;
                }
                _ => {
                    let ch = text[i..].chars().next().unwrap_or('\u{fffd}');
                    val.push(ch);
                    i += ch.len_utf8().max(1);
                }
            }
        }
        self.i = i;
        if !closed {
            self.diags.push(Diagnostic::error(
                CODE_UNTERMINATED,
                "string without its closing `\"`",
                self.sp(s, s + 1),
            ));
        }
        self.emit(Node::Str(val, self.sp(s, i)));
    }

    /// A word: up to a delimiter, or `>` when inside an angle group, or `<`; `name:` starts a
    /// named argument.
    fn word(&mut self, top_kind: Kind) {
        let (b, text) = (self.b, self.text);
        let s = self.i;
        let mut i = s;
        while i < b.len() {
            let d = b[i];
            if is_delim(d) || (d == b'>' && top_kind == Kind::Angle) || (d == b'<' && i > s) {
                break;
            }
            if d == b'/' && b.get(i + 1) == Some(&b'/') {
                break;
            }
            if !d.is_ascii() {
                let ch = text[i..].chars().next().unwrap_or(' ');
                if ch.is_whitespace() {
                    break;
                }
                i += ch.len_utf8();
                continue;
            }
            i += 1;
        }
        if i == s {
            // A lone `>` outside an angle group.
            i += 1;
        }
        self.i = i;
        if self.skipping > 0 {
            return;
        }
        let word = &text[s..i];
        let file = self.file;
        let sp = |s, e| Span::new(file, s, e);
        let f = self.stack.last_mut().unwrap();
        if let Some((name, rest)) = named_split(word) {
            if f.named.is_some() {
                self.diags.push(Diagnostic::error(
                    CODE_BAD_NAMED,
                    format!("`{name}:` follows another `name:` without a value"),
                    sp(s, i),
                ));
            }
            f.named = Some((name.to_string(), s));
            if !rest.is_empty() {
                let rs = s + name.len() + 1;
                f.push(Node::Atom(rest.to_string(), sp(rs, i)), file);
            }
            return;
        }
        f.push(Node::Atom(word.to_string(), sp(s, i)), file);
    }

    /// Closes every group left open at the end of the text, reporting each.
    fn finish(mut self) -> (Vec<Node>, Vec<Diagnostic>) {
        while self.stack.len() > 1 {
            let f = self.stack.pop().unwrap();
            self.diags.push(Diagnostic::error(
                CODE_UNBALANCED,
                format!("`{}` is never closed", f.kind.opener()),
                self.sp(f.start, f.start + 1),
            ));
            let span = self.sp(f.start, self.text.len());
            self.stack.last_mut().unwrap().push(f.node(span), self.file);
        }
        let root = self.stack.pop().unwrap();
        (root.items, self.diags)
    }
}

/// Length of `<Tag>` / `<Tag:arg>` at the start of `b`, if it is one.
fn opt_ref_len(b: &[u8]) -> Option<usize> {
    if b.len() < 3 || !b[1].is_ascii_alphabetic() {
        return None;
    }
    let mut i = 1;
    let mut colon = false;
    while i < b.len() {
        match b[i] {
            b'>' => return Some(i + 1),
            b':' if !colon => colon = true,
            c if c.is_ascii_alphanumeric() || c == b'_' || c == b'-' => {}
            _ => return None,
        }
        i += 1;
    }
    None
}

/// Splits `name:rest` when `name` is a named-argument name (lower-case initial, alphanumeric).
fn named_split(word: &str) -> Option<(&str, &str)> {
    let (name, rest) = word.split_once(':')?;
    let mut cs = name.chars();
    let first = cs.next()?;
    if !first.is_ascii_lowercase() || !cs.all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    Some((name, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> (Vec<Node>, Vec<Diagnostic>) {
        parse(s, FileId(0))
    }

    #[test]
    fn tokens_of_every_kind() {
        let (n, d) = p(
            "(game \"X\" // c\n (board (square 8) use:Vertex) {1 2.5 True} if:(is Empty (to)) coord:\"E1\" <Board:size> (<= a b) (item \"n\" <8> \"d\")** 3..5 \"a \\\"q\\\"\")",
        );
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(n.len(), 1);
        let printed = print(&n[0]);
        assert_eq!(
            printed,
            "(game \"X\" (board (square 8) use:Vertex) {1 2.5 True} if:(is Empty (to)) coord:\"E1\" <Board:size> (<= a b) (item \"n\" <8> \"d\") ** 3..5 \"a \\\"q\\\"\")"
        );
        // Reparsing the printed form gives the same tree shape.
        let (n2, d2) = p(&printed);
        assert!(d2.is_empty());
        assert_eq!(print(&n2[0]), printed);
    }

    #[test]
    fn unbalanced_and_deep_input_is_reported_not_fatal() {
        let (_, d) = p("(game (board )");
        assert_eq!(d[0].code, CODE_UNBALANCED);
        let (_, d) = p("(a))");
        assert_eq!(d[0].code, CODE_UNBALANCED);
        let deep = "(".repeat(100_000) + &")".repeat(100_000);
        let (n, d) = p(&deep);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, CODE_TOO_DEEP);
        assert!(depth(&n[0]) <= MAX_DEPTH + 1);
        let (_, d) = p("(a \"open");
        assert!(d.iter().any(|x| x.code == CODE_UNTERMINATED));
    }
}
