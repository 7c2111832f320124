//! Which element to click for the task's goal: relevance to the task
//! (docs/contracts/system2.md §7 semantic relevance) plus a bonus for the goal's own verbs.
//! Elements that looped (3 clicks, no change) are excluded via reflections.

use super::fields::candidate;
use crate::page::{Page, PageElement};
use crate::policy::PolicyContext;
use crate::system2::score::relevance;
use crate::task::{Goal, TaskPlan};
use crate::text::concepts;

fn goal_bonus(goal: Goal, label_concepts: &[String]) -> f64 {
    let has = |c: &str| label_concepts.iter().any(|x| x == c);
    let (main, second) = match goal {
        Goal::Login => ("login", "continue"),
        Goal::Search => ("search", "submit"),
        Goal::Submit => ("submit", "continue"),
        Goal::Pay => ("buy", "submit"),
        Goal::Generic => return 0.0,
    };
    if has(main) {
        0.6
    } else if has(second) || (goal != Goal::Search && has("submit")) {
        0.35
    } else {
        0.0
    }
}

/// The best element to click, with its score; None if nothing is relevant.
pub fn best_click<'p>(
    ctx: &PolicyContext<'p>,
    plan: &TaskPlan,
    page: &'p Page,
) -> Option<&'p PageElement> {
    let task_concepts = concepts(ctx.task);
    let mut best: Option<(f64, &PageElement)> = None;
    for e in &page.elements {
        if !e.is_clickable()
            || e.is_text_entry()
            || e.disabled
            || ctx.avoid.iter().any(|a| e.id.is(a))
        {
            continue;
        }
        // Not a text entry: the candidate's text is the element's label.
        let label = e.label();
        let label_c = concepts(label);
        // Destructive or exit controls only when the task asks for them.
        if label_c.iter().any(|w| {
            matches!(w.as_str(), "logout" | "delete" | "close") && !task_concepts.contains(w)
        }) {
            continue;
        }
        // `relevance` of a labelled non-field is 0 unless the label shares a
        // concept with the task or the task quotes targets: skip it then.
        let relevant = !plan.targets.is_empty()
            || label.trim().is_empty()
            || label_c.iter().any(|w| task_concepts.contains(w));
        let r = if relevant {
            relevance(&candidate(e), &task_concepts, plan, &[]).value
        } else {
            0.0
        };
        let mut s = r + goal_bonus(plan.goal, &label_c);
        if e.is_primary {
            s += 0.05;
        }
        if s >= 0.35 && best.is_none_or(|(b, _)| s > b) {
            best = Some((s, e));
        }
    }
    best.map(|(_, e)| e)
}

/// Likely off-screen: flagged by docs/contracts/snapshot.md §6.7, or below the viewport height.
pub fn off_screen(e: &PageElement, page: &Page) -> bool {
    if !e.in_viewport {
        return true;
    }
    match (e.bbox, page.viewport_height) {
        (Some(b), Some(h)) => b.y > h || b.y + b.height < 0.0,
        _ => false,
    }
}
