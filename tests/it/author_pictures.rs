//! The author's own pictures (issue 34) through the real binary: a package laid out as real ZoG
//! packages are (`tests/data/package`: the rule file in `Rules/`, each piece bitmap in another
//! BMP flavour in `Images/Flavours/`, named as `..\images\…` in another letter case) drawn by
//! `render --start`, the catalogue and `play`, each picture's pixels checked; paths leaving the
//! collection refused; and `catalogue --serve`: the site, a Play link followed, the game's API.

use crate::common;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use tiny_skia::Pixmap;

const PKG: &str = "tests/data/package";
const RULES: &str = "tests/data/package/Rules/Flavours.zrf";

/// Where each piece picture stands at the start, the colour of its Γ and its flavour
/// (`tests/data/package/make.py`).
const PIECES: [(&str, (u8, u8, u8), &str); 8] = [
    ("a1", (200, 30, 30), "1-bit"),
    ("a3", (30, 30, 200), "4-bit"),
    ("b1", (250, 200, 10), "8-bit"),
    ("b3", (120, 20, 160), "8-bit RLE"),
    ("c1", (20, 160, 140), "4-bit RLE"),
    ("c3", (240, 120, 200), "24-bit"),
    ("d1", (100, 60, 20), "32-bit"),
    ("d3", (255, 0, 255), "16-bit"),
];
/// The author's board: black lines on this blue.
const BOARD: (u8, u8, u8) = (90, 140, 200);

fn at(p: &Pixmap, x: u32, y: u32) -> (u8, u8, u8, u8) {
    let c = p.pixel(x, y).unwrap().demultiply();
    (c.red(), c.green(), c.blue(), c.alpha())
}

fn rgb(p: &Pixmap, x: u32, y: u32) -> (u8, u8, u8) {
    let (r, g, b, _) = at(p, x, y);
    (r, g, b)
}

/// The centre of position `pos` (20-px cells, files a–d, ranks 3 to 1 from the top).
fn centre(pos: &str) -> (u32, u32) {
    let b = pos.as_bytes();
    let col = u32::from(b[0] - b'a');
    let rank = u32::from(b[1] - b'0');
    (20 * col + 10, 20 * (3 - rank) + 10)
}

/// What a start picture gets wrong: each piece must show its Γ (the bar above the centre, the
/// post left below it) in its flavour's colour, and the author's board where its key is (right
/// below the centre); a picture flipped, a palette misread or a key left opaque shows.
fn wrong_pieces(p: &Pixmap) -> Vec<String> {
    let mut bad = Vec::new();
    for (pos, colour, flavour) in PIECES {
        let (x, y) = centre(pos);
        let seen = [rgb(p, x, y - 4), rgb(p, x - 4, y + 3), rgb(p, x + 4, y + 3)];
        if seen != [colour, colour, BOARD] {
            bad.push(format!("{pos} ({flavour}): {seen:?}"));
        }
    }
    bad
}

