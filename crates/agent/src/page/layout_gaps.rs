//! The one walk both layout passes share: a page's elements in reading
//! order, each element that shows words placed in the page's text after
//! the one before it, and every run of elements with no words of their own
//! given the text between its two neighbours (the gap) to take names from.
//! The snapshot lists what one can act on, not the text around it, so this
//! is all a pass knows of where an unnamed control stands.
//!
//! What differs between the passes is which elements wait for a name and
//! how a gap divides into names (`layout_labels`: text boxes, by the words
//! that end the gap; `layout_toggles`: switches and tick boxes, by the
//! gap's items); the walk, the placing and the retry below are this file's.

use super::Page;
use crate::planner::layout::reading_order;
use sentience_snapshot_core::Observed;

/// Names for the runs of `unnamed` elements of `page`, as (element index,
/// name). `name(lines, n)` divides a gap, cut at the page's line starts,
/// into `n` names in order, or answers none (empty) when it does not say.
///
/// An element's first mention may stand before the run's names (the
/// instruction a page shows: "Search for …" above a form whose button says
/// Search): when a gap gives no names, a later mention whose gap does is
/// taken as the element's own.
pub(super) fn name_runs(
    page: &Page,
    unnamed: impl Fn(&Observed) -> bool,
    name: impl Fn(&[&str], usize) -> Vec<String>,
) -> Vec<(usize, String)> {
    let text = page.visible_text.as_str();
    let lower = text.to_lowercase();
    // `to_lowercase` may change byte lengths outside ASCII: positions
    // found in `lower` are only valid in `text` when both agree.
    if lower.len() != text.len() {
        return Vec::new();
    }
    let gap = |from: usize, to: usize| lines_of(text, from, to, &page.line_starts);
    let mut order: Vec<usize> = (0..page.elements.len()).collect();
    order.sort_by(|&a, &b| reading_order(&page.elements[a], &page.elements[b]));
    // Each element that shows words moves the cursor past its words;
    // unnamed elements wait for the next one.
    let mut cursor = 0usize;
    let mut waiting: Vec<usize> = Vec::new();
    let mut names: Vec<(usize, String)> = Vec::new();
    for i in order {
        let e = &page.elements[i];
        if unnamed(e) {
            waiting.push(i);
            continue;
        }
        // A field's words are its value, which the page's text need not
        // show where the field stands.
        if e.is_field() {
            continue;
        }
        let Some((start, mut end)) = place(&lower, e.text(), cursor) else {
            continue;
        };
        if !waiting.is_empty() {
            let mut found = name(&gap(cursor, start), waiting.len());
            let mut at = start;
            while found.is_empty() {
                let Some((s, e2)) = place(&lower, e.text(), at + 1) else {
                    break;
                };
                let later = name(&gap(cursor, s), waiting.len());
                if !later.is_empty() {
                    (end, found) = (e2, later);
                }
                at = s;
            }
            names.extend(waiting.drain(..).zip(found));
        }
        cursor = end;
    }
    // A run after the last element that shows words: the rest of the text.
    if !waiting.is_empty() {
        let found = name(&gap(cursor, text.len()), waiting.len());
        names.extend(waiting.drain(..).zip(found));
    }
    names
}

/// Where an element's words stand in the (lower-cased) text, at or after
/// `from`: their first few words, as a snapshot may cut a long text short.
fn place(lower: &str, words: &str, from: usize) -> Option<(usize, usize)> {
    let w = words.trim().to_lowercase();
    if w.chars().count() < 2 {
        return None;
    }
    let head: String = w.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
    let at = from + lower.get(from..)?.find(&head)?;
    Some((at, at + head.len()))
}

/// The gap `from..to` of the text cut at the page's line starts: one
/// piece when the producer sent no line breaks.
fn lines_of<'t>(text: &'t str, from: usize, to: usize, starts: &[usize]) -> Vec<&'t str> {
    let mut out = Vec::new();
    let mut at = from;
    for &s in starts.iter().filter(|&&s| s > from && s < to) {
        out.push(text.get(at..s).unwrap_or_default());
        at = s;
    }
    out.push(text.get(at..to).unwrap_or_default());
    out
}
