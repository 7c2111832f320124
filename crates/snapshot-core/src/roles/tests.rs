use super::*;
use crate::test_dom::{el, El, PageBuilder};

fn role(e: El) -> Option<Role> {
    let page = PageBuilder::new(800.0, 600.0).node(e).build();
    role_of(&page, &page.nodes[0])
}

#[test]
fn explicit_roles_win_over_implicit() {
    assert_eq!(role(el("div").role("button")), Some(Role::Button));
    assert_eq!(role(el("a").href().role("button")), Some(Role::Button));
    assert_eq!(role(el("div").role("switch")), Some(Role::Checkbox));
    assert_eq!(role(el("li").role("menuitemradio")), Some(Role::Radio));
    assert_eq!(role(el("li").role("tab")), Some(Role::Button));
    assert_eq!(role(el("ul").role("listbox")), Some(Role::Combobox));
    assert_eq!(role(el("div").role("spinbutton")), Some(Role::Textbox));
    assert_eq!(role(el("span").role("img")), Some(Role::Image));
    // Fallback list: the first recognised token wins.
    assert_eq!(role(el("div").role("fancy LINK button")), Some(Role::Link));
    // A valid role we do not map replaces the implicit one.
    assert_eq!(role(el("a").href().role("heading")), None);
    assert_eq!(
        role(el("div").role("heading").onclick()),
        Some(Role::Generic)
    );
    // Unknown tokens only: implicit role.
    assert_eq!(role(el("button").role("bogus")), Some(Role::Button));
    assert_eq!(role(el("div").role("x".repeat(300).as_str())), None);
    assert_eq!(role(el("div").role("bütton BUTTON")), Some(Role::Button));
}

#[test]
fn presentational_role_conflicts() {
    // Focusable: presentation is ignored.
    assert_eq!(
        role(el("button").focusable().role("none")),
        Some(Role::Button)
    );
    assert_eq!(
        role(
            el("img")
                .replaced()
                .alt("x")
                .role("presentation")
                .aria_label("Logo")
        ),
        Some(Role::Image)
    );
    assert_eq!(
        role(el("img").replaced().alt("x").role("presentation")),
        None
    );
    assert_eq!(role(el("div").role("none").onclick()), Some(Role::Generic));
}

#[test]
fn implicit_roles() {
    assert_eq!(role(el("a").href()), Some(Role::Link));
    assert_eq!(role(el("a")), None);
    assert_eq!(role(el("button")), Some(Role::Button));
    assert_eq!(role(el("summary")), Some(Role::Button));
    for t in ["button", "submit", "reset", "image", "file", "color"] {
        assert_eq!(role(el("input").typ(t)), Some(Role::Button), "{t}");
    }
    for t in [
        "",
        "text",
        "email",
        "tel",
        "url",
        "password",
        "number",
        "date",
        "time",
        "week",
        "month",
        "datetime-local",
        "weird",
    ] {
        assert_eq!(role(el("input").typ(t)), Some(Role::Textbox), "{t}");
    }
    assert_eq!(role(el("input").typ("search")), Some(Role::Searchbox));
    assert_eq!(role(el("input").typ("email").list()), Some(Role::Combobox));
    assert_eq!(role(el("input").typ("checkbox")), Some(Role::Checkbox));
    assert_eq!(role(el("input").typ("radio")), Some(Role::Radio));
    assert_eq!(role(el("input").typ("range")), Some(Role::Generic));
    assert_eq!(role(el("input").typ("hidden").onclick()), None);
    assert_eq!(role(el("select")), Some(Role::Combobox));
    assert_eq!(role(el("select").listbox()), Some(Role::Combobox));
    assert_eq!(role(el("textarea")), Some(Role::Textbox));
    assert_eq!(role(el("div").contenteditable()), Some(Role::Textbox));
    assert_eq!(role(el("img").replaced().alt("Logo")), Some(Role::Image));
    assert_eq!(role(el("img").replaced().title("Logo")), Some(Role::Image));
    assert_eq!(role(el("img").replaced().alt("")), None);
    assert_eq!(role(el("img").alt("broken")), None);
}

#[test]
fn search_context() {
    assert_eq!(role(el("input").in_search()), Some(Role::Searchbox));
    assert_eq!(role(el("input").name("q-search")), Some(Role::Searchbox));
    assert_eq!(
        role(el("input").placeholder("Search products")),
        Some(Role::Searchbox)
    );
    assert_eq!(
        role(el("input").aria_label("SEARCH")),
        Some(Role::Searchbox)
    );
    assert_eq!(
        role(el("input").labels("Site search")),
        Some(Role::Searchbox)
    );
    assert_eq!(
        role(el("input").placeholder("Research topic")),
        Some(Role::Textbox)
    );
    let page = PageBuilder::new(800.0, 600.0)
        .nest(el("form").role("search"), |b| {
            b.node(el("input").typ("text"))
        })
        .build();
    assert_eq!(role_of(&page, &page.nodes[1]), Some(Role::Searchbox));
    // A checkbox in a search form stays a checkbox.
    assert_eq!(
        role(el("input").typ("checkbox").in_search()),
        Some(Role::Checkbox)
    );
}

#[test]
fn generic_clickables() {
    assert_eq!(role(el("div").pointer()), Some(Role::Generic));
    assert_eq!(role(el("div").onclick()), Some(Role::Generic));
    assert_eq!(role(el("div").tabindex()), Some(Role::Generic));
    assert_eq!(role(el("div")), None);
    // An inherited pointer is not a click target of its own.
    let page = PageBuilder::new(800.0, 600.0)
        .node(el("div").pointer().child(el("span")))
        .build();
    assert_eq!(role_of(&page, &page.nodes[1]), None);
}

#[test]
fn mentions_search_word() {
    assert!(mentions_search("search"));
    assert!(mentions_search("searchTerm"));
    assert!(mentions_search("site_search"));
    assert!(!mentions_search("research"));
    assert!(!mentions_search("sear"));
    assert!(!mentions_search("ünïcödé"));
}

/// A button with `aria-pressed` is a toggle button: a Checkbox, its
/// pressed state the checked one (a topping tile, a filter chip); a plain
/// button, or `aria-pressed` on what is no button, is not.
#[test]
fn a_toggle_button_is_a_checkbox_pressed_is_checked() {
    assert_eq!(role(el("button").flag(Flags::TOGGLE)), Some(Role::Checkbox));
    assert_eq!(
        role(el("div").role("button").flag(Flags::TOGGLE)),
        Some(Role::Checkbox)
    );
    assert_eq!(
        role_of_node(
            &PageBuilder::new(800.0, 600.0)
                .node(el("button").flag(Flags::TOGGLE))
                .build()
                .nodes[0]
        ),
        Some(Role::Checkbox)
    );
    assert_eq!(role(el("button")), Some(Role::Button));
    assert_eq!(role(el("a").href().flag(Flags::TOGGLE)), Some(Role::Link));
    let page = PageBuilder::new(800.0, 600.0)
        .node(el("button").flag(Flags::TOGGLE | Flags::CHECKED))
        .node(el("button").flag(Flags::TOGGLE))
        .build();
    let checked = |i: usize| crate::state::state_of(&page.nodes[i], Role::Checkbox).checked;
    assert_eq!(checked(0), Some(crate::contract::Checked::Bool(true)));
    assert_eq!(checked(1), Some(crate::contract::Checked::Bool(false)));
}
