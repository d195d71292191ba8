//! Interop of `spec::yaml`'s output with other YAML readers: yaml_serde (through `from_str`) and
//! PyYAML (both its pure-Python `SafeLoader` and, when PyYAML was built with it, libyaml's
//! `CSafeLoader`), which follows YAML 1.1 and so misreads unquoted `n`, `off`, `Y`, `01`, ...
//!
//! PyYAML is required: without `python3` and the `yaml` module these tests fail, unless
//! `ZOGKIT_SKIP_PYYAML=1` is set, in which case the PyYAML comparisons are skipped (and say so).
//!
//! js-yaml (YAML 1.2, the reader of JavaScript tools) is optional: its test runs when `node` can
//! `require("js-yaml")` (for example with `NODE_PATH` pointing at a `node_modules` holding it),
//! and otherwise prints that it was skipped.

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};
use zogkit::diag::FileId;
use zogkit::spec::{Document, yaml};

/// Strings that YAML 1.1 readers misread when unquoted, or that break naive quoting.
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
    "2001-12-14",
    "12:30:45",
    "0b101",
    "+.5",
    "images\\Chess\\x.bmp",
    "Knight\\A Knight moves",
    "NO",
    "FALSE",
    "Null",
    "NULL",
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
    Empty { dir: String },
    Not { inner: Box<Cond> },
    True,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Piece {
    name: String,
    help: Option<String>,
    images: BTreeMap<String, String>,
    moves: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Doc {
    spec_version: u32,
    title: String,
    description: String,
    directions: Vec<String>,
    setup: BTreeMap<String, BTreeMap<String, Vec<String>>>,
    pieces: Vec<Piece>,
    labels: BTreeMap<u32, String>,
    grid: Vec<Vec<i64>>,
    ratio: f64,
    flags: (bool, Option<bool>),
    nothing: Option<String>,
    empty: Vec<String>,
    empty_map: BTreeMap<String, i32>,
    big: u64,
    small: i64,
    long_keys: Vec<BTreeMap<String, Vec<u8>>>,
}

fn sample() -> Doc {
    let mut setup = BTreeMap::new();
    let mut white = BTreeMap::new();
    white.insert("Pawn".to_string(), vec!["a2".into(), "off".into()]);
    white.insert("off".to_string(), vec!["01".into(), "07".into()]);
    setup.insert("White".to_string(), white);
    setup.insert("Y".to_string(), BTreeMap::new());
    let mut images = BTreeMap::new();
    images.insert("White".into(), "images\\Chess\\WPawn.bmp".into());
    images.insert("N".into(), "images/$1.bmp".into());
    Doc {
        spec_version: 1,
        title: "Tai Shogi 大局将棋 — Рус".into(),
        description: "Line one\nLine two\n\n\tindented\u{a0}nbsp and `quotes`".into(),
        directions: HAZARDS.iter().map(|s| s.to_string()).collect(),
        setup,
        pieces: vec![Piece {
            name: "駒".into(),
            help: Some("moves one step\\diagonally".into()),
            images,
            moves: vec![
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
                    label: Some("On".into()),
                },
            ],
        }],
        labels: [(1, "01".to_string()), (7, "07".to_string())]
            .into_iter()
            .collect(),
        grid: vec![vec![0, -1, 2], vec![], vec![i64::MAX]],
        ratio: 0.1,
        flags: (true, None),
        nothing: None,
        empty: vec![],
        empty_map: BTreeMap::new(),
        big: u64::MAX,
        small: i64::MIN,
        long_keys: vec![
            [("k".repeat(600), vec![1]), ("駒".repeat(300), vec![])]
                .into_iter()
                .collect(),
        ],
    }
}

/// Loads stdin with PyYAML and prints JSON. Floats are printed as their exact bit patterns
/// (see [`canon`]), because JSON text would round them through serde_json's float parser.
const PY_LOAD: &str = r#"
import sys, json, struct, yaml
def canon(x):
    if isinstance(x, float):
        return {"$f64bits": struct.unpack("<q", struct.pack("<d", x))[0]}
    if isinstance(x, list):
        return [canon(v) for v in x]
    if isinstance(x, dict):
        return {k: canon(v) for k, v in x.items()}
    return x
