//! The live-run cache and the batched database writer: what the cache
//! answers is what the database holds, across a second server process
//! (a fresh cache) on the same file, and concurrent steps on many runs all
//! commit.

mod common;

use common::{login_page, ok, serve_state, TestDb};
use sentience_agent::ScorerPolicy;
use sentience_server::live::{Live, Uncommitted};
use sentience_server::{AppState, ServerConfig};
use serde_json::{json, Value};
use std::sync::Arc;

/// A server on `db` (a fresh cache, as after a restart, or another replica).
async fn serve(db: &TestDb) -> String {
    let state = AppState::new(
        ServerConfig::default(),
        db.open().await,
        Arc::new(ScorerPolicy),
    );
    serve_state(state).await
}

async fn post(c: &reqwest::Client, url: String, key: Option<&str>, body: Value) -> (u16, String) {
    let mut r = c.post(url).json(&body);
    if let Some(k) = key {
        r = r.header("Idempotency-Key", k);
    }
    let r = r.send().await.expect("send");
    (r.status().as_u16(), r.text().await.expect("body"))
}

/// `GET /agent/run/:id` as JSON.
async fn get_run(c: &reqwest::Client, a: &str, id: &str) -> Value {
    let r = c
        .get(format!("{a}/agent/run/{id}"))
        .send()
        .await
        .expect("get");
    r.json().await.expect("json")
}

/// Starts a run for `task` and returns its id.
async fn start_run(c: &reqwest::Client, a: &str, task: &str) -> String {
    let (s, v) = post(
        c,
        format!("{a}/agent/run/start"),
        None,
        json!({ "task": task }),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let v: Value = serde_json::from_str(&v).expect("json");
    v["runId"].as_str().expect("runId").to_string()
}

#[tokio::test]
async fn a_fresh_cache_replays_stored_replies_and_continues_the_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = TestDb::new(dir.path()).await;
    let c = reqwest::Client::new();
    let a = serve(&db).await;
    let id = start_run(&c, &a, "Log in as \"alice\" with password \"s3cret\"").await;
    let body = json!({"snapshot": login_page(), "lastActionResult": ok()});
    let (s, first) = post(
        &c,
        format!("{a}/agent/run/{id}/step"),
        Some("k1"),
        body.clone(),
    )
    .await;
    assert_eq!(s, 200, "{first}");
    // Another server on the same database: nothing cached, the reply and
    // the run come from SQLite.
    let b = serve(&db).await;
    let (s, again) = post(
        &c,
        format!("{b}/agent/run/{id}/step"),
        Some("k1"),
        body.clone(),
    )
    .await;
    assert_eq!((s, &again), (200, &first));
    let (_, next) = post(&c, format!("{b}/agent/run/{id}/step"), Some("k2"), body).await;
    let next: Value = serde_json::from_str(&next).expect("json");
    assert_eq!(next["state"]["currentStep"], 2, "{next}");
    assert_eq!(
        next["tool"]["parameters"],
        json!({"id": "agent-2", "text": "s3cret"})
    );
    let st = get_run(&c, &b, &id).await;
    assert_eq!(st["state"]["history"].as_array().map(Vec::len), Some(2));
    // The stored snapshot is the one sent, as JSON.
    assert_eq!(st["state"]["currentSnapshot"], login_page());
}

#[tokio::test]
async fn concurrent_steps_on_many_runs_all_commit() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = TestDb::new(dir.path()).await;
    let c = reqwest::Client::new();
    let a = serve(&db).await;
    let mut tasks = Vec::new();
    for _ in 0..40 {
        let (c, a) = (c.clone(), a.clone());
        tasks.push(tokio::spawn(async move {
            let id = start_run(&c, &a, "Log in as \"alice\" with password \"s3cret\"").await;
            for _ in 0..3 {
                let (s, r) = post(
                    &c,
                    format!("{a}/agent/run/{id}/step"),
                    None,
                    json!({"snapshot": login_page(), "lastActionResult": ok()}),
                )
                .await;
                assert_eq!(s, 200, "{r}");
            }
            id
        }));
    }
    let mut ids = Vec::new();
    for t in tasks {
        ids.push(t.await.expect("join"));
    }
    // Every step is in the database (read through a fresh store).
    let store = db.open().await;
    for id in ids {
        let run = store.load(&id).await.expect("load").expect("run");
        assert_eq!(run.current_step, 3);
    }
}

#[test]
fn an_uncommitted_change_drops_the_cached_run_unless_kept() {
    let run =
        sentience_agent::Run::new("r".into(), "t".into(), sentience_agent::RunMode::Autonomous);
    let mut slot = Some(Live::new(run, 1));
    {
        let mut change = Uncommitted::new(&mut slot);
        change.live().expect("cached").run.current_step = 7;
        change.keep();
    }
    assert_eq!(slot.as_ref().map(|l| l.run.current_step), Some(7));
    {
        let mut change = Uncommitted::new(&mut slot);
        change.live().expect("cached").run.current_step = 8;
        // Dropped without `keep`: the write did not commit.
    }
    assert!(slot.is_none());
}

#[tokio::test]
async fn a_snapshot_is_stored_as_sent_without_its_screenshot() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = TestDb::new(dir.path()).await;
    let c = reqwest::Client::new();
    let a = serve(&db).await;
    let id = start_run(&c, &a, "Find pricing").await;
    let mut snap = login_page();
    snap["screenshot"] = json!("data:image/png;base64,AAAA");
    snap["extra"] = json!({"kept": [1, 2.5, "x"]});
    let (s, r) = post(
        &c,
        format!("{a}/agent/run/{id}/step"),
        None,
        json!({"snapshot": snap}),
    )
    .await;
    assert_eq!(s, 200, "{r}");
    let st = get_run(&c, &a, &id).await;
    let stored = &st["state"]["currentSnapshot"];
    assert!(stored.get("screenshot").is_none(), "{stored}");
    assert_eq!(stored["extra"], json!({"kept": [1, 2.5, "x"]}));
    assert_eq!(stored["elements"], login_page()["elements"]);
}
