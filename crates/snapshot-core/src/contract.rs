//! The snapshot model: the one set of types for the result of
//! `window.sentience.snapshot()` (docs/contracts/snapshot.md), field names
//! exactly as the contract spells them.
//!
//! - **Writing** is strict: the engine fills every field, and
//!   `json/writer.rs` writes them byte for byte as `serde_json` would with
//!   the derives below (fields the contract marks optional on `Element`, such
//!   as `in_viewport`, are always written, so consumers never need defaults).
//! - **Reading** ([`Snapshot::from_json`], for host code: the query crate,
//!   the agent) is lenient where the contract is: a missing field takes the
//!   contract's default (§6: `in_viewport` true, `is_occluded` false,
//!   `z_index` 0; our additions `state`, `meta`… their neutral values), and
//!   unknown keys are ignored (other producers, newer versions); a present
//!   field of the wrong type or an unknown role is an error.
//! - `snapshot.schema.json` and `sentience.d.ts` describe the same types for
//!   JSON Schema and TypeScript users; `tests/model_agreement.rs` fails when
//!   either disagrees with these types, field by field.

use serde::{Deserialize, Serialize};

/// docs/contracts/snapshot.md §6.2 "Role": the only values the contract allows
/// (docs/contracts/snapshot.md §6.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Button,
    Link,
    Textbox,
    Searchbox,
    Checkbox,
    Radio,
    Combobox,
    Image,
    #[default]
    Generic,
}

impl Role {
    pub const ALL: [Role; 9] = [
        Role::Button,
        Role::Link,
        Role::Textbox,
        Role::Searchbox,
        Role::Checkbox,
        Role::Radio,
        Role::Combobox,
        Role::Image,
        Role::Generic,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Button => "button",
            Role::Link => "link",
            Role::Textbox => "textbox",
            Role::Searchbox => "searchbox",
            Role::Checkbox => "checkbox",
            Role::Radio => "radio",
            Role::Combobox => "combobox",
            Role::Image => "image",
            Role::Generic => "generic",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// docs/contracts/snapshot.md §6.6 `is_clickable`: the roles that make an
    /// element a click target by themselves (an "actionable role").
    pub fn is_actionable(self) -> bool {
        matches!(
            self,
            Role::Button | Role::Link | Role::Checkbox | Role::Radio | Role::Combobox
        )
    }

    /// The roles of fields that hold what the user typed or chose
    /// (`state.value`, docs/contracts/snapshot.md §11.2).
    pub fn holds_value(self) -> bool {
        matches!(self, Role::Textbox | Role::Searchbox | Role::Combobox)
    }
}

/// docs/contracts/snapshot.md §4: viewport coordinates, CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BBox {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl BBox {
    /// The centre point, where a click lands.
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

/// docs/contracts/snapshot.md §5.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct VisualCues {
    pub is_primary: bool,
    pub background_color_name: Option<String>,
    pub is_clickable: bool,
}

/// docs/contracts/snapshot.md §3.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Element {
    pub id: u32,
    pub role: Role,
    pub text: Option<String>,
    pub importance: i32,
    pub bbox: BBox,
    pub visual_cues: VisualCues,
    pub in_viewport: bool,
    pub is_occluded: bool,
    pub z_index: i32,
    /// Addition to docs/contracts/snapshot.md §11.2: the element's interaction state. Always
    /// written; absent in snapshots from other producers.
    pub state: ElementState,
}

/// What a reader assumes for a missing key (docs/contracts/snapshot.md §6:
/// `in_viewport` defaults to true; everything else to zero, false or none).
impl Default for Element {
    fn default() -> Self {
        Element {
            id: 0,
            role: Role::Generic,
            text: None,
            importance: 0,
            bbox: BBox::default(),
            visual_cues: VisualCues::default(),
            in_viewport: true,
            is_occluded: false,
            z_index: 0,
            state: ElementState::default(),
        }
    }
}

/// Addition to docs/contracts/snapshot.md §11: what an agent needs to know before acting on an
/// element (is it disabled, checked, open, what does it hold). Each key is
/// present only when meaningful for the element (see [`crate::state`]).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ElementState {
    /// Only ever `Some(true)`: absent means enabled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disabled: Option<bool>,
    /// Checkboxes, radios and switches (native or ARIA).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checked: Option<Checked>,
    /// Options, tabs, tree items (`aria-selected`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selected: Option<bool>,
    /// `aria-expanded`, or a `<summary>`'s `<details>` open/closed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expanded: Option<bool>,
    /// Only ever `Some(true)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    /// Current value of a text field, select or combobox (never a
    /// password's), at most [`crate::state::MAX_VALUE_CHARS`] characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// A `<select>`'s or ARIA listbox's options, at most
    /// [`crate::state::MAX_OPTIONS`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<SelectOption>>,
}

impl ElementState {
    /// `disabled`, absent meaning enabled.
    pub fn is_disabled(&self) -> bool {
        self.disabled == Some(true)
    }

    /// `required`, absent meaning not required.
    pub fn is_required(&self) -> bool {
        self.required == Some(true)
    }

    /// `options`, absent meaning none.
    pub fn options(&self) -> &[SelectOption] {
        self.options.as_deref().unwrap_or_default()
    }
}

/// `checked`: `true`, `false` or `"mixed"` (WAI-ARIA 1.2 `aria-checked`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Checked {
    Bool(bool),
    Mixed(Mixed),
}

