//! One page model for both snapshot shapes /step accepts: the
//! `PageSnapshot` of docs/contracts/run-api.md §12 (string ids, tag,
//! visibleText) and the snapshot of docs/contracts/snapshot.md (what
//! `window.sentience.snapshot()` returns: numeric ids, role, bbox, cues).
//! Tool parameters echo an element's id in the JSON type it arrived in, so a
//! snapshot-contract element is clicked with `{"id": 42}` and a PageSnapshot
//! one with `{"id": "agent-1"}`.

use crate::text::{fnv1a, FNV_OFFSET};
use crate::types::BBox;
use sentience_snapshot_query::Checked;
use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

/// An element id as it arrived: a number (docs/contracts/snapshot.md §6.1) or a string
/// (docs/contracts/run-api.md §12).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ElementId {
    Num(u64),
    Str(String),
}

impl ElementId {
    pub fn key(&self) -> String {
        match self {
            ElementId::Num(n) => n.to_string(),
            ElementId::Str(s) => s.clone(),
        }
    }

    /// `self.key() == key`, without building the key.
    pub fn is(&self, key: &str) -> bool {
        match self {
            ElementId::Str(s) => s == key,
            // The decimal form `key()` gives: no sign, no leading zeros.
            ElementId::Num(n) => {
                !key.is_empty()
                    && key.bytes().all(|b| b.is_ascii_digit())
                    && (key == "0" || !key.starts_with('0'))
                    && key.parse::<u64>().ok() == Some(*n)
            }
        }
    }

