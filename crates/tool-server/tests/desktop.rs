//! The desktop scope on a real X server: Xvfb on a free display, a small X
//! window of our own that records the pointer and key events it receives
//! (and pastes the CLIPBOARD on Ctrl+V, as applications do), and a headed
//! Chromium on the same display. Needs Debian's `xvfb` (pkg-scripts/setup.sh
//! installs it); in CI (CI=true) its absence is a failure, not a skip.
#![allow(clippy::unwrap_used)]

mod common;

use common::{decode_png, pages, server, Options};
use sentience_tool_server::desktop::x11::X11Desktop;
use sentience_tool_server::desktop::Desktop;
use serde_json::json;
use std::process::{Child, Command};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use x11rb::connection::Connection;
use x11rb::protocol::xproto::*;
use x11rb::protocol::Event;

struct Xvfb(Child);

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts Xvfb on a free display: Xvfb picks the number itself
/// (`-displayfd`) and says which, so tests running at once (the two here,
/// other test runs on the machine) never share one.
fn start_xvfb() -> Option<(Xvfb, String)> {
    use std::io::BufRead;
    if Command::new("Xvfb").arg("-help").output().is_err() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "Xvfb is missing (pkg-scripts/setup.sh installs xvfb)"
        );
        eprintln!("SKIPPED: Xvfb is not installed (pkg-scripts/setup.sh installs it)");
        return None;
    }
    let mut child = Command::new("Xvfb")
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1920x1080x24",
            "-nolisten",
            "tcp",
            // An X server resets when its last client leaves: the probe
            // connection below closing would race the test's own connect
            // ("Connection reset by peer").
            "-noreset",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut number = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut number)
        .unwrap();
    let xvfb = Xvfb(child);
    let name = format!(":{}", number.trim());
    assert!(number.trim().parse::<u32>().is_ok(), "Xvfb said {number:?}");
    x11rb::connect(Some(&name)).unwrap();
    Some((xvfb, name))
}

const WIN: (i16, i16, u16, u16) = (1400, 100, 400, 300);
const WIN_RGB: [u8; 3] = [255, 128, 0];

/// The recording window; events are pushed as short strings.
fn test_window(display: &str, log: Arc<Mutex<Vec<String>>>) {
    let (conn, screen_num) = x11rb::connect(Some(display)).unwrap();
    let screen = conn.setup().roots[screen_num].clone();
    let win = conn.generate_id().unwrap();
    let mask = EventMask::BUTTON_PRESS | EventMask::KEY_PRESS | EventMask::STRUCTURE_NOTIFY;
    conn.create_window(
        x11rb::COPY_DEPTH_FROM_PARENT,
        win,
        screen.root,
        WIN.0,
        WIN.1,
        WIN.2,
        WIN.3,
        0,
        WindowClass::INPUT_OUTPUT,
        x11rb::COPY_FROM_PARENT,
        &CreateWindowAux::new()
            .background_pixel(0xff8000)
            .event_mask(mask),
    )
    .unwrap();
    conn.map_window(win).unwrap();
    conn.flush().unwrap();
    let atom = |name: &str| {
        conn.intern_atom(false, name.as_bytes())
            .unwrap()
            .reply()
            .unwrap()
            .atom
    };
    let (clipboard, utf8, pasted) = (atom("CLIPBOARD"), atom("UTF8_STRING"), atom("PASTED"));
    let setup = conn.setup();
    let (min, max) = (setup.min_keycode, setup.max_keycode);
    let map = conn
        .get_keyboard_mapping(min, max - min + 1)
        .unwrap()
        .reply()
        .unwrap();
    let per = usize::from(map.keysyms_per_keycode);
    // What the key types in this state, as an application's key lookup
    // does: Shift picks the second level, AltGr (Mod5 on XKB layouts) the
    // third and fourth (core mapping columns 4 and 5).
    let keysym = |code: u8, state: u16| {
        let row = &map.keysyms[usize::from(code - min) * per..][..per];
        let col = usize::from(state & u16::from(KeyButMask::SHIFT) != 0)
            + if state & u16::from(KeyButMask::MOD5) != 0 {
                4
            } else {
                0
            };
        row.get(col).copied().filter(|&s| s != 0).unwrap_or(row[0])
    };
    loop {
        let Ok(event) = conn.wait_for_event() else {
            return;
        };
        let line = match event {
            Event::MapNotify(_) => {
                conn.set_input_focus(InputFocus::PARENT, win, x11rb::CURRENT_TIME)
                    .unwrap();
                conn.flush().unwrap();
                "mapped".to_string()
            }
            Event::ButtonPress(e) => format!("button {} at {},{}", e.detail, e.event_x, e.event_y),
            Event::KeyPress(e) => {
                let state = u16::from(e.state);
                let sym = keysym(e.detail, state);
                if sym == u32::from(b'v') && state & u16::from(KeyButMask::CONTROL) != 0 {
                    conn.convert_selection(win, clipboard, utf8, pasted, x11rb::CURRENT_TIME)
                        .unwrap();
                    conn.flush().unwrap();
                }
                // Latin-1 keysyms are their characters.
                let ch = char::from_u32(sym)
                    .filter(|c| sym < 0x100 && !c.is_control() && *c != ' ')
                    .map(String::from)
                    .unwrap_or(format!("{sym:#x}"));
                format!("key {ch} state {state}")
            }
            Event::SelectionNotify(e) if e.property != x11rb::NONE => {
                let p = conn
                    .get_property(true, win, pasted, AtomEnum::ANY, 0, 1 << 20)
                    .unwrap()
                    .reply()
                    .unwrap();
                format!("paste {}", String::from_utf8_lossy(&p.value))
            }
            _ => continue,
        };
        log.lock().unwrap().push(line);
    }
}

