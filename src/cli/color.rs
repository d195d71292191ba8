//! `--color auto|always|never`: whether diagnostics are coloured, as rustc colours them.
//!
//! `always` and `never` decide. `auto` (the default) colours a stream that is a terminal,
//! unless `NO_COLOR` is set to anything non-empty; `CLICOLOR_FORCE` (non-empty, not `0`)
//! colours even a pipe. `NO_COLOR` wins over `CLICOLOR_FORCE`.

use clap::ValueEnum;
use std::borrow::Cow;
use std::io::IsTerminal;
use std::sync::OnceLock;

/// When to colour output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, honouring NO_COLOR and CLICOLOR_FORCE.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Whether standard output and standard error are coloured (decided once by [`init`]).
static ON: OnceLock<(bool, bool)> = OnceLock::new();

/// Decides colouring for both streams from the choice and the environment; called by `main`.
pub fn init(choice: ColorChoice) {
    let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    let decide = |terminal: bool| match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto if env("NO_COLOR").is_some() => false,
        ColorChoice::Auto if env("CLICOLOR_FORCE").is_some_and(|v| v != "0") => true,
        ColorChoice::Auto => terminal,
    };
    let _ = ON.set((
        decide(std::io::stdout().is_terminal()),
        decide(std::io::stderr().is_terminal()),
    ));
}

/// Rendered diagnostics for standard error, coloured when it is.
pub fn stderr(text: &str) -> Cow<'_, str> {
    paint_if(ON.get().is_some_and(|o| o.1), text)
}

/// Rendered diagnostics for standard output, coloured when it is.
pub fn stdout(text: &str) -> Cow<'_, str> {
    paint_if(ON.get().is_some_and(|o| o.0), text)
}

fn paint_if(on: bool, text: &str) -> Cow<'_, str> {
    if on {
        Cow::Owned(paint(text))
    } else {
        Cow::Borrowed(text)
    }
}

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const BLUE: &str = "\x1b[1;34m";

/// Colours text in the layout of `Diagnostic::render` as rustc does: the severity (and code)
/// in bold red, yellow or green with the message in bold, gutters and `-->` in blue, carets in
/// the severity's colour. Other lines are left as they are.
pub fn paint(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let mut accent = "\x1b[1;31m";
    for line in text.split_inclusive('\n') {
        let (body, nl) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        let severity = [
            ("error", "\x1b[1;31m"),
            ("warning", "\x1b[1;33m"),
            ("note", "\x1b[1;32m"),
        ]
        .into_iter()
        .find(|(w, _)| {
            body.strip_prefix(w)
                .is_some_and(|r| r.starts_with('[') || r.starts_with(':'))
        });
        if let Some((_, colour)) = severity {
            accent = colour;
            let head_end = body.find(": ").map_or(body.len(), |i| i + 1);
            let (head, msg) = body.split_at(head_end);
            out.push_str(&format!("{colour}{head}{RESET}{BOLD}{msg}{RESET}{nl}"));
        } else if let Some(bar) = gutter(body) {
            let (g, rest) = body.split_at(bar + 1);
            let rest = if rest.trim_start().starts_with(['^', '-']) && !rest.contains("-->") {
                format!("{accent}{rest}{RESET}")
            } else {
                rest.to_string()
            };
            out.push_str(&format!("{BLUE}{g}{RESET}{rest}{nl}"));
        } else if ["-->", ":::", "= "]
            .iter()
            .any(|p| body.trim_start().starts_with(p))
        {
            out.push_str(&format!("{BLUE}{body}{RESET}{nl}"));
        } else {
            out.push_str(line);
        }
    }
    out
}

/// The index of the `|` ending a snippet gutter (`   |`, `46 |`), if `line` starts with one.
fn gutter(line: &str) -> Option<usize> {
    let bar = line.find('|')?;
    let g = &line[..bar];
    (!g.is_empty() && g.chars().all(|c| c == ' ' || c.is_ascii_digit())).then_some(bar)
}
