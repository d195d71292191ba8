//! Zillions of Games rule files (ZRF): reading (decode → parse → expand) and, later, lowering and emitting.
//!
//! [`read`] is the one entry point for ZRF input. It never fails: it returns whatever it could
//! read plus diagnostics, so a batch run can report every problem of every file.

pub mod emit;
pub mod expand;
pub mod fmt;
pub mod lower;
pub mod strings;

use crate::diag::{Diagnostic, FileId, Severity, SourceMap};
use crate::sexpr::{self, Parsed};
use crate::text::{self, Decoded, Encoding};
pub use expand::{Entry, EntryKind, Expanded, IncludeError, IncludeLoader, NoIncludes};

/// Options for [`read`].
#[derive(Debug, Clone)]
pub struct ReadOptions {
    /// Force this encoding instead of detecting one (`--encoding`).
    pub encoding: Option<Encoding>,
    /// Largest file (the input and each include) read, in bytes; also used by
    /// [`crate::format::read`] for the other non-YAML formats.
    pub max_input_bytes: usize,
    /// Parser limits.
    pub syntax: sexpr::Limits,
    /// Expansion limits.
    pub expand: expand::Limits,
    /// A stop request (Ctrl-C): polled while expanding, which refuses the file once raised.
    pub interrupt: crate::diag::Interrupt,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            encoding: None,
            max_input_bytes: text::MAX_INPUT_BYTES,
            syntax: sexpr::Limits::default(),
            expand: expand::Limits::default(),
            interrupt: Default::default(),
        }
    }
}

/// Everything read from one ZRF file.
#[derive(Debug, Clone)]
pub struct ZrfFile {
    /// Texts of the file and its includes, for rendering diagnostics.
    pub sources: SourceMap,
    /// The root file's id in [`ZrfFile::sources`].
    pub root: FileId,
    /// How the root file was decoded.
    pub decoded: Decoded,
    /// The root file's tokens and raw tree.
    pub parsed: Parsed,
    /// Expanded games and variants.
    pub expanded: Expanded,
    /// All diagnostics, in the order found.
    pub diagnostics: Vec<Diagnostic>,
    /// The stop request it was read under ([`ReadOptions::interrupt`]); lowering polls it too.
    pub interrupt: crate::diag::Interrupt,
}

impl ZrfFile {
    /// Number of error diagnostics.
    pub fn errors(&self) -> usize {
        self.count(Severity::Error)
    }
    /// Number of warning diagnostics.
    pub fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }
    fn count(&self, s: Severity) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == s).count()
    }
}

/// Decodes, parses and expands a ZRF file. `name` is shown in diagnostics and passed to the
/// `loader` to resolve includes relative to it.
pub fn read(
    name: &str,
    bytes: &[u8],
    opts: &ReadOptions,
    loader: &mut dyn IncludeLoader,
) -> ZrfFile {
    let mut sources = SourceMap::new();
    let mut diagnostics = Vec::new();
    let max_bytes = opts.max_input_bytes;
    let id = FileId(sources.len() as u32);
    let bytes = match text::too_large(bytes.len(), max_bytes, id) {
        Some(d) => {
            diagnostics.push(d);
            &[][..]
        }
        None => bytes,
    };
    let (decoded, mut ds) = text::decode(bytes, opts.encoding, id);
    diagnostics.append(&mut ds);
    let root = sources.add(name, decoded.text.as_str());
    let parsed = sexpr::parse(&decoded.text, root, opts.syntax);
    diagnostics.extend(parsed.diagnostics.iter().cloned());
    let syntax = opts.syntax;
    let forced = opts.encoding;
    let mut parse_include = |inc_name: &str, inc_bytes: &[u8]| {
        // The loader reads at most one byte more than the limit; a larger file is refused
        // by its size here.
        let id = FileId(sources.len() as u32);
        let big = text::too_large(inc_bytes.len(), max_bytes, id);
        let inc_bytes = if big.is_some() { &[][..] } else { inc_bytes };
        let (dec, mut ds) = text::decode(inc_bytes, forced, id);
        ds.extend(big);
        let id = sources.add(inc_name, dec.text.as_str());
        let p = sexpr::parse(&dec.text, id, syntax);
        ds.extend(p.diagnostics);
        (id, p.nodes, ds)
    };
    let (expanded, mut ds) = expand::expand(
        expand::Input {
            name,
            nodes: parsed.nodes.clone(),
            loader,
            parse_include: &mut parse_include,
            interrupt: &opts.interrupt,
        },
        opts.expand,
    );
    diagnostics.append(&mut ds);
    crate::diag::cap_repeats(&mut diagnostics, crate::diag::MAX_PER_CODE);
    ZrfFile {
        sources,
        root,
        decoded,
        parsed,
        expanded,
        diagnostics,
        interrupt: opts.interrupt.clone(),
    }
}