    pub fn to_json(&self) -> Value {
        match self {
            ElementId::Num(n) => Value::from(*n),
            ElementId::Str(s) => Value::from(s.clone()),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SnapshotShape {
    /// PageSnapshot (docs/contracts/run-api.md §12).
    Agent,
    /// Snapshot (docs/contracts/snapshot.md).
    Sentience,
}

/// The normalised element both policies work on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageElement {
    pub id: ElementId,
    pub tag: String,
    pub role: String,
    pub text: String,
    pub aria_label: String,
    pub placeholder: String,
    pub input_type: String,
    pub value: String,
    pub href: String,
    pub name: String,
    pub disabled: bool,
    pub bbox: Option<BBox>,
    pub in_viewport: bool,
    pub is_occluded: bool,
    pub is_primary: bool,
    pub importance: f64,
    /// The snapshot's `state` (checked, expanded, options, …) when it has
    /// one; shown to the LLM by the shared format.
    #[serde(skip)]
    pub state: sentience_snapshot_query::ElementState,
}

impl PageElement {
    /// The human-visible label: text, else aria-label, else placeholder, else value.
    pub fn label(&self) -> &str {
        [
            &self.text,
            &self.aria_label,
            &self.placeholder,
            &self.value,
            &self.name,
        ]
        .into_iter()
        .map(|s| s.trim())
        .find(|s| !s.is_empty())
        .unwrap_or("")
    }

    /// Every descriptive string, for field-kind matching.
    pub fn descriptors(&self) -> String {
        [
            &self.text,
            &self.aria_label,
            &self.placeholder,
            &self.name,
            &self.input_type,
        ]
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(" ")
    }

    /// Can text be typed into it?
    pub fn is_text_entry(&self) -> bool {
        let t = self.input_type.as_str();
        match self.tag.as_str() {
            "textarea" => true,
            "input" => !matches!(
                t,
                "submit" | "button" | "checkbox" | "radio" | "hidden" | "reset" | "image" | "file"
            ),
            _ => matches!(self.role.as_str(), "textbox" | "searchbox" | "combobox"),
        }
    }

    /// Is it something one clicks (button, link, submit input, clickable cue)?
    pub fn is_clickable(&self) -> bool {
        matches!(self.tag.as_str(), "button" | "a" | "summary" | "select")
            || (self.tag == "input"
                && matches!(
                    self.input_type.as_str(),
                    "submit" | "button" | "checkbox" | "radio" | "reset" | "image"
                ))
            || matches!(
                self.role.as_str(),
                "button" | "link" | "checkbox" | "radio" | "menuitem" | "tab" | "option"
            )
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Page {
    pub shape: SnapshotShape,
    pub url: String,
    pub title: String,
    pub visible_text: String,
    pub elements: Vec<PageElement>,
    pub viewport_height: Option<f64>,
}

impl Page {
    /// Parse either snapshot shape. Errors name the offending field.
    pub fn from_json(v: &Value) -> Result<Page, String> {
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
            let snapshot = match sentience_snapshot_query::Snapshot::deserialize(v) {
                Ok(s) => s,
                Err(e) => without_malformed_states(v.clone()).ok_or_else(|| shape_error(e))?,
            };
            Ok(sentience_page(snapshot, additions))
        } else {
            let s = Snapshot004::deserialize(v)
                .map_err(|e| format!("snapshot (run API PageSnapshot): {e}"))?;
            Ok(s.into_page())
        }
    }

    /// `from_json` on JSON text, without building a `serde_json::Value`
    /// (the /step hot path). Also tells whether the snapshot carries a
    /// `screenshot` member.
    pub fn from_json_str(json: &str) -> Result<(Page, bool), String> {
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
            sentience_page(snapshot, additions)
        } else {
            serde_json::from_str::<Snapshot004>(json)
                .map_err(|e| format!("snapshot (run API PageSnapshot): {e}"))?
                .into_page()
        };
        Ok((page, probe.screenshot.0))
    }

    pub fn find(&self, id: &str) -> Option<&PageElement> {
        self.elements.iter().find(|e| e.id.is(id))
    }

    /// Stable fingerprint of what the user sees: URL, text, element labels and
    /// values. Two snapshots with the same signature mean "nothing changed".
    pub fn signature(&self) -> String {
        let mut h = fnv1a(self.url.as_bytes(), FNV_OFFSET);
        h = fnv1a(self.visible_text.as_bytes(), h);
        for e in &self.elements {
            h = match &e.id {
                ElementId::Str(s) => fnv1a(s.as_bytes(), h),
                ElementId::Num(n) => fnv1a(n.to_string().as_bytes(), h),
            };
            h = fnv1a(e.text.as_bytes(), h);
            h = fnv1a(e.value.as_bytes(), h);
            // A ticked box, an opened section or tab is a visible change.
            let st = &e.state;
            let flags = [
                match st.checked {
                    None => 0,
                    Some(Checked::Bool(true)) => 1,
                    Some(Checked::Bool(false)) => 2,
                    Some(Checked::Mixed(_)) => 3,
                },
                st.expanded.map(|b| b as u8 + 1).unwrap_or(0),
                st.selected.map(|b| b as u8 + 1).unwrap_or(0),
            ];
            h = fnv1a(&flags, h);
        }
        format!("{h:016x}")
    }

    /// All text the page shows, for success detection (visible text plus labels).
    pub fn all_text(&self) -> String {
        let mut s = self.visible_text.clone();
        for e in &self.elements {
            s.push(' ');
            s.push_str(&e.text);
        }
        s
    }
}

/// JSON text of a snapshot as the client sent it (minus any screenshot):
/// stored and echoed verbatim, never re-parsed into a `Value`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RawJson(pub Box<RawValue>);

impl RawJson {
    pub fn get(&self) -> &str {
        self.0.get()
    }
}

impl PartialEq for RawJson {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

/// A /step snapshot: its JSON text (kept with the run, screenshot dropped)
/// and the page parsed from it once.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub json: RawJson,
    pub page: Page,
}

impl Snapshot {
    /// Parse a snapshot object of either shape (errors as `Page::from_json`).
    pub fn parse(json: Box<RawValue>) -> Result<Snapshot, String> {
        let (page, has_screenshot) = Page::from_json_str(json.get())?;
        let json = if has_screenshot {
            // Keep stored runs small: the screenshot is not needed for
            // decisions. (Rare: only here is the snapshot built as a Value.)
            let mut v: Value = serde_json::from_str(json.get()).map_err(|e| e.to_string())?;
            if let Some(o) = v.as_object_mut() {
                o.remove("screenshot");
            }
            serde_json::value::to_raw_value(&v).map_err(|e| e.to_string())?
        } else {
            json
        };
        Ok(Snapshot {
            json: RawJson(json),
            page,
        })
    }
}

/// Which shape a snapshot is, and whether it has a screenshot, read in one
/// pass without building a `Value`: numeric element ids, `status` or
/// `viewport` mean the snapshot contract, docs/contracts/snapshot.md (as in `Page::from_json`).
#[derive(Deserialize)]
struct Probe {
    #[serde(default)]
    status: Present,
    #[serde(default)]
    viewport: Present,
    #[serde(default)]
    screenshot: Present,
    #[serde(default)]
    elements: NumericIds,
}

/// The member is there (whatever its value, null included).
#[derive(Default)]
struct Present(bool);

impl<'de> Deserialize<'de> for Present {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        IgnoredAny::deserialize(d)?;
        Ok(Present(true))
    }
}

/// `elements` is an array with at least one element whose `id` is a number.
#[derive(Default)]
struct NumericIds(bool);

impl<'de> Deserialize<'de> for NumericIds {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = NumericIds;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("anything")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<NumericIds, A::Error> {
                let mut any = false;
                while let Some(e) = seq.next_element::<NumericId>()? {
                    any |= e.0;
                }
                Ok(NumericIds(any))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<NumericIds, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(NumericIds(false))
            }
            fn visit_bool<E>(self, _: bool) -> Result<NumericIds, E> {
                Ok(NumericIds(false))
            }
            fn visit_i64<E>(self, _: i64) -> Result<NumericIds, E> {
                Ok(NumericIds(false))
            }
            fn visit_u64<E>(self, _: u64) -> Result<NumericIds, E> {
                Ok(NumericIds(false))
            }
            fn visit_f64<E>(self, _: f64) -> Result<NumericIds, E> {
                Ok(NumericIds(false))
            }
            fn visit_str<E>(self, _: &str) -> Result<NumericIds, E> {
                Ok(NumericIds(false))
            }
            fn visit_unit<E>(self) -> Result<NumericIds, E> {
                Ok(NumericIds(false))
            }
            fn visit_none<E>(self) -> Result<NumericIds, E> {
                Ok(NumericIds(false))
            }
        }
        d.deserialize_any(V)
    }
}

