//! Resource limits through the real CLI: every limit refuses a generated hostile input with its
//! diagnostic code and a `file:line:col` location, within a second and bounded memory; includes
//! stay inside the input's directory tree; `--limit` changes limits; docs/limits.md is current.

use crate::common;

use common::{Measured, scratch_dir, zogkit_measured};
use std::path::Path;
use std::time::Duration;
use zogkit::format::ReadOptions;
use zogkit::limits::LIMITS;

/// CPU-time bound for one refused input (debug build). CPU time, not wall time: a loaded
/// machine cannot make the check fail.
pub const MAX_CPU: Duration = Duration::from_secs(1);
/// Wall-time guard against a real hang only.
pub const MAX_WALL: Duration = Duration::from_secs(60);
/// Peak-memory bound for one refused input, in KiB (200 MiB).
pub const MAX_PEAK_KIB: u64 = 200 * 1024;

/// A small valid game; `{board}`, `{pieces}` and `{setup}` are filled in by the tests.
pub const GAME: &str = "(game (title \"g\") (players A B) (turn-order A B)\n\
  (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"2/1\" (0 10))) (directions (n 0 -1))))\n\
  (piece (name P) (moves (n add)))\n\
  (board-setup (A (P a1)))\n\
  (win-condition (A) stalemated))\n";

pub fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Runs zogkit in `dir` and asserts the refusal: exit code 1, `code` located at `location`
/// (`file:line:col`, or a prefix such as `file:1:`), wall time and peak memory under the bounds.
/// Returns the run for further checks and prints its figures.
fn refused(dir: &Path, args: &[&str], code: &str, location: &str) -> Measured {
    let r = zogkit_measured(dir, args);
    let out = r.output();
    eprintln!(
        "{args:?}: exit {}, {:.3} s, peak {} KiB",
        r.code,
        r.wall.as_secs_f64(),
        r.peak_kib
    );
    assert_eq!(r.code, 1, "{args:?} should fail with exit 1:\n{out}");
    let shown = format!("[{code}]");
    let at = out
        .find(&shown)
        .unwrap_or_else(|| panic!("{args:?}: no {code} in:\n{out}"));
    let arrow = out[at..]
        .lines()
        .nth(1)
        .unwrap_or_else(|| panic!("{args:?}: {code} has no location line:\n{out}"));
    assert!(
        arrow.trim_start().starts_with("--> ") && arrow.contains(location),
        "{args:?}: {code} should be located at {location}, got {arrow:?}"
    );
    assert!(r.cpu < MAX_CPU, "{args:?} used {:?} of CPU", r.cpu);
    assert!(r.wall < MAX_WALL, "{args:?} hung for {:?}", r.wall);
    assert!(
        r.peak_kib < MAX_PEAK_KIB,
        "{args:?} peaked at {} KiB",
        r.peak_kib
    );
    r
}

fn ok(dir: &Path, args: &[&str]) -> Measured {
    let r = zogkit_measured(dir, args);
    assert_eq!(r.code, 0, "{args:?} should succeed:\n{}", r.output());
    r
}

/// `(define m1 (x))`, `(define m2 (m1))` … `(define mN (m{N-1}))` and a game calling `mN`:
/// expanding it nests N macro calls.
fn macro_chain(n: usize) -> String {
    let mut s = String::from("(define m1 (players A B))\n");
    for i in 2..=n {
        s.push_str(&format!("(define m{i} (m{}))\n", i - 1));
    }
    s.push_str(&format!("(game (title \"g\") (m{n}))\n"));
    s
}

#[test]
fn nesting_a_million_open_parens_check_and_convert() {
    let dir = scratch_dir("limits-nesting");
    write(&dir, "deep.zrf", &"(".repeat(1_000_000));
    for args in [
        &["check", "deep.zrf"][..],
        &["convert", "deep.zrf", "--to", "yaml"],
    ] {
        let r = refused(&dir, args, "zrf::too-deep", "deep.zrf:1:257");
        // One error per unclosed list would be 256; the rest are counted in one.
        assert!(r.output().matches("[zrf::unclosed-paren]").count() <= 9);
    }
    // Lowering the limit moves the error.
    refused(
        &dir,
        &["--limit", "nesting=10", "check", "deep.zrf"],
        "zrf::too-deep",
        "deep.zrf:1:11",
    );
}

