//! The planner on pages built the way web apps build them (issue-23x,
//! docs/agent.md "App structure"): a virtualised list whose rows scroll in
//! a box of their own, a page that says it is still loading, a form of
//! steps whose later fields are not on the page yet. Invented pages.
use super::tests::{decide, did};
use super::*;
use crate::types::ElementId;
use serde_json::json;

/// The contract's numeric id.
fn id(n: u64) -> ElementId {
    ElementId::Num(n)
}

fn at(elements: serde_json::Value, text: &str) -> Page {
    Page::from_json(&json!({
        "url": "http://t/", "title": "t", "visibleText": text,
        "viewport": {"width": 1280, "height": 800}, "elements": elements,
    }))
    .expect("page")
}

/// Members in a list box: the rows in view, one more row below the box's
/// edge (clipped: out of view, though the window shows its place), and an
/// invite form with a role of its own.
fn members(last_clipped: bool) -> Page {
    let row = |n: usize, name: &str, clipped: bool| {
        let y = 200 + 44 * n;
        [
            json!({"id": 10 + 2 * n, "role": "combobox", "text": "", "tag": "select", "ariaLabel": "Plan", "row": format!("{name} Basic Team Apply"),
                   "bbox": {"x": 700, "y": y, "width": 100, "height": 30}, "in_viewport": !clipped}),
            json!({"id": 11 + 2 * n, "role": "button", "tag": "button", "text": "Apply", "row": format!("{name} Basic Team Apply"),
                   "bbox": {"x": 820, "y": y, "width": 60, "height": 26}, "in_viewport": !clipped}),
        ]
    };
    let mut els: Vec<serde_json::Value> = Vec::new();
    for (n, name) in ["Ana Bell", "Bo Chan", "Cy Dorn"].iter().enumerate() {
        els.extend(row(n, name, false));
    }
    els.extend(row(3, "Di Eton", last_clipped));
    els.push(json!({"id": 30, "role": "combobox", "text": "", "tag": "select", "ariaLabel": "Plan", "bbox": {"x": 200, "y": 500, "width": 300, "height": 30}}));
    els.push(json!({"id": 31, "role": "button", "tag": "button", "text": "Send invite", "bbox": {"x": 200, "y": 540, "width": 120, "height": 30}}));
    at(
        json!(els),
        "Seats Ana Bell Basic Team Apply Bo Chan Basic Team Apply Cy Dorn Basic Team Apply Di Eton Basic Team Apply Invite someone Plan Send invite",
    )
}

#[test]
fn a_row_not_shown_is_looked_for_in_the_box_its_list_scrolls_in() {
    let task = "Put \"Wren Ostby\" on the Team plan";
    let scroll = Decision::Tool(Tool::Scroll {
        direction: crate::types::Direction::Down,
        amount: 240,
        id: Some(id(17)),
        within: true,
    });
    assert_eq!(decide(task, &members(true), &[]), scroll);
    // Never the other form's field of that name, nor its button.
    let d = decide(task, &members(false), &[]);
    assert_ne!(d, Decision::Tool(Tool::Click { id: id(31) }), "{d:?}");
    assert_ne!(
        d, scroll,
        "a list that shows every row has no box to scroll"
    );
    // A scroll that changed nothing: the list's end.
    let end = did(
        "scroll",
        json!({"id": 17, "direction": "down", "amount": 240, "within": true}),
        "Apply",
        "http://t/",
        false,
    );
    assert_ne!(decide(task, &members(true), &[end]), scroll);
}

#[test]
fn a_page_that_says_it_is_loading_is_looked_at_again_before_scrolling() {
    let task = "What is the gift card balance?";
    let loading = at(
        json!([]),
        "Rowan Stores\nHello, Kit\nLoading your cards…\nRecent orders",
    );
    assert_eq!(
        decide(task, &loading, &[]),
        Decision::Tool(Tool::Observe {
            wait_ms: Some(1000)
        })
    );
    // Six looks, then the usual search of the page.
    let look = did("observe", json!({"waitMs": 1000}), "", "http://t/", false);
    let looked: Vec<_> = (0..6).map(|_| look.clone()).collect();
    assert!(!matches!(
        decide(task, &loading, &looked),
        Decision::Tool(Tool::Observe {
            wait_ms: Some(1000)
        })
    ));
    // A word that is no status: a sentence goes on after it.
    let not = at(
        json!([]),
        "Rowan Stores\nLoading bays open at 6. More…\nRecent orders",
    );
    assert!(!matches!(
        decide(task, &not, &[]),
        Decision::Tool(Tool::Observe {
            wait_ms: Some(1000)
        })
    ));
}

#[test]
fn a_steps_value_goes_in_and_a_later_steps_field_waits_for_it() {
    // Step 1 of 2 of an app: the member number only; the usage reading is
    // on step 2. A help link shares the reading's words.
    let p = at(
        json!([
            {"id": 1, "role": "textbox", "text": "", "tag": "input", "type": "text", "ariaLabel": "Member number", "placeholder": "e.g. 12-3456",
             "bbox": {"x": 300, "y": 200, "width": 400, "height": 30}},
            {"id": 2, "role": "button", "tag": "button", "text": "Continue", "bbox": {"x": 300, "y": 250, "width": 100, "height": 30}},
            {"id": 3, "role": "link", "tag": "a", "text": "How to read your water meter", "href": "#help",
             "bbox": {"x": 20, "y": 700, "width": 200, "height": 15}},
        ]),
        "Send a reading\nStep 1 of 2 · Your membership\nMember number\nContinue\nHow to read your water meter",
    );
    let task = "Send a water meter reading of \"5521\" for member \"44-1290\"";
    assert_eq!(
        decide(task, &p, &[]),
        Decision::Tool(Tool::Type {
            id: id(1),
            text: "44-1290".into()
        })
    );
}
