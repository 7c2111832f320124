//! The browse LLM policy (docs/contracts/browse.md §6): any OpenAI-compatible
//! chat-completions endpoint (`LLM_*`, as for runs) reads the distilled page
//! and picks an element id; the server writes the selector and applies the
//! protocol's rules. An unusable answer (malformed JSON, an id that is not
//! listed) is sent back to the model once with what was wrong; a second one
//! ends the conversation with a `finish` that says why. Transport failures
//! are retried with backoff, then answered 500 with the conversation left
//! as it was, so the client may send the same message again.

use crate::error::ApiError;
use crate::state::AppState;
use sentience_agent::llm::LlmConfig;
use sentience_browse::distill::{distill, DEFAULT_BUDGET_TOKENS};
use sentience_browse::{builtin, llm, Action, Answer, BrowsePage, Conversation, Request};
use serde_json::{json, Value};
use std::time::Duration;

fn internal(e: tokio::task::JoinError) -> ApiError {
    ApiError::Internal(format!("browse policy failed: {e}"))
}

/// One chat-completions call, retried on 429, 5xx and network errors.
async fn call(cfg: &LlmConfig, messages: &[Value]) -> Result<Value, ApiError> {
    let http = reqwest::Client::builder()
        .timeout(cfg.timeout)
        .build()
        .map_err(|e| ApiError::Internal(format!("HTTP client: {e}")))?;
    let url = format!("{}/chat/completions", cfg.base_url);
    let body = llm::request_body(&cfg.model, messages);
    let mut last = String::new();
    for attempt in 0..=cfg.max_retries {
        if attempt > 0 {
            let delay = cfg.backoff * 2u32.saturating_pow(attempt - 1);
            tokio::time::sleep(delay.min(Duration::from_secs(8))).await;
        }
        let resp = match http
            .post(&url)
            .bearer_auth(&cfg.api_key)
            .json(&body)
            .send()
            .await
        {
            Ok(r) => r,
            Err(e) => {
                last = format!("request failed: {e}");
                continue;
            }
        };
        let status = resp.status();
        let text = resp.text().await.unwrap_or_default();
        if status.as_u16() == 429 || status.is_server_error() {
            last = format!(
                "HTTP {status}: {}",
                text.chars().take(200).collect::<String>()
            );
            continue;
        }
        if !status.is_success() {
            return Err(ApiError::Policy(format!(
                "LLM endpoint {} rejected the request: HTTP {status}: {}",
                cfg.base_url,
                text.chars().take(200).collect::<String>()
            )));
        }
        // A body that is not JSON at all is the model's answer being unusable
        // (handled by the caller as malformed), not a transport failure.
        return Ok(serde_json::from_str(&text).unwrap_or(Value::String(text)));
    }
    Err(ApiError::Policy(format!(
        "LLM endpoint {} failed after {} attempts: {last}",
        cfg.base_url,
        cfg.max_retries + 1
    )))
}

/// A relative URL from the model, resolved against the page's.
fn absolute(url: &str, base: &str) -> String {
    if reqwest::Url::parse(url).is_ok() {
        return url.to_string();
    }
    reqwest::Url::parse(base)
        .and_then(|b| b.join(url))
        .map(|u| u.to_string())
        .unwrap_or_else(|_| url.to_string())
}

pub async fn step(
    _s: &AppState,
    cfg: &LlmConfig,
    conv: Conversation,
    req: Request,
) -> Result<(Conversation, Answer), ApiError> {
    let html = req.html().to_string();
    let url = req.url().map(str::to_string);
    // The parsed page is not Send: parse, list and answer on blocking
    // threads, and hold only strings across the model's turn.
    let (conv, listing, ids, sig, html) = tokio::task::spawn_blocking(move || {
        let mut conv = conv;
        let page_url = url.clone().unwrap_or_else(|| conv.url.clone());
        let page = BrowsePage::parse(&html, &page_url);
        // The planner's page gives the same signature and success text as
        // for the built-in policy.
        let agent = builtin::agent_page(&page, &page_url);
        let (sig, text) = (agent.signature(), agent.all_text());
        conv.observe(url.as_deref(), &sig, &text);
        let listing = distill(&page, DEFAULT_BUDGET_TOKENS);
        (conv, listing.text, listing.ids, sig, html)
    })
    .await
    .map_err(internal)?;
    let mut done = llm::done_lines(&conv.history);
    // A click the server added before typing is not in the planner's
    // history; the model should know the field has focus.
    if let Some(last) = conv.last.as_ref().filter(|l| l.endpoint == "click") {
        let recorded = conv.history.last().is_some_and(|h| h.action == "click");
        if let (false, Some(sel)) = (recorded, &last.selector) {
            done.push(format!("clicked {sel} to focus it before typing"));
        }
    }
    let mut messages = vec![
        json!({"role": "system", "content": llm::SYSTEM}),
        json!({"role": "user", "content": llm::user_message(&conv.task, &conv.url, &done, &listing)}),
    ];
    let mut choice = None;
    let mut why = String::new();
    for attempt in 0..2 {
        let body = call(cfg, &messages).await?;
        match llm::parse(&body, &ids) {
            Ok(c) => {
                choice = Some(c);
                break;
            }
            Err(e) => {
                tracing::warn!(why = %e, attempt, "browse LLM answer unusable");
                why = e;
                let said = body
                    .pointer("/choices/0/message/content")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string();
                messages.push(json!({"role": "assistant", "content": said}));
                messages.push(json!({"role": "user", "content": llm::correction(&why)}));
            }
        }
    }
    tokio::task::spawn_blocking(move || {
        let mut conv = conv;
        let page = BrowsePage::parse(&html, &conv.url.clone());
        let answer = match choice {
            Some(mut c) => {
                if let Action::Goto(u) = &c.action {
                    c.action = Action::Goto(absolute(u, &conv.url));
                }
                conv.answer_with(&page, c.action, &sig, c.reason)
            }
            None => conv.answer(
                &page,
                Action::Fail(format!(
                    "the language model's answer was unusable twice in a row (last: {why})"
                )),
                &sig,
            ),
        };
        (conv, answer)
    })
    .await
    .map_err(internal)
}
