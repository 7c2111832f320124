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

fn tags(suggests: bool, value: &str, items: &[&str]) -> Page {
    let mut elements = vec![
        json!({"id": 1, "role": "textbox", "tag": "input", "type": "text", "ariaLabel": "Tags:", "value": value, "suggests": suggests, "bbox": {"x": 10, "y": 60, "width": 160, "height": 20}}),
        json!({"id": 2, "role": "button", "tag": "button", "text": "Submit", "bbox": {"x": 10, "y": 100, "width": 80, "height": 28}}),
    ];
    for (k, it) in items.iter().enumerate() {
        elements.push(json!({"id": 10 + k, "tag": "li", "role": "generic", "text": it, "bbox": {"x": 10, "y": 82.0 + 12.0 * k as f64, "width": 160, "height": 12}}));
    }
    Page::from_json(&json!({"url": "http://t/", "title": "t", "visibleText": "Tags: Submit", "elements": elements}))
        .expect("page")
}

/// "An item that starts with Un" on a field that offers suggestions: the
/// prefix typed is not yet an item; one look, and the first suggestion
/// that fits is chosen (its list, left open, would cover the button).
#[test]
fn a_prefix_on_an_autocomplete_waits_for_an_item_to_choose() {
    let task = r#"Enter an item that starts with "Un"."#;
    let typed = [did(
        "type",
        json!({ "id": 1, "text": "Un" }),
        "",
        "http://t/",
        true,
    )];
    assert_eq!(
        decide(task, &tags(true, "Un", &[]), &typed),
        Decision::Tool(Tool::Observe { wait_ms: Some(400) })
    );
    let mut looked = typed.to_vec();
    looked.push(did("observe", json!({}), "", "http://t/", true));
    assert_eq!(
        decide(
            task,
            &tags(true, "Un", &["United Kingdom", "United States"]),
            &looked
        ),
        Decision::Tool(Tool::Click {
            id: ElementId::Num(10)
        })
    );
    // No list came: the prefix stands, and the task is done.
    assert!(matches!(
        decide(task, &tags(true, "Un", &[]), &looked),
        Decision::Finish(_) | Decision::Tool(Tool::Click { .. })
    ));
    // A plain field: no look.
    assert!(!matches!(
        decide(task, &tags(false, "Un", &[]), &typed),
        Decision::Tool(Tool::Observe { .. })
    ));
}

/// The suggestions listed as one element (its items have no control of
/// their own; the page's text has one line per item): the item that fits
/// is reached with Arrow Down in the field, then taken with Enter, which
/// sends nothing: the form's button still does.
#[test]
fn a_suggestion_list_of_one_element_is_walked_with_the_arrow_keys() {
    use super::tests::{id, page};
    let task = r#"Enter an item that starts with "Sa" and ends with "ino"."#;
    let list = |value: &str| {
        page(
            json!([
                {"id": "f", "tag": "input", "type": "text", "ariaLabel": "Tags:", "value": value, "bbox": {"x": 10, "y": 60, "width": 160, "height": 20}},
                {"id": "s", "tag": "button", "text": "Submit", "bbox": {"x": 10, "y": 90, "width": 80, "height": 28}},
                {"id": "l", "tag": "ul", "text": "Saint Helena Saint Lucia Samoa San Marino Saudi Arabia", "bbox": {"x": 10, "y": 81, "width": 160, "height": 100}},
            ]),
            "Tags:\nSubmit\nSaint Helena\nSaint Lucia\nSamoa\nSan Marino\nSaudi Arabia",
        )
    };
    let mut h = vec![did(
        "type",
        json!({ "id": "f", "text": "Sa" }),
        "",
        "http://t/",
        true,
    )];
    assert_eq!(
        decide(task, &list("Sa"), &h),
        Decision::Tool(Tool::Press {
            key: "ArrowDown".into(),
            id: Some(id("f")),
            repeat: Some(4)
        })
    );
    h.push(did(
        "press",
        json!({ "id": "f", "key": "ArrowDown", "repeat": 4 }),
        "",
        "http://t/",
        true,
    ));
    assert_eq!(
        decide(task, &list("San Marino"), &h),
        Decision::Tool(Tool::Press {
            key: "Enter".into(),
            id: Some(id("f")),
            repeat: None
        })
    );
    h.push(did(
        "press",
        json!({ "id": "f", "key": "Enter" }),
        "",
        "http://t/",
        true,
    ));
    assert_eq!(
        decide(task, &list("San Marino"), &h),
        Decision::Tool(Tool::Click { id: id("s") })
    );
}

/// A list that says it is still coming ("Searching…", a server's answer
/// on its way) gets more looks (up to four), where a quiet one gets one
/// (fill/suggest.rs `loading_shown`).
#[test]
fn a_list_still_searching_gets_more_looks() {
    let task = r#"Type "Portland, OR" into the From field and click Search"#;
    let mut h = vec![did(
        "type",
        json!({ "id": 1, "text": "Portland, OR" }),
        "",
        "http://t/",
        true,
    )];
    h.push(did("observe", json!({}), "", "http://t/", true));
    let searching = |text: &str| {
        Page::from_json(&json!({
            "url": "http://t/", "title": "t",
            "visibleText": format!("Book a flight {text} Search"),
            "elements": [
                {"id": 1, "role": "textbox", "tag": "input", "type": "text", "ariaLabel": "From", "value": "Portland, OR", "suggests": true, "bbox": {"x": 10, "y": 60, "width": 260, "height": 28}},
                {"id": 2, "role": "button", "tag": "button", "text": "Search", "bbox": {"x": 10, "y": 120, "width": 80, "height": 28}},
            ]
        }))
        .expect("page")
    };
    let look = Decision::Tool(Tool::Observe { wait_ms: Some(400) });
    for text in ["Searching…", "Loading..."] {
        assert_eq!(decide(task, &searching(text), &h), look, "{text}");
    }
    // A word that only starts like one is no sign of a list on its way.
    assert_ne!(decide(task, &searching("Searchingly odd"), &h), look);
    assert_ne!(decide(task, &form(true), &h), look);
    // Four looks at most.
    for _ in 0..3 {
        h.push(did("observe", json!({}), "", "http://t/", true));
    }
    assert_ne!(decide(task, &searching("Searching…"), &h), look);
}
