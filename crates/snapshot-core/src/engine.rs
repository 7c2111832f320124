//! The snapshot pipeline: raw page → contract snapshot (docs/contracts/snapshot.md).
//!
//! select candidates → score (viewport, occlusion, primary, importance) →
//! filter → sort → limit → only then build the output elements (text and
//! colour names), so the expensive, allocating part runs only for what is
//! returned.

use crate::color::ColorCache;
use crate::contract::{
    Element, Role, Snapshot, SnapshotError, SnapshotMeta, Stability, VisualCues,
};
use crate::cues::{is_clickable, primary_flags};
use crate::diff::{sort_by_id, Fingerprint, History};
use crate::frame_report::decode_report;
use crate::importance::{importance, Factors};
use crate::json_out::{error_to_json, snapshot_to_json};
use crate::occlusion::{in_viewport, visible_rect, OcclusionIndex};
use crate::options::{Filter, ScreenshotSpec, SnapshotOptions};
use crate::raw::{
    decode, RawNode, RawPage, T_FRAMES, T_PREVIOUS_ID, T_SETTLED, T_SNAPSHOT_ID, T_WAITED_MS,
};
use crate::select::select_candidates;
use crate::state::state_of;
use crate::text::text_of;
use std::cmp::Ordering;

/// A candidate with everything ranking needs, and nothing allocated.
struct Scored<'a> {
    index: usize,
    node: &'a RawNode,
    role: Role,
    importance: i32,
    is_primary: bool,
    in_viewport: bool,
    is_occluded: bool,
}

/// Runs the engine on a decoded page.
pub fn snapshot(page: &RawPage, opts: &SnapshotOptions, engine_path: &str) -> Snapshot {
    run(page, opts, engine_path, None)
}

/// What the caller (the bridge) knows about this snapshot within its page.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Tracking {
    /// This snapshot's id (`snapshot_id`), increasing within the page's life.
    pub snapshot_id: u32,
    /// The page's previous successful snapshot, 0 when none.
    pub previous_id: u32,
    /// `(waited_ms, settled)` when `wait_for_stable` ran.
    pub waited: Option<(u32, bool)>,
    /// The bridge gathered the page's frames: the answer reports them.
    pub frames: bool,
}

impl Tracking {
    /// From the binding's numbers: `waited_ms` < 0 means no wait.
    pub fn new(snapshot_id: u32, previous_id: u32, waited_ms: i32, settled: bool) -> Tracking {
        Tracking {
            snapshot_id,
            previous_id,
            waited: u32::try_from(waited_ms).ok().map(|ms| (ms, settled)),
            frames: false,
        }
    }

    /// From the binding's tracking argument, laid out as the `T_*` columns
    /// of [`crate::raw`]; missing or malformed numbers read as "none".
    pub fn from_wire(t: &[f64]) -> Tracking {
        // `as` saturates (NaN: 0): any number is some id.
        let at = |i: usize| t.get(i).copied().unwrap_or(0.0);
        Tracking {
            frames: at(T_FRAMES) != 0.0,
            ..Tracking::new(
                at(T_SNAPSHOT_ID) as u32,
                at(T_PREVIOUS_ID) as u32,
                t.get(T_WAITED_MS).map_or(-1, |v| *v as i32),
                at(T_SETTLED) != 0.0,
            )
        }
    }
}

/// [`snapshot`] within a page's life: numbers it, records its fingerprints
/// in `history`, and adds the diff and the stability report when asked.
pub fn snapshot_tracked(
    page: &RawPage,
    opts: &SnapshotOptions,
    engine_path: &str,
    tracking: Tracking,
    history: &mut History,
) -> Result<Snapshot, String> {
    let mut prints = Vec::new();
    let mut snap = run(page, opts, engine_path, Some(&mut prints));
    sort_by_id(&mut prints);
    if opts.wants_diff() {
        let since = opts.since.unwrap_or(tracking.previous_id);
        snap.diff = Some(history.diff(since, &prints)?);
    }
    if let (Some((waited_ms, settled)), Some((quiet_ms, timeout_ms))) =
        (tracking.waited, opts.stable_timing())
    {
        snap.meta.stability = Some(Stability {
            settled,
            waited_ms,
            quiet_ms,
            timeout_ms,
        });
    }
    if tracking.snapshot_id > 0 {
        snap.snapshot_id = Some(tracking.snapshot_id);
        history.record(tracking.snapshot_id, prints);
    }
    Ok(snap)
}

