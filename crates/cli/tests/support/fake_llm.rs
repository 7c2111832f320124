//! The only fake of the replica tests: an OpenAI-compatible chat-completions
//! endpoint answering from a script (shared by every replica), which
//! records when each request came and went and how many were in flight at
//! once, so a test can see whether two decisions overlapped.

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Clone)]
pub struct FakeLlm {
    pub base: String,
    script: Arc<Mutex<VecDeque<(Duration, Value)>>>,
    in_flight: Arc<AtomicUsize>,
    most_in_flight: Arc<AtomicUsize>,
    calls: Arc<AtomicUsize>,
}

/// A tool call answer (`name` with `args`).
pub fn tool_call(name: &str, args: Value) -> Value {
    json!({"id": "x", "object": "chat.completion", "choices": [{"index": 0, "finish_reason": "tool_calls",
        "message": {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
            "function": {"name": name, "arguments": args.to_string()}}]}}]})
}

impl FakeLlm {
    pub async fn start() -> FakeLlm {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let f = FakeLlm {
            base: format!("http://{}/v1", listener.local_addr().expect("addr")),
            script: Arc::default(),
            in_flight: Arc::default(),
            most_in_flight: Arc::default(),
            calls: Arc::default(),
        };
        let app = Router::new()
            .route("/v1/chat/completions", post(chat))
            .with_state(f.clone());
        tokio::spawn(async move { axum::serve(listener, app).await });
        f
    }

    /// The next answer, given after `delay`.
    pub fn push(&self, delay: Duration, answer: Value) {
        self.script.lock().expect("lock").push_back((delay, answer));
    }

    pub fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }

    /// The most requests that were being answered at the same time.
    pub fn most_in_flight(&self) -> usize {
        self.most_in_flight.load(Ordering::SeqCst)
    }
}

async fn chat(State(f): State<FakeLlm>, Json(_body): Json<Value>) -> axum::response::Response {
    use axum::response::IntoResponse;
    f.calls.fetch_add(1, Ordering::SeqCst);
    let now = f.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    f.most_in_flight.fetch_max(now, Ordering::SeqCst);
    let next = f.script.lock().expect("lock").pop_front();
    let r = match next {
        Some((delay, answer)) => {
            tokio::time::sleep(delay).await;
            Json(answer).into_response()
        }
        None => (
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            "script exhausted",
        )
            .into_response(),
    };
    f.in_flight.fetch_sub(1, Ordering::SeqCst);
    r
}
