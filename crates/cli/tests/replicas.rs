//! Several `sentience serve` replicas on one PostgreSQL database, with
//! requests spread round robin as a load balancer without sticky sessions
//! would (docs/server.md "Running several replicas"): runs, idempotency
//! keys, browse conversations, the live stream, rate limits and quotas hold
//! across replicas, and a replica killed (SIGKILL) in the middle of a step
//! loses nothing. Needs `SENTIENCE_TEST_DATABASE_URL` (see support/cluster.rs).

#[path = "support/cluster.rs"]
mod cluster;
#[path = "support/fake_llm.rs"]
mod fake_llm;

use cluster::{database_url, login_page, next_event, stream, Cluster};
use fake_llm::{tool_call, FakeLlm};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const TASK: &str = "Log in as \"alice\" with password \"s3cret\"";

fn step_body(text: &str) -> Value {
    json!({"snapshot": login_page(text), "lastActionResult": {"success": true}})
}

fn parse(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// Every event of a stream until the server closes it.
async fn drain(ws: &mut cluster::Ws) -> Vec<Value> {
    let mut out = Vec::new();
    while let Some(e) = next_event(ws).await {
        out.push(e);
    }
    out
}

fn seqs(events: &[Value]) -> Vec<i64> {
    events
        .iter()
        .map(|e| e["seq"].as_i64().expect("seq"))
        .collect()
}

fn types(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .map(|e| e["type"].as_str().expect("type"))
        .collect()
}

#[tokio::test]
async fn a_run_stepped_round_robin_completes_and_one_stream_sees_every_event_in_order() {
    let Some(url) = database_url() else { return };
    let c = Cluster::start(&url, 3, &[], &[]).await;
    let (s, health) = c.get_at(c.base(2), "/health").await;
    assert_eq!(s, 200, "{health}");
    assert_eq!(health["store"]["engine"], "postgres", "{health}");
    assert_eq!(health["store"]["status"], "ok", "{health}");
    let id = c.start_run(c.next(), TASK).await;
    // The stream is on replica 0; the steps go round robin, so most are
    // decided and committed by replicas 1 and 2.
    let mut ws = stream(c.base(0), &id, None, None).await;
    let mut answers = Vec::new();
    for text in [
        "Please log in",
        "Please log in",
        "Please log in",
        "Welcome, alice",
    ] {
        let (s, _, body) = c
            .post_at(
                c.next(),
                &format!("/agent/run/{id}/step"),
                step_body(text),
                None,
            )
            .await;
        assert_eq!(s, 200, "{body}");
        answers.push(parse(&body));
    }
    let steps: Vec<Value> = answers
        .iter()
        .map(|a| a["state"]["currentStep"].clone())
        .collect();
    assert_eq!(
        steps,
        vec![json!(1), json!(2), json!(3), json!(4)],
        "{answers:?}"
    );
    assert_eq!(answers[3]["action"], "finish", "{answers:?}");
    let events = drain(&mut ws).await;
    let n = events.len() as i64;
    assert_eq!(seqs(&events), (1..=n).collect::<Vec<_>>(), "{events:?}");
    assert_eq!(
        types(&events),
        vec![
            "run_created",
            "step_started",
            "tool_proposed",
            "status_changed",
            "step_started",
            "tool_proposed",
            "step_started",
            "tool_proposed",
            "step_started",
            "finish",
            "status_changed"
        ],
        "{events:?}"
    );
    assert_eq!(events[2]["tool"], answers[0]["tool"]);
    assert_eq!(events[10]["to"], "completed");
    // Every replica answers GET with the same, final state.
    for i in 0..3 {
        let (s, v) = c.get_at(c.base(i), &format!("/agent/run/{id}")).await;
        assert_eq!(s, 200);
        assert_eq!(v["state"]["status"], "completed", "replica {i}: {v}");
        assert_eq!(v["state"]["history"].as_array().map(Vec::len), Some(4));
    }
    // A stream opened after the end replays everything, then closes.
    let mut late = stream(c.base(1), &id, None, None).await;
    assert_eq!(drain(&mut late).await, events);
    let mut done = stream(c.base(2), &id, Some(n), None).await;
    assert!(next_event(&mut done).await.is_none());
}

#[tokio::test]
async fn a_reconnect_with_since_on_another_replica_misses_nothing() {
    let Some(url) = database_url() else { return };
    let c = Cluster::start(&url, 3, &[], &[]).await;
    let id = c.start_run(c.base(0), TASK).await;
    let step = |i: usize, text: &'static str| {
        let c = &c;
        let id = &id;
        async move {
            let (s, _, body) = c
                .post_at(
                    c.base(i),
                    &format!("/agent/run/{id}/step"),
                    step_body(text),
                    None,
                )
                .await;
            assert_eq!(s, 200, "{body}");
        }
    };
    let mut ws = stream(c.base(0), &id, None, None).await;
    step(1, "Please log in").await;
    let mut seen = Vec::new();
    for _ in 0..4 {
        seen.push(next_event(&mut ws).await.expect("event"));
    }
    drop(ws);
    // While nobody listens, replicas 1 and 2 go on.
    step(2, "Please log in").await;
    step(1, "Please log in").await;
    step(2, "Welcome, alice").await;
    let last = seen.last().and_then(|e| e["seq"].as_i64()).expect("seq");
    let mut ws = stream(c.base(2), &id, Some(last), None).await;
    seen.extend(drain(&mut ws).await);
    let n = seen.len() as i64;
    assert_eq!(seqs(&seen), (1..=n).collect::<Vec<_>>(), "{seen:?}");
    assert_eq!(
        seen.last().map(|e| e["to"].clone()),
        Some(json!("completed"))
    );
    // `since` past the last event is refused before upgrading.
    let (s, v) = c
        .get_at(
            c.base(0),
            &format!("/agent/run/{id}/stream?since={}", n + 5),
        )
        .await;
    assert_eq!(s, 400, "{v}");
}

