//! Which field a value goes into: by the kind the task names (username,
//! password, email…), the words that label it ("postal code", "team
//! size"), the shape of the value (a date into the date field), and for a
//! `<select>` whether one of its options is the value. A phrase whose
//! split between label and value only the page can tell ("team size 2-10")
//! is split here, against the labels of the fields on the page.

use super::context::Cx;
use super::find::{candidate, words_fit};
use super::layout::reading_order;
use super::values::{field_shape, fits_example, option_for, shape, Shape};
use crate::system2::score::field_kind;
use crate::task::FieldKind;
use crate::text::{abbreviated_words, concepts, normalize};
use sentience_snapshot_core::Observed;

/// A value as the planner places it: its text, kind and label.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    pub text: String,
    pub kind: FieldKind,
    pub label: String,
}

/// The kind of field an element is (None for what takes no typed value).
pub fn kind_of(e: &Observed) -> Option<FieldKind> {
    if e.is_select() {
        return Some(FieldKind::Other);
    }
    // `field_kind` answers None for what is not a text entry: say so before
    // building the candidate (its strings), since this runs on every
    // element of the page for each value to place.
    if !e.is_text_entry() {
        return None;
    }
    field_kind(&candidate(e))
}

/// A password field: by its type, or (a producer without DOM facts) by its words.
pub fn is_password(e: &Observed) -> bool {
    e.facts.input_type == "password"
        || e.facts.input_type.is_empty() && kind_of(e) == Some(FieldKind::Password)
}

/// How well a field suits a value: kind, label words, shape, options.
pub fn fit(v: &Placed, e: &Observed) -> f64 {
    let Some(kind) = kind_of(e) else {
        return 0.0;
    };
    let password_field = is_password(e);
    if (v.kind == FieldKind::Password) != password_field
        && (password_field || v.kind == FieldKind::Password)
    {
        return 0.0;
    }
    let mut s: f64 = match (v.kind, kind) {
        (a, b) if a == b && a != FieldKind::Other => 1.0,
        (FieldKind::Username, FieldKind::Email) => 0.7,
        (FieldKind::Email, FieldKind::Username) => 0.6,
        (FieldKind::Other, _) | (_, FieldKind::Other) => 0.3,
        _ => 0.05,
    };
    // A site's search box is for searching: a value the task does not
    // name as a query ("Post "Lifts at 7:30"") goes into a field of the
    // page's own forms (the post composer) before it.
    if kind == FieldKind::Search && v.kind != FieldKind::Search && v.label.is_empty() {
        s *= 0.5;
    }
    // The words of the label ("postal code" → "Postal code").
    let label = normalize(&v.label);
    if !label.is_empty() {
        let fit = words_fit(&normalize(&e.descriptors()), &label)
            .max(words_fit(&normalize(e.label()), &label))
            .max(short_fit(e, &label));
        let common = concepts(&v.label)
            .iter()
            .filter(|w| w.len() > 1)
            .filter(|w| concepts(&e.descriptors()).contains(w))
            .count();
        s += 0.8 * fit + if common > 0 { 0.3 } else { 0.0 };
    }
    // The two ends of a range ("from 12/03 to 12/07", "pick-up …, return
    // …") go to the fields of their roles: the start to From / Pick-up /
    // Check-in / Min, the end to To / Return / Check-out / Max; never the
    // other end's field.
    if let Some(side) = range_side(&v.label) {
        match range_side(e.label()).or_else(|| range_side(&e.descriptors())) {
            Some(f) if f == side => s += 0.6,
            Some(_) => s *= 0.3,
            None => {}
        }
    }
    // The value in the form the field's example shows ("e.g. 1234-5678").
    if fits_example(e, &v.text) {
        s += 0.6;
    }
    // The value's shape against the field's.
    let vs = shape(&v.text);
    match field_shape(e) {
        Some(fs) if fs == vs => s += 0.6,
        // A year is part of a date: "from year 2011" into "Released Date".
        Some(Shape::Date) if is_year(&v.text) => {}
        Some(Shape::Date | Shape::Time | Shape::Number | Shape::Email) => s *= 0.2,
        _ => {}
    }
    if e.is_select() {
        if option_for(e, &v.text).is_some() {
            s += 0.7;
        } else {
            return 0.0;
        }
    }
    s
}

/// How well a label the page writes short names the task's words
/// ("Acct. no." for "account number", "ABA / RTN" for "routing number"):
/// the share of the words it says, whole or abbreviated, a little below
/// the same words written out.
fn short_fit(e: &Observed, label: &str) -> f64 {
    let words: Vec<&str> = label.split(' ').filter(|w| !w.is_empty()).collect();
    if words.is_empty() {
        return 0.0;
    }
    abbreviated_words(e.label(), &words).map_or(0.0, |n| 0.9 * n as f64 / words.len() as f64)
}

/// Four digits that read as a year (1000–2999).
fn is_year(t: &str) -> bool {
    let t = t.trim();
    t.len() == 4 && t.bytes().all(|b| b.is_ascii_digit()) && matches!(t.as_bytes()[0], b'1' | b'2')
}

