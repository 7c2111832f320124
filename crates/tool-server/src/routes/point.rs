//! The point a request names, placed where the input goes
//! (docs/contracts/tools.md §4 "coordinate_origin", §9 validation): in the
//! browser, the session's viewport in whole CSS pixels; on the desktop, the
//! screen in whole pixels. One place for `/click` (routes/input.rs) and
//! `/validate-coordinates` (routes/coordinates.rs), which must agree on
//! where a point lands and whether it is inside.

use crate::browser::ViewportInfo;
use crate::desktop::Desktop;
use crate::error::ToolResult;
use crate::geometry::{desktop_to_screen, inside, Point, Size, Space};
use crate::state::{AppState, Session};
use std::sync::Arc;

/// A point in the browser: the session it is in, that session's viewport,
/// the space the caller gave the point in, and where it lands.
pub struct BrowserPoint {
    pub session: Arc<Session>,
    pub viewport: ViewportInfo,
    pub origin: Space,
    /// In viewport CSS pixels, whole.
    pub at: Point,
    pub inside: bool,
}

/// `requested` in `origin` (default: the viewport) on session `session_id`
/// (default: the active one).
pub async fn in_browser(
    state: &AppState,
    session_id: Option<&str>,
    requested: Point,
    origin: Option<Space>,
) -> ToolResult<BrowserPoint> {
    let origin = origin.unwrap_or(Space::Viewport);
    let session = state.session(session_id).await?;
    let viewport = session.browser.viewport().await?;
    let at = viewport.placement.to_viewport(requested, origin).whole();
    let inside = inside(at, viewport.placement.size);
    Ok(BrowserPoint {
        session,
        viewport,
        origin,
        at,
        inside,
    })
}

/// A point on the desktop: the desktop, its screen, the space the caller
/// gave the point in, and where it lands.
pub struct ScreenPoint {
    pub desktop: Arc<dyn Desktop>,
    pub screen: Size,
    pub origin: Space,
    /// In screen pixels, whole.
    pub at: Point,
    pub inside: bool,
}

/// `requested` in `origin` (default: the screen).
pub fn on_screen(
    state: &AppState,
    requested: Point,
    origin: Option<Space>,
) -> ToolResult<ScreenPoint> {
    let origin = origin.unwrap_or(Space::Screen);
    let desktop = state.desktop()?;
    // The screen size is known without asking the X server.
    let screen = desktop.screen_size()?;
    let at = desktop_to_screen(requested, origin, screen).whole();
    Ok(ScreenPoint {
        desktop,
        screen,
        origin,
        at,
        inside: inside(at, screen),
    })
}
