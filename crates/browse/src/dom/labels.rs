//! `<label>` and `aria-labelledby` texts, resolved after the walk (as
//! walker.js does: a control may come before or after its label).

use super::{clean, MAX_TEXT};
use ego_tree::NodeId;
use scraper::node::Element;
use scraper::{ElementRef, Html};
use sentience_snapshot_core::raw::RawPage;

/// Labelable elements (HTML §4.10.2).
fn labelable(e: &Element) -> bool {
    match e.name() {
        "input" => !e
            .attr("type")
            .is_some_and(|t| t.eq_ignore_ascii_case("hidden")),
        "button" | "select" | "textarea" | "meter" | "output" | "progress" => true,
        _ => false,
    }
}

/// `<label>` texts for their controls (HTML §4.10.4 `label.control`: the
/// `for` target by id, else the first labelable descendant), and
/// `aria-labelledby` texts, after the walk.
pub(super) fn resolve_labels(html: &Html, page: &mut RawPage, nodes: &[NodeId], labels: &[u32]) {
    use std::collections::HashMap;
    let index: HashMap<NodeId, u32> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (*n, i as u32))
        .collect();
    let mut by_id: HashMap<&str, ElementRef<'_>> = HashMap::new();
    for el in html.root_element().descendent_elements() {
        if let Some(id) = el.value().attr("id") {
            by_id.entry(id).or_insert(el);
        }
    }
    let mut texts: HashMap<u32, String> = HashMap::new();
    for &l in labels {
        let Some(label) = nodes
            .get(l as usize)
            .and_then(|n| html.tree.get(*n))
            .and_then(ElementRef::wrap)
        else {
            continue;
        };
        let control = match label.value().attr("for") {
            Some(f) => by_id.get(f).copied().filter(|c| labelable(c.value())),
            None => label
                .descendent_elements()
                .skip(1)
                .find(|c| labelable(c.value())),
        };
        let Some(control) = control else { continue };
        let Some(&j) = index.get(&control.id()) else {
            continue;
        };
        if let Some(n) = page.nodes.get_mut(l as usize) {
            n.label_for = Some(j);
        }
        let mut text = label.text().collect::<String>();
        let own: String = control.text().collect();
        if !own.is_empty() && control.ancestors().any(|a| a.id() == label.id()) {
            text = text.replacen(&own, " ", 1);
        }
        let entry = texts.entry(j).or_default();
        if !entry.is_empty() {
            entry.push(' ');
        }
        entry.push_str(&text);
    }
    for (j, t) in texts {
        if let Some(n) = page.nodes.get_mut(j as usize) {
            n.labels_text = clean(&t, MAX_TEXT);
        }
    }
    for (i, n) in nodes.iter().enumerate() {
        let Some(el) = html.tree.get(*n).and_then(ElementRef::wrap) else {
            continue;
        };
        let Some(refs) = el.value().attr("aria-labelledby") else {
            continue;
        };
        let mut out = String::new();
        for r in refs.split_whitespace() {
            if let Some(t) = by_id.get(r) {
                let s = t
                    .value()
                    .attr("aria-label")
                    .map(str::to_string)
                    .unwrap_or_else(|| t.text().collect());
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(&s);
            }
        }
        if let Some(node) = page.nodes.get_mut(i) {
            node.labelledby_text = clean(&out, MAX_TEXT);
        }
    }
}
