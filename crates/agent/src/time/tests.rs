#[test]
fn formats_spec_example() {
    assert_eq!(
        super::iso8601(1_768_824_000_000),
        "2026-01-19T12:00:00.000Z"
    );
}
