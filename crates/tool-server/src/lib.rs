//! The tool server (docs/tools.md; docs/contracts/tools.md, API 8.0.0): the
//! "hands" of an external planner. Screenshots, clicks, typing, scrolling
//! and keys in a real Chromium (over CDP) or on a real X11 desktop (XTest),
//! browser sessions and tabs, the accessibility tree, coordinate
//! conversion and validation, over HTTP.
//!
//! `router(state)` builds the API apart from serving it (tests serve it on
//! port 0); `sentience tools` in crates/cli wires the real backends.

pub mod body;
pub mod browser;
pub mod desktop;
pub mod error;
pub mod geometry;
pub mod imaging;
pub mod keys;
pub mod routes;
pub mod state;

pub use routes::router;
pub use state::{AppState, Config};

/// Serves `router` on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use axum::serve::ListenerExt;
    // Answers leave at once: with Nagle's algorithm on, the last part of a
    // large answer (a screenshot) can wait for the client's acknowledgement
    // of the previous ones.
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    // Each request knows its client's address (per-address rate limits).
    let app = router.into_make_service_with_connect_info::<std::net::SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
}
