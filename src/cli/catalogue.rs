//! `zogkit catalogue DIR... -o SITE`: a static HTML site for a collection — every input read as
//! `check` reads it, judged as `roundtrip` judges it, its pages built by [`zogkit::catalogue`]
//! and written as soon as it is done, then the index pages.

use super::author_images::Collection;
use super::output::{self, Existing};
use super::output_dir::OutputDir;
use super::site_server::{MANIFEST, Playable, Site, manifest, playable_games};
use super::{EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, InputFile, display_path, outcome, read_input};
use clap::Args;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use zogkit::catalogue::{self, FileInput, RoundTrip, Row, SiteFile, Totals};
use zogkit::format::{self, Format};
use zogkit::render::FontSet;

/// Arguments of `zogkit catalogue`.
#[derive(Debug, Args)]
pub struct CatalogueArgs {
    /// Files or directories (searched recursively for every readable format's files — .zrf,
    /// .yaml/.yml, .lud, .csm — as `check` searches them).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The site's folder (created if missing). An existing folder that is not empty is refused
    /// unless --force.
    #[arg(short, long, value_name = "SITE")]
    pub output: PathBuf,
    /// Write into a non-empty folder, replacing files of the same names (others are left).
    #[arg(long)]
    pub force: bool,
    /// Read every input in this format instead of choosing by extension.
    #[arg(long, value_parser = super::convert::readable_format())]
    pub from: Option<Format>,
    /// Print nothing but errors.
    #[arg(short, long)]
    pub quiet: bool,
    /// Once the site is written, serve it on 127.0.0.1 until Ctrl-C, each game the engine runs
    /// playable behind its page's Play link (as `zogkit play` serves one game).
    #[arg(long)]
    pub serve: bool,
    /// With --serve: the port on 127.0.0.1 (default: a free one).
    #[arg(long, default_value_t = 0, requires = "serve")]
    pub port: u16,
    /// With --serve: do not open a browser (it is not opened either when there is no display).
    #[arg(long, requires = "serve")]
    pub no_browser: bool,
}

/// What one input gave, kept until the index is written.
struct Done {
    rows: Vec<Row>,
    pages: usize,
    pictures: usize,
    placeholders: Vec<String>,
    validator_failures: usize,
    roundtrip: usize,
    /// A write that failed (the run fails with exit 2).
    error: Option<String>,
    /// Error diagnostics of reading the input (an unreadable file counts one): the file is
    /// catalogued, and the run fails with exit 1, as `check` would.
    input_errors: usize,
    /// The entries the engine runs.
    playable: Vec<usize>,
}

