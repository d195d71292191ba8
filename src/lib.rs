//! zogkit: read Zillions of Games (ZRF), Ludii and Chessembly game rules, normalise them into one
//! portable YAML game spec, write them back out, and render ZoG-compatible bitmaps.
//!
//! Data flow: readers → [`spec`] → writers and renderer. Every stage returns a value plus
//! [`diag::Diagnostic`]s; nothing below the CLI touches the file system.
//!
//! # Example
//!
//! Read a ZRF text, write the game as a YAML spec, and count its positions two moves deep:
//!
//! ```
//! use zogkit::engine::{self, Rules, State};
//! use zogkit::format::{self, Format, ReadOptions};
//! use zogkit::zrf::NoIncludes;
//!
//! let zrf = r#"
//! (game (title "Mini") (players White Black) (turn-order White Black)
//!   (board (grid (start-rectangle 0 0 30 30)
//!     (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
//!     (directions (n 0 -1) (s 0 1)))
//!     (symmetry Black (n s) (s n)))
//!   (piece (name Pawn) (moves (n (verify not-friend?) add)))
//!   (board-setup (White (Pawn a1 b1)) (Black (Pawn c3))))
//! "#;
//! // Reading never fails wholesale: the document comes with located diagnostics
//! // (`NoIncludes`: this text has no `(include …)`; the CLI passes a file-system loader).
//! let read = format::read(Format::Zrf, "mini.zrf", zrf.as_bytes(), &ReadOptions::default(), &mut NoIncludes);
//! assert_eq!(read.errors(), 0);
//! let doc = read.document.expect("a document");
//! assert_eq!(doc.games[0].title, "Mini");
//!
//! // Any writer takes the spec; YAML is the portable form.
//! let (yaml, warnings) = format::write(Format::Yaml, &doc).expect("writable");
//! assert!(warnings.is_empty());
//! assert!(String::from_utf8(yaml)?.contains("Mini"));
//!
//! // The engine plays the first game: White's two pawns step north, then Black's one south.
//! let rules = Rules::compile(&doc, 0).map_err(|e| e.message)?;
//! let mut start = State::start(&rules);
//! let count = |depth| engine::perft(&rules, &mut start.clone(), depth, &engine::Control::default());
//! assert_eq!(count(1), Some(2));
//! assert_eq!(count(2), Some(2));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

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
pub mod play;
pub mod render;
pub mod sexpr;
pub mod spec;
pub mod text;
pub mod verify;
pub mod zrf;

#[cfg(test)]
mod tests;
