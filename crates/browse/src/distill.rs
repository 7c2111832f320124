//! The page for an LLM (docs/contracts/browse.md §6 "Distilled HTML"): the
//! HTML reduced to a listing under a token budget. Scripts, styles, hidden
//! and decorative markup (SVG, images without alt, comments) go; headings,
//! forms, links, buttons, fields and text stay, in document order. Each
//! element a policy may act on is one line starting with its id `[N]`; the
//! model answers with that id and the server writes the selector.
//!
//! What over-runs the budget is cut in this order: long text lines are
//! shortened, then text lines dropped from the end, then the least
//! important elements (by the snapshot engine's importance).

use crate::dom::{clean, hidden_tree, BLOCK_TAGS};
use crate::page::BrowsePage;
use ego_tree::NodeId;
use scraper::ElementRef;
use sentience_snapshot_core::Observed;
use std::collections::{HashMap, HashSet};

/// Default budget of the listing, in tokens.
pub const DEFAULT_BUDGET_TOKENS: usize = 6_000;
/// Text lines are cut to this many characters first when over budget.
const SHORT_TEXT: usize = 160;
/// Longest text line kept at all.
const MAX_TEXT: usize = 600;

/// Opening and closing marks around the page; the page's own text never
/// contains them (see [`neutralise`]).
pub const OPEN: &str = "<untrusted-page>";
pub const CLOSE: &str = "</untrusted-page>";

/// Elements that are never content.
const SKIP: &[&str] = &[
    "script", "style", "template", "noscript", "head", "svg", "canvas", "iframe", "object",
    "video", "audio", "link", "meta",
];
/// Elements that end a run of text: the blocks `innerText` puts on lines
/// of their own (`dom::BLOCK_TAGS`, the one list), plus the line breaks and
/// table cells it separates with a break or a tab.
fn ends_text(tag: &str) -> bool {
    BLOCK_TAGS.contains(&tag) || matches!(tag, "br" | "td" | "th")
}

/// The snapshot format's conservative token estimate (crates/snapshot-query
/// `tokens`): at least what OpenAI's encoders count, so a budget holds.
pub fn estimate_tokens(s: &str) -> usize {
    sentience_snapshot_query::tokens::estimate_tokens(s)
}

#[derive(Debug, Clone)]
enum Line {
    Text(String),
    Heading(usize, String),
    Form(String),
    Element { importance: i32, line: String },
}

impl Line {
    fn render(&self) -> String {
        match self {
            Line::Text(t) => t.clone(),
            Line::Heading(level, t) => format!("{} {t}", "#".repeat(*level)),
            Line::Form(t) => t.clone(),
            Line::Element { line, .. } => line.clone(),
        }
    }
}

/// The listing and what it holds.
#[derive(Debug, Clone)]
pub struct Listing {
    /// The page between [`OPEN`] and [`CLOSE`].
    pub text: String,
    /// Ids of the elements listed (the only ids a model may answer with).
    pub ids: Vec<u32>,
    pub tokens: usize,
    /// Elements left out to fit the budget.
    pub dropped_elements: usize,
}

/// Page text must not be able to close the untrusted block early.
fn neutralise(s: &str) -> String {
    s.replace(OPEN, "<untrusted page>")
        .replace(CLOSE, "</untrusted page>")
}

fn quote(s: &str, max: usize) -> String {
    format!("\"{}\"", neutralise(&clean(s, max)).replace('"', "'"))
}

