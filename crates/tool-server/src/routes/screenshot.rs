//! docs/contracts/tools.md §5: the browser's viewport (no browser UI) or
//! the whole X screen, optionally resized for a vision model.

use crate::body::JsonBody;
use crate::error::{ToolError, ToolResult};
use crate::imaging::{screenshot_body, Capture, Encoding, Format, Optimize};
use crate::routes::{blocking, Scope};
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
pub struct ScreenshotRequest {
    #[serde(default)]
    scope: Scope,
    session_id: Option<String>,
    /// `lux` | `gemini` | `both` | null (the original only).
    optimize_for: Option<Optimize>,
    /// Beyond the contract (docs/contracts/tools.md §18): `png` (default) or
    /// `jpeg` for smaller payloads.
    #[serde(default)]
    format: Format,
    /// JPEG quality, 1–100 (default 80).
    quality: Option<u8>,
}

pub async fn screenshot(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<ScreenshotRequest>,
) -> ToolResult<Json<Value>> {
    let quality = req.quality.unwrap_or(80);
    if !(1..=100).contains(&quality) {
        return Err(ToolError::bad_request("quality must be between 1 and 100"));
    }
    let enc = Encoding {
        format: req.format,
        quality,
    };
    let (capture, scope) = match req.scope {
        Scope::Browser => {
            let s = state.session(req.session_id.as_deref()).await?;
            (s.browser.screenshot().await?, "browser")
        }
        Scope::Desktop => {
            let d = state.desktop()?;
            let img = blocking("capturing the screen", move || d.capture()).await?;
            (Capture::from_image(img), "desktop")
        }
    };
    let optimize = req.optimize_for;
    let mut body = blocking("encoding the screenshot", move || {
        screenshot_body(capture, optimize, enc)
    })
    .await?;
    body["scope"] = scope.into();
    Ok(Json(body))
}
