//! The enum-valued options: `Role` (serde_json's `deserialize_enum`: a
//! unit variant as `"name"` or `{"name": null}`) and the untagged
//! `ScreenshotOption` (serde buffers the value, then tries each variant).

use super::{element, unknown};
use crate::contract::Role;
use crate::json::reader::{
    JsonError, Num, Reader, Result, Value, EOF_OBJECT, EOF_VALUE, EXPECTED_VALUE,
    KEY_MUST_BE_STRING,
};
use crate::options::{ImageFormat, ScreenshotOption, ScreenshotSpec, StableOption, StableSpec};

pub(crate) const UNTAGGED: &str =
    "data did not match any variant of untagged enum ScreenshotOption";
const UNTAGGED_STABLE: &str = "data did not match any variant of untagged enum StableOption";

/// `Vec<Role>`: `deserialize_seq`.
pub(super) fn roles_value(r: &mut Reader) -> Result<Vec<Role>> {
    let Some(peek) = r.parse_whitespace() else {
        return Err(r.peek_error(EOF_VALUE));
    };
    let value = if peek == b'[' {
        r.enter()?;
        r.eat_char();
        let ret = role_elements(r);
        r.leave();
        let end = r.end_seq();
        ret.and_then(|v| end.map(|()| v))
    } else {
        Err(r.peek_invalid_type("a sequence"))
    };
    value.map_err(|e| r.fix(e))
}

fn role_elements(r: &mut Reader) -> Result<Vec<Role>> {
    let mut roles = Vec::new();
    let mut first = true;
    while let Some(role) = element(r, &mut first, role_value)? {
        roles.push(role);
    }
    Ok(roles)
}

fn role_name(r: &Reader, name: &str) -> Result<Role> {
    let names = Role::ALL.map(Role::as_str);
    Role::parse(name).ok_or_else(|| r.fix(unknown("variant", name, &names)))
}

/// `Role`: serde_json's `deserialize_enum`, a unit variant given as
/// `"name"` or as `{"name": null}`.
fn role_value(r: &mut Reader) -> Result<Role> {
    match r.parse_whitespace() {
        Some(b'"') => {
            r.eat_char();
            let name = r.parse_str()?;
            role_name(r, &name)
        }
        Some(b'{') => {
            r.enter()?;
            r.eat_char();
            let ret = role_in_map(r);
            r.leave();
            let role = ret?;
            match r.parse_whitespace() {
                Some(b'}') => {
                    r.eat_char();
                    Ok(role)
                }
                Some(_) => Err(r.error(EXPECTED_VALUE)),
                None => Err(r.error(EOF_OBJECT)),
            }
        }
        Some(_) => Err(r.peek_error(EXPECTED_VALUE)),
        None => Err(r.peek_error(EOF_VALUE)),
    }
}

/// serde_json's `VariantAccess`: `"name": null` inside `{…}`.
fn role_in_map(r: &mut Reader) -> Result<Role> {
    match r.parse_whitespace() {
        Some(b'"') => {}
        Some(b'}') => return Err(r.peek_error(EXPECTED_VALUE)),
        Some(_) => return Err(r.peek_error(KEY_MUST_BE_STRING)),
        None => return Err(r.peek_error(EOF_OBJECT)),
    }
    let name = r.map_key()?;
    let role = role_name(r, &name)?;
    r.parse_object_colon()?;
    // `unit_variant`: `deserialize_unit`.
    let Some(peek) = r.parse_whitespace() else {
        return Err(r.peek_error(EOF_VALUE));
    };
    let unit = if peek == b'n' {
        r.eat_char();
        r.parse_ident(b"ull")
    } else {
        Err(r.peek_invalid_type("unit"))
    };
    unit.map_err(|e| r.fix(e))?;
    Ok(role)
}

/// The untagged `ScreenshotOption`: the value is buffered (serde's
/// `Content`), then tried as each variant in turn.
pub(super) fn screenshot_value(r: &mut Reader) -> Result<ScreenshotOption> {
    let content = r.parse_any()?;
    match &content {
        Value::Bool(b) => Some(ScreenshotOption::Enabled(*b)),
        other => spec_from(other).map(ScreenshotOption::Format),
    }
    .ok_or_else(|| JsonError::custom(UNTAGGED))
}

