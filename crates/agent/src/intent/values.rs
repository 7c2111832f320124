//! Values, choice items and patterns of a clause: "username alice and
//! password wonderland", "10/11/2016 as the date", "team size 2-10",
//! "A, B and C", "starts with X and ends with Y". A value never swallows
//! the words that name its field: those become its label.

use super::lexicon::{match_at, Lexicon};
use super::object::is_article;
use super::tokens::{lowers, Token};
use super::{Value, ValueSource};
use crate::task::FieldKind;

/// Field-kind of a field phrase at the start of `ws`.
pub(super) fn field_at(ws: &[&str], lex: &Lexicon) -> Option<(usize, FieldKind)> {
    match_at(lex.fields, ws)
}

/// Words around values that belong to neither the value nor its label.
const GLUE: &[&str] = &[
    "with", "using", "and", "then", "the", "a", "an", "my", "our", "your", "their", "his", "her",
    "its", "of", "for", "to", "me", "is", "are", "as", "please", "also", "use", "set",
];

/// Kinds whose values are one word ("alice", "hunter2", "x@y.z").
fn one_word(kind: FieldKind) -> bool {
    matches!(
        kind,
        FieldKind::Username | FieldKind::Password | FieldKind::Email
    )
}

/// The parts of a list of values, as index ranges: split at commas and
/// `and`, never inside a quote.
fn parts(toks: &[Token], lex: &Lexicon) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, t) in toks.iter().enumerate() {
        // "… subject X in the Billing category with High priority":
        // "with" starts a value as "and" does.
        let and = !t.quoted && (lex.and.contains(&t.lower.as_str()) || t.lower == "with");
        if and {
            if i > start {
                out.push(start..i);
            }
            start = i + 1;
        } else if t.comma || t.stop {
            out.push(start..i + 1);
            start = i + 1;
        }
    }
    if start < toks.len() {
        out.push(start..toks.len());
    }
    out
}

/// "username alice and password wonderland", "as alice", "password: x",
/// "full name Maya Lin", quoted values with the words before them as their
/// label; `phrases`: a part with words but no field noun becomes a
/// `Phrase` the planner splits against the page's field labels.
pub(super) fn values(toks: &[Token], lex: &Lexicon, login: bool, phrases: bool) -> Vec<Value> {
    if let Some((v, rest)) = named(toks, lex) {
        let mut out = vec![v];
        out.extend(values(&rest, lex, login, phrases));
        return out;
    }
    if let Some((mut out, rest)) = addressed(toks) {
        out.extend(values(&rest, lex, login, phrases));
        return out;
    }
    if let Some((v, rest)) = constrained(toks) {
        let mut out = values(&rest, lex, login, phrases);
        out.push(v);
        return out;
    }
    let (mut out, rest) = colon_labelled(toks, lex);
    if out.is_empty() {
        return listed_values(toks, lex, login, phrases);
    }
    out.extend(listed_values(&rest, lex, login, phrases));
    out
}

