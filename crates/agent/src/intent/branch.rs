//! Steps of a whole task: clauses in order (`tokens::clauses`), plus what
//! spans clauses: "if <condition>, A; otherwise B", "once <condition>, A"
//! (a wait, then A), a clause without a verb that continues the one before
//! ("click File, then Download": click Download), "use the textbox to
//! enter X" (the used field), pronouns ("pick it") naming the subject of
//! the condition.

use super::compare::{comparison, Reading};
use super::lexicon::{match_at, Lexicon};
use super::tokens::{clauses, lowers, Token};
use super::verbs::{self, verb_phrase};
use super::{Condition, Role, Step, Target, Touch, Verb};

pub(super) fn steps(toks: &[Token], lex: &Lexicon) -> Vec<Step> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        match branch_at(toks, i, lex) {
            Some((step, next)) => {
                out.push(step);
                i = next;
            }
            None => {
                let end = (i + 1..toks.len())
                    .find(|&k| opens_branch(toks, k, lex))
                    .unwrap_or(toks.len());
                // ("Please" before "if …": courtesy, no step of its own.)
                let courtesy = toks[i..end]
                    .iter()
                    .all(|t| !t.quoted && lex.fillers.contains(&t.lower.as_str()));
                if !courtesy {
                    out.extend(plain(&toks[i..end], lex, None));
                }
                i = end;
            }
        }
    }
    out
}

/// "if" at the start of a clause (task start, after a stop, a comma or
/// "then", or after courtesy that starts one: "Please if …"), unless it
/// starts an "otherwise" ("…, if not join the waitlist").
fn opens_branch(toks: &[Token], k: usize, lex: &Lexicon) -> bool {
    let t = &toks[k];
    let courtesy = |j: usize| {
        let p = &toks[j];
        !p.quoted && !p.comma && !p.stop && lex.fillers.contains(&p.lower.as_str())
    };
    let start = k == 0
        || toks[k - 1].stop
        || toks[k - 1].comma
        || lex.then.contains(&toks[k - 1].lower.as_str())
        || (courtesy(k - 1) && (k == 1 || toks[k - 2].stop || toks[k - 2].comma));
    let ws = lowers(&toks[k..]);
    let otherwise = lex
        .otherwise
        .iter()
        .any(|p| p.len() > 1 && ws.len() >= p.len() && p.iter().zip(&ws).all(|(a, b)| a == b));
    start && !t.quoted && lex.if_.contains(&t.lower.as_str()) && !otherwise
}

