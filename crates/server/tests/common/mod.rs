//! Shared test harness: a real server on port 0 with a real database (a
//! SQLite file in a temp dir, or, with `SENTIENCE_TEST_STORE=postgres`, a
//! schema of its own in the PostgreSQL at `SENTIENCE_TEST_DATABASE_URL`:
//! pkg-scripts/test.sh runs the suites both ways), a real HTTP client,
//! fixture snapshots, and the only fake — a local OpenAI-compatible
//! chat-completions server with scripted answers.
#![allow(dead_code)]

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use sentience_agent::{Policy, ScorerPolicy};
use sentience_server::{AppState, ServerConfig, Store};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Which database the tests use: `SENTIENCE_TEST_STORE=postgres` (with
/// `SENTIENCE_TEST_DATABASE_URL`) or SQLite.
pub fn postgres_url() -> Option<String> {
    if std::env::var("SENTIENCE_TEST_STORE").as_deref() != Ok("postgres") {
        return None;
    }
    match std::env::var("SENTIENCE_TEST_DATABASE_URL") {
        Ok(u) if !u.is_empty() => Some(u),
        _ => panic!(
            "SENTIENCE_TEST_STORE=postgres needs SENTIENCE_TEST_DATABASE_URL \
             (pkg-scripts/test.sh starts a cluster and sets it)"
        ),
    }
}

/// One test's database: reopened by a second server to play a restart or
/// another replica.
#[derive(Clone)]
pub enum TestDb {
    Sqlite(std::path::PathBuf),
    /// A URL whose connections use a schema of their own.
    Postgres(String),
}

static SCHEMAS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl TestDb {
    pub async fn new(dir: &std::path::Path) -> TestDb {
        let Some(url) = postgres_url() else {
            return TestDb::Sqlite(dir.join("runs.sqlite3"));
        };
        let schema = format!(
            "test_{}_{}_{}",
            std::process::id(),
            SCHEMAS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            uuid::Uuid::new_v4().simple()
        );
        let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
            .await
            .expect("connect to SENTIENCE_TEST_DATABASE_URL");
        tokio::spawn(conn);
        client
            .batch_execute(&format!("CREATE SCHEMA {schema}"))
            .await
            .expect("create schema");
        let sep = if url.contains('?') { '&' } else { '?' };
        // The schema as application name too: it tells this test's
        // connections apart in pg_stat_activity (`listeners`).
        TestDb::Postgres(format!(
            "{url}{sep}options=-csearch_path%3D{schema}&application_name={schema}"
        ))
    }

    pub async fn open(&self) -> Store {
        match self {
            TestDb::Sqlite(path) => Store::open(path).expect("store"),
            TestDb::Postgres(url) => Store::connect(url, sentience_server::PgOptions::default())
                .await
                .expect("postgres store"),
        }
    }

    /// Rows of `table`, read by a connection of the test's own.
    pub async fn count(&self, table: &str) -> i64 {
        let sql = format!("SELECT COUNT(*) FROM {table}");
        match self {
            TestDb::Sqlite(path) => {
                let c = rusqlite::Connection::open_with_flags(
                    path,
                    rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
                )
                .expect("open");
                c.query_row(&sql, [], |r| r.get(0)).expect("count")
            }
            TestDb::Postgres(_) => self
                .pg()
                .await
                .query_one(&sql, &[])
                .await
                .expect("count")
                .get(0),
        }
    }
}

impl TestDb {
    /// Stores event `seq` of run `id` behind the server's back, as another
    /// replica whose announcement never arrived would have.
    pub async fn insert_event(&self, id: &str, seq: i64, body: &str) {
        match self {
            TestDb::Sqlite(path) => {
                let c = rusqlite::Connection::open(path).expect("open");
                c.busy_timeout(Duration::from_secs(5))
                    .expect("busy timeout");
                let n = c
                    .execute(
                        "INSERT INTO run_events (run_no, seq, body)
                         SELECT run_no, ?2, ?3 FROM runs WHERE run_id = ?1",
                        rusqlite::params![id, seq, body],
                    )
                    .expect("insert event");
                assert_eq!(n, 1, "run {id} is not stored");
            }
            TestDb::Postgres(_) => {
                self.pg()
                    .await
                    .execute(
                        "INSERT INTO run_events (run_id, seq, body) VALUES ($1, $2, $3)",
                        &[&id, &seq, &body],
                    )
                    .await
                    .expect("insert event");
            }
        }
    }
}

impl TestDb {
    /// A connection of the test's own to its PostgreSQL schema.
    async fn pg(&self) -> tokio_postgres::Client {
        let TestDb::Postgres(url) = self else {
            panic!("not a PostgreSQL test database");
        };
        let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
            .await
            .expect("connect");
        tokio::spawn(conn);
        client
    }

    /// Backend pids of this test's stores' LISTEN connections.
    pub async fn listeners(&self) -> Vec<i32> {
        let c = self.pg().await;
        let rows = c
            .query(
                "SELECT pid FROM pg_stat_activity
                 WHERE application_name = current_setting('application_name')
                   AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()
                 ORDER BY pid",
                &[],
            )
            .await
            .expect("pg_stat_activity");
        rows.iter().map(|r| r.get(0)).collect()
    }

    /// Cuts connections `pids` as a database restart or a proxy's idle
    /// timeout would.
    pub async fn cut(&self, pids: &[i32]) {
        let c = self.pg().await;
        for pid in pids {
            c.query_one("SELECT pg_terminate_backend($1)", &[pid])
                .await
                .expect("terminate");
        }
    }

    /// Announces event `seq` of run `id` as another replica's notifier does.
    pub async fn notify(&self, id: &str, seq: i64) {
        let c = self.pg().await;
        c.query_one(
            "SELECT pg_notify('sentience_run_events', $1)",
            &[&format!("{seq} {id}")],
        )
        .await
        .expect("notify");
    }
}

pub struct TestServer {
    pub base: String,
    pub client: reqwest::Client,
    pub dir: tempfile::TempDir,
    pub db: TestDb,
    pub state: AppState,
}

/// Serves `state` on a free port; its base URL.
pub async fn serve_state(state: AppState) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(sentience_server::serve(listener, state));
    base
}

