//! A statement before a request: "the build bot key leaked, revoke it",
//! "Ana Ruiz sent me three files, open the last one", "I get too much
//! spam, turn off the promotions". The statement says why, or what the
//! request's pronoun stands for; it is no step of its own. It goes, and
//! the thing it names takes the place of the request's "it" / "them" /
//! "that <noun>" / "the <ordinal> one".

use super::super::lexicon::{match_at, Lexicon};
use super::super::tokens::{lowers, Token};
use super::*;

pub(super) fn statements(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        // Only at the start of the task or of a sentence.
        let sentence_start = i == 0 || toks[i - 1].stop;
        let end = if sentence_start {
            statement_end(&toks[i..], lex).map(|n| i + n)
        } else {
            None
        };
        let Some(end) = end else {
            out.push(toks[i].clone());
            i += 1;
            continue;
        };
        let statement = &toks[i..end];
        let referent = referent(statement, lex);
        let counted = counted_noun(statement, lex);
        let mut rest: Vec<Token> = toks[end..].to_vec();
        replace_pronoun(&mut rest, referent.as_deref(), counted.as_deref(), lex);
        out.extend(rest);
        break;
    }
    out
}

/// How many tokens a statement at the start of `toks` takes (its words
/// and the comma or stop after them), when a request follows it.
fn statement_end(toks: &[Token], lex: &Lexicon) -> Option<usize> {
    let n = toks.iter().position(|t| t.comma || t.stop)? + 1;
    let seg = &toks[..n];
    if n >= toks.len() || seg.iter().any(|t| t.colon) || !is_statement(seg, lex) {
        return None;
    }
    request_at(&toks[n..], lex).then_some(n)
}

/// "Our team uses Slack, Zoom and Notion - could you tick those …": the
/// names a statement lists stand for the request's "those" / "them", and
/// the statement goes. Before the question pass, which would read the
/// whole sentence as something to answer.
pub(super) fn listings(toks: Vec<Token>, lex: &Lexicon) -> Vec<Token> {
    for i in 0..toks.len() {
        if i > 0 && !toks[i - 1].stop {
            continue;
        }
        let Some((n, items)) = listing(&toks[i..], lex) else {
            continue;
        };
        let mut rest: Vec<Token> = toks[i + n..].to_vec();
        if replace_plural(&mut rest, &items) {
            let mut out = toks[..i].to_vec();
            out.extend(rest);
            return out;
        }
    }
    toks
}

/// A dash standing alone between a statement and what follows it.
fn is_dash(t: &Token) -> bool {
    !t.quoted && matches!(t.raw.as_str(), "-" | "–" | "—")
}

/// A statement at the start of `toks` that lists names after its verb
/// ("Our team uses Slack, Zoom and Notion", "we're on A, B and C"), up to
/// a dash or comma before a request, or its sentence's end: how many
/// tokens it takes (its separator too), and the list.
fn listing(toks: &[Token], lex: &Lexicon) -> Option<(usize, Vec<Token>)> {
    for (k, t) in toks.iter().enumerate() {
        let (seg_end, next) = if is_dash(t) {
            (k, k + 1)
        } else if t.comma || t.stop {
            (k + 1, k + 1)
        } else {
            continue;
        };
        if next < toks.len() && request_at(&toks[next..], lex) {
            return listed_names(&toks[..seg_end], lex).map(|items| (next, items));
        }
        if t.stop || is_dash(t) {
            return None;
        }
    }
    None
}

/// The names a statement lists after its subject and verb: two or more
/// capitalised words or runs, joined by commas and "and" / "or".
fn listed_names(seg: &[Token], lex: &Lexicon) -> Option<Vec<Token>> {
    let ws = lowers(seg);
    let first = *ws.first()?;
    let subject = lex.subject_contractions.contains(&first)
        || lex.subjects.contains(&first) && !matches!(first, "it" | "you")
        || lex.possessives.contains(&first);
    if !subject || seg.iter().any(|t| t.quoted || t.raw.contains('@')) {
        return None;
    }
    // The verb within the subject's first words ("our team uses", "we're").
    let verb = if lex.subject_contractions.contains(&first) {
        0
    } else {
        (1..seg.len().min(4)).find(|&k| finite(lex, &seg[k]))?
    };
    let from = (verb + 1..seg.len()).find(|&k| capitalised(&seg[k]))?;
    let joins = |t: &Token| lex.and.contains(&t.lower.as_str()) || t.lower == "or";
    let items = &seg[from..];
    let names = items.iter().filter(|t| capitalised(t)).count();
    let list = items.iter().all(|t| capitalised(t) || joins(t));
    let separated = items.iter().any(|t| t.comma || joins(t));
    (list && separated && names >= 2).then(|| {
        let mut v = items.to_vec();
        if let Some(l) = v.last_mut() {
            clear_marks(l);
        }
        v
    })
}

