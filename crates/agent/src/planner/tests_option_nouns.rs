//! An option named by a noun of the task, never by its list's label:
//! "report a gap …" sets Kind: Gap before the form is sent, however short
//! the option. Every page and task here is invented for the test (none is
//! a benchmark page's).
use super::tests::{decide, id, page, typed, with_options};
use super::*;
use serde_json::json;

fn request_form() -> Page {
    let mut p = page(
        json!([
            {"id": "kind", "tag": "select", "ariaLabel": "Kind", "form": 1},
            {"id": "title", "tag": "input", "ariaLabel": "Title", "form": 1},
            {"id": "send", "tag": "button", "type": "submit", "text": "Send", "form": 1},
        ]),
        "Raise a request Kind Title Send",
    );
    with_options(&mut p, "Kind", &["Query", "Gap", "Tip"]);
    p
}

#[test]
fn a_short_option_named_by_the_thing_made_is_chosen_before_sending() {
    let p = request_form();
    for task in [
        r#"Report a gap "Ramp missing at gate 4""#,
        "Create a gap called Ramp missing at gate 4",
    ] {
        let history = vec![typed("title", "Ramp missing at gate 4")];
        assert_eq!(
            decide(task, &p, &history),
            Decision::Tool(Tool::Type {
                id: id("kind"),
                text: "Gap".into()
            }),
            "{task}"
        );
    }
}

#[test]
fn a_word_without_meaning_names_no_option() {
    // "the" is three letters too: never an option named in passing.
    let mut p = request_form();
    with_options(&mut p, "Kind", &["Query", "The", "Tip"]);
    let history = vec![typed("title", "Ramp missing at the gate")];
    assert_eq!(
        decide(r#"Send a request "Ramp missing at the gate""#, &p, &history),
        Decision::Tool(Tool::Click { id: id("send") })
    );
}
