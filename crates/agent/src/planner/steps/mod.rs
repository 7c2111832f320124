//! Carrying out the steps of a task (docs/agent.md "The planner"): each
//! decision walks the steps in order against the page and the history;
//! a step visibly done moves a cursor in the history past what did it, and
//! the first step not done decides the action (or a prerequisite for it:
//! open what hides its target, scroll it into view, wait while the page
//! changes). One module per kind of step.

mod choose;
mod click;
pub mod consent;
mod fill;
mod find;
mod hidden_form;
mod open;
mod path;
mod read;
mod region;
mod reveal;
mod scroll;
mod search_roles;
mod submit;
mod wait;
mod watch;
pub(crate) mod wizard;

use super::context::Cx;
use crate::intent::{Condition, Step, Touch};
use crate::types::{Direction, Tool};
use sentience_snapshot_core::Observed;
use std::cell::Cell;

pub use choose::is_checked;
pub use fill::{complete_value, is_listbox_trigger, is_own_button};
#[cfg(test)]
pub(crate) use reveal::enumerated_sibling;
pub use reveal::{reveal, row_holds};

/// What a step says about the page.
pub enum Outcome {
    /// Visibly done; later steps look at the history from this index.
    Done(usize),
    /// This action next.
    Act(Tool),
    /// The task's answer, read off the page.
    Answer(String),
    /// Nothing here serves it; the reason, for the user.
    Stuck(String),
}

/// Walks `steps` from `cursor`; `Ok(cursor)` when all are done.
pub fn run(cx: &Cx<'_>, steps: &[Step], mut cursor: usize, last: bool) -> Result<usize, Outcome> {
    for (k, step) in steps.iter().enumerate() {
        let following = Following {
            step: steps.get(k + 1),
            read: None,
        };
        let is_last = last && k + 1 == steps.len();
        match one(cx, step, following, cursor, is_last) {
            Outcome::Done(c) => cursor = cursor.max(c),
            other => return Err(other),
        }
    }
    Ok(cursor)
}

/// The step after the one walked, as `one` gives it: reading it (`get`)
/// is noted, so that a walk knows which outcome depended on it.
#[derive(Clone, Copy, Default)]
pub struct Following<'s> {
    step: Option<&'s Step>,
    read: Option<&'s Cell<bool>>,
}

impl<'s> Following<'s> {
    pub fn get(self) -> Option<&'s Step> {
        if let Some(r) = self.read {
            r.set(true);
        }
        self.step
    }
}

/// What the walk of all the task's steps leaves for a second question,
/// "is every step but the last done, walked without it?"
/// (`all_but_last_done`), answered without walking them again.
pub struct Walked {
    /// The step the walk stopped at (the number of steps when all are done).
    at: usize,
    /// The cursor the step before the last started from, and whether its
    /// outcome read the last step.
    penult: Option<(usize, bool)>,
}

/// `run(cx, steps, 0, true)`, and what `Walked::all_but_last_done` needs.
pub fn walk(cx: &Cx<'_>, steps: &[Step]) -> (Result<usize, Outcome>, Walked) {
    let n = steps.len();
    let mut cursor = 0;
    let mut penult = None;
    for (k, step) in steps.iter().enumerate() {
        let read = Cell::new(false);
        let following = Following {
            step: steps.get(k + 1),
            read: Some(&read),
        };
        let outcome = one(cx, step, following, cursor, k + 1 == n);
        if k + 2 == n {
            penult = Some((cursor, read.get()));
        }
        match outcome {
            Outcome::Done(c) => cursor = cursor.max(c),
            other => return (Err(other), Walked { at: k, penult }),
        }
    }
    (Ok(cursor), Walked { at: n, penult })
}

impl Walked {
    /// The step the walk stopped at (tests).
    #[cfg(test)]
    pub fn at(&self) -> usize {
        self.at
    }

    /// `run(cx, &steps[..steps.len() - 1], 0, false).is_ok()` for the
    /// `steps` walked: every step before the last is done. Walked without
    /// the last step, each of them is asked what the whole walk asked it
    /// (the same cursor, the same step after it, not the last), except the
    /// one before the last, which then sees no step after it: the whole
    /// walk's answer stands unless that step's outcome read the last step,
    /// and then only it is asked again.
    pub fn all_but_last_done(&self, cx: &Cx<'_>, steps: &[Step]) -> bool {
        let n = steps.len();
        if n <= 1 {
            return true;
        }
        // Stopped earlier: the walk without the last step stops there too.
        if self.at < n - 2 {
            return false;
        }
        match self.penult {
            Some((cursor, true)) => matches!(
                one(cx, &steps[n - 2], Following::default(), cursor, false),
                Outcome::Done(_)
            ),
            Some((_, false)) => self.at > n - 2,
            None => false,
        }
    }
}

