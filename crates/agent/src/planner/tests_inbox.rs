//! A message found, opened, then acted on: the Reply / Forward controls of
//! an opened message, which the engine keeps as parts of one clickable row
//! (snapshot-core select/parts.rs).
use super::tests::{clicked, decide, id};
use super::*;
use serde_json::json;

/// The message from Celestyn, opened: its header, body, and one row of
/// two controls.
fn opened() -> Page {
    Page::from_json(&json!({
        "url": "http://t/", "title": "Inbox",
        "visibleText": "Nulla mi diam Celestyn to me 3:41 PM Nulla mi diam ut tempus. Reply Forward",
        "elements": [
            {"id": "back", "tag": "span", "role": "generic", "ariaLabel": "close email", "bbox": {"x": 2, "y": 56, "width": 12, "height": 12}},
            {"id": "trash", "tag": "span", "role": "generic", "ariaLabel": "trash", "bbox": {"x": 128, "y": 57, "width": 12, "height": 12}},
            {"id": "star", "tag": "span", "role": "generic", "ariaLabel": "star", "bbox": {"x": 142, "y": 57, "width": 12, "height": 12}},
            {"id": "reply", "tag": "span", "role": "generic", "text": "Reply", "bbox": {"x": 31, "y": 164, "width": 40, "height": 27}},
            {"id": "fwd", "tag": "span", "role": "generic", "text": "Forward", "bbox": {"x": 88, "y": 164, "width": 40, "height": 27}},
        ]
    }))
    .expect("page")
}

#[test]
fn the_message_found_and_opened_is_not_looked_for_again() {
    let h = [clicked("row3", "Celestyn In. Nulla mi diam u..")];
    let forward = "Find the email by Celestyn and forward that email to Theresita.";
    assert_eq!(
        decide(forward, &opened(), &h),
        Decision::Tool(Tool::Click { id: id("fwd") })
    );
    let reply = r#"Find the email by Celestyn and reply to them with the text "Ok"."#;
    assert_eq!(
        decide(reply, &opened(), &h),
        Decision::Tool(Tool::Click { id: id("reply") })
    );
}

/// The inbox: one row per message, its author first.
fn inbox() -> Page {
    Page::from_json(&json!({
        "url": "http://t/", "title": "Inbox",
        "visibleText": "Primary Rozina Sed. Proin quis male.. Gracie Mi. Tortor. Leo sem.. Luce Ipsum. Purus odio null..",
        "elements": [
            {"id": "r1", "tag": "div", "role": "generic", "text": "Rozina Sed. Proin quis male..", "bbox": {"x": 2, "y": 73, "width": 155, "height": 39}},
            {"id": "r2", "tag": "div", "role": "generic", "text": "Gracie Mi. Tortor. Leo sem..", "bbox": {"x": 2, "y": 112, "width": 155, "height": 39}},
            {"id": "r3", "tag": "div", "role": "generic", "text": "Luce Ipsum. Purus odio null..", "bbox": {"x": 2, "y": 151, "width": 155, "height": 39}},
        ]
    }))
    .expect("page")
}

/// "Open the primary email folder, forward …" on the open inbox: nothing
/// is the folder to open, but the message the next step needs is here, so
/// the page is that place already (no scrolling for a folder).
#[test]
fn a_place_to_open_that_the_page_already_is_is_not_looked_for() {
    for task in [
        "Open primary email folder, forward Gracie's message to Kathie.",
        "Open email, forward message from Gracie to Kathie",
    ] {
        assert_eq!(
            decide(task, &inbox(), &[]),
            Decision::Tool(Tool::Click { id: id("r2") }),
            "{task}"
        );
        // Opened: the message's Forward, not a search for the folder.
        let h = [clicked("r2", "Gracie Mi. Tortor. Leo sem..")];
        assert_eq!(
            decide(task, &opened(), &h),
            Decision::Tool(Tool::Click { id: id("fwd") }),
            "{task}"
        );
    }
}

/// A message marked important, said in several ways (the passive, a flag,
/// "mark … as important"): found, opened, then its star.
#[test]
fn a_message_marked_important_is_starred() {
    for task in [
        "Mark the email from Celestyn as important.",
        "The email from Celestyn in the inbox of the app needs to be marked important.",
        "Find Celestyn's email and mark it as important.",
        "Please flag Celestyn's email as important.",
    ] {
        let h = [clicked("row3", "Celestyn In. Nulla mi diam u..")];
        assert_eq!(
            decide(task, &opened(), &h),
            Decision::Tool(Tool::Click { id: id("star") }),
            "{task}"
        );
    }
}
