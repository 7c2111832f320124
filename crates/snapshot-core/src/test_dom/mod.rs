//! A tiny in-memory DOM builder so tests read like the HTML they model:
//!
//! ```
//! use sentience_snapshot_core::test_dom::{el, rgb, PageBuilder};
//! let page = PageBuilder::new(1280.0, 800.0)
//!     .node(el("button").text("Sign in").rect(10, 10, 100, 40).bg(rgb(0, 100, 255)))
//!     .nest(el("form"), |f| f.node(el("input").typ("email")).node(el("button")))
//!     .node(el("a").href().child(el("img").replaced().alt("Home")))
//!     .build();
//! assert_eq!(page.nodes.len(), 6);
//! ```
//!
//! Not `cfg(test)`: the wasm crate's and the servers' tests build pages with
//! it too. Defaults: `VISIBLE` set, rect `0,0,100,20`, `stable_id` = index.
//!
//! What CSS would inherit is inherited here too (in [`PageBuilder::build`]),
//! so a test does not have to spell out what the walker would have computed:
//! `visibility`, `cursor` (with `PARENT_CURSOR_POINTER`), the effective
//! z-index, the overflow clip, the effective background, the owning `<form>`
//! and the search landmark. Anything set explicitly on a node wins.

mod element;

pub use element::{el, rgb, rgba, El};

use crate::contract::{BBox, Viewport};
use crate::raw::{Flags, RawNode, RawPage, Rgba};
use element::{Explicit, Inherit};

/// Builds a [`RawPage`]; nodes are appended in document order.
#[derive(Debug, Clone)]
pub struct PageBuilder {
    page: RawPage,
    set: Vec<Explicit>,
    /// Parent for [`PageBuilder::node`] (set while inside [`PageBuilder::nest`]).
    stack: Vec<u32>,
    scanned: Option<u32>,
}

impl PageBuilder {
    pub fn new(width: f64, height: f64) -> Self {
        PageBuilder {
            page: RawPage {
                url: "https://example.test/".into(),
                timestamp: "2025-01-20T10:30:00Z".into(),
                viewport: Viewport { width, height },
                elements_scanned: 0,
                nodes: Vec::new(),
            },
            set: Vec::new(),
            stack: Vec::new(),
            scanned: None,
        }
    }

    pub fn url(mut self, url: &str) -> Self {
        self.page.url = url.into();
        self
    }

    pub fn timestamp(mut self, ts: &str) -> Self {
        self.page.timestamp = ts.into();
        self
    }

    /// Overrides `elements_scanned` (default: the node count).
    pub fn scanned(mut self, n: u32) -> Self {
        self.scanned = Some(n);
        self
    }

    /// Appends `el` (and its nested children) under the current parent.
    pub fn node(mut self, el: El) -> Self {
        let parent = self.stack.last().copied();
        self.push(el, parent);
        self
    }

    /// Appends `el` as a child of the node at `parent` (an index).
    pub fn child_of(mut self, parent: usize, el: El) -> Self {
        self.push(el, u32::try_from(parent).ok());
        self
    }

    /// Appends `el`, then whatever `body` appends becomes its children.
    pub fn nest(mut self, el: El, body: impl FnOnce(PageBuilder) -> PageBuilder) -> Self {
        let parent = self.stack.last().copied();
        let index = self.push(el, parent);
        self.stack.push(index);
        let mut b = body(self);
        b.stack.pop();
        b
    }

    /// Number of nodes so far (the index the next node will get).
    pub fn len(&self) -> usize {
        self.page.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.page.nodes.is_empty()
    }

    /// Index of the last node appended (0 when empty).
    pub fn last(&self) -> usize {
        self.len().saturating_sub(1)
    }

    fn push(&mut self, el: El, parent: Option<u32>) -> u32 {
        let index = u32::try_from(self.page.nodes.len()).unwrap_or(u32::MAX);
        let El {
            mut node,
            set,
            children,
        } = el;
        node.parent = parent;
        self.page.nodes.push(node);
        self.set.push(set);
        for c in children {
            self.push(c, Some(index));
        }
        index
    }

    /// Resolves inherited facts in one forward pass (parents precede children).
    pub fn build(self) -> RawPage {
        let PageBuilder {
            mut page,
            set,
            scanned,
            ..
        } = self;
        for (i, s) in set.iter().enumerate() {
            let parent = page
                .nodes
                .get(i)
                .and_then(|n| n.parent)
                .filter(|&p| (p as usize) < i)
                .and_then(|p| page.nodes.get(p as usize))
                .map(Inherited::of);
            let Some(n) = page.nodes.get_mut(i) else {
                break;
            };
            if !s.id {
                n.stable_id = i as u32;
            }
            let parent_visible = parent.as_ref().is_none_or(|p| p.visible);
            let parent_pointer = parent.as_ref().is_some_and(|p| p.pointer);
            set_bit(n, Flags::VISIBLE, resolve(s.visible, parent_visible));
            set_bit(n, Flags::CURSOR_POINTER, resolve(s.pointer, parent_pointer));
            set_bit(n, Flags::PARENT_CURSOR_POINTER, parent_pointer);
            if let Some(p) = &parent {
                if !s.z {
                    n.z_index = p.z_index;
                }
                if !s.clip {
                    n.clip = p.clip;
                }
                if !s.form {
                    n.form = if p.is_form { n.parent } else { p.form };
                }
                if p.search {
                    n.flags.0 |= Flags::IN_SEARCH;
                }
            }
            if !s.effective_bg {
                n.effective_background = n
                    .background
                    .or_else(|| parent.as_ref().and_then(|p| p.effective_background));
            }
        }
        page.elements_scanned = scanned.unwrap_or(page.nodes.len() as u32);
        page
    }
}

/// What a child inherits from its (already resolved) parent.
struct Inherited {
    visible: bool,
    pointer: bool,
    z_index: i32,
    clip: Option<BBox>,
    form: Option<u32>,
    is_form: bool,
    /// The parent is a search landmark or inside one.
    search: bool,
    effective_background: Option<Rgba>,
}

impl Inherited {
    fn of(p: &RawNode) -> Inherited {
        Inherited {
            visible: p.has(Flags::VISIBLE),
            pointer: p.has(Flags::CURSOR_POINTER),
            z_index: p.z_index,
            clip: p.clip,
            form: p.form,
            is_form: p.tag == "form",
            search: p.has(Flags::IN_SEARCH)
                || p.tag == "search"
                || p.role_attr
                    .split_ascii_whitespace()
                    .any(|t| t.eq_ignore_ascii_case("search")),
            effective_background: p.effective_background,
        }
    }
}

fn resolve(v: Inherit, inherited: bool) -> bool {
    match v {
        Inherit::FromParent => inherited,
        Inherit::On => true,
        Inherit::Off => false,
    }
}

fn set_bit(n: &mut RawNode, bit: u32, on: bool) {
    if on {
        n.flags.0 |= bit;
    } else {
        n.flags.0 &= !bit;
    }
}

#[cfg(test)]
mod tests;
