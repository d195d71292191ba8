//! `zogkit play FILE`: serves one game on 127.0.0.1 to a browser (the socket side; the game
//! session, the API and the page are `zogkit::play`).
//!
//! One thread accepts connections (a watcher wakes it on Ctrl-C); each connection gets a thread (at
//! most [`MAX_CONNECTIONS`] at once) that reads one request within [`READ_TIMEOUT`] and the
//! size bounds of `zogkit::play::http`, checks its `Host` and `Origin`, answers under the
//! session's lock, and closes.

use super::author_images::Collection;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use zogkit::play::http::{self, Parsed, Response};
use zogkit::play::{DEFAULT_BUDGET, Session};
use zogkit::render::own::AuthorFiles;

/// Connections served at once; more are answered 503 at once.
const MAX_CONNECTIONS: usize = 16;
/// How long one request may take to arrive, head and body.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// Arguments of `zogkit play`.
#[derive(Debug, Clone, clap::Args)]
pub struct PlayArgs {
    /// The game's rules (ZRF, YAML, `.lud`, Chessembly, variants.ini); with `--probe`, any
    /// number of files and folders (searched for `.zrf` files).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Which game: its 1-based menu index or its title (default: the first game).
    #[arg(long)]
    pub game: Option<String>,
    /// Input format of the rules (default: from the extension).
    #[arg(long, value_parser = super::convert::readable_format())]
    pub from: Option<zogkit::format::Format>,
    /// The port on 127.0.0.1 (default: a free one).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Do not open a browser (it is not opened either when there is no display).
    #[arg(long)]
    pub no_browser: bool,
    /// Serve nothing: load every game of the files in the API and play one random legal move
    /// through `POST /api/move` and back (`--seed`), then print the figures (exit 1 when a game
    /// the engine runs fails).
    #[arg(long)]
    pub probe: bool,
    /// The seed of `--probe`'s random moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The collection the rule file belongs to: the author's pictures may be anywhere inside
    /// it (`..\Images\…` from a `Rules` folder), nothing outside is read (default: the rule
    /// file's folder).
    #[arg(long, value_name = "DIR")]
    pub collection: Option<PathBuf>,
}

/// Runs `zogkit play`; returns the exit code (130 once Ctrl-C stopped the server).
pub fn run(args: &PlayArgs) -> u8 {
    super::catch_interrupts();
    if args.probe {
        return probe_all(args);
    }
    let [file] = args.files.as_slice() else {
        super::error_line!("play serves one file (give several only with --probe)");
        return super::EXIT_USAGE;
    };
    let game = args.game.as_deref();
    let (rules, doc) = match super::load_rules(file, args.from, game) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let Ok(index) = super::pick_game(&doc, game) else {
        return super::EXIT_USAGE;
    };
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let budget = request_budget();
    let own = match own_pictures(file, args.collection.as_deref(), &doc, index) {
        Ok(own) => own,
        Err(e) => {
            super::error_line!("{e}");
            return super::EXIT_USAGE;
        }
    };
    let session = Session::with_images(&doc, index, rules, &name, budget, &own);
    drop(doc);
    for n in session.picture_notes() {
        eprintln!("note: {n}; drawn instead");
    }
    let what = format!("zogkit play: serving {:?}", session.rules().title);
    let session = Mutex::new(session);
    let handler = move |method: &str, target: &str, body: &[u8]| {
        let mut s = session.lock().unwrap_or_else(|e| e.into_inner());
        s.handle(method, target, body)
    };
    run_server(args.port, &what, args.no_browser, Arc::new(handler))
}

/// The engine steps one request may run: one command's work limit (`--limit engine-work`).
pub(super) fn request_budget() -> u64 {
    match super::settings().read.engine_work {
        0 => DEFAULT_BUDGET,
        n => n,
    }
}

/// What answers one request — method, target (with its query), body — on any connection's
/// thread.
pub(super) type Handler = dyn Fn(&str, &str, &[u8]) -> Response + Send + Sync;

/// Binds 127.0.0.1 (`port`, or a free one when 0), prints `WHAT at URL`, opens the
/// browser unless `no_browser`, and answers requests with `handler` until Ctrl-C (exit 130).
pub(super) fn run_server(port: u16, what: &str, no_browser: bool, handler: Arc<Handler>) -> u8 {
    let listener = match TcpListener::bind(("127.0.0.1", port)) {
        Ok(l) => l,
        Err(e) => {
            super::error_line!("cannot listen on 127.0.0.1:{port}: {e}");
            return super::EXIT_USAGE;
        }
    };
    let port = match listener.local_addr() {
        Ok(a) => a.port(),
        Err(e) => {
            super::error_line!("cannot read the listening address: {e}");
            return super::EXIT_USAGE;
        }
    };
    let url = format!("http://127.0.0.1:{port}/");
    let line = format!("{what} at {url} (Ctrl-C stops)\n");
    if let Err(code) = super::print_stdout(&line) {
        return code;
    }
    let _ = std::io::stdout().flush();
    if !no_browser {
        open_browser(&url);
    }
    serve(listener, port, handler)
}

