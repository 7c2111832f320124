//! One clause → its steps: the verb phrase at its start, then the object
//! (target text, role, position, relation, values, choices, transforms).

use super::lexicon::{match_at, Lexicon};
use super::object::{is_article, parse_object, plain_text, role_phrase, target_of, Object};
use super::tokens::{lowers, Token};
use super::values::{field_at, items, pattern_of, values};
use super::{Choice, Relation, Role, Step, Target, Value, ValueSource, Verb};
use crate::task::FieldKind;
use crate::text::urls;

/// The "use the textbox" role that the next clause's value goes into.
pub fn used_role(c: &[Token], lex: &Lexicon) -> Option<Role> {
    let first = c.first()?;
    if first.quoted || !matches!(first.lower.as_str(), "use" | "using" | "with") {
        return None;
    }
    role_phrase(c, 1, lex).map(|(_, r, _)| r)
}

/// Where the object of a clause ends for value/target purposes: the first
/// "into the field" preposition, or "from/in the list".
fn object_end(o: &Object, len: usize) -> usize {
    o.into_at.unwrap_or(len)
}

pub fn parse(c: &[Token], lex: &Lexicon) -> Vec<Step> {
    let ws = lowers(c);
    // Leading fillers, then the verb phrase.
    let mut i = 0;
    while i < c.len()
        && !c[i].quoted
        && lex.fillers.contains(&ws[i])
        && match_at(lex.verbs, &ws[i..]).is_none()
    {
        i += 1;
    }
    let Some((n, verb)) = (i < c.len() && !c[i].quoted)
        .then(|| match_at(lex.verbs, &ws[i..]))
        .flatten()
    else {
        return Vec::new();
    };
    let phrase: Vec<&str> = ws[i..i + n].to_vec();
    let rest = &c[i + n..];
    let o = parse_object(rest, lex);
    let end = object_end(&o, rest.len());
    let mut step = Step::new(verb);
    match verb {
        Verb::Click | Verb::Hover | Verb::Focus | Verb::Expand | Verb::Explore | Verb::Scroll => {
            step.target = target_of(&o, rest.len());
            if verb == Verb::Focus && step.target.role.is_none() {
                step.target.role = Some(Role::Field);
            }
            if verb == Verb::Scroll {
                step.arg = phrase.get(1).map(|s| s.to_string()).or(Some("down".into()));
                step.target.text = o.quoted.first().map(|(_, q)| q.clone());
            }
            // "press Enter": a key, not a button.
            if verb == Verb::Click && phrase[0] == "press" && o.quoted.is_empty() {
                if let Some(t) = &step.target.text {
                    if matches!(
                        t.to_lowercase().as_str(),
                        "enter" | "return" | "tab" | "escape" | "esc" | "space"
                    ) && step.target.role.is_none()
                    {
                        step.arg = Some(format!("key:{t}"));
                    }
                }
            }
            // "close the dialog": its close control.
            if matches!(phrase[0], "close" | "dismiss") && step.target.text.is_none() {
                step.target.text = Some("Close".into());
                step.target.role = None;
            }
            if verb == Verb::Expand
                && step
                    .target
                    .relation
                    .as_ref()
                    .is_some_and(|(r, _)| *r == Relation::Below)
                && step.target.text.is_none()
            {
                step.target.relation = None;
            }
            vec![step]
        }
        Verb::Type => {
            let literal = rest.iter().take(end).filter(|t| !t.quoted).count() > 0
                || o.quoted.iter().any(|(i, _)| *i < end);
            // "Set the quantity to 3": the value after "to", the field before.
            if matches!(phrase[0], "set" | "change") {
                // "…, and the time to 19:30": one pair per part.
                for part in rest.split(|t| !t.quoted && lex.and.contains(&t.lower.as_str())) {
                    let Some(k) = part.iter().rposition(|t| !t.quoted && t.lower == "to") else {
                        continue;
                    };
                    let v: Vec<&str> = part[k + 1..].iter().map(|t| t.raw.as_str()).collect();
                    let label =
                        plain_text(&parse_object(&part[..k], lex), usize::MAX).unwrap_or_default();
                    let lws = lowers(&part[..k]);
                    let kind = (0..lws.len())
                        .find_map(|j| field_at(&lws[j..], lex).map(|(_, f)| f))
                        .unwrap_or(FieldKind::Other);
                    if !v.is_empty() {
                        step.values.push(Value {
                            source: ValueSource::Literal(v.join(" ")),
                            field: kind,
                            label,
                            transforms: o.transforms.clone(),
                        });
                    }
                }
                if !step.values.is_empty() {
                    return vec![step];
                }
            }
            let head_toks = &rest[..end];
            let lookup = head_toks
                .first()
                .is_some_and(|t| !t.quoted && is_article(lex, &t.lower))
                && head_toks.iter().all(|t| !t.quoted)
                && head_toks.iter().any(|t| lex.of.contains(&t.lower.as_str()));
            let pattern = pattern_of(head_toks, lex);
            let mut vals = if lookup || pattern.is_some() {
                Vec::new()
            } else {
                values(head_toks, lex, false)
            };
            if let Some(p) = pattern {
                vals.push(Value {
                    source: p,
                    field: FieldKind::Other,
                    label: String::new(),
                    transforms: Vec::new(),
                });
            } else if vals.is_empty() && literal {
                // "Enter the phone number of Bob into the field" → lookup;
                // "Enter alice into the username field" → the words before "into".
                let head: Vec<&Token> = rest[..end].iter().collect();
                let of_at = head
                    .iter()
                    .position(|t| !t.quoted && lex.of.contains(&t.lower.as_str()));
                let starts_article = head
                    .first()
                    .is_some_and(|t| !t.quoted && is_article(lex, &t.lower));
                if let (Some(k), true) = (of_at, starts_article) {
                    let what: Vec<&str> = head[1..k].iter().map(|t| t.raw.as_str()).collect();
                    let key: Vec<&str> = head[k + 1..]
                        .iter()
                        .skip_while(|t| is_article(lex, &t.lower))
                        .map(|t| t.raw.as_str())
                        .collect();
                    if !what.is_empty() && !key.is_empty() {
                        vals.push(Value {
                            source: ValueSource::Lookup {
                                what: what.join(" "),
                                key: key.join(" "),
                            },
                            field: FieldKind::Other,
                            label: String::new(),
                            transforms: Vec::new(),
                        });
                    }
                } else {
                    let words: Vec<&str> = head
                        .iter()
                        .filter(|t| {
                            t.quoted
                                || !lex
                                    .transforms
                                    .iter()
                                    .any(|(w, _)| w.contains(&t.lower.as_str()))
                        })
                        .map(|t| t.raw.as_str())
                        .collect();
                    if !words.is_empty() {
                        vals.push(Value {
                            source: ValueSource::Literal(words.join(" ")),
                            field: FieldKind::Other,
                            label: String::new(),
                            transforms: Vec::new(),
                        });
                    }
                }
            }
            // The field named after "into": its words refine the kind and label.
            let field_part = &rest[end..];
            let fo = parse_object(field_part, lex);
            let fws = lowers(field_part);
            let field_kind = (0..fws.len()).find_map(|k| field_at(&fws[k..], lex).map(|(_, f)| f));
            let field_label = plain_text(&fo, field_part.len())
                .or_else(|| fo.quoted.first().map(|(_, q)| q.clone()));
            for v in &mut vals {
                v.transforms.extend(o.transforms.iter().copied());
                v.transforms.extend(fo.transforms.iter().copied());
                if v.label.is_empty() || v.field == FieldKind::Other {
                    if let Some(k) = field_kind {
                        v.field = k;
                    }
                    if let Some(l) = &field_label {
                        v.label = l.clone();
                    }
                }
            }
            step.values = vals;
            step.target = Target {
                text: None,
                role: fo
                    .role
                    .or(o.role.filter(|r| matches!(r, Role::Field | Role::TextArea))),
                ordinal: fo.ordinal,
                relation: fo.relation.clone(),
                all: fo.every || fo.plural,
            };
            if step.target.role.is_none() && (step.target.all || step.target.ordinal.is_some()) {
                step.target.role = Some(Role::Field);
            }
            vec![step]
        }
        Verb::Select | Verb::Unselect => {
            // "Select 12/03/2024 as the date": a value for a field.
            if let Some(k) = rest
                .iter()
                .position(|t| !t.quoted && lex.as_.contains(&t.lower.as_str()))
            {
                let fws = lowers(&rest[k + 1..]);
                if k > 0
                    && ((0..fws.len()).any(|j| field_at(&fws[j..], lex).is_some())
                        || role_phrase(rest, k + 1, lex).is_some())
                {
                    let v: Vec<&str> = rest[..k].iter().map(|t| t.raw.as_str()).collect();
                    let label = plain_text(&parse_object(&rest[k + 1..], lex), usize::MAX)
                        .unwrap_or_default();
                    let kind = (0..fws.len())
                        .find_map(|j| field_at(&fws[j..], lex).map(|(_, f)| f))
                        .unwrap_or(FieldKind::Other);
                    let mut s = Step::new(Verb::Type);
                    s.values.push(Value {
                        source: ValueSource::Literal(v.join(" ")),
                        field: kind,
                        label,
                        transforms: Vec::new(),
                    });
                    return vec![s];
                }
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
            step.target = Target {
                text: None,
                role: o.role.filter(|r| {
                    !matches!(r, Role::List | Role::Dropdown | Role::Menu | Role::Dialog)
                }),
                ordinal: o.ordinal,
                relation: o.relation.clone(),
                all: false,
            };
            if let Some((_, words)) = &o.within {
                step.arg = Some(words.clone());
            }
            if let Some((r, _)) = o.within {
                if step.target.role.is_none() && matches!(r, Role::Dropdown) {
                    step.target.role = Some(Role::Dropdown);
                }
            }
            step.choice = if let Some(l) = &o.label {
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
            } else if o.ordinal.is_some() && o.quoted.is_empty() {
                None
            } else {
                let xs = items(rest, lex, within_at);
                // "Select the Submit button": a target, not a set.
                let xs: Vec<String> = xs
                    .into_iter()
                    .filter(|x| {
                        let lw = x.to_lowercase();
                        let ws: Vec<&str> = lw.split(' ').collect();
                        match_at(lex.roles, &ws).is_none_or(|(n, _)| n < ws.len())
                    })
                    .collect();
                let xs: Vec<String> = xs
                    .into_iter()
                    .map(|x| {
                        // Drop a trailing role word ("the Blue option").
                        let parts: Vec<&str> = x.split(' ').collect();
                        match parts.split_last() {
                            Some((l, r))
                                if !r.is_empty()
                                    && match_at(lex.roles, &[l.to_lowercase().as_str()])
                                        .is_some() =>
                            {
                                r.join(" ")
                            }
                            _ => x.clone(),
                        }
                    })
                    .collect();
                (!xs.is_empty()).then_some(Choice::Exactly(xs))
            };
            if step.choice.is_none() && step.target.is_empty() {
                step.target.text = plain_text(&o, rest.len());
            }
            vec![step]
        }
        Verb::Submit => {
            let vals = values(
                rest,
                lex,
                matches!(phrase[0], "log" | "login" | "sign" | "signin"),
            );
            let mut out = Vec::new();
            if !vals.is_empty() {
                let mut t = Step::new(Verb::Type);
                t.values = vals;
                out.push(t);
            }
            step.arg = Some(phrase.join(" "));
            step.target.text = o
                .quoted
                .iter()
                .find(|(_, q)| {
                    !out.iter().any(|s: &Step| {
                        s.values
                            .iter()
                            .any(|v| matches!(&v.source, ValueSource::Literal(x) if x == q))
                    })
                })
                .map(|(_, q)| q.clone());
            out.push(step);
            out
        }
        Verb::Search => {
            let term = o.quoted.first().map(|(_, q)| q.clone()).or_else(|| {
                let words: Vec<&str> = rest
                    .iter()
                    .filter(|t| !is_article(lex, &t.lower) || !t.quoted)
                    .map(|t| t.raw.as_str())
                    .collect();
                (!words.is_empty()).then(|| words.join(" "))
            });
            if let Some(term) = term {
                step.values.push(Value {
                    source: ValueSource::Literal(term),
                    field: FieldKind::Search,
                    label: String::new(),
                    transforms: o.transforms.clone(),
                });
            }
            vec![step]
        }
        Verb::Find => {
            step.target = target_of(&o, rest.len());
            let words: Vec<&str> = rest.iter().map(|t| t.raw.as_str()).collect();
            if !words.is_empty() && o.quoted.is_empty() {
                step.arg = Some(words.join(" "));
                step.target.text = None;
            }
            vec![step]
        }
        Verb::Navigate => {
            let joined: Vec<&str> = rest.iter().map(|t| t.raw.as_str()).collect();
            if let Some(u) = urls(&joined.join(" ")).into_iter().next() {
                step.arg = Some(u);
                vec![step]
            } else {
                // "Go to the pricing page": follow the link that names it.
                let mut s = Step::new(Verb::Click);
                s.target = target_of(&o, rest.len());
                if s.target
                    .text
                    .as_deref()
                    .is_some_and(|t| t.eq_ignore_ascii_case("page"))
                {
                    s.target.text = None;
                }
                if let Some(t) = &s.target.text {
                    let cut = t.strip_suffix(" page").unwrap_or(t).to_string();
                    s.target.text = Some(cut);
                }
                vec![s]
            }
        }
    }
}
