//! One HTML page as the policies see it: the parsed document, the elements
//! the snapshot engine found in it (roles, names, text by the snapshot's own
//! rules), each mapped back to its DOM node, and their selectors.

use crate::dom::{lines_of, raw_page};
use crate::selector::{self, SelectorIndex};
use ego_tree::NodeId;
use scraper::{ElementRef, Html};
use sentience_snapshot_core::{snapshot, DomFacts, Observed, SnapshotOptions};
use serde::Serialize;

/// A parsed page.
pub struct BrowsePage {
    pub html: Html,
    pub url: String,
    pub title: String,
    /// Elements in the engine's ranking order (importance, then reading
    /// order), each with the DOM facts the HTML gives (the one model of
    /// an element and its facts, sentience-snapshot-core `Observed`).
    pub elements: Vec<Observed>,
    /// The DOM node of each element (same index as `elements`).
    nodes: Vec<NodeId>,
    index: SelectorIndex,
}

/// An (element, selector) pair the policy could choose, for checking
/// selectors in a browser (docs/contracts/browse.md §4).
#[derive(Debug, Clone, Serialize)]
pub struct SelectorCandidate {
    pub id: u32,
    pub role: String,
    pub tag: String,
    pub text: String,
    pub selector: String,
    /// The parser's selector engine matched exactly this element.
    pub verified: bool,
}

