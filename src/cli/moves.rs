//! `zogkit moves`.
