//! A submit the page refused (docs/agent.md "Carrying the steps out"):
//! every step reports done, yet the form just sent is still there and the
//! page answers it with a message asking for something ("Please confirm
//! the reading is accurate.", "Mobile is required.", "Enter a valid
//! date."). That is no success, whatever the steps say. The planner reads
//! the message and fixes what it names when it can (a consent box; an
//! empty list the message names, set to the one option the task's words
//! name), sends
//! the form again after a fix, else asks the user, quoting the page;
//! never "Done" over a visible form error.

use super::context::{ok, Cx};
use super::form::is_button;
use super::goal::{fresh_success, same_url, without_task};
use super::recover;
use super::steps::consent;
use crate::policy::Decision;
use crate::text::{normalize, truncate};
use crate::types::{HistoryEntry, Tool};
use sentience_snapshot_core::{Observed, SelectOption};

/// What a message asks one to do, after "Please".
/// Not "check" nor "review": "Check your inbox to confirm." follows a
/// form that went.
const PLEASE: &[&str] = &[
    "enter", "choose", "select", "confirm", "agree", "accept", "fill", "complete", "provide",
    "tick", "correct", "fix", "add", "pick", "type",
];

/// Words of a message that says a field is wrong or missing.
const WRONG: &[&str] = &["required", "invalid", "incorrect", "missing", "error"];

/// Pairs of words that say the same ("not valid", "try again"). Not
/// "must be" nor "do not": hints and notices say them ("Passwords must
/// be 8 characters", "We do not sell personal data").
const WRONG_PAIRS: &[(&str, &str)] = &[
    ("not", "valid"),
    ("not", "match"),
    ("try", "again"),
    ("t", "be"),
    ("cannot", "be"),
    ("too", "short"),
    ("too", "long"),
];

/// A line of the page that asks for something the form lacks ("Please
/// choose a time", "Select a meter.", "Email is required"). A legend
/// ("Fields marked * are required") asks nothing, nor a control's own
/// words ("Enter code" on a button).
fn complains(cx: &Cx<'_>, line: &str) -> bool {
    let n = normalize(line);
    let w: Vec<&str> = n.split(' ').collect();
    if n.is_empty() || w.len() > 25 || without_task(line, cx.task).trim().is_empty() {
        return false;
    }
    if w.contains(&"marked") || cx.page.elements.iter().any(|e| cx.label_words(e) == n) {
        return false;
    }
    let asks = |v: &str| PLEASE.contains(&v);
    // "Please enter …", or a short order ending in a full stop.
    (w[0] == "please" && w.get(1).is_some_and(|v| asks(v)))
        || (asks(w[0]) && w.len() <= 8 && line.trim_end().ends_with('.'))
        || w.iter().any(|x| WRONG.contains(x))
        || w.windows(2)
            .any(|p| WRONG_PAIRS.iter().any(|(a, b)| p[0] == *a && p[1] == *b))
}

/// The last action sent a form (a click on a button, Enter in a field)
/// and that control is still on the page: its history index and element.
fn last_send<'p>(cx: &Cx<'p>) -> Option<(usize, &'p Observed)> {
    let here = |h: &HistoryEntry| h.url.as_deref().is_some_and(|u| same_url(u, &cx.page.url));
    cx.history
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, h)| ok(h) && here(h))
        .filter(|(_, h)| matches!(h.action.as_str(), "click" | "press"))
        .find_map(|(i, h)| {
            let e = h.element_id().and_then(|id| cx.page.find(&id))?;
            let enter = h.action == "press" && h.param_str("key") == Some("Enter");
            let button = h.action == "click" && (is_button(e) || e.facts.input_type == "submit");
            (enter || button).then_some((i, e))
        })
}

/// When the steps say done: the decision that answers a refusal, or
/// `None` when the page shows none.
pub fn answer(cx: &Cx<'_>) -> Option<Decision> {
    if fresh_success(cx).is_some() {
        return None;
    }
    let (at, sender) = last_send(cx)?;
    let message = cx
        .page
        .lines()
        .into_iter()
        .find(|l| complains(cx, l))?
        .to_string();
    // Fixed since it was sent (a box ticked, a field typed into): send
    // it again, as it was sent.
    let fixed = cx.history[at + 1..]
        .iter()
        .any(|h| ok(h) && matches!(h.action.as_str(), "click" | "type"));
    if fixed {
        let h = &cx.history[at];
        let id = cx.id(sender);
        return Some(Decision::Tool(if h.action == "press" {
            Tool::Press {
                key: "Enter".into(),
                id: Some(id),
                repeat: None,
            }
        } else {
            Tool::Click { id }
        }));
    }
    if let Some(t) = consent::of_form(cx, sender).or_else(|| list_named(cx, &message)) {
        return Some(Decision::Tool(t));
    }
    let why = format!(
        "the page did not accept the form and says \"{}\"",
        truncate(&message, 160)
    );
    let asked = cx.history[at + 1..].iter().any(|h| h.action == "ask_user");
    Some(if asked {
        Decision::Fail(format!("Stuck on {}: {why}", cx.page.url))
    } else {
        Decision::Ask(recover::question(cx, &why))
    })
}

/// An option that only asks for a choice ("Select a meter", "— choose —").
fn placeholder(o: &SelectOption) -> bool {
    let t = normalize(&o.text);
    t.is_empty() || t.starts_with("select") || t.starts_with("choose") || t.starts_with("pick")
}

/// The empty list the message names ("Select a meter." and a list
/// labelled "Meter", nothing chosen), set to its one option that a word
/// of the task names ("an electricity meter reading" → "Electricity —
/// serial …"); `None` when no option or several fit.
fn list_named(cx: &Cx<'_>, message: &str) -> Option<Tool> {
    let said = normalize(message);
    let said: Vec<&str> = said
        .split(' ')
        .filter(|w| w.len() >= 3 && !PLEASE.contains(w) && *w != "please")
        .collect();
    let task = normalize(cx.task);
    let task: Vec<&str> = task.split(' ').filter(|w| w.len() >= 4).collect();
    cx.page.elements.iter().find_map(|e| {
        if !e.is_select() || e.is_disabled() {
            return None;
        }
        let opts = e.element.state.options();
        if opts.iter().any(|o| o.selected && !placeholder(o)) {
            return None;
        }
        let label = cx.label_words(e);
        let label: Vec<&str> = label.split(' ').collect();
        if !label.iter().any(|w| said.contains(w)) {
            return None;
        }
        let mut fits = opts.iter().filter(|o| {
            !placeholder(o)
                && normalize(&o.text)
                    .split(' ')
                    .any(|w| task.contains(&w) && !label.contains(&w))
        });
        let one = fits.next()?;
        fits.next().is_none().then(|| Tool::Type {
            id: cx.id(e),
            text: one.text.clone(),
        })
    })
}
