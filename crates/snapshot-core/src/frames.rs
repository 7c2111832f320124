//! Child frames merged into one page (docs/api.md "Iframes and shadow DOM"
//! and "What the engine decides"): the rules that
//! place a frame's elements in the page of the frame that takes the
//! snapshot (the "driver"), so the engine then runs once over the whole
//! tree and importance, sorting, limit and occlusion are global.
//!
//! extension/content/frames.js only gathers: each frame's walk, and a
//! description of its iframe ([`Iframe`], the `FR_*` columns of
//! [`crate::raw`]) measured in the parent frame. It also maps each frame
//! element's frame-local id to an id of the driver's sequence and keeps the
//! route back to the frame (routing is messaging, not a rule). Decided here:
//! - **placement**: a frame's nodes go right after its iframe's position in
//!   its host's document order, the frame's root nodes under the iframe's
//!   nearest recorded ancestor, so a positioned container of the iframe (a
//!   modal, say) is their ancestor and never occludes them;
//! - **renumbering**: every node index (`parent`, `form`, `label_for`) is
//!   renumbered into the merged order;
//! - **translation**: a frame's rects and clips move by its iframe's content
//!   box origin (composed through nested frames);
//! - **clipping**: a frame node's clip is cut to the frame's visible area:
//!   its content box, cut by the iframe's overflow-clipping ancestors and
//!   by every enclosing frame's visible area;
//! - **stacking**: a frame's nodes take the z-index of its *top-level*
//!   iframe (a nested iframe's own level only orders it within its frame,
//!   which the top-level iframe's level already places as one layer), so
//!   what covers that iframe covers its elements.

use crate::contract::BBox;
use crate::raw::{DecodeError, RawNode, RawPage};

/// Frames nested deeper than this are refused (the extension stops at 8).
pub const MAX_NESTING: usize = 32;

/// Where a frame sits in its host (the frame whose document holds its iframe).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Iframe {
    /// Index of the host in the frame list; `None`: the top page.
    pub host: Option<usize>,
    /// Node index in the host before which the frame's nodes go (the
    /// host's node count: after all of them).
    pub at: usize,
    /// Host node index of the iframe's nearest recorded ancestor.
    pub parent: Option<u32>,
    /// The iframe's effective z-index in its host.
    pub z_index: i32,
    /// The iframe's content box (inside border and padding) in the host's viewport.
    pub content_box: BBox,
    /// The clip of the iframe's overflow-clipping ancestors, host viewport.
    pub clip: Option<BBox>,
    /// Elements the frame's walk visited.
    pub elements_scanned: u32,
}

/// One child frame: its iframe and its walk's nodes (links within the walk,
/// rects in the frame's own viewport, ids already the driver's).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Frame {
    pub iframe: Iframe,
    pub nodes: Vec<RawNode>,
}

/// Frame tables longer than this are refused (the extension sends at most 64).
pub const MAX_FRAMES: usize = 1024;

/// A rect as its edges `[left, top, right, bottom]`: intersections are
/// then four max/min, and "no limit" is the infinite rect.
type Edges = [f64; 4];

const EVERYWHERE: Edges = [
    f64::NEG_INFINITY,
    f64::NEG_INFINITY,
    f64::INFINITY,
    f64::INFINITY,
];

/// `b` moved by `(dx, dy)`, as edges.
fn edges(b: BBox, dx: f64, dy: f64) -> Edges {
    let (x, y) = (b.x + dx, b.y + dy);
    [x, y, x + b.width, y + b.height]
}

/// `a ∩ b`.
fn cut(a: Edges, b: Edges) -> Edges {
    [
        a[0].max(b[0]),
        a[1].max(b[1]),
        a[2].min(b[2]),
        a[3].min(b[3]),
    ]
}

/// What a walk's nodes inherit from the frames above it.
#[derive(Clone, Copy)]
struct Context {
    /// The walk's viewport origin in the top page's viewport.
    dx: f64,
    dy: f64,
    /// The part of the top viewport the frame may show anything in.
    visible: Edges,
    /// The z-index of the walk's top-level iframe.
    z_index: i32,
    /// Merged index of the node its root nodes hang under.
    root_parent: Option<u32>,
}

