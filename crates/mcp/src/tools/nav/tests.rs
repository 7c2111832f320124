use super::normalise_url;

#[test]
fn urls_get_a_scheme_and_only_web_ones_pass() {
    assert_eq!(
        normalise_url("example.com").ok().as_deref(),
        Some("https://example.com")
    );
    assert_eq!(
        normalise_url("localhost:8080/x").ok().as_deref(),
        Some("http://localhost:8080/x")
    );
    assert_eq!(
        normalise_url(" http://a/b ").ok().as_deref(),
        Some("http://a/b")
    );
    assert!(normalise_url("javascript:alert(1)").is_err());
    assert!(normalise_url("chrome://settings").is_err());
    assert!(normalise_url("").is_err());
}