/// Runs `zogkit catalogue`.
pub fn run(args: CatalogueArgs) -> u8 {
    let exts = outcome::extensions(args.from, None);
    let inputs = match outcome::inputs(&args.inputs, &exts, args.quiet) {
        Ok(v) => v,
        Err(code) => return code,
    };
    let lock = match site_folder(&args.output, args.force) {
        Ok(lock) => lock,
        Err(e) => {
            super::error_line!("{e}");
            return EXIT_USAGE;
        }
    };
    let existing = Existing::new(args.force, false);
    let names: Vec<String> = inputs.iter().map(relative_name).collect();
    let slugs = catalogue::slugs(&names.iter().map(String::as_str).collect::<Vec<_>>());
    let fonts = FontSet::bundled();
    let images = catalogue::ImageStore::default();
    super::catch_interrupts();
    let pb = super::progress(inputs.len(), args.quiet);
    let done: Vec<Option<Done>> = super::par_map_largest_first(&inputs, |n, input| {
        if super::interrupted() {
            return None;
        }
        let d = one(
            &args,
            input,
            (&names[n], &slugs[n]),
            (&fonts, &images),
            (existing, &lock.1),
        );
        pb.inc(1);
        // Interrupted while this file was read or drawn: `one` wrote nothing of it.
        (!super::interrupted()).then_some(d)
    });
    pb.finish_and_clear();
    if done.iter().any(Option::is_none) || super::interrupted() {
        eprintln!(
            "interrupted: the catalogue in {} is incomplete",
            display_path(&args.output)
        );
        return EXIT_INTERRUPTED;
    }
    let done: Vec<Done> = done.into_iter().flatten().collect();
    let mut failed = false;
    for e in done.iter().filter_map(|d| d.error.as_ref()) {
        super::error_line!("{e}");
        failed = true;
    }
    let mut totals = Totals {
        files: done.len(),
        ..Default::default()
    };
    for d in &done {
        totals.pages += d.pages;
        totals.pictures += d.pictures;
        totals.placeholders += d.placeholders.len();
        totals.roundtrip[d.roundtrip] += 1;
    }
    let mut rows: Vec<Row> = done.iter().flat_map(|d| d.rows.iter().cloned()).collect();
    for f in catalogue::index_pages(&mut rows, &totals) {
        if let Err(e) = write(&args.output, &f, (existing, &lock.1)) {
            super::error_line!("{e}");
            failed = true;
        }
    }
    if !args.quiet {
        summary(&args.output, &done, &totals);
    }
    // Files with errors, failed round trips and pictures that could not be drawn are shown
    // in the site and fail the run, as they fail `check`, `roundtrip` and `render`.
    let broken = done
        .iter()
        .filter(|d| {
            d.input_errors > 0
                || d.roundtrip == 1
                || !d.placeholders.is_empty()
                || d.validator_failures > 0
        })
        .count();
    if broken > 0 {
        super::error_line!(
            "{broken} of {} file{} {} errors, a failed round trip or a picture that could not be drawn (shown on their pages)",
            done.len(),
            if done.len() == 1 { "" } else { "s" },
            if broken == 1 { "has" } else { "have" }
        );
    }
    let code = match (failed, broken) {
        (true, _) => EXIT_USAGE,
        (false, 0) => EXIT_OK,
        (false, _) => super::EXIT_ERRORS,
    };
    let mut playable = BTreeMap::new();
    for ((input, slug), d) in inputs.into_iter().zip(&slugs).zip(done) {
        if !d.playable.is_empty() {
            let from = outcome::format_of(args.from, &input);
            let games = d.playable;
            playable.insert(slug.clone(), Playable { input, from, games });
        }
    }
    // The manifest `zogkit serve SITE` reads: which file each Play link plays.
    let manifest = SiteFile {
        path: MANIFEST.into(),
        bytes: manifest(&playable),
    };
    let failed = match write(
        &args.output,
        &manifest,
        (Existing::new(true, false), &lock.1),
    ) {
        Ok(()) => failed,
        Err(e) => {
            super::error_line!("{e}");
            true
        }
    };
    let code = if failed { EXIT_USAGE } else { code };
    if !args.serve || failed {
        return code;
    }
    // The lock stays while the site is served: no other run rewrites it meanwhile.
    let served = serve(&args, playable);
    drop(lock);
    served
}

/// `--serve`: the site written into `args.output`, with the playable entries of each input.
fn serve(args: &CatalogueArgs, playable: BTreeMap<String, Playable>) -> u8 {
    let games: usize = playable.values().map(|p| p.games.len()).sum();
    let site = match Site::new(&args.output, playable) {
        Ok(s) => s,
        Err(e) => {
            super::error_line!("{e}");
            return EXIT_USAGE;
        }
    };
    let what = format!(
        "zogkit catalogue: serving {} ({games} game{} to play)",
        display_path(&args.output),
        if games == 1 { "" } else { "s" }
    );
    let handler = move |method: &str, target: &str, body: &[u8]| site.handle(method, target, body);
    super::play_server::run_server(args.port, &what, args.no_browser, Arc::new(handler))
}

/// The summary on standard error: pages, pictures, placeholders by reason.
fn summary(site: &Path, done: &[Done], t: &Totals) {
    let validator: usize = done.iter().map(|d| d.validator_failures).sum();
    eprintln!(
        "catalogue of {} file{} in {}: {} pages, {} start positions drawn ({validator} validator \
         failures), {} placeholders; round trip {} passed, {} failed, {} not run",
        t.files,
        if t.files == 1 { "" } else { "s" },
        display_path(site),
        t.pages,
        t.pictures,
        t.placeholders,
        t.roundtrip[0],
        t.roundtrip[1],
        t.roundtrip[2]
    );
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for r in done.iter().flat_map(|d| &d.placeholders) {
        *reasons.entry(reason_kind(r)).or_default() += 1;
    }
    let mut reasons: Vec<(String, usize)> = reasons.into_iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    for (r, n) in reasons {
        eprintln!("  {n:>4} no picture: {r}");
    }
}

