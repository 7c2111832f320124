//! The task language: an instruction as people write it → a sequence of
//! steps the planner carries out (docs/agent.md). "Log in with username
//! alice and password wonderland" → [Fill(username = alice, password =
//! wonderland), Submit(log in)]; "Click button ONE, wait 3 seconds, then
//! click button TWO" → [Click ONE, Wait 3 s, Click TWO]; "Select
//! Margy>Rosy>Wynne" → [Path Margy › Rosy › Wynne]; "If Premium costs less
//! than $20 choose it, otherwise Standard" → [Branch(Premium < 20, …)].
//!
//! Grammar: `tokens.rs` splits the words (quotes kept whole) and groups
//! them into clauses, one per step ("A, then B", "A and B" when B starts
//! with a verb, sentences; "if…, …; otherwise …" in `branch.rs`); each
//! clause starts with a verb phrase of the `Lexicon`, and the verb's own
//! module in `verbs/` reads the rest (its object: target text, role,
//! position, relation, values with the words that name their fields,
//! choices, transforms). The words live in the `Lexicon` (English today):
//! another language is another table, not another parser.

mod branch;
mod compare;
mod describe;
pub mod lexicon;
mod lexicon_surface;
mod object;
mod range;
mod rows;
pub mod said;
mod superlative;
mod surface;
mod tokens;
pub(crate) mod values;
mod verbs;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_asides;
#[cfg(test)]
mod tests_conditions;
#[cfg(test)]
mod tests_constructs;
#[cfg(test)]
mod tests_counts;
#[cfg(test)]
mod tests_meaning;
#[cfg(test)]
mod tests_messages;
#[cfg(test)]
mod tests_paraphrases;
#[cfg(test)]
mod tests_polite;
#[cfg(test)]
mod tests_ranges;
#[cfg(test)]
mod tests_unquoted;
#[cfg(test)]
mod tests_verbs;

use crate::task::FieldKind;
use lexicon::{Lexicon, ENGLISH};
use serde::Serialize;

pub use describe::{role_word, verb_word};

/// The verb phrase a clause starts with: which module reads the clause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verb {
    Click,
    Hover,
    Focus,
    Type,
    Select,
    Unselect,
    Expand,
    Explore,
    Submit,
    Search,
    Find,
    Navigate,
    Scroll,
    Press,
    Wait,
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
    /// "the slider", "the sliders": a control set by its handle (a range
    /// input, an ARIA slider, a drawn thumb).
    Slider,
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
    /// "the email from Bob", "the Delete button of Q3 plan", "Add to cart
    /// for the tumbler": the element that belongs with the named thing
    /// (the first one after it in reading order).
    Of,
}

/// The extreme a superlative asks for: "the cheapest", "the largest".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Extreme {
    Least,
    Most,
    /// "the shortest flight", "the quickest route": the least duration
    /// shown with it ("5h 30m"), not its price.
    Shortest,
    /// "the longest": the greatest duration.
    Longest,
    /// "the earliest flight", "the oldest": the first moment shown with
    /// it (a time of day, a date), else the least number.
    Earliest,
    /// "the latest", "the newest", "the most recent": the last moment
    /// shown with it, else the greatest number.
    Latest,
    /// "the nearest clinic", "the closest store": the least distance
    /// shown with it ("0.9 mi", "3 km"), not its first number.
    Nearest,
    /// "the highest guest rating", "the best-rated hotel": the greatest
    /// score shown with it ("9.1 Superb", "4.6 / 5"), not its price.
    Rated,
}

impl Extreme {
    /// Least of its measure (a number or a duration).
    pub fn is_least(self) -> bool {
        matches!(
            self,
            Extreme::Least | Extreme::Shortest | Extreme::Earliest | Extreme::Nearest
        )
    }

    /// Measured in the time or date shown beside the thing.
    pub fn is_moment(self) -> bool {
        matches!(self, Extreme::Earliest | Extreme::Latest)
    }

    /// Measured in time shown beside the thing.
    pub fn is_duration(self) -> bool {
        matches!(self, Extreme::Shortest | Extreme::Longest)
    }

    /// Measured in the distance shown beside the thing.
    pub fn is_distance(self) -> bool {
        self == Extreme::Nearest
    }

    /// Measured in the score (rating) shown beside the thing.
    pub fn is_rating(self) -> bool {
        self == Extreme::Rated
    }
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
    /// "the cheapest option": the one whose number is least / most.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extreme: Option<Extreme>,
    /// Every matching element ("both text fields", "all checkboxes").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub all: bool,
}

impl Target {
    pub fn is_empty(&self) -> bool {
        self.text.is_none() && self.role.is_none() && self.ordinal.is_none()
    }
}

