//! The emitter: a serde `Serializer` that streams block-style YAML with short flow collections
//! and plain scalars where [`super::plain`] allows them into a `String`.

use super::{MAX_IMPLICIT_KEY_BYTES, MAX_NESTING, YamlError};
use serde::ser::{self, Serialize};
use std::fmt;

/// Values of one document known (by `PartialEq`) to equal an earlier value of the same document,
/// by address: the emitter writes such a value as an alias of the earlier one's text without
/// serializing it again. Built with [`Shared::share`]; see [`super::to_string_shared`].
///
/// An alias is written only where the earlier value's text is at the same indentation and is
/// itself an alias or long enough to be anchored, as text anchoring requires. Sharing skips
/// writing, hashing and discarding the repeated text (variants repeat their game's boards and
/// move programs: 40 of the 91 MB written for the shared corpus were such text), and it also
/// aliases equal values whose texts differ because one of them already contains aliases.
#[derive(Default)]
pub struct Shared<'a> {
    /// Address of a later value → (address of the equal earlier value, type name).
    later: rustc_hash::FxHashMap<usize, (usize, &'static str)>,
    /// Addresses of earlier values, to record where their text is written.
    earlier: rustc_hash::FxHashSet<usize>,
    /// The values stay borrowed (unchanged, alive, at their addresses) while this exists.
    values: std::marker::PhantomData<&'a ()>,
}

impl<'a> Shared<'a> {
    /// An empty set.
    pub fn new() -> Self {
        Shared::default()
    }

    /// Records that `later` may be written as an alias of `earlier` when the two are equal;
    /// returns whether they are. Both must be fields of the document later written (map
    /// values); anything else is never met by the emitter and has no effect.
    pub fn share<T: PartialEq + ?Sized>(&mut self, later: &'a T, earlier: &'a T) -> bool {
        let (l, e) = (address(later), address(earlier));
        // Zero-sized values may share an address with another value; a value is not its own
        // earlier occurrence.
        if std::mem::size_of_val(later) == 0 || l == e || later != earlier {
            return false;
        }
        self.later.insert(l, (e, std::any::type_name::<T>()));
        self.earlier.insert(e);
        true
    }

    /// True when nothing is shared.
    pub fn is_empty(&self) -> bool {
        self.later.is_empty()
    }
}

fn address<T: ?Sized>(v: &T) -> usize {
    v as *const T as *const () as usize
}

/// Where the text of a value of [`Shared::earlier`] was written.
struct Written {
    address: usize,
    start: usize,
    end: usize,
    indent: usize,
}

/// A finished map-value collection of at least [`MIN_ANCHOR_BYTES`] that may be repeated.
struct Seen {
    key: u64,
    start: usize,
    end: usize,
    /// Its anchor number once repeated.
    anchor: Option<usize>,
}

/// The output text plus what is needed to anchor repeated collections.
pub(super) struct Out {
    text: String,
    /// Every [`Seen`] collection, in the order they ended. Collections inside text that is
    /// replaced by an alias are always the last ones, so forgetting them is a truncation.
    seen: Vec<Seen>,
    /// Indexes into `seen` by a hash of the collection's text.
    by_hash: rustc_hash::FxHashMap<u64, Vec<usize>>,
    /// Anchors to insert: (offset right after the `:` of the first occurrence, number).
    anchors: Vec<(usize, usize)>,
    /// Values known to repeat earlier ones ([`Shared`]).
    later: rustc_hash::FxHashMap<usize, (usize, &'static str)>,
    /// For each earlier value of [`Shared`], its index in `written` once written.
    earlier: rustc_hash::FxHashMap<usize, usize>,
    /// Where earlier values were written, in the order they ended (like `seen`, those inside
    /// text that is cut are the last ones).
    written: Vec<Written>,
    /// The last one-line value written: its text without the line break, as a range of `text`
    /// (the collection being written reads it to decide on flow style).
    scalar: Range,
    /// Whether that value is a single-entry block map (`- key: value`), which flow style
    /// writes in braces.
    braced: bool,
    /// The entries of every open collection that may still be written in flow style, innermost
    /// last.
    parts: Vec<Part>,
    /// Where a flow collection is put together.
    flow: String,
}

/// Collections at least this long that occur again (same text at the same indentation) are
/// written once with an anchor (`&aN`) and then as aliases (`*aN`).
const MIN_ANCHOR_BYTES: usize = 512;

impl Out {
    pub(super) fn new(shared: Shared<'_>) -> Out {
        Out {
            text: String::new(),
            seen: Vec::new(),
            by_hash: Default::default(),
            anchors: Vec::new(),
            later: shared.later,
            earlier: shared
                .earlier
                .into_iter()
                .map(|a| (a, usize::MAX))
                .collect(),
            written: Vec::new(),
            scalar: (0, 0),
            braced: false,
            parts: Vec::new(),
            flow: String::new(),
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
            s.push_str(" &a");
            s.push_str(itoa(n, &mut [0; 20]));
            last = at;
        }
        s.push_str(&self.text[last..]);
        s
    }

