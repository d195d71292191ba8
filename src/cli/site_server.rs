//! `zogkit catalogue … --serve` and `zogkit serve SITE`: a catalogue site served on 127.0.0.1 with `play`'s safety (`play::http`'s bounds and `Host`/`Origin` checks), and behind each Play link (`/play/<slug>/<n>/`) the game itself, in a `play` session made on first use; the site's manifest of its rule files (`.zogkit-serve.json`).

use super::author_images::Collection;
use super::{InputFile, display_path, read_input, read_regular};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use zogkit::format::{self, Format};
use zogkit::play::{Response, Session};

/// The site's manifest: which rule file each Play link plays, written by every catalogue run
/// and read by `zogkit serve SITE`. A hidden name, so the site server never serves it.
pub(super) const MANIFEST: &str = ".zogkit-serve.json";
/// The manifest's version.
const MANIFEST_VERSION: u32 = 1;
/// Largest manifest read (a few hundred bytes per rule file).
const MAX_MANIFEST: u64 = 16 << 20;

/// Sessions kept at once; the least recently used is dropped for a new one (its moves are
/// lost, and its page says so: the next session of that game has another `state.session`).
const MAX_SESSIONS: usize = 32;
/// Largest site file served (a start picture of a large board is a few MiB).
const MAX_FILE: u64 = 64 << 20;

/// One catalogued input whose games can be played: where to read it again, and which entries
/// (indexes into its document's games) the engine runs.
pub(super) struct Playable {
    pub(super) input: InputFile,
    pub(super) from: Format,
    pub(super) games: Vec<usize>,
}

/// A served site: its folder, its playable inputs by slug, and the sessions started.
pub(super) struct Site {
    /// The site folder, canonical.
    dir: PathBuf,
    inputs: BTreeMap<String, Playable>,
    /// Least recently used first.
    sessions: Mutex<Vec<Started>>,
    /// Sessions made so far: the next one's number (`Session::set_id`).
    made: std::sync::atomic::AtomicU64,
}

/// A session started: its input's slug and entry, and the session.
type Started = ((String, usize), Arc<Mutex<Session>>);

impl Site {
    /// The site in `dir` with the playable inputs by slug.
    pub(super) fn new(dir: &Path, inputs: BTreeMap<String, Playable>) -> Result<Site, String> {
        let dir = std::fs::canonicalize(dir).map_err(|e| format!("{}: {e}", display_path(dir)))?;
        Ok(Site {
            dir,
            inputs,
            sessions: Mutex::new(Vec::new()),
            made: std::sync::atomic::AtomicU64::new(0),
        })
    }

    /// Answers one request: a game's page and API under `/play/<slug>/<n>/`, else a file of
    /// the site (`GET` only; a folder's `index.html`).
    pub(super) fn handle(&self, method: &str, target: &str, body: &[u8]) -> Response {
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        if let Some(rest) = path.strip_prefix("/play/") {
            return self.play(rest, method, query, body);
        }
        if method != "GET" {
            return Response::error(405, format!("{method} is not allowed here; use GET"));
        }
        let mut rel = path.trim_start_matches('/').to_string();
        if rel.is_empty() || rel.ends_with('/') {
            rel.push_str("index.html");
        }
        // The site's own names are plain: `..`, `\`, `%`-escapes and the like never are.
        let plain = zogkit::render::game::safe_relative(&rel).as_deref() == Some(rel.as_str())
            && !rel.contains(['%', '\\'])
            && !rel.split('/').any(|c| c.starts_with('.'));
        if !path.starts_with('/') || !plain {
            return Response::error(404, "no such page");
        }
        let file = self.dir.join(&rel);
        // Written by this run through its held folder; a link swapped in later is not followed out.
        match std::fs::canonicalize(&file) {
            Ok(real) if real.starts_with(&self.dir) => {}
            _ => return Response::error(404, "no such page"),
        }
        match read_regular(&file, MAX_FILE + 1) {
            Ok(bytes) if bytes.len() as u64 <= MAX_FILE => {
                Response::bytes(content_type(&rel), bytes)
            }
            Ok(_) => Response::error(500, "the file is too large to serve"),
            Err(_) => Response::error(404, "no such page"),
        }
    }

    /// `/play/<slug>/<n>/<rest>`: the session of entry `n` (1-based) of input `slug`, made on
    /// first use, answering `/<rest>`.
    fn play(&self, rest: &str, method: &str, query: &str, body: &[u8]) -> Response {
        let mut parts = rest.splitn(3, '/');
        let (slug, n) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        let Some((source, index)) = self.find(slug, n) else {
            return Response::error(404, "no such game to play");
        };
        let Some(inner) = parts.next() else {
            // `/play/<slug>/<n>`: the page's own addresses are relative to its folder (the
            // slug is one of the site's, plain ASCII).
            let mut r = Response::error(308, "the game's page is its folder");
            r.headers
                .push(("Location", format!("/play/{slug}/{}/", index + 1)));
            return r;
        };
        let session = match self.session(slug, index, source) {
            Ok(s) => s,
            Err(e) => return Response::error(500, e),
        };
        let target = match query {
            "" => format!("/{inner}"),
            q => format!("/{inner}?{q}"),
        };
        let mut s = session.lock().unwrap_or_else(|e| e.into_inner());
        s.handle(method, &target, body)
    }

