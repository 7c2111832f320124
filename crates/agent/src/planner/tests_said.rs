//! A verb said with a synonym the task language rewrites to a toggle
//! ("stop sync" → turn off "sync", docs/agent.md "The task language"):
//! the switch is turned where the page has one, and the control the words
//! as said name ("Stop sync") is clicked where it has none
//! (`Step::Choose::said`).
use super::tests::{clicked, decide, id, page};
use super::*;
use sentience_snapshot_core::Checked;
use serde_json::json;

/// Device settings with a "Sync" switch, on.
fn with_switch() -> Page {
    let mut p = page(
        json!([
            {"id": "sw", "tag": "button", "ariaRole": "switch", "ariaLabel": "Sync"},
            {"id": "now", "tag": "button", "text": "Sync now"},
            {"id": "save", "tag": "button", "text": "Save"},
        ]),
        "Devices Phone Sync Sync now Save",
    );
    p.elements[0].element.state.checked = Some(Checked::TRUE);
    p
}

/// Device settings whose sync is stopped by a button, no switch.
fn with_buttons() -> Page {
    page(
        json!([
            {"id": "now", "tag": "button", "text": "Sync now"},
            {"id": "stop", "tag": "button", "text": "Stop sync"},
            {"id": "mute", "tag": "button", "text": "Mute notifications"},
            {"id": "remember", "tag": "input", "type": "checkbox", "ariaLabel": "Remember this device"},
        ]),
        "Devices Phone Sync now Stop sync Mute notifications Remember this device",
    )
}

#[test]
fn a_synonym_of_turn_off_turns_the_switch_the_page_has() {
    for task in ["Stop sync", "stop the sync please"] {
        assert_eq!(
            decide(task, &with_switch(), &[]),
            Decision::Tool(Tool::Click { id: id("sw") }),
            "{task}"
        );
    }
}

#[test]
fn a_synonym_of_turn_off_clicks_the_control_its_words_name_when_no_switch_is_there() {
    for (task, el) in [
        ("Stop sync", "stop"),
        ("stop the sync please", "stop"),
        ("mute the notifications", "mute"),
        // The button's name is the whole task: a target, not the task
        // shown on the page.
        ("Mute notifications", "mute"),
        ("please mute notifications", "mute"),
    ] {
        assert_eq!(
            decide(task, &with_buttons(), &[]),
            Decision::Tool(Tool::Click { id: id(el) }),
            "{task}"
        );
    }
    // Clicked once: done, even though the button now says something else.
    let after = page(
        json!([
            {"id": "now", "tag": "button", "text": "Sync now"},
            {"id": "stop", "tag": "button", "text": "Start sync"},
        ]),
        "Devices Phone Sync now Start sync Sync paused",
    );
    assert!(matches!(
        decide("Stop sync", &after, &[clicked("stop", "Stop sync")]),
        Decision::Finish(_)
    ));
}

/// A reading list whose rows say "Drop" (not "Remove" or "Delete").
fn with_drop_buttons() -> Page {
    let mut p = page(
        json!([
            {"id": "pin1", "tag": "button", "text": "Pin"},
            {"id": "drop1", "tag": "button", "text": "Drop"},
            {"id": "pin2", "tag": "button", "text": "Pin"},
            {"id": "drop2", "tag": "button", "text": "Drop"},
            {"id": "keep", "tag": "button", "text": "Keep all"},
        ]),
        "Reading list Dune by Frank Herbert Pin Drop Emma by Jane Austen Pin Drop Keep all",
    );
    for (i, row) in [(0, "Dune"), (1, "Dune"), (2, "Emma"), (3, "Emma")] {
        p.elements[i].facts.row = format!("{row} by someone Pin Drop");
    }
    p
}

#[test]
fn drop_said_for_remove_clicks_a_control_that_says_drop() {
    // "drop" is read as remove; the page's word for it is "Drop".
    for task in [
        "drop Emma from my list",
        "Please remove Emma",
        "delete Emma",
    ] {
        assert_eq!(
            decide(task, &with_drop_buttons(), &[]),
            Decision::Tool(Tool::Click { id: id("drop2") }),
            "{task}"
        );
    }
}
