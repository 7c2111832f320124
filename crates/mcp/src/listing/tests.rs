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
    let asked = DiffStyle {
        header: true,
        set_by_agent: None,
    };
    let text = diff(&now, &view, 500, &asked).unwrap();
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
    let short = diff(&now, &view, 30, &asked).unwrap();
    assert!(short.contains("more changes"), "{short}");
    assert!(estimate_tokens(&short) <= 30, "{short}");
}

fn recorded(elements: serde_json::Value) -> View {
    let mut view = View::default();
    view.record(Snap {
        doc: "d".into(),
        base: 0,
        snapshot: snapshot(json!({"status": "success", "url": "u", "elements": elements})),
    });
    view
}

#[test]
fn an_action_reply_lists_changes_only_and_not_the_agents_own_values() {
    let view = recorded(json!([
        {"id": 1, "role": "textbox", "text": "Username", "bbox": {"x": 24, "y": 100, "width": 200, "height": 20}},
        {"id": 2, "role": "checkbox", "text": "Remember me", "state": {"checked": false}, "bbox": {"x": 24, "y": 140, "width": 20, "height": 20}},
        {"id": 3, "role": "button", "text": "Log in", "bbox": {"x": 24, "y": 180, "width": 80, "height": 20}}]));
    let now = snapshot(json!({"status": "success", "url": "u", "elements": [
        {"id": 1, "role": "textbox", "text": "alice", "state": {"value": "alice"}, "bbox": {"x": 24, "y": 100, "width": 200, "height": 20}},
        {"id": 2, "role": "checkbox", "text": "Remember me", "state": {"checked": true}, "bbox": {"x": 24, "y": 140, "width": 20, "height": 20}},
        {"id": 3, "role": "button", "text": "Log in", "bbox": {"x": 24, "y": 220, "width": 80, "height": 20}},
        {"id": 4, "role": "link", "text": "Forgot?", "bbox": {"x": 24, "y": 180, "width": 80, "height": 20}}],
        "diff": {"since": 1, "added": [4], "removed": [], "changed": [1, 2, 3]}}));
    let typed: HashSet<u32> = [1].into();
    let style = DiffStyle {
        header: false,
        set_by_agent: Some(&typed),
    };
    let text = diff(&now, &view, 500, &style).unwrap();
    // The typed field is not repeated, the checkbox's new state is, the new
    // link too (no positions), the button that only moved is counted.
    assert_eq!(
        text,
        "~ 2 checkbox \"Remember me\" checked\n+ 4 link \"Forgot?\"\n(1 element only moved)\n"
    );
    // Without the agent's values, the field's change is shown.
    let all = diff(&now, &view, 500, &DiffStyle::default()).unwrap();
    assert!(all.starts_with("~ 1 textbox \"alice\"\n"), "{all}");
    // A typed field whose state changed otherwise too (now invalid) is shown.
    let invalid = snapshot(json!({"status": "success", "url": "u", "elements": [
        {"id": 1, "role": "textbox", "text": "alice", "state": {"value": "alice", "required": true}}],
        "diff": {"since": 1, "added": [], "removed": [], "changed": [1]}}));
    assert!(diff(&invalid, &view, 500, &style)
        .unwrap()
        .contains("~ 1 textbox"));
    // Nothing but the agent's own value: nothing to say.
    let only = snapshot(json!({"status": "success", "url": "u", "elements": [
        {"id": 1, "role": "textbox", "text": "alice", "state": {"value": "alice"}, "bbox": {"x": 24, "y": 100, "width": 200, "height": 20}}],
        "diff": {"since": 1, "added": [], "removed": [], "changed": [1]}}));
    assert_eq!(diff(&only, &view, 500, &style).unwrap(), "");
    let none = snapshot(json!({"status": "success", "url": "u", "elements": [],
        "diff": {"since": 1, "added": [], "removed": [], "changed": []}}));
    assert_eq!(
        diff(&none, &view, 500, &style).unwrap(),
        "No change on the page.\n"
    );
}

#[test]
fn a_compact_listing_has_no_positions_even_when_a_text_looks_like_one() {
    assert_eq!(
        compact("3 searchbox \"Search\" @729,12\n9 link \"at @1,2\" offscreen @-4,900\n… 3 more elements\n"),
        "3 searchbox \"Search\"\n9 link \"at @1,2\" offscreen\n… 3 more elements\n"
    );
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

#[test]
fn a_page_listing_stops_at_its_long_tail_and_a_query_does_not() {
    // A header in view and 300 story links far below it.
    let mut elements = vec![
        json!({"id": 1, "role": "searchbox", "text": "Search", "importance": 1037, "in_viewport": true,
               "bbox": {"x": 0, "y": 10, "width": 200, "height": 20}}),
    ];
    for i in 0..300 {
        elements.push(
            json!({"id": 10 + i, "role": "link", "text": format!("Story number {i} of the archive"),
            "importance": -300, "in_viewport": false,
            "bbox": {"x": 0, "y": 3000 + i * 30, "width": 200, "height": 20}}),
        );
    }
    let s = snapshot(json!({"status": "success", "url": "u",
        "viewport": {"width": 1280, "height": 720}, "elements": elements}));
    let text = page(&s, &s.elements, 2000);
    assert!(text.starts_with("1 searchbox \"Search\" @0,10\n… 300 more (300 links; 300 below the fold; all: max_tokens "), "{text}");
    assert!(text.trim_end().ends_with(MORE_HINT), "{text}");
    // The plain listing (a query's matches) fills the budget.
    assert!(listing(&s.elements, 2000).lines().count() > 50);
}
