//! Fidelity of a port: the written file is read back and both are played; a verdict per game.
//!
//! [`verify`] takes the source document, the bytes a writer produced and the writer's own
//! diagnostics. It reads the bytes back with the target format's reader, compiles each source
//! game and its counterpart with the engine, compares their legal moves on seeded random
//! playouts ([`crate::engine::compare`]), then their perft from the start: depth 2, and depth 3
//! when depth 2 is under 20,000 ([`GameVerdict::perft`]). The verdict is:
//! - [`Verdict::Equal`]: same moves on every compared position, same perft, and nothing
//!   reported lost;
//! - [`Verdict::Partial`]: the writer reported constructs it could not express (listed), or the
//!   format holds fewer games than the source;
//! - [`Verdict::Failed`]: the port plays differently (a playout position or a perft count)
//!   although the writer reported no loss, or cannot be read back or played after the writer
//!   reported a loss; or the writer reported an error, which fails the file in `convert` too (a
//!   Chessembly script that keeps fewer than half of the pieces);
//! - [`Verdict::Unverified`]: the engine cannot run the source game; or zogkit cannot read back
//!   or play what it wrote although the writer reported no loss, which is a writer bug and
//!   proves nothing about the port; or the engine's step limit stopped a move block of either
//!   game (its move list may be incomplete).

use crate::diag::Span;
use crate::diag::{Diagnostic, Severity};
use crate::engine::{self, Rules};
use crate::format::{self, Format, ReadOptions};
use crate::spec::{Document, EntryKind, Origins};
use serde::Serialize;

/// Diagnostic code: a written game plays differently from its source, or cannot be read back
/// or played.
pub const CODE_FAILED: &str = "verify::failed";
/// Diagnostic code: a written game is a partial port (what was lost is listed).
pub const CODE_PARTIAL: &str = "verify::partial";
/// Diagnostic code: the engine cannot run the source game, so the port is not proved.
pub const CODE_UNVERIFIED: &str = "verify::unverified";

/// How faithful one written game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Plays the same on every compared position; nothing was lost.
    Equal,
    /// Something was lost (listed).
    Partial,
    /// Plays differently, or does not read back or play.
    Failed,
    /// The source cannot be run, or the step limit stopped the comparison, so the port is not
    /// proved either way.
    Unverified,
}

impl GameVerdict {
    /// What was found the same: "plays the same on N positions and to perft(D) = n".
    pub fn same(&self) -> String {
        let perft = self
            .perft
            .last()
            .map(|p| format!(" and to perft({}) = {}", p.depth, p.source))
            .unwrap_or_default();
        format!("plays the same on {} positions{perft}", self.positions)
    }
}

/// Perft (the number of move sequences `depth` plies deep) of the source and of the port.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PerftPair {
    /// Plies.
    pub depth: u32,
    /// The source's count.
    pub source: u64,
    /// The port's count.
    pub port: u64,
}

/// The verdict for one game of the source.
#[derive(Debug, Clone, Serialize)]
pub struct GameVerdict {
    /// The game's title.
    pub game: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Positions compared and found equal.
    pub positions: usize,
    /// Perft of the source and of the port read back, from depth 1 to the deepest compared.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub perft: Vec<PerftPair>,
    /// What the writer reported lost (`code: message`), for a partial port.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lost: Vec<String>,
    /// Why the verdict is not `equal`: the first difference, or what could not be done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Both games ran and their moves differ (rather than: the port did not read or run).
    #[serde(skip)]
    differs: bool,
    /// Why zogkit could not read back or play what it wrote (the reader's or engine's message).
    #[serde(skip)]
    unreadable: Option<String>,
    /// Where the verdict's cause stands in the source (the block the step limit stopped), when
    /// known; the diagnostic points there.
    #[serde(skip)]
    at: Option<Span>,
}

