//! HTML helpers of the catalogue: escaping, the language of a text, paragraphs from texts with
//! line breaks, the page shell and the one style sheet.

use std::fmt::Write as _;

/// `s` with `&`, `<`, `>`, `"` and `'` escaped, and control characters other than line breaks
/// and tabs dropped (HTML cannot hold them), for text and attribute values alike.
pub fn escape(s: &str) -> String {
    crate::text::xml_escape(s)
}

/// The language a text is written in, told from its script: Japanese kana or CJK ideographs →
/// `ja`, Cyrillic → `ru`, anything else → `en`. Kana or kanji win over Cyrillic.
pub fn lang_of(text: &str) -> &'static str {
    let mut cyrillic = false;
    for c in text.chars() {
        match c as u32 {
            0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xFF66..=0xFF9F => return "ja",
            0x0400..=0x052F => cyrillic = true,
            _ => {}
        }
    }
    if cyrillic { "ru" } else { "en" }
}

/// A text block: each line of `text` (ZoG's `\` breaks are stored as line breaks) becomes a
/// paragraph; empty lines are dropped. The block carries the text's own `lang`.
pub fn paragraphs(out: &mut String, class: &str, text: &str) {
    let _ = write!(out, "<div class=\"{class}\" lang=\"{}\">", lang_of(text));
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let _ = write!(out, "<p>{}</p>", escape(line));
    }
    out.push_str("</div>\n");
}

/// Inline text with its own `lang` when that differs from the page's.
pub fn span(text: &str, page_lang: &str) -> String {
    let lang = lang_of(text);
    if lang == page_lang {
        escape(text)
    } else {
        format!("<span lang=\"{lang}\">{}</span>", escape(text))
    }
}

/// The start of a page: doctype, `lang`, UTF-8, title and the style sheet at `css` (relative).
pub fn head(lang: &str, title: &str, css: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<link rel=\"stylesheet\" href=\"{}\">\n</head>\n<body>\n",
        escape(title),
        escape(css)
    )
}

/// The end of a page.
pub const TAIL: &str = "</body>\n</html>\n";

/// The site's one style sheet (no web fonts, no scripts: the site works offline).
pub const CSS: &str = "body{font-family:system-ui,'Noto Sans','Noto Sans CJK JP','Hiragino Sans',\
'Yu Gothic',sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;color:#1d1d1f;\
background:#fdfcf8;line-height:1.45}\n\
h1{font-size:1.7em;margin:.3em 0}h2{font-size:1.25em;border-bottom:1px solid #ddd;\
margin-top:1.6em}\n\
a{color:#0b57a3}nav{font-size:.95em;margin-bottom:1em}\n\
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #e3e0d8;\
padding:.35em .5em;text-align:left;vertical-align:top}\n\
th{background:#f1ede3;position:sticky;top:0}th a{text-decoration:none;color:inherit}\n\
th[aria-sort] a{text-decoration:underline}td.n{text-align:right;font-variant-numeric:tabular-nums}\n\
td.thumb img{display:block;max-width:160px;height:auto;image-rendering:pixelated}\n\
.placeholder{display:inline-block;padding:.5em .8em;border:1px dashed #b9b2a1;color:#6b6558;\
background:#f6f3ec;font-size:.9em}\n\
.start img{max-width:100%;height:auto;border:1px solid #ccc}\n\
.ok{color:#1a7f37}.fail{color:#b42318}.na{color:#6b6558}\n\
.pieces img{vertical-align:middle;margin-right:.2em;border:1px solid #ddd;background:#fff}\n\
.diag{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85em;white-space:pre-wrap;\
list-style:none;padding-left:0}.diag li{margin:.15em 0}\n\
.error{color:#b42318}.warning{color:#8a5300}.note{color:#555}\n\
.summary{background:#f1ede3;padding:.6em 1em;border-radius:4px}\n\
.text p{margin:.35em 0}.variants li{margin:.1em 0}.small{font-size:.85em;color:#555}\n";
