use super::*;

#[test]
fn defaults_and_nesting() {
    let page = PageBuilder::new(1280.0, 800.0)
        .node(el("div").pointer().z(3).child(el("span")))
        .nest(el("form"), |f| f.node(el("input").typ("text")))
        .child_of(0, el("b").invisible())
        .build();
    let n = &page.nodes;
    assert_eq!(n.len(), 5);
    assert_eq!(n[1].parent, Some(0));
    assert!(n[1].has(Flags::CURSOR_POINTER) && n[1].has(Flags::PARENT_CURSOR_POINTER));
    assert!(!n[0].has(Flags::PARENT_CURSOR_POINTER));
    assert_eq!(n[1].z_index, 3);
    assert_eq!(n[3].form, Some(2));
    assert_eq!(n[3].stable_id, 3);
    assert!(!n[4].has(Flags::VISIBLE) && n[3].has(Flags::VISIBLE));
    assert_eq!(n[4].parent, Some(0));
    assert_eq!(n[0].rect.width, 100.0);
    assert_eq!(page.elements_scanned, 5);
}

#[test]
fn effective_background_inherits() {
    let page = PageBuilder::new(100.0, 100.0)
        .node(el("div").bg(rgb(1, 2, 3)).child(el("p")))
        .build();
    assert_eq!(page.nodes[1].effective_background, Some(rgb(1, 2, 3)));
    assert_eq!(page.nodes[1].background, None);
}
