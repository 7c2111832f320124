//! Dialogs and banners in the way (docs/agent.md "Carrying out the
//! steps"): the element a step acts on is covered (the snapshot engine's
//! `is_occluded`: a cookie wall, a newsletter pop-up over the page), so a
//! person would first dismiss what covers it. A click through an overlay
//! lands on the overlay, and typing into a covered field is refused by the
//! tool server's `dom` provider ("not in view or is covered"): the
//! decision is the same on every surface, made here once.

use super::context::Cx;
use super::layout::normalize;
use crate::types::Tool;
use sentience_snapshot_core::Observed;

/// The ways out of a dialog in the way, least consent first: a user who
/// asked to subscribe to a newsletter did not ask to accept every cookie.
const DISMISS: &[&[&str]] = &[
    &[
        "reject all",
        "reject",
        "decline",
        "decline all",
        "necessary only",
        "only necessary",
        "essential only",
        "refuse all",
        "deny",
    ],
    &[
        "close",
        "×",
        "x",
        "✕",
        "dismiss",
        "no thanks",
        "not now",
        "maybe later",
        "skip",
    ],
    &[
        "accept all",
        "accept",
        "allow all",
        "agree",
        "i agree",
        "got it",
        "ok",
        "okay",
        "continue",
    ],
];

/// The action to take first when `tool` acts on a covered element: a
/// click on the control that dismisses what covers it.
pub fn first(cx: &Cx<'_>, tool: Tool) -> Tool {
    let id = match &tool {
        Tool::Click { id } | Tool::Type { id, .. } => id,
        _ => return tool,
    };
    let covered = cx
        .page
        .elements
        .iter()
        .find(|e| cx.id(e) == *id)
        .is_some_and(|e| e.element.is_occluded);
    if !covered {
        return tool;
    }
    match dismisser(cx) {
        Some(e) => Tool::Click { id: cx.id(e) },
        None => tool,
    }
}

fn dismisser<'p>(cx: &Cx<'p>) -> Option<&'p Observed> {
    let usable = |e: &&Observed| {
        !e.is_field()
            && !e.is_checkable()
            && !e.is_disabled()
            && e.element.in_viewport
            && !e.element.is_occluded
            && !cx.useless_click(0, e)
    };
    for group in DISMISS {
        if let Some(e) = cx.page.elements.iter().filter(usable).find(|e| {
            let raw = e.label().trim().to_lowercase();
            let n = normalize(&raw);
            group.iter().any(|w| *w == raw || *w == n)
        }) {
            return Some(e);
        }
    }
    None
}
