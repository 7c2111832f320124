//! docs/contracts/tools.md §11: start, stop, status.

use crate::body::{JsonBody, Query};
use crate::error::{ToolError, ToolResult};
use crate::routes::SessionQuery;
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Deserialize, Default)]
pub struct StartRequest {
    start_url: Option<String>,
    /// Default: headed when an X display is there, headless otherwise.
    headless: Option<bool>,
    /// Beyond the contract (docs/contracts/tools.md §18): the persistent
    /// profile's name (default "default"); one browser per profile at a time.
    profile: Option<String>,
}

/// Profile names become directory names: keep them to a safe alphabet.
fn profile_name(name: Option<&str>) -> ToolResult<String> {
    let name = name.unwrap_or("default");
    let ok = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && !name.starts_with('-');
    if ok {
        Ok(name.to_string())
    } else {
        Err(ToolError::bad_request(format!(
            "Invalid profile name {name:?}: use letters, digits, '-' and '_' (at most 64)"
        )))
    }
}

pub fn normalise_url(url: &str) -> ToolResult<String> {
    let url = url.trim();
    if url.is_empty() {
        return Err(ToolError::bad_request("Missing url"));
    }
    let has_scheme =
        url.split_once(':').is_some_and(|(s, _)| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        }) && (url.contains("://") || url.starts_with("about:") || url.starts_with("data:"));
    Ok(if has_scheme {
        url.to_string()
    } else {
        format!("https://{url}")
    })
}

pub async fn start(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<StartRequest>,
) -> ToolResult<Json<Value>> {
    let profile = profile_name(req.profile.as_deref())?;
    let start_url = req.start_url.as_deref().map(normalise_url).transpose()?;
    let headless = req.headless.unwrap_or(state.desktop.is_err());
    let s = state.start_session(&profile, headless, start_url).await?;
    let url = s.browser.current_url().await?;
    Ok(Json(json!({
        "success": true,
        "session_id": s.id,
        "current_url": url,
        "profile": profile,
        "headless": headless,
    })))
}

#[derive(Deserialize, Default)]
pub struct SessionBody {
    session_id: Option<String>,
}

/// `session_id` from the query (docs/contracts/tools.md §11) or, leniently, the body.
pub fn session_id(q: SessionQuery, b: SessionBody) -> Option<String> {
    q.session_id.or(b.session_id)
}

pub async fn stop(
    State(state): State<AppState>,
    Query(q): Query<SessionQuery>,
    JsonBody(b): JsonBody<SessionBody>,
) -> ToolResult<Json<Value>> {
    let s = state.session(session_id(q, b).as_deref()).await?;
    state.remove_session(&s.id).await;
    s.browser.close().await;
    Ok(Json(json!({"success": true, "session_id": s.id})))
}

pub async fn status(
    State(state): State<AppState>,
    Query(q): Query<SessionQuery>,
) -> ToolResult<Json<Value>> {
    if let Some(id) = q.session_id.as_deref() {
        let s = state.session(Some(id)).await?;
        let alive = s.browser.is_alive().await;
        let (url, tabs) = if alive {
            (
                s.browser.current_url().await.ok(),
                s.browser.tabs().await.map(|t| t.len()).unwrap_or(0),
            )
        } else {
            (None, 0)
        };
        return Ok(Json(json!({
            "success": true,
            "session_id": s.id,
            "is_alive": alive,
            "current_url": url,
            "tabs_count": tabs,
            "headless": s.browser.headless(),
        })));
    }
    let (all, active) = {
        let sessions = state.sessions.lock().await;
        (
            sessions.map.values().cloned().collect::<Vec<_>>(),
            sessions.active.clone(),
        )
    };
    let mut list = Vec::new();
    for s in all {
        let alive = s.browser.is_alive().await;
        let url = if alive {
            s.browser.current_url().await.ok()
        } else {
            None
        };
        list.push(json!({"session_id": s.id, "is_alive": alive, "current_url": url, "is_active": active.as_deref() == Some(s.id.as_str())}));
    }
    Ok(Json(
        json!({"success": true, "sessions": list, "active_session_id": active}),
    ))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
