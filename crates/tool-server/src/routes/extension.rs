//! Page understanding: specs/003 "GET /browser/dom/tree" (Chromium's own
//! accessibility tree), and beyond the spec the extension's snapshot
//! (docs/api.md, contract v1) and actions by snapshot element id.

use crate::body::{JsonBody, Query};
use crate::browser::ClickKind;
use crate::error::{ToolError, ToolResult};
use crate::geometry::{inside, Point};
use crate::routes::SessionQuery;
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

pub async fn dom_tree(
    State(state): State<AppState>,
    Query(q): Query<SessionQuery>,
) -> ToolResult<Json<Value>> {
    let s = state.session(q.session_id.as_deref()).await?;
    let tree = s.browser.accessibility_tree().await?;
    Ok(Json(json!({"success": true, "tree": tree})))
}

#[derive(Deserialize, Default)]
pub struct SnapshotQuery {
    session_id: Option<String>,
    /// At most this many elements (most important first).
    limit: Option<u32>,
    /// `json` (default): the snapshot; `text`: the compact LLM listing.
    format: Option<String>,
}

const MISSING: &str = "The Sentience extension is not active in this tab (window.sentience is missing; build it with pkg-scripts/build.sh, and note extensions do not run on about: or chrome: pages)";

async fn ensure_extension(s: &crate::state::Session) -> ToolResult<()> {
    for _ in 0..30 {
        if s.browser
            .evaluate("typeof window.sentience === 'object'")
            .await?
            == Value::Bool(true)
        {
            return Ok(());
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    Err(ToolError::Unavailable(MISSING.into()))
}

pub async fn snapshot(
    State(state): State<AppState>,
    Query(q): Query<SnapshotQuery>,
) -> ToolResult<Json<Value>> {
    let s = state.session(q.session_id.as_deref()).await?;
    ensure_extension(&s).await?;
    let opts = match q.limit {
        Some(n) if n > 0 => json!({"limit": n}),
        Some(_) => return Err(ToolError::bad_request("limit must be positive")),
        None => json!({}),
    };
    match q.format.as_deref().unwrap_or("json") {
        "json" => {
            let snap = s
                .browser
                .evaluate(&format!("window.sentience.snapshot({opts})"))
                .await?;
            Ok(Json(json!({"success": true, "snapshot": snap})))
        }
        "text" => {
            let text = s
                .browser
                .evaluate(&format!(
                    "window.sentience.snapshot({opts}).then(s => window.sentience.format(s))"
                ))
                .await?;
            Ok(Json(json!({"success": true, "text": text})))
        }
        other => Err(ToolError::bad_request(format!(
            "Unknown format {other:?} (json or text)"
        ))),
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum ActKind {
    Click,
    Type,
}

#[derive(Deserialize)]
pub struct ActRequest {
    session_id: Option<String>,
    element_id: u64,
    action: ActKind,
    text: Option<String>,
}

/// Acts on a snapshot element with the same trusted input as /click and
/// /type: the element is scrolled into view through the extension's
/// registry, and its centre is clicked with real pointer events.
pub async fn act(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<ActRequest>,
) -> ToolResult<Json<Value>> {
    let s = state.session(req.session_id.as_deref()).await?;
    ensure_extension(&s).await?;
    let id = req.element_id;
    let found = s
        .browser
        .evaluate(&format!(
            "(() => {{ const reg = window.sentience_registry; const el = reg && reg[{id}];
               if (!el || !el.isConnected) return null; el.scrollIntoView({{block: 'center', inline: 'center'}});
               const r = el.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ))
        .await?;
    let Some(centre) = found.as_array().map(|a| Point {
        x: a.first().and_then(Value::as_f64).unwrap_or(-1.0).round(),
        y: a.get(1).and_then(Value::as_f64).unwrap_or(-1.0).round(),
    }) else {
        return Err(ToolError::NotFound(format!(
            "Element {id} not found: take a snapshot (GET /browser/snapshot) and use one of its ids"
        )));
    };
    let vp = s.browser.viewport().await?;
    if !inside(centre, vp.placement.size) {
        return Err(crate::routes::input::out_of_bounds(
            "viewport",
            centre,
            vp.placement.size,
            centre,
        ));
    }
    let new_tab = s.browser.click(centre, ClickKind::Single).await?;
    let mut details = json!({"element_id": id, "viewport_coords": centre.rounded()});
    if let ActKind::Type = req.action {
        let text = req
            .text
            .ok_or_else(|| ToolError::bad_request("type needs text"))?;
        s.browser.insert_text(&text).await?;
        details["text_length"] = text.chars().count().into();
    }
    if let Some(t) = new_tab {
        details["new_tab"] = json!({"tab_id": t.id, "url": t.url});
    }
    Ok(Json(
        json!({"success": true, "executed_with": state.launcher.driver_name(), "details": details}),
    ))
}
