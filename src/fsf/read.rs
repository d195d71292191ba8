//! Reading `variants.ini` sections (a subset) into the spec: board size, custom pieces and the
//! king in Betza notation (leapers, riders, lame leapers, cannons; `m`/`c` and direction
//! modifiers, read with the same selection table the writer uses), mobility regions, the start
//! position, checkmate, stalemate and extinction, the janggi pieces and `diagonalLines`. Every
//! other key that changes the rules is reported (`fsf::unsupported`) rather than ignored
//! silently; inheritance is read from the `xiangqi` template only (`template`). Pieces are
//! generated through the movement table ([`crate::spec::movement`]), the janggi cannon's hop
//! and the moves along its lines included.

use super::betza::{Atom, Modality, Travel, Vector, atom_vectors, lame_path};
use super::template;
use crate::diag::{Diagnostic, FileId, Span};
use crate::spec::geometry::frame;
use crate::spec::movement::{self, Land, Movement, Promotion, Travel as MoveTravel};
use crate::spec::{
    Board, Cond, Document, EntryKind, Game, Goal, GoalCond, GoalKind, Instr, MoveBlock, Piece,
    Placement, Source, TurnOrder, Zone,
};
use std::collections::BTreeMap;

/// Diagnostic code: a key or Betza feature the reader does not turn into rules.
pub const CODE_UNSUPPORTED: &str = "fsf::unsupported";
/// Diagnostic code: a malformed section, key or value.
pub const CODE_SYNTAX: &str = "fsf::syntax";
/// Diagnostic code: a file over one of the reader's fixed limits ([`MAX_SECTIONS`],
/// [`MAX_KEYS`], [`MAX_BETZA`]).
pub const CODE_TOO_LARGE: &str = "fsf::too-large";

/// Most sections read from one file (Fairy-Stockfish's own `variants.ini` has about 150);
/// the rest of the file is not read.
pub const MAX_SECTIONS: usize = 1_000;
/// Most `key = value` lines read in one section (Fairy-Stockfish has about 200 options and 25
/// custom pieces); the rest of the section is not read.
pub const MAX_KEYS: usize = 500;
/// Longest Betza text read for one piece, in bytes (real ones are under 40); a longer piece is
/// left out.
pub const MAX_BETZA: usize = 256;

const PLAYERS: [&str; 2] = ["White", "Black"];

/// Keys whose value here changes nothing the reader models.
fn harmless(key: &str, value: &str) -> bool {
    match key {
        "castling" | "doubleStep" | "checking" => {
            value == "false" && key != "checking" || value == "true" && key == "checking"
        }
        "promotionPawnTypes" | "promotionPieceTypes" | "pawnTypes" | "enPassantTypes" => {
            value == "-"
        }
        "flyingGeneral" | "perpetualCheckIllegal" => value == "false",
        "chasingRule" => value == "none",
        "nMoveRule"
        | "nFoldRule"
        | "nFoldValue"
        | "pieceValueMg"
        | "pieceValueEg"
        | "variantTemplate"
        | "pieceToCharTable"
        | "pocketSize"
        | "mandatoryPawnPromotion"
        | "extinctionPieceCount" => true,
        _ => false,
    }
}

/// Fairy-Stockfish's built-in piece keys that the reader knows: key, generic name, Betza. The
/// pawn's double step and en passant come from `doubleStep` and the pawn keys; the soldier's
/// sideways steps from `soldierPromotionRank`.
const BUILTINS: [(&str, &str, &str); 22] = [
    ("pawn", "Pawn", "mfWcefF"),
    ("knight", "Knight", "N"),
    ("bishop", "Bishop", "B"),
    ("rook", "Rook", "R"),
    ("queen", "Queen", "Q"),
    ("fers", "Fers", "F"),
    ("wazir", "Wazir", "W"),
    ("alfil", "Alfil", "A"),
    ("commoner", "Commoner", "K"),
    ("archbishop", "Archbishop", "BN"),
    ("chancellor", "Chancellor", "RN"),
    ("amazon", "Amazon", "QN"),
    ("horse", "Horse", "nN"),
    ("elephant", "Elephant", "nA"),
    ("cannon", "Cannon", "mRcpR"),
    ("soldier", "Soldier", "fW"),
    ("lance", "Lance", "fR"),
    ("shogiPawn", "Pawn", "fW"),
    ("shogiKnight", "Knight", "fN"),
    ("silver", "Silver", "FfW"),
    ("janggiCannon", "Cannon", "pR"),
    ("janggiElephant", "Elephant", "nZ"),
];

/// Keys the reader turns into pawn rules (double step, promotion, en passant, the soldier).
const PAWN_KEYS: [&str; 11] = [
    "doubleStep",
    "doubleStepRegionWhite",
    "doubleStepRegionBlack",
    "promotionPawnTypes",
    "promotionPieceTypes",
    "promotionRegionWhite",
    "promotionRegionBlack",
    "mandatoryPawnPromotion",
    "pawnTypes",
    "enPassantTypes",
    "soldierPromotionRank",
];

