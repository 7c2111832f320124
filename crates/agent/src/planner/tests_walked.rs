//! Work a decision does once that it used to do twice: the steps walked
//! once for both the action and `before_submit`'s "is every step before
//! the submit done?", and the page's layout built only when a step reads
//! it. The answers must be the ones the second walk and the eager layout
//! gave. Invented pages and phrasings, none of the benchmark's.
use super::context::Cx;
use super::steps;
use super::tests::{clicked, page, typed};
use super::*;
use serde_json::json;

/// A log-in form: user name, password, the button.
fn login() -> Page {
    page(
        json!([
            {"id": "user", "tag": "input", "type": "text", "ariaLabel": "Username"},
            {"id": "pass", "tag": "input", "type": "password", "ariaLabel": "Password"},
            {"id": "go", "tag": "button", "text": "Sign in"},
        ]),
        "Welcome back Username Password Sign in",
    )
}

/// A front page: the form is behind a "Sign in" link.
fn front() -> Page {
    page(
        json!([
            {"id": "home", "tag": "a", "text": "Home"},
            {"id": "signin", "tag": "a", "text": "Sign in"},
        ]),
        "Home Sign in Our shop",
    )
}

/// Settings behind a tab, and a Save button.
fn settings(open: bool) -> Page {
    let mut els = vec![
        json!({"id": "tab", "tag": "button", "role": "tab", "text": "Privacy", "expanded": open}),
        json!({"id": "save", "tag": "button", "text": "Save"}),
    ];
    if open {
        els.push(
            json!({"id": "share", "tag": "input", "type": "checkbox", "text": "Share usage data"}),
        );
    }
    page(json!(els), "Settings Privacy Share usage data Save")
}

/// An inbox: a message from Kim, and a Send button.
fn inbox() -> Page {
    page(
        json!([
            {"id": "m1", "tag": "a", "text": "Invoice 7 from Kim Lee"},
            {"id": "m2", "tag": "a", "text": "Lunch from Ana"},
            {"id": "sections", "tag": "button", "text": "Shipping", "expanded": true},
            {"id": "billing", "tag": "button", "text": "Billing", "expanded": true},
            {"id": "send", "tag": "button", "text": "Send"},
        ]),
        "Inbox Invoice 7 from Kim Lee Lunch from Ana Shipping Billing Send",
    )
}

/// The invoice opened in place of the list: the list is gone.
fn opened_invoice() -> Page {
    page(
        json!([
            {"id": "back", "tag": "a", "text": "Back to inbox"},
            {"id": "send", "tag": "button", "text": "Send"},
        ]),
        "Invoice 7 Kim Lee Amount due 120 Back to inbox Send",
    )
}

/// The walk's answer for the steps before the last against walking them
/// again without the last one (what `before_submit` did), and its action
/// against `run` over all the steps. True when the step before the last
/// was done in the walk and not when walked alone, or the other way
/// round: the walk's answer alone would have been wrong.
fn check(task: &str, p: &Page, history: &[HistoryEntry]) -> bool {
    let planner = Planner::new(task);
    let all = &planner.intent().steps;
    let baseline = Baseline::default();
    let cx = Cx::new(task, p, history, &[], &baseline);
    let (walked, rest) = steps::walk(&cx, all);
    let ran = steps::run(&cx, all, 0, true);
    assert_eq!(
        describe(&walked),
        describe(&ran),
        "{task}: the walk's outcome"
    );
    let Some(n) = all.len().checked_sub(1) else {
        return false;
    };
    let again = steps::run(&cx, &all[..n], 0, false).is_ok();
    assert_eq!(
        rest.all_but_last_done(&cx, all),
        again,
        "{task}: are the steps before the last done ({} steps)",
        all.len()
    );
    // The whole walk went past the step before the last.
    let passed = rest.at() + 1 >= all.len();
    n >= 1 && passed != again
}

fn describe(r: &Result<usize, steps::Outcome>) -> String {
    match r {
        Ok(c) => format!("all done at {c}"),
        Err(steps::Outcome::Done(c)) => format!("done {c}"),
        Err(steps::Outcome::Act(t)) => format!("act {t:?}"),
        Err(steps::Outcome::Answer(a)) => format!("answer {a}"),
        Err(steps::Outcome::Stuck(w)) => format!("stuck {w}"),
    }
}

#[test]
fn one_walk_answers_what_the_second_walk_before_the_submit_did() {
    let task = r#"Sign in as "kim" with password "hunter22""#;
    check(task, &login(), &[]);
    check(task, &login(), &[typed("user", "kim")]);
    check(
        task,
        &login(),
        &[typed("user", "kim"), typed("pass", "hunter22")],
    );
    // No form here: the fill step reads the step after it (the sign-in
    // it leads to), which the second walk did not show it.
    check(task, &front(), &[]);
    check(task, &front(), &[clicked("home", "Home")]);
    // An open step before the submit reads the step after it too.
    for open in [false, true] {
        let task = "Open the Privacy tab, tick Share usage data and save";
        check(task, &settings(open), &[]);
        check(task, &settings(open), &[clicked("tab", "Privacy")]);
        check("Open the Privacy tab and save", &settings(open), &[]);
        check("Click Privacy then save", &settings(open), &[]);
    }
    check("Save", &settings(false), &[]);
    check("Click Sign in", &front(), &[]);
    // A step whose outcome changes with the step after it: asked again.
    let opened = [clicked("m1", "Invoice 7 from Kim Lee")];
    let mut differs = false;
    // Found and opened, the message replaced the list: done when a step
    // follows it (it was opened for that step), not when none does.
    differs |= check(
        "Find the invoice from Kim and send it",
        &opened_invoice(),
        &opened,
    );
    for task in [
        "Find the invoice from Kim and send it",
        "Find the message from Kim Lee, then click Send",
        "Open all the sections and send",
        "Find Invoice 7 and press Send",
    ] {
        for h in [&opened[..], &[]] {
            differs |= check(task, &inbox(), h);
        }
    }
    assert!(differs, "no case where the step before the last reads it");
}

#[test]
fn the_layout_is_built_only_when_a_step_reads_it() {
    let p = login();
    let baseline = Baseline::default();
    let cx = Cx::new("Sign in", &p, &[], &[], &baseline);
    assert!(!cx.layout.is_built());
    let eager = layout::Layout::new(&p, "Sign in");
    assert_eq!(cx.layout.shows("welcome back"), eager.shows("welcome back"));
    assert!(cx.layout.is_built());
    assert_eq!(
        cx.layout.occurrences("password"),
        eager.occurrences("password")
    );
}
