//! One clause → its steps: the verb phrase at its start, then the object
//! (target text, role, position, relation, values, choices, transforms).

use super::lexicon::{match_at, Lexicon};
use super::tokens::{lowers, Token};
use super::{Choice, Ordinal, Relation, Role, Step, Target, Transform, Value, ValueSource, Verb};
use crate::task::FieldKind;
use crate::text::urls;

/// What the words after the verb say.
#[derive(Debug, Default)]
struct Object {
    /// Words not otherwise understood, as written, with their positions.
    plain: Vec<(usize, String)>,
    quoted: Vec<(usize, String)>,
    role: Option<Role>,
    /// Set when the role word was plural ("sections", "both fields").
    plural: bool,
    ordinal: Option<Ordinal>,
    every: bool,
    nothing: bool,
    relation: Option<(Relation, String)>,
    /// "labeled X".
    label: Option<String>,
    /// "in the dialog", "from the list".
    within: Option<(Role, String)>,
    transforms: Vec<Transform>,
    /// Index of the first `into` preposition that introduces a field.
    into_at: Option<usize>,
}

fn is_article(lex: &Lexicon, w: &str) -> bool {
    lex.articles.contains(&w)
}

/// A noun phrase of a role ("the dialog box") starting at `i`, articles
/// skipped: (words consumed, role, the phrase's words as written).
fn role_phrase(toks: &[Token], i: usize, lex: &Lexicon) -> Option<(usize, Role, String)> {
    let mut j = i;
    while j < toks.len() && is_article(lex, &toks[j].lower) {
        j += 1;
    }
    let start = j;
    // Up to two modifier words before the role noun ("scroll list", "file tree").
    for skip in 0..3 {
        let k = start + skip;
        if k >= toks.len() || toks[k].quoted {
            break;
        }
        let ws = lowers(&toks[k..]);
        if let Some((n, r)) = match_at(lex.roles, &ws) {
            let words: Vec<&str> = toks[start..k + n].iter().map(|t| t.raw.as_str()).collect();
            return Some((k + n - i, r, words.join(" ")));
        }
        if toks[k].stop || toks[k].comma {
            break;
        }
    }
    None
}

fn parse_object(toks: &[Token], lex: &Lexicon) -> Object {
    let mut o = Object::default();
    let ws = lowers(toks);
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if t.quoted {
            o.quoted.push((i, t.raw.clone()));
            i += 1;
            continue;
        }
        let rest = &ws[i..];
        if let Some((n, tr)) = match_at(lex.transforms, rest) {
            o.transforms.push(tr);
            i += n;
            continue;
        }
        // "in all upper case letters": "all" before a transform is not "every".
        if lex.every.contains(&t.lower.as_str()) {
            let next = &ws[(i + 1).min(ws.len())..];
            if match_at(lex.transforms, next).is_none() {
                o.every = true;
                if t.lower == "both" || t.lower == "all" {
                    o.plural = true;
                }
            }
            i += 1;
            continue;
        }
        if lex.nothing.contains(&t.lower.as_str()) && o.plain.is_empty() && o.quoted.is_empty() {
            o.nothing = true;
            i += 1;
            continue;
        }
        if lex.label_markers.contains(&t.lower.as_str()) {
            if let Some(n) = toks.get(i + 1) {
                // "with the text X", "labeled X"
                let (k, v) = if n.lower == "as" || is_article(lex, &n.lower) {
                    (i + 2, toks.get(i + 2))
                } else {
                    (i + 1, Some(n))
                };
                if let Some(v) = v {
                    o.label = Some(v.raw.clone());
                    if v.quoted {
                        o.quoted.push((k, v.raw.clone()));
                    }
                    i = k + 1;
                    continue;
                }
            }
            i += 1;
            continue;
        }
        if let Some((n, rel)) = match_at(lex.relations, rest) {
            // "below X": X is the next noun phrase or quote; "below" alone
            // ("the section below") just says where on the page.
            let j = i + n;
            let mut k = j;
            while k < toks.len() && is_article(lex, &toks[k].lower) {
                k += 1;
            }
            if let Some(x) = toks.get(k) {
                if x.quoted {
                    o.relation = Some((rel, x.raw.clone()));
                    i = k + 1;
                    continue;
                }
                if let Some((m, _, words)) = role_phrase(toks, j, lex) {
                    o.relation = Some((rel, words));
                    i = j + m;
                    continue;
                }
                if k > j || !toks[i + n - 1].stop {
                    let words: Vec<String> = toks[k..]
                        .iter()
                        .take_while(|t| !t.quoted && !lex.and.contains(&t.lower.as_str()))
                        .take(3)
                        .map(|t| t.raw.clone())
                        .collect();
                    if !words.is_empty() && rel != Relation::Below || k > j {
                        let taken = words.len();
                        o.relation = Some((rel, words.join(" ")));
                        i = k + taken;
                        continue;
                    }
                }
            }
            i += n;
            continue;
        }
        if lex.within.contains(&t.lower.as_str()) {
            if let Some((n, r, words)) = role_phrase(toks, i + 1, lex) {
                if o.role.is_some()
                    || matches!(
                        r,
                        Role::Dialog
                            | Role::List
                            | Role::Table
                            | Role::Menu
                            | Role::Section
                            | Role::Dropdown
                    )
                {
                    if o.into_at.is_none() && lex.into.contains(&t.lower.as_str()) {
                        o.into_at = Some(i);
                    }
                    o.within = Some((r, words));
                    i += 1 + n;
                    continue;
                }
            }
        }
        if let Some((n, ord)) = lex
            .ordinals
            .iter()
            .find(|(w, _)| *w == t.lower)
            .map(|(_, o)| (1, *o))
        {
            // "first" followed by a name word ("first name") is a field, not a position.
            let next_field = ws.get(i + 1).is_some_and(|w| *w == "name");
            if !next_field {
                o.ordinal = Some(ord);
                i += n;
                continue;
            }
        }
        if lex.into.contains(&t.lower.as_str()) && o.into_at.is_none() {
            // A preposition followed by a field phrase: where the value goes.
            let mut k = i + 1;
            while k < toks.len()
                && (is_article(lex, &toks[k].lower)
                    || lex.every.contains(&toks[k].lower.as_str())
                    || lex.ordinals.iter().any(|(w, _)| *w == toks[k].lower))
            {
                k += 1;
            }
            let field_follows = role_phrase(toks, k, lex).is_some_and(|(_, r, _)| {
                matches!(
                    r,
                    Role::Field | Role::TextArea | Role::Dropdown | Role::Widget
                )
            }) || match_at(lex.fields, &ws[k.min(ws.len())..]).is_some();
            if field_follows {
                o.into_at = Some(i);
            }
        }
        if let Some((n, r, _)) = role_phrase(toks, i, lex).filter(|(n, _, _)| *n > 0) {
            // Only take the role if the phrase starts here with no plain words skipped.
            let first_is_role = {
                let mut k = i;
                while k < toks.len() && is_article(lex, &toks[k].lower) {
                    k += 1;
                }
                match_at(lex.roles, &ws[k..]).is_some_and(|(m, _)| k + m == i + n)
            };
            if first_is_role {
                // "Tab #3", "Section 2": the role word and its number are a name.
                let numbered = toks.get(i + n).is_some_and(|x| {
                    !x.quoted
                        && (x.raw.starts_with('#') || x.raw.chars().all(|c| c.is_ascii_digit()))
                });
                if numbered {
                    let words: Vec<&str> = toks[i..i + n]
                        .iter()
                        .filter(|t| !is_article(lex, &t.lower))
                        .map(|t| t.raw.as_str())
                        .collect();
                    o.plain
                        .push((i, format!("{} {}", words.join(" "), toks[i + n].raw)));
                    i += n + 1;
                    continue;
                }
                if o.role.is_none() {
                    o.role = Some(r);
                    let last = &toks[i + n - 1].lower;
                    o.plural |= last.ends_with('s') && !last.ends_with("ss") && last != "textbox";
                }
                i += n;
                continue;
            }
        }
        if !is_article(lex, &t.lower) {
            o.plain.push((i, t.raw.clone()));
        }
        i += 1;
    }
    o
}

