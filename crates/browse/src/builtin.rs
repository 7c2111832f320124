//! The built-in policy (no LLM): the run API's planner (crates/agent
//! `planner::plan`, the System 2 scorer over a page) fed with the elements
//! the snapshot engine found in the HTML. The page reaches it in the same
//! specs/001 shape the extension sends to /step, so nothing here repeats a
//! planning or role rule (docs/contracts/browse.md §6 "Policies").

use crate::conversation::{Action, Conversation};
use crate::page::BrowsePage;
use sentience_agent::planner::plan;
use sentience_agent::policy::{Decision, PolicyContext};
use sentience_agent::types::{HistoryEntry, RunMode, ToolName};
use sentience_agent::Page;
use serde_json::{json, Map, Value};

/// Characters of page text the planner sees (success detection).
const VISIBLE_TEXT_CHARS: usize = 20_000;
/// The planner scrolls when nothing relevant is visible; the whole HTML is
/// visible to us, so a scroll is answered with "nothing changed", at most
/// this many times, before its next idea is taken.
const MAX_SCROLLS: usize = 12;

/// The planner's view of the page: the snapshot engine's elements plus the
/// facts the extension adds (tag, type, name, href …), specs/001 shape.
pub fn agent_page(page: &BrowsePage, url: &str) -> Page {
    let elements: Vec<Value> = page
        .elements
        .iter()
        .map(|e| {
            let mut v = serde_json::to_value(&e.element).unwrap_or(Value::Null);
            if let Value::Object(o) = &mut v {
                let mut put = |k: &str, s: &str| {
                    if !s.is_empty() {
                        o.insert(k.into(), Value::from(s));
                    }
                };
                put("tag", &e.tag);
                put("type", &e.input_type);
                put("name", &e.name);
                put("placeholder", &e.placeholder);
                put("value", &e.value);
                put("href", &e.href);
                put("ariaLabel", &e.aria_label);
            }
            v
        })
        .collect();
    let snapshot = json!({
        "status": "success",
        "url": url,
        "title": page.title,
        "visibleText": page.text(VISIBLE_TEXT_CHARS),
        "viewport": {"width": crate::dom::PAGE_WIDTH, "height": (page.elements.len().max(1) as f64 + 1.0) * crate::dom::ROW * 4.0},
        "elements": elements,
    });
    Page::from_json(&snapshot).unwrap_or_else(|_| Page {
        shape: sentience_agent::page::SnapshotShape::Sentience,
        url: url.to_string(),
        title: page.title.clone(),
        visible_text: String::new(),
        elements: Vec::new(),
        viewport_height: None,
    })
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
