//! The HTML browse protocol (docs/contracts/browse.md) without
//! I/O: HTML → elements through the snapshot engine ([`page`]), selectors
//! that match exactly one element ([`selector`]), the listing an LLM reads
//! ([`distill`]), the built-in policy ([`builtin`]), the LLM policy's prompt
//! and answer checks ([`llm`]), and the conversation that applies the
//! protocol's rules to whatever a policy chose ([`conversation`]).
//! The server (crates/server `routes::browse`) adds HTTP, WebSocket and storage.

pub mod builtin;
mod cards;
pub mod conversation;
pub mod distill;
pub mod dom;
pub mod llm;
pub mod page;
pub mod protocol;
pub mod reason;
pub mod selector;

pub use conversation::{Action, Conversation};
pub use distill::{distill, Listing};
pub use page::{selector_candidates, BrowsePage, SelectorCandidate};
pub use protocol::{Answer, Endpoint, Request, RequestError};

/// One built-in step: the page parsed, the conversation told about it, the
/// planner's choice turned into an answer (rules applied).
pub fn builtin_step(conv: &mut Conversation, html: &str, url: Option<&str>) -> Answer {
    let page_url = url.unwrap_or(&conv.url).to_string();
    let page = BrowsePage::parse(html, &page_url);
    let agent = builtin::agent_page(&page, &page_url);
    let sig = agent.signature();
    conv.observe(url, &sig, &agent.all_text());
    let mut now = conv.clone();
    now.history = conv.history_on(&page);
    let action = builtin::decide(&now, &agent);
    conv.answer(&page, action, &sig)
}
