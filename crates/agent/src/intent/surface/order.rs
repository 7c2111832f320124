//! Word order: a toggle's particle after its object ("push on"), the
//! object before its verb ("INV-2043, download", "catalogue search:").

use super::super::lexicon::{match_at, Lexicon};
use super::super::tokens::{lowers, Token};
use super::*;

/// "email notifications off", "switch two-step verification on": a
/// toggle's particle after its object → "turn off email notifications".
pub(super) fn particles(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    for r in segments(&toks) {
        // Within a segment, "and" / "then" start another clause too.
        let seg = &toks[r];
        let mut from = 0;
        for k in 1..=seg.len() {
            let joins = seg.get(k).is_some_and(|t| {
                !t.quoted
                    && (lex.and.contains(&t.lower.as_str()) || lex.then.contains(&t.lower.as_str()))
            });
            if k == seg.len() || joins {
                let part = &seg[from..k];
                out.extend(particle(part, lex).unwrap_or_else(|| part.to_vec()));
                from = k;
            }
        }
    }
    out
}

fn particle(seg: &[Token], lex: &Lexicon) -> Option<Vec<Token>> {
    // A leading "and" / "then" / filler stays where it is.
    let lead = seg
        .iter()
        .take_while(|t| {
            !t.quoted
                && (lex.and.contains(&t.lower.as_str()) || lex.then.contains(&t.lower.as_str()))
        })
        .count();
    let (head, body) = seg.split_at(lead);
    let last = body.last()?;
    if body.len() < 2 || last.quoted || !matches!(last.lower.as_str(), "on" | "off") {
        return None;
    }
    let ws = lowers(body);
    let toggle_verb = lex.toggle_verbs.contains(&ws[0]) && !body[0].quoted;
    // A verb phrase that takes the particle itself ("log on", "click on")
    // or acts on its own ("click X on") is no toggle; a bare word the
    // lexicon also knows as a verb ("push on") is the toggle's name.
    let verb = super::super::verbs::verb_phrase(body, lex);
    let named_like_verb = verb.is_some_and(|(s, n, _)| s == 0 && n == 1 && body.len() == 2);
    if !toggle_verb && verb.is_some() && !named_like_verb {
        return None;
    }
    let object = &body[usize::from(toggle_verb)..body.len() - 1];
    if object.is_empty() {
        return None;
    }
    let mut out: Vec<Token> = head.to_vec();
    out.push(word("turn"));
    out.push(word(&last.lower));
    // The object is the toggle's name ("push on": a label, not the verb "push").
    let obj = if object.iter().all(|t| !t.quoted) {
        let raw: Vec<&str> = object.iter().map(|t| t.raw.as_str()).collect();
        let mut q = word(&raw.join(" "));
        q.quoted = true;
        vec![q]
    } else {
        object.to_vec()
    };
    out.extend(in_place_of(obj, last));
    Some(out)
}

/// The object said before its verb: "INV-2043, download", "cheapest plan,
/// select" (a verb standing alone after a clause with none) → "download
/// INV-2043"; "catalogue search: octopus", "weekly offers signup:
/// kai@…" (a noun phrase ending in a verb's noun, then a colon) → "search
/// catalogue for octopus", "sign up for weekly offers with kai@…".
pub(super) fn verb_last(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    let segs = segments(&toks);
    let mut out: Vec<Vec<Token>> = Vec::new();
    for r in segs {
        let seg = toks[r].to_vec();
        let ws = lowers(&seg);
        // A verb alone (with its punctuation), after a verb-less clause.
        let alone = super::super::verbs::verb_phrase(&seg, lex).and_then(|(s, n, v)| {
            (s == 0 && n == seg.len() && lex.object_first.contains(&v)).then_some(())
        });
        let prev_verbless = out.last().is_some_and(|p: &Vec<Token>| {
            !p.is_empty()
                && super::super::verbs::verb_phrase(p, lex).is_none()
                && !p.iter().all(|t| t.quoted)
                && match_at(lex.fields, &lowers(p)).is_none()
        });
        if alone.is_some() && prev_verbless {
            let mut prev = out.pop().unwrap_or_default();
            let mut verb = seg.clone();
            if let (Some(v), Some(p)) = (verb.last_mut(), prev.last_mut()) {
                let marks = v.clone();
                clear_marks(v);
                carry_marks(p, &marks);
            }
            verb.append(&mut prev);
            out.push(verb);
            continue;
        }
        // "X search:", "X signup," with more after it.
        if seg.len() >= 2
            && seg
                .last()
                .is_some_and(|t| !t.quoted && (t.colon || t.comma))
        {
            let lastw = ws[ws.len() - 1];
            if let Some((_, (verb, glue))) = lex
                .object_nouns
                .iter()
                .find(|(n, _)| *n == lastw)
                .map(|(n, vg)| (n, *vg))
            {
                let object = &seg[..seg.len() - 1];
                if super::super::verbs::verb_phrase(object, lex).is_none()
                    && object.iter().all(|t| !t.quoted)
                {
                    let mut phrase: Vec<Token> = verb.iter().map(|w| word(w)).collect();
                    phrase.extend(object.iter().cloned().map(|mut t| {
                        clear_marks(&mut t);
                        t
                    }));
                    phrase.push(word(glue));
                    out.push(phrase);
                    continue;
                }
            }
        }
        out.push(seg);
    }
    out.into_iter().flatten().collect()
}
