//! The browse LLM policy (docs/contracts/browse.md §6): not wired yet, the
//! built-in policy answers meanwhile.

use crate::error::ApiError;
use crate::state::AppState;
use sentience_agent::llm::LlmConfig;
use sentience_browse::{builtin_step, Answer, Conversation, Request};

pub async fn step(
    _s: &AppState,
    _cfg: &LlmConfig,
    conv: Conversation,
    req: Request,
) -> Result<(Conversation, Answer), ApiError> {
    let mut conv = conv;
    let a = builtin_step(&mut conv, req.html(), req.url());
    Ok((conv, a))
}
