//! The fast path of [`super::from_str`]: a streaming serde `Deserializer` for exactly the style
//! [`super::to_string`] writes, which gives up (returns `None`) on anything else.
//!
//! `yaml_serde` first turns a document into a vector of owned events and then deserializes those,
//! so reading back the corpus's 47 MB of YAML cost seconds. This reader deserializes straight
//! from the text, borrowing unescaped strings, and replays an alias by parsing its anchored
//! block again from where it starts.
//!
//! It accepts a strict subset of YAML, and only where it is sure of the meaning: block maps and
//! sequences indented as the emitter indents them, flow collections on one line or wrapped
//! after a `,` onto lines indented as the emitter indents them, double-quoted strings with the
//! emitter's escapes, plain strings that [`super::plain::is_plain`] allows (as keys and
//! values), the plain scalars `null`, `true`, `false`, decimal integers and the emitter's
//! floats, anchors on map values that are block collections, and aliases as map values. No
//! comments, tags, directives, other plain scalars, block scalars, multi-line scalars, tabs or
//! `\r`. Whenever the text leaves that subset, a value does not fit the
//! type, a map repeats a key, or a limit would be reached, it returns `None` and the general
//! reader reads the text instead; that reader gives every located error. So the fast path never
//! decides whether a document is valid; it only reads documents it can read exactly as
//! `yaml_serde` (through [`super::enums`]) would. `tests.rs` compares the two on the whole corpus.

use super::plain::is_plain;
use super::{MAX_IMPLICIT_KEY_BYTES, ReadLimits};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::de::value::{BorrowedStrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, Visitor};
use std::borrow::Cow;
use std::fmt;

/// Collections (and newtypes, options and enum contents) nested deeper than this make the fast
/// path give up; `yaml_serde` allows 128, so the general reader decides near its own limit.
const MAX_DEPTH: usize = 100;

/// `yaml_serde` fails a document whose alias replays exceed 100 per event; the fast path gives
/// up well before (replays counted against nodes read from the text, which are fewer than
/// events).
const MAX_REPLAYS_PER_NODE: u64 = 100;

/// Reads `text` as a `T` if it is in the emitter's style and fits; `None` otherwise.
pub(super) fn read<T: de::DeserializeOwned>(text: &str, limits: &ReadLimits) -> Option<T> {
    let mut r = Reader {
        b: text.as_bytes(),
        text,
        pos: 0,
        anchors: FxHashMap::default(),
        budget: (text.len() as u64)
            .saturating_mul(2)
            .saturating_add(16)
            .saturating_add(limits.max_alias_nodes),
        direct: 0,
        alias_left: limits.max_alias_nodes,
        replays: 0,
        replaying: 0,
        depth: 0,
        keys: Vec::new(),
    };
    let value = T::deserialize(De {
        r: &mut r,
        ctx: Ctx::Root,
        begun: None,
    })
    .ok()?;
    (r.pos == r.b.len() && r.replays <= r.direct.saturating_mul(MAX_REPLAYS_PER_NODE))
        .then_some(value)
}

/// Why the fast path gave up. It carries nothing: the general reader explains.
#[derive(Debug)]
pub(super) struct Unfit;

impl fmt::Display for Unfit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not in the emitter's style")
    }
}

impl std::error::Error for Unfit {}

impl de::Error for Unfit {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Unfit
    }
}

type Res<T> = Result<T, Unfit>;

/// A block collection whose anchor was seen: where its first line starts and its column.
#[derive(Clone, Copy)]
struct Anchor {
    start: usize,
    col: usize,
    /// The anchored collection has been read to its end (an alias inside it would recurse).
    done: bool,
}

struct Reader<'t> {
    b: &'t [u8],
    text: &'t str,
    pos: usize,
    anchors: FxHashMap<&'t str, Anchor>,
    /// Nodes that may still be read (the same budget as the general reader's).
    budget: u64,
    /// Nodes read from the text itself (not through an alias).
    direct: u64,
    /// Nodes aliases may still add (`ReadLimits::max_alias_nodes`): nodes read while an
    /// alias is replayed count against it.
    alias_left: u64,
    /// Aliases replayed, nested ones included.
    replays: u64,
    /// Alias replays in progress.
    replaying: u32,
    depth: usize,
    /// Keys of the maps being read, innermost last (each map checks its own for repeats).
    keys: Vec<Cow<'t, str>>,
}

