//! Moments on a page: "the earliest" / "the newest" compare the time or
//! date shown with each thing (never its price); a choice made in a form
//! is saved by that form's own submit button.
use super::tests::{clicked, decide, id, page, typed};
use super::*;
use serde_json::json;

fn bb(y: u32) -> serde_json::Value {
    json!({"x": 10, "y": y, "width": 120, "height": 20})
}

/// Flight cards listed by price, each with the same "Select": the
/// earliest departure is the dearest, in the last card.
fn flights() -> Page {
    Page::from_json(&json!({
        "url": "http://t/", "title": "Flights",
        "visibleText": "Sorted by lowest price \
            1:15 PM – 4:55 PM SK 388 · 3h 40m · 1 stop $99 Select \
            9:40 AM – 11:34 AM SK 102 · 1h 54m · Nonstop $129 Select \
            6:05 AM – 7:58 AM SK 214 · 1h 53m · Nonstop $148 Select",
        "elements": [
            {"id": "s1", "tag": "button", "text": "Select", "bbox": bb(100)},
            {"id": "s2", "tag": "button", "text": "Select", "bbox": bb(200)},
            {"id": "s3", "tag": "button", "text": "Select", "bbox": bb(300)},
        ]
    }))
    .expect("page")
}

#[test]
fn the_earliest_card_by_the_time_it_shows_not_its_price() {
    for task in [
        "Select the earliest flight",
        "Choose the earliest departure",
    ] {
        assert_eq!(
            decide(task, &flights(), &[]),
            Decision::Tool(Tool::Click { id: id("s3") }),
            "{task}"
        );
    }
    // A price is still what "the cheapest" compares.
    assert_eq!(
        decide("Select the cheapest flight", &flights(), &[]),
        Decision::Tool(Tool::Click { id: id("s1") })
    );
}

/// Search results named each its own way, each followed by its date; the
/// sidebar's links show none.
fn articles() -> Page {
    Page::from_json(&json!({
        "url": "http://t/", "title": "Help",
        "visibleText": "4 results for two-factor \
            Set up two-factor sign-in Updated Jun 18, 2025 \
            Move two-factor sign-in to a new phone Updated Jan 20, 2026 \
            Use backup codes when two-factor sign-in fails Updated Mar 2, 2026 \
            Turn off two-factor sign-in Updated Nov 14, 2025 \
            Popular articles Freeze a lost card Transfer limits",
        "elements": [
            {"id": "a1", "tag": "a", "href": "#a1", "text": "Set up two-factor sign-in", "bbox": bb(100)},
            {"id": "a2", "tag": "a", "href": "#a2", "text": "Move two-factor sign-in to a new phone", "bbox": bb(150)},
            {"id": "a3", "tag": "a", "href": "#a3", "text": "Use backup codes when two-factor sign-in fails", "bbox": bb(200)},
            {"id": "a4", "tag": "a", "href": "#a4", "text": "Turn off two-factor sign-in", "bbox": bb(250)},
            {"id": "p1", "tag": "a", "href": "#p1", "text": "Freeze a lost card", "bbox": bb(320)},
            {"id": "p2", "tag": "a", "href": "#p2", "text": "Transfer limits", "bbox": bb(350)},
        ]
    }))
    .expect("page")
}

#[test]
fn the_newest_result_by_the_date_after_it() {
    for task in [
        "Open the newest article",
        "open the most recently updated article",
        "Open the latest article",
    ] {
        assert_eq!(
            decide(task, &articles(), &[]),
            Decision::Tool(Tool::Click { id: id("a3") }),
            "{task}"
        );
    }
    assert_eq!(
        decide("Open the oldest article", &articles(), &[]),
        Decision::Tool(Tool::Click { id: id("a1") })
    );
}

#[test]
fn a_choice_made_in_a_form_is_saved_by_its_own_submit() {
    let mut p = page(
        json!([
            {"id": "team", "tag": "input", "type": "radio", "text": "Team $29 / seat / month", "checked": true},
            {"id": "starter", "tag": "input", "type": "radio", "text": "Starter $12 / seat / month"},
            {"id": "update", "tag": "button", "type": "submit", "text": "Update plan"},
            {"id": "seats", "tag": "input", "type": "number", "label": "Add seats"},
            {"id": "add", "tag": "button", "type": "submit", "text": "Add"},
        ]),
        "Plan Starter $12 / seat / month Team $29 / seat / month Update plan Seats Add seats Add",
    );
    // The run API's shape carries no form; the extension's does.
    for (k, form) in [1, 1, 1, 2, 2].into_iter().enumerate() {
        p.elements[k].facts.form = form;
    }
    let task = r#"Switch to the "Team" plan"#;
    assert_eq!(
        decide(task, &p, &[clicked("team", "Team $29 / seat / month")]),
        Decision::Tool(Tool::Click { id: id("update") })
    );
    // Once saved, nothing is left.
    assert!(!matches!(
        decide(
            task,
            &p,
            &[
                clicked("team", "Team $29 / seat / month"),
                clicked("update", "Update plan")
            ]
        ),
        Decision::Tool(_)
    ));
}

/// After a search: the results (each followed by its date, listed by
/// relevance, the oldest first) beside a sidebar whose links show no date,
/// one of them the same title as a result; header and footer links.
#[test]
fn the_newest_result_after_a_search_beside_a_sidebar_that_repeats_a_title() {
    let p = page(
        json!([
            {"id": "h1", "tag": "a", "href": "#news", "text": "News", "bbox": bb(10)},
            {"id": "h2", "tag": "a", "href": "#sport", "text": "Sport", "bbox": bb(10)},
            {"id": "q", "tag": "input", "type": "search", "label": "Search stories", "value": "solar", "bbox": bb(60)},
            {"id": "go", "tag": "button", "type": "submit", "text": "Search", "bbox": bb(60)},
            {"id": "r1", "tag": "a", "href": "#r1", "text": "Solar farms open in the valley", "bbox": bb(120)},
            {"id": "r2", "tag": "a", "href": "#r2", "text": "Rooftop solar grants extended", "bbox": bb(170)},
            {"id": "r3", "tag": "a", "href": "#r3", "text": "Solar storage prices fall again", "bbox": bb(220)},
            {"id": "s1", "tag": "a", "href": "#s1", "text": "Solar farms open in the valley", "bbox": {"x": 600, "y": 140, "width": 160, "height": 20}},
            {"id": "s2", "tag": "a", "href": "#s2", "text": "Weather this week", "bbox": {"x": 600, "y": 165, "width": 120, "height": 20}},
            {"id": "chat", "tag": "button", "text": "Ask us", "bbox": bb(400)},
            {"id": "f1", "tag": "a", "href": "#contact", "text": "Contact", "bbox": bb(450)},
        ]),
        "Daily Courier News Sport How can we help? Search 3 results for “solar” \
         Solar farms open in the valley Updated Apr 3, 2025 \
         Rooftop solar grants extended Updated Feb 9, 2026 \
         Solar storage prices fall again Updated Oct 30, 2025 \
         Most read Solar farms open in the valley Weather this week Ask us Contact",
    );
    let task = r#"Search the news for "solar" and open the newest story"#;
    let history = [typed("q", "solar"), clicked("go", "Search")];
    assert_eq!(
        decide(task, &p, &history),
        Decision::Tool(Tool::Click { id: id("r2") })
    );
}
