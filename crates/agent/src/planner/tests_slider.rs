//! Sliders: a value set by the slider's arrow key, pressed once per step
//! between the value its readout shows and the one asked; the sliders of
//! a list in the page's order; a range input by its label and its value.
use super::tests::{decide, did};
use super::*;
use crate::ElementId;
use serde_json::json;

fn num(n: u64) -> ElementId {
    ElementId::Num(n)
}

/// A drawn slider (jQuery UI: a `<span class="ui-slider-handle">`, no
/// role, no value of its own) with its readout after it, then Submit.
fn one_slider(task: &str, readout: &str) -> Page {
    Page::from_json(&json!({
        "url": "http://t/", "title": "t",
        "visibleText": format!("{task} {readout} Submit"),
        "elements": [
            {"id": 2, "role": "button", "tag": "button", "text": "Submit", "bbox": {"x": 10, "y": 175, "width": 95, "height": 31}},
            {"id": 1, "role": "generic", "tag": "span", "hint": "ui slider handle ui corner all ui state default", "bbox": {"x": 8, "y": 117, "width": 14, "height": 14}},
        ]
    }))
    .expect("page")
}

fn pressed(el: i64, key: &str, repeat: u32) -> HistoryEntry {
    did(
        "press",
        json!({ "id": el, "key": key, "repeat": repeat }),
        "",
        "http://t/",
        true,
    )
}

#[test]
fn a_drawn_slider_is_set_by_its_arrow_key_from_the_value_it_shows() {
    let task = "Select 104 with the slider and hit Submit.";
    assert_eq!(
        decide(task, &one_slider(task, "102"), &[]),
        Decision::Tool(Tool::Press {
            key: "ArrowRight".into(),
            id: Some(num(1)),
            repeat: Some(2)
        })
    );
    // Below zero, and down: the sign of the readout counts.
    assert_eq!(
        decide(
            "Select -100 with the slider and hit Submit.",
            &one_slider("Select -100 with the slider and hit Submit.", "-95"),
            &[]
        ),
        Decision::Tool(Tool::Press {
            key: "ArrowLeft".into(),
            id: Some(num(1)),
            repeat: Some(5)
        })
    );
    // At the value: the next step.
    assert_eq!(
        decide(
            task,
            &one_slider(task, "104"),
            &[pressed(1, "ArrowRight", 2)]
        ),
        Decision::Tool(Tool::Click { id: num(2) })
    );
}

#[test]
fn the_sliders_of_a_list_take_its_values_in_order() {
    let p = Page::from_json(&json!({
        "url": "http://t/", "title": "t",
        "visibleText": "Set the sliders to the combination [12,4,17] and submit. 12 3 17 Submit",
        "elements": [
            {"id": 1, "role": "generic", "tag": "span", "hint": "ui slider handle", "bbox": {"x": 10, "y": 60, "width": 14, "height": 14}},
            {"id": 2, "role": "generic", "tag": "span", "hint": "ui slider handle", "bbox": {"x": 10, "y": 100, "width": 14, "height": 14}},
            {"id": 3, "role": "generic", "tag": "span", "hint": "ui slider handle", "bbox": {"x": 10, "y": 140, "width": 14, "height": 14}},
            {"id": 4, "role": "button", "tag": "button", "text": "Submit", "bbox": {"x": 10, "y": 180, "width": 95, "height": 31}},
        ]
    }))
    .expect("page");
    assert_eq!(
        decide(
            "Set the sliders to the combination [12,4,17] and submit.",
            &p,
            &[]
        ),
        Decision::Tool(Tool::Press {
            key: "ArrowRight".into(),
            id: Some(num(2)),
            repeat: None
        })
    );
}

#[test]
fn a_range_input_is_found_by_its_label_and_read_by_its_value() {
    let p = Page::from_json(&json!({
        "url": "http://t/", "title": "t",
        "visibleText": "Volume Save",
        "elements": [
            {"id": 1, "role": "generic", "tag": "input", "type": "range", "ariaLabel": "Volume", "value": "30", "bbox": {"x": 10, "y": 60, "width": 200, "height": 14}},
            {"id": 2, "role": "button", "tag": "button", "text": "Save", "bbox": {"x": 10, "y": 100, "width": 95, "height": 31}},
        ]
    }))
    .expect("page");
    assert_eq!(
        decide("Set the volume to 45", &p, &[]),
        Decision::Tool(Tool::Type {
            id: num(1),
            text: "45".into()
        })
    );
}

/// A slider that does not move under its keys is not pressed for ever.
#[test]
fn a_slider_that_does_not_move_is_given_up() {
    let h: Vec<HistoryEntry> = (0..4).map(|_| pressed(1, "ArrowRight", 2)).collect();
    let task = "Select 104 with the slider and hit Submit.";
    assert!(matches!(
        decide(task, &one_slider(task, "102"), &h),
        Decision::Ask(_) | Decision::Fail(_)
    ));
}
