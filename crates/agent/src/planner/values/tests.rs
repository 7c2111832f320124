use super::*;

#[test]
fn dates_and_times_as_people_write_them() {
    assert_eq!(date("10/11/2016"), Some((2016, 10, 11)));
    assert_eq!(date("2016-10-11"), Some((2016, 10, 11)));
    assert_eq!(date("March 14, 2025"), Some((2025, 3, 14)));
    assert_eq!(date("14 March 2025"), Some((2025, 3, 14)));
    assert_eq!(date("Mar 14 2025"), Some((2025, 3, 14)));
    // A day cell's accessible name in a calendar grid: a weekday first.
    assert_eq!(date("Thursday, March 14, 2025"), Some((2025, 3, 14)));
    assert_eq!(date("Thu 14 Mar 2025"), Some((2025, 3, 14)));
    assert_eq!(date("Spring, March 14, 2025"), None);
    assert_eq!(date("13/40/2020"), None);
    assert_eq!(date("hello"), None);
    assert_eq!(time("12:13 PM"), Some((12, 13)));
    assert_eq!(time("7:30pm"), Some((19, 30)));
    assert_eq!(time("12:05 am"), Some((0, 5)));
    assert_eq!(time("19:30"), Some((19, 30)));
    assert_eq!(time("7 pm"), Some((19, 0)));
    assert_eq!(time("1930"), None);
    assert_eq!(shape("10/11/2016"), Shape::Date);
    assert_eq!(shape("12:13 PM"), Shape::Time);
    assert_eq!(shape("555-0199"), Shape::Phone);
    assert_eq!(shape("+1 555 010 0199"), Shape::Phone);
    assert_eq!(shape("97205"), Shape::Number);
}

#[test]
fn a_date_is_written_as_the_box_spells_its_form() {
    assert_eq!(write_date("YYYY-MM-DD", (2026, 12, 24)), "2026-12-24");
    assert_eq!(write_date("DD/MM/YYYY", (2026, 3, 7)), "07/03/2026");
    assert_eq!(write_date("MM.DD.YY", (2026, 3, 7)), "03.07.26");
    assert_eq!(write_date("D/M/YYYY", (2026, 3, 7)), "7/3/2026");
}

#[test]
fn an_option_list_abbreviates_the_value_word_by_word() {
    assert!(abbreviates("Admin", "administrator"));
    assert!(abbreviates("90 d", "90 days"));
    assert!(abbreviates("Scot.", "Scotland"));
    // A contraction is not a shortening by the word's start.
    assert!(!abbreviates("1 yr", "1 year"));
    // Another number, one letter alone, the same words or more words: no.
    assert!(!abbreviates("30 d", "90 days"));
    assert!(!abbreviates("A", "administrator"));
    assert!(!abbreviates("Admin", "admin"));
    assert!(!abbreviates("Read", "read only"));
    assert!(!abbreviates("Owner", "administrator"));
    assert!(!abbreviates("Dev", "design"));
}

#[test]
fn a_quantity_finds_the_option_that_shows_it_with_its_unit_short() {
    let opts = |ts: &[&str]| -> Vec<SelectOption> {
        ts.iter()
            .map(|t| SelectOption {
                text: t.to_string(),
                value: String::new(),
                selected: false,
            })
            .collect()
    };
    let tanks = opts(&[
        "Choose one",
        "Compact (80L)",
        "Family (150L)",
        "Large (300L) — farms only",
    ]);
    assert_eq!(
        same_quantity(&tanks, "150 litres").as_deref(),
        Some("Family (150L)")
    );
    assert_eq!(
        same_quantity(&tanks, "300 l").as_deref(),
        Some("Large (300L) — farms only")
    );
    // Another number, another unit, or no unit: no option.
    assert_eq!(same_quantity(&tanks, "200 litres"), None);
    assert_eq!(same_quantity(&tanks, "150 kg"), None);
    assert_eq!(same_quantity(&tanks, "150"), None);
    let plans = opts(&["Trial (14-day)", "Quarterly (3 months)", "Yearly"]);
    assert_eq!(
        same_quantity(&plans, "14 days").as_deref(),
        Some("Trial (14-day)")
    );
    assert_eq!(
        same_quantity(&plans, "3-month").as_deref(),
        Some("Quarterly (3 months)")
    );
    // Two options of that measure: not clear which.
    let twice = opts(&["Basic 2 kg", "Deluxe 2 kg"]);
    assert_eq!(same_quantity(&twice, "2 kilograms"), None);
    // A date or a time is read whole: the Hour select's "12" is no piece
    // of a date, the Minute select's "45" none of a time.
    let hours = opts(&["--", "9", "10", "11", "12"]);
    let minutes = opts(&["--", "00", "15", "30", "45"]);
    let select = |o: Vec<SelectOption>| {
        let mut p = crate::planner::tests::page(
            serde_json::json!([{"id": "s", "tag": "select", "ariaLabel": "Part"}]),
            "Part",
        );
        let mut e = p.elements.remove(0);
        e.element.state.options = Some(o);
        e
    };
    assert_eq!(option_for(&select(hours), "12/09/2027"), None);
    assert_eq!(option_for(&select(minutes), "8:45 AM"), None);
}
