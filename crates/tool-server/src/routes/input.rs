//! docs/contracts/tools.md §§7–10, in both scopes. The
//! browser gets trusted CDP input at viewport CSS pixels; the desktop gets
//! XTest input at screen pixels. `executed_with` names what really did it.

use crate::body::JsonBody;
use crate::browser::ClickKind;
use crate::error::{ToolError, ToolResult};
use crate::geometry::{Point, Size, Space};
use crate::keys;
use crate::routes::{blocking, point, Scope};
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

/// Formats a coordinate as the spec's message does (`1500`, or `12.5`).
fn num(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// docs/contracts/tools.md §16: "Coordinates (1500, 200) outside viewport bounds (1280x720)".
pub fn out_of_bounds(kind: &str, at: Point, size: Size, requested: Point) -> ToolError {
    let key = if kind == "viewport" {
        "viewport"
    } else {
        "screen"
    };
    ToolError::OutOfBounds {
        message: format!(
            "Coordinates ({}, {}) outside {kind} bounds ({}x{})",
            num(at.x.round()),
            num(at.y.round()),
            size.width,
            size.height
        ),
        details: json!({
            key: size,
            "requested": requested.as_given(),
            format!("{key}_coords"): at.rounded(),
        }),
    }
}

#[derive(Deserialize)]
pub struct ClickRequest {
    #[serde(default)]
    scope: Scope,
    x: f64,
    y: f64,
    coordinate_origin: Option<Space>,
    #[serde(default)]
    click_type: ClickKind,
    session_id: Option<String>,
}

pub async fn click(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<ClickRequest>,
) -> ToolResult<Json<Value>> {
    let original = Point { x: req.x, y: req.y };
    match req.scope {
        Scope::Browser => {
            let p = point::in_browser(
                &state,
                req.session_id.as_deref(),
                original,
                req.coordinate_origin,
            )
            .await?;
            let (s, at, origin) = (p.session, p.at, p.origin);
            if !p.inside {
                return Err(out_of_bounds(
                    "viewport",
                    at,
                    p.viewport.placement.size,
                    original,
                ));
            }
            let new_tab = s.browser.click(at, req.click_type).await?;
            let mut details = json!({
                "scope": "browser",
                "click_type": req.click_type.name(),
                "viewport_coords": at.rounded(),
                "original_coords": original.as_given(),
                "coordinate_origin": origin.name(),
                "session_id": s.id,
            });
            if let Some(t) = new_tab {
                details["new_tab"] = json!({"tab_id": t.id, "url": t.url});
            }
            Ok(Json(
                json!({"success": true, "executed_with": state.launcher.driver_name(), "details": details}),
            ))
        }
        Scope::Desktop => {
            let p = point::on_screen(&state, original, req.coordinate_origin)?;
            let (d, at, origin) = (p.desktop, p.at, p.origin);
            if !p.inside {
                return Err(out_of_bounds("screen", at, p.screen, original));
            }
            let kind = req.click_type;
            // On this task: a few XTest requests and one round trip, each
            // wait bounded (desktop::Desktop).
            d.click(at, kind)?;
            Ok(Json(json!({
                "success": true,
                "executed_with": d.driver_name(),
                "details": {
                    "scope": "desktop",
                    "click_type": kind.name(),
                    "screen_coords": at.rounded(),
                    "original_coords": original.as_given(),
                    "coordinate_origin": origin.name(),
                },
            })))
        }
    }
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum TypeMethod {
    /// docs/contracts/tools.md §8: "uses Ctrl+V (needed for the Italian keyboard and
    /// special characters)".
    #[default]
    Clipboard,
    Keystrokes,
}

#[derive(Deserialize)]
pub struct TypeRequest {
    #[serde(default)]
    scope: Scope,
    text: String,
    #[serde(default)]
    method: TypeMethod,
    selector: Option<String>,
    session_id: Option<String>,
}

pub async fn type_text(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<TypeRequest>,
) -> ToolResult<Json<Value>> {
    let text_length = req.text.chars().count();
    let method = match req.method {
        TypeMethod::Clipboard => "clipboard",
        TypeMethod::Keystrokes => "keystrokes",
    };
    match req.scope {
        Scope::Browser => {
            let s = state.session(req.session_id.as_deref()).await?;
            if let Some(sel) = req.selector.as_deref().filter(|s| !s.is_empty()) {
                s.browser.focus_selector(sel).await?;
            }
            match req.method {
                // In the browser a paste is one text insertion into the
                // focused element: no clipboard to disturb.
                TypeMethod::Clipboard => s.browser.insert_text(&req.text).await?,
                TypeMethod::Keystrokes => s.browser.type_keystrokes(&req.text).await?,
            }
            Ok(Json(json!({
                "success": true,
                "executed_with": state.launcher.driver_name(),
                "details": {"text_length": text_length, "selector": req.selector, "method": method, "scope": "browser"},
            })))
        }
        Scope::Desktop => {
            if req.selector.is_some() {
                return Err(ToolError::bad_request(
                    "selector is for the browser scope only",
                ));
            }
            let d = state.desktop()?;
            let d2 = d.clone();
            let text = req.text.clone();
            let pasted = match req.method {
                TypeMethod::Clipboard => {
                    blocking("pasting", move || d2.paste(&text).map(|_| text_length)).await?
                }
                TypeMethod::Keystrokes => {
                    blocking("typing", move || d2.type_keystrokes(&text)).await?
                }
            };
            let with = if pasted > 0 {
                format!("{}+clipboard", d.driver_name())
            } else {
                d.driver_name().to_string()
            };
            Ok(Json(json!({
                "success": true,
                "executed_with": with,
                "details": {"text_length": text_length, "selector": null, "method": method, "scope": "desktop", "pasted_characters": pasted},
            })))
        }
    }
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Direction {
    Up,
    Down,
    Left,
    Right,
}

#[derive(Deserialize)]
pub struct ScrollRequest {
    #[serde(default)]
    scope: Scope,
    direction: Direction,
    /// Pixels (docs/contracts/tools.md §9); default 300.
    amount: Option<f64>,
    session_id: Option<String>,
}

/// Pixels per wheel click on the desktop (Chromium and GTK scroll about
/// this much per notch).
const PIXELS_PER_WHEEL_CLICK: f64 = 100.0;

pub async fn scroll(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<ScrollRequest>,
) -> ToolResult<Json<Value>> {
    let amount = req.amount.unwrap_or(300.0);
    if !(amount.is_finite() && amount >= 0.0) {
        return Err(ToolError::bad_request(
            "amount must be a non-negative number of pixels",
        ));
    }
    let (dx, dy) = match req.direction {
        Direction::Up => (0.0, -amount),
        Direction::Down => (0.0, amount),
        Direction::Left => (-amount, 0.0),
        Direction::Right => (amount, 0.0),
    };
    let name = match req.direction {
        Direction::Up => "up",
        Direction::Down => "down",
        Direction::Left => "left",
        Direction::Right => "right",
    };
    match req.scope {
        Scope::Browser => {
            let s = state.session(req.session_id.as_deref()).await?;
            s.browser.scroll(dx, dy).await?;
            Ok(Json(
                json!({"success": true, "executed_with": state.launcher.driver_name(), "details": {"direction": name, "amount": amount, "scope": "browser"}}),
            ))
        }
        Scope::Desktop => {
            let d = state.desktop()?;
            let clicks = |v: f64| (v / PIXELS_PER_WHEEL_CLICK).round() as i32;
            let (cx, cy) = (clicks(dx), clicks(dy));
            d.scroll(cx, cy)?;
            Ok(Json(
                json!({"success": true, "executed_with": d.driver_name(), "details": {"direction": name, "amount": amount, "scope": "desktop", "wheel_clicks": cx.abs() + cy.abs()}}),
            ))
        }
    }
}

#[derive(Deserialize)]
pub struct KeypressRequest {
    #[serde(default)]
    scope: Scope,
    key: String,
    session_id: Option<String>,
}

pub async fn keypress(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<KeypressRequest>,
) -> ToolResult<Json<Value>> {
    let combo = keys::parse(&req.key)?;
    let with = match req.scope {
        Scope::Browser => {
            let s = state.session(req.session_id.as_deref()).await?;
            s.browser.keypress(&combo).await?;
            state.launcher.driver_name()
        }
        Scope::Desktop => {
            let d = state.desktop()?;
            d.keypress(&combo)?;
            d.driver_name()
        }
    };
    Ok(Json(
        json!({"success": true, "executed_with": with, "details": {"key": req.key}}),
    ))
}
