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
