//! expand / open X: a collapsed section, menu, tab or tree node (clicked
//! until it shows open; a link or result is simply followed), and explore
//! ("switch between the tabs"): open each in turn until the next step's
//! target shows — never the next step's target itself.

use super::{click, reveal, Outcome};
use crate::intent::{Role, Step, Target};
use crate::planner::context::Cx;
use crate::planner::find::{resolve, role_fit, text_fit, FLOOR};
use crate::planner::layout::reading_order;
use crate::text::normalize;
use sentience_snapshot_core::Observed;

/// Is the next step's target on the page already (then nothing more needs opening)?
fn next_visible(cx: &Cx<'_>, following: Option<&Step>) -> bool {
    let Some(t) = following.and_then(Step::target) else {
        return false;
    };
    if t.text.is_none() {
        return false;
    }
    resolve(cx, t, &|_| true)
        .first()
        .is_some_and(|h| h.score >= FLOOR)
}

pub fn step(
    cx: &Cx<'_>,
    target: &Target,
    explore: bool,
    following: Option<&Step>,
    cursor: usize,
    last: bool,
) -> Outcome {
    if explore || (target.all && following.is_some()) {
        return explore_step(cx, target, following, cursor);
    }
    // What the next step acts on is not the thing to open.
    let next_text = following
        .and_then(Step::target)
        .and_then(|t| t.text.clone());
    let not_next = |e: &Observed| {
        !e.is_text_entry() && next_text.as_deref().is_none_or(|t| text_fit(e, t) < 0.8)
    };
    let hits = resolve(cx, target, &not_next);
    let floor = if target
        .text
        .as_deref()
        .is_some_and(|t| t.split(' ').count() >= 3)
    {
        0.25
    } else {
        FLOOR
    };
    let mut matching: Vec<&Observed> = hits
        .iter()
        .filter(|h| h.score >= floor)
        .map(|h| h.e)
        .collect();
    // "the question about refunds": a section whose words share the
    // target's content words ("How do refunds work?").
    if matching.is_empty() {
        if let Some(t) = &target.text {
            let want = crate::text::concepts(t);
            matching = cx
                .page
                .elements
                .iter()
                .filter(|e| {
                    super::reveal::opener(e)
                        || e.element.state.expanded == Some(true)
                        || e.facts.tag == "summary"
                })
                .filter(|e| not_next(e) && !cx.avoided(e))
                .filter(|e| {
                    crate::text::concepts(e.label())
                        .iter()
                        .any(|c| c.len() > 3 && want.contains(c))
                })
                .collect();
            // "the actions of Priya Nair": a row's "More actions for …"
            // only in the row that holds the rest of the words.
            matching = super::reveal::rows_for(matching, t);
        }
    }
    // Nothing this step matches was clicked, yet the steps after it have
    // acted: the place was passed ("Open email, forward …" once the
    // message is open: its "close email" is no place to open).
    if !matching
        .iter()
        .any(|e| cx.clicked_since(cursor, e).is_some())
        && moved_on(cx, cursor)
    {
        return Outcome::Done(cursor);
    }
    if let Some(e) = matching.iter().find(|e| {
        let clicked = if last {
            cx.clicked_changed(cursor, e).is_some()
        } else {
            cx.clicked_since(cursor, e).is_some()
        };
        clicked || e.element.state.expanded == Some(true)
    }) {
        let i = cx.last_touch(&[e]).map(|i| i + 1).unwrap_or(cursor);
        return Outcome::Done(i);
    }
    let collapsed = matching
        .iter()
        .find(|e| e.element.state.expanded == Some(false))
        .or(matching.first());
    match collapsed {
        Some(e) if !cx.useless_click(cursor, e) => click(cx, e),
        Some(e) => Outcome::Stuck(format!("clicking \"{}\" changed nothing", e.label())),
        // Nothing here is the thing to open, but what the next step acts
        // on is: the task named the place it happens ("Open the email
        // app, forward Gracie's message …", "open the primary folder"),
        // and this page is that place already.
        None if next_here(cx, following) => Outcome::Done(cursor),
        None => reveal(cx, target, cursor),
    }
}

/// Nothing was opened by this step, yet the steps after it have acted
/// since (the message found, its Forward clicked): the place was passed.
fn moved_on(cx: &Cx<'_>, cursor: usize) -> bool {
    cx.history
        .iter()
        .skip(cursor)
        .any(|h| matches!(h.action.as_str(), "click" | "type") && h.success != Some(false))
}

/// The next step's target is on the page: by its words, or (a message
/// "by Gracie", a row "of Priya") by the words it is related to.
fn next_here(cx: &Cx<'_>, following: Option<&Step>) -> bool {
    next_visible(cx, following)
        || following
            .and_then(Step::target)
            .and_then(|t| t.relation.as_ref())
            .is_some_and(|(_, w)| !cx.layout.occurrences(w).is_empty())
}

/// Go through tabs / sections / tree nodes until the next step's target shows.
fn explore_step(cx: &Cx<'_>, target: &Target, following: Option<&Step>, cursor: usize) -> Outcome {
    if next_visible(cx, following) {
        // Done with the last click that was not on the next step's target.
        let next_text = following
            .and_then(Step::target)
            .and_then(|t| t.text.as_deref());
        let last = cx.history.iter().enumerate().skip(cursor).filter(|(_, h)| {
            h.action == "click"
                && !next_text.is_some_and(|t| {
                    h.element_text
                        .as_deref()
                        .is_some_and(|et| normalize(et) == normalize(t))
                })
        });
        return Outcome::Done(last.map(|(i, _)| i + 1).next_back().unwrap_or(cursor));
    }
    let role = target.role;
    let mut openers: Vec<&Observed> = cx
        .page
        .elements
        .iter()
        .filter(|e| {
            !e.is_disabled() && !e.is_text_entry() && !cx.avoided(e) && !cx.is_instruction(e)
        })
        .filter(|e| {
            e.element.state.expanded == Some(false)
                || e.element.state.selected == Some(false)
                || e.facts.aria_role == "tab"
                || e.facts.tag == "summary"
                || role.is_some_and(|r| r == Role::Tab && role_fit(e, r) >= 0.8)
        })
        .filter(|e| role.is_none_or(|r| role_fit(e, r) > 0.0))
        .filter(|e| cx.clicked_since(cursor, e).is_none() && !super::choose::is_checked(e))
        .collect();
    openers.sort_by(|a, b| reading_order(a, b));
    match openers.first() {
        Some(e) => click(cx, e),
        None => Outcome::Done(cursor),
    }
}
