//! Fields the page names in other words than the task: "address line 1"
//! is the Street box, "ZIP" the Postcode box; a thing "named X"
//! has its name typed into the form's name box; a value the task does not
//! name as a query goes into the page's own form, not its search box.
use super::tests::{decide, id, page};
use super::*;
use serde_json::json;

fn address_form() -> Page {
    page(
        json!([
            {"id": "pn", "tag": "input", "ariaLabel": "Preferred name", "value": "Sam"},
            {"id": "mob", "tag": "input", "type": "tel", "ariaLabel": "Mobile", "value": "07700 900123"},
            {"id": "st", "tag": "input", "ariaLabel": "Street", "value": "4 Mill Road"},
            {"id": "town", "tag": "input", "ariaLabel": "Town", "value": "Westbrook"},
            {"id": "pc", "tag": "input", "ariaLabel": "Postcode", "value": "WB2 7LP"},
            {"id": "save", "tag": "button", "type": "submit", "text": "Save details"},
        ]),
        "Personal details Preferred name Mobile Term-time address Street Town Postcode Save details",
    )
}

#[test]
fn address_line_1_is_the_street_and_zip_the_postcode() {
    let p = address_form();
    for task in [
        r#"Change address line 1 to "12 Birch Lane" and ZIP to "WB4 1QR""#,
        "Please change my street to 12 Birch Lane and the zip to WB4 1QR",
    ] {
        assert_eq!(
            decide(task, &p, &[]),
            Decision::Tool(Tool::Type {
                id: id("st"),
                text: "12 Birch Lane".into()
            }),
            "{task}"
        );
        assert_eq!(
            decide(task, &p, &[super::tests::typed("st", "12 Birch Lane")]),
            Decision::Tool(Tool::Type {
                id: id("pc"),
                text: "WB4 1QR".into()
            }),
            "{task}"
        );
    }
}

#[test]
fn a_thing_named_x_has_its_name_typed_into_the_name_box() {
    let p = page(
        json!([
            {"id": "q", "tag": "input", "type": "search", "ariaLabel": "Search docs"},
            {"id": "name", "tag": "input", "ariaLabel": "Key name"},
            {"id": "go", "tag": "button", "type": "submit", "text": "Create key"},
        ]),
        "Search docs API keys Create a new key Key name Create key",
    );
    for task in [
        "Create an API key named ci-deploy",
        "Could you create a new API key called ci-deploy?",
    ] {
        assert_eq!(
            decide(task, &p, &[]),
            Decision::Tool(Tool::Type {
                id: id("name"),
                text: "ci-deploy".into()
            }),
            "{task}"
        );
    }
}

#[test]
fn a_post_goes_into_the_composer_not_the_site_search() {
    let p = page(
        json!([
            {"id": "q", "tag": "input", "type": "search", "ariaLabel": "Search Commons", "placeholder": "Search Commons"},
            {"id": "txt", "tag": "textarea", "placeholder": "Write something to the group…"},
            {"id": "post", "tag": "button", "type": "submit", "text": "Post"},
        ]),
        "Commons Feed Groups Riverside Runners Private group Post",
    );
    assert_eq!(
        decide(
            r#"Post "Lifts from Central Station at 7:30" in the group"#,
            &p,
            &[]
        ),
        Decision::Tool(Tool::Type {
            id: id("txt"),
            text: "Lifts from Central Station at 7:30".into()
        })
    );
}