/// A value to enter: literal, read from the page, or a pattern.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueSource {
    Literal(String),
    /// "the phone number of Bob" → Lookup { what: "phone number", key: "Bob" };
    /// "the code shown on the page" → Lookup { what: "code", key: "" }.
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
    /// Words that hold a field's name and its value, unquoted, whose split
    /// only the page can tell ("team size 2-10" → the field "Team size",
    /// the value "2-10"; "express delivery" → the option "Express").
    Phrase(String),
    /// "the value that corresponds with each label", "each field's value
    /// from the table": every field takes the value the page writes after
    /// that field's own label elsewhere (a key–value table or list).
    PerLabel,
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
    pub fn literal(text: impl Into<String>, field: FieldKind, label: impl Into<String>) -> Value {
        Value {
            source: ValueSource::Literal(text.into()),
            field,
            label: label.into(),
            transforms: Vec::new(),
        }
    }

    /// The text to type: the literal with its transforms applied (None for
    /// the kinds the planner resolves on the page).
    pub fn text(&self) -> Option<String> {
        match &self.source {
            ValueSource::Literal(s) => Some(apply(s, &self.transforms)),
            _ => None,
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
    /// These: "Select A, B and C" (with two or more, others are unticked:
    /// the set is exactly these); "Tick the I agree box" leaves others.
    Exactly(Vec<String>),
    /// Only these, others unticked: "select only Mushrooms".
    Only(Vec<String>),
    /// None at all: "Select nothing".
    Nothing,
    /// Every option: "Select all".
    All,
    /// Options that mean these words: "Select words similar to happy".
    Like(Vec<String>),
}

/// How a click step touches its element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Touch {
    Click,
    Hover,
    Focus,
}

/// Something the page must show for a wait to end or a branch to be taken.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// The page shows this text ("until Live appears", "if "Sold out" is shown").
    Shows(String),
    /// The number the page shows with `subject` compares with `value`
    /// ("Premium costs less than $20").
    Compare {
        subject: String,
        less: bool,
        or_equal: bool,
        value: f64,
    },
    /// Something new about these words appeared since the wait began
    /// ("wait for the code").
    Appears(String),
}

/// A step of a task: its verb and what the verb needs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "step")]
pub enum Step {
    /// Click, hover or focus an element.
    Click {
        target: Target,
        touch: Touch,
    },
    /// Enter values into fields (the field named by `field` for a single
    /// value: "into the 2nd field", "into both text fields").
    Fill {
        values: Vec<Value>,
        field: Target,
    },
    /// Tick, untick or choose options.
    Choose {
        on: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        choice: Option<Choice>,
        target: Target,
        /// The container named: "from the size dropdown".
        #[serde(skip_serializing_if = "Option::is_none")]
        within: Option<String>,
        /// The control the words as said name, when a synonym made them a
        /// toggle ("stop sync" → turn off "sync"): clicked instead on a
        /// page with no toggle of that name but such a control ("Stop
        /// sync"). None when the verb was said as the grammar reads it.
        #[serde(skip_serializing_if = "Option::is_none")]
        said: Option<Target>,
    },
    /// Open a collapsed section, menu or tab (`explore`: go through them
    /// until the next step's target shows).
    Open {
        target: Target,
        explore: bool,
    },
    /// Submit the form just filled (log in, sign up, send…): its submit
    /// control, whatever it says, or Enter in its last field.
    Submit {
        phrase: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        button: Option<String>,
    },
    /// Search for a term (into the search field, then submit).
    Search {
        #[serde(skip_serializing_if = "Option::is_none")]
        term: Option<Value>,
    },
    /// Find or read something on the page, and answer with it.
    Find {
        target: Target,
        #[serde(skip_serializing_if = "Option::is_none")]
        about: Option<String>,
    },
    Navigate {
        url: String,
    },
    /// Scroll the page, or within the element named ("the textarea"),
    /// `to_end`: to its top or bottom.
    Scroll {
        up: bool,
        target: Target,
        to_end: bool,
    },
    /// Press a key.
    Press {
        key: String,
    },
    /// Wait a while, or until the page shows something.
    Wait {
        #[serde(skip_serializing_if = "Option::is_none")]
        seconds: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        until: Option<Condition>,
    },
    /// A path through menus: "File → Save", "Margy>Rosy>Wynne".
    Path {
        items: Vec<String>,
    },
    /// "If …, A; otherwise B".
    Branch {
        condition: Condition,
        then: Vec<Step>,
        otherwise: Vec<Step>,
    },
}

impl Step {
    /// Its target, for steps that have one.
    pub fn target(&self) -> Option<&Target> {
        match self {
            Step::Click { target, .. }
            | Step::Choose { target, .. }
            | Step::Open { target, .. }
            | Step::Find { target, .. }
            | Step::Scroll { target, .. } => Some(target),
            Step::Fill { field, .. } => Some(field),
            _ => None,
        }
    }

    /// Its values (fill and search steps).
    pub fn values(&self) -> &[Value] {
        match self {
            Step::Fill { values, .. } => values,
            Step::Search { term: Some(v) } => std::slice::from_ref(v),
            _ => &[],
        }
    }

