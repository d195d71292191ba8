//! `cargo xtask fuzz`: seeded mutation fuzzing of every reader on stable Rust, with minimisation.
//!
//! Seeds are the shared corpus and the project's `corpus/`. Each round picks a seed, applies a
//! few mutations (truncate, splice, duplicate, flip bytes, insert deep nesting, swap encodings)
//! and runs read → lower → every writer → render under `catch_unwind` with a time budget. A panic or a slow input
//! is a finding: it is minimised and saved under `target/fuzz-findings/<target>/`. The input
//! being tried is kept in `in-flight.<target>` there, so an abort (stack overflow) can be replayed.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use zogkit::format::{self, Format};
use zogkit::zrf::NoIncludes;

/// A small deterministic PRNG (xorshift64*), so campaigns are reproducible from `--seed`.
pub struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// What a target reads.
fn target_format(name: &str) -> Option<Format> {
    match name {
        "txt" => Some(Format::LudiiEnglish),
        "zrf" => Some(Format::Zrf),
        "yaml" => Some(Format::Yaml),
        "csm" => Some(Format::Chessembly),
        "lud" => Some(Format::Lud),
        "english" => Some(Format::LudiiEnglish),
        "includes" | "cli" => Some(Format::Zrf),
        // Not one format: `fuzz_surfaces` reads them (the format only names minimisation).
        "jar" => Some(Format::Lud),
        "zsg" => Some(Format::Zrf),
        "ini" => Some(Format::Fsf),
        "catalogue" => Some(Format::Yaml),
        _ => None,
    }
}

/// Replays saved inputs (findings) and prints how long each stage takes.
pub fn replay(files: &[PathBuf]) -> bool {
    let mut ok = true;
    for f in files {
        let Ok(bytes) = std::fs::read(f) else {
            eprintln!("fuzz: cannot read {}", f.display());
            ok = false;
            continue;
        };
        let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
        let Some(fmt) = target_format(ext) else {
            eprintln!("fuzz: {}: the extension names no target", f.display());
            ok = false;
            continue;
        };
        if crate::fuzz_surfaces::TARGETS.contains(&ext) {
            let (r, took) = crate::cpu_time(|| crate::fuzz_surfaces::exercise(ext, &bytes));
            println!("{}: {ext} target, {took:?} of CPU: {r:?}", f.display());
            ok &= r.is_ok();
            continue;
        }
        let t = Instant::now();
        let r = format::read(fmt, "replay", &bytes, &Default::default(), &mut NoIncludes);
        println!(
            "{}: read {:?}, {} diagnostics",
            f.display(),
            t.elapsed(),
            r.diagnostics.len()
        );
        let Some(doc) = &r.document else { continue };
        for to in [Format::Yaml, Format::Zrf, Format::Lud, Format::Chessembly] {
            let t = Instant::now();
            let w = format::write(to, doc);
            println!(
                "  write {to:?}: {:?} ({})",
                t.elapsed(),
                w.map(|(b, _)| b.len()).unwrap_or(0)
            );
        }
        let t = Instant::now();
        render(doc);
        println!("  render: {:?}", t.elapsed());
    }
    ok
}

/// Runs one input through read → lower → every writer → render; `Err` describes a panic.
pub fn exercise(fmt: Format, bytes: &[u8]) -> Result<(), String> {
    std::panic::catch_unwind(|| {
        if fmt == Format::Yaml {
            yaml_paths_agree(bytes);
        }
        let r = format::read(
            fmt,
            "fuzz",
            bytes,
            &format::ReadOptions::default(),
            &mut NoIncludes,
        );
        if let Some(doc) = &r.document {
            for to in [Format::Yaml, Format::Zrf, Format::Lud, Format::Chessembly] {
                if to != fmt || to == Format::Yaml {
                    let _ = format::write(to, doc);
                }
            }
            render(doc);
        }
    })
    .map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "panic".into())
    })
}

/// The YAML reader's fast path must read whatever it accepts exactly as yaml_serde does: a
/// disagreement is a finding (reported as a panic).
fn yaml_paths_agree(bytes: &[u8]) {
    use zogkit::spec::{Document, yaml};
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let limits = yaml::ReadLimits::default();
    if let Some(fast) = yaml::from_str_fast::<Document>(text, &limits) {
        let general = yaml::from_str_general::<Document>(text, zogkit::diag::FileId(0), &limits);
        if general.as_ref().ok() != Some(&fast) {
            panic!("the YAML reader's fast path and yaml_serde read this text differently");
        }
    }
}

