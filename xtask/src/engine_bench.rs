//! `cargo xtask bench`'s engine part: zogkit's perft against native Fairy-Stockfish, paired run by run, and the slow real games.

use std::path::Path;
use std::process::Command;

/// One game both engines count: the ZRF (in the shared corpus), Fairy-Stockfish's variant and
/// whether it is defined in `tests/oracle/zrf_variants.ini`, and the depth.
struct Pair {
    zrf: &'static str,
    variant: &'static str,
    ini: bool,
    depth: u32,
}

const PAIRS: [Pair; 5] = [
    Pair {
        zrf: "dagaz/chess/chess.zrf",
        variant: "chess",
        ini: false,
        depth: 5,
    },
    Pair {
        zrf: "dagaz/xiangqi/xiangqi.zrf",
        variant: "xiangqi-nofly",
        ini: true,
        depth: 4,
    },
    Pair {
        zrf: "dagaz/chess/makruk.zrf",
        variant: "makruk",
        ini: false,
        depth: 5,
    },
    Pair {
        zrf: "dagaz/chess/shatranj.zrf",
        variant: "shatranj",
        ini: false,
        depth: 5,
    },
    Pair {
        zrf: "dagaz/shogi-family/shogi.zrf",
        variant: "shogi-zrf",
        ini: true,
        depth: 4,
    },
];

/// Real games that were slow, timed alone: (ZRF in the shared corpus, depth, target).
const SLOW: [(&str, u32, &str); 4] = [
    ("dagaz/shogi-family/annan-shogi.zrf", 2, "< 2 s"),
    ("dagazproject/Escalation/Escalation.zrf", 2, "< 2 s"),
    ("dagazproject/KoShogi/KoShogi.zrf", 3, "< 2 s"),
    ("dagaz/other-games/gess.zrf", 3, "finishes"),
];

#[repr(C)]
#[derive(Default)]
struct Timeval {
    sec: i64,
    usec: i64,
}

#[repr(C)]
#[derive(Default)]
struct Rusage {
    utime: Timeval,
    stime: Timeval,
    rest: [i64; 14],
}

unsafe extern "C" {
    fn getrusage(who: i32, usage: *mut Rusage) -> i32;
}

/// CPU seconds (user + system, microsecond resolution) of this process's waited-for children
/// and their descendants (Linux `getrusage(RUSAGE_CHILDREN)`).
fn children_cpu() -> f64 {
    let mut u = Rusage::default();
    // SAFETY: `Rusage` has the layout of Linux's `struct rusage` on 64-bit targets, and
    // getrusage writes only into it.
    if unsafe { getrusage(-1, &mut u) } != 0 {
        return 0.0;
    }
    let t = |t: &Timeval| t.sec as f64 + t.usec as f64 / 1e6;
    t(&u.utime) + t(&u.stime)
}

/// Runs `cmd`, returning its standard output and the CPU seconds it used.
fn timed(cmd: &mut Command) -> Option<(String, f64)> {
    let before = children_cpu();
    let out = cmd.output().ok()?;
    let cpu = children_cpu() - before;
    out.status
        .success()
        .then(|| (String::from_utf8_lossy(&out.stdout).into_owned(), cpu))
}

/// The count a zogkit `perft` printed for `depth`.
fn zog_count(out: &str, depth: u32) -> Option<u64> {
    let head = format!("perft({depth}) = ");
    out.lines()
        .find_map(|l| l.strip_prefix(&head))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// The count Fairy-Stockfish printed.
fn fsf_count(out: &str) -> Option<u64> {
    out.lines()
        .find_map(|l| l.strip_prefix("Nodes searched: "))?
        .trim()
        .parse()
        .ok()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Pairs zogkit and Fairy-Stockfish run by run on [`PAIRS`]: each run times both at the depth
/// and at depth 1 (start-up: reading and compiling the rules, Fairy-Stockfish's tables), one
/// after the other, and takes the compute time as the difference; prints the median of each
/// and of the per-run ratios. Then times [`SLOW`]. Figures only: nothing is asserted.
pub fn run(root: &Path, exe: &Path, runs: usize) -> bool {
    let corpus = root.join("../shared/corpus/zrf");
    let fsf = root.join("../shared/tools/fsf/perft");
    let ini = root.join("tests/oracle/zrf_variants.ini");
    if !fsf.exists() {
        println!(
            "engine vs Fairy-Stockfish: skipped ({} is missing)",
            fsf.display()
        );
        return true;
    }
    let mut ok = true;
    println!(
        "| game, depth | nodes zogkit / FSF | zogkit compute | FSF compute | ratio (median of runs) |"
    );
    println!("| --- | --- | ---: | ---: | ---: |");
    for p in &PAIRS {
        let zrf = corpus.join(p.zrf);
        let zog = |depth: u32| {
            timed(
                Command::new(exe)
                    .arg("perft")
                    .arg(&zrf)
                    .args(["--depth", &depth.to_string()]),
            )
        };
        let ff = |depth: u32| {
            let mut c = Command::new(&fsf);
            c.args([p.variant, &depth.to_string()]);
            if p.ini {
                c.arg("--ini").arg(&ini);
            }
            timed(&mut c)
        };
        let (mut zt, mut ft, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        let (mut zn, mut fnodes) = (None, None);
        for _ in 0..runs.max(1) {
            let (Some(z), Some(z1), Some(f), Some(f1)) = (zog(p.depth), zog(1), ff(p.depth), ff(1))
            else {
                println!("| {} ({}) | a run failed | | | |", p.zrf, p.variant);
                ok = false;
                break;
            };
            zn = zog_count(&z.0, p.depth);
            fnodes = fsf_count(&f.0);
            let (zc, fc) = ((z.1 - z1.1).max(1e-3), (f.1 - f1.1).max(1e-3));
            zt.push(zc);
            ft.push(fc);
            ratios.push(zc / fc);
        }
        if zt.is_empty() {
            continue;
        }
        let show = |n: Option<u64>| n.map_or("?".to_string(), |n| n.to_string());
        let same = if zn.is_some() && zn == fnodes {
            "equal"
        } else {
            ok = false;
            "DIFFERENT"
        };
        println!(
            "| `{}` perft({}), FSF `{}` | {} / {} ({same}) | {:.3} s | {:.3} s | {:.2}× |",
            p.zrf,
            p.depth,
            p.variant,
            show(zn),
            show(fnodes),
            median(zt),
            median(ft),
            median(ratios)
        );
    }
    println!();
    println!("| real game, depth | nodes | CPU (whole process, median) | target |");
    println!("| --- | ---: | ---: | --- |");
    for (file, depth, target) in SLOW {
        let zrf = corpus.join(file);
        let mut times = Vec::new();
        let mut nodes = None;
        // A game whose target is only to finish is run once.
        let n = if target == "finishes" {
            1
        } else {
            runs.clamp(1, 3)
        };
        for _ in 0..n {
            // The slow real games run past the default work budget (GESS perft(3)).
            let Some((out, cpu)) = timed(
                Command::new(exe)
                    .args(["--limit", "engine-work=99999999999999", "perft"])
                    .arg(&zrf)
                    .args(["--depth", &depth.to_string()]),
            ) else {
                break;
            };
            nodes = zog_count(&out, depth);
            times.push(cpu);
        }
        let nodes = nodes.map_or("failed".to_string(), |n| n.to_string());
        println!(
            "| `{file}` perft({depth}) | {nodes} | {:.2} s | {target} |",
            median(times)
        );
    }
    ok
}
