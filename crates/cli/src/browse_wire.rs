//! The client's half of the HTML browse protocol (docs/browse.md, the
//! contract in docs/contracts/browse.md): the two requests it sends and the four answers it
//! accepts, read from the raw bytes so that a server breaking the contract
//! (reason not first, a missing field, an unknown endpoint) is reported as
//! such instead of being half-understood. Free of I/O, tested natively.

use serde_json::{json, Map, Value};

/// One answer of the server (docs/contracts/browse.md "Server side").
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Goto {
        url: String,
    },
    Click {
        selector: String,
    },
    Type {
        selector: String,
        text: String,
    },
    /// Ours (docs/contracts/browse.md §2 "Keys and waits"): a key, in the
    /// element when a selector is given, else where the focus is.
    Press {
        selector: Option<String>,
        key: String,
        /// How many times (1 unless the answer says `repeat`).
        repeat: u32,
    },
    /// Ours: look again after `ms` milliseconds.
    Wait {
        ms: u64,
    },
    Finish,
}

/// The answers beyond the contract's four this client carries out, sent in
/// `task`'s `accepts` (a server that does not know them ignores the key).
pub const ACCEPTS: [&str; 2] = ["press", "wait"];
/// The most times one `press` answer repeats its key, whatever the server
/// asks (the planner's own cap).
pub const MAX_REPEAT: u32 = 500;
/// The longest `wait` carried out, whatever the server asks (milliseconds).
pub const MAX_WAIT_MS: u64 = 10_000;

#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub reason: String,
    pub action: Action,
    /// Keys the contract does not define (tolerated: a server may add its
    /// own, e.g. a step number; listed so a test client can show them).
    pub extra_keys: Vec<String>,
}

/// What can be wrong with what came back.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WireError {
    /// The server answered with its error format (`{"error", "message"}`).
    #[error("the server refused: {0}")]
    Server(String),
    /// The answer breaks docs/contracts/browse.md.
    #[error("protocol violation: {0}")]
    Violation(String),
}

/// docs/contracts/browse.md "Client side / Task". `url` (the page's address) is ours,
/// after the spec's keys: the spec sends none, but a server needs it to tell
/// whether a link leads elsewhere and to read relative links
/// (docs/browse.md "What is sent"); `--no-url` leaves it out.
pub fn task_request(html: &str, action: &str, url: Option<&str>) -> Value {
    let mut v = json!({"endpoint": "task", "html": html, "action": action});
    if let Some(u) = url {
        v["url"] = json!(u);
        v["accepts"] = json!(ACCEPTS);
    }
    v
}

/// docs/contracts/browse.md "Client side / State" (and our optional `url`).
pub fn state_request(html: &str, url: Option<&str>) -> Value {
    let mut v = json!({"endpoint": "state", "html": html});
    if let Some(u) = url {
        v["url"] = json!(u);
    }
    v
}

fn violation(s: impl Into<String>) -> WireError {
    WireError::Violation(s.into())
}

fn shorten(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    let s = s.trim();
    if s.chars().count() > 200 {
        format!("{}…", s.chars().take(200).collect::<String>())
    } else {
        s.to_string()
    }
}

/// The server's error format: `{"error": "...", "message": "..."}` (docs/api.md),
/// or `{"detail": ...}` from a FastAPI-style implementation.
fn server_error(obj: &Map<String, Value>) -> Option<String> {
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    match (obj.get("error"), obj.get("message"), obj.get("detail")) {
        (Some(e), Some(m), _) => Some(format!("{}: {}", text(e), text(m))),
        (Some(e), None, _) => Some(text(e)),
        (None, Some(m), _) if !obj.contains_key("endpoint") => Some(text(m)),
        (None, _, Some(d)) if !obj.contains_key("endpoint") => Some(text(d)),
        _ => None,
    }
}

fn string_field(obj: &Map<String, Value>, key: &str, endpoint: &str) -> Result<String, WireError> {
    match obj.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.clone()),
        Some(Value::String(_)) => Err(violation(format!(
            "the `{endpoint}` answer has an empty `{key}`"
        ))),
        Some(other) => Err(violation(format!(
            "the `{endpoint}` answer's `{key}` is not a string: {other}"
        ))),
        None => Err(violation(format!("the `{endpoint}` answer has no `{key}`"))),
    }
}

