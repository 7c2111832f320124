//! Sessions, navigation and tabs over real HTTP with headless Chromium.
#![allow(clippy::unwrap_used)]

mod common;

use common::{pages, server, Options};
use sentience_tool_server::browser::ProfileLock;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn navigation_history_and_tabs() {
    let pages = pages().await;
    let s = server(Options::default()).await;
    let id = s.start(&format!("{pages}/page")).await;
    assert!(id.starts_with("session-2"), "{id}");

    // Navigation answers the URL after redirects.
    let v = s
        .ok(
            "/browser/navigate",
            json!({"session_id": id, "url": format!("{pages}/redirect")}),
        )
        .await;
    assert_eq!(v["url"], format!("{pages}/other?from=redirect"));
    let v = s
        .ok(&format!("/browser/back?session_id={id}"), json!(null))
        .await;
    assert_eq!(v["url"], format!("{pages}/page"));
    let (status, v) = s.post("/browser/back", json!({})).await;
    assert_eq!(
        (status, v["success"].clone()),
        (409, json!(false)),
        "no page before the first: {v}"
    );
    let v = s.ok("/browser/forward", json!({})).await;
    assert_eq!(v["url"], format!("{pages}/other?from=redirect"));
    let v = s.ok("/browser/reload", json!({})).await;
    assert_eq!(v["url"], format!("{pages}/other?from=redirect"));
    let (_, v) = s
        .get(&format!("/browser/current_url?session_id={id}"))
        .await;
    assert_eq!(
        v,
        json!({"success": true, "url": format!("{pages}/other?from=redirect")})
    );
    s.ok("/browser/navigate", json!({"url": format!("{pages}/page")}))
        .await;

    // A target=_blank click is reported by the click, and listed.
    let (_, v) = s.get("/browser/tabs").await;
    assert_eq!(
        v["tabs"],
        json!([{"id": 0, "url": format!("{pages}/page"), "title": "Test page", "is_current": true}])
    );
    let v = s.ok("/click", json!({"x": 810, "y": 105})).await;
    assert_eq!(
        v["details"]["new_tab"],
        json!({"tab_id": 1, "url": format!("{pages}/other")}),
        "{v}"
    );
    let (_, v) = s.get("/browser/tabs").await;
    let tabs = v["tabs"].as_array().unwrap();
    assert_eq!(tabs.len(), 2);
    assert_eq!(
        tabs[0]["is_current"], true,
        "the click does not move the active tab"
    );

    // New, switch, close; ids are never reused.
    let v = s
        .ok("/browser/tab/new", json!({"url": format!("{pages}/other")}))
        .await;
    assert_eq!(
        v,
        json!({"success": true, "tab_id": 2, "url": format!("{pages}/other")})
    );
    let (_, v) = s.get("/browser/current_url").await;
    assert_eq!(
        v["url"],
        format!("{pages}/other"),
        "a new tab becomes the active one"
    );
    let v = s.ok("/browser/tab/switch", json!({"tab_id": 0})).await;
    assert_eq!(
        v,
        json!({"success": true, "tab_id": 0, "url": format!("{pages}/page")})
    );
    let v = s.ok("/browser/tab/close", json!({"tab_id": 1})).await;
    assert_eq!(v["remaining_tabs"], 2);
    let v = s.ok("/browser/tab/new", json!({})).await;
    assert_eq!(v["tab_id"], 3, "id 1 is not reused");
    let v = s.ok("/browser/tab/close", json!({})).await;
    assert_eq!(v["remaining_tabs"], 2, "closes the current tab");
    let (status, v) = s.post("/browser/tab/switch", json!({"tab_id": 1})).await;
    assert_eq!(
        (status, v["error"].clone()),
        (404, json!("Tab not found: 1"))
    );
    let (_, v) = s.get(&format!("/browser/status?session_id={id}")).await;
    assert_eq!(
        (v["is_alive"].as_bool(), v["tabs_count"].as_u64()),
        (Some(true), Some(2))
    );
    s.stop_all().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn persistent_profiles_locks_and_dead_sessions() {
    let pages = pages().await;
    let s = server(Options::default()).await;

    // No session yet: the spec's wording, 404.
    let (status, v) = s.post("/click", json!({"x": 1, "y": 1})).await;
    assert_eq!(status, 404);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("Session not found"),
        "{v}"
    );

    // A cookie set in one session is there in the next (same profile).
    let first = s.start(&format!("{pages}/cookie?set")).await;
    let (status, v) = s.post("/browser/start", json!({"headless": true})).await;
    assert_eq!(status, 409, "one browser per profile: {v}");
    assert!(
        v["error"].as_str().unwrap().contains("already in use"),
        "{v}"
    );
    // Two sessions at once, on two profiles.
    let v = s
        .ok(
            "/browser/start",
            json!({"headless": true, "profile": "second", "start_url": format!("{pages}/other")}),
        )
        .await;
    let second = v["session_id"].as_str().unwrap().to_string();
    assert_ne!(first, second);
    let (_, v) = s.get("/browser/status").await;
    assert_eq!(v["sessions"].as_array().unwrap().len(), 2);
    assert_eq!(v["active_session_id"], second.as_str());
    s.ok(&format!("/browser/stop?session_id={first}"), json!({}))
        .await;
    let (status, v) = s
        .post(
            "/browser/navigate",
            json!({"session_id": first, "url": "about:blank"}),
        )
        .await;
    assert_eq!(
        (status, v["error"].clone()),
        (404, json!(format!("Session not found: {first}")))
    );
    let third = s.start(&format!("{pages}/cookie")).await;
    assert_ne!(third, first, "ids are never reused");
    assert_eq!(s.eval("document.title").await, "cookie:kept=yes");

    // A browser killed by hand is reported dead, and a new start works.
    let profile = s.profiles.path().join("default");
    let pid = ProfileLock::holder(&profile).expect("the running browser holds its profile");
    std::process::Command::new("kill")
        .arg("-9")
        .arg(pid.to_string())
        .status()
        .unwrap();
    let mut alive = json!(true);
    for _ in 0..100 {
        let (_, v) = s.get(&format!("/browser/status?session_id={third}")).await;
        alive = v["is_alive"].clone();
        if alive == false {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(alive, false);
    let (status, _) = s.post("/screenshot", json!({"session_id": third})).await;
    assert!(status >= 500, "a dead browser answers an error, not a hang");
    let fourth = s.start(&format!("{pages}/cookie")).await;
    assert_eq!(s.eval("document.title").await, "cookie:kept=yes");
    let (_, v) = s.get(&format!("/browser/status?session_id={fourth}")).await;
    assert_eq!(v["is_alive"], true);
    s.stop_all().await;
}
