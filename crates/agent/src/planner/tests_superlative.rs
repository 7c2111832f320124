//! Superlatives of a property the cards show ("the most spots left",
//! "the highest guest rating") and counts with units set on steppers
//! ("get 3 Stalls tickets"), on made-up pages.
use super::tests::{decide, id};
use super::*;
use serde_json::json;

fn bb(x: u32, y: u32) -> serde_json::Value {
    json!({"x": x, "y": y, "width": 90, "height": 20})
}

/// A timetable whose rows end with the same "Join" button; the spots left
/// are shown as "N of M", the rows listed by time, not by spots.
fn sessions() -> Page {
    Page::from_json(&json!({
        "url": "http://t/", "title": "Pottery workshops",
        "visibleText": "Pottery workshops Session When Tutor Spots \
            S3 Sat 10:00–12:00 M. Okoro 8 of 20 left Join \
            S9 Sat 1:30–3:30 PM J. Pell 14 of 25 left Join \
            S5 Sun 9:00–11:00 M. Okoro 5 of 30 left Join \
            Gift vouchers",
        "elements": [
            {"id": "j1", "tag": "button", "text": "Join", "bbox": bb(500, 100)},
            {"id": "j2", "tag": "button", "text": "Join", "bbox": bb(500, 140)},
            {"id": "j3", "tag": "button", "text": "Join", "bbox": bb(500, 180)},
            {"id": "gift", "tag": "a", "href": "#gift", "text": "Gift vouchers", "bbox": bb(10, 300)},
        ]
    }))
    .expect("page")
}

#[test]
fn the_most_of_a_count_shown_as_n_of_m() {
    for task in [
        "Join the session with the most spots left",
        "Could you sign me up for whichever session has the most free spots?",
    ] {
        assert_eq!(
            decide(task, &sessions(), &[]),
            Decision::Tool(Tool::Click { id: id("j2") }),
            "{task}"
        );
    }
}

/// Guest houses named by links, each card's score after its distance
/// and its count of reviews, its price last, then "View rooms".
fn guest_houses(out_of_five: bool) -> Page {
    let cards = [
        ("Alder Lodge", "0.8 km", "1,932", "8.1", "4.1", "$95"),
        ("Birch Hollow", "3.2 km", "211", "9.3", "4.7", "$180"),
        ("Cedar Yard", "1.1 km", "4,410", "7.6", "3.9", "$60"),
    ];
    let text: Vec<String> = cards
        .iter()
        .map(|(name, km, reviews, ten, five, price)| {
            let score = if out_of_five {
                format!("{five} / 5")
            } else {
                format!("Very good {reviews} reviews {ten}")
            };
            format!("{name} {km} from the old town {score} 2 nights {price} View rooms")
        })
        .collect();
    let mut elements = Vec::new();
    for (k, (name, ..)) in cards.iter().enumerate() {
        let y = 100 + 120 * k as u32;
        elements.push(json!({"id": format!("n{k}"), "tag": "a", "href": "#h", "text": name, "bbox": bb(120, y)}));
        elements.push(json!({"id": format!("v{k}"), "tag": "a", "href": "#v", "text": "View rooms", "bbox": bb(600, y + 60)}));
    }
    Page::from_json(&json!({
        "url": "http://t/", "title": "Stays in Porto",
        "visibleText": format!("Stays in Porto: 3 found Sort by Recommended {}", text.join(" ")),
        "elements": elements,
    }))
    .expect("page")
}

#[test]
fn the_highest_rating_is_read_from_each_card_not_its_price() {
    for out_of_five in [false, true] {
        for task in [
            "Open the guest house with the highest guest rating",
            "Open the best-rated guest house",
            "open the top rated place",
        ] {
            assert_eq!(
                decide(task, &guest_houses(out_of_five), &[]),
                Decision::Tool(Tool::Click { id: id("v1") }),
                "{task} (out of five: {out_of_five})"
            );
        }
    }
}

/// Three ticket tiers, each a "−  0  +" stepper after its name.
fn tiers() -> Page {
    Page::from_json(&json!({
        "url": "http://t/", "title": "Hamlet · Tickets",
        "visibleText": "Hamlet Choose seats Stalls $48.00 each − 0 + \
            Upper Circle $22.00 each − 0 + Box $90.00 each − 0 + 0 seats Continue",
        "elements": [
            {"id": "d1", "tag": "button", "text": "−", "ariaLabel": "Fewer", "bbox": bb(400, 100)},
            {"id": "u1", "tag": "button", "text": "+", "ariaLabel": "More", "bbox": bb(500, 100)},
            {"id": "d2", "tag": "button", "text": "−", "ariaLabel": "Fewer", "bbox": bb(400, 150)},
            {"id": "u2", "tag": "button", "text": "+", "ariaLabel": "More", "bbox": bb(500, 150)},
            {"id": "d3", "tag": "button", "text": "−", "ariaLabel": "Fewer", "bbox": bb(400, 200)},
            {"id": "u3", "tag": "button", "text": "+", "ariaLabel": "More", "bbox": bb(500, 200)},
            {"id": "go", "tag": "button", "text": "Continue", "bbox": bb(500, 260)},
        ]
    }))
    .expect("page")
}

#[test]
fn a_count_with_its_unit_goes_to_the_stepper_of_that_row() {
    for task in [
        "Get 3 \"Upper Circle\" tickets and continue",
        "Buy 3 Upper Circle seats",
    ] {
        assert_eq!(
            decide(task, &tiers(), &[]),
            Decision::Tool(Tool::Click { id: id("u2") }),
            "{task}"
        );
    }
}

#[test]
fn the_rows_own_button_is_compared_by_its_row_though_other_links_match_too() {
    // A "Join" link in the header matches "join" as well as the rows'
    // buttons: the rows are still read by the words before each button.
    let mut p = sessions();
    let extra: Page = Page::from_json(&json!({
        "url": "http://t/", "title": "x", "visibleText": "",
        "elements": [{"id": "club", "tag": "a", "href": "#club", "text": "Join the club", "bbox": bb(10, 10)}]
    }))
    .expect("page");
    p.elements.extend(extra.elements);
    assert_eq!(
        decide("Join the session with the most spots left", &p, &[]),
        Decision::Tool(Tool::Click { id: id("j2") })
    );
}
