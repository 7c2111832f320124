//! `serde_json::from_str::<SnapshotOptions>` without serde's generic
//! deserializer: what `#[derive(Deserialize)]` generates for the option
//! types (`deny_unknown_fields`, the untagged `ScreenshotOption`), written
//! out over [`crate::json::reader`]. Same values, same errors, same error
//! positions; `options_parse_tests.rs` checks it against serde_json and the
//! derives, which stay on the types as the reference.
//!
//! Error positions follow serde_json: a syntax error is placed where it is
//! found; a "custom" error (unknown field, invalid type, …) is placed by the
//! innermost enclosing `deserialize_*` call when it returns, after that call
//! has tried to close its `}` / `]` (the `.map_err(|e| r.fix(e))`s).

use crate::json::reader::{invalid_type, invalid_value, JsonError, Num, Reader, Result, EOF_VALUE};
use crate::options::{Filter, SnapshotOptions};
pub(crate) use variants::UNTAGGED;
use variants::{roles_value, screenshot_value, stable_value};

mod variants;

const OPTIONS_FIELDS: &[&str] = &[
    "limit",
    "filter",
    "screenshot",
    "diff",
    "since",
    "wait_for_stable",
];
const FILTER_FIELDS: &[&str] = &[
    "min_area",
    "allowed_roles",
    "min_z_index",
    "in_viewport_only",
];

/// Parses the options JSON text as `serde_json::from_str` would.
pub(crate) fn parse_options(json: &str) -> std::result::Result<SnapshotOptions, JsonError> {
    let mut r = Reader::new(json);
    let options = structure(&mut r, "struct SnapshotOptions", options_map, options_seq)?;
    r.end()?;
    Ok(options)
}

/// serde's `OneOf`: "`a`", "`a` or `b`", "one of `a`, `b`, `c`".
fn one_of(names: &[&str]) -> String {
    let mut out = String::new();
    if names.len() > 2 {
        out.push_str("one of ");
    }
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            out.push_str(if names.len() == 2 { " or " } else { ", " });
        }
        out.push('`');
        out.push_str(name);
        out.push('`');
    }
    out
}

fn unknown(what: &str, name: &str, expected: &[&str]) -> JsonError {
    JsonError::custom(format!(
        "unknown {what} `{name}`, expected {}",
        one_of(expected)
    ))
}

/// `seen`: the field's slot is already filled (not generic: one copy in
/// the WebAssembly instead of one per field type).
fn check_duplicate(seen: bool, field: &str) -> Result<()> {
    if seen {
        Err(JsonError::custom(format!("duplicate field `{field}`")))
    } else {
        Ok(())
    }
}

fn missing(index: usize, expected: &str) -> JsonError {
    JsonError::custom(format!("invalid length {index}, expected {expected}"))
}

/// `deserialize_struct`: a map, or (serde's derive allows it) a sequence
/// of the fields in order.
fn structure<T>(
    r: &mut Reader,
    expected: &str,
    map: fn(&mut Reader) -> Result<T>,
    seq: fn(&mut Reader) -> Result<T>,
) -> Result<T> {
    let Some(peek) = r.parse_whitespace() else {
        return Err(r.peek_error(EOF_VALUE));
    };
    let value = match peek {
        b'[' | b'{' => {
            r.enter()?;
            r.eat_char();
            let ret = if peek == b'[' { seq(r) } else { map(r) };
            r.leave();
            let end = if peek == b'[' {
                r.end_seq()
            } else {
                r.end_map()
            };
            ret.and_then(|v| end.map(|()| v))
        }
        _ => Err(r.peek_invalid_type(expected)),
    };
    value.map_err(|e| r.fix(e))
}

/// `deserialize_option`: `null` is `None`, anything else is the value.
fn option<T>(r: &mut Reader, some: fn(&mut Reader) -> Result<T>) -> Result<Option<T>> {
    if r.parse_whitespace() == Some(b'n') {
        r.eat_char();
        r.parse_ident(b"ull")?;
        Ok(None)
    } else {
        some(r).map(Some)
    }
}

