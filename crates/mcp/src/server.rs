//! The MCP server: what all its sessions share (the browser backend, what
//! is known of each tab's page, the configuration) and what each session
//! has of its own (its current tab, the tabs it opened). Over stdio there
//! is one session; over HTTP each client has one, and two agents never
//! share a tab by accident: a tab in use by one session is not given to
//! another (docs/mcp.md "Tabs").

use crate::backend::{Backend, BackendKind};
use crate::careful::Mode;
use crate::error::{McpError, McpResult};
use crate::page::{self, Snap, Take, View, Views};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResult, ContentBlock};
use sentience_agent::Policy;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

pub struct Config {
    pub mode: Mode,
    /// The decision engine of `sentience_run_task` (the built-in planner,
    /// or the configured LLM).
    pub policy: Arc<dyn Policy>,
}

/// Shared by every session of one server.
pub struct Shared {
    pub backend: Arc<dyn Backend>,
    pub views: Views,
    pub config: Config,
    /// Which session uses which tab.
    claims: Mutex<HashMap<u64, u64>>,
    next_session: AtomicU64,
    /// Sessions alive now.
    live: AtomicU64,
}

impl Shared {
    pub fn new(backend: Arc<dyn Backend>, config: Config) -> Arc<Shared> {
        Arc::new(Shared {
            backend,
            views: Views::default(),
            config,
            claims: Mutex::default(),
            next_session: AtomicU64::new(1),
            live: AtomicU64::new(0),
        })
    }

    /// Whether `session` is the only one alive.
    pub fn only_session(&self, _session: u64) -> bool {
        self.live.load(Ordering::SeqCst) <= 1
    }

    fn claims(&self) -> std::sync::MutexGuard<'_, HashMap<u64, u64>> {
        self.claims.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One MCP session's own state.
pub struct Session {
    pub id: u64,
    shared: Arc<Shared>,
    current: Mutex<Option<u64>>,
    /// Tabs this session opened (closed by `browser_close` in the extension backend).
    pub opened: Mutex<Vec<u64>>,
}

impl Drop for Session {
    fn drop(&mut self) {
        self.shared.claims().retain(|_, s| *s != self.id);
        self.shared.live.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The MCP handler: one per session, cheap to clone.
#[derive(Clone)]
pub struct SentienceMcp {
    pub(crate) shared: Arc<Shared>,
    pub(crate) session: Arc<Session>,
    pub(crate) tool_router: ToolRouter<SentienceMcp>,
}

/// What a tool answers: text, and an image for screenshots.
pub struct Reply {
    pub text: String,
    pub image: Option<(String, &'static str)>,
}

impl Reply {
    pub fn text(text: impl Into<String>) -> Reply {
        Reply {
            text: text.into(),
            image: None,
        }
    }
}

/// A tool's result for the host: failures are tool results marked
/// `isError`, so that the model reads what went wrong and what to do.
pub fn to_result(r: McpResult<Reply>) -> CallToolResult {
    match r {
        Ok(Reply { text, image }) => {
            let mut content = vec![ContentBlock::text(text)];
            if let Some((data, mime)) = image {
                content.push(ContentBlock::image(data, mime));
            }
            CallToolResult::success(content)
        }
        Err(e) => CallToolResult::error(vec![ContentBlock::text(e.to_string())]),
    }
}

impl SentienceMcp {
    pub fn new(shared: Arc<Shared>) -> SentienceMcp {
        let id = shared.next_session.fetch_add(1, Ordering::SeqCst);
        shared.live.fetch_add(1, Ordering::SeqCst);
        SentienceMcp {
            session: Arc::new(Session {
                id,
                shared: shared.clone(),
                current: Mutex::new(None),
                opened: Mutex::default(),
            }),
            shared,
            tool_router: Self::tools(),
        }
    }

    pub fn backend(&self) -> &dyn Backend {
        self.shared.backend.as_ref()
    }

    pub(crate) fn current(&self) -> Option<u64> {
        *self
            .session
            .current
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// Makes `tab` this session's current tab (refused when another
    /// session uses it).
    pub(crate) fn claim(&self, tab: u64) -> McpResult<()> {
        let mut claims = self.shared.claims();
        match claims.get(&tab) {
            Some(&s) if s != self.session.id => {
                return Err(McpError::Unavailable(format!(
                    "Tab {tab} is in use by another agent (another MCP session): pick another tab or open one (browser_tabs)"
                )))
            }
            _ => {}
        }
        claims.insert(tab, self.session.id);
        *self
            .session
            .current
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(tab);
        Ok(())
    }

    pub(crate) fn release(&self, tab: u64) {
        self.shared.claims().remove(&tab);
        let mut cur = self
            .session
            .current
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if *cur == Some(tab) {
            *cur = None;
        }
    }

    /// The tab this session works in: its current one, else a tab no other
    /// session uses (the most recent), else a new one.
    pub(crate) async fn tab(&self) -> McpResult<u64> {
        if let Some(t) = self.current() {
            return Ok(t);
        }
        let tabs = self.backend().tabs().await?;
        let free = {
            let claims = self.shared.claims();
            tabs.iter()
                .rev()
                .find(|t| claims.get(&t.id).is_none_or(|s| *s == self.session.id))
                .map(|t| t.id)
        };
        let tab = match free {
            Some(t) => t,
            None if self.backend().kind() == BackendKind::Extension && tabs.is_empty() => {
                return Err(McpError::Unavailable(
                    "No tab is shared with the agent. Ask the user to open the Sentience extension's popup and tick the tab(s) the agent may use, or open one with browser_tabs action=new".into(),
                ))
            }
            None => {
                let t = self.backend().open_tab(None).await?;
                self.opened().push(t.id);
                t.id
            }
        };
        self.claim(tab)?;
        Ok(tab)
    }

    pub(crate) fn opened(&self) -> std::sync::MutexGuard<'_, Vec<u64>> {
        self.session
            .opened
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// A snapshot of `tab` (ids as the agent knows them), and the view
    /// before it.
    pub(crate) async fn look(&self, tab: u64, opts: &Take) -> McpResult<(View, Snap)> {
        let view = self.shared.views.get(tab).await;
        let snap = page::take(self.backend(), tab, &view, opts).await?;
        Ok((view, snap))
    }

    /// Records `snap` as the tab's last snapshot; `listed`: the agent read
    /// it (the base of its next diff).
    pub(crate) async fn remember(&self, tab: u64, snap: Snap, listed: bool) {
        let id = snap.id();
        self.shared
            .views
            .update(tab, |v| {
                v.record(snap);
                if listed {
                    v.listed = Some(id);
                }
            })
            .await;
    }
}