/// Clauses without branches: each with its verb, verb-less ones continuing
/// the previous clause's verb, "once X, …" as a wait first.
fn plain(toks: &[Token], lex: &Lexicon, subject: Option<&str>) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::new();
    let mut carry_role: Option<Role> = None;
    let mut last_verb: Vec<Token> = Vec::new();
    let mut after_stop = true;
    // Where the steps of the sentence before began, and the menu path a
    // location hint is naming ("it is under File, then Download").
    let mut sentence_start = 0;
    let mut hint: Option<(usize, Vec<String>)> = None;
    for c in clauses(toks, lex) {
        // "it is on the next page", "it is under File, then Download": where
        // the target is, said after it. The next page is where a list's
        // pager leads anyway; a path of menus is opened before the steps of
        // the sentence it follows.
        if let Some(items) = location_hint(&c) {
            if items.is_empty() {
                continue;
            }
            hint = Some((sentence_start, items));
            after_stop = c.last().is_some_and(|t| t.stop);
            if after_stop {
                flush_hint(&mut out, &mut hint);
                sentence_start = out.len();
            }
            continue;
        }
        if let Some((_, items)) = hint.as_mut() {
            let ws: Vec<&Token> = c
                .iter()
                .filter(|t| t.quoted || !lex.then.contains(&t.lower.as_str()))
                .collect();
            if !ws.is_empty()
                && ws
                    .iter()
                    .all(|t| t.quoted || t.raw.chars().next().is_some_and(char::is_uppercase))
            {
                items.push(
                    ws.iter()
                        .map(|t| t.raw.as_str())
                        .collect::<Vec<_>>()
                        .join(" "),
                );
                if c.last().is_some_and(|t| t.stop) {
                    flush_hint(&mut out, &mut hint);
                    after_stop = true;
                    sentence_start = out.len();
                }
                continue;
            }
            flush_hint(&mut out, &mut hint);
        }
        if after_stop {
            sentence_start = out.len();
        }
        let mut c = resolve_pronouns(&c, subject);
        // "click the star icon to mark it as important": the purpose of the
        // step before, not another step.
        let purpose = c.first().is_some_and(|t| !t.quoted && t.lower == "to");
        if purpose && matches!(out.last(), Some(Step::Click { .. } | Step::Choose { .. })) {
            continue;
        }
        // "once the deploy shows Live, promote it": wait, then the rest.
        let ws = lowers(&c);
        if let Some((n, _)) = match_at(&lex.once.iter().map(|w| (*w, ())).collect::<Vec<_>>(), &ws)
        {
            let split = (n..c.len())
                .find(|&k| {
                    c[k - 1].comma || verb_phrase(&c[k..], lex).is_some_and(|(s, _, _)| s == 0)
                })
                .unwrap_or(c.len());
            let until = verbs_wait_condition(&c[n..split], lex);
            out.push(Step::Wait {
                seconds: None,
                until: Some(until),
            });
            c = c[split..].to_vec();
            if c.is_empty() {
                continue;
            }
        }
        // A capitalised verb word mid-sentence after "then" is a name:
        // "Click File, then Download, then PDF document".
        let continues = !last_verb.is_empty()
            && !after_stop
            && verb_phrase(&c, lex).is_some_and(|(s, _, _)| {
                c[s].raw.chars().next().is_some_and(char::is_uppercase) && s == 0
            });
        let mut parsed = if continues {
            Vec::new()
        } else {
            verbs::parse(&c, lex)
        };
        if parsed.is_empty() && !last_verb.is_empty() && !c.is_empty() {
            // "then Shoes", "otherwise Standard": the verb before, again.
            let mut again = last_verb.clone();
            again.extend(c.iter().cloned());
            parsed = verbs::parse(&again, lex);
        }
        if parsed.is_empty() {
            // "Quantity of "Blue enamel mug" to 3": a setting said without
            // its verb reads as "set … to …".
            if let Some(set) = verbless_setting(&c) {
                parsed = verbs::parse(&set, lex);
            }
        }
        if parsed.is_empty() {
            let after_values = matches!(out.last(), Some(Step::Fill { .. } | Step::Submit { .. }));
            parsed = statement(&c, lex, after_values);
        }
        after_stop = c.last().is_some_and(|t| t.stop);
        if let Some((s, n, v)) = verb_phrase(&c, lex).filter(|_| !continues) {
            // Only verbs that take a name again ("then Shoes"); a submit
            // verb's next verb-less clause holds more values.
            last_verb = if matches!(
                v,
                Verb::Click | Verb::Hover | Verb::Select | Verb::Expand | Verb::Navigate
            ) {
                c[s..s + n].to_vec()
            } else {
                Vec::new()
            };
        }
        for mut s in parsed {
            // "Use the textbox to enter X": the used thing is the field.
            if let Step::Fill { field, .. } = &mut s {
                if field.role.is_none() {
                    field.role = carry_role.take();
                }
            }
            out.push(s);
        }
        carry_role = verbs::used_role(&c, lex);
    }
    flush_hint(&mut out, &mut hint);
    out
}

/// A clause that says where the target is: "it is under File", "it's on
/// the next page", "you'll find it in Settings". Its place's names (the
/// capitalised words after the preposition; none for a page of a list).
fn location_hint(c: &[Token]) -> Option<Vec<String>> {
    let ws: Vec<&str> = c.iter().map(|t| t.lower.as_str()).collect();
    let n = match ws.as_slice() {
        ["it", "is", p, ..] | ["they", "are", p, ..]
            if matches!(*p, "under" | "in" | "on" | "inside") =>
        {
            3
        }
        ["it's", p, ..] if matches!(*p, "under" | "in" | "on" | "inside") => 2,
        _ => return None,
    };
    if c[..n].iter().any(|t| t.quoted) {
        return None;
    }
    let rest = &c[n..];
    if rest.iter().any(|t| !t.quoted && t.lower == "page") {
        return Some(Vec::new());
    }
    let names: Vec<&str> = rest
        .iter()
        .filter(|t| t.quoted || t.raw.chars().next().is_some_and(char::is_uppercase))
        .map(|t| t.raw.as_str())
        .collect();
    (!names.is_empty()).then(|| vec![names.join(" ")])
}

