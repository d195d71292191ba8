//! The author's own pictures of a game — the files its `image` forms name, read by the caller — decoded as ZoG shows them (BMP of every flavour, or PNG; ZoG's `#00FF00` key transparent in piece images) and matched to a render plan's board and tiles.

use super::RenderPlan;
use super::bmp::{self, decode_bmp};
use crate::spec::Document;
use std::collections::BTreeMap;
use tiny_skia::{Pixmap, PremultipliedColorU8};

/// The most pixels the author's pictures of one game may have in all (128 MiB as RGBA): a
/// picture past it is drawn by the renderer instead, found from its header before decoding.
pub const MAX_OWN_PIXELS: u64 = 1 << 25;

/// The author's image files of a document, as the caller read them: by the name the rule file
/// gives (exactly as written, `..\Images\…` included), the bytes or why they could not be read.
pub type AuthorFiles = BTreeMap<String, Result<Vec<u8>, String>>;

/// The author's own pictures for one plan: the board and, per piece of the plan, per tile, the
/// piece image (with ZoG's `#00FF00` key transparent).
#[derive(Debug, Clone, Default)]
pub struct OwnImages {
    /// The board image, drawn under the pieces (only for a plan that draws the positions at
    /// their own rectangles, which the author's board matches).
    pub board: Option<Pixmap>,
    /// Per plan piece, per tile: the author's image, if found.
    pub tiles: Vec<Vec<Option<Pixmap>>>,
    /// The names of the files used, board first (what makes two sets of pictures the same).
    pub used: Vec<String>,
}

impl OwnImages {
    /// The author's pictures of game `game` of `doc` for `plan`, from `files`; with a note for
    /// each image named but not used (not read, not decoded, or a board laid out anew).
    pub fn of(
        doc: &Document,
        game: usize,
        plan: &RenderPlan,
        files: &AuthorFiles,
    ) -> (OwnImages, Vec<String>) {
        let mut own = OwnImages::default();
        let mut notes = Vec::new();
        let mut budget = MAX_OWN_PIXELS;
        let Some(g) = doc.games.get(game) else {
            return (own, notes);
        };
        if let Some(name) = g.boards.first().and_then(|b| b.images.first()) {
            if plan.board.grid.is_some() {
                notes.push(format!(
                    "the board image {name:?} is not used: the board is laid out anew, so its \
                     positions are not where the author drew them"
                ));
            } else {
                let before = notes.len();
                own.board = load(files, name, false, (&mut notes, &mut budget));
                if own.board.is_some() {
                    own.used.push(name.clone());
                }
                if let Some(n) = notes.get_mut(before) {
                    *n = format!("the board image {n}");
                }
            }
        }
        for p in &plan.pieces {
            let spec = g.pieces.iter().find(|s| s.name == p.piece);
            let mut row: Vec<Option<Pixmap>> = Vec::with_capacity(p.tiles.len());
            for t in &p.tiles {
                // A player's own image, else one given for every player.
                let im = spec.and_then(|s| {
                    s.images
                        .iter()
                        .find(|im| im.player == t.player)
                        .or_else(|| s.images.iter().find(|im| im.player.is_empty()))
                });
                let Some(im) = im else {
                    row.push(None);
                    continue;
                };
                let before = notes.len();
                let found = load(files, &im.file, true, (&mut notes, &mut budget));
                if let Some(n) = notes.get_mut(before) {
                    *n = format!("the image of {} {} {n}", t.player, p.piece);
                }
                if found.is_some() {
                    own.used.push(im.file.clone());
                }
                row.push(found);
            }
            own.tiles.push(row);
        }
        (own, notes)
    }

    /// Whether no picture of the author's is used.
    pub fn is_empty(&self) -> bool {
        self.used.is_empty()
    }
}

/// The picture `name` of `files` decoded (with ZoG's key transparent when `keyed`), its pixels
/// taken from `budget`; `None`, and a note `"NAME": why`, when it was read but cannot be used
/// or could not be read.
fn load(
    files: &AuthorFiles,
    name: &str,
    keyed: bool,
    (notes, budget): (&mut Vec<String>, &mut u64),
) -> Option<Pixmap> {
    let bytes = match files.get(name)? {
        Ok(b) => b,
        Err(e) => {
            notes.push(format!("{name:?}: {e}"));
            return None;
        }
    };
    let pixels = picture_size(bytes).map_or(0, |(w, h)| u64::from(w) * u64::from(h));
    if pixels > *budget {
        notes.push(format!(
            "{name:?}: {pixels} pixels, more than the author's pictures of one game may have \
             left ({MAX_OWN_PIXELS} in all)"
        ));
        return None;
    }
    match decode_image(bytes) {
        Ok(mut p) => {
            *budget = budget.saturating_sub(u64::from(p.width()) * u64::from(p.height()));
            if keyed {
                key_transparent(&mut p);
            }
            Some(p)
        }
        Err(e) => {
            notes.push(format!("{name:?}: {e}"));
            None
        }
    }
}

/// Every image name game `game` of `doc` gives: its boards' and its pieces' (ZRF `image`
/// forms), each once, in order.
pub fn image_names(doc: &Document, game: usize) -> Vec<&str> {
    let Some(g) = doc.games.get(game) else {
        return Vec::new();
    };
    let mut names: Vec<&str> = g
        .boards
        .iter()
        .flat_map(|b| b.images.iter().map(String::as_str))
        .chain(
            g.pieces
                .iter()
                .flat_map(|p| p.images.iter().map(|i| i.file.as_str())),
        )
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    names.retain(|n| seen.insert(*n));
    names
}

