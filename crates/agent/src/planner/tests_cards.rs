//! The planner on cards and page-wide modals (branch issue-23p,
//! 2026-11-28; docs/agent.md "Cards, steppers and a modal over the whole
//! page"): a control repeated on cards built of plain divs acts on the card
//! whose words hold the item (the extension gives it its card's words as
//! DomFacts::row, `extension/content/page-ops.js` `cardOf`), and a modal
//! over the whole page, whose own controls the engine flags as covered with
//! the rest, is dismissed before the control behind it is used. Pages and
//! words are invented for the test.
use super::tests::{decide, id, page, with_options};
use super::*;
use serde_json::json;

/// A release board: three cards of divs, each with its own "Stage" select.
fn board(with_cards: bool) -> Page {
    let mut p = page(
        json!([
            {"id": "s1", "tag": "select", "ariaLabel": "Stage", "value": "Backlog"},
            {"id": "s2", "tag": "select", "ariaLabel": "Stage", "value": "Backlog"},
            {"id": "s3", "tag": "select", "ariaLabel": "Stage", "value": "Shipped"},
        ]),
        "Backlog Shipped PLM-31 Rotate signing keys Backlog Testing Shipped PLM-40 Audit log export Backlog Testing Shipped PLM-12 Retire the old mailer Backlog Testing Shipped",
    );
    with_options(&mut p, "Stage", &["Backlog", "Testing", "Shipped"]);
    if with_cards {
        let cards = [
            "PLM-31 Rotate signing keys Backlog Testing Shipped",
            "PLM-40 Audit log export Backlog Testing Shipped",
            "Shipped PLM-12 Retire the old mailer Backlog Testing Shipped",
        ];
        for (e, c) in p.elements.iter_mut().zip(cards) {
            e.facts.row = c.to_string();
        }
    }
    p
}

#[test]
fn a_cards_own_select_is_set_when_the_card_names_the_item() {
    let task = r#"Move "PLM-40" to Shipped"#;
    assert_eq!(
        decide(task, &board(true), &[]),
        Decision::Tool(Tool::Type {
            id: id("s2"),
            text: "Shipped".into()
        })
    );
    // Without the cards' words the item's select is not known: never the
    // one of another card.
    assert_ne!(
        decide(task, &board(false), &[]),
        Decision::Tool(Tool::Type {
            id: id("s2"),
            text: "Shipped".into()
        })
    );
}

fn bb(x: u32, y: u32) -> serde_json::Value {
    json!({"x": x, "y": y, "width": 90, "height": 20})
}

/// Seat classes with a stepper each, under a notice that covers the page.
fn seats(covered: bool, dialog_flagged: bool) -> Page {
    let mut p = page(
        json!([
            {"id": "d1", "tag": "button", "text": "−", "ariaLabel": "Fewer", "bbox": bb(400, 100)},
            {"id": "u1", "tag": "button", "text": "+", "ariaLabel": "More", "bbox": bb(500, 100)},
            {"id": "d2", "tag": "button", "text": "−", "ariaLabel": "Fewer", "bbox": bb(400, 150)},
            {"id": "u2", "tag": "button", "text": "+", "ariaLabel": "More", "bbox": bb(500, 150)},
            {"id": "go", "tag": "button", "text": "Continue to payment", "bbox": bb(500, 220)},
            {"id": "ok", "tag": "button", "text": "OK", "bbox": bb(300, 300)},
        ]),
        "Pick seats Lower deck $30 each − 0 + Upper deck $22 each − 0 + Continue to payment Notice At most 6 seats per booking. OK",
    );
    let rows = [
        "Lower deck $30 each − 0 +",
        "Lower deck $30 each − 0 +",
        "Upper deck $22 each − 0 +",
        "Upper deck $22 each − 0 +",
    ];
    for (e, r) in p.elements.iter_mut().zip(rows) {
        e.facts.row = r.to_string();
    }
    for e in p.elements.iter_mut() {
        let own = e.label() == "OK";
        e.element.is_occluded = covered && (!own || dialog_flagged);
    }
    p
}

#[test]
fn a_modal_over_the_whole_page_is_dismissed_first_even_when_flagged_with_it() {
    let task = r#"Get 2 "Upper deck" seats"#;
    // Not covered: the stepper of the class named.
    assert_eq!(
        decide(task, &seats(false, false), &[]),
        Decision::Tool(Tool::Click { id: id("u2") })
    );
    // Covered, the notice's OK not: OK first (as before).
    assert_eq!(
        decide(task, &seats(true, false), &[]),
        Decision::Tool(Tool::Click { id: id("ok") })
    );
    // Every control flagged, the notice's own too: still OK first.
    assert_eq!(
        decide(task, &seats(true, true), &[]),
        Decision::Tool(Tool::Click { id: id("ok") })
    );
}
