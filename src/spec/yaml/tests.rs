//! Unit tests of the emitter and the reader; interop with other readers is in tests/it/yaml_interop.rs.

use super::*;
use crate::diag::SourceMap;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The atoms YAML 1.1 readers misread, and strings that break naive quoting.
const HAZARDS: &[&str] = &[
    "n",
    "N",
    "y",
    "Y",
    "off",
    "Off",
    "On",
    "on",
    "no",
    "yes",
    "true",
    "false",
    "01",
    "07",
    "08",
    "1_0",
    "1.10",
    "1e3",
    "~",
    "null",
    "-",
    "1i",
    "",
    " lead",
    "trail ",
    "a: b",
    "#x",
    "- x",
    "[x",
    "{x",
    "key: value\nline2",
    "\\",
    "\t",
    "\u{a0}",
    "\u{85}",
    "駒",
    "Рус",
    "\"",
    "'",
    "\r\n",
    "\u{2028}\u{2029}",
    "\u{feff}",
    "\u{0}\u{1}\u{1b}\u{7f}",
    "---",
    "...",
    "&a",
    "*a",
    "!tag",
    "%YAML",
    "@",
    "`",
    "|",
    ">",
    "?",
    ":",
    ",",
    "a #b",
    ".inf",
    ".nan",
    "0x1F",
    "0o17",
    "+1",
    "-0",
    "=",
    "<<",
    "\u{9f}",
    "\u{fffe}\u{ffff}",
    "🂡",
];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Step {
    Stop,
    Go(String),
    Jump(i32, i32),
    Verify {
        cond: Box<Cond>,
        label: Option<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "kebab-case")]
