//! Extremes among the hits ("the cheapest plan", "the shortest flight",
//! "the newest article"): by the number, duration, moment or price each
//! hit's card shows.

use super::measure::{count_of_total, rating_in};
use super::{plain_clickable, Hit};
use crate::intent::Extreme;
use crate::planner::context::Cx;
use crate::planner::layout::{distance_of, first_moment, number_in, reading_order, Moment};
use crate::text::normalize;
use sentience_snapshot_core::Observed;

/// The hit whose number (in its label or just after it) is least / most;
/// for "the shortest" / "the longest", the duration its card shows
/// ("Duration: 5h 30m" before a "Book flight for $677" button), when the
/// hits show durations, else their numbers.
pub(super) fn extreme<'p>(cx: &Cx<'p>, hits: Vec<Hit<'p>>, x: Extreme) -> Vec<Hit<'p>> {
    let best = hits.iter().map(|h| h.score).fold(0.0, f64::max);
    let hits: Vec<Hit<'p>> = hits.into_iter().filter(|h| h.score >= best * 0.6).collect();
    let minutes = if x.is_duration() {
        durations(cx, &hits)
    } else if x.is_moment() {
        moments(cx, &hits)
    } else if x.is_distance() {
        distances(cx, &hits)
    } else {
        None
    };
    let mut numbered: Vec<(f64, Hit<'p>)> = match minutes {
        Some(m) => m.into_iter().zip(hits).collect(),
        None => hits
            .into_iter()
            .filter_map(|h| Some((cx.layout.number_of(cx.page, h.index, 80)?, h)))
            .collect(),
    };
    numbered.sort_by(|a, b| a.0.total_cmp(&b.0));
    let pick = if x.is_least() {
        numbered.into_iter().next()
    } else {
        numbered.pop()
    };
    pick.map(|(_, h)| h).into_iter().collect()
}

/// Each hit's text in the page's text, `(start, end, index in hits)`, in
/// reading order; `None` when a hit has no place in the text.
fn spans(cx: &Cx<'_>, hits: &[Hit<'_>]) -> Option<Vec<(usize, usize, usize)>> {
    let mut placed: Vec<(usize, usize, usize)> = hits
        .iter()
        .enumerate()
        .map(|(k, h)| {
            let at = cx.layout.offset(h.index)?;
            Some((at, at + cx.layout.text_len(h.index), k))
        })
        .collect::<Option<_>>()?;
    placed.sort_by_key(|p| p.0);
    Some(placed)
}

/// The duration (minutes) shown in each hit's card, in the order of
/// `hits`: the text since the previous hit (in reading order) up to its own
/// end. All or nothing: a hit without a duration means these are not cards
/// that show one.
fn durations(cx: &Cx<'_>, hits: &[Hit<'_>]) -> Option<Vec<f64>> {
    let placed = spans(cx, hits)?;
    let mut out = vec![0.0; hits.len()];
    let mut from = 0;
    for (at, end, k) in placed {
        let start = from.max(at.saturating_sub(400));
        out[k] = cx.layout.duration_in(start, end)?;
        from = end;
    }
    Some(out)
}

/// The moment (a date or a time of day) shown with each hit, in the
/// order of `hits`: its own label, else the text from it to the next hit
/// (a result's date follows its title; a flight's time leads its card, so
/// a card-shaped page is read by `repeated_extreme`). All of one kind or
/// nothing.
fn moments(cx: &Cx<'_>, hits: &[Hit<'_>]) -> Option<Vec<f64>> {
    let mut placed: Vec<(usize, usize)> = hits
        .iter()
        .enumerate()
        .map(|(k, h)| Some((cx.layout.offset(h.index)?, k)))
        .collect::<Option<_>>()?;
    placed.sort_by_key(|p| p.0);
    let mut out = vec![None; hits.len()];
    for (n, &(at, k)) in placed.iter().enumerate() {
        let end = placed.get(n + 1).map_or(at + 300, |p| p.0.min(at + 300));
        out[k] = first_moment(hits[k].e.label()).or_else(|| cx.layout.moment_in(at, end));
    }
    let got: Vec<Moment> = out.into_iter().collect::<Option<_>>()?;
    let kind = *got.first()?;
    got.iter()
        .all(|m| m.same_kind(kind))
        .then(|| got.iter().map(|m| m.value()).collect())
}

/// The distance (metres) shown with each hit, in the order of `hits`:
/// the text from it to the next hit, when every hit has one there (a
/// card's details under its button), else the text from the previous hit
/// to it (details before the button). All or nothing.
fn distances(cx: &Cx<'_>, hits: &[Hit<'_>]) -> Option<Vec<f64>> {
    let placed = spans(cx, hits)?;
    let side = |after: bool| -> Option<Vec<f64>> {
        let mut out = vec![0.0; hits.len()];
        for (n, &(at, end, k)) in placed.iter().enumerate() {
            let (from, to) = if after {
                (
                    at,
                    placed.get(n + 1).map_or(end + 300, |p| p.0.min(end + 300)),
                )
            } else {
                let prev = n
                    .checked_sub(1)
                    .map_or(at.saturating_sub(300), |m| placed[m].1);
                (prev.max(at.saturating_sub(300)), end)
            };
            out[k] = cx.layout.distance_in(from, to)?;
        }
        Some(out)
    };
    side(true).or_else(|| side(false))
}

