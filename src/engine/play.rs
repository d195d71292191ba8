//! Legal moves, goals and perft: the turn order, move types and priorities, the `checkmated`
//! legality filter, ZoG's options, and the goals evaluated after each move.

use super::generate::{
    Cut, Gen, Overrun, Passes, Reads, Sink, attacked, attacked_reading, recycle,
};
use super::rules::{G, NONE, Occupant, OwnerClass, Rules};
use super::state::{Action, Move, State};
use crate::spec::GoalKind;
use std::sync::atomic::{AtomicBool, Ordering};

/// The legal moves of a position, and whether some program ran out of steps.
#[derive(Debug, Clone, Default)]
pub struct Moves {
    /// The moves, in generation order (pieces by position, blocks in order, then drops).
    pub moves: Vec<Move>,
    /// A block was stopped by the step limit (the first one): the list may be incomplete.
    pub overrun: Option<Overrun>,
    /// A budget stopped the generation: the list is incomplete.
    pub cut: Option<Cut>,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Win, loss, draw or count.
    pub kind: GoalKind,
    /// The players the goal names.
    pub players: Vec<u32>,
}

/// The goals decided by the last move (all but `stalemated`, `checkmated` and `repetition`,
/// which are decided by the absence of moves or are not tracked).
pub fn outcome(rules: &Rules, st: &State) -> Option<Outcome> {
    for g in &rules.goals {
        for &p in &g.players {
            if static_goal(rules, st, &g.cond, p) {
                return Some(Outcome {
                    kind: g.kind,
                    players: vec![p],
                });
            }
        }
    }
    None
}

pub(super) fn static_goal(rules: &Rules, st: &State, c: &G, p: u32) -> bool {
    let count = |player: Option<u32>, kind: Option<u32>| -> i64 {
        let on_board = st
            .board
            .iter()
            .flatten()
            .filter(|q| player.is_none_or(|p| q.owner == p) && kind.is_none_or(|k| q.kind == k))
            .count() as i64;
        if !rules.options.include_off_pieces {
            return on_board;
        }
        let in_hand: i64 = (0..rules.players.len() as u32)
            .filter(|&o| player.is_none_or(|p| o == p))
            .flat_map(|o| {
                (0..rules.kinds.len() as u32)
                    .filter(move |&k| kind.is_none_or(|kk| kk == k))
                    .map(move |k| (o, k))
            })
            .map(|(o, k)| st.in_hand(o, k) as i64)
            .sum();
        on_board + in_hand
    };
    match c {
        G::Stalemated | G::Checkmated(_) | G::Repetition => false,
        G::Captured(kinds) => kinds.iter().any(|&k| st.captured_piece(rules, p, k)),
        G::PiecesRemaining(n, kind) => count(Some(p), *kind) == *n,
        G::TotalPieceCount(n, kind) => count(None, *kind) == *n,
        G::AbsoluteConfig {
            kinds,
            positions,
            opponent,
            negated,
        } => positions.iter().all(|&pos| {
            let holds = |q: u32| {
                st.board[q as usize].is_some_and(|x| {
                    (kinds.contains(&x.kind) != *negated) && ((x.owner == p) != *opponent)
                })
            };
            if pos < NONE - 1 - 4096 {
                holds(pos)
            } else {
                let z = (NONE - 1 - pos) as usize;
                (0..rules.npos() as u32).any(|q| rules.zones[z][p as usize][q as usize] && holds(q))
            }
        }),
        G::Line(len, dirs) => line(rules, st, p, *len, dirs),
        G::Connected { zones, dirs } => connected(rules, st, p, zones, dirs),
        G::RelativeConfig(parts) => relative_config(rules, st, p, parts),
        G::And(v) => v.iter().all(|c| static_goal(rules, st, c, p)),
        G::Or(v) => v.iter().any(|c| static_goal(rules, st, c, p)),
        G::Not(c) => !static_goal(rules, st, c, p),
    }
}

