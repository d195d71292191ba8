//! Which strings are written unquoted: those every YAML 1.1 and 1.2 reader reads as that string.
//!
//! The emitter writes a string as a plain scalar (`Pawn`, `last-rank`, `images/8x8.bmp`) only
//! when [`is_plain`] holds, and the fast reader takes a plain scalar as a string only then, so
//! both sides share one rule. The rule is deliberately narrower than YAML's own: it must hold in
//! block and in flow context, for YAML 1.1 readers (PyYAML, libyaml, which read `n`, `off`, `Y`
//! and `01` as booleans and numbers) and YAML 1.2 readers (yaml_serde, js-yaml) alike.

/// Words that some YAML 1.1 or 1.2 reader resolves to a boolean or null, compared ignoring case
/// (YAML 1.1 booleans `y|Y|yes|…|off|OFF`, YAML 1.2 `true|false`, `null`).
const RESERVED: [&str; 9] = ["y", "n", "yes", "no", "true", "false", "on", "off", "null"];

/// Whether `s` may be written as a plain scalar and read back as the same string.
///
/// It must start with an ASCII letter, `_` or a non-ASCII letter (so it is never a number,
/// timestamp, `.inf`, `~` or an indicator such as `-`, `?`, `&`, `*`, `!`, `|`, `>`, `'`, `"`,
/// `%`, `@` or a backquote), must not be one of the reserved words, must not end with a space,
/// and may hold only letters, digits, spaces and `-_./\()'+=<>&*!$%;^|~`, so no `:` (mapping
/// indicator), `#` (comment), `,[]{}` (flow indicators), `?` (which PyYAML ends a plain scalar
/// at in flow context), `"`, tab, control or line-break character can occur.
pub(crate) fn is_plain(s: &str) -> bool {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let first_ok = first.is_ascii_alphabetic()
        || first == '_'
        || (!first.is_ascii() && first.is_alphabetic() && other_char(first));
    first_ok
        && !s.ends_with(' ')
        && chars.all(|c| {
            c.is_ascii_alphanumeric()
                || matches!(
                    c,
                    ' ' | '-'
                        | '_'
                        | '.'
                        | '/'
                        | '\\'
                        | '('
                        | ')'
                        | '\''
                        | '+'
                        | '='
                        | '<'
                        | '>'
                        | '&'
                        | '*'
                        | '!'
                        | '$'
                        | '%'
                        | ';'
                        | '^'
                        | '|'
                        | '~'
                )
                || (!c.is_ascii() && other_char(c))
        })
        && !(s.len() <= 5 && RESERVED.iter().any(|w| s.eq_ignore_ascii_case(w)))
}

/// A non-ASCII character that is printable in YAML, never escaped by the emitter and not white
/// space in any reader's sense (NBSP, U+2028, BOM and the like are always quoted).
fn other_char(c: char) -> bool {
    !super::emit::needs_u_escape(c) && !c.is_whitespace() && !c.is_control()
}

#[cfg(test)]
mod tests {
    use super::is_plain;

    #[test]
    fn names_are_plain_and_hazards_are_not() {
        for s in [
            "Pawn",
            "a1",
            "last-rank",
            "never moved",
            "images/8x8.bmp",
            "Audio\\Pickup.wav",
            "駒",
            "Рус",
            "_x",
            "nw",
            "no-op",
            "Yes!",
            "offside",
            "inf",
            "nan",
        ] {
            assert!(is_plain(s), "{s:?}");
        }
        for s in [
            "",
            "n",
            "N",
            "y",
            "Y",
            "no",
            "NO",
            "yes",
            "On",
            "off",
            "OFF",
            "true",
            "False",
            "null",
            "NULL",
            "~",
            "01",
            "1",
            "-1",
            ".inf",
            "-",
            "- x",
            "a: b",
            "a:b",
            "a #b",
            "#x",
            "[x",
            "x]",
            "a,b",
            "{x",
            "x}",
            "x?",
            "?x",
            "\"x",
            "'x",
            "&a",
            "*a",
            "!t",
            "|",
            ">",
            "%Y",
            "@",
            "`",
            "x ",
            " x",
            "a\tb",
            "a\nb",
            "a\u{a0}b",
            "a\u{85}",
            "a\u{2028}",
            "\u{feff}a",
            "2001-12-14",
            "=",
            "<<",
            "０x",
            "—x",
        ] {
            assert!(!is_plain(s), "{s:?}");
        }
    }
}
