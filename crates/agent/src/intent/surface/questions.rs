//! Questions: a request asked as one, a question that names what the next
//! request's pronoun stands for, a question to read and answer; a heading
//! that a request's pronoun stands for.

use super::super::lexicon::{match_at, Lexicon};
use super::super::tokens::{lowers, Token};
use super::*;

/// Questions. A request asked as a question ("can you suspend her?") is
/// the request; a question followed by a request ("do they sell X? search
/// for them") is context: its subject is what the request's pronoun names;
/// any other question is something to read and answer ("how much have I
/// got in savings?", "order total?").
pub(super) fn questions(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    let spans = sentences(&toks);
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut context: Option<Vec<Token>> = None;
    for (k, r) in spans.iter().enumerate() {
        let mut s: Vec<Token> = toks[r.clone()].to_vec();
        if let Some(ctx) = context.take() {
            s = with_referent(s, &ctx);
        }
        let asked = s.last().is_some_and(|t| !t.quoted && t.mark.contains('?'));
        if !asked {
            out.extend(s);
            continue;
        }
        // The request inside: "…, can you suspend her?" — a clause that
        // starts with "can you" and goes on with a verb.
        if let Some(at) = (0..s.len()).find(|&i| {
            starts_clause(&s, i, lex)
                && match_at(lex.requests, &lowers(&s[i..])).is_some_and(|(n, _)| {
                    // The framing says a request follows, whatever its verb.
                    s.get(i + n).is_some_and(|t| {
                        !t.quoted && t.raw.chars().next().is_some_and(char::is_lowercase)
                    })
                })
        }) {
            let n = match_at(lex.requests, &lowers(&s[at..])).map_or(0, |(n, _)| n);
            // What comes before the request stays ("Once the deploy shows
            // Live, could you promote it?"); a person it names is who
            // "her" / "him" stands for.
            let before: Vec<Token> = s[..at].to_vec();
            let mut request: Vec<Token> = s[at + n..].to_vec();
            let person = request
                .iter()
                .any(|t| !t.quoted && matches!(t.lower.as_str(), "her" | "him"));
            if !before.is_empty() && person {
                request = with_referent(request, &before);
            }
            out.extend(before);
            // A verb the lexicon lacks ("can you suspend Priya Nair?"):
            // the framing says it is one; what follows is what it acts on,
            // read as a name (as in "Suspend "Priya Nair"").
            if person
                && super::super::verbs::verb_phrase(&request, lex).is_none()
                && request.len() >= 2
            {
                let object = &request[1..];
                if object.iter().all(|t| !t.quoted) && object.len() <= 6 {
                    let raw: Vec<&str> = object.iter().map(|t| t.raw.as_str()).collect();
                    let mut q = word(&raw.join(" "));
                    q.quoted = true;
                    if let Some(l) = object.last() {
                        carry_marks(&mut q, l);
                    }
                    request.truncate(1);
                    request.push(q);
                }
            }
            out.extend(request);
            continue;
        }
        let next_is_request = spans.get(k + 1).is_some_and(|n| {
            super::super::verbs::verb_phrase(&toks[n.clone()], lex).is_some()
                && toks[n.clone()].iter().any(|t| is_pronoun(lex, t))
        });
        if next_is_request {
            context = Some(subject_of_question(&s, lex));
            continue;
        }
        // Something to read: "tell me" + the question, whole (its commas
        // and colons divide nothing: "Central Station, trip 3: departure time?").
        // An instruction that happens to end with "?" ("…and message Can I
        // move my visit?"): a verb first and more than a fragment.
        if s.len() > 3 && super::super::verbs::verb_phrase(&s, lex).is_some_and(|(v, _, _)| v == 0)
        {
            out.extend(s);
            continue;
        }
        let last = s.len() - 1;
        for (i, t) in s.iter_mut().enumerate() {
            if i != last {
                clear_marks(t);
            }
        }
        out.push(word("tell"));
        out.push(word("me"));
        out.extend(s);
    }
    out
}

/// "ZrLIee, RKPgD, 3mJ5: select them and click Submit": a heading without
/// a verb, then a colon and a request whose pronoun stands for it → the
/// heading in the pronoun's place.
pub(super) fn heading_referent(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    let Some(c) = toks.iter().position(|t| t.colon) else {
        return toks;
    };
    let heading = &toks[..=c];
    let after = &toks[c + 1..];
    if heading.iter().any(|t| t.stop)
        || super::super::verbs::verb_phrase(heading, lex).is_some()
        || super::super::verbs::verb_phrase(after, lex).is_none_or(|(v, _, _)| v != 0)
    {
        return toks;
    }
    let Some(p) = after
        .iter()
        .take_while(|t| !t.stop)
        .position(|t| is_pronoun(lex, t) && matches!(t.lower.as_str(), "them" | "it"))
    else {
        return toks;
    };
    let mut out: Vec<Token> = after[..p].to_vec();
    out.extend(in_place_of(heading.to_vec(), &after[p]));
    out.extend(after[p + 1..].iter().cloned());
    out
}

/// The thing a question is about: its words without the question word,
/// the auxiliary, the subject pronoun, and (after "do they") the verb:
/// "do they sell wireless headphones" → "wireless headphones"; "where is
/// the order that went to Denver" → "the order that went to Denver".
fn subject_of_question(s: &[Token], lex: &Lexicon) -> Vec<Token> {
    let ws = lowers(s);
    let mut i = 0;
    while i < s.len() && !s[i].quoted && lex.asking.contains(&ws[i]) {
        i += 1;
    }
    let did = i > 0 && matches!(ws[i - 1], "do" | "does" | "did");
    let mut subject = false;
    while i < s.len() && !s[i].quoted && lex.subjects.contains(&ws[i]) {
        i += 1;
        subject = true;
    }
    if did && subject && i < s.len() && !s[i].quoted {
        i += 1; // the verb after "do they"
    }
    let mut rest: Vec<Token> = s[i..].to_vec();
    if let Some(l) = rest.last_mut() {
        clear_marks(l);
    }
    rest
}

/// The first pronoun ("it", "them", "her", "one") of a request replaced by
/// what the context names: a person's name (capitalised words) for "her" /
/// "him", else the context's words.
fn with_referent(mut s: Vec<Token>, context: &[Token]) -> Vec<Token> {
    let Some(at) = s.iter().position(|t| {
        !t.quoted && matches!(t.lower.as_str(), "it" | "them" | "her" | "him" | "one")
    }) else {
        return s;
    };
    let person = matches!(s[at].lower.as_str(), "her" | "him");
    let mut words: Vec<Token> = if person {
        let names: Vec<Token> = context
            .iter()
            .skip_while(|t| !t.raw.chars().next().is_some_and(char::is_uppercase))
            .take_while(|t| t.raw.chars().next().is_some_and(char::is_uppercase))
            .cloned()
            .collect();
        names
    } else {
        context.to_vec()
    };
    if words.is_empty() {
        return s;
    }
    for w in &mut words {
        clear_marks(w);
    }
    if let Some(l) = words.last_mut() {
        carry_marks(l, &s[at]);
    }
    s.splice(at..at + 1, words);
    s
}
