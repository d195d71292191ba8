//! Macro extraction for written ZRF: lists that repeat, exactly or with other atoms in the same
//! places, become `(define share-N …)` macros with `$k` parameters and calls `(share-N a b)`.
//!
//! The pass works on the writer's own text (atoms, strings, lists, whitespace; no comments) and
//! keeps its layout: a call replaces a list in place and a macro body is the first occurrence's
//! text with `$k` put at the atoms that vary. Only plain atoms become parameters (ZRF
//! substitutes `$k` textually, and a string argument would turn into an atom); strings, macro
//! names and list shapes must be equal. Lists are taken largest first, so a body may itself
//! call smaller macros, passing its own `$k` on explicitly (never through dynamic scope).

use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write as _;

/// Lists shorter than this (in bytes of text) are never turned into macros.
const MIN_LEN: usize = 20;
/// Most parameters one macro takes (ZoG reads `$1` … `$9`).
const MAX_PARAMS: usize = 9;

#[derive(Debug)]
enum Kind {
    Atom,
    Str,
    List(Vec<usize>),
}

#[derive(Debug)]
struct Node {
    start: usize,
    end: usize,
    kind: Kind,
}

struct Tree<'t> {
    text: &'t str,
    nodes: Vec<Node>,
    /// Top-level forms.
    top: Vec<usize>,
}

/// Parses the writer's text; `None` when it is not balanced (then nothing is compacted).
fn parse(text: &str) -> Option<Tree<'_>> {
    let b = text.as_bytes();
    let mut nodes: Vec<Node> = Vec::new();
    let mut stack: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut top = Vec::new();
    let mut i = 0;
    let mut push = |nodes: &mut Vec<Node>, stack: &mut Vec<(usize, Vec<usize>)>, n: Node| {
        let id = nodes.len();
        nodes.push(n);
        match stack.last_mut() {
            Some((_, v)) => v.push(id),
            None => top.push(id),
        }
    };
    while i < b.len() {
        match b[i] {
            c if c.is_ascii_whitespace() => i += 1,
            b'(' => {
                stack.push((i, Vec::new()));
                i += 1;
            }
            b')' => {
                let (start, kids) = stack.pop()?;
                i += 1;
                push(
                    &mut nodes,
                    &mut stack,
                    Node {
                        start,
                        end: i,
                        kind: Kind::List(kids),
                    },
                );
            }
            b'"' => {
                let close = text[i + 1..].find('"')? + i + 1;
                let n = Node {
                    start: i,
                    end: close + 1,
                    kind: Kind::Str,
                };
                push(&mut nodes, &mut stack, n);
                i = close + 1;
            }
            b';' => return None,
            _ => {
                let start = i;
                while i < b.len() && !b[i].is_ascii_whitespace() && !b"()\";".contains(&b[i]) {
                    i += 1;
                }
                push(
                    &mut nodes,
                    &mut stack,
                    Node {
                        start,
                        end: i,
                        kind: Kind::Atom,
                    },
                );
            }
        }
    }
    stack.is_empty().then_some(Tree { text, nodes, top })
}

/// A parameter place: `$k` (0-based `k`) replaces the text between `pre` and `suf` bytes from
/// the ends (both 0 for a whole atom).
#[derive(Clone, Copy)]
struct Hole {
    k: usize,
    pre: usize,
    suf: usize,
}

enum Plan {
    Reject,
    Split(Vec<Vec<usize>>),
    Extract {
        leaves: Vec<usize>,
        holes: Vec<Option<Hole>>,
        params: Vec<Vec<String>>,
    },
}

/// For strings (quotes included) that differ: the bytes of common prefix and suffix around a
/// middle that is a non-empty atom in every one (ZRF substitutes `$k` inside strings), with
/// no digit right after it (`$k` reads digits greedily).
fn string_hole(col: &[&str], macro_names: &FxHashSet<&str>) -> Option<(usize, usize)> {
    let first = col[0];
    let mut pre = first.len();
    let mut suf = first.len();
    for c in &col[1..] {
        pre = pre.min(
            first
                .char_indices()
                .zip(c.char_indices())
                .find(|((_, a), (_, b))| a != b)
                .map_or(first.len().min(c.len()), |((i, _), _)| i),
        );
        suf = suf.min(
            first
                .chars()
                .rev()
                .zip(c.chars().rev())
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| a.len_utf8())
                .sum(),
        );
    }
    let shortest = col.iter().map(|c| c.len()).min()?;
    suf = suf.min(shortest.saturating_sub(pre + 1));
    // Digits after the middle belong to it.
    while suf > 1
        && first
            .get(first.len() - suf..)
            .is_some_and(|t| t.starts_with(|c: char| c.is_ascii_digit()))
    {
        suf -= 1;
    }
    (pre >= 1 && suf >= 1).then_some(())?;
    col.iter()
        .all(|c| {
            let mid = c.get(pre..c.len() - suf).unwrap_or("");
            super::is_atom(mid) && !mid.contains('$') && !macro_names.contains(mid)
        })
        .then_some((pre, suf))
}