/// Replicas deciding with the fake LLM (so a decision takes as long as the
/// test wants).
async fn llm_cluster(url: &str, llm: &FakeLlm, n: usize) -> Cluster {
    Cluster::start(
        url,
        n,
        &[],
        &[
            ("LLM_API_KEY", "test"),
            ("LLM_BASE_URL", llm.base.as_str()),
            ("LLM_MAX_RETRIES", "0"),
        ],
    )
    .await
}

#[tokio::test]
async fn two_steps_of_one_run_sent_at_once_to_two_replicas_are_serialised() {
    let Some(url) = database_url() else { return };
    let llm = FakeLlm::start().await;
    let c = llm_cluster(&url, &llm, 3).await;
    let id = c.start_run(c.base(0), TASK).await;
    let decide = Duration::from_millis(400);
    llm.push(
        decide,
        tool_call("type", json!({"id": "u", "text": "alice"})),
    );
    llm.push(
        decide,
        tool_call("type", json!({"id": "p", "text": "s3cret"})),
    );
    let path = format!("/agent/run/{id}/step");
    let t = Instant::now();
    let (a, b) = tokio::join!(
        c.post_at(c.base(1), &path, step_body("Please log in"), Some("a")),
        c.post_at(c.base(2), &path, step_body("Please log in"), Some("b"))
    );
    let took = t.elapsed();
    assert_eq!((a.0, b.0), (200, 200), "{a:?} {b:?}");
    let (a, b) = (parse(&a.2), parse(&b.2));
    let mut steps = [
        a["state"]["currentStep"].as_u64(),
        b["state"]["currentStep"].as_u64(),
    ];
    steps.sort();
    assert_eq!(steps, [Some(1), Some(2)], "{a} {b}");
    // One waited for the other: the decisions never overlapped.
    assert_eq!(llm.calls(), 2);
    assert_eq!(llm.most_in_flight(), 1);
    assert!(took >= decide * 2, "both answered in {took:?}");
    let (_, v) = c.get_at(c.base(0), &format!("/agent/run/{id}")).await;
    let typed: Vec<Value> = v["state"]["history"]
        .as_array()
        .expect("history")
        .iter()
        .map(|h| h["parameters"]["text"].clone())
        .collect();
    assert_eq!(typed, vec![json!("alice"), json!("s3cret")], "{v}");
}

