//! `zogkit play`'s game, pure: a session (position, history, undo and redo, legal moves, the end named from the goals), the JSON API over it, its pictures and the page.
//!
//! The CLI owns the socket (`cli::play_server`); everything it hands over is a request head
//! checked by [`http`] and a body, and [`Session::handle`] answers it. No file is read here:
//! the page and its script are embedded, the pictures drawn by [`crate::render`].
//!
//! The API (documented in `docs/play.md`):
//! - `GET /api/game`: board, positions with rectangles, pieces and images, players, goals,
//!   state;
//! - `GET /api/state`: the position, the moves played, the end;
//! - `GET /api/moves`: the legal moves with ZoG notation, origin and destination;
//! - `POST /api/move` `{"notation": "Pawn e2 - e4"}` or `{"index": N}`;
//! - `POST /api/think` `{"ms": 1000}`: the computer's choice (alpha-beta), not played;
//! - `POST /api/undo`, `POST /api/redo` (`?all`: every move), `POST /api/new`;
//! - `GET /api/zsg[?players=HC]`: the game so far as a ZoG saved game; `POST /api/zsg` loads
//!   one, its moves ready to be stepped through with redo.

pub mod http;
mod pictures;
pub mod search;
mod session;
#[cfg(test)]
mod tests;

pub use http::Response;
pub use session::{DEFAULT_BUDGET, Session};

/// The page, with its script and style sheet beside it.
const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("play.js");

impl Session {
    /// Answers one request (`target` with its query; `body` as sent). Errors are JSON
    /// `{"error": …}` with a 4xx status; nothing a request holds can make it panic.
    pub fn handle(&mut self, method: &str, target: &str, body: &[u8]) -> Response {
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        let get = method == "GET";
        let post = method == "POST";
        match path {
            "/" | "/index.html" if get => {
                Response::bytes("text/html; charset=utf-8", PAGE.as_bytes().to_vec())
            }
            "/play.js" if get => {
                Response::bytes("text/javascript; charset=utf-8", SCRIPT.as_bytes().to_vec())
            }
            "/api/game" if get => Response::json(200, &self.game_json()),
            "/api/state" if get => Response::json(200, &self.state_json()),
            "/api/moves" if get => Response::json(200, &self.moves_json()),
            "/api/zsg" if get => self.zsg_response(query),
            "/api/move" if post => match serde_json::from_slice::<serde_json::Value>(body) {
                Err(e) => Response::error(400, format!("the body is not JSON: {e}")),
                Ok(v) if !v.is_object() => Response::error(400, "the body must be a JSON object"),
                Ok(v) => match self.play(&v) {
                    Ok(played) => Response::json(
                        200,
                        &serde_json::json!({"played": played, "state": self.state_json()}),
                    ),
                    Err((status, msg)) => Response::error(status, msg),
                },
            },
            "/api/think" if post => match serde_json::from_slice::<serde_json::Value>(body) {
                Err(e) => Response::error(400, format!("the body is not JSON: {e}")),
                Ok(v) => {
                    let ms = v.get("ms").map_or(Some(1000), serde_json::Value::as_u64);
                    let depth = v.get("depth").map_or(Some(64), serde_json::Value::as_u64);
                    match (ms, depth) {
                        (Some(ms @ 1..=10_000), Some(d @ 1..=64)) => {
                            match self.think(ms, d as u32) {
                                Ok(t) => Response::json(200, &t),
                                Err((status, msg)) => Response::error(status, msg),
                            }
                        }
                        _ => Response::error(
                            422,
                            "`ms` must be 1 to 10000 (default 1000), `depth` 1 to 64 (default 64)",
                        ),
                    }
                }
            },
            "/api/undo" if post && query == "all" => self.acted(|s| {
                s.step_all(true);
                Ok(())
            }),
            "/api/redo" if post && query == "all" => self.acted(|s| {
                s.step_all(false);
                Ok(())
            }),
            "/api/undo" if post => self.acted(Session::undo),
            "/api/redo" if post => self.acted(Session::redo),
            "/api/zsg" if post => match std::str::from_utf8(body) {
                Err(_) => Response::error(400, "the saved game is not UTF-8 text"),
                Ok(text) => match self.load_zsg(text) {
                    Ok(n) => Response::json(
                        200,
                        &serde_json::json!({"records": n, "state": self.state_json()}),
                    ),
                    Err((status, msg)) => Response::error(status, msg),
                },
            },
            "/api/new" if post => self.acted(|s| {
                s.new_game();
                Ok(())
            }),
            _ if path.starts_with("/img/") && get => {
                match self.pictures.files.get(&path["/img/".len()..]) {
                    Some(b) => Response::bytes("image/png", b.clone()),
                    None => Response::error(404, "no such image"),
                }
            }
            "/" | "/index.html" | "/play.js" | "/api/game" | "/api/state" | "/api/moves" => {
                Response::error(405, format!("{method} is not allowed here; use GET"))
            }
            "/api/zsg" => Response::error(
                405,
                format!("{method} is not allowed here; use GET or POST"),
            ),
            "/api/move" | "/api/undo" | "/api/redo" | "/api/new" | "/api/think" => {
                Response::error(405, format!("{method} is not allowed here; use POST"))
            }
            _ => Response::error(404, "no such page"),
        }
    }

