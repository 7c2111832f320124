//! The LLM policy: any OpenAI-compatible chat-completions endpoint
//! (docs/contracts/run-api.md §3 /health `baseUrl`, default https://openrouter.ai/api/v1).
//! Timeouts, retries with exponential backoff on 429 / 5xx / network errors,
//! one corrective retry on malformed output; a failure becomes a
//! `PolicyError` (the server answers 500 and the run stays retryable).

mod parse;
pub mod prompt;

use crate::policy::{BoxFuture, Decision, Policy, PolicyContext, PolicyError, PolicyInfo};
use serde_json::{json, Value};
use std::time::Duration;

pub const DEFAULT_BASE_URL: &str = "https://openrouter.ai/api/v1";
pub const DEFAULT_MODEL: &str = "anthropic/claude-3.5-sonnet";

#[derive(Debug, Clone)]
pub struct LlmConfig {
    pub base_url: String,
    pub api_key: String,
    pub model: String,
    /// Per-request timeout.
    pub timeout: Duration,
    /// Retries after the first attempt (429, 5xx, timeouts, malformed output).
    pub max_retries: u32,
    /// First backoff; doubles each retry, capped at 8 s.
    pub backoff: Duration,
    /// Characters of page description in the prompt (≈ 4 chars per token).
    pub prompt_budget: usize,
    /// Offer OpenAI tool definitions (else strict JSON in the content only).
    pub tool_calls: bool,
}

impl LlmConfig {
    pub fn new(base_url: String, api_key: String, model: String) -> LlmConfig {
        LlmConfig {
            base_url: base_url.trim_end_matches('/').to_string(),
            api_key,
            model,
            timeout: Duration::from_secs(60),
            max_retries: 2,
            backoff: Duration::from_millis(500),
            prompt_budget: 12_000,
            tool_calls: true,
        }
    }
}

pub struct LlmPolicy {
    cfg: LlmConfig,
    http: reqwest::Client,
}

enum Attempt {
    Retry(String),
    Fatal(String),
}

impl LlmPolicy {
    pub fn new(cfg: LlmConfig) -> Result<LlmPolicy, String> {
        let http = reqwest::Client::builder()
            .timeout(cfg.timeout)
            .build()
            .map_err(|e| format!("HTTP client: {e}"))?;
        Ok(LlmPolicy { cfg, http })
    }

    async fn call(&self, messages: &[Value]) -> Result<Value, Attempt> {
        let mut body = json!({
            "model": self.cfg.model,
            "messages": messages,
            "temperature": 0,
        });
        if self.cfg.tool_calls {
            body["tools"] = prompt::tool_definitions();
            body["tool_choice"] = json!("auto");
        }
        let url = format!("{}/chat/completions", self.cfg.base_url);
        let resp = self
            .http
            .post(&url)
            .bearer_auth(&self.cfg.api_key)
            .json(&body)
            .send()
            .await
            .map_err(|e| {
                if e.is_timeout() {
                    Attempt::Retry(format!("timed out after {:?}", self.cfg.timeout))
                } else {
                    Attempt::Retry(format!("request failed: {e}"))
                }
            })?;
        let status = resp.status();
        let text = resp
            .text()
            .await
            .map_err(|e| Attempt::Retry(format!("reading the response failed: {e}")))?;
        if status.as_u16() == 429 || status.is_server_error() {
            return Err(Attempt::Retry(format!(
                "HTTP {status}: {}",
                crate::text::truncate(&text, 200)
            )));
        }
        if !status.is_success() {
            return Err(Attempt::Fatal(format!(
                "HTTP {status}: {}",
                crate::text::truncate(&text, 200)
            )));
        }
        serde_json::from_str(&text)
            .map_err(|e| Attempt::Retry(format!("response is not JSON: {e}")))
    }
}

impl Policy for LlmPolicy {
    fn info(&self) -> PolicyInfo {
        PolicyInfo {
            policy: "llm".into(),
            model: self.cfg.model.clone(),
            base_url: self.cfg.base_url.clone(),
        }
    }

    fn decide<'a>(
        &'a self,
        ctx: &'a PolicyContext<'a>,
    ) -> BoxFuture<'a, Result<Decision, PolicyError>> {
        Box::pin(async move {
            let mut messages = vec![
                json!({"role": "system", "content": prompt::SYSTEM}),
                json!({"role": "user", "content": prompt::user_message(ctx, self.cfg.prompt_budget)}),
            ];
            let attempts = self.cfg.max_retries + 1;
            let mut last_error = String::new();
            let mut malformed = false;
            for attempt in 0..attempts {
                if attempt > 0 {
                    let delay = self.cfg.backoff * 2u32.saturating_pow(attempt - 1);
                    tokio::time::sleep(delay.min(Duration::from_secs(8))).await;
                }
                match self.call(&messages).await {
                    Ok(body) => match parse::decision(&body, ctx.page) {
                        Ok(d) => return Ok(d),
                        Err(why) => {
                            tracing::warn!(%why, "LLM answer unusable");
                            malformed = true;
                            last_error = why.clone();
                            // Tell the model what was wrong, once.
                            if messages.len() == 2 {
                                messages.push(json!({"role": "user", "content": format!(
                                    "Your last reply was unusable ({why}). Reply with exactly one tool call \
                                     or one JSON object {{\"tool\": ..., \"parameters\": {{...}}}}.")}));
                            }
                        }
                    },
                    Err(Attempt::Retry(e)) => {
                        tracing::warn!(error = %e, attempt, "LLM request failed");
                        malformed = false;
                        last_error = e;
                    }
                    Err(Attempt::Fatal(e)) => {
                        return Err(PolicyError::Llm(format!(
                            "LLM endpoint {} rejected the request: {e}",
                            self.cfg.base_url
                        )))
                    }
                }
            }
            Err(if malformed {
                PolicyError::Malformed(format!(
                    "LLM returned malformed output after {attempts} attempts: {last_error}"
                ))
            } else {
                PolicyError::Llm(format!(
                    "LLM endpoint {} failed after {attempts} attempts: {last_error}",
                    self.cfg.base_url
                ))
            })
        })
    }
}
