//! The meaning of move programs, in one place: the call-inlining walk, semantic equality of
//! programs, and the classifier of block shapes (step, slide, leap, hop, …) that writers share.
//!
//! A procedure call means exactly "these instructions here" (no parameters, no scoping), so
//! every consumer sees a program through [`visit`] or [`inline`] and never walks `Call`s itself.

use super::{Cond, Game, Instr, MoveBlock, Test};

/// A branch around an instruction met by [`visit`]: the condition and which way it went.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Branch<'a> {
    /// Inside the `then` instructions of an `if`.
    Then(&'a Cond),
    /// Inside the `else` instructions of an `if`.
    Else(&'a Cond),
    /// Inside the body of a `while`.
    Loop(&'a Cond),
}

/// Deepest nesting of branches and calls [`visit`] and [`inline`] follow.
pub const MAX_DEPTH: usize = 256;

/// Calls `f` on every instruction of `program` in order, with the branches around it,
/// descending into `if`/`while` bodies and into called procedures (a `Call` itself is not
/// passed to `f`). Visits at most `budget` instructions (decremented) and nests at most
/// [`MAX_DEPTH`] deep, so shared procedures cannot make the walk exponential or unbounded.
pub fn visit<'a>(
    program: &'a [Instr],
    procedures: &'a [Vec<Instr>],
    budget: &mut usize,
    f: &mut impl FnMut(&'a Instr, &[Branch<'a>]),
) {
    let mut around = Vec::new();
    walk(program, procedures, budget, &mut around, f);
}

fn walk<'a>(
    program: &'a [Instr],
    procedures: &'a [Vec<Instr>],
    budget: &mut usize,
    around: &mut Vec<Branch<'a>>,
    f: &mut impl FnMut(&'a Instr, &[Branch<'a>]),
) {
    if around.len() > MAX_DEPTH {
        return;
    }
    for ins in program {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        match ins {
            Instr::Call(n) => {
                if let Some(p) = procedures.get(*n) {
                    // A call nests like a branch for the depth bound, without a condition.
                    around.push(Branch::Loop(&Cond::Const(true)));
                    walk(p, procedures, budget, around, f);
                    around.pop();
                }
            }
            Instr::If { cond, then_, else_ } => {
                f(ins, around);
                around.push(Branch::Then(cond));
                walk(then_, procedures, budget, around, f);
                around.pop();
                around.push(Branch::Else(cond));
                walk(else_, procedures, budget, around, f);
                around.pop();
            }
            Instr::While { cond, body } => {
                f(ins, around);
                around.push(Branch::Loop(cond));
                walk(body, procedures, budget, around, f);
                around.pop();
            }
            _ => f(ins, around),
        }
    }
}

/// The procedures `program` calls directly (not through other procedures), in order.
pub fn calls(program: &[Instr], out: &mut Vec<usize>) {
    for i in program {
        match i {
            Instr::Call(n) => out.push(*n),
            Instr::If { then_, else_, .. } => {
                calls(then_, out);
                calls(else_, out);
            }
            Instr::While { body, .. } => calls(body, out),
            _ => {}
        }
    }
}

/// Most instructions one [`Inliner`] writes (each copy of a procedure body counted, the copies
/// into other bodies too): past it, calls are kept as calls. Procedures that call each other
/// twice per level inline to 2^k copies, unbounded without it. The shared corpus's largest
/// documents need 2.9 M (Ragnarok.zrf) and 2.6 M (Focus.zrf); a fuzzed 40 KB ZRF file needed
/// 4 M, and one level of doubling more needs twice that.
pub const MAX_INLINED: usize = 8_000_000;

/// What [`inline`] keeps between calls for one document: each procedure's inlined body, and
/// the instructions it may still write.
pub struct Inliner {
    memo: Vec<Option<Vec<Instr>>>,
    left: usize,
}

impl Inliner {
    /// An inliner for a document with `procedures` procedures and the [`MAX_INLINED`] budget.
    pub fn new(procedures: usize) -> Self {
        Inliner::with_budget(procedures, MAX_INLINED)
    }

    /// The same with a budget of `left` instructions.
    pub fn with_budget(procedures: usize, left: usize) -> Self {
        Inliner {
            memo: vec![None; procedures],
            left,
        }
    }
}

/// Instructions in `v`, nested ones included.
fn size(v: &[Instr]) -> usize {
    v.iter()
        .map(|i| match i {
            Instr::If { then_, else_, .. } => 1 + size(then_) + size(else_),
            Instr::While { body, .. } => 1 + size(body),
            _ => 1,
        })
        .sum()
}

