//! Batch conversion loses nothing and writes nowhere else: inputs are never modified, outputs are
//! atomic even when the process is killed, existing outputs need `--force`, case-only name
//! collisions are refused, odd file names work, failures do not stop a batch, symlink loops are
//! skipped and no write leaves the output directory; `check` reads each named file in its own
//! format. Each test runs the real binary in a scratch directory (Unix: permissions, signals and
//! non-UTF-8 names).
#![cfg(unix)]

use crate::common;

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant, SystemTime};

const REPO: &str = env!("CARGO_MANIFEST_DIR");

/// A fresh scratch directory for one test; permissions are restored before it is removed.
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("batch")
        .join(name);
    if d.exists() {
        make_writable(&d);
        std::fs::remove_dir_all(&d).unwrap();
    }
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn make_writable(dir: &Path) {
    let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755));
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() {
            make_writable(&p);
        } else if ft.is_file() {
            let _ = std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644));
        }
    }
}

/// Runs zogkit in `cwd`.
fn zogkit_in(cwd: &Path, args: &[&OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zogkit"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .expect("run zogkit")
}

/// `zogkit_in` with string arguments.
fn run(cwd: &Path, args: &[&str]) -> (i32, String, String) {
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    let o = zogkit_in(cwd, &args);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn corpus(name: &str) -> PathBuf {
    Path::new(REPO).join("corpus/zrf").join(name)
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(from, to).unwrap_or_else(|e| panic!("copy {}: {e}", from.display()));
}

/// Every regular file under `dir` (not following links), relative, sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let ft = e.file_type().unwrap();
            if ft.is_dir() {
                stack.push(e.path());
            } else if ft.is_file() {
                out.push(e.path().strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// Path → (sha256, mtime, mode) for every file and directory under `dir`.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (String, SystemTime, u32)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let m = std::fs::symlink_metadata(&d).unwrap();
        out.insert(
            d.clone(),
            (String::new(), m.modified().unwrap(), m.permissions().mode()),
        );
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let m = std::fs::symlink_metadata(&p).unwrap();
            if m.is_dir() {
                stack.push(p);
            } else {
                let hash = format!("{:x}", Sha256::digest(std::fs::read(&p).unwrap()));
                out.insert(p, (hash, m.modified().unwrap(), m.permissions().mode()));
            }
        }
    }
    out
}

fn set_mode_recursive(dir: &Path, file_mode: u32, dir_mode: u32) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if e.file_type().unwrap().is_dir() {
            set_mode_recursive(&p, file_mode, dir_mode);
        } else {
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(file_mode)).unwrap();
        }
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(dir_mode)).unwrap();
}

/// A few real inputs, with an include and a subfolder.
fn sample_inputs(dir: &Path) {
    for f in ["macro_001.zrf", "variant_001.zrf", "encoding_sjis_001.zrf"] {
        copy(&corpus(f), &dir.join(f));
    }
    copy(&corpus("include_001.zrf"), &dir.join("sub/include_001.zrf"));
    copy(
        &corpus("include_001_common.inc"),
        &dir.join("sub/include_001_common.inc"),
    );
    copy(
        &corpus("render_minishogi.zrf"),
        &dir.join("sub/deeper/render_minishogi.zrf"),
    );
}

#[test]
fn inputs_are_never_modified_and_never_written_over() {
    let root = scratch("untouched");
    let input = root.join("in");
    sample_inputs(&input);
    // YAML inputs too, for --from yaml runs that could write YAML over YAML.
    let (code, _, err) = run(&root, &["convert", "in", "--to", "yaml", "-o", "yin", "-q"]);
    assert_eq!(code, 0, "{err}");
    set_mode_recursive(&input, 0o444, 0o555);
    set_mode_recursive(&root.join("yin"), 0o444, 0o555);
    let inputs_now = || {
        let mut s = snapshot(&input);
        s.extend(snapshot(&root.join("yin")));
        s
    };
    let before = inputs_now();
    let runs: &[&[&str]] = &[
        &["convert", "in", "--to", "yaml", "-o", "out-yaml", "-q"],
        &["convert", "in", "--to", "zrf", "-o", "out-zrf", "-q"],
        &["fmt", "--check", "in"],
        &["check", "-q", "in"],
    ];
    for args in runs {
        let (code, _, err) = run(&root, args);
        assert!(code <= 1, "{args:?}: exit {code}\n{err}");
    }
    let after = inputs_now();
    assert_eq!(after.len(), before.len());
    for (path, state) in &before {
        assert_eq!(
            after.get(path),
            Some(state),
            "{} changed (content, mtime or mode)",
            path.display()
        );
    }
    assert_eq!(files_under(&root.join("out-yaml")).len(), 5);
    assert_eq!(files_under(&root.join("out-zrf")).len(), 5);
    // Writing onto an input is refused up front, however the paths are spelled (as root the
    // read-only modes would not stop it, so this is the guard).
    let refusals: &[&[&str]] = &[
        &["convert", "in", "--to", "zrf", "-o", "in"],
        &["convert", "in", "--to", "zrf", "-o", "./in/", "--force"],
        &[
            "convert",
            "in/macro_001.zrf",
            "--to",
            "zrf",
            "-o",
            "in/macro_001.zrf",
            "--force",
        ],
        &["convert", "in/macro_001.zrf", "--to", "zrf", "-o", "in"],
        &[
            "convert", "yin", "--from", "yaml", "--to", "yaml", "-o", "./yin", "--force",
        ],
        &[
            "convert",
            "in",
            "--to",
            "yaml",
            "-o",
            "out-r",
            "--report",
            "in/macro_001.zrf",
        ],
    ];
    for args in refusals {
        let (code, _, err) = run(&root, args);
        assert_eq!(code, 2, "{args:?} must be refused: {err}");
        assert!(
            err.contains("refusing to write") && err.contains("over the input"),
            "{args:?}: {err}"
        );
    }
    assert!(!root.join("out-r").exists(), "a refused run writes nothing");
    assert!(inputs_now() == before, "a refused run changed an input");
    make_writable(&root);
}

