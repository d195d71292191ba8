//! Unit tests of the play session, its API and the HTTP checks.

use super::http::{self, Parsed};
use super::{DEFAULT_BUDGET, Session};
use crate::engine::{self, Rules};
use crate::format::{self, Format, ReadOptions};
use crate::zrf::NoIncludes;
use serde_json::{Value, json};

/// Tic-tac-toe as ZoG's own rule file writes it: drops from an unlimited hand, a draw when the
/// board is full, a win for three in a row.
const TTT: &str = r#"
(game (title "Tic-Tac-Toe") (players X O) (turn-order X O)
  (board (image "images/TicTacToe/TTTbrd.bmp")
    (grid (start-rectangle 16 16 112 112)
      (dimensions ("top-/middle-/bottom-" (0 112)) ("left/middle/right" (112 0)))
      (directions (n -1 0) (e 0 1) (s 1 0) (w 0 -1) (ne -1 1) (nw -1 -1) (se 1 1) (sw 1 -1))))
  (piece (name man) (image X "images/TicTacToe/TTTX.bmp" O "images/TicTacToe/TTTO.bmp")
    (drops ((verify empty?) add)))
  (board-setup (X (man off 10)) (O (man off 10)))
  (draw-condition (X O) stalemated)
  (win-condition (X O) (or (relative-config man n man n man) (relative-config man e man e man)
    (relative-config man ne man ne man) (relative-config man nw man nw man))))
"#;

/// A small chess-like game: pawns that step forward or capture diagonally and promote on the
/// last rank to a Queen or a Rook (a choice between moves with the same origin and destination).
const MINI: &str = r#"
(game (title "Mini") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 30 30)
    (dimensions ("a/b/c" (30 0)) ("3/2/1" (0 30)))
    (directions (n 0 -1) (s 0 1) (ne 1 -1) (nw -1 -1)))
    (symmetry Black (n s) (s n) (ne se) (nw sw)) (zone (name last) (players White) (positions a3 b3 c3))
    (zone (name last) (players Black) (positions a1 b1 c1)))
  (piece (name Pawn) (moves
    (n (verify empty?) (if (in-zone? last) (add Queen Rook) else add))
    (ne (verify enemy?) add) (nw (verify enemy?) add)))
  (piece (name Queen)) (piece (name Rook))
  (board-setup (White (Pawn a1 b2)) (Black (Pawn c3)))
  (loss-condition (White Black) (pieces-remaining 0)))
"#;

fn session(text: &str) -> Session {
    let read = format::read(
        Format::Zrf,
        "t.zrf",
        text.as_bytes(),
        &ReadOptions::default(),
        &mut NoIncludes,
    );
    assert_eq!(read.errors(), 0, "{:?}", read.diagnostics);
    let doc = read.document.unwrap();
    let rules = Rules::compile(&doc, 0).unwrap();
    Session::new(&doc, 0, rules, "t.zrf", DEFAULT_BUDGET)
}

fn call(s: &mut Session, method: &str, target: &str, body: &str) -> (u16, Value) {
    let r = s.handle(method, target, body.as_bytes());
    let v = serde_json::from_slice(&r.body).unwrap_or(Value::Null);
    (r.status, v)
}

