//! Select, expand and explore steps: ticking exactly a set, choosing
//! options, opening sections / tabs until the next target shows.

use super::{best, click, clicked_changed, clicked_since, last_touch, reveal, tool, Outcome};
use crate::intent::{Choice, Role, Step, Target, Verb};
use crate::page::PageElement;
use crate::planner::find::{is_instruction, reading_order, resolve, role_fit, text_fit};
use crate::policy::PolicyContext;
use crate::text::{concepts, normalize};
use crate::types::ToolName;
use serde_json::json;

pub(super) fn checkable(e: &PageElement) -> bool {
    matches!(
        e.role.as_str(),
        "checkbox" | "radio" | "option" | "menuitemcheckbox" | "menuitemradio" | "switch"
    ) || matches!(e.input_type.as_str(), "checkbox" | "radio")
}

pub(super) fn is_checked(e: &PageElement) -> bool {
    matches!(
        e.state.checked,
        Some(sentience_snapshot_query::Checked::TRUE)
    ) || e.state.selected == Some(true)
}

pub(super) fn select_step(ctx: &PolicyContext<'_>, step: &Step, cursor: usize) -> Outcome {
    let (page, history) = (ctx.page, ctx.history);
    let want = step.verb == Verb::Select;
    let boxes: Vec<&PageElement> = page
        .elements
        .iter()
        .filter(|e| checkable(e) && !e.disabled)
        .collect();
    let mut touched: Vec<String> = Vec::new();
    let toggle = |e: &PageElement| click(e, page, history);
    match &step.choice {
        Some(Choice::Exactly(items)) => {
            let mut wanted: Vec<String> = Vec::new();
            let mut found_any = false;
            for item in items {
                // A checkbox / radio / option labelled with the item.
                let m = boxes
                    .iter()
                    .map(|e| (text_fit(e, item), *e))
                    .filter(|(s, _)| *s >= 0.8)
                    .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| reading_order(b.1, a.1)));
                if let Some((_, e)) = m {
                    found_any = true;
                    wanted.push(e.id.key());
                    touched.push(e.id.key());
                    if is_checked(e) != want {
                        return toggle(e);
                    }
                    continue;
                }
                // An option of a <select> / combobox.
                let sel = page.elements.iter().find(|e| {
                    !e.disabled
                        && e.state.options().iter().any(|o| {
                            normalize(&o.text) == normalize(item)
                                || normalize(&o.value) == normalize(item)
                        })
                });
                if let Some(s) = sel {
                    found_any = true;
                    touched.push(s.id.key());
                    let chosen = s.state.options().iter().any(|o| {
                        o.selected
                            && (normalize(&o.text) == normalize(item)
                                || normalize(&o.value) == normalize(item))
                    });
                    if !chosen && want {
                        return tool(ToolName::Type, json!({"id": s.id.to_json(), "text": item}));
                    }
                    continue;
                }
                // Any other element showing exactly the item (custom lists).
                let other = page
                    .elements
                    .iter()
                    .filter(|e| !e.is_text_entry() && !e.disabled && !is_instruction(e, ctx.task))
                    .find(|e| text_fit(e, item) >= 0.99);
                if let Some(e) = other {
                    found_any = true;
                    touched.push(e.id.key());
                    if !clicked_since(history, cursor, e) && want {
                        return click(e, page, history);
                    }
                    continue;
                }
                if !found_any {
                    return reveal(
                        ctx,
                        &Target {
                            text: Some(item.clone()),
                            ..step.target.clone()
                        },
                        cursor,
                    );
                }
            }
            // Exactly the set: untick checkboxes that are not in it.
            if want {
                if let Some(e) = boxes.iter().find(|e| {
                    (e.role == "checkbox" || e.input_type == "checkbox")
                        && is_checked(e)
                        && !wanted.contains(&e.id.key())
                }) {
                    return toggle(e);
                }
            }
            if !found_any {
                return Outcome::Fallback;
            }
        }
        Some(Choice::Nothing) => {
            if let Some(e) = boxes.iter().find(|e| is_checked(e) && e.role == "checkbox") {
                return toggle(e);
            }
        }
        Some(Choice::All) => {
            if let Some(e) = boxes
                .iter()
                .find(|e| is_checked(e) != want && e.role != "radio")
            {
                return toggle(e);
            }
        }
        Some(Choice::Like(words)) => {
            let wc: Vec<String> = words.iter().flat_map(|w| concepts(w)).collect();
            for e in &boxes {
                let ec = concepts(e.label());
                let like = !ec.is_empty() && ec.iter().all(|c| wc.contains(c));
                touched.push(e.id.key());
                if like && is_checked(e) != want {
                    return toggle(e);
                }
            }
        }
        None => {
            let t = step.target.clone();
            let cands = resolve(page, &t, ctx.task, ctx.avoid, &|e: &PageElement| {
                checkable(e) || e.role == "combobox"
            });
            match best(&cands, 0.45) {
                Some(e) => {
                    touched.push(e.id.key());
                    if checkable(e) && is_checked(e) != want {
                        return toggle(e);
                    }
                    if !checkable(e) && !clicked_since(history, cursor, e) {
                        return click(e, page, history);
                    }
                }
                None => return reveal(ctx, &t, cursor),
            }
        }
    }
    Outcome::Done(
        last_touch(history, &touched)
            .map(|i| i + 1)
            .unwrap_or(cursor),
    )
}

