//! The one gate in front of every local HTTP service of the project: the
//! agent server (`sentience serve`), the tool server (`sentience tools`) and
//! the MCP server's HTTP transport (`sentience mcp --http`). docs/security.md
//! is the threat model this implements; in short, any web page the user
//! visits can send requests to 127.0.0.1 (simple POSTs need no preflight,
//! WebSockets are not covered by CORS, DNS rebinding makes a page
//! same-origin with the server), so every request, every method, including
//! WebSocket upgrades, is checked here before any route runs:
//!
//! 1. `Host` names this server: the bound address, a loopback name with the
//!    bound port, or a configured name (`host.rs`; stops DNS rebinding);
//! 2. a request from a web page carries `Origin`: it passes only when that
//!    origin is our extension's (every service) or an operator's, and a
//!    request a browser marks as sent by a page of another site without an
//!    `Origin` is refused too (`origin.rs`; stops drive-by use);
//! 3. with keys configured, `Authorization: Bearer <key>` (`keys.rs`);
//! 4. requests per second per caller (API key, else client address), with
//!    429 and `Retry-After` (`limits.rs`).
//!
//! Each server keeps its own error shape: it hands the guard a function
//! that turns a [`Refusal`] into its response. The guard never answers CORS
//! preflights itself: allowed origins get them from `tower_http::cors` in
//! each server, which runs behind this layer.

mod bind;
mod cors;
mod host;
mod keys;
mod layer;
mod limits;
mod origin;

#[cfg(test)]
mod tests;

pub use bind::{check_bind, BindError};
pub use cors::cors;
pub use keys::key_id;
pub use layer::{enforce, readable_by_origin, Caller, KEY_SUBPROTOCOL_PREFIX};
pub use limits::RateLimit;

use axum::http::StatusCode;
use axum::response::Response;
use std::net::SocketAddr;
use std::sync::{Arc, RwLock};
use std::time::Duration;

/// The origin of our extension: its id is fixed by the manifest's `key`, so
/// it is the same in every profile. No other extension can send it.
pub const EXTENSION_ORIGIN: &str = "chrome-extension://hogbpejkhkeecefhknbglfhofifoajbn";

/// What an operator configures (flags of each command; docs/security.md).
#[derive(Debug, Clone, Default)]
pub struct GuardConfig {
    /// Extra `Host` names this server answers to (a reverse proxy's public
    /// name). `name` matches any port; `name:port` only that port.
    pub allowed_hosts: Vec<String>,
    /// Origins whose pages (or extensions) may call the server, besides our
    /// extension's ([`EXTENSION_ORIGIN`], always allowed). Exact match,
    /// without a trailing slash (`https://app.example:8443`).
    pub allowed_origins: Vec<String>,
    /// API keys; when any is set, every request but `open_paths` needs
    /// `Authorization: Bearer <one of them>`.
    pub keys: Vec<String>,
    /// Paths served without a key and without rate limits (health checks).
    pub open_paths: Vec<String>,
    /// Requests per second per caller; `None`: unlimited.
    pub rate: Option<RateLimit>,
}

/// Why a request was refused. Each server renders it in its own error shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// `Host` names another server (DNS rebinding, a misdirected request).
    Host(String),
    /// A web page (or another extension) that is not allowed.
    Origin(String),
    /// No key, or a wrong one.
    Unauthorized,
    /// Over the caller's rate: retry after this long.
    RateLimited(Duration),
}

impl Refusal {
    pub fn status(&self) -> StatusCode {
        match self {
            Refusal::Host(_) | Refusal::Origin(_) => StatusCode::FORBIDDEN,
            Refusal::Unauthorized => StatusCode::UNAUTHORIZED,
            Refusal::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
        }
    }

    /// Whole seconds to wait, at least 1 (the `Retry-After` header's unit).
    pub fn retry_after_secs(&self) -> Option<u64> {
        match self {
            Refusal::RateLimited(d) => Some(d.as_millis().div_ceil(1000).max(1) as u64),
            _ => None,
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Host(h) => write!(
                f,
                "Host not allowed: {h} (this server answers to localhost and its bound address; \
                 add a name with --allowed-host)"
            ),
            Refusal::Origin(o) => write!(
                f,
                "Origin not allowed: {o} (web pages cannot call this server; \
                 allow an origin with --allow-origin)"
            ),
            Refusal::Unauthorized => write!(f, "Missing or invalid API key"),
            Refusal::RateLimited(_) => write!(
                f,
                "Too many requests: retry after {} s",
                self.retry_after_secs().unwrap_or(1)
            ),
        }
    }
}

/// Turns a refusal into the server's own error response (its status must be
/// `refusal.status()`; the guard adds `Retry-After` and `WWW-Authenticate`).
pub type Respond = fn(&Refusal, path: &str) -> Response;

/// The guard of one server. Cheap to clone (one `Arc`).
#[derive(Clone)]
pub struct Guard(Arc<Inner>);

struct Inner {
    config: GuardConfig,
    keys: keys::Keys,
    limiter: Option<limits::Limiter>,
    respond: Respond,
    /// The addresses the server listens on, registered by whoever binds a
    /// listener (`Guard::listening_on`). Empty (a router served by a test
    /// without sockets): any port passes, names are still checked.
    bound: RwLock<Vec<SocketAddr>>,
}

impl Guard {
    pub fn new(config: GuardConfig, respond: Respond) -> Guard {
        let keys = keys::Keys::new(&config.keys);
        let limiter = config.rate.map(limits::Limiter::new);
        Guard(Arc::new(Inner {
            config,
            keys,
            limiter,
            respond,
            bound: RwLock::new(Vec::new()),
        }))
    }

    /// Registers an address the server is listening on (its port is the
    /// one `Host` must carry). Call it for every listener, after binding.
    pub fn listening_on(&self, addr: SocketAddr) {
        let mut bound = self.0.bound.write().unwrap_or_else(|e| e.into_inner());
        if !bound.contains(&addr) {
            bound.push(addr);
        }
    }

    pub fn config(&self) -> &GuardConfig {
        &self.0.config
    }

    /// Whether any API key is configured.
    pub fn has_keys(&self) -> bool {
        !self.0.keys.is_empty()
    }
}
