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
//! - `POST /api/undo`, `POST /api/redo`, `POST /api/new`;
//! - `GET /api/zsg[?players=HC]`: the game so far as a ZoG saved game.

pub mod http;
mod pictures;
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
            "/api/undo" if post => self.acted(Session::undo),
            "/api/redo" if post => self.acted(Session::redo),
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
            "/" | "/index.html" | "/play.js" | "/api/game" | "/api/state" | "/api/moves"
            | "/api/zsg" => Response::error(405, format!("{method} is not allowed here; use GET")),
            "/api/move" | "/api/undo" | "/api/redo" | "/api/new" => {
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
