//! At each clause's start: request framing, nominalised verbs, verb
//! synonyms by role, and the rewrites of a whole clause start ("after" +
//! verb, a desire, a speaker's name, "make X my Y", a count, the field
//! said before its value, a pronoun with nothing to stand for).

use super::super::lexicon::{match_at, Lexicon};
use super::super::tokens::{lowers, Token};
use super::super::Verb;
use super::*;

/// At each clause's start: request framing dropped ("I want to", "can
/// you", "let's"), a nominalised verb made a verb again ("do the login
/// for" → "log in", "make a search of" → "search for"), a synonym replaced
/// by the verb of its role ("get rid of" → "delete").
pub(super) fn clause_starts(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut i = 0;
    // Just past dropped framing: what follows starts the clause ("could
    // you mute X" is "mute X", whose synonym is then rewritten).
    let mut framed = false;
    while i < toks.len() {
        let start = std::mem::take(&mut framed)
            || starts_clause(&toks, i, lex)
            || out.last().is_some_and(|p| courtesy(lex, p));
        if !start || toks[i].quoted {
            out.push(toks[i].clone());
            i += 1;
            continue;
        }
        let ws = lowers(&toks[i..]);
        // Within a sentence that opened a condition ("if the lamp is on
        // sale, add it…"), a pronoun may stand for the condition's
        // subject: the branch reads it (`branch.rs`).
        let in_branch = out
            .iter()
            .rev()
            .take_while(|t| !t.stop)
            .any(|t| !t.quoted && lex.if_.contains(&t.lower.as_str()));
        if let Some((n, rewritten)) = start_rewrite(&toks[i..], lex, in_branch) {
            out.extend(rewritten);
            i += n;
            continue;
        }
        // "I want to …", "could you …": only before a verb (or another
        // rewrite), so "I need a cleaning" keeps its words.
        if let Some((n, _)) = match_at(lex.requests, &ws) {
            let rest = &toks[i + n..];
            let verb_next = rest.first().is_some_and(|t| !t.quoted)
                && (super::super::verbs::verb_phrase(rest, lex).is_some_and(|(v, _, _)| v == 0)
                    || match_at(lex.synonyms, &lowers(rest)).is_some()
                    || nominal_at(rest, lex).is_some());
            if verb_next {
                if let (Some(p), Some(last)) = (out.last_mut(), toks.get(i + n - 1)) {
                    p.comma |= last.comma;
                }
                i += n;
                framed = true;
                continue;
            }
        }
        // A nominalised verb, else a synonym: the verb phrase of its role.
        let phrase = nominal_at(&toks[i..], lex).or_else(|| match_at(lex.synonyms, &ws));
        if let Some((n, verb)) = phrase {
            let mut words: Vec<Token> = verb.iter().map(|w| word(w)).collect();
            // The words said stay with the verb that replaced them: "stop
            // sync" is "turn off sync" where there is a switch, and the
            // "Stop sync" button where there is none.
            if let Some(first) = words.first_mut() {
                first.said = toks[i..i + n].iter().map(|t| t.raw.clone()).collect();
            }
            out.extend(in_place_of(words, &toks[i + n - 1]));
            i += n;
            continue;
        }
        out.push(toks[i].clone());
        i += 1;
    }
    out
}

