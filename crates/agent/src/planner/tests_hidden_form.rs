//! The planner on forms kept where sites keep them (branch issue-23o,
//! 2026-11-28; docs/agent.md "The same tasks on other page structures"):
//! a form behind the control that opens it (a header's "Sign in" that opens
//! a dialog, "New note" that opens a drawer), a search box whose scope is
//! a tab the task names, a time chosen from a long list of times, a
//! calendar whose day cells are named with their weekday. Pages and words
//! are invented for the test.
use super::tests::{decide, id, page, typed};
use super::*;
use serde_json::json;

fn bb(x: u32, y: u32) -> serde_json::Value {
    json!({"x": x, "y": y, "width": 120, "height": 24})
}

#[test]
fn a_form_behind_the_control_that_opens_it_is_opened_first() {
    // A landing page: no box to type into but the header's search.
    let p = page(
        json!([
            {"id": "q", "tag": "input", "type": "search", "ariaLabel": "Search the site", "bbox": bb(600, 10)},
            {"id": "pr", "tag": "a", "href": "#pricing", "text": "Pricing", "bbox": bb(300, 10)},
            {"id": "si", "tag": "button", "text": "Sign in", "bbox": bb(420, 10)},
            {"id": "tr", "tag": "button", "text": "Try Quillbox free", "bbox": bb(480, 10)},
            {"id": "ck", "tag": "button", "text": "Accept all cookies", "bbox": bb(500, 700)},
        ]),
        "Quillbox Pricing Sign in Try Quillbox free Notes that think with you. We use cookies. Accept all cookies",
    );
    // The verb's control ("sign me into" → "Sign in"), not the one that
    // shares the product's name said later.
    let task =
        r#"Hello, please sign me into Quillbox with mo@fern.test and the password "teal-otter""#;
    assert_eq!(
        decide(task, &p, &[]),
        Decision::Tool(Tool::Click { id: id("si") })
    );

    // A list whose form slides in from "New note".
    let p = page(
        json!([
            {"id": "n1", "tag": "a", "href": "#n1", "text": "Groceries", "bbox": bb(20, 100)},
            {"id": "nn", "tag": "button", "text": "New note", "bbox": bb(500, 60)},
            {"id": "ex", "tag": "button", "text": "Export", "bbox": bb(620, 60)},
        ]),
        "My notes New note Export Groceries",
    );
    let task = r#"Create a note titled "Call the plumber" with the text "Tuesday morning""#;
    assert_eq!(
        decide(task, &p, &[]),
        Decision::Tool(Tool::Click { id: id("nn") })
    );
}

#[test]
fn a_search_goes_under_the_tab_the_task_names() {
    let els = |recipes: bool| {
        json!([
            {"id": "hq", "tag": "input", "ariaLabel": "Search this site", "bbox": bb(600, 10)},
            {"id": "ta", "tag": "button", "ariaRole": "tab", "text": "All", "bbox": bb(20, 80)},
            {"id": "tr", "tag": "button", "ariaRole": "tab", "text": "Recipes", "bbox": bb(150, 80)},
            {"id": "tv", "tag": "button", "ariaRole": "tab", "text": "Videos", "bbox": bb(280, 80)},
            if recipes {
                json!({"id": "rq", "tag": "input", "ariaLabel": "Dish or ingredient", "bbox": bb(20, 130)})
            } else {
                json!({"id": "aq", "tag": "input", "ariaLabel": "Search everything", "bbox": bb(20, 130)})
            },
            {"id": "go", "tag": "button", "text": "Search", "bbox": bb(300, 130)},
        ])
    };
    // The tabs are elements 1 (All), 2 (Recipes) and 3 (Videos).
    let select = |p: &mut Page, recipes: bool| {
        for e in &mut p.elements[1..4] {
            e.facts.aria_role = "tab".into();
        }
        p.elements[1].element.state.selected = Some(!recipes);
        p.elements[2].element.state.selected = Some(recipes);
        p.elements[3].element.state.selected = Some(false);
    };
    let task = r#"Search the recipes for "lentil soup""#;
    let mut p = page(
        els(false),
        "Kitchen Search this site All Recipes Videos Search everything Search",
    );
    select(&mut p, false);
    assert_eq!(
        decide(task, &p, &[]),
        Decision::Tool(Tool::Click { id: id("tr") })
    );
    // The tab selected: its box, not the header's site search.
    let mut p = page(
        els(true),
        "Kitchen Search this site All Recipes Videos Dish or ingredient Search",
    );
    select(&mut p, true);
    let h = [super::tests::clicked("tr", "Recipes")];
    assert_eq!(
        decide(task, &p, &h),
        Decision::Tool(Tool::Type {
            id: id("rq"),
            text: "lentil soup".into()
        })
    );
    // A tab the task does not name is left alone: the term is typed.
    let mut p = page(
        els(false),
        "Kitchen Search this site All Recipes Videos Search everything Search",
    );
    select(&mut p, false);
    assert!(matches!(
        decide(r#"Search for "lentil soup""#, &p, &[]),
        Decision::Tool(Tool::Type { .. })
    ));
}

#[test]
fn a_time_typed_into_a_list_of_times_chooses_that_time() {
    // A calendar's time combobox: 48 times every half hour, the one typed
    // far down its list.
    let mut els = vec![
        json!({"id": "at", "tag": "input", "ariaRole": "combobox", "ariaLabel": "Start time", "bbox": bb(20, 100)}),
    ];
    for i in 0..48u32 {
        let (h, m) = (i / 2, (i % 2) * 30);
        let label = format!(
            "{}:{:02}{}",
            if h % 12 == 0 { 12 } else { h % 12 },
            m,
            if h < 12 { "am" } else { "pm" }
        );
        els.push(json!({"id": format!("o{i}"), "tag": "li", "ariaRole": "option", "text": label, "bbox": bb(20, 130 + 26 * i)}));
    }
    let p = page(json!(els), "Event Start time 12:00am 12:30am 1:00am");
    let task = r#"Event at "9:30 AM""#;
    let h = [typed("at", "9:30 AM")];
    assert_eq!(
        decide(task, &p, &h),
        Decision::Tool(Tool::Click { id: id("o19") })
    );
}
