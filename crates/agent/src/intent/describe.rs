//! `Intent::describe`: one line per task, for people, for the LLM prompt
//! and for the phrasing table (`tests.rs`): steps in order, each with its
//! verb, position, role, target text, relation, values as
//! `kind[label]="text"` after transforms, choices and arguments.

use super::{Choice, Condition, Extreme, Ordinal, Role, Step, Target, Touch, Value, ValueSource};

pub fn steps(steps: &[Step]) -> String {
    steps
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{}. {}", i + 1, step(s)))
        .collect::<Vec<_>>()
        .join(" → ")
}

fn step(s: &Step) -> String {
    match s {
        Step::Click { target, touch } => {
            let verb = match touch {
                Touch::Click => "click",
                Touch::Hover => "hover",
                Touch::Focus => "focus",
            };
            format!("{verb}{}", target_words(target))
        }
        Step::Fill { values, field } => {
            format!("type{}{}", target_words(field), values_words(values))
        }
        Step::Choose {
            on,
            choice,
            target,
            within,
            said,
        } => {
            let mut p = format!(
                "{}{}",
                if *on { "select" } else { "unselect" },
                target_words(target)
            );
            match choice {
                Some(Choice::Exactly(xs)) => p.push_str(&format!(" exactly {xs:?}")),
                Some(Choice::Only(xs)) => p.push_str(&format!(" only {xs:?}")),
                Some(Choice::Nothing) => p.push_str(" nothing"),
                Some(Choice::All) => p.push_str(" all"),
                Some(Choice::Like(xs)) => p.push_str(&format!(" like {xs:?}")),
                None => {}
            }
            if let Some(w) = within {
                p.push_str(&format!(" {w}"));
            }
            if let Some(t) = said {
                p.push_str(&format!(" (else click{})", target_words(t)));
            }
            p
        }
        Step::Open { target, explore } => format!(
            "{}{}",
            if *explore { "explore" } else { "expand" },
            target_words(target)
        ),
        Step::Submit { phrase, button } => match button {
            Some(b) => format!("submit \"{b}\" {phrase}"),
            None => format!("submit {phrase}"),
        },
        Step::Search { term } => format!(
            "search{}",
            values_words(term.as_ref().map(std::slice::from_ref).unwrap_or(&[]))
        ),
        Step::Find { target, about } => {
            let mut p = format!("find{}", target_words(target));
            if let Some(a) = about {
                p.push_str(&format!(" {a}"));
            }
            p
        }
        Step::Navigate { url } => format!("navigate {url}"),
        Step::Scroll { up, target, to_end } => format!(
            "scroll{}{} {}",
            target_words(target),
            if *to_end { " to end" } else { "" },
            if *up { "up" } else { "down" }
        ),
        Step::Press { key } => format!("press {key}"),
        Step::Wait { seconds, until } => match (seconds, until) {
            (Some(s), _) => format!("wait {s}s"),
            (None, Some(c)) => format!("wait until {}", condition(c)),
            (None, None) => "wait".into(),
        },
        Step::Path { items } => format!(
            "path {}",
            items
                .iter()
                .map(|i| format!("\"{i}\""))
                .collect::<Vec<_>>()
                .join(" › ")
        ),
        Step::Branch {
            condition: c,
            then,
            otherwise,
        } => format!(
            "if {} then [{}] else [{}]",
            condition(c),
            inline(then),
            inline(otherwise)
        ),
    }
}

fn inline(ss: &[Step]) -> String {
    ss.iter().map(step).collect::<Vec<_>>().join("; ")
}

fn condition(c: &Condition) -> String {
    match c {
        Condition::Shows(t) => format!("shows \"{t}\""),
        Condition::Appears(t) => format!("appears \"{t}\""),
        Condition::Compare {
            subject,
            less,
            or_equal,
            value,
        } => format!(
            "\"{subject}\" {}{} {value}",
            if *less { "<" } else { ">" },
            if *or_equal { "=" } else { "" }
        ),
    }
}

fn target_words(t: &Target) -> String {
    let mut p = String::new();
    if let Some(o) = t.ordinal {
        p.push_str(&match o {
            Ordinal::Nth(n) => format!(" #{n}"),
            Ordinal::Last => " last".into(),
        });
    }
    if let Some(x) = t.extreme {
        p.push_str(match x {
            Extreme::Least => " least",
            Extreme::Most => " most",
            Extreme::Shortest => " shortest",
            Extreme::Longest => " longest",
            Extreme::Earliest => " earliest",
            Extreme::Latest => " latest",
            Extreme::Nearest => " nearest",
            Extreme::Rated => " best rated",
        });
    }
    if t.all {
        p.push_str(" every");
    }
    if let Some(r) = t.role {
        p.push_str(&format!(" {}", role_word(r)));
    }
    if let Some(text) = &t.text {
        p.push_str(&format!(" \"{text}\""));
    }
    if let Some((rel, what)) = &t.relation {
        p.push_str(&format!(
            " {} \"{what}\"",
            format!("{rel:?}").to_lowercase()
        ));
    }
    p
}

fn values_words(values: &[Value]) -> String {
    let mut p = String::new();
    for v in values {
        let shown = match &v.source {
            ValueSource::Literal(_) => format!("\"{}\"", v.text().unwrap_or_default()),
            ValueSource::Lookup { what, key } if key.is_empty() => format!("(the {what})"),
            ValueSource::Lookup { what, key } => format!("(the {what} of \"{key}\")"),
            ValueSource::Pattern { starts, ends } => format!(
                "(starts {:?} ends {:?})",
                starts.as_deref().unwrap_or(""),
                ends.as_deref().unwrap_or("")
            ),
            ValueSource::Phrase(words) => format!("(phrase \"{words}\")"),
            ValueSource::PerLabel => "(each field's own, by its label)".to_string(),
        };
        let kind = crate::system2::score::kind_word(v.field);
        let label = if v.label.is_empty() || v.label.to_lowercase() == kind {
            String::new()
        } else {
            format!("[{}]", v.label)
        };
        p.push_str(&format!(" {kind}{label}={shown}"));
    }
    p
}

pub fn verb_word(s: &Step) -> &'static str {
    match s {
        Step::Click { touch, .. } => match touch {
            Touch::Click => "click",
            Touch::Hover => "hover",
            Touch::Focus => "focus",
        },
        Step::Fill { .. } => "type",
        Step::Choose { on: true, .. } => "select",
        Step::Choose { on: false, .. } => "unselect",
        Step::Open { explore: false, .. } => "expand",
        Step::Open { explore: true, .. } => "explore",
        Step::Submit { .. } => "submit",
        Step::Search { .. } => "search",
        Step::Find { .. } => "find",
        Step::Navigate { .. } => "navigate",
        Step::Scroll { .. } => "scroll",
        Step::Press { .. } => "press",
        Step::Wait { .. } => "wait",
        Step::Path { .. } => "path",
        Step::Branch { .. } => "if",
    }
}

pub fn role_word(r: Role) -> &'static str {
    match r {
        Role::Button => "button",
        Role::Link => "link",
        Role::Tab => "tab",
        Role::Checkbox => "checkbox",
        Role::Radio => "radio",
        Role::Field => "field",
        Role::TextArea => "textarea",
        Role::Dropdown => "dropdown",
        Role::Option => "option",
        Role::Item => "item",
        Role::Section => "section",
        Role::Menu => "menu",
        Role::Result => "result",
        Role::Dialog => "dialog",
        Role::List => "list",
        Role::Table => "table",
        Role::Slider => "slider",
        Role::Widget => "widget",
    }
}
