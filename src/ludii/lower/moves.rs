//! A piece's Ludii move ludemes (`Step`, `Slide`, `Hop`, `Leap`, the two-step `forEach Direction`) lowered through the movement table (`spec::movement`).

use super::{CAPTURE, Lower, cond_test, int, is_loc, items_or_args, not, region_name};
use crate::ludii::board::{self, COMPASS};
use crate::ludii::syntax::{Node, print};
use crate::spec::movement::{self, Continuation, Hurdle, Movement, Promotion, Travel};
use crate::spec::{Cond, Instr, MoveBlock, Piece, RawFormat, Test};

impl Lower<'_> {
    /// Lowers a piece's moves; alternatives that cannot be lowered are kept verbatim.
    pub fn piece_moves(&mut self, n: &Node, piece: &mut Piece) {
        let alts: Vec<&Node> = if n.head() == Some("or") {
            let args: Vec<&Node> = n.positional().collect();
            if let [Node::Array(items, _)] = args.as_slice() {
                items.iter().collect()
            } else {
                args
            }
        } else {
            vec![n]
        };
        let (per, alts) = mover_branches(&alts);
        if !per.is_empty() && !self.per_player(&per, &mut piece.moves) {
            for (_, a) in &per {
                self.unmapped(&format!("a move of piece `{}`", piece.name), a);
                piece.extensions.push(RawFormat::Ludii, print(a));
            }
        }
        for a in alts {
            match self.moves(a) {
                Some(blocks) => piece.moves.extend(blocks),
                None => {
                    self.unmapped(&format!("a move of piece `{}`", piece.name), a);
                    piece.extensions.push(RawFormat::Ludii, print(a));
                }
            }
        }
    }

    pub(super) fn moves(&mut self, n: &Node) -> Option<Vec<MoveBlock>> {
        let args: Vec<&Node> = n.positional().collect();
        match (n.head()?, args.as_slice()) {
            ("or", parts) => {
                let mut v = Vec::new();
                let (per, rest) = mover_branches(&items_or_args(parts));
                if !per.is_empty() && !self.per_player(&per, &mut v) {
                    return None;
                }
                for p in rest {
                    v.extend(self.moves(p)?);
                }
                Some(v)
            }
            ("if", [c, a]) if is_from_to(a) => self.path_move(c, a),
            ("if", [c, a, rest @ ..]) if rest.len() <= 1 => {
                let c = self.cond(c)?;
                let mut v = prefix(self.moves(a)?, c.clone());
                if let [b] = rest {
                    v.extend(prefix(self.moves(b)?, not(c)));
                }
                Some(v)
            }
            ("move", [f, t])
                if n.args().len() == 2
                    && print(f) == "(from)"
                    && print(t) == "(to (sites Empty))" =>
            {
                self.to_any_empty_site()
            }
            ("move", [Node::Atom(kind, _), rest @ ..]) => {
                let parts = MoveParts::split(rest)?;
                match kind.as_str() {
                    "Step" => self.step(&parts),
                    "Slide" => self.slide(&parts),
                    "Hop" => self.hop(&parts),
                    "Leap" => self.leap(n, &parts),
                    _ => None,
                }
            }
            ("forEach", [Node::Atom(k, _), d1, to]) if k == "Direction" => self.two_step(d1, to),
            _ => None,
        }
    }

    /// `(move (from) (to (sites Empty)))`: the piece goes to any empty site of the board, one
    /// movement to each site.
    fn to_any_empty_site(&self) -> Option<Vec<MoveBlock>> {
        let geo = self.geo.as_ref()?;
        geo.names
            .iter()
            .map(|site| {
                let m = Movement::new(Travel::To(site.clone()), movement::Land::Empty);
                m.is_normal().then(|| movement::program(&m))
            })
            .collect()
    }

    /// The writer's per-player branches `(if (is Mover Pk) Xk)`, one per player in turn for
    /// each move whose absolute Ludii form differs between players (a leap's walks, a path of
    /// `ahead` steps): the spec says such a move once, in the first player's directions, and
    /// the board's symmetries turn it for the others. So they read as the first player's
    /// moves when every other player's are exactly those turned by that player's facing;
    /// appended to `out`. False (nothing appended) otherwise.
    fn per_player(&mut self, per: &[(usize, &Node)], out: &mut Vec<MoveBlock>) -> bool {
        let players = self.players.len();
        let mut blocks: Vec<Vec<MoveBlock>> = vec![Vec::new(); players];
        for &(k, x) in per {
            match (blocks.get_mut(k), self.moves(x)) {
                (Some(b), Some(v)) => b.extend(v),
                _ => return false,
            }
        }
        let facing = |k: usize| -> Option<i32> {
            let f = self.facings.get(k)?.as_deref()?;
            Some(board::compass_index(f)? as i32)
        };
        let Some(first) = facing(0) else {
            return false;
        };
        for (k, theirs) in blocks.iter().enumerate().skip(1) {
            let Some(turn) = facing(k).map(|f| f - first) else {
                return false;
            };
            let same = blocks[0].len() == theirs.len()
                && blocks[0].iter().zip(theirs).all(|(a, b)| {
                    let a = movement::recognise(a)
                        .ok()
                        .and_then(|m| m.turned(|d| board::rotate(d, turn).map(str::to_string)));
                    a.is_some() && a == movement::recognise(b).ok()
                });
            if !same {
                return false;
            }
        }
        out.append(&mut blocks[0]);
        true
    }

    /// The consequences after a move: none, or a promotion on arrival, `(then (if (is In
    /// (last To) (sites [Mover] "R")) (promote (last To) (piece "Q" | {"Q" …}) Mover)))`
    /// (a choice when several pieces are named). `None`: something else.
    fn promotion_of(&self, extra: &[&Node]) -> Option<Tail> {
        let t = match extra {
            [] => return Some(Tail::default()),
            [t] => *t,
            _ => return None,
        };
        let [i] = t.positional().collect::<Vec<_>>()[..] else {
            return None;
        };
        let [c, a] = i.positional().collect::<Vec<_>>()[..] else {
            return None;
        };
        let [last, what, who] = a.positional().collect::<Vec<_>>()[..] else {
            return None;
        };
        let zone = match c.positional().collect::<Vec<_>>()[..] {
            [Node::Atom(k, _), at, region] if k == "In" && print(at) == "(last To)" => {
                region_name(region).filter(|z| self.zone_names.contains(z))?
            }
            _ => return None,
        };
        let pieces: Vec<String> = match what.positional().collect::<Vec<_>>()[..] {
            [Node::Str(q, _)] => vec![q.clone()],
            [Node::Array(items, _)] => items
                .iter()
                .map(|q| match q {
                    Node::Str(q, _) => Some(q.clone()),
                    _ => None,
                })
                .collect::<Option<_>>()?,
            _ => return None,
        };
        let shaped = t.head() == Some("then")
            && i.head() == Some("if")
            && c.head() == Some("is")
            && a.head() == Some("promote")
            && print(last) == "(last To)"
            && what.head() == Some("piece")
            && who.atom() == Some("Mover")
            && t.args().len() == 1
            && i.args().len() == 2
            && a.args().len() == 3;
        shaped.then_some(Tail {
            promotion: Some(Promotion {
                zone: Some(zone),
                pieces,
                forced: true,
            }),
            again: None,
            run: Vec::new(),
        })
    }

    /// `(if C (move (from) (to (ahead … (ahead (from) D1) … Dn)) [(then …)]))`, the form the
    /// writer gives a chain of steps: C's conjuncts test the origin or one of the sites on the
    /// way (`(!= L (from))` only says the step exists). Read through the movement table: a
    /// chain it does not type is not read.
    fn path_move(&mut self, c: &Node, m: &Node) -> Option<Vec<MoveBlock>> {
        let args: Vec<&Node> = m.positional().collect();
        let tail = self.promotion_of(&args[2..])?;
        let [mut at] = args[1].positional().collect::<Vec<_>>()[..] else {
            return None;
        };
        let mut dirs = Vec::new();
        while let (Some("ahead"), [inner, d]) =
            (at.head(), &at.positional().collect::<Vec<_>>()[..])
        {
            dirs.push(*d);
            at = inner;
        }
        if print(at) != "(from)" || dirs.is_empty() {
            return None;
        }
        dirs.reverse();
        let mut locs = vec!["(from)".to_string()];
        let mut steps = Vec::new();
        for d in &dirs {
            let [one] = self.dirs(Some(d))?[..] else {
                return None;
            };
            steps.push(one.to_string());
            locs.push(format!("(ahead {} {})", locs[locs.len() - 1], print(d)));
        }
        let mut tests: Vec<Vec<Cond>> = vec![Vec::new(); locs.len()];
        for part in conjunct_nodes(c) {
            let t = print(part);
            if (1..locs.len()).any(|k| t == format!("(!= {} (from))", locs[k])) {
                continue;
            }
            let k = (0..locs.len()).rev().find(|&k| t.contains(&locs[k]))?;
            let here = if k == 0 { "(from)" } else { "(to)" };
            let text = t.replace(&locs[k], here);
            let (nodes, _) = crate::ludii::syntax::parse(&text, crate::diag::FileId(u32::MAX));
            tests[k].push(self.cond(nodes.first()?)?);
        }
        let mut program: Vec<Instr> = tests[0].drain(..).map(Instr::Verify).collect();
        for (d, t) in steps.iter().zip(&tests[1..]) {
            program.push(Instr::Step(d.clone()));
            program.extend(t.iter().cloned().map(Instr::Verify));
        }
        program.push(Instr::plain_add());
        let block = MoveBlock {
            move_type: None,
            program,
        };
        let mut typed = movement::recognise(&block).ok()?;
        typed.promotion = tail.promotion;
        typed.is_normal().then(|| vec![movement::program(&typed)])
    }

    fn origin_cond(&self, p: &MoveParts) -> Option<Option<Cond>> {
        match p.from {
            None => Some(None),
            Some(f) => {
                // (from) / (from (from)) with an optional if:
                if f.positional().any(|a| a.head() != Some("from")) {
                    return None;
                }
                match f.named("if") {
                    Some(c) => Some(Some(self.cond(c)?)),
                    None => Some(None),
                }
            }
        }
    }

    /// `(to [if:c] [(apply (remove (to)))])` → landing condition (default: empty). Ludii's
    /// `StepToNotFriend` form `(apply (if (is Enemy (who at:(to))) (remove (to))))` is the same
    /// capture when no piece is neutral or shared (an occupied site is then a friend's or an
    /// enemy's).
    fn to_cond(&self, to: Option<&Node>, default: Cond) -> Option<Cond> {
        let Some(to) = to else {
            return Some(default);
        };
        let capture =
            |a: &Node| is_remove_to(a) || self.piece_owners.is_empty() && is_remove_enemy_to(a);
        if to.positional().any(|a| !capture(a)) {
            return None;
        }
        match to.named("if") {
            Some(c) => self.cond(c),
            None => Some(default),
        }
    }

    fn step(&mut self, p: &MoveParts) -> Option<Vec<MoveBlock>> {
        if p.between.is_some() {
            return None;
        }
        let tail = self.promotion_of(&p.extra)?;
        let from = self.origin_cond(p)?;
        let to = self.to_cond(p.to, cond_test(Test::Empty))?;
        let dirs = self.dirs(p.dirs)?;
        let travels = dirs.iter().map(|d| Travel::Step(d.to_string()));
        typed(travels, from.as_ref(), &to, &tail)
    }

    /// A slide runs over empty sites that meet `(between if:…)` too (which must test
    /// emptiness); `(between (exact k))` is a lame path of k links over empty sites.
    fn slide(&mut self, p: &MoveParts) -> Option<Vec<MoveBlock>> {
        let tail = self.promotion_of(&p.extra)?;
        let from = self.origin_cond(p)?;
        let mut exact = None;
        let mut run = Vec::new();
        if let Some(b) = p.between {
            for a in b.positional() {
                match (a.head(), a.args()) {
                    (Some("exact"), [k]) => exact = Some(int(k)?.clamp(1, 64) as usize),
                    _ => return None,
                }
            }
            if b.args()
                .iter()
                .any(|a| matches!(a, Node::Named(n, _, _) if n != "if"))
            {
                return None;
            }
            if let Some(c) = b.named("if") {
                run = movement::run_parts(&self.cond(c)?)?;
            }
        }
        if exact.is_some() && !run.is_empty() {
            return None;
        }
        let dirs = self.dirs(p.dirs)?;
        let travel = |d: &str| match exact {
            Some(1) => Travel::Step(d.to_string()),
            Some(k) => Travel::Lame(vec![d.to_string(); k]),
            None => Travel::Slide {
                dir: d.to_string(),
                max: None,
                quiet: true,
            },
        };
        // Without `(to …)` a slide lands on empty sites only (an exact one too).
        let to = match p.to {
            None => cond_test(Test::Empty),
            Some(_) => self.to_cond(p.to, cond_test(Test::Empty))?,
        };
        // Where a run of empty sites stops, the site is occupied: saying so tests nothing (the
        // writer says it, since Ludii stops at the first site its `to` accepts).
        let occupied = not(cond_test(Test::Empty));
        let to = match to {
            Cond::And(v) if exact.is_none() => {
                Cond::And(v.into_iter().filter(|c| *c != occupied).collect())
            }
            c => c,
        };
        let tail = Tail { run, ..tail };
        typed(dirs.iter().map(|d| travel(d)), from.as_ref(), &to, &tail)
    }

    fn hop(&mut self, p: &MoveParts) -> Option<Vec<MoveBlock>> {
        // `(then (if (can Move (hop (from (last To)) …)) (moveAgain)))`: the capturing piece
        // goes on capturing in the same turn while it can.
        // A capture that may go on is a partial move of the `capture` type.
        let tail = match p.extra.as_slice() {
            [t] if capture_again(t, p) => Tail {
                again: Some(CAPTURE.to_string()),
                ..Tail::default()
            },
            extra => self.promotion_of(extra)?,
        };
        self.hop_once(p, &tail)
    }

    fn hop_once(&mut self, p: &MoveParts, tail: &Tail) -> Option<Vec<MoveBlock>> {
        let from = self.origin_cond(p)?;
        let b = p.between?;
        let far = b.named("before").is_some() || b.named("after").is_some();
        let capture = match b.positional().collect::<Vec<_>>().as_slice() {
            [] => false,
            [a] if a.head() == Some("apply")
                && a.positional().count() == 1
                && a.positional().next().is_some_and(|r| {
                    r.head() == Some("remove")
                        && r.positional().next().and_then(|x| x.head()) == Some("between")
                }) =>
            {
                true
            }
            _ => return None,
        };
        // `(sites ToClear)` holds the pieces a turn captured but has not removed yet: none,
        // when this hop removes what it jumps at once.
        let hurdle = match b.named("if") {
            Some(c) => match c.positional().collect::<Vec<_>>().as_slice() {
                [g, h]
                    if capture
                        && c.head() == Some("and")
                        && print(g) == "(not (is In (between) (sites ToClear)))" =>
                {
                    self.cond(h)?
                }
                _ => self.cond(c)?,
            },
            None => not(cond_test(Test::Empty)),
        };
        let dirs = self.dirs(p.dirs)?;
        if far {
            return self.cannon(p, from.as_ref(), (&hurdle, capture), &dirs, tail);
        }
        let over = movement::hurdle_of(&hurdle)?;
        let to = self.to_cond(p.to, cond_test(Test::Empty))?;
        let travel = |d: &str| match (over, capture) {
            (Hurdle::Any, false) => Travel::Leap(vec![d.to_string(), d.to_string()]),
            _ => Travel::Hop {
                dir: d.to_string(),
                over,
                capture,
            },
        };
        typed(dirs.iter().map(|d| travel(d)), from.as_ref(), &to, tail)
    }

    /// A cannon: any distance over empty sites before and after the hurdle, which is occupied
    /// and may have to meet other tests (janggi's: not a cannon, the movement's screen);
    /// `to if:` must be the emptiness of the run after it, and `(apply if:c (remove (to)))`
    /// the capture rule; without it, the empty sites after the hurdle are the moves (`beyond`).
    fn cannon(
        &mut self,
        p: &MoveParts,
        from: Option<&Cond>,
        (hurdle, capture): (&Cond, bool),
        dirs: &[&str],
        tail: &Tail,
    ) -> Option<Vec<MoveBlock>> {
        let occupied = not(cond_test(Test::Empty));
        let screen = match hurdle {
            h if *h == occupied => Vec::new(),
            Cond::And(v) if v.len() > 1 && v[0] == occupied => v[1..].to_vec(),
            _ => return None,
        };
        let to = p.to?;
        let go = self.cond(to.named("if")?)?;
        if capture || go != cond_test(Test::Empty) {
            return None;
        }
        let (stop, beyond) = match to.positional().collect::<Vec<_>>().as_slice() {
            [] => (go, true),
            [apply]
                if apply.head() == Some("apply")
                    && apply.positional().count() == 1
                    && apply.positional().next().is_some_and(is_remove_to) =>
            {
                (self.cond(apply.named("if")?)?, false)
            }
            _ => return None,
        };
        let travels = dirs.iter().map(|d| Travel::Cannon {
            dir: d.to_string(),
            quiet: false,
            beyond,
            screen: screen.clone(),
        });
        typed(travels, from, &stop, tail)
    }

    fn leap(&mut self, n: &Node, p: &MoveParts) -> Option<Vec<MoveBlock>> {
        if p.between.is_some() || p.dirs.is_some() && !matches!(p.dirs, Some(Node::Array(..))) {
            return None;
        }
        let geo = self.geo.as_ref()?;
        if geo.shape != board::Shape::Grid {
            return None;
        }
        let walks_node = p.dirs.or(p.extra.first().copied())?;
        let walks: Vec<Vec<&str>> = match walks_node {
            Node::Array(items, _) if items.iter().all(|i| matches!(i, Node::Array(..))) => items
                .iter()
                .map(|w| w.args().iter().filter_map(|s| s.atom()).collect())
                .collect(),
            Node::Array(items, _) => vec![items.iter().filter_map(|s| s.atom()).collect()],
            _ => return None,
        };
        let tail = self.promotion_of(&p.extra[usize::from(p.dirs.is_none())..])?;
        let rotations = n.named("rotations").and_then(|r| r.atom()) != Some("False");
        let forward = n.named("forward").and_then(|r| r.atom()) == Some("True");
        let from = self.origin_cond(p)?;
        let to = self.to_cond(p.to, cond_test(Test::Empty))?;
        // Every rotation of the walks; `forward:True` keeps those that end ahead of the piece
        // (the oracle's Knightthrough knight also leaps one ahead and two aside).
        let starts: &[i32] = if rotations { &[0, 2, 4, 6] } else { &[0] };
        let mut travels = Vec::new();
        for &start in starts {
            for w in &walks {
                let mut facing = start;
                let mut seq = Vec::new();
                for s in w {
                    match *s {
                        "F" => {
                            seq.push(COMPASS[facing.rem_euclid(8) as usize]);
                        }
                        "R" => facing += 2,
                        "L" => facing -= 2,
                        _ => return None,
                    }
                }
                let ahead: i32 = seq
                    .iter()
                    .map(|d| match *d {
                        "N" => 1,
                        "S" => -1,
                        _ => 0,
                    })
                    .sum();
                if seq.is_empty() || forward && ahead <= 0 {
                    continue;
                }
                let path: Vec<String> = seq.iter().map(|d| d.to_string()).collect();
                travels.push(match path.as_slice() {
                    [d] => Travel::Step(d.clone()),
                    _ => Travel::Leap(path),
                });
            }
        }
        typed(travels.into_iter(), from.as_ref(), &to, &tail)
    }

    /// `(forEach Direction D1 (to if:c1 (apply (forEach Direction (from (to)) R (if c2 <move>)))))`:
    /// a step in D1 onto a site where c1 holds, then a step in each direction of R taken
    /// relative to the first step, landing where c2 holds (the Xiangqi horse).
    fn two_step(&mut self, d1: &Node, to: &Node) -> Option<Vec<MoveBlock>> {
        if to.head() != Some("to") {
            return None;
        }
        let c1 = self.cond(to.named("if")?)?;
        let apply = to.positional().next()?;
        if apply.head() != Some("apply") {
            return None;
        }
        let inner = apply.positional().next()?;
        let iargs: Vec<&Node> = inner.positional().collect();
        let (rel, body) = match (inner.head(), iargs.as_slice()) {
            (Some("forEach"), [Node::Atom(k, _), from, rel, body])
                if k == "Direction" && from.head() == Some("from") =>
            {
                (*rel, *body)
            }
            _ => return None,
        };
        let bargs: Vec<&Node> = body.positional().collect();
        let c2 = match (body.head(), bargs.as_slice()) {
            (Some("if"), [c, m]) if matches!(m.head(), Some("move" | "fromTo")) => self.cond(c)?,
            _ => return None,
        };
        // The first step onto any site (a leap) or onto an empty one (a lame path).
        let lame = match c1 {
            Cond::Const(true) => false,
            c if c == cond_test(Test::Empty) => true,
            _ => return None,
        };
        let rel = self.offsets(rel, true)?;
        let firsts = self.dirs(Some(d1))?;
        let geo = self.geo.as_ref()?;
        let mut travels = Vec::new();
        for d in &firsts {
            for &r in &rel {
                let d2 = board::rotate(d, r)?;
                if geo.dirs.contains(&d2) {
                    let path = vec![d.to_string(), d2.to_string()];
                    travels.push(if lame {
                        Travel::Lame(path)
                    } else {
                        Travel::Leap(path)
                    });
                }
            }
        }
        typed(travels.into_iter(), None, &c2, &Tail::default())
    }
}

