//! Diagnostics: one type for every reader and writer, rendered with file:line:col, source line and caret.
//!
//! Spans stay byte ranges into the decoded text of one source file until a diagnostic is shown
//! (toml_edit practice). [`Diagnostic::render`] turns them into `file:line:col` plus the source
//! line and a caret; [`Diagnostic::to_json`] gives the same facts to machines.

use serde::Serialize;
use std::fmt::Write as _;
use std::sync::Arc;

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Information the user may want (for example which encoding was chosen).
    Note,
    /// The input was read, but something in it is suspicious or was not fully understood.
    Warning,
    /// The input could not be read as written; a result may still be produced by recovery.
    Error,
}

impl Severity {
    /// The lower-case word used in rendered output.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// Diagnostic code: a read stopped by [`Interrupt`] (Ctrl-C or SIGTERM); nothing of the input is kept.
pub const CODE_INTERRUPTED: &str = "read::interrupted";

/// A request to stop long work, raised from outside: the CLI shares its one flag, raised by
/// Ctrl-C or SIGTERM, with the readers (which poll it between forms, every few thousand
/// expanded nodes and before lowering each ZRF entry, and then refuse the input with [`CODE_INTERRUPTED`]) and the engine. The
/// default is never raised.
#[derive(Debug, Clone, Default)]
pub struct Interrupt(Option<Arc<std::sync::atomic::AtomicBool>>);

impl Interrupt {
    /// A request raised when `flag` is.
    pub fn new(flag: Arc<std::sync::atomic::AtomicBool>) -> Interrupt {
        Interrupt(Some(flag))
    }

    /// Whether the stop was requested.
    pub fn raised(&self) -> bool {
        self.0
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// The error of an input whose reading stopped at `span` because the stop was requested.
    pub fn error(span: Span) -> Diagnostic {
        Diagnostic::error(
            CODE_INTERRUPTED,
            "interrupted (Ctrl-C or SIGTERM): the input is not read to its end and nothing of it is kept",
            span,
        )
    }
}

/// Identifies one source text (a file, an included file, or standard input).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A byte range in one source file's decoded text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The file the range belongs to.
    pub file: FileId,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span in `file` covering `start..end`.
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }
    /// The smallest span covering both (they must be in the same file; otherwise `self`).
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// A source text registered for rendering diagnostics.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Name shown to the user (usually the path as given on the command line).
    pub name: String,
    /// Decoded text.
    pub text: Arc<str>,
    line_starts: Vec<u32>,
}

impl SourceFile {
    /// Registers `text` under `name`.
    pub fn new(name: impl Into<String>, text: impl Into<Arc<str>>) -> SourceFile {
        let text: Arc<str> = text.into();
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        SourceFile {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// 1-based line and 1-based column (counted in characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let offset = offset.min(self.text.len() as u32);
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line] as usize;
        let mut end = offset as usize;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let col = self.text[start..end].chars().count() + 1;
        (line + 1, col)
    }

    /// The text of a 1-based line, without its line terminator.
    pub fn line_text(&self, line: usize) -> &str {
        let start = self.line_starts[line - 1] as usize;
        let end = self
            .line_starts
            .get(line)
            .map(|&e| e as usize)
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }
}

/// Every source text a run has seen, indexed by [`FileId`].
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> SourceMap {
        SourceMap::default()
    }
    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Arc<str>>) -> FileId {
        self.files.push(SourceFile::new(name, text));
        FileId(self.files.len() as u32 - 1)
    }
    /// The file behind an id.
    pub fn get(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize)
    }
    /// Number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }
    /// True when no file was added.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// A located message with a stable code such as `zrf::unbalanced-paren`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// How bad it is.
    pub severity: Severity,
    /// Stable machine-readable code, `area::kebab-case-name`.
    pub code: &'static str,
    /// One sentence for a person, saying what was found and what was expected.
    pub message: String,
    /// Where; `None` for facts about a whole file (encoding, I/O).
    pub span: Option<Span>,
    /// Further located remarks (for example "macro defined here", "opened here").
    pub notes: Vec<(Option<Span>, String)>,
}

