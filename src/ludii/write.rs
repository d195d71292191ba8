//! Spec → `.lud`: readable, indented Ludii text for the supported subset, with diagnostics for the rest.
//!
//! Move blocks are recognised by the shapes the reader produces (step, slide, slide with an exact
//! distance, hop, cannon hop, leap, two-step) and consecutive blocks that differ only in their
//! direction are written as one ludeme with a direction set. A move ludeme used by several
//! pieces is written once as a `(define …)`. `read_lud(write_lud(spec)) == spec` holds for
//! every spec `read_lud` produces.

use super::board::{self, COMPASS, Geo};
use super::expand::split_label;
use super::lower::relative_name;
use super::syntax::{self, Node};
use crate::diag::{Diagnostic, FileId, Severity};
use crate::spec::moves::{Shape, is_add, is_empty_test, shape};
use crate::spec::{Cond, Document, Game, GoalCond, GoalKind, Instr, MoveBlock, Test};
use std::fmt::Write as _;

/// Diagnostic code: part of the spec has no `.lud` form in the supported subset.
pub const CODE_NOT_EXPRESSIBLE: &str = "ludii::not-expressible";

/// Width the writer wraps ludemes at.
const WIDTH: usize = 100;

/// Re-lays compact ludeme text over several lines when it is long.
fn lay(text: &str, indent: usize) -> String {
    let (nodes, d) = syntax::parse(text, FileId(u32::MAX));
    match (d.is_empty(), nodes.as_slice()) {
        (true, [n]) => syntax::pretty(n, indent, WIDTH),
        _ => text.to_string(),
    }
}

fn warn(diags: &mut Vec<Diagnostic>, msg: String) {
    diags.push(Diagnostic::new(
        Severity::Warning,
        CODE_NOT_EXPRESSIBLE,
        msg,
        None,
    ));
}

/// Writes the first game of `doc` as a `.lud` file. Diagnostics list everything that could not
/// be expressed (it is left out of the text).
pub fn write_lud(doc: &Document) -> (String, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let Some(game) = doc.games.first() else {
        warn(&mut diags, "the document has no game".into());
        return (String::new(), diags);
    };
    if doc.games.len() > 1 {
        warn(
            &mut diags,
            format!(
                "a .lud file holds one game; {} further games and variants are not written",
                doc.games.len() - 1
            ),
        );
    }
    let text = write_game(game, &mut diags);
    (text, diags)
}

struct Ctx<'a> {
    geo: Option<Geo>,
    mirrored: bool,
    diags: &'a mut Vec<Diagnostic>,
}

