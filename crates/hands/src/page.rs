//! What the client reads from the tool server's page snapshot
//! (`GET /browser/snapshot`, the snapshot contract, docs/contracts/snapshot.md; docs/api.md): a
//! fingerprint that is equal when nothing visible changed, and the
//! clickable elements near a point. Snapshots are read through the one
//! snapshot model (sentience-snapshot-core `contract`), and what is
//! clickable is the engine's own decision (`visual_cues.is_clickable`).

use sentience_snapshot_core::contract::{BBox, Element, Snapshot};
use serde_json::Value;

/// The snapshot object as JSON, whether the server sent it bare or wrapped
/// in `{"success": true, "snapshot": {…}}`.
pub fn snapshot_json(v: &Value) -> Option<&Value> {
    if v.get("elements").is_some_and(Value::is_array) {
        return Some(v);
    }
    v.get("snapshot")
        .filter(|s| s.get("elements").is_some_and(Value::is_array))
}

/// The snapshot of a tool server answer ([`snapshot_json`]), read through
/// the snapshot model; `None` when there is none or it is not a snapshot.
pub fn snapshot_of(v: &Value) -> Option<Snapshot> {
    Snapshot::from_value(snapshot_json(v)?).ok()
}

/// FNV-1a over the URL and every element's role, text, box, cues and
/// state: the facts a user sees. Not the screenshot and no timestamps,
/// which change when nothing else does.
pub fn fingerprint(snapshot: &Snapshot) -> String {
    fingerprint_with_text(snapshot, "")
}

/// [`fingerprint`] plus the page's text outside elements (a status line
/// that says "Saved"), e.g. the accessibility tree of `GET /browser/dom/tree`.
pub fn fingerprint_with_text(snapshot: &Snapshot, text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |s: &str| {
        for b in s.bytes().chain(std::iter::once(0xff)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    eat(&snapshot.url);
    eat(text);
    for e in &snapshot.elements {
        let seen = (e.id, e.role, &e.text, e.bbox, &e.visual_cues, &e.state);
        eat(&serde_json::to_string(&seen).unwrap_or_default());
    }
    format!("{h:016x}")
}

/// A `{x, y, width, height}` object (e.g. `rect` of
/// `POST /coordinates/validate`) as a box, when all four are numbers.
pub fn bbox_of(v: &Value) -> Option<BBox> {
    Some(BBox {
        x: v["x"].as_f64()?,
        y: v["y"].as_f64()?,
        width: v["width"].as_f64()?,
        height: v["height"].as_f64()?,
    })
}

/// Something a click can reach: in the viewport, not covered, with a box.
pub fn is_reachable(e: &Element) -> bool {
    e.in_viewport && !e.is_occluded && e.bbox.width > 0.0 && e.bbox.height > 0.0
}

/// A click target: what the engine marked clickable (an actionable role,
/// a pointer cursor or an `onclick` handler, docs/contracts/snapshot.md
/// §6.6), a field one clicks to type into, or, from a producer that
/// leaves the cues out, an actionable role.
pub fn is_click_target(e: &Element) -> bool {
    e.visual_cues.is_clickable || e.role.is_actionable() || e.role.holds_value()
}

/// The reachable click target whose box is nearest to (x, y) and at most
/// `radius` away from it.
pub fn nearest_clickable(snapshot: &Snapshot, x: f64, y: f64, radius: f64) -> Option<BBox> {
    snapshot
        .elements
        .iter()
        .filter(|e| is_click_target(e) && is_reachable(e))
        .map(|e| (e.bbox.distance_to(x, y), e.bbox))
        .filter(|(d, _)| *d <= radius)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, r)| r)
}

#[cfg(test)]
mod tests;
