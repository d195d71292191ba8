//! Bytes to text: BOM, UTF-8, Shift_JIS, Windows-1251/1252 detection with an override, and re-encoding.
//!
//! zogkit accepts exactly four encodings: UTF-8, Shift_JIS (Windows code page 932),
//! Windows-1251 and Windows-1252. [`decode`] picks one in this order:
//!
//! 1. an explicit override (`--encoding`), which always wins;
//! 2. a UTF-8 byte-order mark;
//! 3. pure ASCII (reported as UTF-8, since every candidate agrees);
//! 4. strict UTF-8 when the bytes are valid UTF-8;
//! 5. otherwise the legacy candidates, scored by a classifier restricted to them and
//!    cross-checked with chardetng (which alone misses files with one or two non-ASCII words).
//!
//! When the legacy candidates would give *different* text and the evidence is thin, the
//! choice is reported as a warning (`text::weak-encoding-guess`) naming the encoding chosen, so
//! nothing is garbled silently. Decoding never replaces bytes; every decoded text is checked to
//! re-encode to the original bytes.

use crate::diag::{Diagnostic, FileId, Severity, Span};
use encoding_rs::{SHIFT_JIS, UTF_8, WINDOWS_1251, WINDOWS_1252};
use serde::{Deserialize, Serialize};
use std::fmt;

/// One of the encodings zogkit reads and writes. A spec document names it as below; reading
/// also accepts common aliases (`cp932`, `sjis`, `cp1251`, `cp1252`, `latin1`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Encoding {
    /// UTF-8 (also used for pure ASCII files).
    #[serde(rename = "utf-8", alias = "utf8", alias = "ascii", alias = "us-ascii")]
    Utf8,
    /// Shift_JIS as Windows writes it (code page 932).
    #[serde(
        rename = "shift_jis",
        alias = "shift-jis",
        alias = "sjis",
        alias = "cp932",
        alias = "windows-31j"
    )]
    ShiftJis,
    /// Windows-1251 (Cyrillic).
    #[serde(rename = "windows-1251", alias = "cp1251")]
    Windows1251,
    /// Windows-1252 (Western European).
    #[serde(
        rename = "windows-1252",
        alias = "cp1252",
        alias = "latin1",
        alias = "iso-8859-1"
    )]
    Windows1252,
}

impl Encoding {
    /// All supported encodings.
    pub const ALL: [Encoding; 4] = [
        Encoding::Utf8,
        Encoding::ShiftJis,
        Encoding::Windows1251,
        Encoding::Windows1252,
    ];

    /// The canonical name, as accepted by `--encoding` and written into specs.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::ShiftJis => "shift_jis",
            Encoding::Windows1251 => "windows-1251",
            Encoding::Windows1252 => "windows-1252",
        }
    }

    /// Parses a name case-insensitively, accepting common aliases (`sjis`, `cp932`, `cp1251`, `latin1` ...).
    pub fn from_name(name: &str) -> Option<Encoding> {
        let n = name.trim().to_ascii_lowercase().replace('_', "-");
        Some(match n.as_str() {
            "utf-8" | "utf8" | "ascii" | "us-ascii" => Encoding::Utf8,
            "shift-jis" | "sjis" | "cp932" | "windows-31j" | "ms932" | "x-sjis" | "ms-kanji" => {
                Encoding::ShiftJis
            }
            "windows-1251" | "cp1251" | "win1251" => Encoding::Windows1251,
            "windows-1252" | "cp1252" | "win1252" | "latin1" | "latin-1" | "iso-8859-1" => {
                Encoding::Windows1252
            }
            _ => return None,
        })
    }

    fn encoding_rs(self) -> &'static encoding_rs::Encoding {
        match self {
            Encoding::Utf8 => UTF_8,
            Encoding::ShiftJis => SHIFT_JIS,
            Encoding::Windows1251 => WINDOWS_1251,
            Encoding::Windows1252 => WINDOWS_1252,
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How sure the decoder is about its choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// Several candidates give different text and the evidence is thin: a warning is issued.
    Low,
    /// The classifier and chardetng agree, or the classifier wins by a clear margin.
    High,
    /// Override, BOM, ASCII, valid multi-byte UTF-8, or all plausible candidates give the same text.
    Certain,
}

