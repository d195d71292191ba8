//! Reads 1,000 generated `.lud` files of 2–10 KB with `zogkit::ludii::read_lud`
//! (`cargo bench --bench ludii_read`); the target is under 0.5 s for all of them.
//!
//! The files are variations of the project's own corpus (`corpus/ludii/*.lud`): every variation
//! renames the game and adds extra pieces, regions and placements (with step, slide, leap and
//! hop moves) until it reaches a size drawn between 2 and 10 KB. `cargo test --benches` runs a
//! quick pass over 50 files.

use std::time::Instant;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use zogkit::diag::FileId;
use zogkit::ludii::read_lud;

const BASES: [&str; 6] = [
    include_str!("../corpus/ludii/xiangqi.lud"),
    include_str!("../corpus/ludii/chess.lud"),
    include_str!("../corpus/ludii/shogi.lud"),
    include_str!("../corpus/ludii/draughts.lud"),
    include_str!("../corpus/ludii/tictactoe.lud"),
    include_str!("../corpus/ludii/hex.lud"),
];

const EXTRA_MOVES: [&str; 5] = [
    "(\"StepToNotFriend\" Orthogonal)",
    "(move Slide Diagonal (to if:(\"IsEnemyAt\" (to)) (apply (remove (to)))))",
    "(move Leap \"KnightWalk\" (to if:(not (\"IsFriendAt\" (to))) (apply (remove (to)))))",
    "(\"HopCapture\" Orthogonal)",
    "(or {(\"StepToEmpty\" Forward) (move Slide (directions {FR FL}) (between (exact 2) if:(is Empty (between))))})",
];

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn generate(n: usize) -> Vec<String> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        // Grid games only: extra pieces use square-board moves.
        let base = BASES[i % 4];
        let target = 2048 + (rng.next() % (8 * 1024)) as usize;
        let mut text = base.replacen("(game \"", &format!("(game \"Variant {i} of "), 1);
        let mut extra = String::new();
        let mut k = 0;
        while text.len() + extra.len() + 200 < target {
            let m = EXTRA_MOVES[(rng.next() % EXTRA_MOVES.len() as u64) as usize];
            extra.push_str(&format!(
                "        // extra piece {k}\n        (piece \"Extra{k}\" Each {m})\n        (regions \"Zone{k}\" P1 {{{} {} {}}})\n",
                k % 9,
                9 + k % 9,
                18 + k % 9
            ));
            k += 1;
        }
        text = text.replacen(
            "    (equipment {\n",
            &format!("    (equipment {{\n{extra}"),
            1,
        );
        assert!(text.contains("Extra") || k == 0);
        out.push(text);
    }
    out
}

fn main() {
    let quick = !std::env::args().any(|a| a == "--bench");
    let n = if quick { 50 } else { 1000 };
    let files = generate(n);
    let bytes: usize = files.iter().map(|f| f.len()).sum();
    let (min, max) = (
        files.iter().map(|f| f.len()).min().unwrap(),
        files.iter().map(|f| f.len()).max().unwrap(),
    );
    let runs = if quick { 1 } else { 5 };
    let mut best = f64::MAX;
    let mut pieces = 0;
    for _ in 0..runs {
        let t = Instant::now();
        pieces = 0;
        for (i, f) in files.iter().enumerate() {
            let (doc, _) = read_lud(&format!("v{i}.lud"), f, FileId(0));
            pieces += doc.map_or(0, |d| d.games[0].pieces.len());
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "ludii_read: {n} files, {} KB ({min}..{max} bytes each), {pieces} pieces: best of {runs} {:.3} s ({:.0} us/file)",
        bytes / 1024,
        best,
        best * 1e6 / n as f64
    );
    if !quick && best > 0.5 {
        eprintln!("ludii_read: slower than the 0.5 s target");
    }
}
