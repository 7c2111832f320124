//! A path through menus: "File → Download → PDF", "Margy>Rosy>Wynne",
//! "Select Shop > Women > Shoes", "the Sneakers category under Women ›
//! Shoes": the items in the order they are opened.

use super::Clause;
use crate::intent::lexicon::Lexicon;
use crate::intent::tokens::Token;
use crate::intent::{Step, Verb};

const SEPARATORS: &[char] = &['>', '→', '›', '»', '⟶', '➔', '▸'];

/// The items of a path written in these tokens, if they are one.
fn items(toks: &[Token]) -> Option<Vec<String>> {
    let text: Vec<String> = toks
        .iter()
        .map(|t| {
            if t.quoted {
                format!("\u{1}{}\u{1}", t.raw)
            } else {
                t.raw.clone()
            }
        })
        .collect();
    let text = text.join(" ");
    if !text.contains(SEPARATORS) {
        return None;
    }
    let parts: Vec<String> = text
        .split(|c| SEPARATORS.contains(&c))
        .map(|p| {
            p.replace('\u{1}', "")
                .trim()
                .trim_end_matches([',', '.', ';', '-', '='])
                .trim()
                .to_string()
        })
        .collect();
    (parts.len() >= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.split(' ').count() <= 5))
    .then_some(parts)
}

/// A clause that is nothing but a path ("File → Save").
pub(super) fn whole(c: &[Token], lex: &Lexicon) -> Option<Step> {
    if super::verb_phrase(c, lex).is_some() {
        return None;
    }
    let words: Vec<&Token> = c
        .iter()
        .skip_while(|t| !t.quoted && lex.fillers.contains(&t.lower.as_str()))
        .collect();
    let toks: Vec<Token> = words.into_iter().cloned().collect();
    items(&toks).map(|items| Step::Path { items })
}

/// A path after a verb: "Select Margy>Rosy>Wynne", "open X under A › B"
/// (then X is the last item).
pub(super) fn after_verb(c: &Clause<'_>, verb: Verb) -> Option<Step> {
    if !matches!(
        verb,
        Verb::Click | Verb::Select | Verb::Expand | Verb::Navigate | Verb::Hover
    ) {
        return None;
    }
    let rest = c.rest;
    let under = rest
        .iter()
        .position(|t| !t.quoted && matches!(t.lower.as_str(), "under" | "in" | "from" | "via"));
    if let Some(k) = under {
        if let Some(mut path) = items(&rest[k + 1..]) {
            let last: Vec<&str> = rest[..k]
                .iter()
                .filter(|t| !c.lex.articles.contains(&t.lower.as_str()))
                .filter(|t| {
                    !matches!(
                        t.lower.as_str(),
                        "category" | "menu" | "item" | "option" | "section" | "page"
                    )
                })
                .map(|t| t.raw.as_str())
                .collect();
            if !last.is_empty() {
                path.push(last.join(" "));
            }
            return Some(Step::Path { items: path });
        }
    }
    let words: Vec<Token> = rest
        .iter()
        .skip_while(|t| !t.quoted && c.lex.articles.contains(&t.lower.as_str()))
        .cloned()
        .collect();
    items(&words).map(|items| Step::Path { items })
}
