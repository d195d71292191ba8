//! The YAML layer: a deterministic emitter of our own and a reader with located, limited errors.
//!
//! Every YAML document zogkit writes goes through [`to_string`]; every one it reads goes through
//! [`from_str`]. The point of this module is DESIGN.md principles 5 and 6: byte-identical output
//! on every machine, and output that every YAML reader (YAML 1.1 or 1.2, PyYAML, libyaml,
//! js-yaml, yaml_serde) reads back as the same data, although ZRF names such as `n`, `off`, `Y`,
//! `On` and `01` are booleans or numbers to YAML 1.1 readers (zrf-language.md §9.2).
//!
//! # Output style (what [`to_string`] writes)
//! - **Block style, with short flow collections.** Maps are `key: value` lines, sequences are
//!   `- item` lines; nested collections are indented by two spaces, sequences under a map key
//!   included. A sequence or map whose entries are all one line (scalars or such flow
//!   collections) is written in flow style on one line when that is at most 100 characters
//!   long; a map of one entry at a sequence item stays `- key: value`, and is written
//!   `{key: value}` inside a flow collection. A longer map, or a longer sequence of scalars,
//!   whose entries each fit on a line, is wrapped after a `,` onto lines of at most 100
//!   characters (indentation not counted; the first line's `key: ` counted), indented two
//!   spaces past the line it starts on, when that takes at most half the lines of block style:
//!   ```yaml
//!   title: Shogi
//!   players: [Black, White]
//!   pieces:
//!     - name: 駒
//!       rect: [0, 0, 31, 31]
//!       moves:
//!         - program: [{step: "n"}, {verify: {not: {test: {test: friend}}}}, {add: {}}]
//!   positions: [a1, c1, e1, g1, b2, d2, f2, h2, a3, c3, e3, g3, b4, d4, f4, h4, a5, c5, e5, g5, b6, d6,
//!     f6, h6, a7, c7, e7, g7, b8, d8, f8, h8]
//!   ```
//!   A sequence inside a sequence starts on the dash's line (`- - 1`). Empty collections are
//!   written `[]` and `{}`. Output ends with exactly one `\n`.
//! - **Repeated collections.** A map value of at least 512 bytes in block style whose text
//!   occurs again (a variant's unchanged board or move list) is written once with an anchor
//!   (`moves: &a3`) and afterwards as an alias (`moves: *a3`). Spec documents
//!   ([`write_document`]) also alias values known to be equal to an earlier one ([`Shared`])
//!   whose text would differ only by the aliases inside it. Every YAML reader expands aliases,
//!   so readers see complete data; no tags, directives or document markers are written.
//! - **Order.** Struct fields in declaration order; maps in the order the value gives them, so
//!   callers use `BTreeMap`/`Vec` (never `HashMap`) for deterministic output.
//! - **Strings are plain where every reader agrees** (`plain::is_plain`): a string that starts
//!   with a letter or `_`, holds only letters, digits, spaces and `-_./\()'+=<>&*!$%;^|~`, does
//!   not end with a space and is none of `y`, `n`, `yes`, `no`, `true`, `false`, `on`, `off`,
//!   `null` in any letter case is written as it is, map keys and struct field names included.
//!   Every other string is double-quoted, so no reader can resolve it to a boolean, number or
//!   null (`"n"`, `"off"`, `"01"`, `""`, `"-"`) or read an indicator in it. Escapes: `\"`,
//!   `\\`, `\n`, `\t`, `\r`, and `\uXXXX` for every other character that is not printable in
//!   YAML 1.1 and 1.2 or that some reader treats as a line break or stream marker: C0 controls,
//!   DEL, C1 controls (U+0080–U+009F, U+0085 included), NBSP U+00A0 (invisible and easy to
//!   lose when edited), U+2028, U+2029, BOM U+FEFF, U+FFFE and U+FFFF. Everything else, kanji
//!   and Cyrillic included, is raw UTF-8. A string is always one scalar on one line: multi-line
//!   text keeps its `\n` escapes and long text is never folded, which makes the round trip
//!   exact.
//! - **Keys longer than [`MAX_IMPLICIT_KEY_BYTES`]** (as written) use the explicit form
//!   `? "key"` / `: value`, because YAML limits implicit keys to 1024 characters.
//! - **Numbers, booleans and null** are plain: integers in decimal, floats in a
//!   form both YAML 1.1 and 1.2 read as floats (`1.0`, `-2.5`, `1.0e+100`, `.inf`, `-.inf`,
//!   `.nan`), `true`/`false`, and `null` for `None`, `()` and unit structs.
//! - **Enums** follow serde's external tagging, like `serde_json`: a unit variant is its
//!   name, a newtype, tuple or struct variant is a single-key map `Variant: content`.
//!   Internally, adjacently tagged and untagged enums are plain maps and work unchanged.
//!   Bytes are a sequence of integers (as in `serde_json`). Map keys must be scalars.
//! - **Nesting** deeper than [`MAX_NESTING`] collections is refused, since the reader could not
//!   read it back.
//!
//! ```
//! use zogkit::diag::{FileId, SourceMap};
//! use zogkit::spec::yaml;
//!
//! #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
//! struct Setup { player: String, positions: Vec<String> }
//!
//! let setup = Setup { player: "White".into(), positions: vec!["n".into(), "off".into()] };
//! let text = yaml::to_string(&setup).unwrap();
//! assert_eq!(text, "player: White\npositions: [\"n\", \"off\"]\n");
//! assert_eq!(yaml::from_str::<Setup>(&text, FileId(0)).unwrap(), setup);
//!
//! let mut sources = SourceMap::new();
//! let bad = "player: White\npositions: \"n\"\n";
//! let file = sources.add("setup.yaml", bad);
//! let d = yaml::from_str::<Setup>(bad, file).unwrap_err();
//! assert_eq!(d.code, yaml::CODE_INVALID);
//! assert!(d.render(&sources, "setup.yaml").contains("--> setup.yaml:2:12"));
//! ```
//!
//! # Reading ([`from_str`])
//! Text in exactly the style above (quoted keys and strings, the style of earlier versions,
//! included) is deserialized directly from the text by a fast path
//! ([`from_str_fast`]; about ten times faster on the corpus). Any other text, and any text with a
//! problem, is parsed by `yaml_serde` (the maintained fork of serde_yaml, imported as
//! `serde_yaml`; [`from_str_general`] uses only it), so both paths give the same value for every
//! text the fast path accepts, and every error comes from `yaml_serde`. On top of it this module
//! adds:
//! - externally tagged enums written as single-key maps (as the emitter writes them and as JSON
//!   tools expect); `yaml_serde` alone only accepts `!Variant` tags, which it still accepts too;
//! - errors as [`Diagnostic`]s with byte spans, so they render as `file:line:col` with a caret,
//!   with codes [`CODE_SYNTAX`], [`CODE_INVALID`], [`CODE_DUPLICATE_KEY`], [`CODE_ALIAS_LIMIT`],
//!   [`CODE_NESTING_LIMIT`] and [`CODE_TOO_LARGE`];
//! - duplicate keys in a map are an error ([`CODE_DUPLICATE_KEY`]), as YAML requires, instead of
//!   the later value silently replacing the earlier one;
//! - limits against hostile input ([`ReadLimits`]): a size limit, and an alias-expansion budget
//!   that stops "billion laughs" and quadratic alias blow-ups after a bounded amount of work.
//!   `yaml_serde` itself stops alias replay after 100 jumps per event and nesting deeper than
//!   [`MAX_NESTING`]; both are reported with their own codes.

