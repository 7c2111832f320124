//! Which contract role (docs/contracts/snapshot.md §6.2 "role") an element gets, if any.
//!
//! The contract knows nine roles; WAI-ARIA 1.2 knows about eighty. Each rule
//! below maps the ARIA / HTML-AAM role an accessibility tree would expose
//! onto the nearest contract role, in the order [`role_of`] applies them:
//! (a) the explicit `role` attribute, (b) the HTML-AAM implicit role,
//! (c) search context, (d) generic clickability. Chromium's accessibility
//! tree is the oracle where specs and browsers disagree.

use crate::contract::Role;
use crate::raw::{Flags, RawNode, RawPage};

/// The role of `node`, or `None` when it is not a candidate by role.
pub fn role_of(_page: &RawPage, node: &RawNode) -> Option<Role> {
    let role = match explicit_role(node) {
        Explicit::Mapped(r) => Some(r),
        // WAI-ARIA 1.2 §5.4: a valid role that is not ours still replaces the
        // implicit one; only generic clickability (d) can make it a candidate.
        Explicit::Other => None,
        Explicit::Presentational => None,
        Explicit::None => match implicit_role(node) {
            Implicit::Role(r) => Some(r),
            Implicit::Never => return None,
            Implicit::Nothing => None,
        },
    };
    match toggle_button(role, node) {
        Some(Role::Textbox) if is_search_context(node) => Some(Role::Searchbox),
        Some(r) => Some(r),
        None => generic_clickable(node).then_some(Role::Generic),
    }
}

/// Deviation: WAI-ARIA 1.2 §6.6 `aria-pressed` makes a button a toggle
/// button (Chromium: role "toggle button", pressed state); the contract has
/// no such role, and a toggle button is used as a check box is — pizza
/// builders' topping tiles, filter chips, "Bold" in an editor's toolbar
/// (`<button aria-pressed="true">`). It is a Checkbox here, its pressed
/// state the `checked` one (walker.js sets `CHECKED` / `MIXED` from it), so
/// an agent sees which tiles are on.
fn toggle_button(role: Option<Role>, node: &RawNode) -> Option<Role> {
    match role {
        Some(Role::Button) if node.has(Flags::TOGGLE) => Some(Role::Checkbox),
        other => other,
    }
}

/// The role of a node by its markup alone (explicit `role`, else the
/// implicit role of its tag and `type`): [`role_of`] without the page
/// context (search landmarks, clickability), for producers that send only
/// markup facts (crate::observed::role_of_markup).
pub fn role_of_node(node: &RawNode) -> Option<Role> {
    let role = match explicit_role(node) {
        Explicit::Mapped(r) => Some(r),
        Explicit::Other | Explicit::Presentational => None,
        Explicit::None => match implicit_role(node) {
            Implicit::Role(r) => Some(r),
            Implicit::Never | Implicit::Nothing => None,
        },
    };
    toggle_button(role, node)
}

enum Explicit {
    /// No recognised token (or a presentational role that must be ignored).
    None,
    Mapped(Role),
    /// A valid ARIA role the contract has no counterpart for (`heading`, …).
    Other,
    /// `presentation` / `none` that applies.
    Presentational,
}

