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
    // A branch's pronoun stands for what the condition is about, never for
    // what it shows; with nothing named, it is no part of the target.
    (
        "If the lamp is on sale, add it to my cart, otherwise add the candle",
        r#"1. if shows "sale" then [click "Add to cart" of "lamp"] else [click "Add" of "candle"]"#,
    ),
    (
        "If the kettle is available please add it to my cart; otherwise buy the teapot.",
        r#"1. if shows "available" then [click "Add to cart" of "kettle"] else [submit buy]"#,
    ),
    (
        "If it is in stock, add it to the cart, otherwise join the waitlist",
        r#"1. if shows "in stock" then [click "Add to cart"] else [submit join]"#,
    ),
    // A condition said after its action, with an otherwise: a branch (the
    // condition's "it" is what the action names); "less of" for "less than".
    (
        "go with the Hobby tier if it's under $9, else Team, and press Continue",
        r#"1. if "Hobby tier" < 9 then [select exactly ["Hobby tier"]] else [select exactly ["Team"]] → 2. click "Continue""#,
    ),
    (
        "Please pick Economy when it costs less of 300 euros, if not pick Flex, then click Book",
        r#"1. if "Economy" < 300 then [select exactly ["Economy"]] else [select exactly ["Flex"]] → 2. click "Book""#,
    ),
    (
        "Basic if below $15 otherwise Pro",
        r#"1. if "Basic" < 15 then [select exactly ["Basic"]] else [select exactly ["Pro"]]"#,
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
