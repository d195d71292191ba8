//! The integration tests, as one test binary (one link of the library instead of one per file):
//! each module is a former `tests/<name>.rs`; run one with `cargo test --test it <name>::`.

mod common;

mod author_pictures;
mod batch;
mod catalogue;
mod chessembly_cli;
mod chessembly_export;
mod chessembly_lower;
mod corpus;
mod corpus_spec;
mod corpus_zrf;
mod engine_cli;
mod engine_formats;
mod engine_oracle;
mod engine_perft;
mod engine_replay;
mod engine_rules;
mod fsf_writer;
mod hostile;
mod limits;
mod ludii;
mod ludii_english;
mod ludii_facts;
mod ludii_placements;
mod ludii_play;
mod ludii_writer;
mod movement;
mod outcomes;
mod play;
mod render_cli;
mod render_corpus;
mod render_golden;
mod render_spec;
mod tidy;
mod verify;
mod yaml_interop;
mod zrf_expand;
mod zrf_from_sources;
mod zrf_roundtrip;
