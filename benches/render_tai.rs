//! Benchmark: the whole Tai Shogi image set (25×25 board, checkered twin, 130 faces × 2 sides =
//! 260 tiles) rendered and encoded as BMP in memory, single-threaded.
//!
//! `cargo bench --bench render_tai` reads `../shared/data/tai_shogi.json` (or `$TAI_SHOGI_JSON`);
//! without it, 130 synthetic two-kanji names stand in. With `RENDER_OUT=DIR` it also writes the
//! BMPs and the composed start position (`tai_shogi_start.png`) there (outside the timing), and
//! runs every validator on everything written.
//!
//! It also times the spec path the CLI takes: `corpus/zrf/tai_shogi.zrf` read and lowered,
//! `render::from_spec`, then `render::set::render_set` (render, encode, decode, validate).

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tiny_skia::Pixmap;
use zogkit::render::bmp::encode_bmp;
use zogkit::render::validate::{validate_bmp, validate_board, validate_pair, validate_tile};
use zogkit::render::*;

struct Face {
    id: String,
    kanji: String,
    class: ColourClass,
    /// A promoted face (not placed in the start position).
    promoted: bool,
}

fn faces_from_json(v: &Value) -> Vec<Face> {
    let mut faces = Vec::new();
    for k in v["kinds"].as_array().into_iter().flatten() {
        let class = match k["category"].as_str() {
            Some("non_promoting") => ColourClass::NeverPromoting,
            Some("non_promoting_royal") => ColourClass::RoyalNeverPromoting,
            _ => ColourClass::Unpromoted,
        };
        faces.push(Face {
            id: k["id"].as_str().unwrap_or("xx").to_string(),
            kanji: k["kanji"].as_str().unwrap_or("?").to_string(),
            class,
            promoted: false,
        });
    }
    for (i, p) in v["promoted_kinds"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let class = match p["category"].as_str() {
            Some("promoted_royal") => ColourClass::PromotedRoyal,
            _ => ColourClass::Promoted,
        };
        faces.push(Face {
            id: format!("p{i:02}"),
            kanji: p["kanji"].as_str().unwrap_or("?").to_string(),
            class,
            promoted: true,
        });
    }
    faces
}

fn synthetic_faces() -> Vec<Face> {
    let pool: Vec<char> = "金銀銅鉄石玉王将飛車角行香桂馬歩兵龍竜獅子麒麟鳳凰猛豹虎象牛熊狼猿鷲鷹"
        .chars()
        .collect();
    (0..130)
        .map(|i| Face {
            id: format!("s{i:03}"),
            kanji: [pool[i % pool.len()], pool[(i * 7 + 3) % pool.len()]]
                .iter()
                .collect(),
            class: ColourClass::ALL[i % 5],
            promoted: false,
        })
        .collect()
}

struct Output {
    boards: Vec<(String, Pixmap, BoardStyle)>,
    tiles: Vec<(String, Pixmap, Pixmap)>,
    bmps: Vec<(String, Vec<u8>)>,
    warnings: usize,
}

fn render_all(faces: &[Face], fonts: &FontSet) -> Output {
    let mut out = Output {
        boards: Vec::new(),
        tiles: Vec::new(),
        bmps: Vec::new(),
        warnings: 0,
    };
    for checkered in [false, true] {
        let mut style = BoardStyle::new(25, 25);
        style.checkered = checkered;
        let r = render_board(&style, fonts).expect("board");
        out.warnings += r.warnings.len();
        let name = if checkered { "board_check" } else { "board" };
        out.bmps
            .push((format!("{name}.bmp"), encode_bmp(&r.pixmap)));
        out.boards.push((name.to_string(), r.pixmap, style));
    }
    let style = TileStyle::default();
    for f in faces {
        let (first, second) = render_tile_pair(&f.kanji, f.class, &style, fonts).expect("tile");
        out.warnings += first.warnings.len();
        out.bmps
            .push((format!("{}_S.bmp", f.id), encode_bmp(&first.pixmap)));
        out.bmps
            .push((format!("{}_G.bmp", f.id), encode_bmp(&second)));
        out.tiles.push((f.id.clone(), first.pixmap, second));
    }
    out
}

