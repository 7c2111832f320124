//! CSS selectors the client can trust (docs/contracts/browse.md §4
//! "Selectors"): each matches exactly one element of the HTML it was
//! written for, preferring what survives page changes (`#id`, test ids,
//! `name`, labels and other stable attributes) over position paths.
//!
//! The writer picks with an index of attribute counts over the whole
//! document (cheap); [`verify`] then checks the chosen selector with the
//! parser's own selector engine (scraper's, the `selectors` crate Servo
//! uses) before it is sent.

use ego_tree::NodeId;
use scraper::node::Element;
use scraper::{ElementRef, Html, Selector};
use std::collections::HashMap;
use std::fmt::Write;

/// Attributes that exist to name an element for tests, in preference order.
pub const TEST_ID_ATTRS: &[&str] = &[
    "data-testid",
    "data-test-id",
    "data-test",
    "data-qa",
    "data-cy",
    "data-automation-id",
];
/// Stable attributes tried after the test ids (with the tag in front).
const STABLE_ATTRS: &[&str] = &[
    "name",
    "aria-label",
    "placeholder",
    "href",
    "title",
    "alt",
    "for",
];
/// Values longer than this make selectors nobody wants to read.
const MAX_VALUE_CHARS: usize = 200;

/// CSSOM §2.1 `CSS.escape()` for an identifier.
pub fn escape_ident(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    let chars: Vec<char> = s.chars().collect();
    if chars.len() == 1 && chars[0] == '-' {
        return "\\-".into();
    }
    for (i, &c) in chars.iter().enumerate() {
        let code = c as u32;
        if c == '\0' {
            out.push('\u{FFFD}');
        } else if (1..=0x1f).contains(&code)
            || code == 0x7f
            || (i == 0 && c.is_ascii_digit())
            || (i == 1 && c.is_ascii_digit() && chars[0] == '-')
        {
            let _ = write!(out, "\\{code:x} ");
        } else if code >= 0x80 || c == '-' || c == '_' || c.is_ascii_alphanumeric() {
            out.push(c);
        } else {
            out.push('\\');
            out.push(c);
        }
    }
    out
}

