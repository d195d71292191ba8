//! The YAML layer: a deterministic emitter of our own and a reader with located, limited errors.
//!
//! Every YAML document zogkit writes goes through [`to_string`]; every one it reads goes through
//! [`from_str`]. The point of this module is DESIGN.md principles 5 and 6: byte-identical output
//! on every machine, and output that every YAML reader (YAML 1.1 or 1.2, PyYAML, libyaml,
//! js-yaml, yaml_serde) reads back as the same data, although ZRF names such as `n`, `off`, `Y`,
//! `On` and `01` are booleans or numbers to YAML 1.1 readers (zrf-language.md §9.2).
//!
//! # Output style (what [`to_string`] writes)
//! - **Block style only.** Maps are `"key": value` lines, sequences are `- item` lines; nested
//!   collections are indented by two spaces, sequences under a map key included:
//!   ```yaml
//!   "title": "Shogi"
//!   "players":
//!     - "Black"
//!     - "White"
//!   "pieces":
//!     - "name": "駒"
//!       "value": 1
//!   ```
//!   A sequence inside a sequence starts on the dash's line (`- - 1`). Empty collections are
//!   written `[]` and `{}`. No flow style otherwise, no anchors, aliases, tags, directives or
//!   document markers. Output ends with exactly one `\n`.
//! - **Order.** Struct fields in declaration order; maps in the order the value gives them, so
//!   callers use `BTreeMap`/`Vec` (never `HashMap`) for deterministic output.
//! - **Every string is double-quoted**, map keys and struct field names included, so no reader
//!   can resolve it to a boolean, number or null. Escapes: `\"`, `\\`, `\n`, `\t`, `\r`, and
//!   `\uXXXX` for every other character that is not printable in YAML 1.1 and 1.2 or that some
//!   reader treats as a line break or stream marker: C0 controls, DEL, C1 controls (U+0080–U+009F,
//!   U+0085 included), NBSP U+00A0 (invisible and easy to lose when edited), U+2028, U+2029,
//!   BOM U+FEFF, U+FFFE and U+FFFF. Everything else, kanji and Cyrillic included, is raw UTF-8.
//!   A string is always one scalar on one line: multi-line text keeps its `\n` escapes and long
//!   text is never folded, which makes the round trip exact.
//! - **Keys longer than [`MAX_IMPLICIT_KEY_BYTES`]** (as written) use the explicit form
//!   `? "key"` / `: value`, because YAML limits implicit keys to 1024 characters.
//! - **Plain scalars** only for numbers, booleans and null: integers in decimal, floats in a
//!   form both YAML 1.1 and 1.2 read as floats (`1.0`, `-2.5`, `1.0e+100`, `.inf`, `-.inf`,
//!   `.nan`), `true`/`false`, and `null` for `None`, `()` and unit structs.
//! - **Enums** follow serde's external tagging, like `serde_json`: a unit variant is its quoted
//!   name, a newtype, tuple or struct variant is a single-key map `"Variant": content`.
//!   Internally, adjacently tagged and untagged enums are plain maps and work unchanged.
//!   Bytes are a sequence of integers (as in `serde_json`). Map keys must be scalars.
//!
//! # Reading ([`from_str`])
//! Parsing is done by `yaml_serde` (the maintained fork of serde_yaml, imported as `serde_yaml`).
//! On top of it this module adds:
//! - externally tagged enums written as single-key maps (as the emitter writes them and as JSON
//!   tools expect); `yaml_serde` alone only accepts `!Variant` tags, which it still accepts too;
//! - errors as [`Diagnostic`]s with byte spans, so they render as `file:line:col` with a caret,
//!   with codes [`CODE_SYNTAX`], [`CODE_INVALID`], [`CODE_ALIAS_LIMIT`], [`CODE_NESTING_LIMIT`]
//!   and [`CODE_TOO_LARGE`];
//! - limits against hostile input ([`ReadLimits`]): a size limit, and an alias-expansion budget
//!   that stops "billion laughs" and quadratic alias blow-ups after a bounded amount of work.
//!   `yaml_serde` itself stops alias replay after 100 jumps per event and nesting deeper than
//!   [`MAX_NESTING`]; both are reported with their own codes.

use crate::diag::{Diagnostic, FileId, Severity, Span};
use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::ser::{self, Serialize};
use std::cell::Cell;
use std::fmt;

// ---------------------------------------------------------------------------------------------
// Emitter
// ---------------------------------------------------------------------------------------------

/// Map keys whose written form is longer than this many bytes use the explicit `? key` form.
///
/// YAML 1.1 and 1.2 forbid implicit keys longer than 1024 characters; this leaves a margin.
pub const MAX_IMPLICIT_KEY_BYTES: usize = 512;

/// Why a value could not be written as YAML.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    message: String,
}

impl YamlError {
    /// The explanation, one sentence.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for YamlError {}

impl ser::Error for YamlError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        YamlError {
            message: msg.to_string(),
        }
    }
}

/// Writes `value` as a YAML document in the style described in the [module docs](self).
///
/// The output is a pure function of the value: the same value gives the same bytes on every run
/// and machine. It fails when serde reports an error, when a map key is not a scalar, or when
/// collections nest deeper than [`MAX_NESTING`] (the reader could not read such a document back).
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, YamlError> {
    let mut out = String::new();
    value.serialize(Emitter {
        out: &mut out,
        at: At::Root,
        depth: 0,
    })?;
    Ok(out)
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
    let mut run = 0;
    for (i, c) in s.char_indices() {
        let escape = match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            '\n' => "\\n",
            '\t' => "\\t",
            '\r' => "\\r",
            c if needs_u_escape(c) => "",
            _ => continue,
        };
        out.push_str(&s[run..i]);
        run = i + c.len_utf8();
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
struct Emitter<'o> {
    out: &'o mut String,
    at: At,
    /// Number of collections around the value.
    depth: usize,
}

