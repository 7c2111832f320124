//! The client logic the tool contract leaves to "the web app"
//! (docs/contracts/tools.md §17; docs/hands.md),
//! written once and free of I/O: the HTTP client and the clock are injected
//! ([`io::Http`], [`io::Clock`]). Used natively by `sentience act` and, as
//! WebAssembly, by the `clients/hands` package.
//!
//! - [`loop_detect`]: docs/contracts/tools.md §17.1, loop detection.
//! - [`heal`]: §17.2, self-healing click.
//! - [`vision`] + [`providers`]: §17.3, vision-provider choice and cross-check.
//! - [`behavior`]: §17.4, browser behaviour from the task text.
//! - [`routing`]: §17.5, deterministic vs vision actions.
//! - [`retry`]: §17.6, retry with backoff.

pub mod action;
pub mod behavior;
pub mod config;
pub mod heal;
pub mod io;
pub mod loop_detect;
pub mod page;
pub mod providers;
pub mod retry;
pub mod routing;
pub mod tools;
pub mod vision;

#[cfg(test)]
mod test_support;

pub use action::Action;
pub use behavior::{detect_browser_behavior, BrowserBehavior};
pub use config::HandsConfig;
pub use loop_detect::{ActionRecord, LoopDetector, LoopKind, LoopReport, Workaround};
pub use routing::{categorize_action, Route};
pub use tools::ToolClient;
pub use vision::{
    choose_vision_provider, Choice, Coordinates, TaskHints, VisionContext, VisionSet,
};

use io::{Clock, Http};
use retry::{final_error, next_step, RetryStep};
use serde_json::{json, Value};

/// Everything one agent needs to act through a tool server.
pub struct Hands<H, C> {
    pub tools: ToolClient<H>,
    pub clock: C,
    pub config: HandsConfig,
    pub vision: VisionSet,
    /// `browser` or `desktop` (`scope` of docs/contracts/tools.md §2).
    pub scope: String,
    /// Where a restarted session starts (docs/contracts/tools.md §17.6 restarts with no URL;
    /// we go back where the run began).
    pub start_url: Option<String>,
}

impl<H: Http, C: Clock> Hands<H, C> {
    pub fn new(http: H, clock: C, tools_url: &str) -> Self {
        Self::from_parts(ToolClient::new(http, tools_url), clock)
    }

    /// Defaults around an already configured client (token, session).
    pub fn from_parts(tools: ToolClient<H>, clock: C) -> Self {
        Hands {
            tools,
            clock,
            config: HandsConfig::default(),
            vision: VisionSet::all_dom(),
            scope: "browser".into(),
            start_url: None,
        }
    }

    /// docs/contracts/tools.md §17.6 `executeWithRetry`. The answer is the last attempt's,
    /// plus `attempts`; a failure's `error` names the last cause.
    pub async fn execute_with_retry(&self, action: &Action) -> Value {
        let max = self.config.max_attempts.max(1);
        let mut last = String::from("no attempt made");
        let mut restarts = 0u32;
        for attempt in 1..=max {
            let mut result = self.execute_action(action).await;
            let step = next_step(&self.config, attempt, &result);
            if step == RetryStep::Done {
                result["attempts"] = json!(attempt);
                if restarts > 0 {
                    result["sessionRestarted"] = json!(true);
                }
                return result;
            }
            last = tools::error_of(&result);
            match step {
                RetryStep::Done => {}
                RetryStep::Stop { reason } => {
                    result["success"] = json!(false);
                    result["attempts"] = json!(attempt);
                    result["retryable"] = json!(false);
                    result["error"] = json!(format!("{last} (not retried: {reason})"));
                    return result;
                }
                RetryStep::RestartSession => {
                    restarts += 1;
                    let r = self.tools.start_browser(self.start_url.as_deref()).await;
                    if !tools::succeeded(&r) {
                        last = format!(
                            "{last}; restarting the browser failed: {}",
                            tools::error_of(&r)
                        );
                    }
                }
                RetryStep::Wait(ms) if attempt < max => self.clock.sleep(ms).await,
                RetryStep::Wait(_) => {}
            }
        }
        json!({ "success": false, "error": final_error(max, &last), "attempts": max })
    }
}