/// A CSS string in double quotes (CSS Syntax §4.3.5 reversed): quotes and
/// backslashes escaped, control characters and newlines as hex escapes.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        let code = c as u32;
        match c {
            '\0' => out.push('\u{FFFD}'),
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            _ if code < 0x20 || code == 0x7f => {
                let _ = write!(out, "\\{code:x} ");
            }
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

/// How many elements carry each id and each attribute value, case folded:
/// a quirks-mode page matches ids case-insensitively and HTML matches some
/// attribute values (`type`) so too, so folding only ever makes the writer
/// more careful.
pub struct SelectorIndex {
    ids: HashMap<String, u32>,
    /// (attribute, value) → count.
    attrs: HashMap<(String, String), u32>,
    /// (tag, attribute, value) → count.
    tag_attrs: HashMap<(String, String, String), u32>,
}

fn tracked(name: &str) -> bool {
    TEST_ID_ATTRS.contains(&name)
        || STABLE_ATTRS.contains(&name)
        || matches!(name, "type" | "value")
}

impl SelectorIndex {
    pub fn build(html: &Html) -> SelectorIndex {
        let mut ix = SelectorIndex {
            ids: HashMap::new(),
            attrs: HashMap::new(),
            tag_attrs: HashMap::new(),
        };
        for node in html.tree.nodes() {
            let Some(e) = node.value().as_element() else {
                continue;
            };
            if let Some(id) = e.attr("id") {
                *ix.ids.entry(id.to_lowercase()).or_default() += 1;
            }
            for (name, value) in e.attrs() {
                if tracked(name) {
                    let v = value.to_lowercase();
                    *ix.attrs.entry((name.to_string(), v.clone())).or_default() += 1;
                    *ix.tag_attrs
                        .entry((e.name().to_string(), name.to_string(), v))
                        .or_default() += 1;
                }
            }
        }
        ix
    }

    fn unique_id(&self, id: &str) -> bool {
        self.ids.get(&id.to_lowercase()) == Some(&1)
    }

    fn unique_attr(&self, name: &str, value: &str) -> bool {
        self.attrs.get(&(name.to_string(), value.to_lowercase())) == Some(&1)
    }

    fn unique_tag_attr(&self, tag: &str, name: &str, value: &str) -> bool {
        self.tag_attrs
            .get(&(tag.to_string(), name.to_string(), value.to_lowercase()))
            == Some(&1)
    }
}

fn usable(v: &str) -> bool {
    !v.trim().is_empty() && v.chars().count() <= MAX_VALUE_CHARS
}

/// The preferred selectors for `el`, best first, each unique by the index.
/// The position path (always unique) is not among them: see [`write`].
pub fn stable_candidates(ix: &SelectorIndex, el: &Element) -> Vec<String> {
    let tag = escape_ident(el.name());
    let mut out = Vec::new();
    if let Some(id) = el.attr("id").filter(|v| usable(v)) {
        if ix.unique_id(id) {
            out.push(format!("#{}", escape_ident(id)));
        }
    }
    for &a in TEST_ID_ATTRS {
        if let Some(v) = el.attr(a).filter(|v| usable(v)) {
            if ix.unique_attr(a, v) {
                out.push(format!("[{a}={}]", quote(v)));
            } else if ix.unique_tag_attr(el.name(), a, v) {
                out.push(format!("{tag}[{a}={}]", quote(v)));
            }
        }
    }
    for &a in STABLE_ATTRS {
        if let Some(v) = el.attr(a).filter(|v| usable(v)) {
            if ix.unique_tag_attr(el.name(), a, v) {
                out.push(format!("{tag}[{a}={}]", quote(v)));
            }
        }
    }
    // A submit or button input is named by its value (`<input type=submit
    // value=Go>`). Any other input's `value` (like `checked`, `selected`) is
    // state: the client writes what was typed back as an attribute that the
    // live page does not have, so it never goes into a selector.
    if el.name() == "input" {
        let labelled_by_value = |t: &str| {
            ["submit", "button", "reset", "image"]
                .iter()
                .any(|b| t.eq_ignore_ascii_case(b))
        };
        if let (Some(t), Some(v)) = (
            el.attr("type").filter(|t| labelled_by_value(t)),
            el.attr("value").filter(|v| usable(v)),
        ) {
            if ix.unique_tag_attr("input", "value", v) {
                out.push(format!("input[type={}][value={}]", quote(t), quote(v)));
            }
        }
    }
    // The one element of its kind and type (`button[type="submit"]`, the
    // one password field) rather than a position path.
    if let Some(t) = el.attr("type").filter(|v| usable(v)) {
        if ix.unique_tag_attr(el.name(), "type", t) {
            out.push(format!("{tag}[type={}]", quote(t)));
        }
    }
    out
}

/// `tag:nth-of-type(k)` steps from the nearest ancestor with a unique id
/// (or from the root element) down to `el`: unique by construction.
pub fn position_path(ix: &SelectorIndex, el: ElementRef<'_>) -> String {
    let mut steps: Vec<String> = Vec::new();
    let mut cur = Some(el);
    while let Some(e) = cur {
        if e.id() != el.id() {
            if let Some(id) = e.value().attr("id").filter(|v| usable(v)) {
                if ix.unique_id(id) {
                    steps.push(format!("#{}", escape_ident(id)));
                    break;
                }
            }
        }
        let name = e.value().name();
        let parent = e.parent().and_then(ElementRef::wrap);
        // The HTML parser makes one <body> per document: no position needed.
        if name == "body" && parent.is_some_and(|p| p.value().name() == "html") {
            steps.push("body".into());
            break;
        }
        match parent {
            None => {
                steps.push(escape_ident(name));
                break;
            }
            Some(p) => {
                let k = e
                    .prev_siblings()
                    .filter_map(ElementRef::wrap)
                    .filter(|s| s.value().name() == name)
                    .count()
                    + 1;
                steps.push(format!("{}:nth-of-type({k})", escape_ident(name)));
                cur = Some(p);
            }
        }
    }
    steps.reverse();
    steps.join(" > ")
}

/// Does `selector` match exactly `node` in `html`, by the parser's own engine?
pub fn verify(html: &Html, selector: &str, node: NodeId) -> bool {
    let Ok(sel) = Selector::parse(selector) else {
        return false;
    };
    let mut found = html.select(&sel);
    matches!((found.next(), found.next()), (Some(e), None) if e.id() == node)
}

/// A stable attribute selector scoped by the nearest ancestor with a unique
/// id (`#nav a[href="/"]`), for elements whose attributes repeat elsewhere
/// on the page (the same link in a header and a footer).
fn anchored_candidates(ix: &SelectorIndex, el: ElementRef<'_>) -> Vec<String> {
    let Some(anchor) = el.ancestors().filter_map(ElementRef::wrap).find_map(|a| {
        a.value()
            .attr("id")
            .filter(|v| usable(v) && ix.unique_id(v))
            .map(|id| format!("#{}", escape_ident(id)))
    }) else {
        return Vec::new();
    };
    let e = el.value();
    let tag = escape_ident(e.name());
    TEST_ID_ATTRS
        .iter()
        .chain(STABLE_ATTRS)
        .filter_map(|&a| {
            e.attr(a)
                .filter(|v| usable(v))
                .map(|v| format!("{anchor} {tag}[{a}={}]", quote(v)))
        })
        .collect()
}

/// The best selector for `node` that [`verify`] accepts: the stable
/// candidates in order, then stable attributes scoped by an id'd ancestor,
/// then the position path. `None` only when even the position path fails
/// (an element the selector engine cannot reach).
pub fn write(html: &Html, ix: &SelectorIndex, node: NodeId) -> Option<String> {
    let el = html.tree.get(node).and_then(ElementRef::wrap)?;
    stable_candidates(ix, el.value())
        .into_iter()
        .chain(anchored_candidates(ix, el))
        .chain(std::iter::once(position_path(ix, el)))
        .find(|s| verify(html, s, node))
}

/// The selector the writer prefers, without the engine check (for listing
/// thousands of candidates quickly; [`write`] checks before answering).
pub fn preferred(html: &Html, ix: &SelectorIndex, node: NodeId) -> Option<String> {
    let el = html.tree.get(node).and_then(ElementRef::wrap)?;
    stable_candidates(ix, el.value())
        .into_iter()
        .next()
        .or_else(|| Some(position_path(ix, el)))
}