/// Spawns `convert` of the shared corpus into `out`, waits until `after` outputs have their
/// final name, then sends `signal`. Returns the exit status and standard error, or `None` when
/// the run ended before the signal could interrupt it.
fn interrupted_run(
    shared: &Path,
    out: &Path,
    signal: &str,
    after: usize,
) -> Option<(std::process::ExitStatus, String)> {
    let _ = std::fs::remove_dir_all(out);
    let _ = std::fs::remove_file(out.with_extension("json"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_zogkit"))
        .args(["convert", "--to", "yaml", "-q", "-o"])
        .arg(out)
        .arg("--report")
        .arg(out.with_extension("json"))
        .arg(shared)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        let started = out.is_dir()
            && files_under(out)
                .iter()
                .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
                .count()
                >= after;
        if started {
            if signal == "KILL" {
                let _ = child.kill();
            } else {
                let ok = Command::new("kill")
                    .args([&format!("-{signal}"), &child.id().to_string()])
                    .status()
                    .unwrap();
                assert!(ok.success());
            }
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "no output appeared"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let finished_alone = o.status.code() == Some(0);
    (!finished_alone).then_some((o.status, err))
}

/// Every file under `out` with a final name is byte-identical to the uninterrupted run's.
fn assert_complete_outputs(out: &Path, reference: &Path) -> (usize, usize) {
    let (mut finals, mut temps) = (0, 0);
    for rel in files_under(out) {
        let name = rel.file_name().unwrap().as_bytes();
        if name.starts_with(b".") && name.ends_with(b".tmp") {
            temps += 1;
            continue;
        }
        finals += 1;
        let got = std::fs::read(out.join(&rel)).unwrap();
        let want = std::fs::read(reference.join(&rel))
            .unwrap_or_else(|_| panic!("{} is not an output of the full run", rel.display()));
        assert!(got == want, "{} is not complete", rel.display());
    }
    (finals, temps)
}

#[test]
fn killed_or_interrupted_runs_leave_only_complete_outputs() {
    let Some(shared) = common::shared_zrf() else {
        return;
    };
    let root = scratch("killed");
    let reference = root.join("reference");
    let o = zogkit_in(
        &root,
        &[
            "convert".as_ref(),
            shared.as_os_str(),
            "--to".as_ref(),
            "yaml".as_ref(),
            "-q".as_ref(),
            "-o".as_ref(),
            reference.as_os_str(),
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let total = files_under(&reference).len();
    assert_eq!(total, 434);

    // SIGKILL: no handler runs; files with a final name are complete, temporaries may remain.
    let killed = root.join("killed");
    let (status, _) = (0..5)
        .find_map(|attempt| interrupted_run(&shared, &killed, "KILL", 40 >> attempt))
        .expect("the run always finished before SIGKILL; machine too fast?");
    assert_eq!(status.signal(), Some(9));
    let (finals, temps) = assert_complete_outputs(&killed, &reference);
    assert!(finals >= 1 && finals < total, "{finals} of {total} written");
    eprintln!("SIGKILL: {finals} complete outputs, {temps} temporary files left");
    // The next run into the same directory removes stale temporaries of the files it writes
    // (one is planted so the check does not depend on the kill's timing) and finishes the job.
    let first = files_under(&reference)[0].clone();
    let planted = killed.join(first.parent().unwrap()).join(format!(
        ".{}.{}.tmp",
        first.file_name().unwrap().to_str().unwrap(),
        dead_pid()
    ));
    std::fs::create_dir_all(planted.parent().unwrap()).unwrap();
    std::fs::write(&planted, b"partial").unwrap();
    let o = zogkit_in(
        &root,
        &[
            "convert".as_ref(),
            shared.as_os_str(),
            "--to".as_ref(),
            "yaml".as_ref(),
            "-q".as_ref(),
            "--force".as_ref(),
            "-o".as_ref(),
            killed.as_os_str(),
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(assert_complete_outputs(&killed, &reference), (total, 0));

    // SIGINT (Ctrl-C): files being read are abandoned, nothing new starts or is written (a write
    // already begun is finished), no temporary is left,
    // exit 130 with a note of what was not converted.
    let int = root.join("sigint");
    let (status, err) = (0..5)
        .find_map(|attempt| interrupted_run(&shared, &int, "INT", 20 >> attempt))
        .expect("the run always finished before SIGINT");
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted: "), "{err}");
    let (finals, temps) = assert_complete_outputs(&int, &reference);
    assert_eq!(temps, 0, "Ctrl-C left temporary files");
    assert!(finals >= 1 && finals < total, "{finals} of {total} written");
    let missing: usize = err
        .split("interrupted: ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("count of files not converted");
    assert!(missing > 0 && missing <= total - finals, "{err}");
    assert!(err.contains("with --update"), "{err}");
    eprintln!("SIGINT: {finals} complete outputs, {missing} reported not converted");
    // The report gives the files never started a third state, `skipped` (not `failed: false`).
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(int.with_extension("json")).unwrap()).unwrap();
    let files = report["files"].as_array().unwrap();
    let skipped: Vec<&serde_json::Value> =
        files.iter().filter(|f| f["status"] == "skipped").collect();
    assert_eq!(skipped.len(), missing);
    assert_eq!(report["summary"]["skipped"], missing);
    for f in files {
        let status = f["status"].as_str().unwrap();
        assert!(["converted", "skipped"].contains(&status), "{f}");
        assert_eq!(f["failed"], false, "{f}");
    }
    // `--update` resumes: only the missing files are converted, the rest are up to date.
    let o = zogkit_in(
        &root,
        &[
            "convert".as_ref(),
            shared.as_os_str(),
            "--to".as_ref(),
            "yaml".as_ref(),
            "--update".as_ref(),
            "-o".as_ref(),
            int.as_os_str(),
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let converted = total - finals;
    assert!(
        err.contains(&format!("converted {converted} of {total} files"))
            && err.contains(&format!("{finals} up to date")),
        "{err}"
    );
    assert_eq!(assert_complete_outputs(&int, &reference), (total, 0));
}

/// The id of a process that has ended (a finished child's), for planting stale temporaries.
fn dead_pid() -> u32 {
    let mut child = Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

#[test]
fn existing_outputs_are_replaced_only_with_force() {
    let root = scratch("force");
    copy(&corpus("macro_001.zrf"), &root.join("a.zrf"));
    copy(&corpus("variant_001.zrf"), &root.join("in/b.zrf"));
    copy(&corpus("macro_001.zrf"), &root.join("in/c.zrf"));
    let (code, expected, err) = run(&root, &["convert", "a.zrf", "--to", "yaml"]);
    assert_eq!(code, 0, "{err}");
    assert!(expected.contains("\ngames:\n"));

    std::fs::write(root.join("a.yaml"), "keep me").unwrap();
    let (code, _, err) = run(&root, &["convert", "a.zrf", "--to", "yaml", "-o", "a.yaml"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("output a.yaml exists (use --force to overwrite); --update skips"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("a.yaml")).unwrap(),
        "keep me"
    );
    let (code, _, err) = run(
        &root,
        &[
            "convert", "a.zrf", "--to", "yaml", "-o", "a.yaml", "--force",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(root.join("a.yaml")).unwrap(),
        expected
    );

    // `-o -` is standard output: nothing to refuse, no file called `-`, with or without --force.
    for extra in [&[][..], &["--force"][..]] {
        let mut args = vec!["convert", "a.zrf", "--to", "yaml", "-o", "-"];
        args.extend(extra);
        let (code, out, err) = run(&root, &args);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, expected);
        assert!(!root.join("-").exists());
    }

    // Directories: the existing output is refused and kept, the others are written.
    let (code, expected_c, err) = run(&root, &["convert", "in/c.zrf", "--to", "yaml"]);
    assert_eq!(code, 0, "{err}");
    std::fs::create_dir_all(root.join("out")).unwrap();
    std::fs::write(root.join("out/b.yaml"), "old b").unwrap();
    let (code, _, err) = run(&root, &["convert", "in", "--to", "yaml", "-o", "out"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("output out/b.yaml exists"), "{err}");
    assert_eq!(
        std::fs::read_to_string(root.join("out/b.yaml")).unwrap(),
        "old b"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("out/c.yaml")).unwrap(),
        expected_c
    );
    let (code, _, err) = run(
        &root,
        &["convert", "in", "--to", "yaml", "-o", "out", "--force"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        std::fs::read_to_string(root.join("out/b.yaml"))
            .unwrap()
            .contains("\ngames:\n")
    );
    assert_eq!(
        files_under(&root.join("out")).len(),
        2,
        "no temporaries left"
    );
}

#[test]
fn names_differing_only_in_case_are_refused() {
    let root = scratch("case");
    copy(&corpus("macro_001.zrf"), &root.join("in/A.zrf"));
    copy(&corpus("variant_001.zrf"), &root.join("in/a.zrf"));
    copy(&corpus("macro_001.zrf"), &root.join("in/other.zrf"));
    let (code, _, err) = run(&root, &["convert", "in", "--to", "yaml", "-o", "out"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("in/A.zrf and in/a.zrf would be written to out/A.yaml and out/a.yaml")
            && err.contains("differ only in letter case"),
        "{err}"
    );
    assert!(
        !root.join("out").exists(),
        "nothing is written when the plan collides"
    );
}

#[test]
fn odd_file_names_are_mirrored_and_displayed() {
    let root = scratch("odd");
    let input = root.join("in");
    let names: Vec<&[u8]> = vec![
        b"with space.zrf",
        b"[x] (y).zrf",
        "ünï 将棋.zrf".as_bytes(),
        b"bad\xff.zrf",
        b"dir [1]/nested \xe9.zrf",
    ];
    for n in &names {
        copy(&corpus("macro_001.zrf"), &input.join(OsStr::from_bytes(n)));
    }
    let (code, _, err) = run(&root, &["convert", "in", "--to", "yaml", "-o", "out", "-q"]);
    assert_eq!(code, 0, "{err}");
    // Non-UTF-8 names map losslessly: the output name is the input's bytes with the new
    // extension.
    let mut want: Vec<PathBuf> = names
        .iter()
        .map(|n| PathBuf::from(OsStr::from_bytes(n)).with_extension("yaml"))
        .collect();
    want.sort();
    assert_eq!(files_under(&root.join("out")), want);
    let (code, _, err) = run(&root, &["convert", "in", "--to", "zrf", "-o", "back", "-q"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(files_under(&root.join("back")).len(), names.len());

    // Diagnostics and the failure list show the bytes that are not UTF-8 as \xNN.
    let bad = root.join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(
        bad.join(OsStr::from_bytes(b"br\xfeken [1].zrf")),
        "(game (title \"x\"",
    )
    .unwrap();
    let o = zogkit_in(
        &root,
        &[
            "convert", "bad", "--to", "yaml", "-o", "bad-out", "--report", "r.json",
        ]
        .map(OsStr::new),
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("--> bad/br\\xFEken [1].zrf:1:"), "{err}");
    assert!(err.contains("failed:\n  bad/br\\xFEken [1].zrf\n"), "{err}");
    assert!(!err.contains('\u{FFFD}'), "{err}");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("r.json")).unwrap()).unwrap();
    assert_eq!(report["files"][0]["input"], "bad/br\\xFEken [1].zrf");
}

#[test]
fn failures_do_not_stop_the_batch_and_are_listed_last() {
    let root = scratch("failures");
    let input = root.join("in");
    copy(&corpus("macro_001.zrf"), &input.join("good1.zrf"));
    copy(&corpus("variant_001.zrf"), &input.join("sub/good2.zrf"));
    std::fs::write(input.join("syntax.zrf"), "(game (title \"x\")\n(board").unwrap();
    let garbage: Vec<u8> = (0..2048u32).map(|i| (i * 7919 % 251) as u8).collect();
    std::fs::write(input.join("garbage.zrf"), garbage).unwrap();
    std::fs::write(input.join("empty.zrf"), "").unwrap();
    std::os::unix::fs::symlink("missing.zrf", input.join("dangling.zrf")).unwrap();
    let unreadable = input.join("unreadable.zrf");
    copy(&corpus("macro_001.zrf"), &unreadable);
    std::fs::set_permissions(&unreadable, std::fs::Permissions::from_mode(0o000)).unwrap();
    // Root reads anything; then this case cannot fail and is left out.
    let root_user = std::fs::read(&unreadable).is_ok();
    if root_user {
        std::fs::remove_file(&unreadable).unwrap();
    }
    let mut bad = vec![
        "in/dangling.zrf",
        "in/empty.zrf",
        "in/garbage.zrf",
        "in/syntax.zrf",
    ];
    if !root_user {
        bad.push("in/unreadable.zrf");
    }
    let (code, _, err) = run(&root, &["convert", "in", "--to", "yaml", "-o", "out"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        files_under(&root.join("out")),
        [PathBuf::from("good1.yaml"), PathBuf::from("sub/good2.yaml")]
    );
    // The report closes standard error: the failed files, then the summary.
    let tail = &err[err.rfind("failed:\n").expect(&err)..];
    let listed: Vec<&str> = tail
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(str::trim)
        .collect();
    assert_eq!(listed, bad, "{err}");
    let total = bad.len() + 2;
    assert!(
        tail.trim_end().ends_with(&format!(
            "converted 2 of {total} files to yaml, {} failed, {}",
            bad.len(),
            tail.trim_end().rsplit(", ").next().unwrap()
        )),
        "{tail}"
    );
    assert!(
        err.contains(
            "error[text::empty]: the file is empty: it holds no game\n --> in/empty.zrf:1:1"
        ),
        "{err}"
    );
    assert!(err.contains("error: cannot read in/dangling.zrf"), "{err}");
    assert!(
        err.contains("error[text::binary]: byte 0 is the control character 0x00: binary data, not a rule file; it is not read\n --> in/garbage.zrf:1:1"),
        "{err}"
    );
    // `check` fails the same files with the same exit status.
    let (code, out, _) = run(&root, &["check", "in"]);
    assert_eq!(code, 1, "{out}");
    let listed: Vec<&str> = out[out.find("files with errors:\n").expect(&out)..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(str::trim)
        .collect();
    assert_eq!(listed, bad, "{out}");
    make_writable(&root);
}

#[test]
fn symlink_loops_are_skipped_with_a_warning() {
    let root = scratch("loops");
    let input = root.join("in");
    copy(&corpus("macro_001.zrf"), &input.join("real.zrf"));
    copy(&corpus("variant_001.zrf"), &input.join("sub/real2.zrf"));
    copy(
        &corpus("macro_001.zrf"),
        &root.join("elsewhere/outside.zrf"),
    );
    let link = |target: &str, at: &str| std::os::unix::fs::symlink(target, input.join(at)).unwrap();
    link(".", "loop");
    link("..", "sub/up");
    link("..", "parent"); // the directory holding `in`: would walk `in` again from outside
    link("../elsewhere/outside.zrf", "linked.zrf"); // a file link out of the tree is followed
    // `-q` prints nothing but errors: the same runs without the warnings.
    for (args, quiet) in [
        (&["convert", "in", "--to", "yaml", "-o", "out"][..], false),
        (&["check", "in"][..], false),
        (
            &["convert", "in", "--to", "yaml", "-o", "out-q", "-q"][..],
            true,
        ),
        (&["check", "-q", "in"][..], true),
        (&["roundtrip", "-q", "in"][..], true),
    ] {
        let start = Instant::now();
        let mut child = Command::new(env!("CARGO_BIN_EXE_zogkit"))
            .args(args)
            .current_dir(&root)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > Duration::from_secs(120) {
                let _ = child.kill();
                panic!("{args:?} did not finish: walking in circles?");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        let out = String::from_utf8_lossy(&o.stdout);
        eprintln!("{args:?}: {:.2} s", start.elapsed().as_secs_f64());
        assert_eq!(o.status.code(), Some(0), "{args:?}\n{err}");
        if quiet {
            assert!(err.is_empty(), "{args:?}: {err}");
            continue;
        }
        for l in ["in/loop", "in/sub/up", "in/parent"] {
            assert!(
                err.contains(&format!("warning: {l}: symbolic link loop")),
                "{args:?}: {l} not named\n{err}"
            );
        }
        if args[0] == "check" {
            assert!(format!("{out}{err}").contains("3 files"), "{out}{err}");
        }
    }
    for out in ["out", "out-q"] {
        assert_eq!(
            files_under(&root.join(out)),
            ["linked.yaml", "real.yaml", "sub/real2.yaml"].map(PathBuf::from)
        );
    }
}

/// Every path that is new or changed since `before` lies under `out`.
fn written_only_under(
    root: &Path,
    before: &BTreeMap<PathBuf, (String, SystemTime, u32)>,
    out: &Path,
) {
    for (p, state) in snapshot(root) {
        let unchanged = before.get(&p) == Some(&state);
        // A directory's mtime changes when an entry is added to it: only `out`'s parent may.
        let parent_of_out = Some(p.as_path()) == out.parent();
        assert!(
            unchanged || parent_of_out || p.starts_with(out),
            "{} was written outside {}",
            p.display(),
            out.display()
        );
    }
}

#[test]
fn no_write_leaves_the_output_directory() {
    let root = scratch("escape");
    let work = root.join("a/b/work");
    std::fs::create_dir_all(&work).unwrap();
    let in_dir = root.join("a/b/in");
    copy(&corpus("render_minishogi.zrf"), &in_dir.join("mini.zrf"));
    copy(&corpus("macro_001.zrf"), &in_dir.join("m.zrf"));
    // Inputs given as ../in/…: the mirrored outputs stay under OUT.
    let before = snapshot(&root);
    let (code, _, err) = run(
        &work,
        &[
            "convert",
            "../in/mini.zrf",
            "../in/m.zrf",
            "--to",
            "yaml",
            "-o",
            "out1",
            "-q",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        files_under(&work.join("out1")),
        ["m.yaml", "mini.yaml"].map(PathBuf::from)
    );
    written_only_under(&root, &before, &work.join("out1"));
    let before = snapshot(&root);
    let (code, _, err) = run(
        &work,
        &["convert", "../in", "--to", "yaml", "-o", "out2", "-q"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(files_under(&work.join("out2")).len(), 2);
    written_only_under(&root, &before, &work.join("out2"));

    // render: image names and piece names from a hostile spec cannot climb out.
    let spec = std::fs::read_to_string(work.join("out1/mini.yaml")).unwrap();
    let hostile = spec
        .replace("images/Minishogi/board.bmp", "../../../escape_board.bmp")
        .replace("images/Minishogi/board_check.bmp", "/tmp/zogkit-escape.bmp")
        .replace(
            "images/Minishogi/king_S.bmp",
            "x/../../../../escape_king.bmp",
        )
        .replace("images/Minishogi/king_G.bmp", "C:\\\\escape.bmp")
        .replace("玉将", "../../k/ing");
    assert_ne!(hostile, spec);
    std::fs::write(work.join("hostile.yaml"), &hostile).unwrap();
    let before = snapshot(&root);
    let (code, _, err) = run(&work, &["render", "hostile.yaml", "-o", "imgs"]);
    assert_eq!(code, 0, "{err}");
    assert!(!Path::new("/tmp/zogkit-escape.bmp").exists());
    let written = files_under(&work.join("imgs"));
    assert_eq!(written.len(), 22 + 2, "{written:?}");
    for p in &written {
        assert!(
            p.components()
                .all(|c| matches!(c, std::path::Component::Normal(_))),
            "{}",
            p.display()
        );
    }
    let manifest = std::fs::read_to_string(work.join("imgs/images.json")).unwrap();
    let m: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    let mut paths: Vec<&str> = m["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for p in m["pieces"].as_array().unwrap() {
        for i in p["images"].as_array().unwrap() {
            paths.push(i["file"].as_str().unwrap());
        }
    }
    assert_eq!(paths.len(), 22);
    assert!(
        paths
            .iter()
            .all(|p| !p.contains("..") && !p.starts_with('/') && !p.contains(':')),
        "{paths:?}"
    );
    // The piece called `../../k/ing` gets a tile name without separators.
    assert!(paths.contains(&"______k_ing_S.bmp"), "{paths:?}");
    written_only_under(&root, &before, &work.join("imgs"));

    // convert --with-images: a manifest whose paths climb out is refused, nothing is written.
    let tampered = manifest.replacen("\"board.bmp\"", "\"../../board.bmp\"", 1);
    assert_ne!(tampered, manifest);
    std::fs::write(work.join("imgs/images.json"), tampered).unwrap();
    let before = snapshot(&root);
    let (code, _, err) = run(
        &work,
        &[
            "convert",
            "hostile.yaml",
            "--to",
            "zrf",
            "--with-images",
            "imgs",
            "-o",
            "imgs/game.zrf",
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("is not a plain relative path inside imgs"),
        "{err}"
    );
    assert!(!work.join("imgs/game.zrf").exists());
    assert!(snapshot(&root) == before, "a refused run wrote something");
}

/// The `games, variants` of `check`'s summary line.
fn summary_counts(stdout: &str) -> (usize, usize) {
    let line = stdout.lines().last().unwrap_or_default();
    let n = |what: &str| -> usize {
        let end = line
            .find(what)
            .unwrap_or_else(|| panic!("no {what} in {line:?}"));
        let start = line[..end].trim_end().rfind(' ').map_or(0, |i| i + 1);
        line[start..end]
            .trim()
            .parse()
            .unwrap_or_else(|e| panic!("{line:?}: {e}"))
    };
    (n(" game"), n(" variant"))
}

#[test]
fn check_reads_named_files_in_their_own_format() {
    let dir = scratch("check-formats");
    copy(&corpus("variant_001.zrf"), &dir.join("in/variant_001.zrf"));
    copy(&corpus("tai_shogi.zrf"), &dir.join("in/tai_shogi.zrf"));
    let (code, _, err) = run(&dir, &["convert", "-q", "in", "--to", "yaml", "-o", "yaml"]);
    assert_eq!(code, 0, "{err}");

    // The YAML specs `convert` wrote are read as YAML: the same games and variants as their
    // ZRF sources, no ZRF diagnostics, exit 0.
    let (code, zrf_out, _) = run(&dir, &["check", "in/variant_001.zrf", "in/tai_shogi.zrf"]);
    assert_eq!(code, 0, "{zrf_out}");
    let (code, out, _) = run(
        &dir,
        &["check", "yaml/variant_001.yaml", "yaml/tai_shogi.yaml"],
    );
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("zrf::"), "{out}");
    assert!(out.contains("0 errors, 0 warnings"), "{out}");
    let (games, variants) = summary_counts(&out);
    assert!(games >= 2 && variants >= 1, "{out}");
    assert_eq!(
        (games, variants),
        summary_counts(&zrf_out),
        "{out}\n{zrf_out}"
    );

    // The JSON entry of a non-ZRF file names its format and counts.
    let (code, json, _) = run(
        &dir,
        &["check", "--format", "json", "yaml/variant_001.yaml"],
    );
    assert_eq!(code, 0, "{json}");
    let doc: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let f = &doc["files"][0];
    assert_eq!(f["format"], "yaml", "{json}");
    assert_eq!(f["file"], "yaml/variant_001.yaml", "{json}");
    assert_eq!(f["diagnostics"].as_array().map(Vec::len), Some(0), "{json}");
    assert_eq!(
        (f["games"].as_u64(), f["variants"].as_u64()),
        (
            doc["summary"]["games"].as_u64(),
            doc["summary"]["variants"].as_u64()
        )
    );

    // --from forces the format; without it an unknown extension is read as ZRF, as before.
    copy(&dir.join("yaml/variant_001.yaml"), &dir.join("spec.txt"));
    let (code, out, _) = run(&dir, &["check", "--from", "yaml", "spec.txt"]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("zrf::"), "{out}");
    let (_, out, _) = run(&dir, &["check", "spec.txt"]);
    assert!(out.contains("zrf::unknown-top-level"), "{out}");
    assert_eq!(summary_counts(&out), (0, 0), "{out}");

    // A directory is searched for every format `check` reads, YAML specs too.
    copy(
        &dir.join("yaml/variant_001.yaml"),
        &dir.join("in/variant_001.yaml"),
    );
    let (code, out, _) = run(&dir, &["check", "in"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("checked 3 files:"), "{out}");
    // `-q` prints nothing but errors: no warnings, no summary line.
    let (code, out, err) = run(&dir, &["check", "-q", "in"]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));

    // A broken YAML file: a located `yaml::` error and exit 1.
    std::fs::write(
        dir.join("bad.yaml"),
        "spec_version: \"0.1\"\ngames:\n  - name: [unclosed\n    players: 2\n",
    )
    .unwrap();
    let (code, out, _) = run(&dir, &["check", "bad.yaml"]);
    assert_eq!(code, 1, "{out}");
    let at = out.find("error[yaml::").unwrap_or_else(|| panic!("{out}"));
    let arrow = out[at..].lines().nth(1).unwrap_or_default();
    // The flow sequence opened on line 3 is found unclosed at `2` on line 4.
    assert_eq!(arrow.trim_start(), "--> bad.yaml:4:12", "{out}");
    assert!(!out.contains("zrf::"), "{out}");
    assert!(out.contains("files with errors:\n  bad.yaml\n"), "{out}");

    // A Ludii file from the corpus checks clean: one game, no errors, only Ludii remarks.
    let (code, out, _) = run(Path::new(REPO), &["check", "corpus/ludii/chess.lud"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 errors"), "{out}");
    assert_eq!(summary_counts(&out), (1, 0), "{out}");
    assert!(!out.contains("zrf::"), "{out}");
}

/// Runs zogkit in `cwd` with `input` on standard input.
fn run_stdin(cwd: &Path, args: &[&str], input: &[u8]) -> (i32, String, String) {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_zogkit"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let o = child.wait_with_output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn formats_come_from_file_names() {
    let root = scratch("formats");
    copy(&corpus("macro_001.zrf"), &root.join("a.zrf"));
    copy(&corpus("variant_001.zrf"), &root.join("zrf/b.zrf"));
    // `-o x.yaml` names the output format; no --to needed.
    let (code, _, err) = run(&root, &["convert", "a.zrf", "-o", "a.yaml"]);
    assert_eq!(code, 0, "{err}");
    let yaml = std::fs::read(root.join("a.yaml")).unwrap();
    assert!(String::from_utf8_lossy(&yaml).contains("spec_version"));
    let (code, _, err) = run(&root, &["convert", "a.zrf", "-o", "a.out"]);
    assert_eq!(code, 2);
    assert!(err.contains("give --to FORMAT"), "{err}");
    assert!(!root.join("a.out").exists());
    // A folder of YAML files converts to ZRF: --from is taken per file from its extension.
    let (code, _, err) = run(&root, &["convert", "zrf", "--to", "yaml", "-o", "yaml"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&root, &["convert", "yaml", "--to", "zrf", "-o", "back"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("converted 1 of 1 file to zrf"), "{err}");
    assert!(root.join("back/b.zrf").is_file());
    // `check -` and `info -` read standard input in the --from format.
    let (code, out, err) = run_stdin(&root, &["check", "-", "--from", "yaml"], &yaml);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("checked 1 file: 1 game"), "{out}");
    let (code, out, err) = run_stdin(&root, &["info", "-", "--from", "yaml"], &yaml);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Macros"), "{out}");
    // --help lists the values; a format that cannot be written is not offered for --to.
    let (_, help, _) = run(&root, &["convert", "--help"]);
    assert!(
        help.contains("[possible values: zrf, yaml, chessembly, lud, fsf]"),
        "{help}"
    );
    assert!(
        help.contains("[possible values: zrf, yaml, chessembly, lud, ludii-english, fsf]"),
        "{help}"
    );
    let (code, _, err) = run(&root, &["convert", "a.zrf", "--to", "ludii-english"]);
    assert_eq!(code, 2);
    assert!(err.contains("possible values: zrf, yaml"), "{err}");
}

#[test]
fn report_follows_the_output_rules() {
    let root = scratch("report");
    copy(&corpus("macro_001.zrf"), &root.join("in/a.zrf"));
    copy(&corpus("variant_001.zrf"), &root.join("in/b.zrf"));
    let convert = |extra: &[&str]| {
        let mut args = vec!["convert", "in", "--to", "yaml", "-q", "-o", "out"];
        args.extend(extra);
        run(&root, &args)
    };
    // `--report -` writes the report to standard output; no file named `-`.
    let (code, out, err) = convert(&["--report", "-"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["summary"]["converted"], 2);
    assert_eq!(v["files"][0]["status"], "converted");
    assert!(!root.join("-").exists());
    // One input to standard output and the report there too would mix them: refused.
    let (code, _, err) = run(
        &root,
        &["convert", "in/a.zrf", "--to", "yaml", "--report", "-"],
    );
    assert_eq!(code, 2, "{err}");
    // An existing report is refused before anything is converted, unless --force.
    std::fs::write(root.join("r.json"), "keep").unwrap();
    let (code, _, err) = run(
        &root,
        &[
            "convert", "in", "--to", "yaml", "-o", "out2", "--report", "r.json",
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("r.json exists (use --force to overwrite)"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("r.json")).unwrap(),
        "keep"
    );
    assert!(!root.join("out2").exists(), "nothing was converted");
    let (code, _, err) = convert(&["--force", "--report", "r.json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("r.json")).unwrap()).unwrap();
    assert_eq!(v["summary"]["files"], 2);
    // Never replaced, even with --force: a FIFO, a symbolic link, a directory.
    assert!(
        Command::new("mkfifo")
            .arg(root.join("fifo"))
            .status()
            .unwrap()
            .success()
    );
    std::os::unix::fs::symlink("r.json", root.join("link")).unwrap();
    std::fs::create_dir(root.join("dir")).unwrap();
    for (name, what) in [
        ("fifo", "not a regular file"),
        ("link", "a symbolic link"),
        ("dir", "a directory"),
    ] {
        let (code, _, err) = convert(&["--force", "--report", name]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(
            err.contains(what) && err.contains("refusing to replace"),
            "{err}"
        );
    }
    let ft = std::fs::symlink_metadata(root.join("fifo"))
        .unwrap()
        .file_type();
    use std::os::unix::fs::FileTypeExt;
    assert!(ft.is_fifo(), "the FIFO is still a FIFO");
    assert!(
        std::fs::symlink_metadata(root.join("link"))
            .unwrap()
            .is_symlink()
    );
    // Outputs follow the same rule: an output path that is a FIFO is never replaced.
    let (code, _, err) = run(
        &root,
        &[
            "convert", "in/a.zrf", "--to", "yaml", "-o", "fifo", "--force",
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("refusing to replace"), "{err}");
    assert!(
        std::fs::symlink_metadata(root.join("fifo"))
            .unwrap()
            .file_type()
            .is_fifo()
    );
}

#[test]
fn update_skips_current_outputs_and_render_follows_the_same_rules() {
    let root = scratch("update");
    copy(&corpus("macro_001.zrf"), &root.join("in/a.zrf"));
    copy(&corpus("variant_001.zrf"), &root.join("in/b.zrf"));
    let convert = |extra: &[&str]| {
        let mut args = vec!["convert", "in", "--to", "yaml", "-o", "out"];
        args.extend(extra);
        run(&root, &args)
    };
    assert_eq!(convert(&[]).0, 0);
    // Re-running refuses the existing outputs; --update skips the current ones.
    let (code, _, err) = convert(&[]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("--update skips outputs newer than their input"),
        "{err}"
    );
    let before = snapshot(&root.join("out"));
    let (code, _, err) = convert(&["--update"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("converted 0 of 2 files to yaml, 0 failed, 0 warnings, 2 up to date"),
        "{err}"
    );
    assert!(
        snapshot(&root.join("out")) == before,
        "--update rewrote a current output"
    );
    // An input newer than its output is converted again.
    let later = SystemTime::now() + Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(root.join("in/b.zrf"))
        .unwrap()
        .set_modified(later)
        .unwrap();
    std::fs::write(root.join("out/b.yaml"), "stale").unwrap();
    let (code, _, err) = convert(&["--update", "--report", "r.json"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("converted 1 of 2 files"), "{err}");
    assert!(
        std::fs::read_to_string(root.join("out/b.yaml"))
            .unwrap()
            .contains("\ngames:\n")
    );
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("r.json")).unwrap()).unwrap();
    assert_eq!(v["files"][0]["status"], "up-to-date");
    assert_eq!(v["files"][1]["status"], "converted");
    assert_eq!(convert(&["--update", "--force"]).0, 2, "they conflict");

    // render: an existing set is refused (nothing written), --update keeps a current one,
    // --force replaces it.
    let mini = Path::new(REPO).join("corpus/zrf/render_minishogi.zrf");
    let mini = mini.to_str().unwrap();
    let (code, _, err) = run(&root, &["render", mini, "-o", "img", "-q"]);
    assert_eq!(code, 0, "{err}");
    let before = snapshot(&root.join("img"));
    let (code, _, err) = run(&root, &["render", mini, "-o", "img"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("exists (use --force to overwrite); nothing was written"),
        "{err}"
    );
    let (code, _, err) = run(&root, &["render", mini, "-o", "img", "--update"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("is up to date"), "{err}");
    assert!(snapshot(&root.join("img")) == before);
    let (code, _, err) = run(&root, &["render", mini, "-o", "img", "--force", "-q"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn an_unusable_output_folder_is_one_error() {
    let root = scratch("unusable");
    for i in 0..5 {
        copy(&corpus("macro_001.zrf"), &root.join(format!("in/f{i}.zrf")));
    }
    std::fs::write(root.join("file"), "x").unwrap();
    let one_error = |out: &str| {
        let (code, _, err) = run(&root, &["convert", "in", "--to", "yaml", "-o", out]);
        assert_eq!(code, 2, "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("output folder") && err.contains(out), "{err}");
    };
    one_error("file");
    one_error("file/sub");
    std::fs::create_dir(root.join("ro")).unwrap();
    std::fs::set_permissions(root.join("ro"), std::fs::Permissions::from_mode(0o555)).unwrap();
    // Permissions do not bind root: that case is then tested by the two above only.
    if std::fs::write(root.join("ro/probe"), "x").is_ok() {
        eprintln!("note: running as root; the read-only folder case is skipped");
    } else {
        one_error("ro");
    }
    make_writable(&root);
}

#[test]
fn two_input_folders_landing_on_one_output_name_are_named_as_such() {
    let root = scratch("collide");
    copy(&corpus("macro_001.zrf"), &root.join("a/x.zrf"));
    copy(&corpus("variant_001.zrf"), &root.join("b/x.zrf"));
    let (code, _, err) = run(&root, &["convert", "a", "b", "--to", "yaml", "-o", "out"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("a/x.zrf and b/x.zrf would both be written to out/x.yaml"),
        "{err}"
    );
    assert!(!err.contains("case"), "{err}");
    assert!(!root.join("out").exists());
}

#[test]
fn concurrent_runs_into_one_folder_claim_each_output_once() {
    let root = scratch("concurrent");
    let names = ["macro_001.zrf", "variant_001.zrf"];
    for i in 0..40 {
        copy(&corpus(names[i % 2]), &root.join(format!("in/f{i:02}.zrf")));
    }
    let (code, _, err) = run(
        &root,
        &["convert", "in", "--to", "yaml", "-q", "-o", "reference"],
    );
    assert_eq!(code, 0, "{err}");
    // A live run's temporary file is kept; a dead one's is removed.
    let mut live = Command::new("sleep").arg("60").spawn().unwrap();
    std::fs::create_dir_all(root.join("out")).unwrap();
    let live_tmp = root.join(format!("out/.f00.yaml.{}.tmp", live.id()));
    let dead_tmp = root.join(format!("out/.f01.yaml.{}.tmp", dead_pid()));
    std::fs::write(&live_tmp, "live").unwrap();
    std::fs::write(&dead_tmp, "dead").unwrap();
    let spawn = || {
        Command::new(env!("CARGO_BIN_EXE_zogkit"))
            .args(["convert", "in", "--to", "yaml", "-o", "out"])
            .current_dir(&root)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    let _ = live.kill();
    let _ = live.wait();
    let converted = |o: &Output| -> usize {
        let err = String::from_utf8_lossy(&o.stderr);
        err.split("converted ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{err}"))
    };
    // Every output was claimed by exactly one run; the other reports it as existing.
    assert_eq!(converted(&a) + converted(&b), 40);
    for o in [&a, &b] {
        let err = String::from_utf8_lossy(&o.stderr);
        for line in err.lines().filter(|l| l.starts_with("error")) {
            assert!(
                line.contains("exists (use --force") || line.contains("created by someone else"),
                "{line}"
            );
        }
    }
    for rel in files_under(&root.join("reference")) {
        assert_eq!(
            std::fs::read(root.join("out").join(&rel)).unwrap(),
            std::fs::read(root.join("reference").join(&rel)).unwrap()
        );
    }
    assert!(live_tmp.exists(), "a live run's temporary file was removed");
    assert!(!dead_tmp.exists(), "a dead run's temporary file was kept");
}

/// Arguments, environment variables and whether the output is coloured.
type Case<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], bool);

#[test]
fn colour_follows_the_choice_and_the_environment() {
    let root = scratch("colour");
    copy(&corpus("syntax_err_truncated.zrf"), &root.join("bad.zrf"));
    let run_env = |args: &[&str], env: &[(&str, &str)]| -> String {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_zogkit"));
        cmd.args(args)
            .current_dir(&root)
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let o = cmd.output().unwrap();
        assert_eq!(o.status.code(), Some(1));
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
    };
    let red = "\x1b[1;31merror[zrf::unterminated-string]:";
    // (arguments, environment, coloured?)
    let cases: [Case; 7] = [
        (&["check", "bad.zrf"], &[], false),
        (&["check", "bad.zrf", "--color", "always"], &[], true),
        (
            &["--color", "always", "check", "bad.zrf"],
            &[("NO_COLOR", "1")],
            true,
        ),
        (
            &["check", "bad.zrf", "--color", "never"],
            &[("CLICOLOR_FORCE", "1")],
            false,
        ),
        (&["check", "bad.zrf"], &[("CLICOLOR_FORCE", "1")], true),
        (&["check", "bad.zrf"], &[("CLICOLOR_FORCE", "0")], false),
        (
            &["check", "bad.zrf"],
            &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
            false,
        ),
    ];
    for (args, env, coloured) in cases {
        let out = run_env(args, env);
        assert_eq!(out.contains(red), coloured, "{args:?} {env:?}: {out}");
        assert_eq!(out.contains('\x1b'), coloured, "{args:?} {env:?}: {out}");
        assert!(out.contains("unterminated-string"), "{out}");
    }
    // convert's diagnostics go to standard error, coloured the same way.
    let out = run_env(
        &["convert", "bad.zrf", "--to", "yaml", "--color", "always"],
        &[],
    );
    assert!(out.contains(red) && out.contains("\x1b[1;34m"), "{out}");
    // Plain `error:` lines of every subcommand are coloured too (a missing input, here in
    // check, render and replay), and never without colour.
    for args in [
        &["check", "missing.zrf", "--color", "always"][..],
        &["render", "missing.zrf", "-o", "out", "--color", "always"],
        &["replay", "missing.zsg", "--color", "always"],
    ] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_zogkit"));
        let o = cmd.args(args).current_dir(&root).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("\x1b[1;31merror:"), "{args:?}: {err}");
        assert_ne!(o.status.code(), Some(0), "{args:?}");
    }
}

#[test]
fn limits_have_their_own_help_page() {
    let root = scratch("limits-help");
    let (code, out, _) = run(&root, &["help", "limits"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("macro-depth=64") && out.contains("zrf::macro-depth"),
        "{out}"
    );
    let (code, out2, _) = run(&root, &["limits"]);
    assert_eq!(code, 0);
    assert!(out2.contains("macro-depth=64"), "{out2}");
    for sub in ["convert", "check", "render"] {
        let (_, help, _) = run(&root, &[sub, "--help"]);
        assert!(help.contains("--limit <NAME=VALUE>"), "{help}");
        assert!(
            !help.contains("macro-depth=64"),
            "{sub} --help repeats the table"
        );
    }
}

#[test]
fn every_subcommand_searches_directories_for_every_format_it_reads() {
    let root = scratch("dir-search");
    copy(
        &Path::new(REPO).join("corpus/yaml/mini_chess_texts.yaml"),
        &root.join("specs/mini.yaml"),
    );
    copy(
        &corpus("variant_001.zrf"),
        &root.join("mixed/variant_001.zrf"),
    );
    copy(
        &Path::new(REPO).join("corpus/yaml/mini_chess_texts.yaml"),
        &root.join("mixed/sub/mini.yml"),
    );
    copy(
        &Path::new(REPO).join("corpus/ludii/chess.lud"),
        &root.join("mixed/chess.lud"),
    );
    // A folder of specs written by `convert` is catalogued without --from.
    let (code, _, err) = run(&root, &["catalogue", "specs", "-o", "site"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("catalogue of 1 file in site:"), "{err}");
    // check, catalogue and convert (to anything but YAML) read every format; converting to YAML
    // skips the YAML files, which are its outputs; roundtrip reads ZRF alone.
    let (code, out, _) = run(&root, &["check", "mixed"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("checked 3 files:"), "{out}");
    let (code, _, err) = run(&root, &["catalogue", "mixed", "-o", "site2"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("catalogue of 3 files in site2:"), "{err}");
    let (_, _, err) = run(&root, &["convert", "mixed", "--to", "zrf", "-o", "zrf"]);
    assert!(err.contains("of 3 files to zrf"), "{err}");
    let (_, _, err) = run(&root, &["convert", "mixed", "--to", "yaml", "-o", "yaml"]);
    assert!(err.contains("of 2 files to yaml"), "{err}");
    let (code, out, _) = run(&root, &["roundtrip", "mixed"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("roundtrip 1 file: 0 failed"), "{out}");
    let (code, _, err) = run(&root, &["roundtrip", "specs"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no input files found (directories are searched for .zrf files)"),
        "{err}"
    );
}

#[test]
fn completions_and_man_pages_come_from_the_binary() {
    let root = scratch("completions");
    for (shell, needle) in [
        ("bash", "_zogkit()"),
        ("zsh", "#compdef zogkit"),
        ("fish", "complete -c zogkit"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[zogkit]"),
    ] {
        let (code, out, err) = run(&root, &["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        assert!(out.contains(needle), "{shell} lacks {needle}");
        assert!(
            out.contains("roundtrip") && out.contains("rules-dir"),
            "{shell}"
        );
    }
    let (code, _, err) = run(&root, &["completions", "tcsh"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("possible values: bash, elvish, fish, powershell, zsh"),
        "{err}"
    );
    // One page on standard output: zogkit's own, or a subcommand's.
    let (code, out, _) = run(&root, &["man"]);
    assert_eq!(code, 0);
    assert!(out.contains("\n.TH ZOGKIT 1 "), "{out}");
    assert!(out.contains("\nzogkit\\-replay(1)\n"), "{out}");
    let (_, out, _) = run(&root, &["man", "replay"]);
    assert!(
        out.contains(".TH ZOGKIT-REPLAY 1") && out.contains("rules\\-dir"),
        "{out}"
    );
    let (code, _, err) = run(&root, &["man", "nosuch"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no subcommand \"nosuch\"; the subcommands are: check, convert"),
        "{err}"
    );
    // Every page into a folder; existing pages need --force.
    let (code, _, err) = run(&root, &["man", "-o", "pages"]);
    assert_eq!(code, 0, "{err}");
    let pages: Vec<String> = std::fs::read_dir(root.join("pages"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for page in [
        "zogkit.1",
        "zogkit-replay.1",
        "zogkit-man.1",
        "zogkit-completions.1",
    ] {
        assert!(pages.iter().any(|p| p == page), "{page} in {pages:?}");
    }
    assert!(
        !pages.iter().any(|p| p.contains("dist-assets")),
        "hidden: {pages:?}"
    );
    let (code, _, err) = run(&root, &["man", "-o", "pages"]);
    assert_eq!(code, 2);
    assert!(err.contains("exists (use --force to overwrite)"), "{err}");
    let (code, _, err) = run(&root, &["man", "-o", "pages", "--force"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn dist_assets_are_shell_completions_and_man_pages() {
    let root = scratch("dist");
    let (code, _, err) = run(&root, &["dist-assets", "out"]);
    assert_eq!(code, 0, "{err}");
    let read = |rel: &str| {
        std::fs::read_to_string(root.join("out").join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    };
    for (file, needle) in [
        ("completions/zogkit.bash", "--update"),
        ("completions/_zogkit", "--report"),
        ("completions/zogkit.fish", "convert"),
        ("completions/zogkit.elv", "render"),
        ("completions/_zogkit.ps1", "roundtrip"),
        ("man/zogkit.1", ".TH ZOGKIT 1"),
        ("man/zogkit-convert.1", "\\-\\-update"),
        ("man/zogkit-limits.1", "macro\\-depth=64"),
    ] {
        assert!(read(file).contains(needle), "{file} lacks {needle}");
    }
    assert!(
        !root.join("out/man/zogkit-dist-assets.1").exists(),
        "hidden"
    );
    assert!(
        !root.join("out/man/zogkit-help.1").exists(),
        "clap's help has no page"
    );
}