struct Section<'t> {
    name: &'t str,
    at: usize,
    keys: Vec<(&'t str, &'t str, usize)>,
    /// `# zogkit: KEY = VALUE` comments before the section (names zogkit wrote: `title`,
    /// `piece LETTER`), which Fairy-Stockfish ignores.
    notes: Vec<(&'t str, &'t str)>,
    /// `[name:xiangqi]`: the template's keys apply where the section sets none.
    inherits: bool,
}

fn sections<'t>(text: &'t str, file: FileId, diags: &mut Vec<Diagnostic>) -> Vec<Section<'t>> {
    let mut out: Vec<Section> = Vec::new();
    let mut notes = Vec::new();
    let mut offset = 0;
    let mut keys_refused = false;
    for line in text.split_inclusive('\n') {
        let at = offset;
        offset += line.len();
        let l = line.trim();
        if let Some((k, v)) = l
            .strip_prefix("# zogkit:")
            .and_then(|note| note.split_once('='))
        {
            notes.push((k.trim(), v.trim()));
            continue;
        }
        if l.is_empty() || l.starts_with('#') || l.starts_with(';') {
            continue;
        }
        let span = Span::new(file, at, at + line.trim_end().len());
        if let Some(full) = l.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            let (name, parent) = match full.split_once(':') {
                Some((n, p)) => (n.trim(), Some(p.trim())),
                None => (full, None),
            };
            if out.len() == MAX_SECTIONS {
                diags.push(Diagnostic::error(
                    CODE_TOO_LARGE,
                    format!(
                        "more than {MAX_SECTIONS} sections; this one and the rest are not read"
                    ),
                    span,
                ));
                break;
            }
            keys_refused = false;
            if parent.is_some_and(|p| p != template::PARENT) {
                diags.push(Diagnostic::error(
                    CODE_UNSUPPORTED,
                    format!(
                        "section `[{full}]` inherits from another variant; only standalone sections and sections inheriting from `{}` are read",
                        template::PARENT
                    ),
                    span,
                ));
            }
            out.push(Section {
                name,
                at,
                keys: Vec::new(),
                notes: std::mem::take(&mut notes),
                inherits: parent == Some(template::PARENT),
            });
        } else if let (Some((k, v)), Some(s)) = (l.split_once('='), out.last_mut()) {
            if s.keys.len() < MAX_KEYS {
                s.keys.push((k.trim(), v.trim(), at));
            } else if !std::mem::replace(&mut keys_refused, true) {
                diags.push(Diagnostic::error(
                    CODE_TOO_LARGE,
                    format!(
                        "section `{}` has more than {MAX_KEYS} keys; this one and the rest are not read",
                        s.name
                    ),
                    span,
                ));
            }
        } else {
            diags.push(Diagnostic::error(
                CODE_SYNTAX,
                "expected `[section]` or `key = value`",
                span,
            ));
        }
    }
    out
}

/// Parses Betza text the way Fairy-Stockfish does (a subset); the error names what is not read.
fn parse_betza(b: &str) -> Result<Vec<Atom>, String> {
    let chars: Vec<char> = b.chars().collect();
    let mut out = Vec::new();
    let (mut mods, mut pairs, mut hop, mut lame) = (Vec::new(), Vec::<String>::new(), false, false);
    let (mut initial, mut ep) = (false, false);
    let mut i = 0;
    let vert = "fbvh";
    let horiz = "rlsh";
    while i < chars.len() {
        let c = chars[i];
        match c {
            'm' => mods.push(Modality::Move),
            'c' => mods.push(Modality::Capture),
            'e' => ep = true,
            'i' => initial = true,
            'p' => hop = true,
            'n' => lame = true,
            'f' | 'b' | 'v' | 'r' | 'l' | 's' => {
                let next = chars.get(i + 1).copied();
                match next {
                    Some(c2)
                        if c2 == c
                            || (vert.contains(c) && horiz.contains(c2))
                            || (horiz.contains(c) && vert.contains(c2)) =>
                    {
                        pairs.push(format!("{c}{c2}"));
                        i += 1;
                    }
                    _ => pairs.push(format!("{c}{c}")),
                }
            }
            _ => {
                let (atoms, mut rider) = atom_letter(c)?;
                let mut limit = 0u8;
                match chars.get(i + 1) {
                    Some(d) if d.is_ascii_digit() => {
                        rider = true;
                        limit = *d as u8 - b'0';
                        i += 1;
                    }
                    Some(&d) if d == c => {
                        rider = true;
                        i += 1;
                    }
                    _ => {}
                }
                if ep {
                    // `ce`: captures, en passant as well; `e` alone is not read.
                    match mods.iter().position(|m| *m == Modality::Capture) {
                        Some(k) => mods[k] = Modality::CaptureEp,
                        None => return Err(format!("`e` without `c` before `{c}`")),
                    }
                }
                if mods.is_empty() {
                    mods = vec![Modality::Move, Modality::Capture];
                }
                let travel = match (hop, lame, rider) {
                    (true, _, true) if limit == 0 => Travel::Hop,
                    (false, true, false) => Travel::Lame,
                    (false, false, true) => Travel::Ride(limit),
                    (false, false, false) => Travel::Leap,
                    _ => return Err(format!("this combination before `{c}`")),
                };
                for &(a, bb) in atoms {
                    for v in atom_vectors(a, bb, &pairs) {
                        for &modality in &mods {
                            out.push(Atom {
                                travel,
                                initial,
                                modality,
                                v,
                            });
                        }
                    }
                }
                mods.clear();
                pairs.clear();
                (hop, lame, initial, ep) = (false, false, false, false);
            }
        }
        i += 1;
    }
    Ok(out)
}