/// How hard to look.
#[derive(Debug, Clone)]
pub struct Options {
    /// Positions compared per game.
    pub positions: usize,
    /// Seed of the random playouts.
    pub seed: u64,
    /// The engine's step limit per move block.
    pub engine_steps: u32,
    /// Raised from outside (Ctrl-C) to stop the comparison's move generation at once.
    pub interrupt: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            positions: 200,
            seed: 1,
            engine_steps: engine::DEFAULT_STEP_LIMIT,
            interrupt: None,
        }
    }
}

/// Verifies `written` (what the `to` writer produced from `source`, with its diagnostics
/// `write_diags`): one verdict per game of the source, and one diagnostic per verdict that is
/// not equal (an error for `failed`, a warning otherwise).
pub fn verify(
    source: &Document,
    to: Format,
    written: &[u8],
    write_diags: &[Diagnostic],
    opts: &Options,
) -> (Vec<GameVerdict>, Vec<Diagnostic>) {
    verify_at(source, &Origins::default(), to, written, write_diags, opts)
}

/// [`verify`], with `origins` (where the source's parts stand, from its reader in this run) to
/// locate a verdict's diagnostic at its cause when there is one in the source.
pub fn verify_at(
    source: &Document,
    origins: &Origins,
    to: Format,
    written: &[u8],
    write_diags: &[Diagnostic],
    opts: &Options,
) -> (Vec<GameVerdict>, Vec<Diagnostic>) {
    // Missing piece images change how a game looks, not how it plays: not a loss.
    let lost: Vec<String> = write_diags
        .iter()
        .filter(|d| d.severity >= Severity::Warning && d.code != crate::zrf::emit::CODE_NO_IMAGES)
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect();
    let read_opts = ReadOptions {
        engine_steps: opts.engine_steps,
        ..ReadOptions::default()
    };
    let back = format::read(
        to,
        &format!("written.{}", to.name()),
        written,
        &read_opts,
        &mut crate::zrf::NoIncludes,
    );
    let back_errors: Vec<String> = back
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.render(&back.sources, "written"))
        .collect();
    let mut verdicts = Vec::new();
    let mut taken = vec![false; back.document.as_ref().map_or(0, |d| d.games.len())];
    for (i, g) in source.games.iter().enumerate() {
        if g.kind == EntryKind::Separator {
            continue;
        }
        let v = match (&back.document, back_errors.is_empty()) {
            (Some(doc), true) => {
                let twin = counterpart(source, i, doc, &mut taken);
                one_game(source, origins, i, doc, twin, opts)
            }
            _ => {
                let why = back_errors.first().map_or("no document", |s| s.as_str());
                GameVerdict {
                    game: g.title.clone(),
                    verdict: Verdict::Unverified,
                    positions: 0,
                    perft: Vec::new(),
                    lost: Vec::new(),
                    detail: Some(format!(
                        "zogkit cannot read back the {} it wrote (a writer bug; the port is not \
                         proved either way): {why}",
                        to.name()
                    )),
                    differs: false,
                    unreadable: Some(why.to_string()),
                    at: None,
                }
            }
        };
        // A verdict with no move to point at stands at the game in the source.
        let mut v = v;
        v.at = v.at.or(origins.game(i).at);
        verdicts.push(v);
    }
    for v in &mut verdicts {
        if !lost.is_empty() && v.verdict == Verdict::Equal {
            v.verdict = Verdict::Partial;
            v.detail = Some(format!("{}, but the writer reported losses", v.same()));
        }
        if let Some(why) = v.unreadable.as_ref().filter(|_| !lost.is_empty()) {
            // Not a writer bug: the writer said what it could not write, and what it wrote
            // cannot be played.
            v.verdict = Verdict::Failed;
            v.detail = Some(format!("the written game cannot be played: {why}"));
        }
        if matches!(v.verdict, Verdict::Partial | Verdict::Failed) && !lost.is_empty() {
            v.lost = lost.clone();
            if v.verdict == Verdict::Failed && v.differs {
                // The writer said what it lost; a different game is then expected.
                v.verdict = Verdict::Partial;
            }
        }
    }
    // A writer that left out whole pieces of a game says which (its message names the game):
    // that game's partial verdict names them.
    for summary in write_diags
        .iter()
        .filter(|d| d.code == crate::chessembly::emit::CODE_PARTIAL)
    {
        for v in verdicts.iter_mut().filter(|v| {
            v.verdict == Verdict::Partial && summary.message.contains(&format!("`{}`", v.game))
        }) {
            let rest = v
                .detail
                .take()
                .map(|d| format!("; {d}"))
                .unwrap_or_default();
            v.detail = Some(format!("{}{rest}", summary.message));
        }
    }
    // A writer's error fails the file (nothing is written), whatever the games play.
    if let Some(e) = write_diags.iter().find(|d| d.severity == Severity::Error) {
        for v in &mut verdicts {
            v.verdict = Verdict::Failed;
            v.detail = Some(format!(
                "the writer failed the file: {}: {}",
                e.code, e.message
            ));
            v.lost = lost.clone();
        }
    }
    let diags = verdicts.iter().filter_map(diagnostic).collect();
    (verdicts, diags)
}

