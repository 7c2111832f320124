//! The agent server: the run API of docs/contracts/run-api.md and the System 2 API of
//! docs/contracts/system2.md on one axum router. `router(state)` builds it (testable without
//! sockets); `serve(listener, state)` serves it and sweeps expired runs. Runs live
//! in a `store` (SQLite, or PostgreSQL for several replicas); their events are
//! streamed over a WebSocket (`routes/stream.rs`).

pub mod bind;
pub mod body;
pub mod browse_llm;
pub mod error;
pub mod events;
pub mod hub;
pub mod layers;
pub mod live;
pub mod routes;
pub mod shared_rate;
pub mod state;
pub mod store;
pub mod system2_validate;

pub use error::ApiError;
pub use state::{AppState, ServerConfig};
pub use store::{postgres::PgOptions, Store};

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use sentience_agent::time::now_ms;
use std::future::Future;
use std::time::Duration;
use tokio::net::TcpListener;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::trace::TraceLayer;

/// The whole API with its layers. Every request meets the guard first
/// (`sentience_guard`: Host, Origin, keys, rate; docs/security.md); only
/// what it lets through reaches CORS and the routes.
pub fn router(state: AppState) -> Router {
    let limit = state.config.max_body_bytes;
    // Our extension's origin is allowed by the guard itself.
    let cors = layers::cors(&state.config.guard.allowed_origins);
    let app = Router::new()
        .route("/health", get(routes::health))
        .route("/agent/run/start", post(routes::runs::start))
        .route("/agent/run/{run_id}/step", post(routes::runs::step))
        .route("/agent/run/{run_id}/answer", post(routes::runs::answer))
        .route("/agent/run/{run_id}/cancel", post(routes::runs::cancel))
        .route("/agent/run/{run_id}", get(routes::runs::get))
        .route("/agent/run/{run_id}/stream", get(routes::stream::stream))
        .route("/s2", post(routes::system2::system2))
        .route(
            "/browse",
            post(routes::browse::post).get(routes::browse::ws),
        )
        .fallback(routes::not_found);
    app.layer(DefaultBodyLimit::max(limit))
        .layer(CatchPanicLayer::custom(|_| {
            use axum::response::IntoResponse;
            ApiError::Internal("The server hit an unexpected error".into()).into_response()
        }))
        .layer(cors)
        // Inside the guard: it needs the caller the guard names.
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            shared_rate::enforce,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.guard.clone(),
            sentience_guard::enforce,
        ))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// Delete runs idle past the TTL, every minute (or TTL/2 when shorter), and
/// drop runs unused for a while from the live-run cache.
pub async fn sweep_expired(state: AppState) {
    let period = (state.config.run_ttl.min(state.config.browse_ttl) / 2)
        .clamp(Duration::from_millis(100), Duration::from_secs(60));
    let mut tick = tokio::time::interval(period);
    loop {
        tick.tick().await;
        let ttl_ms = state.config.run_ttl.as_millis() as u64;
        let idle_ms = (state.config.cache_idle.as_millis() as u64).min(ttl_ms);
        state.live.evict_idle(now_ms().saturating_sub(idle_ms));
        state.store.hub().prune();
        let cutoff = now_ms().saturating_sub(ttl_ms);
        let browse_cutoff = now_ms().saturating_sub(state.config.browse_ttl.as_millis() as u64);
        match state.store.expire_browse(browse_cutoff).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(n, "expired idle browse sessions"),
            Err(e) => tracing::warn!(error = %e, "browse expiry sweep failed"),
        }
        match state.store.expire(cutoff).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(n, "expired idle runs"),
            Err(e) => tracing::warn!(error = %e, "expiry sweep failed"),
        }
    }
}

/// Serve until the process ends.
pub async fn serve(listener: TcpListener, state: AppState) -> std::io::Result<()> {
    serve_with_shutdown(listener, state, std::future::pending()).await
}

/// Serve until `shutdown` resolves: then stop accepting, close streams and
/// WebSockets (1001, clients reconnect elsewhere), and let requests in
/// flight finish and answer (each was committed before it is answered), for
/// at most `grace`; then close the store.
pub async fn serve_with_shutdown(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_draining(listener, state, shutdown, Duration::from_secs(30)).await
}

/// `serve_with_shutdown` with the longest wait for requests in flight.
pub async fn serve_draining(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
    grace: Duration,
) -> std::io::Result<()> {
    let sweeper = tokio::spawn(sweep_expired(state.clone()));
    let (stopped_tx, stopped) = tokio::sync::oneshot::channel::<()>();
    let stopping = state.clone();
    let signal = async move {
        shutdown.await;
        tracing::info!("stopping: finishing requests in flight");
        stopping.stop();
        let _ = stopped_tx.send(());
    };
    let serving = serve_router(listener, state.clone(), signal);
    tokio::pin!(serving);
    let r = tokio::select! {
        r = &mut serving => r,
        Ok(()) = stopped => match tokio::time::timeout(grace, &mut serving).await {
            Ok(r) => r,
            Err(_) => {
                tracing::warn!(?grace, "requests still in flight after the grace period: stopping anyway");
                Ok(())
            }
        },
    };
    sweeper.abort();
    state.store.close().await;
    r
}

/// Serve the router on one more listener (no sweeper of its own), e.g. the
/// System 2 API's own port 8000 beside the run API's 3131. The listener's
/// address joins the guard's (the port `Host` must carry), and each request
/// knows its client's address (per-address rate limits and quotas).
pub async fn serve_router(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    state.guard.listening_on(listener.local_addr()?);
    let app = router(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
}