/// A placeholder reason without the game's own words (titles and names in quotes, numbers),
/// so that reasons of one kind are counted together.
fn reason_kind(r: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    for c in r.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                if quoted {
                    out.push('…');
                }
            }
            _ if quoted => {}
            c if c.is_ascii_digit() => {
                if !out.ends_with('N') {
                    out.push('N');
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// The lock file a run holds in its site folder, so that a second run into the same folder is
/// refused while the first one writes.
const LOCK: &str = ".zogkit-catalogue.lock";

/// The site folder's lock, removed when the run ends (also when it is interrupted; a lock
/// left by a killed run names a process that is gone and is taken over), and the folder held
/// open for the run: every file is written through it.
struct SiteLock(PathBuf, OutputDir);

impl Drop for SiteLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Checks the site folder — missing or empty, or `--force` — after taking its lock (created
/// exclusively, holding this process's id): of two runs into one new folder, the second is
/// refused, naming the lock.
fn site_folder(dir: &Path, force: bool) -> Result<SiteLock, String> {
    output::usable_dir(dir)?;
    if std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(format!(
            "{} is a symbolic link; name the folder itself",
            display_path(dir)
        ));
    }
    let lock = dir.join(LOCK);
    let claim = || {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&lock)
            .and_then(|mut f| {
                use std::io::Write as _;
                write!(f, "{}", std::process::id())
            })
    };
    let mut claimed = claim();
    if matches!(&claimed, Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists) {
        let holder = std::fs::read(&lock).unwrap_or_default();
        if !holder.is_empty() && !super::process_alive(&holder) {
            // A killed run's lock: its process is gone.
            let _ = std::fs::remove_file(&lock);
            claimed = claim();
        }
    }
    match claimed {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return Err(format!(
                "another catalogue run is writing into {} (its lock {} exists; remove it if no run is)",
                display_path(dir),
                display_path(&lock)
            ));
        }
        Err(e) => {
            return Err(format!("cannot lock {}: {e}", display_path(&lock)));
        }
    }
    let held = OutputDir::open(dir)?;
    let lock = SiteLock(lock, held);
    let others = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot list {}: {e}", display_path(dir)))?
        .filter_map(Result::ok)
        .any(|e| e.file_name() != LOCK);
    if others && !force {
        return Err(format!(
            "{} exists and is not empty (use --force to write into it)",
            display_path(dir)
        ));
    }
    Ok(lock)
}

/// The input's path relative to the folder walked (its file name when named directly).
fn relative_name(input: &InputFile) -> String {
    let Some(p) = &input.path else {
        return "stdin".into();
    };
    let rel = input
        .root
        .as_deref()
        .and_then(|r| p.strip_prefix(r).ok())
        .map(Path::to_path_buf)
        .or_else(|| p.file_name().map(PathBuf::from))
        .unwrap_or_else(|| p.clone());
    rel.to_string_lossy().replace('\\', "/")
}

