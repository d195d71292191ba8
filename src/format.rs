//! The format registry: which formats exist, how to recognise them, and one `read`/`write` for each.
//!
//! Adding a format means one reader or writer module and one arm in each `match` here. A
//! format may be read only (`LudiiEnglish`: `write` refuses it); Fairy-Stockfish's
//! `variants.ini` (`Fsf`) is read as a subset (`fsf::read`).

use crate::diag::{self, Diagnostic, FileId, Severity, SourceMap};
use crate::spec::{self, Document};
use crate::text::{self, Encoding};
use crate::zrf::{self, IncludeLoader};
use std::collections::BTreeMap;

/// A file format zogkit knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// Zillions of Games rule file.
    Zrf,
    /// The portable YAML game spec.
    Yaml,
    /// A Chessembly script (one piece's movement).
    Chessembly,
    /// A Ludii `.lud` game description.
    Lud,
    /// The English rules text Ludii generates (read only).
    LudiiEnglish,
    /// A Fairy-Stockfish `variants.ini` (write only).
    Fsf,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 6] = [
        Format::Zrf,
        Format::Yaml,
        Format::Chessembly,
        Format::Lud,
        Format::LudiiEnglish,
        Format::Fsf,
    ];

    /// The name used on the command line (`--from`, `--to`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Zrf => "zrf",
            Format::Yaml => "yaml",
            Format::Chessembly => "chessembly",
            Format::Lud => "lud",
            Format::LudiiEnglish => "ludii-english",
            Format::Fsf => "fsf",
        }
    }
    /// Parses a command-line name.
    pub fn from_name(s: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s.to_ascii_lowercase())
    }
    /// The extension written for outputs in this format.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Zrf => "zrf",
            Format::Yaml => "yaml",
            Format::Chessembly => "csm",
            Format::Lud => "lud",
            Format::LudiiEnglish => "txt",
            Format::Fsf => "ini",
        }
    }
    /// The format of a file name, by extension.
    pub fn of_path(name: &str) -> Option<Format> {
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "zrf" => Some(Format::Zrf),
            "yaml" | "yml" => Some(Format::Yaml),
            "csm" => Some(Format::Chessembly),
            "lud" => Some(Format::Lud),
            "ini" => Some(Format::Fsf),
            _ => None,
        }
    }
    /// Whether [`read`] accepts this format.
    pub fn readable(self) -> bool {
        true
    }
    /// Whether [`write()`] produces this format.
    pub fn writable(self) -> bool {
        matches!(
            self,
            Format::Yaml | Format::Chessembly | Format::Lud | Format::Zrf | Format::Fsf
        )
    }
}

/// Options for [`read`]. The limits are named for the command line in [`crate::limits`].
#[derive(Debug, Clone)]
pub struct ReadOptions {
    /// Force a text encoding.
    pub encoding: Option<Encoding>,
    /// ZRF reader options (parser and expansion limits).
    pub zrf: zrf::ReadOptions,
    /// ZRF lowering limits (board size, pieces).
    pub lower: zrf::lower::Limits,
    /// YAML reading limits.
    pub yaml: spec::yaml::ReadLimits,
    /// Steps one Chessembly chain may run when moves are generated.
    pub chessembly_steps: u32,
    /// Most bytes one written file may hold (`--limit output-bytes`); a writer's output over
    /// it, or over what zogkit would read back in that format, is refused ([`output_too_large`]).
    pub max_output_bytes: u64,
    /// The Chessembly dialect to read (`None`: detect MS words, with a note).
    pub chessembly_dialect: Option<crate::chessembly::syntax::Dialect>,
    /// Steps one move block may run in the engine (`perft`, `moves`, `replay`).
    pub engine_steps: u32,
    /// Block runs the engine may make generating one position's moves.
    pub engine_block_runs: u64,
    /// Moves one position may have in the engine.
    pub engine_moves: u64,
    /// Steps the engine may run in one command, all blocks together.
    pub engine_work: u64,
    /// Ludii: option choices and the library of defines.
    pub ludii: crate::ludii::Options,
    /// A stop request (Ctrl-C, SIGTERM) the ZRF and Ludii readers poll: once raised they refuse
    /// the input with `read::interrupted` (the other readers are fast within their limits).
    pub interrupt: crate::diag::Interrupt,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            encoding: None,
            zrf: zrf::ReadOptions::default(),
            lower: zrf::lower::Limits::default(),
            yaml: spec::yaml::ReadLimits::default(),
            chessembly_steps: crate::chessembly::interp::DEFAULT_STEP_LIMIT,
            chessembly_dialect: None,
            max_output_bytes: 64 << 20,
            engine_steps: crate::engine::DEFAULT_STEP_LIMIT,
            engine_block_runs: crate::engine::DEFAULT_BLOCK_RUN_LIMIT,
            engine_moves: crate::engine::DEFAULT_MOVE_LIMIT as u64,
            engine_work: crate::engine::DEFAULT_WORK_LIMIT,
            ludii: crate::ludii::Options::default(),
            interrupt: Default::default(),
        }
    }
}

