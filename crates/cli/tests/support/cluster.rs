//! N real `sentience serve` processes on port 0 sharing one PostgreSQL
//! database (a schema of its own per test), requests spread round robin,
//! and a stream client. PostgreSQL comes from `SENTIENCE_TEST_DATABASE_URL`
//! (pkg-scripts/test.sh starts a cluster and sets it); without it the tests
//! are skipped, except under `CI=true`, where they fail.

use futures::StreamExt;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The database URL, or `None` (skip) outside CI.
pub fn database_url() -> Option<String> {
    match std::env::var("SENTIENCE_TEST_DATABASE_URL") {
        Ok(u) if !u.is_empty() => Some(u),
        _ if std::env::var("CI").as_deref() == Ok("true") => panic!(
            "SENTIENCE_TEST_DATABASE_URL is not set: the replica tests need PostgreSQL \
             (pkg-scripts/test.sh starts one; bash pkg-scripts/setup.sh installs it)"
        ),
        _ => {
            eprintln!("skipped: SENTIENCE_TEST_DATABASE_URL is not set (bash pkg-scripts/postgres.sh start)");
            None
        }
    }
}

/// `url` with a fresh schema of its own.
pub async fn fresh_schema(url: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    let schema = format!(
        "replicas_{}_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    );
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("connect to SENTIENCE_TEST_DATABASE_URL");
    tokio::spawn(conn);
    client
        .batch_execute(&format!("CREATE SCHEMA {schema}"))
        .await
        .expect("create schema");
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}options=-csearch_path%3D{schema}")
}

pub struct Replica {
    pub child: Child,
    pub base: String,
}

impl Replica {
    /// SIGKILL: the process dies at once, mid-request if it was in one.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        self.kill();
    }
}

pub fn spawn_replica(url: &str, args: &[&str], env: &[(&str, &str)]) -> Replica {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sentience"));
    // No periodic look-up: events from other replicas must arrive through
    // the database's notifications (a broken relay fails the stream tests).
    cmd.args([
        "serve",
        "--port",
        "0",
        "--stream-poll-secs",
        "3600",
        "--database",
        url,
    ])
    .args(args)
    .env_remove("LLM_API_KEY")
    .env_remove("SENTIENCE_API_KEY")
    .env_remove("DATABASE_URL")
    .env_remove("PORT")
    .env("RUST_LOG", "warn")
    .stdout(Stdio::piped())
    .stderr(Stdio::inherit());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("spawn sentience serve");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let first = lines.next().expect("a line").expect("utf8");
    let base = first
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {first:?}"))
        .to_string();
    Replica { child, base }
}

/// Replicas with requests spread round robin, like a load balancer.
pub struct Cluster {
    pub replicas: Vec<Replica>,
    next: AtomicUsize,
    pub http: reqwest::Client,
    pub key: Option<String>,
}

impl Cluster {
    pub async fn start(url: &str, n: usize, args: &[&str], env: &[(&str, &str)]) -> Cluster {
        let db = fresh_schema(url).await;
        // The first replica migrates the schema; the others start together.
        let mut replicas = vec![spawn_replica(&db, args, env)];
        replicas.extend((1..n).map(|_| spawn_replica(&db, args, env)));
        // A replica serves once it hears the others (store/postgres: the
        // listener's first LISTEN before the store opens).
        let http = reqwest::Client::new();
        for r in &replicas {
            let h: Value = http
                .get(format!("{}/health", r.base))
                .send()
                .await
                .expect("health")
                .json()
                .await
                .expect("health json");
            assert_eq!(h["store"]["listener"], "listening", "{h}");
        }
        let key = args
            .iter()
            .position(|a| *a == "--api-key")
            .and_then(|i| args.get(i + 1))
            .map(|k| k.to_string());
        Cluster {
            replicas,
            next: AtomicUsize::new(0),
            http,
            key,
        }
    }

    /// The next replica's base URL (round robin).
    pub fn next(&self) -> &str {
        let i = self.next.fetch_add(1, Ordering::SeqCst) % self.replicas.len();
        &self.replicas[i].base
    }

    pub fn base(&self, i: usize) -> &str {
        &self.replicas[i].base
    }

    /// POST to `base`: status, headers' `idempotent-replayed`, body text.
    pub async fn post_at(
        &self,
        base: &str,
        path: &str,
        body: Value,
        key: Option<&str>,
    ) -> (u16, bool, String) {
        let mut r = self.http.post(format!("{base}{path}")).json(&body);
        if let Some(k) = key {
            r = r.header("Idempotency-Key", k);
        }
        if let Some(api) = &self.key {
            r = r.bearer_auth(api);
        }
        let r = r.send().await.expect("send");
        let replayed = r.headers().get("idempotent-replayed").is_some();
        (r.status().as_u16(), replayed, r.text().await.expect("body"))
    }

    pub async fn get_at(&self, base: &str, path: &str) -> (u16, Value) {
        let mut r = self.http.get(format!("{base}{path}"));
        if let Some(api) = &self.key {
            r = r.bearer_auth(api);
        }
        let r = r.send().await.expect("send");
        (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
    }

    pub async fn start_run(&self, base: &str, task: &str) -> String {
        let (s, _, body) = self
            .post_at(base, "/agent/run/start", json!({"task": task}), None)
            .await;
        assert_eq!(s, 200, "{body}");
        let v: Value = serde_json::from_str(&body).expect("json");
        v["runId"].as_str().expect("runId").to_string()
    }
}

/// A PageSnapshot (docs/contracts/run-api.md §12) of a login form; `text`
/// is the page's visible text (the built-in policy finishes on "Welcome").
pub fn login_page(text: &str) -> Value {
    json!({"url": "http://127.0.0.1:9/login", "title": "Login", "visibleText": text, "elements": [
        {"id": "u", "tag": "input", "placeholder": "Username"},
        {"id": "p", "tag": "input", "type": "password", "placeholder": "Password"},
        {"id": "b", "tag": "button", "text": "Log in"}], "timestamp": 1})
}

pub type Ws = async_tungstenite::WebSocketStream<async_tungstenite::tokio::ConnectStream>;

/// Opens `base`'s stream of run `id` (after event `since`).
pub async fn stream(base: &str, id: &str, since: Option<i64>, key: Option<&str>) -> Ws {
    use async_tungstenite::tungstenite::client::IntoClientRequest;
    let mut url = format!(
        "{}/agent/run/{id}/stream",
        base.replacen("http://", "ws://", 1)
    );
    if let Some(s) = since {
        url.push_str(&format!("?since={s}"));
    }
    let mut req = url.into_client_request().expect("request");
    if let Some(k) = key {
        req.headers_mut().insert(
            "authorization",
            format!("Bearer {k}").parse().expect("header"),
        );
    }
    async_tungstenite::tokio::connect_async(req)
        .await
        .expect("stream handshake")
        .0
}

/// The next event of a stream, or `None` once the server closed it.
pub async fn next_event(ws: &mut Ws) -> Option<Value> {
    use async_tungstenite::tungstenite::Message;
    loop {
        let msg = tokio::time::timeout(std::time::Duration::from_secs(20), ws.next())
            .await
            .expect("an event within 20 s");
        match msg {
            Some(Ok(Message::Text(t))) => {
                return Some(serde_json::from_str(&t).expect("event json"))
            }
            Some(Ok(Message::Close(_))) | None => return None,
            Some(Ok(_)) => continue,
            Some(Err(e)) => panic!("stream failed: {e}"),
        }
    }
}
