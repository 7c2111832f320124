//! The surface forms of the task language reduced to the ones the clause
//! grammar reads (docs/agent.md "Paraphrases: what was misread"). People
//! say the same task in many shapes; each pass here undoes one *shape*,
//! whatever the words inside it:
//!
//! - separators: "a / b", "mushrooms + olives" are lists;
//! - questions: "can you suspend her?" is a request; "how much is in
//!   savings?" is something to read; "do they sell X? search for them"
//!   names what the pronoun of the next sentence stands for;
//! - request framing at a clause's start ("I want to", "could you",
//!   "let's"), nominalised verbs ("do the login for", "make a search of"),
//!   verb synonyms grouped by role (the `Lexicon`'s `synonyms`);
//! - a statement before a request ("the key leaked, revoke it"): context,
//!   whose thing the request's pronoun stands for;
//! - particles: "X off", "switch X on" (a toggle said after its object);
//! - verb last: "INV-2043, download", "catalogue search: octopus" (the
//!   object before its verb);
//! - asides: who a request is for ("for me", "build me a pizza") and
//!   why, said after it ("…, it is not used any more");
//! - a count wanted: "I'd like three pairs of the X", "could I get two
//!   of the X?" (set X to the count);
//! - a sentence per step: a short request, then a sentence of its
//!   details ("look up my order? The order number is AB-12"), joined;
//! - states: a request in the passive ("X needs to be deleted"), a
//!   message marked important (its star).
//!
//! Rewrites touch unquoted words only (most of them at a clause's start:
//! the task's start, after , : . ; ? ! or "and"/"then"), so a quoted value
//! is never rewritten.

mod asides;
mod context;
mod details;
mod lists;
mod order;
mod questions;
mod starts;
mod states;
mod wants;
mod when_last;

use super::lexicon::Lexicon;
use super::tokens::Token;

pub(super) fn normalize(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    let toks = when_last::conditions_first(toks, lex);
    let toks = lists::separators(toks, lex);
    let toks = lists::negations(toks);
    let toks = asides::exclusions(toks);
    let toks = asides::dashes(toks, lex);
    let toks = asides::reasons(toks, lex);
    let toks = asides::parties(toks, lex);
    let toks = lists::named_roles(toks, lex);
    let toks = context::listings(toks, lex);
    let toks = wants::counts(toks, lex);
    let toks = questions::questions(toks, lex);
    let toks = questions::heading_referent(toks, lex);
    let toks = states::recipient_first(toks, lex);
    let toks = context::statements(toks, lex);
    let toks = starts::clause_starts(toks, lex);
    let toks = details::request_details(toks, lex);
    let toks = asides::benefactives(toks, lex);
    let toks = asides::page_objects(toks, lex);
    let toks = states::passives(toks, lex);
    let toks = states::importance(toks, lex);
    let toks = order::particles(toks, lex);
    order::verb_last(toks, lex)
}

fn word(raw: &str) -> Token {
    Token::word(raw, false, false, false)
}

/// Does a clause start at `i`?
fn starts_clause(toks: &[Token], i: usize, lex: &Lexicon) -> bool {
    i == 0 || {
        let p = &toks[i - 1];
        p.comma
            || p.colon
            || p.stop
            || (!p.quoted
                && (lex.and.contains(&p.lower.as_str()) || lex.then.contains(&p.lower.as_str())))
    }
}

/// Punctuation of `from` carried onto `to` (the last word of a rewritten span).
/// `words` standing in for tokens that ended with `last`: the last word
/// takes `last`'s marks (comma, colon, stop), so the clause structure
/// around a rewrite stays as it was.
fn in_place_of(mut words: Vec<Token>, last: &Token) -> Vec<Token> {
    if let Some(l) = words.last_mut() {
        carry_marks(l, last);
    }
    words
}

fn carry_marks(to: &mut Token, from: &Token) {
    to.comma = from.comma;
    to.colon = from.colon;
    to.stop = from.stop;
    to.mark = from.mark.clone();
}

fn clear_marks(t: &mut Token) {
    t.comma = false;
    t.colon = false;
    t.stop = false;
    t.mark.clear();
}

/// Sentences, as index ranges (each ends after a token with a stop).
fn sentences(toks: &[Token]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut s = 0;
    for (i, t) in toks.iter().enumerate() {
        if t.stop {
            out.push(s..i + 1);
            s = i + 1;
        }
    }
    if s < toks.len() {
        out.push(s..toks.len());
    }
    out
}

/// Segments between , : . ; ? ! (index ranges).
fn segments(toks: &[Token]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut s = 0;
    for (i, t) in toks.iter().enumerate() {
        if t.comma || t.colon || t.stop {
            out.push(s..i + 1);
            s = i + 1;
        }
    }
    if s < toks.len() {
        out.push(s..toks.len());
    }
    out
}

/// Where the clause starting at 0 ends: after its , : . ; ? ! or before
/// an "and" / "then".
fn segment_end(toks: &[Token], lex: &Lexicon) -> usize {
    for (k, t) in toks.iter().enumerate() {
        if k > 0
            && !t.quoted
            && (lex.and.contains(&t.lower.as_str()) || lex.then.contains(&t.lower.as_str()))
        {
            return k;
        }
        if t.comma || t.colon || t.stop {
            return k + 1;
        }
    }
    toks.len()
}

fn is_pronoun(lex: &Lexicon, t: &Token) -> bool {
    !t.quoted && lex.pronouns.contains(&t.lower.as_str())
}

/// Copies `toks`, except where `at(i, out)` gives a rewriting of the words
/// from `i` on: (how many it reads, the words said instead). The passes
/// that replace a stretch of words (`asides`, `wants`) share it.
pub(super) fn rewrite(
    toks: &[Token],
    mut at: impl FnMut(usize, &mut Vec<Token>) -> Option<(usize, Vec<Token>)>,
) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        if let Some((n, words)) = at(i, &mut out) {
            out.extend(words);
            i += n;
            continue;
        }
        out.push(toks[i].clone());
        i += 1;
    }
    out
}
