//! Name layout on a piece tile: vertical kanji stacks (1, 2, 3 characters), 2×2 blocks, Latin lines.
//!
//! Positions follow rendering.md §3.3 for a 30-pixel tile and scale linearly with the tile size.
//! Coordinates are SVG user units (pixel edges), so x = 15 is the middle of a 30-pixel tile.

use super::fonts::FontSet;

/// How a name is set on the tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NameLayout {
    /// Vertical for names containing any non-ASCII character, horizontal for pure ASCII names.
    #[default]
    Auto,
    /// Stacked top to bottom as on real shogi pieces (2×2 for four characters).
    Vertical,
    /// One or two horizontal lines (western piece names).
    Horizontal,
}

/// Reading order of four-character names such as 自在天王 in the 2×2 block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FourKanjiOrder {
    /// Left to right, then the next row: 自在 over 天王 (default).
    #[default]
    Rows,
    /// Traditional vertical columns, right column first: 自在 on the right, 天王 on the left.
    Columns,
}

/// Layout of three-character names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ThreeKanji {
    /// Three 8-px glyphs stacked (default; legibility is marginal).
    #[default]
    Small,
    /// Three 9-px glyphs squashed vertically to 85 % (rendering.md §3.3, alternative layout).
    Squashed,
}

/// One run of text to draw: centred on `x`, with its baseline at `baseline`.
#[derive(Debug, Clone, PartialEq)]
pub struct TextItem {
    /// The characters (one for vertical layouts, a word or line for horizontal ones).
    pub text: String,
    /// Horizontal centre.
    pub x: f32,
    /// Baseline.
    pub baseline: f32,
    /// Font size (em) in pixels.
    pub size: f32,
    /// Horizontal scale about `x` (1 = normal; below 1 condenses long Latin names).
    pub x_scale: f32,
    /// Vertical scale about the baseline (1 = normal; below 1 squashes).
    pub y_scale: f32,
}

/// With Noto CJK the ideographic em box spans +880…−120 units, so baseline = box top + 0.88 em.
const ASCENT: f32 = 0.88;
/// Cap height of the bundled font's Latin glyphs, as a fraction of the em (Noto Sans CJK: 733/1000).
const CAP_HEIGHT: f32 = 0.733;

fn glyph(c: char, x: f32, top: f32, em: f32) -> TextItem {
    TextItem {
        text: c.to_string(),
        x,
        baseline: top + ASCENT * em,
        size: em,
        x_scale: 1.0,
        y_scale: 1.0,
    }
}

/// Vertical layout of `chars` on a tile of `size` pixels (rendering.md §3.3).
/// Returns the items and, for names of five or more characters, a note that they are cramped.
pub fn vertical(
    chars: &[char],
    size: u32,
    order: FourKanjiOrder,
    three: ThreeKanji,
) -> (Vec<TextItem>, Option<String>) {
    let k = size as f32 / 30.0;
    let mid = 15.0 * k;
    let col = |c: char, top: f32, em: f32| glyph(c, mid, top * k, em * k);
    match chars.len() {
        0 => (Vec::new(), None),
        1 => (vec![col(chars[0], 10.5, 14.0)], None),
        2 => (
            vec![col(chars[0], 7.0, 11.0), col(chars[1], 18.0, 11.0)],
            None,
        ),
        3 if three == ThreeKanji::Squashed => {
            // 9-px em squashed to 0.85: boxes 7.65 px tall from y = 4.5; the baseline is
            // placed so that the squashed box top lands on the listed top.
            let em = 9.0 * k;
            let items = chars
                .iter()
                .enumerate()
                .map(|(i, &c)| {
                    let top = (4.5 + i as f32 * 7.65) * k;
                    TextItem {
                        text: c.to_string(),
                        x: mid,
                        baseline: top + ASCENT * em * SQUASH,
                        size: em,
                        x_scale: 1.0,
                        y_scale: SQUASH,
                    }
                })
                .collect();
            (items, None)
        }
        3 => (
            vec![
                col(chars[0], 4.5, 8.0),
                col(chars[1], 12.5, 8.0),
                col(chars[2], 20.5, 8.0),
            ],
            None,
        ),
        n => {
            // 2×2 for four characters; two columns of ⌈n/2⌉ for longer names.
            let rows = n.div_ceil(2);
            let (em, first_top) = if n == 4 {
                (9.0, 9.0)
            } else {
                let em = (22.0 / rows as f32).min(9.0);
                (em, 28.0 - rows as f32 * em)
            };
            let xs = [10.5 * k, 19.5 * k];
            let items = chars
                .iter()
                .enumerate()
                .map(|(i, &c)| {
                    let (column, row) = match order {
                        FourKanjiOrder::Rows => (i % 2, i / 2),
                        FourKanjiOrder::Columns => (1 - i / rows, i % rows),
                    };
                    glyph(c, xs[column], (first_top + row as f32 * em) * k, em * k)
                })
                .collect();
            let note = (n > 4).then(|| {
                format!("{n} characters set in two columns at {:.1} px; a 2-character abbreviation reads better", em * k)
            });
            (items, note)
        }
    }
}

