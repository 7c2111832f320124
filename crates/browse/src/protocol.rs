//! The wire messages of the HTML browse protocol (docs/contracts/browse.md, in our words
//! in docs/contracts/browse.md §2): the client's `task` and `state`, the
//! server's `goto`, `click`, `type` and `finish` (and ours, `press` and
//! `wait`, for clients that accept them).

use serde::Serialize;
use serde_json::{Map, Value};

/// Longest `action` accepted (characters).
pub const MAX_ACTION_CHARS: usize = 10_000;

/// A client message (docs/contracts/browse.md "Client side").
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// Starts a conversation: the page's HTML and what the user wants.
    Task {
        html: String,
        action: String,
        /// Ours, optional: the page's URL (docs/contracts/browse.md sends none).
        url: Option<String>,
        /// Ours, optional: the answers beyond the contract's four this
        /// client can carry out (`press`, `wait`; docs/contracts/browse.md
        /// §2 "Keys and waits"). A client that sends none gets only the four.
        accepts: Vec<String>,
    },
    /// The HTML of the page after the last answer was carried out.
    State { html: String, url: Option<String> },
}

/// Why a client message is unusable (the server answers 400 with it).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RequestError {
    #[error("Body is not valid JSON: {0}")]
    Json(String),
    #[error("Body must be a JSON object")]
    NotObject,
    #[error("Missing required field \"endpoint\" (\"task\" or \"state\")")]
    MissingEndpoint,
    #[error("Unknown endpoint \"{0}\": expected \"task\" or \"state\"")]
    UnknownEndpoint(String),
    #[error("Missing required field \"{0}\"")]
    Missing(&'static str),
    #[error("\"{0}\" must be a string")]
    NotString(&'static str),
    #[error("\"action\" must not be empty")]
    EmptyAction,
    #[error("\"action\" is longer than {MAX_ACTION_CHARS} characters")]
    LongAction,
    #[error("\"accepts\" must be an array of strings (e.g. [\"press\", \"wait\"])")]
    Accepts,
}

fn string(
    obj: &Map<String, Value>,
    key: &'static str,
    required: bool,
) -> Result<Option<String>, RequestError> {
    match obj.get(key) {
        None | Some(Value::Null) if required => Err(RequestError::Missing(key)),
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(RequestError::NotString(key)),
    }
}

impl Request {
    /// Parses a message body (HTTP body or WebSocket text frame).
    pub fn parse(body: &[u8]) -> Result<Request, RequestError> {
        let value: Value =
            serde_json::from_slice(body).map_err(|e| RequestError::Json(e.to_string()))?;
        let Value::Object(obj) = value else {
            return Err(RequestError::NotObject);
        };
        let endpoint = match obj.get("endpoint") {
            None | Some(Value::Null) => return Err(RequestError::MissingEndpoint),
            Some(Value::String(s)) => s.clone(),
            Some(_) => return Err(RequestError::NotString("endpoint")),
        };
        let url = string(&obj, "url", false)?;
        match endpoint.as_str() {
            "task" => {
                let html = string(&obj, "html", true)?.unwrap_or_default();
                let action = string(&obj, "action", true)?.unwrap_or_default();
                let action = action.trim().to_string();
                if action.is_empty() {
                    return Err(RequestError::EmptyAction);
                }
                if action.chars().count() > MAX_ACTION_CHARS {
                    return Err(RequestError::LongAction);
                }
                let accepts = match obj.get("accepts") {
                    None | Some(Value::Null) => Vec::new(),
                    Some(Value::Array(items)) => items
                        .iter()
                        .map(|v| v.as_str().map(str::to_string).ok_or(RequestError::Accepts))
                        .collect::<Result<_, _>>()?,
                    Some(_) => return Err(RequestError::Accepts),
                };
                Ok(Request::Task {
                    html,
                    action,
                    url,
                    accepts,
                })
            }
            "state" => {
                let html = string(&obj, "html", true)?.unwrap_or_default();
                Ok(Request::State { html, url })
            }
            other => Err(RequestError::UnknownEndpoint(other.to_string())),
        }
    }

    pub fn html(&self) -> &str {
        match self {
            Request::Task { html, .. } | Request::State { html, .. } => html,
        }
    }

    pub fn url(&self) -> Option<&str> {
        match self {
            Request::Task { url, .. } | Request::State { url, .. } => url.as_deref(),
        }
    }
}

/// The four answers (docs/contracts/browse.md "Server side"), and ours,
/// `press` and `wait`, sent only to a client whose `task` accepts them
/// (docs/contracts/browse.md §2 "Keys and waits").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Endpoint {
    Goto,
    Click,
    Type,
    Press,
    Wait,
    Finish,
}