fn one(cx: &Cx<'_>, step: &Step, following: Following<'_>, cursor: usize, last: bool) -> Outcome {
    match step {
        Step::Click { target, touch } => {
            click::step(cx, target, *touch, cursor, last, following.get())
        }
        Step::Fill { values, field } => fill::step(cx, values, field, cursor, following),
        Step::Choose {
            on,
            choice,
            target,
            within,
            said,
        } => match said {
            // "stop sync" on a page with a "Stop sync" button and no
            // "sync" switch: the words as said name the control.
            Some(control) if choose::said_instead(cx, choice.as_ref(), target, control) => {
                click::step(cx, control, Touch::Click, cursor, last, following.get())
            }
            _ => choose::step(cx, *on, choice.as_ref(), target, within.as_deref(), cursor),
        },
        Step::Open { target, explore } => {
            open::step(cx, target, *explore, following.get(), cursor, last)
        }
        Step::Submit { phrase, button } => submit::step(cx, phrase, button.as_deref(), cursor),
        Step::Search { term } => submit::search(cx, term.as_ref(), cursor),
        Step::Find { target, about } => {
            find::step(cx, target, about.as_deref(), following.get(), cursor)
        }
        Step::Navigate { url } => {
            let went =
                cx.history.iter().skip(cursor).position(|h| {
                    h.action == "navigate" && h.param_str("url") == Some(url.as_str())
                });
            let failed = went.is_some_and(|i| cx.history[cursor + i].success == Some(false));
            if super::goal::same_url(&cx.page.url, url) {
                Outcome::Done(went.map(|i| cursor + i + 1).unwrap_or(cursor))
            } else if failed {
                Outcome::Stuck(format!("{url} did not open"))
            } else if let Some(i) = went {
                // Opened (or redirected): later steps go on from there.
                Outcome::Done(cursor + i + 1)
            } else {
                Outcome::Act(Tool::Navigate { url: url.clone() })
            }
        }
        Step::Scroll { up, target, to_end } => scroll::step(cx, *up, target, *to_end, cursor),
        Step::Press { key } => {
            if let Some(i) = cx
                .history
                .iter()
                .skip(cursor)
                .position(|h| h.action == "press")
            {
                return Outcome::Done(cursor + i + 1);
            }
            let id = cx.typed_here().last().map(|e| cx.id(e));
            Outcome::Act(Tool::Press {
                key: key.clone(),
                id,
                repeat: None,
            })
        }
        Step::Wait { seconds, until } => wait::step(cx, *seconds, until.as_ref(), cursor),
        Step::Path { items } => path::step(cx, items, cursor),
        Step::Branch {
            condition,
            then,
            otherwise,
        } => {
            let take = holds(cx, condition);
            match run(cx, if take { then } else { otherwise }, cursor, last) {
                Ok(c) => Outcome::Done(c),
                Err(o) => o,
            }
        }
    }
}

/// Does the page show what the condition says?
pub fn holds(cx: &Cx<'_>, c: &Condition) -> bool {
    match c {
        Condition::Shows(t) | Condition::Appears(t) => cx.layout.shows(t),
        Condition::Compare {
            subject,
            less,
            or_equal,
            value,
        } => match watch::value(cx, subject) {
            Some(n) if *less => n < *value || *or_equal && n == *value,
            Some(n) => n > *value || *or_equal && n == *value,
            None => false,
        },
    }
}

/// Click `e`, or first bring it into view when it is off screen.
pub fn click(cx: &Cx<'_>, e: &Observed) -> Outcome {
    if let Some(t) = into_view(cx, e) {
        return Outcome::Act(t);
    }
    Outcome::Act(Tool::Click { id: cx.id(e) })
}

/// A scroll that brings `e` into view, unless the last action did already.
pub fn into_view(cx: &Cx<'_>, e: &Observed) -> Option<Tool> {
    let scrolled_to = cx
        .history
        .last()
        .is_some_and(|h| h.action == "scroll" && cx.on(h, e));
    if !off_screen(cx, e) || scrolled_to {
        return None;
    }
    let b = e.element.bbox;
    Some(Tool::Scroll {
        direction: if b.y < 0.0 {
            Direction::Up
        } else {
            Direction::Down
        },
        amount: (b.y.abs().round() as u32).max(200),
        id: Some(cx.id(e)),
        within: false,
    })
}

/// Likely off-screen: flagged by docs/contracts/snapshot.md §6.7, or
/// outside the viewport's height.
pub fn off_screen(cx: &Cx<'_>, e: &Observed) -> bool {
    if !e.element.in_viewport {
        return true;
    }
    match (e.has_box(), cx.page.viewport_height) {
        (true, Some(h)) => {
            let b = e.element.bbox;
            b.y > h || b.y + b.height < 0.0
        }
        _ => false,
    }
}

/// The page says something is still arriving: an element whose words start
/// with "loading", "searching" or "fetching" (a suggestion list's
/// placeholder row while the server answers), or the page's text says it
/// as such a word and an ellipsis in one short phrase ("Searching…",
/// "Loading your accounts…": the status line a client-rendered page shows,
/// often only to screen readers, while its skeleton stands in for the
/// content).
pub fn loading_shown(cx: &Cx<'_>) -> bool {
    const BUSY: [&str; 3] = ["loading", "searching", "fetching"];
    let says = |l: &str| {
        let l = crate::text::normalize(l);
        BUSY.iter().any(|w| {
            l.strip_prefix(w)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
        })
    };
    // The row is often no control (a plain item): the page's text says it.
    // The busy word starts a word, and an ellipsis ends the phrase within a
    // few words, with no sentence's end between ("Loading your accounts…",
    // not "Loading docks open at 6. More…").
    let text = cx.page.visible_text.to_lowercase();
    let phrase = |w: &str| {
        text.match_indices(w).any(|(i, _)| {
            let word_start = text[..i]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric());
            let rest = &text[i + w.len()..];
            let end = rest
                .char_indices()
                .take(40)
                .find(|(_, c)| matches!(c, '…' | '.' | '!' | '?' | '\n' | ':'))
                .map(|(j, _)| j);
            word_start
                && end.is_some_and(|j| rest[j..].starts_with('…') || rest[j..].starts_with("..."))
        })
    };
    cx.page.elements.iter().any(|e| says(e.label())) || BUSY.iter().any(|w| phrase(w))
}

/// The page is still changing: the last action changed it, and it was
/// followed by no look yet (a wait would show its result).
pub fn settling(cx: &Cx<'_>) -> bool {
    cx.history
        .last()
        .is_some_and(|h| h.action == "click" && !h.no_page_change())
}