fn write_game(g: &Game, diags: &mut Vec<Diagnostic>) -> String {
    let board = g.boards.first();
    if g.boards.len() > 1 {
        warn(diags, "only the first board is written".into());
    }
    let (board_text, geo) = match board {
        Some(b) => board_ludeme(b, diags),
        None => {
            warn(diags, "the game has no board".into());
            (None, None)
        }
    };
    let mirrored = board.is_some_and(|b| !b.symmetries.is_empty());
    let mut cx = Ctx {
        geo,
        mirrored,
        diags,
    };
    // Extensions by section.
    let mut ext_equipment = Vec::new();
    let mut ext_start = Vec::new();
    let mut ext_end = Vec::new();
    let mut ext_rules = Vec::new();
    let mut ext_play = None;
    let mut ext_game = Vec::new();
    let mut metadata = None;
    let mut comments = Vec::new();
    for e in &g.extensions.ludii {
        let (nodes, d) = syntax::parse(e, FileId(u32::MAX));
        if is_comment(e) {
            comments.push(e.clone());
            continue;
        }
        if !d.is_empty() || nodes.len() != 1 {
            warn(
                cx.diags,
                format!("extension `{e}` is not a ludeme; left out"),
            );
            continue;
        }
        let n = &nodes[0];
        let inner = |n: &Node| -> Vec<String> {
            n.args()
                .iter()
                .flat_map(|a| match a {
                    Node::Array(items, _) => items.iter().map(syntax::print).collect::<Vec<_>>(),
                    other => vec![syntax::print(other)],
                })
                .collect()
        };
        match n.head() {
            Some("equipment") => ext_equipment.extend(inner(n)),
            Some("start") => ext_start.extend(inner(n)),
            Some("end") => ext_end.extend(inner(n)),
            Some("rules") => {
                for i in n.args() {
                    if i.head() == Some("play") {
                        ext_play = Some(syntax::print(i));
                    } else {
                        ext_rules.push(syntax::print(i));
                    }
                }
            }
            Some("metadata") => metadata = Some(e.clone()),
            _ => ext_game.push(e.clone()),
        }
    }

    let mut out = String::new();
    // Move ludemes per piece, then defines for those used by several pieces.
    let mut piece_moves: Vec<Vec<String>> = Vec::new();
    for p in &g.pieces {
        let mut v = moves_ludemes(&p.name, &p.moves, &mut cx);
        for e in &p.extensions.ludii {
            let (nodes, d) = syntax::parse(e, FileId(u32::MAX));
            if is_comment(e) {
                continue;
            }
            if d.is_empty() && nodes.len() == 1 {
                v.push(syntax::print(&nodes[0]));
            } else {
                warn(
                    cx.diags,
                    format!(
                        "extension `{e}` of piece `{}` is not a ludeme; left out",
                        p.name
                    ),
                );
            }
        }
        if !p.drops.is_empty() && !is_simple_drop(&p.drops) {
            warn(
                cx.diags,
                format!("drops of piece `{}` are not written", p.name),
            );
        }
        for t in [&p.texts.help, &p.texts.description] {
            if t.is_some() {
                warn(
                    cx.diags,
                    format!("texts of piece `{}` are not written", p.name),
                );
            }
        }
        piece_moves.push(v);
    }
    let mut defines: Vec<(String, String)> = Vec::new();
    for (i, v) in piece_moves.iter().enumerate() {
        for m in v {
            let used_elsewhere = piece_moves
                .iter()
                .enumerate()
                .any(|(j, w)| j != i && w.contains(m));
            if used_elsewhere && !defines.iter().any(|(_, t)| t == m) {
                let name = format!("Move{}", defines.len() + 1);
                defines.push((name, m.clone()));
            }
        }
    }
    for (name, body) in &defines {
        let _ = writeln!(out, "(define \"{name}\"");
        let _ = writeln!(out, "    {}", lay(body, 4));
        let _ = writeln!(out, ")\n");
    }
    let call = |m: &String| -> String {
        defines
            .iter()
            .find(|(_, b)| b == m)
            .map(|(n, _)| format!("\"{n}\""))
            .unwrap_or_else(|| m.clone())
    };

    for c in &comments {
        let _ = writeln!(out, "{}", c.replace('\n', " "));
    }
    let _ = write!(out, "(game ");
    syntax::quote_into(&g.title, &mut out);
    out.push('\n');
    // Players.
    if mirrored {
        let b = board.unwrap();
        let mut ps = Vec::new();
        for p in &g.players {
            let facing = b
                .symmetries
                .iter()
                .find(|s| &s.player == p)
                .and_then(|s| s.map.iter().find(|[a, _]| a == "N"))
                .map(|[_, f]| f.clone())
                .unwrap_or_else(|| "N".into());
            ps.push(format!("(player {facing})"));
        }
        let _ = writeln!(out, "    (players {{{}}})", ps.join(" "));
    } else {
        let _ = writeln!(out, "    (players {})", g.players.len().max(1));
    }
    let expected: Vec<String> = (1..=g.players.len()).map(|i| format!("P{i}")).collect();
    if g.players != expected {
        warn(
            cx.diags,
            format!(
                "Ludii players are P1…Pn; the names {:?} are not written",
                g.players
            ),
        );
    }
    // Equipment.
    let _ = writeln!(out, "    (equipment {{");
    if let Some(t) = &board_text {
        let _ = writeln!(out, "        {t}");
    }
    for (p, moves) in g.pieces.iter().zip(&piece_moves) {
        let mut name = String::new();
        syntax::quote_into(&p.name, &mut name);
        let notes: Vec<&String> = p
            .extensions
            .ludii
            .iter()
            .filter(|e| is_comment(e))
            .collect();
        if !notes.is_empty() {
            // Comments end at the line break: write the piece over several lines.
            let _ = writeln!(out, "        (piece {name} Each");
            if !moves.is_empty() {
                let _ = writeln!(out, "            (or {{");
                for m in moves {
                    let _ = writeln!(out, "                {}", lay(&call(m), 16));
                }
                let _ = writeln!(out, "            }})");
            }
            for c in notes {
                let _ = writeln!(out, "            {}", c.replace('\n', " "));
            }
            let _ = writeln!(out, "        )");
            continue;
        }
        match moves.len() {
            0 => {
                let _ = writeln!(out, "        (piece {name} Each)");
            }
            1 => {
                let one = format!("        (piece {name} Each {})", call(&moves[0]));
                if one.len() <= WIDTH {
                    let _ = writeln!(out, "{one}");
                } else {
                    let _ = writeln!(out, "        (piece {name} Each");
                    let _ = writeln!(out, "            {}", lay(&call(&moves[0]), 12));
                    let _ = writeln!(out, "        )");
                }
            }
            _ => {
                let _ = writeln!(out, "        (piece {name} Each");
                let _ = writeln!(out, "            (or {{");
                for m in moves {
                    let _ = writeln!(out, "                {}", lay(&call(m), 16));
                }
                let _ = writeln!(out, "            }})");
                let _ = writeln!(out, "        )");
            }
        }
    }
    if let Some(b) = board {
        for z in &b.zones {
            let owner = if z.players == g.players {
                String::new()
            } else if z.players.len() == 1 {
                format!(" {}", z.players[0])
            } else {
                warn(
                    cx.diags,
                    format!("zone `{}` belongs to several but not all players", z.name),
                );
                continue;
            };
            let Some(sites) = site_list(&z.positions, &cx) else {
                warn(
                    cx.diags,
                    format!("zone `{}` has positions off the board", z.name),
                );
                continue;
            };
            let mut name = String::new();
            syntax::quote_into(&z.name, &mut name);
            let _ = writeln!(out, "        (regions {name}{owner} {sites})");
        }
    }
    for e in &ext_equipment {
        let _ = writeln!(out, "        {}", lay(e, 8));
    }
    let _ = writeln!(out, "    }})");
    // Rules.
    let _ = writeln!(out, "    (rules");
    if !g.setup.is_empty() || !ext_start.is_empty() {
        let _ = writeln!(out, "        (start {{");
        for s in &g.setup {
            let Some(k) = g.players.iter().position(|p| *p == s.player) else {
                warn(cx.diags, format!("setup for unknown player `{}`", s.player));
                continue;
            };
            if s.off.is_some() {
                warn(
                    cx.diags,
                    format!("pieces held off the board ({}) are not written", s.piece),
                );
            }
            if s.positions.is_empty() {
                continue;
            }
            let mut item = String::new();
            syntax::quote_into(&format!("{}{}", s.piece, k + 1), &mut item);
            let coords: Vec<String> = s
                .positions
                .iter()
                .map(|p| {
                    let mut q = String::new();
                    syntax::quote_into(p, &mut q);
                    q
                })
                .collect();
            if coords.len() == 1 {
                let _ = writeln!(out, "            (place {item} coord:{})", coords[0]);
            } else {
                let _ = writeln!(out, "            (place {item} {{{}}})", coords.join(" "));
            }
        }
        for e in &ext_start {
            let _ = writeln!(out, "            {}", lay(e, 12));
        }
        let _ = writeln!(out, "        }})");
    }
    let play = match ext_play {
        Some(p) => p,
        None if g.pieces.iter().any(|p| is_simple_drop(&p.drops)) => {
            "(play (move Add (to (sites Empty))))".to_string()
        }
        None => "(play (forEach Piece))".to_string(),
    };
    let _ = writeln!(out, "        {}", lay(&play, 8));
    let mut ends = Vec::new();
    for goal in &g.goals {
        if goal.players != g.players {
            warn(
                cx.diags,
                "a goal for only some players is not written".into(),
            );
            continue;
        }
        match goal_ludeme(goal.kind, &goal.condition) {
            Some(t) => ends.push(t),
            None => warn(
                cx.diags,
                format!("goal {:?} has no .lud form here", goal.condition),
            ),
        }
    }
    ends.extend(ext_end);
    if !ends.is_empty() {
        let _ = writeln!(out, "        (end {{");
        for e in &ends {
            let _ = writeln!(out, "            {}", lay(e, 12));
        }
        let _ = writeln!(out, "        }})");
    }
    for e in &ext_rules {
        let _ = writeln!(out, "        {}", lay(e, 8));
    }
    let _ = writeln!(out, "    )");
    for e in &ext_game {
        let _ = writeln!(out, "    {}", lay(e, 4));
    }
    let _ = writeln!(out, ")");
    match metadata {
        Some(m) => {
            let _ = writeln!(out, "\n{}", lay(&m, 0));
        }
        None => {
            if let Some(d) = &g.texts.description {
                let mut q = String::new();
                syntax::quote_into(d, &mut q);
                let _ = writeln!(out, "\n(metadata (info {{(description {q})}}))");
            }
        }
    }
    for (what, set) in [
        ("turn order", !g.turn_order.is_empty()),
        ("options", !g.options.is_empty()),
        ("sounds", !g.sounds.is_empty()),
        ("move priorities", !g.move_priorities.is_empty()),
        ("ZRF extensions", !g.extensions.zrf.is_empty()),
        ("Chessembly extensions", !g.extensions.chessembly.is_empty()),
    ] {
        if set {
            warn(cx.diags, format!("{what} are not written"));
        }
    }
    out
}

