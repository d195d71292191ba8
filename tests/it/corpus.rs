//! The corpus harness, one for every format: each input under `corpus/<folder>/` is run through
//! the real binary and compared with `golden/<folder>/`. Adding a format means adding a folder
//! (and a row to `FOLDERS`).
//!
//! For each input `corpus/<folder>/<stem>.<ext>`:
//! - `<stem>.diag`: the transcript of `zogkit check -v`, then of `zogkit convert --to T` for every
//!   writer T (diagnostics on standard error and exit status; skipped when `check` failed, since
//!   `convert` reads as `check` does, `outcomes.rs`), or of the one conversion the input names;
//! - `<stem>.<T's extension>` (`.yaml`, `.zrf`, `.lud`, `.csm`, `.ini`): the bytes each writer
//!   wrote, when it succeeded (outputs over 200 KB are only counted in the transcript);
//! - per folder, more: `zrf` — `<stem>.txt`, the `expand` listing (and `board` for `board_*`);
//!   `chessembly` — `<stem>.txt`, the chain shapes and the hand-checked cases of `<stem>.cases`
//!   (`tests/it/corpus/cases.rs`); `render` — `render` instead of the conversions, its transcript in the
//!   `.diag` and the composed start position `<stem>.png`, compared pixel by pixel
//!   (`common::png`).
//!
//! A first line `; zogkit-args: ARGS` (or `# zogkit-args: ARGS`) adds ARGS to every command; ARGS
//! from `--to` on name the one conversion the case is about (`# zogkit-args: --to fsf --verify`).
//! `_err_` / `err-` inputs must show a diagnostic and stay within the hostile-input budgets
//! (1 s of CPU, 200 MB); no input may make zogkit panic; every other input converts to YAML.
//! `UPDATE_GOLDEN=1` rewrites the goldens.

mod cases;

use crate::common::{self, Measured};
use rayon::prelude::*;
use std::path::Path;
use std::time::Duration;

const REPO: &str = env!("CARGO_MANIFEST_DIR");

/// What the harness runs on each input of a folder, besides `check`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    /// `convert --to T` for every writer T (or the input's own conversion).
    Convert,
    /// `expand` (and `board` for `board_*` inputs) into `<stem>.txt`.
    Expand,
    /// Chessembly's chain shapes and hand-checked cases into `<stem>.txt`.
    Cases,
    /// `render --format png --start`: warnings into the `.diag`, `start.png` as `<stem>.png`.
    Render,
}

/// One corpus folder.
struct Folder {
    /// `corpus/<name>` and `golden/<name>`.
    name: &'static str,
    /// Input extensions, each with the arguments every command gets for it.
    inputs: &'static [(&'static str, &'static [&'static str])],
    steps: &'static [Step],
    /// An error case's `.diag` must show one of these.
    err_shows: &'static [&'static str],
    /// An error case must show a located diagnostic, unless it shows one of these codes about
    /// the whole file (`None`: no such requirement).
    located_except: Option<&'static [&'static str]>,
    /// The folder holds at least this many inputs (a broken listing would pass vacuously).
    min_inputs: usize,
}

const FOLDERS: &[Folder] = &[
    Folder {
        name: "zrf",
        inputs: &[("zrf", &[])],
        steps: &[Step::Convert, Step::Expand],
        err_shows: &["error[", "warning[", "note["],
        located_except: None,
        min_inputs: 20,
    },
    Folder {
        name: "ludii",
        inputs: &[("lud", &[]), ("txt", &["--from", "ludii-english"])],
        steps: &[Step::Convert],
        err_shows: &["error[", "warning["],
        located_except: Some(&["ludii::no-game", "ludii::not-english"]),
        min_inputs: 12,
    },
    Folder {
        name: "chessembly",
        inputs: &[("csm", &[])],
        steps: &[Step::Convert, Step::Cases],
        err_shows: &["error["],
        located_except: None,
        min_inputs: 8,
    },
    Folder {
        name: "yaml",
        inputs: &[("yaml", &[])],
        steps: &[Step::Convert],
        err_shows: &["error[", "warning["],
        located_except: None,
        min_inputs: 2,
    },
    Folder {
        name: "fsf",
        inputs: &[("ini", &[])],
        steps: &[Step::Convert],
        err_shows: &["error[", "warning["],
        located_except: None,
        min_inputs: 2,
    },
    Folder {
        name: "render",
        inputs: &[("zrf", &[]), ("yaml", &[])],
        steps: &[Step::Render],
        err_shows: &["warning[render::", "error[render::"],
        located_except: None,
        min_inputs: 4,
    },
];

/// Every writer: its `--to` value and the extension of its golden.
const WRITERS: [(&str, &str); 5] = [
    ("yaml", "yaml"),
    ("zrf", "zrf"),
    ("lud", "lud"),
    ("chessembly", "csm"),
    ("fsf", "ini"),
];