#[test]
fn input_size_limit_for_zrf_ludii_and_chessembly() {
    let dir = scratch_dir("limits-input-bytes");
    // 9 MiB of harmless forms: over the 8 MiB default, refused before it is parsed.
    let big = format!("(game (title \"g\") {})\n", "(a b) ".repeat((9 << 20) / 6));
    write(&dir, "big.zrf", &big);
    let r = refused(
        &dir,
        &["check", "big.zrf"],
        "text::too-large",
        "big.zrf:1:1",
    );
    assert!(r.output().contains("8388608 bytes"), "{}", r.output());
    refused(
        &dir,
        &["convert", "big.zrf", "--to", "yaml"],
        "text::too-large",
        "big.zrf:1:1",
    );
    // An include over the limit is refused at its own start.
    write(&dir, "inc.zrf", "(include \"big.zrf\")\n");
    refused(
        &dir,
        &["check", "inc.zrf"],
        "text::too-large",
        "big.zrf:1:1",
    );
    // Configurable, and the same limit covers Ludii and Chessembly files.
    write(&dir, "g.zrf", GAME);
    write(
        &dir,
        "t.lud",
        "(game \"T\" (players 2) (equipment { (board (square 3)) (piece \"Disc\" Each) }) (rules (play (move Add (to (sites Empty))))))\n",
    );
    write(&dir, "rook.csm", "take-move(1, 0) repeat(1);\n");
    for f in ["g.zrf", "t.lud", "rook.csm"] {
        ok(&dir, &["convert", f, "--to", "yaml"]);
        refused(
            &dir,
            &["--limit", "input-bytes=10", "convert", f, "--to", "yaml"],
            "text::too-large",
            &format!("{f}:1:1"),
        );
    }
}

#[test]
fn macro_depth_limit_and_lowering_it() {
    let dir = scratch_dir("limits-macro-depth");
    write(&dir, "deep.zrf", &macro_chain(100));
    // m100 … m37 are 64 nested calls; the call of m36 in m37's body is refused.
    refused(
        &dir,
        &["check", "deep.zrf"],
        "zrf::macro-depth",
        "deep.zrf:37:13",
    );
    // A chain of four nested calls passes by default and is refused with a depth of 3.
    write(&dir, "four.zrf", &macro_chain(4));
    ok(&dir, &["check", "four.zrf"]);
    refused(
        &dir,
        &["--limit", "macro-depth=3", "check", "four.zrf"],
        "zrf::macro-depth",
        "four.zrf:2:",
    );
}

#[test]
fn exponential_macro_bomb_is_refused_by_expansion_nodes() {
    let dir = scratch_dir("limits-bomb");
    let mut s = String::from("(define b0 (x x x x x x x x x x))\n");
    for i in 1..=12 {
        let call = format!("(b{}) ", i - 1);
        s.push_str(&format!("(define b{i} {})\n", call.repeat(10)));
    }
    s.push_str("(game (title \"g\") (b12))\n");
    write(&dir, "bomb.zrf", &s);
    refused(
        &dir,
        &["check", "bomb.zrf"],
        "zrf::expansion-too-large",
        "bomb.zrf:14:1",
    );
    refused(
        &dir,
        &["convert", "bomb.zrf", "--to", "yaml"],
        "zrf::expansion-too-large",
        "bomb.zrf:14:1",
    );
}

#[test]
fn macro_calls_limit() {
    let dir = scratch_dir("limits-macro-calls");
    let calls: String = (0..20).map(|i| format!("(m p{i}) ")).collect();
    write(
        &dir,
        "calls.zrf",
        &format!("(define m (x $1))\n(game (title \"g\") {calls})\n"),
    );
    ok(&dir, &["check", "calls.zrf"]);
    refused(
        &dir,
        &["--limit", "macro-calls=5", "check", "calls.zrf"],
        "zrf::macro-calls",
        "calls.zrf:2:",
    );
}

