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
    // "enter to / in / into" a place (no field, no value): going in.
    (
        "enter + a place = log in",
        r#"Please enter to Quillbox with user mira and password tide-pool-4"#,
        r#"1. type username[user]="mira" password="tide-pool-4" → 2. submit log into"#,
    ),
    (
        "enter + a place = log in",
        r#"please enter into my profile, email tam@fern.test, password Moss!9"#,
        r#"1. type email="tam@fern.test" password="Moss!9" → 2. submit log into"#,
    ),
    (
        "enter + a place = log in",
        r#"enter "Lisbon" into the destination field"#,
        r#"1. type field value[destination]="Lisbon""#,
    ),
    // A statement before the request: context, and what its pronoun,
    // "that <noun>" or "the <ordinal> one" stands for.
    (
        "statement + pronoun",
        r#"Ana Ruiz sent me three files, open the last one"#,
        r#"1. expand last item of "Ana Ruiz""#,
    ),
    (
        "statement + pronoun",
        r#"Marek Nowak mailed me two invoices, open the first one"#,
        r#"1. expand #1 "invoice" of "Marek Nowak""#,
    ),
    (
        "statement + pronoun",
        r#"the staging-db backup finished, download it"#,
        r#"1. click "Download" of "staging-db""#,
    ),
    (
        "statement + pronoun",
        r#"we don't need blue-lagoon anymore, remove it"#,
        r#"1. click "Remove" of "blue-lagoon""#,
    ),
    (
        "statement + pronoun",
        r#"I changed teams, turn off the weekly digest"#,
        r#"1. unselect exactly ["weekly digest"]"#,
    ),
    (
        "statement + pronoun",
        r#"the banner that blinks drives me crazy, turn it off"#,
        r#"1. unselect exactly ["banner"]"#,
    ),
    // …but a sentence with a value in it is no context to drop.
    (
        "statement + pronoun",
        r#"We are a party of 6. Please book the terrace table."#,
        r#"1. type value=(phrase "We are a party of 6") → 2. submit book"#,
    ),
    // "add / create <a thing>" followed by two or more values named by
    // their fields: a form filled and sent, not a control clicked (branch
    // issue-23f, batch 4).
    (
        "add + named values = a form",
        r#"Add a supplier with tax number "DE81234", phone "030 5550 1234""#,
        r#"1. type value[tax number]="DE81234" phone="030 5550 1234" → 2. submit add"#,
    ),
    (
        "add + named values = a form",
        r#"Create a vehicle: plate "KX21 4TZ", fleet number "0042", driver "Ines Moro""#,
        r#"1. type value[fleet number]="0042" value[plate]="KX21 4TZ" value[driver]="Ines Moro" → 2. submit create"#,
    ),
    // …unquoted, a comma list whose parts end in codes is a list of values.
    (
        "add + named values = a form",
        r#"Add a vehicle Blue Van, plate number KX21 4TZ, fleet number 0042"#,
        r#"1. type value[vehicle]="Blue Van" value[plate number]="KX21 4TZ" value[fleet number]="0042" → 2. submit add"#,
    ),
    // …but things put somewhere, or one thing, stay a click.
    (
        "add + named values = a form",
        r#"add the green kettle and 2 mugs to my basket"#,
        r#"1. click "Add" of "green kettle and 2 mugs to basket""#,
    ),
    (
        "add + named values = a form",
        r#"Add a new address"#,
        r#"1. click "Add" of "new address""#,
    ),
    // A word just before a quoted value is that value's label, never the
    // value of the field noun before it (issue-23g, fifth batch).
    (
        "label before a quote",
        r#"Change the delivery address: street "5 Elm Row", city "Leeds", postcode "LS1 4AB""#,
        r#"1. type value[city]="Leeds" value[postcode]="LS1 4AB" value[street]="5 Elm Row""#,
    ),
    // "change X to" a list of values each said after its field's words:
    // field nouns read as such, the rest phrases split on the page.
    (
        "labelled list after to",
        r#"Change the billing address to street 12 Oak Rd, city Springfield, state IL, zip code 62704"#,
        r#"1. type value=(phrase "street 12 Oak Rd") value[city]="Springfield" value=(phrase "state IL") value[zip code]="62704""#,
    ),
    // A set named by the group it belongs to is a set, not one value.
    (
        "set as its group",
        r#"Select "Tea", "Coffee" and "Juice" as the drinks you order"#,
        r#"1. select exactly ["Tea", "Coffee", "Juice"]"#,
    ),
    // The relation after a set is no part of its last item.
    (
        "set + relation",
        r#"Tick Tea, Coffee and Juice under the drinks you order and continue"#,
        r#"1. select below "drinks you order" exactly ["Tea", "Coffee", "Juice"] → 2. submit continue"#,
    ),
    // An amount of money is a value wherever it stands, without its sign.
    (
        "money",
        r#"Transfer $1,200.50 to "Joint Savings""#,
        r#"1. type value[amount]="1200.50" value[to]="Joint Savings" → 2. submit transfer"#,
    ),
    (
        "money",
        r#"Pay 75 dollars with the reference "Rent March""#,
        r#"1. type value[amount]="75" value[reference]="Rent March" → 2. submit pay"#,
    ),
    // A field named with a number: the number names it, never is its value.
    (
        "numbered field",
        r#"Save phone 2 "07700 900123" and email "nia@fern.test""#,
        r#"1. type phone[phone 2]="07700 900123" email="nia@fern.test" → 2. submit save"#,
    ),
    (
        "numbered field",
        r#"Add a supplier Kestrel Mills, address line 2 Unit 4, phone 2 01538 300400"#,
        r#"1. type value[supplier]="Kestrel Mills" value[address line 2]="Unit 4" phone[phone 2]="01538 300400" → 2. submit add"#,
    ),
    (
        "numbered field",
        r#"Address line 2 is Flat 6 and the postcode is KY16 9AJ."#,
        r#"1. type value[Address line 2]="Flat 6" value[postcode]="KY16 9AJ""#,
    ),
    (
        "numbered field",
        r#"Check out with address 7 Mill Row, postcode KY16 9AJ"#,
        r#"1. type value[address]="7 Mill Row" value[postcode]="KY16 9AJ" → 2. submit check out"#,
    ),
    // A field set "to" a value: the value is what follows "to".
    (
        "field to value",
        r#"Update my postcode to KY16 9AJ"#,
        r#"1. type value[postcode]="KY16 9AJ""#,
    ),
    // A thing made for a person: the person's name is a value.
    (
        "thing for a person",
        r#"Add an address for Tom Hale, postcode KY16 9AJ, city Leek"#,
        r#"1. type name="Tom Hale" value[postcode]="KY16 9AJ" value[city]="Leek" → 2. submit add"#,
    ),
];

#[test]
fn each_construct_reads_as_its_intent() {
    assert_rows_read_as_written(CONSTRUCTS);
}

/// Parses each row's task and fails listing every row whose reading
/// (`Intent::describe`) is not the one written: (construct, task, reading).
pub(super) fn assert_rows_read_as_written(rows: &[(&str, &str, &str)]) {
    let mut bad = Vec::new();
    for (construct, task, want) in rows {
        let got = Intent::parse(task).describe();
        if got != *want {
            bad.push(format!("[{construct}] {task}\n  want {want}\n  got  {got}"));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} rows:\n{}",
        bad.len(),
        rows.len(),
        bad.join("\n")
    );
}
