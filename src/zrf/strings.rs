//! ZRF display strings: `\` line breaks and source wrapping, to and from real newlines.
//!
//! In ZRF display texts (`description`, `history`, `strategy`, `help`, …) a backslash is a line
//! break and `\\` a blank line [ZRF reference]. Authors also wrap long strings in the source;
//! such a raw line break is read as one space, with the indentation after it dropped, and a
//! `\` directly followed by a raw line break is one line break [inferred: ZoG does not document
//! raw line breaks in strings; authors write `\` where they want one]. File paths (`image`,
//! sounds) are never display texts and keep their backslashes.

/// The text a player sees for a ZRF display string.
pub fn display(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                out.push('\n');
                // A raw break right after `\` is source wrapping.
                skip_break(&mut chars);
            }
            '\r' | '\n' => {
                if c == '\r' && chars.peek() == Some(&'\n') {
                    chars.next();
                }
                while chars.peek().is_some_and(|c| *c == ' ' || *c == '\t') {
                    chars.next();
                }
                if !out.ends_with('\n') {
                    out.push(' ');
                }
            }
            _ => out.push(c),
        }
    }
    out
}

fn skip_break(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    let mut look = chars.clone();
    while look.peek().is_some_and(|c| *c == ' ' || *c == '\t') {
        look.next();
    }
    match look.peek() {
        Some('\r') | Some('\n') => {
            let first = look.next();
            if first == Some('\r') && look.peek() == Some(&'\n') {
                look.next();
            }
            while look.peek().is_some_and(|c| *c == ' ' || *c == '\t') {
                look.next();
            }
            *chars = look;
        }
        _ => {}
    }
}

/// The canonical ZRF string for a display text: each newline becomes `\`. The result contains
/// no raw line break and no `"` (a `"` cannot be written in ZRF; it becomes the backquote
/// authors use instead, and the caller reports it).
pub fn to_zrf(display: &str) -> String {
    display.replace('\n', "\\").replace('"', "`")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backslashes_are_line_breaks_and_wrapping_is_a_space() {
        assert_eq!(display("Knight\\A Knight moves"), "Knight\nA Knight moves");
        assert_eq!(display("one\\\\two"), "one\n\ntwo");
        assert_eq!(display("wrapped\r\n    text"), "wrapped text");
        assert_eq!(display("line\\\r\n   next"), "line\nnext");
        assert_eq!(display("line\\  \n next"), "line\nnext");
        assert_eq!(display("a\\\n\\\nb"), "a\n\nb");
    }

    #[test]
    fn canonical_form_reads_back_to_the_same_display_text() {
        for s in ["a\nb", "x\n\ny", "plain", "tab\tkept", "trail\n"] {
            assert_eq!(display(&to_zrf(s)), s);
        }
    }
}
