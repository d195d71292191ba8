//! The catalogue's pictures: a start position, its thumbnail and the piece tiles of each entry,
//! as PNG. Drawn through the renderer's set (`from_spec` → `render_set` → `compose_start_with`,
//! with every validator; the author's own board and piece pictures where the file names them,
//! ZoG's key colour transparent in tiles, where ZoG would show the board), once per distinct
//! plan of a file (variants often share their game's), and each distinct image is stored once
//! in the whole site (`img/<hash>.png`: many games share their pieces' tiles).

use super::SiteFile;
use crate::render::game::PlanOptions;
use crate::render::own::{AuthorFiles, OwnImages, key_transparent};
use crate::render::set::{SetOptions, compose_start_with, render_set};
use crate::render::{FontSet, ImageFormat, RenderPlan, from_spec};
use crate::spec::Document;
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::sync::Mutex;
use tiny_skia::Pixmap;

/// The images of the whole site so far, by the SHA-256 of their size and pixels; shared by the
/// files catalogued in parallel, so each image is written once.
#[derive(Debug, Default)]
pub struct ImageStore {
    seen: Mutex<BTreeSet<[u8; 32]>>,
}

impl ImageStore {
    /// Claims `key`: true the first time (the caller adds the file), false afterwards.
    fn claim(&self, key: [u8; 32]) -> bool {
        self.seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key)
    }
}

/// Cell size in pixels for boards whose own cells cannot be drawn (too small, not square).
pub(crate) const FALLBACK_UNIT: u32 = 36;

/// Longest side of a thumbnail in pixels.
const THUMB: u32 = 160;

/// The pictures of one entry: paths relative to the site's root, and sizes.
#[derive(Debug, Clone)]
pub(crate) struct Drawn {
    pub(crate) start: String,
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) thumb: String,
    pub(crate) thumb_size: (u32, u32),
    /// Per drawn piece (the game's pieces without dummies, in order): its tiles by side.
    pub(crate) tiles: Vec<Vec<String>>,
    /// Validator failures of the set (shown on the page).
    pub(crate) validator: Vec<String>,
    /// How many of the author's own pictures the start position and the tiles use.
    pub(crate) own_used: usize,
    /// The author's pictures named but not used, and why.
    pub(crate) own_notes: Vec<String>,
}

/// A plan with its title and index cleared, and the author's pictures it uses: what makes two
/// entries' pictures the same.
type PlanKey = (RenderPlan, Vec<String>);

/// The pictures of one file so far.
pub(crate) struct Pictures<'a> {
    /// Plans drawn (title and index cleared), with the author's pictures they use, and what
    /// came of them.
    plans: Vec<(PlanKey, Result<Drawn, String>)>,
    store: &'a ImageStore,
    /// The author's picture files the file names.
    author: &'a AuthorFiles,
}

impl<'a> Pictures<'a> {
    /// No pictures yet; images go to `store`; the author's are taken from `author`.
    pub(crate) fn new(store: &'a ImageStore, author: &'a AuthorFiles) -> Self {
        Pictures {
            plans: Vec::new(),
            store,
            author,
        }
    }

    /// The pictures of entry `i`, drawn with the board's own cells or else with
    /// [`FALLBACK_UNIT`]-px cells, or the first reason neither could be drawn. Images new to
    /// the site are added to `files`.
    pub(crate) fn draw(
        &mut self,
        doc: &Document,
        i: usize,
        fonts: &FontSet,
        files: &mut Vec<SiteFile>,
    ) -> Result<Drawn, String> {
        match self.attempt(doc, i, None, fonts, files) {
            Ok(d) => Ok(d),
            Err(first) => self
                .attempt(doc, i, Some(FALLBACK_UNIT), fonts, files)
                .map_err(|_| first),
        }
    }

    fn attempt(
        &mut self,
        doc: &Document,
        i: usize,
        unit: Option<u32>,
        fonts: &FontSet,
        files: &mut Vec<SiteFile>,
    ) -> Result<Drawn, String> {
        let opts = PlanOptions {
            format: ImageFormat::Bmp,
            unit,
            redraw: unit.is_some(),
            ..Default::default()
        };
        let plan = from_spec(doc, i, &opts).map_err(|e| e.to_string())?;
        let (own, notes) = OwnImages::of(doc, i, &plan, self.author);
        let mut key = plan.clone();
        key.title.clear();
        key.game = 0;
        let key = (key, own.used.clone());
        if let Some((_, d)) = self.plans.iter().find(|(p, _)| *p == key) {
            return d.clone();
        }
        let r = self.render(&plan, &own, fonts, files).map(|mut d| {
            d.own_notes = notes;
            d
        });
        self.plans.push((key, r.clone()));
        r
    }