/// Written outputs larger than this are counted in the transcript, not kept (Tai Shogi's YAML).
const MAX_KEPT: usize = 200_000;
/// Expansion listings longer than this are summarised by size (Tai Shogi).
const MAX_LISTING: usize = 20_000;
/// The budgets of a hostile (`_err_`) input, as `limits.rs` holds every refusal to them.
const MAX_CPU: Duration = Duration::from_secs(1);
const MAX_PEAK_KIB: u64 = 200 * 1024;
/// Only a hang guard: figures are CPU time, never wall time (`tidy.rs`).
const HANG: Duration = Duration::from_secs(60);

/// An input's arguments: for every command, and the one conversion it names (from `--to` on).
struct CaseArgs {
    global: Vec<String>,
    conversion: Option<Vec<String>>,
}

fn case_args(bytes: &[u8], folder_args: &[&str]) -> CaseArgs {
    let first = bytes.split(|&b| b == b'\n').next().unwrap_or(&[]);
    let first = String::from_utf8_lossy(first);
    let words: Vec<String> = first
        .trim_start_matches([';', '#'])
        .trim()
        .strip_prefix("zogkit-args:")
        .map(|a| a.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    let to = words.iter().position(|w| w == "--to");
    let mut global: Vec<String> = folder_args.iter().map(|a| a.to_string()).collect();
    global.extend(words[..to.unwrap_or(words.len())].iter().cloned());
    CaseArgs {
        global,
        conversion: to.map(|i| words[i..].to_vec()),
    }
}

fn is_err(stem: &str) -> bool {
    stem.contains("_err_") || stem.starts_with("err-")
}

/// One input's run: what failed, and how many hand-checked cases ran.
#[derive(Default)]
struct Outcome {
    failures: Vec<String>,
    cases_run: usize,
    converted_to_yaml: bool,
}

/// The run of one input: the transcript so far, the failures, the rules every command obeys.
struct Run<'a> {
    rel: &'a str,
    stem: &'a str,
    folder: &'a Folder,
    diag: String,
    out: Outcome,
}

