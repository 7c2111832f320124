use super::*;
use crate::raw::{decode, SEP};
use crate::test_dom::{el, PageBuilder};
use crate::{snapshot, SnapshotOptions};

fn bbox(x: f64, y: f64, width: f64, height: f64) -> BBox {
    BBox {
        x,
        y,
        width,
        height,
    }
}

fn texts(page: &RawPage) -> Vec<&str> {
    page.nodes.iter().map(|n| n.text.as_str()).collect()
}

fn parents(page: &RawPage) -> Vec<Option<u32>> {
    page.nodes.iter().map(|n| n.parent).collect()
}

/// A frame of `page`'s nodes, ids moved to 1000+ (the driver's sequence).
fn frame(page: RawPage, iframe: Iframe) -> Frame {
    let mut nodes = page.nodes;
    for n in &mut nodes {
        n.stable_id += 1000;
    }
    Frame { iframe, nodes }
}

/// Top: [0] container, [1] button after the iframe, which sits inside node 0
/// before node 1. Frame at (100, 50), 200×100, its overflow ancestor
/// clipping it to y < 120: [0] form, [1] label for [2], [2] input in the
/// form, scrolled below.
fn one_frame() -> (RawPage, Vec<Frame>) {
    let top = PageBuilder::new(800.0, 600.0)
        .scanned(10)
        .nest(el("div").text("container").rect(0, 0, 800, 600), |b| {
            b.node(el("button").text("after").rect(10, 500, 50, 20))
        })
        .build();
    let inner = PageBuilder::new(200.0, 100.0)
        .nest(el("form").text("form").rect(0, 0, 200, 300), |f| {
            f.node(el("label").text("label").rect(0, 10, 50, 20).label_for(2))
                .node(el("input").text("input").rect(0, 90, 50, 20))
        })
        .build();
    let iframe = Iframe {
        host: None,
        at: 1,
        parent: Some(0),
        z_index: 5,
        content_box: bbox(100.0, 50.0, 200.0, 100.0),
        clip: Some(bbox(0.0, 0.0, 800.0, 120.0)),
        elements_scanned: 3,
    };
    (top, vec![frame(inner, iframe)])
}

#[test]
fn frame_nodes_are_translated_clipped_renumbered_and_placed_at_their_iframe() {
    let (top, frames) = one_frame();
    let page = merge(&top, &frames).unwrap();
    assert_eq!(
        texts(&page),
        ["container", "form", "label", "input", "after"]
    );
    assert_eq!(
        page.elements_scanned, 13,
        "elements_scanned adds the frames"
    );
    // Parents: the frame's root under the iframe's recorded ancestor (0);
    // the others renumbered.
    assert_eq!(parents(&page), [None, Some(0), Some(1), Some(1), Some(0)]);
    // Translated by the frame's content-box origin.
    assert_eq!((page.nodes[2].rect.x, page.nodes[2].rect.y), (100.0, 60.0));
    assert_eq!((page.nodes[3].rect.x, page.nodes[3].rect.y), (100.0, 140.0));
    // Clip: the frame box (100,50,200,100) cut by its ancestor clip (y < 120).
    assert_eq!(page.nodes[3].clip, Some(bbox(100.0, 50.0, 200.0, 70.0)));
    // z: the iframe's stacking level; form and label indices renumbered.
    assert_eq!(page.nodes[3].z_index, 5);
    assert_eq!(page.nodes[3].form, Some(1));
    assert_eq!(page.nodes[2].label_for, Some(3));
    // The top's own rows: ids untouched, renumbered when after the frame.
    assert_eq!(
        (page.nodes[4].stable_id, page.nodes[4].parent),
        (1, Some(0))
    );
    assert_eq!(page.nodes[3].stable_id, 1002, "ids are the ones given");
}

#[test]
fn nested_frames_compose_offsets_and_visible_areas_and_take_the_top_level_z() {
    let top = PageBuilder::new(800.0, 600.0)
        .node(el("button").text("top"))
        .build();
    let outer = PageBuilder::new(300.0, 200.0)
        .node(el("button").text("outer"))
        .build();
    let inner = PageBuilder::new(100.0, 30.0)
        .node(el("button").text("inner").rect(5, 5, 50, 20).z(9))
        .build();
    let at_end = |host, z, content_box| Iframe {
        host,
        at: 1,
        parent: None,
        z_index: z,
        content_box,
        clip: None,
        elements_scanned: 1,
    };
    let frames = vec![
        frame(outer, at_end(None, 2, bbox(10.0, 20.0, 300.0, 200.0))),
        frame(inner, at_end(Some(0), 3, bbox(30.0, 40.0, 100.0, 30.0))),
    ];
    let page = merge(&top, &frames).unwrap();
    assert_eq!(texts(&page), ["top", "outer", "inner"]);
    let inner = &page.nodes[2];
    assert_eq!((inner.rect.x, inner.rect.y), (45.0, 65.0));
    assert_eq!(inner.clip, Some(bbox(40.0, 60.0, 100.0, 30.0)));
    assert_eq!(inner.z_index, 2);
    // No recorded ancestor of either iframe: roots all the way down.
    assert_eq!(parents(&page), [None, None, None]);
}

