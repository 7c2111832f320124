use super::*;
use serde_json::json;

#[test]
fn parses_both_shapes() {
    let a = Page::from_json(&json!({"url":"u","title":"t","visibleText":"x",
        "elements":[{"id":"agent-1","tag":"INPUT","type":"password"}],"timestamp":1}))
    .expect("004");
    assert_eq!(a.shape, SnapshotShape::Agent);
    assert_eq!(a.elements[0].role, "textbox");
    let b = Page::from_json(&json!({"status":"success","url":"u","elements":[{"id":42,
        "role":"button","text":"Sign In","importance":850,"bbox":{"x":1,"y":2,"width":3,"height":4},
        "visual_cues":{"is_primary":true,"background_color_name":null,"is_clickable":true}}]}))
    .expect("001");
    assert_eq!(b.elements[0].id, ElementId::Num(42));
    assert!(b.elements[0].is_primary);
}

#[test]
fn rejects_wrong_types() {
    let err = Page::from_json(&json!({"url": 5, "elements": []})).expect_err("must fail");
    assert!(err.contains("url") || err.contains("string"), "{err}");
}
