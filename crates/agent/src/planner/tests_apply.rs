//! A field's own button pressed before the form is sent
//! (`steps/fill/apply.rs`), and a field shown by the control that names it
//! before a value goes anywhere else. Made-up pages (a ferry booking), with
//! words of their own.
use super::tests::{clicked, decide, id, page, typed};
use super::*;
use serde_json::json;

const TASK: &str = r#"Redeem gift card "GC-7781" and pay"#;

fn b(x: u32, y: u32, w: u32) -> serde_json::Value {
    json!({"x": x, "y": y, "width": w, "height": 30})
}

/// A gift-card box with "Redeem" in its row, a name field under it, and
/// the form's own "Pay now".
fn ferry() -> Page {
    page(
        json!([
            {"id": "gc", "tag": "input", "type": "text", "ariaLabel": "Gift card", "bbox": b(10, 100, 200)},
            {"id": "rd", "tag": "button", "type": "button", "text": "Redeem", "bbox": b(220, 100, 80)},
            {"id": "nm", "tag": "input", "type": "text", "ariaLabel": "Name on booking", "bbox": b(10, 200, 200)},
            {"id": "pay", "tag": "button", "type": "submit", "text": "Pay now", "bbox": b(10, 300, 120)},
        ]),
        "Ferry booking Gift card Redeem Name on booking Pay now",
    )
}

#[test]
fn the_fields_own_button_takes_the_value_in_before_the_form_is_sent() {
    let h = [typed("gc", "GC-7781")];
    assert_eq!(
        decide(TASK, &ferry(), &h),
        Decision::Tool(Tool::Click { id: id("rd") })
    );
    let h = [typed("gc", "GC-7781"), clicked("rd", "Redeem")];
    assert_eq!(
        decide(TASK, &ferry(), &h),
        Decision::Tool(Tool::Click { id: id("pay") })
    );
}

#[test]
fn a_button_nearer_another_field_is_not_this_ones() {
    // "Check" sits beside the name field: typing the gift card does not
    // call for it.
    let p = page(
        json!([
            {"id": "gc", "tag": "input", "type": "text", "ariaLabel": "Gift card", "bbox": b(10, 100, 200)},
            {"id": "nm", "tag": "input", "type": "text", "ariaLabel": "Name on booking", "bbox": b(10, 200, 200)},
            {"id": "ck", "tag": "button", "type": "button", "text": "Check spelling", "bbox": b(220, 200, 120)},
            {"id": "pay", "tag": "button", "type": "submit", "text": "Pay now", "bbox": b(10, 300, 120)},
        ]),
        "Ferry booking",
    );
    assert_eq!(
        decide(TASK, &p, &[typed("gc", "GC-7781")]),
        Decision::Tool(Tool::Click { id: id("pay") })
    );
}

#[test]
fn a_control_that_names_the_missing_field_shows_it_first() {
    // No gift-card box yet: not typed into the receipt's e-mail box, the
    // link that names it is followed.
    let p = page(
        json!([
            {"id": "em", "tag": "input", "type": "email", "ariaLabel": "Receipt e-mail", "bbox": b(10, 100, 200)},
            {"id": "got", "tag": "a", "href": "#", "text": "Got a gift card?", "bbox": b(10, 150, 120)},
            {"id": "pay", "tag": "button", "type": "submit", "text": "Pay now", "bbox": b(10, 300, 120)},
        ]),
        "Ferry booking",
    );
    assert_eq!(
        decide(TASK, &p, &[]),
        Decision::Tool(Tool::Click { id: id("got") })
    );
}

#[test]
fn the_button_that_sends_the_form_is_no_control_that_shows_a_field() {
    // "Save tide alert" shares "alert" with the value's label but sends
    // the form: the value goes into the one field, then it is sent.
    let p = page(
        json!([
            {"id": "w", "tag": "input", "type": "text", "ariaLabel": "Warn me when", "bbox": b(10, 100, 200)},
            {"id": "s", "tag": "button", "text": "Save tide alert", "bbox": b(10, 150, 120)},
        ]),
        "Tide alerts Warn me when Save tide alert",
    );
    let task = r#"Set a tide alert "high water over 4 m""#;
    let d = decide(task, &p, &[]);
    assert_eq!(
        d,
        Decision::Tool(Tool::Type {
            id: id("w"),
            text: "high water over 4 m".into()
        }),
        "{d:?}"
    );
}
