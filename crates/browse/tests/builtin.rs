//! The built-in policy over whole conversations on small pages: the spec's
//! rules hold by construction (click before type, goto before click) and
//! every answer has `reason` first.

mod common;

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
        // The password is in the task (quoted back as X), never elsewhere in a reason.
        let task = "log in as \"alice\" with password \"s3cret\"";
        assert!(
            !a.reason.replace(task, "").contains("s3cret"),
            "{}",
            a.reason
        );
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

/// Each answer's (endpoint, selector, text) on one unchanging page, until
/// `finish` or `max` answers.
fn converse(task: &str, html: &str, max: usize) -> Vec<(Endpoint, Option<String>, Option<String>)> {
    common::answers(task, html, &[], max)
        .into_iter()
        .map(|a| (a.endpoint, a.selector, a.text))
        .collect()
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

const DEMO_LOGIN: &str = include_str!("../../../demo/login.html");
const DEMO_INDEX: &str = include_str!("../../../demo/index.html");
const DEMO_SEARCH: &str = include_str!("../../../demo/search.html");
const DEMO_WELCOME: &str = include_str!("../../../demo/welcome.html");

/// What a client sends after the page's scripts ran: the demo pages fill
/// their message and results from the URL.
fn rendered(html: &str, from: &str, to: &str) -> String {
    assert!(html.contains(from), "{from:?} not in the page");
    html.replacen(from, to, 1)
}

/// Drives a conversation across pages: `next(answer)` says which HTML the
/// client would be on after carrying the answer out. Returns the answers.
fn drive(
    task: &str,
    first: &str,
    with_url: bool,
    next: impl Fn(&sentience_browse::Answer) -> Option<(String, String)>,
) -> Vec<sentience_browse::Answer> {
    let mut conv = Conversation::new(task, None);
    let mut html = first.to_string();
    let mut url = "http://demo.test/start".to_string();
    let mut out = Vec::new();
    for _ in 0..12 {
        let a = builtin_step(&mut conv, &html, with_url.then_some(url.as_str()));
        out.push(a.clone());
        if a.endpoint == Endpoint::Finish {
            break;
        }
        if let Some((h, u)) = next(&a) {
            html = h;
            url = u;
        }
    }
    out
}

#[test]
fn demo_login_and_search_end_with_finish_with_and_without_urls() {
    let welcome = rendered(
        DEMO_WELCOME,
        "Logged in.",
        "Welcome, alice! You are logged in.",
    );
    let results = rendered(
        DEMO_SEARCH,
        "<ul id=\"results\"></ul>",
        "<ul id=\"results\"><li><a href=\"#\">Rust remover</a></li><li><a href=\"#\">Rustic planter</a></li></ul>",
    );
    let results = rendered(
        &results,
        "<h1 id=\"title\">Search</h1>",
        "<h1 id=\"title\">2 results for \"rust\"</h1>",
    );
    for with_url in [true, false] {
        let login = drive(
            "Log in as \"alice\" with password \"s3cret\"",
            DEMO_LOGIN,
            with_url,
            |a| {
                (a.endpoint == Endpoint::Click
                    && a.selector.as_deref().is_some_and(|s| s.contains("button")))
                .then(|| {
                    (
                        welcome.clone(),
                        "http://demo.test/welcome.html?user=alice".into(),
                    )
                })
            },
        );
        let kinds: Vec<_> = login.iter().map(|a| (a.endpoint, a.text.clone())).collect();
        assert_eq!(
            login.last().map(|a| a.endpoint),
            Some(Endpoint::Finish),
            "{kinds:?}"
        );
        assert!(
            kinds.contains(&(Endpoint::Type, Some("alice".into()))),
            "{kinds:?}"
        );
        assert!(
            kinds.contains(&(Endpoint::Type, Some("s3cret".into()))),
            "{kinds:?}"
        );
        let search = drive("Search for \"rust\"", DEMO_INDEX, with_url, |a| {
            (a.endpoint == Endpoint::Click
                && a.selector.as_deref().is_some_and(|s| s.contains("button")))
            .then(|| {
                (
                    results.clone(),
                    "http://demo.test/search.html?q=rust".into(),
                )
            })
        });
        let kinds: Vec<_> = search
            .iter()
            .map(|a| (a.endpoint, a.selector.clone(), a.text.clone()))
            .collect();
        assert_eq!(
            search.last().map(|a| a.endpoint),
            Some(Endpoint::Finish),
            "{kinds:?}"
        );
        assert!(
            kinds.iter().any(|k| k.2.as_deref() == Some("rust")),
            "{kinds:?}"
        );
    }
}

/// Element ids are positions in one HTML: once the first step of a sign-in
/// is hidden, the password box takes the id the e-mail box had. The
/// conversation remembers what it typed into by selector, so the password
/// is still typed (not taken for typed, and "Next" clicked with it empty).
#[test]
fn what_was_typed_into_is_known_on_the_next_html_even_when_ids_shift() {
    let page = |first_hidden: bool| {
        let (h1, h2) = if first_hidden {
            (" hidden", "")
        } else {
            ("", " hidden")
        };
        format!(
            r##"<html><body><main><div id="s1"{h1}><label for="ident">Email or phone</label><input id="ident"><button id="next" type="button">Next</button></div><div id="s2"{h2}><label for="pass">Enter your password</label><input id="pass" type="password"><button id="next2" type="button">Next</button></div></main></body></html>"##
        )
    };
    let (one, two) = (page(false), page(true));
    let mut conv = Conversation::new(
        r#"Log in as ada@lovelace.dev, password "analytical-engine""#,
        Some("http://localhost/"),
    );
    let mut sent = Vec::new();
    for html in [&one, &one, &one, &two, &two] {
        let a = builtin_step(&mut conv, html, None);
        sent.push((a.endpoint, a.selector, a.text));
    }
    assert_eq!(
        sent[2],
        (Endpoint::Click, Some("#next".into()), None),
        "{sent:?}"
    );
    assert_eq!(
        sent[3],
        (Endpoint::Click, Some("#pass".into()), None),
        "{sent:?}"
    );
    assert_eq!(
        sent[4],
        (
            Endpoint::Type,
            Some("#pass".into()),
            Some("analytical-engine".into())
        ),
        "{sent:?}"
    );
}
