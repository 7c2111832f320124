//! The snapshot model against its two hand-written descriptions,
//! `snapshot.schema.json` (JSON Schema, checked by every e2e test's ajv) and
//! `sentience.d.ts` (TypeScript), field by field: the same keys, the same
//! required/optional split, compatible JSON types, the same roles. A field
//! added to, renamed in or removed from a type here fails this test until
//! both files say the same.
//!
//! The field names come from the types themselves (what their serde derive
//! reads), not from a list kept here; which keys are always written comes
//! from serialising the types.

use super::*;
use serde::de::{self, Visitor};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};

const SCHEMA: &str = include_str!("../../../../snapshot.schema.json");
const DTS: &str = include_str!("../../../../sentience.d.ts");

/// Keys the descriptions have beyond the model, each with its reason.
const NOT_IN_MODEL: &[(&str, &str, &str)] = &[];

/// Keys we always write that the descriptions mark optional, with the reason.
const OPTIONAL_FOR_READERS: &[(&str, &str, &str)] = &[(
    "Element",
    "state",
    "other producers omit it: consumers must tolerate its absence (docs/contracts/snapshot.md §11.2)",
)];

// ---------------------------------------------------------------------------
// Field names of a type, as its Deserialize derive declares them.

#[derive(Debug)]
struct Traced(&'static [&'static str]);

impl std::fmt::Display for Traced {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.0)
    }
}
impl std::error::Error for Traced {}
impl de::Error for Traced {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Traced(&[])
    }
}

/// A deserializer that only answers "which fields?" (serde's derive passes
/// them to `deserialize_struct`) and then stops.
struct FieldNames;

