//! The built-in policy over whole conversations on small pages: the spec's
//! rules hold by construction (click before type, goto before click) and
//! every answer has `reason` first.

use sentience_browse::{builtin_step, Conversation, Endpoint};

const LOGIN: &str = include_str!("../../../tests/pages/login.html");

#[test]
fn login_clicks_each_field_before_typing_then_submits() {
    let mut conv = Conversation::new("Log in as \"alice\" with password \"s3cret\"", None);
    let mut seen = Vec::new();
    for _ in 0..8 {
        let a = builtin_step(&mut conv, LOGIN, Some("http://localhost/login.html"));
        let json = a.to_json();
        assert!(json.starts_with("{\"reason\":"), "{json}");
        seen.push((a.endpoint, a.selector.clone(), a.text.clone()));
        if a.endpoint == Endpoint::Finish || a.selector.as_deref() == Some("form#login button") {
            break;
        }
        if seen.len() == 5 {
            break;
        }
    }
    eprintln!("{seen:#?}");
    assert_eq!(seen[0], (Endpoint::Click, Some("#user".into()), None));
    assert_eq!(
        seen[1],
        (Endpoint::Type, Some("#user".into()), Some("alice".into()))
    );
    assert_eq!(seen[2], (Endpoint::Click, Some("#pass".into()), None));
    assert_eq!(
        seen[3],
        (Endpoint::Type, Some("#pass".into()), Some("s3cret".into()))
    );
    assert_eq!(seen[4].0, Endpoint::Click);
}
