//! The phrasing table's rows for messages named by their author (docs/agent.md,
//! verbs/message.rs): found and opened first, then acted on.

use super::Intent;

const TABLE: &[(&str, &str)] = &[
    (
        "Please forward Effie's email to Bari.",
        r#"1. find of "Effie" the message by Effie → 2. click "Forward" → 3. type value[to]="Bari" → 4. submit send"#,
    ),
    (
        "Delete the email Neille sent me.",
        r#"1. find of "Neille" the message by Neille → 2. click "Delete""#,
    ),
    (
        "Trash that email from Jerrine.",
        r#"1. find of "Jerrine" the message by Jerrine → 2. click "Trash""#,
    ),
    (
        r#"Reply to Kevyn's email with the text "On my way""#,
        r#"1. find of "Kevyn" the message by Kevyn → 2. click "Reply" → 3. type message="On my way" → 4. submit send"#,
    ),
    (
        "Find the email by Neille and send it on to Britteny.",
        r#"1. find of "Neille" the email by Neille → 2. click "Forward" → 3. type value[to]="Britteny" → 4. submit send"#,
    ),
    (
        "Send Effie's email to Bari",
        r#"1. find of "Effie" the message by Effie → 2. click "Forward" → 3. type value[to]="Bari" → 4. submit send"#,
    ),
    // "an email to <address>": the address is the e-mail's value, never
    // the word "to" (a value is of its field's kind).
    (
        r#"Send an email to "lena@fjord.example" with subject "Rota" and message "Shifts swapped""#,
        r#"1. type email="lena@fjord.example" value[subject]="Rota" message="Shifts swapped" → 2. submit send"#,
    ),
    (
        "Send a mail to omar@dune.example with the subject Lunch",
        r#"1. type email[mail]="omar@dune.example" value[subject]="Lunch" → 2. submit send"#,
    ),
    // Not a message by someone: unchanged.
    ("Send the form", "1. submit send"),
    (
        r#"Remove "Blue mug" from my cart"#,
        r#"1. click "Remove" of "Blue mug""#,
    ),
    (
        "Find the email by Celestyn and forward that email to Theresita.",
        r#"1. find of "Celestyn" the email by Celestyn → 2. click "Forward" → 3. type value[to]="Theresita" → 4. submit send"#,
    ),
];

#[test]
fn messages_named_by_their_author() {
    let mut bad = Vec::new();
    for (task, want) in TABLE {
        let got = Intent::parse(task).describe();
        if got != *want {
            bad.push(format!("{task}\n  want {want}\n  got  {got}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
