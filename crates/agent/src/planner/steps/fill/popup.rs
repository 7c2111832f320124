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
use crate::planner::values::{field_shape, shape, Shape};
use crate::text::normalize;
use sentience_snapshot_core::Observed;

/// Opens a listbox of options one cannot type into.
pub fn is_trigger(e: &Observed) -> bool {
    // A read-only text box with `role=combobox` takes no typing either: a
    // select-only combobox built on an input (Ant Design's Select).
    let entry = e.is_text_entry() && !(e.facts.read_only && e.facts.aria_role == "combobox");
    !entry
        && !e.is_disabled()
        && e.facts.tag != "select"
        && (e.facts.aria_role == "combobox"
            || e.facts.has_popup && matches!(e.role(), Role::Button | Role::Combobox))
}

/// An option of an open listbox: `role=option`, or an item that says
/// whether it is selected (`aria-selected`) and has no other role: lists
/// that keep the roles on an invisible copy for screen readers and draw
/// the visible items as plain divs (Ant Design's Select).
fn is_option(e: &Observed) -> bool {
    e.facts.aria_role == "option"
        || (e.facts.aria_role.is_empty()
            && e.element.state.selected.is_some()
            && !e.is_checkable()
            && !e.is_field())
}

/// The words a listbox trigger shows as its value: its own, and those of
/// the box drawn around it (a select-only input whose chosen item is a
/// sibling span, "2 guests ⌄"): the smallest element holding its box, at
/// most twice as tall.
fn shown<'p>(cx: &Cx<'p>, t: &'p Observed) -> String {
    let b = t.element.bbox;
    let around = cx
        .page
        .elements
        .iter()
        .filter(|e| !std::ptr::eq(*e, t) && !e.is_field() && e.has_box())
        .filter(|e| {
            let o = e.element.bbox;
            o.x <= b.x + 0.5
                && o.y <= b.y + 0.5
                && o.x + o.width >= b.x + b.width - 0.5
                && o.y + o.height >= b.y + b.height - 0.5
                && o.height <= 2.0 * b.height.max(1.0)
        })
        .min_by(|a, b| {
            let area = |e: &Observed| e.element.bbox.width * e.element.bbox.height;
            area(a).total_cmp(&area(b))
        });
    match around {
        Some(a) => format!("{} {}", t.label(), a.text()),
        None => t.label().to_string(),
    }
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
    // A date or a time of day whose label names no listbox ("at 2:30
    // PM"): the one listbox whose words say that kind of value ("Start
    // time"), as a text field is chosen by its shape (`values::field_shape`).
    // Design systems draw a select of times as such a listbox.
    let by_shape = || {
        let want = match shape(text) {
            s @ (Shape::Date | Shape::Time) => s,
            _ => return None,
        };
        let mut fit = triggers
            .iter()
            .filter(|e| field_shape(e) == Some(want) && !shape_taken(cx, want, taken));
        match (fit.next(), fit.next()) {
            (Some(e), None) => Some(*e),
            _ => None,
        }
    };
    // A number of things ("4 guests") whose label names no listbox: the
    // one listbox showing a number of the same things ("2 guests").
    let by_unit = || {
        let mut fit = triggers
            .iter()
            .filter(|e| crate::planner::values::same_unit(&shown(cx, e), text));
        match (fit.next(), fit.next()) {
            (Some(e), None) => Some(*e),
            _ => None,
        }
    };
    let trigger = trigger.or_else(by_shape).or_else(by_unit);
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
        .filter(|e| is_option(e) && !e.is_disabled())
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

/// A field of that shape (a date box, a time box) is free on the page: the
/// value goes there rather than to a listbox.
fn shape_taken(cx: &Cx<'_>, want: Shape, taken: &[&Observed]) -> bool {
    cx.page.elements.iter().any(|e| {
        e.is_text_entry()
            && !e.is_disabled()
            && field_shape(e) == Some(want)
            && !taken.iter().any(|t| std::ptr::eq(*t, e))
    })
}