/// One element of `elements`: true when it is an object whose `id` is a number.
struct NumericId(bool);

impl<'de> Deserialize<'de> for NumericId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = NumericId;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("anything")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<NumericId, A::Error> {
                let mut numeric = false;
                while let Some(key) = map.next_key::<IsId>()? {
                    if key.0 {
                        numeric = map.next_value::<IsNumber>()?.0;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(NumericId(numeric))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<NumericId, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(NumericId(false))
            }
            fn visit_bool<E>(self, _: bool) -> Result<NumericId, E> {
                Ok(NumericId(false))
            }
            fn visit_i64<E>(self, _: i64) -> Result<NumericId, E> {
                Ok(NumericId(false))
            }
            fn visit_u64<E>(self, _: u64) -> Result<NumericId, E> {
                Ok(NumericId(false))
            }
            fn visit_f64<E>(self, _: f64) -> Result<NumericId, E> {
                Ok(NumericId(false))
            }
            fn visit_str<E>(self, _: &str) -> Result<NumericId, E> {
                Ok(NumericId(false))
            }
            fn visit_unit<E>(self) -> Result<NumericId, E> {
                Ok(NumericId(false))
            }
        }
        d.deserialize_any(V)
    }
}

/// A key that is exactly `id`.
struct IsId(bool);

impl<'de> Deserialize<'de> for IsId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = IsId;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E>(self, s: &str) -> Result<IsId, E> {
                Ok(IsId(s == "id"))
            }
        }
        d.deserialize_str(V)
    }
}

/// A value that is a JSON number.
struct IsNumber(bool);

impl<'de> Deserialize<'de> for IsNumber {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = IsNumber;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("anything")
            }
            fn visit_i64<E>(self, _: i64) -> Result<IsNumber, E> {
                Ok(IsNumber(true))
            }
            fn visit_u64<E>(self, _: u64) -> Result<IsNumber, E> {
                Ok(IsNumber(true))
            }
            fn visit_f64<E>(self, _: f64) -> Result<IsNumber, E> {
                Ok(IsNumber(true))
            }
            fn visit_bool<E>(self, _: bool) -> Result<IsNumber, E> {
                Ok(IsNumber(false))
            }
            fn visit_str<E>(self, _: &str) -> Result<IsNumber, E> {
                Ok(IsNumber(false))
            }
            fn visit_unit<E>(self) -> Result<IsNumber, E> {
                Ok(IsNumber(false))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<IsNumber, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(IsNumber(false))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<IsNumber, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(IsNumber(false))
            }
        }
        d.deserialize_any(V)
    }
}