/// How many inputs reached the renderer (reported, so a campaign shows it exercised it).
static RENDERED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Renders the first game's board and pieces when it is small enough to do so in the budget.
fn render(doc: &zogkit::spec::Document) {
    use zogkit::render::{FontSet, PlanOptions, from_spec, set};
    let Ok(plan) = from_spec(doc, 0, &PlanOptions::default()) else {
        return;
    };
    let sheet = &plan.board.sheet;
    if plan.pieces.len() > 16
        || sheet.cells.len() > 400
        || u64::from(sheet.width) * u64::from(sheet.height) > 1 << 20
    {
        return;
    }
    thread_local!(static FONTS: FontSet = FontSet::bundled());
    FONTS.with(|f| {
        let _ = set::render_set(&plan, &set::SetOptions::default(), f);
    });
    RENDERED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

fn mutate(rng: &mut Rng, input: &[u8], seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(3) {
        let len = v.len();
        match rng.below(7) {
            0 => v.truncate(rng.below(len + 1)),
            1 if len > 0 => {
                let i = rng.below(len);
                v[i] ^= 1 << rng.below(8);
            }
            2 if len > 0 => {
                // duplicate a slice in place
                let a = rng.below(len);
                let b = (a + rng.below(256)).min(len);
                let chunk = v[a..b].to_vec();
                let at = rng.below(len);
                v.splice(at..at, chunk);
            }
            3 if !seeds.is_empty() => {
                // splice in a piece of another seed
                let other = &seeds[rng.below(seeds.len())];
                let a = rng.below(other.len());
                let b = (a + rng.below(512)).min(other.len());
                let at = rng.below(len + 1);
                v.splice(at..at, other[a..b].iter().copied());
            }
            4 => {
                // deep nesting
                let n = 1 + rng.below(20_000);
                let at = rng.below(len + 1);
                let open = match rng.below(3) {
                    0 => b"(".repeat(n),
                    1 => b"{".repeat(n),
                    _ => b"- ".repeat(n),
                };
                v.splice(at..at, open);
            }
            5 => {
                // swap encodings: re-encode a valid UTF-8 text as Shift_JIS or cp1251 bytes
                if let Ok(t) = std::str::from_utf8(&v) {
                    let enc = if rng.below(2) == 0 {
                        zogkit::text::Encoding::ShiftJis
                    } else {
                        zogkit::text::Encoding::Windows1251
                    };
                    if let Ok(b) = zogkit::text::encode(t, enc) {
                        v = b;
                    }
                }
            }
            _ if len > 0 => {
                let i = rng.below(len);
                v.insert(i, [b'"', b')', b'$', b';', 0xFF, b'\\', 0x81][rng.below(7)]);
            }
            _ => {}
        }
    }
    v
}

/// Shrinks a failing input by removing chunks while it still fails the same way.
fn minimise(fmt: Format, mut input: Vec<u8>, fails: &dyn Fn(Format, &[u8]) -> bool) -> Vec<u8> {
    let mut chunk = input.len() / 2;
    while chunk >= 1 {
        let mut i = 0;
        while i + chunk <= input.len() {
            let mut candidate = input.clone();
            candidate.drain(i..i + chunk);
            if fails(fmt, &candidate) {
                input = candidate;
            } else {
                i += chunk;
            }
        }
        chunk /= 2;
    }
    input
}

fn seeds_for(root: &Path, target: &str) -> Vec<Vec<u8>> {
    if crate::fuzz_surfaces::TARGETS.contains(&target) {
        return crate::fuzz_surfaces::seeds(root, target);
    }
    let ext = match target {
        "zrf" | "includes" | "cli" => "zrf",
        "yaml" => "yaml",
        "lud" => "lud",
        "english" => "txt",
        _ => "csm",
    };
    let mut files = Vec::new();
    for dir in [
        root.join("../shared/corpus/zrf"),
        root.join("corpus"),
        root.join("golden"),
    ] {
        collect(&dir, ext, &mut files);
    }
    files.sort();
    // Large seeds slow every round down; keep the first 64 KB of each.
    let seeds: Vec<Vec<u8>> = files
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .map(|mut b| {
            b.truncate(64 * 1024);
            b
        })
        .collect();
    match target {
        "includes" | "cli" => crate::fuzz_files::seeds(&seeds),
        _ => seeds,
    }
}

/// Runs one input of `target`: the `includes` and `cli` targets read sets of files
/// ([`crate::fuzz_files`]), the others one file through [`exercise`].
fn exercise_target(
    target: &str,
    fmt: Format,
    bytes: &[u8],
    cli: Option<&(PathBuf, PathBuf)>,
) -> Result<(), String> {
    match (target, cli) {
        ("includes", _) => std::panic::catch_unwind(|| crate::fuzz_files::exercise_includes(bytes))
            .map_err(|_| "panic".to_string()),
        ("cli", Some((bin, scratch))) => crate::fuzz_files::exercise_cli(bin, scratch, bytes),
        (t, _) if crate::fuzz_surfaces::TARGETS.contains(&t) => {
            crate::fuzz_surfaces::exercise(t, bytes)
        }
        _ => exercise(fmt, bytes),
    }
}

/// Every file below `dir` whose extension is `ext` (any letter case), into `out`.
pub fn collect(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, ext, out);
        } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext)) {
            out.push(p);
        }
    }
}

