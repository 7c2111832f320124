//! The extension-backed endpoints: the snapshot of the active tab and
//! actions by snapshot element id, with the repo's built extension loaded.
#![allow(clippy::unwrap_used)]

mod common;

use common::{extension_dir, pages, server, Options};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn snapshot_and_act_by_element_id() {
    // CI builds the extension before the tests (pkg-scripts/test.sh);
    // without it this test cannot mean anything, so it says so.
    assert!(
        extension_dir().is_some(),
        "build the extension first: bash pkg-scripts/build.sh"
    );
    let pages = pages().await;
    let s = server(Options::default()).await;
    s.start(&format!("{pages}/page")).await;
    let (status, v) = s.get("/browser/snapshot?limit=50").await;
    assert_eq!(status, 200, "{v}");
    let snap = &v["snapshot"];
    assert_eq!(snap["status"], "success", "{snap}");
    let elements = snap["elements"].as_array().unwrap();
    let button = elements
        .iter()
        .find(|e| e["role"] == "button" && e["text"] == "Big button")
        .expect("the button is in the snapshot");
    let textbox = elements
        .iter()
        .find(|e| e["role"] == "textbox")
        .expect("a text field is in the snapshot");
    let (_, v) = s.get("/browser/snapshot?format=text").await;
    assert!(v["text"].as_str().unwrap().contains("Big button"), "{v}");

    s.events().await;
    let v = s
        .ok(
            "/browser/act",
            json!({"element_id": button["id"], "action": "click"}),
        )
        .await;
    assert_eq!(v["executed_with"], "cdp");
    let ev = s.events().await;
    assert!(
        ev.iter()
            .any(|e| e["type"] == "click" && e["target"] == "big" && e["trusted"] == true),
        "{ev:?}"
    );
    s.ok(
        "/browser/act",
        json!({"element_id": textbox["id"], "action": "type", "text": "città"}),
    )
    .await;
    let typed = s
        .eval("document.querySelector('#name').value + document.querySelector('#area').value")
        .await;
    assert_eq!(typed, "città");
    // `scroll`: the element back into view after the page scrolled away
    // from it (nothing clicked), and a textarea's own content scrolled.
    s.eval("window.scrollTo(2000, 2000); window.__events.length = 0; 0")
        .await;
    let v = s
        .ok(
            "/browser/act",
            json!({"element_id": button["id"], "action": "scroll"}),
        )
        .await;
    assert_eq!(v["executed_with"], "extension", "{v}");
    let y = s.eval("window.scrollY").await;
    assert!(
        y.as_f64().unwrap() < 100.0,
        "the button is not in view: scrollY {y}"
    );
    let clicks = s
        .eval("window.__events.filter(e => e.type === 'click').length")
        .await;
    assert_eq!(clicks, json!(0), "a scroll must not click");
    s.eval("document.querySelector('#area').value = 'line\\n'.repeat(200); 0")
        .await;
    s.ok(
        "/browser/act",
        json!({"element_id": textbox_area(elements), "action": "scroll", "within": true, "dy": 500}),
    )
    .await;
    let top = s.eval("document.querySelector('#area').scrollTop").await;
    assert!(
        top.as_f64().unwrap() > 0.0,
        "the textarea's content did not scroll: {top}"
    );
    let (status, v) = s
        .post(
            "/browser/act",
            json!({"element_id": 99999, "action": "click"}),
        )
        .await;
    assert_eq!((status, v["success"].clone()), (404, json!(false)));
    let (status, _) = s.get("/browser/snapshot?format=yaml").await;
    assert_eq!(status, 400);
    s.stop_all().await;
}

/// The id of the "Notes" textarea in a snapshot's elements.
fn textbox_area(elements: &[serde_json::Value]) -> serde_json::Value {
    elements
        .iter()
        .find(|e| e["text"] == "Notes" || e["name"] == "Notes" || e["label"] == "Notes")
        .map(|e| e["id"].clone())
        .expect("the Notes textarea is in the snapshot")
}
