//! `.lud` expansion: options (default items), defines with `#n` parameters, the project's own standard macros, ranges.
//!
//! Order (`notes/ludii.md` §2.2–2.3): options are substituted first, then macros are expanded
//! (in-file defines before the built-in library of [`BUILTIN_MACROS`]), then integer and
//! coordinate ranges are spread and `((x))` collapses to `(x)`.

use super::syntax::{self, Node};
use crate::diag::{Diagnostic, FileId, Interrupt, Severity, Span};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Diagnostic code: a call of a macro that is neither defined in the file nor built in.
pub const CODE_UNKNOWN_DEFINE: &str = "ludii::unknown-define";
/// Diagnostic code: an option use or declaration that cannot be resolved.
pub const CODE_BAD_OPTION: &str = "ludii::bad-option";
/// Diagnostic code: a malformed `(define …)`.
pub const CODE_BAD_DEFINE: &str = "ludii::bad-define";
/// Diagnostic code: macro expansion exceeded its depth or size budget.
pub const CODE_MACRO_LIMIT: &str = "ludii::macro-limit";
/// Diagnostic code: a range that cannot be spread.
pub const CODE_BAD_RANGE: &str = "ludii::bad-range";
/// Diagnostic code: an informational note about options and rulesets.
pub const CODE_OPTION_NOTE: &str = "ludii::option";

/// Maximum nested macro calls.
pub const MAX_MACRO_DEPTH: usize = 64;
/// Maximum nodes produced by expansion.
pub const MAX_NODES: usize = 1_000_000;
/// Maximum items a range may spread into (Ludii's own limit).
pub const MAX_RANGE: i64 = 1000;

