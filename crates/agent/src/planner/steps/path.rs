//! A path through menus ("File → Download → PDF", "Margy>Rosy>Wynne"): each
//! item clicked in turn (a click also hovers, which opens hover menus);
//! when an item is not shown, the one before it is opened again (menus
//! close when the pointer leaves them). Done once the last item is clicked.

use super::{click, reveal, Outcome};
use crate::intent::Target;
use crate::planner::context::Cx;
use crate::planner::find::{text_fit, FLOOR};
use crate::planner::layout::reading_order;
use sentience_snapshot_core::Observed;

fn find<'p>(cx: &Cx<'p>, item: &str) -> Option<&'p Observed> {
    cx.page
        .elements
        .iter()
        .filter(|e| !e.is_disabled() && !e.is_field() && !cx.avoided(e))
        .map(|e| (text_fit(e, item), e))
        .filter(|(s, _)| *s >= FLOOR)
        .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| reading_order(b.1, a.1)))
        .map(|(_, e)| e)
}

pub fn step(cx: &Cx<'_>, items: &[String], cursor: usize) -> Outcome {
    // How far along the path the history is: item k clicked after item k-1.
    let mut at = cursor;
    let mut done = 0;
    for item in items {
        let hit = cx.history.iter().enumerate().skip(at).find(|(_, h)| {
            h.action == "click"
                && h.element_text.as_deref().is_some_and(|t| {
                    crate::planner::find::words_fit(
                        &crate::text::normalize(t),
                        &crate::text::normalize(item),
                    ) >= 0.8
                })
        });
        match hit {
            Some((i, _)) => {
                at = i + 1;
                done += 1;
            }
            None => break,
        }
    }
    if done == items.len() {
        return Outcome::Done(at);
    }
    let next = &items[done];
    if let Some(e) = find(cx, next) {
        return click(cx, e);
    }
    // The menu closed: open the item before again (once per visit).
    if done > 0 {
        if let Some(prev) = find(cx, &items[done - 1]) {
            let reopened = cx
                .history
                .last()
                .is_some_and(|h| h.action == "click" && cx.on(h, prev));
            if !reopened {
                return click(cx, prev);
            }
        }
    }
    reveal(
        cx,
        &Target {
            text: Some(next.clone()),
            ..Target::default()
        },
        cursor,
    )
}