fn run(
    page: &RawPage,
    opts: &SnapshotOptions,
    engine_path: &str,
    prints: Option<&mut Vec<Fingerprint>>,
) -> Snapshot {
    let candidates = select_candidates(page);
    let primary = primary_flags(page, &candidates);
    let occlusion = OcclusionIndex::build(page);
    let mut scored: Vec<Scored> = candidates
        .iter()
        .zip(primary.iter().copied().chain(std::iter::repeat(false)))
        .filter_map(|(c, is_primary)| {
            let index = c.index as usize;
            let node = page.nodes.get(index)?;
            let in_viewport = in_viewport(node, page.viewport);
            // docs/contracts/snapshot.md §6.8 "covered by overlay": only asked
            // of what is on screen.
            let is_occluded = in_viewport && occlusion.is_occluded(page, index);
            let importance = importance(Factors {
                role: c.role,
                visible_area: visible_rect(node).area(),
                is_primary,
                in_viewport,
                is_occluded,
            });
            Some(Scored {
                index,
                node,
                role: c.role,
                importance,
                is_primary,
                in_viewport,
                is_occluded,
            })
        })
        .collect();
    let found = scored.len();
    // Fingerprints of every candidate (diffs are about the page, whatever
    // the filter and limit), marked `returned` below.
    let mut prints = prints;
    if let Some(prints) = prints.as_deref_mut() {
        prints.extend(
            scored
                .iter()
                .map(|s| Fingerprint::of(s.node, s.role, s.in_viewport, s.is_occluded)),
        );
    }
    let print_nodes: Vec<usize> = match prints {
        Some(_) => scored.iter().map(|s| s.index).collect(),
        None => Vec::new(),
    };
    if let Some(filter) = &opts.filter {
        scored.retain(|s| passes(filter, s));
    }
    let filtered_out = found - scored.len();
    sort_ranked(&mut scored);
    let limit = opts.limit.map_or(usize::MAX, |l| l as usize);
    let truncated = scored.len().saturating_sub(limit);
    scored.truncate(limit);
    if let Some(prints) = prints {
        let mut returned = vec![false; page.nodes.len()];
        for s in &scored {
            if let Some(r) = returned.get_mut(s.index) {
                *r = true;
            }
        }
        for (p, node) in prints.iter_mut().zip(&print_nodes) {
            p.returned = returned.get(*node).copied().unwrap_or(false);
        }
    }

    Snapshot {
        status: "success".into(),
        timestamp: page.timestamp.clone(),
        url: page.url.clone(),
        viewport: page.viewport,
        elements: {
            let mut colors = ColorCache::new();
            scored.iter().map(|s| element(s, &mut colors)).collect()
        },
        screenshot: None,
        screenshot_format: None,
        meta: SnapshotMeta {
            elements_scanned: page.elements_scanned,
            candidates: count(found),
            filtered_out: count(filtered_out),
            truncated_by_limit: count(truncated),
            engine_path: engine_path.into(),
            engine_version: crate::ENGINE_VERSION.into(),
            stability: None,
        },
        snapshot_id: None,
        diff: None,
        frames: None,
    }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The page's `filter` option; every given criterion must hold.
fn passes(f: &Filter, s: &Scored) -> bool {
    let area = s.node.rect.width * s.node.rect.height;
    f.min_area.is_none_or(|min| area >= min)
        && f.allowed_roles
            .as_ref()
            .is_none_or(|roles| roles.contains(&s.role))
        && f.min_z_index.is_none_or(|min| s.node.z_index >= min)
        && (f.in_viewport_only != Some(true) || s.in_viewport)
}

/// docs/contracts/snapshot.md §7: importance descending, then `bbox.y`
/// ascending (reading order). Then `bbox.x` and the id, and finally the
/// node index, so equal elements never swap between runs: a total order.
fn ranking(a: &Scored, b: &Scored) -> Ordering {
    b.importance
        .cmp(&a.importance)
        .then_with(|| a.node.rect.y.total_cmp(&b.node.rect.y))
        .then_with(|| a.node.rect.x.total_cmp(&b.node.rect.x))
        .then_with(|| a.node.stable_id.cmp(&b.node.stable_id))
        .then_with(|| a.index.cmp(&b.index))
}

/// Sorts by [`ranking`], in place (heapsort). Not `sort_unstable_by`: its
/// instance for `Scored` was 3.5 KB of the engine's WebAssembly (the size
/// budget, README), and `ranking` is a total order, so every correct sort
/// gives the same list.
fn sort_ranked(v: &mut [Scored]) {
    // Moves `v[root]` down the max-heap `v[..end]` to its place.
    fn sift(v: &mut [Scored], mut root: usize, end: usize) {
        loop {
            let mut child = 2 * root + 1;
            if child >= end {
                return;
            }
            if child + 1 < end && ranking(&v[child], &v[child + 1]) == Ordering::Less {
                child += 1;
            }
            if ranking(&v[root], &v[child]) != Ordering::Less {
                return;
            }
            v.swap(root, child);
            root = child;
        }
    }
    let n = v.len();
    for root in (0..n / 2).rev() {
        sift(v, root, n);
    }
    for end in (1..n).rev() {
        v.swap(0, end);
        sift(v, 0, end);
    }
}

fn element(s: &Scored, colors: &mut ColorCache) -> Element {
    Element {
        id: s.node.stable_id,
        role: s.role,
        text: text_of(s.node, s.role),
        importance: s.importance,
        bbox: s.node.rect,
        visual_cues: VisualCues {
            is_primary: s.is_primary,
            background_color_name: colors.background_name(s.node).map(str::to_string),
            is_clickable: is_clickable(s.node, s.role),
        },
        in_viewport: s.in_viewport,
        is_occluded: s.is_occluded,
        z_index: s.node.z_index,
        state: state_of(s.node, s.role),
    }
}

/// The whole boundary in one call: wire form + options JSON in, contract
/// JSON out (written by [`crate::json_out`], byte-identical to serde_json).
/// Every failure becomes the error response of docs/contracts/snapshot.md §8
/// (`{"status":"error","error":…}`); nothing here panics on page input.
pub fn snapshot_json(
    meta: &[f64],
    nums: &[f64],
    strs: &str,
    options_json: &str,
    engine_path: &str,
) -> String {
    let result = SnapshotOptions::parse(options_json).and_then(|opts| {
        let page = decode(meta, nums, strs).map_err(|e| e.to_string())?;
        Ok(snapshot_to_json(&snapshot(&page, &opts, engine_path)))
    });
    result.unwrap_or_else(|e| error_json(&e))
}

/// The binding's inputs, as the bridge hands them over: the walk in wire
/// form, the options' JSON text, and the bridge's iframe coverage report
/// ([`crate::frame_report`]; read when `Tracking::frames`).
#[derive(Debug, Clone, Copy)]
pub struct WireInput<'a> {
    pub meta: &'a [f64],
    pub nums: &'a [f64],
    pub strs: &'a str,
    pub options: &'a str,
    pub frames: &'a str,
}

