//! Task understanding: an instruction as people write it → a goal structure
//! the planner executes step by step (docs/agent.md). "Log in with username alice
//! and password wonderland" → [Type(username = alice), Type(password =
//! wonderland), Submit(login)]; "Select A, B and C and click Submit" →
//! [Select exactly {A, B, C}, Click "Submit"]; "Focus into the 3rd input
//! textbox" → [Focus(textbox #3)].
//!
//! The words live in a `Lexicon` (English today, see `lexicon.rs`); the
//! grammar (tokens → clauses → steps) is the same for any lexicon, so another
//! language is another table, not another parser.

mod clause;
pub mod lexicon;
mod object;
mod tokens;
mod values;

#[cfg(test)]
mod tests;

use crate::task::FieldKind;
use lexicon::{Lexicon, ENGLISH};
use serde::Serialize;

/// What a step does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verb {
    /// Click / press / tap an element.
    Click,
    /// Type a value into a field.
    Type,
    /// Choose options: tick checkboxes, pick a radio or a list option.
    Select,
    /// Untick.
    Unselect,
    /// Open a collapsed section, menu, tree node or dropdown.
    Expand,
    /// Look through tabs / sections / pages for the next step's target.
    Explore,
    /// Put the keyboard focus into a field.
    Focus,
    /// Submit the form (log in, sign up, send…), with its button or Enter.
    Submit,
    /// Search for a term (type it into the search field and submit).
    Search,
    /// Find or read information on the page (answer-style).
    Find,
    /// Open a URL.
    Navigate,
    /// Scroll the page or a list.
    Scroll,
    /// Hover over an element.
    Hover,
}

/// Kinds of element a task names ("the button", "a link", "the 2nd tab").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Button,
    Link,
    Tab,
    Checkbox,
    Radio,
    Field,
    TextArea,
    Dropdown,
    Option,
    Item,
    Section,
    Menu,
    Result,
    Dialog,
    List,
    Table,
    /// "widget", "element", "thing": the quoted text names the kind.
    Widget,
}

/// Position among the candidates: "the 2nd", "the last".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ordinal {
    Nth(usize),
    Last,
}

/// Where the target is relative to something named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    Below,
    Above,
    LeftOf,
    RightOf,
    Near,
    Inside,
}

/// What to do to a value before typing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Transform {
    Upper,
    Lower,
    Reverse,
    Capitalize,
}

/// The element a step acts on.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Target {
    /// Text the element shows ("Submit", "Section #2"); as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ordinal: Option<Ordinal>,
    /// "below X": the relation and X.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relation: Option<(Relation, String)>,
    /// Every matching element ("both text fields", "all checkboxes").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub all: bool,
}

impl Target {
    pub fn is_empty(&self) -> bool {
        self.text.is_none() && self.role.is_none() && self.ordinal.is_none()
    }
}

/// A value to enter: literal, or read from the page (answer-style).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueSource {
    Literal(String),
    /// "the phone number of Bob" → Lookup { what: "phone number", key: "Bob" }.
    Lookup {
        what: String,
        key: String,
    },
    /// "an item that starts with Sa and ends with ino": type the start,
    /// then choose the suggestion that fits.
    Pattern {
        starts: Option<String>,
        ends: Option<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Value {
    pub source: ValueSource,
    /// The field it goes into, by kind (username, password…).
    pub field: FieldKind,
    /// The words naming the field ("username", "verify password").
    #[serde(skip_serializing_if = "String::is_empty")]
    pub label: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub transforms: Vec<Transform>,
}

impl Value {
    /// The text to type: the literal with its transforms applied (None for a
    /// lookup, which the planner resolves on the page).
    pub fn text(&self) -> Option<String> {
        match &self.source {
            ValueSource::Literal(s) => Some(apply(s, &self.transforms)),
            ValueSource::Lookup { .. } | ValueSource::Pattern { .. } => None,
        }
    }
}

/// Apply transforms in order.
pub fn apply(s: &str, transforms: &[Transform]) -> String {
    let mut out = s.to_string();
    for t in transforms {
        out = match t {
            Transform::Upper => out.to_uppercase(),
            Transform::Lower => out.to_lowercase(),
            Transform::Reverse => out.chars().rev().collect(),
            Transform::Capitalize => {
                let mut c = out.chars();
                match c.next() {
                    Some(f) => f.to_uppercase().chain(c).collect(),
                    None => out,
                }
            }
        };
    }
    out
}

/// Which options a select step wants.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Choice {
    /// Exactly these (others unticked): "Select A, B and C".
    Exactly(Vec<String>),
    /// None at all: "Select nothing".
    Nothing,
    /// Every option: "Select all".
    All,
    /// Options that mean these words: "Select words similar to happy".
    Like(Vec<String>),
}

/// One subgoal.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    pub verb: Verb,
    #[serde(skip_serializing_if = "Target::is_empty")]
    pub target: Target,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choice: Option<Choice>,
    /// A URL (navigate) or search term.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arg: Option<String>,
}

impl Step {
    pub fn new(verb: Verb) -> Step {
        Step {
            verb,
            target: Target::default(),
            values: Vec::new(),
            choice: None,
            arg: None,
        }
    }
}

