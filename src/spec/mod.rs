//! The portable game spec: the one document every reader lowers into and every writer reads from.
//!
//! [`types`] holds the data model ([`Document`] → [`Game`] → [`Board`], [`Piece`], [`MoveBlock`]
//! …); `docs/spec.md` documents every field.
//! [`yaml`] is the YAML layer every spec document goes through: a deterministic emitter that quotes
//! every string, and a reader with located, limited errors.

pub mod check;
pub mod geometry;
pub mod types;
pub mod yaml;

pub use types::*;

/// The JSON Schema of [`Document`] (what `zogkit schema` prints).
pub fn json_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(Document)).unwrap_or_default()
}
