//! Times the YAML writer and reader over the whole shared corpus (`cargo bench --bench yaml_io`):
//! every `../shared/corpus/zrf` file is read and lowered once (includes are not followed), then its spec document is written
//! to YAML and read back, single-threaded, for the writer's and the reader's share of `zogkit
//! convert` and `zogkit roundtrip`: through `yaml::from_str` (the fast path) and through
//! `yaml::from_str_general` (yaml_serde alone), so the fast path's gain is measured.
//! Times are this thread's CPU time (`tests/it/common/cpu.rs`), so other work on the machine
//! does not inflate them. `cargo test --benches` runs one quick pass.

use std::path::{Path, PathBuf};

#[path = "../tests/it/common/cpu.rs"]
mod cpu;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use zogkit::diag::FileId;
use zogkit::format::{self, Format, ReadOptions};
use zogkit::spec::{Document, yaml};

fn zrf_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            zrf_files(&p, out);
        } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("zrf")) {
            out.push(p);
        }
    }
}

fn main() {
    let quick = std::env::args()
        .any(|a| a == "--bench")
        .then_some(())
        .is_none();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/zrf");
    let mut files = Vec::new();
    zrf_files(&root, &mut files);
    files.sort();
    if files.is_empty() {
        eprintln!("yaml_io: no corpus at {} — nothing to time", root.display());
        return;
    }
    let docs: Vec<Document> = files
        .iter()
        .filter_map(|p| {
            let bytes = std::fs::read(p).ok()?;
            let name = p.display().to_string();
            format::read(
                Format::Zrf,
                &name,
                &bytes,
                &ReadOptions::default(),
                &mut zogkit::zrf::NoIncludes,
            )
            .document
        })
        .collect();
    let runs = if quick { 1 } else { 5 };
    let mut write_times = Vec::new();
    let mut read_times = Vec::new();
    let mut general_times = Vec::new();
    let mut bytes = 0;
    let mut lines = 0;
    for _ in 0..runs {
        let (texts, t) = cpu::cpu_time(|| {
            docs.iter()
                .map(|d| yaml::write_document(d).expect("the corpus documents serialise"))
                .collect::<Vec<String>>()
        });
        write_times.push(t.as_secs_f64());
        bytes = texts.iter().map(String::len).sum::<usize>();
        lines = texts.iter().map(|t| t.lines().count()).sum::<usize>();
        let ((), t) = cpu::cpu_time(|| {
            for (text, doc) in texts.iter().zip(&docs) {
                let back: Document = yaml::from_str(text, FileId(0)).expect("our YAML reads back");
                assert!(&back == doc, "YAML read back differs");
            }
        });
        read_times.push(t.as_secs_f64());
        let limits = yaml::ReadLimits::default();
        let ((), t) = cpu::cpu_time(|| {
            for (text, doc) in texts.iter().zip(&docs) {
                let back: Document =
                    yaml::from_str_general(text, FileId(0), &limits).expect("yaml_serde reads it");
                assert!(&back == doc, "YAML read back differs");
            }
        });
        general_times.push(t.as_secs_f64());
    }
    for times in [&mut write_times, &mut read_times, &mut general_times] {
        times.sort_by(f64::total_cmp);
    }
    println!(
        "yaml_io: {} documents, {:.1} MB and {} lines of YAML; CPU time (medians): write {:.3} s, read+compare {:.3} s, with yaml_serde alone {:.3} s ({} runs, one thread)",
        docs.len(),
        bytes as f64 / 1e6,
        lines,
        write_times[runs / 2],
        read_times[runs / 2],
        general_times[runs / 2],
        runs
    );
}