/// Where a value starts.
#[derive(Clone, Copy)]
enum Ctx {
    /// At the start of the document.
    Root,
    /// Right after `"key":` of a block map whose keys are at this column.
    MapValue(usize),
    /// Right after `- ` of a block sequence whose dashes are at this column.
    SeqItem(usize),
    /// Inside a flow collection.
    Flow,
}

/// How a collection is written.
#[derive(Clone, Copy)]
enum Style {
    /// Block style, entries at this column; the reader is at the first entry's content (after
    /// the first `- ` of a sequence, at the first key of a map).
    Block(usize),
    /// Flow style, the reader is after the opening bracket; `line` says whether the collection
    /// ends its line (block context) rather than sitting inside another flow collection, and
    /// `cont` to which column its entries may continue on further lines after a `,` (only in
    /// block context, not at the top level).
    Flow { line: bool, cont: Option<usize> },
}

/// A value whose start has been read.
enum Node<'t> {
    Str(Cow<'t, str>),
    Null,
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    Seq(Style),
    Map(Style),
}

/// What to undo once a value is read: where to continue after an alias, which anchor to close.
#[derive(Default)]
struct Lead<'t> {
    resume: Option<usize>,
    anchor: Option<&'t str>,
}

impl<'t> Reader<'t> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn eat(&mut self, byte: u8) -> Res<()> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(Unfit)
        }
    }

    /// Counts spaces from `pos` without moving.
    fn spaces_at(&self, pos: usize) -> usize {
        self.b[pos..].iter().take_while(|&&c| c == b' ').count()
    }

    /// At a line start: whether the next line continues a block collection at `col` whose
    /// entries start with `first` (then the indentation is consumed). A shallower line or the
    /// end of the text ends the collection; anything else does not fit.
    fn next_entry(&mut self, col: usize, first: &[u8]) -> Res<bool> {
        if self.pos == self.b.len() {
            return Ok(false);
        }
        let n = self.spaces_at(self.pos);
        if n < col {
            return Ok(false);
        }
        if n == col && self.b[self.pos + n..].starts_with(first) {
            self.pos += n;
            Ok(true)
        } else {
            Err(Unfit)
        }
    }

    /// At a line start: whether the next line continues a block map at `col` (its key, quoted
    /// or plain, starts there; the indentation is then consumed), as [`Self::next_entry`].
    fn next_key(&mut self, col: usize) -> Res<bool> {
        if self.pos == self.b.len() {
            return Ok(false);
        }
        let n = self.spaces_at(self.pos);
        if n < col {
            return Ok(false);
        }
        match self.b.get(self.pos + n) {
            Some(&c) if n == col && (c == b'"' || plain_start(c)) => {
                self.pos += n;
                Ok(true)
            }
            _ => Err(Unfit),
        }
    }

    /// In a flow collection closed by `close`: whether another entry follows (the reader is then
    /// at it, past the `, ` that separates it from the previous one, or the `,`, line break and
    /// indentation to `cont`), or the collection ends here (with its line, when `line`).
    fn flow_next(&mut self, close: u8, style: (bool, Option<usize>), first: bool) -> Res<bool> {
        let (line, cont) = style;
        if self.peek() == Some(close) {
            self.pos += 1;
            if line {
                self.eat(b'\n')?;
            }
            return Ok(false);
        }
        if !first {
            self.eat(b',')?;
            match (self.peek(), cont) {
                (Some(b' '), _) => self.pos += 1,
                (Some(b'\n'), Some(col)) if self.spaces_at(self.pos + 1) == col => {
                    self.pos += 1 + col;
                }
                _ => return Err(Unfit),
            }
        }
        Ok(true)
    }

    /// Index just after the closing quote of the double-quoted scalar starting at `at`.
    fn quoted_end(&self, at: usize) -> Res<usize> {
        let b = self.b;
        let mut i = at + 1;
        loop {
            match b.get(i) {
                Some(b'"') => return Ok(i + 1),
                Some(b'\\') => i += 2,
                Some(&c) if c < 0x20 || c == 0x7f => return Err(Unfit),
                Some(_) => i += 1,
                None => return Err(Unfit),
            }
        }
    }

    /// Reads a double-quoted scalar at `pos`, decoding the emitter's escapes.
    fn quoted(&mut self) -> Res<Cow<'t, str>> {
        let start = self.pos + 1;
        let end = self.quoted_end(self.pos)? - 1;
        self.pos = end + 1;
        let raw = &self.text[start..end];
        if raw.bytes().any(|c| c >= 0xc2) && has_unprintable(raw) {
            return Err(Unfit);
        }
        if !raw.contains('\\') {
            return Ok(Cow::Borrowed(raw));
        }
        let mut out = String::with_capacity(raw.len());
        let mut rest = raw;
        while let Some(i) = rest.find('\\') {
            out.push_str(&rest[..i]);
            let esc = rest.as_bytes().get(i + 1).copied().ok_or(Unfit)?;
            if !esc.is_ascii() {
                return Err(Unfit);
            }
            rest = &rest[i + 2..];
            match esc {
                b'"' => out.push('"'),
                b'\\' => out.push('\\'),
                b'n' => out.push('\n'),
                b't' => out.push('\t'),
                b'r' => out.push('\r'),
                b'u' => {
                    let hex = rest.get(..4).ok_or(Unfit)?;
                    if !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
                        return Err(Unfit);
                    }
                    let code = u32::from_str_radix(hex, 16).map_err(|_| Unfit)?;
                    out.push(char::from_u32(code).ok_or(Unfit)?);
                    rest = &rest[4..];
                }
                _ => return Err(Unfit),
            }
        }
        out.push_str(rest);
        Ok(Cow::Owned(out))
    }

    /// Where the plain key or scalar starting at `at` would end: at the first `:` or line break.
    fn plain_end(&self, at: usize) -> usize {
        self.b[at..]
            .iter()
            .position(|&c| c == b':' || c == b'\n')
            .map_or(self.b.len(), |i| at + i)
    }

    /// Reads a plain scalar ending before one of `stops`.
    fn plain(&mut self, stops: &[u8]) -> Res<Node<'t>> {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if stops.contains(&c) {
                break;
            }
            self.pos += 1;
        }
        plain_value(&self.text[start..self.pos])
    }

    /// Reads the start of the value at `ctx`: a scalar whole, a collection up to its first
    /// entry. Aliases are followed and anchors recorded (the returned [`Lead`] undoes both).
    fn begin(&mut self, ctx: Ctx) -> Res<(Node<'t>, Lead<'t>)> {
        self.budget = self.budget.checked_sub(1).ok_or(Unfit)?;
        if self.replaying == 0 {
            self.direct += 1;
        } else {
            self.alias_left = self.alias_left.checked_sub(1).ok_or(Unfit)?;
        }
        let mut lead = Lead::default();
        let node = match ctx {
            Ctx::Root => self.item(0, None)?,
            Ctx::SeqItem(col) => self.item(col + 2, Some(col + 2))?,
            Ctx::Flow => match self.peek() {
                Some(b'"') => Node::Str(self.quoted()?),
                Some(b'[') => {
                    self.pos += 1;
                    Node::Seq(Style::Flow {
                        line: false,
                        cont: None,
                    })
                }
                Some(b'{') => {
                    self.pos += 1;
                    Node::Map(Style::Flow {
                        line: false,
                        cont: None,
                    })
                }
                Some(b'*') => {
                    self.pos += 1;
                    let name = self.name()?;
                    self.replay(name, &mut lead)?
                }
                _ => self.plain(b",]}\n")?,
            },
            Ctx::MapValue(col) => match self.peek() {
                Some(b'\n') => {
                    self.pos += 1;
                    let inner = self.spaces_at(self.pos);
                    if inner <= col {
                        return Err(Unfit);
                    }
                    self.block(inner)?
                }
                Some(b' ') => {
                    self.pos += 1;
                    match self.peek() {
                        Some(b'&') | Some(b'*') => {
                            let alias = self.peek() == Some(b'*');
                            self.pos += 1;
                            let name = self.name()?;
                            self.eat(b'\n')?;
                            if alias {
                                self.replay(name, &mut lead)?
                            } else {
                                let inner = self.spaces_at(self.pos);
                                if inner <= col {
                                    return Err(Unfit);
                                }
                                match self.anchors.get(name) {
                                    // Met again while its enclosing anchor is replayed.
                                    Some(a) if a.start == self.pos && a.done => {}
                                    // Redefined (aliases would mean the latest): not ours.
                                    Some(_) => return Err(Unfit),
                                    None => {
                                        let anchor = Anchor {
                                            start: self.pos,
                                            col: inner,
                                            done: false,
                                        };
                                        self.anchors.insert(name, anchor);
                                        lead.anchor = Some(name);
                                    }
                                }
                                self.block(inner)?
                            }
                        }
                        _ => self.inline(Some(col + 2))?,
                    }
                }
                _ => return Err(Unfit),
            },
        };
        Ok((node, lead))
    }

    /// Follows the alias `name`: reads its anchored block again, then continues at the current
    /// position (set in `lead`).
    fn replay(&mut self, name: &str, lead: &mut Lead<'t>) -> Res<Node<'t>> {
        let anchor = self.anchors.get(name).ok_or(Unfit)?;
        if !anchor.done {
            return Err(Unfit);
        }
        let (start, col) = (anchor.start, anchor.col);
        self.replays += 1;
        self.replaying += 1;
        lead.resume = Some(self.pos);
        self.pos = start;
        self.block(col)
    }

    /// An anchor or alias name (letters, digits, `_` and `-`).
    fn name(&mut self) -> Res<&'t str> {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if !(c.is_ascii_alphanumeric() || c == b'_' || c == b'-') {
                break;
            }
            self.pos += 1;
        }
        if self.pos == start {
            return Err(Unfit);
        }
        Ok(&self.text[start..self.pos])
    }

    /// A block collection at the start of a line, at column `col`.
    fn block(&mut self, col: usize) -> Res<Node<'t>> {
        if self.spaces_at(self.pos) != col {
            return Err(Unfit);
        }
        self.pos += col;
        match self.b[self.pos..] {
            [b'-', b' ', ..] => {
                self.pos += 2;
                Ok(Node::Seq(Style::Block(col)))
            }
            [b'"', ..] => Ok(Node::Map(Style::Block(col))),
            [c, ..] if plain_start(c) => Ok(Node::Map(Style::Block(col))),
            _ => Err(Unfit),
        }
    }

    /// A value that starts a line's content at column `col` (the document, or after `- `):
    /// a nested sequence, a map whose first key is here, or a one-line value (a flow collection
    /// wrapped onto lines indented to `cont`, if set).
    fn item(&mut self, col: usize, cont: Option<usize>) -> Res<Node<'t>> {
        let key_end = match self.b[self.pos..] {
            [b'-', b' ', ..] => {
                self.pos += 2;
                return Ok(Node::Seq(Style::Block(col)));
            }
            [b'"', ..] => self.quoted_end(self.pos)?,
            [c, ..] if plain_start(c) => self.plain_end(self.pos),
            _ => return self.inline(cont),
        };
        if self.b.get(key_end) == Some(&b':') {
            Ok(Node::Map(Style::Block(col)))
        } else {
            self.inline(cont)
        }
    }

    /// A value on the rest of the line in block context, with its line break; a flow
    /// collection may continue on lines indented to `cont`.
    fn inline(&mut self, cont: Option<usize>) -> Res<Node<'t>> {
        let node = match self.peek() {
            Some(b'"') => Node::Str(self.quoted()?),
            Some(b'[') => {
                self.pos += 1;
                return Ok(Node::Seq(Style::Flow { line: true, cont }));
            }
            Some(b'{') => {
                self.pos += 1;
                return Ok(Node::Map(Style::Flow { line: true, cont }));
            }
            _ => self.plain(b"\n")?,
        };
        self.eat(b'\n')?;
        Ok(node)
    }

    /// Undoes a value's [`Lead`] once the value has been read.
    fn finish(&mut self, lead: Lead<'t>) {
        if let Some(name) = lead.anchor
            && let Some(a) = self.anchors.get_mut(name)
        {
            a.done = true;
        }
        if let Some(resume) = lead.resume {
            self.pos = resume;
            self.replaying -= 1;
        }
    }

    fn enter(&mut self) -> Res<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            Err(Unfit)
        } else {
            Ok(())
        }
    }
}