/// The line-ending style of a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum LineEndings {
    /// Only `\n`.
    Lf,
    /// Only `\r\n`.
    Crlf,
    /// Only a lone `\r` (classic Mac).
    Cr,
    /// More than one style.
    Mixed,
    /// No line break at all.
    None,
}

impl LineEndings {
    /// Detects the style of `text`.
    pub fn detect(text: &str) -> LineEndings {
        let b = text.as_bytes();
        let (mut lf, mut crlf, mut cr) = (0usize, 0usize, 0usize);
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'\r' if b.get(i + 1) == Some(&b'\n') => {
                    crlf += 1;
                    i += 1;
                }
                b'\r' => cr += 1,
                b'\n' => lf += 1,
                _ => {}
            }
            i += 1;
        }
        match (lf > 0, crlf > 0, cr > 0) {
            (false, false, false) => LineEndings::None,
            (true, false, false) => LineEndings::Lf,
            (false, true, false) => LineEndings::Crlf,
            (false, false, true) => LineEndings::Cr,
            _ => LineEndings::Mixed,
        }
    }

    /// The line terminator to use when writing new lines in this style (`\r\n` for CRLF and mixed
    /// files whose majority is unknown, `\n` otherwise).
    pub fn terminator(self) -> &'static str {
        match self {
            LineEndings::Crlf | LineEndings::Mixed => "\r\n",
            LineEndings::Cr => "\r",
            LineEndings::Lf | LineEndings::None => "\n",
        }
    }
}

/// The result of decoding one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The text, without a byte-order mark.
    pub text: String,
    /// The encoding used.
    pub encoding: Encoding,
    /// Whether a UTF-8 byte-order mark preceded the text.
    pub bom: bool,
    /// How sure the choice is.
    pub confidence: Confidence,
    /// Why this encoding was chosen, in a few words (recorded in specs for review).
    pub reason: String,
    /// Line-ending style.
    pub line_endings: LineEndings,
    /// Whether the text ends with a line break.
    pub final_newline: bool,
}

/// `s` cut to its first `n` characters with `…` appended when it is longer (for messages and
/// labels that must stay short whatever a file contains).
pub fn shorten(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        None => s.to_string(),
        Some((at, _)) => format!("{}…", &s[..at]),
    }
}

/// Largest input file read by default (rule files, scripts and Ludii texts; YAML has its own
/// limit): the largest ZRF file of the shared corpus is 119 KB, and reading costs up to about
/// 60 bytes of memory per input byte.
pub const MAX_INPUT_BYTES: usize = 8 << 20;

/// Diagnostic code: an input file is larger than the input size limit.
pub const CODE_TOO_LARGE: &str = "text::too-large";

/// Diagnostic code: an input holds control bytes (NUL, …): binary data, not text.
pub const CODE_BINARY: &str = "text::binary";
/// Diagnostic code: an input is UTF-16 text (by its byte-order mark or its NUL pattern).
pub const CODE_UTF16: &str = "text::utf-16";

