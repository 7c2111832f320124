//! The decision-engine interface the run state machine calls: the built-in
//! System 2 planner and the LLM policy both implement it.

use crate::page::Page;
use crate::types::{HistoryEntry, Reflection, RunMode, Tool};
use serde::{Deserialize, Serialize};
use std::future::Future;
use std::pin::Pin;

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What the page looked like when the run first saw it, so "success" text
/// that was already there (a "Welcome back, please log in" banner) is not
/// mistaken for the goal being reached.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    pub url: String,
    pub markers: Vec<String>,
}

/// Everything a policy may look at for one decision.
pub struct PolicyContext<'a> {
    pub task: &'a str,
    pub mode: RunMode,
    pub page: &'a Page,
    pub history: &'a [HistoryEntry],
    pub reflections: &'a [Reflection],
    /// Element ids recent reflections flagged as loop targets.
    pub avoid: &'a [String],
    pub baseline: &'a Baseline,
    pub step: u32,
    /// Answers the user gave to the policy's own questions.
    pub user_answers: &'a [String],
}

#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    Tool(Tool),
    Ask(String),
    Finish(String),
    Fail(String),
}

/// A decision could not be made; the run is left as it was (so the client
/// may retry the same step) and the server answers 500 (docs/contracts/run-api.md §15 "Server-side
/// error (LLM API failure, etc.)").
#[derive(Debug, Clone, thiserror::Error)]
pub enum PolicyError {
    #[error("{0}")]
    Llm(String),
    #[error("{0}")]
    Malformed(String),
}

/// Shown by GET /health (`model` of docs/contracts/run-api.md §3, `baseUrl`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PolicyInfo {
    pub policy: String,
    pub model: String,
    pub base_url: String,
}

pub trait Policy: Send + Sync {
    fn info(&self) -> PolicyInfo;
    fn decide<'a>(
        &'a self,
        ctx: &'a PolicyContext<'a>,
    ) -> BoxFuture<'a, Result<Decision, PolicyError>>;
}
