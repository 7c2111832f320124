//! The page the server benchmarks step on (`sentience bench-server` and the
//! `step_cost` example), kept in one place so both measure the same input.

use serde_json::{json, Value};

/// A login page as the extension sends it: 3 form controls and 37 links
/// (about 3 KB of JSON).
pub fn login_page_snapshot() -> Value {
    let mut elements = vec![
        json!({"id": "agent-1", "tag": "input", "type": "text", "placeholder": "Username", "name": "username"}),
        json!({"id": "agent-2", "tag": "input", "type": "password", "placeholder": "Password", "name": "password"}),
        json!({"id": "agent-3", "tag": "button", "text": "Log in"}),
    ];
    for i in 4..=40 {
        elements.push(json!({"id": format!("agent-{i}"), "tag": "a", "text": format!("Article number {i}"), "href": format!("/a/{i}")}));
    }
    json!({"url": "http://127.0.0.1/login", "title": "Login", "visibleText": "Please log in to continue. ".repeat(40),
           "elements": elements, "timestamp": 1_737_292_800_000u64})
}
