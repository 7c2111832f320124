//! Resolving a target ("the 2nd button", link "ut.", a "textarea" widget,
//! the field below "Email", "Add to cart" for the tumbler, the cheapest
//! option) to elements of the page. Text and role decide which elements
//! qualify; relations, positions and extremes pick among them; the System 2
//! scores of docs/contracts/system2.md §7 (discoverability,
//! understandability, relevance) order the ones that match equally well.

mod extreme;
mod measure;
mod relate;

use super::context::Cx;
use super::layout::reading_order;
use crate::intent::{Ordinal, Role, Target};
use crate::page::Role as R;
use crate::system2::score::{combine, discoverability, understandability, Candidate, UserContext};
use crate::text::{concepts, normalize};
use extreme::{dated_extreme, extreme, repeated_extreme};
use relate::relate;
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
    // A plain text box the engine calls a searchbox (it sits in a
    // `role="search"` form or a `<search>` element: docs/contracts/snapshot.md
    // roles) is a search field though its type says "text": library and shop
    // search bars name such a box only by a placeholder ("Title, author or
    // subject") and their button by an icon, so nothing else says "search".
    let kind = if e.facts.tag == "input"
        && matches!(e.facts.input_type.as_str(), "" | "text")
        && e.role() == sentience_snapshot_core::Role::Searchbox
    {
        "searchbox".into()
    } else if !e.facts.input_type.is_empty() && e.facts.tag == "input" {
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
#[derive(Clone, Copy)]
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
        // The control each card repeats ("Select" in each, "Enroll" in
        // every row), by what each card shows (`extreme.rs`): worked out
        // once, when one of the two cases below asks for it.
        let once = std::cell::OnceCell::new();
        let repeated = || *once.get_or_init(|| repeated_extreme(cx, x));
        // The target names that control (among other things: "sign up"
        // names "Register" too), for an extreme of a count or an amount:
        // each card's words before it hold what is compared ("17 of 40
        // left Enroll"), not the words after it (the next card's).
        let by_count = !(x.is_duration() || x.is_moment() || x.is_distance());
        let named = |h: &Hit<'p>| out.iter().any(|o| o.index == h.index && o.score >= FLOOR);
        if let Some(h) = by_count.then(repeated).flatten().filter(named) {
            return vec![h];
        }
        // "the cheapest plan" where no element is a plan: the cards' own
        // control, by the price in each card. A rating is read from the
        // cards whatever names them ("the hotel with the highest guest
        // rating": a hotel's name is no card's control, its "See
        // availability" is).
        if unveiled || x.is_rating() || !out.iter().any(|h| h.score >= FLOOR) {
            if let Some(h) = repeated() {
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

/// The best hit at or above the floor.
pub fn best<'p>(hits: &[Hit<'p>], floor: f64) -> Option<&'p Observed> {
    hits.first().filter(|h| h.score >= floor).map(|h| h.e)
}