async fn wait_for(log: &Arc<Mutex<Vec<String>>>, line: &str) -> Vec<String> {
    for _ in 0..200 {
        if log.lock().unwrap().iter().any(|l| l == line) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    std::mem::take(&mut *log.lock().unwrap())
}

/// Our server with the desktop scope on `display`.
async fn desktop_server(display: &str) -> common::Server {
    let desktop: Arc<dyn Desktop> = Arc::new(X11Desktop::connect(Some(display)).unwrap());
    server(Options {
        desktop: Ok(desktop),
        ..Options::default()
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn desktop_screenshot_input_clipboard_and_a_headed_browser() {
    let Some((_xvfb, display)) = start_xvfb() else {
        return;
    };
    // The clipboard (arboard) and Chromium find the display here; the
    // other tests of this binary name their own display explicitly.
    std::env::set_var("DISPLAY", &display);
    let log = Arc::new(Mutex::new(Vec::new()));
    let l = log.clone();
    let d = display.clone();
    std::thread::spawn(move || test_window(&d, l));
    wait_for(&log, "mapped").await;

    let s = desktop_server(&display).await;
    let (_, v) = s.get("/status").await;
    assert_eq!(
        (
            v["capabilities"]["pyautogui"].as_bool(),
            v["drivers"]["desktop"].as_str()
        ),
        (Some(true), Some("xtest"))
    );
    let (_, v) = s.get("/screen").await;
    assert_eq!(v["screen"], json!({"width": 1920, "height": 1080}));
    assert_eq!(v["lux_scale"], json!({"x": 1.524, "y": 1.543}));

    // Screenshot: the whole screen, with the window's colour at its place.
    let v = s
        .ok(
            "/screenshot",
            json!({"scope": "desktop", "optimize_for": "both"}),
        )
        .await;
    assert_eq!(
        (
            v["original"]["width"].as_u64(),
            v["original"]["height"].as_u64()
        ),
        (Some(1920), Some(1080))
    );
    let img = decode_png(v["original"]["image_base64"].as_str().unwrap());
    assert_eq!(img.get_pixel(1500, 200).0[..3], WIN_RGB);
    assert_eq!(img.get_pixel(10, 10).0[..3], [0, 0, 0]);
    let lux = &v["lux_optimized"];
    assert_eq!(
        (
            lux["width"].as_u64(),
            lux["scale_x"].as_f64(),
            lux["scale_y"].as_f64()
        ),
        (Some(1260), Some(1.524), Some(1.543))
    );
    assert_eq!(
        decode_png(lux["image_base64"].as_str().unwrap())
            .get_pixel(984, 130)
            .0[..3],
        WIN_RGB
    );
    let v = s
        .ok(
            "/coordinates/validate",
            json!({"scope": "desktop", "x": 1500, "y": 200}),
        )
        .await;
    assert_eq!(v["pixel_color"], json!(WIN_RGB));
    assert_eq!(v["screen_bounds"], json!({"width": 1920, "height": 1080}));

    // Clicks in screen and lux coordinates reach the window where aimed.
    let v = s
        .ok(
            "/click",
            json!({"scope": "desktop", "x": 1450, "y": 160, "coordinate_origin": "screen"}),
        )
        .await;
    assert_eq!(v["executed_with"], "xtest");
    assert_eq!(
        wait_for(&log, "button 1 at 50,60").await.last().unwrap(),
        "button 1 at 50,60"
    );
    s.ok(
        "/click",
        json!({"scope": "desktop", "x": 1450, "y": 160, "click_type": "right"}),
    )
    .await;
    assert!(wait_for(&log, "button 3 at 50,60")
        .await
        .contains(&"button 3 at 50,60".to_string()));
    // lux (984, 130) → screen (1499.4, 200.6) → (1499, 201)
    let v = s
        .ok(
            "/click",
            json!({"scope": "desktop", "x": 984, "y": 130, "coordinate_origin": "lux_sdk"}),
        )
        .await;
    assert_eq!(v["details"]["screen_coords"], json!({"x": 1499, "y": 201}));
    assert!(wait_for(&log, "button 1 at 99,101")
        .await
        .contains(&"button 1 at 99,101".to_string()));
    let (status, v) = s
        .post("/click", json!({"scope": "desktop", "x": 2000, "y": 5}))
        .await;
    assert_eq!(
        (status, v["error"].clone()),
        (
            400,
            json!("Coordinates (2000, 5) outside screen bounds (1920x1080)")
        )
    );
    s.ok(
        "/scroll",
        json!({"scope": "desktop", "direction": "down", "amount": 200}),
    )
    .await;
    let lines = wait_for(&log, "button 5 at 0,0").await;
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("button 5")).count(),
        2,
        "{lines:?}"
    );

    // Keys with the layout's own keycodes; Shift where the layout needs it.
    s.ok(
        "/type",
        json!({"scope": "desktop", "text": "Hi!", "method": "keystrokes"}),
    )
    .await;
    let lines = wait_for(&log, "key ! state 1").await;
    assert_eq!(
        lines,
        [
            "key 0xffe1 state 0",
            "key H state 1",
            "key i state 0",
            "key 0xffe1 state 0",
            "key ! state 1"
        ]
    );
    s.ok(
        "/keypress",
        json!({"scope": "desktop", "key": "Ctrl+Shift+T"}),
    )
    .await;
    let lines = wait_for(&log, "key T state 5").await;
    assert_eq!(lines.last().unwrap(), "key T state 5");

    // Clipboard typing: the window pastes the text; the user's clipboard
    // content is back afterwards.
    let mut cb = arboard::Clipboard::new().unwrap();
    cb.set_text("the user's clipboard").unwrap();
    let v = s
        .ok(
            "/type",
            json!({"scope": "desktop", "text": "àèìòù €", "method": "clipboard"}),
        )
        .await;
    assert_eq!(v["details"]["text_length"], 7);
    let lines = wait_for(&log, "paste àèìòù €").await;
    assert!(lines.contains(&"paste àèìòù €".to_string()), "{lines:?}");
    assert_eq!(cb.get_text().unwrap(), "the user's clipboard");
    // Keystrokes of characters no key types go through the clipboard too.
    let v = s
        .ok(
            "/type",
            json!({"scope": "desktop", "text": "aé", "method": "keystrokes"}),
        )
        .await;
    assert_eq!(
        (
            v["details"]["pasted_characters"].as_u64(),
            v["executed_with"].as_str()
        ),
        (Some(1), Some("xtest+clipboard"))
    );
    assert!(wait_for(&log, "paste é")
        .await
        .contains(&"paste é".to_string()));
    assert_eq!(cb.get_text().unwrap(), "the user's clipboard");
    // Rich content is put back too: HTML with its text, an image.
    cb.set()
        .html("<b>the user's</b> clipboard", Some("the user's clipboard"))
        .unwrap();
    s.ok("/type", json!({"scope": "desktop", "text": "x€"}))
        .await;
    assert!(wait_for(&log, "paste x€")
        .await
        .contains(&"paste x€".to_string()));
    assert_eq!(cb.get().html().unwrap(), "<b>the user's</b> clipboard");
    assert_eq!(cb.get_text().unwrap(), "the user's clipboard");
    let pixels: Vec<u8> = (0..16).map(|i| i * 16).collect();
    cb.set_image(arboard::ImageData {
        width: 2,
        height: 2,
        bytes: pixels.clone().into(),
    })
    .unwrap();
    s.ok("/type", json!({"scope": "desktop", "text": "y€"}))
        .await;
    assert!(wait_for(&log, "paste y€")
        .await
        .contains(&"paste y€".to_string()));
    let image = cb.get_image().unwrap();
    assert_eq!(
        (image.width, image.height, image.bytes.to_vec()),
        (2, 2, pixels)
    );

    // A headed Chromium on this display: a desktop click at the screen
    // coordinates the server converts from viewport ones lands on the page.
    let pages = pages().await;
    let v = s
        .ok(
            "/browser/start",
            json!({"start_url": format!("{pages}/page"), "headless": false}),
        )
        .await;
    assert_eq!(v["headless"], false);
    let v = s.ok("/screenshot", json!({"scope": "browser"})).await;
    assert_eq!(
        (
            v["original"]["width"].as_u64(),
            v["original"]["height"].as_u64()
        ),
        (Some(1280), Some(720)),
        "viewport only, no browser UI"
    );
    let v = s
        .ok("/coordinates/validate", json!({"x": 200, "y": 150}))
        .await;
    assert!(
        v["viewport_bounds"]["chrome_height"].as_i64().unwrap() > 0,
        "{v}"
    );
    let v = s
        .ok(
            "/coordinates/convert",
            json!({"x": 200, "y": 150, "from_space": "viewport", "to_space": "screen"}),
        )
        .await;
    let (sx, sy) = (v["x"].as_i64().unwrap(), v["y"].as_i64().unwrap());
    s.events().await;
    s.ok("/click", json!({"scope": "desktop", "x": sx, "y": sy}))
        .await;
    let mut clicks = Vec::new();
    for _ in 0..100 {
        clicks = s
            .events()
            .await
            .into_iter()
            .filter(|e| e["type"] == "click")
            .collect();
        if !clicks.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(clicks.len(), 1, "the desktop click reached the page");
    assert_eq!(
        (
            clicks[0]["target"].as_str(),
            clicks[0]["x"].as_f64(),
            clicks[0]["y"].as_f64()
        ),
        (Some("big"), Some(200.0), Some(150.0))
    );
    // Browser-scope clicks at screen coordinates use the same placement.
    s.ok(
        "/click",
        json!({"x": sx, "y": sy, "coordinate_origin": "screen"}),
    )
    .await;
    let ev = s.events().await;
    assert!(
        ev.iter()
            .any(|e| e["type"] == "click" && e["x"] == 200.0 && e["y"] == 150.0),
        "{ev:?}"
    );
    s.stop_all().await;
}

/// Typing with `keystrokes` follows the active layout (docs/tools.md
/// "Desktop"): under a German layout `y` and `z` swap keys, `@` is
/// AltGr+Q and `ä` has a key of its own; each arrives in the window as that
/// character, typed, not pasted. The layout is changed while the server
/// runs (it must notice), through the core protocol as xmodmap does:
/// `setxkbmap de` left Debian 12's Xvfb on the US layout in our runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keystrokes_follow_a_german_layout() {
    let Some((_xvfb, display)) = start_xvfb() else {
        return;
    };
    let s = desktop_server(&display).await;
    // The server reads (and caches) the US mapping first.
    s.ok(
        "/type",
        json!({"scope": "desktop", "text": "z", "method": "keystrokes"}),
    )
    .await;
    german_keys(&display);
    let log = Arc::new(Mutex::new(Vec::new()));
    let l = log.clone();
    let d = display.clone();
    std::thread::spawn(move || test_window(&d, l));
    wait_for(&log, "mapped").await;
    let v = s
        .ok(
            "/type",
            json!({"scope": "desktop", "text": "zy@ä", "method": "keystrokes"}),
        )
        .await;
    assert_eq!(
        (
            v["details"]["pasted_characters"].as_u64(),
            v["executed_with"].as_str()
        ),
        (Some(0), Some("xtest"))
    );
    let lines = wait_for(&log, "key ä state 0").await;
    assert_eq!(
        lines,
        [
            "key z state 0",
            "key y state 0",
            "key 0xfe03 state 0",
            "key @ state 128",
            "key ä state 0"
        ]
    );
    // A key combination names the character's key of this layout too.
    s.ok("/keypress", json!({"scope": "desktop", "key": "Ctrl+Z"}))
        .await;
    let lines = wait_for(&log, "key z state 4").await;
    assert_eq!(lines.last().map(String::as_str), Some("key z state 4"));
}

/// The German layout's differences that matter here: y and z swapped, `@`
/// on AltGr+Q (not Shift+2, which is `"`), `ä` on the US apostrophe key.
/// The US mapping has ISO_Level3_Shift on a key bound to Mod5 already.
fn german_keys(display: &str) {
    let (conn, _) = x11rb::connect(Some(display)).unwrap();
    let (min, max) = (conn.setup().min_keycode, conn.setup().max_keycode);
    let map = conn
        .get_keyboard_mapping(min, max - min + 1)
        .unwrap()
        .reply()
        .unwrap();
    let per = map.keysyms_per_keycode;
    let code_of = |sym: u32| {
        map.keysyms
            .chunks(usize::from(per))
            .position(|row| row[0] == sym)
            .map(|i| min + i as u8)
            .unwrap()
    };
    let row = |syms: &[u32]| {
        let mut r = syms.to_vec();
        r.resize(usize::from(per), 0);
        r
    };
    for (key, syms) in [
        (code_of(0x79), row(&[0x7a, 0x5a, 0x7a, 0x5a])),
        (code_of(0x7a), row(&[0x79, 0x59, 0x79, 0x59])),
        (code_of(0x71), row(&[0x71, 0x51, 0x71, 0x51, 0x40])),
        (code_of(0x32), row(&[0x32, 0x22, 0x32, 0x22, 0xb2])),
        (code_of(0x27), row(&[0xe4, 0xc4, 0xe4, 0xc4])),
    ] {
        conn.change_keyboard_mapping(1, key, per, &syms).unwrap();
    }
    conn.get_input_focus().unwrap().reply().unwrap();
}

/// An X server that stops answering (here: stopped with SIGSTOP) fails
/// the call with a clear error after the connection's time limit, instead
/// of holding the request (and the X connection) forever; once it answers
/// again, so does the desktop scope.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_x_server_fails_the_call_and_the_next_one_works() {
    let Some((xvfb, display)) = start_xvfb() else {
        return;
    };
    let s = desktop_server(&display).await;
    let click = json!({"scope": "desktop", "x": 10, "y": 10});
    s.ok("/click", click.clone()).await;

    let pid = xvfb.0.id().to_string();
    let signal = |sig: &str| {
        let st = Command::new("kill").args([sig, &pid]).status().unwrap();
        assert!(st.success(), "kill {sig} {pid}");
    };
    signal("-STOP");
    // Bounded only so that a regression fails instead of hanging the suite.
    let answer =
        tokio::time::timeout(Duration::from_secs(60), s.post("/click", click.clone())).await;
    signal("-CONT");
    let (status, v) = answer.expect("the click hung on a stopped X server");
    assert_eq!(status, 502, "{v}");
    assert_eq!(v["success"], false);
    let error = v["error"].as_str().unwrap();
    assert!(error.contains("did not answer"), "{error}");

    s.ok("/click", click).await;
    s.ok("/keypress", json!({"scope": "desktop", "key": "Escape"}))
        .await;
}