    /// The input `slug` and the index of its entry `n` (1-based), when the engine runs it.
    fn find(&self, slug: &str, n: &str) -> Option<(&Playable, usize)> {
        let source = self.inputs.get(slug)?;
        let index = n.parse::<usize>().ok()?.checked_sub(1)?;
        source.games.contains(&index).then_some((source, index))
    }

    /// The session of entry `index` of `slug`, made (outside the lock: reading a file and
    /// drawing its pictures takes a while) when there is none.
    fn session(
        &self,
        slug: &str,
        index: usize,
        source: &Playable,
    ) -> Result<Arc<Mutex<Session>>, String> {
        let key = (slug.to_string(), index);
        let lock = || self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        // Found: it becomes the most recently used.
        let used = |all: &mut Vec<Started>| {
            let at = all.iter().position(|(k, _)| *k == key)?;
            let s = all.remove(at);
            let found = Arc::clone(&s.1);
            all.push(s);
            Some(found)
        };
        if let Some(s) = used(&mut lock()) {
            return Ok(s);
        }
        let mut session = start(source, index)?;
        session.set_base(&format!("/play/{slug}/{}/", index + 1));
        let made = self.made.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        session.set_id(made + 1);
        let session = Arc::new(Mutex::new(session));
        let mut all = lock();
        if let Some(s) = used(&mut all) {
            return Ok(s);
        }
        if all.len() >= MAX_SESSIONS {
            all.remove(0);
        }
        all.push((key, Arc::clone(&session)));
        Ok(session)
    }
}

/// A `play` session of entry `index` of `source`, read again as the catalogue read it, with
/// the author's pictures from its collection (the folder walked).
fn start(source: &Playable, index: usize) -> Result<Session, String> {
    let input = &source.input;
    let bytes = read_input(input).map_err(|e| format!("{}: {e}", input.display))?;
    let r = format::read(
        source.from,
        &input.display,
        &bytes,
        &super::read_options(None),
        &mut *super::loader(input),
    );
    let doc = match r.document {
        Some(d) if r.errors() == 0 => d,
        _ => return Err(format!("{}: cannot be read any more", input.display)),
    };
    let game = doc.games.get(index).ok_or("no such game")?;
    let mut rules = zogkit::engine::Rules::compile(&doc, index)
        .map_err(|e| format!("{:?} cannot be played: {e}", game.title))?;
    super::engine_settings(&mut rules);
    let own = match &input.path {
        Some(p) => {
            Collection::of(p, input.root.as_deref())?
                .read(p, &doc, [index])
                .0
        }
        None => Default::default(),
    };
    let name = input
        .path
        .as_deref()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let budget = super::play_server::request_budget();
    Ok(Session::with_images(
        &doc, index, rules, &name, budget, &own,
    ))
}

/// The content type of a site file, by its extension.
fn content_type(rel: &str) -> &'static str {
    match rel.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "png" => "image/png",
        "json" => "application/json",
        _ => "text/plain; charset=utf-8",
    }
}

/// The entries of `doc` the engine runs (compiled without a refusal).
pub(super) fn playable_games(doc: &zogkit::spec::Document) -> Vec<usize> {
    (0..doc.games.len())
        .filter(|&i| doc.games[i].kind != zogkit::spec::EntryKind::Separator)
        .filter(|&i| zogkit::engine::Rules::compile(doc, i).is_ok())
        .collect()
}

/// The manifest as written: the rule files whose games the engine runs, by slug.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    /// [`MANIFEST_VERSION`].
    zogkit_serve: u32,
    inputs: Vec<ManifestInput>,
}

/// One rule file of the manifest.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ManifestInput {
    /// The input's slug: its pages are `games/<slug>/`, its Play links `play/<slug>/<n>/`.
    slug: String,
    /// The rule file, an absolute path.
    file: PathBuf,
    /// The folder walked to find it (includes and the author's pictures stay inside), an
    /// absolute path; `null` for a file named alone (its own folder).
    collection: Option<PathBuf>,
    /// The format it was read in.
    format: String,
    /// The entries (0-based indexes of the document's games) the engine runs.
    games: Vec<usize>,
}

