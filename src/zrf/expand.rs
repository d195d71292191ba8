//! ZRF expansion: `(include …)` splicing, `(define …)` macros and `(variant …)` resolution.
//!
//! Semantics (measured on real files, `notes/zrf-language.md` §5–6):
//!
//! * **Macros.** All top-level `(define NAME body…)` forms of the file and its includes are
//!   collected before anything expands (forward references exist); a later definition wins and
//!   the redefinition is reported. A list whose head atom (after `$k` substitution) names a macro
//!   is a call: it is replaced by the body forms, *spliced* into the enclosing list (zero, one or
//!   many forms). `$k` is substituted textually inside atoms and strings (`N$1`, `"$1.bmp"`),
//!   digits read greedily. Arguments are substituted with the caller's bindings before the body
//!   expands. A `$k` the current call does not bind is looked up in the enclosing calls
//!   (dynamic scope); one that no call binds stays literal and is a warning
//!   (`zrf::unbound-param`). Extra arguments are ignored and noted (`zrf::macro-arity`).
//! * **Includes** are spliced at their position, resolved by an [`IncludeLoader`] relative to the
//!   including file; cycles and missing files are errors.
//! * **Variants** are resolved against the *first* `(game …)` of the file, after expansion, with
//!   the `zog` policy documented on [`resolve_variant`].
//! * **Limits.** Macro call depth, total macro calls and output nodes are bounded. Output size is
//!   predicted from the macro table *before* expanding, so an exponential macro bomb is refused
//!   without allocating it.
//!
//! Every produced node keeps the span of the text it was copied from, and its
//! [`Node::site`](crate::sexpr::Node::site) indexes [`Sites`], the chain of calls that produced
//! it, so a diagnostic can always point at the call in the original file.

use crate::diag::{Diagnostic, FileId, Interrupt, Severity, Span};
use crate::sexpr::{Node, NodeKind};
use rustc_hash::{FxHashMap as HashMap, FxHashSet};
use std::ops::ControlFlow;
use std::sync::Arc;

/// Expansion limits (all configurable; the defaults are far above anything real files need).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Deepest chain of macro calls (real files need under 10; recursion hits this).
    pub max_macro_depth: usize,
    /// Most nodes one game or variant may expand to (the largest real file needs about 0.2 M).
    pub max_nodes: u64,
    /// Most macro calls while expanding one game or variant.
    pub max_calls: u64,
    /// Most items one list may hold after macros are spliced in (the longest list in the
    /// shared corpus has under 2,000; a flat list of millions costs memory that sharing
    /// cannot save).
    pub max_list_items: usize,
    /// Deepest chain of includes.
    pub max_include_depth: usize,
    /// Most bytes the includes of one input file may contribute, each include counted every
    /// time it is spliced in (plus [`INCLUDE_OVERHEAD`]), so a diamond of includes is refused
    /// after a few copies instead of doubling at every level.
    pub max_include_bytes: u64,
    /// Most nodes all games and variants of one input file may expand to together (each
    /// counted as [`Limits::max_nodes`] counts it), so variants cannot multiply the per-form
    /// budget (the largest real file expands to about 3 M). A file over it is refused whole:
    /// no entry of it is kept.
    pub max_file_nodes: u64,
    /// Most games and variants one input file may hold (the shared corpus has at most 60): a
    /// file of 200,000 one-line variants took 2.6 GB to convert. A file over it is refused
    /// whole, before anything is expanded.
    pub max_forms: usize,
    /// Most bytes of text `$k` substitution may create in one input file (every game and
    /// variant together): a 1 MB argument copied 512 times made 537 MB of YAML. Shared call
    /// results are not copied, so they count once.
    pub max_text_bytes: u64,
    /// Reuse the result of a call whose expansion depends only on its arguments (on by
    /// default; switched off only to cross-check that sharing changes nothing).
    pub share_calls: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_macro_depth: 64,
            max_nodes: 4_000_000,
            max_calls: 2_000_000,
            max_list_items: 100_000,
            max_include_depth: 16,
            max_include_bytes: 16 << 20,
            max_file_nodes: 10_000_000,
            max_forms: 10_000,
            max_text_bytes: 64 << 20,
            share_calls: true,
        }
    }
}

/// One macro call that produced nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// The call form `(NAME args…)`.
    pub call: Span,
    /// The macro's name.
    pub name: Arc<str>,
    /// When the produced node was itself produced by a call inside this macro's body (a body
    /// that is just another call), that inner site; 0 otherwise.
    pub inner: u32,
}

/// All expansion sites of one file; index 0 means "none".
///
/// Sites are position-independent: a node's `site` is set only on the forms a call splices in,
/// and the nodes below inherit it. The provenance of any node is therefore the sequence of
/// sites met on the way down from the root of its game, outermost first; the first one is the
/// call written in the input. This is what lets expansion share subtrees and reuse the result
/// of a call made twice with the same arguments.
#[derive(Debug, Clone, Default)]
pub struct Sites {
    /// Sites by index; entry 0 is a placeholder.
    pub sites: Vec<Site>,
}

impl Sites {
    fn new() -> Sites {
        Sites {
            sites: vec![Site {
                call: Span::default(),
                name: "".into(),
                inner: 0,
            }],
        }
    }
    fn push(&mut self, call: Span, name: Arc<str>, inner: u32) -> u32 {
        self.sites.push(Site { call, name, inner });
        self.sites.len() as u32 - 1
    }
    /// The outermost site on the path to `node`, given the value for its parent (0 at a root).
    pub fn outer(parent: u32, node: &Node) -> u32 {
        if parent != 0 { parent } else { node.site }
    }
    /// The span to show a user for `node` whose outermost site is `outer`: the node itself when
    /// it is written in the input, otherwise the macro call in the input that produced it.
    pub fn call_site(&self, outer: u32, node: &Node) -> Span {
        match self.sites.get(outer as usize) {
            Some(s) if outer != 0 => s.call,
            _ => node.span,
        }
    }
    /// The macro names of a site and the sites it directly wraps, outermost first.
    pub fn chain(&self, mut site: u32) -> Vec<Arc<str>> {
        let mut v = Vec::new();
        while site != 0 && v.len() < 10_000 {
            let Some(s) = self.sites.get(site as usize) else {
                break;
            };
            v.push(s.name.clone());
            site = s.inner;
        }
        v
    }
}

