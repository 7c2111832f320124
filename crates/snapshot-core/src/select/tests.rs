use super::*;
use crate::test_dom::{el, PageBuilder};

fn picked(page: &RawPage) -> Vec<(u32, Role)> {
    select_candidates(page)
        .into_iter()
        .map(|c| (c.index, c.role))
        .collect()
}

#[test]
fn hidden_elements_are_not_candidates() {
    let page = PageBuilder::new(800.0, 600.0)
        .node(el("button").invisible())
        .node(el("button").hidden_attr())
        .node(el("button").rect(0, 0, 0, 10))
        .node(el("button").rect(0, 0, 10, 0))
        .node(el("div").onclick().transparent())
        .node(el("img").replaced().alt("x").transparent())
        .node(el("input").typ("checkbox").transparent())
        .node(el("button").disabled())
        .build();
    assert_eq!(picked(&page), vec![(6, Role::Checkbox), (7, Role::Button)]);
}

#[test]
fn nested_duplicates_collapse() {
    let page = PageBuilder::new(800.0, 600.0)
        // 0 link > 1 span onclick, 2 img
        .node(
            el("a")
                .href()
                .child(el("span").onclick())
                .child(el("img").replaced().alt("Home")),
        )
        // 3 clickable div > 4 input, 5 div onclick, 6 link
        .node(
            el("div")
                .onclick()
                .child(el("input").typ("text"))
                .child(el("div").onclick())
                .child(el("a").href()),
        )
        // 7 button > 8 span > 9 button (nested interactive)
        .node(el("button").child(el("span").child(el("button"))))
        // 10 label > 11 checkbox
        .node(el("label").pointer().child(el("input").typ("checkbox")))
        .build();
    assert_eq!(
        picked(&page),
        vec![
            (0, Role::Link),
            (3, Role::Generic),
            (4, Role::Textbox),
            (6, Role::Link),
            (7, Role::Button),
            (10, Role::Generic),
            (11, Role::Checkbox),
        ]
    );
}

#[test]
fn a_real_link_inside_an_aria_button_card_is_its_own_target() {
    let page = PageBuilder::new(800.0, 600.0)
        // 0 div role=button > 1 a href (headline), 2 span role=link, 3 img
        .node(
            el("div")
                .role("button")
                .tabindex()
                .child(el("a").href().focusable().text("Headline"))
                .child(el("span").role("link").text("Rubric"))
                .child(el("img").replaced().alt("Photo")),
        )
        // 4 a href > 5 button (native in native: one target, as before)
        .node(el("a").href().focusable().child(el("button").focusable()))
        // 6 button > 7 a href
        .node(el("button").focusable().child(el("a").href().focusable()))
        // 8 span role=link > 9 div role=button > 10 a href
        .node(
            el("span")
                .role("link")
                .child(el("div").role("button").child(el("a").href().focusable())),
        )
        .build();
    assert_eq!(
        picked(&page),
        vec![
            (0, Role::Button),
            (1, Role::Link),
            (4, Role::Link),
            (6, Role::Button),
            (8, Role::Link),
            (10, Role::Link)
        ]
    );
}

#[test]
fn hidden_ancestor_does_not_swallow_children() {
    // An invisible link is no candidate, so its visible child (CSS
    // `visibility` can be overridden below) is not a duplicate of it.
    let page = PageBuilder::new(800.0, 600.0)
        .node(el("a").href().invisible().child(el("button").visible()))
        .build();
    assert_eq!(picked(&page), vec![(1, Role::Button)]);
}
