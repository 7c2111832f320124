//! A number set on a quantity stepper: a "−" and a "+" button (or
//! "Decrease" / "Increase", "Remove a seat" / "Add a seat") side by side
//! around the number they change ("− 5 seats +"), no box to type into.
//! A person clicks "+" or "−" until the number shown is the one asked;
//! so does the planner, one click per decision, reading the number anew
//! each time. The stepper is the one whose words — its row's text before
//! it, the unit after its number, its buttons' names — share a word with
//! the value's label or the thing it is for ("seats to 7", "Merino trail
//! socks to 3"); else the page's only stepper, when the label says no more
//! than "quantity" / "number".

use super::Place;
use crate::intent::Target;
use crate::planner::context::{ok, Cx};
use crate::planner::steps::Outcome;
use crate::text::{concepts, normalize};
use crate::types::Tool;
use sentience_snapshot_core::Observed;

/// Clicks on one stepper's buttons before the planner stops trying (a
/// stepper capped below the number asked does not move).
const MAX_CLICKS: usize = 30;

/// First words of a button that lowers / raises the number.
const DOWN: &[&str] = &[
    "decrease",
    "decrement",
    "remove",
    "minus",
    "fewer",
    "less",
    "subtract",
    "reduce",
];
const UP: &[&str] = &["increase", "increment", "add", "plus", "more"];

/// Labels that name no thing, only that a count is meant.
const COUNT: &[&str] = &["quantity", "qty", "number", "count", "amount", "total"];

/// A minus sign as buttons and texts write it (dashes included).
fn is_minus(t: &str) -> bool {
    matches!(t, "−" | "-" | "–" | "‒" | "﹣" | "➖")
}

/// A plus sign as buttons and texts write it.
fn is_plus(t: &str) -> bool {
    matches!(t, "+" | "＋" | "➕")
}

fn way(e: &Observed) -> Option<bool> {
    let raw = e.text().trim();
    if is_minus(raw) {
        return Some(false);
    }
    if is_plus(raw) {
        return Some(true);
    }
    let first = normalize(e.label());
    let first = first.split(' ').next().unwrap_or_default();
    if DOWN.contains(&first) {
        Some(false)
    } else if UP.contains(&first) {
        Some(true)
    } else {
        None
    }
}

/// A stepper on the page: its two buttons, the number it shows and its words.
struct Stepper<'p> {
    down: &'p Observed,
    up: &'p Observed,
    now: f64,
    words: String,
}

/// The page's steppers in reading order: each "−" with the "+" nearest to
/// its right on the same line, and the k-th "<sign> <number> [unit] +" of
/// the page's text as its number (all or none: a count that differs means
/// the text does not show them as pairs).
fn steppers<'p>(cx: &Cx<'p>) -> Vec<Stepper<'p>> {
    let buttons: Vec<(&Observed, bool)> = cx
        .page
        .elements
        .iter()
        .filter(|e| !e.is_field() && !e.is_checkable())
        .filter_map(|e| Some((e, way(e)?)))
        .collect();
    let mut pairs: Vec<(&Observed, &Observed)> = Vec::new();
    for &(d, up) in &buttons {
        if up {
            continue;
        }
        let (db, line) = (
            &d.element.bbox,
            d.element.bbox.y + d.element.bbox.height / 2.0,
        );
        let partner = buttons
            .iter()
            .filter(|(u, up)| *up && !std::ptr::eq(*u, d))
            .filter(|(u, _)| {
                let ub = &u.element.bbox;
                (ub.y + ub.height / 2.0 - line).abs() <= db.height.max(ub.height) / 2.0
                    && ub.x > db.x
                    && ub.x - (db.x + db.width) < 240.0
            })
            .min_by(|a, b| a.0.element.bbox.x.total_cmp(&b.0.element.bbox.x));
        if let Some(&(u, _)) = partner {
            pairs.push((d, u));
        }
    }
    pairs.sort_by(|a, b| crate::planner::layout::reading_order(a.0, b.0));
    let shown = numbers_between_signs(&cx.page.visible_text);
    if pairs.is_empty() || shown.len() != pairs.len() {
        return Vec::new();
    }
    pairs
        .into_iter()
        .zip(shown)
        .map(|((down, up), (now, before))| Stepper {
            down,
            up,
            now,
            words: format!("{before} {} {}", down.label(), up.label()),
        })
        .collect()
}

