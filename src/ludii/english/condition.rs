//! Site tests in Ludii's English (`row of current site of cell is even and 2 is greater than current site modulo 4 or …`): the `if:` of a `(forEach <sites> if:…)` placement, read and evaluated per site.
//!
//! Ludii prints `(forEach R if:C)` as the English of `C` followed by that of `R`. A test
//! compares values of the site being tested: its index (`current site`), its row (`row of
//! current site of cell`), its column (`the column within which site Cell current site lies`),
//! whole numbers, `x modulo n` and `the centre point of the board`. Tests are joined by `and`
//! (also `, ` inside an `and` of three or more) and `or`, with `and` binding tighter, as Ludii
//! prints `(or (and …) (and …))`.

use super::super::board::Geo;

/// A value of the site under test.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Int(i64),
    Site,
    Row,
    Column,
    Centre,
    Modulo(Box<Value>, i64),
}

/// One comparison or parity test.
#[derive(Debug, Clone, PartialEq)]
enum Test {
    Even(Value),
    Odd(Value),
    Cmp(Value, std::cmp::Ordering, bool, Value),
}

/// A test in disjunctive form: any of the groups, each of whose tests all hold.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Condition(Vec<Vec<Test>>);

fn value(s: &str) -> Option<Value> {
    let s = s.trim();
    if let Some((a, n)) = s.rsplit_once(" modulo ") {
        let n: i64 = n.trim().parse().ok().filter(|&n| n > 0)?;
        return Some(Value::Modulo(Box::new(value(a)?), n));
    }
    if let Ok(i) = s.parse() {
        return Some(Value::Int(i));
    }
    let w: Vec<&str> = s.split_whitespace().collect();
    Some(match w.as_slice() {
        ["current", "site"] => Value::Site,
        ["row", "of", "current", "site", "of", _] => Value::Row,
        [
            "the",
            line,
            "within",
            "which",
            "site",
            _,
            "current",
            "site",
            "lies",
        ] => match *line {
            "row" => Value::Row,
            "column" => Value::Column,
            _ => return None,
        },
        ["the", "centre" | "center", "point", "of", "the", "board"] => Value::Centre,
        _ => return None,
    })
}

/// `A is even`, `A is greater than B`, `A is not equal to B`, …
fn test(s: &str) -> Option<Test> {
    use std::cmp::Ordering::*;
    let (a, rest) = s.split_once(" is ")?;
    let a = value(a)?;
    Some(match rest.trim() {
        "even" => Test::Even(a),
        "odd" => Test::Odd(a),
        r => {
            let (ord, holds, b) = [
                ("greater than or equal to ", Less, false),
                ("less than or equal to ", Greater, false),
                ("greater than ", Greater, true),
                ("less than ", Less, true),
                ("not equal to ", Equal, false),
                ("equal to ", Equal, true),
            ]
            .into_iter()
            .find_map(|(p, o, h)| r.strip_prefix(p).map(|b| (o, h, b)))?;
            Test::Cmp(a, ord, holds, value(b)?)
        }
    })
}

/// True when `s` begins with a value and `is` (`current site is …`), as a test does: the cheap
/// check before trying where a test ends.
pub(super) fn starts_a_test(s: &str) -> bool {
    s.split_once(" is ")
        .is_some_and(|(a, _)| value(a).is_some())
}

/// Reads a whole test phrase; `None` unless every part reads.
pub(super) fn condition(s: &str) -> Option<Condition> {
    let groups = s
        .split(" or ")
        .map(|g| {
            g.split(" and ")
                .flat_map(|t| t.split(", "))
                .map(test)
                .collect::<Option<Vec<Test>>>()
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Condition(groups))
}

impl Value {
    fn at(&self, geo: &Geo, site: usize) -> Option<i64> {
        let (col, row) = *geo.label_rc.get(site)?;
        Some(match self {
            Value::Int(i) => *i,
            Value::Site => site as i64,
            Value::Row => row as i64,
            Value::Column => col as i64,
            Value::Centre => match geo.centre().as_slice() {
                [c] => *c as i64,
                _ => return None,
            },
            Value::Modulo(a, n) => a.at(geo, site)?.rem_euclid(*n),
        })
    }
}

impl Test {
    fn holds(&self, geo: &Geo, site: usize) -> Option<bool> {
        Some(match self {
            Test::Even(a) => a.at(geo, site)? % 2 == 0,
            Test::Odd(a) => a.at(geo, site)? % 2 != 0,
            Test::Cmp(a, ord, holds, b) => {
                (a.at(geo, site)?.cmp(&b.at(geo, site)?) == *ord) == *holds
            }
        })
    }
}

impl Condition {
    /// The sites of `sites` (in order) that pass; `None` when a value is undefined on this
    /// board (a centre point that is not one site).
    pub(super) fn keep(&self, geo: &Geo, sites: Vec<usize>) -> Option<Vec<usize>> {
        let mut out = Vec::with_capacity(sites.len());
        for s in sites {
            let mut pass = false;
            for group in &self.0 {
                let mut all = true;
                for t in group {
                    all &= t.holds(geo, s)?;
                }
                pass |= all;
            }
            if pass {
                out.push(s);
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::geometry::tiling::grid;

    #[test]
    fn tests_join_with_and_inside_or() {
        let geo = grid(4, 4);
        let c = condition(
            "row of current site of cell is even and 2 is greater than current site modulo 4 \
             or row of current site of cell is odd and 1 is less than current site modulo 4",
        )
        .unwrap();
        // Rows 0 and 2: columns 0, 1; rows 1 and 3: columns 2, 3.
        assert_eq!(
            c.keep(&geo, (0..16).collect()).unwrap(),
            vec![0, 1, 6, 7, 8, 9, 14, 15]
        );
    }

    #[test]
    fn columns_commas_and_negations() {
        let geo = grid(4, 4);
        let c = condition(
            "the column within which site Cell current site lies is even, 0 is not equal to \
             current site modulo 4 and 1 is equal to row of current site of cell modulo 2",
        )
        .unwrap();
        assert_eq!(c.keep(&geo, (0..16).collect()).unwrap(), vec![6, 14]);
        assert!(condition("the colour of current site is even").is_none());
        assert!(condition("current site is even the sites of the board").is_none());
    }
}
