//! A consent box the task does not mention (docs/agent.md "Carrying the
//! steps out"): a form that will not go until its "I agree to the
//! terms" / "I confirm this is accurate" box is ticked. A person ticks it
//! before sending the form they are completing, whatever the task said;
//! never an opt-in ("Send me offers", "Remember me", a newsletter), which
//! is the person's own choice.
//!
//! A box is such a consent when it is not an opt-in and one of:
//! - it says so: a first-person statement of agreement ("I agree",
//!   "I have read and accept", "I understand…", "I confirm…"), or
//!   agreement to terms, conditions or a policy;
//! - it is marked required (`required`, `aria-required`; the snapshot's
//!   state);
//! - the page names it in a message ("Please agree to the policy"
//!   sharing a word with the box);
//! - the form's submit button is disabled and it is the form's only
//!   unticked first-person box (the button waits for it).

use super::click;
use super::Outcome;
use crate::page::Role;
use crate::planner::context::{ok, Cx};
use crate::planner::form::{is_button, submit_control};
use crate::text::normalize;
use crate::types::Tool;
use sentience_snapshot_core::Observed;

use super::choose::is_checked;

/// Verbs of a statement one agrees to by ticking it.
const ATTESTS: &[&str] = &[
    "agree",
    "accept",
    "confirm",
    "understand",
    "acknowledge",
    "certify",
    "consent",
    "declare",
    "authorise",
    "authorize",
    "attest",
];

/// What a consent is given to ("agree to the terms").
const AGREED_TO: &[&str] = &[
    "terms",
    "conditions",
    "policy",
    "agreement",
    "licence",
    "license",
];

/// Words of an opt-in: the person's own choice, never ticked unasked.
const OPT_IN: &[&str] = &[
    "newsletter",
    "newsletters",
    "news",
    "offers",
    "marketing",
    "promotions",
    "promotional",
    "remember",
    "subscribe",
    "updates",
    "deals",
    "sms",
    "signed",
    "tips",
];

/// Words a page's message uses to ask for something not done.
const ASKS: &[&str] = &["please", "must", "required", "need", "before"];

fn words(s: &str) -> Vec<String> {
    normalize(s).split(' ').map(str::to_string).collect()
}

fn is_box(e: &Observed) -> bool {
    (e.role() == Role::Checkbox || (e.facts.tag == "input" && e.facts.input_type == "checkbox"))
        && e.facts.aria_role != "switch"
}

/// An opt-in: its words offer something ("Send me news", "Keep me signed
/// in", "Email me deals").
fn opt_in(w: &[String]) -> bool {
    w.iter().any(|x| OPT_IN.contains(&x.as_str()))
        || w.windows(2).any(|p| {
            matches!(p[0].as_str(), "send" | "email" | "text" | "notify" | "keep") && p[1] == "me"
        })
}

/// A statement in the first person ("I …", "I'm …", "We …"; `normalize`
/// splits "I'm" into "i m").
fn first_person(w: &[String]) -> bool {
    w.first().is_some_and(|f| matches!(f.as_str(), "i" | "we"))
}

/// It says it is an agreement: an agreeing verb within the first words
/// of a first-person statement, or agreeing to terms / a policy.
fn says_consent(w: &[String]) -> bool {
    let agrees = |x: &String| ATTESTS.contains(&x.as_str());
    (first_person(w) && w.iter().take(6).any(agrees))
        || (w.iter().any(agrees) && w.iter().any(|x| AGREED_TO.contains(&x.as_str())))
        || w.windows(2).any(|p| p[0] == "have" && p[1] == "read")
}

/// A line of the page that asks for this box: asking words and a word of
/// the box's own (not a small one).
fn named_by_message(cx: &Cx<'_>, w: &[String]) -> bool {
    cx.page.lines().iter().any(|line| {
        let lw = words(line);
        lw.len() <= 20
            && lw.iter().any(|x| ASKS.contains(&x.as_str()))
            && lw
                .iter()
                .any(|x| x.len() >= 5 && w.contains(x) && !ASKS.contains(&x.as_str()))
    })
}