/// The author's pictures of game `index` of `doc`, read from `file`'s collection (none for
/// standard input).
pub(super) fn own_pictures(
    file: &Path,
    collection: Option<&Path>,
    doc: &zogkit::spec::Document,
    index: usize,
) -> Result<AuthorFiles, String> {
    if super::output::is_stdout(file) {
        return Ok(AuthorFiles::new());
    }
    let c = Collection::of(file, collection)?;
    let (files, missing) = c.read(file, doc, [index]);
    if let Some(n) = c.missing_note(&missing) {
        eprintln!("note: {n}");
    }
    Ok(files)
}

/// Accepts connections until Ctrl-C. `accept` blocks (no polling delay on a request); a
/// watcher thread wakes it with a connection of its own once the interrupt flag is raised.
fn serve(listener: TcpListener, port: u16, handler: Arc<Handler>) -> u8 {
    let watcher = std::thread::Builder::new()
        .name("play-interrupt".into())
        .spawn(move || {
            while !super::interrupted() {
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = TcpStream::connect(("127.0.0.1", port));
        });
    if let Err(e) = watcher {
        super::error_line!("cannot start a thread: {e}");
        return super::EXIT_USAGE;
    }
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        if super::interrupted() {
            break;
        }
        let Ok(mut stream) = stream else {
            // A connection reset before it was accepted, or no descriptor left: wait a little.
            std::thread::sleep(Duration::from_millis(10));
            continue;
        };
        if open.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
            let busy = Response::error(503, "too many connections");
            let _ = stream.write_all(&busy.to_bytes());
            continue;
        }
        open.fetch_add(1, Ordering::SeqCst);
        let (handler, mine) = (Arc::clone(&handler), Arc::clone(&open));
        let spawned = std::thread::Builder::new()
            .name("play-connection".into())
            .spawn(move || {
                connection(stream, port, &*handler);
                mine.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            open.fetch_sub(1, Ordering::SeqCst);
        }
    }
    eprintln!("interrupted: the server stopped");
    super::EXIT_INTERRUPTED
}

/// Reads one request, answers it and closes the connection.
fn connection(mut stream: TcpStream, port: u16, handler: &Handler) {
    let response = match read_request(&mut stream, port) {
        Ok((method, target, body)) => handler(&method, &target, &body),
        Err(Some(r)) => r,
        Err(None) => return,
    };
    let _ = stream.write_all(&response.to_bytes());
    let _ = stream.flush();
}

/// The request's method, target and body; `Err(Some(response))` to refuse it, `Err(None)` when
/// the client went away.
fn read_request(
    stream: &mut TcpStream,
    port: u16,
) -> Result<(String, String, Vec<u8>), Option<Response>> {
    let deadline = Instant::now() + READ_TIMEOUT;
    let mut buf = Vec::with_capacity(2048);
    let mut chunk = [0u8; 4096];
    let head = loop {
        match http::parse_head(&buf) {
            Parsed::Head(h) => break h,
            Parsed::Refused(r) => return Err(Some(r)),
            Parsed::Partial => {}
        }
        let n = read_some(stream, &mut chunk, deadline)?;
        buf.extend_from_slice(&chunk[..n]);
    };
    if let Some(r) = http::refuse(&head, port) {
        return Err(Some(r));
    }
    let mut body = buf.split_off(head.len.min(buf.len()));
    if body.len() > head.body_len {
        return Err(Some(Response::error(
            400,
            "more bytes than Content-Length (one request per connection)",
        )));
    }
    while body.len() < head.body_len {
        let n = read_some(stream, &mut chunk, deadline)?;
        let want = head.body_len - body.len();
        body.extend_from_slice(&chunk[..n.min(want)]);
    }
    Ok((head.method, head.target, body))
}

