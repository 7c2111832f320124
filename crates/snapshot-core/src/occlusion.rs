//! `in_viewport` and `is_occluded` (docs/contracts/snapshot.md §6.7), from geometry alone.
//!
//! No hit tests: the engine runs apart from the page (possibly in the
//! service worker), so it decides from the boxes the walker recorded.
//!
//! An element is occluded when, at the centre of its part inside the
//! viewport, another element paints above it and would take the click.
//! Only *positioned* elements (`position` other than `static`) are taken as
//! occluders. Assumption: static, in-flow boxes do not overlap in normal
//! flow (CSS 2.1 §9.4), and floats and negative margins that make them
//! overlap rarely cover a control; overlays, modals, sticky headers,
//! cookie banners and dropdowns are all positioned.
//!
//! Cost: occluders go once into a uniform grid over the viewport; each
//! candidate then looks only at the cell of its centre point, so the whole
//! pass is about O(n + occluders × cells they cover).

use crate::contract::Viewport;
use crate::raw::{Flags, RawNode, RawPage};

/// An axis-aligned rectangle as edges, `x0 <= x1`, `y0 <= y1` when non-empty.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Rect {
    pub fn area(self) -> f64 {
        if self.is_empty() {
            0.0
        } else {
            (self.x1 - self.x0) * (self.y1 - self.y0)
        }
    }

    /// Empty (or NaN) rectangles have no positive area.
    pub fn is_empty(self) -> bool {
        !(self.x1 > self.x0 && self.y1 > self.y0)
    }

    pub fn intersect(self, o: Rect) -> Rect {
        Rect {
            x0: self.x0.max(o.x0),
            y0: self.y0.max(o.y0),
            x1: self.x1.min(o.x1),
            y1: self.y1.min(o.y1),
        }
    }

    /// Half-open containment, so boxes that only touch do not cover each other.
    pub fn contains(self, x: f64, y: f64) -> bool {
        x >= self.x0 && x < self.x1 && y >= self.y0 && y < self.y1
    }
}

fn from_bbox(b: crate::contract::BBox) -> Rect {
    Rect {
        x0: b.x,
        y0: b.y,
        x1: b.x + b.width,
        y1: b.y + b.height,
    }
}

fn viewport_rect(v: Viewport) -> Rect {
    Rect {
        x0: 0.0,
        y0: 0.0,
        x1: v.width,
        y1: v.height,
    }
}

/// The part of the element not clipped away by `overflow` ancestors.
pub fn visible_rect(node: &RawNode) -> Rect {
    let r = from_bbox(node.rect);
    match node.clip {
        Some(c) => r.intersect(from_bbox(c)),
        None => r,
    }
}

/// `in_viewport` (docs/contracts/snapshot.md §6.7): some of the visible part is
/// inside the viewport.
pub fn in_viewport(node: &RawNode, viewport: Viewport) -> bool {
    !visible_rect(node)
        .intersect(viewport_rect(viewport))
        .is_empty()
}

/// Grid cells are at least this many CSS px wide, and there are at most
/// [`MAX_CELLS_PER_AXIS`] per axis however large the viewport claims to be.
const CELL: f64 = 128.0;
const MAX_CELLS_PER_AXIS: usize = 64;
const NONE: u32 = u32::MAX;

/// Built once per snapshot; answers [`OcclusionIndex::is_occluded`].
pub struct OcclusionIndex {
    viewport: Rect,
    cell: f64,
    cols: usize,
    rows: usize,
    /// Cell `c` holds `items[starts[c]..starts[c + 1]]` (CSR layout: two
    /// allocations for the whole grid instead of one per cell).
    starts: Vec<u32>,
    items: Vec<u32>,
    /// Exclusive end of each node's subtree in document order.
    subtree_end: Vec<u32>,
    /// The control of the nearest `<label>` ancestor-or-self, or [`NONE`].
    label_target: Vec<u32>,
    /// The nearest positioned ancestor-or-self, or [`NONE`]: in-flow
    /// content paints with it (see [`paints_above`]).
    painter: Vec<u32>,
}

