//! Reading `variants.ini` sections (a subset) into the spec: board size, custom pieces and the
//! king in Betza notation (leapers, riders, lame leapers, cannons; `m`/`c` and direction
//! modifiers, read with the same selection table the writer uses), mobility regions, the start
//! position, checkmate, stalemate and extinction. Every other key that changes the rules is
//! reported (`fsf::unsupported`) rather than ignored silently; inheritance is refused.

use super::betza::{Modality, Travel, Vector, atom_vectors, lame_path};
use crate::diag::{Diagnostic, FileId, Span};
use crate::spec::{
    Board, Cond, Dimension, Document, EntryKind, Game, Goal, GoalCond, GoalKind, Grid,
    GridDirection, Instr, Layout, MoveBlock, Piece, Placement, Source, Symmetry, Test, TurnOrder,
    Zone,
};
use std::collections::BTreeMap;

/// Diagnostic code: a key or Betza feature the reader does not turn into rules.
pub const CODE_UNSUPPORTED: &str = "fsf::unsupported";
/// Diagnostic code: a malformed section, key or value.
pub const CODE_SYNTAX: &str = "fsf::syntax";

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

struct Section<'t> {
    name: &'t str,
    at: usize,
    keys: Vec<(&'t str, &'t str, usize)>,
    /// `# zogkit: KEY = VALUE` comments before the section (names zogkit wrote: `title`,
    /// `piece LETTER`), which Fairy-Stockfish ignores.
    notes: Vec<(&'t str, &'t str)>,
}

fn sections<'t>(text: &'t str, file: FileId, diags: &mut Vec<Diagnostic>) -> Vec<Section<'t>> {
    let mut out: Vec<Section> = Vec::new();
    let mut notes = Vec::new();
    let mut offset = 0;
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
        if let Some(name) = l.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            if name.contains(':') {
                diags.push(Diagnostic::error(
                    CODE_UNSUPPORTED,
                    format!("section `[{name}]` inherits from another variant; only standalone sections are read"),
                    span,
                ));
            }
            out.push(Section {
                name,
                at,
                keys: Vec::new(),
                notes: std::mem::take(&mut notes),
            });
        } else if let (Some((k, v)), Some(s)) = (l.split_once('='), out.last_mut()) {
            s.keys.push((k.trim(), v.trim(), at));
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

/// One Betza movement: atoms with their modalities.
type Moves = Vec<(Travel, Modality, Vector)>;

/// Parses Betza text the way Fairy-Stockfish does (a subset): `None` names what is not read.
fn parse_betza(b: &str) -> Result<Moves, String> {
    let chars: Vec<char> = b.chars().collect();
    let mut out = Vec::new();
    let (mut mods, mut pairs, mut hop, mut lame) = (Vec::new(), Vec::<String>::new(), false, false);
    let mut i = 0;
    let vert = "fbvh";
    let horiz = "rlsh";
    while i < chars.len() {
        let c = chars[i];
        match c {
            'm' => mods.push(Modality::Move),
            'c' => mods.push(Modality::Capture),
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
                let (atoms, mut rider): (&[(i32, i32)], bool) = match c {
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
                            "`{c}` (only m, c, p, n, direction modifiers and atoms are read)"
                        ));
                    }
                };
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
                        for &m in &mods {
                            out.push((travel, m, v));
                        }
                    }
                }
                mods.clear();
                pairs.clear();
                hop = false;
                lame = false;
            }
        }
        i += 1;
    }
    Ok(out)
}

fn dir(v: Vector) -> String {
    format!("d{:+}{:+}", v.0, v.1)
}

fn test(t: Test) -> Cond {
    Cond::Test {
        test: t,
        at: None,
        move_type: None,
    }
}

fn target(m: Modality) -> Cond {
    match m {
        Modality::Move => test(Test::Empty),
        _ => test(Test::Enemy),
    }
}

