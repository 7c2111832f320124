//! Resolving a target ("the 2nd button", link "ut.", a "textarea" widget,
//! the field below "Email", "Add to cart" for the tumbler, the cheapest
//! option) to elements of the page. Text and role decide which elements
//! qualify; relations, positions and extremes pick among them; the System 2
//! scores of docs/contracts/system2.md §7 (discoverability,
//! understandability, relevance) order the ones that match equally well.

use super::context::Cx;
use super::layout::{first_moment, number_in, reading_order, Moment};
use crate::intent::{Extreme, Ordinal, Relation, Role, Target};
use crate::page::Role as R;
use crate::system2::score::{combine, discoverability, understandability, Candidate, UserContext};
use crate::text::{concepts, normalize};
use sentience_snapshot_core::Observed;

/// Below this a text match does not stand for the target.
pub const FLOOR: f64 = 0.45;

/// The element as the System 2 scorer sees it.
pub fn candidate(e: &Observed) -> Candidate {
    let b = e.element.bbox;
    let (x, y, width, height) = if e.has_box() {
        (b.x, b.y, b.width, b.height)
    } else {
        (0.0, 0.0, 100.0, 30.0)
    };
    let kind = if !e.facts.input_type.is_empty() && e.facts.tag == "input" {
        e.facts.input_type.clone()
    } else if e.facts.tag == "textarea" {
        "textarea".into()
    } else if !e.facts.aria_role.is_empty() {
        e.facts.aria_role.clone()
    } else {
        e.role().as_str().to_string()
    };
    Candidate {
        text: if e.is_text_entry() {
            format!(
                "{} {} {}",
                e.facts.aria_label,
                e.facts.placeholder,
                e.label()
            )
        } else {
            e.label().to_string()
        },
        kind,
        selector: e.facts.name.clone(),
        x,
        y,
        width,
        height,
        is_text_entry: e.is_text_entry(),
        is_primary: e.element.visual_cues.is_primary,
    }
}

/// Something one clicks that is neither a field nor a tick box.
pub fn plain_clickable(e: &Observed) -> bool {
    !e.is_field() && !matches!(e.role(), R::Checkbox | R::Radio)
}

/// How well an element plays a role: 1 exact, 0.5 plausible, 0 not at all.
pub fn role_fit(e: &Observed, role: Role) -> f64 {
    let aria = e.facts.aria_role.as_str();
    let tag = e.facts.tag.as_str();
    match role {
        Role::Button => match e.role() {
            R::Button if matches!(aria, "tab" | "menuitem" | "option" | "treeitem") => 0.7,
            R::Button => 1.0,
            R::Link | R::Generic => 0.5,
            _ => 0.0,
        },
        Role::Link => match e.role() {
            R::Link => 1.0,
            _ if tag == "a" => 1.0,
            _ if plain_clickable(e) => 0.6,
            _ => 0.0,
        },
        Role::Tab => match () {
            _ if aria == "tab" => 1.0,
            _ if e.element.state.selected.is_some() && plain_clickable(e) => 0.8,
            _ if plain_clickable(e) => 0.4,
            _ => 0.0,
        },
        Role::Checkbox => f64::from(u8::from(e.role() == R::Checkbox)),
        Role::Radio => f64::from(u8::from(e.role() == R::Radio)),
        Role::Field => match () {
            _ if e.is_text_entry() && e.role() != R::Combobox => 1.0,
            _ if e.is_field() => 0.5,
            _ => 0.0,
        },
        Role::TextArea => match () {
            _ if tag == "textarea" => 1.0,
            _ if e.is_text_entry() => 0.3,
            _ => 0.0,
        },
        Role::Dropdown => match () {
            _ if e.is_select() || e.role() == R::Combobox => 1.0,
            _ if e.element.state.expanded.is_some() => 0.6,
            _ => 0.0,
        },
        Role::Option => match () {
            _ if e.is_checkable() => 1.0,
            _ if plain_clickable(e) => 0.5,
            _ => 0.0,
        },
        Role::Item | Role::Result => match () {
            _ if matches!(aria, "menuitem" | "treeitem" | "option" | "listitem")
                || e.role() == R::Link =>
            {
                1.0
            }
            _ if plain_clickable(e) => 0.7,
            _ => 0.0,
        },
        Role::Section => match () {
            _ if e.element.state.expanded.is_some() && plain_clickable(e) => 1.0,
            _ if matches!(e.role(), R::Button | R::Generic) || tag == "summary" => 0.5,
            _ => 0.0,
        },
        Role::Menu => match () {
            _ if aria.contains("menu") || candidate(e).is_menu() => 1.0,
            _ if plain_clickable(e) => 0.5,
            _ => 0.0,
        },
        Role::Dialog | Role::List | Role::Table => {
            if plain_clickable(e) || e.is_text_entry() {
                0.5
            } else {
                0.3
            }
        }
        Role::Slider => f64::from(u8::from(super::slider::is_slider(e))),
        Role::Widget => 1.0,
    }
}

