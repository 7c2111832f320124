//! Page understanding: docs/contracts/tools.md §14 (Chromium's own
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
    /// Addition: with `facts=true`, each element also carries the DOM facts an
    /// agent plans with (tag, type, label, value, form…: the run loop's
    /// `DomFacts`, docs/tools.md) and the snapshot the page's `title` and
    /// `visibleText`, as the extension's run loop sends them to /step.
    facts: Option<bool>,
    /// Addition: wait until the DOM has been quiet this long (ms) before
    /// the snapshot, as the run loop's does (a page still reacting to the
    /// last action is not read half built), for at most `timeout_ms`
    /// (default 1500); a page that never settles is taken at the timeout.
    quiet_ms: Option<u32>,
    timeout_ms: Option<u32>,
}

/// The default and the cap of `timeout_ms` (the extension's own cap).
const STABLE_TIMEOUT_MS: u32 = 1500;
const STABLE_MAX_TIMEOUT_MS: u32 = 30_000;

/// The snapshot options of a query: `limit`, and `wait_for_stable` for
/// `quiet_ms` (docs/tools.md).
fn snapshot_options(q: &SnapshotQuery) -> Result<Value, ToolError> {
    let mut opts = json!({});
    match q.limit {
        Some(0) => return Err(ToolError::bad_request("limit must be positive")),
        Some(n) => opts["limit"] = json!(n),
        None => {}
    }
    match (q.quiet_ms, q.timeout_ms) {
        (None, Some(_)) => {
            return Err(ToolError::bad_request(
                "timeout_ms needs quiet_ms (the DOM quiet to wait for)",
            ))
        }
        (Some(quiet), timeout) => {
            let timeout = timeout.unwrap_or(STABLE_TIMEOUT_MS.max(quiet));
            if quiet == 0 || quiet > timeout || timeout > STABLE_MAX_TIMEOUT_MS {
                return Err(ToolError::bad_request(format!(
                    "quiet_ms must be at least 1 and at most timeout_ms, and timeout_ms at most {STABLE_MAX_TIMEOUT_MS} (got quiet_ms={quiet}, timeout_ms={timeout})"
                )));
            }
            opts["wait_for_stable"] = json!({"quiet_ms": quiet, "timeout_ms": timeout});
        }
        (None, None) => {}
    }
    Ok(opts)
}

/// The snapshot (or its LLM listing) of the active tab, with the full view:
/// the operator drives this browser, so frames of every origin are in it
/// (docs/api.md "Who may see and do what"; page scripts get less).
pub async fn snapshot(
    State(state): State<AppState>,
    Query(q): Query<SnapshotQuery>,
) -> ToolResult<Json<Value>> {
    let opts = snapshot_options(&q)?;
    let s = state.session(q.session_id.as_deref()).await?;
    let format = q.format.as_deref().unwrap_or("json");
    if format != "json" && format != "text" {
        return Err(ToolError::bad_request(format!(
            "Unknown format {format:?} (json or text)"
        )));
    }
    let snap = s.browser.extension_call("snapshot", &opts).await?;
    if snap.get("status").and_then(Value::as_str) != Some("success") {
        let why = snap
            .get("error")
            .and_then(Value::as_str)
            .unwrap_or("no answer");
        return Err(ToolError::Backend(format!("snapshot failed: {why}")));
    }
    if format == "json" {
        let mut snap = snap;
        if q.facts == Some(true) {
            with_facts(s.browser.as_ref(), &mut snap).await?;
        }
        return Ok(Json(json!({"success": true, "snapshot": snap})));
    }
    // The listing of the snapshot just taken (the extension keeps it).
    let text = s.browser.extension_call("format", &json!({})).await?;
    match text {
        Value::String(_) => Ok(Json(json!({"success": true, "text": text}))),
        other => Err(ToolError::Backend(format!("format failed: {other}"))),
    }
}

