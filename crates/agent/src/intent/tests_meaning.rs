//! Fields and values said by meaning (issue 23, branch issue-23z): a
//! compound of field nouns is one label, a "<qualifier> number" names its
//! field, two fields set "to" their values, "set up X as a new Y: …", a
//! statement listing names before a request that says "those", a place
//! after a set. Every sentence here is invented for the test (none is a
//! benchmark task's).

use super::tests_constructs::assert_rows_read_as_written;

/// (construct, instruction, how it must read).
const ROWS: &[(&str, &str, &str)] = &[
    // Two field nouns in a row: one label, never a field and a value.
    (
        "compound field nouns",
        r#"Update my card number to 5555 4444 3333 1111 and ZIP code to 60601"#,
        r#"1. type value[card number]="5555 4444 3333 1111" value[ZIP code]="60601""#,
    ),
    (
        "compound field nouns",
        r#"Change the billing postal code to QX9 2LT"#,
        r#"1. type value[billing postal code]="QX9 2LT""#,
    ),
    // "<qualifier> number <digits>": the number of a thing names its field.
    (
        "a thing's number",
        r#"Enter policy number 88231 and press Continue"#,
        r#"1. type value[policy number]="88231" → 2. click "Continue""#,
    ),
    (
        "a thing's number",
        r#"Add a lender, sort code 20-11-44, account number 01928374"#,
        r#"1. type value[sort code]="20-11-44" value[account number]="01928374" → 2. submit add"#,
    ),
    // "set up X as a new Y: …": X is made; the label ends at the colon.
    (
        "set up X as a new Y",
        r#"Please set up Kettle Farm as a new supplier: sort code 20-11-44, it's a current account"#,
        r#"1. type value[new supplier]="Kettle Farm" value[sort code]="20-11-44" value=(phrase "it's a current account") → 2. submit create"#,
    ),
    // A statement listing names, then a request that refers to them.
    (
        "statement listing names + those",
        r#"We use Figma, Linear and Slack - could you check those on the form?"#,
        r#"1. select exactly ["Figma", "Linear", "Slack"]"#,
    ),
    (
        "statement listing names + those",
        r#"Our lab uses Pipettes, Gloves and Beakers, please tick those and continue"#,
        r#"1. select exactly ["Pipettes", "Gloves", "Beakers"] → 2. submit continue"#,
    ),
    // Not the construct: no "those" / "them" in the request.
    (
        "statement listing names + those",
        r#"We use Figma, Linear and Slack, tick the first one"#,
        r#"1. select #1"#,
    ),
    // A place after a set: where its items stand, not part of the last.
    (
        "place after a set",
        r#"tick Red, Blue and Green in the form"#,
        r#"1. select exactly ["Red", "Blue", "Green"]"#,
    ),
    // Must keep its reading: one thing set to a value.
    (
        "a thing set to a value",
        r#"move the card for Q3 to Done"#,
        r#"1. type of "Q3" value="Done""#,
    ),
];

#[test]
fn meanings_read_as_written() {
    assert_rows_read_as_written(ROWS);
}