    /// The [`Seen`] collection at exactly `start..end` whose text hashes to `key`.
    fn find(&self, key: u64, start: usize, end: usize) -> Option<usize> {
        let text = &self.text;
        self.by_hash.get(&key)?.iter().copied().find(|&i| {
            let s = &self.seen[i];
            (s.start, s.end) == (start, end) || text[s.start..s.end] == text[start..end]
        })
    }

    /// Replaces the text from `start` by an alias of the [`Seen`] collection `i`.
    fn alias(&mut self, i: usize, start: usize) {
        let n = match self.seen[i].anchor {
            Some(n) => n,
            None => {
                let n = self.anchors.len();
                self.seen[i].anchor = Some(n);
                self.anchors.push((self.seen[i].start, n));
                n
            }
        };
        self.cut(start);
        self.text.push_str(" *a");
        self.text.push_str(itoa(n, &mut [0; 20]));
        self.text.push('\n');
        self.scalar = (start + 1, self.text.len() - 1);
        self.braced = false;
    }

    /// Removes the text from `start` (to be written again differently), and forgets what was
    /// recorded about it.
    fn cut(&mut self, start: usize) {
        self.text.truncate(start);
        while self.seen.last().is_some_and(|s| s.start >= start) {
            if let Some(v) = self.seen.pop().and_then(|s| self.by_hash.get_mut(&s.key)) {
                v.pop();
            }
        }
        while self.written.last().is_some_and(|w| w.start >= start) {
            self.written.pop();
        }
        self.anchors.retain(|(a, _)| *a < start);
    }

    /// Replaces the collection just written at `start..` (a map value) by an alias when the same
    /// text was written before.
    fn dedup(&mut self, start: usize) {
        use std::hash::BuildHasher;
        let end = self.text.len();
        if end - start < MIN_ANCHOR_BYTES {
            return;
        }
        let key = rustc_hash::FxBuildHasher.hash_one(&self.text[start..]);
        match self.find(key, start, end) {
            Some(i) => self.alias(i, start),
            None => {
                self.by_hash.entry(key).or_default().push(self.seen.len());
                self.seen.push(Seen {
                    key,
                    start,
                    end,
                    anchor: None,
                });
            }
        }
    }

    /// Writes `value`, a map value about to be written at `start` (right after the `:`) with
    /// continuation lines at `indent`, as an alias when [`Shared`] says it equals a value
    /// already written there; returns whether it did.
    fn alias_shared<T: ?Sized>(&mut self, value: &T, start: usize, indent: usize) -> bool {
        if self.later.is_empty() {
            return false;
        }
        let Some(&(earlier, ty)) = self.later.get(&address(value)) else {
            return false;
        };
        let Some(w) = self
            .earlier
            .get(&earlier)
            .and_then(|&i| self.written.get(i))
            .filter(|w| w.address == earlier && w.indent == indent)
        else {
            return false;
        };
        if ty != std::any::type_name::<T>() {
            return false;
        }
        let (a, b) = (w.start, w.end);
        let Some(text) = self.text.get(a..b) else {
            return false;
        };
        let is_alias = text
            .strip_prefix(" *a")
            .and_then(|t| t.strip_suffix('\n'))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()));
        if is_alias {
            // The earlier value is itself an alias: repeat it.
            self.text.extend_from_within(a..b);
            self.scalar = (start + 1, self.text.len() - 1);
            self.braced = false;
            return true;
        }
        if b - a < MIN_ANCHOR_BYTES {
            return false;
        }
        use std::hash::BuildHasher;
        let key = rustc_hash::FxBuildHasher.hash_one(text);
        match self.find(key, a, b) {
            Some(i) => {
                self.alias(i, start);
                true
            }
            None => false,
        }
    }

    /// Records where `value`, a map value just written from `start`, was written, when a later
    /// value may repeat it.
    fn record_shared<T: ?Sized>(&mut self, value: &T, start: usize, indent: usize) {
        if self.earlier.is_empty() {
            return;
        }
        let address = address(value);
        if let Some(i) = self.earlier.get_mut(&address) {
            *i = self.written.len();
            self.written.push(Written {
                address,
                start,
                end: self.text.len(),
                indent,
            });
        }
    }
}

