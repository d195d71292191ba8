//! A piece's move blocks as Betza atoms, printed from their typed movements (`spec::movement`,
//! after calls are inlined): steps, leaps, lame leaps, riders, cannons, en passant, with
//! promotion in a zone and the double step's zone. Janggi's palace lines and cannon are taken
//! off first; a block the table types only up to its first occupied square gives its slide.
//! Whatever is left is reported by the caller, never guessed.

use super::betza::{Atom, Modality, Travel, Vector, lame_path};
use crate::spec::movement;
use crate::spec::moves;
use crate::spec::{Cond, Instr, MoveBlock, Test};
use std::collections::BTreeSet;

/// One movement with the zone its destination must lie in, if any.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Movement {
    /// The atom.
    pub atom: Atom,
    /// Destination zone (ZRF `(verify (in-zone? z))` before `add`).
    pub zone: Option<String>,
    /// The zone whose lines the move follows: the block tests that the piece stands in it and
    /// that every square it reaches is in it (janggi's palace diagonals), see [`take_lines`].
    pub lines: Option<String>,
}

/// What one piece's blocks say, for one player's direction vectors.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Classified {
    /// The movements.
    pub moves: BTreeSet<Movement>,
    /// Promotions: the zone and the choices, per block that promotes.
    pub promotions: Vec<(String, Vec<String>)>,
    /// The zone the first step of an initial (double-step) move must reach, and that step.
    pub initial: Option<(String, Vector)>,
    /// Blocks that castle (they move a second piece).
    pub castling: usize,
    /// The pieces an en passant capture takes.
    pub en_passant: Vec<String>,
    /// Blocks with no Fairy-Stockfish form: block number (1-based) and why.
    pub unexpressible: Vec<(usize, String)>,
    /// Blocks (1-based) that move along the lines of a zone (their movements have `lines`).
    pub line_blocks: Vec<usize>,
}

/// Whatever a destination condition allows.
fn modalities(c: &Cond) -> Option<&'static [Modality]> {
    const BOTH: &[Modality] = &[Modality::Move, Modality::Capture];
    match c {
        Cond::Not(inner)
            if matches!(
                **inner,
                Cond::Test {
                    test: Test::Friend,
                    at: None,
                    move_type: None
                }
            ) =>
        {
            Some(BOTH)
        }
        Cond::Test {
            test,
            at: None,
            move_type: None,
        } => match test {
            Test::Empty => Some(&[Modality::Move]),
            Test::Enemy => Some(&[Modality::Capture]),
            _ => None,
        },
        _ => None,
    }
}

/// Takes a line restriction off a typed movement: it starts in zone `z`, and `z` is its
/// destination zone or one of its destination's zone tests (`step-fortress`, `slide-fortress`,
/// `shoot-fortress` of janggi). What is left moves along the lines of `z`, which
/// Fairy-Stockfish states with `diagonalLines` for its janggi pieces; the writer decides
/// whether the piece is one of them.
fn take_lines(m: &mut movement::Movement) -> Option<String> {
    let z = m.from_zone.clone()?;
    let tests_z = |c: &Cond| matches!(c, Cond::InZone { zone, at: None } if *zone == z);
    if m.zone.as_ref() == Some(&z) {
        // Its other zone test, if any, is its zone (a mobility region).
        m.zone = match m.arrive.last() {
            Some(Cond::InZone { zone, at: None }) => Some(zone.clone()),
            _ => None,
        };
        if m.zone.is_some() {
            m.arrive.pop();
        }
    } else if let Some(k) = m.arrive.iter().position(tests_z) {
        m.arrive.remove(k);
    } else {
        return None;
    }
    m.from_zone = None;
    Some(z)
}

