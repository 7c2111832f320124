//! A control repeated outside any row or list item ("Status" on each card
//! of a board, the "+" of each ticket tier, built of plain divs): the words
//! of its card are its row (DomFacts::row), so the one planner reads the
//! same page here as through the extension (extension/content/page-ops.js
//! `cardOf`, the same rule). Its card is the largest ancestor that holds no
//! other control of the same tag and name. Only repeated controls: a
//! control named once on the page is no item's of a list.

use crate::page::words_of;
use ego_tree::NodeId;
use scraper::{ElementRef, Html};
use sentience_snapshot_core::Observed;
use std::collections::HashMap;

/// Groups larger than this are tables or lists, which have rows (and the
/// walk below is quadratic in the group).
const MAX_GROUP: usize = 100;

/// Sets the row of each repeated control that has none (`nodes[i]` is the
/// DOM node of `elements[i]`).
pub(crate) fn fill(doc: &Html, nodes: &[NodeId], elements: &mut [Observed]) {
    let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, e) in elements.iter().enumerate() {
        groups.entry(key(e)).or_default().push(i);
    }
    for group in groups.values() {
        if group.len() < 2 || group.len() > MAX_GROUP {
            continue;
        }
        for &i in group {
            if elements.get(i).is_none_or(|e| !e.facts.row.is_empty()) {
                continue;
            }
            let others: Vec<NodeId> = group
                .iter()
                .filter(|&&j| j != i)
                .filter_map(|&j| nodes.get(j).copied())
                .collect();
            let Some(card) = nodes.get(i).and_then(|&n| card_of(doc, n, &others)) else {
                continue;
            };
            if let Some(e) = elements.get_mut(i) {
                e.facts.row = words_of(card);
            }
        }
    }
}

/// Tag and name, as page-ops.js keys them: the name the DOM gives
/// (`DomFacts::aria_label`: aria-label, labels, placeholder, title), else
/// the element's text (80 characters at most).
fn key(e: &Observed) -> String {
    let name = match e.facts.aria_label.trim() {
        "" => e.text(),
        named => named,
    };
    let name: String = name.split_whitespace().collect::<Vec<_>>().join(" ");
    let name: String = name.chars().take(80).collect();
    format!("{}|{name}", e.facts.tag)
}

/// The largest ancestor of `node` below `<body>` that holds none of
/// `others`; none when its parent already holds one.
fn card_of<'a>(doc: &'a Html, node: NodeId, others: &[NodeId]) -> Option<ElementRef<'a>> {
    let holds_another = |boxed: NodeId| {
        others.iter().any(|&o| {
            doc.tree
                .get(o)
                .is_some_and(|n| n.ancestors().any(|a| a.id() == boxed))
        })
    };
    let mut card: Option<ElementRef<'a>> = None;
    let start = doc.tree.get(node)?;
    for up in start.ancestors().filter_map(ElementRef::wrap) {
        if matches!(up.value().name(), "body" | "html") || holds_another(up.id()) {
            break;
        }
        card = Some(up);
    }
    card
}
