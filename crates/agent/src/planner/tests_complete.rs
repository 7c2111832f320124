//! The completion check (`complete.rs`): the planner does not finish
//! while a form it filled was never sent or a value the task named was
//! used nowhere.
use super::tests::{clicked, decide, id, page, typed};
use super::*;
use serde_json::json;

/// A search form with a filter and a sort that is a select-only combobox.
fn recipes(open: bool, sort: &str) -> Page {
    let mut els = vec![
        json!({"id": "q", "tag": "input", "type": "search", "ariaLabel": "Search recipes", "value": "lentil soup"}),
        json!({"id": "go", "tag": "button", "text": "Search"}),
        json!({"id": "veg", "tag": "input", "type": "checkbox", "text": "Vegetarian"}),
        json!({"id": "sort", "tag": "div", "role": "combobox", "text": format!("{sort} ▾"), "ariaLabel": format!("Sort {sort}")}),
    ];
    if open {
        for (k, o) in ["Relevance", "Top rated", "Quickest"].iter().enumerate() {
            els.push(json!({"id": format!("o{k}"), "tag": "li", "role": "option", "text": o}));
        }
    }
    page(
        serde_json::Value::Array(els),
        "Recipes Search recipes Search Vegetarian Sort Relevance 12 results",
    )
}

#[test]
fn a_quoted_value_the_steps_dropped_is_chosen_before_finishing() {
    let task = r#"Search "lentil soup", vegetarian only, sort by "Top rated""#;
    let searched = [typed("q", "lentil soup"), clicked("go", "Search")];
    assert_eq!(
        decide(task, &recipes(false, "Relevance"), &searched),
        Decision::Tool(Tool::Click { id: id("sort") })
    );
    let mut h = searched.to_vec();
    h.push(clicked("sort", "Relevance ▾"));
    assert_eq!(
        decide(task, &recipes(true, "Relevance"), &h),
        Decision::Tool(Tool::Click { id: id("o1") })
    );
    // The listbox shows it now; "vegetarian only", unquoted and dropped
    // too, is ticked (`leftover.rs`), then done.
    h.push(clicked("o1", "Top rated"));
    assert_eq!(
        decide(task, &recipes(false, "Top rated"), &h),
        Decision::Tool(Tool::Click { id: id("veg") })
    );
    h.push(clicked("veg", "Vegetarian"));
    let mut p = recipes(false, "Top rated");
    if let Some(k) = p.elements.iter().position(|e| p.id_of(e) == id("veg")) {
        p.elements[k].element.state.checked = Some(sentience_snapshot_core::Checked::TRUE);
    }
    let d = decide(task, &p, &h);
    assert!(matches!(d, Decision::Finish(_)), "{d:?}");
}

#[test]
fn a_quoted_value_nothing_on_the_page_takes_is_asked_about_not_finished() {
    let task = r#"Search "lentil soup" and sort by "Top rated""#;
    let p = page(
        json!([
            {"id": "q", "tag": "input", "type": "search", "ariaLabel": "Search recipes", "value": "lentil soup"},
            {"id": "go", "tag": "button", "text": "Search"},
        ]),
        "Recipes Search recipes Search 12 results",
    );
    let d = decide(
        task,
        &p,
        &[typed("q", "lentil soup"), clicked("go", "Search")],
    );
    assert!(
        matches!(&d, Decision::Ask(q) if q.contains("Top rated")),
        "{d:?}"
    );
}

#[test]
fn a_form_filled_by_the_branch_taken_is_sent() {
    let p = page(
        json!([
            {"id": "add", "tag": "button", "text": "Add to cart", "disabled": true},
            {"id": "wl", "tag": "input", "type": "email", "ariaLabel": "Email me when it is back"},
            {"id": "notify", "tag": "button", "text": "Join the waitlist"},
        ]),
        "Trail runner Sold out Add to cart Email me when it is back Join the waitlist",
    );
    let task = "If the shoe is available please add it to my cart; otherwise put pia@run.test on the waitlist.";
    assert_eq!(
        decide(task, &p, &[typed("wl", "pia@run.test")]),
        Decision::Tool(Tool::Click { id: id("notify") })
    );
}

