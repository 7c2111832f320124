//! The same task on other markup of its controls (issue-23v): an editable
//! combobox named by its caption, a search bar named only by a
//! placeholder, a select rebuilt as a listbox button named in a phrase,
//! a client-rendered form that appears after the load.
use super::tests::{clicked, decide, did, id, page, typed};
use super::*;
use serde_json::json;

fn ticket() -> Page {
    page(
        json!([
            {"id": "sub", "tag": "input", "ariaLabel": "Subject"},
            {"id": "cat", "tag": "input", "role": "combobox", "ariaLabel": "Category", "placeholder": "Pick one…"},
            {"id": "lo", "tag": "input", "type": "radio", "text": "Low"},
            {"id": "hi", "tag": "input", "type": "radio", "text": "High"},
            {"id": "body", "tag": "textarea", "ariaLabel": "What happened"},
            {"id": "send", "tag": "div", "role": "button", "text": "Send request"}
        ]),
        "Open a request Subject Category Priority Low High What happened Send request",
    )
}

/// "in the Plumbing category": the value, then the label of an editable
/// combobox (`aria-labelledby` its caption; page-ops.js names it so).
#[test]
fn a_value_named_by_a_phrase_goes_into_an_editable_combobox() {
    let task = r#"Please open a request with the subject "Kettle leaks" in the Plumbing category with High priority, describing it as "Water under the sink.""#;
    let h = vec![
        typed("sub", "Kettle leaks"),
        typed("body", "Water under the sink."),
    ];
    assert_eq!(
        decide(task, &ticket(), &h),
        Decision::Tool(Tool::Type {
            id: id("cat"),
            text: "Plumbing".into()
        })
    );
}

/// Two small forms with no label a person reads in the text: the box the
/// engine calls a searchbox (a `role=search` form, named only by its
/// placeholder) takes the search, not the first box of the page.
#[test]
fn a_search_goes_into_the_searchbox_named_only_by_its_placeholder() {
    let p = page(
        json!([
            {"id": "zip", "tag": "input", "type": "text", "ariaLabel": "Postcode", "bbox": {"x": 10, "y": 100, "width": 300, "height": 30}},
            {"id": "go", "tag": "input", "type": "image", "ariaLabel": "Go", "bbox": {"x": 320, "y": 100, "width": 30, "height": 30}},
            {"id": "q", "tag": "input", "type": "text", "role": "searchbox", "placeholder": "Title, author or subject", "bbox": {"x": 10, "y": 300, "width": 300, "height": 30}},
            {"id": "s", "tag": "button", "ariaLabel": "Search", "bbox": {"x": 320, "y": 300, "width": 30, "height": 30}}
        ]),
        "Find a branch Search the archive",
    );
    assert_eq!(
        decide("Search the archive for lighthouses", &p, &[]),
        Decision::Tool(Tool::Type {
            id: id("q"),
            text: "lighthouses".into()
        })
    );
}

/// "team size 11-50" where Team size is a button opening a listbox: the
/// phrase's head names it, its tail is the option clicked once open.
#[test]
fn a_phrase_naming_a_listbox_opens_it_and_picks_the_option() {
    let form = |open: bool| {
        let mut els = vec![
            json!({"id": "fn", "tag": "input", "ariaLabel": "Full name"}),
            json!({"id": "team", "tag": "div", "role": "combobox", "text": "Team size Choose…"}),
        ];
        if open {
            for (k, o) in ["Just me", "2–10", "11–50", "51+"].iter().enumerate() {
                els.push(json!({"id": format!("o{k}"), "tag": "li", "role": "option", "text": o}));
            }
        }
        els.push(json!({"id": "go", "tag": "button", "text": "Create account"}));
        page(
            serde_json::Value::Array(els),
            "Create your account Full name Team size Choose… Create account",
        )
    };
    let task = "Sign up with full name Ada Brook, team size 11-50";
    let h = vec![typed("fn", "Ada Brook")];
    assert_eq!(
        decide(task, &form(false), &h),
        Decision::Tool(Tool::Click { id: id("team") })
    );
    let h = vec![
        typed("fn", "Ada Brook"),
        clicked("team", "Team size Choose…"),
    ];
    assert_eq!(
        decide(task, &form(true), &h),
        Decision::Tool(Tool::Click { id: id("o2") })
    );
}

/// A client-rendered form not drawn yet: after the two scrolls of a short
/// page, one look with a wait before giving up.
#[test]
fn a_page_with_no_field_yet_is_looked_at_again_before_giving_up() {
    let p = page(
        json!([{"id": "cart", "tag": "a", "text": "Cart (2)", "href": "#cart"}]),
        "Pinecone Goods Cart (2)",
    );
    let task = r#"Check out with full name "Sam Reed" and city "Leeds""#;
    let scrolled = || {
        did(
            "scroll",
            json!({"direction": "down"}),
            "",
            "http://t/",
            false,
        )
    };
    let h = vec![scrolled(), scrolled()];
    assert_eq!(
        decide(task, &p, &h),
        Decision::Tool(Tool::Observe {
            wait_ms: Some(1000)
        })
    );
}