/// Reads, judges and catalogues one input, writing its files.
fn one(
    args: &CatalogueArgs,
    input: &InputFile,
    (name, slug): (&str, &str),
    (fonts, images): (&FontSet, &catalogue::ImageStore),
    out: (Existing, &OutputDir),
) -> Done {
    let from = outcome::format_of(args.from, input);
    let opts = super::read_options(None);
    let (bytes, io_error) = match read_input(input) {
        Ok(b) => (b, None),
        Err(e) => (Vec::new(), Some(e.to_string())),
    };
    let mut r = match &io_error {
        None => format::read(
            from,
            &input.display,
            &bytes,
            &opts,
            &mut *super::loader(input),
        ),
        Some(_) => format::ReadResult::default(),
    };
    let mut written = super::roundtrip::Written::default();
    let roundtrip = match (&io_error, from) {
        (Some(e), _) => RoundTrip::NotRun(format!("cannot read the file: {e}")),
        (None, Format::Zrf) => {
            let policy = outcome::Policy::default();
            let keep = Some(&mut written);
            let j =
                super::roundtrip::judge(&input.display, bytes.len(), &mut r, true, policy, keep);
            if j.passed {
                RoundTrip::Passed
            } else {
                RoundTrip::Failed(first_problem(&j))
            }
        }
        (None, f) => RoundTrip::NotRun(format!(
            "round trips are checked for ZRF files; this is {}",
            f.name()
        )),
    };
    let stem = catalogue::stem(name);
    let (author, playable) = match (&r.document, r.errors(), &input.path) {
        (Some(doc), 0, Some(path)) => {
            let entries = 0..doc.games.len();
            let author = match Collection::of(path, input.root.as_deref()) {
                // Pictures not there are not listed: most collections ship without them.
                Ok(c) => c.read(path, doc, entries).0,
                Err(_) => Default::default(),
            };
            (author, playable_games(doc))
        }
        _ => Default::default(),
    };
    let fi = FileInput {
        display: &input.display,
        name,
        slug,
        stem: &stem,
        format: from,
        read_error: io_error.as_deref(),
        document: r.document.as_ref(),
        diagnostics: &r.diagnostics,
        sources: &r.sources,
        roundtrip: roundtrip.clone(),
        options: &opts,
        fonts,
        images,
        author: &author,
        playable: &playable,
    };
    let prewritten = catalogue::Prewritten {
        zrf: written.zrf,
        yaml: written.yaml,
    };
    let pages = catalogue::file_pages(&fi, prewritten);
    let mut error = None;
    // After an interrupt nothing new is written.
    let files = if super::interrupted() {
        &[][..]
    } else {
        &pages.files[..]
    };
    for f in files {
        if let Err(e) = write(&args.output, f, out) {
            error.get_or_insert(e);
        }
    }
    Done {
        // The game and file pages (not the pages behind Play links, which only say how to play).
        pages: pages
            .files
            .iter()
            .filter(|f| f.path.starts_with("games/") && f.path.ends_with(".html"))
            .count(),
        rows: pages.rows,
        pictures: pages.pictures,
        placeholders: pages.placeholders,
        validator_failures: pages.validator_failures,
        roundtrip: match roundtrip {
            RoundTrip::Passed => 0,
            RoundTrip::Failed(_) => 1,
            RoundTrip::NotRun(_) => 2,
        },
        error,
        input_errors: r.errors() + usize::from(io_error.is_some()),
        playable,
    }
}

/// What a failed round trip shows: its first problem, or the entries that differ.
fn first_problem(j: &super::roundtrip::FileResult) -> String {
    if let Some(p) = j.problems.first() {
        let mut s = p.lines().next().unwrap_or("").to_string();
        if let Some(second) = j.problems.get(1) {
            s.push(' ');
            s.push_str(second.lines().next().unwrap_or(""));
        }
        return s;
    }
    let differ = j.entries.iter().filter(|e| !e.passed).count();
    format!(
        "{differ} of {} games and variants differ after read → spec → ZRF → spec (run `zogkit roundtrip` on the file for the diff)",
        j.entries.len()
    )
}

/// Writes one site file under `site` (folders created as needed) by the output rules, through
/// the site folder held open for the run (`held`).
fn write(
    site: &Path,
    f: &SiteFile,
    (existing, held): (Existing, &OutputDir),
) -> Result<(), String> {
    if zogkit::render::game::safe_relative(&f.path).as_deref() != Some(f.path.as_str()) {
        return Err(format!(
            "site path {:?} is not a plain relative path",
            f.path
        ));
    }
    // Seen and written through the site folder held open: its folders are made as needed, and
    // one that is a symbolic link is refused, as a linked file is.
    let path = site.join(&f.path);
    let meta = held.metadata(&path);
    let replace = existing != Existing::Refuse && meta.is_some();
    output::plan_meta(&path, meta, existing, None)?;
    held.write(&path, &f.bytes, replace)
}
