//! Relations between a target and an anchor ("the field below Email",
//! "Retweet on the posts by @enola", "Delete" of a row): geometry when the
//! anchor is an element with a box, else the page's words in reading order.

use super::{text_fit, Hit};
use crate::intent::{Ordinal, Relation};
use crate::planner::context::Cx;
use crate::planner::layout::reading_order;
use crate::text::normalize;
use sentience_snapshot_core::Observed;

/// The hits kept by a relation to `anchor` (an element, or words of the
/// page), nearest first; with an ordinal, to the n-th mention of it.
pub(super) fn relate<'p>(
    cx: &Cx<'p>,
    hits: Vec<Hit<'p>>,
    rel: Relation,
    anchor: &str,
    ordinal: Option<Ordinal>,
) -> Vec<Hit<'p>> {
    if rel == Relation::Inside {
        return hits;
    }
    // An element that is the anchor, with a box: geometry.
    let anchor_el = cx
        .page
        .elements
        .iter()
        .filter(|e| e.has_box())
        .map(|e| (text_fit(e, anchor), e))
        .filter(|(s, _)| *s >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, e)| e);
    if let (Some(a), None) = (anchor_el, ordinal) {
        if rel != Relation::Of {
            let mut out: Vec<Hit<'p>> = hits
                .into_iter()
                .filter(|h| !std::ptr::eq(h.e, a))
                .filter_map(|mut h| {
                    let d = geometry(h.e, rel, a)?;
                    h.score *= 1.0 / (1.0 + d / 400.0);
                    Some(h)
                })
                .collect();
            out.sort_by(|a, b| b.score.total_cmp(&a.score));
            return out;
        }
    }
    // Words of the page: the first qualifying element after (or before) a
    // mention of the anchor, in reading order.
    let mut mentions = cx.layout.occurrences(anchor);
    if let Some(o) = ordinal {
        mentions = match o {
            Ordinal::Nth(n) => mentions
                .get(n.saturating_sub(1))
                .copied()
                .into_iter()
                .collect(),
            Ordinal::Last => mentions.last().copied().into_iter().collect(),
        };
    }
    if mentions.is_empty() {
        return Vec::new();
    }
    let before = matches!(rel, Relation::Above | Relation::LeftOf);
    let best = hits.iter().map(|h| h.score).fold(0.0, f64::max);
    let anchor_words = normalize(anchor);
    // What the page shows of the anchor: the part its mentions hold when
    // the whole is not written ("old-landing" of "the old-landing
    // project", a name said before its kind).
    let shown: Vec<String> = {
        let mut v: Vec<String> = mentions
            .iter()
            .map(|&(s, e)| normalize(cx.layout.text_between(s, e)))
            .filter(|w| !w.is_empty() && *w != anchor_words)
            .collect();
        v.dedup();
        v
    };
    // A control whose own name holds the anchor, or the part of it the
    // page shows ("Delete old-landing", an icon button's aria-label;
    // "Remove Travel tumbler"), belongs to it, wherever its words stand:
    // an icon has no words in the text at all.
    let own_name = |h: &Hit<'_>| {
        let label = cx.label_words(h.e);
        let holds = |w: &str| {
            !w.is_empty() && label.as_ref() as &str != w && crate::text::has_words(&label, w)
        };
        holds(&anchor_words) || shown.iter().any(|w| holds(w))
    };
    if rel == Relation::Of
        && ordinal.is_none()
        && hits.iter().any(|h| h.score >= best * 0.6 && own_name(h))
    {
        let mut own: Vec<Hit<'p>> = hits
            .into_iter()
            .filter(|h| h.score >= best * 0.6 && own_name(h))
            .collect();
        own.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| reading_order(a.e, b.e))
        });
        return own;
    }
    // A repeated control ("Revoke", "Close") in the row or list item that
    // holds the anchor (DomFacts::row) is that item's, wherever the
    // words stand in the text (an icon, a menu built inside the row).
    if rel == Relation::Of && ordinal.is_none() {
        let mut in_row: Vec<Hit<'p>> = hits
            .iter()
            .filter(|h| {
                h.score >= best * 0.6
                    && crate::planner::steps::row_holds(h.e, &anchor_words)
                    && normalize(&h.e.facts.row) != anchor_words
            })
            .map(|h| Hit { ..*h })
            .collect();
        if !in_row.is_empty() {
            in_row.sort_by(|a, b| {
                b.score
                    .total_cmp(&a.score)
                    .then_with(|| reading_order(a.e, b.e))
            });
            return in_row;
        }
    }
    // Controls that each carry their own row's name ("Remove moon-base",
    // "Remove sun-deck"), none of them the anchor's (that was tested just
    // above): the anchor's row is not here, and a mention elsewhere (a
    // note, a heading) must not lend it another row's control: that would
    // be a destructive action on the wrong row. Nothing is found; the
    // planner looks further or asks.
    if rel == Relation::Of && ordinal.is_none() && named_per_row(cx, &hits, best) {
        return Vec::new();
    }
    // Each mention claims the nearest qualifying element after it (before
    // it, for "above"): "Retweet on the posts by @enola" is the Retweet of
    // each such post, not every Retweet further down. An element whose own
    // words hold the anchor ("Celestyn — Dui sed…") is its mention's.
    let placed: Vec<(usize, Hit<'p>)> = hits
        .into_iter()
        .filter(|h| h.score >= best * 0.6)
        .filter_map(|h| Some((cx.layout.offset(h.index)?, h)))
        .collect();
    let mut claimed: Vec<(usize, usize)> = Vec::new(); // (distance, index in placed)
    for &(start, end) in &mentions {
        let pick = placed
            .iter()
            .enumerate()
            .filter_map(|(k, (at, h))| {
                let own = crate::text::has_words(&cx.label_words(h.e), &anchor_words);
                if own && *at <= start && start < at + normalize(h.e.text()).len().max(1) {
                    return Some((0, k));
                }
                if before {
                    start.checked_sub(*at).map(|d| (d, k))
                } else {
                    at.checked_sub(end).map(|d| (d, k))
                }
            })
            .min();
        if let Some((d, k)) = pick {
            if !claimed.iter().any(|(_, c)| *c == k) {
                claimed.push((d, k));
            }
        }
    }
    claimed.sort_by_key(|(d, _)| *d);
    let mut placed: Vec<Option<Hit<'p>>> = placed.into_iter().map(|(_, h)| Some(h)).collect();
    claimed
        .into_iter()
        .filter_map(|(_, k)| placed.get_mut(k).and_then(Option::take))
        .collect()
}

