//! `sentience_run_task`: hands a whole task to our agent. The call into the
//! agent is the run API's own (`sentience_agent::Run::step` with the
//! configured `Policy`: the built-in planner, or the LLM), exactly the
//! path `/agent/run/:id/step` takes; this module plays the extension's run
//! loop (extension/run/tools.js: observe, execute) in the agent's tab. It
//! is kept in one small file so that a new planner entry point is one
//! change here.

use crate::backend::wait_ready;
use crate::careful::{Approval, Mode};
use crate::error::{McpError, McpResult};
use crate::page::Take;
use crate::progress::Progress;
use crate::server::{Reply, SentienceMcp};
use crate::tools::act::{page_listing, DIFF_BUDGET};
use crate::tools::nav::normalise_url;
use crate::tools::params::RunTaskParams;
use rmcp::service::{ElicitationError, RequestContext, RoleServer};
use schemars::JsonSchema;
use sentience_agent::{Run, RunMode, Snapshot, StepResponse, Tool, ToolName, ToolResult};
use serde::Deserialize;
use serde_json::{json, Value};
use std::time::Duration;

const DEFAULT_STEPS: u32 = 40;
const LOAD_TIMEOUT: Duration = Duration::from_secs(20);

/// The user's answer to the agent's own question.
#[derive(Debug, Deserialize, JsonSchema)]
struct UserAnswer {
    /// Your answer.
    answer: String,
}
rmcp::elicit_safe!(UserAnswer);