/// Why `bytes` cannot be a rule file at all, if they cannot: UTF-16 text or binary data (a
/// control byte other than tab, line breaks, form feed and DOS end-of-file). Every reader takes
/// 8-bit text; without this, such bytes read as a few ignored atoms and convert to an empty
/// document. Returns the error and the text its span points into: the bytes up to and
/// including the offending one, each non-ASCII or control byte shown as `?`, so that byte
/// offsets, lines and columns are those of the file.
pub fn not_text(bytes: &[u8], file: FileId) -> Option<(Diagnostic, String)> {
    let shown = |end: usize| -> String {
        bytes[..end.min(bytes.len())]
            .iter()
            .map(|&b| match b {
                b'\n' | b'\r' | b'\t' | 0x20..=0x7e => b as char,
                _ => '?',
            })
            .collect()
    };
    let utf16_bom = bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF");
    // ASCII text in UTF-16 without a BOM: every other byte of the first ones is NUL.
    let head = &bytes[..bytes.len().min(64) & !1];
    let nul_pattern = head.len() >= 4
        && (head.chunks(2).all(|c| c[0] == 0 && c[1] != 0)
            || head.chunks(2).all(|c| c[1] == 0 && c[0] != 0));
    if utf16_bom || nul_pattern {
        let d = Diagnostic::error(
            CODE_UTF16,
            "this file is UTF-16 text; zogkit reads UTF-8, Shift_JIS, Windows-1251 and Windows-1252 (save it as UTF-8); it is not read",
            Span::new(file, 0, 0),
        );
        return Some((d, shown(0)));
    }
    let at = bytes
        .iter()
        .position(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1a))?;
    let d = Diagnostic::error(
        CODE_BINARY,
        format!(
            "byte {at} is the control character 0x{:02X}: binary data, not a rule file; it is not read",
            bytes[at]
        ),
        Span::new(file, at, at + 1),
    );
    Some((d, shown(at + 1)))
}

/// The error for an input of `len` bytes over `max`, located at the start of `file`; `None`
/// when it fits. Callers then read the input as empty.
pub fn too_large(len: usize, max: usize, file: FileId) -> Option<Diagnostic> {
    (len > max).then(|| {
        Diagnostic::error(
            CODE_TOO_LARGE,
            format!(
                "this file is longer than the input limit of {max} bytes (`--limit input-bytes=N` changes it); it is not read"
            ),
            Span::new(file, 0, 0),
        )
    })
}

/// Decodes `bytes`, honouring `forced` when given. Returns the text and any diagnostics
/// (a weak guess is a warning; bytes invalid in the forced encoding are an error). The
/// diagnostics' spans point into the decoded text, which the caller registers as `file`.
pub fn decode(bytes: &[u8], forced: Option<Encoding>, file: FileId) -> (Decoded, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let (bom, body) = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => (true, rest),
        None => (false, bytes),
    };
    let (text, encoding, confidence, reason) = if let Some(enc) = forced {
        let (text, bad) = decode_lossless(enc, body);
        if let Some(at) = bad {
            diags.push(Diagnostic::new(
                Severity::Error,
                "text::invalid-bytes",
                format!(
                    "the bytes at offset {at} are not valid {enc}; they were replaced with U+FFFD (choose another --encoding)"
                ),
                None,
            ));
        }
        (
            text,
            enc,
            Confidence::Certain,
            "--encoding override".to_string(),
        )
    } else if bom {
        match std::str::from_utf8(body) {
            Ok(t) => (
                t.to_string(),
                Encoding::Utf8,
                Confidence::Certain,
                "UTF-8 byte-order mark".into(),
            ),
            Err(e) => {
                diags.push(Diagnostic::new(
                    Severity::Error,
                    "text::invalid-bytes",
                    format!(
                        "the file starts with a UTF-8 byte-order mark but byte {} is not valid UTF-8",
                        e.valid_up_to() + 3
                    ),
                    None,
                ));
                (
                    String::from_utf8_lossy(body).into_owned(),
                    Encoding::Utf8,
                    Confidence::Certain,
                    "UTF-8 byte-order mark".into(),
                )
            }
        }
    } else if body.is_ascii() {
        (
            // SAFETY-free: ASCII is valid UTF-8.
            String::from_utf8(body.to_vec()).unwrap_or_default(),
            Encoding::Utf8,
            Confidence::Certain,
            "ASCII only".into(),
        )
    } else if let Ok(t) = std::str::from_utf8(body) {
        (
            t.to_string(),
            Encoding::Utf8,
            Confidence::Certain,
            "valid UTF-8".into(),
        )
    } else {
        let guess = guess_legacy(body);
        if guess.confidence == Confidence::Low {
            diags.push(Diagnostic::new(
                Severity::Warning,
                "text::weak-encoding-guess",
                format!(
                    "decoded as {} ({}); if the text looks wrong, pass --encoding {}",
                    guess.encoding,
                    guess.reason,
                    guess.runner_up.map(|e| e.name()).unwrap_or("windows-1252")
                ),
                None,
            ));
        } else {
            diags.push(Diagnostic::new(
                Severity::Note,
                "text::encoding",
                format!(
                    "decoded as {} ({} confidence: {})",
                    guess.encoding,
                    if guess.confidence == Confidence::Certain {
                        "certain"
                    } else {
                        "high"
                    },
                    guess.reason
                ),
                None,
            ));
        }
        let (text, bad) = decode_lossless(guess.encoding, body);
        debug_assert!(
            bad.is_none(),
            "guess_legacy only returns encodings that decode"
        );
        (text, guess.encoding, guess.confidence, guess.reason)
    };

    if forced.is_some() || (!body.is_ascii() && encoding != Encoding::Utf8) {
        // Prove the text re-encodes to the original bytes (Shift_JIS has duplicate codes).
        match encode(&text, encoding) {
            Ok(back) if back == body => {}
            Ok(back) => {
                let at = back
                    .iter()
                    .zip(body)
                    .position(|(a, b)| a != b)
                    .unwrap_or(back.len().min(body.len()));
                diags.push(Diagnostic::new(
                    Severity::Warning,
                    "text::not-reencodable",
                    format!(
                        "decoded as {encoding}, but writing the text back gives different bytes from offset {at} (duplicate code points in the encoding); the writer will not reproduce this file byte for byte"
                    ),
                    None,
                ));
            }
            Err(_) => {} // only possible after replacement, already reported as an error
        }
    }
    locate(&mut diags, &text, body, encoding, file);
    let line_endings = LineEndings::detect(&text);
    let final_newline = text.ends_with('\n') || text.ends_with('\r');
    (
        Decoded {
            text,
            encoding,
            bom,
            confidence,
            reason,
            line_endings,
            final_newline,
        },
        diags,
    )
}

