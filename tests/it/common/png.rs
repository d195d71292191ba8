//! Golden images: a pixmap compared with a PNG under `golden/render/`, after decoding, with a
//! tolerance of 1 per channel and no pixel over it. On a mismatch `target/golden-diff/<name>`
//! shows expected | diff | actual (diff: red = over tolerance) and `<name>.actual.png` the image
//! drawn. `UPDATE_GOLDEN=1` rewrites the references; with `CI` set a missing reference is an error.
//! Used by `render_golden.rs` (scenes built in code) and `corpus.rs` (`corpus/render/`).

use std::path::{Path, PathBuf};
use tiny_skia::{Pixmap, PixmapPaint, Transform};

pub const TOLERANCE: u8 = 1;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/render")
}

fn diff_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .join("golden-diff")
}

/// Compares `actual` with `golden/render/<name>` (a `.png` name, see the module docs).
pub fn check_png(name: &str, actual: &Pixmap) -> Result<(), String> {
    let path = golden_dir().join(name);
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v != "0");
    if update || !path.exists() {
        if !update && std::env::var_os("CI").is_some() {
            return Err(format!(
                "golden image {} is missing (CI is set)",
                path.display()
            ));
        }
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual.encode_png().unwrap()).unwrap();
        eprintln!("wrote golden image {}", path.display());
        return Ok(());
    }
    let expected = Pixmap::load_png(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (bad, diff) = compare(&expected, actual);
    if bad == 0 {
        return Ok(());
    }
    let dir = diff_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let stem = name.trim_end_matches(".png");
    let diff_path = dir.join(format!("{stem}.png"));
    let actual_path = dir.join(format!("{stem}.actual.png"));
    diff.save_png(&diff_path).unwrap();
    actual.save_png(&actual_path).unwrap();
    Err(format!(
        "{name}: {bad} pixel(s) differ by more than {TOLERANCE} (expected {}×{}, actual {}×{}); \
         see {} (expected | diff | actual) and {}; UPDATE_GOLDEN=1 to accept",
        expected.width(),
        expected.height(),
        actual.width(),
        actual.height(),
        diff_path.display(),
        actual_path.display()
    ))
}

/// Number of pixels over tolerance (every pixel when sizes differ) and the three-panel picture.
pub fn compare(expected: &Pixmap, actual: &Pixmap) -> (usize, Pixmap) {
    let w = expected.width().max(actual.width());
    let h = expected.height().max(actual.height());
    let mut panel = Pixmap::new(3 * w + 4, h).unwrap();
    panel.fill(tiny_skia::Color::from_rgba8(255, 255, 255, 255));
    let same_size = (expected.width(), expected.height()) == (actual.width(), actual.height());
    let mut bad = 0;
    for y in 0..h {
        for x in 0..w {
            let e = expected.pixel(x, y);
            let a = actual.pixel(x, y);
            let over = match (e, a) {
                (Some(e), Some(a)) if same_size => {
                    let (e, a) = (e.demultiply(), a.demultiply());
                    [
                        e.red().abs_diff(a.red()),
                        e.green().abs_diff(a.green()),
                        e.blue().abs_diff(a.blue()),
                        e.alpha().abs_diff(a.alpha()),
                    ]
                    .into_iter()
                    .any(|d| d > TOLERANCE)
                }
                _ => true,
            };
            if over {
                bad += 1;
            }
            let grey = e.map_or(255, |e| {
                let e = e.demultiply();
                ((e.red() as u32 + e.green() as u32 + e.blue() as u32) / 6 + 128) as u8
            });
            let d = if over {
                [255, 0, 0, 255]
            } else {
                [grey, grey, grey, 255]
            };
            let i = ((y * panel.width() + w + 2 + x) * 4) as usize;
            panel.data_mut()[i..i + 4].copy_from_slice(&d);
        }
    }
    let paint = PixmapPaint::default();
    panel.draw_pixmap(0, 0, expected.as_ref(), &paint, Transform::identity(), None);
    panel.draw_pixmap(
        (2 * w + 4) as i32,
        0,
        actual.as_ref(),
        &paint,
        Transform::identity(),
        None,
    );
    (bad, panel)
}
