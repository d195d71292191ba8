//! Named resource limits: the table behind `--limit NAME=VALUE`, mapped onto the readers' own limit structs.
//!
//! The defaults live in those structs' `Default` impls and constants ([`crate::zrf::expand::Limits`],
//! [`crate::sexpr::Limits`], [`crate::zrf::lower::Limits`], [`crate::spec::yaml::ReadLimits`],
//! [`crate::chessembly::interp::DEFAULT_STEP_LIMIT`], the engine's `DEFAULT_*_LIMIT`s); this module only names them, so
//! [`ReadOptions::default`] and [`ReadOptions::limit`] give every default. `docs/limits.md`
//! documents the same table (a test keeps it in step).

use crate::format::ReadOptions;

/// One configurable limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    /// The name used with `--limit NAME=VALUE`.
    pub name: &'static str,
    /// The diagnostic code reported when an input exceeds it.
    pub code: &'static str,
    /// What it bounds, in a few words.
    pub what: &'static str,
}

/// Every configurable limit, in the order `--help` and `docs/limits.md` list them.
pub const LIMITS: &[Limit] = &[
    Limit {
        name: "input-bytes",
        code: "text::too-large",
        what: "size of one ZRF (and each include), Ludii or Chessembly file, in bytes",
    },
    Limit {
        name: "nesting",
        code: "zrf::too-deep",
        what: "ZRF list nesting depth",
    },
    Limit {
        name: "macro-depth",
        code: "zrf::macro-depth",
        what: "ZRF macro calls nested in each other",
    },
    Limit {
        name: "macro-calls",
        code: "zrf::macro-calls",
        what: "ZRF macro calls while expanding one game or variant",
    },
    Limit {
        name: "expansion-nodes",
        code: "zrf::expansion-too-large",
        what: "nodes one ZRF game or variant may expand to",
    },
    Limit {
        name: "expansion-bytes",
        code: "zrf::expansion-text-too-large",
        what: "bytes of text ZRF `$k` substitution may create in one file",
    },
    Limit {
        name: "list-items",
        code: "zrf::list-too-long",
        what: "items one ZRF list may hold after macros are spliced in",
    },
    Limit {
        name: "include-depth",
        code: "zrf::include-depth",
        what: "ZRF includes nested in each other",
    },
    Limit {
        name: "include-bytes",
        code: "zrf::include-too-large",
        what: "bytes the includes of one ZRF file add, each counted every time it is spliced in",
    },
    Limit {
        name: "file-expansion-nodes",
        code: "zrf::file-expansion-too-large",
        what: "nodes all games and variants of one ZRF file may expand to together",
    },
    Limit {
        name: "variants",
        code: "zrf::too-many-variants",
        what: "games and variants one ZRF file may hold",
    },
    Limit {
        name: "positions",
        code: "spec::board-too-large",
        what: "positions of one board, in every format",
    },
    Limit {
        name: "pieces",
        code: "zrf::too-many-pieces",
        what: "piece types of one game, and pieces its setup places, in every format",
    },
    Limit {
        name: "move-blocks",
        code: "zrf::too-many-move-blocks",
        what: "move and drop blocks of all pieces of one game, in every format",
    },
    Limit {
        name: "unknown-forms",
        code: "zrf::too-many-unknown-forms",
        what: "forms one ZRF game's move programs keep as written (not instructions nor names of the game)",
    },
    Limit {
        name: "yaml-bytes",
        code: "yaml::too-large",
        what: "size of a YAML spec document, in bytes",
    },
    Limit {
        name: "yaml-aliases",
        code: "yaml::alias-limit",
        what: "nodes YAML aliases may add to a document",
    },
    Limit {
        name: "output-bytes",
        code: "write::too-large",
        what: "size of one written file, in bytes (and never more than zogkit reads back in its format)",
    },
    Limit {
        name: "chessembly-steps",
        code: "chessembly::step-limit",
        what: "items one Chessembly chain may run (`zogkit moves`)",
    },
    Limit {
        name: "engine-steps",
        code: "engine::step-limit",
        what: "steps one move block may run in the engine (`perft`, `moves`, `replay`)",
    },
    Limit {
        name: "engine-block-runs",
        code: "engine::block-run-limit",
        what: "move and drop block runs of one position's move generation in the engine",
    },
    Limit {
        name: "engine-moves",
        code: "engine::move-limit",
        what: "moves one position may have in the engine",
    },
    Limit {
        name: "engine-work",
        code: "engine::work-limit",
        what: "steps the engine may run in one command, all blocks and positions together",
    },
];

/// Largest value the limits that bound recursion accept: `nesting` (later stages recurse on
/// list depth; 20,000 overflowed the stack, 5,000 did not), `macro-depth` and
/// `include-depth`. A larger setting means this value; every other limit saturates at the
/// largest value its type holds.
pub const RECURSION_CEILING: u64 = 2_048;

/// The largest value the limit called `name` takes.
pub fn ceiling(name: &str) -> u64 {
    match name {
        "nesting" | "macro-depth" | "include-depth" => RECURSION_CEILING,
        _ => u64::MAX,
    }
}

/// Looks a limit up by name.
pub fn find(name: &str) -> Option<&'static Limit> {
    LIMITS.iter().find(|l| l.name == name)
}

