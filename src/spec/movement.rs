//! How a piece moves, typed: one table that generates move programs ([`program`]) and recognises them ([`recognise`]).
//!
//! A [`Movement`] says what one move block does: how the piece travels ([`Travel`]: a step,
//! slide, leap, lame leap, hop, cannon screen, en passant or drop, along named directions), what
//! it may land on ([`Land`], which is also the capture mode: ZoG and Ludii capture by replacing
//! the piece on the destination), where it may start and end (zones), whether it promotes
//! ([`Promotion`]) and whether the same piece continues ([`Movement::continues`]).
//!
//! The instruction sequence of each movement is written down once, in [`program`];
//! [`recognise`] accepts exactly the programs [`program`] writes (after procedure calls are
//! inlined), so `recognise(&program(&m)) == Ok(m)` for every movement in normal form
//! ([`Movement::is_normal`]) and `program(&recognise(b)?)` is `b` instruction for instruction,
//! up to the order of consecutive verifications, which commute ([`canonical`]).
//! A block that is none of these stays a plain [`MoveBlock`]: never lost, only untyped; the
//! [`Why`] says what stopped the recognition. The engine runs the generated programs: nothing
//! else interprets moves.

use super::moves::{Inliner, inline, is_add};
use super::{Cond, Instr, MoveBlock, Test};

/// What the destination may hold, and so how the move captures: ZoG and Ludii capture by
/// replacement (the piece arriving takes the place of the one standing there).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Land {
    /// Only an empty position: a move that never captures (Betza `m`).
    Empty,
    /// Only an enemy piece, which is captured (Betza `c`).
    Enemy,
    /// Empty or an enemy piece, captured by replacement (Betza's default).
    NotFriend,
    /// Only a friendly piece, which is replaced (rare; swaps are written otherwise).
    Friend,
    /// Anything, friends included (ZoG without a test; Ludii's default overwrite).
    Any,
}

/// What a hop may jump over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Hurdle {
    /// Any piece.
    Occupied,
    /// An enemy piece.
    Enemy,
    /// A friendly piece.
    Friend,
    /// Anything, an empty position included (Ludii's default hurdle).
    Any,
}

/// How the piece travels to its destination. Directions are the board's link names.
#[derive(Debug, Clone, PartialEq)]
pub enum Travel {
    /// One link along the direction.
    Step(String),
    /// Along the direction over empty positions, at most `max` links (`None`: unlimited;
    /// normal form: at least 2); [`Movement::land`] says what the first occupied position may
    /// be ([`Land::Empty`]: none, the slide stops before it).
    Slide {
        /// Direction.
        dir: String,
        /// Longest move.
        max: Option<usize>,
        /// The empty positions of the run are destinations too. `false`: only the first
        /// occupied position is, a capture-only rider such as Betza's `cR` (normal form:
        /// unlimited, and landing on something).
        quiet: bool,
    },
    /// Along a path of links whose intermediate positions must exist but need not be empty
    /// (a knight; normal form: at least 2 links).
    Leap(Vec<String>),
    /// Along a path of links whose intermediate positions must be empty (the xiangqi horse,
    /// the pawn's double step; normal form: at least 2 links).
    Lame(Vec<String>),
    /// Over the adjacent position along the direction (if it holds what `over` allows) to the
    /// one beyond it; `capture`: the piece jumped over is captured (draughts).
    Hop {
        /// Direction.
        dir: String,
        /// What may be jumped.
        over: Hurdle,
        /// The jumped piece is captured.
        capture: bool,
    },
    /// The cannon's screen move: along the direction over empty positions to a piece (the
    /// screen), then over empty positions to the first piece after it, which [`Movement::land`]
    /// tests ([`Land::Empty`]: none is a destination). `quiet`: the empty positions before the
    /// screen are destinations too (xiangqi's cannon); `beyond`: the empty positions after it
    /// are (Betza's `pR`, janggi's cannon; with [`Land::Empty`], Betza's `mpR`).
    Cannon {
        /// Direction.
        dir: String,
        /// Also moves without capturing up to the screen.
        quiet: bool,
        /// Also moves without capturing beyond the screen, up to the next piece.
        beyond: bool,
        /// What the screen must be besides a piece (janggi: not a cannon), in the table's
        /// order of a run ([`canonical`]); empty: any piece (normal form: not just
        /// "occupied", which is the empty list's test).
        screen: Vec<Cond>,
    },
    /// En passant as ZRF chess files write it: onto the enemy `piece` beside (`side`), which
    /// must have made the last move, from two links ahead (`forward`); the piece is captured and
    /// the mover lands one link forward of it.
    EnPassant {
        /// Where the captured piece stands.
        side: String,
        /// The mover's forward direction.
        forward: String,
        /// The piece type that may be taken.
        piece: String,
    },
    /// A drop: the piece is placed at the current position (drop blocks run at every position).
    Drop,
    /// Straight to the named position, wherever the piece stands (ZRF's jump to a position;
    /// Ludii's `(move (from) (to (sites Empty)))` is one per position of the board).
    To(String),
    /// Along a fixed chain of links that tests the positions it passes ([`Via`]) and may
    /// capture them, then one more link (`last`) to the destination: the general path the
    /// travels above specialise (a hop over a given piece, a jump over a line of men, a leap
    /// whose midpoint may be empty or a given piece). Normal form: none of the travels above.
    Path {
        /// The positions passed, in order.
        via: Vec<Via>,
        /// The last link, to the destination.
        last: String,
    },
}

impl Travel {
    /// Whether it makes moves along a run of empty positions (a quiet slide, a cannon's moves
    /// before or beyond its screen), where [`Movement::zone`] is tested at each of them and
    /// confines the run: leaving the zone ends the move.
    pub fn has_runs(&self) -> bool {
        matches!(
            self,
            Travel::Slide { quiet: true, .. }
                | Travel::Cannon { quiet: true, .. }
                | Travel::Cannon { beyond: true, .. }
        )
    }
}

