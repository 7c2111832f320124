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

/// Runs a conversation on one unchanging page, returning each answer's
/// (endpoint, selector, text) until `finish` or `max` answers.
fn converse(task: &str, html: &str, max: usize) -> Vec<(Endpoint, Option<String>, Option<String>)> {
    let mut conv = Conversation::new(task, Some("http://localhost/"));
    let mut out = Vec::new();
    for _ in 0..max {
        let a = builtin_step(&mut conv, html, None);
        assert!(
            a.to_json().starts_with("{\"reason\":\"The user wants to "),
            "{}",
            a.to_json()
        );
        let done = a.endpoint == Endpoint::Finish;
        out.push((a.endpoint, a.selector, a.text));
        if done {
            break;
        }
    }
    out
}

#[test]
fn search_with_a_button_types_then_clicks_the_button() {
    let html = r#"<html><head><title>Find</title></head><body>
        <form role="search"><input name="q" placeholder="Search"><button>Go</button></form>
        <a href="/about">About</a></body></html>"#;
    let seen = converse("Search for \"rust\"", html, 3);
    assert_eq!(
        seen,
        vec![
            (Endpoint::Click, Some("input[name=\"q\"]".into()), None),
            (
                Endpoint::Type,
                Some("input[name=\"q\"]".into()),
                Some("rust".into())
            ),
            (
                Endpoint::Click,
                Some("body > form:nth-of-type(1) > button:nth-of-type(1)".into()),
                None
            ),
        ]
    );
}

#[test]
fn enter_without_a_submit_button_is_a_newline_typed_after_a_click() {
    let html = r#"<html><body><form><input id="q" type="search" aria-label="Search"></form></body></html>"#;
    let seen = converse("Search for \"rust\"", html, 5);
    assert_eq!(seen[0], (Endpoint::Click, Some("#q".into()), None));
    assert_eq!(
        seen[1],
        (Endpoint::Type, Some("#q".into()), Some("rust".into()))
    );
    // Every `type` is preceded by a click on the same selector.
    for w in seen.windows(2) {
        if w[1].0 == Endpoint::Type {
            assert_eq!((w[0].0, &w[0].1), (Endpoint::Click, &w[1].1), "{seen:?}");
        }
    }
    assert!(
        seen.iter().any(|s| s.2.as_deref() == Some("\n")),
        "Enter should be sent as a newline: {seen:?}"
    );
}

#[test]
fn a_page_with_nothing_relevant_finishes_with_a_reason_instead_of_looping() {
    let html = "<html><head><title>Empty</title></head><body><p>Nothing here.</p></body></html>";
    let mut conv = Conversation::new("Buy a red bicycle", None);
    let a = builtin_step(&mut conv, html, None);
    assert_eq!(a.endpoint, Endpoint::Finish);
    assert!(a.reason.contains("\"Empty\""), "{}", a.reason);
    assert!(a.reason.contains("cannot go on"), "{}", a.reason);
    assert!(conv.finished);
}
