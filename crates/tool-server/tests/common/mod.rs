//! Shared set-up of the tool-server tests: the real server on port 0 with
//! real Chromium (Debian's, with the built extension), local test pages
//! that record the events they receive, and a small HTTP client.
#![allow(dead_code, clippy::unwrap_used)]

use axum::response::{Html, Redirect};
use axum::routing::get;
use axum::Router;
use sentience_tool_server::browser::cdp::ChromiumLauncher;
use sentience_tool_server::desktop::Desktop;
use sentience_tool_server::{router, AppState, Config};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

pub fn chromium() -> PathBuf {
    PathBuf::from(std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()))
}

/// The repo root, which loads as the unpacked extension once built.
pub fn extension_dir() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .ok()?;
    root.join("pkg/sentience_wasm_bg.wasm")
        .is_file()
        .then_some(root)
}

/// The page every input test uses: elements at fixed places, and a
/// recorder of trusted events in `window.__events`.
pub const PAGE: &str = r##"<!doctype html><html><head><title>Test page</title><style>
body { margin: 0; height: 3000px; width: 3000px; font: 16px sans-serif; }
#big { position: absolute; left: 100px; top: 100px; width: 200px; height: 100px; background: rgb(66, 133, 244); }
#name { position: absolute; left: 400px; top: 100px; width: 300px; height: 30px; }
#area { position: absolute; left: 400px; top: 200px; width: 300px; height: 80px; }
#blank { position: absolute; left: 800px; top: 100px; }
#corner { position: absolute; left: 1240px; top: 680px; width: 40px; height: 40px; background: red; }
</style></head><body>
<button id="big" class="primary big">Big button</button>
<input id="name" class="email" aria-label="Name">
<textarea id="area" aria-label="Notes"></textarea>
<a id="blank" href="/other" target="_blank">Open other</a>
<nav aria-label="Main"><a href="/other">Other page</a></nav>
<div id="corner"></div>
<script>
window.__events = [];
const rec = (e) => window.__events.push({type: e.type, trusted: e.isTrusted, x: e.clientX, y: e.clientY,
  button: e.button, detail: e.detail, key: e.key, ctrl: e.ctrlKey, shift: e.shiftKey, alt: e.altKey,
  target: e.target && e.target.id});
for (const t of ['click', 'dblclick', 'contextmenu', 'mousedown', 'keydown', 'wheel']) document.addEventListener(t, rec, true);
document.addEventListener('contextmenu', e => e.preventDefault());
</script></body></html>"##;

pub const OTHER: &str = "<!doctype html><title>Other</title><h1>Other page</h1>";

pub const COOKIE: &str = "<!doctype html><title>Cookie</title><script>
if (location.search === '?set') document.cookie = 'kept=yes; max-age=86400; path=/';
document.title = 'cookie:' + document.cookie;</script>";

/// Serves the test pages on 127.0.0.1 port 0; returns their base URL.
pub async fn pages() -> String {
    let app = Router::new()
        .route("/page", get(|| async { Html(PAGE) }))
        .route("/other", get(|| async { Html(OTHER) }))
        .route("/cookie", get(|| async { Html(COOKIE) }))
        .route(
            "/redirect",
            get(|| async { Redirect::temporary("/other?from=redirect") }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

pub struct Server {
    pub base: String,
    pub addr: SocketAddr,
    pub state: AppState,
    pub http: reqwest::Client,
    pub profiles: tempfile::TempDir,
}

pub struct Options {
    pub token: Option<String>,
    pub allowed_origins: Vec<String>,
    pub allowed_hosts: Vec<String>,
    pub rate: Option<sentience_guard::RateLimit>,
    pub desktop: Result<Arc<dyn Desktop>, String>,
    pub extra_args: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            token: None,
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
            rate: None,
            desktop: Err("no X display in this test".into()),
            extra_args: Vec::new(),
        }
    }
}

pub async fn server(opts: Options) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let profiles = tempfile::tempdir().unwrap();
    let state = AppState::new(
        Config {
            bound: addr,
            guard: sentience_guard::GuardConfig {
                keys: opts.token.into_iter().collect(),
                allowed_origins: opts.allowed_origins,
                allowed_hosts: opts.allowed_hosts,
                rate: opts.rate,
                open_paths: Vec::new(),
            },
            profile_root: profiles.path().to_path_buf(),
        },
        Arc::new(ChromiumLauncher {
            executable: chromium(),
            extension_dir: extension_dir(),
            extra_args: opts.extra_args,
        }),
        opts.desktop,
    );
    let app = router(state.clone());
    tokio::spawn(async move {
        sentience_tool_server::serve(listener, app, std::future::pending())
            .await
            .unwrap()
    });
    Server {
        base: format!("http://{addr}"),
        addr,
        state,
        http: reqwest::Client::new(),
        profiles,
    }
}

impl Server {
    /// POSTs `body` as the tool contract's own client does (no JSON Content-Type;
    /// docs/contracts/tools.md §17).
    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let r = self
            .http
            .post(format!("{}{path}", self.base))
            .body(body.to_string())
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        let r = self
            .http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    /// POST that must succeed; returns the body.
    pub async fn ok(&self, path: &str, body: Value) -> Value {
        let (status, v) = self.post(path, body.clone()).await;
        assert_eq!(status, 200, "{path} {body} -> {v}");
        assert_eq!(v["success"], true, "{path} -> {v}");
        v
    }

    pub async fn start(&self, url: &str) -> String {
        let v = self
            .ok(
                "/browser/start",
                json!({"start_url": url, "headless": true}),
            )
            .await;
        v["session_id"].as_str().unwrap().to_string()
    }

    /// Evaluates in the active tab of the active session (reading what a
    /// test page recorded; the actions themselves go over HTTP).
    pub async fn eval(&self, expr: &str) -> Value {
        let s = self.state.session(None).await.unwrap();
        s.browser.evaluate(expr).await.unwrap()
    }

    pub async fn events(&self) -> Vec<Value> {
        let v = self.eval("window.__events.splice(0)").await;
        v.as_array().cloned().unwrap_or_default()
    }

    pub async fn stop_all(&self) {
        let ids: Vec<String> = self
            .state
            .sessions
            .lock()
            .await
            .map
            .keys()
            .cloned()
            .collect();
        for id in ids {
            self.ok(&format!("/browser/stop?session_id={id}"), json!({}))
                .await;
        }
    }
}

pub fn decode_png(b64: &str) -> image::RgbaImage {
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .unwrap();
    image::load_from_memory(&bytes).unwrap().to_rgba8()
}