/// The box must be ticked for its form to go.
fn is_consent(cx: &Cx<'_>, e: &Observed, gated: bool) -> bool {
    let w = words(&cx.label_words(e));
    if w.is_empty() || opt_in(&w) {
        return false;
    }
    says_consent(&w)
        || e.element.state.is_required()
        || named_by_message(cx, &w)
        || (gated && first_person(&w))
}

/// `t` sends a form: a click on a submit button (native, or the button
/// that sends the fields typed into), or Enter in a text field. The form
/// (0: none known) and the control or field.
fn sends<'p>(cx: &Cx<'p>, t: &Tool) -> Option<&'p Observed> {
    match t {
        Tool::Click { id } => {
            let e = cx.page.find_id(id)?;
            let native = e.facts.input_type == "submit"
                && matches!(e.facts.tag.as_str(), "button" | "input");
            let filled = cx.typed_here();
            let own = !filled.is_empty()
                && is_button(e)
                && submit_control(cx, &filled, "").is_some_and(|s| std::ptr::eq(s, e));
            (native || own).then_some(e)
        }
        Tool::Press {
            key, id: Some(id), ..
        } if key == "Enter" => cx.page.find_id(id).filter(|e| e.is_text_entry()),
        _ => None,
    }
}

/// Of the same form as `sender`: the same form id, or, where the page
/// gives none, an element before the form's end — the sender when it is
/// a button, else the first button after the field (Enter in a field
/// sends the form that goes on after it).
fn same_form(cx: &Cx<'_>, e: &Observed, sender: &Observed) -> bool {
    if std::ptr::eq(e, sender) {
        return true;
    }
    if sender.facts.form != 0 {
        return e.facts.form == sender.facts.form;
    }
    let els = &cx.page.elements;
    let pos = |x: &Observed| els.iter().position(|y| std::ptr::eq(x, y));
    let Some(at) = pos(sender) else {
        return false;
    };
    let end = if sender.is_field() {
        els.iter()
            .enumerate()
            .skip(at + 1)
            .find(|(_, b)| is_button(b) || b.facts.input_type == "submit")
            .map_or(els.len(), |(k, _)| k + 1)
    } else {
        at
    };
    e.facts.form == 0 && pos(e).is_some_and(|k| k < end)
}

/// Before `t` sends a form, its unticked consent box, ticked (once: a
/// box clicked already is left as it is).
pub fn before_sending(cx: &Cx<'_>, t: &Tool) -> Option<Tool> {
    let sender = sends(cx, t)?;
    of_form(cx, sender)
}

/// The unticked consent box of `sender`'s form, as the click that ticks it.
pub fn of_form(cx: &Cx<'_>, sender: &Observed) -> Option<Tool> {
    let gated = cx
        .page
        .elements
        .iter()
        .any(|b| b.facts.input_type == "submit" && b.is_disabled() && same_form(cx, b, sender));
    let boxes: Vec<&Observed> = cx
        .page
        .elements
        .iter()
        .filter(|e| is_box(e) && !is_checked(e) && !e.is_disabled() && same_form(cx, e, sender))
        .filter(|e| {
            !cx.history
                .iter()
                .any(|h| h.action == "click" && ok(h) && cx.on(h, e))
        })
        .collect();
    let first_person_boxes = boxes
        .iter()
        .filter(|e| first_person(&words(&cx.label_words(e))))
        .count();
    let gated = gated && first_person_boxes == 1;
    let e = boxes.into_iter().find(|e| is_consent(cx, e, gated))?;
    match click(cx, e) {
        Outcome::Act(t) => Some(t),
        _ => None,
    }
}

/// A form whose submit button is disabled, with fields typed into: its
/// consent box, ticked (the button waits for it; the steps see no
/// button to press).
pub fn unblock(cx: &Cx<'_>) -> Option<Tool> {
    let last = *cx.typed_here().last()?;
    let blocked = cx.page.elements.iter().find(|b| {
        b.facts.input_type == "submit"
            && matches!(b.facts.tag.as_str(), "button" | "input")
            && b.is_disabled()
            && same_form(cx, last, b)
    })?;
    of_form(cx, blocked)
}
