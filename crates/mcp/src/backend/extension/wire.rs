//! The messages between the server and the extension's service worker over
//! the loopback WebSocket (docs/mcp.md "The extension link"). One JSON
//! object per WebSocket text message. The extension's side of this wire is
//! extension/mcp/link.js; its names are in extension/protocol.js `MCP`, and
//! tests/unit/mcp-link.test.mjs checks that both spell them the same.
//!
//! ```text
//! extension → server  {"type":"hello","token":"…","version":"0.1.0"}      first message
//! server → extension  {"type":"welcome"} | close 4001 (wrong token)
//! server → extension  {"type":"request","id":7,"method":"call","params":{…}}
//! extension → server  {"type":"result","id":7,"ok":true,"value":…}
//!                     {"type":"result","id":7,"ok":false,"error":"…"}
//! server → extension  {"type":"ping"}   every 20 s (keeps the worker awake)
//! extension → server  {"type":"pong"}
//! ```

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The WebSocket close code for a refused pairing token.
pub const CLOSE_BAD_TOKEN: u16 = 4001;
/// The close code when a newer connection of the extension replaces this one.
pub const CLOSE_REPLACED: u16 = 4002;

/// What the extension sends.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromExtension {
    Hello {
        token: String,
        #[serde(default)]
        version: String,
    },
    Result {
        id: u64,
        ok: bool,
        #[serde(default)]
        value: Value,
        #[serde(default)]
        error: Option<String>,
    },
    Pong,
}

/// What the server sends.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToExtension<'a> {
    Welcome,
    Request {
        id: u64,
        method: Method,
        params: &'a Value,
    },
    Ping,
}

/// What the server may ask of the extension. Every method that names a
/// tab is refused by the extension unless the user shared that tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// `{}` → `[{id, url, title}]`: the shared tabs.
    Tabs,
    /// `{url?}` → `{id, url, title}`: a new tab, shared (the agent's own).
    OpenTab,
    /// `{tabId}` → `{}`.
    CloseTab,
    /// `{tabId, url}` → `{url}` once loaded.
    Navigate,
    /// `{tabId}` → `{url}` once loaded.
    Back,
    /// `{tabId, op, args}` → what the page API answers (full scope).
    Call,
    /// `{tabId}` → `{doc, url, state, loading}` or null.
    PageState,
    /// `{tabId}` → `{dataUrl}` (PNG of the visible viewport).
    Screenshot,
}

impl Method {
    pub const ALL: [Method; 8] = [
        Method::Tabs,
        Method::OpenTab,
        Method::CloseTab,
        Method::Navigate,
        Method::Back,
        Method::Call,
        Method::PageState,
        Method::Screenshot,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Method::Tabs => "tabs",
            Method::OpenTab => "open_tab",
            Method::CloseTab => "close_tab",
            Method::Navigate => "navigate",
            Method::Back => "back",
            Method::Call => "call",
            Method::PageState => "page_state",
            Method::Screenshot => "screenshot",
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
