//! The element's `text` (docs/contracts/snapshot.md §6.3 "text"): what a person would call it.
//!
//! docs/contracts/snapshot.md §6.3 gives the sources ("aria-label if present; value or
//! placeholder for inputs; alt for images; innerText for other elements,
//! truncated to 100 chars"); accname 1.2 §4.3 gives the precedence among
//! author labels, which come first because the author meant them as names.

use crate::contract::Role;
use crate::raw::RawNode;

/// docs/contracts/snapshot.md §6.3: "truncated to 100 chars" (characters, not bytes).
pub const MAX_TEXT_CHARS: usize = 100;

/// The element's text, or `None` when every source is empty.
pub fn text_of(node: &RawNode, role: Role) -> Option<String> {
    // accname 1.2 step 2B (aria-labelledby), then 2C (aria-label).
    first_non_empty([node.labelledby_text.as_str(), node.aria_label.as_str()])
        .or_else(|| native_text(node, role))
}

fn native_text(node: &RawNode, role: Role) -> Option<String> {
    let tag = node.tag.as_str();
    let typ = node.input_type.as_str();
    match (tag, role) {
        ("input", Role::Checkbox | Role::Radio) => {
            // HTML-AAM §4.1.1 (input checkbox/radio): the `<label>`. The
            // value is a form-submission token; "on" is the HTML default
            // (HTML §4.10.5.1.15) and names nothing.
            let value = if node.value == "on" {
                ""
            } else {
                node.value.as_str()
            };
            first_non_empty([node.labels_text.as_str(), value, node.title.as_str()])
        }
        ("input", _) if matches!(typ, "submit" | "reset" | "button" | "image") => {
            // HTML-AAM §4.1.1.3 (input button types): value, then for
            // image buttons alt; then the HTML default labels
            // (HTML §4.10.5.1.18/19: "Submit", "Reset"; Chromium says "Submit" for image).
            let alt = if typ == "image" {
                node.alt.as_str()
            } else {
                ""
            };
            first_non_empty([node.value.as_str(), alt, node.title.as_str()]).or(match typ {
                "submit" | "image" => Some("Submit".to_string()),
                "reset" => Some("Reset".to_string()),
                _ => None,
            })
        }
        // Mirrored by extension/content/walker.js (`wantsText`): it does not
        // read the text of these (nor of a <form>/<label>); change both
        // (walker_mirrors.rs checks it).
        ("input" | "textarea" | "select", _) => {
            // docs/contracts/snapshot.md §6.3: "value or placeholder for inputs". Deviation from
            // accname 2D/2E, where the `<label>` comes before the value: the
            // contract names what the field holds first. The walker never
            // sends a password's value; it is ignored here again in case one
            // slips through (a typed password must never reach an LLM).
            let value = if node.is_password() {
                ""
            } else {
                node.value.as_str()
            };
            first_non_empty([
                value,
                node.placeholder.as_str(),
                node.labels_text.as_str(),
                node.title.as_str(),
            ])
        }
        // docs/contracts/snapshot.md §6.3 "alt for images"; HTML-AAM §4.1.1 (img): alt, then title.
        (_, Role::Image) => first_non_empty([node.alt.as_str(), node.title.as_str()]),
        // docs/contracts/snapshot.md §6.3 "innerText for other elements"; an icon-only link or
        // button is named by its image's alt (accname 2F, name from
        // content), then by its tooltip (accname 2I).
        _ => first_non_empty([node.text.as_str(), node.alt.as_str(), node.title.as_str()]),
    }
}

fn first_non_empty<'a>(sources: impl IntoIterator<Item = &'a str>) -> Option<String> {
    sources.into_iter().find_map(normalize)
}

/// Collapses whitespace runs to one space, trims, and keeps at most
/// [`MAX_TEXT_CHARS`] characters (no ellipsis: a prefix still matches
/// queries). `None` when nothing is left: accname 1.2 skips empty labels.
pub fn normalize(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len().min(MAX_TEXT_CHARS * 4));
    let mut chars = 0;
    let mut pending_space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            pending_space = chars > 0;
            continue;
        }
        if pending_space {
            if chars + 1 >= MAX_TEXT_CHARS {
                break;
            }
            out.push(' ');
            chars += 1;
            pending_space = false;
        }
        if chars >= MAX_TEXT_CHARS {
            break;
        }
        out.push(c);
        chars += 1;
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests;
