//! select / tick / untick / turn on / accept: exactly a set of options
//! (others unticked), nothing, all, options like some words, an option of
//! a `<select>` or listbox, a switch, the cheapest of a group.

use super::{click, reveal, Outcome};
use crate::intent::{Choice, Target};
use crate::page::Role;
use crate::planner::context::Cx;
use crate::planner::find::{best, resolve, text_fit, FLOOR};
use crate::planner::layout::reading_order;
use crate::planner::values::option_for;
use crate::text::{concepts, normalize};
use crate::types::Tool;
use sentience_snapshot_core::{Checked, Observed};

pub fn is_checked(e: &Observed) -> bool {
    matches!(e.element.state.checked, Some(Checked::TRUE)) || e.element.state.selected == Some(true)
}

/// Should a toggle step said with a synonym ("stop sync": turn off
/// "sync") click the control its words as said name ("Stop sync")? Only
/// when the page has no toggle (checkbox, radio, switch, option, select)
/// the step could turn, and does have that control: the rewrite assumed
/// a kind of element this page does not have.
pub fn said_instead(cx: &Cx<'_>, choice: Option<&Choice>, target: &Target, said: &Target) -> bool {
    let toggle =
        |e: &Observed| e.is_checkable() || e.role() == Role::Combobox || e.facts.tag == "select";
    let names: Vec<&str> = match choice {
        Some(Choice::Exactly(items) | Choice::Only(items)) => {
            items.iter().map(String::as_str).collect()
        }
        _ => target.text.as_deref().into_iter().collect(),
    };
    let has_toggle = if names.is_empty() {
        best(&resolve(cx, target, &toggle), FLOOR).is_some()
    } else {
        names.iter().any(|n| {
            cx.page.elements.iter().any(|e| {
                !e.is_disabled()
                    && ((toggle(e) && text_fit(e, n) >= FLOOR) || option_for(e, n).is_some())
            })
        })
    };
    !has_toggle && best(&resolve(cx, said, &|e: &Observed| !toggle(e)), FLOOR).is_some()
}

