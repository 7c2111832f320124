//! The multi-step planner over a parsed `Intent` (docs/agent.md): each step is
//! checked against the page and the run history in order; the first one not
//! visibly done decides the next action (or a prerequisite for it: open a
//! collapsed section, tab or menu; scroll it into view). Steps it cannot
//! carry out on this page (submit, search, navigate, find) go back to the
//! goal-driven planner in `mod.rs`. Progress lives only in the history and
//! the page, so a restarted server picks up where it was.

use super::fields::{self, candidate};
use super::find::{is_instruction, reading_order, resolve, role_fit, text_fit};
use crate::intent::{Choice, Done, Intent, Role, Step, Target, Verb};
use crate::page::{Page, PageElement};
use crate::policy::{Decision, PolicyContext};
use crate::text::{concepts, normalize};
use crate::types::{HistoryEntry, Tool, ToolName};
use serde_json::json;

mod choose;
#[cfg(test)]
mod tests;
mod values;

use choose::{expand_step, explore_step, select_step};
use values::{task_value, type_step};

enum Outcome {
    /// Visibly done; later steps look at history after this index.
    Done(usize),
    Act(Decision),
    /// Not for this planner (or nothing on the page serves it).
    Fallback,
}

/// Verbs this planner carries out itself.
pub fn actionable(intent: &Intent) -> bool {
    intent.steps.iter().any(|s| {
        matches!(
            s.verb,
            Verb::Click
                | Verb::Type
                | Verb::Select
                | Verb::Unselect
                | Verb::Expand
                | Verb::Explore
                | Verb::Focus
                | Verb::Hover
        )
    })
}

/// The next decision for the intent, None to let the goal planner decide.
pub fn next(ctx: &PolicyContext<'_>, intent: &Intent) -> Option<Decision> {
    if intent.steps.is_empty() || !actionable(intent) {
        return None;
    }
    let mut cursor = 0;
    for (k, step) in intent.steps.iter().enumerate() {
        let following = intent.steps.get(k + 1);
        match run_step(ctx, step, following, cursor) {
            Outcome::Done(c) => cursor = cursor.max(c),
            Outcome::Act(d) => return Some(d),
            Outcome::Fallback => return None,
        }
    }
    if intent.done == Done::Answer {
        return None;
    }
    // "Enter X" on a form with one submit button and nothing else asked:
    // a person would submit it.
    if intent.steps.last().is_some_and(|s| s.verb == Verb::Type) {
        let submits: Vec<&PageElement> = ctx
            .page
            .elements
            .iter()
            .filter(|e| !e.disabled && e.input_type == "submit" && !is_instruction(e, ctx.task))
            .collect();
        if let [e] = submits.as_slice() {
            if !clicked_since(ctx.history, 0, e) && !ctx.history.iter().any(|h| h.action == "press")
            {
                return Some(match click(e, ctx.page, ctx.history) {
                    Outcome::Act(d) => d,
                    _ => {
                        Decision::Tool(Tool::new(ToolName::Click, json!({ "id": e.id.to_json() })))
                    }
                });
            }
        }
    }
    let acted = ctx.history.iter().any(|h| {
        matches!(h.action.as_str(), "click" | "type" | "press") && h.success != Some(false)
    });
    acted.then(|| Decision::Finish(format!("Done: {}", intent.describe())))
}

fn tool(name: ToolName, params: serde_json::Value) -> Outcome {
    Outcome::Act(Decision::Tool(Tool::new(name, params)))
}

/// Click, or first bring the element into view.
fn click(e: &PageElement, page: &Page, history: &[HistoryEntry]) -> Outcome {
    let last_scrolled_to = history
        .last()
        .is_some_and(|h| h.action == "scroll" && h.element_id().is_some_and(|id| e.id.is(&id)));
    if super::targets::off_screen(e, page) && !last_scrolled_to {
        let up = e.bbox.is_some_and(|b| b.y < 0.0);
        return tool(
            ToolName::Scroll,
            json!({"direction": if up { "up" } else { "down" }, "amount": e.bbox.map(|b| b.y.abs().round()).unwrap_or(600.0).max(200.0), "id": e.id.to_json()}),
        );
    }
    tool(ToolName::Click, json!({ "id": e.id.to_json() }))
}

fn ok(h: &HistoryEntry) -> bool {
    h.success != Some(false)
}