/// The move program of one movement; `zone` is a mobility region the destination must be in.
fn program(travel: Travel, m: Modality, v: Vector, zone: Option<&str>) -> Vec<Vec<Instr>> {
    let d = || Instr::Step(dir(v));
    let tail = |to: Cond| {
        let mut t = vec![Instr::Verify(to)];
        if let Some(z) = zone {
            t.push(Instr::Verify(Cond::InZone {
                zone: z.into(),
                at: None,
            }));
        }
        t.push(Instr::plain_add());
        t
    };
    match travel {
        Travel::Leap => {
            let mut p = vec![d()];
            p.extend(tail(target(m)));
            vec![p]
        }
        Travel::Lame => {
            let mut p = Vec::new();
            let mut at = (0, 0);
            for s in lame_path(v).into_iter().chain([v]) {
                if at != (0, 0) {
                    p.push(Instr::Verify(test(Test::Empty)));
                }
                p.push(Instr::Step(dir((s.0 - at.0, s.1 - at.1))));
                at = s;
            }
            p.extend(tail(target(m)));
            vec![p]
        }
        Travel::Ride(0) if zone.is_none() => {
            let mut p = vec![
                d(),
                Instr::While {
                    cond: test(Test::Empty),
                    body: vec![Instr::plain_add(), d()],
                },
            ];
            if m != Modality::Move {
                p[1] = Instr::While {
                    cond: test(Test::Empty),
                    body: vec![d()],
                };
                p.extend(tail(test(Test::Enemy)));
            }
            vec![p]
        }
        Travel::Ride(n) => {
            let max = if n == 0 { 16 } else { n as usize };
            (1..=max)
                .map(|k| {
                    let mut p = vec![d()];
                    for _ in 1..k {
                        p.push(Instr::Verify(test(Test::Empty)));
                        p.push(d());
                    }
                    p.extend(tail(target(m)));
                    p
                })
                .collect()
        }
        Travel::Hop => {
            let mut p = vec![
                d(),
                Instr::While {
                    cond: test(Test::Empty),
                    body: vec![d()],
                },
                Instr::Verify(Cond::Not(Box::new(test(Test::Empty)))),
                d(),
            ];
            match m {
                Modality::Move => p.push(Instr::While {
                    cond: test(Test::Empty),
                    body: vec![Instr::plain_add(), d()],
                }),
                _ => {
                    p.push(Instr::While {
                        cond: test(Test::Empty),
                        body: vec![d()],
                    });
                    p.extend(tail(test(Test::Enemy)));
                }
            }
            vec![p]
        }
    }
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
    let mut vs: Vec<Vector> = Vec::new();
    for &v in vectors {
        for w in [v, (-v.0, -v.1), (v.0, -v.1), (-v.0, v.1)] {
            if !vs.contains(&w) {
                vs.push(w);
            }
        }
    }
    const CELL: i64 = 50;
    let layout = Layout {
        grids: vec![Grid {
            start_rectangle: [0, (ranks as i64 - 1) * CELL, CELL, ranks as i64 * CELL],
            dimensions: vec![
                Dimension {
                    labels: (0..files)
                        .map(|f| ((b'a' + f as u8) as char).to_string())
                        .collect(),
                    offset: [CELL, 0],
                },
                Dimension {
                    labels: (1..=ranks).map(|r| r.to_string()).collect(),
                    offset: [0, -CELL],
                },
            ],
            directions: vs
                .iter()
                .map(|v| GridDirection {
                    name: dir(*v),
                    delta: vec![v.0 as i64, v.1 as i64],
                })
                .collect(),
        }],
        ..Layout::default()
    };
    let (computed, _) = crate::spec::geometry::compute(&layout);
    Board {
        opposites: crate::spec::geometry::opposites(&computed.directions, &computed.positions),
        directions: computed.directions,
        positions: computed.positions,
        symmetries: vec![Symmetry {
            player: PLAYERS[1].to_string(),
            map: vs.iter().map(|v| [dir(*v), dir((v.0, -v.1))]).collect(),
        }],
        layout,
        ..Board::default()
    }
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
        source: Source {
            format: "fsf".into(),
            file: name.rsplit(['/', '\\']).next().unwrap_or(name).to_string(),
            ..Source::default()
        },
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
    let get = |k: &str| s.keys.iter().rev().find(|x| x.0 == k).map(|x| x.1);
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
        s.keys
            .iter()
            .rev()
            .find(|x| x.0 == key)
            .and_then(|x| piece_def(x.1))
            .and_then(|(l, _)| note(&format!("piece {l}")))
            .map_or(generic, str::to_string)
    };
    let king = named("king", "King".into());
    for &(k, v, at) in &s.keys {
        if let Some(n) = k.strip_prefix("customPiece") {
            match piece_def(v) {
                Some((l, b)) => pieces.push((l, named(k, format!("Custom{n}")), b, false)),
                None => diags.push(Diagnostic::error(
                    CODE_SYNTAX,
                    "expected `letter:betza`",
                    line_span(at),
                )),
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
            let (side, who) = if let Some(w) = rest.strip_prefix("White") {
                (0, w)
            } else {
                (1, rest.strip_prefix("Black").unwrap_or(rest))
            };
            let who = if let Some(n) = who.strip_prefix("CustomPiece") {
                named(&format!("customPiece{n}"), format!("Custom{n}"))
            } else if who == "King" {
                king.clone()
            } else {
                who.to_string()
            };
            regions.entry(who).or_insert([None, None])[side] = Some(v);
        } else if k == "stalemateValue" || k == "extinctionValue" {
            let kind = match v {
                "win" => GoalKind::Win,
                "loss" => GoalKind::Loss,
                "draw" => GoalKind::Draw,
                _ => continue,
            };
            let condition = if k == "stalemateValue" {
                GoalCond::Stalemated
            } else {
                let types = get("extinctionPieceTypes").unwrap_or("");
                let count = get("extinctionPieceCount").unwrap_or("0");
                let piece = types
                    .chars()
                    .next()
                    .and_then(|c| pieces.iter().find(|p| p.0 == c).map(|p| p.1.clone()));
                if types.len() != 1 || piece.is_none() || count != "0" {
                    diags.push(Diagnostic::warning(
                        CODE_UNSUPPORTED,
                        "only the extinction of one piece type is read",
                        line_span(at),
                    ));
                    continue;
                }
                GoalCond::PiecesRemaining {
                    count: "0".into(),
                    piece,
                }
            };
            goals.push(Goal {
                kind,
                players: PLAYERS.map(String::from).to_vec(),
                condition,
            });
        } else if !matches!(
            k,
            "maxFile" | "maxRank" | "startFen" | "extinctionPieceTypes"
        ) && !harmless(k, v)
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
    let (spec_pieces, vectors, zones) = build_pieces(&pieces, &regions, diags, line_span(s.at));
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
    Some(Game {
        kind: EntryKind::Game,
        title: note("title").unwrap_or(s.name).to_string(),
        variant_of: None,
        default: false,
        texts: Default::default(),
        players: PLAYERS.map(String::from).to_vec(),
        turn_order: TurnOrder::alternating(&PLAYERS),
        options: Vec::new(),
        sounds: Vec::new(),
        boards: vec![board],
        pieces: spec_pieces,
        setup,
        goals,
        move_priorities: Vec::new(),
        engine: None,
        extensions: Default::default(),
    })
}

/// A piece definition: letter, piece name, Betza text, royal.
type PieceDef = (char, String, String, bool);

/// The spec pieces of the section's definitions, the vectors their moves use and the zones of
/// their mobility regions.
fn build_pieces(
    pieces: &[PieceDef],
    regions: &BTreeMap<String, [Option<&str>; 2]>,
    diags: &mut Vec<Diagnostic>,
    span: Span,
) -> (Vec<Piece>, Vec<Vector>, Vec<Zone>) {
    let mut spec_pieces = Vec::new();
    let mut vectors: Vec<Vector> = Vec::new();
    let mut zones = Vec::new();
    for (l, name, betza, _) in pieces {
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
        let mut blocks = Vec::new();
        for (t, m, v) in moves {
            for p in program(t, m, v, zone.as_deref()) {
                blocks.push(MoveBlock {
                    move_type: None,
                    program: p,
                });
            }
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
