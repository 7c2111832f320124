//! The run API of docs/contracts/run-api.md over real HTTP on port 0: every endpoint, status
//! code and error body; validation; idempotency; serialisation; expiry.

mod common;

use common::*;
use sentience_agent::ScorerPolicy;
use sentience_server::ServerConfig;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

#[tokio::test]
async fn every_endpoint_answers_per_spec() {
    let srv = spawn().await;
    let (s, h) = srv.get("/health").await;
    assert_eq!((s, h["status"].as_str()), (200, Some("ok")));
    let id = srv
        .start("Find contact information on this page", "autonomous")
        .await;
    let st = srv.state(&id).await;
    for k in [
        "runId",
        "task",
        "mode",
        "status",
        "currentStep",
        "maxSteps",
        "history",
        "reflections",
        "currentSnapshot",
        "createdAt",
        "updatedAt",
    ] {
        assert!(st.get(k).is_some(), "state lacks {k}: {st}");
    }
    // docs/contracts/run-api.md §5: snapshot null on the first call → observe.
    let r = srv.step(&id, Value::Null, Value::Null).await;
    assert_eq!(
        r,
        json!({"action": "execute_tool", "tool": {"name": "observe", "parameters": {}},
        "state": {"status": "running", "currentStep": 1, "maxSteps": 150}})
    );
    // /answer while not waiting → 400.
    let (s, v) = srv
        .post(
            &format!("/agent/run/{id}/answer"),
            json!({"approved": true}),
        )
        .await;
    assert_eq!(s, 400);
    assert_eq!(v["error"], "Bad request");
    let (s, v) = srv
        .post(&format!("/agent/run/{id}/cancel"), Value::Null)
        .await;
    assert_eq!((s, v), (200, json!({"success": true})));
    assert_eq!(srv.state(&id).await["status"], "cancelled");
    let r = srv.step(&id, login_page(), ok()).await;
    assert_eq!(r["action"], "error");
    assert_eq!(r["state"]["status"], "cancelled");
    // Unknown runs: 404 on every run endpoint.
    for (path, post) in [
        ("/agent/run/nope/step", true),
        ("/agent/run/nope/answer", true),
        ("/agent/run/nope/cancel", true),
        ("/agent/run/nope", false),
    ] {
        let (s, v) = if post {
            srv.post(path, json!({"approved": true})).await
        } else {
            srv.get(path).await
        };
        assert_eq!(s, 404, "{path}");
        assert_eq!(
            v,
            json!({"error": "Not found", "message": "Run nope not found"})
        );
    }
}

#[tokio::test]
async fn step_and_answer_validate_their_bodies() {
    let srv = spawn().await;
    let id = srv.start("Search for \"rust\"", "careful").await;
    let step = format!("/agent/run/{id}/step");
    let bad = [
        json!({"snapshot": "a page"}),
        json!({"snapshot": {"title": "no url", "elements": []}}),
        json!({"snapshot": {"url": "u", "elements": [{"id": "a"}]}}),
        json!({"snapshot": {"url": "u", "elements": [{"id": true, "tag": "a"}]}}),
        json!({"snapshot": {"status": "success", "url": "u", "elements": [{"id": 1}]}}),
        json!({"snapshot": null, "lastActionResult": {"success": "yes"}}),
        json!({"snapshot": null, "idempotencyKey": 5}),
    ];
    for b in bad {
        let (s, v) = srv.post(&step, b.clone()).await;
        assert_eq!(s, 400, "{b} → {v}");
        assert_eq!(v["error"], "Bad request");
        assert!(v["message"].is_string());
    }
    let answer = format!("/agent/run/{id}/answer");
    for (b, msg) in [
        (json!({}), "Missing required field \"approved\""),
        (json!({"approved": "yes"}), "\"approved\" must be a boolean"),
        (
            json!({"approved": true, "answer": 1}),
            "\"answer\" must be a string",
        ),
    ] {
        let (s, v) = srv.post(&answer, b).await;
        assert_eq!(
            (s, v),
            (400, json!({"error": "Bad request", "message": msg}))
        );
    }
    // Nothing advanced.
    assert_eq!(srv.state(&id).await["currentStep"], 0);
}

