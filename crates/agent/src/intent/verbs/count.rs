//! Counts with units ("get 2 Balcony Reserved tickets", "for 3 adults
//! and 1 child"): each a number for the control of the row its words
//! name — a stepper, a number box, a select (`planner/steps/fill/stepper.rs`
//! and the fill's placing) — not words to type or a button to find.

use super::Clause;
use crate::intent::object::parse_object;
use crate::intent::tokens::Token;
use crate::intent::{Step, Target, Value};
use crate::task::FieldKind;

/// Words that end a count's unit: what follows says something else
/// ("for the show", "on Friday", "at 7 PM").
const ENDS: &[&str] = &[
    "for", "on", "at", "from", "in", "to", "with", "by", "before", "after", "until", "please",
];

/// Units of time: "for 3 nights" is how long, not a count of things.
const TIME: &[&str] = &[
    "night", "nights", "day", "days", "hour", "hours", "minute", "minutes", "week", "weeks",
    "month", "months", "year", "years", "second", "seconds",
];

/// The number a word says: digits (at most three, not a price or a year)
/// or a number word ("two"); "a" and "an" are articles here.
fn number(t: &Token, c: &Clause<'_>) -> Option<String> {
    if t.quoted {
        return None;
    }
    let w = t.lower.as_str();
    if !w.is_empty() && w.len() <= 3 && w.bytes().all(|b| b.is_ascii_digit()) {
        return Some(w.trim_start_matches('0').to_string()).filter(|s| !s.is_empty());
    }
    if matches!(w, "a" | "an" | "few" | "couple") {
        return None;
    }
    let (_, n) = c.lex.numbers.iter().find(|(x, _)| *x == w)?;
    Some(format!("{n}"))
}

/// "N unit [and M unit …]" making up all of `toks`: one value per count,
/// labelled by its unit's words ("Balcony Reserved tickets", "adults").
fn counts(toks: &[Token], c: &Clause<'_>) -> Option<Vec<Value>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let n = number(&toks[i], c)?;
        let mut words: Vec<&str> = Vec::new();
        i += 1;
        while i < toks.len() {
            let t = &toks[i];
            if !t.quoted && (t.lower == "and" || ENDS.contains(&t.lower.as_str())) {
                break;
            }
            // "two of the $65 seats": the glue between number and unit.
            let glue = !t.quoted && matches!(t.lower.as_str(), "of" | "the" | "x");
            if !(glue && words.is_empty()) {
                words.push(&t.raw);
            }
            i += 1;
            if t.comma || t.stop {
                break;
            }
        }
        if words.is_empty() || words.len() > 5 {
            return None;
        }
        if words
            .iter()
            .any(|w| TIME.contains(&w.to_lowercase().as_str()))
        {
            return None;
        }
        out.push(Value::literal(n, FieldKind::Other, words.join(" ")));
        if toks.get(i).is_some_and(|t| t.lower == "and") {
            i += 1;
        } else if i < toks.len() {
            return None;
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The steps of a clause whose object is counts: "get / buy / order /
/// book / reserve N X" sets each count (then sends, but for "get", whose
/// sending a later clause says: "and check out"); "search … for 3 adults
/// and 1 child" sets the counts, then searches for the rest.
pub(super) fn parse(c: &Clause<'_>) -> Option<Vec<Step>> {
    let verb = c.phrase.first()?;
    let fill = |values| Step::Fill {
        values,
        field: Target::default(),
    };
    if matches!(
        *verb,
        "get" | "buy" | "order" | "book" | "reserve" | "purchase"
    ) {
        let values = counts(c.rest, c)?;
        let mut steps = vec![fill(values)];
        if *verb != "get" {
            steps.push(Step::Submit {
                phrase: c.phrase.join(" "),
                button: None,
            });
        }
        return Some(steps);
    }
    if *verb == "search" {
        let at = c.rest.iter().rposition(|t| !t.quoted && t.lower == "for")?;
        let values = counts(&c.rest[at + 1..], c)?;
        let rest = &c.rest[..at];
        let before = Clause {
            phrase: c.phrase.clone(),
            rest,
            object: parse_object(rest, c.lex),
            lex: c.lex,
            said: c.said,
        };
        let mut steps = vec![fill(values)];
        steps.extend(super::search::parse(&before));
        return Some(steps);
    }
    None
}
