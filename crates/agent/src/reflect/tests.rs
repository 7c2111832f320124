use super::*;
use serde_json::json;

fn click(step: u32, id: &str, before: &str, after: &str) -> HistoryEntry {
    HistoryEntry {
        step_number: step,
        action: "click".into(),
        observation: "Clicked".into(),
        timestamp: 0,
        parameters: json!({ "id": id }).as_object().cloned(),
        success: Some(true),
        element_text: Some("Next".into()),
        bbox: None,
        url: None,
        page_before: Some(before.into()),
        page_after: Some(after.into()),
    }
}

#[test]
fn three_identical_clicks_without_change_are_a_loop() {
    let h = vec![
        click(1, "a", "p", "p"),
        click(2, "a", "p", "p"),
        click(3, "a", "p", "p"),
    ];
    assert!(due(&h, 3));
    let r = reflect(&h, 3, 0);
    assert!(r.should_adjust);
    assert_eq!(r.efficiency, "low");
    assert_eq!(r.avoid_element_ids, vec!["a"]);
}

#[test]
fn progress_is_high_efficiency() {
    let h: Vec<HistoryEntry> = (1..=5)
        .map(|i| click(i, &i.to_string(), &format!("p{i}"), &format!("p{}", i + 1)))
        .collect();
    let r = reflect(&h, 5, 0);
    assert_eq!(r.efficiency, "high");
    assert!(!r.should_adjust);
}

/// The loop check compares ids as `element_id()` words them, borrowed or
/// not: a numeric id and the same number as a string are one target, a
/// missing or non-scalar id none.
#[test]
fn element_key_is_element_id() {
    let with = |id: serde_json::Value| {
        let mut e = click(1, "x", "p", "p");
        e.parameters = json!({ "id": id }).as_object().cloned();
        e
    };
    for id in [
        json!("agent-7"),
        json!(7),
        json!(-3),
        json!(1.5),
        json!(null),
        json!([1]),
    ] {
        let e = with(id.clone());
        assert_eq!(
            e.element_key().map(|k| k.into_owned()),
            e.element_id(),
            "{id}"
        );
    }
    let mut none = click(1, "x", "p", "p");
    none.parameters = None;
    assert_eq!(none.element_key(), None);
    let h = vec![with(json!(7)), with(json!("7")), with(json!(7))];
    assert_eq!(find_loops(&h).first().map(|(_, n)| *n), Some(3));
}
