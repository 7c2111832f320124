//! A value for the setting of one thing's row or card ("make Priya Shah an
//! administrator", "move KES-210 to Done", "Ana Ruiz's plan to Family"):
//! the field that belongs to the row that names the thing (DomFacts::row,
//! else the first field after the thing's words in reading order;
//! `find/relate.rs`), never a global form's field of the same name, and
//! another row already showing the value is no sign that this one does.

use super::Place;
use crate::intent::Target;
use crate::planner::context::Cx;
use crate::planner::find::{resolve, text_fit};
use crate::planner::values::{for_field, option_for};
use crate::types::Tool;
use sentience_snapshot_core::Observed;

/// The value placed in the thing's own field: done when it holds it, else
/// typed or chosen there; None when the thing has no field on this page
/// (the caller's general placing goes on).
pub(super) fn place<'p>(
    cx: &Cx<'p>,
    text: &str,
    label: &str,
    field: &Target,
    taken: &[&'p Observed],
) -> Option<Place<'p>> {
    field.relation.as_ref()?;
    if field.ordinal.is_some() || field.all {
        return None;
    }
    let t = Target {
        text: None,
        ..field.clone()
    };
    let fields = |e: &Observed| (e.is_field() || e.is_checkable()) && !e.is_disabled();
    let hits = resolve(cx, &t, &fields);
    let best = hits.first()?.score;
    // Of the thing's fields, the one its label names ("role"), else the
    // one that offers the value (a select with that option), else the first.
    let near: Vec<&Observed> = hits
        .iter()
        .filter(|h| h.score >= best * 0.6 && !taken.iter().any(|t| std::ptr::eq(*t, h.e)))
        .map(|h| h.e)
        .collect();
    // Nearest first (the relation's order) among the best suited.
    let top = near.iter().map(|e| fit(e, text, label)).fold(0.0, f64::max);
    let e = *near.iter().find(|e| fit(e, text, label) >= top)?;
    if e.is_checkable() {
        if super::super::choose::is_checked(e) {
            return Some(Place::Done(Some(e)));
        }
        return Some(Place::Act(super::click(cx, e)));
    }
    let want = for_field(e, text);
    if cx.holds(e, &want) {
        return Some(Place::Done(Some(e)));
    }
    Some(Place::Act(super::Outcome::Act(Tool::Type {
        id: cx.id(e),
        text: want,
    })))
}

/// How well a field of the row suits the value: its label names the
/// value's label, or one of its options is the value.
fn fit(e: &Observed, text: &str, label: &str) -> f64 {
    let named = if label.is_empty() {
        0.0
    } else {
        text_fit(e, label)
    };
    let offers = if e.is_select() && option_for(e, text).is_some() {
        1.0
    } else {
        0.0
    };
    named + offers
}
