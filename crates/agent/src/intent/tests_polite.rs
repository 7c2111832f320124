//! Constructs of polite task sentences whose terse form the planner
//! already reads (issue 23, branch issue-23l; docs/agent.md "Polite
//! sentences by construct"). Every sentence here is invented for the
//! test (none is a benchmark task's); each row's reading is the one its
//! terse form gets.

use super::tests_constructs::assert_rows_read_as_written;

/// (construct, instruction, how it must read).
const POLITE: &[(&str, &str, &str)] = &[
    // A short request, then a sentence of its details (`surface/details.rs`).
    (
        "request, then its details",
        r#"Could you pull up my reservation? The booking code is QX4471 and my last name is Adeyemi."#,
        r#"1. type value[booking code]="QX4471" name[last name]="Adeyemi" → 2. submit find"#,
    ),
    (
        "request, then its details",
        r#"Can you bring up my parcel? The tracking number is ZZ90817 and my postcode is LS2 7EE."#,
        r#"1. type value[tracking number]="ZZ90817" value[postcode]="LS2 7EE" → 2. submit find"#,
    ),
    (
        "request, then its details",
        r#"Please pull up my policy. The policy number is PN-2231 and my email is lu@fern.test"#,
        r#"1. type value[policy number]="PN-2231" email="lu@fern.test" → 2. submit find"#,
    ),
    // "it says V": the value of the request's thing.
    (
        "request, then what it says",
        r#"Please hand in my water reading. It shows 0912, and my customer number is 55-310."#,
        r#"1. type value[reading]="0912" value[customer number]="55-310" → 2. submit submit"#,
    ),
    // Not details: a statement that gives no value stays its own.
    (
        "request, then a statement",
        r#"Open the inbox. The newest mail is from Bea."#,
        r#"1. expand "inbox" → 2. expand latest "mail" of "Bea""#,
    ),
    // A count wanted (`surface/wants.rs`).
    (
        "count wanted",
        r#"I'd like four pairs of the linen napkins in my cart, then check out."#,
        r#"1. type value[linen napkins]="4" → 2. submit check out"#,
    ),
    (
        "count wanted",
        r#"Could I have two of the $12 lanterns?"#,
        r#"1. type value[$12 lanterns]="2""#,
    ),
    (
        "count wanted",
        r#"Hi, can we have four of the garden chairs?"#,
        r#"1. type value[garden chairs]="4""#,
    ),
    // Not a count: a desire of one thing stays a choice; "a copy of" is
    // no count.
    (
        "count wanted: not one",
        r#"I'd like the cheapest plan"#,
        r#"1. select least "plan""#,
    ),
];

#[test]
fn each_polite_construct_reads_as_its_terse_form() {
    assert_rows_read_as_written(POLITE);
}
