//! `cargo xtask fonts`: regenerate the committed font subsets in `assets/fonts/` from Debian's
//!   `fonts-noto-cjk`, `fonts-hanazono` and `fonts-noto-core` with `pyftsubset` (fonttools).
//!   Installs nothing itself. `--only chess` regenerates the chess-glyph subset alone.

use std::collections::BTreeSet;
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Debian `fonts-noto-cjk` 1:20220127+repack1-1; face 0 of the collection is "Noto Sans CJK JP Bold".
const NOTO_TTC: &str = "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc";
/// Debian `fonts-hanazono` 20170904-2.1 (plane-2 companion of HanaMinA).
const HANAMIN_B: &str = "/usr/share/fonts/truetype/hanazono/HanaMinB.ttf";
/// Debian `fonts-noto-core` 20201225-1: Noto Sans Symbols 2 holds the chess symbols U+2654–U+265F.
const NOTO_SYMBOLS2: &str = "/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf";
/// Default location of the Tai Shogi data set, relative to the repository root.
const TAI_JSON: &str = "../shared/data/tai_shogi.json";

/// Output file names inside `assets/fonts/`.
const OUT_MAIN: &str = "ZogkitKanji-Bold.otf";
const OUT_RARE: &str = "ZogkitRare-Regular.ttf";
const OUT_CHESS: &str = "ZogkitChess-Regular.ttf";
const OUT_CHARS: &str = "subset-chars.txt";
const OUT_RECORD: &str = "GENERATION.txt";
const OUT_CHESS_RECORD: &str = "GENERATION-chess.txt";

/// The chess symbols: white (outline) and black (solid) king, queen, rook, bishop, knight, pawn.
const CHESS_UNICODES: &str = "U+2654-265F";

/// Rare characters named in rendering.md §4.3 that must render even though Shift_JIS lacks them.
const RARE: &[char] = &['\u{20D47}', '\u{29E44}'];

/// The characters of xiangqi's and janggi's men (`render::token::XiangqiMan`), both sides:
/// 將, 炮, 俥 and 傌 are not in JIS X 0208 level 1.
const XIANGQI: &str = "帥將仕士相象傌馬俥車炮砲包兵卒漢楚";

/// pyftsubset options from rendering.md §4.2 (minus `--font-number`, added per font).
const SUBSET_OPTS: &[&str] = &[
    "--layout-features=",
    "--no-hinting",
    "--desubroutinize",
    "--name-IDs=0,1,2,3,4,5,6,13,14",
    "--notdef-outline",
    "--drop-tables+=VORG,vhea,vmtx,DSIG",
];

/// Prints every JIS X 0208 character of the non-kanji rows (0x8140–0x84BE) and of level 1
/// (0x889F–0x9872), decoded with Python's `shift_jis` codec, one string on stdout.
const PY_JIS: &str = r#"
import sys
out = []
def run(lo, hi):
    for lead in range(lo >> 8, (hi >> 8) + 1):
        for trail in range(0x40, 0xFD):
            code = (lead << 8) | trail
            if code < lo or code > hi:
                continue
            try:
                out.append(bytes([lead, trail]).decode("shift_jis"))
            except UnicodeDecodeError:
                pass
run(0x8140, 0x84BE)
run(0x889F, 0x9872)
sys.stdout.write("".join(out))
"#;

/// argv: font file, font number, characters file. Prints the characters the font lacks.
const PY_MISSING: &str = r#"
import sys
from fontTools.ttLib import TTFont
f = TTFont(sys.argv[1], fontNumber=int(sys.argv[2]), lazy=True)
cmap = f.getBestCmap()
text = open(sys.argv[3], encoding="utf-8").read()
sys.stdout.write("".join(c for c in dict.fromkeys(text) if c not in "\n" and ord(c) not in cmap))
"#;