impl<'o> Emitter<'o> {
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
        Ok(Collection {
            out: self.out,
            at: self.at,
            indent: self.at.indent(),
            depth: self.depth + 1,
            count: 0,
            key: None,
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
struct Collection<'o> {
    out: &'o mut String,
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
        value.serialize(Emitter {
            out: self.out,
            at: At::SeqItem(self.indent + 2),
            depth: self.depth,
        })
    }

    /// Writes a struct field: its quoted name, then the value.
    fn field<T: Serialize + ?Sized>(&mut self, name: &str, value: &T) -> Result<(), YamlError> {
        // A character is at most 6 bytes once escaped: short names cannot need the `?` form,
        // and are quoted straight into the output.
        if name.len() * 6 + 2 > MAX_IMPLICIT_KEY_BYTES {
            return self.entry(&quote(name), value);
        }
        self.begin_entry();
        quote_into(self.out, name);
        self.value(value)
    }

    /// Writes a key already in its written form, then the value.
    fn entry<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), YamlError> {
        self.begin_entry();
        if key.len() > MAX_IMPLICIT_KEY_BYTES {
            self.out.push_str("? ");
            self.out.push_str(key);
            self.out.push('\n');
            push_indent(self.out, self.indent);
        } else {
            self.out.push_str(key);
        }
        self.value(value)
    }

    /// Writes `:` and the value of the entry whose key was just written.
    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), YamlError> {
        self.out.push(':');
        value.serialize(Emitter {
            out: self.out,
            at: At::MapValue(self.indent + 2),
            depth: self.depth,
        })
    }

    fn end(self, empty: &str) -> Result<(), YamlError> {
        if self.count == 0 {
            write_scalar(self.out, self.at, empty);
        }
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

// ---------------------------------------------------------------------------------------------
// Reader
// ---------------------------------------------------------------------------------------------

/// Error code: the text is not well-formed YAML (or holds more than one document).
pub const CODE_SYNTAX: &str = "yaml::syntax";
/// Error code: well-formed YAML whose content does not match the expected type (missing or
/// unknown field, wrong type, unknown enum variant, ...).
pub const CODE_INVALID: &str = "yaml::invalid";
/// Error code: aliases expand to more nodes than [`ReadLimits::max_alias_nodes`] allows
/// ("billion laughs").
pub const CODE_ALIAS_LIMIT: &str = "yaml::alias-limit";
/// Error code: collections nested deeper than [`MAX_NESTING`].
pub const CODE_NESTING_LIMIT: &str = "yaml::nesting-limit";
/// Error code: the text is longer than [`ReadLimits::max_bytes`].
pub const CODE_TOO_LARGE: &str = "yaml::too-large";

/// How deeply collections may nest; fixed by `yaml_serde` (each sequence, map and newtype counts).
pub const MAX_NESTING: usize = 128;

/// Limits that keep reading hostile YAML cheap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadLimits {
    /// Longest accepted text, in bytes.
    pub max_bytes: usize,
    /// How many nodes aliases may add beyond what the text itself could hold.
    ///
    /// A text of `n` bytes holds at most about `2n` nodes without aliases; reading stops with
    /// [`CODE_ALIAS_LIMIT`] once `2n + 16 + max_alias_nodes` nodes have been visited.
    pub max_alias_nodes: u64,
}

impl Default for ReadLimits {
    /// 64 MiB of text and one million nodes added by aliases.
    fn default() -> Self {
        ReadLimits {
            max_bytes: 64 << 20,
            max_alias_nodes: 1_000_000,
        }
    }
}

/// Reads one YAML document into a `T`, with the default [`ReadLimits`].
///
/// `file` is only used for the spans of the returned [`Diagnostic`]; register the same text under
/// it in the [`crate::diag::SourceMap`] to render them. Externally tagged enums may be written as
/// single-key maps (what [`to_string`] writes), as `!Variant` tags, or as a plain string for unit
/// variants.
pub fn from_str<T: de::DeserializeOwned>(text: &str, file: FileId) -> Result<T, Diagnostic> {
    from_str_with_limits(text, file, &ReadLimits::default())
}

/// [`from_str`] with explicit limits.
pub fn from_str_with_limits<T: de::DeserializeOwned>(
    text: &str,
    file: FileId,
    limits: &ReadLimits,
) -> Result<T, Diagnostic> {
    if text.len() > limits.max_bytes {
        return Err(Diagnostic::error(
            CODE_TOO_LARGE,
            format!(
                "the YAML text is {} bytes long; at most {} bytes are read",
                text.len(),
                limits.max_bytes
            ),
            Span::new(file, limits.max_bytes, limits.max_bytes),
        ));
    }
    // yaml_serde misreports errors after a byte-order mark ("more than one document"), so the
    // mark is removed here and spans are shifted back past it.
    let src = match text.strip_prefix('\u{feff}') {
        Some(body) => Source {
            body,
            base: 3,
            file,
        },
        None => Source {
            body: text,
            base: 0,
            file,
        },
    };
    // Every alias starts with `*`: without one there is nothing to expand, so the budgeted
    // pre-pass is only needed (and only paid for) when the text contains one.
    if src.body.contains('*') {
        check_well_formed(&src, limits)?;
    }
    match T::deserialize(Enums(serde_yaml::Deserializer::from_str(src.body))) {
        Ok(value) => Ok(value),
        Err(typed) => {
            // Classify: a syntax or limit error also shows up in the untyped pass.
            check_well_formed(&src, limits)?;
            Err(to_diagnostic(&typed, CODE_INVALID, &src))
        }
    }
}

