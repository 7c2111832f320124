use crate::routing::*;

#[test]
fn each_keyword_routes_to_its_endpoint() {
    for (k, e) in DETERMINISTIC_ACTIONS {
        let r = categorize_action(k);
        // `go_back` contains `back` first: same endpoint, as the spec.
        assert_eq!(r.endpoint(), Some(*e), "{k}");
        assert!(!r.needs_vision());
    }
    assert_eq!(
        categorize_action("Browser_NAVIGATE").endpoint(),
        Some("/browser/navigate")
    );
    assert_eq!(
        categorize_action("open_tab_with_url").endpoint(),
        Some("/browser/tab/new")
    );
}

#[test]
fn everything_else_needs_vision() {
    for t in [
        "click",
        "double_click",
        "type",
        "scroll",
        "keypress",
        "hover",
    ] {
        let r = categorize_action(t);
        assert!(r.needs_vision(), "{t}");
        assert_eq!(
            serde_json::to_value(&r).expect("json"),
            serde_json::json!({"type": "vision_required", "needsVision": true, "possibleEndpoints": ["/click", "/type", "/scroll"]})
        );
    }
}

#[test]
fn serialises_as_the_spec() {
    assert_eq!(
        serde_json::to_value(categorize_action("reload")).expect("json"),
        serde_json::json!({"type": "deterministic", "endpoint": "/browser/reload", "needsVision": false})
    );
}