/// The leaps of an atom letter, and whether the atom rides.
type AtomLeaps = (&'static [(i32, i32)], bool);

/// The leaps of a Betza atom letter, and whether it rides.
fn atom_letter(c: char) -> Result<AtomLeaps, String> {
    Ok(match c {
        'W' => (&[(1, 0)], false),
        'F' => (&[(1, 1)], false),
        'D' => (&[(2, 0)], false),
        'N' => (&[(2, 1)], false),
        'A' => (&[(2, 2)], false),
        'H' => (&[(3, 0)], false),
        'C' | 'L' => (&[(3, 1)], false),
        'Z' | 'J' => (&[(3, 2)], false),
        'G' => (&[(3, 3)], false),
        'K' => (&[(1, 0), (1, 1)], false),
        'R' => (&[(1, 0)], true),
        'B' => (&[(1, 1)], true),
        'Q' => (&[(1, 0), (1, 1)], true),
        _ => {
            return Err(format!(
                "`{c}` (only m, c, ce, i, p, n, direction modifiers and atoms are read)"
            ));
        }
    })
}

fn dir(v: Vector) -> String {
    frame::vector_name(v.0.into(), v.1.into())
}

/// The zone of the squares initial (`i`) moves start from (`doubleStepRegionWhite/Black`).
const DOUBLE_STEP_ZONE: &str = "double-step";
/// The zone where promotion pawns promote (`promotionRegionWhite/Black`).
const PROMOTION_ZONE: &str = "promotion";
/// The zone from which the soldier also steps sideways (`soldierPromotionRank`).
const SOLDIER_ZONE: &str = "soldier-sideways";

/// What a movement of this modality lands on: an empty square, or an enemy it captures.
fn land(m: Modality) -> Land {
    match m {
        Modality::Move => Land::Empty,
        _ => Land::Enemy,
    }
}

/// The typed movements of one Betza atom of piece `own`; `zone` is a mobility region the
/// destination must be in. An initial movement starts in the double-step region. A rider
/// limited in range or by a region is one movement per distance, each a path over empty
/// squares. The janggi cannon's screen, and the piece it takes, may be any piece but its own
/// kind.
fn movements(a: &Atom, zone: Option<&str>, own: &str) -> Vec<Movement> {
    let d = dir(a.v);
    let with = |travel: MoveTravel, zone: Option<&str>| {
        let mut m = Movement::new(travel, land(a.modality));
        m.zone = zone.map(String::from);
        m.from_zone = a.initial.then(|| DOUBLE_STEP_ZONE.to_string());
        m
    };
    let path = |dirs: Vec<String>| match <[String; 1]>::try_from(dirs) {
        Ok([one]) => MoveTravel::Step(one),
        Err(dirs) => MoveTravel::Lame(dirs),
    };
    match a.travel {
        Travel::Leap => vec![with(MoveTravel::Step(d), zone)],
        Travel::Lame => {
            let mut at = (0, 0);
            let mut dirs = Vec::new();
            for sq in lame_path(a.v).into_iter().chain([a.v]) {
                dirs.push(dir((sq.0 - at.0, sq.1 - at.1)));
                at = sq;
            }
            vec![with(path(dirs), zone)]
        }
        Travel::Ride(0) if zone.is_none() => {
            let quiet = a.modality == Modality::Move;
            let slide = MoveTravel::Slide {
                dir: d,
                max: None,
                quiet,
            };
            vec![with(slide, None)]
        }
        Travel::Ride(n) => {
            let max = if n == 0 { 16 } else { n as usize };
            (1..=max)
                .map(|k| with(path(vec![d.clone(); k]), zone))
                .collect()
        }
        // Moving beyond the screen tests no region (the moves are made inside the loop).
        Travel::Hop | Travel::JanggiHop => {
            let not_own = Cond::Not(Box::new(Cond::Piece {
                piece: own.into(),
                at: None,
            }));
            let janggi = a.travel == Travel::JanggiHop;
            let cannon = MoveTravel::Cannon {
                dir: d,
                quiet: false,
                beyond: a.modality == Modality::Move,
                screen: janggi.then(|| not_own.clone()).into_iter().collect(),
            };
            let zone = zone.filter(|_| a.modality != Modality::Move);
            let mut m = with(cannon, zone);
            if janggi && a.modality != Modality::Move {
                m.arrive.push(not_own);
            }
            vec![m]
        }
    }
}

/// A movement restricted to the lines as Fairy-Stockfish reads them: the piece stands on a
/// line square and every square it reaches is one (its mobility region, if any, tested too).
/// Fairy-Stockfish lets a rider pass squares off the lines; the movement's runs stay on them,
/// which is the same wherever the lines along each diagonal have no gap (see
/// [`diagonal_lines`]).
fn on_lines(mut m: Movement) -> Movement {
    m.from_zone = Some(template::LINES_ZONE.into());
    if let Some(region) = m.zone.replace(template::LINES_ZONE.into()) {
        m.arrive.push(Cond::InZone {
            zone: region,
            at: None,
        });
    }
    m
}

/// En passant as the ZRF chess files write it: onto an enemy `victim` beside the mover that
/// has just come from two squares ahead of it.
fn en_passant(v: Vector, victim: &str) -> Movement {
    let ep = MoveTravel::EnPassant {
        side: dir((v.0, 0)),
        forward: dir((0, v.1)),
        piece: victim.into(),
    };
    Movement::new(ep, Land::Any)
}

fn parse_size(v: &str) -> Option<i32> {
    match v.parse::<i32>() {
        Ok(n) => Some(n),
        Err(_) => v
            .chars()
            .next()
            .filter(|c| c.is_ascii_lowercase() && v.len() == 1)
            .map(|c| (c as u8 - b'a') as i32 + 1),
    }
}

fn square(f: i32, r: i32) -> String {
    super::board::square_name(f, r)
}

/// A grid board of `files`×`ranks` with a direction per vector (and its negation), and the
/// second player's front-to-back mirror as its symmetry.
fn grid_board(files: i32, ranks: i32, vectors: &[Vector]) -> Board {
    let mut vs: Vec<(i64, i64)> = Vec::new();
    for &(x, y) in vectors {
        let (x, y) = (i64::from(x), i64::from(y));
        for w in [(x, y), (-x, -y), (x, -y), (-x, y)] {
            if !vs.contains(&w) {
                vs.push(w);
            }
        }
    }
    let n = |k: i32| usize::try_from(k).unwrap_or(0);
    frame::rectangle(n(files), n(ranks), &vs, PLAYERS[1], |(x, y)| (x, -y))
}

/// The error for a board with no squares, or with more than the spec allows.
fn board_size_error(files: i32, ranks: i32, span: Span) -> Option<Diagnostic> {
    if files < 1 || ranks < 1 {
        return Some(Diagnostic::error(
            CODE_SYNTAX,
            format!(
                "a board of {files} files and {ranks} ranks has no squares; maxFile and maxRank must be at least 1"
            ),
            span,
        ));
    }
    let max = crate::spec::geometry::MAX_POSITIONS;
    (i64::from(files) * i64::from(ranks) > max as i64).then(|| {
        Diagnostic::error(
            "spec::board-too-large",
            format!("a board of {files} files and {ranks} ranks has more than {max} squares"),
            span,
        )
    })
}

/// The start position's placements (pockets are reported when not empty).
fn setup(fen: &str, names: &BTreeMap<char, String>, ranks: i32) -> Result<Vec<Placement>, String> {
    let board = fen.split_whitespace().next().unwrap_or("");
    let (board, pocket) = match board.split_once('[') {
        Some((b, p)) => (b, p.trim_end_matches(']')),
        None => (board, ""),
    };
    if !pocket.is_empty() && pocket != "-" {
        return Err(format!("pieces in hand `{pocket}`"));
    }
    let mut out: Vec<Placement> = Vec::new();
    for (i, row) in board.split('/').enumerate() {
        let r = ranks - 1 - i as i32;
        let mut f = 0;
        let mut num = String::new();
        for c in row.chars() {
            if c.is_ascii_digit() {
                num.push(c);
                continue;
            }
            if !num.is_empty() {
                f += num.parse::<i32>().unwrap_or(0);
                num.clear();
            }
            let name = names.get(&c.to_ascii_lowercase()).ok_or_else(|| {
                format!("`{c}` in the start position is not a piece of the section")
            })?;
            let player = if c.is_ascii_uppercase() {
                PLAYERS[0]
            } else {
                PLAYERS[1]
            };
            let sq = square(f, r);
            match out
                .iter_mut()
                .find(|p| p.player == player && &p.piece == name)
            {
                Some(p) => p.positions.push(sq),
                None => out.push(Placement {
                    player: player.into(),
                    piece: name.clone(),
                    positions: vec![sq],
                    off: None,
                }),
            }
            f += 1;
        }
    }
    Ok(out)
}

/// Reads every section of a `variants.ini` text into a spec document.
pub fn read(name: &str, text: &str, file: FileId) -> (Option<Document>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let secs = sections(text, file, &mut diags);
    let mut games = Vec::new();
    for s in &secs {
        if let Some(g) = game(s, text, file, &mut diags) {
            games.push(g);
        }
    }
    let doc = Document {
        spec_version: crate::spec::SPEC_VERSION.to_string(),
        source: Source::of_text("fsf", name, text),
        games,
        procedures: Vec::new(),
    };
    (Some(doc), diags)
}

fn game(s: &Section, text: &str, file: FileId, diags: &mut Vec<Diagnostic>) -> Option<Game> {
    let line_span = |at: usize| {
        let end = text[at..].find('\n').map_or(text.len(), |e| at + e);
        Span::new(file, at, end)
    };
    let keys = if s.inherits {
        template::merge(&s.keys, s.at)
    } else {
        s.keys.clone()
    };
    let get = |k: &str| keys.iter().rev().find(|x| x.0 == k).map(|x| x.1);
    let files = get("maxFile").map_or(Some(8), parse_size);
    let ranks = get("maxRank").map_or(Some(8), parse_size);
    let (Some(files), Some(ranks)) = (files, ranks) else {
        diags.push(Diagnostic::error(
            CODE_SYNTAX,
            "maxFile/maxRank is not a number",
            line_span(s.at),
        ));
        return None;
    };
    if let Some(d) = board_size_error(files, ranks, line_span(s.at)) {
        diags.push(d);
        return None;
    }
    // Pieces: letter → (name, betza, royal).
    let mut pieces: Vec<PieceDef> = Vec::new();
    let mut royal = None;
    let mut regions: BTreeMap<String, [Option<&str>; 2]> = BTreeMap::new();
    let mut goals = Vec::new();
    let piece_def = |v: &str| -> Option<(char, String)> {
        let (l, b) = v.split_once(':').unwrap_or((v, ""));
        let l = l.trim().chars().next()?;
        Some((l.to_ascii_lowercase(), b.trim().to_string()))
    };
    // Names zogkit wrote as notes (`# zogkit: piece m = Met`) replace the generic ones.
    let note = |k: &str| s.notes.iter().rev().find(|n| n.0 == k).map(|n| n.1);
    let named = |key: &str, generic: String| -> String {
        keys.iter()
            .rev()
            .find(|x| x.0 == key)
            .and_then(|x| piece_def(x.1))
            .and_then(|(l, _)| note(&format!("piece {l}")))
            .map_or(generic, str::to_string)
    };
    let king = named("king", "King".into());
    let (line_keys, janggi_cannons) = janggi_keys(s, &keys, &piece_def);
    for &(k, v, at) in &keys {
        if let Some(n) = k.strip_prefix("customPiece") {
            match piece_def(v) {
                Some((l, b)) => pieces.push((l, named(k, format!("Custom{n}")), b, false)),
                None => diags.push(Diagnostic::error(
                    CODE_SYNTAX,
                    "expected `letter:betza`",
                    line_span(at),
                )),
            }
        } else if let Some(&(_, generic, betza)) = BUILTINS.iter().find(|b| b.0 == k) {
            if let Some((l, _)) = piece_def(v).filter(|_| v != "-") {
                let mut betza = betza.to_string();
                if k == "pawn" && get("doubleStep") != Some("false") {
                    betza.push_str("ifmnD");
                }
                pieces.push((l, named(k, generic.into()), betza, false));
            }
        } else if k == "king" {
            if v != "-"
                && let Some((l, b)) = piece_def(v)
            {
                let b = if b.is_empty() { "K".to_string() } else { b };
                pieces.push((l, king.clone(), b, true));
                royal = Some(king.clone());
            }
        } else if let Some(rest) = k.strip_prefix("mobilityRegion") {
            if let Some((side, who)) = region_owner(rest, &named, &king, &get) {
                regions.entry(who).or_insert([None, None])[side] = Some(v);
            }
        } else if k == "stalemateValue" || k == "extinctionValue" {
            let condition = if k == "stalemateValue" {
                Ok(GoalCond::Stalemated)
            } else {
                extinction(&get, &pieces)
            };
            match (value_kind(v), condition) {
                (None, _) => {}
                (Some(_), Err(why)) => {
                    diags.push(Diagnostic::warning(CODE_UNSUPPORTED, why, line_span(at)))
                }
                (Some(kind), Ok(condition)) => goals.push(Goal {
                    kind,
                    players: PLAYERS.map(String::from).to_vec(),
                    condition,
                }),
            }
        } else if !matches!(
            k,
            "maxFile" | "maxRank" | "startFen" | "extinctionPieceTypes"
        ) && !PAWN_KEYS.contains(&k)
            && k != "diagonalLines"
            && !harmless(k, v)
        {
            diags.push(Diagnostic::warning(
                CODE_UNSUPPORTED,
                format!("`{k} = {v}` is not read (the game is read without this rule)"),
                line_span(at),
            ));
        }
    }
    if let Some(r) = &royal {
        goals.insert(
            0,
            Goal {
                kind: GoalKind::Loss,
                players: PLAYERS.map(String::from).to_vec(),
                condition: GoalCond::Checkmated {
                    pieces: vec![r.clone()],
                },
            },
        );
    }
    let rules = pawn_rules(&get, &pieces);
    let lines = diagonal_lines(&keys, files, ranks, &line_span, diags);
    let janggi = Janggi {
        cannons: janggi_cannons,
        line_keys,
        lines,
    };
    let (spec_pieces, vectors, mut zones) =
        build_pieces(&pieces, &regions, &rules, &janggi, diags, line_span(s.at));
    zones.extend(pawn_zones(&get, files, ranks, &spec_pieces));
    let names: BTreeMap<char, String> = pieces.iter().map(|p| (p.0, p.1.clone())).collect();
    let fen = get("startFen").unwrap_or("");
    let setup = match setup(fen, &names, ranks) {
        Ok(s) => s,
        Err(why) => {
            diags.push(Diagnostic::error(
                CODE_UNSUPPORTED,
                format!("section `{}`: {why}", s.name),
                line_span(s.at),
            ));
            return None;
        }
    };
    let mut board = grid_board(files, ranks, &vectors);
    board.zones = zones;
    let title = note("title").unwrap_or(s.name).to_string();
    Some(two_player_game(title, board, spec_pieces, setup, goals))
}

/// A two-player game of Fairy-Stockfish's players on one board.
fn two_player_game(
    title: String,
    board: Board,
    pieces: Vec<Piece>,
    setup: Vec<Placement>,
    goals: Vec<Goal>,
) -> Game {
    Game {
        kind: EntryKind::Game,
        title,
        variant_of: None,
        default: false,
        texts: Default::default(),
        players: PLAYERS.map(String::from).to_vec(),
        turn_order: TurnOrder::alternating(&PLAYERS),
        options: Vec::new(),
        sounds: Vec::new(),
        boards: vec![board],
        pieces,
        setup,
        goals,
        move_priorities: Vec::new(),
        engine: None,
        extensions: Default::default(),
    }
}

/// Letters of the built-in pieces that move along `diagonalLines`, with their keys (the
/// template's king is one; a king the section defines itself is not), and of the janggi
/// cannons.
fn janggi_keys<'t>(
    s: &Section,
    keys: &[(&'t str, &'t str, usize)],
    piece_def: &dyn Fn(&str) -> Option<(char, String)>,
) -> (BTreeMap<char, &'t str>, Vec<char>) {
    let mut line_keys: BTreeMap<char, &str> = BTreeMap::new();
    let mut janggi_cannons = Vec::new();
    for &(k, v, _) in keys {
        let Some((l, _)) = piece_def(v).filter(|_| v != "-") else {
            continue;
        };
        let template_king = k == "king" && s.inherits && !s.keys.iter().any(|o| o.0 == "king");
        if matches!(k, "wazir" | "soldier" | "rook" | "janggiCannon") || template_king {
            line_keys.insert(l, if template_king { "king" } else { k });
        }
        if k == "janggiCannon" {
            janggi_cannons.push(l);
        }
    }
    (line_keys, janggi_cannons)
}