/// A `(define NAME body…)` form.
#[derive(Debug, Clone)]
pub struct Macro {
    /// The name.
    pub name: Arc<str>,
    /// The body forms.
    pub body: Vec<Node>,
    /// The whole define form.
    pub span: Span,
    /// Highest `$k` in the body (0 = none).
    pub arity: usize,
}

/// Loads included files. Implemented by the CLI (file system) and by tests (memory); the
/// library itself never touches the file system.
pub trait IncludeLoader {
    /// Finds `name` (as written in `(include "name")`) relative to the file `from` (the display
    /// name of the including file). Returns the included file's display name and bytes, or why
    /// it cannot (a plain message converts to [`CODE_INCLUDE_NOT_FOUND`]).
    fn load(&mut self, from: &str, name: &str) -> Result<(String, Arc<[u8]>), IncludeError>;
    /// The identity of a file given by display name, used to detect include cycles (for
    /// example its canonical path). Defaults to the name itself.
    fn identity(&mut self, name: &str) -> String {
        name.to_string()
    }
}

/// What each include costs against [`Limits::max_include_bytes`] besides its size, so that
/// empty files included many times over are bounded too.
pub const INCLUDE_OVERHEAD: u64 = 1024;

/// Diagnostic code: an included file cannot be found or read.
pub const CODE_INCLUDE_NOT_FOUND: &str = "zrf::include-not-found";
/// Diagnostic code: the includes of one input add more than [`Limits::max_include_bytes`].
pub const CODE_INCLUDE_TOO_LARGE: &str = "zrf::include-too-large";
/// Diagnostic code: the games and variants of one input expand to more than
/// [`Limits::max_file_nodes`].
pub const CODE_FILE_TOO_LARGE: &str = "zrf::file-expansion-too-large";

/// Error code: the file holds more games and variants than [`Limits::max_forms`].
pub const CODE_TOO_MANY_FORMS: &str = "zrf::too-many-variants";
/// Diagnostic code: `$k` substitution creates more than [`Limits::max_text_bytes`] of text in
/// one input file.
pub const CODE_TEXT_TOO_LARGE: &str = "zrf::expansion-text-too-large";
/// Diagnostic code: an include resolves outside the directory tree the loader is confined to.
pub const CODE_INCLUDE_OUTSIDE: &str = "zrf::include-outside";

/// Why an [`IncludeLoader`] did not load a file: a diagnostic code and a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IncludeError {
    /// Stable diagnostic code ([`CODE_INCLUDE_NOT_FOUND`], [`CODE_INCLUDE_OUTSIDE`], …).
    pub code: &'static str,
    /// What went wrong, for the diagnostic.
    pub message: String,
}

impl From<String> for IncludeError {
    fn from(message: String) -> Self {
        IncludeError {
            code: CODE_INCLUDE_NOT_FOUND,
            message,
        }
    }
}

/// An [`IncludeLoader`] that refuses every include (for inputs read from memory or stdin).
pub struct NoIncludes;

impl IncludeLoader for NoIncludes {
    fn load(&mut self, _from: &str, name: &str) -> Result<(String, Arc<[u8]>), IncludeError> {
        Err(format!("cannot include {name:?}: includes are not available for this input").into())
    }
}

/// What a top-level entry of the variant menu is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A `(game …)`.
    Game,
    /// A `(variant …)` resolved against the game with this entry index.
    Variant {
        /// Index (in [`Expanded::entries`]) of the game it varies; `usize::MAX` when the file
        /// has no game (reported as `zrf::variant-without-game`).
        of: usize,
    },
    /// A `(variant (title "-"))` menu separator.
    Separator,
}

/// One game, fully resolved variant or separator, in file order.
#[derive(Debug, Clone)]
pub struct Entry {
    /// What it is.
    pub kind: EntryKind,
    /// Title, when given.
    pub title: Option<String>,
    /// Whether it has `(default)`.
    pub default: bool,
    /// The complete expanded `(game …)` form (for variants: the merged game), or `None` when
    /// expansion of this entry was refused by a limit.
    pub form: Option<Node>,
    /// The original `(game …)`/`(variant …)` form's span in the input.
    pub span: Span,
    /// The variant's own expanded sections before merging (empty for games); what a writer
    /// needs to emit a compact `(variant …)`.
    pub delta: Vec<Node>,
}

/// The result of expanding one file.
#[derive(Debug, Clone, Default)]
pub struct Expanded {
    /// Games, variants and separators in menu order.
    pub entries: Vec<Entry>,
    /// Expansion sites referenced by nodes.
    pub sites: Sites,
    /// The macro table (after includes), in definition order.
    pub macros: Vec<Macro>,
    /// `(version "…")`, if present.
    pub version: Option<String>,
    /// Total nodes of all expanded entries.
    pub nodes: u64,
}

/// Registers and parses an included file (display name, bytes): its id, top-level nodes and
/// the diagnostics of decoding and parsing it.
pub type ParseInclude<'a> = dyn FnMut(&str, &[u8]) -> (FileId, Vec<Node>, Vec<Diagnostic>) + 'a;

/// Input to [`expand`]: the root file's top-level nodes and everything needed to load includes.
pub struct Input<'a> {
    /// Display name of the root file.
    pub name: &'a str,
    /// Root file's parsed top-level nodes.
    pub nodes: Vec<Node>,
    /// Loads includes.
    pub loader: &'a mut dyn IncludeLoader,
    /// Called for each included file: registers its text and parses it, returning its id,
    /// top-level nodes and the diagnostics of decoding and parsing.
    pub parse_include: &'a mut ParseInclude<'a>,
    /// Polled before each game and variant and every 4,096 expanded nodes: once raised, the
    /// file is refused (`read::interrupted`) and nothing of it is lowered.
    pub interrupt: &'a Interrupt,
}

/// The top-level forms of a file, sorted: macros (a later definition wins, with a warning) and
/// the games and variants in order; other items are reported.
struct TopLevel<'n> {
    macros: Vec<Macro>,
    index: HashMap<Arc<str>, usize>,
    forms: Vec<&'n Node>,
    version: Option<String>,
}

