//! Who may call the server (docs/tools.md "Security"). The tool contract trusts
//! localhost (docs/contracts/tools.md §2); a web page the user visits can also
//! reach 127.0.0.1, and DNS rebinding can make it same-origin. So, before any
//! route:
//! 1. `Host` must name the bound address or localhost (DNS rebinding);
//! 2. a request with an `Origin` (any browser-originated call) is refused
//!    with 403 unless that origin was allowed with `--allow-origin`; allowed
//!    origins get CORS and Private Network Access preflight answers;
//! 3. with `--token`, `Authorization: Bearer <token>` is required.

use crate::error::ToolError;
use crate::state::AppState;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

fn host_allowed(headers: &HeaderMap, state: &AppState) -> Result<(), ToolError> {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .ok_or_else(|| ToolError::Forbidden("Host header required".into()))?;
    let bound = state.config.bound;
    let (name, port) = match host.rsplit_once(':') {
        Some((n, p)) if !n.is_empty() && !p.contains(']') => (n, Some(p)),
        _ => (host, None),
    };
    let name = name
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase();
    // Bound beyond loopback, a token is required (the CLI enforces it) and
    // a rebinding page cannot know it: any Host then passes.
    let name_ok = !bound.ip().is_loopback()
        || name == "localhost"
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    let port_ok = port.is_none_or(|p| p.parse::<u16>().ok() == Some(bound.port()));
    if name_ok && port_ok {
        Ok(())
    } else {
        Err(ToolError::Forbidden(format!("Host not allowed: {host}")))
    }
}

fn token_ok(headers: &HeaderMap, token: &str) -> bool {
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "))
        .unwrap_or("");
    // Constant-time comparison: no early exit on the first differing byte.
    given.len() == token.len()
        && given
            .bytes()
            .zip(token.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

fn cors_headers(res: &mut Response, origin: &HeaderValue) {
    let h = res.headers_mut();
    h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone());
    h.insert(header::VARY, HeaderValue::from_static("Origin"));
}

pub async fn guard(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if let Err(e) = host_allowed(req.headers(), &state) {
        return e.into_response();
    }
    let origin = req.headers().get(header::ORIGIN).cloned();
    if let Some(origin) = &origin {
        let text = origin.to_str().unwrap_or("");
        if !state.config.allowed_origins.iter().any(|o| o == text) {
            return ToolError::Forbidden(format!(
                "Origin not allowed: {text} (allow it with --allow-origin)"
            ))
            .into_response();
        }
        if req.method() == Method::OPTIONS {
            // CORS preflight, with Private Network Access when asked.
            let mut res = StatusCode::NO_CONTENT.into_response();
            cors_headers(&mut res, origin);
            let h = res.headers_mut();
            h.insert(
                header::ACCESS_CONTROL_ALLOW_METHODS,
                HeaderValue::from_static("GET, POST, OPTIONS"),
            );
            h.insert(
                header::ACCESS_CONTROL_ALLOW_HEADERS,
                HeaderValue::from_static("content-type, authorization"),
            );
            h.insert(
                header::ACCESS_CONTROL_MAX_AGE,
                HeaderValue::from_static("600"),
            );
            if req
                .headers()
                .contains_key("access-control-request-private-network")
            {
                h.insert(
                    "access-control-allow-private-network",
                    HeaderValue::from_static("true"),
                );
            }
            return res;
        }
    }
    if let Some(token) = &state.config.token {
        if !token_ok(req.headers(), token) {
            let mut res = ToolError::Unauthorized.into_response();
            if let Some(o) = &origin {
                cors_headers(&mut res, o);
            }
            return res;
        }
    }
    let mut res = next.run(req).await;
    if let Some(o) = &origin {
        cors_headers(&mut res, o);
    }
    res
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
