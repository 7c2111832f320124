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