pub async fn spawn_with(config: ServerConfig, policy: Arc<dyn Policy>) -> TestServer {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = TestDb::new(dir.path()).await;
    let state = AppState::new(config, db.open().await, policy);
    TestServer {
        base: serve_state(state.clone()).await,
        client: reqwest::Client::new(),
        dir,
        db,
        state,
    }
}

pub async fn spawn() -> TestServer {
    spawn_with(ServerConfig::default(), Arc::new(ScorerPolicy)).await
}

impl TestServer {
    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let r = self
            .client
            .post(format!("{}{path}", self.base))
            .json(&body)
            .send()
            .await
            .expect("send");
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    /// `POST /browse` with a raw body and an optional `Browse-Session`
    /// header: the status, the answer's `Browse-Session` and the body text.
    pub async fn browse_raw(
        &self,
        session: Option<&str>,
        body: &str,
    ) -> (u16, Option<String>, String) {
        let mut req = self
            .client
            .post(format!("{}/browse", self.base))
            .header("content-type", "application/json")
            .body(body.to_string());
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

    pub async fn get(&self, path: &str) -> (u16, Value) {
        let r = self
            .client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("send");
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    pub async fn start(&self, task: &str, mode: &str) -> String {
        let (s, v) = self
            .post("/agent/run/start", json!({"task": task, "mode": mode}))
            .await;
        assert_eq!(s, 200, "{v}");
        v["runId"].as_str().expect("runId").to_string()
    }

    pub async fn step(&self, id: &str, snapshot: Value, last: Value) -> Value {
        let (s, v) = self
            .post(
                &format!("/agent/run/{id}/step"),
                json!({"snapshot": snapshot, "lastActionResult": last}),
            )
            .await;
        assert_eq!(s, 200, "{v}");
        v
    }

    pub async fn answer(&self, id: &str, approved: bool) -> Value {
        let (s, v) = self
            .post(
                &format!("/agent/run/{id}/answer"),
                json!({"approved": approved}),
            )
            .await;
        assert_eq!(s, 200, "{v}");
        v
    }

    pub async fn state(&self, id: &str) -> Value {
        let (s, v) = self.get(&format!("/agent/run/{id}")).await;
        assert_eq!(s, 200, "{v}");
        v["state"].clone()
    }
}

pub fn ok() -> Value {
    json!({"success": true, "message": "Done"})
}

/// PageSnapshot (docs/contracts/run-api.md §12) of a small login form.
pub fn login_page() -> Value {
    json!({"url": "http://127.0.0.1:9/login.html", "title": "Login", "visibleText": "Welcome back! Please log in.",
        "elements": [
            {"id": "agent-1", "tag": "input", "type": "text", "placeholder": "Username", "name": "user"},
            {"id": "agent-2", "tag": "input", "type": "password", "placeholder": "Password", "name": "pass"},
            {"id": "agent-3", "tag": "button", "text": "Log in"},
            {"id": "agent-4", "tag": "a", "text": "Forgot password?", "href": "/forgot"}
        ], "timestamp": 1_737_292_800_000u64})
}

pub fn page(url: &str, text: &str, elements: Value) -> Value {
    json!({"url": url, "title": "", "visibleText": text, "elements": elements, "timestamp": 1})
}

/// snapshot (docs/contracts/snapshot.md) of the same login form (numeric ids).
pub fn login_page_001() -> Value {
    let el = |id: u32, role: &str, text: &str, y: f64| {
        json!({"id": id, "role": role, "text": text, "importance": 900,
        "bbox": {"x": 100.0, "y": y, "width": 200.0, "height": 32.0},
        "visual_cues": {"is_primary": role == "button", "background_color_name": null, "is_clickable": true},
        "in_viewport": true, "is_occluded": false, "z_index": 0})
    };
    json!({"status": "success", "url": "http://127.0.0.1:9/login.html", "viewport": {"width": 1280, "height": 800},
        "elements": [el(7, "textbox", "Username", 100.0), el(8, "textbox", "Password", 150.0), el(9, "button", "Sign in", 200.0)]})
}

/// One scripted answer of the fake LLM.
#[derive(Clone)]
pub enum Scripted {
    Ok(Value),
    Status(u16, &'static str),
    Delay(Duration, Box<Scripted>),
}

pub fn tool_call(name: &str, args: Value) -> Scripted {
    Scripted::Ok(
        json!({"id": "x", "object": "chat.completion", "choices": [{"index": 0, "finish_reason": "tool_calls",
        "message": {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
            "function": {"name": name, "arguments": args.to_string()}}]}}]}),
    )
}

pub fn content(text: &str) -> Scripted {
    Scripted::Ok(
        json!({"id": "x", "object": "chat.completion", "choices": [{"index": 0, "finish_reason": "stop",
        "message": {"role": "assistant", "content": text}}]}),
    )
}

#[derive(Clone)]
pub struct FakeLlm {
    pub base: String,
    script: Arc<Mutex<VecDeque<Scripted>>>,
    pub requests: Arc<Mutex<Vec<Value>>>,
}

impl FakeLlm {
    pub fn push(&self, s: Scripted) {
        self.script.lock().expect("lock").push_back(s);
    }
    pub fn calls(&self) -> usize {
        self.requests.lock().expect("lock").len()
    }
    pub fn last_prompt(&self) -> String {
        self.requests
            .lock()
            .expect("lock")
            .last()
            .map(|r| r["messages"].to_string())
            .unwrap_or_default()
    }
}

async fn chat(State(f): State<FakeLlm>, Json(body): Json<Value>) -> axum::response::Response {
    use axum::response::IntoResponse;
    f.requests.lock().expect("lock").push(body);
    let next = f.script.lock().expect("lock").pop_front();
    let mut item = next.unwrap_or(Scripted::Status(500, "script exhausted"));
    loop {
        match item {
            Scripted::Delay(d, inner) => {
                tokio::time::sleep(d).await;
                item = *inner;
            }
            Scripted::Ok(v) => return Json(v).into_response(),
            Scripted::Status(code, msg) => {
                let status = axum::http::StatusCode::from_u16(code)
                    .unwrap_or(axum::http::StatusCode::INTERNAL_SERVER_ERROR);
                return (status, msg).into_response();
            }
        }
    }
}

pub async fn fake_llm() -> FakeLlm {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let f = FakeLlm {
        base: format!("http://{}/v1", listener.local_addr().expect("addr")),
        script: Arc::default(),
        requests: Arc::default(),
    };
    let app = Router::new()
        .route("/v1/chat/completions", post(chat))
        .with_state(f.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });
    f
}
