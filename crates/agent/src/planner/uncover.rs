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
    // Every control in view covered, the dialog's own among them: a modal
    // over the whole page whose controls the engine's geometry flags with
    // the rest (its stacking is approximated: occlusion.rs `paints_above`;
    // the modal's in-flow buttons under an earlier sticky bar were flagged
    // until the engine ordered them with their positioned box). Its way
    // out is still the one to take first, though it is flagged too.
    let whole_page = || {
        cx.page
            .elements
            .iter()
            .filter(|e| e.element.in_viewport)
            .all(|e| e.element.is_occluded)
    };
    match dismisser(cx, false).or_else(|| whole_page().then(|| dismisser(cx, true)).flatten()) {
        Some(e) => Tool::Click { id: cx.id(e) },
        None => tool,
    }
}

/// The first control of the page that dismisses a dialog, by the least
/// consent its words give; `covered_too`: one flagged as covered counts.
fn dismisser<'p>(cx: &Cx<'p>, covered_too: bool) -> Option<&'p Observed> {
    let usable = |e: &&Observed| {
        !e.is_field()
            && !e.is_checkable()
            && !e.is_disabled()
            && e.element.in_viewport
            && (covered_too || !e.element.is_occluded)
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

/// The answers that keep a person where they are, when a dialog asks
/// whether to leave.
const STAY: &[&str] = &[
    "cancel",
    "no",
    "stay",
    "stay here",
    "stay on page",
    "keep editing",
];

/// Words of a question about leaving what one is doing.
const LEAVING: &[&str] = &[
    "exit",
    "leave",
    "quit",
    "log out",
    "logout",
    "sign out",
    "discard",
    "lose",
    "home page",
    "navigate away",
];

/// A dialog that stops the task's form (its fields or buttons disabled
/// while it is up) and asks whether to leave ("Your session is about to
/// expire. Exit to home page? OK Cancel"): a person who wants to finish the
/// form answers so as to stay — unless leaving is what the task asks.
pub fn leave_question(cx: &Cx<'_>) -> Option<Tool> {
    let blocked =
        cx.page.elements.iter().any(|e| {
            e.is_disabled() && (e.is_text_entry() || e.role() == crate::page::Role::Button)
        });
    if !blocked {
        return None;
    }
    let task = format!(" {} ", normalize(cx.task));
    // Each question of the page's text about leaving, and the few words
    // after it (its answers: "Exit to home page? OK Cancel").
    let text = cx.page.visible_text.as_str();
    let mut answers: Vec<String> = Vec::new();
    for (q, _) in text.match_indices('?') {
        let from = text[..q].rfind(['.', '!', '?', '\n']).map_or(0, |k| k + 1);
        let question = format!(" {} ", normalize(&text[from..q]));
        let leaving = LEAVING.iter().any(|w| {
            let w = format!(" {w} ");
            question.contains(&w) && !task.contains(&w)
        });
        if leaving {
            let after: Vec<&str> = text[q + 1..].split_whitespace().take(6).collect();
            answers.push(format!(" {} ", normalize(&after.join(" "))));
        }
    }
    if answers.is_empty() {
        return None;
    }
    cx.page
        .elements
        .iter()
        .find(|e| {
            let label = normalize(e.label());
            !e.is_disabled()
                && !e.is_field()
                && STAY.contains(&label.as_str())
                && answers.iter().any(|a| a.contains(&format!(" {label} ")))
                && !cx.useless_click(0, e)
        })
        .map(|e| Tool::Click { id: cx.id(e) })
}