/// The game of `back` that stands for source game `i`: the next unused one with its title,
/// else the one at the same place when the titles were not kept.
fn counterpart(source: &Document, i: usize, back: &Document, taken: &mut [bool]) -> Option<usize> {
    let title = &source.games[i].title;
    let found = (0..back.games.len())
        .find(|&j| !taken[j] && back.games[j].title == *title)
        .or_else(|| {
            let playable = |d: &Document, k: usize| d.games[k].kind != EntryKind::Separator;
            let nth = (0..i).filter(|&k| playable(source, k)).count();
            (0..back.games.len())
                .filter(|&j| playable(back, j))
                .nth(nth)
                .filter(|&j| !taken[j] && back.games.len() == source.games.len())
        })?;
    taken[found] = true;
    Some(found)
}

fn one_game(
    source: &Document,
    origins: &Origins,
    i: usize,
    back: &Document,
    twin: Option<usize>,
    opts: &Options,
) -> GameVerdict {
    let title = source.games[i].title.clone();
    let verdict = |verdict, positions, detail: String| GameVerdict {
        game: title.clone(),
        verdict,
        positions,
        perft: Vec::new(),
        lost: Vec::new(),
        detail: Some(detail),
        differs: false,
        unreadable: None,
        at: None,
    };
    let mut a = match Rules::compile(source, i) {
        Ok(r) => r,
        Err(e) => {
            return verdict(
                Verdict::Unverified,
                0,
                format!("the engine cannot run the source: {e}"),
            );
        }
    };
    let Some(j) = twin else {
        return verdict(
            Verdict::Partial,
            0,
            "the written file does not hold this game".into(),
        );
    };
    let mut b = match Rules::compile(back, j) {
        Ok(r) => r,
        Err(e) => {
            let v = verdict(
                Verdict::Unverified,
                0,
                format!(
                    "zogkit cannot play the game it wrote (a writer bug; the port is not proved \
                     either way): {e}"
                ),
            );
            return GameVerdict {
                unreadable: Some(e.to_string()),
                ..v
            };
        }
    };
    a.step_limit = opts.engine_steps;
    b.step_limit = opts.engine_steps;
    a.interrupt = opts.interrupt.clone();
    b.interrupt = opts.interrupt.clone();
    let f = engine::compare(&a, &b, opts.positions, opts.seed);
    if let Some((port, o)) = f.overrun {
        let (rules, side) = if port { (&b, "port") } else { (&a, "original") };
        // The port's blocks are not the source's: only the original's is located at its block.
        let name = &rules.kinds[o.kind as usize].name;
        let origin = origins.game(i);
        let at = if port {
            origin.at
        } else {
            origin.block(name, o.drop, o.block)
        };
        let v = verdict(
            Verdict::Unverified,
            f.positions,
            format!(
                "the engine's step limit (`--limit engine-steps={}`) stopped {} of the {side} \
                 after {} equal positions, so its moves there may be incomplete and the \
                 comparison stopped",
                opts.engine_steps,
                o.describe(rules),
                f.positions
            ),
        );
        return GameVerdict { at, ..v };
    }
    match f.difference {
        None => {
            let (perft, differ) = perft_pairs(&a, &b, opts);
            let mut v = GameVerdict {
                game: title,
                verdict: Verdict::Equal,
                positions: f.positions,
                perft,
                lost: Vec::new(),
                detail: None,
                differs: false,
                unreadable: None,
                at: None,
            };
            if let Some(p) = differ {
                v.verdict = Verdict::Failed;
                v.differs = true;
                v.detail = Some(format!(
                    "perft({}) differs: {} in the source, {} in the port (the playouts found \
                     the same moves on {} positions)",
                    p.depth, p.source, p.port, f.positions
                ));
            }
            v
        }
        Some(d) => {
            let mut text = format!(
                "plays differently after {} equal positions: {}",
                f.positions, d.what
            );
            text.push_str(&format!("; after [{}]", d.line.join(", ")));
            if !d.only_first.is_empty() {
                text.push_str(&format!("; only the original: {}", d.only_first.join(", ")));
            }
            if !d.only_second.is_empty() {
                text.push_str(&format!("; only the port: {}", d.only_second.join(", ")));
            }
            GameVerdict {
                differs: true,
                ..verdict(Verdict::Failed, f.positions, text)
            }
        }
    }
}

