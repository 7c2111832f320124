//! `sentience mcp --http` behind the project's one guard (docs/security.md),
//! over real HTTP on port 0, served by the same `http::serve` the command
//! uses. The backend is the user's-Chrome one with no extension connected:
//! the guard answers before any tool could reach a browser, and an MCP
//! `initialize` that gets through needs none.
#![allow(clippy::unwrap_used)]

use sentience_guard::{GuardConfig, RateLimit, EXTENSION_ORIGIN};
use sentience_mcp::backend::extension::link::Link;
use sentience_mcp::backend::extension::ExtensionBackend;
use sentience_mcp::{http, Config, Mode, Shared};
use serde_json::Value;
use std::sync::Arc;

struct Mcp {
    url: String,
    port: u16,
    http: reqwest::Client,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for Mcp {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

async fn mcp(config: GuardConfig) -> Mcp {
    let shared = Shared::new(
        Arc::new(ExtensionBackend::new(Arc::new(Link::default()))),
        Config {
            mode: Mode::Autonomous,
            policy: Arc::new(sentience_agent::ScorerPolicy),
        },
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let guard = http::guard(config);
    guard.listening_on(addr);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(http::serve(listener, shared, guard, async {
        let _ = stopped.await;
    }));
    Mcp {
        url: format!("http://{addr}{}", http::ENDPOINT),
        port: addr.port(),
        http: reqwest::Client::new(),
        stop: Some(stop),
    }
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#;

impl Mcp {
    /// An MCP `initialize` with `headers`: the status, and the response.
    async fn init(&self, headers: &[(&str, &str)]) -> reqwest::Response {
        let mut req = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(INIT);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        req.send().await.unwrap()
    }
}

/// A refusal's JSON-RPC error: (code, message).
async fn rpc_error(r: reqwest::Response) -> (i64, String) {
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["jsonrpc"], "2.0", "{v}");
    (
        v["error"]["code"].as_i64().unwrap(),
        v["error"]["message"].as_str().unwrap().to_string(),
    )
}

#[tokio::test]
async fn pages_and_foreign_hosts_are_refused_on_every_method() {
    let m = mcp(GuardConfig::default()).await;
    for origin in [
        "https://evil.example",
        "null",
        "chrome-extension://abcdefghijklmnopabcdefghijklmnop",
    ] {
        let r = m.init(&[("origin", origin)]).await;
        assert_eq!(r.status(), 403, "{origin}");
        let (code, message) = rpc_error(r).await;
        assert_eq!(code, -32003);
        assert!(message.starts_with("Origin not allowed"), "{message}");
        // The simple request a page sends without a preflight.
        let r = m
            .http
            .post(&m.url)
            .header("origin", origin)
            .header("content-type", "text/plain;charset=UTF-8")
            .header("sec-fetch-site", "cross-site")
            .body(INIT)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 403, "simple POST from {origin}");
        // GET (the SSE stream), DELETE (end a session), a preflight.
        for method in [
            reqwest::Method::GET,
            reqwest::Method::DELETE,
            reqwest::Method::OPTIONS,
        ] {
            let r = m
                .http
                .request(method.clone(), &m.url)
                .header("origin", origin)
                .header("access-control-request-method", "POST")
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 403, "{method} from {origin}");
            assert!(r.headers().get("access-control-allow-origin").is_none());
        }
    }
    // A no-cors GET carries no Origin, but the browser says a page sent it.
    let r = m
        .http
        .get(&m.url)
        .header("sec-fetch-site", "cross-site")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    // DNS rebinding: the page's own name, on GET and POST.
    for host in [
        format!("evil.example:{}", m.port),
        "evil.example".into(),
        format!("localhost:{}", m.port ^ 1),
    ] {
        let r = m.init(&[("host", &host)]).await;
        assert_eq!(r.status(), 403, "POST with Host {host}");
        let (code, message) = rpc_error(r).await;
        assert_eq!(code, -32003);
        assert!(message.starts_with("Host not allowed"), "{message}");
        let r = m
            .http
            .get(&m.url)
            .header("host", &host)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 403, "GET with Host {host}");
    }
}

#[tokio::test]
async fn origin_less_clients_our_extension_and_configured_names_get_through() {
    let m = mcp(GuardConfig {
        allowed_origins: vec!["https://app.example".into()],
        allowed_hosts: vec!["mcp.internal.example".into()],
        ..GuardConfig::default()
    })
    .await;
    let (localhost, v6) = (format!("localhost:{}", m.port), format!("[::1]:{}", m.port));
    for (headers, origin) in [
        (vec![], None),
        (vec![("origin", EXTENSION_ORIGIN)], Some(EXTENSION_ORIGIN)),
        (
            vec![("origin", "https://app.example")],
            Some("https://app.example"),
        ),
        (vec![("host", "mcp.internal.example")], None),
        (vec![("host", "mcp.internal.example:443")], None),
        (vec![("host", localhost.as_str())], None),
        (vec![("host", v6.as_str())], None),
    ] {
        let r = m.init(&headers).await;
        assert_eq!(r.status(), 200, "{headers:?}");
        let acao = r
            .headers()
            .get("access-control-allow-origin")
            .map(|v| v.to_str().unwrap().to_string());
        assert_eq!(acao.as_deref(), origin, "CORS answer for {headers:?}");
        assert!(r.headers().contains_key("mcp-session-id"), "{headers:?}");
    }
}

#[tokio::test]
async fn the_rate_limit_answers_429_with_retry_after_per_token() {
    let m = mcp(GuardConfig {
        keys: vec!["alpha".into(), "beta".into()],
        rate: RateLimit::new(1, Some(2)),
        ..GuardConfig::default()
    })
    .await;
    assert_eq!(m.init(&[]).await.status(), 401);
    let alpha = [("authorization", "Bearer alpha")];
    for _ in 0..2 {
        assert_eq!(m.init(&alpha).await.status(), 200);
    }
    let r = m.init(&alpha).await;
    assert_eq!(r.status(), 429);
    let retry: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=2).contains(&retry), "Retry-After {retry}");
    let (code, message) = rpc_error(r).await;
    assert_eq!(code, -32029);
    assert!(message.starts_with("Too many requests"), "{message}");
    // Another token has a bucket of its own.
    assert_eq!(
        m.init(&[("authorization", "Bearer beta")]).await.status(),
        200
    );
}
