//! Who may use the agent server (docs/security.md), over real HTTP on port 0
//! with the run database in a real file: what a web page the user visits
//! can send (simple cross-site POSTs, a WebSocket, DNS rebinding) gets
//! nothing and creates nothing; our extension, Origin-less clients (the CLI,
//! the SDKs), configured origins and hosts keep working; keys, rate limits
//! and the running-runs quota answer as documented.
#![allow(clippy::unwrap_used)]

mod common;

use common::{login_page, ok, spawn_with, TestServer};
use sentience_agent::ScorerPolicy;
use sentience_guard::{GuardConfig, RateLimit, EXTENSION_ORIGIN};
use sentience_server::ServerConfig;
use serde_json::{json, Value};
use std::sync::Arc;
use tokio_tungstenite::tungstenite;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

const EVIL: &str = "https://evil.example";

async fn server(guard: GuardConfig) -> TestServer {
    spawn_with(
        ServerConfig {
            guard,
            ..ServerConfig::default()
        },
        Arc::new(ScorerPolicy),
    )
    .await
}

/// Runs in the database, read by a connection of our own.
async fn stored_runs(s: &TestServer) -> i64 {
    s.db.count("runs").await
}

/// A "simple" request, as `fetch(url, {method: 'POST', mode: 'no-cors',
/// headers: {'Content-Type': 'text/plain'}})` from a page sends it: no
/// preflight, the page's Origin.
async fn simple_post(s: &TestServer, path: &str, origin: &str, body: &str) -> (u16, Value) {
    let r = s
        .client
        .post(format!("{}{path}", s.base))
        .header("origin", origin)
        .header("content-type", "text/plain;charset=UTF-8")
        .header("sec-fetch-site", "cross-site")
        .header("sec-fetch-mode", "no-cors")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

fn ws_url(s: &TestServer, path: &str) -> String {
    format!("{}{path}", s.base.replacen("http://", "ws://", 1))
}

/// A WebSocket handshake with `headers`: Ok on 101, else the status.
async fn ws_handshake(url: &str, headers: &[(&'static str, &str)]) -> Result<(), u16> {
    let mut req = url.into_client_request().unwrap();
    for (k, v) in headers {
        req.headers_mut()
            .insert(*k, tungstenite::http::HeaderValue::from_str(v).unwrap());
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok(_) => Ok(()),
        Err(tungstenite::Error::Http(res)) => Err(res.status().as_u16()),
        Err(e) => panic!("handshake failed otherwise: {e}"),
    }
}

#[tokio::test]
async fn a_cross_site_page_gets_nothing_from_any_route_and_creates_nothing() {
    let s = server(GuardConfig::default()).await;
    // One real run, so step/answer/cancel name a run that exists.
    let run = s.start("Log in", "careful").await;
    assert_eq!(stored_runs(&s).await, 1);
    let task = r#"{"task":"transfer all the money"}"#;
    let routes = [
        ("/agent/run/start".to_string(), task.to_string()),
        (
            format!("/agent/run/{run}/step"),
            json!({"snapshot": login_page(), "lastActionResult": ok()}).to_string(),
        ),
        (
            format!("/agent/run/{run}/answer"),
            r#"{"approved":true}"#.into(),
        ),
        (format!("/agent/run/{run}/cancel"), "{}".into()),
        ("/s2".into(), r#"{"task":"x","elements":[]}"#.into()),
        (
            "/browse".into(),
            r#"{"endpoint":"task","html":"<a href=/x>x</a>","action":"click x"}"#.into(),
        ),
    ];
    for (path, body) in &routes {
        for origin in [
            EVIL,
            "null",
            "chrome-extension://abcdefghijklmnopabcdefghijklmnop",
        ] {
            let (status, v) = simple_post(&s, path, origin, body).await;
            assert_eq!(status, 403, "{origin} POST {path}: {v}");
            let text = v.to_string();
            assert!(text.contains("Origin not allowed"), "{path}: {v}");
        }
    }
    // The System 2 API keeps its own error shape.
    let (_, v) = simple_post(&s, "/s2", EVIL, "{}").await;
    assert!(
        v["detail"]
            .as_str()
            .unwrap()
            .starts_with("Origin not allowed"),
        "{v}"
    );
    // Nothing was created (no run, no browse conversation), and the run the
    // page tried to drive is untouched.
    assert_eq!(stored_runs(&s).await, 1);
    assert_eq!(s.db.count("browse_sessions").await, 0);
    let state = s.state(&run).await;
    assert_eq!(state["status"], "created", "{state}");
    assert_eq!(state["currentStep"], 0, "{state}");
    // A page's fetch of a GET route carries its Origin: refused too (the
    // run's state, and `/health`, which names the store and its state).
    for path in [format!("/agent/run/{run}"), "/health".to_string()] {
        let r = s
            .client
            .get(format!("{}{path}", s.base))
            .header("origin", EVIL)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 403, "GET {path} from {EVIL}");
    }
    // A no-cors GET carries no Origin, but the browser says a page sent it.
    let r = s
        .client
        .get(format!("{}/agent/run/{run}", s.base))
        .header("sec-fetch-site", "cross-site")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
}

/// A WebSocket upgrade at `url` is refused to a page's Origin, a `null`
/// Origin and a rebound Host, and accepted from the CLI (no Origin) and
/// our extension.
async fn upgrade_is_guarded(s: &TestServer, url: &str) {
    assert_eq!(ws_handshake(url, &[("origin", EVIL)]).await, Err(403));
    assert_eq!(ws_handshake(url, &[("origin", "null")]).await, Err(403));
    // Rebinding: the page's own name, resolved to 127.0.0.1.
    let port = s.base.rsplit(':').next().unwrap().to_string();
    let rebound = format!("rebind.example:{port}");
    assert_eq!(ws_handshake(url, &[("host", &rebound)]).await, Err(403));
    ws_handshake(url, &[]).await.unwrap();
    ws_handshake(url, &[("origin", EXTENSION_ORIGIN)])
        .await
        .unwrap();
}

#[tokio::test]
async fn a_cross_site_websocket_to_browse_is_refused_and_ours_is_not() {
    let s = server(GuardConfig::default()).await;
    upgrade_is_guarded(&s, &ws_url(&s, "/browse")).await;
}

/// The live run stream is a WebSocket upgrade on a GET: the same guard.
#[tokio::test]
async fn a_cross_site_websocket_to_a_run_stream_is_refused_and_ours_is_not() {
    let s = server(GuardConfig::default()).await;
    let run = s.start("Log in", "careful").await;
    upgrade_is_guarded(&s, &ws_url(&s, &format!("/agent/run/{run}/stream"))).await;
}

#[tokio::test]
async fn a_foreign_host_is_refused_on_get_and_post() {
    let s = server(GuardConfig {
        allowed_hosts: vec!["agent.internal.example".into()],
        ..GuardConfig::default()
    })
    .await;
    let port = s.base.rsplit(':').next().unwrap().to_string();
    let with_host = |method: reqwest::Method, path: &str, host: String| {
        s.client
            .request(method, format!("{}{path}", s.base))
            .header("host", host)
            .header("content-type", "application/json")
            .body(r#"{"task":"x"}"#)
    };
    for host in [
        format!("evil.example:{port}"),
        "evil.example".into(),
        format!("localhost:{}", 1),
        format!("[::1]:{}", 1),
        format!("[::2]:{port}"),
        format!("127.0.0.1.evil.example:{port}"),
    ] {
        let r = with_host(reqwest::Method::GET, "/health", host.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 403, "GET with Host {host}");
        let r = with_host(reqwest::Method::POST, "/agent/run/start", host.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 403, "POST with Host {host}");
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["error"], "Forbidden");
        assert!(
            v["message"]
                .as_str()
                .unwrap()
                .starts_with("Host not allowed"),
            "{v}"
        );
    }
    assert_eq!(stored_runs(&s).await, 0);
    // Our own names, and the one configured behind a proxy.
    for host in [
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        format!("[::1]:{port}"),
        "agent.internal.example".into(),
        "agent.internal.example:443".into(),
    ] {
        let r = with_host(reqwest::Method::POST, "/agent/run/start", host.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "Host {host}");
    }
    assert_eq!(stored_runs(&s).await, 5);
}

#[tokio::test]
async fn the_extension_origin_less_clients_and_configured_origins_keep_working() {
    let s = server(GuardConfig {
        allowed_origins: vec!["http://localhost:5173".into()],
        ..GuardConfig::default()
    })
    .await;
    for origin in [Some(EXTENSION_ORIGIN), Some("http://localhost:5173"), None] {
        let mut req = s
            .client
            .post(format!("{}/agent/run/start", s.base))
            .json(&json!({"task": "Log in"}));
        if let Some(o) = origin {
            req = req.header("origin", o);
        }
        let r = req.send().await.unwrap();
        assert_eq!(r.status(), 200, "{origin:?}");
        let acao = r
            .headers()
            .get("access-control-allow-origin")
            .map(|v| v.to_str().unwrap().to_string());
        assert_eq!(acao.as_deref(), origin, "CORS answer for {origin:?}");
        let v: Value = r.json().await.unwrap();
        assert!(v["runId"].is_string());
    }
    assert_eq!(stored_runs(&s).await, 3);
}

#[tokio::test]
async fn the_rate_limit_answers_429_with_retry_after_per_key() {
    let s = server(GuardConfig {
        keys: vec!["alpha".into(), "beta".into()],
        rate: RateLimit::new(1, Some(3)),
        ..GuardConfig::default()
    })
    .await;
    let start = |key: &'static str| {
        s.client
            .post(format!("{}/agent/run/start", s.base))
            .bearer_auth(key)
            .header("origin", EXTENSION_ORIGIN)
            .json(&json!({"task": "x"}))
            .send()
    };
    for _ in 0..3 {
        assert_eq!(start("alpha").await.unwrap().status(), 200);
    }
    let r = start("alpha").await.unwrap();
    assert_eq!(r.status(), 429);
    let retry: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=2).contains(&retry), "Retry-After {retry}");
    // The extension can read why (CORS headers on the refusal).
    assert_eq!(r.headers()["access-control-allow-origin"], EXTENSION_ORIGIN);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["error"], "Too many requests");
    // Another key has a bucket of its own; health checks are not counted.
    assert_eq!(start("beta").await.unwrap().status(), 200);
    let (status, _) = s.get("/health").await;
    assert_eq!(status, 200);
    assert_eq!(stored_runs(&s).await, 4);
    // Without a key: 401, never a run.
    let r = s
        .client
        .post(format!("{}/agent/run/start", s.base))
        .json(&json!({"task": "x"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
    assert_eq!(r.headers()["www-authenticate"], "Bearer");
    assert_eq!(stored_runs(&s).await, 4);
}

#[tokio::test]
async fn a_caller_may_have_only_so_many_runs_going() {
    let s = spawn_with(
        ServerConfig {
            max_running_runs: 2,
            ..ServerConfig::default()
        },
        Arc::new(ScorerPolicy),
    )
    .await;
    let first = s.start("one", "autonomous").await;
    s.start("two", "autonomous").await;
    let r = s
        .client
        .post(format!("{}/agent/run/start", s.base))
        .json(&json!({"task": "three"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 429);
    assert_eq!(r.headers()["retry-after"], "5");
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["error"], "Too many requests", "{v}");
    assert!(v["message"].as_str().unwrap().contains("at most 2"), "{v}");
    assert_eq!(stored_runs(&s).await, 2);
    // A run that ends frees its place.
    let (status, _) = s
        .post(&format!("/agent/run/{first}/cancel"), json!({}))
        .await;
    assert_eq!(status, 200);
    let (status, _) = s.post("/agent/run/start", json!({"task": "three"})).await;
    assert_eq!(status, 200);
}

/// A client connecting from `ip` (any 127.x address reaches our loopback
/// listener, each a caller of its own when the server has no keys).
fn client_from(ip: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(ip.parse::<std::net::IpAddr>().unwrap())
        .build()
        .unwrap()
}

async fn start_as(
    s: &TestServer,
    client: &reqwest::Client,
    key: Option<&str>,
) -> reqwest::Response {
    let mut req = client
        .post(format!("{}/agent/run/start", s.base))
        .json(&json!({"task": "x"}));
    if let Some(k) = key {
        req = req.bearer_auth(k);
    }
    req.send().await.unwrap()
}

#[tokio::test]
async fn without_keys_the_rate_is_counted_per_client_address() {
    let s = server(GuardConfig {
        rate: RateLimit::new(1, Some(2)),
        ..GuardConfig::default()
    })
    .await;
    let (one, two) = (client_from("127.0.0.1"), client_from("127.0.0.2"));
    for _ in 0..2 {
        assert_eq!(start_as(&s, &one, None).await.status(), 200);
    }
    let r = start_as(&s, &one, None).await;
    assert_eq!(r.status(), 429);
    assert!(r.headers().contains_key("retry-after"));
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["error"], "Too many requests", "{v}");
    // Another address has a bucket of its own.
    assert_eq!(start_as(&s, &two, None).await.status(), 200);
    assert_eq!(stored_runs(&s).await, 3);
}

#[tokio::test]
async fn running_runs_are_counted_per_key_else_per_client_address() {
    // With keys: per key, whatever address it comes from.
    let s = spawn_with(
        ServerConfig {
            guard: GuardConfig {
                keys: vec!["alpha".into(), "beta".into()],
                ..GuardConfig::default()
            },
            max_running_runs: 1,
            ..ServerConfig::default()
        },
        Arc::new(ScorerPolicy),
    )
    .await;
    let (one, two) = (client_from("127.0.0.1"), client_from("127.0.0.2"));
    assert_eq!(start_as(&s, &one, Some("alpha")).await.status(), 200);
    let r = start_as(&s, &two, Some("alpha")).await;
    assert_eq!(r.status(), 429, "alpha from another address");
    assert!(r.headers().contains_key("retry-after"));
    assert_eq!(start_as(&s, &one, Some("beta")).await.status(), 200);
    assert_eq!(stored_runs(&s).await, 2);
    // Without keys: per address.
    let s = spawn_with(
        ServerConfig {
            max_running_runs: 1,
            ..ServerConfig::default()
        },
        Arc::new(ScorerPolicy),
    )
    .await;
    assert_eq!(start_as(&s, &one, None).await.status(), 200);
    assert_eq!(start_as(&s, &one, None).await.status(), 429);
    assert_eq!(start_as(&s, &two, None).await.status(), 200);
    assert_eq!(stored_runs(&s).await, 2);
}
