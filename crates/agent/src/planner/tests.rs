//! The planner on small pages (the run API's PageSnapshot shape: string
//! ids, tags; boxes where layout matters).
use super::*;
use crate::page::ElementId;
use crate::types::Direction;
use serde_json::json;

pub(super) fn page_at(url: &str, elements: serde_json::Value, text: &str) -> Page {
    Page::from_json(&json!({"url": url, "title": "t", "visibleText": text, "elements": elements}))
        .expect("page")
}

pub(super) fn page(elements: serde_json::Value, text: &str) -> Page {
    page_at("http://t/", elements, text)
}

/// Gives the selects labelled `label` these options (text = value, none
/// selected), as the extension's snapshot lists them.
pub(super) fn with_options(p: &mut Page, label: &str, options: &[&str]) {
    let options: Vec<_> = options
        .iter()
        .map(|t| sentience_snapshot_core::SelectOption {
            text: t.to_string(),
            value: t.to_string(),
            selected: false,
        })
        .collect();
    for e in p
        .elements
        .iter_mut()
        .filter(|e| e.facts.aria_label == label)
    {
        e.element.state.options = Some(options.clone());
    }
}

pub(super) fn decide(task: &str, p: &Page, history: &[HistoryEntry]) -> Decision {
    Planner::new(task).next(&Situation {
        page: p,
        history,
        avoid: &[],
        baseline: &Baseline::default(),
    })
}

pub(super) fn id(s: &str) -> ElementId {
    ElementId::Str(s.into())
}

pub(super) fn did(
    action: &str,
    params: serde_json::Value,
    text: &str,
    url: &str,
    changed: bool,
) -> HistoryEntry {
    HistoryEntry {
        step_number: 1,
        action: action.into(),
        observation: "ok".into(),
        timestamp: 0,
        parameters: params.as_object().cloned(),
        success: Some(true),
        element_text: (!text.is_empty()).then(|| text.into()),
        bbox: None,
        url: Some(url.into()),
        page_before: Some("a".into()),
        page_after: Some(if changed { "b" } else { "a" }.into()),
    }
}

pub(super) fn clicked(el: &str, text: &str) -> HistoryEntry {
    did("click", json!({ "id": el }), text, "http://t/", true)
}

pub(super) fn typed(el: &str, value: &str) -> HistoryEntry {
    did(
        "type",
        json!({ "id": el, "text": value }),
        "",
        "http://t/",
        true,
    )
}

#[test]
fn the_instruction_shown_on_the_page_is_no_evidence() {
    let task = r#"Switch between the tabs to find and click on the link "ut.""#;
    let p = page(
        json!([
            {"id": "t1", "tag": "li", "role": "button", "text": "Tab #1"},
            {"id": "t2", "tag": "li", "role": "button", "text": "Tab #2"},
        ]),
        &format!("{task} Tab #1 Tab #2 Lorem ipsum"),
    );
    let d = decide(task, &p, &[]);
    assert!(matches!(d, Decision::Tool(_)), "{d:?}");
}

#[test]
fn click_the_button_finds_it_by_role_and_finishes_after() {
    let p = page(
        json!([{"id": "b", "tag": "button", "text": "Click Me!"}]),
        "Click the button.",
    );
    assert_eq!(
        decide("Click the button.", &p, &[]),
        Decision::Tool(Tool::Click { id: id("b") })
    );
    let d = decide("Click the button.", &p, &[clicked("b", "Click Me!")]);
    assert!(matches!(d, Decision::Finish(_)), "{d:?}");
}

#[test]
fn a_set_is_ticked_exactly_then_submitted() {
    let p = page(
        json!([
            {"id": "a", "tag": "input", "type": "checkbox", "text": "Apples"},
            {"id": "b", "tag": "input", "type": "checkbox", "text": "Bananas"},
            {"id": "s", "tag": "button", "text": "Submit"},
        ]),
        "",
    );
    assert_eq!(
        decide("Select Apples and click Submit", &p, &[]),
        Decision::Tool(Tool::Click { id: id("a") })
    );
}