/// The menu path of a location hint, before the steps of its sentence.
fn flush_hint(out: &mut Vec<Step>, hint: &mut Option<(usize, Vec<String>)>) {
    if let Some((at, items)) = hint.take() {
        out.insert(at.min(out.len()), Step::Path { items });
    }
}

fn verbs_wait_condition(toks: &[Token], lex: &Lexicon) -> Condition {
    super::verbs::wait_condition(toks, lex).unwrap_or(Condition::Appears(String::new()))
}

/// "it", "that", "this one" → the condition's subject; within a branch
/// whose condition names nothing ("if it is in stock, add it to the
/// cart"), no part of the step's target (dropped, its punctuation kept).
fn resolve_pronouns(c: &[Token], subject: Option<&str>) -> Vec<Token> {
    let Some(subject) = subject else {
        return c.to_vec();
    };
    let mut out: Vec<Token> = Vec::with_capacity(c.len());
    for t in c {
        if !t.quoted && matches!(t.lower.as_str(), "it" | "that" | "this" | "them") {
            if subject.is_empty() {
                if let Some(p) = out.last_mut() {
                    p.comma |= t.comma;
                    p.colon |= t.colon;
                    p.stop |= t.stop;
                }
                continue;
            }
            let mut s = t.clone();
            s.raw = subject.to_string();
            s.lower = subject.to_lowercase();
            out.push(s);
        } else {
            out.push(t.clone());
        }
    }
    out
}

/// A branch starting at `i` ("if …"): the step and where the tokens after it begin.
fn branch_at(toks: &[Token], i: usize, lex: &Lexicon) -> Option<(Step, usize)> {
    if !opens_branch(toks, i, lex) {
        return None;
    }
    let n = toks.len();
    // The condition: up to a comma, "then", or a verb phrase.
    let mut k = i + 1;
    let mut cond_end = None;
    while k < n {
        let t = &toks[k];
        if !t.quoted && lex.then.contains(&t.lower.as_str()) {
            cond_end = Some((k, k + 1));
            break;
        }
        if k > i + 1 && verb_phrase(&toks[k..], lex).is_some_and(|(s, _, _)| s == 0) {
            cond_end = Some((k, k));
            break;
        }
        if t.comma || t.stop {
            cond_end = Some((k + 1, k + 1));
            break;
        }
        k += 1;
    }
    let (cend, then_start) = cond_end?;
    let condition = condition(&toks[i + 1..cend], lex)?;
    // The "then" part: up to "otherwise" / "else" / "if not".
    let ws = lowers(toks);
    let other = (then_start..n).find(|&k| {
        !toks[k].quoted
            && lex
                .otherwise
                .iter()
                .any(|p| ws.len() >= k + p.len() && p.iter().zip(&ws[k..]).all(|(a, b)| a == b))
    });
    let (then_end, else_start) = match other {
        Some(k) => {
            let len = lex
                .otherwise
                .iter()
                .filter(|p| ws.len() >= k + p.len() && p.iter().zip(&ws[k..]).all(|(a, b)| a == b))
                .map(|p| p.len())
                .max()
                .unwrap_or(1);
            (k, Some(k + len))
        }
        None => {
            let end = (then_start..n)
                .find(|&k| toks[k].stop)
                .map(|k| k + 1)
                .unwrap_or(n);
            (end, None)
        }
    };
    let mut condition = condition;
    let named = referent(&toks[i + 1..cend], &condition, lex);
    let subject = Some(named.clone().unwrap_or_default());
    let then_toks = &toks[then_start..then_end];
    let then = plain(then_toks, lex, subject.as_deref());
    // "if it's below $20, choose Premium": the pronoun of the condition
    // stands for what the step then names.
    if let Condition::Compare { subject: s, .. } = &mut condition {
        if named.is_none() {
            if let Some(n) = then.first().and_then(named_by) {
                *s = n;
            }
        }
    }
    let (otherwise, next) = match else_start {
        Some(s) => {
            // To the end of its sentence, or a "then" after a comma, or
            // an "and" after a comma before a verb ("…, else Standard, and
            // hit Next": Next whichever was chosen).
            let end = (s..n)
                .find(|&k| {
                    toks[k].stop
                        || (k > s
                            && toks[k - 1].comma
                            && !toks[k].quoted
                            && (lex.then.contains(&toks[k].lower.as_str())
                                || (lex.and.contains(&toks[k].lower.as_str())
                                    && verb_phrase(&toks[k + 1..], lex)
                                        .is_some_and(|(v, _, _)| v == 0))))
                })
                .map(|k| if toks[k].stop { k + 1 } else { k })
                .unwrap_or(n);
            let mut part: Vec<Token> = toks[s..end].to_vec();
            // "otherwise Standard": the verb of the "then" part.
            if verb_phrase(&part, lex).is_none() {
                if let Some((a, b, _)) = verb_phrase(then_toks, lex) {
                    let mut v = then_toks[a..a + b].to_vec();
                    v.append(&mut part);
                    part = v;
                }
            }
            (plain(&part, lex, subject.as_deref()), end)
        }
        None => (Vec::new(), then_end),
    };
    Some((
        Step::Branch {
            condition,
            then,
            otherwise,
        },
        next,
    ))
}

