//! Where a form the task fills is kept on pages laid out the way many
//! sites do it (issue 23o, layout variants of the realistic pages):
//!
//! - **Behind a control that opens it.** A landing page whose header's
//!   "Log in" opens the sign-in form in a dialog, a list of tickets whose
//!   "New ticket" slides a form in from the side, a to-do list whose "New
//!   reminder" opens a popover card: the page shows no box to type into
//!   at all (a site search box aside) until that control is pressed
//!   (`opener_of_form`).
//! - **Under a tab the task names.** A search box whose scope is chosen by
//!   tabs ("Everything", "Catalogue", "Articles" on a library's home
//!   page): "search the catalogue for X" selects the "Catalogue" tab
//!   before typing, since the box shown first searches something else
//!   (`named_tab`).

use crate::planner::context::Cx;
use crate::planner::fields::kind_of;
use crate::planner::layout::reading_order;
use crate::task::FieldKind;
use sentience_snapshot_core::Observed;

/// The words of the task that are not inside one of its values, each with
/// its position (the verb and the thing come first; the values, typed
/// into fields, say nothing about which control opens the form).
fn task_words(cx: &Cx<'_>, values: &[String]) -> Vec<(usize, String)> {
    let inside: Vec<String> = values.iter().flat_map(|v| stems(v)).collect();
    stems(cx.task)
        .into_iter()
        .filter(|w| w.len() > 2 && !inside.contains(w))
        .enumerate()
        .collect()
}

/// The words of `s`, stemmed, without stopwords; phrases are not folded
/// ("Log in" keeps "log", which "log me into" says too).
fn stems(s: &str) -> Vec<String> {
    crate::text::normalize(s)
        .split(' ')
        .filter(|w| !w.is_empty() && !crate::text::is_stopword(w))
        .map(crate::text::stem)
        .collect()
}

/// A control's words, stemmed, without stopwords.
fn label_words(e: &Observed) -> Vec<String> {
    stems(e.label())
        .into_iter()
        .filter(|w| w.len() > 1)
        .collect()
}

/// The same word, or the whole shorter word of five letters or more
/// starting the longer ("remind" / "reminder" are one; "subscribe" /
/// "subscription" are not, nor "log" / "logo").
fn same_word(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short == long || short.len() >= 5 && long.starts_with(short)
}

/// The page shows no box to type a form's values into: no enabled text
/// entry but a site search box.
fn shows_no_form(cx: &Cx<'_>) -> bool {
    !cx.page.elements.iter().any(|e| {
        e.is_text_entry()
            && !e.is_disabled()
            && e.facts.input_type != "search"
            && kind_of(e) != Some(FieldKind::Search)
    })
}

/// When the page shows no form, the button (not a link: a link leads to
/// another page, `reveal::related_link`) not pressed yet whose words share
/// most words with the task outside its `values`, ties to the one sharing
/// an earlier word of the task (its verb: "log me into Orbit" → "Log in"
/// before "Get Orbit free"), then the first in reading order. None when
/// no button shares a word.
pub fn opener_of_form<'p>(cx: &Cx<'p>, values: &[String]) -> Option<&'p Observed> {
    if !shows_no_form(cx) {
        return None;
    }
    let task = task_words(cx, values);
    if task.is_empty() {
        return None;
    }
    cx.page
        .elements
        .iter()
        .filter(|e| {
            e.role() == crate::page::Role::Button
                && e.facts.tag != "a"
                && !e.is_field()
                && !e.is_checkable()
                && !e.is_disabled()
                && !cx.avoided(e)
                && !cx.is_instruction(e)
                && cx.clicked_since(0, e).is_none()
        })
        .filter_map(|e| {
            let have = label_words(e);
            let shared: Vec<usize> = task
                .iter()
                .filter(|(_, w)| have.iter().any(|h| same_word(h, w)))
                .map(|(i, _)| *i)
                .collect();
            let first = *shared.iter().min()?;
            Some((shared.len(), first, e))
        })
        .max_by(|a, b| {
            a.0.cmp(&b.0)
                .then_with(|| b.1.cmp(&a.1))
                .then_with(|| reading_order(b.2, a.2))
        })
        .map(|(_, _, e)| e)
}

/// The tabs (`role="tab"`) every word of whose name the task says outside
/// its `values` ("Catalogue" for "search the catalogue for octopus"; not
/// "Returns & refunds" for a task that says only "refund"), selected
/// (`Some(true)`) or not.
fn tabs_named<'p>(
    cx: &Cx<'p>,
    values: &[String],
    selected: bool,
) -> impl Iterator<Item = &'p Observed> {
    let task: Vec<String> = task_words(cx, values).into_iter().map(|(_, w)| w).collect();
    cx.page
        .elements
        .iter()
        .filter(move |e| is_tab(e) && e.element.state.selected == Some(selected))
        .filter(move |e| {
            let have = label_words(e);
            !have.is_empty() && have.iter().all(|w| task.contains(w))
        })
}

/// An unselected tab the task names, not clicked yet, first in reading
/// order.
pub fn named_tab<'p>(cx: &Cx<'p>, values: &[String]) -> Option<&'p Observed> {
    tabs_named(cx, values, false)
        .filter(|e| !e.is_disabled() && !cx.avoided(e) && cx.clicked_since(0, e).is_none())
        .min_by(|a, b| reading_order(a, b))
}

/// A tab by its markup (`role="tab"`): an option or a row that is
/// merely selectable is no scope to choose (the suggestion "Portland, OR"
/// for a task that says Portland).
fn is_tab(e: &Observed) -> bool {
    e.facts.aria_role == "tab"
}

/// The first text box after the selected tab the task names, in reading
/// order: the box of that tab's panel ("Title, author or subject" under
/// "Catalogue"), which the task's search goes into before a site-wide
/// search box of the header.
pub fn box_of_named_tab<'p>(cx: &Cx<'p>, values: &[String]) -> Option<&'p Observed> {
    let tab = tabs_named(cx, values, true).next()?;
    cx.page
        .elements
        .iter()
        .filter(|e| e.is_text_entry() && !e.is_disabled() && !cx.avoided(e))
        .filter(|e| reading_order(tab, e) == std::cmp::Ordering::Less)
        .min_by(|a, b| reading_order(a, b))
}