#[test]
fn a_click_that_changed_nothing_is_not_repeated() {
    let p = page(
        json!([
            {"id": "one", "tag": "button", "text": "ONE"},
            {"id": "two", "tag": "button", "text": "TWO"},
        ]),
        "",
    );
    let mut h = clicked("one", "ONE");
    h.page_after = h.page_before.clone();
    let task = "Click button ONE, then click button TWO.";
    assert_eq!(
        decide(task, &p, std::slice::from_ref(&h)),
        Decision::Tool(Tool::Click { id: id("two") })
    );
    let mut h2 = clicked("two", "TWO");
    h2.page_after = h2.page_before.clone();
    let d = decide(task, &p, &[h, h2]);
    assert!(!matches!(d, Decision::Tool(Tool::Click { .. })), "{d:?}");
}

/// A staff sign-in: the button says Continue, a "Forgot password?" link
/// shares a word with the password field's label.
fn signin() -> Page {
    page(
        json!([
            {"id": "em", "tag": "input", "type": "email", "ariaLabel": "Work email", "bbox": {"x": 10, "y": 100, "width": 300, "height": 30}},
            {"id": "pw", "tag": "input", "type": "password", "ariaLabel": "Password", "bbox": {"x": 10, "y": 160, "width": 300, "height": 30}},
            {"id": "fp", "tag": "a", "text": "Forgot password?", "href": "#forgot", "bbox": {"x": 10, "y": 200, "width": 120, "height": 20}},
            {"id": "go", "tag": "button", "type": "submit", "text": "Continue", "bbox": {"x": 10, "y": 260, "width": 100, "height": 36}},
        ]),
        "Sign in to the staff portal Work email Password Forgot password? Continue",
    )
}

#[test]
fn sign_in_submits_with_the_forms_button_whatever_it_says() {
    let task = r#"Sign in with email grace@example.com and password "c0b0l!""#;
    let p = signin();
    assert_eq!(
        decide(task, &p, &[]),
        Decision::Tool(Tool::Type {
            id: id("em"),
            text: "grace@example.com".into()
        })
    );
    let h = [typed("em", "grace@example.com")];
    assert_eq!(
        decide(task, &p, &h),
        Decision::Tool(Tool::Type {
            id: id("pw"),
            text: "c0b0l!".into()
        })
    );
    let h = [typed("em", "grace@example.com"), typed("pw", "c0b0l!")];
    assert_eq!(
        decide(task, &p, &h),
        Decision::Tool(Tool::Click { id: id("go") })
    );
}

