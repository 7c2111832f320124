//! The streamable HTTP transport (`sentience mcp --http`, endpoint `/mcp`),
//! behind the project's one guard (crates/guard, docs/security.md): `Host`
//! must name this server (DNS rebinding), a browser's `Origin` must be one
//! the operator allowed (a web page can send requests to 127.0.0.1 and,
//! rebound, read the answers), and with `--token` every request needs
//! `Authorization: Bearer <token>`; rate limits per caller. rmcp's own Host
//! check is switched off: the guard has already done it, with the
//! operator's `--allowed-host` names.

use crate::server::{SentienceMcp, Shared};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{middleware, Json, Router};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use sentience_guard::{Guard, GuardConfig, Refusal};
use serde_json::json;
use std::sync::Arc;
pub use tokio_util::sync::CancellationToken;

/// The endpoint, as MCP hosts are configured with it.
pub const ENDPOINT: &str = "/mcp";

/// A refusal of the guard as a JSON-RPC error (what an MCP client reads),
/// with the HTTP status the guard sets.
fn refusal(r: &Refusal, _path: &str) -> Response {
    let code = match r {
        Refusal::Unauthorized => -32001,
        Refusal::Host(_) | Refusal::Origin(_) => -32003,
        Refusal::RateLimited(_) => -32029,
    };
    (
        r.status(),
        Json(json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": r.to_string()}})),
    )
        .into_response()
}

/// The guard of the MCP endpoint.
pub fn guard(config: GuardConfig) -> Guard {
    Guard::new(config, refusal)
}

/// `/mcp` for every client, one MCP session each (they share the browser).
pub fn router(shared: Arc<Shared>, guard: Guard, ct: CancellationToken) -> Router {
    let allowed = guard.config().allowed_origins.clone();
    let service = StreamableHttpService::new(
        move || Ok(SentienceMcp::new(shared.clone())),
        LocalSessionManager::default().into(),
        StreamableHttpServerConfig::default()
            .disable_allowed_hosts()
            .with_cancellation_token(ct),
    );
    Router::new()
        .nest_service(ENDPOINT, service)
        .fallback(|| async { (StatusCode::NOT_FOUND, "not found: the MCP endpoint is /mcp") })
        .layer(sentience_guard::cors(
            &allowed,
            &["mcp-session-id", "mcp-protocol-version", "last-event-id"],
            &["mcp-session-id"],
        ))
        .layer(middleware::from_fn_with_state(
            guard,
            sentience_guard::enforce,
        ))
}

/// Serves `/mcp` on `listener` behind `guard` until `shutdown` resolves
/// (then open MCP sessions are cancelled). The listener's address joins the
/// guard's (the port `Host` must carry; register it yourself before telling
/// anyone the address); each request knows its client's address
/// (per-address rate limits without a token).
pub async fn serve(
    listener: tokio::net::TcpListener,
    shared: Arc<Shared>,
    guard: Guard,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    guard.listening_on(listener.local_addr()?);
    let ct = CancellationToken::new();
    let app = router(shared, guard, ct.clone())
        .into_make_service_with_connect_info::<std::net::SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            ct.cancel();
        })
        .await
}
