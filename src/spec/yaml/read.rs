//! Reading support: the budgeted well-formedness pass and the conversion of `yaml_serde` errors
//! into located diagnostics.

use super::{CODE_ALIAS_LIMIT, CODE_NESTING_LIMIT, CODE_SYNTAX, MAX_NESTING, ReadLimits};
use crate::diag::{Diagnostic, FileId, Severity, Span};
use serde::de::{self, DeserializeSeed, Visitor};
use std::cell::Cell;
use std::fmt;

/// The text handed to `yaml_serde`: the input after any byte-order mark.
pub(super) struct Source<'a> {
    pub(super) body: &'a str,
    /// Byte offset of `body` in the input.
    pub(super) base: usize,
    /// The file spans point into.
    pub(super) file: FileId,
}

impl<'a> Source<'a> {
    /// The text to read from `text`: yaml_serde misreports errors after a byte-order mark ("more
    /// than one document"), so the mark is left out and spans are shifted back past it.
    pub(super) fn new(text: &'a str, file: FileId) -> Self {
        match text.strip_prefix('\u{feff}') {
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
        }
    }

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
pub(super) fn check_well_formed(src: &Source<'_>, limits: &ReadLimits) -> Result<(), Diagnostic> {
    let text = src.body;
    // What the text holds by itself (at most about 2 nodes per byte), plus what aliases may
    // add: the limit counts only nodes added by aliases.
    let most = (text.len() as u64).saturating_mul(2).saturating_add(16);
    let own = if first_alias(text).is_some() {
        own_nodes(text, most).unwrap_or(most)
    } else {
        most
    };
    let budget = Budget {
        remaining: Cell::new(
            own.saturating_add(16)
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
                    // The budget runs out while an alias is replayed, which has no position of
                    // its own: point at the document's first alias instead.
                    if d.span.is_none() {
                        d.span = first_alias(text).map(|o| src.char_span(o));
                    }
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

/// Byte offset of the first alias (`*name`) outside quoted scalars and comments.
fn first_alias(text: &str) -> Option<usize> {
    alias_starts(text).next()
}

/// Byte offsets of every alias (`*name`) outside quoted scalars and comments.
fn alias_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    let b = text.as_bytes();
    let mut i = 0;
    let mut prev = b'\n';
    std::iter::from_fn(move || {
        let found = next_alias(b, &mut i, &mut prev);
        if found.is_some() {
            prev = b'*';
            i += 1;
        }
        found
    })
}

/// Nodes `text` holds by itself: the document read with every alias replaced by a plain
/// scalar (so an alias counts one node, whatever it repeats). `None` when it does not read.
fn own_nodes(text: &str, cap: u64) -> Option<u64> {
    let mut bytes = text.as_bytes().to_vec();
    for start in alias_starts(text).collect::<Vec<_>>() {
        bytes[start] = b'~';
        let mut k = start + 1;
        while k < bytes.len()
            && !matches!(bytes[k], b' ' | b'\t' | b'\r' | b'\n' | b',' | b']' | b'}')
        {
            bytes[k] = b' ';
            k += 1;
        }
    }
    let blanked = String::from_utf8(bytes).ok()?;
    let budget = Budget {
        remaining: Cell::new(cap),
        exceeded: Cell::new(false),
    };
    Count(&budget)
        .deserialize(serde_yaml::Deserializer::from_str(&blanked))
        .ok()?;
    Some(cap - budget.remaining.get())
}

/// Scans `b` from `*i` for the next alias start (see [`alias_starts`]).
fn next_alias(b: &[u8], i: &mut usize, prev: &mut u8) -> Option<usize> {
    while *i < b.len() {
        let c = b[*i];
        let after_space = matches!(*prev, b' ' | b'\t' | b'\r' | b'\n' | b'[' | b'{' | b',');
        if c == b'#' && after_space {
            while *i < b.len() && b[*i] != b'\n' {
                *i += 1;
            }
        } else if (c == b'"' || c == b'\'') && after_space {
            *i += 1;
            while *i < b.len() && b[*i] != c {
                *i += if c == b'"' && b[*i] == b'\\' { 2 } else { 1 };
            }
        } else if c == b'*'
            && after_space
            && b.get(*i + 1).is_some_and(|n| !n.is_ascii_whitespace())
        {
            return Some(*i);
        }
        *prev = b.get(*i).copied().unwrap_or(b'\n');
        *i += 1;
    }
    None
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
pub(super) fn to_diagnostic(
    e: &serde_yaml::Error,
    code: &'static str,
    src: &Source<'_>,
) -> Diagnostic {
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

/// Rejects nesting deeper than [`MAX_NESTING`] in one linear pass, before the YAML scanner sees
/// it (libyaml's scanner is quadratic in nesting depth, so 20 000 `[` or `- ` in a row would
/// otherwise take seconds). Counts unclosed `[`/`{` outside quoted scalars and comments, and the
/// run of `- `/`? `/`: ` indicators that opens a line. The count can only over-estimate real
/// nesting by the block levels it ignores, which the deserializer still checks.
pub(super) fn check_nesting(src: &Source<'_>) -> Result<(), Diagnostic> {
    let b = src.body.as_bytes();
    let mut flow = 0usize;
    let mut i = 0;
    let mut line_start = true;
    let mut run = 0usize;
    while i < b.len() {
        let c = b[i];
        if line_start {
            // indentation, then a run of block indicators on the same line
            match c {
                b' ' | b'\t' => {
                    i += 1;
                    continue;
                }
                b'-' | b'?' | b':' if matches!(b.get(i + 1), Some(b' ') | Some(b'\n') | None) => {
                    run += 1;
                    if run > MAX_NESTING {
                        return Err(too_deep(src, i));
                    }
                    i += 2;
                    continue;
                }
                _ => line_start = false,
            }
        }
        match c {
            b'\n' => {
                line_start = true;
                run = 0;
            }
            b'#' if i == 0 || matches!(b[i - 1], b' ' | b'\t' | b'\n') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            // A quote opens a scalar only where a token can start; elsewhere it is a character
            // of a plain scalar. Quoted scalars end at their closing quote or at a line break
            // (a multi-line quoted scalar still cannot hide nesting from this over-estimate).
            b'"' | b'\''
                if i == 0
                    || matches!(b[i - 1], b' ' | b'\t' | b'\n' | b'[' | b'{' | b',' | b':') =>
            {
                let q = c;
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    i += if q == b'"' && b[i] == b'\\' { 2 } else { 1 };
                }
                if i < b.len() && b[i] == b'\n' {
                    continue;
                }
            }
            b'[' | b'{' => {
                flow += 1;
                if flow + run > MAX_NESTING {
                    return Err(too_deep(src, i));
                }
            }
            b']' | b'}' => flow = flow.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

fn too_deep(src: &Source<'_>, offset: usize) -> Diagnostic {
    Diagnostic::error(
        CODE_NESTING_LIMIT,
        format!(
            "collections are nested more than {MAX_NESTING} levels deep here; such documents are not read"
        ),
        src.char_span(offset),
    )
}
