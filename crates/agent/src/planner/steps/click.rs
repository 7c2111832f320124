//! click / hover / focus: the element that answers to the target; done once
//! a click on it is in the history (for the task's last step: a click
//! after which the page changed). A click that changed nothing is not
//! repeated: the next best element is tried, and when none is left the
//! step counts as done. A target that is there but disabled is waited for;
//! "submit" that names no control here is the form's submit control.

use super::{click, reveal, submit, wait, Outcome};
use crate::intent::{Role, Step, Target, Touch};
use crate::planner::context::{ok, Cx};
use crate::planner::find::{resolve, text_fit, FLOOR};
use crate::text::{concepts, normalize};
use sentience_snapshot_core::Observed;

pub fn step(
    cx: &Cx<'_>,
    target: &Target,
    touch: Touch,
    cursor: usize,
    last: bool,
    following: Option<&Step>,
) -> Outcome {
    let _ = following;
    let mut target = target.clone();
    if target.text.is_none()
        && target.role.is_none()
        && target.relation.is_none()
        && touch != Touch::Focus
    {
        target.role = Some(Role::Button);
    }
    let filter = |e: &Observed| touch != Touch::Focus || e.is_text_entry();
    let hits = resolve(cx, &target, &filter);
    let top = hits.first().map(|h| h.score).unwrap_or(0.0);
    let matching: Vec<&Observed> = hits
        .iter()
        .filter(|h| h.score >= top * 0.9 && h.score >= FLOOR)
        .map(|h| h.e)
        .collect();
    // "the Retweet button on all posts by @enola": each of them, once.
    if target.all {
        let mut every: Vec<&Observed> = hits
            .iter()
            .filter(|h| h.score >= FLOOR)
            .map(|h| h.e)
            .collect();
        every.sort_by(|a, b| crate::planner::layout::reading_order(a, b));
        if let Some(e) = every.iter().find(|e| cx.clicked_since(cursor, e).is_none()) {
            return click(cx, e);
        }
        if !every.is_empty() {
            return Outcome::Done(cx.last_touch(&every).map(|i| i + 1).unwrap_or(cursor));
        }
    }
    let must_change = last && touch == Touch::Click;
    if let Some(i) = clicked_after(cx, cursor, &matching, &target, must_change) {
        // "Delete the project X": the click opened "Delete project? …
        // Cancel / Delete"; the task is done once that is confirmed.
        if last {
            if let Some(e) = confirmation(cx, &target, i) {
                return click(cx, e);
            }
        }
        return Outcome::Done(i + 1);
    }
    // The best one not clicked in vain already.
    let fresh = hits
        .iter()
        .filter(|h| h.score >= FLOOR)
        .find(|h| !cx.useless_click(cursor, h.e));
    if let Some(h) = fresh {
        return click(cx, h.e);
    }
    if let Some(h) = hits.first().filter(|h| h.score >= FLOOR) {
        // Every match was clicked and nothing changed: not again, and not
        // claimed as done either.
        return Outcome::Stuck(format!("clicking \"{}\" changed nothing", h.e.label()));
    }
    // There, but not yet usable: wait for it.
    if let Some(t) = &target.text {
        let disabled = cx
            .page
            .elements
            .iter()
            .find(|e| e.is_disabled() && text_fit(e, t) >= 0.8);
        if let Some(e) = disabled {
            // Enabled once a box that scrolls above it is read to its end.
            if let Some(s) = super::region::unlock(cx, e) {
                return Outcome::Act(s);
            }
            return wait::until_enabled(cx, t, cursor);
        }
        // "hit submit", "press OK": the form's submit control.
        let c = concepts(t);
        let submitish = c.iter().any(|w| {
            matches!(
                w.as_str(),
                "submit" | "login" | "search" | "continue" | "ok" | "register" | "buy" | "go"
            )
        }) && c.len() <= 2;
        if submitish {
            if let Some(o) = submit::implicit(cx, t, cursor) {
                return o;
            }
        }
    }
    reveal(cx, &target, cursor)
}

