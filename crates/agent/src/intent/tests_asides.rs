//! Polite requests said as prose (issue 23, branch issue-23s): what is
//! said around a step (who it is for, why, a dash before the request), a
//! party said as counts, a set with its exclusion in brackets, the page's
//! own thing before "to" a count or a name, a thing described after a verb
//! the lexicon lacks (`surface/asides.rs`). Invented sentences, none a
//! training page's words.

use super::Intent;

const ROWS: &[(&str, &str)] = &[
    // who it is for, and why (said after the request)
    (
        "Please archive the sandbox workspace for me, it is not needed any more.",
        r#"1. click "Archive" of "sandbox workspace""#,
    ),
    (
        "Could you cancel the Tuesday booking for us? It's too late.",
        r#"1. click "Cancel" of "Tuesday booking""#,
    ),
    (
        "Could you find me a quiet hotel in Porto?",
        "1. find a quiet hotel in Porto",
    ),
    // "our" is a determiner as "my" is
    (
        "Please remove our staging webhook.",
        r#"1. click "Remove" of "staging webhook""#,
    ),
    // a party said as counts, before or after the request; a dash before it
    (
        "We're two adults and 2 children. Please find a cabin in Tromso.",
        r#"1. type value[adults]="2" value[children]="2" → 2. find a cabin in Tromso"#,
    ),
    (
        "Could you look for rooms in Ghent? There will be 4 adults.",
        r#"1. find rooms in Ghent → 2. type value[adults]="4""#,
    ),
    (
        "We are four adults and a baby - could you search for cabins in Bergen?",
        r#"1. type value[adults]="4" value[baby]="1" → 2. search search query="cabins in Bergen""#,
    ),
    // the page's own thing, then "to" a count with its noun, or a name
    (
        "Please raise my order to three boxes, then check out.",
        r#"1. type value[boxes]="3" → 2. submit check out"#,
    ),
    (
        "Could you bump our team up to 12 licences, please?",
        r#"1. type value[licences]="12""#,
    ),
    (
        "Could you please pass this case to Lina Berg?",
        r#"1. type value[pass to]="Lina Berg""#,
    ),
    // a thing described by what it comes with, the set's exclusion in brackets
    (
        "Could you fix me a small salad with tomatoes and feta (no onions), then add it to the basket?",
        r#"1. select exactly ["small salad"] → 2. select only ["tomatoes", "feta"] → 3. click "Add to basket""#,
    ),
    // kept: a statement with a value ("a current account"), a setting verb
    // ("move the card to Done"), a dash between values, a dash after a list
    (
        "Please set up Kettle Farm as a new supplier: sort code 20-11-44, it's a current account",
        r#"1. type value[new supplier]="Kettle Farm" value[sort code]="20-11-44" value=(phrase "it's a current account") → 2. submit create"#,
    ),
    ("Please move the card to Done.", r#"1. type value[card]="Done""#),
    (
        "Could you file a ticket titled Printer jam? It's low priority.",
        r#"1. type value[title]="Printer jam" value=(phrase "It's low priority") → 2. submit create"#,
    ),
    (
        "Our team uses Slack, Zoom and Notion - could you tick those?",
        r#"1. select exactly ["Slack", "Zoom", "Notion"]"#,
    ),
];

#[test]
fn polite_prose_reads_as_its_steps() {
    let mut bad = Vec::new();
    for (task, want) in ROWS {
        let got = Intent::parse(task).describe();
        if got != *want {
            bad.push(format!("{task}\n  want {want}\n  got  {got}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
