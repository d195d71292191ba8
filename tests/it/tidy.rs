//! Tidy checks in the style of rust-analyzer's `tidy.rs`: the module import graph, where the
//! file system is touched, that documented paths exist, that every golden file has its input,
//! that every module says what it is in a `//!` line, and that every diagnostic code has a
//! corpus case. Exceptions are listed here, each with its reason.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const REPO: &str = env!("CARGO_MANIFEST_DIR");

/// The library's top-level modules.
const MODULES: [&str; 16] = [
    "catalogue",
    "chessembly",
    "fsf",
    "diag",
    "engine",
    "format",
    "limits",
    "ludii",
    "play",
    "render",
    "sexpr",
    "spec",
    "text",
    "zrf",
    "cli",
    "verify",
];

/// Every `.rs` file under `dir`, sorted, relative to the repository.
fn rust_files(dir: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![Path::new(REPO).join(dir)];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p.strip_prefix(REPO).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

fn read(rel: &Path) -> String {
    std::fs::read_to_string(Path::new(REPO).join(rel)).unwrap()
}

/// The module a library file belongs to (`src/spec/yaml/fast.rs` → `spec`).
fn module_of(rel: &Path) -> String {
    let mut c = rel.components().skip(1); // `src`
    let first = c.next().unwrap().as_os_str().to_string_lossy().into_owned();
    first.trim_end_matches(".rs").to_string()
}

/// A file's code without comments and without its test code: a `tests.rs` file is all test
/// code; elsewhere everything from the first `#[cfg(test)]` on (test modules close the files),
/// except that a `#[cfg(test)]` on an out-of-line `mod NAME;` drops that declaration only.
fn production_code(rel: &Path) -> String {
    if rel.file_name().is_some_and(|n| n == "tests.rs") {
        return String::new();
    }
    let mut text = read(rel);
    while let Some(at) = text.find("#[cfg(test)]") {
        let item = text[at + "#[cfg(test)]".len()..].trim_start();
        let decl = item.strip_prefix("mod ").and_then(|m| m.split_once(';'));
        match decl {
            Some((name, _)) if name.trim().chars().all(|c| c.is_alphanumeric() || c == '_') => {
                let end = text.len() - item.len() + "mod ".len() + name.len() + 1;
                text.replace_range(at..end, "");
            }
            _ => break,
        }
    }
    let text = match text.find("#[cfg(test)]") {
        Some(at) => &text[..at],
        None => &text[..],
    };
    text.lines()
        .map(|l| match l.find("//") {
            // `//` inside a string literal is rare in imports; strings are kept whole otherwise.
            Some(at) if !l[..at].contains('"') => &l[..at],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules a file's code names through `crate::` (`use crate::{a, b::c}` too).
fn crate_deps(code: &str) -> BTreeSet<String> {
    let mut deps = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                deps.insert(name);
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            deps.insert(name);
        }
    }
    deps.retain(|d| MODULES.contains(&d.as_str()));
    deps
}

/// What each module may import from the others (itself always). Every module has a list
/// ([`every_module_has_a_place_in_the_layering`]) and the lists have no cycle
/// ([`the_allowed_layering_has_no_cycle`]).
fn allowed(module: &str) -> Option<&'static [&'static str]> {
    Some(match module {
        // The bottom: diagnostics, then text decoding, then S-expressions.
        "diag" => &[],
        "text" => &["diag"],
        "sexpr" => &["diag", "text"],
        // The spec is the hub: no reader, writer, renderer, engine or CLI code.
        "spec" => &["diag", "text", "sexpr"],
        // Format modules build on the spec and the text layers, never on each other. `zrf`
        // uses `sexpr` (its syntax); the others have their own.
        "zrf" => &["spec", "diag", "text", "sexpr"],
        "ludii" => &["spec", "diag", "text"],
        "chessembly" => &["spec", "diag", "text"],
        "fsf" => &["spec", "diag", "text"],
        // Exception: `render` shortens piece names for its messages with `text::shorten`, a
        // pure string helper (moving it would put a text utility into the spec).
        "render" => &["spec", "text"],
        "engine" => &["spec", "diag", "text"],
        // `play`'s session answers the page's API over the engine and draws the board with the
        // renderer; the CLI owns its socket (`cli::play_server`).
        "play" => &["engine", "spec", "render", "text"],
        // The registry of formats dispatches to every reader and writer.
        "format" => &[
            "spec",
            "zrf",
            "ludii",
            "chessembly",
            "fsf",
            "engine",
            "diag",
            "text",
        ],
        // The limits name every reader's budget for the command line, so they sit above the
        // registry.
        "limits" => &["format", "spec", "zrf", "sexpr", "chessembly", "diag"],
        // The catalogue sits above the registry and the renderer: it writes every format and
        // draws pictures (nothing imports it but the CLI).
        "catalogue" => &["spec", "render", "format", "diag", "text"],
        // Verification sits above the registry: it writes, reads back and plays, and names the
        // writers' codes it reads (`zrf::emit::CODE_NO_IMAGES`, `chessembly::emit::CODE_PARTIAL`).
        "verify" => &["format", "engine", "spec", "diag", "zrf", "chessembly"],
        // The top: the CLI, the binary and the crate root use anything.
        "cli" | "main" | "lib" => &MODULES,
        // `src/tests.rs` is the unit tests' shared helpers (test code only).
        "tests" => &[],
        _ => return None,
    })
}

#[test]
fn every_module_has_a_place_in_the_layering() {
    let mut missing = BTreeSet::new();
    for f in rust_files("src") {
        let m = module_of(&f);
        if allowed(&m).is_none() {
            missing.insert(m);
        }
    }
    assert!(
        missing.is_empty(),
        "modules without an allowed-imports list in tidy.rs: {missing:?}"
    );
}

/// A cycle among the allowed lists (`spec → limits → format → zrf → spec`) would let the
/// layering erode one permitted edge at a time; the top (`cli`, `main`, `lib`) is left out, as
/// nothing may import it.
#[test]
fn the_allowed_layering_has_no_cycle() {
    fn visit(m: &str, path: &mut Vec<String>, done: &mut BTreeSet<String>) -> Result<(), String> {
        if let Some(at) = path.iter().position(|p| p == m) {
            return Err(format!("{} → {m}", path[at..].join(" → ")));
        }
        if done.contains(m) || matches!(m, "cli" | "main" | "lib") {
            return Ok(());
        }
        path.push(m.to_string());
        for dep in allowed(m).unwrap_or(&[]) {
            visit(dep, path, done)?;
        }
        path.pop();
        done.insert(m.to_string());
        Ok(())
    }
    let mut done = BTreeSet::new();
    for m in MODULES {
        if let Err(cycle) = visit(m, &mut Vec::new(), &mut done) {
            panic!("the allowed imports have a cycle: {cycle}");
        }
    }
}

#[test]
fn the_import_graph_has_only_the_allowed_edges() {
    let mut bad = Vec::new();
    for f in rust_files("src") {
        let m = module_of(&f);
        let Some(ok) = allowed(&m) else { continue };
        for dep in crate_deps(&production_code(&f)) {
            if dep != m && !ok.contains(&dep.as_str()) {
                bad.push(format!("{} ({m}) imports crate::{dep}", f.display()));
            }
        }
    }
    assert!(bad.is_empty(), "forbidden imports:\n{}", bad.join("\n"));
}

#[test]
fn the_import_graph_check_sees_imports() {
    // The parser behind the graph check finds grouped and plain paths, and skips comments
    // and test code.
    let deps = crate_deps("use crate::{spec::Doc, zrf};\nlet x = crate::ludii::read();");
    assert_eq!(
        deps.into_iter().collect::<Vec<_>>(),
        ["ludii", "spec", "zrf"]
    );
    let src = production_code(Path::new("src/render/own.rs"));
    assert!(
        !src.contains("crate::zrf"),
        "test code is not production code"
    );
    assert!(read(Path::new("src/render/own.rs")).contains("crate::zrf"));
}

#[test]
fn only_the_cli_touches_the_file_system() {
    let mut bad = Vec::new();
    for f in rust_files("src") {
        let under_cli = f.starts_with("src/cli") || f == Path::new("src/main.rs");
        let code = production_code(&f);
        let uses_fs = code.contains("std::fs")
            || code
                .split("use std::{")
                .skip(1)
                .any(|g| g[..g.find('}').unwrap_or(g.len())].contains("fs"));
        if uses_fs && !under_cli {
            bad.push(f.display().to_string());
        }
    }
    assert!(bad.is_empty(), "std::fs outside cli/ and main.rs: {bad:?}");
}

/// Repository paths a text names: words that start with one of the repository's top-level
/// directories, cut at the first character that cannot be in such a path.
fn named_paths(text: &str) -> Vec<String> {
    const ROOTS: [&str; 9] = [
        "src/", "docs/", "tests/", "golden/", "corpus/", "notes/", "xtask/", "benches/", "assets/",
    ];
    let mut out = Vec::new();
    for (i, _) in text.char_indices() {
        let before = text[..i].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '/' | '.' | '-')) {
            continue;
        }
        let rest = &text[i..];
        if !ROOTS.iter().any(|r| rest.starts_with(r)) {
            continue;
        }
        let p: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '/' | '.' | '-'))
            .collect();
        let p = p.trim_end_matches(['.', '/']).to_string();
        if p.contains('/') {
            out.push(p); // not a bare root such as `notes`
        }
    }
    out
}

