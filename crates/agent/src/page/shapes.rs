//! The two snapshot shapes /step accepts, read onto the one page model:
//! - the snapshot of docs/contracts/snapshot.md (numeric ids, role, bbox,
//!   cues, state) with the run loop's additions: per element its
//!   [`DomFacts`], and the page's `title` and `visibleText` (as in the run
//!   API's PageSnapshot, so a policy sees what is not an element: "Welcome,
//!   alice!");
//! - the run API's PageSnapshot (docs/contracts/run-api.md §12: string ids,
//!   tag, type, text), an adapter: each element becomes a model `Element`
//!   whose role the engine's own markup rules give
//!   (`sentience_snapshot_core::observed::role_of_markup`), its facts the
//!   ElementInfo fields.

use super::probe::{Present, Probe};
use super::{Page, SnapshotShape};
use crate::types::BBox;
use sentience_snapshot_core::observed::role_of_markup;
use sentience_snapshot_core::{DomFacts, Element, ElementState, Observed, Snapshot};
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::Value;

pub(super) fn from_value(v: &Value) -> Result<Page, String> {
    let obj = v.as_object().ok_or("snapshot must be an object or null")?;
    let elements = obj.get("elements").and_then(Value::as_array);
    let numeric_ids = elements
        .map(|els| {
            els.iter()
                .any(|e| e.get("id").is_some_and(Value::is_number))
        })
        .unwrap_or(false);
    let sentience = numeric_ids || obj.contains_key("status") || obj.contains_key("viewport");
    if sentience {
        // Deserialize from the borrowed value: no deep copy of the snapshot.
        let shape_error = |e: serde_json::Error| format!("snapshot (contract shape): {e}");
        let additions = RunAdditions::deserialize(v).map_err(shape_error)?;
        let snapshot = match Snapshot::deserialize(v) {
            Ok(s) => s,
            Err(e) => without_malformed_states(v.clone()).ok_or_else(|| shape_error(e))?,
        };
        Ok(contract_parts(snapshot, additions))
    } else {
        let s = PageSnapshot::deserialize(v)
            .map_err(|e| format!("snapshot (run API PageSnapshot): {e}"))?;
        Ok(s.into_page())
    }
}

/// A snapshot's JSON text: in one pass when it is well formed
/// (`one_pass.rs`), else read carefully, which also words the error.
pub(super) fn from_str(json: &str) -> Result<(Page, bool), String> {
    match super::one_pass::read(json) {
        Some(read) => Ok(read),
        None => from_str_careful(json),
    }
}

/// The careful reader: the shape from a probe, then the run loop's
/// additions and the model read apart (three passes); a malformed element
/// `state` is dropped rather than failing the step. Every error message
/// /step gives for a snapshot comes from here.
pub(super) fn from_str_careful(json: &str) -> Result<(Page, bool), String> {
    let probe: Probe = serde_json::from_str(json).map_err(|e| {
        if json.trim_start().starts_with('{') {
            format!("snapshot: {e}")
        } else {
            "snapshot must be an object or null".to_string()
        }
    })?;
    let sentience = probe.elements.0 || probe.status.0 || probe.viewport.0;
    let page = if sentience {
        let shape_error = |e: serde_json::Error| format!("snapshot (contract shape): {e}");
        let additions = serde_json::from_str::<RunAdditions>(json).map_err(shape_error)?;
        let snapshot = match serde_json::from_str(json) {
            Ok(s) => s,
            Err(e) => serde_json::from_str(json)
                .ok()
                .and_then(without_malformed_states)
                .ok_or_else(|| shape_error(e))?,
        };
        contract_parts(snapshot, additions)
    } else {
        serde_json::from_str::<PageSnapshot>(json)
            .map_err(|e| format!("snapshot (run API PageSnapshot): {e}"))?
            .into_page()
    };
    Ok((page, probe.screenshot.0))
}

/// What the run loop adds to a contract snapshot (read in its own pass,
/// beside the model). Also where /step's own requirements are checked:
/// `url` and `elements` present, and each element's `id` and `role`.
#[derive(Deserialize)]
struct RunAdditions {
    #[allow(dead_code)] // required; its value is read by the model
    url: IgnoredAny,
    elements: Vec<ElementAdditions>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default, rename = "visibleText")]
    visible_text: Option<String>,
    /// Whether the snapshot has a viewport (the model reads a missing one as 0×0).
    #[serde(default)]
    viewport: Present,
}

#[derive(Deserialize)]
struct ElementAdditions {
    #[allow(dead_code)] // required; its value is read by the model
    id: IgnoredAny,
    #[allow(dead_code)] // required; its value is read by the model
    role: IgnoredAny,
    #[serde(flatten)]
    facts: DomFacts,
}

