//! Request bodies: read as bytes under the configured size limit (413 with
//! the standard error body when over), then JSON. Content-Type is not
//! required, because the run API's own example flow posts /answer without one
//! (docs/contracts/run-api.md §18).

use crate::error::ApiError;
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use serde_json::Value;

/// The raw body, with size-limit and read errors mapped to `ApiError`.
pub struct Body(pub Bytes);

impl FromRequest<AppState> for Body {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let limit = state.config.max_body_bytes;
        match Bytes::from_request(req, state).await {
            Ok(b) => Ok(Body(b)),
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Err(ApiError::PayloadTooLarge(limit))
            }
            Err(e) => Err(ApiError::BadRequest(format!(
                "Could not read the request body: {e}"
            ))),
        }
    }
}

impl Body {
    /// JSON value of the body; an empty body is `null`.
    pub fn json(&self) -> Result<Value, ApiError> {
        if self.0.iter().all(u8::is_ascii_whitespace) {
            return Ok(Value::Null);
        }
        serde_json::from_slice(&self.0)
            .map_err(|e| ApiError::BadRequest(format!("Body is not valid JSON: {e}")))
    }
}
