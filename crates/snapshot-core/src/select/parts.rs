//! One clickable row made of separately labelled parts.
//!
//! docs/contracts/snapshot.md §6.2 "generic" keeps a clickable element whose
//! pointer cursor is its own, not inherited, so a card is one target and
//! its title and price are not. But a toolbar drawn as one clickable box
//! (`<div style="cursor:pointer"><span>Reply</span><span>Forward</span></div>`,
//! the handler on each span, or on the box dispatching on the target) is
//! several targets a person tells apart by their labels: kept whole, the
//! agent can only click its middle and never reach "Forward".
//!
//! So a pointer wrapper is split when its words are exactly the labels of
//! its direct parts: at least two segments (parts, or children with a role
//! of their own), each part a short label (at most [`MAX_PART_WORDS`]
//! words) and all distinct. Its parts then replace it. A card whose title
//! or description is longer than a label, or which holds words outside its
//! parts, stays one target. The walker records the children of an element
//! that sets the pointer cursor itself (extension/content/walker.js
//! `ctxPointerOwner`, crates/browse dom `pointer_owner`) so they are here
//! to be judged.

use crate::contract::Role;
use crate::raw::{Flags, RawNode, RawPage};
use crate::roles::role_of;

/// A part's label: at most this many words (a verb phrase such as "Mark
/// as read"), and at most [`MAX_PART_CHARS`] characters.
const MAX_PART_WORDS: usize = 3;
const MAX_PART_CHARS: usize = 30;

/// What [`split_wrappers`] decided for each node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Split {
    #[default]
    Keep,
    /// A wrapper whose parts replace it: no candidate.
    Wrapper,
    /// A part of a split wrapper: a `Generic` candidate of its own.
    Part,
}

/// For each node of `page`, whether it is a split wrapper, one of its
/// parts, or neither. O(n): children are grouped under their recorded
/// parent in one pass.
pub fn split_wrappers(page: &RawPage) -> Vec<Split> {
    let n = page.nodes.len();
    let mut out = vec![Split::Keep; n];
    // Children of each possible wrapper, in document order.
    let mut children: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut any = false;
    for (i, node) in page.nodes.iter().enumerate() {
        let Some(p) = node.parent.filter(|&p| (p as usize) < i) else {
            continue;
        };
        let Some(parent) = page.nodes.get(p as usize) else {
            continue;
        };
        if owns_pointer(parent) && node.has(Flags::PARENT_CURSOR_POINTER) {
            if let Some(list) = children.get_mut(p as usize) {
                list.push(i as u32);
                any = true;
            }
        }
    }
    if !any {
        return out;
    }
    for (w, kids) in children.iter().enumerate() {
        if kids.len() < 2 {
            continue;
        }
        let Some(wrapper) = page.nodes.get(w) else {
            continue;
        };
        if role_of(page, wrapper) != Some(Role::Generic) {
            continue;
        }
        if let Some(parts) = parts_of(page, wrapper, kids) {
            out[w] = Split::Wrapper;
            for p in parts {
                out[p as usize] = Split::Part;
            }
        }
    }
    out
}

/// The wrapper sets the pointer cursor itself.
fn owns_pointer(node: &RawNode) -> bool {
    node.has(Flags::CURSOR_POINTER) && !node.has(Flags::PARENT_CURSOR_POINTER)
}

/// The parts of `wrapper` when it splits (see the module doc), else `None`.
fn parts_of(page: &RawPage, wrapper: &RawNode, kids: &[u32]) -> Option<Vec<u32>> {
    let mut parts = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut segments = 0;
    for &k in kids {
        let node = page.nodes.get(k as usize)?;
        if !rendered(node) {
            continue;
        }
        if role_of(page, node).is_some() || node.has(Flags::REPLACED) {
            // A control or image of its own: a segment whose words count.
            segments += 1;
            words.extend(words_of(&node.text));
            continue;
        }
        let Some(name) = label(node) else {
            continue; // an empty spacer or an unlabelled icon: no segment
        };
        let n_words = name.split_whitespace().count();
        if n_words == 0 || n_words > MAX_PART_WORDS || name.chars().count() > MAX_PART_CHARS {
            return None;
        }
        let key = name.to_lowercase();
        if names.contains(&key) {
            return None;
        }
        names.push(key);
        words.extend(words_of(&node.text));
        segments += 1;
        parts.push(k);
    }
    if segments < 2 || parts.is_empty() {
        return None;
    }
    // Nothing but the parts' words: a card with a sentence of its own is one target.
    (words == words_of(&wrapper.text)).then_some(parts)
}

fn rendered(node: &RawNode) -> bool {
    node.has(Flags::VISIBLE)
        && !node.has(Flags::HIDDEN_ATTR)
        && node.rect.width > 0.0
        && node.rect.height > 0.0
}

/// What a person reads as the part's label: its text, else its
/// `aria-label`, `title` or an image's `alt`.
fn label(node: &RawNode) -> Option<String> {
    [&node.text, &node.aria_label, &node.title, &node.alt]
        .into_iter()
        .map(|s| s.trim())
        .find(|s| !s.is_empty())
        .map(str::to_string)
}

fn words_of(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_lowercase).collect()
}

#[cfg(test)]
mod tests;
