//! The planner on the setting of one thing's row or card (docs/agent.md
//! "Carrying the steps out"): "make X a Y", "X's Y to Z", "move X to Y"
//! set the field of the row that names X — not a global form's field of
//! the same name, nor skipped because another row already shows the value
//! — and the row's own "Save" / "Apply" then applies it.
use super::tests::{clicked, decide, id, page, typed};
use super::*;
use serde_json::json;

fn opts(names: &[&str]) -> Vec<serde_json::Value> {
    names
        .iter()
        .map(|n| json!({"value": n.to_lowercase(), "text": n}))
        .collect()
}

/// A roster: each row a Plan select and a Save button; below it a form to
/// add someone, with a Plan select of its own.
fn roster() -> Page {
    let plans = opts(&["Viewer", "Editor", "Owner"]);
    let mut p = page(
        json!([
            {"id": "s1", "tag": "select", "ariaLabel": "Plan", "options": plans, "value": "owner"},
            {"id": "b1", "tag": "button", "text": "Save"},
            {"id": "s2", "tag": "select", "ariaLabel": "Plan", "options": plans, "value": "viewer"},
            {"id": "b2", "tag": "button", "text": "Save"},
            {"id": "s3", "tag": "select", "ariaLabel": "Plan", "options": plans, "value": "viewer"},
            {"id": "b3", "tag": "button", "text": "Save"},
            {"id": "ne", "tag": "input", "type": "email", "label": "Email"},
            {"id": "np", "tag": "select", "label": "Plan", "options": plans, "value": "viewer"},
            {"id": "nb", "tag": "button", "type": "submit", "text": "Add person"},
        ]),
        "Team Name Plan Ines Okoro Owner Save Tomas Berg Viewer Save Wen Li Viewer Save Add a person Email Plan Add person",
    );
    let rows = [
        "Ines Okoro Owner Save",
        "Ines Okoro Owner Save",
        "Tomas Berg Viewer Save",
        "Tomas Berg Viewer Save",
        "Wen Li Viewer Save",
        "Wen Li Viewer Save",
    ];
    for (e, r) in p.elements.iter_mut().zip(rows) {
        e.facts.row = r.to_string();
    }
    for e in p.elements.iter_mut().skip(6) {
        e.facts.form = 1;
    }
    p
}

#[test]
fn a_setting_of_a_named_thing_goes_into_its_rows_field_then_its_own_save() {
    for task in [
        "Make Tomas Berg an editor",
        "Please change Tomas Berg's plan to Editor",
        "Set the plan of Tomas Berg to editor",
    ] {
        assert!(
            matches!(decide(task, &roster(), &[]),
                Decision::Tool(Tool::Type { id: ref e, ref text }) if *e == id("s2") && text.eq_ignore_ascii_case("editor")),
            "{task}"
        );
        // Chosen: the row's own Save applies it, not the form's submit.
        let h = [typed("s2", "Editor")];
        let mut chosen = roster();
        set_value(&mut chosen, 2, "editor");
        assert_eq!(
            decide(task, &chosen, &h),
            Decision::Tool(Tool::Click { id: id("b2") }),
            "{task}"
        );
        let h = [typed("s2", "Editor"), clicked("b2", "Save")];
        assert!(
            matches!(decide(task, &chosen, &h), Decision::Finish(_)),
            "{task}"
        );
    }
}

#[test]
fn another_row_showing_the_value_is_no_sign_the_named_one_does() {
    // Ines is an owner already; Wen is not.
    assert!(matches!(
        decide(r#"Move "Wen Li" to Owner"#, &roster(), &[]),
        Decision::Tool(Tool::Type { id: ref e, .. }) if *e == id("s3")
    ));
}

fn set_value(p: &mut Page, k: usize, v: &str) {
    p.elements[k].facts.value = v.to_string();
    p.elements[k].element.state.value = Some(v.to_string());
}

#[test]
fn a_card_without_row_facts_gets_the_field_after_its_words() {
    let steps = opts(&["Backlog", "Doing", "Shipped"]);
    let p = page(
        json!([
            {"id": "q", "tag": "input", "type": "search", "ariaLabel": "Filter cards"},
            {"id": "c1", "tag": "select", "ariaLabel": "Stage", "options": steps, "value": "backlog", "text": "Backlog"},
            {"id": "c2", "tag": "select", "ariaLabel": "Stage", "options": steps, "value": "backlog", "text": "Backlog"},
            {"id": "c3", "tag": "select", "ariaLabel": "Stage", "options": steps, "value": "shipped", "text": "Shipped"},
        ]),
        "Roadmap ORB-31 Offline sync for notes Backlog ORB-35 Bulk tagging Backlog ORB-20 New onboarding Shipped",
    );
    assert!(matches!(
        decide(r#"Move "ORB-35" to Shipped"#, &p, &[]),
        Decision::Tool(Tool::Type { id: ref e, .. }) if *e == id("c2")
    ));
}