/// The text handed to `yaml_serde`: the input after any byte-order mark.
struct Source<'a> {
    body: &'a str,
    /// Byte offset of `body` in the input.
    base: usize,
    file: FileId,
}

impl Source<'_> {
    /// A span covering the character at byte `offset` of `body` (empty at the end).
    fn char_span(&self, offset: usize) -> Span {
        let text = self.body;
        let mut start = offset.min(text.len());
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let len = text[start..].chars().next().map_or(0, char::len_utf8);
        Span::new(self.file, self.base + start, self.base + start + len)
    }
}

/// Walks the whole document without building anything, counting nodes (alias expansions
/// included) against the budget. Errors are syntax or limit errors.
fn check_well_formed(src: &Source<'_>, limits: &ReadLimits) -> Result<(), Diagnostic> {
    let text = src.body;
    let budget = Budget {
        remaining: Cell::new(
            (text.len() as u64)
                .saturating_mul(2)
                .saturating_add(16)
                .saturating_add(limits.max_alias_nodes),
        ),
        exceeded: Cell::new(false),
    };
    match Count(&budget).deserialize(serde_yaml::Deserializer::from_str(text)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let rendered = e.to_string();
            let code = if budget.exceeded.get() || rendered.contains("repetition limit exceeded") {
                CODE_ALIAS_LIMIT
            } else if rendered.contains("recursion limit exceeded") {
                CODE_NESTING_LIMIT
            } else {
                CODE_SYNTAX
            };
            let mut d = to_diagnostic(&e, code, src);
            match code {
                CODE_ALIAS_LIMIT => {
                    d.message = format!(
                        "aliases expand this document beyond the reading limit ({} extra nodes); \
                         write the repeated parts out or use fewer aliases",
                        limits.max_alias_nodes
                    );
                }
                CODE_NESTING_LIMIT => {
                    d.message =
                        format!("collections are nested more than {MAX_NESTING} levels deep");
                }
                _ => {}
            }
            Err(d)
        }
    }
}

struct Budget {
    remaining: Cell<u64>,
    exceeded: Cell<bool>,
}

/// A seed and visitor that accepts any YAML value and counts its nodes.
#[derive(Clone, Copy)]
struct Count<'a>(&'a Budget);

impl Count<'_> {
    fn tick<E: de::Error>(self) -> Result<(), E> {
        match self.0.remaining.get().checked_sub(1) {
            Some(r) => {
                self.0.remaining.set(r);
                Ok(())
            }
            None => {
                self.0.exceeded.set(true);
                Err(E::custom("alias expansion limit exceeded"))
            }
        }
    }
}

impl<'de> DeserializeSeed<'de> for Count<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Count<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.tick()
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.tick()
    }
    fn visit_i128<E: de::Error>(self, _: i128) -> Result<(), E> {
        self.tick()
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.tick()
    }
    fn visit_u128<E: de::Error>(self, _: u128) -> Result<(), E> {
        self.tick()
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.tick()
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        self.tick()
    }
    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<(), E> {
        self.tick()
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.tick()
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.tick()
    }
    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        self.tick()?;
        self.deserialize(d)
    }
    fn visit_newtype_struct<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        self.tick()?;
        self.deserialize(d)
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.tick()?;
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.tick()?;
        while map.next_key_seed(self)?.is_some() {
            map.next_value_seed(self)?;
        }
        Ok(())
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        use de::VariantAccess as _;
        self.tick()?;
        let (_, variant) = data.variant::<de::IgnoredAny>()?;
        variant.newtype_variant_seed(self)
    }
}

/// Turns a `yaml_serde` error into a located diagnostic.
fn to_diagnostic(e: &serde_yaml::Error, code: &'static str, src: &Source<'_>) -> Diagnostic {
    let rendered = e.to_string();
    let (problem, context) = match rendered.split_once(", while ") {
        Some((p, c)) if e.location().is_some() => (p.to_string(), Some(format!("while {c}"))),
        _ => (rendered.clone(), None),
    };
    let (problem, _) = strip_location(&problem);
    // libyaml's reader errors (bad characters) carry a byte offset, not a mark.
    let (problem, start) = match position_suffix(&problem) {
        Some((p, offset)) => (p.to_string(), Some(offset)),
        None => (problem.clone(), e.location().map(|l| l.index())),
    };
    // Errors without a position (more than one document, yaml_serde's own alias limit) are
    // facts about the whole file, so they get no span rather than a made-up one.
    let span = match start {
        Some(start) => Some(src.char_span(start)),
        None if rendered.contains("EOF while parsing") => Some(src.char_span(src.body.len())),
        None => None,
    };
    let mut d = Diagnostic::new(Severity::Error, code, problem, span);
    if let Some(context) = context {
        let (context, mark) = strip_location(&context);
        let note_span = mark.and_then(|(l, c)| offset_of_line_col(src.body, l, c));
        d = d.with_note(note_span.map(|o| src.char_span(o)), context);
    }
    d
}

/// Splits `"... at line L column C"` into the message and the 1-based line and column.
fn strip_location(msg: &str) -> (String, Option<(usize, usize)>) {
    if let Some(i) = msg.rfind(" at line ") {
        let tail = &msg[i + " at line ".len()..];
        if let Some((l, rest)) = tail.split_once(" column ") {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if let (Ok(l), Ok(c)) = (l.parse::<usize>(), digits.parse::<usize>()) {
                let after = &rest[digits.len()..];
                return (format!("{}{after}", &msg[..i]), Some((l, c)));
            }
        }
    }
    (msg.to_string(), None)
}

