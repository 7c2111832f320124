//! select / choose / tick / check / uncheck / accept / turn on X: ticking
//! exactly a set, "nothing", "all", options "similar to" words, an option
//! of a list or dropdown, or a value for a field ("12/03/2024 as the date").

use super::Clause;
use crate::intent::lexicon::match_at;
use crate::intent::object::{plain_text, role_phrase, target_of};
use crate::intent::tokens::lowers;
use crate::intent::values::{field_at, items};
use crate::intent::{Choice, Role, Step, Target, Value};
use crate::task::FieldKind;

pub(super) fn parse(c: &Clause<'_>, on: bool) -> Vec<Step> {
    let (rest, lex, o) = (c.rest, c.lex, &c.object);
    // "choose a city starting with Portland and ending with ME": a value
    // said by a constraint, for the field the noun names.
    if on {
        if let Some((v, left)) = crate::intent::values::constrained(rest) {
            if left
                .iter()
                .all(|t| !t.quoted && lex.articles.contains(&t.lower.as_str()))
            {
                return vec![Step::Fill {
                    values: vec![v],
                    field: Target::default(),
                }];
            }
        }
    }
    // "Select 12/03/2024 as the date": a value for a field.
    if let Some(k) = rest
        .iter()
        .position(|t| !t.quoted && lex.as_.contains(&t.lower.as_str()))
    {
        let fws = lowers(&rest[k + 1..]);
        // "Select A, B and C as the tools you use": a set, named by the
        // group it belongs to, never one value for a field.
        let set = items(rest, lex, k).len() >= 2;
        if k > 0
            && !set
            && ((0..fws.len()).any(|j| field_at(&fws[j..], lex).is_some())
                || role_phrase(rest, k + 1, lex).is_some()
                || fws.first().is_some_and(|w| lex.articles.contains(w)))
        {
            let v: Vec<&str> = rest[..k].iter().map(|t| t.raw.as_str()).collect();
            let label = plain_text(&super::parse_object(&rest[k + 1..], lex), usize::MAX)
                .unwrap_or_default();
            let kind = (0..fws.len())
                .find_map(|j| field_at(&fws[j..], lex).map(|(_, f)| f))
                .unwrap_or(FieldKind::Other);
            return vec![Step::Fill {
                values: vec![Value::literal(v.join(" "), kind, label)],
                field: Target::default(),
            }];
        }
    }
    // "Select 5 with the slider", "pick Large using the dropdown": the
    // value, set by the control named after "with" / "using".
    if let Some(step) = with_instrument(c) {
        return vec![step];
    }
    let like_at = (0..rest.len()).find_map(|k| {
        let ws = lowers(&rest[k..]);
        lex.like
            .iter()
            .find(|p| ws.len() >= p.len() && p.iter().zip(&ws).all(|(a, b)| a == b))
            .map(|p| (k, p.len()))
    });
    let within_at = rest
        .iter()
        .enumerate()
        .position(|(k, t)| {
            !t.quoted
                && lex.within.contains(&t.lower.as_str())
                && role_phrase(rest, k + 1, lex).is_some()
        })
        .unwrap_or(rest.len());
    let mut target = Target {
        text: None,
        role: o
            .role
            .filter(|r| !matches!(r, Role::List | Role::Dropdown | Role::Menu | Role::Dialog)),
        ordinal: o.ordinal,
        relation: o.relation.clone(),
        extreme: o.extreme,
        all: false,
    };
    let within = o.within.as_ref().map(|(_, words)| words.clone());
    if let Some((r, _)) = o.within {
        if target.role.is_none() && matches!(r, Role::Dropdown) {
            target.role = Some(Role::Dropdown);
        }
    }
    let choice = if let Some(l) = &o.label {
        Some(Choice::Exactly(vec![l.clone()]))
    } else if let Some((k, n)) = like_at {
        Some(Choice::Like(items(
            &rest[k + n..],
            lex,
            within_at.max(k + n) - (k + n),
        )))
    } else if o.nothing {
        Some(Choice::Nothing)
    } else if o.every && o.plain.is_empty() && o.quoted.is_empty() {
        Some(Choice::All)
    } else if (o.ordinal.is_some() || o.extreme.is_some()) && o.quoted.is_empty() {
        None
    } else {
        // "only X, Y and Z", "X as toppings": the set without its qualifiers.
        // "Tick A, B and C under the tools you use": the relation's words
        // (the object's relation) are no part of the last item.
        let related_at = o
            .relation
            .as_ref()
            .and_then(|_| {
                let ws = lowers(rest);
                (1..rest.len()).find(|&k| {
                    !rest[k].quoted
                        && match_at(lex.relations, &ws[k..]).is_some_and(|(n, r)| {
                            // (not "of" / "for" / "by": "the session for Phone" is one item)
                            r != crate::intent::Relation::Of && k + n < rest.len()
                        })
                })
            })
            .unwrap_or(rest.len());
        // "tick A, B and C in the survey": a place after the set says
        // where its items stand; it is no part of the last one.
        let lower =
            |t: &crate::intent::tokens::Token| !t.quoted && !t.raw.starts_with(char::is_uppercase);
        let placed_at = (1..rest.len())
            .find(|&k| {
                lower(&rest[k])
                    && matches!(rest[k].lower.as_str(), "in" | "on")
                    && rest
                        .get(k + 1)
                        .is_some_and(|t| lex.articles.contains(&t.lower.as_str()))
                    && rest[k + 1..].iter().all(lower)
                    && items(rest, lex, k).len() >= 2
            })
            .unwrap_or(rest.len());
        let upto = rest
            .iter()
            .position(|t| !t.quoted && t.lower == "as")
            .unwrap_or(within_at)
            .min(within_at)
            .min(related_at)
            .min(placed_at);
        let xs = items(rest, lex, upto);
        let only = rest
            .iter()
            .take(upto)
            .any(|t| !t.quoted && matches!(t.lower.as_str(), "only" | "just" | "exactly"));
        // "Select the Submit button": a target, not a set.
        let xs: Vec<String> = xs
            .into_iter()
            .map(|x| strip_only(&x))
            .filter(|x| !x.is_empty())
            .filter(|x| {
                let lw = x.to_lowercase();
                let ws: Vec<&str> = lw.split(' ').collect();
                match_at(lex.roles, &ws).is_none_or(|(n, _)| n < ws.len())
            })
            .map(|x| {
                // Drop a trailing role word ("the Blue option").
                let parts: Vec<&str> = x.split(' ').collect();
                match parts.split_last() {
                    Some((l, r))
                        if !r.is_empty()
                            && match_at(lex.roles, &[l.to_lowercase().as_str()]).is_some() =>
                    {
                        r.join(" ")
                    }
                    _ => x.clone(),
                }
            })
            .collect();
        (!xs.is_empty()).then_some(if only {
            Choice::Only(xs)
        } else {
            Choice::Exactly(xs)
        })
    };
    if choice.is_none() && target.is_empty() {
        target.text = plain_text(o, rest.len());
    }
    vec![Step::Choose {
        on,
        choice,
        target,
        within,
        said: said_control(c),
    }]
}

