//! Screenshots and input in the browser scope, over real HTTP, against
//! headless Chromium on a local page that records the events it receives.
#![allow(clippy::unwrap_used)]

mod common;

use common::{decode_png, pages, server, Options};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn screenshots_clicks_typing_keys_scroll_and_inspection() {
    let pages = pages().await;
    let s = server(Options::default()).await;
    s.start(&format!("{pages}/page")).await;

    // Screenshot: the viewport, original and optimized, scale factors apart.
    let v = s.ok("/screenshot", json!({"scope": "browser"})).await;
    assert_eq!(
        (
            v["original"]["width"].as_u64(),
            v["original"]["height"].as_u64()
        ),
        (Some(1280), Some(720))
    );
    let img = decode_png(v["original"]["image_base64"].as_str().unwrap());
    assert_eq!(img.dimensions(), (1280, 720));
    assert_eq!(
        img.get_pixel(200, 150).0[..3],
        [66, 133, 244],
        "the blue button at its place"
    );
    assert_eq!(
        img.get_pixel(1260, 700).0[..3],
        [255, 0, 0],
        "the red corner: no browser UI in the image"
    );
    assert!(v.get("lux_optimized").is_none());
    let v = s
        .ok(
            "/screenshot",
            json!({"scope": "browser", "optimize_for": "lux"}),
        )
        .await;
    let lux = &v["lux_optimized"];
    assert_eq!(
        (lux["width"].as_u64(), lux["height"].as_u64()),
        (Some(1260), Some(700))
    );
    assert_eq!(
        (lux["scale_x"].as_f64(), lux["scale_y"].as_f64()),
        (Some(1.016), Some(1.029))
    );
    assert_eq!(
        decode_png(lux["image_base64"].as_str().unwrap()).dimensions(),
        (1260, 700)
    );
    let v = s.ok("/screenshot", json!({"optimize_for": "both"})).await;
    assert!(
        v["original"].is_object()
            && v["lux_optimized"].is_object()
            && v["gemini_optimized"].is_object()
    );
    let v = s
        .ok(
            "/screenshot",
            json!({"optimize_for": "gemini", "format": "jpeg", "quality": 60}),
        )
        .await;
    assert_eq!(
        v["gemini_optimized"]["width"], 1280,
        "Gemini's image is never enlarged"
    );
    assert_eq!(v["format"], "jpeg");
    let (status, v) = s
        .post("/screenshot", json!({"optimize_for": "retina"}))
        .await;
    assert_eq!((status, v["success"].clone()), (400, json!(false)));

    // A click at lux coordinates lands on the element under it.
    s.events().await;
    let v = s
        .ok(
            "/click",
            json!({"scope": "browser", "x": 197, "y": 146, "coordinate_origin": "lux_sdk"}),
        )
        .await;
    assert_eq!(v["executed_with"], "cdp");
    assert_eq!(v["details"]["viewport_coords"], json!({"x": 200, "y": 150}));
    assert_eq!(v["details"]["original_coords"], json!({"x": 197, "y": 146}));
    assert_eq!(v["details"]["coordinate_origin"], "lux_sdk");
    let clicks: Vec<_> = s
        .events()
        .await
        .into_iter()
        .filter(|e| e["type"] == "click")
        .collect();
    assert_eq!(clicks.len(), 1);
    assert_eq!(
        (
            clicks[0]["target"].as_str(),
            clicks[0]["x"].as_f64(),
            clicks[0]["trusted"].as_bool()
        ),
        (Some("big"), Some(200.0), Some(true))
    );

    // Double and right clicks.
    s.ok(
        "/click",
        json!({"x": 150, "y": 120, "click_type": "double"}),
    )
    .await;
    let ev = s.events().await;
    assert_eq!(ev.iter().filter(|e| e["type"] == "click").count(), 2);
    assert!(ev
        .iter()
        .any(|e| e["type"] == "dblclick" && e["target"] == "big"));
    s.ok("/click", json!({"x": 150, "y": 120, "click_type": "right"}))
        .await;
    let ev = s.events().await;
    assert!(ev
        .iter()
        .any(|e| e["type"] == "contextmenu" && e["button"] == 2));

    // Out of bounds: the spec's error, wording and details.
    let (status, v) = s
        .post("/click", json!({"scope": "browser", "x": 1500, "y": 200}))
        .await;
    assert_eq!(status, 400);
    assert_eq!(v["success"], false);
    assert_eq!(
        v["error"],
        "Coordinates (1500, 200) outside viewport bounds (1280x720)"
    );
    assert_eq!(
        v["details"]["viewport"],
        json!({"width": 1280, "height": 720})
    );
    assert_eq!(v["details"]["requested"], json!({"x": 1500, "y": 200}));
    let (status, v) = s.post("/click", json!({"x": "ten", "y": 1})).await;
    assert_eq!((status, v["success"].clone()), (400, json!(false)));

    // The viewport comes from the browser, not from the page: a page that
    // redefines its size and pixel ratio changes neither the bounds, nor
    // the screenshot, nor where clicks land.
    s.eval(
        "for (const [k, v] of [['innerWidth', 400], ['innerHeight', 300], ['devicePixelRatio', 3]]) \
         Object.defineProperty(window, k, {get: () => v, configurable: true}); innerWidth",
    )
    .await;
    let v = s.ok("/screenshot", json!({})).await;
    assert_eq!(
        (
            v["original"]["width"].as_u64(),
            v["original"]["height"].as_u64()
        ),
        (Some(1280), Some(720))
    );
    s.events().await;
    s.ok("/click", json!({"x": 1260, "y": 700})).await;
    let ev = s.events().await;
    assert!(
        ev.iter()
            .any(|e| e["type"] == "click" && e["target"] == "corner" && e["x"] == 1260.0),
        "{ev:?}"
    );

    // Typing: keystrokes into a selector, then accents and emoji.
    let v = s
        .ok(
            "/type",
            json!({"text": "Hello, world", "method": "keystrokes", "selector": "input.email"}),
        )
        .await;
    assert_eq!(
        v["details"],
        json!({"text_length": 12, "selector": "input.email", "method": "keystrokes", "scope": "browser"})
    );
    assert_eq!(
        s.eval("document.querySelector('#name').value").await,
        "Hello, world"
    );
    let keydowns = s
        .events()
        .await
        .into_iter()
        .filter(|e| e["type"] == "keydown")
        .count();
    assert_eq!(keydowns, 12, "one trusted keydown per ASCII character");
    let v = s
        .ok("/type", json!({"text": "àèìòù 😀", "selector": "#area"}))
        .await;
    assert_eq!(v["details"]["text_length"], 7);
    assert_eq!(
        s.eval("document.querySelector('#area').value").await,
        "àèìòù 😀"
    );
    s.ok("/type", json!({"text": " ok", "method": "keystrokes"}))
        .await;
    s.ok("/type", json!({"text": "ç€", "method": "keystrokes"}))
        .await;
    assert_eq!(
        s.eval("document.querySelector('#area').value").await,
        "àèìòù 😀 okç€"
    );
    let (status, v) = s
        .post("/type", json!({"text": "x", "selector": "#missing"}))
        .await;
    assert_eq!(
        (status, v["error"].as_str().unwrap().contains("#missing")),
        (404, true)
    );

    // Keys: a combination reaches the page with its modifiers; Ctrl+A
    // selects the field's text and Backspace deletes it.
    s.events().await;
    let v = s.ok("/keypress", json!({"key": "Ctrl+Shift+T"})).await;
    assert_eq!(v["details"]["key"], "Ctrl+Shift+T");
    let ev = s.events().await;
    assert!(
        ev.iter().any(|e| e["type"] == "keydown"
            && e["key"] == "T"
            && e["ctrl"] == true
            && e["shift"] == true),
        "{ev:?}"
    );
    s.ok("/keypress", json!({"key": "Ctrl+A"})).await;
    s.ok("/keypress", json!({"key": "Backspace"})).await;
    assert_eq!(s.eval("document.querySelector('#area').value").await, "");
    // Meta+A (macOS's select-all) selects here too, though Chromium on
    // Linux binds no shortcut to it: the key event carries the editing
    // command, which is what makes select-all work on every platform.
    s.ok(
        "/type",
        json!({"text": "two words", "method": "keystrokes"}),
    )
    .await;
    s.ok("/keypress", json!({"key": "Meta+A"})).await;
    s.ok("/keypress", json!({"key": "Backspace"})).await;
    assert_eq!(s.eval("document.querySelector('#area').value").await, "");
    let (status, _) = s.post("/keypress", json!({"key": "Hyper+Q"})).await;
    assert_eq!(status, 400);

    // Scroll: the page moves by the amount asked.
    s.eval("document.activeElement.blur()").await;
    let v = s
        .ok("/scroll", json!({"direction": "down", "amount": 300}))
        .await;
    assert_eq!(
        v["details"],
        json!({"direction": "down", "amount": 300.0, "scope": "browser"})
    );
    let mut y = json!(0);
    for _ in 0..50 {
        y = s.eval("scrollY").await;
        if y == 300 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(y, 300);
    s.ok("/scroll", json!({"direction": "right"})).await;
    for _ in 0..50 {
        y = s.eval("scrollX").await;
        if y == 300 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(y, 300, "default amount 300");
    s.eval("scrollTo(0, 0)").await;

    // Accessibility tree and validation.
    let (status, v) = s.get("/browser/dom/tree").await;
    assert_eq!(status, 200);
    let tree = v["tree"].as_str().unwrap();
    assert!(tree.starts_with("[WebArea] \"Test page\""), "{tree}");
    assert!(tree.contains("\n  [button] \"Big button\""), "{tree}");
    assert!(
        tree.contains("[navigation] \"Main\"\n    [link] \"Other page\""),
        "{tree}"
    );
    let v = s
        .ok(
            "/coordinates/validate",
            json!({"scope": "browser", "x": 197, "y": 146, "coordinate_origin": "lux_sdk"}),
        )
        .await;
    assert_eq!(v["valid"], true);
    assert_eq!(v["viewport_coords"], json!({"x": 200, "y": 150}));
    let el = &v["element_info"];
    assert_eq!(
        (
            el["tag"].as_str(),
            el["id"].as_str(),
            el["className"].as_str()
        ),
        (Some("button"), Some("big"), Some("primary big"))
    );
    assert_eq!(
        (el["text"].as_str(), el["clickable"].as_bool()),
        (Some("Big button"), Some(true))
    );
    assert_eq!(
        el["rect"],
        json!({"x": 100, "y": 100, "width": 200, "height": 100})
    );
    assert_eq!(v["viewport_bounds"]["chrome_height"], 0);
    let v = s
        .ok("/coordinates/validate", json!({"x": 2000, "y": 10}))
        .await;
    assert_eq!(
        (v["valid"].as_bool(), v["in_viewport"].as_bool()),
        (Some(false), Some(false))
    );
    let v = s
        .ok(
            "/coordinates/convert",
            json!({"x": 400, "y": 200, "from_space": "lux_sdk", "to_space": "viewport"}),
        )
        .await;
    assert_eq!((v["x"].as_i64(), v["y"].as_i64()), (Some(406), Some(206)));
    assert_eq!(
        v["reference_dimensions"],
        json!({"width": 1280, "height": 720})
    );
    let v = s
        .ok(
            "/coordinates/convert",
            json!({"x": 406, "y": 206, "from_space": "viewport", "to_space": "lux_sdk"}),
        )
        .await;
    assert_eq!((v["x"].as_i64(), v["y"].as_i64()), (Some(400), Some(200)));
    s.stop_all().await;
}

/// HiDPI: with a device pixel ratio of 2 (or a fractional 1.5) the
/// screenshot is still in CSS pixels, so its pixels and click coordinates
/// agree.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn device_pixel_ratio_two_keeps_screenshot_and_click_space_equal() {
    screenshot_and_click_space_agree("2", 2.0).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn device_pixel_ratio_one_and_a_half_keeps_screenshot_and_click_space_equal() {
    screenshot_and_click_space_agree("1.5", 1.5).await;
}

async fn screenshot_and_click_space_agree(factor: &str, dpr: f64) {
    let pages = pages().await;
    let s = server(Options {
        extra_args: vec![format!("force-device-scale-factor={factor}")],
        ..Options::default()
    })
    .await;
    s.start(&format!("{pages}/page")).await;
    assert_eq!(s.eval("devicePixelRatio").await, dpr);
    // The screenshot is exactly the page's viewport in CSS pixels, 1280x720
    // at any ratio (a window sized for it at 1.5 measured 1280x721: the
    // viewport is emulated).
    let inner = s.eval("[innerWidth, innerHeight]").await;
    let viewport = (inner[0].as_u64(), inner[1].as_u64());
    assert_eq!(viewport, (Some(1280), Some(720)));
    let v = s.ok("/screenshot", json!({"optimize_for": "lux"})).await;
    let lux = &v["lux_optimized"];
    assert_eq!(
        (
            lux["original_width"].as_u64(),
            lux["original_height"].as_u64()
        ),
        viewport
    );
    let v = s.ok("/screenshot", json!({})).await;
    let img = decode_png(v["original"]["image_base64"].as_str().unwrap());
    assert_eq!(
        img.dimensions(),
        (viewport.0.unwrap() as u32, viewport.1.unwrap() as u32)
    );
    assert_eq!(img.get_pixel(200, 150).0[..3], [66, 133, 244]);
    s.events().await;
    s.ok("/click", json!({"x": 290, "y": 190})).await;
    let ev = s.events().await;
    assert!(
        ev.iter()
            .any(|e| e["type"] == "click" && e["target"] == "big" && e["x"] == 290.0),
        "{ev:?}"
    );
    s.stop_all().await;
}
