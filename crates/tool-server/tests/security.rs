//! Who may call the server: Host (DNS rebinding), Origin (web pages),
//! the bearer token. Real HTTP on port 0; no browser is needed.
#![allow(clippy::unwrap_used)]

mod common;

use common::{server, Options};

#[tokio::test]
async fn foreign_hosts_and_origins_are_refused_and_allowed_origins_get_cors() {
    let s = server(Options {
        allowed_origins: vec!["https://app.example".into()],
        ..Options::default()
    })
    .await;
    let url = format!("{}/status", s.base);
    let r = s.http.get(&url).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let r = s
        .http
        .get(&url)
        .header("host", format!("localhost:{}", s.addr.port()))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    // DNS rebinding: a name resolving to 127.0.0.1 is still a foreign Host.
    let r = s
        .http
        .get(&url)
        .header("host", format!("evil.example:{}", s.addr.port()))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    let v: serde_json::Value = r.json().await.unwrap();
    assert_eq!(v["success"], false);
    assert!(v["error"].as_str().unwrap().starts_with("Host not allowed"));

    // A page of another origin cannot drive the desktop, even with a
    // "simple" request (text/plain POST, no preflight).
    let r = s
        .http
        .post(format!("{}/click", s.base))
        .header("origin", "https://evil.example")
        .header("content-type", "text/plain")
        .body(r#"{"x": 1, "y": 1}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    let r = s
        .http
        .request(reqwest::Method::OPTIONS, format!("{}/click", s.base))
        .header("origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    assert!(r.headers().get("access-control-allow-origin").is_none());

    // The allowed origin: preflight with Private Network Access, then CORS.
    let r = s
        .http
        .request(reqwest::Method::OPTIONS, format!("{}/click", s.base))
        .header("origin", "https://app.example")
        .header("access-control-request-method", "POST")
        .header("access-control-request-private-network", "true")
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success(), "{}", r.status());
    assert_eq!(
        r.headers()["access-control-allow-origin"],
        "https://app.example"
    );
    assert_eq!(r.headers()["access-control-allow-private-network"], "true");
    let r = s
        .http
        .get(&url)
        .header("origin", "https://app.example")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(
        r.headers()["access-control-allow-origin"],
        "https://app.example"
    );
}

#[tokio::test]
async fn a_token_protected_server_refuses_calls_without_it() {
    let s = server(Options {
        token: Some("s3cret".into()),
        ..Options::default()
    })
    .await;
    let url = format!("{}/status", s.base);
    assert_eq!(s.http.get(&url).send().await.unwrap().status(), 401);
    assert_eq!(
        s.http
            .get(&url)
            .bearer_auth("wrong")
            .send()
            .await
            .unwrap()
            .status(),
        401
    );
    assert_eq!(
        s.http
            .get(&url)
            .bearer_auth("s3cret")
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
}

#[tokio::test]
async fn status_screen_and_errors_without_display_or_session() {
    let s = server(Options::default()).await;
    let (status, v) = s.get("/").await;
    assert_eq!(
        (status, v["service"].as_str(), v["version"].as_str()),
        (200, Some("Architect's Hand Tool Server"), Some("8.0.0"))
    );
    let (_, v) = s.get("/status").await;
    assert_eq!(v["status"], "running");
    assert_eq!(v["browser_sessions"], 0);
    assert_eq!(
        v["capabilities"]["pyautogui"], false,
        "no display: no desktop input"
    );
    assert_eq!(v["capabilities"]["playwright"], true);
    assert!(v["desktop_error"]
        .as_str()
        .unwrap()
        .contains("no X display"));
    let (_, v) = s.get("/screen").await;
    assert_eq!(
        v["lux_sdk_reference"],
        serde_json::json!({"width": 1260, "height": 700})
    );
    assert_eq!(v["lux_scale"], serde_json::json!({"x": 1.016, "y": 1.029}));
    // The desktop scope says why it is unavailable.
    let (status, v) = s
        .post("/screenshot", serde_json::json!({"scope": "desktop"}))
        .await;
    assert_eq!(status, 503);
    assert!(v["error"].as_str().unwrap().contains("no X display"), "{v}");
    // Bad input: 400 with the error shape; unknown endpoints: 404.
    let (status, v) = s
        .post("/scroll", serde_json::json!({"direction": "sideways"}))
        .await;
    assert_eq!(
        (status, v["success"].clone()),
        (400, serde_json::json!(false))
    );
    let (status, v) = s.post("/click", serde_json::json!(null)).await;
    assert_eq!(
        (status, v["success"].clone()),
        (400, serde_json::json!(false)),
        "{v}"
    );
    let (status, _) = s.get("/nope").await;
    assert_eq!(status, 404);
    let (status, v) = s
        .post("/browser/start", serde_json::json!({"profile": "../x"}))
        .await;
    assert_eq!(
        (status, v["success"].clone()),
        (400, serde_json::json!(false))
    );
}

#[tokio::test]
async fn a_configured_host_is_accepted_and_others_refused_on_post() {
    let s = server(Options {
        allowed_hosts: vec!["tools.internal.example".into()],
        ..Options::default()
    })
    .await;
    let status = |host: String| {
        let url = format!("{}/coordinates/validate", s.base);
        let http = s.http.clone();
        async move {
            http.post(url)
                .header("host", host)
                .body(r#"{"x": 1, "y": 1}"#)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    // Reached the route: 404 "no session" is its answer, not the guard's.
    assert_eq!(status("tools.internal.example".into()).await, 404);
    assert_eq!(status(format!("evil.example:{}", s.addr.port())).await, 403);
    assert_eq!(
        status(format!("localhost:{}", s.addr.port() ^ 1)).await,
        403
    );
}

#[tokio::test]
async fn the_rate_limit_answers_429_with_retry_after_per_token() {
    let s = server(Options {
        token: Some("s3cret".into()),
        rate: sentience_guard::RateLimit::new(1, Some(2)),
        ..Options::default()
    })
    .await;
    let url = format!("{}/status", s.base);
    let get = || s.http.get(&url).bearer_auth("s3cret").send();
    assert_eq!(get().await.unwrap().status(), 200);
    assert_eq!(get().await.unwrap().status(), 200);
    let r = get().await.unwrap();
    assert_eq!(r.status(), 429);
    assert!(r.headers().contains_key("retry-after"));
    let v: serde_json::Value = r.json().await.unwrap();
    assert_eq!(v["success"], false);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("Too many requests"),
        "{v}"
    );
}

/// Every POST route of docs/contracts/tools.md, with a body it would act on.
const POST_ROUTES: [(&str, &str); 18] = [
    ("/screenshot", r#"{"scope": "browser"}"#),
    ("/click", r#"{"x": 5, "y": 5}"#),
    ("/type", r#"{"text": "rm -rf ~"}"#),
    ("/scroll", r#"{"direction": "down"}"#),
    ("/keypress", r#"{"keys": ["enter"]}"#),
    ("/browser/start", r#"{"headless": true}"#),
    ("/browser/stop", "{}"),
    ("/browser/navigate", r#"{"url": "https://evil.example/"}"#),
    ("/browser/reload", "{}"),
    ("/browser/back", "{}"),
    ("/browser/forward", "{}"),
    ("/browser/tab/new", r#"{"url": "https://evil.example/"}"#),
    ("/browser/tab/close", "{}"),
    ("/browser/tab/switch", r#"{"index": 0}"#),
    ("/browser/act", r#"{"action": "click", "id": 1}"#),
    ("/coordinates/convert", r#"{"x": 1, "y": 1}"#),
    ("/coordinates/validate", r#"{"x": 1, "y": 1}"#),
    // A method the route does not have: still the guard's answer first.
    ("/status", "{}"),
];

const GET_ROUTES: [&str; 9] = [
    "/",
    "/status",
    "/screen",
    "/browser/status",
    "/browser/current_url",
    "/browser/tabs",
    "/browser/dom/tree",
    "/browser/snapshot",
    "/nope",
];

#[tokio::test]
async fn a_cross_site_page_gets_nothing_from_any_route_and_starts_nothing() {
    let s = server(Options::default()).await;
    for (path, body) in POST_ROUTES {
        for origin in [
            "https://evil.example",
            "null",
            "chrome-extension://abcdefghijklmnopabcdefghijklmnop",
        ] {
            // What `fetch(url, {method: 'POST', mode: 'no-cors'})` sends.
            let r = s
                .http
                .post(format!("{}{path}", s.base))
                .header("origin", origin)
                .header("content-type", "text/plain;charset=UTF-8")
                .header("sec-fetch-site", "cross-site")
                .header("sec-fetch-mode", "no-cors")
                .body(body)
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 403, "{origin} POST {path}");
            assert!(r.headers().get("access-control-allow-origin").is_none());
            let v: serde_json::Value = r.json().await.unwrap();
            assert_eq!(v["success"], false, "{path}: {v}");
            assert!(
                v["error"]
                    .as_str()
                    .unwrap()
                    .starts_with("Origin not allowed"),
                "{path}: {v}"
            );
        }
    }
    for path in GET_ROUTES {
        // An <img> or <script> of the page: no Origin, but marked cross-site.
        let r = s
            .http
            .get(format!("{}{path}", s.base))
            .header("sec-fetch-site", "cross-site")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 403, "no-cors GET {path}");
        // A WebSocket handshake from the page (CORS does not cover them).
        let r = s
            .http
            .get(format!("{}{path}", s.base))
            .header("origin", "https://evil.example")
            .header("connection", "Upgrade")
            .header("upgrade", "websocket")
            .header("sec-websocket-version", "13")
            .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 403, "WebSocket handshake to {path}");
    }
    // Nothing was started: no session, not even an id given out, no profile.
    let sessions = s.state.sessions.lock().await;
    assert!(sessions.map.is_empty() && sessions.issued.is_empty());
    drop(sessions);
    assert_eq!(std::fs::read_dir(s.profiles.path()).unwrap().count(), 0);
    let (_, v) = s.get("/status").await;
    assert_eq!(v["browser_sessions"], 0);
}

#[tokio::test]
async fn our_extension_and_origin_less_clients_keep_working() {
    let s = server(Options::default()).await;
    for origin in [Some(sentience_guard::EXTENSION_ORIGIN), None] {
        let mut get = s.http.get(format!("{}/status", s.base));
        let mut post = s
            .http
            .post(format!("{}/coordinates/convert", s.base))
            .header("content-type", "application/json")
            .body(r#"{"x": 630, "y": 350, "from_space": "lux_sdk", "to_space": "viewport"}"#);
        if let Some(o) = origin {
            get = get.header("origin", o);
            post = post.header("origin", o);
        }
        let r = get.send().await.unwrap();
        assert_eq!(r.status(), 200, "{origin:?}");
        let acao = r
            .headers()
            .get("access-control-allow-origin")
            .map(|v| v.to_str().unwrap().to_string());
        assert_eq!(acao.as_deref(), origin, "CORS answer for {origin:?}");
        let r = post.send().await.unwrap();
        assert_eq!(r.status(), 200, "{origin:?}");
        let v: serde_json::Value = r.json().await.unwrap();
        assert_eq!(v["success"], true, "{v}");
    }
}