/// "the newest article", "the earliest appointment" where the results have
/// names of their own: of the links and buttons each followed (before the
/// next one) by a moment of the same kind, at least two, the one with the
/// least / greatest. Controls that show no moment (a sidebar's links) are
/// not among them.
pub(super) fn dated_extreme<'p>(
    cx: &Cx<'p>,
    x: Extreme,
    extra: &dyn Fn(&Observed) -> bool,
) -> Option<Hit<'p>> {
    if !x.is_moment() {
        return None;
    }
    let page = cx.page;
    let mut placed: Vec<(usize, usize)> = page
        .elements
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            plain_clickable(e) && !e.is_field() && !e.is_disabled() && !cx.avoided(e) && extra(e)
        })
        .filter_map(|(i, _)| Some((cx.layout.offset(i)?, i)))
        .collect();
    placed.sort_by_key(|p| p.0);
    let mut dated: Vec<(Moment, usize)> = Vec::new();
    for (n, &(at, i)) in placed.iter().enumerate() {
        let end = placed.get(n + 1).map_or(at + 300, |p| p.0.min(at + 300));
        if let Some(m) = cx.layout.moment_in(at, end) {
            dated.push((m, i));
        }
    }
    // The kind most of them show (dates beside a stray clock time).
    let days = dated
        .iter()
        .filter(|(m, _)| matches!(m, Moment::Day(_)))
        .count();
    let keep_days = days * 2 >= dated.len();
    dated.retain(|(m, _)| matches!(m, Moment::Day(_)) == keep_days);
    if dated.len() < 2 {
        return None;
    }
    dated.sort_by(|a, b| a.0.value().total_cmp(&b.0.value()));
    let (_, index) = if x.is_least() {
        *dated.first()?
    } else {
        *dated.last()?
    };
    Some(Hit {
        score: 1.0,
        index,
        e: &page.elements[index],
    })
}

/// Do these controls stand as one control per card does: each in a column
/// (the same left edge) or a row (the same top) with another of them? A
/// title shown twice — a search result and the same article in a sidebar
/// beside it — is no card's control. Without boxes (HTML only) nothing
/// can be told, and they count.
fn aligned(page: &crate::page::Page, members: &[usize]) -> bool {
    let boxes: Vec<_> = members
        .iter()
        .map(|&i| &page.elements[i].element.bbox)
        .collect();
    if boxes.iter().all(|b| b.width <= 0.0 && b.height <= 0.0) {
        return true;
    }
    boxes.iter().enumerate().all(|(k, a)| {
        boxes
            .iter()
            .enumerate()
            .any(|(j, b)| j != k && ((a.x - b.x).abs() <= 4.0 || (a.y - b.y).abs() <= 4.0))
    })
}

