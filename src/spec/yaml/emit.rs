//! The emitter: a serde `Serializer` that streams block-style, all-quoted YAML into a `String`.

use super::{MAX_IMPLICIT_KEY_BYTES, MAX_NESTING, YamlError};
use serde::ser::{self, Serialize};
use std::fmt;

/// The output text plus what is needed to anchor repeated collections.
pub(super) struct Out {
    text: String,
    /// Finished map-value collections of at least [`MIN_ANCHOR_BYTES`], by a hash of their
    /// text: (start, end) of the first occurrence and its anchor number once repeated.
    seen: rustc_hash::FxHashMap<u64, Vec<(usize, usize, Option<usize>)>>,
    /// Anchors to insert: (offset right after the `:` of the first occurrence, number).
    anchors: Vec<(usize, usize)>,
}

/// Collections at least this long that occur again (same text at the same indentation) are
/// written once with an anchor (`&aN`) and then as aliases (`*aN`).
const MIN_ANCHOR_BYTES: usize = 512;

impl Out {
    pub(super) fn new() -> Out {
        Out {
            text: String::new(),
            seen: Default::default(),
            anchors: Vec::new(),
        }
    }
    /// The finished document, with anchors inserted.
    pub(super) fn finish(mut self) -> String {
        if self.anchors.is_empty() {
            return self.text;
        }
        self.anchors.sort();
        let mut s = String::with_capacity(self.text.len() + self.anchors.len() * 8);
        let mut last = 0;
        for (at, n) in self.anchors {
            s.push_str(&self.text[last..at]);
            s.push_str(&format!(" &a{n}"));
            last = at;
        }
        s.push_str(&self.text[last..]);
        s
    }
    /// Replaces the collection just written at `start..` (a map value) by an alias when the same
    /// text was written before.
    fn dedup(&mut self, start: usize) {
        use std::hash::BuildHasher;
        let len = self.text.len() - start;
        if len < MIN_ANCHOR_BYTES {
            return;
        }
        let key = rustc_hash::FxBuildHasher.hash_one(&self.text[start..]);
        let next = self.anchors.len();
        let text = &self.text;
        let entries = self.seen.entry(key).or_default();
        let found = entries
            .iter_mut()
            .find(|(a, b, _)| text[*a..*b] == text[start..]);
        match found {
            Some((a, _, anchor)) => {
                let n = match anchor {
                    Some(n) => *n,
                    None => {
                        *anchor = Some(next);
                        self.anchors.push((*a, next));
                        next
                    }
                };
                self.text.truncate(start);
                self.text.push_str(&format!(" *a{n}\n"));
                // Collections inside the replaced text are gone: forget them.
                for v in self.seen.values_mut() {
                    v.retain(|(a, _, _)| *a < start);
                }
                self.anchors.retain(|(a, _)| *a < start);
            }
            None => entries.push((start, self.text.len(), None)),
        }
    }
}

impl std::ops::Deref for Out {
    type Target = String;
    fn deref(&self) -> &String {
        &self.text
    }
}

impl std::ops::DerefMut for Out {
    fn deref_mut(&mut self) -> &mut String {
        &mut self.text
    }
}

/// Where the next value starts.
#[derive(Clone, Copy)]
enum At {
    /// At the start of the document.
    Root,
    /// Right after `- `; continuation lines are indented by the given column.
    SeqItem(usize),
    /// Right after `key:`; a nested collection starts on the next line at the given column.
    MapValue(usize),
}

impl At {
    /// The column at which a collection starting here puts its second and later entries.
    fn indent(self) -> usize {
        match self {
            At::Root => 0,
            At::SeqItem(c) | At::MapValue(c) => c,
        }
    }
}

fn push_indent(out: &mut String, mut n: usize) {
    const SPACES: &str = "                                                                ";
    while n > 0 {
        let k = n.min(SPACES.len());
        out.push_str(&SPACES[..k]);
        n -= k;
    }
}

/// Writes a scalar (already in its written form) where `at` says.
fn write_scalar(out: &mut String, at: At, text: &str) {
    if let At::MapValue(_) = at {
        out.push(' ');
    }
    out.push_str(text);
    out.push('\n');
}

/// True for characters written as `\uXXXX` inside a double-quoted scalar.
fn needs_u_escape(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{a0}' | '\u{2028}' | '\u{2029}' | '\u{feff}'
        | '\u{fffe}' | '\u{ffff}')
}

