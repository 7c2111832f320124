//! docs/contracts/tools.md §13: list, new, close, switch. A new tab becomes
//! the active one, as when a user opens a tab.

use crate::body::{JsonBody, Query};
use crate::error::ToolResult;
use crate::routes::sessions::normalise_url;
use crate::routes::SessionQuery;
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

pub async fn list(
    State(state): State<AppState>,
    Query(q): Query<SessionQuery>,
) -> ToolResult<Json<Value>> {
    let s = state.session(q.session_id.as_deref()).await?;
    let tabs = s.browser.tabs().await?;
    Ok(Json(json!({"success": true, "tabs": tabs})))
}

#[derive(Deserialize)]
pub struct NewTab {
    session_id: Option<String>,
    url: Option<String>,
}

pub async fn open(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<NewTab>,
) -> ToolResult<Json<Value>> {
    let url = req.url.as_deref().map(normalise_url).transpose()?;
    let s = state.session(req.session_id.as_deref()).await?;
    let tab = s.browser.new_tab(url.as_deref()).await?;
    let tab = s.browser.switch_tab(tab.id).await?;
    Ok(Json(
        json!({"success": true, "tab_id": tab.id, "url": tab.url}),
    ))
}

#[derive(Deserialize)]
pub struct CloseTab {
    session_id: Option<String>,
    tab_id: Option<u64>,
}

pub async fn close(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<CloseTab>,
) -> ToolResult<Json<Value>> {
    let s = state.session(req.session_id.as_deref()).await?;
    let remaining = s.browser.close_tab(req.tab_id).await?;
    Ok(Json(json!({"success": true, "remaining_tabs": remaining})))
}

#[derive(Deserialize)]
pub struct SwitchTab {
    session_id: Option<String>,
    tab_id: u64,
}

pub async fn switch(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<SwitchTab>,
) -> ToolResult<Json<Value>> {
    let s = state.session(req.session_id.as_deref()).await?;
    let tab = s.browser.switch_tab(req.tab_id).await?;
    Ok(Json(
        json!({"success": true, "tab_id": tab.id, "url": tab.url}),
    ))
}