/// One extracted macro: its name and the node whose text is its body.
struct Def {
    name: String,
    body: usize,
}

struct State<'t> {
    tree: Tree<'t>,
    /// Atom texts replaced by `$k` inside macro bodies.
    atom: FxHashMap<usize, String>,
    /// Lists replaced by a macro call.
    call: FxHashMap<usize, String>,
    dead: Vec<bool>,
    defs: Vec<Def>,
}

impl State<'_> {
    fn atom_text(&self, id: usize) -> &str {
        match self.atom.get(&id) {
            Some(s) => s,
            None => &self.tree.text[self.tree.nodes[id].start..self.tree.nodes[id].end],
        }
    }

    /// The atoms and strings of a subtree in order (iterative, preorder).
    fn leaves(&self, root: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            match &self.tree.nodes[n].kind {
                Kind::List(v) => stack.extend(v.iter().rev()),
                _ => out.push(n),
            }
        }
        out
    }

    fn mark_dead(&mut self, root: usize) {
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            self.dead[n] = true;
            if let Kind::List(v) = &self.tree.nodes[n].kind {
                stack.extend(v.iter().copied());
            }
        }
    }

    /// How a group of same-shaped lists can become one macro.
    fn plan(&self, members: &[usize], macro_names: &FxHashSet<&str>) -> Plan {
        let mut leaves: Vec<Vec<usize>> = members.iter().map(|&m| self.leaves(m)).collect();
        let width = leaves[0].len();
        if leaves.iter().any(|l| l.len() != width) {
            return Plan::Reject; // hash collision
        }
        // Parameters: places whose text varies (or holds a `$k`), one per distinct column of
        // values; strings vary only in a middle part that is a valid atom.
        let mut params: Vec<Vec<String>> = Vec::new();
        let mut holes: Vec<Option<Hole>> = vec![None; width];
        for j in 0..width {
            let col: Vec<&str> = leaves.iter().map(|l| self.atom_text(l[j])).collect();
            let varies = col.iter().any(|c| *c != col[0]);
            if !varies && !col[0].contains('$') {
                continue;
            }
            let strings = leaves
                .iter()
                .all(|l| matches!(self.tree.nodes[l[j]].kind, Kind::Str));
            let atoms = leaves
                .iter()
                .all(|l| matches!(self.tree.nodes[l[j]].kind, Kind::Atom));
            let hole = if atoms && !col.iter().any(|c| macro_names.contains(c)) {
                Some((0, 0))
            } else if strings && !col.iter().any(|c| c.contains('$')) {
                string_hole(&col, macro_names)
            } else {
                None
            };
            let Some((pre, suf)) = hole else {
                if !varies {
                    return Plan::Reject;
                }
                // Split by this place's values, in order of first appearance.
                // (Indexed by value: a board's position lists can put thousands of distinct
                // values in one place.)
                let mut index: FxHashMap<&str, usize> = FxHashMap::default();
                let mut parts: Vec<Vec<usize>> = Vec::new();
                for (i, c) in col.iter().enumerate() {
                    let k = *index.entry(c).or_insert_with(|| {
                        parts.push(Vec::new());
                        parts.len() - 1
                    });
                    parts[k].push(members[i]);
                }
                return Plan::Split(parts);
            };
            if params.len() > MAX_PARAMS {
                // Rejected unless a later place splits the group: stop collecting parameters
                // (comparing every new column with all the others is quadratic in the width).
                continue;
            }
            let col: Vec<String> = col
                .iter()
                .map(|c| c[pre..c.len() - suf].to_string())
                .collect();
            let k = match params.iter().position(|p| *p == col) {
                Some(k) => k,
                None => {
                    params.push(col);
                    params.len() - 1
                }
            };
            holes[j] = Some(Hole { k, pre, suf });
        }
        if params.len() > MAX_PARAMS {
            return Plan::Reject;
        }
        Plan::Extract {
            leaves: leaves.swap_remove(0),
            holes,
            params,
        }
    }

    /// Turns `members` into calls of a new macro `name` when that makes the text shorter.
    fn extract(
        &mut self,
        members: &[usize],
        leaves: &[usize],
        holes: &[Option<Hole>],
        params: &[Vec<String>],
        name: &str,
    ) -> bool {
        let len = |m: usize| self.tree.nodes[m].end - self.tree.nodes[m].start;
        let calls: Vec<String> = (0..members.len())
            .map(|i| {
                let mut c = format!("({name}");
                for p in params {
                    let _ = write!(c, " {}", p[i]);
                }
                c.push(')');
                c
            })
            .collect();
        let before: usize = members.iter().map(|&m| len(m)).sum();
        let after =
            len(members[0]) + name.len() + 10 + calls.iter().map(String::len).sum::<usize>();
        // Small gains are not worth a macro's indirection.
        if after + MIN_LEN > before {
            return false;
        }
        for (j, h) in holes.iter().enumerate() {
            if let Some(h) = h {
                let t = self.atom_text(leaves[j]);
                let t = format!("{}${}{}", &t[..h.pre], h.k + 1, &t[t.len() - h.suf..]);
                self.atom.insert(leaves[j], t);
            }
        }
        for (i, &m) in members.iter().enumerate() {
            if i > 0 {
                self.mark_dead(m);
            }
            self.call.insert(m, calls[i].clone());
        }
        self.defs.push(Def {
            name: name.to_string(),
            body: members[0],
        });
        true
    }

    /// Writes a node with its replacements (recursion is bounded by the writer's nesting).
    fn render(&self, id: usize, out: &mut String, is_body: bool) {
        if !is_body && let Some(c) = self.call.get(&id) {
            out.push_str(c);
            return;
        }
        let n = &self.tree.nodes[id];
        match &n.kind {
            Kind::List(kids) => {
                let mut at = n.start;
                for &k in kids {
                    out.push_str(&self.tree.text[at..self.tree.nodes[k].start]);
                    self.render(k, out, false);
                    at = self.tree.nodes[k].end;
                }
                out.push_str(&self.tree.text[at..n.end]);
            }
            _ => out.push_str(self.atom_text(id)),
        }
    }
}