/// A `.lud` comment kept on the spec (the English reader's unresolved phrases).
fn is_comment(e: &str) -> bool {
    e.starts_with("//")
}

fn is_simple_drop(drops: &[MoveBlock]) -> bool {
    drops.len() == 1
        && drops[0].move_type.is_none()
        && matches!(drops[0].program.as_slice(),
            [Instr::Verify(Cond::Test { test: Test::Empty, at: None, move_type: None }), a] if is_add(a))
}

fn board_ludeme(
    b: &crate::spec::Board,
    diags: &mut Vec<Diagnostic>,
) -> (Option<String>, Option<Geo>) {
    if let Some(t) = b.extensions.ludii.iter().find(|e| e.starts_with("(board ")) {
        let (nodes, d) = syntax::parse(t, FileId(u32::MAX));
        if d.is_empty()
            && let Some(n) = nodes.first()
        {
            let mut tmp = Vec::new();
            let mut l = super::lower::Lower {
                diags: &mut tmp,
                geo: None,
                players: vec![],
                facings: vec![],
                ext: vec![],
                zone_names: vec![],
            };
            if l.board(n).is_some() {
                return (Some(t.clone()), l.geo);
            }
        }
    }
    // A full rectangle of A1-style labels in Ludii order.
    let labels: Option<Vec<(usize, usize)>> =
        b.positions.iter().map(|p| split_label(&p.name)).collect();
    if let Some(labels) = labels {
        let cols = labels.iter().map(|l| l.0).max().map_or(0, |c| c + 1);
        let rows = labels.iter().map(|l| l.1).max().unwrap_or(0);
        if cols * rows == labels.len() && cols > 0 {
            let geo = board::grid(rows, cols);
            let same = b.positions.iter().all(|p| geo.index_of(&p.name).is_some());
            if same {
                let t = if rows == cols {
                    format!("(board (square {rows}))")
                } else {
                    format!("(board (rectangle {rows} {cols}))")
                };
                return (Some(t), Some(geo));
            }
        }
    }
    warn(
        diags,
        "the board is neither a Ludii board nor a labelled rectangle; it is not written".into(),
    );
    (None, None)
}