/// docs/contracts/run-api.md §12. `url` and `elements` are required; the rest
/// defaults, since the extension may trim them.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Snapshot004 {
    url: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    visible_text: Option<String>,
    elements: Vec<Element004>,
}

/// docs/contracts/run-api.md §12: `id` and `tag` required.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Element004 {
    id: String,
    tag: String,
    role: Option<String>,
    text: Option<String>,
    aria_label: Option<String>,
    placeholder: Option<String>,
    #[serde(rename = "type")]
    input_type: Option<String>,
    value: Option<String>,
    href: Option<String>,
    disabled: Option<bool>,
    name: Option<String>,
    bbox: Option<BBox>,
}

impl Snapshot004 {
    fn into_page(self) -> Page {
        let elements = self
            .elements
            .into_iter()
            .map(|e| {
                let tag = lowercase(e.tag);
                let input_type = lowercase(e.input_type.unwrap_or_default());
                let role = e.role.unwrap_or_else(|| implicit_role(&tag, &input_type));
                PageElement {
                    id: ElementId::Str(e.id),
                    tag,
                    role,
                    text: e.text.unwrap_or_default(),
                    aria_label: e.aria_label.unwrap_or_default(),
                    placeholder: e.placeholder.unwrap_or_default(),
                    input_type,
                    value: e.value.unwrap_or_default(),
                    href: e.href.unwrap_or_default(),
                    name: e.name.unwrap_or_default(),
                    disabled: e.disabled.unwrap_or(false),
                    bbox: e.bbox,
                    in_viewport: true,
                    is_occluded: false,
                    is_primary: false,
                    importance: 0.0,
                    state: sentience_snapshot_query::ElementState::default(),
                }
            })
            .collect();
        Page {
            shape: SnapshotShape::Agent,
            url: self.url,
            title: self.title.unwrap_or_default(),
            visible_text: self.visible_text.unwrap_or_default(),
            elements,
            viewport_height: None,
        }
    }
}

/// `to_lowercase`, in place for ASCII (the usual case).
fn lowercase(mut s: String) -> String {
    if s.is_ascii() {
        s.make_ascii_lowercase();
        s
    } else {
        s.to_lowercase()
    }
}

/// HTML-AAM implicit roles for the tags the planner cares about.
fn implicit_role(tag: &str, input_type: &str) -> String {
    match (tag, input_type) {
        ("a", _) => "link",
        ("button", _) => "button",
        ("textarea", _) => "textbox",
        ("select", _) => "combobox",
        ("input", "submit" | "button" | "reset" | "image") => "button",
        ("input", "checkbox") => "checkbox",
        ("input", "radio") => "radio",
        ("input", "search") => "searchbox",
        ("input", _) => "textbox",
        _ => "generic",
    }
    .to_string()
}

/// What the run loop adds to a snapshot for the policy, beside the snapshot
/// model (`sentience_snapshot_query::Snapshot`, read in its own pass): the page's title
/// and visible text (as in docs/contracts/run-api.md §12's PageSnapshot, so the policy sees what
/// is not an element: "Welcome, alice!"), and per element the docs/contracts/run-api.md
/// ElementInfo facts. Also where /step's own requirements are checked: `url`
/// and `elements` present, and each element's `id` and `role`.
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

/// One element's additions (all optional; `id` and `role` required).
#[derive(Deserialize)]
struct ElementAdditions {
    #[allow(dead_code)] // required; its value is read by the model
    id: IgnoredAny,
    #[allow(dead_code)] // required; its value is read by the model
    role: IgnoredAny,
    #[serde(default)]
    tag: Option<String>,
    #[serde(default, rename = "type")]
    input_type: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    placeholder: Option<String>,
    #[serde(default)]
    value: Option<String>,
    #[serde(default)]
    href: Option<String>,
    #[serde(default, rename = "ariaLabel")]
    aria_label: Option<String>,
    #[serde(default)]
    disabled: bool,
    /// Whether the element has a bbox (the model reads a missing one as 0,0 0×0).
    #[serde(default)]
    bbox: Present,
}

