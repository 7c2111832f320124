//! Addition to docs/contracts/snapshot.md §11.3: what changed between two snapshots of one page.
//!
//! Ids are stable within a page's life (the walker keeps one per element and
//! never reuses one), so a diff is a comparison by id. The engine keeps, per
//! page, a compact [`Fingerprint`] of every *candidate* (before `filter` and
//! `limit`) of the last [`KEPT_SNAPSHOTS`] snapshots, never whole snapshots:
//! 28 bytes per candidate per kept snapshot.
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
use crate::raw::RawNode;
use crate::state::STATE_FLAGS;

/// Snapshots kept per page for `since`.
pub const KEPT_SNAPSHOTS: usize = 4;
/// A bbox edge or size must move by more than this (CSS px) to count as changed.
pub const MOVE_THRESHOLD_PX: f32 = 2.0;

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
        let mut h = FactHash::default();
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

/// A 32-bit multiplicative hash (FxHash's step) taking four bytes at a
/// time: fingerprints are compared only within one page's life, so any
/// well-mixing hash will do, and FNV-1a's byte-at-a-time loop was a
/// twentieth of the engine's time in the WebAssembly build.
struct FactHash(u32);

impl Default for FactHash {
    fn default() -> Self {
        FactHash(0x811c_9dc5)
    }
}

impl FactHash {
    fn step(&mut self, word: u32) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x9e37_79b9);
    }

    fn bytes(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(4);
        for w in &mut words {
            self.step(u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
        }
        for &b in words.remainder() {
            self.step(u32::from(b));
        }
    }
}

/// The last [`KEPT_SNAPSHOTS`] snapshots of one page, oldest first, each
/// with its fingerprints sorted by id.
///
/// One engine handle (src/lib.rs `Engine`) keeps one page's history: the
/// bridge holds one per scope of its page, the service worker (strict-CSP
/// pages) one per page for the last few pages it served (an evicted page
/// starts afresh: `since` then says the snapshot is not kept).
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

    /// This history, for page `key`: forgets another page's snapshots (for a
    /// caller that keeps one history for several pages).
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
        if since == 0 {
            return Ok(SnapshotDiff {
                since: None,
                added: current
                    .iter()
                    .filter(|p| p.returned)
                    .map(|p| p.id)
                    .collect(),
                ..SnapshotDiff::default()
            });
        }
        let Some((_, base)) = self.kept.iter().find(|(id, _)| *id == since) else {
            // The text says 4: KEPT_SNAPSHOTS (a test keeps them in step).
            let oldest = self.kept.first().map_or(0, |(id, _)| *id);
            return Err(format!(
                "diff: snapshot {since} of this page is not kept (the engine keeps the last 4, the oldest now being {oldest}); take a new snapshot to compare with"
            ));
        };
        // Both lists are sorted by id: one merge.
        let mut diff = SnapshotDiff {
            since: Some(since),
            ..SnapshotDiff::default()
        };
        let (mut then, mut now) = (base.iter().peekable(), current.iter().peekable());
        loop {
            match (then.peek(), now.peek()) {
                (Some(b), Some(c)) if b.id == c.id => {
                    if c.returned && c.differs(b) {
                        diff.changed.push(c.id);
                    }
                    then.next();
                    now.next();
                }
                (Some(b), c) if c.is_none_or(|c| b.id < c.id) => {
                    diff.removed.push(b.id);
                    then.next();
                }
                (_, Some(c)) => {
                    if c.returned {
                        diff.added.push(c.id);
                    }
                    now.next();
                }
                _ => break,
            }
        }
        Ok(diff)
    }
}

/// Orders fingerprints by id, as [`History`] wants them.
pub fn sort_by_id(prints: &mut Vec<Fingerprint>) {
    radix_sort_by_id(prints);
}

/// LSD radix sort on the id, one byte per pass: linear time, stable, and a
/// few hundred bytes of WebAssembly where a `sort_unstable` instance costs
/// kilobytes (the engine's size budget, see README). The walker hands out
/// ids in document order, so the list is often sorted already (checked
/// first), and passes whose byte is the same everywhere are skipped.
fn radix_sort_by_id(v: &mut Vec<Fingerprint>) {
    if v.windows(2).all(|w| w[0].id <= w[1].id) {
        return;
    }
    let mut out = v.clone();
    for shift in [0u32, 8, 16, 24] {
        let digit = |p: &Fingerprint| ((p.id >> shift) & 0xff) as usize;
        let mut start = [0usize; 256];
        for p in v.iter() {
            start[digit(p)] += 1;
        }
        if start.contains(&v.len()) {
            continue;
        }
        let mut at = 0;
        for slot in start.iter_mut() {
            let count = *slot;
            *slot = at;
            at += count;
        }
        for p in v.iter() {
            let d = digit(p);
            if let Some(dst) = out.get_mut(start[d]) {
                *dst = *p;
            }
            start[d] += 1;
        }
        std::mem::swap(v, &mut out);
    }
}

#[cfg(test)]
mod tests;