fn top_level<'n>(top: &'n [Node], diags: &mut Vec<Diagnostic>) -> TopLevel<'n> {
    let mut macros: Vec<Macro> = Vec::new();
    let mut index: HashMap<Arc<str>, usize> = HashMap::default();
    let mut forms: Vec<&Node> = Vec::new();
    let mut version = None;
    let mut i = 0;
    while i < top.len() {
        let n = &top[i];
        i += 1;
        match n.head() {
            Some("define") => {
                let args = n.args();
                let Some(mname) = args.first().and_then(Node::as_atom) else {
                    diags.push(Diagnostic::error(
                        "zrf::bad-define",
                        "expected a macro name after `define`",
                        n.span,
                    ));
                    continue;
                };
                let body = args[1..].to_vec();
                let arity = body.iter().map(max_param).max().unwrap_or(0);
                let m = Macro {
                    name: mname.into(),
                    body,
                    span: n.span,
                    arity,
                };
                if let Some(&i) = index.get(mname) {
                    diags.push(
                        Diagnostic::warning(
                            "zrf::macro-redefined",
                            format!("macro `{mname}` is defined again; this later definition is used"),
                            n.span,
                        )
                        .with_note(Some(macros[i].span), "first defined here"),
                    );
                    macros[i] = m;
                } else {
                    index.insert(m.name.clone(), macros.len());
                    macros.push(m);
                }
            }
            Some("game") | Some("variant") => forms.push(n),
            Some("version") => {
                version = n
                    .args()
                    .first()
                    .and_then(|a| a.as_str().or(a.as_atom()))
                    .map(str::to_string)
            }
            Some(h) => diags.push(Diagnostic::warning(
                "zrf::unknown-top-level",
                format!("`({h} …)` at top level is not a ZRF form (expected game, variant, define, include or version); it is ignored"),
                n.span,
            )),
            None => {
                // A run of items that are not forms (a file in another format, stray text) is
                // one warning, so such a file cannot flood the output with one per item.
                let run = top[i..]
                    .iter()
                    .take_while(|m| m.head().is_none() && m.span.file == n.span.file)
                    .count();
                let last = &top[i - 1 + run];
                i += run;
                diags.push(if run == 0 {
                    Diagnostic::warning(
                        "zrf::unknown-top-level",
                        "expected a form such as `(game …)` at top level; this is ignored",
                        n.span,
                    )
                } else {
                    Diagnostic::warning(
                        "zrf::unknown-top-level",
                        format!(
                            "{} items at top level are not ZRF forms (expected forms such as `(game …)`); they are ignored",
                            run + 1
                        ),
                        n.span.to(last.span),
                    )
                });
            }
        }
    }
    TopLevel {
        macros,
        index,
        forms,
        version,
    }
}

/// Splices includes, collects macros, expands every game and variant and resolves variants.
pub fn expand(input: Input<'_>, limits: Limits) -> (Expanded, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let Input {
        name,
        nodes,
        loader,
        parse_include,
        interrupt,
    } = input;
    let stack = vec![(loader.identity(name), name.to_string())];
    let top = Splicer {
        loader,
        parse_include,
        parsed: HashMap::default(),
        spliced: 0,
        over: false,
        stack,
        limits,
    }
    .splice(nodes, name, &mut diags);

    let TopLevel {
        macros,
        index,
        mut forms,
        version,
    } = top_level(&top, &mut diags);

    let table = MacroTable::new(&macros, &index);
    let mut run = FormRun {
        table: &table,
        sites: Sites::new(),
        diags,
        memo: Memo::default(),
        text_bytes: 0,
        total: 0,
        limits,
        interrupt,
    };
    let mut found = Entries::default();
    let count = forms.len();
    let mut over_budget = false;
    if let Some(first_over) = forms.get(limits.max_forms) {
        run.diags.push(Diagnostic::error(
            CODE_TOO_MANY_FORMS,
            format!(
                "this file holds {count} games and variants, more than the limit of {}; the file is refused (this is the first over it)",
                limits.max_forms
            ),
            first_over.span,
        ));
        over_budget = true;
        forms.clear();
    }
    for (k, form) in forms.into_iter().enumerate() {
        match run.form(form, k, count) {
            ControlFlow::Continue(body) => found.push(form, body),
            ControlFlow::Break(()) => {
                over_budget = true;
                break;
            }
        }
    }
    let FormRun {
        sites,
        mut diags,
        total,
        ..
    } = run;
    if over_budget {
        // The file is refused: nothing of it is lowered, so the work stays within the budget.
        found.entries.clear();
        found.pending_variants.clear();
    }
    found.resolve_variants(&mut diags);
    let Entries {
        entries,
        first_game,
        ..
    } = found;
    if over_budget || (first_game.is_none() && !entries.is_empty()) {
        // already reported per variant
    } else if entries.is_empty() {
        diags.push(Diagnostic::new(
            Severity::Note,
            "zrf::no-game",
            "the file has no `(game …)`; it can only be included by other files",
            None,
        ));
    }
    (
        Expanded {
            entries,
            sites,
            macros,
            version,
            nodes: total,
        },
        diags,
    )
}

/// The expansion of a file's games and variants, one after another, within one budget.
struct FormRun<'a, 't> {
    table: &'a MacroTable<'t>,
    sites: Sites,
    diags: Vec<Diagnostic>,
    /// Results of calls that depend only on their arguments, shared across the file's games.
    memo: Memo,
    /// Bytes of text `$k` substitution has created in the file so far.
    text_bytes: u64,
    /// Nodes expanded in the file so far.
    total: u64,
    limits: Limits,
    interrupt: &'a Interrupt,
}