/// The snapshot read again with each element's malformed `state` dropped:
/// a run goes on without the state of an element rather than failing the
/// step (the query crate, reading for a page script, refuses it instead).
/// Only on the error path: `None` when the snapshot is still unreadable.
fn without_malformed_states(mut v: Value) -> Option<sentience_snapshot_query::Snapshot> {
    let elements = v.get_mut("elements")?.as_array_mut()?;
    for e in elements.iter_mut().filter_map(Value::as_object_mut) {
        let malformed = e
            .get("state")
            .is_some_and(|st| sentience_snapshot_query::ElementState::deserialize(st).is_err());
        if malformed {
            e.remove("state");
        }
    }
    sentience_snapshot_query::Snapshot::deserialize(&v).ok()
}

/// A snapshot of the model and the run loop's additions to it, both read
/// from the same JSON.
fn sentience_page(snapshot: sentience_snapshot_query::Snapshot, additions: RunAdditions) -> Page {
    let elements: Vec<PageElement> = snapshot
        .elements
        .into_iter()
        .zip(additions.elements)
        .map(|(e, more)| {
            let role = e.role.as_str();
            // The snapshot has no tag: derive one from the role so the
            // shared text-entry / clickable rules apply.
            let derived_tag = match role {
                "textbox" | "searchbox" => "input",
                "button" => "button",
                "link" => "a",
                "combobox" => "select",
                "checkbox" | "radio" => "input",
                "image" => "img",
                _ => "div",
            };
            let tag = more
                .tag
                .map(|t| t.to_ascii_lowercase())
                .unwrap_or_else(|| derived_tag.to_string());
            let tag = tag.as_str();
            let derived_type = match role {
                "searchbox" => "search",
                "checkbox" => "checkbox",
                "radio" => "radio",
                _ => "",
            };
            let state = e.state;
            let input_type = more.input_type.unwrap_or_else(|| derived_type.to_string());
            let input_type = input_type.as_str();
            let aria_label = more.aria_label.unwrap_or_default();
            // The snapshot makes a filled field's text its value; when the
            // extension also sent the field's label, the label names it
            // (the value stays in `value`), so "Username" still finds it.
            let is_field = matches!(tag, "input" | "textarea" | "select");
            let text = match e.text {
                Some(_) if is_field && !aria_label.is_empty() => aria_label.clone(),
                t => t.unwrap_or_default(),
            };
            // An input's text is its value or placeholder
            // (docs/contracts/snapshot.md §6.3); we treat it as the
            // placeholder/label so field matching works.
            let placeholder = match more.placeholder {
                Some(p) => p,
                None if tag == "input" && input_type.is_empty() => text.clone(),
                None => String::new(),
            };
            PageElement {
                id: ElementId::Num(u64::from(e.id)),
                tag: tag.to_string(),
                role: role.to_string(),
                text,
                aria_label,
                placeholder,
                input_type: input_type.to_string(),
                value: more
                    .value
                    .or_else(|| state.value.clone())
                    .unwrap_or_default(),
                href: more.href.unwrap_or_default(),
                name: more.name.unwrap_or_default(),
                disabled: more.disabled || state.is_disabled(),
                bbox: more.bbox.0.then_some(e.bbox),
                in_viewport: e.in_viewport,
                is_occluded: e.is_occluded,
                is_primary: e.visual_cues.is_primary,
                importance: f64::from(e.importance),
                state,
            }
        })
        .collect();
    let visible_text = additions.visible_text.unwrap_or_else(|| {
        elements
            .iter()
            .filter(|e| !e.text.is_empty())
            .map(|e| e.text.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    });
    Page {
        shape: SnapshotShape::Sentience,
        url: snapshot.url,
        title: additions.title.unwrap_or_default(),
        visible_text,
        elements,
        viewport_height: additions.viewport.0.then_some(snapshot.viewport.height),
    }
}

#[cfg(test)]
mod tests;
