//! Setting a property of a thing: "make X an administrator", "mark X as
//! paid", "move X to Done", "update X to Express". The thing is named
//! first, the property's new value after the verb's joining word (the
//! `Lexicon`'s `settings`): the value goes into the setting of the thing's
//! own row or card (`Relation::Of` the thing), never a global form's field
//! of the same name. Only the whole construct is read here; a clause of
//! these verbs that is not one ("make a copy of X") keeps its old reading.

use crate::intent::lexicon::{match_at, Lexicon};
use crate::intent::tokens::{lowers, Token};
use crate::intent::{Relation, Step, Target, Value};
use crate::task::FieldKind;

/// The steps of a clause "<setting verb> X <joining word> Y", after its
/// leading fillers; None when the clause is not one.
pub(super) fn whole(c: &[Token], lex: &Lexicon) -> Option<Step> {
    let ws = lowers(c);
    let start = super::after_fillers(c, &ws, lex)?;
    let (n, joins) = match_at(lex.settings, &ws[start..])?;
    let rest = &c[start + n..];
    let rws = &ws[start + n..];
    // The joining word after at least one word of the thing; the last one
    // ("move the card for Q3 to Done"), but for an article ("make X a Y")
    // the first, as the value may hold one of its own.
    let joined = |k: usize| k > 0 && !rest[k].quoted && joins.contains(&rws[k]);
    let k = if joins.iter().any(|j| lex.articles.contains(j)) {
        (0..rest.len()).find(|&k| joined(k))?
    } else {
        (0..rest.len()).rev().find(|&k| joined(k))?
    };
    // "make me an account: …": a person, not a thing with a setting; a
    // value that goes on into a list of fields is a form, not a setting.
    let said = &rest[k + 1..];
    if rest[..k]
        .iter()
        .all(|t| !t.quoted && lex.pronouns_personal.contains(&t.lower.as_str()))
        || said.iter().any(|t| t.colon || t.comma)
        || said.iter().filter(|t| !t.quoted).count() > 4
    {
        return None;
    }
    // "update my postcode to X": the words name a field of the user's own
    // form, not a thing with a row; the field-to-value reading keeps it.
    if names_a_field(&rest[..k], lex) {
        return None;
    }
    // "update my address line 1 to X and ZIP code to Y": two fields each
    // set to its value, the first named before the first joining word.
    let first = (0..rest.len()).find(|&j| joined(j))?;
    if first < k && mentions_a_field(&rest[..first], lex) {
        return None;
    }
    let thing = thing_named(&rest[..k], lex)?;
    let value: Vec<&str> = rest[k + 1..]
        .iter()
        .enumerate()
        .skip_while(|(i, t)| *i == 0 && !t.quoted && lex.articles.contains(&t.lower.as_str()))
        .map(|(_, t)| t.raw.as_str())
        .collect();
    if value.is_empty() {
        return None;
    }
    Some(Step::Fill {
        values: vec![Value::literal(value.join(" "), FieldKind::Other, "")],
        field: Target {
            relation: Some((Relation::Of, thing)),
            ..Target::default()
        },
    })
}

/// True when the words, after articles and possessives, are all one field
/// noun of the lexicon ("my postcode", "the email address"), unquoted and
/// with no capitalised name among them.
fn names_a_field(toks: &[Token], lex: &Lexicon) -> bool {
    plain_words(toks, lex)
        .is_some_and(|words| match_at(lex.fields, &words).is_some_and(|(n, _)| n == words.len()))
}

/// True when the few plain words (no quote, no capitalised name after
/// articles and possessives) hold a field noun of the lexicon ("my address
/// line 1", "the postal code").
fn mentions_a_field(toks: &[Token], lex: &Lexicon) -> bool {
    plain_words(toks, lex).is_some_and(|words| {
        !words.is_empty()
            && words.len() <= 4
            && (0..words.len()).any(|p| match_at(lex.fields, &words[p..]).is_some())
    })
}

/// The lowercase words after articles and possessives, when none of them
/// is quoted or capitalised (a name, not a field noun); None otherwise.
fn plain_words<'t>(toks: &'t [Token], lex: &Lexicon) -> Option<Vec<&'t str>> {
    let words: Vec<&str> = toks
        .iter()
        .map(|t| t.lower.as_str())
        .skip_while(|w| lex.articles.contains(w) || lex.possessives.contains(w))
        .collect();
    let skipped = toks.len() - words.len();
    toks[skipped..]
        .iter()
        .all(|t| !t.quoted && !t.raw.chars().next().is_some_and(char::is_uppercase))
        .then_some(words)
}

/// The words that name the thing: articles and "my" dropped; a quoted
/// name stands alone ("the issue "KES-210""), and a lowercase kind before
/// a capitalised name is the kind, not the name ("the book Dune", "the
/// issue Login redirect loops on Safari"). None when nothing is left.
pub(super) fn thing_named(toks: &[Token], lex: &Lexicon) -> Option<String> {
    if let Some(q) = toks.iter().find(|t| t.quoted) {
        return Some(q.raw.clone());
    }
    let words: Vec<&Token> = toks
        .iter()
        .skip_while(|t| {
            lex.articles.contains(&t.lower.as_str()) || lex.possessives.contains(&t.lower.as_str())
        })
        .collect();
    let capital = |t: &Token| t.raw.chars().next().is_some_and(char::is_uppercase);
    let name_at = words.iter().position(|t| capital(t)).unwrap_or(0);
    let name: Vec<&str> = words[name_at..].iter().map(|t| t.raw.as_str()).collect();
    (!name.is_empty()).then(|| name.join(" "))
}