/// The result of reading one input.
#[derive(Debug, Clone, Default)]
pub struct ReadResult {
    /// The document, unless the input could not be read at all.
    pub document: Option<Document>,
    /// Every diagnostic, in order.
    pub diagnostics: Vec<Diagnostic>,
    /// The texts the diagnostics point into.
    pub sources: SourceMap,
    /// Forms kept verbatim because the spec has no typed form yet, by keyword.
    pub unmodelled: BTreeMap<String, usize>,
    /// How the input was decoded, when it was (for reports).
    pub facts: Option<ReadFacts>,
    /// Where the document's games, pieces and move blocks stand in `sources` (ZRF only; empty
    /// otherwise), for [`write_at`] to locate what a writer loses.
    pub origins: spec::Origins,
}

/// How a text input was decoded and, for ZRF, how large its expansion was.
#[derive(Debug, Clone)]
pub struct ReadFacts {
    /// The encoding used.
    pub encoding: Encoding,
    /// How sure the choice is.
    pub confidence: text::Confidence,
    /// Why this encoding was chosen.
    pub reason: String,
    /// Line-ending style of the decoded text.
    pub line_endings: text::LineEndings,
    /// Nodes of the expanded games and variants (ZRF only).
    pub expanded_nodes: Option<u64>,
}

impl ReadFacts {
    fn of(d: &text::Decoded, expanded_nodes: Option<u64>) -> ReadFacts {
        ReadFacts {
            encoding: d.encoding,
            confidence: d.confidence,
            reason: d.reason.clone(),
            line_endings: d.line_endings,
            expanded_nodes,
        }
    }
}

/// Diagnostic code: an input holds nothing but white space.
pub const CODE_EMPTY: &str = "text::empty";

impl ReadResult {
    /// Number of errors.
    pub fn errors(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }
}

