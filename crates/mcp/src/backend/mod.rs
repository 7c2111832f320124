//! The browsers behind the tools: one small trait, two implementations
//! (docs/mcp.md "Two backends"). The tools speak in tabs, operations of the
//! extension's page API and screenshots; they never know whether a CDP
//! connection (`managed`) or the user's own Chrome through our extension
//! (`extension`) is on the other side.

pub mod extension;
pub mod managed;

use crate::error::McpResult;
use async_trait::async_trait;
use sentience_tool_server::imaging::Capture;
use serde::Serialize;
use serde_json::Value;
use std::time::Duration;

/// A tab the agent may use.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TabInfo {
    pub id: u64,
    pub url: String,
    pub title: String,
}

/// The top document of a tab, as our content script sees it: `doc` is a
/// random token the content script draws once per document, so an element
/// id can be tied to the document it was read from (ids are per document).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PageState {
    pub doc: String,
    pub url: String,
    /// `document.readyState`.
    pub ready_state: String,
    /// The browser is loading a new document into the tab (the extension
    /// backend knows; the managed one answers false).
    pub loading: bool,
}

impl PageState {
    pub fn from_ping(v: &Value) -> Option<PageState> {
        let doc = v.get("doc")?.as_str()?.to_string();
        Some(PageState {
            doc,
            url: v.get("url").and_then(Value::as_str).unwrap_or("").into(),
            ready_state: v
                .get("state")
                .and_then(Value::as_str)
                .unwrap_or("complete")
                .into(),
            loading: v.get("loading").and_then(Value::as_bool).unwrap_or(false),
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackendKind {
    Managed,
    Extension,
}

#[async_trait]
pub trait Backend: Send + Sync {
    fn kind(&self) -> BackendKind;
    /// The tabs the agent may use (the extension backend: only the ones the
    /// user shared), oldest first.
    async fn tabs(&self) -> McpResult<Vec<TabInfo>>;
    /// Opens a tab (on `url`, else a blank page) the agent may use.
    async fn open_tab(&self, url: Option<&str>) -> McpResult<TabInfo>;
    async fn close_tab(&self, tab: u64) -> McpResult<()>;
    /// Loads `url` in the tab; returns the URL after redirects.
    async fn navigate(&self, tab: u64, url: &str) -> McpResult<String>;
    /// Goes back one entry of the tab's history; returns the URL then.
    async fn back(&self, tab: u64) -> McpResult<String>;
    /// An operation of the extension's page API (docs/api.md) in the tab's
    /// top frame, with the full view (frames of every origin).
    async fn call(&self, tab: u64, op: &str, args: Value) -> McpResult<Value>;
    /// The tab's top document, or None while no content script answers
    /// (loading, a page extensions cannot run on).
    async fn page_state(&self, tab: u64) -> McpResult<Option<PageState>>;
    /// The tab's visible viewport, one pixel per CSS pixel.
    async fn screenshot(&self, tab: u64) -> McpResult<Capture>;
    /// Stops the browser (managed) or lets go of the user's (extension).
    async fn shutdown(&self);
}

/// Waits until the tab's top document is another than `old` (when given)
/// and loaded, with our content script answering. A document that stays
/// the same for `same_doc_grace` while not loading is taken as a
/// same-document navigation (an SPA route change).
pub async fn wait_ready(
    backend: &dyn Backend,
    tab: u64,
    old: Option<&str>,
    timeout: Duration,
) -> McpResult<Option<PageState>> {
    const SAME_DOC_GRACE: Duration = Duration::from_millis(400);
    let start = tokio::time::Instant::now();
    let mut last = None;
    loop {
        let elapsed = start.elapsed();
        match backend.page_state(tab).await {
            Ok(Some(p)) if p.ready_state == "complete" && !p.loading => {
                let new_doc = old.is_none_or(|o| o != p.doc);
                if new_doc || elapsed >= SAME_DOC_GRACE {
                    return Ok(Some(p));
                }
                last = Some(p);
            }
            Ok(other) => last = other.or(last),
            Err(e) if elapsed >= timeout => return Err(e),
            Err(_) => {}
        }
        if elapsed >= timeout {
            return Ok(last);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