/// The side and the piece a `mobilityRegion…` key (after the prefix) restricts; `None`: the
/// region of a built-in type the section does not have (a template's elephant it removed),
/// which belongs to no piece.
fn region_owner<'t>(
    rest: &str,
    named: &dyn Fn(&str, String) -> String,
    king: &str,
    get: &dyn Fn(&str) -> Option<&'t str>,
) -> Option<(usize, String)> {
    let (side, who) = if let Some(w) = rest.strip_prefix("White") {
        (0, w)
    } else {
        (1, rest.strip_prefix("Black").unwrap_or(rest))
    };
    let who = if let Some(n) = who.strip_prefix("CustomPiece") {
        named(&format!("customPiece{n}"), format!("Custom{n}"))
    } else if who == "King" {
        king.to_string()
    } else {
        let mut key = who.to_string();
        if let Some(c) = key.get_mut(0..1) {
            c.make_ascii_lowercase();
        }
        match BUILTINS.iter().find(|b| b.0 == key) {
            Some(b) if get(b.0).is_none_or(|v| v == "-") => return None,
            Some(b) => named(b.0, b.1.into()),
            None => who.to_string(),
        }
    };
    Some((side, who))
}

/// The result a `…Value` key gives (`None`: a value the reader does not model).
fn value_kind(v: &str) -> Option<GoalKind> {
    match v {
        "win" => Some(GoalKind::Win),
        "loss" => Some(GoalKind::Loss),
        "draw" => Some(GoalKind::Draw),
        _ => None,
    }
}

