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
