//! scroll (the page, or within an element: "to the bottom of the textarea").
//! Done after one scroll since the step began.

use super::Outcome;
use crate::intent::Target;
use crate::planner::context::Cx;
use crate::planner::find::{best, resolve};
use crate::types::{Direction, Tool};

pub fn step(cx: &Cx<'_>, up: bool, target: &Target, to_end: bool, cursor: usize) -> Outcome {
    if let Some(i) = cx
        .history
        .iter()
        .skip(cursor)
        .position(|h| h.action == "scroll")
    {
        return Outcome::Done(cursor + i + 1);
    }
    let direction = if up { Direction::Up } else { Direction::Down };
    let amount = if to_end { 100_000 } else { 600 };
    let id = (!target.is_empty())
        .then(|| best(&resolve(cx, target, &|_| true), 0.3))
        .flatten()
        .map(|e| cx.id(e));
    Outcome::Act(Tool::Scroll {
        direction,
        amount,
        within: id.is_some(),
        id,
    })
}