/// Runs a campaign; returns false when findings remain.
pub fn fuzz(root: &Path, secs: u64, seed: u64, targets: &[String]) -> bool {
    // The slowest real corpus file takes about 0.3 s through the whole pipeline (`--replay`);
    // work is linear in the expanded size, which the limits bound. Over 2 s of CPU time means a
    // limit is missing or something is worse than linear.
    let budget = Duration::from_secs(2);
    std::panic::set_hook(Box::new(|_| {}));
    let mut clean = true;
    for target in targets {
        let Some(fmt) = target_format(target) else {
            eprintln!(
                "fuzz: unknown target {target} (zrf, yaml, csm, lud, english, includes, cli, \
                 jar, zsg, ini, catalogue)"
            );
            return false;
        };
        let seeds = seeds_for(root, target);
        if seeds.is_empty() {
            eprintln!("fuzz: no seeds for {target}");
            continue;
        }
        let cli = match target.as_str() {
            "cli" => match crate::fuzz_files::binary(root) {
                Some(bin) => Some((bin, root.join("target/fuzz-cli-scratch"))),
                None => {
                    eprintln!("fuzz: cannot build the zogkit binary for the cli target");
                    return false;
                }
            },
            _ => None,
        };
        let mut rng = Rng(seed.max(1) ^ (target.len() as u64 * 0x9E37_79B9));
        let start = Instant::now();
        let (mut execs, mut findings) = (0u64, 0usize);
        let dir = root.join("target/fuzz-findings").join(target);
        let fails = |fmt: Format, b: &[u8]| exercise_target(target, fmt, b, cli.as_ref()).is_err();
        let _ = std::fs::create_dir_all(&dir);
        let in_flight = dir.join(format!("in-flight.{target}"));
        while start.elapsed() < Duration::from_secs(secs) {
            let base = &seeds[rng.below(seeds.len())];
            let mut input = mutate(&mut rng, base, &seeds);
            // (Only the new targets draw for it: the older ones keep their seeded sequences.)
            if crate::fuzz_surfaces::TARGETS.contains(&target.as_str()) && rng.below(2) == 0 {
                input = crate::fuzz_surfaces::mutate_extra(target, &mut rng, input);
            }
            // A stack overflow aborts the process before any handler runs: the input being
            // tried is on disk, so the crash can be replayed (`--replay`).
            let _ = std::fs::write(&in_flight, &input);
            // CPU time, not wall time: a loaded machine cannot turn an input into a finding.
            let (result, took) =
                crate::cpu_time(|| exercise_target(target, fmt, &input, cli.as_ref()));
            execs += 1;
            let kind = match (&result, took > budget) {
                (Err(msg), _) => Some(format!("panic: {msg}")),
                (Ok(()), true) => Some(format!("slow: {took:?}")),
                _ => None,
            };
            if let Some(kind) = kind {
                findings += 1;
                let small = if result.is_err() && target != "cli" {
                    minimise(fmt, input, &fails)
                } else {
                    input
                };
                let _ = std::fs::create_dir_all(&dir);
                let path = dir.join(format!("finding-{findings:03}.{target}"));
                let _ = std::fs::write(&path, &small);
                println!(
                    "fuzz {target}: {kind} ({} bytes) → {}",
                    small.len(),
                    path.display()
                );
            }
        }
        let _ = std::fs::remove_file(&in_flight);
        let rendered = RENDERED.swap(0, std::sync::atomic::Ordering::Relaxed);
        let reached = crate::fuzz_surfaces::REACHED.swap(0, std::sync::atomic::Ordering::Relaxed);
        let deep = match target.as_str() {
            "jar" => format!(", {reached} read as a library"),
            "zsg" => format!(", {reached} replayed"),
            "catalogue" => format!(", {reached} with games catalogued"),
            _ => String::new(),
        };
        println!(
            "fuzz {target}: {execs} executions ({rendered} rendered{deep}) in {:.0} s, {findings} findings (seed {seed})",
            start.elapsed().as_secs_f64()
        );
        clean &= findings == 0;
    }
    let _ = std::panic::take_hook();
    clean
}