/// The snapshot read again with each element's malformed `state` dropped:
/// a run goes on without the state of an element rather than failing the
/// step (the query crate, reading for a page script, refuses it instead).
/// Only on the error path: `None` when the snapshot is still unreadable.
fn without_malformed_states(mut v: Value) -> Option<Snapshot> {
    let elements = v.get_mut("elements")?.as_array_mut()?;
    for e in elements.iter_mut().filter_map(Value::as_object_mut) {
        let malformed = e
            .get("state")
            .is_some_and(|st| ElementState::deserialize(st).is_err());
        if malformed {
            e.remove("state");
        }
    }
    Snapshot::deserialize(&v).ok()
}

fn contract_parts(snapshot: Snapshot, additions: RunAdditions) -> Page {
    let elements: Vec<Observed> = snapshot
        .elements
        .into_iter()
        .zip(additions.elements)
        .map(|(element, more)| Observed {
            element,
            facts: more.facts,
        })
        .collect();
    let viewport_height = additions.viewport.0.then_some(snapshot.viewport.height);
    contract_page(
        snapshot.url,
        additions.title,
        additions.visible_text,
        elements,
        viewport_height,
    )
}

/// The page of a contract snapshot from what both readers read.
pub(super) fn contract_page(
    url: String,
    title: Option<String>,
    visible_text: Option<String>,
    elements: Vec<Observed>,
    viewport_height: Option<f64>,
) -> Page {
    let visible_text = visible_text.unwrap_or_else(|| {
        elements
            .iter()
            .map(Observed::text)
            .filter(|t| !t.is_empty())
            .collect::<Vec<_>>()
            .join("\n")
    });
    let (visible_text, line_starts) = super::flatten(visible_text);
    Page {
        shape: SnapshotShape::Sentience,
        url,
        title: title.unwrap_or_default(),
        visible_text,
        line_starts,
        elements,
        viewport_height,
        string_ids: Vec::new(),
    }
}

/// `s.to_lowercase()`, without a copy when it is already: tags arrive in
/// lower case (DOM `localName`), and this runs on every element at every
/// /step.
pub(super) fn lowercase(s: String) -> String {
    if s.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase()) {
        s
    } else {
        s.to_lowercase()
    }
}

/// docs/contracts/run-api.md §12. `url` and `elements` are required; the rest
/// defaults, since the extension may trim them.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct PageSnapshot {
    pub(super) url: String,
    #[serde(default)]
    pub(super) title: Option<String>,
    #[serde(default)]
    pub(super) visible_text: Option<String>,
    pub(super) elements: Vec<ElementInfo>,
}

/// docs/contracts/run-api.md §12: `id` and `tag` required.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ElementInfo {
    pub(super) id: String,
    pub(super) tag: String,
    pub(super) role: Option<String>,
    pub(super) text: Option<String>,
    pub(super) aria_label: Option<String>,
    pub(super) placeholder: Option<String>,
    #[serde(rename = "type")]
    pub(super) input_type: Option<String>,
    pub(super) value: Option<String>,
    pub(super) href: Option<String>,
    pub(super) disabled: Option<bool>,
    pub(super) name: Option<String>,
    pub(super) bbox: Option<BBox>,
}

impl PageSnapshot {
    pub(super) fn into_page(self) -> Page {
        let mut string_ids = Vec::with_capacity(self.elements.len());
        let elements = self
            .elements
            .into_iter()
            .enumerate()
            .map(|(pos, e)| {
                string_ids.push(e.id);
                let tag = lowercase(e.tag);
                let input_type = sentience_snapshot_core::observed::default_type(
                    &tag,
                    &e.input_type.unwrap_or_default(),
                );
                let role_attr = e.role.unwrap_or_default();
                let href = e.href.unwrap_or_default();
                // A role word the contract knows is taken as is; any other
                // (an ARIA role such as "tab") goes through the engine's rules.
                let role = sentience_snapshot_core::Role::parse(&role_attr).unwrap_or_else(|| {
                    role_of_markup(
                        &tag,
                        &input_type,
                        &role_attr,
                        !href.is_empty() || tag == "a",
                    )
                });
                let facts = DomFacts {
                    tag,
                    input_type,
                    name: e.name.unwrap_or_default(),
                    placeholder: e.placeholder.unwrap_or_default(),
                    value: e.value.unwrap_or_default(),
                    href,
                    aria_label: e.aria_label.unwrap_or_default(),
                    aria_role: sentience_snapshot_core::observed::first_role(&role_attr),
                    disabled: e.disabled.unwrap_or(false),
                    hint: String::new(),
                    read_only: false,
                    form: 0,
                    suggests: false,
                    has_popup: false,
                    row: String::new(),
                };
                let element = Element {
                    id: u32::try_from(pos).unwrap_or(u32::MAX),
                    role,
                    text: e.text.filter(|t| !t.is_empty()),
                    bbox: e.bbox.unwrap_or_default(),
                    ..Element::default()
                };
                Observed { element, facts }
            })
            .collect();
        let (visible_text, line_starts) = super::flatten(self.visible_text.unwrap_or_default());
        Page {
            shape: SnapshotShape::Agent,
            url: self.url,
            title: self.title.unwrap_or_default(),
            visible_text,
            line_starts,
            elements,
            viewport_height: None,
            string_ids,
        }
    }
}
