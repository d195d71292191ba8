//! A typed move block ([`Movement`]) printed as one Chessembly chain.

use super::{Writer, fmt_delta};
use crate::spec::Instr;
use crate::spec::movement::{Hurdle, Land, Movement, Travel};

/// The chain of a movement in two parts: the items that only move the anchor or test, then
/// the items that add the moves (a `transition` goes between them).
type Chain = (Vec<String>, Vec<String>);

impl Writer<'_> {
    /// Writes the chain of a movement: its guard, the travel's items, then the moves (after the
    /// `transition` of a promotion). Lowering the chain gives [`movement::program`] of `m` back.
    /// `Err` names what a chain cannot say (zones, partial moves, other conditions on the
    /// destination, landing on a friend or anywhere).
    ///
    /// [`movement::program`]: crate::spec::movement::program
    pub(super) fn movement(&mut self, m: &Movement) -> Result<(), String> {
        if m.from_zone.is_some() || m.zone.is_some() || m.first_in.is_some() {
            return Err("a zone test (Chessembly has no zones)".into());
        }
        if m.continues.is_some() {
            return Err("a partial move (`add-partial`)".into());
        }
        if !m.arrive.is_empty() || !m.run.is_empty() {
            return Err("a condition on the destination or the run of a slide".into());
        }
        let pieces = match &m.promotion {
            None => Vec::new(),
            Some(p) if p.zone.is_none() && p.forced => p.pieces.clone(),
            Some(_) => return Err("a promotion in a zone or left to choice".into()),
        };
        // MS `take(d) jump(d)` is a whole chain.
        if matches!(m.travel, Travel::Hop { capture: true, .. })
            && (!pieces.is_empty() || !m.guard.is_empty())
        {
            return Err("a capturing hop with a condition or a promotion".into());
        }
        let (way, moves) = self.chain_of(m)?;
        for c in &m.guard {
            let v = self.cond(c)?;
            self.items.extend(v);
        }
        self.items.extend(way);
        self.add(&Instr::Add {
            pieces,
            partial: false,
            copy: false,
            move_type: None,
        })?;
        self.items.extend(moves);
        self.at_origin = false;
        Ok(())
    }

    /// The items of the travel and landing of `m`.
    fn chain_of(&self, m: &Movement) -> Result<Chain, String> {
        let d = |dir: &str| self.delta(dir).map(fmt_delta);
        let word = match m.land {
            Land::Empty => "move",
            Land::NotFriend => "take-move",
            Land::Enemy => "take",
            Land::Friend | Land::Any => {
                return Err("a move onto a friendly piece or onto any square".into());
            }
        };
        let one = |w: &str, dir: &str| -> Result<Vec<String>, String> {
            Ok(vec![format!("{w}({})", d(dir)?)])
        };
        Ok(match &m.travel {
            Travel::Step(dir) => (vec![], one(word, dir)?),
            Travel::Leap(path) | Travel::Lame(path) => {
                let via = if matches!(m.travel, Travel::Leap(_)) {
                    "anchor"
                } else {
                    "peek"
                };
                let (last, before) = path.split_last().ok_or("an empty path")?;
                let way = before
                    .iter()
                    .map(|x| Ok(format!("{via}({})", d(x)?)))
                    .collect::<Result<_, String>>()?;
                (way, one(word, last)?)
            }
            Travel::Slide {
                dir,
                max: None,
                quiet: true,
            } => {
                let w = if m.land == Land::Empty {
                    "move"
                } else {
                    "take-move"
                };
                (vec![], vec![format!("{w}({}) repeat(1)", d(dir)?)])
            }
            Travel::Slide {
                dir,
                max: None,
                quiet: false,
            } => (vec![format!("do peek({}) while", d(dir)?)], one(word, dir)?),
            Travel::Slide {
                dir, max: Some(n), ..
            } => {
                let w = if m.land == Land::Empty {
                    "move"
                } else {
                    "take-move"
                };
                (vec![], vec![format!("{w}({})", d(dir)?); *n])
            }
            Travel::Hop { dir, over, capture } => {
                self.hop_of(m.land, word, dir, *over, *capture)?
            }
            Travel::Cannon {
                dir,
                quiet,
                beyond,
                screen,
            } => {
                if !screen.is_empty() {
                    return Err("a cannon whose screen must be a given piece".into());
                }
                let e = d(dir)?;
                let screen = format!("anchor({e}) do peek({e}) while");
                match (quiet, beyond, m.land) {
                    (false, true, Land::Empty) => (
                        vec![format!("do peek({e}) while anchor({e})")],
                        vec![format!("do move({e}) while")],
                    ),
                    (false, false, _) => (
                        vec![format!("do peek({e}) while {screen}")],
                        one(word, dir)?,
                    ),
                    (true, false, _) => (
                        vec![],
                        vec![format!("do move({e}) while {screen} {word}({e})")],
                    ),
                    _ => return Err("a cannon that moves both beyond its screen and onto a piece, or on both sides of it".into()),
                }
            }
            Travel::EnPassant { .. } => return Err("en passant".into()),
            Travel::Drop => return Err("a drop".into()),
            Travel::To(_) => return Err("a move to a fixed square".into()),
            Travel::Path { .. } => return Err("a path that tests what it passes".into()),
        })
    }

    /// A hop: the test of the hurdle, `anchor` onto it, the landing; a capturing hop over an
    /// enemy onto an empty square is MS `take(d) jump(d)`.
    fn hop_of(
        &self,
        land: Land,
        word: &str,
        dir: &str,
        over: Hurdle,
        capture: bool,
    ) -> Result<Chain, String> {
        let e = fmt_delta(self.delta(dir)?);
        if capture {
            return match (over, land) {
                (Hurdle::Enemy, Land::Empty) => Ok((vec![], vec![format!("take({e}) jump({e})")])),
                _ => {
                    Err("a hop that captures other than over an enemy onto an empty square".into())
                }
            };
        }
        let test = match over {
            Hurdle::Occupied => format!("observe({e}) not"),
            Hurdle::Enemy => format!("enemy({e})"),
            Hurdle::Friend => format!("friendly({e})"),
            Hurdle::Any => return Err("a hop over anything".into()),
        };
        Ok((
            vec![test, format!("anchor({e})")],
            vec![format!("{word}({e})")],
        ))
    }
}
