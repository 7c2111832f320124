//! Autocompletes: after a value is typed, the suggestion that completes it
//! ("San Francisco" → "San Francisco (SFO)") is chosen, as people do; for
//! "an item that starts with Sa and ends with ino" the start is typed and
//! the suggestion that fits the whole constraint is chosen. Suggestions
//! arrive late on many sites: one short look is spent waiting for them.

use super::super::{click, loading_shown, Outcome};
use crate::intent::Target;
use crate::planner::context::Cx;
use crate::planner::find::{best, resolve};
use crate::planner::layout::reading_order;
use crate::text::{has_words, normalize};
use crate::types::Tool;
use sentience_snapshot_core::Observed;

/// Looks like one entry of a suggestion list.
fn suggestion_like(e: &Observed) -> bool {
    !e.is_field()
        && !e.is_disabled()
        && (matches!(
            e.facts.aria_role.as_str(),
            "option" | "menuitem" | "treeitem"
        ) || e.facts.tag == "li"
            || e.role() == crate::page::Role::Generic
            || e.role() == crate::page::Role::Link
            || e.role() == crate::page::Role::Button && e.facts.tag != "button")
}

/// A field that offers suggestions as one types: a combobox, or a field
/// whose markup says so (`DomFacts::suggests`: `aria-autocomplete`, a
/// `list`, a suggestion widget's class), so its late suggestions are
/// waited for.
fn autocompletes(e: &Observed) -> bool {
    e.role() == crate::page::Role::Combobox || e.facts.aria_role == "combobox" || e.facts.suggests
}

/// Suggestions below `field` whose words start with (or contain) `typed`
/// and say more than it, best first.
fn suggestions<'p>(cx: &Cx<'p>, field: &Observed, typed: &str) -> Vec<&'p Observed> {
    let want = normalize(typed);
    if want.is_empty() {
        return Vec::new();
    }
    let fb = field.element.bbox;
    let typed_time = crate::planner::values::time(typed);
    let at_time = |e: &Observed| {
        typed_time.is_some() && crate::planner::values::time(e.label().trim()) == typed_time
    };
    let mut out: Vec<(u8, &Observed)> = cx
        .page
        .elements
        .iter()
        .filter(|e| suggestion_like(e) && !cx.is_instruction(e))
        .filter(|e| {
            // Under the field (or without boxes, anywhere); a list of
            // times scrolls further down (its option at the time typed
            // is the one, wherever it is).
            at_time(e)
                || !e.has_box()
                || !field.has_box()
                || e.element.bbox.y >= fb.y + fb.height / 2.0 && e.element.bbox.y - fb.y < 500.0
        })
        .filter_map(|e| {
            let l = cx.label_words(e);
            // A list of times ("9:00am", "9:30am" every half hour, a
            // calendar's time combobox): the one at the time typed,
            // however it is written.
            if at_time(e) {
                return Some((0, e));
            }
            if *l == want || l.len() <= want.len() {
                return None;
            }
            // (`starts_with(want + " ")` implies `starts_with(want)`.)
            if l.starts_with(&want) {
                Some((0, e))
            } else if has_words(&l, &want) {
                Some((1, e))
            } else {
                None
            }
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| reading_order(a.1, b.1)));
    out.into_iter().map(|(_, e)| e).collect()
}

/// Right after `text` went into `field`: the suggestion to click, or a
/// short wait for suggestions an autocomplete has not shown yet.
pub fn choose(cx: &Cx<'_>, field: &Observed, text: &str, cursor: usize) -> Option<Outcome> {
    let just_typed = cx.history.iter().rposition(|h| {
        h.action == "type" && cx.on(h, field) && h.param_str("text") == Some(text)
    })?;
    if just_typed < cursor {
        return None;
    }
    // A suggestion chosen since: done.
    if cx.history[just_typed + 1..]
        .iter()
        .any(|h| h.action == "click")
    {
        return None;
    }
    // The field shows more than was typed: completed already.
    if normalize(field.value()) != normalize(text) && !field.value().is_empty() {
        return None;
    }
    if let Some(s) = suggestions(cx, field, text).first() {
        return Some(click(cx, s));
    }
    // One look; more (up to four) while the list says it is still coming
    // ("Searching…", "Loading…": suggestions from a server).
    let since = &cx.history[just_typed + 1..];
    let looks = since.iter().filter(|h| h.action == "observe").count();
    let only_looks = since.iter().all(|h| h.action == "observe");
    let allowed = if loading_shown(cx) { 4 } else { 1 };
    (autocompletes(field) && only_looks && looks < allowed)
        .then_some(Outcome::Act(Tool::Observe { wait_ms: Some(400) }))
}

fn fits(s: &str, starts: Option<&str>, ends: Option<&str>) -> bool {
    let l = normalize(s);
    !l.is_empty()
        && starts.is_none_or(|p| l.starts_with(&normalize(p)))
        && ends.is_none_or(|p| l.ends_with(&normalize(p)))
}