impl<'de> de::Deserializer<'de> for FieldNames {
    type Error = Traced;
    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Traced> {
        Err(Traced(&[]))
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Traced> {
        Err(Traced(fields))
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

fn fields_of<T: for<'de> Deserialize<'de>>() -> BTreeSet<String> {
    match T::deserialize(FieldNames) {
        Err(Traced(f)) => f.iter().map(|s| s.to_string()).collect(),
        Ok(_) => panic!("not a struct"),
    }
}

// ---------------------------------------------------------------------------
// Samples: every optional key absent (what is always written), and every
// optional key present (for the JSON types).

fn sparse() -> Vec<(&'static str, Value)> {
    let v = |x: serde_json::Result<Value>| x.expect("serialises");
    vec![
        ("Snapshot", v(serde_json::to_value(Snapshot::default()))),
        (
            "SnapshotError",
            v(serde_json::to_value(SnapshotError::new("x"))),
        ),
        ("Element", v(serde_json::to_value(Element::default()))),
        ("BBox", v(serde_json::to_value(BBox::default()))),
        ("VisualCues", v(serde_json::to_value(VisualCues::default()))),
        (
            "ElementState",
            v(serde_json::to_value(ElementState::default())),
        ),
        (
            "SelectOption",
            v(serde_json::to_value(SelectOption::default())),
        ),
        ("Viewport", v(serde_json::to_value(Viewport::default()))),
        (
            "SnapshotMeta",
            v(serde_json::to_value(SnapshotMeta::default())),
        ),
        ("Stability", v(serde_json::to_value(full_stability()))),
        (
            "SnapshotDiff",
            v(serde_json::to_value(SnapshotDiff::default())),
        ),
        (
            "FrameCoverage",
            v(serde_json::to_value(FrameCoverage::default())),
        ),
        (
            "IncludedFrame",
            v(serde_json::to_value(IncludedFrame::default())),
        ),
        (
            "SkippedFrame",
            v(serde_json::to_value(SkippedFrame::default())),
        ),
    ]
}

fn full_stability() -> Stability {
    Stability {
        settled: true,
        waited_ms: 1,
        quiet_ms: 2,
        timeout_ms: 3,
    }
}

fn full() -> Vec<(&'static str, Value)> {
    let option = SelectOption {
        text: "t".into(),
        value: "v".into(),
        selected: true,
    };
    let state = ElementState {
        disabled: Some(true),
        checked: Some(Checked::MIXED),
        selected: Some(true),
        expanded: Some(false),
        required: Some(true),
        value: Some("v".into()),
        options: Some(vec![option.clone()]),
    };
    let cues = VisualCues {
        is_primary: true,
        background_color_name: Some("blue".into()),
        is_clickable: true,
    };
    let element = Element {
        id: 1,
        role: Role::Button,
        text: Some("Go".into()),
        importance: 10,
        bbox: BBox {
            x: 1.5,
            y: 2.0,
            width: 3.0,
            height: 4.0,
        },
        visual_cues: cues.clone(),
        in_viewport: true,
        is_occluded: false,
        z_index: 2,
        state: state.clone(),
    };
    let meta = SnapshotMeta {
        elements_scanned: 1,
        candidates: 1,
        filtered_out: 0,
        truncated_by_limit: 0,
        engine_path: "content_script".into(),
        engine_version: "0.1.0".into(),
        stability: Some(full_stability()),
    };
    let frames = FrameCoverage {
        included: vec![IncludedFrame {
            url: "https://a.test/".into(),
            depth: 1,
            via: "direct".into(),
        }],
        skipped: vec![SkippedFrame {
            url: "https://b.test/".into(),
            reason: "timeout".into(),
        }],
    };
    let diff = SnapshotDiff {
        since: Some(1),
        added: vec![1],
        removed: vec![2],
        changed: vec![3],
    };
    let snapshot = Snapshot {
        status: "success".into(),
        timestamp: "2026-01-01T00:00:00.000Z".into(),
        url: "https://example.test/".into(),
        viewport: Viewport {
            width: 800.0,
            height: 600.0,
        },
        elements: vec![element.clone()],
        screenshot: Some("data:image/png;base64,AAAA".into()),
        screenshot_format: Some("png".into()),
        meta: meta.clone(),
        snapshot_id: Some(2),
        diff: Some(diff.clone()),
        frames: Some(frames.clone()),
    };
    let error = SnapshotError {
        requires_license: Some(false),
        ..SnapshotError::new("x")
    };
    let v = |x: serde_json::Result<Value>| x.expect("serialises");
    vec![
        ("Snapshot", v(serde_json::to_value(snapshot))),
        ("SnapshotError", v(serde_json::to_value(error))),
        ("Element", v(serde_json::to_value(element))),
        ("BBox", v(serde_json::to_value(BBox::default()))),
        ("VisualCues", v(serde_json::to_value(cues))),
        ("ElementState", v(serde_json::to_value(state))),
        ("SelectOption", v(serde_json::to_value(option))),
        ("Viewport", v(serde_json::to_value(Viewport::default()))),
        ("SnapshotMeta", v(serde_json::to_value(meta))),
        ("Stability", v(serde_json::to_value(full_stability()))),
        ("SnapshotDiff", v(serde_json::to_value(diff))),
        ("FrameCoverage", v(serde_json::to_value(frames.clone()))),
        (
            "IncludedFrame",
            v(serde_json::to_value(frames.included[0].clone())),
        ),
        (
            "SkippedFrame",
            v(serde_json::to_value(frames.skipped[0].clone())),
        ),
    ]
}

fn model_fields() -> BTreeMap<&'static str, BTreeSet<String>> {
    BTreeMap::from([
        ("Snapshot", fields_of::<Snapshot>()),
        ("SnapshotError", fields_of::<SnapshotError>()),
        ("Element", fields_of::<Element>()),
        ("BBox", fields_of::<BBox>()),
        ("VisualCues", fields_of::<VisualCues>()),
        ("ElementState", fields_of::<ElementState>()),
        ("SelectOption", fields_of::<SelectOption>()),
        ("Viewport", fields_of::<Viewport>()),
        ("SnapshotMeta", fields_of::<SnapshotMeta>()),
        ("Stability", fields_of::<Stability>()),
        ("SnapshotDiff", fields_of::<SnapshotDiff>()),
        ("FrameCoverage", fields_of::<FrameCoverage>()),
        ("IncludedFrame", fields_of::<IncludedFrame>()),
        ("SkippedFrame", fields_of::<SkippedFrame>()),
    ])
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object().expect("an object").keys().cloned().collect()
}

fn allowed_extra(table: &[(&str, &str, &str)], ty: &str) -> BTreeSet<String> {
    table
        .iter()
        .filter(|(t, _, _)| *t == ty)
        .map(|(_, k, _)| k.to_string())
        .collect()
}

#[test]
fn the_samples_cover_every_field() {
    let fields = model_fields();
    for (ty, v) in full() {
        assert_eq!(keys(&v), fields[ty], "{ty}: the full sample misses a field");
    }
}

// ---------------------------------------------------------------------------
// snapshot.schema.json

/// Where each type of the model is described in the schema.
const SCHEMA_AT: &[(&str, &str)] = &[
    ("Snapshot", "/definitions/Success"),
    ("SnapshotError", "/definitions/Error"),
    ("Element", "/definitions/Element"),
    ("BBox", "/definitions/Element/properties/bbox"),
    ("VisualCues", "/definitions/Element/properties/visual_cues"),
    ("ElementState", "/definitions/State"),
    (
        "SelectOption",
        "/definitions/State/properties/options/items",
    ),
    ("Viewport", "/definitions/Success/properties/viewport"),
    ("SnapshotMeta", "/definitions/Success/properties/meta"),
    (
        "Stability",
        "/definitions/Success/properties/meta/properties/stability",
    ),
    ("SnapshotDiff", "/definitions/Success/properties/diff"),
    ("FrameCoverage", "/definitions/Frames"),
    (
        "IncludedFrame",
        "/definitions/Frames/properties/included/items",
    ),
    (
        "SkippedFrame",
        "/definitions/Frames/properties/skipped/items",
    ),
];

/// Does schema `s` (a property's) accept the JSON value `v`'s type?
fn schema_accepts(s: &Value, v: &Value) -> bool {
    if s.get("$ref").is_some() {
        return v.is_object();
    }
    if let Some(c) = s.get("const") {
        return c == v || std::mem::discriminant(c) == std::mem::discriminant(v);
    }
    if let Some(Value::Array(choices)) = s.get("enum") {
        return choices
            .iter()
            .any(|c| std::mem::discriminant(c) == std::mem::discriminant(v));
    }
    let types: Vec<&str> = match s.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return false,
    };
    types.iter().any(|t| match (*t, v) {
        ("integer", Value::Number(n)) => n.is_i64() || n.is_u64(),
        ("number", Value::Number(_)) => true,
        ("string", Value::String(_)) => true,
        ("boolean", Value::Bool(_)) => true,
        ("null", Value::Null) => true,
        ("array", Value::Array(_)) => true,
        ("object", Value::Object(_)) => true,
        _ => false,
    })
}

#[test]
fn the_schema_describes_the_model() {
    let schema: Value = serde_json::from_str(SCHEMA).expect("snapshot.schema.json is JSON");
    let fields = model_fields();
    let written: BTreeMap<_, _> = sparse().into_iter().map(|(t, v)| (t, keys(&v))).collect();
    let mut problems = Vec::new();
    for (ty, value) in full() {
        let at = SCHEMA_AT.iter().find(|(t, _)| *t == ty).expect("mapped").1;
        let def = schema
            .pointer(at)
            .unwrap_or_else(|| panic!("schema has no {at}"));
        let empty = Map::new();
        let props = def["properties"].as_object().unwrap_or(&empty);
        let described: BTreeSet<String> = props.keys().cloned().collect();
        let extra = allowed_extra(NOT_IN_MODEL, ty);
        for k in fields[ty].difference(&described) {
            problems.push(format!("{at}: no property `{k}` ({ty} has it)"));
        }
        for k in described.difference(&fields[ty]) {
            if !extra.contains(k) {
                problems.push(format!("{at}: property `{k}` is not in {ty}"));
            }
        }
        let required: BTreeSet<String> = def["required"]
            .as_array()
            .map(|r| {
                r.iter()
                    .filter_map(|k| k.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        let optional_ok = allowed_extra(OPTIONAL_FOR_READERS, ty);
        for k in written[ty].difference(&required) {
            if !optional_ok.contains(k) {
                problems.push(format!(
                    "{at}: `{k}` is always written: list it in `required`"
                ));
            }
        }
        for k in required.difference(&written[ty]) {
            problems.push(format!("{at}: `{k}` is required but {ty} may omit it"));
        }
        // Closed objects, as strict as before (the top level and `meta`
        // stay open: other producers add keys there, and so may we).
        let open = matches!(ty, "Snapshot" | "SnapshotError" | "SnapshotMeta");
        if !open && def.get("additionalProperties") != Some(&json!(false)) {
            problems.push(format!("{at}: set additionalProperties: false"));
        }
        for (k, v) in value.as_object().expect("object") {
            if let Some(p) = props.get(k) {
                if !schema_accepts(p, v) {
                    problems.push(format!("{at}/properties/{k}: does not accept {v}"));
                }
            }
        }
    }
    let roles: Vec<&str> = Role::ALL.iter().map(|r| r.as_str()).collect();
    let schema_roles = schema.pointer("/definitions/Element/properties/role/enum");
    if schema_roles != Some(&json!(roles)) {
        problems.push(format!("Element.role: the schema's enum is not {roles:?}"));
    }
    assert!(
        problems.is_empty(),
        "snapshot.schema.json disagrees with the snapshot model \
         (crates/snapshot-core/src/contract.rs):\n{}",
        problems.join("\n")
    );
}

// ---------------------------------------------------------------------------
// sentience.d.ts

/// A TypeScript object type: each key, whether it is optional (`?`), and
/// its type text (inline object types parsed further).
#[derive(Debug, Default)]
struct TsObject {
    members: BTreeMap<String, (bool, String)>,
    duplicates: Vec<String>,
}

/// Parses `{ a: T; b?: { c: U }[]; /** doc */ d: V }` (the body between
/// matching braces), members separated by `;` or new lines at depth 0.
fn ts_object(body: &str) -> TsObject {
    let mut out = TsObject::default();
    let mut depth = 0i32;
    let mut current = String::new();
    let mut members = Vec::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        // Comments: skipped whole.
        if c == '/' && chars.peek() == Some(&'*') {
            while let Some(c) = chars.next() {
                if c == '*' && chars.peek() == Some(&'/') {
                    chars.next();
                    break;
                }
            }
            continue;
        }
        if c == '/' && chars.peek() == Some(&'/') {
            for c in chars.by_ref() {
                if c == '\n' {
                    break;
                }
            }
            continue;
        }
        match c {
            '{' | '(' | '<' | '[' => depth += 1,
            '}' | ')' | '>' | ']' => depth -= 1,
            _ => {}
        }
        if depth == 0 && (c == ';' || c == '\n') {
            members.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    members.push(current);
    for m in members {
        let m = m.trim();
        let Some(colon) = m.find(':') else { continue };
        let (name, ty) = (m[..colon].trim(), m[colon + 1..].trim());
        if name.contains('(') || name.starts_with("readonly") || name.is_empty() {
            continue; // methods and read-only API members: not data
        }
        let (name, optional) = match name.strip_suffix('?') {
            Some(n) => (n, true),
            None => (name, false),
        };
        if out
            .members
            .insert(name.to_string(), (optional, ty.to_string()))
            .is_some()
        {
            out.duplicates.push(name.to_string());
        }
    }
    out
}

/// The body of `interface Name { … }` or of an inline `{ … }` type.
fn braced(text: &str) -> Option<&str> {
    let start = text.find('{')?;
    let mut depth = 0;
    for (i, c) in text[start..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&text[start + 1..start + i]);
                }
            }
            _ => {}
        }
    }
    None
}

fn ts_interface(name: &str) -> TsObject {
    let head = format!("export interface {name} ");
    let at = DTS
        .find(&head)
        .unwrap_or_else(|| panic!("sentience.d.ts has no interface {name}"));
    ts_object(braced(&DTS[at..]).expect("closed interface"))
}

/// Where each type of the model is declared in sentience.d.ts: an
/// interface, or an inline object type of an interface's member.
const DTS_AT: &[(&str, &str, Option<&str>)] = &[
    ("Snapshot", "SnapshotSuccess", None),
    ("SnapshotError", "SnapshotError", None),
    ("Element", "Element", None),
    ("BBox", "BBox", None),
    ("VisualCues", "VisualCues", None),
    ("ElementState", "ElementState", None),
    ("SelectOption", "ElementState", Some("options")),
    ("Viewport", "SnapshotSuccess", Some("viewport")),
    ("SnapshotMeta", "SnapshotMeta", None),
    ("Stability", "SnapshotMeta", Some("stability")),
    ("SnapshotDiff", "SnapshotDiff", None),
    ("FrameCoverage", "FrameCoverage", None),
    ("IncludedFrame", "FrameCoverage", Some("included")),
    ("SkippedFrame", "FrameCoverage", Some("skipped")),
];

/// Does the TypeScript type text accept the JSON value's type?
fn ts_accepts(ty: &str, v: &Value) -> bool {
    let words: Vec<&str> = ty
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '\''))
        .filter(|w| !w.is_empty())
        .collect();
    let has = |w: &str| words.contains(&w);
    match v {
        Value::Null => has("null"),
        Value::Bool(b) => has("boolean") || has(if *b { "true" } else { "false" }),
        Value::Number(_) => has("number"),
        Value::String(_) => {
            has("string") || words.iter().any(|w| w.starts_with('\'')) || has("Role")
        }
        Value::Array(_) => ty.contains("[]") || ty.starts_with("Array<"),
        Value::Object(_) => {
            ty.contains('{')
                || words
                    .iter()
                    .any(|w| w.chars().next().is_some_and(char::is_uppercase))
        }
    }
}

