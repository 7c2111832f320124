//! The built-in policy on pages built to tempt it (the same HTML as
//! tests/e2e/browse.test.mjs): a search box on the front page when the task
//! is a log-in, a field that must be clicked to be revealed, and a click
//! that changes nothing. Each conversation is driven across the pages a
//! client would be on after carrying out each answer.

use sentience_browse::{builtin_step, Answer, Conversation, Endpoint};

const DEMO_INDEX: &str = include_str!("../../../demo/index.html");
const DEMO_LOGIN: &str = include_str!("../../../demo/login.html");
const DEMO_WELCOME: &str = include_str!("../../../demo/welcome.html");
const REVEAL: &str = include_str!("../../../tests/pages/browse/tempt-reveal.html");

/// (endpoint, selector, text) of an answer, for readable assertions.
type Step = (Endpoint, Option<String>, Option<String>);

fn step(a: &Answer) -> Step {
    (a.endpoint, a.selector.clone(), a.text.clone())
}

/// Replaces `from` by `to` once, failing if the page does not contain it
/// (so a changed fixture cannot make the test vacuous).
fn edit(html: &str, from: &str, to: &str) -> String {
    assert!(html.contains(from), "{from:?} not in the page");
    html.replacen(from, to, 1)
}

/// Every `type` directly follows a click on the same selector
/// (docs/contracts/browse.md "You need to click a selector before typing into it").
fn assert_click_before_type(seen: &[Step]) {
    for (i, s) in seen.iter().enumerate() {
        if s.0 == Endpoint::Type {
            let before = i.checked_sub(1).map(|j| (seen[j].0, &seen[j].1));
            assert_eq!(before, Some((Endpoint::Click, &s.1)), "{seen:#?}");
        }
    }
}

/// The demo store's log-in from its front page, where a search box is the
/// only field: the user name is not a search term, so the policy follows the
/// "Log in" link first and types only on the log-in page.
#[test]
fn demo_login_from_the_front_page_goes_to_the_login_page_before_typing() {
    let welcome = edit(
        DEMO_WELCOME,
        "Logged in.",
        "Welcome, alice! You are logged in.",
    );
    for with_url in [true, false] {
        let mut conv = Conversation::new("Log in as \"alice\" with password \"s3cret\"", None);
        let (mut html, mut url) = (DEMO_INDEX.to_string(), "http://demo.test/index.html");
        let mut seen: Vec<(Step, &str)> = Vec::new();
        for _ in 0..10 {
            let a = builtin_step(&mut conv, &html, with_url.then_some(url));
            seen.push((step(&a), url));
            if a.endpoint == Endpoint::Finish {
                break;
            }
            let sel = a.selector.as_deref().unwrap_or_default();
            if sel == "a[href=\"login.html\"]" {
                (html, url) = (DEMO_LOGIN.to_string(), "http://demo.test/login.html");
            } else if a.endpoint == Endpoint::Click && sel.contains("button") {
                (html, url) = (welcome.clone(), "http://demo.test/welcome.html?user=alice");
            }
        }
        let steps: Vec<Step> = seen.iter().map(|(s, _)| s.clone()).collect();
        assert_eq!(
            steps[0],
            (Endpoint::Click, Some("a[href=\"login.html\"]".into()), None),
            "the first answer follows the Log in link: {seen:#?}"
        );
        let typed: Vec<(&str, &str)> = seen
            .iter()
            .filter(|(s, _)| s.0 == Endpoint::Type)
            .map(|(s, u)| (s.2.as_deref().unwrap_or_default(), *u))
            .collect();
        assert_eq!(
            typed,
            vec![
                ("alice", "http://demo.test/login.html"),
                ("s3cret", "http://demo.test/login.html")
            ],
            "{seen:#?}"
        );
        assert!(
            !steps
                .iter()
                .any(|s| s.1.as_deref() == Some("input[name=\"q\"]")),
            "the search box is never touched: {seen:#?}"
        );
        assert_click_before_type(&steps);
        let last = seen.last().map(|(s, u)| (s.0, *u));
        assert_eq!(
            last,
            Some((Endpoint::Finish, "http://demo.test/welcome.html?user=alice")),
            "{seen:#?}"
        );
    }
}

/// tests/pages/browse/tempt-reveal.html: the coupon field is hidden until
/// "Add a coupon code" is clicked. The policy reveals it, then (the history
/// saying the click was done and the page now showing the field) clicks and
/// types into the field, applies, and finishes on the success message.
#[test]
fn coupon_field_revealed_by_a_click_is_clicked_then_typed_into_then_applied() {
    let revealed = edit(
        REVEAL,
        "<div id=\"coupon-box\" hidden>",
        "<div id=\"coupon-box\">",
    );
    // What the client sends once "SPRING20" was typed (docs/browse.md: form
    // values are written back as attributes) and once Apply was clicked.
    let filled = edit(
        &revealed,
        "<input id=\"coupon\" name=\"coupon\">",
        "<input id=\"coupon\" name=\"coupon\" value=\"SPRING20\">",
    );
    let applied = edit(
        &filled,
        "<p id=\"status\"></p>",
        "<p id=\"status\">Coupon SPRING20 applied: you save €2.40</p>",
    );
    let mut conv = Conversation::new("Apply the coupon code \"SPRING20\"", None);
    let mut html = REVEAL.to_string();
    let mut seen: Vec<Step> = Vec::new();
    for _ in 0..10 {
        let a = builtin_step(&mut conv, &html, Some("http://shop.test/basket.html"));
        seen.push(step(&a));
        match (a.endpoint, a.selector.as_deref()) {
            (Endpoint::Finish, _) => break,
            (Endpoint::Click, Some("#add-coupon")) => html = revealed.clone(),
            (Endpoint::Type, Some("#coupon")) => html = filled.clone(),
            (Endpoint::Click, Some("#apply")) if html == filled => html = applied.clone(),
            _ => {}
        }
    }
    let click = |s: &str| (Endpoint::Click, Some(s.to_string()), None);
    assert_eq!(
        seen[..4],
        [
            click("#add-coupon"),
            click("#coupon"),
            (
                Endpoint::Type,
                Some("#coupon".into()),
                Some("SPRING20".into())
            ),
            click("#apply"),
        ],
        "{seen:#?}"
    );
    assert_eq!(seen.len(), 5, "finishes once applied: {seen:#?}");
    assert_eq!(seen[4].0, Endpoint::Finish);
    assert!(
        conv.finished,
        "the conversation is over after the finish answer"
    );
}

/// A click that changes nothing (the client's page stays the same) is not
/// answered again and again: after the run API's loop limit the policy
/// avoids it, as a run does (docs/contracts/run-api.md §13 reflections).
#[test]
fn a_click_that_changes_nothing_is_not_repeated_without_end() {
    let mut conv = Conversation::new("Apply the coupon code \"SPRING20\"", None);
    let mut seen: Vec<Step> = Vec::new();
    for _ in 0..20 {
        let a = builtin_step(&mut conv, REVEAL, Some("http://shop.test/basket.html"));
        seen.push(step(&a));
        if a.endpoint == Endpoint::Finish {
            break;
        }
    }
    let same = seen
        .iter()
        .filter(|s| s.1.as_deref() == Some("#add-coupon"))
        .count();
    assert!((1..=3).contains(&same), "{seen:#?}");
    assert_eq!(
        seen.last().map(|s| s.0),
        Some(Endpoint::Finish),
        "{seen:#?}"
    );
}
