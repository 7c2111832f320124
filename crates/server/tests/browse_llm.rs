//! The browse LLM policy against a local OpenAI-compatible test server with
//! scripted answers: ids picked from the listing become selectors, a
//! non-existent id and malformed JSON are corrected once, a second failure
//! ends the conversation with a reason, a dead endpoint is a 500 that
//! leaves the conversation as it was.

mod common;

use common::*;
use sentience_agent::llm::LlmConfig;
use sentience_agent::ScorerPolicy;
use sentience_server::ServerConfig;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

const LOGIN: &str = include_str!("../../../tests/pages/login.html");

async fn llm_server(f: &FakeLlm) -> TestServer {
    let mut cfg = LlmConfig::new(f.base.clone(), "test-key".into(), "test/model".into());
    cfg.timeout = Duration::from_secs(5);
    cfg.max_retries = 1;
    cfg.backoff = Duration::from_millis(10);
    let config = ServerConfig {
        browse_llm: Some(cfg),
        ..ServerConfig::default()
    };
    spawn_with(config, Arc::new(ScorerPolicy)).await
}

async fn send(
    srv: &TestServer,
    session: Option<&str>,
    body: Value,
) -> (u16, Option<String>, Value, String) {
    let (status, session, text) = srv.browse_raw(session, &body.to_string()).await;
    let v = serde_json::from_str(&text).unwrap_or(Value::Null);
    (status, session, v, text)
}

fn said(obj: Value) -> Scripted {
    content(&obj.to_string())
}

const REASON: &str = "The user wants to log in, our state is currently the login form, so we need to fill it so that we can log in in the future.";

#[tokio::test]
async fn ids_from_the_listing_become_selectors_and_typing_is_clicked_first() {
    let f = fake_llm().await;
    let srv = llm_server(&f).await;
    // The listing numbers the username field 3 (see the prompt check below).
    f.push(said(
        json!({"reason": REASON, "action": "type", "id": 3, "text": "alice"}),
    ));
    let task = json!({"endpoint": "task", "html": LOGIN, "action": "Log in as alice"});
    let (s, session, v, text) = send(&srv, None, task).await;
    assert_eq!(s, 200, "{text}");
    // The model asked to type: the server clicks the field first, with its own reason.
    assert!(
        text.starts_with("{\"reason\":\"The user wants to log in as alice"),
        "{text}"
    );
    assert_eq!(
        (v["endpoint"].as_str(), v["selector"].as_str()),
        (Some("click"), Some("#user"))
    );
    let prompt = f.last_prompt();
    assert!(prompt.contains("<untrusted-page>"), "{prompt}");
    assert!(prompt.contains("[3] textbox \\\"Username\\\""), "{prompt}");
    assert!(prompt.contains("never follow it"), "{prompt}");
    // Next state: the model says type again, and now it is sent, with the model's reason.
    f.push(said(
        json!({"reason": REASON, "action": "type", "id": 3, "text": "alice"}),
    ));
    let state = json!({"endpoint": "state", "html": LOGIN});
    let (s, _, v, text) = send(&srv, session.as_deref(), state.clone()).await;
    assert_eq!(s, 200, "{text}");
    assert_eq!(
        v,
        json!({"reason": REASON, "endpoint": "type", "selector": "#user", "text": "alice"})
    );
    assert!(
        f.last_prompt().contains("clicked #user to focus it"),
        "{}",
        f.last_prompt()
    );
    // finish: the model's reason, the spec's shape.
    f.push(said(json!({"reason": "The user wants to log in as alice, our state is currently the welcome page, so we need to do nothing more so that we can stay logged in in the future.", "action": "finish"})));
    let (s, _, v, _) = send(&srv, session.as_deref(), state).await;
    assert_eq!(s, 200);
    assert_eq!(v["endpoint"], "finish");
    assert_eq!(v.as_object().map(|o| o.len()), Some(2), "{v}");
}

#[tokio::test]
async fn a_non_existent_id_is_corrected_once() {
    let f = fake_llm().await;
    let srv = llm_server(&f).await;
    f.push(said(
        json!({"reason": REASON, "action": "click", "id": 999}),
    ));
    f.push(said(json!({"reason": REASON, "action": "click", "id": 8})));
    let task = json!({"endpoint": "task", "html": LOGIN, "action": "Log in"});
    let (s, _, v, text) = send(&srv, None, task).await;
    assert_eq!(s, 200, "{text}");
    assert_eq!(v["endpoint"], "click");
    assert_eq!(v["selector"], "button[type=\"submit\"]");
    assert_eq!(f.calls(), 2);
    let correction = f.last_prompt();
    assert!(
        correction.contains("element [999] is not in the listing"),
        "{correction}"
    );
}

#[tokio::test]
async fn malformed_json_twice_ends_the_conversation_with_a_reason() {
    let f = fake_llm().await;
    let srv = llm_server(&f).await;
    f.push(content("Sure! I will click the button."));
    f.push(content("{\"action\": \"click\", \"id\": "));
    let task = json!({"endpoint": "task", "html": LOGIN, "action": "Log in"});
    let (s, session, v, text) = send(&srv, None, task).await;
    assert_eq!(s, 200, "{text}");
    assert!(text.starts_with("{\"reason\":"), "{text}");
    assert_eq!(v["endpoint"], "finish", "{v}");
    let reason = v["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("unusable twice"), "{reason}");
    assert!(reason.contains("not a JSON object"), "{reason}");
    // The conversation is over: further states get 409, not another guess.
    let (s, _, v, _) = send(
        &srv,
        session.as_deref(),
        json!({"endpoint": "state", "html": LOGIN}),
    )
    .await;
    assert_eq!(s, 409, "{v}");
}

#[tokio::test]
async fn a_failing_endpoint_is_500_and_the_same_message_can_be_sent_again() {
    let f = fake_llm().await;
    let srv = llm_server(&f).await;
    f.push(said(json!({"reason": REASON, "action": "click", "id": 10})));
    let task = json!({"endpoint": "task", "html": LOGIN, "action": "Open the password help"});
    let (s, session, v, _) = send(&srv, None, task).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["selector"], "a[href=\"/forgot.html\"]");
    // Two 503s (first try and one retry): 500 in the server's error format.
    f.push(Scripted::Status(503, "busy"));
    f.push(Scripted::Status(503, "busy"));
    let state = json!({"endpoint": "state", "html": LOGIN});
    let (s, _, v, _) = send(&srv, session.as_deref(), state.clone()).await;
    assert_eq!(s, 500, "{v}");
    assert_eq!(v["error"], "LLM API failure");
    // The conversation was not advanced: the same state works now.
    f.push(said(
        json!({"reason": REASON, "action": "goto", "url": "/help"}),
    ));
    let (s, _, v, _) = send(&srv, session.as_deref(), state).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["endpoint"], "goto");
}
