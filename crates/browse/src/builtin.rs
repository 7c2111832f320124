//! The built-in policy (no LLM): the one planner of every surface (crates/agent
//! `planner`) fed with the elements the snapshot engine found in the HTML
//! and the DOM facts beside them (the one page model, `Observed`), so
//! nothing here repeats a planning or role rule (docs/contracts/browse.md §6
//! "Policies").

use crate::conversation::{Action, Conversation};
use crate::page::BrowsePage;
use sentience_agent::planner::plan;
use sentience_agent::policy::{Decision, PolicyContext};
use sentience_agent::types::{RunMode, Tool};
use sentience_agent::{ElementId, Page};

/// Characters of page text the planner sees (success detection).
const VISIBLE_TEXT_CHARS: usize = 20_000;
/// The planner scrolls when nothing relevant is visible; the whole HTML is
/// visible to us, so a scroll is answered with "nothing changed", at most
/// this many times, before its next idea is taken.
const MAX_SCROLLS: usize = 12;
/// How long a `wait` lasts when the planner names no time (it wants to
/// look again at a page that is still changing).
const DEFAULT_WAIT_MS: u64 = 500;

/// The planner's view of the page: the snapshot engine's elements with the
/// DOM facts the HTML gives, as the one page model (no JSON between them).
pub fn agent_page(page: &BrowsePage, url: &str) -> Page {
    // Tall enough that every synthetic row is "on screen": the whole HTML
    // is in front of us, nothing needs scrolling into view.
    let height = (page.elements.len().max(1) as f64 + 1.0) * crate::dom::ROW * 4.0;
    Page::new(
        url.to_string(),
        page.title.clone(),
        page.text(VISIBLE_TEXT_CHARS),
        page.elements.clone(),
        Some(height),
    )
}

fn id_of(id: &ElementId) -> Option<u32> {
    match id {
        ElementId::Num(n) => u32::try_from(*n).ok(),
        ElementId::Str(s) => s.parse().ok(),
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
        match &tool {
            Tool::Navigate { url } => return Action::Goto(url.clone()),
            Tool::Click { id } => {
                if let Some(id) = id_of(id) {
                    return Action::Click(id);
                }
            }
            Tool::Type { id, text } => {
                if let Some(id) = id_of(id) {
                    return Action::Type {
                        id,
                        text: text.clone(),
                    };
                }
            }
            // A client that presses keys gets the key the planner chose
            // (Page Up in a date field, Escape, Enter) as the run loop's
            // would; one that does not gets Enter as a click on the form's
            // submit button (docs/contracts/browse.md §5), and no other key.
            Tool::Press { key, id, repeat } if conv.accepts("press") => {
                let id = id.as_ref().and_then(id_of);
                return Action::Press {
                    id,
                    key: key.clone(),
                    repeat: repeat.unwrap_or(1),
                };
            }
            Tool::Press {
                key, id: Some(id), ..
            } if key.eq_ignore_ascii_case("enter") => {
                if let Some(id) = id_of(id) {
                    return Action::Enter(id);
                }
            }
            // A client that waits is told to (a task's "wait 3 seconds", a
            // page still changing) and sends the page it then has.
            Tool::Observe { wait_ms } if conv.accepts("wait") => {
                return Action::Wait(wait_ms.unwrap_or(DEFAULT_WAIT_MS));
            }
            Tool::Finish { result } => return Action::Finish(result.clone()),
            Tool::Press { .. }
            | Tool::Scroll { .. }
            | Tool::Observe { .. }
            | Tool::AskUser { .. } => {}
        }
        // Scrolling (and, for a client that cannot, waiting or a key) shows
        // nothing new in HTML we already hold in full: tell the planner so
        // (page unchanged) and let it choose again.
        let sig = agent.signature();
        let mut entry = sentience_agent::planner::entry(conv.steps, &tool, Some(agent), "Success");
        entry.success = Some(true);
        entry.page_after = Some(sig);
        history.push(entry);
    }
    Action::Fail("nothing on this page matches the task, and the whole page was considered".into())
}