/// One snapshot within a page's life from the binding's inputs (see
/// [`snapshot_tracked`]): the whole model, with the frame report, not yet
/// written, and the options it was taken with (whether a screenshot is to
/// be attached: [`attach_screenshot`]).
pub fn snapshot_from_wire(
    input: WireInput,
    engine_path: &str,
    tracking: Tracking,
    history: &mut History,
) -> Result<(Snapshot, SnapshotOptions), String> {
    let opts = SnapshotOptions::parse(input.options)?;
    let frames = match tracking.frames {
        true => Some(decode_report(input.frames)?),
        false => None,
    };
    let page = decode(input.meta, input.nums, input.strs).map_err(|e| e.to_string())?;
    let mut snap = snapshot_tracked(&page, &opts, engine_path, tracking, history)?;
    snap.frames = frames;
    Ok((snap, opts))
}

/// [`snapshot_from_wire`] written as JSON text (the contract's success
/// object, or docs/contracts/snapshot.md §8's error object).
pub fn snapshot_json_tracked(
    input: WireInput,
    engine_path: &str,
    tracking: Tracking,
    history: &mut History,
) -> String {
    match snapshot_from_wire(input, engine_path, tracking, history) {
        Ok((snap, _)) => snapshot_to_json(&snap),
        Err(e) => error_json(&e),
    }
}

/// The screenshot the service worker captured for `snap`, in the format
/// the options asked for (docs/contracts/snapshot.md §2 `screenshot`,
/// `screenshot_format`).
pub fn attach_screenshot(snap: &mut Snapshot, spec: &ScreenshotSpec, data_url: &str) {
    snap.screenshot = Some(data_url.to_string());
    snap.screenshot_format = Some(spec.format.as_str().to_string());
}

/// docs/contracts/snapshot.md §8 as JSON text.
pub fn error_json(message: &str) -> String {
    error_to_json(&SnapshotError::new(message))
}

#[cfg(test)]
mod tests;