fn site_list(positions: &[String], cx: &Ctx) -> Option<String> {
    let geo = cx.geo.as_ref()?;
    let idx: Option<Vec<usize>> = positions.iter().map(|p| geo.index_of(p)).collect();
    let idx = idx?;
    let mut parts = Vec::new();
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && idx[j + 1] == idx[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(format!("{}..{}", idx[i], idx[j]));
        } else {
            for k in &idx[i..=j] {
                parts.push(k.to_string());
            }
        }
        i = j + 1;
    }
    Some(format!("{{{}}}", parts.join(" ")))
}

// ---------------------------------------------------------------- conditions

fn cond_lud(c: &Cond, loc: &str) -> Option<String> {
    Some(match c {
        Cond::Const(true) => "True".into(),
        Cond::Const(false) => "False".into(),
        Cond::Test {
            test,
            at: None,
            move_type: None,
        } => match test {
            Test::Empty => format!("(is Empty ({loc}))"),
            Test::Friend => format!("(is Friend (who at:({loc})))"),
            Test::Enemy => format!("(is Enemy (who at:({loc})))"),
            _ => return None,
        },
        Cond::InZone { zone, at: None } => {
            let mut q = String::new();
            syntax::quote_into(zone, &mut q);
            format!("(is In ({loc}) (sites Mover {q}))")
        }
        Cond::Not(x) => format!("(not {})", cond_lud(x, loc)?),
        Cond::And(v) | Cond::Or(v) => {
            let parts: Option<Vec<String>> = v.iter().map(|x| cond_lud(x, loc)).collect();
            let head = if matches!(c, Cond::And(_)) {
                "and"
            } else {
                "or"
            };
            format!("({head} {{{}}})", parts?.join(" "))
        }
        _ => return None,
    })
}