/// Reads `bytes` (shown as `name`) as `format` into a spec document.
///
/// Repeated diagnostics are capped per input with [`diag::cap_repeats`]: [`zrf::read`] caps
/// its own; the rest (ZRF lowering, the other readers) are capped here.
pub fn read(
    format: Format,
    name: &str,
    bytes: &[u8],
    opts: &ReadOptions,
    loader: &mut dyn IncludeLoader,
) -> ReadResult {
    // Size first: a file over the limit is refused by its length, whatever it holds.
    let too_large = match format {
        Format::Yaml => None,
        _ => text::too_large(bytes.len(), opts.zrf.max_input_bytes, FileId(0))
            .map(|d| (d, String::new())),
    };
    if let Some((d, shown)) = too_large.or_else(|| text::not_text(bytes, FileId(0))) {
        let mut sources = SourceMap::new();
        sources.add(name, shown);
        return ReadResult {
            diagnostics: vec![d],
            sources,
            ..Default::default()
        };
    }
    let (mut result, capped) = read_uncapped(format, name, bytes, opts, loader);
    // The ZRF reader applies these while lowering; every other reader's document is held to
    // the same limits here, so no format lets through what another refuses.
    if format != Format::Zrf
        && let Some(doc) = &result.document
        && let Some(d) = over_limits(doc, &opts.lower)
    {
        result.diagnostics.push(d);
        result.document = None;
    }
    // Every reader's document must be writable as the spec's YAML, which its reader could read
    // back: `check` refuses here what `convert --to yaml` could not write.
    if let Some(doc) = &result.document
        && let Some(d) = too_deep(doc, &result.origins)
    {
        result.diagnostics.push(d);
        result.document = None;
    }
    let mut rest = result.diagnostics.split_off(capped);
    diag::cap_repeats(&mut rest, diag::MAX_PER_CODE);
    result.diagnostics.append(&mut rest);
    // A file of only definitions reads (as a spec without games); an empty one is a mistake.
    let no_games = result.document.as_ref().is_none_or(|d| d.games.is_empty());
    if result.errors() == 0 && no_games && bytes.iter().all(u8::is_ascii_whitespace) {
        if result.sources.is_empty() {
            result.sources.add(name, "");
        }
        result.diagnostics.push(Diagnostic::error(
            CODE_EMPTY,
            "the file is empty: it holds no game",
            diag::Span::new(FileId(0), 0, 0),
        ));
    }
    result
}

/// The first of the positions, pieces and move-blocks limits that a document exceeds, as an
/// error (with the code the ZRF reader uses for it) located at the document's start.
fn over_limits(doc: &Document, limits: &zrf::lower::Limits) -> Option<Diagnostic> {
    let at = diag::Span::new(FileId(0), 0, 0);
    for g in &doc.games {
        let too = |code: &'static str, what: String, limit: &str, max: usize| {
            Diagnostic::error(
                code,
                format!(
                    "game {:?} has {what}, more than the limit of {max} (`--limit {limit}=N` changes it); it is not read",
                    g.title
                ),
                at,
            )
        };
        if let Some(b) = g
            .boards
            .iter()
            .find(|b| b.positions.len() > limits.max_positions)
        {
            let n = format!("a board of {} positions", b.positions.len());
            let code = spec::geometry::CODE_BOARD_TOO_LARGE;
            return Some(too(code, n, "positions", limits.max_positions));
        }
        let placed: usize = g.setup.iter().map(|p| p.positions.len()).sum();
        if g.pieces.len().max(placed) > limits.max_pieces {
            let n = format!("{} piece types and places {placed} pieces", g.pieces.len());
            let code = zrf::lower::CODE_TOO_MANY_PIECES;
            return Some(too(code, n, "pieces", limits.max_pieces));
        }
        let blocks: usize = g.pieces.iter().map(|p| p.moves.len() + p.drops.len()).sum();
        if blocks > limits.max_move_blocks {
            let n = format!("{blocks} move and drop blocks");
            let code = zrf::lower::CODE_TOO_MANY_MOVE_BLOCKS;
            return Some(too(code, n, "move-blocks", limits.max_move_blocks));
        }
    }
    None
}

/// An error when a document's collections would nest deeper than the YAML spec allows
/// ([`spec::yaml::MAX_NESTING`]), naming the game and its part (goals, pieces) that do, located
/// at the game's form when known, else at the document's start; the same code as the YAML
/// reader's refusal of such a text.
fn too_deep(doc: &Document, origins: &spec::Origins) -> Option<Diagnostic> {
    use spec::yaml::depth::fits;
    // Around a game: the document's map and the `games` sequence; around its fields, its map.
    let (around_game, around_field) = (2, 3);
    let mut at = None;
    let part = if !fits(&doc.procedures, 1) {
        Some("the shared procedures (`procedures`)".to_string())
    } else {
        let deep = doc.games.iter().position(|g| !fits(g, around_game));
        at = deep.and_then(|i| origins.game(i).at);
        deep.map(|i| &doc.games[i]).map(|g| {
            let what = if !fits(&g.goals, around_field) {
                "goals"
            } else if !fits(&g.pieces, around_field) {
                "pieces"
            } else {
                "content"
            };
            format!("the {what} of game {:?}", g.title)
        })
    };
    let part = part.or_else(|| (!fits(doc, 0)).then(|| "the document".to_string()))?;
    Some(Diagnostic::error(
        spec::yaml::CODE_NESTING_LIMIT,
        format!(
            "{part} nest more than {} collections deep in the spec, which its YAML reader could not read back; it is not read",
            spec::yaml::MAX_NESTING
        ),
        at.unwrap_or(diag::Span::new(FileId(0), 0, 0)),
    ))
}