impl FormRun<'_, '_> {
    /// Expands the children of `form` (the `k`-th of `count`): `None` when it is skipped (too
    /// large, or an expansion aborted); `Break` when the file is refused (interrupted, or over
    /// its budget), which stops the run.
    fn form(&mut self, form: &Node, k: usize, count: usize) -> ControlFlow<(), Option<Vec<Node>>> {
        let limits = self.limits;
        if self.interrupt.raised() {
            self.diags.push(Interrupt::error(form.span));
            return ControlFlow::Break(());
        }
        let is_game = form.head() == Some("game");
        // Expand the children of the form (not the head).
        let predicted = self.table.predict_list(form.args());
        // One budget for the whole file: variants must not multiply the per-form one.
        let file_left = limits.max_file_nodes.saturating_sub(self.total);
        if predicted > file_left.min(limits.max_nodes) && predicted <= limits.max_nodes {
            self.diags.push(file_budget_error(
                form, k, count, predicted, self.total, limits,
            ));
            return ControlFlow::Break(());
        }
        let limits = Limits {
            max_nodes: limits.max_nodes.min(file_left),
            ..limits
        };
        if predicted > limits.max_nodes {
            self.diags.push(Diagnostic::error(
                "zrf::expansion-too-large",
                format!(
                    "expanding this {} would produce about {} nodes, more than the limit of {}; it is skipped",
                    if is_game { "game" } else { "variant" },
                    fmt_big(predicted),
                    limits.max_nodes
                ),
                form.span,
            ).with_note(self.table.biggest_call(form).map(|(s, _)| s), "the largest macro call is here"));
            return ControlFlow::Continue(None);
        }
        let mut ex = Expander {
            table: self.table,
            sites: &mut self.sites,
            diags: &mut self.diags,
            limits,
            nodes: 0,
            calls: 0,
            aborted: false,
            env: Vec::new(),
            reported_unbound: Default::default(),
            reported_arity: Default::default(),
            text_bytes: &mut self.text_bytes,
            memo: &mut self.memo,
            interrupt: self.interrupt,
            interrupted: false,
            bumps: 0,
        };
        let mut out = Vec::with_capacity(form.args().len());
        ex.expand_seq(form.args(), &mut out);
        self.total += ex.nodes;
        if ex.interrupted {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(if ex.aborted { None } else { Some(out) })
    }
}

/// The file's entries as they are expanded, and the variants still to resolve.
#[derive(Default)]
struct Entries {
    entries: Vec<Entry>,
    first_game: Option<usize>,
    /// The variants to resolve against the first game (not separators, not skipped).
    pending_variants: Vec<usize>,
}

impl Entries {
    /// The entry of `form`, expanded to `body` (`None` when it was skipped).
    fn push(&mut self, form: &Node, body: Option<Vec<Node>>) {
        let title = body.as_ref().and_then(|b| title_of(b));
        let default = body
            .as_ref()
            .is_some_and(|b| b.iter().any(|n| n.head() == Some("default")));
        let head = form.as_list().and_then(|l| l.first()).cloned();
        if form.head() == Some("game") {
            let idx = self.entries.len();
            self.first_game.get_or_insert(idx);
            self.entries.push(Entry {
                kind: EntryKind::Game,
                title,
                default,
                form: body.map(|b| make_list(head, b, form.span)),
                span: form.span,
                delta: Vec::new(),
            });
        } else {
            let separator = title.as_deref() == Some("-");
            let idx = self.entries.len();
            self.entries.push(Entry {
                kind: if separator {
                    EntryKind::Separator
                } else {
                    EntryKind::Variant { of: usize::MAX }
                },
                title,
                default,
                form: None,
                span: form.span,
                delta: body.clone().unwrap_or_default(),
            });
            if !separator && body.is_some() {
                self.pending_variants.push(idx);
            }
        }
    }

    /// Resolves the variants against the first game, wherever they appear.
    fn resolve_variants(&mut self, diags: &mut Vec<Diagnostic>) {
        let entries = &mut self.entries;
        for &idx in &self.pending_variants {
            match self.first_game {
                Some(g) => {
                    let base = entries[g].form.clone();
                    let delta = entries[idx].delta.clone();
                    let span = entries[idx].span;
                    entries[idx].kind = EntryKind::Variant { of: g };
                    entries[idx].form = base.map(|b| {
                        let head = b.as_list().and_then(|l| l.first()).cloned();
                        make_list(head, resolve_variant(b.args(), &delta), span)
                    });
                }
                None => diags.push(Diagnostic::error(
                    "zrf::variant-without-game",
                    "this variant has no `(game …)` in the file to vary",
                    entries[idx].span,
                )),
            }
        }
    }
}

/// The error for a form (the `k`-th of `count`) that would take the file's expansion past
/// [`Limits::max_file_nodes`]; it and the forms after it are skipped.
fn file_budget_error(
    form: &Node,
    k: usize,
    count: usize,
    predicted: u64,
    total: u64,
    limits: Limits,
) -> Diagnostic {
    let rest = count - k - 1;
    Diagnostic::error(
        CODE_FILE_TOO_LARGE,
        format!(
            "the games and variants of this file would expand to more than {} nodes in all ({} so far, about {} more here); this form{} skipped",
            limits.max_file_nodes,
            fmt_big(total),
            fmt_big(predicted),
            match rest {
                0 => " is".to_string(),
                1 => " and the one after it are".to_string(),
                n => format!(" and the {n} after it are"),
            }
        ),
        form.span,
    )
}

fn make_list(head: Option<Node>, body: Vec<Node>, span: Span) -> Node {
    let mut items = Vec::with_capacity(body.len() + 1);
    items.extend(head);
    items.extend(body);
    Node {
        kind: NodeKind::List(items.into()),
        span,
        site: 0,
    }
}

fn title_of(items: &[Node]) -> Option<String> {
    items
        .iter()
        .find(|n| n.head() == Some("title"))
        .and_then(|t| t.args().first())
        .and_then(|a| a.as_str().or(a.as_atom()))
        .map(str::to_string)
}

fn fmt_big(n: u64) -> String {
    if n >= u64::MAX / 2 {
        "unboundedly many".into()
    } else {
        n.to_string()
    }
}

/// Goal heads that a variant replaces as one group.
const GOALS: [&str; 4] = [
    "win-condition",
    "loss-condition",
    "draw-condition",
    "count-condition",
];

/// The override key of a game section: pieces by name, options by option name, everything
/// else by head.
fn section_key(n: &Node) -> Option<(String, String)> {
    let head = n.head()?;
    let name = match head {
        "piece" => n
            .args()
            .iter()
            .find(|c| c.head() == Some("name"))
            .and_then(|c| c.args().first())
            .and_then(|a| a.as_atom().or(a.as_str()))
            .unwrap_or("")
            .to_string(),
        "option" => n
            .args()
            .first()
            .and_then(|a| a.as_str().or(a.as_atom()))
            .unwrap_or("")
            .to_string(),
        _ => String::new(),
    };
    Some((head.to_string(), name))
}

/// Merges a variant's expanded sections into its game's expanded sections (the `zog` policy):
///
/// * `piece` sections override the game's piece of the same name, in place; new pieces are
///   appended [corpus: 250 redefinitions, 84 variants placing game-only pieces].
/// * `option` sections override the game's option of the same name; others are kept \[inferred\].
/// * Goal conditions (`win-`, `loss-`, `draw-`, `count-condition`) are replaced as one group
///   when the variant states any [inferred from "Losing Checkers" and the tutorial].
/// * `(default)` is the variant's own flag ([`Entry::default`]); it is dropped from merged forms.
/// * Every other section (`title`, `board`, `board-setup`, `players`, `turn-order`, texts,
///   sounds, `move-priorities`, …) replaces all of the game's sections with the same head,
///   at the position of the first of them \[doc\].
/// * Sections the game lacks are appended in the variant's order.
pub fn resolve_variant(game: &[Node], delta: &[Node]) -> Vec<Node> {
    let variant_has_goal = delta
        .iter()
        .any(|n| n.head().is_some_and(|h| GOALS.contains(&h)));
    let delta_keys: Vec<Option<(String, String)>> = delta.iter().map(section_key).collect();
    let overrides = |key: &(String, String)| -> bool {
        match key.0.as_str() {
            "piece" | "option" => delta_keys.iter().flatten().any(|k| k == key),
            h if GOALS.contains(&h) => variant_has_goal,
            h => delta_keys.iter().flatten().any(|k| k.0 == h),
        }
    };
    let mut out: Vec<Node> = Vec::with_capacity(game.len() + delta.len());
    let mut used = vec![false; delta.len()];
    for g in game {
        let Some(key) = section_key(g) else {
            out.push(g.clone());
            continue;
        };
        if key.0 == "default" {
            continue;
        }
        if !overrides(&key) {
            out.push(g.clone());
            continue;
        }
        // Replace in place: emit the variant's sections with this key (or head) once.
        for (i, d) in delta.iter().enumerate() {
            if used[i] {
                continue;
            }
            let Some(dk) = &delta_keys[i] else { continue };
            let same = match key.0.as_str() {
                "piece" | "option" => *dk == key,
                h if GOALS.contains(&h) => GOALS.contains(&dk.0.as_str()),
                _ => dk.0 == key.0,
            };
            if same {
                used[i] = true;
                out.push(d.clone());
            }
        }
    }
    for (i, d) in delta.iter().enumerate() {
        if !used[i] && d.head() != Some("default") {
            out.push(d.clone());
        }
    }
    out
}

/// State of splicing the includes of one input file.
struct Splicer<'a> {
    loader: &'a mut dyn IncludeLoader,
    parse_include: &'a mut ParseInclude<'a>,
    /// Each distinct file's top-level nodes, by identity: parsed (and reported on) once.
    parsed: HashMap<String, Vec<Node>>,
    /// Bytes spliced in so far, against `limits.max_include_bytes`.
    spliced: u64,
    /// The include budget was exceeded (reported once; later includes are skipped).
    over: bool,
    stack: Vec<(String, String)>,
    limits: Limits,
}

