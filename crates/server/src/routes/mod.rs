//! Route handlers: run API (docs/contracts/run-api.md), System 2
//! (docs/contracts/system2.md), health.

pub mod browse;
pub mod runs;
pub mod stream;
pub mod system2;
mod turns;

use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::Json;
use sentience_agent::time::{iso8601, now_ms};
use serde_json::{json, Value};

/// GET /health (docs/contracts/run-api.md §3): model and base URL in use ("embedded" for the
/// built-in System 2 scorer), plus which policy that is, the server's
/// version (the extension's side panel shows both at a glance), and the
/// store: its engine and state. A store that cannot answer makes it 503 with
/// `"status": "unavailable"` (a load balancer then stops sending requests
/// here), as does a server that is stopping.
pub async fn health(State(s): State<AppState>) -> (StatusCode, Json<Value>) {
    let info = s.policy.info();
    let store = s.store.health().await;
    let stopping = *s.stopping().borrow();
    let ok = store.status == "ok" && !stopping;
    let status = match (ok, stopping) {
        (true, _) => "ok",
        (false, true) => "stopping",
        (false, false) => "unavailable",
    };
    (
        if ok {
            StatusCode::OK
        } else {
            StatusCode::SERVICE_UNAVAILABLE
        },
        Json(json!({
            "status": status,
            "model": info.model,
            "baseUrl": info.base_url,
            "policy": info.policy,
            "version": env!("CARGO_PKG_VERSION"),
            "store": store,
            "timestamp": iso8601(now_ms()),
        })),
    )
}

pub async fn not_found(uri: Uri) -> ApiError {
    ApiError::NotFound(format!("No route for {}", uri.path()))
}