/// One position a [`Travel::Path`] passes: the link to it, what it must hold, and whether it is
/// captured.
#[derive(Debug, Clone, PartialEq)]
pub struct Via {
    /// The link to the position.
    pub dir: String,
    /// Its tests, in the table's order of a run ([`canonical`]).
    pub tests: Vec<Cond>,
    /// The piece there is captured (after the tests).
    pub capture: bool,
}

/// A promotion at the end of the move: the moving piece becomes one of `pieces`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Promotion {
    /// The zone (for the mover) where it promotes; `None`: every move of the block.
    pub zone: Option<String>,
    /// The choices, in source order (ZoG's menu order).
    pub pieces: Vec<String>,
    /// It must promote (`false`: the move without promotion is offered too).
    pub forced: bool,
}

/// How one move block moves a piece: the typed form of a [`MoveBlock`].
#[derive(Debug, Clone, PartialEq)]
pub struct Movement {
    /// How it travels.
    pub travel: Travel,
    /// What the destination may hold (a slide's or cannon's first occupied position).
    pub land: Land,
    /// Other conditions the destination must meet, tested in order after [`Movement::land`]
    /// (untyped: a piece type there, a flag, a test of another position). Writers that cannot
    /// say one report the block.
    pub arrive: Vec<Cond>,
    /// Conditions every position of an unlimited slide's run must meet besides being empty
    /// (Ludii's `(between if:…)`), tested in order after the emptiness.
    pub run: Vec<Cond>,
    /// The run's positions need not be empty: [`Movement::run`] is their whole test, one
    /// condition (a ZoG slide through bombs, or through enemies); normal form: only then.
    pub through: bool,
    /// The origin must lie in this zone (tested before moving).
    pub from_zone: Option<String>,
    /// Other conditions tested before moving, in order, after the zone (untyped: flags,
    /// attributes, tests of other positions). Writers that cannot say one report the block.
    pub guard: Vec<Cond>,
    /// A lame path's first step must end in this zone (the ZRF pawn's double step).
    pub first_in: Option<String>,
    /// The destination must lie in this zone; in a run of moves ([`Travel::has_runs`]), each
    /// position of the run is tested, so leaving the zone ends the move (ZoG's `verify` in a
    /// loop: janggi's `slide-fortress`).
    pub zone: Option<String>,
    /// Promotion on arrival.
    pub promotion: Option<Promotion>,
    /// The same piece may move again (ZRF `add-partial`), restricted to this move type if set.
    /// With a [`Movement::promotion`] (in a zone, forced), a move that promotes ends the turn
    /// and only the others continue (a draughts man crowned on the far row).
    pub continues: Option<Continuation>,
    /// The block's move type (ZRF `move-type`, which priorities and partial moves name).
    pub move_type: Option<String>,
}

/// A partial move: the piece moves again in the same turn.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Continuation {
    /// The move type the continuation is restricted to.
    pub move_type: Option<String>,
}

/// Why a block has no typed form: the first thing recognition could not place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Why(pub &'static str);

impl std::fmt::Display for Why {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl Movement {
    /// A movement with `travel` and `land` and nothing else.
    pub fn new(travel: Travel, land: Land) -> Movement {
        Movement {
            travel,
            land,
            arrive: Vec::new(),
            run: Vec::new(),
            through: false,
            from_zone: None,
            guard: Vec::new(),
            first_in: None,
            zone: None,
            promotion: None,
            continues: None,
            move_type: None,
        }
    }

    /// Whether this is the one form of its meaning that [`recognise`] returns: paths long
    /// enough not to be a step, ranges of at least 2, parts only where the travel has them.
    pub fn is_normal(&self) -> bool {
        let m = self;
        let travel_ok = match &m.travel {
            Travel::Leap(p) | Travel::Lame(p) => p.len() >= 2,
            Travel::Slide { max, quiet, .. } => {
                max.is_none_or(|n| n >= 2) && (*quiet || (max.is_none() && m.land != Land::Empty))
            }
            Travel::Cannon { beyond, screen, .. } => {
                (m.land != Land::Empty || *beyond)
                    && screen.first() != Some(&not(test(Test::Empty)))
                    && in_run_order(screen)
            }
            Travel::EnPassant { .. } => m.land == Land::Any,
            _ => true,
        };
        let first_in_ok = m.first_in.is_none() || matches!(m.travel, Travel::Lame(_));
        let path_ok = match &m.travel {
            Travel::Path { via, last } => path_is_normal(via, last),
            _ => true,
        };
        let promo_ok = m.promotion.as_ref().is_none_or(|p| !p.pieces.is_empty());
        // En passant's fixed form takes no destination zone (in a slide's or a cannon's run,
        // the zone confines the run: leaving it ends the move).
        let zone_ok = m.zone.is_none() || !matches!(m.travel, Travel::EnPassant { .. });
        let ep_ok = !matches!(m.travel, Travel::EnPassant { .. }) || m.continues.is_none();
        // A continuation goes with a promotion only in a zone, where promoting ends the move.
        let cont_ok = m.continues.is_none()
            || m.promotion
                .as_ref()
                .is_none_or(|p| p.zone.is_some() && p.forced);
        // A hop over anything that captures nothing is a leap; a drop's lone zone test is
        // read as its origin's (the same position).
        let hop_ok = !matches!(
            m.travel,
            Travel::Hop {
                over: Hurdle::Any,
                capture: false,
                ..
            }
        );
        // A drop's tests are all its destination's.
        let drop_ok = m.travel != Travel::Drop || (m.guard.is_empty() && m.from_zone.is_none());
        // A zone test in the guard would be read as the origin's zone.
        let guard_ok = m.from_zone.is_some() || !m.guard.iter().any(is_zone);
        // Destination conditions: only where a destination is tested after the travel (not
        // a slide's empty run, nor en passant's fixed form); without a landing none is a
        // landing test (it would be read as the landing), and none is a zone test of the
        // destination (read as the zone).
        let no_destination_test = match m.travel {
            Travel::EnPassant { .. } => true,
            Travel::Slide { .. } | Travel::Cannon { .. } => m.land == Land::Empty,
            _ => false,
        };
        // Zone tests of the destination besides its zone come last (a run's order), only
        // with a zone (the last one is read as the zone), and not where the zone is tested in
        // a run of moves too (which of them is the zone would matter).
        let zones_ok = (m.zone.is_some() && !m.travel.has_runs()) || !m.arrive.iter().any(is_zone);
        let arrive_ok = m.arrive.is_empty()
            || (!no_destination_test
                && (m.land != Land::Any || !m.arrive.iter().any(|c| land_of(c).is_some()))
                && zones_ok
                && m.arrive.iter().skip_while(|c| !is_zone(c)).all(is_zone));
        let run_ok = m.run.is_empty() || matches!(m.travel, Travel::Slide { max: None, .. });
        let through_ok = !m.through
            || (matches!(m.travel, Travel::Slide { max: None, .. })
                && matches!(m.run.as_slice(), [c] if run_of(c).is_none()));
        travel_ok
            && path_ok
            && run_ok
            && through_ok
            && first_in_ok
            && promo_ok
            && zone_ok
            && ep_ok
            && cont_ok
            && hop_ok
            && drop_ok
            && guard_ok
            && arrive_ok
    }

