//! search (for) X / look up X: the term, typed into the search field and
//! submitted. "Search the catalogue for X": the words after "for".

use super::Clause;
use crate::intent::object::is_article;
use crate::intent::{Step, Value};
use crate::task::FieldKind;

pub(super) fn parse(c: &Clause<'_>) -> Vec<Step> {
    if let Some(steps) = super::lookup::with_values(c) {
        return steps;
    }
    let rest = c.rest;
    // "search the catalogue for octopus": the term follows "for".
    let from = rest
        .iter()
        .position(|t| !t.quoted && t.lower == "for")
        .map(|k| k + 1)
        .unwrap_or(0);
    let mut rest = &rest[from.min(rest.len())..];
    // "…, thanks", "… please": courtesy at the end is no part of the term.
    loop {
        match rest {
            [head @ .., t]
                if !t.quoted && matches!(t.lower.as_str(), "thanks" | "please" | "cheers") =>
            {
                rest = head
            }
            [head @ .., t, y] if !t.quoted && t.lower == "thank" && y.lower == "you" => rest = head,
            _ => break,
        }
    }
    // "a hotel in Lisbon", "a dentist near Leeds": a thing of the page's
    // kind said with an article, then the place it is in — the place is
    // what is searched (the page already searches that kind of thing).
    let rest = in_place(rest, c).unwrap_or(rest);
    let term = rest
        .iter()
        .find(|t| t.quoted)
        .map(|t| t.raw.clone())
        .or_else(|| {
            let words: Vec<&str> = rest
                .iter()
                .skip_while(|t| !t.quoted && is_article(c.lex, &t.lower))
                .map(|t| t.raw.as_str())
                .collect();
            (!words.is_empty()).then(|| words.join(" "))
        });
    let term = term.map(|t| Value {
        transforms: c.object.transforms.clone(),
        ..Value::literal(t, FieldKind::Search, "")
    });
    vec![Step::Search { term }]
}

/// The place after "an X in / at / near": `rest` from the place on, when
/// it starts with an article, one or two lower-case words, the
/// preposition, then a capitalised word or a quote.
fn in_place<'t>(
    rest: &'t [crate::intent::tokens::Token],
    c: &Clause<'_>,
) -> Option<&'t [crate::intent::tokens::Token]> {
    let first = rest.first()?;
    if first.quoted || !is_article(c.lex, &first.lower) {
        return None;
    }
    let k = rest
        .iter()
        .position(|t| !t.quoted && matches!(t.lower.as_str(), "in" | "at" | "near"))?;
    let kind = &rest[1..k];
    let place = rest.get(k + 1)?;
    let lower = |t: &crate::intent::tokens::Token| {
        !t.quoted && !t.comma && t.raw.chars().all(|ch| ch.is_ascii_lowercase())
    };
    let named = place.quoted || place.raw.starts_with(char::is_uppercase);
    ((1..=2).contains(&kind.len()) && kind.iter().all(lower) && named).then(|| &rest[k + 1..])
}
