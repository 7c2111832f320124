use super::*;

#[test]
fn urls_without_scheme_get_https() {
    assert_eq!(normalise_url("outlook.com").unwrap(), "https://outlook.com");
    assert_eq!(normalise_url("http://x/y").unwrap(), "http://x/y");
    assert_eq!(normalise_url("about:blank").unwrap(), "about:blank");
    assert!(normalise_url(" ").is_err());
}

#[test]
fn profile_names_are_safe() {
    assert_eq!(profile_name(None).unwrap(), "default");
    assert!(profile_name(Some("work_2")).is_ok());
    assert!(profile_name(Some("../etc")).is_err());
    assert!(profile_name(Some("")).is_err());
}
