//! Candidate selection: which recorded elements become contract elements.
//!
//! docs/contracts/snapshot.md §1 lists "all interactive elements"; one click target must show up
//! once. So a candidate needs a role ([`crate::roles::role_of`]), must be
//! rendered, and must not be a nested duplicate of an actionable ancestor.
//! `display: none`, `aria-hidden` and `inert` subtrees never get here: the
//! walker skips them.

use crate::contract::Role;
use crate::raw::{Flags, RawNode, RawPage};
use crate::roles::role_of;

pub mod parts;
use parts::{split_wrappers, Split};

/// A node chosen as a contract element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    /// Index in [`RawPage::nodes`].
    pub index: u32,
    pub role: Role,
}

/// Bits of "some strict ancestor is a (rendered) candidate of this kind".
const ANC_LINK_OR_BUTTON: u8 = 1;
const ANC_GENERIC: u8 = 2;
/// A link or button that is native interactive content (`<a href>`,
/// `<button>`, `<summary>`, …: focusable by default), not only by its
/// `role` attribute.
const ANC_NATIVE_LINK_OR_BUTTON: u8 = 4;

/// All candidates in document order. O(n): one forward pass, since parents
/// precede children the ancestor facts of a node's parent are already known.
pub fn select_candidates(page: &RawPage) -> Vec<Candidate> {
    let n = page.nodes.len();
    // For each node: the ANC_* bits of itself-or-ancestors (what its
    // children inherit).
    let mut self_or_above = vec![0u8; n];
    let mut out = Vec::new();
    let split = split_wrappers(page);
    for (i, node) in page.nodes.iter().enumerate() {
        let above = node
            .parent
            .filter(|&p| (p as usize) < i)
            .and_then(|p| self_or_above.get(p as usize).copied())
            .unwrap_or(0);
        let role = match split.get(i).copied().unwrap_or_default() {
            Split::Keep => role_of(page, node),
            Split::Wrapper => None,
            Split::Part => Some(Role::Generic),
        }
        .filter(|&r| !is_hidden(node, r));
        let mut mine = above;
        if let Some(role) = role {
            mine |= match role {
                Role::Link | Role::Button if node.has(Flags::NATIVELY_FOCUSABLE) => {
                    ANC_LINK_OR_BUTTON | ANC_NATIVE_LINK_OR_BUTTON
                }
                Role::Link | Role::Button => ANC_LINK_OR_BUTTON,
                Role::Generic => ANC_GENERIC,
                _ => 0,
            };
            if !is_nested_duplicate(role, above, node) {
                out.push(Candidate {
                    index: i as u32,
                    role,
                });
            }
        }
        if let Some(slot) = self_or_above.get_mut(i) {
            *slot = mine;
        }
    }
    out
}

/// Not rendered, or rendered as nothing (docs/contracts/snapshot.md §1: elements are what an
/// agent can see and use). CSS `visibility` (`VISIBLE`), the `hidden`
/// attribute (HTML §6.1; the walker passes it only if CSS overrode
/// `display`, so we still honour the author's intent), an empty box.
/// `opacity: 0` hides only things that are nothing but their looks
/// (Generic, Image); a transparent native checkbox or input is the usual
/// custom-control trick and stays usable through its label.
/// Disabled elements are kept: an agent needs to see a greyed-out "Pay".
/// Mirrored by extension/content/walker.js (`fixedRole`): it does not read
/// the opacity of an element that can be neither Generic/Image here nor an
/// occluder ([`crate::occlusion`]); change both together (walker_mirrors.rs checks it).
pub fn is_hidden(node: &RawNode, role: Role) -> bool {
    !node.has(Flags::VISIBLE)
        || node.has(Flags::HIDDEN_ATTR)
        || node.rect.width.is_nan()
        || node.rect.height.is_nan()
        || node.rect.width <= 0.0
        || node.rect.height <= 0.0
        || (matches!(role, Role::Generic | Role::Image) && node.has(Flags::TRANSPARENT))
}

/// Mirrored by extension/content/walker.js (`actionable`): it never walks
/// inside a link or button, whose content would collapse here anyway;
/// change both together (walker_mirrors.rs checks it).
///
/// One click target, one element: an icon or span inside a link or button
/// (HTML §4.5.1: interactive content must not nest), or a clickable child
/// of a clickable generic, is the same target as its ancestor. Form
/// controls always stay: an input inside a clickable card is its own target.
///
/// A real link or button (`<a href>`, `<button>`: focusable by default)
/// inside an element that is a button or link only by its `role` attribute
/// is its own target too: HTML's no-nesting rule binds native interactive
/// content, not ARIA roles, and such a link is reached, focused and
/// followed apart from the card around it. News sites wrap each story card
/// in `<div role="button" tabindex="0">` with the headline `<a href>`
/// inside (tests/pages/card-grid.html): Chromium's accessibility tree
/// exposes both, and dropping the link lost every headline of the grid.
fn is_nested_duplicate(role: Role, above: u8, node: &RawNode) -> bool {
    match role {
        Role::Textbox | Role::Searchbox | Role::Checkbox | Role::Radio | Role::Combobox => false,
        Role::Generic | Role::Image => above & (ANC_LINK_OR_BUTTON | ANC_GENERIC) != 0,
        Role::Link | Role::Button if node.has(Flags::NATIVELY_FOCUSABLE) => {
            above & ANC_NATIVE_LINK_OR_BUTTON != 0
        }
        Role::Link | Role::Button => above & ANC_LINK_OR_BUTTON != 0,
    }
}

#[cfg(test)]
mod tests;
