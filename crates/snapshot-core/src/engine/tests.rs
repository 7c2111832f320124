use super::*;
use crate::contract::BBox;
use crate::options::Filter;
use crate::raw::{encode, NUM_STRIDE, N_FORM, N_LABEL_FOR, N_PARENT, SEP, WIRE_VERSION};
use crate::test_dom::{el, rgb, PageBuilder};

fn run(page: &RawPage, opts: &SnapshotOptions) -> Snapshot {
    snapshot(page, opts, "test")
}

fn ids(s: &Snapshot) -> Vec<u32> {
    s.elements.iter().map(|e| e.id).collect()
}

fn login_page() -> RawPage {
    PageBuilder::new(1280.0, 800.0)
        .url("https://example.com/login")
        .node(el("a").href().text("Home").rect(10, 10, 60, 20))
        .nest(el("form").rect(100, 100, 400, 300), |f| {
            f.node(
                el("input")
                    .typ("email")
                    .placeholder("Email")
                    .rect(120, 120, 300, 30),
            )
            .node(
                el("input")
                    .typ("password")
                    .value("secret")
                    .labels("Password")
                    .rect(120, 170, 300, 30),
            )
            .node(
                el("button")
                    .text("Sign in")
                    .rect(120, 220, 120, 40)
                    .bg(rgb(0, 100, 255)),
            )
        })
        .node(el("a").href().text("Terms").rect(10, 2000, 60, 20))
        .build()
}

#[test]
fn login_page_snapshot() {
    let s = run(&login_page(), &SnapshotOptions::default());
    assert_eq!(s.status, "success");
    assert_eq!(s.url, "https://example.com/login");
    // Text fields first, then the primary button, the link, the off-screen link.
    assert_eq!(ids(&s), vec![2, 3, 4, 0, 5]);
    let button = &s.elements[2];
    assert_eq!(button.role, Role::Button);
    assert_eq!(button.text.as_deref(), Some("Sign in"));
    assert!(button.visual_cues.is_primary);
    assert!(button.visual_cues.is_clickable);
    assert_eq!(
        button.visual_cues.background_color_name.as_deref(),
        Some("blue")
    );
    assert_eq!(button.importance, 500 + 48 + 200);
    assert_eq!(
        button.bbox,
        BBox {
            x: 120.0,
            y: 220.0,
            width: 120.0,
            height: 40.0
        }
    );
    assert_eq!(s.elements[1].text.as_deref(), Some("Password"));
    let terms = &s.elements[4];
    assert!(!terms.in_viewport);
    // 100 + 12 - 500 = -388, clamped to the contract's minimum.
    assert_eq!(terms.importance, -300);
    assert_eq!(s.meta.candidates, 5);
    assert_eq!(s.meta.elements_scanned, 6);
    assert_eq!(s.meta.engine_path, "test");
    assert_eq!(s.meta.engine_version, crate::ENGINE_VERSION);
}

#[test]
fn ties_sort_by_y_then_x_then_id() {
    let page = PageBuilder::new(1280.0, 800.0)
        .node(el("a").href().rect(300, 50, 10, 10).id(7))
        .node(el("a").href().rect(100, 50, 10, 10).id(9))
        .node(el("a").href().rect(500, 10, 10, 10).id(8))
        .node(el("a").href().rect(100, 50, 10, 10).id(3))
        .build();
    let s = run(&page, &SnapshotOptions::default());
    assert_eq!(ids(&s), vec![8, 3, 9, 7]);
}

#[test]
fn filters_and_meta_counts() {
    let page = PageBuilder::new(1280.0, 800.0)
        .node(el("button").rect(0, 0, 10, 10))
        .node(el("button").rect(0, 20, 100, 40).z(5).positioned())
        .node(el("a").href().rect(0, 100, 100, 40))
        .node(el("input").rect(0, 900, 100, 40))
        .build();
    let opts = |f: Filter| SnapshotOptions {
        filter: Some(f),
        ..SnapshotOptions::default()
    };
    let s = run(
        &page,
        &opts(Filter {
            min_area: Some(100.0),
            ..Filter::default()
        }),
    );
    assert_eq!(s.meta.candidates, 4);
    assert_eq!(s.meta.filtered_out, 0);
    let s = run(
        &page,
        &opts(Filter {
            min_area: Some(101.0),
            ..Filter::default()
        }),
    );
    assert_eq!((s.elements.len(), s.meta.filtered_out), (3, 1));
    let s = run(
        &page,
        &opts(Filter {
            allowed_roles: Some(vec![Role::Link, Role::Textbox]),
            ..Filter::default()
        }),
    );
    assert_eq!(ids(&s), vec![3, 2]);
    let s = run(
        &page,
        &opts(Filter {
            min_z_index: Some(1),
            ..Filter::default()
        }),
    );
    assert_eq!(ids(&s), vec![1]);
    assert_eq!(s.elements[0].z_index, 5);
    let s = run(
        &page,
        &opts(Filter {
            in_viewport_only: Some(true),
            ..Filter::default()
        }),
    );
    assert_eq!(s.meta.filtered_out, 1);
    assert!(s.elements.iter().all(|e| e.in_viewport));
    let s = run(
        &page,
        &opts(Filter {
            in_viewport_only: Some(false),
            ..Filter::default()
        }),
    );
    assert_eq!(s.meta.filtered_out, 0);
}

