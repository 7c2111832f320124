//! What `sentience run` prints comes from the agent server's live stream
//! of the run (`GET /agent/run/:runId/stream`, docs/server.md "The live
//! run stream"), the same events the extension's side panel and the SDKs
//! read: `follow` keeps a stream open (reconnecting with `since` when the
//! server closes it with 1001 or the connection drops), and `Printer` turns
//! events into the lines a person reads.

use async_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use async_tungstenite::tungstenite::{Error as WsError, Message};
use futures::StreamExt;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::sync::mpsc;

/// Connection attempts in a row before the stream is given up.
const TRIES: u32 = 20;

/// Why a connection ended without the run's end.
enum Broken {
    /// The server answered the handshake with an HTTP error (no stream
    /// route, a proxy that does not pass WebSockets, a refused key):
    /// retrying would get the same answer.
    Refused(String),
    /// The connection failed or dropped: try again.
    Dropped(String),
}

/// The run's events, in order, each once; the channel closes after the
/// run's last event, or carries an error when the stream cannot be had
/// or kept.
pub fn follow(server: &str, run_id: &str) -> mpsc::UnboundedReceiver<Result<Value, String>> {
    let (tx, rx) = mpsc::unbounded_channel();
    let base = server
        .replacen("http://", "ws://", 1)
        .replacen("https://", "wss://", 1);
    let url = format!("{}/agent/run/{run_id}/stream", base.trim_end_matches('/'));
    tokio::spawn(async move {
        let mut since = 0i64;
        let mut failures = 0;
        loop {
            match read(&format!("{url}?since={since}"), &mut since, &tx).await {
                Ok(true) => return,
                Ok(false) => failures = 0,
                Err(Broken::Refused(e)) => {
                    let _ = tx.send(Err(e));
                    return;
                }
                Err(Broken::Dropped(e)) => {
                    failures += 1;
                    if failures >= TRIES {
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            }
            if tx.is_closed() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    });
    rx
}

/// One connection: `Ok(true)` once the run ended (close 1000), `Ok(false)`
/// when the server went away (1001: reconnect with `since`).
async fn read(
    url: &str,
    since: &mut i64,
    tx: &mpsc::UnboundedSender<Result<Value, String>>,
) -> Result<bool, Broken> {
    let (mut ws, _) = match async_tungstenite::tokio::connect_async(url).await {
        Ok(c) => c,
        Err(WsError::Http(resp)) => {
            return Err(Broken::Refused(format!(
                "the server answered {}",
                resp.status()
            )))
        }
        Err(e) => return Err(Broken::Dropped(e.to_string())),
    };
    while let Some(msg) = ws.next().await {
        match msg.map_err(|e| Broken::Dropped(e.to_string()))? {
            Message::Text(t) => {
                let ev: Value = serde_json::from_str(&t)
                    .map_err(|e| Broken::Refused(format!("an event is not JSON: {e}")))?;
                if let Some(seq) = ev["seq"].as_i64() {
                    *since = seq;
                }
                if tx.send(Ok(ev)).is_err() {
                    return Ok(true);
                }
            }
            Message::Close(frame) => {
                return match frame.map(|f| f.code) {
                    Some(CloseCode::Normal) => Ok(true),
                    // Stopping (1001): another replica, or this one again.
                    Some(CloseCode::Away) | None => Ok(false),
                    // 1011, the store could not be read: a failure.
                    Some(code) => Err(Broken::Dropped(format!("the stream closed with {code}"))),
                };
            }
            _ => {}
        }
    }
    Ok(false)
}

/// Turns events into printed lines. A tool line is printed once its result
/// is known: the next step reports it (`lastActionResult`).
#[derive(Default)]
pub struct Printer {
    /// The last `tool_proposed`, waiting for its result.
    pending: Option<Value>,
    pub result: Option<String>,
    pub error: Option<String>,
    /// The step of the last line printed.
    pub last_step: Option<u64>,
}

fn tool_line(ev: &Value, result: Option<&Value>) -> String {
    let tool = &ev["tool"];
    tool_text(
        tool["name"].as_str().unwrap_or("?"),
        &tool["parameters"],
        ev["target"].as_str(),
        result,
    )
}

/// One tool as a line: `click "Sign in" ✓`, `type "Email" ← "a@b.c" ✗ why`.
/// The stream's events and the extension's log (`run_poll.rs`) both print
/// through it, so the two read the same.
pub fn tool_text(name: &str, p: &Value, target: Option<&str>, result: Option<&Value>) -> String {
    let target = target
        .map(|t| format!(" \"{t}\""))
        .or_else(|| p["url"].as_str().map(|u| format!(" {u}")))
        .or_else(|| p["key"].as_str().map(|k| format!(" {k}")))
        .unwrap_or_default();
    let typed = p["text"]
        .as_str()
        .filter(|_| name == "type")
        .map(|t| format!(" ← \"{t}\""))
        .unwrap_or_default();
    let outcome = match result {
        Some(r) if r["success"] == json!(true) => " ✓".to_string(),
        Some(r) => format!(
            " ✗ {}",
            r["error"].as_str().or(r["message"].as_str()).unwrap_or("")
        ),
        None => String::new(),
    };
    format!("{name}{target}{typed}{outcome}")
}

/// A line of the run's log as `sentience run` has always printed it (the
/// fallback in `run_poll.rs` prints the extension's log the same way).
pub fn numbered(step: u64, text: &str) -> String {
    format!("  [{step:>3}] {text}")
}

impl Printer {
    fn push(&mut self, out: &mut Vec<String>, ev: &Value, text: String) {
        let step = ev["step"].as_u64().unwrap_or(0);
        self.last_step = Some(step);
        out.push(numbered(step, &text));
    }

    pub fn lines(&mut self, ev: &Value) -> Vec<String> {
        let mut out = Vec::new();
        match ev["type"].as_str().unwrap_or("") {
            "step_started" => {
                if let Some(tool) = self.pending.take() {
                    let last = ev.get("lastActionResult").filter(|r| !r.is_null());
                    self.push(&mut out, &tool, tool_line(&tool, last));
                }
            }
            // An observe needs no line of its own.
            "tool_proposed" if ev["tool"]["name"] != "observe" => {
                self.pending = Some(ev.clone());
            }
            "question_asked" => {
                let question = ev["question"].as_str().unwrap_or("");
                self.push(&mut out, ev, format!("asks: {question}"));
            }
            "answer_given" => {
                let said = match (ev["approved"].as_bool(), ev["answer"].as_str()) {
                    (Some(true), Some(a)) => format!("you answered: {a}"),
                    (Some(true), None) => "you approved".to_string(),
                    _ => "you refused".to_string(),
                };
                self.push(&mut out, ev, said);
            }
            "reflection" if ev["reflection"]["shouldAdjust"] == json!(true) => {
                let r = &ev["reflection"];
                let issues: Vec<&str> = r["issues"]
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                self.push(&mut out, ev, format!("reflects: {}", issues.join("; ")));
            }
            "finish" => {
                if let Some(tool) = self.pending.take() {
                    self.push(&mut out, &tool, tool_line(&tool, None));
                }
                let result = ev["result"].as_str().unwrap_or("").to_string();
                self.push(&mut out, ev, format!("finished: {result}"));
                self.result = Some(result);
            }
            "error" => {
                self.error = ev["error"].as_str().map(str::to_string);
            }
            _ => {}
        }
        out
    }
}

/// The status a `status_changed` event ends the run with, if it does.
pub fn ended(ev: &Value) -> Option<&str> {
    (ev["type"] == "status_changed")
        .then(|| ev["to"].as_str())
        .flatten()
        .filter(|to| matches!(*to, "completed" | "error" | "cancelled"))
}

#[cfg(test)]
mod tests;