#[test]
fn without_a_button_enter_submits_the_last_field() {
    let p = page(
        json!([
            {"id": "q", "tag": "input", "type": "search", "ariaLabel": "Search"},
            {"id": "help", "tag": "a", "text": "Search help", "href": "#h"},
        ]),
        "Search Search help",
    );
    let h = [typed("q", "rust")];
    assert_eq!(
        decide(r#"Search for "rust""#, &p, &h),
        Decision::Tool(Tool::Press {
            key: "Enter".into(),
            id: Some(id("q")),
            repeat: None
        })
    );
}

#[test]
fn a_wait_is_one_look_after_that_long() {
    let p = page(
        json!([
            {"id": "one", "tag": "button", "text": "ONE"},
            {"id": "two", "tag": "button", "text": "TWO"},
        ]),
        "",
    );
    let task = "Click button ONE, wait 3 seconds, then click button TWO.";
    let h = vec![clicked("one", "ONE")];
    assert_eq!(
        decide(task, &p, &h),
        Decision::Tool(Tool::Observe {
            wait_ms: Some(3000)
        })
    );
    let mut h2 = h.clone();
    h2.push(did(
        "observe",
        json!({"waitMs": 3000}),
        "",
        "http://t/",
        false,
    ));
    assert_eq!(
        decide(task, &p, &h2),
        Decision::Tool(Tool::Click { id: id("two") })
    );
}

#[test]
fn a_wait_until_the_page_shows_it() {
    let task = "Wait until the status says Live and then click Promote";
    let before = page(
        json!([{"id": "p", "tag": "button", "text": "Promote", "disabled": true}]),
        "Deploy Building",
    );
    assert_eq!(
        decide(task, &before, &[]),
        Decision::Tool(Tool::Observe { wait_ms: Some(500) })
    );
    let after = page(
        json!([{"id": "p", "tag": "button", "text": "Promote"}]),
        "Deploy Live",
    );
    let h = [did(
        "observe",
        json!({"waitMs": 500}),
        "",
        "http://t/",
        true,
    )];
    assert_eq!(
        decide(task, &after, &h),
        Decision::Tool(Tool::Click { id: id("p") })
    );
}

#[test]
fn a_menu_path_is_clicked_item_by_item() {
    let task = "Select Margy>Rosy>Wynne";
    let top = page(
        json!([{"id": "m", "tag": "li", "text": "Margy"}, {"id": "x", "tag": "li", "text": "Other"}]),
        "",
    );
    assert_eq!(
        decide(task, &top, &[]),
        Decision::Tool(Tool::Click { id: id("m") })
    );
    let open = page(
        json!([{"id": "m", "tag": "li", "text": "Margy"}, {"id": "r", "tag": "li", "text": "Rosy"}]),
        "",
    );
    let h = vec![clicked("m", "Margy")];
    assert_eq!(
        decide(task, &open, &h),
        Decision::Tool(Tool::Click { id: id("r") })
    );
    let deeper = page(
        json!([{"id": "m", "tag": "li", "text": "Margy"}, {"id": "r", "tag": "li", "text": "Rosy"}, {"id": "w", "tag": "li", "text": "Wynne"}]),
        "",
    );
    let mut h2 = h.clone();
    h2.push(clicked("r", "Rosy"));
    assert_eq!(
        decide(task, &deeper, &h2),
        Decision::Tool(Tool::Click { id: id("w") })
    );
    h2.push(clicked("w", "Wynne"));
    assert!(matches!(decide(task, &deeper, &h2), Decision::Finish(_)));
}

#[test]
fn an_autocomplete_suggestion_that_fits_the_constraint_is_chosen() {
    let task = r#"Enter an item that starts with "Nor" and ends with "land"."#;
    let empty = page(
        json!([{"id": "f", "tag": "input", "ariaLabel": "Country"}]),
        "",
    );
    assert_eq!(
        decide(task, &empty, &[]),
        Decision::Tool(Tool::Type {
            id: id("f"),
            text: "Nor".into()
        })
    );
    let offered = page(
        json!([
            {"id": "f", "tag": "input", "ariaLabel": "Country", "value": "Nor"},
            {"id": "s1", "tag": "li", "role": "option", "text": "Norway"},
            {"id": "s2", "tag": "li", "role": "option", "text": "Northern Ireland"},
        ]),
        "",
    );
    let h = [typed("f", "Nor")];
    assert_eq!(
        decide(task, &offered, &h),
        Decision::Tool(Tool::Click { id: id("s2") })
    );
}

#[test]
fn dates_and_times_go_in_as_the_inputs_take_them() {
    let p = page(
        json!([
            {"id": "d", "tag": "input", "type": "date", "ariaLabel": "Date"},
            {"id": "t", "tag": "input", "type": "time", "ariaLabel": "Time"},
            {"id": "s", "tag": "button", "type": "submit", "text": "Submit"},
        ]),
        "",
    );
    let task = "Enter 10/11/2016 as the date and 12:13 PM as the time and hit submit.";
    assert_eq!(
        decide(task, &p, &[]),
        Decision::Tool(Tool::Type {
            id: id("d"),
            text: "2016-10-11".into()
        })
    );
    let h = [typed("d", "2016-10-11")];
    assert_eq!(
        decide(task, &p, &h),
        Decision::Tool(Tool::Type {
            id: id("t"),
            text: "12:13".into()
        })
    );
    let h = [typed("d", "2016-10-11"), typed("t", "12:13")];
    assert_eq!(
        decide(task, &p, &h),
        Decision::Tool(Tool::Click { id: id("s") })
    );
}

#[test]
fn a_wrong_link_is_undone_and_not_taken_again() {
    let task = r#"Send a message with name "Dana""#;
    // The press page: no form. The click came from the home page.
    let press = page_at(
        "http://t/press",
        json!([{"id": "k", "tag": "a", "text": "Press kit", "href": "#kit"}]),
        "Press contacts",
    );
    let h = vec![
        did("click", json!({"id": "c"}), "Contact", "http://t/", true),
        did(
            "scroll",
            json!({"direction": "down", "amount": 600}),
            "",
            "http://t/press",
            false,
        ),
        did(
            "scroll",
            json!({"direction": "down", "amount": 600}),
            "",
            "http://t/press",
            false,
        ),
        // One look with a wait first: a page with no field may still be
        // mounting (steps/reveal.rs `look`).
        did(
            "observe",
            json!({"wait_ms": 1000}),
            "",
            "http://t/press",
            false,
        ),
    ];
    let d = decide(task, &press, &h);
    assert_eq!(
        d,
        Decision::Tool(Tool::Navigate {
            url: "http://t/".into()
        }),
        "{d:?}"
    );
    // Back home, the link that led nowhere is avoided.
    let home = page(
        json!([
            {"id": "c", "tag": "a", "text": "Contact", "href": "press"},
            {"id": "s", "tag": "a", "text": "Message us", "href": "sales"},
        ]),
        "Contact Message us",
    );
    let mut h2 = h.clone();
    h2.push(did(
        "navigate",
        json!({"url": "http://t/"}),
        "",
        "http://t/press",
        true,
    ));
    let d = decide(task, &home, &h2);
    assert!(
        !matches!(d, Decision::Tool(Tool::Click { ref id }) if id == &ElementId::Str("c".into())),
        "{d:?}"
    );
}

#[test]
fn out_of_options_the_question_says_what_was_tried() {
    let p = page(
        json!([{"id": "x", "tag": "a", "text": "Home", "href": "/"}]),
        "Nothing here",
    );
    let h = [
        did(
            "scroll",
            json!({"direction": "down", "amount": 600}),
            "",
            "http://t/",
            false,
        ),
        did(
            "scroll",
            json!({"direction": "down", "amount": 600}),
            "",
            "http://t/",
            false,
        ),
        // One look with a wait first: a page with no field may still be
        // mounting (steps/reveal.rs `look`).
        did("observe", json!({"wait_ms": 1000}), "", "http://t/", false),
    ];
    match decide(r#"Click "Checkout""#, &p, &h) {
        Decision::Ask(q) => assert!(
            q.contains("Tried: scrolled") && q.contains("Checkout"),
            "{q}"
        ),
        d => panic!("{d:?}"),
    }
}

#[test]
fn the_button_of_a_named_row_and_the_cheapest_option() {
    let p = page(
        json!([
            {"id": "b1", "tag": "button", "text": "Add to cart"},
            {"id": "b2", "tag": "button", "text": "Add to cart"},
            {"id": "b3", "tag": "button", "text": "Add to cart"},
        ]),
        "Blue mug $14.00 Add to cart Travel tumbler $24.00 Add to cart Glass cup $12.00 Add to cart",
    );
    assert_eq!(
        decide(r#"Add "Travel tumbler" to the cart"#, &p, &[]),
        Decision::Tool(Tool::Click { id: id("b2") })
    );
    let r = page(
        json!([
            {"id": "c", "tag": "input", "type": "radio", "text": "Courier $12.50"},
            {"id": "e", "tag": "input", "type": "radio", "text": "Economy $3.49"},
            {"id": "t", "tag": "input", "type": "radio", "text": "Tracked $5.99"},
        ]),
        "",
    );
    assert_eq!(
        decide("Select the cheapest option", &r, &[]),
        Decision::Tool(Tool::Click { id: id("e") })
    );
}

#[test]
fn a_condition_reads_the_page() {
    let p = page(
        json!([
            {"id": "b", "tag": "input", "type": "radio", "text": "Basic"},
            {"id": "s", "tag": "input", "type": "radio", "text": "Standard"},
            {"id": "p", "tag": "input", "type": "radio", "text": "Premium"},
        ]),
        "Basic $8.99 / month Standard $13.99 / month Premium $22.99 / month",
    );
    let task = "If Premium costs less than $20, choose Premium, otherwise choose Standard";
    assert_eq!(
        decide(task, &p, &[]),
        Decision::Tool(Tool::Click { id: id("s") })
    );
    let cheap = "If Premium costs less than $30, choose Premium, otherwise choose Standard";
    assert_eq!(
        decide(cheap, &p, &[]),
        Decision::Tool(Tool::Click { id: id("p") })
    );
}

#[test]
fn scrolling_within_an_element() {
    let p = page(
        json!([{"id": "ta", "tag": "textarea", "ariaLabel": "Terms"}]),
        "",
    );
    assert_eq!(
        decide("Scroll to the bottom of the textarea", &p, &[]),
        Decision::Tool(Tool::Scroll {
            direction: Direction::Down,
            amount: 100_000,
            id: Some(id("ta")),
            within: true
        })
    );
}

#[test]
fn the_run_api_json_of_each_tool() {
    let cases = [
        (
            Tool::Click {
                id: ElementId::Num(42),
            },
            r#"{"name":"click","parameters":{"id":42}}"#,
        ),
        (
            Tool::Type {
                id: id("agent-1"),
                text: "x".into(),
            },
            r#"{"name":"type","parameters":{"id":"agent-1","text":"x"}}"#,
        ),
        (
            Tool::Scroll {
                direction: Direction::Down,
                amount: 600,
                id: None,
                within: false,
            },
            r#"{"name":"scroll","parameters":{"amount":600,"direction":"down"}}"#,
        ),
        (
            Tool::Press {
                key: "Enter".into(),
                id: None,
                repeat: None,
            },
            r#"{"name":"press","parameters":{"key":"Enter"}}"#,
        ),
        (
            Tool::Press {
                key: "ArrowRight".into(),
                id: Some(ElementId::Num(7)),
                repeat: Some(12),
            },
            r#"{"name":"press","parameters":{"key":"ArrowRight","id":7,"repeat":12}}"#,
        ),
        (Tool::observe(), r#"{"name":"observe","parameters":{}}"#),
        (
            Tool::Observe { wait_ms: Some(500) },
            r#"{"name":"observe","parameters":{"waitMs":500}}"#,
        ),
        (
            Tool::Navigate {
                url: "http://x/".into(),
            },
            r#"{"name":"navigate","parameters":{"url":"http://x/"}}"#,
        ),
    ];
    for (tool, json) in cases {
        // Compared as values: the key order of the text depends on whether
        // another crate of the build turned on serde_json's preserve_order.
        let expected: serde_json::Value = serde_json::from_str(json).expect("json");
        assert_eq!(serde_json::to_value(&tool).expect("json"), expected);
        let back: Tool = serde_json::from_str(json).expect("read back");
        assert_eq!(back, tool);
    }
    let bad: Result<Tool, _> = serde_json::from_str(r#"{"name":"click","parameters":{}}"#);
    assert!(bad.is_err());
}

#[test]
fn an_opened_section_then_its_button() {
    let task = "Expand the question about refunds and click Request a refund";
    let closed = page(
        json!([
            {"id": "s1", "tag": "summary", "role": "button", "text": "How long does delivery take?"},
            {"id": "s2", "tag": "summary", "role": "button", "text": "How do refunds work?"},
        ]),
        "How long does delivery take? How do refunds work?",
    );
    assert_eq!(
        decide(task, &closed, &[]),
        Decision::Tool(Tool::Click { id: id("s2") })
    );
    let open = page(
        json!([
            {"id": "s1", "tag": "summary", "role": "button", "text": "How long does delivery take?"},
            {"id": "s2", "tag": "summary", "role": "button", "text": "How do refunds work?"},
            {"id": "r", "tag": "button", "text": "Request a refund"},
        ]),
        "How long does delivery take? How do refunds work? Refunds reach your card. Request a refund",
    );
    let h = [clicked("s2", "How do refunds work?")];
    assert_eq!(
        decide(task, &open, &h),
        Decision::Tool(Tool::Click { id: id("r") })
    );
}

#[test]
fn another_item_of_a_numbered_list_is_no_related_link() {
    use super::steps::enumerated_sibling;
    assert!(enumerated_sibling("Issue 1", "Issue 128"));
    assert!(!enumerated_sibling("Issue 128", "Issue 128"));
    assert!(!enumerated_sibling("Contact sales", "Issue 128"));
    assert!(!enumerated_sibling("Issue tracker", "Issue 128"));
}

/// A search whose parts have roles: "to X" goes into the field labelled
/// To, "from X" into From, a date by its shape; then the form is sent.
fn flight_form() -> Page {
    page(
        json!([
            {"id": "from", "tag": "input", "ariaLabel": "From", "value": "Boston (BOS)"},
            {"id": "to", "tag": "input", "ariaLabel": "To", "placeholder": "City or airport"},
            {"id": "day", "tag": "input", "type": "date", "ariaLabel": "Departure"},
            {"id": "go", "tag": "button", "type": "submit", "text": "Search flights"},
        ]),
        "Where to? From To Departure Search flights",
    )
}

#[test]
fn a_search_with_roles_fills_the_fields_its_prepositions_name() {
    let p = flight_form();
    let task = "Please search for flights to San Francisco, thanks.";
    assert_eq!(
        decide(task, &p, &[]),
        Decision::Tool(Tool::Type {
            id: id("to"),
            text: "San Francisco".into()
        })
    );
    let task = "Search flights from Lisbon to Porto on 12/03/2026";
    assert_eq!(
        decide(task, &p, &[]),
        Decision::Tool(Tool::Type {
            id: id("from"),
            text: "Lisbon".into()
        })
    );
    let h = [typed("from", "Lisbon"), typed("to", "Porto")];
    assert!(
        matches!(decide(task, &p, &h), Decision::Tool(Tool::Type { ref id, .. }) if *id == self::id("day")),
        "{:?}",
        decide(task, &p, &h)
    );
}

#[test]
fn a_plain_search_is_typed_whole() {
    let p = page(
        json!([
            {"id": "q", "tag": "input", "type": "search", "ariaLabel": "Search"},
            {"id": "go", "tag": "button", "type": "submit", "text": "Go"},
        ]),
        "Search Go",
    );
    assert_eq!(
        decide("Search for hotels in Paris", &p, &[]),
        Decision::Tool(Tool::Type {
            id: id("q"),
            text: "hotels in Paris".into()
        })
    );
}

/// A value with no field to go into that names a radio button (or a check
/// box) is chosen: "Large" pizza on a page of size options.
#[test]
fn a_value_naming_an_option_is_chosen_not_typed() {
    let p = page(
        json!([
            {"id": "s", "tag": "input", "type": "radio", "text": "Small 10\""},
            {"id": "m", "tag": "input", "type": "radio", "text": "Medium 12\"", "checked": true},
            {"id": "l", "tag": "input", "type": "radio", "text": "Large 14\""},
            {"id": "go", "tag": "button", "type": "submit", "text": "Add to order"},
        ]),
        "Size Small 10\" Medium 12\" Large 14\" Add to order",
    );
    let task = r#"Size "Large", then add to order"#;
    assert_eq!(
        decide(task, &p, &[]),
        Decision::Tool(Tool::Click { id: id("l") })
    );
}

/// A form whose date box has no label of its own, only the words above it
/// ("Departure Date"): the date goes there, not into the first free box.
#[test]
fn a_box_named_only_by_the_words_above_it_takes_its_value() {
    let p = page(
        json!([
            {"id": "from", "tag": "input", "placeholder": "From:", "bbox": {"x": 10, "y": 60, "width": 120, "height": 20}},
            {"id": "to", "tag": "input", "placeholder": "To:", "bbox": {"x": 10, "y": 90, "width": 120, "height": 20}},
            {"id": "promo", "tag": "input", "bbox": {"x": 10, "y": 120, "width": 120, "height": 20}},
            {"id": "more", "tag": "a", "text": "Terms apply", "bbox": {"x": 10, "y": 140, "width": 60, "height": 12}},
            {"id": "day", "tag": "input", "bbox": {"x": 10, "y": 170, "width": 120, "height": 20}},
            {"id": "go", "tag": "button", "text": "Search", "bbox": {"x": 10, "y": 200, "width": 60, "height": 20}},
        ]),
        "Book Your One-Way Flight Promo code Terms apply Departure Date Search",
    );
    let task = "Book a flight from: Rosario, WA to: Long Beach, CA on 12/19/2016.";
    let h = [typed("from", "Rosario, WA"), typed("to", "Long Beach, CA")];
    assert!(
        matches!(decide(task, &p, &h), Decision::Tool(Tool::Type { ref id, ref text }) if *id == self::id("day") && text == "12/19/2016"),
        "{:?}",
        decide(task, &p, &h)
    );
}

/// Boxes named by the kind of thing they hold rather than the task's word
/// ("Released Date" for "year 2011") and by a word the task uses for what
/// is searched ("Movie Genre" and "movies"): the year goes to the date
/// box, "movies" names no box, the genre box takes the words before.
#[test]
fn a_year_goes_to_a_date_box_and_the_noun_searched_names_no_box() {
    let p = page(
        json!([
            {"id": "r", "tag": "input", "ariaLabel": "Released Date"},
            {"id": "g", "tag": "input", "ariaLabel": "Movie Genre"},
            {"id": "d", "tag": "input", "ariaLabel": "Director Name"},
            {"id": "go", "tag": "button", "text": "Go!"},
        ]),
        "Released Date Movie Genre Director Name Go!",
    );
    let task = "Search for action movies directed by Wiggins from year 2011.";
    let mut h = Vec::new();
    let mut got = Vec::new();
    while let Decision::Tool(Tool::Type { id, text }) = decide(task, &p, &h) {
        h.push(typed(&id.key(), &text));
        got.push((id.key(), text));
        assert!(got.len() <= 3, "{got:?}");
    }
    got.sort();
    assert_eq!(
        got,
        [
            ("d".to_string(), "Wiggins".to_string()),
            ("g".into(), "action".into()),
            ("r".into(), "2011".into())
        ]
    );
    assert_eq!(
        decide(task, &p, &h),
        Decision::Tool(Tool::Click { id: id("go") })
    );
}

/// A search term that names the boxes of a form by their words ("directed
/// by X" → Director, "year Y" → Year): each part into its box, the words
/// before them (less the plural noun searched for) into the box left.
#[test]
fn a_search_term_naming_several_boxes_is_split_between_them() {
    let p = page(
        json!([
            {"id": "g", "tag": "input", "ariaLabel": "Genre"},
            {"id": "d", "tag": "input", "ariaLabel": "Director Name"},
            {"id": "y", "tag": "input", "ariaLabel": "Year"},
            {"id": "go", "tag": "button", "text": "Search"},
        ]),
        "Genre Director Name Year Search",
    );
    let task = "Search for drama movies directed by Holloway from year 2011.";
    let typed_into = |h: &[HistoryEntry]| match decide(task, &p, h) {
        Decision::Tool(Tool::Type { id, text }) => Some((id, text)),
        _ => None,
    };
    let mut h = Vec::new();
    let mut got = Vec::new();
    while let Some((i, text)) = typed_into(&h) {
        h.push(typed(&i.key(), &text));
        got.push((i.key(), text));
        assert!(got.len() <= 3, "{got:?}");
    }
    got.sort();
    assert_eq!(
        got,
        [
            ("d".to_string(), "Holloway".to_string()),
            ("g".into(), "drama".into()),
            ("y".into(), "2011".into())
        ]
    );
    // One search box: the term is typed whole.
    let one = page(
        json!([
            {"id": "q", "tag": "input", "ariaLabel": "Search movies"},
            {"id": "go", "tag": "button", "text": "Search"},
        ]),
        "Search movies Search",
    );
    assert_eq!(
        decide(task, &one, &[]),
        Decision::Tool(Tool::Type {
            id: id("q"),
            text: "drama movies directed by Holloway from year 2011".into()
        })
    );
}

/// A dialog that disables the form and asks whether to leave it ("Exit to
/// home page? OK Cancel"): answered so as to stay, unless leaving is the
/// task; without the question (or with the form usable) nothing is
/// answered.
#[test]
fn a_dialog_asking_to_leave_the_form_is_answered_to_stay() {
    let els = |disabled: bool| {
        json!([
            {"id": "u", "tag": "input", "type": "text", "ariaLabel": "Username", "disabled": disabled},
            {"id": "p", "tag": "input", "type": "password", "ariaLabel": "Password", "disabled": disabled},
            {"id": "go", "tag": "button", "text": "Login", "disabled": disabled},
            {"id": "ok", "tag": "button", "text": "OK"},
            {"id": "no", "tag": "button", "text": "Cancel"},
        ])
    };
    let text =
        "Username Password Login Your session is expiring soon. Exit to home page? OK Cancel";
    let task =
        r#"Enter the username "vina" and the password "EAi" into the text fields and press login."#;
    assert_eq!(
        decide(task, &page(els(true), text), &[]),
        Decision::Tool(Tool::Click { id: id("no") })
    );
    assert_ne!(
        decide("Exit to the home page", &page(els(true), text), &[]),
        Decision::Tool(Tool::Click { id: id("no") })
    );
    assert_eq!(
        decide(task, &page(els(false), text), &[]),
        Decision::Tool(Tool::Type {
            id: id("u"),
            text: "vina".into()
        })
    );
}

/// A set is held by check boxes: where a radio group of the same names
/// comes first ("Your favourite?" above "Which do you drink?"), the items
/// of a set of two are ticked in the check boxes, and each only once.
#[test]
fn a_set_goes_to_check_boxes_not_radios_of_the_same_names() {
    let p = |tea: bool, juice: bool| {
        page(
            json!([
                {"id": "r1", "tag": "input", "type": "radio", "text": "Tea", "bbox": {"x": 10, "y": 40, "width": 80, "height": 20}},
                {"id": "r2", "tag": "input", "type": "radio", "text": "Coffee", "bbox": {"x": 10, "y": 60, "width": 80, "height": 20}},
                {"id": "r3", "tag": "input", "type": "radio", "text": "Juice", "bbox": {"x": 10, "y": 80, "width": 80, "height": 20}},
                {"id": "c1", "tag": "input", "type": "checkbox", "text": "Tea", "checked": tea, "bbox": {"x": 10, "y": 140, "width": 80, "height": 20}},
                {"id": "c2", "tag": "input", "type": "checkbox", "text": "Coffee", "bbox": {"x": 10, "y": 160, "width": 80, "height": 20}},
                {"id": "c3", "tag": "input", "type": "checkbox", "text": "Juice", "checked": juice, "bbox": {"x": 10, "y": 180, "width": 80, "height": 20}},
                {"id": "next", "tag": "button", "text": "Next", "bbox": {"x": 10, "y": 220, "width": 80, "height": 20}},
            ]),
            "Your favourite? Tea Coffee Juice Which do you drink? Tea Coffee Juice Next",
        )
    };
    // The run API's shape carries no check state: set it on the model.
    let p = |tea: bool, juice: bool| {
        let mut q = p(false, false);
        for (el, on) in [("c1", tea), ("c3", juice)] {
            if let Some(k) = q.elements.iter().position(|e| q.id_of(e) == id(el)) {
                q.elements[k].element.state.checked =
                    on.then_some(sentience_snapshot_core::Checked::TRUE);
            }
        }
        q
    };
    let task = "Tick Tea and Juice, then click Next";
    assert_eq!(
        decide(task, &p(false, false), &[]),
        Decision::Tool(Tool::Click { id: id("c1") })
    );
    assert_eq!(
        decide(task, &p(true, false), &[clicked("c1", "Tea")]),
        Decision::Tool(Tool::Click { id: id("c3") })
    );
    assert_eq!(
        decide(
            task,
            &p(true, true),
            &[clicked("c1", "Tea"), clicked("c3", "Juice")]
        ),
        Decision::Tool(Tool::Click { id: id("next") })
    );
}
