//! One step of `sentience act`: the planner's tool as a crates/hands
//! action — an instruction for the vision providers (they find the target
//! on the screen, as the spec's web app does), plus the element the planner
//! chose, which the `dom` provider clicks without choosing again (one
//! planner, one understanding of the task); fields that keystrokes do not
//! fill (a `<select>`, a date or time input) are set through the
//! extension (`POST /browser/act` `fill`). Also the line printed for a step
//! and the figures the run reports.

use sentience_agent::{Page, Tool};
use sentience_hands::Action;
use sentience_snapshot_core::Observed;
use serde_json::{json, Map, Value};
use std::time::Duration;

fn params(pairs: &[(&str, Value)]) -> Map<String, Value> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

fn element<'p>(tool: &Tool, page: &'p Page) -> Option<&'p Observed> {
    tool.element().and_then(|id| page.find_id(id))
}

/// The element's words for an instruction: its label, else its role.
fn target_words(tool: &Tool, page: &Page) -> (String, String) {
    let el = element(tool, page);
    let label = el.map(|e| e.label().to_string()).unwrap_or_default();
    let role = el
        .map(|e| e.role().as_str().to_string())
        .unwrap_or_else(|| "element".into());
    (label, role)
}

/// Keystrokes do not fill these: their value is set whole.
fn set_whole(e: &Observed) -> bool {
    e.is_select()
        || matches!(
            e.facts.input_type.as_str(),
            "date" | "time" | "datetime-local" | "month" | "week" | "range" | "color" | "number"
        )
}

/// The snapshot id of the element a tool acts on.
fn snapshot_id(tool: &Tool, page: &Page) -> Option<u64> {
    element(tool, page).map(|e| u64::from(e.element.id))
}

pub fn to_action(tool: &Tool, page: &Page) -> Action {
    let (label, role) = target_words(tool, page);
    let element = snapshot_id(tool, page);
    match tool {
        Tool::Navigate { url } => Action {
            kind: "navigate".into(),
            params: params(&[("url", json!(url))]),
            ..Default::default()
        },
        Tool::Click { .. } => Action {
            kind: "click".into(),
            target: Some(format!("Click the {role} \"{label}\"")),
            element,
            ..Default::default()
        },
        Tool::Type { text, .. } => {
            if let (Some(id), Some(e)) = (element, self::element(tool, page)) {
                if set_whole(e) {
                    return Action {
                        kind: "fill_element".into(),
                        params: params(&[
                            ("element_id", json!(id)),
                            ("action", json!("fill")),
                            ("text", json!(text)),
                        ]),
                        ..Default::default()
                    };
                }
            }
            Action {
                kind: "type".into(),
                target: Some(format!("Type \"{text}\" into the \"{label}\" {role}")),
                params: params(&[("text", json!(text))]),
                element,
                ..Default::default()
            }
        }
        Tool::Press { key, .. } => Action {
            kind: "keypress".into(),
            params: params(&[("key", json!(key))]),
            ..Default::default()
        },
        // The element the planner wants to see (a row of a list that
        // scrolls in its own box, a field below the fold): into view, or
        // its own content scrolled, as the run loop's scroll does; a page
        // scroll would leave it where it was.
        Tool::Scroll {
            direction,
            amount,
            within,
            id: Some(_),
        } if element.is_some() => {
            let dy = match direction {
                sentience_agent::types::Direction::Up => -f64::from((*amount).min(5000)),
                sentience_agent::types::Direction::Down => f64::from((*amount).min(5000)),
            };
            Action {
                kind: "scroll_element".into(),
                params: params(&[
                    ("element_id", json!(element)),
                    ("action", json!("scroll")),
                    ("within", json!(within)),
                    ("dy", json!(dy)),
                ]),
                ..Default::default()
            }
        }
        Tool::Scroll {
            direction, amount, ..
        } => Action {
            kind: "scroll".into(),
            params: params(&[
                ("direction", json!(direction)),
                ("amount", json!((*amount).min(5000))),
            ]),
            ..Default::default()
        },
        // Observe (after its wait) and the rest: nothing to do on the page;
        // a zero scroll costs one call and lets the loop look again.
        _ => Action {
            kind: "scroll".into(),
            params: params(&[("direction", json!("down")), ("amount", json!(0))]),
            ..Default::default()
        },
    }
}

