//! type / enter / fill in / set … to …: values and the fields they go into.
//! "Enter alice into the username field", "Set the date to 12/25/2024 and
//! the time to 19:30", "Enter 10/11/2016 as the date", "Enter the phone
//! number of Bob into the Phone field", "Enter an item that starts with
//! Sa", "full name Maya Lin, team size 2-10".

use super::Clause;
use crate::intent::object::{is_article, parse_object, plain_text};
use crate::intent::tokens::{lowers, Token};
use crate::intent::values::{field_at, pattern_of, values};
use crate::intent::{Role, Step, Target, Value, ValueSource};
use crate::task::FieldKind;

/// Words after which a lookup names where the value is shown, not whose it is.
const SHOWN: &[&str] = &[
    "shown",
    "displayed",
    "given",
    "written",
    "on",
    "in",
    "above",
    "below",
    "from",
];

pub(super) fn parse(c: &Clause<'_>) -> Vec<Step> {
    let (rest, lex, o) = (c.rest, c.lex, &c.object);
    let end = o.into_at.unwrap_or(rest.len());
    // "Set the quantity to 3", "change X to Y": the value after "to", the field before.
    if matches!(c.phrase[0], "set" | "change" | "adjust") {
        if let Some(step) = list_to(c) {
            return vec![step];
        }
        if let Some(step) = labelled_after_to(c) {
            return vec![step];
        }
        let mut vals = Vec::new();
        for part in rest.split(|t| !t.quoted && lex.and.contains(&t.lower.as_str())) {
            for piece in split_commas(part) {
                let Some(k) = piece.iter().rposition(|t| !t.quoted && t.lower == "to") else {
                    continue;
                };
                let v: Vec<&str> = piece[k + 1..].iter().map(|t| t.raw.as_str()).collect();
                let mut label =
                    plain_text(&parse_object(&piece[..k], lex), usize::MAX).unwrap_or_default();
                // "quantity of "Blue enamel mug"": the quoted owner is kept
                // (the object's text leaves quoted words out).
                if let Some(of) = piece[..k].iter().position(|t| !t.quoted && t.lower == "of") {
                    if piece[of + 1..k].iter().any(|t| t.quoted)
                        && !label.to_lowercase().contains(" of ")
                    {
                        let owner: Vec<&str> = piece[of + 1..k]
                            .iter()
                            .filter(|t| t.quoted || !is_article(lex, &t.lower))
                            .map(|t| t.raw.as_str())
                            .collect();
                        label = format!("{} of {}", label.trim(), owner.join(" "));
                    }
                }
                // "set "Merino socks" to 3", "set "Volume" to 40": quoted
                // words and nothing else before "to" name what is set (a
                // field, or the thing whose row or card holds its field or
                // stepper), as the same words unquoted do; the object's
                // text leaves quoted words out.
                let named: Vec<&Token> = piece[..k]
                    .iter()
                    .filter(|t| !is_article(lex, &t.lower))
                    .collect();
                if label.trim().is_empty() && !named.is_empty() && named.iter().all(|t| t.quoted) {
                    let owner: Vec<&str> = named.iter().map(|t| t.raw.as_str()).collect();
                    label = owner.join(" ");
                }
                // "Priya Shah's role": the field of that owner's row, as
                // "the role of Priya Shah" says it.
                if let Some((owner, field)) = possessive(&piece[..k], lex) {
                    label = format!("{field} of {owner}");
                }
                let lws = lowers(&piece[..k]);
                let kind = (0..lws.len())
                    .find_map(|j| field_at(&lws[j..], lex).map(|(_, f)| f))
                    .unwrap_or(FieldKind::Other);
                if !v.is_empty() {
                    vals.push(Value {
                        transforms: o.transforms.clone(),
                        ..Value::literal(v.join(" "), kind, label)
                    });
                }
            }
        }
        if !vals.is_empty() {
            // "the quantity of Blue enamel mug": the field of that row.
            let mut field = Target::default();
            if let [v] = vals.as_mut_slice() {
                if let Some(p) = v.label.to_lowercase().find(" of ") {
                    let owner = v.label[p + 4..].trim().to_string();
                    v.label = v.label[..p].trim().to_string();
                    field.relation = Some((crate::intent::Relation::Of, owner));
                }
            }
            return vec![Step::Fill {
                values: vals,
                field,
            }];
        }
    }
    if let Some(v) = per_label(rest, c) {
        return vec![Step::Fill {
            values: vec![v],
            field: Target::default(),
        }];
    }
    let head = &rest[..end];
    let literal = head.iter().any(|t| !t.quoted) || o.quoted.iter().any(|(i, _)| *i < end);
    let mut vals = if let Some(l) = lookup(head, c) {
        vec![l]
    } else if let Some(p) = pattern_of(head) {
        vec![Value {
            source: p,
            field: FieldKind::Other,
            label: String::new(),
            transforms: Vec::new(),
        }]
    } else {
        values(head, lex, false, true)
    };
    // Only phrases: with one part and a field named after "into", the
    // words are the value ("Enter Paris into the city field").
    let field_part = &rest[end..];
    if o.into_at.is_some() && vals.len() == 1 && matches!(vals[0].source, ValueSource::Phrase(_)) {
        vals.clear();
    }
    if vals.is_empty() && literal {
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
            vals.push(Value::literal(words.join(" "), FieldKind::Other, ""));
        }
    }
    // The field named after "into": its words refine the kind and label.
    let fo = parse_object(field_part, lex);
    let fws = lowers(field_part);
    let field_kind = (0..fws.len()).find_map(|k| field_at(&fws[k..], lex).map(|(_, f)| f));
    let field_label = fo
        .quoted
        .first()
        .map(|(_, q)| q.clone())
        .or_else(|| field_words(field_part, lex))
        .or_else(|| plain_text(&fo, field_part.len()));
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
    let pattern = vals
        .iter()
        .any(|v| matches!(v.source, ValueSource::Pattern { .. }));
    let mut field = Target {
        text: if pattern { field_label.clone() } else { None },
        role: fo
            .role
            .or(o.role.filter(|r| matches!(r, Role::Field | Role::TextArea))),
        ordinal: fo.ordinal,
        relation: fo.relation.clone(),
        extreme: None,
        all: fo.every || fo.plural,
    };
    if field.role.is_none() && (field.all || field.ordinal.is_some()) {
        field.role = Some(Role::Field);
    }
    vec![Step::Fill {
        values: vals,
        field,
    }]
}