// ---------------------------------------------------------------- moves

/// Compass index of a direction name in any case (ZRF writes `n`, `ne`, …).
fn compass_ci(d: &str) -> Option<usize> {
    COMPASS.iter().position(|c| c.eq_ignore_ascii_case(d))
}

fn dirs_lud(dirs: &[String], cx: &Ctx) -> Option<String> {
    let geo = cx.geo.as_ref()?;
    let eq = |set: &[&str]| set.len() == dirs.len() && set.iter().zip(dirs).all(|(a, b)| a == b);
    if !geo.orth.is_empty() && eq(&geo.orth) {
        return Some("Orthogonal".into());
    }
    if !geo.diag.is_empty() && eq(&geo.diag) {
        return Some("Diagonal".into());
    }
    if eq(&geo.dirs) {
        return Some("Adjacent".into());
    }
    let names: Option<Vec<String>> = dirs
        .iter()
        .map(|d| {
            let i = compass_ci(d)?;
            Some(if cx.mirrored {
                relative_name(i as i32).to_string()
            } else {
                COMPASS[i].to_string()
            })
        })
        .collect();
    Some(format!("(directions {{{}}})", names?.join(" ")))
}

fn from_lud(from: &Option<Cond>) -> Option<String> {
    match from {
        None => Some(String::new()),
        Some(c) => Some(format!(" (from if:{})", cond_lud(c, "from")?)),
    }
}

fn to_lud(to: &Cond) -> Option<String> {
    let c = cond_lud(to, "to")?;
    Some(if is_empty_test(to) {
        format!("(to if:{c})")
    } else {
        format!("(to if:{c} (apply (remove (to))))")
    })
}

fn walk(seq: &[String]) -> Option<String> {
    let mut facing = 0usize;
    let mut out = Vec::new();
    for d in seq {
        let t = compass_ci(d)?;
        if t % 2 == 1 {
            return None;
        }
        match (t + 8 - facing) % 8 {
            0 => {}
            2 => out.push("R"),
            6 => out.push("L"),
            _ => out.extend(["R", "R"]),
        }
        out.push("F");
        facing = t;
    }
    Some(format!("{{{}}}", out.join(" ")))
}

fn ludeme(s: &Shape, group: &[Vec<String>], cx: &Ctx) -> Option<String> {
    let singles = || -> Vec<String> { group.iter().map(|d| d[0].clone()).collect() };
    Some(match s {
        Shape::Step { from, to } => format!(
            "(move Step{} {} {})",
            from_lud(from)?,
            dirs_lud(&singles(), cx)?,
            to_lud(to)?
        ),
        Shape::Slide { from, go, stop } => {
            let mut t = format!(
                "(move Slide{} {}",
                from_lud(from)?,
                dirs_lud(&singles(), cx)?
            );
            if !is_empty_test(go) {
                let _ = write!(t, " (between if:{})", cond_lud(go, "between")?);
            }
            if let Some(st) = stop {
                let _ = write!(t, " {}", to_lud(st)?);
            }
            t.push(')');
            t
        }
        Shape::SlideExact { from, go, land, n } => format!(
            "(move Slide{} {} (between (exact {n}) if:{}) {})",
            from_lud(from)?,
            dirs_lud(&singles(), cx)?,
            cond_lud(go, "between")?,
            to_lud(land)?
        ),
        Shape::Hop {
            from,
            hurdle,
            capture,
            land,
        } => format!(
            "(move Hop{} {} (between if:{}{}) (to if:{}))",
            from_lud(from)?,
            dirs_lud(&singles(), cx)?,
            cond_lud(hurdle, "between")?,
            if *capture {
                " (apply (remove (between)))"
            } else {
                ""
            },
            cond_lud(land, "to")?
        ),
        Shape::Cannon {
            from,
            hurdle,
            go,
            stop,
        } => format!(
            "(move Hop{} {} (between before:(count Rows) after:(count Rows) if:{}) (to if:{} (apply if:{} (remove (to)))))",
            from_lud(from)?,
            dirs_lud(&singles(), cx)?,
            cond_lud(hurdle, "between")?,
            cond_lud(go, "to")?,
            cond_lud(stop, "to")?
        ),
        Shape::Leap { from, to, .. } => {
            let walks: Option<Vec<String>> = group.iter().map(|g| walk(g)).collect();
            format!(
                "(move Leap{} {{{}}} rotations:False {})",
                from_lud(from)?,
                walks?.join(" "),
                to_lud(to)?
            )
        }
        Shape::Two { c1, c2 } => {
            let mut firsts: Vec<String> = Vec::new();
            for g in group {
                if !firsts.contains(&g[0]) {
                    firsts.push(g[0].clone());
                }
            }
            let turn = |a: &str, b: &str| -> Option<i32> {
                Some(
                    (board::compass_index(b)? as i32 - board::compass_index(a)? as i32)
                        .rem_euclid(8),
                )
            };
            let rel: Option<Vec<i32>> = group
                .iter()
                .filter(|g| g[0] == firsts[0])
                .map(|g| turn(&g[0], &g[1]))
                .collect();
            let rel = rel?;
            let mut product = Vec::new();
            for f in &firsts {
                for r in &rel {
                    product.push(vec![f.clone(), board::rotate(f, *r)?.to_string()]);
                }
            }
            if product != group {
                return None;
            }
            let rel_names: Vec<&str> = rel.iter().map(|r| relative_name(*r)).collect();
            format!(
                "(forEach Direction {} (to if:{} (apply (forEach Direction (from (to)) (directions {{{}}}) (if {} (move (from) (to (to))))))))",
                dirs_lud(&firsts, cx)?,
                cond_lud(c1, "to")?,
                rel_names.join(" "),
                cond_lud(c2, "to")?
            )
        }
    })
}

