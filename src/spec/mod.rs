//! The portable game spec: the one document every reader lowers into and every writer reads from.
//!
//! [`yaml`] is the YAML layer every spec document goes through: a deterministic emitter that quotes
//! every string, and a reader with located, limited errors.

pub mod yaml;
