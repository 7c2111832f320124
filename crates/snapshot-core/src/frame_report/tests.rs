use super::*;

fn record(fields: &[&str]) -> String {
    fields.join(&OPT_FIELD.to_string())
}

#[test]
fn reads_both_kinds_of_record() {
    let text = [
        record(&["i", "https://a.test/", "2", "direct"]),
        record(&["s", "https://b.test/x?y", "timeout"]),
        record(&["i", "about:srcdoc", "1", "message"]),
    ]
    .join(&OPT_SEP.to_string());
    let got = decode_report(&text).unwrap();
    let want: FrameCoverage = serde_json::from_str(
        r#"{"included":[{"url":"https://a.test/","depth":2,"via":"direct"},{"url":"about:srcdoc","depth":1,"via":"message"}],"skipped":[{"url":"https://b.test/x?y","reason":"timeout"}]}"#,
    )
    .unwrap();
    assert_eq!(got, want);
}

#[test]
fn an_empty_report_is_no_frames() {
    assert_eq!(decode_report("").unwrap(), FrameCoverage::default());
}

#[test]
fn malformed_reports_are_errors() {
    for bad in [
        record(&["x", "u", "1", "direct"]),
        record(&["ii", "u", "1", "direct"]),
        record(&["i", "u", "-1", "direct"]),
        record(&["i", "u", "1.5", "direct"]),
        record(&["i", "u", "1"]),
        record(&["i", "u", "1", "direct", "more"]),
        record(&["s", "u"]),
        record(&["s", "u", "timeout", "more"]),
        "i".to_string(),
    ] {
        let err = decode_report(&bad).unwrap_err();
        assert!(err.starts_with("invalid frames report"), "{bad:?}: {err}");
    }
}
