//! The `reason` of every answer, in docs/contracts/browse.md's form: "The user wants to do
//! X, our state is currently Y, so we need to do Z so that we can do X in
//! the future". Y is read from the page just sent (its title or URL, how
//! many elements it offers, what we did last), so the reason is true of it.

use crate::page::BrowsePage;
use sentience_agent::types::HistoryEntry;
use sentience_snapshot_core::Observed;

/// Longest quoted text in a reason (characters).
const QUOTE_CHARS: usize = 60;

fn short(s: &str) -> String {
    cut(s, QUOTE_CHARS)
}

fn cut(s: &str, max: usize) -> String {
    let s = s.trim();
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let head: String = s.chars().take(max).collect();
        format!("{}…", head.trim_end())
    }
}

/// "the button \"Sign in\"", "the text field \"Username\"", "the link to /about".
pub fn element_phrase(e: &Observed) -> String {
    let kind = match e.role().as_str() {
        "textbox" => "text field",
        "searchbox" => "search field",
        "combobox" => "drop-down",
        "generic" => "clickable element",
        r => r,
    };
    let label = [
        e.text(),
        &e.facts.aria_label,
        &e.facts.placeholder,
        &e.facts.name,
    ]
    .into_iter()
    .map(str::trim)
    .find(|s| !s.is_empty());
    match label {
        Some(l) => format!("the {kind} \"{}\"", short(l)),
        None if !e.facts.href.is_empty() => format!("the {kind} to {}", short(&e.facts.href)),
        None => format!("the unlabelled {kind} <{}>", e.facts.tag),
    }
}

/// A `type` into a password field (its text stays out of reasons).
fn secret(h: &HistoryEntry) -> bool {
    h.parameters
        .as_ref()
        .and_then(|p| p.get("secret"))
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}

/// The parts of a reason that depend on the conversation, not the action.
pub struct Reason {
    wants: String,
    state: String,
}

impl Reason {
    pub fn new(task: &str, page: &BrowsePage, url: &str, last: Option<&HistoryEntry>) -> Reason {
        let task = task.trim().trim_end_matches(['.', '!']);
        let mut chars = task.chars();
        let wants = match chars.next() {
            Some(c) => format!("{}{}", c.to_lowercase(), chars.as_str()),
            None => String::new(),
        };
        let place = match (page.title.trim(), url.trim()) {
            ("", "") => "on a page without a title".to_string(),
            ("", u) => format!("on {u}"),
            (t, "") => format!("on the page \"{}\"", short(t)),
            (t, u) => format!("on the page \"{}\" ({u})", short(t)),
        };
        let count = page.elements.len();
        let mut state = format!(
            "{place}, which offers {count} element{} to act on",
            if count == 1 { "" } else { "s" }
        );
        if let Some(h) = last {
            let what = h.element_text.as_deref().map(short);
            let done = match (h.action.as_str(), what) {
                ("navigate", _) => h.param_str("url").map(|u| format!("we went to {u}")),
                ("type", Some(w)) if secret(h) => {
                    Some(format!("we typed the password into \"{w}\""))
                }
                ("type", Some(w)) => Some(format!(
                    "we typed \"{}\" into \"{w}\"",
                    short(h.param_str("text").unwrap_or_default())
                )),
                ("click", Some(w)) => Some(format!("we clicked \"{w}\"")),
                ("press", _) => Some("we submitted the form".to_string()),
                _ => None,
            };
            if let Some(d) = done {
                state.push_str(&format!(", after {d}"));
            }
        }
        Reason { wants, state }
    }

    fn form(&self, z: &str) -> String {
        format!(
            "The user wants to {}, our state is currently {}, so we need to {z} so that we can {} in the future.",
            self.wants, self.state, self.wants
        )
    }

    pub fn goto(&self, url: &str) -> String {
        self.form(&format!(
            "go to {url} first, because the task happens on that page and no element of the current page can be clicked there"
        ))
    }

    pub fn click(&self, e: &Observed, selector: &str) -> String {
        self.form(&format!("click {} ({selector})", element_phrase(e)))
    }

    pub fn focus(&self, e: &Observed, selector: &str, text: &str) -> String {
        let what = if text == "Enter" {
            "press Enter in it".to_string()
        } else if e.facts.input_type == "password" {
            "type the password into it".to_string()
        } else {
            format!("type \"{}\" into it", short(text))
        };
        self.form(&format!(
            "click {} ({selector}) to focus it, because a field must be clicked before we {what}",
            element_phrase(e)
        ))
    }

    pub fn typing(&self, e: &Observed, selector: &str, text: &str) -> String {
        let what = if e.facts.input_type == "password" {
            "the password".to_string()
        } else {
            format!("\"{}\"", short(text))
        };
        self.form(&format!(
            "type {what} into {} ({selector})",
            element_phrase(e)
        ))
    }

    pub fn submit(&self, e: &Observed, selector: &str) -> String {
        self.form(&format!(
            "submit the form by clicking {} ({selector})",
            element_phrase(e)
        ))
    }

    pub fn enter(&self, e: &Observed, selector: &str) -> String {
        self.form(&format!(
            "press Enter in {} ({selector}) to submit it, since its form has no submit button",
            element_phrase(e)
        ))
    }

    /// A key: in an element (`Some((element, selector))`) or where the focus is.
    pub fn press(&self, at: Option<(&Observed, &str)>, key: &str) -> String {
        let place = match at {
            Some((e, selector)) => format!(" in {} ({selector})", element_phrase(e)),
            None => String::new(),
        };
        self.form(&format!("press the {key} key{place}"))
    }

    /// Looking again after a pause: the page is still changing, or the task asks to wait.
    pub fn wait(&self, ms: u64) -> String {
        self.form(&format!(
            "wait {ms} ms and look at the page again, because it is still changing or the task asks for a pause"
        ))
    }

    pub fn finish(&self, result: &str) -> String {
        format!(
            "The user wants to {}, our state is currently {}, and the page shows that the task is done ({}), so we need to stop here so that we do not undo what the user wanted.",
            self.wants,
            self.state,
            cut(result, 200)
        )
    }

    pub fn stop(&self, why: &str) -> String {
        format!(
            "The user wants to {}, our state is currently {}, but we cannot go on: {why}. So we need to stop here and hand the task back to the user so that they can {} another way.",
            self.wants, self.state, self.wants
        )
    }
}
