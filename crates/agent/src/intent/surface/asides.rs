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

use super::super::lexicon::{match_at, Lexicon};
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
            && !matches!(
                toks[i - 1].lower.as_str(),
                "make" | "let" | "for" | "to" | "with"
            )
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
        // A reason is a state the thing should not be in: said negated or
        // in excess ("not used", "no longer needed", "too late"); "it's
        // high priority" is a value of the request, and stays.
        let negated = |r: &[&str]| {
            r.iter()
                .any(|w| matches!(*w, "not" | "no" | "never" | "too" | "anymore" | "more"))
                || ws.iter().any(|w| w.ends_with("n't"))
        };
        let statement = said.is_some_and(|r| {
            r.first()
                .is_some_and(|w| !matches!(*w, "a" | "an" | "the" | "my" | "our" | "your"))
                && negated(r)
        });
        if !statement || s.iter().any(|t| t.quoted) {
            continue;
        }
        let value = s.iter().skip(1).any(|t| {
            t.raw.chars().any(|c| c.is_ascii_digit())
                || t.raw.chars().next().is_some_and(char::is_uppercase)
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
    rewrite(&toks, |i, _| {
        (i == 0 || toks[i - 1].stop)
            .then(|| party(&toks[i..], lex))
            .flatten()
    })
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
    let end = toks
        .iter()
        .position(|t| t.stop)
        .map_or(toks.len(), |k| k + 1);
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

/// "mushrooms, olives and onions (no pepperoni)": a set said with what it
/// leaves out, in brackets, is that set and nothing else — "… onions
/// only". The excluded thing is no value (it must stay unset).
pub(super) fn exclusions(toks: Vec<Token>) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let opens = !t.quoted && matches!(t.lower.as_str(), "no" | "not" | "without");
        let close = opens
            .then(|| (i..toks.len().min(i + 4)).find(|&k| toks[k].mark.contains(')')))
            .flatten();
        // Right after the set's last item, within its sentence.
        let after_item = i > 0 && {
            let p = &toks[i - 1];
            !p.comma && !p.stop && !p.colon
        };
        if let (Some(c), true) = (close, after_item) {
            let mut only = word("only");
            carry_marks(&mut only, &toks[c]);
            only.mark = toks[c].mark.replace(')', "");
            out.push(only);
            i = c + 1;
            continue;
        }
        out.push(t.clone());
        i += 1;
    }
    out
}

/// The page's own thing said as the object of a request, with the new
/// value after "to" (the thing is what the page is about: "this bug", "our
/// plan"; `verbs/property.rs` reads a thing that has a row of its own):
///
/// - a count with its noun: "bump our plan up to 7 seats" is "change the
///   seats to 7" (the noun names the field of the count);
/// - a name, said capitalised, after a verb the lexicon lacks: "assign
///   this bug to Joanna Reyes" is `assign to "Joanna Reyes"` (the verb
///   and its "to" name the field, as the terse form says it).
pub(super) fn page_objects(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    rewrite(&toks, |i, out| {
        let start = starts_clause(&toks, i, lex) || out.last().is_some_and(|p| filler(lex, p));
        if !start || filler(lex, &toks[i]) {
            return None;
        }
        let (n, words) = page_object(&toks[i..], lex)?;
        // (A verb dropped takes its courtesy with it: "please a large
        // pizza" would be a name with "please" in it.)
        if words.is_empty() {
            while out.last().is_some_and(|p| filler(lex, p)) {
                out.pop();
            }
        }
        Some((n, words))
    })
}

fn filler(lex: &Lexicon, t: &Token) -> bool {
    !t.quoted && lex.fillers.contains(&t.lower.as_str()) && !t.comma && !t.stop
}

/// Determiners of the page's own thing.
const DEICTIC: &[&str] = &["this", "that", "my", "our", "your", "the"];

fn page_object(toks: &[Token], lex: &Lexicon) -> Option<(usize, Vec<Token>)> {
    let end = segment_end(toks, lex);
    let s = &toks[..end];
    let ws: Vec<&str> = s.iter().map(|t| t.lower.as_str()).collect();
    if s.len() < 5 || s.iter().any(|t| t.quoted) || s[..end - 1].iter().any(|t| t.comma || t.colon)
    {
        return None;
    }
    let verb = &s[0];
    let known = super::super::verbs::verb_phrase(s, lex).is_some_and(|(v, _, _)| v == 0);
    if verb.raw.chars().any(|c| !c.is_alphabetic()) || !verb.raw.chars().all(char::is_lowercase) {
        return None;
    }
    // "build a large pizza with …": a verb the lexicon lacks before a
    // thing described by what it comes with is the thing wanted, chosen
    // as "a large pizza with …" is.
    let described = |k: usize| {
        matches!(ws.get(k), Some(&"a") | Some(&"an"))
            && ws[k..].contains(&"with")
            && !ws[k..].contains(&"to")
    };
    let setting = match_at(lex.settings, &ws).is_some();
    if !known && !setting && described(1) {
        return Some((1, Vec::new()));
    }
    if !known && !setting && SPEAKER.contains(&ws[1]) && described(2) {
        return Some((2, Vec::new()));
    }
    if !DEICTIC.contains(&ws[1]) {
        return None;
    }
    // The thing: one to three lowercase words before "(up) to".
    let to = (2..s.len().min(6)).find(|&k| ws[k] == "to")?;
    let thing_end = if ws[to - 1] == "up" { to - 1 } else { to };
    if thing_end <= 2
        || s[2..thing_end].iter().any(|t| {
            !t.raw.chars().all(|c| c.is_alphabetic() || c == '-')
                || t.raw.chars().any(char::is_uppercase)
        })
    {
        return None;
    }
    let tail = &s[to + 1..];
    let number = |w: &str| {
        (!w.is_empty() && w.chars().all(|c| c.is_ascii_digit()))
            .then(|| w.to_string())
            .or_else(|| {
                lex.numbers
                    .iter()
                    .find(|(x, _)| *x == w && !matches!(*x, "a" | "an"))
                    .map(|(_, n)| format!("{n}"))
            })
    };
    // "… to 7 seats": change the seats to 7.
    if let [n, noun] = tail {
        if let Some(n) = number(&n.lower) {
            if noun.raw.chars().all(char::is_alphabetic) && noun.raw.chars().all(char::is_lowercase)
            {
                let mut words = vec![word("change"), word("the"), word(&noun.raw), word("to")];
                let mut v = word(&n);
                carry_marks(&mut v, noun);
                words.push(v);
                return Some((end, words));
            }
        }
    }
    // "assign this bug to Joanna Reyes": assign to "Joanna Reyes".
    let name = !tail.is_empty()
        && tail.len() <= 4
        && tail.iter().all(|t| {
            t.raw.chars().next().is_some_and(char::is_uppercase)
                && t.raw
                    .chars()
                    .all(|c| c.is_alphabetic() || c == '-' || c == '\'')
        });
    // (A verb that sets a property of a thing with a row, "move the card
    // to Done", is `verbs/property.rs`'s.)
    if !known && !setting && name {
        let raw = tail
            .iter()
            .map(|t| t.raw.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let mut v = Token::word(&raw, false, false, false);
        v.quoted = true;
        carry_marks(&mut v, &tail[tail.len() - 1]);
        return Some((end, vec![verb.clone(), word("to"), v]));
    }
    None
}
