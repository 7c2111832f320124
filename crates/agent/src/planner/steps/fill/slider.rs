//! A value set on a slider (WAI-ARIA APG "Slider"): its arrow key pressed
//! once per step between the value it shows and the one asked, as a person
//! holds the key down; a range input (HTML §4.10.5.1.14) takes the value
//! whole, as its picker would. The slider is
//! the one the task names ("with the slider", a label), the sliders of a
//! list in the page's order ("Set the sliders to [8,4,5]").

use super::Place;
use crate::intent::{Role, Target};
use crate::planner::context::{ok, Cx};
use crate::planner::slider::{sliders, value_of};
use crate::planner::steps::Outcome;
use crate::text::normalize;
use crate::types::{Tool, MAX_REPEAT};
use sentience_snapshot_core::Observed;

/// Presses on one slider before the planner stops trying: a slider whose
/// step is not 1 may need a second, shorter press; one that does not move
/// at all is not pressed for ever.
const MAX_PRESSES: usize = 4;

/// `None` when the value is not a number or no slider is meant.
pub(super) fn place<'p>(
    cx: &Cx<'p>,
    text: &str,
    label: &str,
    field: &Target,
    taken: &[&'p Observed],
) -> Option<Place<'p>> {
    let want: f64 = text.trim().replace('\u{2212}', "-").parse().ok()?;
    let all = sliders(cx.page);
    let free = |e: &&&Observed| !taken.iter().any(|t| std::ptr::eq(*t, **e));
    let named = normalize(label);
    let by_kind = field.role == Some(Role::Slider)
        || named.split(' ').any(|w| w == "slider" || w == "sliders");
    let e: &Observed = if by_kind {
        all.iter().find(free).copied()?
    } else if named.is_empty() {
        return None;
    } else {
        all.iter()
            .filter(free)
            .find(|e| normalize(e.label()) == named)
            .copied()?
    };
    // A range input takes its value whole, as its picker sets it (the
    // extension and the tool server set an `<input type=range>` by value).
    if e.facts.tag == "input" && e.facts.input_type == "range" {
        if cx.holds(e, text.trim()) {
            return Some(Place::Done(Some(e)));
        }
        return Some(Place::Act(Outcome::Act(Tool::Type {
            id: cx.id(e),
            text: text.trim().to_string(),
        })));
    }
    let Some(now) = value_of(cx.page, cx.task, e) else {
        return Some(Place::Act(Outcome::Stuck(format!(
            "the slider shows no value to set to {text}"
        ))));
    };
    let delta = want - now;
    if delta.abs() < 1e-9 {
        return Some(Place::Done(Some(e)));
    }
    let presses = cx
        .history
        .iter()
        .filter(|h| h.action == "press" && ok(h) && cx.on(h, e))
        .count();
    if presses >= MAX_PRESSES {
        return Some(Place::Act(Outcome::Stuck(format!(
            "the slider stays at {now}, not {text}"
        ))));
    }
    let steps = (delta.abs().round() as u32).clamp(1, MAX_REPEAT);
    Some(Place::Act(Outcome::Act(Tool::Press {
        key: if delta > 0.0 {
            "ArrowRight"
        } else {
            "ArrowLeft"
        }
        .into(),
        id: Some(cx.id(e)),
        repeat: (steps > 1).then_some(steps),
    })))
}