/// Points each decoding diagnostic at the character it is about: the first U+FFFD for invalid
/// bytes, the first non-ASCII character for a weak guess, the first character that does not
/// re-encode to its original bytes.
fn locate(diags: &mut [Diagnostic], text: &str, bytes: &[u8], enc: Encoding, file: FileId) {
    let at = |pred: &dyn Fn(usize, char) -> bool| {
        text.char_indices()
            .find(|&(i, c)| pred(i, c))
            .map(|(i, c)| Span::new(file, i, i + c.len_utf8()))
    };
    for d in diags.iter_mut() {
        d.span = match d.code {
            "text::invalid-bytes" => at(&|_, c| c == '\u{FFFD}'),
            "text::weak-encoding-guess" | "text::encoding" => at(&|_, c| !c.is_ascii()),
            "text::not-reencodable" => {
                let mut pos = 0usize;
                let mut found = None;
                for (i, c) in text.char_indices() {
                    let mut buf = [0u8; 4];
                    let enc_c = encode(c.encode_utf8(&mut buf), enc).unwrap_or_default();
                    if bytes.get(pos..pos + enc_c.len()) != Some(&enc_c[..]) {
                        found = Some(Span::new(file, i, i + c.len_utf8()));
                        break;
                    }
                    pos += enc_c.len();
                }
                found
            }
            _ => d.span,
        };
    }
}

/// Decodes without replacement; returns the text (with U+FFFD at bad bytes) and the first bad offset.
fn decode_lossless(enc: Encoding, bytes: &[u8]) -> (String, Option<usize>) {
    let e = enc.encoding_rs();
    if let Some(cow) = e.decode_without_bom_handling_and_without_replacement(bytes) {
        return (cow.into_owned(), None);
    }
    let mut decoder = e.new_decoder_without_bom_handling();
    let mut out = String::with_capacity(bytes.len() * 2);
    let mut first_bad = None;
    let mut read_total = 0;
    loop {
        out.reserve(bytes.len() * 3 + 16);
        let (res, read) =
            decoder.decode_to_string_without_replacement(&bytes[read_total..], &mut out, true);
        read_total += read;
        match res {
            encoding_rs::DecoderResult::InputEmpty => break,
            encoding_rs::DecoderResult::OutputFull => continue,
            encoding_rs::DecoderResult::Malformed(len, _) => {
                first_bad.get_or_insert(read_total.saturating_sub(len as usize));
                out.push('\u{FFFD}');
            }
        }
    }
    (out, first_bad)
}

