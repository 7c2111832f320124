//! The page a policy decides on: the snapshot model's elements
//! (sentience-snapshot-core `Element`, with its `Role` enum) each with the
//! DOM facts beside it (`DomFacts`, declared once next to the model), plus
//! the page's URL, title and visible text. Read from either shape /step
//! accepts (`shapes.rs`): the snapshot of docs/contracts/snapshot.md with
//! the run loop's facts, or the run API's PageSnapshot of
//! docs/contracts/run-api.md §12, an adapter onto the same model.
//!
//! Tool parameters echo an element's id in the JSON type it arrived in, so a
//! snapshot-contract element is clicked with `{"id": 42}` and a PageSnapshot
//! one with `{"id": "agent-1"}`.

#[cfg(test)]
mod fixtures;
mod layout_gaps;
mod layout_labels;
mod layout_toggles;
mod one_pass;
mod probe;
mod shapes;

use crate::text::{fnv1a, FNV_OFFSET};
use sentience_snapshot_core::{Checked, Observed};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

pub use sentience_snapshot_core::{DomFacts, Element, Role};

/// An element id as it arrived: a number (docs/contracts/snapshot.md §6.1) or a string
/// (docs/contracts/run-api.md §12).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
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

    /// An id from a JSON value (a number or a string), as a tool carries it.
    pub fn from_json(v: &Value) -> Option<ElementId> {
        match v {
            Value::Number(n) => n.as_u64().map(ElementId::Num),
            Value::String(s) => Some(ElementId::Str(s.clone())),
            _ => None,
        }
    }
}

impl std::fmt::Display for ElementId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ElementId::Num(n) => write!(f, "{n}"),
            ElementId::Str(s) => f.write_str(s),
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

#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub shape: SnapshotShape,
    pub url: String,
    pub title: String,
    /// The page's visible text on one line, words separated by single
    /// spaces (what every reader of the text matches against).
    pub visible_text: String,
    /// Where each line of the visible text after the first began (byte
    /// offsets into `visible_text`), when the producer kept its line
    /// breaks: rows of a form, a label over its box (`flatten`).
    pub line_starts: Vec<usize>,
    pub elements: Vec<Observed>,
    /// The viewport's height when the snapshot gave one.
    pub viewport_height: Option<f64>,
    /// PageSnapshot ids, by element position (their `Element::id`); empty
    /// for the snapshot contract's numeric ids.
    string_ids: Vec<String>,
}

/// The visible text as producers send it — its lines separated by "\n"
/// where the page breaks them (blocks, table rows, `<br>`: HTML's
/// `innerText`) — as one line of single-spaced words, and where each later
/// line began. The flat text is what the text was before line breaks were
/// sent, so every reader of it is unchanged; the line starts tell a row's
/// label from the next one's ("Genre\nDirector\nYear").
pub(crate) fn flatten(text: String) -> (String, Vec<usize>) {
    if !text.contains('\n') {
        return (text, Vec::new());
    }
    let mut out = String::with_capacity(text.len());
    let mut starts = Vec::new();
    for line in text.split('\n').map(str::trim).filter(|l| !l.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
            starts.push(out.len());
        }
        out.push_str(line);
    }
    (out, starts)
}

impl Page {
    /// A page of the snapshot contract's shape from its parts (producers
    /// that hold the model already: the browse protocol, the tool server's
    /// client).
    pub fn new(
        url: String,
        title: String,
        visible_text: String,
        elements: Vec<Observed>,
        viewport_height: Option<f64>,
    ) -> Page {
        let (visible_text, line_starts) = flatten(visible_text);
        let mut page = Page {
            shape: SnapshotShape::Sentience,
            url,
            title,
            visible_text,
            line_starts,
            elements,
            viewport_height,
            string_ids: Vec::new(),
        };
        name_unnamed(&mut page);
        page
    }