impl Splicer<'_> {
    fn splice(&mut self, nodes: Vec<Node>, from: &str, diags: &mut Vec<Diagnostic>) -> Vec<Node> {
        let mut out = Vec::with_capacity(nodes.len());
        for n in nodes {
            if n.head() != Some("include") {
                out.push(n);
                continue;
            }
            let Some(target) = n.args().first().and_then(|a| a.as_str().or(a.as_atom())) else {
                diags.push(Diagnostic::error(
                    "zrf::bad-include",
                    "expected a file name: `(include \"file.zrf\")`",
                    n.span,
                ));
                continue;
            };
            if self.over {
                continue;
            }
            if self.stack.len() > self.limits.max_include_depth {
                diags.push(Diagnostic::error(
                    "zrf::include-depth",
                    format!(
                        "includes nested deeper than {} levels",
                        self.limits.max_include_depth
                    ),
                    n.span,
                ));
                continue;
            }
            let (shown, bytes) = match self.loader.load(from, target) {
                Err(e) => {
                    diags.push(Diagnostic::error(e.code, e.message, n.span));
                    continue;
                }
                Ok(loaded) => loaded,
            };
            let key = self.loader.identity(&shown);
            if self.stack.iter().any(|(k, _)| *k == key) {
                let chain: Vec<&str> = self.stack.iter().map(|(_, s)| s.as_str()).collect();
                diags.push(Diagnostic::error(
                    "zrf::include-cycle",
                    format!(
                        "including {target:?} again would loop: {} → {shown}",
                        chain.join(" → ")
                    ),
                    n.span,
                ));
                continue;
            }
            self.spliced = self
                .spliced
                .saturating_add(bytes.len() as u64)
                .saturating_add(INCLUDE_OVERHEAD);
            if self.spliced > self.limits.max_include_bytes {
                self.over = true;
                diags.push(Diagnostic::error(
                    CODE_INCLUDE_TOO_LARGE,
                    format!(
                        "the includes of this file would add more than {} bytes (each include counted every time it is spliced in, plus {INCLUDE_OVERHEAD} bytes); this and later includes are skipped",
                        self.limits.max_include_bytes
                    ),
                    n.span,
                ));
                continue;
            }
            let nodes = match self.parsed.get(&key) {
                Some(nodes) => nodes.clone(),
                None => {
                    let (_, nodes, mut ds) = (self.parse_include)(&shown, &bytes);
                    diags.append(&mut ds);
                    self.parsed.insert(key.clone(), nodes.clone());
                    nodes
                }
            };
            drop(bytes);
            self.stack.push((key, shown.clone()));
            let inner = self.splice(nodes, &shown, diags);
            self.stack.pop();
            out.extend(inner);
        }
        out
    }
}

/// Highest `$k` mentioned in a subtree.
fn max_param(n: &Node) -> usize {
    match &n.kind {
        NodeKind::Atom(s) | NodeKind::Str(s) => params(s).map(|(_, _, k)| k).max().unwrap_or(0),
        NodeKind::List(v) => v.iter().map(max_param).max().unwrap_or(0),
    }
}

/// The `$k` references of a text: (byte start, byte end, k).
fn params(s: &str) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    let b = s.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            if b[i] == b'$' {
                let start = i;
                let mut j = i + 1;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                if j > i + 1 {
                    let k = s[i + 1..j].parse::<usize>().unwrap_or(usize::MAX);
                    i = j;
                    return Some((start, j, k));
                }
            }
            i += 1;
        }
        None
    })
}

struct MacroTable<'a> {
    macros: &'a [Macro],
    index: &'a HashMap<Arc<str>, usize>,
    /// Predicted expanded size of each macro's body (u64::MAX for recursive macros).
    sizes: Vec<u64>,
    /// Lists inside macro bodies that contain no `$k` and no macro call, by the address of
    /// their items, with their node counts: they expand to themselves and are shared.
    closed: HashMap<usize, u64>,
    /// Highest `$k` each macro needs from its own call (including what the macros it calls
    /// leave unbound), or `None` when that cannot be known (computed heads, recursion).
    needs: Vec<Option<usize>>,
    /// Macros on a cycle of the static call graph. ZRF macros expand unconditionally, so a call
    /// to one of these can never finish: it is refused at once.
    recursive: Vec<bool>,
}