/// `program` with every call replaced by the procedure's instructions. Calls nested deeper
/// than [`MAX_DEPTH`], and calls whose body no longer fits the inliner's budget, are kept.
pub fn inline(program: &[Instr], procedures: &[Vec<Instr>], inl: &mut Inliner) -> Vec<Instr> {
    if inl.memo.len() < procedures.len() {
        inl.memo.resize(procedures.len(), None);
    }
    inline_at(program, procedures, inl, 0)
}

fn inline_at(v: &[Instr], procs: &[Vec<Instr>], inl: &mut Inliner, depth: usize) -> Vec<Instr> {
    let mut out = Vec::with_capacity(v.len());
    for i in v {
        match i {
            Instr::Call(n) if *n < procs.len() && depth < MAX_DEPTH => {
                if inl.memo[*n].is_none() {
                    let body = inline_at(&procs[*n], procs, inl, depth + 1);
                    inl.memo[*n] = Some(body);
                }
                let body = inl.memo[*n].as_deref().unwrap_or_default();
                let k = size(body);
                if k <= inl.left {
                    inl.left -= k;
                    out.extend(body.iter().cloned());
                } else {
                    out.push(i.clone());
                }
            }
            Instr::If { cond, then_, else_ } => {
                inl.left = inl.left.saturating_sub(1);
                out.push(Instr::If {
                    cond: cond.clone(),
                    then_: inline_at(then_, procs, inl, depth + 1),
                    else_: inline_at(else_, procs, inl, depth + 1),
                })
            }
            Instr::While { cond, body } => {
                inl.left = inl.left.saturating_sub(1);
                out.push(Instr::While {
                    cond: cond.clone(),
                    body: inline_at(body, procs, inl, depth + 1),
                })
            }
            other => {
                inl.left = inl.left.saturating_sub(1);
                out.push(other.clone())
            }
        }
    }
    out
}

/// Semantic equality of games whose move programs may call procedures: calls are expanded
/// lazily while comparing (never materialised), and pairs of procedures already found equal
/// are skipped as a whole. Consecutive verifications are compared in any order.
pub struct Equality<'p> {
    pa: &'p [Vec<Instr>],
    pb: &'p [Vec<Instr>],
    memo: rustc_hash::FxHashMap<(usize, usize), bool>, // lookup only
}

/// A position in a program with calls expanded on the fly.
struct Cursor<'p> {
    stack: Vec<&'p [Instr]>,
    procs: &'p [Vec<Instr>],
}

impl<'p> Cursor<'p> {
    fn peek(&mut self) -> Option<&'p Instr> {
        loop {
            let top = self.stack.last_mut()?;
            match top.first() {
                Some(i) => return Some(i),
                None => {
                    self.stack.pop();
                }
            }
        }
    }
    fn advance(&mut self) {
        if let Some(top) = self.stack.last_mut()
            && !top.is_empty()
        {
            *top = &top[1..];
        }
    }
    /// Steps over a call and into its procedure; false when it cannot (bad index, too deep).
    fn enter(&mut self, n: usize) -> bool {
        self.advance();
        match self.procs.get(n) {
            Some(p) if self.stack.len() < 512 => {
                self.stack.push(p);
                true
            }
            _ => false,
        }
    }
}

/// The run of consecutive verifications at the cursor, taken off it (calls are entered: a run
/// may go on in a procedure); `None` when a call cannot be entered.
fn verify_run<'p>(c: &mut Cursor<'p>) -> Option<Vec<&'p Cond>> {
    let mut run = Vec::new();
    loop {
        match c.peek() {
            Some(Instr::Verify(cond)) => {
                run.push(cond);
                c.advance();
            }
            Some(Instr::Call(n)) => {
                if !c.enter(*n) {
                    return None;
                }
            }
            _ => return Some(run),
        }
    }
}

/// Whether two runs of verifications test the same conditions, in any order: a condition has
/// no effect, so consecutive ones commute.
fn same_tests(a: &[&Cond], b: &[&Cond]) -> bool {
    let mut used = vec![false; b.len()];
    a.len() == b.len()
        && a.iter().all(|x| {
            let k = (0..b.len()).find(|&k| !used[k] && b[k] == *x);
            k.inspect(|&k| used[k] = true).is_some()
        })
}

impl<'p> Equality<'p> {
    /// Compares programs of a document with procedures `pa` against one with `pb`.
    pub fn new(pa: &'p [Vec<Instr>], pb: &'p [Vec<Instr>]) -> Self {
        Equality {
            pa,
            pb,
            memo: rustc_hash::FxHashMap::default(), // lookup only
        }
    }

