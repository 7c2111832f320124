use super::*;
use serde_json::json;

#[test]
fn ref_is_an_alias_of_id_in_every_spelling() {
    let t = |v| serde_json::from_value::<Target>(v).unwrap();
    assert_eq!(t(json!({"id": 12})).required().unwrap(), 12);
    assert_eq!(t(json!({"ref": "12"})).required().unwrap(), 12);
    assert_eq!(t(json!({"ref": "e12"})).required().unwrap(), 12);
    assert_eq!(t(json!({"target": "12"})).required().unwrap(), 12);
    assert_eq!(t(json!({"id": 3, "ref": 3})).required().unwrap(), 3);
    assert!(t(json!({"id": 3, "ref": 4})).required().is_err());
    assert!(t(json!({})).required().is_err());
    assert!(t(json!({"ref": "submit"})).required().is_err());
}

#[test]
fn schemas_are_objects_with_their_fields() {
    let s = serde_json::to_value(schemars::schema_for!(TypeParams)).unwrap();
    let props = s["properties"].as_object().unwrap();
    for k in ["id", "ref", "text", "submit"] {
        assert!(props.contains_key(k), "{k} in {s}");
    }
    assert_eq!(s["required"], json!(["text"]));
}
