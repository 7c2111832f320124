use super::*;
use crate::page::{Snap, View};
use serde_json::json;

fn snapshot(v: serde_json::Value) -> Snapshot {
    Snapshot::from_value(&v).unwrap()
}

#[test]
fn a_diff_lists_changes_in_the_listing_format_within_its_budget() {
    let before = snapshot(json!({"status": "success", "url": "u", "elements": [
        {"id": 1, "role": "button", "text": "Sign in", "in_viewport": true},
        {"id": 2, "role": "textbox", "text": "Username"}]}));
    let mut view = View::default();
    view.record(Snap {
        doc: "d".into(),
        base: 0,
        snapshot: before,
    });
    let now = snapshot(json!({"status": "success", "url": "u", "elements": [
        {"id": 2, "role": "textbox", "text": "Username", "state": {"value": "alice"}},
        {"id": 3, "role": "link", "text": "Log out"}],
        "diff": {"since": 1, "added": [3], "removed": [1], "changed": [2]}}));
    let text = diff(&now, &view, 500).unwrap();
    assert!(
        text.starts_with("Changes: 1 added, 1 changed, 1 removed\n"),
        "{text}"
    );
    assert!(
        text.contains("~ 2 textbox \"Username\" value=\"alice\""),
        "{text}"
    );
    assert!(text.contains("+ 3 link \"Log out\""), "{text}");
    assert!(text.contains("- 1 button \"Sign in\"\n"), "{text}");
    let short = diff(&now, &view, 30).unwrap();
    assert!(short.contains("more changes"), "{short}");
    assert!(estimate_tokens(&short) <= 30, "{short}");
}

#[test]
fn filters_take_a_query_and_the_viewport() {
    let s = snapshot(json!({"status": "success", "url": "u", "elements": [
        {"id": 1, "role": "button", "text": "Sign in", "in_viewport": true},
        {"id": 2, "role": "link", "text": "Help", "in_viewport": false}]}));
    assert_eq!(filtered(&s, Some("role=link"), false).unwrap().len(), 1);
    assert_eq!(filtered(&s, None, true).unwrap().len(), 1);
    assert!(filtered(&s, Some("role=="), false)
        .unwrap_err()
        .contains("query"));
}