/// "Set the sliders to the combination [8,4,5]", "set the three fields
/// to [a, b, c]": a bracketed list after "to" is one value per control the
/// words before it name, in the page's order.
fn list_to(c: &Clause<'_>) -> Option<Step> {
    let (rest, lex) = (c.rest, c.lex);
    let k = rest.iter().rposition(|t| !t.quoted && t.lower == "to")?;
    // The words as written (a token's comma is kept apart from its text).
    let after: Vec<String> = rest[k + 1..]
        .iter()
        .map(|t| format!("{}{}", t.raw, if t.comma { "," } else { "" }))
        .collect();
    let after = after.join(" ");
    let open = after.find('[')?;
    let close = open + after[open..].find(']')?;
    let items: Vec<&str> = after[open + 1..close].split(',').map(str::trim).collect();
    if items.len() < 2 || items.iter().any(|i| i.is_empty()) {
        return None;
    }
    let (_, role, words) = crate::intent::object::role_phrase(&rest[..k], 0, lex)?;
    Some(Step::Fill {
        values: items
            .iter()
            .map(|i| Value::literal(i.to_string(), FieldKind::Other, words.clone()))
            .collect(),
        field: Target {
            role: Some(role),
            ..Target::default()
        },
    })
}

/// Split at tokens followed by a comma (the comma token stays in its piece).
fn split_commas(toks: &[Token]) -> Vec<&[Token]> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, t) in toks.iter().enumerate() {
        if t.comma {
            out.push(&toks[start..=i]);
            start = i + 1;
        }
    }
    if start < toks.len() {
        out.push(&toks[start..]);
    }
    out
}

