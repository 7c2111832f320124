//! Request bodies and query strings. The tool contract's own client
//! (docs/contracts/tools.md §17) posts JSON with `fetch(url, {method: 'POST',
//! body: JSON.stringify(…)})`, i.e. without a JSON Content-Type (and
//! /browser/start with no body at all), so the body is parsed as JSON whatever
//! its Content-Type, and an empty body is `{}`.

use crate::error::ToolError;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

/// A JSON body of type `T`; an empty body deserialises from `{}`.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ToolError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|e| ToolError::bad_request(format!("Could not read the request body: {e}")))?;
        let bad =
            |e: serde_json::Error| ToolError::bad_request(format!("Invalid request body: {e}"));
        let value: serde_json::Value = if bytes.iter().all(u8::is_ascii_whitespace) {
            serde_json::Value::Null
        } else {
            serde_json::from_slice(&bytes).map_err(bad)?
        };
        // No body, or `null`, is an empty object: every field optional.
        let value = if value.is_null() {
            serde_json::json!({})
        } else {
            value
        };
        serde_json::from_value(value).map(JsonBody).map_err(bad)
    }
}

/// Query parameters of type `T`, with the same error shape as bodies.
pub struct Query<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Query<T> {
    type Rejection = ToolError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let q = parts.uri.query().unwrap_or("");
        serde_urlencoded_like(q)
            .and_then(|v| serde_json::from_value(v).map_err(|e| e.to_string()))
            .map(Query)
            .map_err(|e| ToolError::bad_request(format!("Invalid query string: {e}")))
    }
}

/// Query strings here are flat `key=value` pairs; values that read as
/// integers or booleans are typed so that `?limit=50` fills a number.
fn serde_urlencoded_like(q: &str) -> Result<serde_json::Value, String> {
    let mut map = serde_json::Map::new();
    for pair in q.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let k = percent_decode(k)?;
        let v = percent_decode(v)?;
        let value = if let Ok(n) = v.parse::<i64>() {
            serde_json::Value::from(n)
        } else if v == "true" || v == "false" {
            serde_json::Value::Bool(v == "true")
        } else {
            serde_json::Value::String(v)
        };
        map.insert(k, value);
    }
    Ok(serde_json::Value::Object(map))
}

fn percent_decode(s: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| format!("bad percent escape in {s:?}"))?;
                out.push(hex);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| format!("{s:?} is not UTF-8"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
