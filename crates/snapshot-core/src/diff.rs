//! Addition to specs/001: what changed between two snapshots of one page.
//!
//! Ids are stable within a page's life (the walker keeps one per element and
//! never reuses one), so a diff is a comparison by id. The engine keeps, per
//! page, a compact [`Fingerprint`] of every *candidate* (before `filter` and
//! `limit`) of the last [`KEPT_SNAPSHOTS`] snapshots, never whole snapshots:
//! 24 bytes per candidate per kept snapshot.
//!
//! Against the snapshot `since`:
//! - `added`: ids among this snapshot's `elements` that were not candidates then;
//! - `changed`: ids among this snapshot's `elements` that were candidates then
//!   and whose role, text inputs (text, label, `aria-label(ledby)`, value,
//!   placeholder, alt, title), state, `in_viewport` or `is_occluded` differ,
//!   or whose bbox moved or resized by more than [`MOVE_THRESHOLD_PX`] on any
//!   of x, y, width, height;
//! - `removed`: ids that were candidates then and are no candidates now (gone
//!   from the document, hidden, or no longer actionable), whatever this
//!   snapshot's `filter` and `limit`.
//!
//! Facts are compared through a 32-bit FNV-1a hash: a change is missed only
//! on a hash collision (about 1 in 4 billion).

use crate::contract::{BBox, Role, SnapshotDiff};
use crate::raw::{Flags, RawNode};

/// Snapshots kept per page for `since`.
pub const KEPT_SNAPSHOTS: usize = 4;
/// A bbox edge or size must move by more than this (CSS px) to count as changed.
pub const MOVE_THRESHOLD_PX: f32 = 2.0;

/// The flags that make up the `state` object.
const STATE_FLAGS: u32 = Flags::DISABLED
    | Flags::CHECKED
    | Flags::MIXED
    | Flags::HAS_SELECTED
    | Flags::SELECTED
    | Flags::EXPANDED
    | Flags::COLLAPSED
    | Flags::REQUIRED;

/// What is remembered of one candidate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fingerprint {
    pub id: u32,
    /// Hash of role, text inputs, state, `in_viewport`, `is_occluded`.
    pub facts: u32,
    pub bbox: [f32; 4],
    /// In this snapshot's `elements` (after `filter` and `limit`).
    pub returned: bool,
}

impl Fingerprint {
    pub fn of(node: &RawNode, role: Role, in_viewport: bool, is_occluded: bool) -> Fingerprint {
        let mut h = Fnv::default();
        h.bytes(&[
            role as u8,
            u8::from(in_viewport) | u8::from(is_occluded) << 1,
        ]);
        h.bytes(&(node.flags.0 & STATE_FLAGS).to_le_bytes());
        for s in [
            &node.aria_label,
            &node.labelledby_text,
            &node.labels_text,
            &node.value,
            &node.placeholder,
            &node.alt,
            &node.title,
            &node.text,
            &node.options,
        ] {
            h.bytes(s.as_bytes());
            // A separator, so "ab"+"c" and "a"+"bc" differ.
            h.bytes(&[0xff]);
        }
        let BBox {
            x,
            y,
            width,
            height,
        } = node.rect;
        Fingerprint {
            id: node.stable_id,
            facts: h.0,
            bbox: [x as f32, y as f32, width as f32, height as f32],
            returned: false,
        }
    }

    fn differs(&self, other: &Fingerprint) -> bool {
        self.facts != other.facts
            || self
                .bbox
                .iter()
                .zip(other.bbox.iter())
                .any(|(a, b)| (a - b).abs() > MOVE_THRESHOLD_PX)
    }
}

/// 32-bit FNV-1a.
struct Fnv(u32);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0x811c_9dc5)
    }
}

impl Fnv {
    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u32::from(b)).wrapping_mul(0x0100_0193);
        }
    }
}

/// The last [`KEPT_SNAPSHOTS`] snapshots of one page, oldest first, each
/// with its fingerprints sorted by id.
///
/// One engine instance keeps one page's history: a content script serves
/// one page; the service worker (strict-CSP pages) starts afresh when asked
/// about another page (`since` then says the snapshot is not kept).
#[derive(Debug, Default)]
pub struct History {
    page: u32,
    kept: Vec<(u32, Vec<Fingerprint>)>,
}