/// "a project named Apollo", "an API key called ci-deploy", "a bug titled
/// Export hangs at 99%": the thing being made is named after "named /
/// called / titled", so its name goes into the field for it ("Project
/// name", "Key name"; a title into "Title" / "Summary"). The value runs
/// to the end of its sentence, a comma, or "with" / "and" / "that" /
/// "which" (a quoted value is itself); the noun before the marker labels
/// it. Returns the value and the tokens left for the rest.
fn named(toks: &[Token], lex: &Lexicon) -> Option<(Value, Vec<Token>)> {
    let m = toks.iter().position(|t| {
        !t.quoted && matches!(t.lower.as_str(), "named" | "called" | "titled" | "entitled")
    })?;
    // The thing named: one or two words before the marker, after any article.
    if m == 0 || toks[m - 1].quoted || toks[m - 1].comma || is_article(lex, &toks[m - 1].lower) {
        return None;
    }
    let mut n = m - 1;
    if n > 0
        && !toks[n - 1].quoted
        && !toks[n - 1].comma
        && !is_article(lex, &toks[n - 1].lower)
        && !GLUE.contains(&toks[n - 1].lower.as_str())
    {
        n -= 1;
    }
    // "the field named Email", "the folder called Taxes": a control of the
    // page named, not a thing being made.
    if (n..m).any(|k| super::object::role_phrase(toks, k, lex).is_some()) {
        return None;
    }
    let from = m + 1;
    let first = toks.get(from)?;
    let end = if first.quoted {
        from + 1
    } else {
        let mut e = from;
        while e < toks.len() {
            let t = &toks[e];
            if e > from
                && !t.quoted
                && matches!(t.lower.as_str(), "with" | "and" | "that" | "which" | "who")
            {
                break;
            }
            e += 1;
            if t.comma || t.stop {
                break;
            }
        }
        e
    };
    let text = toks[from..end]
        .iter()
        .enumerate()
        .map(|(k, t)| {
            // A value owns its marks ("99%"), not the comma or stop after it.
            let last = from + k + 1 == end;
            let keep = !(last && (t.comma || t.stop)) && !t.mark.starts_with([',', '.', ';', ':']);
            if keep {
                format!("{}{}", t.raw, t.mark)
            } else {
                t.raw.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    if text.is_empty() {
        return None;
    }
    let noun = join(&toks[n..m].iter().collect::<Vec<_>>()).to_lowercase();
    let (kind, label) = if matches!(toks[m].lower.as_str(), "titled" | "entitled") {
        (FieldKind::Other, "title".to_string())
    } else {
        (FieldKind::Name, format!("{noun} name"))
    };
    let mut rest: Vec<Token> = toks[..n].to_vec();
    rest.extend_from_slice(&toks[end..]);
    Some((Value::literal(text, kind, label), rest))
}

/// "Ship to Sam Carter at "12 Elm Street", Portland": a postal address as
/// people say it, with no field words — the person after "ship / deliver /
/// send / mail to" (capitalised words), the street after "at", the town
/// after the street's comma — gives the values of a name, a street and a
/// city field. Returns them and the tokens left for the rest.
fn addressed(toks: &[Token]) -> Option<(Vec<Value>, Vec<Token>)> {
    let capital = |t: &Token| !t.quoted && t.raw.chars().next().is_some_and(char::is_uppercase);
    let k = toks.windows(2).position(|w| {
        !w[0].quoted
            && matches!(
                w[0].lower.as_str(),
                "ship" | "deliver" | "send" | "mail" | "post"
            )
            && w[1].lower == "to"
    })?;
    // The person: up to four capitalised words, then "at".
    let from = k + 2;
    let mut j = from;
    while j < toks.len() && j - from < 4 && capital(&toks[j]) && !toks[j].comma && !toks[j].stop {
        j += 1;
    }
    if j == from || toks.get(j).is_none_or(|t| t.quoted || t.lower != "at") {
        return None;
    }
    let person = join(&toks[from..j].iter().collect::<Vec<_>>());
    // The street: a quoted text, or the words up to a comma.
    let a = j + 1;
    let mut end = a;
    if toks.get(a)?.quoted {
        end += 1;
    } else {
        while end < toks.len() && end - a < 6 {
            end += 1;
            if toks[end - 1].comma || toks[end - 1].stop {
                break;
            }
        }
        // "at home", "at 5 pm": no street (a street has a number).
        if !toks[a..end]
            .iter()
            .any(|t| t.raw.chars().any(|c| c.is_ascii_digit()))
        {
            return None;
        }
    }
    let street = join(&toks[a..end].iter().collect::<Vec<_>>());
    let mut out = vec![
        Value::literal(person, FieldKind::Name, "name"),
        Value::literal(street, FieldKind::Other, "street"),
    ];
    // The town: capitalised words after the street's comma, up to the next
    // comma or the end of the sentence.
    if toks[end - 1].comma {
        let c = end;
        let mut e = c;
        while e < toks.len() && e - c < 3 && capital(&toks[e]) {
            e += 1;
            if toks[e - 1].comma || toks[e - 1].stop {
                break;
            }
        }
        if e > c && (toks[e - 1].comma || toks[e - 1].stop || e == toks.len()) {
            out.push(Value::literal(
                join(&toks[c..e].iter().collect::<Vec<_>>()),
                FieldKind::Other,
                "city",
            ));
            end = e;
        }
    }
    let rest: Vec<Token> = toks[..k].iter().chain(&toks[end..]).cloned().collect();
    Some((out, rest))
}

/// "a city that starts with "Portland" and ends with "ME"", "an airport
/// starting with San": a value said by a constraint (a `Pattern` the
/// planner completes from the suggestions), for the field the noun before
/// it names. Returns it and the tokens left (the phrase removed).
pub(super) fn constrained(toks: &[Token]) -> Option<(Value, Vec<Token>)> {
    let source = pattern_of(toks)?;
    let ws = lowers(toks);
    let is_kw = |k: usize| {
        matches!(
            ws[k],
            "starts"
                | "begins"
                | "starting"
                | "beginning"
                | "start"
                | "begin"
                | "ends"
                | "ending"
                | "end"
        ) && ws.get(k + 1).is_some_and(|w| matches!(*w, "with" | "in"))
    };
    let first = (0..ws.len()).find(|&k| is_kw(k))?;
    let last = (0..ws.len()).rev().find(|&k| is_kw(k))?;
    // The value after the last keyword ends the phrase.
    let end = (last + 3).min(toks.len());
    // Back over "that" / "which" / "one" to the noun, and its article.
    let mut from = first;
    while from > 0 && matches!(ws[from - 1], "that" | "which" | "whose" | "name" | "one") {
        from -= 1;
    }
    let noun = (from > 0 && !toks[from - 1].quoted && !toks[from - 1].comma)
        .then(|| from - 1)
        .filter(|&k| toks[k].raw.chars().all(char::is_alphabetic));
    let mut start = noun.unwrap_or(from);
    if start > 0 && matches!(ws[start - 1], "a" | "an" | "the" | "one") {
        start -= 1;
    }
    let mut label = noun.map(|k| toks[k].raw.clone()).unwrap_or_default();
    // "the Portland that ends with ME": a name, not a field's noun (written
    // with a capital inside the sentence, after "the"), is where the value
    // starts; the constraint tells apart the places that share it.
    let mut source = source;
    if let (
        Some(k),
        ValueSource::Pattern {
            starts: starts @ None,
            ..
        },
    ) = (noun, &mut source)
    {
        let named = k > 0
            && ws[k - 1] == "the"
            && toks[k].raw.chars().next().is_some_and(char::is_uppercase);
        if named {
            *starts = Some(std::mem::take(&mut label));
        }
    }
    let rest: Vec<Token> = toks[..start].iter().chain(&toks[end..]).cloned().collect();
    Some((
        Value {
            source,
            field: FieldKind::Other,
            label,
            transforms: Vec::new(),
        },
        rest,
    ))
}

/// "from: Rosario, WA to: Long Beach, CA": a word followed by a colon
/// names the field of the words after it, up to the next such word, the
/// end of the sentence, or a date or time that has a preposition of its
/// own ("… CA on 12/19/2016"). How people copy values out of a form or a
/// message ("Name: …, Phone: …", "from: … to: …"); the value keeps its
/// inner commas — a place is written "City, ST" — unless a comma is
/// followed by a word in lower case, which starts another part of the
/// sentence. Field nouns the lexicon knows ("password: x") are read by
/// the list below, as is anything with quotes. Returns these values and
/// the tokens left for the rest.
fn colon_labelled(toks: &[Token], lex: &Lexicon) -> (Vec<Value>, Vec<Token>) {
    let ws = lowers(toks);
    let is_label = |k: usize| -> bool {
        let t = &toks[k];
        // "to:" is glue elsewhere, a role here ("from: … to: …").
        let word = !GLUE.contains(&t.lower.as_str()) || t.lower == "to";
        t.colon
            && !t.quoted
            && k + 1 < toks.len()
            && word
            && t.raw.chars().all(char::is_alphabetic)
            && field_at(&ws[k..], lex).is_none()
    };
    let mut out = Vec::new();
    let mut used = vec![false; toks.len()];
    let mut k = 0;
    while k < toks.len() {
        if !is_label(k) {
            k += 1;
            continue;
        }
        let mut end = k + 1;
        while end < toks.len() {
            let t = &toks[end];
            if end > k + 1 && is_label(end) {
                break;
            }
            let preposition = matches!(t.lower.as_str(), "on" | "at" | "for" | "by");
            if end > k + 1
                && preposition
                && end + 1 < toks.len()
                && date_or_time(toks, end + 1).is_some()
            {
                break;
            }
            end += 1;
            if t.stop
                || t.comma
                    && toks
                        .get(end)
                        .is_none_or(|n| n.raw.chars().next().is_some_and(char::is_lowercase))
            {
                break;
            }
        }
        let mut run = &toks[k + 1..end];
        // "sender: Ana Ruiz and recipient: …": the "and" joins the pairs.
        while let Some((last, head)) = run.split_last() {
            if last.quoted || !lex.and.contains(&last.lower.as_str()) {
                break;
            }
            run = head;
        }
        // "Note: click Save" — an instruction, not a value.
        let instruction = match_at(lex.verbs, &ws[k + 1..]).is_some();
        let plain = !run.is_empty()
            && !instruction
            && run
                .iter()
                .enumerate()
                .all(|(j, t)| !t.quoted && field_at(&ws[k + 1 + j..], lex).is_none());
        if !plain {
            k += 1;
            continue;
        }
        let mut text = String::new();
        for (j, t) in run.iter().enumerate() {
            if j > 0 {
                text.push(' ');
            }
            text.push_str(&t.raw);
            if t.comma && j + 1 < run.len() {
                text.push(',');
            }
        }
        out.push(Value::literal(text, FieldKind::Other, toks[k].raw.clone()));
        for u in &mut used[k..end] {
            *u = true;
        }
        k = end;
    }
    let rest = toks
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|(t, _)| t.clone())
        .collect();
    (out, rest)
}

/// The values of a list (the rest of `values`).
/// Where a list of values starts that no "with" or colon opens: the first
/// comma after which two or more comma-separated parts each end in a code
/// or number ("Add a payee Acme, routing number 021000021, account number
/// 5566"): each part is a field's words and its value.
fn coded_list(toks: &[Token]) -> Option<usize> {
    let first = toks.iter().position(|t| t.comma)? + 1;
    let mut coded = 0;
    let mut start = first;
    for (k, t) in toks.iter().enumerate().skip(first) {
        if t.comma || k + 1 == toks.len() {
            let part = &toks[start..=k];
            if part.len() >= 2 && t.raw.chars().any(|c| c.is_ascii_digit()) {
                coded += 1;
            }
            start = k + 1;
        }
    }
    (coded >= 2).then_some(first)
}

fn listed_values(toks: &[Token], lex: &Lexicon, login: bool, phrases: bool) -> Vec<Value> {
    let mut out = listed_values_and_counts(toks, lex, login, phrases);
    // A count alone makes no form to fill ("Refill X for 90 days at Y",
    // "Rent a kayak for 2 hours"): the clause keeps its verb's reading
    // (the thing, its place), and the count stays in its words.
    if out.iter().all(|v| v.label == COUNT) {
        out.clear();
    }
    for v in &mut out {
        if v.label == COUNT {
            v.label.clear();
        }
    }
    out
}

/// The label a count with its unit carries inside `listed_values` only
/// (never a field's words): unlabelled once the list is read.
const COUNT: &str = "\u{0}count";

fn listed_values_and_counts(
    toks: &[Token],
    lex: &Lexicon,
    login: bool,
    phrases: bool,
) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    let mut used = vec![false; toks.len()];
    // Phrases only in a list of values: after "with" / "using" / a colon,
    // or once a value was found ("Buy the red shoes" names no field).
    let list_from = toks
        .iter()
        .position(|t| !t.quoted && (matches!(t.lower.as_str(), "with" | "using") || t.colon))
        .unwrap_or(toks.len())
        .min(coded_list(toks).unwrap_or(toks.len()));
    // A message said unquoted that ran to a comma ("the body Numbers
    // attached, see sheet 2"): its index in `out`, while the next part may
    // still be its words.
    let mut open_message: Option<usize> = None;
    for range in parts(toks, lex) {
        let offset = range.start;
        let part = &toks[range];
        if let Some(m) = open_message.take() {
            if let Some(more) = message_goes_on(part, lex) {
                if let ValueSource::Literal(text) = &mut out[m].source {
                    text.push_str(", ");
                    text.push_str(&more);
                }
                for k in 0..part.len() {
                    used[offset + k] = true;
                }
                open_message = part.last().is_some_and(|t| t.comma).then_some(m);
                continue;
            }
        }
        let before = out.len();
        scan_part(part, offset, lex, login, &mut out, &mut used);
        let ends_message = out.len() > before
            && out.last().is_some_and(|v| {
                v.field == FieldKind::Message && matches!(v.source, ValueSource::Literal(_))
            })
            && part
                .last()
                .is_some_and(|t| t.comma && !t.quoted && used[offset + part.len() - 1]);
        if ends_message {
            open_message = Some(out.len() - 1);
        }
        let in_list = offset >= list_from || before > 0;
        if out.len() == before && phrases && in_list {
            let words: Vec<&Token> = part
                .iter()
                .skip_while(|t| !t.quoted && GLUE.contains(&t.lower.as_str()))
                .collect();
            let has_quote = part.iter().any(|t| t.quoted);
            // "with the most seats left" picks a card; it fills nothing.
            let lowered: Vec<&str> = words.iter().map(|t| t.lower.as_str()).collect();
            let picks = super::superlative::chooses(lex, &lowered);
            if !has_quote && words.len() >= 2 && !picks {
                out.push(Value {
                    source: ValueSource::Phrase(join(&words)),
                    field: FieldKind::Other,
                    label: String::new(),
                    transforms: Vec::new(),
                });
                for k in 0..part.len() {
                    used[offset + k] = true;
                }
            }
        } else if out.len() > before && phrases && in_list {
            // Words left after a quoted value: "the subject "X" in the
            // Billing category" (a name, then the field it is for).
            let last_used = (0..part.len()).rev().find(|&k| used[offset + k]);
            if let Some(u) = last_used.filter(|&u| part[u].quoted) {
                let rest: Vec<&Token> = part[u + 1..]
                    .iter()
                    .skip_while(|t| {
                        !t.quoted && GLUE.contains(&t.lower.as_str()) || t.lower == "in"
                    })
                    .collect();
                let named = rest
                    .iter()
                    .any(|t| t.raw.chars().next().is_some_and(char::is_uppercase));
                if rest.len() >= 2 && named && rest.iter().all(|t| !t.quoted) {
                    out.push(Value {
                        source: ValueSource::Phrase(join(&rest)),
                        field: FieldKind::Other,
                        label: String::new(),
                        transforms: Vec::new(),
                    });
                }
            }
        }
    }
    // Quoted values not claimed by a field noun: labelled by the words before.
    let ws = lowers(toks);
    for (q, t) in toks.iter().enumerate() {
        if !t.quoted
            || used[q]
            || out
                .iter()
                .any(|v| matches!(&v.source, ValueSource::Literal(s) if *s == t.raw))
        {
            continue;
        }
        // The words just before, back to another quote or a comma.
        let mut from = q;
        while from > 0 && q - from < 3 {
            let p = &toks[from - 1];
            // (a value before, "$250 from "Checking"", is no word of its label)
            if p.quoted || p.comma || p.stop || p.colon && from < q || used[from - 1] {
                break;
            }
            from -= 1;
        }
        let before: Vec<&str> = ws[from..q]
            .iter()
            .copied()
            .filter(|w| !GLUE.contains(w) || matches!(*w, "as" | "to" | "from" | "for"))
            .collect();
        let kind = (0..before.len())
            .find_map(|k| field_at(&before[k..], lex).map(|(_, f)| f))
            .unwrap_or(if t.raw.contains('@') {
                FieldKind::Email
            } else {
                FieldKind::Other
            });
        out.push(Value::literal(t.raw.clone(), kind, before.join(" ")));
    }
    out
}

/// "line 1", "2", "line B" at the start of `rest` (the words after a
/// field's noun): a number (1–9), or after one word a number or a capital
/// letter, followed by a value — one quoted, or one that starts
/// with a digit or a capital ("14 Quay Street", "555-0101"). How many
/// tokens it takes. "quantity 2" (nothing after) and "seats 2 for …" keep
/// the number as the value.
fn numbered(rest: &[Token], lex: &Lexicon) -> Option<usize> {
    // (a letter only after a word, "line B": alone it may be an initial,
    // "name J Smith")
    let marker = |t: &Token, letter: bool| {
        let mut cs = t.raw.chars();
        let c = cs.next();
        cs.next().is_none()
            && c.is_some_and(|c| {
                matches!(c, '1'..='9') || letter && c.is_ascii_uppercase() && !"AI".contains(c)
            })
    };
    let plain = |t: &Token| !t.quoted && !t.comma && !t.colon && !t.stop;
    let word = |t: &Token| {
        plain(t)
            && t.raw.chars().all(|c| c.is_ascii_lowercase())
            && !GLUE.contains(&t.lower.as_str())
            && !lex.copula.contains(&t.lower.as_str())
    };
    let m = match rest {
        [n, ..] if plain(n) && marker(n, false) => 1,
        [w, n, ..] if word(w) && plain(n) && marker(n, true) => 2,
        _ => return None,
    };
    // (the value may follow "to" / "is": "line 1 to 12 Birch Lane")
    let value = match rest.get(m)? {
        t if !t.quoted && (t.lower == "to" || lex.copula.contains(&t.lower.as_str())) => {
            rest.get(m + 1)?
        }
        t => t,
    };
    // A number alone before words is a house number ("address 4 Quay
    // Street"): alone, it numbers the field only before a quoted value
    // or digits ("phone 2 01538 300400").
    let numeric = value.quoted || value.raw.starts_with(|c: char| c.is_ascii_digit());
    (value_like(value) && (m == 2 || numeric)).then_some(m)
}

/// A token that starts a value rather than a sentence's words: quoted, or
/// starting with a digit or a capital ("14 Quay Street", "WB4 1QR").
pub(super) fn value_like(t: &Token) -> bool {
    t.quoted
        || t.raw
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || c.is_uppercase())
}

