//! `--browser extension`: the user's own running Chrome, through our
//! installed extension (docs/mcp.md "Your own Chrome"). The extension's
//! service worker connects out to this server's loopback WebSocket
//! (`socket`), proves it was paired (`pairing`), and then answers requests
//! (`wire`) for the tabs the user shared, and only those: every tab
//! question is decided in the extension (extension/mcp/), so this server
//! never learns that other tabs exist. Snapshots and actions go through
//! our content scripts in the full scope; screenshots through
//! `chrome.tabs.captureVisibleTab`. No `chrome.debugger`.

pub mod link;
pub mod pairing;
pub mod socket;
pub mod wire;

use super::{Backend, BackendKind, PageState, TabInfo};
use crate::error::{McpError, McpResult};
use async_trait::async_trait;
use base64::Engine;
use link::Link;
use sentience_tool_server::imaging::Capture;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use wire::Method;

/// A call may wait for the page to settle; a navigation for a slow site.
const CALL_TIMEOUT: Duration = Duration::from_secs(60);
const NAVIGATION_TIMEOUT: Duration = Duration::from_secs(60);
const QUICK_TIMEOUT: Duration = Duration::from_secs(15);

pub struct ExtensionBackend {
    link: Arc<Link>,
}

impl ExtensionBackend {
    pub fn new(link: Arc<Link>) -> Self {
        ExtensionBackend { link }
    }

    async fn ask(&self, method: Method, params: Value, timeout: Duration) -> McpResult<Value> {
        self.link.request(method, params, timeout).await
    }
}

fn tab_of(v: &Value) -> McpResult<TabInfo> {
    Ok(TabInfo {
        id: v.get("id").and_then(Value::as_u64).ok_or_else(|| {
            McpError::Browser(format!("the extension sent a tab without id: {v}"))
        })?,
        url: v.get("url").and_then(Value::as_str).unwrap_or("").into(),
        title: v.get("title").and_then(Value::as_str).unwrap_or("").into(),
    })
}

fn url_of(v: &Value) -> String {
    v.get("url").and_then(Value::as_str).unwrap_or("").into()
}

#[async_trait]
impl Backend for ExtensionBackend {
    fn kind(&self) -> BackendKind {
        BackendKind::Extension
    }

    async fn tabs(&self) -> McpResult<Vec<TabInfo>> {
        let v = self.ask(Method::Tabs, json!({}), QUICK_TIMEOUT).await?;
        v.as_array()
            .map(|a| a.iter().map(tab_of).collect())
            .unwrap_or_else(|| Ok(Vec::new()))
    }

    async fn open_tab(&self, url: Option<&str>) -> McpResult<TabInfo> {
        let v = self
            .ask(Method::OpenTab, json!({"url": url}), NAVIGATION_TIMEOUT)
            .await?;
        tab_of(&v)
    }

    async fn close_tab(&self, tab: u64) -> McpResult<()> {
        self.ask(Method::CloseTab, json!({"tabId": tab}), QUICK_TIMEOUT)
            .await
            .map(drop)
    }

    async fn navigate(&self, tab: u64, url: &str) -> McpResult<String> {
        let v = self
            .ask(
                Method::Navigate,
                json!({"tabId": tab, "url": url}),
                NAVIGATION_TIMEOUT,
            )
            .await?;
        Ok(url_of(&v))
    }

    async fn back(&self, tab: u64) -> McpResult<String> {
        let v = self
            .ask(Method::Back, json!({"tabId": tab}), NAVIGATION_TIMEOUT)
            .await?;
        Ok(url_of(&v))
    }

    async fn call(&self, tab: u64, op: &str, args: Value) -> McpResult<Value> {
        self.ask(
            Method::Call,
            json!({"tabId": tab, "op": op, "args": args}),
            CALL_TIMEOUT,
        )
        .await
    }

    async fn page_state(&self, tab: u64) -> McpResult<Option<PageState>> {
        let v = self
            .ask(Method::PageState, json!({"tabId": tab}), QUICK_TIMEOUT)
            .await?;
        Ok(PageState::from_ping(&v))
    }

    async fn screenshot(&self, tab: u64) -> McpResult<Capture> {
        let v = self
            .ask(Method::Screenshot, json!({"tabId": tab}), QUICK_TIMEOUT)
            .await?;
        let url = v
            .get("dataUrl")
            .and_then(Value::as_str)
            .ok_or_else(|| McpError::Browser("the extension sent no screenshot".into()))?;
        let b64 = url
            .strip_prefix("data:image/png;base64,")
            .ok_or_else(|| McpError::Browser("the extension's screenshot is not a PNG".into()))?;
        let png = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .map_err(|e| McpError::Browser(format!("decoding the screenshot: {e}")))?;
        Ok(Capture::from_png(png)?)
    }

    async fn shutdown(&self) {}
}
