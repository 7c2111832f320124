//! The object of a clause: what the words after the verb say (target text,
//! role, position, relation, container, transforms, "all" / "nothing").

use super::lexicon::{match_at, Lexicon};
use super::tokens::{lowers, Token};
use super::{Extreme, Ordinal, Relation, Role, Target, Transform};

/// What the words after the verb say.
#[derive(Debug, Default)]
pub(super) struct Object {
    /// Words not otherwise understood, as written, with their positions.
    pub(super) plain: Vec<(usize, String)>,
    pub(super) quoted: Vec<(usize, String)>,
    pub(super) role: Option<Role>,
    /// Set when the role word was plural ("sections", "both fields").
    pub(super) plural: bool,
    pub(super) ordinal: Option<Ordinal>,
    pub(super) every: bool,
    pub(super) nothing: bool,
    pub(super) relation: Option<(Relation, String)>,
    pub(super) extreme: Option<Extreme>,
    /// "labeled X".
    pub(super) label: Option<String>,
    /// "in the dialog", "from the list".
    pub(super) within: Option<(Role, String)>,
    pub(super) transforms: Vec<Transform>,
    /// Index of the first `into` preposition that introduces a field.
    pub(super) into_at: Option<usize>,
}

pub(super) fn is_article(lex: &Lexicon, w: &str) -> bool {
    lex.articles.contains(&w)
}

