//! An element as an agent observes it: the snapshot model's [`Element`]
//! (docs/contracts/snapshot.md §3) and, beside it, the facts of its DOM node
//! that the contract leaves out but a planner needs: its tag and `type`,
//! the words that label it, its value, its link, the ARIA role as written
//! (the contract folds tabs, menu items and options into `button`), and the
//! form it belongs to (docs/contracts/run-api.md §12 ElementInfo, plus
//! `ariaRole` and `form`).
//!
//! Declared once, here, for every producer: the extension's run loop sends
//! them with each snapshot (`page_info`, extension/content/bridge.js), the
//! tool server adds them to `GET /browser/snapshot?facts=true`, and the browse
//! protocol reads them from the HTML (crates/browse `page.rs`). Field names
//! on the wire are the run API's (camelCase, `type`).

use crate::contract::{Element, Role};
use crate::raw::{Flags, RawNode};
use serde::{Deserialize, Serialize};

/// What the DOM says about an element beyond the snapshot contract. Every
/// field may be missing on the wire (its neutral value then).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DomFacts {
    /// Lower-case local name (`input`, `button`, `a`, `div`…); "" when unknown.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub tag: String,
    /// The `type` of an `<input>` or `<button>`, lower-case, with the HTML
    /// default filled in (`text`, `submit`).
    #[serde(rename = "type", skip_serializing_if = "String::is_empty")]
    pub input_type: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub placeholder: String,
    /// A field's current value (never a password's); a `<select>`'s chosen
    /// option text.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub value: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub href: String,
    /// What labels it: `aria-label`, its `<label>`s, placeholder or title.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub aria_label: String,
    /// The first token of its `role` attribute, lower-case ("tab",
    /// "menuitem", "option", "switch"…); "" when it has none.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub aria_role: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub disabled: bool,
    /// Words of its `id` and class names ("send forward", "trash"), for a
    /// control that shows no words of its own (an icon).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub hint: String,
    /// A field one cannot type into (`readonly`): a date picker's text box.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub read_only: bool,
    /// The form it belongs to: 1 + its index among the document's forms;
    /// 0 when it is in none. Which button submits the fields just filled.
    #[serde(skip_serializing_if = "is_zero")]
    pub form: u32,
    /// It offers suggestions as one types (`suggests_by_markup`): a field
    /// whose suggestions may come late, after the typing.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub suggests: bool,
    /// It opens a menu, listbox or dialog (WAI-ARIA 1.2 §6.6
    /// `aria-haspopup`, any value but "false"): an opener even when it
    /// says nothing of being expanded — a row's "⋯" button.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub has_popup: bool,
    /// The words of the row or list item it sits in (its nearest `tr`,
    /// `li`, `role=row` or `role=listitem` ancestor, at most 200
    /// characters): which item of a list a repeated control ("Revoke",
    /// "⋯", an icon named only "More options") acts on. A control repeated
    /// on the page (same tag and name) with no such ancestor gets its
    /// card's words: the largest ancestor holding no other control of
    /// that tag and name (a board's cards, a basket's lines of divs;
    /// extension/content/page-ops.js `cardOf`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub row: String,
}

/// Does an `aria-haspopup` value say the element opens something? Every
/// value but "false" (and an empty one) does (WAI-ARIA 1.2 §6.6).
pub fn has_popup_attr(value: &str) -> bool {
    let v = value.trim().to_ascii_lowercase();
    !v.is_empty() && v != "false"
}

/// Does a field's markup say it offers suggestions as one types? WAI-ARIA
/// 1.2 §5.4 `combobox` and `aria-autocomplete` (`list`, `both`, `inline`);
/// HTML §4.10.5.3.10 the `list` attribute (a `<datalist>`); and the class a
/// suggestion widget puts on the field it drives, which is often all it
/// says (jQuery UI `ui-autocomplete-input`, typeahead.js `tt-input` /
/// `typeahead`, Awesomplete, Algolia `aa-input`…): a class word holding
/// "autocomplete", "typeahead", "combobox" or "suggest". The extension's
/// `page_info` (extension/content/page-ops.js) applies the same rule.
pub fn suggests_by_markup(
    role_attr: &str,
    aria_autocomplete: &str,
    has_list: bool,
    class: &str,
) -> bool {
    let auto = aria_autocomplete.trim().to_ascii_lowercase();
    first_role(role_attr) == "combobox"
        || matches!(auto.as_str(), "list" | "both" | "inline")
        || has_list
        || class.split_whitespace().any(|c| {
            let c = c.to_ascii_lowercase();
            [
                "autocomplete",
                "typeahead",
                "combobox",
                "suggest",
                "tt-input",
                "aa-input",
            ]
            .iter()
            .any(|w| c.contains(w))
        })
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// An element of a snapshot and the DOM facts beside it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Observed {
    pub element: Element,
    pub facts: DomFacts,
}

impl Observed {
    pub fn role(&self) -> Role {
        self.element.role
    }

    /// The snapshot's text (docs/contracts/snapshot.md §6.3), "" when none.
    pub fn text(&self) -> &str {
        self.element.text.as_deref().unwrap_or_default()
    }

    /// Disabled by the DOM (`disabled`, `aria-disabled`) or by the snapshot's state.
    pub fn is_disabled(&self) -> bool {
        self.facts.disabled || self.element.state.is_disabled()
    }

    /// What the field holds: the facts' value, else the snapshot state's.
    pub fn value(&self) -> &str {
        if !self.facts.value.is_empty() {
            return &self.facts.value;
        }
        self.element.state.value.as_deref().unwrap_or_default()
    }

    /// A `<select>` or an ARIA listbox: one chooses among its options.
    pub fn is_select(&self) -> bool {
        self.facts.tag == "select" || self.facts.aria_role == "listbox"
    }