impl Diagnostic {
    /// A new diagnostic.
    pub fn new(
        severity: Severity,
        code: &'static str,
        message: impl Into<String>,
        span: Option<Span>,
    ) -> Self {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            span,
            notes: Vec::new(),
        }
    }
    /// An error at `span`.
    pub fn error(code: &'static str, message: impl Into<String>, span: Span) -> Self {
        Self::new(Severity::Error, code, message, Some(span))
    }
    /// A warning at `span`.
    pub fn warning(code: &'static str, message: impl Into<String>, span: Span) -> Self {
        Self::new(Severity::Warning, code, message, Some(span))
    }
    /// Adds a located note.
    pub fn with_note(mut self, span: Option<Span>, note: impl Into<String>) -> Self {
        self.notes.push((span, note.into()));
        self
    }

    /// `file:line:col` of the primary span, if any.
    pub fn location(&self, sources: &SourceMap) -> Option<(String, usize, usize)> {
        let span = self.span?;
        let file = sources.get(span.file)?;
        let (l, c) = file.line_col(span.start);
        Some((file.name.clone(), l, c))
    }

    /// Renders like rustc: `error[code]: message`, ` --> file:line:col`, the source line and a caret.
    pub fn render(&self, sources: &SourceMap, fallback_file: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}[{}]: {}",
            self.severity.as_str(),
            self.code,
            self.message
        );
        match self.span.and_then(|s| sources.get(s.file).map(|f| (s, f))) {
            Some((span, file)) => render_snippet(&mut out, file, span, None),
            None => {
                let _ = writeln!(out, "  --> {fallback_file}");
            }
        }
        for (span, note) in &self.notes {
            match span.and_then(|s| sources.get(s.file).map(|f| (s, f))) {
                Some((span, file)) => render_snippet(&mut out, file, span, Some(note)),
                None => {
                    let _ = writeln!(out, "   = note: {note}");
                }
            }
        }
        out
    }

    /// The same facts as [`Diagnostic::render`], as a JSON object.
    pub fn to_json(&self, sources: &SourceMap, fallback_file: &str) -> serde_json::Value {
        let loc = |span: Option<Span>| -> serde_json::Value {
            match span.and_then(|s| sources.get(s.file).map(|f| (s, f))) {
                Some((s, f)) => {
                    let (line, column) = f.line_col(s.start);
                    let (end_line, end_column) = f.line_col(s.end);
                    serde_json::json!({
                        "file": f.name, "line": line, "column": column,
                        "end_line": end_line, "end_column": end_column,
                        "byte_start": s.start, "byte_end": s.end,
                    })
                }
                None => serde_json::json!({ "file": fallback_file }),
            }
        };
        serde_json::json!({
            "severity": self.severity.as_str(),
            "code": self.code,
            "message": self.message,
            "location": loc(self.span),
            "notes": self.notes.iter().map(|(s, n)| serde_json::json!({"message": n, "location": loc(*s)})).collect::<Vec<_>>(),
        })
    }
}

/// Longest part of a source line shown under a diagnostic, in characters.
const MAX_SHOWN_CHARS: usize = 200;
/// Characters shown before the span when a long line is cut.
const SHOWN_BEFORE: usize = 60;

fn render_snippet(out: &mut String, file: &SourceFile, span: Span, label: Option<&str>) {
    let (line, col) = file.line_col(span.start);
    let (end_line, end_col) = file.line_col(span.end);
    let gutter = line.to_string().len();
    let pad = " ".repeat(gutter);
    match label {
        None => {
            let _ = writeln!(out, "{pad}--> {}:{line}:{col}", file.name);
        }
        Some(_) => {
            let _ = writeln!(out, "{pad}::: {}:{line}:{col}", file.name);
        }
    }
    let full = file.line_text(line);
    // A long line (minified or generated input) is shown as a window around the span, so a
    // diagnostic stays readable and its size does not grow with the line.
    let chars = full.chars().count();
    let skip = if chars > MAX_SHOWN_CHARS {
        (col - 1).min(chars).saturating_sub(SHOWN_BEFORE)
    } else {
        0
    };
    let text: String = full.chars().skip(skip).take(MAX_SHOWN_CHARS).collect();
    let (before, after) = (
        if skip > 0 { "…" } else { "" },
        if skip + MAX_SHOWN_CHARS < chars {
            "…"
        } else {
            ""
        },
    );
    let _ = writeln!(out, "{pad} |");
    let _ = writeln!(out, "{line} | {before}{}{after}", text.replace('\t', " "));
    let col = col - skip;
    let width = if end_line == line {
        end_col.saturating_sub(skip).saturating_sub(col).max(1)
    } else {
        text.chars().count().saturating_sub(col - 1).max(1)
    };
    let lead: String = before
        .chars()
        .chain(text.chars().take(col - 1))
        .map(|c| if is_wide(c) { "  " } else { " " })
        .collect();
    let carets: String = text
        .chars()
        .skip(col - 1)
        .take(width)
        .map(|c| if is_wide(c) { "^^" } else { "^" })
        .collect();
    let carets = if carets.is_empty() {
        "^".to_string()
    } else {
        carets
    };
    let _ = writeln!(
        out,
        "{pad} | {lead}{carets}{}",
        label.map(|l| format!(" {l}")).unwrap_or_default()
    );
}

