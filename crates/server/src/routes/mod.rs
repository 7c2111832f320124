//! Route handlers: run API (docs/contracts/run-api.md), System 2
//! (docs/contracts/system2.md), health.

pub mod browse;
pub mod runs;
pub mod system2;

use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::State;
use axum::http::Uri;
use axum::Json;
use sentience_agent::time::{iso8601, now_ms};
use serde_json::{json, Value};

/// GET /health (docs/contracts/run-api.md §3): model and base URL in use ("embedded" for the
/// built-in System 2 scorer), plus which policy that is and the server's
/// version (the extension's side panel shows both at a glance).
pub async fn health(State(s): State<AppState>) -> Json<Value> {
    let info = s.policy.info();
    Json(json!({
        "status": "ok",
        "model": info.model,
        "baseUrl": info.base_url,
        "policy": info.policy,
        "version": env!("CARGO_PKG_VERSION"),
        "timestamp": iso8601(now_ms()),
    }))
}

pub async fn not_found(uri: Uri) -> ApiError {
    ApiError::NotFound(format!("No route for {}", uri.path()))
}