    /// A movement from the conditions a reader states for it: `from` tested at the origin
    /// before moving, `to` at the destination. Conjunctions are split: the first zone test of
    /// `from` becomes [`Movement::from_zone`] and the rest the guard; the first landing test of
    /// `to` becomes [`Movement::land`] ([`Land::Any`] without one), its first zone test
    /// [`Movement::zone`], and the rest [`Movement::arrive`]; `true` tests nothing. `None` when the parts have no
    /// normal form (a slide that tests its destination's zone, say).
    pub fn from_conditions(
        travel: Travel,
        from: Option<&Cond>,
        to: Option<&Cond>,
    ) -> Option<Movement> {
        let mut m = Movement::new(travel, Land::Any);
        let always = Cond::Const(true);
        let parts = |c: Option<&Cond>| -> Vec<Cond> {
            let v = c.map(conjuncts).unwrap_or_default();
            v.into_iter().filter(|c| *c != always).collect()
        };
        for c in parts(from) {
            match c {
                Cond::InZone { zone, at: None } if m.from_zone.is_none() && m.guard.is_empty() => {
                    m.from_zone = Some(zone)
                }
                c => m.guard.push(c),
            }
        }
        let mut landed = false;
        for c in parts(to) {
            match (land_of(&c), c) {
                (Some(l), _) if !landed => {
                    m.land = l;
                    landed = true;
                }
                (_, Cond::InZone { zone, at: None }) if m.zone.is_none() => m.zone = Some(zone),
                (_, c) => m.arrive.push(c),
            }
        }
        m.is_normal().then_some(m)
    }

    /// The same movement along other directions: each direction of its travel renamed by `f`
    /// (a player's symmetry). `None` when `f` has no name for one. Conditions are kept as
    /// they are, so a caller comparing turned movements sees directions named there as a
    /// difference.
    pub fn turned(&self, f: impl Fn(&str) -> Option<String>) -> Option<Movement> {
        let path = |p: &[String]| p.iter().map(|d| f(d)).collect::<Option<Vec<String>>>();
        let travel = match &self.travel {
            Travel::Step(d) => Travel::Step(f(d)?),
            Travel::Slide { dir, max, quiet } => Travel::Slide {
                dir: f(dir)?,
                max: *max,
                quiet: *quiet,
            },
            Travel::Leap(p) => Travel::Leap(path(p)?),
            Travel::Lame(p) => Travel::Lame(path(p)?),
            Travel::Hop { dir, over, capture } => Travel::Hop {
                dir: f(dir)?,
                over: *over,
                capture: *capture,
            },
            Travel::Cannon {
                dir,
                quiet,
                beyond,
                screen,
            } => Travel::Cannon {
                dir: f(dir)?,
                quiet: *quiet,
                beyond: *beyond,
                screen: screen.clone(),
            },
            Travel::EnPassant {
                side,
                forward,
                piece,
            } => Travel::EnPassant {
                side: f(side)?,
                forward: f(forward)?,
                piece: piece.clone(),
            },
            Travel::Drop => Travel::Drop,
            Travel::To(pos) => Travel::To(pos.clone()),
            Travel::Path { via, last } => Travel::Path {
                via: via
                    .iter()
                    .map(|v| {
                        Some(Via {
                            dir: f(&v.dir)?,
                            ..v.clone()
                        })
                    })
                    .collect::<Option<Vec<Via>>>()?,
                last: f(last)?,
            },
        };
        Some(Movement {
            travel,
            ..self.clone()
        })
    }

