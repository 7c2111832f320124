//! The phrasing table (docs/agent.md): instructions as people write them → the
//! goal structure, shown by `Intent::describe` (one line: steps in order,
//! each with its verb, position, role, target text, relation, values as
//! `kind[label]="text"` after transforms, choices and arguments).

use super::{Choice, Done, Intent, Step, Transform, ValueSource};
use crate::task::FieldKind;

const TABLE: &[(&str, &str)] = &[
    (
        r#"Log in with username alice and password wonderland"#,
        r#"1. type username="alice" password="wonderland" → 2. submit log in"#,
    ),
    (
        r#"Log in as alice with password s3cret"#,
        r#"1. type username="alice" password="s3cret" → 2. submit log in"#,
    ),
    (
        r#"Log in as "alice" with password "s3cret""#,
        r#"1. type username="alice" password="s3cret" → 2. submit log in"#,
    ),
    (
        r#"Sign in with email bob@example.com and password: hunter2"#,
        r#"1. type email="bob@example.com" password="hunter2" → 2. submit sign in"#,
    ),
    (
        r#"Sign in using username "carol" and password "pa55""#,
        r#"1. type username="carol" password="pa55" → 2. submit sign in"#,
    ),
    (
        r#"Login with user dave and pass word qwerty"#,
        r#"1. type username[user]="dave" password[pass word]="qwerty" → 2. submit login"#,
    ),
    (
        r#"Log on as erin, password letmein"#,
        r#"1. type username="erin" password="letmein" → 2. submit log on"#,
    ),
    (
        r#"Please log in with username frank and password 1234."#,
        r#"1. type username="frank" password="1234" → 2. submit log in"#,
    ),
    // "label: value", as copied from a form or a message: the value keeps
    // its inner comma ("City, ST") and ends at the next label or at a
    // date with a preposition of its own.
    (
        r#"Book the shortest one-way flight from: Rosario, WA to: Long Beach, CA on 12/19/2016."#,
        r#"1. type value[from]="Rosario, WA" value[to]="Long Beach, CA" value[on]="12/19/2016" → 2. submit book → 3. click shortest "Book""#,
    ),
    (
        r#"Send a parcel with sender: Ana Ruiz and recipient: Sam Carter"#,
        r#"1. type value[sender]="Ana Ruiz" value[recipient]="Sam Carter" → 2. submit send"#,
    ),
    (r#"Click the button."#, r#"1. click button"#),
    (
        r#"Click on the link "Neque,"."#,
        r#"1. click link "Neque,""#,
    ),
    (
        r#"Click the "Submit" button"#,
        r#"1. click button "Submit""#,
    ),
    (r#"Click Submit."#, r#"1. click "Submit""#),
    (r#"Press the Log In button"#, r#"1. click button "Log In""#),
    (r#"Tap on "Continue""#, r#"1. click "Continue""#),
    (r#"Hit the search button"#, r#"1. click button "search""#),
    (r#"Click on Tab #3."#, r#"1. click "Tab #3""#),
    (r#"Click the 2nd link"#, r#"1. click #2 link"#),
    (r#"Click the last button"#, r#"1. click last button"#),
    (r#"Click the third item in the list"#, r#"1. click #3 item"#),
    (
        r#"Click the link below "Contact us""#,
        r#"1. click link below "Contact us""#,
    ),
    (
        r#"Click the button above "Footer""#,
        r#"1. click button above "Footer""#,
    ),
    (
        r#"Click the button next to "Email""#,
        r#"1. click button near "Email""#,
    ),
    (
        r#"Click the button in the dialog box labeled "x"."#,
        r#"1. click button "x""#,
    ),
    (
        r#"Click on a "textarea" widget."#,
        r#"1. click widget "textarea""#,
    ),
    (
        r#"Click on a "checkbox" widget."#,
        r#"1. click widget "checkbox""#,
    ),
    (
        r#"Click button ONE, then click button TWO."#,
        r#"1. click button "ONE" → 2. click button "TWO""#,
    ),
    (
        r#"Click the "Menu" button, and then find and click on the item labeled "Zoom In"."#,
        r#"1. click button "Menu" → 2. click item "Zoom In""#,
    ),
    (r#"Click "Pricing""#, r#"1. click "Pricing""#),
    (r#"Click on the "♥♥♥" button."#, r#"1. click button "♥♥♥""#),
    (r#"Press Enter"#, r#"1. press Enter"#),
    (r#"Go to the pricing page"#, r#"1. click "pricing""#),
    (
        r#"Go to checkout and pay with card "4242 4242 4242 4242""#,
        r#"1. click "checkout" → 2. type value[card]="4242 4242 4242 4242" → 3. submit pay"#,
    ),
    (
        r#"Go to http://127.0.0.1:8080/checkout.html and pay"#,
        r#"1. navigate http://127.0.0.1:8080/checkout.html → 2. submit pay"#,
    ),
    (
        r#"Navigate to https://example.com/docs"#,
        r#"1. navigate https://example.com/docs"#,
    ),
    (
        r#"Visit https://example.org"#,
        r#"1. navigate https://example.org"#,
    ),
    (
        r#"Open the "Settings" menu"#,
        r#"1. expand menu "Settings""#,
    ),
    (
        r#"Select S4 and click Submit."#,
        r#"1. select exactly ["S4"] → 2. click "Submit""#,
    ),
    (
        r#"Select ZrLIee, RKPgD, 3mJ5 and click Submit."#,
        r#"1. select exactly ["ZrLIee", "RKPgD", "3mJ5"] → 2. click "Submit""#,
    ),
    (
        r#"Select nothing and click Submit."#,
        r#"1. select nothing → 2. click "Submit""#,
    ),
    (
        r#"Select all and click Submit."#,
        r#"1. select all → 2. click "Submit""#,
    ),
    (
        r#"Select words similar to unhappy, happy and click Submit."#,
        r#"1. select like ["unhappy", "happy"] → 2. click "Submit""#,
    ),
    (
        r#"Select Brazil, Mauritania from the scroll list and click Submit."#,
        r#"1. select exactly ["Brazil", "Mauritania"] scroll list → 2. click "Submit""#,
    ),
    (
        r#"Select Somalia from the list and click Submit."#,
        r#"1. select exactly ["Somalia"] list → 2. click "Submit""#,
    ),
    (
        r#"Select "Red", "Green" and "Blue""#,
        r#"1. select exactly ["Red", "Green", "Blue"]"#,
    ),
    (r#"Check the 2nd checkbox"#, r#"1. select #2 checkbox"#),
    (
        r#"Check the "I agree" checkbox"#,
        r#"1. select checkbox exactly ["I agree"]"#,
    ),
    (r#"Tick both checkboxes"#, r#"1. select checkbox all"#),
    (
        r#"Uncheck "Newsletter""#,
        r#"1. unselect exactly ["Newsletter"]"#,
    ),
    (
        r#"Untick all the checkboxes"#,
        r#"1. unselect checkbox all"#,
    ),
    (
        r#"Choose Large from the size dropdown and click Add to cart"#,
        r#"1. select dropdown exactly ["Large"] size dropdown → 2. click "Add to cart""#,
    ),
    (r#"Pick the first option"#, r#"1. select #1 option"#),
    (
        r#"Select 12/25/2024 as the date"#,
        r#"1. type value[date]="12/25/2024""#,
    ),
    (
        r#"Select 104 with the slider and hit Submit."#,
        r#"1. type slider value[slider]="104" → 2. click "Submit""#,
    ),
    (
        r#"Select -95 with the slider"#,
        r#"1. type slider value[slider]="-95""#,
    ),
    (
        r#"Pick Large using the size dropdown"#,
        r#"1. type dropdown value[size dropdown]="Large""#,
    ),
    (
        r#"Set the sliders to the combination [8,4,5] and submit."#,
        r#"1. type slider value[sliders]="8" value[sliders]="4" value[sliders]="5" → 2. submit submit"#,
    ),
    (
        r#"Set the sliders to [25, 61] and click Apply."#,
        r#"1. type slider value[sliders]="25" value[sliders]="61" → 2. click "Apply""#,
    ),
    (
        r#"Adjust the volume to 30"#,
        r#"1. type value[volume]="30""#,
    ),
    (
        r#"Choose 10:30 as the time"#,
        r#"1. type value[time]="10:30""#,
    ),
    (
        r#"Select the Express option"#,
        r#"1. select option exactly ["Express"]"#,
    ),
    (
        r#"Expand the section below and click submit."#,
        r#"1. expand section → 2. click "submit""#,
    ),
    (
        r#"Expand the sections below, to find and click on the link "ut."."#,
        r#"1. expand every section → 2. click link "ut.""#,
    ),
    (
        r#"Expand "Shipping details""#,
        r#"1. expand "Shipping details""#,
    ),
    (r#"Open the second section"#, r#"1. expand #2 section"#),
    (
        r#"Switch between the tabs to find and click on the link "porttitor"."#,
        r#"1. explore every tab → 2. click link "porttitor""#,
    ),
    (
        r#"Switch to the "Reviews" tab"#,
        r#"1. click tab "Reviews""#,
    ),
    (
        r#"Open the "Billing" tab and click Save"#,
        r#"1. expand tab "Billing" → 2. click "Save""#,
    ),
    (
        r#"Navigate through the file tree. Find and click on the folder or file named "Livia"."#,
        r#"1. explore item → 2. click item "Livia""#,
    ),
    (
        r#"Type "tora" in all upper case letters in the text input and press Submit."#,
        r#"1. type field value="TORA" → 2. click "Submit""#,
    ),
    (
        r#"Type "Hello" in lower case into the field"#,
        r#"1. type field value="hello""#,
    ),
    (
        r#"Type "stressed" reversed into the text box"#,
        r#"1. type field value="desserts""#,
    ),
    (
        r#"Type hello world reversed into the message box"#,
        r#"1. type field message="dlrow olleh""#,
    ),
    (
        r#"Enter the password "rUT3X" into both text fields and press submit."#,
        r#"1. type every field password="rUT3X" → 2. click "submit""#,
    ),
    (
        r#"Enter the username "thaddeus" and the password "UT" into the text fields and press login."#,
        r#"1. type username="thaddeus" password="UT" → 2. click "login""#,
    ),
    (
        r#"Enter "Truman" into the text field"#,
        r#"1. type field value="Truman""#,
    ),
    (
        r#"Enter alice into the username field"#,
        r#"1. type field username="alice""#,
    ),
    (
        r#"Enter 42 into the age field"#,
        r#"1. type field value[age]="42""#,
    ),
    (
        r#"Enter "x@y.z" in the email box and press Enter"#,
        r#"1. type field email="x@y.z" → 2. press Enter"#,
    ),
    (
        r#"Type bob@example.com into the email field"#,
        r#"1. type field email="bob@example.com""#,
    ),
    (
        r#"Use the textbox to enter "Truman" and press "Search", then find and click the 5th search result."#,
        r#"1. type field value="Truman" → 2. click "Search" → 3. click #5 result"#,
    ),
    (
        r#"Enter an item that starts with "Sa" and ends with "ino"."#,
        r#"1. type value=(starts "Sa" ends "ino")"#,
    ),
    (
        r#"Type a word beginning with "pre" into the field"#,
        r#"1. type field value=(starts "pre" ends "")"#,
    ),
    (
        r#"Enter the phone number of Bob Smith into the Phone field and click Save."#,
        r#"1. type field phone=(the phone number of "Bob Smith") → 2. click "Save""#,
    ),
    (
        r#"Type the email of Alice into the text field"#,
        r#"1. type field value=(the email of "Alice")"#,
    ),
    (
        r#"Enter the price of the blue shirt into the box"#,
        r#"1. type field value=(the price of "blue shirt")"#,
    ),
    (
        r#"Fill the contact form with name "Bob", email "bob@example.com" and message "Hello there" and submit it"#,
        r#"1. type name="Bob" email="bob@example.com" message="Hello there" → 2. submit submit"#,
    ),
    (
        r#"Fill in the form with name Jane Doe and email jane@doe.com, then submit"#,
        r#"1. type name="Jane Doe" email="jane@doe.com" → 2. submit submit"#,
    ),
    (
        r#"Fill out the form: name "Ann", phone "555 0101""#,
        r#"1. type name="Ann" phone="555 0101""#,
    ),
    (
        r#"Put "Paris" in the city field"#,
        r#"1. type field value[city]="Paris""#,
    ),
    (
        r#"Write "Great product" in the comment box and click Post"#,
        r#"1. type field message[comment]="Great product" → 2. click "Post""#,
    ),
    (r#"Set the quantity to 3"#, r#"1. type value[quantity]="3""#),
    // A setting without its verb: "the F of X to V".
    (
        r#"Quantity of "Blue enamel mug" to 3, remove "Travel tumbler", check out"#,
        r#"1. type of "Blue enamel mug" value[Quantity]="3" → 2. click "Remove" of "Travel tumbler" → 3. submit check out"#,
    ),
    (
        r#"Size of the Oxford shirt to XL"#,
        r#"1. type of "Oxford shirt" value[Size]="XL""#,
    ),
    // "H with A, B and C only": H chosen, then exactly that set.
    (
        r#""Large" pizza with "Mushrooms", "Olives" and "Onions" only, add to order"#,
        r#"1. select exactly ["Large"] → 2. select only ["Mushrooms", "Olives", "Onions"] → 3. click "Add to order""#,
    ),
    (
        r#"A "Medium" coffee with "Oat milk" only"#,
        r#"1. select exactly ["Medium"] → 2. select only ["Oat milk"]"#,
    ),
    // Courtesy after a search term is no part of it.
    (
        r#"Please search for flights to San Francisco, thanks."#,
        r#"1. search search query="flights to San Francisco""#,
    ),
    (
        r#"Search for red shoes please"#,
        r#"1. search search query="red shoes""#,
    ),
    (r#"Focus into the textbox."#, r#"1. focus field"#),
    (
        r#"Focus into the 3rd input textbox."#,
        r#"1. focus #3 field"#,
    ),
    (r#"Focus on the last field"#, r#"1. focus last field"#),
    (r#"Search for "rust""#, r#"1. search search query="rust""#),
    (
        r#"Search for drama movies directed by Holloway from year 2011."#,
        r#"1. search search query="drama movies directed by Holloway from year 2011""#,
    ),
    (
        r#"Look up "weather in Paris""#,
        r#"1. search search query="weather in Paris""#,
    ),
    (
        r#"Search "cheap flights" and click the first result"#,
        r#"1. search search query="cheap flights" → 2. click #1 result"#,
    ),
    (
        r#"Find the contact information"#,
        r#"1. find the contact information"#,
    ),
    (r#"Find "Returns policy""#, r#"1. find "Returns policy""#),
    (
        r#"Scroll down and click "Load more""#,
        r#"1. scroll down → 2. click "Load more""#,
    ),
    (r#"Scroll to the bottom"#, r#"1. scroll to end down"#),
    (
        r#"Hover over the "Products" menu and click "Laptops""#,
        r#"1. hover menu "Products" → 2. click "Laptops""#,
    ),
    (
        r#"Pay for the order with card "4242 4242 4242 4242""#,
        r#"1. type value[card]="4242 4242 4242 4242" → 2. submit pay"#,
    ),
    (r#"Buy the red shoes"#, r#"1. submit buy"#),
    (r#"Submit the form"#, r#"1. submit submit"#),
    (
        r#"Register with email "new@user.com" and password "pw12345""#,
        r#"1. type email="new@user.com" password="pw12345" → 2. submit register"#,
    ),
    (
        r#"Sign up with username newbie and password: secret99"#,
        r#"1. type username="newbie" password="secret99" → 2. submit sign up"#,
    ),
    (
        r#"Please click the OK button, then close the dialog"#,
        r#"1. click button "OK" → 2. click "Close""#,
    ),
    (
        r#"Click OK; then click Cancel"#,
        r#"1. click "OK" → 2. click "Cancel""#,
    ),
    (
        r#"First click "Edit", then type "New title" into the title field, and then click Save"#,
        r#"1. click "Edit" → 2. type field value[title]="New title" → 3. click "Save""#,
    ),
    (
        r#"Select "Monthly" and then click Continue."#,
        r#"1. select exactly ["Monthly"] → 2. click "Continue""#,
    ),
    (
        r#"Enter "2" in the quantity field and click "Update cart""#,
        r#"1. type field value[quantity]="2" → 2. click "Update cart""#,
    ),
    (
        r#"Type "abc" into the 2nd field"#,
        r#"1. type #2 field value="abc""#,
    ),
    (
        r#"Enter "hello" into the field below "Subject""#,
        r#"1. type field below "Subject" value="hello""#,
    ),
    (
        r#"Click the checkbox labeled "Remember me" and click Log in"#,
        r#"1. click checkbox "Remember me" → 2. click "Log in""#,
    ),
    (
        r#"Select the radio button labeled "Yes""#,
        r#"1. select radio exactly ["Yes"]"#,
    ),
    (
        r#"Click the link named Careers"#,
        r#"1. click link "Careers""#,
    ),
    (
        r#"Click on the item called "Reports""#,
        r#"1. click item "Reports""#,
    ),
    (
        r#"Type "Hi" in capital letters into the message field"#,
        r#"1. type field message="HI""#,
    ),
    (
        r#"Choose "Canada" from the country dropdown"#,
        r#"1. select dropdown exactly ["Canada"] country dropdown"#,
    ),
    (
        r#"Open the menu and select "Logout""#,
        r#"1. expand menu → 2. select exactly ["Logout"]"#,
    ),
    // issue-23r: constructs of the pages added to training after the split.
    (
        r#"Please complete the checkout for me. Ship to Sam Carter at "12 Elm Street", Portland, postal code 97205. Thank you!"#,
        r#"1. type name="Sam Carter" value[street]="12 Elm Street" value[city]="Portland" value[postal code]="97205" → 2. submit complete"#,
    ),
    (
        r#"Deliver to Ana Ruiz at 4 Oak Road, Austin."#,
        r#"1. type name="Ana Ruiz" value[street]="4 Oak Road" value[city]="Austin""#,
    ),
    (
        r#"Submit a ticket with subject Cannot export invoices and the description The export button does nothing since Monday."#,
        r#"1. type value[subject]="Cannot export invoices" message[description]="The export button does nothing since Monday." → 2. submit submit"#,
    ),
    (
        r#"Log in with username mkowalski and password Tr4il-mix!"#,
        r#"1. type username="mkowalski" password="Tr4il-mix!" → 2. submit log in"#,
    ),
    (
        r#"Hi, please log me in. My username is mkowalski and my password is "Tr4il-mix!"."#,
        r#"1. type username="mkowalski" password="Tr4il-mix!" → 2. submit log me in"#,
    ),
    (
        r#"Could you sign me in to Trellis? Email noor@trellis.test, password "kite-runner-7". Thanks!"#,
        r#"1. type email="noor@trellis.test" password="kite-runner-7" → 2. submit sign me in"#,
    ),
    (
        r#"Please set my date of birth to March 7, 1990 and save it."#,
        r#"1. type of "birth" value[date]="03/07/1990" → 2. submit save"#,
    ),
    (
        r#"Please create a reminder to "Renew passport" on December 24, 2026 at 9:30 AM."#,
        r#"1. type value[on]="12/24/2026" value[at]="9:30 AM" value[reminder to]="Renew passport" → 2. submit create"#,
    ),
    (
        r#"Book a table on 7 March 2027"#,
        r#"1. type value[on]="03/07/2027" → 2. submit book"#,
    ),
    (
        r#"Gift message "Happy birthday, Mia!" from "Leo", place the order"#,
        r#"1. type message[Gift message]="Happy birthday, Mia!" value[from]="Leo" → 2. submit place the order"#,
    ),
    (
        r#"Track the order shipped to "Denver""#,
        r#"1. click "Track" of "Denver""#,
    ),
    (
        r#"If in stock, add to cart, otherwise join the waitlist with email pia@run.test"#,
        r#"1. if appears "in stock" then [click "Add to cart"] else [type email="pia@run.test"; submit join]"#,
    ),
    (
        r#"Street "9 Bay Lane", a city that starts with "Portland" and ends with "ME", continue"#,
        r#"1. type value[street]="9 Bay Lane" value[city]=(starts "Portland" ends "ME") → 2. submit continue"#,
    ),
    (
        r#"Enter 9 Bay Lane as the street, choose a city starting with Portland and ending with ME, and continue to payment"#,
        r#"1. type value[street]="9 Bay Lane" value[city]=(starts "Portland" ends "ME") → 2. submit continue"#,
    ),
    (
        r#"Export the report as "CSV" and download it when it is ready"#,
        r#"1. type value="CSV" → 2. click "Export" → 3. wait until shows "Download" → 4. click "Download""#,
    ),
    (
        r#"Choose CSV, click Export, wait until Download CSV file appears and click it"#,
        r#"1. select exactly ["CSV"] → 2. click "Export" → 3. wait until appears "Download CSV file" → 4. click "Download CSV file""#,
    ),
    (
        r#"Hi! Please log me into Orbit with ada@lovelace.dev and the password "analytical-engine"."#,
        r#"1. type email="ada@lovelace.dev" password="analytical-engine" → 2. submit log me into"#,
    ),
    (
        r#"Please download this document as a PDF; it is under File, then Download."#,
        r#"1. path "File" › "Download" → 2. type value="PDF" → 3. click "Download""#,
    ),
    (
        r#"Please download the PDF of invoice INV-2043; it is on the next page."#,
        r#"1. click "Download" of "PDF of invoice INV-2043""#,
    ),
    (
        r#"Please add a gift message saying "Happy birthday, Mia!" and place my order."#,
        r#"1. type message[gift message]="Happy birthday, Mia!" → 2. submit place my order"#,
    ),
    // "please" inside a sentence is courtesy, never part of the condition
    // (or target, or value) beside it.
    (
        r#"If the shoe is available please add it to my cart; otherwise put pia@run.test on the waitlist."#,
        r#"1. if shows "available" then [click "Add to cart" of "shoe"] else [type email="pia@run.test"]"#,
    ),
    // A password's own "!" before the comma that ends its part.
    (
        r#"username mkowalski, password Tr4il-mix!, log in"#,
        r#"1. type username="mkowalski" password="Tr4il-mix!" → 2. submit log in"#,
    ),
    // The word after "of" names the field with the noun, it is not the value.
    (
        r#"Date of birth "03/07/1990", save"#,
        r#"1. type value[Date of birth]="03/07/1990" → 2. submit save"#,
    ),
    // "the Portland that ends with ME": a name the constraint narrows,
    // not a field's noun.
    // A request in the passive, and a message marked important (its star).
    (
        r#"The email from Dale in the inbox of the app needs to be marked important."#,
        r#"1. find of "Dale" the message by Dale → 2. click "Star""#,
    ),
    (
        r#"Find Cassandry's email and mark it important."#,
        r#"1. find of "Cassandry" Cassandry's email → 2. click "Star""#,
    ),
    (
        r#"Set the email from Cassandry as an important email."#,
        r#"1. find of "Cassandry" the message by Cassandry → 2. click "Star""#,
    ),
    (
        r#"The old draft should be deleted."#,
        r#"1. click "Delete" of "old draft""#,
    ),
    // The person before the message: "forward Tammi the email from Elwira".
    (
        r#"I'd like to email Tammi the email I got from Elwira."#,
        r#"1. find of "Elwira" the message by Elwira → 2. click "Forward" → 3. type value[to]="Tammi" → 4. submit send"#,
    ),
    (
        r#"Forward Tammi the email from Elwira."#,
        r#"1. find of "Elwira" the message by Elwira → 2. click "Forward" → 3. type value[to]="Tammi" → 4. submit send"#,
    ),
    // Values read off the page, one per field, by the field's label.
    (
        r#"Enter the value that corresponds with each label into the form and submit when done."#,
        r#"1. type value=(each field's own, by its label) → 2. submit submit"#,
    ),
    (
        r#"Fill in every field with its value from the table, then submit."#,
        r#"1. type value=(each field's own, by its label) → 2. submit submit"#,
    ),
    (
        r#"Please deliver to "9 Bay Lane" in the Portland that ends with ME, then continue to payment."#,
        r#"1. type value[deliver to]="9 Bay Lane" value=(starts "Portland" ends "ME") → 2. submit continue"#,
    ),
    // Superlatives of time: a moment shown beside each thing, not its price.
    (
        r#"Select the earliest flight"#,
        r#"1. select earliest "flight""#,
    ),
    (
        r#"Search help for "two-factor" and open the newest article"#,
        r#"1. search search query="two-factor" → 2. expand latest "article""#,
    ),
    (
        r#"open the most recent invoice"#,
        r#"1. expand latest "invoice""#,
    ),
    // A superlative of distance: the distance shown beside each thing.
    (
        r#"Book the nearest dermatologist"#,
        r#"1. click nearest "Book""#,
    ),
    (
        r#"Select the closest store"#,
        r#"1. select nearest "store""#,
    ),
    // A lookup form: the values after "with" into their fields, then sent.
    (
        r#"Find my trip with confirmation code "K7Q2PX" and last name "Okafor""#,
        r#"1. type value[confirmation code]="K7Q2PX" name[last name]="Okafor" → 2. submit find"#,
    ),
    (
        r#"Look up the trip with confirmation code K7Q2PX and last name Okafor"#,
        r#"1. type value[confirmation code]="K7Q2PX" name[last name]="Okafor" → 2. submit look up"#,
    ),
];

#[test]
fn phrasing_table() {
    assert!(TABLE.len() >= 100, "the table has {} rows", TABLE.len());
    let mut wrong = Vec::new();
    for (task, want) in TABLE {
        let got = Intent::parse(task).describe();
        if got != *want {
            wrong.push(format!("{task}\n  want {want}\n  got  {got}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} rows differ:\n{}",
        wrong.len(),
        TABLE.len(),
        wrong.join("\n")
    );
}

#[test]
fn structure_behind_the_description() {
    let i = Intent::parse("Log in with username alice and password wonderland");
    assert_eq!(i.steps.len(), 2);
    let Step::Fill { values, .. } = &i.steps[0] else {
        panic!("a fill first: {:?}", i.steps[0]);
    };
    let kinds: Vec<FieldKind> = values.iter().map(|v| v.field).collect();
    assert_eq!(kinds, vec![FieldKind::Username, FieldKind::Password]);
    assert!(matches!(i.steps[1], Step::Submit { .. }));
    assert_eq!(i.done, Done::AllSteps);

    let t = Intent::parse(r#"Type "tora" in all upper case letters in the text input"#);
    assert_eq!(t.steps[0].values()[0].transforms, vec![Transform::Upper]);
    assert_eq!(t.steps[0].values()[0].text().as_deref(), Some("TORA"));

    let s = Intent::parse("Select nothing and click Submit.");
    assert!(matches!(
        &s.steps[0],
        Step::Choose {
            choice: Some(Choice::Nothing),
            ..
        }
    ));

    let l = Intent::parse("Enter the phone number of Bob Smith into the Phone field");
    assert_eq!(
        l.steps[0].values()[0].source,
        ValueSource::Lookup {
            what: "phone number".into(),
            key: "Bob Smith".into()
        }
    );

    assert_eq!(
        Intent::parse("Visit https://example.org").done,
        Done::Url("https://example.org".into())
    );
    assert_eq!(
        Intent::parse("Find the contact information").done,
        Done::Answer
    );
}

#[test]
fn odd_input_does_not_panic() {
    for t in [
        "",
        " ",
        "\"",
        "“unterminated",
        "and and then then",
        "Click",
        "Select , , and",
        "Type \"\" into",
        "é ü ß 漢字",
        "'",
    ] {
        let _ = Intent::parse(t).describe();
    }
}