/// An error from [`encode`]: a character the target encoding cannot represent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unmappable {
    /// The character.
    pub ch: char,
    /// Its byte offset in the text.
    pub offset: usize,
    /// The target encoding.
    pub encoding: Encoding,
}

impl fmt::Display for Unmappable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "character {:?} (U+{:04X}) at byte {} cannot be written in {}",
            self.ch, self.ch as u32, self.offset, self.encoding
        )
    }
}

impl std::error::Error for Unmappable {}

/// Encodes `text` in `enc` with no replacement: an unmappable character is an error, never an
/// HTML numeric reference (encoding_rs's convenience `encode` would silently write `&#...;`).
pub fn encode(text: &str, enc: Encoding) -> Result<Vec<u8>, Unmappable> {
    if enc == Encoding::Utf8 || text.is_ascii() {
        return Ok(text.as_bytes().to_vec());
    }
    let mut encoder = enc.encoding_rs().new_encoder();
    let mut out = Vec::with_capacity(text.len() + 16);
    let mut read_total = 0;
    loop {
        let needed = encoder
            .max_buffer_length_from_utf8_without_replacement(text.len() - read_total)
            .unwrap_or(text.len() * 4 + 16);
        out.reserve(needed);
        let (res, read) = encoder.encode_from_utf8_to_vec_without_replacement(
            &text[read_total..],
            &mut out,
            true,
        );
        read_total += read;
        match res {
            encoding_rs::EncoderResult::InputEmpty => return Ok(out),
            encoding_rs::EncoderResult::OutputFull => continue,
            encoding_rs::EncoderResult::Unmappable(ch) => {
                return Err(Unmappable {
                    ch,
                    offset: read_total - ch.len_utf8(),
                    encoding: enc,
                });
            }
        }
    }
}

/// The legacy-encoding decision, with the evidence behind it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegacyGuess {
    /// The chosen encoding.
    pub encoding: Encoding,
    /// How sure.
    pub confidence: Confidence,
    /// The second-best candidate that would give different text, if any.
    pub runner_up: Option<Encoding>,
    /// A short explanation.
    pub reason: String,
}

const LEGACY: [Encoding; 3] = [
    Encoding::ShiftJis,
    Encoding::Windows1251,
    Encoding::Windows1252,
];

/// Chooses among Shift_JIS, Windows-1251 and Windows-1252 for bytes that are not valid UTF-8.
pub fn guess_legacy(bytes: &[u8]) -> LegacyGuess {
    let evidence = non_ascii_lines(bytes);
    let bytes = evidence.as_slice();
    let non_ascii = bytes.iter().filter(|b| **b >= 0x80).count();
    let mut scored: Vec<(Encoding, i64, String)> = Vec::new();
    for enc in LEGACY {
        if let Some(text) = enc
            .encoding_rs()
            .decode_without_bom_handling_and_without_replacement(bytes)
        {
            let score = match enc {
                Encoding::ShiftJis => score_shift_jis(&text),
                Encoding::Windows1251 => score_cyrillic(&text),
                _ => score_latin(&text),
            };
            scored.push((enc, score, text.into_owned()));
        }
    }
    // chardetng, restricted to our candidates, breaks ties and raises confidence.
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    det.feed(bytes, true);
    let cd = det.guess(None, chardetng::Utf8Detection::Deny);
    let chardet = LEGACY.into_iter().find(|e| e.encoding_rs() == cd);

    scored.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then_with(|| (Some(b.0) == chardet).cmp(&(Some(a.0) == chardet)))
            // last resort: the most common legacy encoding in real collections
            .then_with(|| (b.0 == Encoding::Windows1252).cmp(&(a.0 == Encoding::Windows1252)))
    });
    let Some((best, best_score, best_text)) = scored.first().cloned() else {
        // Windows-1251/1252 decode every byte sequence, so this cannot happen; stay total anyway.
        return LegacyGuess {
            encoding: Encoding::Windows1252,
            confidence: Confidence::Low,
            runner_up: None,
            reason: "no candidate decodes the bytes".into(),
        };
    };
    // Candidates that are plausible and would give different text.
    let rival = scored
        .iter()
        .skip(1)
        .find(|(_, s, t)| *t != best_text && *s > i64::MIN / 2);
    let (confidence, runner_up, why) = match rival {
        None => (
            Confidence::Certain,
            None,
            "every candidate gives the same text".to_string(),
        ),
        Some((enc, score, _)) => {
            let margin = best_score - score;
            let agree = chardet == Some(best);
            let conf = if margin >= 4 || (agree && margin >= 1) || (agree && non_ascii >= 8) {
                Confidence::High
            } else {
                Confidence::Low
            };
            (
                conf,
                Some(*enc),
                format!(
                    "score {best_score} vs {score} for {enc}, chardetng says {}, {non_ascii} non-ASCII bytes",
                    cd.name()
                ),
            )
        }
    };
    LegacyGuess {
        encoding: best,
        confidence,
        runner_up,
        reason: why,
    }
}