text = sys.stdin.buffer.read().decode("utf-8")
out = {"pure": canon(yaml.load(text, Loader=yaml.SafeLoader))}
if getattr(yaml, "__with_libyaml__", False):
    out["libyaml"] = canon(yaml.load(text, Loader=yaml.CSafeLoader))
sys.stdout.write(json.dumps(out, sort_keys=True, ensure_ascii=True))
"#;

/// `serde_json::to_value(value)` with every float replaced by `{"$f64bits": bits}`, the form
/// [`PY_LOAD`] prints, so floats compare exactly and must be floats on both sides.
fn canon<T: Serialize + ?Sized>(value: &T) -> serde_json::Value {
    fn walk(v: serde_json::Value) -> serde_json::Value {
        use serde_json::Value;
        match v {
            Value::Number(n) if n.is_f64() => {
                let bits = n.as_f64().unwrap().to_bits() as i64;
                serde_json::json!({ "$f64bits": bits })
            }
            Value::Array(items) => Value::Array(items.into_iter().map(walk).collect()),
            Value::Object(map) => {
                Value::Object(map.into_iter().map(|(k, v)| (k, walk(v))).collect())
            }
            other => other,
        }
    }
    walk(serde_json::to_value(value).unwrap())
}

/// What PyYAML's loaders read from `text`, as JSON, keyed by loader (`pure`, `libyaml`).
/// `None` only when PyYAML is unavailable and `ZOGKIT_SKIP_PYYAML=1` is set.
fn pyyaml(text: &str) -> Option<BTreeMap<String, serde_json::Value>> {
    let skip = std::env::var("ZOGKIT_SKIP_PYYAML").is_ok_and(|v| v == "1");
    let unavailable = |why: String| {
        if skip {
            eprintln!("SKIPPED PyYAML comparison (ZOGKIT_SKIP_PYYAML=1): {why}");
            None
        } else {
            panic!(
                "PyYAML is required for this test but {why}. Install it (`pip install pyyaml` or \
                 `apt-get install python3-yaml`), or set ZOGKIT_SKIP_PYYAML=1 to skip the PyYAML \
                 comparisons."
            )
        }
    };
    let child = Command::new("python3")
        .args(["-c", PY_LOAD])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return unavailable(format!("`python3` could not be started ({e})")),
    };
    // Write from another thread so a large output cannot dead-lock against a full pipe.
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = text.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("python3 ran");
    writer.join().unwrap().expect("wrote YAML to python3");
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        if stderr.contains("No module named 'yaml'") {
            return unavailable("the `yaml` module is not installed for python3".to_string());
        }
        panic!("PyYAML failed to read our YAML:\n{stderr}\n--- YAML ---\n{text}");
    }
    Some(serde_json::from_slice(&out.stdout).expect("python3 printed JSON"))
}

/// Asserts that every PyYAML loader reads `text` as `expected`.
fn assert_pyyaml_reads(text: &str, expected: &serde_json::Value) {
    let Some(loaded) = pyyaml(text) else { return };
    assert!(loaded.contains_key("pure"));
    for (loader, value) in &loaded {
        assert!(
            value == expected,
            "PyYAML ({loader}) read something else.\n got: {value}\nwant: {expected}\n--- YAML ---\n{text}"
        );
    }
}

#[test]
fn sample_document_reads_back_identically_in_pyyaml_and_yaml_serde() {
    let doc = sample();
    let text = yaml::to_string(&doc).unwrap();
    let back: Doc = yaml::from_str(&text, FileId(0)).unwrap();
    assert_eq!(back, doc);
    assert_pyyaml_reads(&text, &canon(&doc));
}