    fn render(
        &mut self,
        plan: &RenderPlan,
        own: &OwnImages,
        fonts: &FontSet,
        files: &mut Vec<SiteFile>,
    ) -> Result<Drawn, String> {
        // A preview: the validators run on the drawn pictures; the site's PNGs are encoded
        // from them.
        let set_opts = SetOptions {
            format: ImageFormat::Bmp,
            preview: true,
            ..Default::default()
        };
        let set = render_set(plan, &set_opts, fonts).map_err(|e| e.to_string())?;
        let start = compose_start_with(plan, &set, own);
        let thumb = thumbnail(&start).ok_or("the thumbnail could not be drawn")?;
        let mut tiles = Vec::with_capacity(set.tiles.len());
        for (k, sides) in set.tiles.iter().enumerate() {
            let names = sides
                .iter()
                .enumerate()
                .map(|(s, pix)| {
                    // The author's picture, else the drawn tile; ZoG's key transparent in both.
                    let mine = own.tiles.get(k).and_then(|t| t.get(s)?.as_ref());
                    let mut tile = mine.unwrap_or(pix).clone();
                    key_transparent(&mut tile);
                    self.store(&tile, files)
                })
                .collect::<Result<Vec<_>, _>>()?;
            tiles.push(names);
        }
        Ok(Drawn {
            start: self.store(&start, files)?,
            width: start.width(),
            height: start.height(),
            thumb: self.store(&thumb, files)?,
            thumb_size: (thumb.width(), thumb.height()),
            tiles,
            validator: set.errors.iter().map(|e| e.to_string()).collect(),
            own_used: own.used.len(),
            own_notes: Vec::new(),
        })
    }

    /// The path of `pix` in the site, `img/<hash>.png`; encoded and added to `files` when the
    /// site does not have it yet.
    fn store(&mut self, pix: &Pixmap, files: &mut Vec<SiteFile>) -> Result<String, String> {
        let mut h = Sha256::new();
        h.update(pix.width().to_le_bytes());
        h.update(pix.height().to_le_bytes());
        h.update(pix.data());
        let key: [u8; 32] = h.finalize().into();
        let mut path = String::from("img/");
        for b in &key[..10] {
            let _ = write!(path, "{b:02x}");
        }
        path.push_str(".png");
        if self.store.claim(key) {
            files.push(SiteFile {
                path: path.clone(),
                bytes: encode_png(pix).map_err(|e| format!("PNG encoding failed: {e}"))?,
            });
        }
        Ok(path)
    }
}

/// `pix` as PNG, fast: RGB when it is opaque (boards and tiles are), RGBA otherwise.
fn encode_png(pix: &Pixmap) -> Result<Vec<u8>, png::EncodingError> {
    let opaque = pix.pixels().iter().all(|p| p.alpha() == 255);
    let (colour, data) = if opaque {
        let rgb: Vec<u8> = pix
            .data()
            .chunks_exact(4)
            .flat_map(|c| [c[0], c[1], c[2]])
            .collect();
        (png::ColorType::Rgb, rgb)
    } else {
        (png::ColorType::Rgba, pix.clone().take_demultiplied())
    };
    let mut out = Vec::new();
    {
        let mut e = png::Encoder::new(&mut out, pix.width(), pix.height());
        e.set_color(colour);
        e.set_depth(png::BitDepth::Eight);
        e.set_compression(png::Compression::Fast);
        let mut w = e.write_header()?;
        w.write_image_data(&data)?;
    }
    Ok(out)
}

/// `start` scaled down to fit [`THUMB`] pixels (never up).
fn thumbnail(start: &Pixmap) -> Option<Pixmap> {
    let (w, h) = (start.width(), start.height());
    let scale = (THUMB as f32 / w.max(h) as f32).min(1.0);
    let tw = ((w as f32 * scale).round() as u32).max(1);
    let th = ((h as f32 * scale).round() as u32).max(1);
    let mut t = Pixmap::new(tw, th)?;
    let paint = tiny_skia::PixmapPaint {
        quality: tiny_skia::FilterQuality::Bilinear,
        ..Default::default()
    };
    t.draw_pixmap(
        0,
        0,
        start.as_ref(),
        &paint,
        tiny_skia::Transform::from_scale(scale, scale),
        None,
    );
    Some(t)
}