/// The condition of `extinctionValue`: one piece type gone, or every piece (`*`, the king
/// too) down to a count; `Err`: another form, which is not read.
fn extinction<'t>(
    get: &dyn Fn(&str) -> Option<&'t str>,
    pieces: &[PieceDef],
) -> Result<GoalCond, &'static str> {
    let types = get("extinctionPieceTypes").unwrap_or("");
    let count = get("extinctionPieceCount").unwrap_or("0");
    let piece = types
        .chars()
        .next()
        .and_then(|c| pieces.iter().find(|p| p.0 == c).map(|p| p.1.clone()));
    // `*`: every piece, the king too (a bare king when the count is 1).
    let all = types == "*" && count.parse::<u32>().is_ok_and(|n| n >= 1);
    if !all && (types.len() != 1 || piece.is_none() || count != "0") {
        return Err(
            "only the extinction of one piece type, or of all pieces (`*`) down to a count, is read",
        );
    }
    Ok(GoalCond::PiecesRemaining {
        count: count.into(),
        piece: piece.filter(|_| !all),
    })
}

/// The squares of `diagonalLines`; a name that is no square of the board (or a `*` wildcard,
/// not read) is left out with a located warning. Lines with a gap along a diagonal get a
/// warning too: moves along them are read as staying on them, which Fairy-Stockfish's riders
/// need not.
fn diagonal_lines(
    keys: &[(&str, &str, usize)],
    files: i32,
    ranks: i32,
    line_span: &dyn Fn(usize) -> Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<String>> {
    let &(_, v, at) = keys.iter().rev().find(|k| k.0 == "diagonalLines")?;
    let at_square: BTreeMap<String, (i32, i32)> = (0..files)
        .flat_map(|f| (0..ranks).map(move |r| (square(f, r), (f, r))))
        .collect();
    let (ok, bad): (Vec<&str>, Vec<&str>) = v
        .split_whitespace()
        .partition(|t| at_square.contains_key(*t));
    if !bad.is_empty() {
        diags.push(Diagnostic::warning(
            CODE_UNSUPPORTED,
            format!(
                "`diagonalLines`: {} is not a square of the {files}×{ranks} board; left out",
                bad.join(", ")
            ),
            line_span(at),
        ));
    }
    let coords = ok
        .iter()
        .filter_map(|t| at_square.get(*t).copied())
        .collect();
    if !super::lines::lines_without_gaps(&coords) {
        diags.push(Diagnostic::warning(
            CODE_UNSUPPORTED,
            "`diagonalLines`: a diagonal passes a square off the lines between two of its squares; \
             moves along the lines are read as staying on them (Fairy-Stockfish lets a rider \
             pass squares off the lines)"
                .to_string(),
            line_span(at),
        ));
    }
    Some(ok.into_iter().map(String::from).collect())
}

/// A piece definition: letter, piece name, Betza text, royal.
type PieceDef = (char, String, String, bool);

/// The janggi pieces of a section: the letters of its janggi cannons, the built-in pieces
/// that move along the lines (letter → key) and the line squares (`diagonalLines`).
struct Janggi<'t> {
    cannons: Vec<char>,
    line_keys: BTreeMap<char, &'t str>,
    lines: Option<Vec<String>>,
}