/// Whether `s` holds a character the emitter escapes because some reader rejects or alters it
/// (C1 controls, NBSP, U+2028, U+2029, U+FEFF, U+FFFE, U+FFFF): raw, it is not the emitter's.
fn has_unprintable(s: &str) -> bool {
    s.chars().any(|c| {
        matches!(
            c,
            '\u{80}'..='\u{a0}' | '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
        )
    })
}

/// Whether a plain key or string may start with this byte (the rest is checked by
/// [`is_plain`]).
fn plain_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c >= 0x80
}

/// The meaning of a plain scalar the emitter writes; anything else does not fit.
fn plain_value(s: &str) -> Res<Node<'_>> {
    Ok(match s {
        "null" => Node::Null,
        "true" => Node::Bool(true),
        "false" => Node::Bool(false),
        ".inf" => Node::F64(f64::INFINITY),
        "-.inf" => Node::F64(f64::NEG_INFINITY),
        ".nan" => Node::F64(f64::NAN),
        _ if is_plain(s) => Node::Str(Cow::Borrowed(s)),
        _ => {
            let digits = s.strip_prefix('-').unwrap_or(s);
            let (int, frac) = match digits.split_once('.') {
                Some((i, f)) => (i, Some(f)),
                None => (digits, None),
            };
            let canonical_int = int == "0"
                || (!int.is_empty()
                    && !int.starts_with('0')
                    && int.bytes().all(|c| c.is_ascii_digit()));
            if !canonical_int {
                return Err(Unfit);
            }
            match frac {
                None if s.starts_with('-') => {
                    if s == "-0" {
                        return Err(Unfit);
                    }
                    Node::I64(s.parse().map_err(|_| Unfit)?)
                }
                None => Node::U64(s.parse().map_err(|_| Unfit)?),
                Some(f) => {
                    let (m, e) = match f.split_once('e') {
                        Some((m, e)) => (m, Some(e)),
                        None => (f, None),
                    };
                    let exp_ok = e.is_none_or(|e| {
                        e.len() > 1
                            && matches!(e.as_bytes()[0], b'+' | b'-')
                            && e[1..].bytes().all(|c| c.is_ascii_digit())
                    });
                    if m.is_empty() || !m.bytes().all(|c| c.is_ascii_digit()) || !exp_ok {
                        return Err(Unfit);
                    }
                    // Out of range: yaml_serde reads the text as a string, not as infinity.
                    let f: f64 = s.parse().map_err(|_| Unfit)?;
                    if !f.is_finite() {
                        return Err(Unfit);
                    }
                    Node::F64(f)
                }
            }
        }
    })
}