/// `(then (if (can Move (hop (from (last To)) <the same directions> (between if:<the same
/// hurdle, also and not in (sites ToClear)>) <the same to>)) (moveAgain)))` after a capturing
/// `(move Hop …)` with the parts `p`.
fn capture_again(t: &Node, p: &MoveParts) -> bool {
    let text = print(t);
    let Some(inner) = text
        .strip_prefix("(then (if (can Move (hop (from (last To)) ")
        .and_then(|r| r.strip_suffix(")) (moveAgain)))"))
    else {
        return false;
    };
    let Some(b) = p.between.and_then(|b| b.named("if")).map(print) else {
        return false;
    };
    let dirs = p.dirs.map(|d| format!("{} ", print(d))).unwrap_or_default();
    let to = p.to.map(print).unwrap_or_default();
    let plain = format!("{dirs}(between if:{b}) {to}");
    let cleared =
        format!("{dirs}(between if:(and (not (is In (between) (sites ToClear))) {b})) {to}");
    p.from.is_none() && (inner == plain || inner == cleared)
}

fn is_remove_to(n: &Node) -> bool {
    let a = if n.head() == Some("apply") && n.args().len() == 1 {
        &n.args()[0]
    } else {
        n
    };
    a.head() == Some("remove") && a.args().len() == 1 && is_loc(&a.args()[0])
}