/// `type "alice" → textbox "Username" at (640, 300) viewport via dom ✓ healed (double_click)`.
pub fn describe(tool: &Tool, page: &Page, r: &Value) -> String {
    let (label, role) = target_words(tool, page);
    let what = match tool {
        Tool::Navigate { url } => format!("navigate {url}"),
        Tool::Type { text, .. } => format!("type \"{text}\" → {role} \"{label}\""),
        Tool::Click { .. } => format!("click {role} \"{label}\""),
        Tool::Press { key, .. } => format!("press {key}"),
        Tool::Observe { wait_ms: Some(ms) } => format!("wait {ms} ms"),
        other => other.name().as_str().to_string(),
    };
    let vision = &r["vision"];
    let point = if vision["point"].is_object() {
        &vision["point"]
    } else {
        &Value::Null
    };
    let mut s = what;
    if let (Some(x), Some(y)) = (point["x"].as_f64(), point["y"].as_f64()) {
        s.push_str(&format!(
            " at ({x:.0}, {y:.0}) {} via {}",
            point["coordinateOrigin"].as_str().unwrap_or(""),
            point["provider"].as_str().unwrap_or("?")
        ));
        if let Some(e) = vision["fallbackFrom"]["message"].as_str() {
            s.push_str(&format!(" (fallback: {e})"));
        }
    }
    if r["success"] == json!(true) {
        s.push_str(" ✓");
        if r["healed"] == json!(true) {
            s.push_str(&format!(
                " healed ({})",
                r["healingMethod"].as_str().unwrap_or("")
            ));
        }
        if let Some(n) = r["attempts"].as_u64().filter(|n| *n > 1) {
            s.push_str(&format!(" after {n} attempts"));
        }
    } else {
        s.push_str(&format!(" ✗ {}", r["error"].as_str().unwrap_or("failed")));
    }
    s
}

/// What a run reports: steps, healed clicks, loops, and per step the time
/// our client logic took (wall time minus I/O waits, deliberate sleeps and
/// the planner).
#[derive(Default)]
pub struct StepStats {
    pub steps: u32,
    pub healed: u32,
    pub failed_actions: u32,
    pub loops: u32,
    pub logic: Vec<Duration>,
    pub planner: Vec<Duration>,
}

impl StepStats {
    pub fn record(&mut self, r: &Value) {
        if r["healed"] == json!(true) {
            self.healed += 1;
        }
        if r["success"] != json!(true) {
            self.failed_actions += 1;
        }
    }

    pub fn summary(&self, success: bool, result: &str) -> Value {
        let ms = |v: &[Duration]| {
            v.iter()
                .map(|d| d.as_secs_f64() * 1000.0)
                .collect::<Vec<_>>()
        };
        let logic = ms(&self.logic);
        let mean = if logic.is_empty() {
            0.0
        } else {
            logic.iter().sum::<f64>() / logic.len() as f64
        };
        let max = logic.iter().copied().fold(0.0, f64::max);
        json!({
            "success": success,
            "result": result,
            "steps": self.steps,
            "healedClicks": self.healed,
            "failedActions": self.failed_actions,
            "loopsDetected": self.loops,
            "logicMsPerStep": { "mean": mean, "max": max, "each": logic },
            "plannerMsPerStep": ms(&self.planner),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sentience_agent::types::Direction;
    use sentience_agent::ElementId;

    fn page() -> Page {
        let html = "<html><body><div style='overflow:auto;height:40px'><button>Elwira</button></div></body></html>";
        let p = sentience_browse::BrowsePage::parse(html, "http://h/");
        sentience_browse::builtin::agent_page(&p, "http://h/")
    }

    #[test]
    fn a_scroll_to_an_element_brings_that_element_into_view() {
        let page = page();
        let id = page.elements[0].element.id;
        let tool = Tool::Scroll {
            direction: Direction::Down,
            amount: 300,
            id: Some(ElementId::Num(u64::from(id))),
            within: false,
        };
        let a = to_action(&tool, &page);
        assert_eq!(a.kind, "scroll_element");
        assert_eq!(a.params["element_id"], json!(id));
        assert_eq!(a.params["action"], json!("scroll"));
        assert_eq!(a.params["within"], json!(false));
        assert_eq!(
            sentience_hands::routing::categorize_action(&a.kind).endpoint(),
            Some("/browser/act")
        );
    }

    #[test]
    fn a_page_scroll_stays_a_page_scroll() {
        let page = page();
        let tool = Tool::Scroll {
            direction: Direction::Up,
            amount: 300,
            id: None,
            within: false,
        };
        let a = to_action(&tool, &page);
        assert_eq!(a.kind, "scroll");
        assert_eq!(a.params["direction"], json!(Direction::Up));
    }
}