/// One element line: `[id] role "name" key=value …`.
pub fn element_line(e: &Observed) -> String {
    let mut line = format!("[{}] {}", e.element.id, e.role().as_str());
    if !e.text().is_empty() {
        line.push(' ');
        line.push_str(&quote(e.text(), 120));
    }
    let mut extra = |k: &str, v: &str| {
        if !v.is_empty() {
            line.push_str(&format!(" {k}={}", quote(v, 80)));
        }
    };
    // The role and type say what an <a>, <button> or <input> is.
    if !matches!(e.facts.tag.as_str(), "a" | "button" | "input") {
        extra("tag", &e.facts.tag);
    }
    extra("type", &e.facts.input_type);
    extra("name", &e.facts.name);
    if e.facts.placeholder != e.text() {
        extra("placeholder", &e.facts.placeholder);
    }
    if e.facts.value != e.text() {
        extra("value", &e.facts.value);
    }
    extra("href", &e.facts.href);
    {
        if let Ok(serde_json::Value::Object(o)) = serde_json::to_value(&e.element.state) {
            for (k, v) in o {
                match v {
                    serde_json::Value::Bool(true) => line.push_str(&format!(" {k}")),
                    serde_json::Value::String(s) if k != "value" => {
                        line.push_str(&format!(" {k}={}", quote(&s, 40)))
                    }
                    serde_json::Value::Array(a) if k == "options" => {
                        let names: Vec<String> = a
                            .iter()
                            .take(20)
                            .filter_map(|o| o.get("text").and_then(|t| t.as_str()))
                            .map(|t| clean(t, 40))
                            .collect();
                        line.push_str(&format!(" options={}", quote(&names.join(" | "), 400)));
                    }
                    _ => {}
                }
            }
        }
    }
    line
}

/// Walks the document in order, collecting lines.
fn lines(page: &BrowsePage) -> Vec<Line> {
    let by_node: HashMap<NodeId, &Observed> = page
        .elements
        .iter()
        .filter_map(|e| Some((page.node_of(e)?, e)))
        .collect();
    let named_ids = named_control_ids(page, &by_node);
    let mut out = Vec::new();
    let mut text = String::new();
    let flush = |text: &mut String, out: &mut Vec<Line>| {
        let t = clean(text, MAX_TEXT);
        if !t.is_empty() {
            out.push(Line::Text(neutralise(&t)));
        }
        text.clear();
    };
    // (node, is the end marker of an element, inside a label of a listed
    // control: its text is that control's name already)
    let mut stack: Vec<(ego_tree::NodeRef<'_, scraper::Node>, bool, bool)> =
        vec![(*page.html.root_element(), false, false)];
    while let Some((node, end, quiet)) = stack.pop() {
        if let Some(t) = node.value().as_text() {
            if !quiet {
                text.push_str(t);
            }
            continue;
        }
        let Some(el) = ElementRef::wrap(node) else {
            continue;
        };
        let tag = el.value().name();
        if end {
            if ends_text(tag) {
                flush(&mut text, &mut out);
            }
            continue;
        }
        if SKIP.contains(&tag) || hidden_tree(el.value()) {
            continue;
        }
        if let Some(e) = by_node.get(&node.id()) {
            flush(&mut text, &mut out);
            out.push(Line::Element {
                importance: e.element.importance,
                line: neutralise(&element_line(e)),
            });
            continue;
        }
        if ends_text(tag) {
            flush(&mut text, &mut out);
        }
        if let Some(level) = tag
            .strip_prefix('h')
            .and_then(|l| l.parse::<usize>().ok())
            .filter(|l| (1..=6).contains(l))
        {
            let t = crate::dom::text_of(el, 200);
            if !t.is_empty() {
                out.push(Line::Heading(level, neutralise(&t)));
            }
            // Links inside a heading still need their own lines.
            if !el
                .descendent_elements()
                .skip(1)
                .any(|d| by_node.contains_key(&d.id()))
            {
                continue;
            }
        }
        if tag == "form" {
            let mut f = String::from("form");
            if let Some(n) = el.value().attr("aria-label").or(el.value().attr("name")) {
                f.push(' ');
                f.push_str(&quote(n, 60));
            }
            if let Some(a) = el.value().attr("action") {
                f.push_str(&format!(" action={}", quote(a, 120)));
            }
            out.push(Line::Form(f));
        }
        let quiet = quiet || (tag == "label" && labels_listed(el, &by_node, &named_ids));
        stack.push((node, true, quiet));
        let children: Vec<_> = node.children().collect();
        for c in children.into_iter().rev() {
            stack.push((c, false, quiet));
        }
    }
    flush(&mut text, &mut out);
    out
}

/// The `id`s of listed, named form controls: a `<label for>` naming one of
/// them is that control's name already.
fn named_control_ids<'a>(
    page: &'a BrowsePage,
    by_node: &HashMap<NodeId, &Observed>,
) -> HashSet<&'a str> {
    by_node
        .iter()
        .filter(|(_, e)| {
            !e.text().is_empty()
                && matches!(
                    e.facts.tag.as_str(),
                    "input" | "select" | "textarea" | "button"
                )
        })
        .filter_map(|(node, _)| page.html.tree.get(*node))
        .filter_map(|n| n.value().as_element().and_then(|el| el.attr("id")))
        .collect()
}