/// Appends the double-quoted YAML form of `s`.
fn quote_into(out: &mut String, s: &str) {
    out.push('"');
    let bytes = s.as_bytes();
    let mut run = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        // Printable ASCII other than `"` and `\` is written as it is (the common case).
        if (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\' {
            i += 1;
            continue;
        }
        let c = s[i..].chars().next().unwrap_or_default();
        let len = c.len_utf8();
        let escape = match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            '\n' => "\\n",
            '\t' => "\\t",
            '\r' => "\\r",
            c if needs_u_escape(c) => "",
            _ => {
                i += len;
                continue;
            }
        };
        out.push_str(&s[run..i]);
        run = i + len;
        i += len;
        if escape.is_empty() {
            use std::fmt::Write as _;
            let _ = write!(out, "\\u{:04X}", c as u32);
        } else {
            out.push_str(escape);
        }
    }
    out.push_str(&s[run..]);
    out.push('"');
}

/// The double-quoted YAML form of `s`.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    quote_into(&mut out, s);
    out
}

/// A float in a form YAML 1.1 (which needs a `.` and a signed exponent) and 1.2 both read as
/// the same float. `repr` is Rust's shortest round-trip `Debug` form.
fn float_text(repr: String, is_nan: bool, is_infinite: bool, negative: bool) -> String {
    if is_nan {
        return ".nan".to_string();
    }
    if is_infinite {
        return if negative { "-.inf" } else { ".inf" }.to_string();
    }
    let (mantissa, exponent) = match repr.split_once('e') {
        Some((m, e)) => (m.to_string(), Some(e.to_string())),
        None => (repr, None),
    };
    let mut out = mantissa;
    if !out.contains('.') {
        out.push_str(".0");
    }
    if let Some(e) = exponent {
        out.push('e');
        if !e.starts_with('-') {
            out.push('+');
        }
        out.push_str(&e);
    }
    out
}

fn too_deep() -> YamlError {
    ser::Error::custom(format!(
        "collections are nested more than {MAX_NESTING} levels deep, which the YAML reader \
         cannot read back"
    ))
}

/// The streaming serializer: writes one value at `at` into `out`.
pub(super) struct Emitter<'o> {
    out: &'o mut Out,
    at: At,
    /// Number of collections around the value.
    depth: usize,
}

impl<'o> Emitter<'o> {
    /// Writes a whole document into `out`.
    pub(super) fn new(out: &'o mut Out) -> Self {
        Emitter {
            out,
            at: At::Root,
            depth: 0,
        }
    }

    fn scalar(self, text: &str) -> Result<(), YamlError> {
        write_scalar(self.out, self.at, text);
        Ok(())
    }

    fn display(self, v: impl fmt::Display) -> Result<(), YamlError> {
        use std::fmt::Write as _;
        if let At::MapValue(_) = self.at {
            self.out.push(' ');
        }
        let _ = write!(self.out, "{v}");
        self.out.push('\n');
        Ok(())
    }

    fn collection(self) -> Result<Collection<'o>, YamlError> {
        if self.depth >= MAX_NESTING {
            return Err(too_deep());
        }
        let start = self.out.len();
        Ok(Collection {
            out: self.out,
            at: self.at,
            indent: self.at.indent(),
            depth: self.depth + 1,
            count: 0,
            key: None,
            start,
            parts: Vec::new(),
            flow: true,
            seq: true,
        })
    }

    /// Opens the single-key map `"variant": ...` and returns where its content starts.
    fn variant(self, variant: &str) -> Result<Emitter<'o>, YamlError> {
        let mut map = self.collection()?;
        map.begin_entry();
        quote_into(map.out, variant);
        map.out.push(':');
        Ok(Emitter {
            at: At::MapValue(map.indent + 2),
            depth: map.depth,
            out: map.out,
        })
    }
}

/// A sequence or map being written.
pub(super) struct Collection<'o> {
    out: &'o mut Out,
    /// Where the collection itself starts.
    at: At,
    /// Column of the second and later entries.
    indent: usize,
    /// Number of collections around the entries (this one included).
    depth: usize,
    /// Entries written so far.
    count: usize,
    /// A map key waiting for its value.
    key: Option<String>,
    /// Where this collection's text starts in `out`.
    start: usize,
    /// Each entry's key text (maps) and value text (without the line break), as ranges of `out`.
    parts: Vec<(Option<Range>, Range)>,
    /// Every entry so far is a one-line scalar (or flow collection).
    flow: bool,
    /// A sequence (`[…]`), not a map (`{…}`).
    seq: bool,
}

/// A byte range `(start, end)` of the output.
type Range = (usize, usize);