impl History {
    pub const fn new() -> History {
        History {
            page: 0,
            kept: Vec::new(),
        }
    }

    /// This history, for page `key` (the service worker numbers the pages
    /// it serves; a content script's is 0): forgets another page's snapshots.
    pub fn for_page(&mut self, key: u32) -> &mut History {
        if self.page != key {
            self.page = key;
            self.kept.clear();
        }
        self
    }

    /// Remembers snapshot `snapshot_id` (the bridge never repeats one);
    /// forgets the oldest beyond [`KEPT_SNAPSHOTS`].
    /// `prints` must be sorted by id ([`sort_by_id`]).
    pub fn record(&mut self, snapshot_id: u32, prints: Vec<Fingerprint>) {
        self.kept.push((snapshot_id, prints));
        if self.kept.len() > KEPT_SNAPSHOTS {
            self.kept.remove(0);
        }
    }

    /// The diff of `current` (all candidates, sorted by id: see
    /// [`sort_by_id`], those in the result marked `returned`) against
    /// snapshot `since` (0: the page had no earlier snapshot, so everything
    /// returned is new). The id lists come out ascending.
    pub fn diff(&self, since: u32, current: &[Fingerprint]) -> Result<SnapshotDiff, String> {
        let returned = current.iter().filter(|p| p.returned);
        if since == 0 {
            return Ok(SnapshotDiff {
                since: None,
                added: returned.map(|p| p.id).collect(),
                ..SnapshotDiff::default()
            });
        }
        let Some((_, base)) = self.kept.iter().find(|(id, _)| *id == since) else {
            let oldest = self.kept.first().map_or(0, |(id, _)| *id);
            return Err(format!(
                "diff: snapshot {since} of this page is not kept (the engine keeps the last {KEPT_SNAPSHOTS}, the oldest now being {oldest}); take a new snapshot to compare with"
            ));
        };
        let find =
            |prints: &[Fingerprint], id: u32| match prints.binary_search_by_key(&id, |p| p.id) {
                Ok(i) => prints.get(i).copied(),
                Err(_) => None,
            };
        let mut diff = SnapshotDiff {
            since: Some(since),
            ..SnapshotDiff::default()
        };
        for p in base {
            if find(current, p.id).is_none() {
                diff.removed.push(p.id);
            }
        }
        for now in returned {
            match find(base, now.id) {
                None => diff.added.push(now.id),
                Some(then) if now.differs(&then) => diff.changed.push(now.id),
                _ => {}
            }
        }
        Ok(diff)
    }
}

/// Orders fingerprints by id, as [`History`] wants them, and marks those
/// of the `returned` ids.
pub fn sort_by_id(prints: &mut [Fingerprint], returned: impl Iterator<Item = u32>) {
    heapsort_by_id(prints);
    for id in returned {
        if let Ok(i) = prints.binary_search_by_key(&id, |p| p.id) {
            if let Some(p) = prints.get_mut(i) {
                p.returned = true;
            }
        }
    }
}

/// In-place heapsort by id: O(n log n) worst case, and a few hundred bytes
/// of WebAssembly where a `sort_unstable` instance costs kilobytes (the
/// engine's size budget, see README).
fn heapsort_by_id(v: &mut [Fingerprint]) {
    fn sift_down(v: &mut [Fingerprint], mut root: usize, end: usize) {
        loop {
            let mut child = 2 * root + 1;
            if child >= end {
                break;
            }
            if child + 1 < end && v[child].id < v[child + 1].id {
                child += 1;
            }
            if v[root].id >= v[child].id {
                break;
            }
            v.swap(root, child);
            root = child;
        }
    }
    let n = v.len();
    for start in (0..n / 2).rev() {
        sift_down(v, start, n);
    }
    for end in (1..n).rev() {
        v.swap(0, end);
        sift_down(v, 0, end);
    }
}

#[cfg(test)]
#[path = "diff_tests.rs"]
mod tests;