/// What a pronoun in the branch's steps stands for: the thing the
/// condition is about — the subject of a comparison ("Premium costs less
/// than $20"), the words before the verb of a text condition ("the shoe is
/// in stock": the shoe, never "in stock", which is what it shows), the
/// thing that appears. None when the condition names nothing but a
/// pronoun ("if it is in stock"): the pronoun is then read as said.
fn referent(cond: &[Token], condition: &Condition, lex: &Lexicon) -> Option<String> {
    let pronoun = |w: &str| {
        matches!(
            w,
            "it" | "it's" | "its" | "they" | "they're" | "this" | "that" | "them" | "one"
        )
    };
    let words = |ts: &[Token]| -> Option<String> {
        let kept: Vec<&str> = ts
            .iter()
            .filter(|t| {
                t.quoted
                    || !(lex.articles.contains(&t.lower.as_str())
                        || lex.fillers.contains(&t.lower.as_str())
                        || pronoun(&t.lower))
            })
            .map(|t| t.raw.as_str())
            .collect();
        (!kept.is_empty()).then(|| kept.join(" "))
    };
    match condition {
        Condition::Compare { subject, .. } => {
            let kept: Vec<&str> = subject
                .split_whitespace()
                .filter(|w| !pronoun(&w.to_lowercase()))
                .collect();
            (!kept.is_empty()).then(|| kept.join(" "))
        }
        Condition::Shows(_) => {
            let verb = cond.iter().position(|t| {
                !t.quoted
                    && matches!(
                        t.lower.as_str(),
                        "is" | "are"
                            | "says"
                            | "shows"
                            | "reads"
                            | "becomes"
                            | "turns"
                            | "displays"
                            | "gets"
                            | "goes"
                            | "appears"
                            | "appear"
                            | "it's"
                            | "they're"
                    )
            })?;
            words(&cond[..verb])
        }
        Condition::Appears(s) => {
            let kept: Vec<&str> = s
                .split_whitespace()
                .filter(|w| !pronoun(&w.to_lowercase()))
                .collect();
            (!kept.is_empty()).then(|| kept.join(" "))
        }
    }
}

/// The thing a step names: the option it chooses, the element it clicks.
fn named_by(step: &Step) -> Option<String> {
    match step {
        Step::Choose {
            choice: Some(super::Choice::Exactly(xs) | super::Choice::Only(xs)),
            ..
        } if xs.len() == 1 => Some(xs[0].clone()),
        Step::Choose { target, .. } | Step::Click { target, .. } => target.text.clone(),
        _ => None,
    }
}

