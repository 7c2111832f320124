//! The snapshot as this crate reads it: the one snapshot model of
//! `sentience_snapshot_core::contract` (read leniently by `Snapshot::from_json`: see
//! there), plus the listing order both query results and the format use,
//! and [`Listed`], what the format needs of a line's element.

use std::borrow::Cow;

pub use sentience_snapshot_core::contract::{
    BBox, Checked, Element, ElementState, Role, SelectOption, Snapshot, Viewport, VisualCues,
};

/// What the LLM listing (`format`) shows of an element: a snapshot
/// [`Element`], or an [`Entry`] for an element that comes from elsewhere.
pub trait Listed {
    /// The id as the listing prints it (and an agent echoes it back).
    fn id_text(&self) -> Cow<'_, str>;
    /// The role word the listing prints.
    fn role_text(&self) -> &str;
    /// Everything else the line shows.
    fn element(&self) -> &Element;
    /// Extra `key="value"` facts shown after the state.
    fn hints(&self) -> &[(String, String)] {
        &[]
    }
}

impl Listed for Element {
    fn id_text(&self) -> Cow<'_, str> {
        Cow::Owned(self.id.to_string())
    }
    fn role_text(&self) -> &str {
        self.role.as_str()
    }
    fn element(&self) -> &Element {
        self
    }
}

/// An element described by another source than a snapshot (the agent
/// server's docs/contracts/run-api.md §12 pages: string ids such as `agent-3`, roles such as
/// `menuitem`, facts such as `href`), listed in the same format: `id` and
/// `role` replace the element's own, and `hints` are shown after its state.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Entry {
    pub id: String,
    pub role: String,
    pub element: Element,
    pub hints: Vec<(String, String)>,
}

impl Listed for Entry {
    fn id_text(&self) -> Cow<'_, str> {
        Cow::Borrowed(&self.id)
    }
    fn role_text(&self) -> &str {
        &self.role
    }
    fn element(&self) -> &Element {
        &self.element
    }
    fn hints(&self) -> &[(String, String)] {
        &self.hints
    }
}

/// The order of both query results and the format: importance descending,
/// then top to bottom (bbox.y), then id order for a deterministic tie-break.
pub fn rank_order<E: Listed>(elements: &[E]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..elements.len()).collect();
    order.sort_by(|&a, &b| rank_cmp(elements, a, b));
    order
}

/// `rank_order`'s comparison of elements `a` and `b` (a total order).
pub(crate) fn rank_cmp<E: Listed>(elements: &[E], a: usize, b: usize) -> std::cmp::Ordering {
    let (ea, eb) = (elements[a].element(), elements[b].element());
    eb.importance
        .cmp(&ea.importance)
        .then(ea.bbox.y.total_cmp(&eb.bbox.y))
        .then(a.cmp(&b))
}

/// The format's order: what is in the viewport first, then the rest, each in
/// `rank_order`. The contract's importance already takes 500 off an
/// off-screen element, yet role priority can outweigh that (an off-screen
/// `role="button"` card scores above an in-view header link, as on real
/// news front pages), and when the token budget cuts the listing, an agent
/// needs what it can act on now more than what it would first scroll to.
pub fn listing_order<E: Listed>(elements: &[E]) -> Vec<usize> {
    let (mut order, offscreen): (Vec<usize>, Vec<usize>) = rank_order(elements)
        .into_iter()
        .partition(|&i| elements[i].element().in_viewport);
    order.extend(offscreen);
    order
}
