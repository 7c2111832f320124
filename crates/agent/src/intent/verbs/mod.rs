//! One clause → its steps: the verb phrase at its start (the `Lexicon`'s
//! verbs, fillers skipped) chooses the module that reads the rest of the
//! clause, one module per verb.

mod act;
mod choose;
mod click;
mod count;
mod fill;
mod find;
mod lookup;
pub(super) mod message;
mod navigate;
mod open;
mod path;
mod press;
mod property;
mod scroll;
mod search;
mod submit;
mod until;
mod wait;

use super::lexicon::{match_at, Lexicon};
use super::object::{parse_object, role_phrase, Object};
use super::tokens::{lowers, Token};
use super::{Role, Step, Verb};

/// A clause with its verb phrase found: the phrase's words (lower-case),
/// the words after it, and what those say (`parse_object`).
pub(super) struct Clause<'a> {
    pub phrase: Vec<&'a str>,
    pub rest: &'a [Token],
    pub object: Object,
    pub lex: &'a Lexicon,
    /// The words said in place of the verb phrase, when a synonym was
    /// rewritten to it ("stop" for "turn off"); empty otherwise.
    pub said: &'a [String],
}

/// Where the verb phrase of a clause starts and which verb it is: after
/// leading fillers ("please", "now", "then").
pub(super) fn verb_phrase(c: &[Token], lex: &Lexicon) -> Option<(usize, usize, Verb)> {
    let ws = lowers(c);
    let mut i = 0;
    while i < c.len()
        && !c[i].quoted
        && lex.fillers.contains(&ws[i])
        && match_at(lex.verbs, &ws[i..]).is_none()
    {
        i += 1;
    }
    if i >= c.len() || c[i].quoted {
        return None;
    }
    match_at(lex.verbs, &ws[i..]).map(|(n, v)| (i, n, v))
}

/// The index of a clause's first word after its leading fillers; None
/// when there is none or it is a quote (no verb starts a clause then).
fn after_fillers(c: &[Token], ws: &[&str], lex: &Lexicon) -> Option<usize> {
    let start = c
        .iter()
        .zip(ws)
        .position(|(t, w)| t.quoted || !lex.fillers.contains(w))?;
    (!c[start].quoted).then_some(start)
}

/// The steps of one clause; empty when it starts with no verb.
pub(super) fn parse(c: &[Token], lex: &Lexicon) -> Vec<Step> {
    if let Some(p) = path::whole(c, lex) {
        return vec![p];
    }
    if let Some(s) = property::whole(c, lex).or_else(|| act::whole(c, lex)) {
        return vec![s];
    }
    let Some((i, n, verb)) = verb_phrase(c, lex) else {
        return Vec::new();
    };
    let ws = lowers(c);
    let rest = &c[i + n..];
    let clause = Clause {
        phrase: ws[i..i + n].to_vec(),
        rest,
        object: parse_object(rest, lex),
        lex,
        said: &c[i].said,
    };
    if let Some(p) = path::after_verb(&clause, verb) {
        return vec![p];
    }
    if let Some(steps) = count::parse(&clause) {
        return steps;
    }
    // "add a gift message saying X", "add a note": a field the words name
    // is filled, not a control clicked.
    let verb = if verb == Verb::Click
        && clause.phrase == ["add"]
        && (0..rest.len().min(4)).any(|k| {
            matches!(
                super::values::field_at(&ws[i + n + k..], lex),
                Some((_, crate::task::FieldKind::Message))
            )
        }) {
        Verb::Type
    } else if verb == Verb::Click && creates_with_values(&clause) {
        Verb::Submit
    } else {
        verb
    };
    match verb {
        Verb::Click | Verb::Hover | Verb::Focus => click::parse(&clause, verb),
        Verb::Press => press::parse(&clause),
        Verb::Expand | Verb::Explore => open::parse(&clause, verb),
        Verb::Scroll => scroll::parse(&clause),
        Verb::Type => fill::parse(&clause),
        Verb::Select | Verb::Unselect => choose::parse(&clause, verb == Verb::Select),
        Verb::Submit => submit::parse(&clause),
        Verb::Search => search::parse(&clause),
        Verb::Find => find::parse(&clause),
        Verb::Navigate => navigate::parse(&clause),
        Verb::Wait => wait::parse(&clause),
    }
}

/// "Add payee X with routing number N, account number M", "add a new
/// address: name X, street Y, city Z": a verb of making something new
/// followed by two or more values each named by its field is a form to
/// fill and send (its submit says "Add …" or "Save"), not one control to
/// click beside a row.
fn creates_with_values(c: &Clause<'_>) -> bool {
    if !matches!(c.phrase.as_slice(), ["add"] | ["create"]) {
        return false;
    }
    // "add the mug and the towel to my cart": things put somewhere, not values.
    let ws = lowers(c.rest);
    if ws.iter().any(|w| *w == "to" || *w == "into") && ws.iter().any(|w| PLACES.contains(w)) {
        return false;
    }
    // (a name said after the kind, "add a payee Harbor Gas Co, …", is one)
    let vals = match super::values::titled(c.rest, c.lex) {
        Some((name, rest)) => {
            let mut vals = vec![name];
            vals.extend(super::values::values(&rest, c.lex, false, true));
            vals
        }
        None => super::values::values(c.rest, c.lex, false, true),
    };
    // A value is named by its field when the parse found the label, or
    // when it is a run of words ending in a code or number ("routing
    // number 123006800"), which the fill splits against the page's labels.
    let named = |v: &&super::Value| {
        !v.label.trim().is_empty()
            || matches!(&v.source, super::ValueSource::Phrase(p)
                if p.split_whitespace().count() >= 2
                    && p.split_whitespace().last().is_some_and(|w| w.chars().any(|ch| ch.is_ascii_digit())))
    };
    vals.iter().filter(named).count() >= 2
}

/// Where things are added to, as in "add X to the cart".
const PLACES: &[&str] = &[
    "cart", "basket", "bag", "wishlist", "list", "order", "playlist", "folder",
];

/// The "use the textbox" role that the next clause's value goes into.
pub(super) fn used_role(c: &[Token], lex: &Lexicon) -> Option<Role> {
    let first = c.first()?;
    if first.quoted || !matches!(first.lower.as_str(), "use" | "using" | "with") {
        return None;
    }
    role_phrase(c, 1, lex).map(|(_, r, _)| r)
}

/// The condition a wait or a branch waits for (see `wait.rs`).
pub(super) fn wait_condition(toks: &[Token], lex: &Lexicon) -> Option<super::Condition> {
    wait::condition(toks, lex)
}