/// "stop sync", "mute notifications", "kill the session for Phone": the
/// words as said name a control ("Stop sync") as well as a toggle turned
/// off; the control, of the same object and relation, for a page that
/// has no such toggle.
fn said_control(c: &Clause<'_>) -> Option<Target> {
    if c.said.is_empty() {
        return None;
    }
    let mut target = target_of(&c.object, c.rest.len());
    let words = c.said.join(" ");
    target.text = Some(match target.text.take() {
        Some(t) => format!("{words} {t}"),
        None => words,
    });
    Some(target)
}

/// "only Mushrooms" → "Mushrooms", "the terms too" → "the terms".
fn strip_only(x: &str) -> String {
    let mut t = x.trim();
    for p in ["only ", "just "] {
        if t.to_lowercase().starts_with(p) {
            t = t[p.len()..].trim();
        }
    }
    for q in [" too", " also", " as well", " please"] {
        if t.to_lowercase().ends_with(q) {
            t = t[..t.len() - q.len()].trim();
        }
    }
    t.to_string()
}

/// "Select 5 with the slider": a value and the control that sets it, the
/// control's phrase ending the clause (a slider, a dropdown, a field).
fn with_instrument(c: &Clause<'_>) -> Option<Step> {
    let (rest, lex) = (c.rest, c.lex);
    let k = rest
        .iter()
        .position(|t| !t.quoted && lex.instrument.contains(&t.lower.as_str()))?;
    let (n, role, words) = role_phrase(rest, k + 1, lex)?;
    let settable = matches!(role, Role::Slider | Role::Dropdown | Role::Field);
    if k == 0 || !settable || k + 1 + n != rest.len() {
        return None;
    }
    let v: Vec<&str> = rest[..k].iter().map(|t| t.raw.as_str()).collect();
    Some(Step::Fill {
        values: vec![Value::literal(v.join(" "), FieldKind::Other, words)],
        field: Target {
            role: Some(role),
            ..Target::default()
        },
    })
}