/// A picture file: BMP (every flavour [`decode_bmp`] reads) or PNG, told apart by their
/// signatures; an error says which it was taken for and why it failed.
pub fn decode_image(bytes: &[u8]) -> Result<Pixmap, String> {
    if bytes.starts_with(b"\x89PNG") {
        return Pixmap::decode_png(bytes).map_err(|e| format!("not a readable PNG: {e}"));
    }
    if !bytes.starts_with(b"BM") {
        return Err("neither a BMP (\"BM\") nor a PNG file".into());
    }
    decode_bmp(bytes).map_err(|e| format!("not a readable BMP: {e}"))
}

/// The width and height a BMP or PNG file declares, when its header can be read.
fn picture_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.starts_with(b"\x89PNG") {
        let be = |o: usize| Some(u32::from_be_bytes(bytes.get(o..o + 4)?.try_into().ok()?));
        return Some((be(16)?, be(20)?));
    }
    bmp::size(bytes).ok()
}

/// Makes ZoG's key colour (`#00FF00`) transparent in `p`, as ZoG shows piece images.
pub fn key_transparent(p: &mut Pixmap) {
    for px in p.pixels_mut() {
        let c = px.demultiply();
        if c.alpha() == 255 && (c.red(), c.green(), c.blue()) == (0, 255, 0) {
            *px = PremultipliedColorU8::TRANSPARENT;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::bmp::encode_bmp;
    use crate::render::{PlanOptions, from_spec};

    fn doc() -> Document {
        let text = "(game (title \"t\") (players White Black) (turn-order White Black)
           (board (image \"img\\Board.bmp\")
             (grid (start-rectangle 0 0 20 20) (dimensions (\"a/b\" (20 0)) (\"2/1\" (0 20)))
                   (directions (n 0 -1))))
           (piece (name Man) (image White \"w.bmp\" Black \"b.bmp\") (moves (n add)))
           (piece (name King) (image \"k.bmp\") (moves (n add)))
           (board-setup (White (Man a1) (King b1)) (Black (Man a2))))";
        let r = crate::format::read(
            crate::format::Format::Zrf,
            "t.zrf",
            text.as_bytes(),
            &crate::format::ReadOptions::default(),
            &mut crate::zrf::NoIncludes,
        );
        assert_eq!(r.errors(), 0, "{:?}", r.diagnostics);
        r.document.unwrap()
    }

    fn square(w: u32, c: (u8, u8, u8)) -> Vec<u8> {
        let mut p = Pixmap::new(w, w).unwrap();
        p.fill(tiny_skia::Color::from_rgba8(c.0, c.1, c.2, 255));
        let mut inner = tiny_skia::Paint::default();
        inner.set_color_rgba8(9, 9, 9, 255);
        p.fill_rect(
            tiny_skia::Rect::from_xywh(4.0, 4.0, 4.0, 4.0).unwrap(),
            &inner,
            tiny_skia::Transform::identity(),
            None,
        );
        encode_bmp(&p)
    }

    #[test]
    fn images_are_matched_by_player_keyed_and_named_in_notes() {
        let d = doc();
        let plan = from_spec(&d, 0, &PlanOptions::default()).unwrap();
        assert_eq!(
            image_names(&d, 0),
            ["img\\Board.bmp", "w.bmp", "b.bmp", "k.bmp"]
        );
        let mut files = AuthorFiles::new();
        files.insert("img\\Board.bmp".into(), Ok(square(41, (1, 2, 3))));
        files.insert("w.bmp".into(), Ok(square(12, (0, 255, 0))));
        files.insert("b.bmp".into(), Err("not found".into()));
        files.insert("k.bmp".into(), Ok(b"GIF89a".to_vec()));
        let (own, notes) = OwnImages::of(&d, 0, &plan, &files);
        assert_eq!(own.used, ["img\\Board.bmp", "w.bmp"]);
        // The board keeps its colours; the piece's key is transparent, its inside is not.
        let board = own.board.as_ref().unwrap();
        assert_eq!(board.pixel(0, 0).unwrap().red(), 1);
        let man = plan.pieces.iter().position(|p| p.piece == "Man").unwrap();
        let white = own.tiles[man][0].as_ref().unwrap();
        assert_eq!(white.pixel(0, 0).unwrap().alpha(), 0);
        assert_eq!(white.pixel(5, 5).unwrap().alpha(), 255);
        assert!(own.tiles[man][1].is_none());
        // The king's one image stands for every player, and is not a picture.
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(
            notes[0].contains("Black Man \"b.bmp\": not found"),
            "{notes:?}"
        );
        assert!(notes[1].contains("neither a BMP"), "{notes:?}");
    }

    #[test]
    fn a_board_laid_out_anew_does_not_use_the_authors_board() {
        let d = doc();
        let opts = PlanOptions {
            unit: Some(30),
            redraw: true,
            ..Default::default()
        };
        let plan = from_spec(&d, 0, &opts).unwrap();
        let mut files = AuthorFiles::new();
        files.insert("img\\Board.bmp".into(), Ok(square(41, (1, 2, 3))));
        let (own, notes) = OwnImages::of(&d, 0, &plan, &files);
        assert!(own.board.is_none() && own.is_empty());
        assert!(notes[0].contains("laid out anew"), "{notes:?}");
    }
}