/// "an item that starts with Sa and ends with ino": type the start, then
/// choose the suggestion that fits; done once the field holds a fitting value.
pub fn pattern(
    cx: &Cx<'_>,
    field: &Target,
    starts: Option<&str>,
    ends: Option<&str>,
    cursor: usize,
) -> Outcome {
    let mut fields: Vec<&Observed> = cx
        .page
        .elements
        .iter()
        .filter(|e| e.is_text_entry() && !e.is_disabled())
        .collect();
    fields.sort_by(|a, b| reading_order(a, b));
    let chosen = if field.ordinal.is_some() || field.role.is_some() || field.text.is_some() {
        // "in the To field": by its name when there is one.
        let named = field
            .text
            .as_ref()
            .and_then(|_| best(&resolve(cx, field, &|e: &Observed| e.is_text_entry()), 0.45));
        named.or_else(|| {
            let t = Target {
                text: None,
                ..field.clone()
            };
            best(&resolve(cx, &t, &|e: &Observed| e.is_text_entry()), 0.3)
        })
    } else {
        None
    };
    let Some(f) = chosen
        .or_else(|| fields.iter().find(|e| autocompletes(e)).copied())
        .or_else(|| fields.first().copied())
    else {
        return Outcome::Stuck("no text field to type into".into());
    };
    let candidates: Vec<&Observed> = cx
        .page
        .elements
        .iter()
        .filter(|e| {
            !e.is_text_entry() && !cx.avoided(e) && !cx.is_instruction(e) && !e.is_disabled()
        })
        .filter(|e| fits(e.label(), starts, ends))
        .collect();
    let suggestion = candidates
        .iter()
        .min_by(|a, b| reading_order(a, b))
        .copied();
    let clicked_after_type = cx
        .history
        .iter()
        .rposition(|h| h.action == "type")
        .is_some_and(|t| cx.history[t + 1..].iter().any(|h| h.action == "click"));
    if suggestion.is_none() {
        if let Some(o) = by_keys(cx, f, starts, ends) {
            return o;
        }
    }
    // Looks taken since the last action (suggestions may be late).
    let looks = cx
        .history
        .iter()
        .rev()
        .take_while(|h| h.action == "observe")
        .count();
    if fits(f.value(), starts, ends) && (clicked_after_type || suggestion.is_none()) {
        // The prefix typed into a field that offers suggestions: "an item
        // that starts with Un" is one of its items, and its list comes a
        // moment after the typing (and, left open, covers what is below
        // it): one look for an item that fits before the prefix stands.
        let just_typed = cx.history.iter().rev().find(|h| h.action != "observe");
        if !clicked_after_type
            && autocompletes(f)
            && looks == 0
            && just_typed.is_some_and(|h| h.action == "type" && cx.on(h, f))
        {
            return Outcome::Act(Tool::Observe { wait_ms: Some(400) });
        }
        return Outcome::Done(cx.after_last(cursor, &["click", "type"]));
    }
    if let Some(s) = suggestion {
        if cx.clicked_since(cursor, s).is_none() {
            return click(cx, s);
        }
        return Outcome::Done(cx.after_last(cursor, &["click", "type"]));
    }
    let prefix = starts.or(ends).unwrap_or("");
    if !cx.typed_into(f, prefix) {
        return Outcome::Act(Tool::Type {
            id: cx.id(f),
            text: prefix.to_string(),
        });
    }

    // Typed, nothing to choose yet: look again a few times (suggestions may be late).
    if looks < 3 {
        return Outcome::Act(Tool::Observe { wait_ms: Some(400) });
    }
    Outcome::Stuck(format!(
        "no suggestion {}{}",
        starts
            .map(|s| format!("starting with \"{s}\" "))
            .unwrap_or_default(),
        ends.map(|s| format!("ending with \"{s}\""))
            .unwrap_or_default()
    ))
}

/// Suggestions the snapshot lists as one element (a list whose items have
/// no control of their own: its text is every item, one per line of the
/// page's text): the item that fits is reached as a person reaches it
/// with the keyboard — Arrow Down once per item down to it, in the field,
/// then Enter (the ARIA combobox pattern every autocomplete widget
/// follows). Done once the field holds a value that fits.
fn by_keys(cx: &Cx<'_>, f: &Observed, starts: Option<&str>, ends: Option<&str>) -> Option<Outcome> {
    let typed = cx
        .history
        .iter()
        .rposition(|h| h.action == "type" && cx.on(h, f))?;
    let pressed = |key: &str| {
        cx.history[typed + 1..]
            .iter()
            .any(|h| h.action == "press" && h.param_str("key") == Some(key))
    };
    if pressed("Enter") {
        return None;
    }
    if pressed("ArrowDown") {
        return Some(if fits(f.value(), starts, ends) {
            Outcome::Act(Tool::Press {
                key: "Enter".into(),
                id: Some(cx.id(f)),
                repeat: None,
            })
        } else {
            Outcome::Stuck("the suggestion reached with the arrow keys was not taken".into())
        });
    }
    let lines = cx.page.lines();
    let fb = f.element.bbox;
    let k = cx
        .page
        .elements
        .iter()
        .filter(|e| !e.is_text_entry() && !cx.is_instruction(e))
        .filter(|e| !e.has_box() || !f.has_box() || e.element.bbox.y >= fb.y + fb.height / 2.0)
        .find_map(|e| {
            let label = normalize(e.label());
            // The lines of the page's text this element's words are made of, in order.
            let mut items: Vec<&str> = Vec::new();
            let mut rest = label.as_str();
            for l in &lines {
                let n = normalize(l);
                if n.is_empty() {
                    continue;
                }
                let whole = |r: &&str| r.is_empty() || r.starts_with(' ');
                if let Some(r) = rest.strip_prefix(n.as_str()).filter(whole) {
                    items.push(l);
                    rest = r.trim_start();
                } else if !items.is_empty() {
                    break;
                }
            }
            (items.len() >= 2 && rest.is_empty())
                .then(|| items.iter().position(|i| fits(i, starts, ends)))
                .flatten()
        })?;
    Some(Outcome::Act(Tool::Press {
        key: "ArrowDown".into(),
        id: Some(cx.id(f)),
        repeat: u32::try_from(k + 1).ok(),
    }))
}