/// "Change my address to street 12 Oak Rd, city Springfield, zip code
/// 62704": after "to", a list of values each said after the words that
/// name its field. A part with a field noun is read as one ("city X"); a
/// part of words and a value with none ("street 12 Oak Rd", "state IL")
/// is a phrase the planner splits against the page's field labels. Only
/// when the parts after the first carry no "to" of their own (those are
/// "set A to x, B to y") and one of them names its field.
fn labelled_after_to(c: &Clause<'_>) -> Option<Step> {
    let (rest, lex) = (c.rest, c.lex);
    let k = rest.iter().position(|t| !t.quoted && t.lower == "to")?;
    let after = &rest[k + 1..];
    let pieces = split_commas(after);
    if pieces.len() < 2
        || pieces[1..]
            .iter()
            .any(|p| p.iter().any(|t| !t.quoted && t.lower == "to"))
    {
        return None;
    }
    let per_piece: Vec<Vec<Value>> = pieces
        .iter()
        .map(|p| values(p, lex, false, false))
        .collect();
    if per_piece[1..].iter().all(Vec::is_empty) {
        return None;
    }
    let mut vals = Vec::new();
    for (piece, found) in pieces.iter().zip(per_piece) {
        if !found.is_empty() {
            vals.extend(found);
            continue;
        }
        let words: Vec<&str> = piece
            .iter()
            .filter(|t| t.quoted || !is_article(lex, &t.lower))
            .map(|t| t.raw.as_str())
            .collect();
        // A label needs a word before the value ("state IL"); a bare
        // value ("12 Oak Rd") is a phrase all the same.
        if words.is_empty() {
            continue;
        }
        vals.push(Value {
            source: ValueSource::Phrase(words.join(" ")),
            field: FieldKind::Other,
            label: String::new(),
            transforms: c.object.transforms.clone(),
        });
    }
    (!vals.is_empty()).then_some(Step::Fill {
        values: vals,
        field: Target::default(),
    })
}

/// "Enter the value that corresponds with each label into the form",
/// "fill every field with its value from the table": no value of its own,
/// but values (plural or per item: "each", "every", "all", "its", "their")
/// for fields or labels — each field's own, read off the page by its label.
fn per_label(rest: &[Token], c: &Clause<'_>) -> Option<Value> {
    // A value written in the task (quoted, a number, an address) is no
    // value to read off the page.
    if rest
        .iter()
        .any(|t| t.quoted || t.raw.chars().any(|ch| ch.is_ascii_digit() || ch == '@'))
    {
        return None;
    }
    let ws = lowers(rest);
    let has = |set: &[&str]| ws.iter().any(|w| set.contains(w));
    let per_item = has(&["each", "every", "all", "its", "their"]);
    let fields = has(&[
        "label", "labels", "field", "fields", "box", "boxes", "entry", "entries",
    ]);
    let values = has(&["value", "values"]);
    (per_item && fields && values).then(|| Value {
        source: ValueSource::PerLabel,
        field: FieldKind::Other,
        label: String::new(),
        transforms: c.object.transforms.clone(),
    })
}