/// Whether the qualifying hits are one control repeated per row, each
/// named after its row: two or more that share a word (the action,
/// "Remove"), and what is left of each label once the shared words are
/// taken out ("moon-base" of "Remove moon-base") is its own, non-empty,
/// and shown on the page outside the control itself (the row's name).
/// "Delete" beside "Delete account" is not (nothing is left of the
/// first), nor "Save details" beside "Request a change" (nothing shared).
fn named_per_row(cx: &Cx<'_>, hits: &[Hit<'_>], best: f64) -> bool {
    let labels: Vec<Vec<String>> = hits
        .iter()
        .filter(|h| h.score >= best * 0.6)
        .map(|h| {
            cx.label_words(h.e)
                .split(' ')
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect()
        })
        .collect();
    if labels.len() < 2 {
        return false;
    }
    let shared = |w: &String| labels.iter().all(|l| l.contains(w));
    if !labels[0].iter().any(shared) {
        return false;
    }
    let rests: Vec<String> = labels
        .iter()
        .map(|l| {
            l.iter()
                .filter(|w| !shared(w))
                .cloned()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let distinct = rests
        .iter()
        .enumerate()
        .all(|(i, r)| !rests[..i].contains(r));
    // A label written on the page holds its rest once itself.
    let shown_outside = |label: &[String], rest: &str| {
        let own = usize::from(!cx.layout.occurrences(&label.join(" ")).is_empty());
        cx.layout.occurrences(rest).len() > own
    };
    distinct
        && labels
            .iter()
            .zip(&rests)
            .all(|(l, r)| !r.is_empty() && shown_outside(l, r))
}

/// Distance from the anchor when `e` stands in relation `rel` to it.
fn geometry(e: &Observed, rel: Relation, a: &Observed) -> Option<f64> {
    if !e.has_box() {
        return None;
    }
    let (eb, ab) = (e.element.bbox, a.element.bbox);
    let (ex, ey) = eb.center();
    let (ax, ay) = ab.center();
    let d = ((ex - ax).powi(2) + (ey - ay).powi(2)).sqrt();
    let ok = match rel {
        Relation::Below => ey > ab.y + ab.height - 2.0,
        Relation::Above => ey < ab.y + 2.0,
        Relation::LeftOf => ex < ab.x + 2.0,
        Relation::RightOf => ex > ab.x + ab.width - 2.0,
        Relation::Near | Relation::Of => d < 250.0,
        Relation::Inside => true,
    };
    ok.then_some(d)
}
