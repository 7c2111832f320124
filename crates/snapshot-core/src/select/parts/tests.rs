use crate::contract::Role;
use crate::select::select_candidates;
use crate::test_dom::{el, PageBuilder};

fn picked(page: &crate::raw::RawPage) -> Vec<(u32, Role)> {
    select_candidates(page)
        .into_iter()
        .map(|c| (c.index, c.role))
        .collect()
}

#[test]
fn a_clickable_row_of_labels_is_split_into_its_parts() {
    // 0 div pointer "Reply Forward" > 1 span "Reply", 2 span "Forward"
    let page = PageBuilder::new(800.0, 600.0)
        .node(
            el("div")
                .pointer()
                .text("Reply Forward")
                .child(el("span").text("Reply"))
                .child(el("span").text("Forward")),
        )
        .build();
    assert_eq!(picked(&page), vec![(1, Role::Generic), (2, Role::Generic)]);
}

#[test]
fn a_part_may_be_named_by_its_title_or_sit_beside_a_button() {
    // 0 div pointer "Like" > 1 span "Like", 2 span title=Share (icon), 3 button "Save"
    let page = PageBuilder::new(800.0, 600.0)
        .node(
            el("div")
                .pointer()
                .text("Like Save")
                .child(el("span").text("Like"))
                .child(el("span").title("Share"))
                .child(el("button").text("Save")),
        )
        .build();
    assert_eq!(
        picked(&page),
        vec![(1, Role::Generic), (2, Role::Generic), (3, Role::Button)]
    );
}

#[test]
fn a_card_stays_one_target() {
    let page = PageBuilder::new(800.0, 600.0)
        // 0 card: a title and a description longer than a label
        .node(
            el("div")
                .pointer()
                .text("Blue enamel mug Keeps your coffee hot for hours")
                .child(el("div").text("Blue enamel mug"))
                .child(el("div").text("Keeps your coffee hot for hours")),
        )
        // 3 card: words outside its parts
        .node(
            el("div")
                .pointer()
                .text("Open Close and more")
                .child(el("span").text("Open"))
                .child(el("span").text("Close")),
        )
        // 6 a single labelled child
        .node(el("div").pointer().text("Go").child(el("span").text("Go")))
        // 8 two parts with the same label
        .node(
            el("div")
                .pointer()
                .text("More More")
                .child(el("span").text("More"))
                .child(el("span").text("More")),
        )
        .build();
    assert_eq!(
        picked(&page),
        vec![
            (0, Role::Generic),
            (3, Role::Generic),
            (6, Role::Generic),
            (8, Role::Generic)
        ]
    );
}

#[test]
fn parts_need_a_wrapper_that_owns_the_pointer() {
    // The inherited pointer of a row inside a clickable card splits nothing:
    // 0 card > 1 row (pointer inherited) > 2 "Reply", 3 "Forward".
    let page = PageBuilder::new(800.0, 600.0)
        .node(
            el("div").pointer().text("Reply Forward").child(
                el("div")
                    .text("Reply Forward")
                    .child(el("span").text("Reply"))
                    .child(el("span").text("Forward")),
            ),
        )
        .build();
    assert_eq!(picked(&page), vec![(0, Role::Generic)]);
}
