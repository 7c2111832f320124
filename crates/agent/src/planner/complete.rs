//! The completion check (docs/agent.md "Carrying the steps out"): every
//! step reports done, yet the task may not be. Before the planner
//! finishes it asks two questions of the history and the page, whatever
//! the task's words:
//!
//! - **A form filled and never sent.** The step that ran last typed into
//!   a form (a branch counts by the side it took) and nothing sent it:
//!   its one submit button is clicked, as a person would.
//! - **A value the task named and never used.** A quoted value ("sort by
//!   "Top rated"", "in "Forest"") that the task's steps dropped, or that a
//!   choice carried and nothing on the page took: not typed anywhere, no
//!   element that says it clicked or showing it, not in the address. The
//!   control that takes it is used (an option, a radio, a custom listbox
//!   opened and its option chosen; `fill::complete_value`); with none,
//!   the planner asks rather than claim the task done.
//! - **A part of a clause no step carries**, quoted or not
//!   (`leftover.rs`): visibly true, done now, or asked about.

use super::context::{ok, Cx};
use super::leftover::Part;
use super::steps;
use crate::intent::{Choice, Condition, Intent, Step};
use crate::policy::Decision;
use crate::text::normalize;
use crate::types::Tool;
use sentience_snapshot_core::Observed;

/// What is left before finishing, as the decision that does it; `None`
/// when nothing is.
pub(super) fn pending(cx: &Cx<'_>, intent: &Intent, said: &[Part]) -> Option<Decision> {
    if let Some(t) = unsent_form(cx, intent) {
        return Some(Decision::Tool(t));
    }
    unused_value(cx, intent)
        .or_else(|| super::leftover::pending(cx, intent, said))
        .or_else(|| unsaved_choice(cx).map(Decision::Tool))
        .or_else(|| unsaved_row(cx).map(Decision::Tool))
}

/// **A choice made in a form and never saved.** The task's last action
/// changed a control of a form (a radio card, a check box, a select, a
/// field) and that form has one submit button of its own, not pressed
/// since: a person presses it ("Update plan", "Save") — a plan or a
/// setting chosen in a form is not applied until then. Asked after every
/// other part of the task is done, so the form goes once, complete. A
/// control outside any form (a filter that applies at once) asks nothing.
fn unsaved_choice(cx: &Cx<'_>) -> Option<Tool> {
    let (at, e) = last_change_here(cx)?;
    let form = e.facts.form;
    if form == 0 || is_submit(e) || matches!(e.facts.tag.as_str(), "button" | "a") {
        return None;
    }
    let s = only_submit(cx, Some(form))?;
    if cx.clicked_since(at, s).is_some() {
        return None;
    }
    Some(press(cx, s))
}

/// **A row's setting never applied.** The task's last action changed a
/// control outside any form that sits in a table row or list item
/// (DomFacts::row: "Priya Shah … [Role ▾] Apply"), and that row has one
/// button of its own that applies it ("Apply", "Save", "Update"), not
/// pressed since: a person presses it — the page saves the row's change
/// only then. A row with no such button (a status select that saves at
/// once) asks nothing.
fn unsaved_row(cx: &Cx<'_>) -> Option<Tool> {
    let (at, e) = last_change_here(cx)?;
    let row = normalize(&e.facts.row);
    if e.facts.form != 0 || row.is_empty() || !(e.is_field() || e.is_checkable()) {
        return None;
    }
    let mut applies = cx.page.elements.iter().filter(|b| {
        !b.is_field()
            && !b.is_checkable()
            && !b.is_disabled()
            && b.facts.tag == "button"
            && normalize(&b.facts.row) == row
            && normalize(b.label())
                .split(' ')
                .any(|w| APPLIES.contains(&w))
    });
    let (b, None) = (applies.next()?, applies.next()) else {
        return None;
    };
    if cx.clicked_since(at, b).is_some() {
        return None;
    }
    Some(press(cx, b))
}