/// Longest flow collection (`[1, 2, 3]`, `{"direction": "n", "to": "a2"}`) written on one line.
const MAX_FLOW_WIDTH: usize = 100;

/// The one-line scalar written at `at` in `text` (a value's whole output), if it is one:
/// its range within `text`, without the leading space and the line break.
fn scalar_range(text: &str, at: At) -> Option<(usize, usize)> {
    let body = text.strip_suffix('\n')?;
    if body.contains('\n') {
        return None;
    }
    let (from, body) = match at {
        At::MapValue(_) => (1, body.strip_prefix(' ')?),
        _ => (0, body),
    };
    let b = body.as_bytes();
    let simple = match b.first()? {
        b'"' => {
            // A quoted scalar ends at its closing quote; a map entry has `:` after the key.
            let mut i = 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i == b.len() - 1
        }
        b'-' => b.get(1) != Some(&b' '),
        _ => true,
    };
    simple.then_some((from, from + body.len()))
}

impl Collection<'_> {
    /// Moves to where the next entry (its `- ` or key) is written.
    fn begin_entry(&mut self) {
        if self.count == 0 {
            if let At::MapValue(c) = self.at {
                self.out.push('\n');
                push_indent(self.out, c);
            }
        } else {
            push_indent(self.out, self.indent);
        }
        self.count += 1;
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), YamlError> {
        self.begin_entry();
        self.out.push_str("- ");
        let before = self.out.len();
        let at = At::SeqItem(self.indent + 2);
        value.serialize(Emitter {
            out: self.out,
            at,
            depth: self.depth,
        })?;
        self.note(None, before, at);
        Ok(())
    }

    /// Records the entry just written (value from `before`) for a possible flow rewrite.
    fn note(&mut self, key: Option<(usize, usize)>, before: usize, at: At) {
        if !self.flow {
            return;
        }
        match scalar_range(&self.out[before..], at) {
            Some((a, b)) => self.parts.push((key, (before + a, before + b))),
            None => self.flow = false,
        }
    }

    /// Writes a struct field: its quoted name, then the value.
    fn field<T: Serialize + ?Sized>(&mut self, name: &str, value: &T) -> Result<(), YamlError> {
        // A character is at most 6 bytes once escaped: short names cannot need the `?` form,
        // and are quoted straight into the output.
        if name.len() * 6 + 2 > MAX_IMPLICIT_KEY_BYTES {
            return self.entry(&quote(name), value);
        }
        self.begin_entry();
        let k = self.out.len();
        quote_into(self.out, name);
        let key = (k, self.out.len());
        self.value(Some(key), value)
    }

    /// Writes a key already in its written form, then the value.
    fn entry<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), YamlError> {
        self.begin_entry();
        let range = if key.len() > MAX_IMPLICIT_KEY_BYTES {
            self.flow = false;
            self.out.push_str("? ");
            self.out.push_str(key);
            self.out.push('\n');
            push_indent(self.out, self.indent);
            None
        } else {
            let k = self.out.len();
            self.out.push_str(key);
            Some((k, self.out.len()))
        };
        self.value(range, value)
    }

    /// Writes `:` and the value of the entry whose key was just written.
    fn value<T: Serialize + ?Sized>(
        &mut self,
        key: Option<(usize, usize)>,
        value: &T,
    ) -> Result<(), YamlError> {
        self.seq = false;
        self.out.push(':');
        let before = self.out.len();
        let at = At::MapValue(self.indent + 2);
        value.serialize(Emitter {
            out: self.out,
            at,
            depth: self.depth,
        })?;
        match key {
            Some(k) => self.note(Some(k), before, at),
            None => self.flow = false,
        }
        Ok(())
    }

    fn end(self, empty: &str) -> Result<(), YamlError> {
        if self.count == 0 {
            write_scalar(self.out, self.at, empty);
            return Ok(());
        }
        // Short collections of scalars are written in flow style on one line.
        if !self.flow || matches!(self.at, At::Root) {
            if let At::MapValue(_) = self.at {
                self.out.dedup(self.start);
            }
            return Ok(());
        }
        let mut text = String::from(if self.seq { "[" } else { "{" });
        for (i, (key, (a, b))) in self.parts.iter().enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            if let Some((ka, kb)) = key {
                text.push_str(&self.out[*ka..*kb]);
                text.push_str(": ");
            }
            text.push_str(&self.out[*a..*b]);
            if text.len() > MAX_FLOW_WIDTH {
                if let At::MapValue(_) = self.at {
                    self.out.dedup(self.start);
                }
                return Ok(());
            }
        }
        text.push(if self.seq { ']' } else { '}' });
        self.out.truncate(self.start);
        write_scalar(self.out, self.at, &text);
        Ok(())
    }
}

