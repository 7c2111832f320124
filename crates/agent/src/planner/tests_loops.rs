//! Loops over the page's answers (`loops/`): a guess narrowed by "too
//! high / too low", a command typed into a console and its output read.
use super::tests::{decide, did, id, page, typed};
use super::*;
use serde_json::json;

fn game(feedback: &str) -> Page {
    page(
        json!([
            {"id": "g", "tag": "input", "type": "number", "label": "Your guess ($)", "form": 1,
             "bbox": {"x": 10, "y": 200, "width": 140, "height": 30}},
            {"id": "go", "tag": "button", "type": "submit", "text": "Guess", "form": 1,
             "bbox": {"x": 160, "y": 200, "width": 80, "height": 30}},
        ]),
        &format!(
            "Guess the mystery box, win it\nIt is worth between 1 and 1000 dollars: we tell you whether to go higher or lower.\nYour guess ($)\nGuess\n{feedback}\nNo purchase necessary."
        ),
    )
}

fn entered() -> HistoryEntry {
    did(
        "press",
        json!({"id": "g", "key": "Enter"}),
        "",
        "http://t/",
        true,
    )
}

const TASK: &str = "Guess the mystery box value";

#[test]
fn a_guess_starts_in_the_middle_of_the_range_the_page_states() {
    assert_eq!(
        decide(TASK, &game(""), &[]),
        Decision::Tool(Tool::Type {
            id: id("g"),
            text: "500".into()
        })
    );
    // Typed, not yet sent: sent by the button after the box.
    assert_eq!(
        decide(TASK, &game(""), &[typed("g", "500")]),
        Decision::Tool(Tool::Click { id: id("go") })
    );
}

#[test]
fn each_answer_halves_what_is_left_and_the_history_remembers_the_range() {
    let h = [typed("g", "500"), entered()];
    assert_eq!(
        decide(TASK, &game("Too low, try a higher number."), &h),
        Decision::Tool(Tool::Type {
            id: id("g"),
            text: "750".into()
        })
    );
    // 500 too low, then 750 too high: between 501 and 749.
    let h = [typed("g", "500"), entered(), typed("g", "750"), entered()];
    assert_eq!(
        decide(TASK, &game("Too high, try a lower number."), &h),
        Decision::Tool(Tool::Type {
            id: id("g"),
            text: "625".into()
        })
    );
    let h = [
        typed("g", "500"),
        entered(),
        typed("g", "750"),
        entered(),
        typed("g", "625"),
        entered(),
    ];
    assert!(matches!(
        decide(TASK, &game("Correct! The box is worth $625."), &h),
        Decision::Finish(r) if r.contains("625")
    ));
}

fn console(output: &str) -> Page {
    page(
        json!([
            {"id": "cmd", "tag": "input", "type": "text",
             "bbox": {"x": 150, "y": 400, "width": 500, "height": 20}},
        ]),
        &format!("relay-prod-2\nSerial console. Type help for commands.\n{output}ops@relay-prod-2:~$\nSessions close after 15 minutes."),
    )
}

#[test]
fn a_command_is_typed_into_the_console_run_with_enter_and_its_output_read() {
    let task = "Run \"version\" in the console and tell me the version";
    assert_eq!(
        decide(task, &console(""), &[]),
        Decision::Tool(Tool::Type {
            id: id("cmd"),
            text: "version".into()
        })
    );
    assert_eq!(
        decide(task, &console(""), &[typed("cmd", "version")]),
        Decision::Tool(Tool::Press {
            key: "Enter".into(),
            id: Some(id("cmd")),
            repeat: None
        })
    );
    let ran = [
        typed("cmd", "version"),
        did(
            "press",
            json!({"id": "cmd", "key": "Enter"}),
            "",
            "http://t/",
            true,
        ),
    ];
    assert_eq!(
        decide(
            task,
            &console("ops@relay-prod-2:~$ version\nrelay-agent 4.12.3 (build 8812)\n"),
            &ran
        ),
        Decision::Finish("relay-agent 4.12.3 (build 8812)".into())
    );
}

#[test]
fn a_lone_box_is_no_console_unless_the_task_says_so() {
    // "command" alone (a search box's page) does not make the box a console.
    let d = decide("Search the command reference for grep", &console(""), &[]);
    assert_ne!(
        d,
        Decision::Tool(Tool::Type {
            id: id("cmd"),
            text: "reference".into()
        })
    );
}

