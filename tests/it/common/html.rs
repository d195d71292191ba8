//! The elements and attributes of an HTML page as a browser's tokenizer finds them, and the ones the catalogue writes, to find injected markup (shared by path with `xtask`'s catalogue fuzz target).

/// Every element the catalogue writes.
pub const TAGS: &[&str] = &[
    "html", "head", "meta", "title", "link", "body", "nav", "a", "h1", "h2", "table", "thead",
    "tbody", "tr", "th", "td", "p", "img", "div", "span", "ul", "li", "strong", "em", "details",
    "summary", "br",
];

/// Every attribute the catalogue writes.
pub const ATTRS: &[&str] = &[
    "lang",
    "charset",
    "name",
    "content",
    "rel",
    "href",
    "src",
    "width",
    "height",
    "alt",
    "class",
    "id",
    "scope",
    "aria-sort",
    "loading",
];

/// The first element or attribute of `html` the catalogue does not write, described.
pub fn foreign(html: &str) -> Option<String> {
    for (tag, attrs) in html_tags(html) {
        let bare = tag.trim_start_matches('/');
        if !TAGS.contains(&bare) {
            return Some(format!("element <{tag}> injected"));
        }
        if let Some(a) = attrs.iter().find(|a| !ATTRS.contains(&a.as_str())) {
            return Some(format!("attribute {a} on <{tag}> injected"));
        }
    }
    None
}

/// The tags and attributes of an HTML text, as a browser's tokenizer finds them (outside
/// comments and doctypes): `(tag, [attribute names])`, closing tags as `/tag`.
pub fn html_tags(html: &str) -> Vec<(String, Vec<String>)> {
    let b = html.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(off) = html[i..].find('<') {
        i += off + 1;
        match b.get(i) {
            Some(b'!') => {
                i += html[i..].find('>').map_or(html.len() - i, |e| e + 1);
                continue;
            }
            Some(b'/') if b.get(i + 1).is_some_and(u8::is_ascii_alphabetic) => {
                let end = html[i..].find('>').map_or(html.len(), |e| i + e);
                out.push((
                    format!("/{}", html[i + 1..end].trim().to_lowercase()),
                    Vec::new(),
                ));
                i = end;
                continue;
            }
            Some(c) if c.is_ascii_alphabetic() => {}
            _ => continue,
        }
        let name_end = html[i..]
            .find(|c: char| c.is_ascii_whitespace() || c == '>' || c == '/')
            .map_or(html.len(), |e| i + e);
        let tag = html[i..name_end].to_lowercase();
        i = name_end;
        let mut attrs = Vec::new();
        loop {
            while b
                .get(i)
                .is_some_and(|c| c.is_ascii_whitespace() || *c == b'/')
            {
                i += 1;
            }
            match b.get(i) {
                None => break,
                Some(b'>') => {
                    i += 1;
                    break;
                }
                _ => {}
            }
            let end = html[i..]
                .find(|c: char| c.is_ascii_whitespace() || c == '=' || c == '>' || c == '/')
                .map_or(html.len(), |e| i + e);
            attrs.push(html[i..end.max(i + 1)].to_lowercase());
            i = end.max(i + 1);
            if b.get(i) == Some(&b'=') {
                i += 1;
                match b.get(i) {
                    Some(&q) if q == b'"' || q == b'\'' => {
                        i += 1 + html[i + 1..]
                            .find(q as char)
                            .map_or(html.len() - i - 1, |e| e + 1);
                    }
                    _ => {
                        i += html[i..]
                            .find(|c: char| c.is_ascii_whitespace() || c == '>')
                            .unwrap_or(html.len() - i);
                    }
                }
            }
        }
        out.push((tag, attrs));
    }
    out
}

/// The two payloads every string of the hostile spec carries.
pub const PAYLOADS: [&str; 2] = ["\"><img src=x onerror=alert(1)>", "</title><script>"];

/// A valid YAML spec whose every string naming or describing something holds a payload
/// (`@name@` in the template is replaced by `name` plus a payload, as a quoted YAML string).
pub fn hostile_spec() -> String {
    const T: &str = r#""spec_version": "0.2"
"source": {"format": "yaml", "file": @file@, "encoding": "utf-8", "line_endings": "lf", "sha256": "", "version": @version@}
"games":
  - "kind": "game"
    "title": @Title@
    "texts": {"description": @desc@, "history": @hist@, "strategy": @strat@, "help": @help@, "solution": @sol@}
    "players": [@Whites@, @Black@]
    "turn_order": {"turns": [{"player": @Whites@}, {"player": @Black@}]}
    "options": [{"name": @opt@, "value": @val@}]
    "boards":
      - "images": [@board.bmp@]
        "directions": [@n@, @s@]
        "positions":
          - {"name": @a1@, "rect": [0, 50, 50, 100], "links": {@n@: @a2@}}
          - {"name": @a2@, "rect": [0, 0, 50, 50], "links": {@s@: @a1@}}
        "opposites": [{"direction": @n@, "opposite": @s@}, {"direction": @s@, "opposite": @n@}]
        "zones": [{"name": @zone@, "players": [@Whites@], "positions": [@a2@]}]
    "pieces":
      - "name": @Pawn@
        "texts": {"help": @phelp@, "description": @pdesc@}
        "images": [{"player": @Whites@, "file": @wp.bmp@}, {"player": @Black@, "file": @bp.bmp@}]
        "notation": @P@
        "attributes": [{"name": @attr@, "value": "true"}]
        "moves": [{"move_type": @normal@, "program": [{"step": @n@}, {"add": {}}]}]
      - "name": @King@
        "moves": [{"program": [{"step": @s@}, {"add": {}}]}]
    "setup":
      - {"player": @Whites@, "piece": @Pawn@, "positions": [@a1@]}
      - {"player": @Black@, "piece": @King@, "positions": [@a2@]}
    "goals": [{"kind": "win", "players": [@Whites@, @Black@], "condition": {"checkmated": {"pieces": [@King@]}}}]
  - "kind": "variant"
    "variant_of": 0
    "title": @Variant@
    "players": [@Whites@, @Black@]
    "boards":
      - "directions": [@n@]
        "positions": [{"name": @a1@, "rect": [0, 0, 50, 50]}]
    "pieces": [{"name": @Pawn@, "moves": []}]
    "setup": [{"player": @Whites@, "piece": @Pawn@, "positions": [@a1@]}]
"#;
    let mut out = String::new();
    let mut rest = T;
    let mut k = 0;
    while let Some(at) = rest.find('@') {
        out.push_str(&rest[..at]);
        let end = rest[at + 1..].find('@').unwrap() + at + 1;
        let name = &rest[at + 1..end];
        // The same name gets the same payload everywhere (references must still match).
        let payload = PAYLOADS[name.len() % 2];
        out.push_str(&serde_json::to_string(&format!("{name}{payload}")).unwrap());
        k += 1;
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    assert!(k > 40, "the template lost its strings");
    out
}
