//! What the client reads from the tool server's page snapshot
//! (`GET /browser/snapshot`, the snapshot contract, docs/contracts/snapshot.md; docs/api.md): a
//! fingerprint that is equal when nothing visible changed, and the
//! clickable elements near a point.

use serde_json::Value;

/// The snapshot object, whether the server sent it bare or wrapped in
/// `{"success": true, "snapshot": {…}}`.
pub fn snapshot_of(v: &Value) -> Option<&Value> {
    if v.get("elements").is_some_and(Value::is_array) {
        return Some(v);
    }
    v.get("snapshot")
        .filter(|s| s.get("elements").is_some_and(Value::is_array))
}

/// FNV-1a over the URL and every element's role, text, box and cues: the
/// facts a user sees. Not the screenshot and no timestamps, which change
/// when nothing else does.
pub fn fingerprint(snapshot: &Value) -> String {
    fingerprint_with_text(snapshot, "")
}

/// [`fingerprint`] plus the page's text outside elements (a status line
/// that says "Saved"), e.g. the accessibility tree of `GET /browser/dom/tree`.
pub fn fingerprint_with_text(snapshot: &Value, text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |s: &str| {
        for b in s.bytes().chain(std::iter::once(0xff)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    eat(snapshot["url"].as_str().unwrap_or(""));
    eat(text);
    if let Some(els) = snapshot["elements"].as_array() {
        for e in els {
            for key in [
                "id",
                "role",
                "text",
                "bbox",
                "visual_cues",
                "value",
                "state",
            ] {
                if let Some(v) = e.get(key) {
                    eat(&v.to_string());
                }
            }
        }
    }
    format!("{h:016x}")
}

/// An element's box in viewport pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl Rect {
    pub fn from_json(v: &Value) -> Option<Rect> {
        Some(Rect {
            x: v["x"].as_f64()?,
            y: v["y"].as_f64()?,
            width: v["width"].as_f64()?,
            height: v["height"].as_f64()?,
        })
    }
    pub fn center(&self) -> (f64, f64) {
        (self.x + self.width / 2.0, self.y + self.height / 2.0)
    }
    /// Distance from the point to the box (0 inside).
    pub fn distance_to(&self, x: f64, y: f64) -> f64 {
        let dx = (self.x - x).max(0.0).max(x - (self.x + self.width));
        let dy = (self.y - y).max(0.0).max(y - (self.y + self.height));
        dx.hypot(dy)
    }
}

const CLICKABLE_ROLES: &[&str] = &[
    "button",
    "link",
    "checkbox",
    "radio",
    "menuitem",
    "tab",
    "option",
    "switch",
    "combobox",
    "textbox",
    "searchbox",
];

pub fn is_clickable_role(role: &str) -> bool {
    CLICKABLE_ROLES.contains(&role)
}

/// The clickable, visible element whose box is nearest to (x, y) and at
/// most `radius` away from it.
pub fn nearest_clickable(snapshot: &Value, x: f64, y: f64, radius: f64) -> Option<Rect> {
    let els = snapshot["elements"].as_array()?;
    els.iter()
        .filter(|e| is_clickable_role(e["role"].as_str().unwrap_or("")))
        .filter(|e| e["in_viewport"].as_bool() != Some(false))
        .filter(|e| e["is_occluded"].as_bool() != Some(true))
        .filter_map(|e| Rect::from_json(&e["bbox"]))
        .filter(|r| r.width > 0.0 && r.height > 0.0)
        .map(|r| (r.distance_to(x, y), r))
        .filter(|(d, _)| *d <= radius)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, r)| r)
}
