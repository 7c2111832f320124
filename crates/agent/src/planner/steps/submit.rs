//! Submit (log in, sign up, send, save, book…) and search: the form's
//! submit control for the fields just filled, whatever it says (form.rs),
//! Enter in the last field as the fallback; a button whose words say what
//! the task does when nothing was filled ("Save changes", "Request a
//! refund"). Done once the page changed after it.

use super::{click, reveal, Outcome};
use crate::intent::{Target, Value};
use crate::planner::context::Cx;
use crate::planner::fields::{entered, kind_of};
use crate::planner::find::{resolve, FLOOR};
use crate::planner::form::submit_control;
use crate::planner::goal::url_decode;
use crate::task::FieldKind;
use crate::text::contains_words;
use crate::types::Tool;
use sentience_snapshot_core::Observed;

/// Was the form sent since `cursor`: a click on its control `b` or Enter,
/// after which the page changed; or, after the last value typed, a click
/// after which the fields typed into are gone (the page moved on). Its
/// history index.
fn sent(cx: &Cx<'_>, cursor: usize, b: Option<&Observed>) -> Option<usize> {
    // The values typed for this form: since `cursor`, else those of the
    // fill step just before it (which ends where the page moved on).
    let last_type = cx.history.iter().rposition(|h| h.action == "type");
    let from = if last_type.is_some_and(|i| i >= cursor) {
        cursor
    } else {
        0
    };
    let fields_gone = cx
        .history
        .iter()
        .skip(from)
        .filter(|h| h.action == "type" && h.url.as_deref() == Some(cx.page.url.as_str()))
        .filter_map(|h| h.element_id())
        .all(|id| cx.page.find(&id).is_none());
    cx.history
        .iter()
        .enumerate()
        .skip(cursor)
        .find_map(|(i, h)| {
            if h.no_page_change() || h.success == Some(false) {
                return None;
            }
            let on_b = b.is_some_and(|b| cx.on(h, b));
            let enter = h.action == "press" && h.param_str("key") == Some("Enter");
            let moved_on = h.action == "click" && last_type.is_some_and(|t| i > t) && fields_gone;
            ((h.action == "click" && on_b) || enter || moved_on).then_some(i)
        })
}

pub fn step(cx: &Cx<'_>, phrase: &str, button: Option<&str>, cursor: usize) -> Outcome {
    // A control the task names ("Submit", "Create account").
    if let Some(b) = button {
        let t = Target {
            text: Some(b.to_string()),
            ..Target::default()
        };
        let hits = resolve(cx, &t, &|e: &Observed| !e.is_field());
        if let Some(h) = hits.first().filter(|h| h.score >= FLOOR) {
            if let Some(i) = cx.clicked_changed(cursor, h.e) {
                return Outcome::Done(i + 1);
            }
            if !cx.useless_click(cursor, h.e) {
                return click(cx, h.e);
            }
        }
    }
    implicit(cx, phrase, cursor).unwrap_or_else(|| {
        reveal(
            cx,
            &Target {
                text: Some(phrase.to_string()),
                ..Target::default()
            },
            cursor,
        )
    })
}

/// The form's submit control (or Enter), for a step that submits; `None`
/// when there is nothing to submit here.
pub fn implicit(cx: &Cx<'_>, phrase: &str, cursor: usize) -> Option<Outcome> {
    let filled = cx.typed_here();
    let control = submit_control(cx, &filled, phrase);
    // Sent by its control, or by the form's own control whatever the task
    // called it: once results show, a "Book flight" button may look more
    // like "book" than the Search that was clicked.
    let own = submit_control(cx, &filled, "");
    if let Some(i) = sent(cx, cursor, control).or_else(|| sent(cx, cursor, own)) {
        // A step of a wizard moved on, not the form sent: its final action.
        return Some(super::wizard::after_step(cx, phrase, i).unwrap_or(Outcome::Done(i + 1)));
    }
    // Sent by a click on another control since (the page moved on).
    let moved_on = cx.history.iter().enumerate().skip(cursor).find(|(_, h)| {
        (h.action == "click" || h.action == "press")
            && !h.no_page_change()
            && h.success != Some(false)
            && h.url
                .as_deref()
                .is_some_and(|u| !crate::planner::goal::same_url(u, &cx.page.url))
    });
    if let Some((i, _)) = moved_on {
        return Some(super::wizard::after_step(cx, phrase, i).unwrap_or(Outcome::Done(i + 1)));
    }
    if let Some(o) = option_named(cx, &filled, cursor) {
        return Some(o);
    }
    if let Some(b) = control {
        if !cx.useless_click(cursor, b) {
            return Some(click(cx, b));
        }
    }
    // Enter in the last field filled, once.
    let last = filled.last()?;
    let pressed = cx
        .history
        .iter()
        .skip(cursor)
        .any(|h| h.action == "press" && cx.on(h, last));
    if pressed {
        return Some(Outcome::Done(cx.after_last(cursor, &["press"])));
    }
    Some(Outcome::Act(Tool::Press {
        key: "Enter".into(),
        id: Some(cx.id(last)),
        repeat: None,
    }))
}

