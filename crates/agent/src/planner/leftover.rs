//! What a clause said that no step carries (`complete.rs`, docs/agent.md
//! "Before finishing"): the task language may drop part of a clause
//! ("require two-step verification", "vegetarian only", "from Leo", "with
//! the role Billing manager") or keep an unquoted choice it cannot place
//! ("sort by Top rated"); every step then reports done and the task is
//! not. Each such part is accounted for before finishing, whatever its
//! words:
//!
//! - **visibly true**: a check box, switch or radio its words name is in
//!   the state they say; a field named by some of its words holds the
//!   rest; the rest shows as a value, a chosen option or the address;
//! - **done now**, once: that control clicked, that field typed into, the
//!   option of a listbox or select that the rest names chosen;
//! - **asked about**, when it names a value (a capitalised name, a number,
//!   an address) and none of the above can place it — never a false "done".
//!
//! Lowercase words that name nothing on the page ("saying", "recipes") are
//! the sentence's own, not a clause: they are let go.

use super::complete::used;
use super::context::Cx;
use super::fields::split_phrase;
use super::steps;
use crate::intent::said::{clauses, month_day, Word};
use crate::intent::{Choice, Intent, Step};
use crate::policy::Decision;
use crate::text::normalize;
use crate::types::Tool;
use sentience_snapshot_core::Observed;

/// Words that turn a part around ("no pepperoni", "autoplay off").
const NEGATIONS: &[&str] = &["not", "no", "don't", "dont", "without", "never", "off"];

/// A part of the task that no step's words carry.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Part {
    pub words: Vec<String>,
    /// Its meaningful words (not glue), normalised.
    pub content: Vec<String>,
}

impl Part {
    fn text(&self) -> String {
        self.words.join(" ")
    }

    fn negated(&self) -> bool {
        self.words
            .iter()
            .any(|w| NEGATIONS.contains(&w.to_lowercase().as_str()))
    }

    /// Names a value a person would miss: a capitalised word after the
    /// first, a number, an address.
    fn names_value(&self) -> bool {
        self.words.iter().enumerate().any(|(k, w)| {
            w.chars().any(|c| c.is_ascii_digit())
                || w.contains('@')
                || k > 0 && w.chars().next().is_some_and(char::is_uppercase)
        })
    }
}

/// The parts of `task`'s clauses whose words no step of `intent` carries.
/// They depend on the task alone, so the planner finds them once per task
/// (`Planner::new`) rather than at every step: splitting the task into
/// clauses was ~10 % of a /step's instructions in the agent server
/// (docs/benchmarks.md, issue-24a).
pub(super) fn said(task: &str, intent: &Intent) -> Vec<Part> {
    let described = format!(" {} ", normalize(&intent.describe()));
    let carried = |w: &Word| {
        let n = normalize(&w.raw);
        !n.is_empty() && n.split(' ').all(|x| described.contains(&format!(" {x} ")))
    };
    let mut out: Vec<Part> = Vec::new();
    // "December 3" carried as the date "12/03/…" a step types.
    let dated = |a: &Word, b: Option<&Word>| {
        b.and_then(|b| month_day(&a.raw, &b.raw))
            .is_some_and(|(m, d)| described.contains(&format!(" {m:02} {d:02} ")))
    };
    for clause in clauses(task) {
        let mut cur: Vec<&Word> = Vec::new();
        let mut skip = false;
        for (k, w) in clause.iter().enumerate() {
            if std::mem::take(&mut skip) {
                continue;
            }
            if !w.quoted && dated(w, clause.get(k + 1)) {
                push(&mut out, &mut cur);
                skip = true;
                continue;
            }
            // Quoted values are the quoted check's (`complete.rs`).
            if w.quoted || !w.glue && carried(w) {
                push(&mut out, &mut cur);
                continue;
            }
            cur.push(w);
            if w.pause {
                push(&mut out, &mut cur);
            }
        }
        push(&mut out, &mut cur);
    }
    out
}

/// The unquoted choices of the steps that nothing on this page shows:
/// parts to account for after the task's own (`said`).
fn unshown_choices(cx: &Cx<'_>, intent: &Intent) -> Vec<Part> {
    let mut out = Vec::new();
    choices(cx, &intent.steps, &mut out);
    out
}