impl Run<'_> {
    /// Runs `zogkit ARGS` (shown as `shown`) and checks the budgets and that nothing panicked.
    fn run(&mut self, args: &[&str], shown: &str) -> Measured {
        let m = common::zogkit_measured(Path::new(REPO), args);
        let rel = self.rel;
        if m.code == 101 {
            self.out
                .failures
                .push(format!("{rel}: `zogkit {shown}` panicked:\n{}", m.stderr));
        }
        assert!(m.wall < HANG, "{rel}: `zogkit {shown}` hung: {m:?}");
        if is_err(self.stem) && (m.cpu >= MAX_CPU || m.peak_kib >= MAX_PEAK_KIB) {
            self.out.failures.push(format!(
                "{rel}: `zogkit {shown}` is over the hostile-input budget: {:?} CPU, {} KiB",
                m.cpu, m.peak_kib
            ));
        }
        m
    }

    /// [`Run::run`], its transcript (standard output too when `stdout`) added to the `.diag`.
    fn zogkit(&mut self, args: &[&str], shown: &str, stdout: bool) -> Measured {
        let m = self.run(args, shown);
        m.transcript_into(&mut self.diag, shown, stdout);
        m
    }

    fn golden(&mut self, name: &str, text: &str) {
        if let Err(e) = common::check_golden(&format!("{}/{name}", self.folder.name), text) {
            self.out.failures.push(e);
        }
    }

    fn check(&mut self, args: &CaseArgs) -> i32 {
        let mut cmd = vec!["check", "-v"];
        cmd.extend(args.global.iter().map(String::as_str));
        cmd.push(self.rel);
        self.zogkit(&cmd, &cmd.join(" "), true).code
    }

    fn convert(&mut self, args: &CaseArgs, check_code: i32) {
        let conversions: Vec<Vec<String>> = match &args.conversion {
            Some(c) => vec![c.clone()],
            None if check_code != 0 => {
                self.diag
                    .push_str("\n(no conversion: check failed, and convert reads as check does)\n");
                Vec::new()
            }
            None => WRITERS
                .iter()
                .map(|(to, _)| vec!["--to".to_string(), to.to_string()])
                .collect(),
        };
        for conv in conversions {
            let mut cmd = vec!["convert"];
            cmd.extend(args.global.iter().map(String::as_str));
            cmd.push(self.rel);
            cmd.extend(conv.iter().map(String::as_str));
            let to = conv.get(1).map(String::as_str).unwrap_or_default();
            self.diag.push('\n');
            let m = self.zogkit(&cmd, &cmd.join(" "), false);
            if m.code != 0 || m.stdout_bytes.is_empty() {
                continue;
            }
            self.out.converted_to_yaml |= to == "yaml";
            let ext = WRITERS.iter().find(|(t, _)| *t == to).map_or(to, |w| w.1);
            if m.stdout_bytes.len() > MAX_KEPT {
                self.diag.push_str(&format!(
                    "({} bytes written, over {MAX_KEPT}: not kept as a golden)\n",
                    m.stdout_bytes.len()
                ));
                continue;
            }
            let golden = format!("{}/{}.{ext}", self.folder.name, self.stem);
            if let Err(e) = common::check_golden_bytes(&golden, &m.stdout_bytes) {
                self.out.failures.push(e);
            }
        }
    }

    /// `expand` (summarised when long) and, for a `board_*` input, `board`: the `.txt` golden.
    fn expand(&mut self, args: &CaseArgs) {
        let mut cmd = vec!["expand"];
        cmd.extend(args.global.iter().map(String::as_str));
        cmd.push(self.rel);
        let m = self.run(&cmd, &cmd.join(" "));
        let listing = &m.stdout;
        let mut t = format!("$ zogkit {}\n", cmd.join(" "));
        if listing.len() > MAX_LISTING {
            let headers: Vec<&str> = listing.lines().filter(|l| l.starts_with(";; ")).collect();
            t.push_str(&format!(
                "({} bytes, {} lines; entry headers follow)\n{}\n",
                listing.len(),
                listing.lines().count(),
                headers.join("\n")
            ));
        } else {
            t.push_str(listing);
            if !listing.ends_with('\n') {
                t.push('\n');
            }
        }
        t.push_str(&m.stderr);
        t.push_str(&format!("exit: {}\n", m.code));
        if self.stem.starts_with("board_") {
            cmd[0] = "board";
            t.push('\n');
            self.run(&cmd, &cmd.join(" "))
                .transcript_into(&mut t, &cmd.join(" "), true);
        }
        self.golden(&format!("{}.txt", self.stem), &t);
    }

    /// Chessembly's shapes and cases: the `.txt` golden of a script that compiles.
    fn cases(&mut self) {
        let root = Path::new(REPO);
        let text = std::fs::read_to_string(root.join(self.rel)).unwrap();
        let cases = std::fs::read_to_string(
            root.join(format!("corpus/{}/{}.cases", self.folder.name, self.stem)),
        )
        .ok();
        match cases::transcript(self.rel, &text, cases.as_deref()) {
            Some((t, mut failures, run)) => {
                self.out.failures.append(&mut failures);
                self.out.cases_run += run;
                self.golden(&format!("{}.txt", self.stem), &t);
            }
            None if is_err(self.stem) => {}
            None => self
                .out
                .failures
                .push(format!("{}: the script does not compile", self.rel)),
        }
    }

    /// `render` into a scratch folder: its transcript and the files it wrote go into the
    /// `.diag`; the composed start position is compared with `golden/render/<stem>.png`.
    fn render(&mut self, args: &CaseArgs) {
        let out = common::scratch_dir(&format!("corpus-render-{}", self.stem));
        let out_arg = out.to_str().unwrap();
        let mut cmd = vec!["render"];
        cmd.extend(args.global.iter().map(String::as_str));
        cmd.push(self.rel);
        let tail = ["--format", "png", "--start", "-q", "-o"];
        cmd.extend(tail);
        let shown = format!("{} OUT", cmd.join(" "));
        cmd.push(out_arg);
        self.diag.push('\n');
        let m = self.zogkit(&cmd, &shown, false);
        let mut written: Vec<String> = common::walk(&out)
            .iter()
            .map(|p| p.strip_prefix(&out).unwrap().display().to_string())
            .collect();
        written.sort();
        self.diag
            .push_str(&format!("written: {}\n", written.join(" ")));
        if m.code != 0 {
            return;
        }
        let start = tiny_skia::Pixmap::load_png(out.join("start.png"))
            .unwrap_or_else(|e| panic!("{}: start.png: {e}", self.rel));
        if let Err(e) = common::png::check_png(&format!("{}.png", self.stem), &start) {
            self.out.failures.push(format!("{}: {e}", self.rel));
        }
        let _ = std::fs::remove_dir_all(&out);
    }

    /// The rules every error case obeys: it shows a diagnostic, located where the folder asks.
    fn err_rules(&mut self) {
        let rel = self.rel;
        if !self.folder.err_shows.iter().any(|s| self.diag.contains(s)) {
            self.out.failures.push(format!(
                "{rel} is an error case but shows none of {:?}",
                self.folder.err_shows
            ));
        }
        if let Some(whole_file) = self.folder.located_except {
            let located = self.diag.contains(&format!("--> {rel}:"));
            let about_file = whole_file
                .iter()
                .any(|c| self.diag.contains(&format!("[{c}]")));
            if !located && !about_file {
                self.out.failures.push(format!(
                    "{rel}: an error case needs a located error or warning"
                ));
            }
        }
    }
}

