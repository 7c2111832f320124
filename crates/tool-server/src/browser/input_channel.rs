//! A second DevTools connection to the session's browser, used for input
//! events only (docs/tools.md "Latency").
//!
//! Why not chromiumoxide's connection: its socket keeps Nagle's algorithm
//! on (no `TCP_NODELAY`), so of a click's move, press and release sent in a
//! row only the move leaves at once; the press waits in the kernel until
//! Chromium's answer to the move acknowledges it, and Chromium answers a
//! lone mouse move at the page's next frame (up to 16.7 ms). Measured on
//! the same page of the same browser: a click took 8–19 ms through
//! chromiumoxide and 1 ms through a connection without Nagle. Here the
//! socket is ours (`TCP_NODELAY`), and a batch of events goes out in one
//! write, so the press follows the move at once and flushes it.
//!
//! The protocol is CDP's flat sessions: `Target.attachToTarget` (flatten)
//! gives a session id per tab, and commands carry it. Chromium allows
//! several clients on one target; this one enables no page domain. It
//! does discover targets: Chromium creates the target of a tab a click
//! opens while it handles the click, before it acknowledges the input, and
//! the connection delivers in order, so a click knows whether it opened a
//! tab without asking for the target list.

use super::cdp::CALL_TIMEOUT;
use crate::error::{ToolError, ToolResult};
use async_tungstenite::tokio::TokioAdapter;
use async_tungstenite::tungstenite::Message;
use async_tungstenite::WebSocketSender;
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::net::TcpStream;
use tokio::sync::{oneshot, Mutex};

type Replies = Arc<std::sync::Mutex<HashMap<u64, oneshot::Sender<Result<Value, String>>>>>;
/// Target id → flat session id on this connection.
type Sessions = Arc<std::sync::Mutex<HashMap<String, String>>>;

pub(crate) struct InputChannel {
    sink: Mutex<WebSocketSender<TokioAdapter<TcpStream>>>,
    replies: Replies,
    next_id: AtomicU64,
    sessions: Sessions,
    /// Page targets created so far (tabs, popups).
    pages_created: Arc<AtomicU64>,
    reader: tokio::task::JoinHandle<()>,
}

impl Drop for InputChannel {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

fn backend(what: &str, e: impl std::fmt::Display) -> ToolError {
    ToolError::backend(what, e)
}

impl InputChannel {
    /// Connects to the browser's DevTools endpoint (`ws://127.0.0.1:port/…`).
    pub(crate) async fn connect(ws_url: &str) -> ToolResult<InputChannel> {
        let host_port = ws_url
            .strip_prefix("ws://")
            .and_then(|rest| rest.split('/').next())
            .ok_or_else(|| ToolError::Backend(format!("unexpected DevTools address: {ws_url}")))?;
        let connect = async {
            let tcp = TcpStream::connect(host_port)
                .await
                .map_err(|e| backend("connecting the input channel", e))?;
            tcp.set_nodelay(true)
                .map_err(|e| backend("setting TCP_NODELAY", e))?;
            async_tungstenite::tokio::client_async(ws_url, tcp)
                .await
                .map_err(|e| backend("opening the input channel", e))
        };
        let (ws, _) = tokio::time::timeout(CALL_TIMEOUT, connect)
            .await
            .map_err(|_| {
                ToolError::Timeout("opening the input channel".into(), CALL_TIMEOUT.as_millis())
            })??;
        let (sink, mut stream) = ws.split();
        let replies: Replies = Arc::default();
        let sessions: Sessions = Arc::default();
        let pages_created = Arc::new(AtomicU64::new(0));
        let pending = replies.clone();
        let (known, created) = (sessions.clone(), pages_created.clone());
        let reader = tokio::spawn(async move {
            while let Some(Ok(msg)) = stream.next().await {
                let Message::Text(text) = msg else { continue };
                let Ok(v) = serde_json::from_str::<Value>(text.as_str()) else {
                    continue;
                };
                let Some(id) = v.get("id").and_then(Value::as_u64) else {
                    on_event(&v, &known, &created);
                    continue;
                };
                let waiter = pending.lock().ok().and_then(|mut m| m.remove(&id));
                if let Some(tx) = waiter {
                    let answer = match v.get("error") {
                        Some(e) => Err(e["message"].as_str().unwrap_or("error").to_string()),
                        None => Ok(v.get("result").cloned().unwrap_or(Value::Null)),
                    };
                    let _ = tx.send(answer);
                }
            }
            // The connection is gone: whoever still waits gets an error
            // (dropping the senders).
            if let Ok(mut m) = pending.lock() {
                m.clear();
            }
        });
        let channel = InputChannel {
            sink: Mutex::new(sink),
            replies,
            next_id: AtomicU64::new(1),
            sessions,
            pages_created,
            reader,
        };
        channel
            .send(
                None,
                &[("Target.setDiscoverTargets", json!({"discover": true}))],
            )
            .await?;
        Ok(channel)
    }

