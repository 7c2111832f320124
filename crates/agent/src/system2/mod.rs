//! The System 2 decision engine (docs/contracts/system2.md): score every element for
//! discoverability, understandability and semantic relevance, combine, and
//! pick an action (click, hover, type, backtrack). Deterministic: the same
//! input always gives the same output (ties go to the earlier element).

pub mod image;
pub mod score;

use self::image::Screenshot;
use self::score::{combine, discoverability, relevance, understandability, Candidate, UserContext};
use crate::task::TaskPlan;
use serde::{Deserialize, Serialize};

/// System 2 request (docs/contracts/system2.md §4) `elements[]` (coordinates
/// accepted as any number).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct System2Element {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    #[serde(default)]
    pub text: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub selector: String,
}

/// System 2 response (docs/contracts/system2.md §5) `selected_element`: integer coordinates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SelectedElement {
    pub x: i64,
    pub y: i64,
    pub width: i64,
    pub height: i64,
    pub text: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub selector: String,
}

impl From<&System2Element> for SelectedElement {
    fn from(e: &System2Element) -> Self {
        SelectedElement {
            x: e.x.round() as i64,
            y: e.y.round() as i64,
            width: e.width.round() as i64,
            height: e.height.round() as i64,
            text: e.text.clone(),
            kind: e.kind.clone(),
            selector: e.selector.clone(),
        }
    }
}

/// System 2 response (docs/contracts/system2.md §5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct System2Response {
    pub selected_element: SelectedElement,
    pub action: String,
    pub reasoning: String,
}

/// A validated, decoded System 2 request (docs/contracts/system2.md §3).
pub struct System2Input {
    pub task: String,
    pub screenshot: Screenshot,
    pub previous_screenshot: Option<Screenshot>,
    pub context: UserContext,
    pub scratchpad: Vec<String>,
    pub elements: Vec<System2Element>,
    /// (action, element) of `prev_action` (docs/contracts/system2.md §3).
    pub prev_action: Option<(String, System2Element)>,
}

const TEXT_TYPES: &[&str] = &[
    "textbox",
    "input",
    "text",
    "searchbox",
    "search",
    "textarea",
    "email",
    "password",
    "tel",
    "url",
    "number",
    "combobox",
];

fn candidate(e: &System2Element) -> Candidate {
    Candidate {
        text: e.text.clone(),
        kind: e.kind.clone(),
        selector: e.selector.clone(),
        x: e.x,
        y: e.y,
        width: e.width,
        height: e.height,
        is_text_entry: TEXT_TYPES.contains(&e.kind.to_lowercase().as_str()),
        is_primary: false,
    }
}

/// Below this relevance nothing on screen serves the task: backtrack.
const MIN_RELEVANCE: f64 = 0.15;

pub fn decide(input: &System2Input) -> System2Response {
    let plan = TaskPlan::parse(&input.task);
    if let (Some(prev), Some((prev_kind, prev_el))) =
        (&input.previous_screenshot, &input.prev_action)
    {
        if !input.screenshot.differs_from(prev) {
            return System2Response {
                selected_element: prev_el.into(),
                action: "backtrack".into(),
                reasoning: format!(
                    "Backtrack: the screen did not change after the previous {prev_kind} on {} '{}', so that path is a dead end.",
                    prev_el.kind, prev_el.text
                ),
            };
        }
    }
    let fold = f64::from(input.screenshot.height());
    let task_concepts = crate::text::concepts(&input.task);
    let mut best: Option<(f64, usize, String, f64)> = None;
    for (i, e) in input.elements.iter().enumerate() {
        let c = candidate(e);
        let d = discoverability(&c, Some(&input.screenshot), fold);
        let u = understandability(&c, &input.context);
        let r = relevance(&c, &task_concepts, &plan, &input.scratchpad);
        let total = combine(d.value, u.value, r.value);
        let reasoning = format!(
            "Final Score: {total:.2} for {}\n1. Discoverability ({:.2}): {}\n2. Understandability ({:.2}): {}\n3. Semantic Relevance ({:.2}): {}",
            e.kind, d.value, d.reason, u.value, u.reason, r.value, r.reason
        );
        if best.as_ref().is_none_or(|b| total > b.0) {
            best = Some((total, i, reasoning, r.value));
        }
    }
    let Some((_, i, reasoning, rel)) = best else {
        return System2Response {
            selected_element: SelectedElement::from(&System2Element {
                x: 0.0,
                y: 0.0,
                width: 0.0,
                height: 0.0,
                text: String::new(),
                kind: String::new(),
                selector: String::new(),
            }),
            action: "backtrack".into(),
            reasoning: "Backtrack: the page offers no elements to interact with.".into(),
        };
    };
    let e = &input.elements[i];
    let c = candidate(e);
    if rel < MIN_RELEVANCE {
        return System2Response {
            selected_element: e.into(),
            action: "backtrack".into(),
            reasoning: format!(
                "{reasoning}\nBacktrack: no remaining element is relevant to the task."
            ),
        };
    }
    let has_value = score::field_kind(&c).is_some_and(|k| plan.values.iter().any(|v| v.kind == k));
    let hovered_before = input
        .prev_action
        .as_ref()
        .is_some_and(|(a, p)| a == "hover" && p.selector == e.selector);
    let action = if has_value {
        "type"
    } else if c.is_menu() && !hovered_before {
        "hover"
    } else {
        "click"
    };
    System2Response {
        selected_element: e.into(),
        action: action.into(),
        reasoning,
    }
}
