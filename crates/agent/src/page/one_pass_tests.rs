//! The one-pass reader (`one_pass.rs`) against the careful one
//! (`shapes::from_str_careful`): the same page or the same error for every
//! case, the fast path taken where a producer's snapshot is well formed, and
//! every field of the model known to it.

use super::one_pass::{self, ELEMENT_KEYS, TOP_KEYS};
use super::shapes::from_str_careful;
use super::*;
use serde::de::{self, Deserializer, Visitor};
use serde_json::json;
use std::collections::BTreeSet;

/// A contract snapshot using every member of the model and of `DomFacts`.
fn every_member() -> Value {
    let mut v = json!({
        "status": "success", "timestamp": "2026-11-27T00:00:00Z", "url": "https://e.test/a",
        "viewport": {"width": 1280, "height": 720.5},
        "title": "Inbox", "visibleText": "Welcome, alice!\nRow one\n\nRow two",
        "screenshot_format": "png", "snapshot_id": 3,
        "meta": {"elements_scanned": 9, "candidates": 3, "filtered_out": 0, "truncated_by_limit": 0,
                 "engine_path": "content_script", "engine_version": "1.0",
                 "stability": {"settled": true, "waited_ms": 5, "quiet_ms": 100, "timeout_ms": 900}},
        "diff": {"since": 2, "added": [7], "removed": [], "changed": [4]},
        "frames": {"included": [], "skipped": []},
        "unknown_member": {"anything": [1, 2, {"deep": null}]},
        "elements": [
            {"id": 4, "role": "checkbox", "text": "Remember me", "importance": -3,
             "bbox": {"x": 1.5, "y": 2, "width": 30, "height": 40},
             "visual_cues": {"is_primary": true, "background_color_name": "blue", "is_clickable": true},
             "in_viewport": false, "is_occluded": true, "z_index": 7,
             "state": {"disabled": true, "checked": "mixed", "selected": false, "expanded": true,
                       "required": true, "value": "v", "options": [{"text": "A", "value": "a", "selected": true}]},
             "tag": "input", "type": "checkbox", "name": "remember", "placeholder": "p", "value": "on",
             "href": "", "ariaLabel": "Remember me", "ariaRole": "switch", "disabled": true,
             "hint": "remember box", "readOnly": true, "form": 2, "suggests": true, "extra": [1]},
            {"id": 7, "role": "link", "text": null, "tag": "a", "href": "/b"},
            {"id": 4294967295u64, "role": "textbox", "text": "caf\u{e9} \"quoted\" \\ \n tab\t"}
        ]
    });
    // (Set apart: one more member in the literal passes `json!`'s
    // recursion limit.)
    v["elements"][0]["hasPopup"] = json!(true);
    v["elements"][0]["row"] = json!("Priya Nair Admin ⋯");
    v
}

fn login_contract() -> Value {
    json!({"status": "success", "url": "http://127.0.0.1/login", "elements": [
        {"id": 1, "role": "textbox", "tag": "input", "type": "text", "ariaLabel": "Username"},
        {"id": 2, "role": "button", "text": "Log in", "tag": "button", "type": "submit", "form": 1}]})
}

/// Snapshots the one pass must read itself.
fn well_formed() -> Vec<String> {
    let mut no_text = login_contract();
    no_text["viewport"] = json!({"width": 10, "height": 20});
    let mut with_shot = every_member();
    with_shot["screenshot"] = json!("iVBORw0KGgo=");
    let mut shot_null = login_contract();
    shot_null["screenshot"] = Value::Null;
    vec![
        crate::sample::login_page_snapshot().to_string(),
        every_member().to_string(),
        serde_json::to_string_pretty(&every_member()).expect("json"),
        login_contract().to_string(),
        no_text.to_string(),
        with_shot.to_string(),
        shot_null.to_string(),
        // Only `status` says contract: no elements.
        json!({"status": "success", "url": "u", "elements": []}).to_string(),
        // Only `viewport` says contract.
        json!({"url": "u", "viewport": {"width": 1, "height": 2}, "elements": []}).to_string(),
        // No element, no status, no viewport: the run API's shape.
        json!({"url": "u", "elements": [], "timestamp": 5}).to_string(),
        // Numeric ids alone say contract (no status, no viewport).
        json!({"url": "u", "elements": [{"id": 0, "role": "generic"}]}).to_string(),
        // The run API's shape with every ElementInfo member, an ARIA role,
        // upper-case tag, a screenshot and the contract's members it ignores.
        json!({"url": "u", "title": null, "visibleText": "a\nb", "timestamp": 1, "screenshot": 7,
               "elements": [
            {"id": "agent-1", "tag": "BUTTON", "role": "tab", "text": "Tab A", "ariaLabel": "A",
             "placeholder": "", "type": "", "value": "x", "href": "", "disabled": true, "name": "n",
             "bbox": {"x": 1, "y": 2, "width": 3, "height": 4}},
            {"id": "agent-2", "tag": "a", "text": "", "href": "/x"},
            {"id": "agent-3", "tag": "input", "role": "button"}]})
        .to_string(),
        // Escaped keys and values read as their text.
        r#"{"url":"u","\u0065lements":[{"id":"a\u0031","t\u0061g":"a","text":"\u00e9"}]}"#.into(),
    ]
}

