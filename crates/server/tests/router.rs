//! Router tests without sockets (tower::ServiceExt::oneshot).

use axum::body::Body;
use axum::http::{Request, StatusCode};
use sentience_agent::ScorerPolicy;
use sentience_guard::GuardConfig;
use sentience_server::{router, AppState, ServerConfig, Store};
use serde_json::{json, Value};
use std::sync::Arc;
use tower::ServiceExt;

fn app(config: ServerConfig) -> axum::Router {
    router(AppState::new(
        config,
        Store::in_memory().expect("db"),
        Arc::new(ScorerPolicy),
    ))
}

async fn call(app: axum::Router, req: Request<Body>) -> (StatusCode, axum::http::HeaderMap, Value) {
    let resp = app.oneshot(req).await.expect("infallible");
    let status = resp.status();
    let headers = resp.headers().clone();
    let bytes = axum::body::to_bytes(resp.into_body(), usize::MAX)
        .await
        .expect("body");
    (
        status,
        headers,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

fn post(path: &str, body: impl Into<Body>) -> Request<Body> {
    Request::post(path).body(body.into()).expect("request")
}

#[tokio::test]
async fn health_reports_embedded_scorer() {
    let (s, _, v) = call(
        app(ServerConfig::default()),
        Request::get("/health").body(Body::empty()).expect("req"),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["status"], "ok");
    assert_eq!(v["model"], "embedded");
    assert_eq!(v["baseUrl"], "embedded");
    assert!(
        v["timestamp"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z') && t.len() == 24),
        "{v}"
    );
}

#[tokio::test]
async fn unknown_route_is_404_in_the_standard_format() {
    let (s, _, v) = call(
        app(ServerConfig::default()),
        Request::get("/nope").body(Body::empty()).expect("req"),
    )
    .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(v["error"], "Not found");
    assert!(v["message"].is_string());
}

#[tokio::test]
async fn start_rejects_bad_input_with_400() {
    let cases = [
        ("{}", "Missing required field \"task\""),
        (r#"{"task": 5}"#, "\"task\" must be a string"),
        (r#"{"task": "  "}"#, "\"task\" must not be empty"),
        (
            r#"{"task": "x", "mode": "wild"}"#,
            "Invalid mode \"wild\": expected \"autonomous\" or \"careful\"",
        ),
        (r#"{"task": "x", "mode": 3}"#, "\"mode\" must be a string"),
        ("[1]", "Body must be a JSON object"),
    ];
    for (body, msg) in cases {
        let (s, _, v) = call(app(ServerConfig::default()), post("/agent/run/start", body)).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(v, json!({"error": "Bad request", "message": msg}), "{body}");
    }
    let (s, _, v) = call(
        app(ServerConfig::default()),
        post("/agent/run/start", "{not json"),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(
        v["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("Body is not valid JSON")),
        "{v}"
    );
}

#[tokio::test]
async fn start_defaults_to_autonomous_and_accepts_no_content_type() {
    let (s, _, v) = call(
        app(ServerConfig::default()),
        post("/agent/run/start", r#"{"task":"Find pricing"}"#),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["success"], true);
    assert_eq!(
        v["state"],
        json!({"status": "created", "currentStep": 0, "maxSteps": 150})
    );
}

#[tokio::test]
async fn body_over_the_limit_is_413_with_the_standard_error() {
    let cfg = ServerConfig {
        max_body_bytes: 1024,
        ..ServerConfig::default()
    };
    let big = format!(r#"{{"task": "{}"}}"#, "x".repeat(2000));
    let (s, _, v) = call(app(cfg.clone()), post("/agent/run/start", big.clone())).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(v["error"], "Payload too large");
    assert_eq!(v["message"], "Request body exceeds the limit of 1024 bytes");
    let (s, _, v) = call(app(cfg), post("/s2", big)).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(v["detail"].is_string(), "{v}");
}

#[tokio::test]
async fn api_key_is_required_when_configured() {
    let cfg = ServerConfig {
        guard: GuardConfig {
            keys: vec!["k3y".into()],
            ..GuardConfig::default()
        },
        ..ServerConfig::default()
    };
    let start = r#"{"task":"x"}"#;
    let (s, _, v) = call(app(cfg.clone()), post("/agent/run/start", start)).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    assert_eq!(
        v,
        json!({"error": "Unauthorized", "message": "Missing or invalid API key"})
    );
    let wrong = Request::post("/agent/run/start")
        .header("authorization", "Bearer nope")
        .body(Body::from(start))
        .expect("req");
    assert_eq!(
        call(app(cfg.clone()), wrong).await.0,
        StatusCode::UNAUTHORIZED
    );
    let right = Request::post("/agent/run/start")
        .header("authorization", "Bearer k3y")
        .body(Body::from(start))
        .expect("req");
    assert_eq!(call(app(cfg.clone()), right).await.0, StatusCode::OK);
    let health = Request::get("/health").body(Body::empty()).expect("req");
    assert_eq!(call(app(cfg), health).await.0, StatusCode::OK);
}

#[tokio::test]
async fn cors_allows_extension_and_configured_origins_only() {
    let cfg = ServerConfig {
        guard: GuardConfig {
            allowed_origins: vec!["http://localhost:5173".into()],
            ..GuardConfig::default()
        },
        ..ServerConfig::default()
    };
    let preflight = |origin: &str| {
        Request::options("/agent/run/start")
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .header(
                "access-control-request-headers",
                "content-type,idempotency-key",
            )
            .body(Body::empty())
            .expect("req")
    };
    for (origin, allowed) in [
        (sentience_server::layers::EXTENSION_ORIGIN, true),
        // Another installed extension may not start or drive runs.
        ("chrome-extension://abcdefghijklmnopabcdefghijklmnop", false),
        ("http://localhost:5173", true),
        ("https://evil.example", false),
    ] {
        let (status, h, _) = call(app(cfg.clone()), preflight(origin)).await;
        // Refused outright, not only left without CORS headers.
        assert_eq!(status.is_success(), allowed, "{origin}: {status}");
        let got = h
            .get("access-control-allow-origin")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        assert_eq!(got.as_deref() == Some(origin), allowed, "{origin}: {got:?}");
    }
}
