//! `cargo xtask ludii [--ludii JAR] [--check]`: reads Ludii's whole board-game library and the English rules Ludii generates for it with zogkit, compares both with the Ludii oracle's facts and writes `golden/ludii-library-report.md`.

#[path = "../../tests/it/common/ludii_facts.rs"]
pub(crate) mod ludii_facts;

use ludii_facts::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Runs the comparison; `check` fails when the committed report would change.
/// `why` prints to standard error every file whose board differs from the oracle's (both site
/// counts and the board ludeme, grouped by the ludeme's head), and every file whose placements
/// differ, grouped by cause.
pub fn ludii(root: &Path, jar: Option<PathBuf>, check: bool, why: bool) -> bool {
    let setup = Setup::new(root, jar);
    if let Some(why) = setup.missing() {
        eprintln!("ludii: {why}");
        return false;
    }
    let run = || -> Result<String, String> {
        let all = extract_library(&setup)?;
        eprintln!(
            "ludii: {} library games; running the oracle on those not cached…",
            all.len()
        );
        let facts = oracle_facts(&setup, &all, 60)?;
        eprintln!("ludii: the oracle's boards of those not cached…");
        let boards = oracle_boards(&setup, &all, 60)?;
        let opts = read_options(&setup)?;
        let start = Instant::now();
        let results: Vec<(String, Outcome)> = all
            .iter()
            .map(|f| (f.clone(), compare(&setup, &opts, f, &facts[f], &boards[f])))
            .collect();
        eprintln!(
            "ludii: read and compared in {:.2} s (debug build of the comparison)",
            start.elapsed().as_secs_f64()
        );
        if why {
            eprint!("{}", board_failures(&results, &facts));
        }
        eprintln!("ludii: generating the English of those not cached…");
        let texts = oracle_english(&setup, &all, 60)?;
        let english: Vec<(String, EnglishOutcome)> = all
            .iter()
            .map(|f| {
                (
                    f.clone(),
                    compare_english(f, texts[f].as_deref(), &facts[f]),
                )
            })
            .collect();
        if why {
            eprint!("{}", unstated_report(&english));
            eprint!(
                "{}",
                why_report(".lud", results.iter().map(|(f, o)| (f, o.why.as_ref())))
            );
            eprint!(
                "{}",
                why_report("English", english.iter().map(|(f, o)| (f, o.why.as_ref())))
            );
        }
        Ok(report(&results) + &english_report(&english))
    };
    let md = match run() {
        Ok(md) => md,
        Err(e) => {
            eprintln!("ludii: {e}");
            return false;
        }
    };
    print!("{md}");
    golden_report(root, "golden/ludii-library-report.md", &md, check, "ludii")
}

/// Writes the report `md` to `rel` under `root`, or with `check` fails when the committed one
/// differs (`task`: the xtask that writes it, for the message).
pub(crate) fn golden_report(root: &Path, rel: &str, md: &str, check: bool, task: &str) -> bool {
    let path = root.join(rel);
    if check {
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        if old != md {
            eprintln!("{task}: {rel} is out of date (run cargo xtask {task})");
            return false;
        }
        return true;
    }
    std::fs::write(&path, md).is_ok()
}

/// The files whose board differs from the oracle's, grouped by the head of their board ludeme
/// (largest group first): our site count, Ludii's, its site type and the ludeme.
fn board_failures(
    results: &[(String, Outcome)],
    facts: &BTreeMap<String, serde_json::Value>,
) -> String {
    let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (f, o) in results
        .iter()
        .filter(|(_, o)| o.oracle_ok && !o.board_equal())
    {
        let text = o
            .board_text
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let head = board_cause(&text);
        let ty = facts[f]["board"]["siteType"].as_str().unwrap_or("?");
        let (ours, theirs) = o.site_counts;
        let ours = ours.map_or("-".into(), |n| n.to_string());
        let theirs = theirs.map_or("-".into(), |n| n.to_string());
        let adj = match &o.adjacency_note {
            Some(a) => format!(" adjacency {a}"),
            None => String::new(),
        };
        let short: String = text.chars().take(160).collect();
        groups
            .entry(head)
            .or_default()
            .push(format!("  {f}: {ours} vs {theirs} {ty}{adj} {short}\n"));
    }
    let mut v: Vec<_> = groups.into_iter().collect();
    v.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    let mut out = String::from("ludii: boards that differ, by cause\n");
    for (head, lines) in v {
        out.push_str(&format!("{head}: {}\n", lines.len()));
        lines.iter().for_each(|l| out.push_str(l));
    }
    out
}