/// Is the next step's target on the page already (then nothing more needs opening)?
fn next_visible(ctx: &PolicyContext<'_>, following: Option<&Step>) -> bool {
    let Some(n) = following else {
        return false;
    };
    if n.target.text.is_none() {
        return false;
    }
    let cands = resolve(ctx.page, &n.target, ctx.task, ctx.avoid, &|_| true);
    cands.first().is_some_and(|(s, _)| *s >= 0.45)
}

pub(super) fn expand_step(
    ctx: &PolicyContext<'_>,
    step: &Step,
    following: Option<&Step>,
    cursor: usize,
) -> Outcome {
    let (page, history) = (ctx.page, ctx.history);
    if step.target.all && following.is_some() {
        return explore_step(ctx, step, following, cursor);
    }
    // What the next step acts on is not the thing to open.
    let next_text = following.and_then(|f| f.target.text.clone());
    let not_next = |e: &PageElement| {
        !e.is_text_entry() && next_text.as_deref().is_none_or(|t| text_fit(e, t) < 0.8)
    };
    let cands = resolve(page, &step.target, ctx.task, ctx.avoid, &not_next);
    let matching: Vec<&PageElement> = cands
        .iter()
        .filter(|(s, _)| *s >= 0.45)
        .map(|(_, e)| *e)
        .collect();
    if let Some(e) = matching.iter().find(|e| {
        let clicked = if following.is_none() {
            clicked_changed(history, cursor, e)
        } else {
            clicked_since(history, cursor, e)
        };
        clicked || e.state.expanded == Some(true)
    }) {
        let i = last_touch(history, &[e.id.key()])
            .map(|i| i + 1)
            .unwrap_or(cursor);
        return Outcome::Done(i);
    }
    let collapsed = matching
        .iter()
        .find(|e| e.state.expanded == Some(false))
        .or(matching.first());
    match collapsed {
        Some(e) => click(e, page, history),
        None => reveal(ctx, &step.target, cursor),
    }
}

/// Go through tabs / sections / tree nodes until the next step's target shows.
pub(super) fn explore_step(
    ctx: &PolicyContext<'_>,
    step: &Step,
    following: Option<&Step>,
    cursor: usize,
) -> Outcome {
    let (page, history) = (ctx.page, ctx.history);
    if next_visible(ctx, following) {
        // Done with the last click that was not on the next step's target.
        let next_text = following.and_then(|f| f.target.text.as_deref());
        let last = history.iter().enumerate().skip(cursor).filter(|(_, h)| {
            h.action == "click"
                && !next_text.is_some_and(|t| {
                    h.element_text
                        .as_deref()
                        .is_some_and(|et| normalize(et) == normalize(t))
                })
        });
        return Outcome::Done(last.map(|(i, _)| i + 1).next_back().unwrap_or(cursor));
    }
    let role = step.target.role;
    let mut openers: Vec<&PageElement> = page
        .elements
        .iter()
        .filter(|e| !e.disabled && !e.is_text_entry() && !ctx.avoid.iter().any(|a| e.id.is(a)))
        .filter(|e| {
            e.state.expanded == Some(false)
                || e.state.selected == Some(false)
                || e.role == "tab"
                || role.is_some_and(|r| r == Role::Tab && role_fit(e, r) >= 0.8)
        })
        .filter(|e| role.is_none_or(|r| role_fit(e, r) > 0.0))
        .filter(|e| !clicked_since(history, cursor, e) && !is_checked(e))
        .collect();
    openers.sort_by(|a, b| reading_order(a, b));
    match openers.first() {
        Some(e) => click(e, page, history),
        None => Outcome::Done(cursor),
    }
}