/// Whether a named path is a pattern or an example rather than a file (`golden/zrf/<name>.txt`,
/// `src/cli/`).
fn is_pattern(p: &str) -> bool {
    p.contains("NAME") || p.ends_with('-') || p.contains("..")
}

#[test]
fn every_documented_path_exists() {
    let mut texts: Vec<PathBuf> = ["README.md", "ARCHITECTURE.md"]
        .iter()
        .map(PathBuf::from)
        .collect();
    for e in std::fs::read_dir(Path::new(REPO).join("docs"))
        .unwrap()
        .flatten()
    {
        texts.push(e.path().strip_prefix(REPO).unwrap().to_path_buf());
    }
    texts.extend(rust_files("src"));
    // This file names paths as examples and exceptions.
    texts.extend(
        rust_files("tests")
            .into_iter()
            .filter(|f| f != Path::new("tests/it/tidy.rs")),
    );
    texts.extend(rust_files("xtask"));
    // `notes/` is the design notes beside the repository (with the shared corpus).
    let notes = Path::new(REPO).join("../shared");
    let mut missing = Vec::new();
    let mut seen = 0;
    for t in &texts {
        let text = read(t);
        for p in named_paths(&text) {
            if is_pattern(&p) {
                continue;
            }
            let base = if p.starts_with("notes/") {
                if !notes.is_dir() {
                    continue;
                }
                notes.clone()
            } else {
                PathBuf::from(REPO)
            };
            seen += 1;
            if !base.join(&p).exists() {
                missing.push(format!("{}: {p}", t.display()));
            }
        }
    }
    missing.sort();
    missing.dedup();
    assert!(seen > 50, "only {seen} paths found: is the scan broken?");
    assert!(
        missing.is_empty(),
        "documented paths that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_golden_file_has_its_input() {
    // golden directory → (corpus directory, input extensions)
    let pairs: [(&str, &str, &[&str]); 6] = [
        ("golden/zrf", "corpus/zrf", &["zrf"]),
        ("golden/chessembly", "corpus/chessembly", &["csm"]),
        ("golden/ludii", "corpus/ludii", &["lud", "txt"]),
        ("golden/yaml", "corpus/yaml", &["yaml"]),
        ("golden/fsf", "corpus/fsf", &["ini"]),
        ("golden/render", "corpus/render", &["zrf", "yaml"]),
    ];
    // `golden/render/` also holds the images of scenes the render tests build in code (no input
    // file): those are named in the test that draws them.
    let scenes: String = ["tests/it/render_golden.rs", "tests/it/render_spec.rs"]
        .iter()
        .map(|f| read(Path::new(f)))
        .collect();
    let mut orphans = Vec::new();
    let mut checked = 0;
    for (golden, corpus, exts) in pairs {
        for e in std::fs::read_dir(Path::new(REPO).join(golden))
            .unwrap()
            .flatten()
        {
            let name = e.file_name().to_string_lossy().into_owned();
            // `x.zrf` is the ZRF written from `x.yaml`: the stem ends at the first dot.
            let stem = name.split('.').next().unwrap();
            checked += 1;
            if golden == "golden/render"
                && (name == "README.md"
                    || scenes.contains(&format!("\"{stem}\""))
                    || scenes.contains(&format!("golden/render/{name}")))
            {
                continue;
            }
            let found = exts.iter().any(|x| {
                Path::new(REPO)
                    .join(corpus)
                    .join(format!("{stem}.{x}"))
                    .is_file()
            });
            if !found {
                orphans.push(format!("{golden}/{name}"));
            }
        }
    }
    // Not checked, by design: `golden/corpus-report.md` is the report on the shared corpus
    // outside the repository.
    assert!(checked > 100, "{checked}");
    assert!(
        orphans.is_empty(),
        "golden files without an input: {orphans:?}"
    );
}

#[test]
fn every_module_starts_with_a_doc_line() {
    let mut bad = Vec::new();
    for dir in ["src", "tests", "xtask", "benches"] {
        for f in rust_files(dir) {
            let text = read(&f);
            let first = text.lines().next().unwrap_or_default();
            if !first.starts_with("//! ") || first.len() < 10 {
                bad.push(f.display().to_string());
            }
        }
    }
    assert!(
        bad.is_empty(),
        "modules without a `//!` line first: {bad:?}"
    );
}

/// No check fails on wall-clock time: a loaded machine must not fail a test. A test bounds CPU
/// time (`common::cpu`) or work; an assertion on `elapsed()` is allowed only as a guard against
/// a real hang, at 60 s or more.
#[test]
fn no_assertion_bounds_wall_clock_time() {
    let mut bad = Vec::new();
    for dir in ["src", "tests", "xtask"] {
        // This file names the pattern it looks for.
        for f in rust_files(dir)
            .into_iter()
            .filter(|f| !f.ends_with("tidy.rs"))
        {
            let text = read(&f);
            let lines: Vec<&str> = text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                if !line.contains("elapsed()") {
                    continue;
                }
                let asserted = lines[i.saturating_sub(2)..=i]
                    .iter()
                    .any(|l| l.contains("assert"));
                let bound = line
                    .split(|c: char| !c.is_ascii_digit())
                    .filter_map(|n| n.parse::<u64>().ok())
                    .max()
                    .unwrap_or(0);
                if asserted && bound < 60 {
                    bad.push(format!("{}:{}", f.display(), i + 1));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "assertions on wall-clock time under 60 s (bound CPU time with common::cpu instead): {bad:?}"
    );
}

/// Golden folders whose files are the output of a corpus input (`every_golden_file_has_its_input`
/// holds them to it): a code shown there, rendered as `severity[code]`, has a corpus case.
const CASE_GOLDENS: [&str; 6] = [
    "golden/render",
    "golden/zrf",
    "golden/yaml",
    "golden/fsf",
    "golden/ludii",
    "golden/chessembly",
];

/// Codes the library can emit that no corpus file can show, each with its reason. Keep it short:
/// a code that gets a case, or is no longer emitted, must leave this list (the test says so).
const CODES_WITHOUT_CASE: &[(&str, &str)] = &[
    // Library API only: no input reaches these through a reader, writer or the CLI.
    (
        "chessembly::bad-board",
        "only a library caller's LowerOptions size the board; every reader lowers onto 8×8",
    ),
    (
        "format::unsupported",
        "only format::write(Format::LudiiEnglish); the CLI's --to offers no ludii-english",
    ),
    (
        "render::label-count",
        "only render::board::render_board with a caller's BoardStyle: `render` takes the labels \
         from the grid it lays out, one per file and rank",
    ),
    (
        "render::zone-off-board",
        "only render::board::render_board with a caller's BoardStyle: `render` maps zones through \
         the board's own cells, never off it",
    ),
    (
        "ludii::cross-check",
        "only ludii::cross_check(lud, english), which compares two documents; no command calls it",
    ),
    // Reachable from input, but only through commands no corpus harness runs yet.
    (
        "read::interrupted",
        "only when Ctrl-C or SIGTERM arrives during a read; tests/it/hostile.rs sends one \
         (an_interrupt_stops_a_reader_and_nothing_is_written) and raises one in the library",
    ),
    (
        "engine::step-limit",
        "printed by `moves`/`perft`/`replay` (src/cli/play.rs); tests/it/engine_cli.rs checks it",
    ),
    (
        "engine::block-run-limit",
        "printed by `moves`/`perft` (src/cli/play.rs); tests/it/hostile.rs checks it",
    ),
    (
        "engine::move-limit",
        "printed by `moves`/`perft` (src/cli/play.rs); tests/it/hostile.rs checks it",
    ),
    (
        "engine::work-limit",
        "printed by `moves`/`perft` (src/cli/play.rs); tests/it/hostile.rs checks it",
    ),
    (
        "yaml::write",
        "the YAML serialiser's own failure: the reading path refuses what it cannot write \
         (`yaml::nesting-limit`, corpus/zrf/condition_err_too_deep.zrf), so no input reaches it",
    ),
];

/// The diagnostic codes in `code`: string literals of the form `"area::name"`.
fn code_literals(code: &str) -> BTreeSet<String> {
    let is_code = |s: &str| {
        let Some((area, name)) = s.split_once("::") else {
            return false;
        };
        area.starts_with(|c: char| c.is_ascii_lowercase())
            && area
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            && name.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    };
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices('"') {
        let rest = &code[at + 1..];
        if let Some(end) = rest.find('"')
            && is_code(&rest[..end])
        {
            out.insert(rest[..end].to_string());
        }
    }
    out
}

#[test]
fn every_diagnostic_code_has_a_corpus_case() {
    let mut emitted: BTreeSet<String> = BTreeSet::new();
    for f in rust_files("src") {
        emitted.extend(code_literals(&production_code(&f)));
    }
    // The scan must see the codes it is about (a broken scan would pass vacuously).
    assert!(emitted.len() > 100, "only {} codes found", emitted.len());
    assert!(emitted.contains("zrf::macro-arity") && emitted.contains("yaml::syntax"));
    let mut shown = String::new();
    for dir in CASE_GOLDENS {
        for e in std::fs::read_dir(Path::new(REPO).join(dir))
            .unwrap()
            .flatten()
        {
            shown.push_str(&String::from_utf8_lossy(&std::fs::read(e.path()).unwrap()));
        }
    }
    let has_case = |c: &str| shown.contains(&format!("[{c}]"));
    let excepted: BTreeSet<&str> = CODES_WITHOUT_CASE.iter().map(|(c, _)| *c).collect();
    let missing: Vec<&String> = emitted
        .iter()
        .filter(|c| !has_case(c) && !excepted.contains(c.as_str()))
        .collect();
    let stale: Vec<&str> = excepted
        .iter()
        .filter(|c| has_case(c) || !emitted.contains(**c))
        .copied()
        .collect();
    eprintln!(
        "{} codes: {} with a corpus case, {} listed without one",
        emitted.len(),
        emitted.iter().filter(|c| has_case(c)).count(),
        excepted.len()
    );
    assert!(
        missing.is_empty(),
        "diagnostic codes with no corpus case (add an input under corpus/ whose golden shows \
         the code, or list the code in CODES_WITHOUT_CASE with its reason): {missing:?}"
    );
    assert!(
        stale.is_empty(),
        "CODES_WITHOUT_CASE lists codes that have a case or are no longer emitted: {stale:?}"
    );
}

/// The spec has one `extensions` list of `{ format, text, at }` items (spec_version 0.2): no
/// message or document names the per-format fields of 0.1 (`extensions.zrf`, `.ludii`,
/// `.chessembly`) as if they still existed.
#[test]
fn no_message_names_the_old_per_format_extensions() {
    let old = [
        "extensions.zrf",
        "extensions.ludii",
        "extensions.chessembly",
    ];
    let mut files = rust_files("src");
    files.extend(
        std::fs::read_dir(Path::new(REPO).join("docs"))
            .unwrap()
            .flatten()
            .map(|e| Path::new("docs").join(e.file_name())),
    );
    assert!(files.len() > 50, "{}", files.len());
    let mut bad = Vec::new();
    for f in &files {
        let text = read(f);
        // The 0.1 upgrade describes the old layout on purpose.
        if f.ends_with("version.rs") {
            continue;
        }
        for (i, line) in text.lines().enumerate() {
            if old.iter().any(|o| line.contains(o)) {
                bad.push(format!("{}:{}", f.display(), i + 1));
            }
        }
    }
    assert!(bad.is_empty(), "the 0.1 extensions fields named: {bad:?}");
}

/// The functions of `code` longer than `max` lines: name and length (a `fn` line to the line
/// that closes its body; braces in strings, characters and comments are skipped).
fn long_functions(code: &str, max: usize) -> Vec<(String, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim_start();
        let t = t.strip_prefix("pub ").unwrap_or(t);
        let t = t.strip_prefix("pub(crate) ").unwrap_or(t);
        let t = t.strip_prefix("const ").unwrap_or(t);
        let Some(rest) = t.strip_prefix("fn ") else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let (mut depth, mut started) = (0i64, false);
        let mut end = i;
        'lines: for (j, line) in lines.iter().enumerate().skip(i) {
            end = j;
            let mut chars = line.chars().peekable();
            let mut in_str = false;
            while let Some(c) = chars.next() {
                match c {
                    '\\' if in_str => {
                        chars.next();
                    }
                    '"' => in_str = !in_str,
                    '/' if !in_str && chars.peek() == Some(&'/') => break,
                    '\'' if !in_str => {
                        // A character literal ('{', '\'' …); a lifetime has no closing quote.
                        let lit: String = chars.clone().take(3).collect();
                        if lit.chars().nth(1) == Some('\'') || lit.starts_with('\\') {
                            chars.nth(if lit.starts_with('\\') { 2 } else { 1 });
                        }
                    }
                    '{' if !in_str => {
                        depth += 1;
                        started = true;
                    }
                    '}' if !in_str => depth -= 1,
                    _ => {}
                }
            }
            if (started && depth <= 0) || (!started && line.trim_end().ends_with(';')) {
                break 'lines;
            }
        }
        let n = end - i + 1;
        if n > max {
            out.push((name, n));
        }
    }
    out
}

/// Functions stay short enough to read: none over 150 lines. (The 20 written before the rule
/// have all been split.)
#[test]
fn no_function_grows_past_150_lines() {
    let mut bad = Vec::new();
    for f in rust_files("src") {
        let rel = f.display().to_string();
        for (name, n) in long_functions(&read(&f), 150) {
            bad.push(format!("{rel}: fn {name} has {n} lines"));
        }
    }
    assert!(
        bad.is_empty(),
        "functions over 150 lines:\n{}",
        bad.join("\n")
    );
    let sample = "fn a() {\n    let s = \"}\";\n    let c = '{';\n    x();\n}\n";
    assert!(long_functions(sample, 5).is_empty());
    assert_eq!(long_functions(sample, 4), [("a".to_string(), 5)]);
}

/// `cargo tree`'s packages with their features (`name vX.Y.Z feat,feat`), over the given edges.
fn features_over(edges: &str) -> BTreeMap<String, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["tree", "--offline", "-p", "zogkit", "--prefix", "none"])
        .args(["-e", edges, "-f", "{p}|{f}"])
        .current_dir(REPO)
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.trim_end_matches(" (*)").split_once('|'))
        .map(|(p, f)| (p.trim().to_string(), f.trim().to_string()))
        .collect()
}

/// The tests and the main job share one build (docs/cli.md, "Build times") only while the
/// dev-dependencies turn on no feature of a normal dependency: otherwise `cargo run` after
/// `cargo test` rebuilds zogkit and every crate between, as `jsonschema` once made it do.
#[test]
fn dev_dependencies_turn_on_no_feature_of_a_normal_dependency() {
    let build = features_over("normal,build");
    let test = features_over("normal,build,dev");
    assert!(
        build.len() > 50,
        "cargo tree listed {} packages",
        build.len()
    );
    let changed: Vec<String> = build
        .iter()
        .filter(|(p, f)| test.get(*p).is_some_and(|t| t != *f))
        .map(|(p, f)| format!("{p}: [{f}] in a build, [{}] in the tests", test[p]))
        .collect();
    assert!(changed.is_empty(), "{changed:#?}");
}