/// The manifest of the playable inputs (inputs read from standard input cannot be read again
/// and are left out), with every path made absolute.
pub(super) fn manifest(playable: &BTreeMap<String, Playable>) -> Vec<u8> {
    let absolute = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let inputs = playable
        .iter()
        .filter_map(|(slug, p)| {
            Some(ManifestInput {
                slug: slug.clone(),
                file: absolute(p.input.path.as_deref()?),
                collection: p.input.root.as_deref().map(absolute),
                format: p.from.name().to_string(),
                games: p.games.clone(),
            })
        })
        .collect();
    let m = Manifest {
        zogkit_serve: MANIFEST_VERSION,
        inputs,
    };
    let mut text = serde_json::to_vec_pretty(&m).unwrap_or_default();
    text.push(b'\n');
    text
}

/// The playable inputs a site's manifest names, checked: a known version, plain and distinct
/// slugs, absolute paths, each rule file inside its collection, a readable format.
pub(super) fn read_manifest(site: &Path) -> Result<BTreeMap<String, Playable>, String> {
    let path = site.join(MANIFEST);
    let shown = display_path(&path);
    let bytes = match read_regular(&path, MAX_MANIFEST + 1) {
        Ok(b) if b.len() as u64 > MAX_MANIFEST => {
            return Err(format!("{shown}: larger than {MAX_MANIFEST} bytes"));
        }
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(format!(
                "{shown} is missing: {} is not a catalogue site, or was built before zogkit \
                 wrote one (build it again with `zogkit catalogue INPUTS… -o SITE --force`)",
                display_path(site)
            ));
        }
        Err(e) => return Err(format!("{shown}: {e}")),
    };
    let m: Manifest =
        serde_json::from_slice(&bytes).map_err(|e| format!("{shown}: not a site manifest: {e}"))?;
    if m.zogkit_serve != MANIFEST_VERSION {
        return Err(format!(
            "{shown}: version {} (this zogkit reads version {MANIFEST_VERSION}); build the site again",
            m.zogkit_serve
        ));
    }
    let mut out = BTreeMap::new();
    for (k, e) in m.inputs.into_iter().enumerate() {
        let bad = |why: String| format!("{shown}: input {}: {why}", k + 1);
        let plain = !e.slug.is_empty()
            && e.slug.len() <= 255
            && !e.slug.starts_with('.')
            && e.slug
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
        if !plain {
            return Err(bad(format!("slug {:?} is not a plain name", e.slug)));
        }
        if !e.file.is_absolute() || e.collection.as_ref().is_some_and(|c| !c.is_absolute()) {
            return Err(bad("paths must be absolute".into()));
        }
        if let Some(c) = &e.collection
            && !e.file.starts_with(c)
        {
            return Err(bad(format!(
                "{} is not inside its collection {}",
                display_path(&e.file),
                display_path(c)
            )));
        }
        let from = Format::from_name(&e.format)
            .filter(|f| f.readable())
            .ok_or_else(|| bad(format!("{:?} is not a format zogkit reads", e.format)))?;
        let input = InputFile {
            display: display_path(&e.file),
            path: Some(e.file),
            root: e.collection,
        };
        let games = e.games;
        if out
            .insert(e.slug.clone(), Playable { input, from, games })
            .is_some()
        {
            return Err(bad(format!("slug {:?} named twice", e.slug)));
        }
    }
    Ok(out)
}

/// Arguments of `zogkit serve`.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// A site written by `zogkit catalogue … -o SITE` (its `.zogkit-serve.json` names the rule
    /// files its Play links play).
    pub site: PathBuf,
    /// The port on 127.0.0.1 (default: a free one).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Do not open a browser (it is not opened either when there is no display).
    #[arg(long)]
    pub no_browser: bool,
}

/// Runs `zogkit serve SITE`: the site as `catalogue --serve` serves it; exit 130 on Ctrl-C.
pub fn run_serve(args: &ServeArgs) -> u8 {
    super::catch_interrupts();
    if !args.site.is_dir() {
        super::error_line!("{} is not a folder", display_path(&args.site));
        return super::EXIT_USAGE;
    }
    let playable = match read_manifest(&args.site) {
        Ok(p) => p,
        Err(e) => {
            super::error_line!("{e}");
            return super::EXIT_USAGE;
        }
    };
    let games: usize = playable.values().map(|p| p.games.len()).sum();
    let files = playable.len();
    let site = match Site::new(&args.site, playable) {
        Ok(s) => s,
        Err(e) => {
            super::error_line!("{e}");
            return super::EXIT_USAGE;
        }
    };
    let what = format!(
        "zogkit serve: serving {} ({games} game{} to play from {files} rule file{})",
        display_path(&args.site),
        if games == 1 { "" } else { "s" },
        if files == 1 { "" } else { "s" }
    );
    let handler = move |method: &str, target: &str, body: &[u8]| site.handle(method, target, body);
    super::play_server::run_server(args.port, &what, args.no_browser, Arc::new(handler))
}
