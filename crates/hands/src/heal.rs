//! Self-healing click (docs/contracts/tools.md §17.2;
//! docs/hands.md).
//!
//! The spec: single click → on failure validate the point and click the
//! centre of the element found (`healed`, `healingMethod:
//! "dom_element_center"`) → double click (`healingMethod: "double_click"`)
//! → `{success: false, error: "All healing attempts failed", attempts: […]}`.
//!
//! Beyond the spec:
//! - a click the tool server reports as done but after which the page
//!   snapshot is unchanged is a failure too (`click_must_change_page`);
//! - when the validated point is not on a clickable element (a miss by a few
//!   pixels lands on the container), the nearest clickable element of the
//!   snapshot within `heal_radius_px` is clicked at its centre;
//! - the failure lists why each attempt failed (`details`).

use crate::config::HandsConfig;
use crate::io::{Clock, Http};
use crate::page::{bbox_of, fingerprint_with_text, nearest_clickable, snapshot_of};
use crate::tools::{error_of, succeeded, ToolClient};
use sentience_snapshot_core::contract::{BBox, Snapshot};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// docs/contracts/tools.md §17.2 `attempts` names.
pub const ATTEMPTS: [&str; 3] = ["single_click", "dom_element_center", "double_click"];

/// A click as the spec's `action`: a point and the space it is in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub struct ClickTarget {
    pub x: f64,
    pub y: f64,
    #[serde(default = "default_origin")]
    pub coordinate_origin: String,
    #[serde(default = "default_scope")]
    pub scope: String,
}

fn default_origin() -> String {
    "viewport".into()
}
fn default_scope() -> String {
    "browser".into()
}

/// Watches the page across a click (browser scope with a snapshot endpoint).
struct ChangeProbe {
    before: Option<String>,
    snapshot: Option<Snapshot>,
}

impl ChangeProbe {
    async fn take<H: Http>(tools: &ToolClient<H>, enabled: bool) -> ChangeProbe {
        if !enabled {
            return ChangeProbe {
                before: None,
                snapshot: None,
            };
        }
        let v = tools.get("/browser/snapshot").await;
        let snap = snapshot_of(&v);
        let before = match &snap {
            Some(s) => Some(fingerprint_with_text(s, &page_text(tools).await)),
            None => None,
        };
        ChangeProbe {
            before,
            snapshot: snap,
        }
    }

    /// Did the page change since the last look? A page reacts a little
    /// after the click (a navigation, a script): look again every
    /// `change_poll_ms` for up to `change_settle_ms`. (Always "yes" when the
    /// page cannot be watched: then only the tool server's word counts.)
    async fn changed<H: Http, C: Clock>(
        &mut self,
        tools: &ToolClient<H>,
        clock: &C,
        config: &HandsConfig,
    ) -> bool {
        let Some(before) = self.before.clone() else {
            return true;
        };
        let mut waited = 0;
        loop {
            let v = tools.get("/browser/snapshot").await;
            let Some(snap) = snapshot_of(&v) else {
                // Mid-navigation the extension is not there yet: that is a change.
                return true;
            };
            let after = fingerprint_with_text(&snap, &page_text(tools).await);
            self.snapshot = Some(snap);
            if after != before {
                self.before = Some(after);
                return true;
            }
            if waited >= config.change_settle_ms {
                return false;
            }
            let step = config.change_poll_ms.max(1);
            clock.sleep(step).await;
            waited += step;
        }
    }
}

/// The page's text beyond its elements: the accessibility tree (docs/contracts/tools.md §14)
/// (empty when the server cannot give it).
async fn page_text<H: Http>(tools: &ToolClient<H>) -> String {
    let v = tools.get("/browser/dom/tree").await;
    v["tree"].as_str().unwrap_or("").to_string()
}

/// One attempt: the click, then "did it do anything".
async fn attempt<H: Http, C: Clock>(
    tools: &ToolClient<H>,
    clock: &C,
    config: &HandsConfig,
    probe: &mut ChangeProbe,
    body: Value,
    failures: &mut Vec<Value>,
    method: &str,
) -> Option<Value> {
    let result = tools.post("/click", body).await;
    if !succeeded(&result) {
        failures.push(json!({ "method": method, "error": error_of(&result) }));
        return None;
    }
    if probe.changed(tools, clock, config).await {
        return Some(result);
    }
    failures.push(json!({ "method": method, "error": "the click changed nothing on the page" }));
    None
}

