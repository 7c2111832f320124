//! A form spread over steps (a wizard: "Next", "Continue", "Review",
//! "Step 2 of 3"). A step's forward control moves the form on, it does not
//! send it: after it, the review step's final action (the button that says
//! what the task does, "Create event", "Confirm transfer", "Place order")
//! is still to be pressed. And a value of a definite kind (an e-mail, a
//! phone number) that no field of this step is made for waits for a later
//! step rather than go into a field made for something else.

use super::{click, Outcome};
use crate::planner::context::{ok, Cx};
use crate::planner::fields::kind_of;
use crate::planner::form::{is_button, way_out};
use crate::task::FieldKind;
use crate::text::{concepts, normalize};
use sentience_snapshot_core::Observed;

/// Words of a control that moves a form to its next step.
const FORWARD: &[&str] = &["next", "continue", "review", "proceed"];

/// Words of a button that ends a form of steps whatever the task called it
/// ("Create event" ends "schedule …" as it ends "create an event …").
const FINAL: &[&str] = &["confirm", "submit", "finish", "complete", "place", "create"];

/// A label that moves a form on a step ("Next →", "Continue to payment",
/// "Review"): its first word is a forward word.
pub fn is_forward(label: &str) -> bool {
    let l = normalize(label);
    l.split(' ')
        .find(|w| !w.is_empty())
        .is_some_and(|w| FORWARD.contains(&w))
}

/// A forward control of a step shown on the page, not yet pressed since
/// `cursor`: the form has a next step.
pub fn forward_control<'p>(cx: &Cx<'p>, cursor: usize) -> Option<&'p Observed> {
    cx.page.elements.iter().find(|e| {
        is_button(e)
            && is_forward(e.label())
            && !cx.avoided(e)
            && !cx.is_instruction(e)
            && cx.clicked_since(cursor, e).is_none()
    })
}

/// The form was moved on a step at history index `at` (a click on a
/// forward control that changed the page, the control gone since): the
/// final action the step now shows, for a task that does `phrase`. Done
/// (its index + 1) once pressed and the page changed; `None` when `at`
/// was no step of a wizard or the page shows no such action.
pub fn after_step(cx: &Cx<'_>, phrase: &str, at: usize) -> Option<Outcome> {
    let h = cx.history.get(at)?;
    if h.action != "click" || !h.element_text.as_deref().is_some_and(is_forward) {
        return None;
    }
    // The forward control is still shown: the step did not move (an error
    // the page shows is the refused-form check's business).
    if h.element_id().is_some_and(|id| cx.page.find(&id).is_some()) {
        return None;
    }
    let want = concepts(phrase);
    let task = concepts(cx.task);
    let score = |e: &Observed| -> f64 {
        let c = concepts(e.label());
        let mut s = 0.0;
        if c.iter().any(|w| want.contains(w)) {
            s += 1.0;
        } else if c.iter().any(|w| task.contains(w) && w.len() > 2) {
            s += 0.6;
        }
        if normalize(e.label()).split(' ').any(|w| FINAL.contains(&w)) {
            s += 0.5;
        }
        if e.facts.input_type == "submit" {
            s += 0.3;
        }
        s
    };
    let best = cx
        .page
        .elements
        .iter()
        .filter(|e| {
            is_button(e)
                && !way_out(e)
                && !is_forward(e.label())
                && !cx.avoided(e)
                && !cx.is_instruction(e)
        })
        .map(|e| (score(e), e))
        .filter(|(s, _)| *s >= 0.5)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, e)| e)?;
    let pressed = cx
        .history
        .iter()
        .skip(at + 1)
        .position(|h| h.action == "click" && ok(h) && cx.on(h, best));
    // Pressed, whether the page changed or not (when it did not, the
    // refused-form check or the recovery decides what next, not another
    // press): done.
    Some(match pressed {
        Some(k) => Outcome::Done(at + 1 + k + 1),
        None => click(cx, best),
    })
}

/// A value of a definite kind (an e-mail, a phone number) about to go into
/// field `e` that is not made for it, while the form has a next step:
/// the value is for a later step.
pub fn for_later_step(cx: &Cx<'_>, kind: FieldKind, e: &Observed, cursor: usize) -> bool {
    let typed = match kind {
        FieldKind::Email => "email",
        FieldKind::Phone => "tel",
        _ => return false,
    };
    if e.facts.input_type == typed || e.is_select() {
        return false;
    }
    let fits = match kind_of(e) {
        Some(k) if k == kind => true,
        Some(FieldKind::Username) => kind == FieldKind::Email,
        _ => false,
    };
    !fits && forward_control(cx, cursor).is_some()
}