/// The janggi cannon's atoms, when `m` is its move along a direction: over exactly one piece
/// that is not of its own kind (`own`), to any square after it (`beyond`) and onto a piece
/// that is neither friendly nor of its kind; on the lines, the form whose screen is the next
/// square and whose landing the square after it (a path). `None`: not the janggi cannon's.
fn janggi_hop(
    m: &movement::Movement,
    own: &str,
    lines: bool,
    vec: &dyn Fn(&str) -> Option<Vector>,
) -> Option<Vec<Atom>> {
    use movement::{Land, Travel as T};
    let not_own = Cond::Not(Box::new(Cond::Piece {
        piece: own.to_string(),
        at: None,
    }));
    let takes = matches!(m.land, Land::Enemy | Land::NotFriend) && m.arrive == [not_own.clone()];
    let (d, moves, captures) = match &m.travel {
        T::Cannon {
            dir,
            quiet: false,
            beyond,
            screen,
        } if *screen == [not_own.clone()] => {
            if !(takes || m.land == Land::Empty && m.arrive.is_empty()) {
                return None;
            }
            (dir, *beyond, m.land != Land::Empty)
        }
        T::Path { via, last } if lines && takes && m.land == Land::NotFriend => {
            let [v] = via.as_slice() else { return None };
            let occupied = Cond::Not(Box::new(Cond::Test {
                test: Test::Empty,
                at: None,
                move_type: None,
            }));
            let screen_ok = v.tests.contains(&not_own)
                && v.tests.iter().all(|c| *c == not_own || *c == occupied);
            if v.dir != *last || v.capture || !screen_ok {
                return None;
            }
            (last, true, true)
        }
        _ => return None,
    };
    let v = vec(d)?;
    let atom = |modality| Atom {
        travel: Travel::JanggiHop,
        initial: false,
        modality,
        v,
    };
    let mut atoms = Vec::new();
    if moves {
        atoms.push(atom(Modality::Move));
    }
    if captures {
        atoms.push(atom(Modality::Capture));
    }
    Some(atoms)
}

fn add_vec(a: Vector, b: Vector) -> Vector {
    (a.0 + b.0, a.1 + b.1)
}

/// Classifies the blocks of piece `own` with direction vectors from `vec` (`None`: a
/// direction without one).
///
/// `holds` says whether a condition holds on every square of the playing area (`Some(true)`)
/// or on none (`Some(false)`): a first test of the starting square that always holds ("on the
/// board") is dropped, and a block whose first test never holds there (a move from an
/// off-board hand square) can make no move on the board and is skipped.
pub fn classify(
    own: &str,
    blocks: &[MoveBlock],
    procedures: &[Vec<Instr>],
    ignore_move_types: bool,
    vec: &dyn Fn(&str) -> Option<Vector>,
    holds: &dyn Fn(&Cond) -> Option<bool>,
) -> Classified {
    let mut out = Classified::default();
    let mut inl = moves::Inliner::new(procedures.len());
    for (bi, b) in blocks.iter().enumerate() {
        if b.move_type.is_some() && !ignore_move_types {
            out.unexpressible.push((
                bi + 1,
                "it has a move type that decides when it may be played".into(),
            ));
            continue;
        }
        let mut p = moves::inline(&b.program, procedures, &mut inl);
        if let [Instr::Verify(c), ..] = p.as_slice() {
            match holds(c) {
                Some(true) => {
                    p.remove(0);
                }
                Some(false) => continue,
                None => {}
            }
        }
        if p.iter().any(|i| matches!(i, Instr::Cascade)) {
            out.castling += 1;
            continue;
        }
        let block = MoveBlock {
            move_type: None,
            program: p.clone(),
        };
        let whole = movement::recognise(&block).map_err(|w| w.to_string());
        let mut lines = None;
        let typed_block = whole.and_then(|mut m| {
            lines = take_lines(&mut m);
            if lines.is_some() {
                out.line_blocks.push(bi + 1);
            }
            match janggi_hop(&m, own, lines.is_some(), vec) {
                Some(atoms) if m.promotion.is_none() && m.zone.is_none() => Ok(Typed {
                    atoms,
                    ..Typed::default()
                }),
                _ => typed(&m, vec),
            }
        });
        match typed_block {
            Ok(t) => out.add_typed(t, lines),
            Err(why) => {
                // The moves up to the first occupied square, when the table types those.
                match movement::slide_part(&block).map(|m| typed(&m, vec)) {
                    Some(Ok(t)) => {
                        out.add_typed(t, None);
                        let rest = format!("its moves beyond the slide: {why}");
                        out.unexpressible.push((bi + 1, rest));
                    }
                    _ => out.unexpressible.push((bi + 1, why)),
                }
            }
        }
    }
    out
}