/// Whether `p`'s pieces stand in the pattern somewhere: the first occupant on some position,
/// and each next one where the steps between them lead (directions as `p` reads them).
fn relative_config(rules: &Rules, st: &State, p: u32, parts: &[(Occupant, Vec<u32>)]) -> bool {
    let holds = |o: &Occupant, q: u32| {
        q != NONE
            && st.board[q as usize].is_some_and(|x| {
                let owner = match o.owner {
                    OwnerClass::Own => x.owner == p,
                    OwnerClass::Opponent => x.owner != p,
                    OwnerClass::Any => true,
                };
                owner && (o.kinds.contains(&x.kind) != o.negated)
            })
    };
    (0..rules.npos() as u32).any(|start| {
        let mut at = start;
        parts.iter().all(|(occ, steps)| {
            let ok = holds(occ, at);
            for &d in steps {
                at = if at == NONE {
                    NONE
                } else {
                    rules.link(p, at, d)
                };
            }
            ok
        })
    })
}

fn line(rules: &Rules, st: &State, p: u32, len: u32, dirs: &[u32]) -> bool {
    let all: Vec<u32> = (0..rules.ndirs() as u32).collect();
    let dirs = if dirs.is_empty() { &all[..] } else { dirs };
    let mine = |q: u32| q != NONE && st.board[q as usize].is_some_and(|x| x.owner == p);
    (0..rules.npos() as u32).filter(|&q| mine(q)).any(|q| {
        dirs.iter().any(|&d| {
            let (mut n, mut at) = (1, q);
            while n < len {
                at = rules.link(0, at, d);
                if !mine(at) {
                    return false;
                }
                n += 1;
            }
            true
        })
    })
}

/// Whether one group of `p`'s pieces (joined along `dirs`, every direction when empty)
/// touches every zone of `zones` as `p` owns them (every zone with positions for `p` when
/// empty): each group is flooded once, with the zones it touches as bits.
fn connected(rules: &Rules, st: &State, p: u32, zones: &[u32], dirs: &[u32]) -> bool {
    let all_dirs: Vec<u32> = (0..rules.ndirs() as u32).collect();
    let dirs = if dirs.is_empty() { &all_dirs[..] } else { dirs };
    let owned: Vec<u32> = (0..rules.zone_names.len() as u32)
        .filter(|&z| rules.zones[z as usize][p as usize].iter().any(|&b| b))
        .collect();
    let zones = if zones.is_empty() { &owned[..] } else { zones };
    if zones.is_empty() || zones.len() > 64 {
        return false;
    }
    let want = u64::MAX >> (64 - zones.len());
    let mine = |q: u32| q != NONE && st.board[q as usize].is_some_and(|x| x.owner == p);
    let touched = |q: u32| {
        zones.iter().enumerate().fold(0u64, |m, (i, &z)| {
            m | (u64::from(rules.zones[z as usize][p as usize][q as usize]) << i)
        })
    };
    let mut seen = vec![false; rules.npos()];
    let mut stack = Vec::new();
    for start in 0..rules.npos() as u32 {
        if seen[start as usize] || !mine(start) {
            continue;
        }
        seen[start as usize] = true;
        stack.push(start);
        let mut mask = 0u64;
        while let Some(q) = stack.pop() {
            mask |= touched(q);
            for &d in dirs {
                let n = rules.link(0, q, d);
                if mine(n) && !seen[n as usize] {
                    seen[n as usize] = true;
                    stack.push(n);
                }
            }
        }
        if mask == want {
            return true;
        }
    }
    false
}

/// The legal moves of the player to move. A finished game has none.
pub fn legal_moves(rules: &Rules, st: &mut State) -> Moves {
    if outcome(rules, st).is_some() {
        return Moves::default();
    }
    let player = st.to_move(rules);
    let mut out = pseudo_moves(rules, st, player);
    if out.cut.is_some() {
        return out;
    }
    if !rules.royal[player as usize].is_empty() {
        out.moves = legal_only(rules, st, player, out.moves);
    }
    prioritise(rules, &mut out.moves);
    if rules.options.maximal_captures > 0 {
        maximal(rules, st, &mut out.moves);
    }
    if may_pass(rules, st, out.moves.is_empty()) {
        out.moves.push(Move::pass(player));
    }
    out
}

