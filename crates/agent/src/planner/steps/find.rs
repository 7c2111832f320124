//! find / read / tell me: mid-task, the looking the next step does anyway;
//! as the task's end, the answer read off the page (a quoted text shown,
//! the value of "the phone number of Bob", lines about the words asked).

use super::{reveal, Outcome};
use crate::intent::{Step, Target};
use crate::planner::context::Cx;
use crate::planner::find::{plain_clickable, resolve, FLOOR};
use crate::planner::goal::find_info;
use crate::planner::lookup;
use crate::task::TaskPlan;
use crate::text::truncate;

pub fn step(
    cx: &Cx<'_>,
    target: &Target,
    about: Option<&str>,
    following: Option<&Step>,
    cursor: usize,
) -> Outcome {
    if following.is_some() {
        // "Find the email by Celestyn and reply": the thing found is opened
        // (clicked once), when it is something to open.
        if target.relation.is_some() {
            // Once opened, the thing found is gone from the page (a message
            // opened in place of the list): looking again would open
            // whatever else stands near its words, such as its Reply.
            if let Some(i) = opened_and_gone(cx, cursor) {
                return Outcome::Done(i + 1);
            }
            let hits = resolve(cx, target, &plain_clickable);
            if let Some(h) = hits.first().filter(|h| h.score >= FLOOR) {
                return match cx.clicked_since(cursor, h.e) {
                    Some(i) => Outcome::Done(i + 1),
                    None => super::click(cx, h.e),
                };
            }
        }
        return Outcome::Done(cursor);
    }
    if let Some(t) = &target.text {
        if cx.layout.shows(t) {
            return Outcome::Answer(format!("Found \"{t}\" on {}", cx.page.url));
        }
        return reveal(cx, target, cursor);
    }
    if let Some(a) = about {
        // "the phone number of Bob": a lookup.
        let lower = a.to_lowercase();
        if let Some(k) = lower.find(" of ") {
            let what = a[..k].trim_start_matches("the ").trim();
            let key = a[k + 4..].trim();
            if let Some(v) = lookup::written(cx.page, what, key, cx.task) {
                return Outcome::Answer(format!("The {what} of {key} is {v}"));
            }
        }
        // "What is the order total?": the value after the label it names.
        if let Some((label, value)) = super::read::answer(&cx.page.visible_text, a) {
            return Outcome::Answer(format!("{label}: {value}"));
        }
        if let Some(lines) = find_info(cx, &TaskPlan::parse(cx.task)) {
            return Outcome::Answer(truncate(&lines, 400));
        }
        return super::reveal::look(cx, a, cursor);
    }
    Outcome::Done(cursor)
}

/// The first click since `cursor` that changed the page on an element no
/// longer on it.
fn opened_and_gone(cx: &Cx<'_>, cursor: usize) -> Option<usize> {
    cx.history
        .iter()
        .enumerate()
        .skip(cursor)
        .find(|(_, h)| {
            h.action == "click"
                && crate::planner::context::ok(h)
                && !h.no_page_change()
                && h.element_id().is_some_and(|id| cx.page.find(&id).is_none())
        })
        .map(|(i, _)| i)
}
