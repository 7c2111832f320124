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
    // `quiet_ms`: the snapshot waits while the page is still changing (a
    // script adding a row every 50 ms, then a button), as the run loop's
    // does; without it the page is read at once, half built.
    let changing = "window.__late = () => { let n = 0; const t = setInterval(() => {          const s = document.createElement('span'); s.textContent = 'row ' + (++n); document.body.appendChild(s);          if (n === 8) { clearInterval(t); const b = document.createElement('button'); b.textContent = 'Late button'; document.body.appendChild(b); }          }, 50); }; window.__late(); 0";
    let late = |v: &serde_json::Value| {
        v["snapshot"]["elements"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["text"] == "Late button")
    };
    s.eval(changing).await;
    let (status, v) = s.get("/browser/snapshot").await;
    assert_eq!(status, 200, "{v}");
    assert!(!late(&v), "read at once, the page is still being built");
    s.eval("document.querySelectorAll('button').forEach(b => b.textContent === 'Late button' && b.remove()); window.__late(); 0").await;
    let (status, v) = s
        .get("/browser/snapshot?facts=true&limit=100&quiet_ms=200")
        .await;
    assert_eq!(status, 200, "{v}");
    assert!(late(&v), "waited for quiet, the late button is there: {v}");
    for bad in [
        "quiet_ms=0",
        "timeout_ms=500",
        "quiet_ms=900&timeout_ms=500",
        "quiet_ms=10&timeout_ms=40000",
        "limit=0",
    ] {
        let (status, v) = s.get(&format!("/browser/snapshot?{bad}")).await;
        assert_eq!(status, 400, "{bad}: {v}");
    }
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