/// Does the element's kind answer to a word ("textarea", "checkbox", "button")?
pub fn kind_named(e: &Observed, word: &str) -> bool {
    let w = normalize(word);
    let w = w.trim_end_matches('s');
    let tag = e.facts.tag.as_str();
    match w {
        "textarea" | "text area" => tag == "textarea",
        "checkbox" | "check box" => e.role() == R::Checkbox,
        "radio" | "radio button" => e.role() == R::Radio,
        "button" => e.role() == R::Button || tag == "button",
        "link" => e.role() == R::Link,
        "text" | "input" | "textbox" | "text box" | "text input" | "text field" => {
            e.is_text_entry() && tag != "textarea" && e.role() != R::Combobox
        }
        "dropdown" | "select" | "combobox" => e.role() == R::Combobox || tag == "select",
        _ => {
            tag == w || e.role().as_str() == w || e.facts.input_type == w || e.facts.aria_role == w
        }
    }
}

const CLOSE_MARKS: &[&str] = &["x", "×", "✕", "✖", "╳"];

/// How well the element's words answer to the target text (0 = not at all).
pub fn text_fit(e: &Observed, text: &str) -> f64 {
    let want = normalize(text);
    let labels = [
        e.label(),
        e.facts.aria_label.as_str(),
        e.text(),
        e.facts.value.as_str(),
    ];
    if want.is_empty() {
        // Symbols only ("♥♥♥", "→"): compare as written.
        let t = text.trim();
        return if !t.is_empty() && labels.iter().any(|l| l.trim() == t) {
            1.0
        } else if !t.is_empty() && labels.iter().any(|l| l.contains(t)) {
            0.6
        } else if CLOSE_MARKS.contains(&t) {
            close_fit(e)
        } else {
            0.0
        };
    }
    let mut best: f64 = 0.0;
    for l in labels {
        let have = normalize(l);
        if have.is_empty() {
            continue;
        }
        best = best.max(words_fit(&have, &want));
    }
    if best == 0.0 && CLOSE_MARKS.contains(&text.trim()) {
        best = close_fit(e);
    }
    best
}

/// Two normalised texts: 1 equal; the wanted words among others; the same
/// concepts; most of the wanted concepts.
pub fn words_fit(have: &str, want: &str) -> f64 {
    if have == want {
        return 1.0;
    }
    if format!(" {have} ").contains(&format!(" {want} ")) {
        // "Submit" in "Submit form": the words are there, among others.
        return 0.85 * (want.len() as f64 / have.len() as f64).max(0.6);
    }
    if want.len() >= 3 && format!(" {want} ").contains(&format!(" {have} ")) {
        return 0.5;
    }
    let cw = concepts(want);
    let ch = concepts(have);
    if cw.is_empty() || ch.is_empty() {
        return 0.0;
    }
    if cw == ch {
        return 0.9;
    }
    // A word counts as there when the same concept is, or a word of the
    // same family ("description" / "describe": six letters in common).
    let kin = |a: &String, b: &String| {
        a == b || a.len() >= 6 && b.len() >= 6 && a.get(..6).is_some_and(|p| b.starts_with(p))
    };
    let common = cw.iter().filter(|c| ch.iter().any(|h| kin(c, h))).count();
    if common == cw.len() {
        // Every wanted word, with others: "Promote" ⊂ "Promote to all regions".
        return 0.55 + 0.25 * common as f64 / ch.len() as f64;
    }
    let r = common as f64 / cw.len() as f64;
    if r >= 0.5 && common >= 1 {
        0.5 * r
    } else {
        0.0
    }
}

