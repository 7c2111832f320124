use super::*;
use crate::test_dom::{el, PageBuilder};

fn occluded(page: &RawPage, e: usize) -> bool {
    OcclusionIndex::build(page).is_occluded(page, e)
}

#[test]
fn modal_covers_static_button() {
    let page = PageBuilder::new(1280.0, 800.0)
        .node(el("button").rect(100, 100, 120, 40))
        .node(el("div").fixed().z(1000).rect(0, 0, 1280, 800))
        .build();
    assert!(occluded(&page, 0));
    // The modal's own contents are not occluded by it.
    let page = PageBuilder::new(1280.0, 800.0)
        .node(
            el("div")
                .fixed()
                .z(10)
                .rect(0, 0, 1280, 800)
                .child(el("button").rect(600, 380, 80, 40)),
        )
        .build();
    assert!(!occluded(&page, 1));
}

#[test]
fn positioned_before_static_still_paints_above() {
    // CSS 2.1 Appendix E: at the same level a positioned box paints over an
    // in-flow one even when it comes first in the document.
    let page = PageBuilder::new(1280.0, 800.0)
        .node(el("div").positioned().rect(0, 0, 400, 400))
        .node(el("button").rect(100, 100, 50, 20))
        .build();
    assert!(occluded(&page, 1));
    // A positioned button later in the document paints above the earlier box.
    let page = PageBuilder::new(1280.0, 800.0)
        .node(el("div").positioned().rect(0, 0, 400, 400))
        .node(el("button").positioned().rect(100, 100, 50, 20))
        .build();
    assert!(!occluded(&page, 1));
    // Negative z-index paints below in-flow content.
    let page = PageBuilder::new(1280.0, 800.0)
        .node(el("div").positioned().z(-1).rect(0, 0, 400, 400))
        .node(el("button").rect(100, 100, 50, 20))
        .build();
    assert!(!occluded(&page, 1));
}

#[test]
fn in_flow_content_paints_with_its_positioned_box() {
    // A sticky bar early in the document, then a fixed modal whose (static)
    // button lies over the bar: the modal paints later, its button with it.
    let page = PageBuilder::new(800.0, 600.0)
        .node(el("div").positioned().rect(0, 540, 800, 60))
        .node(
            el("div")
                .fixed()
                .rect(0, 0, 800, 600)
                .child(el("button").rect(360, 550, 80, 40)),
        )
        .build();
    assert!(!occluded(&page, 2));
    // The same button in a relatively positioned card that comes before
    // the bar: the bar paints later, over it.
    let page = PageBuilder::new(800.0, 600.0)
        .node(
            el("div")
                .positioned()
                .rect(0, 500, 800, 100)
                .child(el("button").rect(360, 550, 80, 40)),
        )
        .node(el("div").positioned().rect(0, 540, 800, 60))
        .build();
    assert!(occluded(&page, 1));
}

#[test]
fn fixed_header_elsewhere_does_not_occlude() {
    let page = PageBuilder::new(1280.0, 800.0)
        .node(el("header").fixed().z(100).rect(0, 0, 1280, 60))
        .node(el("button").rect(100, 100, 120, 40))
        .build();
    assert!(!occluded(&page, 1));
    // Scrolled under the header: occluded.
    let page = PageBuilder::new(1280.0, 800.0)
        .node(el("header").fixed().z(100).rect(0, 0, 1280, 60))
        .node(el("button").rect(100, 20, 120, 30))
        .build();
    assert!(occluded(&page, 1));
}

#[test]
fn label_over_its_own_input_does_not_occlude() {
    let page = PageBuilder::new(800.0, 600.0)
        .node(el("input").typ("checkbox").rect(10, 10, 20, 20))
        .node(
            el("label")
                .positioned()
                .label_for(0)
                .rect(0, 0, 200, 40)
                .child(el("span").positioned().rect(0, 0, 200, 40)),
        )
        .build();
    assert!(!occluded(&page, 0));
    // A label for another control does occlude.
    let page = PageBuilder::new(800.0, 600.0)
        .node(el("input").typ("checkbox").rect(10, 10, 20, 20))
        .node(el("input").typ("checkbox").rect(300, 10, 20, 20))
        .node(el("label").positioned().label_for(1).rect(0, 0, 200, 40))
        .build();
    assert!(occluded(&page, 0));
}