enum Cond {
    Empty {
        dir: String,
    },
    Not {
        inner: Box<Cond>,
    },
    InZone {
        zone: String,
        player: Option<String>,
    },
    True,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Unit;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Sample {
    spec_version: u32,
    title: String,
    names: Vec<String>,
    counts: BTreeMap<String, i64>,
    by_number: BTreeMap<u32, Vec<String>>,
    steps: Vec<Step>,
    conds: Vec<Cond>,
    nested: Vec<Vec<BTreeMap<String, Vec<u8>>>>,
    maybe: Option<String>,
    none: Option<Vec<i32>>,
    ratio: f64,
    small: f32,
    flag: bool,
    unit: Unit,
    tuple: (String, i8, Option<bool>),
    empty_list: Vec<String>,
    empty_map: BTreeMap<String, String>,
    letter: char,
    big: u64,
    negative: i64,
}

fn sample() -> Sample {
    let mut counts = BTreeMap::new();
    for (i, h) in HAZARDS.iter().enumerate() {
        counts.insert(h.to_string(), i as i64 - 3);
    }
    let mut by_number = BTreeMap::new();
    by_number.insert(1, vec!["01".to_string()]);
    by_number.insert(42, vec![]);
    let mut inner = BTreeMap::new();
    inner.insert("off".to_string(), vec![0, 255]);
    inner.insert("empty".to_string(), vec![]);
    Sample {
        spec_version: 1,
        title: "Tai Shogi 大局将棋\nsecond line".into(),
        names: HAZARDS.iter().map(|s| s.to_string()).collect(),
        counts,
        by_number,
        steps: vec![
            Step::Stop,
            Step::Go("n".into()),
            Step::Jump(-1, 2),
            Step::Verify {
                cond: Box::new(Cond::Not {
                    inner: Box::new(Cond::Empty { dir: "off".into() }),
                }),
                label: None,
            },
            Step::Verify {
                cond: Box::new(Cond::True),
                label: Some("Y".into()),
            },
        ],
        conds: vec![
            Cond::InZone {
                zone: "promotion-zone".into(),
                player: Some("On".into()),
            },
            Cond::True,
        ],
        nested: vec![vec![inner.clone(), BTreeMap::new()], vec![]],
        maybe: Some("null".into()),
        none: None,
        ratio: 0.1,
        small: 1.5,
        flag: false,
        unit: Unit,
        tuple: ("yes".into(), -8, Some(true)),
        empty_list: vec![],
        empty_map: BTreeMap::new(),
        letter: 'n',
        big: u64::MAX,
        negative: i64::MIN,
    }
}

#[test]
fn hazards_round_trip_and_are_quoted_unless_plain() {
    // Every hazard but the letters-only ones is quoted.
    let plain: Vec<&str> = HAZARDS
        .iter()
        .copied()
        .filter(|h| plain::is_plain(h))
        .collect();
    assert_eq!(plain, ["駒", "Рус"]);
    for h in HAZARDS {
        let text = to_string(h).unwrap();
        if plain::is_plain(h) {
            assert_eq!(text, format!("{h}\n"));
        } else {
            assert!(
                text.starts_with('"') && text.ends_with("\"\n"),
                "{h:?} → {text:?}"
            );
        }
        assert_eq!(text.matches('\n').count(), 1, "{h:?} → {text:?}");
        let back: String = from_str(&text, FileId(0)).unwrap();
        assert_eq!(&back, h, "{text:?}");
    }
    let list = to_string(HAZARDS).unwrap();
    for line in list.lines() {
        let item = line.strip_prefix("- ").unwrap();
        assert!(
            plain::is_plain(item) || (item.starts_with('"') && item.ends_with('"')),
            "{line}"
        );
    }
    let back: Vec<String> = from_str(&list, FileId(0)).unwrap();
    assert_eq!(back, HAZARDS);
}

#[test]
fn escapes_are_the_documented_ones() {
    assert_eq!(to_string("a\"b\\c").unwrap(), "\"a\\\"b\\\\c\"\n");
    assert_eq!(to_string("\n\t\r").unwrap(), "\"\\n\\t\\r\"\n");
    assert_eq!(
        to_string("\u{0}\u{1b}\u{7f}\u{85}\u{a0}\u{2028}\u{2029}\u{feff}\u{ffff}").unwrap(),
        "\"\\u0000\\u001B\\u007F\\u0085\\u00A0\\u2028\\u2029\\uFEFF\\uFFFF\"\n"
    );
    // Non-ASCII letters and symbols need no quotes; a string that starts with a symbol does.
    assert_eq!(to_string("駒 Рус é 🂡").unwrap(), "駒 Рус é 🂡\n");
    assert_eq!(to_string("🂡 駒").unwrap(), "\"🂡 駒\"\n");
}

#[test]
fn sample_round_trips_and_only_safe_strings_are_plain() {
    let value = sample();
    let text = to_string(&value).unwrap();
    let back: Sample = from_str(&text, FileId(0)).unwrap();
    assert_eq!(back, value);
    assert!(text.ends_with('\n') && !text.ends_with("\n\n"));
    // Outside double quotes, every token between the block and flow punctuation is a number,
    // boolean, null, `?` or a string `plain::is_plain` allows (the sample's plain strings are
    // single words), and the field names and variant names are plain.
    let mut words = 0;
    for line in text.lines() {
        for token in unquoted_tokens(line) {
            assert!(
                plain_ok(&token) || token == "?" || plain::is_plain(&token),
                "line {line:?}: token {token:?}"
            );
            words += usize::from(plain::is_plain(&token));
        }
    }
    for key in [
        "spec_version:",
        "by_number:",
        "Verify:",
        "op: not",
        "op: in-zone",
        "- Stop",
    ] {
        assert!(text.contains(key), "{key} in {text}");
    }
    assert!(words > 20, "{words} plain words");
}

/// The runs of text outside double-quoted scalars, split at YAML punctuation and spaces.
fn unquoted_tokens(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                // skip the quoted scalar, honouring backslash escapes
                while let Some(q) = chars.next() {
                    match q {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '[' | ']' | '{' | '}' | ',' | ' ' => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            ':' => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            '-' if cur.is_empty() && chars.clone().next().is_none_or(|n| n == ' ') => {}
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn plain_ok(v: &str) -> bool {
    matches!(
        v,
        "true" | "false" | "null" | "[]" | "{}" | ".inf" | "-.inf" | ".nan"
    ) || v.parse::<i128>().is_ok()
        || (v.parse::<f64>().is_ok() && v.contains('.'))
}

#[test]
fn layout_is_block_style_with_short_scalar_collections_in_flow() {
    #[derive(Serialize)]
    struct Piece {
        name: &'static str,
        moves: Vec<Vec<i32>>,
    }
    #[derive(Serialize)]
    struct Doc {
        title: &'static str,
        players: Vec<&'static str>,
        pieces: Vec<Piece>,
        none: Option<u8>,
        empty: Vec<u8>,
        step: Step,
    }
    let doc = Doc {
        title: "Shogi",
        players: vec!["Black", "White"],
        pieces: vec![Piece {
            name: "駒 — a name long enough that the piece no longer fits on one flow line",
            moves: vec![vec![1, 2], vec![]],
        }],
        none: None,
        empty: vec![],
        step: Step::Jump(0, -1),
    };
    let expected = r#"title: Shogi
players: [Black, White]
pieces:
  - name: 駒 — a name long enough that the piece no longer fits on one flow line
    moves: [[1, 2], []]
none: null
empty: []
step: {Jump: [0, -1]}
"#;
    assert_eq!(to_string(&doc).unwrap(), expected);
    assert_eq!(to_string(&Vec::<u8>::new()).unwrap(), "[]\n");
    assert_eq!(to_string(&BTreeMap::<u8, u8>::new()).unwrap(), "{}\n");
    assert_eq!(to_string(&Step::Stop).unwrap(), "Stop\n");
    assert_eq!(to_string(&()).unwrap(), "null\n");
}

#[test]
fn long_collections_wrap_and_one_key_items_stay_block() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Position {
        name: String,
        rect: [u32; 4],
        grid: [u32; 2],
        links: BTreeMap<String, String>,
    }
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Doc {
        zone: Vec<String>,
        positions: Vec<Position>,
        program: Vec<Step>,
    }
    let links = |l: &[(&str, &str)]| {
        l.iter()
            .map(|(d, p)| (d.to_string(), p.to_string()))
            .collect()
    };
    let doc = Doc {
        zone: (0..40).map(|i| format!("p{i:02}")).collect(),
        positions: vec![
            Position {
                name: "a1".into(),
                rect: [0, 0, 50, 50],
                grid: [0, 0],
                links: links(&[("e", "b1"), ("n", "a2")]),
            },
            Position {
                name: "b2".into(),
                rect: [50, 50, 100, 100],
                grid: [1, 1],
                links: links(&[
                    ("e", "c2"),
                    ("n", "b3"),
                    ("ne", "c3"),
                    ("nw", "a3"),
                    ("s", "b1"),
                    ("se", "c1"),
                    ("sw", "a1"),
                    ("w", "a2"),
                ]),
            },
        ],
        program: vec![
            Step::Go("n".into()),
            Step::Verify {
                cond: Box::new(Cond::Not {
                    inner: Box::new(Cond::Empty { dir: "e".into() }),
                }),
                label: None,
            },
            Step::Verify {
                cond: Box::new(Cond::True),
                label: Some("Y".into()),
            },
            Step::Stop,
        ],
    };
    let expected = r#"zone: [p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15, p16, p17,
  p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33, p34, p35, p36, p37,
  p38, p39]
positions:
  - {name: a1, rect: [0, 0, 50, 50], grid: [0, 0], links: {e: b1, "n": a2}}
  - {name: b2, rect: [50, 50, 100, 100], grid: [1, 1],
    links: {e: c2, "n": b3, ne: c3, nw: a3, s: b1, se: c1, sw: a1, w: a2}}
program:
  - Go: "n"
  - Verify: {cond: {op: not, inner: {op: empty, dir: e}}, label: null}
  - Verify: {cond: {op: "true"}, label: "Y"}
  - Stop
"#;
    let text = to_string(&doc).unwrap();
    assert_eq!(text, expected);
    // Both reader paths read it, the same.
    let limits = ReadLimits::default();
    assert_eq!(super::from_str_fast::<Doc>(&text, &limits), Some(doc));
    let general: serde_json::Value = from_str_general(&text, FileId(0), &limits).unwrap();
    assert_eq!(
        super::from_str_fast::<serde_json::Value>(&text, &limits),
        Some(general)
    );
    // A shorter program fits on one line, its one-key maps in braces.
    let short = vec![Step::Go("n".into()), Step::Jump(1, 2), Step::Stop];
    assert_eq!(
        to_string(&BTreeMap::from([("program", &short)])).unwrap(),
        "program: [{Go: \"n\"}, {Jump: [1, 2]}, Stop]\n"
    );
}

#[test]
fn floats_are_read_as_floats_by_yaml_1_1_and_1_2() {
    let cases: &[(f64, &str)] = &[
        (1.0, "1.0"),
        (-0.0, "-0.0"),
        (0.1, "0.1"),
        (1e100, "1.0e+100"),
        (1.5e-7, "1.5e-7"),
        (f64::INFINITY, ".inf"),
        (f64::NEG_INFINITY, "-.inf"),
    ];
    for (v, want) in cases {
        assert_eq!(to_string(v).unwrap(), format!("{want}\n"));
        let back: f64 = from_str(want, FileId(0)).unwrap();
        assert_eq!(back.to_bits(), v.to_bits(), "{want}");
    }
    assert_eq!(to_string(&f64::NAN).unwrap(), ".nan\n");
    assert!(from_str::<f64>(".nan", FileId(0)).unwrap().is_nan());
    assert_eq!(to_string(&0.1f32).unwrap(), "0.1\n");
}

#[test]
fn long_keys_use_the_explicit_form() {
    let mut m = BTreeMap::new();
    let long = "k".repeat(2000);
    m.insert(long.clone(), vec![1]);
    m.insert("short".to_string(), vec![]);
    let text = to_string(&m).unwrap();
    assert!(text.starts_with(&format!("? {long}\n: [1]\n")), "{text}");
    let back: BTreeMap<String, Vec<i32>> = from_str(&text, FileId(0)).unwrap();
    assert_eq!(back, m);
    // Inside a sequence item, and with an empty value.
    let nested = vec![m.clone(), [(long.clone(), vec![])].into_iter().collect()];
    let text = to_string(&nested).unwrap();
    assert!(text.contains(&format!("\n- ? {long}\n  : []\n")), "{text}");
    let back: Vec<BTreeMap<String, Vec<i32>>> = from_str(&text, FileId(0)).unwrap();
    assert_eq!(back, nested);
}

#[test]
fn non_scalar_keys_are_an_error() {
    let mut m = BTreeMap::new();
    m.insert(vec![1], 2);
    let e = to_string(&m).unwrap_err();
    assert!(e.message().contains("map key"), "{e}");
}

#[test]
fn output_is_deterministic() {
    let a = to_string(&sample()).unwrap();
    let b = to_string(&sample()).unwrap();
    assert_eq!(a.as_bytes(), b.as_bytes());
}

#[test]
fn enums_are_read_from_single_key_maps_tags_and_strings() {
    let from_map: Vec<Step> =
        from_str("- \"Go\": \"n\"\n- Jump: [1, 2]\n- Stop\n", FileId(0)).unwrap();
    assert_eq!(
        from_map,
        vec![Step::Go("n".into()), Step::Jump(1, 2), Step::Stop]
    );
    let from_tags: Vec<Step> = from_str("- !Go n\n- !Jump [1, 2]\n", FileId(0)).unwrap();
    assert_eq!(from_tags, vec![Step::Go("n".into()), Step::Jump(1, 2)]);
    let e = from_str::<Step>("Go: n\nStop: null\n", FileId(0)).unwrap_err();
    assert_eq!(e.code, CODE_INVALID);
    assert!(e.message.contains("exactly one key"), "{}", e.message);
    let e = from_str::<Step>("Fly: n\n", FileId(0)).unwrap_err();
    assert_eq!(e.code, CODE_INVALID);
    assert!(e.message.contains("unknown variant"), "{}", e.message);
}

fn render(text: &str, d: &Diagnostic) -> String {
    let mut sm = SourceMap::new();
    let id = sm.add("game.yaml", text);
    assert_eq!(d.span.map(|s| s.file), Some(id));
    d.render(&sm, "game.yaml")
}

#[test]
fn syntax_errors_point_at_line_and_column() {
    let text = "\"title\": \"x\"\n\"players\":\n  - \"a\"\n  \"b\": [1, 2\n";
    let d = from_str::<serde_json::Value>(text, FileId(0)).unwrap_err();
    assert_eq!(d.code, CODE_SYNTAX);
    let r = render(text, &d);
    assert!(r.starts_with("error[yaml::syntax]: "), "{r}");
    assert!(r.contains("--> game.yaml:4:3\n"), "{r}");
    assert!(!d.message.contains("at line"), "{}", d.message);
    // libyaml's context ("while parsing a block ...") becomes a located note.
    assert_eq!(d.notes.len(), 1, "{r}");
    assert!(d.notes[0].0.is_some(), "{r}");
}

#[test]
fn type_errors_point_at_the_value() {
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct S {
        name: String,
        count: u32,
    }
    let text = "\"name\": \"駒\"\n\"count\": \"many\"\n";
    let d = from_str::<S>(text, FileId(0)).unwrap_err();
    assert_eq!(d.code, CODE_INVALID);
    let r = render(text, &d);
    assert!(r.contains("--> game.yaml:2:10\n"), "{r}");
    assert!(r.contains("invalid type"), "{r}");
    let d = from_str::<S>("\"name\": \"x\"\n", FileId(0)).unwrap_err();
    assert_eq!(d.code, CODE_INVALID);
    assert!(d.message.contains("missing field `count`"), "{}", d.message);
}

#[test]
fn errors_after_a_bom_and_crlf_are_located() {
    let text = "\u{feff}a: 1\r\nb: [\r\n";
    let d = from_str::<serde_json::Value>(text, FileId(0)).unwrap_err();
    assert_eq!(d.code, CODE_SYNTAX);
    let mut sm = SourceMap::new();
    sm.add("t.yaml", text);
    let (_, line, _) = d.location(&sm).unwrap();
    assert!(line >= 2, "{}", d.render(&sm, "t.yaml"));
    let text = "\u{feff}\"a\": [1]\n\"b\": \"x\"\n";
    let d = from_str::<BTreeMap<String, Vec<i32>>>(text, FileId(0)).unwrap_err();
    assert_eq!(d.code, CODE_INVALID);
    let mut sm = SourceMap::new();
    sm.add("t.yaml", text);
    assert_eq!(d.location(&sm).map(|l| (l.1, l.2)), Some((2, 6)));
}

#[test]
fn raw_control_characters_are_located() {
    let text = "\"a\": \"ok\"\n\"b\": \"x\u{1}\"\n";
    let d = from_str::<serde_json::Value>(text, FileId(0)).unwrap_err();
    assert_eq!(d.code, CODE_SYNTAX);
    let r = render(text, &d);
    assert!(r.contains("--> game.yaml:2:8\n"), "{r}");
}

#[test]
fn billion_laughs_is_rejected_quickly() {
    let mut text = String::from("a0: &a0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n");
    for i in 1..12 {
        let refs = vec![format!("*a{}", i - 1); 10].join(", ");
        text.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    let (d, cpu) = crate::tests::cpu_time(|| from_str::<serde_json::Value>(&text, FileId(0)));
    let d = d.unwrap_err();
    assert_eq!(d.code, CODE_ALIAS_LIMIT, "{}", d.message);
    assert!(cpu.as_secs_f64() < 1.0, "{cpu:?} of CPU time");
}

#[test]
fn quadratic_alias_blowup_is_rejected_quickly() {
    // One big anchored sequence referenced many times: under yaml_serde's own jump limit,
    // but about 10^9 nodes once expanded.
    let mut text = String::from("big: &big [");
    text.push_str(&vec!["1"; 30_000].join(","));
    text.push_str("]\nrefs: [");
    text.push_str(&vec!["*big"; 30_000].join(","));
    text.push_str("]\n");
    let (d, cpu) = crate::tests::cpu_time(|| from_str::<serde_json::Value>(&text, FileId(0)));
    let d = d.unwrap_err();
    assert_eq!(d.code, CODE_ALIAS_LIMIT, "{}", d.message);
    assert!(cpu.as_secs_f64() < 1.0, "{cpu:?} of CPU time");
}

#[test]
fn modest_aliases_are_accepted() {
    let v: BTreeMap<String, Vec<String>> =
        from_str("a: &x [\"n\", \"off\"]\nb: *x\n", FileId(0)).unwrap();
    assert_eq!(v["b"], vec!["n", "off"]);
}

#[test]
fn deep_nesting_and_size_limits_have_their_codes() {
    let text = format!("{}{}", "[".repeat(500), "]".repeat(500));
    let d = from_str::<serde_json::Value>(&text, FileId(0)).unwrap_err();
    assert_eq!(d.code, CODE_NESTING_LIMIT, "{}", d.message);
    let limits = ReadLimits {
        max_bytes: 4,
        ..ReadLimits::default()
    };
    let d = from_str_with_limits::<String>("\"hello\"", FileId(0), &limits).unwrap_err();
    assert_eq!(d.code, CODE_TOO_LARGE);
}

#[test]
fn the_emitter_refuses_nesting_the_reader_cannot_read() {
    fn nested(depth: usize) -> serde_json::Value {
        (0..depth).fold(serde_json::json!("n"), |v, _| serde_json::json!([v]))
    }
    let ok = nested(MAX_NESTING);
    let text = to_string(&ok).unwrap();
    let back: serde_json::Value = from_str(&text, FileId(0)).unwrap();
    assert_eq!(back, ok);
    let e = to_string(&nested(MAX_NESTING + 1)).unwrap_err();
    assert!(e.message().contains("nested more than 128"), "{e}");
    // ... because the reader indeed stops one level further down.
    let deeper = format!(
        "{}\"n\"{}",
        "[".repeat(MAX_NESTING + 1),
        "]".repeat(MAX_NESTING + 1)
    );
    let d = from_str::<serde_json::Value>(&deeper, FileId(0)).unwrap_err();
    assert_eq!(d.code, CODE_NESTING_LIMIT);
}

#[test]
fn option_box_and_map_wrapped_enums_are_read() {
    let v: Option<Step> = from_str("\"Go\": \"n\"\n", FileId(0)).unwrap();
    assert_eq!(v, Some(Step::Go("n".into())));
    let v: BTreeMap<String, Box<Step>> = from_str(
        "\"a\":\n  \"Jump\":\n    - 1\n    - 2\n\"b\": \"Stop\"\n",
        FileId(0),
    )
    .unwrap();
    assert_eq!(*v["a"], Step::Jump(1, 2));
    assert_eq!(*v["b"], Step::Stop);
}

#[test]
fn multiple_documents_are_a_syntax_error_about_the_whole_file() {
    let d = from_str::<String>("\"a\"\n---\n\"b\"\n", FileId(0)).unwrap_err();
    assert_eq!(d.code, CODE_SYNTAX);
    assert_eq!(d.span, None);
    assert!(
        d.message.contains("more than one document"),
        "{}",
        d.message
    );
}

/// Emitted types must not iterate in hash order: no `HashMap`/`HashSet` in `src/spec`.
#[test]
fn spec_types_use_no_hash_collections() {
    // The data model must iterate deterministically. (The emitter's anchor index is a lookup
    // table that never decides output order, so src/spec/yaml is not checked; elsewhere such
    // tables end their line with `// lookup only`.)
    let needles = [concat!("Hash", "Map"), concat!("Hash", "Set")];
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/spec");
    let mut stack = vec![dir];
    let mut files = 0;
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !path.ends_with("yaml") {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("yaml.rs") {
                files += 1;
                let text = std::fs::read_to_string(&path).unwrap();
                for (i, line) in text.lines().enumerate() {
                    let code = line.trim_start();
                    // A hash table used only to look names up (never iterated) is marked so.
                    if code.starts_with("//") || code.ends_with("// lookup only") {
                        continue;
                    }
                    for n in needles {
                        assert!(
                            !code.contains(n),
                            "{}:{}: {n} in spec code breaks deterministic YAML; use BTreeMap",
                            path.display(),
                            i + 1
                        );
                    }
                }
            }
        }
    }
    assert!(files >= 2);
}

#[test]
fn duplicate_keys_are_an_error_at_the_second_key() {
    let text = "\"setup\":\n  \"off\": 1\n  \"n\": 2\n  \"off\": 3\n";
    let d = from_str::<BTreeMap<String, BTreeMap<String, i32>>>(text, FileId(0)).unwrap_err();
    assert_eq!(d.code, CODE_DUPLICATE_KEY);
    assert!(d.message.contains("duplicate key \"off\""), "{}", d.message);
    let r = render(text, &d);
    assert!(r.contains("--> game.yaml:4:3\n"), "{r}");
    // Also inside nested maps, for integer keys, inside buffered content (internally tagged
    // enums), and for struct fields.
    let d = from_str::<serde_json::Value>("a: 1\nb: [{x: 1, x: 2}]\n", FileId(0)).unwrap_err();
    assert_eq!(d.code, CODE_DUPLICATE_KEY);
    let d = from_str::<BTreeMap<u32, i32>>("1: 1\n2: 3\n1: 4\n", FileId(0)).unwrap_err();
    assert_eq!(d.code, CODE_DUPLICATE_KEY);
    // `1` and `"1"` both become the string key "1" of a JSON object: reading both would lose one.
    let d = from_str::<serde_json::Value>("1: 1\n\"1\": 2\n", FileId(0)).unwrap_err();
    assert_eq!(d.code, CODE_DUPLICATE_KEY);
    let d = from_str::<Cond>("op: empty\ndir: n\ndir: s\n", FileId(0)).unwrap_err();
    assert_eq!(d.code, CODE_DUPLICATE_KEY);
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct S {
        a: i32,
    }
    let d = from_str::<S>("a: 1\na: 2\n", FileId(0)).unwrap_err();
    assert_eq!(d.code, CODE_DUPLICATE_KEY);
    // Newtype keys and enum keys are checked too.
    #[derive(Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
    struct Name(String);
    let d = from_str::<BTreeMap<Name, i32>>("a: 1\na: 2\n", FileId(0)).unwrap_err();
    assert_eq!(d.code, CODE_DUPLICATE_KEY);
    #[derive(Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
    enum Side {
        White,
        Black,
    }
    let d =
        from_str::<BTreeMap<Side, i32>>("White: 1\nBlack: 2\nWhite: 3\n", FileId(0)).unwrap_err();
    assert_eq!(d.code, CODE_DUPLICATE_KEY);
    let ok = from_str::<BTreeMap<Side, i32>>("White: 1\nBlack: 2\n", FileId(0)).unwrap();
    assert_eq!(ok.len(), 2);
}

#[test]
fn deep_nesting_is_refused_before_the_scanner_slows_down() {
    // Found by `cargo xtask fuzz`: libyaml's scanner is quadratic in nesting depth.
    for text in [
        format!("\"a\": {}1", "[".repeat(20_000)),
        format!("\"a\":\n{}1\n", "- ".repeat(20_000)),
        format!("\"a\": {}", "{\"b\": ".repeat(20_000)),
    ] {
        let (err, cpu) = crate::tests::cpu_time(|| from_str::<serde_json::Value>(&text, FileId(0)));
        let err = err.unwrap_err();
        assert!(cpu.as_millis() < 500, "{cpu:?} of CPU time");
        assert_eq!(err.code, CODE_NESTING_LIMIT);
    }
    // Brackets inside quoted scalars and comments are not nesting.
    let quoted = format!("\"a\": \"{}\" # {}\n", "[".repeat(500), "{".repeat(500));
    assert!(from_str::<serde_json::Value>(&quoted, FileId(0)).is_ok());
}

#[test]
fn alias_limit_points_at_the_first_alias() {
    let mut text = String::from(
        "# a *comment\nq: \"*not an alias\"\na0: &a0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n",
    );
    for i in 1..10 {
        let refs = vec![format!("*a{}", i - 1); 9].join(", ");
        text.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    let (e, cpu) =
        crate::tests::cpu_time(|| super::from_str::<serde_yaml::Value>(&text, FileId(0)));
    let e = e.unwrap_err();
    assert!(cpu.as_secs_f64() < 1.0, "{cpu:?} of CPU time");
    assert_eq!(e.code, super::CODE_ALIAS_LIMIT);
    let first = text.find("[*a0").unwrap() + 1;
    assert_eq!(e.span.map(|s| s.start as usize), Some(first), "{e:?}");
}

#[test]
fn the_fast_path_gives_up_on_text_outside_the_emitters_style() {
    let long_key = format!("\"{}\"", "k".repeat(600));
    let cases = [
        // Implicit keys over YAML's 1024-character limit (yaml_serde: a syntax error); the
        // emitter writes keys over 512 bytes in the explicit form.
        format!("{long_key}: 1\n"),
        format!("\"a\": {{{long_key}: 1, \"b\": 2}}\n"),
        // A float out of range is a string to yaml_serde, not infinity.
        "\"a\": 1.0e+999\n".into(),
        // Comments, plain strings the emitter quotes (a YAML 1.1 boolean, a trailing space, a
        // `: `, a `#`), other nulls, tabs, CRLF, no final line break.
        "\"a\": 1 # note\n".into(),
        "\"a\": n\n".into(),
        "a: b \n".into(),
        "a: b: c\n".into(),
        "a: b #c\n".into(),
        "off: 1\n".into(),
        "\"a\": ~\n".into(),
        "\"a\":\t1\n".into(),
        "\"a\": 1\r\n".into(),
        "\"a\": 1".into(),
        // A repeated key, an alias before its anchor, two documents, a tag.
        "\"a\": 1\n\"a\": 2\n".into(),
        "\"a\": *x\n\"b\": &x\n  \"c\": 1\n".into(),
        "\"a\": 1\n---\n\"a\": 2\n".into(),
        "\"a\": !t 1\n".into(),
        // A sequence at its key's column, a null value, escapes the emitter does not write.
        "\"a\":\n- 1\n".into(),
        "\"a\":\n\"b\": 1\n".into(),
        "\"a\": \"\\x41\"\n".into(),
        "\"a\": \"\\é\"\n".into(),
        // A plain scalar on the next line or continued on it; a flow collection wrapped at
        // another indentation, with a space before the line break, or at the top level.
        "a:\n  b\n".into(),
        "a: b\n  c\n".into(),
        "a: [1,\n   2]\n".into(),
        "a: [1,\n2]\n".into(),
        "a: [1, \n  2]\n".into(),
        "[1,\n  2]\n".into(),
        "a: {b: [1,\n    2]}\n".into(),
    ];
    let limits = ReadLimits::default();
    for text in &cases {
        assert!(
            super::from_str_fast::<serde_json::Value>(text, &limits).is_none(),
            "the fast path read {text:?}"
        );
    }
    // Documents in the emitter's style (today's and the earlier all-quoted one) are read by
    // the fast path, as yaml_serde reads them.
    for text in [
        "\"a\": 1\n",
        "\"a\":\n  - 1\n",
        "\"a\": {\"b\": 2}\n",
        "\"a\": \"\\u0041\"\n",
        "a: b\n",
        "a b: c d\n",
        "a: [b, \"n\"]\n",
        "a: [1,\n  2]\n",
        "- [1,\n  2]\n",
        "- a: b\n  c: {d: e,\n    f: [g]}\n",
    ] {
        let fast = super::from_str_fast::<serde_json::Value>(text, &limits);
        assert!(fast.is_some(), "the fast path gave up on {text:?}");
        let general = from_str_general::<serde_json::Value>(text, FileId(0), &limits).ok();
        assert_eq!(fast, general, "{text:?}");
    }
}

#[test]
fn billion_laughs_in_the_emitters_own_style_is_rejected_quickly() {
    // Quoted keys, anchors on block map values and aliases as values: the fast path's style.
    let mut text = String::from("\"a0\": &a0\n  \"lol\": [\"lol\", \"lol\", \"lol\", \"lol\"]\n");
    for i in 1..12 {
        text.push_str(&format!("\"a{i}\": &a{i}\n"));
        for k in 0..10 {
            text.push_str(&format!("  \"p{k}\": *a{}\n", i - 1));
        }
    }
    // One million added nodes (the default is higher since the limit counts exactly what
    // aliases add; the CLI test checks the default's CPU time).
    let limits = ReadLimits {
        max_alias_nodes: 1_000_000,
        ..ReadLimits::default()
    };
    let ((fast, d), cpu) = crate::tests::cpu_time(|| {
        (
            super::from_str_fast::<serde_json::Value>(&text, &limits),
            super::from_str_with_limits::<serde_json::Value>(&text, FileId(0), &limits),
        )
    });
    assert!(fast.is_none());
    let d = d.unwrap_err();
    assert_eq!(d.code, CODE_ALIAS_LIMIT, "{}", d.message);
    assert!(cpu.as_secs_f64() < 1.0, "{cpu:?} of CPU time");
    // The same document with two levels is read, by the fast path.
    let small: String = text
        .lines()
        .take(1 + 1 + 11)
        .map(|l| format!("{l}\n"))
        .collect();
    let v = super::from_str_fast::<serde_json::Value>(&small, &ReadLimits::default())
        .expect("the fast path reads modest aliases");
    assert_eq!(v["a1"]["p9"]["lol"][3], "lol");
}

/// A game-like value for the sharing tests: a board with a long position list, and moves.
#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct SharedGame {
    title: String,
    board: SharedBoard,
    moves: Vec<Vec<String>>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct SharedBoard {
    positions: Vec<Vec<String>>,
    size: Vec<u32>,
}

/// Lists of one-element lists: written in block style (a long list of scalars would be a
/// wrapped flow collection, which is never anchored).
fn shared_games() -> Vec<SharedGame> {
    let long =
        |tag: &str| -> Vec<Vec<String>> { (0..60).map(|i| vec![format!("{tag} {i}")]).collect() };
    let game = |title: &str, moves: &str| SharedGame {
        title: title.into(),
        board: SharedBoard {
            positions: long("position"),
            size: vec![8, 8],
        },
        moves: long(moves),
    };
    vec![
        game("a", "step"),
        game("b", "step"),
        game("c", "jump"),
        game("d", "step"),
    ]
}

#[test]
fn shared_parts_are_written_as_aliases_of_their_first_occurrence() {
    let games = shared_games();
    let mut shared = Shared::new();
    // Unequal values are not shared; equal ones are, also when the earlier one is itself
    // written as an alias.
    assert!(!shared.share(&games[2].moves, &games[0].moves));
    assert!(shared.share(&games[1].board, &games[0].board));
    assert!(shared.share(&games[1].moves, &games[0].moves));
    assert!(shared.share(&games[3].moves, &games[1].moves));
    assert!(!shared.share(&games[0].moves, &games[0].moves));
    let text = to_string_shared(&games, shared).unwrap();
    let plain = to_string(&games).unwrap();
    // Text anchoring alone aliases game b's positions but not its whole board, whose text then
    // differs from game a's; sharing aliases the board.
    assert!(text.contains("board: &a0\n"), "{text}");
    assert_eq!(text.matches("board: *a0").count(), 1, "{text}");
    assert!(text.contains("moves: &a1\n"), "{text}");
    assert_eq!(text.matches("moves: *a1").count(), 2, "{text}");
    assert!(!plain.contains("board: *a"), "{plain}");
    assert!(text.len() < plain.len());
    // Both read back as the same value, here and through the general reader.
    for t in [&text, &plain] {
        let back: Vec<SharedGame> = from_str(t, FileId(0)).unwrap();
        assert_eq!(back, games);
        let general: Vec<SharedGame> =
            from_str_general(t, FileId(0), &ReadLimits::default()).unwrap();
        assert_eq!(general, games);
    }
}

#[test]
fn shared_parts_fall_back_to_writing_when_no_alias_is_possible() {
    #[derive(Serialize)]
    struct Nested {
        top: Vec<Vec<String>>,
        inner: Inner,
    }
    #[derive(Serialize)]
    struct Inner {
        x: Vec<Vec<String>>,
    }
    let games = shared_games();
    // An earlier value too short to be anchored, or written at another indentation, is not
    // aliased: the later value is written out, exactly as without sharing.
    let mut shared = Shared::new();
    assert!(shared.share(&games[1].board.size, &games[0].board.size));
    let text = to_string_shared(&games, shared).unwrap();
    assert_eq!(text, to_string(&games).unwrap());
    let positions = games[0].board.positions.clone();
    let nested = Nested {
        top: positions.clone(),
        inner: Inner { x: positions },
    };
    let mut shared = Shared::new();
    assert!(shared.share(&nested.inner.x, &nested.top));
    let text = to_string_shared(&nested, shared).unwrap();
    assert!(!text.contains('*'), "{text}");
    assert_eq!(text, to_string(&nested).unwrap());
}

#[test]
fn shared_parts_inside_collections_rewritten_in_flow_style_are_forgotten() {
    // Row 1's `t` becomes an alias of row 0's, so row 1 is then rewritten on one line; what
    // was recorded about its block text must not be used for row 2's `t`, which shares it.
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Row {
        name: String,
        note: String,
        t: Vec<Vec<String>>,
    }
    let big: Vec<Vec<String>> = (0..60).map(|i| vec![format!("entry {i}")]).collect();
    for name in ["b", "ëé", "漢字", "a\u{2028}b"] {
        let rows: Vec<Row> = (0..3)
            .map(|i| Row {
                name: name.repeat(i + 1),
                note: "é".into(),
                t: big.clone(),
            })
            .collect();
        let mut shared = Shared::new();
        assert!(shared.share(&rows[2].t, &rows[1].t));
        let text = to_string_shared(&rows, shared).unwrap();
        assert!(text.contains("t: *a0}\n"), "{text}");
        assert_eq!(text, to_string(&rows).unwrap());
        let back: Vec<Row> = from_str(&text, FileId(0)).unwrap();
        assert_eq!(back, rows);
    }
}

#[test]
fn depth_fits_exactly_when_the_emitter_writes() {
    use crate::spec::{Goal, GoalCond, GoalKind};
    fn not(n: usize, inner: GoalCond) -> GoalCond {
        (0..n).fold(inner, |c, _| GoalCond::Not(Box::new(c)))
    }
    let leaves = [
        GoalCond::Stalemated,
        GoalCond::Checkmated {
            pieces: vec!["K".into()],
        },
        GoalCond::And(vec![GoalCond::Repetition, GoalCond::Stalemated]),
        GoalCond::Raw {
            format: crate::spec::RawFormat::Zrf,
            text: "x".into(),
        },
    ];
    let (mut written, mut refused) = (0, 0);
    for leaf in leaves {
        for n in MAX_NESTING - 70..MAX_NESTING + 3 {
            let goal = Goal {
                kind: GoalKind::Win,
                players: vec!["White".into()],
                condition: not(n / 2, leaf.clone()),
            };
            let cond = not(n, leaf.clone());
            let wrapped = vec![BTreeMap::from([("g", vec![goal])])];
            for (fits, writes) in [
                (depth::fits(&cond, 0), to_string(&cond).is_ok()),
                (depth::fits(&wrapped, 0), to_string(&wrapped).is_ok()),
                (depth::fits(&cond, 5), to_string(&[[[[[&cond]]]]]).is_ok()),
            ] {
                assert_eq!(fits, writes, "{n} levels around {leaf:?}");
                if writes { written += 1 } else { refused += 1 }
            }
        }
    }
    // Both sides of the limit were met.
    assert!(written > 0 && refused > 0, "{written} {refused}");
}