impl BrowsePage {
    /// Parses `html` (never fails: HTML5 parsing recovers from anything).
    pub fn parse(html: &str, url: &str) -> BrowsePage {
        let doc = Html::parse_document(html);
        let dom = raw_page(&doc, url);
        let snap = snapshot(&dom.raw, &SnapshotOptions::default(), "html");
        // Forms numbered in document order (1-based), as the run loop does.
        let form_number = |node: Option<u32>| -> u32 {
            let Some(f) = node else { return 0 };
            let before = dom
                .raw
                .nodes
                .iter()
                .take(f as usize)
                .filter(|n| n.tag == "form")
                .count();
            u32::try_from(before + 1).unwrap_or(0)
        };
        let mut nodes = Vec::with_capacity(snap.elements.len());
        let mut elements: Vec<Observed> = snap
            .elements
            .into_iter()
            .filter_map(|element| {
                let index = (element.id as usize).checked_sub(1)?;
                let node = *dom.nodes.get(index)?;
                let raw = dom.raw.nodes.get(index)?;
                let el = doc.tree.get(node).and_then(ElementRef::wrap)?;
                let mut facts = DomFacts::of_raw(raw);
                facts.href = el.value().attr("href").unwrap_or_default().to_string();
                facts.read_only = el.value().attr("readonly").is_some();
                facts.has_popup = sentience_snapshot_core::observed::has_popup_attr(
                    el.value().attr("aria-haspopup").unwrap_or_default(),
                );
                facts.row = row_words(el);
                let attr = |n: &str| el.value().attr(n).unwrap_or_default();
                facts.suggests = matches!(facts.tag.as_str(), "input" | "textarea")
                    && sentience_snapshot_core::observed::suggests_by_markup(
                        attr("role"),
                        attr("aria-autocomplete"),
                        el.value().attr("list").is_some(),
                        attr("class"),
                    );
                if facts.aria_label.is_empty()
                    && element.text.as_deref().unwrap_or("").trim().is_empty()
                {
                    let words = format!(
                        "{} {}",
                        el.value().attr("id").unwrap_or_default(),
                        el.value().attr("class").unwrap_or_default()
                    );
                    facts.hint = words
                        .replace(['-', '_'], " ")
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" ");
                }
                facts.form = form_number(raw.form);
                nodes.push(node);
                Some(Observed { element, facts })
            })
            .collect();
        crate::cards::fill(&doc, &nodes, &mut elements);
        let title = doc
            .root_element()
            .descendent_elements()
            .find(|e| e.value().name() == "title")
            .map(|t| crate::dom::clean(&t.text().collect::<String>(), 200))
            .unwrap_or_default();
        let index = SelectorIndex::build(&doc);
        BrowsePage {
            html: doc,
            url: url.to_string(),
            title,
            elements,
            nodes,
            index,
        }
    }

    pub fn find(&self, id: u32) -> Option<&Observed> {
        self.elements.iter().find(|e| e.element.id == id)
    }

    /// The id, on this page, of the one element a selector matches (an
    /// element's ids change from one HTML to the next as nodes come and
    /// go; its selector is how the conversation remembers it).
    pub fn id_of_selector(&self, selector: &str) -> Option<u32> {
        let s = scraper::Selector::parse(selector).ok()?;
        let mut hits = self.html.select(&s);
        let node = hits.next()?.id();
        if hits.next().is_some() {
            return None;
        }
        let i = self.nodes.iter().position(|n| *n == node)?;
        self.elements.get(i).map(|e| e.element.id)
    }

    /// The DOM node of an element of this page.
    pub fn node_of(&self, e: &Observed) -> Option<NodeId> {
        let i = self.elements.iter().position(|x| std::ptr::eq(x, e))?;
        self.nodes.get(i).copied()
    }

    /// The verified selector for an element (see [`selector::write`]).
    pub fn selector(&self, e: &Observed) -> Option<String> {
        selector::write(&self.html, &self.index, self.node_of(e)?)
    }

    /// Every element with the selector the server would send for it.
    /// `verify`: check each with the parser's engine (O(elements × page)).
    pub fn candidates(&self, verify: bool) -> Vec<SelectorCandidate> {
        self.elements
            .iter()
            .zip(&self.nodes)
            .filter_map(|(e, &node)| {
                let preferred = || selector::preferred(&self.html, &self.index, node);
                // An element no selector reaches is listed unverified (its
                // position path), never dropped: a checker must see it.
                let (selector, verified) = match verify.then(|| self.selector(e)).flatten() {
                    Some(s) => (s, true),
                    None => (preferred()?, false),
                };
                Some(SelectorCandidate {
                    id: e.element.id,
                    role: e.role().as_str().to_string(),
                    tag: e.facts.tag.clone(),
                    text: e.text().to_string(),
                    selector,
                    verified,
                })
            })
            .collect()
    }

    /// The page's visible text with its line breaks, as the run loop's
    /// page has it (`dom::lines_of`), at most `max` chars.
    pub fn text(&self, max: usize) -> String {
        let root = self.html.root_element();
        let body = root
            .child_elements()
            .find(|e| e.value().name() == "body")
            .unwrap_or(root);
        lines_of(body, max)
    }
}

/// Given HTML, the (element, selector) candidates the policy could choose,
/// each verified with the parser's selector engine.
pub fn selector_candidates(html: &str) -> Vec<SelectorCandidate> {
    BrowsePage::parse(html, "").candidates(true)
}

/// The words of the row or list item `el` sits in (DomFacts::row): its
/// nearest `tr`, `li`, `role=row` or `role=listitem` ancestor's text, at
/// most 200 characters.
fn row_words(el: ElementRef<'_>) -> String {
    let row = el.ancestors().filter_map(ElementRef::wrap).find(|a| {
        let v = a.value();
        matches!(v.name(), "tr" | "li")
            || matches!(
                v.attr("role")
                    .map(sentience_snapshot_core::observed::first_role)
                    .as_deref(),
                Some("row" | "listitem")
            )
    });
    row.map(words_of).unwrap_or_default()
}

/// The words of a row or card, spaced once, at most 200 characters (as
/// the extension's page_info cuts them).
pub(crate) fn words_of(row: ElementRef<'_>) -> String {
    let words: Vec<&str> = row.text().flat_map(str::split_whitespace).collect();
    let mut out = words.join(" ");
    if let Some((cut, _)) = out.char_indices().nth(200) {
        out.truncate(cut);
    }
    out
}
