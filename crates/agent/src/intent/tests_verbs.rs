//! The verb families of issue 23's seventh batch (branch issue-23j;
//! docs/agent.md "Verbs and row actions"): setting a property of a thing
//! (`verbs/property.rs`), acting on a thing by its row's control
//! (`verbs/act.rs`), creating a thing (file / report / log a …). Every
//! sentence is invented for the test: none is a benchmark task's words.

use super::tests_constructs::assert_rows_read_as_written;

/// (construct, instruction, how it must read).
const VERBS: &[(&str, &str, &str)] = &[
    // Set a property of a thing: the value for the field of X's row.
    (
        "make X a Y",
        "Make Tomas Berg an editor",
        r#"1. type of "Tomas Berg" value="editor""#,
    ),
    (
        "make X a Y",
        r#"Make "Lena Ortiz" a moderator"#,
        r#"1. type of "Lena Ortiz" value="moderator""#,
    ),
    (
        "mark X as Y",
        "Mark the invoice INV-88 as paid",
        r#"1. type of "INV-88" value="paid""#,
    ),
    (
        "move X to Y",
        "Move the card Offline sync to Shipped",
        r#"1. type of "Offline sync" value="Shipped""#,
    ),
    (
        "update X to Y",
        r#"Update order "A-5521" to express shipping"#,
        r#"1. type of "A-5521" value="express shipping""#,
    ),
    (
        "X's field to Y",
        "Change Ana Ruiz's plan to Family",
        r#"1. type of "Ana Ruiz" value[plan]="Family""#,
    ),
    (
        "X's field to Y",
        "Please set the Orbit team's budget to 4000",
        r#"1. type of "Orbit team" value[budget]="4000""#,
    ),
    // Not the construct: read as before.
    (
        "not a setting",
        r#"Make a copy of "Budget.xlsx""#,
        r#"1. type value[copy]="Budget.xlsx""#,
    ),
    (
        "not a setting",
        "Mark the email from Dale as important",
        r#"1. find of "Dale" the message by Dale → 2. click "Star""#,
    ),
    (
        "not a setting",
        "Make me a profile with the name Ruth Kwan",
        r#"1. type name="Ruth Kwan""#,
    ),
    // Act on a thing: the control the verb names, of X's row.
    (
        "act on X",
        "Renew the book Dune",
        r#"1. click "Renew" of "Dune""#,
    ),
    (
        "act on X",
        r#"Return "The Hobbit""#,
        r#"1. click "Return" of "The Hobbit""#,
    ),
    (
        "act on X",
        "Cancel my Pro subscription",
        r#"1. click "Cancel" of "Pro subscription""#,
    ),
    (
        "act on X",
        "Refill Metformin",
        r#"1. click "Refill" of "Metformin""#,
    ),
    // With values after the thing, or a place: not a row action.
    (
        "not an act",
        r#"Renew permit "PK-1" for plate "ABC123""#,
        r#"1. type value[renew permit]="PK-1" value[for plate]="ABC123""#,
    ),
    (
        "not an act",
        "Return to the home page",
        r#"1. click "Return to the home page""#,
    ),
    ("not an act", "Press return", "1. press Enter"),
    // Create a thing: its form filled and sent.
    (
        "file / report / log a",
        r#"File a bug "Sync drops photos" with high priority"#,
        r#"1. type value=(phrase "high priority") value[bug]="Sync drops photos" → 2. submit create"#,
    ),
    (
        "file / report / log a",
        "Report an issue called Login loops",
        r#"1. type name[issue name]="Login loops" → 2. submit create"#,
    ),
    (
        "file / report / log a",
        r#"Log a ticket titled "Printer jam""#,
        r#"1. type value[title]="Printer jam" → 2. submit create"#,
    ),
    (
        "file / report / log a",
        "Log in as kim@x.test",
        r#"1. type username="kim@x.test" → 2. submit log in"#,
    ),
    (
        "schedule",
        r#"Schedule "Standup" on 03/02/2027 at 9:00 AM"#,
        r#"1. type value[on]="03/02/2027" value[at]="9:00 AM" value="Standup" → 2. submit schedule"#,
    ),
    // Close an item of a list: its row's or card's "Close" (branch
    // issue-23p, 2026-11-28); what covers the page is closed as before.
    (
        "close an item",
        "Close the incident Boiler pressure low",
        r#"1. click "Close" of "Boiler pressure low""#,
    ),
    (
        "close an item",
        "close request R-5512",
        r#"1. click "Close" of "R-5512""#,
    ),
    (
        "close what covers the page",
        "close the promo banner",
        r#"1. click "promo banner""#,
    ),
    (
        "close what covers the page",
        "Close the dialog",
        r#"1. click "Close""#,
    ),
    // Quoted words alone before "to" name what is set.
    (
        "set \"X\" to N",
        r#"Set "Oat milk cartons" to 4"#,
        r#"1. type value[Oat milk cartons]="4""#,
    ),
];

#[test]
fn each_verb_family_reads_as_its_intent() {
    assert_rows_read_as_written(VERBS);
}
