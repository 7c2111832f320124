//! A condition said after its action: "buy 1 share when the price drops
//! below $40", "click Send once the counter reaches 10". The clause
//! grammar reads a condition that comes first ("once …, A": a wait, then
//! A), so a trailing "when / once / as soon as" clause that compares a
//! value with a number is moved in front of its action. Only comparisons
//! move: "delete it when it is ready" keeps its shape (a text wait, read
//! where it stands).

use super::super::branch::number;
use super::super::lexicon::{match_at, Lexicon};
use super::super::tokens::Token;
use super::super::verbs::verb_phrase;
use super::{carry_marks, clear_marks, starts_clause, word};

/// "reaches N", "hits N" compare too (`verbs/until.rs`).
const REACH: &[&str] = &["reaches", "reach", "hits", "hit"];

pub(super) fn conditions_first(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut start = 0;
    while start < toks.len() {
        let end = (start..toks.len())
            .find(|&i| toks[i].stop)
            .map_or(toks.len(), |i| i + 1);
        out.extend(sentence(&toks[start..end], lex));
        start = end;
    }
    out
}

fn sentence(s: &[Token], lex: &Lexicon) -> Vec<Token> {
    if let Some(branch) = branch_first(s, lex) {
        return branch;
    }
    let ws: Vec<&str> = s.iter().map(|t| t.lower.as_str()).collect();
    let once: Vec<(&'static [&'static str], ())> = lex.once.iter().map(|w| (*w, ())).collect();
    let at = (1..s.len()).find(|&k| {
        !s[k].quoted
            && !starts_clause(s, k, lex)
            && match_at(&once, &ws[k..]).is_some()
            && compares(&s[k..], &ws[k..], lex)
    });
    let Some(k) = at else {
        return s.to_vec();
    };
    // The condition to the end of the sentence, or to its clause's comma.
    let cut = (k..s.len())
        .find(|&i| s[i].comma)
        .map_or(s.len(), |i| i + 1);
    let mut cond: Vec<Token> = s[k..cut].to_vec();
    let mut head: Vec<Token> = s[..k].to_vec();
    let (Some(last_cond), Some(last_head)) = (cond.last().cloned(), head.last_mut()) else {
        return s.to_vec();
    };
    // The head ends the sentence now; the condition ends with a comma.
    carry_marks(last_head, &last_cond);
    if let Some(c) = cond.last_mut() {
        clear_marks(c);
        c.comma = true;
    }
    cond.append(&mut head);
    cond.extend(s[cut..].iter().cloned());
    cond
}

/// A comparison word followed (soon) by a number.
fn compares(s: &[Token], ws: &[&str], lex: &Lexicon) -> bool {
    (0..s.len()).any(|i| {
        let n = match match_at(lex.comparisons, &ws[i..]) {
            Some((n, _)) => n,
            None if REACH.contains(&ws[i]) => 1,
            None => return false,
        };
        s[i + n..].iter().take(3).any(|t| number(&t.raw).is_some())
    })
}

/// A branch whose condition is said after its first action: "go with
/// Premium if it's below $20, else Standard", "choose the red one when it
/// costs less than 10, if not the blue one", "Premium if under $20 else
/// Standard". With an "otherwise" after it, an "if" (or a "when" / "once"
/// — a branch then, not a wait) in the middle of a sentence is moved in
/// front of the action: "if it's below $20, go with Premium, else
/// Standard" (the branch grammar of `branch.rs` reads that; the condition's
/// pronoun stands for what the action names).
fn branch_first(s: &[Token], lex: &Lexicon) -> Option<Vec<Token>> {
    let ws: Vec<&str> = s.iter().map(|t| t.lower.as_str()).collect();
    let otherwise_at = |k: usize| {
        !s[k].quoted
            && lex
                .otherwise
                .iter()
                .any(|p| ws.len() >= k + p.len() && p.iter().zip(&ws[k..]).all(|(a, b)| a == b))
    };
    let once: Vec<(&'static [&'static str], ())> = lex.once.iter().map(|w| (*w, ())).collect();
    // The condition's first word, past the action; an "if" that starts an
    // "otherwise" ("if not") is none.
    let k = (1..s.len()).find(|&k| {
        !s[k].quoted
            && !otherwise_at(k)
            && (lex.if_.contains(&ws[k]) || match_at(&once, &ws[k..]).is_some())
    })?;
    if starts_clause(s, k, lex) && lex.if_.contains(&ws[k]) {
        // "…, if it is sold out …": a branch of its own already.
        return None;
    }
    let o = (k + 1..s.len()).find(|&i| otherwise_at(i))?;
    let lead = s[..k]
        .iter()
        .take_while(|t| !t.quoted && lex.fillers.contains(&t.lower.as_str()))
        .count();
    let head = &s[lead..k];
    if head.is_empty() {
        return None;
    }
    let n = if lex.if_.contains(&ws[k]) {
        1
    } else {
        match_at(&once, &ws[k..]).map_or(1, |(n, _)| n)
    };
    let mut out = vec![word("if")];
    out.extend(s[k + n..o].iter().cloned());
    if let Some(c) = out.last_mut() {
        clear_marks(c);
        c.comma = true;
    }
    // "Premium if under $20 else Standard": an option named alone is chosen.
    let mut head: Vec<Token> = if verb_phrase(head, lex).is_some_and(|(v, _, _)| v == 0) {
        head.to_vec()
    } else {
        std::iter::once(word("choose"))
            .chain(head.iter().cloned())
            .collect()
    };
    if let Some(h) = head.last_mut() {
        clear_marks(h);
        h.comma = true;
    }
    out.extend(head);
    out.extend(s[o..].iter().cloned());
    Some(out)
}