    /// The directions it names, in order.
    pub fn directions(&self) -> Vec<&str> {
        match &self.travel {
            Travel::Step(d)
            | Travel::Slide { dir: d, .. }
            | Travel::Hop { dir: d, .. }
            | Travel::Cannon { dir: d, .. } => vec![d],
            Travel::Leap(p) | Travel::Lame(p) => p.iter().map(String::as_str).collect(),
            Travel::EnPassant { side, forward, .. } => vec![side, forward],
            Travel::Drop | Travel::To(_) => vec![],
            Travel::Path { via, last } => via
                .iter()
                .map(|v| v.dir.as_str())
                .chain([last.as_str()])
                .collect(),
        }
    }
}

/// The condition of a slide's run: empty, and the other conditions in order; or, for a slide
/// [`through`](Movement::through) occupied positions, its one condition.
fn run_cond(run: &[Cond], through: bool) -> Cond {
    match run {
        [c] if through => c.clone(),
        [] => test(Test::Empty),
        r => Cond::And(
            std::iter::once(test(Test::Empty))
                .chain(r.iter().cloned())
                .collect(),
        ),
    }
}

/// The conditions a run's test adds to emptiness (`None`: not a run's test).
fn run_of(c: &Cond) -> Option<Vec<Cond>> {
    match c {
        Cond::And(v) if v.len() >= 2 && v[0] == test(Test::Empty) => Some(v[1..].to_vec()),
        c if *c == test(Test::Empty) => Some(Vec::new()),
        _ => None,
    }
}

/// A reader's condition for a slide's run as [`Movement::run`]: its conjuncts besides the
/// one emptiness test it must make (`None`: it does not require emptiness).
pub fn run_parts(c: &Cond) -> Option<Vec<Cond>> {
    let parts = conjuncts(c);
    let empty = test(Test::Empty);
    (parts.iter().filter(|p| **p == empty).count() == 1)
        .then(|| parts.into_iter().filter(|p| *p != empty).collect())
}

/// The parts of a conjunction, nested ones flattened (a single condition is its own part).
fn conjuncts(c: &Cond) -> Vec<Cond> {
    match c {
        Cond::And(v) => v.iter().flat_map(conjuncts).collect(),
        c => vec![c.clone()],
    }
}

fn test(t: Test) -> Cond {
    Cond::Test {
        test: t,
        at: None,
        move_type: None,
    }
}

fn not(c: Cond) -> Cond {
    Cond::Not(Box::new(c))
}

fn in_zone(z: &str) -> Cond {
    Cond::InZone {
        zone: z.to_string(),
        at: None,
    }
}

/// The test a landing makes (`None`: no test).
pub fn land_cond(l: Land) -> Option<Cond> {
    match l {
        Land::Empty => Some(test(Test::Empty)),
        Land::Enemy => Some(test(Test::Enemy)),
        Land::NotFriend => Some(not(test(Test::Friend))),
        Land::Friend => Some(test(Test::Friend)),
        Land::Any => None,
    }
}

fn land_of(c: &Cond) -> Option<Land> {
    [Land::Empty, Land::Enemy, Land::NotFriend, Land::Friend]
        .into_iter()
        .find(|l| land_cond(*l).as_ref() == Some(c))
}

/// The test a hop makes of what it jumps (`None`: no test).
pub fn hurdle_cond(h: Hurdle) -> Option<Cond> {
    match h {
        Hurdle::Occupied => Some(not(test(Test::Empty))),
        Hurdle::Enemy => Some(test(Test::Enemy)),
        Hurdle::Friend => Some(test(Test::Friend)),
        Hurdle::Any => None,
    }
}

/// The hurdle a hop's test allows (`None`: a test that is no [`Hurdle`]).
pub fn hurdle_of(c: &Cond) -> Option<Hurdle> {
    [Hurdle::Occupied, Hurdle::Enemy, Hurdle::Friend]
        .into_iter()
        .find(|h| hurdle_cond(*h).as_ref() == Some(c))
}

fn step(d: &str) -> Instr {
    Instr::Step(d.to_string())
}

/// The destination's tests: the landing, then the other conditions.
fn verify_land(m: &Movement, out: &mut Vec<Instr>) {
    out.extend(land_cond(m.land).map(Instr::Verify));
    out.extend(m.arrive.iter().cloned().map(Instr::Verify));
}

/// The completion of a move at the current position: the destination-zone test, then the
/// promotion or continuation, then `add`.
fn finish(m: &Movement) -> Vec<Instr> {
    let mut out = Vec::new();
    if let Some(z) = &m.zone {
        out.push(Instr::Verify(in_zone(z)));
    }
    let add = |pieces: Vec<String>| Instr::Add {
        pieces,
        partial: m.continues.is_some(),
        copy: false,
        move_type: m.continues.as_ref().and_then(|c| c.move_type.clone()),
    };
    match &m.promotion {
        None => out.push(add(vec![])),
        Some(p) => {
            // A promotion ends the move: only the move that does not promote continues.
            let promote = Instr::Add {
                pieces: p.pieces.clone(),
                partial: false,
                copy: false,
                move_type: None,
            };
            match (&p.zone, p.forced) {
                (None, true) => out.push(promote),
                (None, false) => out.extend([promote, add(vec![])]),
                (Some(z), true) => out.push(Instr::If {
                    cond: in_zone(z),
                    then_: vec![promote],
                    else_: vec![add(vec![])],
                }),
                (Some(z), false) => out.extend([
                    Instr::If {
                        cond: in_zone(z),
                        then_: vec![promote],
                        else_: vec![],
                    },
                    add(vec![]),
                ]),
            }
        }
    }
    out
}

/// The move program of a movement: the one instruction sequence of each form.
pub fn program(m: &Movement) -> MoveBlock {
    let mut p = Vec::new();
    if let Some(z) = &m.from_zone {
        p.push(Instr::Verify(in_zone(z)));
    }
    p.extend(m.guard.iter().cloned().map(Instr::Verify));
    let empty = || Instr::Verify(test(Test::Empty));
    let fin = |p: &mut Vec<Instr>| p.extend(finish(m));
    match &m.travel {
        Travel::Step(d) => {
            p.push(step(d));
            verify_land(m, &mut p);
            fin(&mut p);
        }
        Travel::Leap(path) => {
            p.extend(path.iter().map(|d| step(d)));
            verify_land(m, &mut p);
            fin(&mut p);
        }
        Travel::Lame(path) => {
            for (k, d) in path.iter().enumerate() {
                if k > 0 {
                    p.push(empty());
                    if k == 1
                        && let Some(z) = &m.first_in
                    {
                        p.push(Instr::Verify(in_zone(z)));
                    }
                }
                p.push(step(d));
            }
            verify_land(m, &mut p);
            fin(&mut p);
        }
        Travel::Slide {
            dir,
            max: None,
            quiet,
        } => {
            let mut body = if *quiet { finish(m) } else { vec![] };
            body.push(step(dir));
            p.push(step(dir));
            p.push(Instr::While {
                cond: run_cond(&m.run, m.through),
                body,
            });
            if m.land != Land::Empty {
                verify_land(m, &mut p);
                p.extend(finish(m));
            }
        }
        Travel::Slide {
            dir, max: Some(n), ..
        } => p.extend(ranged(m, dir, *n)),
        Travel::Hop { dir, over, capture } => {
            p.push(step(dir));
            p.extend(hurdle_cond(*over).map(Instr::Verify));
            if *capture {
                p.push(Instr::Capture { at: None });
            }
            p.push(step(dir));
            verify_land(m, &mut p);
            fin(&mut p);
        }
        Travel::Cannon {
            dir,
            quiet,
            beyond,
            screen,
        } => {
            let mut run = if *quiet { finish(m) } else { vec![] };
            run.push(step(dir));
            let mut after = if *beyond { finish(m) } else { vec![] };
            after.push(step(dir));
            p.push(step(dir));
            p.push(Instr::While {
                cond: test(Test::Empty),
                body: run,
            });
            match screen.is_empty() {
                true => p.push(Instr::Verify(not(test(Test::Empty)))),
                false => p.extend(screen.iter().cloned().map(Instr::Verify)),
            }
            p.push(step(dir));
            p.push(Instr::While {
                cond: test(Test::Empty),
                body: after,
            });
            if m.land != Land::Empty {
                verify_land(m, &mut p);
                fin(&mut p);
            }
        }
        Travel::EnPassant {
            side,
            forward,
            piece,
        } => {
            p.extend([
                step(side),
                Instr::Verify(test(Test::Enemy)),
                Instr::Verify(test(Test::LastTo)),
                Instr::Verify(Cond::Piece {
                    piece: piece.clone(),
                    at: None,
                }),
                Instr::Capture { at: None },
                step(forward),
                Instr::Mark,
                step(forward),
                Instr::Verify(test(Test::LastFrom)),
                Instr::Back,
            ]);
            fin(&mut p);
        }
        Travel::Drop => {
            verify_land(m, &mut p);
            fin(&mut p);
        }
        Travel::To(pos) => {
            p.push(Instr::Jump(pos.clone()));
            verify_land(m, &mut p);
            fin(&mut p);
        }
        Travel::Path { via, last } => {
            for v in via {
                p.push(step(&v.dir));
                p.extend(v.tests.iter().cloned().map(Instr::Verify));
                if v.capture {
                    p.push(Instr::Capture { at: None });
                }
            }
            p.push(step(last));
            verify_land(m, &mut p);
            fin(&mut p);
        }
    }
    MoveBlock {
        move_type: m.move_type.clone(),
        program: p,
    }
}

/// A slide of at most `n` links: each empty position is a destination and leads on; the first
/// occupied one is tested by the landing.
fn ranged(m: &Movement, dir: &str, n: usize) -> Vec<Instr> {
    let stop = || {
        let mut s = Vec::new();
        if m.land != Land::Empty {
            verify_land(m, &mut s);
            s.extend(finish(m));
        }
        s
    };
    let mut inner: Vec<Instr> = Vec::new();
    for _ in 0..n {
        let mut then_ = finish(m);
        then_.extend(inner);
        inner = vec![
            step(dir),
            Instr::If {
                cond: test(Test::Empty),
                then_,
                else_: stop(),
            },
        ];
    }
    inner
}

/// The typed form of a block, with calls inlined first; `Err` says why there is none.
pub fn recognise_in(
    b: &MoveBlock,
    procedures: &[Vec<Instr>],
    inl: &mut Inliner,
) -> Result<Movement, Why> {
    let block = MoveBlock {
        move_type: b.move_type.clone(),
        program: inline(&b.program, procedures, inl),
    };
    recognise(&block)
}

/// The typed form of a block whose calls are already inlined (a `Call` is not recognised):
/// exactly the programs [`program`] writes, up to the order of consecutive verifications
/// (see [`canonical`]).
pub fn recognise(b: &MoveBlock) -> Result<Movement, Why> {
    let canon = canonical(&b.program);
    // Conditions before the travel are its origin's (zone, then guard), unless nothing
    // travels: a drop's tests are all its destination's.
    let (tests, after) = tests_prefix(&canon);
    let travels = matches!(after.first(), Some(Instr::Step(_) | Instr::Jump(_)));
    let (mut guard, p): (Vec<Cond>, &[Instr]) = match travels {
        true => (tests.into_iter().cloned().collect(), after),
        false => (Vec::new(), &canon),
    };
    let from_zone = match guard.first() {
        Some(Cond::InZone { zone, at: None }) => Some(zone.clone()),
        _ => None,
    };
    if from_zone.is_some() {
        guard.remove(0);
    }
    let mut m = travel(p)?;
    m.from_zone = from_zone;
    m.guard = guard;
    m.move_type = b.move_type.clone();
    if !m.is_normal() {
        return Err(Why("its parts do not fit its travel (not a normal form)"));
    }
    // The table is the judge: whatever was read must be written back the same (up to the
    // order of consecutive verifications).
    let written = program(&m);
    if !super::moves::Equality::new(&[], &[]).blocks(std::slice::from_ref(b), &[written]) {
        return Err(Why("it differs from the typed form in its details"));
    }
    Ok(m)
}

/// A program with each run of consecutive verifications in the order [`program`] writes
/// them. Conditions have no effect, so such a run means the same in any order: the origin's
/// run (before a program's first step) puts its first zone test first; every other run puts
/// its first landing test ([`Land`]) first and its zone tests of the current position last,
/// the rest keeping their order. Branches and loop bodies are ordered the same way.
pub fn canonical(p: &[Instr]) -> Vec<Instr> {
    let first_other = p.iter().find(|i| !matches!(i, Instr::Verify(_)));
    let origin = matches!(first_other, Some(Instr::Step(_) | Instr::Jump(_)));
    order_runs(p, origin)
}

fn order_runs(p: &[Instr], origin: bool) -> Vec<Instr> {
    let mut out = Vec::with_capacity(p.len());
    let mut i = 0;
    while i < p.len() {
        let (run, _) = tests_prefix(&p[i..]);
        if run.is_empty() {
            out.push(match &p[i] {
                Instr::If { cond, then_, else_ } => Instr::If {
                    cond: cond.clone(),
                    then_: order_runs(then_, false),
                    else_: order_runs(else_, false),
                },
                Instr::While { cond, body } => Instr::While {
                    cond: cond.clone(),
                    body: order_runs(body, false),
                },
                other => other.clone(),
            });
            i += 1;
            continue;
        }
        let ordered = if origin && i == 0 {
            origin_order(&run)
        } else {
            destination_order(&run)
        };
        out.extend(ordered.into_iter().cloned().map(Instr::Verify));
        i += run.len();
    }
    out
}

fn is_zone(c: &Cond) -> bool {
    matches!(c, Cond::InZone { at: None, .. })
}

/// The origin's tests: its first zone test, then the others in order.
fn origin_order<'c>(run: &[&'c Cond]) -> Vec<&'c Cond> {
    let k = run.iter().position(|c| is_zone(c));
    let mut out: Vec<&Cond> = k.map(|k| run[k]).into_iter().collect();
    out.extend(
        run.iter()
            .enumerate()
            .filter(|(j, _)| Some(*j) != k)
            .map(|(_, c)| *c),
    );
    out
}