#[test]
fn the_typescript_declarations_describe_the_model() {
    let fields = model_fields();
    let written: BTreeMap<_, _> = sparse().into_iter().map(|(t, v)| (t, keys(&v))).collect();
    let mut problems = Vec::new();
    for (ty, value) in full() {
        let (_, iface, member) = DTS_AT.iter().find(|(t, _, _)| *t == ty).expect("mapped");
        let mut obj = ts_interface(iface);
        let at = match member {
            None => iface.to_string(),
            Some(m) => {
                let (_, inline) = obj.members.get(*m).cloned().unwrap_or_default();
                obj = ts_object(braced(&inline).unwrap_or(""));
                format!("{iface}.{m}")
            }
        };
        for d in &obj.duplicates {
            problems.push(format!("{at}: `{d}` declared twice"));
        }
        let declared: BTreeSet<String> = obj.members.keys().cloned().collect();
        let extra = allowed_extra(NOT_IN_MODEL, ty);
        for k in fields[ty].difference(&declared) {
            problems.push(format!("{at}: no member `{k}` ({ty} has it)"));
        }
        for k in declared.difference(&fields[ty]) {
            if !extra.contains(k) {
                problems.push(format!("{at}: member `{k}` is not in {ty}"));
            }
        }
        let optional_ok = allowed_extra(OPTIONAL_FOR_READERS, ty);
        for (k, (optional, ts)) in &obj.members {
            if !fields[ty].contains(k) {
                continue;
            }
            let always = written[ty].contains(k);
            if *optional && always && !optional_ok.contains(k) {
                problems.push(format!("{at}.{k}: always written: drop the `?`"));
            }
            if !*optional && !always {
                problems.push(format!("{at}.{k}: {ty} may omit it: mark it `?`"));
            }
            if let Some(v) = value.get(k) {
                if !ts_accepts(ts, v) {
                    problems.push(format!("{at}.{k}: `{ts}` does not accept {v}"));
                }
            }
        }
    }
    let role = DTS
        .split("export type Role =")
        .nth(1)
        .and_then(|r| r.split(';').next())
        .unwrap_or("");
    let ts_roles: Vec<&str> = role
        .split('|')
        .map(|r| r.trim().trim_matches('\''))
        .filter(|r| !r.is_empty())
        .collect();
    let roles: Vec<&str> = Role::ALL.iter().map(|r| r.as_str()).collect();
    if ts_roles != roles {
        problems.push(format!("Role: {ts_roles:?} is not {roles:?}"));
    }
    assert!(
        problems.is_empty(),
        "sentience.d.ts disagrees with the snapshot model \
         (crates/snapshot-core/src/contract.rs):\n{}",
        problems.join("\n")
    );
}

/// The options `snapshot()` takes (`crate::options`) against
/// `SnapshotOptions` in sentience.d.ts: the same keys, each optional.
#[test]
fn the_typescript_options_are_the_engines() {
    use crate::options::{Filter, SnapshotOptions};
    let mut problems = Vec::new();
    let opts = ts_interface("SnapshotOptions");
    let filter = ts_object(braced(&opts.members["filter"].1).unwrap_or(""));
    for (at, obj, fields) in [
        ("SnapshotOptions", &opts, fields_of::<SnapshotOptions>()),
        ("SnapshotOptions.filter", &filter, fields_of::<Filter>()),
    ] {
        for d in &obj.duplicates {
            problems.push(format!("{at}: `{d}` declared twice"));
        }
        let declared: BTreeSet<String> = obj.members.keys().cloned().collect();
        if declared != fields {
            problems.push(format!(
                "{at}: declares {declared:?}, the engine reads {fields:?}"
            ));
        }
        for (k, (optional, _)) in &obj.members {
            if !optional {
                problems.push(format!("{at}.{k}: every option is optional: mark it `?`"));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "sentience.d.ts disagrees with the engine's options (crates/snapshot-core/src/options.rs):\n{}",
        problems.join("\n")
    );
}
