//! The portable game spec: the one document every reader lowers into and every writer reads from.
//!
//! [`types`] holds the data model ([`Document`] → [`Game`] → [`Board`], [`Piece`], [`MoveBlock`]
//! …); `docs/spec.md` documents every field.
//! [`yaml`] is the YAML layer every spec document goes through: a deterministic emitter that quotes
//! every string, and a reader with located, limited errors.

pub mod check;
pub mod geometry;
pub mod types;
pub mod yaml;

pub use types::*;

/// The JSON Schema of [`Document`] (what `zogkit schema` prints).
pub fn json_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(Document)).unwrap_or_default()
}

impl Document {
    /// The games with every procedure `call` replaced by the procedure's instructions (calls
    /// nested deeper than 256 are kept): what a program means, whatever its factoring.
    pub fn games_inlined(&self) -> Vec<Game> {
        let mut games = self.games.clone();
        let mut memo: Vec<Option<Vec<Instr>>> = vec![None; self.procedures.len()];
        for g in &mut games {
            for p in &mut g.pieces {
                for b in p.moves.iter_mut().chain(p.drops.iter_mut()) {
                    b.program = inline(&b.program, &self.procedures, &mut memo, 0);
                }
            }
        }
        games
    }
}

fn inline(
    v: &[Instr],
    procs: &[Vec<Instr>],
    memo: &mut [Option<Vec<Instr>>],
    depth: usize,
) -> Vec<Instr> {
    let mut out = Vec::with_capacity(v.len());
    for i in v {
        match i {
            Instr::Call(n) if *n < procs.len() && depth < 256 => {
                if memo[*n].is_none() {
                    let body = inline(&procs[*n], procs, memo, depth + 1);
                    memo[*n] = Some(body);
                }
                out.extend(memo[*n].iter().flatten().cloned());
            }
            Instr::If { cond, then_, else_ } => out.push(Instr::If {
                cond: cond.clone(),
                then_: inline(then_, procs, memo, depth + 1),
                else_: inline(else_, procs, memo, depth + 1),
            }),
            Instr::While { cond, body } => out.push(Instr::While {
                cond: cond.clone(),
                body: inline(body, procs, memo, depth + 1),
            }),
            other => out.push(other.clone()),
        }
    }
    out
}
