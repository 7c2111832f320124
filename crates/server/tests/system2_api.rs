//! POST /s2 (docs/contracts/system2.md §2) over HTTP: decisions, reasoning, and every error body.

mod common;

use axum::routing::get;
use base64::Engine;
use common::*;
use image::{ImageFormat, Rgb, RgbImage};
use serde_json::{json, Value};
use std::io::Cursor;

fn png_bytes(img: &RgbImage) -> Vec<u8> {
    let mut buf = Cursor::new(Vec::new());
    img.write_to(&mut buf, ImageFormat::Png).expect("encode");
    buf.into_inner()
}

fn data_url(img: &RgbImage) -> String {
    format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(png_bytes(img))
    )
}

/// A white 800×600 page with filled boxes (x, y, w, h, colour).
fn screen(boxes: &[(u32, u32, u32, u32, [u8; 3])]) -> RgbImage {
    let mut img = RgbImage::from_pixel(800, 600, Rgb([255, 255, 255]));
    for &(x, y, w, h, c) in boxes {
        for i in x..x + w {
            for j in y..y + h {
                img.put_pixel(i, j, Rgb(c));
            }
        }
    }
    img
}

fn el(x: i64, y: i64, w: i64, h: i64, text: &str, kind: &str, sel: &str) -> Value {
    json!({"x": x, "y": y, "width": w, "height": h, "text": text, "type": kind, "selector": sel})
}

fn ctx() -> Value {
    json!({"age": 45, "domain_familiarity": "intermediate", "domain": "finance", "tech_savviness": "MEDIUM"})
}

#[tokio::test]
async fn spec_example_clicks_submit_with_three_scores_in_the_reasoning() {
    let srv = spawn().await;
    let shot = screen(&[(100, 200, 150, 40, [20, 60, 200])]);
    let body = json!({"task": "Submit the registration form", "screenshot": data_url(&shot), "context": ctx(),
        "scratchpad": [{"content": "Found the registration form"}, {"content": "Filled in personal information"}],
        "elements": [el(100, 200, 150, 40, "Submit", "button", "submit-button-1"), el(20, 20, 60, 20, "Home", "link", "home")]});
    let (s, v) = srv.post("/s2", body.clone()).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        v["selected_element"],
        el(100, 200, 150, 40, "Submit", "button", "submit-button-1")
    );
    assert_eq!(v["action"], "click");
    let r = v["reasoning"].as_str().expect("reasoning");
    assert!(
        r.starts_with("Final Score: ") && r.contains(" for button\n1. Discoverability ("),
        "{r}"
    );
    assert!(
        r.contains("\n2. Understandability (") && r.contains("\n3. Semantic Relevance ("),
        "{r}"
    );
    // Deterministic.
    assert_eq!(srv.post("/s2", body).await.1, v);
}

#[tokio::test]
async fn types_into_a_field_the_task_gives_a_value_for_and_hovers_menus() {
    let srv = spawn().await;
    let shot = data_url(&screen(&[]));
    let body = json!({"task": "Search for \"rust\"", "screenshot": shot, "context": ctx(),
        "elements": [el(10, 10, 300, 30, "Search", "searchbox", "q"), el(400, 10, 60, 30, "Help", "link", "help")]});
    let (_, v) = srv.post("/s2", body).await;
    assert_eq!(
        (
            v["action"].as_str(),
            v["selected_element"]["selector"].as_str()
        ),
        (Some("type"), Some("q")),
        "{v}"
    );
    let body = json!({"task": "Open the products menu", "screenshot": shot, "context": ctx(),
        "elements": [el(10, 10, 120, 30, "Products", "menu", "nav-products"), el(400, 10, 60, 30, "Help", "link", "help")]});
    let (_, v) = srv.post("/s2", body).await;
    assert_eq!(v["action"], "hover", "{v}");
}

#[tokio::test]
async fn backtracks_when_the_screen_did_not_change_or_nothing_is_relevant() {
    let srv = spawn().await;
    let shot = data_url(&screen(&[(100, 100, 100, 30, [0, 0, 0])]));
    let prev_el = el(100, 100, 100, 30, "Next", "button", "next");
    let body = json!({"task": "Go to the next page", "screenshot": shot, "previous_screenshot": shot, "context": ctx(),
        "elements": [prev_el.clone()], "prev_action": {"action": "click", "bounding": prev_el}});
    let (_, v) = srv.post("/s2", body).await;
    assert_eq!(v["action"], "backtrack");
    assert!(
        v["reasoning"]
            .as_str()
            .is_some_and(|r| r.contains("did not change")),
        "{v}"
    );
    let body = json!({"task": "Download the annual report", "screenshot": shot, "context": ctx(),
        "elements": [el(10, 10, 60, 20, "Careers", "link", "careers")]});
    assert_eq!(srv.post("/s2", body).await.1["action"], "backtrack");
}

