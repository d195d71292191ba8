//! Font sets for rendering text: the bundled subsets (compiled in) or user-supplied font bytes.
//!
//! The `fontdb::Database` inside a [`FontSet`] holds only the fonts given here, never system
//! fonts, so the same input renders to the same pixels on every machine. Characters that no
//! font of the set covers are reported by name, not silently drawn as boxes.

use super::{RenderError, Rgb};
use resvg::usvg::{self, fontdb};
use std::sync::{Arc, Mutex};
use tiny_skia::PixmapMut;

/// Noto Sans CJK JP Bold, subset (ASCII, JIS X 0208 rows 1–8 and level 1, all Tai Shogi kanji,
/// the xiangqi and janggi men's characters); OFL.
pub const BUNDLED_MAIN: &[u8] = include_bytes!("../../assets/fonts/ZogkitKanji-Bold.otf");
/// HanaMinB subset holding the rare characters Noto lacks (U+29E44); Hanazono Font License.
pub const BUNDLED_RARE: &[u8] = include_bytes!("../../assets/fonts/ZogkitRare-Regular.ttf");
/// Noto Sans Symbols 2 subset holding only the chess symbols U+2654–U+265F; OFL.
pub const BUNDLED_CHESS: &[u8] = include_bytes!("../../assets/fonts/ZogkitChess-Regular.ttf");
/// The family name of [`BUNDLED_CHESS`], which chess-style tiles ask for.
pub const CHESS_FAMILY: &str = "ZogkitChess";
/// Every bundled font, primary first.
const BUNDLED: [&[u8]; 3] = [BUNDLED_MAIN, BUNDLED_RARE, BUNDLED_CHESS];

/// An ordered font chain: the primary face first, fallbacks after it.
#[derive(Clone)]
pub struct FontSet {
    /// Ink boxes already measured ([`ink_box`]), shared by the clones of a set.
    inks: Arc<Mutex<InkCache>>,
    db: Arc<fontdb::Database>,
    family: String,
    weight: u16,
}

impl std::fmt::Debug for FontSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FontSet")
            .field("family", &self.family)
            .field("weight", &self.weight)
            .field("faces", &self.db.len())
            .finish()
    }
}

impl FontSet {
    /// The bundled fonts: `ZogkitKanji` Bold (primary), `ZogkitRare` and `ZogkitChess`
    /// (fallbacks).
    pub fn bundled() -> FontSet {
        FontSet::from_static(&BUNDLED).expect("the bundled fonts are valid (checked by tests)")
    }

    /// A user-supplied font file's bytes (TTF, OTF or a collection; its first face is primary).
    /// With `keep_bundled` the bundled fonts stay in the chain as fallbacks for characters the
    /// user font lacks; without it, only the user font is used.
    pub fn user_font(bytes: Vec<u8>, keep_bundled: bool) -> Result<FontSet, RenderError> {
        let mut db = fontdb::Database::new();
        let ids = db.load_font_source(fontdb::Source::Binary(Arc::new(bytes)));
        if ids.is_empty() {
            return Err(RenderError::Font(
                "the font file holds no face that could be read".into(),
            ));
        }
        if keep_bundled {
            for b in BUNDLED {
                db.load_font_source(fontdb::Source::Binary(Arc::new(b)));
            }
        }
        FontSet::from_db(db, ids[0])
    }