/// A destination's tests: its first landing test, the others in order, its zone tests last.
fn destination_order<'c>(run: &[&'c Cond]) -> Vec<&'c Cond> {
    let k = run.iter().position(|c| land_of(c).is_some());
    let mut out: Vec<&Cond> = k.map(|k| run[k]).into_iter().collect();
    let rest = || run.iter().enumerate().filter(|(j, _)| Some(*j) != k);
    out.extend(rest().filter(|(_, c)| !is_zone(c)).map(|(_, c)| *c));
    out.extend(rest().filter(|(_, c)| is_zone(c)).map(|(_, c)| *c));
    out
}

/// Whether a run of tests is in the order [`canonical`] gives a destination's run.
fn in_run_order(run: &[Cond]) -> bool {
    let refs: Vec<&Cond> = run.iter().collect();
    destination_order(&refs).into_iter().eq(run.iter())
}

/// The quiet slide a block begins with, for a block the table does not type whole: its moves up
/// to the first occupied position, for a writer that can say only those (it reports the rest).
/// `None` when the block does not begin with a slide's run of empty positions.
pub fn slide_part(b: &MoveBlock) -> Option<Movement> {
    let k = b
        .program
        .iter()
        .position(|i| matches!(i, Instr::While { .. }))?;
    let part = MoveBlock {
        move_type: b.move_type.clone(),
        program: b.program[..=k].to_vec(),
    };
    let m = recognise(&part).ok()?;
    let quiet = matches!(m.travel, Travel::Slide { quiet: true, .. });
    (quiet && m.land == Land::Empty && recognise(b).is_err()).then_some(m)
}

