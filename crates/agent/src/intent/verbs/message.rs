//! A message named by who wrote it, as people name mail and posts:
//! "Effie's email", "the email from Jerrine", "the message Neille sent
//! me", "the post by @enola". An action on it ("forward Effie's email to
//! Bari", "delete the email Neille sent me") first finds and opens it, then
//! uses the control that acts on the open message.

use crate::intent::tokens::Token;
use crate::intent::{Relation, Step, Target};

/// Nouns that name a message (a thing with an author).
const MESSAGE_NOUNS: &[&str] = &[
    "email",
    "e-mail",
    "mail",
    "message",
    "post",
    "tweet",
    "comment",
    "thread",
    "conversation",
    "letter",
    "note",
];

fn is_message(w: &str) -> bool {
    MESSAGE_NOUNS.contains(&w) || MESSAGE_NOUNS.iter().any(|n| w.strip_suffix('s') == Some(n))
}

/// The author of the message these words name, if they name one by its
/// author.
pub(in crate::intent) fn author(rest: &[Token]) -> Option<String> {
    for (i, t) in rest.iter().enumerate() {
        let next = rest.get(i + 1).map(|t| t.lower.as_str());
        // "Effie's email"
        if let Some(o) = t
            .raw
            .strip_suffix("'s")
            .or_else(|| t.raw.strip_suffix("’s"))
        {
            if next.is_some_and(is_message) && is_name(o) {
                return Some(o.to_string());
            }
        }
        if !is_message(&t.lower) {
            continue;
        }
        // "the email from Jerrine", "the email by Celestyn", "the email I got from Elwira"
        for j in i + 1..rest.len().min(i + 5) {
            if matches!(rest[j].lower.as_str(), "from" | "by") {
                return name_at(rest, j + 1);
            }
        }
        // "the email Neille sent me"
        if let Some(n) = name_at(rest, i + 1) {
            let after = rest.get(i + 1 + n.split(' ').count());
            if after.is_some_and(|t| matches!(t.lower.as_str(), "sent" | "wrote")) {
                return Some(n);
            }
        }
    }
    None
}

/// A name: a capitalised word, or a handle (@enola).
fn is_name(w: &str) -> bool {
    w.chars()
        .next()
        .is_some_and(|c| c.is_uppercase() || c == '@')
}

/// The capitalised words from `k` on (a person's name), if any.
fn name_at(rest: &[Token], k: usize) -> Option<String> {
    let words: Vec<&str> = rest
        .iter()
        .skip(k)
        .take_while(|t| !t.quoted && is_name(&t.raw) && t.lower != "i")
        .map(|t| t.raw.as_str())
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// The step that finds and opens the message by `author`.
pub(super) fn find_by(author: String) -> Step {
    Step::Find {
        about: Some(format!("the message by {author}")),
        target: Target {
            relation: Some((Relation::Of, author)),
            ..Target::default()
        },
    }
}
