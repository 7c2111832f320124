//! The planner on lists and rows (docs/agent.md "Carrying out the steps"):
//! a row's control named by its icon's aria-label, a row on another page
//! of the list, a confirmation asked after the click, a value read off the
//! page as the answer.
use super::tests::{clicked, decide, did, id, page, page_at, typed};
use super::*;
use serde_json::json;

fn projects() -> serde_json::Value {
    json!([
        {"id": "o1", "tag": "button", "text": "Open"},
        {"id": "d1", "tag": "button", "text": "Delete marketing-site", "ariaLabel": "Delete marketing-site"},
        {"id": "o2", "tag": "button", "text": "Open"},
        {"id": "d2", "tag": "button", "text": "Delete old-landing", "ariaLabel": "Delete old-landing"},
    ])
}

#[test]
fn a_rows_icon_button_is_found_by_its_own_name() {
    let p = page(
        projects(),
        "Projects marketing-site Open 🗑 old-landing Open 🗑",
    );
    assert_eq!(
        decide(r#"Delete the project "old-landing""#, &p, &[]),
        Decision::Tool(Tool::Click { id: id("d2") })
    );
}

#[test]
fn a_confirmation_asked_after_the_last_click_is_given() {
    let mut els = projects();
    let list = els.as_array_mut().expect("array");
    list.push(json!({"id": "no", "tag": "button", "text": "Cancel"}));
    list.push(json!({"id": "yes", "tag": "button", "text": "Delete"}));
    let p = page(
        els,
        "Projects marketing-site Open 🗑 old-landing Open 🗑 Delete project? “old-landing” and its deployments will be removed. This cannot be undone. Cancel Delete",
    );
    let d = decide(
        r#"Delete the project "old-landing""#,
        &p,
        &[clicked("d2", "Delete old-landing")],
    );
    assert_eq!(d, Decision::Tool(Tool::Click { id: id("yes") }));
    // Confirmed: the row is gone, and no other row's Delete is clicked.
    let left = json!([
        {"id": "o1", "tag": "button", "text": "Open"},
        {"id": "d1", "tag": "button", "text": "Delete marketing-site", "ariaLabel": "Delete marketing-site"},
    ]);
    let p = page(
        left,
        "Projects marketing-site Open Project old-landing deleted.",
    );
    let d = decide(
        r#"Delete the project "old-landing""#,
        &p,
        &[
            clicked("d2", "Delete old-landing"),
            clicked("yes", "Delete"),
        ],
    );
    assert!(matches!(d, Decision::Finish(_)), "{d:?}");
    // Without the question, the click was the whole task.
    let p = page(
        projects(),
        "Projects marketing-site Open 🗑 old-landing Open 🗑",
    );
    let d = decide(
        r#"Delete the project "old-landing""#,
        &p,
        &[clicked("d2", "Delete old-landing")],
    );
    assert!(matches!(d, Decision::Finish(_)), "{d:?}");
}

#[test]
fn a_row_not_on_this_page_of_the_list_is_looked_for_on_the_next() {
    let p = page(
        json!([
            {"id": "r1", "tag": "a", "text": "Download PDF", "href": "#"},
            {"id": "r2", "tag": "a", "text": "Download PDF", "href": "#"},
            {"id": "prev", "tag": "a", "text": "‹ Previous", "href": "#"},
            {"id": "next", "tag": "a", "text": "Next ›", "href": "#"},
        ]),
        "Invoices Invoice Client Amount INV-2052 Acme Co $180.00 Download PDF INV-2051 Birch & Sons $217.00 Download PDF ‹ Previous Page 1 of 3 Next ›",
    );
    for task in [
        r#"Download invoice "INV-2043""#,
        "Download the PDF of invoice INV-2043",
    ] {
        assert_eq!(
            decide(task, &p, &[]),
            Decision::Tool(Tool::Click { id: id("next") }),
            "{task}"
        );
    }
    // On the page that shows it: its own row's control.
    let p = page(
        json!([
            {"id": "r1", "tag": "a", "text": "Download PDF", "href": "#"},
            {"id": "r2", "tag": "a", "text": "Download PDF", "href": "#"},
            {"id": "next", "tag": "a", "text": "Next ›", "href": "#"},
        ]),
        "Invoices Invoice Client Amount INV-2044 Ember Foods $365.00 Download PDF INV-2043 Acme Co $402.00 Download PDF Page 2 of 3 Next ›",
    );
    assert_eq!(
        decide(r#"Download invoice "INV-2043""#, &p, &[]),
        Decision::Tool(Tool::Click { id: id("r2") })
    );
}

#[test]
fn a_question_is_answered_with_the_value_the_page_shows() {
    let p = page(
        json!([{"id": "again", "tag": "button", "text": "Buy it again"}]),
        "Order #58213 Placed on November 3, 2026 Subtotal $76.00 Shipping $6.95 Order total $87.51 Paid with Visa Buy it again",
    );
    for task in [
        "What is the order total?",
        "Could you tell me what the total of this order was?",
        "Read the order total",
    ] {
        match decide(task, &p, &[]) {
            Decision::Finish(a) => assert!(a.contains("$87.51"), "{task}: {a}"),
            d => panic!("{task}: {d:?}"),
        }
    }
}

/// A link that led only to an anchor of the same page ("#plan") is not
/// clicked again when the page is searched once more: it did not move the
/// task the first time.
#[test]
fn an_in_page_link_already_followed_is_not_followed_again() {
    let els = json!([
        {"id": "plan", "tag": "a", "text": "Plan a trip", "href": "#plan"},
        {"id": "alerts", "tag": "a", "text": "Alerts", "href": "#alerts"},
    ]);
    let text = "Metro Transit Plan a trip Alerts Route 42 Harbour Terminal 6:05";
    let task = "Could you tell me what time the third trip leaves Central Station?";
    let first = page_at("http://t/", els.clone(), text);
    assert_eq!(
        decide(task, &first, &[]),
        Decision::Tool(Tool::Click { id: id("plan") })
    );
    let after = page_at("http://t/#plan", els, text);
    let h = [
        did(
            "click",
            json!({ "id": "plan" }),
            "Plan a trip",
            "http://t/",
            true,
        ),
        did("observe", json!({}), "", "http://t/#plan", false),
    ];
    assert_ne!(
        decide(task, &after, &h),
        Decision::Tool(Tool::Click { id: id("plan") })
    );
}

/// An amount is asked of a card (name, masked number, amount, caption):
/// the amount as written, never the masked number or the rate.
#[test]
fn a_balance_asked_of_a_card_is_the_amount_as_written() {
    let p = page(
        json!([{"id": "t1", "tag": "a", "text": "View transactions"}]),
        "Everyday Checking ••4410 $2,318.40 Available balance View transactions \
         High-Yield Savings ••7725 $12,480.22 Available balance · 4.10% APY View transactions",
    );
    for task in [
        "What is the savings balance?",
        "Could you tell me how much money is in my savings account?",
        "Read the balance of High-Yield Savings",
    ] {
        match decide(task, &p, &[]) {
            Decision::Finish(a) => assert!(a.contains("$12,480.22"), "{task}: {a}"),
            d => panic!("{task}: {d:?}"),
        }
    }
}

#[test]
fn a_dialog_covering_the_field_is_dismissed_first_least_consent_first() {
    let mut p = page(
        json!([
            {"id": "nl", "tag": "input", "type": "email", "ariaLabel": "Email address"},
            {"id": "join", "tag": "button", "text": "Sign me up"},
            {"id": "manage", "tag": "button", "text": "Manage options"},
            {"id": "reject", "tag": "button", "text": "Reject all"},
            {"id": "accept", "tag": "button", "text": "Accept all"},
        ]),
        "Morning Briefing Email address Sign me up We value your privacy Manage options Reject all Accept all",
    );
    let task = "Sign up for the Morning Briefing with email lee@inbox.test";
    let typing = decide(task, &p, &[]);
    assert!(
        matches!(&typing, Decision::Tool(Tool::Type { id: i, .. }) if *i == id("nl")),
        "{typing:?}"
    );
    // The same page with the consent dialog over the form.
    for e in p.elements.iter_mut().take(2) {
        e.element.is_occluded = true;
    }
    assert_eq!(
        decide(task, &p, &[]),
        Decision::Tool(Tool::Click { id: id("reject") })
    );
}

#[test]
fn a_date_asked_as_month_day_year_selects_is_split_between_them() {
    let months: Vec<serde_json::Value> = ["Month", "January", "February", "March", "April"]
        .iter()
        .enumerate()
        .map(|(k, m)| json!({"value": if k == 0 { String::new() } else { k.to_string() }, "text": m}))
        .collect();
    let days: Vec<serde_json::Value> = (0..=31)
        .map(|d| json!({"value": if d == 0 { String::new() } else { d.to_string() }, "text": if d == 0 { "Day".to_string() } else { d.to_string() }}))
        .collect();
    let years: Vec<serde_json::Value> = (1985..=1995)
        .map(|y| json!({"value": y.to_string(), "text": y.to_string()}))
        .collect();
    let p = page(
        json!([
            {"id": "m", "tag": "select", "ariaLabel": "Month", "options": months},
            {"id": "d", "tag": "select", "ariaLabel": "Day", "options": days},
            {"id": "y", "tag": "select", "ariaLabel": "Year", "options": years},
            {"id": "save", "tag": "button", "text": "Save"},
        ]),
        "Personal details Date of birth Save",
    );
    for task in [
        "Set the date of birth to 03/07/1990 and save",
        "Please set my date of birth to March 7, 1990 and save it.",
    ] {
        assert_eq!(
            decide(task, &p, &[]),
            Decision::Tool(Tool::Type {
                id: id("m"),
                text: "March".into()
            }),
            "{task}"
        );
        let after_month = decide(task, &p, &[typed("m", "March")]);
        assert_eq!(
            after_month,
            Decision::Tool(Tool::Type {
                id: id("d"),
                text: "7".into()
            }),
            "{task}"
        );
    }
    // Month and Year set (the page shows them, the extension's snapshot
    // lists the options): the Year select showing "1990", an option of
    // "03/07/1990", is no sign that the whole date is in; Day is next.
    let mut set = p.clone();
    let option = |t: &str| sentience_snapshot_core::SelectOption {
        text: t.into(),
        value: t.into(),
        selected: false,
    };
    for e in set.elements.iter_mut() {
        let (value, options): (&str, Vec<String>) = match e.facts.aria_label.as_str() {
            "Month" => ("March", vec!["Month".into(), "March".into()]),
            "Day" => ("", (1..=31).map(|d| d.to_string()).collect()),
            "Year" => ("1990", (1985..=1995).map(|y| y.to_string()).collect()),
            _ => continue,
        };
        e.facts.value = value.into();
        e.element.state.options = Some(options.iter().map(|t| option(t)).collect());
    }
    let task = "Set the date of birth to 03/07/1990 and save";
    let h = [typed("m", "March"), typed("y", "1990")];
    assert_eq!(
        decide(task, &set, &h),
        Decision::Tool(Tool::Type {
            id: id("d"),
            text: "7".into()
        })
    );
}

#[test]
fn a_calendar_whose_days_are_named_by_their_whole_date_is_turned_and_clicked() {
    let cells = |month: &str, n: u32| -> Vec<serde_json::Value> {
        (1..=n)
            .map(|d| json!({"id": format!("{}{d}", &month[..3]), "tag": "button", "text": format!("{month} {d}, 2026")}))
            .collect()
    };
    let mut els = vec![
        json!({"id": "date", "tag": "input", "ariaLabel": "Date", "placeholder": "Select a date"}),
        json!({"id": "prev", "tag": "button", "text": "Previous month"}),
        json!({"id": "next", "tag": "button", "text": "Next month"}),
    ];
    els.extend(cells("November", 30));
    let mut p = page(
        json!(els),
        "Reserve a table Date November 2026 Su Mo Tu We Th Fr Sa 1 2 3",
    );
    p.elements[0].facts.read_only = true;
    let task = "Reserve a table on 12/18/2026";
    let h = [clicked("date", "Select a date")];
    assert_eq!(
        decide(task, &p, &h),
        Decision::Tool(Tool::Click { id: id("next") })
    );
    let mut els = vec![
        json!({"id": "date", "tag": "input", "ariaLabel": "Date", "placeholder": "Select a date"}),
        json!({"id": "prev", "tag": "button", "text": "Previous month"}),
        json!({"id": "next", "tag": "button", "text": "Next month"}),
    ];
    els.extend(cells("December", 31));
    let mut p = page(
        json!(els),
        "Reserve a table Date December 2026 Su Mo Tu We Th Fr Sa 1 2 3",
    );
    p.elements[0].facts.read_only = true;
    let h = [
        clicked("date", "Select a date"),
        clicked("next", "Next month"),
    ];
    assert_eq!(
        decide(task, &p, &h),
        Decision::Tool(Tool::Click { id: id("Dec18") })
    );
}

#[test]
fn a_field_in_another_tab_is_looked_for_there_not_typed_over_another() {
    let els = json!([
        {"id": "t1", "tag": "button", "role": "tab", "text": "Profile"},
        {"id": "t2", "tag": "button", "role": "tab", "text": "Security"},
        {"id": "fn", "tag": "input", "ariaLabel": "Full name", "value": "Rosa Diaz"},
        {"id": "co", "tag": "input", "ariaLabel": "Company", "value": "Nine-Nine Consulting"},
        {"id": "save", "tag": "button", "text": "Save changes"},
    ]);
    let mut p = page(
        els,
        "Account settings Profile Security Full name Company Save changes",
    );
    p.elements[0].element.state.selected = Some(true);
    p.elements[1].element.state.selected = Some(false);
    let task = r#"Recovery email "rosa.backup@mail.test", save"#;
    assert_eq!(
        decide(task, &p, &[]),
        Decision::Tool(Tool::Click { id: id("t2") })
    );
}

#[test]
fn out_of_stock_the_otherwise_branch_joins_the_waitlist_with_the_email() {
    let els = json!([
        {"id": "add", "tag": "button", "text": "Add to cart", "disabled": true},
        {"id": "wl", "tag": "input", "type": "email", "ariaLabel": "Email me when it is back"},
        {"id": "join", "tag": "button", "text": "Join the waitlist"},
    ]);
    let p = page(els, "Aero 2 running shoe $129.00 Size US 10 Out of stock in this size Add to cart Email me when it is back Join the waitlist");
    let task =
        r#"If it is in stock add it to the cart, otherwise join the waitlist with "pia@run.test""#;
    let d = decide(task, &p, &[]);
    assert!(
        matches!(&d, Decision::Tool(Tool::Type { id: i, .. }) if *i == id("wl")),
        "{d:?}"
    );
}

#[test]
fn the_cheapest_of_cards_is_chosen_by_the_price_in_each_card() {
    let els = json!([
        {"id": "s1", "tag": "button", "text": "Select"},
        {"id": "s2", "tag": "button", "text": "Select"},
        {"id": "s3", "tag": "button", "text": "Select"},
        {"id": "s4", "tag": "button", "text": "Select"},
    ]);
    let p = page(
        els,
        "Choose a size General 4 4 GB RAM · 2 vCPU · 80 GB SSD $24/mo Select Starter 1 GB RAM · 1 vCPU · 25 GB SSD $6/mo Select Memory 16 16 GB RAM $84/mo Select Basic 2 2 GB RAM $12/mo Select",
    );
    for task in [
        "Select the cheapest plan",
        "Please pick the cheapest size for my server.",
    ] {
        assert_eq!(
            decide(task, &p, &[]),
            Decision::Tool(Tool::Click { id: id("s2") }),
            "{task}"
        );
    }
    assert_eq!(
        decide("Select the most expensive plan", &p, &[]),
        Decision::Tool(Tool::Click { id: id("s3") })
    );
    // Text whose lower case is longer than itself ("İ") before the cards,
    // the buttons shown in capitals: each card is still cut at its button.
    let els = json!([
        {"id": "a", "tag": "button", "text": "Select"},
        {"id": "b", "tag": "button", "text": "Select"},
        {"id": "c", "tag": "button", "text": "Select"},
    ]);
    let p = page(
        els,
        "İİİİİİİİİİ region Tiny $5/mo SELECT Large $40/mo SELECT Medium $20/mo SELECT",
    );
    assert_eq!(
        decide("Select the cheapest plan", &p, &[]),
        Decision::Tool(Tool::Click { id: id("a") })
    );
}

#[test]
fn a_text_box_that_spells_its_date_form_gets_the_date_in_that_form() {
    let p = page(
        json!([
            {"id": "what", "tag": "input", "ariaLabel": "Remind me to"},
            {"id": "day", "tag": "input", "placeholder": "YYYY-MM-DD"},
            {"id": "go", "tag": "button", "text": "Create reminder"},
        ]),
        "New reminder Remind me to Day Create reminder",
    );
    let h = [super::tests::typed("what", "Renew passport")];
    assert_eq!(
        decide(r#"Remind me to "Renew passport" on "12/24/2026""#, &p, &h),
        Decision::Tool(Tool::Type {
            id: id("day"),
            text: "2026-12-24".into()
        })
    );
}

#[test]
fn a_date_split_into_its_boxes_leaves_them_to_no_other_value() {
    let p = page(
        json!([
            {"id": "day", "tag": "input", "ariaLabel": "Day", "value": "14"},
            {"id": "month", "tag": "input", "ariaLabel": "Month", "value": "06"},
            {"id": "year", "tag": "input", "ariaLabel": "Year", "value": "2019"},
            {"id": "yes", "tag": "input", "type": "radio", "text": "Yes"},
            {"id": "no", "tag": "input", "type": "radio", "text": "No"},
            {"id": "go", "tag": "button", "text": "Continue"},
        ]),
        "When did you move in? Day Month Year Do you live there alone? Yes No Continue",
    );
    let task = r#"Moved in on "14 June 2019", living alone "Yes", continue"#;
    let h = [
        typed("year", "2019"),
        typed("day", "14"),
        typed("month", "06"),
    ];
    assert_eq!(
        decide(task, &p, &h),
        Decision::Tool(Tool::Click { id: id("yes") })
    );
}

/// A list of boards, each row an "Open" and an icon "Remove <name>"
/// (`r1`, `r2`, … in order), under a link to the list itself.
fn boards(names: &[&str]) -> serde_json::Value {
    let mut els = vec![json!({"id": "nav", "tag": "a", "text": "Boards", "href": "#boards"})];
    for (k, name) in names.iter().enumerate() {
        let remove = format!("Remove {name}");
        els.push(json!({"id": format!("o{}", k + 1), "tag": "button", "text": "Open"}));
        els.push(json!({"id": format!("r{}", k + 1), "tag": "button", "text": remove, "ariaLabel": remove, "title": "Remove"}));
    }
    serde_json::Value::Array(els)
}

/// A name said before its kind ("the sun-deck board"): the page shows
/// only the name, and the row's own control is the one whose name holds
/// it — never the first or last row's (a destructive action on the wrong
/// row was reported as done).
#[test]
fn a_name_said_before_its_kind_is_its_rows_control() {
    let p = page(
        boards(&["moon-base", "sun-deck", "star-gate"]),
        "Orbit Boards Boards moon-base Open 🗑 sun-deck Open 🗑 star-gate Open 🗑",
    );
    for task in [
        "Remove the sun-deck board",
        "Please remove the sun-deck board for me, it is not used any more.",
    ] {
        assert_eq!(
            decide(task, &p, &[]),
            Decision::Tool(Tool::Click { id: id("r2") }),
            "{task}"
        );
    }
}

/// A destructive row action whose row is not on the page ("the comet-tail
/// board", named only in a note above the list): no other row's control
/// stands in for it, neither by its place after the mention nor because
/// its name holds the action's word. The planner looks elsewhere (the
/// list's own page) or asks; it never clicks another row's "Remove".
#[test]
fn a_row_action_whose_row_is_missing_takes_no_other_rows_control() {
    let els = boards(&["moon-base", "sun-deck"]);
    let removes = [id("r1"), id("r2")];
    // The controls' names shown as words (placed after the mention), and
    // as icons (not in the text at all).
    for text in [
        "Orbit Boards Boards Archived last week: comet-tail. moon-base Open Remove moon-base sun-deck Open Remove sun-deck",
        "Orbit Boards Boards Archived last week: comet-tail. moon-base Open 🗑 sun-deck Open 🗑",
    ] {
        let p = page(els.clone(), text);
        for task in [
            "Remove the comet-tail board",
            "Please delete the comet-tail board, we do not use it.",
            "Remove \"comet-tail\"",
        ] {
            let d = decide(task, &p, &[]);
            assert!(
                !matches!(&d, Decision::Tool(Tool::Click { id }) if removes.contains(id)),
                "{task} on {text:?}: {d:?}"
            );
        }
    }
}