/// A condition: "Premium costs less than $20", "the price is under 20
/// dollars", "X is shown", "the box says Sold out".
fn condition(toks: &[Token], lex: &Lexicon) -> Option<Condition> {
    match comparison(toks, lex, &BRANCH) {
        Some(compared) => compared,
        None => super::verbs::wait_condition(toks, lex),
    }
}

/// A branch's comparison: the number anywhere after its words; the verbs
/// and units around a price are not its subject.
const BRANCH: Reading = Reading {
    skip_quoted: false,
    reach: &[],
    within: usize::MAX,
    not_subject: &[
        "is", "are", "costs", "cost", "price", "of", "does", "plan", "priced", "at", "per",
        "month", "a", "if",
    ],
};

/// A number as written: "$20", "20.50", "1,299", "€9".
pub(crate) fn number(s: &str) -> Option<f64> {
    let t: String = s
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    if t.is_empty() || !s.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    t.trim_end_matches('.').parse().ok()
}

/// A clause with no verb: "New ticket: subject X, category Y" (values, then
/// the form sent), "My phone number is 555-0199" (values), or a polite
/// request whose verb is not in the lexicon ("could you promote it to all
/// regions?"): the element its words name is clicked.
/// A clause without a verb shaped "the F of X to V" (an unquoted "of"
/// before an unquoted "to" with words after it): the same clause with
/// "set" in front, so that it reads as a setting of that row's field.
fn verbless_setting(c: &[Token]) -> Option<Vec<Token>> {
    let to = c.iter().rposition(|t| !t.quoted && t.lower == "to")?;
    let of = c[..to].iter().position(|t| !t.quoted && t.lower == "of")?;
    if of == 0 || to + 1 >= c.len() || c[..of].iter().any(|t| t.quoted) {
        return None;
    }
    let mut set = c[0].clone();
    set.raw = "set".into();
    set.lower = "set".into();
    set.quoted = false;
    set.comma = false;
    set.colon = false;
    set.stop = false;
    let mut out = vec![set];
    out.extend(c.iter().cloned());
    Some(out)
}

/// A verbless "H with A, B and C only": select H (its quoted words when
/// it has some), then select only A, B and C.
fn with_only(c: &[Token], lex: &Lexicon) -> Option<Vec<Step>> {
    let last = c.last()?;
    if last.quoted || last.lower != "only" {
        return None;
    }
    let w = c.iter().position(|t| !t.quoted && t.lower == "with")?;
    if w == 0 || w + 2 >= c.len() {
        return None;
    }
    let verb = |words: &[&str]| -> Vec<Token> {
        words
            .iter()
            .map(|w| Token {
                raw: (*w).into(),
                lower: (*w).into(),
                quoted: false,
                comma: false,
                colon: false,
                stop: false,
                mark: String::new(),
                said: Vec::new(),
            })
            .collect()
    };
    let head: Vec<Token> = if c[..w].iter().any(|t| t.quoted) {
        c[..w].iter().filter(|t| t.quoted).cloned().collect()
    } else {
        c[..w].to_vec()
    };
    let mut first = verb(&["select"]);
    first.extend(head);
    let mut set = verb(&["select", "only"]);
    set.extend(c[w + 1..c.len() - 1].iter().cloned());
    let mut steps = verbs::parse(&first, lex);
    steps.extend(verbs::parse(&set, lex));
    (steps.len() >= 2).then_some(steps)
}

/// First words of a clause that are never an imperative's verb.
const NOT_VERB: &[&str] = &[
    "i", "we", "my", "our", "it", "this", "that", "there", "hi", "hello", "thanks", "thank", "the",
    "a", "an", "you", "your", "he", "she", "they", "if", "is", "are", "once", "when", "use",
    "using", "with",
];

