//! A sentence per step: a short request, then a sentence of its details.
//! "Could you look up my order? The order number is AB-12 and my postcode
//! is ZX1 9QQ." says what the terse "look up my order with order number
//! AB-12 and postcode ZX1 9QQ" says: the second sentence only gives the
//! values the request is done with. Read apart, the request is a step of
//! its own with nothing to do it with (a click on "look up my order"), and
//! the values a form with no step to send it. The details sentence joins
//! its request with "with".
//!
//! A detail is "the / my NOUN is VALUE", or "it says / reads / shows
//! VALUE", whose "it" is the request's thing: "send in my gas reading? It
//! says 5521" gives 5521 as the reading.

use super::super::lexicon::Lexicon;
use super::super::tokens::Token;
use super::*;

/// Verbs of a thing showing a value: "it says 5521", "the dial reads 12".
const SHOWING: &[&str] = &["says", "reads", "shows"];

pub(super) fn request_details(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    let ss = sentences(&toks);
    for w in ss.windows(2) {
        let (req, det) = (&toks[w[0].clone()], &toks[w[1].clone()]);
        if !bare_request(req, lex) {
            continue;
        }
        let Some(details) = details(det, req, lex) else {
            continue;
        };
        let mut out: Vec<Token> = toks[..w[0].end].to_vec();
        if let Some(l) = out.last_mut() {
            clear_marks(l);
        }
        out.push(word("with"));
        out.extend(details);
        out.extend(toks[w[1].end..].iter().cloned());
        return out;
    }
    toks
}

/// A request of one clause, a verb and its thing, with no value of its
/// own: no quote, number, address, comma or joined clause.
fn bare_request(s: &[Token], lex: &Lexicon) -> bool {
    // ("Please send in …": a courtesy word before the verb.)
    let f = s
        .iter()
        .take_while(|t| !t.quoted && lex.fillers.contains(&t.lower.as_str()))
        .count();
    let s = &s[f..];
    let Some((0, n, _)) = super::super::verbs::verb_phrase(s, lex) else {
        return false;
    };
    n < s.len()
        && s.iter().all(|t| {
            !t.quoted
                && !t.raw.contains('@')
                && !t.raw.chars().any(|c| c.is_ascii_digit())
                && !t.colon
        })
        && s[..s.len() - 1].iter().all(|t| !t.comma && !t.stop)
        && s[1..]
            .iter()
            .all(|t| !lex.and.contains(&t.lower.as_str()) && !lex.then.contains(&t.lower.as_str()))
}

/// The details sentence's tokens as the request's "with" part, when each
/// of its parts (split at commas and "and") is a detail; "it says V" is
/// rewritten "V as the NOUN", NOUN the request's last word.
fn details(s: &[Token], req: &[Token], lex: &Lexicon) -> Option<Vec<Token>> {
    let mut parts: Vec<std::ops::Range<usize>> = Vec::new();
    let mut start = 0;
    for (k, t) in s.iter().enumerate() {
        let joins = !t.quoted && lex.and.contains(&t.lower.as_str());
        if joins {
            // ("…, and my name is …": the comma ended the part already.)
            if k > start {
                parts.push(start..k);
            }
            start = k + 1;
        } else if t.comma || k + 1 == s.len() {
            parts.push(start..k + 1);
            start = k + 1;
        }
    }
    let mut out = Vec::with_capacity(s.len() + 2);
    let mut prev = 0;
    for p in parts {
        if p.is_empty() {
            return None;
        }
        out.extend(s[prev..p.start].iter().cloned());
        prev = p.end;
        let part = &s[p];
        if let Some(v) = shown_value(part, req, lex) {
            out.extend(v);
        } else if is_detail(part, lex) {
            out.extend(part.iter().cloned());
        } else {
            return None;
        }
    }
    Some(out)
}

/// "the confirmation code is K7Q2", "my last name is Okafor": a noun
/// phrase, "is" / "are", a value (a quote, or a word with a digit, an @ or
/// a capital).
fn is_detail(part: &[Token], lex: &Lexicon) -> bool {
    let Some(is) = part
        .iter()
        .position(|t| !t.quoted && matches!(t.lower.as_str(), "is" | "are"))
    else {
        return false;
    };
    let noun = &part[..is];
    let value = &part[is + 1..];
    let det = noun.first().is_some_and(|t| {
        !t.quoted
            && (lex.articles.contains(&t.lower.as_str())
                || lex.possessives.contains(&t.lower.as_str()))
    });
    det && noun.len() >= 2
        && noun.iter().all(|t| !t.quoted && !t.comma)
        && !value.is_empty()
        && is_value_word(&value[0])
}

/// "it says 48213 kWh" → "48213 kWh as the reading".
fn shown_value(part: &[Token], req: &[Token], lex: &Lexicon) -> Option<Vec<Token>> {
    let (first, second) = (part.first()?, part.get(1)?);
    if first.quoted || !lex.pronouns.contains(&first.lower.as_str()) || first.lower == "one" {
        return None;
    }
    if second.quoted || !SHOWING.contains(&second.lower.as_str()) {
        return None;
    }
    let value = &part[2..];
    if value.is_empty() || !is_value_word(&value[0]) {
        return None;
    }
    let noun = req.last()?;
    let mut out: Vec<Token> = value.to_vec();
    if let Some(l) = out.last_mut() {
        clear_marks(l);
    }
    out.push(word("as"));
    out.push(word("the"));
    let mut n = word(&noun.raw);
    carry_marks(&mut n, part.last()?);
    out.push(n);
    Some(out)
}

/// A value ("K7Q2", "Okafor", "lu@fern.test"): what `values::value_like`
/// takes, or an e-mail or a word with a digit inside.
fn is_value_word(t: &Token) -> bool {
    super::super::values::value_like(t)
        || t.raw.contains('@')
        || t.raw.chars().any(|c| c.is_ascii_digit())
}