#[test]
fn flat_list_limit_stops_a_doubling_macro() {
    // Found by `cargo xtask fuzz`: 2^20 items spliced into one list cost 440 MB and seconds,
    // though the expansion itself is shared and cheap.
    let dir = scratch_dir("limits-list-items");
    let mut text = String::from("(define m0 (x) (y))\n");
    for i in 1..=20 {
        text.push_str(&format!("(define m{i} (m{}) (m{}))\n", i - 1, i - 1));
    }
    text.push_str("(game (title \"g\") (m19))\n");
    write(&dir, "flat.zrf", &text);
    for cmd in ["check", "convert"] {
        let mut args = vec![cmd, "flat.zrf"];
        if cmd == "convert" {
            args.extend(["--to", "yaml", "-o", "-"]);
        }
        refused(&dir, &args, "zrf::list-too-long", "flat.zrf:22:19");
    }
    // 8 doublings (512 items) pass by default and are refused with a lower limit.
    write(&dir, "small.zrf", &text.replace("(m19)", "(m8)"));
    ok(&dir, &["check", "small.zrf"]);
    refused(
        &dir,
        &["--limit", "list-items=100", "check", "small.zrf"],
        "zrf::list-too-long",
        "small.zrf:22:19",
    );
}

#[test]
fn include_depth_limit() {
    let dir = scratch_dir("limits-include-depth");
    write(
        &dir,
        "top.zrf",
        "(include \"i1.inc\")\n(game (title \"g\"))\n",
    );
    for i in 1..40 {
        write(
            &dir,
            &format!("i{i}.inc"),
            &format!("(include \"i{}.inc\")\n", i + 1),
        );
    }
    write(&dir, "i40.inc", "(define x (y))\n");
    // 16 nested includes are read; the 17th is refused where i16.inc asks for it.
    refused(
        &dir,
        &["check", "top.zrf"],
        "zrf::include-depth",
        "i16.inc:1:1",
    );
    refused(
        &dir,
        &["--limit", "include-depth=2", "check", "top.zrf"],
        "zrf::include-depth",
        "i2.inc:1:1",
    );
}

#[test]
fn huge_grid_is_refused_without_building_it() {
    let dir = scratch_dir("limits-grid");
    let labels: Vec<String> = (0..100_000).map(|i| format!("c{i}")).collect();
    let labels = labels.join("/");
    let board = format!(
        "(board (grid (start-rectangle 0 0 1 1) (dimensions (\"{labels}\" (1 0)) (\"{labels}\" (0 1))) (directions (n 0 -1))))"
    );
    let text = GAME.replacen(GAME.lines().nth(1).unwrap(), &format!("  {board}"), 1);
    write(&dir, "grid.zrf", &text);
    let r = refused(
        &dir,
        &["convert", "grid.zrf", "--to", "yaml"],
        "spec::board-too-large",
        "grid.zrf:2:3",
    );
    assert!(
        r.output().contains("10000000000 positions"),
        "{}",
        r.output()
    );
    refused(
        &dir,
        &["info", "grid.zrf"],
        "spec::board-too-large",
        "grid.zrf:2:3",
    );
    // The limit is configurable: the 2×2 board of GAME passes by default, not with 3 positions.
    write(&dir, "small.zrf", GAME);
    ok(&dir, &["convert", "small.zrf", "--to", "yaml"]);
    refused(
        &dir,
        &[
            "--limit",
            "positions=3",
            "convert",
            "small.zrf",
            "--to",
            "yaml",
        ],
        "spec::board-too-large",
        "small.zrf:2:1",
    );
}

#[test]
fn pieces_limit_on_setup_and_definitions() {
    let dir = scratch_dir("limits-pieces");
    let many = " a1".repeat(100_001);
    write(
        &dir,
        "setup.zrf",
        &GAME.replace("(P a1)", &format!("(P{many})")),
    );
    refused(
        &dir,
        &["convert", "setup.zrf", "--to", "yaml"],
        "zrf::too-many-pieces",
        "setup.zrf:4:",
    );
    let two = GAME.replace(
        "(board-setup",
        "(piece (name Q) (moves (n add)))\n(board-setup",
    );
    write(&dir, "two.zrf", &two);
    ok(&dir, &["convert", "two.zrf", "--to", "yaml"]);
    refused(
        &dir,
        &["--limit", "pieces=1", "convert", "two.zrf", "--to", "yaml"],
        "zrf::too-many-pieces",
        "two.zrf:4:1",
    );
}