impl OcclusionIndex {
    pub fn build(page: &RawPage) -> OcclusionIndex {
        let n = page.nodes.len();
        let viewport = viewport_rect(page.viewport);
        let longest = viewport.x1.max(viewport.y1);
        let cell = if longest.is_finite() {
            CELL.max(longest / MAX_CELLS_PER_AXIS as f64)
        } else {
            CELL
        };
        let cells_along =
            |len: f64| ((len / cell).ceil().max(1.0) as usize).min(MAX_CELLS_PER_AXIS);
        let (cols, rows) = (cells_along(viewport.x1), cells_along(viewport.y1));
        let mut index = OcclusionIndex {
            viewport,
            cell,
            cols,
            rows,
            starts: vec![0; cols * rows + 1],
            items: Vec::new(),
            subtree_end: (1..=n as u32).collect(),
            label_target: vec![NONE; n],
            painter: vec![NONE; n],
        };
        index.link_tree(page);
        index.fill_grid(page);
        index
    }

    /// Subtree ends (backward pass), label targets and painters (forward
    /// pass).
    /// Relies on the walker's pre-order: a subtree is a contiguous run.
    fn link_tree(&mut self, page: &RawPage) {
        for (i, node) in page.nodes.iter().enumerate().rev() {
            let end = self.subtree_end.get(i).copied().unwrap_or(0);
            if let Some(slot) = node
                .parent
                .filter(|&p| (p as usize) < i)
                .and_then(|p| self.subtree_end.get_mut(p as usize))
            {
                *slot = (*slot).max(end);
            }
        }
        for (i, node) in page.nodes.iter().enumerate() {
            let target = match node.label_for {
                Some(t) if node.tag == "label" => t,
                _ => node
                    .parent
                    .filter(|&p| (p as usize) < i)
                    .and_then(|p| self.label_target.get(p as usize).copied())
                    .unwrap_or(NONE),
            };
            if let Some(slot) = self.label_target.get_mut(i) {
                *slot = target;
            }
            let painter = if node.has(Flags::POSITIONED) {
                i as u32
            } else {
                node.parent
                    .filter(|&p| (p as usize) < i)
                    .and_then(|p| self.painter.get(p as usize).copied())
                    .unwrap_or(NONE)
            };
            if let Some(slot) = self.painter.get_mut(i) {
                *slot = painter;
            }
        }
    }

    /// The cells a rectangle (already inside the viewport) touches.
    fn cell_span(&self, r: Rect) -> (usize, usize, usize, usize) {
        let col = |x: f64| ((x / self.cell).floor().max(0.0) as usize).min(self.cols - 1);
        let row = |y: f64| ((y / self.cell).floor().max(0.0) as usize).min(self.rows - 1);
        (col(r.x0), col(r.x1), row(r.y0), row(r.y1))
    }

    fn occluder_rect(&self, node: &RawNode) -> Option<Rect> {
        if !is_occluder(node) {
            return None;
        }
        let r = visible_rect(node).intersect(self.viewport);
        (!r.is_empty()).then_some(r)
    }

    /// Counting pass then filling pass (no per-cell vectors).
    fn fill_grid(&mut self, page: &RawPage) {
        let mut counts = vec![0u32; self.cols * self.rows];
        for node in &page.nodes {
            if let Some(r) = self.occluder_rect(node) {
                let (c0, c1, r0, r1) = self.cell_span(r);
                for row in r0..=r1 {
                    let span = row * self.cols + c0..=row * self.cols + c1;
                    for c in counts.get_mut(span).into_iter().flatten() {
                        *c = c.saturating_add(1);
                    }
                }
            }
        }
        let mut total = 0u32;
        for (i, c) in counts.iter().enumerate() {
            self.starts[i] = total;
            total = total.saturating_add(*c);
        }
        if let Some(last) = self.starts.last_mut() {
            *last = total;
        }
        let mut next = self.starts.clone();
        self.items = vec![0; total as usize];
        for (i, node) in page.nodes.iter().enumerate() {
            if let Some(r) = self.occluder_rect(node) {
                let (c0, c1, r0, r1) = self.cell_span(r);
                for row in r0..=r1 {
                    for col in c0..=c1 {
                        let cell = row * self.cols + col;
                        if let Some(slot) = next.get_mut(cell) {
                            if let Some(item) = self.items.get_mut(*slot as usize) {
                                *item = i as u32;
                            }
                            *slot += 1;
                        }
                    }
                }
            }
        }
    }