const TOP: Context = Context {
    dx: 0.0,
    dy: 0.0,
    visible: EVERYWHERE,
    z_index: 0,
    root_parent: None,
};

/// Merges `frames` into `top` (see the module doc): the native entry point,
/// through the wire form the extension sends, so tests exercise the very
/// code that merges in the browser. A frame must come after its host, sit at
/// a position its host has, after its host's earlier frames (document
/// order), and name as parent a host node before that position; otherwise
/// [`DecodeError::Frame`].
pub fn merge(top: &RawPage, frames: &[Frame]) -> Result<RawPage, DecodeError> {
    let (meta, nums, strs) = encode(top, frames);
    crate::raw::decode(&meta, &nums, &strs)
}

/// Where every node of every walk goes: [`crate::raw::decode`] builds the
/// merged page in one pass, walk run after walk run, fixing each node with
/// [`Layout::fix`]. Walk 0 is the top page's, walk `1 + f` frame `f`'s.
pub(crate) struct Layout<'a> {
    iframes: &'a [Iframe],
    /// Walk of each frame's host.
    hosts: Vec<usize>,
    /// First node of each walk (in the wire's order), and one past the last.
    pub starts: Vec<usize>,
    contexts: Vec<Context>,
    /// The merged index of every node (empty without frames: the identity).
    merged: Vec<u32>,
    next: u32,
    /// `(walk, from, to)`: the merged page is these runs of walk nodes.
    pub runs: Vec<(usize, usize, usize)>,
}

/// Lays out the walks of `counts` (top first) for the frames `iframes`.
pub(crate) fn layout<'a>(
    iframes: &'a [Iframe],
    counts: &[usize],
) -> Result<Layout<'a>, DecodeError> {
    let walks = iframes.len() + 1;
    let mut starts = vec![0usize; walks + 1];
    for w in 0..walks {
        starts[w + 1] = starts[w].saturating_add(counts.get(w).copied().unwrap_or(0));
    }
    if counts.len() != walks || walks > MAX_FRAMES + 1 {
        return Err(DecodeError::Frame { frame: 0 });
    }
    let mut hosts = vec![0usize; walks];
    let mut depth = vec![0usize; walks];
    // The position of each walk's last frame so far.
    let mut last_at = vec![0usize; walks];
    for (frame, i) in iframes.iter().enumerate() {
        let host = i.host.map_or(0, |h| h + 1);
        let w = frame + 1;
        if host >= w
            || i.at > counts[host]
            || i.at < last_at[host]
            || i.parent.is_some_and(|p| p as usize >= i.at)
            || depth[host] >= MAX_NESTING
        {
            return Err(DecodeError::Frame { frame });
        }
        depth[w] = depth[host] + 1;
        last_at[host] = i.at;
        hosts[w] = host;
    }
    let mut layout = Layout {
        iframes,
        hosts,
        merged: if walks > 1 {
            vec![0; starts[walks]]
        } else {
            Vec::new()
        },
        starts,
        contexts: vec![TOP; walks],
        next: 0,
        runs: Vec::new(),
    };
    layout.place(0);
    Ok(layout)
}

