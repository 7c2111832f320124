//! docs/contracts/tools.md §4: GET /, GET /status, GET /screen.

use crate::error::ToolResult;
use crate::geometry::{scale, scale3, DEFAULT_VIEWPORT, LUX};
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};

/// The API version of docs/contracts/tools.md §4 this server implements.
pub const API_VERSION: &str = "8.0.0";

pub async fn root() -> Json<Value> {
    Json(json!({
        "service": "Architect's Hand Tool Server",
        "version": API_VERSION,
        "implementation": "sentience tools",
        "implementation_version": env!("CARGO_PKG_VERSION"),
    }))
}

/// The tool contract's capability keys (docs/contracts/tools.md §4) keep their
/// meaning for this server: `pyautogui` = desktop input, `pyperclip` =
/// clipboard, `playwright` = browser automation, `pil` = image processing.
/// Clearer keys sit beside.
pub async fn status(State(state): State<AppState>) -> Json<Value> {
    let sessions = state.sessions.lock().await;
    let count = sessions.map.len();
    let active = sessions.active.clone();
    drop(sessions);
    let desktop = state.desktop.as_ref();
    let desktop_ok = desktop.is_ok();
    let browser_ok = state.launcher.available();
    Json(json!({
        "status": "running",
        "version": API_VERSION,
        "browser_sessions": count,
        "active_session_id": active,
        "capabilities": {
            "pyautogui": desktop_ok,
            "pyperclip": desktop_ok,
            "playwright": browser_ok,
            "pil": true,
            "desktop_input": desktop_ok,
            "desktop_screenshot": desktop_ok,
            "clipboard": desktop_ok,
            "browser": browser_ok,
            "image_processing": true,
        },
        "drivers": {
            "browser": state.launcher.driver_name(),
            "desktop": desktop.as_ref().map(|d| d.driver_name()).ok(),
        },
        "desktop_error": desktop.as_ref().err(),
    }))
}

pub async fn screen(State(state): State<AppState>) -> ToolResult<Json<Value>> {
    let viewport = match state.session(None).await {
        Ok(s) => s
            .browser
            .viewport()
            .await
            .map(|v| v.placement.size)
            .unwrap_or(DEFAULT_VIEWPORT),
        Err(_) => DEFAULT_VIEWPORT,
    };
    let (screen, source) = match state.desktop() {
        // Known without a round trip (desktop::Desktop::screen_size).
        Ok(d) => (d.screen_size()?, "x11"),
        // No display: the browser's viewport is all the screen there is.
        Err(_) => (viewport, "viewport"),
    };
    let (sx, sy) = scale(LUX, screen);
    Ok(Json(json!({
        "lux_sdk_reference": LUX,
        "viewport_reference": viewport,
        "screen": screen,
        "screen_source": source,
        "lux_scale": {"x": scale3(sx), "y": scale3(sy)},
    })))
}