/// The deserializer of one value at `ctx` (or of a value already begun).
struct De<'a, 't> {
    r: &'a mut Reader<'t>,
    ctx: Ctx,
    begun: Option<(Node<'t>, Lead<'t>)>,
}

/// What the caller asked for, where it changes how a node is handed over.
#[derive(Clone, Copy, PartialEq)]
enum Want {
    Any,
    Option,
    Enum,
}

impl<'t> De<'_, 't> {
    fn start(&mut self) -> Res<(Node<'t>, Lead<'t>)> {
        match self.begun.take() {
            Some(b) => Ok(b),
            None => self.r.begin(self.ctx),
        }
    }

    fn visit<'de, V: Visitor<'de>>(mut self, want: Want, visitor: V) -> Res<V::Value>
    where
        't: 'de,
    {
        let (node, lead) = self.start()?;
        let value = match node {
            Node::Null if want == Want::Option => visitor.visit_none()?,
            _ if want == Want::Option => {
                self.r.enter()?;
                let v = visitor.visit_some(De {
                    r: &mut *self.r,
                    ctx: self.ctx,
                    begun: Some((node, lead)),
                })?;
                self.r.depth -= 1;
                return Ok(v);
            }
            Node::Str(s) if want == Want::Enum => match s {
                Cow::Borrowed(s) => visitor.visit_enum(BorrowedStrDeserializer::<Unfit>::new(s))?,
                Cow::Owned(s) => visitor.visit_enum(StringDeserializer::<Unfit>::new(s))?,
            },
            Node::Map(style) if want == Want::Enum => {
                self.r.enter()?;
                let mut access = MapAccess::new(&mut *self.r, style);
                let v = visitor.visit_enum(&mut access)?;
                access.end()?;
                self.r.depth -= 1;
                v
            }
            _ if want == Want::Enum => return Err(Unfit),
            Node::Str(Cow::Borrowed(s)) => visitor.visit_borrowed_str(s)?,
            Node::Str(Cow::Owned(s)) => visitor.visit_string(s)?,
            Node::Null => visitor.visit_unit()?,
            Node::Bool(b) => visitor.visit_bool(b)?,
            Node::U64(n) => visitor.visit_u64(n)?,
            Node::I64(n) => visitor.visit_i64(n)?,
            Node::F64(f) => visitor.visit_f64(f)?,
            Node::Seq(style) => {
                self.r.enter()?;
                let mut access = SeqAccess {
                    r: &mut *self.r,
                    style,
                    first: true,
                    done: false,
                };
                let v = visitor.visit_seq(&mut access)?;
                access.end()?;
                self.r.depth -= 1;
                v
            }
            Node::Map(style) => {
                self.r.enter()?;
                let mut access = MapAccess::new(&mut *self.r, style);
                let v = visitor.visit_map(&mut access)?;
                access.end()?;
                self.r.depth -= 1;
                v
            }
        };
        self.r.finish(lead);
        Ok(value)
    }
}