fn statement(c: &[Token], lex: &Lexicon, after_values: bool) -> Vec<Step> {
    let words: Vec<&Token> = c
        .iter()
        .skip_while(|t| !t.quoted && lex.fillers.contains(&t.lower.as_str()))
        .collect();
    let Some(first) = words.first() else {
        // "then Next": a capitalised name, though the word is a filler.
        // A greeting ("Hi!") names nothing.
        let names: Vec<&str> = c
            .iter()
            .filter(|t| t.quoted || !matches!(t.lower.as_str(), "hi" | "hello" | "hey"))
            .filter(|t| t.quoted || t.raw.chars().next().is_some_and(char::is_uppercase))
            .map(|t| t.raw.as_str())
            .collect();
        if names.is_empty() || c.len() > 2 {
            return Vec::new();
        }
        return vec![Step::Click {
            target: Target {
                text: Some(names.join(" ")),
                ..Target::default()
            },
            touch: Touch::Click,
        }];
    };
    // "Header: values".
    if let Some(k) = c.iter().position(|t| t.colon && !t.quoted) {
        let vals = super::values::values(&c[k + 1..], lex, false, true);
        if !vals.is_empty() && k < 4 {
            let phrase: Vec<&str> = c[..=k].iter().map(|t| t.lower.as_str()).collect();
            return vec![
                Step::Fill {
                    values: vals,
                    field: Target::default(),
                },
                Step::Submit {
                    phrase: phrase.join(" "),
                    button: None,
                },
            ];
        }
    }
    // ""Large" pizza with "Mushrooms", "Olives" and "Onions" only": the
    // thing chosen, then exactly the set after "with".
    if let Some(steps) = with_only(c, lex) {
        return steps;
    }
    // "suspend the user Priya Nair": a lower-case word before an article
    // is a verb the lexicon lacks acting on a thing, not a field's name.
    // (Capitalised only as a sentence's first word is: "Revoke the key
    // named ci-deploy"; the article after it says it is no name.)
    let verb_like = words.len() > 2
        && !first.quoted
        && !NOT_VERB.contains(&first.lower.as_str())
        && first.lower.chars().all(|c| c.is_ascii_lowercase())
        && first.raw.chars().skip(1).all(|c| c.is_ascii_lowercase())
        && !words[1].quoted
        && lex.articles.contains(&words[1].lower.as_str())
        && match_at(lex.fields, &lowers(c)[c.len() - words.len()..]).is_none();
    if verb_like {
        if let Some(step) = verb_on_object(&words, lex, true) {
            return vec![step];
        }
    }
    let vals = super::values::values(c, lex, false, false);
    if !vals.is_empty() {
        return vec![Step::Fill {
            values: vals,
            field: Target::default(),
        }];
    }
    // "We are a team of 2-10.": a fact with a number, for the page to place.
    let says = words
        .iter()
        .any(|t| matches!(t.lower.as_str(), "is" | "are" | "am" | "was"));
    let number = words
        .iter()
        .any(|t| t.raw.chars().any(|c| c.is_ascii_digit()));
    if says && number && words.len() <= 10 {
        let phrase: Vec<&str> = words.iter().map(|t| t.raw.as_str()).collect();
        return vec![Step::Fill {
            values: vec![super::Value {
                source: super::ValueSource::Phrase(phrase.join(" ")),
                field: crate::task::FieldKind::Other,
                label: String::new(),
                transforms: Vec::new(),
            }],
            field: Target::default(),
        }];
    }
    // "Thanks!", "Thank you so much.": courtesy, no step and no value.
    let courtesy = |t: &&Token| {
        !t.quoted
            && matches!(
                t.lower.as_str(),
                "thanks"
                    | "thank"
                    | "you"
                    | "cheers"
                    | "so"
                    | "very"
                    | "much"
                    | "a"
                    | "lot"
                    | "in"
                    | "advance"
                    | "please"
                    | "ty"
                    | "thx"
            )
    };
    if words.iter().all(courtesy) {
        return Vec::new();
    }
    // "…; express delivery; card …": one more value, between values.
    if after_values && words.len() <= 4 && words.iter().all(|t| !t.quoted) {
        let phrase: Vec<&str> = words.iter().map(|t| t.raw.as_str()).collect();
        return vec![Step::Fill {
            values: vec![super::Value {
                source: super::ValueSource::Phrase(phrase.join(" ")),
                field: crate::task::FieldKind::Other,
                label: String::new(),
                transforms: Vec::new(),
            }],
            field: Target::default(),
        }];
    }
    // An imperative whose verb the lexicon lacks.
    let w = first.lower.as_str();
    if first.quoted
        || NOT_VERB.contains(&w)
        || !w.chars().all(char::is_alphabetic)
        || words.len() < 2
    {
        return Vec::new();
    }
    let text: Vec<&str> = words
        .iter()
        .filter(|t| {
            !matches!(
                t.lower.as_str(),
                "it" | "them" | "please" | "thanks" | "for" | "me"
            )
        })
        .map(|t| t.raw.as_str())
        .collect();
    if let Some(step) = verb_on_object(&words, lex, false) {
        return vec![step];
    }
    vec![Step::Click {
        target: Target {
            text: Some(text.join(" ")),
            ..Target::default()
        },
        touch: Touch::Click,
    }]
}