/// When the task is done.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Done {
    /// Every step carried out and visible (values entered, options ticked,
    /// the final click made).
    AllSteps,
    /// The asked-for information is on screen (find / read tasks).
    Answer,
    /// The named URL is open.
    Url(String),
}

/// The goal structure of a task.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Intent {
    pub steps: Vec<Step>,
    pub done: Done,
}

impl Intent {
    /// Parse an English instruction.
    pub fn parse(task: &str) -> Intent {
        Intent::parse_with(task, &ENGLISH)
    }

    pub fn parse_with(task: &str, lex: &Lexicon) -> Intent {
        let toks = tokens::tokenize(task);
        let clauses = tokens::clauses(&toks, lex);
        let mut steps: Vec<Step> = Vec::new();
        let mut carry_role: Option<Role> = None;
        for c in &clauses {
            for mut s in clause::parse(c, lex) {
                // "Use the textbox to enter X": the used thing is the field.
                if s.verb == Verb::Type && s.target.role.is_none() {
                    s.target.role = carry_role.take();
                }
                steps.push(s);
            }
            carry_role = clause::used_role(c, lex);
        }
        // "Find" with nothing to find, before a step that names its target
        // ("find and click the link X"), is part of that step.
        let n = steps.len();
        let mut kept: Vec<Step> = Vec::with_capacity(n);
        for (i, s) in steps.iter().enumerate() {
            let bare = s.verb == Verb::Find && s.target.is_empty() && s.arg.is_none();
            if bare && i + 1 < n {
                continue;
            }
            kept.push(s.clone());
        }
        let done = match kept.as_slice() {
            [s] if s.verb == Verb::Navigate => Done::Url(s.arg.clone().unwrap_or_default()),
            ss if !ss.is_empty() && ss.iter().all(|s| s.verb == Verb::Find) => Done::Answer,
            _ => Done::AllSteps,
        };
        Intent { steps: kept, done }
    }

    /// Every literal value of the task, in order (for the field filler).
    pub fn values(&self) -> impl Iterator<Item = &Value> {
        self.steps.iter().flat_map(|s| s.values.iter())
    }

    /// Has a step of this verb.
    pub fn has(&self, v: Verb) -> bool {
        self.steps.iter().any(|s| s.verb == v)
    }

    /// One line for people and for the LLM prompt:
    /// `1. type username="alice" → 2. submit "Log in"`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        for (i, s) in self.steps.iter().enumerate() {
            let mut p = format!("{}. {}", i + 1, verb_word(s.verb));
            if let Some(o) = s.target.ordinal {
                p.push_str(&match o {
                    Ordinal::Nth(n) => format!(" #{n}"),
                    Ordinal::Last => " last".into(),
                });
            }
            if s.target.all {
                p.push_str(" every");
            }
            if let Some(r) = s.target.role {
                p.push_str(&format!(" {}", role_word(r)));
            }
            if let Some(t) = &s.target.text {
                p.push_str(&format!(" \"{t}\""));
            }
            if let Some((rel, what)) = &s.target.relation {
                p.push_str(&format!(
                    " {} \"{what}\"",
                    format!("{rel:?}").to_lowercase()
                ));
            }
            for v in &s.values {
                let shown = match &v.source {
                    ValueSource::Literal(_) => format!("\"{}\"", v.text().unwrap_or_default()),
                    ValueSource::Lookup { what, key } => format!("(the {what} of \"{key}\")"),
                    ValueSource::Pattern { starts, ends } => format!(
                        "(starts {:?} ends {:?})",
                        starts.as_deref().unwrap_or(""),
                        ends.as_deref().unwrap_or("")
                    ),
                };
                let kind = crate::system2::score::kind_word(v.field);
                let label = if v.label.is_empty() || v.label.to_lowercase() == kind {
                    String::new()
                } else {
                    format!("[{}]", v.label)
                };
                p.push_str(&format!(" {kind}{label}={shown}"));
            }
            match &s.choice {
                Some(Choice::Exactly(xs)) => p.push_str(&format!(" exactly {xs:?}")),
                Some(Choice::Nothing) => p.push_str(" nothing"),
                Some(Choice::All) => p.push_str(" all"),
                Some(Choice::Like(xs)) => p.push_str(&format!(" like {xs:?}")),
                None => {}
            }
            if let Some(a) = &s.arg {
                p.push_str(&format!(" {a}"));
            }
            parts.push(p);
        }
        parts.join(" → ")
    }
}

pub fn verb_word(v: Verb) -> &'static str {
    match v {
        Verb::Click => "click",
        Verb::Type => "type",
        Verb::Select => "select",
        Verb::Unselect => "unselect",
        Verb::Expand => "expand",
        Verb::Explore => "explore",
        Verb::Focus => "focus",
        Verb::Submit => "submit",
        Verb::Search => "search",
        Verb::Find => "find",
        Verb::Navigate => "navigate",
        Verb::Scroll => "scroll",
        Verb::Hover => "hover",
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
        Role::Widget => "widget",
    }
}
