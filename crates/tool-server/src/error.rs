//! The one error type of the tool server and the one place it becomes a
//! response: docs/tools.md "Errors" (docs/contracts/tools.md §16: `{"success": false,
//! "error": "…", "details": {…}}`). The wordings the spec's own client logic
//! matches on (`outside viewport`, `Session not found`) are kept verbatim.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// 400: a missing or malformed field, an unknown enum value.
    #[error("{message}")]
    BadRequest { message: String, details: Value },
    /// 400: docs/contracts/tools.md §7, the out-of-viewport response.
    #[error("{message}")]
    OutOfBounds { message: String, details: Value },
    /// 404: the contract's client restarts the browser on "Session not found"
    /// (docs/contracts/tools.md §17.6).
    #[error("Session not found: {0}")]
    SessionNotFound(String),
    /// 404: a tab id, a selector, an element id that does not exist.
    #[error("{0}")]
    NotFound(String),
    /// 409: the profile is in use, history has no previous entry, …
    #[error("{0}")]
    Conflict(String),
    /// 401: the bearer token is missing or wrong (the guard adds
    /// `WWW-Authenticate`).
    #[error("Missing or invalid bearer token")]
    Unauthorized,
    /// 403: a foreign Host (DNS rebinding) or Origin (a web page).
    #[error("{0}")]
    Forbidden(String),
    /// 429: over the caller's rate (`Retry-After` says when to try again).
    #[error("{0}")]
    TooManyRequests(String),
    /// 503: a capability this machine lacks (no X display, no browser).
    #[error("{0}")]
    Unavailable(String),
    /// 504: a browser or X call that did not answer in time.
    #[error("{0} did not answer within {1} ms")]
    Timeout(String, u128),
    /// 502: the browser or the X server failed the call.
    #[error("{0}")]
    Backend(String),
}

pub type ToolResult<T> = Result<T, ToolError>;

impl ToolError {
    pub fn bad_request(message: impl Into<String>) -> Self {
        ToolError::BadRequest {
            message: message.into(),
            details: json!({}),
        }
    }

    pub fn backend(what: &str, e: impl std::fmt::Display) -> Self {
        ToolError::Backend(format!("{what}: {e}"))
    }

    fn status(&self) -> StatusCode {
        match self {
            ToolError::BadRequest { .. } | ToolError::OutOfBounds { .. } => StatusCode::BAD_REQUEST,
            ToolError::SessionNotFound(_) | ToolError::NotFound(_) => StatusCode::NOT_FOUND,
            ToolError::Conflict(_) => StatusCode::CONFLICT,
            ToolError::Unauthorized => StatusCode::UNAUTHORIZED,
            ToolError::Forbidden(_) => StatusCode::FORBIDDEN,
            ToolError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            ToolError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ToolError::Timeout(..) => StatusCode::GATEWAY_TIMEOUT,
            ToolError::Backend(_) => StatusCode::BAD_GATEWAY,
        }
    }
}

/// A refusal of the guard (docs/security.md) in this server's error shape.
pub fn refusal(r: &sentience_guard::Refusal, _path: &str) -> Response {
    use sentience_guard::Refusal;
    match r {
        Refusal::Unauthorized => ToolError::Unauthorized,
        Refusal::Host(_) | Refusal::Origin(_) => ToolError::Forbidden(r.to_string()),
        Refusal::RateLimited(_) => ToolError::TooManyRequests(r.to_string()),
    }
    .into_response()
}

impl IntoResponse for ToolError {
    fn into_response(self) -> Response {
        let status = self.status();
        let error = self.to_string();
        let details = match self {
            ToolError::BadRequest { details, .. } | ToolError::OutOfBounds { details, .. } => {
                details
            }
            ToolError::Backend(_) | ToolError::Timeout(..) => {
                tracing::warn!(%error, "backend failure");
                json!({})
            }
            _ => json!({}),
        };
        (
            status,
            Json(json!({"success": false, "error": error, "details": details})),
        )
            .into_response()
    }
}