/// An imperative whose verb the lexicon lacks, said in lower case before
/// the thing it acts on: "suspend the member Priya Nair", "revoke the key
/// ci-deploy", "unpublish the draft post" — the control the verb names
/// ("Suspend") for that thing, as "delete X" clicks "Delete" for X. The
/// object must name something (an article, a capitalised word, a number
/// or an identifier in it); a clause in capitals or a lone word stays the
/// name of what is clicked, unless `capital_ok` (a sentence's first word
/// with an article after it). The thing is found by its name, not its
/// kind's words ("the member Lara Voss" → "Lara Voss", `name_of_thing`).
fn verb_on_object(words: &[&Token], lex: &Lexicon, capital_ok: bool) -> Option<Step> {
    let (verb, object) = words.split_first()?;
    if (verb.raw.chars().next().is_some_and(char::is_uppercase) && !capital_ok)
        || verb.raw.len() < 3
        || verb.lower.ends_with("ly")
        || lex.light_verbs.contains(&verb.lower.as_str())
        || lex.numbers.iter().any(|(w, _)| *w == verb.lower)
    {
        return None;
    }
    // "assign this bug to Joanna", "save the draft as final": a value with
    // a role, not a control acting on a thing.
    if object
        .iter()
        .any(|t| !t.quoted && matches!(t.lower.as_str(), "to" | "into" | "as" | "with"))
    {
        return None;
    }
    // Where the thing is ("… in the workspace") names no part of it.
    let object: &[&Token] = match object.iter().position(|t| {
        !t.quoted
            && matches!(
                t.lower.as_str(),
                "in" | "on" | "at" | "from" | "of" | "about"
            )
    }) {
        Some(0) => return None,
        Some(k) => &object[..k],
        None => object,
    };
    let object: Vec<&Token> = object
        .iter()
        .copied()
        .filter(|t| t.quoted || !matches!(t.lower.as_str(), "please" | "now" | "for" | "me"))
        .collect();
    let names = |t: &&Token| {
        t.quoted
            || lex.articles.contains(&t.lower.as_str())
            || t.raw.chars().next().is_some_and(char::is_uppercase)
            || t.raw
                .chars()
                .any(|c| c.is_ascii_digit() || matches!(c, '-' | '_' | '.' | '@' | '#'))
    };
    // (a preposition right after the verb is a phrasal verb the lexicon
    // lacks — "call back", "look up" — no object of this shape)
    let first = object.first()?;
    if !first.quoted
        && matches!(
            first.lower.as_str(),
            "up" | "back"
                | "out"
                | "off"
                | "on"
                | "in"
                | "to"
                | "into"
                | "me"
                | "us"
                | "it"
                | "them"
        )
    {
        return None;
    }
    if !object.iter().any(names) || object.len() > 6 {
        return None;
    }
    let thing: Vec<&str> = object
        .iter()
        .filter(|t| t.quoted || !lex.articles.contains(&t.lower.as_str()))
        .map(|t| t.raw.as_str())
        .collect();
    let mut control = verb.lower.clone();
    if let Some(f) = control.get_mut(..1) {
        f.make_ascii_uppercase();
    }
    Some(Step::Click {
        target: Target {
            text: Some(control),
            relation: Some((
                super::Relation::Of,
                super::object::name_of_thing(&thing.join(" ")),
            )),
            ..Target::default()
        },
        touch: Touch::Click,
    })
}