impl ReadOptions {
    /// The current value of the limit called `name`, or `None` for an unknown name.
    pub fn limit(&self, name: &str) -> Option<u64> {
        let z = &self.zrf;
        Some(match name {
            "input-bytes" => z.max_input_bytes as u64,
            "nesting" => z.syntax.max_depth as u64,
            "macro-depth" => z.expand.max_macro_depth as u64,
            "macro-calls" => z.expand.max_calls,
            "expansion-nodes" => z.expand.max_nodes,
            "expansion-bytes" => z.expand.max_text_bytes,
            "list-items" => z.expand.max_list_items as u64,
            "include-depth" => z.expand.max_include_depth as u64,
            "include-bytes" => z.expand.max_include_bytes,
            "file-expansion-nodes" => z.expand.max_file_nodes,
            "variants" => z.expand.max_forms as u64,
            "positions" => self.lower.max_positions as u64,
            "pieces" => self.lower.max_pieces as u64,
            "move-blocks" => self.lower.max_move_blocks as u64,
            "unknown-forms" => self.lower.max_unknown_forms as u64,
            "yaml-bytes" => self.yaml.max_bytes as u64,
            "yaml-aliases" => self.yaml.max_alias_nodes,
            "output-bytes" => self.max_output_bytes,
            "chessembly-steps" => u64::from(self.chessembly_steps),
            "engine-steps" => u64::from(self.engine_steps),
            "engine-block-runs" => self.engine_block_runs,
            "engine-moves" => self.engine_moves,
            "engine-work" => self.engine_work,
            _ => return None,
        })
    }

    /// Sets the limit called `name`. Values are saturating: one above what the limit can hold
    /// (or above its [`ceiling`]) sets the largest value it can. Errors name the problem
    /// (unknown name, zero).
    pub fn set_limit(&mut self, name: &str, value: u64) -> Result<(), String> {
        if find(name).is_none() {
            let names: Vec<&str> = LIMITS.iter().map(|l| l.name).collect();
            return Err(format!(
                "unknown limit {name:?}; the limits are {}",
                names.join(", ")
            ));
        }
        if value == 0 {
            return Err(format!("limit {name} must be at least 1"));
        }
        let value = value.min(ceiling(name));
        let size = usize::try_from(value).unwrap_or(usize::MAX);
        let small = u32::try_from(value).unwrap_or(u32::MAX);
        let z = &mut self.zrf;
        match name {
            "input-bytes" => z.max_input_bytes = size,
            "nesting" => z.syntax.max_depth = size,
            "macro-depth" => z.expand.max_macro_depth = size,
            "macro-calls" => z.expand.max_calls = value,
            "expansion-nodes" => z.expand.max_nodes = value,
            "expansion-bytes" => z.expand.max_text_bytes = value,
            "list-items" => z.expand.max_list_items = size,
            "include-depth" => z.expand.max_include_depth = size,
            "include-bytes" => z.expand.max_include_bytes = value,
            "file-expansion-nodes" => z.expand.max_file_nodes = value,
            "variants" => z.expand.max_forms = size,
            "positions" => self.lower.max_positions = size,
            "pieces" => self.lower.max_pieces = size,
            "move-blocks" => self.lower.max_move_blocks = size,
            "unknown-forms" => self.lower.max_unknown_forms = size,
            "yaml-bytes" => self.yaml.max_bytes = size,
            "yaml-aliases" => self.yaml.max_alias_nodes = value,
            "output-bytes" => self.max_output_bytes = value,
            "chessembly-steps" => self.chessembly_steps = small,
            "engine-steps" => self.engine_steps = small,
            "engine-block-runs" => self.engine_block_runs = value,
            "engine-moves" => self.engine_moves = value,
            "engine-work" => self.engine_work = value,
            _ => unreachable!("every name in LIMITS is handled"),
        }
        Ok(())
    }

    /// Applies one `NAME=VALUE` setting (the `--limit` syntax; `_` may group digits).
    pub fn apply_limit(&mut self, setting: &str) -> Result<(), String> {
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| format!("--limit {setting:?}: expected NAME=VALUE"))?;
        let digits = value.trim().replace('_', "");
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "--limit {setting:?}: {value:?} is not a whole number"
            ));
        }
        // Saturating: a number too large for 64 bits means the largest value.
        let value = digits.parse::<u64>().unwrap_or(u64::MAX);
        self.set_limit(name.trim(), value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_limit_round_trips_through_set_and_get() {
        for l in LIMITS {
            let mut o = ReadOptions::default();
            assert!(o.limit(l.name).is_some_and(|v| v > 0), "{}", l.name);
            o.apply_limit(&format!("{}=7", l.name)).unwrap();
            assert_eq!(o.limit(l.name), Some(7), "{}", l.name);
        }
    }

    #[test]
    fn bad_settings_are_refused_with_the_reason() {
        let mut o = ReadOptions::default();
        assert!(
            o.apply_limit("bogus=3")
                .unwrap_err()
                .contains("unknown limit")
        );
        assert!(o.apply_limit("nesting").unwrap_err().contains("NAME=VALUE"));
        assert!(
            o.apply_limit("nesting=x")
                .unwrap_err()
                .contains("whole number")
        );
        assert!(
            o.apply_limit("nesting=0")
                .unwrap_err()
                .contains("at least 1")
        );
        assert_eq!(o.limit("nesting"), ReadOptions::default().limit("nesting"));
    }

    #[test]
    fn values_saturate() {
        for l in LIMITS {
            for v in ["18446744073709551615", "99999999999999999999999"] {
                let mut o = ReadOptions::default();
                o.apply_limit(&format!("{}={v}", l.name)).unwrap();
                let got = o.limit(l.name).unwrap();
                assert!(
                    got >= u64::from(u32::MAX).min(ceiling(l.name)),
                    "{}: {got}",
                    l.name
                );
                assert!(got <= ceiling(l.name), "{}: {got}", l.name);
            }
        }
    }
}
