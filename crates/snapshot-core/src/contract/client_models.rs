//! The SDK packages' typed models, rendered from `snapshot.schema.json`
//! (which `contract::tests` holds to the snapshot model of contract.rs):
//!
//! - `clients/python/src/sentience_sdk/models.py`: typed read-only views
//!   over the parsed JSON (a property per field, built on access, so typing
//!   a 10,000-element snapshot costs nothing until a field is read);
//! - `clients/playwright/src/contract.ts`: TypeScript interfaces.
//!
//! The tests below fail while a committed file differs from the rendering
//! (a field renamed in contract.rs fails `contract::tests` until the schema
//! says the same, then these until the clients are regenerated);
//! `UPDATE_CLIENT_MODELS=1` rewrites them.

use serde_json::Value;
use std::fmt::Write;

const SCHEMA: &str = include_str!("../../../../snapshot.schema.json");
const PYTHON: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../clients/python/src/sentience_sdk/models.py"
);
const TYPESCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../clients/playwright/src/contract.ts"
);
const REGENERATE: &str =
    "UPDATE_CLIENT_MODELS=1 cargo test -p sentience-snapshot-core contract::client_models";

/// Every object of the schema that becomes a class, by its JSON pointer. A
/// nested object the schema gains without a name here fails the rendering.
const CLASSES: &[(&str, &str)] = &[
    ("Snapshot", "/definitions/Success"),
    ("SnapshotError", "/definitions/Error"),
    ("Viewport", "/definitions/Success/properties/viewport"),
    ("SnapshotMeta", "/definitions/Success/properties/meta"),
    (
        "Stability",
        "/definitions/Success/properties/meta/properties/stability",
    ),
    ("SnapshotDiff", "/definitions/Success/properties/diff"),
    ("Frames", "/definitions/Frames"),
    (
        "FrameIncluded",
        "/definitions/Frames/properties/included/items",
    ),
    (
        "FrameSkipped",
        "/definitions/Frames/properties/skipped/items",
    ),
    ("Element", "/definitions/Element"),
    ("BBox", "/definitions/Element/properties/bbox"),
    ("VisualCues", "/definitions/Element/properties/visual_cues"),
    ("ElementState", "/definitions/State"),
    (
        "SelectOption",
        "/definitions/State/properties/options/items",
    ),
];

/// Enumerations that get a name of their own (the others stay inline).
const NAMED_ENUMS: &[(&str, &str)] = &[
    ("Role", "/definitions/Element/properties/role"),
    (
        "SkipReason",
        "/definitions/Frames/properties/skipped/items/properties/reason",
    ),
];

/// A field's type, as both languages need it.
#[derive(Debug, Clone, PartialEq)]
enum Ty {
    Str,
    Int,
    Num,
    Bool,
    /// JSON literals (enum / const).
    Literal(Vec<Value>),
    /// A named enumeration.
    Alias(String),
    /// A class of `CLASSES`.
    Class(String),
    List(Box<Ty>),
    Nullable(Box<Ty>),
}

#[derive(Debug)]
struct Field {
    name: String,
    doc: Option<String>,
    required: bool,
    ty: Ty,
}

#[derive(Debug)]
struct Class {
    name: &'static str,
    doc: Option<String>,
    fields: Vec<Field>,
}

fn doc_of(v: &Value) -> Option<String> {
    v.get("description")
        .and_then(Value::as_str)
        .map(String::from)
}

fn name_at<'a>(table: &'a [(&'a str, &'a str)], pointer: &str) -> Option<&'a str> {
    table.iter().find(|(_, p)| *p == pointer).map(|(n, _)| *n)
}

