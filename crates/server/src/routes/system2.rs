//! POST /s2 (docs/contracts/system2.md §2): the System 2 decision over a screenshot and elements.

use crate::body::Body;
use crate::error::ApiError;
use crate::state::AppState;
use crate::system2_validate;
use axum::extract::State;
use axum::Json;
use sentience_agent::system2::image::{is_url, Screenshot};
use sentience_agent::system2::{decide, System2Input, System2Response};
use serde_json::json;

/// Fetch a screenshot URL with the configured timeout and size cap.
async fn fetch(s: &AppState, url: &str) -> Result<Vec<u8>, ApiError> {
    let fail = |why: String| {
        ApiError::System2BadRequest(format!("Could not fetch screenshot URL {url}: {why}"))
    };
    let mut resp = s
        .http
        .get(url.trim())
        .send()
        .await
        .map_err(|e| fail(e.to_string()))?;
    if !resp.status().is_success() {
        return Err(fail(format!("HTTP {}", resp.status())));
    }
    let cap = s.config.screenshot_max_bytes;
    if resp.content_length().is_some_and(|n| n as usize > cap) {
        return Err(fail(format!("larger than {cap} bytes")));
    }
    let mut bytes = Vec::new();
    while let Some(chunk) = resp.chunk().await.map_err(|e| fail(e.to_string()))? {
        if bytes.len() + chunk.len() > cap {
            return Err(fail(format!("larger than {cap} bytes")));
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

enum Source {
    Url(Vec<u8>),
    Inline(String),
}

async fn source(s: &AppState, v: &str) -> Result<Source, ApiError> {
    Ok(if is_url(v) {
        Source::Url(fetch(s, v).await?)
    } else {
        Source::Inline(v.to_string())
    })
}

fn decode(src: Source) -> Result<Screenshot, ApiError> {
    let r = match src {
        Source::Url(bytes) => Screenshot::from_bytes(&bytes),
        Source::Inline(s) => Screenshot::from_base64(&s),
    };
    // docs/contracts/system2.md §8: 400 {"detail": "Invalid base64 image data"}.
    r.map_err(|e| ApiError::System2BadRequest(e.to_string()))
}

pub async fn system2(
    State(s): State<AppState>,
    body: Result<Body, ApiError>,
) -> Result<Json<System2Response>, ApiError> {
    let body = body.map_err(ApiError::into_system2)?;
    // FastAPI answers an unparsable body with 422 and a JSON-decode detail.
    let value: serde_json::Value = serde_json::from_slice(&body.0).map_err(|e| {
        ApiError::System2Validation(vec![json!({
            "loc": ["body", e.column()],
            "msg": format!("JSON decode error: {e}"),
            "type": "value_error.jsondecode"
        })])
    })?;
    let req = system2_validate::check(&value).map_err(ApiError::System2Validation)?;
    let shot = source(&s, &req.screenshot).await?;
    let prev = match &req.previous_screenshot {
        Some(p) if !p.trim().is_empty() => Some(source(&s, p).await?),
        _ => None,
    };
    // Decoding and pixel work are CPU-bound: keep them off the async workers.
    let out = tokio::task::spawn_blocking(move || -> Result<System2Response, ApiError> {
        let input = System2Input {
            task: req.task,
            screenshot: decode(shot)?,
            previous_screenshot: prev.map(decode).transpose()?,
            context: req.context,
            scratchpad: req.scratchpad,
            elements: req.elements,
            prev_action: req.prev_action,
        };
        Ok(decide(&input))
    })
    .await
    .map_err(|e| ApiError::System2Internal(format!("decision task failed: {e}")))??;
    Ok(Json(out))
}