#[tokio::test]
async fn contrast_is_measured_from_the_pixels() {
    let srv = spawn().await;
    // Two identical "Submit" buttons: one black on white, one barely visible.
    let shot = screen(&[
        (100, 100, 120, 40, [0, 0, 0]),
        (400, 100, 120, 40, [250, 250, 250]),
    ]);
    let body = json!({"task": "Submit the form", "screenshot": data_url(&shot), "context": ctx(),
        "elements": [el(400, 100, 120, 40, "Submit", "button", "faint"), el(100, 100, 120, 40, "Submit", "button", "strong")]});
    let (_, v) = srv.post("/s2", body).await;
    assert_eq!(v["selected_element"]["selector"], "strong", "{v}");
    assert!(
        v["reasoning"]
            .as_str()
            .is_some_and(|r| r.contains("high contrast")),
        "{v}"
    );
}

#[tokio::test]
async fn screenshot_urls_are_fetched_and_unreachable_ones_are_400() {
    let srv = spawn().await;
    let png = png_bytes(&screen(&[]));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let img_base = format!("http://{}", listener.local_addr().expect("addr"));
    let app = axum::Router::new().route("/shot.png", get(move || async move { png.clone() }));
    tokio::spawn(async move { axum::serve(listener, app).await });
    let body = |url: String| {
        json!({"task": "Submit", "screenshot": url, "context": ctx(),
        "elements": [el(1, 1, 80, 30, "Submit", "button", "s")]})
    };
    let (s, v) = srv.post("/s2", body(format!("{img_base}/shot.png"))).await;
    assert_eq!((s, v["action"].as_str()), (200, Some("click")), "{v}");
    // A closed port: nothing listens on port 9 of loopback.
    let (s, v) = srv
        .post("/s2", body("http://127.0.0.1:9/shot.png".into()))
        .await;
    assert_eq!(s, 400);
    assert!(
        v["detail"]
            .as_str()
            .is_some_and(|d| d.starts_with("Could not fetch screenshot URL")),
        "{v}"
    );
    let (s, _) = srv
        .post("/s2", body(format!("{img_base}/missing.png")))
        .await;
    assert_eq!(s, 400);
}

#[tokio::test]
async fn invalid_base64_is_400_with_the_spec_detail() {
    let srv = spawn().await;
    for shot in ["not-base64!!!", "data:image/png;base64,aGVsbG8gd29ybGQ="] {
        let (s, v) = srv
            .post(
                "/s2",
                json!({"task": "x", "screenshot": shot, "context": ctx(), "elements": []}),
            )
            .await;
        assert_eq!(
            (s, v),
            (400, json!({"detail": "Invalid base64 image data"})),
            "{shot}"
        );
    }
}

#[tokio::test]
async fn missing_and_invalid_fields_are_422_fastapi_style() {
    let srv = spawn().await;
    let (s, v) = srv
        .post(
            "/s2",
            json!({"screenshot": "x", "context": {}, "elements": []}),
        )
        .await;
    assert_eq!(s, 422);
    assert_eq!(
        v,
        json!({"detail": [{"loc": ["body", "task"], "msg": "field required", "type": "value_error.missing"}]})
    );
    let (s, v) = srv.post("/s2", json!({"task": 1, "screenshot": "x", "context": {"age": "old", "tech_savviness": "GURU"},
        "elements": [{"x": "1", "y": 2, "width": 3, "height": 4, "type": "button"}], "scratchpad": "no"})).await;
    assert_eq!(s, 422);
    let detail = v["detail"].as_array().expect("list");
    let locs: Vec<Value> = detail.iter().map(|d| d["loc"].clone()).collect();
    for want in [
        json!(["body", "task"]),
        json!(["body", "context", "age"]),
        json!(["body", "context", "tech_savviness"]),
        json!(["body", "scratchpad"]),
        json!(["body", "elements", 0, "x"]),
        json!(["body", "elements", 0, "selector"]),
    ] {
        assert!(locs.contains(&want), "missing {want} in {v}");
    }
    assert!(detail.iter().any(|d| d["type"] == "type_error.str"));
    assert!(detail.iter().any(|d| d["type"] == "type_error.integer"));
    let r = srv
        .client
        .post(format!("{}/s2", srv.base))
        .body("{oops")
        .send()
        .await
        .expect("send");
    assert_eq!(r.status().as_u16(), 422);
    let v: Value = r.json().await.expect("json");
    assert_eq!(v["detail"][0]["type"], "value_error.jsondecode");
}
