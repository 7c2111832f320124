//! The `state` object: which keys appear for which elements, and the
//! options column decoded safely.

use super::*;
use crate::engine::snapshot;
use crate::options::SnapshotOptions;
use crate::test_dom::{el, PageBuilder};

const T: Option<bool> = Some(true);
const F: Option<bool> = Some(false);

fn states(page: PageBuilder) -> Vec<(String, ElementState)> {
    let snap = snapshot(&page.build(), &SnapshotOptions::default(), "test");
    let mut out: Vec<(u32, String, ElementState)> = snap
        .elements
        .into_iter()
        .map(|e| (e.id, e.text.unwrap_or_default(), e.state))
        .collect();
    out.sort_by_key(|(id, _, _)| *id);
    out.into_iter().map(|(_, t, s)| (t, s)).collect()
}

fn opt(text: &str, value: &str, selected: bool) -> SelectOption {
    SelectOption {
        text: text.into(),
        value: value.into(),
        selected,
    }
}

#[test]
fn checkboxes_radios_and_switches_say_checked() {
    let got = states(
        PageBuilder::new(800.0, 600.0)
            .node(el("input").typ("checkbox").aria_label("a").checked())
            .node(el("input").typ("checkbox").aria_label("b"))
            .node(el("input").typ("checkbox").aria_label("c").mixed())
            .node(el("div").role("switch").aria_label("d").checked())
            .node(el("input").typ("radio").aria_label("e"))
            .node(el("button").text("f")),
    );
    let checked: Vec<Option<Checked>> = got.iter().map(|(_, s)| s.checked).collect();
    assert_eq!(
        checked,
        vec![
            Some(Checked::Bool(true)),
            Some(Checked::Bool(false)),
            Some(Checked::Mixed(Mixed::Mixed)),
            Some(Checked::Bool(true)),
            Some(Checked::Bool(false)),
            None,
        ]
    );
}

#[test]
fn flags_map_to_keys_only_when_set() {
    let got = states(
        PageBuilder::new(800.0, 600.0)
            .node(el("button").text("plain"))
            .node(el("button").text("off").disabled())
            .node(el("input").typ("email").aria_label("mail").required())
            .node(el("summary").text("open").expanded())
            .node(el("summary").text("closed").collapsed())
            .node(el("div").role("tab").text("tab1").has_selected().selected())
            .node(el("div").role("tab").text("tab2"))
            .node(
                el("div")
                    .role("button")
                    .text("menu")
                    .has_popup()
                    .collapsed(),
            ),
    );
    let plain = &got[0].1;
    assert_eq!(plain, &ElementState::default());
    assert_eq!(got[1].1.disabled, T);
    assert_eq!(got[2].1.required, T);
    assert_eq!(got[2].1.disabled, None);
    assert_eq!((got[3].1.expanded, got[4].1.expanded), (T, F));
    assert_eq!((got[5].1.selected, got[6].1.selected), (T, F));
    assert_eq!(got[7].1.expanded, F);
    assert_eq!(got[7].1.selected, None);
}

#[test]
fn values_only_for_fields_and_cut_to_100_chars() {
    let long = "é".repeat(150);
    let got = states(
        PageBuilder::new(800.0, 600.0)
            .node(el("input").typ("text").aria_label("name").value("Ada"))
            .node(el("input").typ("text").aria_label("empty"))
            .node(el("textarea").aria_label("long").value(&long))
            .node(el("input").typ("submit").value("Send"))
            .node(el("select").aria_label("country").value("France")),
    );
    assert_eq!(got[0].1.value.as_deref(), Some("Ada"));
    assert_eq!(got[1].1.value, None);
    assert_eq!(got[2].1.value.as_deref(), Some("é".repeat(100).as_str()));
    assert_eq!(
        got[3].1.value, None,
        "a button's value is its text, not a state"
    );
    assert_eq!(got[4].1.value.as_deref(), Some("France"));
}

#[test]
fn select_options_decode() {
    let wire = "France\u{1d}fr\u{1d}1\u{1e}Germany\u{1d}de\u{1d}0";
    let got =
        states(PageBuilder::new(800.0, 600.0).node(el("select").aria_label("c").options(wire)));
    assert_eq!(
        got[0].1.options,
        Some(vec![opt("France", "fr", true), opt("Germany", "de", false)])
    );
}

#[test]
fn malformed_options_are_skipped_and_capped() {
    assert_eq!(options_of(""), None);
    assert_eq!(options_of("only text"), None);
    assert_eq!(
        options_of("a\u{1d}1\u{1e}b\u{1d}2\u{1d}1\u{1d}extra\u{1e}\u{1e}c\u{1d}3\u{1d}0"),
        Some(vec![opt("b", "2", true), opt("c", "3", false)])
    );
    let many: Vec<String> = (0..80).map(|i| format!("o{i}\u{1d}{i}\u{1d}0")).collect();
    assert_eq!(
        options_of(&many.join("\u{1e}")).map(|o| o.len()),
        Some(MAX_OPTIONS)
    );
}
