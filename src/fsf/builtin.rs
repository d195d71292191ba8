//! Fairy-Stockfish's built-in variant names, which a written section must never redefine.
//!
//! `pyffish.load_variant_config` refuses a section named after a built-in variant ("Variant
//! 'xiangqi' already exists.") and keeps its own rules, so a section named so would be played
//! with other rules without a word. The list is `pyffish.variants()` of pyffish 0.0.90 (its
//! large-board build); `tests/it/fsf_writer.rs` checks that it covers the installed pyffish's.

/// Every built-in variant name, sorted.
pub const BUILT_IN: [&str; 121] = [
    "3check",
    "5check",
    "ai-wok",
    "almost",
    "amazon",
    "amazons",
    "antichess",
    "armageddon",
    "asean",
    "ataxx",
    "atomar",
    "atomic",
    "berolina",
    "breakthrough",
    "bughouse",
    "cambodian",
    "capablanca",
    "capahouse",
    "caparandom",
    "centaur",
    "chancellor",
    "chaturanga",
    "checkshogi",
    "chess",
    "chessgi",
    "chigorin",
    "clobber",
    "clobber10",
    "codrus",
    "coregal",
    "courier",
    "crazyhouse",
    "dobutsu",
    "dragon",
    "duck",
    "embassy",
    "euroshogi",
    "extinction",
    "fairy",
    "fischerandom",
    "flipello",
    "flipello10",
    "flipersi",
    "fox-and-hounds",
    "gardner",
    "georgian",
    "giveaway",
    "gorogoro",
    "gothic",
    "grand",
    "grasshopper",
    "gustav3",
    "hoppelpoppel",
    "horde",
    "isolation",
    "isolation7x7",
    "janggi",
    "janggicasual",
    "janggimodern",
    "janggitraditional",
    "janus",
    "jesonmor",
    "joust",
    "judkins",
    "karouk",
    "kinglet",
    "kingofthehill",
    "knightmate",
    "koedem",
    "kyotoshogi",
    "legan",
    "loop",
    "losalamos",
    "losers",
    "makpong",
    "makruk",
    "manchu",
    "micro",
    "mini",
    "minishogi",
    "minixiangqi",
    "misere",
    "modern",
    "newzealand",
    "nightrider",
    "nocastle",
    "nocheckatomic",
    "normal",
    "okisakishogi",
    "omicron",
    "opulent",
    "paradigm",
    "pawnback",
    "pawnsideways",
    "perfect",
    "petrified",
    "placement",
    "pocketknight",
    "raazuvaa",
    "racingkings",
    "seirawan",
    "shako",
    "shatar",
    "shatranj",
    "shogi",
    "shoshogi",
    "shouse",
    "sittuyin",
    "snailtrail",
    "sortofalmost",
    "spartan",
    "suicide",
    "supply",
    "tencubed",
    "threekings",
    "torishogi",
    "torpedo",
    "troitzky",
    "wolf",
    "xiangqi",
    "yarishogi",
];

/// Whether `name` is a built-in variant of Fairy-Stockfish (a section may not be named so).
pub fn is_built_in(name: &str) -> bool {
    BUILT_IN.binary_search(&name).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_sorted_and_answers_by_name() {
        assert!(BUILT_IN.windows(2).all(|w| w[0] < w[1]));
        for n in [
            "chess",
            "xiangqi",
            "shogi",
            "minishogi",
            "janggi",
            "mini",
            "3check",
        ] {
            assert!(is_built_in(n), "{n}");
        }
        for n in ["zrf-chess", "mini-shogi", "chess-2", "Chess", ""] {
            assert!(!is_built_in(n), "{n}");
        }
    }
}
