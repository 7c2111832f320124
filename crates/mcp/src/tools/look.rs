//! Reading the page: `browser_snapshot` (the budgeted listing, filtered, or
//! a diff since the agent's last look), `browser_find` (the query
//! language) and `browser_wait_for` (text, text gone, an element, or time).

use super::params::{FindParams, SnapshotParams, WaitForParams};
use crate::error::{McpError, McpResult};
use crate::listing;
use crate::page::{self, Take};
use crate::progress::Progress;
use crate::server::{Reply, SentienceMcp};
use crate::tools::act::{page_listing, DIFF_BUDGET};
use rmcp::service::{RequestContext, RoleServer};
use sentience_snapshot_query::Query;
use serde_json::{json, Value};
use std::time::Duration;

/// `max_tokens` of `browser_snapshot` when not given: the 2,000
/// (issue 22). A hard cap, not the answer's size: the listing stops when
/// the rest of the page is not worth its tokens (listing::page).
pub const SNAPSHOT_BUDGET: usize = 2000;
const FIND_BUDGET: usize = 600;
/// `browser_wait_for`'s limit when a condition is given without `time`.
const WAIT_DEFAULT: Duration = Duration::from_secs(10);
const WAIT_MAX: Duration = Duration::from_secs(120);

/// Collapsed, lower-cased text, for "does the page show this".
fn fold(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

impl SentienceMcp {
    pub(crate) async fn snapshot(&self, p: SnapshotParams) -> McpResult<Reply> {
        let tab = self.tab().await?;
        let view = self.shared.views.get(tab).await;
        let wants_diff = p.diff == Some(true);
        let since = if wants_diff { view.listed } else { None };
        let snap = page::take(
            self.backend(),
            tab,
            &view,
            &Take {
                since,
                settle: false,
            },
        )
        .await?;
        let budget = p.max_tokens.map_or(SNAPSHOT_BUDGET, |n| n as usize).max(50);
        let same_doc = view.doc() == Some(snap.doc.as_str());
        let text = match (
            wants_diff && same_doc,
            listing::diff(
                &snap.snapshot,
                &view,
                budget,
                &listing::DiffStyle {
                    header: true,
                    set_by_agent: None,
                },
            ),
        ) {
            (true, Some(d)) => format!("Page: {}\n{d}", snap.snapshot.url),
            _ => {
                let elements = listing::filtered(
                    &snap.snapshot,
                    p.query.as_deref(),
                    p.in_viewport_only == Some(true),
                )
                .map_err(McpError::BadInput)?;
                let mut out = format!("Page: {}\n", snap.snapshot.url);
                if wants_diff {
                    out.push_str(
                        "(no earlier snapshot of this page to compare with: the whole listing)\n",
                    );
                }
                // A query's matches are all wanted; a page is listed as
                // far as it is worth (listing::page).
                let list = if p.query.as_deref().is_some_and(|q| !q.trim().is_empty()) {
                    listing::listing(&elements, budget)
                } else {
                    listing::page(&snap.snapshot, &elements, budget)
                };
                out.push_str(if list.is_empty() {
                    "(no matching elements)\n"
                } else {
                    &list
                });
                out
            }
        };
        self.remember(tab, snap, true).await;
        Ok(Reply::text(text))
    }

    pub(crate) async fn find(&self, p: FindParams) -> McpResult<Reply> {
        Query::parse(&p.query).map_err(|e| McpError::BadInput(format!("query: {e}")))?;
        let tab = self.tab().await?;
        let (_, snap) = self.look(tab, &Take::default()).await?;
        let found =
            listing::filtered(&snap.snapshot, Some(&p.query), false).map_err(McpError::BadInput)?;
        let budget = p.max_tokens.map_or(FIND_BUDGET, |n| n as usize).max(50);
        let text = if found.is_empty() {
            format!("No element matches {}.\n", p.query)
        } else {
            format!(
                "{} match(es):\n{}",
                found.len(),
                listing::listing(&found, budget)
            )
        };
        self.remember(tab, snap, false).await;
        Ok(Reply::text(text))
    }

    /// The page's visible text (frames included), as the run loop reads it.
    async fn visible_text(&self, tab: u64) -> McpResult<String> {
        let info = self
            .backend()
            .call(tab, "page_info", json!({"ids": []}))
            .await?;
        Ok(info
            .get("visibleText")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string())
    }

    pub(crate) async fn wait_for(
        &self,
        p: WaitForParams,
        ctx: &RequestContext<RoleServer>,
    ) -> McpResult<Reply> {
        let limit = p
            .time
            .filter(|t| t.is_finite() && *t >= 0.0)
            .map(|t| Duration::from_secs_f64(t).min(WAIT_MAX));
        let query = p
            .query
            .as_deref()
            .map(Query::parse)
            .transpose()
            .map_err(|e| McpError::BadInput(format!("query: {e}")))?;
        let has_condition = p.text.is_some() || p.text_gone.is_some() || query.is_some();
        let progress = Progress::of(ctx);
        if !has_condition {
            let Some(pause) = limit else {
                return Err(McpError::BadInput(
                    "wait for what? Give text, textGone, query or time (seconds)".into(),
                ));
            };
            tokio::select! {
                _ = tokio::time::sleep(pause) => {}
                _ = ctx.ct.cancelled() => return Err(McpError::Cancelled),
            }
            return Ok(Reply::text(format!("Waited {:.1} s.", pause.as_secs_f64())));
        }
        let limit = limit.unwrap_or(WAIT_DEFAULT);
        let tab = self.tab().await?;
        let before = self.shared.views.get(tab).await;
        let start = tokio::time::Instant::now();
        let mut tick = 0u32;
        loop {
            if ctx.ct.is_cancelled() {
                return Err(McpError::Cancelled);
            }
            let mut met = true;
            if p.text.is_some() || p.text_gone.is_some() {
                let text = fold(&self.visible_text(tab).await.unwrap_or_default());
                if let Some(t) = &p.text {
                    met &= text.contains(&fold(t));
                }
                if let Some(t) = &p.text_gone {
                    met &= !text.contains(&fold(t));
                }
            }
            if let (Some(q), true) = (&query, met) {
                let (_, snap) = self.look(tab, &Take::default()).await?;
                met = q.find(&snap.snapshot.elements).is_some();
            }
            let waited = start.elapsed();
            if met {
                let changes = match &before.last {
                    Some(_) => self.after(tab, &before, false, &[]).await?,
                    None => {
                        let (_, snap) = self.look(tab, &Take::default()).await?;
                        let text = page_listing(&snap.snapshot, DIFF_BUDGET);
                        self.remember(tab, snap, true).await;
                        text
                    }
                };
                return Ok(Reply::text(format!(
                    "Done after {:.1} s.\n{changes}",
                    waited.as_secs_f64()
                )));
            }
            if waited >= limit {
                return Err(McpError::NotFound(format!(
                    "Still not there after {:.1} s (limit {:.0} s): {}",
                    waited.as_secs_f64(),
                    limit.as_secs_f64(),
                    describe(&p)
                )));
            }
            tick += 1;
            if tick.is_multiple_of(4) {
                progress
                    .report(
                        waited.as_secs_f64(),
                        Some(limit.as_secs_f64()),
                        &format!("waiting for {}", describe(&p)),
                    )
                    .await;
            }
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(250)) => {}
                _ = ctx.ct.cancelled() => return Err(McpError::Cancelled),
            }
        }
    }
}

fn describe(p: &WaitForParams) -> String {
    let mut parts = Vec::new();
    if let Some(t) = &p.text {
        parts.push(format!("text {t:?}"));
    }
    if let Some(t) = &p.text_gone {
        parts.push(format!("{t:?} gone"));
    }
    if let Some(q) = &p.query {
        parts.push(format!("an element matching {q}"));
    }
    parts.join(" and ")
}