impl<'o> ser::Serializer for Emitter<'o> {
    type Ok = ();
    type Error = YamlError;
    type SerializeSeq = Collection<'o>;
    type SerializeTuple = Collection<'o>;
    type SerializeTupleStruct = Collection<'o>;
    type SerializeTupleVariant = Collection<'o>;
    type SerializeMap = Collection<'o>;
    type SerializeStruct = Collection<'o>;
    type SerializeStructVariant = Collection<'o>;

    fn serialize_bool(self, v: bool) -> Result<(), YamlError> {
        self.scalar(if v { "true" } else { "false" })
    }
    fn serialize_i8(self, v: i8) -> Result<(), YamlError> {
        self.display(v)
    }
    fn serialize_i16(self, v: i16) -> Result<(), YamlError> {
        self.display(v)
    }
    fn serialize_i32(self, v: i32) -> Result<(), YamlError> {
        self.display(v)
    }
    fn serialize_i64(self, v: i64) -> Result<(), YamlError> {
        self.display(v)
    }
    fn serialize_i128(self, v: i128) -> Result<(), YamlError> {
        self.display(v)
    }
    fn serialize_u8(self, v: u8) -> Result<(), YamlError> {
        self.display(v)
    }
    fn serialize_u16(self, v: u16) -> Result<(), YamlError> {
        self.display(v)
    }
    fn serialize_u32(self, v: u32) -> Result<(), YamlError> {
        self.display(v)
    }
    fn serialize_u64(self, v: u64) -> Result<(), YamlError> {
        self.display(v)
    }
    fn serialize_u128(self, v: u128) -> Result<(), YamlError> {
        self.display(v)
    }
    fn serialize_f32(self, v: f32) -> Result<(), YamlError> {
        let text = float_text(format!("{v:?}"), v.is_nan(), v.is_infinite(), v < 0.0);
        self.scalar(&text)
    }
    fn serialize_f64(self, v: f64) -> Result<(), YamlError> {
        let text = float_text(format!("{v:?}"), v.is_nan(), v.is_infinite(), v < 0.0);
        self.scalar(&text)
    }
    fn serialize_char(self, v: char) -> Result<(), YamlError> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), YamlError> {
        if let At::MapValue(_) = self.at {
            self.out.push(' ');
        }
        quote_into(self.out, v);
        self.out.push('\n');
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), YamlError> {
        use ser::SerializeSeq as _;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for b in v {
            seq.serialize_element(b)?;
        }
        ser::SerializeSeq::end(seq)
    }
    fn serialize_none(self) -> Result<(), YamlError> {
        self.scalar("null")
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), YamlError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), YamlError> {
        self.scalar("null")
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), YamlError> {
        self.scalar("null")
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), YamlError> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), YamlError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), YamlError> {
        value.serialize(self.variant(variant)?)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Collection<'o>, YamlError> {
        self.collection()
    }
    fn serialize_tuple(self, _len: usize) -> Result<Collection<'o>, YamlError> {
        self.collection()
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Collection<'o>, YamlError> {
        self.collection()
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Collection<'o>, YamlError> {
        self.variant(variant)?.collection()
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Collection<'o>, YamlError> {
        self.collection()
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Collection<'o>, YamlError> {
        self.collection()
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Collection<'o>, YamlError> {
        self.variant(variant)?.collection()
    }
}

impl ser::SerializeSeq for Collection<'_> {
    type Ok = ();
    type Error = YamlError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), YamlError> {
        self.element(value)
    }
    fn end(self) -> Result<(), YamlError> {
        Collection::end(self, "[]")
    }
}

impl ser::SerializeTuple for Collection<'_> {
    type Ok = ();
    type Error = YamlError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), YamlError> {
        self.element(value)
    }
    fn end(self) -> Result<(), YamlError> {
        Collection::end(self, "[]")
    }
}

impl ser::SerializeTupleStruct for Collection<'_> {
    type Ok = ();
    type Error = YamlError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), YamlError> {
        self.element(value)
    }
    fn end(self) -> Result<(), YamlError> {
        Collection::end(self, "[]")
    }
}

impl ser::SerializeTupleVariant for Collection<'_> {
    type Ok = ();
    type Error = YamlError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), YamlError> {
        self.element(value)
    }
    fn end(self) -> Result<(), YamlError> {
        Collection::end(self, "[]")
    }
}