/// Horizontal layout for Latin names: one line, or two for multi-word names (words separated
/// by spaces, `-` or `_`) that would otherwise be smaller than 8 px, or three for names of
/// three words or more when three lines set them larger than two. Sizes are fitted to the pentagon with the font's measured widths; below
/// 8 px a line is condensed horizontally (down to 60 %) before it is made smaller.
/// Returns a note when the result is smaller than 6 px (scaled), i.e. hard to read.
pub fn horizontal(name: &str, size: u32, fonts: &FontSet) -> (Vec<TextItem>, Option<String>) {
    let items = horizontal_items(name, size, fonts);
    let k = size as f32 / 30.0;
    let note = items.iter().map(|i| i.size).reduce(f32::min).and_then(|s| {
        (s < 6.0 * k).then(|| {
            format!("the name is set at {s:.1} px to fit the tile; an abbreviation reads better")
        })
    });
    (items, note)
}

fn horizontal_items(name: &str, size: u32, fonts: &FontSet) -> Vec<TextItem> {
    let k = size as f32 / 30.0;
    let name = name.trim();
    if name.is_empty() {
        return Vec::new();
    }
    let max = if name.chars().count() <= 2 {
        15.0
    } else {
        11.0
    } * k;
    let min = 8.0 * k;
    // The size at which `line` exactly fills `avail` pixels.
    let natural = |line: &str, avail: f32| {
        let w = fonts.text_width(line, 10.0);
        if w > 0.0 { 10.0 * avail / w } else { max }
    };
    // (size, horizontal scale) for a line whose natural size is `n`.
    let fit = |n: f32| {
        if n >= min {
            (n.min(max), 1.0)
        } else if n >= min * MIN_CONDENSE {
            (min, n / min)
        } else {
            (n / MIN_CONDENSE, MIN_CONDENSE)
        }
    };
    // Words end at spaces, `-` and `_` (Chu Shogi's `Ferocious-Leopard`); a line break
    // replaces the separator.
    let words: Vec<&str> = name
        .split(|c: char| c.is_whitespace() || c == '-' || c == '_')
        .filter(|w| !w.is_empty())
        .collect();
    let one = natural(name, 21.0 * k);
    if one >= min || words.len() < 2 {
        let (size, x_scale) = fit(one);
        return vec![TextItem {
            text: name.to_string(),
            x: 15.0 * k,
            baseline: 18.5 * k + CAP_HEIGHT * size / 2.0,
            size,
            x_scale,
            y_scale: 1.0,
        }];
    }
    // Two lines split at the word boundary that best balances them; with three words or more,
    // three lines when those set the name larger (Chu Shogi's `Lion part move`).
    let two = two_lines(name, &words);
    let smallest = |lines: &[String], cap: f32| {
        lines
            .iter()
            .map(|l| natural(l, 19.0 * k))
            .fold(cap, f32::min)
    };
    let (lines, cap, centres): (Vec<String>, f32, &[f32]) = match (two, words.len()) {
        (two, n) if n >= 3 => {
            let three = three_lines(&words, |l| natural(l, 19.0 * k));
            if smallest(&three, 7.0 * k) > smallest(&two, 10.0 * k) {
                (three, 7.0 * k, &[11.0, 17.5, 24.0])
            } else {
                (two, 10.0 * k, &[13.5, 22.5])
            }
        }
        (two, _) => (two, 10.0 * k, &[13.5, 22.5]),
    };
    let naturals: Vec<f32> = lines.iter().map(|l| natural(l, 19.0 * k)).collect();
    let size = naturals.iter().map(|&n| fit(n).0).fold(cap, f32::min);
    lines
        .into_iter()
        .zip(naturals)
        .zip(centres)
        .map(|((text, n), &centre)| TextItem {
            text,
            x: 15.0 * k,
            baseline: centre * k + CAP_HEIGHT * size / 2.0,
            size,
            x_scale: (n / size).min(1.0),
            y_scale: 1.0,
        })
        .collect()
}

