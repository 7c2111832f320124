//! wait 3 seconds / wait until X appears / wait for the code / "once the
//! deploy shows Live": a pause, or until the page shows something.

use super::Clause;
use crate::intent::lexicon::Lexicon;
use crate::intent::tokens::Token;
use crate::intent::{Condition, Step};

pub(super) fn parse(c: &Clause<'_>) -> Vec<Step> {
    if let Some(s) = seconds(c.rest, c.lex) {
        return vec![Step::Wait {
            seconds: Some(s),
            until: None,
        }];
    }
    let until = condition(c.rest, c.lex);
    vec![Step::Wait {
        seconds: until.is_none().then_some(1.0),
        until,
    }]
}

/// "3 seconds", "a second", "2.5 s", "a few seconds".
pub(crate) fn seconds(toks: &[Token], lex: &Lexicon) -> Option<f64> {
    for (i, t) in toks.iter().enumerate() {
        let unit = |k: usize| {
            toks.get(k)
                .and_then(|u| lex.seconds.iter().find(|(w, _)| *w == u.lower))
                .map(|(_, f)| *f)
        };
        // "3s", "500ms" in one word.
        let w = t.lower.as_str();
        let digits: String = w
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        if !digits.is_empty() {
            if let Ok(n) = digits.parse::<f64>() {
                let tail = &w[digits.len()..];
                if let Some((_, f)) = lex.seconds.iter().find(|(u, _)| *u == tail) {
                    return Some(n * f);
                }
                if tail.is_empty() {
                    if let Some(f) = unit(i + 1) {
                        return Some(n * f);
                    }
                }
            }
        }
        if let Some((_, n)) = lex.numbers.iter().find(|(x, _)| *x == w) {
            // "a few seconds", "a couple of seconds".
            let mut k = i + 1;
            while toks
                .get(k)
                .is_some_and(|x| matches!(x.lower.as_str(), "few" | "couple" | "of"))
            {
                k += 1;
            }
            let n = if k > i + 1 { 3.0 } else { *n };
            if let Some(f) = unit(k) {
                return Some(n * f);
            }
        }
    }
    None
}

/// What the wait waits for: a quoted text, the word after "says / shows /
/// is / reads / becomes", or "X appears / is shown" (X shown); "for the
/// code" (something about the code appears).
pub(crate) fn condition(toks: &[Token], lex: &Lexicon) -> Option<Condition> {
    if let Some(c) = super::until::compare(toks, lex) {
        return Some(c);
    }
    if let Some(q) = toks.iter().find(|t| t.quoted) {
        return Some(Condition::Shows(q.raw.clone()));
    }
    let ws: Vec<&str> = toks.iter().map(|t| t.lower.as_str()).collect();
    let content = |from: usize, to: usize| -> String {
        toks[from.min(to)..to]
            .iter()
            .filter(|t| {
                !lex.articles.contains(&t.lower.as_str())
                    && !matches!(
                        t.lower.as_str(),
                        "until" | "till" | "for" | "it" | "on" | "the" | "screen" | "page"
                    )
            })
            .map(|t| t.raw.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    // A change of state said with a verb of motion is a state too: "goes
    // Live", "gets green" (as the branch's conditions read them).
    let verbs = [
        "says", "shows", "reads", "becomes", "is", "turns", "displays", "changes", "goes", "gets",
    ];
    if let Some(k) = ws.iter().position(|w| verbs.contains(w)) {
        let after = content(k + 1, toks.len());
        let after = after.trim_start_matches("to ").trim().to_string();
        if !after.is_empty()
            && !matches!(
                after.as_str(),
                "shown" | "visible" | "displayed" | "there" | "ready"
            )
        {
            return Some(Condition::Shows(after));
        }
    }
    let appear = [
        "appears", "appear", "shows", "is", "comes", "loads", "arrives", "shown", "visible",
    ];
    if let Some(k) = ws.iter().position(|w| appear.contains(w)) {
        let before = content(0, k);
        if !before.is_empty() {
            return Some(Condition::Appears(before));
        }
    }
    let all = content(0, toks.len());
    (!all.is_empty()).then_some(Condition::Appears(all))
}