type MemoKey = Vec<Arc<str>>;
/// Expanded results of argument-determined calls, with their node counts.
pub(crate) type Memo = HashMap<MemoKey, (Arc<[Node]>, u64)>;

impl<'a> MacroTable<'a> {
    fn new(macros: &'a [Macro], index: &'a HashMap<Arc<str>, usize>) -> Self {
        let mut t = MacroTable {
            macros,
            index,
            sizes: vec![u64::MAX - 1; macros.len()], // MAX-1: not computed yet
            closed: HashMap::default(),
            needs: Vec::new(),
            recursive: Vec::new(),
        };
        for i in 0..macros.len() {
            t.size_of(i, 0);
        }
        let mut closed = HashMap::default();
        for m in macros {
            for n in &m.body {
                mark_closed(n, index, &mut closed);
            }
        }
        t.closed = closed;
        let mut state = vec![0u8; macros.len()]; // 0 new, 1 in progress, 2 done
        let mut needs = vec![None; macros.len()];
        for i in 0..macros.len() {
            need_of(i, macros, index, &mut state, &mut needs);
        }
        t.needs = needs;
        t.recursive = on_cycles(macros, index);
        t
    }
    /// The memo key of a call, when its result depends only on its arguments: the macro never
    /// reaches for an enclosing call's arguments (directly or through the macros it calls), has
    /// no computed heads, and every argument is an atom or a string.
    fn memo_key(&self, m: &Macro, args: &[Node]) -> Option<MemoKey> {
        let i = *self.index.get(&m.name)?;
        let need = self.needs[i]?;
        if need > args.len() {
            return None;
        }
        let mut key = Vec::with_capacity(args.len() + 1);
        key.push(m.name.clone());
        for a in args {
            match &a.kind {
                NodeKind::Atom(t) => key.push(t.clone()),
                NodeKind::Str(t) => key.push(format!("\"{t}").into()),
                NodeKind::List(_) => return None,
            }
        }
        Some(key)
    }
    /// The node count of `v` if it is a closed list of a macro body.
    fn closed_size(&self, v: &[Node]) -> Option<u64> {
        self.closed.get(&(v.as_ptr() as usize)).copied()
    }
    fn get(&self, name: &str) -> Option<&'a Macro> {
        self.index.get(name).map(|&i| &self.macros[i])
    }
    fn size_of(&mut self, i: usize, depth: usize) -> u64 {
        match self.sizes[i] {
            u64::MAX => return u64::MAX, // in progress: recursion; the runtime depth limit reports it
            s if s != u64::MAX - 1 => return s,
            _ => {}
        }
        if depth > 256 {
            return u64::MAX;
        }
        self.sizes[i] = u64::MAX;
        let body: &'a [Node] = &self.macros[i].body;
        let s = body.iter().fold(0u64, |acc, n| {
            acc.saturating_add(self.size_node(n, depth + 1))
        });
        self.sizes[i] = s;
        s
    }
    fn size_node(&mut self, n: &Node, depth: usize) -> u64 {
        match &n.kind {
            NodeKind::List(v) => {
                if let Some(h) = v.first().and_then(Node::as_atom)
                    && let Some(&i) = self.index.get(h)
                {
                    let s = self.size_of(i, depth);
                    return if s == u64::MAX { 1 } else { s };
                }
                v.iter()
                    .fold(1u64, |acc, c| acc.saturating_add(self.size_node(c, depth)))
            }
            _ => 1,
        }
    }
    fn predict_node(&self, n: &Node) -> u64 {
        match &n.kind {
            NodeKind::List(v) => {
                if let Some(h) = v.first().and_then(Node::as_atom)
                    && let Some(&i) = self.index.get(h)
                {
                    let s = self.sizes[i];
                    return if s >= u64::MAX - 1 { 1 } else { s };
                }
                v.iter()
                    .fold(1u64, |acc, c| acc.saturating_add(self.predict_node(c)))
            }
            _ => 1,
        }
    }
    fn predict_list(&self, items: &[Node]) -> u64 {
        items
            .iter()
            .fold(0u64, |acc, n| acc.saturating_add(self.predict_node(n)))
    }
    /// The call inside `n` with the largest predicted size.
    fn biggest_call(&self, n: &Node) -> Option<(Span, u64)> {
        let mut best: Option<(Span, u64)> = None;
        let mut stack = vec![n];
        while let Some(n) = stack.pop() {
            if let Some(v) = n.as_list() {
                if let Some(h) = v.first().and_then(Node::as_atom)
                    && let Some(&i) = self.index.get(h)
                {
                    let s = self.sizes[i];
                    if best.is_none_or(|(_, b)| s > b) {
                        best = Some((n.span, s));
                    }
                    continue;
                }
                stack.extend(v.iter());
            }
        }
        best
    }
}

/// Which macros can reach themselves through calls with literal heads.
fn on_cycles(macros: &[Macro], index: &HashMap<Arc<str>, usize>) -> Vec<bool> {
    let callees: Vec<Vec<usize>> = macros
        .iter()
        .map(|m| {
            let mut out = Vec::new();
            let mut stack: Vec<&Node> = m.body.iter().collect();
            while let Some(n) = stack.pop() {
                if let Some(v) = n.as_list() {
                    if let Some(&c) = v.first().and_then(Node::as_atom).and_then(|h| index.get(h)) {
                        out.push(c);
                    }
                    stack.extend(v.iter());
                }
            }
            out.sort_unstable();
            out.dedup();
            out
        })
        .collect();
    (0..macros.len())
        .map(|start| {
            let mut seen = vec![false; macros.len()];
            let mut stack = callees[start].clone();
            while let Some(i) = stack.pop() {
                if i == start {
                    return true;
                }
                if !std::mem::replace(&mut seen[i], true) {
                    stack.extend(&callees[i]);
                }
            }
            false
        })
        .collect()
}

/// Computes [`MacroTable::needs`] for macro `i`.
fn need_of(
    i: usize,
    macros: &[Macro],
    index: &HashMap<Arc<str>, usize>,
    state: &mut [u8],
    needs: &mut [Option<usize>],
) -> Option<usize> {
    match state[i] {
        1 => return None,
        2 => return needs[i],
        _ => {}
    }
    state[i] = 1;
    let mut need = Some(macros[i].arity);
    let mut stack: Vec<&Node> = macros[i].body.iter().collect();
    while let Some(n) = stack.pop() {
        let Some(v) = n.as_list() else { continue };
        if let Some(h) = v.first().and_then(Node::as_atom) {
            if h.contains('$') {
                need = None;
                break;
            }
            if let Some(&c) = index.get(h) {
                match need_of(c, macros, index, state, needs) {
                    None => {
                        need = None;
                        break;
                    }
                    // The callee's parameters beyond its own arguments fall through to us.
                    Some(k) if k > v.len() - 1 => need = need.map(|n| n.max(k)),
                    Some(_) => {}
                }
            }
        }
        stack.extend(v.iter());
    }
    state[i] = 2;
    needs[i] = need;
    need
}