/// `words` of `name` in two lines, split at the word boundary that best balances their
/// characters.
fn two_lines(name: &str, words: &[&str]) -> Vec<String> {
    let total = name.chars().count();
    let mut best = (usize::MAX, 1);
    for cut in 1..words.len() {
        let left: usize = words[..cut].iter().map(|w| w.chars().count() + 1).sum();
        let d = (2 * left).abs_diff(total);
        if d < best.0 {
            best = (d, cut);
        }
    }
    vec![words[..best.1].join(" "), words[best.1..].join(" ")]
}

/// `words` (at least three) in three lines, cut where the widest line (by `natural`, the size
/// at which a line fills its width: the smaller, the wider) is the least wide.
fn three_lines(words: &[&str], natural: impl Fn(&str) -> f32) -> Vec<String> {
    let join = |from: usize, to: usize| words[from..to].join(" ");
    let len = words.len();
    let mut best: (f32, Vec<String>) = (f32::NEG_INFINITY, Vec::new());
    for a in 1..len.saturating_sub(1) {
        for b in a + 1..len {
            let lines = vec![join(0, a), join(a, b), join(b, len)];
            let worst = lines
                .iter()
                .map(|l| natural(l))
                .fold(f32::INFINITY, f32::min);
            if worst > best.0 {
                best = (worst, lines);
            }
        }
    }
    best.1
}

/// Vertical scale of the squashed three-character layout.
const SQUASH: f32 = 0.85;

/// The narrowest horizontal scale used to keep Latin names at a legible size.
const MIN_CONDENSE: f32 = 0.6;