impl ser::SerializeMap for Collection<'_> {
    type Ok = ();
    type Error = YamlError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), YamlError> {
        self.key = Some(key.serialize(KeySerializer)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), YamlError> {
        let key = self
            .key
            .take()
            .ok_or_else(|| ser::Error::custom("serialize_value called before serialize_key"))?;
        self.entry(&key, value)
    }
    fn end(self) -> Result<(), YamlError> {
        Collection::end(self, "{}")
    }
}

impl ser::SerializeStruct for Collection<'_> {
    type Ok = ();
    type Error = YamlError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), YamlError> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), YamlError> {
        Collection::end(self, "{}")
    }
}

impl ser::SerializeStructVariant for Collection<'_> {
    type Ok = ();
    type Error = YamlError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), YamlError> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), YamlError> {
        Collection::end(self, "{}")
    }
}

/// Writes a map key: only scalars are accepted.
struct KeySerializer;

fn non_scalar_key() -> YamlError {
    ser::Error::custom(
        "a YAML map key must be a string, number, boolean or null, not a sequence or map",
    )
}

impl ser::Serializer for KeySerializer {
    type Ok = String;
    type Error = YamlError;
    type SerializeSeq = ser::Impossible<String, YamlError>;
    type SerializeTuple = ser::Impossible<String, YamlError>;
    type SerializeTupleStruct = ser::Impossible<String, YamlError>;
    type SerializeTupleVariant = ser::Impossible<String, YamlError>;
    type SerializeMap = ser::Impossible<String, YamlError>;
    type SerializeStruct = ser::Impossible<String, YamlError>;
    type SerializeStructVariant = ser::Impossible<String, YamlError>;

    fn serialize_bool(self, v: bool) -> Result<String, YamlError> {
        Ok(v.to_string())
    }
    fn serialize_i8(self, v: i8) -> Result<String, YamlError> {
        Ok(v.to_string())
    }
    fn serialize_i16(self, v: i16) -> Result<String, YamlError> {
        Ok(v.to_string())
    }
    fn serialize_i32(self, v: i32) -> Result<String, YamlError> {
        Ok(v.to_string())
    }
    fn serialize_i64(self, v: i64) -> Result<String, YamlError> {
        Ok(v.to_string())
    }
    fn serialize_i128(self, v: i128) -> Result<String, YamlError> {
        Ok(v.to_string())
    }
    fn serialize_u8(self, v: u8) -> Result<String, YamlError> {
        Ok(v.to_string())
    }
    fn serialize_u16(self, v: u16) -> Result<String, YamlError> {
        Ok(v.to_string())
    }
    fn serialize_u32(self, v: u32) -> Result<String, YamlError> {
        Ok(v.to_string())
    }
    fn serialize_u64(self, v: u64) -> Result<String, YamlError> {
        Ok(v.to_string())
    }
    fn serialize_u128(self, v: u128) -> Result<String, YamlError> {
        Ok(v.to_string())
    }
    fn serialize_f32(self, v: f32) -> Result<String, YamlError> {
        Ok(float_text(
            format!("{v:?}"),
            v.is_nan(),
            v.is_infinite(),
            v < 0.0,
        ))
    }
    fn serialize_f64(self, v: f64) -> Result<String, YamlError> {
        Ok(float_text(
            format!("{v:?}"),
            v.is_nan(),
            v.is_infinite(),
            v < 0.0,
        ))
    }
    fn serialize_char(self, v: char) -> Result<String, YamlError> {
        Ok(quote(v.encode_utf8(&mut [0; 4])))
    }
    fn serialize_str(self, v: &str) -> Result<String, YamlError> {
        Ok(quote(v))
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<String, YamlError> {
        Err(non_scalar_key())
    }
    fn serialize_none(self) -> Result<String, YamlError> {
        Ok("null".to_string())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<String, YamlError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<String, YamlError> {
        Ok("null".to_string())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<String, YamlError> {
        Ok("null".to_string())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<String, YamlError> {
        Ok(quote(variant))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<String, YamlError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<String, YamlError> {
        Err(non_scalar_key())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, YamlError> {
        Err(non_scalar_key())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, YamlError> {
        Err(non_scalar_key())
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, YamlError> {
        Err(non_scalar_key())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, YamlError> {
        Err(non_scalar_key())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, YamlError> {
        Err(non_scalar_key())
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, YamlError> {
        Err(non_scalar_key())
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, YamlError> {
        Err(non_scalar_key())
    }
}