    /// Builds a set from font files given as static bytes; the first face of the first file is
    /// the primary font.
    pub fn from_static(fonts: &[&'static [u8]]) -> Result<FontSet, RenderError> {
        let mut db = fontdb::Database::new();
        let mut first = None;
        for &bytes in fonts {
            let ids = db.load_font_source(fontdb::Source::Binary(Arc::new(bytes)));
            first = first.or(ids.first().copied());
        }
        let first = first.ok_or_else(|| RenderError::Font("no readable font face".into()))?;
        FontSet::from_db(db, first)
    }

    fn from_db(db: fontdb::Database, primary: fontdb::ID) -> Result<FontSet, RenderError> {
        let face = db
            .face(primary)
            .ok_or_else(|| RenderError::Font("primary face vanished".into()))?;
        let family = face
            .families
            .iter()
            .find(|f| f.1 == fontdb::Language::English_UnitedStates)
            .or(face.families.first())
            .map(|f| f.0.clone())
            .ok_or_else(|| RenderError::Font("the primary face has no family name".into()))?;
        let weight = face.weight.0;
        Ok(FontSet {
            inks: Arc::default(),
            db: Arc::new(db),
            family,
            weight,
        })
    }

    /// The primary family name (what the internal SVG asks for).
    pub fn family(&self) -> &str {
        &self.family
    }

    /// Number of faces in the chain.
    pub fn faces(&self) -> usize {
        self.db.len()
    }

    /// The characters of `text` (other than whitespace) that no font of the set can draw, each once,
    /// in order of first appearance.
    pub fn missing_chars(&self, text: &str) -> Vec<char> {
        let mut seen = Vec::new();
        let mut svg =
            String::from(r#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8">"#);
        for c in text.chars().filter(|c| !c.is_whitespace()) {
            if !seen.contains(&c) {
                seen.push(c);
                svg.push_str(&self.text_element(
                    0.0,
                    8.0,
                    8.0,
                    Rgb::BLACK,
                    "start",
                    &c.to_string(),
                ));
            }
        }
        svg.push_str("</svg>");
        let missing = Mutex::new(Vec::new());
        // Parsing lays out the text, which is where fallback happens; no need to draw.
        let _ = self.parse(&svg, &missing);
        missing.into_inner().unwrap_or_default()
    }

    /// One SVG `<text>` element in this set's primary font.
    pub(crate) fn text_element(
        &self,
        x: f32,
        baseline: f32,
        size: f32,
        fill: Rgb,
        anchor: &str,
        text: &str,
    ) -> String {
        self.text_element_scaled(x, baseline, size, (1.0, 1.0), fill, anchor, text)
    }

    /// Like [`FontSet::text_element`], scaled by `(sx, sy)` about the anchor point (x, baseline).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn text_element_scaled(
        &self,
        x: f32,
        baseline: f32,
        size: f32,
        (sx, sy): (f32, f32),
        fill: Rgb,
        anchor: &str,
        text: &str,
    ) -> String {
        self.element(
            &self.family,
            self.weight,
            (x, baseline),
            size,
            (sx, sy),
            fill,
            anchor,
            text,
        )
    }

    /// One SVG `<text>` element asking for `family` at `weight` (fallback as usual), scaled by
    /// `(sx, sy)` about the anchor point (x, baseline).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn element(
        &self,
        family: &str,
        weight: u16,
        (x, baseline): (f32, f32),
        size: f32,
        (sx, sy): (f32, f32),
        fill: Rgb,
        anchor: &str,
        text: &str,
    ) -> String {
        let transform = if (sx, sy) == (1.0, 1.0) {
            String::new()
        } else {
            format!(
                r#" transform="matrix({sx} 0 0 {sy} {} {})""#,
                x * (1.0 - sx),
                baseline * (1.0 - sy)
            )
        };
        format!(
            r#"<text x="{x}" y="{baseline}"{transform} font-family="{}" font-weight="{weight}" font-size="{size}" fill="{}" text-anchor="{anchor}">{}</text>"#,
            crate::text::xml_escape(family),
            fill.to_hex(),
            crate::text::xml_escape(text)
        )
    }

    /// Parses an internal SVG with this font set; characters no font covers are pushed to `missing`.
    pub(crate) fn parse(
        &self,
        svg: &str,
        missing: &Mutex<Vec<char>>,
    ) -> Result<usvg::Tree, RenderError> {
        let default_fallback = usvg::FontResolver::default_fallback_selector();
        let opt = usvg::Options {
            fontdb: self.db.clone(),
            font_family: self.family.clone(),
            font_resolver: usvg::FontResolver {
                select_font: usvg::FontResolver::default_font_selector(),
                select_fallback: Box::new(move |c, used, db| {
                    let found = default_fallback(c, used, db);
                    if found.is_none() {
                        let mut m = missing.lock().unwrap_or_else(|e| e.into_inner());
                        if !m.contains(&c) {
                            m.push(c);
                        }
                    }
                    found
                }),
            },
            ..usvg::Options::default()
        };
        usvg::Tree::from_str(svg, &opt).map_err(|e| RenderError::Svg(e.to_string()))
    }

    /// Parses and draws an internal SVG onto `target` (source-over).
    pub(crate) fn draw(
        &self,
        svg: &str,
        target: &mut PixmapMut<'_>,
        missing: &Mutex<Vec<char>>,
    ) -> Result<usvg::Tree, RenderError> {
        let tree = self.parse(svg, missing)?;
        resvg::render(&tree, tiny_skia::Transform::identity(), target);
        Ok(tree)
    }

    /// The width in pixels of `text` set on one line at `size` px (glyph-metric bounding box).
    pub(crate) fn text_width(&self, text: &str, size: f32) -> f32 {
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="100">{}</svg>"#,
            self.text_element(0.0, 50.0, size, Rgb::BLACK, "start", text)
        );
        let missing = Mutex::new(Vec::new());
        match self.parse(&svg, &missing) {
            Ok(tree) => tree.root().abs_bounding_box().width(),
            Err(_) => 0.0,
        }
    }
}

/// The ink bounding box (x, y, width, height) in pixels of one SVG element such as
/// [`FontSet::element`] gives, drawn on a 400-px canvas (pixels with any coverage); `None` when
/// nothing is drawn. Measured on the pixels, so it is tight whatever the font's line metrics.
pub(crate) fn ink_box(fonts: &FontSet, element: &str) -> Option<(f32, f32, f32, f32)> {
    if let Some(b) = fonts.inks.lock().ok().and_then(|c| c.get(element).copied()) {
        return b;
    }
    let b = measure_ink(fonts, element);
    if let Ok(mut c) = fonts.inks.lock() {
        if c.len() >= MAX_INKS {
            c.clear();
        }
        c.insert(element.to_string(), b);
    }
    b
}

