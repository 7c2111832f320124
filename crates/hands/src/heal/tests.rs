use crate::heal::{click_with_healing, ClickTarget};
use crate::test_support::*;
use crate::{HandsConfig, ToolClient};
use serde_json::{json, Value};
use std::cell::Cell;
use std::rc::Rc;

/// A page with one button at (100, 100) 80×30; `state` counts clicks that
/// changed something.
fn snapshot(version: u32) -> Value {
    json!({"status": "success", "url": "http://page/", "elements": [
        {"id": 1, "role": "button", "text": format!("Go {version}"), "bbox": {"x": 100, "y": 100, "width": 80, "height": 30}, "in_viewport": true, "is_occluded": false},
        {"id": 2, "role": "generic", "text": "panel", "bbox": {"x": 0, "y": 0, "width": 1280, "height": 720}, "in_viewport": true, "is_occluded": false}
    ]})
}

/// `works(click_type, x, y)` says whether a click changes the page.
fn server(
    works: impl Fn(&str, f64, f64) -> bool + 'static,
    validate: Value,
) -> (FakeHttp, Rc<Cell<u32>>) {
    let version = Rc::new(Cell::new(0));
    let v = version.clone();
    let http = FakeHttp::new(move |req| {
        let body = req.body.clone().unwrap_or(Value::Null);
        match path_of(req) {
            "/browser/snapshot" => ok(snapshot(v.get())),
            "/click" => {
                let (x, y) = (
                    body["x"].as_f64().unwrap_or(-1.0),
                    body["y"].as_f64().unwrap_or(-1.0),
                );
                if works(body["click_type"].as_str().unwrap_or("single"), x, y) {
                    v.set(v.get() + 1);
                }
                ok(
                    json!({"success": true, "executed_with": "cdp", "details": {"viewport_coords": {"x": x, "y": y}}}),
                )
            }
            "/coordinates/validate" => ok(validate.clone()),
            _ => ok(json!({"success": false, "error": "unexpected"})),
        }
    });
    (http, version)
}

fn inside(x: f64, y: f64) -> bool {
    (100.0..=180.0).contains(&x) && (100.0..=130.0).contains(&y)
}

fn target(x: f64, y: f64) -> ClickTarget {
    ClickTarget {
        x,
        y,
        coordinate_origin: "viewport".into(),
        scope: "browser".into(),
    }
}

#[test]
fn a_click_that_works_is_returned_as_is() {
    let (http, _) = server(|_, x, y| inside(x, y), json!({}));
    let tools = ToolClient::new(&http, "http://t");
    let r = block_on(click_with_healing(
        &tools,
        &FakeClock::default(),
        &HandsConfig::default(),
        &target(110.0, 110.0),
    ));
    assert_eq!(r["success"], json!(true));
    assert!(r.get("healed").is_none());
    assert_eq!(
        http.calls().iter().filter(|c| *c == "POST /click").count(),
        1
    );
}

#[test]
fn a_miss_by_a_few_pixels_heals_to_the_element_centre() {
    // (95, 98) is 5 px left of the button, on the panel.
    let validate = json!({"success": true, "valid": true, "viewport_coords": {"x": 95, "y": 98},
        "element_info": {"found": true, "tag": "div", "clickable": false, "rect": {"x": 0, "y": 0, "width": 1280, "height": 720}}});
    let (http, _) = server(|_, x, y| inside(x, y), validate);
    let tools = ToolClient::new(&http, "http://t");
    let r = block_on(click_with_healing(
        &tools,
        &FakeClock::default(),
        &HandsConfig::default(),
        &target(95.0, 98.0),
    ));
    assert_eq!(r["healed"], json!(true));
    assert_eq!(r["healingMethod"], json!("dom_element_center"));
    let clicks = http.bodies("/click");
    assert_eq!(
        (clicks[1]["x"].clone(), clicks[1]["y"].clone()),
        (json!(140.0), json!(115.0))
    );
    assert_eq!(clicks[1]["coordinate_origin"], json!("viewport"));
}

#[test]
fn the_heal_radius_bounds_how_far_a_miss_is_forgiven() {
    for (miss, heals) in [(23.0, true), (25.0, false)] {
        let x = 100.0 - miss;
        let validate = json!({"success": true, "viewport_coords": {"x": x, "y": 110},
            "element_info": {"found": true, "tag": "body", "clickable": false, "rect": {"x": 0, "y": 0, "width": 1280, "height": 720}}});
        let (http, _) = server(|_, x, y| inside(x, y), validate);
        let tools = ToolClient::new(&http, "http://t");
        let r = block_on(click_with_healing(
            &tools,
            &FakeClock::default(),
            &HandsConfig::default(),
            &target(x, 110.0),
        ));
        assert_eq!(r["success"], json!(heals), "miss by {miss}");
    }
}