/// The element the task's last action on this page changed (a click or
/// typing, not a key), with its place in the history; None when that
/// action was a key press or its element is gone.
fn last_change_here<'p>(cx: &Cx<'p>) -> Option<(usize, &'p Observed)> {
    let here = Some(cx.page.url.as_str());
    let (at, h) = cx.history.iter().enumerate().rev().find(|(_, h)| {
        matches!(h.action.as_str(), "click" | "type" | "press") && ok(h) && h.url.as_deref() == here
    })?;
    if h.action == "press" {
        return None;
    }
    let e = h.element_id().and_then(|id| cx.page.find(&id))?;
    Some((at, e))
}

/// The words of a row's button that applies a change made in the row.
const APPLIES: &[&str] = &["apply", "save", "update", "confirm", "set"];

fn is_submit(e: &Observed) -> bool {
    e.facts.input_type == "submit" && matches!(e.facts.tag.as_str(), "button" | "input")
}

/// The step that ran last: a branch stands for the side its condition took.
fn last_run<'s>(cx: &Cx<'_>, steps: &'s [Step]) -> Option<&'s Step> {
    match steps.last()? {
        Step::Branch {
            condition,
            then,
            otherwise,
        } => last_run(
            cx,
            if steps::holds(cx, condition) {
                then
            } else {
                otherwise
            },
        ),
        s => Some(s),
    }
}

/// The last step typed into a form that has one submit button, and
/// neither that button nor Enter was used since: the button.
fn unsent_form(cx: &Cx<'_>, intent: &Intent) -> Option<Tool> {
    if !matches!(last_run(cx, &intent.steps), Some(Step::Fill { .. })) {
        return None;
    }
    // The page has several forms (a seats stepper's form and a promo
    // code's, each with its own submit): the form the fill changed last —
    // typed into, or its stepper's "+" / "−" clicked — is the one to send.
    let e = only_submit(cx, None).or_else(|| {
        let (_, last) = last_change_here(cx)?;
        let form = Some(last.facts.form).filter(|f| *f != 0)?;
        only_submit(cx, Some(form)).filter(|s| !std::ptr::eq(*s, last))
    })?;
    // The value went into a row's own setting outside any form (the
    // submit's form is another one: "Invite a member" below a table of
    // members): that row applies it (`unsaved_row`), not this form.
    let last_typed = cx
        .history
        .iter()
        .rev()
        .find(|h| h.action == "type" && ok(h))
        .and_then(|h| h.element_id())
        .and_then(|id| cx.page.find(&id));
    if last_typed.is_some_and(|t| t.facts.form == 0 && e.facts.form != 0 && !t.facts.row.is_empty())
    {
        return None;
    }
    // A key that may have sent the form: not the arrow keys that walk a
    // list of suggestions, nor the Enter that took the item they reached.
    let walks = |h: &crate::types::HistoryEntry| {
        h.action == "press" && matches!(h.param_str("key"), Some("ArrowDown" | "ArrowUp"))
    };
    let pressed = cx.history.iter().enumerate().any(|(i, h)| {
        h.action == "press"
            && !walks(h)
            && !(h.param_str("key") == Some("Enter") && i > 0 && walks(&cx.history[i - 1]))
    });
    if cx.clicked_since(0, e).is_some() || pressed {
        return None;
    }
    Some(press(cx, e))
}

/// The page's one usable submit button (of `form`, when given), or `None`
/// when there are none or several.
fn only_submit<'p>(cx: &Cx<'p>, form: Option<u32>) -> Option<&'p Observed> {
    let mut submits = cx.page.elements.iter().filter(|e| {
        is_submit(e)
            && form.is_none_or(|f| e.facts.form == f)
            && !e.is_disabled()
            && !cx.is_instruction(e)
    });
    let first = submits.next()?;
    submits.next().is_none().then_some(first)
}

/// Click a submit button as a step would (revealing it first if it must).
fn press(cx: &Cx<'_>, e: &Observed) -> Tool {
    match steps::click(cx, e) {
        steps::Outcome::Act(t) => t,
        _ => Tool::Click { id: cx.id(e) },
    }
}