#[tokio::test]
async fn an_idempotent_retry_on_another_replica_gets_the_stored_reply() {
    let Some(url) = database_url() else { return };
    let llm = FakeLlm::start().await;
    let c = llm_cluster(&url, &llm, 3).await;
    let id = c.start_run(c.base(0), TASK).await;
    llm.push(
        Duration::from_millis(500),
        tool_call("type", json!({"id": "u", "text": "alice"})),
    );
    let path = format!("/agent/run/{id}/step");
    // The retry reaches replica 2 while replica 1 is still deciding: it
    // waits for the run, then finds the reply stored under its key.
    let first = c.post_at(c.base(1), &path, step_body("Please log in"), Some("k1"));
    let retry = async {
        tokio::time::sleep(Duration::from_millis(150)).await;
        c.post_at(c.base(2), &path, step_body("Please log in"), Some("k1"))
            .await
    };
    let (first, retry) = tokio::join!(first, retry);
    assert_eq!(first.0, 200, "{first:?}");
    assert_eq!((retry.0, retry.1), (200, true), "{retry:?}");
    assert_eq!(
        retry.2, first.2,
        "the retry's reply is the stored one, byte for byte"
    );
    // And once more, later, on the third replica.
    let again = c
        .post_at(c.base(0), &path, step_body("Please log in"), Some("k1"))
        .await;
    assert_eq!((again.0, again.1, &again.2), (200, true, &first.2));
    assert_eq!(llm.calls(), 1, "the run advanced once");
    let (_, v) = c.get_at(c.base(1), &format!("/agent/run/{id}")).await;
    assert_eq!(v["state"]["currentStep"], 1, "{v}");
}