    /// How many page targets the browser has created so far.
    pub(crate) fn pages_created(&self) -> u64 {
        self.pages_created.load(Ordering::SeqCst)
    }

    /// Sends `calls` in order in one write and waits for all answers.
    async fn send(
        &self,
        session: Option<&str>,
        calls: &[(&'static str, Value)],
    ) -> ToolResult<Vec<Value>> {
        let what = calls.first().map(|c| c.0).unwrap_or("input");
        let mut waits = Vec::with_capacity(calls.len());
        let mut ids = Vec::with_capacity(calls.len());
        {
            let mut sink = self.sink.lock().await;
            for (method, params) in calls {
                let id = self.next_id.fetch_add(1, Ordering::Relaxed);
                let (tx, rx) = oneshot::channel();
                if let Ok(mut m) = self.replies.lock() {
                    m.insert(id, tx);
                }
                ids.push(id);
                waits.push(rx);
                let mut msg = json!({"id": id, "method": method, "params": params});
                if let Some(s) = session {
                    msg["sessionId"] = Value::from(s);
                }
                sink.feed(Message::text(msg.to_string()))
                    .await
                    .map_err(|e| backend(what, e))?;
            }
            sink.flush().await.map_err(|e| backend(what, e))?;
        }
        let answers = tokio::time::timeout(CALL_TIMEOUT, futures::future::join_all(waits)).await;
        let Ok(answers) = answers else {
            if let Ok(mut m) = self.replies.lock() {
                for id in &ids {
                    m.remove(id);
                }
            }
            return Err(ToolError::Timeout(what.into(), CALL_TIMEOUT.as_millis()));
        };
        answers
            .into_iter()
            .map(|a| match a {
                Ok(Ok(v)) => Ok(v),
                Ok(Err(e)) => Err(ToolError::Backend(format!("{what} failed: {e}"))),
                Err(_) => Err(ToolError::Backend(format!(
                    "{what} failed: the browser connection closed"
                ))),
            })
            .collect()
    }

    async fn session_for(&self, target_id: &str) -> ToolResult<String> {
        if let Some(s) = self.known_session(target_id) {
            return Ok(s);
        }
        let r = self
            .send(
                None,
                &[(
                    "Target.attachToTarget",
                    json!({"targetId": target_id, "flatten": true}),
                )],
            )
            .await?;
        let session = r
            .first()
            .and_then(|v| v["sessionId"].as_str())
            .ok_or_else(|| ToolError::Backend("the browser gave no input session".into()))?
            .to_string();
        if let Ok(mut m) = self.sessions.lock() {
            m.insert(target_id.to_string(), session.clone());
        }
        Ok(session)
    }

    fn known_session(&self, target_id: &str) -> Option<String> {
        self.sessions.lock().ok()?.get(target_id).cloned()
    }

    /// Sends `events` to the tab `target_id` in order, in one write, and
    /// waits until Chromium has handled them all.
    pub(crate) async fn dispatch(
        &self,
        target_id: &str,
        events: &[(&'static str, Value)],
    ) -> ToolResult<()> {
        let session = self.session_for(target_id).await?;
        match self.send(Some(&session), events).await {
            // A tab that navigated to another process keeps its target and
            // session; a closed one loses both: forget it and attach again.
            Err(ToolError::Backend(e)) if e.to_lowercase().contains("session") => {
                if let Ok(mut m) = self.sessions.lock() {
                    m.remove(target_id);
                }
                let session = self.session_for(target_id).await?;
                self.send(Some(&session), events).await.map(drop)
            }
            other => other.map(drop),
        }
    }
}

/// Events of the connection: page targets created (counted) and sessions
/// ended (a closed tab, a crashed renderer: forgotten, so that the next
/// input attaches again).
fn on_event(v: &Value, sessions: &Sessions, pages_created: &AtomicU64) {
    match v["method"].as_str() {
        Some("Target.targetCreated")
            if v.pointer("/params/targetInfo/type") == Some(&json!("page")) =>
        {
            pages_created.fetch_add(1, Ordering::SeqCst);
        }
        Some("Target.detachedFromTarget") => {
            if let (Some(ended), Ok(mut m)) = (v.pointer("/params/sessionId"), sessions.lock()) {
                m.retain(|_, s| ended != s.as_str());
            }
        }
        _ => {}
    }
}
