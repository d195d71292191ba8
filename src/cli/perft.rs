//! `zogkit perft`.