/// The same control repeated in each card or row ("Select", "Choose",
/// "Add to cart": at least two, the largest such group), and of them the
/// one whose card holds the least / most price — a number with a currency
/// sign, else the card's last number. A card is the page's text from the
/// control before it to it (the words of a card come before its button).
pub(super) fn repeated_extreme<'p>(cx: &Cx<'p>, x: Extreme) -> Option<Hit<'p>> {
    // A duration ("the shortest flight") is read by its own rule.
    if x.is_duration() {
        return None;
    }
    let page = cx.page;
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, e) in page.elements.iter().enumerate() {
        if e.is_field()
            || e.is_checkable()
            || e.is_disabled()
            || !plain_clickable(e)
            // ("See availability" reveals nothing when the cards show
            // their ratings already: it is each card's own link.)
            || (!x.is_rating() && super::super::unveil::is_toggle(e))
        {
            continue;
        }
        let label = normalize(e.label());
        if label.is_empty() {
            continue;
        }
        match groups.iter_mut().find(|(l, _)| *l == label) {
            Some((_, v)) => v.push(i),
            None => groups.push((label, vec![i])),
        }
    }
    let (_, mut members) = groups
        .into_iter()
        .filter(|(_, v)| v.len() >= 2 && aligned(page, v))
        .max_by_key(|(_, v)| v.len())?;
    members.sort_by(|&a, &b| reading_order(&page.elements[a], &page.elements[b]));
    // The k-th mention of the label in the text is the k-th control
    // (found without a lower-cased copy of the whole text, whose byte
    // positions would not be the text's outside ASCII).
    let text = &page.visible_text;
    let raw_label = page.elements[members[0]].label().trim();
    let mut cuts = mentions(text, raw_label);
    if cuts.len() < members.len() {
        return None;
    }
    cuts.truncate(members.len());
    let mut priced: Vec<(f64, usize)> = Vec::new();
    // Cards are alike: the first reaches back no further than the longest
    // of the others (not into the page's heading and its own amounts).
    let longest = cuts
        .windows(2)
        .map(|w| w[1].saturating_sub(w[0] + raw_label.len()))
        .max();
    let mut from = match longest {
        Some(n) => floor_char(text, cuts[0].saturating_sub(n)),
        None => 0,
    };
    // "the earliest flight": the moment each card shows, when every card
    // shows one of one kind; else, as for any extreme, its price.
    let mut timed: Vec<(Moment, usize)> = Vec::new();
    for (k, &cut) in cuts.iter().enumerate() {
        let card = text.get(from..cut).unwrap_or_default();
        if let Some(n) = price_in(card) {
            priced.push((n, members[k]));
        }
        if let Some(m) = first_moment(card) {
            timed.push((m, members[k]));
        }
        from = cut + raw_label.len();
    }
    // "the nearest clinic": the distance each card shows, on the side of
    // its control where every card shows one (details before the button,
    // or under it).
    if x.is_distance() {
        priced = card_distances(text, &cuts, raw_label.len(), longest, &members)?;
    }
    // "the highest guest rating": the score each card shows, when every
    // card shows one (`measure.rs`).
    if x.is_rating() {
        priced = cards_before(text, &cuts, raw_label.len(), longest.unwrap_or(300))
            .zip(members.iter().copied())
            .map(|(card, m)| Some((rating_in(card)?, m)))
            .collect::<Option<_>>()?;
    }
    if x.is_moment()
        && timed.len() == members.len()
        && timed.iter().all(|(m, _)| m.same_kind(timed[0].0))
    {
        priced = timed.iter().map(|(m, i)| (m.value(), *i)).collect();
    }
    if priced.len() < 2 {
        return None;
    }
    priced.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (_, index) = if x.is_least() {
        priced.first()?
    } else {
        priced.last()?
    };
    Some(Hit {
        score: 1.0,
        index: *index,
        e: &page.elements[*index],
    })
}

/// The distance in each card, before its control (from the previous one)
/// when every card shows one there, else after it (to the next one).
fn card_distances(
    text: &str,
    cuts: &[usize],
    len: usize,
    longest: Option<usize>,
    members: &[usize],
) -> Option<Vec<(f64, usize)>> {
    let span = longest.unwrap_or(300);
    let before: Option<Vec<f64>> = cards_before(text, cuts, len, span)
        .map(distance_of)
        .collect();
    let after = || -> Option<Vec<f64>> {
        cuts.iter()
            .enumerate()
            .map(|(k, &cut)| {
                let to = cuts.get(k + 1).copied().unwrap_or(cut + len + span);
                distance_of(piece(text, cut + len, to))
            })
            .collect()
    };
    let got = before.or_else(after)?;
    Some(got.into_iter().zip(members.iter().copied()).collect())
}

/// The text of each card before its control (the controls at `cuts`, each
/// `len` bytes long): from the end of the previous card's control, the
/// first card reaching back `span` bytes.
fn cards_before<'t>(
    text: &'t str,
    cuts: &'t [usize],
    len: usize,
    span: usize,
) -> impl Iterator<Item = &'t str> + 't {
    cuts.iter().enumerate().map(move |(k, &cut)| {
        let from = if k == 0 {
            cut.saturating_sub(span)
        } else {
            cuts[k - 1] + len
        };
        piece(text, from, cut)
    })
}

/// `text[from..to]`, both ends moved back to char boundaries and clamped.
fn piece(text: &str, from: usize, to: usize) -> &str {
    let (from, to) = (
        floor_char(text, from.min(text.len())),
        floor_char(text, to.min(text.len())),
    );
    text.get(from..to.max(from)).unwrap_or_default()
}

/// The nearest char boundary at or before `i`.
fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Where `needle` appears in `hay`, ASCII case ignored, without overlaps.
fn mentions(hay: &str, needle: &str) -> Vec<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let mut out = Vec::new();
    if n.is_empty() {
        return out;
    }
    let mut i = 0;
    while i + n.len() <= h.len() {
        if h[i..i + n.len()].eq_ignore_ascii_case(n) && hay.is_char_boundary(i) {
            out.push(i);
            i += n.len();
        } else {
            i += 1;
        }
    }
    out
}

/// The price in a card's text: the first amount after a currency sign,
/// else a count out of a total ("17 of 40 left": 17), else the last
/// number.
fn price_in(card: &str) -> Option<f64> {
    for (p, c) in card.char_indices() {
        if matches!(c, '$' | '€' | '£' | '¥') {
            // The amount written right after the sign (spaces allowed).
            let rest = card[p + c.len_utf8()..].trim_start();
            if rest.starts_with(|d: char| d.is_ascii_digit()) {
                if let Some(n) = number_in(rest) {
                    return Some(n);
                }
            }
        }
    }
    if let Some(n) = count_of_total(card) {
        return Some(n);
    }
    card.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .filter_map(|w| w.trim_end_matches('.').parse().ok())
        .next_back()
}
