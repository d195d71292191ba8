//! CPU time of the calling thread: tests and checks bound work by it, never by the wall clock, so that a loaded machine cannot fail them (shared by path with the unit tests and `xtask`).

use std::time::{Duration, Instant};

/// CPU time this thread has run (Linux `/proc/thread-self/schedstat`, nanoseconds), or the wall
/// time since `fallback` where the platform does not report it.
pub fn thread_cpu(fallback: Instant) -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or_else(|| fallback.elapsed(), Duration::from_nanos)
}

/// Runs `f` and returns its result with the CPU time it used on this thread.
pub fn cpu_time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let wall = Instant::now();
    let before = thread_cpu(wall);
    let out = f();
    (out, thread_cpu(wall).saturating_sub(before))
}