#[test]
fn hazard_scalars_stay_strings_in_pyyaml() {
    // As values, as map keys and inside nested sequences.
    let keyed: BTreeMap<String, Vec<String>> = HAZARDS
        .iter()
        .map(|h| (h.to_string(), vec![h.to_string()]))
        .collect();
    let text = yaml::to_string(&(HAZARDS, &keyed)).unwrap();
    let expected = canon(&(HAZARDS, &keyed));
    assert_pyyaml_reads(&text, &expected);
    let Some(loaded) = pyyaml(&text) else { return };
    // Spot-check the YAML 1.1 traps explicitly, so a failure names them.
    let list = loaded["pure"][0].as_array().unwrap();
    for (got, want) in list.iter().zip(HAZARDS) {
        assert_eq!(got.as_str(), Some(*want));
    }
}

/// Strings made of hazard fragments and arbitrary characters (controls and non-BMP included).
fn tricky_string() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        prop::sample::select(HAZARDS).prop_map(str::to_string),
        any::<char>().prop_map(String::from),
        prop::sample::select(vec![
            ' ', '\n', '\r', '\t', '"', '\\', ':', '#', '\u{85}', '\u{a0}', '\u{2028}', '\u{feff}',
            '\u{fffd}', '\u{e000}', '\u{fdd0}', '\u{1}', '\u{7f}', '\u{9b}', '駒', 'Ж',
        ])
        .prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..12).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_strings_round_trip_through_yaml_serde(
        values in prop::collection::vec(tricky_string(), 0..8),
        keys in prop::collection::btree_map(tricky_string(), tricky_string(), 0..8),
    ) {
        let text = yaml::to_string(&(&values, &keys)).unwrap();
        prop_assert!(text.ends_with('\n') && !text.ends_with("\n\n"));
        let back: (Vec<String>, BTreeMap<String, String>) =
            yaml::from_str(&text, FileId(0)).map_err(|d| TestCaseError::fail(d.message))?;
        prop_assert_eq!(&back.0, &values);
        prop_assert_eq!(&back.1, &keys);
        // Characters that some readers take as line breaks never appear raw.
        let raw_break = text.contains(['\u{85}', '\u{2028}', '\u{2029}']);
        prop_assert!(!raw_break, "raw line-break character in {:?}", text);
    }
}

#[test]
fn random_strings_round_trip_through_pyyaml_in_one_batch() {
    let mut runner = TestRunner::deterministic();
    let strategy = tricky_string();
    let mut strings: Vec<String> = (0..3000)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect();
    // Keys past the implicit-key limit take the explicit `? key` form.
    strings.push("駒".repeat(400));
    strings.push("k\n".repeat(700));
    let keyed: BTreeMap<&str, usize> = strings
        .iter()
        .enumerate()
        .map(|(i, s)| (s.as_str(), i))
        .collect();
    let value = (&strings, &keyed);
    let text = yaml::to_string(&value).unwrap();
    let back: (Vec<String>, BTreeMap<String, usize>) = yaml::from_str(&text, FileId(0)).unwrap();
    assert_eq!(back.0, strings);
    let Some(loaded) = pyyaml(&text) else { return };
    for (loader, got) in &loaded {
        let got_list = got[0].as_array().unwrap();
        assert_eq!(got_list.len(), strings.len(), "{loader}");
        for (g, want) in got_list.iter().zip(&strings) {
            assert_eq!(g.as_str(), Some(want.as_str()), "{loader} misread {want:?}");
        }
        assert_eq!(got[1], canon(&keyed), "{loader} keys");
    }
}

/// Strings made of the characters plain scalars may hold, YAML 1.1 words and a few characters
/// they may not hold, so that many of them are written unquoted.
fn plain_like_string() -> impl Strategy<Value = String> {
    let letters = prop::sample::select(vec![
        "a", "Z", "_", "e", "E", "x", "o", "on", "ff", "n", "N", "y", "駒", "Ж", "é", "ß", "ǅ",
        "Off", "null", "true", "yes", "inf", "nan",
    ]);
    let allowed = prop::sample::select(vec![
        " ", "  ", "-", ".", "/", "\\", "(", ")", "'", "&", "*", "!", "|", ">", "%", "~", "=", "<",
        "$", ";", "^", "—", "0", "9", "5e3", "1_0", ".5", "🂡",
    ]);
    let others = prop::sample::select(vec![
        "#", ":", "?", ",", "[", "]", "{", "}", "\"", "@", "`", "\t", "12:30", "- ", ": ", " #",
        "0x", "0o",
    ]);
    let piece = prop_oneof![8 => letters, 4 => allowed, 1 => others];
    prop::collection::vec(piece, 1..6).prop_map(|p| p.concat())
}

