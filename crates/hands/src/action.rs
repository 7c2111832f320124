//! Executing one action on the tool server (docs/contracts/tools.md §17.5 `executeAction`):
//! deterministic actions go to their browser endpoint; the others get
//! coordinates from the vision providers when they have none, and clicks
//! go through self-healing.

use crate::heal::{click_with_healing, ClickTarget};
use crate::io::{Clock, Http};
use crate::providers::LocateRequest;
use crate::routing::{categorize_action, Route};
use crate::tools::succeeded;
use crate::vision::{
    choose_vision_provider, get_coordinates_with_fallback, Coordinates, TaskHints, VisionContext,
};
use crate::Hands;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// The spec's `action`: a type, its parameters, and either a point or a
/// `target` for the vision providers to find.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Action {
    /// `click`, `double_click`, `right_click`, `type`, `scroll`,
    /// `keypress`, or any type containing a deterministic keyword
    /// (`navigate`, `go_back`, `new_tab`, …).
    #[serde(rename = "type")]
    pub kind: String,
    /// Body of a deterministic endpoint (`url`, `tab_id`), or `text`,
    /// `method`, `selector`, `direction`, `amount`, `key`.
    pub params: Map<String, Value>,
    pub x: Option<f64>,
    pub y: Option<f64>,
    /// `viewport` (default), `lux_sdk` or `screen`.
    #[serde(rename = "coordinate_origin", alias = "coordinateOrigin")]
    pub coordinate_origin: Option<String>,
    /// What to act on, in words, when there is no point.
    pub target: Option<String>,
    /// The snapshot element a planner chose for this action, when it chose
    /// one: the `dom` provider grounds on it (its box), model providers
    /// still read `target`.
    pub element: Option<u64>,
    pub hints: TaskHints,
    pub app: Option<String>,
}

impl<H: Http, C: Clock> Hands<H, C> {
    pub async fn execute_action(&self, action: &Action) -> Value {
        let route = categorize_action(&action.kind);
        if let Route::Deterministic { endpoint, .. } = &route {
            let mut r = self
                .tools
                .post(endpoint, Value::Object(action.params.clone()))
                .await;
            r["route"] = json!(route);
            return r;
        }
        let kind = action.kind.to_lowercase();
        let scope = self.scope.clone();
        let needs_point = matches!(kind.as_str(), "click" | "double_click" | "right_click")
            || (kind == "type" && action.target.is_some());
        let mut point = action.x.zip(action.y).map(|(x, y)| {
            (
                x,
                y,
                action
                    .coordinate_origin
                    .clone()
                    .unwrap_or_else(|| "viewport".into()),
                None,
            )
        });
        if needs_point && point.is_none() {
            let Some(target) = &action.target else {
                return json!({ "success": false, "error": format!("{} needs x/y or a target to locate", action.kind) });
            };
            match self
                .locate_element(target, action.element, &action.hints, action.app.clone())
                .await
            {
                Ok((p, coords)) => point = Some((p.0, p.1, p.2, Some(coords))),
                Err(v) => return v,
            }
        }
        let mut result = match (kind.as_str(), point.clone()) {
            ("click" | "type", Some((x, y, origin, _))) => {
                let target = ClickTarget {
                    x,
                    y,
                    coordinate_origin: origin,
                    scope: scope.clone(),
                };
                // Focusing a field before typing changes nothing visible:
                // only the tool server's word counts for that click.
                let mut config = self.config.clone();
                if kind == "type" {
                    config.click_must_change_page = false;
                }
                let r = click_with_healing(&self.tools, &self.clock, &config, &target).await;
                if kind == "click" || !succeeded(&r) {
                    r
                } else {
                    self.replace_text(action, &scope).await
                }
            }
            ("double_click" | "right_click", Some((x, y, origin, _))) => {
                let click_type = if kind == "double_click" {
                    "double"
                } else {
                    "right"
                };
                self.tools
                    .post("/click", json!({ "scope": scope, "x": x, "y": y, "coordinate_origin": origin, "click_type": click_type }))
                    .await
            }
            ("type", None) => self.type_text(action, &scope).await,
            ("scroll", _) => {
                let mut body = action.params.clone();
                body.insert("scope".into(), json!(scope));
                body.entry("direction").or_insert(json!("down"));
                body.entry("amount").or_insert(json!(300));
                self.tools.post("/scroll", Value::Object(body)).await
            }
            ("keypress" | "press" | "key", _) => {
                let mut body = action.params.clone();
                body.insert("scope".into(), json!(scope));
                self.tools.post("/keypress", Value::Object(body)).await
            }
            (other, _) => {
                json!({ "success": false, "error": format!("unknown action type {other:?}") })
            }
        };
        if let Some((_, _, _, Some(coords))) = point {
            result["vision"] = json!(coords);
        }
        result
    }