/// Index of the first successful click after `from` on one of `els`, or
/// (when the target has a text) on an element that showed that text.
/// `changed`: only a click after which the page changed counts.
pub fn clicked_after(
    cx: &Cx<'_>,
    from: usize,
    els: &[&Observed],
    target: &Target,
    changed: bool,
) -> Option<usize> {
    cx.history.iter().enumerate().skip(from).find_map(|(i, h)| {
        if h.action != "click" || !ok(h) || (changed && h.no_page_change()) {
            return None;
        }
        let by_id = els.iter().any(|e| cx.on(h, e));
        let by_text = target.role != Some(Role::Widget)
            && target.relation.is_none()
            && target.ordinal.is_none()
            && target.text.as_deref().is_some_and(|t| {
                h.element_text.as_deref().is_some_and(|et| {
                    let n = normalize(et);
                    let w = normalize(t);
                    !w.is_empty()
                        && (n == w || (!concepts(&w).is_empty() && concepts(&n) == concepts(&w)))
                })
            });
        // "Delete the project old-landing": a click on a control named
        // with both ("Delete old-landing") is the step, even once that row
        // is gone (deleted) and its id names nothing on this page.
        let by_name = match (&target.relation, target.text.as_deref()) {
            (Some((crate::intent::Relation::Of, anchor)), Some(t)) => {
                h.element_text.as_deref().is_some_and(|et| {
                    let n = format!(" {} ", normalize(et));
                    let has = |w: &str| !w.is_empty() && n.contains(&format!(" {w} "));
                    has(&normalize(t)) && has(&normalize(anchor))
                })
            }
            _ => false,
        };
        // A row's action behind its menu ("Make a copy" of a file): the
        // menu closed with the click, so neither its id nor the row's name
        // is left to match; the words of the action are.
        let by_action = matches!(target.relation, Some((crate::intent::Relation::Of, _)))
            && target.text.as_deref().is_some_and(|t| {
                let want = concepts(t);
                let have = h.element_text.as_deref().map(concepts).unwrap_or_default();
                !want.is_empty() && want.iter().all(|w| have.contains(w))
            });
        (by_id || by_text || by_name || by_action).then_some(i)
    })
}

/// After the click `i` on the task's target, the page asks to confirm it
/// ("Delete project? … This cannot be undone.", "Are you sure?"): the
/// control that says yes — the same verb as the target ("Delete"), or
/// Confirm / Yes / OK — not clicked since. Not "Cancel", not the element
/// clicked.
pub fn confirmation<'p>(cx: &Cx<'p>, target: &Target, i: usize) -> Option<&'p Observed> {
    let verb = concepts(target.text.as_deref()?);
    let verb = verb.first()?;
    let text = cx.page.visible_text.to_lowercase();
    // The question's own words ("Delete project?") may name the button
    // ("Delete project"); another row's "Delete marketing-site" is not it.
    let question: Vec<String> = text
        .split(['.', '!', '\n'])
        .filter(|s| s.trim_end().ends_with('?') && concepts(s).contains(verb))
        .flat_map(concepts)
        .collect();
    let asks = text.contains("are you sure")
        || text.contains("cannot be undone")
        || text.contains("can't be undone")
        || !question.is_empty();
    if !asks {
        return None;
    }
    let clicked = &cx.history[i];
    cx.page
        .elements
        .iter()
        // Behind a modal dialog (occluded), another row's control is no answer.
        .filter(|e| !e.is_field() && !e.is_checkable() && !e.is_disabled() && !cx.on(clicked, e))
        .filter(|e| !e.element.is_occluded)
        .filter(|e| cx.clicked_since(i + 1, e).is_none())
        .find(|e| {
            let c = concepts(e.label());
            !c.is_empty()
                && c.len() <= 3
                && c.iter().all(|w| {
                    matches!(w.as_str(), "yes" | "confirm" | "ok")
                        || w == verb
                        || question.contains(w)
                })
                && c.iter()
                    .any(|w| matches!(w.as_str(), "yes" | "confirm" | "ok") || w == verb)
        })
}
