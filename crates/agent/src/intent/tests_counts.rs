//! Superlatives of a property and counts with units (branch issue-23y):
//! how each reads. Every sentence is invented for the test.

use super::tests_constructs::assert_rows_read_as_written;

const ROWS: &[(&str, &str, &str)] = &[
    // A superlative inside a phrase picks a card; it is no value to type.
    (
        "superlative in a phrase",
        r#"Join the session with the most spots left"#,
        r#"1. click most "Join""#,
    ),
    (
        "superlative in a phrase",
        r#"Reserve a slot with the closest physiotherapist"#,
        r#"1. click nearest "Reserve""#,
    ),
    // A rating: "highest … rating", "best-rated", "top rated".
    (
        "rating",
        r#"Open the guest house with the highest guest rating"#,
        r#"1. expand best rated "guest house with guest rating""#,
    ),
    (
        "rating",
        r#"open the top rated place"#,
        r#"1. expand best rated "place""#,
    ),
    // "at most" is a bound, not a superlative.
    (
        "at most",
        r#"Choose a plan that costs at most $20"#,
        r#"1. select exactly ["plan that costs at most $20"]"#,
    ),
    // Counts with units: a number for the row the unit names.
    (
        "count",
        r#"Get 3 "Upper Circle" tickets and continue"#,
        r#"1. type value[Upper Circle tickets]="3" → 2. submit continue"#,
    ),
    (
        "count",
        r#"Order two veggie wraps"#,
        r#"1. type value[veggie wraps]="2" → 2. submit order"#,
    ),
    (
        "count",
        r#"Search flights to Oslo for 2 adults and 1 infant"#,
        r#"1. type value[adults]="2" value[infant]="1" → 2. search search query="flights to Oslo""#,
    ),
    // A duration is no count; an article is no number.
    (
        "not a count",
        r#"Book a room for 3 nights"#,
        r#"1. submit book"#,
    ),
];

#[test]
fn superlatives_and_counts_read_as_written() {
    assert_rows_read_as_written(ROWS);
}
