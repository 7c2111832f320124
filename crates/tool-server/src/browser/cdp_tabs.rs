//! Tabs of a CDP session (docs/contracts/tools.md §13). Ids are small
//! integers given in order of discovery, kept for the tab's life and never
//! reused, so an id a client holds never silently points at another tab.
//! Tabs opened by the page (`target=_blank`, `window.open`) are discovered
//! from the browser's target list; a click reports the ones it opened.

use super::cdp::{eval, CdpSession, CALL_TIMEOUT};
use super::{BrowserSession, TabInfo};
use crate::error::{ToolError, ToolResult};
use chromiumoxide::cdp::browser_protocol::target::TargetId;
use chromiumoxide::Page;
use serde_json::{json, Value};
use std::time::Duration;

#[derive(Default)]
pub(crate) struct TabRegistry {
    next_id: u64,
    tabs: Vec<Tab>,
    current: Option<u64>,
}

struct Tab {
    id: u64,
    target_id: String,
    page: Option<Page>,
    url: String,
    title: String,
}

impl TabRegistry {
    pub(crate) fn ids(&self) -> Vec<u64> {
        self.tabs.iter().map(|t| t.id).collect()
    }

    fn infos(&self) -> Vec<TabInfo> {
        self.tabs
            .iter()
            .map(|t| TabInfo {
                id: t.id,
                url: t.url.clone(),
                title: t.title.clone(),
                is_current: Some(t.id) == self.current,
            })
            .collect()
    }

    /// Merges the browser's page targets: known ones keep their id, new
    /// ones get the next id, vanished ones are dropped.
    fn merge(&mut self, targets: &[Value]) {
        let pages: Vec<&Value> = targets
            .iter()
            .filter(|t| {
                t["type"] == "page" && !t["url"].as_str().unwrap_or("").starts_with("devtools://")
            })
            .collect();
        self.tabs.retain(|tab| {
            pages
                .iter()
                .any(|p| p["targetId"] == tab.target_id.as_str())
        });
        // getTargets lists the newest first: discover oldest first.
        for p in pages.iter().rev() {
            let target_id = p["targetId"].as_str().unwrap_or_default().to_string();
            let url = p["url"].as_str().unwrap_or_default().to_string();
            let title = p["title"].as_str().unwrap_or_default().to_string();
            match self.tabs.iter_mut().find(|t| t.target_id == target_id) {
                Some(t) => {
                    t.url = url;
                    t.title = title;
                }
                None => {
                    let id = self.next_id;
                    self.next_id += 1;
                    self.tabs.push(Tab {
                        id,
                        target_id,
                        page: None,
                        url,
                        title,
                    });
                }
            }
        }
        if !self
            .current
            .is_some_and(|c| self.tabs.iter().any(|t| t.id == c))
        {
            self.current = self.tabs.last().map(|t| t.id);
        }
    }
}

impl CdpSession {
    pub(crate) async fn refresh_tabs(&self) -> ToolResult<Vec<TabInfo>> {
        let r = self.browser_call("Target.getTargets", json!({})).await?;
        let targets = r["targetInfos"].as_array().cloned().unwrap_or_default();
        let mut reg = self.tabs.lock().await;
        reg.merge(&targets);
        Ok(reg.infos())
    }