/// "for Aoife Byrne" at the start of `rest`: "for" and two or three
/// capitalised words with no digit, ending the part — a person's name.
/// How many tokens it takes.
fn for_person(rest: &[Token]) -> Option<usize> {
    let (first, names) = rest.split_first()?;
    let name = |t: &Token| {
        !t.quoted
            && t.raw.starts_with(char::is_uppercase)
            && t.raw.chars().all(|c| c.is_alphabetic() || "'-".contains(c))
    };
    let whole = (2..=3).contains(&names.len()) && names.iter().all(name);
    (!first.quoted && first.lower == "for" && whole).then_some(rest.len())
}

fn join(ts: &[&Token]) -> String {
    ts.iter()
        .map(|t| t.raw.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// One part: field nouns with their values ("postal code 97205"), or a
/// value and its field after `as` ("10/11/2016 as the date").
fn scan_part(
    part: &[Token],
    offset: usize,
    lex: &Lexicon,
    login: bool,
    out: &mut Vec<Value>,
    used: &mut [bool],
) {
    let ws = lowers(part);
    // "X as the date": the value first, its field after `as` + article.
    if let Some(k) = part.iter().position(|t| !t.quoted && t.lower == "as") {
        let article = part.get(k + 1).is_some_and(|t| is_article(lex, &t.lower));
        if k > 0 && article && k + 2 < part.len() {
            let value: Vec<&Token> = part[..k]
                .iter()
                .skip_while(|t| !t.quoted && GLUE.contains(&t.lower.as_str()))
                .collect();
            let label: Vec<&Token> = part[k + 2..].iter().collect();
            let of_at = part[..k].iter().position(|t| !t.quoted && t.lower == "of");
            let starts_article = part
                .first()
                .is_some_and(|t| !t.quoted && is_article(lex, &t.lower));
            if let (Some(o), true) = (of_at, starts_article) {
                if o > 1 {
                    let what: Vec<&Token> = part[1..o].iter().collect();
                    let key: Vec<&Token> = part[o + 1..k].iter().collect();
                    let lws: Vec<&str> = label.iter().map(|t| t.lower.as_str()).collect();
                    let kind = (0..lws.len())
                        .find_map(|j| field_at(&lws[j..], lex).map(|(_, f)| f))
                        .unwrap_or(FieldKind::Other);
                    out.push(Value {
                        source: ValueSource::Lookup {
                            what: join(&what),
                            key: join(&key),
                        },
                        field: kind,
                        label: join(&label),
                        transforms: Vec::new(),
                    });
                    for u in used.iter_mut().skip(offset).take(part.len()) {
                        *u = true;
                    }
                    return;
                }
            }
            if !value.is_empty() {
                // "X as a new payee: routing number 1230": the label ends
                // at its colon; what follows is values of their own.
                let colon = label.iter().position(|t| t.colon);
                let label = colon.map_or(&label[..], |c| &label[..=c]);
                let lws: Vec<&str> = label.iter().map(|t| t.lower.as_str()).collect();
                let kind = (0..lws.len())
                    .find_map(|j| field_at(&lws[j..], lex).map(|(_, f)| f))
                    .unwrap_or(FieldKind::Other);
                out.push(Value::literal(join(&value), kind, join(label)));
                let end = k + 2 + label.len();
                for u in used.iter_mut().skip(offset).take(end) {
                    *u = true;
                }
                if end < part.len() {
                    scan_part(&part[end..], offset + end, lex, login, out, used);
                }
                return;
            }
        }
    }
    let mut i = 0;
    while i < part.len() {
        if part[i].quoted {
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
            // An unquoted e-mail address, date or time is a value wherever
            // it stands ("an appointment for 10/11/2016 at 12:13 PM").
            let w = &part[i].raw;
            if w.contains('@') && w.contains('.') && !w.starts_with('@') {
                out.push(Value::literal(w.clone(), FieldKind::Email, ""));
                used[offset + i] = true;
            } else if let Some((amount, n)) = money(part, i) {
                // "transfer $250", "pay 40 dollars": an amount of money is a
                // value wherever it stands, for the amount field (whose
                // currency sign, a prefix of the box, is no part of it).
                out.push(Value::literal(amount, FieldKind::Other, "amount"));
                for u in used.iter_mut().skip(offset + i).take(n) {
                    *u = true;
                }
                i += n;
                continue;
            } else if let Some(n) = counted(part, i, lex) {
                // "a table for 4 guests", "a bin of 240 litres", "…, 12
                // months": a count with its unit is one value (an option
                // says "4 guests", "240L", "12 months — $150"), never the
                // unit alone nor nothing at all.
                let text: Vec<&str> = part[i..i + n].iter().map(|t| t.raw.as_str()).collect();
                out.push(Value::literal(text.join(" "), FieldKind::Other, COUNT));
                for u in used.iter_mut().skip(offset + i).take(n) {
                    *u = true;
                }
                i += n;
                continue;
            } else if let Some(n) = date_or_time(part, i) {
                let text: Vec<&str> = part[i..i + n].iter().map(|t| t.raw.as_str()).collect();
                let label = if i > 0 && !part[i - 1].quoted {
                    part[i - 1].raw.clone()
                } else {
                    String::new()
                };
                out.push(Value::literal(text.join(" "), FieldKind::Other, label));
                for u in used.iter_mut().skip(offset + i).take(n) {
                    *u = true;
                }
                i += n;
                continue;
            }
            i += 1;
            continue;
        };
        // The label: the noun, and the words just before it that qualify
        // it ("postal code", "work email"), up to glue.
        let mut from = i;
        while !as_here
            && from > 0
            && !part[from - 1].quoted
            && !part[from - 1].colon
            && !part[from - 1].comma
            // (a number is the value before, never a word of this label)
            && !part[from - 1].raw.chars().any(|c| c.is_ascii_digit())
            && !GLUE.contains(&ws[from - 1])
            && !lex.copula.contains(&ws[from - 1])
            // "ZIP code", "postal code", "card number": a field noun just
            // before this one, with no value between, is one label with it.
            && field_at(&ws[from - 1..], lex)
                .is_none_or(|(m, _)| from - 1 + m > i + n || (from == i && m == 1))
            && i - from < 2
        {
            from -= 1;
        }
        let mut label: String = if as_here {
            "username".into()
        } else {
            part[from..i + n]
                .iter()
                .map(|t| t.raw.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut j = i + n;
        let colon = part[j - 1].colon;
        // "field" after the noun, copulas ("is", ":", "of").
        while j < part.len()
            && !part[j].quoted
            && (lex.copula.contains(&ws[j]) || matches!(ws[j], "field" | "box"))
            && !colon
        {
            j += 1;
        }
        // "Date of birth "03/07/1990"", "Number of guests: 4": the word
        // after "of" still names the field when the value follows it; it is
        // never the value.
        if j > i + n
            && ws[j - 1] == "of"
            && !part[j - 1].colon
            && part.get(j).is_some_and(|t| !t.quoted)
            && part.get(j + 1).is_some_and(|t| t.quoted || part[j].colon)
        {
            label = format!("{label} of {}", part[j].raw);
            j += 1;
        }
        // "an email to ana@x.test", "a message for ana@x.test": the
        // address after the preposition is the e-mail's value, never the
        // preposition itself.
        if kind == FieldKind::Email
            && part
                .get(j)
                .is_some_and(|t| !t.quoted && matches!(t.lower.as_str(), "to" | "for"))
            && part.get(j + 1).is_some_and(|t| t.raw.contains('@'))
        {
            j += 1;
        }
        // "address line 1 "14 Quay Street"", "phone 2 555-0101": a number
        // after the field's noun numbers the field; it names it, never is
        // its value, when a value follows.
        if let Some(m) = numbered(&part[j..], lex) {
            let words: Vec<&Token> = part[j..j + m].iter().collect();
            label = format!("{label} {}", join(&words));
            j += m;
        }
        // "ZIP code to WB4 1QR", "address line 1 to 12 Birch Lane": the
        // value the field is set to comes after "to" (a message "to Ana"
        // is addressed, not set).
        if kind != FieldKind::Message
            && part
                .get(j)
                .is_some_and(|t| !t.quoted && matches!(t.lower.as_str(), "to" | "is" | "="))
            && part.get(j + 1).is_some_and(value_like)
        {
            j += 1;
        }
        let Some(v) = part.get(j) else {
            break;
        };
        // A value must be of its field's kind: a word without "@" is no
        // e-mail address ("send an email to Ana": the e-mail is the thing
        // sent, and "to" starts the recipient).
        if kind == FieldKind::Email && !v.quoted && !v.raw.contains('@') {
            i = j.max(i + 1);
            continue;
        }
        if v.quoted {
            out.push(Value::literal(v.raw.clone(), kind, label));
            used[offset + j] = true;
            i = j + 1;
            continue;
        }
        // An unquoted value: one word for names, passwords and emails; to
        // the end of the part for the rest, never a field noun itself nor
        // the words that start the next value.
        // "card 4242 4242 4242 4242 expiry 08/27 code 123": values said one
        // after another with no comma; a value of digit groups ends at a
        // word without digits that is followed by digits again (the next
        // field's name and its value).
        let digits = |t: &Token| t.raw.chars().any(|c| c.is_ascii_digit());
        let next_pair = |k: usize| -> bool {
            k > j
                && part[j..k].iter().all(digits)
                && !part[k].quoted
                && part[k].raw.chars().all(char::is_alphabetic)
                && part.get(k + 1).is_some_and(digits)
        };
        let stop = |k: usize| -> bool {
            let w = ws[k];
            next_pair(k)
                || part[k].quoted
                // "address: street "12 Oak Rd"": a word just before a
                // quoted value is that value's label, never this one's.
                || part.get(k + 1).is_some_and(|t| t.quoted)
                || lex.into.contains(&w) && k > j && is_article(lex, ws.get(k + 1).unwrap_or(&""))
                || matches!(w, "with" | "using" | "then")
                || field_at(&ws[k..], lex).is_some() && k > j
        };
        // "her phone number from the directory", "…is in the table above":
        // the value is on the page, about the person named before.
        if matches!(
            ws[j],
            "from" | "in" | "on" | "shown" | "listed" | "above" | "below"
        ) {
            let place = ws[j..].iter().any(|w| {
                matches!(
                    *w,
                    "directory"
                        | "page"
                        | "table"
                        | "list"
                        | "above"
                        | "below"
                        | "screen"
                        | "profile"
                )
            });
            if place {
                let key = out
                    .iter()
                    .rev()
                    .find_map(|v| match &v.source {
                        ValueSource::Literal(t)
                            if t.split(' ').count() >= 2
                                && t.split(' ')
                                    .all(|w| w.chars().next().is_some_and(char::is_uppercase)) =>
                        {
                            Some(t.clone())
                        }
                        _ => None,
                    })
                    .unwrap_or_default();
                out.push(Value {
                    source: ValueSource::Lookup {
                        what: label.clone(),
                        key,
                    },
                    field: kind,
                    label,
                    transforms: Vec::new(),
                });
                for u in used.iter_mut().skip(offset + i).take(part.len() - i) {
                    *u = true;
                }
                return;
            }
        }
        // "an address for Aoife Byrne", "a booking for Tom Hale": the
        // thing is made for a person, whose name is the value (of the
        // form's name field), never "for Aoife Byrne" as the thing's.
        if let Some(n) = for_person(&part[j..]) {
            let words: Vec<&Token> = part[j + 1..j + n].iter().collect();
            out.push(Value::literal(join(&words), FieldKind::Name, "name"));
            for u in used.iter_mut().skip(offset + i).take(j + n - i) {
                *u = true;
            }
            i = j + n;
            continue;
        }
        // An article starts no value, unless written with a capital
        // mid-sentence: "the description The export button does nothing".
        let capital = part[j].raw.starts_with(char::is_uppercase) && j > 0;
        if stop(j) || (is_article(lex, ws[j]) && !capital) || field_at(&ws[j..], lex).is_some() {
            i = j;
            continue;
        }
        let mut k = j;
        let mut words = Vec::new();
        while k < part.len() && !stop(k) {
            words.push(part[k].raw.clone());
            k += 1;
            if one_word(kind) && !(kind == FieldKind::Username && as_here && words.is_empty()) {
                break;
            }
        }
        if !words.is_empty() {
            let mut text = words.join(" ");
            // The mark that ends the sentence is the value's own when the
            // value is a sentence itself (a message of several words ends
            // with its full stop) or a password ("Tr4il-mix!": a password
            // is one word with no space before the mark).
            // A comma or full stop after a password's "!" separates the
            // next part of the sentence ("password Tr4il-mix!, log in"):
            // the "!" is still the password's.
            let whole = part[k - 1].mark.as_str();
            let mark = match kind {
                FieldKind::Password => whole.trim_end_matches([',', ';', '.', ':']),
                _ => whole,
            };
            let own = match kind {
                FieldKind::Message => words.len() >= 3 && matches!(mark, "." | "!" | "?"),
                FieldKind::Password => matches!(mark, "!" | "?" | "!!"),
                _ => false,
            };
            if own {
                text.push_str(mark);
            }
            out.push(Value::literal(text, kind, label));
            for u in used.iter_mut().skip(offset + i).take(k - i) {
                *u = true;
            }
        }
        i = k.max(i + 1);
    }
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
        if t.comma || t.quoted || t.stop {
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
pub(super) fn pattern_of(toks: &[Token]) -> Option<ValueSource> {
    let ws = lowers(toks);
    let find = |ps: &[&[&str]]| -> Option<String> {
        (0..toks.len()).find_map(|k| {
            ps.iter().find_map(|p| {
                let hit = ws.len() > k + p.len() && p.iter().zip(&ws[k..]).all(|(a, b)| a == b);
                hit.then(|| toks[k + p.len()].raw.clone())
            })
        })
    };
    let starts = find(&[
        &["starts", "with"],
        &["begins", "with"],
        &["starting", "with"],
        &["beginning", "with"],
        &["start", "with"],
        &["begin", "with"],
    ]);
    let ends = find(&[
        &["ends", "with"],
        &["ending", "with"],
        &["ending", "in"],
        &["ends", "in"],
        &["end", "with"],
        &["end", "in"],
    ]);
    (starts.is_some() || ends.is_some()).then_some(ValueSource::Pattern { starts, ends })
}

/// An amount of money written at `i` ("$250", "€1,200.50", "250 dollars",
/// "40 bucks"): the number without its currency and how many tokens it takes.
fn money(part: &[Token], i: usize) -> Option<(String, usize)> {
    let w = part[i].raw.as_str();
    let number = |s: &str| {
        !s.is_empty()
            && s.chars().next().is_some_and(|c| c.is_ascii_digit())
            && s.chars()
                .all(|c| c.is_ascii_digit() || c == ',' || c == '.')
    };
    for sign in ['$', '€', '£', '¥'] {
        if let Some(n) = w.strip_prefix(sign).filter(|n| number(n)) {
            return Some((n.replace(',', ""), 1));
        }
    }
    let unit = part.get(i + 1).is_some_and(|t| {
        !t.quoted
            && matches!(
                t.lower.as_str(),
                "dollars"
                    | "dollar"
                    | "euros"
                    | "euro"
                    | "pounds"
                    | "bucks"
                    | "usd"
                    | "eur"
                    | "gbp"
            )
    });
    (unit && number(w)).then(|| (w.replace(',', ""), 2))
}

/// A count said with its unit at `i`, unquoted: "for 4 guests", "of 240
/// litres", a part "12 months" — a whole number after "for" / "of" or
/// alone with its unit in its part, then one lower-case word that is no field noun
/// and ends the part or comes before the next value's preposition. How
/// many tokens it takes (2). "seats 2", "2 for …" (the number is a field's
/// value or a quantity of the verb) and a number before a capitalised
/// name ("12 Mill Lane", an address) are not counts.
fn counted(part: &[Token], i: usize, lex: &Lexicon) -> Option<usize> {
    let n = part.get(i)?;
    let unit = part.get(i + 1)?;
    let whole =
        |t: &Token| !t.quoted && !t.raw.is_empty() && t.raw.chars().all(|c| c.is_ascii_digit());
    // (a part that is the count alone, or a count the thing is "for" /
    // "of": "Buy 2 tickets" counts the verb's thing and stays a quantity)
    let opens = i == 0 && part.len() == 2
        || i > 0 && matches!(part[i - 1].lower.as_str(), "for" | "of") && !part[i - 1].quoted;
    let word = !unit.quoted
        && unit.raw.len() >= 3
        && unit.raw.chars().all(|c| c.is_ascii_lowercase())
        && !GLUE.contains(&unit.lower.as_str())
        && !NAME_ENDS.contains(&unit.lower.as_str())
        && !lex.copula.contains(&unit.lower.as_str())
        && field_at(&[unit.lower.as_str()], lex).is_none();
    let ends = n.comma || n.colon || n.stop;
    let after = match part.get(i + 2) {
        None => true,
        Some(t) => unit.comma || unit.stop || !t.quoted && NAME_ENDS.contains(&t.lower.as_str()),
    };
    (whole(n) && !ends && opens && word && after).then_some(2)
}

/// A date or time written at `i` ("10/11/2016", "12:13 PM", "7pm"): how many
/// tokens it takes.
fn date_or_time(part: &[Token], i: usize) -> Option<usize> {
    let w = part[i].raw.as_str();
    let digits = w.chars().filter(char::is_ascii_digit).count();
    let date = digits >= 4
        && w.matches('/').count() == 2
        && w.chars().all(|c| c.is_ascii_digit() || c == '/');
    if date {
        return Some(1);
    }
    let clock = digits >= 3 && w.contains(':') && w.chars().all(|c| c.is_ascii_digit() || c == ':');
    if clock {
        let ampm = part.get(i + 1).is_some_and(super::tokens::is_meridiem);
        return Some(if ampm { 2 } else { 1 });
    }
    None
}

/// "create a reminder Renew passport on 12/24/2026", "add a payee Harbor
/// Gas Co, account number …", "schedule Team sync on Friday at 10:00": a
/// thing being made, said by its kind (or by the verb alone) and then its
/// name, unquoted — the name starts with a capital right after the kind's
/// lower-case words and runs to a comma, the end, or the preposition or
/// "and" that starts the next value ("on 12/24/2026", "with …"). The name
/// never takes those words, and the kind's words label it ("payee" → the
/// field "Payee name"; with no kind, a title → "Event title"). Returns the
/// value and the tokens left for the other values.
pub(super) fn titled(toks: &[Token], lex: &Lexicon) -> Option<(Value, Vec<Token>)> {
    let mut i = 0;
    while toks
        .get(i)
        .is_some_and(|t| !t.quoted && is_article(lex, &t.lower))
    {
        i += 1;
    }
    let kind_from = i;
    // The kind: up to two lower-case words ("reminder", "new payee").
    while i < toks.len()
        && i - kind_from < 2
        && !toks[i].quoted
        && !toks[i].comma
        && toks[i].raw.chars().all(|c| c.is_ascii_lowercase())
        && !NAME_ENDS.contains(&toks[i].lower.as_str())
    {
        i += 1;
    }
    let kind_words = &toks[kind_from..i];
    // "a project named Apollo", "a new API key called ci-deploy": `named`
    // reads it.
    if toks.iter().any(|t| {
        !t.quoted && matches!(t.lower.as_str(), "named" | "called" | "titled" | "entitled")
    }) {
        return None;
    }
    // (a word before a name: the article or kind must be said, or the name
    // come right after the verb)
    if kind_from > 0 && kind_words.is_empty() {
        return None;
    }
    let first = toks.get(i)?;
    let ws = lowers(toks);
    let value_word = |k: usize| {
        let w = &toks[k].raw;
        (w.contains('@') && w.contains('.'))
            || date_or_time(toks, k).is_some()
            || money(toks, k).is_some()
            || field_at(&ws[k..], lex).is_some()
    };
    if first.quoted || !first.raw.starts_with(char::is_uppercase) || first.colon || value_word(i) {
        return None;
    }
    let mut end = i;
    let mut closed = false;
    while end < toks.len() {
        let t = &toks[end];
        if t.quoted
            || t.colon
            || value_word(end)
            || end > i
                && !t.raw.starts_with(char::is_uppercase)
                && NAME_ENDS.contains(&t.lower.as_str())
        {
            closed = true;
            break;
        }
        end += 1;
        if t.comma || t.stop {
            closed = true;
            break;
        }
    }
    // The name ends where a value or the sentence does, within a few words;
    // "set up Kettle Farm as a new supplier": the value-as-field construct
    // reads it (`scan_part`).
    let ended = closed || end == toks.len();
    if toks.get(end).is_some_and(|t| !t.quoted && t.lower == "as") {
        return None;
    }
    if !ended || end - i > 6 {
        return None;
    }
    let name: Vec<&Token> = toks[i..end].iter().collect();
    let label = if kind_words.is_empty() {
        "title".to_string()
    } else {
        join(&kind_words.iter().collect::<Vec<_>>()).to_lowercase()
    };
    let mut rest: Vec<Token> = toks[..kind_from].to_vec();
    rest.extend_from_slice(&toks[end..]);
    Some((Value::literal(join(&name), FieldKind::Other, label), rest))
}

/// The words that end a name said unquoted (the next value's preposition,
/// "and", a relative clause).
const NAME_ENDS: &[&str] = &[
    "on", "at", "with", "for", "and", "to", "from", "in", "by", "via", "using", "then", "that",
    "which", "who", "as",
];

/// The words of a part that go on a message said unquoted before its
/// comma ("…attached, see sheet 2"): a part of plain words that starts in
/// lower case (a new sentence of it would not) with no field noun, quote,
/// address, date or amount of its own — those start the next value.
fn message_goes_on(part: &[Token], lex: &Lexicon) -> Option<String> {
    let ws = lowers(part);
    let first = part.first()?;
    let starts_lower = first.raw.starts_with(|c: char| c.is_lowercase());
    let own_value = (0..part.len()).any(|k| {
        part[k].quoted
            || part[k].raw.contains('@')
            || field_at(&ws[k..], lex).is_some()
            || date_or_time(part, k).is_some()
            || money(part, k).is_some()
    });
    if !starts_lower || own_value || part.len() > 8 || GLUE.contains(&ws[0]) {
        return None;
    }
    Some(join(&part.iter().collect::<Vec<_>>()))
}
