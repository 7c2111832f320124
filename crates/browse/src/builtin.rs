//! The built-in policy (no LLM): the run API's planner (crates/agent
//! `planner::plan`, the System 2 scorer over a page) fed with the elements
//! the snapshot engine found in the HTML. The page reaches it in the same
//! snapshot shape (docs/contracts/snapshot.md) the extension sends to /step, so
//! nothing here repeats a planning or role rule (docs/contracts/browse.md §6
//! "Policies").

use crate::conversation::{Action, Conversation};
use crate::page::BrowsePage;
use sentience_agent::planner::plan;
use sentience_agent::policy::{Decision, PolicyContext};
use sentience_agent::types::{HistoryEntry, RunMode, ToolName};
use sentience_agent::Page;
use sentience_snapshot_core::contract::Viewport;
use sentience_snapshot_core::Element;
use serde::Serialize;
use serde_json::{Map, Value};

/// Characters of page text the planner sees (success detection).
const VISIBLE_TEXT_CHARS: usize = 20_000;
/// The planner scrolls when nothing relevant is visible; the whole HTML is
/// visible to us, so a scroll is answered with "nothing changed", at most
/// this many times, before its next idea is taken.
const MAX_SCROLLS: usize = 12;

/// One element as the extension sends it to /step: the engine's element
/// plus the facts the extension adds.
#[derive(Serialize)]
struct Extended<'a> {
    #[serde(flatten)]
    element: &'a Element,
    #[serde(skip_serializing_if = "str::is_empty")]
    tag: &'a str,
    #[serde(rename = "type", skip_serializing_if = "str::is_empty")]
    input_type: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    name: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    placeholder: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    value: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    href: &'a str,
    #[serde(rename = "ariaLabel", skip_serializing_if = "str::is_empty")]
    aria_label: &'a str,
}

#[derive(Serialize)]
struct Snapshot<'a> {
    status: &'a str,
    url: &'a str,
    title: &'a str,
    #[serde(rename = "visibleText")]
    visible_text: String,
    viewport: Viewport,
    elements: Vec<Extended<'a>>,
}

/// The planner's view of the page: the snapshot engine's elements plus the
/// facts the extension adds (tag, type, name, href …), in the docs/contracts/snapshot.md
/// shape /step reads (as JSON text: its fast path, no `Value` tree).
/// `Err` only if the agent crate refuses the page it is given (a bug).
pub fn agent_page(page: &BrowsePage, url: &str) -> Result<Page, String> {
    let snapshot = Snapshot {
        status: "success",
        url,
        title: &page.title,
        visible_text: page.text(VISIBLE_TEXT_CHARS),
        // Tall enough that every synthetic row is "on screen": the whole
        // HTML is in front of us, nothing needs scrolling into view.
        viewport: Viewport {
            width: crate::dom::PAGE_WIDTH,
            height: (page.elements.len().max(1) as f64 + 1.0) * crate::dom::ROW * 4.0,
        },
        elements: page
            .elements
            .iter()
            .map(|e| Extended {
                element: &e.element,
                tag: &e.tag,
                input_type: &e.input_type,
                name: &e.name,
                placeholder: &e.placeholder,
                value: &e.value,
                href: &e.href,
                aria_label: &e.aria_label,
            })
            .collect(),
    };
    serde_json::to_string(&snapshot)
        .map_err(|e| e.to_string())
        .and_then(|json| Page::from_json_str(&json))
        .map(|(page, _)| page)
}

fn id_param(params: &Map<String, Value>) -> Option<u32> {
    match params.get("id")? {
        Value::Number(n) => n.as_u64().and_then(|n| u32::try_from(n).ok()),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

/// The next action for the conversation on this page.
pub fn decide(conv: &Conversation, agent: &Page) -> Action {
    let baseline = conv.baseline.clone().unwrap_or_default();
    let mut history = conv.history.clone();
    let avoid = sentience_agent::reflect::avoided(&conv.reflections, conv.steps);
    for _ in 0..=MAX_SCROLLS {
        let ctx = PolicyContext {
            task: &conv.task,
            mode: RunMode::Autonomous,
            page: agent,
            history: &history,
            reflections: &conv.reflections,
            avoid: &avoid,
            baseline: &baseline,
            step: conv.steps,
            user_answers: &[],
        };
        let tool = match plan(&ctx) {
            Decision::Finish(result) => return Action::Finish(result),
            Decision::Fail(why) => return Action::Fail(why),
            Decision::Ask(question) => {
                return Action::Fail(format!(
                    "the built-in policy would need to ask the user: {question}"
                ))
            }
            Decision::Tool(t) => t,
        };
        let p = &tool.parameters;
        match tool.name {
            ToolName::Navigate => {
                if let Some(url) = tool.str_param("url") {
                    return Action::Goto(url.to_string());
                }
            }
            ToolName::Click => {
                if let Some(id) = id_param(p) {
                    return Action::Click(id);
                }
            }
            ToolName::Type => {
                if let (Some(id), Some(text)) = (id_param(p), tool.str_param("text")) {
                    return Action::Type {
                        id,
                        text: text.to_string(),
                    };
                }
            }
            ToolName::Press => {
                if let Some(id) = id_param(p) {
                    return Action::Enter(id);
                }
            }
            ToolName::Finish => {
                return Action::Finish(tool.str_param("result").unwrap_or("done").to_string())
            }
            ToolName::Scroll | ToolName::Observe | ToolName::AskUser => {}
        }
        // Scrolling shows nothing new in HTML we already hold in full: tell
        // the planner so (page unchanged) and let it choose again.
        let sig = agent.signature();
        history.push(HistoryEntry {
            step_number: conv.steps,
            action: tool.name.as_str().into(),
            observation: "Success".into(),
            timestamp: 0,
            parameters: Some(tool.parameters.clone()),
            success: Some(true),
            element_text: None,
            bbox: None,
            url: Some(agent.url.clone()),
            page_before: Some(sig.clone()),
            page_after: Some(sig),
        });
    }
    Action::Fail("nothing on this page matches the task, and the whole page was considered".into())
}
