//! Addition to docs/contracts/snapshot.md §11.2: the element's `state` object, from the facts the
//! walker read (flags, value, options). Each key is present only when it
//! means something for the element, so an agent (and the LLM format) reads
//! `checked` only on things that can be checked:
//!
//! | key | present when | from |
//! |---|---|---|
//! | `disabled: true` | disabled | `:disabled` or `aria-disabled="true"` |
//! | `checked` | role checkbox / radio (incl. switch, menuitemcheckbox/radio) | `checked`, `aria-checked`; `"mixed"` for `aria-checked="mixed"` or an indeterminate checkbox (WAI-ARIA 1.2 §6.6 `aria-checked`) |
//! | `selected` | `aria-selected` is set, or the explicit role is option / tab / treeitem (WAI-ARIA 1.2: `aria-selected` absent = not selected) | `aria-selected` |
//! | `expanded` | `aria-expanded` is `true`/`false`, or a `<summary>` (HTML §4.11.1: its `<details>`'s `open`) | |
//! | `required: true` | required | `required`, `aria-required="true"` |
//! | `value` | text fields, selects, comboboxes whose value is non-empty | the value (a select's: the selected option's text); never a password's (the walker never reads it) |
//! | `options` | a `<select>` or ARIA `listbox` with options | at most [`MAX_OPTIONS`], in order |

use crate::contract::{Checked, ElementState, Mixed, Role, SelectOption};
use crate::raw::{Flags, RawNode, OPT_FIELD, OPT_SEP};

/// `value` is cut to this many characters.
pub const MAX_VALUE_CHARS: usize = 100;
/// At most this many options are listed (the walker sends no more either:
/// the wire's limit).
pub const MAX_OPTIONS: usize = crate::raw::MAX_OPTIONS;

/// The flags `state_of` reads: a change in any of them is a state change
/// (the diff fingerprints them).
pub(crate) const STATE_FLAGS: u32 = Flags::DISABLED
    | Flags::CHECKED
    | Flags::MIXED
    | Flags::HAS_SELECTED
    | Flags::SELECTED
    | Flags::EXPANDED
    | Flags::COLLAPSED
    | Flags::REQUIRED;

/// The state of a candidate `node` whose contract role is `role`.
pub fn state_of(node: &RawNode, role: Role) -> ElementState {
    let flag = |bit| node.has(bit);
    ElementState {
        disabled: flag(Flags::DISABLED).then_some(true),
        checked: matches!(role, Role::Checkbox | Role::Radio).then(|| {
            if flag(Flags::MIXED) {
                Checked::Mixed(Mixed::Mixed)
            } else {
                Checked::Bool(flag(Flags::CHECKED))
            }
        }),
        selected: (flag(Flags::HAS_SELECTED) || selectable_role(&node.role_attr))
            .then(|| flag(Flags::SELECTED)),
        expanded: if flag(Flags::EXPANDED) {
            Some(true)
        } else if flag(Flags::COLLAPSED) {
            Some(false)
        } else {
            None
        },
        required: flag(Flags::REQUIRED).then_some(true),
        value: value_of(node, role),
        options: options_of(&node.options),
    }
}

/// WAI-ARIA 1.2: option, tab and treeitem support `aria-selected`; when the
/// attribute is absent they are not selected (the first role token counts).
fn selectable_role(role_attr: &str) -> bool {
    role_attr.split_ascii_whitespace().next().is_some_and(|t| {
        ["option", "tab", "treeitem"]
            .iter()
            .any(|r| t.eq_ignore_ascii_case(r))
    })
}

fn value_of(node: &RawNode, role: Role) -> Option<String> {
    let holds_value =
        role.holds_value() && matches!(node.tag.as_str(), "input" | "textarea" | "select");
    // The walker never reads a password's value; should one arrive anyway,
    // it still never leaves the engine.
    if !holds_value || node.is_password() || node.value.is_empty() {
        return None;
    }
    Some(truncate(&node.value, MAX_VALUE_CHARS))
}

fn truncate(s: &str, max_chars: usize) -> String {
    match s.char_indices().nth(max_chars) {
        Some((at, _)) => s[..at].to_string(),
        None => s.to_string(),
    }
}

/// Decodes the walker's options column (see [`crate::raw::S_OPTIONS`]);
/// malformed entries (page-influenced) are skipped, never a panic.
pub fn options_of(wire: &str) -> Option<Vec<SelectOption>> {
    if wire.is_empty() {
        return None;
    }
    let mut options = Vec::new();
    for entry in wire.split(OPT_SEP) {
        if options.len() == MAX_OPTIONS {
            break;
        }
        let mut parts = entry.split(OPT_FIELD);
        // The walker cuts option texts and values (raw::MAX_SHORT_CHARS).
        if let (Some(text), Some(value), Some(selected)) =
            (parts.next(), parts.next(), parts.next())
        {
            options.push(SelectOption {
                text: text.to_string(),
                value: value.to_string(),
                selected: selected == "1",
            });
        }
    }
    (!options.is_empty()).then_some(options)
}

#[cfg(test)]
mod tests;
