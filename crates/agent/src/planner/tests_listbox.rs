//! The planner on a select-only combobox (WAI-ARIA APG: a `div
//! role=combobox` that shows its value and opens a listbox): opened and
//! its option clicked, never typed into (`steps/fill/popup.rs`).
use super::tests::{clicked, decide, id, page};
use super::*;
use serde_json::json;

fn form(open: bool) -> Page {
    let mut els = vec![
        json!({"id": "subject", "tag": "input", "ariaLabel": "Subject", "value": "Printer jam"}),
        json!({"id": "pri", "tag": "div", "role": "combobox", "text": "Normal", "ariaLabel": "Priority Normal"}),
    ];
    if open {
        for (k, o) in ["Low", "Normal", "High", "Urgent"].iter().enumerate() {
            els.push(json!({"id": format!("o{k}"), "tag": "li", "role": "option", "text": o}));
        }
    }
    els.push(json!({"id": "save", "tag": "button", "text": "Save"}));
    page(
        serde_json::Value::Array(els),
        "New ticket Subject Priority Normal Low Normal High Urgent Save",
    )
}

#[test]
fn a_select_only_combobox_is_opened_and_its_option_clicked_not_typed_into() {
    let task = r#"Enter "Printer jam" as the subject, set the priority to "Urgent" and click Save"#;
    assert!(!form(false).elements[1].is_text_entry());
    assert_eq!(
        decide(task, &form(false), &[]),
        Decision::Tool(Tool::Click { id: id("pri") })
    );
    assert_eq!(
        decide(task, &form(true), &[clicked("pri", "Priority Normal")]),
        Decision::Tool(Tool::Click { id: id("o3") })
    );
}
