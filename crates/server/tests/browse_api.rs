//! The browse protocol over real HTTP and a real WebSocket (server on port
//! 0, SQLite file): the Browse-Session flow, `reason` first on the raw
//! bytes of every answer shape, every bad input, 413, 409 and expiry.

mod common;

use common::*;
use futures_util::{SinkExt, StreamExt};
use sentience_agent::ScorerPolicy;
use sentience_server::ServerConfig;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

const LOGIN: &str = include_str!("../../../tests/pages/login.html");
const TASK: &str = "Log in as \"alice\" with password \"s3cret\"";

/// POST /browse with a raw body: status, Browse-Session header, raw body.
async fn raw(srv: &TestServer, session: Option<&str>, body: &str) -> (u16, Option<String>, String) {
    srv.browse_raw(session, body).await
}

async fn browse(
    srv: &TestServer,
    session: Option<&str>,
    body: &Value,
) -> (u16, Option<String>, String) {
    raw(srv, session, &body.to_string()).await
}

fn task(html: &str, action: &str) -> Value {
    json!({"endpoint": "task", "html": html, "action": action})
}

fn state(html: &str) -> Value {
    json!({"endpoint": "state", "html": html})
}

/// The raw answer has `reason` as its first key and exactly the keys of its shape.
fn check_shape(body: &str) -> Value {
    assert!(
        body.starts_with("{\"reason\":\""),
        "reason is not first: {body}"
    );
    let v: Value = serde_json::from_str(body).expect("answer is JSON");
    let keys: Vec<&str> = v
        .as_object()
        .expect("object")
        .keys()
        .map(|k| k.as_str())
        .collect();
    let want: &[&str] = match v["endpoint"].as_str() {
        Some("goto") => &["endpoint", "reason", "url"],
        Some("click") => &["endpoint", "reason", "selector"],
        Some("type") => &["endpoint", "reason", "selector", "text"],
        Some("finish") => &["endpoint", "reason"],
        other => panic!("unknown endpoint {other:?} in {body}"),
    };
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, want, "{body}");
    let reason = v["reason"].as_str().unwrap_or_default();
    assert!(reason.starts_with("The user wants to "), "{reason}");
    assert!(reason.contains("our state is currently"), "{reason}");
    v
}

#[tokio::test]
async fn login_over_http_clicks_before_typing_and_keeps_reason_first() {
    let srv = spawn().await;
    let (s, session, body) = browse(&srv, None, &task(LOGIN, TASK)).await;
    assert_eq!(s, 200, "{body}");
    let v = check_shape(&body);
    assert_eq!(
        (v["endpoint"].as_str(), v["selector"].as_str()),
        (Some("click"), Some("#user"))
    );
    // The reason is true of this page: its title and what it offers.
    assert!(
        v["reason"]
            .as_str()
            .unwrap_or_default()
            .contains("\"Login\""),
        "{v}"
    );
    let session = session.expect("Browse-Session header on the task answer");
    let mut seen = vec![(
        v["endpoint"].clone(),
        v["selector"].clone(),
        v["text"].clone(),
    )];
    for _ in 0..4 {
        let (s, again, body) = browse(&srv, Some(&session), &state(LOGIN)).await;
        assert_eq!(s, 200, "{body}");
        assert_eq!(again.as_deref(), Some(session.as_str()));
        let v = check_shape(&body);
        seen.push((
            v["endpoint"].clone(),
            v["selector"].clone(),
            v["text"].clone(),
        ));
    }
    assert_eq!(
        seen,
        vec![
            (json!("click"), json!("#user"), Value::Null),
            (json!("type"), json!("#user"), json!("alice")),
            (json!("click"), json!("#pass"), Value::Null),
            (json!("type"), json!("#pass"), json!("s3cret")),
            (
                json!("click"),
                json!("button[type=\"submit\"]"),
                Value::Null
            ),
        ]
    );
}

