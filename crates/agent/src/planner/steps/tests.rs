//! The step planner on small pages.
use super::*;
use crate::policy::Baseline;
use crate::types::RunMode;

fn page(elements: serde_json::Value, text: &str) -> Page {
    Page::from_json(
        &json!({"url": "http://t/", "title": "t", "visibleText": text, "elements": elements}),
    )
    .expect("page")
}

fn decide(task: &str, p: &Page, history: &[HistoryEntry]) -> Decision {
    let ctx = PolicyContext {
        task,
        mode: RunMode::Autonomous,
        page: p,
        history,
        reflections: &[],
        avoid: &[],
        baseline: &Baseline::default(),
        step: 0,
        user_answers: &[],
    };
    crate::planner::plan(&ctx)
}

fn clicked(id: &str, text: &str) -> HistoryEntry {
    HistoryEntry {
        step_number: 1,
        action: "click".into(),
        observation: "Clicked".into(),
        timestamp: 0,
        parameters: json!({ "id": id }).as_object().cloned(),
        success: Some(true),
        element_text: Some(text.into()),
        bbox: None,
        url: Some("http://t/".into()),
        page_before: Some("a".into()),
        page_after: Some("b".into()),
    }
}

#[test]
fn the_instruction_shown_on_the_page_is_no_evidence() {
    let task = r#"Switch between the tabs to find and click on the link "ut.""#;
    let p = page(
        json!([
            {"id": "t1", "tag": "li", "role": "button", "text": "Tab #1"},
            {"id": "t2", "tag": "li", "role": "button", "text": "Tab #2"},
        ]),
        &format!("{task} Tab #1 Tab #2 Lorem ipsum"),
    );
    let d = decide(task, &p, &[]);
    assert!(matches!(d, Decision::Tool(_)), "{d:?}");
}

#[test]
fn click_the_button_finds_it_by_role_and_finishes_after() {
    let p = page(
        json!([{"id": "b", "tag": "button", "text": "Click Me!"}]),
        "Click the button.",
    );
    let d = decide("Click the button.", &p, &[]);
    assert_eq!(
        d,
        Decision::Tool(Tool::new(ToolName::Click, json!({"id": "b"})))
    );
    let d = decide("Click the button.", &p, &[clicked("b", "Click Me!")]);
    assert!(matches!(d, Decision::Finish(_)), "{d:?}");
}

#[test]
fn a_set_is_ticked_exactly_then_submitted() {
    let p = page(
        json!([
            {"id": "a", "tag": "input", "type": "checkbox", "text": "Apples"},
            {"id": "b", "tag": "input", "type": "checkbox", "text": "Bananas"},
            {"id": "s", "tag": "button", "text": "Submit"},
        ]),
        "",
    );
    let d = decide("Select Apples and click Submit", &p, &[]);
    assert_eq!(
        d,
        Decision::Tool(Tool::new(ToolName::Click, json!({"id": "a"})))
    );
}

#[test]
fn an_intermediate_click_counts_even_when_nothing_changes_the_last_must_show() {
    let p = page(
        json!([
            {"id": "one", "tag": "button", "text": "ONE"},
            {"id": "two", "tag": "button", "text": "TWO"},
        ]),
        "",
    );
    let mut h = clicked("one", "ONE");
    h.page_after = h.page_before.clone();
    let task = "Click button ONE, then click button TWO.";
    let d = decide(task, &p, std::slice::from_ref(&h));
    assert_eq!(
        d,
        Decision::Tool(Tool::new(ToolName::Click, json!({"id": "two"})))
    );
    // The final click changed nothing: not done, so not finished.
    let mut h2 = clicked("two", "TWO");
    h2.page_after = h2.page_before.clone();
    let d = decide(task, &p, &[h, h2]);
    assert!(!matches!(d, Decision::Finish(_)), "{d:?}");
}