/// Splits `"... at position N"` (libyaml reader errors) into the message and the byte offset.
fn position_suffix(msg: &str) -> Option<(&str, usize)> {
    let i = msg.rfind(" at position ")?;
    let n = msg[i + " at position ".len()..].parse::<usize>().ok()?;
    Some((&msg[..i], n))
}

/// The byte offset of a 1-based line and column as libyaml counts them: lines end at `\n`,
/// `\r\n`, `\r`, U+0085, U+2028 and U+2029; columns count characters.
fn offset_of_line_col(text: &str, line: usize, col: usize) -> Option<usize> {
    let mut cur_line = 1;
    let mut line_start = 0;
    let mut chars = text.char_indices().peekable();
    while cur_line < line {
        let (i, c) = chars.next()?;
        match c {
            '\r' => {
                if let Some(&(_, '\n')) = chars.peek() {
                    chars.next();
                    line_start = i + 2;
                } else {
                    line_start = i + 1;
                }
                cur_line += 1;
            }
            '\n' | '\u{85}' | '\u{2028}' | '\u{2029}' => {
                line_start = i + c.len_utf8();
                cur_line += 1;
            }
            _ => {}
        }
    }
    let rest = &text[line_start..];
    Some(
        line_start
            + rest
                .char_indices()
                .nth(col.saturating_sub(1))
                .map_or(rest.len(), |(i, _)| i),
    )
}

// ---------------------------------------------------------------------------------------------
// Externally tagged enums as single-key maps
// ---------------------------------------------------------------------------------------------
//
// `yaml_serde` reads externally tagged enums only from `!Variant` tags, which PyYAML's safe
// loader rejects. The wrappers below pass every call through to `yaml_serde` unchanged, except
// `deserialize_enum`, which asks for any value and accepts a string (unit variant), a single-key
// map (`Variant: content`) or a tagged node. Errors still come from inside `yaml_serde`'s calls,
// so they keep their positions. Every nested deserializer, seed and access is wrapped again, so
// enums at any depth are handled.

/// Wraps a deserializer so that its `deserialize_enum` accepts single-key maps.
struct Enums<D>(D);

macro_rules! forward_wrapped {
    ($($method:ident),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            self.0.$method(Wrap(visitor))
        }
    )*};
}

impl<'de, D: de::Deserializer<'de>> de::Deserializer<'de> for Enums<D> {
    type Error = D::Error;

    forward_wrapped!(
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
        deserialize_option,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any,
    );

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, Wrap(visitor))
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_newtype_struct(name, Wrap(visitor))
    }
    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, Wrap(visitor))
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple_struct(name, len, Wrap(visitor))
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_struct(name, fields, Wrap(visitor))
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(EnumVisitor(visitor))
    }
    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// Wraps a visitor so that the deserializers and accesses it is handed are wrapped too.
struct Wrap<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<V::Value, E> {
        self.0.visit_bool(v)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<V::Value, E> {
        self.0.visit_i64(v)
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<V::Value, E> {
        self.0.visit_i128(v)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<V::Value, E> {
        self.0.visit_u64(v)
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<V::Value, E> {
        self.0.visit_u128(v)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        self.0.visit_f64(v)
    }
    fn visit_char<E: de::Error>(self, v: char) -> Result<V::Value, E> {
        self.0.visit_char(v)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        self.0.visit_str(v)
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        self.0.visit_borrowed_str(v)
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        self.0.visit_string(v)
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<V::Value, E> {
        self.0.visit_bytes(v)
    }
    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<V::Value, E> {
        self.0.visit_borrowed_bytes(v)
    }
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<V::Value, E> {
        self.0.visit_byte_buf(v)
    }
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none()
    }
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
    }
    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(Enums(d))
    }
    fn visit_newtype_struct<D: de::Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_newtype_struct(Enums(d))
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.0.visit_seq(Seq(seq))
    }
    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(Map(map))
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(Tagged(data))
    }
}

/// Wraps a seed so that the deserializer it is handed is wrapped.
struct Seed<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<S> {
    type Value = S::Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Enums(d))
    }
}

struct Seq<A>(A);

impl<'de, A: de::SeqAccess<'de>> de::SeqAccess<'de> for Seq<A> {
    type Error = A::Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(Seed(seed))
    }
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

struct Map<A>(A);

impl<'de, A: de::MapAccess<'de>> de::MapAccess<'de> for Map<A> {
    type Error = A::Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(Seed(seed))
    }
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(Seed(seed))
    }
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

/// An enum written with a `!Variant` tag, as `yaml_serde` itself reads it.
struct Tagged<A>(A);

impl<'de, A: de::EnumAccess<'de>> de::EnumAccess<'de> for Tagged<A> {
    type Error = A::Error;
    type Variant = TaggedVariant<A::Variant>;
    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        let (value, variant) = self.0.variant_seed(Seed(seed))?;
        Ok((value, TaggedVariant(variant)))
    }
}

struct TaggedVariant<A>(A);

impl<'de, A: de::VariantAccess<'de>> de::VariantAccess<'de> for TaggedVariant<A> {
    type Error = A::Error;
    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(Seed(seed))
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Wrap(visitor))
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, Wrap(visitor))
    }
}

