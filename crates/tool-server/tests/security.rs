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