/// The best free field for a value (not one that took another value).
pub fn field_for<'p>(cx: &Cx<'p>, v: &Placed, taken: &[&Observed]) -> Option<&'p Observed> {
    let mut best: Option<(f64, &Observed)> = None;
    for e in cx
        .page
        .elements
        .iter()
        .filter(|e| e.is_field() && !e.is_disabled())
    {
        if taken.iter().any(|t| std::ptr::eq(*t, e)) || cx.avoided(e) {
            continue;
        }
        let s = fit(v, e);
        if s >= 0.3 && best.is_none_or(|(b, be)| s > b || s == b && reading_order(e, be).is_lt()) {
            best = Some((s, e));
        }
    }
    best.map(|(_, e)| e)
}

/// The field that holds this value already (its value, or typed into on
/// this page), if any.
pub fn entered<'p>(cx: &Cx<'p>, text: &str) -> Option<&'p Observed> {
    if text.is_empty() {
        return None;
    }
    cx.page
        .elements
        .iter()
        .filter(|e| e.is_field())
        .find(|e| super::values::shows(e, text))
        .or_else(|| {
            cx.history
                .iter()
                .rev()
                .find(|h| {
                    h.action == "type"
                        && h.param_str("text").is_some_and(|t| {
                            t == text
                                || super::values::shape(t) == super::values::shape(text)
                                    && normalize(t) == normalize(text)
                        })
                        && h.success != Some(false)
                        && h.url.as_deref() == Some(cx.page.url.as_str())
                })
                .and_then(|h| h.element_id())
                .and_then(|id| cx.page.find(&id))
        })
}

/// A phrase split against the page: the field whose label is its leading
/// words, and the words after them as the value ("team size 2-10" → Team
/// size, "2-10"; "expiry 08/27" → Expiry (MM/YY), "08/27").
pub fn split_phrase<'p>(
    cx: &Cx<'p>,
    phrase: &str,
    taken: &[&Observed],
) -> Option<(&'p Observed, String)> {
    let words: Vec<&str> = phrase.split_whitespace().collect();
    let mut best: Option<(f64, usize, &Observed)> = None;
    for e in cx
        .page
        .elements
        .iter()
        .filter(|e| e.is_field() && !e.is_disabled())
    {
        if taken.iter().any(|t| std::ptr::eq(*t, e)) || cx.avoided(e) {
            continue;
        }
        let label = normalize(&e.descriptors());
        if label.is_empty() {
            continue;
        }
        // The prefix that best names the field (the shortest of equals:
        // "description" of "description The export…", not "description
        // The"; "topic" of "topic Brand refresh", not "topic Brand").
        for n in (1..words.len()).rev() {
            let head = normalize(&words[..n].join(" "));
            let f = words_fit(&label, &head)
                .max(words_fit(&normalize(e.label()), &head))
                .max(short_fit(e, &head));
            if f < 0.5 {
                continue;
            }
            let value = words[n..].join(" ");
            if e.is_select() && option_for(e, &value).is_none() {
                continue;
            }
            let s = f - n as f64 * 0.001;
            if best.is_none_or(|(b, _, _)| s > b) {
                best = Some((s, n, e));
            }
        }
        // Or its last words name the field: "Billing category", "High priority".
        for n in 1..words.len() {
            let tail = normalize(&words[n..].join(" "));
            let f = words_fit(&label, &tail).max(words_fit(&normalize(e.label()), &tail));
            let value = words[..n].join(" ");
            if f < 0.5 || e.is_select() && option_for(e, &value).is_none() {
                continue;
            }
            // Negative n: the value is the head (see below).
            let s = f - (words.len() - n) as f64 * 0.001;
            if best.is_none_or(|(b, _, _)| s > b) {
                best = Some((s, words.len() + n, e));
            }
        }
    }
    // n < len: the label is words[..n], the value after; n > len: the
    // value is words[..n - len], the label after.
    best.map(|(_, n, e)| {
        if n < words.len() {
            (e, words[n..].join(" "))
        } else {
            (e, words[..n - words.len()].join(" "))
        }
    })
}

/// A `<select>` among `fields` one of whose options the phrase names.
pub fn select_naming<'p>(
    cx: &Cx<'p>,
    phrase: &str,
    taken: &[&Observed],
) -> Option<(&'p Observed, String)> {
    cx.page
        .elements
        .iter()
        .filter(|e| e.is_select() && !e.is_disabled())
        .filter(|e| !taken.iter().any(|t| std::ptr::eq(*t, *e)))
        .find_map(|e| {
            // The whole phrase, or the phrase without its last word ("the
            // Monthly digest option" → "Monthly digest").
            let ws: Vec<&str> = phrase.split_whitespace().collect();
            let named = word_runs(&ws).find_map(|(_, run)| option_for(e, &run));
            named
                .filter(|o| normalize(o).split(' ').count() <= ws.len() + 2)
                .map(|o| (e, o))
        })
}

/// The runs of consecutive words of `ws`, longest first, each with its
/// length: how a phrase may name an option with words around it ("the
/// Monthly digest option" → "Monthly digest").
fn word_runs<'w>(ws: &'w [&str]) -> impl Iterator<Item = (usize, String)> + 'w {
    (1..=ws.len())
        .rev()
        .flat_map(move |n| (0..=ws.len() - n).map(move |s| (n, ws[s..s + n].join(" "))))
}

