//! Values, choice items and patterns of a clause: "username alice and
//! password wonderland", "A, B and C", "starts with X and ends with Y".

use super::lexicon::{match_at, Lexicon};
use super::object::is_article;
use super::tokens::{lowers, Token};
use super::{Value, ValueSource};
use crate::task::FieldKind;

/// Field-kind of a field phrase at the start of `ws`.
pub(super) fn field_at(ws: &[&str], lex: &Lexicon) -> Option<(usize, FieldKind)> {
    match_at(lex.fields, ws)
}

/// "username alice and password wonderland", "as alice", "password: x",
/// quoted values with the words before them as their label.
pub(super) fn values(toks: &[Token], lex: &Lexicon, login: bool) -> Vec<Value> {
    let ws = lowers(toks);
    let mut out: Vec<Value> = Vec::new();
    let mut used = vec![false; toks.len()];
    let mut i = 0;
    while i < toks.len() {
        if toks[i].quoted {
            i += 1;
            continue;
        }
        let as_here = login && lex.as_.contains(&ws[i]) && out.is_empty();
        let field = if as_here {
            Some((1, FieldKind::Username))
        } else {
            field_at(&ws[i..], lex)
        };
        let Some((n, kind)) = field else {
            i += 1;
            continue;
        };
        let label: Vec<&str> = if as_here {
            vec!["username"]
        } else {
            toks[i..i + n].iter().map(|t| t.raw.as_str()).collect()
        };
        let mut j = i + n;
        let colon = toks[j - 1].colon;
        // "field" after the noun ("the password field X" is rare; skip it), copulas.
        while j < toks.len()
            && !toks[j].quoted
            && (lex.copula.contains(&ws[j]) || matches!(ws[j], "field" | "box"))
            && !colon
        {
            j += 1;
        }
        let Some(v) = toks.get(j) else {
            break;
        };
        if v.quoted {
            out.push(Value {
                source: ValueSource::Literal(v.raw.clone()),
                field: kind,
                label: label.join(" "),
                transforms: Vec::new(),
            });
            used[j] = true;
            i = j + 1;
            continue;
        }
        // An unquoted value: one word (a second only when the sentence goes
        // on with a word that is no connective), never a field noun itself.
        let stop_word = |k: usize| -> bool {
            let w = ws[k];
            toks[k].quoted
                || lex.and.contains(&w)
                || lex.into.contains(&w)
                || matches!(
                    w,
                    "with" | "using" | "and" | "then" | "field" | "box" | "the" | "a" | "an"
                )
                || field_at(&ws[k..], lex).is_some()
        };
        if stop_word(j) || lex.articles.contains(&ws[j]) {
            i = j;
            continue;
        }
        let mut k = j;
        let mut words = Vec::new();
        while k < toks.len() && !stop_word(k) && words.len() < 4 {
            words.push(toks[k].raw.clone());
            if toks[k].comma || toks[k].stop {
                k += 1;
                break;
            }
            k += 1;
            // Names of people may take two words; other values one.
            if kind != FieldKind::Name && kind != FieldKind::Other && kind != FieldKind::Message {
                break;
            }
        }
        if !words.is_empty() {
            out.push(Value {
                source: ValueSource::Literal(words.join(" ")),
                field: kind,
                label: label.join(" "),
                transforms: Vec::new(),
            });
        }
        i = k.max(i + 1);
    }
    // Quoted values not claimed by a field noun: labelled by the words before.
    for (q, t) in toks.iter().enumerate() {
        if !t.quoted
            || used[q]
            || out
                .iter()
                .any(|v| matches!(&v.source, ValueSource::Literal(s) if *s == t.raw))
        {
            continue;
        }
        let before: Vec<&str> = ws[q.saturating_sub(3)..q].to_vec();
        let kind = (0..before.len())
            .find_map(|k| field_at(&before[k..], lex).map(|(_, f)| f))
            .unwrap_or(if t.raw.contains('@') {
                FieldKind::Email
            } else {
                FieldKind::Other
            });
        out.push(Value {
            source: ValueSource::Literal(t.raw.clone()),
            field: kind,
            label: before.join(" "),
            transforms: Vec::new(),
        });
    }
    out
}

/// Items of a choice: "A, B and C" (quoted or plain), up to `upto`.
pub(super) fn items(toks: &[Token], lex: &Lexicon, upto: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Vec<String> = Vec::new();
    for t in &toks[..upto.min(toks.len())] {
        if !t.quoted && lex.and.contains(&t.lower.as_str()) {
            if !cur.is_empty() {
                out.push(cur.join(" "));
                cur.clear();
            }
            continue;
        }
        if !t.quoted && cur.is_empty() && is_article(lex, &t.lower) {
            continue;
        }
        cur.push(t.raw.clone());
        if t.comma || t.quoted {
            out.push(cur.join(" "));
            cur.clear();
        }
    }
    if !cur.is_empty() {
        out.push(cur.join(" "));
    }
    out
}

/// "an item that starts with X and ends with Y": a pattern the value must fit.
pub(super) fn pattern_of(toks: &[Token], lex: &Lexicon) -> Option<ValueSource> {
    let ws = lowers(toks);
    let find = |ps: &[&[&str]]| -> Option<String> {
        (0..toks.len()).find_map(|k| {
            ps.iter().find_map(|p| {
                let hit = ws.len() > k + p.len() && p.iter().zip(&ws[k..]).all(|(a, b)| a == b);
                hit.then(|| toks[k + p.len()].raw.clone())
            })
        })
    };
    let _ = lex;
    let starts = find(&[
        &["starts", "with"],
        &["begins", "with"],
        &["starting", "with"],
        &["beginning", "with"],
    ]);
    let ends = find(&[
        &["ends", "with"],
        &["ending", "with"],
        &["ending", "in"],
        &["ends", "in"],
    ]);
    (starts.is_some() || ends.is_some()).then_some(ValueSource::Pattern { starts, ends })
}
