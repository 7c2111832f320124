//! Recovery from an action that changes nothing (docs/agent.md
//! "Recovery"; issue 23's "an action that did not move the task forward
//! is not repeated"): the same click, key or typing done twice on this
//! page with the page's signature unchanged each time is not done a third
//! time. A click gives way to the next best element (the same decision
//! with that element avoided); with none, or for a key or typing, the
//! planner asks, saying what it tried. Scrolls and waits are looks, not
//! actions: a page's signature does not show where it is scrolled to.

use super::context::{ok, Cx};
use super::goal::same_url;
use crate::text::truncate;
use crate::types::Tool;

/// How often a repeat that changed nothing is allowed.
const UNCHANGED_AT_MOST: usize = 2;

/// `t` was done at least twice on this page and the page stayed the same
/// after each time.
pub fn unchanged(cx: &Cx<'_>, t: &Tool) -> bool {
    let name = t.name();
    let name = name.as_str();
    if !matches!(name, "click" | "press" | "type") {
        return false;
    }
    let params = t.parameters();
    cx.history
        .iter()
        .filter(|h| {
            ok(h)
                && h.action == name
                && h.no_page_change()
                && h.parameters.as_ref() == Some(&params)
                && h.url.as_deref().is_some_and(|u| same_url(u, &cx.page.url))
        })
        .count()
        >= UNCHANGED_AT_MOST
}

/// What was repeated, for the question to the user.
pub fn why(cx: &Cx<'_>, t: &Tool) -> String {
    let what = match t {
        Tool::Click { id } => {
            let label = cx.page.find_id(id).map(|e| e.label()).unwrap_or_default();
            format!("clicking \"{}\"", truncate(label, 40))
        }
        Tool::Press { key, .. } => format!("pressing {key}"),
        Tool::Type { text, .. } => format!("typing \"{}\"", truncate(text, 40)),
        other => other.name().as_str().to_string(),
    };
    format!("{what} {UNCHANGED_AT_MOST} times changed nothing on the page, and nothing else here serves the task")
}
