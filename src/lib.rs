//! zogkit: read Zillions of Games (ZRF), Ludii and Chessembly game rules, normalise them into one
//! portable YAML game spec, write them back out, and render ZoG-compatible bitmaps.
//!
//! Data flow: readers → [`spec`] → writers and renderer. Every stage returns a value plus
//! [`diag::Diagnostic`]s; nothing below the CLI touches the file system.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod catalogue;
pub mod chessembly;
pub mod diag;
pub mod engine;
pub mod format;
pub mod fsf;
pub mod limits;
pub mod ludii;
pub mod render;
pub mod sexpr;
pub mod spec;
pub mod text;
pub mod verify;
pub mod zrf;

#[cfg(test)]
mod tests;