/// The tail after the travel: `(verify (in-zone? z))?` then the promotion or continuation
/// and `add`. Returns the zone, promotion and continuation.
type Tail = (Option<String>, Option<Promotion>, Option<Continuation>);

fn tail(t: &[Instr]) -> Result<Tail, Why> {
    let (zone, t) = match t {
        [Instr::Verify(Cond::InZone { zone, at: None }), rest @ ..] if !rest.is_empty() => {
            (Some(zone.clone()), rest)
        }
        t => (None, t),
    };
    let add_of = |i: &Instr| match i {
        Instr::Add {
            pieces,
            partial,
            copy: false,
            move_type,
        } => Some((
            pieces.clone(),
            partial.then(|| Continuation {
                move_type: move_type.clone(),
            }),
            !*partial && move_type.is_some(),
        )),
        _ => None,
    };
    let plain = |i: &Instr| add_of(i).filter(|(p, _, bad)| p.is_empty() && !bad);
    let promo = |i: &Instr| add_of(i).filter(|(p, c, bad)| !p.is_empty() && c.is_none() && !bad);
    let none = Why("it does not end in an add, a promotion or a continuation");
    let (promotion, cont) = match t {
        [
            Instr::If {
                cond: Cond::InZone { zone: z, at: None },
                then_,
                else_,
            },
            rest @ ..,
        ] => {
            // Promote in the zone, else continue: a continuation the promotion ends.
            let continued = |e: &Instr| plain(e).and_then(|(_, c, _)| c);
            let (forced, cont) = match (else_.as_slice(), rest) {
                ([e], []) if is_add(e) => (true, None),
                ([e], []) if continued(e).is_some() => (true, continued(e)),
                ([], [e]) if is_add(e) => (false, None),
                _ => return Err(none),
            };
            match then_.as_slice() {
                [pa] => match promo(pa) {
                    Some((pieces, ..)) => (Some((Some(z.clone()), pieces, forced)), cont),
                    None => return Err(none),
                },
                _ => return Err(none),
            }
        }
        [a] => match (plain(a), promo(a)) {
            (Some((_, c, _)), _) => (None, c),
            (_, Some((pieces, ..))) => (Some((None, pieces, true)), None),
            _ => return Err(none),
        },
        [a, b] if promo(a).is_some() && plain(b).is_some_and(|x| x.1.is_none()) => {
            (Some((None, promo(a).expect("checked").0, false)), None)
        }
        _ => return Err(none),
    };
    let promotion = promotion.map(|(zone, pieces, forced)| Promotion {
        zone,
        pieces,
        forced,
    });
    Ok((zone, promotion, cont))
}

/// Sets the tail's parts on `m`.
fn with_tail(mut m: Movement, t: Tail) -> Movement {
    (m.zone, m.promotion, m.continues) = t;
    m
}

/// The destination's tests at the head of `p`: the landing, the other conditions (up to the
/// zone test and the tail), and the rest.
fn landing(p: &[Instr]) -> (Land, Vec<Cond>, &[Instr]) {
    let (land, mut rest) = match p {
        [Instr::Verify(c), rest @ ..] if !rest.is_empty() => match land_of(c) {
            Some(l) => (l, rest),
            None => (Land::Any, p),
        },
        _ => (Land::Any, p),
    };
    let mut arrive = Vec::new();
    // Every test up to the tail, but a last zone test, which is the tail's (the zone).
    while let [Instr::Verify(c), r @ ..] = rest
        && !r.is_empty()
        && (!is_zone(c) || matches!(r.first(), Some(Instr::Verify(_))))
    {
        arrive.push(c.clone());
        rest = r;
    }
    (land, arrive, rest)
}

/// A movement with its destination's tests.
fn landed(travel: Travel, (land, arrive): (Land, Vec<Cond>)) -> Movement {
    Movement {
        arrive,
        ..Movement::new(travel, land)
    }
}

/// The conditions of the verifications `p` begins with, and the rest.
fn tests_prefix(p: &[Instr]) -> (Vec<&Cond>, &[Instr]) {
    let tests: Vec<&Cond> = p
        .iter()
        .map_while(|i| match i {
            Instr::Verify(c) => Some(c),
            _ => None,
        })
        .collect();
    let n = tests.len();
    (tests, &p[n..])
}

