//! Reading the tool server's snapshot through the snapshot model.

use crate::page::{fingerprint, nearest_clickable, snapshot_of};
use serde_json::{json, Value};

fn el(id: u32, role: &str, clickable: bool, x: f64, extra: Value) -> Value {
    let mut e = json!({"id": id, "role": role, "text": format!("e{id}"),
        "bbox": {"x": x, "y": 100, "width": 40, "height": 20},
        "visual_cues": {"is_primary": false, "background_color_name": null, "is_clickable": clickable}});
    if let (Some(o), Some(more)) = (e.as_object_mut(), extra.as_object()) {
        o.extend(more.clone());
    }
    e
}

fn page(elements: Vec<Value>) -> Value {
    json!({"status": "success", "timestamp": "2026-11-24T00:00:00Z", "url": "http://page/",
        "viewport": {"width": 1280, "height": 720}, "elements": elements})
}

#[test]
fn the_snapshot_is_read_bare_or_wrapped_and_an_error_result_is_none() {
    let bare = page(vec![el(1, "button", true, 0.0, json!({}))]);
    assert_eq!(snapshot_of(&bare).map(|s| s.elements.len()), Some(1));
    let wrapped = json!({"success": true, "snapshot": bare});
    assert_eq!(snapshot_of(&wrapped).map(|s| s.elements[0].id), Some(1));
    let error = json!({"status": "error", "error": "no page", "elements": []});
    assert!(snapshot_of(&error).is_none());
    // Not the contract's roles: not a snapshot.
    assert!(snapshot_of(&page(vec![el(1, "menuitem", true, 0.0, json!({}))])).is_none());
}

#[test]
fn the_nearest_click_target_is_the_engines_clickable_element() {
    let snap = snapshot_of(&page(vec![
        // A clickable <div> (pointer cursor): the engine's cue says so.
        el(1, "generic", true, 200.0, json!({})),
        // Nearer, but plain text, covered, or scrolled away.
        el(2, "generic", false, 100.0, json!({})),
        el(3, "button", true, 110.0, json!({"is_occluded": true})),
        el(4, "link", true, 120.0, json!({"in_viewport": false})),
    ]))
    .expect("snapshot");
    let r = nearest_clickable(&snap, 150.0, 110.0, 100.0).expect("a target");
    assert_eq!(r.x, 200.0);
    assert!(
        nearest_clickable(&snap, 150.0, 110.0, 40.0).is_none(),
        "beyond the radius"
    );
    // A field is a click target (to type into it), cue or not.
    let field =
        snapshot_of(&page(vec![el(5, "textbox", false, 160.0, json!({}))])).expect("snapshot");
    assert_eq!(
        nearest_clickable(&field, 150.0, 110.0, 100.0).map(|r| r.x),
        Some(160.0)
    );
}

#[test]
fn the_fingerprint_follows_what_the_user_sees_not_the_clock() {
    let a = page(vec![el(1, "checkbox", true, 0.0, json!({}))]);
    let mut later = a.clone();
    later["timestamp"] = json!("2026-11-24T00:00:09Z");
    let mut checked = a.clone();
    checked["elements"][0]["state"] = json!({"checked": true});
    let fp = |v: &Value| fingerprint(&snapshot_of(v).expect("snapshot"));
    assert_eq!(fp(&a), fp(&later));
    assert_ne!(fp(&a), fp(&checked));
}