/// The decimal digits of `n`, written into `buf`.
fn itoa(mut n: usize, buf: &mut [u8; 20]) -> &str {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    std::str::from_utf8(&buf[i..]).unwrap_or_default()
}

impl Out {
    /// Writes a one-line scalar at `at` with `write`, then the line break.
    fn scalar_with(&mut self, at: At, write: impl FnOnce(&mut String)) {
        if let At::MapValue(_) = at {
            self.text.push(' ');
        }
        let start = self.text.len();
        write(&mut self.text);
        self.scalar = (start, self.text.len());
        self.braced = false;
        self.text.push('\n');
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
fn write_scalar(out: &mut Out, at: At, text: &str) {
    out.scalar_with(at, |s| s.push_str(text));
}

/// True for characters written as `\uXXXX` inside a double-quoted scalar.
pub(super) fn needs_u_escape(c: char) -> bool {
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

/// Appends `s` as a YAML scalar: plain when [`super::plain::is_plain`] allows, else quoted.
fn string_into(out: &mut String, s: &str) {
    if super::plain::is_plain(s) {
        out.push_str(s);
    } else {
        quote_into(out, s);
    }
}

/// The YAML scalar form of `s` (see [`string_into`]).
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    string_into(&mut out, s);
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
        self.out.scalar_with(self.at, |s| {
            let _ = write!(s, "{v}");
        });
        Ok(())
    }

    fn collection(self) -> Result<Collection<'o>, YamlError> {
        if self.depth >= MAX_NESTING {
            return Err(too_deep());
        }
        let start = self.out.len();
        let parts = self.out.parts.len();
        Ok(Collection {
            out: self.out,
            at: self.at,
            indent: self.at.indent(),
            depth: self.depth + 1,
            count: 0,
            key: None,
            start,
            parts,
            flow: true,
            seq: true,
            wrapper: None,
        })
    }

    /// Writes a newtype variant as the single-key map `variant: value`.
    fn variant<T: Serialize + ?Sized>(self, variant: &str, value: &T) -> Result<(), YamlError> {
        let mut map = self.collection()?;
        map.field(variant, value)?;
        map.end("{}")
    }

    /// Opens the single-key map `variant: …` of a tuple or struct variant and returns its
    /// content: a collection that closes the map when it ends.
    fn variant_collection(self, variant: &str) -> Result<Collection<'o>, YamlError> {
        let mut map = self.collection()?;
        map.begin_entry();
        let k = map.out.len();
        string_into(map.out, variant);
        let key = (k, map.out.len());
        map.out.push(':');
        let wrapper = Wrapper {
            at: map.at,
            depth: map.depth,
            start: map.start,
            parts: map.parts,
            key,
            before: map.out.len(),
        };
        let mut content = Emitter {
            at: At::MapValue(map.indent + 2),
            depth: map.depth,
            out: map.out,
        }
        .collection()?;
        content.wrapper = Some(wrapper);
        Ok(content)
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
    /// Where this collection's entries start in [`Out::parts`].
    parts: usize,
    /// Every entry so far is a one-line scalar (or flow collection).
    flow: bool,
    /// A sequence (`[…]`), not a map (`{…}`).
    seq: bool,
    /// The variant map around this collection, closed when it ends.
    wrapper: Option<Wrapper>,
}

