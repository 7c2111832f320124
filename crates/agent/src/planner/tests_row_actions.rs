//! The planner on a row's actions (docs/agent.md "Carrying out the
//! steps"): a control repeated in every row acts on the row whose words
//! hold the item (DomFacts::row), a row's menu is opened by the row's own
//! "⋯" (`aria-haspopup`, DomFacts::has_popup) even when it says nothing
//! of the row, and a confirmation behind which other rows are occluded is
//! answered in the dialog.
use super::tests::{clicked, decide, id, page};
use super::*;
use serde_json::json;

/// A page whose elements get the DOM facts the run-API shape leaves out.
fn with_facts(mut p: Page, facts: &[(&str, bool, &str)]) -> Page {
    for (e, (_, popup, row)) in p.elements.iter_mut().zip(facts) {
        e.facts.has_popup = *popup;
        e.facts.row = row.to_string();
    }
    p
}

fn members() -> Page {
    let p = page(
        json!([
            {"id": "m1", "tag": "button", "text": "⋯", "ariaLabel": "More actions for Grace Liu"},
            {"id": "m2", "tag": "button", "text": "⋯", "ariaLabel": "More actions for Priya Nair"},
            {"id": "m3", "tag": "button", "text": "⋯", "ariaLabel": "More actions for Quinn Harper"},
        ]),
        "Members Name Email Role Grace Liu grace@harbor.test Member ⋯ Priya Nair priya@harbor.test Member ⋯ Quinn Harper quinn@harbor.test Member ⋯",
    );
    with_facts(
        p,
        &[
            ("m1", true, "Grace Liu grace@harbor.test Member ⋯"),
            ("m2", true, "Priya Nair priya@harbor.test Member ⋯"),
            ("m3", true, "Quinn Harper quinn@harbor.test Member ⋯"),
        ],
    )
}

#[test]
fn a_verb_on_an_item_of_a_page_without_fields_opens_that_rows_menu_then_acts() {
    let task = r#"Suspend "Priya Nair""#;
    assert_eq!(
        decide(task, &members(), &[]),
        Decision::Tool(Tool::Click { id: id("m2") })
    );
    // The menu is open: its "Suspend", not another row's menu.
    let open = with_facts(
        page(
            json!([
                {"id": "m1", "tag": "button", "text": "⋯", "ariaLabel": "More actions for Grace Liu"},
                {"id": "m2", "tag": "button", "text": "⋯", "ariaLabel": "More actions for Priya Nair"},
                {"id": "m3", "tag": "button", "text": "⋯", "ariaLabel": "More actions for Quinn Harper"},
                {"id": "e", "tag": "div", "role": "menuitem", "text": "Edit role"},
                {"id": "s", "tag": "div", "role": "menuitem", "text": "Suspend"},
                {"id": "r", "tag": "div", "role": "menuitem", "text": "Remove from workspace"},
            ]),
            "Members Name Email Role Grace Liu grace@harbor.test Member ⋯ Priya Nair priya@harbor.test Member ⋯ Quinn Harper quinn@harbor.test Member ⋯ Edit role Suspend Remove from workspace",
        ),
        &[
            ("m1", true, "Grace Liu grace@harbor.test Member ⋯"),
            ("m2", true, "Priya Nair priya@harbor.test Member ⋯"),
            ("m3", true, "Quinn Harper quinn@harbor.test Member ⋯"),
        ],
    );
    let h = [clicked("m2", "⋯")];
    assert_eq!(
        decide(task, &open, &h),
        Decision::Tool(Tool::Click { id: id("s") })
    );
    // Done once "Suspend" was clicked, although the menu closed with it.
    let h = [clicked("m2", "⋯"), clicked("s", "Suspend")];
    assert!(matches!(decide(task, &members(), &h), Decision::Finish(_)));
}

#[test]
fn an_icon_menu_named_only_more_options_is_the_one_in_the_items_row() {
    let p = page(
        json!([
            {"id": "f1", "tag": "button", "ariaLabel": "More options"},
            {"id": "f2", "tag": "button", "ariaLabel": "More options"},
            {"id": "f3", "tag": "button", "ariaLabel": "More options"},
        ]),
        "My files Budget 2027.xlsx Nov 20 Q3 report.pdf Oct 31 Q3 report draft.pdf Oct 28",
    );
    let p = with_facts(
        p,
        &[
            ("f1", true, "Budget 2027.xlsx Nov 20"),
            ("f2", true, "Q3 report.pdf Oct 31"),
            ("f3", true, "Q3 report draft.pdf Oct 28"),
        ],
    );
    assert_eq!(
        decide(r#"Make a copy of "Q3 report.pdf""#, &p, &[]),
        Decision::Tool(Tool::Click { id: id("f2") })
    );
}

#[test]
fn a_repeated_row_button_acts_on_its_row_and_the_modal_confirms_it() {
    let rows = json!([
        {"id": "r1", "tag": "button", "text": "Revoke"},
        {"id": "r2", "tag": "button", "text": "Revoke"},
        {"id": "r3", "tag": "button", "text": "Revoke"},
    ]);
    let facts = [
        ("r1", false, "production-web rk_live_…9f2c Today Revoke"),
        ("r2", false, "ci-deploy rk_live_…41ab Yesterday Revoke"),
        ("r3", false, "staging rk_test_…7d10 Nov 2 Revoke"),
    ];
    let text = "API keys production-web rk_live_…9f2c Today Revoke ci-deploy rk_live_…41ab Yesterday Revoke staging rk_test_…7d10 Nov 2 Revoke";
    let p = with_facts(page(rows.clone(), text), &facts);
    let task = r#"Revoke the key "ci-deploy""#;
    assert_eq!(
        decide(task, &p, &[]),
        Decision::Tool(Tool::Click { id: id("r2") })
    );
    // A modal asks; the rows behind it are occluded: its own "Revoke".
    let mut els = rows;
    let list = els.as_array_mut().expect("array");
    list.push(json!({"id": "keep", "tag": "button", "text": "Keep key"}));
    list.push(json!({"id": "yes", "tag": "button", "text": "Revoke"}));
    let mut p = with_facts(
        page(
            els,
            &format!("{text} Revoke this key? Services using “ci-deploy” will get 401 errors. This cannot be undone. Keep key Revoke"),
        ),
        &facts,
    );
    for e in p.elements.iter_mut().take(3) {
        e.element.is_occluded = true;
    }
    assert_eq!(
        decide(task, &p, &[clicked("r2", "Revoke")]),
        Decision::Tool(Tool::Click { id: id("yes") })
    );
}