/// WAI-ARIA 1.2 §5.4 (role attribute): the first token naming a valid,
/// non-abstract role wins; unknown tokens are fallbacks to skip.
fn explicit_role(node: &RawNode) -> Explicit {
    for token in node.role_attr.split_ascii_whitespace() {
        let mut buf = [0u8; MAX_ROLE_LEN];
        let Some(t) = lower_ascii(token, &mut buf) else {
            continue;
        };
        let mapped = match t {
            "button" => Role::Button,
            "link" => Role::Link,
            "textbox" => Role::Textbox,
            "searchbox" => Role::Searchbox,
            "checkbox" => Role::Checkbox,
            "radio" => Role::Radio,
            "combobox" => Role::Combobox,
            // WAI-ARIA 1.2 §5.4: `image` is a synonym of `img` (ARIA 1.3 draft, accepted by Chromium).
            "img" | "image" => Role::Image,
            // A switch is a checkbox with on/off wording (WAI-ARIA 1.2 `switch` superclass: checkbox).
            "switch" | "menuitemcheckbox" => Role::Checkbox,
            "menuitemradio" => Role::Radio,
            // Deviation: the contract has no menuitem/tab/option/treeitem; all
            // are activated like buttons, so agents can click them.
            "menuitem" | "tab" | "option" | "treeitem" => Role::Button,
            // Deviation: a listbox is a choose-one-of-many control, like a
            // combobox whose popup is always open.
            "listbox" => Role::Combobox,
            // Deviation: a spinbutton takes typed numbers, like a textbox.
            "spinbutton" => Role::Textbox,
            "presentation" | "none" => {
                // WAI-ARIA 1.2 §9.3 (Presentational Roles Conflict Resolution):
                // ignored on focusable elements and those with global ARIA
                // properties (aria-label / aria-labelledby).
                if is_focusable(node)
                    || !node.aria_label.trim().is_empty()
                    || !node.labelledby_text.trim().is_empty()
                {
                    return Explicit::None;
                }
                return Explicit::Presentational;
            }
            other if ARIA_ROLES.contains(&other) => return Explicit::Other,
            _ => continue,
        };
        return Explicit::Mapped(mapped);
    }
    Explicit::None
}

/// Longer than any ARIA role name ("menuitemcheckbox" is 16).
const MAX_ROLE_LEN: usize = 24;

/// ASCII-lower-cases a short token into `buf` (no allocation per node);
/// `None` when it is too long or not ASCII, so cannot be a role name.
fn lower_ascii<'a>(token: &str, buf: &'a mut [u8; MAX_ROLE_LEN]) -> Option<&'a str> {
    let dst = buf.get_mut(..token.len())?;
    if !token.is_ascii() {
        return None;
    }
    dst.copy_from_slice(token.as_bytes());
    dst.make_ascii_lowercase();
    std::str::from_utf8(dst).ok()
}

/// WAI-ARIA 1.2 §5.3 / §5.4: the concrete roles (those mapped above are
/// handled before this list is consulted).
const ARIA_ROLES: &[&str] = &[
    "alert",
    "alertdialog",
    "application",
    "article",
    "banner",
    "blockquote",
    "caption",
    "cell",
    "code",
    "columnheader",
    "complementary",
    "contentinfo",
    "definition",
    "deletion",
    "dialog",
    "directory",
    "document",
    "emphasis",
    "feed",
    "figure",
    "form",
    "generic",
    "grid",
    "gridcell",
    "group",
    "heading",
    "insertion",
    "list",
    "listitem",
    "log",
    "main",
    "marquee",
    "math",
    "meter",
    "menu",
    "menubar",
    "navigation",
    "note",
    "paragraph",
    "progressbar",
    "radiogroup",
    "region",
    "row",
    "rowgroup",
    "rowheader",
    "scrollbar",
    "search",
    "separator",
    "slider",
    "status",
    "strong",
    "subscript",
    "superscript",
    "table",
    "tablist",
    "tabpanel",
    "term",
    "time",
    "timer",
    "toolbar",
    "tooltip",
    "tree",
    "treegrid",
];

enum Implicit {
    Role(Role),
    /// No role and never a candidate (e.g. `<input type=hidden>`).
    Never,
    /// No role; generic clickability may still apply.
    Nothing,
}

/// HTML-AAM §4 (element mappings), with the Chromium differences marked.
fn implicit_role(node: &RawNode) -> Implicit {
    use Implicit::{Nothing, Role as R};
    match node.tag.as_str() {
        // HTML-AAM: `a`/`area` with `href` → link; without, generic.
        "a" | "area" if node.has(Flags::HAS_HREF) => R(Role::Link),
        "button" => R(Role::Button),
        "input" => input_role(node),
        // HTML-AAM: `select` (no multiple, size ≤ 1) → combobox.
        // Deviation: `select multiple`/size > 1 is a listbox there; the
        // contract has none, and it is still a choose-from-list control.
        "select" => R(Role::Combobox),
        "textarea" => R(Role::Textbox),
        // HTML-AAM: `img` with alt="" → presentation; otherwise img. Chromium
        // also drops unnamed images, so a picture needs a name to count.
        "img" | "svg" if node.has(Flags::REPLACED) && has_image_name(node) => R(Role::Image),
        // Follows Chromium: `summary` is exposed as a button (HTML-AAM: no
        // corresponding role, but it toggles its `details` when clicked).
        "summary" => R(Role::Button),
        // HTML-AAM / WAI-ARIA: an editing host is a (multi-line) textbox.
        _ if node.has(Flags::CONTENTEDITABLE) => R(Role::Textbox),
        _ => Nothing,
    }
}