    /// Whether two games are equal, move programs compared by meaning.
    pub fn games(&mut self, a: &mut Game, b: &mut Game) -> bool {
        let take = |g: &mut Game| -> Vec<(Vec<MoveBlock>, Vec<MoveBlock>)> {
            g.pieces
                .iter_mut()
                .map(|p| (std::mem::take(&mut p.moves), std::mem::take(&mut p.drops)))
                .collect()
        };
        let (ma, mb) = (take(a), take(b));
        let mut same = a == b && ma.len() == mb.len();
        if same {
            for ((am, ad), (bm, bd)) in ma.iter().zip(&mb) {
                if !self.blocks(am, bm) || !self.blocks(ad, bd) {
                    same = false;
                    break;
                }
            }
        }
        for (p, (m, d)) in a.pieces.iter_mut().zip(ma) {
            p.moves = m;
            p.drops = d;
        }
        for (p, (m, d)) in b.pieces.iter_mut().zip(mb) {
            p.moves = m;
            p.drops = d;
        }
        same
    }

    /// Whether two lists of blocks mean the same.
    pub fn blocks(&mut self, a: &[MoveBlock], b: &[MoveBlock]) -> bool {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| x.move_type == y.move_type && self.seq(&x.program, &y.program))
    }

    fn seq<'x>(&mut self, a: &'x [Instr], b: &'x [Instr]) -> bool
    where
        'p: 'x,
    {
        let mut ca = Cursor {
            stack: vec![a],
            procs: self.pa,
        };
        let mut cb = Cursor {
            stack: vec![b],
            procs: self.pb,
        };
        loop {
            match (ca.peek(), cb.peek()) {
                (None, None) => return true,
                (Some(Instr::Call(i)), Some(Instr::Call(j))) => {
                    let (i, j) = (*i, *j);
                    if self.procs_equal(i, j) {
                        ca.advance();
                        cb.advance();
                    } else if !ca.enter(i) || !cb.enter(j) {
                        return false;
                    }
                }
                (Some(Instr::Call(i)), _) => {
                    if !ca.enter(*i) {
                        return false;
                    }
                }
                (_, Some(Instr::Call(j))) => {
                    if !cb.enter(*j) {
                        return false;
                    }
                }
                (Some(Instr::Verify(_)), Some(Instr::Verify(_))) => {
                    match (verify_run(&mut ca), verify_run(&mut cb)) {
                        (Some(a), Some(b)) if same_tests(&a, &b) => {}
                        _ => return false,
                    }
                }
                (Some(x), Some(y)) => {
                    if !self.instr(x, y) {
                        return false;
                    }
                    ca.advance();
                    cb.advance();
                }
                _ => return false,
            }
        }
    }

    fn procs_equal(&mut self, i: usize, j: usize) -> bool {
        if let Some(v) = self.memo.get(&(i, j)) {
            return *v;
        }
        self.memo.insert((i, j), false); // a cycle compares unequal
        let (Some(a), Some(b)) = (self.pa.get(i), self.pb.get(j)) else {
            return false;
        };
        let v = self.seq(a, b);
        self.memo.insert((i, j), v);
        v
    }

    fn instr<'x>(&mut self, x: &'x Instr, y: &'x Instr) -> bool
    where
        'p: 'x,
    {
        match (x, y) {
            (
                Instr::If {
                    cond: c1,
                    then_: t1,
                    else_: e1,
                },
                Instr::If {
                    cond: c2,
                    then_: t2,
                    else_: e2,
                },
            ) => c1 == c2 && self.seq(t1, t2) && self.seq(e1, e2),
            (Instr::While { cond: c1, body: b1 }, Instr::While { cond: c2, body: b2 }) => {
                c1 == c2 && self.seq(b1, b2)
            }
            _ => x == y,
        }
    }
}

/// A block whose partial completions (`add-partial`, ZRF's continuing captures) are made
/// plain, without its move type: the first move of the block as a complete move. `None` when
/// the block has neither (nothing to drop).
pub fn first_move_only(b: &MoveBlock) -> Option<MoveBlock> {
    fn plain(v: &[Instr], changed: &mut bool) -> Vec<Instr> {
        v.iter()
            .map(|i| match i {
                Instr::Add {
                    pieces,
                    partial: true,
                    copy,
                    ..
                } => {
                    *changed = true;
                    Instr::Add {
                        pieces: pieces.clone(),
                        partial: false,
                        copy: *copy,
                        move_type: None,
                    }
                }
                Instr::If { cond, then_, else_ } => Instr::If {
                    cond: cond.clone(),
                    then_: plain(then_, changed),
                    else_: plain(else_, changed),
                },
                Instr::While { cond, body } => Instr::While {
                    cond: cond.clone(),
                    body: plain(body, changed),
                },
                other => other.clone(),
            })
            .collect()
    }
    let mut changed = b.move_type.is_some();
    let program = plain(&b.program, &mut changed);
    changed.then_some(MoveBlock {
        move_type: None,
        program,
    })
}

/// A plain `add` (no promotion, not partial, no copy, no move type).
pub fn is_add(i: &Instr) -> bool {
    matches!(i, Instr::Add { pieces, partial: false, copy: false, move_type: None } if pieces.is_empty())
}