/// The moves of the piece at `pos` for its owner, before the legality filter, priorities and
/// options: what its programs generate (used to compare one piece with other interpreters).
pub fn piece_moves(rules: &Rules, st: &State, pos: u32) -> Moves {
    let Some(p) = st.board.get(pos as usize).copied().flatten() else {
        return Moves::default();
    };
    let mut g = Gen::new(rules, st, p.owner, Sink::Collect(Vec::new()));
    g.piece_moves(pos, None);
    finish(g)
}

/// The moves a generation collected, with its overrun and cut; its steps are added to the
/// rules' work.
fn finish(g: Gen) -> Moves {
    g.rules.work.fetch_add(g.steps, Ordering::Relaxed);
    let (overrun, mut cut) = (g.overrun, g.cut);
    let Sink::Collect(mut moves) = g.sink else {
        return Moves::default();
    };
    if moves.len() > g.rules.move_limit {
        moves.truncate(g.rules.move_limit);
        cut.get_or_insert(Cut::Moves);
    }
    Moves {
        moves,
        overrun,
        cut,
    }
}

fn pseudo_moves(rules: &Rules, st: &State, player: u32) -> Moves {
    let (sink, overrun, mut cut) = pseudo(rules, st, player, Sink::Collect(Vec::with_capacity(64)));
    let Sink::Collect(mut moves) = sink else {
        return Moves::default();
    };
    if moves.len() > rules.move_limit {
        moves.truncate(rules.move_limit);
        cut.get_or_insert(Cut::Moves);
    }
    Moves {
        moves,
        overrun,
        cut,
    }
}

/// The number of legal moves, counted without listing them, when nothing filters the moves a
/// program generates but `move-priorities` (no royal pieces to keep out of attack, no `maximal
/// captures`); `None` otherwise. With priorities, the moves are counted per move type and
/// only the highest listed type that has one counts, as [`prioritise`] keeps. Always
/// `legal_moves(…).moves.len()`.
fn count_moves(rules: &Rules, st: &State) -> Option<(u64, Option<Overrun>)> {
    let player = st.to_move(rules);
    if !rules.royal[player as usize].is_empty() || rules.options.maximal_captures > 0 {
        return None;
    }
    if outcome(rules, st).is_some() {
        return Some((0, None));
    }
    let typed = (!rules.priorities.is_empty()).then(|| vec![0; rules.move_types.len() + 1]);
    let (sink, overrun, cut) = pseudo(rules, st, player, Sink::Count(0, typed));
    // A budget that cut the count is reported by the listing path.
    let (Sink::Count(mut n, typed), None) = (sink, cut) else {
        return None;
    };
    if let Some(typed) = typed
        && let Some(&best) = rules
            .priorities
            .iter()
            .find(|&&t| typed[t as usize + 1] > 0)
    {
        n = typed[best as usize + 1];
    }
    if may_pass(rules, st, n == 0) {
        n += 1;
    }
    Some((n, overrun))
}

/// Runs the programs of `player`'s pieces (or of the piece continuing a partial move) into
/// `sink`.
/// The generation's steps are added to the rules' work; a budget that cut it is returned.
fn pseudo(
    rules: &Rules,
    st: &State,
    player: u32,
    sink: Sink,
) -> (Sink, Option<Overrun>, Option<Cut>) {
    let (sink, overrun, cut, _) = pseudo_passing(rules, st, player, sink, None);
    (sink, overrun, cut)
}

/// [`pseudo`], where the moves `pass` accepts (given their changes before the last, and the
/// last) are only counted: the count is returned last.
fn pseudo_passing(
    rules: &Rules,
    st: &State,
    player: u32,
    sink: Sink,
    pass: Option<&Passes<'_>>,
) -> (Sink, Option<Overrun>, Option<Cut>, u64) {
    let mut g = Gen::new(rules, st, player, sink);
    g.pass = pass;
    if let Some((pos, mt)) = st.partial {
        if st.board[pos as usize].is_some_and(|p| p.owner == player) {
            // The continuation's own type overrides the turn's (Jotunheimr: `(Light
            // normal-type)` turns continue with `first-type` jumps).
            g.only_type = if mt.is_some() {
                None
            } else {
                st.turn_type(rules)
            };
            g.piece_moves(pos, mt);
        }
    } else {
        g.only_type = st.turn_type(rules);
        for pos in 0..rules.npos() as u32 {
            if st.board[pos as usize].is_some_and(|p| p.owner == player) {
                g.piece_moves(pos, None);
            }
        }
        for kind in 0..rules.kinds.len() as u32 {
            if !rules.kinds[kind as usize].drops.is_empty() && st.can_drop(rules, player, kind) {
                g.drops(kind, None);
            }
        }
    }
    g.rules.work.fetch_add(g.steps, Ordering::Relaxed);
    (g.sink, g.overrun, g.cut, g.passed)
}

