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

/// The walk's answer for the steps before the last against walking them
/// again without the last one (what `before_submit` did), and its action
/// against `run` over all the steps.
fn check(task: &str, p: &Page, history: &[HistoryEntry]) {
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
    if let Some(n) = all.len().checked_sub(1) {
        let again = steps::run(&cx, &all[..n], 0, false).is_ok();
        assert_eq!(
            rest.all_but_last_done(&cx, all),
            again,
            "{task}: are the steps before the last done ({} steps)",
            all.len()
        );
    }
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