    /// Text can be typed into it: a textarea, an editable input, a textbox
    /// or searchbox, or a combobox that is not a `<select>`.
    pub fn is_text_entry(&self) -> bool {
        match self.facts.tag.as_str() {
            "textarea" => true,
            "input" => !matches!(
                self.facts.input_type.as_str(),
                "submit"
                    | "button"
                    | "checkbox"
                    | "radio"
                    | "hidden"
                    | "reset"
                    | "image"
                    | "file"
                    | "range"
                    | "color"
            ),
            "select" => false,
            // A `div role=combobox` is WAI-ARIA APG's select-only
            // combobox: one opens it and picks, one cannot type into it
            // (an editable combobox is an `<input>`).
            _ => {
                matches!(self.role(), Role::Textbox | Role::Searchbox)
                    || (self.role() == Role::Combobox
                        && !matches!(self.facts.aria_role.as_str(), "listbox" | "combobox"))
            }
        }
    }

    /// It takes a value: text entry or a choice of options.
    pub fn is_field(&self) -> bool {
        self.is_text_entry() || self.is_select()
    }

    /// A checkbox, radio, switch or option: something one ticks or picks.
    pub fn is_checkable(&self) -> bool {
        matches!(self.role(), Role::Checkbox | Role::Radio)
            || matches!(
                self.facts.aria_role.as_str(),
                "option" | "menuitemcheckbox" | "menuitemradio" | "switch"
            )
            || matches!(self.facts.input_type.as_str(), "checkbox" | "radio")
                && self.facts.tag == "input"
    }

    /// The words a person reads on or beside it. A field's own value is not
    /// its name: its label, placeholder or name is.
    pub fn label(&self) -> &str {
        let text = self.text();
        let candidates: [&str; 6] = if self.is_field() {
            let own = if text == self.value() { "" } else { text };
            [
                &self.facts.aria_label,
                &self.facts.placeholder,
                own,
                &self.facts.name,
                "",
                "",
            ]
        } else {
            [
                text,
                &self.facts.aria_label,
                &self.facts.placeholder,
                &self.facts.value,
                &self.facts.name,
                &self.facts.hint,
            ]
        };
        candidates
            .into_iter()
            .map(str::trim)
            .find(|s| !s.is_empty())
            .unwrap_or("")
    }

    /// Every descriptive string, for matching a field by the words of a task.
    pub fn descriptors(&self) -> String {
        let mut s = String::new();
        for part in [
            self.label(),
            self.facts.aria_label.as_str(),
            self.facts.placeholder.as_str(),
            self.facts.name.as_str(),
            self.facts.input_type.as_str(),
            self.facts.hint.as_str(),
        ] {
            if !part.is_empty() && !s.contains(part) {
                if !s.is_empty() {
                    s.push(' ');
                }
                s.push_str(part);
            }
        }
        s
    }

    /// Its box is known (a producer may leave `bbox` out: all zeros then).
    pub fn has_box(&self) -> bool {
        let b = self.element.bbox;
        b.width > 0.0 || b.height > 0.0 || b.x != 0.0 || b.y != 0.0
    }
}

impl DomFacts {
    /// The facts of a raw walk's node (the walker's own columns, as the
    /// browse protocol reads them from HTML). `href`, the document's form
    /// numbering and `suggests` (which needs attributes the walk does not
    /// keep: `aria-autocomplete`, the class; see [`suggests_by_markup`])
    /// are the caller's.
    pub fn of_raw(node: &RawNode) -> DomFacts {
        let label = [&node.aria_label, &node.labelledby_text, &node.labels_text]
            .into_iter()
            .map(|s| s.trim())
            .find(|s| !s.is_empty())
            .or_else(|| Some(node.placeholder.trim()).filter(|s| !s.is_empty()))
            .unwrap_or(node.title.trim());
        DomFacts {
            tag: node.tag.clone(),
            input_type: default_type(&node.tag, &node.input_type),
            name: node.name.clone(),
            placeholder: node.placeholder.clone(),
            value: if node.input_type == "password" {
                String::new()
            } else {
                node.value.clone()
            },
            href: String::new(),
            aria_label: label.to_string(),
            aria_role: first_role(&node.role_attr),
            disabled: node.has(Flags::DISABLED),
            hint: String::new(),
            read_only: false,
            form: 0,
            suggests: false,
            has_popup: false,
            row: String::new(),
        }
    }
}

/// `type` as the DOM reports it: inputs default to `text`, buttons to `submit`.
pub fn default_type(tag: &str, input_type: &str) -> String {
    match (tag, input_type) {
        ("input", "") => "text".into(),
        ("button", "") => "submit".into(),
        ("input" | "button", t) => t.to_ascii_lowercase(),
        _ => String::new(),
    }
}

/// The first token of a `role` attribute, lower-case.
pub fn first_role(role_attr: &str) -> String {
    role_attr
        .split_ascii_whitespace()
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase()
}

/// The contract role of an element known only by its markup (the run API's
/// PageSnapshot sends a tag, a `type` and maybe a role): the engine's own
/// rules (crate::roles), applied to a node that has just those.
pub fn role_of_markup(tag: &str, input_type: &str, role_attr: &str, has_href: bool) -> Role {
    let mut node = RawNode {
        tag: tag.to_ascii_lowercase(),
        input_type: input_type.to_ascii_lowercase(),
        role_attr: role_attr.to_string(),
        ..RawNode::default()
    };
    if has_href {
        node.flags = Flags(Flags::HAS_HREF);
    }
    crate::roles::role_of_node(&node).unwrap_or(Role::Generic)
}

#[cfg(test)]
mod tests;
