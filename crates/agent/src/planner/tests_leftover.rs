//! Parts of a clause no step carries (`leftover.rs`): visibly true, done
//! before the form is sent, or asked about — never a false "done".
//! Invented pages and phrasings, none of the benchmark's.
use super::tests::{clicked, decide, id, page, typed};
use super::*;
use sentience_snapshot_core::Checked;
use serde_json::json;

/// `p` with the element `el` ticked (the page JSON has no such fact).
fn ticked(mut p: Page, el: &str) -> Page {
    if let Some(k) = p.elements.iter().position(|e| p.id_of(e) == id(el)) {
        p.elements[k].element.state.checked = Some(Checked::TRUE);
    }
    p
}

/// A security form: a backup email, a check box, Save.
fn security(on: bool) -> Page {
    let p = page(
        json!([
            {"id": "mail", "tag": "input", "type": "email", "ariaLabel": "Backup email", "value": "kim@post.test"},
            {"id": "rso", "tag": "input", "type": "checkbox", "text": "Allow remote sign-out"},
            {"id": "save", "tag": "button", "text": "Save"},
        ]),
        "Security Backup email Allow remote sign-out Save",
    );
    if on {
        ticked(p, "rso")
    } else {
        p
    }
}

#[test]
fn a_dropped_clause_naming_a_check_box_is_ticked_before_the_form_is_sent() {
    // The task language keeps the email and the save, and drops "allow
    // remote sign-out" (no verb it knows).
    let task = r#"Backup email "kim@post.test", allow remote sign-out, save"#;
    let mut h = vec![typed("mail", "kim@post.test")];
    assert_eq!(
        decide(task, &security(false), &h),
        Decision::Tool(Tool::Click { id: id("rso") })
    );
    h.push(clicked("rso", "Allow remote sign-out"));
    assert_eq!(
        decide(task, &security(true), &h),
        Decision::Tool(Tool::Click { id: id("save") })
    );
}

/// A card with a note, who signs it, and the order button.
fn card(signed: &str) -> Page {
    page(
        json!([
            {"id": "note", "tag": "textarea", "ariaLabel": "Card note", "value": "Get well soon"},
            {"id": "sig", "tag": "input", "ariaLabel": "Signed by", "value": signed},
            {"id": "order", "tag": "button", "text": "Place order"},
        ]),
        "Card note Signed by Place order",
    )
}

#[test]
fn a_dropped_value_goes_into_the_field_its_words_name_and_lowercase_leftovers_are_let_go() {
    let task =
        r#"Please add a card note saying "Get well soon" signed Priya, then place my order."#;
    let mut h = vec![typed("note", "Get well soon")];
    assert_eq!(
        decide(task, &card(""), &h),
        Decision::Tool(Tool::Type {
            id: id("sig"),
            text: "Priya".into()
        })
    );
    // "card" and "saying" name nothing on the page: the order is placed.
    h.push(typed("sig", "Priya"));
    assert_eq!(
        decide(task, &card("Priya"), &h),
        Decision::Tool(Tool::Click { id: id("order") })
    );
    h.push(clicked("order", "Place order"));
    let d = decide(task, &card("Priya"), &h);
    assert!(matches!(d, Decision::Finish(_)), "{d:?}");
}

#[test]
fn an_unquoted_choice_nothing_shows_is_made_through_its_listbox() {
    let task = "Search for bean stew, tick Vegan and sort by Newest first";
    let p = page(
        json!([
            {"id": "q", "tag": "input", "type": "search", "ariaLabel": "Search", "value": "bean stew"},
            {"id": "go", "tag": "button", "text": "Search"},
            {"id": "vegan", "tag": "input", "type": "checkbox", "text": "Vegan"},
            {"id": "sort", "tag": "div", "role": "combobox", "text": "Relevance ▾", "ariaLabel": "Sort Relevance"},
        ]),
        "Search Vegan Sort Relevance 4 results",
    );
    let p = ticked(p, "vegan");
    let h = [
        typed("q", "bean stew"),
        clicked("go", "Search"),
        clicked("vegan", "Vegan"),
    ];
    assert_eq!(
        decide(task, &p, &h),
        Decision::Tool(Tool::Click { id: id("sort") })
    );
}

#[test]
fn a_dropped_value_nothing_takes_is_asked_about_not_finished() {
    let task = r#"Write a postcard to "Aunt May" from Sam"#;
    let p = page(
        json!([
            {"id": "to", "tag": "input", "ariaLabel": "Postcard to", "value": "Aunt May"},
        ]),
        "Postcard to",
    );
    let d = decide(task, &p, &[typed("to", "Aunt May")]);
    assert!(
        matches!(&d, Decision::Ask(q) if q.contains("from Sam")),
        "{d:?}"
    );
}

/// The parts of the task's clauses are found once per task (`Planner::new`),
/// not per page: one planner asked on page after page decides as a planner
/// made for each page does (a part that depended on the page would be
/// stale on the second).
#[test]
fn one_planner_across_pages_decides_as_a_fresh_one_on_each() {
    let task = r#"Backup email "kim@post.test", allow remote sign-out, save"#;
    let planner = Planner::new(task);
    let mut h = vec![typed("mail", "kim@post.test")];
    for on in [false, true, false] {
        let p = security(on);
        let situation = Situation {
            page: &p,
            history: &h,
            avoid: &[],
            baseline: &Baseline::default(),
        };
        assert_eq!(
            planner.next(&situation),
            decide(task, &p, &h),
            "ticked: {on}"
        );
        h.push(clicked("rso", "Allow remote sign-out"));
    }
}

/// Two toggles with the same words on one page (a "Drum" box among the
/// instruments played, a "Drum" radio for the one learnt first): the box
/// the step ticked accounts for "our band is playing Drum"; the radio of
/// another question is left alone before the form moves on.
#[test]
fn a_part_shown_by_one_toggle_does_not_tick_its_namesake() {
    let els = json!([
        {"id": "c1", "tag": "input", "type": "checkbox", "text": "Drum"},
        {"id": "c2", "tag": "input", "type": "checkbox", "text": "Lute"},
        {"id": "c3", "tag": "input", "type": "checkbox", "text": "Kazoo"},
        {"id": "r1", "tag": "input", "type": "radio", "name": "first", "text": "Drum"},
        {"id": "r2", "tag": "input", "type": "radio", "name": "first", "text": "Lute"},
        {"id": "r3", "tag": "input", "type": "radio", "name": "first", "text": "Kazoo"},
        {"id": "next", "tag": "button", "text": "Next"},
    ]);
    let text = "Band survey Instruments you play Drum Lute Kazoo Which did you learn first? Drum Lute Kazoo Next";
    let task = "Please mark that our band is playing Drum, Lute and Kazoo, then go next";
    let p = ticked(ticked(ticked(page(els, text), "c1"), "c2"), "c3");
    let h = vec![
        clicked("c1", "Drum"),
        clicked("c2", "Lute"),
        clicked("c3", "Kazoo"),
    ];
    assert_eq!(
        decide(task, &p, &h),
        Decision::Tool(Tool::Click { id: id("next") })
    );
}