/// An "x" names the close control.
fn close_fit(e: &Observed) -> f64 {
    let labels = [e.label(), e.facts.aria_label.as_str()];
    if labels
        .iter()
        .any(|l| normalize(l) == "close" || CLOSE_MARKS.contains(&l.trim()))
    {
        0.95
    } else if labels
        .iter()
        .any(|l| concepts(l).iter().any(|w| w == "close"))
    {
        0.4
    } else {
        0.0
    }
}

/// Text that is the instruction itself (some pages show the task): never a
/// target. `l` is the element's label and `t` the task, both normalised
/// (`Cx::is_instruction` keeps them per decision).
///
/// Pages show a task as text, not as a control: a button or link whose name
/// is no longer than the task is what a short task names ("Mute
/// notifications" on a page with that button), never the instruction.
pub fn instruction_words(e: &Observed, l: &str, t: &str) -> bool {
    if l.len() <= 12 || l.len() <= t.len() && (super::form::is_button(e) || e.facts.tag == "a") {
        return false;
    }
    // Most of the task's words, not a name it quotes ("How do refunds work?").
    l.contains(t) || t.contains(l) && l.len() * 3 >= t.len() * 2
}

/// One qualifying element: its score and index in `page.elements`.
pub struct Hit<'p> {
    pub score: f64,
    pub index: usize,
    pub e: &'p Observed,
}

/// Elements answering to the target, best first. `extra` filters further
/// (e.g. only checkable elements).
pub fn resolve<'p>(
    cx: &Cx<'p>,
    target: &Target,
    extra: &dyn Fn(&Observed) -> bool,
) -> Vec<Hit<'p>> {
    let page = cx.page;
    let fold = page.viewport_height.unwrap_or(800.0);
    let widget_kind = target.role == Some(Role::Widget);
    // A text that names nothing here, with a relation, is a kind of thing
    // ("the 2nd email from Bob"): the relation decides.
    let text = target.text.as_deref().filter(|t| {
        widget_kind
            || target.relation.is_none()
            || page
                .elements
                .iter()
                .any(|e| extra(e) && text_fit(e, t) >= FLOOR)
    });
    let mut out: Vec<Hit<'p>> = Vec::new();
    for (index, e) in page.elements.iter().enumerate() {
        if e.is_disabled() || cx.avoided(e) || !extra(e) || cx.is_instruction(e) {
            continue;
        }
        let mut s = 1.0;
        if let Some(r) = target.role {
            s *= role_fit(e, r);
        }
        if let Some(t) = text {
            if widget_kind {
                s *= if kind_named(e, t) { 1.0 } else { 0.0 };
            } else {
                s *= text_fit(e, t);
            }
        } else if target.relation.is_some() && target.role.is_none() {
            // Related to a thing, no kind said: what one acts on.
            s *= if plain_clickable(e) { 0.8 } else { 0.3 };
        }
        if s <= 0.0 {
            continue;
        }
        let c = candidate(e);
        let d = discoverability(&c, None, fold).value;
        let u = understandability(&c, &UserContext::default()).value;
        s += 0.05 * combine(d, u, 0.5);
        out.push(Hit { score: s, index, e });
    }
    if let Some((rel, anchor)) = &target.relation {
        out = relate(cx, out, *rel, anchor, target.ordinal);
        if target.ordinal.is_some() {
            return out.into_iter().take(1).collect();
        }
    }
    if let Some(x) = target.extreme {
        // Cards whose values show only once revealed: each revealed first
        // (`unveil.rs`), then compared by the cards' own control.
        if let Some((index, e)) = super::unveil::next(cx) {
            return vec![Hit {
                score: 1.0,
                index,
                e,
            }];
        }
        let unveiled = super::unveil::revealed(cx);
        // "the cheapest plan" where no element is a plan: the cards' own
        // control ("Select" in each), by the price in each card.
        if unveiled || !out.iter().any(|h| h.score >= FLOOR) {
            if let Some(h) = repeated_extreme(cx, x) {
                return vec![h];
            }
            // "the newest article" among results that differ in name: the
            // links or buttons each followed by a date or a time.
            if let Some(h) = dated_extreme(cx, x, extra) {
                return vec![h];
            }
        }
        return extreme(cx, out, x);
    }
    if let Some(o) = target.ordinal {
        // Position among the qualifying elements, in reading order.
        let best = out.iter().map(|h| h.score).fold(0.0, f64::max);
        let mut pool: Vec<Hit<'p>> = out.into_iter().filter(|h| h.score >= best * 0.6).collect();
        pool.sort_by(|a, b| reading_order(a.e, b.e));
        let pick = match o {
            Ordinal::Nth(n) if n >= 1 && n <= pool.len() => Some(pool.swap_remove(n - 1)),
            Ordinal::Last => pool.pop(),
            _ => None,
        };
        return pick.into_iter().collect();
    }
    out.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| reading_order(a.e, b.e))
    });
    out
}

