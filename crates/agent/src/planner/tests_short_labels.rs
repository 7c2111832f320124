//! Fields the page labels short ("VAT reg. no.", "Dept.")
//! take the values the task names in whole words, whatever their order on
//! the page; a field named with a number ("address line 2") is that
//! field, and the number is no part of the value. Every page and task
//! here is invented for the test (none is a benchmark page's).
use super::tests::{decide, id, page, typed, with_options};
use super::*;
use serde_json::json;

fn supplier_form() -> Page {
    page(
        json!([
            {"id": "co", "tag": "input", "ariaLabel": "Supplier"},
            {"id": "memo", "tag": "input", "ariaLabel": "Comment (optional)"},
            {"id": "dept", "tag": "input", "ariaLabel": "Dept."},
            {"id": "vat", "tag": "input", "ariaLabel": "VAT reg. no."},
            {"id": "add", "tag": "button", "type": "submit", "text": "Add supplier"},
        ]),
        "New supplier Supplier Comment (optional) Dept. VAT reg. no. Add supplier",
    )
}

#[test]
fn values_go_to_the_fields_whose_short_labels_say_their_words() {
    let p = supplier_form();
    let task = r#"Add a supplier "Kestrel Mills" with VAT registration number "GB 123 4567 89", department "Logistics""#;
    let mut history = vec![typed("co", "Kestrel Mills")];
    assert_eq!(
        decide(task, &p, &history),
        Decision::Tool(Tool::Type {
            id: id("vat"),
            text: "GB 123 4567 89".into()
        })
    );
    history.push(typed("vat", "GB 123 4567 89"));
    assert_eq!(
        decide(task, &p, &history),
        Decision::Tool(Tool::Type {
            id: id("dept"),
            text: "Logistics".into()
        })
    );
}

#[test]
fn a_field_named_with_a_number_is_that_field() {
    let p = page(
        json!([
            {"id": "l1", "tag": "input", "ariaLabel": "Address line 1", "value": "3 Harbour Row"},
            {"id": "l2", "tag": "input", "ariaLabel": "Address line 2"},
            {"id": "town", "tag": "input", "ariaLabel": "Town", "value": "Oban"},
            {"id": "save", "tag": "button", "type": "submit", "text": "Save"},
        ]),
        "Delivery address Address line 1 Address line 2 Town Save",
    );
    for task in [
        r#"Set address line 2 "Flat 6" and save"#,
        "Put Flat 6 in address line 2, then save",
        "Update the delivery address, address line 2 Flat 6, town Oban",
    ] {
        assert_eq!(
            decide(task, &p, &[]),
            Decision::Tool(Tool::Type {
                id: id("l2"),
                text: "Flat 6".into()
            }),
            "{task}"
        );
    }
}

#[test]
fn a_code_is_no_option_that_is_only_a_piece_of_it() {
    // "KB" is an option of the Wing list, and the start of the code: the
    // code goes whole into a text box (the first, as nothing names one).
    let mut p = page(
        json!([
            {"id": "wing", "tag": "select", "ariaLabel": "Wing"},
            {"id": "ref", "tag": "input", "ariaLabel": "Visitor ID"},
            {"id": "co", "tag": "input", "ariaLabel": "Company"},
            {"id": "go", "tag": "button", "type": "submit", "text": "Continue"},
        ]),
        "Visitor check-in Wing Visitor ID Company Continue",
    );
    with_options(&mut p, "Wing", &["Choose a wing", "EW", "KB", "NS"]);
    assert_eq!(
        decide(r#"Enter pass "KB-55120" and continue"#, &p, &[]),
        Decision::Tool(Tool::Type {
            id: id("ref"),
            text: "KB-55120".into()
        })
    );
}

#[test]
fn an_option_named_short_is_the_one_the_task_names_whole() {
    let mut p = page(
        json!([
            {"id": "speed", "tag": "select", "ariaLabel": "Delivery speed"},
            {"id": "pay", "tag": "button", "type": "submit", "text": "Pay now"},
        ]),
        "Checkout Delivery speed Pay now",
    );
    with_options(
        &mut p,
        "Delivery speed",
        &[
            "Econ. (6–8 days) — $2",
            "Prio. (1–2 days) — $9",
            "Collect in store — free",
        ],
    );
    assert_eq!(
        decide("Choose priority delivery, then pay", &p, &[]),
        Decision::Tool(Tool::Type {
            id: id("speed"),
            text: "Prio. (1–2 days) — $9".into()
        })
    );
}

#[test]
fn a_value_in_the_form_a_field_shows_goes_there() {
    let p = page(
        json!([
            {"id": "nick", "tag": "input", "ariaLabel": "Nickname"},
            {"id": "card", "tag": "input", "ariaLabel": "Card", "placeholder": "e.g. AB-1234"},
            {"id": "save", "tag": "button", "type": "submit", "text": "Save"},
        ]),
        "Library account Nickname Card Save",
    );
    assert_eq!(
        decide(r#"Enter pass "KX-8841" and save"#, &p, &[]),
        Decision::Tool(Tool::Type {
            id: id("card"),
            text: "KX-8841".into()
        })
    );
}
