//! The task language said many ways (docs/agent.md "Paraphrases: what was
//! misread"). Two tables:
//!
//! - `STRUCTURES`: one row per construct the surface passes (`surface.rs`)
//!   read — separators, questions, request framing, nominalised verbs, verb
//!   synonyms by role, particles, verb-last fragments, values with roles —
//!   with the issue's failing instructions among them;
//! - `SAME_TASK`: the MiniWoB++ *training* tasks' instruction styles, each
//!   said several more ways (politely, tersely, unquoted, as a question, in
//!   another order): every way must give the intent of the first.

use super::Intent;

const STRUCTURES: &[(&str, &str)] = &[
    // a light verb before another verb's form (learners' English)
    (
        r#"Please make archived the project moonbase"#,
        r#"1. click "Archive" of "project moonbase""#,
    ),
    (
        r#"make off the Weekly digest and make on Security alerts, then save"#,
        r#"1. unselect exactly ["Weekly digest"] → 2. select exactly ["Security alerts"] → 3. submit save"#,
    ),
    (
        r#"Please make accept of the cookies"#,
        r#"1. select exactly ["cookies"]"#,
    ),
    // a verb the lexicon lacks before the thing it acts on: the control
    // the verb names, for that thing
    (
        r#"unpublish the draft post Spring sale"#,
        r#"1. click "Unpublish" of "Spring sale""#,
    ),
    (
        r#"deactivate token build-bot-7"#,
        r#"1. click "Deactivate" of "build-bot-7""#,
    ),
    (
        r#"Please make suspended the user Tomás Ruiz"#,
        r#"1. click "Suspend" of "Tomás Ruiz""#,
    ),
    (
        r#"Please unpin the note about parking in the sidebar"#,
        r#"1. click "Unpin" of "note""#,
    ),
    // the issue's failing instructions (issue 23)
    (
        r#"Enter 10/11/2016 as the date and hit submit."#,
        r#"1. type value[date]="10/11/2016" → 2. click "submit""#,
    ),
    (
        r#"Enter 12:13 PM as the time and hit submit."#,
        r#"1. type value[time]="12:13 PM" → 2. click "submit""#,
    ),
    (
        r#"Click button ONE, wait 3 seconds, then click button TWO."#,
        r#"1. click button "ONE" → 2. wait 3s → 3. click button "TWO""#,
    ),
    (
        r#"Scroll to the bottom of the textarea, enter the name "Kanesha" then press "Cancel""#,
        r#"1. scroll textarea to end down → 2. type name="Kanesha" → 3. click "Cancel""#,
    ),
    (
        r#"Enter an item that starts with "Nor" and ends with "land"."#,
        r#"1. type value=(starts "Nor" ends "land")"#,
    ),
    (
        r#"Select Margy>Rosy>Wynne"#,
        r#"1. path "Margy" › "Rosy" › "Wynne""#,
    ),
    (
        r#"Sign in with email grace@example.com and password "c0b0l!""#,
        r#"1. type email="grace@example.com" password="c0b0l!" → 2. submit sign in"#,
    ),
    // separators: a slash between items; an identifier / secret pair in a sign-in
    (
        r#"ada@lovelace.dev / analytical-engine, sign in"#,
        r#"1. type email="ada@lovelace.dev" password="analytical-engine" → 2. submit sign in"#,
    ),
    (
        r#"mkowalski / Tr4il-mix!, log in"#,
        r#"1. type username="mkowalski" password="Tr4il-mix!" → 2. submit log in"#,
    ),
    (
        r#"log me in with my password, not Google: mkowalski / Tr4il-mix!"#,
        r#"1. type username="mkowalski" password="Tr4il-mix!" → 2. submit log me in"#,
    ),
    (
        r#"name Dana Whitfield / email dana@whitfield.test / send"#,
        r#"1. type name="Dana Whitfield" email="dana@whitfield.test" → 2. submit send"#,
    ),
    // questions: context for the next request's pronoun, a request asked as a question, something to read
    (
        r#"do they sell wireless headphones? search for them"#,
        r#"1. search search query="wireless headphones""#,
    ),
    (
        r#"where is the order that went to Denver? track it"#,
        r#"1. click "Track" of "order went to Denver""#,
    ),
    (
        r#"Priya Nair left last week, can you suspend her?"#,
        r#"1. type value[suspend]="Priya Nair""#,
    ),
    (r#"order total?"#, r#"1. find order total"#),
    (
        r#"how much have I got in savings right now?"#,
        r#"1. find how much have I got in savings right now"#,
    ),
    (
        r#"Central Station, trip 3: departure time?"#,
        r#"1. find Central Station trip 3 departure time"#,
    ),
    (
        r#"Please say me the balance of my savings"#,
        r#"1. find the balance of my savings"#,
    ),
    // request framing at a clause's start
    (
        r#"hey can u log me in, email jun@ledgerly.test, password Bl0ssom#22"#,
        r#"1. type email="jun@ledgerly.test" password="Bl0ssom#22" → 2. submit log me in"#,
    ),
    (
        r#"Could you click the "No" button?"#,
        r#"1. click button "No""#,
    ),
    // nominalised verbs after a light verb
    (
        r#"Please do the login for ada@lovelace.dev, password is analytical-engine"#,
        r#"1. type email="ada@lovelace.dev" password="analytical-engine" → 2. submit log in"#,
    ),
    (
        r#"Please make a search of wireless headphones"#,
        r#"1. search search query="wireless headphones""#,
    ),
    // verb synonyms, grouped by role
    // "if not" is "otherwise", never a condition; courtesy before "if"
    (
        r#"if "Sold out" is shown, join the waitlist with pia@run.test, if not click "Add to cart""#,
        r#"1. if shows "Sold out" then [type email="pia@run.test"; submit join] else [click "Add to cart"]"#,
    ),
    (
        r#"Please if Premium costs less than $20 choose it, otherwise choose Standard"#,
        r#"1. if "Premium" < 20 then [select exactly ["Premium"]] else [select exactly ["Standard"]]"#,
    ),
    // a synonym rewritten to a toggle keeps its words as said: the
    // control they name where the page has no such toggle
    (
        r#"Stop sync"#,
        r#"1. unselect exactly ["sync"] (else click "Stop sync")"#,
    ),
    (
        r#"kill the session for Phone"#,
        r#"1. unselect of "Phone" exactly ["session for Phone"] (else click "kill session" of "Phone")"#,
    ),
    (
        r#"could you mute notifications, then save"#,
        r#"1. unselect exactly ["notifications"] (else click "mute notifications") → 2. submit save"#,
    ),
    (
        r#"get rid of the project old-landing"#,
        r#"1. click "Delete" of "old-landing""#,
    ),
    (
        r#"take out the Travel tumbler"#,
        r#"1. click "Remove" of "Travel tumbler""#,
    ),
    (
        r#"drop travel tumbler"#,
        r#"1. click "Remove" of "travel tumbler""#,
    ),
    (
        r#"get me into Trellis, noor@trellis.test, password kite-runner-7"#,
        r#"1. type email="noor@trellis.test" password="kite-runner-7" → 2. submit log into"#,
    ),
    (
        r#"Please inscribe kai@greenleaf.test to the weekly offers"#,
        r#"1. type email="kai@greenleaf.test" → 2. submit sign up"#,
    ),
    (
        r#"Please put off the Email notifications and put on the Push notifications and save"#,
        r#"1. unselect exactly ["Email notifications"] (else click "put off Email notifications") → 2. select exactly ["Push notifications"] (else click "put on Push notifications") → 3. submit save"#,
    ),
    (
        r#"Please put the recovery email rosa.backup@mail.test and activate the two-step verification, save changes"#,
        r#"1. type email[recovery email]="rosa.backup@mail.test" → 2. select exactly ["two-step verification"] (else click "activate two-step verification") → 3. submit save"#,
    ),
    (
        r#"Please wait that the status is Live and after click Promote to all regions"#,
        r#"1. wait until shows "Live" → 2. click "Promote to all regions""#,
    ),
    // particles: a toggle said after its object
    (
        r#"email notifications off, push on, save"#,
        r#"1. unselect exactly ["email notifications"] → 2. select exactly ["push"] → 3. submit save"#,
    ),
    (
        r#"switch two-step verification on, then save"#,
        r#"1. select exactly ["two-step verification"] → 2. submit save"#,
    ),
    // verb last: the object said before its verb
    (
        r#"INV-2043, download"#,
        r#"1. click "Download" of "INV-2043""#,
    ),
    (r#"cheapest plan, select"#, r#"1. select least "plan""#),
    (
        r#"catalogue search: octopus"#,
        r#"1. search search query="octopus""#,
    ),
    (
        r#"weekly offers signup: kai@greenleaf.test"#,
        r#"1. type email="kai@greenleaf.test" → 2. submit sign up"#,
    ),
    (
        r#"ZrLIee, RKPgD, 3mJ5: select them and click Submit"#,
        r#"1. select exactly ["ZrLIee", "RKPgD", "3mJ5"] → 2. click "Submit""#,
    ),
    // values with roles: a count, "make X my Y", "I'm <name>", a desire, an abbreviated field noun
    (
        r#"blue enamel mug x3, drop travel tumbler, checkout"#,
        r#"1. type of "blue enamel mug" value[quantity]="3" → 2. click "Remove" of "travel tumbler" → 3. submit checkout"#,
    ),
    (
        r#"make rosa.backup@mail.test my recovery address and switch two-step verification on, then save"#,
        r#"1. type value[recovery address]="rosa.backup@mail.test" → 2. select exactly ["two-step verification"] → 3. submit save"#,
    ),
    (
        r#"Make me an account: I'm Maya Lin, maya@studio.test, password Vietnam1982"#,
        r#"1. type name="Maya Lin" email="maya@studio.test" password="Vietnam1982" → 2. submit make me an account"#,
    ),
    (
        r#"I want the least expensive plan"#,
        r#"1. select least "plan""#,
    ),
    (
        r#"I'll take the cheapest plan"#,
        r#"1. select least "plan""#,
    ),
    // A desire beside another request chooses nothing; "add it to order":
    // the pronoun with nothing before it is no part of the target.
    (
        r#"Please I want a Large pizza, add it to order"#,
        r#"1. click "Add to order""#,
    ),
    (
        r#"it is jun@ledgerly.test and the pw is Bl0ssom#22, log in"#,
        r#"1. type email="jun@ledgerly.test" password[pw]="Bl0ssom#22" → 2. submit log in"#,
    ),
    // clause boundaries and fields said first (from the MiniWoB++ training styles)
    (
        r#"Please click button ONE, after that click button TWO."#,
        r#"1. click button "ONE" → 2. click button "TWO""#,
    ),
    (
        r#"Fill both text fields with the password "rUT3X" and press submit."#,
        r#"1. type every field password="rUT3X" → 2. click "submit""#,
    ),
    (
        r#"Select the date 10/11/2016 and hit submit."#,
        r#"1. type value[date]="10/11/2016" → 2. click "submit""#,
    ),
    (
        r#"Put the focus on the 3rd input textbox"#,
        r#"1. focus #3 field"#,
    ),
    (r#"Press the No button."#, r#"1. click button "No""#),
    (
        r#"Click the Retweet button on all posts by @enola and then click Submit."#,
        r#"1. click every button "Retweet" of "@enola" → 2. click "Submit""#,
    ),
];

/// (MiniWoB++ training task, its instruction as the task says it, then
/// other ways of saying it.)
const SAME_TASK: &[(&str, &[&str])] = &[
    (
        "click-button",
        &[
            r#"Click on the "No" button."#,
            r#"Click the "No" button"#,
            r#"Please click on the "No" button"#,
            r#"Could you click the "No" button?"#,
            r#"I want you to click on the "No" button."#,
            r#"Press the No button."#,
            r#"the "No" button, click"#,
        ],
    ),
    (
        "click-button-sequence",
        &[
            r#"Click button ONE, then click button TWO."#,
            r#"Click button ONE and then click button TWO"#,
            r#"Please click button ONE, after that click button TWO."#,
            r#"Could you click button ONE, then click button TWO?"#,
            r#"First click button ONE; then click button TWO"#,
            r#"click button ONE. click button TWO."#,
        ],
    ),
    (
        "click-checkboxes",
        &[
            r#"Select ZrLIee, RKPgD, 3mJ5 and click Submit."#,
            r#"Please select ZrLIee, RKPgD and 3mJ5, then click Submit"#,
            r#"Select "ZrLIee", "RKPgD", "3mJ5" and click Submit."#,
            r#"I'd like you to select ZrLIee, RKPgD, 3mJ5 and click Submit"#,
            r#"ZrLIee, RKPgD, 3mJ5: select them and click Submit"#,
        ],
    ),
    (
        "choose-date",
        &[
            r#"Select 10/11/2016 as the date and hit submit."#,
            r#"Please select 10/11/2016 as the date, then hit submit"#,
            r#"select "10/11/2016" as the date and hit submit"#,
            r#"Choose 10/11/2016 as the date and hit submit"#,
            r#"Could you select 10/11/2016 as the date and hit submit?"#,
            r#"Select the date 10/11/2016 and hit submit."#,
        ],
    ),
    (
        "focus-text-2",
        &[
            r#"Focus into the 3rd input textbox."#,
            r#"Focus into the third input textbox"#,
            r#"Please focus into the 3rd input textbox."#,
            r#"Put the focus on the 3rd input textbox"#,
            r#"Focus on the 3rd input textbox"#,
        ],
    ),
    (
        "enter-password",
        &[
            r#"Enter the password "rUT3X" into both text fields and press submit."#,
            r#"Enter the password rUT3X into both text fields and press submit"#,
            r#"Please type the password "rUT3X" into both text fields, then press submit"#,
            r#"Put the password "rUT3X" in both text fields and press submit."#,
            r#"Fill both text fields with the password "rUT3X" and press submit."#,
        ],
    ),
    (
        "login-user",
        &[
            r#"Enter the username "thaddeus" and the password "UT" into the text fields and press login."#,
            r#"Enter the username thaddeus and the password UT into the text fields and press login"#,
            r#"Please type the username "thaddeus" and the password "UT" into the text fields, then press login."#,
            r#"Could you enter the username "thaddeus" and the password "UT" into the text fields and press login?"#,
            r#"Username "thaddeus" and password "UT" into the text fields, then press login"#,
        ],
    ),
    (
        "use-autocomplete",
        &[
            r#"Enter an item that starts with "Sa" and ends with "ino"."#,
            r#"Enter an item that starts with Sa and ends with ino"#,
            r#"Enter an item starting with "Sa" and ending with "ino""#,
            r#"Please type an item that begins with "Sa" and ends with "ino"."#,
            r#"Enter an item that starts with "Sa" and ends in "ino"."#,
        ],
    ),
    (
        "use-slider",
        &[
            r#"Select 104 with the slider and hit Submit."#,
            r#"Please select 104 with the slider, then hit Submit"#,
            r#"Select "104" using the slider and hit Submit"#,
            r#"Could you select 104 with the slider and hit Submit?"#,
            r#"Choose 104 with the slider and hit Submit."#,
        ],
    ),
    (
        "use-slider-2",
        &[
            r#"Set the sliders to the combination [10,18,15] and submit."#,
            r#"Please set the sliders to the combination [10,18,15], then submit"#,
            r#"Set the sliders to [10,18,15] and submit."#,
            r#"Could you set the sliders to the combination [10,18,15] and submit?"#,
        ],
    ),
    (
        "click-widget",
        &[
            r#"Click on a "textarea" widget."#,
            r#"Please click on a "textarea" widget"#,
            r#"Click a "textarea" widget."#,
            r#"I want you to click on a "textarea" widget."#,
        ],
    ),
    (
        "social-media-all",
        &[
            r#"Click the "Retweet" button on all posts by @enola and then click Submit."#,
            r#"Please click the "Retweet" button on all posts by @enola, then click Submit"#,
            r#"Click the Retweet button on all posts by @enola and then click Submit."#,
            r#"Click the "Retweet" button on every post by @enola and then click Submit."#,
        ],
    ),
    (
        "email-inbox-forward",
        &[
            r#"Find the email by Celestyn and forward that email to Theresita."#,
            r#"Please find the email by Celestyn, then forward that email to Theresita"#,
            r#"Find the email by Celestyn and forward it to Theresita."#,
            r#"Locate the email by Celestyn and forward that email to Theresita."#,
        ],
    ),
    (
        "email-inbox-reply",
        &[
            r#"Find the email by Celestyn and reply to them with the text "Mi enim sapien, massa."."#,
            r#"Please find the email by Celestyn, then reply to them with the text "Mi enim sapien, massa."."#,
            r#"Find the email by Celestyn and reply with the text "Mi enim sapien, massa."."#,
        ],
    ),
    (
        "email-inbox-noscroll",
        &[
            r#"Find the email by Celestyn and click the star icon to mark it as important."#,
            r#"Please find the email by Celestyn, then click the star icon to mark it as important."#,
        ],
    ),
    (
        "book-flight",
        &[
            r#"Book the shortest one-way flight from: Rosario, WA to: Long Beach, CA on 12/19/2016."#,
            r#"Please book the shortest one-way flight from: Rosario, WA to: Long Beach, CA on 12/19/2016."#,
            r#"Could you book the shortest one-way flight from: Rosario, WA to: Long Beach, CA on 12/19/2016?"#,
        ],
    ),
    (
        "navigate-tree",
        &[
            r#"Navigate through the file tree. Find and click on the folder or file named "Emile"."#,
            r#"Please navigate through the file tree, then find and click on the folder or file named "Emile"."#,
            r#"Navigate through the file tree and click on the folder or file named "Emile"."#,
        ],
    ),
];

/// What the first way of each task says (so that a table of ways that all
/// parse to nothing cannot pass).
const SAME_TASK_INTENT: &[(&str, &str)] = &[
    ("click-button", r#"1. click button "No""#),
    (
        "click-button-sequence",
        r#"1. click button "ONE" → 2. click button "TWO""#,
    ),
    (
        "click-checkboxes",
        r#"1. select exactly ["ZrLIee", "RKPgD", "3mJ5"] → 2. click "Submit""#,
    ),
    (
        "choose-date",
        r#"1. type value[date]="10/11/2016" → 2. click "submit""#,
    ),
    ("focus-text-2", r#"1. focus #3 field"#),
    (
        "enter-password",
        r#"1. type every field password="rUT3X" → 2. click "submit""#,
    ),
    (
        "login-user",
        r#"1. type username="thaddeus" password="UT" → 2. click "login""#,
    ),
    (
        "use-autocomplete",
        r#"1. type value=(starts "Sa" ends "ino")"#,
    ),
    (
        "use-slider",
        r#"1. type slider value[slider]="104" → 2. click "Submit""#,
    ),
    (
        "use-slider-2",
        r#"1. type slider value[sliders]="10" value[sliders]="18" value[sliders]="15" → 2. submit submit"#,
    ),
    ("click-widget", r#"1. click widget "textarea""#),
    (
        "social-media-all",
        r#"1. click every button "Retweet" of "@enola" → 2. click "Submit""#,
    ),
    (
        "email-inbox-forward",
        r#"1. find of "Celestyn" the email by Celestyn → 2. click "Forward" → 3. type value[to]="Theresita" → 4. submit send"#,
    ),
    (
        "email-inbox-reply",
        r#"1. find of "Celestyn" the email by Celestyn → 2. click "Reply" → 3. type message="Mi enim sapien, massa." → 4. submit send"#,
    ),
    (
        "email-inbox-noscroll",
        r#"1. find of "Celestyn" the email by Celestyn → 2. click "star icon""#,
    ),
    (
        "book-flight",
        r#"1. type value[from]="Rosario, WA" value[to]="Long Beach, CA" value[on]="12/19/2016" → 2. submit book → 3. click shortest "Book""#,
    ),
    (
        "navigate-tree",
        r#"1. explore item → 2. click item "Emile""#,
    ),
];

#[test]
fn each_structure_reads_as_its_intent() {
    let mut bad = Vec::new();
    for (task, want) in STRUCTURES {
        let got = Intent::parse(task).describe();
        if got != *want {
            bad.push(format!("{task}\n  want {want}\n  got  {got}"));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} rows:\n{}",
        bad.len(),
        STRUCTURES.len(),
        bad.join("\n")
    );
}

#[test]
fn a_training_task_said_any_way_reads_the_same() {
    let mut bad = Vec::new();
    for (name, ways) in SAME_TASK {
        let want = SAME_TASK_INTENT
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, w)| *w)
            .unwrap_or_default();
        for way in *ways {
            let got = Intent::parse(way).describe();
            if got != want {
                bad.push(format!("{name}: {way}\n  want {want}\n  got  {got}"));
            }
        }
    }
    let total: usize = SAME_TASK.iter().map(|(_, w)| w.len()).sum();
    assert!(
        bad.is_empty(),
        "{} of {total} ways:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