/// The radio button a value or phrase names as one option of its group,
/// read like a `<select>`'s options (`values::option_among`): a radio
/// group is a select laid out flat, and design systems draw its inputs
/// invisible beside labels written as short as a select's options ("SAV"
/// for "savings account", "P2 – High" for "high priority"). A group is
/// the enabled radios sharing a `name` (what makes them one group in
/// HTML), two at least. The whole phrase first, then its runs of words,
/// longest first (as `select_naming`); the one radio of all groups, none
/// when two groups offer it.
pub fn radio_naming<'p>(cx: &Cx<'p>, phrase: &str, taken: &[&Observed]) -> Option<&'p Observed> {
    use sentience_snapshot_core::SelectOption;
    let radios: Vec<&'p Observed> = cx
        .page
        .elements
        .iter()
        .filter(|e| {
            (e.role() == crate::page::Role::Radio || e.facts.input_type == "radio")
                && !e.facts.name.is_empty()
                && !e.is_disabled()
                && !cx.avoided(e)
                && !taken.iter().any(|t| std::ptr::eq(*t, *e))
        })
        .collect();
    let mut names: Vec<&str> = radios.iter().map(|e| e.facts.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    // Each group with its labels as a select's options, built once.
    let groups: Vec<(Vec<&'p Observed>, Vec<SelectOption>)> = names
        .iter()
        .map(|name| {
            radios
                .iter()
                .copied()
                .filter(|e| e.facts.name == *name)
                .collect::<Vec<_>>()
        })
        .filter(|group| group.len() >= 2)
        .map(|group| {
            let opts = group
                .iter()
                .map(|e| SelectOption {
                    text: e.label().to_string(),
                    value: String::new(),
                    selected: false,
                })
                .collect();
            (group, opts)
        })
        .collect();
    let ws: Vec<&str> = phrase.split_whitespace().collect();
    let mut runs = word_runs(&ws).peekable();
    while let Some(&(n, _)) = runs.peek() {
        // The runs of this length, every group: one radio named, or none.
        let mut hits: Vec<&'p Observed> = Vec::new();
        let this_length: Vec<String> = std::iter::from_fn(|| runs.next_if(|(m, _)| *m == n))
            .map(|(_, run)| run)
            .collect();
        for (group, opts) in &groups {
            for run in &this_length {
                let Some(o) = super::values::option_among(opts, run)
                    .filter(|o| normalize(o).split(' ').count() <= ws.len() + 2)
                else {
                    continue;
                };
                let mut same = group.iter().filter(|e| e.label() == o);
                if let (Some(e), None) = (same.next(), same.next()) {
                    if !hits.iter().any(|h| std::ptr::eq(*h, *e)) {
                        hits.push(e);
                    }
                }
            }
        }
        match hits.as_slice() {
            [one] => return Some(one),
            [] => {}
            _ => return None,
        }
    }
    None
}

/// Which end of a range words name: `Some(true)` the start ("from",
/// "start date", "pick-up", "check-in", "departure", "min"), `Some(false)`
/// the end ("to", "until", "return", "check-out", "max"); None for
/// neither or both ("Dates").
pub fn range_side(words: &str) -> Option<bool> {
    const START: &[&str] = &[
        "from",
        "start",
        "starts",
        "starting",
        "begin",
        "begins",
        "pick",
        "pickup",
        "checkin",
        "depart",
        "departure",
        "departing",
        "earliest",
        "min",
        "minimum",
        "first",
        "since",
    ];
    const END: &[&str] = &[
        "to",
        "until",
        "till",
        "through",
        "end",
        "ends",
        "ending",
        "return",
        "returning",
        "drop",
        "dropoff",
        "checkout",
        "latest",
        "max",
        "maximum",
        "last",
    ];
    let n = normalize(words);
    let ws: Vec<&str> = n.split(' ').filter(|w| !w.is_empty()).collect();
    let mut start = false;
    let mut end = false;
    for (k, w) in ws.iter().enumerate() {
        // "check in" / "check out" written as two words.
        let w = match (*w, ws.get(k + 1)) {
            ("check", Some(&"in")) => "checkin",
            ("check", Some(&"out")) => "checkout",
            (w, _) => w,
        };
        start |= START.contains(&w);
        end |= END.contains(&w);
    }
    match (start, end) {
        (true, false) => Some(true),
        (false, true) => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod range_tests {
    use super::range_side;

    #[test]
    fn range_sides_of_labels() {
        assert_eq!(range_side("from"), Some(true));
        assert_eq!(range_side("Check-in"), Some(true));
        assert_eq!(range_side("Check out date"), Some(false));
        assert_eq!(range_side("Drop-off date"), Some(false));
        assert_eq!(range_side("Max price"), Some(false));
        assert_eq!(range_side("Departure"), Some(true));
        assert_eq!(range_side("Dates"), None);
        assert_eq!(range_side("Start and end"), None);
    }
}
