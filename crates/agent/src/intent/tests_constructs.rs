//! Constructs of the task language found misread in the training pages'
//! paraphrases (issue 23, branch issue-23p; docs/agent.md "Paraphrase
//! constructs, third pass"). One group of rows per construct; every
//! sentence here is invented for the test (none is a benchmark task's).

use super::Intent;

/// (construct, instruction, how it must read).
const CONSTRUCTS: &[(&str, &str, &str)] = &[
    // "Please to <verb>": learners' courtesy before an infinitive.
    (
        "courtesy + to",
        r#"Please to sign up with email ruth@kettle.test"#,
        r#"1. type email="ruth@kettle.test" → 2. submit sign up"#,
    ),
    // A change of state said with a verb of motion: "goes green".
    (
        "wait: goes / gets",
        r#"wait until the build goes green, then click Release"#,
        r#"1. wait until shows "green" → 2. click "Release""#,
    ),
    (
        "wait: goes / gets",
        r#"as soon as the import goes Done, click Continue"#,
        r#"1. wait until shows "Done" → 2. click "Continue""#,
    ),
    // Values said one after another without commas.
    (
        "run-on values",
        r#"pay with card 5555 4444 3333 1111 expiry 11/29 cvv 987"#,
        r#"1. type value[card]="5555 4444 3333 1111" value[expiry]="11/29" value[cvv]="987" → 2. submit pay"#,
    ),
    // An ordinal, a noun, "of" and a name: whose thing.
    (
        "ordinal + of + name",
        r#"open the third invoice of Marta Silva"#,
        r#"1. expand #3 "invoice" of "Marta Silva""#,
    ),
    (
        "ordinal + of + name",
        r#"select the 2nd photo of "Harbour walk""#,
        r#"1. select #2 of "Harbour walk""#,
    ),
];

#[test]
fn each_construct_reads_as_its_intent() {
    let mut bad = Vec::new();
    for (construct, task, want) in CONSTRUCTS {
        let got = Intent::parse(task).describe();
        if got != *want {
            bad.push(format!("[{construct}] {task}\n  want {want}\n  got  {got}"));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} rows:\n{}",
        bad.len(),
        CONSTRUCTS.len(),
        bad.join("\n")
    );
}