/// What the `checkmated` legality filter knows of a position before any move is tried: the
/// squares of the mover's royal pieces, and (when none stands attacked and the attackers'
/// programs read only positions) the positions those programs read.
struct Filter {
    royal: Vec<u32>,
    reads: Option<Reads>,
}

impl Filter {
    fn new(rules: &Rules, st: &State, player: u32) -> Filter {
        let royal = st.royal_squares(player).to_vec();
        debug_assert!(
            {
                let mut kept = royal.clone();
                kept.sort_unstable();
                kept == st.royal_squares_scanned(player)
            },
            "the royal squares kept are those on the board"
        );
        let mut reads = Some(Reads::new(rules.npos()));
        let attacked_now = royal.iter().any(|&pos| {
            attacked_reading(
                rules,
                st,
                (pos, player),
                |o| o != player,
                None,
                1,
                &mut reads,
            )
        });
        let reads = reads.filter(|r| !attacked_now && !r.opaque);
        Filter { royal, reads }
    }

    /// [`quiet_for`] for a move of `player` doing `actions`.
    fn quiet<'m>(
        &self,
        rules: &Rules,
        st: &State,
        player: u32,
        actions: impl IntoIterator<Item = &'m Action>,
    ) -> Option<bool> {
        quiet_for(rules, st, player, actions, &self.royal, self.reads.as_ref())
    }

    /// Whether `m` leaves none of `player`'s royal pieces attacked (where [`State::make`]
    /// put them); `same` is what [`Filter::quiet`] said of it.
    fn legal(&self, rules: &Rules, st: &mut State, m: &Move, same: Option<bool>) -> bool {
        if same == Some(true) {
            return true;
        }
        let player = m.player;
        st.make(rules, m);
        let ok = !st
            .royal_squares(player)
            .iter()
            .any(|&pos| attacked(rules, st, pos, player, |o| o != player, None, 1));
        st.unmake();
        ok
    }
}

/// The `checkmated` legality filter: the moves after which none of `player`'s royal pieces
/// stands attacked. A move is made and tested unless it provably changes nothing an attack
/// test reads: when no royal piece stands attacked now, the attackers' programs (run once,
/// recording the positions they read) give the same answer after a move that changes only
/// positions they did not read, moves and changes only the mover's own pieces (so no attacker
/// appears or changes type) and moves no royal piece.
fn legal_only(rules: &Rules, st: &mut State, player: u32, moves: Vec<Move>) -> Vec<Move> {
    let f = Filter::new(rules, st, player);
    let mut legal = Vec::with_capacity(moves.len());
    for m in moves {
        let same = f.quiet(rules, st, player, &m.actions);
        if f.legal(rules, st, &m, same) {
            legal.push(m);
        } else {
            recycle([m]);
        }
    }
    legal
}

/// The number of legal moves of a game with royal pieces, counted without listing the moves
/// the legality filter passes without making them (see [`count_moves`], which counts the
/// games without royal pieces); `None` where moves are filtered otherwise (`move-priorities`,
/// `maximal captures`) or a budget cut the generation. Always `legal_moves(…).moves.len()`.
fn count_legal(rules: &Rules, st: &mut State) -> Option<(u64, Option<Overrun>)> {
    let player = st.to_move(rules);
    if rules.royal[player as usize].is_empty()
        || !rules.priorities.is_empty()
        || rules.options.maximal_captures > 0
    {
        return None;
    }
    if outcome(rules, st).is_some() {
        return Some((0, None));
    }
    let f = Filter::new(rules, st, player);
    let quiet = |actions: &[Action], last: &Action| {
        f.quiet(rules, st, player, actions.iter().chain([last])) == Some(true)
    };
    let (sink, overrun, cut, passed) =
        pseudo_passing(rules, st, player, Sink::Collect(Vec::new()), Some(&quiet));
    let (Sink::Collect(moves), None) = (sink, cut) else {
        return None;
    };
    if moves.len() as u64 + passed > rules.move_limit as u64 {
        return None;
    }
    let mut n = passed;
    for m in &moves {
        let same = f.quiet(rules, st, player, &m.actions);
        n += u64::from(f.legal(rules, st, m, same));
    }
    recycle(moves);
    if may_pass(rules, st, n == 0) {
        n += 1;
    }
    Some((n, overrun))
}

