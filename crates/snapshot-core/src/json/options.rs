//! `snapshot(options)`'s JSON read into [`SnapshotOptions`], strictly: the
//! text becomes a [`Value`] tree ([`super::reader`]), then each field is
//! taken from it with a message that names the field and what it must be.
//! Accepts and rejects exactly what `serde_json::from_str` with the serde
//! derives on `crate::options` would, with the same values (the derives
//! stay on the types, in test builds, as the reference `options/tests.rs`
//! compares against; the messages are our own). So, like the derives, a
//! struct may also be given as an array of its fields in order, and an
//! enum value as `{"name": null}`.
//!
//! The values' own limits (`quality` ≤ 100, `since` ≥ 1, …) are checked
//! after, by `SnapshotOptions::validate`.

use super::reader::{self, Value};
use crate::contract::Role;
use crate::options::{
    Filter, FramesOption, FramesSpec, ImageFormat, ScreenshotOption, ScreenshotSpec,
    SnapshotOptions, StableOption, StableSpec,
};

type Result<T> = std::result::Result<T, String>;

const SCREENSHOT_SHAPE: &str =
    "true, false or {format?: \"png\"|\"jpeg\", quality?: 0..100, annotate?: true|false}";
const STABLE_SHAPE: &str = "true, false or {quiet_ms?, timeout_ms?}";
const FRAMES_SHAPE: &str = "true, false or {timeout_ms?}";
const OPTIONS_FIELDS: [&str; 7] = [
    "limit",
    "filter",
    "screenshot",
    "diff",
    "since",
    "wait_for_stable",
    "frames",
];
const U32_MAX: i64 = u32::MAX as i64;

/// Parses the options' JSON text; the error is the message after
/// "invalid snapshot options: ".
pub(crate) fn parse_options(json: &str) -> Result<SnapshotOptions> {
    let value = reader::parse(json)?;
    let [limit, filter, screenshot, diff, since, stable, frames] =
        fields(&value, "", OPTIONS_FIELDS, 7)?;
    Ok(SnapshotOptions {
        limit: optional(limit, |v| int(v, "limit", 0, U32_MAX).map(|n| n as u32))?,
        filter: optional(filter, filter_value)?,
        screenshot: optional(screenshot, |v| {
            let (path, shape) = ("screenshot", SCREENSHOT_SHAPE);
            Ok(match untagged(v, path, shape)? {
                Untagged::Flag(b) => ScreenshotOption::Enabled(b),
                Untagged::Spec(v) => ScreenshotOption::Format(
                    screenshot_spec(v).map_err(|e| in_shape(e, path, shape))?,
                ),
            })
        })?,
        diff: optional(diff, |v| boolean(v, "diff"))?,
        since: optional(since, |v| match int(v, "since", 0, U32_MAX) {
            Ok(n) => Ok(n as u32),
            Err(_) => Err("`since` must be a snapshot_id (an integer from 1 to 4294967295)".into()),
        })?,
        wait_for_stable: optional(stable, |v| {
            let (path, shape) = ("wait_for_stable", STABLE_SHAPE);
            Ok(match untagged(v, path, shape)? {
                Untagged::Flag(b) => StableOption::Enabled(b),
                Untagged::Spec(v) => {
                    StableOption::Timing(stable_spec(v).map_err(|e| in_shape(e, path, shape))?)
                }
            })
        })?,
        frames: optional(frames, |v| {
            let (path, shape) = ("frames", FRAMES_SHAPE);
            Ok(match untagged(v, path, shape)? {
                Untagged::Flag(b) => FramesOption::Enabled(b),
                Untagged::Spec(v) => {
                    FramesOption::Timing(frames_spec(v).map_err(|e| in_shape(e, path, shape))?)
                }
            })
        })?,
    })
}

/// `items` separated by ", ", each in backquotes when `quoted`. Not
/// `[T]::join`: its two instances (for `String` and `&str`) cost the
/// engine's WebAssembly 2.4 KB for three error messages.
fn listed(items: &[&str], quoted: bool) -> String {
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if quoted {
            out.push('`');
        }
        out.push_str(item);
        if quoted {
            out.push('`');
        }
    }
    out
}

/// `path` with `field` appended (`filter.min_area`).
fn join(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_string()
    } else {
        format!("{path}.{field}")
    }
}

/// A struct's fields: from an object by name (an unknown one is an error),
/// or from an array in declaration order, of at least `required` items
/// (the fields after them have a default). `None`: absent.
fn fields<'v, const N: usize>(
    value: &'v Value,
    path: &str,
    names: [&str; N],
    required: usize,
) -> Result<[Option<&'v Value>; N]> {
    let mut found = [None; N];
    fields_into(value, path, &names, required, &mut found)?;
    Ok(found)
}

/// [`fields`]' work, once for every struct (not generic: each of the
/// five structs' copy cost the engine's WebAssembly some 300 bytes).
fn fields_into<'v>(
    value: &'v Value,
    path: &str,
    names: &[&str],
    required: usize,
    found: &mut [Option<&'v Value>],
) -> Result<()> {
    match value {
        Value::Obj(entries) => {
            for (key, v) in entries {
                let Some(i) = names.iter().position(|name| name == key) else {
                    return Err(format!(
                        "unknown field `{}`, expected one of {}",
                        join(path, key),
                        listed(names, true)
                    ));
                };
                if let Some(slot) = found.get_mut(i) {
                    *slot = Some(v);
                }
            }
        }
        Value::Arr(items) if (required..=names.len()).contains(&items.len()) => {
            for (slot, item) in found.iter_mut().zip(items) {
                *slot = Some(item);
            }
        }
        Value::Arr(_) => {
            return Err(format!(
                "{} as an array must list its fields in order: {}",
                if path.is_empty() { "options" } else { path },
                listed(names, false)
            ))
        }
        _ if path.is_empty() => return Err("options must be an object".into()),
        _ => return Err(format!("`{path}` must be an object")),
    }
    Ok(())
}

