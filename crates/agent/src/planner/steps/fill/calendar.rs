//! A date field one cannot type into is set with its calendar: opened by a
//! click on the field, turned to the month with its previous / next
//! controls (the month shown is read from the page's words, "March
//! 2025"), then the day clicked. Done once the field shows the date.

use super::super::{click, Outcome};
use crate::planner::context::Cx;
use crate::planner::layout::reading_order;
use crate::planner::values::{date, MONTHS};
use crate::text::normalize;
use crate::types::Tool;
use sentience_snapshot_core::Observed;

/// The month and year the calendar shows: the first "<month> <year>" of the page's words.
fn shown_month(cx: &Cx<'_>) -> Option<(u32, u32)> {
    let text = normalize(&cx.page.visible_text);
    let words: Vec<&str> = text.split(' ').collect();
    words.windows(2).find_map(|w| {
        let m = MONTHS.iter().position(|m| {
            *m == w[0] || (w[0].len() >= 3 && m.starts_with(w[0]) && w[0].len() == 3)
        })?;
        let y: u32 = w[1].parse().ok().filter(|y| (1900..2200).contains(y))?;
        Some((y, m as u32 + 1))
    })
}

fn says(e: &Observed, words: &[&str]) -> bool {
    let l = normalize(&format!("{} {}", e.label(), e.facts.aria_label));
    let raw = e.label().trim();
    words.iter().any(|w| l.split(' ').any(|x| x == *w))
        || ["‹", "<", "«", "←", "◀"].contains(&raw) && words.contains(&"prev")
        || ["›", ">", "»", "→", "▶"].contains(&raw) && words.contains(&"next")
}

pub fn choose(cx: &Cx<'_>, field: &Observed, value: &str, cursor: usize) -> Outcome {
    let Some((y, m, d)) = date(value) else {
        return Outcome::Stuck(format!("\"{value}\" is not a date"));
    };
    if date(field.value()) == Some((y, m, d)) {
        return Outcome::Done(cx.after_last(cursor, &["click"]));
    }
    let day = d.to_string();
    // A day named by its whole date ("December 18, 2026", the accessible
    // name many date pickers give their cells) is the one to click,
    // whatever month the heading says.
    let cell_date = |e: &Observed| {
        [e.label(), e.facts.aria_label.as_str()]
            .into_iter()
            .find_map(|l| date(l.trim()))
    };
    let exact = cx
        .page
        .elements
        .iter()
        .filter(|e| !e.is_field() && !e.is_disabled() && cell_date(e) == Some((y, m, d)))
        .min_by(|a, b| reading_order(a, b));
    if let Some(e) = exact {
        if cx.clicked_since(cursor, e).is_none() {
            return click(cx, e);
        }
        return Outcome::Done(cx.after_last(cursor, &["click"]));
    }
    let days: Vec<&Observed> = cx
        .page
        .elements
        .iter()
        .filter(|e| {
            !e.is_field()
                && !e.is_disabled()
                && (e.label().trim() == day || cell_date(e).is_some_and(|(_, _, cd)| cd == d))
        })
        .collect();
    let Some((sy, sm)) = shown_month(cx).filter(|_| !days.is_empty()) else {
        // No calendar open: open it (once; then the page must show one).
        if cx.clicked_since(cursor, field).is_none() {
            return click(cx, field);
        }
        return Outcome::Stuck(format!(
            "the calendar of the date field did not open for {value}"
        ));
    };
    let (have, want) = (sy * 12 + sm, y * 12 + m);
    if have != want {
        let words: &[&str] = if have < want {
            &["next", "forward"]
        } else {
            &["prev", "previous", "back", "earlier"]
        };
        let turn = cx
            .page
            .elements
            .iter()
            .filter(|e| !e.is_field() && !e.is_disabled() && says(e, words))
            .min_by(|a, b| reading_order(a, b));
        return match turn {
            Some(t) => Outcome::Act(Tool::Click { id: cx.id(t) }),
            // No control to click: the keys date pickers take (Page Up /
            // Page Down turn the month), in the field.
            None => Outcome::Act(Tool::Press {
                key: if have < want { "PageDown" } else { "PageUp" }.into(),
                id: Some(cx.id(field)),
                repeat: None,
            }),
        };
    }
    // The day: the first such number (days of the next month come after).
    let mut days = days;
    days.sort_by(|a, b| reading_order(a, b));
    match days.first() {
        Some(e)
            if cx.clicked_since(cursor, e).is_none()
                || cx.history.last().is_some_and(|h| h.action != "click") =>
        {
            click(cx, e)
        }
        _ => Outcome::Done(cx.after_last(cursor, &["click"])),
    }
}
