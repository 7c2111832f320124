//! The one error type of the server and the one place it becomes a response.
//! Run API errors use docs/contracts/run-api.md §15: `{"error", "message"}`.
//! System 2 errors use docs/contracts/system2.md §8: `{"detail": …}`
//! (a string, or FastAPI's list of `{loc, msg, type}` for 422).

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// docs/contracts/run-api.md §15: 400 "Invalid input (missing required fields, wrong types)".
    #[error("{0}")]
    BadRequest(String),
    /// docs/contracts/run-api.md §15: 404 "Run ID doesn't exist or expired".
    #[error("{0}")]
    NotFound(String),
    #[error("Request body exceeds the limit of {0} bytes")]
    PayloadTooLarge(usize),
    /// docs/contracts/browse.md §8: `html` over the configured limit.
    #[error("\"html\" is {0} bytes, over the limit of {1} bytes")]
    HtmlTooLarge(usize, usize),
    /// A browse conversation that already finished.
    #[error("{0}")]
    Conflict(String),
    #[error("Missing or invalid API key")]
    Unauthorized,
    /// docs/security.md: a foreign `Host` or `Origin` (refused by the guard).
    #[error("{0}")]
    Forbidden(String),
    /// docs/security.md "Rate limits and quotas": 429, with `Retry-After`
    /// (whole seconds) when given. The guard's rate limit sets its own.
    #[error("{0}")]
    TooManyRequests(String, Option<u64>),
    /// docs/contracts/run-api.md §15: 500 "Server-side error (LLM API failure, etc.)".
    #[error("{0}")]
    Policy(String),
    #[error("{0}")]
    Internal(String),
    /// docs/contracts/system2.md §8: 422 with FastAPI's detail list.
    #[error("validation failed")]
    System2Validation(Vec<Value>),
    /// docs/contracts/system2.md §8: 400 {"detail": "Invalid base64 image data"} (and other 400s).
    #[error("{0}")]
    System2BadRequest(String),
    #[error("{0}")]
    System2TooLarge(usize),
    #[error("{0}")]
    System2Internal(String),
    /// Any other status on /s2, as `{"detail": "…"}` (auth, guard refusals).
    #[error("{1}")]
    System2Status(StatusCode, String),
}

impl ApiError {
    /// The same error in the System 2 API's format (for errors raised by
    /// shared extractors / middleware on /s2).
    pub fn into_system2(self) -> ApiError {
        match self {
            ApiError::BadRequest(m) => ApiError::System2BadRequest(m),
            ApiError::PayloadTooLarge(n) => ApiError::System2TooLarge(n),
            ApiError::Internal(m) | ApiError::Policy(m) => ApiError::System2Internal(m),
            ApiError::Unauthorized => ApiError::System2Status(
                StatusCode::UNAUTHORIZED,
                "Missing or invalid API key".into(),
            ),
            ApiError::Forbidden(m) => ApiError::System2Status(StatusCode::FORBIDDEN, m),
            ApiError::TooManyRequests(m, _) => {
                ApiError::System2Status(StatusCode::TOO_MANY_REQUESTS, m)
            }
            other => other,
        }
    }

    fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) | ApiError::System2BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::PayloadTooLarge(_)
            | ApiError::HtmlTooLarge(..)
            | ApiError::System2TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::TooManyRequests(..) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::System2Validation(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Policy(_) | ApiError::Internal(_) | ApiError::System2Internal(_) => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
            ApiError::System2Status(s, _) => *s,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = self.to_string();
        let retry_after = match self {
            ApiError::TooManyRequests(_, secs) => secs,
            _ => None,
        };
        let body = match self {
            ApiError::BadRequest(_) => json!({"error": "Bad request", "message": message}),
            ApiError::NotFound(_) => json!({"error": "Not found", "message": message}),
            ApiError::PayloadTooLarge(_) | ApiError::HtmlTooLarge(..) => {
                json!({"error": "Payload too large", "message": message})
            }
            ApiError::Conflict(_) => json!({"error": "Conflict", "message": message}),
            ApiError::Unauthorized => json!({"error": "Unauthorized", "message": message}),
            ApiError::Forbidden(_) => json!({"error": "Forbidden", "message": message}),
            ApiError::TooManyRequests(..) => {
                json!({"error": "Too many requests", "message": message})
            }
            ApiError::Policy(_) => json!({"error": "LLM API failure", "message": message}),
            ApiError::Internal(_) => {
                tracing::error!(%message, "internal error");
                json!({"error": "Internal server error", "message": message})
            }
            ApiError::System2Validation(detail) => json!({ "detail": detail }),
            ApiError::System2BadRequest(m) => json!({ "detail": m }),
            ApiError::System2TooLarge(n) => {
                json!({ "detail": format!("Request body exceeds the limit of {n} bytes") })
            }
            ApiError::System2Status(_, m) => json!({ "detail": m }),
            ApiError::System2Internal(m) => {
                tracing::error!(%m, "s2 internal error");
                json!({ "detail": format!("An error occurred: {m}") })
            }
        };
        match retry_after {
            Some(secs) => (status, [(header::RETRY_AFTER, secs)], Json(body)).into_response(),
            None => (status, Json(body)).into_response(),
        }
    }
}
