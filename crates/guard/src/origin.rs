//! The `Origin` check (docs/security.md "Drive-by requests"). A browser
//! sends `Origin` with every request a page makes that could change
//! something: every POST, even a "simple" one that needs no CORS preflight
//! (`fetch(url, {method: 'POST', mode: 'no-cors'})`, a form), and every
//! WebSocket handshake (which CORS does not cover at all). So a request
//! carrying an `Origin` we did not allow is refused whatever its method.
//! Our extension's origin is allowed by every service (no page and no other
//! extension can send it: its id is fixed by the manifest's `key`), besides
//! the ones an operator configures. Clients that are not browsers (the CLI,
//! the SDKs, servers) send none and pass.
//!
//! What a page can still send without `Origin` is a no-cors GET (an image,
//! a script tag); Chromium marks it `Sec-Fetch-Site: cross-site` (or
//! `same-site`), so those are refused as well: none of our GET routes has
//! side effects, but nothing a page makes should reach a route at all.

use crate::{Refusal, EXTENSION_ORIGIN};
use axum::http::{header, HeaderMap};

/// Whether `origin` may call: our extension's, or one `allowed` names
/// (compared without a trailing slash, case-insensitively).
pub(crate) fn is_allowed(origin: &str, allowed: &[String]) -> bool {
    origin.eq_ignore_ascii_case(EXTENSION_ORIGIN)
        || allowed
            .iter()
            .any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin))
}

pub(crate) fn check(headers: &HeaderMap, allowed: &[String]) -> Result<(), Refusal> {
    if let Some(origin) = headers.get(header::ORIGIN) {
        let text = origin.to_str().unwrap_or("");
        // `null` (sandboxed frames, file: pages) is never an allowed origin.
        let ok = text != "null" && is_allowed(text, allowed);
        return if ok {
            Ok(())
        } else {
            Err(Refusal::Origin(printable(text)))
        };
    }
    match headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        Some("cross-site" | "same-site") => Err(Refusal::Origin(
            "(none; a page of another site made this request)".into(),
        )),
        _ => Ok(()),
    }
}

/// A header value fit for an error message (bounded, no control characters).
pub(crate) fn printable(s: &str) -> String {
    let mut out: String = s.chars().filter(|c| !c.is_control()).take(200).collect();
    if out.is_empty() {
        out.push_str("(unreadable)");
    }
    out
}