fn steps_prefix(p: &[Instr]) -> (Vec<String>, &[Instr]) {
    let n = p.iter().take_while(|i| matches!(i, Instr::Step(_))).count();
    let dirs = p[..n]
        .iter()
        .filter_map(|i| match i {
            Instr::Step(d) => Some(d.clone()),
            _ => None,
        })
        .collect();
    (dirs, &p[n..])
}

/// The travel and what follows it.
fn travel(p: &[Instr]) -> Result<Movement, Why> {
    if p.iter().any(|i| matches!(i, Instr::Call(_))) {
        return Err(Why(
            "it calls a procedure that could not be inlined (missing, or past the inlining budget)",
        ));
    }
    let is_empty = |c: &Cond| *c == test(Test::Empty);
    match p {
        [] => Err(Why("it is empty")),
        [Instr::Step(d), Instr::While { cond, body }, rest @ ..] => {
            let mut m = slide_or_cannon(d, body, rest)?;
            match run_of(cond) {
                Some(run) => m.run = run,
                None => (m.run, m.through) = (vec![cond.clone()], true),
            }
            Ok(m)
        }
        [Instr::Step(d), Instr::If { cond, .. }] if is_empty(cond) => ranged_of(d, p),
        [
            Instr::Step(side),
            Instr::Verify(e),
            Instr::Verify(a),
            Instr::Verify(b),
            ..,
        ] if *e == test(Test::Enemy) && (*a == test(Test::LastTo) || *b == test(Test::LastTo)) => {
            en_passant(side, &p[1..]).or_else(|_| chain(p))
        }
        [Instr::Step(_), ..] => path(p).or_else(|_| chain(p)),
        [Instr::Jump(pos), rest @ ..]
            if !rest
                .iter()
                .any(|i| matches!(i, Instr::Step(_) | Instr::While { .. } | Instr::Jump(_))) =>
        {
            let (land, arrive, rest) = landing(rest);
            Ok(with_tail(
                landed(Travel::To(pos.clone()), (land, arrive)),
                tail(rest)?,
            ))
        }
        _ if !p
            .iter()
            .any(|i| matches!(i, Instr::Step(_) | Instr::While { .. } | Instr::Jump(_))) =>
        {
            let (land, arrive, rest) = landing(p);
            Ok(with_tail(landed(Travel::Drop, (land, arrive)), tail(rest)?))
        }
        _ => Err(Why("it does not start with a step")),
    }
}

/// Steps, lame paths and hops: `step+ (verify …)? tail` and their variants.
fn path(p: &[Instr]) -> Result<Movement, Why> {
    let (dirs, rest) = steps_prefix(p);
    // A hop: step d, (verify hurdle)?, capture?, step d, landing, tail.
    if let [d] = dirs.as_slice() {
        let (over, r) = match rest {
            [Instr::Verify(c), r @ ..] if hurdle_of(c).is_some() => {
                (hurdle_of(c).expect("checked"), r)
            }
            r => (Hurdle::Any, r),
        };
        let (capture, r) = match r {
            [Instr::Capture { at: None }, r @ ..] => (true, r),
            r => (false, r),
        };
        if let [Instr::Step(d2), r @ ..] = r
            && d2 == d
            && (capture || over != Hurdle::Any)
        {
            let (land, arrive, t) = landing(r);
            let hop = Travel::Hop {
                dir: d.clone(),
                over,
                capture,
            };
            return Ok(with_tail(landed(hop, (land, arrive)), tail(t)?));
        }
    }
    // A lame path: step d1, verify empty, [verify (in-zone? z)], step d2, verify empty, … .
    if let [d1] = dirs.as_slice()
        && let [Instr::Verify(c), ..] = rest
        && *c == test(Test::Empty)
        && lame_continues(rest)
    {
        return lame(d1, rest);
    }
    let (land, arrive, t) = landing(rest);
    let travel = match dirs.len() {
        0 => return Err(Why("it does not start with a step")),
        1 => Travel::Step(dirs[0].clone()),
        _ => Travel::Leap(dirs),
    };
    Ok(with_tail(landed(travel, (land, arrive)), tail(t)?))
}

/// The general path: `(step d, (verify …)*, capture?)+ step d, landing, tail`.
fn chain(mut p: &[Instr]) -> Result<Movement, Why> {
    let mut via = Vec::new();
    while let [Instr::Step(d), r @ ..] = p {
        let (tests, after) = tests_prefix(r);
        let (capture, next) = match after {
            [Instr::Capture { at: None }, n @ ..] => (true, n),
            n => (false, n),
        };
        if !matches!(next.first(), Some(Instr::Step(_))) {
            let (land, arrive, t) = landing(r);
            let last = d.clone();
            let m = landed(Travel::Path { via, last }, (land, arrive));
            return Ok(with_tail(m, tail(t)?));
        }
        via.push(Via {
            dir: d.clone(),
            tests: tests.into_iter().cloned().collect(),
            capture,
        });
        p = next;
    }
    Err(Why(
        "its path has a part that is neither a step, a test nor a capture",
    ))
}

/// Whether a path is none of the travels that specialise it, with its tests in the table's
/// order.
fn path_is_normal(via: &[Via], last: &str) -> bool {
    let plain = |v: &Via, t: &[Cond]| !v.capture && v.tests == t;
    let empty = [test(Test::Empty)];
    let leap = via.iter().all(|v| plain(v, &[]));
    let lame = via.iter().all(|v| plain(v, &empty))
        || (matches!(via[0].tests.as_slice(), [e, z] if *e == empty[0] && is_zone(z))
            && !via[0].capture
            && via[1..].iter().all(|v| plain(v, &empty)));
    let hop = match via {
        [v] if v.dir == last => match v.tests.as_slice() {
            [] => v.capture,
            [c] => hurdle_of(c).is_some(),
            _ => false,
        },
        _ => false,
    };
    let ordered = via.iter().all(|v| {
        let run: Vec<&Cond> = v.tests.iter().collect();
        destination_order(&run) == run
    });
    !via.is_empty() && !leap && !lame && !hop && ordered
}

