//! The browse protocol over real HTTP (server on port 0, SQLite file):
//! the Browse-Session flow, `reason` first on the raw bytes, bad input.

mod common;

use common::*;
use serde_json::{json, Value};

const LOGIN: &str = include_str!("../../../tests/pages/login.html");

/// POST /browse: status, Browse-Session header, raw body.
async fn browse(
    srv: &TestServer,
    session: Option<&str>,
    body: &Value,
) -> (u16, Option<String>, String) {
    let mut req = srv.client.post(format!("{}/browse", srv.base)).json(body);
    if let Some(s) = session {
        req = req.header("Browse-Session", s);
    }
    let r = req.send().await.expect("send");
    let status = r.status().as_u16();
    let session = r
        .headers()
        .get("browse-session")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    (status, session, r.text().await.expect("body"))
}

#[tokio::test]
async fn task_then_states_over_http_with_reason_first() {
    let srv = spawn().await;
    let task = json!({"endpoint": "task", "html": LOGIN, "action": "Log in as \"alice\" with password \"s3cret\""});
    let (s, session, body) = browse(&srv, None, &task).await;
    assert_eq!(s, 200, "{body}");
    assert!(
        body.starts_with("{\"reason\":\"The user wants to "),
        "{body}"
    );
    let v: Value = serde_json::from_str(&body).expect("json");
    assert_eq!(
        v,
        json!({"reason": v["reason"], "endpoint": "click", "selector": "#user"})
    );
    let session = session.expect("Browse-Session header");
    let state = json!({"endpoint": "state", "html": LOGIN});
    let (s, again, body) = browse(&srv, Some(&session), &state).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(again.as_deref(), Some(session.as_str()));
    assert!(body.starts_with("{\"reason\":"), "{body}");
    let v: Value = serde_json::from_str(&body).expect("json");
    assert_eq!(
        (
            v["endpoint"].as_str(),
            v["selector"].as_str(),
            v["text"].as_str()
        ),
        (Some("type"), Some("#user"), Some("alice"))
    );
}
