//! Roles and names come from the snapshot engine's own rules: on the
//! fixture pages, the elements found in the HTML alone have the role and
//! text the extension's snapshot of the same page is expected to have in
//! Chromium (tests/pages/*.expected.json, `expect` and `absent`).
//!
//! Known differences, each because there is no CSS or layout here:
//! - hidden.html hides with stylesheet classes (`.gone {display:none}`),
//!   which only a browser applies;
//! - modal.html and offscreen.html are about occlusion and scrolling;
//! - tamper.html and strict.csp.html need page scripts to run.

use sentience_browse::BrowsePage;
use serde_json::Value;

const AGREE: &[&str] = &["login", "labels", "state", "card-grid"];

fn check(name: &str) -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/pages");
    let html = std::fs::read_to_string(format!("{dir}/{name}.html")).expect("page");
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{dir}/{name}.expected.json")).expect("expected"),
    )
    .expect("json");
    let page = BrowsePage::parse(&html, "");
    let found: Vec<(&str, &str)> = page
        .elements
        .iter()
        .map(|e| (e.element.role.as_str(), e.text()))
        .collect();
    let mut problems = Vec::new();
    for want in expected["expect"].as_array().into_iter().flatten() {
        let role = want["role"].as_str();
        let text = want["text"].as_str();
        // Case-insensitive: card-grid's rubrics are upper-cased by CSS
        // `text-transform`, which innerText applies and markup does not.
        let ok = found.iter().any(|(r, t)| {
            role.is_none_or(|x| x == *r) && text.is_none_or(|x| x.eq_ignore_ascii_case(t))
        });
        if !ok {
            problems.push(format!("{name}: missing {want}"));
        }
    }
    for absent in expected["absent"].as_array().into_iter().flatten() {
        let role = absent["role"].as_str();
        let hit = found.iter().any(|(r, t)| {
            role.is_none_or(|x| x == *r)
                && match absent["text"].as_str() {
                    Some(text) => t.contains(text),
                    // `"text": null`: an element of that role without a name.
                    None => absent.get("text").is_some() && t.is_empty(),
                }
        });
        if hit {
            problems.push(format!("{name}: {absent} should be absent"));
        }
    }
    problems
}

#[test]
fn roles_and_names_agree_with_the_snapshot_of_the_same_page() {
    let problems: Vec<String> = AGREE.iter().flat_map(|p| check(p)).collect();
    assert!(problems.is_empty(), "{problems:#?}");
}