    /// The state after an action, or its error.
    fn acted(&mut self, f: impl FnOnce(&mut Session) -> Result<(), (u16, String)>) -> Response {
        match f(self) {
            Ok(()) => Response::json(200, &serde_json::json!({"state": self.state_json()})),
            Err((status, msg)) => Response::error(status, msg),
        }
    }

    /// `GET /api/zsg?players=HC`: the saved game, as a download named after the game.
    fn zsg_response(&self, query: &str) -> Response {
        let n = self.rules().players.len();
        let kinds: String = query
            .split('&')
            .find_map(|kv| kv.strip_prefix("players="))
            .map(|k| {
                k.chars()
                    .filter(|c| matches!(c, 'H' | 'C'))
                    .take(n)
                    .collect()
            })
            .filter(|k: &String| k.len() == n)
            .unwrap_or_else(|| "H".repeat(n));
        let mut name: String = self
            .rules()
            .title
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .take(60)
            .collect();
        if name.trim_matches('-').is_empty() {
            name = "game".into();
        }
        let mut r = Response::bytes("text/plain; charset=utf-8", self.zsg(&kinds).into_bytes());
        r.headers.push((
            "Content-Disposition",
            format!("attachment; filename=\"{name}.zsg\""),
        ));
        r
    }
}

/// What [`probe`] found for one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Probe {
    /// The game loaded, and a legal move (`notation`, one of `moves`) was played through
    /// `POST /api/move`, seen in the history, and taken back to the same legal moves.
    RoundTrip {
        /// The move played.
        notation: String,
        /// How many legal moves the start position has.
        moves: usize,
    },
    /// The game loaded but its start position has no move to play: why (the game is over, or
    /// a budget stopped the generation).
    NoMove(String),
}

/// Loads game `index` of `doc` (compiled as `rules`) in a session and checks the API as the
/// page uses it: `GET /api/game` shows every position's rectangle, and a legal move chosen by
/// `seed` goes through `POST /api/move` by its notation, appears in the history, and
/// `POST /api/undo` restores the same legal moves. An error names the step that failed.
pub fn probe(
    doc: &crate::spec::Document,
    index: usize,
    rules: crate::engine::Rules,
    seed: u64,
) -> Result<Probe, String> {
    let mut s = Session::new(doc, index, rules, "probe.zrf", DEFAULT_BUDGET);
    let get = |s: &mut Session, target: &str| -> Result<serde_json::Value, String> {
        let r = s.handle("GET", target, b"");
        if r.status != 200 {
            return Err(format!(
                "GET {target}: {}",
                String::from_utf8_lossy(&r.body)
            ));
        }
        serde_json::from_slice(&r.body).map_err(|e| format!("GET {target}: not JSON: {e}"))
    };
    let game = get(&mut s, "/api/game")?;
    let positions = game["positions"].as_array().map_or(0, Vec::len);
    if positions == 0 {
        return Err("GET /api/game: no position to draw".into());
    }
    let before = get(&mut s, "/api/moves")?;
    let list = before["moves"].as_array().cloned().unwrap_or_default();
    if list.is_empty() {
        let why = match (&game["state"]["end"]["text"], &game["state"]["stopped"]) {
            (serde_json::Value::String(t), _) => format!("the game is over at the start: {t}"),
            (_, serde_json::Value::String(t)) => t.clone(),
            _ => "no legal move at the start".into(),
        };
        return Ok(Probe::NoMove(why));
    }
    // A splitmix step: any seed picks any move.
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    let pick = &list[((z ^ (z >> 31)) % list.len() as u64) as usize];
    let notation = pick["notation"].as_str().unwrap_or_default().to_string();
    let body = serde_json::json!({ "notation": notation }).to_string();
    let r = s.handle("POST", "/api/move", body.as_bytes());
    let played: serde_json::Value = serde_json::from_slice(&r.body).unwrap_or_default();
    if r.status != 200 {
        return Err(format!(
            "POST /api/move {notation:?}: {} {}",
            r.status, played["error"]
        ));
    }
    // Several legal moves may share one notation; the first of them is played.
    let first = list.iter().find(|m| m["notation"] == pick["notation"]);
    if played["played"] != pick["notation"] || first.is_none() {
        return Err(format!(
            "POST /api/move {notation:?} played {}",
            played["played"]
        ));
    }
    let history = &played["state"]["history"];
    if history.as_array().map(Vec::len) != Some(1) || history[0]["notation"] != pick["notation"] {
        return Err(format!("the history after {notation:?} is {history}"));
    }
    let r = s.handle("POST", "/api/undo", b"");
    if r.status != 200 {
        return Err(format!(
            "POST /api/undo: {}",
            String::from_utf8_lossy(&r.body)
        ));
    }
    if get(&mut s, "/api/moves")? != before {
        return Err(format!(
            "the legal moves after {notation:?} and undo differ"
        ));
    }
    Ok(Probe::RoundTrip {
        notation,
        moves: list.len(),
    })
}