impl Endpoint {
    pub fn as_str(self) -> &'static str {
        match self {
            Endpoint::Goto => "goto",
            Endpoint::Click => "click",
            Endpoint::Type => "type",
            Endpoint::Press => "press",
            Endpoint::Wait => "wait",
            Endpoint::Finish => "finish",
        }
    }
}

/// Longest `wait` answered (milliseconds): a client is never held longer
/// by one answer, whatever the task says.
pub const MAX_WAIT_MS: u64 = 10_000;

/// An answer. docs/contracts/browse.md: "Reason should ALWAYS come before all other
/// information", so `reason` is the first field and serde writes fields in
/// declaration order; the others appear only for the endpoints that have
/// them, so each answer has exactly the spec's shape.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    pub reason: String,
    pub endpoint: Endpoint,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// `press`: the key (`KeyboardEvent.key` names: "Enter", "PageUp").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// `press`: how many times the key is pressed, when more than once (a
    /// slider moved by its arrow key, one press per step).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeat: Option<u32>,
    /// `wait`: how long, in milliseconds (at most [`MAX_WAIT_MS`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ms: Option<u64>,
}

impl Answer {
    pub fn goto(reason: String, url: String) -> Answer {
        Answer {
            reason,
            endpoint: Endpoint::Goto,
            url: Some(url),
            selector: None,
            text: None,
            key: None,
            repeat: None,
            ms: None,
        }
    }

    pub fn click(reason: String, selector: String) -> Answer {
        Answer {
            reason,
            endpoint: Endpoint::Click,
            url: None,
            selector: Some(selector),
            text: None,
            key: None,
            repeat: None,
            ms: None,
        }
    }

    pub fn typing(reason: String, selector: String, text: String) -> Answer {
        Answer {
            reason,
            endpoint: Endpoint::Type,
            url: None,
            selector: Some(selector),
            text: Some(text),
            key: None,
            repeat: None,
            ms: None,
        }
    }

    pub fn finish(reason: String) -> Answer {
        Answer {
            reason,
            endpoint: Endpoint::Finish,
            url: None,
            selector: None,
            text: None,
            key: None,
            repeat: None,
            ms: None,
        }
    }

    /// A key pressed in the element (`selector`), or where the focus is,
    /// `repeat` times (once when 0 or 1; capped at the planner's
    /// `MAX_REPEAT`).
    pub fn press(reason: String, selector: Option<String>, key: String, repeat: u32) -> Answer {
        Answer {
            reason,
            endpoint: Endpoint::Press,
            url: None,
            selector,
            text: None,
            key: Some(key),
            repeat: (repeat > 1).then_some(repeat.min(sentience_agent::MAX_REPEAT)),
            ms: None,
        }
    }

    /// Look again after `ms` (clamped to [`MAX_WAIT_MS`]).
    pub fn wait(reason: String, ms: u64) -> Answer {
        Answer {
            reason,
            endpoint: Endpoint::Wait,
            url: None,
            selector: None,
            text: None,
            key: None,
            repeat: None,
            ms: Some(ms.min(MAX_WAIT_MS)),
        }
    }

    /// Raw JSON (docs/contracts/browse.md: "formatted as raw json").
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| {
            // Only strings and a unit enum: serialisation cannot fail.
            String::from("{\"reason\":\"internal error\",\"endpoint\":\"finish\"}")
        })
    }
}