    /// Parse either snapshot shape. Errors name the offending field.
    pub fn from_json(v: &Value) -> Result<Page, String> {
        let mut page = shapes::from_value(v)?;
        name_unnamed(&mut page);
        Ok(page)
    }

    /// `from_json` on JSON text, without building a `serde_json::Value`
    /// (the /step hot path). Also tells whether the snapshot carries a
    /// `screenshot` member.
    pub fn from_json_str(json: &str) -> Result<(Page, bool), String> {
        let (mut page, screenshot) = shapes::from_str(json)?;
        name_unnamed(&mut page);
        Ok((page, screenshot))
    }

    /// The id of an element as tools carry it (its wire type).
    pub fn id_of(&self, e: &Observed) -> ElementId {
        match self.string_ids.get(e.element.id as usize) {
            Some(s) if !self.string_ids.is_empty() => ElementId::Str(s.clone()),
            _ => ElementId::Num(u64::from(e.element.id)),
        }
    }

    /// The element a tool's id names.
    pub fn find(&self, key: &str) -> Option<&Observed> {
        if self.string_ids.is_empty() {
            self.elements
                .iter()
                .find(|e| ElementId::Num(u64::from(e.element.id)).is(key))
        } else {
            let pos = self.string_ids.iter().position(|s| s == key)?;
            self.elements.iter().find(|e| e.element.id as usize == pos)
        }
    }

    /// The element with this wire id.
    pub fn find_id(&self, id: &ElementId) -> Option<&Observed> {
        self.find(&id.key())
    }

    /// Stable fingerprint of what the user sees: URL, text, element labels and
    /// values. Two snapshots with the same signature mean "nothing changed".
    pub fn signature(&self) -> String {
        let mut h = fnv1a(self.url.as_bytes(), FNV_OFFSET);
        h = fnv1a(self.visible_text.as_bytes(), h);
        let mut digits = itoa::Buffer::new();
        for e in &self.elements {
            // The bytes of `self.id_of(e).key()`, without building it (this
            // runs on every element at every step).
            h = match self.string_ids.get(e.element.id as usize) {
                Some(s) => fnv1a(s.as_bytes(), h),
                None => fnv1a(digits.format(e.element.id).as_bytes(), h),
            };
            h = fnv1a(e.text().as_bytes(), h);
            h = fnv1a(e.value().as_bytes(), h);
            // A ticked box, an opened section or tab is a visible change.
            let st = &e.element.state;
            let flags = [
                match st.checked {
                    None => 0,
                    Some(Checked::Bool(true)) => 1,
                    Some(Checked::Bool(false)) => 2,
                    Some(Checked::Mixed(_)) => 3,
                },
                st.expanded.map(|b| b as u8 + 1).unwrap_or(0),
                st.selected.map(|b| b as u8 + 1).unwrap_or(0),
                u8::from(e.is_disabled()),
            ];
            h = fnv1a(&flags, h);
        }
        format!("{h:016x}")
    }

    /// The visible text as its lines (the producer's line breaks), trimmed,
    /// empty ones left out; the whole text as one line when it kept none.
    pub fn lines(&self) -> Vec<&str> {
        let text = self.visible_text.as_str();
        let mut starts = vec![0];
        starts.extend(self.line_starts.iter().copied());
        starts.push(text.len());
        starts
            .windows(2)
            .filter_map(|w| text.get(w[0]..w[1]))
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect()
    }

    /// All text the page shows, for success detection (visible text plus labels).
    pub fn all_text(&self) -> String {
        let mut s = self.visible_text.clone();
        for e in &self.elements {
            s.push(' ');
            s.push_str(e.text());
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

/// Names read off the layout for controls that show no words of their own
/// (`layout_gaps`): text boxes, then switches and tick boxes.
fn name_unnamed(page: &mut Page) {
    layout_labels::name_by_layout(page);
    layout_toggles::name_toggles(page);
}

#[cfg(test)]
mod one_pass_tests;
#[cfg(test)]
mod tests;