macro_rules! as_any {
    ($($method:ident),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
            self.visit(Want::Any, visitor)
        }
    )*};
}

impl<'de, 't: 'de> de::Deserializer<'de> for De<'_, 't> {
    type Error = Unfit;

    as_any!(
        deserialize_any,
        deserialize_bool,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_i128,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_u128,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_unit,
        deserialize_seq,
        deserialize_identifier,
        deserialize_ignored_any,
    );

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        self.visit(Want::Option, visitor)
    }
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        self.visit(Want::Any, visitor)
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Res<V::Value> {
        self.visit(Want::Any, visitor)
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Res<V::Value> {
        self.r.enter()?;
        let r = &mut *self.r;
        let v = visitor.visit_newtype_struct(De {
            r: &mut *r,
            ctx: self.ctx,
            begun: self.begun,
        })?;
        r.depth -= 1;
        Ok(v)
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> Res<V::Value> {
        self.visit(Want::Any, visitor)
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> Res<V::Value> {
        self.visit(Want::Any, visitor)
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Res<V::Value> {
        self.visit(Want::Any, visitor)
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Res<V::Value> {
        self.visit(Want::Enum, visitor)
    }
    fn is_human_readable(&self) -> bool {
        true
    }
}

/// The entries of a sequence.
struct SeqAccess<'a, 't> {
    r: &'a mut Reader<'t>,
    style: Style,
    first: bool,
    done: bool,
}

impl<'t> SeqAccess<'_, 't> {
    /// Whether another element follows (the reader is then at its start).
    fn more(&mut self) -> Res<bool> {
        if self.done {
            return Ok(false);
        }
        let more = match self.style {
            Style::Block(col) => {
                if self.first {
                    true
                } else {
                    let more = self.r.next_entry(col, b"- ")?;
                    if more {
                        self.r.pos += 2;
                    }
                    more
                }
            }
            Style::Flow { line, cont } => self.r.flow_next(b']', (line, cont), self.first)?,
        };
        self.first = false;
        self.done = !more;
        Ok(more)
    }

    fn ctx(&self) -> Ctx {
        match self.style {
            Style::Block(col) => Ctx::SeqItem(col),
            Style::Flow { .. } => Ctx::Flow,
        }
    }

    /// Requires that no element is left (a tuple read fewer than are written).
    fn end(&mut self) -> Res<()> {
        if self.more()? { Err(Unfit) } else { Ok(()) }
    }
}

impl<'de, 't: 'de> de::SeqAccess<'de> for SeqAccess<'_, 't> {
    type Error = Unfit;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Res<Option<S::Value>> {
        if !self.more()? {
            return Ok(None);
        }
        let ctx = self.ctx();
        seed.deserialize(De {
            r: &mut *self.r,
            ctx,
            begun: None,
        })
        .map(Some)
    }
}

/// The entries of a map (or the single entry of an enum written as a map).
struct MapAccess<'a, 't> {
    r: &'a mut Reader<'t>,
    style: Style,
    first: bool,
    done: bool,
    /// Where this map's keys start in [`Reader::keys`].
    keys_from: usize,
    /// This map's keys once there are too many to compare one by one.
    many: Option<FxHashSet<Cow<'t, str>>>,
}

/// Maps with more keys than this find repeats through a hash set.
const FEW_KEYS: usize = 16;

impl<'a, 't> MapAccess<'a, 't> {
    fn new(r: &'a mut Reader<'t>, style: Style) -> Self {
        let keys_from = r.keys.len();
        MapAccess {
            r,
            style,
            first: true,
            done: false,
            keys_from,
            many: None,
        }
    }

    /// Records `key`; a repeat (YAML forbids it, the general reader reports it) does not fit.
    fn record(&mut self, key: Cow<'t, str>) -> Res<()> {
        let fresh = match &mut self.many {
            Some(set) => set.insert(key),
            None => {
                let seen = &self.r.keys[self.keys_from..];
                let fresh = !seen.contains(&key);
                if seen.len() >= FEW_KEYS {
                    self.many = Some(seen.iter().cloned().chain([key]).collect());
                } else {
                    self.r.keys.push(key);
                }
                fresh
            }
        };
        if fresh { Ok(()) } else { Err(Unfit) }
    }

    /// Reads the next key if there is one.
    fn key(&mut self) -> Res<Option<Cow<'t, str>>> {
        if self.done {
            return Ok(None);
        }
        let more = match self.style {
            Style::Block(col) => self.first || self.r.next_key(col)?,
            Style::Flow { line, cont } => self.r.flow_next(b'}', (line, cont), self.first)?,
        };
        self.first = false;
        if !more {
            self.done = true;
            return Ok(None);
        }
        self.r.budget = self.r.budget.checked_sub(1).ok_or(Unfit)?;
        if self.r.replaying > 0 {
            self.r.alias_left = self.r.alias_left.checked_sub(1).ok_or(Unfit)?;
        }
        let start = self.r.pos;
        let key = match self.r.peek() {
            Some(b'"') => self.r.quoted()?,
            Some(c) if plain_start(c) => {
                let end = self.r.plain_end(start);
                let key = &self.r.text[start..end];
                if !is_plain(key) {
                    return Err(Unfit);
                }
                self.r.pos = end;
                Cow::Borrowed(key)
            }
            _ => return Err(Unfit),
        };
        // YAML limits implicit keys to 1024 characters; the emitter writes longer ones (over
        // MAX_IMPLICIT_KEY_BYTES) in the explicit `? key` form, which is not read here.
        if self.r.pos - start > MAX_IMPLICIT_KEY_BYTES {
            return Err(Unfit);
        }
        self.r.eat(b':')?;
        self.record(key.clone())?;
        Ok(Some(key))
    }

    fn value_ctx(&mut self) -> Res<Ctx> {
        Ok(match self.style {
            Style::Block(col) => Ctx::MapValue(col),
            Style::Flow { .. } => {
                self.r.eat(b' ')?;
                Ctx::Flow
            }
        })
    }

    /// Requires that no entry is left, and forgets this map's keys.
    fn end(&mut self) -> Res<()> {
        if self.key()?.is_some() {
            return Err(Unfit);
        }
        self.r.keys.truncate(self.keys_from);
        Ok(())
    }
}

fn key_into<'de, S: DeserializeSeed<'de>>(seed: S, key: Cow<'de, str>) -> Res<S::Value> {
    match key {
        Cow::Borrowed(s) => seed.deserialize(BorrowedStrDeserializer::new(s)),
        Cow::Owned(s) => seed.deserialize(StringDeserializer::new(s)),
    }
}

impl<'de, 't: 'de> de::MapAccess<'de> for MapAccess<'_, 't> {
    type Error = Unfit;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Res<Option<K::Value>> {
        match self.key()? {
            Some(key) => key_into(seed, key).map(Some),
            None => Ok(None),
        }
    }
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Res<S::Value> {
        let ctx = self.value_ctx()?;
        seed.deserialize(De {
            r: &mut *self.r,
            ctx,
            begun: None,
        })
    }
}

impl<'de, 't: 'de> de::EnumAccess<'de> for &mut MapAccess<'_, 't> {
    type Error = Unfit;
    type Variant = Self;
    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Res<(S::Value, Self)> {
        let key = self.key()?.ok_or(Unfit)?;
        Ok((key_into(seed, key)?, self))
    }
}

impl<'de, 't: 'de> de::VariantAccess<'de> for &mut MapAccess<'_, 't> {
    type Error = Unfit;
    fn unit_variant(self) -> Res<()> {
        Err(Unfit)
    }
    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Res<S::Value> {
        de::MapAccess::next_value_seed(self, seed)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> Res<V::Value> {
        let ctx = self.value_ctx()?;
        De {
            r: &mut *self.r,
            ctx,
            begun: None,
        }
        .visit(Want::Any, visitor)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        visitor: V,
    ) -> Res<V::Value> {
        self.tuple_variant(0, visitor)
    }
}