/// `ScreenshotSpec` from buffered content (any failure is "no match").
fn spec_from(content: &Value) -> Option<ScreenshotSpec> {
    match content {
        Value::Map(entries) => {
            let (mut format, mut quality, mut annotate) = (None, None, None);
            for (key, value) in entries {
                match key.as_str() {
                    "format" if format.is_none() => format = Some(format_from(value)?),
                    "quality" if quality.is_none() => quality = Some(quality_from(value)?),
                    "annotate" if annotate.is_none() => annotate = Some(annotate_from(value)?),
                    _ => return None,
                }
            }
            Some(ScreenshotSpec {
                format: format.unwrap_or_default(),
                quality: quality.flatten(),
                annotate: annotate.flatten(),
            })
        }
        // `annotate` has `#[serde(default)]`: the sequence may omit it.
        Value::Seq(items) => match items.as_slice() {
            [format, quality] => Some(ScreenshotSpec {
                format: format_from(format)?,
                quality: quality_from(quality)?,
                annotate: None,
            }),
            [format, quality, annotate] => Some(ScreenshotSpec {
                format: format_from(format)?,
                quality: quality_from(quality)?,
                annotate: annotate_from(annotate)?,
            }),
            _ => None,
        },
        _ => None,
    }
}

/// `ImageFormat` from buffered content: `"png"` or `{"png": null}`.
fn format_from(content: &Value) -> Option<ImageFormat> {
    let name = match content {
        Value::Str(name) => name,
        Value::Map(entries) => match entries.as_slice() {
            [(name, Value::Null)] => name,
            _ => return None,
        },
        _ => return None,
    };
    match name.as_str() {
        "png" => Some(ImageFormat::Png),
        "jpeg" => Some(ImageFormat::Jpeg),
        _ => None,
    }
}

/// `Option<bool>` from buffered content.
fn annotate_from(content: &Value) -> Option<Option<bool>> {
    match content {
        Value::Null => Some(None),
        Value::Bool(b) => Some(Some(*b)),
        _ => None,
    }
}

/// `Option<u8>` from buffered content.
fn quality_from(content: &Value) -> Option<Option<u8>> {
    match content {
        Value::Null => Some(None),
        Value::Num(Num::U64(v)) => u8::try_from(*v).ok().map(Some),
        Value::Num(Num::I64(v)) => u8::try_from(*v).ok().map(Some),
        _ => None,
    }
}

/// `Option<StableOption>`: `null` is `None` (what `deserialize_option`
/// does, read here from the buffered value: the same text and errors, one
/// generic instance less in the WebAssembly); otherwise the untagged enum,
/// `true`/`false` or a `StableSpec` (a map, or serde's sequence form
/// `[quiet_ms, timeout_ms]`).
pub(super) fn stable_value(r: &mut Reader) -> Result<Option<StableOption>> {
    let content = r.parse_any()?;
    match &content {
        Value::Null => return Ok(None),
        Value::Bool(b) => Some(StableOption::Enabled(*b)),
        other => stable_spec_from(other).map(StableOption::Timing),
    }
    .map(Some)
    .ok_or_else(|| JsonError::custom(UNTAGGED_STABLE))
}

fn stable_spec_from(content: &Value) -> Option<StableSpec> {
    match content {
        Value::Map(entries) => {
            let (mut quiet, mut timeout) = (None, None);
            for (key, value) in entries {
                match key.as_str() {
                    "quiet_ms" if quiet.is_none() => quiet = Some(opt_u32_from(value)?),
                    "timeout_ms" if timeout.is_none() => timeout = Some(opt_u32_from(value)?),
                    _ => return None,
                }
            }
            Some(StableSpec {
                quiet_ms: quiet.flatten(),
                timeout_ms: timeout.flatten(),
            })
        }
        Value::Seq(items) => match items.as_slice() {
            [quiet, timeout] => Some(StableSpec {
                quiet_ms: opt_u32_from(quiet)?,
                timeout_ms: opt_u32_from(timeout)?,
            }),
            _ => None,
        },
        _ => None,
    }
}

/// `Option<u32>` from buffered content.
fn opt_u32_from(content: &Value) -> Option<Option<u32>> {
    match content {
        Value::Null => Some(None),
        Value::Num(Num::U64(v)) => u32::try_from(*v).ok().map(Some),
        Value::Num(Num::I64(v)) => u32::try_from(*v).ok().map(Some),
        _ => None,
    }
}
