//! Helpers shared by the library's unit tests.

#[path = "../tests/it/common/cpu.rs"]
mod cpu;

pub use cpu::cpu_time;