/// A quoted value of the task that must show somewhere once it is done:
/// one no step carries (the task language dropped its clause), or one a
/// choice carries. Values of conditions and waits ("until it says
/// "Live"") and reading tasks are not asked to show.
fn named_values(intent: &Intent, task: &str) -> Vec<(String, String)> {
    let described = normalize(&intent.describe());
    let mut conditions: Vec<String> = Vec::new();
    let mut chosen: Vec<String> = Vec::new();
    collect(&intent.steps, &mut conditions, &mut chosen);
    crate::text::quoted(task)
        .into_iter()
        .filter_map(|(start, _, q)| {
            let n = normalize(&q);
            if n.is_empty() || conditions.iter().any(|c| c.contains(&n)) {
                return None;
            }
            let dropped = !format!(" {described} ").contains(&format!(" {n} "));
            let in_choice = chosen.iter().any(|c| c.contains(&n));
            (dropped || in_choice).then(|| (q.clone(), words_before(task, start)))
        })
        .collect()
}

/// The texts of conditions (not to be shown by us) and of choices.
fn collect(steps: &[Step], conditions: &mut Vec<String>, chosen: &mut Vec<String>) {
    for s in steps {
        match s {
            Step::Branch {
                condition,
                then,
                otherwise,
            } => {
                conditions.push(normalize(&condition_text(condition)));
                collect(then, conditions, chosen);
                collect(otherwise, conditions, chosen);
            }
            Step::Wait { until: Some(c), .. } => conditions.push(normalize(&condition_text(c))),
            Step::Find { target, .. } => {
                conditions.push(normalize(target.text.as_deref().unwrap_or_default()))
            }
            Step::Choose {
                choice: Some(Choice::Exactly(items) | Choice::Only(items)),
                ..
            } => chosen.extend(items.iter().map(|i| normalize(i))),
            _ => {}
        }
    }
}

fn condition_text(c: &Condition) -> String {
    match c {
        Condition::Shows(t) | Condition::Appears(t) => t.clone(),
        Condition::Compare { subject, .. } => subject.clone(),
    }
}

/// Up to three words before a quote, within its clause: the words that
/// name what the value is for ("sort by", "video quality").
fn words_before(task: &str, start: usize) -> String {
    let head = &task[..start];
    let clause = head
        .rsplit([',', ';', '.', '"', '“', '”', ':'])
        .next()
        .unwrap_or_default();
    let words: Vec<&str> = clause.split_whitespace().collect();
    words[words.len().saturating_sub(3)..].join(" ")
}

/// The value shows somewhere: typed, said by an element clicked, held or
/// shown by an element of the page, or in the address.
pub(super) fn used(cx: &Cx<'_>, value: &str) -> bool {
    let n = normalize(value);
    let has = |t: &str| format!(" {} ", normalize(t)).contains(&format!(" {n} "));
    let done = cx.history.iter().any(|h| {
        ok(h)
            && match h.action.as_str() {
                "type" => h.param_str("text").is_some_and(has),
                "click" => h.element_text.as_deref().is_some_and(has),
                _ => false,
            }
    });
    done || has(&crate::planner::goal::url_decode(&cx.page.url))
        || cx.page.elements.iter().any(|e| {
            (e.is_field() && has(e.value()))
                || (steps::is_checked(e) && has(e.label()))
                || (steps::is_listbox_trigger(e) && has(e.label()))
        })
}

fn unused_value(cx: &Cx<'_>, intent: &Intent) -> Option<Decision> {
    if intent.done == crate::intent::Done::Answer {
        return None;
    }
    let missing: Vec<(String, String)> = named_values(intent, cx.task)
        .into_iter()
        .filter(|(q, _)| !used(cx, q))
        .collect();
    let (value, label) = missing.first()?;
    if let Some(t) = steps::complete_value(cx, value, label) {
        // The same action for it before, and the value still not used:
        // not tried again.
        let params = t.parameters();
        let again = cx
            .history
            .iter()
            .any(|h| h.action == t.name().as_str() && h.parameters.as_ref() == Some(&params));
        if !again {
            return Some(Decision::Tool(t));
        }
    }
    let all: Vec<String> = missing.iter().map(|(q, _)| format!("\"{q}\"")).collect();
    Some(Decision::Ask(super::recover::question(
        cx,
        &format!(
            "the steps I understood are done, but {} is not set anywhere",
            all.join(", ")
        ),
    )))
}
