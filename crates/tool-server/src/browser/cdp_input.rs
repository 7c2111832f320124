//! Trusted input over CDP (`Input.dispatch*`): the page receives real
//! pointer and keyboard events (`isTrusted`), at viewport CSS coordinates.

use super::cdp::page_call;
use super::ClickKind;
use crate::error::ToolResult;
use crate::geometry::Point;
use crate::keys::KeyCombo;
use chromiumoxide::keys::USKEYBOARD_LAYOUT;
use chromiumoxide::Page;
use serde_json::{json, Value};

async fn mouse(page: &Page, kind: &str, at: Point, button: &str, count: i64) -> ToolResult<()> {
    let buttons = match (kind, button) {
        ("mousePressed", "left") => 1,
        ("mousePressed", "right") => 2,
        _ => 0,
    };
    page_call(
        page,
        "Input.dispatchMouseEvent",
        json!({"type": kind, "x": at.x, "y": at.y, "button": button, "buttons": buttons, "clickCount": count}),
    )
    .await
    .map(drop)
}

pub(crate) async fn click(page: &Page, at: Point, kind: ClickKind) -> ToolResult<()> {
    let (button, presses) = match kind {
        ClickKind::Single => ("left", 1),
        ClickKind::Double => ("left", 2),
        ClickKind::Right => ("right", 1),
    };
    // Sent in order without waiting for each acknowledgement: Chromium
    // acknowledges a mouse move at the page's next frame (16.7 ms on an
    // idle page, measured), but the press that follows flushes the queued
    // move first, so the page still sees move, down, up in that order (a
    // click took 16.5 ms this way against 3.7 pipelined). A double click is
    // two press/release pairs with rising clickCount, as a real mouse
    // produces (click, click, dblclick).
    let mut events = vec![mouse(page, "mouseMoved", at, "none", 0)];
    for count in 1..=presses {
        events.push(mouse(page, "mousePressed", at, button, count));
        events.push(mouse(page, "mouseReleased", at, button, count));
    }
    futures::future::try_join_all(events).await.map(drop)
}

pub(crate) async fn wheel(page: &Page, at: Point, dx: f64, dy: f64) -> ToolResult<()> {
    page_call(
        page,
        "Input.dispatchMouseEvent",
        json!({"type": "mouseWheel", "x": at.x, "y": at.y, "deltaX": dx, "deltaY": dy}),
    )
    .await?;
    // Let the scroll reach the page before answering.
    page_call(
        page,
        "Runtime.evaluate",
        json!({"expression": "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))", "awaitPromise": true}),
    )
    .await
    .map(drop)
}

struct KeyDef {
    key: String,
    code: String,
    key_code: i64,
    text: Option<String>,
}

fn key_def(key: &str) -> Option<KeyDef> {
    let d = USKEYBOARD_LAYOUT.iter().find(|d| d.key == key)?;
    let text = d
        .text
        .map(String::from)
        .or_else(|| (key.chars().count() == 1).then(|| key.to_string()));
    Some(KeyDef {
        key: d.key.to_string(),
        code: d.code.to_string(),
        key_code: d.key_code,
        text,
    })
}

async fn key_event(
    page: &Page,
    kind: &str,
    d: &KeyDef,
    modifiers: i64,
    with_text: bool,
) -> ToolResult<()> {
    let mut p = json!({
        "type": kind, "key": d.key, "code": d.code, "modifiers": modifiers,
        "windowsVirtualKeyCode": d.key_code, "nativeVirtualKeyCode": d.key_code,
    });
    if with_text {
        if let Some(t) = &d.text {
            p["text"] = Value::from(t.as_str());
            p["unmodifiedText"] = Value::from(t.as_str());
        }
    }
    page_call(page, "Input.dispatchKeyEvent", p).await.map(drop)
}

/// Types `text`: characters of the US layout as key down/up pairs (the page
/// sees keydown, keypress, input, keyup), any other character (accents,
/// emoji) as inserted text, which is what a keyboard's IME produces.
pub(crate) async fn type_keystrokes(page: &Page, text: &str) -> ToolResult<()> {
    let mut buf = [0u8; 4];
    for ch in text.chars() {
        let s: &str = if ch == '\n' {
            "Enter"
        } else {
            ch.encode_utf8(&mut buf)
        };
        match key_def(s) {
            Some(d) => {
                key_event(page, "keyDown", &d, 0, true).await?;
                key_event(page, "keyUp", &d, 0, false).await?;
            }
            None => {
                page_call(page, "Input.insertText", json!({"text": s})).await?;
            }
        }
    }
    Ok(())
}

/// Presses a combination: modifiers down in order, the key, then all up in
/// reverse. Text is produced only without Ctrl/Alt/Meta, as on a keyboard.
pub(crate) async fn keypress(page: &Page, combo: &KeyCombo) -> ToolResult<()> {
    let mut modifiers = 0;
    let mut held = Vec::new();
    for m in &combo.modifiers {
        if let Some(d) = key_def(m.key()) {
            modifiers |= m.cdp_bit();
            key_event(page, "rawKeyDown", &d, modifiers, false).await?;
            held.push((d, m.cdp_bit()));
        }
    }
    let d = key_def(&combo.key).unwrap_or_else(|| KeyDef {
        key: combo.key.clone(),
        code: String::new(),
        key_code: 0,
        text: None,
    });
    let produces_text = modifiers & (1 | 2 | 4) == 0 && d.text.is_some();
    let down = if produces_text {
        "keyDown"
    } else {
        "rawKeyDown"
    };
    key_event(page, down, &d, modifiers, produces_text).await?;
    key_event(page, "keyUp", &d, modifiers, false).await?;
    for (d, bit) in held.into_iter().rev() {
        modifiers &= !bit;
        key_event(page, "keyUp", &d, modifiers, false).await?;
    }
    Ok(())
}