/// The first "those" / "these" / "them" of the request's first sentence,
/// replaced by `items`; false when it has none (the list was no referent).
fn replace_plural(s: &mut Vec<Token>, items: &[Token]) -> bool {
    let limit = sentences(s).into_iter().next().map_or(s.len(), |r| r.end);
    let Some(at) = (0..limit)
        .find(|&k| !s[k].quoted && matches!(s[k].lower.as_str(), "those" | "these" | "them"))
    else {
        return false;
    };
    let words = in_place_of(items.to_vec(), &s[at]);
    s.splice(at..at + 1, words);
    true
}

/// A request starts `toks`: courtesy and request framing, then a verb.
fn request_at(toks: &[Token], lex: &Lexicon) -> bool {
    let ws = lowers(toks);
    let mut k = 0;
    while k < toks.len() && !toks[k].quoted && lex.fillers.contains(&ws[k]) {
        k += 1;
    }
    if let Some((n, _)) = match_at(lex.requests, &ws[k..]) {
        k += n;
    }
    let rest = &toks[k.min(toks.len())..];
    rest.first().is_some_and(|t| !t.quoted)
        && (super::super::verbs::verb_phrase(rest, lex).is_some_and(|(v, _, _)| v == 0)
            || match_at(lex.synonyms, &ws[k..]).is_some()
            || lex.toggle_verbs.contains(&ws[k]))
}

fn finite(lex: &Lexicon, t: &Token) -> bool {
    !t.quoted
        && (lex.statement_verbs.contains(&t.lower.as_str())
            || (t.lower.len() > 4 && t.lower.ends_with("ed")))
}

/// A capitalised word that is no "I" / "I've" (a name's word).
fn capitalised(t: &Token) -> bool {
    !t.quoted
        && t.raw != "I"
        && !t.raw.starts_with("I'")
        && !t.raw.starts_with("I’")
        && t.raw.chars().next().is_some_and(char::is_uppercase)
}

/// A clause that says what is or happened, with no value in it: a
/// subject ("I", "we", a name, "the <noun>") and a finite verb after it.
fn is_statement(seg: &[Token], lex: &Lexicon) -> bool {
    let ws = lowers(seg);
    if seg.len() < 3 || seg.iter().any(|t| t.quoted || t.raw.contains('@')) {
        return false;
    }
    // A number is a value ("we're 4 people"), unless it is part of a
    // thing's name ("the printer on floor 3").
    let names_it = |k: usize| {
        k > 0
            && seg[k - 1].raw.chars().all(char::is_lowercase)
            && !lex.articles.contains(&ws[k - 1])
            && !lex.subjects.contains(&ws[k - 1])
            && !lex.copula.contains(&ws[k - 1])
            && !lex.into.contains(&ws[k - 1])
            && !lex.within.contains(&ws[k - 1])
            && !matches!(ws[k - 1], "for" | "at" | "by" | "with" | "about")
            && !finite(lex, &seg[k - 1])
    };
    let bare_number = seg.iter().enumerate().any(|(k, t)| {
        t.raw.chars().any(|c| c.is_ascii_digit())
            && !(t.raw.chars().all(|c| c.is_ascii_digit()) && names_it(k))
    });
    if bare_number {
        return false;
    }
    let opens_other = lex.if_.contains(&ws[0])
        || lex.once.iter().any(|o| ws.starts_with(o))
        || lex.asking.contains(&ws[0]) && !lex.subjects.contains(&ws[0])
        || match_at(lex.requests, &ws).is_some()
        || match_at(lex.desires, &ws).is_some()
        || match_at(lex.self_naming, &ws).is_some()
        || super::super::verbs::verb_phrase(seg, lex).is_some_and(|(v, _, _)| v == 0)
        || match_at(lex.synonyms, &ws).is_some();
    if opens_other {
        return false;
    }
    if lex.subject_contractions.contains(&ws[0]) {
        return true;
    }
    // "I get …", "we don't use …", "I really like …": the verb right
    // after the subject ("I actually want 3 of …" is a wish, not this).
    if lex.subjects.contains(&ws[0]) && !matches!(ws[0], "it" | "you") {
        return seg[1..3.min(seg.len())].iter().any(|t| finite(lex, t));
    }
    if capitalised(&seg[0]) {
        let run = seg.iter().take_while(|t| capitalised(t)).count();
        return seg.get(run).is_some_and(|t| finite(lex, t));
    }
    if lex.articles.contains(&ws[0]) {
        return seg[2..]
            .iter()
            .any(|t| finite(lex, t) || matches!(t.lower.as_str(), "that" | "which" | "who"));
    }
    false
}