#[test]
fn a_button_that_needs_a_double_click_heals_by_double_click() {
    let validate = json!({"success": true, "viewport_coords": {"x": 140, "y": 115},
        "element_info": {"found": true, "tag": "button", "clickable": true, "rect": {"x": 100, "y": 100, "width": 80, "height": 30}}});
    let (http, _) = server(|t, _, _| t == "double", validate);
    let tools = ToolClient::new(&http, "http://t");
    let r = block_on(click_with_healing(
        &tools,
        &FakeClock::default(),
        &HandsConfig::default(),
        &target(140.0, 115.0),
    ));
    assert_eq!(r["healingMethod"], json!("double_click"));
    let types: Vec<Value> = http
        .bodies("/click")
        .iter()
        .map(|b| b["click_type"].clone())
        .collect();
    assert_eq!(
        types,
        vec![json!("single"), json!("single"), json!("double")]
    );
}

#[test]
fn nothing_works_gives_the_specs_failure_with_reasons() {
    let validate = json!({"success": true, "element_info": {"found": false}});
    let (http, _) = server(|_, _, _| false, validate);
    let tools = ToolClient::new(&http, "http://t");
    let r = block_on(click_with_healing(
        &tools,
        &FakeClock::default(),
        &HandsConfig::default(),
        &target(600.0, 600.0),
    ));
    assert_eq!(r["success"], json!(false));
    assert_eq!(r["error"], json!("All healing attempts failed"));
    assert_eq!(
        r["attempts"],
        json!(["single_click", "dom_element_center", "double_click"])
    );
    assert_eq!(
        r["details"][0]["error"],
        json!("the click changed nothing on the page")
    );
}

#[test]
fn the_spec_behaviour_without_change_checks_trusts_success() {
    let (http, _) = server(|_, _, _| false, json!({}));
    let tools = ToolClient::new(&http, "http://t");
    let cfg = HandsConfig {
        click_must_change_page: false,
        ..Default::default()
    };
    let r = block_on(click_with_healing(
        &tools,
        &FakeClock::default(),
        &cfg,
        &target(600.0, 600.0),
    ));
    assert_eq!(r["success"], json!(true));
    assert_eq!(http.calls(), vec!["POST /click"]);
}

#[test]
fn a_failed_click_heals_as_the_spec_on_the_found_element() {
    // The spec's own path: the tool server says the click failed.
    let http = FakeHttp::new(|req| {
        let b = req.body.clone().unwrap_or(Value::Null);
        match path_of(req) {
            "/click" if b["x"] == json!(430.0) => ok(json!({"success": true})),
            "/click" => ok(json!({"success": false, "error": "Element is not clickable"})),
            "/coordinates/validate" => ok(
                json!({"success": true, "element_info": {"found": true, "tag": "button", "clickable": true, "rect": {"x": 380, "y": 180, "width": 100, "height": 40}}}),
            ),
            _ => Ok(crate::io::Response {
                status: 404,
                body: json!({"error": "no snapshot"}),
            }),
        }
    });
    let tools = ToolClient::new(&http, "http://t");
    let r = block_on(click_with_healing(
        &tools,
        &FakeClock::default(),
        &HandsConfig::default(),
        &target(400.0, 200.0),
    ));
    assert_eq!(r["healed"], json!(true));
    assert_eq!(r["healingMethod"], json!("dom_element_center"));
    assert_eq!(http.bodies("/click")[1]["y"], json!(200.0));
}

#[test]
fn a_change_outside_elements_counts_as_a_change() {
    // The click only rewrites a status line: the snapshot's elements stay
    // the same, the accessibility tree's text does not.
    let clicked = Rc::new(Cell::new(false));
    let c = clicked.clone();
    let http = FakeHttp::new(move |req| match path_of(req) {
        "/browser/snapshot" => ok(snapshot(0)),
        "/browser/dom/tree" => ok(
            json!({"success": true, "tree": if c.get() { "[StaticText] \"saved\"" } else { "[StaticText] \"idle\"" }}),
        ),
        "/click" => {
            c.set(true);
            ok(json!({"success": true}))
        }
        _ => ok(json!({"success": false, "error": "unexpected"})),
    });
    let tools = ToolClient::new(&http, "http://t");
    let clock = FakeClock::default();
    let r = block_on(click_with_healing(
        &tools,
        &clock,
        &HandsConfig::default(),
        &target(140.0, 115.0),
    ));
    assert_eq!(r["success"], json!(true));
    assert!(r.get("healed").is_none());
    assert!(clicked.get());
    assert!(clock.sleeps.borrow().is_empty());
}

#[test]
fn an_unchanged_page_is_watched_for_the_settle_time_before_failing() {
    let (http, _) = server(
        |_, _, _| false,
        json!({"success": true, "element_info": {"found": false}}),
    );
    let tools = ToolClient::new(&http, "http://t");
    let clock = FakeClock::default();
    let cfg = HandsConfig {
        change_settle_ms: 300,
        change_poll_ms: 100,
        ..Default::default()
    };
    block_on(click_with_healing(
        &tools,
        &clock,
        &cfg,
        &target(600.0, 600.0),
    ));
    // Two attempts reach the page (single, double), each watched 3 × 100 ms.
    assert_eq!(*clock.sleeps.borrow(), vec![100; 6]);
}