/// A rental form whose bikes are set with a stepper and sent by its own
/// button, and a second form (a gift card's) with a submit of its own.
fn bike_rental(now: u32) -> Page {
    let bb = |x: u32, y: u32| json!({"x": x, "y": y, "width": 60, "height": 20});
    let mut p = page(
        json!([
            {"id": "less", "tag": "button", "type": "button", "text": "−", "ariaLabel": "Remove a bike", "form": 1, "bbox": bb(400, 100)},
            {"id": "more", "tag": "button", "type": "button", "text": "+", "ariaLabel": "Add a bike", "form": 1, "bbox": bb(520, 100)},
            {"id": "save", "tag": "button", "type": "submit", "text": "Update bikes", "form": 1, "bbox": bb(400, 160)},
            {"id": "gift", "tag": "input", "type": "text", "label": "Gift card", "form": 2, "bbox": bb(400, 240)},
            {"id": "redeem", "tag": "button", "type": "submit", "text": "Redeem", "form": 2, "bbox": bb(520, 240)},
        ]),
        &format!("Rentals Bikes − {now} bikes + Update bikes Gift card Redeem"),
    );
    in_forms(
        &mut p,
        &[
            ("less", 1),
            ("more", 1),
            ("save", 1),
            ("gift", 2),
            ("redeem", 2),
        ],
    );
    p
}

/// The test pages' JSON (the run API's shape) carries no form: each
/// element's form is set here, as the extension's snapshot gives it.
fn in_forms(p: &mut Page, forms: &[(&str, u32)]) {
    for (el, form) in forms {
        if let Some(k) = p.elements.iter().position(|e| p.id_of(e) == id(el)) {
            p.elements[k].facts.form = *form;
        }
    }
}

#[test]
fn a_stepper_set_in_one_of_two_forms_is_sent_by_that_forms_button() {
    // Two submit buttons on the page: the stepper's form is the one the
    // fill changed, so its own "Update bikes" is pressed, never "Redeem".
    let task = "Set the number of bikes to 4";
    let h = [clicked("more", "+"), clicked("more", "+")];
    assert_eq!(
        decide(task, &bike_rental(4), &h),
        Decision::Tool(Tool::Click { id: id("save") })
    );
    let mut sent = h.to_vec();
    sent.push(clicked("save", "Update bikes"));
    let d = decide(task, &bike_rental(4), &sent);
    assert!(matches!(d, Decision::Finish(_)), "{d:?}");
}

/// A notice form whose dates and note show once its "On" is chosen, with
/// the page's search box above them.
fn away_notice(typed_in: &[(&str, &str)]) -> Page {
    let bb = |y: u32| json!({"x": 300, "y": y, "width": 200, "height": 24});
    let value = |id: &str| {
        typed_in
            .iter()
            .find(|(k, _)| *k == id)
            .map(|(_, v)| v.to_string())
            .unwrap_or_default()
    };
    page(
        json!([
            {"id": "find", "tag": "input", "type": "search", "placeholder": "Search notes", "bbox": bb(10)},
            {"id": "off", "tag": "input", "type": "radio", "text": "Off", "form": 1, "bbox": bb(100)},
            {"id": "on", "tag": "input", "type": "radio", "text": "On", "checked": true, "form": 1, "bbox": bb(130)},
            {"id": "d1", "tag": "input", "type": "text", "label": "Leaving", "placeholder": "MM/DD/YYYY", "value": value("d1"), "form": 1, "bbox": bb(170)},
            {"id": "d2", "tag": "input", "type": "text", "label": "Back", "placeholder": "MM/DD/YYYY", "value": value("d2"), "form": 1, "bbox": bb(210)},
            {"id": "note", "tag": "textarea", "label": "Note", "value": value("note"), "form": 1, "bbox": bb(250)},
            {"id": "save", "tag": "button", "type": "submit", "text": "Save", "form": 1, "bbox": bb(300)},
        ]),
        "Away notice Off On Leaving Back Note Save",
    )
}

#[test]
fn quoted_values_no_step_carries_go_into_the_boxes_their_clause_or_kind_names() {
    // What the completion check does for a quoted value the task language
    // dropped (`steps::complete_value`): the dates go into the boxes made
    // for dates, in reading order; the note into the box its clause
    // names; never into the search box.
    let baseline = Baseline::default();
    let task =
        r#"Turn on holiday notices from "03/10/2027" to "03/17/2027" with the note "Gone fishing""#;
    let put = |p: &Page, value: &str, label: &str| {
        steps::complete_value(&Cx::new(task, p, &[], &[], &baseline), value, label)
    };
    let typing = |el: &str, text: &str| {
        Some(Tool::Type {
            id: id(el),
            text: text.into(),
        })
    };
    assert_eq!(
        put(&away_notice(&[]), "03/10/2027", "from"),
        typing("d1", "03/10/2027")
    );
    let first = away_notice(&[("d1", "03/10/2027")]);
    assert_eq!(put(&first, "03/17/2027", "to"), typing("d2", "03/17/2027"));
    assert_eq!(
        put(&first, "Gone fishing", "with the note"),
        typing("note", "Gone fishing")
    );
}