#[test]
fn limit_keeps_the_most_important() {
    let page = login_page();
    let opts = SnapshotOptions {
        limit: Some(2),
        filter: Some(Filter {
            allowed_roles: Some(vec![Role::Link, Role::Button, Role::Textbox]),
            ..Filter::default()
        }),
        ..SnapshotOptions::default()
    };
    let s = run(&page, &opts);
    assert_eq!(ids(&s), vec![2, 3]);
    assert_eq!(s.meta.truncated_by_limit, 3);
    assert_eq!(s.meta.filtered_out, 0);
    let s = run(
        &page,
        &SnapshotOptions {
            limit: Some(0),
            ..SnapshotOptions::default()
        },
    );
    assert!(s.elements.is_empty());
    assert_eq!(s.meta.truncated_by_limit, 5);
}

#[test]
fn occluded_modal_background() {
    let page = PageBuilder::new(1280.0, 800.0)
        .node(el("button").text("Behind").rect(100, 100, 100, 40))
        .nest(
            el("div")
                .fixed()
                .z(100)
                .rect(0, 0, 1280, 800)
                .bg(rgb(0, 0, 0)),
            |m| m.node(el("button").text("Accept").rect(600, 400, 100, 40)),
        )
        .build();
    let s = run(&page, &SnapshotOptions::default());
    assert_eq!(ids(&s), vec![2, 0]);
    assert!(s.elements[1].is_occluded);
    assert_eq!(s.elements[1].importance, 500 + 40 - 800);
    assert!(!s.elements[0].is_occluded);
}

