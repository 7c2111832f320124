//! `sentience bench-server`'s load balancer: a plain HTTP reverse proxy
//! that sends each request to the next replica in turn (round robin per
//! request, no sticky sessions), as nginx or any cloud load balancer would
//! with keep-alive connections to its upstreams. Serving it in the bench
//! process costs CPU on the same cores as the replicas, as a balancer on
//! the same machine would.

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderName, StatusCode};
use axum::response::{IntoResponse, Response};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

struct Upstreams {
    bases: Vec<String>,
    next: AtomicUsize,
    http: reqwest::Client,
}

/// Serves the proxy on 127.0.0.1:0 in the current runtime; its address.
pub async fn start(backends: Vec<String>) -> anyhow::Result<String> {
    let state = Arc::new(Upstreams {
        bases: backends,
        next: AtomicUsize::new(0),
        http: reqwest::Client::builder()
            .pool_max_idle_per_host(1024)
            .tcp_nodelay(true)
            .build()?,
    });
    let app = axum::Router::new().fallback(forward).with_state(state);
    let listener = sentience_server::bind::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?.to_string();
    tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(addr)
}

fn hop_by_hop(name: &HeaderName) -> bool {
    matches!(
        name.as_str(),
        "connection" | "keep-alive" | "transfer-encoding" | "upgrade" | "host" | "content-length"
    )
}

async fn forward(State(u): State<Arc<Upstreams>>, req: Request) -> Response {
    let i = u.next.fetch_add(1, Ordering::Relaxed) % u.bases.len();
    let (parts, body) = req.into_parts();
    let path = parts
        .uri
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_string();
    let body: Bytes = match axum::body::to_bytes(body, usize::MAX).await {
        Ok(b) => b,
        Err(e) => return (StatusCode::BAD_REQUEST, e.to_string()).into_response(),
    };
    let mut out = u
        .http
        .request(parts.method, format!("http://{}{path}", u.bases[i]))
        .body(body);
    for (k, v) in &parts.headers {
        if !hop_by_hop(k) {
            out = out.header(k, v);
        }
    }
    let resp = match out.send().await {
        Ok(r) => r,
        Err(e) => return (StatusCode::BAD_GATEWAY, e.to_string()).into_response(),
    };
    let status = resp.status();
    let headers = resp.headers().clone();
    let bytes = match resp.bytes().await {
        Ok(b) => b,
        Err(e) => return (StatusCode::BAD_GATEWAY, e.to_string()).into_response(),
    };
    let mut r = Response::new(Body::from(bytes));
    *r.status_mut() = status;
    for (k, v) in &headers {
        if !hop_by_hop(k) {
            r.headers_mut().insert(k, v.clone());
        }
    }
    r
}