/// Index of the first successful click after `from` on one of `ids`, or
/// (when the target has a text) on an element that showed that text.
/// `changed`: only a click after which the page changed counts (a click
/// that changed nothing did not do what was asked).
fn clicked_after(
    history: &[HistoryEntry],
    from: usize,
    ids: &[String],
    target: &Target,
    changed: bool,
) -> Option<usize> {
    history.iter().enumerate().skip(from).find_map(|(i, h)| {
        if h.action != "click" || !ok(h) || (changed && h.no_page_change()) {
            return None;
        }
        let by_id = h.element_id().is_some_and(|id| ids.contains(&id));
        let by_text = target.role != Some(Role::Widget)
            && target.text.as_deref().is_some_and(|t| {
                h.element_text.as_deref().is_some_and(|et| {
                    let n = normalize(et);
                    let w = normalize(t);
                    !w.is_empty()
                        && (n == w || (!concepts(&w).is_empty() && concepts(&n) == concepts(&w)))
                })
            });
        (by_id || by_text).then_some(i)
    })
}

fn clicked_since(history: &[HistoryEntry], from: usize, e: &PageElement) -> bool {
    history
        .iter()
        .skip(from)
        .any(|h| h.action == "click" && h.element_id().is_some_and(|id| e.id.is(&id)))
}

/// Clicked since `from`, and the page changed after it.
fn clicked_changed(history: &[HistoryEntry], from: usize, e: &PageElement) -> bool {
    history.iter().skip(from).any(|h| {
        h.action == "click" && !h.no_page_change() && h.element_id().is_some_and(|id| e.id.is(&id))
    })
}

fn last_touch(history: &[HistoryEntry], ids: &[String]) -> Option<usize> {
    history
        .iter()
        .rposition(|h| h.element_id().is_some_and(|id| ids.contains(&id)))
}

/// Just after the last click since `from` (or `from`).
fn after_last_click(history: &[HistoryEntry], from: usize) -> usize {
    history
        .iter()
        .rposition(|h| h.action == "click")
        .map(|i| i + 1)
        .unwrap_or(from)
        .max(from)
}

/// Best candidates above a floor (the floor keeps a weak text match from
/// standing in for the target).
fn best<'p>(cands: &[(f64, &'p PageElement)], floor: f64) -> Option<&'p PageElement> {
    cands.first().filter(|(s, _)| *s >= floor).map(|(_, e)| *e)
}

fn run_step(
    ctx: &PolicyContext<'_>,
    step: &Step,
    following: Option<&Step>,
    cursor: usize,
) -> Outcome {
    let page = ctx.page;
    match step.verb {
        Verb::Click | Verb::Hover | Verb::Focus => {
            click_step(ctx, step, cursor, following.is_none())
        }
        Verb::Type => type_step(ctx, step, cursor),
        Verb::Select | Verb::Unselect => select_step(ctx, step, cursor),
        Verb::Expand => expand_step(ctx, step, following, cursor),
        Verb::Explore => explore_step(ctx, step, following, cursor),
        Verb::Scroll => {
            if ctx
                .history
                .iter()
                .skip(cursor)
                .any(|h| h.action == "scroll")
            {
                Outcome::Done(ctx.history.len())
            } else {
                let up = step.arg.as_deref() == Some("up");
                tool(
                    ToolName::Scroll,
                    json!({"direction": if up { "up" } else { "down" }, "amount": 600}),
                )
            }
        }
        Verb::Navigate => match &step.arg {
            Some(u) if super::same_url(&page.url, u) => Outcome::Done(cursor),
            _ => Outcome::Fallback,
        },
        // Mid-task "find X" is the looking the next step does anyway.
        Verb::Find if following.is_some() => Outcome::Done(cursor),
        Verb::Find | Verb::Submit | Verb::Search => Outcome::Fallback,
    }
}

fn target_ok(step: &Step) -> impl Fn(&PageElement) -> bool + '_ {
    move |e: &PageElement| match step.verb {
        Verb::Focus => e.is_text_entry(),
        _ => true,
    }
}

/// `last`: the task's final step, which is done only once the page shows
/// its effect (an intermediate click, "click ONE, then TWO", may change
/// nothing visible).
fn click_step(ctx: &PolicyContext<'_>, step: &Step, cursor: usize, last: bool) -> Outcome {
    let (page, history) = (ctx.page, ctx.history);
    if let Some(key) = step.arg.as_deref().and_then(|a| a.strip_prefix("key:")) {
        if let Some(i) = history
            .iter()
            .enumerate()
            .skip(cursor)
            .find(|(_, h)| h.action == "press")
            .map(|(i, _)| i)
        {
            return Outcome::Done(i + 1);
        }
        return tool(ToolName::Press, json!({ "key": key }));
    }
    let mut target = step.target.clone();
    if target.text.is_none() && target.role.is_none() && step.verb != Verb::Focus {
        target.role = Some(Role::Button);
    }
    let filter = target_ok(step);
    let cands = resolve(page, &target, ctx.task, ctx.avoid, &filter);
    let top = cands.first().map(|(s, _)| *s).unwrap_or(0.0);
    let ids: Vec<String> = cands
        .iter()
        .filter(|(s, _)| *s >= top * 0.9 && *s >= 0.45)
        .map(|(_, e)| e.id.key())
        .collect();
    let must_change = last && step.verb == Verb::Click;
    if let Some(i) = clicked_after(history, cursor, &ids, &target, must_change) {
        return Outcome::Done(i + 1);
    }
    if let Some(e) = best(&cands, 0.45) {
        return click(e, page, history);
    }
    reveal(ctx, &target, cursor)
}