    pub fn is_find(&self) -> bool {
        matches!(self, Step::Find { .. })
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
        let toks = surface::normalize(without_inner_courtesy(tokens::tokenize(task)), lex);
        // A range ("from A to B") is two values for a pair of fields, read
        // before the clauses (its "to" / "and" would split or end them).
        let (toks, range) = range::extract(toks);
        let mut steps = branch::steps(&toks, lex);
        if let Some(fill) = range {
            // The range is set before the form is sent or searched.
            let at = steps
                .iter()
                .position(|s| matches!(s, Step::Search { .. } | Step::Submit { .. }))
                .unwrap_or(steps.len());
            steps.insert(at, fill);
        }
        // "Find" with nothing to find, before a step that names its target
        // ("find and click the link X"), is part of that step.
        let n = steps.len();
        let kept: Vec<Step> = steps
            .into_iter()
            .enumerate()
            .filter(|(i, s)| {
                let bare = matches!(s, Step::Find { target, about: None } if target.is_empty());
                !(bare && i + 1 < n)
            })
            .map(|(_, s)| s)
            .collect();
        let kept = awaited(submit_last(rows::fold(kept)));
        let done = match kept.as_slice() {
            [Step::Navigate { url }] => Done::Url(url.clone()),
            ss if !ss.is_empty() && ss.iter().all(Step::is_find) => Done::Answer,
            _ => Done::AllSteps,
        };
        Intent { steps: kept, done }
    }

    /// Every value of the task, in order.
    pub fn values(&self) -> impl Iterator<Item = &Value> {
        self.steps.iter().flat_map(|s| s.values().iter())
    }

    /// One line for people and for the LLM prompt:
    /// `1. type username="alice" → 2. submit log in`.
    pub fn describe(&self) -> String {
        describe::steps(&self.steps)
    }
}

/// "please" inside a sentence ("If the shoe is available please add it…",
/// "sort them by top rated, please") is courtesy, never part of the
/// condition, target or value beside it: dropped, its punctuation kept
/// by the word before. At a clause's start it stays (the verbs skip it
/// there, and it marks where a request begins); quoted, it is a value.
fn without_inner_courtesy(toks: Vec<tokens::Token>) -> Vec<tokens::Token> {
    let mut out: Vec<tokens::Token> = Vec::with_capacity(toks.len());
    for t in toks {
        let courtesy = !t.quoted && matches!(t.lower.as_str(), "please" | "kindly");
        match out.last_mut() {
            Some(prev) if courtesy && !(prev.comma || prev.colon || prev.stop) => {
                prev.comma |= t.comma;
                prev.colon |= t.colon;
                prev.stop |= t.stop;
            }
            _ => out.push(t),
        }
    }
    out
}

/// A form is sent once it is filled: within a run of fill, choose and
/// submit steps (nothing else between), the values and choices come
/// first and one submit (the last one said) ends it. "Sign up with …, and
/// accept the terms" ticks the box before signing up; "Check out: …;
/// express delivery; card …" fills every page's fields and submits once.
fn submit_last(steps: Vec<Step>) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::with_capacity(steps.len());
    let mut run: Vec<Step> = Vec::new();
    let mut submit: Option<Step> = None;
    let flush = |out: &mut Vec<Step>, run: &mut Vec<Step>, submit: &mut Option<Step>| {
        // Consecutive fills become one.
        for s in run.drain(..) {
            match (out.last_mut(), s) {
                (
                    Some(Step::Fill { values, field }),
                    Step::Fill {
                        values: more,
                        field: f2,
                    },
                ) if field.is_empty() && f2.is_empty() => {
                    values.extend(more);
                }
                (_, s) => out.push(s),
            }
        }
        if let Some(s) = submit.take() {
            out.push(s);
        }
    };
    for s in steps {
        match s {
            Step::Fill { .. } | Step::Choose { .. } => run.push(s),
            Step::Submit { .. } => {
                if submit.is_none() {
                    submit = Some(s);
                } else if let Some(Step::Submit { button: None, .. }) = &submit {
                    submit = Some(s);
                }
            }
            other => {
                flush(&mut out, &mut run, &mut submit);
                out.push(other);
            }
        }
    }
    flush(&mut out, &mut run, &mut submit);
    out
}

/// What is waited for is acted on: "wait until Download CSV file appears
/// and click it" clicks what appeared ("it" leaves the click's target
/// empty); "download it when it is ready" waits until the control shows,
/// then clicks it (the "when …" is no part of what is clicked).
fn awaited(steps: Vec<Step>) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::with_capacity(steps.len());
    for s in steps {
        match s {
            Step::Click { mut target, touch } => {
                let when = target.relation.as_ref().is_some_and(|(r, w)| {
                    *r == Relation::Of && {
                        let w = w.to_lowercase();
                        ["when ", "once ", "as soon as "]
                            .iter()
                            .any(|p| w.starts_with(p))
                    }
                });
                if when {
                    target.relation = None;
                    if let Some(t) = target.text.clone() {
                        out.push(Step::Wait {
                            seconds: None,
                            until: Some(Condition::Shows(t)),
                        });
                    }
                }
                let bare =
                    target.text.is_none() && target.role.is_none() && target.relation.is_none();
                if bare {
                    if let Some(Step::Wait {
                        until: Some(Condition::Shows(t) | Condition::Appears(t)),
                        ..
                    }) = out.last()
                    {
                        target.text = Some(t.clone());
                    }
                }
                out.push(Step::Click { target, touch });
            }
            other => out.push(other),
        }
    }
    out
}