    async fn page_for(&self, id: u64) -> ToolResult<Page> {
        let target_id = {
            let reg = self.tabs.lock().await;
            let tab = reg
                .tabs
                .iter()
                .find(|t| t.id == id)
                .ok_or_else(|| ToolError::NotFound(format!("Tab not found: {id}")))?;
            if let Some(p) = &tab.page {
                return Ok(p.clone());
            }
            tab.target_id.clone()
        };
        // chromiumoxide attaches to new targets on its own; wait for it.
        let mut last = None;
        for _ in 0..100 {
            let got = {
                let browser = self.browser.lock().await;
                browser.get_page(TargetId::from(target_id.clone())).await
            };
            match got {
                Ok(page) => {
                    // Every tab gets the session's viewport; a tab still
                    // swapping in its first page may refuse it: it is then
                    // tried again at the next use.
                    if self.fix_viewport(&page).await.is_ok() {
                        let mut reg = self.tabs.lock().await;
                        if let Some(t) = reg.tabs.iter_mut().find(|t| t.id == id) {
                            t.page = Some(page.clone());
                        }
                    }
                    return Ok(page);
                }
                Err(e) => last = Some(e),
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Err(ToolError::Backend(format!(
            "Tab {id} cannot be driven: {}",
            last.map(|e| e.to_string()).unwrap_or_default()
        )))
    }

    /// The page of the active tab (after a refresh when it vanished).
    pub(crate) async fn active_page(&self) -> ToolResult<Page> {
        if self.exited().await {
            return Err(ToolError::Backend(
                "The browser of this session is not running (it crashed or was closed): start a new session".into(),
            ));
        }
        let mut current = self.tabs.lock().await.current;
        if current.is_none() {
            self.refresh_tabs().await?;
            current = self.tabs.lock().await.current;
        }
        let id = current.ok_or_else(|| {
            ToolError::Conflict(
                "The browser has no open tab: open one with POST /browser/tab/new".into(),
            )
        })?;
        match self.page_for(id).await {
            Ok(p) => Ok(p),
            Err(ToolError::NotFound(_)) => {
                self.refresh_tabs().await?;
                let id = self.tabs.lock().await.current.ok_or_else(|| {
                    ToolError::Conflict(
                        "The browser has no open tab: open one with POST /browser/tab/new".into(),
                    )
                })?;
                self.page_for(id).await
            }
            Err(e) => Err(e),
        }
    }

    pub(crate) async fn open_tab(&self, url: &str) -> ToolResult<TabInfo> {
        let r = self
            .browser_call("Target.createTarget", json!({"url": "about:blank"}))
            .await?;
        let target_id = r["targetId"].as_str().unwrap_or_default().to_string();
        self.refresh_tabs().await?;
        let id = {
            let reg = self.tabs.lock().await;
            reg.tabs
                .iter()
                .find(|t| t.target_id == target_id)
                .map(|t| t.id)
                .ok_or_else(|| ToolError::Backend("the new tab vanished".into()))?
        };
        self.page_for(id).await?;
        if url != "about:blank" {
            // Navigation acts on the active tab: make it so meanwhile.
            let prev = self.tabs.lock().await.current.replace(id);
            let nav = self.navigate(url).await;
            self.tabs.lock().await.current = prev;
            nav?;
        }
        let info = self.refresh_tabs().await?;
        info.into_iter()
            .find(|t| t.id == id)
            .ok_or_else(|| ToolError::Backend("the new tab vanished".into()))
    }

    pub(crate) async fn close_tab_by_id(&self, id: Option<u64>) -> ToolResult<usize> {
        self.refresh_tabs().await?;
        let (target_id, was_current) = {
            let reg = self.tabs.lock().await;
            let id = id
                .or(reg.current)
                .ok_or_else(|| ToolError::Conflict("The browser has no open tab".into()))?;
            let tab = reg
                .tabs
                .iter()
                .find(|t| t.id == id)
                .ok_or_else(|| ToolError::NotFound(format!("Tab not found: {id}")))?;
            (tab.target_id.clone(), reg.current == Some(id))
        };
        self.browser_call("Target.closeTarget", json!({"targetId": target_id}))
            .await?;
        // Closing is asynchronous: wait until the target is gone.
        for _ in 0..100 {
            let tabs = self.refresh_tabs().await?;
            if !self
                .tabs
                .lock()
                .await
                .tabs
                .iter()
                .any(|t| t.target_id == target_id)
            {
                if was_current {
                    if let Some(last) = tabs.last() {
                        self.switch_to(last.id).await?;
                    }
                }
                return Ok(tabs.len());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        Err(ToolError::Timeout(
            "closing the tab".into(),
            CALL_TIMEOUT.as_millis(),
        ))
    }

    pub(crate) async fn switch_to(&self, id: u64) -> ToolResult<TabInfo> {
        self.refresh_tabs().await?;
        let page = self.page_for(id).await?;
        self.tabs.lock().await.current = Some(id);
        // Bring it to the front (headed) and give it focus for input.
        let _ = super::cdp::page_call(&page, "Page.bringToFront", json!({})).await;
        let url = self.current_url().await?;
        let title = eval(&page, "document.title")
            .await
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default();
        Ok(TabInfo {
            id,
            url,
            title,
            is_current: true,
        })
    }

    /// A tab that appeared since `before` (ids of the registry then). The
    /// renderer asks the browser for a new window synchronously while it
    /// handles the click, so the target exists when the input call returns;
    /// its URL may still be about:blank for a moment, so it is awaited.
    pub(crate) async fn tab_opened_since(&self, before: &[u64]) -> ToolResult<Option<TabInfo>> {
        let tabs = self.refresh_tabs().await?;
        let Some(new) = tabs.into_iter().find(|t| !before.contains(&t.id)) else {
            return Ok(None);
        };
        for _ in 0..50 {
            let tabs = self.refresh_tabs().await?;
            match tabs.into_iter().find(|t| t.id == new.id) {
                Some(t) if t.url != "about:blank" && !t.url.is_empty() => return Ok(Some(t)),
                Some(_) => tokio::time::sleep(Duration::from_millis(20)).await,
                None => return Ok(Some(new)),
            }
        }
        Ok(Some(new))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
