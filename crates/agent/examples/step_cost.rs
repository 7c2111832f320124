//! Time `Run::step` with the scorer, without HTTP or SQLite.
use sentience_agent::{Page, Run, RunMode, ScorerPolicy, ToolResult};
use serde_json::json;
use std::time::Instant;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut elements = vec![
        json!({"id": "agent-1", "tag": "input", "type": "text", "placeholder": "Username", "name": "username"}),
        json!({"id": "agent-2", "tag": "input", "type": "password", "placeholder": "Password", "name": "password"}),
        json!({"id": "agent-3", "tag": "button", "text": "Log in"}),
    ];
    for i in 4..=40 {
        elements.push(json!({"id": format!("agent-{i}"), "tag": "a", "text": format!("Article number {i}"), "href": format!("/a/{i}")}));
    }
    let snap = json!({"url": "http://127.0.0.1/login", "title": "Login", "visibleText": "Please log in to continue. ".repeat(40), "elements": elements, "timestamp": 1});
    let n = 2000;
    let t = Instant::now();
    for i in 0..n {
        let mut run = if i % 10 == 0 {
            Run::new(
                "x".into(),
                "Log in as \"alice\" with password \"s3cret\"".into(),
                RunMode::Autonomous,
            )
        } else {
            Run::new("x".into(), "t".into(), RunMode::Autonomous)
        };
        let page = Page::from_json(&snap).expect("page");
        let _ = run
            .step(
                Some((snap.clone(), page)),
                Some(ToolResult {
                    success: true,
                    ..Default::default()
                }),
                &ScorerPolicy,
            )
            .await;
        let s = serde_json::to_string(&run).expect("ser");
        let _r: Run = serde_json::from_str(&s).expect("de");
    }
    println!(
        "{:.1} µs per step (parse+step+ser+de)",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
}
