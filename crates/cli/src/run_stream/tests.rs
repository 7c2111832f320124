use super::*;

fn ev(v: Value) -> Value {
    v
}

#[test]
fn a_tool_line_waits_for_its_result_and_reads_as_before() {
    let mut p = Printer::default();
    let typed = ev(
        json!({"type": "tool_proposed", "step": 1, "tool": {"name": "type", "parameters": {"id": 7, "text": "alice"}}, "target": "Username"}),
    );
    assert!(p.lines(&typed).is_empty());
    let next =
        ev(json!({"type": "step_started", "step": 2, "lastActionResult": {"success": true}}));
    assert_eq!(
        p.lines(&next),
        vec!["  [  1] type \"Username\" ← \"alice\" ✓"]
    );
    let click = ev(
        json!({"type": "tool_proposed", "step": 2, "tool": {"name": "click", "parameters": {"id": 9}}, "target": "Sign in"}),
    );
    p.lines(&click);
    let failed = ev(
        json!({"type": "step_started", "step": 3, "lastActionResult": {"success": false, "error": "not clickable"}}),
    );
    assert_eq!(
        p.lines(&failed),
        vec!["  [  2] click \"Sign in\" ✗ not clickable"]
    );
    let done = ev(json!({"type": "finish", "step": 3, "result": "Welcome, alice"}));
    assert_eq!(p.lines(&done), vec!["  [  3] finished: Welcome, alice"]);
    assert_eq!(p.result.as_deref(), Some("Welcome, alice"));
}

#[test]
fn the_run_ends_with_a_status_change_into_a_terminal_status() {
    assert_eq!(
        ended(&json!({"type": "status_changed", "to": "completed"})),
        Some("completed")
    );
    assert_eq!(
        ended(&json!({"type": "status_changed", "to": "waiting_user"})),
        None
    );
    assert_eq!(ended(&json!({"type": "finish", "to": "completed"})), None);
}

#[test]
fn the_printer_remembers_the_step_of_its_last_line() {
    let mut p = Printer::default();
    assert_eq!(p.last_step, None);
    p.lines(&json!({"type": "question_asked", "step": 4, "question": "Pay?"}));
    assert_eq!(p.last_step, Some(4));
}

/// The agent server `sentience run` starts in-process, on a free port.
async fn server() -> crate::startup::AgentServer {
    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        llm: crate::serve::LlmArgs,
    }
    let cli = <Cli as clap::Parser>::parse_from(["test"]);
    crate::startup::agent_server(None, &cli.llm)
        .await
        .expect("the in-process server")
}

#[tokio::test]
async fn follow_reads_a_real_run_to_its_end_and_closes() {
    let s = server().await;
    let http = reqwest::Client::new();
    let started: Value = http
        .post(format!("{}/agent/run/start", s.url))
        .json(&json!({"task": "Log in"}))
        .send()
        .await
        .expect("start")
        .json()
        .await
        .expect("the start's reply");
    let run_id = started["runId"].as_str().expect("runId").to_string();
    let mut events = follow(&s.url, &run_id);
    // The run was created before the stream opened: its event comes from
    // the store at once, not with the run's next change.
    let first = tokio::time::timeout(Duration::from_secs(3), events.recv())
        .await
        .expect("the stored event, at once")
        .expect("an event")
        .expect("no error");
    assert_eq!(
        (first["seq"].as_i64(), first["type"].as_str()),
        (Some(1), Some("run_created"))
    );
    let cancelled = http
        .post(format!("{}/agent/run/{run_id}/cancel", s.url))
        .send()
        .await
        .expect("cancel");
    assert!(cancelled.status().is_success());
    let last = tokio::time::timeout(Duration::from_secs(5), events.recv())
        .await
        .expect("the cancel's event")
        .expect("an event")
        .expect("no error");
    assert_eq!(last["seq"].as_i64(), Some(2));
    assert_eq!(ended(&last), Some("cancelled"));
    // Close 1000 after the run's end: the channel closes, with no error.
    let closed = tokio::time::timeout(Duration::from_secs(5), events.recv()).await;
    assert!(closed.expect("the end of the stream").is_none());
}

#[tokio::test]
async fn a_refused_handshake_fails_at_once_for_the_fallback_to_take_over() {
    let s = server().await;
    let began = std::time::Instant::now();
    let mut events = follow(&s.url, "no-such-run");
    let got = tokio::time::timeout(Duration::from_secs(5), events.recv())
        .await
        .expect("an answer")
        .expect("an error");
    assert_eq!(got, Err("the server answered 404 Not Found".to_string()));
    // Not after TRIES attempts 200 ms apart.
    assert!(began.elapsed() < Duration::from_secs(2));
}