#[test]
fn the_game_shows_every_cell_piece_and_goal() {
    let mut s = session(TTT);
    let (status, g) = call(&mut s, "GET", "/api/game", "");
    assert_eq!(status, 200);
    assert_eq!(g["title"], "Tic-Tac-Toe");
    assert_eq!(g["players"], json!(["X", "O"]));
    let cells = g["positions"].as_array().unwrap();
    assert_eq!(cells.len(), 9);
    // Every cell lies inside the picture and has an area.
    let (w, h) = (
        g["board"]["width"].as_i64().unwrap(),
        g["board"]["height"].as_i64().unwrap(),
    );
    for c in cells {
        let r: Vec<i64> = c["rect"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        assert!(
            r[0] >= 0 && r[1] >= 0 && r[0] < r[2] && r[1] < r[3] && r[2] <= w && r[3] <= h,
            "{c}"
        );
    }
    assert_eq!(g["board"]["image"], "/img/board.png");
    let png = s.handle("GET", "/img/board.png", b"");
    assert_eq!((png.status, png.content_type), (200, "image/png"));
    assert!(png.body.starts_with(b"\x89PNG"));
    // A tile per player, served.
    let images = g["pieces"][0]["images"].as_array().unwrap();
    assert_eq!(images.len(), 2);
    let tile = s.handle("GET", images[1].as_str().unwrap(), b"");
    assert_eq!(tile.status, 200);
    assert_eq!(g["goals"].as_array().unwrap().len(), 2);
    assert_eq!(g["state"]["moves"], 9);
    assert_eq!(g["state"]["to_move"], "X");
}

#[test]
fn a_move_by_notation_or_index_undo_redo_and_new_game() {
    let mut s = session(TTT);
    let (_, m) = call(&mut s, "GET", "/api/moves", "");
    let list = m["moves"].as_array().unwrap();
    assert_eq!(list.len(), 9);
    assert!(
        list.iter()
            .all(|m| m["from"].is_null() && m["to"].is_string())
    );
    let first = list[4]["notation"].as_str().unwrap().to_string();
    let (status, r) = call(
        &mut s,
        "POST",
        "/api/move",
        &json!({"notation": first}).to_string(),
    );
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["played"], first.as_str());
    assert_eq!(r["state"]["to_move"], "O");
    assert_eq!(r["state"]["board"].as_array().unwrap().len(), 1);
    let (status, r) = call(&mut s, "POST", "/api/move", r#"{"index": 0}"#);
    assert_eq!(status, 200, "{r}");
    assert_eq!(s.history().len(), 2);
    assert_eq!(call(&mut s, "POST", "/api/undo", "").0, 200);
    assert_eq!(call(&mut s, "POST", "/api/undo", "").0, 200);
    let (status, r) = call(&mut s, "POST", "/api/undo", "");
    assert_eq!(
        (status, r["error"].as_str().unwrap()),
        (409, "no move to take back")
    );
    assert_eq!(s.notations().len(), 9);
    let (_, r) = call(&mut s, "POST", "/api/redo", "");
    assert_eq!(r["state"]["history"][0]["notation"], first.as_str());
    assert_eq!(r["state"]["redo"], 1);
    // A new move forgets what could be redone.
    call(&mut s, "POST", "/api/move", r#"{"index": 3}"#);
    assert_eq!(call(&mut s, "POST", "/api/redo", "").0, 409);
    let (_, r) = call(&mut s, "POST", "/api/new", "");
    assert_eq!(r["state"]["undo"], 0);
    assert_eq!(r["state"]["board"], json!([]));
}

#[test]
fn bad_requests_get_a_4xx_and_a_message() {
    let mut s = session(TTT);
    let cases = [
        ("POST", "/api/move", "not json", 400, "not JSON"),
        ("POST", "/api/move", "[1]", 400, "JSON object"),
        ("POST", "/api/move", "{}", 422, "notation"),
        (
            "POST",
            "/api/move",
            r#"{"index": 9}"#,
            422,
            "no legal move 9",
        ),
        (
            "POST",
            "/api/move",
            r#"{"index": -1}"#,
            422,
            "must be a number",
        ),
        (
            "POST",
            "/api/move",
            r#"{"notation": 3}"#,
            422,
            "must be a string",
        ),
        (
            "POST",
            "/api/move",
            r#"{"notation": "X man nowhere"}"#,
            422,
            "not a legal move",
        ),
        ("GET", "/api/move", "", 405, "use POST"),
        ("POST", "/api/game", "", 405, "use GET"),
        ("GET", "/nothing", "", 404, "no such page"),
        ("GET", "/img/../../etc/passwd", "", 404, "no such image"),
    ];
    for (method, target, body, want, says) in cases {
        let (status, r) = call(&mut s, method, target, body);
        let msg = r["error"].as_str().unwrap_or_default();
        assert_eq!(status, want, "{method} {target} {body}: {r}");
        assert!(msg.contains(says), "{method} {target} {body}: {msg}");
    }
    assert!(s.history().is_empty());
}

#[test]
fn tic_tac_toe_ends_with_a_win_named_from_its_goal_and_a_full_board_draws() {
    let mut s = session(TTT);
    // X takes the top row while O answers in the middle row.
    for to in [
        "top-left",
        "middle-left",
        "top-middle",
        "middle-middle",
        "top-right",
    ] {
        let want = format!("X man {to}");
        let want = if !s.history().len().is_multiple_of(2) {
            format!("O man {to}")
        } else {
            want
        };
        let (status, r) = call(
            &mut s,
            "POST",
            "/api/move",
            &json!({"notation": want}).to_string(),
        );
        assert_eq!(status, 200, "{r}");
    }
    let (_, st) = call(&mut s, "GET", "/api/state", "");
    let end = &st["end"];
    assert_eq!(end["kind"], "win", "{st}");
    assert_eq!(end["winners"], json!(["X"]));
    assert!(end["text"].as_str().unwrap().starts_with("X wins"), "{end}");
    assert_eq!(st["moves"], 0);
    let (status, r) = call(&mut s, "POST", "/api/move", r#"{"index": 0}"#);
    assert_eq!(status, 409, "{r}");
    // A full board without a row: the stalemated goal makes it a draw.
    call(&mut s, "POST", "/api/new", "");
    for to in [
        "top-left",
        "top-middle",
        "top-right",
        "middle-middle",
        "middle-left",
        "middle-right",
        "bottom-middle",
        "bottom-left",
        "bottom-right",
    ] {
        let p = if s.history().len().is_multiple_of(2) {
            "X"
        } else {
            "O"
        };
        let (status, r) = call(
            &mut s,
            "POST",
            "/api/move",
            &json!({"notation": format!("{p} man {to}")}).to_string(),
        );
        assert_eq!(status, 200, "{to}: {r}");
    }
    let end = s.end().expect("the game ended");
    assert_eq!(end.kind, crate::spec::GoalKind::Draw);
    assert_eq!(end.goal, Some(0));
}

#[test]
fn a_promotion_offers_two_moves_between_the_same_positions_and_a_loss_names_the_winner() {
    let mut s = session(MINI);
    let (_, m) = call(&mut s, "GET", "/api/moves", "");
    let to_b3: Vec<String> = m["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["from"] == "b2" && m["to"] == "b3")
        .map(|m| m["notation"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(to_b3.len(), 2, "{m}");
    // `b2-b3` names two moves: refused, with both listed; each is played by its notation.
    let (status, r) = call(&mut s, "POST", "/api/move", r#"{"notation": "b2-b3"}"#);
    assert_eq!(status, 422);
    assert!(
        r["error"].as_str().unwrap().contains("names 2 moves"),
        "{r}"
    );
    for n in &to_b3 {
        let (status, r) = call(
            &mut s,
            "POST",
            "/api/move",
            &json!({"notation": n}).to_string(),
        );
        assert_eq!(status, 200, "{r}");
        assert_eq!(r["played"], n.as_str());
        call(&mut s, "POST", "/api/undo", "");
    }
    // Taking Black's last piece ends the game: Black loses, so White wins.
    let (status, r) = call(&mut s, "POST", "/api/move", r#"{"notation": "b2-c3"}"#);
    assert_eq!(status, 200, "{r}");
    let end = &r["state"]["end"];
    assert_eq!(end["kind"], "loss", "{r}");
    assert_eq!(end["players"], json!(["Black"]));
    assert_eq!(end["winners"], json!(["White"]));
    assert_eq!(end["text"], "White wins: Black 0 pieces remaining");
}

#[test]
fn the_saved_game_replays_with_the_engine() {
    let mut s = session(TTT);
    for i in [4, 0, 5, 1] {
        let (status, r) = call(
            &mut s,
            "POST",
            "/api/move",
            &json!({"index": i}).to_string(),
        );
        assert_eq!(status, 200, "{r}");
    }
    let r = s.handle("GET", "/api/zsg?players=HC", b"");
    assert_eq!(r.status, 200);
    let text = String::from_utf8(r.body).unwrap();
    assert!(
        text.starts_with("Zillions Save Game File Version 0.02 HC\r\nRulesFile=t.zrf\r\n"),
        "{text}"
    );
    let saved = engine::zsg::parse(&text).unwrap();
    assert_eq!(saved.variant.as_deref(), Some("Tic-Tac-Toe"));
    let numbers: Vec<u32> = saved.records.iter().map(|r| r.number).collect();
    assert_eq!(numbers, [1, 1, 2, 2]);
    let replayed = engine::replay(s.rules(), &saved).unwrap();
    assert_eq!(replayed.moves, 4);
    let (_, st) = call(&mut s, "GET", "/api/state", "");
    let on_board = replayed.state.board.iter().flatten().count();
    assert_eq!(on_board, st["board"].as_array().unwrap().len());
}

#[test]
fn requests_are_bounded_and_only_loopback_hosts_and_origins_pass() {
    let get = b"GET /api/game HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n";
    let Parsed::Head(h) = http::parse_head(get) else {
        panic!("not parsed")
    };
    assert_eq!(
        (h.method.as_str(), h.target.as_str(), h.len),
        ("GET", "/api/game", get.len())
    );
    assert!(http::refuse(&h, 8080).is_none());
    assert_eq!(http::refuse(&h, 8081).map(|r| r.status), Some(403));
    assert!(matches!(http::parse_head(&get[..20]), Parsed::Partial));
    let refused = |bytes: &[u8]| match http::parse_head(bytes) {
        Parsed::Refused(r) => r.status,
        other => panic!("{other:?}"),
    };
    let mut long = b"GET / HTTP/1.1\r\nX: ".to_vec();
    long.resize(http::MAX_HEAD + 10, b'a');
    assert_eq!(refused(&long), 431);
    let big = format!(
        "POST /api/move HTTP/1.1\r\nHost: 127.0.0.1:1\r\nContent-Length: {}\r\n\r\n",
        http::MAX_BODY + 1
    );
    assert_eq!(refused(big.as_bytes()), 413);
    assert_eq!(
        refused(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"),
        411
    );
    assert_eq!(
        refused(b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"),
        400
    );
    assert_eq!(
        refused(b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
        400
    );
    assert_eq!(refused(b"\x01\x02 nonsense\r\n\r\n"), 400);
    assert!(http::host_allowed("localhost:8080", 8080));
    assert!(http::host_allowed("LOCALHOST:8080", 8080));
    for host in [
        "evil.example:8080",
        "127.0.0.1",
        "127.0.0.2:8080",
        "localhost.evil.example:8080",
    ] {
        assert!(!http::host_allowed(host, 8080), "{host}");
    }
    assert!(http::origin_allowed("http://127.0.0.1:8080", 8080));
    for origin in [
        "null",
        "http://evil.example",
        "https://127.0.0.1:8080",
        "http://127.0.0.1:80",
    ] {
        assert!(!http::origin_allowed(origin, 8080), "{origin}");
    }
    let post =
        b"POST /api/undo HTTP/1.1\r\nHost: localhost:9\r\nOrigin: http://evil.example\r\n\r\n";
    let Parsed::Head(h) = http::parse_head(post) else {
        panic!("not parsed")
    };
    assert_eq!(http::refuse(&h, 9).map(|r| r.status), Some(403));
}

#[test]
fn a_loaded_save_steps_through_its_moves_and_a_wrong_one_changes_nothing() {
    let mut s = session(TTT);
    for i in [4, 0, 5, 1] {
        call(
            &mut s,
            "POST",
            "/api/move",
            &json!({"index": i}).to_string(),
        );
    }
    let saved = String::from_utf8(s.handle("GET", "/api/zsg", b"").body).unwrap();
    let mut t = session(TTT);
    call(&mut t, "POST", "/api/move", r#"{"index": 8}"#);
    let (status, r) = call(&mut t, "POST", "/api/zsg", &saved);
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["records"], 4);
    assert_eq!(
        (r["state"]["undo"].as_u64(), r["state"]["redo"].as_u64()),
        (Some(0), Some(4))
    );
    assert_eq!(r["state"]["upcoming"][0], s.history()[0]);
    let (_, r) = call(&mut t, "POST", "/api/redo", "");
    assert_eq!(r["state"]["history"][0]["notation"], s.history()[0]);
    let (_, r) = call(&mut t, "POST", "/api/redo?all", "");
    assert_eq!(
        (r["state"]["undo"].as_u64(), r["state"]["redo"].as_u64()),
        (Some(4), Some(0))
    );
    assert_eq!(t.history(), s.history());
    assert_eq!(t.handle("GET", "/api/zsg", b"").body, saved.as_bytes());
    let (_, r) = call(&mut t, "POST", "/api/undo?all", "");
    assert_eq!(r["state"]["board"], json!([]));
    // Refused, leaving the session as it was: not a save, another game, an illegal record.
    let bad_record = saved.replace("X man middle-middle", "X man nowhere");
    let other = saved.replace("VariantName=Tic-Tac-Toe", "VariantName=Chess");
    for (text, says) in [
        ("hello", "not a saved game"),
        (other.as_str(), "this server plays"),
        (bad_record.as_str(), "record 1"),
    ] {
        let (status, r) = call(&mut t, "POST", "/api/zsg", text);
        assert_eq!(status, 422, "{r}");
        assert!(r["error"].as_str().unwrap().contains(says), "{r}");
    }
    assert_eq!(t.state_json()["redo"], 4);
}

#[test]
fn the_computer_takes_a_win_in_one_and_the_api_bounds_its_time() {
    // Mini: taking Black's last piece wins at once.
    let mut s = session(MINI);
    let (status, t) = call(&mut s, "POST", "/api/think", r#"{"ms": 10000, "depth": 2}"#);
    assert_eq!(status, 200, "{t}");
    assert_eq!(t["notation"], "Pawn b2 x c3", "{t}");
    assert!(t["score"].as_i64().unwrap() > 900_000, "{t}");
    // Tic-tac-toe: X completes the top row rather than anything else; O, to move instead,
    // blocks it.
    let mut s = session(TTT);
    for to in ["X man top-left", "O man middle-middle", "X man top-middle"] {
        call(
            &mut s,
            "POST",
            "/api/move",
            &json!({"notation": to}).to_string(),
        );
    }
    let (_, t) = call(&mut s, "POST", "/api/think", r#"{"ms": 10000, "depth": 3}"#);
    assert_eq!(t["notation"], "O man top-right", "{t}");
    call(
        &mut s,
        "POST",
        "/api/move",
        r#"{"notation": "O man bottom-left"}"#,
    );
    let (_, t) = call(&mut s, "POST", "/api/think", r#"{"ms": 10000, "depth": 1}"#);
    assert_eq!(t["notation"], "X man top-right", "{t}");
    assert_eq!(t["depth"], 1);
    // Thinking plays nothing.
    assert_eq!(s.history().len(), 4);
    for body in [
        r#"{"ms": 0}"#,
        r#"{"ms": 20000}"#,
        r#"{"depth": 0}"#,
        r#"{"ms": "x"}"#,
    ] {
        assert_eq!(call(&mut s, "POST", "/api/think", body).0, 422, "{body}");
    }
    assert_eq!(call(&mut s, "POST", "/api/think", "x").0, 400);
    call(
        &mut s,
        "POST",
        "/api/move",
        r#"{"notation": "X man top-right"}"#,
    );
    let (status, r) = call(&mut s, "POST", "/api/think", "{}");
    assert_eq!(status, 409, "{r}");
}