/// Gives a document read from decoded text its input's own facts ([`spec::Source::of`]: the
/// SHA-256 of the bytes, the encoding detected, the line endings), keeping what its reader found
/// (the format's version statement, the dialect).
fn record_source(
    format: Format,
    doc: &mut Document,
    name: &str,
    bytes: &[u8],
    decoded: &text::Decoded,
) {
    let file_name = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let read = std::mem::take(&mut doc.source);
    doc.source = spec::Source {
        version: read.version,
        dialect: read.dialect,
        ..spec::Source::of(format.name(), file_name, bytes, decoded)
    };
}

/// [`read`] before capping: the result and how many of its leading diagnostics are capped
/// already (those of [`zrf::read`]).
fn read_uncapped(
    format: Format,
    name: &str,
    bytes: &[u8],
    opts: &ReadOptions,
    loader: &mut dyn IncludeLoader,
) -> (ReadResult, usize) {
    let file_name = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let result = match format {
        Format::Fsf => {
            match text_reader(format, name, bytes, opts, |text, id| {
                crate::fsf::read(name, text, id)
            }) {
                Ok(r) => r,
                Err(refused) => return (refused, 0),
            }
        }
        Format::Zrf => {
            let zopts = zrf::ReadOptions {
                encoding: opts.encoding.or(opts.zrf.encoding),
                interrupt: opts.interrupt.clone(),
                ..opts.zrf.clone()
            };
            let f = zrf::read(name, bytes, &zopts, loader);
            let source = spec::Source::of(format.name(), file_name, bytes, &f.decoded);
            let lowered = zrf::lower::lower_with(&f, source, opts.lower);
            let origins = zrf::lower::origins(&f, &lowered.document);
            let capped = f.diagnostics.len();
            let mut diagnostics = f.diagnostics;
            diagnostics.extend(lowered.diagnostics);
            let result = ReadResult {
                document: Some(lowered.document),
                diagnostics,
                sources: f.sources,
                unmodelled: lowered.unmodelled,
                facts: Some(ReadFacts::of(&f.decoded, Some(f.expanded.nodes))),
                origins,
            };
            return (result, capped);
        }
        Format::Lud | Format::LudiiEnglish => {
            let mut origins = spec::Origins::default();
            let read = text_reader(format, name, bytes, opts, |text, id| {
                if format == Format::Lud {
                    let lopts = crate::ludii::Options {
                        interrupt: opts.interrupt.clone(),
                        ..opts.ludii.clone()
                    };
                    let (doc, diags, o) = crate::ludii::read_lud_located(name, text, id, &lopts);
                    origins = o;
                    (doc, diags)
                } else {
                    crate::ludii::read_english(name, text, id)
                }
            });
            match read {
                Ok(r) => ReadResult { origins, ..r },
                Err(refused) => return (refused, 0),
            }
        }
        Format::Chessembly => {
            let (sources, id, decoded, mut diagnostics) = match decode_text(name, bytes, opts) {
                Ok(t) => t,
                Err(refused) => return (refused, 0),
            };
            let lopts = crate::chessembly::lower::LowerOptions {
                piece_name: Some(crate::chessembly::piece::name_of_file(name)),
                dialect: opts.chessembly_dialect,
                ..Default::default()
            };
            let (document, mut ds, origins) =
                crate::chessembly::lower_located(name, &decoded.text, id, &lopts);
            diagnostics.append(&mut ds);
            let document = document.map(|mut d| {
                record_source(format, &mut d, name, bytes, &decoded);
                d
            });
            ReadResult {
                document,
                diagnostics,
                sources,
                unmodelled: BTreeMap::new(),
                facts: Some(ReadFacts::of(&decoded, None)),
                origins,
            }
        }
        Format::Yaml => {
            let mut sources = SourceMap::new();
            let (decoded, mut diagnostics) = text::decode(bytes, opts.encoding, FileId(0));
            let id = sources.add(name, decoded.text.as_str());
            let document = match spec::yaml::read_document(&decoded.text, id, &opts.yaml) {
                Ok(mut doc) => {
                    // Documents of spec 0.2 and older kept a Ludii board as its ludeme.
                    crate::ludii::upgrade_board_ludemes(&mut doc);
                    for issue in spec::check::check(&doc) {
                        diagnostics.push(Diagnostic::new(
                            if issue.is_error() {
                                Severity::Error
                            } else {
                                Severity::Warning
                            },
                            issue.code,
                            format!("games[{}]: {}", issue.game, issue.message),
                            None,
                        ));
                    }
                    Some(doc)
                }
                Err(d) => {
                    diagnostics.push(d);
                    None
                }
            };
            ReadResult {
                document,
                diagnostics,
                sources,
                unmodelled: BTreeMap::new(),
                facts: Some(ReadFacts::of(&decoded, None)),
                origins: spec::Origins::default(),
            }
        }
    };
    (result, 0)
}