/// Records the closed lists under `n`; returns `n`'s node count when it is closed.
fn mark_closed(
    n: &Node,
    index: &HashMap<Arc<str>, usize>,
    closed: &mut HashMap<usize, u64>,
) -> Option<u64> {
    match &n.kind {
        NodeKind::Atom(a) | NodeKind::Str(a) => (!a.contains('$')).then_some(1),
        NodeKind::List(v) => {
            let head_is_call = v
                .first()
                .and_then(Node::as_atom)
                .is_some_and(|h| h.contains('$') || index.contains_key(h));
            let mut size = Some(1u64);
            for c in v.iter() {
                let cs = mark_closed(c, index, closed);
                size = match (size, cs) {
                    (Some(a), Some(b)) => Some(a.saturating_add(b)),
                    _ => None,
                };
            }
            let size = if head_is_call { None } else { size };
            if let Some(s) = size
                && !v.is_empty()
            {
                closed.insert(v.as_ptr() as usize, s);
            }
            size
        }
    }
}

struct Frame {
    args: Vec<Node>,
    /// The call form, for diagnostics.
    call: Span,
    name: Arc<str>,
}

struct Expander<'a, 't> {
    table: &'a MacroTable<'t>,
    sites: &'a mut Sites,
    diags: &'a mut Vec<Diagnostic>,
    limits: Limits,
    nodes: u64,
    calls: u64,
    aborted: bool,
    /// Argument frames of the calls being expanded, innermost last (dynamic scope).
    env: Vec<Frame>,
    /// Results of calls that depend only on their arguments, shared across a file's games.
    memo: &'a mut Memo,
    /// Bytes of text `$k` substitution has created in this file so far (every form), against
    /// [`Limits::max_text_bytes`].
    text_bytes: &'a mut u64,
    reported_unbound: FxHashSet<(u32, u32)>,
    reported_arity: FxHashSet<Arc<str>>,
    /// Polled every 4,096 nodes made one by one (`bumps`); `interrupted` once found raised.
    interrupt: &'a Interrupt,
    interrupted: bool,
    bumps: u32,
}

impl<'a, 't> Expander<'a, 't> {
    /// Looks `$k` up from the innermost frame outwards.
    fn lookup(&self, k: usize) -> Option<Node> {
        if k == 0 {
            return None;
        }
        self.env
            .iter()
            .rev()
            .find_map(|f| f.args.get(k - 1))
            .cloned()
    }

    /// Substitutes `$k` in an atom or string; `whole` is set when the text is exactly one `$k`.
    fn substitute(&mut self, s: &Arc<str>, span: Span) -> Result<Arc<str>, Node> {
        if !s.contains('$') || self.env.is_empty() {
            if s.contains('$') {
                self.report_unbound(s, span);
            }
            return Ok(s.clone());
        }
        let mut out = String::with_capacity(s.len() + 8);
        let mut last = 0;
        let mut changed = false;
        for (a, b, k) in params(s) {
            match self.lookup(k) {
                Some(arg) => {
                    let text = arg.as_atom().or(arg.as_str());
                    match text {
                        Some(t) => {
                            out.push_str(&s[last..a]);
                            out.push_str(t);
                            last = b;
                            changed = true;
                        }
                        None if a == 0 && b == s.len() => return Err(arg),
                        None => {
                            self.diags.push(Diagnostic::warning(
                                "zrf::list-argument",
                                format!("`${k}` is part of a longer name, but its argument is a list; it is left as written"),
                                span,
                            ));
                        }
                    }
                }
                None => self.report_unbound(s, span),
            }
        }
        if !changed {
            return Ok(s.clone());
        }
        out.push_str(&s[last..]);
        *self.text_bytes = self.text_bytes.saturating_add(out.len() as u64);
        if *self.text_bytes > self.limits.max_text_bytes && !self.aborted {
            self.aborted = true;
            self.diags.push(Diagnostic::error(
                CODE_TEXT_TOO_LARGE,
                format!(
                    "macro arguments substituted into this file's games and variants make more than {} bytes of text (`--limit expansion-bytes=N` changes it); this form is skipped",
                    self.limits.max_text_bytes
                ),
                span,
            ));
        }
        Ok(out.into())
    }

    fn report_unbound(&mut self, s: &str, span: Span) {
        if self.reported_unbound.insert((span.file.0, span.start)) {
            let outer = self.env.first().map(|f| f.call).unwrap_or_default();
            let mut d = Diagnostic::warning(
                "zrf::unbound-param",
                format!(
                    "`{s}` refers to a macro argument that no enclosing call provides; it is kept as written"
                ),
                span,
            );
            if !self.env.is_empty() {
                d = d.with_note(Some(outer), "expanded from this call");
            }
            self.diags.push(d);
        }
    }

    fn bump(&mut self, span: Span) -> bool {
        self.nodes += 1;
        self.bumps = self.bumps.wrapping_add(1);
        if self.bumps & 0xFFF == 0 && !self.aborted && self.interrupt.raised() {
            self.aborted = true;
            self.interrupted = true;
            self.diags.push(Interrupt::error(span));
        }
        if self.nodes > self.limits.max_nodes && !self.aborted {
            self.aborted = true;
            self.diags.push(Diagnostic::error(
                "zrf::expansion-too-large",
                format!(
                    "macro expansion produced more than {} nodes; this form is skipped",
                    self.limits.max_nodes
                ),
                span,
            ));
        }
        !self.aborted
    }

    /// Expands `items` (written at `site`) into `out`, splicing macro calls.
    fn expand_seq(&mut self, items: &[Node], out: &mut Vec<Node>) {
        for item in items {
            if self.aborted {
                return;
            }
            self.expand_node(item, out);
            // Only splicing counts: a list written out in the file costs what its bytes cost.
            if out.len() > self.limits.max_list_items && out.len() > items.len() && !self.aborted {
                self.aborted = true;
                // Point at the outermost call in the input; the note shows where in the macro.
                let at = self.env.first().map(|f| f.call).unwrap_or(item.span);
                let mut d = Diagnostic::error(
                    "zrf::list-too-long",
                    format!(
                        "macro expansion made a list of more than {} items; this form is skipped",
                        self.limits.max_list_items
                    ),
                    at,
                );
                if at != item.span {
                    d = d.with_note(Some(item.span), "the list grew past the limit here");
                }
                self.diags.push(d);
            }
        }
    }

