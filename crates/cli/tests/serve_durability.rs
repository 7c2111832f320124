//! The real `sentience serve` binary: prints its address, keeps runs in
//! --data-dir across a kill -9 and a restart, and serves /s2 on --s2-port.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

struct Server {
    child: Child,
    base: String,
    system2: Option<String>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spawn(data_dir: &std::path::Path, extra: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sentience"))
        .args(["serve", "--port", "0", "--data-dir"])
        .arg(data_dir)
        .args(extra)
        .env_remove("LLM_API_KEY")
        .env_remove("PORT")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn sentience");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let first = lines.next().expect("a line").expect("utf8");
    let base = first
        .strip_prefix("listening on ")
        .expect("listening line")
        .to_string();
    let system2 = if extra.contains(&"--s2-port") {
        let l = lines.next().expect("s2 line").expect("utf8");
        Some(
            l.strip_prefix("s2 listening on ")
                .expect("s2 line")
                .to_string(),
        )
    } else {
        None
    };
    Server {
        child,
        base,
        system2,
    }
}

async fn post(c: &reqwest::Client, url: String, body: Value) -> (u16, Value) {
    let r = c.post(url).json(&body).send().await.expect("send");
    (r.status().as_u16(), r.json().await.expect("json"))
}

fn login_page() -> Value {
    json!({"url": "http://127.0.0.1:9/login", "title": "Login", "visibleText": "Please log in", "elements": [
        {"id": "u", "tag": "input", "placeholder": "Username"},
        {"id": "p", "tag": "input", "type": "password", "placeholder": "Password"},
        {"id": "b", "tag": "button", "text": "Log in"}], "timestamp": 1})
}

#[tokio::test]
async fn killed_server_continues_every_run_after_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let c = reqwest::Client::new();
    let mut srv = spawn(dir.path(), &[]);
    let (_, v) = post(
        &c,
        format!("{}/agent/run/start", srv.base),
        json!({"task": "Log in as \"alice\" with password \"s3cret\""}),
    )
    .await;
    let id = v["runId"].as_str().expect("runId").to_string();
    let step = |base: &str| format!("{base}/agent/run/{id}/step");
    let (_, r) = post(&c, step(&srv.base), json!({"snapshot": login_page()})).await;
    assert_eq!(r["tool"]["parameters"], json!({"id": "u", "text": "alice"}));
    // kill -9 mid-run.
    srv.child.kill().expect("kill");
    srv.child.wait().expect("wait");
    let srv = spawn(dir.path(), &[]);
    let (s, st) = c
        .get(format!("{}/agent/run/{id}", srv.base))
        .send()
        .await
        .map(|r| (r.status().as_u16(), r))
        .expect("get");
    assert_eq!(s, 200);
    let st: Value = st.json().await.expect("json");
    assert_eq!(st["state"]["currentStep"], 1);
    let ok = json!({"success": true});
    let (_, r) = post(
        &c,
        step(&srv.base),
        json!({"snapshot": login_page(), "lastActionResult": ok}),
    )
    .await;
    assert_eq!(
        r["tool"]["parameters"],
        json!({"id": "p", "text": "s3cret"})
    );
    let (_, r) = post(
        &c,
        step(&srv.base),
        json!({"snapshot": login_page(), "lastActionResult": ok}),
    )
    .await;
    assert_eq!(r["tool"]["parameters"], json!({"id": "b"}));
    let home = json!({"url": "http://127.0.0.1:9/home", "title": "Home", "visibleText": "Welcome, alice", "elements": [], "timestamp": 2});
    let (_, r) = post(
        &c,
        step(&srv.base),
        json!({"snapshot": home, "lastActionResult": ok}),
    )
    .await;
    assert_eq!(r["action"], "finish", "{r}");
    assert_eq!(r["state"]["currentStep"], 4);
}

#[tokio::test]
async fn s2_port_serves_the_system2_api() {
    let dir = tempfile::tempdir().expect("tempdir");
    let srv = spawn(dir.path(), &["--s2-port", "0"]);
    let system2 = srv.system2.clone().expect("s2 address");
    let c = reqwest::Client::new();
    let (s, v) = post(&c, format!("{system2}/s2"), json!({"task": "x"})).await;
    assert_eq!(s, 422);
    assert_eq!(v["detail"][0]["loc"], json!(["body", "screenshot"]));
    let (s, h) = (
        c.get(format!("{}/health", srv.base))
            .send()
            .await
            .expect("health")
            .status()
            .as_u16(),
        (),
    );
    assert_eq!((s, h), (200, ()));
}