#[test]
fn frames_go_in_document_order_and_must_be_listed_in_it() {
    let top = PageBuilder::new(800.0, 600.0)
        .node(el("button").text("a"))
        .node(el("button").text("b"))
        .build();
    let one = |text: &str, at| {
        let page = PageBuilder::new(10.0, 10.0)
            .node(el("button").text(text))
            .build();
        frame(
            page,
            Iframe {
                at,
                ..Iframe::default()
            },
        )
    };
    let page = merge(&top, &[one("early", 0), one("middle", 1), one("late", 2)]).unwrap();
    assert_eq!(texts(&page), ["early", "a", "middle", "b", "late"]);
    assert_eq!(
        merge(&top, &[one("middle", 1), one("early", 0)]),
        Err(DecodeError::Frame { frame: 1 })
    );
}

#[test]
fn the_wire_carries_frames_and_decode_merges_them() {
    // Without frames the wire is the page's own, and decodes back to it.
    let (top, _) = one_frame();
    let (meta, nums, strs) = encode(&top, &[]);
    assert_eq!((meta.len(), decode(&meta, &nums, &strs)), (5, Ok(top)));
}

#[test]
fn a_modal_above_the_iframe_occludes_the_frames_elements() {
    // The iframe (z auto) under a fixed modal layer (z 10) covering the viewport.
    let top = PageBuilder::new(800.0, 600.0)
        .node(el("div").role("dialog").rect(0, 0, 800, 600).fixed().z(10))
        .build();
    let inner = PageBuilder::new(200.0, 100.0)
        .node(el("button").text("Pay").rect(10, 10, 80, 30))
        .build();
    let iframe = Iframe {
        at: 1,
        content_box: bbox(100.0, 100.0, 200.0, 100.0),
        ..Iframe::default()
    };
    let page = merge(&top, &[frame(inner, iframe)]).unwrap();
    let s = snapshot(&page, &SnapshotOptions::default(), "test");
    let pay = s.elements.iter().find(|e| e.id == 1000).unwrap();
    assert_eq!((pay.bbox.x, pay.bbox.y), (110.0, 110.0));
    assert!(pay.is_occluded);
}

#[test]
fn misplaced_frames_are_refused() {
    let (top, frames) = one_frame();
    let bad = |f: fn(&mut Iframe)| {
        let mut frames = frames.clone();
        f(&mut frames[0].iframe);
        merge(&top, &frames)
    };
    let refused = Err(DecodeError::Frame { frame: 0 });
    assert_eq!(bad(|i| i.host = Some(0)), refused, "its own host");
    assert_eq!(bad(|i| i.at = 3), refused, "past the host's nodes");
    assert_eq!(
        bad(|i| i.parent = Some(1)),
        refused,
        "parent after the iframe"
    );
    // On the wire: a frame row whose node count does not add up.
    let (mut meta, nums, strs) = encode(&top, &frames);
    let last = meta.len() - 2;
    meta[last] = 1.5;
    assert_eq!(
        decode(&meta, &nums, &strs),
        Err(DecodeError::Frame { frame: 0 })
    );
    meta[last] = 2.0;
    assert!(decode(&meta, &nums, &strs).is_err());
    let text = decode(&meta[..meta.len() - 1], &nums, &strs)
        .unwrap_err()
        .to_string();
    assert_eq!(
        text,
        "raw page: meta has 18 numbers, expected 5 plus 14 per frame"
    );
    assert!(strs.contains(SEP));
}

#[test]
fn nesting_is_bounded() {
    let top = PageBuilder::new(10.0, 10.0).build();
    let frames: Vec<Frame> = (0..=MAX_NESTING)
        .map(|i| Frame {
            iframe: Iframe {
                host: i.checked_sub(1),
                ..Iframe::default()
            },
            nodes: Vec::new(),
        })
        .collect();
    assert_eq!(
        merge(&top, &frames),
        Err(DecodeError::Frame { frame: MAX_NESTING })
    );
}
