//! "Enter the value that corresponds with each label into the form": each
//! field takes what the page writes after its own label elsewhere (a
//! key–value table, "Label: value" lines), whatever the labels are.
use super::tests::{decide, id, page, typed};
use super::*;
use serde_json::json;

fn form() -> serde_json::Value {
    json!([
        {"id": "a", "tag": "input", "type": "text", "ariaLabel": "Language", "bbox": {"x": 10, "y": 100, "width": 100, "height": 20}},
        {"id": "b", "tag": "input", "type": "text", "ariaLabel": "First name", "bbox": {"x": 10, "y": 130, "width": 100, "height": 20}},
        {"id": "s", "tag": "button", "text": "Submit", "bbox": {"x": 10, "y": 160, "width": 60, "height": 20}},
    ])
}

const TABLE: &str = "Religion Judaism\nFirst name Amelie\nLanguage German\nLast name Jordan\nLanguage:\nFirst name:\nSubmit";

#[test]
fn each_field_takes_the_value_written_after_its_label() {
    for task in [
        "Enter the value that corresponds with each label into the form and submit when done.",
        "Fill in every field with its value from the table, then submit.",
    ] {
        let p = page(form(), TABLE);
        assert_eq!(
            decide(task, &p, &[]),
            Decision::Tool(Tool::Type {
                id: id("a"),
                text: "German".into()
            }),
            "{task}"
        );
        assert_eq!(
            decide(task, &p, &[typed("a", "German")]),
            Decision::Tool(Tool::Type {
                id: id("b"),
                text: "Amelie".into()
            }),
            "{task}"
        );
        assert_eq!(
            decide(task, &p, &[typed("a", "German"), typed("b", "Amelie")]),
            Decision::Tool(Tool::Click { id: id("s") }),
            "{task}"
        );
    }
}

#[test]
fn a_label_written_with_a_colon_and_its_value_counts_too() {
    let p = page(
        form(),
        "Contact card\nLanguage: Portuguese\nFirst name: Ana Maria\nLanguage\nFirst name\nSubmit",
    );
    let task = "Type each value into the field with the same label";
    assert_eq!(
        decide(task, &p, &[]),
        Decision::Tool(Tool::Type {
            id: id("a"),
            text: "Portuguese".into()
        })
    );
    assert_eq!(
        decide(task, &p, &[typed("a", "Portuguese")]),
        Decision::Tool(Tool::Type {
            id: id("b"),
            text: "Ana Maria".into()
        })
    );
}
