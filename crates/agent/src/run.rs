//! The run state machine of docs/contracts/run-api.md §9: created → running ⇄ waiting_user →
//! completed | error | cancelled. Platform-free: the server loads a `Run`,
//! calls `step` / `answer` / `cancel`, and persists it.

use crate::page::{Page, RawJson, Snapshot};
use crate::policy::{Baseline, Decision, Policy, PolicyContext, PolicyError};
use crate::reflect;
use crate::security;
use crate::text::{success_markers, truncate};
use crate::time::now_ms;
use crate::types::*;
use serde::{Deserialize, Serialize};

/// `maxSteps` of docs/contracts/run-api.md §14 (150 in every example).
pub const MAX_STEPS: u32 = 150;

/// A question the run waits on. `tool` is set when the security gate holds
/// an action: approval releases exactly that action, once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pending {
    pub question: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<Tool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// GET /agent/run/:runId (docs/contracts/run-api.md §8) `state` (plus fields the spec leaves open:
/// the pending question, the result or error, the first page's baseline).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Run {
    pub run_id: String,
    pub task: String,
    pub mode: RunMode,
    pub status: RunStatus,
    pub current_step: u32,
    pub max_steps: u32,
    pub history: Vec<HistoryEntry>,
    pub reflections: Vec<Reflection>,
    /// The last snapshot's JSON text as received (screenshot removed).
    pub current_snapshot: Option<RawJson>,
    pub created_at: u64,
    pub updated_at: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<Pending>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub user_answers: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<Baseline>,
}

/// The page a step is on and its signature, hashed once per step: the
/// last entry's `page_after` and the new entry's `page_before` are both
/// this page's, and the hash reads the whole page (its text and every
/// element).
#[derive(Clone, Copy)]
struct Signed<'p> {
    page: &'p Page,
    signature: &'p str,
}

impl<'p> Signed<'p> {
    fn of((page, signature): (&'p Page, &'p str)) -> Signed<'p> {
        Signed { page, signature }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("Run is not waiting for an answer (status: {0})")]
    NotWaiting(&'static str),
    #[error(transparent)]
    Policy(#[from] PolicyError),
}

fn status_word(s: RunStatus) -> &'static str {
    match s {
        RunStatus::Created => "created",
        RunStatus::Running => "running",
        RunStatus::WaitingUser => "waiting_user",
        RunStatus::Completed => "completed",
        RunStatus::Error => "error",
        RunStatus::Cancelled => "cancelled",
    }
}

impl Run {
    pub fn new(run_id: String, task: String, mode: RunMode) -> Run {
        let now = now_ms();
        Run {
            run_id,
            task,
            mode,
            status: RunStatus::Created,
            current_step: 0,
            max_steps: MAX_STEPS,
            history: Vec::new(),
            reflections: Vec::new(),
            current_snapshot: None,
            created_at: now,
            updated_at: now,
            pending: None,
            result: None,
            error: None,
            user_answers: Vec::new(),
            baseline: None,
        }
    }

    pub fn summary(&self) -> StateSummary {
        StateSummary {
            status: self.status,
            current_step: self.current_step,
            max_steps: self.max_steps,
        }
    }

    /// What a terminal or waiting run answers to every further /step.
    fn standing_response(&self) -> Option<StepResponse> {
        let state = self.summary();
        Some(match self.status {
            RunStatus::Completed => StepResponse::Finish {
                result: self.result.clone().unwrap_or_default(),
                state,
            },
            RunStatus::Cancelled => StepResponse::Error {
                error: "Run was cancelled".into(),
                state,
            },
            RunStatus::Error => StepResponse::Error {
                error: self.error.clone().unwrap_or_else(|| "Run failed".into()),
                state,
            },
            RunStatus::WaitingUser => StepResponse::AskUser {
                question: self
                    .pending
                    .as_ref()
                    .map(|p| p.question.clone())
                    .unwrap_or_default(),
                state,
            },
            RunStatus::Created | RunStatus::Running => return None,
        })
    }