/// What a move does to the attack tests on `player`'s royal pieces (standing on `royal`):
/// `Some(true)` when it provably changes nothing they read (`reads`, when known),
/// `Some(false)` when it leaves the royal pieces where they are but must be tested, `None` when
/// it may move, remove or create a royal piece.
fn quiet_for<'m>(
    rules: &Rules,
    st: &State,
    player: u32,
    actions: impl IntoIterator<Item = &'m Action>,
    royal: &[u32],
    reads: Option<&Reads>,
) -> Option<bool> {
    let mine = |at: u32| st.board[at as usize].is_none_or(|p| p.owner == player);
    let royal_kind = |k: Option<u32>| k.is_some_and(|k| rules.royal[player as usize].contains(&k));
    let mut quiet = reads.is_some();
    for a in actions {
        // The position changed, whether only the mover's pieces are involved, and the type of
        // a piece it makes.
        let (at, own, made) = match *a {
            Action::Move { from, to, promote } => {
                if royal.contains(&from) {
                    return None;
                }
                quiet &= !reads.is_some_and(|r| r.read(from));
                (to, mine(from), promote)
            }
            Action::Copy { from, to, promote } => {
                let kind = st.board[from as usize].map(|p| p.kind);
                (to, mine(from), promote.or(kind))
            }
            Action::Capture { at } | Action::SetAttr { at, .. } => (at, true, None),
            Action::Place {
                at, owner, kind, ..
            } => (at, owner == player, Some(kind)),
            Action::ChangeType { at, kind } => (at, mine(at), Some(kind)),
            Action::ChangeOwner { at, .. } | Action::Flip { at } => (at, false, None),
            Action::SetState { .. } => continue,
        };
        // A royal piece moved, taken or made, or a piece of another player moved or made
        // (it may attack from where it lands).
        if royal.contains(&at) || !own || royal_kind(made) {
            return None;
        }
        quiet &= !reads.is_some_and(|r| r.read(at));
    }
    Some(quiet)
}

/// `move-priorities`: when a move of a listed type exists, only moves of the highest such type
/// are legal.
fn prioritise(rules: &Rules, moves: &mut Vec<Move>) {
    if let Some(&best) = rules
        .priorities
        .iter()
        .find(|&&t| moves.iter().any(|m| m.move_type == Some(t)))
    {
        moves.retain(|m| m.move_type == Some(best));
    }
}

/// `maximal captures`: only the moves that capture the most pieces (with `2`, pieces that
/// are not the commonest type count double, as ZoG's kings do). A piece whose type the move
/// changes counts as captured: Northern Kings' jump over a King turns it into a Checker, and
/// ZoG let `King b6 - f2 = Checker on e3` stand beside `King c7 - f4 x e5` (*decided* over
/// counting the parts of the chain, which fits that save as well; see docs/engine.md).
fn maximal(rules: &Rules, st: &State, moves: &mut Vec<Move>) {
    let weight = |m: &Move| -> u32 {
        let mut taken: Vec<u32> = Vec::new();
        for a in &m.actions {
            let at = match *a {
                Action::Capture { at } | Action::ChangeType { at, .. } => at,
                Action::Move { from, to, .. } if from != to => to,
                _ => continue,
            };
            if st.board[at as usize].is_some() && !taken.contains(&at) {
                taken.push(at);
            }
        }
        taken
            .iter()
            .filter_map(|&at| st.board[at as usize])
            .map(|p| {
                if rules.options.maximal_captures == 2 && p.kind != 0 {
                    2
                } else {
                    1
                }
            })
            .sum()
    };
    let best = moves.iter().map(weight).max().unwrap_or(0);
    if best > 0 {
        moves.retain(|m| weight(m) == best);
    }
}

