//! Selectors match exactly the element they were written for, by the
//! parser's own selector engine, on tricky markup: ids that need CSS
//! escaping, duplicate ids, forms without ids, repeated links.

use sentience_browse::selector::{escape_ident, quote};
use sentience_browse::{selector_candidates, BrowsePage};

fn selectors(html: &str) -> Vec<(String, String)> {
    selector_candidates(html)
        .into_iter()
        .map(|c| {
            assert!(
                c.verified,
                "unverified selector {} for {}",
                c.selector, c.text
            );
            (c.text, c.selector)
        })
        .collect()
}

fn selector_of(html: &str, text: &str) -> String {
    selectors(html)
        .into_iter()
        .find(|(t, _)| t == text)
        .map(|(_, s)| s)
        .unwrap_or_else(|| panic!("no element named {text:?} in {:?}", selectors(html)))
}

#[test]
fn css_escape_follows_cssom() {
    // CSSOM §2.1 serialize an identifier, and the values CSS.escape() gives in Chromium.
    assert_eq!(escape_ident("user"), "user");
    assert_eq!(escape_ident("1st"), "\\31 st");
    assert_eq!(escape_ident("-1x"), "-\\31 x");
    assert_eq!(escape_ident("-"), "\\-");
    assert_eq!(escape_ident("a.b:c"), "a\\.b\\:c");
    assert_eq!(escape_ident("a b"), "a\\ b");
    assert_eq!(escape_ident("x\u{7}y"), "x\\7 y");
    assert_eq!(escape_ident("é_ü-9"), "é_ü-9");
    assert_eq!(escape_ident("a\0b"), "a\u{FFFD}b");
    assert_eq!(
        quote("say \"hi\" \\ now\n"),
        "\"say \\\"hi\\\" \\\\ now\\a \""
    );
}

#[test]
fn ids_that_need_escaping_still_select_their_element() {
    let html = r#"<body>
        <button id="1st">One</button>
        <button id="a.b:c[d]">Two</button>
        <button id="with space">Three</button>
        <button id='q"uote'>Four</button>
        <button id="-">Five</button>
        <button id="日本">Six</button>
    </body>"#;
    assert_eq!(selector_of(html, "One"), "#\\31 st");
    assert_eq!(selector_of(html, "Two"), "#a\\.b\\:c\\[d\\]");
    assert_eq!(selector_of(html, "Three"), "#with\\ space");
    assert_eq!(selector_of(html, "Four"), "#q\\\"uote");
    assert_eq!(selector_of(html, "Five"), "#\\-");
    assert_eq!(selector_of(html, "Six"), "#日本");
}

#[test]
fn duplicate_ids_fall_back_to_something_unique() {
    let html = r#"<body>
        <form><input id="q" name="first" placeholder="First"><button id="go">Go</button></form>
        <form><input id="q" name="second" placeholder="Second"><button id="go">Go again</button></form>
        <div id="GO">quirks-mode pages match ids without case</div>
    </body>"#;
    assert_eq!(selector_of(html, "First"), "input[name=\"first\"]");
    assert_eq!(selector_of(html, "Second"), "input[name=\"second\"]");
    // Neither "#go" (twice) nor a position-free attribute: a position path.
    let go = selector_of(html, "Go");
    assert!(go.contains(":nth-of-type"), "{go}");
    assert_ne!(go, selector_of(html, "Go again"));
}

#[test]
fn test_ids_and_stable_attributes_come_before_positions() {
    let html = r#"<body>
        <div><button data-testid="save-btn">Save</button><button data-testid="save-btn" data-qa="x">Save copy</button></div>
        <a href="/a">Same</a><a href="/a">Same</a><a href="/b" aria-label="Bee">B</a>
        <input type="submit" value="Send">
        <input placeholder="Search the site">
        <button>Plain</button><button>Plain 2</button>
    </body>"#;
    assert_eq!(selector_of(html, "Save copy"), "[data-qa=\"x\"]");
    // A test id shared by two elements is no id: the next best thing.
    assert!(!selector_of(html, "Save").contains("data-testid"));
    assert_eq!(selector_of(html, "Bee"), "a[aria-label=\"Bee\"]");
    assert_eq!(
        selector_of(html, "Send"),
        "input[type=\"submit\"][value=\"Send\"]"
    );
    assert_eq!(
        selector_of(html, "Search the site"),
        "input[placeholder=\"Search the site\"]"
    );
    assert_eq!(selector_of(html, "Plain 2"), "body > button:nth-of-type(2)");
    // Two links with the same href and text: both listed, different paths.
    let same: Vec<String> = selectors(html)
        .into_iter()
        .filter(|(t, _)| t == "Same")
        .map(|(_, s)| s)
        .collect();
    assert_eq!(same.len(), 2);
    assert_ne!(same[0], same[1]);
}