#[test]
fn move_blocks_limit_stops_a_macro_repeated_into_every_piece() {
    // A 5,000-block macro body in each of 40 pieces lowers into 200,000 blocks (a fuzzed
    // 62 KB file of this shape took 2.7 s and wrote 67 MB of YAML before the limit).
    let dir = scratch_dir("limits-move-blocks");
    let body = " (n add)".repeat(5_000);
    let pieces: String = (0..40)
        .map(|k| format!("(piece (name P{k}) (moves (mv)))\n"))
        .collect();
    let text = format!("(define mv{body})\n")
        + &GAME.replace("(board-setup", &format!("{pieces}(board-setup"));
    write(&dir, "blocks.zrf", &text);
    // With P's own block, the 20th of them (P19, line 24) holds block 100,001: the error points
    // at its macro call.
    refused(
        &dir,
        &["convert", "blocks.zrf", "--to", "yaml"],
        "zrf::too-many-move-blocks",
        "blocks.zrf:24:26",
    );
    ok(
        &dir,
        &[
            "--limit",
            "move-blocks=300000",
            "convert",
            "blocks.zrf",
            "--to",
            "yaml",
            "-o",
            "out",
        ],
    );
}

#[test]
fn billion_laughs_yaml_is_refused_quickly() {
    let dir = scratch_dir("limits-yaml");
    let mut s = String::from(
        "a0: &a0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n",
    );
    for i in 1..10 {
        let refs = vec![format!("*a{}", i - 1); 9].join(", ");
        s.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    write(&dir, "laughs.yaml", &s);
    refused(
        &dir,
        &["convert", "laughs.yaml", "--to", "zrf"],
        "yaml::alias-limit",
        "laughs.yaml:2:10",
    );
}

#[test]
fn yaml_size_limit() {
    let dir = scratch_dir("limits-yaml-bytes");
    write(&dir, "g.zrf", GAME);
    ok(&dir, &["convert", "g.zrf", "--to", "yaml", "-o", "g.yaml"]);
    ok(&dir, &["convert", "g.yaml", "--to", "zrf"]);
    refused(
        &dir,
        &[
            "--limit",
            "yaml-bytes=100",
            "convert",
            "g.yaml",
            "--to",
            "zrf",
        ],
        "yaml::too-large",
        "g.yaml:",
    );
}

#[test]
fn chessembly_step_limit_stops_a_loop_with_a_located_warning() {
    let dir = scratch_dir("limits-chessembly");
    // `observe(0, 1)` never moves the anchor: the `do … while` never ends.
    write(
        &dir,
        "loop.csm",
        "move(0, 1) do observe(0, 1) while;\ntake-move(1, 0);\n",
    );
    let args = [
        "moves",
        "loop.csm",
        "--board",
        "8/8/8/8/8/8/8/8",
        "--at",
        "d4",
    ];
    let r = zogkit_measured(&dir, &args);
    assert_eq!(r.code, 0, "a step-limit stop is a warning:\n{}", r.output());
    assert!(
        r.stderr.contains("[chessembly::step-limit]"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("--> loop.csm:1:"), "{}", r.stderr);
    assert!(r.stderr.contains("1000 steps"), "{}", r.stderr);
    assert!(
        r.cpu < MAX_CPU && r.wall < MAX_WALL && r.peak_kib < MAX_PEAK_KIB,
        "{r:?}"
    );
    // The global limit sets the default of `--step-limit`.
    let lowered = zogkit_measured(
        &dir,
        &[&["--limit", "chessembly-steps=7"][..], &args].concat(),
    );
    assert!(lowered.stderr.contains("7 steps"), "{}", lowered.stderr);
}

#[test]
fn ludii_nesting_board_size_and_macro_limits() {
    let dir = scratch_dir("limits-ludii");
    write(&dir, "deep.lud", &"(".repeat(1_000_000));
    refused(
        &dir,
        &["convert", "deep.lud", "--to", "yaml"],
        "ludii::too-deep",
        "deep.lud:1:",
    );
    let game = "(game \"T\" (players 2) (equipment { (board (square 3)) (piece \"Disc\" Each) }) \
                (rules (play (move Add (to (sites Empty)))) (end (if (is Full) (result Mover Draw)))))\n";
    write(
        &dir,
        "big.lud",
        &game.replace("(square 3)", "(square 100000)"),
    );
    refused(
        &dir,
        &["convert", "big.lud", "--to", "yaml"],
        "ludii::bad-board",
        "big.lud:1:",
    );
    write(
        &dir,
        "boom.lud",
        "(define \"Boom\" (x \"Boom\" \"Boom\"))\n(game \"T\" \"Boom\")\n",
    );
    refused(
        &dir,
        &["convert", "boom.lud", "--to", "yaml"],
        "ludii::macro-limit",
        "boom.lud:",
    );
}

#[test]
fn includes_outside_the_input_tree_are_refused_unless_allowed() {
    let dir = scratch_dir("limits-include-outside");
    write(&dir, "secret.inc", "(define pl (players A B))\n");
    write(
        &dir,
        "games/g.zrf",
        "(include \"../secret.inc\")\n(game (title \"g\") (pl))\n",
    );
    let r = refused(
        &dir,
        &["check", "games/g.zrf"],
        "zrf::include-outside",
        "games/g.zrf:1:1",
    );
    assert!(
        r.output().contains("games/../secret.inc is outside games"),
        "{}",
        r.output()
    );
    assert!(
        r.output().contains("--allow-include-outside"),
        "{}",
        r.output()
    );
    ok(&dir, &["--allow-include-outside", "check", "games/g.zrf"]);
    // Every command that reads includes is confined.
    for cmd in [&["expand"][..], &["info"], &["convert", "--to", "yaml"]] {
        let args = [cmd, &["games/g.zrf"]].concat();
        let r = zogkit_measured(&dir, &args);
        assert!(
            r.output().contains("[zrf::include-outside]"),
            "{args:?}: {}",
            r.output()
        );
        assert_ne!(r.code, 0, "{args:?}");
    }
    // When a directory is searched, its whole tree is the root: `..` inside it is fine.
    ok(&dir, &["check", "."]);
    // A symlink inside the tree that points outside counts as outside.
    #[cfg(unix)]
    {
        write(
            &dir,
            "games/h.zrf",
            "(include \"link.inc\")\n(game (title \"g\") (pl))\n",
        );
        std::os::unix::fs::symlink(dir.join("secret.inc"), dir.join("games/link.inc")).unwrap();
        refused(
            &dir,
            &["check", "games/h.zrf"],
            "zrf::include-outside",
            "games/h.zrf:1:1",
        );
        ok(&dir, &["--allow-include-outside", "check", "games/h.zrf"]);
    }
}

#[test]
fn bad_limit_settings_are_usage_errors_and_help_lists_every_limit() {
    let dir = scratch_dir("limits-usage");
    write(&dir, "g.zrf", GAME);
    for (setting, says) in [
        ("bogus=1", "unknown limit \"bogus\""),
        ("nesting", "expected NAME=VALUE"),
        ("nesting=ten", "not a whole number"),
        ("nesting=0", "at least 1"),
    ] {
        let r = zogkit_measured(&dir, &["--limit", setting, "check", "g.zrf"]);
        assert_eq!(r.code, 2, "{setting}: {}", r.output());
        assert!(r.stderr.contains(says), "{setting}: {}", r.stderr);
    }
    let help = zogkit_measured(&dir, &["help", "limits"]).stdout;
    let defaults = ReadOptions::default();
    for l in LIMITS {
        let line = format!("{}={}", l.name, defaults.limit(l.name).unwrap());
        assert!(help.contains(&line), "help limits lacks {line}:\n{help}");
    }
}

#[test]
fn docs_limits_md_lists_every_cli_limit_with_its_default_and_code() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/limits.md"))
        .expect("docs/limits.md");
    let defaults = ReadOptions::default();
    for l in LIMITS {
        let row = doc
            .lines()
            .find(|r| r.starts_with('|') && r.contains(&format!("`{}`", l.name)))
            .unwrap_or_else(|| panic!("docs/limits.md has no row for `{}`", l.name));
        let cells: Vec<String> = row
            .split('|')
            .map(|c| c.trim().replace(['`', '_', ','], ""))
            .collect();
        let default = defaults.limit(l.name).unwrap().to_string();
        assert!(
            cells.contains(&default),
            "`{}`: default {default} not in {row}",
            l.name
        );
        assert!(
            cells.contains(&l.code.to_string()),
            "`{}`: code {} not in {row}",
            l.name,
            l.code
        );
    }
}

/// The diagnostics of one `check --format json` run: `(code, message)` per diagnostic.
fn json_diagnostics(r: &Measured) -> Vec<(String, String)> {
    let doc: serde_json::Value = serde_json::from_str(&r.stdout)
        .unwrap_or_else(|e| panic!("check --format json printed no JSON ({e}):\n{}", r.output()));
    doc["files"]
        .as_array()
        .expect("files")
        .iter()
        .flat_map(|f| f["diagnostics"].as_array().cloned().unwrap_or_default())
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn top_level_atoms_do_not_flood_check() {
    let dir = scratch_dir("limits-top-level-flood");
    // 2 MB of top-level items that are not forms (a file in another format, say): one run of
    // atoms and strings, a `(board)` form that is not a ZRF top-level form, then another run.
    let half = "a \"s\" 1 ".repeat(125_000);
    let text = format!("{half}\n(board)\n{half}\n");
    assert!(text.len() >= 2_000_000, "{} bytes", text.len());
    write(&dir, "atoms.zrf", &text);
    let items = 125_000 * 3;
    for args in [
        &["check", "atoms.zrf"][..],
        &["check", "--format", "json", "atoms.zrf"],
    ] {
        let r = zogkit_measured(&dir, args);
        eprintln!(
            "{args:?}: exit {}, {:.3} s, peak {} KiB, {} bytes of output",
            r.code,
            r.wall.as_secs_f64(),
            r.peak_kib,
            r.stdout.len()
        );
        // Warnings only, as before: the exit status is unchanged.
        assert_eq!(r.code, 0, "{args:?}:\n{}", r.output());
        assert!(r.cpu < MAX_CPU, "{args:?} used {:?} of CPU", r.cpu);
        assert!(r.wall < MAX_WALL, "{args:?} hung for {:?}", r.wall);
        assert!(
            r.peak_kib < MAX_PEAK_KIB,
            "{args:?} peaked at {} KiB",
            r.peak_kib
        );
        assert!(
            r.stdout.len() < 10_000,
            "{} bytes of output",
            r.stdout.len()
        );
        if args[1] == "--format" {
            let d = json_diagnostics(&r);
            let runs = format!("{items} items at top level are not ZRF forms");
            // The three top-level warnings, and the note that the file has no game.
            assert_eq!(d.len(), 4, "{d:#?}");
            assert!(
                d[..3].iter().all(|(c, _)| c == "zrf::unknown-top-level"),
                "{d:#?}"
            );
            assert_eq!(d[3].0, "zrf::no-game", "{d:#?}");
            assert!(d[0].1.starts_with(&runs), "{d:#?}");
            assert!(d[1].1.contains("`(board …)`"), "{d:#?}");
            assert!(d[2].1.starts_with(&runs), "{d:#?}");
        } else {
            // Each run is located at its first item and spans to its last (line 1 and line 3).
            let out = r.output();
            assert!(out.contains("--> atoms.zrf:1:1\n"), "{out}");
            assert!(out.contains("--> atoms.zrf:3:1\n"), "{out}");
            assert!(out.contains("0 errors, 3 warnings"), "{out}"); // `zrf::no-game` is a note
        }
    }
}

#[test]
fn repeated_diagnostics_are_capped_per_code() {
    let dir = scratch_dir("limits-diagnostic-cap");
    // 1000 unknown top-level forms (each its own warning) and 1000 unknown ones after an error.
    write(
        &dir,
        "forms.zrf",
        &format!("{GAME}{}", "(board)\n".repeat(1000)),
    );
    let r = zogkit_measured(&dir, &["check", "--format", "json", "forms.zrf"]);
    assert_eq!(r.code, 0, "{}", r.output());
    let d = json_diagnostics(&r);
    assert_eq!(d.len(), 101, "{d:#?}");
    assert!(
        d.iter().all(|(c, _)| c == "zrf::unknown-top-level"),
        "{d:#?}"
    );
    assert!(d[..100].iter().all(|(_, m)| m.contains("`(board …)`")));
    assert!(
        d[100]
            .1
            .starts_with("900 more warnings with code `zrf::unknown-top-level`"),
        "{}",
        d[100].1
    );
    // Errors stay errors: the summary of capped errors is an error and the exit status is 1.
    write(
        &dir,
        "errors.zrf",
        &format!("{GAME}{}", "(define)\n".repeat(300)),
    );
    let r = zogkit_measured(&dir, &["check", "errors.zrf"]);
    let out = r.output();
    assert_eq!(r.code, 1, "{out}");
    assert_eq!(out.matches("error[zrf::bad-define]").count(), 101, "{out}");
    assert!(
        out.contains("error[zrf::bad-define]: 200 more errors with code `zrf::bad-define`"),
        "{out}"
    );
    assert!(out.contains("101 errors, 0 warnings"), "{out}");
}
