//! A superlative over result cards: "the shortest" compares the duration
//! each card shows, "the cheapest" the price on its button.
use super::tests::{clicked, decide, id, typed};
use super::*;
use serde_json::json;

/// The search form, then three result cards: the cheapest is not the shortest.
fn results() -> Page {
    Page::from_json(&json!({
        "url": "http://t/", "title": "Flights",
        "visibleText": "From To Search \
            Depart: 2:47 AM Arrives: 9:10 AM Duration: 6h 23m Book flight for $310 \
            Depart: 6:05 AM Arrives: 8:20 AM Duration: 2h 15m Book flight for $677 \
            Depart: 1:00 PM Arrives: 11:30 PM Duration: 10h 30m Book flight for $95",
        "elements": [
            {"id": "from", "tag": "input", "placeholder": "From", "value": "Boston", "bbox": {"x": 10, "y": 10, "width": 200, "height": 20}},
            {"id": "to", "tag": "input", "placeholder": "To", "value": "Denver", "bbox": {"x": 10, "y": 40, "width": 200, "height": 20}},
            {"id": "go", "tag": "button", "text": "Search", "bbox": {"x": 10, "y": 70, "width": 80, "height": 20}},
            {"id": "b1", "tag": "button", "text": "Book flight for $310", "bbox": {"x": 10, "y": 100, "width": 150, "height": 20}},
            {"id": "b2", "tag": "button", "text": "Book flight for $677", "bbox": {"x": 10, "y": 320, "width": 150, "height": 20}},
            {"id": "b3", "tag": "button", "text": "Book flight for $95", "bbox": {"x": 10, "y": 440, "width": 150, "height": 20}},
        ]
    }))
    .expect("page")
}

#[test]
fn the_shortest_result_by_the_duration_its_card_shows() {
    let h = [
        typed("from", "Boston"),
        typed("to", "Denver"),
        clicked("go", ""),
    ];
    assert_eq!(
        decide(
            "Book the shortest one-way flight from: Boston to: Denver",
            &results(),
            &h
        ),
        Decision::Tool(Tool::Click { id: id("b2") })
    );
    assert_eq!(
        decide(
            "Book the cheapest one-way flight from: Boston to: Denver",
            &results(),
            &h
        ),
        Decision::Tool(Tool::Click { id: id("b3") })
    );
}

/// The search form is replaced by its results (its fields gone) and the
/// date went in through a calendar: the values are done, the search was
/// sent, and no result's "Book" button is taken for the form's next page.
#[test]
fn once_the_form_gave_way_to_its_results_the_superlative_picks() {
    let p = Page::from_json(&json!({
        "url": "http://t/", "title": "Flights",
        "visibleText": "Back Depart: 2:47 AM Duration: 6h 23m Book flight for $310 \
            Depart: 6:05 AM Duration: 2h 15m Book flight for $677 \
            Depart: 1:00 PM Duration: 10h 30m Book flight for $95",
        "elements": [
            {"id": "b1", "tag": "button", "text": "Book flight for $310", "bbox": {"x": 10, "y": 100, "width": 150, "height": 20}},
            {"id": "back", "tag": "button", "text": "Back", "bbox": {"x": 10, "y": 10, "width": 40, "height": 20}},
            {"id": "b2", "tag": "button", "text": "Book flight for $677", "bbox": {"x": 10, "y": 220, "width": 150, "height": 20}},
            {"id": "b3", "tag": "button", "text": "Book flight for $95", "bbox": {"x": 10, "y": 340, "width": 150, "height": 20}},
        ]
    }))
    .expect("page");
    let h = [
        typed("from", "Boston"),
        typed("to", "Denver"),
        clicked("date", ""),
        clicked("day19", ""),
        clicked("go", ""),
    ];
    assert_eq!(
        decide(
            "Book the shortest one-way flight from: Boston to: Denver on 12/19/2016",
            &p,
            &h
        ),
        Decision::Tool(Tool::Click { id: id("b2") })
    );
}
