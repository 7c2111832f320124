//! The guard as an axum middleware: `enforce` runs the checks of lib.rs in
//! order and either refuses in the server's own shape or passes the request
//! on with its [`Caller`] attached (quotas further in, such as concurrently
//! running runs, count per caller).

use crate::{host, origin, Guard, Refusal};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::Response;
use std::net::{IpAddr, SocketAddr};

/// Who made a request, as far as quotas are concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    /// The id of the API key used (`keys::key_id`), if any.
    pub key_id: Option<String>,
    /// The client's address, when the server was served with connect info.
    pub address: Option<IpAddr>,
}

impl Caller {
    /// The key quotas are counted under: the API key's id, else the
    /// client's address (`ip:…`), else `anonymous`.
    pub fn quota_key(&self) -> String {
        match (&self.key_id, self.address) {
            (Some(id), _) => id.clone(),
            (None, Some(ip)) => format!("ip:{ip}"),
            (None, None) => "anonymous".into(),
        }
    }
}

fn bearer(req: &Request) -> Option<&str> {
    req.headers()
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "))
}

/// The subprotocol that carries a key on a WebSocket handshake:
/// `sentience.key.` then the key's UTF-8 bytes in hex (a subprotocol is a
/// token, which a key's characters need not be).
pub const KEY_SUBPROTOCOL_PREFIX: &str = "sentience.key.";

/// The key of a WebSocket handshake made by a browser, whose `WebSocket`
/// cannot set `Authorization` (docs/server.md "The live run stream"):
/// offered as a subprotocol, never in the address (which logs keep).
fn subprotocol_key(req: &Request) -> Option<String> {
    if req.method() != Method::GET {
        return None;
    }
    let offered = req
        .headers()
        .get(header::SEC_WEBSOCKET_PROTOCOL)?
        .to_str()
        .ok()?;
    let hex = offered
        .split(',')
        .find_map(|p| p.trim().strip_prefix(KEY_SUBPROTOCOL_PREFIX))?;
    if hex.len() % 2 != 0 {
        return None;
    }
    let bytes = (0..hex.len())
        .step_by(2)
        .map(|i| {
            hex.get(i..i + 2)
                .and_then(|b| u8::from_str_radix(b, 16).ok())
        })
        .collect::<Option<Vec<u8>>>()?;
    String::from_utf8(bytes).ok()
}

impl Guard {
    /// Every check, in order: Host, Origin, key, rate.
    pub fn check(&self, req: &Request) -> Result<Caller, Refusal> {
        let config = &self.0.config;
        let host = req
            .headers()
            .get(header::HOST)
            .map(|h| h.to_str().unwrap_or("\u{fffd}").to_string())
            .or_else(|| req.uri().authority().map(|a| a.as_str().to_string()));
        if let Some(host) = host {
            let bound = self.0.bound.read().unwrap_or_else(|e| e.into_inner());
            if !host::allowed(&host, &bound, &config.allowed_hosts) {
                return Err(Refusal::Host(origin::printable(&host)));
            }
        }
        origin::check(req.headers(), &config.allowed_origins)?;
        // Preflights carry no credentials; health checks are open.
        let open = req.method() == Method::OPTIONS
            || config.open_paths.iter().any(|p| p == req.uri().path());
        let given = bearer(req)
            .map(str::to_owned)
            .or_else(|| subprotocol_key(req));
        let key_id = match given.as_deref().and_then(|k| self.0.keys.find(k)) {
            Some(id) => Some(id.to_string()),
            None if self.0.keys.is_empty() || open => None,
            None => return Err(Refusal::Unauthorized),
        };
        let caller = Caller {
            key_id,
            address: req
                .extensions()
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0.ip()),
        };
        if let (Some(limiter), false) = (&self.0.limiter, open) {
            limiter
                .check(&caller.quota_key())
                .map_err(Refusal::RateLimited)?;
        }
        Ok(caller)
    }

    /// The server's response to `refusal`, with the headers its status needs.
    pub fn refuse(&self, refusal: &Refusal, path: &str) -> Response {
        let mut res = (self.0.respond)(refusal, path);
        *res.status_mut() = refusal.status();
        let h = res.headers_mut();
        if let Some(secs) = refusal.retry_after_secs() {
            h.insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        if *refusal == Refusal::Unauthorized {
            h.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        res
    }
}

/// The middleware: `.layer(axum::middleware::from_fn_with_state(guard, enforce))`,
/// outermost but for tracing, so that nothing else runs for a refused request.
pub async fn enforce(State(guard): State<Guard>, mut req: Request, next: Next) -> Response {
    match guard.check(&req) {
        Ok(caller) => {
            req.extensions_mut().insert(caller);
            next.run(req).await
        }
        Err(refusal) => {
            tracing::info!(%refusal, method = %req.method(), path = %req.uri().path(), "request refused");
            let mut res = guard.refuse(&refusal, req.uri().path());
            // Past the Origin check the origin is an allowed one: let it read
            // why (a 401 or a 429), as CORS would for any other answer.
            if matches!(refusal, Refusal::Unauthorized | Refusal::RateLimited(_)) {
                readable_by_origin(&mut res, req.headers());
            }
            res
        }
    }
}

/// Lets the request's `Origin` read a refusal (and its `Retry-After`), as
/// CORS would for any other answer. Only for requests past the Origin
/// check, whose origin is an allowed one: the guard's own 401/429, and a
/// server's shared rate limit refused after it.
pub fn readable_by_origin(res: &mut Response, req_headers: &HeaderMap) {
    if let Some(origin) = req_headers.get(header::ORIGIN) {
        let h = res.headers_mut();
        h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone());
        h.insert(
            header::ACCESS_CONTROL_EXPOSE_HEADERS,
            HeaderValue::from_static("retry-after"),
        );
        h.insert(header::VARY, HeaderValue::from_static("Origin"));
    }
}
