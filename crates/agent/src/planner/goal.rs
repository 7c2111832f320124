//! "Is the task's goal visibly met?" — for tasks the steps do not cover
//! (no verb the planner knows): success text that was not on the first
//! page, the named URL reached, or the asked-for information on screen.

use super::context::Cx;
use crate::page::Page;
use crate::task::{Goal, TaskPlan};
use crate::text::{concepts, contains_words, normalize, success_markers, truncate};

const INTERACTIONS: &[&str] = &["click", "type", "press", "navigate"];

/// The first line of page text that contains a phrase.
fn line_with(page: &Page, phrase: &str) -> String {
    let text = page.all_text();
    text.split(['\n', '.', '!'])
        .find(|l| contains_words(l, phrase))
        .map(|l| truncate(l.trim(), 200))
        .unwrap_or_else(|| phrase.to_string())
}

pub fn same_url(a: &str, b: &str) -> bool {
    let clean = |u: &str| {
        let u = u.split('#').next().unwrap_or(u);
        u.trim_end_matches('/').to_lowercase()
    };
    clean(a) == clean(b)
}

pub fn url_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                match u8::from_str_radix(
                    std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("zz"),
                    16,
                ) {
                    Ok(b) => {
                        out.push(b);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The page's text without the instruction itself: some pages show the
/// task (a "query" banner), and its words are no evidence that it is done.
pub fn without_task(text: &str, task: &str) -> String {
    let t = normalize(task);
    let n = normalize(text);
    if t.len() < 8 {
        return n;
    }
    n.replace(&t, " ")
}

/// Success text the page shows now that it did not show at first
/// ("Welcome, alice!"), as the line that says it.
pub fn fresh_success(cx: &Cx<'_>) -> Option<String> {
    let page = cx.page;
    success_markers(&without_task(&page.all_text(), cx.task))
        .into_iter()
        .find(|m| !cx.baseline.markers.contains(m) || !same_url(&page.url, &cx.baseline.url))
        .map(|m| line_with(page, &m))
}

/// Some(result) when the goal is visibly reached.
pub fn goal_met(cx: &Cx<'_>, plan: &TaskPlan) -> Option<String> {
    let page = cx.page;
    let interacted = cx
        .history
        .iter()
        .any(|h| INTERACTIONS.contains(&h.action.as_str()) && h.success != Some(false));
    if plan.goal == Goal::Generic && plan.values.is_empty() && plan.targets.is_empty() {
        if let Some(url) = &plan.url {
            let only_go = concepts(cx.task).iter().all(|c| {
                matches!(
                    c.as_str(),
                    "open" | "visit" | "navigate" | "load" | "http" | "https"
                ) || normalize(url).contains(c.as_str())
            });
            if only_go && same_url(&page.url, url) {
                return Some(format!("Opened {url}"));
            }
        }
    }
    if !interacted {
        return find_info(cx, plan);
    }
    let fresh: Vec<String> = success_markers(&without_task(&page.all_text(), cx.task))
        .into_iter()
        .filter(|m| !cx.baseline.markers.contains(m) || !same_url(&page.url, &cx.baseline.url))
        .collect();
    if let Some(m) = fresh.first() {
        return Some(format!("Done: the page shows \"{}\"", line_with(page, m)));
    }
    find_info(cx, plan)
}

/// Information tasks ("Find contact information"): lines of page text that
/// carry the task's content words and are not just a link or button label.
pub fn find_info(ctx: &Cx<'_>, plan: &TaskPlan) -> Option<String> {
    if plan.goal != Goal::Generic && !(plan.goal == Goal::Search && plan.values.is_empty()) {
        return None;
    }
    let c = concepts(ctx.task);
    let info_task = c
        .iter()
        .any(|w| w == "search" || w == "about" || w == "show");
    if !info_task {
        return None;
    }
    let content: Vec<&String> = c
        .iter()
        .filter(|w| !matches!(w.as_str(), "search" | "about" | "show" | "information"))
        .collect();
    if content.is_empty() {
        return None;
    }
    let labels: Vec<String> = ctx
        .page
        .elements
        .iter()
        .map(|e| normalize(e.label()))
        .collect();
    let lines: Vec<String> = ctx
        .page
        .visible_text
        .split('\n')
        .map(str::trim)
        .filter(|l| !l.is_empty() && !labels.contains(&normalize(l)))
        // The instruction shown on the page is not the answer.
        .map(|l| without_task(l, ctx.task))
        .filter(|l| !l.trim().is_empty())
        .filter(|l| {
            let lc = concepts(l);
            content.iter().any(|w| lc.contains(w))
        })
        .map(|l| truncate(&l, 200))
        .take(3)
        .collect();
    (!lines.is_empty()).then(|| lines.join(" | "))
}