#[tokio::test]
async fn huge_bodies_get_413_over_http() {
    let srv = spawn().await;
    let id = srv.start("x", "autonomous").await;
    // Just over the documented default limit of 16 MiB.
    let huge = "x".repeat(16 * 1024 * 1024 + 1);
    let r = srv
        .client
        .post(format!("{}/agent/run/{id}/step", srv.base))
        .body(format!(
            r#"{{"snapshot": {{"url": "{huge}", "elements": []}}}}"#
        ))
        .send()
        .await
        .expect("send");
    assert_eq!(r.status().as_u16(), 413);
    let v: Value = r.json().await.expect("json");
    assert_eq!(v["error"], "Payload too large");
}

#[tokio::test]
async fn retried_step_with_the_same_idempotency_key_does_not_advance_twice() {
    let srv = spawn().await;
    let id = srv
        .start("Log in as \"alice\" with password \"s3cret\"", "autonomous")
        .await;
    let url = format!("{}/agent/run/{id}/step", srv.base);
    let body = json!({"snapshot": login_page(), "lastActionResult": null});
    let send = |key: &'static str| {
        srv.client
            .post(&url)
            .header("Idempotency-Key", key)
            .json(&body)
            .send()
    };
    let first = send("k-1").await.expect("send");
    assert!(first.headers().get("idempotent-replayed").is_none());
    let first: Value = first.json().await.expect("json");
    let again = send("k-1").await.expect("send");
    assert_eq!(
        again
            .headers()
            .get("idempotent-replayed")
            .and_then(|v| v.to_str().ok()),
        Some("true")
    );
    let again: Value = again.json().await.expect("json");
    assert_eq!(first, again);
    assert_eq!(srv.state(&id).await["currentStep"], 1);
    // The body field works the same way.
    let b2 = json!({"snapshot": login_page(), "lastActionResult": ok(), "idempotencyKey": "k-2"});
    let (_, r1) = srv.post(&format!("/agent/run/{id}/step"), b2.clone()).await;
    let (_, r2) = srv.post(&format!("/agent/run/{id}/step"), b2).await;
    assert_eq!(r1, r2);
    assert_eq!(srv.state(&id).await["currentStep"], 2);
    assert_eq!(
        srv.state(&id).await["history"].as_array().map(Vec::len),
        Some(2)
    );
}

#[tokio::test]
async fn concurrent_steps_on_one_run_are_serialised() {
    let srv = spawn().await;
    let id = srv.start("Find pricing", "autonomous").await;
    let url = format!("{}/agent/run/{id}/step", srv.base);
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let (c, u) = (srv.client.clone(), url.clone());
        tasks.push(tokio::spawn(async move {
            let v: Value = c
                .post(u)
                .json(&json!({"snapshot": null}))
                .send()
                .await
                .expect("send")
                .json()
                .await
                .expect("json");
            v["state"]["currentStep"].as_u64().expect("step")
        }));
    }
    let mut steps = BTreeSet::new();
    for t in tasks {
        steps.insert(t.await.expect("join"));
    }
    assert_eq!(steps, (1..=10).collect::<BTreeSet<u64>>());
    assert_eq!(
        srv.state(&id).await["history"].as_array().map(Vec::len),
        Some(10)
    );
}

#[tokio::test]
async fn idle_runs_expire_with_404() {
    let cfg = ServerConfig {
        run_ttl: Duration::from_millis(300),
        ..ServerConfig::default()
    };
    let srv = spawn_with(cfg, Arc::new(ScorerPolicy)).await;
    let id = srv.start("x", "autonomous").await;
    assert_eq!(srv.get(&format!("/agent/run/{id}")).await.0, 200);
    tokio::time::sleep(Duration::from_millis(800)).await;
    let (s, v) = srv.get(&format!("/agent/run/{id}")).await;
    assert_eq!(s, 404);
    assert_eq!(v["error"], "Not found");
}

#[tokio::test]
async fn maximum_steps_reached_is_an_error_at_150() {
    let srv = spawn().await;
    let id = srv.start("Find the warranty terms", "autonomous").await;
    let mut last = Value::Null;
    for i in 0..400 {
        // A new page each step: the scorer gives up ("Stuck") when asking on
        // the same page did not help, and this test wants the step limit.
        let p = page(
            &format!("http://127.0.0.1:9/?page={i}"),
            "Nothing here",
            json!([{"id": "a1", "tag": "a", "text": "Home"}]),
        );
        last = srv.step(&id, p, ok()).await;
        match last["action"].as_str() {
            Some("ask_user") => {
                srv.answer(&id, true).await;
            }
            Some("execute_tool") => {}
            _ => break,
        }
    }
    assert_eq!(
        last,
        json!({"action": "error", "error": "Maximum steps reached",
        "state": {"status": "error", "currentStep": 150, "maxSteps": 150}})
    );
}
