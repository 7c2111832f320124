//! CORS for the origins the guard lets through (every other one has been
//! refused before CORS runs), from `tower_http`: preflights, with Private
//! Network Access (Chromium asks before a public page may call a loopback
//! address), and the headers that let an allowed page read the answers.

use axum::http::{header, HeaderName, HeaderValue, Method};
use std::time::Duration;
use tower_http::cors::{AllowOrigin, CorsLayer};

/// Our extension and the `allowed` origins (the guard's `origin::is_allowed`)
/// may send `headers` (besides Content-Type and Authorization) and read
/// `expose` (besides Retry-After).
pub fn cors(allowed: &[String], headers: &[&'static str], expose: &[&'static str]) -> CorsLayer {
    let allowed = allowed.to_vec();
    let mut allow_headers = vec![header::CONTENT_TYPE, header::AUTHORIZATION];
    allow_headers.extend(headers.iter().map(|h| HeaderName::from_static(h)));
    let mut expose_headers = vec![header::RETRY_AFTER];
    expose_headers.extend(expose.iter().map(|h| HeaderName::from_static(h)));
    CorsLayer::new()
        .allow_origin(AllowOrigin::predicate(move |origin: &HeaderValue, _| {
            origin
                .to_str()
                .is_ok_and(|o| crate::origin::is_allowed(o, &allowed))
        }))
        .allow_methods([Method::GET, Method::POST, Method::DELETE, Method::OPTIONS])
        .allow_headers(allow_headers)
        .expose_headers(expose_headers)
        .allow_private_network(true)
        .max_age(Duration::from_secs(600))
}