/// Snapshots the one pass leaves to the careful reader (which accepts
/// some, with its leniencies, and words the error of the others).
fn left_to_careful() -> Vec<String> {
    let mut bad_state = login_contract();
    bad_state["elements"][0]["state"] = json!({"checked": "yes"});
    let mut role_null = login_contract();
    role_null["elements"][0]["role"] = Value::Null;
    let mut no_role = login_contract();
    no_role["elements"][0]
        .as_object_mut()
        .expect("object")
        .remove("role");
    let mut no_id = login_contract();
    no_id["elements"][1]
        .as_object_mut()
        .expect("object")
        .remove("id");
    let mut facts_null = login_contract();
    facts_null["elements"][0]["ariaLabel"] = Value::Null;
    let mut unknown_role = login_contract();
    unknown_role["elements"][0]["role"] = json!("heading");
    let mut mixed_ids = login_contract();
    mixed_ids["elements"][0]["id"] = json!("agent-1");
    let mut stamp_number = login_contract();
    stamp_number["timestamp"] = json!(17);
    let mut shot_number = login_contract();
    shot_number["screenshot"] = json!(17);
    let mut meta_wrong = login_contract();
    meta_wrong["meta"] = json!("m");
    let mut page_role_null = crate::sample::login_page_snapshot();
    page_role_null["elements"][0]["role"] = Value::Null;
    let mut page_no_tag = crate::sample::login_page_snapshot();
    page_no_tag["elements"][0]
        .as_object_mut()
        .expect("object")
        .remove("tag");
    let mut page_label_null = crate::sample::login_page_snapshot();
    page_label_null["elements"][0]["ariaLabel"] = Value::Null;
    let mut page_form_text = crate::sample::login_page_snapshot();
    page_form_text["elements"][0]["form"] = json!("f");
    vec![
        bad_state.to_string(),
        role_null.to_string(),
        no_role.to_string(),
        no_id.to_string(),
        facts_null.to_string(),
        unknown_role.to_string(),
        mixed_ids.to_string(),
        stamp_number.to_string(),
        shot_number.to_string(),
        meta_wrong.to_string(),
        page_role_null.to_string(),
        page_no_tag.to_string(),
        page_label_null.to_string(),
        page_form_text.to_string(),
        r#"{"url":"u","elements":[{"id":-1,"role":"button"}]}"#.into(),
        r#"{"url":"u","elements":[{"id":4294967296,"role":"button"}]}"#.into(),
        r#"{"url":"u","elements":[{"id":1.5,"role":"button"}]}"#.into(),
        r#"{"url":"u","elements":[{"id":true,"role":"button"}]}"#.into(),
        r#"{"url":"u","elements":[[1,"button"]]}"#.into(),
        r#"{"url":"u","elements":[5]}"#.into(),
        r#"{"url":"u","elements":{"id":1}}"#.into(),
        r#"{"url":"u","elements":[{"id":1,"role":"button","id":2}]}"#.into(),
        r#"{"url":"u","url":"v","elements":[]}"#.into(),
        r#"{"status":"success","elements":[]}"#.into(),
        r#"{"status":"success","url":"u"}"#.into(),
        r#"{"url":5,"elements":[]}"#.into(),
        r#"{"url":"u","title":5,"elements":[]}"#.into(),
        r#"{"url":"u","elements":[]} trailing"#.into(),
        r#"{"url":"u","elements":["#.into(),
        r#"["url"]"#.into(),
        "null".into(),
        "5".into(),
        "\"text\"".into(),
        "".into(),
    ]
}