/// The visitor `deserialize_enum` hands to `deserialize_any`.
struct EnumVisitor<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for EnumVisitor<V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)?;
        f.write_str(" (a variant name, or a map with one key naming the variant)")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        self.0.visit_enum(v.into_deserializer())
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        self.0.visit_enum(v.into_deserializer())
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<V::Value, A::Error> {
        let value = self.0.visit_enum(SingleKey { map: &mut map })?;
        if map.next_key::<de::IgnoredAny>()?.is_some() {
            return Err(de::Error::custom(
                "an enum value must be a map with exactly one key, naming the variant",
            ));
        }
        Ok(value)
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(Tagged(data))
    }
}

/// `Variant: content` read as an enum.
struct SingleKey<'m, A> {
    map: &'m mut A,
}

impl<'de, 'm, A: de::MapAccess<'de>> de::EnumAccess<'de> for SingleKey<'m, A> {
    type Error = A::Error;
    type Variant = SingleKeyContent<'m, A>;
    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        match self.map.next_key_seed(Seed(seed))? {
            Some(v) => Ok((v, SingleKeyContent { map: self.map })),
            None => Err(de::Error::custom(
                "an enum value must be a map with exactly one key, naming the variant; found an empty map",
            )),
        }
    }
}

struct SingleKeyContent<'m, A> {
    map: &'m mut A,
}

/// Reads the content of a tuple or struct variant with the given visitor.
struct ContentSeed<V> {
    visitor: V,
    shape: Shape,
}

enum Shape {
    Tuple(usize),
    Struct(&'static [&'static str]),
}

impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for ContentSeed<V> {
    type Value = V::Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        use de::Deserializer as _;
        match self.shape {
            Shape::Tuple(len) => Enums(d).deserialize_tuple(len, self.visitor),
            Shape::Struct(fields) => Enums(d).deserialize_struct("", fields, self.visitor),
        }
    }
}