/// A board ludeme's cause group: its head, the board function inside `(board …)`, and the
/// `use:` it is read with.
fn board_cause(text: &str) -> String {
    let words: Vec<&str> = text
        .split(|c: char| c == '(' || c == ')' || c == '{' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let func = match words.as_slice() {
        [] => "(no board)".to_string(),
        ["equipment", "board", f, ..] | ["board", f, ..] => format!("board {f}"),
        [h, ..] => h.to_string(),
    };
    let uses = words.iter().find(|w| w.starts_with("use:"));
    match uses {
        Some(u) => format!("{func} {u}"),
        None => func,
    }
}

fn report(results: &[(String, Outcome)]) -> String {
    let t = tally(results);
    let mut md = String::from("# Ludii library report\n\n");
    md.push_str(
        "Generated by `cargo xtask ludii`: every board game of Ludii's library (`lud/board/` of \
         Ludii 1.3.12's resource jar) read by zogkit with the jar's defines, and compared with \
         the Ludii oracle's `facts` (default options). \"Read without error\" counts every file; \
         the other columns count files Ludii compiles. Placements are compared as multisets of \
         (site index, piece kind, owner). \"Sites and adjacency equal\" asks more than the \
         count: every site (by index) is linked to every site of Ludii's \
         `Orthogonal` and `Adjacent` relations (the default step) and to none outside its \
         `Orthogonal`, `Diagonal` and `Adjacent` relations, on the board's default site type, \
         as the oracle's board driver \
         (`tests/oracle/LudBoard.java`, cached in `target/ludii-board`) prints it; \
         `cargo xtask ludii --why` lists the boards that differ, by cause.\n\n",
    );
    md.push_str(&table(&t));
    // The first error of each file that fails, by code.
    let codes = error_codes(results.iter().filter_map(|(_, o)| o.first_error.as_deref()));
    if !codes.is_empty() {
        md.push_str("\n## First error of the files that fail, by code\n\n| code | files |\n| --- | ---: |\n");
        let mut v: Vec<_> = codes.into_iter().collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        for (c, k) in v {
            md.push_str(&format!("| `{c}` | {k} |\n"));
        }
    }
    md
}

fn english_report(results: &[(String, EnglishOutcome)]) -> String {
    let t = english_tally(results);
    let mut md = String::from("\n## The generated English\n\n");
    md.push_str(
        "The English rules the Ludii oracle generates for each game (`ludii english`, cached in \
         `target/ludii-english`), read by zogkit with `--from ludii-english` and compared with the \
         same facts. \"Texts\" counts the games Ludii compiles and describes. A property is \
         *stated* when the text gives it: the board when its sentence has dimensions \
         (`10x9 rectangle board`, `2 x 6 Mancala board`), the piece kinds when a `… play(s) with …` \
         sentence lists them, the placements when the board is stated and `Setup:` has a \
         `Place …` or `Set the count of …` line; each \"equal\" count is among the games that \
         state it. Ludii's English never prints a stack's height (`count:`), so placements are \
         also compared with heights ignored. Placements found \
         are the oracle's placements (one per piece) that zogkit's reading has, over the texts \
         that state them and over all texts.\n\n\
         That notion of stated is loose: a text can have a `Setup:` line and still not say where \
         every piece goes. \"Placements exactly stated\" keeps only the texts where, judged from \
         the text and the oracle's facts alone (never from zogkit's reading), every piece kind \
         the oracle places is named in a `Setup:` line (a `Set the count of …` line names the one \
         kind it fills), no `Setup:` line names what the text does not define (a `track X`, \
         whose sites the English never prints; a region the `Regions:` section builds on such a \
         track; Ludii's `null`) and none chooses at random (`randomly select`: the facts are one \
         draw). zogkit's reader reports such lines with a located `ludii::english-unstated` \
         warning. `cargo xtask ludii --why` lists the texts stated by the loose notion only, by \
         reason.\n\n",
    );
    md.push_str(&english_table(&t));
    let codes = error_codes(results.iter().filter_map(|(_, o)| o.first_error.as_deref()));
    if !codes.is_empty() {
        md.push_str("\n### First error of the texts that fail, by code\n\n| code | texts |\n| --- | ---: |\n");
        for (c, k) in codes {
            md.push_str(&format!("| `{c}` | {k} |\n"));
        }
    }
    md
}

/// `--why`: the files whose placements differ, grouped by cause (largest group first), each
/// with its missing and extra placements.
fn why_report<'a>(what: &str, whys: impl Iterator<Item = (&'a String, Option<&'a Why>)>) -> String {
    let mut by: BTreeMap<&str, Vec<(&String, &Why)>> = BTreeMap::new();
    for (f, w) in whys {
        if let Some(w) = w {
            by.entry(w.cause.as_str()).or_default().push((f, w));
        }
    }
    let mut groups: Vec<_> = by.into_iter().collect();
    groups.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
    let mut s = format!("\n== {what}: placements that differ, by cause\n");
    for (cause, files) in &groups {
        s.push_str(&format!("\n-- {cause}: {} files\n", files.len()));
        for (f, w) in files {
            s.push_str(&format!("   {f}: {}\n", w.detail));
        }
    }
    s
}

/// `--why`: the texts whose placements are stated by the loose notion but not exactly, grouped
/// by the reason's kind (its first two words), each with its reason and whether zogkit's
/// reading equals the facts anyway (heights ignored).
fn unstated_report(english: &[(String, EnglishOutcome)]) -> String {
    let mut by: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (f, o) in english {
        if let Some(u) = &o.unstated {
            let kind: String = u.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
            let eq = if o.diff.placement_sites {
                "equal"
            } else {
                "differ"
            };
            by.entry(kind)
                .or_default()
                .push(format!("   {f}: {u} ({eq})\n"));
        }
    }
    let mut groups: Vec<_> = by.into_iter().collect();
    groups.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    let mut s = String::from("\n== English: placements stated, but not exactly, by reason\n");
    for (kind, lines) in groups {
        s.push_str(&format!("\n-- {kind}: {} files\n", lines.len()));
        lines.iter().for_each(|l| s.push_str(l));
    }
    s
}

/// How many first errors carry each diagnostic code (`severity[area::name]`, the message's first
/// three `:`-separated parts).
fn error_codes<'a>(errors: impl Iterator<Item = &'a str>) -> BTreeMap<String, usize> {
    let mut codes: BTreeMap<String, usize> = BTreeMap::new();
    for e in errors {
        *codes
            .entry(e.split(':').take(3).collect::<Vec<_>>().join(":"))
            .or_default() += 1;
    }
    codes
}
