//! The phrasing table's rows for conditions on a value that changes over
//! time (verbs/until.rs, surface/when_last.rs): a comparison is waited for
//! as a number, and a condition said after its action is waited for first.

use super::Intent;

const TABLE: &[(&str, &str)] = &[
    (
        "Wait until the counter reaches 10, then click Stop",
        r#"1. wait until "counter" >= 10 → 2. click "Stop""#,
    ),
    (
        "When the NVLT price is below 40 dollars, click Buy",
        r#"1. wait until "NVLT price" < 40 → 2. click "Buy""#,
    ),
    (
        "Click Sell when the temperature goes above 30",
        r#"1. wait until "temperature" > 30 → 2. click "Sell""#,
    ),
    (
        "Press Start as soon as the queue drops under 5",
        r#"1. wait until "queue" < 5 → 2. click "Start""#,
    ),
    // A text wait said after its action keeps its shape.
    (
        "Delete it when it is ready",
        r#"1. wait until shows "Delete" → 2. click "Delete""#,
    ),
    // A branch's comparison is not a wait.
    (
        "If Premium costs less than $20, choose Premium, otherwise Standard",
        r#"1. if "Premium" < 20 then [select exactly ["Premium"]] else [select exactly ["Standard"]]"#,
    ),
];

#[test]
fn conditions_on_a_changing_value() {
    let mut bad = Vec::new();
    for (task, want) in TABLE {
        let got = Intent::parse(task).describe();
        if got != *want {
            bad.push(format!("{task}\n  want {want}\n  got  {got}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