#[test]
fn forms_without_ids_get_names_or_paths_anchored_at_an_id() {
    let html = r#"<body><main id="content"><section><form>
        <label>Email <input type="email"></label>
        <label>Email again <input type="email"></label>
        <textarea name="msg"></textarea>
        <select name="topic"><option>A</option><option selected>B</option></select>
    </form></section></main></body>"#;
    assert_eq!(
        selector_of(html, "Email"),
        "#content > section:nth-of-type(1) > form:nth-of-type(1) > label:nth-of-type(1) > input:nth-of-type(1)"
    );
    assert_eq!(
        selector_of(html, "Email again"),
        "#content > section:nth-of-type(1) > form:nth-of-type(1) > label:nth-of-type(2) > input:nth-of-type(1)"
    );
    assert!(selectors(html)
        .iter()
        .any(|(_, s)| s == "textarea[name=\"msg\"]"));
    assert!(selectors(html)
        .iter()
        .any(|(_, s)| s == "select[name=\"topic\"]"));
}

#[test]
fn every_fixture_page_selector_matches_exactly_its_element() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/pages");
    let mut pages = 0;
    for entry in std::fs::read_dir(dir).expect("tests/pages") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("html") {
            continue;
        }
        let html = std::fs::read_to_string(&path).expect("read");
        let page = BrowsePage::parse(&html, "");
        for e in &page.elements {
            let sel = page.selector(e).unwrap_or_else(|| {
                panic!(
                    "{}: no selector for element {}",
                    path.display(),
                    e.element.id
                )
            });
            let node = page.node_of(e).expect("every element has its node");
            assert!(
                sentience_browse::selector::verify(&page.html, &sel, node),
                "{}: {sel}",
                path.display()
            );
        }
        pages += 1;
    }
    assert!(pages >= 10, "only {pages} fixture pages found");
}

#[test]
fn repeated_attributes_are_scoped_by_an_id_before_falling_back_to_positions() {
    let html = r#"<body>
        <header id="top"><nav><a href="/">Home</a></nav></header>
        <div><div><footer id="foot"><p><a href="/">Home again</a></p></footer></div></div>
    </body>"#;
    assert_eq!(selector_of(html, "Home"), "#top a[href=\"/\"]");
    assert_eq!(selector_of(html, "Home again"), "#foot a[href=\"/\"]");
}

/// What was typed is state, not a name: the client writes a field's value
/// back as a `value` attribute the live page does not have, so a selector
/// built on it would match nothing there. A button input's value is its
/// label, and stays usable.
#[test]
fn typed_values_are_never_in_selectors_but_button_labels_are() {
    let html = r#"<body><form>
        <input type="text" value="surreal movies 1995">
        <input type="text" value="">
        <input type="button" value="Go">
    </form></body>"#;
    let all = selectors(html);
    assert!(
        all.iter()
            .all(|(_, s)| !s.contains("surreal") && !s.contains("[value=\"\"]")),
        "{all:?}"
    );
    assert_eq!(
        selector_of(html, "Go"),
        "input[type=\"button\"][value=\"Go\"]"
    );
}

/// The demo store's log-in button (no id, no name): the only submit button
/// of the page is named by its type, not by a position path.
#[test]
fn the_only_element_of_its_type_is_named_by_it() {
    let html = include_str!("../../../demo/login.html");
    assert_eq!(selector_of(html, "Log in"), "button[type=\"submit\"]");
    assert_eq!(selector_of(html, "Username"), "#username");
}