use crate::diag::{Diagnostic, FileId, Span};
use serde::de;
use serde::ser::{self, Serialize};
use std::fmt;

pub mod depth;
pub use version::{CODE_VERSION, read_document};

mod emit;
pub use emit::Shared;
mod enums;
mod fast;
mod plain;
mod read;
#[cfg(test)]
mod tests;
mod version;

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
    to_string_shared(value, Shared::new())
}

/// [`to_string`], told which parts of `value` equal earlier parts ([`Shared`]), so it writes
/// their aliases without serializing them first. It reads back as the same value as
/// [`to_string`]'s output, with fewer, larger aliases; it is as deterministic.
pub fn to_string_shared<T: Serialize + ?Sized>(
    value: &T,
    shared: Shared<'_>,
) -> Result<String, YamlError> {
    let mut out = emit::Out::new(shared);
    value.serialize(emit::Emitter::new(&mut out))?;
    Ok(out.finish())
}

/// Writes a spec document: [`to_string_shared`] with the parts that variants (and pieces) repeat
/// from earlier games found by [`crate::spec::Document::repeated_parts`].
pub fn write_document(doc: &crate::spec::Document) -> Result<String, YamlError> {
    to_string_shared(doc, doc.repeated_parts())
}

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
/// Error code: a key occurs twice in one map (YAML forbids it; the later value would otherwise
/// silently replace the earlier one).
pub const CODE_DUPLICATE_KEY: &str = "yaml::duplicate-key";
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
    /// 64 MiB of text and four million nodes added by aliases (the shared corpus needs up to 1.2 M).
    fn default() -> Self {
        ReadLimits {
            max_bytes: 64 << 20,
            max_alias_nodes: 4_000_000,
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
    read_with(text, file, limits, true)
}

/// [`from_str_with_limits`] without the fast path: every text goes through `yaml_serde`.
///
/// [`from_str_with_limits`] returns the same value for every text, only faster for text in the
/// emitter's style; this exists so tests and the fuzz harness can check exactly that.
pub fn from_str_general<T: de::DeserializeOwned>(
    text: &str,
    file: FileId,
    limits: &ReadLimits,
) -> Result<T, Diagnostic> {
    read_with(text, file, limits, false)
}

/// The fast path of [`from_str_with_limits`] alone: the value for text in the style
/// [`to_string`] writes (and that fits `T` within `limits`), `None` for any other text.
pub fn from_str_fast<T: de::DeserializeOwned>(text: &str, limits: &ReadLimits) -> Option<T> {
    fast::read(text, limits)
}

fn read_with<T: de::DeserializeOwned>(
    text: &str,
    file: FileId,
    limits: &ReadLimits,
    try_fast: bool,
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
    let src = read::Source::new(text, file);
    // Text in the emitter's own style is read directly; anything else (and every error) goes
    // through yaml_serde.
    if try_fast && let Some(value) = fast::read::<T>(src.body, limits) {
        return Ok(value);
    }
    read::check_nesting(&src)?;
    read_general(&src, limits)
}

fn read_general<T: de::DeserializeOwned>(
    src: &read::Source<'_>,
    limits: &ReadLimits,
) -> Result<T, Diagnostic> {
    // Every alias starts with `*`: without one there is nothing to expand, so the budgeted
    // pre-pass is only needed (and only paid for) when the text contains one.
    if src.body.contains('*') {
        read::check_well_formed(src, limits)?;
    }
    match T::deserialize(enums::Enums(serde_yaml::Deserializer::from_str(src.body))) {
        Ok(value) => Ok(value),
        Err(typed) => {
            // Classify: a syntax or limit error also shows up in the untyped pass.
            read::check_well_formed(src, limits)?;
            let message = typed.to_string();
            let code = if message.contains(enums::DUPLICATE_KEY)
                || message.contains("duplicate field `")
            {
                CODE_DUPLICATE_KEY
            } else {
                CODE_INVALID
            };
            Err(read::to_diagnostic(&typed, code, src))
        }
    }
}