/// Measured ink boxes by SVG element.
type InkCache = std::collections::HashMap<String, Option<(f32, f32, f32, f32)>>;
/// Entries the ink cache keeps before starting afresh (a batch meets a few hundred labels).
const MAX_INKS: usize = 4096;

fn measure_ink(fonts: &FontSet, element: &str) -> Option<(f32, f32, f32, f32)> {
    const N: u32 = 400;
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{N}" height="{N}">{element}</svg>"#
    );
    let mut canvas = tiny_skia::Pixmap::new(N, N)?;
    fonts
        .draw(&svg, &mut canvas.as_mut(), &Mutex::new(Vec::new()))
        .ok()?;
    let (mut x0, mut y0, mut x1, mut y1) = (N, N, 0, 0);
    for (i, p) in canvas.data().chunks_exact(4).enumerate() {
        if p[3] > 0 {
            let (x, y) = (i as u32 % N, i as u32 / N);
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x + 1), y1.max(y + 1));
        }
    }
    (x1 > x0).then(|| (x0 as f32, y0 as f32, (x1 - x0) as f32, (y1 - y0) as f32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn font_set_can_be_shared_across_threads() {
        fn assert_send_sync<T: Send + Sync + Clone>() {}
        assert_send_sync::<FontSet>();
    }

    #[test]
    fn bundled_set_has_three_faces_and_renamed_family() {
        let f = FontSet::bundled();
        assert_eq!(f.faces(), 3);
        assert_eq!(f.family(), "ZogkitKanji");
        assert_eq!(f.weight, 700);
    }

    #[test]
    fn bundled_fonts_cover_tai_shogi() {
        let f = FontSet::bundled();
        // Every character of the Tai Shogi names and variant spellings (rendering.md §4.3),
        // including the Ext-B ones: 𠵇 from Noto, 𩹄 from the HanaMinB fallback.
        let names = "泰将棋無上自在天王太子醉酔象奔獏鳩槃狗白鬼獅大龍竜金翅狛犬前旗香車玄武鯨鯢飛\
                     虎反横鷲桂馬毒蛇角行猛左右走駒羊兵牛銀兎鹿羅刹力士剛夜叉歩孔雀北狄青木摩羯鉤朱\
                     雀キ驢竪熊猫刄刃鵄古鳥𠵇𩹄盲猿山母仲人法性無明提婆教鳳凰麒麟西戎東夷南蛮";
        assert_eq!(f.missing_chars(names), Vec::<char>::new());
        assert_eq!(
            f.missing_chars("King Queen Rook Bishop Knight Pawn 0123456789"),
            vec![]
        );
        assert_eq!(f.missing_chars("あいうアイウ「」、。"), vec![]);
        assert_eq!(f.missing_chars("♔♕♖♗♘♙♚♛♜♝♞♟"), vec![]);
    }

    #[test]
    fn chess_font_holds_the_chess_symbols_only() {
        let f = FontSet::from_static(&[BUNDLED_CHESS]).unwrap();
        assert_eq!(f.family(), CHESS_FAMILY);
        assert_eq!(f.missing_chars("♔♕♖♗♘♙♚♛♜♝♞♟"), vec![]);
        assert_eq!(f.missing_chars("K♔"), vec!['K']);
        // Well under the CJK subset: the chess subset stays tiny.
        assert!(BUNDLED_CHESS.len() < 16 * 1024, "{}", BUNDLED_CHESS.len());
    }

    #[test]
    fn missing_glyphs_are_named() {
        let f = FontSet::bundled();
        // U+2252 is in JIS row 2 but absent from Noto CJK; U+1F600 (emoji) and U+0E01 (Thai) too.
        assert_eq!(
            f.missing_chars("金≒\u{1F600}\u{E01}≒"),
            vec!['≒', '\u{1F600}', '\u{E01}']
        );
    }

    #[test]
    fn user_font_without_bundled_is_alone() {
        let f = FontSet::user_font(BUNDLED_RARE.to_vec(), false).unwrap();
        assert_eq!(f.faces(), 1);
        assert_eq!(f.family(), "ZogkitRare");
        assert_eq!(f.missing_chars("𩹄金"), vec!['金']);
        let g = FontSet::user_font(BUNDLED_RARE.to_vec(), true).unwrap();
        assert_eq!(g.missing_chars("𩹄金"), vec![]);
        assert!(FontSet::user_font(b"not a font".to_vec(), true).is_err());
    }

    #[test]
    fn latin_width_grows_with_text_and_size() {
        let f = FontSet::bundled();
        let a = f.text_width("Pawn", 10.0);
        let b = f.text_width("Knight", 10.0);
        assert!(a > 10.0 && b > a, "{a} {b}");
        let c = f.text_width("Pawn", 20.0);
        assert!((c / a - 2.0).abs() < 0.05, "{a} {c}");
    }
}