/// The target is not on the page: open what may hide it (collapsed
/// sections, unselected tabs, menus), or the form's submit button when the
/// target names a submit action. Else let the goal planner scroll or ask.
fn reveal(ctx: &PolicyContext<'_>, target: &Target, cursor: usize) -> Outcome {
    let (page, history) = (ctx.page, ctx.history);
    if let Some(t) = &target.text {
        let c = concepts(t);
        let submitish = c.iter().any(|w| {
            matches!(
                w.as_str(),
                "submit" | "login" | "search" | "continue" | "ok" | "register" | "buy"
            )
        });
        if submitish {
            let submits: Vec<&PageElement> = page
                .elements
                .iter()
                .filter(|e| {
                    !e.disabled
                        && (e.input_type == "submit"
                            || (e.tag == "button" && e.input_type != "button"))
                        && !is_instruction(e, ctx.task)
                })
                .collect();
            if let [e] = submits.as_slice() {
                if !clicked_since(history, cursor, e) {
                    return click(e, page, history);
                }
            }
        }
    }
    let mut hidden: Vec<&PageElement> = page
        .elements
        .iter()
        .filter(|e| !e.disabled && !e.is_text_entry() && !ctx.avoid.iter().any(|a| e.id.is(a)))
        .filter(|e| {
            e.state.expanded == Some(false)
                || (e.state.selected == Some(false) && role_fit(e, Role::Tab) > 0.0)
                || (e.role == "button" && candidate(e).is_menu())
        })
        .filter(|e| !clicked_since(history, 0, e))
        .collect();
    let _ = cursor;
    hidden.sort_by(|a, b| reading_order(a, b));
    if let Some(r) = target.role {
        // Prefer the opener of the kind named ("the menu", "the tab").
        if let Some(pos) = hidden.iter().position(|e| role_fit(e, r) >= 1.0) {
            let e = hidden[pos];
            return click(e, page, history);
        }
    }
    if let Some(e) = hidden.first() {
        return click(e, page, history);
    }
    // A named target that is not on screen: scroll to look for it (the
    // snapshot holds what is near the viewport first), a few times.
    let scrolls = history
        .iter()
        .skip(cursor)
        .filter(|h| h.action == "scroll")
        .count();
    if target.text.is_some() && scrolls < MAX_LOOK_SCROLLS {
        return tool(
            ToolName::Scroll,
            json!({"direction": "down", "amount": 600}),
        );
    }
    Outcome::Fallback
}

/// Scrolls the step planner makes looking for a named target.
const MAX_LOOK_SCROLLS: usize = 10;

/// Elements ranked by the parsed goal, best first: for each step with a
/// target, its best matches; for values, their fields. For the LLM prompt.
pub fn ranked<'p>(
    page: &'p Page,
    intent: &Intent,
    task: &str,
    limit: usize,
) -> Vec<&'p PageElement> {
    let mut out: Vec<&PageElement> = Vec::new();
    let push = |e: &'p PageElement, out: &mut Vec<&'p PageElement>| {
        if out.len() < limit && !out.iter().any(|o| o.id == e.id) {
            out.push(e);
        }
    };
    for step in &intent.steps {
        if !step.target.is_empty() && step.verb != Verb::Type {
            for (_, e) in resolve(page, &step.target, task, &[], &|_| true)
                .into_iter()
                .filter(|(s, _)| *s >= 0.45)
                .take(3)
            {
                push(e, &mut out);
            }
        }
        if let Some(Choice::Exactly(items)) = &step.choice {
            for item in items {
                if let Some(e) = page
                    .elements
                    .iter()
                    .filter(|e| !e.is_text_entry())
                    .find(|e| text_fit(e, item) >= 0.8)
                {
                    push(e, &mut out);
                }
            }
        }
        let mut taken = Vec::new();
        for v in &step.values {
            let text = v.text().unwrap_or_default();
            if let Some(e) = fields::field_for(&task_value(v, &text), page, &taken, &[]) {
                taken.push(e.id.key());
                push(e, &mut out);
            }
        }
    }
    out
}
