//! Retry with backoff (docs/contracts/tools.md §17.6;
//! docs/hands.md), as a pure rule ([`next_step`]) the async loop in
//! [`crate::Hands::execute_with_retry`] follows.
//!
//! The spec: up to 3 attempts; between them wait 500 ms × attempt; a
//! transport error waits 1000 ms; "outside viewport" is never retried (the
//! caller needs a fresh screenshot); "Session not found" → `POST
//! /browser/start` and retry at once; the final error names the last cause.
//! Beyond the spec: no wait after the last attempt (nothing follows it), and
//! a self-healing click that failed all its strategies is not repeated
//! blindly (it already made three different attempts).

use crate::config::HandsConfig;
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RetryStep {
    /// The action succeeded.
    Done,
    /// Do not retry; `reason` says why.
    Stop { reason: &'static str },
    /// Start a new browser session, then retry without waiting.
    RestartSession,
    /// Wait this long, then retry.
    Wait(u64),
}

pub const OUTSIDE_VIEWPORT: &str = "outside viewport";
pub const SESSION_NOT_FOUND: &str = "Session not found";
pub const HEALING_FAILED: &str = "All healing attempts failed";

/// What to do after attempt number `attempt` (1-based) answered `result`.
pub fn next_step(config: &HandsConfig, attempt: u32, result: &Value) -> RetryStep {
    if result["success"].as_bool() == Some(true) {
        return RetryStep::Done;
    }
    let error = result["error"].as_str().unwrap_or("");
    if error.contains(OUTSIDE_VIEWPORT) {
        return RetryStep::Stop {
            reason: "the point is outside the viewport: take a fresh screenshot",
        };
    }
    if error.contains(HEALING_FAILED) {
        return RetryStep::Stop {
            reason: "every self-healing strategy was tried",
        };
    }
    if result["transport_error"].as_bool() == Some(true) {
        return RetryStep::Wait(config.transport_error_wait_ms);
    }
    if error.contains(SESSION_NOT_FOUND) {
        return RetryStep::RestartSession;
    }
    RetryStep::Wait(config.backoff_step_ms.saturating_mul(u64::from(attempt)))
}

/// The spec's final error: `Failed after N attempts: <last error>`.
pub fn final_error(attempts: u32, last: &str) -> String {
    format!("Failed after {attempts} attempts: {last}")
}

#[cfg(test)]
mod tests;
