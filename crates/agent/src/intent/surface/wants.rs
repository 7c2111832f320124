//! A count wanted: "I'd like three pairs of the wool mittens in my
//! basket", "could I get two of the front-row seats for the play?". A
//! desire (or "could / can I get / have"), a number, an optional unit
//! ("pairs of", "boxes of") or "of", and the thing: what the terse "set the
//! wool mittens to 3" says. Read as it stands, the desire is a choice or a
//! question and the number is lost. The place or occasion after the thing
//! ("in my basket", "for the play") is the page's own and goes.

use super::super::lexicon::{match_at, Lexicon};
use super::super::tokens::{lowers, Token};
use super::*;

/// Asking to have something: "could I get", "can I have".
const ASKING_TO_HAVE: &[(&[&str], ())] = &[
    (&["could", "i", "get"], ()),
    (&["could", "i", "have"], ()),
    (&["can", "i", "get"], ()),
    (&["can", "i", "have"], ()),
    (&["could", "we", "get"], ()),
    (&["could", "we", "have"], ()),
    (&["can", "we", "get"], ()),
    (&["can", "we", "have"], ()),
];

/// Prepositions that end the thing counted ("in my basket", "for the show").
const AFTER_THING: &[&str] = &["in", "into", "to", "for", "on", "at"];

pub(super) fn counts(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    rewrite(&toks, |i, _| {
        if starts_clause(&toks, i, lex) && !toks[i].quoted {
            wanted_count(&toks[i..], lex)
        } else {
            None
        }
    })
}

/// The words a wanted count takes and "set THING to N" for them.
fn wanted_count(toks: &[Token], lex: &Lexicon) -> Option<(usize, Vec<Token>)> {
    let end = segment_end(toks, lex);
    let seg = &toks[..end];
    let ws = lowers(seg);
    // ("Hi, could I get…": greetings and courtesy before the desire; the
    // lexicon's fillers hold "could" and "i" too, so each start is tried.)
    let lead = seg
        .iter()
        .take_while(|t| !t.quoted && lex.fillers.contains(&t.lower.as_str()))
        .count();
    let (mut k, n) = (0..=lead.min(seg.len().saturating_sub(1))).find_map(|k| {
        match_at(lex.desires, &ws[k..])
            .or_else(|| match_at(ASKING_TO_HAVE, &ws[k..]))
            .map(|(n, _)| (k, n))
    })?;
    k += n;
    let num = seg.get(k).filter(|t| !t.quoted)?;
    let count = if num.raw.chars().all(|c| c.is_ascii_digit()) {
        num.raw.clone()
    } else {
        // ("a" and "an" are articles here, not one.)
        let v = lex
            .numbers
            .iter()
            .find(|(w, _)| *w == ws[k] && !matches!(*w, "a" | "an"))?
            .1;
        format!("{v}")
    };
    k += 1;
    // "pairs of", "boxes of": a unit of the thing; a bare "of".
    if ws.get(k + 1) == Some(&"of") && ws[k].ends_with('s') && !seg[k].quoted {
        k += 2;
    } else if ws.get(k) == Some(&"of") {
        k += 1;
    } else {
        // "I'd like 3 tickets": already a count the grammar reads.
        return None;
    }
    let thing_end = (k..end)
        .find(|&j| !seg[j].quoted && AFTER_THING.contains(&ws[j]))
        .unwrap_or(end);
    let thing = &seg[k..thing_end];
    if thing.is_empty()
        || thing
            .iter()
            .all(|t| lex.articles.contains(&t.lower.as_str()))
    {
        return None;
    }
    let mut words = vec![word("set")];
    words.extend(thing.iter().cloned());
    if let Some(l) = words.last_mut() {
        clear_marks(l);
    }
    words.push(word("to"));
    words.push(word(&count));
    let mut words = in_place_of(words, &seg[end - 1]);
    // ("could I get two of them?": a request now, no question to answer.)
    if let Some(l) = words.last_mut().filter(|l| l.mark.contains('?')) {
        l.mark = l.mark.replace('?', ".");
    }
    Some((end, words))
}
