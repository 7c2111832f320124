//! A request said as a state to reach rather than an action: the passive
//! ("Dale's email needs to be marked important", "the draft should be
//! deleted") and a message marked important ("mark the email from Dale as
//! important", "flag it as important"), which is what a mail or post
//! list's star does.

use super::super::lexicon::Lexicon;
use super::super::tokens::{lowers, Token};
use super::*;

/// What comes between a passive's subject and its "be": "needs to",
/// "should", "must", "has to"…
const MODALS: &[&[&str]] = &[
    &["needs", "to"],
    &["need", "to"],
    &["has", "to"],
    &["have", "to"],
    &["ought", "to"],
    &["is", "to"],
    &["are", "to"],
    &["must"],
    &["should"],
];

/// Past participles that do not end in "-ed", with their verb.
const IRREGULAR: &[(&str, &str)] = &[
    ("sent", "send"),
    ("found", "find"),
    ("done", "do"),
    ("given", "give"),
    ("shown", "show"),
    ("chosen", "choose"),
    ("written", "write"),
    ("put", "put"),
    ("set", "set"),
    ("read", "read"),
];

/// "X needs to be marked important" → "mark X important"; "the old
/// draft should be deleted" → "delete the old draft": within each segment
/// (between , : . ; ? !), a subject that is no clause of its own, a modal,
/// "be" and the participle of a verb the lexicon knows.
pub(super) fn passives(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    for r in segments(&toks) {
        let seg = &toks[r];
        out.extend(passive(seg, lex).unwrap_or_else(|| seg.to_vec()));
    }
    out
}

fn passive(seg: &[Token], lex: &Lexicon) -> Option<Vec<Token>> {
    let ws = lowers(seg);
    let be = (1..ws.len().saturating_sub(1)).find(|&b| ws[b] == "be" && !seg[b].quoted)?;
    let modal = MODALS
        .iter()
        .find(|m| be >= m.len() && ws[be - m.len()..be] == ***m)?;
    let subject = &seg[..be - modal.len()];
    let participle = &seg[be + 1];
    if subject.is_empty()
        || participle.quoted
        || super::super::verbs::verb_phrase(subject, lex).is_some_and(|(s, _, _)| s == 0)
    {
        return None;
    }
    let verb = base_verb(&participle.lower, lex)?;
    let mut out = vec![word(&verb)];
    let rest = &seg[be + 2..];
    if rest.is_empty() {
        out.extend(in_place_of(subject.to_vec(), participle));
    } else {
        out.extend(subject.iter().cloned());
        out.extend(rest.iter().cloned());
    }
    Some(out)
}

/// The verb of a past participle, when the lexicon knows it as a verb:
/// "marked" → mark, "deleted" → delete, "starred" → star, "sent" → send.
fn base_verb(participle: &str, lex: &Lexicon) -> Option<String> {
    let known = |v: &str| {
        super::super::verbs::verb_phrase(&[word(v)], lex).is_some_and(|(s, n, _)| s == 0 && n == 1)
    };
    if let Some((_, v)) = IRREGULAR.iter().find(|(p, _)| *p == participle) {
        return known(v).then(|| v.to_string());
    }
    let stem = participle.strip_suffix("ed")?;
    let mut candidates = vec![stem.to_string(), format!("{stem}e")];
    // "starred" → star, "flagged" → flag: a doubled last consonant.
    let b = stem.as_bytes();
    if b.len() >= 2 && b[b.len() - 1] == b[b.len() - 2] {
        candidates.push(stem[..stem.len() - 1].to_string());
    }
    // "replied" → reply.
    if let Some(s) = stem.strip_suffix('i') {
        candidates.push(format!("{s}y"));
    }
    candidates.into_iter().find(|v| known(v))
}

/// Verbs that mark a message with a state ("mark it as important",
/// "flag the email from Dale as important", "make X important").
const MARKING: &[&str] = &[
    "mark", "flag", "star", "tag", "label", "classify", "file", "set", "make",
];

/// "mark the email from Dale as important" → "star the email from Dale":
/// a message marked important is starred (or flagged: the star's synonym
/// in `text.rs`), whatever the verb that marks it. Within a segment that
/// starts a clause with a marking verb and ends its object with
/// "(as / to be / an) important [email]".
pub(super) fn importance(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if t.quoted || !MARKING.contains(&t.lower.as_str()) || !starts_clause(&toks, i, lex) {
            out.push(t.clone());
            i += 1;
            continue;
        }
        let end = i + segment_end(&toks[i..], lex);
        let ws = lowers(&toks[i..end]);
        let Some(imp) = ws.iter().position(|w| *w == "important").filter(|&k| k > 1) else {
            out.push(t.clone());
            i += 1;
            continue;
        };
        // Back over "as", "an", "to be", "being" before "important".
        let mut from = imp;
        while from > 1 && matches!(ws[from - 1], "as" | "an" | "a" | "to" | "be" | "being") {
            from -= 1;
        }
        // "… as an important email": the noun after it goes too.
        let mut to = imp + 1;
        if ws
            .get(to)
            .is_some_and(|w| matches!(*w, "email" | "e-mail" | "mail" | "message" | "one"))
        {
            to += 1;
        }
        out.push(word("star"));
        let object = &toks[i + 1..i + from];
        let dropped_last = &toks[i + to - 1];
        out.extend(in_place_of(object.to_vec(), dropped_last));
        out.extend(toks[i + to..end].iter().cloned());
        i = end;
    }
    out
}

/// Verbs that pass a message on to someone.
const PASSING: &[&str] = &["forward", "send", "email", "e-mail", "mail", "give", "pass"];

/// "Forward Tammi the email from Elwira", "email Tammi the email I got
/// from Elwira", "give Bari Effie's email": the person first, then the
/// message (named by its author) → "forward the email from Elwira to
/// Tammi". At a clause's start; the person is the capitalised words right
/// after the verb, the message is what follows them.
pub(super) fn recipient_first(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        // At a clause's start, or after request framing ("I'd like to
        // email Tammi …": the framing is dropped later, before a verb).
        let start = starts_clause(&toks, i, lex)
            || i > 0 && matches!(toks[i - 1].lower.as_str(), "to" | "please");
        if t.quoted || !PASSING.contains(&t.lower.as_str()) || !start {
            out.push(t.clone());
            i += 1;
            continue;
        }
        let end = i + segment_end(&toks[i..], lex);
        let capital = |t: &Token| {
            !t.quoted
                && !t.comma
                && t.raw.chars().next().is_some_and(char::is_uppercase)
                && !t.raw.ends_with("'s")
                && !t.raw.ends_with("’s")
        };
        let mut n = i + 1;
        while n < end && n - i <= 3 && capital(&toks[n]) {
            n += 1;
        }
        let message = &toks[n..end];
        let named = n > i + 1
            && !message.is_empty()
            && super::super::verbs::message::author(message).is_some();
        if !named {
            out.push(t.clone());
            i += 1;
            continue;
        }
        out.push(word("forward"));
        let last = &toks[end - 1];
        let mut body: Vec<Token> = message.to_vec();
        if let Some(b) = body.last_mut() {
            clear_marks(b);
        }
        out.extend(body);
        out.push(word("to"));
        out.extend(in_place_of(toks[i + 1..n].to_vec(), last));
        i = end;
    }
    out
}