    /// Record the result of the previous action against its history entry.
    /// `page`: the page now shown, with its signature (`Signed`).
    fn record_result(&mut self, last: Option<&ToolResult>, page: Option<Signed<'_>>) {
        let Some(entry) = self.history.last_mut() else {
            return;
        };
        if entry.page_after.is_some() || entry.action == "finish" {
            return;
        }
        if let Some(p) = page {
            entry.page_after = Some(p.signature.to_string());
        }
        if let Some(r) = last {
            entry.success = Some(r.success);
            let msg = if r.success {
                r.message.clone().unwrap_or_else(|| "Success".into())
            } else {
                r.error
                    .clone()
                    .or_else(|| r.message.clone())
                    .unwrap_or_else(|| "Failed".into())
            };
            entry.observation = truncate(&msg, 300);
        } else if entry.observation == "Pending" && page.is_some() {
            entry.observation = "Success".into();
        }
    }

    fn push(
        &mut self,
        action: &str,
        tool: Option<&Tool>,
        page: Option<Signed<'_>>,
        observation: &str,
    ) {
        let signature = page.map(|p| p.signature.to_string());
        let page = page.map(|p| p.page);
        let mut entry = match tool {
            Some(t) => {
                crate::planner::entry_signed(self.current_step, t, page, signature, observation)
            }
            None => HistoryEntry {
                step_number: self.current_step,
                action: action.into(),
                observation: observation.into(),
                timestamp: now_ms(),
                parameters: None,
                success: None,
                element_text: None,
                bbox: None,
                url: page.map(|p| p.url.clone()),
                page_before: signature,
                page_after: None,
            },
        };
        entry.action = action.into();
        self.history.push(entry);
    }

    fn execute(&mut self, tool: Tool, page: Option<Signed<'_>>) -> StepResponse {
        self.current_step += 1;
        self.status = RunStatus::Running;
        self.push(tool.name().as_str(), Some(&tool), page, "Pending");
        StepResponse::ExecuteTool {
            tool,
            state: self.summary(),
        }
    }

    fn fail(&mut self, error: String) -> StepResponse {
        self.status = RunStatus::Error;
        self.error = Some(error.clone());
        self.pending = None;
        StepResponse::Error {
            error,
            state: self.summary(),
        }
    }

    /// POST /agent/run/:runId/step (docs/contracts/run-api.md §5).
    pub async fn step(
        &mut self,
        snapshot: Option<Snapshot>,
        last: Option<ToolResult>,
        policy: &dyn Policy,
    ) -> Result<StepResponse, RunError> {
        if let Some(r) = self.standing_response() {
            return Ok(r);
        }
        let (raw, page) = match snapshot {
            Some(s) => (Some(s.json), Some(s.page)),
            None => (None, None),
        };
        let page = page.as_ref();
        let signature = page.map(Page::signature);
        let signed = page.zip(signature.as_deref()).map(Signed::of);
        // A policy failure must leave the run untouched so that a retry of
        // the same request works: decide on a copy, commit on success. The
        // old snapshot is replaced anyway, so it is not copied.
        let old_snapshot = self.current_snapshot.take();
        let mut next = self.clone();
        self.current_snapshot = old_snapshot;
        next.updated_at = now_ms();
        next.record_result(last.as_ref(), signed);
        if let (Some(raw), Some(p)) = (raw, page) {
            // `Snapshot::parse` already dropped any screenshot.
            next.current_snapshot = Some(raw);
            if next.baseline.is_none() {
                next.baseline = Some(Baseline {
                    url: p.url.clone(),
                    markers: success_markers(&p.all_text()),
                });
            }
        } else {
            next.current_snapshot = self.current_snapshot.clone();
        }
        // docs/contracts/run-api.md §5: "Maximum steps reached" at maxSteps.
        if next.current_step >= next.max_steps {
            let r = next.fail("Maximum steps reached".into());
            *self = next;
            return Ok(r);
        }
        if reflect::due(&next.history, next.current_step)
            && next
                .reflections
                .last()
                .is_none_or(|r| r.step_number != next.current_step)
        {
            let r = reflect::reflect(&next.history, next.current_step, now_ms());
            if next.current_step % reflect::EVERY == 0 || r.should_adjust {
                next.reflections.push(r);
            }
        }
        // docs/contracts/run-api.md §5: "snapshot can be null on first call" → observe first.
        let Some(signed) = signed else {
            let r = next.execute(Tool::observe(), None);
            *self = next;
            return Ok(r);
        };
        let avoid = reflect::avoided(&next.reflections, next.current_step);
        let baseline = next.baseline.clone().unwrap_or_default();
        let ctx = PolicyContext {
            task: &next.task,
            mode: next.mode,
            page: signed.page,
            history: &next.history,
            reflections: &next.reflections,
            avoid: &avoid,
            baseline: &baseline,
            step: next.current_step,
            user_answers: &next.user_answers,
        };
        let decision = policy.decide(&ctx).await?;
        let response = next.apply(decision, signed);
        *self = next;
        Ok(response)
    }

