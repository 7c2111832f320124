use super::*;

#[test]
fn spec_keys_and_combinations_parse() {
    assert_eq!(parse("Enter").unwrap().key, "Enter");
    let c = parse("Ctrl+Shift+T").unwrap();
    assert_eq!(c.modifiers, vec![Modifier::Ctrl, Modifier::Shift]);
    assert_eq!(c.key, "T");
    assert_eq!(c.cdp_modifiers(), 10);
    assert_eq!(parse("alt+tab").unwrap().key, "Tab");
    assert_eq!(parse("Ctrl++").unwrap().key, "+");
    assert_eq!(parse("esc").unwrap().key, "Escape");
    assert_eq!(parse("F5").unwrap().key, "F5");
    assert_eq!(parse("Shift").unwrap().key, "Shift");
}

#[test]
fn unknown_names_are_bad_requests() {
    assert!(parse("Hyper+A").is_err());
    assert!(parse("Blorp").is_err());
    assert!(parse("").is_err());
}
