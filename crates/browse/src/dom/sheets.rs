//! The pointer cursor a page's own `<style>` sheets give (`.email-thread {
//! cursor: pointer }`): the extension's walker reads computed style, the
//! HTML alone has only the sheets. Simple rules only — selectors the
//! parser's engine takes, without pseudo-classes (`:hover` is no cursor the
//! page shows at rest) — and a bounded number of them, so a large site's
//! stylesheet costs little.

use ego_tree::NodeId;
use scraper::{Html, Selector};
use std::collections::HashSet;

/// At most this many pointer rules are matched against the document.
const MAX_RULES: usize = 200;
/// At most this much style text is read.
const MAX_CSS: usize = 200_000;

pub fn pointer_nodes(html: &Html) -> HashSet<NodeId> {
    let mut out = HashSet::new();
    let Ok(style) = Selector::parse("style") else {
        return out;
    };
    let mut css = String::new();
    for s in html.select(&style) {
        for t in s.text() {
            if css.len() + t.len() > MAX_CSS {
                break;
            }
            css.push_str(t);
        }
    }
    let mut rules = 0;
    for block in css.split('}') {
        let Some((selectors, decls)) = block.split_once('{') else {
            continue;
        };
        let pointer = decls.split(';').any(|d| {
            d.split_once(':').is_some_and(|(p, v)| {
                p.trim().eq_ignore_ascii_case("cursor")
                    && v.trim()
                        .trim_end_matches("!important")
                        .trim()
                        .eq_ignore_ascii_case("pointer")
            })
        });
        // Comments and at-rules before a selector are not part of it.
        let selectors = selectors.rsplit("*/").next().unwrap_or(selectors);
        if !pointer || selectors.contains('@') {
            continue;
        }
        for sel in selectors.split(',') {
            let sel = sel.trim();
            if sel.is_empty() || sel.contains(':') {
                continue;
            }
            rules += 1;
            if rules > MAX_RULES {
                return out;
            }
            if let Ok(sel) = Selector::parse(sel) {
                out.extend(html.select(&sel).map(|e| e.id()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