impl SentienceMcp {
    /// What the run loop sends to `/step` (tools.js `observe`): the
    /// snapshot's 100 most important elements, each with its `page_info`
    /// facts, and the page's title and visible text.
    async fn observe(&self, tab: u64) -> McpResult<Snapshot> {
        wait_ready(self.backend(), tab, None, LOAD_TIMEOUT).await?;
        let snap = self
            .backend()
            .call(
                tab,
                "snapshot",
                json!({"limit": 100, "wait_for_stable": {"quiet_ms": 150, "timeout_ms": 1500}}),
            )
            .await?;
        if snap.get("status").and_then(Value::as_str) != Some("success") {
            return Err(McpError::Browser(format!(
                "snapshot failed: {}",
                snap.get("error").unwrap_or(&Value::Null)
            )));
        }
        let ids: Vec<Value> = snap["elements"]
            .as_array()
            .map(|a| a.iter().map(|e| e["id"].clone()).collect())
            .unwrap_or_default();
        let info = self
            .backend()
            .call(tab, "page_info", json!({"ids": ids}))
            .await?;
        let mut snap = snap;
        if let Some(els) = snap["elements"].as_array_mut() {
            for e in els {
                let id = e["id"].as_u64().unwrap_or(u64::MAX);
                if let (Some(facts), Some(obj)) = (
                    info.pointer(&format!("/elements/{id}"))
                        .and_then(Value::as_object),
                    e.as_object_mut(),
                ) {
                    for (k, v) in facts {
                        obj.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        snap["title"] = info.get("title").cloned().unwrap_or(Value::Null);
        snap["visibleText"] = info.get("visibleText").cloned().unwrap_or(Value::Null);
        let raw =
            serde_json::value::to_raw_value(&snap).map_err(|e| McpError::Browser(e.to_string()))?;
        Snapshot::parse(raw).map_err(McpError::Browser)
    }

    /// One of the agent's tools in the tab (tools.js `TOOLS`).
    async fn execute(&self, tab: u64, tool: &Tool) -> ToolResult {
        let fail = |e: String| ToolResult {
            success: false,
            error: Some(e),
            ..ToolResult::default()
        };
        let id = tool.element_id().and_then(|s| s.parse::<u64>().ok());
        let params = tool.parameters();
        let str_param = |k: &str| params.get(k).and_then(Value::as_str);
        let (op, args) = match tool.name() {
            ToolName::Observe => {
                // A task's "wait 3 seconds" (capped: a tool call is not a
                // place to sleep for minutes).
                if let Some(ms) = params.get("waitMs").and_then(Value::as_u64) {
                    tokio::time::sleep(Duration::from_millis(ms.min(30_000))).await;
                }
                return ToolResult {
                    success: true,
                    message: Some("Observed".into()),
                    ..ToolResult::default()
                };
            }
            ToolName::Navigate => {
                let url = match str_param("url").map(normalise_url) {
                    Some(Ok(u)) => u,
                    _ => return fail(format!("navigate: not a URL: {:?}", params.get("url"))),
                };
                return match self.backend().navigate(tab, &url).await {
                    Ok(u) => ToolResult {
                        success: true,
                        message: Some(format!("Navigated to {u}")),
                        ..ToolResult::default()
                    },
                    Err(e) => fail(e.to_string()),
                };
            }
            ToolName::Click => ("click", json!({"id": id})),
            ToolName::Type => (
                "type",
                json!({"id": id, "text": str_param("text").unwrap_or("")}),
            ),
            ToolName::Press => match id {
                Some(id) => (
                    "press",
                    json!({"key": str_param("key").unwrap_or("Enter"), "id": id}),
                ),
                None => ("press", json!({"key": str_param("key").unwrap_or("Enter")})),
            },
            ToolName::Scroll => match id {
                Some(id) => ("scroll", json!({"id": id})),
                None => {
                    let up = str_param("direction") == Some("up");
                    (
                        "scroll",
                        json!({"dx": 0, "dy": if up { -600 } else { 600 }}),
                    )
                }
            },
            ToolName::AskUser | ToolName::Finish => return fail("not an action".into()),
        };
        if matches!(tool.name(), ToolName::Click | ToolName::Type) && id.is_none() {
            return fail(format!("{}: missing element id", tool.name().as_str()));
        }
        let old = self
            .backend()
            .page_state(tab)
            .await
            .ok()
            .flatten()
            .map(|p| p.doc);
        match self.backend().call(tab, op, args).await {
            Ok(v) if v["success"] == true => {
                let outcome = v["outcome"].as_str().unwrap_or("none").to_string();
                if outcome == "navigated" {
                    let _ = wait_ready(self.backend(), tab, old.as_deref(), LOAD_TIMEOUT).await;
                }
                ToolResult {
                    success: true,
                    message: Some(format!("{} ({outcome})", tool.name().as_str())),
                    data: Some(json!({"outcome": outcome})),
                    ..ToolResult::default()
                }
            }
            Ok(v) => fail(v["error"].as_str().unwrap_or("failed").to_string()),
            Err(McpError::Browser(m)) if m.starts_with("navigated") => {
                let _ = wait_ready(self.backend(), tab, old.as_deref(), LOAD_TIMEOUT).await;
                ToolResult {
                    success: true,
                    message: Some(format!("{} (navigated)", tool.name().as_str())),
                    ..ToolResult::default()
                }
            }
            Err(e) => fail(e.to_string()),
        }
    }

    /// The user's word on the run's question: approval of a held action, or
    /// an answer to the planner's question. None: nobody could be asked.
    async fn ask_user(
        &self,
        run: &Run,
        question: &str,
        ctx: &RequestContext<RoleServer>,
    ) -> McpResult<Option<(bool, Option<String>)>> {
        let gated = run.pending.as_ref().is_some_and(|p| p.tool.is_some());
        if gated {
            if let Mode::Careful { yes: true } = self.shared.config.mode {
                return Ok(Some((true, None)));
            }
            let a = tokio::select! {
                a = ctx.peer.elicit::<Approval>(question.to_string()) => a,
                _ = ctx.ct.cancelled() => return Err(McpError::Cancelled),
            };
            return match a {
                Ok(Some(Approval { approve })) => Ok(Some((approve, None))),
                Ok(None)
                | Err(ElicitationError::UserDeclined)
                | Err(ElicitationError::UserCancelled) => Ok(Some((false, None))),
                Err(_) => Ok(None),
            };
        }
        let a = tokio::select! {
            a = ctx.peer.elicit::<UserAnswer>(question.to_string()) => a,
            _ = ctx.ct.cancelled() => return Err(McpError::Cancelled),
        };
        match a {
            Ok(Some(UserAnswer { answer })) => Ok(Some((true, Some(answer)))),
            Ok(None)
            | Err(ElicitationError::UserDeclined)
            | Err(ElicitationError::UserCancelled) => Ok(Some((false, None))),
            Err(_) => Ok(None),
        }
    }

    pub(crate) async fn run_task(
        &self,
        p: RunTaskParams,
        ctx: &RequestContext<RoleServer>,
    ) -> McpResult<Reply> {
        let task = p.task.trim().to_string();
        if task.is_empty() {
            return Err(McpError::BadInput("task is empty".into()));
        }
        let tab = self.tab().await?;
        if let Some(url) = &p.url {
            self.backend().navigate(tab, &normalise_url(url)?).await?;
        }
        let mode = match self.shared.config.mode {
            Mode::Autonomous => RunMode::Autonomous,
            Mode::Careful { .. } => RunMode::Careful,
        };
        let mut run = Run::new(uuid::Uuid::new_v4().to_string(), task, mode);
        run.max_steps = p
            .max_steps
            .unwrap_or(DEFAULT_STEPS)
            .clamp(1, sentience_agent::run::MAX_STEPS);
        let policy = self.shared.config.policy.clone();
        let progress = Progress::of(ctx);
        let mut steps: Vec<String> = Vec::new();
        let mut last: Option<ToolResult> = None;
        let mut response = None;
        let outcome = loop {
            if ctx.ct.is_cancelled() {
                run.cancel();
                return Err(McpError::Cancelled);
            }
            let r = match response.take() {
                Some(r) => r,
                None => {
                    let snapshot = self.observe(tab).await?;
                    run.step(Some(snapshot), last.take(), policy.as_ref())
                        .await
                        .map_err(|e| McpError::Browser(format!("the agent failed: {e}")))?
                }
            };
            match r {
                StepResponse::ExecuteTool { tool, state } => {
                    let said = format!(
                        "{} {}",
                        tool.name().as_str(),
                        serde_json::Value::Object(tool.parameters())
                    );
                    progress
                        .report(
                            f64::from(state.current_step),
                            Some(f64::from(state.max_steps)),
                            &said,
                        )
                        .await;
                    let result = self.execute(tab, &tool).await;
                    steps.push(format!(
                        "{}. {said} → {}",
                        state.current_step,
                        if result.success {
                            "ok".to_string()
                        } else {
                            format!("failed: {}", result.error.clone().unwrap_or_default())
                        }
                    ));
                    last = Some(result);
                }
                StepResponse::AskUser { question, state } => {
                    steps.push(format!(
                        "{}. asked the user: {question}",
                        state.current_step
                    ));
                    match self.ask_user(&run, &question, ctx).await? {
                        Some((approved, answer)) => {
                            steps.push(format!("   user: {}", if approved { answer.clone().unwrap_or_else(|| "approved".into()) } else { "declined".into() }));
                            response = Some(run.answer(approved, answer).map_err(|e| McpError::Browser(e.to_string()))?);
                        }
                        None => break Err(McpError::Refused(format!(
                            "The agent stopped to ask the user: {question}\nThis MCP host cannot ask the user (no elicitation). Ask them; to approve such actions, restart the server with --yes.\nSteps:\n{}",
                            steps.join("\n")
                        ))),
                    }
                }
                StepResponse::Finish { result, .. } => break Ok(result),
                StepResponse::Error { error, .. } => {
                    break Err(McpError::Browser(format!(
                        "The task failed: {error}\nSteps:\n{}",
                        steps.join("\n")
                    )))
                }
            }
        };
        let result = outcome?;
        // What the page looks like now (and the ids the agent may use next).
        let (_, snap) = self
            .look(
                tab,
                &Take {
                    since: None,
                    settle: true,
                },
            )
            .await?;
        let listing = page_listing(&snap.snapshot, DIFF_BUDGET);
        self.remember(tab, snap, true).await;
        Ok(Reply::text(format!(
            "Task complete: {result}\nSteps:\n{}\n{listing}",
            steps.join("\n")
        )))
    }
}