/// The rule for unquoted strings holds for every YAML 1.1 reader: strings written plain read
/// back as themselves in PyYAML (both loaders) and js-yaml, as block items, in one-line flow
/// sequences, as block map keys and as flow map keys and values; our two reader paths agree.
#[test]
fn plain_strings_read_the_same_everywhere_in_block_and_flow() {
    let mut runner = TestRunner::deterministic();
    let strategy = plain_like_string();
    let strings: Vec<String> = (0..4000)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect();
    let plain = strings
        .iter()
        .filter(|s| !yaml::to_string(s).unwrap().starts_with('"'))
        .count();
    assert!(plain > 1000, "{plain} of {} written plain", strings.len());
    let pairs: Vec<&[String]> = strings.chunks(2).collect();
    let keyed: BTreeMap<&str, usize> = strings
        .iter()
        .enumerate()
        .map(|(i, s)| (s.as_str(), i))
        .collect();
    let small_maps: Vec<BTreeMap<&str, &str>> = strings
        .chunks(4)
        .map(|c| {
            BTreeMap::from([
                (c[0].as_str(), c[1].as_str()),
                (c[2].as_str(), c[3].as_str()),
            ])
        })
        .collect();
    let value = (&strings, &pairs, &keyed, &small_maps);
    let text = yaml::to_string(&value).unwrap();
    // Flow sequences and flow maps holding plain strings were written.
    assert!(
        text.lines()
            .any(|l| l.starts_with("  - [") && !l.contains('"')),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("  - {") && !l.contains('"')),
        "{text}"
    );
    type Value = (
        Vec<String>,
        Vec<Vec<String>>,
        BTreeMap<String, usize>,
        Vec<BTreeMap<String, String>>,
    );
    let back: Value = yaml::from_str(&text, FileId(0)).unwrap();
    assert_eq!(
        serde_json::to_value(&back).unwrap(),
        serde_json::to_value(value).unwrap()
    );
    let limits = yaml::ReadLimits::default();
    let general: Value = yaml::from_str_general(&text, FileId(0), &limits).unwrap();
    assert_eq!(yaml::from_str_fast::<Value>(&text, &limits), Some(general));
    let expected = canon(&value);
    if let Some(got) = js_yaml(&text) {
        assert_eq!(got, expected, "js-yaml");
    }
    assert_pyyaml_reads(&text, &expected);
}

