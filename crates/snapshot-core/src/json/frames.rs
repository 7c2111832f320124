//! The bridge's frame coverage report (extension/content/frames.js
//! `collectAll`), read from its JSON text into [`FrameCoverage`] so the
//! engine writes it into the answer with everything else. The text is our
//! own content script's, but its URLs are the page's: any malformed report
//! is an error, never a guess.

use super::reader::{self, Value};
use crate::contract::{FrameCoverage, IncludedFrame, SkippedFrame};

type Result<T> = std::result::Result<T, String>;

/// `""` (no frames gathered: `frames: false`) is `None`.
pub(crate) fn parse_coverage(json: &str) -> Result<Option<FrameCoverage>> {
    if json.trim().is_empty() {
        return Ok(None);
    }
    let value = reader::parse(json).map_err(|e| format!("invalid frames report: {e}"))?;
    coverage(&value)
        .map(Some)
        .ok_or_else(|| "invalid frames report: expected {included: [{url, depth, via}], skipped: [{url, reason}]}".into())
}

fn coverage(v: &Value) -> Option<FrameCoverage> {
    let included = list(field(v, "included")?, |f| {
        Some(IncludedFrame {
            url: string(field(f, "url")?)?,
            depth: match field(f, "depth")? {
                Value::Num(n) => u32::try_from(n.int?).ok()?,
                _ => return None,
            },
            via: string(field(f, "via")?)?,
        })
    })?;
    let skipped = list(field(v, "skipped")?, |f| {
        Some(SkippedFrame {
            url: string(field(f, "url")?)?,
            reason: string(field(f, "reason")?)?,
        })
    })?;
    Some(FrameCoverage { included, skipped })
}

fn field<'v>(v: &'v Value, name: &str) -> Option<&'v Value> {
    match v {
        Value::Obj(entries) => entries.iter().find(|(k, _)| k == name).map(|(_, v)| v),
        _ => None,
    }
}

fn string(v: &Value) -> Option<String> {
    match v {
        Value::Str(s) => Some(s.clone()),
        _ => None,
    }
}

fn list<T>(v: &Value, item: impl Fn(&Value) -> Option<T>) -> Option<Vec<T>> {
    match v {
        Value::Arr(items) => items.iter().map(item).collect(),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
