//! One HTML page as the policies see it: the parsed document, the elements
//! the snapshot engine found in it (roles, names, text by the snapshot's own
//! rules), each mapped back to its DOM node, and their selectors.

use crate::dom::{raw_page, text_of};
use crate::selector::{self, SelectorIndex};
use ego_tree::NodeId;
use scraper::{ElementRef, Html};
use sentience_snapshot_core::{snapshot, Element, SnapshotOptions};
use serde::Serialize;

/// One element a policy may act on.
#[derive(Debug, Clone)]
pub struct PageElement {
    /// The element id in the listing and in the snapshot engine's output.
    pub id: u32,
    pub node: NodeId,
    pub tag: String,
    /// The engine's element (role, text, importance, state).
    pub element: Element,
    pub href: String,
    pub name: String,
    pub input_type: String,
    pub placeholder: String,
    pub aria_label: String,
    pub value: String,
}

impl PageElement {
    /// The engine's text (name) of the element, "" when it has none.
    pub fn text(&self) -> &str {
        self.element.text.as_deref().unwrap_or_default()
    }
}

/// A parsed page.
pub struct BrowsePage {
    pub html: Html,
    pub url: String,
    pub title: String,
    /// Elements in the engine's ranking order (importance, then reading order).
    pub elements: Vec<PageElement>,
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
        let elements = snap
            .elements
            .into_iter()
            .filter_map(|element| {
                let index = (element.id as usize).checked_sub(1)?;
                let node = *dom.nodes.get(index)?;
                let raw = dom.raw.nodes.get(index)?;
                let el = doc.tree.get(node).and_then(ElementRef::wrap)?;
                let attr = |n: &str| el.value().attr(n).unwrap_or_default().to_string();
                Some(PageElement {
                    id: element.id,
                    node,
                    tag: raw.tag.clone(),
                    href: attr("href"),
                    name: raw.name.clone(),
                    input_type: raw.input_type.clone(),
                    placeholder: raw.placeholder.clone(),
                    aria_label: raw.aria_label.clone(),
                    value: raw.value.clone(),
                    element,
                })
            })
            .collect();
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
            index,
        }
    }

    pub fn find(&self, id: u32) -> Option<&PageElement> {
        self.elements.iter().find(|e| e.id == id)
    }

    /// The verified selector for an element (see [`selector::write`]).
    pub fn selector(&self, e: &PageElement) -> Option<String> {
        selector::write(&self.html, &self.index, e.node)
    }

    /// Every element with the selector the server would send for it.
    /// `verify`: check each with the parser's engine (O(elements × page)).
    pub fn candidates(&self, verify: bool) -> Vec<SelectorCandidate> {
        self.elements
            .iter()
            .filter_map(|e| {
                let preferred = || selector::preferred(&self.html, &self.index, e.node);
                // An element no selector reaches is listed unverified (its
                // position path), never dropped: a checker must see it.
                let (selector, verified) = match verify.then(|| self.selector(e)).flatten() {
                    Some(s) => (s, true),
                    None => (preferred()?, false),
                };
                Some(SelectorCandidate {
                    id: e.id,
                    role: e.element.role.as_str().to_string(),
                    tag: e.tag.clone(),
                    text: e.text().to_string(),
                    selector,
                    verified,
                })
            })
            .collect()
    }

    /// The page's visible text, whitespace collapsed, at most `max` chars.
    pub fn text(&self, max: usize) -> String {
        let root = self.html.root_element();
        let body = root
            .child_elements()
            .find(|e| e.value().name() == "body")
            .unwrap_or(root);
        text_of(body, max)
    }
}

/// Given HTML, the (element, selector) candidates the policy could choose,
/// each verified with the parser's selector engine.
pub fn selector_candidates(html: &str) -> Vec<SelectorCandidate> {
    BrowsePage::parse(html, "").candidates(true)
}