/// Plays `m`, ending a partial move at once when the piece cannot continue.
pub fn play(rules: &Rules, st: &mut State, m: &Move) {
    if m.is_pass() && st.partial.is_some() {
        st.end_partial(rules);
        return;
    }
    st.make(rules, m);
    if st.partial.is_some() {
        let player = m.player;
        let cont = pseudo_moves(rules, st, player);
        if cont.moves.is_empty() {
            st.finish_partial(rules);
        }
    }
}

/// Raised to stop a long count (Ctrl-C), and told when a program ran out of steps.
#[derive(Debug, Default)]
pub struct Control {
    /// Set from outside (e.g. by Ctrl-C) to stop; the count then returns `None`.
    pub stop: std::sync::Arc<AtomicBool>,
    /// The first move block stopped by the step limit (the count may then be too low).
    pub overrun: std::sync::OnceLock<Overrun>,
    /// The budget that stopped the count (it then returns `None`).
    pub cut: std::sync::OnceLock<Cut>,
}

/// Perft of the start position, claimed only when whole: `None` when `stop` was raised, a
/// budget cut a generation, or the step limit stopped a move block (the count may be low).
pub fn start_perft(
    rules: &Rules,
    depth: u32,
    stop: Option<std::sync::Arc<AtomicBool>>,
) -> Option<u64> {
    let ctl = Control {
        stop: stop.unwrap_or_default(),
        ..Control::default()
    };
    let n = perft(rules, &mut State::start(rules), depth, &ctl)?;
    ctl.overrun.get().is_none().then_some(n)
}

/// Counts the leaf positions `depth` moves deep (perft). `None` when `ctl.stop` was raised or a
/// budget stopped a position's generation (`ctl.cut` says which).
pub fn perft(rules: &Rules, st: &mut State, depth: u32, ctl: &Control) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if ctl.stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth == 1
        && let Some((n, overrun)) = count_moves(rules, st).or_else(|| count_legal(rules, st))
    {
        if let Some(o) = overrun {
            let _ = ctl.overrun.set(o);
        }
        return Some(n);
    }
    let found = legal_moves(rules, st);
    if let Some(o) = found.overrun {
        let _ = ctl.overrun.set(o);
    }
    if let Some(c) = found.cut {
        let _ = ctl.cut.set(c);
        return None;
    }
    if depth == 1 {
        let n = found.moves.len() as u64;
        recycle(found.moves);
        return Some(n);
    }
    let mut n = 0;
    for m in &found.moves {
        play(rules, st, m);
        let sub = perft(rules, st, depth - 1, ctl);
        st.unmake();
        n += sub?;
    }
    recycle(found.moves);
    Some(n)
}

/// Perft per legal move of the position (`depth` ≥ 1 counts the move itself).
pub fn divide(
    rules: &Rules,
    st: &mut State,
    depth: u32,
    ctl: &Control,
) -> Option<Vec<(Move, u64)>> {
    let found = legal_moves(rules, st);
    if let Some(o) = found.overrun {
        let _ = ctl.overrun.set(o);
    }
    if let Some(c) = found.cut {
        let _ = ctl.cut.set(c);
        return None;
    }
    let mut out = Vec::with_capacity(found.moves.len());
    for m in found.moves {
        play(rules, st, &m);
        let sub = perft(rules, st, depth.saturating_sub(1), ctl);
        st.unmake();
        out.push((m, sub?));
    }
    Some(out)
}

/// Whether the player may (or must) pass: ZoG's `pass partial` during a partial move, `pass
/// turn` (1: always, 2: only when there is no other move, `none_else`) otherwise.
fn may_pass(rules: &Rules, st: &State, none_else: bool) -> bool {
    let o = &rules.options;
    match st.partial {
        Some(_) => o.pass_partial,
        None => o.pass_turn == 1 || (o.pass_turn == 2 && none_else) || (o.swap && st.turns() == 1),
    }
}
