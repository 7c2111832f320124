//! The snapshot as this crate reads it: the specs/001 contract plus the
//! `state` addition (see snapshot.schema.json). Reading is lenient on
//! purpose: snapshots from other producers may lack `state`, `visual_cues`
//! or `meta`, and newer ones may carry fields we do not know; every missing
//! field takes its neutral default and unknown fields are ignored.

use serde::Deserialize;
use std::fmt;

/// An element id: a specs/001 integer, or a specs/004 string (the agent
/// server formats both shapes).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Id {
    Num(u64),
    Str(String),
}

impl Default for Id {
    fn default() -> Self {
        Id::Num(0)
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Id::Num(n) => write!(f, "{n}"),
            Id::Str(s) => f.write_str(s),
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct BBox {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct VisualCues {
    pub is_primary: bool,
    pub background_color_name: Option<String>,
    pub is_clickable: bool,
}

/// `state.checked`: checkboxes, radios and switches; `"mixed"` for the
/// indeterminate state (aria-checked="mixed").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checked {
    True,
    False,
    Mixed,
}

impl<'de> Deserialize<'de> for Checked {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            B(bool),
            S(String),
        }
        match Raw::deserialize(d)? {
            Raw::B(true) => Ok(Checked::True),
            Raw::B(false) => Ok(Checked::False),
            Raw::S(s) if s == "mixed" => Ok(Checked::Mixed),
            Raw::S(s) => Err(serde::de::Error::custom(format!(
                "state.checked must be true, false or \"mixed\", not \"{s}\""
            ))),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct SelectOption {
    pub text: String,
    pub value: String,
    pub selected: bool,
}

/// Addition to specs/001: keys appear only when meaningful, so absence is
/// the neutral value (`disabled`/`required` false, the others unknown).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct State {
    pub disabled: bool,
    pub checked: Option<Checked>,
    pub selected: Option<bool>,
    pub expanded: Option<bool>,
    pub required: bool,
    pub value: Option<String>,
    pub options: Vec<SelectOption>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Element {
    pub id: Id,
    pub role: String,
    pub text: Option<String>,
    pub importance: f64,
    pub bbox: BBox,
    pub visual_cues: VisualCues,
    pub in_viewport: bool,
    pub is_occluded: bool,
    pub z_index: f64,
    pub state: State,
    /// Not in any snapshot: extra `key="value"` facts a caller wants shown by
    /// `format` after the state (the agent server adds `type`, `href`, …).
    #[serde(skip)]
    pub hints: Vec<(String, String)>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Viewport {
    pub width: f64,
    pub height: f64,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Snapshot {
    /// "success" or "error" (specs/001); absent in other producers' output.
    pub status: Option<String>,
    pub error: Option<String>,
    pub url: String,
    pub viewport: Option<Viewport>,
    pub elements: Vec<Element>,
}

impl Snapshot {
    /// Reads snapshot JSON text. An error result (`{"status":"error"}`) is
    /// refused with its own message rather than read as an empty page.
    pub fn from_json(text: &str) -> Result<Snapshot, String> {
        if !text.trim_start().starts_with('{') {
            return Err("a snapshot must be a JSON object".into());
        }
        let s: Snapshot =
            serde_json::from_str(text).map_err(|e| format!("invalid snapshot: {e}"))?;
        s.checked()
    }

    pub fn from_value(value: serde_json::Value) -> Result<Snapshot, String> {
        if !value.is_object() {
            return Err("a snapshot must be a JSON object".into());
        }
        let s: Snapshot =
            serde_json::from_value(value).map_err(|e| format!("invalid snapshot: {e}"))?;
        s.checked()
    }

    fn checked(self) -> Result<Snapshot, String> {
        if self.status.as_deref() == Some("error") {
            let msg = self.error.as_deref().unwrap_or("");
            return Err(format!("the snapshot is an error result: {msg}"));
        }
        Ok(self)
    }
}

/// The order of both query results and the format: importance descending,
/// then top to bottom (bbox.y), then id order for a deterministic tie-break.
pub fn rank_order(elements: &[Element]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..elements.len()).collect();
    order.sort_by(|&a, &b| rank_cmp(elements, a, b));
    order
}

/// `rank_order`'s comparison of elements `a` and `b` (a total order).
pub(crate) fn rank_cmp(elements: &[Element], a: usize, b: usize) -> std::cmp::Ordering {
    let (ea, eb) = (&elements[a], &elements[b]);
    eb.importance
        .total_cmp(&ea.importance)
        .then(ea.bbox.y.total_cmp(&eb.bbox.y))
        .then(a.cmp(&b))
}

/// The format's order: what is in the viewport first, then the rest, each in
/// `rank_order`. The contract's importance already takes 500 off an
/// off-screen element, yet role priority can outweigh that (an off-screen
/// `role="button"` card scores above an in-view header link, as on real
/// news front pages), and when the token budget cuts the listing, an agent
/// needs what it can act on now more than what it would first scroll to.
pub fn listing_order(elements: &[Element]) -> Vec<usize> {
    let (mut order, offscreen): (Vec<usize>, Vec<usize>) = rank_order(elements)
        .into_iter()
        .partition(|&i| elements[i].in_viewport);
    order.extend(offscreen);
    order
}
