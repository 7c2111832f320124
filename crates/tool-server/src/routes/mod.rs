//! The HTTP API of docs/tools.md (docs/contracts/tools.md §3), one file per endpoint group.
//! Routes speak in CSS pixels, sessions and screen pixels; the browser and
//! the desktop behind them are traits (`crate::browser`, `crate::desktop`).

mod coordinates;
mod extension;
mod input;
mod navigation;
mod point;
mod screenshot;
mod sessions;
mod status;
mod tabs;

use crate::error::{ToolError, ToolResult};
use crate::state::AppState;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::{middleware, Router};
use serde::Deserialize;
use std::time::Duration;

/// docs/contracts/tools.md §2: every action names its `scope`; the browser is the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    #[default]
    Browser,
    Desktop,
}

/// `?session_id=` of the GET/POST endpoints that take it in the query.
#[derive(Debug, Deserialize, Default)]
pub struct SessionQuery {
    pub session_id: Option<String>,
}

/// Runs a blocking desktop call on the blocking pool, with a time limit
/// (an X server that stops answering must not hang the request).
pub async fn blocking<T: Send + 'static>(
    what: &str,
    f: impl FnOnce() -> ToolResult<T> + Send + 'static,
) -> ToolResult<T> {
    const LIMIT: Duration = Duration::from_secs(20);
    match tokio::time::timeout(LIMIT, tokio::task::spawn_blocking(f)).await {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => Err(ToolError::backend(what, e)),
        Err(_) => Err(ToolError::Timeout(what.to_string(), LIMIT.as_millis())),
    }
}

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(status::root))
        .route("/status", get(status::status))
        .route("/screen", get(status::screen))
        .route("/screenshot", post(screenshot::screenshot))
        .route("/click", post(input::click))
        .route("/type", post(input::type_text))
        .route("/scroll", post(input::scroll))
        .route("/keypress", post(input::keypress))
        .route("/browser/start", post(sessions::start))
        .route("/browser/stop", post(sessions::stop))
        .route("/browser/status", get(sessions::status))
        .route("/browser/navigate", post(navigation::navigate))
        .route("/browser/reload", post(navigation::reload))
        .route("/browser/back", post(navigation::back))
        .route("/browser/forward", post(navigation::forward))
        .route("/browser/current_url", get(navigation::current_url))
        .route("/browser/tabs", get(tabs::list))
        .route("/browser/tab/new", post(tabs::open))
        .route("/browser/tab/close", post(tabs::close))
        .route("/browser/tab/switch", post(tabs::switch))
        .route("/browser/dom/tree", get(extension::dom_tree))
        .route("/browser/snapshot", get(extension::snapshot))
        .route("/browser/act", post(extension::act))
        .route("/coordinates/convert", post(coordinates::convert))
        .route("/coordinates/validate", post(coordinates::validate))
        .fallback(|| async { ToolError::NotFound("No such endpoint (see docs/tools.md)".into()) })
        .method_not_allowed_fallback(|| async {
            ToolError::bad_request("Method not allowed on this endpoint (see docs/tools.md)")
        })
        .layer(DefaultBodyLimit::max(4 * 1024 * 1024))
        // Who may call (docs/security.md): the guard first, then CORS for
        // the origins it lets through.
        .layer(sentience_guard::cors(
            &state.config.guard.allowed_origins,
            &[],
            &[],
        ))
        .layer(middleware::from_fn_with_state(
            state.guard.clone(),
            sentience_guard::enforce,
        ))
        .with_state(state)
}
