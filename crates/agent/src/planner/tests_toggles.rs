//! The planner on switches named only by the words of their row
//! (`page/layout_toggles.rs`): "turn on X" reaches the switch whose row
//! says X, not the first switch nor one whose id shares a word.
use super::tests::{decide, id, page};
use super::*;
use serde_json::json;

/// A sharing page of a photo app: three unlabelled switches, each after a
/// title and a line describing it; their ids say little of their titles.
fn sharing() -> Page {
    page(
        json!([
            {"id": "home", "tag": "a", "text": "Albums", "href": "/albums"},
            {"id": "s1", "tag": "button", "role": "switch", "name": "geo"},
            {"id": "s2", "tag": "button", "role": "switch", "name": "faces"},
            {"id": "s3", "tag": "button", "role": "switch", "name": "public-link"},
            {"id": "ok", "tag": "button", "text": "Apply"},
        ]),
        "Albums\nSharing\nKeep location data\nPhotos you share show where they were taken\nGroup similar faces\nPeople in your photos are grouped by face\nAnyone with the link\nShared albums open without signing in\nApply",
    )
}

#[test]
fn turning_on_a_switch_named_by_its_row_clicks_that_switch() {
    let p = sharing();
    let d = decide("Turn on Group similar faces", &p, &[]);
    let Decision::Tool(Tool::Click { id: got }) = &d else {
        panic!("{d:?}");
    };
    assert_eq!(*got, id("s2"), "{d:?}");
    let d = decide("Please switch on anyone with the link, then apply", &p, &[]);
    let Decision::Tool(Tool::Click { id: got }) = &d else {
        panic!("{d:?}");
    };
    assert_eq!(*got, id("s3"), "{d:?}");
}
