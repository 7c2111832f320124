//! Items and names: a slash or "+" between items, what the task rules
//! out ("not Google"), a capitalised name before its role noun.

use super::super::lexicon::{match_at, Lexicon};
use super::super::tokens::{lowers, Token};
use super::super::Role;
use super::super::Verb;
use super::*;

/// "mkowalski / Tr4il-mix!", "name X / email Y": a slash standing alone
/// separates items as a comma does; "mushrooms + olives" joins them as
/// "and" does.
/// In a task that signs in, "ada@lovelace.dev / analytical-engine" (two
/// single words either side of the slash, no field named) is the
/// identifier and the secret: "…, password analytical-engine".
pub(super) fn separators(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    let ws = lowers(&toks);
    let signs_in = (0..ws.len()).any(|k| {
        super::super::verbs::verb_phrase(&toks[k..], lex).is_some_and(|(v, n, verb)| {
            v == 0 && verb == Verb::Submit && matches!(ws[k + n - 1], "in" | "into" | "login")
        })
    });
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    for (i, t) in toks.iter().cloned().enumerate() {
        if !t.quoted && lex.separators.contains(&t.raw.as_str()) {
            let single = |k: usize| {
                toks.get(k).is_some_and(|x| {
                    !lex.separators.contains(&x.raw.as_str())
                        && match_at(lex.fields, &ws[k..]).is_none()
                })
            };
            let pair = signs_in
                && i >= 1
                && single(i - 1)
                && single(i + 1)
                && !toks[i - 1].comma
                && (i < 2 || toks[i - 2].comma || toks[i - 2].colon || toks[i - 2].stop)
                && toks[i + 1].comma | toks[i + 1].stop | (i + 2 == toks.len());
            if let Some(p) = out.last_mut() {
                p.comma = true;
            }
            if pair {
                // The identifier's field, unless it says it is an address.
                if !toks[i - 1].raw.contains('@') {
                    if let Some(id) = out.pop() {
                        out.push(word(lex.identifier_field));
                        out.push(id);
                    }
                }
                out.push(word(lex.secret_field));
            }
            continue;
        }
        if !t.quoted && t.raw == "+" {
            out.push(word("and"));
            continue;
        }
        out.push(t);
    }
    out
}

/// "(not Oregon)", ", not Google:": what the task rules out, said between
/// commas, is no field, value or step: dropped (its break kept).
pub(super) fn negations(toks: Vec<Token>) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    for r in segments(&toks) {
        let seg = &toks[r];
        let negated = seg.len() >= 2
            && seg.len() <= 3
            && !seg[0].quoted
            && seg[0].lower == "not"
            && !out.is_empty();
        if negated {
            if let (Some(p), Some(l)) = (out.last_mut(), seg.last()) {
                p.comma |= l.comma || l.colon;
                p.stop |= l.stop;
            }
            continue;
        }
        out.extend(seg.iter().cloned());
    }
    out
}

/// "the Retweet button", "the Log In button": capitalised words between an
/// article and a role noun are the element's name, as if quoted (so the
/// words after the role noun, "on all posts by @enola", stay a scope).
pub(super) fn named_roles(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    for (i, t) in toks.iter().enumerate() {
        // (Not a field: "in the To field" names it by its label already.)
        let role_here = !t.quoted
            && match_at(lex.roles, &lowers(&toks[i..]))
                .is_some_and(|(_, r)| !matches!(r, Role::Field | Role::TextArea))
            && out.last().is_some_and(|p: &Token| !p.quoted);
        if role_here {
            let names = out
                .iter()
                .rev()
                .take_while(|p| {
                    !p.quoted
                        && !p.comma
                        && !p.stop
                        && !p.colon
                        && p.raw.chars().next().is_some_and(char::is_uppercase)
                })
                .count();
            let at = out.len() - names;
            let after_article = names > 0
                && at > 0
                && !out[at - 1].quoted
                && lex.articles.contains(&out[at - 1].lower.as_str());
            if after_article {
                let raw: Vec<String> = out.drain(at..).map(|p| p.raw).collect();
                let mut q = word(&raw.join(" "));
                q.quoted = true;
                out.push(q);
            }
        }
        out.push(t.clone());
    }
    out
}