/// Each "<minus> <number> [up to two words] <plus>" of the text: the
/// number, and the words since the previous one (the row's name, the
/// number's unit).
fn numbers_between_signs(text: &str) -> Vec<(f64, String)> {
    let toks: Vec<&str> = text.split_whitespace().collect();
    let mut out = Vec::new();
    let mut from = 0;
    let mut i = 0;
    while i + 2 < toks.len() {
        let number: Option<f64> = toks[i + 1].replace(',', "").parse().ok();
        if let (true, Some(n)) = (is_minus(toks[i]), number) {
            if let Some(k) = (i + 2..(i + 5).min(toks.len())).find(|&k| is_plus(toks[k])) {
                let unit = toks[i + 2..k].join(" ");
                let start = from.max(i.saturating_sub(12));
                out.push((n, format!("{} {unit}", toks[start..i].join(" "))));
                from = k + 1;
                i = k + 1;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// `None` when the value is not a number or no stepper is meant.
pub(super) fn place<'p>(
    cx: &Cx<'p>,
    text: &str,
    label: &str,
    field: &Target,
    taken: &[&'p Observed],
) -> Option<Place<'p>> {
    let want: f64 = text.trim().parse().ok()?;
    let all = steppers(cx);
    if all.is_empty() {
        return None;
    }
    let mut said = label.to_string();
    for w in [&field.text, &field.relation.as_ref().map(|r| r.1.clone())]
        .into_iter()
        .flatten()
    {
        said.push(' ');
        said.push_str(w);
    }
    // A box to type the number into, named as the task names it, is the
    // field ("Quantity [ 1 ]" beside a stepper of another line).
    let said_all = concepts(&said);
    let boxed = cx.page.elements.iter().any(|e| {
        e.is_text_entry()
            && !e.is_disabled()
            && concepts(e.label()).iter().any(|c| said_all.contains(c))
    });
    if boxed {
        return None;
    }
    let want_words: Vec<String> = concepts(&said)
        .into_iter()
        .filter(|c| !COUNT.contains(&c.as_str()))
        .collect();
    let free = |s: &&Stepper<'_>| !taken.iter().any(|t| std::ptr::eq(*t, s.up));
    let s = if want_words.is_empty() {
        match all.as_slice() {
            [one] => one,
            _ => return None,
        }
    } else {
        all.iter()
            .filter(free)
            .map(|s| {
                let have = concepts(&s.words);
                (want_words.iter().filter(|w| have.contains(w)).count(), s)
            })
            .filter(|(n, _)| *n > 0)
            .max_by_key(|(n, _)| *n)?
            .1
    };
    if (want - s.now).abs() < 1e-9 {
        return Some(Place::Done(Some(s.up)));
    }
    let clicks = cx
        .history
        .iter()
        .filter(|h| h.action == "click" && ok(h) && (cx.on(h, s.up) || cx.on(h, s.down)))
        .count();
    if clicks >= MAX_CLICKS {
        return Some(Place::Act(Outcome::Stuck(format!(
            "the stepper stays at {}, not {text}",
            s.now
        ))));
    }
    let e = if want > s.now { s.up } else { s.down };
    Some(Place::Act(Outcome::Act(Tool::Click { id: cx.id(e) })))
}

#[cfg(test)]
mod tests {
    use super::numbers_between_signs;

    #[test]
    fn the_number_between_a_minus_and_a_plus() {
        let got = numbers_between_signs(
            "Merino trail socks − 1 + £18.00 Packable rain jacket − 2 + £90.00",
        );
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].0, 1.0);
        assert!(got[0].1.contains("Merino trail socks"));
        assert_eq!(got[1].0, 2.0);
        assert!(got[1].1.contains("Packable rain jacket"));
        assert!(!got[1].1.contains("Merino"));
        let seats =
            numbers_between_signs("Seats You have 5 members. − 5 seats + New monthly total: $200");
        assert_eq!(seats.len(), 1);
        assert_eq!(seats[0].0, 5.0);
        assert!(seats[0].1.ends_with("seats"));
        // A range or a sum is no stepper.
        assert!(numbers_between_signs("5 - 3 = 2 and 1 + 1").is_empty());
    }
}