/// Arbitrary JSON-shaped values: every scalar kind, nested sequences and maps, empty ones too.
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        tricky_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(tricky_string(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_values_round_trip_through_yaml_serde(value in json_value()) {
        let text = yaml::to_string(&value).unwrap();
        let back: serde_json::Value =
            yaml::from_str(&text, FileId(0)).map_err(|d| TestCaseError::fail(d.message))?;
        prop_assert_eq!(&back, &value);
        // Both paths of the reader: the fast one takes everything the emitter writes, and
        // yaml_serde alone reads the same value.
        let limits = yaml::ReadLimits::default();
        prop_assert_eq!(yaml::from_str_fast::<serde_json::Value>(&text, &limits), Some(value.clone()));
        let general: serde_json::Value = yaml::from_str_general(&text, FileId(0), &limits)
            .map_err(|d| TestCaseError::fail(d.message))?;
        prop_assert_eq!(general, value);
    }

    /// Whatever text the fast path accepts, yaml_serde reads as the same value: emitted
    /// documents (with repeated collections, so anchors and aliases) edited at random with
    /// the characters YAML cares about.
    #[test]
    fn the_fast_path_reads_edited_text_as_yaml_serde_does(
        value in json_value(),
        edits in prop::collection::vec(
            (any::<prop::sample::Index>(), 0..3u8, prop::sample::select(EDIT_CHARS)),
            1..4,
        ),
    ) {
        let repeated = serde_json::json!({"a": big(&value), "b": big(&value), "c": {"x": big(&value), "y": big(&value)}});
        let text = yaml::to_string(&repeated).unwrap();
        prop_assert!(text.contains("*a"), "no alias in {}", text);
        let edited = edit(&text, &edits);
        let limits = yaml::ReadLimits::default();
        if let Some(fast) = yaml::from_str_fast::<serde_json::Value>(&edited, &limits) {
            let general = yaml::from_str_general::<serde_json::Value>(&edited, FileId(0), &limits);
            prop_assert_eq!(general.ok(), Some(fast), "{:?}", edited);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The same for a whole spec document (structs, enums, options, aliases) edited at random.
    #[test]
    fn the_fast_path_reads_an_edited_spec_as_yaml_serde_does(
        edits in prop::collection::vec(
            (any::<prop::sample::Index>(), 0..3u8, prop::sample::select(EDIT_CHARS)),
            1..4,
        ),
    ) {
        let text = minishogi_yaml();
        let edited = edit(text, &edits);
        let limits = yaml::ReadLimits::default();
        if let Some(fast) = yaml::from_str_fast::<Document>(&edited, &limits) {
            let general = yaml::from_str_general::<Document>(&edited, FileId(0), &limits);
            prop_assert!(general.ok() == Some(fast), "{:?}", edited);
        }
    }
}

/// The YAML of `corpus/zrf/render_minishogi.zrf`.
fn minishogi_yaml() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/corpus/zrf/render_minishogi.zrf"
        );
        let bytes = std::fs::read(path).unwrap();
        let read = zogkit::format::read(
            zogkit::format::Format::Zrf,
            path,
            &bytes,
            &Default::default(),
            &mut zogkit::zrf::NoIncludes,
        );
        yaml::to_string(&read.document.unwrap()).unwrap()
    })
}

/// Characters that change what YAML text means.
const EDIT_CHARS: &[char] = &[
    ' ', '\n', '-', ':', '"', '\\', '#', '&', '*', 'a', '0', '1', '.', ',', '[', ']', '{', '}',
    '\t', '~', '!', '?', '|', '>', '\'', '%', 'e', '+', 'n', 'u', 'l', '\r', '\u{85}', '\u{a0}',
];

/// `value` in a collection long enough for the emitter to anchor when it repeats.
fn big(value: &serde_json::Value) -> serde_json::Value {
    serde_json::json!({"filler": "x".repeat(600), "value": value, "list": [1, 2.5, -3, null, true]})
}

/// Applies (position, insert/delete/replace, character) edits to `text`, by character, at
/// places other than the filler's `x`s.
fn edit(text: &str, edits: &[(prop::sample::Index, u8, char)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for (at, op, c) in edits {
        let places: Vec<usize> = (0..=chars.len())
            .filter(|&i| chars.get(i) != Some(&'x'))
            .collect();
        let i = places[at.index(places.len())];
        match op {
            0 => chars.insert(i, *c),
            1 if i < chars.len() => {
                chars.remove(i);
            }
            _ if i < chars.len() => chars[i] = *c,
            _ => chars.push(*c),
        }
    }
    chars.into_iter().collect()
}

#[test]
fn random_values_read_the_same_in_pyyaml_in_one_batch() {
    let mut runner = TestRunner::deterministic();
    let strategy = json_value();
    let values: Vec<serde_json::Value> = (0..400)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect();
    let text = yaml::to_string(&values).unwrap();
    let Some(loaded) = pyyaml(&text) else { return };
    for (loader, got) in &loaded {
        let got = got.as_array().unwrap();
        assert_eq!(got.len(), values.len(), "{loader}");
        for (g, want) in got.iter().zip(&values) {
            assert_eq!(g, &canon(want), "{loader} read a value differently");
        }
    }
}

#[test]
fn output_is_byte_identical_across_runs() {
    let first = yaml::to_string(&sample()).unwrap();
    for _ in 0..3 {
        assert_eq!(
            yaml::to_string(&sample()).unwrap().as_bytes(),
            first.as_bytes()
        );
    }
    // The emitter keeps no state between calls; the opening lines pin the format itself.
    assert!(first.starts_with("spec_version: 1\ntitle: Tai Shogi 大局将棋 — Рус\n"));
}

const JS_LOAD: &str = r#"
const yaml = require("js-yaml");
let text = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (d) => (text += d));
process.stdin.on("end", () => process.stdout.write(JSON.stringify(yaml.load(text))));
"#;