/// Whether `verify empty` at the head of `rest` leads on to another step (a lame path) rather
/// than ending a step's landing.
fn lame_continues(rest: &[Instr]) -> bool {
    matches!(
        rest,
        [_, Instr::Step(_), ..] | [_, Instr::Verify(Cond::InZone { .. }), Instr::Step(_), ..]
    )
}

fn lame(d1: &str, mut rest: &[Instr]) -> Result<Movement, Why> {
    let mut dirs = vec![d1.to_string()];
    let mut first_in = None;
    loop {
        match rest {
            [Instr::Verify(c), r @ ..] if *c == test(Test::Empty) && lame_continues(rest) => {
                let r = match r {
                    [Instr::Verify(Cond::InZone { zone, at: None }), r2 @ ..]
                        if dirs.len() == 1 =>
                    {
                        first_in = Some(zone.clone());
                        r2
                    }
                    r => r,
                };
                match r {
                    [Instr::Step(d), r2 @ ..] => {
                        dirs.push(d.clone());
                        rest = r2;
                    }
                    _ => return Err(Why("its path stops after an emptiness test")),
                }
            }
            _ => break,
        }
    }
    let (land, arrive, t) = landing(rest);
    let mut m = with_tail(landed(Travel::Lame(dirs), (land, arrive)), tail(t)?);
    m.first_in = first_in;
    Ok(m)
}

/// `step d, while empty (tail, step d), (verify land, tail)?` (a slide) or
/// `step d, while empty ((tail)? step d), verify screen, step d, while empty ((tail)? step d),
/// (verify land, tail)?` (a cannon).
fn slide_or_cannon(d: &str, body: &[Instr], rest: &[Instr]) -> Result<Movement, Why> {
    let Some((Instr::Step(d2), run)) = body.split_last() else {
        return Err(Why("its loop does not step on"));
    };
    if d2 != d {
        return Err(Why("its loop steps along another direction"));
    }
    let (screen, after) = tests_prefix(rest);
    if !screen.is_empty()
        && let [Instr::Step(d3), Instr::While { cond, body: b2 }, r @ ..] = after
        && d3 == d
        && *cond == test(Test::Empty)
        && let Some((Instr::Step(x), beyond)) = b2.split_last()
        && x == d
    {
        let occupied = [not(test(Test::Empty))];
        let screen: Vec<Cond> = screen.into_iter().cloned().collect();
        let cannon = Travel::Cannon {
            dir: d.to_string(),
            quiet: !run.is_empty(),
            beyond: !beyond.is_empty(),
            screen: if screen == occupied {
                Vec::new()
            } else {
                screen
            },
        };
        // The tail is the one of whichever part makes moves (the table checks they agree).
        let (land, arrive, t) = landing(r);
        let t = match (r.is_empty(), beyond.is_empty(), run.is_empty()) {
            (false, ..) => t,
            (true, false, _) => beyond,
            (true, true, false) => run,
            (true, true, true) => return Err(Why("its cannon makes no move")),
        };
        let m = match r.is_empty() {
            true => Movement::new(cannon, Land::Empty),
            false => landed(cannon, (land, arrive)),
        };
        return Ok(with_tail(m, tail(t)?));
    }
    let quiet = !run.is_empty();
    let slide = Travel::Slide {
        dir: d.to_string(),
        max: None,
        quiet,
    };
    if !quiet {
        let (land, arrive, r) = landing(rest);
        return Ok(with_tail(landed(slide, (land, arrive)), tail(r)?));
    }
    let t = tail(run)?;
    if rest.is_empty() {
        return Ok(with_tail(Movement::new(slide, Land::Empty), t));
    }
    let (land, arrive, r) = landing(rest);
    Ok(with_tail(landed(slide, (land, arrive)), tail(r)?))
}

/// A ranged slide: its depth is the number of nested `if empty?`; the table checks the rest.
fn ranged_of(d: &str, p: &[Instr]) -> Result<Movement, Why> {
    let mut n = 0;
    let mut at = p;
    let mut first: Option<((Land, Vec<Cond>), Tail)> = None;
    while let [Instr::Step(x), Instr::If { then_, else_, .. }] = at {
        if x != d {
            return Err(Why("its range steps along another direction"));
        }
        n += 1;
        if first.is_none() {
            let k = then_
                .iter()
                .position(|i| matches!(i, Instr::Step(_)))
                .unwrap_or(then_.len());
            let t = tail(&then_[..k])?;
            let land = match else_.as_slice() {
                [] => (Land::Empty, Vec::new()),
                e => {
                    let (l, a, _) = landing(e);
                    (l, a)
                }
            };
            first = Some((land, t));
        }
        at = match then_.iter().position(|i| matches!(i, Instr::Step(_))) {
            Some(k) => &then_[k..],
            None => &[],
        };
    }
    let Some((land, t)) = first else {
        return Err(Why("it is not a ranged slide"));
    };
    let slide = Travel::Slide {
        dir: d.to_string(),
        max: Some(n),
        quiet: true,
    };
    Ok(with_tail(landed(slide, land), t))
}

fn en_passant(side: &str, p: &[Instr]) -> Result<Movement, Why> {
    // The last move's destination and the piece type, in either order.
    let piece = match p {
        [_, Instr::Verify(Cond::Piece { piece, at: None }), _, ..]
        | [_, _, Instr::Verify(Cond::Piece { piece, at: None }), ..] => piece,
        _ => return Err(Why("it tests the last move but is not en passant")),
    };
    match p {
        [
            _,
            _,
            _,
            Instr::Capture { at: None },
            Instr::Step(f1),
            Instr::Mark,
            Instr::Step(f2),
            Instr::Verify(lf),
            Instr::Back,
            t @ ..,
        ] if f1 == f2 && *lf == test(Test::LastFrom) => {
            let ep = Travel::EnPassant {
                side: side.to_string(),
                forward: f1.clone(),
                piece: piece.clone(),
            };
            Ok(with_tail(Movement::new(ep, Land::Any), tail(t)?))
        }
        _ => Err(Why("it tests the last move but is not en passant")),
    }
}

#[cfg(test)]
mod tests;