fn main() {
    // `cargo bench` passes `--bench`; ignore arguments.
    let json_path = std::env::var_os("TAI_SHOGI_JSON")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/tai_shogi.json")
        });
    let json: Option<Value> = std::fs::read_to_string(&json_path)
        .ok()
        .and_then(|s| serde_json::from_str(&s).ok());
    let faces = match &json {
        Some(v) => faces_from_json(v),
        None => {
            eprintln!(
                "{} not found; using 130 synthetic names",
                json_path.display()
            );
            synthetic_faces()
        }
    };

    let t0 = Instant::now();
    let fonts = FontSet::bundled();
    let font_time = t0.elapsed();

    let runs = 7;
    let mut times: Vec<Duration> = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        let out = render_all(&faces, &fonts);
        times.push(t.elapsed());
        last = Some(out);
    }
    let out = last.expect("ran");
    times.sort();
    let bytes: usize = out.bmps.iter().map(|b| b.1.len()).sum();
    println!(
        "render_tai: {} faces → 2 boards + {} tiles, {} BMP files ({:.1} MB), {} warnings",
        faces.len(),
        out.tiles.len() * 2,
        out.bmps.len(),
        bytes as f64 / 1e6,
        out.warnings
    );
    println!(
        "render_tai: font set load {:.1} ms; render+encode min {:.1} ms, median {:.1} ms, max {:.1} ms over {runs} runs",
        font_time.as_secs_f64() * 1e3,
        times[0].as_secs_f64() * 1e3,
        times[runs / 2].as_secs_f64() * 1e3,
        times[runs - 1].as_secs_f64() * 1e3,
    );

    // The same work with tiles spread over all cores (FontSet is Send + Sync).
    use rayon::prelude::*;
    let mut par_times = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let style = TileStyle::default();
        let bmps: Vec<(Vec<u8>, Vec<u8>)> = faces
            .par_iter()
            .map(|f| {
                let (a, b) = render_tile_pair(&f.kanji, f.class, &style, &fonts).expect("tile");
                (encode_bmp(&a.pixmap), encode_bmp(&b))
            })
            .collect();
        let boards: Vec<Vec<u8>> = [false, true]
            .par_iter()
            .map(|&checkered| {
                let mut s = BoardStyle::new(25, 25);
                s.checkered = checkered;
                encode_bmp(&render_board(&s, &fonts).expect("board").pixmap)
            })
            .collect();
        par_times.push(t.elapsed());
        assert_eq!(bmps.len() * 2 + boards.len(), out.bmps.len());
    }
    par_times.sort();
    println!(
        "render_tai: with rayon on {} threads: min {:.1} ms, median {:.1} ms",
        rayon::current_num_threads(),
        par_times[0].as_secs_f64() * 1e3,
        par_times[runs / 2].as_secs_f64() * 1e3,
    );

    // The spec path: ZRF → spec → plan → validated set.
    let zrf = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/zrf/tai_shogi.zrf");
    if let Ok(bytes) = std::fs::read(&zrf) {
        let mut spec_times = Vec::new();
        let mut files = 0;
        for _ in 0..runs {
            let t = Instant::now();
            let r = zogkit::format::read(
                zogkit::format::Format::Zrf,
                "tai_shogi.zrf",
                &bytes,
                &zogkit::format::ReadOptions::default(),
                &mut zogkit::zrf::NoIncludes,
            );
            let doc = r.document.expect("Tai Shogi reads");
            let read = t.elapsed();
            let plan = from_spec(&doc, 0, &PlanOptions::default()).expect("plan");
            let set = set::render_set(&plan, &set::SetOptions::default(), &fonts).expect("set");
            assert!(set.errors.is_empty(), "{:?}", set.errors);
            files = set.files.len();
            spec_times.push((read, t.elapsed()));
        }
        spec_times.sort_by_key(|t| t.1);
        let (read, total) = spec_times[runs / 2];
        println!(
            "render_tai: spec path (read ZRF + from_spec + render_set with validation, {files} files): median {:.1} ms, of which reading {:.1} ms",
            total.as_secs_f64() * 1e3,
            read.as_secs_f64() * 1e3
        );
    }

    // Validate everything (outside the timing).
    let mut errors = Vec::new();
    for (name, p, style) in &out.boards {
        errors.extend(validate_board(
            p,
            &BoardGeometry::of(style),
            &style.colours,
            name,
        ));
    }
    let ts = TileStyle::default();
    for (id, a, b) in &out.tiles {
        errors.extend(validate_tile(a, &ts, Side::First, id));
        errors.extend(validate_tile(b, &ts, Side::Second, id));
        errors.extend(validate_pair(a, b, id));
    }
    for (name, bytes) in &out.bmps {
        if let Err(e) = validate_bmp(bytes, name) {
            errors.extend(e);
        }
    }
    for e in &errors {
        println!("  {e}");
    }
    println!("render_tai: validators: {} error(s)", errors.len());

    if let Some(dir) = std::env::var_os("RENDER_OUT").map(PathBuf::from) {
        std::fs::create_dir_all(&dir).expect("output dir");
        for (name, bytes) in &out.bmps {
            std::fs::write(dir.join(name), bytes).expect("write bmp");
        }
        if let Some(v) = &json {
            let initial = || faces.iter().zip(&out.tiles).filter(|(f, _)| !f.promoted);
            let tiles: BTreeMap<&str, &Pixmap> =
                initial().map(|(f, t)| (f.kanji.as_str(), &t.1)).collect();
            let gote: BTreeMap<&str, &Pixmap> =
                initial().map(|(f, t)| (f.kanji.as_str(), &t.2)).collect();
            let (_, board, style) = &out.boards[0];
            let geometry = BoardGeometry::of(style);
            let mut placements = Vec::new();
            let rows = v["setup_grid_from_sente_view"]["rows"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            for (r, row) in rows.iter().enumerate() {
                for (c, cell) in row.as_array().into_iter().flatten().enumerate() {
                    let Some(s) = cell.as_str() else { continue };
                    let (map, name) = match s.strip_prefix('v') {
                        Some(n) => (&gote, n),
                        None => (&tiles, s),
                    };
                    if let Some(tile) = map.get(name) {
                        let (x, y) = geometry.tile_origin(c as u32, r as u32, tile.width());
                        placements.push(Placement { x, y, tile });
                    } else {
                        println!("  no tile for {s} at ({c},{r})");
                    }
                }
            }
            let pos = compose_position(board, &placements);
            pos.save_png(dir.join("tai_shogi_start.png")).expect("png");
            println!(
                "render_tai: wrote {} files and tai_shogi_start.png ({} pieces) to {}",
                out.bmps.len(),
                placements.len(),
                dir.display()
            );
        }
    }
}
