//! What a task asks for, read from its words: the URL it names, the values it
//! gives (each with the label that precedes its quote), and the goal.
//! `Log in as "alice" with password "s3cret"` → values [(Username, alice),
//! (Password, s3cret)], goal Login.

use crate::text::{concepts, quoted, urls, words};

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldKind {
    Username,
    Password,
    Email,
    Name,
    Search,
    Phone,
    Message,
    Other,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TaskValue {
    pub kind: FieldKind,
    /// The words just before the quote ("with password").
    pub label: String,
    pub value: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    Login,
    Search,
    Submit,
    Pay,
    Generic,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TaskPlan {
    pub url: Option<String>,
    pub values: Vec<TaskValue>,
    pub goal: Goal,
    /// Quoted strings that are not field values (things to find or click).
    pub targets: Vec<String>,
}

impl TaskPlan {
    pub fn parse(task: &str) -> TaskPlan {
        let concepts = concepts(task);
        let has = |c: &str| concepts.iter().any(|x| x == c);
        let goal = if has("login") {
            Goal::Login
        } else if has("search") {
            Goal::Search
        } else if has("buy") {
            Goal::Pay
        } else if has("submit") || has("register") || has("contact") || task_mentions_form(task) {
            Goal::Submit
        } else {
            Goal::Generic
        };
        let mut values = Vec::new();
        let mut targets = Vec::new();
        let mut prev_end = 0;
        for (pos, end, value) in quoted(task) {
            let before = task.get(prev_end..pos).unwrap_or("");
            prev_end = end;
            let label_words = words(before);
            let tail: Vec<&str> = label_words
                .iter()
                .rev()
                .take(3)
                .rev()
                .map(String::as_str)
                .collect();
            let label = tail.join(" ");
            match classify(&tail, &value, goal) {
                Some(kind) => values.push(TaskValue { kind, label, value }),
                None => targets.push(value),
            }
        }
        TaskPlan {
            url: urls(task).into_iter().next(),
            values,
            goal,
            targets,
        }
    }
}

fn task_mentions_form(task: &str) -> bool {
    words(task).iter().any(|w| w == "form" || w == "fill")
}

/// The kind of field a quoted value goes into, from the label words before
/// it; None when the quote names something to find or click instead.
fn classify(label: &[&str], value: &str, goal: Goal) -> Option<FieldKind> {
    let last = label.last().copied().unwrap_or("");
    let any = |ws: &[&str]| label.iter().any(|w| ws.contains(w));
    if any(&["password", "pass", "pwd", "passcode", "passphrase"]) {
        return Some(FieldKind::Password);
    }
    if any(&["email", "mail"]) {
        return Some(FieldKind::Email);
    }
    if any(&["username", "user", "userid", "login"]) || (goal == Goal::Login && last == "as") {
        return Some(FieldKind::Username);
    }
    if any(&["phone", "telephone", "tel", "mobile"]) {
        return Some(FieldKind::Phone);
    }
    if any(&["message", "comment", "comments", "saying", "body", "note"]) {
        return Some(FieldKind::Message);
    }
    if any(&["name"]) {
        return Some(FieldKind::Name);
    }
    if goal == Goal::Search && any(&["search", "for", "query", "find"]) {
        return Some(FieldKind::Search);
    }
    if any(&[
        "type", "enter", "write", "fill", "value", "with", "field", "input",
    ]) {
        return Some(if value.contains('@') {
            FieldKind::Email
        } else {
            FieldKind::Other
        });
    }
    None
}

#[cfg(test)]
mod tests;
