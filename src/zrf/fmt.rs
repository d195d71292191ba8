//! A comment-preserving ZRF formatter on the lossless token layer ([`crate::sexpr::tokenize`]).
//!
//! It changes only whitespace that starts or ends a line: every line is indented by two spaces
//! per list open at its start (a line starting with `)` by one level less), and spaces at the end
//! of a line are dropped. Comments, strings (even ones spanning lines), atoms, blank lines, the
//! spacing inside a line and the line-break characters themselves are kept exactly, so the
//! parse tree — and with it the spec — cannot change, and formatting is idempotent.

use crate::sexpr::{TokenKind, tokenize};

/// Spaces per nesting level.
const INDENT: usize = 2;

/// Formats ZRF text.
pub fn format(text: &str) -> String {
    let tokens = tokenize(text);
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut depth: usize = 0;
    for (k, t) in tokens.iter().enumerate() {
        let s = t.text(text);
        match t.kind {
            TokenKind::Open => {
                depth += 1;
                out.push_str(s);
            }
            TokenKind::Close => {
                depth = depth.saturating_sub(1);
                out.push_str(s);
            }
            TokenKind::Whitespace
                if s.contains(['\n', '\r'])
                    && s.chars().all(|c| matches!(c, ' ' | '\t' | '\n' | '\r')) =>
            {
                // Keep every line break as written; drop the spaces around them.
                let last = s.rfind(['\n', '\r']).map_or(0, |i| i + 1);
                for c in s[..last].chars() {
                    if c == '\n' || c == '\r' {
                        out.push(c);
                    }
                }
                let next = tokens.get(k + 1).map(|n| n.kind);
                let level = match next {
                    None => 0,
                    Some(TokenKind::Close) => depth.saturating_sub(1),
                    Some(_) => depth,
                };
                out.extend(std::iter::repeat_n(' ', level * INDENT));
            }
            _ => out.push_str(s),
        }
    }
    // Spaces after the last line break with nothing after them are dropped above; a final
    // line with trailing spaces and no break is kept as written.
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indents_by_depth_and_keeps_comments_strings_and_breaks() {
        let src = "(game   ; c1\r\n(title \"a\r\n   b\")\r\n      (board\r\n(grid))   \r\n)\r\n";
        let want = "(game   ; c1\r\n  (title \"a\r\n   b\")\r\n  (board\r\n    (grid))\r\n)\r\n";
        assert_eq!(format(src), want);
        assert_eq!(format(want), want);
    }

    #[test]
    fn unbalanced_input_is_total() {
        assert_eq!(format(")\n  )\n(a\n"), ")\n)\n(a\n");
    }
}