fn quote(price: &str) -> Page {
    page(
        json!([
            {"id": "buy", "tag": "button", "text": "Buy", "bbox": {"x": 10, "y": 300, "width": 60, "height": 30}},
        ]),
        &format!("NASDAQ · Real-time\nNovalight Inc (NVLT)\n{price} −0.4%\nShares\nBuy\nMarket order · executes at the current price"),
    )
}

#[test]
fn an_action_waits_for_a_changing_value_to_meet_its_condition() {
    let task = "Click Buy when the price drops below $40";
    // "the price" is followed by no number: the page's first amount is read.
    assert_eq!(
        decide(task, &quote("$46.20"), &[]),
        Decision::Tool(Tool::Observe { wait_ms: Some(500) })
    );
    let looked = [did(
        "observe",
        json!({"waitMs": 500}),
        "",
        "http://t/",
        true,
    )];
    assert_eq!(
        decide(task, &quote("$39.70"), &looked),
        Decision::Tool(Tool::Click { id: id("buy") })
    );
}

fn offers(shown: [Option<&str>; 3]) -> Page {
    let names = ["Dario P.", "Marta K.", "Lee W."];
    let mut els = Vec::new();
    let mut text = String::from("Road bike\nListed 3 days ago · Asking $1,250 · 3 offers\n");
    for (k, s) in shown.iter().enumerate() {
        let y = 100 + 120 * k as i64;
        let toggle = if s.is_some() {
            "Hide offer"
        } else {
            "Show offer"
        };
        els.push(json!({"id": format!("s{k}"), "tag": "button", "text": toggle, "bbox": {"x": 10, "y": y, "width": 90, "height": 30}}));
        els.push(json!({"id": format!("a{k}"), "tag": "button", "text": "Accept", "bbox": {"x": 110, "y": y, "width": 70, "height": 30}}));
        text.push_str(&format!(
            "{}\n{}\n{toggle}\nAccept\n",
            names[k],
            s.unwrap_or("$•,•••")
        ));
    }
    page(serde_json::Value::Array(els), &text)
}

#[test]
fn values_shown_only_when_clicked_are_revealed_before_the_highest_is_chosen() {
    let task = "Accept the highest offer";
    assert_eq!(
        decide(task, &offers([None, None, None]), &[]),
        Decision::Tool(Tool::Click { id: id("s0") })
    );
    let shown_one = [did(
        "click",
        json!({"id": "s0"}),
        "Show offer",
        "http://t/",
        true,
    )];
    assert_eq!(
        decide(task, &offers([Some("$1,120"), None, None]), &shown_one),
        Decision::Tool(Tool::Click { id: id("s1") })
    );
    let all = [
        did(
            "click",
            json!({"id": "s0"}),
            "Show offer",
            "http://t/",
            true,
        ),
        did(
            "click",
            json!({"id": "s1"}),
            "Show offer",
            "http://t/",
            true,
        ),
        did(
            "click",
            json!({"id": "s2"}),
            "Show offer",
            "http://t/",
            true,
        ),
    ];
    // The asking price above the first card is no card's value.
    assert_eq!(
        decide(
            task,
            &offers([Some("$1,120"), Some("$1,190"), Some("$980")]),
            &all
        ),
        Decision::Tool(Tool::Click { id: id("a1") })
    );
}

fn licence(agree_disabled: bool) -> Page {
    page(
        json!([
            {"id": "box", "tag": "section", "ariaLabel": "Terms of service", "bbox": {"x": 40, "y": 80, "width": 460, "height": 140}},
            {"id": "ok", "tag": "input", "type": "checkbox", "text": "I agree to the terms of service", "disabled": agree_disabled,
             "bbox": {"x": 50, "y": 400, "width": 13, "height": 13}},
            {"id": "next", "tag": "button", "text": "Create account", "bbox": {"x": 40, "y": 240, "width": 120, "height": 30}},
        ]),
        "Terms of service\n1. You are responsible for your account.\nI agree to the terms of service\nCreate account",
    )
}

#[test]
fn a_box_that_scrolls_in_the_page_is_read_to_its_end_to_enable_what_it_holds() {
    let task = "Tick \"I agree to the terms of service\", then click Create account";
    assert_eq!(
        decide(task, &licence(true), &[]),
        Decision::Tool(Tool::Scroll {
            direction: crate::types::Direction::Down,
            amount: 100_000,
            id: Some(id("box")),
            within: true
        })
    );
    assert_eq!(
        decide(
            task,
            &licence(false),
            &[did(
                "scroll",
                json!({"id": "box", "direction": "down", "amount": 100_000, "within": true}),
                "",
                "http://t/",
                true
            )]
        ),
        Decision::Tool(Tool::Click { id: id("ok") })
    );
}
