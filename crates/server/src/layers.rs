//! Cross-cutting HTTP layers: optional API-key auth and CORS restricted to
//! our extension's origin plus configured ones (docs/contracts/run-api.md §15
//! lists both as what production needs; docs/server.md "Auth and CORS").

use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{Request, State};
use axum::http::{header, HeaderName, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tower_http::cors::{AllowOrigin, CorsLayer};

/// Compare without an early exit, so timing does not leak the key.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// `Authorization: Bearer <key>` on every route except GET /health, when a key is configured.
pub async fn auth(State(s): State<AppState>, req: Request, next: Next) -> Response {
    let Some(key) = s.config.api_key.as_deref() else {
        return next.run(req).await;
    };
    if req.uri().path() == "/health" || req.method() == Method::OPTIONS {
        return next.run(req).await;
    }
    let given = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "))
        .map(str::trim);
    if given.is_some_and(|g| same(g.as_bytes(), key.as_bytes())) {
        return next.run(req).await;
    }
    if req.uri().path().starts_with("/s2") {
        return (
            axum::http::StatusCode::UNAUTHORIZED,
            axum::Json(serde_json::json!({"detail": "Missing or invalid API key"})),
        )
            .into_response();
    }
    ApiError::Unauthorized.into_response()
}

/// The origin of our extension: its id is fixed by the manifest's `key`, so
/// it is the same in every profile. Other extensions' origins are not
/// allowed by default: any installed extension could otherwise start and
/// drive runs (they are allowed only when configured, like any origin).
pub const EXTENSION_ORIGIN: &str = "chrome-extension://hogbpejkhkeecefhknbglfhofifoajbn";

pub fn cors(origins: &[String]) -> CorsLayer {
    let mut allowed: Vec<String> = origins
        .iter()
        .map(|o| o.trim_end_matches('/').to_string())
        .collect();
    allowed.push(EXTENSION_ORIGIN.to_string());
    CorsLayer::new()
        .allow_origin(AllowOrigin::predicate(move |origin: &HeaderValue, _| {
            let o = origin.to_str().unwrap_or("");
            allowed.iter().any(|a| a == o)
        }))
        .allow_methods([Method::GET, Method::POST, Method::OPTIONS])
        .allow_headers([
            header::CONTENT_TYPE,
            header::AUTHORIZATION,
            HeaderName::from_static("idempotency-key"),
            HeaderName::from_static("browse-session"),
        ])
        // A page script reads the conversation id of a /browse answer
        // (docs/contracts/browse.md §7) only if it is exposed.
        .expose_headers([HeaderName::from_static("browse-session")])
        .max_age(std::time::Duration::from_secs(600))
}
