//! `--browser managed`: a Chromium of ours with the extension loaded,
//! started on first use on a persistent profile, driven over CDP through the
//! tool server's session code (crates/tool-server/src/browser/: the
//! launcher, tabs with ids never reused, and `SentienceTrusted.call`, the
//! extension's page API with the full view). A session acts on its active
//! tab, so each call makes its tab the active one first, one call at a time.

use super::{Backend, BackendKind, PageState, TabInfo};
use crate::error::{McpError, McpResult};
use async_trait::async_trait;
use sentience_tool_server::browser::attach_retry::{while_detached, DETACHED_FOR_AT_MOST};
use sentience_tool_server::browser::{BrowserLauncher, BrowserSession, HistoryStep, LaunchRequest};
use sentience_tool_server::error::ToolError;
use sentience_tool_server::geometry::DEFAULT_VIEWPORT;
use sentience_tool_server::imaging::Capture;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::Mutex;

static PING: std::sync::LazyLock<Value> = std::sync::LazyLock::new(|| json!({}));

pub struct ManagedBackend {
    launcher: Arc<dyn BrowserLauncher>,
    profile_dir: PathBuf,
    headless: bool,
    /// The running browser, started on first use (again after a crash).
    browser: Mutex<Option<Arc<dyn BrowserSession>>>,
    /// Held while a call makes its tab the active one and runs.
    one_call: Mutex<()>,
}

impl ManagedBackend {
    pub fn new(launcher: Arc<dyn BrowserLauncher>, profile_dir: PathBuf, headless: bool) -> Self {
        ManagedBackend {
            launcher,
            profile_dir,
            headless,
            browser: Mutex::new(None),
            one_call: Mutex::new(()),
        }
    }

    async fn browser(&self) -> McpResult<Arc<dyn BrowserSession>> {
        let mut slot = self.browser.lock().await;
        if let Some(b) = slot.as_ref() {
            if b.is_alive().await {
                return Ok(b.clone());
            }
            tracing::warn!("the browser is gone (crashed or closed): starting a new one");
            b.close().await;
            *slot = None;
        }
        let b = self
            .launcher
            .launch(LaunchRequest {
                profile_dir: self.profile_dir.clone(),
                headless: self.headless,
                start_url: None,
                viewport: DEFAULT_VIEWPORT,
            })
            .await
            .map_err(|e| match e {
                // A profile in use: say which and what to do (docs/mcp.md).
                ToolError::Conflict(m) => McpError::Unavailable(format!(
                    "{m} (sentience mcp --profile-dir DIR picks another profile)"
                )),
                other => other.into(),
            })?;
        *slot = Some(b.clone());
        Ok(b)
    }

    /// Runs `f` with `tab` as the browser's active tab. A tab still
    /// swapping in its first page (seen right after a start) is given a
    /// moment and tried again (the tool server's one rule, `attach_retry`).
    async fn on_tab<'f, T, F>(&self, tab: u64, f: F) -> McpResult<T>
    where
        F: Fn(Arc<dyn BrowserSession>) -> futures::future::BoxFuture<'f, Result<T, ToolError>>,
    {
        let b = self.browser().await?;
        let _one = self.one_call.lock().await;
        let current = b.tabs().await?.into_iter().find(|t| t.is_current);
        if current.map(|t| t.id) != Some(tab) {
            b.switch_tab(tab).await.map_err(|e| match e {
                ToolError::NotFound(_) => McpError::NotFound(format!(
                    "Tab {tab} is closed: browser_tabs lists the open ones"
                )),
                other => other.into(),
            })?;
        }
        Ok(while_detached(DETACHED_FOR_AT_MOST, || f(b.clone())).await?)
    }
}

#[async_trait]
impl Backend for ManagedBackend {
    fn kind(&self) -> BackendKind {
        BackendKind::Managed
    }

    async fn tabs(&self) -> McpResult<Vec<TabInfo>> {
        let b = self.browser().await?;
        Ok(b.tabs()
            .await?
            .into_iter()
            .map(|t| TabInfo {
                id: t.id,
                url: t.url,
                title: t.title,
            })
            .collect())
    }

    async fn open_tab(&self, url: Option<&str>) -> McpResult<TabInfo> {
        let b = self.browser().await?;
        let _one = self.one_call.lock().await;
        let t = b.new_tab(url).await?;
        Ok(TabInfo {
            id: t.id,
            url: t.url,
            title: t.title,
        })
    }

    async fn close_tab(&self, tab: u64) -> McpResult<()> {
        let b = self.browser().await?;
        let _one = self.one_call.lock().await;
        b.close_tab(Some(tab)).await?;
        Ok(())
    }

    async fn navigate(&self, tab: u64, url: &str) -> McpResult<String> {
        self.on_tab(tab, |b| Box::pin(async move { b.navigate(url).await }))
            .await
    }

    async fn back(&self, tab: u64) -> McpResult<String> {
        self.on_tab(tab, |b| {
            Box::pin(async move { b.history(HistoryStep::Back).await })
        })
        .await
    }

    async fn call(&self, tab: u64, op: &str, args: Value) -> McpResult<Value> {
        let r = self
            .on_tab(tab, |b| {
                let args = &args;
                Box::pin(async move { b.extension_call(op, args).await })
            })
            .await;
        r.map_err(|e| match e {
            // The page went away under the call (a click that navigated):
            // said so, so that the caller can wait for the next page.
            McpError::Browser(m)
                if m.contains("context was destroyed")
                    || m.contains("Cannot find context")
                    || m.contains("navigated or closed") =>
            {
                McpError::Browser(format!("navigated: {m}"))
            }
            other => other,
        })
    }

    async fn page_state(&self, tab: u64) -> McpResult<Option<PageState>> {
        let r = self
            .on_tab(tab, |b| {
                Box::pin(async move { b.extension_call("ping", &PING).await })
            })
            .await;
        match r {
            Ok(v) => Ok(PageState::from_ping(&v)),
            // No content script (yet): loading, or a page extensions skip.
            Err(McpError::Unavailable(_)) | Err(McpError::Browser(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    async fn screenshot(&self, tab: u64) -> McpResult<Capture> {
        self.on_tab(tab, |b| Box::pin(async move { b.screenshot().await }))
            .await
    }

    async fn shutdown(&self) {
        if let Some(b) = self.browser.lock().await.take() {
            // Browser.close lets Chromium save the profile (logins survive).
            b.close().await;
        }
    }
}
