//! press Enter / Tab / Escape: a key, in the field just filled or where
//! the focus is.

use super::Clause;
use crate::intent::Step;

/// The key a word names, as `KeyboardEvent.key` spells it.
pub(super) fn key_name(word: &str) -> Option<&'static str> {
    Some(match word.trim().to_lowercase().as_str() {
        "enter" | "return" | "enter key" | "return key" => "Enter",
        "tab" | "tab key" => "Tab",
        "escape" | "esc" | "escape key" => "Escape",
        "space" | "spacebar" | "space bar" => " ",
        "backspace" => "Backspace",
        "up" | "arrow up" | "up arrow" => "ArrowUp",
        "down" | "arrow down" | "down arrow" => "ArrowDown",
        "left" | "arrow left" | "left arrow" => "ArrowLeft",
        "right" | "arrow right" | "right arrow" => "ArrowRight",
        _ => return None,
    })
}

pub(super) fn parse(c: &Clause<'_>) -> Vec<Step> {
    // The key is in the phrase ("press enter", "hit return") or after it.
    let words: Vec<&str> = c
        .phrase
        .iter()
        .copied()
        .chain(c.rest.iter().map(|t| t.lower.as_str()))
        .filter(|w| !matches!(*w, "press" | "hit" | "the" | "key" | "on" | "a"))
        .collect();
    let key = words
        .iter()
        .find_map(|w| key_name(w))
        .unwrap_or("Enter")
        .to_string();
    vec![Step::Press { key }]
}