/// Rewrites of a whole clause start: "after" + verb (then), "I want" + a
/// noun phrase (choose it), "I'm Maya Lin" (the name), "make X my Y"
/// (X as the Y), "blue enamel mug x3" (its quantity), a pronoun after a
/// verb with nothing to stand for ("add it to order": add to order).
/// The words taken and what replaces them.
fn start_rewrite(toks: &[Token], lex: &Lexicon, in_branch: bool) -> Option<(usize, Vec<Token>)> {
    let ws = lowers(toks);
    let verb_at = |k: usize| {
        toks.get(k).is_some_and(|t| !t.quoted)
            && super::super::verbs::verb_phrase(&toks[k..], lex).is_some_and(|(v, _, _)| v == 0)
    };
    if let Some((n, _)) = match_at(lex.then_before_verb, &ws).filter(|(n, _)| verb_at(*n)) {
        return Some((n, vec![word("then")]));
    }
    if let Some(r) = field_first(toks, lex) {
        return Some(r);
    }
    if let Some(r) = enter_place(toks, lex) {
        return Some(r);
    }
    if let Some(r) = light_verb_form(toks, lex) {
        return Some(r);
    }
    // (Only when the desire is the whole task: "I'd like a refund; could
    // you find…" or "I'd like the password X" want no choice.)
    let whole_task = (1..toks.len()).all(|k| !starts_clause(toks, k, lex) || !verb_at(k))
        && toks.iter().all(|t| !t.quoted);
    if let Some((n, _)) = match_at(lex.desires, &ws).filter(|_| whole_task) {
        if ws.get(n).is_some_and(|w| lex.articles.contains(w)) && !verb_at(n) {
            return Some((n, vec![word("choose")]));
        }
    }
    if let Some((n, _)) = match_at(lex.self_naming, &ws) {
        let named = toks
            .get(n)
            .is_some_and(|t| t.quoted || t.raw.chars().next().is_some_and(char::is_uppercase));
        if named {
            return Some((n, vec![word("name")]));
        }
    }
    // "make X my Y": X is the value of the field Y.
    if ws[0] == "make" && !toks[0].quoted {
        let end = segment_end(toks, lex);
        if let Some(p) = (2..end).find(|&k| !toks[k].quoted && lex.possessives.contains(&ws[k])) {
            if p + 1 < end {
                let mut out = vec![word("enter")];
                out.extend(toks[1..p].iter().cloned());
                out.push(word("as"));
                out.push(word("the"));
                out.extend(toks[p + 1..end].iter().cloned());
                return Some((end, out));
            }
        }
    }
    // "blue enamel mug x3": the quantity of the thing.
    let end = segment_end(toks, lex);
    if end >= 2 && super::super::verbs::verb_phrase(&toks[..end], lex).is_none() {
        if let Some(n) = multiplier(&toks[end - 1]) {
            let mut out = vec![word("set"), word("quantity"), word("of")];
            out.extend(toks[..end - 1].iter().cloned());
            let mut num = word(&n);
            carry_marks(&mut num, &toks[end - 1]);
            out.push(word("to"));
            out.push(num);
            return Some((end, out));
        }
    }
    // "add it to order", "save it": a pronoun after the verb with nothing
    // said before it to stand for is no part of the target.
    if let Some((0, n, verb)) = super::super::verbs::verb_phrase(toks, lex).filter(|_| !in_branch) {
        // ("send it to Bari" keeps its "it": the message sent on.)
        let ends = toks.get(n).is_some_and(|t| t.comma || t.stop) || toks.len() == n + 1;
        let towards = toks
            .get(n + 1)
            .is_some_and(|t| !t.quoted && matches!(t.lower.as_str(), "to" | "in" | "into"));
        if toks
            .get(n)
            .is_some_and(|t| !t.quoted && matches!(t.lower.as_str(), "it" | "them"))
            && ((verb == Verb::Click && (ends || towards)) || (verb == Verb::Submit && ends))
        {
            let mut out = in_place_of(toks[..n].to_vec(), &toks[n]);
            // "add them in the bag": where to, not inside what.
            if let Some(next) = toks
                .get(n + 1)
                .filter(|t| matches!(t.lower.as_str(), "in" | "into"))
            {
                let mut to = word("to");
                carry_marks(&mut to, next);
                out.push(to);
                return Some((n + 2, out));
            }
            return Some((n + 1, out));
        }
    }
    None
}

/// The field said before its value. "fill both text fields with the
/// password X" → "enter the password X into both text fields"; "select
/// the date 10/11/2016" → "select 10/11/2016 as the date" (a field noun,
/// then the value, with a verb of choosing: the value is what is chosen).
fn field_first(toks: &[Token], lex: &Lexicon) -> Option<(usize, Vec<Token>)> {
    let ws = lowers(toks);
    let end = segment_end(toks, lex);
    let (_, n, verb) =
        super::super::verbs::verb_phrase(&toks[..end], lex).filter(|(s, _, _)| *s == 0)?;
    if lex.fill_with.contains(&ws[0]) {
        let with = (n..end).find(|&k| !toks[k].quoted && ws[k] == "with")?;
        if with == n || toks[n..with].iter().any(|t| t.quoted) {
            return None;
        }
        let mut out = vec![word("enter")];
        out.extend(toks[with + 1..end].iter().cloned());
        if let Some(l) = out.last_mut() {
            clear_marks(l);
        }
        out.push(word("into"));
        let mut field: Vec<Token> = toks[n..with].to_vec();
        if let Some(l) = field.last_mut() {
            carry_marks(l, &toks[end - 1]);
        }
        out.extend(field);
        return Some((end, out));
    }
    if verb != Verb::Select {
        return None;
    }
    let mut k = n;
    while k < end && lex.articles.contains(&ws[k]) && !toks[k].quoted {
        k += 1;
    }
    let (f, _) = match_at(lex.fields, &ws[k..end])?;
    let value = &toks[k + f..end];
    // One value: a token that holds a digit, or a quote.
    let one =
        value.len() == 1 && (value[0].quoted || value[0].raw.chars().any(|c| c.is_ascii_digit()));
    if !one || toks[k..k + f].iter().any(|t| t.quoted) {
        return None;
    }
    let mut out: Vec<Token> = toks[..n].to_vec();
    let mut v = value[0].clone();
    clear_marks(&mut v);
    out.push(v);
    out.push(word("as"));
    out.push(word("the"));
    let mut field: Vec<Token> = toks[k..k + f].to_vec();
    if let Some(l) = field.last_mut() {
        carry_marks(l, &value[0]);
    }
    out.extend(field);
    Some((end, out))
}

/// "x3", "×3", "3x": a count.
fn multiplier(t: &Token) -> Option<String> {
    if t.quoted {
        return None;
    }
    let w = t.lower.as_str();
    let digits = w
        .strip_prefix('x')
        .or_else(|| w.strip_prefix('×'))
        .or_else(|| w.strip_suffix('x'))?;
    (!digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())).then(|| digits.to_string())
}

