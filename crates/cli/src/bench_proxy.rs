//! `sentience bench-server`'s load balancer: a plain HTTP reverse proxy
//! that sends each request to the next replica in turn (round robin per
//! request, no sticky sessions), as nginx or any cloud load balancer would
//! with keep-alive connections to its upstreams. It runs on threads of its
//! own (a runtime of two workers, as nginx's `worker_processes auto` on this
//! 2-core machine), not on the load generator's one thread: sharing that
//! thread, every request's two extra HTTP hops delayed the generator's own
//! sends and reads (generator lag p50 37 ms behind the proxy against 1.4 ms
//! without it), and the replicas' figures were mostly the proxy's queue.
//! Its CPU is measured on its own threads and reported apart; it costs CPU
//! on the same cores as the replicas, as a balancer on the same machine
//! would.

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderName, StatusCode};
use axum::response::{IntoResponse, Response};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

struct Upstreams {
    bases: Vec<String>,
    /// Requests of one run to one replica (`--balance run-hash`).
    by_run: bool,
    next: AtomicUsize,
    http: reqwest::Client,
}

/// A running proxy; dropping it stops it.
pub struct Proxy {
    pub addr: String,
    /// Its threads' ids (their CPU is the proxy's), as they start.
    threads: Arc<std::sync::Mutex<Vec<u32>>>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Proxy {
    pub fn threads(&self) -> Vec<u32> {
        self.threads
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }
}

/// Serves the proxy on 127.0.0.1:0, on a runtime of its own.
/// `by_run`: send every request of a run (`/agent/run/ID/…`) to the same
/// replica, as nginx's `hash $run_id consistent` would; other requests
/// round robin.
pub fn start(backends: Vec<String>, by_run: bool) -> anyhow::Result<Proxy> {
    let threads = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = threads.clone();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("bench-proxy")
        .on_thread_start(move || {
            if let Some(t) = crate::bench_procs::thread_id() {
                seen.lock().unwrap_or_else(|e| e.into_inner()).push(t);
            }
        })
        .enable_all()
        .build()?;
    let state = Arc::new(Upstreams {
        bases: backends,
        by_run,
        next: AtomicUsize::new(0),
        http: reqwest::Client::builder()
            .pool_max_idle_per_host(1024)
            .tcp_nodelay(true)
            .build()?,
    });
    let app = axum::Router::new().fallback(forward).with_state(state);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (bound, addr) = std::sync::mpsc::channel();
    // Bound and served on its own thread: the caller runs inside the load
    // generator's runtime, where another runtime cannot block.
    std::thread::Builder::new()
        .name("bench-proxy".into())
        .spawn(move || {
            rt.block_on(async move {
                let listener = match sentience_server::bind::bind("127.0.0.1:0").await {
                    Ok(l) => l,
                    Err(e) => {
                        let _ = bound.send(Err(e));
                        return;
                    }
                };
                let _ = bound.send(listener.local_addr().map(|a| a.to_string()));
                let _ = axum::serve(listener, app)
                    .with_graceful_shutdown(async move {
                        let _ = stopped.await;
                    })
                    .await;
            });
            rt.shutdown_background();
        })?;
    let addr = addr.recv()??;
    Ok(Proxy {
        addr,
        threads,
        stop: Some(stop),
    })
}

fn hop_by_hop(name: &HeaderName) -> bool {
    matches!(
        name.as_str(),
        "connection" | "keep-alive" | "transfer-encoding" | "upgrade" | "host" | "content-length"
    )
}

/// The run a request is about, from its path.
fn run_of(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("/agent/run/")?;
    let id = rest.split(['/', '?']).next()?;
    (!id.is_empty() && id != "start").then_some(id)
}

async fn forward(State(u): State<Arc<Upstreams>>, req: Request) -> Response {
    let run = u.by_run.then(|| run_of(req.uri().path())).flatten();
    let i = match run {
        Some(id) => {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            std::hash::Hash::hash(id, &mut h);
            (std::hash::Hasher::finish(&h) % u.bases.len() as u64) as usize
        }
        None => u.next.fetch_add(1, Ordering::Relaxed) % u.bases.len(),
    };
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
