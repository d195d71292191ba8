//! `zogkit play`: a sample of the shared corpus through the session's API (every game the
//! engine runs loads and round-trips a random legal move), the real server over TCP (loopback
//! checks, bounds, a saved game that `replay` reads, a corpus save loaded and stepped, Ctrl-C),
//! and headless Chromium driving the page through the DevTools protocol (`#[ignore]`d, run by
//! `.ci/run`).

use crate::common;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use zogkit::engine::Rules;
use zogkit::play::{Probe, probe};

/// Every `STEP`th ZRF file of the shared corpus is sampled.
const STEP: usize = 9;

/// How long a browser or server answer may take before a test calls it a hang: far above any
/// real answer's time on a loaded machine, so it fails only on a hang.
pub(crate) const HANG_GUARD: Duration = Duration::from_secs(300);

#[test]
fn a_sample_of_the_shared_corpus_loads_in_the_api_and_round_trips_a_random_move() {
    let Some(dir) = common::shared_zrf() else {
        return;
    };
    let files = common::zrf_files(&dir);
    let (mut run, mut round_trips, mut failed) = (0, 0, Vec::new());
    for (n, path) in files.iter().enumerate().filter(|(n, _)| n % STEP == 0) {
        let bytes = std::fs::read(path).unwrap();
        let name = path.strip_prefix(&dir).unwrap().display().to_string();
        let r = zogkit::format::read(
            zogkit::format::Format::Zrf,
            &name,
            &bytes,
            &Default::default(),
            &mut zogkit::zrf::NoIncludes,
        );
        // Files that include others need the CLI's loader: `zogkit play --probe` reads them.
        let clean = r.errors() == 0;
        let Some(doc) = r.document.filter(|_| clean) else {
            continue;
        };
        for i in 0..doc.games.len() {
            let Ok(rules) = Rules::compile(&doc, i) else {
                continue;
            };
            run += 1;
            match probe(&doc, i, rules, (n * 31 + i) as u64) {
                Ok(Probe::RoundTrip { .. }) => round_trips += 1,
                Ok(Probe::NoMove(_)) => {}
                Err(e) => failed.push(format!("{name}: {:?}: {e}", doc.games[i].title)),
            }
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {run} games failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
    eprintln!("sample: {run} games the engine runs, {round_trips} round-tripped a random move");
    // The sample holds many games; nearly all have a move at the start.
    assert!(
        run >= 40 && round_trips * 10 >= run * 9,
        "{round_trips} of {run}"
    );
}

/// A running `zogkit play` and its port; stopped with SIGINT when dropped.
struct Server {
    child: common::Spawned,
    port: u16,
}

impl Server {
    fn start(file: &Path) -> Server {
        Server::start_with(file, &[])
    }

    /// The server of one game of `file`, by title.
    fn start_game(file: &Path, title: &str) -> Server {
        Server::start_with(file, &["--game", title])
    }

    fn start_with(file: &Path, more: &[&str]) -> Server {
        let mut args = vec![std::ffi::OsStr::new("play"), file.as_os_str()];
        args.extend(more.iter().map(std::ffi::OsStr::new));
        let (child, port, _) = common::serve(&args);
        Server { child, port }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    /// Sends raw bytes; the status and body of the answer.
    fn raw(&self, request: &[u8]) -> (u16, String) {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(HANG_GUARD)).unwrap();
        // The server may answer and close before reading a refused request whole.
        let _ = s.write_all(request);
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let text = String::from_utf8_lossy(&out).into_owned();
        let status = text
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status in {text:?}"));
        let body = text
            .split_once("\r\n\r\n")
            .map_or("", |(_, b)| b)
            .to_string();
        (status, body)
    }

    fn call(&self, method: &str, path: &str, body: &str) -> (u16, serde_json::Value) {
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nOrigin: http://127.0.0.1:{}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.port,
            self.port,
            body.len()
        );
        let (status, body) = self.raw(req.as_bytes());
        (
            status,
            serde_json::from_str(&body).unwrap_or(serde_json::Value::Null),
        )
    }

    /// Stops the server with SIGINT (Ctrl-C); its exit code.
    #[cfg(unix)]
    fn interrupt(&mut self) -> Option<i32> {
        self.child.interrupt("play")
    }
}

fn chess() -> Option<PathBuf> {
    Some(common::shared_zrf()?.join("dagaz/chess/chess.zrf"))
}

#[test]
fn the_server_answers_on_loopback_refuses_other_hosts_and_saves_a_game_replay_reads() {
    let Some(chess) = chess() else { return };
    let mut server = Server::start(&chess);
    let port = server.port;
    let (status, game) = server.call("GET", "/api/game", "");
    assert_eq!(status, 200);
    assert_eq!(game["title"], "Chess");
    assert_eq!(game["positions"].as_array().unwrap().len(), 64);
    let (status, page) =
        server.raw(format!("GET / HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n").as_bytes());
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"play.js\">"));
    // Fool's mate, by FROM-TO and by notation; the computer finds the mate in one.
    for m in ["f2-f3", "Pawn e7 - e5", "g2g4"] {
        let (status, r) = server.call(
            "POST",
            "/api/move",
            &serde_json::json!({"notation": m}).to_string(),
        );
        assert_eq!(status, 200, "{m}: {r}");
    }
    let (status, t) = server.call("POST", "/api/think", r#"{"ms": 10000, "depth": 1}"#);
    assert_eq!(status, 200, "{t}");
    assert_eq!(t["notation"], "Queen d8 - h4", "{t}");
    let (status, r) = server.call("POST", "/api/move", r#"{"notation": "d8-h4"}"#);
    assert_eq!(status, 200, "{r}");
    let (_, st) = server.call("GET", "/api/state", "");
    assert_eq!(st["end"]["kind"], "loss", "{st}");
    assert_eq!(st["end"]["players"], serde_json::json!(["White"]));
    assert_eq!(st["end"]["text"], "Black wins: White is checkmated (King)");
    // Refused: another Host (DNS rebinding), another Origin, a body or a head too large, a
    // chunked body; none of them changes the game.
    let refused = [
        (
            format!("GET /api/game HTTP/1.1\r\nHost: evil.example:{port}\r\n\r\n"),
            403,
        ),
        (
            format!(
                "POST /api/undo HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://evil.example\r\nContent-Length: 0\r\n\r\n"
            ),
            403,
        ),
        (
            format!(
                "POST /api/move HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 5000000\r\n\r\n"
            ),
            413,
        ),
        (
            format!(
                "GET /api/game HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX: {}\r\n\r\n",
                "a".repeat(20_000)
            ),
            431,
        ),
        (
            format!(
                "POST /api/move HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
            ),
            411,
        ),
        (
            format!(
                "POST /api/move HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 3\r\n\r\n{{}}x"
            ),
            400,
        ),
    ];
    for (req, want) in &refused {
        let (status, body) = server.raw(req.as_bytes());
        assert_eq!(status, *want, "{}: {body}", common_prefix(req));
        assert!(body.contains("\"error\""), "{body}");
    }
    let (_, st) = server.call("GET", "/api/state", "");
    assert_eq!(st["undo"], 4);
    // The saved game replays with `zogkit replay`.
    let (status, zsg) = server.raw(
        format!("GET /api/zsg?players=HC HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n").as_bytes(),
    );
    assert_eq!(status, 200);
    assert!(
        zsg.starts_with("Zillions Save Game File Version 0.02 HC\r\nRulesFile=chess.zrf\r\n"),
        "{zsg}"
    );
    let dir = common::scratch_dir("play-zsg");
    let saved = dir.join("fools-mate.zsg");
    std::fs::write(&saved, &zsg).unwrap();
    let o = common::zogkit(&[
        "replay",
        saved.to_str().unwrap(),
        "--rules",
        chess.to_str().unwrap(),
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.starts_with("replayed 4 moves of "), "{out}");
    assert_eq!(server.interrupt(), Some(130));
}

/// The Duke save of the shared corpus (253 records) and its rules.
fn duke() -> Option<(PathBuf, PathBuf)> {
    let zrf = common::shared_zrf()?;
    Some((
        zrf.join("dagazproject/Duke/Duke.zrf"),
        zrf.join("../zsg/dagazproject/Duke/Duke.zsg"),
    ))
}

#[test]
fn a_shared_corpus_save_loads_steps_to_its_end_and_saves_again() {
    let Some((rules, save)) = duke() else { return };
    let server = Server::start_game(&rules, "Duke");
    let text = std::fs::read_to_string(&save).unwrap();
    let (status, r) = server.call("POST", "/api/zsg", &text);
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["records"], 253);
    assert_eq!(
        (r["state"]["undo"].as_u64(), r["state"]["redo"].as_u64()),
        (Some(0), Some(253))
    );
    let (_, r) = server.call("POST", "/api/redo", "");
    assert_eq!(r["state"]["history"][0]["notation"], "South DukeA a1");
    let (_, r) = server.call("POST", "/api/redo?all", "");
    assert_eq!(
        (r["state"]["undo"].as_u64(), r["state"]["redo"].as_u64()),
        (Some(253), Some(0))
    );
    // Saved again, it replays to the same end.
    let (status, again) = server.raw(
        format!(
            "GET /api/zsg?players=CCC HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
            server.port
        )
        .as_bytes(),
    );
    assert_eq!(status, 200);
    let dir = common::scratch_dir("play-duke");
    let out = dir.join("Duke.zsg");
    std::fs::write(&out, &again).unwrap();
    let o = common::zogkit(&[
        "replay",
        out.to_str().unwrap(),
        "--rules",
        rules.to_str().unwrap(),
    ]);
    let printed = String::from_utf8_lossy(&o.stdout);
    assert!(
        printed.starts_with("replayed 253 moves of "),
        "{printed}{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A shogi-like game: a capture puts the piece in its owner's hand (ZoG's `recycle captures`,
/// the engine's only way to fill a hand), from where it is dropped; Sente holds one at the start.
const HAND: &str = r#"
(game (title "Hand") (players Sente Gote) (turn-order Sente Gote)
  (option "recycle captures" true)
  (board (grid (start-rectangle 0 0 40 40)
    (dimensions ("a/b/c" (40 0)) ("3/2/1" (0 40)))
    (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0)))
    (symmetry Gote (n s) (s n)))
  (piece (name Pawn) (moves (n (verify not-friend?) add))
    (drops ((verify empty?) add)))
  (piece (name King) (moves (n (verify not-friend?) add) (s (verify not-friend?) add)))
  (board-setup (Sente (Pawn b1) (King c1) (Pawn off 1)) (Gote (Pawn b2) (King a3)))
  (loss-condition (Sente Gote) (pieces-remaining 0)))
"#;

/// The hand of `player` in a state: piece → count.
fn hand_of(state: &serde_json::Value, player: &str) -> Vec<(String, u64)> {
    state["hand"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["player"] == player)
        .map(|h| {
            (
                h["piece"].as_str().unwrap().to_string(),
                h["count"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The positions of `game` where nothing stands in `state`.
fn empty_positions(game: &serde_json::Value, state: &serde_json::Value) -> Vec<String> {
    let taken: Vec<&str> = state["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["at"].as_str().unwrap())
        .collect();
    let mut empty: Vec<String> = game["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .filter(|p| !taken.contains(&p.as_str()))
        .collect();
    empty.sort();
    empty
}

/// The drop targets of `piece` by `player` among the legal moves, sorted.
fn drop_targets(moves: &serde_json::Value, player: &str, piece: &str) -> Vec<String> {
    let mut to: Vec<String> = moves["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["from"].is_null() && m["player"] == player && m["piece"] == piece)
        .map(|m| m["to"].as_str().unwrap().to_string())
        .collect();
    to.sort();
    to
}

#[test]
fn a_shogi_like_hand_fills_on_a_capture_and_empties_on_a_drop() {
    let dir = common::scratch_dir("play-hand");
    let file = dir.join("hand.zrf");
    std::fs::write(&file, HAND).unwrap();
    let server = Server::start(&file);
    let (status, game) = server.call("GET", "/api/game", "");
    assert_eq!(status, 200, "{game}");
    let start = &game["state"];
    assert_eq!(hand_of(start, "Sente"), [("Pawn".to_string(), 1)]);
    assert_eq!(hand_of(start, "Gote"), Vec::<(String, u64)>::new());
    // Every piece in hand has a picture to draw it beside the board.
    let pawn = game["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Pawn")
        .unwrap();
    for url in pawn["images"].as_array().unwrap() {
        let (status, _) = server.raw(
            format!(
                "GET {} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
                url.as_str().expect("a tile for each player"),
                server.port
            )
            .as_bytes(),
        );
        assert_eq!(status, 200, "{url}");
    }
    // Sente's pawn takes Gote's: the pawn goes to Gote's hand.
    let (status, r) = server.call("POST", "/api/move", r#"{"notation": "b1-b2"}"#);
    assert_eq!(status, 200, "{r}");
    let st = &r["state"];
    assert_eq!(st["to_move"], "Gote");
    assert_eq!(hand_of(st, "Gote"), [("Pawn".to_string(), 1)]);
    assert_eq!(hand_of(st, "Sente"), [("Pawn".to_string(), 1)]);
    // Gote may drop it on every empty position, and only there.
    let (_, moves) = server.call("GET", "/api/moves", "");
    let targets = drop_targets(&moves, "Gote", "Pawn");
    assert_eq!(targets, empty_positions(&game, st), "{moves}");
    assert!(!targets.is_empty());
    // The drop by index: the hand empties and the pawn stands there.
    let drop = moves["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["from"].is_null() && m["to"] == "c2")
        .expect("a drop on c2")
        .clone();
    let (status, r) = server.call(
        "POST",
        "/api/move",
        &serde_json::json!({"index": drop["index"]}).to_string(),
    );
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["played"], drop["notation"]);
    assert_eq!(hand_of(&r["state"], "Gote"), Vec::<(String, u64)>::new());
    let on_c2: Vec<_> = r["state"]["board"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["at"] == "c2")
        .map(|b| (b["player"].clone(), b["piece"].clone()))
        .collect();
    assert_eq!(
        on_c2,
        [(serde_json::json!("Gote"), serde_json::json!("Pawn"))]
    );
    // Undo gives it back to the hand.
    let (_, r) = server.call("POST", "/api/undo", "");
    assert_eq!(hand_of(&r["state"], "Gote"), [("Pawn".to_string(), 1)]);
}

fn common_prefix(req: &str) -> &str {
    &req[..req.len().min(80)]
}

#[test]
fn probe_reports_the_figures_of_the_files_it_is_given() {
    let Some(chess) = chess() else { return };
    let o = common::zogkit(&[
        "play",
        "--probe",
        chess.to_str().unwrap(),
        "corpus/ludii/tictactoe.lud",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.starts_with("play --probe: 2 files (0 unreadable), ") && out.contains(" 0 failed"),
        "{out}"
    );
    let o = common::zogkit(&["play", chess.to_str().unwrap(), chess.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
}

/// Chromium driven through the DevTools protocol over `--remote-debugging-pipe` (file
/// descriptors 3 and 4, NUL-separated JSON messages): no WebSocket client needed.
pub(crate) struct Browser {
    child: Child,
    to: std::fs::File,
    from: std::sync::mpsc::Receiver<serde_json::Value>,
    next: u64,
    session: Option<String>,
}

impl Browser {
    pub(crate) fn start() -> Browser {
        use std::os::fd::{FromRawFd, IntoRawFd, OwnedFd};
        use std::os::unix::process::CommandExt;
        // Two pipes, their ends kept above 10 so that the child's dup2 onto 3 and 4 never
        // meets them.
        let pipe = || -> (OwnedFd, OwnedFd) {
            let mut fds = [0; 2];
            // SAFETY: `fds` has room for the two descriptors `pipe2` writes.
            assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
            let high = |fd: i32| {
                // SAFETY: `fd` was just returned by `pipe2`; the duplicate is owned below.
                let d = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 10) };
                assert!(d >= 10);
                // SAFETY: closing the original after duplicating it.
                unsafe { libc::close(fd) };
                // SAFETY: `d` is a fresh descriptor nothing else owns.
                unsafe { OwnedFd::from_raw_fd(d) }
            };
            (high(fds[0]), high(fds[1]))
        };
        let (cmd_read, cmd_write) = pipe();
        let (out_read, out_write) = pipe();
        let (r, w) = (cmd_read.into_raw_fd(), out_write.into_raw_fd());
        let mut command = Command::new("chromium");
        command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--no-first-run",
                "--remote-debugging-pipe",
                "--window-size=1100,800",
                "about:blank",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: only async-signal-safe calls (dup2) between fork and exec.
        unsafe {
            command.pre_exec(move || {
                if libc::dup2(r, 3) < 0 || libc::dup2(w, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("start chromium");
        // SAFETY: the parent's copies of the child's ends, owned here and closed.
        unsafe {
            drop(OwnedFd::from_raw_fd(r));
            drop(OwnedFd::from_raw_fd(w));
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let mut reader = std::fs::File::from(out_read);
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let mut chunk = [0u8; 65536];
            while let Ok(n) = reader.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                buf.extend_from_slice(&chunk[..n]);
                while let Some(end) = buf.iter().position(|&b| b == 0) {
                    let msg: Vec<u8> = buf.drain(..=end).collect();
                    if let Ok(v) = serde_json::from_slice(&msg[..end])
                        && tx.send(v).is_err()
                    {
                        return;
                    }
                }
            }
        });
        let mut b = Browser {
            child,
            to: std::fs::File::from(cmd_write),
            from: rx,
            next: 0,
            session: None,
        };
        let targets = b.send("Target.getTargets", serde_json::json!({}));
        let page = targets["targetInfos"]
            .as_array()
            .and_then(|t| t.iter().find(|t| t["type"] == "page"))
            .map(|t| t["targetId"].clone())
            .expect("a page target");
        let attached = b.send(
            "Target.attachToTarget",
            serde_json::json!({"targetId": page, "flatten": true}),
        );
        b.session = attached["sessionId"].as_str().map(String::from);
        b.send("Page.enable", serde_json::json!({}));
        b
    }

    /// Sends a command (to the page once attached) and waits for its result (a hang guard of
    /// [`HANG_GUARD`], far above any answer's time even under load).
    pub(crate) fn send(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        self.next += 1;
        let mut msg = serde_json::json!({"id": self.next, "method": method, "params": params});
        if let Some(s) = &self.session {
            msg["sessionId"] = s.clone().into();
        }
        let mut bytes = msg.to_string().into_bytes();
        bytes.push(0);
        self.to.write_all(&bytes).unwrap();
        let deadline = Instant::now() + HANG_GUARD;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self
                .from
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no answer to {method}"));
            if v["id"] == self.next {
                assert!(v.get("error").is_none(), "{method}: {v}");
                return v["result"].clone();
            }
        }
    }

    /// Evaluates a JavaScript expression in the page; its value.
    pub(crate) fn eval(&mut self, expr: &str) -> serde_json::Value {
        let r = self.send(
            "Runtime.evaluate",
            serde_json::json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(r.get("exceptionDetails").is_none(), "{expr}: {r}");
        r["result"]["value"].clone()
    }

    /// Waits until `expr` is true (hang guard 300 s, as [`HANG_GUARD`]).
    pub(crate) fn wait_for(&mut self, expr: &str) {
        let start = Instant::now();
        while self.eval(expr) != serde_json::Value::Bool(true) {
            assert!(
                start.elapsed() < Duration::from_secs(300),
                "never true: {expr}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A real mouse click at the centre of the board cell of position `pos`.
    pub(crate) fn click(&mut self, pos: &str) {
        self.click_on(&format!(".cell[data-pos=\"{pos}\"]"));
    }

    /// A real mouse click at the centre of the first element `selector` finds.
    fn click_on(&mut self, selector: &str) {
        let r = self.eval(&format!(
            "(() => {{ const r = document.querySelector({}).getBoundingClientRect(); \
             return [r.x + r.width / 2, r.y + r.height / 2]; }})()",
            serde_json::Value::from(selector)
        ));
        let (x, y) = (r[0].as_f64().unwrap(), r[1].as_f64().unwrap());
        for kind in ["mousePressed", "mouseReleased"] {
            self.send(
                "Input.dispatchMouseEvent",
                serde_json::json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    fn screenshot(&mut self) -> tiny_skia::Pixmap {
        let r = self.send(
            "Page.captureScreenshot",
            serde_json::json!({"format": "png"}),
        );
        let png = base64(r["data"].as_str().unwrap());
        tiny_skia::Pixmap::decode_png(&png).unwrap()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn base64(text: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &c)| n | (val(c) as u32) << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// Distinct colours and the share of pixels unlike the most common one.
fn variety(p: &tiny_skia::Pixmap) -> (usize, f64) {
    let mut counts = std::collections::BTreeMap::new();
    for px in p.pixels() {
        *counts
            .entry((px.red(), px.green(), px.blue()))
            .or_insert(0usize) += 1;
    }
    let most = counts.values().copied().max().unwrap_or(0);
    let total = p.pixels().len();
    (counts.len(), (total - most) as f64 / total as f64)
}

/// Whether `chromium` runs; `false` with a note when it is absent (a failure under CI).
pub(crate) fn chromium_available() -> bool {
    let ok = Command::new("chromium")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(std::env::var_os("CI").is_none(), "CI must install chromium");
        eprintln!("SKIPPED: chromium not found (set CI=1 to make this a failure)");
    }
    ok
}

#[test]
#[ignore = "oracle check (pyffish, PyYAML, Ludii, Chromium or the whole corpus): .ci/run runs it; locally `cargo test -- --ignored`"]
fn chromium_plays_chess_by_clicks_tic_tac_toe_to_its_end_a_save_and_a_promotion() {
    let Some(chess) = chess() else { return };
    if !chromium_available() {
        return;
    }
    let server = Server::start(&chess);
    let mut b = Browser::start();
    b.send("Page.navigate", serde_json::json!({"url": server.url()}));
    b.wait_for("document.querySelectorAll('.cell').length === 64 && document.querySelectorAll('.cell img.piece').length === 32");
    let before = b.screenshot();
    let (colours, share) = variety(&before);
    assert!(
        colours >= 32 && share >= 0.1,
        "blank: {colours} colours, {share}"
    );
    b.click("e2");
    b.wait_for("document.querySelector('.cell[data-pos=\"e2\"]').classList.contains('sel')");
    let targets = b.eval(
        "[...document.querySelectorAll('.cell.target')].map(c => c.dataset.pos).sort().join(' ')",
    );
    assert_eq!(targets, "e3 e4");
    b.click("e4");
    b.wait_for("document.querySelectorAll('#history li').length === 1");
    let listed = b.eval("document.querySelector('#history li').textContent");
    assert_eq!(listed, "1. Pawn e2 - e4");
    // Redrawn: the pawn stands on e4, not on e2, and the picture changed.
    let pieces = b.eval(
        "[!!document.querySelector('.cell[data-pos=\"e4\"] img.piece'), !!document.querySelector('.cell[data-pos=\"e2\"] img.piece')]",
    );
    assert_eq!(pieces, serde_json::json!([true, false]));
    let after = b.screenshot();
    let (colours, share) = variety(&after);
    assert!(
        colours >= 32 && share >= 0.1,
        "blank: {colours} colours, {share}"
    );
    assert!(
        before.data() != after.data(),
        "the screenshot did not change"
    );
    let (_, st) = server.call("GET", "/api/state", "");
    assert_eq!(st["history"][0]["notation"], "Pawn e2 - e4");
    assert_eq!(st["to_move"], "Black");
    // Black's side to the computer: it answers.
    b.eval("const s = document.querySelector('#sides select[data-player=\"Black\"]'); s.value = 'computer'; s.dispatchEvent(new Event('change')); true");
    b.wait_for("document.querySelectorAll('#history li').length === 2");
    let (_, st) = server.call("GET", "/api/state", "");
    assert_eq!(
        (st["history"][1]["player"].as_str(), st["to_move"].as_str()),
        (Some("Black"), Some("White"))
    );
    let shots = common::scratch_dir("play-shots");
    std::fs::write(shots.join("chess.png"), after.encode_png().unwrap()).unwrap();

    // Tic-tac-toe: both sides random, to the end, whose result the page names.
    let ttt = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/ludii/tictactoe.lud");
    let server = Server::start(&ttt);
    b.send("Page.navigate", serde_json::json!({"url": server.url()}));
    b.wait_for("document.querySelectorAll('.cell').length === 9 && document.querySelectorAll('#sides select').length === 2");
    b.eval("for (const s of document.querySelectorAll('#sides select')) { s.value = 'random'; s.dispatchEvent(new Event('change')); } true");
    b.wait_for("document.getElementById('result').textContent !== ''");
    let shown = b.eval("document.getElementById('result').textContent");
    let (_, st) = server.call("GET", "/api/state", "");
    assert_eq!(st["end"]["text"], shown, "{st}");
    let text = shown.as_str().unwrap();
    assert!(
        text.contains(" wins: 3 in a row") || text.starts_with("Draw: "),
        "{text}"
    );
    let moves = st["history"].as_array().unwrap().len();
    assert!((5..=9).contains(&moves), "{st}");
    let listed = b.eval("document.querySelectorAll('#history li').length");
    assert_eq!(listed, serde_json::json!(moves));
    std::fs::write(
        shots.join("tictactoe.png"),
        b.screenshot().encode_png().unwrap(),
    )
    .unwrap();

    // A shared-corpus save, loaded through the page's file input and stepped to its end.
    let (rules, save) = duke().expect("the shared corpus");
    let server = Server::start_game(&rules, "Duke");
    b.send("Page.navigate", serde_json::json!({"url": server.url()}));
    b.wait_for("document.querySelectorAll('.cell').length > 0 && document.getElementById('status').textContent.endsWith('to move')");
    let doc = b.send("DOM.getDocument", serde_json::json!({}));
    let input = b.send(
        "DOM.querySelector",
        serde_json::json!({"nodeId": doc["root"]["nodeId"], "selector": "#load"}),
    );
    b.send(
        "DOM.setFileInputFiles",
        serde_json::json!({"nodeId": input["nodeId"], "files": [save.canonicalize().unwrap()]}),
    );
    b.wait_for("document.querySelectorAll('#history li.redo').length === 253");
    b.eval("document.getElementById('last').click(); true");
    b.wait_for("document.querySelectorAll('#history li:not(.redo)').length === 253");
    let (_, st) = server.call("GET", "/api/state", "");
    assert_eq!(
        (st["undo"].as_u64(), st["redo"].as_u64()),
        (Some(253), Some(0))
    );
    let last = b.eval("[...document.querySelectorAll('#history li')].pop().textContent");
    let want = format!(
        "{}. {}",
        st["history"][252]["number"],
        st["history"][252]["notation"].as_str().unwrap()
    );
    assert_eq!(last, serde_json::json!(want));
    std::fs::write(shots.join("duke.png"), b.screenshot().encode_png().unwrap()).unwrap();

    // A promotion: two moves from b2 to b3, so the page asks which.
    let mini = shots.join("mini.zrf");
    std::fs::write(&mini, MINI).unwrap();
    let server = Server::start(&mini);
    b.send("Page.navigate", serde_json::json!({"url": server.url()}));
    b.wait_for("document.querySelectorAll('.cell').length === 9 && document.getElementById('status').textContent === 'White to move'");
    b.click("b2");
    b.wait_for("document.querySelector('.cell[data-pos=\"b3\"]').classList.contains('target')");
    b.click("b3");
    b.wait_for("document.getElementById('picker').classList.contains('open')");
    let offered = b.eval("[...document.querySelectorAll('#choices button')].map(b => b.textContent).sort().join(' | ')");
    assert_eq!(offered, "Pawn b2 - b3 = Queen | Pawn b2 - b3 = Rook");
    b.click_on("#choices button:nth-child(2)");
    b.wait_for("document.querySelectorAll('#history li').length === 1");
    let (_, st) = server.call("GET", "/api/state", "");
    let chosen = b.eval("document.querySelector('#history li').textContent");
    assert_eq!(
        chosen,
        serde_json::json!(format!(
            "1. {}",
            st["history"][0]["notation"].as_str().unwrap()
        ))
    );
    assert_eq!(
        st["board"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["at"] == "b3")
            .count(),
        1
    );
}

/// A small pawn game whose pawns promote to a Queen or a Rook (two moves between the same
/// positions).
const MINI: &str = r#"
(game (title "Mini") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 40 40)
    (dimensions ("a/b/c" (40 0)) ("3/2/1" (0 40)))
    (directions (n 0 -1) (s 0 1) (ne 1 -1) (nw -1 -1)))
    (symmetry Black (n s) (s n) (ne se) (nw sw))
    (zone (name last) (players White) (positions a3 b3 c3))
    (zone (name last) (players Black) (positions a1 b1 c1)))
  (piece (name Pawn) (moves
    (n (verify empty?) (if (in-zone? last) (add Queen Rook) else add))
    (ne (verify enemy?) add) (nw (verify enemy?) add)))
  (piece (name Queen)) (piece (name Rook))
  (board-setup (White (Pawn a1 b2)) (Black (Pawn c3)))
  (loss-condition (White Black) (pieces-remaining 0)))
"#;

#[test]
#[ignore = "oracle check (pyffish, PyYAML, Ludii, Chromium or the whole corpus): .ci/run runs it; locally `cargo test -- --ignored`"]
fn chromium_draws_the_hands_and_drops_a_captured_piece_by_clicks() {
    if !chromium_available() {
        return;
    }
    let dir = common::scratch_dir("play-hand-chromium");
    let file = dir.join("hand.zrf");
    std::fs::write(&file, HAND).unwrap();
    let server = Server::start(&file);
    let mut b = Browser::start();
    b.send("Page.navigate", serde_json::json!({"url": server.url()}));
    let held = |player: &str| format!(".hand[data-player=\"{player}\"] .held[data-piece=\"Pawn\"]");
    b.wait_for(&format!(
        "document.querySelectorAll('.cell').length === 9 && !!document.querySelector({})",
        serde_json::Value::from(held("Sente"))
    ));
    // Sente holds one pawn, drawn with its picture and count; Gote none.
    let shown = b.eval(&format!(
        "(() => {{ const h = document.querySelector({}); return [h.dataset.count, h.querySelector('.count').textContent, !!h.querySelector('img.piece'), document.querySelectorAll('.hand[data-player=\"Gote\"] .held').length]; }})()",
        serde_json::Value::from(held("Sente"))
    ));
    assert_eq!(shown, serde_json::json!(["1", "×1", true, 0]));
    // Sente takes on b2: the pawn appears in Gote's hand.
    b.click("b1");
    b.wait_for("document.querySelector('.cell[data-pos=\"b2\"]').classList.contains('target')");
    b.click("b2");
    b.wait_for(&format!(
        "document.querySelectorAll('#history li').length === 1 && !!document.querySelector({})",
        serde_json::Value::from(held("Gote"))
    ));
    // Gote clicks the pawn in hand: every empty position is a target; a click drops it.
    b.click_on(&held("Gote"));
    b.wait_for("document.querySelectorAll('.cell.target').length > 0");
    let targets =
        b.eval("[...document.querySelectorAll('.cell.target')].map(c => c.dataset.pos).sort()");
    let (_, game) = server.call("GET", "/api/game", "");
    let (_, st) = server.call("GET", "/api/state", "");
    assert_eq!(targets, serde_json::json!(empty_positions(&game, &st)));
    b.click("c2");
    b.wait_for("document.querySelectorAll('#history li').length === 2");
    let (_, st) = server.call("GET", "/api/state", "");
    assert_eq!(st["history"][1]["notation"], "Gote Pawn c2", "{st}");
    assert_eq!(hand_of(&st, "Gote"), Vec::<(String, u64)>::new());
    let gone = b.eval(&format!(
        "[!document.querySelector({}), !!document.querySelector('.cell[data-pos=\"c2\"] img.piece')]",
        serde_json::Value::from(held("Gote"))
    ));
    assert_eq!(gone, serde_json::json!([true, true]));
    std::fs::write(
        common::scratch_dir("play-shots").join("hand.png"),
        b.screenshot().encode_png().unwrap(),
    )
    .unwrap();
}
