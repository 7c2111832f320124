//! docs/contracts/tools.md §15: convert between `lux_sdk`, `viewport`
//! and `screen`, and validate a point (the element there in the browser,
//! the pixel colour on the desktop).

use crate::body::JsonBody;
use crate::error::ToolResult;
use crate::geometry::{
    desktop_to_screen, rescale, Point, Space, ViewportPlacement, DEFAULT_VIEWPORT, LUX,
};
use crate::routes::{blocking, point, Scope};
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Deserialize)]
pub struct ConvertRequest {
    x: f64,
    y: f64,
    from_space: Space,
    to_space: Space,
    session_id: Option<String>,
    /// Beyond the contract (docs/contracts/tools.md §18): `desktop` converts
    /// `lux_sdk` against the screen.
    #[serde(default)]
    scope: Scope,
}

pub async fn convert(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<ConvertRequest>,
) -> ToolResult<Json<Value>> {
    let p = Point { x: req.x, y: req.y };
    let (out, reference) = match req.scope {
        Scope::Browser => {
            // Real viewport (and window position) when a session is there.
            let placement = match state.session(req.session_id.as_deref()).await {
                Ok(s) => s.browser.viewport().await?.placement,
                Err(e) if req.session_id.is_some() => return Err(e),
                Err(_) => ViewportPlacement {
                    size: DEFAULT_VIEWPORT,
                    left: 0.0,
                    top: 0.0,
                },
            };
            let v = placement.to_viewport(p, req.from_space);
            (placement.from_viewport(v, req.to_space), placement.size)
        }
        Scope::Desktop => {
            let d = state.desktop()?;
            let screen = d.screen_size()?;
            let s = desktop_to_screen(p, req.from_space, screen);
            let out = match req.to_space {
                Space::LuxSdk => rescale(s, screen, LUX),
                Space::Screen | Space::Viewport => s,
            };
            (out, screen)
        }
    };
    Ok(Json(json!({
        "success": true,
        "x": out.x.round() as i64,
        "y": out.y.round() as i64,
        "from_space": req.from_space.name(),
        "to_space": req.to_space.name(),
        "reference_dimensions": reference,
    })))
}

#[derive(Deserialize)]
pub struct ValidateRequest {
    #[serde(default)]
    scope: Scope,
    x: f64,
    y: f64,
    coordinate_origin: Option<Space>,
    session_id: Option<String>,
}

pub async fn validate(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<ValidateRequest>,
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
            let (s, vp, v, origin, in_viewport) = (p.session, p.viewport, p.at, p.origin, p.inside);
            let element = if in_viewport {
                s.browser.element_at(v).await?
            } else {
                json!({"found": false})
            };
            let found = element["found"].as_bool().unwrap_or(false);
            let size = vp.placement.size;
            Ok(Json(json!({
                "success": true,
                "valid": in_viewport && found,
                "in_viewport": in_viewport,
                "viewport_coords": v.rounded(),
                "original_coords": original.as_given(),
                "coordinate_origin": origin.name(),
                "element_info": element,
                "viewport_bounds": {
                    "x": vp.placement.left.round() as i64, "y": vp.placement.top.round() as i64,
                    "width": size.width, "height": size.height,
                    "chrome_height": vp.chrome_height.round() as i64,
                    "device_pixel_ratio": vp.device_pixel_ratio,
                },
            })))
        }
        Scope::Desktop => {
            let p = point::on_screen(&state, original, req.coordinate_origin)?;
            let (d, screen, at, origin, in_screen) =
                (p.desktop, p.screen, p.at, p.origin, p.inside);
            let color = if in_screen {
                Some(blocking("reading a pixel", move || d.pixel(at)).await?)
            } else {
                None
            };
            Ok(Json(json!({
                "success": true,
                "valid": in_screen,
                "in_screen": in_screen,
                "screen_coords": at.rounded(),
                "original_coords": original.as_given(),
                "coordinate_origin": origin.name(),
                "pixel_color": color,
                "screen_bounds": screen,
            })))
        }
    }
}
