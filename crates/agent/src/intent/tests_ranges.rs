//! Ranges: two values for a pair of fields by their roles (`range.rs`).
//! Invented words and pages only.

use super::{Intent, Step};

fn fill_values(task: &str) -> Vec<(String, String)> {
    Intent::parse(task)
        .steps
        .iter()
        .filter(|s| matches!(s, Step::Fill { .. }))
        .flat_map(|s| s.values().iter())
        .map(|v| (v.text().unwrap_or_default(), v.label.clone()))
        .filter(|(_, l)| l == "from" || l == "to")
        .collect()
}

fn pair(a: &str, b: &str) -> Vec<(String, String)> {
    vec![
        (a.to_string(), "from".to_string()),
        (b.to_string(), "to".to_string()),
    ]
}

#[test]
fn from_to_dates_quoted_or_not() {
    assert_eq!(
        fill_values("Book a kayak at \"Pine Cove\" from \"04/10/2027\" to \"04/12/2027\""),
        pair("04/10/2027", "04/12/2027")
    );
    assert_eq!(
        fill_values("Reserve a cabin from 06/01/2027 until 06/05/2027"),
        pair("06/01/2027", "06/05/2027")
    );
}

#[test]
fn named_start_borrows_the_end_year() {
    assert_eq!(
        fill_values("I want a bike from March 12 to March 15, 2027, please."),
        pair("03/12/2027", "03/15/2027")
    );
}

#[test]
fn between_times_and_for_through() {
    assert_eq!(
        fill_values("Block the studio between 9:00 and 11:30 AM"),
        pair("9:00", "11:30 AM")
    );
    assert_eq!(
        fill_values("Pause deliveries for 02/03/2027 through 02/09/2027"),
        pair("02/03/2027", "02/09/2027")
    );
}

#[test]
fn words_that_are_no_values_make_no_range() {
    // Accounts, names: not a date, time, number or price.
    assert!(fill_values("Move 40 dollars from wallet to vault").is_empty());
    assert!(fill_values("Rename the board from Comet to Nebula").is_empty());
}