/// The type of the schema at `pointer` (a property or an item).
fn ty_of(schema: &Value, pointer: &str) -> Result<Ty, String> {
    let s = schema
        .pointer(pointer)
        .ok_or_else(|| format!("no {pointer}"))?;
    if let Some(Value::String(r)) = s.get("$ref") {
        let target = r.trim_start_matches('#');
        return name_at(CLASSES, target)
            .map(|n| Ty::Class(n.into()))
            .ok_or_else(|| format!("{pointer}: $ref {r} has no class name in CLASSES"));
    }
    if let Some(name) = name_at(NAMED_ENUMS, pointer) {
        return Ok(Ty::Alias(name.into()));
    }
    if let Some(c) = s.get("const") {
        return Ok(Ty::Literal(vec![c.clone()]));
    }
    if let Some(Value::Array(choices)) = s.get("enum") {
        return Ok(Ty::Literal(choices.clone()));
    }
    let types: Vec<&str> = match s.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return Err(format!("{pointer}: no type")),
    };
    let nullable = types.contains(&"null");
    let base: Vec<&str> = types.into_iter().filter(|t| *t != "null").collect();
    let ty = match base.as_slice() {
        ["string"] => Ty::Str,
        ["integer"] => Ty::Int,
        ["number"] => Ty::Num,
        ["boolean"] => Ty::Bool,
        ["array"] => Ty::List(Box::new(ty_of(schema, &format!("{pointer}/items"))?)),
        ["object"] => name_at(CLASSES, pointer)
            .map(|n| Ty::Class(n.into()))
            .ok_or_else(|| format!("{pointer}: an object with no class name in CLASSES"))?,
        other => return Err(format!("{pointer}: unsupported type {other:?}")),
    };
    Ok(if nullable {
        Ty::Nullable(Box::new(ty))
    } else {
        ty
    })
}