/// The pawn rules of a section: who promotes to what, who may be taken en passant.
struct PawnRules {
    /// Letters of the pieces that promote.
    promoting: Vec<char>,
    /// Names of the pieces they promote to.
    promote_to: Vec<String>,
    /// Names of the pieces that may be taken en passant.
    victims: Vec<String>,
    /// The soldier's letter, when the section has one.
    soldier: Option<char>,
}

/// Letters of a piece-set value (`-` is none), or `default` when the key is absent.
fn letters(value: Option<&str>, default: &str) -> Vec<char> {
    match value.unwrap_or(default) {
        "-" => Vec::new(),
        v => v.chars().filter(|c| c.is_ascii_alphabetic()).collect(),
    }
}

/// The section's pawn rules, with Fairy-Stockfish's chess defaults for absent keys (the built-in
/// pawn promotes to `nbrq` on the last rank and may be taken en passant).
fn pawn_rules<'t>(get: &dyn Fn(&str) -> Option<&'t str>, pieces: &[PieceDef]) -> PawnRules {
    let pawn = get("pawn")
        .and_then(|v| v.chars().next())
        .map(|c| c.to_ascii_lowercase());
    let pawn = pawn.map_or(String::new(), String::from);
    let name = |c: &char| pieces.iter().find(|p| p.0 == *c).map(|p| p.1.clone());
    let mandatory = get("mandatoryPawnPromotion") != Some("false");
    let promoting = letters(get("promotionPawnTypes"), &pawn);
    let mut promote_to: Vec<String> = letters(get("promotionPieceTypes"), "nbrq")
        .iter()
        .filter_map(name)
        .collect();
    if !mandatory {
        // The pawn may also stay what it is: listed as a choice by the caller per piece.
        promote_to.push(String::new());
    }
    PawnRules {
        promoting,
        promote_to,
        victims: letters(get("pawnTypes"), &pawn)
            .iter()
            .filter_map(name)
            .collect(),
        soldier: get("soldier")
            .and_then(|v| v.chars().next())
            .map(|c| c.to_ascii_lowercase()),
    }
}