/// The hits kept by a relation to `anchor` (an element, or words of the
/// page), nearest first; with an ordinal, to the n-th mention of it.
fn relate<'p>(
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
    // A control whose own name holds the anchor ("Delete old-landing", an
    // icon button's aria-label; "Remove Travel tumbler") belongs to it,
    // wherever its words stand: an icon has no words in the text at all.
    let own_name = |h: &Hit<'_>| {
        let label = cx.label_words(h.e);
        !anchor_words.is_empty()
            && *label != anchor_words
            && crate::text::has_words(&label, &anchor_words)
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

/// The hit whose number (in its label or just after it) is least / most;
/// for "the shortest" / "the longest", the duration its card shows
/// ("Duration: 5h 30m" before a "Book flight for $677" button), when the
/// hits show durations, else their numbers.
fn extreme<'p>(cx: &Cx<'p>, hits: Vec<Hit<'p>>, x: Extreme) -> Vec<Hit<'p>> {
    let best = hits.iter().map(|h| h.score).fold(0.0, f64::max);
    let hits: Vec<Hit<'p>> = hits.into_iter().filter(|h| h.score >= best * 0.6).collect();
    let minutes = if x.is_duration() {
        durations(cx, &hits)
    } else if x.is_moment() {
        moments(cx, &hits)
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

/// The duration (minutes) shown in each hit's card, in the order of
/// `hits`: the text since the previous hit (in reading order) up to its own
/// end. All or nothing: a hit without a duration means these are not cards
/// that show one.
fn durations(cx: &Cx<'_>, hits: &[Hit<'_>]) -> Option<Vec<f64>> {
    let mut placed: Vec<(usize, usize, usize)> = hits
        .iter()
        .enumerate()
        .map(|(k, h)| {
            let at = cx.layout.offset(h.index)?;
            Some((at, at + cx.layout.text_len(h.index), k))
        })
        .collect::<Option<_>>()?;
    placed.sort_by_key(|p| p.0);
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

/// "the newest article", "the earliest appointment" where the results have
/// names of their own: of the links and buttons each followed (before the
/// next one) by a moment of the same kind, at least two, the one with the
/// least / greatest. Controls that show no moment (a sidebar's links) are
/// not among them.
fn dated_extreme<'p>(
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

/// The best hit at or above the floor.
pub fn best<'p>(hits: &[Hit<'p>], floor: f64) -> Option<&'p Observed> {
    hits.first().filter(|h| h.score >= floor).map(|h| h.e)
}

/// The same control repeated in each card or row ("Select", "Choose",
/// "Add to cart": at least two, the largest such group), and of them the
/// one whose card holds the least / most price — a number with a currency
/// sign, else the card's last number. A card is the page's text from the
/// control before it to it (the words of a card come before its button).
fn repeated_extreme<'p>(cx: &Cx<'p>, x: Extreme) -> Option<Hit<'p>> {
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
            || super::unveil::is_toggle(e)
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
        .filter(|(_, v)| v.len() >= 2)
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
/// else the last number.
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
    card.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .filter_map(|w| w.trim_end_matches('.').parse().ok())
        .next_back()
}
