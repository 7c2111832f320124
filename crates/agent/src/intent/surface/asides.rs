//! What a polite request says around its steps that is no part of any
//! step (issue 23, "tasks said the way people say them"):
//!
//! - who the request is for: "delete the project for me", "search hotels
//!   for us", "build me a pizza", "find us a table" (a benefactive: the
//!   speaker, never a thing on the page nor a value);
//! - why it is asked, said after it: "delete X, it is not used any more",
//!   "cancel the order; they are too late" (a statement about a pronoun
//!   with no value in it: a reason, not a step nor a field's value).
//!
//! Both are dropped, the clause marks carried, so the request reads as its
//! terse form ("delete the project", "build a pizza").

use super::super::lexicon::Lexicon;
use super::super::tokens::Token;
use super::*;

/// The speaker as a benefactive: "for me", "for us".
const SPEAKER: &[&str] = &["me", "us", "myself", "ourselves"];

/// Forms of "to be" after a pronoun subject, and the subject and verb in
/// one word.
const BE: &[&str] = &["is", "are", "was", "were", "isn't", "aren't", "wasn't"];
const SUBJECT_BE: &[&str] = &["it's", "they're", "that's", "this's"];
const SUBJECT: &[&str] = &["it", "they", "this", "that", "these", "those"];

/// "for me" / "for us" after the words of a request, and "me" / "us"
/// between a clause's verb and the article of its object ("build me a
/// pizza"): dropped. "make me an admin" keeps its "me" (a person given a
/// property: `verbs/property.rs`), and "for me" before a value ("find a
/// flight for me to Oslo") only loses its pronoun.
pub(super) fn benefactives(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let speaker = |k: usize| {
            toks.get(k)
                .is_some_and(|t| !t.quoted && SPEAKER.contains(&t.lower.as_str()))
        };
        // "… for me": the "for" and the pronoun.
        if !t.quoted
            && t.lower == "for"
            && !t.comma
            && !t.colon
            && !t.stop
            && speaker(i + 1)
            && !out.is_empty()
        {
            if let Some(p) = out.last_mut() {
                let s = &toks[i + 1];
                p.comma |= s.comma;
                p.colon |= s.colon;
                p.stop |= s.stop;
            }
            i += 2;
            continue;
        }
        // "build me a pizza": the first word of a clause, the speaker, an
        // article.
        if speaker(i)
            && i > 0
            && starts_clause(&toks, i - 1, lex)
            && !toks[i - 1].quoted
            && !toks[i - 1].comma
            && !toks[i - 1].stop
            && !matches!(toks[i - 1].lower.as_str(), "make" | "let" | "for" | "to" | "with")
            && !t.comma
            && !t.stop
            && toks
                .get(i + 1)
                .is_some_and(|n| !n.quoted && matches!(n.lower.as_str(), "a" | "an" | "the"))
        {
            i += 1;
            continue;
        }
        out.push(t.clone());
        i += 1;
    }
    out
}

/// A segment after a request (after , ; or a sentence's end) that is a
/// statement about a pronoun with no value in it: "it is not used any
/// more", "they're too old". A value (a quote, a digit, a capitalised
/// word: a name) keeps the segment ("it is under File, then Download" says
/// where).
pub(super) fn reasons(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    let segs = segments(&toks);
    let mut drop = vec![false; toks.len()];
    for (n, seg) in segs.iter().enumerate() {
        if n == 0 {
            continue;
        }
        let s = &toks[seg.clone()];
        let ws: Vec<&str> = s.iter().map(|t| t.lower.as_str()).collect();
        // What the pronoun is said to be: "not used any more", "too old"
        // (a reason); "a current account" (an article: what kind of thing,
        // a choice the form wants) keeps the segment.
        let said = match ws.as_slice() {
            [w, rest @ ..] if SUBJECT_BE.contains(w) => Some(rest),
            [w, b, rest @ ..] if SUBJECT.contains(w) && BE.contains(b) => Some(rest),
            _ => None,
        };
        let statement = said.is_some_and(|r| {
            r.first()
                .is_some_and(|w| !matches!(*w, "a" | "an" | "the" | "my" | "our" | "your"))
        });
        if !statement || s.iter().any(|t| t.quoted) {
            continue;
        }
        let value = s.iter().skip(1).any(|t| {
            t.raw.chars().any(|c| c.is_ascii_digit()) || t.raw.chars().next().is_some_and(char::is_uppercase)
        });
        // Only after a request, and never a clause the next one goes on
        // ("it is X, then click it"): the segment ends the sentence or the
        // task, and holds no verb of the lexicon after its subject.
        let ends = seg.end == toks.len() || toks[seg.end - 1].stop;
        let verb = (1..s.len()).any(|k| {
            !s[k].quoted
                && super::super::verbs::verb_phrase(&s[k..], lex).is_some_and(|(v, _, _)| v == 0)
        });
        if !value && ends && !verb {
            for d in &mut drop[seg.clone()] {
                *d = true;
            }
        }
    }
    if !drop.iter().any(|d| *d) {
        return toks;
    }
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    for (k, t) in toks.into_iter().enumerate() {
        if drop[k] {
            if let Some(p) = out.last_mut() {
                p.stop |= t.stop;
            }
            continue;
        }
        out.push(t);
    }
    out
}