/// Reads some bytes before `deadline`: `Err(None)` when the peer closed, a 408 when too slow.
fn read_some(
    stream: &mut TcpStream,
    chunk: &mut [u8],
    deadline: Instant,
) -> Result<usize, Option<Response>> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
        return Err(Some(Response::error(408, "the request took too long")));
    }
    match stream.read(chunk) {
        Ok(0) => Err(None),
        Ok(n) => Ok(n),
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) =>
        {
            Err(Some(Response::error(408, "the request took too long")))
        }
        Err(_) => Err(None),
    }
}

/// `--probe`: every game of every input through [`zogkit::play::probe`], in parallel; prints
/// the failures and one summary line.
fn probe_all(args: &PlayArgs) -> u8 {
    use rayon::prelude::*;
    use zogkit::play::Probe;
    let inputs = match super::outcome::inputs(&args.files, &["zrf"], true) {
        Ok(v) => v,
        Err(code) => return code,
    };
    #[derive(Default)]
    struct Count {
        files: usize,
        unreadable: usize,
        games: usize,
        refused: usize,
        round_trips: usize,
        no_move: usize,
        failed: Vec<String>,
        notes: Vec<String>,
    }
    let counts: Vec<Count> = inputs
        .par_iter()
        .map(|input| {
            let mut c = Count {
                files: 1,
                ..Count::default()
            };
            if super::interrupted() {
                return c;
            }
            let fmt = super::outcome::format_of(args.from, input);
            let read = super::read_input(input).map(|bytes| {
                zogkit::format::read(
                    fmt,
                    &input.display,
                    &bytes,
                    &super::read_options(None),
                    &mut *super::loader(input),
                )
            });
            let doc = match read {
                Ok(r) if r.errors() == 0 => r.document,
                _ => None,
            };
            let Some(doc) = doc else {
                c.unreadable = 1;
                return c;
            };
            for (i, g) in doc.games.iter().enumerate() {
                if g.kind == zogkit::spec::EntryKind::Separator {
                    continue;
                }
                c.games += 1;
                let Ok(mut rules) = zogkit::engine::Rules::compile(&doc, i) else {
                    c.refused += 1;
                    continue;
                };
                let read = &super::settings().read;
                rules.step_limit = read.engine_steps;
                rules.block_run_limit = read.engine_block_runs;
                rules.move_limit = usize::try_from(read.engine_moves).unwrap_or(usize::MAX);
                rules.interrupt = Some(super::interrupt_flag());
                let seed = args.seed.wrapping_add(i as u64);
                match zogkit::play::probe(&doc, i, rules, seed) {
                    Ok(Probe::RoundTrip { .. }) => c.round_trips += 1,
                    Ok(Probe::NoMove(why)) => {
                        c.no_move += 1;
                        c.notes
                            .push(format!("{}: game {:?}: {why}", input.display, g.title));
                    }
                    Err(e) => c
                        .failed
                        .push(format!("{}: game {:?}: {e}", input.display, g.title)),
                }
            }
            c
        })
        .collect();
    let mut t = Count::default();
    for c in counts {
        t.files += c.files;
        t.unreadable += c.unreadable;
        t.games += c.games;
        t.refused += c.refused;
        t.round_trips += c.round_trips;
        t.no_move += c.no_move;
        t.failed.extend(c.failed);
        t.notes.extend(c.notes);
    }
    for n in &t.notes {
        eprintln!("note: {n}");
    }
    for f in &t.failed {
        super::error_line!("{f}");
    }
    if super::interrupted() {
        eprintln!("interrupted");
        return super::EXIT_INTERRUPTED;
    }
    let run = t.games - t.refused;
    let line = format!(
        "play --probe: {} files ({} unreadable), {} games, {run} run by the engine: {} loaded \
         and round-tripped a random move through POST /api/move, {} loaded with no move at the \
         start, {} failed\n",
        t.files,
        t.unreadable,
        t.games,
        t.round_trips,
        t.no_move,
        t.failed.len()
    );
    match super::print_stdout(&line) {
        Ok(()) if t.failed.is_empty() => super::EXIT_OK,
        Ok(()) => super::EXIT_ERRORS,
        Err(code) => code,
    }
}

/// Opens `url` in the user's browser when there is a display; a failure is only a note.
pub(super) fn open_browser(url: &str) {
    let (program, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        let display = ["DISPLAY", "WAYLAND_DISPLAY"]
            .iter()
            .any(|v| std::env::var_os(v).is_some_and(|d| !d.is_empty()));
        if !display {
            eprintln!("note: no display: open {url} in a browser");
            return;
        }
        ("xdg-open", vec![url])
    };
    let spawned = std::process::Command::new(program)
        .args(&args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if spawned.is_err() {
        eprintln!("note: could not start {program}: open {url} in a browser");
    }
}
