//! A thin client of the tool server's HTTP API (docs/contracts/tools.md §3;
//! docs/tools.md): builds the spec's requests with its exact field names,
//! over the injected [`Http`]. Failures come back in the spec's own shape
//! (`{"success": false, "error": …}`) so the rules above can read them.

use crate::io::{Http, Method, Request};
use serde_json::{json, Map, Value};
use std::cell::RefCell;

pub struct ToolClient<H> {
    pub http: H,
    base: String,
    token: Option<String>,
    /// The session calls go to; `None` → the tool server's active session.
    session: RefCell<Option<String>>,
}

impl<H: Http> ToolClient<H> {
    pub fn new(http: H, base_url: &str) -> Self {
        ToolClient {
            http,
            base: base_url.trim_end_matches('/').to_string(),
            token: None,
            session: RefCell::new(None),
        }
    }

    pub fn with_token(mut self, token: Option<String>) -> Self {
        self.token = token.filter(|t| !t.is_empty());
        self
    }

    pub fn base_url(&self) -> &str {
        &self.base
    }

    pub fn session_id(&self) -> Option<String> {
        self.session.borrow().clone()
    }

    pub fn set_session_id(&self, id: Option<String>) {
        *self.session.borrow_mut() = id;
    }

    fn headers(&self) -> Vec<(String, String)> {
        match &self.token {
            Some(t) => vec![("Authorization".into(), format!("Bearer {t}"))],
            None => Vec::new(),
        }
    }

    /// POST `path` with `body` (the session id added when known and absent).
    pub async fn post(&self, path: &str, body: Value) -> Value {
        let mut body = match body {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        let mut url = format!("{}{}", self.base, path);
        if let Some(s) = self.session_id() {
            if crate::routing::session_in_query(path) {
                url.push_str(&format!("?session_id={}", encode(&s)));
            } else if path != "/browser/start" {
                body.entry("session_id").or_insert(json!(s));
            }
        }
        self.call(Method::Post, url, Some(Value::Object(body)))
            .await
    }

    /// GET `path` (`?session_id=` added when known).
    pub async fn get(&self, path: &str) -> Value {
        let mut url = format!("{}{}", self.base, path);
        if let Some(s) = self.session_id() {
            let sep = if path.contains('?') { '&' } else { '?' };
            url.push_str(&format!("{sep}session_id={}", encode(&s)));
        }
        self.call(Method::Get, url, None).await
    }

    async fn call(&self, method: Method, url: String, body: Option<Value>) -> Value {
        let req = Request {
            method,
            url,
            headers: self.headers(),
            body,
        };
        match self.http.send(req).await {
            Ok(resp) => normalise(resp.status, resp.body),
            Err(e) => json!({
                "success": false,
                "error": format!("tool server unreachable: {e}"),
                "transport_error": true,
            }),
        }
    }

    /// docs/contracts/tools.md §11 `POST /browser/start`; adopts the new session id.
    pub async fn start_browser(&self, start_url: Option<&str>) -> Value {
        let mut body = json!({ "headless": true });
        if let Some(u) = start_url {
            body["start_url"] = json!(u);
        }
        let r = self.post("/browser/start", body).await;
        if let Some(id) = r["session_id"].as_str() {
            self.set_session_id(Some(id.to_string()));
        }
        r
    }
}

/// Every answer as an object with a boolean `success`: a 4xx/5xx without the
/// spec's body still says what happened.
fn normalise(status: u16, body: Value) -> Value {
    let ok = (200..300).contains(&status);
    match body {
        Value::Object(mut m) => {
            if !m.contains_key("success") {
                m.insert("success".into(), json!(ok));
            }
            if !ok && !m.contains_key("error") {
                let msg = m
                    .get("detail")
                    .or_else(|| m.get("message"))
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("HTTP {status}"));
                m.insert("error".into(), json!(msg));
            }
            Value::Object(m)
        }
        other if ok => json!({ "success": true, "value": other }),
        _ => json!({ "success": false, "error": format!("HTTP {status}") }),
    }
}

/// Percent-encoding for a query value (session ids are plain, but a
/// caller-chosen one must not break the URL).
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The error text of a spec-shaped failure.
pub fn error_of(v: &Value) -> String {
    v["error"]
        .as_str()
        .map(str::to_string)
        .unwrap_or_else(|| "unknown error".to_string())
}

pub fn succeeded(v: &Value) -> bool {
    v["success"].as_bool() == Some(true)
}
