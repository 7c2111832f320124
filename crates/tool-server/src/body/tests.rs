use super::*;

#[test]
fn query_values_are_typed_and_decoded() {
    let v = serde_urlencoded_like("session_id=session-1&limit=50&x=a%20b+c").unwrap();
    assert_eq!(v["session_id"], "session-1");
    assert_eq!(v["limit"], 50);
    assert_eq!(v["x"], "a b c");
    assert!(serde_urlencoded_like("a=%zz").is_err());
}
