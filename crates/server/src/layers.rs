//! Cross-cutting HTTP layers: the guard every local service shares
//! (`sentience_guard`: Host, Origin, API keys, rate limits; docs/security.md)
//! rendering its refusals in this server's error shapes, and CORS for the
//! origins the guard lets through (docs/server.md "Auth and CORS").

use crate::error::ApiError;
use axum::response::{IntoResponse, Response};
use sentience_guard::Refusal;
use tower_http::cors::CorsLayer;

pub use sentience_guard::EXTENSION_ORIGIN;

/// A refusal in the shape of the API the path belongs to: the run API's
/// `{"error", "message"}` (docs/contracts/run-api.md §15), or System 2's
/// `{"detail"}` on /s2 (docs/contracts/system2.md §8).
pub fn respond(refusal: &Refusal, path: &str) -> Response {
    let message = refusal.to_string();
    let error = match refusal {
        Refusal::Host(_) | Refusal::Origin(_) => ApiError::Forbidden(message),
        Refusal::Unauthorized => ApiError::Unauthorized,
        Refusal::RateLimited(_) => ApiError::TooManyRequests(message, refusal.retry_after_secs()),
    };
    if path == "/s2" || path.starts_with("/s2/") {
        error.into_system2().into_response()
    } else {
        error.into_response()
    }
}

/// CORS for the allowed origins (the guard has already refused any other).
/// A page script reads the conversation id of a /browse answer
/// (docs/contracts/browse.md §7) only if it is exposed.
pub fn cors(allowed: &[String]) -> CorsLayer {
    sentience_guard::cors(
        allowed,
        &["idempotency-key", "browse-session"],
        &["browse-session"],
    )
}