#[tokio::test]
async fn goto_comes_before_clicking_on_a_page_the_client_is_not_on() {
    let srv = spawn().await;
    // The task names another site: the page the client sent has a tempting
    // "Sign in" button, but the first answer must be the goto.
    let t = task(
        LOGIN,
        "Go to https://shop.example.com/ and click \"Sign in\"",
    );
    let (s, session, body) = browse(&srv, None, &t).await;
    assert_eq!(s, 200, "{body}");
    let v = check_shape(&body);
    assert_eq!(v["endpoint"], "goto", "{v}");
    assert_eq!(v["url"], "https://shop.example.com/");
    let shop = "<html><head><title>Shop</title></head><body><a href=/cart>Cart</a><button id=signin>Sign in</button></body></html>";
    let (s, _, body) = browse(
        &srv,
        session.as_deref(),
        &json!({"endpoint": "state", "html": shop, "url": "https://shop.example.com/"}),
    )
    .await;
    assert_eq!(s, 200, "{body}");
    let v = check_shape(&body);
    assert_eq!(
        (v["endpoint"].as_str(), v["selector"].as_str()),
        (Some("click"), Some("#signin")),
        "{v}"
    );
}

#[tokio::test]
async fn finish_after_the_goal_shows_and_later_states_get_409() {
    let srv = spawn().await;
    let welcome = "<html><head><title>Welcome</title></head><body><h1>Welcome back, alice! You are logged in.</h1><a href=/logout>Log out</a></body></html>";
    let (_, session, _) = browse(&srv, None, &task(LOGIN, TASK)).await;
    let session = session.expect("session");
    for _ in 0..4 {
        let (s, _, body) = browse(&srv, Some(&session), &state(LOGIN)).await;
        assert_eq!(s, 200, "{body}");
    }
    let (s, _, body) = browse(&srv, Some(&session), &state(welcome)).await;
    assert_eq!(s, 200, "{body}");
    let v = check_shape(&body);
    assert_eq!(v["endpoint"], "finish", "{v}");
    let (s, _, body) = browse(&srv, Some(&session), &state(welcome)).await;
    assert_eq!(s, 409, "{body}");
    let e: Value = serde_json::from_str(&body).expect("json");
    assert_eq!(e["error"], "Conflict");
}

#[tokio::test]
async fn bad_input_gets_the_error_format_and_leaves_the_conversation_alone() {
    let srv = spawn().await;
    let (_, session, _) = browse(&srv, None, &task(LOGIN, TASK)).await;
    let session = session.expect("session");
    let cases: Vec<(&str, String, u16, &str)> = vec![
        (
            "malformed JSON",
            "{\"endpoint\": \"task\",".into(),
            400,
            "not valid JSON",
        ),
        ("not an object", "[1,2]".into(), 400, "JSON object"),
        (
            "no endpoint",
            json!({"html": LOGIN}).to_string(),
            400,
            "\\\"endpoint\\\"",
        ),
        (
            "unknown endpoint",
            json!({"endpoint": "scroll", "html": ""}).to_string(),
            400,
            "Unknown endpoint",
        ),
        (
            "endpoint not a string",
            json!({"endpoint": 3}).to_string(),
            400,
            "must be a string",
        ),
        (
            "task without html",
            json!({"endpoint": "task", "action": "x"}).to_string(),
            400,
            "\\\"html\\\"",
        ),
        (
            "task without action",
            json!({"endpoint": "task", "html": ""}).to_string(),
            400,
            "\\\"action\\\"",
        ),
        (
            "empty action",
            json!({"endpoint": "task", "html": "", "action": "  "}).to_string(),
            400,
            "must not be empty",
        ),
        (
            "state without html",
            json!({"endpoint": "state"}).to_string(),
            400,
            "\\\"html\\\"",
        ),
        (
            "html not a string",
            json!({"endpoint": "state", "html": 5}).to_string(),
            400,
            "must be a string",
        ),
    ];
    for (what, body, status, needle) in cases {
        let (s, _, text) = raw(&srv, Some(&session), &body).await;
        assert_eq!(s, status, "{what}: {text}");
        let e: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{what}: {text}"));
        assert_eq!(e["error"], "Bad request", "{what}: {text}");
        assert!(text.contains(needle), "{what}: {text}");
    }
    // state without a session, with an unknown one: 400 and 404, never a guess.
    let (s, _, text) = browse(&srv, None, &state(LOGIN)).await;
    assert_eq!(s, 400, "{text}");
    assert!(text.contains("Browse-Session"), "{text}");
    let (s, _, text) = browse(&srv, Some("no-such-session"), &state(LOGIN)).await;
    assert_eq!(s, 404, "{text}");
    // After all that, the conversation goes on where it was: type after click.
    let (s, _, body) = browse(&srv, Some(&session), &state(LOGIN)).await;
    assert_eq!(s, 200, "{body}");
    let v = check_shape(&body);
    assert_eq!(
        (v["endpoint"].as_str(), v["text"].as_str()),
        (Some("type"), Some("alice"))
    );
}

