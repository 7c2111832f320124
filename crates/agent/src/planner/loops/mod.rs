//! Tasks carried out as a loop over the page's answers rather than as a
//! list of steps (docs/agent.md "Carrying the steps out"): a guess
//! narrowed by the page's "too high / too low" (`guess.rs`), a command
//! typed into a console and its output read (`command.rs`). Each rule
//! looks at the task's kind of request and the page's structure, never at
//! a page's own labels; it answers `None` when the task or the page is not
//! of its kind, and the step planner decides as usual.

mod command;
mod guess;

use super::context::Cx;
use crate::policy::Decision;
use sentience_snapshot_core::Observed;

/// The decision of the first loop this task and page are shaped for.
pub fn decide(cx: &Cx<'_>) -> Option<Decision> {
    guess::decide(cx).or_else(|| command::decide(cx))
}

/// The task's words, lower case, punctuation as spaces.
fn task_words(task: &str) -> Vec<String> {
    super::layout::normalize(task)
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// A box one types a line of text into (not a password, not read-only).
fn text_box(e: &Observed) -> bool {
    let f = &e.facts;
    let typed = match f.tag.as_str() {
        "input" => matches!(
            f.input_type.as_str(),
            "" | "text" | "number" | "search" | "tel"
        ),
        _ => false,
    };
    typed && !f.read_only && !e.is_disabled()
}