/// Read by hand: serde's untagged enums buffer the value first, which
/// costs the query module's WebAssembly ~10 KB, and name no field on error.
impl<'de> Deserialize<'de> for Checked {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Checked;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("state.checked: true, false or \"mixed\"")
            }
            fn visit_bool<E: serde::de::Error>(self, b: bool) -> Result<Checked, E> {
                Ok(Checked::Bool(b))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Checked, E> {
                match s {
                    "mixed" => Ok(Checked::MIXED),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Str(s), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

impl Checked {
    pub const TRUE: Checked = Checked::Bool(true);
    pub const FALSE: Checked = Checked::Bool(false);
    pub const MIXED: Checked = Checked::Mixed(Mixed::Mixed);
}

/// The string `"mixed"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mixed {
    Mixed,
}

/// One option of a `<select>` or ARIA listbox.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct SelectOption {
    pub text: String,
    pub value: String,
    pub selected: bool,
}

/// The page's viewport, CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Viewport {
    pub width: f64,
    pub height: f64,
}

/// What the engine says about its own run, so nothing is ever dropped
/// silently (an addition to docs/contracts/snapshot.md §11.5; extra top-level keys are allowed).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct SnapshotMeta {
    /// Elements the walker looked at (the whole document, hidden subtrees excluded).
    pub elements_scanned: u32,
    /// Actionable elements found before `filter` and `limit`.
    pub candidates: u32,
    /// Candidates removed by `filter`.
    pub filtered_out: u32,
    /// Candidates removed by `limit` (the lowest ranked).
    pub truncated_by_limit: u32,
    /// Where the WebAssembly ran: "content_script" or "service_worker".
    pub engine_path: String,
    /// Engine version (crate version).
    pub engine_version: String,
    /// Addition: how the `wait_for_stable` wait went, when asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stability: Option<Stability>,
}

/// Addition to docs/contracts/snapshot.md §11.5: the outcome of `wait_for_stable`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stability {
    /// The DOM was quiet for `quiet_ms` before the walk (false: `timeout_ms` hit first).
    pub settled: bool,
    /// How long the bridge waited before the walk.
    pub waited_ms: u32,
    pub quiet_ms: u32,
    pub timeout_ms: u32,
}

/// Addition to docs/contracts/snapshot.md §11.3: what changed since snapshot
/// `since` (see [`crate::diff`]).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct SnapshotDiff {
    /// The snapshot compared with; `None` when the page had none before.
    pub since: Option<u32>,
    pub added: Vec<u32>,
    pub removed: Vec<u32>,
    pub changed: Vec<u32>,
}

/// docs/contracts/snapshot.md §2 for a successful snapshot.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Snapshot {
    pub status: String,
    pub timestamp: String,
    pub url: String,
    pub viewport: Viewport,
    pub elements: Vec<Element>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub screenshot: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub screenshot_format: Option<String>,
    pub meta: SnapshotMeta,
    /// Addition: this snapshot's number within the page's life.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<u32>,
    /// Addition: present when `diff` or `since` was asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<SnapshotDiff>,
    /// Addition: which iframes were merged in and which were skipped;
    /// absent with `frames: false`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frames: Option<FrameCoverage>,
}

/// Addition to docs/contracts/snapshot.md §11.4: the iframes of a
/// snapshot. The bridge gathers them (extension/content/frames.js) and
/// hands the engine this report with the walks; the engine writes it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct FrameCoverage {
    pub included: Vec<IncludedFrame>,
    pub skipped: Vec<SkippedFrame>,
}

/// A frame whose elements are in the snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct IncludedFrame {
    pub url: String,
    /// 1: a frame of the top page; 2: a frame inside one of those; …
    pub depth: u32,
    /// `direct` (walked by its same-origin parent) or `message`.
    pub via: String,
}

/// A frame that contributed nothing, and why (the reasons are listed in
/// snapshot.schema.json `Frames`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct SkippedFrame {
    pub url: String,
    pub reason: String,
}

/// docs/contracts/snapshot.md §8.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SnapshotError {
    pub status: String,
    pub error: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requires_license: Option<bool>,
}

impl SnapshotError {
    pub fn new(error: impl Into<String>) -> Self {
        SnapshotError {
            status: "error".into(),
            error: error.into(),
            requires_license: None,
        }
    }
}

/// Reading a snapshot (see the module doc for what is lenient).
impl Snapshot {
    /// Reads snapshot JSON text. An error result (`{"status":"error"}`) is
    /// refused with its own message rather than read as an empty page.
    pub fn from_json(text: &str) -> Result<Snapshot, String> {
        if !text.trim_start().starts_with('{') {
            return Err("a snapshot must be a JSON object".into());
        }
        let s: Snapshot =
            serde_json::from_str(text).map_err(|e| format!("invalid snapshot: {e}"))?;
        if s.status == "error" {
            return Err(error_result(serde_json::from_str(text).ok()));
        }
        Ok(s)
    }

    /// [`Snapshot::from_json`] of an already parsed value.
    pub fn from_value(value: &serde_json::Value) -> Result<Snapshot, String> {
        if !value.is_object() {
            return Err("a snapshot must be a JSON object".into());
        }
        let s = Snapshot::deserialize(value).map_err(|e| format!("invalid snapshot: {e}"))?;
        if s.status == "error" {
            return Err(error_result(SnapshotError::deserialize(value).ok()));
        }
        Ok(s)
    }
}

fn error_result(e: Option<SnapshotError>) -> String {
    let msg = e.map(|e| e.error).unwrap_or_default();
    format!("the snapshot is an error result: {msg}")
}

#[cfg(test)]
mod client_models;
#[cfg(test)]
mod tests;