fn courtesy(lex: &Lexicon, t: &Token) -> bool {
    !t.quoted && lex.fillers.contains(&t.lower.as_str()) && !t.comma && !t.stop
}

/// "do the login for", "make a search of", "perform a download of": a
/// light verb, an article, the noun of a verb (and its "of" / "for") →
/// that verb's phrase. The words taken and the phrase.
fn nominal_at(toks: &[Token], lex: &Lexicon) -> Option<(usize, &'static [&'static str])> {
    let ws = lowers(toks);
    if toks.first()?.quoted || !lex.light_verbs.contains(ws.first()?) {
        return None;
    }
    let mut k = 1;
    while k < ws.len() && lex.articles.contains(&ws[k]) {
        k += 1;
    }
    if toks.get(k).is_none_or(|t| t.quoted) {
        return None;
    }
    let (n, verb) = match_at(lex.nominals, &ws[k..])?;
    k += n;
    if ws.get(k).is_some_and(|w| matches!(*w, "of" | "for")) && !toks[k].quoted {
        k += 1;
    }
    Some((k, verb))
}

/// A light verb before the form of another verb, as learners of English
/// say it: "make revoked the key X" (revoke the key X), "make close the
/// ticket" (close it), "make accept of the licence" (accept it), "make off
/// the news" / "make on the reminders" (turn off / on). The verb's noun
/// ("make a copy", "do the login") is `nominal_at`'s; an article after
/// the light verb is a noun phrase, never a verb.
fn light_verb_form(toks: &[Token], lex: &Lexicon) -> Option<(usize, Vec<Token>)> {
    let ws = lowers(toks);
    let (first, second) = (toks.first()?, toks.get(1)?);
    if first.quoted || second.quoted || first.comma || !lex.light_verbs.contains(&ws[0]) {
        return None;
    }
    if nominal_at(toks, lex).is_some() {
        return None;
    }
    let w = ws[1];
    let known = |w: &str| {
        let t = [word(w)];
        super::super::verbs::verb_phrase(&t, lex).is_some_and(|(v, _, _)| v == 0)
    };
    let verb: Vec<Token> = if matches!(w, "off" | "on") {
        vec![word("turn"), word(w)]
    } else if let Some(stem) = w.strip_suffix("ed").filter(|s| s.len() >= 3) {
        // "revoked" → revoke, "suspended" → suspend, "closed" → close.
        let with_e = format!("{stem}e");
        let base = if known(stem) {
            stem.to_string()
        } else if known(&with_e) || ends_consonant_vowel_consonant(stem) {
            with_e
        } else {
            stem.to_string()
        };
        vec![word(&base)]
    } else if known(w) {
        vec![word(w)]
    } else {
        return None;
    };
    let mut n = 2;
    let mut out = in_place_of(verb, second);
    // "make accept of the licence": the object, not "of" it.
    if !second.comma && toks.get(2).is_some_and(|t| !t.quoted && t.lower == "of") {
        if let Some(l) = out.last_mut() {
            carry_marks(l, &toks[2]);
        }
        n = 3;
    }
    Some((n, out))
}

/// "revok", "clos", "delet": a stem that lost its silent "e" before "-ed".
fn ends_consonant_vowel_consonant(stem: &str) -> bool {
    let vowel = |c: char| "aeiou".contains(c);
    let cs: Vec<char> = stem.chars().collect();
    match cs.as_slice() {
        [.., a, b, c] => !vowel(*a) && vowel(*b) && !vowel(*c) && !"wxy".contains(*c),
        _ => false,
    }
}

/// "enter to Trellis with …", "enter in my account": "enter" + "to / in
/// / into" + a place (no field noun, no role noun, no value) is going in,
/// a log-in — not typing into something. "enter into the search box X"
/// and "enter to the field Email X" keep their reading.
fn enter_place(toks: &[Token], lex: &Lexicon) -> Option<(usize, Vec<Token>)> {
    let ws = lowers(toks);
    if toks.len() < 3 || toks[0].quoted || toks[1].quoted || ws[0] != "enter" {
        return None;
    }
    if !matches!(ws[1], "to" | "in" | "into") || toks[0].comma {
        return None;
    }
    let mut k = 2;
    while k < toks.len() && !toks[k].quoted && lex.articles.contains(&ws[k]) {
        k += 1;
    }
    let place = toks.get(k)?;
    let value = |t: &Token| t.raw.contains('@') || t.raw.chars().any(|c| c.is_ascii_digit());
    if place.quoted
        || value(place)
        || match_at(lex.fields, &ws[k..]).is_some()
        || super::super::object::role_phrase(toks, k, lex).is_some()
    {
        return None;
    }
    let mut into = word("into");
    carry_marks(&mut into, &toks[1]);
    let mut log = word("log");
    log.said = vec![toks[0].raw.clone(), toks[1].raw.clone()];
    Some((2, vec![log, into]))
}
