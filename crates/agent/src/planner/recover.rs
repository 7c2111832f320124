//! Recovery: a click that led to a page where the task cannot go on is
//! undone (back to the page it was made on; the link is then avoided, see
//! `Cx::avoided`), and when nothing is left to try, the question to the
//! user says what was tried.

use super::context::Cx;
use super::goal::same_url;
use crate::text::truncate;
use crate::types::Tool;

/// Back to the page before the click that brought us here, once.
pub fn back(cx: &Cx<'_>) -> Option<Tool> {
    let here = &cx.page.url;
    // The last click made on another page that changed the URL to this one.
    let (i, from) = cx.history.iter().enumerate().rev().find_map(|(i, h)| {
        let from = h.url.as_deref()?;
        (h.action == "click" && !same_url(from, here)).then_some((i, from))
    })?;
    let arrived = cx.history[i + 1..]
        .iter()
        .all(|h| h.url.as_deref().is_none_or(|u| same_url(u, here)));
    let went_back = cx
        .history
        .iter()
        .any(|h| h.action == "navigate" && h.param_str("url") == Some(from));
    (arrived && !went_back).then(|| Tool::Navigate {
        url: from.to_string(),
    })
}

/// The question when the planner has run out of options: what is missing
/// and what was tried.
pub fn question(cx: &Cx<'_>, why: &str) -> String {
    let tried: Vec<String> = cx
        .history
        .iter()
        .filter(|h| {
            matches!(
                h.action.as_str(),
                "click" | "type" | "press" | "navigate" | "scroll"
            )
        })
        .map(|h| match (h.action.as_str(), &h.element_text) {
            ("type", Some(t)) => format!("typed into \"{}\"", truncate(t, 30)),
            ("click", Some(t)) => format!(
                "clicked \"{}\"{}",
                truncate(t, 30),
                if h.no_page_change() {
                    " (nothing changed)"
                } else {
                    ""
                }
            ),
            ("navigate", _) => format!("went to {}", h.param_str("url").unwrap_or("")),
            ("scroll", _) => "scrolled".into(),
            (a, _) => a.to_string(),
        })
        .collect();
    let mut compact: Vec<String> = Vec::new();
    for t in tried {
        if compact.last() != Some(&t) {
            compact.push(t);
        }
    }
    let tried = if compact.is_empty() {
        "nothing yet".to_string()
    } else {
        truncate(&compact.join(", "), 400)
    };
    format!(
        "I am stuck on {}: {why}. Tried: {tried}. How should I continue with \"{}\"?",
        cx.page.url,
        truncate(cx.task, 200)
    )
}