/// Does this `<label>` name a listed control (its `for` target or a
/// control inside it)?
fn labels_listed(
    label: ElementRef<'_>,
    by_node: &HashMap<NodeId, &Observed>,
    named_ids: &HashSet<&str>,
) -> bool {
    if let Some(f) = label.value().attr("for") {
        return named_ids.contains(f);
    }
    label
        .descendent_elements()
        .skip(1)
        .any(|d| by_node.get(&d.id()).is_some_and(|e| !e.text().is_empty()))
}

fn total(lines: &[Line]) -> usize {
    lines.iter().map(|l| estimate_tokens(&l.render()) + 1).sum()
}

/// The page as a listing of at most `budget` tokens (estimated).
pub fn distill(page: &BrowsePage, budget: usize) -> Listing {
    let mut lines = lines(page);
    let head = format!(
        "title: {}\n",
        neutralise(&clean(&page.title, 200)).replace('\n', " ")
    );
    let budget = budget.saturating_sub(estimate_tokens(&head) + 16);
    if total(&lines) > budget {
        for l in &mut lines {
            if let Line::Text(t) = l {
                if t.chars().count() > SHORT_TEXT {
                    *t = format!("{}…", t.chars().take(SHORT_TEXT).collect::<String>());
                }
            }
        }
    }
    let mut size = total(&lines);
    while size > budget {
        let Some(i) = lines.iter().rposition(|l| matches!(l, Line::Text(_))) else {
            break;
        };
        size -= estimate_tokens(&lines[i].render()) + 1;
        lines.remove(i);
    }
    let mut dropped_elements = 0;
    if size > budget {
        // Least important first; among equals, the later one.
        let mut order: Vec<(i32, usize)> = lines
            .iter()
            .enumerate()
            .filter_map(|(i, l)| match l {
                Line::Element { importance, .. } => Some((*importance, i)),
                _ => None,
            })
            .collect();
        order.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        let mut drop = vec![false; lines.len()];
        for (_, i) in order {
            if size <= budget {
                break;
            }
            size -= estimate_tokens(&lines[i].render()) + 1;
            drop[i] = true;
            dropped_elements += 1;
        }
        let mut k = 0;
        lines.retain(|_| {
            k += 1;
            !drop[k - 1]
        });
    }
    let mut text = format!("{OPEN}\n{head}");
    let mut ids = Vec::new();
    for l in &lines {
        if let Line::Element { line, .. } = l {
            if let Some(id) = line
                .strip_prefix('[')
                .and_then(|r| r.split(']').next())
                .and_then(|n| n.parse().ok())
            {
                ids.push(id);
            }
        }
        text.push_str(&l.render());
        text.push('\n');
    }
    text.push_str(CLOSE);
    let tokens = estimate_tokens(&text);
    Listing {
        text,
        ids,
        tokens,
        dropped_elements,
    }
}
