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
    page(
        json!([
            {"id": "less", "tag": "button", "type": "button", "text": "−", "ariaLabel": "Remove a bike", "form": 1, "bbox": bb(400, 100)},
            {"id": "more", "tag": "button", "type": "button", "text": "+", "ariaLabel": "Add a bike", "form": 1, "bbox": bb(520, 100)},
            {"id": "save", "tag": "button", "type": "submit", "text": "Update bikes", "form": 1, "bbox": bb(400, 160)},
            {"id": "gift", "tag": "input", "type": "text", "label": "Gift card", "form": 2, "bbox": bb(400, 240)},
            {"id": "redeem", "tag": "button", "type": "submit", "text": "Redeem", "form": 2, "bbox": bb(520, 240)},
        ]),
        &format!("Rentals Bikes − {now} bikes + Update bikes Gift card Redeem"),
    )
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