/// HTML-AAM §4 `input` mappings by `type` (an invalid or missing type is the
/// Text state, HTML §4.10.5).
fn input_role(node: &RawNode) -> Implicit {
    use Implicit::{Never, Role as R};
    let t = node.input_type.as_str();
    match t {
        "hidden" => Never,
        "button" | "submit" | "reset" | "image" => R(Role::Button),
        // Follows Chromium: file and color inputs are exposed as buttons
        // (they open a picker when clicked).
        "file" | "color" => R(Role::Button),
        "checkbox" => R(Role::Checkbox),
        "radio" => R(Role::Radio),
        // Deviation: HTML-AAM maps range to slider; the contract has none.
        "range" => R(Role::Generic),
        // HTML-AAM: text, search, tel, url, email with a `list` attribute → combobox.
        "text" | "search" | "tel" | "url" | "email" | "" if node.has(Flags::HAS_LIST) => {
            R(Role::Combobox)
        }
        // HTML-AAM: type=search → searchbox.
        "search" => R(Role::Searchbox),
        // HTML-AAM: number → spinbutton. Deviation: a textbox here (typed input).
        // Follows Chromium: password is exposed as a textbox (HTML-AAM: none).
        // Date/time types: Chromium exposes textbox-like fields.
        _ => R(Role::Textbox),
    }
}

/// HTML-AAM `img`: the alt text, or an author label, names the picture.
fn has_image_name(node: &RawNode) -> bool {
    !node.alt.trim().is_empty()
        || !node.aria_label.trim().is_empty()
        || !node.labelledby_text.trim().is_empty()
        || !node.title.trim().is_empty()
}

/// HTML §6.6.3: focusable by default, or made so by a `tabindex` ≥ 0.
fn is_focusable(node: &RawNode) -> bool {
    node.has(Flags::NATIVELY_FOCUSABLE) || node.has(Flags::TABINDEX)
}

/// docs/contracts/snapshot.md §6.2 "inferred from … context": a textbox inside a search landmark
/// (WAI-ARIA 1.2 `search`), or one that calls itself a search field, is
/// what an agent wants when it looks for a searchbox.
/// Deviation: ARIA would keep it a textbox.
fn is_search_context(node: &RawNode) -> bool {
    node.has(Flags::IN_SEARCH)
        || [
            &node.name,
            &node.placeholder,
            &node.aria_label,
            &node.labels_text,
        ]
        .into_iter()
        .any(|s| mentions_search(s))
}

/// True when `s` contains "search" (any case) not preceded by a letter, so
/// "Search…", "q-search", "searchTerm" count and "research" does not.
pub(crate) fn mentions_search(s: &str) -> bool {
    const WORD: &[u8] = b"search";
    let b = s.as_bytes();
    if b.len() < WORD.len() {
        return false;
    }
    (0..=b.len() - WORD.len()).any(|i| {
        b[i..i + WORD.len()].eq_ignore_ascii_case(WORD)
            && (i == 0 || !b[i - 1].is_ascii_alphabetic())
    })
}

/// docs/contracts/snapshot.md §6.2 "generic": something made clickable by script or CSS. The
/// pointer cursor must be set on this element, not inherited: every
/// descendant of a clickable card inherits the cursor, but only the card is
/// the click target. `onclick` and `tabindex` ≥ 0 (HTML §6.6.3) say the
/// author made it interactive.
fn generic_clickable(node: &RawNode) -> bool {
    (node.has(Flags::CURSOR_POINTER) && !node.has(Flags::PARENT_CURSOR_POINTER))
        || node.has(Flags::ONCLICK)
        || node.has(Flags::TABINDEX)
}

#[cfg(test)]
mod tests;
