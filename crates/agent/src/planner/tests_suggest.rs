//! Late suggestions: a field whose markup says it offers suggestions
//! (`DomFacts::suggests`, here only a widget's class) gets one short look
//! after typing, for suggestions that come late; any other field does not.
use super::tests::{decide, did};
use super::*;
use crate::ElementId;
use serde_json::json;

fn form(suggests: bool) -> Page {
    Page::from_json(&json!({
        "url": "http://t/", "title": "t",
        "visibleText": "Book a flight Search",
        "elements": [
            {"id": 1, "role": "textbox", "tag": "input", "type": "text", "placeholder": "From", "ariaLabel": "From", "value": "Portland, OR", "suggests": suggests, "bbox": {"x": 10, "y": 60, "width": 260, "height": 28}},
            {"id": 2, "role": "button", "tag": "button", "text": "Search", "bbox": {"x": 10, "y": 120, "width": 80, "height": 28}},
        ]
    }))
    .expect("page")
}

#[test]
fn a_field_that_offers_suggestions_is_given_a_look_for_late_ones() {
    let task = r#"Type "Portland, OR" into the From field and click Search"#;
    let h = [did(
        "type",
        json!({ "id": 1, "text": "Portland, OR" }),
        "",
        "http://t/",
        true,
    )];
    assert_eq!(
        decide(task, &form(true), &h),
        Decision::Tool(Tool::Observe { wait_ms: Some(400) })
    );
    assert_eq!(
        decide(task, &form(false), &h),
        Decision::Tool(Tool::Click {
            id: ElementId::Num(2)
        })
    );
}