/// The single-key map `variant: …` around a tuple or struct variant's content
/// ([`Emitter::variant_collection`]): what closing it needs.
struct Wrapper {
    at: At,
    depth: usize,
    start: usize,
    parts: usize,
    /// The variant's name as written.
    key: Range,
    /// Where the content starts (right after the `:`).
    before: usize,
}

/// A byte range `(start, end)` of the output.
type Range = (usize, usize);

/// One entry of a collection that may be written in flow style, as ranges of [`Out::text`].
#[derive(Clone, Copy)]
struct Part {
    /// The key as written (maps).
    key: Option<Range>,
    /// The one-line value as written.
    value: Range,
    /// The value is a single-entry block map (`key: value`), written `{key: value}` in flow.
    braced: bool,
}

impl Part {
    /// Its length in flow style (`key: ` included, braces included).
    fn width(&self) -> usize {
        self.key.map_or(0, |(a, b)| b - a + 2) + self.value.1 - self.value.0
            + 2 * usize::from(self.braced)
    }

    /// Whether the value is a collection.
    fn nested(&self, text: &str) -> bool {
        self.braced || matches!(text.as_bytes().get(self.value.0), Some(b'[' | b'{'))
    }

    /// Appends it in flow style.
    fn push_to(&self, text: &str, out: &mut String) {
        if let Some((a, b)) = self.key {
            out.push_str(&text[a..b]);
            out.push_str(": ");
        }
        if self.braced {
            out.push('{');
        }
        out.push_str(&text[self.value.0..self.value.1]);
        if self.braced {
            out.push('}');
        }
    }
}

/// Longest flow collection (`[1, 2, 3]`, `{direction: n, to: a2}`) written on one line, and
/// longest line of a wrapped one, indentation not counted.
const MAX_FLOW_WIDTH: usize = 100;

/// Lines of a wrapped flow collection: entries (their widths) packed greedily into lines of at
/// most [`MAX_FLOW_WIDTH`] characters after the indentation, brackets, separators and, on the
/// first line, the `prefix` before the collection (`key: ` or `- `) included; an entry too
/// long for any line is alone on its line. Returns the index of the first entry of each line.
fn wrap_lines(prefix: usize, widths: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut starts = vec![0];
    // Length of the current line so far, with the opening bracket; one more character is kept
    // free for the `,` or closing bracket that ends it.
    let mut len = prefix + 1;
    for (i, w) in widths.enumerate() {
        if i > 0 {
            if len + 2 + w + 1 > MAX_FLOW_WIDTH {
                starts.push(i);
                len = w;
            } else {
                len += 2 + w;
            }
        } else {
            len += w;
        }
    }
    starts
}

impl<'o> Collection<'o> {
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
    fn note(&mut self, key: Option<Range>, before: usize, at: At) {
        if !self.flow {
            return;
        }
        // The value is one line when the last one-line value written starts where it starts.
        let start = before + usize::from(matches!(at, At::MapValue(_)));
        let (a, b) = self.out.scalar;
        if a == start && b + 1 == self.out.len() {
            let braced = self.out.braced;
            self.out.parts.push(Part {
                key,
                value: (a, b),
                braced,
            });
        } else {
            self.flow = false;
        }
    }

    /// Writes a struct field: its name, then the value.
    fn field<T: Serialize + ?Sized>(&mut self, name: &str, value: &T) -> Result<(), YamlError> {
        // A character is at most 6 bytes once escaped: short names cannot need the `?` form,
        // and are written straight into the output.
        if name.len() * 6 + 2 > MAX_IMPLICIT_KEY_BYTES {
            return self.entry(&quote(name), value);
        }
        self.begin_entry();
        let k = self.out.len();
        string_into(self.out, name);
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
        key: Option<Range>,
        value: &T,
    ) -> Result<(), YamlError> {
        self.seq = false;
        self.out.push(':');
        let before = self.out.len();
        let at = At::MapValue(self.indent + 2);
        if !self.out.alias_shared(value, before, at.indent()) {
            value.serialize(Emitter {
                out: self.out,
                at,
                depth: self.depth,
            })?;
            self.out.record_shared(value, before, at.indent());
        }
        match key {
            Some(k) => self.note(Some(k), before, at),
            None => self.flow = false,
        }
        Ok(())
    }