#[test]
fn json_round_trip_through_the_wire() {
    let page = login_page();
    let (meta, nums, strs) = encode(&page);
    assert_eq!(decode(&meta, &nums, &strs), Ok(page.clone()));
    let json = snapshot_json(&meta, &nums, &strs, r#"{"limit":3}"#, "service_worker");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["status"], "success");
    assert_eq!(v["elements"].as_array().unwrap().len(), 3);
    assert_eq!(v["elements"][0]["role"], "textbox");
    assert_eq!(v["elements"][1]["text"], "Password");
    assert_eq!(v["meta"]["engine_path"], "service_worker");
    assert_eq!(v["meta"]["truncated_by_limit"], 2);
    assert!(!json.contains("secret"));
    let direct = serde_json::to_string(&snapshot(
        &page,
        &SnapshotOptions {
            limit: Some(3),
            ..Default::default()
        },
        "service_worker",
    ))
    .unwrap();
    assert_eq!(json, direct);
}

#[test]
fn multibyte_text_next_to_separators_survives_the_wire() {
    // The decoder splits the string column byte by byte: cuts must land on
    // char boundaries whatever the text around them.
    let mut page = login_page();
    page.nodes[0].text = "héllo ✓ 日本".into();
    page.nodes[0].aria_label = "🙂".into();
    page.nodes[0].value = String::new();
    page.nodes[1].title = "ÿ".into();
    page.url = "https://example.test/ü".into();
    let (meta, nums, strs) = encode(&page);
    assert_eq!(decode(&meta, &nums, &strs), Ok(page));
}

#[test]
fn malformed_input_is_an_error_not_a_panic() {
    let (meta, nums, strs) = encode(&login_page());
    let is_error = |json: String| {
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["status"], "error", "{json}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()));
    };
    is_error(snapshot_json(&meta, &nums, &strs, "{bad", "x"));
    is_error(snapshot_json(&meta, &nums, &strs, r#"{"limit":-1}"#, "x"));
    is_error(snapshot_json(&[], &nums, &strs, "", "x"));
    is_error(snapshot_json(
        &[1.0, 1.0, 1.0, 1.0, 0.0],
        &[],
        "a\u{1f}b",
        "",
        "x",
    ));
    is_error(snapshot_json(&meta, &nums[1..], &strs, "", "x"));
    is_error(snapshot_json(&meta, &nums, "short", "", "x"));
    let mut bad_parent = nums.clone();
    bad_parent[N_PARENT] = 3.0; // node 0 pointing forward
    is_error(snapshot_json(&meta, &bad_parent, &strs, "", "x"));
    let mut nan_parent = nums.clone();
    nan_parent[NUM_STRIDE + N_PARENT] = f64::NAN;
    is_error(snapshot_json(&meta, &nan_parent, &strs, "", "x"));
    let mut huge = meta.clone();
    huge[4] = 1e300;
    is_error(snapshot_json(&huge, &nums, &strs, "", "x"));
    // Garbage numbers that decode are still a valid snapshot.
    let junk: Vec<f64> = nums
        .iter()
        .enumerate()
        .map(|(i, v)| {
            if [N_PARENT, N_FORM, N_LABEL_FOR].contains(&(i % NUM_STRIDE)) {
                *v
            } else {
                [f64::NAN, f64::INFINITY, -1e308, 1e308][i % 4]
            }
        })
        .collect();
    let v: serde_json::Value =
        serde_json::from_str(&snapshot_json(&meta, &junk, &strs, "", "x")).unwrap();
    assert_eq!(v["status"], "success");
    let empty = snapshot_json(
        &[WIRE_VERSION, 800.0, 600.0, 0.0, 0.0],
        &[],
        &format!("u{SEP}t"),
        "null",
        "x",
    );
    assert!(empty.contains(r#""elements":[]"#), "{empty}");
}

#[test]
fn hand_built_pages_with_bad_links_do_not_panic() {
    let mut page = login_page();
    page.nodes[0].parent = Some(999);
    page.nodes[1].parent = Some(1);
    page.nodes[2].form = Some(12345);
    page.nodes[3].label_for = Some(77);
    page.nodes[4].tag = "label".into();
    page.nodes[4].label_for = Some(u32::MAX);
    let s = run(&page, &SnapshotOptions::default());
    assert_eq!(s.status, "success");
}

#[test]
fn fifty_thousand_nodes() {
    // A big page: rows of cards, each a positioned clickable div with a link,
    // an icon, a text field and a checkbox; plus a sticky header.
    let mut b =
        PageBuilder::new(1280.0, 800.0).node(el("header").fixed().z(10).rect(0, 0, 1280, 60));
    let mut i = 0;
    while b.len() < 50_000 {
        let (x, y) = ((i % 4) * 320, 60 + (i / 4) * 120);
        b = b.nest(el("div").positioned().pointer().rect(x, y, 300, 100), |c| {
            c.node(
                el("a")
                    .href()
                    .text("Item title")
                    .rect(x + 10, y + 10, 200, 20)
                    .child(el("img").replaced().alt("icon")),
            )
            .node(el("span").text("lorem ipsum").rect(x + 10, y + 40, 200, 20))
            .node(el("input").placeholder("Qty").rect(x + 10, y + 60, 100, 30))
            .node(el("input").typ("checkbox").rect(x + 120, y + 60, 20, 20))
            .node(
                el("button")
                    .text("Add")
                    .bg(rgb(0, 100, 255))
                    .rect(x + 150, y + 60, 60, 30),
            )
        });
        i += 1;
    }
    let page = b.build();
    let start = std::time::Instant::now();
    let s = run(&page, &SnapshotOptions::default());
    eprintln!(
        "50k nodes: {} elements in {:?}",
        s.elements.len(),
        start.elapsed()
    );
    assert_eq!(s.meta.elements_scanned as usize, page.nodes.len());
    assert!(s.elements.len() > 20_000);
    let start = std::time::Instant::now();
    let limited = run(
        &page,
        &SnapshotOptions {
            limit: Some(50),
            ..Default::default()
        },
    );
    eprintln!("50k nodes, limit 50: {:?}", start.elapsed());
    assert_eq!(limited.elements.len(), 50);
}

#[test]
fn the_ranking_sort_orders_as_the_std_sort_does() {
    // Many candidates with colliding importances and positions: the
    // heapsort must give exactly the total order `ranking` defines.
    let mut b = PageBuilder::new(1280.0, 800.0);
    let mut seed = 7u32;
    let mut next = |m: u32| {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        (seed >> 16) % m
    };
    for _ in 0..300 {
        let (x, y, w) = (next(5) * 10, next(40) * 25, 20 + next(3) * 40);
        let tag = ["a", "button", "input"][next(3) as usize];
        b = b.node(el(tag).href().text("x").rect(x, y, w, 20).id(next(50)));
    }
    let page = b.build();
    let opts = SnapshotOptions::default();
    let mut std_sorted = Vec::new();
    for (index, node) in page.nodes.iter().enumerate() {
        std_sorted.push(Scored {
            index,
            node,
            role: Role::Button,
            importance: (node.rect.width as i32) % 7,
            is_primary: false,
            in_viewport: true,
            is_occluded: false,
        });
    }
    let mut heap_sorted: Vec<Scored> = std_sorted.iter().map(|s| Scored { ..*s }).collect();
    std_sorted.sort_by(ranking);
    sort_ranked(&mut heap_sorted);
    let order = |v: &[Scored]| v.iter().map(|s| s.index).collect::<Vec<_>>();
    assert_eq!(order(&heap_sorted), order(&std_sorted));
    // And through the engine: sorted by importance, then y.
    let s = run(&page, &opts);
    assert!(s
        .elements
        .windows(2)
        .all(|w| w[0].importance > w[1].importance
            || (w[0].importance == w[1].importance && w[0].bbox.y <= w[1].bbox.y)));
}
