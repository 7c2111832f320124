//! The per-caller request rate (`--rate-limit`, docs/security.md) held
//! for all replicas together when they share a PostgreSQL database: each
//! replica's guard would count only the requests that reach it, so a
//! caller would get N times its rate from N replicas (or less than its rate
//! behind a load balancer that is not round robin). Here every request is
//! counted in one row per caller (`store/postgres/rate.rs`); the guard
//! still checks Host, Origin and keys first and names the caller.
//!
//! Why a shared counter rather than each replica enforcing rate/N: it holds
//! whatever the balancer does (sticky clients, replicas added or removed),
//! at the cost of one statement (~0.2 ms, no disk wait: the table is
//! unlogged) per request, and only when a rate is configured. If the
//! database cannot answer, the request is let through (it will most likely
//! fail on the database anyway) and the failure is logged.

use crate::state::AppState;
use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use sentience_guard::{readable_by_origin, Caller, Refusal};

pub async fn enforce(State(s): State<AppState>, req: Request, next: Next) -> Response {
    let Some(rate) = s.shared_rate else {
        return next.run(req).await;
    };
    let open = req.method() == Method::OPTIONS
        || s.guard
            .config()
            .open_paths
            .iter()
            .any(|p| p == req.uri().path());
    if open {
        return next.run(req).await;
    }
    let key = req
        .extensions()
        .get::<Caller>()
        .map_or_else(|| "anonymous".to_string(), Caller::quota_key);
    match s.store.rate(&key, rate).await {
        Some(Ok(Err(wait))) => {
            let refusal = Refusal::RateLimited(wait);
            tracing::info!(%refusal, path = %req.uri().path(), "request refused (shared rate)");
            let mut res = s.guard.refuse(&refusal, req.uri().path());
            // As the guard does: an allowed origin may read why.
            readable_by_origin(&mut res, req.headers());
            res
        }
        Some(Err(e)) => {
            tracing::warn!(error = %e, "shared rate limit unavailable; request let through");
            next.run(req).await
        }
        Some(Ok(Ok(()))) | None => next.run(req).await,
    }
}