/// A noun phrase of a role ("the dialog box") starting at `i`, articles
/// skipped: (words consumed, role, the phrase's words as written).
pub(super) fn role_phrase(
    toks: &[Token],
    i: usize,
    lex: &Lexicon,
) -> Option<(usize, Role, String)> {
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

pub(super) fn parse_object(toks: &[Token], lex: &Lexicon) -> Object {
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
        // "all" inside a name ("Promote to all regions") is part of it.
        // ("the "Retweet" button on all posts": after a preposition, "all"
        // is every one again.)
        let glue_only = o
            .plain
            .iter()
            .all(|(_, w)| GLUE.contains(&w.to_lowercase().as_str()));
        let after_glue = i > 0 && !toks[i - 1].quoted && GLUE.contains(&toks[i - 1].lower.as_str());
        let named_before = glue_only && (o.quoted.is_empty() || after_glue);
        if lex.every.contains(&t.lower.as_str()) && named_before {
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
        // ("the No button": a capitalised word before a role noun is its name.)
        let named_role = t.raw.chars().next().is_some_and(char::is_uppercase)
            && role_phrase(toks, i + 1, lex).is_some();
        if lex.nothing.contains(&t.lower.as_str())
            && o.plain.is_empty()
            && o.quoted.is_empty()
            && !named_role
        {
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
        if let Some((n, x)) = super::superlative::extreme_at(lex, &ws, i) {
            o.extreme = Some(x);
            i += n;
            continue;
        }
        // "the second mail of Bob Tanaka": after a position among things,
        // "of" and a name (capitalised or quoted) is whose thing, as "from"
        // is; elsewhere "of" stays in the target ("Date of birth").
        let name_at = |k: usize| {
            toks.get(k)
                .is_some_and(|x| x.quoted || x.raw.chars().next().is_some_and(char::is_uppercase))
        };
        if t.lower == "of"
            && !t.quoted
            && o.ordinal.is_some()
            && o.relation.is_none()
            && name_at(i + 1)
        {
            let mut k = i + 1;
            let mut words: Vec<String> = Vec::new();
            while name_at(k) {
                words.push(toks[k].raw.clone());
                k += 1;
                if toks[k - 1].quoted || toks[k - 1].comma || toks[k - 1].stop {
                    break;
                }
            }
            o.relation = Some((Relation::Of, words.join(" ")));
            i = k;
            continue;
        }
        // "from the list" names a container (`within` below), "from Bob" a
        // relation: only a phrase that is no role noun is related to.
        let of_container = match_at(lex.relations, rest).is_some_and(|(n, r)| {
            r == Relation::Of && (role_phrase(toks, i + n, lex).is_some() || o.relation.is_some())
        });
        if let Some((n, rel)) = match_at(lex.relations, rest).filter(|_| !of_container) {
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
                    let mut words: Vec<String> = Vec::new();
                    for t in &toks[k..] {
                        if t.quoted || lex.and.contains(&t.lower.as_str()) || words.len() == 4 {
                            break;
                        }
                        words.push(t.raw.clone());
                        if t.comma || t.stop {
                            break;
                        }
                    }
                    let named = toks[k].raw.chars().next().is_some_and(char::is_uppercase);
                    if !words.is_empty() && (rel != Relation::Below || named) || k > j {
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
        let named = t.raw.chars().next().is_some_and(char::is_uppercase)
            && (i == 0 || !is_article(lex, &toks[i - 1].lower))
            && o.plain.is_empty()
            && toks.get(i + 1).is_none_or(|x| !x.quoted);
        if let Some((n, r, _)) = role_phrase(toks, i, lex).filter(|(n, _, _)| *n > 0 && !named) {
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
        // "Bob Tanaka's second email": the owner is what the target belongs to.
        if let Some(owner) = t
            .raw
            .strip_suffix("'s")
            .or_else(|| t.raw.strip_suffix("’s"))
        {
            let mut words: Vec<String> = Vec::new();
            while o
                .plain
                .last()
                .is_some_and(|(k, _)| *k + words.len() + 1 == i)
            {
                if let Some((_, w)) = o.plain.pop() {
                    words.insert(0, w);
                }
            }
            words.push(owner.to_string());
            o.relation = Some((Relation::Of, words.join(" ")));
            i += 1;
            continue;
        }
        if !is_article(lex, &t.lower) {
            o.plain.push((i, t.raw.clone()));
        }
        i += 1;
    }
    o
}

/// Connecting words that are not part of a name.
pub(super) const GLUE: &[&str] = &[
    "on", "at", "with", "for", "of", "to", "into", "in", "and", "it", "them", "that", "which",
    "is", "please", "me", "you", "from",
];

/// The target text from plain words: consecutive words, glue dropped at the ends.
pub(super) fn plain_text(o: &Object, upto: usize) -> Option<String> {
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

pub(super) fn target_of(o: &Object, upto: usize) -> Target {
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
        extreme: o.extreme,
        all: o.every || (o.plural && o.ordinal.is_none() && o.extreme.is_none()),
    }
}

/// "the project old-landing", "member Lara Voss", "the API key named
/// ci-deploy", "file Q3 report.pdf": a thing said by its kind, then its
/// name. The page writes the name (a row's text, a control's "Delete
/// old-landing"), not the kind's words, so a row is found by the name
/// alone: the words after "named" / "called", else the words from the
/// first one that names (a capital, or an identifier with a digit, "-",
/// "_", ".", "@" or "#") when only kind words stand before it (lower-case
/// words, no "and" / "of" / "to": those say more than a kind). Unchanged when no name
/// follows its kind ("the blue mug"), when it starts with its name
/// ("Q3 report.pdf"), or when the name is a bare number ("row 3": the
/// number is no row's text).
pub(super) fn name_of_thing(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    if let Some(k) = words
        .iter()
        .position(|w| matches!(w.to_lowercase().as_str(), "named" | "called"))
    {
        if k > 0 && k + 1 < words.len() {
            return words[k + 1..].join(" ");
        }
    }
    let names = |w: &str| {
        w.starts_with(char::is_uppercase)
            || w.chars().any(|c| c.is_ascii_digit() || "-_.@#".contains(c))
    };
    // (a kind is a noun phrase: "green kettle and 2 mugs", "order that
    // went to Denver", "PDF of invoice X" say more than a kind)
    let kind = |k: usize| {
        let w = words[k];
        if matches!(
            w.to_lowercase().as_str(),
            "and"
                | "or"
                | "of"
                | "to"
                | "in"
                | "on"
                | "at"
                | "for"
                | "with"
                | "from"
                | "that"
                | "which"
                | "who"
                | "went"
        ) {
            return false;
        }
        w.chars().all(|c| c.is_ascii_lowercase())
    };
    let Some(start) = (0..words.len()).find(|&k| !kind(k)) else {
        return text.to_string();
    };
    let name = &words[start..];
    let bare_number = name[0].chars().all(|c| c.is_ascii_digit());
    if start == 0 || !names(words[start]) || bare_number {
        return text.to_string();
    }
    name.join(" ")
}