/// An `Option<T>` field: absent and `null` are `None`.
fn optional<T>(value: Option<&Value>, read: impl Fn(&Value) -> Result<T>) -> Result<Option<T>> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(v) => read(v).map(Some),
    }
}

/// An integer field: only a plain integer literal (`1.0`, `1e2` and `-0`
/// are floats to serde_json, so not integers here either).
fn int(value: &Value, path: &str, min: i64, max: i64) -> Result<i64> {
    match value {
        Value::Num(n) if n.int.is_some_and(|n| (min..=max).contains(&n)) => Ok(n.int.unwrap_or(0)),
        _ => Err(format!("`{path}` must be an integer from {min} to {max}")),
    }
}

fn boolean(value: &Value, path: &str) -> Result<bool> {
    match value {
        Value::Bool(b) => Ok(*b),
        _ => Err(format!("`{path}` must be true or false")),
    }
}

/// serde's untagged `Enabled(bool) | Spec`: `true`/`false`, or a spec
/// object (or array) for the caller to read (an error inside it is given
/// to [`in_shape`]). Not generic, like [`fields_into`].
fn untagged<'v>(value: &'v Value, path: &str, shape: &str) -> Result<Untagged<'v>> {
    match value {
        Value::Bool(b) => Ok(Untagged::Flag(*b)),
        Value::Obj(_) | Value::Arr(_) => Ok(Untagged::Spec(value)),
        _ => Err(format!("`{path}` must be {shape}")),
    }
}

enum Untagged<'v> {
    Flag(bool),
    Spec(&'v Value),
}

/// An error inside an untagged option's spec also says the option's whole shape.
fn in_shape(e: String, path: &str, shape: &str) -> String {
    format!("{e} ({path} must be {shape})")
}

/// A unit enum variant by name: `"name"`, or `{"name": null}` as serde
/// also reads one.
fn variant_name(value: &Value) -> Option<&str> {
    match value {
        Value::Str(name) => Some(name),
        Value::Obj(entries) => match entries.as_slice() {
            [(name, Value::Null)] => Some(name),
            _ => None,
        },
        _ => None,
    }
}

fn filter_value(value: &Value) -> Result<Filter> {
    let [area, roles, z, viewport] = fields(
        value,
        "filter",
        [
            "min_area",
            "allowed_roles",
            "min_z_index",
            "in_viewport_only",
        ],
        4,
    )?;
    Ok(Filter {
        min_area: optional(area, |v| match v {
            Value::Num(n) => Ok(n.float),
            _ => Err("`filter.min_area` must be a number".into()),
        })?,
        allowed_roles: optional(roles, |v| match v {
            Value::Arr(items) => items.iter().map(role).collect(),
            _ => Err("`filter.allowed_roles` must be an array of roles".into()),
        })?,
        min_z_index: optional(z, |v| {
            let (min, max) = (i32::MIN.into(), i32::MAX.into());
            int(v, "filter.min_z_index", min, max).map(|n| n as i32)
        })?,
        in_viewport_only: optional(viewport, |v| boolean(v, "filter.in_viewport_only"))?,
    })
}

fn role(value: &Value) -> Result<Role> {
    let name = variant_name(value);
    name.and_then(Role::parse).ok_or_else(|| {
        let mut names = [""; Role::ALL.len()];
        for (name, role) in names.iter_mut().zip(Role::ALL) {
            *name = role.as_str();
        }
        let roles = listed(&names, true);
        let got = match name {
            Some(name) => format!("unknown variant `{name}` in"),
            None => "a role name expected in".into(),
        };
        format!("{got} `filter.allowed_roles`, expected one of {roles}")
    })
}

fn screenshot_spec(value: &Value) -> Result<ScreenshotSpec> {
    let [format, quality, annotate] =
        fields(value, "screenshot", ["format", "quality", "annotate"], 2)?;
    let format = match format.map(variant_name) {
        None => ImageFormat::Png,
        Some(Some("png")) => ImageFormat::Png,
        Some(Some("jpeg")) => ImageFormat::Jpeg,
        Some(_) => return Err("`screenshot.format` must be \"png\" or \"jpeg\"".into()),
    };
    Ok(ScreenshotSpec {
        format,
        // 101..=255 pass here (a `u8`) and fail `validate` with its message.
        quality: optional(quality, |v| match int(v, "", 0, 255) {
            Ok(q) => Ok(q as u8),
            Err(_) => Err("`screenshot.quality` must be an integer from 0 to 100".into()),
        })?,
        annotate: optional(annotate, |v| boolean(v, "screenshot.annotate"))?,
    })
}

fn frames_spec(value: &Value) -> Result<FramesSpec> {
    let [timeout] = fields(value, "frames", ["timeout_ms"], 1)?;
    Ok(FramesSpec {
        timeout_ms: optional(timeout, |v| {
            int(v, "frames.timeout_ms", 0, U32_MAX).map(|n| n as u32)
        })?,
    })
}

fn stable_spec(value: &Value) -> Result<StableSpec> {
    let [quiet, timeout] = fields(value, "wait_for_stable", ["quiet_ms", "timeout_ms"], 2)?;
    let ms = |v: Option<&Value>, path| optional(v, |v| int(v, path, 0, U32_MAX).map(|n| n as u32));
    Ok(StableSpec {
        quiet_ms: ms(quiet, "wait_for_stable.quiet_ms")?,
        timeout_ms: ms(timeout, "wait_for_stable.timeout_ms")?,
    })
}

#[cfg(test)]
mod tests;