#[test]
fn descendants_and_ancestors_do_not_occlude() {
    let page = PageBuilder::new(800.0, 600.0)
        .node(
            el("div").positioned().rect(0, 0, 400, 400).child(
                el("button")
                    .rect(10, 10, 100, 40)
                    .child(el("i").positioned().z(2).rect(10, 10, 100, 40)),
            ),
        )
        .build();
    assert!(!occluded(&page, 1));
}

#[test]
fn see_through_overlays_do_not_occlude() {
    let page = PageBuilder::new(800.0, 600.0)
        .node(el("button").rect(10, 10, 100, 40))
        .node(
            el("div")
                .fixed()
                .z(5)
                .pointer_events_none()
                .rect(0, 0, 800, 600),
        )
        .node(el("div").fixed().z(5).transparent().rect(0, 0, 800, 600))
        .node(el("div").fixed().z(5).invisible().rect(0, 0, 800, 600))
        .node(el("div").fixed().z(5).rect(0, 0, 0, 600))
        .build();
    assert!(!occluded(&page, 0));
}

#[test]
fn viewport_and_clip() {
    let page = PageBuilder::new(800.0, 600.0)
        .node(el("button").rect(10, 700, 100, 40))
        .node(el("button").rect(-200, 10, 100, 40))
        .node(el("button").rect(790, 10, 100, 40))
        // Inside an overflow:hidden box scrolled so the button is cut off.
        .node(
            el("div")
                .clip(0, 0, 200, 100)
                .child(el("button").rect(10, 150, 100, 40)),
        )
        .build();
    let v = page.viewport;
    assert!(!in_viewport(&page.nodes[0], v));
    assert!(!in_viewport(&page.nodes[1], v));
    assert!(in_viewport(&page.nodes[2], v));
    assert!(!in_viewport(&page.nodes[4], v));
    assert_eq!(visible_rect(&page.nodes[4]).area(), 0.0);
    assert!(!occluded(&page, 0));
}

#[test]
fn centre_of_the_visible_part_is_tested() {
    // The button is half off-screen to the left; the overlay covers the
    // visible half only.
    let page = PageBuilder::new(800.0, 600.0)
        .node(el("button").rect(-100, 0, 200, 40))
        .node(el("div").positioned().z(1).rect(0, 0, 100, 40))
        .build();
    assert!(occluded(&page, 0));
    // Clipped by overflow to its right half, which the overlay does not cover.
    let page = PageBuilder::new(800.0, 600.0)
        .node(
            el("div")
                .clip(300, 0, 300, 100)
                .child(el("button").rect(200, 0, 200, 40)),
        )
        .node(el("div").positioned().z(1).rect(200, 0, 100, 40))
        .build();
    assert!(!occluded(&page, 1));
}

#[test]
fn many_cells_and_odd_viewports() {
    // Occluders spanning many cells, and degenerate viewports, do not panic.
    for (w, h) in [
        (0.0, 0.0),
        (f64::NAN, 10.0),
        (1e12, 1e12),
        (f64::INFINITY, 5.0),
    ] {
        let page = PageBuilder::new(w, h)
            .node(el("button").rect(10, 10, 100, 40))
            .node(el("div").fixed().z(1).rect(0, 0, 1e9, 1e9))
            .build();
        let _ = occluded(&page, 0);
        let _ = occluded(&page, 99);
    }
    let page = PageBuilder::new(4000.0, 3000.0)
        .node(el("button").rect(3900, 2900, 50, 50))
        .node(el("div").fixed().z(1).rect(0, 0, 4000, 3000))
        .build();
    assert!(occluded(&page, 0));
}
