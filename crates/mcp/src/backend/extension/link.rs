//! The server's end of the extension link: at most one paired extension at
//! a time (a newer connection replaces the older), requests matched to their
//! answers by id, and every waiting request failed at once when the
//! extension goes away (unpaired, browser closed, worker stopped).

use super::wire::{Method, ToExtension};
use crate::error::{McpError, McpResult};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch};

type Pending = HashMap<u64, oneshot::Sender<Result<Value, String>>>;

/// One connection of the extension.
pub(super) struct Connection {
    pub(super) number: u64,
    pub(super) out: mpsc::UnboundedSender<String>,
    /// Closes the socket task (a newer connection replaced it).
    pub(super) replaced: Option<oneshot::Sender<()>>,
}

#[derive(Default)]
struct State {
    conn: Option<Connection>,
    pending: Pending,
}

pub struct Link {
    state: Mutex<State>,
    next_id: AtomicU64,
    next_conn: AtomicU64,
    connected: watch::Sender<bool>,
}

impl Default for Link {
    fn default() -> Self {
        Link {
            state: Mutex::default(),
            next_id: AtomicU64::new(1),
            next_conn: AtomicU64::new(1),
            connected: watch::Sender::new(false),
        }
    }
}

/// Why the extension cannot be reached, and what the user does about it.
pub const NOT_CONNECTED: &str = "The Sentience extension is not connected. In Chrome: open the Sentience extension's popup, \
     section \"Agent (MCP)\", paste the pairing code (`sentience mcp --browser extension --pairing-code` prints it), \
     and tick the tabs the agent may use. Ask the user to do this.";

impl Link {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn is_connected(&self) -> bool {
        *self.connected.borrow()
    }

    /// Registers a new connection (replacing any older one); returns its number.
    pub(super) fn attach(
        &self,
        out: mpsc::UnboundedSender<String>,
        replaced: oneshot::Sender<()>,
    ) -> u64 {
        let number = self.next_conn.fetch_add(1, Ordering::SeqCst);
        let old = {
            let mut s = self.lock();
            let old = s.conn.replace(Connection {
                number,
                out,
                replaced: Some(replaced),
            });
            fail_all(&mut s.pending, "the extension reconnected; try again");
            old
        };
        if let Some(mut old) = old {
            if let Some(tx) = old.replaced.take() {
                let _ = tx.send(());
            }
        }
        self.connected.send_replace(true);
        number
    }

    /// The connection `number` has gone.
    pub(super) fn detach(&self, number: u64) {
        let mut s = self.lock();
        if s.conn.as_ref().map(|c| c.number) == Some(number) {
            s.conn = None;
            fail_all(
                &mut s.pending,
                "the extension disconnected (the user unpaired it, closed the browser, or the link dropped)",
            );
            drop(s);
            self.connected.send_replace(false);
        }
    }

    /// An answer from the extension.
    pub(super) fn resolve(&self, id: u64, answer: Result<Value, String>) {
        if let Some(tx) = self.lock().pending.remove(&id) {
            let _ = tx.send(answer);
        }
    }

    /// Waits up to `wait` for the extension to be connected.
    pub async fn wait_connected(&self, wait: Duration) -> bool {
        let mut rx = self.connected.subscribe();
        let ok = tokio::time::timeout(wait, rx.wait_for(|c| *c)).await;
        matches!(ok, Ok(Ok(_)))
    }

    /// Sends a request and waits for its answer.
    pub async fn request(
        &self,
        method: Method,
        params: Value,
        timeout: Duration,
    ) -> McpResult<Value> {
        if !self.is_connected() && !self.wait_connected(Duration::from_secs(5)).await {
            return Err(McpError::Unavailable(NOT_CONNECTED.into()));
        }
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        let text = serde_json::to_string(&ToExtension::Request {
            id,
            method,
            params: &params,
        })
        .map_err(|e| McpError::Browser(format!("encoding a request: {e}")))?;
        let (tx, rx) = oneshot::channel();
        {
            let mut s = self.lock();
            let Some(conn) = s.conn.as_ref() else {
                return Err(McpError::Unavailable(NOT_CONNECTED.into()));
            };
            if conn.out.send(text).is_err() {
                return Err(McpError::Unavailable(NOT_CONNECTED.into()));
            }
            s.pending.insert(id, tx);
        }
        let answer = tokio::time::timeout(timeout, rx).await;
        match answer {
            Ok(Ok(Ok(v))) => Ok(v),
            Ok(Ok(Err(e))) => Err(classify(e)),
            Ok(Err(_)) => Err(McpError::Unavailable(NOT_CONNECTED.into())),
            Err(_) => {
                self.lock().pending.remove(&id);
                Err(McpError::Browser(format!(
                    "the extension did not answer {} within {} s",
                    method.name(),
                    timeout.as_secs()
                )))
            }
        }
    }

    /// Sends a message that expects no answer (a ping).
    pub(super) fn send_raw(&self, text: String) -> bool {
        self.lock()
            .conn
            .as_ref()
            .is_some_and(|c| c.out.send(text).is_ok())
    }
}

fn fail_all(pending: &mut Pending, why: &str) {
    for (_, tx) in pending.drain() {
        let _ = tx.send(Err(why.to_string()));
    }
}

/// The extension's refusals keep their meaning: a tab the user did not
/// share is "not found" to the agent, never "forbidden" with its details.
fn classify(e: String) -> McpError {
    if e.starts_with("not shared:") || e.starts_with("no tab:") {
        McpError::NotFound(e)
    } else if e.starts_with("not connected") {
        McpError::Unavailable(e)
    } else {
        McpError::Browser(e)
    }
}

pub type SharedLink = Arc<Link>;