#[tokio::test]
async fn html_over_the_limit_is_413_and_the_conversation_survives() {
    let cfg = ServerConfig {
        max_html_bytes: 4096,
        ..ServerConfig::default()
    };
    let srv = spawn_with(cfg, Arc::new(ScorerPolicy)).await;
    let (s, session, body) = browse(&srv, None, &task(LOGIN, TASK)).await;
    assert_eq!(s, 200, "{body}");
    let session = session.expect("session");
    let big = format!("<html><body>{}</body></html>", "<p>x</p>".repeat(1000));
    let (s, _, text) = browse(&srv, Some(&session), &state(&big)).await;
    assert_eq!(s, 413, "{text}");
    let e: Value = serde_json::from_str(&text).expect("json");
    assert_eq!(e["error"], "Payload too large");
    assert!(
        e["message"].as_str().unwrap_or_default().contains("4096"),
        "{e}"
    );
    let (s, _, body) = browse(&srv, None, &task(&big, TASK)).await;
    assert_eq!(s, 413, "{body}");
    let (s, _, body) = browse(&srv, Some(&session), &state(LOGIN)).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(check_shape(&body)["endpoint"], "type");
}

#[tokio::test]
async fn idle_conversations_expire() {
    let cfg = ServerConfig {
        browse_ttl: Duration::from_millis(300),
        ..ServerConfig::default()
    };
    let srv = spawn_with(cfg, Arc::new(ScorerPolicy)).await;
    let (_, session, _) = browse(&srv, None, &task(LOGIN, TASK)).await;
    let session = session.expect("session");
    let (s, _, _) = browse(&srv, Some(&session), &state(LOGIN)).await;
    assert_eq!(s, 200);
    tokio::time::sleep(Duration::from_millis(900)).await;
    let (s, _, text) = browse(&srv, Some(&session), &state(LOGIN)).await;
    assert_eq!(s, 404, "{text}");
    assert!(text.contains("expired"), "{text}");
}