impl Measured {
    /// Appends `$ zogkit SHOWN`, the output (standard output too when `stdout`: `check` and
    /// `board` print there, writers write their output there) and `exit: N`.
    fn transcript_into(&self, t: &mut String, shown: &str, stdout: bool) {
        t.push_str(&format!("$ zogkit {shown}\n"));
        if stdout {
            t.push_str(&self.stdout);
        }
        t.push_str(&self.stderr);
        t.push_str(&format!("exit: {}\n", self.code));
    }
}

fn run_input(folder: &Folder, file: &str, folder_args: &[&str]) -> Outcome {
    let rel = format!("corpus/{}/{file}", folder.name);
    let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
    let bytes = std::fs::read(Path::new(REPO).join(&rel)).unwrap();
    let args = case_args(&bytes, folder_args);
    let mut run = Run {
        rel: &rel,
        stem,
        folder,
        diag: String::new(),
        out: Outcome::default(),
    };
    let code = run.check(&args);
    for step in folder.steps {
        match step {
            Step::Convert => run.convert(&args, code),
            Step::Expand => run.expand(&args),
            Step::Cases => run.cases(),
            Step::Render => run.render(&args),
        }
    }
    if is_err(stem) {
        run.err_rules();
    } else if folder.steps.contains(&Step::Convert)
        && args.conversion.is_none()
        && !run.out.converted_to_yaml
    {
        run.out
            .failures
            .push(format!("{rel} should convert to a golden spec"));
    }
    let diag = std::mem::take(&mut run.diag);
    run.golden(&format!("{stem}.diag"), &diag);
    run.out
}

#[test]
fn every_corpus_input_matches_its_goldens() {
    let mut failures = Vec::new();
    let mut cases_run = 0;
    for folder in FOLDERS {
        let dir = Path::new(REPO).join("corpus").join(folder.name);
        let mut inputs: Vec<(String, &[&str])> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let ext = name.rsplit_once('.')?.1.to_string();
                let args = folder.inputs.iter().find(|(x, _)| *x == ext)?.1;
                Some((name, args))
            })
            .collect();
        inputs.sort();
        assert!(
            inputs.len() >= folder.min_inputs,
            "corpus/{}: {} inputs",
            folder.name,
            inputs.len()
        );
        let outcomes: Vec<Outcome> = inputs
            .par_iter()
            .map(|(file, args)| run_input(folder, file, args))
            .collect();
        for o in outcomes {
            failures.extend(o.failures);
            cases_run += o.cases_run;
        }
    }
    assert!(cases_run >= 30, "only {cases_run} Chessembly cases ran");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The first ZRF reader codes, each shown by an `_err_` case of `corpus/zrf` (the check that
/// predates `tidy.rs`'s `every_diagnostic_code_has_a_corpus_case`, which accepts any folder).
#[test]
fn every_zrf_reader_code_has_an_err_case() {
    let codes = [
        "zrf::unbalanced-paren",
        "zrf::unclosed-paren",
        "zrf::unterminated-string",
        "zrf::too-deep",
        "zrf::unicode-space",
        "zrf::unknown-top-level",
        "zrf::bad-define",
        "zrf::bad-include",
        "zrf::include-not-found",
        "zrf::include-cycle",
        "zrf::macro-redefined",
        "zrf::macro-arity",
        "zrf::unbound-param",
        "zrf::macro-recursive",
        "zrf::expansion-too-large",
        "zrf::variant-without-game",
        "text::weak-encoding-guess",
        "text::not-reencodable",
        "text::utf-16",
        "text::empty",
        "spec::unknown-direction",
        "spec::board-too-large",
        "zrf::duplicate-text",
    ];
    let root = Path::new(REPO).join("golden/zrf");
    let all: String = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains("_err_"))
        .map(|e| String::from_utf8_lossy(&std::fs::read(e.path()).unwrap()).into_owned())
        .collect();
    for c in codes {
        assert!(all.contains(&format!("[{c}]")), "no _err_ golden shows {c}");
    }
}

#[test]
fn case_arguments_split_at_the_conversion() {
    let a = case_args(b"; zogkit-args: --limit pieces=2\n(game)", &[]);
    assert_eq!(a.global, ["--limit", "pieces=2"]);
    assert!(a.conversion.is_none());
    let a = case_args(b"# zogkit-args: --to zrf --verify\n", &["--from", "yaml"]);
    assert_eq!(a.global, ["--from", "yaml"]);
    assert_eq!(a.conversion.unwrap(), ["--to", "zrf", "--verify"]);
    let a = case_args(b"# a comment\n", &[]);
    assert!(a.global.is_empty() && a.conversion.is_none());
}