/// What a statement is about: an identifier ("old-landing", "ci-deploy"),
/// else a name (capitalised words), else its subject ("the printer on
/// floor 3" of "the printer on floor 3 works again"). None for "I" / "we".
fn referent(seg: &[Token], lex: &Lexicon) -> Option<Vec<Token>> {
    let clean = |ts: &[Token]| -> Vec<Token> {
        let mut v = ts.to_vec();
        for t in &mut v {
            clear_marks(t);
        }
        v
    };
    if let Some(t) = seg.iter().find(|t| {
        t.raw.chars().any(char::is_alphabetic)
            && (t.raw.contains('-') || t.raw.contains('#'))
            && !t.raw.starts_with('-')
    }) {
        return Some(clean(std::slice::from_ref(t)));
    }
    if let Some(s) = seg.iter().position(capitalised) {
        let n = seg[s..].iter().take_while(|t| capitalised(t)).count();
        return Some(clean(&seg[s..s + n]));
    }
    let ws = lowers(seg);
    if !lex.articles.contains(&ws[0]) {
        return None;
    }
    let from = 1;
    let to = (from..seg.len())
        .find(|&k| finite(lex, &seg[k]) || matches!(ws[k], "that" | "which" | "who"))
        .unwrap_or(seg.len());
    (to > from).then(|| clean(&seg[from..to]))
}

/// "three files" → "file": the noun after a count, for "the last one".
fn counted_noun(seg: &[Token], lex: &Lexicon) -> Option<String> {
    seg.windows(2).find_map(|w| {
        let count = lex
            .numbers
            .iter()
            .any(|(n, _)| *n == w[0].lower && *n != "a" && *n != "an")
            || w[0].raw.chars().all(|c| c.is_ascii_digit());
        let noun = w[1].lower.strip_suffix('s')?;
        (count && !w[1].quoted && noun.len() > 2).then(|| noun.to_string())
    })
}

/// The request's first word standing for the statement's thing, replaced
/// by it: "it" / "them"; "her" / "him" (a name only); "that <noun>";
/// "the <ordinal> one" (the counted noun, from the name).
fn replace_pronoun(
    s: &mut Vec<Token>,
    referent: Option<&[Token]>,
    counted: Option<&str>,
    lex: &Lexicon,
) {
    let limit = sentences(s).into_iter().next().map_or(s.len(), |r| r.end);
    for at in 0..limit {
        let t = &s[at];
        if t.quoted {
            continue;
        }
        let w = t.lower.as_str();
        let after_ordinal = at > 0 && lex.ordinals.iter().any(|(o, _)| *o == s[at - 1].lower);
        if w == "one" && after_ordinal {
            let Some(noun) = counted else { return };
            let mut words = vec![word(noun)];
            if let Some(r) = referent.filter(|r| r.iter().all(capitalised)) {
                words.push(word("from"));
                words.extend(r.iter().cloned());
            }
            let words = in_place_of(words, &s[at]);
            s.splice(at..at + 1, words);
            return;
        }
        let Some(r) = referent else { continue };
        let person = matches!(w, "her" | "him");
        if matches!(w, "it" | "them") || (person && r.iter().all(capitalised)) {
            let words = in_place_of(r.to_vec(), &s[at]);
            s.splice(at..at + 1, words);
            return;
        }
        // "that ticket", "this mail": the thing the statement named.
        let noun_next = s.get(at + 1).is_some_and(|n| {
            !n.quoted
                && n.raw.chars().all(char::is_lowercase)
                && super::super::verbs::verb_phrase(&s[at + 1..], lex)
                    .is_none_or(|(v, _, _)| v != 0)
        });
        if matches!(w, "that" | "this") && noun_next && !t.comma {
            let words = in_place_of(r.to_vec(), &s[at + 1]);
            s.splice(at..at + 2, words);
            return;
        }
    }
}
