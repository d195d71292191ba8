//! The version policy of spec documents: which `spec_version`s read, and how a document of an older layout (0.1) is upgraded to this build's.
//!
//! A document reads when its major version is [`SPEC_VERSION`]'s. Minor versions change the
//! layout compatibly for readers of the new one: a document of an older minor version reads
//! into the current types, after an upgrade of its YAML value where the layout changed, and is
//! written back only in the current layout (with the current `spec_version`).
//!
//! 0.1 → 0.2: raw content is tagged with its format. An untagged `raw: TEXT` (instruction,
//! condition or goal condition, always ZRF text in 0.1) becomes `raw: {format: zrf, text: TEXT}`;
//! the per-format `extensions: {zrf, zrf_at, ludii, chessembly}` becomes one list of
//! `{format, text, at}` items (ZRF items first, each with its `zrf_at` place when `zrf_at` gave
//! one for every form, then the Ludii items, then the Chessembly ones).
//!
//! 0.2 → 0.3: a board built by board functions is described by `layout.construction` (typed
//! functions and arguments) instead of its Ludii ludeme kept as a `ludii` extension. The YAML
//! layout is otherwise unchanged, so 0.2 documents read as they are; the format layer
//! (`ludii::upgrade_board_ludemes`, as the spec reads no Ludii) turns such a kept ludeme into
//! the construction.
//!
//! The current layout is tried first (documents of this build cost nothing more); only when
//! that fails is the version looked at, so a 0.1 document without raw content or extensions
//! reads directly.

use super::{CODE_INVALID, ReadLimits, enums, from_str_general, from_str_with_limits};
use crate::diag::{Diagnostic, FileId, Severity, Span};
use crate::spec::{Document, SPEC_VERSION};
use serde::Deserialize;
use serde_yaml::{Mapping, Value};

/// Error code: the document's `spec_version` has another major version than this build reads.
pub const CODE_VERSION: &str = "spec::version";

/// Reads a spec document of any version this build accepts (see the module documentation).
pub fn read_document(
    text: &str,
    file: FileId,
    limits: &ReadLimits,
) -> Result<Document, Diagnostic> {
    let typed = from_str_with_limits::<Document>(text, file, limits);
    let version = match &typed {
        Ok(doc) => doc.spec_version.clone(),
        Err(_) => match probe(text, file, limits) {
            Some(v) => v,
            None => return typed,
        },
    };
    if major(&version) != major(SPEC_VERSION) {
        return Err(Diagnostic::new(
            Severity::Error,
            CODE_VERSION,
            format!(
                "spec_version {version} is not readable by this zogkit (it reads {SPEC_VERSION})"
            ),
            None,
        ));
    }
    let mut doc = match typed {
        Ok(doc) => doc,
        Err(d) if version == "0.1" => {
            upgrade_0_1(text, file, limits).map_err(|e| e.unwrap_or(d))?
        }
        Err(d) => return Err(d),
    };
    doc.spec_version = SPEC_VERSION.to_string();
    Ok(doc)
}

fn major(version: &str) -> &str {
    version.split('.').next().unwrap_or(version)
}

/// The `spec_version` of a text that did not read as a document, when it has one.
fn probe(text: &str, file: FileId, limits: &ReadLimits) -> Option<String> {
    #[derive(Deserialize)]
    struct Probe {
        spec_version: String,
    }
    from_str_general::<Probe>(text, file, limits)
        .ok()
        .map(|p| p.spec_version)
}

/// Reads a 0.1 document: its YAML value upgraded, then typed. `Err(None)` when the text does not
/// read as YAML or holds nothing of the old layout: the caller's located error stands.
fn upgrade_0_1(
    text: &str,
    file: FileId,
    limits: &ReadLimits,
) -> Result<Document, Option<Diagnostic>> {
    let mut value: Value = from_str_general(text, file, limits).map_err(|_| None)?;
    if !upgrade_value(&mut value) {
        return Err(None);
    }
    Document::deserialize(enums::Enums(value)).map_err(|e| {
        Some(Diagnostic::error(
            CODE_INVALID,
            format!("this spec_version 0.1 document does not read after its upgrade to {SPEC_VERSION}: {e}"),
            Span::new(file, 0, 0),
        ))
    })
}

/// Rewrites the 0.1 layout of raw content and extensions into the current one, everywhere in
/// `v` (nesting is bounded by the reader's nesting limit). Whether anything changed.
fn upgrade_value(v: &mut Value) -> bool {
    match v {
        Value::Sequence(items) => items.iter_mut().fold(false, |c, x| upgrade_value(x) | c),
        Value::Tagged(t) => {
            if t.tag == "raw" && t.value.is_string() {
                t.value = tagged_raw(std::mem::take(&mut t.value));
                true
            } else {
                upgrade_value(&mut t.value)
            }
        }
        Value::Mapping(m) => {
            if m.len() == 1
                && let Some(raw) = m.get_mut("raw")
                && raw.is_string()
            {
                *raw = tagged_raw(std::mem::take(raw));
                return true;
            }
            let mut changed = false;
            for (k, x) in m.iter_mut() {
                if k.as_str() == Some("extensions")
                    && let Some(list) = extensions_list(x)
                {
                    *x = list;
                    changed = true;
                } else {
                    changed |= upgrade_value(x);
                }
            }
            changed
        }
        _ => false,
    }
}

fn tagged_raw(text: Value) -> Value {
    let mut m = Mapping::new();
    m.insert("format".into(), "zrf".into());
    m.insert("text".into(), text);
    Value::Mapping(m)
}

/// A 0.1 `extensions` map as a 0.2 list, or `None` when `x` is not one (it is then read as it
/// is, and any error is reported there).
fn extensions_list(x: &Value) -> Option<Value> {
    let m = x.as_mapping()?;
    const KEYS: [&str; 4] = ["zrf", "zrf_at", "ludii", "chessembly"];
    if !m
        .keys()
        .all(|k| k.as_str().is_some_and(|k| KEYS.contains(&k)))
    {
        return None;
    }
    let seq = |key: &str| -> Option<Vec<Value>> {
        match m.get(key) {
            None => Some(Vec::new()),
            Some(v) => v.as_sequence().cloned(),
        }
    };
    let (zrf, zrf_at) = (seq("zrf")?, seq("zrf_at")?);
    let placed = zrf_at.len() == zrf.len();
    let mut list = Vec::new();
    let mut item = |format: &str, text: Value, at: Option<Value>| {
        let mut e = Mapping::new();
        e.insert("format".into(), format.into());
        e.insert("text".into(), text);
        if let Some(at) = at {
            e.insert("at".into(), at);
        }
        list.push(Value::Mapping(e));
    };
    for (i, text) in zrf.into_iter().enumerate() {
        item("zrf", text, placed.then(|| zrf_at[i].clone()));
    }
    for format in ["ludii", "chessembly"] {
        for text in seq(format)? {
            item(format, text, None);
        }
    }
    Some(Value::Sequence(list))
}