/// East Asian wide characters take two terminal columns; keep carets under the right character.
fn is_wide(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6 | 0x20000..=0x3FFFD)
}

/// How many diagnostics of one code and severity a reader reports per input before the rest are
/// summarised by [`cap_repeats`]. No file of the shared corpus comes near it: its largest count
/// of one code in one file was 12 (`zrf::macro-arity` in `pasang.zrf`) when the cap was set.
pub const MAX_PER_CODE: usize = 100;

/// Keeps the first `per_code` diagnostics of each code (and severity), in order, and replaces the
/// rest of them by one diagnostic of that code and severity, placed where the first dropped one
/// was and located there, saying how many were not listed. Errors stay errors, so a caller's
/// exit status does not change; only the counts of repeated diagnostics shrink.
///
/// Not idempotent: apply it once to a list of diagnostics (a second pass would count the
/// summary as one diagnostic).
pub fn cap_repeats(diags: &mut Vec<Diagnostic>, per_code: usize) {
    if diags.len() <= per_code {
        return;
    }
    // (code, severity) → (seen so far, index in `kept` of the summary, once there is one).
    let mut seen: std::collections::BTreeMap<(&'static str, Severity), (usize, Option<usize>)> =
        std::collections::BTreeMap::new();
    let mut kept = Vec::with_capacity(diags.len().min(per_code * 8));
    for d in diags.drain(..) {
        let entry = seen.entry((d.code, d.severity)).or_insert((0, None));
        entry.0 += 1;
        if entry.0 <= per_code {
            kept.push(d);
        } else if entry.1.is_none() {
            entry.1 = Some(kept.len());
            kept.push(d);
        }
    }
    for ((code, severity), (count, at)) in seen {
        let Some(at) = at else { continue };
        let hidden = count - per_code;
        let span = kept[at].span;
        kept[at] = Diagnostic::new(
            severity,
            code,
            format!(
                "{hidden} more {}{} with code `{code}` from here on are not listed (only the first {per_code} of each code are shown)",
                severity.as_str(),
                if hidden == 1 { "" } else { "s" }
            ),
            span,
        );
    }
    *diags = kept;
}

/// Diagnostics collected while processing one input, with helpers for counting.
#[derive(Debug, Clone, Default)]
pub struct Diagnostics {
    /// The collected diagnostics, in the order they were found.
    pub items: Vec<Diagnostic>,
}

impl Diagnostics {
    /// Adds one.
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }
    /// Number of errors.
    pub fn errors(&self) -> usize {
        self.count(Severity::Error)
    }
    /// Number of warnings.
    pub fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }
    /// Number of diagnostics of one severity.
    pub fn count(&self, s: Severity) -> usize {
        self.items.iter().filter(|d| d.severity == s).count()
    }
    /// True when any error was reported.
    pub fn has_errors(&self) -> bool {
        self.errors() > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters_after_multibyte_text() {
        let f = SourceFile::new("t", "ab\n\"駒\" x\r\ny");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        // byte 8 is 'x' after `"駒" ` (1 + 3 + 1 + 1 bytes)
        assert_eq!(f.line_col(9), (2, 5));
        assert_eq!(f.line_text(2), "\"駒\" x");
        assert_eq!(f.line_col(12), (3, 1));
    }

    #[test]
    fn render_points_at_line_and_column_with_caret() {
        let mut sm = SourceMap::new();
        let id = sm.add("game.zrf", "(game\n  (title \"x\")\n  )) \n");
        let d = Diagnostic::error(
            "zrf::unbalanced-paren",
            "unexpected `)`",
            Span::new(id, 23, 24),
        );
        let r = d.render(&sm, "game.zrf");
        assert!(r.starts_with("error[zrf::unbalanced-paren]: unexpected `)`\n"));
        assert!(r.contains("--> game.zrf:3:4\n"), "{r}");
        assert!(r.contains("3 |   )) \n"), "{r}");
        assert!(r.contains("  |    ^\n"), "{r}");
        let j = d.to_json(&sm, "game.zrf");
        assert_eq!(j["location"]["line"], 3);
        assert_eq!(j["location"]["column"], 4);
        assert_eq!(j["code"], "zrf::unbalanced-paren");
    }

    #[test]
    fn cap_repeats_keeps_the_first_of_each_code_in_order_and_counts_the_rest() {
        let at = |i: usize| Some(Span::new(FileId(0), i, i + 1));
        let mut diags = Vec::new();
        for i in 0..10 {
            diags.push(Diagnostic::new(
                Severity::Warning,
                "t::w",
                format!("w{i}"),
                at(i),
            ));
            if i % 2 == 0 {
                diags.push(Diagnostic::new(
                    Severity::Error,
                    "t::e",
                    format!("e{i}"),
                    at(100 + i),
                ));
            }
        }
        diags.push(Diagnostic::new(Severity::Note, "t::once", "n", None));
        cap_repeats(&mut diags, 3);
        let shown: Vec<(Severity, &str, &str)> = diags
            .iter()
            .map(|d| (d.severity, d.code, d.message.as_str()))
            .collect();
        // Order of what is kept is the input order; each summary sits where the first dropped
        // diagnostic of its code was, keeps its severity and location, and counts the rest.
        let w = Severity::Warning;
        let e = Severity::Error;
        assert_eq!(shown.len(), 3 + 1 + 3 + 1 + 1, "{shown:#?}");
        assert_eq!(
            &shown[..5],
            &[
                (w, "t::w", "w0"),
                (e, "t::e", "e0"),
                (w, "t::w", "w1"),
                (w, "t::w", "w2"),
                (e, "t::e", "e2"),
            ]
        );
        assert_eq!((shown[5].0, shown[5].1), (w, "t::w"));
        assert!(
            shown[5].2.starts_with("7 more warnings with code `t::w`"),
            "{}",
            shown[5].2
        );
        assert_eq!(diags[5].span, at(3));
        assert_eq!(shown[6], (e, "t::e", "e4"));
        assert_eq!((shown[7].0, shown[7].1), (e, "t::e"));
        assert!(
            shown[7].2.starts_with("2 more errors with code `t::e`"),
            "{}",
            shown[7].2
        );
        assert_eq!(diags[7].span, at(106));
        assert_eq!(shown[8], (Severity::Note, "t::once", "n"));
        assert_eq!(diags.iter().filter(|d| d.severity == e).count(), 4);

        // At or under the cap nothing changes.
        let before: Vec<Diagnostic> = (0..3)
            .map(|i| Diagnostic::new(w, "t::w", format!("w{i}"), at(i)))
            .collect();
        let mut same = before.clone();
        cap_repeats(&mut same, 3);
        assert_eq!(same, before);
    }

    #[test]
    fn long_lines_are_shown_as_a_window_around_the_span() {
        let mut sm = SourceMap::new();
        let line = format!("{}X{}", "a".repeat(500_000), "b".repeat(500_000));
        let id = sm.add("long.zrf", line.as_str());
        let d = Diagnostic::error("zrf::x", "here", Span::new(id, 500_000, 500_001));
        let r = d.render(&sm, "long.zrf");
        assert!(r.contains("--> long.zrf:1:500001"), "{r}");
        assert!(r.len() < 1000, "{} bytes", r.len());
        let shown = r.lines().find(|l| l.starts_with("1 | ")).unwrap();
        let carets = r.lines().find(|l| l.contains('^')).unwrap();
        assert!(
            shown.starts_with("1 | …") && shown.ends_with('…'),
            "{shown}"
        );
        // The caret sits under the X.
        let col = |s: &str, c: char| s.chars().position(|x| x == c).unwrap();
        assert_eq!(col(shown, 'X'), col(carets, '^'), "{r}");
    }
}