fn run(args: &[&str]) -> (i32, String) {
    let o = common::zogkit(args);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn render_start_of_a_real_package_uses_the_authors_board_and_every_flavour() {
    let dir = common::scratch_dir("author-render");
    let out = dir.join("set");
    let (code, err) = run(&[
        "render",
        RULES,
        "--collection",
        PKG,
        "--start",
        "--format",
        "png",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("start.png: with the author's board and 8 piece pictures"),
        "{err}"
    );
    assert!(!err.contains("note:"), "{err}");
    let start = Pixmap::load_png(out.join("start.png")).unwrap();
    assert_eq!(wrong_pieces(&start), Vec::<String>::new());
    // The author's lines: the one between a3 and b3, and the one below rank 3.
    assert_eq!(rgb(&start, 20, 5), (0, 0, 0));
    assert_eq!(rgb(&start, 15, 20), (0, 0, 0));
}

#[test]
fn pictures_outside_the_collection_are_not_read() {
    // Without --collection the collection is `Rules/` itself: `..` may not leave it.
    let dir = common::scratch_dir("author-outside");
    let (code, err) = run(&[
        "render",
        RULES,
        "--start",
        "--format",
        "png",
        "-o",
        dir.join("set").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.matches("leads out of").count(), 9, "{err}");
    let start = Pixmap::load_png(dir.join("set/start.png")).unwrap();
    assert_eq!(wrong_pieces(&start).len(), 8);

    // A collection of its own: a board named through `..` past its root and a piece picture
    // through a symbolic link that leads out; the file outside is one colour (123, 45, 67).
    let pkg = dir.join("pkg");
    std::fs::create_dir_all(pkg.join("Rules")).unwrap();
    std::fs::create_dir_all(pkg.join("Images")).unwrap();
    let bmp = std::fs::read(Path::new(PKG).join("Images/Flavours/True24.bmp")).unwrap();
    let outside = {
        let mut p = Pixmap::new(16, 16).unwrap();
        p.fill(tiny_skia::Color::from_rgba8(123, 45, 67, 255));
        zogkit::render::bmp::encode_bmp(&p)
    };
    std::fs::write(dir.join("outside.bmp"), &outside).unwrap();
    std::fs::write(pkg.join("Images/in.bmp"), &bmp).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.join("outside.bmp"), pkg.join("Images/link.bmp")).unwrap();
    std::fs::write(
        pkg.join("Rules/out.zrf"),
        "(game (title \"out\") (players White Black) (turn-order White Black)
           (board (image \"..\\..\\outside.bmp\")
             (grid (start-rectangle 0 0 20 20) (dimensions (\"a/b\" (20 0)) (\"2/1\" (0 20)))
                   (directions (n 0 -1))))
           (piece (name Man) (image White \"..\\images\\LINK.bmp\" Black \"..\\IMAGES\\In.BMP\")
             (moves (n add)))
           (piece (name Ghost) (image White \"..\\images\\none.bmp\") (moves (n add)))
           (board-setup (White (Man a1)) (Black (Man b2))))\n",
    )
    .unwrap();
    let rules = pkg.join("Rules/out.zrf");
    let (code, err) = run(&[
        "render",
        rules.to_str().unwrap(),
        "--collection",
        pkg.to_str().unwrap(),
        "--start",
        "--format",
        "png",
        "-o",
        dir.join("out").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let expected_refusals = if cfg!(unix) { 2 } else { 1 };
    assert_eq!(
        err.matches("leads out of").count(),
        expected_refusals,
        "{err}"
    );
    assert!(err.contains("with the author's 1 piece picture"), "{err}");
    // A picture that is not there is one note for all such.
    assert!(
        err.contains("1 of the author's picture the rule file names is not in"),
        "{err}"
    );
    assert!(
        err.contains("(..\\images\\none.bmp); drawn instead"),
        "{err}"
    );
    let start = Pixmap::load_png(dir.join("out/start.png")).unwrap();
    let seen = start
        .pixels()
        .iter()
        .filter(|p| (p.red(), p.green(), p.blue()) == (123, 45, 67))
        .count();
    assert_eq!(seen, 0, "a picture outside the collection was drawn");
    // b2 (20 0 40 20) holds the black man's picture from inside: the 24-bit Γ.
    assert_eq!(rgb(&start, 30, 6), (240, 120, 200));

    // A collection that does not hold the rule file is a usage error.
    let (code, err) = run(&[
        "render",
        RULES,
        "--collection",
        pkg.to_str().unwrap(),
        "--start",
        "-o",
        dir.join("none").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is not inside the collection"), "{err}");
}

/// The `href` values of a page.
fn hrefs(html: &str) -> Vec<String> {
    html.split(" href=\"")
        .skip(1)
        .filter_map(|r| r.split('"').next())
        .map(|r| r.replace("&amp;", "&"))
        .collect()
}

/// The game page of the package in a catalogue site, and its path.
fn game_page(site: &Path) -> (String, String) {
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    let href = hrefs(&index)
        .into_iter()
        .find(|h| h.starts_with("games/") && h.ends_with("/1.html"))
        .expect("a game page in the index");
    (std::fs::read_to_string(site.join(&href)).unwrap(), href)
}

#[test]
fn the_catalogue_draws_the_package_with_the_authors_pictures_and_links_play() {
    let dir = common::scratch_dir("author-catalogue");
    let site = dir.join("site");
    let (code, err) = run(&["catalogue", "-q", PKG, "-o", site.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (page, href) = game_page(&site);
    assert!(
        page.contains("Drawn with 9 of the author's own pictures."),
        "{page}"
    );
    let start = page
        .split("<p class=\"start\"><img src=\"../../")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap();
    let start = Pixmap::load_png(site.join(start)).unwrap();
    assert_eq!(wrong_pieces(&start), Vec::<String>::new());
    // The pieces table shows the author's pictures, the key transparent.
    let tiles: Vec<Pixmap> = page
        .split("<table class=\"pieces\">")
        .nth(1)
        .unwrap()
        .split("<img src=\"../../")
        .skip(1)
        .map(|r| Pixmap::load_png(site.join(r.split('"').next().unwrap())).unwrap())
        .collect();
    assert_eq!(tiles.len(), 8);
    let colours: Vec<(u8, u8, u8, u8)> = tiles.iter().map(|t| at(t, 8, 4)).collect();
    for (pos, (r, g, b), flavour) in PIECES {
        assert!(
            colours.contains(&(r, g, b, 255)),
            "{pos} ({flavour}): {colours:?}"
        );
    }
    assert!(tiles.iter().all(|t| at(t, 12, 11).3 == 0));
    // The Play link, and the page it opens in a site read from files, which says how to play.
    let play = hrefs(&page)
        .into_iter()
        .find(|h| h.contains("/play/"))
        .expect("a Play link");
    let slug = href
        .trim_start_matches("games/")
        .trim_end_matches("/1.html");
    assert_eq!(play, format!("../../play/{slug}/1/index.html"));
    let how = std::fs::read_to_string(site.join(format!("play/{slug}/1/index.html"))).unwrap();
    assert!(how.contains("zogkit serve SITE"), "{how}");
}

/// A running server of the real binary (`play` or `catalogue --serve`) and its port; stopped
/// when dropped.
struct Server {
    child: common::Spawned,
    port: u16,
    /// The line it printed: `… serving WHAT at URL (Ctrl-C stops)`.
    line: String,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
        let (child, port, line) = common::serve(&args);
        Server { child, port, line }
    }

    /// One request with this server's Host: the status and the body.
    fn request(&self, method: &str, path: &str, host: &str, body: &str) -> (u16, Vec<u8>) {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(crate::play::HANG_GUARD)).unwrap();
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let _ = s.write_all(req.as_bytes());
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let split = out
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("a response head");
        let head = String::from_utf8_lossy(&out[..split]).into_owned();
        let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap();
        (status, out[split + 4..].to_vec())
    }

    fn get(&self, path: &str) -> (u16, Vec<u8>) {
        self.request("GET", path, &format!("127.0.0.1:{}", self.port), "")
    }

    fn json(&self, method: &str, path: &str, body: &str) -> serde_json::Value {
        let (status, b) = self.request(method, path, &format!("127.0.0.1:{}", self.port), body);
        assert_eq!(
            status,
            200,
            "{method} {path}: {}",
            String::from_utf8_lossy(&b)
        );
        serde_json::from_slice(&b).unwrap()
    }

    fn png(&self, path: &str) -> Pixmap {
        let (status, b) = self.get(path);
        assert_eq!(status, 200, "{path}");
        Pixmap::decode_png(&b).unwrap()
    }

    /// Stops the server with SIGINT (Ctrl-C); its exit code.
    #[cfg(unix)]
    fn interrupt(&mut self) -> Option<i32> {
        self.child.interrupt("the server")
    }
}

/// The game's board and first tile as served: the author's board, and the author's picture of
/// the first piece with its key transparent.
fn check_served_pictures(server: &Server, game: &serde_json::Value) {
    let board = server.png(game["board"]["image"].as_str().unwrap());
    assert_eq!(rgb(&board, 15, 15), BOARD);
    assert_eq!(rgb(&board, 20, 15), (0, 0, 0));
    let one = game["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "One")
        .unwrap();
    let tile = server.png(one["images"][0].as_str().unwrap());
    assert_eq!(at(&tile, 8, 4), (200, 30, 30, 255));
    assert_eq!(at(&tile, 12, 11).3, 0);
}

#[test]
fn play_shows_the_authors_pictures_of_the_package() {
    let server = Server::start(&["play", RULES, "--collection", PKG]);
    let game = server.json("GET", "/api/game", "");
    assert_eq!(game["board"]["pictures"], serde_json::json!([]));
    check_served_pictures(&server, &game);
}

#[test]
fn the_served_catalogue_plays_a_game_behind_its_play_link() {
    let dir = common::scratch_dir("author-serve");
    let site: PathBuf = dir.join("site");
    let mut server = Server::start(&[
        "catalogue",
        "-q",
        PKG,
        "-o",
        site.to_str().unwrap(),
        "--serve",
    ]);
    assert!(
        server
            .line
            .contains("(1 game to play) at http://127.0.0.1:"),
        "{}",
        server.line
    );
    let (status, index) = server.get("/");
    assert_eq!(status, 200);
    let index = String::from_utf8(index).unwrap();
    assert!(index.contains("Flavours"), "{index}");
    let (_, href) = game_page(&site);
    let (status, page) = server.get(&format!("/{href}"));
    assert_eq!(status, 200);
    let page = String::from_utf8(page).unwrap();
    let play = hrefs(&page)
        .into_iter()
        .find(|h| h.contains("/play/"))
        .expect("a Play link");
    // `games/<slug>/1.html` + `../../play/<slug>/1/index.html`
    let play = format!("/{}", play.trim_start_matches("../../"));
    let (status, body) = server.get(&play);
    let body = String::from_utf8(body).unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("<script src=\"play.js\">"), "{body}");
    let base = play.trim_end_matches("index.html");
    let (status, _) = server.get(&format!("{base}play.js"));
    assert_eq!(status, 200);
    let moves = server.json("GET", &format!("{base}api/moves"), "");
    let list = moves["moves"].as_array().unwrap();
    // Each white piece steps forward.
    assert_eq!(list.len(), 4, "{moves}");
    let played = server.json("POST", &format!("{base}api/move"), "{\"index\": 0}");
    assert_eq!(played["played"], list[0]["notation"]);
    // The session stays: its history holds the move.
    let state = server.json("GET", &format!("{base}api/state"), "");
    assert_eq!(state["history"].as_array().unwrap().len(), 1, "{state}");
    let game = server.json("GET", &format!("{base}api/game"), "");
    check_served_pictures(&server, &game);
    // The folder without its slash is redirected; no other game, file or host is served.
    assert_eq!(server.get(base.trim_end_matches('/')).0, 308);
    let other = format!("{base}../2/api/moves");
    for path in [
        "/play/none/1/api/moves",
        other.as_str(),
        "/../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/.zogkit-catalogue.lock",
        "/games",
    ] {
        assert_eq!(server.get(path).0, 404, "{path}");
    }
    assert_eq!(
        server
            .request(
                "POST",
                "/index.html",
                &format!("127.0.0.1:{}", server.port),
                ""
            )
            .0,
        405
    );
    assert_eq!(server.request("GET", "/", "evil.example", "").0, 403);
    #[cfg(unix)]
    assert_eq!(server.interrupt(), Some(130));
}

#[test]
fn serve_site_plays_a_catalogue_built_earlier_from_its_manifest() {
    let dir = common::scratch_dir("author-serve-site");
    let site: PathBuf = dir.join("site");
    let o = common::zogkit(&["catalogue", "-q", PKG, "-o", site.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The manifest names the rule file and its collection, by absolute paths.
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(site.join(".zogkit-serve.json")).unwrap()).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let canon = |p: &str| root.join(p).canonicalize().unwrap();
    assert_eq!(manifest["zogkit_serve"], 1);
    let inputs = manifest["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 1, "{manifest}");
    assert_eq!(inputs[0]["file"], canon(RULES).to_str().unwrap());
    assert_eq!(inputs[0]["collection"], canon(PKG).to_str().unwrap());
    assert_eq!(inputs[0]["games"], serde_json::json!([0]));
    let slug = inputs[0]["slug"].as_str().unwrap().to_string();
    let mut server = Server::start(&["serve", site.to_str().unwrap()]);
    assert!(
        server
            .line
            .contains("(1 game to play from 1 rule file) at http://127.0.0.1:"),
        "{}",
        server.line
    );
    let (_, href) = game_page(&site);
    let (status, page) = server.get(&format!("/{href}"));
    assert_eq!(status, 200);
    let page = String::from_utf8(page).unwrap();
    let play = hrefs(&page)
        .into_iter()
        .find(|h| h.contains("/play/"))
        .expect("a Play link");
    assert_eq!(play, format!("../../play/{slug}/1/index.html"));
    let base = format!("/play/{slug}/1/");
    let (status, body) = server.get(&format!("{base}index.html"));
    assert_eq!(status, 200);
    assert!(
        String::from_utf8(body)
            .unwrap()
            .contains("<script src=\"play.js\">")
    );
    let moves = server.json("GET", &format!("{base}api/moves"), "");
    let list = moves["moves"].as_array().unwrap();
    assert!(!list.is_empty(), "{moves}");
    let played = server.json("POST", &format!("{base}api/move"), "{\"index\": 0}");
    assert_eq!(played["played"], list[0]["notation"]);
    // The author's pictures of the collection the catalogue walked.
    let game = server.json("GET", &format!("{base}api/game"), "");
    check_served_pictures(&server, &game);
    // Not served: the manifest itself, a game it does not name, another host.
    for path in [
        "/.zogkit-serve.json",
        &format!("/play/{slug}/2/api/moves"),
        "/play/other/1/api/moves",
    ] {
        assert_eq!(server.get(path).0, 404, "{path}");
    }
    assert_eq!(server.request("GET", "/", "evil.example", "").0, 403);
    #[cfg(unix)]
    assert_eq!(server.interrupt(), Some(130));
}

#[test]
fn a_served_catalogue_keeps_32_games_dropping_the_least_recently_used() {
    // 33 one-game files: one more than the server keeps.
    let dir = common::scratch_dir("author-serve-lru");
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    for i in 0..33 {
        std::fs::write(
            games.join(format!("g{i:02}.zrf")),
            format!(
                "(game (title \"G{i}\") (players A B) (turn-order A B)
                   (board (grid (start-rectangle 0 0 30 30)
                     (dimensions (\"a/b\" (30 0)) (\"2/1\" (0 30)))
                     (directions (n 0 -1) (s 0 1))))
                   (piece (name Man) (moves (n (verify empty?) add)))
                   (board-setup (A (Man a1 b1)))
                   (loss-condition (A B) stalemated))"
            ),
        )
        .unwrap();
    }
    let site = dir.join("site");
    let o = common::zogkit(&[
        "catalogue",
        "-q",
        games.to_str().unwrap(),
        "-o",
        site.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let server = Server::start(&["serve", site.to_str().unwrap()]);
    assert!(
        server
            .line
            .contains("(33 games to play from 33 rule files)"),
        "{}",
        server.line
    );
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(site.join(".zogkit-serve.json")).unwrap()).unwrap();
    let slugs: Vec<String> = manifest["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["slug"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(slugs.len(), 33);
    let state = |slug: &str| server.json("GET", &format!("/play/{slug}/1/api/state"), "");
    let play = |slug: &str| {
        server.json(
            "POST",
            &format!("/play/{slug}/1/api/move"),
            "{\"index\": 0}",
        )
    };
    // Games 0 and 1 get a move each, then 2..=31 open: 32 sessions.
    let first = play(&slugs[0])["state"]["session"].clone();
    let second = play(&slugs[1])["state"]["session"].clone();
    assert_ne!(first, second);
    for s in &slugs[2..32] {
        assert_eq!(state(s)["history"].as_array().unwrap().len(), 0);
    }
    // Game 0 is used again, so game 1 is now the least recently used: the 33rd drops it.
    assert_eq!(state(&slugs[0])["history"].as_array().unwrap().len(), 1);
    assert_eq!(state(&slugs[32])["history"].as_array().unwrap().len(), 0);
    let kept = state(&slugs[0]);
    assert_eq!(kept["history"].as_array().unwrap().len(), 1, "{kept}");
    assert_eq!(kept["session"], first);
    // Game 1 starts again, as another session the page can tell from its own.
    let again = state(&slugs[1]);
    assert_eq!(again["history"].as_array().unwrap().len(), 0, "{again}");
    assert_ne!(again["session"], second);
}

#[test]
fn serve_refuses_a_folder_without_a_sound_manifest() {
    let dir = common::scratch_dir("author-serve-refused");
    let site = dir.join("site");
    std::fs::create_dir_all(&site).unwrap();
    let rules = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(RULES)
        .canonicalize()
        .unwrap();
    let other = dir.canonicalize().unwrap();
    let entry = |slug: &str, file: &Path, collection: Option<&Path>, format: &str| {
        serde_json::json!({"zogkit_serve": 1, "inputs": [{
            "slug": slug, "file": file, "collection": collection, "format": format, "games": [0]
        }]})
        .to_string()
    };
    let cases: Vec<(Option<String>, &str)> = vec![
        (None, ".zogkit-serve.json is missing"),
        (Some("{".into()), "not a site manifest"),
        (
            Some(r#"{"zogkit_serve": 9, "inputs": []}"#.into()),
            "version 9",
        ),
        (
            Some(entry("f", Path::new("Rules/Flavours.zrf"), None, "zrf")),
            "paths must be absolute",
        ),
        (
            Some(entry("f", &rules, Some(&other), "zrf")),
            "is not inside its collection",
        ),
        (
            Some(entry("../f", &rules, None, "zrf")),
            "is not a plain name",
        ),
        (
            Some(entry("f", &rules, None, "png")),
            "is not a format zogkit reads",
        ),
    ];
    for (manifest, want) in cases {
        let path = site.join(".zogkit-serve.json");
        match &manifest {
            Some(m) => std::fs::write(&path, m).unwrap(),
            None => {
                let _ = std::fs::remove_file(&path);
            }
        }
        let o = common::zogkit(&["serve", site.to_str().unwrap(), "--no-browser"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{manifest:?}: {err}");
        assert!(err.contains(want), "{manifest:?}: {err}");
        assert!(o.stdout.is_empty(), "{manifest:?}: nothing served");
    }
    let o = common::zogkit(&["serve", RULES, "--no-browser"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is not a folder"));
}

#[test]
#[ignore = "oracle check (pyffish, PyYAML, Ludii, Chromium or the whole corpus): .ci/run runs it; locally `cargo test -- --ignored`"]
fn chromium_follows_the_play_link_of_the_served_catalogue_and_plays() {
    if !crate::play::chromium_available() {
        return;
    }
    let dir = common::scratch_dir("author-chromium");
    let site = dir.join("site");
    let server = Server::start(&[
        "catalogue",
        "-q",
        PKG,
        "-o",
        site.to_str().unwrap(),
        "--serve",
    ]);
    let (_, href) = game_page(&site);
    let mut b = crate::play::Browser::start();
    let url = format!("http://127.0.0.1:{}/{href}", server.port);
    b.send("Page.navigate", serde_json::json!({ "url": url }));
    b.wait_for("!!document.querySelector('a[href*=\"/play/\"]')");
    b.eval("document.querySelector('a[href*=\"/play/\"]').click(); true");
    // The game's page: twelve cells, the eight pieces the author drew (16×16, not the
    // renderer's 19×19 tiles), on the author's board.
    b.wait_for(
        "document.querySelectorAll('.cell').length === 12 && \
         [...document.querySelectorAll('.cell img.piece')].filter(i => i.complete && i.naturalWidth === 16).length === 8",
    );
    let board = b.eval("document.querySelector('#board img.bg').getAttribute('src')");
    assert!(
        board.as_str().unwrap().ends_with("/1/img/board.png"),
        "{board}"
    );
    b.click("a1");
    b.wait_for("document.querySelectorAll('.cell.target').length === 1");
    b.click("a2");
    b.wait_for("document.querySelectorAll('#history li').length === 1");
    let base = format!(
        "/play/{}/1/",
        href.trim_start_matches("games/")
            .trim_end_matches("/1.html")
    );
    let state = server.json("GET", &format!("{base}api/state"), "");
    assert_eq!(state["history"][0]["notation"], "One a1 - a2", "{state}");
}
