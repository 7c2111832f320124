use super::*;

#[test]
fn tokens_compare_whole() {
    let mut h = HeaderMap::new();
    h.insert(
        header::AUTHORIZATION,
        HeaderValue::from_static("Bearer abc"),
    );
    assert!(token_ok(&h, "abc"));
    assert!(!token_ok(&h, "abcd"));
    assert!(!token_ok(&h, "abd"));
    assert!(!token_ok(&HeaderMap::new(), "abc"));
}