/// `empty?` at the current position.
pub fn is_empty_test(c: &Cond) -> bool {
    matches!(
        c,
        Cond::Test {
            test: Test::Empty,
            at: None,
            move_type: None
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(d: &str) -> Instr {
        Instr::Step(d.into())
    }

    #[test]
    fn visit_enters_calls_and_reports_the_branches_around() {
        let empty = Cond::Test {
            test: Test::Empty,
            at: None,
            move_type: None,
        };
        let procs = vec![vec![step("n"), Instr::plain_add()]];
        let prog = vec![Instr::If {
            cond: empty.clone(),
            then_: vec![Instr::Call(0)],
            else_: vec![step("s")],
        }];
        let mut seen = Vec::new();
        let mut budget = 100;
        visit(&prog, &procs, &mut budget, &mut |i, around| {
            let branch = match around.first() {
                Some(Branch::Then(_)) => "then",
                Some(Branch::Else(_)) => "else",
                _ => "-",
            };
            seen.push((format!("{i:?}").chars().take(8).collect::<String>(), branch));
        });
        let names: Vec<_> = seen.iter().map(|(i, b)| format!("{i}/{b}")).collect();
        assert_eq!(
            names,
            [
                "If { con/-",
                "Step(\"n\"/then",
                "Add { pi/then",
                "Step(\"s\"/else"
            ]
        );
        assert_eq!(
            budget,
            100 - 5,
            "the call counts as one visited instruction"
        );
    }

    #[test]
    fn a_budget_bounds_a_widely_shared_procedure() {
        // Procedure k calls procedure k-1 twice: 2^20 instructions if walked naively.
        let mut procs: Vec<Vec<Instr>> = vec![vec![step("n")]];
        for k in 1..20 {
            procs.push(vec![Instr::Call(k - 1), Instr::Call(k - 1)]);
        }
        let mut budget = 1000;
        let mut n = 0;
        visit(&[Instr::Call(19)], &procs, &mut budget, &mut |_, _| n += 1);
        assert_eq!(budget, 0);
        assert!(n < 1000);
    }

    /// Procedures that call the one below twice double at every level: 2^40 copies unbounded.
    /// The inliner's budget keeps the calls it cannot afford, so the work stays bounded and the
    /// program keeps its meaning (the kept calls still name the procedures).
    #[test]
    fn inlining_doubling_procedures_stays_within_the_budget() {
        let mut procs = vec![vec![step("n"), Instr::plain_add()]];
        for k in 1..=40 {
            procs.push(vec![Instr::Call(k - 1), Instr::Call(k - 1)]);
        }
        let mut inl = Inliner::with_budget(procs.len(), 10_000);
        let out = inline(&[Instr::Call(40)], &procs, &mut inl);
        // Proc 40 does not fit: its call is kept, after the budget went on trying.
        assert_eq!(out, vec![Instr::Call(40)]);
        assert!(inl.left < 10_000);
        // Building a body counts as much as copying it: proc 12 (8,192 instructions) costs
        // about 16,000 to build and 8,192 per copy; 100,000 is enough for two copies.
        let mut inl = Inliner::with_budget(procs.len(), 100_000);
        let out = inline(&[Instr::Call(12), Instr::Call(12)], &procs, &mut inl);
        assert_eq!(size(&out), 2 * 8192);
        assert!(!out.iter().any(|i| matches!(i, Instr::Call(_))));
        // Within the budget everything is inlined.
        let mut inl = Inliner::with_budget(procs.len(), 10_000);
        let small = inline(&[Instr::Call(5)], &procs, &mut inl);
        assert_eq!(size(&small), 2 << 5);
        assert!(!small.iter().any(|i| matches!(i, Instr::Call(_))));
    }

    #[test]
    fn inlined_and_called_programs_are_equal_and_calls_are_listed() {
        let procs = vec![vec![step("n"), Instr::plain_add()]];
        let called = vec![Instr::Call(0)];
        let inlined = inline(&called, &procs, &mut Inliner::new(1));
        assert_eq!(inlined, procs[0]);
        let block = |program| MoveBlock {
            move_type: None,
            program,
        };
        let mut eq = Equality::new(&procs, &[]);
        assert!(eq.blocks(&[block(called.clone())], &[block(inlined.clone())]));
        assert!(!eq.blocks(
            &[block(called)],
            &[block(vec![step("s"), Instr::plain_add()])]
        ));
        let empty = Cond::Test {
            test: Test::Empty,
            at: None,
            move_type: None,
        };
        let mut calls_seen = Vec::new();
        calls(
            &[Instr::While {
                cond: empty,
                body: vec![Instr::Call(3)],
            }],
            &mut calls_seen,
        );
        assert_eq!(calls_seen, [3]);
    }
}
