//! Where the agent is: `browser_navigate`, `browser_navigate_back`,
//! `browser_tabs` and `browser_close`. Navigations answer with the new
//! page's listing (budgeted), so the agent can act without another call.

use super::params::{NavigateParams, TabAction, TabsParams};
use crate::backend::{wait_ready, BackendKind};
use crate::error::{McpError, McpResult};
use crate::page::Take;
use crate::server::{Reply, SentienceMcp};
use crate::tools::act::{listing_only, page_listing, PAGE_BUDGET};
use std::time::Duration;

const LOAD_TIMEOUT: Duration = Duration::from_secs(20);

/// `example.com` → `https://example.com`; only http, https and file.
pub fn normalise_url(url: &str) -> McpResult<String> {
    let url = url.trim();
    if url.is_empty() {
        return Err(McpError::BadInput("url is empty".into()));
    }
    let lower = url.to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("file://")
    {
        return Ok(url.to_string());
    }
    if lower.contains("://") || lower.starts_with("javascript:") || lower.starts_with("data:") {
        return Err(McpError::BadInput(format!(
            "only http, https and file URLs can be opened: {url}"
        )));
    }
    let local =
        lower.starts_with("localhost") || lower.starts_with("127.") || lower.starts_with("[::1]");
    Ok(format!("{}://{url}", if local { "http" } else { "https" }))
}

/// Whether a page's address is the one asked for, but for a trailing `/`
/// (`https://example.com` opens `https://example.com/`).
fn same_address(asked: &str, url: &str) -> bool {
    asked.trim_end_matches('/') == url.trim_end_matches('/')
}

impl SentienceMcp {
    /// The listing of the page a navigation landed on; its address first
    /// unless it is the one `asked` (the agent knows it already).
    async fn landed(
        &self,
        tab: u64,
        old_doc: Option<&str>,
        asked: Option<&str>,
    ) -> McpResult<String> {
        wait_ready(self.backend(), tab, old_doc, LOAD_TIMEOUT).await?;
        let (_, snap) = self
            .look(
                tab,
                &Take {
                    since: None,
                    settle: true,
                },
            )
            .await?;
        let text = if asked.is_some_and(|a| same_address(a, &snap.snapshot.url)) {
            listing_only(&snap.snapshot, PAGE_BUDGET)
        } else {
            page_listing(&snap.snapshot, PAGE_BUDGET)
        };
        self.remember(tab, snap, true).await;
        Ok(text)
    }

    pub(crate) async fn navigate(&self, p: NavigateParams) -> McpResult<Reply> {
        let url = normalise_url(&p.url)?;
        let tab = self.tab().await?;
        let old = self.shared.views.get(tab).await;
        self.backend().navigate(tab, &url).await?;
        Ok(Reply::text(self.landed(tab, old.doc(), Some(&url)).await?))
    }

    pub(crate) async fn navigate_back(&self) -> McpResult<Reply> {
        let tab = self.tab().await?;
        let old = self.shared.views.get(tab).await;
        self.backend().back(tab).await?;
        Ok(Reply::text(self.landed(tab, old.doc(), None).await?))
    }

    async fn tab_list(&self) -> McpResult<String> {
        let tabs = self.backend().tabs().await?;
        let current = self.current();
        if tabs.is_empty() {
            return Ok("No tabs.".into());
        }
        let mut out = String::from("Tabs (id, title, URL; * current):\n");
        for t in tabs {
            let mark = if Some(t.id) == current { "*" } else { " " };
            let title = sentience_snapshot_query::format::clean(&t.title, 60);
            out.push_str(&format!("{mark} {} \"{title}\" {}\n", t.id, t.url));
        }
        Ok(out)
    }

    pub(crate) async fn tabs_tool(&self, p: TabsParams) -> McpResult<Reply> {
        match p.action {
            TabAction::List => Ok(Reply::text(self.tab_list().await?)),
            TabAction::New => {
                let url = p.url.as_deref().map(normalise_url).transpose()?;
                let t = self.backend().open_tab(url.as_deref()).await?;
                self.opened().push(t.id);
                self.claim(t.id)?;
                let page = if url.is_some() {
                    self.landed(t.id, None, None).await?
                } else {
                    "(blank: browser_navigate opens a page in it)\n".into()
                };
                Ok(Reply::text(format!(
                    "Opened tab {} (now current).\n{page}",
                    t.id
                )))
            }
            TabAction::Select => {
                let id = p.tab.ok_or_else(|| {
                    McpError::BadInput(
                        "select which tab? Give `tab` (an id from browser_tabs)".into(),
                    )
                })?;
                let tabs = self.backend().tabs().await?;
                let t = tabs.iter().find(|t| t.id == id).ok_or_else(|| {
                    McpError::NotFound(format!(
                        "No tab {id} (browser_tabs lists the tabs you may use)"
                    ))
                })?;
                self.claim(id)?;
                Ok(Reply::text(format!(
                    "Tab {id} is now current: {} {}\nbrowser_snapshot lists its page.",
                    t.title, t.url
                )))
            }
            TabAction::Close => {
                let id = match p.tab.or(self.current()) {
                    Some(id) => id,
                    None => return Err(McpError::BadInput("close which tab? Give `tab`".into())),
                };
                let tabs = self.backend().tabs().await?;
                if !tabs.iter().any(|t| t.id == id) {
                    return Err(McpError::NotFound(format!(
                        "No tab {id} (browser_tabs lists the tabs you may use)"
                    )));
                }
                self.backend().close_tab(id).await?;
                self.shared.views.forget(id).await;
                self.release(id);
                self.opened().retain(|t| *t != id);
                Ok(Reply::text(format!(
                    "Closed tab {id}.\n{}",
                    self.tab_list().await?
                )))
            }
        }
    }

    pub(crate) async fn close(&self) -> McpResult<Reply> {
        let mine: Vec<u64> = self.opened().drain(..).collect();
        if self.backend().kind() == BackendKind::Managed
            && self.shared.only_session(self.session.id)
        {
            self.shared.backend.shutdown().await;
            if let Some(t) = self.current() {
                self.release(t);
            }
            self.shared.views.clear().await;
            return Ok(Reply::text("Closed the browser (the next browser tool starts it again, with the same profile)."));
        }
        for t in &mine {
            let _ = self.backend().close_tab(*t).await;
            self.shared.views.forget(*t).await;
            self.release(*t);
        }
        if let Some(t) = self.current() {
            self.release(t);
        }
        Ok(Reply::text(format!(
            "Closed {} tab(s) this agent opened; let go of the others.",
            mine.len()
        )))
    }
}

#[cfg(test)]
mod tests;
