use super::*;

#[test]
fn reads_what_the_bridge_writes() {
    let got = parse_coverage(
        r#"{"included":[{"url":"https://a.test/","depth":2,"via":"direct"}],"skipped":[{"url":"https://b.test/x","reason":"timeout"}]}"#,
    )
    .unwrap()
    .unwrap();
    let want: FrameCoverage = serde_json::from_str(
        r#"{"included":[{"url":"https://a.test/","depth":2,"via":"direct"}],"skipped":[{"url":"https://b.test/x","reason":"timeout"}]}"#,
    )
    .unwrap();
    assert_eq!(got, want);
    assert_eq!(
        parse_coverage(r#"{"included":[],"skipped":[]}"#).unwrap(),
        Some(FrameCoverage::default())
    );
}

#[test]
fn no_report_is_none() {
    assert_eq!(parse_coverage("").unwrap(), None);
    assert_eq!(parse_coverage("  ").unwrap(), None);
}

#[test]
fn malformed_reports_are_errors() {
    for bad in [
        "null",
        "{",
        "[]",
        r#"{"included":[]}"#,
        r#"{"included":{},"skipped":[]}"#,
        r#"{"included":[{"url":1,"depth":1,"via":"direct"}],"skipped":[]}"#,
        r#"{"included":[{"url":"u","depth":-1,"via":"direct"}],"skipped":[]}"#,
        r#"{"included":[{"url":"u","depth":1.5,"via":"direct"}],"skipped":[]}"#,
        r#"{"included":[],"skipped":[{"url":"u"}]}"#,
    ] {
        let err = parse_coverage(bad).unwrap_err();
        assert!(err.starts_with("invalid frames report"), "{bad}: {err}");
    }
}