/// Deepest perft [`verify`] compares, and the count below which it goes one ply deeper.
const PERFT_DEPTH: u32 = 3;
const PERFT_DEEPER_BELOW: u64 = 20_000;

/// Perft of both games from depth 1 down, while cheap: depth 2 always, depth 3 when depth 2
/// counted fewer than 20,000. Stops at the first depth that differs (returned second), or
/// when a budget or the step limit stopped either count (nothing is claimed for that depth).
fn perft_pairs(a: &Rules, b: &Rules, opts: &Options) -> (Vec<PerftPair>, Option<PerftPair>) {
    let count = |r: &Rules, depth| engine::start_perft(r, depth, opts.interrupt.clone());
    let mut pairs = Vec::new();
    for depth in 1..=PERFT_DEPTH {
        if depth > 2
            && pairs
                .last()
                .is_some_and(|p: &PerftPair| p.source >= PERFT_DEEPER_BELOW)
        {
            break;
        }
        let (Some(source), Some(port)) = (count(a, depth), count(b, depth)) else {
            break;
        };
        let pair = PerftPair {
            depth,
            source,
            port,
        };
        if source != port {
            return (pairs, Some(pair));
        }
        pairs.push(pair);
    }
    (pairs, None)
}

fn diagnostic(v: &GameVerdict) -> Option<Diagnostic> {
    let (severity, code, head) = match v.verdict {
        Verdict::Equal => return None,
        Verdict::Failed => (Severity::Error, CODE_FAILED, "failed"),
        Verdict::Partial => (Severity::Warning, CODE_PARTIAL, "partial"),
        Verdict::Unverified => (Severity::Warning, CODE_UNVERIFIED, "unverified"),
    };
    let mut msg = format!("{:?}: {head}", v.game);
    if let Some(d) = &v.detail {
        msg.push_str(": ");
        msg.push_str(d);
    }
    let mut d = Diagnostic::new(severity, code, msg, v.at);
    if !v.lost.is_empty() {
        d = d.with_note(
            None,
            format!("{} construct(s) reported lost by the writer", v.lost.len()),
        );
    }
    Some(d)
}