/// `SeqAccess::next_element`.
fn element<T>(
    r: &mut Reader,
    first: &mut bool,
    value: fn(&mut Reader) -> Result<T>,
) -> Result<Option<T>> {
    if r.has_next_element(first)? {
        value(r).map(Some)
    } else {
        Ok(None)
    }
}

/// `deserialize_number` with a primitive visitor.
fn number<T>(r: &mut Reader, expected: &str, visit: fn(Num) -> Result<T>) -> Result<T> {
    let Some(peek) = r.parse_whitespace() else {
        return Err(r.peek_error(EOF_VALUE));
    };
    let value = match peek {
        b'-' | b'0'..=b'9' => {
            if peek == b'-' {
                r.eat_char();
            }
            visit(r.parse_integer(peek != b'-')?)
        }
        _ => Err(r.peek_invalid_type(expected)),
    };
    value.map_err(|e| r.fix(e))
}

fn out_of_range(n: Num, expected: &str) -> JsonError {
    match n {
        Num::F64(_) => invalid_type(&n.unexpected(), expected),
        _ => invalid_value(&n.unexpected(), expected),
    }
}

fn u32_value(r: &mut Reader) -> Result<u32> {
    number(r, "u32", |n| {
        let v = match n {
            Num::U64(v) => u32::try_from(v).ok(),
            Num::I64(v) => u32::try_from(v).ok(),
            Num::F64(_) => None,
        };
        v.ok_or_else(|| out_of_range(n, "u32"))
    })
}

fn i32_value(r: &mut Reader) -> Result<i32> {
    number(r, "i32", |n| {
        let v = match n {
            Num::U64(v) => i32::try_from(v).ok(),
            Num::I64(v) => i32::try_from(v).ok(),
            Num::F64(_) => None,
        };
        v.ok_or_else(|| out_of_range(n, "i32"))
    })
}

fn f64_value(r: &mut Reader) -> Result<f64> {
    number(r, "f64", |n| {
        Ok(match n {
            Num::U64(v) => v as f64,
            Num::I64(v) => v as f64,
            Num::F64(v) => v,
        })
    })
}

/// `deserialize_bool`.
fn bool_value(r: &mut Reader) -> Result<bool> {
    let Some(peek) = r.parse_whitespace() else {
        return Err(r.peek_error(EOF_VALUE));
    };
    let value = match peek {
        b't' | b'f' => {
            r.eat_char();
            r.parse_ident(if peek == b't' { b"rue" } else { b"alse" })?;
            Ok(peek == b't')
        }
        _ => Err(r.peek_invalid_type("a boolean")),
    };
    value.map_err(|e| r.fix(e))
}

fn options_map(r: &mut Reader) -> Result<SnapshotOptions> {
    let (mut limit, mut filter, mut screenshot) = (None, None, None);
    let (mut diff, mut since, mut stable) = (None, None, None);
    let mut first = true;
    while r.has_next_key(&mut first)? {
        let key = r.map_key()?;
        match key.as_str() {
            "limit" => {
                check_duplicate(limit.is_some(), "limit")?;
                r.parse_object_colon()?;
                limit = Some(option(r, u32_value)?);
            }
            "filter" => {
                check_duplicate(filter.is_some(), "filter")?;
                r.parse_object_colon()?;
                filter = Some(option(r, filter_value)?);
            }
            "screenshot" => {
                check_duplicate(screenshot.is_some(), "screenshot")?;
                r.parse_object_colon()?;
                screenshot = Some(option(r, screenshot_value)?);
            }
            "diff" => {
                check_duplicate(diff.is_some(), "diff")?;
                r.parse_object_colon()?;
                diff = Some(option(r, bool_value)?);
            }
            "since" => {
                check_duplicate(since.is_some(), "since")?;
                r.parse_object_colon()?;
                since = Some(option(r, u32_value)?);
            }
            "wait_for_stable" => {
                check_duplicate(stable.is_some(), "wait_for_stable")?;
                r.parse_object_colon()?;
                stable = Some(stable_value(r)?);
            }
            _ => return Err(unknown("field", &key, OPTIONS_FIELDS)),
        }
    }
    Ok(SnapshotOptions {
        limit: limit.flatten(),
        filter: filter.flatten(),
        screenshot: screenshot.flatten(),
        diff: diff.flatten(),
        since: since.flatten(),
        wait_for_stable: stable.flatten(),
    })
}

