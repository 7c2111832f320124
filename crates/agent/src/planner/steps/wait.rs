//! wait: a number of seconds (one look after that long), or until the page
//! shows something (a look every half second, for at most half a minute);
//! also a target that is on the page but disabled is waited for.

use super::{holds, Outcome};
use crate::intent::Condition;
use crate::planner::context::Cx;
use crate::types::Tool;

/// Looks spent waiting for something before giving up (× 500 ms).
const MAX_LOOKS: usize = 60;
const LOOK_MS: u64 = 500;

pub fn step(
    cx: &Cx<'_>,
    seconds: Option<f64>,
    until: Option<&Condition>,
    cursor: usize,
) -> Outcome {
    let waits: Vec<usize> = cx
        .history
        .iter()
        .enumerate()
        .skip(cursor)
        .filter(|(_, h)| h.action == "observe")
        .map(|(i, _)| i)
        .collect();
    if let Some(s) = seconds {
        return match waits.first() {
            Some(i) => Outcome::Done(i + 1),
            None => Outcome::Act(Tool::Observe {
                wait_ms: Some((s * 1000.0).round().clamp(0.0, 120_000.0) as u64),
            }),
        };
    }
    let Some(c) = until else {
        return Outcome::Done(cursor);
    };
    // "Wait for the code": its words show, and the page changed since the
    // wait began (they may have been there before: "a code will appear").
    let met = match c {
        Condition::Appears(words) => {
            let began = waits
                .first()
                .and_then(|&i| cx.history[i].page_before.as_deref());
            let changed = began.is_some_and(|b| b != cx.page.signature());
            changed && (words.is_empty() || cx.layout.shows(words))
        }
        other => holds(cx, other),
    };
    if met {
        return Outcome::Done(cx.after_last(cursor, &["observe"]));
    }
    if waits.len() >= MAX_LOOKS {
        return Outcome::Stuck(format!(
            "waited {} s and the page does not show it",
            MAX_LOOKS as u64 * LOOK_MS / 1000
        ));
    }
    Outcome::Act(Tool::Observe {
        wait_ms: Some(LOOK_MS),
    })
}

/// The target is there but disabled: wait for it (as a person would).
pub fn until_enabled(cx: &Cx<'_>, what: &str, cursor: usize) -> Outcome {
    let looks = cx.count_since(cursor, "observe");
    if looks >= MAX_LOOKS {
        return Outcome::Stuck(format!("\"{what}\" stays disabled"));
    }
    Outcome::Act(Tool::Observe {
        wait_ms: Some(LOOK_MS),
    })
}
