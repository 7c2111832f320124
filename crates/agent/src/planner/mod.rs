//! The built-in run policy: the System 2 scorer (docs/contracts/system2.md §7) planning over a
//! snapshot. Order of business each step: finish if the goal is visibly met;
//! navigate to a URL the task names; type each value the task gives into
//! its field; submit (click the goal's button, or press Enter); scroll when
//! the target is off-screen or nothing relevant is visible; go back or ask
//! the user when stuck. It remembers what it did through the run history.

mod fields;
pub mod find;
mod goal;
mod lookup;
pub mod steps;
mod targets;

use crate::intent::{Intent, ValueSource};
use crate::policy::{BoxFuture, Decision, Policy, PolicyContext, PolicyError, PolicyInfo};
use crate::task::{FieldKind, Goal, TaskPlan, TaskValue};
use crate::types::{Tool, ToolName};
use serde_json::json;

pub use goal::same_url;

/// The embedded scorer policy (no LLM).
#[derive(Debug, Default, Clone)]
pub struct ScorerPolicy;

impl Policy for ScorerPolicy {
    fn info(&self) -> PolicyInfo {
        PolicyInfo {
            policy: "system2".into(),
            model: "embedded".into(),
            base_url: "embedded".into(),
        }
    }

    fn decide<'a>(
        &'a self,
        ctx: &'a PolicyContext<'a>,
    ) -> BoxFuture<'a, Result<Decision, PolicyError>> {
        Box::pin(std::future::ready(Ok(plan(ctx))))
    }
}

/// Scrolls allowed in a row before the planner stops hoping for more content.
const MAX_SCROLLS: usize = 3;

/// The task's plan for the goal-driven steps below: the quoted values of
/// `TaskPlan`, plus the unquoted ones the intent parser found ("username
/// alice") when there are no quoted ones.
fn task_plan(task: &str, intent: &Intent) -> TaskPlan {
    let mut plan = TaskPlan::parse(task);
    if plan.values.is_empty() {
        for v in intent.values() {
            if let (ValueSource::Literal(_), Some(text)) = (&v.source, v.text()) {
                plan.values.push(TaskValue {
                    kind: v.field,
                    label: v.label.clone(),
                    value: text,
                });
            }
        }
    }
    plan
}

pub fn plan(ctx: &PolicyContext<'_>) -> Decision {
    let intent = Intent::parse(ctx.task);
    let page = ctx.page;
    let mut plan = task_plan(ctx.task, &intent);
    fields::page_values(ctx.task, &mut plan, page);
    let plan = plan;
    // Multi-step tasks: the step planner, while it has something to do.
    if let Some(d) = steps::next(ctx, &intent) {
        return d;
    }
    if let Some(result) = goal::goal_met(ctx, &plan, steps::actionable(&intent)) {
        return Decision::Finish(result);
    }
    if let Some(url) = &plan.url {
        let navigated = ctx
            .history
            .iter()
            .any(|h| h.action == "navigate" && h.param_str("url") == Some(url.as_str()));
        if !same_url(&page.url, url) && !navigated {
            return Decision::Tool(Tool::new(ToolName::Navigate, json!({ "url": url })));
        }
    }
    // Values: each into its field, in task order.
    let mut taken: Vec<String> = Vec::new();
    let mut last_field: Option<String> = None;
    for v in &plan.values {
        if let Some(id) = fields::entered(v, page, ctx.history) {
            taken.push(id.clone());
            last_field = Some(id);
            continue;
        }
        if let Some(e) = fields::field_for(v, page, &taken, ctx.avoid) {
            return Decision::Tool(Tool::new(
                ToolName::Type,
                json!({ "id": e.id.to_json(), "text": v.value }),
            ));
        }
    }
    // Submit / act: the goal's button, else Enter in the last field typed.
    let submitted_enter = |id: &str| {
        ctx.history.iter().any(|h| {
            h.action == "press"
                && h.element_id().as_deref() == Some(id)
                && h.url.as_deref() == Some(page.url.as_str())
        })
    };
    let search_first =
        plan.goal == Goal::Search && plan.values.iter().any(|v| v.kind == FieldKind::Search);
    if let Some(e) = targets::best_click(ctx, &plan, page) {
        let last_scrolled = ctx.history.last().is_some_and(|h| h.action == "scroll");
        if targets::off_screen(e, page) && !last_scrolled {
            let direction = if e.bbox.is_some_and(|b| b.y < 0.0) {
                "up"
            } else {
                "down"
            };
            let amount = e
                .bbox
                .map(|b| b.y.abs().round())
                .unwrap_or(600.0)
                .max(200.0);
            return Decision::Tool(Tool::new(
                ToolName::Scroll,
                json!({ "direction": direction, "amount": amount, "id": e.id.to_json() }),
            ));
        }
        return Decision::Tool(Tool::new(ToolName::Click, json!({ "id": e.id.to_json() })));
    }
    if let Some(id) = last_field.filter(|id| !submitted_enter(id)) {
        if search_first || plan.goal != Goal::Generic {
            let id_json = page.find(&id).map(|e| e.id.to_json()).unwrap_or(json!(id));
            return Decision::Tool(Tool::new(
                ToolName::Press,
                json!({ "key": "Enter", "id": id_json }),
            ));
        }
    }
    let recent_scrolls = ctx
        .history
        .iter()
        .rev()
        .take_while(|h| h.action == "scroll")
        .count();
    if recent_scrolls < MAX_SCROLLS
        && ctx.history.iter().filter(|h| h.action == "scroll").count() < 8
    {
        return Decision::Tool(Tool::new(
            ToolName::Scroll,
            json!({ "direction": "down", "amount": 600 }),
        ));
    }
    // Backtrack: return to the last different page we came from.
    if let Some(prev) = ctx
        .history
        .iter()
        .rev()
        .filter_map(|h| h.url.as_deref())
        .find(|u| !same_url(u, &page.url))
    {
        let already = ctx
            .history
            .iter()
            .any(|h| h.action == "navigate" && h.param_str("url") == Some(prev));
        if !already {
            return Decision::Tool(Tool::new(ToolName::Navigate, json!({ "url": prev })));
        }
    }
    // Asking again on the same page after the user already answered without
    // telling us anything new would loop forever: give up with a reason.
    let asked_here = ctx
        .history
        .iter()
        .rev()
        .take_while(|h| h.url.as_deref().is_none_or(|u| same_url(u, &page.url)))
        .any(|h| h.action == "ask_user");
    if asked_here {
        return Decision::Fail(format!(
            "Stuck: nothing on {} helps with \"{}\", and asking did not help",
            page.url, ctx.task
        ));
    }
    Decision::Ask(format!(
        "I could not find anything on {} that helps with \"{}\". How should I continue?",
        page.url, ctx.task
    ))
}
