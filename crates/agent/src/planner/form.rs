//! The control that submits a form, whatever it says: the submit button of
//! the form whose fields were just filled ("Continue", "Next", "Go", an
//! arrow icon), else the nearest button after the last field that is not a
//! way out (Cancel, Back, Reset); never a link that merely shares a word
//! with a label ("Forgot password?"). Enter in the last field is the
//! fallback the caller uses when there is none.

use super::context::Cx;
use super::find::words_fit;
use super::layout::reading_order;
use crate::page::Role;
use crate::text::{concepts, normalize};
use sentience_snapshot_core::Observed;

/// Words of controls that leave or undo a form rather than send it.
const WAY_OUT: &[&str] = &[
    "cancel", "back", "reset", "clear", "close", "delete", "remove", "previous", "prev", "forgot",
    "logout", "skip", "discard", "edit", "show", "hide", "help",
];

/// A control that may send a form: a button (by role or markup), never a link.
pub fn is_button(e: &Observed) -> bool {
    if e.is_disabled() || e.is_field() {
        return false;
    }
    let t = e.facts.input_type.as_str();
    match e.facts.tag.as_str() {
        "button" => !matches!(t, "reset"),
        "input" => matches!(t, "submit" | "image" | "button"),
        "a" => false,
        _ => {
            (e.role() == Role::Button
                && !matches!(
                    e.facts.aria_role.as_str(),
                    "tab" | "menuitem" | "option" | "treeitem" | "switch"
                ))
                // An icon one clicks to send ("send-reply").
                || (e.role() == Role::Generic
                    && e.element.visual_cues.is_clickable
                    && concepts(e.label()).iter().any(|c| {
                        matches!(c.as_str(), "submit" | "login" | "search" | "continue")
                    }))
        }
    }
}

pub fn way_out(e: &Observed) -> bool {
    let l = normalize(e.label());
    l.split(' ').any(|w| WAY_OUT.contains(&w))
        || concepts(e.label())
            .iter()
            .any(|c| c == "close" || c == "delete" || c == "logout")
}

/// The submit control for the fields `filled` (most recent last), with a
/// preference for labels that say what the task does (`phrase`).
pub fn submit_control<'p>(
    cx: &Cx<'p>,
    filled: &[&'p Observed],
    phrase: &str,
) -> Option<&'p Observed> {
    let last = filled.last().copied();
    let form = last.map(|e| e.facts.form).unwrap_or(0);
    let want = concepts(phrase);
    let score = |e: &Observed| -> f64 {
        let mut s = 0.0;
        if form != 0 && e.facts.form == form {
            s += 2.0;
            if e.facts.input_type == "submit" || e.facts.input_type == "image" {
                s += 1.0;
            }
        }
        // After the last field, near it: the form's own button.
        if let (Some(f), true) = (last, e.has_box()) {
            let (fb, eb) = (f.element.bbox, e.element.bbox);
            let below = eb.y + eb.height / 2.0 >= fb.y - 4.0;
            let dy = (eb.y - (fb.y + fb.height)).max(0.0);
            let dx = (eb.x - fb.x)
                .abs()
                .min((eb.x + eb.width - fb.x - fb.width).abs());
            if below {
                s += 1.0 / (1.0 + dy / 150.0) + 0.3 / (1.0 + dx / 300.0);
            } else {
                s -= 0.5;
            }
        }
        let label_c = concepts(e.label());
        if !want.is_empty() && want.iter().any(|w| label_c.contains(w)) {
            s += 0.6;
        }
        if label_c.iter().any(|c| {
            matches!(
                c.as_str(),
                "submit" | "continue" | "login" | "search" | "register" | "buy"
            )
        }) {
            s += 0.3;
        }
        if e.element.visual_cues.is_primary {
            s += 0.2;
        }
        // A field's own "Apply" / "Find address" takes that field in; it
        // sends the form only when nothing else can.
        if super::steps::is_own_button(cx, e) {
            s -= 1.0;
        }
        if !e.element.in_viewport || e.element.is_occluded {
            s -= 0.2;
        }
        s
    };
    let mut best: Option<(f64, &Observed)> = None;
    for e in cx.page.elements.iter() {
        if !is_button(e) || way_out(e) || cx.avoided(e) || cx.is_instruction(e) {
            continue;
        }
        // In another form than the one filled: not this form's button.
        if form != 0 && e.facts.form != 0 && e.facts.form != form {
            continue;
        }
        let s = score(e);
        if best.is_none_or(|(b, be)| s > b || s == b && reading_order(e, be).is_lt()) {
            best = Some((s, e));
        }
    }
    // Without a field filled, only a button that says what the task does.
    best.filter(|(s, e)| {
        last.is_some()
            || (*s >= 0.6 && words_fit(&normalize(e.label()), &normalize(phrase)) > 0.0)
            || want.iter().any(|w| concepts(e.label()).contains(w))
    })
    .map(|(_, e)| e)
}
