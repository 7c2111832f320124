//! log in / sign up / submit / send / subscribe / book / pay … (with
//! values): the values into their fields, then the form's submit control.

use super::Clause;
use crate::intent::values::values;
use crate::intent::{Step, Target, Touch, ValueSource};

pub(super) fn parse(c: &Clause<'_>) -> Vec<Step> {
    // "send it on to Britteny", "send Effie's email to Bari": a message
    // already there goes on to someone, as "forward" says.
    if let Some(steps) = send_on(c) {
        return steps;
    }
    let login = matches!(c.phrase[0], "log" | "login" | "sign" | "signin");
    // "create a reminder Renew passport on …": the made thing's name first.
    let making = matches!(
        c.phrase.as_slice(),
        ["create"] | ["add"] | ["schedule"] | ["make"] | ["plan"] | ["set", "up"]
    );
    let vals = match making
        .then(|| crate::intent::values::titled(c.rest, c.lex))
        .flatten()
    {
        Some((name, rest)) => {
            let mut vals = vec![name];
            vals.extend(values(&rest, c.lex, login, true));
            vals
        }
        None => values(c.rest, c.lex, login, true),
    };
    let mut out = Vec::new();
    let button = c
        .object
        .quoted
        .iter()
        .find(|(_, q)| {
            !vals
                .iter()
                .any(|v| matches!(&v.source, ValueSource::Literal(x) if x == q))
        })
        .map(|(_, q)| q.clone());
    let nothing_to_fill = vals.is_empty();
    if !vals.is_empty() {
        out.push(Step::Fill {
            values: vals,
            field: Target::default(),
        });
    }
    // "Book the nearest dermatologist", nothing to fill: the superlative's
    // control is the one that books; a submit first would press the first
    // "Book" of the list.
    if !(nothing_to_fill && button.is_none() && c.object.extreme.is_some()) {
        out.push(Step::Submit {
            phrase: c.phrase.join(" "),
            button,
        });
    }
    // "Book the shortest flight from … to …": the search, then among the
    // results the one the superlative picks, by the control that does it.
    if let Some(x) = c.object.extreme {
        let mut verb = c.phrase[0].to_string();
        if let Some(f) = verb.get_mut(..1) {
            f.make_ascii_uppercase();
        }
        out.push(Step::Click {
            target: Target {
                text: Some(verb),
                extreme: Some(x),
                ..Target::default()
            },
            touch: Touch::Click,
        });
    }
    out
}

/// "send it (on) to X", "send that email to X", "send Effie's email to X".
fn send_on(c: &Clause<'_>) -> Option<Vec<Step>> {
    if c.phrase != ["send"] || !c.object.quoted.is_empty() {
        return None;
    }
    let words: Vec<&str> = c.rest.iter().map(|t| t.lower.as_str()).collect();
    let to = words.iter().position(|w| *w == "to")?;
    let what = &words[..to];
    let author = super::message::author(c.rest);
    let names_it = what
        .iter()
        .any(|w| matches!(*w, "it" | "this" | "that" | "them"))
        || author.is_some();
    if !names_it || to + 1 >= words.len() {
        return None;
    }
    let mut steps = super::click::message_flow_as(c, true)?;
    if let Some(a) = author {
        steps.insert(0, super::message::find_by(a));
    }
    Some(steps)
}