fn options_seq(r: &mut Reader) -> Result<SnapshotOptions> {
    const EXPECTED: &str = "struct SnapshotOptions with 6 elements";
    let mut first = true;
    let limit = element(r, &mut first, |r| option(r, u32_value))?;
    let limit = limit.ok_or_else(|| missing(0, EXPECTED))?;
    let filter = element(r, &mut first, |r| option(r, filter_value))?;
    let filter = filter.ok_or_else(|| missing(1, EXPECTED))?;
    let screenshot = element(r, &mut first, |r| option(r, screenshot_value))?;
    let screenshot = screenshot.ok_or_else(|| missing(2, EXPECTED))?;
    let diff = element(r, &mut first, |r| option(r, bool_value))?;
    let diff = diff.ok_or_else(|| missing(3, EXPECTED))?;
    let since = element(r, &mut first, |r| option(r, u32_value))?;
    let since = since.ok_or_else(|| missing(4, EXPECTED))?;
    let stable = element(r, &mut first, stable_value)?;
    let wait_for_stable = stable.ok_or_else(|| missing(5, EXPECTED))?;
    Ok(SnapshotOptions {
        limit,
        filter,
        screenshot,
        diff,
        since,
        wait_for_stable,
    })
}

fn filter_value(r: &mut Reader) -> Result<Filter> {
    structure(r, "struct Filter", filter_map, filter_seq)
}

fn filter_map(r: &mut Reader) -> Result<Filter> {
    let (mut area, mut roles, mut z, mut viewport) = (None, None, None, None);
    let mut first = true;
    while r.has_next_key(&mut first)? {
        let key = r.map_key()?;
        match key.as_str() {
            "min_area" => {
                check_duplicate(area.is_some(), "min_area")?;
                r.parse_object_colon()?;
                area = Some(option(r, f64_value)?);
            }
            "allowed_roles" => {
                check_duplicate(roles.is_some(), "allowed_roles")?;
                r.parse_object_colon()?;
                roles = Some(option(r, roles_value)?);
            }
            "min_z_index" => {
                check_duplicate(z.is_some(), "min_z_index")?;
                r.parse_object_colon()?;
                z = Some(option(r, i32_value)?);
            }
            "in_viewport_only" => {
                check_duplicate(viewport.is_some(), "in_viewport_only")?;
                r.parse_object_colon()?;
                viewport = Some(option(r, bool_value)?);
            }
            _ => return Err(unknown("field", &key, FILTER_FIELDS)),
        }
    }
    Ok(Filter {
        min_area: area.flatten(),
        allowed_roles: roles.flatten(),
        min_z_index: z.flatten(),
        in_viewport_only: viewport.flatten(),
    })
}

fn filter_seq(r: &mut Reader) -> Result<Filter> {
    const EXPECTED: &str = "struct Filter with 4 elements";
    let mut first = true;
    let area = element(r, &mut first, |r| option(r, f64_value))?;
    let min_area = area.ok_or_else(|| missing(0, EXPECTED))?;
    let roles = element(r, &mut first, |r| option(r, roles_value))?;
    let allowed_roles = roles.ok_or_else(|| missing(1, EXPECTED))?;
    let z = element(r, &mut first, |r| option(r, i32_value))?;
    let min_z_index = z.ok_or_else(|| missing(2, EXPECTED))?;
    let viewport = element(r, &mut first, |r| option(r, bool_value))?;
    let in_viewport_only = viewport.ok_or_else(|| missing(3, EXPECTED))?;
    Ok(Filter {
        min_area,
        allowed_roles,
        min_z_index,
        in_viewport_only,
    })
}

#[cfg(test)]
#[path = "options_tests.rs"]
mod tests;
