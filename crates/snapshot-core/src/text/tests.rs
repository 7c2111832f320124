use super::*;
use crate::test_dom::el;
use crate::test_dom::El;

fn text(e: El, role: Role) -> Option<String> {
    let page = crate::test_dom::PageBuilder::new(100.0, 100.0)
        .node(e)
        .build();
    text_of(&page.nodes[0], role)
}

#[test]
fn labelledby_then_aria_label_then_native() {
    let b = el("button")
        .text("X")
        .aria_label("Close")
        .labelledby("Close dialog");
    assert_eq!(text(b, Role::Button).as_deref(), Some("Close dialog"));
    let b = el("button").text("X").aria_label("Close");
    assert_eq!(text(b, Role::Button).as_deref(), Some("Close"));
    let b = el("button").text("X").aria_label("   ");
    assert_eq!(text(b, Role::Button).as_deref(), Some("X"));
}

#[test]
fn inputs_value_placeholder_label_title() {
    let i = el("input")
        .typ("text")
        .value("bob")
        .placeholder("Name")
        .labels("Your name");
    assert_eq!(text(i, Role::Textbox).as_deref(), Some("bob"));
    let i = el("input")
        .typ("text")
        .placeholder("Name")
        .labels("Your name");
    assert_eq!(text(i, Role::Textbox).as_deref(), Some("Name"));
    let i = el("input").labels("Your name").title("tip");
    assert_eq!(text(i, Role::Textbox).as_deref(), Some("Your name"));
    let i = el("textarea").title("tip");
    assert_eq!(text(i, Role::Textbox).as_deref(), Some("tip"));
    let s = el("select").value("France").labels("Country");
    assert_eq!(text(s, Role::Combobox).as_deref(), Some("France"));
}

#[test]
fn password_value_never_leaks() {
    let i = el("input")
        .typ("password")
        .value("hunter2")
        .labels("Password");
    assert_eq!(text(i, Role::Textbox).as_deref(), Some("Password"));
    let i = el("input").typ("password").value("hunter2");
    assert_eq!(text(i, Role::Textbox), None);
}

#[test]
fn checkboxes_and_input_buttons() {
    let c = el("input")
        .typ("checkbox")
        .value("on")
        .labels("Remember me");
    assert_eq!(text(c, Role::Checkbox).as_deref(), Some("Remember me"));
    let c = el("input").typ("checkbox").value("on");
    assert_eq!(text(c, Role::Checkbox), None);
    let c = el("input").typ("radio").value("express");
    assert_eq!(text(c, Role::Radio).as_deref(), Some("express"));
    assert_eq!(
        text(el("input").typ("submit"), Role::Button).as_deref(),
        Some("Submit")
    );
    assert_eq!(
        text(el("input").typ("reset"), Role::Button).as_deref(),
        Some("Reset")
    );
    assert_eq!(text(el("input").typ("button"), Role::Button), None);
    let s = el("input").typ("submit").value("Go");
    assert_eq!(text(s, Role::Button).as_deref(), Some("Go"));
}

#[test]
fn images_and_icon_links() {
    let i = el("img").alt("Logo").title("Home");
    assert_eq!(text(i, Role::Image).as_deref(), Some("Logo"));
    let i = el("img").title("Home");
    assert_eq!(text(i, Role::Image).as_deref(), Some("Home"));
    let a = el("a").alt("Cart").title("Open cart");
    assert_eq!(text(a, Role::Link).as_deref(), Some("Cart"));
    let a = el("a").text("Cart (2)").alt("Cart");
    assert_eq!(text(a, Role::Link).as_deref(), Some("Cart (2)"));
}

#[test]
fn whitespace_and_truncation() {
    assert_eq!(normalize("  a \n\t b  ").as_deref(), Some("a b"));
    assert_eq!(normalize(" \n "), None);
    let long = "é".repeat(150);
    let t = normalize(&long).unwrap();
    assert_eq!(t.chars().count(), 100);
    // A space at the cut is not kept as a trailing space.
    let s = format!("{} b", "a".repeat(99));
    assert_eq!(normalize(&s).unwrap(), "a".repeat(99));
    let s = format!("{} bc", "a".repeat(98));
    assert_eq!(normalize(&s).unwrap(), format!("{} b", "a".repeat(98)));
}