/// "the phone number of Bob Smith" → Lookup { phone number, Bob Smith };
/// "the code shown on the page", "the order total" → Lookup { …, "" }:
/// an unquoted phrase that starts with an article and names something the
/// page shows.
fn lookup(head: &[Token], c: &Clause<'_>) -> Option<Value> {
    let lex = c.lex;
    let first = head.first()?;
    if first.quoted || !is_article(lex, &first.lower) || head.iter().any(|t| t.quoted) {
        return None;
    }
    // "the name X" is a value with its field, not a lookup.
    let ws = lowers(head);
    let of_at = head.iter().position(|t| lex.of.contains(&t.lower.as_str()));
    let shown_at = ws.iter().position(|w| SHOWN.contains(w));
    let (what_end, key) = match (of_at, shown_at) {
        (Some(k), _) if k > 1 => {
            let key: Vec<&str> = head[k + 1..]
                .iter()
                .skip_while(|t| is_article(lex, &t.lower))
                .take_while(|t| t.lower != "as")
                .map(|t| t.raw.as_str())
                .collect();
            (k, key.join(" "))
        }
        (None, Some(k)) if k > 1 => (k, String::new()),
        _ => {
            // "the order total as the amount": a lone noun phrase is a
            // lookup only with a field after `as` (else it is a value).
            let as_at = ws.iter().position(|w| *w == "as")?;
            if as_at < 2 || field_at(&ws[1..as_at], lex).is_some_and(|(n, _)| n + 1 < as_at) {
                return None;
            }
            (as_at, String::new())
        }
    };
    let what: Vec<&str> = head[1..what_end].iter().map(|t| t.raw.as_str()).collect();
    if what.is_empty() {
        return None;
    }
    // "…as the amount to refund": the field's words.
    let label = ws
        .iter()
        .position(|w| *w == "as")
        .map(|k| {
            head[k + 1..]
                .iter()
                .skip_while(|t| {
                    is_article(lex, &t.lower)
                        || t.lower == "their"
                        || t.lower == "her"
                        || t.lower == "his"
                })
                .map(|t| t.raw.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default();
    let key = key
        .split(" as ")
        .next()
        .unwrap_or_default()
        .trim()
        .to_string();
    Some(Value {
        source: ValueSource::Lookup {
            what: what.join(" "),
            key,
        },
        field: FieldKind::Other,
        label,
        transforms: Vec::new(),
    })
}

/// The words that name a field after "into": "in the To field" → "To",
/// "into the verification code field" → "verification code" (kept as
/// written: "To" and "From" are names here, not glue).
fn field_words(field_part: &[Token], lex: &crate::intent::lexicon::Lexicon) -> Option<String> {
    // The preposition ("into"), then articles, "both", ordinals.
    let from = usize::from(
        field_part
            .first()
            .is_some_and(|t| lex.into.contains(&t.lower.as_str())),
    );
    let mut ws: Vec<&Token> = field_part[from.min(field_part.len())..]
        .iter()
        .skip_while(|t| {
            !t.quoted
                && (is_article(lex, &t.lower)
                    || lex.every.contains(&t.lower.as_str())
                    || lex.ordinals.iter().any(|(w, _)| *w == t.lower))
        })
        .collect();
    while ws.last().is_some_and(|t| {
        matches!(
            t.lower.as_str(),
            "field" | "box" | "input" | "textbox" | "area" | "fields" | "text"
        )
    }) {
        ws.pop();
    }
    // Only a short name; anything with a verb or a clause is not one.
    (!ws.is_empty() && ws.len() <= 4 && ws.iter().all(|t| !t.quoted)).then(|| {
        ws.iter()
            .map(|t| t.raw.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// "Priya Shah's role", "the Dune book's due date": (owner, field) when a
/// word before the last one ends in a possessive "'s" (articles before the
/// owner dropped); None otherwise.
fn possessive(toks: &[Token], lex: &crate::intent::lexicon::Lexicon) -> Option<(String, String)> {
    let p = toks
        .iter()
        .position(|t| !t.quoted && (t.lower.ends_with("'s") || t.lower.ends_with("\u{2019}s")))?;
    if p + 1 >= toks.len() {
        return None;
    }
    let mut owner: Vec<String> = toks[..=p]
        .iter()
        .skip_while(|t| !t.quoted && is_article(lex, &t.lower))
        .map(|t| t.raw.clone())
        .collect();
    let last = owner.pop()?;
    let cut = last.len()
        - if last.ends_with('s') && last.ends_with("'s") {
            2
        } else {
            "\u{2019}s".len()
        };
    owner.push(last[..cut].to_string());
    let field: Vec<&str> = toks[p + 1..].iter().map(|t| t.raw.as_str()).collect();
    Some((owner.join(" ").trim().to_string(), field.join(" ")))
}