#[tokio::test]
async fn websocket_connection_is_the_conversation() {
    let srv = spawn().await;
    let url = format!("{}/browse", srv.base.replace("http://", "ws://"));
    let (mut ws, _) = tokio_tungstenite::connect_async(&url)
        .await
        .expect("ws connect");
    ws.send(Message::Text(task(LOGIN, TASK).to_string().into()))
        .await
        .expect("send");
    let mut answers = Vec::new();
    let next = |m: Option<Result<Message, _>>| -> String {
        match m {
            Some(Ok(Message::Text(t))) => t.to_string(),
            other => panic!("expected a text frame, got {other:?}"),
        }
    };
    answers.push(next(ws.next().await));
    // Bad input on the socket: the error format, and the conversation goes on.
    ws.send(Message::Text("{oops".into())).await.expect("send");
    let err: Value = serde_json::from_str(&next(ws.next().await)).expect("json");
    assert_eq!(err["error"], "Bad request", "{err}");
    for _ in 0..3 {
        ws.send(Message::Text(state(LOGIN).to_string().into()))
            .await
            .expect("send");
        answers.push(next(ws.next().await));
    }
    let shapes: Vec<(Value, Value)> = answers
        .iter()
        .map(|a| {
            let v = check_shape(a);
            (v["endpoint"].clone(), v["selector"].clone())
        })
        .collect();
    assert_eq!(
        shapes,
        vec![
            (json!("click"), json!("#user")),
            (json!("type"), json!("#user")),
            (json!("click"), json!("#pass")),
            (json!("type"), json!("#pass")),
        ]
    );
    ws.close(None).await.expect("close");
    // A plain GET is told how to connect, in the error format.
    let (s, v) = srv.get("/browse").await;
    assert_eq!(s, 400, "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap_or_default()
            .contains("WebSocket"),
        "{v}"
    );
    // A state on a fresh socket has no conversation: an error, not a guess.
    let (mut ws2, _) = tokio_tungstenite::connect_async(&url)
        .await
        .expect("ws connect");
    ws2.send(Message::Text(state(LOGIN).to_string().into()))
        .await
        .expect("send");
    let err: Value = serde_json::from_str(&next(ws2.next().await)).expect("json");
    assert_eq!(err["error"], "Bad request", "{err}");
    assert!(
        err["message"].as_str().unwrap_or_default().contains("task"),
        "{err}"
    );
}

#[tokio::test]
async fn two_messages_of_one_conversation_are_handled_one_after_the_other() {
    let srv = spawn().await;
    let (_, session, _) = browse(&srv, None, &task(LOGIN, TASK)).await;
    let session = session.expect("session");
    let st = state(LOGIN);
    let (a, b) = tokio::join!(
        browse(&srv, Some(&session), &st),
        browse(&srv, Some(&session), &st)
    );
    let mut got: Vec<(Value, Value)> = [a, b]
        .iter()
        .map(|(s, _, body)| {
            assert_eq!(*s, 200, "{body}");
            let v = check_shape(body);
            (v["endpoint"].clone(), v["selector"].clone())
        })
        .collect();
    got.sort_by_key(|(e, _)| e.to_string());
    // One typed into the username field, the other went on to the password:
    // neither answered from the state the other had already used.
    assert_eq!(
        got,
        vec![
            (json!("click"), json!("#pass")),
            (json!("type"), json!("#user"))
        ]
    );
}

#[tokio::test]
async fn a_conversation_survives_a_server_restart_on_the_same_database() {
    use sentience_server::AppState;
    let dir = tempfile::tempdir().expect("tempdir");
    let db = TestDb::new(dir.path()).await;
    let start = |db: TestDb| async move {
        let state = AppState::new(
            ServerConfig::default(),
            db.open().await,
            Arc::new(ScorerPolicy),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(sentience_server::serve_with_shutdown(
            listener,
            state,
            async {
                let _ = stopped.await;
            },
        ));
        (base, stop, task)
    };
    let client = reqwest::Client::new();
    let post = |base: String, session: Option<String>, body: Value| {
        let client = client.clone();
        async move {
            let mut r = client.post(format!("{base}/browse")).json(&body);
            if let Some(s) = session {
                r = r.header("Browse-Session", s);
            }
            let r = r.send().await.expect("send");
            let session = r
                .headers()
                .get("browse-session")
                .and_then(|v| v.to_str().ok())
                .map(str::to_string);
            (r.status().as_u16(), session, r.text().await.expect("body"))
        }
    };
    let (base, stop, server) = start(db.clone()).await;
    let (s, session, _) = post(base, None, task(LOGIN, TASK)).await;
    assert_eq!(s, 200);
    let _ = stop.send(());
    let _ = server.await;
    let (base, _stop, _server) = start(db).await;
    let (s, _, body) = post(base, session, state(LOGIN)).await;
    assert_eq!(s, 200, "{body}");
    let v = check_shape(&body);
    assert_eq!(
        (v["endpoint"].as_str(), v["text"].as_str()),
        (Some("type"), Some("alice"))
    );
}
