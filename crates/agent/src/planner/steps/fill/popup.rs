//! A value chosen from a custom listbox: WAI-ARIA 1.2 APG's "select-only
//! combobox" (a `div role=combobox` that shows the current value) or a
//! button with `aria-haspopup=listbox` (DomFacts::has_popup). Neither
//! takes typing and neither lists its options before it is opened, so the
//! value is not typed: the trigger is opened and the option that says the
//! value (`role=option`) is clicked.

use super::Place;
use crate::page::Role;
use crate::planner::context::Cx;
use crate::planner::find::{text_fit, words_fit};
use crate::text::normalize;
use sentience_snapshot_core::Observed;

/// Opens a listbox of options one cannot type into.
pub fn is_trigger(e: &Observed) -> bool {
    !e.is_text_entry()
        && !e.is_disabled()
        && e.facts.tag != "select"
        && (e.facts.aria_role == "combobox"
            || e.facts.has_popup && matches!(e.role(), Role::Button | Role::Combobox))
}

/// The value `text` for the field labelled `label` when that field is a
/// custom listbox; `None` when no such listbox is named. `only_one`: when
/// the label names none (the caller found no other field for the value),
/// the page's one listbox, if it has exactly one.
pub fn place<'p>(
    cx: &Cx<'p>,
    text: &str,
    label: &str,
    taken: &[&'p Observed],
    cursor: usize,
    only_one: bool,
) -> Option<Place<'p>> {
    let triggers: Vec<&Observed> = cx
        .page
        .elements
        .iter()
        .filter(|e| is_trigger(e) && !taken.iter().any(|t| std::ptr::eq(*t, *e)))
        .collect();
    let want = normalize(label);
    let named = |e: &Observed| {
        [e.label(), e.facts.aria_label.as_str()]
            .iter()
            .map(|l| words_fit(&normalize(l), &want))
            .fold(0.0, f64::max)
    };
    let trigger = if want.is_empty() {
        None
    } else {
        triggers
            .iter()
            .map(|e| (named(e), *e))
            .filter(|(s, _)| *s >= 0.5)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, e)| e)
    };
    // No label, or one that names no listbox ("Invite X as "Billing
    // manager""): the page's one listbox, when its option says the value.
    let trigger = match (trigger, triggers.as_slice()) {
        (Some(t), _) => t,
        (None, [only]) if only_one => only,
        _ => return None,
    };
    let value = normalize(text);
    if value.is_empty() {
        return None;
    }
    // It shows the value already ("Billing manager ▾").
    let shows = format!(" {} ", normalize(trigger.label()));
    if shows.contains(&format!(" {value} ")) {
        return Some(Place::Done(Some(trigger)));
    }
    // Open: the option that says the value.
    let option = cx
        .page
        .elements
        .iter()
        .filter(|e| e.facts.aria_role == "option" && !e.is_disabled())
        .map(|e| (text_fit(e, text), e))
        .filter(|(s, _)| *s >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, e)| e);
    if let Some(o) = option {
        if cx.clicked_since(cursor, o).is_some() {
            return Some(Place::Done(Some(trigger)));
        }
        return Some(Place::Act(super::click(cx, o)));
    }
    // Chosen before the list closed: a click on an option that said it.
    let chose = cx.history.iter().skip(cursor).any(|h| {
        h.action == "click"
            && h.success != Some(false)
            && h.element_text
                .as_deref()
                .is_some_and(|t| normalize(t).starts_with(&value))
    });
    if chose {
        return Some(Place::Done(Some(trigger)));
    }
    if trigger.element.state.expanded == Some(true) || cx.clicked_since(cursor, trigger).is_some() {
        // Opened, and no option says the value: not this listbox.
        return None;
    }
    Some(Place::Act(super::click(cx, trigger)))
}