/// Reads one answer from its raw bytes. `status` is the HTTP status (200
/// over the WebSocket). The key order is read from the bytes themselves
/// (serde_json keeps it: the crate is built with `preserve_order`).
pub fn parse_answer(status: u16, bytes: &[u8]) -> Result<Answer, WireError> {
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) if (200..300).contains(&status) => {
            return Err(violation(format!(
                "the answer is not JSON ({e}): {}",
                shorten(bytes)
            )))
        }
        Err(_) => {
            return Err(WireError::Server(format!(
                "HTTP {status}: {}",
                shorten(bytes)
            )))
        }
    };
    let Value::Object(obj) = value else {
        return Err(violation(format!(
            "the answer is not a JSON object: {}",
            shorten(bytes)
        )));
    };
    if let Some(e) = server_error(&obj) {
        return Err(WireError::Server(if (200..300).contains(&status) {
            e
        } else {
            format!("HTTP {status}: {e}")
        }));
    }
    if !(200..300).contains(&status) {
        return Err(WireError::Server(format!(
            "HTTP {status}: {}",
            shorten(bytes)
        )));
    }
    // docs/contracts/browse.md "API": "Reason should ALWAYS come before all other information".
    match obj.keys().next().map(String::as_str) {
        Some("reason") => {}
        Some(first) => {
            return Err(violation(format!(
                "`reason` must be the first key of every answer, but `{first}` comes first: {}",
                shorten(bytes)
            )))
        }
        None => return Err(violation("the answer is an empty object")),
    }
    let endpoint = match obj.get("endpoint") {
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            return Err(violation(format!(
                "the answer's `endpoint` is not a string: {other}"
            )))
        }
        None => return Err(violation("the answer has no `endpoint`")),
    };
    let reason = string_field(&obj, "reason", &endpoint)?;
    let (action, known): (Action, &[&str]) = match endpoint.as_str() {
        "goto" => (
            Action::Goto {
                url: string_field(&obj, "url", "goto")?,
            },
            &["url"],
        ),
        "click" => (
            Action::Click {
                selector: string_field(&obj, "selector", "click")?,
            },
            &["selector"],
        ),
        "type" => {
            let text = match obj.get("text") {
                Some(Value::String(s)) => s.clone(),
                Some(other) => {
                    return Err(violation(format!(
                        "the `type` answer's `text` is not a string: {other}"
                    )))
                }
                None => return Err(violation("the `type` answer has no `text`")),
            };
            (
                Action::Type {
                    selector: string_field(&obj, "selector", "type")?,
                    text,
                },
                &["selector", "text"],
            )
        }
        "press" => {
            let selector = match obj.get("selector") {
                None | Some(Value::Null) => None,
                Some(_) => Some(string_field(&obj, "selector", "press")?),
            };
            let repeat = match obj.get("repeat") {
                None | Some(Value::Null) => 1,
                Some(v) => v
                    .as_u64()
                    .filter(|n| (1..=u64::from(MAX_REPEAT)).contains(n))
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| {
                        violation(format!(
                            "the `press` answer's `repeat` is not a whole number from 1 to {MAX_REPEAT}: {v}"
                        ))
                    })?,
            };
            (
                Action::Press {
                    selector,
                    key: string_field(&obj, "key", "press")?,
                    repeat,
                },
                &["selector", "key", "repeat"],
            )
        }
        "wait" => {
            let ms = obj.get("ms").and_then(Value::as_u64).ok_or_else(|| {
                violation("the `wait` answer's `ms` is missing or not a whole number")
            })?;
            (
                Action::Wait {
                    ms: ms.min(MAX_WAIT_MS),
                },
                &["ms"],
            )
        }
        "finish" => (Action::Finish, &[]),
        other => {
            return Err(violation(format!(
                "unknown endpoint `{other}` (docs/contracts/browse.md answers are goto, click, type and finish; ours press and wait)"
            )))
        }
    };
    let extra_keys = obj
        .keys()
        .filter(|k| !matches!(k.as_str(), "reason" | "endpoint") && !known.contains(&k.as_str()))
        .cloned()
        .collect();
    Ok(Answer {
        reason,
        action,
        extra_keys,
    })
}

/// The progress line for an answer.
pub fn describe(action: &Action) -> String {
    match action {
        Action::Goto { url } => format!("goto {url}"),
        Action::Click { selector } => format!("click {selector}"),
        Action::Type { selector, text } => format!("type {} into {selector}", json!(text)),
        Action::Press {
            selector,
            key,
            repeat,
        } => {
            let times = if *repeat > 1 {
                format!(" ×{repeat}")
            } else {
                String::new()
            };
            match selector {
                Some(s) => format!("press {key}{times} in {s}"),
                None => format!("press {key}{times}"),
            }
        }
        Action::Wait { ms } => format!("wait {ms} ms"),
        Action::Finish => "finish".to_string(),
    }
}

#[cfg(test)]
mod tests;
