//! Page understanding that no task wording names (`steps/consent.rs`,
//! `refused.rs`, `repeated.rs`): a consent box ticked before its form is
//! sent (never an opt-in), a refused submit never reported done, an
//! action that changed nothing not repeated. Made-up pages, with words
//! of their own.
use super::tests::{clicked, decide, did, id, page, typed};
use super::*;
use sentience_snapshot_core::Checked;
use serde_json::json;

const URL: &str = "http://t/";

/// A kayak-hire form: one field, a consent box, an opt-in, a send button.
fn hire(consent: &str, disabled: bool, message: &str) -> Page {
    page(
        json!([
            {"id": "who", "tag": "input", "type": "text", "ariaLabel": "Hirer name"},
            {"id": "ok", "tag": "input", "type": "checkbox", "text": consent},
            {"id": "digest", "tag": "input", "type": "checkbox", "text": "Send me the monthly paddling digest"},
            {"id": "go", "tag": "button", "type": "submit", "text": "Reserve kayak", "disabled": disabled},
        ]),
        &format!("Kayak hire Hirer name {consent} Send me the monthly paddling digest Reserve kayak\n{message}"),
    )
}

fn tick(p: &mut Page, el: &str) {
    if let Some(k) = p.elements.iter().position(|e| p.id_of(e) == id(el)) {
        p.elements[k].element.state.checked = Some(Checked::TRUE);
    }
}

const TASK: &str = r#"Reserve a kayak, hirer name "Tomas Eriksen""#;

#[test]
fn an_agreement_box_is_ticked_before_the_form_is_sent_and_an_opt_in_is_not() {
    let p = hire("I accept the hire agreement and safety rules", false, "");
    let typed_name = [typed("who", "Tomas Eriksen")];
    assert_eq!(
        decide(TASK, &p, &typed_name),
        Decision::Tool(Tool::Click { id: id("ok") })
    );
    let mut ticked = p.clone();
    tick(&mut ticked, "ok");
    let h = [typed_name[0].clone(), clicked("ok", "I accept")];
    assert_eq!(
        decide(TASK, &ticked, &h),
        Decision::Tool(Tool::Click { id: id("go") })
    );
}

#[test]
fn a_first_person_fact_is_no_consent_unless_the_button_waits_for_it() {
    let said = "I will wear the buoyancy aid provided";
    // Enabled button, no agreement words: sent as it is.
    let p = hire(said, false, "");
    assert_eq!(
        decide(TASK, &p, &[typed("who", "Tomas Eriksen")]),
        Decision::Tool(Tool::Click { id: id("go") })
    );
    // The button is disabled until it is ticked: ticked.
    let p = hire(said, true, "");
    assert_eq!(
        decide(TASK, &p, &[typed("who", "Tomas Eriksen")]),
        Decision::Tool(Tool::Click { id: id("ok") })
    );
}

#[test]
fn a_box_marked_required_is_ticked() {
    let mut p = hire("Hirer is 16 or older", false, "");
    if let Some(k) = p.elements.iter().position(|e| p.id_of(e) == id("ok")) {
        p.elements[k].element.state.required = Some(true);
    }
    assert_eq!(
        decide(TASK, &p, &[typed("who", "Tomas Eriksen")]),
        Decision::Tool(Tool::Click { id: id("ok") })
    );
}

#[test]
fn a_refused_submit_is_not_done_the_box_it_names_is_ticked_and_the_form_sent_again() {
    let sent = [
        typed("who", "Tomas Eriksen"),
        clicked("go", "Reserve kayak"),
    ];
    // No agreement words, no required mark: only the message names it.
    let p = hire(
        "Hirer has paddled before",
        false,
        "Please confirm the hirer has paddled before.",
    );
    assert_eq!(
        decide(TASK, &p, &sent),
        Decision::Tool(Tool::Click { id: id("ok") })
    );
    let mut ticked = p.clone();
    tick(&mut ticked, "ok");
    let mut h = sent.to_vec();
    h.push(clicked("ok", "Hirer has paddled before"));
    assert_eq!(
        decide(TASK, &ticked, &h),
        Decision::Tool(Tool::Click { id: id("go") })
    );
}

