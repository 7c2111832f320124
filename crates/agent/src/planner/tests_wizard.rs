//! Forms spread over steps (`steps/wizard.rs`): a value of a definite kind
//! waits for the step whose field is made for it, and the review step's
//! final action is pressed after the step's forward control. Made-up
//! pages (a boat-club membership), with words of their own.
use super::tests::{clicked, decide, id, page, typed};
use super::*;
use serde_json::json;

const TASK: &str = r#"Join the rowing club as "Marit Olsen" with e-mail marit@fjord.no"#;

/// Step 1: name and a free-text field, "Next"; step 2: e-mail, "Back",
/// "Review"; step 3: "Back", "Confirm membership".
fn step(n: u8) -> Page {
    let els = match n {
        1 => json!([
            {"id": "nm", "tag": "input", "type": "text", "ariaLabel": "Member name"},
            {"id": "boat", "tag": "input", "type": "text", "ariaLabel": "Boat class"},
            {"id": "n1", "tag": "button", "type": "button", "text": "Next"},
        ]),
        2 => json!([
            {"id": "em", "tag": "input", "type": "text", "ariaLabel": "Contact e-mail address"},
            {"id": "b2", "tag": "button", "type": "button", "text": "Back"},
            {"id": "n2", "tag": "button", "type": "button", "text": "Review"},
        ]),
        _ => json!([
            {"id": "b3", "tag": "button", "type": "button", "text": "Back"},
            {"id": "fin", "tag": "button", "type": "button", "text": "Confirm membership"},
            {"id": "help", "tag": "a", "text": "Club rules"},
        ]),
    };
    page(els, "Rowing club membership Step of 3")
}

#[test]
fn an_email_waits_for_the_step_whose_field_is_made_for_it() {
    // Not typed into "Boat class": the name first, then on to step 2.
    let d = decide(TASK, &step(1), &[]);
    assert_eq!(
        d,
        Decision::Tool(Tool::Type {
            id: id("nm"),
            text: "Marit Olsen".into()
        })
    );
    let h = [typed("nm", "Marit Olsen")];
    assert_eq!(
        decide(TASK, &step(1), &h),
        Decision::Tool(Tool::Click { id: id("n1") })
    );
    let h = [typed("nm", "Marit Olsen"), clicked("n1", "Next")];
    assert_eq!(
        decide(TASK, &step(2), &h),
        Decision::Tool(Tool::Type {
            id: id("em"),
            text: "marit@fjord.no".into()
        })
    );
}

#[test]
fn the_review_step_is_confirmed_not_reported_done() {
    let h = [
        typed("nm", "Marit Olsen"),
        clicked("n1", "Next"),
        typed("em", "marit@fjord.no"),
    ];
    assert_eq!(
        decide(TASK, &step(2), &h),
        Decision::Tool(Tool::Click { id: id("n2") })
    );
    let mut h = h.to_vec();
    h.push(clicked("n2", "Review"));
    assert_eq!(
        decide(TASK, &step(3), &h),
        Decision::Tool(Tool::Click { id: id("fin") })
    );
    h.push(clicked("fin", "Confirm membership"));
    let done = page(json!([]), "Welcome aboard, your membership is confirmed.");
    let d = decide(TASK, &done, &h);
    assert!(matches!(d, Decision::Finish(_)), "{d:?}");
}

#[test]
fn an_email_goes_into_a_plain_field_when_the_form_has_no_next_step() {
    // One page, no forward control: the only free field takes it as before.
    let p = page(
        json!([
            {"id": "nm", "tag": "input", "type": "text", "ariaLabel": "Member name"},
            {"id": "c", "tag": "input", "type": "text", "ariaLabel": "Contact"},
            {"id": "go", "tag": "button", "type": "submit", "text": "Join"},
        ]),
        "Rowing club",
    );
    let h = [typed("nm", "Marit Olsen")];
    assert_eq!(
        decide(TASK, &p, &h),
        Decision::Tool(Tool::Type {
            id: id("c"),
            text: "marit@fjord.no".into()
        })
    );
}

#[test]
fn a_forward_label_is_told_from_a_final_one() {
    use super::steps::wizard::is_forward;
    assert!(is_forward("Next →"));
    assert!(is_forward("Continue to payment"));
    assert!(!is_forward("Confirm membership"));
    assert!(!is_forward("Place order"));
}