/// Connecting words that are not part of a name.
const GLUE: &[&str] = &[
    "on", "at", "with", "for", "of", "to", "into", "in", "and", "it", "them", "that", "which",
    "is", "please", "me", "you", "from",
];

/// The target text from plain words: consecutive words, glue dropped at the ends.
fn plain_text(o: &Object, upto: usize) -> Option<String> {
    let words: Vec<&str> = o
        .plain
        .iter()
        .filter(|(i, _)| *i < upto)
        .map(|(_, w)| w.as_str())
        .collect();
    let mut s: &[&str] = &words;
    while let Some((f, r)) = s.split_first() {
        if GLUE.contains(&f.to_lowercase().as_str()) {
            s = r;
        } else {
            break;
        }
    }
    while let Some((l, r)) = s.split_last() {
        // "Log in", "Sign up": the particle belongs to the name.
        let particle = r.last().is_some_and(|p| {
            matches!(
                (p.to_lowercase().as_str(), l.to_lowercase().as_str()),
                ("log" | "sign", "in" | "on" | "up" | "out") | ("check", "out")
            )
        });
        if GLUE.contains(&l.to_lowercase().as_str()) && !particle {
            s = r;
        } else {
            break;
        }
    }
    (!s.is_empty()).then(|| s.join(" "))
}

fn target_of(o: &Object, upto: usize) -> Target {
    let text = o
        .label
        .clone()
        .or_else(|| {
            o.quoted
                .iter()
                .find(|(i, _)| *i < upto)
                .map(|(_, q)| q.clone())
        })
        .or_else(|| plain_text(o, upto));
    Target {
        text,
        role: o.role,
        ordinal: o.ordinal,
        relation: o.relation.clone(),
        all: o.every || (o.plural && o.ordinal.is_none()),
    }
}

/// Field-kind of a field phrase at the start of `ws`.
fn field_at(ws: &[&str], lex: &Lexicon) -> Option<(usize, FieldKind)> {
    match_at(lex.fields, ws)
}

/// "username alice and password wonderland", "as alice", "password: x",
/// quoted values with the words before them as their label.
fn values(toks: &[Token], lex: &Lexicon, login: bool) -> Vec<Value> {
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
fn items(toks: &[Token], lex: &Lexicon, upto: usize) -> Vec<String> {
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
fn pattern_of(toks: &[Token], lex: &Lexicon) -> Option<ValueSource> {
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