/// search for X: into the search field (a field of kind search, else the
/// only text field), then submitted; done when the page changed after it.
pub fn search(cx: &Cx<'_>, term: Option<&Value>, cursor: usize) -> Outcome {
    let Some(text) = term.and_then(Value::text) else {
        return implicit(cx, "search", cursor).unwrap_or(Outcome::Done(cursor));
    };
    // "flights from Boston to San Francisco on 10/16/2016" on a form whose
    // fields say From and To: each part into the field its preposition
    // names (a date or time by its shape), then the form is sent.
    if let Some(values) = super::search_roles::role_values(cx, &text) {
        return match super::fill::step(cx, &values, &Target::default(), cursor, Default::default())
        {
            Outcome::Done(c) => implicit(cx, "search", c).unwrap_or(Outcome::Done(c)),
            other => other,
        };
    }
    let typed_at = cx
        .history
        .iter()
        .skip(cursor)
        .rposition(|h| h.action == "type" && h.param_str("text") == Some(text.as_str()))
        .map(|i| i + cursor);
    // "Search the catalogue for X" where tabs choose what the box searches
    // ("Everything", "Catalogue", "Articles"): the tab the task names
    // first (`hidden_form.rs`).
    if typed_at.is_none() {
        if let Some(tab) = super::hidden_form::named_tab(cx, std::slice::from_ref(&text)) {
            return super::click(cx, tab);
        }
    }
    if let Some(t) = typed_at {
        let submitted = cx.history[t + 1..]
            .iter()
            .any(|h| matches!(h.action.as_str(), "click" | "press") && !h.no_page_change());
        if submitted {
            return Outcome::Done(cx.after_last(cursor, &["click", "press"]));
        }
        let shown = contains_words(&url_decode(&cx.page.url), &text);
        if shown
            && cx.history[t + 1..]
                .iter()
                .any(|h| h.action == "press" || h.action == "click")
        {
            return Outcome::Done(cx.after_last(cursor, &["click", "press"]));
        }
        if let Some(o) = implicit(cx, "search", cursor) {
            return o;
        }
    }
    // "search flights" where a button says "Search flights": that button
    // is the search (the form was filled by the steps before).
    let spoken = crate::text::normalize(&format!("search {text}"));
    if let Some(b) = cx.page.elements.iter().find(|e| {
        !e.is_field()
            && !e.is_disabled()
            && crate::planner::find::words_fit(&crate::text::normalize(e.label()), &spoken) >= 0.85
    }) {
        return match cx.clicked_since(cursor, b) {
            Some(i) => Outcome::Done(i + 1),
            None => click(cx, b),
        };
    }
    if entered(cx, &text).is_some() && typed_at.is_none() {
        return implicit(cx, "search", cursor).unwrap_or(Outcome::Done(cursor));
    }
    let fields: Vec<&Observed> = cx
        .page
        .elements
        .iter()
        .filter(|e| e.is_text_entry() && !e.is_disabled() && !cx.avoided(e))
        // Search words never go into a field made for something else (a
        // newsletter's e-mail, a password): with none other here, the
        // search is on another page (a link to it is looked for below).
        .filter(|e| {
            !matches!(
                kind_of(e),
                Some(
                    FieldKind::Email | FieldKind::Password | FieldKind::Phone | FieldKind::Username
                )
            )
        })
        .collect();
    // A search field; else the field whose words (or the heading over it:
    // "Search the catalogue") the task has.
    let task = crate::text::concepts(cx.task);
    // The box under the tab the task named ("the catalogue"), before the
    // header's site search (`hidden_form.rs`).
    let scoped = super::hidden_form::box_of_named_tab(cx, std::slice::from_ref(&text));
    let score = |e: &Observed| -> f64 {
        let mut s = if kind_of(e) == Some(FieldKind::Search) {
            2.0
        } else {
            0.0
        };
        if scoped.is_some_and(|b| std::ptr::eq(b, e)) {
            s += 3.0;
        }
        let mut words = crate::text::concepts(e.label());
        words.extend(crate::text::concepts(cx.layout.before(e.label(), 30)));
        s += words
            .iter()
            .filter(|c| c.as_str() != "search" && task.contains(c))
            .count() as f64;
        s
    };
    let field = fields.iter().max_by(|a, b| {
        score(a)
            .total_cmp(&score(b))
            .then_with(|| crate::planner::layout::reading_order(b, a))
    });
    match field {
        Some(f) => Outcome::Act(Tool::Type { id: cx.id(f), text }),
        None => reveal(
            cx,
            &Target {
                text: Some("search".into()),
                ..Target::default()
            },
            cursor,
        ),
    }
}

/// Before sending: a list of this form whose option the task names in
/// passing ("request a cleaning appointment" → Reason: Cleaning), not yet
/// set. Only when exactly one option of one list is named.
fn option_named(cx: &Cx<'_>, filled: &[&Observed], cursor: usize) -> Option<Outcome> {
    let form = filled.last().map(|e| e.facts.form).unwrap_or(0);
    let task = format!(" {} ", crate::text::normalize(cx.task));
    let mut hits = Vec::new();
    for e in cx
        .page
        .elements
        .iter()
        .filter(|e| e.is_select() && !e.is_disabled())
    {
        if form != 0 && e.facts.form != 0 && e.facts.form != form {
            continue;
        }
        if cx
            .history
            .iter()
            .skip(cursor)
            .any(|h| h.action == "type" && cx.on(h, e))
        {
            continue;
        }
        let named: Vec<&str> = e
            .element
            .state
            .options()
            .iter()
            .map(|o| o.text.as_str())
            .filter(|t| {
                // A short option is named as a noun of the task too ("file
                // a bug" → Type: Bug), never as a word without meaning.
                let n = crate::text::normalize(t);
                let word = n.len() >= 4 || (n.len() == 3 && !crate::text::is_stopword(&n));
                word && task.contains(&format!(" {n} "))
            })
            .collect();
        if let [one] = named.as_slice() {
            if crate::text::normalize(e.value()) != crate::text::normalize(one) {
                hits.push((e, one.to_string()));
            }
        }
    }
    match hits.as_slice() {
        [(e, option)] => Some(Outcome::Act(Tool::Type {
            id: cx.id(e),
            text: option.clone(),
        })),
        _ => None,
    }
}