    fn expand_node(&mut self, item: &Node, out: &mut Vec<Node>) {
        match &item.kind {
            NodeKind::Atom(s) | NodeKind::Str(s) => {
                if !self.bump(item.span) {
                    return;
                }
                match self.substitute(s, item.span) {
                    Ok(t) => out.push(Node {
                        kind: match item.kind {
                            NodeKind::Atom(_) => NodeKind::Atom(t),
                            _ => NodeKind::Str(t),
                        },
                        span: item.span,
                        site: 0,
                    }),
                    // `$k` bound to a list argument: the argument, expanded in the caller's scope.
                    Err(list) => {
                        let saved = self.env.pop();
                        self.expand_node(&list, out);
                        self.env.extend(saved);
                    }
                }
            }
            NodeKind::List(v) => {
                let head = v.first().and_then(|h| match &h.kind {
                    NodeKind::Atom(a) => Some((a, h.span)),
                    _ => None,
                });
                if let Some((h, hspan)) = head {
                    let name = if h.contains('$') {
                        self.substitute(h, hspan).ok()
                    } else {
                        Some(h.clone())
                    };
                    if let Some(name) = name
                        && let Some(m) = self.table.get(&name)
                    {
                        self.call(m, item, &v[1..], out);
                        return;
                    }
                }
                if let Some(size) = self.table.closed_size(v) {
                    // Nothing to substitute or call inside: share the subtree.
                    self.nodes += size - 1;
                    if !self.bump(item.span) {
                        return;
                    }
                    out.push(Node {
                        kind: NodeKind::List(v.clone()),
                        span: item.span,
                        site: 0,
                    });
                    return;
                }
                if !self.bump(item.span) {
                    return;
                }
                let mut inner = Vec::with_capacity(v.len());
                self.expand_seq(v, &mut inner);
                out.push(Node {
                    kind: NodeKind::List(inner.into()),
                    span: item.span,
                    site: 0,
                });
            }
        }
    }

    fn call(&mut self, m: &Macro, call: &Node, raw_args: &[Node], out: &mut Vec<Node>) {
        self.calls += 1;
        if self
            .table
            .index
            .get(&m.name)
            .is_some_and(|&i| self.table.recursive[i])
        {
            self.aborted = true;
            self.diags.push(
                Diagnostic::error(
                    "zrf::macro-recursive",
                    format!(
                        "macro `{}` calls itself (directly or through other macros), so its expansion never ends; this form is skipped",
                        m.name
                    ),
                    call.span,
                )
                .with_note(Some(m.span), "defined here"),
            );
            return;
        }
        if self.env.len() >= self.limits.max_macro_depth || self.calls > self.limits.max_calls {
            self.aborted = true;
            let (code, what) = if self.env.len() >= self.limits.max_macro_depth {
                (
                    "zrf::macro-depth",
                    format!(
                        "macro calls nested deeper than {} levels (is `{}` recursive?)",
                        self.limits.max_macro_depth, m.name
                    ),
                )
            } else {
                (
                    "zrf::macro-calls",
                    format!(
                        "more than {} macro calls while expanding one form",
                        self.limits.max_calls
                    ),
                )
            };
            let tail: Vec<&str> = self.env.iter().rev().take(6).map(|f| &*f.name).collect();
            let outer = self.env.first().map(|f| f.call);
            self.diags.push(
                Diagnostic::error(code, format!("{what}; this form is skipped"), call.span)
                    .with_note(
                        outer,
                        format!(
                            "expanded from this call (innermost calls: {})",
                            tail.join(" ← ")
                        ),
                    ),
            );
            return;
        }
        // Substitute the arguments in the caller's scope first.
        let mut args: Vec<Node> = Vec::with_capacity(raw_args.len());
        for a in raw_args {
            match &a.kind {
                NodeKind::List(_) => {
                    let mut tmp = Vec::new();
                    self.expand_node(a, &mut tmp);
                    if tmp.len() == 1 {
                        args.extend(tmp);
                    } else {
                        args.push(a.clone());
                    }
                }
                _ => self.expand_node(a, &mut args),
            }
        }
        if args.len() > m.arity && m.arity > 0 && self.reported_arity.insert(m.name.clone()) {
            self.diags.push(
                Diagnostic::new(
                    Severity::Note,
                    "zrf::macro-arity",
                    format!(
                        "`{}` uses ${} at most but is called with {} arguments; the extra ones are ignored",
                        m.name,
                        m.arity,
                        args.len()
                    ),
                    Some(call.span),
                )
                .with_note(Some(m.span), "defined here"),
            );
        }
        // A call whose result depends only on its own arguments is expanded once per distinct
        // argument list and shared.
        let key = if self.limits.share_calls {
            self.table.memo_key(m, &args)
        } else {
            None
        };
        let body: Arc<[Node]> = match key.as_ref().and_then(|k| self.memo.get(k)) {
            Some((nodes, size)) => {
                self.nodes += size;
                if self.nodes > self.limits.max_nodes {
                    self.bump(call.span);
                    return;
                }
                nodes.clone()
            }
            None => {
                let before = self.nodes;
                self.env.push(Frame {
                    args,
                    call: call.span,
                    name: m.name.clone(),
                });
                let mut produced = Vec::with_capacity(m.body.len());
                self.expand_seq(&m.body, &mut produced);
                self.env.pop();
                let produced: Arc<[Node]> = produced.into();
                if let Some(k) = key
                    && !self.aborted
                {
                    self.memo.insert(k, (produced.clone(), self.nodes - before));
                }
                produced
            }
        };
        // Stamp this call's site on the spliced forms (keeping a nested call's site inside it).
        let mut new_site = 0;
        for n in body.iter() {
            let site = if n.site == 0 {
                if new_site == 0 {
                    new_site = self.sites.push(call.span, m.name.clone(), 0);
                }
                new_site
            } else {
                self.sites.push(call.span, m.name.clone(), n.site)
            };
            out.push(Node {
                kind: n.kind.clone(),
                span: n.span,
                site,
            });
        }
    }
}