#[test]
fn a_refused_submit_nothing_here_fixes_is_asked_about_quoting_the_page() {
    let p = page(
        json!([
            {"id": "who", "tag": "input", "type": "text", "ariaLabel": "Hirer name"},
            {"id": "go", "tag": "button", "type": "submit", "text": "Reserve kayak"},
        ]),
        "Kayak hire Hirer name Reserve kayak Sunday slots are full, please choose a weekday.\nPick-up time is required.",
    );
    let sent = [
        typed("who", "Tomas Eriksen"),
        clicked("go", "Reserve kayak"),
    ];
    let d = decide(TASK, &p, &sent);
    assert!(
        matches!(&d, Decision::Ask(q) if q.contains("Pick-up time is required")),
        "{d:?}"
    );
    // A legend that says which fields are required refuses nothing.
    let p = page(
        json!([
            {"id": "who", "tag": "input", "type": "text", "ariaLabel": "Hirer name *"},
            {"id": "go", "tag": "button", "type": "submit", "text": "Reserve kayak"},
        ]),
        "Kayak hire Fields marked * are required.\nHirer name * Reserve kayak\nCheck your inbox to confirm.\nWe do not share your details. Names must be under 40 letters.",
    );
    let d = decide(TASK, &p, &sent);
    assert!(matches!(d, Decision::Finish(_)), "{d:?}");
}

#[test]
fn an_action_that_changed_nothing_twice_is_not_done_a_third_time() {
    let p = page(
        json!([
            {"id": "code", "tag": "input", "type": "text", "ariaLabel": "Voucher code"},
            {"id": "use", "tag": "button", "text": "Redeem"},
        ]),
        "Voucher code Redeem",
    );
    let baseline = Baseline::default();
    let enter = Tool::Press {
        key: "Enter".into(),
        id: Some(id("code")),
        repeat: None,
    };
    let pressed = |changed: bool| {
        did(
            "press",
            serde_json::Value::Object(enter.parameters()),
            "",
            URL,
            changed,
        )
    };
    let unchanged = |h: &[crate::types::HistoryEntry]| {
        repeated::unchanged(&Cx::new("t", &p, h, &[], &baseline), &enter)
    };
    assert!(!unchanged(&[pressed(false)]));
    // Twice with the page changed each time: a stepper, a guess; allowed.
    assert!(!unchanged(&[pressed(true), pressed(true)]));
    assert!(unchanged(&[pressed(false), pressed(false)]));
    let cx = Cx::new("t", &p, &[], &[], &baseline);
    assert!(repeated::why(&cx, &enter).contains("pressing Enter 2 times changed nothing"));
    // A click that changed nothing twice: the planner does not make it again.
    let same = || did("click", json!({"id": "use"}), "Redeem", URL, false);
    let d = decide(r#"Click "Redeem""#, &p, &[same(), same()]);
    assert_ne!(d, Decision::Tool(Tool::Click { id: id("use") }));
}

#[test]
fn a_refused_submit_that_names_an_empty_list_sets_the_option_the_task_names() {
    let mut p = page(
        json!([
            {"id": "who", "tag": "input", "type": "text", "ariaLabel": "Hirer name"},
            {"id": "boat", "tag": "select", "ariaLabel": "Craft"},
            {"id": "go", "tag": "button", "type": "submit", "text": "Reserve"},
        ]),
        "Boat hire Hirer name Craft Reserve\nChoose a craft.",
    );
    let opts = [
        "Pick one",
        "Canoe for two",
        "Sit-on-top kayak",
        "Paddleboard",
    ];
    if let Some(k) = p.elements.iter().position(|e| p.id_of(e) == id("boat")) {
        p.elements[k].element.state.options = Some(
            opts.iter()
                .enumerate()
                .map(|(i, t)| sentience_snapshot_core::SelectOption {
                    text: t.to_string(),
                    value: if i == 0 { String::new() } else { i.to_string() },
                    selected: i == 0,
                })
                .collect(),
        );
    }
    let task = r#"Reserve a paddleboard, hirer name "Tomas Eriksen""#;
    let sent = [typed("who", "Tomas Eriksen"), clicked("go", "Reserve")];
    assert_eq!(
        decide(task, &p, &sent),
        Decision::Tool(Tool::Type {
            id: id("boat"),
            text: "Paddleboard".into()
        })
    );
}