    /// `is_occluded` (docs/contracts/snapshot.md §6.8) for node `e` (meaningful for elements in the
    /// viewport; `false` otherwise).
    pub fn is_occluded(&self, page: &RawPage, e: usize) -> bool {
        let Some(node) = page.nodes.get(e) else {
            return false;
        };
        let part = visible_rect(node).intersect(self.viewport);
        if part.is_empty() {
            return false;
        }
        // The centre of what can be seen is where an agent would click.
        let (x, y) = ((part.x0 + part.x1) / 2.0, (part.y0 + part.y1) / 2.0);
        let (col, _, row, _) = self.cell_span(Rect {
            x0: x,
            y0: y,
            x1: x,
            y1: y,
        });
        let cell = row * self.cols + col;
        let (Some(&from), Some(&to)) = (self.starts.get(cell), self.starts.get(cell + 1)) else {
            return false;
        };
        let Some(items) = self.items.get(from as usize..to as usize) else {
            return false;
        };
        items.iter().any(|&o| {
            let o = o as usize;
            o != e
                && page.nodes.get(o).is_some_and(|on| {
                    visible_rect(on).contains(x, y)
                        && !self.related(o, e)
                        && paints_above(on, o, node, self.painter_of(e))
                })
        })
    }

    fn painter_of(&self, e: usize) -> Option<usize> {
        self.painter
            .get(e)
            .filter(|&&p| p != NONE)
            .map(|&p| p as usize)
    }

    /// Ancestors and descendants are part of the same click target, and a
    /// `<label>` for the element (or anything inside one) forwards its click
    /// to it (HTML §4.10.4, label activation behaviour).
    fn related(&self, o: usize, e: usize) -> bool {
        let end = |i: usize| self.subtree_end.get(i).copied().unwrap_or(0) as usize;
        let o_contains_e = o < e && e < end(o);
        let e_contains_o = e < o && o < end(e);
        let labels_e = self.label_target.get(o).is_some_and(|&t| t as usize == e);
        o_contains_e || e_contains_o || labels_e
    }
}

/// Could take clicks meant for what lies below: rendered, hit-testable
/// (`pointer-events: none` lets clicks through), not fully transparent,
/// positioned (see the module doc). A transparent-background overlay still
/// counts: it takes the click all the same.
/// Mirrored by extension/content/walker.js, which reads `pointer-events`
/// only of positioned elements and leaves the box of a `<form>`/`<label>`
/// recorded for its relations empty (never positioned: never an occluder);
/// change both together (walker_mirrors.rs checks it).
fn is_occluder(node: &RawNode) -> bool {
    node.has(Flags::VISIBLE)
        && node.has(Flags::POSITIONED)
        && !node.has(Flags::HIDDEN_ATTR)
        && !node.has(Flags::POINTER_EVENTS_NONE)
        && !node.has(Flags::TRANSPARENT)
}

/// CSS 2.1 Appendix E / §9.9.1: higher z-index paints above; at the same
/// stacking level positioned boxes paint above in-flow ones (step 8 after
/// steps 4–7), and among equals the later in document order paints above.
/// In-flow content inside a positioned box paints with that box (§9.9.1:
/// a positioned `z-index: auto` box paints as if it made a stacking
/// context), so `e_painter`, its nearest positioned ancestor-or-self, is
/// what `o` is ordered against: the button of a fixed modal is above a
/// sticky bar that comes earlier in the document, though the button itself
/// is not positioned. The walker's `z_index` is that of the nearest
/// ancestor-or-self stacking context, so comparing it approximates
/// comparing stacking contexts.
fn paints_above(o: &RawNode, o_index: usize, e: &RawNode, e_painter: Option<usize>) -> bool {
    if o.z_index != e.z_index {
        return o.z_index > e.z_index;
    }
    e_painter.is_none_or(|p| o_index > p)
}

#[cfg(test)]
mod tests;