/// What one typed block says: its atoms, destination zone, promotion (zone and choices), the
/// double step's zone and first step, and the piece en passant takes.
#[derive(Default)]
struct Typed {
    atoms: Vec<Atom>,
    zone: Option<String>,
    promotion: Option<(String, Vec<String>)>,
    initial: Option<(String, Vector)>,
    en_passant: Option<String>,
}

impl Classified {
    fn add_typed(&mut self, t: Typed, lines: Option<String>) {
        self.promotions.extend(t.promotion);
        self.en_passant.extend(t.en_passant);
        if t.initial.is_some() {
            self.initial = t.initial;
        }
        for atom in t.atoms {
            self.moves.insert(Movement {
                atom,
                zone: t.zone.clone(),
                lines: lines.clone(),
            });
        }
    }
}

/// The Betza atoms of a movement typed by the movement table; `Err` says why Fairy-Stockfish
/// has none (the caller then tries the block's instructions).
fn typed(m: &movement::Movement, vec: &dyn Fn(&str) -> Option<Vector>) -> Result<Typed, String> {
    use movement::{Land, Travel as T};
    let v1 = |d: &str| vec(d).ok_or_else(|| format!("direction `{d}` has no board vector"));
    if m.from_zone.is_some() || !m.guard.is_empty() {
        return Err("it tests its starting square first (a conditional move)".into());
    }
    if !m.arrive.is_empty() || !m.run.is_empty() || m.continues.is_some() {
        return Err("it tests more than what its destination holds".into());
    }
    if m.travel.has_runs() && m.zone.is_some() {
        return Err("its zone confines a run of moves (a mobility region does not)".into());
    }
    let promotion = match &m.promotion {
        None => None,
        Some(p) if p.forced && p.zone.is_some() => {
            Some((p.zone.clone().expect("checked"), p.pieces.clone()))
        }
        Some(_) => return Err("its promotion is not forced in a zone".into()),
    };
    // En passant's landing is fixed by its form (the square behind the captured pawn).
    let ep = matches!(m.travel, T::EnPassant { .. });
    let land = match movement::land_cond(m.land) {
        Some(c) => c,
        None if ep => Cond::Const(true),
        None => return Err("its destination may hold anything".into()),
    };
    let enemy = Cond::Test {
        test: Test::Enemy,
        at: None,
        move_type: None,
    };
    let mut t = Typed {
        atoms: Vec::new(),
        zone: m.zone.clone(),
        promotion,
        initial: None,
        en_passant: None,
    };
    let lands = |travel, v| atom_set(travel, v, &land);
    t.atoms = match &m.travel {
        T::Step(d) => lands(Travel::Leap, v1(d)?)?,
        T::Leap(p) => lands(Travel::Leap, *path_vector(p, vec)?.last().expect("steps"))?,
        T::Lame(p) => {
            if let Some(z) = &m.first_in {
                t.initial = Some((z.clone(), v1(&p[0])?));
            }
            let pts = path_vector(p, vec)?;
            let (target, between) = pts.split_last().expect("a path has steps");
            if p.iter().any(|d| *d != p[0]) && lame_path(*target) != between {
                return Err("its blocked squares are not Fairy-Stockfish's lame path".into());
            }
            let mut atoms = lands(Travel::Lame, *target)?;
            if t.initial.is_some() {
                atoms.iter_mut().for_each(|a| a.initial = true);
            }
            atoms
        }
        T::Slide { dir, max, quiet } => {
            let v = v1(dir)?;
            let n = max
                .map_or(Ok(0), u8::try_from)
                .map_err(|_| "too long a range")?;
            let mut atoms = Vec::new();
            if *quiet {
                atoms.extend(atom_set(
                    Travel::Ride(n),
                    v,
                    &movement::land_cond(Land::Empty).expect("a test"),
                )?);
            }
            if m.land != Land::Empty {
                atoms.extend(atom_set(Travel::Ride(n), v, &enemy)?);
            }
            atoms
        }
        T::Cannon { screen, .. } if !screen.is_empty() => {
            return Err("its cannon's screen must be a given piece".into());
        }
        T::Cannon {
            dir, quiet, beyond, ..
        } => {
            let v = v1(dir)?;
            let quiet_to = movement::land_cond(Land::Empty).expect("a test");
            let mut atoms = Vec::new();
            if *quiet {
                atoms.extend(atom_set(Travel::Ride(0), v, &quiet_to)?);
            }
            if *beyond {
                atoms.extend(atom_set(Travel::Hop, v, &quiet_to)?);
            }
            // The landing is the first piece after the screen: a capture, whatever may be
            // taken there.
            atoms.extend(match m.land {
                Land::Empty => Vec::new(),
                Land::Enemy | Land::NotFriend => atom_set(Travel::Hop, v, &enemy)?,
                Land::Friend | Land::Any => {
                    return Err("its cannon may take a friend".into());
                }
            });
            atoms
        }
        T::EnPassant {
            side,
            forward,
            piece,
        } => {
            t.en_passant = Some(piece.clone());
            let v = add_vec(v1(side)?, v1(forward)?);
            vec![Atom {
                travel: Travel::Leap,
                initial: false,
                modality: Modality::CaptureEp,
                v,
            }]
        }
        T::Hop { capture: true, .. } => {
            return Err("it captures the piece it jumps (Fairy-Stockfish cannot)".into());
        }
        T::Hop { .. } => return Err("it jumps a piece (Fairy-Stockfish's hops are cannons)".into()),
        T::Drop => return Err("it is a drop".into()),
        T::To(_) => return Err("it goes to a fixed square".into()),
        T::Path { .. } => return Err("it tests the squares it passes over".into()),
    };
    Ok(t)
}