/// `(apply (if (is Enemy (who at:(to))) (remove (to))))`.
fn is_remove_enemy_to(n: &Node) -> bool {
    let [a] = n.args() else { return false };
    n.head() == Some("apply")
        && a.head() == Some("if")
        && matches!(a.args(), [c, r] if print(c) == "(is Enemy (who at:(to)))" && print(r) == "(remove (to))")
}

fn prefix(blocks: Vec<MoveBlock>, c: Cond) -> Vec<MoveBlock> {
    blocks
        .into_iter()
        .map(|mut b| {
            b.program.insert(0, Instr::Verify(c.clone()));
            b
        })
        .collect()
}

/// The parts of a `(move Kind …)` ludeme.
struct MoveParts<'a> {
    from: Option<&'a Node>,
    dirs: Option<&'a Node>,
    between: Option<&'a Node>,
    to: Option<&'a Node>,
    extra: Vec<&'a Node>,
}

impl<'a> MoveParts<'a> {
    fn split(args: &[&'a Node]) -> Option<MoveParts<'a>> {
        let mut p = MoveParts {
            from: None,
            dirs: None,
            between: None,
            to: None,
            extra: Vec::new(),
        };
        for &a in args {
            match a {
                Node::Named(..) => {}
                Node::List(..) => match a.head() {
                    Some("from") => p.from = Some(a),
                    Some("to") => p.to = Some(a),
                    Some("between") => p.between = Some(a),
                    Some("directions") => p.dirs = Some(a),
                    _ => p.extra.push(a),
                },
                Node::Atom(..) | Node::Array(..) if p.dirs.is_none() => p.dirs = Some(a),
                _ => p.extra.push(a),
            }
        }
        Some(p)
    }
}

/// What a move's `(then …)` adds to it.
#[derive(Default)]
struct Tail {
    /// A promotion on arrival.
    promotion: Option<Promotion>,
    /// The piece may move again with moves of this type (a partial move).
    again: Option<String>,
    /// What a slide's run must meet besides emptiness.
    run: Vec<Cond>,
}

/// One block per travel, each a [`Movement`] with the origin and destination conditions and
/// the tail, generated by the table; `None` when one has no normal form.
fn typed(
    travels: impl Iterator<Item = Travel>,
    from: Option<&Cond>,
    to: &Cond,
    tail: &Tail,
) -> Option<Vec<MoveBlock>> {
    travels
        .map(|t| {
            let mut m = Movement::from_conditions(t, from, Some(to))?;
            m.promotion = tail.promotion.clone();
            m.run = tail.run.clone();
            if let Some(ty) = &tail.again {
                m.continues = Some(Continuation {
                    move_type: Some(ty.clone()),
                });
                m.move_type = Some(ty.clone());
            }
            m.is_normal().then(|| movement::program(&m))
        })
        .collect()
}

/// `(move (from) (to …) [(then …)])`.
fn is_from_to(m: &Node) -> bool {
    let args: Vec<&Node> = m.positional().collect();
    m.head() == Some("move")
        && m.args().len() == args.len()
        && matches!(args.len(), 2 | 3)
        && print(args[0]) == "(from)"
        && args[1].head() == Some("to")
}

/// The conjuncts of `(and {…})` or `(and …)`; any other node is its own.
fn conjunct_nodes(c: &Node) -> Vec<&Node> {
    if c.head() != Some("and") {
        return vec![c];
    }
    items_or_args(&c.positional().collect::<Vec<_>>())
}

/// Alternatives split into the writer's per-player branches `(if (is Mover Pk) X)` (player
/// index, `X`) and the others.
fn mover_branches<'n>(alts: &[&'n Node]) -> (Vec<(usize, &'n Node)>, Vec<&'n Node>) {
    let mut per = Vec::new();
    let mut rest = Vec::new();
    for &a in alts {
        let args: Vec<&Node> = a.positional().collect();
        match (a.head(), args.as_slice()) {
            (Some("if"), [c, x]) => match mover_is(c) {
                Some(k) => per.push((k, *x)),
                None => rest.push(a),
            },
            _ => rest.push(a),
        }
    }
    (per, rest)
}

/// `(is Mover Pk)`: the player index `k - 1`.
fn mover_is(c: &Node) -> Option<usize> {
    let args: Vec<&Node> = c.positional().collect();
    match (c.head()?, args.as_slice()) {
        ("is", [Node::Atom(m, _), Node::Atom(p, _)]) if m == "Mover" => {
            p.strip_prefix('P')?.parse::<usize>().ok()?.checked_sub(1)
        }
        _ => None,
    }
}
