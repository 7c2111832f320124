//! Scrollable containers (issue 23 "Page understanding": scrollable
//! containers): a licence box, a chat log, a list that scrolls inside the
//! page. What the task needs may be in one, out of sight until the box
//! itself is scrolled (not the page), and some boxes enable their "I
//! accept" only once read to the end.
//!
//! A region is an element of the snapshot that is no control and no text
//! entry, as tall as a box (not a line) and smaller than the viewport: the
//! snapshot lists such a container because it can take the focus, as a
//! scrollable region must for keyboard users (WCAG 2.1.1; Chromium makes
//! scrollers focusable by default). Scrolling within an element that does
//! not scroll changes nothing (the extension scrolls it into view), so a
//! region tried without effect is left alone.

use crate::page::Role;
use crate::planner::context::Cx;
use crate::types::{Direction, Tool};
use sentience_snapshot_core::Observed;

/// Scrolls within one region while looking for a target, at most.
const MAX_SCROLLS: usize = 12;
/// One scroll to a region's end: more than any box holds (the extension
/// stops at the end).
const TO_END: u32 = 100_000;

/// Could `e` be a box that scrolls inside the page?
pub fn is_region(cx: &Cx<'_>, e: &Observed) -> bool {
    let b = e.element.bbox;
    let control = e.is_field()
        || e.is_checkable()
        || e.is_text_entry()
        || matches!(e.role(), Role::Button | Role::Link | Role::Image)
        || matches!(
            e.facts.tag.as_str(),
            "a" | "button" | "input" | "select" | "label" | "img"
        );
    let fits = cx.page.viewport_height.is_none_or(|h| b.height < h * 0.8);
    !control && b.height >= 60.0 && b.width >= 100.0 && fits
}

fn within(h: &crate::types::HistoryEntry) -> bool {
    h.parameters
        .as_ref()
        .and_then(|p| p.get("within"))
        .and_then(serde_json::Value::as_bool)
        == Some(true)
}

/// Scrolls made within `r` in this task, and whether the last one changed the page.
fn scrolled(cx: &Cx<'_>, r: &Observed) -> (usize, bool) {
    let mine: Vec<_> = cx
        .history
        .iter()
        .filter(|h| h.action == "scroll" && cx.on(h, r) && within(h))
        .collect();
    let moved = mine.last().is_none_or(|h| !h.no_page_change());
    (mine.len(), moved)
}

/// A target not on the page: the next screen of the first region that
/// may still hold more (top to bottom).
pub fn look_within(cx: &Cx<'_>) -> Option<Tool> {
    let mut regions: Vec<&Observed> = cx
        .page
        .elements
        .iter()
        .filter(|e| is_region(cx, e))
        .collect();
    regions.sort_by(|a, b| crate::planner::layout::reading_order(a, b));
    regions
        .into_iter()
        .find_map(|r| {
            let (n, moved) = scrolled(cx, r);
            (n < MAX_SCROLLS && moved).then(|| Tool::Scroll {
                direction: Direction::Down,
                amount: ((r.element.bbox.height * 0.8) as u32).max(60),
                id: Some(cx.id(r)),
                within: true,
            })
        })
        .or_else(|| rows_box(cx))
}

/// Rows scrolled through by one of their controls, at most (a list of a
/// few hundred rows of ~40 px).
const MAX_ROW_SCROLLS: usize = 20;
/// How far one scroll of a list of rows goes: less than the box of any
/// list worth scrolling shows, so that no row is skipped even when the
/// list renders only the rows in view.
const ROWS_STEP: u32 = 240;

/// A list whose rows scroll in a box of their own that the snapshot does
/// not list: a box that holds controls is no focusable scroller
/// (Chromium makes a scroller focusable only when nothing in it is), as in
/// a virtualised grid (react-window, TanStack Virtual, AG Grid: only the
/// rows in view exist, recycled as the box scrolls). Known by a row whose
/// control is out of view although the window shows its place: the box's
/// clip hides it (virtual lists render a row or more beyond the box's
/// edge). Scrolled through the last row control in reading order (the
/// extension scrolls the nearest box around it that scrolls, as a wheel
/// over the row does). Only rows of a list (the control's row words known,
/// at least three rows), up to [`MAX_ROW_SCROLLS`], and not after a scroll
/// that changed nothing (the list's end).
fn rows_box(cx: &Cx<'_>) -> Option<Tool> {
    let rows: Vec<&Observed> = cx
        .page
        .elements
        .iter()
        .filter(|e| !e.facts.row.is_empty() && !e.is_disabled())
        .collect();
    let distinct: std::collections::HashSet<&str> =
        rows.iter().map(|e| e.facts.row.as_str()).collect();
    let h = cx.page.viewport_height?;
    let clipped = rows.iter().any(|e| {
        let b = e.element.bbox;
        !e.element.in_viewport && b.height > 0.0 && b.y >= 0.0 && b.y + b.height <= h
    });
    if distinct.len() < 3 || !clipped {
        return None;
    }
    let last = rows
        .into_iter()
        .max_by(|a, b| crate::planner::layout::reading_order(a, b))?;
    let mine: Vec<_> = cx
        .history
        .iter()
        .filter(|h| h.action == "scroll" && within(h))
        .filter(|h| {
            !cx.page
                .elements
                .iter()
                .any(|r| is_region(cx, r) && cx.on(h, r))
        })
        .collect();
    if mine.len() >= MAX_ROW_SCROLLS || mine.last().is_some_and(|h| h.no_page_change()) {
        return None;
    }
    Some(Tool::Scroll {
        direction: Direction::Down,
        amount: ROWS_STEP,
        id: Some(cx.id(last)),
        within: true,
    })
}

/// A disabled target in (or just under) a region not yet read to its end:
/// the region scrolled to its end, once (boxes that enable "I accept" when
/// read to the end).
pub fn unlock(cx: &Cx<'_>, target: &Observed) -> Option<Tool> {
    let t = target.element.bbox;
    let holder = cx
        .page
        .elements
        .iter()
        .filter(|r| is_region(cx, r))
        .filter(|r| {
            let b = r.element.bbox;
            t.x >= b.x - 1.0 && t.x <= b.x + b.width && t.y >= b.y
        })
        .max_by(|a, b| a.element.bbox.y.total_cmp(&b.element.bbox.y))?;
    let ended = cx.history.iter().any(|h| {
        h.action == "scroll"
            && cx.on(h, holder)
            && within(h)
            && h.parameters
                .as_ref()
                .and_then(|p| p.get("amount"))
                .and_then(|a| a.as_u64())
                .is_some_and(|a| a >= TO_END as u64)
    });
    (!ended).then(|| Tool::Scroll {
        direction: Direction::Down,
        amount: TO_END,
        id: Some(cx.id(holder)),
        within: true,
    })
}