/// The lines of `bytes` (each with its line break) that hold a byte ≥ 0x80. They are all the
/// evidence there is: a line of ASCII decodes the same in every candidate (no Shift_JIS, 1251
/// or 1252 byte sequence continues over a line feed), and every score looks at non-ASCII
/// characters and their neighbours only.
fn non_ascii_lines(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        if !line.is_ascii() {
            out.extend_from_slice(line);
        }
    }
    out
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3000..=0x30FF   // CJK punctuation, hiragana, katakana
        | 0x4E00..=0x9FFF // unified ideographs
        | 0x3400..=0x4DBF
        | 0xF900..=0xFAFF
        | 0xFF01..=0xFF5E // full-width ASCII forms
        | 0x2460..=0x24FF // circled numbers
        | 0x25A0..=0x25FF // shapes
        | 0x2190..=0x21FF) // arrows
}

/// Shift_JIS: Japanese text decodes to kanji and kana, usually in runs; half-width katakana,
/// private-use characters and isolated symbols suggest the bytes were really something else.
fn score_shift_jis(text: &str) -> i64 {
    let mut score = 0i64;
    let mut any = false;
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii() {
            i += 1;
            continue;
        }
        any = true;
        if (0xFF61..=0xFF9F).contains(&(c as u32)) || (0xE000..=0xF8FF).contains(&(c as u32)) {
            return i64::MIN / 2; // half-width katakana or private use: not a Japanese text file
        }
        if !is_cjk(c) {
            score -= 3;
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && is_cjk(chars[i]) {
            i += 1;
        }
        let run = (i - start) as i64;
        let prev = start.checked_sub(1).map(|j| chars[j]).unwrap_or(' ');
        let next = chars.get(i).copied().unwrap_or(' ');
        let glued = prev.is_ascii_alphanumeric() || next.is_ascii_alphanumeric();
        score += match (run, glued) {
            (1, true) => -1, // `It’s` read as Shift_JIS gives one kanji inside an English word
            (1, false) => 1,
            _ => run * 2,
        };
    }
    if any { score } else { 0 }
}

fn is_cyrillic_letter(c: char) -> bool {
    matches!(c as u32, 0x0410..=0x044F | 0x0401 | 0x0451)
}

/// Windows-1251: Russian words are runs of Cyrillic letters bounded by non-letters; a Cyrillic
/// letter glued to ASCII letters (`Fuhyт`) is a sign of a Western text read as Cyrillic.
fn score_cyrillic(text: &str) -> i64 {
    word_score(text, is_cyrillic_letter, |c| {
        matches!(
            c,
            '«' | '»' | '°' | '№' | '—' | '–' | '’' | '‘' | '“' | '”' | '…' | '\u{A0}' | '•'
        )
    })
}

