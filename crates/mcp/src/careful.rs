//! Careful mode (docs/mcp.md "Careful mode"): before an action that pays,
//! deletes, sends, submits card or password data or changes credentials,
//! the user is asked. The judgement is the run API's own security gate
//! (`sentience_agent::security::check`, docs/contracts/run-api.md §10), fed
//! with the same page model the run loop builds: the snapshot plus each
//! element's tag, type, name and label (`page_info`). The question goes to
//! the user through MCP elicitation when the host supports it; otherwise the
//! action is refused with a message that says how to approve it.

use crate::backend::Backend;
use crate::error::{McpError, McpResult};
use crate::page::Snap;
use rmcp::service::{ElicitationError, RequestContext, RoleServer};
use schemars::JsonSchema;
use sentience_agent::security::{self, GateHit};
use sentience_agent::{Page, Tool};
use serde::Deserialize;
use serde_json::{json, Value};

/// How actions are gated (`--mode`, `--yes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Every action runs.
    Autonomous,
    /// Gated actions ask the user (`yes`: approved without asking).
    Careful { yes: bool },
}

/// The answer the user gives in the host's form.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Approval {
    /// Allow this action once.
    pub approve: bool,
}

rmcp::elicit_safe!(Approval);

/// Elements whose facts are read for the gate (the most important first,
/// and always the target): enough to see a card or password form.
const FACTS_FOR: usize = 150;

/// The run loop's page model of `snap` (tools.js `observe`): the snapshot
/// and `page_info`'s facts for its elements.
pub async fn page_model(
    backend: &dyn Backend,
    tab: u64,
    snap: &Snap,
    target: u32,
) -> McpResult<Page> {
    // The engine's ids (the agent's minus the document's base).
    let mut ids: Vec<u32> = snap
        .snapshot
        .elements
        .iter()
        .take(FACTS_FOR)
        .map(|e| snap.engine_id(e.id))
        .collect();
    let target = snap.engine_id(target);
    if !ids.contains(&target) {
        ids.push(target);
    }
    let info = backend.call(tab, "page_info", json!({"ids": ids})).await?;
    let mut v = serde_json::to_value(&snap.snapshot)
        .map_err(|e| McpError::Browser(format!("snapshot: {e}")))?;
    if let Some(els) = v.get_mut("elements").and_then(Value::as_array_mut) {
        for e in els {
            let id = e
                .get("id")
                .and_then(Value::as_u64)
                .map_or(u64::MAX, |id| id.saturating_sub(u64::from(snap.base)));
            if let (Some(facts), Some(obj)) = (
                info.pointer(&format!("/elements/{id}"))
                    .and_then(Value::as_object),
                e.as_object_mut(),
            ) {
                for (k, val) in facts {
                    obj.insert(k.clone(), val.clone());
                }
            }
        }
    }
    v["title"] = info.get("title").cloned().unwrap_or(Value::Null);
    v["visibleText"] = info.get("visibleText").cloned().unwrap_or(Value::Null);
    Page::from_json(&v).map_err(|e| McpError::Browser(format!("page model: {e}")))
}

/// The gate's verdict on `tool` (`Some`: it needs the user's approval).
pub async fn check(
    backend: &dyn Backend,
    tab: u64,
    snap: &Snap,
    tool: &Tool,
    target: u32,
) -> McpResult<Option<GateHit>> {
    let page = page_model(backend, tab, snap, target).await?;
    Ok(security::check(tool, &page))
}

/// Asks the user about `hit`: Ok when approved, `Refused` otherwise.
pub async fn ask(mode: Mode, hit: &GateHit, ctx: &RequestContext<RoleServer>) -> McpResult<()> {
    let yes = match mode {
        Mode::Autonomous => return Ok(()),
        Mode::Careful { yes } => yes,
    };
    if yes {
        tracing::info!(question = %hit.question, "approved by --yes");
        return Ok(());
    }
    let question = format!("{} (this action {})", hit.question, hit.reason);
    let answer = tokio::select! {
        a = ctx.peer.elicit::<Approval>(question.clone()) => a,
        _ = ctx.ct.cancelled() => return Err(McpError::Cancelled),
    };
    match answer {
        Ok(Some(Approval { approve: true })) => Ok(()),
        Ok(_) | Err(ElicitationError::UserDeclined) | Err(ElicitationError::UserCancelled) => {
            Err(McpError::Refused(format!(
                "The user declined: {}. The action was not done; do not try it again unless the user asks.",
                hit.question
            )))
        }
        Err(ElicitationError::CapabilityNotSupported) => Err(McpError::Refused(format!(
            "Careful mode held this action: {} — it {}. This MCP host cannot ask the user (no elicitation), so it was not done. \
             Ask the user; to allow such actions, the user restarts the server with --yes (or --mode autonomous).",
            hit.question, hit.reason
        ))),
        Err(e) => Err(McpError::Refused(format!(
            "Careful mode could not ask the user ({e}): the action ({}) was not done.",
            hit.question
        ))),
    }
}
