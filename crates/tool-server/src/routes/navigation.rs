//! docs/contracts/tools.md §12: navigate, reload, back, forward (each
//! answering the URL after redirects) and current_url.

use crate::body::{JsonBody, Query};
use crate::browser::HistoryStep;
use crate::error::ToolResult;
use crate::routes::sessions::{normalise_url, session_id, SessionBody};
use crate::routes::SessionQuery;
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Deserialize)]
pub struct NavigateRequest {
    session_id: Option<String>,
    url: String,
}

pub async fn navigate(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<NavigateRequest>,
) -> ToolResult<Json<Value>> {
    let url = normalise_url(&req.url)?;
    let s = state.session(req.session_id.as_deref()).await?;
    let url = s.browser.navigate(&url).await?;
    Ok(Json(json!({"success": true, "url": url})))
}

async fn step(state: AppState, id: Option<String>, step: HistoryStep) -> ToolResult<Json<Value>> {
    let s = state.session(id.as_deref()).await?;
    let url = s.browser.history(step).await?;
    Ok(Json(json!({"success": true, "url": url})))
}

pub async fn reload(
    State(state): State<AppState>,
    Query(q): Query<SessionQuery>,
    JsonBody(b): JsonBody<SessionBody>,
) -> ToolResult<Json<Value>> {
    step(state, session_id(q, b), HistoryStep::Reload).await
}

pub async fn back(
    State(state): State<AppState>,
    Query(q): Query<SessionQuery>,
    JsonBody(b): JsonBody<SessionBody>,
) -> ToolResult<Json<Value>> {
    step(state, session_id(q, b), HistoryStep::Back).await
}

pub async fn forward(
    State(state): State<AppState>,
    Query(q): Query<SessionQuery>,
    JsonBody(b): JsonBody<SessionBody>,
) -> ToolResult<Json<Value>> {
    step(state, session_id(q, b), HistoryStep::Forward).await
}

pub async fn current_url(
    State(state): State<AppState>,
    Query(q): Query<SessionQuery>,
) -> ToolResult<Json<Value>> {
    let s = state.session(q.session_id.as_deref()).await?;
    let url = s.browser.current_url().await?;
    Ok(Json(json!({"success": true, "url": url})))
}