#[tokio::test]
async fn a_replica_killed_mid_step_loses_nothing_and_the_others_finish_the_run() {
    let Some(url) = database_url() else { return };
    let llm = FakeLlm::start().await;
    let mut c = llm_cluster(&url, &llm, 3).await;
    let id = c.start_run(c.base(0), TASK).await;
    let mut ws = stream(c.base(2), &id, None, None).await;
    let path = format!("/agent/run/{id}/step");
    llm.push(
        Duration::ZERO,
        tool_call("type", json!({"id": "u", "text": "alice"})),
    );
    let (s, _, one) = c
        .post_at(c.base(0), &path, step_body("Please log in"), Some("s1"))
        .await;
    assert_eq!(s, 200, "{one}");
    // Replica 0 takes the second step and holds the run while the model
    // thinks; it is killed then.
    llm.push(
        Duration::from_secs(30),
        tool_call("type", json!({"id": "p", "text": "never"})),
    );
    let base0 = c.base(0).to_string();
    let http = c.http.clone();
    let doomed = tokio::spawn({
        let path = path.clone();
        async move {
            http.post(format!("{base0}{path}"))
                .header("Idempotency-Key", "s2")
                .json(&step_body("Please log in"))
                .send()
                .await
        }
    });
    let t = Instant::now();
    while llm.calls() < 2 {
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "replica 0 never asked the model"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    c.replicas[0].kill();
    assert!(
        doomed.await.expect("join").is_err(),
        "the killed replica answered"
    );
    // The client retries the same step on replica 1: the run is free again
    // (the dead replica's transaction was rolled back) and the step is
    // decided afresh, once.
    llm.push(
        Duration::ZERO,
        tool_call("type", json!({"id": "p", "text": "s3cret"})),
    );
    llm.push(Duration::ZERO, tool_call("click", json!({"id": "b"})));
    llm.push(
        Duration::ZERO,
        tool_call("finish", json!({"result": "Logged in"})),
    );
    let mut replies = Vec::new();
    for (i, (key, text)) in [
        ("s2", "Please log in"),
        ("s3", "Please log in"),
        ("s4", "Welcome, alice"),
    ]
    .into_iter()
    .enumerate()
    {
        let base = c.base(1 + i % 2).to_string();
        let (s, _, body) = c.post_at(&base, &path, step_body(text), Some(key)).await;
        assert_eq!(s, 200, "{body}");
        replies.push(parse(&body));
    }
    assert_eq!(replies[0]["tool"]["parameters"]["text"], "s3cret");
    assert_eq!(replies[2]["action"], "finish");
    let (_, v) = c.get_at(c.base(2), &format!("/agent/run/{id}")).await;
    let history: Vec<(Value, Value)> = v["state"]["history"]
        .as_array()
        .expect("history")
        .iter()
        .map(|h| (h["stepNumber"].clone(), h["action"].clone()))
        .collect();
    assert_eq!(
        history,
        vec![
            (json!(1), json!("type")),
            (json!(2), json!("type")),
            (json!(3), json!("click")),
            (json!(4), json!("finish")),
        ],
        "{v}"
    );
    assert!(
        !v.to_string().contains("never"),
        "the killed step left a trace: {v}"
    );
    let events = drain(&mut ws).await;
    let n = events.len() as i64;
    assert_eq!(seqs(&events), (1..=n).collect::<Vec<_>>(), "{events:?}");
    assert_eq!(
        types(&events)
            .iter()
            .filter(|t| **t == "step_started")
            .count(),
        4,
        "{events:?}"
    );
}

#[tokio::test]
async fn a_browse_conversation_continues_on_any_replica() {
    let Some(url) = database_url() else { return };
    let c = Cluster::start(&url, 3, &[], &[]).await;
    let html = "<form><input id=user name=username><input id=pass type=password name=password><button>Sign in</button></form>";
    let post = |base: String, session: Option<String>, body: Value| {
        let http = c.http.clone();
        async move {
            let mut r = http.post(format!("{base}/browse")).json(&body);
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
    let (s, session, body) = post(
        c.base(0).to_string(),
        None,
        json!({"endpoint": "task", "html": html, "action": TASK}),
    )
    .await;
    assert_eq!(s, 200, "{body}");
    let mut answers = vec![parse(&body)];
    for i in [1, 2, 0] {
        let (s, _, body) = post(
            c.base(i).to_string(),
            session.clone(),
            json!({"endpoint": "state", "html": html}),
        )
        .await;
        assert_eq!(s, 200, "replica {i}: {body}");
        answers.push(parse(&body));
    }
    let acts: Vec<(Value, Value)> = answers
        .iter()
        .map(|a| (a["endpoint"].clone(), a["selector"].clone()))
        .collect();
    assert_eq!(
        acts,
        vec![
            (json!("click"), json!("#user")),
            (json!("type"), json!("#user")),
            (json!("click"), json!("#pass")),
            (json!("type"), json!("#pass")),
        ],
        "{answers:?}"
    );
}

#[tokio::test]
async fn a_keys_rate_and_running_runs_hold_across_three_replicas() {
    let Some(url) = database_url() else { return };
    let args = [
        "--api-key",
        "team-key",
        "--rate-limit",
        "4",
        "--rate-burst",
        "4",
        "--max-running-runs",
        "2",
    ];
    let c = Cluster::start(&url, 3, &args, &[]).await;
    // The quota: two runs going for the key, wherever they were started.
    let first = c.start_run(c.next(), TASK).await;
    let _second = c.start_run(c.next(), TASK).await;
    let (s, _, body) = c
        .post_at(c.next(), "/agent/run/start", json!({"task": TASK}), None)
        .await;
    assert_eq!(s, 429, "{body}");
    // Wait for the bucket to refill (3 requests spent), then spend it
    // round robin: each replica alone would allow 4 + 4/s.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let t = Instant::now();
    let mut allowed = 0;
    let mut refused = 0;
    for _ in 0..24 {
        let (s, _) = c.get_at(c.next(), &format!("/agent/run/{first}")).await;
        match s {
            200 => allowed += 1,
            429 => refused += 1,
            other => panic!("GET answered {other}"),
        }
    }
    let secs = t.elapsed().as_secs_f64();
    // Burst 4, plus 4 a second for the time it took, plus one for rounding.
    let most = 4 + (4.0 * secs).ceil() as usize + 1;
    assert!(
        allowed <= most,
        "{allowed} allowed in {secs:.2} s across 3 replicas (at most {most} for one key)"
    );
    assert!(allowed >= 4, "the burst was not served: {allowed}");
    assert_eq!(allowed + refused, 24);
    // Health checks are never limited.
    for i in 0..3 {
        assert_eq!(c.get_at(c.base(i), "/health").await.0, 200);
    }
}