/// argv: font file, new family, new style. Renames the family in place, keeping `head.modified`.
const PY_RENAME: &str = r#"
import sys
from fontTools.ttLib import TTFont
path, family, style = sys.argv[1], sys.argv[2], sys.argv[3]
f = TTFont(path, recalcTimestamp=False)
name = f["name"]
full = family + ("" if style == "Regular" else " " + style)
ps = (family + "-" + style).replace(" ", "")
for rec in list(name.names):
    if rec.nameID in (1, 16):
        rec.string = family
    elif rec.nameID in (2, 17):
        rec.string = style
    elif rec.nameID == 3:
        rec.string = "zogkit subset: " + ps
    elif rec.nameID == 4:
        rec.string = full
    elif rec.nameID == 6:
        rec.string = ps
if "CFF " in f:
    cff = f["CFF "].cff
    cff.fontNames = [ps]
    top = cff.topDictIndex[0]
    top.FamilyName = family
    top.FullName = full
f.save(path)
"#;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

fn run(cmd: &mut Command, log: &mut Vec<String>) -> Result<String, String> {
    let line = std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|a| {
            let a = a.to_string_lossy();
            if a.contains(char::is_whitespace) || a.contains('\n') || a.is_empty() {
                if a.len() > 60 {
                    "'<script>'".to_string()
                } else {
                    format!("'{a}'")
                }
            } else {
                a.into_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    eprintln!("+ {line}");
    log.push(line);
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
    if !out.status.success() {
        return Err(format!(
            "{:?} failed: {}",
            cmd.get_program(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    String::from_utf8(out.stdout).map_err(|e| format!("non-UTF-8 output: {e}"))
}

fn sha256(path: &str, log: &mut Vec<String>) -> Result<String, String> {
    let out = run(Command::new("sha256sum").arg(path), log)?;
    Ok(out.split_whitespace().next().unwrap_or("").to_string())
}

pub fn fonts(args: &[String]) -> Result<(), String> {
    let mut tai = PathBuf::from(TAI_JSON);
    let mut only_chess = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--tai" => tai = PathBuf::from(it.next().ok_or("--tai needs a path")?),
            "--only" => match it.next().map(String::as_str) {
                Some("chess") => only_chess = true,
                other => return Err(format!("--only takes `chess`, not {other:?}")),
            },
            other => return Err(format!("unknown option {other}")),
        }
    }
    chess_font()?;
    if only_chess {
        return Ok(());
    }
    let root = root();
    let tai = if tai.is_absolute() {
        tai
    } else {
        root.join(tai)
    };
    for (path, pkg) in [(NOTO_TTC, "fonts-noto-cjk"), (HANAMIN_B, "fonts-hanazono")] {
        if !Path::new(path).exists() {
            return Err(format!(
                "{path} not found; install it with `apt-get install {pkg}` (Debian)"
            ));
        }
    }
    let mut log = Vec::new();
    let fonttools = run(
        Command::new("python3").args(["-c", "import fontTools; print(fontTools.version)"]),
        &mut log,
    )
    .map_err(|e| format!("{e}\nfonttools is needed: `pip install fonttools`"))?;
    log.clear();

    // 1. The character list: ASCII, JIS X 0208 non-kanji rows and level 1, Tai Shogi kanji.
    let mut chars: BTreeSet<char> = (' '..='~').collect();
    let jis = run(Command::new("python3").args(["-c", PY_JIS]), &mut log)?;
    let jis_count = jis.chars().count();
    chars.extend(jis.chars());
    let dir = root.join("assets/fonts");
    // The Tai Shogi data set when it is there; else the CJK characters of the committed list,
    // which holds them (with the JIS kanji, which are listed anyway).
    let (tai_text, tai_source) = match fs::read_to_string(&tai) {
        Ok(t) => (t, TAI_JSON.to_string()),
        Err(e) => {
            let committed = dir.join(OUT_CHARS);
            let t = fs::read_to_string(&committed).map_err(|e2| {
                format!(
                    "cannot read {} ({e}) nor {} ({e2})",
                    tai.display(),
                    committed.display()
                )
            })?;
            eprintln!(
                "{} not found: taking its characters from the committed {OUT_CHARS}",
                tai.display()
            );
            (
                t,
                format!("the committed {OUT_CHARS} ({TAI_JSON} not found)"),
            )
        }
    };
    let tai_chars: BTreeSet<char> = tai_text
        .chars()
        .filter(|&c| c >= '\u{2E80}' && !chars.contains(&c))
        .collect();
    chars.extend(tai_chars.iter().copied());
    chars.extend(RARE.iter().copied());
    let xiangqi_new = XIANGQI.chars().filter(|c| !chars.contains(c)).count();
    chars.extend(XIANGQI.chars());

    fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let chars_path = dir.join(OUT_CHARS);
    let mut text = String::new();
    for (i, c) in chars.iter().enumerate() {
        text.push(*c);
        if i % 64 == 63 {
            text.push('\n');
        }
    }
    text.push('\n');
    fs::write(&chars_path, &text).map_err(|e| e.to_string())?;
    let chars_arg = chars_path.to_string_lossy().into_owned();

    // 2. Which characters does Noto lack? Those go to the fallback subset.
    let missing = run(
        Command::new("python3").args(["-c", PY_MISSING, NOTO_TTC, "0", &chars_arg]),
        &mut log,
    )?;
    // Only the rare (non-Shift_JIS) characters go to the Mincho fallback; a JIS symbol that Noto
    // lacks (U+2252 ≒ in this version) is recorded as uncovered rather than mixed in from a second font.
    let uncovered: String = missing.chars().filter(|c| !RARE.contains(c)).collect();
    let missing: String = missing.chars().filter(|c| RARE.contains(c)).collect();

    // 3. Subset Noto Sans CJK JP Bold (face 0).
    let main_out = dir.join(OUT_MAIN);
    run(
        Command::new("pyftsubset")
            .arg(NOTO_TTC)
            .arg("--font-number=0")
            .args(SUBSET_OPTS)
            .arg(format!("--text-file={chars_arg}"))
            .arg(format!("--output-file={}", main_out.display())),
        &mut log,
    )?;
    run(
        Command::new("python3").args([
            "-c",
            PY_RENAME,
            &main_out.to_string_lossy(),
            "ZogkitKanji",
            "Bold",
        ]),
        &mut log,
    )?;

    // 4. Fallback subset from HanaMinB for what Noto lacks.
    let rare_out = dir.join(OUT_RARE);
    if missing.is_empty() {
        let _ = fs::remove_file(&rare_out);
    } else {
        run(
            Command::new("pyftsubset")
                .arg(HANAMIN_B)
                .args(SUBSET_OPTS)
                .arg(format!("--text={missing}"))
                .arg(format!("--output-file={}", rare_out.display())),
            &mut log,
        )?;
        run(
            Command::new("python3").args([
                "-c",
                PY_RENAME,
                &rare_out.to_string_lossy(),
                "ZogkitRare",
                "Regular",
            ]),
            &mut log,
        )?;
        let still = run(
            Command::new("python3").args([
                "-c",
                PY_MISSING,
                &rare_out.to_string_lossy(),
                "0",
                &chars_arg,
            ]),
            &mut log,
        )?;
        let not_covered: Vec<char> = missing.chars().filter(|c| still.contains(*c)).collect();
        if !not_covered.is_empty() {
            return Err(format!("no font covers {not_covered:?}"));
        }
    }

    // 5. Record what was done.
    let size = |p: &Path| fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    let mut rec = String::new();
    rec.push_str("Generated by `cargo xtask fonts` (xtask/src/main.rs). Do not edit by hand.\n\n");
    rec.push_str(&format!("fonttools {}\n", fonttools.trim()));
    rec.push_str(&format!(
        "source {NOTO_TTC} (face 0) sha256 {}\n",
        sha256(NOTO_TTC, &mut Vec::new())?
    ));
    rec.push_str(&format!(
        "source {HANAMIN_B} sha256 {}\n",
        sha256(HANAMIN_B, &mut Vec::new())?
    ));
    rec.push_str(&format!(
        "characters: {} ({} from JIS X 0208 rows 1-8 and level 1, {} more CJK from {}, {} more for xiangqi and janggi: {XIANGQI})\n",
        chars.len(),
        jis_count,
        tai_chars.len(),
        tai_source,
        xiangqi_new,
    ));
    rec.push_str(&format!(
        "missing from Noto, taken from HanaMinB: {}\n",
        missing
            .chars()
            .map(|c| format!("{c} U+{:04X}", c as u32))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    rec.push_str(&format!(
        "in the list but in neither font (a renderer warning if used): {}\n",
        uncovered
            .chars()
            .map(|c| format!("{c} U+{:04X}", c as u32))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    rec.push_str(&format!(
        "{OUT_MAIN}: {} bytes\n{OUT_RARE}: {} bytes\n\ncommands:\n",
        size(&main_out),
        size(&rare_out)
    ));
    for l in &log {
        let l = l.replace(&format!("{}/", root.display()), "");
        rec.push_str(&format!("  {l}\n"));
    }
    fs::write(dir.join(OUT_RECORD), rec).map_err(|e| e.to_string())?;
    eprintln!(
        "wrote {} ({} bytes) and {} ({} bytes)",
        main_out.display(),
        size(&main_out),
        rare_out.display(),
        size(&rare_out)
    );
    Ok(())
}

/// Subsets Noto Sans Symbols 2 to the twelve chess symbols as `ZogkitChess-Regular.ttf` and
/// records how in `GENERATION-chess.txt`.
fn chess_font() -> Result<(), String> {
    if !Path::new(NOTO_SYMBOLS2).exists() {
        return Err(format!(
            "{NOTO_SYMBOLS2} not found; install it with `apt-get install fonts-noto-core` (Debian)"
        ));
    }
    let mut log = Vec::new();
    let fonttools = run(
        Command::new("python3").args(["-c", "import fontTools; print(fontTools.version)"]),
        &mut log,
    )
    .map_err(|e| format!("{e}\nfonttools is needed: `pip install fonttools`"))?;
    log.clear();
    let root = root();
    let dir = root.join("assets/fonts");
    fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let out = dir.join(OUT_CHESS);
    let out_arg = out.to_string_lossy().into_owned();
    run(
        Command::new("pyftsubset")
            .arg(NOTO_SYMBOLS2)
            .args(SUBSET_OPTS)
            .arg(format!("--unicodes={CHESS_UNICODES}"))
            .arg(format!("--output-file={out_arg}")),
        &mut log,
    )?;
    run(
        Command::new("python3").args(["-c", PY_RENAME, &out_arg, "ZogkitChess", "Regular"]),
        &mut log,
    )?;
    let chars: String = ('\u{2654}'..='\u{265F}').collect();
    let chars_file = std::env::temp_dir().join(format!("zogkit-chess-{}.txt", std::process::id()));
    fs::write(&chars_file, &chars).map_err(|e| e.to_string())?;
    let missing = run(
        Command::new("python3").args([
            "-c",
            PY_MISSING,
            &out_arg,
            "0",
            &chars_file.to_string_lossy(),
        ]),
        &mut log,
    );
    let _ = fs::remove_file(&chars_file);
    let missing = missing?;
    if !missing.is_empty() {
        return Err(format!("{OUT_CHESS} lacks {missing:?}"));
    }
    let size = fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
    let mut rec = String::new();
    rec.push_str("Generated by `cargo xtask fonts` (xtask/src/fonts.rs). Do not edit by hand.\n\n");
    rec.push_str(&format!("fonttools {}\n", fonttools.trim()));
    rec.push_str(&format!(
        "source {NOTO_SYMBOLS2} (Debian fonts-noto-core) sha256 {}\n",
        sha256(NOTO_SYMBOLS2, &mut Vec::new())?
    ));
    rec.push_str(&format!("characters: {chars} ({CHESS_UNICODES})\n"));
    rec.push_str(&format!("{OUT_CHESS}: {size} bytes\n\ncommands:\n"));
    for l in &log {
        let l = l.replace(&format!("{}/", root.display()), "");
        let l = l.replace(
            &chars_file.to_string_lossy().into_owned(),
            "<chess characters>",
        );
        rec.push_str(&format!("  {l}\n"));
    }
    fs::write(dir.join(OUT_CHESS_RECORD), rec).map_err(|e| e.to_string())?;
    eprintln!("wrote {} ({size} bytes)", out.display());
    Ok(())
}