fn moves_ludemes(piece: &str, blocks: &[MoveBlock], cx: &mut Ctx) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < blocks.len() {
        let Some((s, d)) = shape(&blocks[i]) else {
            warn(
                cx.diags,
                format!(
                    "move block {} of piece `{piece}` has no .lud form here",
                    i + 1
                ),
            );
            i += 1;
            continue;
        };
        let mut group = vec![d];
        let mut j = i + 1;
        while j < blocks.len() {
            match shape(&blocks[j]) {
                Some((s2, d2)) if s2 == s && !group.contains(&d2) => {
                    group.push(d2);
                    j += 1;
                }
                _ => break,
            }
        }
        // Try the whole group; fall back to one ludeme per block.
        match ludeme(&s, &group, cx) {
            Some(t) => out.push(t),
            None => {
                for (k, g) in group.iter().enumerate() {
                    match ludeme(&s, std::slice::from_ref(g), cx) {
                        Some(t) => out.push(t),
                        None => warn(
                            cx.diags,
                            format!(
                                "move block {} of piece `{piece}` has no .lud form here",
                                i + k + 1
                            ),
                        ),
                    }
                }
            }
        }
        i = j;
    }
    out
}

// ---------------------------------------------------------------- goals

fn goal_ludeme(kind: GoalKind, c: &GoalCond) -> Option<String> {
    let (subject, cond) = match c {
        GoalCond::Stalemated => ("Next", "(no Moves Next)".to_string()),
        GoalCond::PiecesRemaining { count, piece: None } if count == "0" => {
            ("Next", "(no Pieces Next)".to_string())
        }
        GoalCond::Checkmated { pieces } if pieces.len() == 1 => {
            let k = &pieces[0];
            let mut q = String::new();
            syntax::quote_into(k, &mut q);
            (
                "Next",
                format!("(and (is Threatened (id {q} Next)) (no Moves Next))"),
            )
        }
        GoalCond::Line { length, directions } => match directions.as_slice() {
            [] => ("Mover", format!("(is Line {length})")),
            [d] => ("Mover", format!("(is Line {length} {d})")),
            _ => return None,
        },
        GoalCond::Connected { zones } => {
            if zones.is_empty() {
                ("Mover", "(is Connected Mover)".to_string())
            } else {
                let z: Vec<String> = zones
                    .iter()
                    .map(|z| {
                        let mut q = String::new();
                        syntax::quote_into(z, &mut q);
                        format!("(sites Mover {q})")
                    })
                    .collect();
                ("Mover", format!("(is Connected {{{}}})", z.join(" ")))
            }
        }
        _ => return None,
    };
    let result = match kind {
        GoalKind::Count => "(byScore)".to_string(),
        GoalKind::Draw => "(result Mover Draw)".to_string(),
        GoalKind::Win | GoalKind::Loss => {
            let win = (kind == GoalKind::Win) == (subject == "Mover");
            format!("(result Mover {})", if win { "Win" } else { "Loss" })
        }
    };
    Some(format!("(if {cond} {result})"))
}
