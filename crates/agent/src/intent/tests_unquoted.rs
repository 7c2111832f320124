//! Values said without quotes (issue 23, branch issue-23u; docs/agent.md
//! "Values said without quotes"): where an unquoted value starts and ends.
//! One group of rows per construct; every sentence is invented for the
//! test (none is a benchmark task's).

use super::tests_constructs::assert_rows_read_as_written;

/// (construct, instruction, how it must read).
const ROWS: &[(&str, &str, &str)] = &[
    // A row named by its kind, then its name: the name alone is the row's.
    (
        "kind + name",
        "Archive project moon-base",
        r#"1. click "Archive" of "moon-base""#,
    ),
    (
        "kind + name",
        "Please delete the dataset Q4 sales.csv",
        r#"1. click "Delete" of "Q4 sales.csv""#,
    ),
    (
        "kind + name",
        "Retire the webhook named nightly-sync",
        r#"1. click "Retire" of "nightly-sync""#,
    ),
    (
        "kind + name: a name with an acronym",
        "Reopen the case SSO login fails",
        r#"1. click "Reopen" of "SSO login fails""#,
    ),
    (
        "kind + name: no name, unchanged",
        "Remove the striped scarf",
        r#"1. click "Remove" of "striped scarf""#,
    ),
    (
        "kind + name: a number is no name",
        "Delete row 4",
        r#"1. click "Delete" of "row 4""#,
    ),
    (
        "kind + name: more than a kind",
        "remove the teapot and 3 cups from the list",
        r#"1. click "Remove" of "teapot and 3 cups""#,
    ),
    // A row's menu, then its item: the row's action.
    (
        "row menu + item",
        "Open the actions of Tessa Brook and choose Deactivate",
        r#"1. click "Deactivate" of "Tessa Brook""#,
    ),
    (
        "row menu + item",
        "open the options for invoice-77 and click Duplicate",
        r#"1. click "Duplicate" of "invoice-77""#,
    ),
    (
        "row menu + item: a menu named, not a row's",
        "Open the Settings menu and choose Dark mode",
        r#"1. expand menu "Settings" → 2. select exactly ["Dark mode"]"#,
    ),
    // "and confirm" after a row's action: the action answers its question.
    (
        "row action + confirm",
        "Delete workspace sandbox-3 and confirm",
        r#"1. click "Delete" of "sandbox-3""#,
    ),
    (
        "row action + confirm",
        "Revoke the token named build-bot, then confirm",
        r#"1. click "Revoke" of "build-bot""#,
    ),
    (
        "confirm after values: the form's submit",
        "Enter code 4471 and confirm",
        r#"1. type value[code]="4471" → 2. submit confirm"#,
    ),
    // A made thing's name said after its kind (or the verb), to the next
    // value's preposition, comma or "and".
    (
        "made thing's name",
        "Create a task Water the ferns on 03/02/2027 at 8:15 AM",
        r#"1. type value[task]="Water the ferns" value[on]="03/02/2027" value[at]="8:15 AM" → 2. submit create"#,
    ),
    (
        "made thing's name",
        "Add a contact Nora Vance with email nora@vance.test and phone 555-0199",
        r#"1. type value[contact]="Nora Vance" email="nora@vance.test" phone="555-0199" → 2. submit add"#,
    ),
    (
        "made thing's name",
        "Schedule Sprint demo on 01/09/2027 at 3:30 PM",
        r#"1. type value[title]="Sprint demo" value[on]="01/09/2027" value[at]="3:30 PM" → 2. submit schedule"#,
    ),
    (
        "made thing's name: named reads it",
        "Create a project named Orion with the description Star map",
        r#"1. type name[project name]="Orion" message[description]="Star map" → 2. submit create"#,
    ),
    (
        "made thing's name: not a thing made",
        "Create an account with email ivo@pine.test and password Spr1ng!",
        r#"1. type email="ivo@pine.test" password="Spr1ng!" → 2. submit create an account"#,
    ),
    // The place of "a X in Place": what is searched.
    (
        "search: a kind in a place",
        "Search for a dentist near Leeds",
        r#"1. search search query="Leeds""#,
    ),
    (
        "search: no article, unchanged",
        "Search for red dress in size M",
        r#"1. search search query="red dress in size M""#,
    ),
    // A message said unquoted runs on past its commas.
    (
        "message across commas",
        "Send a mail to kai@fern.test with the subject Rota and the body Running late, start without me",
        r#"1. type email[mail]="kai@fern.test" value[subject]="Rota" message[body]="Running late, start without me" → 2. submit send"#,
    ),
    (
        "message across commas: a field after the comma",
        "Add a note Ring twice, phone 555-0101",
        r#"1. type message[note]="Ring twice" phone="555-0101""#,
    ),
    // A count with its unit (branch issue-23u, second pass): one value,
    // after "for" / "of" or alone in its part.
    (
        "count + unit after for",
        "Book a cabin for 3 nights on 05/02/2027",
        r#"1. type value="3 nights" value[on]="05/02/2027" → 2. submit book"#,
    ),
    (
        "count + unit after for, before a time",
        "Reserve a court for 2 players at 6:00 PM",
        r#"1. type value="2 players" value[at]="6:00 PM" → 2. submit reserve"#,
    ),
    (
        "count + unit after of, with a field",
        "Order a compost sack of 80 litres, postcode AB1 2CD",
        r#"1. type value="80 litres" value[postcode]="AB1 2CD" → 2. submit order"#,
    ),
    (
        "count alone: the verb's reading stays",
        "Rent a kayak for 2 hours",
        r#"1. click "Rent" of "kayak 2 hours""#,
    ),
    (
        "count of the verb's thing: a quantity, no value",
        "Click the button 3 times",
        r#"1. click "button 3 times""#,
    ),
    (
        "a number before a name is an address, no count",
        "Deliver to 12 Mill Road, postcode AB1 2CD",
        r#"1. type value[postcode]="AB1 2CD""#,
    ),
];

#[test]
fn unquoted_values_start_and_end_where_said() {
    assert_rows_read_as_written(ROWS);
}
