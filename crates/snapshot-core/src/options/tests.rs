use super::*;

#[test]
fn empty_and_null_are_defaults() {
    assert_eq!(
        SnapshotOptions::parse("").unwrap(),
        SnapshotOptions::default()
    );
    assert_eq!(
        SnapshotOptions::parse("null").unwrap(),
        SnapshotOptions::default()
    );
    assert_eq!(
        SnapshotOptions::parse("{}").unwrap(),
        SnapshotOptions::default()
    );
}

#[test]
fn full_options_parse() {
    let o = SnapshotOptions::parse(
        r#"{"limit":5,"filter":{"min_area":10,"allowed_roles":["button","link"],"min_z_index":1,"in_viewport_only":true},"screenshot":{"format":"jpeg","quality":80}}"#,
    )
    .unwrap();
    assert_eq!(o.limit, Some(5));
    let f = o.filter.clone().unwrap();
    assert_eq!(f.allowed_roles, Some(vec![Role::Button, Role::Link]));
    assert_eq!(o.screenshot_spec().unwrap().format, ImageFormat::Jpeg);
}

#[test]
fn bad_options_are_errors() {
    for bad in [
        r#"{"limt":5}"#,
        r#"{"limit":-1}"#,
        r#"{"limit":"5"}"#,
        r#"{"filter":{"allowed_roles":["heading"]}}"#,
        r#"{"filter":{"min_area":-3}}"#,
        r#"{"screenshot":{"format":"gif"}}"#,
        r#"{"screenshot":{"quality":101}}"#,
        r#"[1,2]"#,
        r#"{"diff":1}"#,
        r#"{"diff":false,"since":3}"#,
        r#"{"since":-1}"#,
        r#"{"since":"3"}"#,
        r#"{"since":0}"#,
        r#"{"wait_for_stable":"yes"}"#,
        r#"{"wait_for_stable":{"quiet":5}}"#,
        r#"{"wait_for_stable":{"timeout_ms":30001}}"#,
        r#"{"wait_for_stable":{"quiet_ms":0}}"#,
        r#"{"wait_for_stable":{"quiet_ms":500,"timeout_ms":100}}"#,
        r#"{"frames":"yes"}"#,
        r#"{"frames":{"timeout":5}}"#,
        r#"{"frames":{"timeout_ms":0}}"#,
        r#"{"frames":{"timeout_ms":10001}}"#,
        r#"{"frames":{"timeout_ms":1.5}}"#,
    ] {
        let err = SnapshotOptions::parse(bad).unwrap_err();
        assert!(err.starts_with("invalid snapshot options"), "{bad}: {err}");
    }
}

#[test]
fn screenshot_annotate_parses() {
    let o =
        SnapshotOptions::parse(r#"{"screenshot":{"format":"jpeg","quality":60,"annotate":true}}"#)
            .unwrap();
    let spec = o.screenshot_spec().unwrap();
    assert_eq!(spec.annotate, Some(true));
    assert_eq!(spec.format, ImageFormat::Jpeg);
    let o = SnapshotOptions::parse(r#"{"screenshot":{"annotate":false}}"#).unwrap();
    assert_eq!(o.screenshot_spec().unwrap().annotate, Some(false));
    let o = SnapshotOptions::parse(r#"{"screenshot":["png",null,true]}"#).unwrap();
    assert_eq!(o.screenshot_spec().unwrap().annotate, Some(true));
}

#[test]
fn bad_annotate_says_what_fits() {
    for bad in [
        r#"{"screenshot":{"annotate":"yes"}}"#,
        r#"{"screenshot":{"annotate":1}}"#,
        r#"{"screenshot":{"anotate":true}}"#,
    ] {
        let err = SnapshotOptions::parse(bad).unwrap_err();
        assert!(
            err.starts_with("invalid snapshot options: "),
            "{bad}: {err}"
        );
        assert!(err.ends_with("annotate?: true|false})"), "{bad}: {err}");
    }
}

#[test]
fn diff_and_stability_options() {
    let o = SnapshotOptions::parse(r#"{"diff":true}"#).unwrap();
    assert!(o.wants_diff());
    let o = SnapshotOptions::parse(r#"{"since":7}"#).unwrap();
    assert!(o.wants_diff());
    assert_eq!(o.since, Some(7));
    assert!(!SnapshotOptions::parse(r#"{"diff":false}"#)
        .unwrap()
        .wants_diff());
    let timing = |json: &str| SnapshotOptions::parse(json).unwrap().stable_timing();
    assert_eq!(timing(r#"{"wait_for_stable":true}"#), Some((200, 3000)));
    assert_eq!(timing(r#"{"wait_for_stable":false}"#), None);
    assert_eq!(timing(r#"{"wait_for_stable":{}}"#), Some((200, 3000)));
    assert_eq!(
        timing(r#"{"wait_for_stable":{"quiet_ms":50,"timeout_ms":800}}"#),
        Some((50, 800))
    );
    // The default quiet period (200 ms) cannot exceed a shorter cap.
    assert!(SnapshotOptions::parse(r#"{"wait_for_stable":{"timeout_ms":100}}"#).is_err());
}

#[test]
fn frames_option() {
    let timeout = |json: &str| SnapshotOptions::parse(json).unwrap().frames_timeout();
    assert_eq!(timeout("{}"), Some(1000));
    assert_eq!(timeout(r#"{"frames":true}"#), Some(1000));
    assert_eq!(timeout(r#"{"frames":null}"#), Some(1000));
    assert_eq!(timeout(r#"{"frames":false}"#), None);
    assert_eq!(timeout(r#"{"frames":{}}"#), Some(1000));
    assert_eq!(timeout(r#"{"frames":{"timeout_ms":250}}"#), Some(250));
    assert_eq!(timeout(r#"{"frames":{"timeout_ms":10000}}"#), Some(10000));
}

#[test]
fn screenshot_true_is_png() {
    let o = SnapshotOptions::parse(r#"{"screenshot":true}"#).unwrap();
    assert_eq!(o.screenshot_spec().unwrap().format, ImageFormat::Png);
    let o = SnapshotOptions::parse(r#"{"screenshot":false}"#).unwrap();
    assert!(o.screenshot_spec().is_none());
}
