use super::*;
use serde_json::json;

#[test]
fn parses_both_shapes() {
    let a = Page::from_json(&json!({"url":"u","title":"t","visibleText":"x",
        "elements":[{"id":"agent-1","tag":"INPUT","type":"password"},{"id":"agent-2","tag":"a","text":"Help"}],"timestamp":1}))
    .expect("004");
    assert_eq!(a.shape, SnapshotShape::Agent);
    assert_eq!(a.elements[0].role(), Role::Textbox);
    assert_eq!(a.elements[1].role(), Role::Link);
    assert_eq!(a.id_of(&a.elements[1]), ElementId::Str("agent-2".into()));
    assert!(a.find("agent-2").is_some_and(|e| e.text() == "Help"));
    assert!(a.find("1").is_none());
    let b = Page::from_json(&json!({"status":"success","url":"u","elements":[{"id":42,
        "role":"button","text":"Sign In","importance":850,"bbox":{"x":1,"y":2,"width":3,"height":4},
        "visual_cues":{"is_primary":true,"background_color_name":null,"is_clickable":true},
        "tag":"button","type":"submit","form":1}]}))
    .expect("001");
    assert_eq!(b.id_of(&b.elements[0]), ElementId::Num(42));
    assert!(b.elements[0].element.visual_cues.is_primary);
    assert_eq!(b.elements[0].facts.form, 1);
    assert!(b.find("42").is_some() && b.find("042").is_none());
}

#[test]
fn both_readers_agree() {
    let v = json!({"status":"success","url":"u","viewport":{"width":800,"height":600},"title":"T","visibleText":"hello",
        "elements":[{"id":3,"role":"textbox","text":"alice","tag":"input","type":"text","ariaLabel":"Username","value":"alice"}]});
    let from_value = Page::from_json(&v).expect("value");
    let (from_text, shot) = Page::from_json_str(&v.to_string()).expect("text");
    assert_eq!(from_value, from_text);
    assert!(!shot);
    assert_eq!(from_text.viewport_height, Some(600.0));
    // A filled field is named by its label, not by its value.
    assert_eq!(from_text.elements[0].label(), "Username");
}

#[test]
fn rejects_wrong_types() {
    let err = Page::from_json(&json!({"url": 5, "elements": []})).expect_err("must fail");
    assert!(err.contains("url") || err.contains("string"), "{err}");
    let err = Page::from_json(&json!({"status":"success","url":"u","elements":[{"id":1}]}))
        .expect_err("role is required");
    assert!(err.contains("role"), "{err}");
}

/// Signatures are stored in runs' histories (`pageBefore`/`pageAfter`):
/// hashing the id without building it must give the same value as
/// hashing `id_of(e).key()` did.
#[test]
fn signature_hashes_each_id_as_its_key() {
    let reference = |p: &Page| {
        let mut h = fnv1a(p.url.as_bytes(), FNV_OFFSET);
        h = fnv1a(p.visible_text.as_bytes(), h);
        for e in &p.elements {
            h = fnv1a(p.id_of(e).key().as_bytes(), h);
            h = fnv1a(e.text().as_bytes(), h);
            h = fnv1a(e.value().as_bytes(), h);
            let st = &e.element.state;
            let flags = [
                match st.checked {
                    None => 0,
                    Some(Checked::Bool(true)) => 1,
                    Some(Checked::Bool(false)) => 2,
                    Some(Checked::Mixed(_)) => 3,
                },
                st.expanded.map(|b| b as u8 + 1).unwrap_or(0),
                st.selected.map(|b| b as u8 + 1).unwrap_or(0),
                u8::from(e.is_disabled()),
            ];
            h = fnv1a(&flags, h);
        }
        format!("{h:016x}")
    };
    let numeric = Page::from_json(&json!({"status":"success","url":"u","elements":[
        {"id":0,"role":"button","text":"A"},{"id":7,"role":"button","text":"B"},
        {"id":4294967295u64,"role":"checkbox","text":"C","checked":true}]}))
    .expect("001");
    let strings = Page::from_json(&json!({"url":"u","title":"t","visibleText":"x",
        "elements":[{"id":"agent-1","tag":"a","text":"Help"},{"id":"z","tag":"button","text":"Go"}]}))
    .expect("004");
    for p in [&numeric, &strings] {
        assert_eq!(p.signature(), reference(p));
    }
    assert_ne!(numeric.signature(), strings.signature());
}

/// `shapes::lowercase` keeps a lower-case tag as it is and is
/// `str::to_lowercase` on everything else (upper case, non-ASCII letters
/// whose lower case is longer or not in ASCII, titlecase letters).
#[test]
fn a_tag_is_lowercased_as_to_lowercase_does() {
    for tag in [
        "input",
        "INPUT",
        "Button",
        "a",
        "",
        "h1",
        "my-widget",
        "DİV",
        "ǅiv",
        "ÄREA",
        "x\u{212A}",
        "ΣΑ",
    ] {
        assert_eq!(
            shapes::lowercase(tag.to_string()),
            tag.to_lowercase(),
            "{tag}"
        );
    }
}