/// The zones the pawn rules test, for the pieces that use them: the double-step region, the
/// promotion region and the soldier's sideways ranks, per player.
fn pawn_zones<'t>(
    get: &dyn Fn(&str) -> Option<&'t str>,
    files: i32,
    ranks: i32,
    pieces: &[Piece],
) -> Vec<Zone> {
    let uses = |zone: &str| {
        pieces.iter().any(|p| {
            p.moves.iter().any(|b| {
                let mut found = false;
                crate::spec::moves::visit(&b.program, &[], &mut 100_000, &mut |i, _| {
                    found |= matches!(i, Instr::Verify(Cond::InZone { zone: z, .. })
                        | Instr::If { cond: Cond::InZone { zone: z, .. }, .. } if z == zone);
                });
                found
            })
        })
    };
    let rank = |r: i32| (0..files).map(move |f| square(f, r)).collect::<Vec<_>>();
    let given = |k: &str| get(k).map(|v| v.split_whitespace().map(String::from).collect());
    let soldier_from = get("soldierPromotionRank")
        .and_then(parse_size)
        .unwrap_or(1)
        - 1;
    let regions: [(&str, Vec<String>, Vec<String>); 3] = [
        (
            DOUBLE_STEP_ZONE,
            given("doubleStepRegionWhite").unwrap_or_else(|| rank(1)),
            given("doubleStepRegionBlack").unwrap_or_else(|| rank(ranks - 2)),
        ),
        (
            PROMOTION_ZONE,
            given("promotionRegionWhite").unwrap_or_else(|| rank(ranks - 1)),
            given("promotionRegionBlack").unwrap_or_else(|| rank(0)),
        ),
        (
            SOLDIER_ZONE,
            (soldier_from..ranks).flat_map(rank).collect(),
            (0..ranks - soldier_from).flat_map(rank).collect(),
        ),
    ];
    let mut out = Vec::new();
    for (name, white, black) in regions {
        if !uses(name) {
            continue;
        }
        for (player, positions) in PLAYERS.iter().zip([white, black]) {
            out.push(Zone {
                name: name.into(),
                players: vec![player.to_string()],
                positions,
                glyph: None,
                help: None,
            });
        }
    }
    out
}