pub async fn click_with_healing<H: Http, C: Clock>(
    tools: &ToolClient<H>,
    clock: &C,
    config: &HandsConfig,
    target: &ClickTarget,
) -> Value {
    let browser = target.scope == "browser";
    let mut probe = ChangeProbe::take(tools, browser && config.click_must_change_page).await;
    let mut failures = Vec::new();
    let base = json!({
        "scope": target.scope,
        "x": target.x,
        "y": target.y,
        "coordinate_origin": target.coordinate_origin,
    });
    // Attempt 1: the primary strategy.
    let mut single = base.clone();
    single["click_type"] = json!("single");
    if let Some(r) = attempt(
        tools,
        clock,
        config,
        &mut probe,
        single,
        &mut failures,
        ATTEMPTS[0],
    )
    .await
    {
        return r;
    }
    // A point outside the viewport is not healed: the caller needs a fresh
    // screenshot (docs/contracts/tools.md §17.6), and the retry rule reads this error.
    if let Some(f) = failures.first() {
        if f["error"]
            .as_str()
            .is_some_and(|e| e.contains("outside viewport"))
        {
            return f_result(f);
        }
    }
    // Attempt 2: validate and click the centre of the element found.
    if browser {
        if let Some(rect) = heal_target(tools, config, target, probe.snapshot.as_ref()).await {
            let (cx, cy) = rect.center();
            let body = json!({
                "scope": "browser", "x": cx, "y": cy,
                "coordinate_origin": "viewport", "click_type": "single",
            });
            if let Some(mut r) = attempt(
                tools,
                clock,
                config,
                &mut probe,
                body,
                &mut failures,
                ATTEMPTS[1],
            )
            .await
            {
                r["healed"] = json!(true);
                r["healingMethod"] = json!("dom_element_center");
                return r;
            }
        } else {
            failures
                .push(json!({ "method": ATTEMPTS[1], "error": "no element found at the point" }));
        }
    }
    // Attempt 3: double click at the original point.
    let mut double = base;
    double["click_type"] = json!("double");
    if let Some(mut r) = attempt(
        tools,
        clock,
        config,
        &mut probe,
        double,
        &mut failures,
        ATTEMPTS[2],
    )
    .await
    {
        r["healed"] = json!(true);
        r["healingMethod"] = json!("double_click");
        return r;
    }
    json!({
        "success": false,
        "error": "All healing attempts failed",
        "attempts": ATTEMPTS,
        "details": failures,
    })
}

fn f_result(f: &Value) -> Value {
    json!({ "success": false, "error": f["error"], "attempts": [ATTEMPTS[0]] })
}

/// The element to click in attempt 2: the validated element when it is
/// clickable; else the nearest clickable element of the snapshot; else, as
/// the spec, whatever element was found (but never the page itself).
async fn heal_target<H: Http>(
    tools: &ToolClient<H>,
    config: &HandsConfig,
    target: &ClickTarget,
    snapshot: Option<&Snapshot>,
) -> Option<BBox> {
    let v = tools
        .post(
            "/coordinates/validate",
            json!({
                "scope": "browser",
                "x": target.x,
                "y": target.y,
                "coordinate_origin": target.coordinate_origin,
            }),
        )
        .await;
    let info = &v["element_info"];
    let found = info["found"].as_bool() == Some(true);
    let rect = bbox_of(&info["rect"]);
    if found && info["clickable"].as_bool() == Some(true) {
        if let Some(r) = rect {
            return Some(r);
        }
    }
    // The point in viewport pixels, as validate converted it.
    let vx = v["viewport_coords"]["x"].as_f64().unwrap_or(target.x);
    let vy = v["viewport_coords"]["y"].as_f64().unwrap_or(target.y);
    if let Some(r) = snapshot.and_then(|s| nearest_clickable(s, vx, vy, config.heal_radius_px)) {
        return Some(r);
    }
    let tag = info["tag"].as_str().unwrap_or("").to_ascii_lowercase();
    if found && tag != "body" && tag != "html" {
        return rect;
    }
    None
}

#[cfg(test)]
mod tests;