/// Words that open a request said as a question or a plea.
const PLEA: &[&str] = &["could", "can", "would", "will", "please"];

/// A dash standing alone before a request ("we are three adults - could
/// you search…", "the key leaked — revoke it"): it ends what was said
/// before, as a full stop would. A dash between values ("12/03 – 12/07")
/// is a range and stays.
pub(super) fn dashes(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    for (i, t) in toks.iter().enumerate() {
        let dash = !t.quoted && matches!(t.raw.as_str(), "-" | "–" | "—");
        let request = toks.get(i + 1).is_some_and(|n| {
            !n.quoted
                && (PLEA.contains(&n.lower.as_str())
                    || super::super::verbs::verb_phrase(&toks[i + 1..], lex)
                        .is_some_and(|(v, _, _)| v == 0))
        });
        if dash && request && !out.is_empty() {
            if let Some(p) = out.last_mut() {
                p.stop = true;
            }
            continue;
        }
        out.push(t.clone());
    }
    out
}

/// Who "we" are, said as a statement of counts: "we are three adults and
/// a child", "there will be 2 adults, 1 infant" — each count is the value
/// of the field its noun names, as "set adults to 3 and child to 1". The
/// whole sentence must be the counts (anything else keeps its reading: a
/// statement before a request is `context.rs`'s).
pub(super) fn parties(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        if i == 0 || toks[i - 1].stop {
            if let Some((n, words)) = party(&toks[i..], lex) {
                out.extend(words);
                i += n;
                continue;
            }
        }
        out.push(toks[i].clone());
        i += 1;
    }
    out
}

/// Openings of a statement of who is coming.
const PARTY: &[&[&str]] = &[
    &["we", "are"],
    &["we're"],
    &["we", "will", "be"],
    &["there", "are"],
    &["there", "will", "be"],
    &["there's"],
];

fn party(toks: &[Token], lex: &Lexicon) -> Option<(usize, Vec<Token>)> {
    let end = toks.iter().position(|t| t.stop).map_or(toks.len(), |k| k + 1);
    let s = &toks[..end];
    if s.iter().any(|t| t.quoted || t.colon) {
        return None;
    }
    let ws: Vec<&str> = s.iter().map(|t| t.lower.as_str()).collect();
    let open = PARTY.iter().find(|p| ws.starts_with(p))?.len();
    let number = |w: &str| {
        (!w.is_empty() && w.chars().all(|c| c.is_ascii_digit()))
            .then(|| w.to_string())
            .or_else(|| {
                lex.numbers
                    .iter()
                    .find(|(x, _)| *x == w)
                    .map(|(_, n)| format!("{n}"))
            })
    };
    let mut counts: Vec<(String, &Token)> = Vec::new();
    let mut k = open;
    while k < s.len() {
        if k > open && (lex.and.contains(&ws[k]) || ws[k] == "plus") {
            k += 1;
            continue;
        }
        let n = number(ws[k])?;
        let noun = s.get(k + 1)?;
        // A noun, as written lowercase: "three adults", not "3 Main St".
        if noun.raw.chars().any(|c| !c.is_alphabetic()) || number(&noun.lower).is_some() {
            return None;
        }
        if s[k].comma || s[k].stop {
            return None;
        }
        counts.push((n, noun));
        k += 2;
    }
    if counts.is_empty() {
        return None;
    }
    let mut words = vec![word("set")];
    for (j, (n, noun)) in counts.iter().enumerate() {
        if j > 0 {
            words.push(word("and"));
        }
        words.push(word(&noun.raw));
        words.push(word("to"));
        words.push(word(n));
    }
    if let Some(l) = words.last_mut() {
        l.stop = true;
    }
    Some((end, words))
}