/// The soldier's sideways steps from the `soldierPromotionRank` on (`vectors` gains their
/// vectors).
fn soldier_steps(zone: Option<&str>, own: &str, vectors: &mut Vec<Vector>) -> Vec<Movement> {
    let mut out = Vec::new();
    for v in [(1, 0), (-1, 0)] {
        for modality in [Modality::Move, Modality::Capture] {
            let a = Atom {
                travel: Travel::Leap,
                initial: false,
                modality,
                v,
            };
            for mut m in movements(&a, zone, own) {
                m.from_zone = Some(SOLDIER_ZONE.into());
                out.push(m);
            }
        }
        vectors.push(v);
    }
    out
}

/// Every move of a promoting piece promotes on reaching the promotion region, to one of `to`
/// (an empty name: the piece itself; none: it does not promote).
fn promote(blocks: &mut [Movement], to: &[String], own: &str) {
    let pieces: Vec<String> = to
        .iter()
        .map(|n| if n.is_empty() { own.into() } else { n.clone() })
        .collect();
    if pieces.is_empty() {
        return;
    }
    for m in blocks {
        m.promotion = Some(Promotion {
            zone: Some(PROMOTION_ZONE.into()),
            pieces: pieces.clone(),
            forced: true,
        });
    }
}

/// The spec pieces of the section's definitions, the vectors their moves use and the zones of
/// their mobility regions.
fn build_pieces(
    pieces: &[PieceDef],
    regions: &BTreeMap<String, [Option<&str>; 2]>,
    rules: &PawnRules,
    janggi: &Janggi,
    diags: &mut Vec<Diagnostic>,
    span: Span,
) -> (Vec<Piece>, Vec<Vector>, Vec<Zone>) {
    let mut spec_pieces = Vec::new();
    let mut vectors: Vec<Vector> = Vec::new();
    let mut zones = Vec::new();
    if let Some(lines) = &janggi.lines {
        zones.push(Zone {
            name: template::LINES_ZONE.into(),
            players: PLAYERS.map(String::from).to_vec(),
            positions: lines.clone(),
            glyph: None,
            help: None,
        });
    }
    for (l, name, betza, _) in pieces {
        if betza.len() > MAX_BETZA {
            diags.push(Diagnostic::error(
                CODE_TOO_LARGE,
                format!(
                    "piece `{l}`: a Betza text of {} bytes (at most {MAX_BETZA} are read); the piece is left out",
                    betza.len()
                ),
                span,
            ));
            continue;
        }
        let moves = match parse_betza(betza) {
            Ok(m) => m,
            Err(why) => {
                diags.push(Diagnostic::warning(
                    CODE_UNSUPPORTED,
                    format!(
                        "piece `{l}`: Betza `{betza}`: {why} is not read; the piece is left out"
                    ),
                    span,
                ));
                continue;
            }
        };
        let zone = regions.get(name).map(|r| {
            let z = format!("mobility-{name}");
            for (i, sq) in r.iter().enumerate() {
                let positions = sq
                    .map(|v| v.split_whitespace().map(String::from).collect())
                    .unwrap_or_default();
                zones.push(Zone {
                    name: z.clone(),
                    players: vec![PLAYERS[i].into()],
                    positions,
                    glyph: None,
                    help: None,
                });
            }
            z
        });
        let mut atoms = moves;
        if janggi.cannons.contains(l) {
            for a in &mut atoms {
                if a.travel == Travel::Hop {
                    a.travel = Travel::JanggiHop;
                }
            }
            atoms.sort();
            atoms.dedup();
        }
        let mut blocks = Vec::new();
        if janggi.lines.is_some()
            && let Some(key) = janggi.line_keys.get(l)
        {
            for a in template::line_atoms(key) {
                let on = movements(&a, zone.as_deref(), name)
                    .into_iter()
                    .map(on_lines);
                blocks.extend(on);
                vectors.push(a.v);
            }
        }
        if rules.soldier == Some(*l) {
            blocks.extend(soldier_steps(zone.as_deref(), name, &mut vectors));
        }
        for a in &atoms {
            blocks.extend(movements(a, zone.as_deref(), name));
            if a.modality == Modality::CaptureEp {
                for victim in &rules.victims {
                    blocks.push(en_passant(a.v, victim));
                }
                vectors.extend([(a.v.0, 0), (0, a.v.1)]);
            }
        }
        if rules.promoting.contains(l) {
            promote(&mut blocks, &rules.promote_to, name);
        }
        let blocks: Vec<MoveBlock> = blocks.iter().map(movement::program).collect();
        for Atom { v, .. } in atoms {
            vectors.push(v);
            let mut at = (0, 0);
            for sq in lame_path(v).into_iter().chain([v]) {
                vectors.push((sq.0 - at.0, sq.1 - at.1));
                at = sq;
            }
        }
        spec_pieces.push(Piece {
            name: name.clone(),
            notation: Some(l.to_ascii_uppercase().to_string()),
            moves: blocks,
            ..Piece::default()
        });
    }
    (spec_pieces, vectors, zones)
}