/// `bytes`, or nothing plus the [`text::CODE_TOO_LARGE`] error when they exceed the input limit.
/// Decodes `bytes` and runs `reader` on the text: the document with its source facts, or the
/// refusal of undecodable input (`Err`).
#[allow(clippy::result_large_err)]
fn text_reader(
    format: Format,
    name: &str,
    bytes: &[u8],
    opts: &ReadOptions,
    reader: impl FnOnce(&str, FileId) -> (Option<Document>, Vec<Diagnostic>),
) -> Result<ReadResult, ReadResult> {
    let (sources, id, decoded, mut diagnostics) = decode_text(name, bytes, opts)?;
    let (document, mut ds) = reader(&decoded.text, id);
    diagnostics.append(&mut ds);
    let document = document.map(|mut d| {
        record_source(format, &mut d, name, bytes, &decoded);
        d
    });
    Ok(ReadResult {
        document,
        diagnostics,
        sources,
        unmodelled: BTreeMap::new(),
        facts: Some(ReadFacts::of(&decoded, None)),
        origins: spec::Origins::default(),
    })
}

/// Decodes a text input after the size check: its source map, file id, text and diagnostics,
/// or the finished result when the input is refused for its size.
#[allow(clippy::result_large_err)]
fn decode_text(
    name: &str,
    bytes: &[u8],
    opts: &ReadOptions,
) -> Result<(SourceMap, FileId, text::Decoded, Vec<Diagnostic>), ReadResult> {
    let mut sources = SourceMap::new();
    let (bytes, big) = size_checked(bytes, opts);
    let (decoded, mut diagnostics) = text::decode(bytes, opts.encoding, FileId(0));
    diagnostics.extend(big);
    if diagnostics.iter().any(|d| d.code == text::CODE_TOO_LARGE) {
        sources.add(name, "");
        return Err(ReadResult {
            diagnostics,
            sources,
            ..Default::default()
        });
    }
    let id = sources.add(name, decoded.text.as_str());
    Ok((sources, id, decoded, diagnostics))
}

fn size_checked<'a>(bytes: &'a [u8], opts: &ReadOptions) -> (&'a [u8], Option<Diagnostic>) {
    match text::too_large(bytes.len(), opts.zrf.max_input_bytes, FileId(0)) {
        Some(d) => (&[], Some(d)),
        None => (bytes, None),
    }
}

/// Error code: a written file would be larger than [`ReadOptions::max_output_bytes`] or than
/// zogkit reads back in its format.
pub const CODE_OUTPUT_TOO_LARGE: &str = "write::too-large";