#[test]
fn one_pass_reads_well_formed_snapshots_as_the_careful_reader_does() {
    for json in well_formed() {
        let fast = one_pass::read(&json);
        assert!(fast.is_some(), "left to the careful reader: {json}");
        let careful = from_str_careful(&json);
        assert_eq!(fast.map(Ok), Some(careful), "{json}");
    }
}

#[test]
fn one_pass_leaves_the_rest_to_the_careful_reader() {
    for json in left_to_careful() {
        assert!(one_pass::read(&json).is_none(), "read in one pass: {json}");
        assert_eq!(shapes::from_str(&json), from_str_careful(&json), "{json}");
    }
}

/// What /step answers for malformed snapshots, word for word (these
/// messages reach API clients; they were the careful reader's before the
/// one pass existed and must stay so).
#[test]
fn error_messages_are_unchanged() {
    let cases = [
        (r#"{"url":"u","elements":[{"id":1}]}"#, "snapshot (contract shape): missing field `role` at line 1 column 31"),
        (r#"{"url":"u","elements":[{"id":1,"role":"heading"}]}"#, "snapshot (contract shape): unknown variant `heading`, expected one of `button`, `link`, `textbox`, `searchbox`, `checkbox`, `radio`, `combobox`, `image`, `generic` at line 1 column 47"),
        (r#"{"status":"success","url":"u","elements":[{"id":"a","role":"button"}]}"#, "snapshot (contract shape): invalid type: string \"a\", expected u32 at line 1 column 51"),
        (r#"{"status":"success","elements":[]}"#, "snapshot (contract shape): missing field `url` at line 1 column 34"),
        (r#"{"url":"u","elements":[{"id":"a"}]}"#, "snapshot (run API PageSnapshot): missing field `tag` at line 1 column 33"),
        (r#"{"url":5,"elements":[]}"#, "snapshot (run API PageSnapshot): invalid type: integer `5`, expected a string at line 1 column 8"),
        (r#"{"url":"u","elements":[{"id":1,"role":"button","id":2}]}"#, "snapshot (contract shape): duplicate field `id` at line 1 column 51"),
        (r#"{"url":"u","elements":[]} trailing"#, "snapshot: trailing characters at line 1 column 27"),
        (r#"{"url":"u","elements":["#, "snapshot: EOF while parsing a list at line 1 column 23"),
        ("null", "snapshot must be an object or null"),
        ("5", "snapshot must be an object or null"),
    ];
    for (json, expected) in cases {
        assert_eq!(
            shapes::from_str(json).map(|_| ()),
            Err(expected.to_string()),
            "{json}"
        );
    }
}

/// The field names a derived `Deserialize` asks for (serde passes them to
/// `deserialize_struct`): the one pass must know each of the model's, or a
/// field added to the model would be dropped on the fast path.
fn fields_of<'de, T: Deserialize<'de>>() -> BTreeSet<&'static str> {
    struct Ask(Vec<&'static str>);
    impl<'de> Deserializer<'de> for &mut Ask {
        type Error = de::value::Error;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(de::Error::custom("not a struct"))
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            self.0.extend_from_slice(fields);
            Err(de::Error::custom("asked"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map
            enum identifier ignored_any
        }
    }
    let mut ask = Ask(Vec::new());
    let _ = T::deserialize(&mut ask);
    assert!(
        !ask.0.is_empty(),
        "{} is not a struct",
        std::any::type_name::<T>()
    );
    ask.0.into_iter().collect()
}

#[test]
fn one_pass_knows_every_field_of_the_model() {
    use sentience_snapshot_core::Snapshot as Model;
    let mut top = fields_of::<Model>();
    top.extend(["title", "visibleText"]);
    assert_eq!(top, TOP_KEYS.iter().copied().collect::<BTreeSet<_>>());
    let mut element = fields_of::<Element>();
    let facts = fields_of::<DomFacts>();
    assert!(element.is_disjoint(&facts), "{element:?} {facts:?}");
    element.extend(facts);
    assert_eq!(
        element,
        ELEMENT_KEYS.iter().copied().collect::<BTreeSet<_>>()
    );
}
