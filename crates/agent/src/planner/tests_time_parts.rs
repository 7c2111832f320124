//! A time of day asked as Hour / Minute / AM-PM controls, and as a row of
//! time-slot buttons (docs/agent.md "Carrying the steps out", Fill):
//! invented pages, none a training page's.
use super::tests::{clicked, decide, id, page, typed, with_options};
use super::*;
use serde_json::json;

/// Runs the planner on `p` (whose fields never show what was typed: the
/// history says), up to `n` decisions: the tools it chose.
fn run(task: &str, p: &Page, n: usize) -> Vec<Tool> {
    let mut h = Vec::new();
    let mut out = Vec::new();
    for _ in 0..n {
        match decide(task, p, &h) {
            Decision::Tool(t) => {
                let entry = match &t {
                    Tool::Type { id, text } => typed(&id.key(), text),
                    Tool::Click { id } => clicked(&id.key(), ""),
                    _ => break,
                };
                out.push(t);
                h.push(entry);
            }
            _ => break,
        }
    }
    out
}

fn pickup_form() -> Page {
    let mut p = page(
        json!([
            {"id": "day", "tag": "input", "type": "date", "ariaLabel": "Pick-up day"},
            {"id": "hh", "tag": "select", "ariaLabel": "Hour"},
            {"id": "mm", "tag": "select", "ariaLabel": "Minute"},
            {"id": "half", "tag": "select", "ariaLabel": "AM or PM"},
            {"id": "go", "tag": "button", "text": "Book pick-up", "type": "submit"},
        ]),
        "Laundry pick-up Pick-up day Pick-up time : Book pick-up",
    );
    let hours: Vec<String> = std::iter::once("--".to_string())
        .chain((1..=12).map(|h| h.to_string()))
        .collect();
    let hours: Vec<&str> = hours.iter().map(String::as_str).collect();
    with_options(&mut p, "Hour", &hours);
    with_options(&mut p, "Minute", &["--", "00", "15", "30", "45"]);
    with_options(&mut p, "AM or PM", &["AM", "PM"]);
    p
}

#[test]
fn a_time_is_split_between_hour_minute_and_half_of_day_selects() {
    let p = pickup_form();
    for (task, hour, half) in [
        ("Book a pick-up on 03/14/2027 at 9:45 PM", "9", "PM"),
        (
            "Please book a pick-up on March 14, 2027 at 9:45 am.",
            "9",
            "AM",
        ),
        ("Book a pick-up on 03/14/2027 at 21:45", "9", "PM"),
    ] {
        let tools = run(task, &p, 8);
        let types: Vec<(String, String)> = tools
            .iter()
            .filter_map(|t| match t {
                Tool::Type { id, text } => Some((id.key(), text.clone())),
                _ => None,
            })
            .collect();
        for want in [
            ("day", "2027-03-14"),
            ("hh", hour),
            ("mm", "45"),
            ("half", half),
        ] {
            assert!(
                types.iter().any(|(i, t)| i == want.0 && t == want.1),
                "{task}: {want:?} not in {types:?}"
            );
        }
        // Each control took its part only: never the date's month as the
        // hour, nor the minutes alone as the whole time.
        assert_eq!(types.len(), 4, "{task}: {types:?}");
        assert_eq!(tools.last(), Some(&Tool::Click { id: id("go") }), "{task}");
    }
}

#[test]
fn a_time_with_no_field_is_the_slot_button_that_says_it() {
    let p = page(
        json!([
            {"id": "s1", "tag": "button", "text": "10:00 AM"},
            {"id": "s2", "tag": "button", "text": "10:40 AM", "disabled": true},
            {"id": "s3", "tag": "button", "text": "11:20 AM"},
            {"id": "next", "tag": "button", "text": "Next"},
        ]),
        "Court 3 Free slots 10:00 AM 10:40 AM 11:20 AM Next",
    );
    let task = "Book court 3 at 11:20 am";
    assert_eq!(
        decide(task, &p, &[]),
        Decision::Tool(Tool::Click { id: id("s3") })
    );
    // Clicked once: not again (the row of slots may be redrawn).
    let again = decide(task, &p, &[clicked("s3", "11:20 AM")]);
    assert_ne!(again, Decision::Tool(Tool::Click { id: id("s3") }));
    // A full slot is no choice.
    assert_ne!(
        decide("Book court 3 at 10:40 AM", &p, &[]),
        Decision::Tool(Tool::Click { id: id("s2") })
    );
}

#[test]
fn a_value_is_the_one_radio_whose_words_hold_it() {
    let p = page(
        json!([
            {"id": "r1", "tag": "input", "type": "radio", "name": "fuel", "ariaLabel": "Petrol (unleaded)"},
            {"id": "r2", "tag": "input", "type": "radio", "name": "fuel", "ariaLabel": "Hybrid or electric"},
            {"id": "r3", "tag": "input", "type": "radio", "name": "fuel", "ariaLabel": "Diesel"},
            {"id": "send", "tag": "button", "text": "Get price", "type": "submit"},
        ]),
        "Fuel Petrol (unleaded) Hybrid or electric Diesel Get price",
    );
    assert_eq!(
        decide(r#"Rent a van with engine "electric""#, &p, &[]),
        Decision::Tool(Tool::Click { id: id("r2") })
    );
}

#[test]
fn a_name_said_whole_fills_the_first_and_last_name_boxes() {
    let p = page(
        json!([
            {"id": "fn", "tag": "input", "ariaLabel": "First name"},
            {"id": "ln", "tag": "input", "ariaLabel": "Last name"},
            {"id": "ph", "tag": "input", "type": "tel", "ariaLabel": "Mobile"},
            {"id": "ok", "tag": "button", "text": "Confirm booking", "type": "submit"},
        ]),
        "Your details First name Last name Mobile Confirm booking",
    );
    let task = "Reserve a court for Ines Okoro, mobile 555-0199";
    let tools = run(task, &p, 6);
    for want in [("fn", "Ines"), ("ln", "Okoro"), ("ph", "555-0199")] {
        assert!(
            tools.iter().any(
                |t| matches!(t, Tool::Type { id: i, text } if i.key() == want.0 && text == want.1)
            ),
            "{want:?} not in {tools:?}"
        );
    }
}
