//! Values shown only after an interaction (issue 23's comparisons): cards
//! whose amounts stay hidden until their "Show offer" / "Reveal price" /
//! "See rate" is clicked. A superlative ("the highest offer", "the
//! cheapest quote") is judged on what the cards show, so a person first
//! opens every card's value, then compares. The controls that reveal are
//! known by the verb their label starts with (a small lexicon of the
//! construct, like the ways out of a dialog in `uncover.rs`), repeated on
//! the page — one per card — and not clicked yet in this task.

use super::context::Cx;
use super::layout::reading_order;
use crate::text::normalize;
use sentience_snapshot_core::Observed;

/// Verbs that start a label which reveals something in place.
const REVEAL: &[&str] = &[
    "show", "reveal", "see", "view", "display", "unhide", "unmask",
];
/// Verbs of the same controls once they have revealed ("Hide offer"): no
/// card's action, whatever their number.
const UNREVEAL: &[&str] = &["hide", "conceal", "mask"];

fn starts_with(e: &Observed, verbs: &[&str]) -> bool {
    let l = normalize(e.label());
    l.split(' ')
        .next()
        .is_some_and(|w| verbs.contains(&w) && l.contains(' '))
}

/// Controls that reveal or hide a card's value: never the card's action.
pub fn is_toggle(e: &Observed) -> bool {
    starts_with(e, REVEAL) || starts_with(e, UNREVEAL)
}

/// Has this task revealed card values already (a reveal control clicked)?
pub fn revealed(cx: &Cx<'_>) -> bool {
    cx.history.iter().any(|h| {
        h.action == "click"
            && h.element_text.as_deref().is_some_and(|t| {
                let l = normalize(t);
                l.split(' ').next().is_some_and(|w| REVEAL.contains(&w))
            })
    })
}

/// The next card's reveal control to click before comparing: one of a
/// set repeated across cards (two or more on the page, or any left once
/// the task has begun revealing), not clicked yet.
pub fn next<'p>(cx: &Cx<'p>) -> Option<(usize, &'p Observed)> {
    let mut shown: Vec<(usize, &Observed)> = cx
        .page
        .elements
        .iter()
        .enumerate()
        .filter(|(_, e)| !e.is_disabled() && !e.is_field() && starts_with(e, REVEAL))
        // In place: a link ("View details") leads elsewhere, it reveals nothing here.
        .filter(|(_, e)| e.facts.href.is_empty() && e.role() != crate::page::Role::Link)
        .collect();
    // Of one kind: the label most repeated.
    let label = |e: &Observed| normalize(e.label());
    let common = shown
        .iter()
        .map(|(_, e)| label(e))
        .max_by_key(|l| shown.iter().filter(|(_, e)| label(e) == *l).count())?;
    shown.retain(|(_, e)| label(e) == common);
    if shown.len() < 2 && !revealed(cx) {
        return None;
    }
    shown.sort_by(|a, b| reading_order(a.1, b.1));
    shown
        .into_iter()
        .find(|(_, e)| cx.clicked_since(0, e).is_none() && !cx.avoided(e))
}