    /// docs/contracts/run-api.md: `type` replaces the field's value. The
    /// click that focused the box left the caret where it landed, so keys
    /// alone would be added to what it holds ("4 Mill Road12 Birch Lane"):
    /// its text is selected first and the keys replace it (an empty box is
    /// unchanged).
    async fn replace_text(&self, action: &Action, scope: &str) -> Value {
        let select_all = self
            .tools
            .post("/keypress", json!({ "scope": scope, "key": "Ctrl+A" }))
            .await;
        if !succeeded(&select_all) {
            return select_all;
        }
        self.type_text(action, scope).await
    }

    async fn type_text(&self, action: &Action, scope: &str) -> Value {
        let mut body = action.params.clone();
        body.insert("scope".into(), json!(scope));
        let ascii = body
            .get("text")
            .and_then(Value::as_str)
            .is_some_and(|t| t.is_ascii());
        // docs/contracts/tools.md §8 /type: keystrokes are ASCII only; the
        // clipboard takes the rest.
        body.entry("method")
            .or_insert(json!(if ascii { "keystrokes" } else { "clipboard" }));
        self.tools.post("/type", Value::Object(body)).await
    }

    /// docs/contracts/tools.md §17.5 + §17.3: screenshot (`optimize_for: "lux"`), choose the
    /// provider, get the point. `Err` is a spec-shaped failure.
    pub async fn locate(
        &self,
        instruction: &str,
        hints: &TaskHints,
        app: Option<String>,
    ) -> Result<((f64, f64, String), Coordinates), Value> {
        self.locate_element(instruction, None, hints, app).await
    }

    /// [`Hands::locate`] with the snapshot element a planner chose, for the
    /// providers that ground on the DOM.
    pub async fn locate_element(
        &self,
        instruction: &str,
        element: Option<u64>,
        hints: &TaskHints,
        app: Option<String>,
    ) -> Result<((f64, f64, String), Coordinates), Value> {
        let shot = self
            .tools
            .post(
                "/screenshot",
                json!({ "scope": self.scope, "optimize_for": "lux" }),
            )
            .await;
        if !succeeded(&shot) {
            return Err(shot);
        }
        let mut req = locate_request(instruction, &self.scope, &shot);
        req.element = element;
        let choice = choose_vision_provider(
            hints,
            &VisionContext {
                scope: self.scope.clone(),
                app,
            },
        );
        let coords =
            get_coordinates_with_fallback(&self.tools, &self.vision, choice, &req, &self.config)
                .await;
        match coords.point() {
            Some(p) => {
                // Without a resized image the models saw the viewport itself.
                let origin =
                    if p.coordinate_origin == "lux_sdk" && !shot["lux_optimized"].is_object() {
                        "viewport".to_string()
                    } else {
                        p.coordinate_origin.clone()
                    };
                Ok(((p.x, p.y, origin), coords.clone()))
            }
            None => {
                let error = match &coords {
                    Coordinates::Conflict { .. } => {
                        "the vision providers disagree about where to act".to_string()
                    }
                    Coordinates::Failed { errors } => format!(
                        "no vision provider could locate \"{instruction}\": {}",
                        errors
                            .iter()
                            .map(|e| e.to_string())
                            .collect::<Vec<_>>()
                            .join("; ")
                    ),
                    _ => "no point".to_string(),
                };
                Err(json!({ "success": false, "error": error, "vision": coords }))
            }
        }
    }
}

/// The provider request from a `POST /screenshot` answer (lux_optimized
/// when present, else the original at scale 1).
pub fn locate_request(instruction: &str, scope: &str, shot: &Value) -> LocateRequest {
    let lux = &shot["lux_optimized"];
    let orig = &shot["original"];
    let img = if lux["image_base64"].is_string() {
        lux
    } else {
        orig
    };
    LocateRequest {
        instruction: instruction.to_string(),
        image_base64: img["image_base64"].as_str().unwrap_or("").to_string(),
        width: img["width"].as_f64().unwrap_or(crate::config::LUX_WIDTH),
        height: img["height"].as_f64().unwrap_or(crate::config::LUX_HEIGHT),
        original_base64: orig["image_base64"].as_str().unwrap_or("").to_string(),
        scale_x: lux["scale_x"].as_f64().unwrap_or(1.0),
        scale_y: lux["scale_y"].as_f64().unwrap_or(1.0),
        scope: scope.to_string(),
        element: None,
    }
}