/// The project's own definitions of common Ludii macros, written from their documented meaning.
pub const BUILTIN_MACROS: &str = r#"
(define "StepToEmpty" (move Step #1 (to if:(is Empty (to))) #2))
(define "StepToNotFriend" (move Step #1 (to if:(not (is Friend (who at:(to)))) (apply (remove (to)))) #2))
(define "StepToEnemy" (move Step #1 (to if:(is Enemy (who at:(to))) (apply (remove (to)))) #2))
(define "SlideCapture" (move Slide #1 (to if:(is Enemy (who at:(to))) (apply (remove (to)))) #2))
(define "HopCapture" (move Hop #1 (between if:(is Enemy (who at:(between))) (apply (remove (between)))) (to if:(is Empty (to))) #2))
(define "IsFriendAt" (is Friend (who at:#1)))
(define "IsEnemyAt" (is Enemy (who at:#1)))
(define "IsEmptyAt" (is Empty #1))
(define "TwoPlayersNorthSouth" (players {(player N) (player S)}))
(define "KnightWalk" {{F F R F} {F F L F}})
(define "BlockWin" (if (no Moves Next) (result Mover Win)))
(define "NoMovesLoss" (if (no Moves Mover) (result Mover Loss)))
(define "CaptureAll" (if (no Pieces Next) (result Mover Win)))
(define "Line3Win" (if (is Line 3) (result Mover Win)))
(define "Line4Win" (if (is Line 4) (result Mover Win)))
(define "Line5Win" (if (is Line 5) (result Mover Win)))
(define "Checkmate" (if (and (is Threatened (id #1 Next)) (no Moves Next)) (result Mover Win)))
(define "SameTurn" (is Prev Mover))
(define "ReplayIfCanMove" (if (can Move #1) (moveAgain)))
(define "PromoteIfReach" (if (is In (last To) #1) (promote (last To) (piece #2) Mover)))
"#;

/// A macro: parameters are `#1` … in its body.
#[derive(Debug, Clone)]
struct Macro {
    /// Shared, so a call does not copy the body before substituting into it.
    body: std::sync::Arc<[Node]>,
}

fn builtins() -> &'static HashMap<String, Macro> {
    static B: OnceLock<HashMap<String, Macro>> = OnceLock::new();
    B.get_or_init(|| {
        let (nodes, _) = syntax::parse(BUILTIN_MACROS, BUILTIN_FILE);
        let mut m = HashMap::new();
        for n in nodes {
            if let Some((name, body)) = define_parts(&n) {
                m.insert(name, Macro { body: body.into() });
            }
        }
        m
    })
}

/// Names of the built-in macros, sorted.
pub fn builtin_names() -> Vec<String> {
    let mut v: Vec<String> = builtins().keys().cloned().collect();
    v.sort();
    v
}

fn define_parts(n: &Node) -> Option<(String, Vec<Node>)> {
    if n.head() != Some("define") {
        return None;
    }
    let args = n.args();
    let name = args.first()?.str()?.to_string();
    Some((name, args[1..].to_vec()))
}

/// The result of expanding one file.
#[derive(Debug, Clone, Default)]
pub struct Expanded {
    /// `(game …)` or `(match …)`, expanded.
    pub game: Option<Node>,
    /// `(metadata …)`, expanded.
    pub metadata: Option<Node>,
    /// Other top-level forms that are neither defines, options nor rulesets.
    pub other: Vec<Node>,
    /// Nodes counted against [`MAX_NODES`] so far (those counted before this text included,
    /// see [`expand_counted`]).
    pub nodes: usize,
    /// The stop request was found raised: the text is not fully expanded.
    pub interrupted: bool,
}

struct Ctx<'a> {
    user: HashMap<String, Macro>,
    library: Option<&'a Library>,
    /// Calls of names defined nowhere: the first location of each name, in order.
    unknown: Vec<(String, Span)>,
    /// Options by tag: several options may share one (with different arguments).
    options: HashMap<String, Vec<OptionDecl>>,
    diags: &'a mut Vec<Diagnostic>,
    nodes: usize,
    limit_hit: bool,
    /// Polled every 4,096 nodes expanded one by one (`calls`); `interrupted` once found
    /// raised (`limit_hit` is set too).
    interrupt: &'a Interrupt,
    interrupted: bool,
    calls: u32,
}

#[derive(Debug, Clone)]
struct OptionDecl {
    /// Argument names, in order.
    args: Vec<String>,
    /// Values of the default item, one per argument.
    values: Vec<Vec<Node>>,
}

/// Option and ruleset choices for [`expand`]; without any, every option takes its default item.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Choices {
    /// Option items as `"Category/Item"` (`"Board Size/9x9"`); they override a ruleset's.
    pub options: Vec<String>,
    /// A ruleset by name: `"Ruleset/Small (Suggested)"`, or just `"Small"`.
    pub ruleset: Option<String>,
}

fn ruleset_matches(full: &str, wanted: &str) -> bool {
    let short = full.strip_prefix("Ruleset/").unwrap_or(full);
    let short = short.split(" (").next().unwrap_or(short);
    full == wanted || short == wanted
}

/// Expands parsed top-level nodes with default option items.
pub fn expand(top: Vec<Node>, diags: &mut Vec<Diagnostic>) -> Expanded {
    expand_with(top, diags, &Choices::default())
}

/// Expands parsed top-level nodes with the given option and ruleset choices.
pub fn expand_with(top: Vec<Node>, diags: &mut Vec<Diagnostic>, choices: &Choices) -> Expanded {
    expand_full(top, diags, choices, None)
}

/// Expands parsed top-level nodes with the given choices and, when given, Ludii's library of
/// defines (after the file's own defines, before the built-in macros).
pub fn expand_full(
    top: Vec<Node>,
    diags: &mut Vec<Diagnostic>,
    choices: &Choices,
    library: Option<&Library>,
) -> Expanded {
    let interrupt = Interrupt::default();
    expand_counted(top, diags, (choices, library, &interrupt), 0)
}

/// [`expand_full`] sharing one [`MAX_NODES`] budget with texts expanded before it: `counted`
/// nodes are spent already (the subgames of a match share their file's budget). `interrupt`
/// is polled every 4,096 nodes; once raised, the form is kept unexpanded with
/// `read::interrupted` and [`Expanded::interrupted`] is set.
pub fn expand_counted(
    top: Vec<Node>,
    diags: &mut Vec<Diagnostic>,
    (choices, library, interrupt): (&Choices, Option<&Library>, &Interrupt),
    counted: usize,
) -> Expanded {
    let mut ctx = Ctx {
        user: HashMap::new(),
        library,
        unknown: Vec::new(),
        options: HashMap::new(),
        diags,
        nodes: counted,
        limit_hit: false,
        interrupt,
        interrupted: false,
        calls: 0,
    };
    let mut others = Vec::new();
    let mut option_nodes = Vec::new();
    let mut ruleset_nodes = Vec::new();
    for n in top {
        match n.head() {
            Some("option") => option_nodes.push(n),
            Some("rulesets") => ruleset_nodes.push(n),
            _ => others.push(n),
        }
    }
    let chosen = chosen_items(&ruleset_nodes, choices, ctx.diags);
    let mut used = vec![false; chosen.len()];
    for n in &option_nodes {
        option_decl(n, &mut ctx, &chosen, &mut used);
    }
    for (c, u) in chosen.iter().zip(&used) {
        if !u {
            ctx.diags.push(Diagnostic::new(
                Severity::Error,
                CODE_BAD_OPTION,
                format!("the choice \"{c}\" names no option item of this file"),
                None,
            ));
        }
    }
    // Options apply to the whole text first (defines may sit in option values), then the
    // file's defines are collected.
    let mut rest = Vec::new();
    for n in others {
        let subst = if !has_opt_ref(&n) {
            vec![n]
        } else {
            subst_options_seq(vec![n], &mut ctx)
        };
        for n in subst {
            if n.head() == Some("define") {
                collect_define(n, &mut ctx);
            } else if has_nested_define(&n) {
                // Ludii takes defines from anywhere in the text (option values put some
                // inside the game).
                rest.extend(extract_defines(n, &mut ctx));
            } else {
                rest.push(n);
            }
        }
    }
    // Only defines that call defines of this file can run away.
    let risky = ctx.user.values().any(|m| {
        let mut stack: Vec<&Node> = m.body.iter().collect();
        while let Some(n) = stack.pop() {
            match n {
                Node::Str(s, _) if ctx.user.contains_key(s) => return true,
                Node::List(items, _) | Node::Array(items, _) | Node::Angle(items, _) => {
                    stack.extend(items.iter())
                }
                Node::Named(_, v, _) => stack.push(v),
                _ => {}
            }
        }
        false
    });
    let mut out = Expanded::default();
    for n in rest {
        let head = n.head().map(str::to_string);
        let span = n.span();
        // Kept so that a runaway expansion leaves the form as written, not a huge partial tree.
        let original = risky.then(|| n.clone());
        let mut ex = expand_node(n, &mut ctx, 0, true);
        let n = match (ctx.limit_hit, original) {
            (true, Some(o)) => o,
            _ if ex.len() == 1 => ex.pop().unwrap(),
            _ => Node::List(ex, span),
        };
        let n = spread(n, &mut ctx);
        match head.as_deref() {
            Some("game") | Some("match") if out.game.is_none() => out.game = Some(n),
            Some("metadata") => out.metadata = Some(n),
            _ => out.other.push(n),
        }
    }
    report_unknown(&mut ctx);
    out.nodes = ctx.nodes;
    out.interrupted = ctx.interrupted;
    out
}

/// The option items chosen: the chosen ruleset's (`--ruleset`) first, then the explicit ones.
fn chosen_items(
    ruleset_nodes: &[Node],
    choices: &Choices,
    diags: &mut Vec<Diagnostic>,
) -> Vec<String> {
    let mut chosen: Vec<String> = Vec::new();
    let rulesets: Vec<(&Node, String, Vec<String>)> = ruleset_nodes
        .iter()
        .flat_map(|n| n.args().iter())
        .flat_map(|a| a.args().iter())
        .filter(|r| r.head() == Some("ruleset"))
        .filter_map(|r| {
            let name = r.args().first()?.str()?.to_string();
            let items = r
                .args()
                .iter()
                .filter_map(|a| match a {
                    Node::Array(items, _) => Some(items),
                    _ => None,
                })
                .flatten()
                .filter_map(|i| i.str().map(str::to_string))
                .collect();
            Some((r, name, items))
        })
        .collect();
    let names = rulesets
        .iter()
        .map(|(_, n, _)| n.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    match &choices.ruleset {
        Some(wanted) => match rulesets.iter().find(|(_, n, _)| ruleset_matches(n, wanted)) {
            Some((r, name, items)) => {
                diags.push(Diagnostic::new(
                    Severity::Note,
                    CODE_OPTION_NOTE,
                    format!("ruleset \"{name}\" applied"),
                    Some(r.span()),
                ));
                chosen.extend(items.iter().cloned());
            }
            None => diags.push(Diagnostic::new(
                Severity::Error,
                CODE_BAD_OPTION,
                format!(
                    "no ruleset \"{wanted}\"; the file has: {}",
                    names
                ),
                ruleset_nodes.first().map(|n| n.span()),
            )),
        },
        None if !rulesets.is_empty() => diags.push(Diagnostic::new(
            Severity::Note,
            CODE_OPTION_NOTE,
            format!(
                "rulesets ({}) are available; none was chosen, so the default option items are used",
                names
            ),
            ruleset_nodes.first().map(|n| n.span()),
        )),
        None => {}
    }
    chosen.extend(choices.options.iter().cloned());
    chosen
}

/// One error for the names defined nowhere: without a library, a single one per file that
/// says how to point zogkit at Ludii's defines; with one, one per name.
fn report_unknown(ctx: &mut Ctx) {
    let Some((first, span)) = ctx.unknown.first().cloned() else {
        return;
    };
    match ctx.library {
        None => {
            let more = match ctx.unknown.len() {
                1 => String::new(),
                k => format!(
                    " (and {} more: {})",
                    k - 1,
                    ctx.unknown[1..]
                        .iter()
                        .take(8)
                        .map(|(n, _)| format!("\"{n}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                        + if k > 9 { ", …" } else { "" }
                ),
            };
            ctx.diags.push(
                Diagnostic::error(
                    CODE_UNKNOWN_DEFINE,
                    format!(
                        "`\"{first}\"`{more} is defined neither in this file nor built in; \
                         Ludii's library defines are read from your Ludii"
                    ),
                    span,
                )
                .with_note(None, LIBRARY_HINT),
            );
        }
        Some(lib) => {
            for (name, span) in std::mem::take(&mut ctx.unknown) {
                ctx.diags.push(Diagnostic::error(
                    CODE_UNKNOWN_DEFINE,
                    format!(
                        "`(\"{name}\" …)` calls a define that is neither in this file nor in \
                         Ludii's library ({})",
                        lib.origin
                    ),
                    span,
                ));
            }
        }
    }
}

/// How to give zogkit Ludii's defines (the note of [`CODE_UNKNOWN_DEFINE`] without a library).
pub const LIBRARY_HINT: &str = "point zogkit at Ludii with `--ludii PATH` (a Ludii jar such as \
     Ludii-1.3.12.jar, or a folder of .def files) or the environment variable LUDII_HOME";

fn has_nested_define(n: &Node) -> bool {
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        match n {
            Node::List(items, _) if n.head() == Some("define") => return !items.is_empty(),
            Node::List(items, _) | Node::Array(items, _) | Node::Angle(items, _) => {
                stack.extend(items.iter())
            }
            Node::Named(_, v, _) => stack.push(v),
            _ => {}
        }
    }
    false
}

/// `n` without the `(define …)` forms inside it, which are collected (depth is bounded by
/// the parser's nesting limit).
fn extract_defines(n: Node, ctx: &mut Ctx) -> Option<Node> {
    let strip = |items: Vec<Node>, ctx: &mut Ctx| -> Vec<Node> {
        items
            .into_iter()
            .filter_map(|c| extract_defines(c, ctx))
            .collect()
    };
    match n {
        Node::List(..) if n.head() == Some("define") => {
            collect_define(n, ctx);
            None
        }
        Node::List(items, s) => Some(Node::List(strip(items, ctx), s)),
        Node::Array(items, s) => Some(Node::Array(strip(items, ctx), s)),
        Node::Angle(items, s) => Some(Node::Angle(strip(items, ctx), s)),
        Node::Named(k, v, s) => {
            let v = extract_defines(*v, ctx)?;
            Some(Node::Named(k, Box::new(v), s))
        }
        other => Some(other),
    }
}

fn collect_define(n: Node, ctx: &mut Ctx) {
    match define_parts(&n) {
        Some((name, body)) => {
            if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
                ctx.diags.push(Diagnostic::warning(
                    CODE_BAD_DEFINE,
                    format!("define name `{name}` should start with an upper-case letter"),
                    n.span(),
                ));
            }
            // Ludii's defines are textual: several forms after the name splice.
            ctx.user.insert(name, Macro { body: body.into() });
        }
        None => ctx.diags.push(Diagnostic::error(
            CODE_BAD_DEFINE,
            "`(define …)` needs a quoted name and a body",
            n.span(),
        )),
    }
}

fn option_decl(n: &Node, ctx: &mut Ctx, chosen: &[String], used: &mut [bool]) {
    let category = n.args().first().and_then(|a| a.str()).unwrap_or("");
    // (option "Category" <Tag> args:{ <a> <b> } { (item "Name" <v>… "desc")* … })
    let tag = n.args().iter().find_map(|a| match a {
        Node::OptRef(t, None, _) => Some(t.clone()),
        _ => None,
    });
    let Some(tag) = tag else {
        ctx.diags.push(Diagnostic::error(
            CODE_BAD_OPTION,
            "`(option …)` needs a `<Tag>`",
            n.span(),
        ));
        return;
    };
    let args: Vec<String> = match n.named("args") {
        Some(Node::Array(items, _)) => items
            .iter()
            .filter_map(|a| match a {
                Node::OptRef(t, None, _) => Some(t.clone()),
                // `<3dSites>` (not a tag: it starts with a digit).
                Node::Angle(v, _) => match v.as_slice() {
                    [Node::Atom(t, _)] => Some(t.clone()),
                    _ => None,
                },
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let items = n.positional().filter_map(|a| match a {
        Node::Array(items, _) => Some(items),
        _ => None,
    });
    let Some(items) = items.last() else {
        ctx.diags.push(Diagnostic::error(
            CODE_BAD_OPTION,
            format!("option <{tag}> has no `{{ (item …) }}` list"),
            n.span(),
        ));
        return;
    };
    // Default: the item with the most trailing `*`; the first on ties.
    let mut best: Option<(&Node, usize)> = None;
    let mut idx = 0;
    while idx < items.len() {
        let it = &items[idx];
        let mut stars = 0;
        while let Some(Node::Atom(a, _)) = items.get(idx + 1) {
            if a.chars().all(|c| c == '*') {
                stars += a.len();
                idx += 1;
            } else {
                break;
            }
        }
        if it.head() == Some("item") && best.is_none_or(|(_, s)| stars > s) {
            best = Some((it, stars));
        }
        idx += 1;
    }
    let Some((mut item, _)) = best else {
        ctx.diags.push(Diagnostic::error(
            CODE_BAD_OPTION,
            format!("option <{tag}> has no items"),
            n.span(),
        ));
        return;
    };
    // A choice "Category/Item" (the last one wins).
    let mut how = "default";
    for (k, c) in chosen.iter().enumerate() {
        let Some((cat, name)) = c.split_once('/') else {
            continue;
        };
        if cat != category {
            continue;
        }
        match items.iter().find(|i| {
            i.head() == Some("item") && i.args().first().and_then(|a| a.str()) == Some(name)
        }) {
            Some(i) => {
                item = i;
                how = "chosen";
                used[k] = true;
            }
            None => {
                used[k] = true;
                ctx.diags.push(Diagnostic::error(
                    CODE_BAD_OPTION,
                    format!("option \"{category}\" has no item \"{name}\""),
                    n.span(),
                ));
            }
        }
    }
    // Values are text between `<` and `>`: `<Loss>` is the atom `Loss`, `<numSides:6>` the
    // named argument `numSides:6`. Missing values substitute nothing, as in Ludii.
    let values: Vec<Vec<Node>> = item
        .args()
        .iter()
        .filter_map(|a| match a {
            Node::Angle(v, _) => Some(v.clone()),
            Node::OptRef(t, None, s) => Some(vec![Node::Atom(t.clone(), *s)]),
            Node::OptRef(t, Some(v), s) => Some(vec![Node::Named(
                t.clone(),
                Box::new(Node::Atom(v.clone(), *s)),
                *s,
            )]),
            _ => None,
        })
        .collect();
    let name = item.args().first().and_then(|a| a.str()).unwrap_or("?");
    ctx.diags.push(Diagnostic::new(
        Severity::Note,
        CODE_OPTION_NOTE,
        format!("option <{tag}>: {how} item \"{name}\" used"),
        Some(item.span()),
    ));
    ctx.options
        .entry(tag)
        .or_default()
        .push(OptionDecl { args, values });
}

fn has_opt_ref(n: &Node) -> bool {
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        match n {
            Node::OptRef(..) => return true,
            Node::List(items, _) | Node::Array(items, _) | Node::Angle(items, _) => {
                stack.extend(items.iter())
            }
            Node::Named(_, v, _) => stack.push(v),
            _ => {}
        }
    }
    false
}

fn subst_options_seq(items: Vec<Node>, ctx: &mut Ctx) -> Vec<Node> {
    let mut out = Vec::with_capacity(items.len());
    for n in items {
        match n {
            Node::OptRef(tag, arg, span) => match ctx.options.get(&tag) {
                Some(decls) => {
                    let (decl, idx) = match &arg {
                        Some(a) => decls
                            .iter()
                            .find_map(|d| Some((d, d.args.iter().position(|x| x == a)?)))
                            .map_or((&decls[0], None), |(d, i)| (d, Some(i))),
                        None => (&decls[0], Some(0)),
                    };
                    match idx.map(|i| decl.values.get(i)) {
                        // Values are not substituted again (an option cannot refer to itself).
                        Some(Some(v)) => out.extend(v.iter().cloned()),
                        Some(None) => {}
                        None => ctx.diags.push(Diagnostic::error(
                            CODE_BAD_OPTION,
                            format!(
                                "option <{tag}> has no argument `{}`",
                                arg.as_deref().unwrap_or("")
                            ),
                            span,
                        )),
                    }
                }
                None => ctx.diags.push(Diagnostic::error(
                    CODE_BAD_OPTION,
                    format!("unknown option <{tag}>"),
                    span,
                )),
            },
            Node::List(items, s) => out.push(Node::List(subst_options_seq(items, ctx), s)),
            Node::Array(items, s) => out.push(Node::Array(subst_options_seq(items, ctx), s)),
            Node::Angle(items, s) => out.push(Node::Angle(subst_options_seq(items, ctx), s)),
            Node::Named(name, v, s) => {
                let vspan = v.span();
                let mut v2 = subst_options_seq(vec![*v], ctx);
                let v2 = if v2.len() == 1 {
                    v2.pop().unwrap()
                } else {
                    Node::Array(v2, vspan)
                };
                out.push(Node::Named(name, Box::new(v2), s));
            }
            other => out.push(other),
        }
    }
    out
}

fn lookup<'a>(ctx: &'a Ctx, name: &str) -> Option<&'a Macro> {
    ctx.user
        .get(name)
        .or_else(|| ctx.library.and_then(|l| l.macros.get(name)))
        .or_else(|| builtins().get(name))
}

/// Expands one node into zero or more nodes (a call may splice several, or vanish).
fn expand_node(n: Node, ctx: &mut Ctx, depth: usize, protect_first: bool) -> Vec<Node> {
    ctx.nodes += 1;
    ctx.calls = ctx.calls.wrapping_add(1);
    if ctx.calls & 0xFFF == 0 && !ctx.limit_hit && ctx.interrupt.raised() {
        ctx.limit_hit = true;
        ctx.interrupted = true;
        ctx.diags.push(Interrupt::error(n.span()));
        return vec![n];
    }
    if ctx.nodes > MAX_NODES || depth > MAX_MACRO_DEPTH + syntax::MAX_DEPTH {
        if !ctx.limit_hit {
            ctx.limit_hit = true;
            ctx.diags.push(Diagnostic::error(
                CODE_MACRO_LIMIT,
                "macro expansion exceeds its size or depth budget; the form is kept unexpanded",
                n.span(),
            ));
        }
        return vec![n];
    }
    match n {
        Node::List(mut items, span) => {
            if let Some(Node::Str(..)) = items.first() {
                let Node::Str(name, nspan) = items.remove(0) else {
                    unreachable!()
                };
                return call(&name, nspan, items, span, ctx, depth);
            }
            // The string after `game`, `match` and `instance` is never expanded.
            let protect = matches!(
                items.first(),
                Some(Node::Atom(h, _)) if matches!(h.as_str(), "game" | "match" | "instance" | "subgame")
            );
            let mut out = Vec::with_capacity(items.len());
            for (i, c) in items.into_iter().enumerate() {
                if protect && i == 1 {
                    out.push(c);
                } else {
                    out.extend(expand_node(c, ctx, depth + 1, false));
                }
            }
            // `((x))` collapses to `(x)`.
            if out.len() == 1 && matches!(out[0], Node::List(..)) && !protect_first {
                return out;
            }
            vec![Node::List(out, span)]
        }
        Node::Array(items, span) => {
            let mut out = Vec::with_capacity(items.len());
            for c in items {
                out.extend(expand_node(c, ctx, depth + 1, false));
            }
            vec![Node::Array(out, span)]
        }
        Node::Named(name, v, span) => {
            let vspan = v.span();
            let mut v2 = expand_node(*v, ctx, depth + 1, false);
            match v2.len() {
                0 => Vec::new(),
                1 => vec![Node::Named(name, Box::new(v2.pop().unwrap()), span)],
                _ => vec![Node::Named(name, Box::new(Node::Array(v2, vspan)), span)],
            }
        }
        Node::Str(name, span) => {
            if lookup(ctx, &name).is_some() {
                call(&name, span, Vec::new(), span, ctx, depth)
            } else {
                vec![Node::Str(name, span)]
            }
        }
        Node::Atom(a, _) if a == "~" => Vec::new(),
        other => vec![other],
    }
}

fn call(
    name: &str,
    nspan: Span,
    args: Vec<Node>,
    span: Span,
    ctx: &mut Ctx,
    depth: usize,
) -> Vec<Node> {
    if ctx.limit_hit {
        // The budget is spent: keep the call as written instead of substituting further.
        return vec![Node::List(
            std::iter::once(Node::Str(name.to_string(), nspan))
                .chain(args)
                .collect(),
            span,
        )];
    }
    let Some(m) = lookup(ctx, name).cloned() else {
        if !ctx.unknown.iter().any(|(n, _)| n == name) {
            ctx.unknown.push((name.to_string(), nspan));
        }
        return vec![Node::List(
            std::iter::once(Node::Str(name.to_string(), nspan))
                .chain(args)
                .collect(),
            span,
        )];
    };
    // Arguments are expanded in the caller's context before substitution.
    let mut actual: Vec<Option<Node>> = Vec::with_capacity(args.len());
    for a in args {
        if matches!(&a, Node::Atom(t, _) if t == "~") {
            actual.push(None);
            continue;
        }
        let aspan = a.span();
        let mut e = expand_node(a, ctx, depth + 1, false);
        actual.push(match e.len() {
            0 => None,
            1 => e.pop(),
            _ => Some(Node::Array(e, aspan)),
        });
    }
    // Substituted arguments can grow the body far beyond what was expanded so far (and each
    // level of a self-feeding define doubles it): predict the size first, and stop when the
    // budget is spent, here or while the arguments were expanded.
    let arg_sizes: Vec<usize> = actual
        .iter()
        .map(|a| a.as_ref().map_or(0, Node::size))
        .collect();
    let predicted: usize = m.body.iter().map(|b| subst_size(b, &arg_sizes)).sum();
    ctx.nodes = ctx.nodes.saturating_add(predicted);
    if ctx.limit_hit || ctx.nodes > MAX_NODES {
        if !ctx.limit_hit {
            ctx.limit_hit = true;
            ctx.diags.push(Diagnostic::error(
                CODE_MACRO_LIMIT,
                "macro expansion exceeds its size or depth budget; the form is kept unexpanded",
                span,
            ));
        }
        return vec![Node::List(
            std::iter::once(Node::Str(name.to_string(), nspan))
                .chain(actual.into_iter().flatten())
                .collect(),
            span,
        )];
    }
    let mut body = subst_params(&m.body, &actual);
    // Built-in macro text has no file to show: its nodes take the call's location.
    for b in &mut body {
        respan_builtin(b, span);
    }
    let mut out = Vec::new();
    for b in body {
        out.extend(expand_node(b, ctx, depth + 2, false));
    }
    out
}

/// The file id of the built-in macro library's text.
pub const BUILTIN_FILE: FileId = FileId(u32::MAX);
/// The file id of the text of Ludii's library defines (nodes take the call's location).
pub const LIBRARY_FILE: FileId = FileId(u32::MAX - 1);

/// Ludii's library of defines (`def/**/*.def`, one define per file), read from the user's
/// Ludii. Files define names; a call is resolved in the file first, then here, then among
/// [`BUILTIN_MACROS`].
#[derive(Debug, Clone, Default)]
pub struct Library {
    macros: HashMap<String, Macro>,
    /// The library's games by file stem (`Portes` for `lud/board/race/escape/Portes.lud`):
    /// the subgames a `(match …)` names.
    games: std::collections::BTreeMap<String, String>,
    /// Where the defines were read from (shown in messages).
    pub origin: String,
}

/// Largest total size of define text read into one [`Library`].
pub const MAX_LIBRARY_BYTES: usize = 64 << 20;

impl Library {
    /// An empty library read from `origin`.
    pub fn new(origin: &str) -> Library {
        Library {
            macros: HashMap::new(),
            games: Default::default(),
            origin: origin.to_string(),
        }
    }

    /// Adds a game of the library (`stem`: its file name without `.lud`), which a `(match …)`
    /// may name as a subgame.
    pub fn add_game(&mut self, stem: &str, text: String) {
        self.games.insert(stem.to_string(), text);
    }

    /// The text of the library's game whose file is `<name>.lud`.
    pub fn game(&self, name: &str) -> Option<&str> {
        self.games.get(name).map(String::as_str)
    }

    /// Adds the defines of one `.def` text (`file` names it in problems). Returns the problems.
    pub fn add(&mut self, file: &str, text: &str) -> Vec<String> {
        let (nodes, diags) = syntax::parse(text, LIBRARY_FILE);
        let mut problems: Vec<String> = diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| format!("{file}: {}", d.message))
            .collect();
        for n in nodes {
            match define_parts(&n) {
                Some((name, body)) if body.len() == 1 => {
                    self.macros.insert(name, Macro { body: body.into() });
                }
                _ => problems.push(format!("{file}: not a `(define \"Name\" body)`")),
            }
        }
        problems
    }

    /// Reads every `.def` entry below a `def/` folder of a zip archive (a Ludii jar), and the
    /// library's games. The bytes really extracted count against [`MAX_LIBRARY_BYTES`] (one
    /// budget for the defines, one for the games), whatever the directory declares.
    pub fn from_zip<R: std::io::Read + std::io::Seek>(
        origin: &str,
        zip: R,
    ) -> Result<(Library, Vec<String>), String> {
        let mut zip = super::jar::Archive::open(zip)?;
        let mut lib = Library::new(origin);
        let mut problems = Vec::new();
        let (mut defines, mut games) = (0usize, 0usize);
        let entries = zip.entries().to_vec();
        for e in &entries {
            let game = library_game_stem(&e.name);
            let in_def = e.name.starts_with("def/") || e.name.contains("/def/");
            if game.is_none() && !(in_def && e.name.ends_with(".def")) {
                continue;
            }
            let (used, what) = match game {
                Some(_) => (&mut games, "games"),
                None => (&mut defines, "defines"),
            };
            let left = MAX_LIBRARY_BYTES - *used;
            if e.size > left {
                return Err(format!("the {what} exceed {MAX_LIBRARY_BYTES} bytes"));
            }
            let bytes = match zip.read(e, left) {
                Ok(b) => b,
                Err(err) => {
                    problems.push(err);
                    continue;
                }
            };
            *used += bytes.len();
            match game {
                Some(stem) => lib.add_game(stem, String::from_utf8_lossy(&bytes).into_owned()),
                None => problems.extend(lib.add(&e.name, &String::from_utf8_lossy(&bytes))),
            }
        }
        if lib.is_empty() {
            return Err("it holds no `def/….def` entries (is it a Ludii jar?)".into());
        }
        Ok((lib, problems))
    }

    /// Number of defines.
    pub fn len(&self) -> usize {
        self.macros.len()
    }

    /// True when no define was read.
    pub fn is_empty(&self) -> bool {
        self.macros.is_empty()
    }
}

/// The file stem of a game of Ludii's library in its jar (`lud/board/…/Portes.lud`,
/// `lud/subgame/…/X.lud`); `None` for other entries.
fn library_game_stem(entry: &str) -> Option<&str> {
    let rest = entry.strip_prefix("lud/")?.strip_suffix(".lud")?;
    Some(rest.rsplit('/').next().unwrap_or(rest))
}

fn respan_builtin(n: &mut Node, call: Span) {
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        let s = match n {
            Node::List(items, s) | Node::Array(items, s) | Node::Angle(items, s) => {
                stack.extend(items.iter_mut());
                s
            }
            Node::Named(_, v, s) => {
                stack.push(&mut **v);
                s
            }
            Node::OptRef(_, _, s) | Node::Atom(_, s) | Node::Str(_, s) => s,
        };
        if s.file == BUILTIN_FILE || s.file == LIBRARY_FILE {
            *s = call;
        }
    }
}

fn param_index(a: &str) -> Option<usize> {
    let n: usize = a.strip_prefix('#')?.parse().ok()?;
    (1..=20).contains(&n).then_some(n - 1)
}

/// The size of `n` once `#k` parameters are replaced by arguments of the given sizes.
fn subst_size(n: &Node, arg_sizes: &[usize]) -> usize {
    match n {
        Node::Atom(a, _) => match param_index(a) {
            Some(i) => arg_sizes.get(i).copied().unwrap_or(0),
            None => 1,
        },
        Node::List(v, _) | Node::Array(v, _) | Node::Angle(v, _) => {
            v.iter().fold(1usize, |acc, c| {
                acc.saturating_add(subst_size(c, arg_sizes))
            })
        }
        Node::Named(_, v, _) => 1usize.saturating_add(subst_size(v, arg_sizes)),
        _ => 1,
    }
}

fn subst_params(body: &[Node], args: &[Option<Node>]) -> Vec<Node> {
    let mut out = Vec::with_capacity(body.len());
    for n in body {
        match n {
            Node::Atom(a, _) => match param_index(a) {
                Some(i) => {
                    if let Some(Some(v)) = args.get(i) {
                        out.push(v.clone());
                    }
                }
                None => out.push(n.clone()),
            },
            Node::List(items, s) => out.push(Node::List(subst_params(items, args), *s)),
            Node::Array(items, s) => out.push(Node::Array(subst_params(items, args), *s)),
            Node::Angle(items, s) => out.push(Node::Angle(subst_params(items, args), *s)),
            Node::Named(name, v, s) => {
                let mut v2 = subst_params(std::slice::from_ref(v), args);
                if let Some(v2) = v2.pop() {
                    out.push(Node::Named(name.clone(), Box::new(v2), *s));
                }
            }
            Node::Str(text, s) if text.contains('#') => {
                // Textual substitution inside strings (`"Promoted#1"`).
                let mut t = text.clone();
                for i in (0..args.len()).rev() {
                    let key = format!("#{}", i + 1);
                    if let Some(Some(Node::Str(v, _) | Node::Atom(v, _))) = args.get(i) {
                        t = t.replace(&key, v);
                    }
                }
                out.push(Node::Str(t, *s));
            }
            other => out.push(other.clone()),
        }
    }
    out
}

/// Spreads `3..5` and `"A1".."C3"` ranges in classes and arrays.
fn spread(n: Node, ctx: &mut Ctx) -> Node {
    match n {
        Node::List(items, s) => Node::List(spread_seq(items, ctx), s),
        Node::Array(items, s) => Node::Array(spread_seq(items, ctx), s),
        Node::Named(name, v, s) => Node::Named(name, Box::new(spread(*v, ctx)), s),
        other => other,
    }
}

fn spread_seq(items: Vec<Node>, ctx: &mut Ctx) -> Vec<Node> {
    let mut out: Vec<Node> = Vec::with_capacity(items.len());
    for n in items {
        // "A1".."C3": the `..` atom follows a string already pushed.
        if let Node::Str(b, sb) = &n
            && let [.., Node::Str(a, sa), Node::Atom(dots, _)] = out.as_slice()
            && dots == ".."
        {
            let span = sa.to(*sb);
            let (a, b) = (a.clone(), b.clone());
            out.truncate(out.len() - 2);
            match coord_range(&a, &b) {
                Some(v) => out.extend(v.into_iter().map(|l| Node::Str(l, span))),
                None => ctx.diags.push(Diagnostic::error(
                    CODE_BAD_RANGE,
                    format!("cannot spread \"{a}\"..\"{b}\""),
                    span,
                )),
            }
            continue;
        }
        if let Node::Atom(a, s) = &n
            && let Some((x, y)) = a.split_once("..")
            && let (Ok(x), Ok(y)) = (x.parse::<i64>(), y.parse::<i64>())
        {
            if (y - x).abs() >= MAX_RANGE {
                ctx.diags.push(Diagnostic::error(
                    CODE_BAD_RANGE,
                    format!("range {a} spreads into more than {MAX_RANGE} items"),
                    *s,
                ));
            } else {
                let step = if y >= x { 1 } else { -1 };
                let mut k = x;
                loop {
                    out.push(Node::Atom(k.to_string(), *s));
                    if k == y {
                        break;
                    }
                    k += step;
                }
            }
            continue;
        }
        out.push(spread(n, ctx));
    }
    out
}

/// Splits a label `AB12` into a 0-based column and a 1-based row.
pub fn split_label(l: &str) -> Option<(usize, usize)> {
    let letters: String = l.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    let digits = &l[letters.len()..];
    if letters.is_empty() || digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut col = 0usize;
    for c in letters.chars() {
        col = col * 26 + (c.to_ascii_uppercase() as usize - 'A' as usize + 1);
    }
    Some((col - 1, digits.parse().ok()?))
}

pub use crate::spec::geometry::tiling::col_letters;

fn coord_range(a: &str, b: &str) -> Option<Vec<String>> {
    let (c1, r1) = split_label(a)?;
    let (c2, r2) = split_label(b)?;
    let (c1, c2) = (c1.min(c2), c1.max(c2));
    let (r1, r2) = (r1.min(r2), r1.max(r2));
    if (c2 - c1 + 1) * (r2 - r1 + 1) > MAX_RANGE as usize {
        return None;
    }
    let mut v = Vec::new();
    for c in c1..=c2 {
        for r in r1..=r2 {
            v.push(format!("{}{r}", col_letters(c)));
        }
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(s: &str) -> (Expanded, Vec<Diagnostic>) {
        let (n, mut d) = syntax::parse(s, FileId(0));
        let e = expand(n, &mut d);
        (e, d)
    }

    #[test]
    fn defines_options_and_ranges() {
        let (e, d) = ex(r#"
            (define "Two" (pair #1 #2))
            (option "Size" <Size> args:{<n> <m>} { (item "small" <4> <5> "s") (item "big" <8> <9> "b")** })
            (game "T" ("Two" <Size:n> ~) {1..3 "A1".."B2"} ("StepToEmpty" Orthogonal) (x (("Two" a b))))
        "#);
        assert!(d.iter().all(|x| x.severity < Severity::Warning), "{d:?}");
        assert_eq!(
            syntax::print(e.game.as_ref().unwrap()),
            "(game \"T\" (pair 8) {1 2 3 \"A1\" \"A2\" \"B1\" \"B2\"} (move Step Orthogonal (to if:(is Empty (to)))) (x (pair a b)))"
        );
    }

    #[test]
    fn errors_are_located() {
        let (_, d) = ex("(game \"T\" (\"Nope\" 1) <Missing>)");
        let codes: Vec<_> = d.iter().map(|x| x.code).collect();
        assert!(codes.contains(&CODE_UNKNOWN_DEFINE), "{codes:?}");
        assert!(codes.contains(&CODE_BAD_OPTION), "{codes:?}");
        let (_, d) = ex("(define \"Boom\" (x \"Boom\" \"Boom\")) (game \"T\" \"Boom\")");
        assert!(d.iter().any(|x| x.code == CODE_MACRO_LIMIT));
    }

    #[test]
    fn library_defines_resolve_after_the_files_and_are_reported_once_without_it() {
        let mut lib = Library::new("test");
        assert!(
            lib.add(
                "a.def",
                "// doc\n(define \"Twice\" (pair #1 (\"Once\" #1)))"
            )
            .is_empty()
        );
        assert!(lib.add("b.def", "(define \"Once\" (one #1))").is_empty());
        assert!(!lib.add("c.def", "(something else)").is_empty());
        let text = r#"(define "Once" (mine #1)) (game "T" ("Twice" 3) ("Other" 1) ("Third"))"#;
        let (n, mut d) = syntax::parse(text, FileId(0));
        let e = expand_full(n, &mut d, &Choices::default(), Some(&lib));
        // The file's own "Once" wins over the library's, also inside a library define.
        assert_eq!(
            syntax::print(e.game.as_ref().unwrap()),
            "(game \"T\" (pair 3 (mine 3)) (\"Other\" 1) (\"Third\"))"
        );
        let unknown: Vec<_> = d.iter().filter(|x| x.code == CODE_UNKNOWN_DEFINE).collect();
        assert_eq!(unknown.len(), 2, "{d:?}");
        // Without the library: one error for the file, located at the first call, with the hint.
        let (n, mut d) = syntax::parse(text, FileId(0));
        expand_full(n, &mut d, &Choices::default(), None);
        let unknown: Vec<_> = d.iter().filter(|x| x.code == CODE_UNKNOWN_DEFINE).collect();
        assert_eq!(unknown.len(), 1, "{d:?}");
        assert!(unknown[0].message.contains("\"Twice\"") && unknown[0].message.contains("2 more"));
        assert_eq!(
            unknown[0].span.map(|s| s.start),
            text.find("\"Twice\"").map(|i| i as u32)
        );
        assert!(unknown[0].notes.iter().any(|n| n.1.contains("--ludii")));
    }

    #[test]
    fn option_values_are_text_and_defines_come_from_options() {
        let (e, d) = ex(r#"
            (option "End" <Result> args:{<type>} { (item "S" <Loss> "s")* (item "M" <Win> "m") })
            (option "Tiles" <Tiling> args:{<tile> <numSides>} { (item "H" <"Hex"> <numSides:6> "h")* })
            (option "V" <Version> args:{<v>} { (item "A" <(define "Rule" (rule 1))> "a")* })
            (game "T" (<Result>) (tile <Tiling:tile> Each <Tiling:numSides>) ("Rule") <Version>)
        "#);
        assert!(d.iter().all(|x| x.severity < Severity::Warning), "{d:?}");
        assert_eq!(
            syntax::print(e.game.as_ref().unwrap()),
            "(game \"T\" (Loss) (tile \"Hex\" Each numSides:6) (rule 1))"
        );
    }

    #[test]
    fn labels() {
        assert_eq!(col_letters(0), "A");
        assert_eq!(col_letters(25), "Z");
        assert_eq!(col_letters(26), "AA");
        assert_eq!(split_label("AA3"), Some((26, 3)));
        assert_eq!(split_label("E10"), Some((4, 10)));
    }
}