impl<'de, A: de::MapAccess<'de>> de::VariantAccess<'de> for SingleKeyContent<'_, A> {
    type Error = A::Error;
    fn unit_variant(self) -> Result<(), A::Error> {
        self.map.next_value::<()>()
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.map.next_value_seed(Seed(seed))
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(ContentSeed {
            visitor,
            shape: Shape::Tuple(len),
        })
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(ContentSeed {
            visitor,
            shape: Shape::Struct(fields),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceMap;
    use serde::{Deserialize, Serialize};
    use std::collections::BTreeMap;

    /// The atoms YAML 1.1 readers misread, and strings that break naive quoting.
    const HAZARDS: &[&str] = &[
        "n",
        "N",
        "y",
        "Y",
        "off",
        "Off",
        "On",
        "on",
        "no",
        "yes",
        "true",
        "false",
        "01",
        "07",
        "08",
        "1_0",
        "1.10",
        "1e3",
        "~",
        "null",
        "-",
        "1i",
        "",
        " lead",
        "trail ",
        "a: b",
        "#x",
        "- x",
        "[x",
        "{x",
        "key: value\nline2",
        "\\",
        "\t",
        "\u{a0}",
        "\u{85}",
        "駒",
        "Рус",
        "\"",
        "'",
        "\r\n",
        "\u{2028}\u{2029}",
        "\u{feff}",
        "\u{0}\u{1}\u{1b}\u{7f}",
        "---",
        "...",
        "&a",
        "*a",
        "!tag",
        "%YAML",
        "@",
        "`",
        "|",
        ">",
        "?",
        ":",
        ",",
        "a #b",
        ".inf",
        ".nan",
        "0x1F",
        "0o17",
        "+1",
        "-0",
        "=",
        "<<",
        "\u{9f}",
        "\u{fffe}\u{ffff}",
        "🂡",
    ];

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    enum Step {
        Stop,
        Go(String),
        Jump(i32, i32),
        Verify {
            cond: Box<Cond>,
            label: Option<String>,
        },
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "op", rename_all = "kebab-case")]
    enum Cond {
        Empty {
            dir: String,
        },
        Not {
            inner: Box<Cond>,
        },
        InZone {
            zone: String,
            player: Option<String>,
        },
        True,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Unit;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Sample {
        spec_version: u32,
        title: String,
        names: Vec<String>,
        counts: BTreeMap<String, i64>,
        by_number: BTreeMap<u32, Vec<String>>,
        steps: Vec<Step>,
        conds: Vec<Cond>,
        nested: Vec<Vec<BTreeMap<String, Vec<u8>>>>,
        maybe: Option<String>,
        none: Option<Vec<i32>>,
        ratio: f64,
        small: f32,
        flag: bool,
        unit: Unit,
        tuple: (String, i8, Option<bool>),
        empty_list: Vec<String>,
        empty_map: BTreeMap<String, String>,
        letter: char,
        big: u64,
        negative: i64,
    }

    fn sample() -> Sample {
        let mut counts = BTreeMap::new();
        for (i, h) in HAZARDS.iter().enumerate() {
            counts.insert(h.to_string(), i as i64 - 3);
        }
        let mut by_number = BTreeMap::new();
        by_number.insert(1, vec!["01".to_string()]);
        by_number.insert(42, vec![]);
        let mut inner = BTreeMap::new();
        inner.insert("off".to_string(), vec![0, 255]);
        inner.insert("empty".to_string(), vec![]);
        Sample {
            spec_version: 1,
            title: "Tai Shogi 大局将棋\nsecond line".into(),
            names: HAZARDS.iter().map(|s| s.to_string()).collect(),
            counts,
            by_number,
            steps: vec![
                Step::Stop,
                Step::Go("n".into()),
                Step::Jump(-1, 2),
                Step::Verify {
                    cond: Box::new(Cond::Not {
                        inner: Box::new(Cond::Empty { dir: "off".into() }),
                    }),
                    label: None,
                },
                Step::Verify {
                    cond: Box::new(Cond::True),
                    label: Some("Y".into()),
                },
            ],
            conds: vec![
                Cond::InZone {
                    zone: "promotion-zone".into(),
                    player: Some("On".into()),
                },
                Cond::True,
            ],
            nested: vec![vec![inner.clone(), BTreeMap::new()], vec![]],
            maybe: Some("null".into()),
            none: None,
            ratio: 0.1,
            small: 1.5,
            flag: false,
            unit: Unit,
            tuple: ("yes".into(), -8, Some(true)),
            empty_list: vec![],
            empty_map: BTreeMap::new(),
            letter: 'n',
            big: u64::MAX,
            negative: i64::MIN,
        }
    }

    #[test]
    fn hazards_round_trip_and_every_string_is_quoted() {
        for h in HAZARDS {
            let text = to_string(h).unwrap();
            assert!(
                text.starts_with('"') && text.ends_with("\"\n"),
                "{h:?} → {text:?}"
            );
            assert_eq!(text.matches('\n').count(), 1, "{h:?} → {text:?}");
            let back: String = from_str(&text, FileId(0)).unwrap();
            assert_eq!(&back, h, "{text:?}");
        }
        let list = to_string(HAZARDS).unwrap();
        for line in list.lines() {
            assert!(line.starts_with("- \"") && line.ends_with('"'), "{line}");
        }
        let back: Vec<String> = from_str(&list, FileId(0)).unwrap();
        assert_eq!(back, HAZARDS);
    }

    #[test]
    fn escapes_are_the_documented_ones() {
        assert_eq!(to_string("a\"b\\c").unwrap(), "\"a\\\"b\\\\c\"\n");
        assert_eq!(to_string("\n\t\r").unwrap(), "\"\\n\\t\\r\"\n");
        assert_eq!(
            to_string("\u{0}\u{1b}\u{7f}\u{85}\u{a0}\u{2028}\u{2029}\u{feff}\u{ffff}").unwrap(),
            "\"\\u0000\\u001B\\u007F\\u0085\\u00A0\\u2028\\u2029\\uFEFF\\uFFFF\"\n"
        );
        assert_eq!(to_string("駒 Рус é 🂡").unwrap(), "\"駒 Рус é 🂡\"\n");
    }

    #[test]
    fn sample_round_trips_and_every_string_is_quoted() {
        let value = sample();
        let text = to_string(&value).unwrap();
        let back: Sample = from_str(&text, FileId(0)).unwrap();
        assert_eq!(back, value);
        assert!(text.ends_with('\n') && !text.ends_with("\n\n"));
        // Every key is quoted, and no plain scalar is a string: each non-quoted scalar must be a
        // number, boolean, null or empty collection.
        for line in text.lines() {
            let mut t = line.trim_start();
            while let Some(rest) = t.strip_prefix("- ") {
                t = rest;
            }
            let (key_ok, rest) = if t.starts_with('"') {
                (true, &t[closing_quote(t) + 1..])
            } else if let Some(i) = t.find(':') {
                (plain_ok(&t[..i]), &t[i..])
            } else {
                (plain_ok(t), "")
            };
            assert!(key_ok, "line {line:?}");
            match rest.strip_prefix(": ") {
                Some(v) => assert!(v.starts_with('"') || plain_ok(v), "line {line:?}"),
                None => assert!(rest.is_empty() || rest == ":", "line {line:?}"),
            }
        }
    }

    fn plain_ok(v: &str) -> bool {
        matches!(
            v,
            "true" | "false" | "null" | "[]" | "{}" | ".inf" | "-.inf" | ".nan"
        ) || v.parse::<i128>().is_ok()
            || (v.parse::<f64>().is_ok() && v.contains('.'))
    }

    fn closing_quote(t: &str) -> usize {
        let b = t.as_bytes();
        let mut i = 1;
        while b[i] != b'"' {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        i
    }

    #[test]
    fn layout_is_block_style_with_indented_sequences() {
        #[derive(Serialize)]
        struct Piece {
            name: &'static str,
            moves: Vec<Vec<i32>>,
        }
        #[derive(Serialize)]
        struct Doc {
            title: &'static str,
            players: Vec<&'static str>,
            pieces: Vec<Piece>,
            none: Option<u8>,
            empty: Vec<u8>,
            step: Step,
        }
        let doc = Doc {
            title: "Shogi",
            players: vec!["Black", "White"],
            pieces: vec![Piece {
                name: "駒",
                moves: vec![vec![1, 2], vec![]],
            }],
            none: None,
            empty: vec![],
            step: Step::Jump(0, -1),
        };
        let expected = r#""title": "Shogi"
"players":
  - "Black"
  - "White"
"pieces":
  - "name": "駒"
    "moves":
      - - 1
        - 2
      - []
"none": null
"empty": []
"step":
  "Jump":
    - 0
    - -1
"#;
        assert_eq!(to_string(&doc).unwrap(), expected);
        assert_eq!(to_string(&Vec::<u8>::new()).unwrap(), "[]\n");
        assert_eq!(to_string(&BTreeMap::<u8, u8>::new()).unwrap(), "{}\n");
        assert_eq!(to_string(&Step::Stop).unwrap(), "\"Stop\"\n");
        assert_eq!(to_string(&()).unwrap(), "null\n");
    }

    #[test]
    fn floats_are_read_as_floats_by_yaml_1_1_and_1_2() {
        let cases: &[(f64, &str)] = &[
            (1.0, "1.0"),
            (-0.0, "-0.0"),
            (0.1, "0.1"),
            (1e100, "1.0e+100"),
            (1.5e-7, "1.5e-7"),
            (f64::INFINITY, ".inf"),
            (f64::NEG_INFINITY, "-.inf"),
        ];
        for (v, want) in cases {
            assert_eq!(to_string(v).unwrap(), format!("{want}\n"));
            let back: f64 = from_str(want, FileId(0)).unwrap();
            assert_eq!(back.to_bits(), v.to_bits(), "{want}");
        }
        assert_eq!(to_string(&f64::NAN).unwrap(), ".nan\n");
        assert!(from_str::<f64>(".nan", FileId(0)).unwrap().is_nan());
        assert_eq!(to_string(&0.1f32).unwrap(), "0.1\n");
    }

    #[test]
    fn long_keys_use_the_explicit_form() {
        let mut m = BTreeMap::new();
        let long = "k".repeat(2000);
        m.insert(long.clone(), vec![1]);
        m.insert("short".to_string(), vec![]);
        let text = to_string(&m).unwrap();
        assert!(
            text.starts_with(&format!("? \"{long}\"\n:\n  - 1\n")),
            "{text}"
        );
        let back: BTreeMap<String, Vec<i32>> = from_str(&text, FileId(0)).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn non_scalar_keys_are_an_error() {
        let mut m = BTreeMap::new();
        m.insert(vec![1], 2);
        let e = to_string(&m).unwrap_err();
        assert!(e.message().contains("map key"), "{e}");
    }

    #[test]
    fn output_is_deterministic() {
        let a = to_string(&sample()).unwrap();
        let b = to_string(&sample()).unwrap();
        assert_eq!(a.as_bytes(), b.as_bytes());
    }

    #[test]
    fn enums_are_read_from_single_key_maps_tags_and_strings() {
        let from_map: Vec<Step> =
            from_str("- \"Go\": \"n\"\n- Jump: [1, 2]\n- Stop\n", FileId(0)).unwrap();
        assert_eq!(
            from_map,
            vec![Step::Go("n".into()), Step::Jump(1, 2), Step::Stop]
        );
        let from_tags: Vec<Step> = from_str("- !Go n\n- !Jump [1, 2]\n", FileId(0)).unwrap();
        assert_eq!(from_tags, vec![Step::Go("n".into()), Step::Jump(1, 2)]);
        let e = from_str::<Step>("Go: n\nStop: null\n", FileId(0)).unwrap_err();
        assert_eq!(e.code, CODE_INVALID);
        assert!(e.message.contains("exactly one key"), "{}", e.message);
        let e = from_str::<Step>("Fly: n\n", FileId(0)).unwrap_err();
        assert_eq!(e.code, CODE_INVALID);
        assert!(e.message.contains("unknown variant"), "{}", e.message);
    }

    fn render(text: &str, d: &Diagnostic) -> String {
        let mut sm = SourceMap::new();
        let id = sm.add("game.yaml", text);
        assert_eq!(d.span.map(|s| s.file), Some(id));
        d.render(&sm, "game.yaml")
    }

    #[test]
    fn syntax_errors_point_at_line_and_column() {
        let text = "\"title\": \"x\"\n\"players\":\n  - \"a\"\n  \"b\": [1, 2\n";
        let d = from_str::<serde_json::Value>(text, FileId(0)).unwrap_err();
        assert_eq!(d.code, CODE_SYNTAX);
        let r = render(text, &d);
        assert!(r.starts_with("error[yaml::syntax]: "), "{r}");
        assert!(r.contains("--> game.yaml:4:3\n"), "{r}");
        assert!(!d.message.contains("at line"), "{}", d.message);
        // libyaml's context ("while parsing a block ...") becomes a located note.
        assert_eq!(d.notes.len(), 1, "{r}");
        assert!(d.notes[0].0.is_some(), "{r}");
    }

    #[test]
    fn type_errors_point_at_the_value() {
        #[derive(Debug, Deserialize)]
        #[allow(dead_code)]
        struct S {
            name: String,
            count: u32,
        }
        let text = "\"name\": \"駒\"\n\"count\": \"many\"\n";
        let d = from_str::<S>(text, FileId(0)).unwrap_err();
        assert_eq!(d.code, CODE_INVALID);
        let r = render(text, &d);
        assert!(r.contains("--> game.yaml:2:10\n"), "{r}");
        assert!(r.contains("invalid type"), "{r}");
        let d = from_str::<S>("\"name\": \"x\"\n", FileId(0)).unwrap_err();
        assert_eq!(d.code, CODE_INVALID);
        assert!(d.message.contains("missing field `count`"), "{}", d.message);
    }

    #[test]
    fn errors_after_a_bom_and_crlf_are_located() {
        let text = "\u{feff}a: 1\r\nb: [\r\n";
        let d = from_str::<serde_json::Value>(text, FileId(0)).unwrap_err();
        assert_eq!(d.code, CODE_SYNTAX);
        let mut sm = SourceMap::new();
        sm.add("t.yaml", text);
        let (_, line, _) = d.location(&sm).unwrap();
        assert!(line >= 2, "{}", d.render(&sm, "t.yaml"));
        let text = "\u{feff}\"a\": [1]\n\"b\": \"x\"\n";
        let d = from_str::<BTreeMap<String, Vec<i32>>>(text, FileId(0)).unwrap_err();
        assert_eq!(d.code, CODE_INVALID);
        let mut sm = SourceMap::new();
        sm.add("t.yaml", text);
        assert_eq!(d.location(&sm).map(|l| (l.1, l.2)), Some((2, 6)));
    }

    #[test]
    fn raw_control_characters_are_located() {
        let text = "\"a\": \"ok\"\n\"b\": \"x\u{1}\"\n";
        let d = from_str::<serde_json::Value>(text, FileId(0)).unwrap_err();
        assert_eq!(d.code, CODE_SYNTAX);
        let r = render(text, &d);
        assert!(r.contains("--> game.yaml:2:8\n"), "{r}");
    }

    #[test]
    fn billion_laughs_is_rejected_quickly() {
        let mut text = String::from("a0: &a0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n");
        for i in 1..12 {
            let refs = vec![format!("*a{}", i - 1); 10].join(", ");
            text.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
        }
        let start = std::time::Instant::now();
        let d = from_str::<serde_json::Value>(&text, FileId(0)).unwrap_err();
        assert_eq!(d.code, CODE_ALIAS_LIMIT, "{}", d.message);
        assert!(start.elapsed().as_secs_f64() < 1.0, "{:?}", start.elapsed());
    }

    #[test]
    fn quadratic_alias_blowup_is_rejected_quickly() {
        // One big anchored sequence referenced many times: under yaml_serde's own jump limit,
        // but about 10^9 nodes once expanded.
        let mut text = String::from("big: &big [");
        text.push_str(&vec!["1"; 30_000].join(","));
        text.push_str("]\nrefs: [");
        text.push_str(&vec!["*big"; 30_000].join(","));
        text.push_str("]\n");
        let start = std::time::Instant::now();
        let d = from_str::<serde_json::Value>(&text, FileId(0)).unwrap_err();
        assert_eq!(d.code, CODE_ALIAS_LIMIT, "{}", d.message);
        assert!(start.elapsed().as_secs_f64() < 1.0, "{:?}", start.elapsed());
    }

    #[test]
    fn modest_aliases_are_accepted() {
        let v: BTreeMap<String, Vec<String>> =
            from_str("a: &x [\"n\", \"off\"]\nb: *x\n", FileId(0)).unwrap();
        assert_eq!(v["b"], vec!["n", "off"]);
    }

    #[test]
    fn deep_nesting_and_size_limits_have_their_codes() {
        let text = format!("{}{}", "[".repeat(500), "]".repeat(500));
        let d = from_str::<serde_json::Value>(&text, FileId(0)).unwrap_err();
        assert_eq!(d.code, CODE_NESTING_LIMIT, "{}", d.message);
        let limits = ReadLimits {
            max_bytes: 4,
            ..ReadLimits::default()
        };
        let d = from_str_with_limits::<String>("\"hello\"", FileId(0), &limits).unwrap_err();
        assert_eq!(d.code, CODE_TOO_LARGE);
    }

    #[test]
    fn the_emitter_refuses_nesting_the_reader_cannot_read() {
        fn nested(depth: usize) -> serde_json::Value {
            (0..depth).fold(serde_json::json!("n"), |v, _| serde_json::json!([v]))
        }
        let ok = nested(MAX_NESTING);
        let text = to_string(&ok).unwrap();
        let back: serde_json::Value = from_str(&text, FileId(0)).unwrap();
        assert_eq!(back, ok);
        let e = to_string(&nested(MAX_NESTING + 1)).unwrap_err();
        assert!(e.message().contains("nested more than 128"), "{e}");
        // ... because the reader indeed stops one level further down.
        let deeper = format!(
            "{}\"n\"{}",
            "[".repeat(MAX_NESTING + 1),
            "]".repeat(MAX_NESTING + 1)
        );
        let d = from_str::<serde_json::Value>(&deeper, FileId(0)).unwrap_err();
        assert_eq!(d.code, CODE_NESTING_LIMIT);
    }

    #[test]
    fn option_box_and_map_wrapped_enums_are_read() {
        let v: Option<Step> = from_str("\"Go\": \"n\"\n", FileId(0)).unwrap();
        assert_eq!(v, Some(Step::Go("n".into())));
        let v: BTreeMap<String, Box<Step>> = from_str(
            "\"a\":\n  \"Jump\":\n    - 1\n    - 2\n\"b\": \"Stop\"\n",
            FileId(0),
        )
        .unwrap();
        assert_eq!(*v["a"], Step::Jump(1, 2));
        assert_eq!(*v["b"], Step::Stop);
    }

    #[test]
    fn multiple_documents_are_a_syntax_error_about_the_whole_file() {
        let d = from_str::<String>("\"a\"\n---\n\"b\"\n", FileId(0)).unwrap_err();
        assert_eq!(d.code, CODE_SYNTAX);
        assert_eq!(d.span, None);
        assert!(
            d.message.contains("more than one document"),
            "{}",
            d.message
        );
    }

    /// Emitted types must not iterate in hash order: no `HashMap`/`HashSet` in `src/spec`.
    #[test]
    fn spec_types_use_no_hash_collections() {
        let needles = [concat!("Hash", "Map"), concat!("Hash", "Set")];
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/spec");
        let mut stack = vec![dir];
        let mut files = 0;
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    files += 1;
                    let text = std::fs::read_to_string(&path).unwrap();
                    for (i, line) in text.lines().enumerate() {
                        let code = line.trim_start();
                        if code.starts_with("//") {
                            continue;
                        }
                        for n in needles {
                            assert!(
                                !code.contains(n),
                                "{}:{}: {n} in spec code breaks deterministic YAML; use BTreeMap",
                                path.display(),
                                i + 1
                            );
                        }
                    }
                }
            }
        }
        assert!(files >= 2);
    }
}