/// The DOM facts of every element of `snap` and the page's title and
/// visible text (the extension's `page_info`), merged into it.
async fn with_facts(
    browser: &dyn crate::browser::BrowserSession,
    snap: &mut Value,
) -> ToolResult<()> {
    let ids: Vec<Value> = snap
        .get("elements")
        .and_then(Value::as_array)
        .map(|els| els.iter().filter_map(|e| e.get("id").cloned()).collect())
        .unwrap_or_default();
    let info = browser
        .extension_call("page_info", &json!({ "ids": ids }))
        .await?;
    let facts = info.get("elements").and_then(Value::as_object);
    if let Some(els) = snap.get_mut("elements").and_then(Value::as_array_mut) {
        for e in els.iter_mut() {
            let key = e.get("id").map(|id| id.to_string()).unwrap_or_default();
            if let (Some(f), Some(o)) = (
                facts.and_then(|f| f.get(&key)).and_then(Value::as_object),
                e.as_object_mut(),
            ) {
                for (k, v) in f {
                    o.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
        }
    }
    if let Some(o) = snap.as_object_mut() {
        o.insert(
            "title".into(),
            info.get("title").cloned().unwrap_or(json!("")),
        );
        o.insert(
            "visibleText".into(),
            info.get("visibleText").cloned().unwrap_or(json!("")),
        );
    }
    Ok(())
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum ActKind {
    Click,
    Type,
    /// Addition: set the field's value the way the extension's `type` does
    /// (a `<select>`'s option, a date or time input's whole value), for
    /// controls that keystrokes do not fill.
    Fill,
    /// Addition: the element into view (the page, or the box it scrolls
    /// in: an inbox's list), or with `within` its own content by `dy`
    /// pixels, by the extension as a run's `scroll` tool does — no click.
    Scroll,
}

#[derive(Deserialize)]
pub struct ActRequest {
    session_id: Option<String>,
    element_id: u64,
    action: ActKind,
    text: Option<String>,
    /// `scroll`: the element's own content, by `dy` pixels.
    #[serde(default)]
    within: bool,
    #[serde(default)]
    dy: f64,
}

/// Acts on a snapshot element with the same trusted input as /click and
/// /type: the element is scrolled into view by the extension, and the
/// centre of its box is clicked with real pointer events.
pub async fn act(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<ActRequest>,
) -> ToolResult<Json<Value>> {
    let s = state.session(req.session_id.as_deref()).await?;
    let id = req.element_id;
    if let ActKind::Fill = req.action {
        let text = req
            .text
            .ok_or_else(|| ToolError::bad_request("fill needs text"))?;
        let r = s
            .browser
            .extension_call("type", &json!({"id": id, "text": text}))
            .await?;
        if r.get("success").and_then(Value::as_bool) != Some(true) {
            let why = r.get("error").and_then(Value::as_str).unwrap_or("failed");
            return Err(ToolError::NotFound(format!("fill element {id}: {why}")));
        }
        return Ok(Json(json!({
            "success": true,
            "executed_with": "extension",
            "details": {"element_id": id, "text_length": text.chars().count(), "outcome": r.get("outcome").cloned().unwrap_or(Value::Null)}
        })));
    }
    if let ActKind::Scroll = req.action {
        let r = s
            .browser
            .extension_call(
                "scroll",
                &json!({"id": id, "within": req.within, "dy": req.dy}),
            )
            .await?;
        if r.get("success").and_then(Value::as_bool) != Some(true) {
            let why = r.get("error").and_then(Value::as_str).unwrap_or("failed");
            return Err(ToolError::NotFound(format!("scroll element {id}: {why}")));
        }
        return Ok(Json(json!({
            "success": true,
            "executed_with": "extension",
            "details": {"element_id": id, "outcome": r.get("outcome").cloned().unwrap_or(Value::Null)}
        })));
    }
    let not_found = |why: &str| {
        ToolError::NotFound(format!(
            "Element {id} not found ({why}): take a snapshot (GET /browser/snapshot) and use one of its ids"
        ))
    };
    // Into view (inside its frame too), then its box from a fresh snapshot:
    // top-level viewport coordinates, frames included.
    let scrolled = s
        .browser
        .extension_call("scroll", &json!({"id": id}))
        .await?;
    if scrolled.get("success").and_then(Value::as_bool) != Some(true) {
        let why = scrolled
            .get("error")
            .and_then(Value::as_str)
            .unwrap_or("unknown id");
        return Err(not_found(why));
    }
    let snap = s.browser.extension_call("snapshot", &json!({})).await?;
    let bbox = snap
        .get("elements")
        .and_then(Value::as_array)
        .and_then(|els| {
            els.iter()
                .find(|e| e.get("id").and_then(Value::as_u64) == Some(id))
        })
        .and_then(|e| e.get("bbox"))
        .ok_or_else(|| not_found("not in the page's snapshot any more"))?;
    let num = |k: &str| bbox.get(k).and_then(Value::as_f64).unwrap_or(-1.0);
    let centre = Point {
        x: (num("x") + num("width") / 2.0).round(),
        y: (num("y") + num("height") / 2.0).round(),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn q(limit: Option<u32>, quiet_ms: Option<u32>, timeout_ms: Option<u32>) -> SnapshotQuery {
        SnapshotQuery {
            limit,
            quiet_ms,
            timeout_ms,
            ..SnapshotQuery::default()
        }
    }

    #[test]
    fn quiet_ms_asks_the_extension_to_wait_for_a_quiet_dom() {
        assert_eq!(snapshot_options(&q(None, None, None)).ok(), Some(json!({})));
        assert_eq!(
            snapshot_options(&q(Some(100), Some(120), None)).ok(),
            Some(json!({"limit": 100, "wait_for_stable": {"quiet_ms": 120, "timeout_ms": 1500}}))
        );
        // A quiet longer than the default timeout is waited for whole.
        assert_eq!(
            snapshot_options(&q(None, Some(2000), None)).ok(),
            Some(json!({"wait_for_stable": {"quiet_ms": 2000, "timeout_ms": 2000}}))
        );
        assert_eq!(
            snapshot_options(&q(None, Some(1), Some(30_000))).ok(),
            Some(json!({"wait_for_stable": {"quiet_ms": 1, "timeout_ms": 30_000}}))
        );
    }

    #[test]
    fn impossible_waits_are_refused_with_what_was_asked() {
        for (quiet, timeout) in [
            (Some(0), None),
            (None, Some(500)),
            (Some(600), Some(500)),
            (Some(10), Some(30_001)),
        ] {
            let e = snapshot_options(&q(None, quiet, timeout)).expect_err("refused");
            assert!(
                matches!(e, ToolError::BadRequest { .. }),
                "{quiet:?} {timeout:?}"
            );
        }
        assert!(snapshot_options(&q(Some(0), None, None)).is_err());
    }
}