fn is_latin_letter(c: char) -> bool {
    matches!(c as u32, 0x00C0..=0x00FF if c != '×' && c != '÷')
        || matches!(c, 'Š' | 'š' | 'Ž' | 'ž' | 'Œ' | 'œ' | 'Ÿ')
}

/// Windows-1252: accented letters sit inside ASCII words (`Fuhyô`, `café`); punctuation such as
/// `’ — ° NBSP` is neutral.
fn score_latin(text: &str) -> i64 {
    let mut score = 0i64;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii() {
            continue;
        }
        if (0x80..=0x9F).contains(&(c as u32)) {
            return i64::MIN / 2; // bytes undefined in Windows-1252
        }
        let prev = i.checked_sub(1).map(|j| chars[j]).unwrap_or(' ');
        let next = chars.get(i + 1).copied().unwrap_or(' ');
        if is_latin_letter(c) {
            let glued_ascii = prev.is_ascii_alphabetic() || next.is_ascii_alphabetic();
            let glued_high = (!prev.is_ascii() && !prev.is_whitespace())
                || (!next.is_ascii() && !next.is_whitespace());
            if glued_ascii && !glued_high {
                score += 2;
            } else if glued_high {
                score -= 2;
            } else {
                score -= 1;
            }
        } else if matches!(
            c,
            '’' | '‘'
                | '“'
                | '”'
                | '—'
                | '–'
                | '…'
                | '°'
                | '\u{A0}'
                | '•'
                | '«'
                | '»'
                | '©'
                | '®'
                | '™'
                | '·'
                | '×'
                | '½'
                | '¼'
                | '¾'
                | '²'
                | '³'
                | '§'
                | '€'
                | '£'
        ) {
            // neutral punctuation (an apostrophe inside a word counts for the Latin reading),
            // unless it comes in a run of other high characters
            if matches!(c, '’' | '‘') && prev.is_ascii_alphabetic() && next.is_ascii_alphabetic()
            {
                score += 2;
            } else if !prev.is_ascii() && prev != c && prev != '\u{A0}' && !prev.is_whitespace() {
                score -= 1;
            }
        } else {
            score -= 2;
        }
    }
    score
}

fn word_score(text: &str, letter: impl Fn(char) -> bool, neutral: impl Fn(char) -> bool) -> i64 {
    let mut score = 0i64;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii() {
            continue;
        }
        let prev = i.checked_sub(1).map(|j| chars[j]).unwrap_or(' ');
        let next = chars.get(i + 1).copied().unwrap_or(' ');
        if letter(c) {
            if prev.is_ascii_alphabetic() || next.is_ascii_alphabetic() {
                score -= 2;
            } else if letter(prev) || letter(next) {
                score += 2;
            } else {
                score -= 1; // a lone Cyrillic letter between spaces or punctuation
            }
        } else if !neutral(c) {
            score -= 2;
        }
    }
    score
}