fn classes(schema: &Value) -> Result<Vec<Class>, String> {
    let mut out = Vec::new();
    for (name, pointer) in CLASSES {
        let def = schema
            .pointer(pointer)
            .ok_or_else(|| format!("schema has no {pointer}"))?;
        let required: Vec<&str> = def["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut fields = Vec::new();
        if let Some(props) = def["properties"].as_object() {
            // Sorted by name: serde_json's map keeps the file's order when
            // another crate of the workspace turns on `preserve_order`, so
            // the generated files must not depend on the map's own order.
            let mut props: Vec<_> = props.iter().collect();
            props.sort_by(|a, b| a.0.cmp(b.0));
            for (key, prop) in props {
                fields.push(Field {
                    name: key.clone(),
                    doc: doc_of(prop),
                    required: required.contains(&key.as_str()),
                    ty: ty_of(schema, &format!("{pointer}/properties/{key}"))?,
                });
            }
        }
        out.push(Class {
            name,
            doc: doc_of(def),
            fields,
        });
    }
    Ok(out)
}

fn enum_values(schema: &Value, pointer: &str) -> Vec<Value> {
    schema
        .pointer(&format!("{pointer}/enum"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

// ---------------------------------------------------------------- Python

fn py_literal(v: &Value) -> String {
    match v {
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        other => other.to_string(),
    }
}

fn py_type(ty: &Ty) -> String {
    match ty {
        Ty::Str => "str".into(),
        Ty::Int => "int".into(),
        Ty::Num => "float".into(),
        Ty::Bool => "bool".into(),
        Ty::Literal(vs) => format!(
            "Literal[{}]",
            vs.iter().map(py_literal).collect::<Vec<_>>().join(", ")
        ),
        Ty::Alias(n) | Ty::Class(n) => n.clone(),
        Ty::List(inner) => match **inner {
            Ty::Class(ref n) => format!("ViewList[{n}]"),
            ref other => format!("List[{}]", py_type(other)),
        },
        Ty::Nullable(inner) => format!("Optional[{}]", py_type(inner)),
    }
}

/// The expression reading `raw` (a present value) as `ty`.
fn py_read(ty: &Ty, raw: &str) -> String {
    match ty {
        Ty::Class(n) => format!("{n}({raw})"),
        Ty::List(inner) => match **inner {
            Ty::Class(ref n) => format!("ViewList({raw}, {n})"),
            _ => raw.to_string(),
        },
        Ty::Nullable(inner) if matches!(**inner, Ty::Class(_) | Ty::List(_)) => {
            format!("_opt({raw}, lambda v: {})", py_read(inner, "v"))
        }
        _ => raw.to_string(),
    }
}

fn py_docstring(doc: &str, indent: &str) -> String {
    let text = doc.replace('\\', "\\\\").replace("\"\"\"", "'''");
    format!("{indent}\"\"\"{text}\"\"\"\n")
}

/// The JSON type tag of a field for `FIELDS` (checked by the SDK's tests).
fn json_tag(ty: &Ty) -> String {
    match ty {
        Ty::Str => "string".into(),
        Ty::Int => "integer".into(),
        Ty::Num => "number".into(),
        Ty::Bool => "boolean".into(),
        Ty::Literal(_) | Ty::Alias(_) => "literal".into(),
        Ty::Class(n) => n.clone(),
        Ty::List(inner) => format!("list:{}", json_tag(inner)),
        Ty::Nullable(inner) => format!("nullable:{}", json_tag(inner)),
    }
}

fn render_python(schema: &Value) -> Result<String, String> {
    let mut out = String::new();
    out.push_str(
        "# GENERATED from snapshot.schema.json (the snapshot contract v1): do not edit.\n",
    );
    let _ = writeln!(out, "# Regenerate with\n#   {REGENERATE}");
    out.push_str(
        "# (a cargo test fails while this file is stale).\n\
         \"\"\"Typed views of a snapshot (contract v1, docs/contracts/snapshot.md).\n\n\
         Each class wraps the parsed JSON object without copying it: a property\n\
         reads its key when asked, nested objects are views too, and lists of\n\
         objects (`ViewList`) build an element's view when indexed. `.raw` is the\n\
         JSON object itself; `FIELDS` lists each key as (name, JSON type, required).\n\
         \"\"\"\n\n\
         from __future__ import annotations\n\n\
         from typing import ClassVar, List, Literal, Optional, Tuple\n\n\
         from ._view import View, ViewList, _opt\n\n",
    );
    out.push_str("__all__ = [\n");
    for (name, _) in NAMED_ENUMS {
        let _ = writeln!(out, "    \"{name}\",");
    }
    for (name, _) in CLASSES {
        let _ = writeln!(out, "    \"{name}\",");
    }
    out.push_str("    \"View\",\n    \"ViewList\",\n]\n\n");
    for (name, pointer) in NAMED_ENUMS {
        let values = enum_values(schema, pointer);
        if values.is_empty() {
            return Err(format!("{pointer}: no enum"));
        }
        let _ = writeln!(
            out,
            "{name} = Literal[{}]",
            values.iter().map(py_literal).collect::<Vec<_>>().join(", ")
        );
    }
    for class in classes(schema)? {
        let _ = writeln!(out, "\n\nclass {}(View):", class.name);
        if let Some(d) = &class.doc {
            out.push_str(&py_docstring(d, "    "));
            out.push('\n');
        }
        out.push_str("    __slots__ = ()\n");
        out.push_str("    FIELDS: ClassVar[Tuple[Tuple[str, str, bool], ...]] = (\n");
        for f in &class.fields {
            let _ = writeln!(
                out,
                "        (\"{}\", \"{}\", {}),",
                f.name,
                json_tag(&f.ty),
                if f.required { "True" } else { "False" }
            );
        }
        out.push_str("    )\n");
        for f in &class.fields {
            let (ty, read) = if f.required {
                (
                    py_type(&f.ty),
                    py_read(&f.ty, &format!("self._raw[\"{}\"]", f.name)),
                )
            } else {
                let inner = match &f.ty {
                    Ty::Nullable(t) => (**t).clone(),
                    t => t.clone(),
                };
                (
                    format!("Optional[{}]", py_type(&inner)),
                    py_read(
                        &Ty::Nullable(Box::new(inner)),
                        &format!("self._raw.get(\"{}\")", f.name),
                    ),
                )
            };
            let _ = writeln!(out, "\n    @property\n    def {}(self) -> {ty}:", f.name);
            if let Some(d) = &f.doc {
                out.push_str(&py_docstring(d, "        "));
            }
            let _ = writeln!(out, "        return {read}");
        }
    }
    Ok(out)
}

// ------------------------------------------------------------ TypeScript

fn ts_type(ty: &Ty) -> String {
    match ty {
        Ty::Str => "string".into(),
        Ty::Int | Ty::Num => "number".into(),
        Ty::Bool => "boolean".into(),
        Ty::Literal(vs) => vs
            .iter()
            .map(|v| match v {
                Value::String(s) => format!("'{s}'"),
                other => other.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" | "),
        Ty::Alias(n) | Ty::Class(n) => n.clone(),
        Ty::List(inner) => match **inner {
            Ty::Literal(_) | Ty::Nullable(_) => format!("Array<{}>", ts_type(inner)),
            ref other => format!("{}[]", ts_type(other)),
        },
        Ty::Nullable(inner) => format!("{} | null", ts_type(inner)),
    }
}

fn ts_doc(doc: &str, indent: &str) -> String {
    format!("{indent}/** {} */\n", doc.replace("*/", "* /"))
}

fn render_typescript(schema: &Value) -> Result<String, String> {
    let mut out = String::new();
    out.push_str(
        "// GENERATED from snapshot.schema.json (the snapshot contract v1): do not edit.\n",
    );
    let _ = writeln!(out, "// Regenerate with\n//   {REGENERATE}");
    out.push_str("// (a cargo test fails while this file is stale).\n");
    for (name, pointer) in NAMED_ENUMS {
        let values = Ty::Literal(enum_values(schema, pointer));
        let _ = writeln!(out, "\nexport type {name} = {};", ts_type(&values));
    }
    for class in classes(schema)? {
        out.push('\n');
        if let Some(d) = &class.doc {
            out.push_str(&ts_doc(d, ""));
        }
        let _ = writeln!(out, "export interface {} {{", class.name);
        for f in &class.fields {
            if let Some(d) = &f.doc {
                out.push_str(&ts_doc(d, "  "));
            }
            let _ = writeln!(
                out,
                "  {}{}: {};",
                f.name,
                if f.required { "" } else { "?" },
                ts_type(&f.ty)
            );
        }
        out.push_str("}\n");
    }
    out.push_str(
        "\n/** What `snapshot()` resolves to in the page: a success or an error object. */\n",
    );
    out.push_str("export type SnapshotResult = Snapshot | SnapshotError;\n");
    Ok(out)
}

// ----------------------------------------------------------------- tests

fn check(path: &str, rendered: &str) {
    if std::env::var_os("UPDATE_CLIENT_MODELS").is_some() {
        std::fs::write(path, rendered).expect("write the generated file");
        return;
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == rendered,
        "{path} is stale: it no longer matches snapshot.schema.json; regenerate it with\n  {REGENERATE}"
    );
}

fn schema() -> Value {
    serde_json::from_str(SCHEMA).expect("snapshot.schema.json is JSON")
}

#[test]
fn python_models_are_generated_from_the_schema() {
    let rendered = render_python(&schema()).unwrap_or_else(|e| panic!("{e}"));
    check(PYTHON, &rendered);
}

#[test]
fn typescript_models_are_generated_from_the_schema() {
    let rendered = render_typescript(&schema()).unwrap_or_else(|e| panic!("{e}"));
    check(TYPESCRIPT, &rendered);
}

/// Every object of the schema has a class: a nested object added without a
/// name in `CLASSES` is refused rather than typed as a bare dict.
#[test]
fn an_unnamed_object_is_refused() {
    let mut s = schema();
    s["definitions"]["Element"]["properties"]["extra"] =
        serde_json::json!({"type": "object", "properties": {}});
    let err = render_python(&s).expect_err("refused");
    assert!(
        err.contains("/definitions/Element/properties/extra"),
        "{err}"
    );
}

/// Renaming a field in the schema changes the rendering (so the committed
/// file is then stale).
#[test]
fn a_renamed_field_changes_the_models() {
    let mut s = schema();
    let el = s["definitions"]["Element"]["properties"]
        .as_object_mut()
        .expect("Element properties");
    let z = el.remove("z_index").expect("z_index");
    el.insert("zindex".into(), z);
    let py = render_python(&s).expect("renders");
    assert!(py.contains("def zindex(self)") && !py.contains("def z_index("));
    let ts = render_typescript(&s).expect("renders");
    assert!(ts.contains("zindex?: number;") && !ts.contains("z_index"));
}