impl Layout<'_> {
    /// Gives walk `w`'s nodes their merged indices in document order, each
    /// frame it hosts (and all below) at its iframe's position.
    fn place(&mut self, w: usize) {
        let start = self.starts[w];
        let mut from = 0;
        for frame in 0..self.iframes.len() {
            if self.hosts[frame + 1] != w {
                continue;
            }
            let f = self.iframes[frame];
            self.run(w, from, f.at);
            from = f.at;
            let host = self.contexts[w];
            let content_box = edges(f.content_box, host.dx, host.dy);
            let clip = f.clip.map_or(EVERYWHERE, |c| edges(c, host.dx, host.dy));
            self.contexts[frame + 1] = Context {
                dx: content_box[0],
                dy: content_box[1],
                visible: cut(host.visible, cut(content_box, clip)),
                z_index: if w == 0 { f.z_index } else { host.z_index },
                // The parent comes before the iframe: placed already.
                root_parent: match f.parent {
                    Some(p) => self.merged.get(start + p as usize).copied(),
                    None => host.root_parent,
                },
            };
            self.place(frame + 1);
        }
        self.run(w, from, self.starts[w + 1] - start);
    }

    /// Walk `w`'s nodes `from..to` come next.
    fn run(&mut self, w: usize, from: usize, to: usize) {
        if from < to {
            self.runs.push((w, from, to));
            let start = self.starts[w];
            // (No list to fill without frames: the identity.)
            for m in self
                .merged
                .get_mut(start + from..start + to)
                .unwrap_or_default()
            {
                *m = self.next;
                self.next += 1;
            }
        }
    }

    /// Renumbers node `i` of walk `w` (links within its walk) into the
    /// merged page and, for a frame's node, moves it into the top viewport,
    /// cuts its clip to the frame's visible area and gives it the top-level
    /// iframe's z-index.
    pub fn fix(&self, w: usize, node: &mut RawNode) {
        if self.merged.is_empty() {
            return;
        }
        let (start, end) = (self.starts[w], self.starts[w + 1]);
        let cx = self.contexts[w];
        let map = |v: Option<u32>| {
            v.filter(|&v| (v as usize) < end - start)
                .and_then(|v| self.merged.get(start + v as usize).copied())
        };
        node.parent = match node.parent {
            Some(_) => map(node.parent),
            None => cx.root_parent,
        };
        node.form = map(node.form);
        node.label_for = map(node.label_for);
        if w > 0 {
            node.rect.x += cx.dx;
            node.rect.y += cx.dy;
            node.z_index = cx.z_index;
            let [x, y, right, bottom] = cut(
                cx.visible,
                node.clip.map_or(EVERYWHERE, |c| edges(c, cx.dx, cx.dy)),
            );
            node.clip = Some(BBox {
                x,
                y,
                width: (right - x).max(0.0),
                height: (bottom - y).max(0.0),
            });
        }
    }
}

/// Encodes a page and its frames into the wire form [`crate::raw::decode`]
/// merges (the inverse of the split; for tests and replays).
pub fn encode(top: &RawPage, frames: &[Frame]) -> (Vec<f64>, Vec<f64>, String) {
    use crate::raw::*;
    let (mut meta, mut nums, strs) = crate::raw::encode(top);
    let mut more = Vec::new();
    let opt = |v: Option<usize>| v.map_or(-1.0, |v| v as f64);
    for f in frames {
        let i = &f.iframe;
        let clip = i.clip.unwrap_or(BBox {
            x: 0.0,
            y: 0.0,
            width: -1.0,
            height: -1.0,
        });
        let mut row = [0.0; FRAME_STRIDE];
        row[FR_HOST] = opt(i.host);
        row[FR_AT] = i.at as f64;
        row[FR_PARENT] = opt(i.parent.map(|p| p as usize));
        row[FR_Z] = i.z_index as f64;
        row[FR_X] = i.content_box.x;
        row[FR_Y] = i.content_box.y;
        row[FR_W] = i.content_box.width;
        row[FR_H] = i.content_box.height;
        row[FR_CLIP_X] = clip.x;
        row[FR_CLIP_Y] = clip.y;
        row[FR_CLIP_W] = clip.width;
        row[FR_CLIP_H] = clip.height;
        row[FR_NODES] = f.nodes.len() as f64;
        row[FR_SCANNED] = i.elements_scanned as f64;
        meta.extend_from_slice(&row);
        more.extend(["frame-url", "frame-time"]);
        push_nodes(&f.nodes, &mut nums, &mut more);
    }
    let mut strs = strs;
    for s in more {
        strs.push(SEP);
        strs.push_str(s);
    }
    (meta, nums, strs)
}

#[cfg(test)]
mod tests;