/// `s` escaped for XML, HTML and SVG text and attribute values: `&`, `<`, `>`, `"` and `'` as
/// entities, and control characters other than tab and line breaks dropped (XML 1.0 cannot
/// hold them).
pub fn xml_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + s.len() / 8);
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c if c.is_control() && !matches!(c, '\n' | '\t' | '\r') => {}
            c => o.push(c),
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guesses_read_only_the_lines_with_non_ascii_bytes() {
        let bytes = b"(title \"Chess\")\r\n(piece caf\xe9 x)\r\nplain\n\x8a\xbf";
        assert_eq!(
            non_ascii_lines(bytes),
            b"(piece caf\xe9 x)\r\n\x8a\xbf".to_vec()
        );
        assert_eq!(non_ascii_lines(b"all ascii\n"), Vec::<u8>::new());
    }

    fn roundtrip(text: &str, enc: Encoding) -> Decoded {
        let bytes = encode(text, enc).expect("encodable");
        let (d, diags) = decode(&bytes, None, FileId(0));
        assert_eq!(d.text, text, "decoded text for {enc}: {diags:?}");
        assert_eq!(encode(&d.text, d.encoding).unwrap(), bytes);
        d
    }

    #[test]
    fn shift_jis_with_few_kanji_is_recognised() {
        let d = roundtrip(
            "(game (title \"Tai\")\r\n ; 泰将棋\r\n (piece (name King) (help \"玉将\")))\r\n",
            Encoding::ShiftJis,
        );
        assert_eq!(d.encoding, Encoding::ShiftJis);
        assert_ne!(d.confidence, Confidence::Low);
        assert_eq!(d.line_endings, LineEndings::Crlf);
    }

    #[test]
    fn single_two_kanji_name_in_shift_jis() {
        let d = roundtrip("(piece (name Gold) (help \"金将\"))\n", Encoding::ShiftJis);
        assert_eq!(d.encoding, Encoding::ShiftJis);
    }

    #[test]
    fn windows_1251_russian_comment() {
        let d = roundtrip(
            "; доска 9x9\n(game (title \"x\")) ; ряд\n",
            Encoding::Windows1251,
        );
        assert_eq!(d.encoding, Encoding::Windows1251);
        assert_ne!(d.confidence, Confidence::Low);
    }

    #[test]
    fn windows_1252_apostrophe_s_is_not_shift_jis() {
        // 0x92 0x73 (’s) is also a valid Shift_JIS double-byte character.
        let d = roundtrip(
            "(description \"It’s the King’s move\")\n",
            Encoding::Windows1252,
        );
        assert_eq!(d.encoding, Encoding::Windows1252);
    }

    #[test]
    fn windows_1252_romanised_japanese() {
        let d = roundtrip(
            "(help \"Fuhyô: moves one step forward; Ginshô\")\n",
            Encoding::Windows1252,
        );
        assert_eq!(d.encoding, Encoding::Windows1252);
    }

    #[test]
    fn degree_sign_alone_is_certain_because_candidates_agree() {
        let d = roundtrip("(description \"turn 90° left\")\n", Encoding::Windows1252);
        assert_eq!(d.text, "(description \"turn 90° left\")\n");
        assert_eq!(d.confidence, Confidence::Certain);
    }

    #[test]
    fn override_wins_and_bad_bytes_are_an_error() {
        let bytes = encode("; доска\n", Encoding::Windows1251).unwrap();
        let (d, diags) = decode(&bytes, Some(Encoding::Windows1252), FileId(0));
        assert_eq!(d.encoding, Encoding::Windows1252);
        assert!(diags.is_empty());
        let (_, diags) = decode(b"\x82\xA0\xFF", Some(Encoding::ShiftJis), FileId(0));
        assert_eq!(diags[0].code, "text::invalid-bytes");
    }

    #[test]
    fn bom_and_utf8_first() {
        let (d, _) = decode("\u{FEFF}(title \"駒\")".as_bytes(), None, FileId(0));
        assert!(d.bom);
        assert_eq!(d.text, "(title \"駒\")");
        let (d, _) = decode("(title \"駒\")".as_bytes(), None, FileId(0));
        assert_eq!(d.encoding, Encoding::Utf8);
        assert_eq!(d.confidence, Confidence::Certain);
    }

    #[test]
    fn unmappable_character_is_an_error_not_a_numeric_reference() {
        let e = encode("x 𠵇", Encoding::ShiftJis).unwrap_err();
        assert_eq!(e.ch, '𠵇');
        assert_eq!(e.offset, 2);
    }

    #[test]
    fn line_ending_styles() {
        assert_eq!(LineEndings::detect("a\nb\n"), LineEndings::Lf);
        assert_eq!(LineEndings::detect("a\r\nb"), LineEndings::Crlf);
        assert_eq!(LineEndings::detect("a\r\nb\n"), LineEndings::Mixed);
        assert_eq!(LineEndings::detect("ab"), LineEndings::None);
    }

    #[test]
    fn encoding_names() {
        for e in Encoding::ALL {
            assert_eq!(Encoding::from_name(e.name()), Some(e));
        }
        assert_eq!(Encoding::from_name("CP932"), Some(Encoding::ShiftJis));
        assert_eq!(Encoding::from_name("klingon"), None);
    }
}