    /// Ends the collection, then the variant map around it, if any.
    fn end(mut self, empty: &str) -> Result<(), YamlError> {
        let wrapper = self.wrapper.take();
        let out = self.close(empty);
        let Some(w) = wrapper else {
            return Ok(());
        };
        let mut map = Collection {
            out,
            at: w.at,
            indent: w.at.indent(),
            depth: w.depth,
            count: 1,
            key: None,
            start: w.start,
            parts: w.parts,
            flow: true,
            seq: false,
            wrapper: None,
        };
        map.note(Some(w.key), w.before, At::MapValue(map.indent + 2));
        map.end("{}")
    }

    /// Ends the collection: `empty` when it has no entry; one line in flow style when every
    /// entry is one line and they fit; a single-entry map at a sequence item stays `key: value`
    /// (noted as braced, for its parent); a long flow collection (a map, or a sequence of
    /// scalars, whose entries each fit on a line) is wrapped when that takes at most half the
    /// lines of block style; block style otherwise (already written). Only block collections
    /// are anchored when they repeat.
    fn close(self, empty: &str) -> &'o mut Out {
        let out = self.out;
        let base = self.parts.min(out.parts.len());
        if self.count == 0 {
            out.parts.truncate(base);
            write_scalar(out, self.at, empty);
            return out;
        }
        let n = out.parts.len() - base;
        if !self.flow || matches!(self.at, At::Root) || n == 0 {
            out.parts.truncate(base);
            if let At::MapValue(_) = self.at {
                out.dedup(self.start);
            }
            return out;
        }
        if !self.seq && n == 1 && matches!(self.at, At::SeqItem(_)) {
            // `- key: value` is already one line.
            out.parts.truncate(base);
            out.scalar = (self.start, out.text.len() - 1);
            out.braced = true;
            return out;
        }
        let parts = &out.parts[base..];
        let width = 2 * n + parts.iter().map(Part::width).sum::<usize>();
        let starts = if width <= MAX_FLOW_WIDTH {
            vec![0]
        } else {
            let block_lines = n + usize::from(matches!(self.at, At::MapValue(_)));
            // Entries that each fit on a line: of a map, or of a sequence of scalars.
            let wrappable = parts.iter().all(|p| p.width() + 3 <= MAX_FLOW_WIDTH)
                && (!self.seq || !parts.iter().any(|p| p.nested(&out.text)));
            // What precedes the collection on its first line, indentation not counted.
            let text = &out.text[..self.start];
            let line = text.rfind('\n').map_or(0, |i| i + 1);
            let lead = text[line..].bytes().take_while(|&b| b == b' ').count();
            let prefix = self.start - line - lead + usize::from(matches!(self.at, At::MapValue(_)));
            let starts = wrap_lines(prefix, parts.iter().map(Part::width));
            if !wrappable || 2 * starts.len() > block_lines {
                out.parts.truncate(base);
                if let At::MapValue(_) = self.at {
                    out.dedup(self.start);
                }
                return out;
            }
            starts
        };
        let mut text = std::mem::take(&mut out.flow);
        text.clear();
        text.push(if self.seq { '[' } else { '{' });
        let mut line = 1;
        for (i, part) in out.parts[base..].iter().enumerate() {
            if starts.get(line) == Some(&i) {
                text.push_str(",\n");
                push_indent(&mut text, self.indent);
                line += 1;
            } else if i > 0 {
                text.push_str(", ");
            }
            part.push_to(&out.text, &mut text);
        }
        text.push(if self.seq { ']' } else { '}' });
        out.parts.truncate(base);
        out.cut(self.start);
        write_scalar(out, self.at, &text);
        if starts.len() > 1 {
            // Several lines: not an entry a flow collection around it can take.
            out.scalar = (usize::MAX, 0);
        }
        out.flow = text;
        out
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
        self.out.scalar_with(self.at, |s| string_into(s, v));
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
        self.variant(variant, value)
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
        self.variant_collection(variant)
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
        self.variant_collection(variant)
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