fn atom_set(travel: Travel, v: Vector, to: &Cond) -> Result<Vec<Atom>, String> {
    let m = modalities(to).ok_or("its destination test is not empty/enemy/not-friend")?;
    Ok(m.iter()
        .map(|&modality| Atom {
            travel,
            initial: false,
            modality,
            v,
        })
        .collect())
}

/// A path of steps as one leap: its vector, when the steps are monotone on each axis (so
/// every intermediate square is on a rectangular board whenever the target is).
fn path_vector(
    dirs: &[String],
    vec: &dyn Fn(&str) -> Option<Vector>,
) -> Result<Vec<Vector>, String> {
    let mut pts = Vec::new();
    let mut at = (0, 0);
    for d in dirs {
        let v = vec(d).ok_or_else(|| format!("direction `{d}` has no board vector"))?;
        at = add_vec(at, v);
        pts.push(at);
    }
    let (sx, sy) = (at.0.signum(), at.1.signum());
    let monotone = dirs
        .iter()
        .filter_map(|d| vec(d))
        .all(|v| v.0 * sx >= 0 && v.1 * sy >= 0 && (sx != 0 || v.0 == 0) && (sy != 0 || v.1 == 0));
    if !monotone {
        return Err("its steps turn back on an axis (a crooked path)".into());
    }
    Ok(pts)
}
