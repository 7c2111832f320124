//! Distances on a page: "the nearest" / "the closest" compare the
//! distance shown with each thing (never its first number), whether a
//! card's details come before its button or under it.
use super::tests::{decide, id};
use super::*;
use serde_json::json;

fn bb(y: u32) -> serde_json::Value {
    json!({"x": 10, "y": y, "width": 120, "height": 20})
}

/// Provider cards, each "Book" after the name and before the details
/// (its distance), listed by best match, not by distance.
fn providers(details_first: bool) -> Page {
    let cards = [
        (
            "Dr. Eva Lindqvist",
            "Harbor Clinic · 4.8 mi · next opening Dec 3",
        ),
        (
            "Dr. Kofi Mensah",
            "Eastside Medical · 0.9 mi · next opening Dec 9",
        ),
        (
            "Dr. Lucia Ortega",
            "Downtown Specialty · 2.3 mi · next opening Dec 1",
        ),
        ("Jamie Baker", "Northgate · 12.5 km · next opening Nov 30"),
    ];
    let text: Vec<String> = cards
        .iter()
        .map(|(name, details)| {
            if details_first {
                format!("{name} {details} Book")
            } else {
                format!("{name} Book {details}")
            }
        })
        .collect();
    Page::from_json(&json!({
        "url": "http://t/", "title": "Find care",
        "visibleText": format!("4 providers sorted by best match {} Need care today? Urgent care", text.join(" ")),
        "elements": [
            {"id": "b1", "tag": "button", "text": "Book", "bbox": bb(100)},
            {"id": "b2", "tag": "button", "text": "Book", "bbox": bb(200)},
            {"id": "b3", "tag": "button", "text": "Book", "bbox": bb(300)},
            {"id": "b4", "tag": "button", "text": "Book", "bbox": bb(400)},
        ]
    }))
    .expect("page")
}

#[test]
fn the_nearest_card_by_the_distance_it_shows() {
    for details_first in [false, true] {
        for task in [
            "Book the nearest dermatologist",
            "Book the closest dermatologist",
        ] {
            assert_eq!(
                decide(task, &providers(details_first), &[]),
                Decision::Tool(Tool::Click { id: id("b2") }),
                "{task} (details first: {details_first})"
            );
        }
    }
}