/// What js-yaml reads from `text`, as JSON; `None` when node or js-yaml is not available.
fn js_yaml(text: &str) -> Option<serde_json::Value> {
    let probe = Command::new("node")
        .args(["-e", "require.resolve('js-yaml')"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        eprintln!("SKIPPED js-yaml comparison: `node` with the js-yaml module is not available");
        return None;
    }
    let mut child = Command::new("node")
        .args(["-e", JS_LOAD])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node started");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = text.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("node ran");
    writer.join().unwrap().expect("wrote YAML to node");
    assert!(
        out.status.success(),
        "js-yaml failed to read our YAML:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).expect("node printed JSON"))
}

#[test]
fn js_yaml_reads_the_same_data_when_available() {
    // JavaScript numbers are doubles: keep integers within 2^53.
    let mut doc = sample();
    doc.big = 1 << 53;
    doc.small = -(1 << 53);
    doc.grid = vec![vec![0, -1, 2], vec![]];
    let mut runner = TestRunner::deterministic();
    let strategy = tricky_string();
    let strings: Vec<String> = (0..2000)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect();
    let value = (&doc, HAZARDS, &strings);
    let text = yaml::to_string(&value).unwrap();
    let Some(got) = js_yaml(&text) else { return };
    let want = serde_json::to_value(value).unwrap();
    if got != want {
        for (i, (g, w)) in got
            .as_array()
            .unwrap()
            .iter()
            .zip(want.as_array().unwrap())
            .enumerate()
        {
            assert_eq!(g, w, "js-yaml read part {i} differently");
        }
    }
    assert_eq!(got, want);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Values marked as repeats of equal earlier values (`yaml::Shared`, as spec documents
    /// mark a variant's unchanged parts) read back as the same data through both reader paths,
    /// and never make the text longer.
    #[test]
    fn shared_repeats_read_back_as_the_same_data(
        pool in prop::collection::vec(json_value(), 1..4),
        picks in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 1..8),
    ) {
        let entries: Vec<BTreeMap<String, serde_json::Value>> = picks
            .iter()
            .map(|(a, b)| {
                BTreeMap::from([
                    ("a".to_string(), big(a.get(&pool))),
                    ("b".to_string(), serde_json::json!({"inner": big(b.get(&pool))})),
                ])
            })
            .collect();
        let mut shared = yaml::Shared::new();
        for (j, later) in entries.iter().enumerate() {
            for key in ["a", "b"] {
                let _ = entries[..j].iter().any(|e| shared.share(&later[key], &e[key]));
            }
        }
        let text = yaml::to_string_shared(&entries, shared).unwrap();
        prop_assert!(text.len() <= yaml::to_string(&entries).unwrap().len());
        let limits = yaml::ReadLimits::default();
        let fast = yaml::from_str_fast::<Vec<BTreeMap<String, serde_json::Value>>>(&text, &limits);
        prop_assert_eq!(fast.as_ref(), Some(&entries), "{}", text);
        let general: Vec<BTreeMap<String, serde_json::Value>> =
            yaml::from_str_general(&text, FileId(0), &limits)
                .map_err(|d| TestCaseError::fail(d.message))?;
        prop_assert_eq!(general, entries);
    }
}

/// Reads `corpus/<dir>/<name>` freshly in `format`.
fn read_corpus(format: zogkit::format::Format, rel: &str) -> Document {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(root.join("corpus").join(rel)).unwrap();
    let name = rel.rsplit('/').next().unwrap();
    let opts = zogkit::format::ReadOptions::default();
    let r = zogkit::format::read(format, name, &bytes, &opts, &mut zogkit::zrf::NoIncludes);
    r.document
        .unwrap_or_else(|| panic!("{rel}: {:?}", r.diagnostics))
}

/// Documents of spec_version 0.1 (goldens written before raw content was tagged, kept in
/// `tests/data/spec-0.1`) still read: each one, upgraded, equals its input read freshly, and is
/// written back in the current layout only.
#[test]
fn spec_0_1_documents_read_as_their_inputs_read_today() {
    use zogkit::format::{self, Format};
    let cases = [
        (
            "zrf-condition_err_unknown.yaml",
            Format::Zrf,
            "zrf/condition_err_unknown.zrf",
        ),
        ("zrf-macro_001.yaml", Format::Zrf, "zrf/macro_001.zrf"),
        ("ludii-tictactoe.yaml", Format::Lud, "ludii/tictactoe.lud"),
        (
            "ludii-breakthrough_english.yaml",
            Format::LudiiEnglish,
            "ludii/breakthrough_english.txt",
        ),
        (
            "chessembly-catch-take.yaml",
            Format::Chessembly,
            "chessembly/catch-take.csm",
        ),
    ];
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/spec-0.1");
    let mut old_layouts = BTreeMap::new();
    for (old, format, input) in cases {
        let text = std::fs::read_to_string(data.join(old)).unwrap();
        assert!(text.contains("\"spec_version\": \"0.1\""), "{old}");
        // What makes each an old document: an untagged raw item or a per-format extensions map.
        for key in [
            "\"raw\": \"",
            "\"zrf\": [",
            "\"zrf_at\"",
            "\"ludii\":",
            "\"chessembly\":",
        ] {
            if text.contains(key) {
                *old_layouts.entry(key).or_insert(0) += 1;
            }
        }
        let r = format::read(
            Format::Yaml,
            old,
            text.as_bytes(),
            &format::ReadOptions::default(),
            &mut zogkit::zrf::NoIncludes,
        );
        assert_eq!(r.errors(), 0, "{old}: {:?}", r.diagnostics);
        let upgraded = r.document.unwrap();
        let fresh = read_corpus(format, input);
        assert_eq!(upgraded, fresh, "{old} against {input}");
        let written = yaml::write_document(&upgraded).unwrap();
        assert_eq!(written, yaml::write_document(&fresh).unwrap(), "{old}");
        let current = format!("spec_version: \"{}\"\n", zogkit::spec::SPEC_VERSION);
        assert!(written.starts_with(&current), "{old}");
    }
    // Every old layout is exercised by at least one case.
    assert_eq!(old_layouts.len(), 5, "{old_layouts:?}");
}

/// A `.lud` document's verbatim content is tagged `ludii` in the YAML, and a ZRF form keeps its
/// place (`at`) beside its tag.
#[test]
fn raw_content_is_tagged_with_its_format() {
    use zogkit::format::Format;
    use zogkit::spec::RawFormat;
    // A board function zogkit does not build is kept verbatim, tagged `ludii`.
    let lud = read_corpus(Format::Lud, "ludii/board_unsupported.lud");
    let items: Vec<_> = (lud.games.iter())
        .flat_map(|g| {
            g.boards
                .iter()
                .map(|b| &b.extensions)
                .chain([&g.extensions])
        })
        .flat_map(|x| &x.0)
        .collect();
    assert!(!items.is_empty());
    assert!(
        items
            .iter()
            .all(|e| e.format == RawFormat::Ludii && e.at.is_none())
    );
    let text = yaml::write_document(&lud).unwrap();
    assert!(
        text.contains("{format: ludii, text: \"(equipment {(board (dual"),
        "{text}"
    );
    let zrf = read_corpus(Format::Zrf, "zrf/condition_err_unknown.zrf");
    let text = yaml::write_document(&zrf).unwrap();
    assert!(
        text.contains("raw: {format: zrf, text: \"(is-lucky? n)\"}"),
        "{text}"
    );
    assert!(
        text.contains("{format: zrf, text: \"(option \\\"recycle captures\\\")\", at: 3}"),
        "{text}"
    );
}
