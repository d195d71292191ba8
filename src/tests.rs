//! Helpers shared by the library's unit tests.

#[path = "../tests/it/common/cpu.rs"]
mod cpu;

pub use cpu::cpu_time;

/// The document of ZRF `text` (no includes), which must read without errors.
pub fn zrf_doc(text: &str) -> crate::spec::Document {
    use crate::format::{self, Format};
    let r = format::read(
        Format::Zrf,
        "t.zrf",
        text.as_bytes(),
        &format::ReadOptions::default(),
        &mut crate::zrf::NoIncludes,
    );
    assert_eq!(r.errors(), 0, "{:?}", r.diagnostics);
    r.document.unwrap()
}
