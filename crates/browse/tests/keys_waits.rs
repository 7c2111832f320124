//! Our `press` and `wait` answers (docs/contracts/browse.md §2 "Keys and
//! waits"): a client whose `task` accepts them gets the key or the pause
//! the planner chose, as the run loop does; a client that does not gets only
//! the contract's four answers, and never a key turned into another (a date
//! picker's Page Up once went out as Enter).

mod common;

use sentience_browse::{Endpoint, Request};

const BUTTONS: &str = r#"<html><head><title>Buttons</title></head><body>
<button id="one">ONE</button> <button id="two">TWO</button></body></html>"#;

const SEARCH: &str = r#"<html><head><title>Find</title></head><body>
<form action="/s"><label>Search <input id="q" name="q"></label>
<button type="submit">Go</button></form></body></html>"#;

/// Each answer's (endpoint, selector, text, key, ms) on an unchanging page.
type Seen = (
    Endpoint,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<u64>,
);

fn converse(task: &str, html: &str, accepts: &[&str], max: usize) -> Vec<Seen> {
    common::answers(task, html, accepts, max)
        .into_iter()
        .map(|a| (a.endpoint, a.selector, a.text, a.key, a.ms))
        .collect()
}

const WAIT_TASK: &str = "Click button ONE, wait 3 seconds, then click button TWO.";

#[test]
fn a_client_that_waits_is_told_to_wait_the_time_the_task_names() {
    let seen = converse(WAIT_TASK, BUTTONS, &["press", "wait"], 4);
    assert_eq!(seen[0].0, Endpoint::Click, "{seen:#?}");
    assert_eq!(seen[0].1.as_deref(), Some("#one"));
    assert_eq!(seen[1].0, Endpoint::Wait, "{seen:#?}");
    assert_eq!(seen[1].4, Some(3000));
    assert_eq!(seen[2].0, Endpoint::Click, "{seen:#?}");
    assert_eq!(seen[2].1.as_deref(), Some("#two"));
}

#[test]
fn a_client_that_does_not_wait_never_gets_a_wait() {
    let seen = converse(WAIT_TASK, BUTTONS, &[], 4);
    assert!(
        seen.iter()
            .all(|s| s.0 != Endpoint::Wait && s.0 != Endpoint::Press),
        "{seen:#?}"
    );
    assert_eq!(seen[0].1.as_deref(), Some("#one"), "{seen:#?}");
    assert_eq!(seen[1].1.as_deref(), Some("#two"), "{seen:#?}");
}

const KEY_TASK: &str = "Type \"cats\" into Search and press Escape.";

#[test]
fn a_client_that_presses_keys_gets_the_key_in_the_field() {
    let seen = converse(KEY_TASK, SEARCH, &["press", "wait"], 5);
    let press = seen
        .iter()
        .find(|s| s.0 == Endpoint::Press)
        .unwrap_or_else(|| panic!("{seen:#?}"));
    assert_eq!(press.3.as_deref(), Some("Escape"), "{seen:#?}");
    assert_eq!(press.1.as_deref(), Some("#q"), "{seen:#?}");
    let json = sentience_browse::Answer::press(
        "The user wants to x".into(),
        Some("#q".into()),
        "Escape".into(),
        1,
    )
    .to_json();
    assert_eq!(
        json,
        r##"{"reason":"The user wants to x","endpoint":"press","selector":"#q","key":"Escape"}"##
    );
    // A key pressed more than once says how many times (a slider's arrow
    // key), capped at the planner's MAX_REPEAT.
    let json =
        sentience_browse::Answer::press("r".into(), Some("#s".into()), "ArrowRight".into(), 9_999)
            .to_json();
    assert_eq!(
        json,
        r##"{"reason":"r","endpoint":"press","selector":"#s","key":"ArrowRight","repeat":500}"##
    );
}

#[test]
fn a_key_other_than_enter_is_never_sent_as_enter() {
    let seen = converse(KEY_TASK, SEARCH, &[], 5);
    assert!(
        seen.iter()
            .all(|s| s.2.as_deref() != Some("\n") && s.0 != Endpoint::Press),
        "Escape went out as Enter or as a press the client did not accept: {seen:#?}"
    );
    eprintln!("{seen:#?}");
    // Enter would submit the form with its button: Escape must not.
    assert!(
        !seen.iter().any(|s| s.0 == Endpoint::Click && s.1.as_deref().is_some_and(|x| x.contains("button"))),
        "Escape went out as a click on the submit button: {seen:#?}"
    );
}

#[test]
fn accepts_is_read_from_the_task_and_checked() {
    let r =
        Request::parse(br#"{"endpoint":"task","html":"","action":"x","accepts":["press","wait"]}"#);
    match r {
        Ok(Request::Task { accepts, .. }) => assert_eq!(accepts, vec!["press", "wait"]),
        other => panic!("{other:?}"),
    }
    let bad = Request::parse(br#"{"endpoint":"task","html":"","action":"x","accepts":"press"}"#);
    assert!(bad.is_err(), "{bad:?}");
    let none = Request::parse(br#"{"endpoint":"task","html":"","action":"x"}"#);
    assert!(
        matches!(none, Ok(Request::Task { ref accepts, .. }) if accepts.is_empty()),
        "{none:?}"
    );
}

#[test]
fn a_wait_is_bounded() {
    let a = sentience_browse::Answer::wait("The user wants to x".into(), 120_000);
    assert_eq!(a.ms, Some(sentience_browse::protocol::MAX_WAIT_MS));
    assert_eq!(
        a.to_json(),
        r#"{"reason":"The user wants to x","endpoint":"wait","ms":10000}"#
    );
}