/// `cur` as a part, without the glue at its ends, when it has a word of its own.
fn push(out: &mut Vec<Part>, cur: &mut Vec<&Word>) {
    let ws = std::mem::take(cur);
    let Some(a) = ws.iter().position(|w| !w.glue) else {
        return;
    };
    let b = ws.iter().rposition(|w| !w.glue).unwrap_or(a);
    let ws = &ws[a..=b];
    out.push(Part {
        words: ws.iter().map(|w| w.raw.clone()).collect(),
        content: ws
            .iter()
            .filter(|w| !w.glue)
            .flat_map(|w| {
                normalize(&w.raw)
                    .split(' ')
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .filter(|w| !w.is_empty())
            .collect(),
    });
}

/// A choice of several words that nothing shows ("sort by Top rated"):
/// its words are a part to account for (the choose step took it as one
/// option's name).
fn choices(cx: &Cx<'_>, steps: &[Step], out: &mut Vec<Part>) {
    for s in steps {
        match s {
            Step::Branch {
                condition,
                then,
                otherwise,
            } => choices(
                cx,
                if steps::holds(cx, condition) {
                    then
                } else {
                    otherwise
                },
                out,
            ),
            Step::Choose {
                on: true,
                choice: Some(Choice::Exactly(items) | Choice::Only(items)),
                ..
            } => {
                for i in items {
                    let words: Vec<String> = i.split_whitespace().map(str::to_string).collect();
                    if words.len() >= 2 && !used(cx, i) {
                        out.push(Part {
                            content: normalize(i).split(' ').map(str::to_string).collect(),
                            words,
                        });
                    }
                }
            }
            _ => {}
        }
    }
}

/// The first part not accounted for: the action that does it, or the
/// question that names it.
pub(super) fn pending(cx: &Cx<'_>, intent: &Intent, said: &[Part]) -> Option<Decision> {
    let mut unplaced: Vec<String> = Vec::new();
    for p in said.iter().chain(&unshown_choices(cx, intent)) {
        match account(cx, p) {
            Account::Shown => {}
            Account::Do(t) if !tried(cx, &t) => return Some(Decision::Tool(t)),
            Account::Do(_) | Account::Nowhere if p.names_value() => unplaced.push(p.text()),
            Account::Do(_) | Account::Nowhere => {}
        }
    }
    if unplaced.is_empty() {
        return None;
    }
    let all: Vec<String> = unplaced.iter().map(|q| format!("\"{q}\"")).collect();
    Some(Decision::Ask(super::recover::question(
        cx,
        &format!(
            "the steps I understood are done, but {} is not done anywhere",
            all.join(", ")
        ),
    )))
}

/// The action that accounts for the first part it can do, not taken
/// before (before a form is sent: no question yet).
pub(super) fn first_action(cx: &Cx<'_>, intent: &Intent, said: &[Part]) -> Option<Tool> {
    let choices = unshown_choices(cx, intent);
    said.iter()
        .chain(&choices)
        .find_map(|p| match account(cx, p) {
            Account::Do(t) if !tried(cx, &t) => Some(t),
            _ => None,
        })
}

enum Account {
    /// Visibly true on the page.
    Shown,
    /// This action does it.
    Do(Tool),
    /// Nothing on the page takes it.
    Nowhere,
}

/// The same action was taken before: not again (the part is asked about).
fn tried(cx: &Cx<'_>, t: &Tool) -> bool {
    let params = t.parameters();
    cx.history
        .iter()
        .any(|h| h.action == t.name().as_str() && h.parameters.as_ref() == Some(&params))
}

fn account(cx: &Cx<'_>, p: &Part) -> Account {
    // A check box, switch or radio its words name, in the state they say.
    if let Some(e) = toggle_named(cx, p) {
        let on = steps::is_checked(e);
        return if on != p.negated() {
            Account::Shown
        } else {
            match steps::click(cx, e) {
                steps::Outcome::Act(t) => Account::Do(t),
                _ => Account::Do(Tool::Click { id: cx.id(e) }),
            }
        };
    }
    if p.negated() {
        return Account::Nowhere;
    }
    if let Some(a) = person_name(cx, p) {
        return a;
    }
    let n = p.words.len();
    // Some words name, the rest is the value: shown somewhere.
    let mut splits: Vec<(String, String)> = (1..n)
        .flat_map(|k| {
            let (a, b) = (p.words[..k].join(" "), p.words[k..].join(" "));
            [(a.clone(), b.clone()), (b, a)]
        })
        .collect();
    // A value as people write one first: it starts with a capital or a
    // digit ("sort by Newest first": "Newest first", named by "sort by").
    splits.sort_by_key(|(_, v)| {
        !v.chars()
            .next()
            .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
    });
    let valued = |v: &str| v.chars().any(char::is_alphanumeric);
    if splits
        .iter()
        .any(|(_, v)| valued(v) && Part::value_like(v) && used(cx, v))
    {
        return Account::Shown;
    }
    // A field named by its first (or last) words: holds the rest, or
    // takes it when empty; one holding something else is not overwritten.
    if let Some((e, value)) = split_phrase(cx, &p.text(), &[]) {
        let want = super::values::for_field(e, &value);
        if cx.holds(e, &want) || super::values::shows(e, &value) {
            return Account::Shown;
        }
        if e.value().trim().is_empty() || e.is_select() {
            return Account::Do(Tool::Type {
                id: cx.id(e),
                text: want,
            });
        }
        return Account::Nowhere;
    }
    // The control that takes the value its other words name: an option,
    // a listbox's option, a select's.
    // Only a control that says the value, or one that opens a list of
    // them: a box of some other name is no place for it.
    for (label, value) in &splits {
        if let Some(t) = steps::complete_value(cx, value, label) {
            let e = t.element().and_then(|id| cx.page.find(&id.key()));
            let fits = e.is_some_and(|e| {
                e.is_select()
                    || steps::is_listbox_trigger(e)
                    || crate::text::contains_words(e.label(), value)
            });
            if fits {
                return Account::Do(t);
            }
        }
    }
    Account::Nowhere
}

/// A person's name said whole ("under Tomas Reyes", "for Ada Quill")
/// on a form that asks for it in two boxes, a first and a last name:
/// the first word into the first, the rest into the last. Shown once both
/// hold their part; a box holding something else is not overwritten.
fn person_name(cx: &Cx<'_>, p: &Part) -> Option<Account> {
    let name = |w: &String| {
        let mut cs = w.chars();
        cs.next().is_some_and(char::is_uppercase)
            && cs.all(|c| c.is_alphabetic() || c == '-' || c == '\'')
    };
    // The part's last two or three words, all capitalised: the whole
    // part, or after "for" / "under" / "by" ("a court for Ines Okoro").
    let run = p.words.iter().rev().take_while(|w| name(w)).count().min(3);
    let start = p.words.len() - run;
    let led = start == 0
        || matches!(
            p.words[start - 1].to_lowercase().as_str(),
            "for" | "under" | "by"
        );
    if run < 2 || !led {
        return None;
    }
    let words = &p.words[start..];
    let boxed = |names: &[&str]| {
        cx.page.elements.iter().find(|e| {
            e.is_text_entry() && !e.is_disabled() && {
                let l = format!(" {} ", normalize(e.label()));
                names.iter().any(|n| l.contains(&format!(" {n} ")))
            }
        })
    };
    let first = boxed(&["first name", "given name", "forename"])?;
    let last = boxed(&["last name", "surname", "family name"])?;
    let rest = words[1..].join(" ");
    for (e, want) in [(first, words[0].as_str()), (last, rest.as_str())] {
        if cx.holds(e, want) {
            continue;
        }
        if !e.value().trim().is_empty() {
            return Some(Account::Nowhere);
        }
        return Some(Account::Do(Tool::Type {
            id: cx.id(e),
            text: want.to_string(),
        }));
    }
    Some(Account::Shown)
}

impl Part {
    /// A value's words worth finding on the page: not a lone glue word.
    fn value_like(v: &str) -> bool {
        let n = normalize(v);
        n.split(' ').any(|w| w.len() > 2)
    }
}

/// The toggle whose label's words are all the part's, or all of whose
/// words the part's are: the one sharing most.
fn toggle_named<'p>(cx: &Cx<'p>, p: &Part) -> Option<&'p Observed> {
    let part: Vec<&str> = p.words.iter().map(String::as_str).collect();
    let all = normalize(&part.join(" "));
    let all: Vec<&str> = all.split(' ').collect();
    cx.page
        .elements
        .iter()
        .filter(|e| e.is_checkable() && !e.is_disabled() && !cx.is_instruction(e))
        .filter_map(|e| {
            let label = normalize(e.label());
            let ls: Vec<&str> = label.split(' ').filter(|w| !w.is_empty()).collect();
            if ls.is_empty() || p.content.is_empty() {
                return None;
            }
            let within = ls.iter().all(|w| all.contains(w));
            let covers = p.content.iter().all(|w| ls.contains(&w.as_str()));
            let common = ls.iter().filter(|w| all.contains(w)).count();
            // A part said once names one toggle: of several with the same
            // words (a "Slack" box among the tools used, a "Slack" radio
            // for the one adopted first), the one already as said accounts
            // for it, and the other is left alone.
            let as_said = steps::is_checked(e) != p.negated();
            (within || covers).then_some(((common, as_said), e))
        })
        .max_by_key(|(c, _)| *c)
        .map(|(_, e)| e)
}