/// The error for `len` bytes written in `format` when that is over the output budget: the
/// `output-bytes` limit, or the size zogkit would read back in that format (`yaml-bytes` for
/// YAML, `input-bytes` for the others), whichever is smaller. A file zogkit writes can be read
/// again with the same limits.
pub fn output_too_large(format: Format, len: usize, opts: &ReadOptions) -> Option<Diagnostic> {
    let (read_back, read_name) = match format {
        Format::Yaml => (opts.yaml.max_bytes as u64, "yaml-bytes"),
        _ => (opts.zrf.max_input_bytes as u64, "input-bytes"),
    };
    let (cap, name) = if read_back < opts.max_output_bytes {
        (read_back, read_name)
    } else {
        (opts.max_output_bytes, "output-bytes")
    };
    (len as u64 > cap).then(|| {
        Diagnostic::new(
            Severity::Error,
            CODE_OUTPUT_TOO_LARGE,
            format!(
                "the {} output would be {len} bytes, more than the limit of {cap} (`--limit {name}`); nothing is written",
                format.name()
            ),
            None,
        )
    })
}

/// Writes a document in `format`. Returns the bytes and diagnostics (what could not be
/// expressed), or an error diagnostic when nothing can be written.
///
/// Repeated diagnostics are capped with [`diag::cap_repeats`], as on reading.
pub fn write(format: Format, doc: &Document) -> Result<(Vec<u8>, Vec<Diagnostic>), Diagnostic> {
    write_at(format, doc, &spec::Origins::default())
}

/// [`write()`], with the writers' warnings (ZRF, Chessembly, `.lud`, Fairy-Stockfish) located
/// where what they lose stands in the source file (`origins`, from [`read`] in this run: a move block, else its
/// piece, else the game), so they render against the reader's `sources`.
pub fn write_at(
    format: Format,
    doc: &Document,
    origins: &spec::Origins,
) -> Result<(Vec<u8>, Vec<Diagnostic>), Diagnostic> {
    write_with(format, doc, origins, &WriteOptions::default())
}

/// What a writer may do beyond its defaults.
#[derive(Debug, Clone, Copy, Default)]
pub struct WriteOptions {
    /// Write a port that loses most of the game (`convert --allow-partial`): a Chessembly
    /// script that keeps fewer than half of the game's pieces is a warning, not an error.
    pub allow_partial: bool,
}

/// [`write_at`] with `opts`.
pub fn write_with(
    format: Format,
    doc: &Document,
    origins: &spec::Origins,
    opts: &WriteOptions,
) -> Result<(Vec<u8>, Vec<Diagnostic>), Diagnostic> {
    write_uncapped(format, doc, origins, opts).map(|(bytes, mut diags)| {
        diag::cap_repeats(&mut diags, diag::MAX_PER_CODE);
        (bytes, diags)
    })
}

fn write_uncapped(
    format: Format,
    doc: &Document,
    origins: &spec::Origins,
    opts: &WriteOptions,
) -> Result<(Vec<u8>, Vec<Diagnostic>), Diagnostic> {
    match format {
        Format::Yaml => spec::yaml::write_document(doc)
            .map(|s| (s.into_bytes(), Vec::new()))
            .map_err(|e| {
                Diagnostic::new(
                    Severity::Error,
                    "yaml::write",
                    format!("cannot write YAML: {e}"),
                    None,
                )
            }),
        Format::Chessembly => {
            crate::chessembly::emit::emit_game_with(doc, origins, opts.allow_partial)
        }
        Format::Lud => {
            let (text, diags) = crate::ludii::write_lud_at(doc, origins);
            Ok((text.into_bytes(), diags))
        }
        Format::LudiiEnglish => Err(Diagnostic::new(
            Severity::Error,
            "format::unsupported",
            "zogkit reads Ludii's English descriptions but does not write them",
            None,
        )),
        Format::Zrf => Ok(zrf::emit::emit_bytes_at(doc, origins)),
        Format::Fsf => crate::fsf::write_at(doc, origins).map(|(t, d)| (t.into_bytes(), d)),
    }
}
