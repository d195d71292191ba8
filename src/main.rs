//! The `zogkit` command-line tool.
fn main() {}