/// Extracts repeated lists of `text` (top-level forms: `define`s, `game`s, `variant`s) into
/// macros; returns the macro definitions (one per line) and the rewritten text cut in two at
/// `split` (a byte offset between top-level forms). Macro names avoid every atom of the text.
pub(super) fn compact(text: &str, split: usize) -> (String, String, String) {
    let none = || {
        let (a, b) = text.split_at(split.min(text.len()));
        (String::new(), a.to_string(), b.to_string())
    };
    if text.contains('$') {
        // Literal `$` atoms (unbound parameters kept from the source) would be substituted.
        return none();
    }
    let Some(tree) = parse(text) else {
        return none();
    };
    let n = tree.nodes.len();
    // Macro names of the writer (`proc-N`) must stay literal.
    let macro_names: FxHashSet<&str> = tree
        .top
        .iter()
        .filter_map(|&t| match &tree.nodes[t].kind {
            Kind::List(v) if v.len() >= 2 => {
                let head = &tree.nodes[v[0]];
                let name = &tree.nodes[v[1]];
                (&text[head.start..head.end] == "define").then(|| &text[name.start..name.end])
            }
            _ => None,
        })
        .collect();
    // Skeleton hash (shape and macro names; other atoms and strings are holes), bottom-up: children
    // are created before their parents, so ids are already in post-order.
    let mut hash = vec![0u64; n];
    let mut taken: FxHashSet<&str> = FxHashSet::default();
    for (id, nd) in tree.nodes.iter().enumerate() {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        match &nd.kind {
            Kind::Atom => {
                let a = &text[nd.start..nd.end];
                1u8.hash(&mut h);
                if macro_names.contains(a) {
                    a.hash(&mut h);
                }
                taken.insert(a);
            }
            Kind::Str => 2u8.hash(&mut h),
            Kind::List(v) => {
                3u8.hash(&mut h);
                v.len().hash(&mut h);
                for &k in v {
                    hash[k].hash(&mut h);
                }
            }
        }
        hash[id] = h.finish();
    }
    // Candidates: lists below the top-level forms (not a define's name), grouped by skeleton.
    let mut groups: FxHashMap<u64, Vec<usize>> = FxHashMap::default();
    let mut stack: Vec<usize> = Vec::new();
    for &t in &tree.top {
        if let Kind::List(v) = &tree.nodes[t].kind {
            stack.extend(v.iter().copied());
        }
    }
    while let Some(id) = stack.pop() {
        let nd = &tree.nodes[id];
        if let Kind::List(v) = &nd.kind {
            if nd.end - nd.start >= MIN_LEN {
                groups.entry(hash[id]).or_default().push(id);
            }
            stack.extend(v.iter().copied());
        }
    }
    let mut order: Vec<(usize, usize, u64)> = groups
        .iter()
        .filter(|(_, v)| v.len() >= 2)
        .map(|(h, v)| {
            let first = *v.iter().min().unwrap_or(&0);
            let nd = &tree.nodes[first];
            (nd.end - nd.start, first, *h)
        })
        .collect();
    // Largest first; ties by position in the text (deterministic).
    order.sort_unstable_by(|a, b| {
        b.0.cmp(&a.0)
            .then(tree.nodes[a.1].start.cmp(&tree.nodes[b.1].start))
    });
    let mut st = State {
        tree,
        atom: FxHashMap::default(),
        call: FxHashMap::default(),
        dead: vec![false; n],
        defs: Vec::new(),
    };
    let mut next_name = 0usize;
    for (_, _, h) in order {
        let mut members: Vec<usize> = groups[&h]
            .iter()
            .copied()
            .filter(|&m| !st.dead[m] && !st.call.contains_key(&m))
            .collect();
        members.sort_unstable_by_key(|&m| st.tree.nodes[m].start);
        // A group splits by the values of a place that cannot be a parameter.
        let mut work = vec![members];
        while let Some(members) = work.pop() {
            if members.len() < 2 {
                continue;
            }
            match st.plan(&members, &macro_names) {
                Plan::Reject => {}
                Plan::Split(parts) => work.extend(parts.into_iter().rev()),
                Plan::Extract {
                    leaves,
                    holes,
                    params,
                } => {
                    let name = loop {
                        let c = format!("share-{next_name}");
                        if !taken.contains(c.as_str()) {
                            break c;
                        }
                        next_name += 1;
                    };
                    if st.extract(&members, &leaves, &holes, &params, &name) {
                        next_name += 1;
                    }
                }
            }
        }
    }
    let mut defs = String::new();
    for d in &st.defs {
        let _ = write!(defs, "(define {} ", d.name);
        st.render(d.body, &mut defs, true);
        defs.push_str(")\n");
    }
    let mut head = String::new();
    let mut tail = String::with_capacity(text.len());
    let mut at = 0;
    for &t in &st.tree.top {
        let nd = &st.tree.nodes[t];
        let out = if nd.start < split {
            &mut head
        } else {
            &mut tail
        };
        out.push_str(&text[at..nd.start]);
        st.render(t, out, false);
        at = nd.end;
    }
    tail.push_str(&text[at..]);
    (defs, head, tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hole(col: &[&str]) -> Option<(usize, usize)> {
        string_hole(col, &FxHashSet::default())
    }

    #[test]
    fn string_holes_take_the_varying_middle() {
        assert_eq!(hole(&["\"wr.bmp\"", "\"wb.bmp\""]), Some((2, 5)));
        // A digit after the middle would be read as part of `$k`: it joins the middle.
        assert_eq!(hole(&["\"a1x\"", "\"b1x\""]), Some((1, 2)));
        // No middle in one of them, or a middle that is not an atom: no hole.
        assert_eq!(hole(&["\"ab\"", "\"abc\""]), None);
        assert_eq!(hole(&["\"a b\"", "\"a c d\""]), None);
        // Multi-byte text never splits a character.
        assert_eq!(hole(&["\"é\"", "\"ée\""]), None);
        assert_eq!(hole(&["\"xé1\"", "\"yé1\""]), Some((1, 4)));
    }

    #[test]
    fn repeats_become_one_macro_and_small_ones_stay() {
        let text = "(game\n  (piece (name A) (moves (n (verify empty?) add n (verify enemy?))))\n  (piece (name B) (moves (s (verify empty?) add s (verify enemy?)))))\n";
        let (defs, head, tail) = compact(text, 0);
        assert!(head.is_empty());
        assert_eq!(defs.lines().count(), 1, "{defs}");
        assert!(defs.contains("($2 (verify empty?) add $2 "), "{defs}");
        assert!(tail.contains("A n") && tail.contains("B s"), "{tail}");
        // Too short to be worth a macro.
        let (defs, _, tail) = compact("(game (x a) (x b))", 0);
        assert!(defs.is_empty());
        assert_eq!(tail, "(game (x a) (x b))");
        // A `$` anywhere turns the pass off.
        let t = text.replace("(name A)", "(name \"$A\")");
        assert!(compact(&t, 0).0.is_empty());
    }
}