    fn apply(&mut self, decision: Decision, page: Signed<'_>) -> StepResponse {
        match decision {
            Decision::Tool(Tool::Finish { result }) => self.apply(Decision::Finish(result), page),
            Decision::Tool(Tool::AskUser { question }) => self.apply(Decision::Ask(question), page),
            Decision::Tool(tool) => {
                // RunMode (docs/contracts/run-api.md §10) "careful": security gate enabled.
                if self.mode == RunMode::Careful {
                    if let Some(hit) = security::check(&tool, page.page) {
                        return self.ask(hit.question, Some(tool), Some(hit.reason), page);
                    }
                }
                self.execute(tool, Some(page))
            }
            Decision::Ask(q) => self.ask(q, None, None, page),
            Decision::Finish(result) => {
                self.current_step += 1;
                self.status = RunStatus::Completed;
                self.push("finish", None, Some(page), &truncate(&result, 300));
                self.result = Some(result.clone());
                StepResponse::Finish {
                    result,
                    state: self.summary(),
                }
            }
            Decision::Fail(e) => self.fail(e),
        }
    }

    fn ask(
        &mut self,
        question: String,
        tool: Option<Tool>,
        reason: Option<String>,
        page: Signed<'_>,
    ) -> StepResponse {
        self.current_step += 1;
        self.status = RunStatus::WaitingUser;
        self.push(
            "ask_user",
            tool.as_ref(),
            Some(page),
            "Waiting for the user",
        );
        self.pending = Some(Pending {
            question: question.clone(),
            tool,
            reason,
        });
        StepResponse::AskUser {
            question,
            state: self.summary(),
        }
    }

    /// POST /agent/run/:runId/answer (docs/contracts/run-api.md §6): refusal cancels the run; an
    /// approval of a gated action returns exactly that action (once); an
    /// answer to the policy's own question is kept and the run observes again.
    pub fn answer(
        &mut self,
        approved: bool,
        answer: Option<String>,
    ) -> Result<StepResponse, RunError> {
        if self.status != RunStatus::WaitingUser {
            return Err(RunError::NotWaiting(status_word(self.status)));
        }
        self.updated_at = now_ms();
        let pending = self.pending.take();
        if let Some(entry) = self.history.last_mut().filter(|e| e.action == "ask_user") {
            entry.success = Some(approved);
            entry.observation = match (&answer, approved) {
                (Some(a), true) => format!("Approved: {}", truncate(a, 200)),
                (None, true) => "Approved".into(),
                (_, false) => "Refused".into(),
            };
        }
        if !approved {
            self.status = RunStatus::Cancelled;
            return Ok(StepResponse::Error {
                error: "Cancelled: the user refused".into(),
                state: self.summary(),
            });
        }
        // An approved answer is carried out as a step of its own (the gated
        // action, or a look): at the limit it is the step past maxSteps
        // (docs/contracts/run-api.md §5), which the run refuses as `/step`
        // would, instead of counting step maxSteps + 1.
        if self.current_step >= self.max_steps {
            return Ok(self.fail("Maximum steps reached".into()));
        }
        let page = self
            .current_snapshot
            .as_ref()
            .and_then(|v| Page::from_json_str(v.get()).ok())
            .map(|(p, _)| p);
        let signature = page.as_ref().map(Page::signature);
        let page = page.as_ref().zip(signature.as_deref()).map(Signed::of);
        match pending.and_then(|p| p.tool) {
            Some(tool) => Ok(self.execute(tool, page)),
            None => {
                if let Some(a) = answer.filter(|a| !a.trim().is_empty()) {
                    self.user_answers.push(truncate(&a, 500));
                }
                Ok(self.execute(Tool::observe(), page))
            }
        }
    }

    /// POST /agent/run/:runId/cancel (docs/contracts/run-api.md §7). Terminal
    /// runs stay as they are.
    pub fn cancel(&mut self) {
        if !self.status.is_terminal() {
            self.status = RunStatus::Cancelled;
            self.pending = None;
            self.updated_at = now_ms();
        }
    }
}