/// Whether `layout` sets `name` vertically.
pub fn is_vertical(name: &str, layout: NameLayout) -> bool {
    match layout {
        NameLayout::Vertical => true,
        NameLayout::Horizontal => false,
        NameLayout::Auto => !name.is_ascii(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tops(items: &[TextItem]) -> Vec<f32> {
        items.iter().map(|i| i.baseline - ASCENT * i.size).collect()
    }

    #[test]
    fn vertical_layouts_match_the_notes() {
        let (one, _) = vertical(&['龍'], 30, FourKanjiOrder::Rows, ThreeKanji::Small);
        assert_eq!((one[0].x, one[0].size), (15.0, 14.0));
        assert!((tops(&one)[0] - 10.5).abs() < 1e-4);

        let (two, note) = vertical(&['金', '将'], 30, FourKanjiOrder::Rows, ThreeKanji::Small);
        assert_eq!(note, None);
        assert_eq!(two.iter().map(|i| i.size).collect::<Vec<_>>(), [11.0, 11.0]);
        let t = tops(&two);
        assert!(
            (t[0] - 7.0).abs() < 1e-4 && (t[1] - 18.0).abs() < 1e-4,
            "{t:?}"
        );

        let (three, _) = vertical(
            &['a', 'b', 'c'],
            30,
            FourKanjiOrder::Rows,
            ThreeKanji::Small,
        );
        let t = tops(&three);
        assert!((t[2] - 20.5).abs() < 1e-4 && three[0].size == 8.0);
    }

    #[test]
    fn squashed_three_kanji() {
        let (items, _) = vertical(
            &['大', '納', '言'],
            30,
            FourKanjiOrder::Rows,
            ThreeKanji::Squashed,
        );
        assert!(items.iter().all(|i| i.size == 9.0 && i.y_scale == SQUASH));
        // Squashed box tops at 4.5, 12.15, 19.8 and the last box ends inside the tile.
        let tops: Vec<f32> = items
            .iter()
            .map(|i| i.baseline - ASCENT * i.size * SQUASH)
            .collect();
        assert!(
            (tops[0] - 4.5).abs() < 1e-4 && (tops[2] - 19.8).abs() < 1e-4,
            "{tops:?}"
        );
        assert!(tops[2] + 9.0 * SQUASH < 28.0);
    }

    #[test]
    fn four_kanji_block_orders() {
        let name: Vec<char> = "自在天王".chars().collect();
        let (rows, _) = vertical(&name, 30, FourKanjiOrder::Rows, ThreeKanji::Small);
        let pos = |items: &[TextItem], c: &str| {
            let i = items.iter().find(|i| i.text == c).unwrap();
            (i.x, (i.baseline - ASCENT * i.size).round())
        };
        assert_eq!(pos(&rows, "自"), (10.5, 9.0));
        assert_eq!(pos(&rows, "在"), (19.5, 9.0));
        assert_eq!(pos(&rows, "天"), (10.5, 18.0));
        assert_eq!(pos(&rows, "王"), (19.5, 18.0));
        let (cols, _) = vertical(&name, 30, FourKanjiOrder::Columns, ThreeKanji::Small);
        assert_eq!(pos(&cols, "自"), (19.5, 9.0));
        assert_eq!(pos(&cols, "在"), (19.5, 18.0));
        assert_eq!(pos(&cols, "天"), (10.5, 9.0));
        assert_eq!(pos(&cols, "王"), (10.5, 18.0));
    }

    #[test]
    fn long_names_fit_and_warn() {
        let name: Vec<char> = "一二三四五六".chars().collect();
        let (items, note) = vertical(&name, 30, FourKanjiOrder::Rows, ThreeKanji::Small);
        assert!(note.is_some());
        for i in &items {
            let top = i.baseline - ASCENT * i.size;
            assert!(top >= 5.0 && top + i.size <= 28.01, "{i:?}");
        }
    }

    #[test]
    fn layouts_scale_with_tile_size() {
        let (a, _) = vertical(&['金', '将'], 60, FourKanjiOrder::Rows, ThreeKanji::Small);
        assert_eq!((a[0].x, a[0].size), (30.0, 22.0));
        assert!(is_vertical("金将", NameLayout::Auto));
        assert!(!is_vertical("Knight", NameLayout::Auto));
        assert!(is_vertical("K", NameLayout::Vertical));
    }

    #[test]
    fn latin_lines_fit_the_tile() {
        let f = FontSet::bundled();
        for name in [
            "K",
            "Pawn",
            "Knight",
            "Bishop",
            "Queen",
            "Drunk Elephant",
            "Lion",
        ] {
            let (items, note) = horizontal(name, 30, &f);
            assert_eq!(note, None, "{name}");
            assert!(!items.is_empty());
            for i in &items {
                assert!(
                    f.text_width(&i.text, i.size) * i.x_scale <= 21.5,
                    "{name}: {i:?}"
                );
                assert!(i.size >= 6.0 && i.x_scale >= MIN_CONDENSE, "{name}: {i:?}");
            }
        }
        assert_eq!(horizontal("Drunk Elephant", 30, &f).0.len(), 2);
        assert_eq!(horizontal("Queen", 30, &f).0.len(), 1);
        let k = &horizontal("K", 30, &f).0[0];
        assert_eq!((k.size, k.x_scale), (15.0, 1.0));
        // Hyphenated names break like spaced ones, at a legible size (Chu Shogi's names).
        for name in ["Copper-General", "Ferocious-Leopard", "Reverse_Chariot"] {
            let (items, note) = horizontal(name, 48, &f);
            assert_eq!(note, None, "{name}");
            assert_eq!(items.len(), 2, "{name}");
            assert!(
                items.iter().all(|i| !i.text.contains(['-', '_'])),
                "{items:?}"
            );
            assert!(
                items.iter().all(|i| i.size >= 6.0 * 48.0 / 30.0),
                "{items:?}"
            );
        }
        // Three words or more: three lines when that sets them larger, legible, inside the
        // pentagon's width at each line, in order and top to bottom (Chu Shogi's names).
        for (name, size) in [
            ("Free Demonic King", 30),
            ("Lion part move2", 48),
            ("Soaring Eagle part move", 48),
        ] {
            let (items, note) = horizontal(name, size, &f);
            let k = size as f32 / 30.0;
            assert_eq!(note, None, "{name}");
            assert_eq!(items.len(), 3, "{name}: {items:?}");
            let words: Vec<&str> = items.iter().flat_map(|i| i.text.split(' ')).collect();
            assert_eq!(words.join(" "), name);
            for i in &items {
                assert!(i.size >= 6.0 * k, "{name}: {i:?}");
                assert!(
                    f.text_width(&i.text, i.size) * i.x_scale <= 19.5 * k,
                    "{i:?}"
                );
            }
            assert!(items.windows(2).all(|w| w[0].baseline < w[1].baseline));
            // Larger than the two lines it would otherwise get.
            let two = two_lines(name, &name.split(' ').collect::<Vec<_>>());
            let two_size = two
                .iter()
                .map(|l| 10.0 * 19.0 * k / f.text_width(l, 10.0))
                .fold(10.0 * k, f32::min);
            assert!(
                items[0].size > two_size,
                "{name}: {} vs {two_size}",
                items[0].size
            );
        }
        // Two words stay in two lines, however long.
        assert_eq!(horizontal("Ferocious Leopard", 30, &f).0.len(), 2);
        let knight = &horizontal("Knight", 30, &f).0[0];
        assert_eq!(knight.size, 8.0);
        assert!(knight.x_scale < 1.0);
    }
}