pub fn step(
    cx: &Cx<'_>,
    on: bool,
    choice: Option<&Choice>,
    target: &Target,
    within: Option<&str>,
    cursor: usize,
) -> Outcome {
    let boxes: Vec<&Observed> = cx
        .page
        .elements
        .iter()
        .filter(|e| e.is_checkable() && !e.is_disabled() && !cx.avoided(e))
        .collect();
    let toggle = |e: &Observed| click(cx, e);
    let mut touched: Vec<&Observed> = Vec::new();
    match choice {
        Some(Choice::Exactly(items) | Choice::Only(items)) => {
            let exact = matches!(choice, Some(Choice::Only(_))) || items.len() >= 2;
            let mut wanted: Vec<&Observed> = Vec::new();
            let mut found_any = false;
            // A set of two or more is held by check boxes, never by radios
            // (a radio group keeps one): where a check box and a radio
            // share an item's name ("Which do you use?" / "Which first?"),
            // the check box is the item's.
            let set_of = |e: &Observed| {
                let radio = e.role() == Role::Radio
                    || e.facts.input_type == "radio"
                    || e.facts.aria_role == "menuitemradio";
                if items.len() >= 2 && radio {
                    0.9
                } else {
                    1.0
                }
            };
            for item in items {
                // A checkbox / radio / option labelled with the item.
                let m = boxes
                    .iter()
                    .map(|e| (text_fit(e, item) * set_of(e), *e))
                    .filter(|(s, _)| *s >= FLOOR)
                    .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| reading_order(b.1, a.1)));
                if let Some((_, e)) = m {
                    found_any = true;
                    wanted.push(e);
                    touched.push(e);
                    if is_checked(e) != on {
                        // A switch or tick box that a click did not turn: not again.
                        if cx.useless_click(cursor, e) {
                            continue;
                        }
                        return toggle(e);
                    }
                    continue;
                }
                // The box is there but disabled, under a scrollable region
                // not read to its end ("I accept" enabled at the licence's end).
                let locked = cx
                    .page
                    .elements
                    .iter()
                    .filter(|e| e.is_checkable() && e.is_disabled())
                    .find(|e| text_fit(e, item) >= FLOOR);
                if let Some(t) = locked
                    .filter(|_| on)
                    .and_then(|e| super::region::unlock(cx, e))
                {
                    return Outcome::Act(t);
                }
                // An option of a <select> / listbox ("from the size dropdown").
                let sels: Vec<&Observed> = cx
                    .page
                    .elements
                    .iter()
                    .filter(|e| !e.is_disabled() && option_for(e, item).is_some())
                    .collect();
                let sel = within
                    .and_then(|w| sels.iter().find(|e| text_fit(e, w) > 0.3).copied())
                    .or(sels.first().copied());
                if let Some(s) = sel {
                    found_any = true;
                    touched.push(s);
                    let option = option_for(s, item).unwrap_or_else(|| item.clone());
                    let chosen = s
                        .element
                        .state
                        .options()
                        .iter()
                        .any(|o| o.selected && o.text == option)
                        || normalize(s.value()) == normalize(&option);
                    if !chosen && on && !cx.typed_into(s, &option) {
                        return Outcome::Act(Tool::Type {
                            id: cx.id(s),
                            text: option,
                        });
                    }
                    continue;
                }
                // Any other element showing exactly the item (custom lists).
                let other = cx
                    .page
                    .elements
                    .iter()
                    .filter(|e| !e.is_text_entry() && !e.is_disabled() && !cx.is_instruction(e))
                    .find(|e| text_fit(e, item) >= 0.99);
                if let Some(e) = other {
                    found_any = true;
                    touched.push(e);
                    if cx.clicked_since(cursor, e).is_none() && on {
                        return click(cx, e);
                    }
                    continue;
                }
                // Chosen already on this page before it moved on (the form was sent).
                let chosen_before = cx.history.iter().enumerate().skip(cursor).find(|(_, h)| {
                    h.action == "click"
                        && h.success != Some(false)
                        && h.element_text.as_deref().is_some_and(|t| {
                            crate::planner::find::words_fit(&normalize(t), &normalize(item))
                                >= FLOOR
                        })
                });
                if let Some((i, _)) = chosen_before {
                    found_any = true;
                    let _ = i;
                    continue;
                }
                if !found_any {
                    return reveal(
                        cx,
                        &Target {
                            text: Some(item.clone()),
                            ..target.clone()
                        },
                        cursor,
                    );
                }
            }
            // Exactly the set: untick checkboxes that are not in it, in the
            // same group as the ones wanted (not every box of the page).
            if on && exact {
                let group: Vec<u32> = wanted.iter().map(|e| e.facts.form).collect();
                if let Some(e) = boxes.iter().find(|e| {
                    e.role() == Role::Checkbox
                        && e.facts.aria_role != "switch"
                        && is_checked(e)
                        && !wanted.iter().any(|w| std::ptr::eq(*w, **e))
                        && (group.is_empty() || group.contains(&e.facts.form))
                        && !cx.useless_click(cursor, e)
                }) {
                    return toggle(e);
                }
            }
            if !found_any {
                return Outcome::Stuck(format!("no option {items:?} here"));
            }
        }
        Some(Choice::Nothing) => {
            if let Some(e) = boxes
                .iter()
                .find(|e| is_checked(e) && e.role() == Role::Checkbox)
            {
                return toggle(e);
            }
        }
        Some(Choice::All) => {
            if let Some(e) = boxes
                .iter()
                .find(|e| is_checked(e) != on && e.role() != Role::Radio)
            {
                return toggle(e);
            }
        }
        Some(Choice::Like(words)) => {
            let wc: Vec<String> = words.iter().flat_map(|w| concepts(w)).collect();
            for e in &boxes {
                let ec = concepts(e.label());
                let like = !ec.is_empty() && ec.iter().all(|c| wc.contains(c));
                touched.push(e);
                if like && is_checked(e) != on {
                    return toggle(e);
                }
            }
        }
        None => {
            let hits = resolve(cx, target, &|e: &Observed| {
                e.is_checkable() || e.role() == Role::Combobox
            });
            match best(
                &hits,
                if target.extreme.is_some() || target.ordinal.is_some() {
                    0.3
                } else {
                    FLOOR
                },
            ) {
                Some(e) => {
                    touched.push(e);
                    if e.is_checkable() && is_checked(e) != on && !cx.useless_click(cursor, e) {
                        return toggle(e);
                    }
                    if !e.is_checkable() && cx.clicked_since(cursor, e).is_none() {
                        return click(cx, e);
                    }
                }
                None => return reveal(cx, target, cursor),
            }
        }
    }
    Outcome::Done(cx.last_touch(&touched).map(|i| i + 1).unwrap_or(cursor))
}
