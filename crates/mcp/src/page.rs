//! What the server knows of a tab's page: the snapshots it took, tied to
//! the document they were read from. Element ids are stable within one
//! document and mean nothing in another (docs/api.md "Stable ids and
//! diffs"), so every id an agent sends is checked against the document of
//! the snapshot it came from: the agent never acts on another element than
//! the one it saw (docs/mcp.md "Element ids").

use crate::backend::Backend;
use crate::error::{McpError, McpResult};
use sentience_snapshot_query::{Element, Snapshot};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};

/// One snapshot, with the document it belongs to. Its element ids (and
/// its diff's) are the agent's: the engine's plus `base`.
#[derive(Debug, Clone)]
pub struct Snap {
    pub doc: String,
    /// Added to the engine's ids of this document (see `View::base`).
    pub base: u32,
    pub snapshot: Snapshot,
}

impl Snap {
    pub fn id(&self) -> u32 {
        self.snapshot.snapshot_id.unwrap_or(0)
    }

    pub fn element(&self, id: u32) -> Option<&Element> {
        self.snapshot.elements.iter().find(|e| e.id == id)
    }

    /// The engine's id of the agent's element `id`.
    pub fn engine_id(&self, id: u32) -> u32 {
        id.saturating_sub(self.base)
    }
}

/// What is remembered of a tab.
///
/// The engine numbers the elements of each document from 1, so the same
/// number names different elements on two pages a tab showed one after the
/// other. The agent is given ids that never repeat within a tab: each new
/// document's ids are shifted past every id given before (`base`), as
/// Playwright's refs keep counting across navigations. An id from a page the
/// tab has left is then unknown here, never another element.
#[derive(Debug, Default, Clone)]
pub struct View {
    /// The last snapshot taken (by any tool).
    pub last: Option<Snap>,
    /// Every element of this document the agent was shown or could have
    /// been (the last snapshot's), by id: removed ones are remembered too,
    /// so a stale id gets "removed", not "unknown".
    pub known: HashMap<u32, Element>,
    /// The snapshot the agent last received as a listing (`browser_snapshot`),
    /// the base of its next `diff`.
    pub listed: Option<u32>,
    /// The highest id given in this tab so far.
    pub top: u32,
    /// Elements the agent typed into or chose an option of since the last
    /// snapshot was recorded: their new text or value is what the agent
    /// asked for, so the next action's diff does not repeat it.
    pub set_by_agent: HashSet<u32>,
}

impl View {
    /// Records a new snapshot; a new document forgets the old one's ids.
    pub fn record(&mut self, snap: Snap) {
        if self.last.as_ref().is_some_and(|l| l.doc != snap.doc) {
            self.known.clear();
            self.listed = None;
        }
        self.set_by_agent.clear();
        for e in &snap.snapshot.elements {
            self.top = self.top.max(e.id);
            self.known.insert(e.id, e.clone());
        }
        self.last = Some(snap);
    }

    pub fn doc(&self) -> Option<&str> {
        self.last.as_ref().map(|s| s.doc.as_str())
    }

    /// The agent's ids of this document start above this.
    pub fn base(&self) -> u32 {
        self.last.as_ref().map_or(0, |s| s.base)
    }

    /// The base of `doc`'s ids: the current one for the same document,
    /// past every id given so far for a new one.
    fn base_for(&self, doc: &str) -> u32 {
        match &self.last {
            Some(l) if l.doc == doc => l.base,
            _ => self.top,
        }
    }
}

/// Snapshot options for a tool's snapshot.
#[derive(Debug, Clone, Default)]
pub struct Take {
    /// Diff against this earlier snapshot of the view's document, if the
    /// tab still shows that document.
    pub since: Option<u32>,
    /// Wait for the DOM to be quiet first (after actions and navigations).
    pub settle: bool,
}

/// Shifts a snapshot's element ids (and its diff's) by `base`.
fn shift(snapshot: &mut Snapshot, base: u32) {
    if base == 0 {
        return;
    }
    for e in &mut snapshot.elements {
        e.id = e.id.saturating_add(base);
    }
    if let Some(d) = &mut snapshot.diff {
        for list in [&mut d.added, &mut d.removed, &mut d.changed] {
            for id in list.iter_mut() {
                *id = id.saturating_add(base);
            }
        }
    }
}

/// Takes a snapshot of the tab's top document (frames merged, full scope),
/// with the agent's ids for `view`'s tab.
pub async fn take(backend: &dyn Backend, tab: u64, view: &View, opts: &Take) -> McpResult<Snap> {
    let state = backend.page_state(tab).await?;
    let Some(state) = state else {
        return Err(no_content_script(backend, tab).await);
    };
    let mut args = json!({});
    let since = opts
        .since
        .filter(|_| view.doc() == Some(state.doc.as_str()));
    if let Some(since) = since {
        args["since"] = since.into();
    }
    if opts.settle {
        args["wait_for_stable"] = json!({"quiet_ms": 150, "timeout_ms": 1500});
    }
    let mut raw = backend.call(tab, "snapshot", args.clone()).await?;
    // The base may have been forgotten (the engine keeps the last 4): the
    // snapshot is then taken whole.
    if since.is_some() && is_error(&raw) {
        args.as_object_mut().map(|o| o.remove("since"));
        raw = backend.call(tab, "snapshot", args).await?;
    }
    let mut snapshot = Snapshot::from_value(&raw)
        .map_err(|e| McpError::Browser(format!("snapshot failed: {e}")))?;
    let base = view.base_for(&state.doc);
    shift(&mut snapshot, base);
    Ok(Snap {
        doc: state.doc,
        base,
        snapshot,
    })
}

fn is_error(v: &Value) -> bool {
    v.get("status").and_then(Value::as_str) == Some("error")
}

/// Why a tab has no snapshot: which page it shows.
pub async fn no_content_script(backend: &dyn Backend, tab: u64) -> McpError {
    let url = backend
        .tabs()
        .await
        .ok()
        .and_then(|t| t.into_iter().find(|t| t.id == tab))
        .map(|t| t.url)
        .unwrap_or_default();
    if url.is_empty()
        || url == "about:blank"
        || !url.starts_with("http") && !url.starts_with("file:")
    {
        McpError::NotFound(format!(
            "Tab {tab} shows {}: there is no page to read yet. Open one with browser_navigate",
            if url.is_empty() { "nothing" } else { &url }
        ))
    } else {
        McpError::Browser(format!(
            "The page in tab {tab} ({url}) does not answer yet (still loading, or a page the extension cannot run on). Try again, or browser_wait_for"
        ))
    }
}

/// The per-tab memory of one server (shared by all its MCP sessions).
#[derive(Default)]
pub struct Views(tokio::sync::Mutex<HashMap<u64, View>>);

impl Views {
    pub async fn get(&self, tab: u64) -> View {
        self.0.lock().await.get(&tab).cloned().unwrap_or_default()
    }

    pub async fn update<R>(&self, tab: u64, f: impl FnOnce(&mut View) -> R) -> R {
        f(self.0.lock().await.entry(tab).or_default())
    }

    pub async fn forget(&self, tab: u64) {
        self.0.lock().await.remove(&tab);
    }

    pub async fn clear(&self) {
        self.0.lock().await.clear();
    }
}
